"""Muffin Flavors and poking in the eye (seed 003 rules 13 and 25).

The flavours are data (``quazie_tables.flavours``); a flavour added by the Intricacy movement carries a
``usable_from`` time (rule 24: nobody may become it until 72 hours after it was added).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Iterator

from ...engine import Action, Ctx, Problem, repealed, ruled
from ...timeutil import format_time, parse_time
from .common import (
    BANANA,
    BLIND,
    DEATH_EGG,
    DEVILS_FOOD,
    FRUITY,
    LAUNCH_BASE,
    MANGO_TREE,
    PLAIN,
    R_EYE,
    R_FLAVOURS,
    R_MUSIC,
    R_SPECIAL,
    ROBOT,
    ROME,
    TROPICAL,
    done_today,
    height,
    in_limbo,
    is_standard,
    mark_today,
    muffin,
    muffins,
    position_label,
    stat,
    step_from,
    tables,
)
from .consequences import reached_players
from .movement import ROME_PARAM, move_to, rome_refusal

NAME = {"$ref": "common.schema.json#/$defs/name"}


def blind_for_a_day(ctx: Ctx, name: str) -> bool:
    since = ctx.doc("quazie").get("blind_since", {}).get(name)
    return since is None or ctx.at - parse_time(since) >= timedelta(hours=24)


def set_flavour(ctx: Ctx, name: str, flavour: str) -> None:
    p = ctx.edit_player(name)
    old = stat(p, "flavour")
    p["stats"]["flavour"] = flavour
    q = ctx.edit("quazie")
    if flavour == BLIND and old != BLIND:
        q.setdefault("blind_since", {})[name] = format_time(ctx.at)
    elif flavour != BLIND:
        q.get("blind_since", {}).pop(name, None)
    ctx.step({"flavour": name, "from": old, "to": flavour})


# seed 003 rule 13 "Muffin Flavors" keeps a Blind Muffin's Flavor for 24 hours; repealed, no time is noted
@ruled(R_FLAVOURS)
def blind_since(ctx: Ctx) -> None:
    """Consequence (rule 13, seed 003): a Blind Muffin keeps its Flavor until it has been Blind for 24 hours, however
    it went Blind. ``set_flavour`` notes the time for the module's own actions; this notes it when any other action
    (a proposal's patch, say) made a Muffin Blind, and drops it when one stopped being Blind (the Launch Base's
    Robot, a patch), so that an old time never shortens a later blindness. Only the players the action replaced are
    read (found by identity, in C); runs after the Limbo guard, which may undo a change."""
    pairs = reached_players(ctx)
    if not pairs:
        return
    since = ctx.doc("quazie").get("blind_since", {})
    for p, old in pairs:
        blind = stat(p, "flavour") == BLIND
        was = old is not None and stat(old, "flavour") == BLIND
        if old is None and p["name"] in since:
            continue  # a new name (core.rename moved the time with the Muffin): not newly Blind
        if blind and not was and since.get(p["name"]) != format_time(ctx.at):
            ctx.edit("quazie").setdefault("blind_since", {})[p["name"]] = format_time(ctx.at)
            since = ctx.doc("quazie")["blind_since"]
        elif not blind and was and p["name"] in since:
            ctx.edit("quazie")["blind_since"].pop(p["name"])
            since = ctx.doc("quazie")["blind_since"]


# ---------------------------------------------------------------- changing one's own flavour


def _flavour_held(ctx: Ctx, me: dict) -> Iterator[str]:
    """Seed 003 rule 13: a Muffin changes flavour once a day, not while Robot (but at Position X), nor within 24
    hours of going Blind; whichever flavour it asks for."""
    now = stat(me, "flavour")
    if done_today(ctx, "flavour", ctx.actor):
        yield f"{ctx.actor} has already changed flavour today"
    # seed 003 rule 15 "Special Position Rules" lets a Robot at Position X change; repealed, no Robot may
    if now == ROBOT and (stat(me, "position") != DEATH_EGG or repealed(ctx, R_SPECIAL)):
        yield f"{ctx.actor} is Robot; a Robot Muffin may not change its flavour (except at Position X)"
    if now == BLIND and not blind_for_a_day(ctx, ctx.actor):
        yield f"{ctx.actor} has been Blind for less than 24 hours"


def _flavour_ready(ctx: Ctx) -> Iterator[str]:
    """The check refuses every flavour for these (an unknown one for not being a flavour)."""
    me = _me(ctx)
    if me is not None:
        yield from _flavour_held(ctx, me)


def _me(ctx: Ctx) -> dict | None:
    """The actor as ``muffin`` finds it, or None where ``muffin`` refuses (for ``Action.ready``, which never
    refuses by raising)."""
    me = ctx.player()
    return None if me is None or me.get("idle") else me


def _flavour_check(ctx: Ctx) -> Iterator[str]:
    me = muffin(ctx, ctx.actor)
    want = ctx.params["flavour"]
    now = stat(me, "flavour")
    known = {f["name"]: f for f in tables(ctx)["flavours"]}
    if want not in known:
        yield f"{want!r} is not a flavour (flavours: {', '.join(known)})"
        return
    ready = known[want].get("usable_from")
    # seed 003 rule 24 "Music" (Intricacy) sets the 72 hours before anyone may become the flavour it added;
    # repealed, the wait goes with it
    if ready and parse_time(ready) > ctx.at and not repealed(ctx, R_MUSIC):
        yield f"the flavour {want} was added by Intricacy; nobody may become it before {ready}"
    if want == now:
        yield f"{ctx.actor} is already {want}"
    yield from _flavour_held(ctx, me)
    if want == TROPICAL and stat(me, "position") != MANGO_TREE:
        yield (f"{ctx.actor} is at {position_label(stat(me, 'position'))}; only at Position 9, the Mango Tree, "
               "can a Muffin become Tropical")


def _flavour(ctx: Ctx) -> None:
    mark_today(ctx, "flavour", ctx.actor)
    set_flavour(ctx, ctx.actor, ctx.params["flavour"])


CHANGE_FLAVOUR = Action(
    name="quazie.flavour",
    rule=R_FLAVOURS,
    summary="Change your own flavour (once a day)",
    params={"type": "object", "required": ["flavour"], "additionalProperties": False,
            "properties": {"flavour": {"type": "string", "minLength": 1, "maxLength": 40,
                                       "description": "your new flavour, as the rule of flavours names it"}}},
    check=_flavour_check,
    ready=_flavour_ready,
    effect=_flavour,
    doc="Once a day, unless Robot (a Robot at Position X may), not until 24 hours of being Blind, and "
        "Tropical only at Position 9 (the Mango Tree).",
)


# ---------------------------------------------------------------- Banana


def _swap_ready(ctx: Ctx) -> Iterator[str]:
    """Seed 003 rule 13: a Banana Muffin swaps once a day with another Banana Muffin, at another Position, that has
    not been in a swap that day. Not Banana, swapped already, or with no such partner, the check refuses every
    name."""
    me = _me(ctx)
    if me is None:
        return
    mine = []
    if stat(me, "flavour") != BANANA:
        mine.append(f"{ctx.actor} is {stat(me, 'flavour')}, not Banana")
    if done_today(ctx, "swapped", ctx.actor):
        mine.append(f"{ctx.actor} has already been in a swap today")
    yield from mine
    free = [p["name"] for p in ctx.players() if p["name"] != ctx.actor and not p.get("idle")
            and stat(p, "flavour") == BANANA and not done_today(ctx, "swapped", p["name"])
            and stat(p, "position") != stat(me, "position")]
    if not mine and not free:
        yield (f"no other Banana Muffin is free to swap with {ctx.actor} today (at another Position than "
               f"{position_label(stat(me, 'position'))}, and not yet in a swap today)")


def _swap_check(ctx: Ctx) -> Iterator[str]:
    me = muffin(ctx, ctx.actor)
    other = muffin(ctx, ctx.params["with"])
    if stat(me, "flavour") != BANANA:
        yield f"{ctx.actor} is {stat(me, 'flavour')}, not Banana"
    if other["name"] == ctx.actor:
        yield "a Banana Muffin swaps with another Banana Muffin"
    elif stat(other, "flavour") != BANANA:
        yield f"{other['name']} is {stat(other, 'flavour')}, not Banana"
    for name in (ctx.actor, other["name"]):
        if done_today(ctx, "swapped", name):
            yield f"{name} has already been in a swap today"
    if stat(me, "position") == stat(other, "position"):
        yield f"{ctx.actor} and {other['name']} are at the same Position"
    # Rule 15: whenever the Muffin it names can move it may go to R instead, and a Muffin moved by another goes to
    # R at the mover's choice; a swap moves both Muffins, and the Banana who swaps is the one in control of both.
    # Either way only that Muffin may end up in R: a swap with a Muffin in Rome takes the other one there.
    mine, theirs = stat(me, "position"), stat(other, "position")
    for key, name, there in (("rome", ctx.actor, theirs), ("with_rome", other["name"], mine)):
        if ctx.params.get(key) or there == ROME:
            why = rome_refusal(ctx, name)
            if why:
                how = f"with {key}" if ctx.params.get(key) else f"the swap takes {name} to Rome"
                yield Problem(f"{why}; {how}", rule=R_SPECIAL)


def _swap(ctx: Ctx) -> None:
    other = ctx.params["with"]
    mine, theirs = stat(ctx.player(), "position"), stat(ctx.player(other), "position")
    mark_today(ctx, "swapped", ctx.actor)
    mark_today(ctx, "swapped", other)
    move_to(ctx, ctx.actor, theirs, rome=bool(ctx.params.get("rome")), how="swap")
    move_to(ctx, other, mine, rome=bool(ctx.params.get("with_rome")), how=f"swap with {ctx.actor}")


SWAP = Action(
    name="quazie.swap",
    rule=R_FLAVOURS,
    summary="Banana: swap Positions with another Banana Muffin (once a day)",
    params={"type": "object", "required": ["with"], "additionalProperties": False,
            "properties": {"with": {**NAME, "description": "the Banana Muffin to swap with"}, "rome": ROME_PARAM,
                           "with_rome": {"type": "boolean",
                                         "description": "The other Muffin, if the GRAND POOBAH, goes to Rome (R) "
                                                        "instead of taking your Position (Special Position "
                                                        "Rules)"}}},
    check=_swap_check,
    ready=_swap_ready,
    effect=_swap,
    doc="Neither Muffin may already have been in a swap that day; Blind Muffins cannot be moved. Only the "
        "GRAND POOBAH (the Muffin the Special Position Rules name) may end up in Rome, whether it is swapped there "
        "or sent there with rome (the swapper) or with_rome (the other Muffin).",
)


# ---------------------------------------------------------------- Fruity and Tropical


def _fruity_ahead(ctx: Ctx, me: dict, direction: str) -> list[str]:
    h = height(stat(me, "position"))
    if h is None:
        return []
    out = []
    for p in muffins(ctx):
        hp = height(stat(p, "position"))
        if p["name"] == me["name"] or hp is None or stat(p, "flavour") not in (FRUITY, TROPICAL):
            continue
        if (hp > h) if direction == "up" else (hp < h):
            out.append(p["name"])
    return out


def _no_way(ctx: Ctx, me: dict, direction: str) -> str | None:
    """Seed 003 rule 13: why the Fruity move cannot go ``direction`` (no Position there, or no other Fruity or
    Tropical Muffin that way), or None."""
    pos = stat(me, "position")
    if step_from(pos, direction) is None:
        return f"there is no Standard Position {direction} from {position_label(pos)}"
    if not _fruity_ahead(ctx, me, direction):
        return f"there is no other Fruity or Tropical Muffin {direction} from {position_label(pos)}"
    return None


def _fruity_head(ctx: Ctx, me: dict) -> Iterator[str]:
    """Seed 003 rule 13: only a Fruity or Tropical Muffin moves so, once a day (the head of the check and of
    ``_step_ready`` alike)."""
    flavour = stat(me, "flavour")
    if flavour not in (FRUITY, TROPICAL):
        yield f"{ctx.actor} is {flavour}; only Fruity and Tropical Muffins move this way"
        return
    if done_today(ctx, "fruity", ctx.actor):
        yield f"{ctx.actor} has already made their Fruity move today"


def _step_ready(ctx: Ctx) -> Iterator[str]:
    """Seed 003 rule 13: the check refuses both directions alike when the Muffin is neither Fruity nor Tropical, has
    moved so today, or can go neither way."""
    me = _me(ctx)
    if me is None:
        return
    yield from _fruity_head(ctx, me)
    if stat(me, "flavour") not in (FRUITY, TROPICAL):
        return
    up, down = _no_way(ctx, me, "up"), _no_way(ctx, me, "down")
    if up and down:
        yield f"{up}, and {down}"


def _step_check(ctx: Ctx) -> Iterator[str]:
    me = muffin(ctx, ctx.actor)
    direction = ctx.params["direction"]
    flavour = stat(me, "flavour")
    pos = stat(me, "position")
    yield from _fruity_head(ctx, me)
    if flavour not in (FRUITY, TROPICAL):
        return
    way = _no_way(ctx, me, direction)
    if way:
        yield way
    if step_from(pos, direction) is None:
        return
    target = ctx.params.get("attract")
    if ctx.params.get("attract_rome") and not target:
        yield "attract_rome sends the attracted Muffin to Rome: give attract too"
    if target:
        if flavour != TROPICAL:
            yield f"{ctx.actor} is Fruity; only a Tropical Muffin may attract"
            return
        t = muffin(ctx, target)
        ht, h = height(stat(t, "position")), height(pos)
        if target == ctx.actor or ht is None or h is None or not ((ht > h) if direction == "up" else (ht < h)):
            yield f"{target} is not located {direction} from {ctx.actor}"
        elif step_from(stat(t, "position"), "down" if direction == "up" else "up") is None:
            yield f"{target} cannot move towards {ctx.actor}"


def _step(ctx: Ctx) -> None:
    direction = ctx.params["direction"]
    mark_today(ctx, "fruity", ctx.actor)
    start = stat(ctx.player(), "position")
    move_to(ctx, ctx.actor, step_from(start, direction) or "", rome=bool(ctx.params.get("rome")), how="fruity")
    target = ctx.params.get("attract")
    if target:
        back = "down" if direction == "up" else "up"
        # rule 15: a Muffin moved by another may be sent to R, at the mover's choice (move_to checks who may go)
        move_to(ctx, target, step_from(stat(ctx.player(target), "position"), back) or "",
                rome=bool(ctx.params.get("attract_rome")), how=f"attracted by {ctx.actor}")


FRUITY_MOVE = Action(
    name="quazie.fruity-move",
    rule=R_FLAVOURS,
    summary="Fruity or Tropical: move one Position, when another Fruity or Tropical Muffin is that way (once a day)",
    params={"type": "object", "required": ["direction"], "additionalProperties": False,
            "properties": {"direction": {"enum": ["up", "down"], "description": "which way to move"},
                           "attract": {**NAME, "description": "Tropical only: a Muffin in that direction, "
                                                              "moved one Position towards the mover"},
                           "rome": ROME_PARAM,
                           "attract_rome": {"type": "boolean",
                                            "description": "The attracted Muffin, if the GRAND POOBAH, goes to "
                                                           "Rome (R) instead (Special Position Rules)"}}},
    check=_step_check,
    ready=_step_ready,
    effect=_step,
    doc="The move is allowed when, as it starts, another Fruity or Tropical Muffin is somewhere in that "
        "direction. A Tropical Muffin may also pull one Muffin located in that direction one Position "
        "towards itself.",
)


# ---------------------------------------------------------------- Devil's Food


def devil_succeeds(roll: int, positions: list[str]) -> bool:
    """Rule 13: the d9 shows either Muffin's Standard Position, or one less than it."""
    wins = set()
    for pos in positions:
        if is_standard(pos):
            wins |= {int(pos), int(pos) - 1}
    return roll in wins


