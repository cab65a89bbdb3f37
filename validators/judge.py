"""Judging a sequence of actions, and comparing a replayed state with the files.

``nomic act``, ``nomic check`` and ``nomic replay`` all go through ``judge``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from itertools import compress, count, repeat
from operator import is_not
from typing import Any, Callable, Iterable, Iterator

from . import schemas
from .content import SCHEMA_LINE, GameFiles
from .engine import Action, Applied, Registry, Rule, State, apply_action, in_force, too_late
from .problems import BAD_INPUT, BadInput, Illegal, Problem, format_path
from .timeutil import file_stamp, parse_time
from .yamlio import locate, same_data


def param_problems(action: Action, record: dict[str, Any]) -> list[Problem]:
    """The record's shape (action.schema.json), then its parameters against the action's own schema."""
    problems = schemas.errors(record, schema="action.schema.json", kind=BAD_INPUT)
    if problems:
        return problems
    return only_param_problems(action, record)


def only_param_problems(action: Action, record: dict[str, Any]) -> list[Problem]:
    """The parameters against the action's own schema (for a record whose shape is already checked)."""
    kept = _PARAM_KEYS.get(action.name)
    if kept is None or kept[0] is not action.params:
        kept = _PARAM_KEYS[action.name] = (action.params, schemas.inline_key_of(dict(action.params)))
    params = record.get("params") or {}
    problems = schemas.errors(params, inline=dict(action.params), inline_key=kept[1], prefix=("params",),
                              kind=BAD_INPUT)
    said = {p.field for p in problems}  # a value its schema refuses already is not told off twice
    return problems + [p for p in (*control_problems(params, ("params",)), *control_problems(record.get("note"),
                                                                                              ("note",)))
                       if p.field not in said]


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")  # what a text may not hold: control characters but tab, line break


def control_problems(value: Any, at: tuple[Any, ...]) -> list[Problem]:
    """Control characters in an action's texts (its parameters and its note), each text's first, at its field.

    YAML writes them as escapes ("\\e[31m"), so a hand-written file or ``nomic act --note`` can carry them; the
    wiki would show them as nothing, or a terminal showing the log would obey them. Line breaks and tabs are text.
    """
    if isinstance(value, str):
        found = _CONTROL.search(value)
        if found is None:
            return []
        return [Problem(f"holds the control character U+{ord(found.group()):04X} (character {found.start() + 1}); "
                        "a text may hold line breaks and tabs, but no other control characters",
                        field=format_path(at), kind=BAD_INPUT)]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in (*control_problems(k, at), *control_problems(v, (*at, k)))]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in control_problems(v, (*at, i))]
    return []


_PARAM_KEYS: dict[str, tuple[Any, str]] = {}  # action name -> (its params, their schema's key)


@dataclass
class Step:
    """One action as judged."""

    path: str
    record: dict[str, Any]
    problems: list[Problem] = field(default_factory=list)
    applied: Applied | None = None

    @property
    def legal(self) -> bool:
        return not self.problems


def judge_one(registry: Registry, state: State, record: dict[str, Any], path: str, text: str | None = None,
              now: datetime | None = None, check_recorded: bool = True, shape_checked: bool = False) -> Step:
    """Replay one action: problems are placed in the action file when it exists.

    ``shape_checked``: the record was read with ``content.read_action``, which checked it against
    action.schema.json already; only its parameters are left to check.
    """
    step = Step(path, record)
    try:
        try:
            at = parse_time(record.get("at", ""))
        except ValueError as e:
            raise BadInput(Problem(str(e), field="at", kind=BAD_INPUT)) from None
        _same_second_order(state, record, path)
        late = too_late(at, now)
        if late is not None:
            raise Illegal(late)
        applied = apply_action(registry, state, record,
                               validate_params=only_param_problems if shape_checked else param_problems)
    except (Illegal, BadInput) as e:
        step.problems = [_place(cite(state, p), path, text) for p in e.problems]
        return step
    step.applied = applied
    if check_recorded:
        recorded = record.get("dice", [])
        if recorded != applied.dice:
            step.problems.append(_place(Problem(f"replay gives {applied.dice}, file says {recorded}", field="dice",
                                                rule="dice"), path, text))
        recorded_outcome = record.get("outcome", [])
        if recorded_outcome != applied.outcome:
            step.problems.append(_place(Problem(f"replay gives {_short(applied.outcome)}, file says "
                                                f"{_short(recorded_outcome)}", field="outcome", rule="outcome"),
                                        path, text))
    return step


