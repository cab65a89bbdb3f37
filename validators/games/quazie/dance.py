"""Dance Moves and Dance Offs (seed 003 rules 19 and 20).

The DICE10 table, who beats whom, the stake and BreakDance's take are data
(``quazie_tables.dance``), so a proposal can change them.
"""

from __future__ import annotations

from typing import Any, Iterator

from ...engine import Action, Ctx, Problem, repealed
from ...roster import change_stat
from .common import (
    R_DANCE_OFF,
    R_FLAVOURS,
    R_SPECIAL,
    bound_blind,
    done_today,
    in_limbo,
    mark_today,
    muffin,
    muffins,
    stat,
    tables,
)


def winner(table: dict[str, Any], challenger_move: str, opponent_move: str) -> str | None:
    """'challenger', 'opponent' or None, by rules A-D (same move: no winner)."""
    beats = table["beats"]
    if beats.get(challenger_move) == opponent_move:
        return "challenger"
    if beats.get(opponent_move) == challenger_move:
        return "opponent"
    return None


def missing_faces(table: dict[str, Any]) -> list[int]:
    """The faces of the Dance Off die (1 to ``sides``) the table gives no Dance Move for (rule 20 gives one for
    every face of its DICE10; a proposal may change the die or the table, and leave a face out)."""
    return [face for face in range(1, int(table["sides"]) + 1) if str(face) not in table["roll"]]


def table_problem(table: dict[str, Any]) -> Problem | None:
    missing = missing_faces(table)
    if not missing:
        return None
    faces = ", ".join(str(f) for f in missing[:10]) + (" ..." if len(missing) > 10 else "")
    return Problem(f"the Dance Off table gives no Dance Move for the DICE{table['sides']} face(s) {faces}; every roll "
                   "sets the challenger's Dance Move, so no Dance Off can be decided until the table covers the die",
                   "quazie_tables", field="dance.roll", rule=R_DANCE_OFF)


def _bad_table(ctx: Ctx) -> Iterator[Problem]:
    # Rule 20 (seed 003): the roll sets the challenger's Dance Move, so the table must name one for every face;
    # judged before the roll (it was a KeyError when a face had none)
    bad_table = table_problem(tables(ctx)["dance"])
    if bad_table:
        yield bad_table


def _blind(ctx: Ctx) -> Problem:
    """Seed 003 rule 13 "Muffin Flavors", not rule 20, keeps a Blind Muffin from challenging: the refusal cites it."""
    return Problem(f"{ctx.actor} is Blind; a Blind Muffin may not challenge anyone to a Dance Off", rule=R_FLAVOURS)


def _ready(ctx: Ctx) -> Iterator[str | Problem]:
    """Seed 003 rules 13, 15 and 20: what refuses a Dance Off whoever is challenged: a table that leaves a face of
    the die without a move, a Blind challenger, one who declared a Dance Off today, one in Limbo."""
    bad = list(_bad_table(ctx))
    yield from bad
    me = ctx.player()
    if bad or me is None or me.get("idle"):
        return
    if bound_blind(ctx, me):
        yield _blind(ctx)
    if done_today(ctx, "dance-off", ctx.actor):
        yield f"{ctx.actor} has already declared a Dance Off today"
    pos = stat(me, "position")
    # seed 003 rule 15 "Special Position Rules": nothing of a Muffin in Limbo changes; repealed, Limbo holds nobody
    if in_limbo(pos) and not repealed(ctx, R_SPECIAL):
        yield Problem(f"{ctx.actor} is in Limbo ({pos!r}); none of its values may change but its Position, and a "
                      "Dance Off sets the challenger's Dance Move", rule=R_SPECIAL)