def _devil_ready(ctx: Ctx) -> Iterator[str]:
    """Seed 003 rule 13: only a Devils Food Muffin tries, once a day, and only on a Robot Muffin; the check refuses
    every target while one of these is wanting."""
    me = _me(ctx)
    if me is None:
        return
    if stat(me, "flavour") != DEVILS_FOOD:
        yield f"{ctx.actor} is {stat(me, 'flavour')}, not Devils Food"
    if not any(stat(p, "flavour") == ROBOT and not p.get("idle") for p in ctx.players()):
        yield "no active Muffin is Robot"
    if done_today(ctx, "devil", ctx.actor):
        yield f"{ctx.actor} has already tried Devils Food today"


def _devil_check(ctx: Ctx) -> Iterator[str]:
    me = muffin(ctx, ctx.actor)
    target = muffin(ctx, ctx.params["target"])
    if stat(me, "flavour") != DEVILS_FOOD:
        yield f"{ctx.actor} is {stat(me, 'flavour')}, not Devils Food"
    if stat(target, "flavour") != ROBOT:
        yield f"{target['name']} is {stat(target, 'flavour')}, not Robot"
    if done_today(ctx, "devil", ctx.actor):
        yield f"{ctx.actor} has already tried Devils Food today"
    # Rule 15: nothing of a Muffin in Limbo may change but its Position, and a Muffin in Limbo changes nothing of
    # a Muffin at another Position. When some roll could turn the Robot Plain in such a way, the attempt is refused
    # before the DICE9, so that its verdict never hangs on the dice (the Limbo guard would refuse only the hits).
    # A Robot at Position 4 is Robot again at once (rule 15), so a hit changes nothing of it.
    mine, theirs = stat(me, "position"), stat(target, "position")
    # seed 003 rule 15 "Special Position Rules" sets these Limbo limits on Devils Food; repealed, none
    can_hit = (is_standard(mine) or is_standard(theirs)) and not repealed(ctx, R_SPECIAL)
    if can_hit and in_limbo(theirs):
        yield Problem(f"{target['name']} is in Limbo ({theirs!r}); its Flavor may not change, and Devils Food "
                      "from here may succeed", rule=R_SPECIAL)
    elif can_hit and in_limbo(mine) and theirs not in (mine, LAUNCH_BASE):
        yield Problem(f"{ctx.actor} is in Limbo ({mine!r}) and may change nothing of {target['name']}, at "
                      f"{position_label(theirs)}, and Devils Food may succeed", rule=R_SPECIAL)


