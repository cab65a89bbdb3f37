"""Movement and Tunneling (seed 001 rules "Movement" and "Tunneling").

A move is a path of steps (``NNE``): each step goes north, east, south or west
into an Empty location and costs the handbook's movement energy (a Dancer's
``move_energy`` instead), with the Indoor and square-dance discounts.
"""

from __future__ import annotations

from typing import Iterator

from ...engine import Action, Ctx
from ...problems import counted
from ...roster import set_stat
from ...schemas import FORM
from .common import (
    energy_short,
    guarded,
    guarded_ready,
    handbook,
    outsider_filer,
    pay_energy,
    step_problem,
    terrain_char,
    the_map,
)
from .grid import DIRECTIONS, designate
from .tasks import _obj, here, job, jobspec, me

# ---------------------------------------------------------------- movement


def move_cost(ctx: Ctx) -> int:
    spec = handbook(ctx)["movement"]
    return int(jobspec(ctx, job(ctx)).get("move_energy", spec["energy"]))


def _move(ctx: Ctx) -> None:
    path = ctx.params["path"].upper()
    loc = here(ctx)
    for letter in path:
        dr, dc = DIRECTIONS[letter]
        to = (loc[0] + dr, loc[1] + dc)
        why = step_problem(ctx, loc, to, me(ctx))
        if why:
            # seed 001: the limit's own rule is cited (an Outsider kept out of a Door by 2.11 Outsiders)
            raise ctx.refuse(why[1], rule=why[0])
        pay_energy(ctx, ctx.actor, move_cost(ctx))
        set_stat(ctx, ctx.actor, "location", designate(to))
        ctx.step({"moves": letter, "to": designate(to)})
        loc = to


def can_step(ctx: Ctx) -> Iterator[str]:
    """Why no move (``path``) can be made now, whatever its steps, or nothing. Seed 001, 2.3.1 Movement: the
    first step goes north, east, south or west into an Empty location (``step_problem``: from a Channel only into
    a Channel, 2.11: no Outsider into a Door) and costs a move's Energy, paid before anything else changes; a
    Colonist who can take no first step, or cannot pay for one, makes no move at all. Asked of a Conga's front
    too, whose moves are moves of 2.3.1 (2.10 Lord of the Dance)."""
    loc = here(ctx)
    if all(step_problem(ctx, loc, (loc[0] + dr, loc[1] + dc), me(ctx)) for dr, dc in DIRECTIONS.values()):
        yield f"{ctx.actor} at {designate(loc)} has no location north, east, south or west to step into"
        return
    why = energy_short(ctx, move_cost(ctx), "a move")
    if why:
        yield why


MOVE = Action(
    name="settlement.move",
    rule="movement",
    summary="Move one or more steps north, east, south or west (4 Energy a step; 2 for a Dancer)",
    params=_obj({"path": {"type": "string", "pattern": "^[NESWnesw]{1,20}$",
                          "description": "the steps in order, e.g. NNE",
                          FORM: "1 to 20 steps, each N, E, S or W, like NNE"}}, ["path"]),
    check=guarded(outsiders=True),
    ready=guarded_ready(can_step, outsiders=True),
    effect=_move,
    may_file=outsider_filer,
    doc="Each step must go to an Empty location; from a Channel only into another Channel; Outsiders never "
        "into a Door. Indoors each step costs 25% less.",
)


# ---------------------------------------------------------------- tunneling


def _tunnel_check(ctx: Ctx) -> Iterator[str]:
    m = the_map(ctx)
    if here(ctx)[0] != m.height - 1:
        yield f"{ctx.actor} is at {designate(here(ctx))}, not on the bottom row ({m.height - 1})"


def _tunnel(ctx: Ctx) -> None:
    m = the_map(ctx)
    rows = ctx.edit("map")["rows"]
    rock = terrain_char(ctx, "Rock")
    n = handbook(ctx)["tunneling"]["rows"]
    for _ in range(n):
        rows.append(rock * m.width)
    ctx.step({"map": f"{counted(n, 'row')} of Rock added", "rows": len(rows)})


TUNNEL = Action(
    name="settlement.tunnel",
    rule="tunneling",
    summary="From the bottom row, add five rows of Rock to the bottom of the map",
    check=guarded(_tunnel_check, outsiders=True),  # any Colonist, an Outsider too: it is no task
    effect=_tunnel,
    frequency="weekly",
    may_file=outsider_filer,
)

ACTIONS = [MOVE, TUNNEL]
