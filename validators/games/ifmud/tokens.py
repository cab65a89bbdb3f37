"""Tokens: carrying, picking up, dropping and stealing (Rules 54-56, 64-67, 74, 84-86, 100, 112),
prize tokens (57, 103), The Bus Driver's Lunchbox (104-106, 143-145), the monkey's hands (81, 83, 85),
and the uplink's charge (101). Bombs are in bombs.py.

A token's ``location`` is one of ``{room: R}``, ``{player: P}``, ``{servant: P}`` (P's servant)
or ``{monkey: true}``.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Iterator

from ...engine import Action, Ctx, peek
from ...problems import Problem
from . import world as w
from .movement import spend_charge, uplink_check
from .order import next_die
from .turns import mark, require_turn

TOKEN = {"oneOf": [{"type": "integer", "minimum": 1}, {"type": "string", "minLength": 1, "maxLength": 120}],
         "description": "the token, by its number or its name"}
BY = {"enum": ["self", "servant"], "description": "who does it: you (default) or your servant"}


def _holder(ctx: Ctx) -> tuple[dict[str, Any], str | None]:
    """The location a token goes to when the actor (or their servant) takes it, and where that is."""
    if ctx.params.get("by") == "servant":
        s = w.servant(ctx, ctx.actor)
        return {"servant": ctx.actor}, (s or {}).get("location")
    return {"player": ctx.actor}, w.location_of_player(ctx, ctx.actor)


def _barred(ctx: Ctx, t: dict[str, Any]) -> Iterator[str]:
    # seed 002 Rules 112 (a delivered prize) and 145 (a sacrificed Lunchbox) bar a token to its player. With the rule
    # repealed the bar no longer holds; a bar on the Lunchbox may come from either rule (the record does not say
    # which), so it holds while one of the two is in force.
    if t.get("barred") == ctx.actor and not (w.repealed(ctx, "r112") and (
            t.get("role") != "lunchbox" or w.repealed(ctx, "r145"))):
        yield (f"{ctx.actor} may not take {t['name']} back until another player or servant has picked it up "
               "(Rules 112, 145)")


# ---------------------------------------------------------------- picking up and dropping


def _pick_ready(ctx: Ctx) -> Iterator[str]:
    """What stops picking up any token (``Action.ready``): not the actor's turn (Rule 27); nothing lying in the
    actor's room nor in their servant's, so the check refuses every token for one hand or the other (Rule 55)."""
    now = list(require_turn(ctx, rule="r56"))
    yield from now
    if now:
        return
    here = w.location_of_player(ctx, ctx.actor)
    s = w.servant(ctx, ctx.actor)
    rooms = [{"room": here}] + ([{"room": s["location"]}] if s else [])
    if not any(t["location"] in rooms for t in peek(w.tokens(ctx))):
        yield f"no token lies in {here}, where {ctx.actor} is" + (
            f", nor in {s['location']}, where their servant is" if s and s["location"] != here else "") + " (Rule 55)"


def _pick_check(ctx: Ctx) -> Iterator[str]:
    yield from require_turn(ctx, rule="r56")
    t = w.find_token(ctx, ctx.params["token"])
    loc, here = _holder(ctx)
    if ctx.params.get("by") == "servant" and w.servant(ctx, ctx.actor) is None:
        yield f"{ctx.actor} has no servant"
    if t["location"] != {"room": here}:
        yield f"{t['name']} is not lying in {here} (Rule 55)"
    yield from _barred(ctx, t)
    if loc == {"player": ctx.actor}:
        yield from quest_losses(ctx, t, here)


def quest_losses(ctx: Ctx, t: dict[str, Any], here: Any) -> Iterator[Problem]:
    """ifMUD seed, Rule 42 on the active player coming to hold ``t`` in ``here``: holding a quest's secondary token
    in its goal room finishes it (Rule 141), which costs them its value when a proposal made that negative."""
    loss = w.quest_loss(ctx, ctx.actor, here, extra=[t])
    for stat in (w.BROWNIE, w.PUISSANCE):
        yield from w.may_lose(ctx, ctx.actor, loss[stat], f"finishing a quest of negative value with {t['name']} "
                              "(Rule 141)", stat=stat)


def _pick(ctx: Ctx) -> None:
    t = w.edit_token(ctx, w.find_token(ctx, ctx.params["token"])["id"])
    loc, _ = _holder(ctx)
    mark(ctx)
    w.set_token_location(ctx, t, loc, by=ctx.actor, direct=True)
    ctx.step({"picked_up": t["name"], "by": ctx.params.get("by", "self")})


def _drop_ready(ctx: Ctx) -> Iterator[str]:
    """What stops dropping any token (``Action.ready``): not the actor's turn (Rule 27); nothing carried by the
    actor or their servant, which the check asks of the token named (Rule 56)."""
    now = list(require_turn(ctx, rule="r56"))
    yield from now
    hands = ({"player": ctx.actor}, {"servant": ctx.actor})
    if not now and not any(t["location"] in hands for t in peek(w.tokens(ctx))):
        yield f"neither {ctx.actor} nor their servant carries a token (Rule 56)"


def _drop_check(ctx: Ctx) -> Iterator[str]:
    yield from require_turn(ctx, rule="r56")
    t = w.find_token(ctx, ctx.params["token"])
    loc, here = _holder(ctx)
    if t["location"] != loc:
        yield f"{t['name']} is not carried by {'the servant of ' if 'servant' in loc else ''}{ctx.actor}"
        return
    # (seed 002 Rule 104 repealed: the Lunchbox is delivered as any prize, by a servant too)
    if t.get("role") == "lunchbox" and w.is_prize(t) and t["destination"] == here and not w.repealed(ctx, "r104"):
        if ctx.params.get("by") == "servant":
            yield "Rule 104 asks the active player to drop the Lunchbox at its destination; a servant may not"
    # ifMUD seed, Rule 42 on what a drop could cost its player: the Bottle Imp leaving the player lowers their
    # Puissance, a tally (Rules 136, 149). A prize delivered only pays: its value is a non-negative integer (Rule 57,
    # which the tokens schema holds every token and every proposal's effects to).
    if w.imp_holder(ctx, t) == ctx.actor:
        yield from w.may_lose(ctx, ctx.actor, 1, "the Bottle Imp leaving them (Rule 149)", stat=w.PUISSANCE)


def _drop(ctx: Ctx) -> None:
    t = w.edit_token(ctx, w.find_token(ctx, ctx.params["token"])["id"])
    loc, here = _holder(ctx)
    mark(ctx)
    w.set_token_location(ctx, t, {"room": here}, by=ctx.actor)
    ctx.step({"dropped": t["name"], "in": here, "by": ctx.params.get("by", "self")})
    # seed 002 Rule 103 pays for a prize dropped at its destination (and so opens Rules 104 and 112); repealed, such
    # a drop is a drop like any other
    if w.is_prize(t) and t["destination"] == here and not w.repealed(ctx, "r103"):
        _award_prize(ctx, t, here, servant=ctx.params.get("by") == "servant")


def _award_prize(ctx: Ctx, t: dict[str, Any], here: str, servant: bool) -> None:
    """Rule 103 (and 104 for the Lunchbox): points for a prize dropped at its destination."""
    value = int(t.get("value", 0))
    # seed 002 Rule 104 makes the Lunchbox's delivery a roll of its die and a move elsewhere; repealed, it is
    # delivered as any prize: its value (0) paid, and it stays where it was dropped
    lunchbox = t.get("role") == "lunchbox" and not w.repealed(ctx, "r104")
    if lunchbox:
        value = w.roll(ctx, int(t.get("die", 18)))  # Rule 159: a d1 rolls nothing
        ctx.step({"lunchbox_value": value, "die": t.get("die", 18)})
    points = math.ceil(value / 2) if servant else value
    w.add_tally(ctx, ctx.actor, points, w.BROWNIE, "Rule 103: prize delivered")
    if not w.repealed(ctx, "r112"):
        t["barred"] = ctx.actor  # Rule 112
    if lunchbox:
        others = [r for r in w.room_names(ctx) if r != here]
        to = w.select(ctx, others, "the Lunchbox's new room", "r104")
        t["value"] = 0
        w.set_token_location(ctx, t, {"room": to}, by=ctx.actor)
        # seed 002 Rule 105: the die shrinks after each roll; repealed, it keeps its size
        die = int(t.get("die", 18))
        smaller = die if w.repealed(ctx, "r105") else next_die(die, w.dice_sizes(ctx))
        if smaller is None:
            w.remove_token(ctx, t, "Rule 105: no smaller die")
            if w.token(ctx, t["id"]) is None:
                return  # it ceased to exist: there is no destination left to choose
        else:
            t["die"] = smaller
    # ifMUD seed, Rule 103: "in either case" the deliverer may now choose the token's destination, the Lunchbox's
    # too (Rule 104 adds the roll and the move, and takes nothing away; Rule 106, while in force, then points it at
    # the Omnibus again, as Rule 123 does the Compass). The choice is open for every prize delivered this turn.
    pending = ctx.edit("turn").setdefault("pending", {})
    opened = open_destinations(pending)
    pending.pop("destination", None)
    pending["destinations"] = [*opened, t["id"]] if t["id"] not in opened else opened


PICK_UP = Action(
    name="ifmud.pick-up", rule="r56", summary="Pick up a token in your room (or have your servant pick one up)",
    params={"type": "object", "required": ["token"], "additionalProperties": False,
            "properties": {"token": TOKEN, "by": BY}},
    check=_pick_check, ready=_pick_ready, effect=_pick,
    doc="During their turn, as often as they like, the active player picks up a token lying in their room, "
        "or has their servant pick up one lying in the servant's room.",
)

DROP = Action(
    name="ifmud.drop", rule="r56", summary="Drop a carried token (or have your servant drop one)",
    params={"type": "object", "required": ["token"], "additionalProperties": False,
            "properties": {"token": TOKEN, "by": BY}},
    check=_drop_check, ready=_drop_ready, effect=_drop,
    doc="Dropping a prize token in its destination earns its value (half, rounded up, when the servant "
        "drops it), and the player may then choose its new destination with ifmud.set-destination before "
        "the turn ends (Rule 103). The Lunchbox's value is a roll of its die, and it then goes to a room "
        "chosen by Random Selection (Rules 104-105).",
)


def open_destinations(pending: dict[str, Any] | None) -> list[int]:
    """The prize tokens delivered this turn whose new destination may still be chosen (Rule 103), in the
    order delivered."""
    return w.pending_ids(pending, "destinations", "destination")


_NO_DESTINATION = "no prize token was delivered by you this turn, so there is no destination to choose (Rule 103)"


def _chosen_token(ctx: Ctx) -> tuple[int | None, str | None]:
    """The delivered prize whose destination is being chosen, or why there is none."""
    return w.choose_pending(
        ctx, open_destinations(w.turn(ctx).get("pending")),
        none=_NO_DESTINATION,
        what="prizes delivered this turn await a destination",
        not_open="was not delivered by you this turn, or its destination was already chosen (Rule 103)")


def _dest_ready(ctx: Ctx) -> Iterator[str]:
    """What stops choosing any destination for any token (``Action.ready``): not the actor's turn (Rule 27), or no
    prize delivered by them this turn still waiting for one (Rule 103), which the check says whatever is named."""
    now = list(require_turn(ctx, rule="r103"))
    yield from now
    if not now and not open_destinations(w.turn(ctx).get("pending")):
        yield _NO_DESTINATION


def _dest_check(ctx: Ctx) -> Iterator[str]:
    yield from require_turn(ctx, rule="r103")
    _, why = _chosen_token(ctx)
    if why:
        yield why
    if w.resolve_room(ctx, ctx.params["to"]) is None:
        yield f"there is no room {ctx.params['to']!r}"


def _dest(ctx: Ctx) -> None:
    ident, _ = _chosen_token(ctx)
    w.close_pending(ctx, ident, "destinations", "destination")
    t = w.edit_token(ctx, ident)
    t["destination"] = w.resolve_room(ctx, ctx.params["to"])
    ctx.step({"token": ident, "destination": t["destination"]})


SET_DESTINATION = Action(
    name="ifmud.set-destination", rule="r103", summary="Choose the new destination of the prize you delivered",
    params={"type": "object", "required": ["to"], "additionalProperties": False,
            "properties": {"to": {"type": "string", "minLength": 1, "maxLength": 120,
                                  "description": "the prize's new destination, a room as the map names it"},
                           "token": TOKEN}},
    check=_dest_check, ready=_dest_ready, effect=_dest,
    doc="After delivering a prize token this turn, its deliverer names its next destination; if they do not "
        "by the end of the turn, it keeps its old one (Rule 103). Each prize delivered in the turn gets its own "
        "choice; when more than one awaits, name the token.",
)


# ---------------------------------------------------------------- stealing


def _victim(ctx: Ctx, t: dict[str, Any]) -> tuple[str, str]:
    return w.carrier(t["location"])


_PERMITS = {"servant": ("r66", "a servant"), "player": ("r67", "a player")}  # the monkey: Rule 86


def steal_problems(ctx: Ctx, t: dict[str, Any], thief: str) -> Iterator[str]:
    """Why the active player (thief 'self') or their servant ('servant') may not steal ``t`` now."""
    kind, owner = _victim(ctx, t)
    me = w.location_of_player(ctx, ctx.actor)
    mine = (w.servant(ctx, ctx.actor) or {}).get("location")
    where = w.place_of(ctx, t["location"])
    if kind == "room":
        yield f"{t['name']} lies in {owner}; nobody carries it, so pick it up instead"
        return
    if kind in ("player", "servant") and owner == ctx.actor and kind == ("player" if thief == "self" else "servant"):
        yield f"{t['name']} is already yours"
        return
    # seed 002 Rules 66, 67 and 86 each permit one kind of theft (from a servant, from a player, from the monkey);
    # with the rule repealed that kind is permitted no longer
    permit = _PERMITS.get(kind, ("r86", "the monkey"))
    if w.repealed(ctx, permit[0]):
        yield (f"stealing from {permit[1]} was permitted by Rule {permit[0][1:]}, which has been repealed")
        return
    if kind == "player":
        if thief == "servant":
            yield "a servant may steal only from the monkey (Rule 86)"
        elif not (me == where and mine == where):
            yield (f"to steal from {owner}, {ctx.actor} and their servant must both be in {where} (Rule 67)")
    elif kind == "servant":
        if thief == "servant":
            yield "a servant may steal only from the monkey (Rule 86)"
        elif me != where:
            yield f"{owner}'s servant is in {where}, not with {ctx.actor} (Rules 64, 66)"
    else:  # the monkey
        holders = [x for x in w.by_role(ctx, "uplink") if w.carrier(x["location"])[0] == "player"]
        if holders and holders[0]["location"] != {"player": ctx.actor}:
            yield (f"{w.carrier(holders[0]['location'])[1]} carries the uplink; only they may rob the monkey "
                   "(Rule 86)")
        if (mine if thief == "servant" else me) != where:
            yield f"the monkey is in {where}, not with the thief (Rules 84, 86)"
        if thief == "servant" and _servant_robs_by_uplink(ctx):
            yield from (f"{why}: {ctx.actor}'s servant may rob the monkey only by virtue of {ctx.actor} holding it "
                        "(Rules 86, 101)" for why in uplink_check(ctx))
    if kind in ("player", "servant"):
        s = w.servant(ctx, owner)
        # (seed 002 Rule 65 repealed: a player beside their servant guards nothing)
        if s and w.location_of_player(ctx, owner) == s["location"] and owner != ctx.actor \
                and not w.repealed(ctx, "r65"):
            yield f"{owner} and their servant are together in {s['location']}; their tokens cannot be stolen (Rule 65)"
    # seed 002 Rule 74: nothing is stolen in a high-security area; repealed, theft there is as anywhere
    if (w.room(ctx, where or "") or {}).get("high_security") and not w.repealed(ctx, "r74"):
        yield f"{where} is a high-security area: nothing may be stolen there (Rule 74)"
    yield from _barred(ctx, t)


def _servant_robs_by_uplink(ctx: Ctx) -> bool:
    """Seed 002 Rules 86 and 101: while the active player holds the uplink, their servant is let rob the monkey by
    virtue of that holding (Rule 86's second case), and so the servant is another game entity made to do something
    by virtue of the uplink: one unit of its charge, and not at zero (Rule 101). The player's own theft is theirs,
    no other entity's, and a theft while no player holds the uplink owes it nothing (Rule 86's first case).
    Repealed, Rule 101 prices nothing."""
    return not w.repealed(ctx, "r101") and any(
        x["location"] == {"player": ctx.actor} for x in w.by_role(ctx, "uplink"))


def _steal_ready(ctx: Ctx) -> Iterator[str]:
    """The head of the check, whatever token is named (``Action.ready``): the actor's turn, no theft yet in it
    (Rules 27, 64)."""
    yield from require_turn(ctx, once="steal", rule="r64")


def _steal_check(ctx: Ctx) -> Iterator[str]:
    yield from require_turn(ctx, once="steal", rule="r64")
    t = w.find_token(ctx, ctx.params["token"])
    if ctx.params.get("by") == "servant" and w.servant(ctx, ctx.actor) is None:
        yield f"{ctx.actor} has no servant"
        return
    yield from steal_problems(ctx, t, ctx.params.get("by", "self"))
    if ctx.params.get("by", "self") == "self":
        yield from quest_losses(ctx, t, w.location_of_player(ctx, ctx.actor))


def _steal(ctx: Ctx) -> None:
    t = w.edit_token(ctx, w.find_token(ctx, ctx.params["token"])["id"])
    victim = _victim(ctx, t)
    loc, _ = _holder(ctx)
    mark(ctx, "steal")
    if victim[0] == "monkey" and ctx.params.get("by") == "servant" and _servant_robs_by_uplink(ctx):
        spend_charge(ctx)  # seed 002 Rule 101: the servant robs the monkey by virtue of the uplink (Rule 86)
    w.set_token_location(ctx, t, loc, by=ctx.actor, direct=True)
    ctx.step({"stolen": t["name"], "from": victim[1] or victim[0], "victim": victim[0],
              "by": ctx.params.get("by", "self")})


STEAL = Action(
    name="ifmud.steal", rule="r64", summary="Steal a token (once per turn)",
    params={"type": "object", "required": ["token"], "additionalProperties": False,
            "properties": {"token": TOKEN, "by": BY}},
    check=_steal_check, ready=_steal_ready, effect=_steal,
    doc="Once per turn the active player may steal: from a servant in their room (Rule 66); from a player "
        "when they and their own servant are both in that player's room (Rule 67); from the monkey, by "
        "themselves or their servant, when nobody or they themselves hold the uplink (Rule 86). Never from "
        "a player whose servant is with them (Rule 65), nor in a high-security area (Rule 74).",
)


# ---------------------------------------------------------------- the monkey's hands


# seed 002 Rule 100: the monkey carries one token at most; repealed, it may carry any number (every check below that
# refuses a second token also asks ``w.repealed(ctx, "r100")``, as do world.set_token_location and new_token)
_MONKEY_FULL = "the monkey already carries a token and may carry only one (Rule 100)"


def _uplink_ready(once: str | None, rule: str, then: Callable[[Ctx], Iterator[str]]) -> Callable[[Ctx], Iterator[str]]:
    """``Action.ready`` of an order to the monkey: the head its check begins with (the actor's turn, Rule 27; the
    uplink held with charge, Rules 71, 101), and when that allows it, ``then``: what stops the monkey's hands
    whatever token is named."""

    def ready(ctx: Ctx) -> Iterator[str]:
        now = [*require_turn(ctx, once=once, rule=rule), *uplink_check(ctx)]
        yield from now
        if not now:
            yield from then(ctx)

    return ready


def _monkey_pick_then(ctx: Ctx) -> Iterator[str]:
    # Rule 81: the monkey picks up what lies where it is; Rule 100: one token at most, whichever is named
    where = w.entity_location(ctx, "monkey")
    if w.carried_by(ctx, "monkey") and not w.repealed(ctx, "r100"):
        yield _MONKEY_FULL
    elif not any(t["location"] == {"room": where} for t in peek(w.tokens(ctx))):
        yield f"no token lies where the monkey is ({where}) (Rule 81)"


def _monkey_drop_then(ctx: Ctx) -> Iterator[str]:
    if not w.carried_by(ctx, "monkey"):  # Rule 81: the monkey drops the token it carries
        yield "the monkey is not carrying a token (Rule 81)"


def _monkey_steal_then(ctx: Ctx) -> Iterator[str]:
    # Rule 100, asked by the check of every token a player or servant carries
    if w.carried_by(ctx, "monkey") and not w.repealed(ctx, "r100"):
        yield _MONKEY_FULL


def _delay_then(ctx: Ctx) -> Iterator[str]:
    if not any(w.is_time_bomb(t) for t in w.carried_by(ctx, "monkey")):  # Rule 83: the bomb the monkey carries
        yield "the monkey is not carrying a time bomb (Rule 83)"


def _monkey_pick_check(ctx: Ctx) -> Iterator[str]:
    yield from require_turn(ctx, rule="r81")
    yield from uplink_check(ctx)
    t = w.find_token(ctx, ctx.params["token"])
    if t["location"] != {"room": w.entity_location(ctx, "monkey")}:
        yield f"{t['name']} is not lying where the monkey is"
    if w.carried_by(ctx, "monkey") and not w.repealed(ctx, "r100"):
        yield _MONKEY_FULL


def _monkey_pick(ctx: Ctx) -> None:
    t = w.edit_token(ctx, w.find_token(ctx, ctx.params["token"])["id"])
    mark(ctx)
    spend_charge(ctx)
    w.set_token_location(ctx, t, {"monkey": True}, by=ctx.actor, direct=True)


def _monkey_drop_check(ctx: Ctx) -> Iterator[str]:
    yield from require_turn(ctx, rule="r81")
    yield from uplink_check(ctx)
    t = w.find_token(ctx, ctx.params["token"])
    if t["location"] != {"monkey": True}:
        yield f"the monkey is not carrying {t['name']}"


def _monkey_drop(ctx: Ctx) -> None:
    t = w.edit_token(ctx, w.find_token(ctx, ctx.params["token"])["id"])
    mark(ctx)
    spend_charge(ctx)
    w.set_token_location(ctx, t, {"room": w.entity_location(ctx, "monkey")}, by=ctx.actor)


def _monkey_steal_check(ctx: Ctx) -> Iterator[str]:
    yield from require_turn(ctx, once="monkey-steal", rule="r85")
    yield from uplink_check(ctx)
    t = w.find_token(ctx, ctx.params["token"])
    kind, owner = w.carrier(t["location"])
    where = w.entity_location(ctx, "monkey")
    if kind not in ("player", "servant"):
        yield "the monkey steals from players and servants only (Rule 85)"
        return
    if w.place_of(ctx, t["location"]) != where:
        yield f"{t['name']} is not in the monkey's room ({where})"
    if w.carried_by(ctx, "monkey") and not w.repealed(ctx, "r100"):
        yield _MONKEY_FULL
    s = w.servant(ctx, owner)
    # ifMUD seed, Rule 65 guards a player's and their servant's tokens against *other* players. Read as binding the
    # uplink holder who has the monkey steal (Rule 85), it does not stop them taking their own (as ifmud.steal).
    if w.option(ctx, "monkey_respects_rule_65", True) and s and owner != ctx.actor \
            and s["location"] == w.location_of_player(ctx, owner) and not w.repealed(ctx, "r65"):
        yield f"{owner} and their servant are together; their tokens cannot be stolen (Rule 65)"
    if w.imp_holder(ctx, t) == ctx.actor:  # Rule 42: the Imp leaving the uplink holder lowers their Puissance (149)
        yield from w.may_lose(ctx, ctx.actor, 1, "the Bottle Imp leaving them (Rule 149)", stat=w.PUISSANCE)


def _monkey_steal(ctx: Ctx) -> None:
    t = w.edit_token(ctx, w.find_token(ctx, ctx.params["token"])["id"])
    mark(ctx, "monkey-steal")
    spend_charge(ctx)
    ctx.step({"monkey_stole": t["name"], "from": w.carrier(t["location"])})
    w.set_token_location(ctx, t, {"monkey": True}, by=ctx.actor, direct=True)


def _delay_check(ctx: Ctx) -> Iterator[str]:
    yield from require_turn(ctx, once="monkey-delay", rule="r83")
    yield from uplink_check(ctx)
    t = w.find_token(ctx, ctx.params["token"])
    if t["location"] != {"monkey": True} or not w.is_time_bomb(t):
        yield f"the monkey is not carrying a time bomb named {t['name']}"


def _delay(ctx: Ctx) -> None:
    t = w.edit_token(ctx, w.find_token(ctx, ctx.params["token"])["id"])
    mark(ctx, "monkey-delay")
    spend_charge(ctx)
    t["delay_hours"] = ctx.roll(100)
    ctx.step({"token": t["id"], "delay_hours": t["delay_hours"]})


_TOKEN_ONLY = {"type": "object", "required": ["token"], "additionalProperties": False, "properties": {"token": TOKEN}}

MONKEY_ACTIONS = [
    Action(name="ifmud.monkey-pick-up", rule="r81", summary="Have the monkey pick up a token (uplink holder)",
           params=_TOKEN_ONLY, check=_monkey_pick_check, effect=_monkey_pick,
           ready=_uplink_ready(None, "r81", _monkey_pick_then),
           doc="Costs one unit of uplink charge. The monkey carries one token at most (Rule 100)."),
    Action(name="ifmud.monkey-drop", rule="r81", summary="Have the monkey drop its token (uplink holder)",
           params=_TOKEN_ONLY, check=_monkey_drop_check, effect=_monkey_drop,
           ready=_uplink_ready(None, "r81", _monkey_drop_then),
           doc="The monkey drops the token it carries where it is; one unit of uplink charge (Rules 81, 101)."),
    Action(name="ifmud.monkey-steal", rule="r85", summary="Have the monkey steal a token (uplink holder)",
           params=_TOKEN_ONLY, check=_monkey_steal_check, effect=_monkey_steal,
           ready=_uplink_ready("monkey-steal", "r85", _monkey_steal_then),
           doc="From a player or servant in the monkey's room, even in a high-security area. Once per turn."),
    Action(name="ifmud.monkey-delay", rule="r83", summary="Have the monkey reset a time bomb's delay to d100 hours",
           params=_TOKEN_ONLY, check=_delay_check, effect=_delay,
           ready=_uplink_ready("monkey-delay", "r83", _delay_then),
           doc="Once per turn; the new delay is a d100 roll in hours; one unit of uplink charge (Rules 83, 101)."),
]


# ---------------------------------------------------------------- The Bus Driver's Lunchbox


def _lunchbox_mine(ctx: Ctx) -> dict[str, Any] | None:
    for t in w.by_role(ctx, "lunchbox"):
        if t["location"] in ({"player": ctx.actor}, {"servant": ctx.actor}):
            return t
    return None


def _sacrifice_check(ctx: Ctx) -> Iterator[str]:
    yield from require_turn(ctx, rule="r143")
    t = _lunchbox_mine(ctx)
    if t is None:
        yield f"neither {ctx.actor} nor their servant carries The Bus Driver's Lunchbox"
        return
    if ctx.params.get("relocate") and w.repealed(ctx, "r144"):
        yield "the Lunchbox may not be relocated: Rule 144, which let it be, has been repealed"
    yield from w.may_lose(ctx, ctx.actor, int(t.get("die", 18)), "a roll of the Lunchbox's die")


def _sacrifice(ctx: Ctx) -> None:
    t = w.edit_token(ctx, _lunchbox_mine(ctx)["id"])
    mark(ctx)
    roll = w.roll(ctx, int(t.get("die", 18)))  # Rule 159: a d1 rolls nothing
    w.add_tally(ctx, ctx.actor, -roll, w.BROWNIE, f"Rule 143: sacrificed the Lunchbox (d{t.get('die', 18)})")
    # seed 002 Rule 144 offers the relocation after a sacrifice; repealed, none is made nor waits (and so Rule 145,
    # which follows a relocation, does nothing)
    if w.repealed(ctx, "r144"):
        return
    if ctx.params.get("relocate", True):
        _relocate_lunchbox(ctx, t)
    else:
        # ifMUD seed, Rule 144: the chance to relocate it stays open until the active player's turn ends
        # (ifmud.relocate-lunchbox); the turn's end empties turn.pending (turns.py).
        ctx.edit("turn").setdefault("pending", {})["lunchbox"] = t["id"]
        ctx.step({"token": t["id"], "relocation": "may be chosen until the turn ends (Rule 144)"})


def _relocate_lunchbox(ctx: Ctx, t: dict[str, Any]) -> None:
    """Rules 144-145: a room other than the carrier's by Random Selection; the Omnibus comes to the carrier, the
    Lunchbox goes to that room, barred to the player responsible, and its die grows (gone if none is larger)."""
    pending = w.turn(ctx).get("pending") or {}
    if "lunchbox" in pending:  # the one chance a sacrifice gives is used
        ctx.edit("turn")["pending"].pop("lunchbox", None)
    here = w.place_of(ctx, t["location"])
    to = w.select(ctx, [r for r in w.room_names(ctx) if r != here], "the Lunchbox's room", "r144")
    w.set_entity_location(ctx, "omnibus", here, how="Rule 144")
    w.set_token_location(ctx, t, {"room": to}, by=ctx.actor)
    # seed 002 Rule 145 bars the Lunchbox to its player and grows its die; repealed, neither (Rule 144 moves it still)
    if w.repealed(ctx, "r145"):
        return
    t["barred"] = ctx.actor  # Rule 145
    bigger = next_die(int(t.get("die", 18)), w.dice_sizes(ctx), larger=True)
    if bigger is None:
        w.remove_token(ctx, t, "Rule 145: no larger die")
    else:
        t["die"] = bigger


def _relocate_check(ctx: Ctx) -> Iterator[str]:
    yield from require_turn(ctx, rule="r144")
    ident = (w.turn(ctx).get("pending") or {}).get("lunchbox")
    if ident is None:
        yield ("no Lunchbox sacrificed this turn waits to be relocated (Rule 144: the chance comes with a "
               "sacrifice made with relocate false, and is lost when the turn ends)")
        return
    t = w.token(ctx, ident)
    if t is None:
        yield f"token #{ident}, sacrificed earlier this turn, is no longer in the game"
    elif w.carrier(t["location"])[0] == "room":
        yield (f"{t['name']} lies in {w.place_of(ctx, t['location'])}: Rule 144 moves the Omnibus to the entity "
               "carrying it, and nothing carries it now")


def _relocate(ctx: Ctx) -> None:
    t = w.edit_token(ctx, w.turn(ctx)["pending"]["lunchbox"])
    mark(ctx)
    _relocate_lunchbox(ctx, t)


SACRIFICE = Action(
    name="ifmud.sacrifice-lunchbox", rule="r143", summary="Sacrifice The Bus Driver's Lunchbox",
    params={"type": "object", "additionalProperties": False,
            "properties": {"relocate": {"type": "boolean", "description": (
                "false: leave the relocation for later in the turn (ifmud.relocate-lunchbox)")}}},
    check=_sacrifice_check, effect=_sacrifice,
    doc="Roll the Lunchbox's die and lose that many brownie points (Rule 42 needs at least the die's size). "
        "Unless relocate is false, then choose a room by Random Selection (not the carrier's): the Omnibus "
        "comes to the carrier and the Lunchbox goes to that room, its die grows to the next larger, and the "
        "player may not take it back until someone else has picked it up (Rules 144-145). With relocate false "
        "the relocation may still be made with ifmud.relocate-lunchbox until the turn ends.",
)

RELOCATE = Action(
    name="ifmud.relocate-lunchbox", rule="r144", summary="Relocate the Lunchbox you sacrificed this turn",
    params={"type": "object", "additionalProperties": False, "properties": {}},
    check=_relocate_check, effect=_relocate,
    doc="After a sacrifice made with relocate false, and before the turn ends, the active player makes the "
        "relocation Rule 144 offers: a room other than the carrier's by Random Selection, the Omnibus to the "
        "carrier, the Lunchbox to that room, its die grows and it is barred to the player (Rule 145).",
)


ACTIONS = [PICK_UP, DROP, SET_DESTINATION, STEAL, *MONKEY_ACTIONS, SACRIFICE, RELOCATE]
