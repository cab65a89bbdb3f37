"""Turns (Rules 27, 47, 82, 88, 91-93, 96, 98, 131) and time passing (Rules 24, 45, 70, 101, 128).

The engine's scheduled events fire at fixed times; ifMUD's deadlines hang on the
state (a turn ends 24 hours after it began, a bomb 6 hours after it was dropped).
So ``settle`` is a gate: before every action (``engine.tick`` included) it applies,
in time order, every deadline that fell due since the last action, each at its own
time. A refused action keeps nothing, and the next action settles again.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Callable, Iterator

from ...engine import ANYONE, PLAYER, Action, Ctx
from ...timeutil import format_time, parse_time
from . import world as w
from .order import next_in_turn

RULE_TURNS = "r27"


# ---------------------------------------------------------------- whose turn, and what was done in it


def active(state: Any) -> str | None:
    return w.turn(state).get("active")


def chatting(state: Any, who: str) -> bool:
    return who in (w.turn(state).get("chatting") or {})


def require_turn(ctx: Ctx, *, once: str | None = None, rule: str = RULE_TURNS) -> Iterator[str]:
    """The checks every turn-dependent action shares."""
    t = w.turn(ctx)
    if t.get("active") != ctx.actor:
        yield f"it is {t.get('active') or 'nobody'}'s turn, not {ctx.actor}'s (Rule 27)"
        return
    if chatting(ctx, ctx.actor):
        yield f"{ctx.actor} is chatting their life away (Rule 62): no turn actions but ending the turn"
        return
    if ctx.actor in (t.get("metamorphosed") or []):
        yield f"{ctx.actor} metamorphosed this turn (Rule 135): no turn actions but ending it or abandoning gifts"
        return
    if once and once in (t.get("used") or []):
        yield f"{ctx.actor} has already done this once this turn ({once})"


def mark(ctx: Ctx, key: str | None = None) -> None:
    """Record a voluntary turn action: once-per-turn keys, and waking from sleep (Rule 93)."""
    t = ctx.edit("turn")
    t.setdefault("used", []).append(key or ctx.action.name.removeprefix("ifmud."))
    t["voluntary"] = True
    if ctx.actor in (t.get("asleep") or []):
        wake(ctx, ctx.actor)


def wake(ctx: Ctx, who: str) -> None:
    """Rule 93: awake now, and not asleep again until the end of their following turn."""
    t = ctx.edit("turn")
    t["asleep"].remove(who)
    t.setdefault("awake", {})[who] = 2 if t.get("active") == who else 1
    ctx.step({"awake": who, "rule": "r93"})


def moved_this_turn(state: Any, who: str) -> bool:
    return who in (w.turn(state).get("moved") or [])


def note_moved(ctx: Ctx, who: str, *, lock: bool = False) -> None:
    t = ctx.edit("turn")
    if who not in t.setdefault("moved", []):
        t["moved"].append(who)
    if lock and who not in t.setdefault("locked", []):
        t["locked"].append(who)


def locked(state: Any, who: str) -> bool:
    return who in (w.turn(state).get("locked") or [])


# ---------------------------------------------------------------- ending a turn


def turn_length(state: Any) -> timedelta:
    t = w.turn(state)
    return timedelta(hours=6) if t.get("active") in (t.get("asleep") or []) else timedelta(hours=24)


def end_turn(ctx: Ctx, at: datetime, how: str) -> None:
    """Rule 27's end of a turn and everything that happens then."""
    t = ctx.edit("turn")
    who = t.get("active")
    ctx.step({"turn_ends": who, "how": how, "at": format_time(at)})
    # Rule 98: each room's visits go up by the players whose location changed to it this turn.
    for name, n in sorted((t.get("arrivals") or {}).items()):
        r = _edit_room(ctx, name)
        if r is not None:
            r["visits"] = int(r.get("visits", 0)) + int(n)
    if who in w.player_names(ctx):
        # Rule 131: ending a turn in the Servants' Quarters costs three brownie points.
        if w.location_of_player(ctx, who) == w.room_name(ctx, "quarters"):
            w.add_tally(ctx, who, -3, w.BROWNIE, "Rule 131: turn ended in the Servants' Quarters")
        # Rule 88: a servant left with another player goes home.
        s = w.servant(ctx, who)
        if s and any(w.location_of_player(ctx, p) == s["location"] for p in w.player_names(ctx) if p != who):
            w.set_servant_location(ctx, who, w.room_name(ctx, "quarters"), how="Rule 88", by_action=False)
        # Rule 92: a passive turn-taker timing out without a voluntary action is asleep at the switch.
        if how == "timeout" and who in (t.get("passive_turn_takers") or []) and not t.get("voluntary") \
                and who not in (t.get("awake") or []):
            if who not in t.setdefault("asleep", []):
                t["asleep"].append(who)
                ctx.step({"asleep": who, "rule": "r92"})
        # Rule 62: chatting lasts the rest of this turn and all of the next.
        chat = t.get("chatting") or {}
        if who in chat:
            chat[who] -= 1
            if chat[who] <= 0:
                del chat[who]
        # Rule 93: woken players are not put to sleep again before the end of their following turn.
        awake = t.get("awake") or {}
        if who in awake:
            awake[who] -= 1
            if awake[who] <= 0:
                del awake[who]
    for key in ("used", "moved", "locked", "metamorphosed"):
        t[key] = []
    t["arrivals"] = {}
    t["voluntary"] = False
    t["robot_kitten"] = 0
    t["pending"] = {}
    nxt = next_in_turn(w.player_names(ctx), who)
    t["active"] = nxt
    t["started"] = format_time(at)
    t["number"] = int(t.get("number", 0)) + 1
    ctx.step({"turn_begins": nxt, "number": t["number"]})


