"""Constructions, pulling them down, filling Channels, and Smoke (seed 001 "Constructions", "Locations").

What each Construction costs, what it is built on and how near the builder must
be are data in the handbook (``constructions:``); a proposal adding a new
Construction adds an entry there and a character to the map's legend.
"""

from __future__ import annotations

from typing import Any, Iterator

from ...engine import Action, Ctx
from ...timeutil import format_time
from .common import (
    at_location,
    energy_short,
    guarded,
    guarded_ready,
    handbook,
    location_param,
    outsider_filer,
    pay_energy,
    set_terrain,
    stock,
    take,
    the_map,
)
from .grid import Loc, designate
from .tasks import LOCATION, _obj, here


def _spec(ctx: Ctx, what: str) -> dict[str, Any]:
    specs = handbook(ctx)["constructions"]
    if what not in specs:
        raise ctx.refuse(f"{what!r} is not a Construction (Constructions: {', '.join(specs)})")
    return specs[what]


def _payment(ctx: Ctx, spec: dict[str, Any]) -> dict[str, int]:
    """Which of the Construction's alternative prices the builder pays (``pay``), or the only one."""
    options = spec["materials"]
    chosen = ctx.params.get("pay")
    if chosen is None:
        if len(options) == 1:
            return dict(options[0])
        raise ctx.refuse("this Construction can be paid for in more than one way; give pay=, one of: "
                         + "; ".join(", ".join(f"{k}: {v}" for k, v in o.items()) for o in options))
    chosen = {k: v for k, v in chosen.items() if v}
    for o in options:
        if dict(o) == chosen:
            return chosen
    raise ctx.refuse(f"{chosen} is not one of the prices of this Construction: "
                     + "; ".join(str(dict(o)) for o in options))


def _reach_ok(ctx: Ctx, spec: dict[str, Any], loc: Loc) -> None:
    m = the_map(ctx)
    me = here(ctx)
    if spec["reach"] == "on-or-adjacent" and (loc == me or m.adjacent(me, loc)):
        return
    if spec["reach"] == "adjacent" and m.adjacent(me, loc):
        return
    if spec["reach"] == "in-or-adjacent" and (loc == me or m.adjacent(me, loc)):
        return
    where = "on or adjacent to" if spec["reach"] != "adjacent" else "adjacent to"
    raise ctx.refuse(f"{designate(loc)} is not {where} {ctx.actor} at {designate(me)}")


def _build(ctx: Ctx) -> None:
    what = ctx.params["what"]
    spec = _spec(ctx, what)
    loc = location_param(ctx, "at")
    m = the_map(ctx)
    _reach_ok(ctx, spec, loc)
    if m.name(loc) != spec["on"]:
        raise ctx.refuse(f"{designate(loc)} is {m.name(loc)}; a {what} is built on {spec['on']}")
    if spec.get("nobody_there") and at_location(ctx, loc):
        raise ctx.refuse(f"somebody is at {designate(loc)}")
    price = _payment(ctx, spec)
    pay_energy(ctx, ctx.actor, spec["energy"])
    take(ctx, price)
    set_terrain(ctx, loc, what)


def _build_ready(ctx: Ctx) -> Iterator[str]:
    """Seed 001, 2.5 Constructions: each costs its Energy and one of its prices in materials; ``_build`` refuses
    every Construction the builder cannot pay the Energy of, or the Stockpile holds no price of, at any place."""
    specs = handbook(ctx)["constructions"]
    have = stock(ctx)
    payable = [what for what, spec in specs.items()
               if any(all(have.get(item, 0) >= n for item, n in price.items()) for price in spec["materials"])]
    if not payable:
        yield "the Stockpile holds the materials of no Construction"
        return
    short = {what: energy_short(ctx, specs[what]["energy"], f"a {what}") for what in payable}
    if all(short.values()):
        cheapest = min(payable, key=lambda what: specs[what]["energy"])
        yield f"{short[cheapest]}, the least of any Construction the Stockpile has materials for"


