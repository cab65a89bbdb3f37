"""What happens by itself after every action (seed 003 rules 13, 15), and the gate on Declarations of Victory.

* Launch Base Zone: a Muffin at Position 4 is Robot; its arrival there is noted (for the Eggman roll and
  Eggman's Minion's 48 hours). Looked at after each action that changed the roster or the module's document (no
  other can move a Muffin or its arrival).
* Limbo: nothing about a Muffin in Limbo may change but its Position, set to 9 by itself or by a Muffin in
  Limbo with the same Position value; a Muffin in Limbo may change nothing of Muffins at other Positions.
  A quazie action that would do so is refused; a core action (say, the 5-Stuff deduction on enactment)
  leaves the Muffin in Limbo as it was. The end of a dynasty (DoV, Ascension) is not bound by it.
* Robot: a Robot Muffin may not declare victory (rule 13).
"""

from __future__ import annotations

from itertools import compress
from operator import is_not
from typing import Any, Callable, Iterator

from ...engine import Ctx, Remembered, peek, repealed, ruled
from ...problems import Illegal, Problem
from ...timeutil import format_time
from .common import LAUNCH_BASE, R_FLAVOURS, R_ROLES, R_SPECIAL, ROBOT, in_limbo, stat

LIMBO_KING = "Limbo King"
EXEMPT = {"core.dov-resolve", "core.ascend", "core.join", "core.leave"}


_NO_STATS: dict[str, Any] = {}  # a Muffin without stats reads as one with none (never written)


def _at_launch_base(players: Any) -> tuple[set[str], set[str], bool]:
    """Who is at Position 4, who of a name there is not Robot (``stat``, without a call per Muffin), and whether
    every name is given once."""
    at4 = {p["name"] for p in players if p.get("stats", _NO_STATS).get("position") == LAUNCH_BASE}
    unrobot = {p["name"] for p in players if p["name"] in at4 and p.get("stats", _NO_STATS).get("flavour") != ROBOT} \
        if at4 else set()
    return at4, unrobot, len({p["name"] for p in players}) == len(players)


def _carried(facts: tuple[set[str], set[str], bool], old: list[Any], new: list[Any]) -> Any:
    """``_at_launch_base`` of ``new`` from that of ``old``, reading only the entries ``new`` replaced (found by
    identity, in C; an entry still there is the very object, so what it gave stands); None when it cannot be
    carried: someone came, left or moved, or a name is given twice."""
    if not facts[2] or len(new) != len(old):
        return None
    places = replaced_at(new, old)
    reached = [new[i] for i in places]
    if any(p["name"] != old[i]["name"] for i, p in zip(places, reached)):
        return None
    names = {p["name"] for p in reached}
    here, off, _ = _at_launch_base(reached)
    return (facts[0] - names) | here, (facts[1] - names) | off, True


# The players list of the state before the last action (a state's plain list never changes) and its
# ``_at_launch_base``: the next state's is carried from it, as most actions reach one Muffin or two, if any
_KEPT: list[Any] = [None, None]


def launch_base(ctx: Ctx) -> None:
    if "roster" not in ctx.tx.docs and "quazie" not in ctx.tx.docs:
        return  # no Position and no arrival changed: as the last action that changed them left them
    base = ctx.tx.base.docs["roster"]["players"]
    kept, facts = _KEPT
    if base is not kept:
        facts = (_carried(facts, kept, base) if kept is not None else None) or _at_launch_base(base)
        if type(base) is list:
            _KEPT[:] = [base, facts]
    if "roster" in ctx.tx.docs:
        now = list(peek(ctx.tx.docs["roster"]["players"]))  # read after every action: read without copying
        facts = _carried(facts, base, now) or _at_launch_base(now)
    at4, unrobot, _ = facts
    seen = ctx.doc("quazie").get("launch_base", {})
    # seed 003 rule 15 "Special Position Rules" makes a Muffin at Position 4 Robot; with it repealed nobody turns
    # Robot there, while the arrivals are still noted (rule 23's Eggman's Minion counts its 48 hours from them)
    robot = not repealed(ctx, R_SPECIAL)
    if set(seen) != at4 or (robot and unrobot):
        q = ctx.edit("quazie")
        lb = q.setdefault("launch_base", {})
        for name in list(lb):
            if name not in at4:
                del lb[name]
        for name in sorted(at4):
            if name not in lb:
                lb[name] = {"since": format_time(ctx.at), "rolled": False}
            if not robot:
                continue
            p = ctx.edit_player(name)
            if stat(p, "flavour") != ROBOT:
                ctx.step({"flavour": name, "from": stat(p, "flavour"), "to": ROBOT, "because": "Launch Base Zone"})
                p["stats"]["flavour"] = ROBOT
        if not lb:
            q.pop("launch_base", None)


