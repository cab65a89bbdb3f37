"""Machine-readable effects of proposals and judgments, applied on enactment.

Gamestate edits are a JSON Patch (RFC 6902) whose first path segment names
the document: ``/roster/players/name=Bob/stats/bananas``. A segment of the
form ``key=value`` picks the one item of a list whose ``key`` equals
``value`` (players move around in lists; names do not).

Rule edits: ``add`` (a new rule; placed in the dynastic section unless the
proposal says otherwise, seed 001 "Rules and Proposals"), ``amend`` (new
text and/or title), ``repeal``, ``renumber``, ``retitle``. Each appends to
the rule's history who did it and when. A rule's number is stored as a string, as
every rule file writes it (``number: 12`` and ``number: "12"`` in a proposal give
the same rule); a number that is neither a whole number nor a string is refused.
"""

from __future__ import annotations

import copy
import math
from typing import Any

from .engine import Ctx, Rule, peek
from .problems import Illegal, Problem
from .timeutil import format_time


def _unescape(seg: str) -> str:
    return seg.replace("~1", "/").replace("~0", "~")


def _segments(path: str) -> list[str]:
    if not path.startswith("/"):
        raise ValueError(f"path {path!r} must start with '/'")
    return [_unescape(s) for s in path.split("/")[1:]]


def _step(node: Any, seg: str, path: str) -> Any:
    if isinstance(node, dict):
        if seg not in node:
            raise ValueError(f"{path}: no key {seg!r}")
        return node[seg]
    if isinstance(node, list):
        return node[_index(node, seg, path, allow_end=False)]
    raise ValueError(f"{path}: cannot go into a {type(node).__name__}")


def _index(node: list, seg: str, path: str, allow_end: bool) -> int:
    if "=" in seg:
        key, _, value = seg.partition("=")
        # read without copying (``peek``, ``dict.get``): a proposal's patch of one player's stat names the player
        # (players/name=Alice), and going through the list would copy every entry of the roster on the way
        hits = [i for i, item in enumerate(peek(node)) if isinstance(item, dict) and str(dict.get(item, key)) == value]
        if len(hits) != 1:
            raise ValueError(f"{path}: {len(hits)} items have {key} = {value!r}; need exactly one")
        return hits[0]
    if seg == "-" and allow_end:
        return len(node)
    if not seg.isdigit():
        raise ValueError(f"{path}: {seg!r} is not a list index")
    i = int(seg)
    if i > len(node) or (i == len(node) and not allow_end):
        raise ValueError(f"{path}: index {i} is out of range")
    return i


def _parent(ctx: Ctx, path: str, engine: bool = False) -> tuple[Any, str]:
    segs = _segments(path)
    if not segs or not segs[0]:
        raise ValueError(f"path {path!r} must name a gamestate document")
    kind = segs[0]
    if kind == "ledger" and not engine:
        raise ValueError("the ledger is kept by the engine and cannot be patched")
    if kind not in ctx.state.docs:
        raise ValueError(f"{path}: no gamestate document {kind!r}")
    if len(segs) == 1:
        raise ValueError(f"{path}: replace fields of a document, not the document itself")
    node = ctx.edit(kind)
    for seg in segs[1:-1]:
        node = _step(node, seg, path)
    return node, segs[-1]


def _get(ctx: Ctx, path: str, engine: bool = False) -> Any:
    parent, last = _parent(ctx, path, engine)
    return _step(parent, last, path)


def apply_patch(ctx: Ctx, ops: list[dict[str, Any]], *, engine: bool = False) -> None:
    """Apply JSON Patch ``ops``; ``engine=True`` (test set-up only) may also edit the ledger."""
    for op in ops:
        kind, path = op["op"], op["path"]
        if kind in ("add", "replace", "test") and "value" not in op:
            raise ValueError(f"{kind} at {path} needs a value")
        if kind == "test":
            if _get(ctx, path, engine) != op["value"]:
                raise ValueError(f"test failed at {path}")
            continue
        if kind in ("move", "copy"):
            value = copy.deepcopy(_get(ctx, op["from"], engine))
            if kind == "move":
                apply_patch(ctx, [{"op": "remove", "path": op["from"]}], engine=engine)
            apply_patch(ctx, [{"op": "add", "path": path, "value": value}], engine=engine)
            continue
        parent, last = _parent(ctx, path, engine)
        if isinstance(parent, dict):
            if kind == "add":
                parent[last] = copy.deepcopy(op["value"])
            elif last not in parent:
                raise ValueError(f"{path}: no key {last!r}")
            elif kind == "replace":
                parent[last] = copy.deepcopy(op["value"])
            else:
                del parent[last]
        elif isinstance(parent, list):
            i = _index(parent, last, path, allow_end=kind == "add")
            if kind == "add":
                parent.insert(i, copy.deepcopy(op["value"]))
            elif kind == "replace":
                parent[i] = copy.deepcopy(op["value"])
            else:
                del parent[i]
        else:
            raise ValueError(f"{path}: cannot edit inside a {type(parent).__name__}")