BUILD = Action(
    name="settlement.build",
    rule="constructions",
    summary="Build a Construction (Wall, Door, Bed, Bridge, Table, Stove, Catapult, Chimney)",
    params=_obj({"what": {"type": "string", "maxLength": 40,
                          "description": "the Construction to build (Wall, Door, Bed, Bridge, Table ...)"},
                 "at": LOCATION,
                 "pay": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0},
                         "description": "which price, when there is a choice: {Wood: 2} or {Rock: 1}"}},
                ["what", "at"]),
    check=guarded(task=True),
    ready=guarded_ready(_build_ready, task=True),
    effect=_build,
    doc="Energy and materials as the handbook says; where a Construction has several prices (a Wall: 2 Wood "
        "or 1 Rock) say which with pay=.",
)


def _pull(ctx: Ctx) -> None:
    loc = location_param(ctx, "at")
    m = the_map(ctx)
    what = m.name(loc)
    specs = handbook(ctx)["constructions"]
    if what not in specs:
        raise ctx.refuse(f"{designate(loc)} is {what}, not a Construction")
    if not m.adjacent(here(ctx), loc):
        raise ctx.refuse(f"{designate(loc)} is not adjacent to {ctx.actor}")
    spec = specs[what]
    pay_energy(ctx, ctx.actor, spec["energy"])
    # materials are lost: nothing returns to the Stockpile; a Bridge leaves its Water behind
    set_terrain(ctx, loc, "Water" if spec["on"] == "Water" else "Dirt")
    ctx.edit("colony").setdefault("pulled_down", {})[ctx.actor] = format_time(ctx.at)


def _pull_ready(ctx: Ctx) -> Iterator[str]:
    """Seed 001, 2.5 Constructions: only an adjacent Construction is pulled down, for its Energy again."""
    m, me = the_map(ctx), here(ctx)
    specs = handbook(ctx)["constructions"]
    near = sorted({m.name(n) for n in m.neighbours(me) if m.name(n) in specs}, key=lambda w: specs[w]["energy"])
    if not near:
        yield f"no Construction is adjacent to {ctx.actor} at {designate(me)}"
        return
    why = energy_short(ctx, specs[near[0]]["energy"], f"pulling down a {near[0]}")
    if why:
        yield why


PULL = Action(
    name="settlement.pull-down",
    rule="constructions",
    summary="Pull down an adjacent Construction, paying its Energy again; its materials are lost",
    params=_obj({"at": LOCATION}, ["at"]),
    # seed 001 "Locations", Smoke: a Colonist in Smoke may not perform Tasks or *build* Constructions; pulling
    # one down is neither (the Outsiders rule names "build or pull down" as two things), so Smoke allows it.
    # Outsiders may not pull down: outsider_gate refuses this action for them.
    check=guarded(),
    ready=guarded_ready(_pull_ready),
    effect=_pull,
)


def _fill(ctx: Ctx) -> None:
    loc = location_param(ctx, "at")
    m = the_map(ctx)
    if m.name(loc) != "Channel":
        raise ctx.refuse(f"{designate(loc)} is {m.name(loc)}, not a Channel without water")
    if loc != here(ctx) and not m.adjacent(here(ctx), loc):
        raise ctx.refuse(f"{designate(loc)} is neither {ctx.actor}'s location nor adjacent to it")
    pay_energy(ctx, ctx.actor, handbook(ctx)["fill_channel"]["energy"])
    set_terrain(ctx, loc, "Dirt")


def _fill_ready(ctx: Ctx) -> Iterator[str]:
    """Seed 001, 2.5 Constructions (Fill in channel): a Channel on or next to the Colonist, for 4 Energy."""
    m, me = the_map(ctx), here(ctx)
    if not (m.is_(me, "Channel") or m.adjacent_named(me, "Channel")):
        yield f"{ctx.actor} at {designate(me)} is neither in nor adjacent to a Channel without water"
        return
    why = energy_short(ctx, handbook(ctx)["fill_channel"]["energy"], "filling a Channel")
    if why:
        yield why


FILL = Action(
    name="settlement.fill",
    rule="constructions",
    summary="Fill in a dry Channel you are in or next to (4 Energy); it becomes Dirt",
    params=_obj({"at": LOCATION}, ["at"]),
    # "Fill in channel" is an item of 2.5 Constructions, which makes every item a Construction: so no one in
    # Smoke (2.2.1) and no Outsider (2.11: no building constructions; outsider_gate) may fill a Channel
    check=guarded(task=True),
    ready=guarded_ready(_fill_ready, task=True),
    effect=_fill,
)