def _changed(old: dict[str, Any], new: dict[str, Any]) -> set[str]:
    # read with ``dict.get``: only compared, so a copy-on-write map's values need no copy
    return {k for k in set(old) | set(new) if dict.get(old, k) != dict.get(new, k)}


def of_roster(table: Remembered, players: list[Any], make: Callable[[list[Any]], Any]) -> Any:
    """``make(players)`` of the players list of the state before the action, remembered in ``table`` by the list's
    identity: a committed state's plain list never changes, and the consequences of every action that reached a
    Muffin ask about it, while most actions leave it as it was. (A list still being edited is not remembered.)"""
    hit = table.get(players) if type(players) is list else Remembered.MISSING
    if hit is Remembered.MISSING:
        hit = make(players)
        if type(players) is list:
            table.put(players, hit)
    return hit


_BY_NAME = Remembered(8)


def by_name(players: list[Any]) -> dict[str, Any]:
    """The entries of the roster before the action by name (of a name given twice, the last)."""
    return of_roster(_BY_NAME, players, lambda ps: {p["name"]: p for p in ps})


def replaced_at(now: list[Any], base: list[Any]) -> Any:
    """The places where the players list ``now`` no longer holds the very object ``base`` (the state before the
    action) holds, found by identity, in C; every place when someone was added or removed."""
    if len(now) == len(base):
        return list(compress(range(len(now)), map(is_not, now, base)))
    return range(len(now))


def reached_players(ctx: Ctx) -> list[tuple[dict[str, Any], dict[str, Any] | None]]:
    """The roster entries the action replaced (``replaced_at``), each with the entry of the same name before it,
    or None for a new name; empty when the roster was not written. The old entry is the one at the same place
    when it has the same name, else found by name (someone added, removed or moved about)."""
    if "roster" not in ctx.tx.docs:
        return []
    now = list(peek(ctx.tx.docs["roster"]["players"]))  # read: an entry the action did not reach is the old one
    base = ctx.tx.base.docs["roster"]["players"]
    places = replaced_at(now, base)
    out: list[tuple[dict[str, Any], dict[str, Any] | None]] = []
    olds: dict[str, Any] | None = None
    for i in places:
        p = now[i]
        if i < len(base) and base[i]["name"] == p["name"]:
            out.append((p, base[i]))
            continue
        if olds is None:
            olds = by_name(base)
        out.append((p, olds.get(p["name"])))
    return out


def _old_item_changes(ctx: Ctx) -> dict[str, list[str]]:
    """Who had an Old Item value changed by this action, and which (the Items' columns are GNDT values too)."""
    base = ctx.tx.base.docs.get("quazie_items") or {}
    base_items = base.get("old_items", [])
    now_items = list(peek(dict.get(ctx.tx.docs["quazie_items"], "old_items") or []))  # read, not copied
    pairs: Any = None
    if len(now_items) == len(base_items):
        # the Items the action did not reach are the old ones themselves: only the others are compared
        pairs = [(base_items[i], now_items[i]) for i in replaced_at(now_items, base_items)]
        if any(dict.get(a, "word") != dict.get(b, "word") for a, b in pairs):
            pairs = None  # moved about: compared by word below
    if pairs is None:
        was = {i["word"]: i for i in base_items}
        pairs = [(was[dict.get(i, "word")], i) for i in now_items if dict.get(i, "word") in was]
        # (an Item not in ``was`` is a New Item frozen into an Old Item just now: its values are what they were)
    out: dict[str, list[str]] = {}
    for old_item, item in pairs:
        old, new = dict.get(old_item, "values") or {}, dict.get(item, "values") or {}
        if old == new:
            continue
        for name in set(old) | set(new):
            if int(old.get(name, 0)) != int(new.get(name, 0)):
                out.setdefault(name, []).append(item["word"] + "O")
    return out


def limbo_items_guard(ctx: Ctx) -> None:
    """Rule 15 for the Old Items (rule 11: columns of the GNDT): a quazie action may not change an Old Item value
    of a Muffin in Limbo, nor may a Muffin in Limbo change one of a Muffin at another Position. (A core action,
    a proposal's patch say, is not checked here: the roster guard below keeps what it can.)"""
    if "quazie_items" not in ctx.tx.docs or not ctx.action.name.startswith("quazie.") or not ctx.actor:
        return
    changes = _old_item_changes(ctx)
    if not changes:
        return
    before = by_name(ctx.tx.base.docs["roster"]["players"])
    actor = before.get(ctx.actor)
    actor_pos = stat(actor, "position") if actor else None
    for name, words in sorted(changes.items()):
        p = before.get(name)
        pos = stat(p, "position") if p else None
        if p is not None and in_limbo(pos):
            raise Illegal(Problem(f"{name} is in Limbo ({pos!r}); none of its values may change (this would "
                                  f"change {', '.join(words)})", rule=R_SPECIAL))
        if actor is not None and in_limbo(actor_pos) and pos != actor_pos:
            raise Illegal(Problem(f"{ctx.actor} is in Limbo and may not change anything of {name}, who is at "
                                  "another Position", rule=R_SPECIAL))