def rule_number(value: Any, field: str) -> str:
    """A rule number as the rule files keep it: a string (``12`` -> ``"12"``); ValueError naming ``field`` if
    ``value`` is no rule number (a list, a mapping, a truth value, or a decimal YAML would have cut: 2.10 -> 2.1)."""
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    hint = " (quote a number with a dot, such as \"2.10\")" if isinstance(value, float) else ""
    raise ValueError(f"{field} is {value!r}, which is no rule number: give a whole number or a string{hint}")


def apply_rule_edits(ctx: Ctx, edits: list[dict[str, Any]], by: str) -> None:
    rules = ctx.tx.edit_rules()
    when = format_time(ctx.at)
    for i, e in enumerate(edits):
        op, rid = e["op"], e["id"]
        number = rule_number(e["number"], f"effects.rules[{i}].number") if "number" in e else None
        if op == "add" and rid in rules and rules[rid].meta.get("status") == "repealed":
            # a repealed rule enacted again: in force once more with the text given (and its number, title and
            # section where given), and with it the actions and events it makes (engine.repealed)
            rule = rules[rid]
            rule.meta["status"] = "active"
            rule.body = e["body"].rstrip("\n") + "\n"
            for key, value in (("number", number), ("title", e.get("title")), ("section", e.get("section"))):
                if value is not None:
                    rule.meta[key] = value
            rule.meta.setdefault("history", []).append({"event": "restored", "by": by, "at": when})
            continue
        if op == "add":
            if rid in rules:
                raise ValueError(f"rule {rid!r} already exists (a rule in force is changed by amend)")
            meta: dict[str, Any] = {"id": rid, "number": number or "", "title": e.get("title", rid),
                                    "section": e.get("section", "dynastic"), "status": "active"}
            for opt in ("parent", "colour"):
                if opt in e:
                    meta[opt] = e[opt]
            meta["history"] = [{"event": "enacted", "by": by, "at": when}]
            rules[rid] = Rule(rid, meta, e.get("body", "").rstrip("\n") + "\n")
            # the repealed rules whose very text this one enacts again under a new id (the module finds them: a
            # player's effects cannot name them): their actions, events and conditions are in force again while
            # this rule is (engine.repealed_in)
            carried = [c for c in e.get("carries") or () if c in rules and c != rid]
            if carried:
                meta["carries"] = carried
                for c in carried:
                    old = rules[c]
                    old.meta["carried_by"] = rid
                    old.meta.setdefault("history", []).append(
                        {"event": "carried", "by": by, "at": when,
                         "note": f"its text enacted again as {rules[rid].cite()}"[:200]})
            continue
        if rid not in rules:
            raise ValueError(f"no rule {rid!r}")
        rule = rules[rid]
        if op == "amend":
            if "body" in e:
                rule.body = e["body"].rstrip("\n") + "\n"
            if "title" in e:
                rule.meta["title"] = e["title"]
            event = "amended"
        elif op == "repeal":
            if rule.meta.get("status") == "repealed":
                raise ValueError(f"rule {rid!r} is already repealed")
            rule.meta["status"] = "repealed"
            event = "repealed"
        elif op == "renumber":
            if number is None:
                raise ValueError(f"effects.rules[{i}] renumbers rule {rid!r} but gives no number")
            rule.meta["number"] = number
            event = "renumbered"
        else:  # retitle
            if "title" not in e:
                raise ValueError(f"effects.rules[{i}] retitles rule {rid!r} but gives no title")
            rule.meta["title"] = e["title"]
            event = "retitled"
        rule.meta.setdefault("history", []).append({"event": event, "by": by, "at": when})


def apply_effects(ctx: Ctx, effects: dict[str, Any] | None, by: str, rule: str, *, validate: bool = True) -> None:
    """Apply a proposal's (or CfJ's) effects, or refuse the whole action saying which one cannot apply.

    Effects that would leave a document against its schema are refused here, before any rule reads the
    document (a rule trusts the schema: a list where it expects one, a time where it expects a time), with the
    first problem's field. ``validate=False``: the caller completes the documents first and checks them itself
    (``schema_problem``).
    """
    if not effects:
        return
    ops = effects.get("gamestate", [])
    try:
        apply_rule_edits(ctx, effects.get("rules", []), by)
        clamped = patch_gamestate(ctx, ops)
    except ValueError as e:
        raise Illegal(Problem(f"{by}'s effects cannot be applied: {e}", rule=rule)) from None
    if clamped:
        ctx.step({"bounded": clamped})
    if validate and ops:
        kinds = {_segments(path)[0] for op in ops for path in (op.get("path"), op.get("from")) if path}
        why = schema_problem(ctx, sorted(kinds))
        if why:
            raise Illegal(Problem(f"{by}'s effects cannot be applied: {why}", rule=rule))