def _edit_room(ctx: Ctx, name: str) -> dict[str, Any] | None:
    for r in ctx.edit("map")["rooms"]:
        if r["name"] == name:
            return r
    return None


# ---------------------------------------------------------------- deadlines


def _deadlines(ctx: Ctx) -> Iterator[tuple[datetime, str, Callable[[Ctx, datetime], None]]]:
    from . import bombs, consent

    t = w.turn(ctx)
    if t.get("over"):
        return
    if t.get("active") and t.get("started"):
        yield parse_time(t["started"]) + turn_length(ctx), "turn", lambda c, at: end_turn(c, at, "timeout")
    yield from bombs.deadlines(ctx)
    yield from consent.deadlines(ctx)
    yield from _silence(ctx)
    yield from _unnamed_servants(ctx)


def _silence(ctx: Ctx) -> Iterator[tuple[datetime, str, Callable[[Ctx, datetime], None]]]:
    """Rule 24: a week without posting costs a demerit, and each week after (Rule 130 exempts players
    on both passive lists)."""
    seen = ctx.doc("ledger").get("seen") or {}
    t = w.turn(ctx)
    for p in ctx.doc("roster")["players"]:
        name = p["name"]
        if name in (t.get("passive_turn_takers") or []) and name in (ctx.doc("consent").get("passive_voters") or []):
            continue
        marks = [parse_time(p["joined"])]
        if name in seen:
            marks.append(parse_time(seen[name]))
        if name in (t.get("silence") or {}):
            marks.append(parse_time(t["silence"][name]))
        due = max(marks) + timedelta(days=7)

        def apply(c: Ctx, at: datetime, name: str = name) -> None:
            c.edit("turn").setdefault("silence", {})[name] = format_time(at)
            w.add_tally(c, name, 1, w.DEMERITS, "Rule 24: a week without posting")

        yield due, f"silence {name}", apply


def _unnamed_servants(ctx: Ctx) -> Iterator[tuple[datetime, str, Callable[[Ctx, datetime], None]]]:
    """Rule 45: a servant not named within 72 hours costs its player a demerit; naming passes to the others."""
    for s in ctx.doc("entities")["servants"]:
        if s.get("name") or s.get("naming") == "sectional":
            continue

        def apply(c: Ctx, at: datetime, owner: str = s["owner"]) -> None:
            w.edit_servant(c, owner)["naming"] = "sectional"
            w.add_tally(c, owner, 1, w.DEMERITS, "Rule 45: servant not named in 72 hours")

        yield parse_time(s["since"]) + timedelta(hours=72), f"servant {s['owner']}", apply