def _same_second_order(state: State, record: dict[str, Any], path: str) -> None:
    """Two actions in one second are replayed in file-name order; a new one must not sort before the last.

    Otherwise ``nomic act`` (which applies actions in the order they are taken) and the audit of the log
    (which replays them in file-name order) could disagree.
    """
    last = str(state.docs.get("ledger", {}).get("last", ""))
    if not path or not last.startswith(str(record.get("at"))):  # the usual case: another second
        return
    parts = last.split(" ")
    if len(parts) < 3 or parts[0] != record.get("at"):
        return
    from .act import slug
    from .content import action_sort_key

    at, actor, action = parts[0], " ".join(parts[1:-1]), parts[-1]
    last_name = f"{file_stamp(at)}--{slug(actor)}--{action}.yaml"
    mine = action_sort_key(path.rsplit("/", 1)[-1])
    if mine <= action_sort_key(last_name):
        raise Illegal(Problem(f"the last action ({last}) was taken in the same second and its file sorts after "
                              "this one's; the log is replayed in file-name order, so date this action at least "
                              "one second later", field="at", rule="time"))


_RULE_ID = re.compile(r"[a-z0-9][a-z0-9_-]*")  # a rule file's id, as content/<game>/ruleset/<id>.md
_ENGINE_RULES = {"time", "dice", "outcome"}  # the engine cites its own rules in one word, not the ruleset's


def cite(state: State, p: Problem) -> Problem:
    """Name the rule as the game numbers it: an action cites rule ids, the game's ruleset gives "1.5 Enactment"."""
    rule = state.rules.get(p.rule)
    if rule is not None:
        return p.at(rule=rule.cite())
    if p.rule not in _ENGINE_RULES and _RULE_ID.fullmatch(p.rule):
        # a rule id the game's ruleset does not have (a game set up without it): say so, rather than leave a file id
        # that reads like a citation; a rule named in words ("scheduled events") is a citation already
        return p.at(rule=f"{p.rule} (no such rule in this game's ruleset)")
    return p


def cited(state: State, rule: str) -> str:
    """A rule id as the game numbers it ("2.2.1 Locations"), as ``cite`` names a problem's rule."""
    return cite(state, Problem("", rule=rule)).rule


def _short(value: Any) -> str:
    import json

    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 120 else text[:117] + "..."


def _place(p: Problem, path: str, text: str | None) -> Problem:
    line = col = 0
    if text is not None:
        parts: list[object] = []
        for seg in p.field.replace("]", "").replace("[", ".").split("."):
            if seg:
                parts.append(int(seg) if seg.isdigit() else seg)
        line, col = locate(text, parts or ["action"])
    return p.at(file=p.file or path, line=p.line or line, col=p.col or col, action=path)


# ---------------------------------------------------------------- comparing states


Lists = Callable[[list, list, tuple], "Iterable[tuple[tuple, Any, Any]] | None"]  # see ``diff``


def diff(a: Any, b: Any, path: tuple = (), lists: Lists | None = None) -> Iterator[tuple[tuple, Any, Any]]:
    """(path, value in a, value in b) for each place the two differ; MISSING marks an absent key.

    Equal subtrees are skipped with one comparison (done in C): an action changes a few values of large
    documents, and states share what did not change. Equal means of equal types too: ``{"k": 1}`` and
    ``{"k": True}`` compare equal in Python, so containers that do are also compared with their types
    (``yamlio.same_data``, in C first) before they are skipped. The children that are not the very same
    object on both sides are found in C too (``map(is_not, ...)``), so a map of 1,000 locations of which
    one changed costs one Python step, not 1,000.

    Two lists are compared place by place, unless ``lists`` (given two lists that differ and their path)
    returns the differences itself (the wiki pairs named records by name: ``site_plugins/changes.py``).
    """
    if a is b or (type(a) is type(b) and a == b and (not isinstance(a, (dict, list)) or same_data(a, b))):
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for k in compress(a, map(is_not, a.values(), map(b.get, a, repeat(MISSING)))):
            if k not in b:
                yield path + (k,), a[k], MISSING
            else:
                yield from diff(a[k], b[k], path + (k,), lists)
        if len(b) != len(a) or b.keys() != a.keys():
            for k in b:
                if k not in a:
                    yield path + (k,), MISSING, b[k]
        return
    if isinstance(a, list) and isinstance(b, list):
        if lists is not None and (own := lists(a, b, path)) is not None:
            yield from own
            return
        for i in compress(count(), map(is_not, a, b)):
            yield from diff(a[i], b[i], path + (i,), lists)
        for i in range(len(b), len(a)):
            yield path + (i,), a[i], MISSING
        for i in range(len(a), len(b)):
            yield path + (i,), MISSING, b[i]
        return
    if type(a) is not type(b) or a != b:
        yield path, a, b


class _Missing:
    def __repr__(self) -> str:
        return "nothing"


MISSING = _Missing()


def _show(v: Any) -> str:
    if v is MISSING:
        return "nothing"
    import json

    text = json.dumps(v, ensure_ascii=False, default=str)
    return text if len(text) <= 80 else text[:77] + "..."