def _only_limbo_king(old: Any, new: Any) -> bool:
    """Whether Limbo King (rule 23) is the one role given or taken between two Roles lists. Compared by equality,
    not in sets: a hand-edited entry that is no role (a list, which ``nomic check`` reports) cannot be hashed, and
    the action is then refused for the state it starts from rather than stopped with a TypeError."""
    old, new = list(old or []), list(new or [])
    differ = [r for r in new if r not in old] + [r for r in old if r not in new]
    return bool(differ) and all(r == LIMBO_KING for r in differ)


# seed 003 rule 15 "Special Position Rules" freezes a Muffin in Limbo and what it may do to others; repealed, the
# guard stops (the Old Items' part with it)
@ruled(R_SPECIAL)
def limbo_guard(ctx: Ctx) -> None:
    limbo_items_guard(ctx)
    if "roster" not in ctx.tx.docs or ctx.action.name in EXEMPT:
        return
    players = ctx.tx.docs["roster"]["players"]
    now = list(peek(players))  # read: a player the action did not reach is the old one itself
    base = ctx.tx.base.docs["roster"]["players"]
    todo = replaced_at(now, base)
    if not todo:
        return  # nobody's entry was reached
    before = by_name(base)
    if len(before) != len(base):
        todo = range(len(now))  # names all different, or else a player still at its place may not be its own entry
    actor = before.get(ctx.actor)
    actor_pos = stat(actor, "position") if actor else None
    ours = ctx.action.name.startswith("quazie.") and bool(ctx.actor)
    # a column of the GNDT the action added or took away (a proposal's patch of the roster's declared stats) is
    # everyone's, a Muffin in Limbo's too: rule 15 freezes the values of the columns there are, and keeping a Limbo
    # Muffin out of a new column (or in a dropped one) left a roster no proposal could ever be enacted with
    columns = set(dict.get(ctx.tx.docs["roster"], "stats") or {}) ^ set(ctx.tx.base.docs["roster"].get("stats") or {})
    for i in todo:
        p = now[i]
        old = before.get(p["name"])
        if old is None or old is p or old["stats"] == p["stats"]:
            continue
        pos = stat(old, "position")
        if ours and actor is not None and in_limbo(actor_pos) and pos != actor_pos:
            raise Illegal(Problem(f"{ctx.actor} is in Limbo and may not change anything of {p['name']}, who is at "
                                  "another Position", rule=R_SPECIAL))
        if not in_limbo(pos):
            continue
        changed = _changed(old["stats"], p["stats"]) - columns
        allowed = set()
        # rule 15 (seed 003): only the Muffin itself, or one in Limbo with the same value, moves a Muffin in Limbo
        by_itself = p["name"] == ctx.actor or actor_pos == pos
        if stat(p, "position") == "9" and by_itself:
            allowed |= {"position", "notes"}
        # seed 003 rule 23 "Muffin Roles" gives and takes Limbo King in Limbo; repealed, the role may not change there
        if "roles" in changed and _only_limbo_king(stat(old, "roles", []), stat(p, "roles", [])) \
                and not repealed(ctx, R_ROLES):
            allowed.add("roles")  # rule 23's Limbo King exists only for Muffins in Limbo
        if stat(p, "position") == "R" and by_itself:
            # rule 15: the GRAND POOBAH "even if in limbo" may go to R instead, by its own move (or one a Muffin in the
            # same Limbo makes for it); a Muffin outside Limbo (a Banana's with_rome) may not move it out of Limbo
            allowed |= {"position", "notes", "flavour"}
        bad = changed - allowed
        if not bad:
            continue
        if ours:
            raise Illegal(Problem(f"{p['name']} is in Limbo ({pos!r}); none of its values may change "
                                  f"(this would change {', '.join(sorted(bad))})", rule=R_SPECIAL))
        p = players[i]  # to write: the transaction's own copy
        for k in bad:
            if k in old["stats"]:
                p["stats"][k] = old["stats"][k]
            else:
                p["stats"].pop(k, None)
        ctx.step({"limbo_kept": p["name"], "fields": sorted(bad)})


# seed 003 rule 13 "Muffin Flavors": a Robot may not declare victory; repealed, a Robot may
@ruled(R_FLAVOURS)
def robot_gate(ctx: Ctx) -> Iterator[Problem]:
    if ctx.action.name != "core.dov":
        return
    me = ctx.player()
    if me and stat(me, "flavour") == ROBOT:
        yield Problem(f"{ctx.actor} is Robot; a Robot Muffin may not declare victory", rule=R_FLAVOURS)