def settle(ctx: Ctx) -> Iterator[str]:
    """Gate: apply every deadline up to the action's time, earliest first."""
    from .consequences import run_all

    for _ in range(10000):
        due = [(at, key, fn) for at, key, fn in _deadlines(ctx) if at <= ctx.at]
        if not due:
            break
        at, key, fn = min(due, key=lambda d: (d[0], d[1]))
        now, ctx.at = ctx.at, at  # everything the deadline does happens at its own time
        try:
            fn(ctx, at)
            run_all(ctx)
        finally:
            ctx.at = now
    t = w.turn(ctx)
    if ctx.action.name.startswith("ifmud.") and t.get("active") == ctx.actor and not t.get("over"):
        # Rules 92-93: any voluntary action on one's own turn counts, not only turn actions.
        if not t.get("voluntary"):
            ctx.edit("turn")["voluntary"] = True
        if ctx.actor in (t.get("asleep") or []):
            wake(ctx, ctx.actor)
    if w.turn(ctx).get("over") and ctx.action.name != "engine.tick":
        yield f"the game is over: {w.turn(ctx)['over'].get('winner')} won (Rule 33)"


# ---------------------------------------------------------------- actions


def _end_check(ctx: Ctx) -> Iterator[str]:
    if active(ctx) != ctx.actor:
        yield f"it is {active(ctx) or 'nobody'}'s turn, not {ctx.actor}'s"


END_TURN = Action(
    name="ifmud.end-turn",
    rule=RULE_TURNS,
    summary="Announce that your turn is over",
    check=_end_check,
    effect=lambda ctx: end_turn(ctx, ctx.at, "announced"),
    doc="The active player ends their turn. The next player is the one whose surname comes next "
        "alphabetically (or the first). At the end of a turn visits are counted (Rule 98), a player in "
        "the Servants' Quarters loses 3 brownie points (Rule 131) and a servant sharing a room with another "
        "player goes back to the Servants' Quarters (Rule 88). A turn also ends by itself after 24 hours "
        "(6 when its player is asleep at the switch, Rule 92).",
)


def _list_toggle(doc: str, field: str, rule: str, add: bool):
    def check(ctx: Ctx) -> Iterator[str]:
        present = ctx.actor in (ctx.doc(doc).get(field) or [])
        if add and present:
            yield f"{ctx.actor} is already on the list"
        if not add and not present:
            yield f"{ctx.actor} is not on the list"

    def effect(ctx: Ctx) -> None:
        lst = ctx.edit(doc).setdefault(field, [])
        if add:
            lst.append(ctx.actor)
        else:
            lst.remove(ctx.actor)
        ctx.step({field: ctx.actor, "added" if add else "removed": True})

    return check, effect


def _wake_check(ctx: Ctx) -> Iterator[str]:
    if ctx.actor not in (w.turn(ctx).get("asleep") or []):
        yield f"{ctx.actor} is not asleep at the switch"


def _wake(ctx: Ctx) -> None:
    wake(ctx, ctx.actor)


_ptt_on = _list_toggle("turn", "passive_turn_takers", "r91", True)
_ptt_off = _list_toggle("turn", "passive_turn_takers", "r91", False)

ACTIONS = [
    END_TURN,
    Action(name="ifmud.passive-turns", rule="r91", summary="Join the Passive Turn-Takers list",
           check=_ptt_on[0], effect=_ptt_on[1], who=ANYONE,
           doc="Any player may put themselves on the Passive Turn-Takers list (Rule 91)."),
    Action(name="ifmud.active-turns", rule="r91", summary="Leave the Passive Turn-Takers list",
           check=_ptt_off[0], effect=_ptt_off[1], who=ANYONE,
           doc="Any player may take themselves off the Passive Turn-Takers list (Rule 91)."),
    Action(name="ifmud.wake", rule="r93", summary="Say you do not mean to be asleep at the switch",
           check=_wake_check, effect=_wake, who=PLAYER,
           doc="A player asleep at the switch who says so is awake again, and is not put to sleep again "
               "before the end of their following turn (Rule 93)."),
]