def compare(replayed: State, files: GameFiles, rule_label: str = "replay") -> list[Problem]:
    """Every place where the files differ from the replayed state, as ``replay gives X, file says Y``."""
    problems: list[Problem] = []
    on_disk = files.state
    cfg_path = f"{files.root}/game.yaml"
    for path, want, got in diff(replayed.config, on_disk.config):
        problems.append(_difference(cfg_path, files.texts.get(cfg_path), path, want, got))
    for kind in sorted(set(replayed.docs) | set(on_disk.docs)):
        file = files.doc_paths.get(kind, f"{files.root}/gamestate/{kind}.yaml")
        if kind not in on_disk.docs:
            problems.append(Problem(f"replay gives a {kind} document, the file is missing", file))
            continue
        if kind not in replayed.docs:
            problems.append(Problem("replay gives no such document", file))
            continue
        for path, want, got in diff(replayed.docs[kind], on_disk.docs[kind]):
            problems.append(_difference(file, files.texts.get(file), path, want, got))
    problems.extend(compare_rules(replayed.rules, files))
    return problems


def _difference(file: str, text: str | None, path: tuple, want: Any, got: Any) -> Problem:
    line, col = locate(text, path) if text is not None else (0, 0)
    return Problem(f"replay gives {_show(want)}, file says {_show(got)}", file, line, col, format_path(path),
                   rule="the replay of the action log")


def compare_rules(replayed: dict[str, Rule], files: GameFiles) -> list[Problem]:
    problems = []
    for rid in sorted(set(replayed) | set(files.state.rules)):
        path = files.rule_paths.get(rid, f"{files.root}/ruleset/{rid}.md")
        want, got = replayed.get(rid), files.state.rules.get(rid)
        why = "ruleset edits are made only by enacted proposals and other legal actions"
        if got is None:
            problems.append(Problem(f"rule {rid!r} is missing; {why}", path, rule="1.1 Ruleset and Gamestate"))
            continue
        if want is None:
            problems.append(Problem(f"rule {rid!r} was added, but no action adds it; {why}", path, 1, 1,
                                    rule="1.1 Ruleset and Gamestate"))
            continue
        text = files.texts.get(path, "")
        for fpath, a, b in diff(want.meta, got.meta):
            front = text.split("\n---\n", 1)[0][4:] if text.startswith("---\n") else ""
            line, col = locate(front, fpath)
            problems.append(Problem(f"replay gives {_show(a)}, file says {_show(b)}; {why}", path,
                                    line + 1 if line else 0, col, format_path(fpath),
                                    rule="1.1 Ruleset and Gamestate"))
        if want.body != got.body:
            start = text.find("\n---\n") + 5 if "\n---\n" in text else 0
            first = _first_difference(want.body, got.body)
            line = text.count("\n", 0, start) + 1 + want.body.count("\n", 0, first)
            problems.append(Problem(f"the rule's text differs from what the enacted proposals give; {why}", path,
                                    line, 1, "text", rule="1.1 Ruleset and Gamestate"))
    return problems


def _first_difference(a: str, b: str) -> int:
    n = min(len(a), len(b))
    for i in range(n):
        if a[i] != b[i]:
            return a.rfind("\n", 0, i) + 1
    return n


def invariants(files: GameFiles) -> list[Problem]:
    """Checks of a whole state: the roster's stats, each module's own invariants."""
    from .roster import check_roster

    roster_path = files.doc_paths.get("roster", f"{files.root}/gamestate/roster.yaml")
    out = []
    for p in check_roster(files.state, roster_path):
        out.append(_locate_field(p, files, roster_path))
    for module in files.registry.modules:
        for inv in in_force(files.state, module.invariants):  # not those of a repealed rule (engine.ruled)
            for p in inv(files.state):
                file = _guess_file(p, files)
                out.append(_locate_field(p.at(file=file), files, file))
    return out


def state_problems(state: State, registry: Registry) -> list[Problem]:
    """The checks of ``invariants`` on a state that is no set of files (one tried out, not written): each problem
    names the document it is in (``roster`` for the roster's), with no line."""
    from .roster import check_roster

    out = list(check_roster(state, "roster"))
    for module in registry.modules:
        for inv in in_force(state, module.invariants):
            out.extend(inv(state))
    return out


def initial_problems(files: GameFiles) -> list[Problem]:
    """The founding state (``initial/``) checked as the current one is (``invariants``: the roster's declared
    stats, each module's own invariants), as bad input at the line and field of its file: the replay starts from
    it, and its rules read each value as those checks promise (a number where a number is declared, a room named
    once, a Hand in a rule that exists)."""
    return [p.at(kind=BAD_INPUT) for p in invariants(files)]


def _guess_file(p: Problem, files: GameFiles) -> str:
    """Invariants name a document kind as their file; place it in that document's file."""
    return files.doc_paths.get(p.file, files.config_path or f"{files.root}/game.yaml")


def _locate_field(p: Problem, files: GameFiles, file: str) -> Problem:
    text = files.texts.get(file)
    if text is None or p.line:
        return p
    parts: list[object] = []
    for seg in p.field.replace("]", "").replace("[", ".").split("."):
        if seg:
            parts.append(int(seg) if seg.isdigit() else seg)
    line, col = locate(text, parts)
    return p.at(line=line, col=col)


def schema_header(path: str, schema: str) -> str:
    depth = path.count("/")
    return SCHEMA_LINE + "../" * depth + "schemas/" + schema
