"""Outsiders: Moose and Rats (seed 001 rules "Outsiders" and "Outsider Tasks").

Outsiders are roster entries with ``kind: outsider``, named by their type and
a number ("Moose 1"). They are treated as Colonists by the dynastic rules but
perform no tasks except their own; the Expedition Leader files their actions
(``Action.may_file``). One who dies ceases to exist: the engine removes it.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Iterator

from ...engine import LEADER, PLAYER, Action, Ctx
from ...problems import Problem, counted, shown_value, wrong_kind
from ...roster import STAT_TYPES, change_stat, fold, new_stats, used_names, value_problem
from ...timeutil import format_time, parse_time, week_start
from .common import (
    OUTSIDER,
    beings,
    goods,
    guarded,
    handbook,
    inert_outsider,
    is_outsider,
    outsider_filer,
    outsider_type,
    pay_energy,
    set_terrain,
    stock,
    the_map,
    where,
)
from .grid import designate, parse
from .tasks import LOCATION, _obj, here

RULE = "outsiders"


def outsiders_on_map(ctx: Ctx) -> list[dict[str, Any]]:
    return [p for p in beings(ctx) if is_outsider(p) and where(p) is not None]


def _create_check(ctx: Ctx) -> Iterator[str]:
    kind = ctx.params["type"]
    types = handbook(ctx)["outsiders"]
    if kind not in types:
        yield f"there is no Outsider type {kind!r} (types: {', '.join(types)})"
        return
    yield from _weekly(ctx, kind)
    yield from _crowded(ctx)


def _weekly(ctx: Ctx, kind: str) -> Iterator[str]:
    made = [parse_time(t) for t in ctx.doc("colony").get("outsiders_created", {}).get(kind, [])]
    this_week = [t for t in made if t >= week_start(ctx.at)]
    if this_week:
        yield f"a {kind} was already created this week (at {format_time(this_week[0])}); this is a weekly action"
    elif made and ctx.at - max(made) < timedelta(hours=24):
        yield f"a {kind} was created at {format_time(max(made))}; a weekly action needs 24 hours between takings"


def _crowded(ctx: Ctx) -> Iterator[str]:
    present = outsiders_on_map(ctx)
    if len(present) >= handbook(ctx)["outsider_limit"]:
        yield (f"there {'is' if len(present) == 1 else 'are'} {counted(len(present), 'Outsider')} on the map "
               f"({', '.join(p['name'] for p in present)}); "
               f"none may be created while there are {handbook(ctx)['outsider_limit']} or more")


def _create_ready(ctx: Ctx) -> Iterator[str]:
    """Seed 001, 2.11 Outsiders: none is created while the map holds the limit of them, nor of a type already
    created this week (a weekly action, for each type); ``_create_check`` refuses every type then, an unknown
    one in its own words."""
    crowded = list(_crowded(ctx))
    if crowded:
        yield from crowded
        return
    types = handbook(ctx)["outsiders"]
    if all(next(_weekly(ctx, kind), None) for kind in types):
        yield f"every type of Outsider ({', '.join(types)}) was created within this week or the last 24 hours"


def _create(ctx: Ctx) -> None:
    kind = ctx.params["type"]
    spec = handbook(ctx)["outsiders"][kind]
    m = the_map(ctx)
    places = ctx.params["at"] if isinstance(ctx.params["at"], list) else [ctx.params["at"]]
    indoors = bool(ctx.params.get("indoors"))
    count = ctx.params.get("count")
    if indoors:
        # Seed 001, 2.11 Outsiders: the Indoor swarm is the Rat's clause, which the handbook keeps as a type's
        # indoor_swarm; a proposal may give it to another type or take it from the Rat, so a refusal names that
        # condition and the types that meet it now, not the Rats
        if not spec.get("indoor_swarm"):
            swarming = [t for t, s in handbook(ctx)["outsiders"].items() if s.get("indoor_swarm")]
            raise ctx.refuse(f"a {kind} is not created Indoors: rule 2.11 Outsiders lets only a type with an Indoor "
                             f"swarm come Indoors (the handbook's indoor_swarm: {', '.join(swarming) or 'no type'}); "
                             f"a {kind} starts on row 0")
        if count is not None and len(places) > 1:
            raise ctx.refuse(f"give the size of the {kind} swarm once: count= with one location, or the location "
                             "listed that many times, not both")
        if count is not None:
            places = places * count
        meals = stock(ctx).get("Meals", 0)
        if len(places) > meals:
            # seed 001 2.11 Outsiders (Rat): no more Rats than Meals; each count with its noun in the right number
            raise ctx.refuse(f"{counted(len(places), kind)}, but the Stockpile holds only {goods(meals, 'Meals')}")
        # Seed 001, 2.11 Outsiders (Rat): the Leader may create X Rats "in any Indoor Dirt Location": one Location
        # of eir choice, where the X Rats appear together (the rule's Location is singular, and beings may share
        # one, 2.2), not X Locations (docs/modules/settlement.md, readings). Compared as locations, so 4e and 04e
        # are one; a designation that is none is refused below, in the loop's words
        distinct = list(dict.fromkeys(_as_place(text) for text in places))
        if len(distinct) > 1:
            raise ctx.refuse(f"the {kind} swarm created Indoors comes all in one Indoor Dirt Location "
                             f"({', '.join(distinct)} are {len(distinct)}); give one location, and count= for how many")
    elif count is not None:
        raise ctx.refuse("count= is for a swarm created Indoors (indoors=true); on row 0 one Outsider of each type "
                         "is created")
    elif len(places) != 1:
        raise ctx.refuse("one Outsider of each type is created on row 0 (several only as a swarm Indoors: "
                         "indoors=true)")
    start_problem = _start_stats_problem(ctx, kind, spec.get("stats", {}))
    if start_problem:
        raise ctx.refuse(start_problem)
    colony = ctx.edit("colony")
    numbers = colony.setdefault("outsider_numbers", {})
    roster = ctx.edit("roster")
    taken = set(used_names(ctx))
    for text in places:
        try:
            loc = parse(text)
        except ValueError as e:
            raise ctx.refuse(str(e)) from None
        if not m.inside(loc):
            raise ctx.refuse(f"{text} is not on the map")
        if indoors:
            if not (m.is_(loc, "Dirt") and m.indoors(loc)):
                raise ctx.refuse(f"{designate(loc)} is not an Indoor Dirt location")
        else:
            if loc[0] != 0:
                raise ctx.refuse(f"{designate(loc)} is not on row 0; Outsiders start on row 0")
            if not m.empty(loc):
                raise ctx.refuse(f"{designate(loc)} is {m.name(loc)}, not an Empty location")
        name = _next_name(numbers, kind, taken)
        stats = new_stats(ctx.doc("roster")["stats"])
        stats.update({k: v for k, v in spec.get("stats", {}).items()})
        stats["location"] = designate(loc)
        roster["players"].append({"name": name, "kind": OUTSIDER, "joined": format_time(ctx.at), "stats": stats})
        ctx.step({"outsider": name, "at": designate(loc)})
    created = colony.setdefault("outsiders_created", {})
    horizon = ctx.at - timedelta(days=8)
    created[kind] = [t for t in created.get(kind, []) if parse_time(t) >= horizon] + [format_time(ctx.at)]


def _as_place(text: str) -> str:
    """A location parameter as the map designates it (``04e`` is 4e), or as written when it designates none."""
    try:
        loc = parse(text)
    except ValueError:
        return text
    return text if loc is None else designate(loc)


def _next_name(numbers: dict[str, Any], kind: str, taken: set[str]) -> str:
    """Seed 001, 2.11 Outsiders: a new Outsider is called by its type and a number no name of the game has: the
    numbering goes past a name on the roster or given up in a change of name (1.2; ``used_names``, case and
    spacing aside), as an Outsider renamed to "Moose 2" keeps it, so the next Moose is Moose 3. ``taken`` grows
    with the name given."""
    number = numbers.get(kind, 0) + 1
    while fold(f"{kind} {number}") in taken:
        number += 1
    numbers[kind] = number
    name = f"{kind} {number}"
    taken.add(fold(name))
    return name


def dead_outsiders(ctx: Ctx) -> Iterator[tuple[str, str]]:
    """Seed 001, 2.11 Outsiders: an Outsider who dies ceases to exist, and the engine takes it off the roster, so
    the roster no longer shows its name; but the log's actions under that name are its own. The numbering
    (``outsider_numbers``: the last number given to each type, ``_next_name``) remembers every name it gave, and
    ``dead_outsiders`` the names of one renamed (1.2) before it died: each of these that no entry of the roster
    has, had or left under is a dead Outsider's (the module's ``given_names``), which no change of name and no
    newcomer may take."""
    colony = ctx.doc("colony")
    numbers = colony.get("outsider_numbers") or {}
    renamed = colony.get("dead_outsiders") or []
    if not numbers and not renamed:
        return
    roster = ctx.doc("roster")
    held = {fold(n) for p in [*roster["players"], *roster.get("former", [])]
            for n in [p["name"], *(f["name"] for f in p.get("formerly", []))]}
    names = [f"{kind} {number}" for kind, last in numbers.items() for number in range(1, last + 1)]
    for name in [*names, *renamed]:
        if fold(name) not in held:
            held.add(fold(name))
            yield name, f"{name}, an Outsider who died"


def _start_stats_problem(ctx: Ctx, kind: str, stats: dict[str, Any]) -> str | None:
    """Why the handbook's starting stats of an Outsider type (seed 001, Outsiders: a Moose starts with 2 Hunger)
    cannot be an Outsider's stats on the roster, or None. The handbook cannot see the roster's declarations, so a
    value of the wrong type or out of bounds (a Hunger of 'two' or -2) or a stat the roster does not keep is caught
    here, when an Outsider would be made with it, naming the handbook's field."""
    defs = ctx.doc("roster")["stats"]
    for key, value in stats.items():
        field = f"the handbook's outsiders.{kind}.stats.{key}"
        d = defs.get(key)
        if d is None:
            return f"{field}: the roster keeps no stat {key!r} (its stats: {', '.join(defs)})"
        if not STAT_TYPES.get(d["type"], lambda v: True)(value):
            return f"{field}: {wrong_kind(shown_value(value), d['type'])}, as the roster's {key} is"
        wrong = value_problem(d, value)
        if wrong:
            return f"{field}: {wrong}"
    return None


