"""Moving about: yourself (Rule 30), your servant (Rules 36, 46, 87), xyzzy (Rule 62), the Magic
Omnibus (Rules 51, 80), the personal teleporter (Rules 109-110) and the monkey (Rules 71, 101).

Rule 89: only a change that a rule calls "moving" is a move. Moving yourself, your
servant and the monkey are moves; xyzzy, the Omnibus and the teleporter set a location.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...engine import Action, Ctx
from ...problems import Problem
from ...schemas import not_blank
from . import world as w
from .turns import lock_rules, locked_why, made_a_move, mark, moved_this_turn, note_moved, require_turn

ROOM = not_blank({"type": "string", "maxLength": 120, "description": "the room to go to, as the map names it"})


def _dest(ctx: Ctx, key: str = "to") -> str | None:
    return w.resolve_room(ctx, str(ctx.params.get(key, "")))


def _no_room(ctx: Ctx, key: str = "to") -> str:
    return f"there is no room {ctx.params.get(key)!r} on the map (Rule 14)"


# ---------------------------------------------------------------- yourself


def _locked_self(ctx: Ctx) -> str:
    """Why the actor may not be moved again this turn: the Omnibus (Rule 80) or the teleporter (Rule 110), while
    that rule is in force (``turns.lock_rules``); "" when nothing keeps them."""
    return locked_why(ctx, ctx.actor, ctx.actor)


def _move_ready(ctx: Ctx) -> Iterator[str]:
    """What stops a move to any room (``Action.ready``): not the actor's turn, or their move made (Rules 27, 30);
    after the Omnibus or the teleporter this turn (Rules 80, 110) the check refuses every room it knows, and an
    unknown one as no room."""
    now = list(require_turn(ctx, once="move-self", rule="r30"))
    yield from now
    if not now and (why := _locked_self(ctx)):
        yield why


def _move_check(ctx: Ctx) -> Iterator[str]:
    yield from require_turn(ctx, once="move-self", rule="r30")
    dest = _dest(ctx)
    if dest is None:
        yield _no_room(ctx)
        return
    here = w.location_of_player(ctx, ctx.actor)
    if why := _locked_self(ctx):
        yield why
    if not w.connected(ctx, here, dest, ctx.at):
        yield f"{here} is not connected to {dest} (Rules 25, 26, 107)"
    yield from entry_losses(ctx, dest)


def entry_losses(ctx: Ctx, dest: str, extra: int = 0, why: str = "") -> Iterator[Problem]:
    """ifMUD seed, Rule 42 on the active player entering ``dest`` by their own action: in brownie points the entry's
    cost (tolls, Rule 43, less Rules 29 and 99's points, with a negative quest value, Rule 141; ``w.entry_cost``) and
    ``extra``; in Puissance the Bottle Imp a pie bomb there may knock from their hands (Rules 118, 119, 149) and a
    quest of negative Puissance finished there (``w.entry_puissance_cost``).

    ifMUD seed, Rules 42 and 43: a toll is paid by a player who *enters* its room, and Rule 99's points come with a
    change of location. Setting one's location to the room one already stands in (xyzzy said in the Lounge, Rule
    62; the teleporter aimed at one's own room, Rule 110) enters nothing and changes nothing
    (``world.set_player_location``), so its only possible cost is ``extra``."""
    why = why or f"entering {dest}"
    if dest == w.location_of_player(ctx, ctx.actor):
        yield from w.may_lose(ctx, ctx.actor, extra, why)
        return
    yield from w.may_lose(ctx, ctx.actor, extra + w.entry_cost(ctx, ctx.actor, dest), why)
    yield from w.may_lose(ctx, ctx.actor, w.entry_puissance_cost(ctx, ctx.actor, dest, ctx.at),
                          f"{why} (the pie bomb, the Bottle Imp or a quest)", stat=w.PUISSANCE)


def other_entry_losses(ctx: Ctx, dest: str, what: str) -> Iterator[Problem]:
    """ifMUD seed, Rule 42 on the active player's servant or the monkey entering ``dest`` by the player's action:
    a pie bomb lying there may kersplat and make the player, if they are there or next door, drop the Bottle Imp
    and its point of Puissance (Rules 118, 119, 149)."""
    if w.trap_takes_imp(ctx, ctx.actor, dest, w.location_of_player(ctx, ctx.actor), ctx.at):
        yield from w.may_lose(ctx, ctx.actor, 1, f"{what} entering the pie bomb's room, whose kersplat could make them "
                              "drop the Bottle Imp (Rules 118, 119, 149)", stat=w.PUISSANCE)


def _move(ctx: Ctx) -> None:
    dest = _dest(ctx)
    mark(ctx, "move-self")
    note_moved(ctx, ctx.actor)
    w.set_player_location(ctx, ctx.actor, dest, how="move")


MOVE = Action(
    name="ifmud.move", rule="r30", summary="Move yourself to a connected room (once per turn)",
    params={"type": "object", "required": ["to"], "additionalProperties": False, "properties": {"to": ROOM}},
    check=_move_check, ready=_move_ready, effect=_move,
    doc="The active player moves to a room connected to theirs. Entering pays the room's tolls (the others "
        "get half, rounded up: Rule 43) and earns the largest visits tally less the room's (Rule 99). Rule 42 "
        "refuses a move that could leave the mover's brownie points below zero.",
)


# ---------------------------------------------------------------- your servant


def servant_barrier(ctx: Ctx, owner: str, dest: str) -> Iterator[str]:
    """Where a servant may not be moved: Zrblm (Rule 36), another player's room (Rule 87)."""
    # ifMUD seed, Rule 36 names the room itself: Zrblm is closed to servants whether or not the map flags it
    # (no_servants also closes any other room the map marks so).
    # seed 002 Rule 36 keeps servants out of Zrblm; repealed, servants may go there
    if (dest == w.room_name(ctx, "zrblm") or (w.room(ctx, dest) or {}).get("no_servants")) \
            and not w.repealed(ctx, "r36"):
        yield f"no servant may be moved to {dest} (Rule 36)"
    # seed 002 Rule 87 keeps a servant out of another player's room; repealed, it may join them
    if w.repealed(ctx, "r87"):
        return
    where = w.locations(ctx)
    others = [p for p in w.player_names(ctx) if p != owner and where[p] == dest]
    if others:
        yield f"{dest} is where {', '.join(others)} is; a servant may not be moved to another player's room (Rule 87)"


def _servant_locked(ctx: Ctx) -> str:
    """Why the actor's servant may not be moved again this turn: the Omnibus (Rule 80) or a pie it threw (Rule 116),
    while that rule is in force (``turns.lock_rules``); "" when nothing keeps it."""
    return locked_why(ctx, "servant:" + ctx.actor, "the servant")


def _servant_ready(ctx: Ctx) -> Iterator[str]:
    """What stops moving one's servant to any room (``Action.ready``): not the actor's turn or the move made
    (Rules 27, 46), no servant (Rule 44); a servant that rode the Omnibus or threw a pie this turn (Rules 80, 116)
    the check keeps where it is whatever room is named (an unknown one as no room)."""
    now = list(require_turn(ctx, once="move-servant", rule="r46"))
    yield from now
    if now:
        return
    if w.servant(ctx, ctx.actor) is None:
        yield f"{ctx.actor} has no servant"
    elif why := _servant_locked(ctx):
        yield why


def _servant_check(ctx: Ctx) -> Iterator[str]:
    yield from require_turn(ctx, once="move-servant", rule="r46")
    s = w.servant(ctx, ctx.actor)
    dest = _dest(ctx)
    if s is None:
        yield f"{ctx.actor} has no servant"
        return
    if dest is None:
        yield _no_room(ctx)
        return
    if why := _servant_locked(ctx):
        yield why
    if not w.connected(ctx, s["location"], dest, ctx.at):
        yield f"{s['location']} is not connected to {dest} (Rules 25, 26)"
    yield from servant_barrier(ctx, ctx.actor, dest)
    yield from other_entry_losses(ctx, dest, "their servant")


def _servant(ctx: Ctx) -> None:
    mark(ctx, "move-servant")
    note_moved(ctx, "servant:" + ctx.actor)
    w.set_servant_location(ctx, ctx.actor, _dest(ctx), how="move")


MOVE_SERVANT = Action(
    name="ifmud.move-servant", rule="r46", summary="Move your servant to a connected room (once per turn)",
    params={"type": "object", "required": ["to"], "additionalProperties": False, "properties": {"to": ROOM}},
    check=_servant_check, ready=_servant_ready, effect=_servant,
    doc="Before, after or instead of moving themselves, the active player may move their servant to a "
        "connected room, but never to Zrblm (Rule 36) nor to a room where another player is (Rule 87).",
)


# ---------------------------------------------------------------- xyzzy


def _xyzzy_check(ctx: Ctx) -> Iterator[str]:
    yield from require_turn(ctx, once="xyzzy", rule="r62")
    if moved_this_turn(ctx, ctx.actor):
        yield f"{ctx.actor} already changed their location this turn; xyzzy may not follow (Rule 62)"
    lounge = _xyzzy_room(ctx)
    if lounge is None:
        yield "there is no Lounge, and no other room to go to instead (Rules 62, 69)"
        return
    yield from entry_losses(ctx, lounge)


def _xyzzy_room(ctx: Ctx) -> str | None:
    """ifMUD seed, Rule 62: xyzzy sets the player's location to the Lounge; with the Lounge gone, Rule 69 puts the
    room alphabetically first in its place."""
    return w.required_room(ctx, w.room_name(ctx, "lounge"))


def _xyzzy(ctx: Ctx) -> None:
    mark(ctx, "xyzzy")
    note_moved(ctx, ctx.actor)
    w.set_player_location(ctx, ctx.actor, _xyzzy_room(ctx), how="xyzzy")
    ctx.edit("turn").setdefault("chatting", {})[ctx.actor] = 2
    ctx.step({"chatting": ctx.actor})


XYZZY = Action(
    name="ifmud.xyzzy", rule="r62", summary="Say the magic word: go to the Lounge and chat",
    check=_xyzzy_check, effect=_xyzzy,
    doc="Once per turn, if they have not changed their location this turn, the active player goes to the "
        "Lounge (with no Lounge, the room alphabetically first, Rule 69). For the rest of this turn and all of "
        "their next, they are chatting their life away: no turn actions but ending the turn.",
)


# ---------------------------------------------------------------- the Magic Omnibus


def _no_fare(ctx: Ctx) -> str:
    return f"{ctx.actor} has fewer than five brownie points (Rule 51)"


def _fare(state: Any) -> int:
    """seed 002 Rule 51: a ride on the Omnibus costs the active player five brownie points, and one with fewer may
    not ride; repealed, the ride is free and nobody is too poor for it."""
    return 0 if w.repealed(state, "r51") else 5


def _omnibus_ready(ctx: Ctx) -> Iterator[str]:
    """What stops a ride to any room, for either passenger (``Action.ready``): not the actor's turn or the ride
    taken (Rules 27, 80); the Omnibus where neither the actor nor their servant is (Rule 80: it carries the one
    at its location), or a fare the actor lacks (Rule 51), which the check refuses for every room it knows (an
    unknown one as no room)."""
    now = list(require_turn(ctx, once="omnibus", rule="r80"))
    yield from now
    if now:
        return
    bus = w.entity_location(ctx, "omnibus")
    servant_at = (w.servant(ctx, ctx.actor) or {}).get("location")
    if bus not in (w.location_of_player(ctx, ctx.actor), servant_at):
        yield f"the Magic Omnibus is at {bus}, where neither {ctx.actor} nor their servant is (Rule 80)"
    if _fare(ctx) and w.tally(ctx, ctx.actor) < 5:
        yield _no_fare(ctx)


def _omnibus_check(ctx: Ctx) -> Iterator[str]:
    yield from require_turn(ctx, once="omnibus", rule="r80")
    dest = _dest(ctx)
    bus = w.entity_location(ctx, "omnibus")
    servant = ctx.params.get("passenger") == "servant"
    who = "servant:" + ctx.actor if servant else ctx.actor
    here = (w.servant(ctx, ctx.actor) or {}).get("location") if servant else w.location_of_player(ctx, ctx.actor)
    if dest is None:
        yield _no_room(ctx)
        return
    if here != bus:
        yield f"the Magic Omnibus is at {bus}, not where the passenger is ({here})"
    if dest == bus:
        yield "the Omnibus must go to another location"
    if (w.room(ctx, dest) or {}).get("no_omnibus"):
        yield f"the Magic Omnibus may not stop at {dest}"
    # Rule 80 bars a passenger who *moved* this turn, and Rule 89 makes only Rules 30 and 46 moves: a player who
    # used the teleporter this turn (Rule 110 sets a location; its own ban is on being moved) may still ride.
    if made_a_move(ctx, who):
        yield "the passenger has moved this turn (Rules 30, 46); the Omnibus may not carry them (Rule 80)"
    # Rule 116: a servant that threw a pie this turn stays where it is (while Rule 116 stands: turns.lock_rules)
    elif servant and "r116" in lock_rules(ctx, who):
        yield "the servant threw a pie this turn; its location may not be changed again this turn (Rule 116)"
    if _fare(ctx) and w.tally(ctx, ctx.actor) < 5:
        yield _no_fare(ctx)
    if servant and w.option(ctx, "servant_limits_on_transport", False):
        yield from servant_barrier(ctx, ctx.actor, dest)
    if servant:
        yield from w.may_lose(ctx, ctx.actor, _fare(ctx), "the Omnibus fare")
        yield from other_entry_losses(ctx, dest, "their servant")
    else:
        yield from entry_losses(ctx, dest, extra=_fare(ctx), why="the Omnibus fare and tolls")


def _omnibus(ctx: Ctx) -> None:
    dest = _dest(ctx)
    mark(ctx, "omnibus")
    w.set_entity_location(ctx, "omnibus", dest, how="Rule 80")
    w.add_tally(ctx, ctx.actor, -_fare(ctx), w.BROWNIE, "Rule 51: Omnibus fare")
    if ctx.params.get("passenger") == "servant":
        note_moved(ctx, "servant:" + ctx.actor, lock=True)
        w.set_servant_location(ctx, ctx.actor, dest, how="omnibus")
    else:
        note_moved(ctx, ctx.actor, lock=True)
        w.set_player_location(ctx, ctx.actor, dest, how="omnibus")


OMNIBUS = Action(
    name="ifmud.omnibus", rule="r80", summary="Ride the Magic Omnibus anywhere (once per turn, 5 brownie points)",
    params={"type": "object", "required": ["to"], "additionalProperties": False,
            "properties": {"to": ROOM, "passenger": {"enum": ["self", "servant"],
                                                     "description": "who rides: you or your servant"}}},
    check=_omnibus_check, ready=_omnibus_ready, effect=_omnibus,
    doc="Once per turn the active player (or their servant, not both) at the Omnibus's location rides it to "
        "any other room; both arrive there. Costs 5 brownie points (Rule 51). Not after the passenger has "
        "moved this turn (Rules 30, 46), and the passenger may not be moved again this turn; the teleporter "
        "neither moves nor is a move (Rule 89), so it may come before or after.",
)


# ---------------------------------------------------------------- the personal teleporter


def _teleporter(ctx: Ctx) -> dict[str, Any] | None:
    """The personal teleporter the actor would invoke: ifMUD seed, Rule 110 asks only that they carry *a* fully
    charged one, so among several carried (Rule 54 lets a proposal add more) a charged one is taken before a burned
    out one; None when they carry none."""
    mine = [t for t in w.by_role(ctx, "teleporter") if t["location"] == {"player": ctx.actor}]
    return next((t for t in mine if t.get("status") == "fully charged"), mine[0] if mine else None)


def _teleport_ready(ctx: Ctx) -> Iterator[str]:
    """The head of the check, whatever room is named (``Action.ready``): the actor's turn (Rule 27), a fully charged
    teleporter in their hands and no move made this turn (Rule 110)."""
    yield from require_turn(ctx, rule="r110")
    t = _teleporter(ctx)
    if t is None:
        yield f"{ctx.actor} is not carrying the personal teleporter"
    elif t.get("status") != "fully charged":
        yield f"the personal teleporter is {t.get('status')}, not fully charged"
    # Rule 110 bars a player who *moved* this turn; by Rule 89 riding the Omnibus (Rule 80) is no move, and the
    # teleporter's setting of a location is not the "moving by any other action" Rule 80 forbids afterwards.
    if made_a_move(ctx, ctx.actor):
        yield f"{ctx.actor} has moved this turn (Rule 30); the teleporter may not be used after that (Rule 110)"


def _teleport_check(ctx: Ctx) -> Iterator[str]:
    yield from _teleport_ready(ctx)
    dest = _dest(ctx)
    if dest is None:
        yield _no_room(ctx)
        return
    yield from entry_losses(ctx, dest)


def _teleport(ctx: Ctx) -> None:
    t = w.edit_token(ctx, _teleporter(ctx)["id"])
    mark(ctx, "teleport")
    t["status"] = "burned out"
    w.set_token_location(ctx, t, {"room": w.location_of_player(ctx, ctx.actor)}, by=ctx.actor)
    note_moved(ctx, ctx.actor, lock=True)
    w.set_player_location(ctx, ctx.actor, _dest(ctx), how="teleporter")


TELEPORT = Action(
    name="ifmud.teleport", rule="r110", summary="Use a fully charged personal teleporter",
    params={"type": "object", "required": ["to"], "additionalProperties": False, "properties": {"to": ROOM}},
    check=_teleport_check, ready=_teleport_ready, effect=_teleport,
    doc="Burns the teleporter out, drops it, and puts the player in any room. Not after moving this turn "
        "(Rule 30), and no more moving this turn; riding the Omnibus is no move (Rule 89), before or after. "
        "A time bomb esploding beside the teleporter charges it (Rule 111).",
)


# ---------------------------------------------------------------- the monkey


def uplink_check(ctx: Ctx) -> Iterator[str]:
    """Rules 71, 81, 83, 85, 101: the active player holds the uplink, and it has charge."""
    ups = [t for t in w.by_role(ctx, "uplink") if t["location"] == {"player": ctx.actor}]
    if not ups:
        yield f"{ctx.actor} is not holding the mind-control satellite uplink"
    # seed 002 Rule 101: nothing is done by virtue of the uplink at charge zero; repealed, its charge stops nothing
    elif int(ups[0].get("charge", 0)) <= 0 and not w.repealed(ctx, "r101"):
        yield "the uplink's power supply charge level is zero (Rule 101)"


def spend_charge(ctx: Ctx) -> None:
    """Rule 101: each use of the uplink costs one unit of its charge."""
    if w.repealed(ctx, "r101"):  # (seed 002 Rule 101 repealed: a use costs the uplink nothing)
        return
    for t in w.by_role(ctx, "uplink"):
        if t["location"] == {"player": ctx.actor}:
            e = w.edit_token(ctx, t["id"])
            e["charge"] = int(e.get("charge", 0)) - 1
            ctx.step({"uplink_charge": e["charge"]})
            return


def _monkey_ready(ctx: Ctx) -> Iterator[str]:
    """The head of the check, whatever room is named (``Action.ready``): the actor's turn and the monkey not yet
    moved in it (Rules 27, 71), the uplink in their hands with charge (Rules 71, 101)."""
    yield from require_turn(ctx, once="move-monkey", rule="r71")
    yield from uplink_check(ctx)


def _monkey_check(ctx: Ctx) -> Iterator[str]:
    yield from _monkey_ready(ctx)
    dest = _dest(ctx)
    if dest is None:
        yield _no_room(ctx)
        return
    here = w.entity_location(ctx, "monkey")
    if not w.connected(ctx, here, dest, ctx.at):
        yield f"the monkey is at {here}, which is not connected to {dest}"
    yield from other_entry_losses(ctx, dest, "the monkey")


def _monkey(ctx: Ctx) -> None:
    mark(ctx, "move-monkey")
    spend_charge(ctx)
    w.set_entity_location(ctx, "monkey", _dest(ctx), by=ctx.actor, how="move", by_action=True)


MOVE_MONKEY = Action(
    name="ifmud.move-monkey", rule="r71", summary="Move the monkey (uplink holder, once per turn)",
    params={"type": "object", "required": ["to"], "additionalProperties": False, "properties": {"to": ROOM}},
    check=_monkey_check, ready=_monkey_ready, effect=_monkey,
    doc="The active player holding the mind-control satellite uplink moves the monkey to a connected room, "
        "using one unit of the uplink's charge (Rule 101).",
)

ACTIONS = [MOVE, MOVE_SERVANT, XYZZY, OMNIBUS, TELEPORT, MOVE_MONKEY]