def patch_gamestate(ctx: Ctx, ops: list[dict[str, Any]]) -> list[str]:
    """A proposal's (or CfJ's) JSON Patch on the gamestate, then its roster stats held to their bounds
    (``clamp_stats``); what was set to a bound, in words. Raises ValueError as ``apply_patch`` does."""
    apply_patch(ctx, ops)
    if any(str(op.get("path", "")).split("/")[1:2] == ["roster"] for op in ops):
        return clamp_stats(ctx)
    return []


def clamp_stats(ctx: Ctx) -> list[str]:
    """Set every whole-number stat of the roster that lies past one of its declared bounds to that bound; what was set,
    in words ("Ben's Stuffs: 250 is past the maximum, set to 200").

    Seed 001, Numbers and Variables: whatever would take a number below zero sets it to zero; seed 003 rule 10:
    an effect that would take Stuffs past either bound sets them to the bound, and only a cost is refused. So a
    proposal's (or CfJ's) patch that writes a stat past its bounds is applied with the bound, as ``change_stat``
    does for the rules' own changes, rather than refused. Seed 003 rule 10 also rounds a fractional value of Stuffs
    down to a whole number: a stat a module names in ``Module.round_down`` (while the rule it cites is in force) is
    rounded down first, then held to its bounds ("Ben's Stuffs: 50.5 is no whole number, rounded down to 50").
    Any other value of the wrong kind is left for the check to refuse. The roster is edited only when a value must
    change.
    """
    from .engine import peek_items, repealed
    from .roster import bounds

    roster = ctx.doc("roster")
    # read without copying (peek, dict.get): a patch of one stat must not copy every player's for a look
    defs = dict.get(roster, "stats") if isinstance(roster, dict) else None
    players = dict.get(roster, "players") if isinstance(roster, dict) else None
    if not isinstance(defs, dict) or not isinstance(players, list):
        return []
    limits = {name: bounds(d) for name, d in peek_items(defs)
              if isinstance(d, dict) and dict.get(d, "type") == "integer"}
    # seed 003 rule 10: the stats whose fractions are rounded down, each while the rule saying so is in force
    down = {name for m in ctx.registry.modules for name, rule in m.round_down.items()
            if name in limits and not repealed(ctx, rule)}
    fixes: list[tuple[int, str, int, bool]] = []
    for i, p in enumerate(peek(players)):
        stats = dict.get(p, "stats") if isinstance(p, dict) else None
        if not isinstance(stats, dict):
            continue
        for name, v in peek_items(stats):
            rounded = type(v) is float and name in down and math.isfinite(v)
            if rounded:
                v = math.floor(v)
            elif type(v) is not int or name not in limits:
                continue
            lo, hi = limits[name]
            to = lo if lo is not None and v < lo else hi if hi is not None and v > hi else v if rounded else None
            if to is not None:
                fixes.append((i, name, to, rounded))
    said = []
    if fixes:
        edited = ctx.edit("roster")["players"]
        for i, name, to, rounded in fixes:
            p = edited[i]
            was = p["stats"][name]
            label = f"{p.get('name')}'s {defs[name].get('label', name)}: {was}"
            if rounded and was == to:
                said.append(f"{label} is written as a fraction, set to {to}")
            elif rounded and math.floor(was) == to:
                said.append(f"{label} is no whole number, rounded down to {to}")
            else:
                said.append(f"{label} is {'no whole number and ' if rounded else ''}past the "
                            f"{'minimum' if was < to else 'maximum'}, set to {to}")
            p["stats"][name] = to
    return said


def schema_problem(ctx: Ctx, kinds: Any) -> str | None:
    """The first schema error of the documents ``kinds`` as ``ctx`` has them, said in a sentence, or None."""
    from .schemas import errors, limit_errors

    for kind in kinds:
        if kind not in ctx.state.docs:
            continue
        known = ctx.registry.docs.get(kind)
        found = errors(ctx.doc(kind), schema=known.schema if known else f"{kind}.schema.json", file=kind)
        if not found and known is not None:  # what the schema cannot say (one field against another)
            found = limit_errors(ctx.doc(kind), known.limits, file=kind)
        if found:
            return f"they would leave {kind} invalid: {found[0].field}: {found[0].message}"
    return None