CREATE = Action(
    name="settlement.create-outsider",
    rule=RULE,
    summary="The Expedition Leader creates an Outsider (weekly, per type) on row 0, or Rats Indoors",
    params=_obj({"type": {"type": "string", "maxLength": 40,
                          "description": "the Outsider's type, as the handbook names it (Rat ...)"},
                 "at": {"oneOf": [LOCATION, {"type": "array", "minItems": 1, "maxItems": 2000, "items": LOCATION}],
                        "description": "the location on row 0 (or, for a swarm, the locations) where it appears"},
                 "indoors": {"type": "boolean", "description": "a type with an Indoor swarm (Rat): a swarm in one "
                                                               "Indoor Dirt location, no more than there are Meals"},
                 "count": {"type": "integer", "minimum": 1, "maximum": 2000,
                           "description": "with indoors=true: how many Rats come in the one location"}},
                ["type", "at"]),
    who=LEADER,
    check=_create_check,
    ready=_create_ready,
    effect=_create,
    doc="Once a week for each type, and not while three or more Outsiders are on the map. A Moose starts "
        "with 2 Hunger. Instead of one Rat on row 0, the Leader may create several Rats in one Indoor Dirt "
        "location (indoors=true, at=<location>, count=<how many>), no more than the Meals in the Stockpile.",
)