def _check(ctx: Ctx) -> Iterator[str]:
    bad = list(_bad_table(ctx))
    if bad:
        yield from bad
        return
    me = muffin(ctx, ctx.actor)
    opponent = muffin(ctx, ctx.params["opponent"])
    if opponent["name"] == ctx.actor:
        yield "a Muffin challenges another Muffin to a Dance Off"
    if bound_blind(ctx, me):  # seed 003 rule 13, as in ``_ready``
        yield _blind(ctx)
    if done_today(ctx, "dance-off", ctx.actor):
        yield f"{ctx.actor} has already declared a Dance Off today"
    # Rule 15: nothing of a Muffin in Limbo may change but its Position. A Dance Off sets the challenger's
    # Dance Move and, unless the moves tie, moves Stuff between the two: refused before the roll, so that
    # whether it is legal never depends on the dice (the Limbo guard would refuse some rolls and not others).
    sides = {opponent["name"]: (opponent, "may move its Stuff, whatever the roll"),
             ctx.actor: (me, "sets the challenger's Dance Move")}
    limbo = not repealed(ctx, R_SPECIAL)  # repealed, Limbo holds nobody (as in ``_ready``)
    for who, (p, does) in sides.items():
        pos = stat(p, "position")
        if limbo and in_limbo(pos):
            yield Problem(f"{who} is in Limbo ({pos!r}); none of its values may change but its Position, and a "
                          f"Dance Off {does}", rule=R_SPECIAL)


def _dance_off(ctx: Ctx) -> None:
    table = tables(ctx)["dance"]
    opponent = ctx.params["opponent"]
    mark_today(ctx, "dance-off", ctx.actor)
    their_move = stat(ctx.player(opponent), "dance_move")
    roll = ctx.roll(table["sides"])
    move = table["roll"][str(roll)]
    ctx.edit_player()["stats"]["dance_move"] = move
    ctx.step({"roll": roll, "dance_move": move, "opponent_move": their_move})
    breaker = table["breakdance"]
    if move == breaker:
        # rule 20 E and the 10 result: no winner and no loser; the breaker may take 2 from each non-breaker
        if ctx.params.get("take", True):
            got = 0
            # seed 003 rule 15 keeps a Muffin in Limbo's Stuff; repealed, it does not
            limbo = not repealed(ctx, R_SPECIAL)
            for p in muffins(ctx):
                if p["name"] == ctx.actor or stat(p, "dance_move") == breaker:
                    continue
                if limbo and in_limbo(stat(p, "position")):
                    ctx.step({"untouched": p["name"], "because": "in Limbo"})
                    continue
                taken = -change_stat(ctx, p["name"], "stuff", -table["break_take"], rule=R_DANCE_OFF)
                got += taken
            gained = change_stat(ctx, ctx.actor, "stuff", got, rule=R_DANCE_OFF)
            ctx.step({"took": got, "gained": gained})
        return
    if their_move == breaker:
        # Q and Z: a BreakDancer challenged without a 10 is decided by DICE2
        second = ctx.roll(2)
        result = "challenger" if second == 1 else "opponent"
        ctx.step({"break_the_breakdance": second})
    else:
        result = winner(table, move, their_move)
    if result is None:
        ctx.step({"winner": None})
        return
    win, lose = (ctx.actor, opponent) if result == "challenger" else (opponent, ctx.actor)
    stake = table["stake"]
    change_stat(ctx, lose, "stuff", -stake, rule=R_DANCE_OFF)
    change_stat(ctx, win, "stuff", stake, rule=R_DANCE_OFF)
    ctx.step({"winner": win, "loser": lose, "stuff": stake})


DANCE_OFF = Action(
    name="quazie.dance-off",
    rule=R_DANCE_OFF,
    summary="Declare a Dance Off against a Muffin (DICE10, once a day)",
    params={"type": "object", "required": ["opponent"], "additionalProperties": False,
            "properties": {"opponent": {"$ref": "common.schema.json#/$defs/name",
                                        "description": "the Muffin you challenge"},
                           "take": {"type": "boolean",
                                    "description": "On a 10: take 2 Stuffs from every non-BreakDancer "
                                                   "(default true)"}}},
    check=_check,
    ready=_ready,
    effect=_dance_off,
    doc="The roll sets the challenger's Dance Move: 1-3 CabbagePatch, 4-6 Disco, 7-9 HeadBob, 10 BreakDance. "
        "CabbagePatch beats Disco, Disco beats HeadBob, HeadBob beats CabbagePatch; equal moves have no winner. "
        "Against a BreakDancer (without a 10) a DICE2 decides: 1 the challenger wins, 2 the challenged. The "
        "loser loses 5 Stuffs and the winner gains 5. On a 10 nobody wins; the challenger becomes a "
        "BreakDancer and may take 2 Stuffs from every Muffin who is not.",
)

ACTIONS = [DANCE_OFF]