def _devil(ctx: Ctx) -> None:
    mark_today(ctx, "devil", ctx.actor)
    target = ctx.params["target"]
    roll = ctx.roll(9)
    positions = [stat(ctx.player(), "position"), stat(ctx.player(target), "position")]
    ok = devil_succeeds(roll, positions)
    ctx.step({"roll": roll, "succeeds": ok})
    if ok:
        set_flavour(ctx, target, PLAIN)


DEVIL = Action(
    name="quazie.devils-food",
    rule=R_FLAVOURS,
    summary="Devils Food: roll DICE9 to turn a Robot Muffin Plain (once a day)",
    params={"type": "object", "required": ["target"], "additionalProperties": False,
            "properties": {"target": {**NAME, "description": "the Robot Muffin to turn Plain"}}},
    check=_devil_check,
    ready=_devil_ready,
    effect=_devil,
    doc="It works if the roll equals the Standard Position of either Muffin, or one less than it.",
)


# ---------------------------------------------------------------- In your eye (rule 25)


def _poke_ready(ctx: Ctx) -> Iterator[str]:
    """Seed 003 rule 25: an eye poking is tried once a day, on a Muffin at the poker's Position (itself included)
    that is not Robot; the check refuses every target when there is none, or after today's try."""
    me = _me(ctx)
    if me is None:
        return
    pos = stat(me, "position")
    here = [p for p in ctx.players() if not p.get("idle") and stat(p, "position") == pos]
    if all(stat(p, "flavour") == ROBOT for p in here):
        names = ", ".join(p["name"] for p in here)
        yield f"every Muffin at {position_label(pos)} ({names}) is Robot, and a Robot Muffin may never be poked"
    if done_today(ctx, "poke", ctx.actor):
        yield f"{ctx.actor} has already tried an eye poking today"


