"""Rule cases as data: one YAML file of cases per rule, run by one parametrized test.

A case file (``tests/cases/<module>/<rule>.yaml``)::

    game: blognomic-core        # a game folder under tests/fixtures/content/ (or content/)
    part: ""                    # "initial/" to start from the game's founding state
    rule: "1.5 Enactment"        # the rule these cases exercise, as the game numbers it
    cases:
      - name: quorum after twelve hours enacts
        says: >-                 # what the rule says, in our words, that this case checks
          Quorum FOR and open 12 hours is enough to enact.
        given:                   # JSON Patch applied to the base state first (optional)
          - {op: replace, path: /dynasty/leader, value: Bruno}
        actions:                 # taken in order; every one but the last must be legal
          - {at: 2026-11-02T12:00:00Z, actor: Chidi, action: core.propose, params: {title: X}}
          - {at: 2026-11-03T01:00:00Z, actor: Bruno, action: core.enact, params: {proposal: 1},
             dice: [3]}          # optional: force these dice for this action
        expect: legal            # legal | illegal | bad-input (for the last action)
        error: cannot be enacted # for illegal/bad-input: a part of the message
        errors: [cannot be enacted]  # or: every problem, one part each, and no other problem
        then:                    # values after the last action (JSON Pointer into the state)
          - {path: /proposals/proposals/id=1/status, value: enacted}
          - {path: /rules/fair-play/meta/status, value: repealed}
          - {path: /outcome/0/result, value: enacted}

Paths start with a document kind, or ``rules`` (a rule's ``meta`` or
``body``), ``config`` (game.yaml), ``outcome`` or ``dice`` (of the last
action), or ``events`` (the scheduled events fired just before it, each with
its ``event``, ``at`` and ``outcome``). A segment ``key=value`` picks the list item whose key has that value;
a number picks an item by its index (negative from the end: ``-1`` is the last).
``absent:`` lists paths that must lead nowhere: a missing key, no item with
``key=value``, or an index past either end of its list.
When the last action is refused, the state must be unchanged; that is checked
for every illegal case.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .content import WorkTree, load_game
from .dice import FixedDice
from .effects import apply_patch
from .engine import Action, Applied, Ctx, State, apply_action
from .judge import cite, param_problems
from .problems import BadInput, Illegal, Problem
from .timeutil import parse_time

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"


@dataclass
class Outcome:
    verdict: str  # legal | illegal | bad-input
    problems: list[Problem]
    state: State
    applied: Applied | None


def base_state(game: str, part: str = "") -> tuple[State, Any]:
    for root in (FIXTURES, ROOT):
        if (root / "content" / game / "game.yaml").is_file():
            files = load_game(WorkTree(root), game, part=part)
            return files.state, files.registry
    raise FileNotFoundError(f"no game {game!r} in tests/fixtures/content or content")


def patched(state: State, registry: Any, ops: list[dict[str, Any]]) -> State:
    if not ops:
        return state
    record = {"at": "2000-01-01T00:00:00Z", "actor": "", "action": "case.given", "params": {}}
    ctx = Ctx(state, Action(name="case.given", rule="", summary=""), record, parse_time(record["at"]), registry)
    rule_ops = [op for op in ops if op["path"].startswith("/rules/") or op["path"].startswith("/config/")]
    doc_ops = [op for op in ops if op not in rule_ops]
    apply_patch(ctx, doc_ops, engine=True)
    if rule_ops:
        tree = {"rules": {rid: {"meta": r.meta, "body": r.body} for rid, r in ctx.tx.edit_rules().items()},
                "config": ctx.tx.edit_config()}
        for op in rule_ops:
            _pointer_set(tree, op)
        from .engine import Rule

        ctx.tx.rules = {rid: Rule(rid, v["meta"], v["body"]) for rid, v in tree["rules"].items()}
        ctx.tx.config = tree["config"]
    return ctx.tx.commit()


def _pointer_set(tree: dict[str, Any], op: dict[str, Any]) -> None:
    segs = op["path"].split("/")[1:]
    node = tree
    for seg in segs[:-1]:
        node = node.setdefault(seg, {}) if isinstance(node, dict) else node[int(seg)]
    if op["op"] == "remove":
        del node[segs[-1]]
    else:
        node[segs[-1]] = copy.deepcopy(op["value"])


def run(state: State, registry: Any, records: list[dict[str, Any]]) -> Outcome:
    """Take the actions in order; stop at the first that is refused."""
    applied = None
    for i, record in enumerate(records):
        record = dict(record)
        forced = record.pop("dice", None)
        try:
            applied = apply_action(registry, state, record, validate_params=param_problems,
                                   dice=FixedDice(forced) if forced is not None else None)
        except Illegal as e:
            return Outcome("illegal", [cite(state, p) for p in e.problems], state, None)
        except BadInput as e:
            return Outcome("bad-input", e.problems, state, None)
        state = applied.state
    return Outcome("legal", [], state, applied)


def lookup(state: State, applied: Applied | None, path: str) -> Any:
    segs = [s.replace("~1", "/").replace("~0", "~") for s in path.split("/")[1:]]
    head, rest = segs[0], segs[1:]
    if head == "rules":
        rule = state.rules[rest[0]]
        node: Any = {"meta": rule.meta, "body": rule.body}
        rest = rest[1:]
    elif head == "config":
        node = state.config
    elif head in ("outcome", "dice", "events"):
        node = getattr(applied, head) if applied else None
    else:
        node = state.docs[head]
    for seg in rest:
        if isinstance(node, list):
            if "=" in seg:
                key, _, value = seg.partition("=")
                hits = [x for x in node if isinstance(x, dict) and str(x.get(key)) == value]
                if len(hits) != 1:
                    raise KeyError(f"{path}: {len(hits)} items with {key}={value}")
                node = hits[0]
            else:
                i = int(seg)
                if not -len(node) <= i < len(node):  # absent, as a missing key is (not an IndexError)
                    raise KeyError(f"{path}: no item {i} in a list of {len(node)}")
                node = node[i]
        elif isinstance(node, dict):
            if seg not in node:
                raise KeyError(f"{path}: no {seg!r}")
            node = node[seg]
        else:
            raise KeyError(f"{path}: cannot go into {node!r}")
    return node
