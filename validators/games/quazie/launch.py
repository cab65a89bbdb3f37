"""The Launch Base Zone and Dr. Eggman (seed 003 rule 15; the Minion of rule 23).

Position 4 makes a Muffin Robot (a consequence, see consequences.py). Entering it allows one
'Eggman Spare Me' DICE12; a 6 spares the Muffin, who may then sacrifice 10 of every type of Stuff
(down to 0) and go to Position X.
"""

from __future__ import annotations

from typing import Iterator

from ...engine import Action, Ctx, Problem, repealed
from .common import DEATH_EGG, LAUNCH_BASE, R_ROLES, R_SPECIAL, done_today, mark_today, muffin, stat, tables
from .movement import ROME_PARAM, move_to, rome_refusal

MINION = "Eggman's Minion"


def _entry_roll_open(ctx: Ctx) -> bool:
    me = muffin(ctx, ctx.actor)
    entry = ctx.doc("quazie").get("launch_base", {}).get(ctx.actor)
    return stat(me, "position") == LAUNCH_BASE and entry is not None and not entry.get("rolled")


def _roll_check(ctx: Ctx) -> Iterator[str | Problem]:
    me = muffin(ctx, ctx.actor)
    if _entry_roll_open(ctx):
        return
    # seed 003 rule 23 "Muffin Roles": Eggman's Minion rolls once a day from anywhere; repealed, no Minion does
    if MINION in stat(me, "roles", []) and not repealed(ctx, R_ROLES):
        if done_today(ctx, "eggman", ctx.actor):
            # the once a day is rule 23's, which gives Eggman's Minion its roll away from Position 4
            yield Problem(f"{ctx.actor} has already rolled as Eggman's Minion today", rule=R_ROLES)
        return
    if stat(me, "position") == LAUNCH_BASE:
        yield f"{ctx.actor} has already rolled since entering Position 4"
    else:
        yield f"{ctx.actor} is not at Position 4 (the Launch Base Zone) and is not Eggman's Minion"


def _roll(ctx: Ctx) -> None:
    eggman = tables(ctx)["eggman"]
    q = ctx.edit("quazie")
    if _entry_roll_open(ctx):
        q["launch_base"][ctx.actor]["rolled"] = True
    else:
        mark_today(ctx, "eggman", ctx.actor)
    roll = ctx.roll(eggman["sides"])
    spared = roll == eggman["spare_on"]
    ctx.step({"eggman_spare_me": roll, "spared": spared})
    if spared and ctx.actor not in q.setdefault("spared", []):
        q["spared"].append(ctx.actor)


EGGMAN_ROLL = Action(
    name="quazie.eggman-spare-me",
    rule=R_SPECIAL,
    summary="Roll 'Eggman Spare Me' DICE12 on entering Position 4 (or once a day as Eggman's Minion)",
    params={"type": "object", "additionalProperties": False, "properties": {}},
    check=_roll_check,
    effect=_roll,
    doc="On a 6 Dr. Eggman spares the Muffin, who may then take quazie.sacrifice to go to Position X.",
)


def _sacrifice_check(ctx: Ctx) -> Iterator[str]:
    muffin(ctx, ctx.actor)
    if ctx.actor not in ctx.doc("quazie").get("spared", []):
        yield f"Dr. Eggman has not spared {ctx.actor}: only a Muffin who rolled a 6 may go to Position X"
    if ctx.params.get("rome"):
        # seed 003 rule 15: the Muffin it names may go to R instead whenever it can move, by any means, the sparing
        # included; asked here, before the Stuff is taken
        why = rome_refusal(ctx, ctx.actor)
        if why:
            yield Problem(why, rule=R_SPECIAL)


def _sacrifice(ctx: Ctx) -> None:
    from .stuff import reduce_all_stuff

    ctx.edit("quazie")["spared"].remove(ctx.actor)
    reduce_all_stuff(ctx, ctx.actor, tables(ctx)["eggman"]["sacrifice"])
    # seed 003 rule 15: the sparing is a way to move, so the Muffin rule 15 names may take it to Rome instead (the
    # sacrifice is still made, as a fly to Rome still pays the kitsune)
    move_to(ctx, ctx.actor, DEATH_EGG, rome=bool(ctx.params.get("rome")), how="Sacrifice to Dr. Eggman")


SACRIFICE = Action(
    name="quazie.sacrifice",
    rule=R_SPECIAL,
    summary="'Sacrifice to Dr. Eggman': lose 10 of every type of Stuff (to 0 at least) and go to Position X",
    params={"type": "object", "additionalProperties": False, "properties": {"rome": ROME_PARAM}},
    check=_sacrifice_check,
    effect=_sacrifice,
    doc="Only after a spared Eggman roll. Even a Muffin with no Stuff at all may go. The GRAND POOBAH (the Muffin "
        "its rule names for Rome) may go to Rome instead, making the sacrifice all the same.",
)

ACTIONS = [EGGMAN_ROLL, SACRIFICE]