def _graze(ctx: Ctx) -> None:
    me = ctx.player()
    kind = outsider_type(me)
    spec = handbook(ctx)["outsiders"].get(kind, {}).get("graze")
    if not spec:
        raise ctx.refuse(f"a {kind} may not Graze", rule="outsider-tasks")
    m = the_map(ctx)
    loc = here(ctx)
    food = m.name(loc)
    if food not in spec:
        raise ctx.refuse(f"{ctx.actor} stands on {food}; it grazes {', '.join(spec)}", rule="outsider-tasks")
    need = spec[food]
    hunger = int(me["stats"]["hunger"])
    if hunger < need:
        raise ctx.refuse(f"{ctx.actor} has {hunger} Hunger; grazing {food} needs at least {need}",
                         rule="outsider-tasks")
    pay_energy(ctx, ctx.actor, handbook(ctx)["tasks"]["graze"]["energy"])
    got = change_stat(ctx, ctx.actor, "hunger", -need)
    ctx.step({"hunger": got})
    set_terrain(ctx, loc, "Dirt")


def _graze_check(ctx: Ctx) -> Iterator[str]:
    if not is_outsider(ctx.player()):
        yield "only an Outsider (a Moose) may Graze"


GRAZE = Action(
    name="settlement.graze",
    rule="outsider-tasks",
    summary="A Moose grazes the Bush, Small Tree or Crop it stands on (5 Energy, less Hunger)",
    who=PLAYER,
    check=guarded(_graze_check, task=True, outsiders=True),
    effect=_graze,
    may_file=outsider_filer,
    doc="Filed by the Expedition Leader for the Moose (actor: 'Moose 1'). A Bush, Small Tree or Small Crop "
        "needs 1 Hunger and takes 1; a Mature Crop needs 2 and takes 2.",
)

# Seed 001 "Outsiders": treated as Colonists by the dynastic rules, but no tasks, no building or pulling
# down, no change of job. So besides their own Graze they move, rest, dance, tunnel ("any Colonist" on the
# bottom row) and spread or clear Smoke ("any Colonist"); Victory leaves them out (no support).
OUTSIDER_ACTIONS = {"settlement.move", "settlement.graze", "settlement.rest", "settlement.dance",
                    "settlement.dance-success", "settlement.conga-move", "settlement.tunnel",
                    "settlement.spread-smoke", "settlement.clear-smoke", "engine.tick"}


def outsider_gate(ctx: Ctx) -> Iterator[Problem]:
    """Outsiders take only the actions the rules allow them (no core actions, no tasks).

    Seed 001 2.11 "Outsiders" is what lets an Outsider act at all (the Expedition Leader acts for it, and it is
    treated as a Colonist). Repealed, an Outsider left on the roster takes no action whatever (but the engine's
    tick, which is nobody's move): not its own, nor one 2.11's limits kept from it. So the gate is not tied to the
    rule (``engine.ruled``): it runs while 2.11 is repealed too, and refuses more."""
    me = ctx.player()
    if not is_outsider(me):
        return
    inert = inert_outsider(ctx, me)
    if inert:
        if ctx.action.name != "engine.tick":
            yield Problem(f"{inert}: an Outsider takes no action", rule=RULE)
    elif ctx.action.name not in OUTSIDER_ACTIONS:
        yield Problem(f"{ctx.actor} is an Outsider; Outsiders may not take {ctx.action.name}", rule=RULE)


ACTIONS = [CREATE, GRAZE]