# ---------------------------------------------------------------- Smoke


def _spread(ctx: Ctx) -> None:
    loc = location_param(ctx, "at")
    m = the_map(ctx)
    if not m.is_(loc, "Dirt"):
        raise ctx.refuse(f"{designate(loc)} is {m.name(loc)}, not Dirt", rule="locations")
    if not m.adjacent_named(loc, "Smoke"):
        raise ctx.refuse(f"{designate(loc)} is not adjacent to Smoke", rule="locations")
    set_terrain(ctx, loc, "Smoke")


def _spread_ready(ctx: Ctx) -> Iterator[str]:
    """Seed 001, 2.2.1 Locations (Smoke): Smoke spreads only onto Dirt next to it; with no such Dirt anywhere on
    the map, ``_spread`` refuses every location."""
    m = the_map(ctx)
    if not any(m.is_(n, "Dirt") for s in m.all_named("Smoke") for n in m.neighbours(s)):
        yield "no Dirt on the map is adjacent to Smoke" if m.all_named("Smoke") else "there is no Smoke on the map"


SPREAD = Action(
    name="settlement.spread-smoke",
    rule="locations",
    summary="Turn a Dirt location next to Smoke into Smoke",
    params=_obj({"at": LOCATION}, ["at"]),
    # "any Colonist": Outsiders too (neither a task nor a construction), wherever e stands (no Location asked)
    check=guarded(outsiders=True, located=False),
    ready=guarded_ready(_spread_ready, outsiders=True, located=False),
    effect=_spread,
    may_file=outsider_filer,
)


def smoke_group(m: Any, start: Loc) -> set[Loc]:
    group = {start}
    stack = [start]
    while stack:
        cur = stack.pop()
        for n in m.neighbours(cur):
            if n not in group and m.is_(n, "Smoke"):
                group.add(n)
                stack.append(n)
    return group


def _vents(m: Any, group: set[Loc]) -> list[Loc]:
    """Where a group of Smoke clears to: its Outside neighbours that are no Barrier, and its Chimneys."""
    return [n for c in group for n in m.neighbours(c)
            if n not in group and ((not m.barrier(n) and m.outside(n)) or m.is_(n, "Chimney"))]


def _clear_ready(ctx: Ctx) -> Iterator[str]:
    """Seed 001, 2.2.1 Locations (Smoke): a group of Smoke clears only where it touches the Outside or a Chimney;
    with no such group anywhere on the map, ``_clear`` refuses every location."""
    m = the_map(ctx)
    smoke = m.all_named("Smoke")
    if not smoke:
        yield "there is no Smoke on the map"
        return
    seen: set[Loc] = set()
    for s in smoke:
        if s in seen:
            continue
        group = smoke_group(m, s)
        if _vents(m, group):
            return
        seen |= group
    yield "no Smoke on the map is adjacent to an Outside location or to a Chimney"


def _clear(ctx: Ctx) -> None:
    loc = location_param(ctx, "at")
    m = the_map(ctx)
    if not m.is_(loc, "Smoke"):
        raise ctx.refuse(f"{designate(loc)} is {m.name(loc)}, not Smoke", rule="locations")
    group = smoke_group(m, loc)
    vents = _vents(m, group)
    if not vents:
        raise ctx.refuse("this Smoke is adjacent neither to an Outside location nor to a Chimney", rule="locations")
    for c in sorted(group):
        set_terrain(ctx, c, "Dirt")


CLEAR = Action(
    name="settlement.clear-smoke",
    rule="locations",
    summary="Clear a group of Smoke that touches the Outside or a Chimney: all of it becomes Dirt",
    params=_obj({"at": LOCATION}, ["at"]),
    # "any Colonist": Outsiders too (neither a task nor a construction), wherever e stands (no Location asked)
    check=guarded(outsiders=True, located=False),
    ready=guarded_ready(_clear_ready, outsiders=True, located=False),
    effect=_clear,
    may_file=outsider_filer,
)

ACTIONS = [BUILD, PULL, FILL, SPREAD, CLEAR]