def _poke_check(ctx: Ctx) -> Iterator[str]:
    me = muffin(ctx, ctx.actor)
    target = muffin(ctx, ctx.params["target"])
    if stat(target, "position") != stat(me, "position"):
        yield f"{target['name']} is not at the same Position as {ctx.actor}"
    if stat(target, "flavour") == ROBOT:
        yield f"{target['name']} is Robot; a Robot Muffin may never be poked in the eye"
    if done_today(ctx, "poke", ctx.actor):
        yield f"{ctx.actor} has already tried an eye poking today"
    # Rule 15: nothing of a Muffin in Limbo may change but its Position. A poke can only make the poked Muffin
    # Blind, so poking one in Limbo is refused before the DICE3 (the Limbo guard would refuse only the 2), unless
    # it is Blind already and nothing can change.
    pos = stat(target, "position")
    # seed 003 rule 15 "Special Position Rules" keeps a poke off a Muffin in Limbo; repealed, it may be poked
    if in_limbo(pos) and stat(target, "flavour") != BLIND and not repealed(ctx, R_SPECIAL):
        yield Problem(f"{target['name']} is in Limbo ({pos!r}); its Flavor may not change, and a poke may make "
                      "it Blind", rule=R_SPECIAL)


def _poke(ctx: Ctx) -> None:
    mark_today(ctx, "poke", ctx.actor)
    roll = ctx.roll(3)
    ctx.step({"poke": ctx.params["target"], "roll": roll, "succeeds": roll == 2})
    if roll == 2 and stat(ctx.player(ctx.params["target"]), "flavour") != BLIND:
        set_flavour(ctx, ctx.params["target"], BLIND)


POKE = Action(
    name="quazie.poke",
    rule=R_EYE,
    summary="Poke a Muffin at your Position in the eye: DICE3, a 2 makes it Blind (once a day)",
    params={"type": "object", "required": ["target"], "additionalProperties": False,
            "properties": {"target": {**NAME, "description": "the Muffin at your Position to poke"}}},
    check=_poke_check,
    ready=_poke_ready,
    effect=_poke,
    doc="A Muffin may poke itself. Robot Muffins cannot be poked.",
)

ACTIONS = [CHANGE_FLAVOUR, SWAP, FRUITY_MOVE, DEVIL, POKE]
