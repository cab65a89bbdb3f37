"""Every Task (seed 001 rule "Tasks") with the Jobs' bonuses (rule "Jobs").

Every amount comes from the handbook document (``gamestate/handbook.yaml``),
so a proposal can change a cost without touching code. Each task records its
energy and stockpile changes step by step, so ``nomic act`` shows them and the
diff carries them.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Iterator

from ...engine import PLAYER, Action, Ctx, repealed
from ...roster import change_stat, set_stat
from ...timeutil import parse_time
from .common import (
    at_location,
    beings,
    energy_short,
    give,
    goods,
    guarded,
    guarded_ready,
    handbook,
    inert_outsider,
    is_outsider,
    location_param,
    log_task,
    pay_energy,
    place_problem,
    set_terrain,
    spend_all_energy,
    stock,
    take,
    the_map,
    where,
)
from .grid import Loc, designate, manhattan
from .life import die, die_together


def _obj(props: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": False, "required": required or [], "properties": props}


LOCATION = {"type": "string", "pattern": "^[0-9]{1,4}[a-z]{1,3}$", "description": "a location, like 13a"}


def me(ctx: Ctx) -> dict[str, Any]:
    return ctx.player()


def here(ctx: Ctx) -> Loc:
    return where(me(ctx))  # type: ignore[return-value]


def job(ctx: Ctx) -> str:
    """The actor's Job, as the tasks read it for its bonus. Seed 001 2.6 "Jobs" gives each Job what it adds to
    2.4's tasks (a Fisher's second Food, a Miner's Rock, a Gatherer's choice, ...); repealed, no Job adds
    anything, and a task is done as by a Peasant."""
    if repealed(ctx, "jobs"):
        return "Peasant"
    return str(me(ctx)["stats"].get("job", "Peasant"))


def only_a(ctx: Ctx, what: str) -> str:
    """The refusal of a Job's own parameter (``prospect=``, ``choose=``) from one whose Job gives none: ``what``, and
    while seed 001 2.6 "Jobs" is repealed, that no Job gives it now (the actor may hold the Job all the same)."""
    gone = repealed(ctx, "jobs")
    return what if gone is None else f"{what}; rule {gone.cite()}, which gives each Job its bonus, has been repealed"


def jobspec(ctx: Ctx, name: str) -> dict[str, Any]:
    return handbook(ctx)["jobs"].get(name, {})


def task(ctx: Ctx, name: str) -> dict[str, Any]:
    tasks = handbook(ctx)["tasks"]
    if name not in tasks:  # a proposal removed it from the handbook
        raise ctx.refuse(f"the handbook has no task {name!r}; it cannot be performed")
    return tasks[name]


def adjacent_target(ctx: Ctx, key: str, terrain: tuple[str, ...], what: str) -> Loc:
    """A location parameter naming an adjacent location of one of these terrains."""
    loc = location_param(ctx, key)
    m = the_map(ctx)
    if not m.adjacent(here(ctx), loc):
        raise ctx.refuse(f"{designate(loc)} is not adjacent to {ctx.actor} at {designate(here(ctx))}")
    if m.name(loc) not in terrain:
        raise ctx.refuse(f"{designate(loc)} is {m.name(loc)}, not {what}")
    return loc


def next_to(ctx: Ctx, terrain: str, what: str) -> Iterator[str]:
    """Seed 001, 2.4 Tasks: a task done on an adjacent location of one terrain (``adjacent_target``) is done on
    none while no location adjacent to the actor is of it."""
    if not the_map(ctx).adjacent_named(here(ctx), terrain):
        yield f"{ctx.actor} at {designate(here(ctx))} is not adjacent to {what}"


def affords(base: Any, what: str) -> Any:
    """A test for ``guarded_ready``: the actor cannot pay ``base`` Energy (a number, or a function of the
    context), the least that doing ``what`` costs them, so every way of doing it is refused by ``pay_energy``
    (seed 001, 2.3 Energy)."""
    def test(ctx: Ctx) -> Iterator[str]:
        why = energy_short(ctx, base(ctx) if callable(base) else base, what)
        if why:
            yield why
    return test


def _task_energy(name: str, key: str = "energy") -> Any:
    return lambda ctx: task(ctx, name)[key]


# ---------------------------------------------------------------- the tasks


def _mine(ctx: Ctx) -> None:
    rock = adjacent_target(ctx, "rock", ("Rock",), "Rock")
    # seed 001 "Tasks", Mine: the miner moves into the mined location, which becomes Dirt; 2.3.1 Movement lets a
    # Colonist in a Channel move only into another Channel, so nobody mines out of a Channel
    why = place_problem(ctx, here(ctx), rock, me(ctx))
    if why and why[0] == "movement":
        raise ctx.refuse(f"{why[1]}; mining would move {ctx.actor} onto Dirt at {designate(rock)}", rule=why[0])
    spec = jobspec(ctx, "Miner") if job(ctx) == "Miner" else {}
    pay_energy(ctx, ctx.actor, spec.get("energy", task(ctx, "mine")["energy"]))
    set_terrain(ctx, rock, "Dirt")
    set_stat(ctx, ctx.actor, "location", designate(rock))
    ctx.step({"moves into": designate(rock)})
    if spec:
        if ctx.params.get("prospect"):
            if rock[0] < spec["deep_row"]:
                # seed 001, 2.6 Jobs (Miner): the roll for ore "in or below row 50" is the Miner's, so its limit
                # cites 2.6, as "only a Miner may prospect" does (the task's own rule is 2.4)
                raise ctx.refuse(f"a Miner prospects for ore only in or below row {spec['deep_row']}", rule="jobs")
            roll = ctx.roll(3)
            found = spec["ore"].get(str(roll)) or spec["ore"].get(roll)
            ctx.step({"roll": roll, "finds": found or "nothing"})
            if found:
                give(ctx, {found: 1})
        else:
            give(ctx, {"Rock": spec["rock"]})
    elif ctx.params.get("prospect"):
        raise ctx.refuse(only_a(ctx, "only a Miner may prospect"), rule="jobs")
    log_task(ctx, ctx.actor, "mine")


def _mine_energy(ctx: Ctx) -> int:
    spec = jobspec(ctx, "Miner") if job(ctx) == "Miner" else {}
    return int(spec.get("energy", task(ctx, "mine")["energy"]))


def _out_of_channel(ctx: Ctx) -> Iterator[str]:
    # seed 001, 2.4 Mine: the miner moves into the mined Rock, which becomes Dirt; 2.3.1 Movement keeps one in a
    # Channel to Channels, so nobody in a Channel mines any Rock (``_mine``'s place_problem)
    loc = here(ctx)
    if the_map(ctx).is_(loc, "Channel") and not repealed(ctx, "movement"):
        yield (f"{ctx.actor} is in a Channel at {designate(loc)} and may only move along Channels; mining would "
               "move them onto Dirt")


def _chop(ctx: Ctx) -> None:
    tree = adjacent_target(ctx, "tree", ("Large Tree",), "a Large Tree")
    x = int(ctx.params.get("wood", 1))
    per = jobspec(ctx, "Woodcutter").get("energy_per_wood") if job(ctx) == "Woodcutter" else None
    # 2.6 Jobs (Woodcutter): the Job's own price a Wood, even 0 when a proposal sets it so; the task's without one
    pay_energy(ctx, ctx.actor, (task(ctx, "chop")["energy_per_wood"] if per is None else per) * x)
    give(ctx, {"Wood": x})
    roll = ctx.roll(task(ctx, "chop")["die"])
    if roll == task(ctx, "chop")["fells_on"]:
        ctx.step({"roll": roll, "tree falls": designate(tree)})
        set_terrain(ctx, tree, "Dirt")
    else:
        ctx.step({"roll": roll, "tree stands": designate(tree)})
    log_task(ctx, ctx.actor, "chop")


def _chop_energy(ctx: Ctx) -> int:
    per = jobspec(ctx, "Woodcutter").get("energy_per_wood") if job(ctx) == "Woodcutter" else None
    return int(task(ctx, "chop")["energy_per_wood"] if per is None else per)


def _fish_check(ctx: Ctx) -> Iterator[str]:
    if not the_map(ctx).adjacent_named(here(ctx), "Water"):
        yield f"{ctx.actor} at {designate(here(ctx))} is not adjacent to Water"


def _fish(ctx: Ctx) -> None:
    spec = task(ctx, "fish")
    pay_energy(ctx, ctx.actor, spec["energy"])
    food = jobspec(ctx, "Fisher").get("food", spec["food"]) if job(ctx) == "Fisher" else spec["food"]
    give(ctx, {"Food": food})
    log_task(ctx, ctx.actor, "fish")


def _hunt(ctx: Ctx) -> None:
    prey = ctx.player(ctx.params["outsider"])
    if prey is None or not is_outsider(prey):
        raise ctx.refuse(f"{ctx.params['outsider']} is not an Outsider")
    # Seed 001, 2.4 Tasks (Hunt): the Outsider must be on a neighbouring square; one on the hunter's own square is
    # not adjacent (the reading of plain "adjacent" used for pulling down and for eating at a Table).
    if where(prey) is None or not the_map(ctx).adjacent(here(ctx), where(prey)):
        raise ctx.refuse(f"{prey['name']} is not adjacent to {ctx.actor}")
    mine_energy = int(me(ctx)["stats"]["energy"])
    if not jobspec(ctx, job(ctx)).get("any_outsider") and int(prey["stats"]["energy"]) >= mine_energy:
        raise ctx.refuse(f"{prey['name']} has {prey['stats']['energy']} Energy, not less than {ctx.actor}'s "
                         f"{mine_energy}; only a Hunter may kill it")
    pay_energy(ctx, ctx.actor, task(ctx, "hunt")["energy"])
    die(ctx, prey["name"], f"hunted by {ctx.actor}")
    log_task(ctx, ctx.actor, "hunt")


def _hunt_ready(ctx: Ctx) -> Iterator[str]:
    """Seed 001, 2.4 Hunt: an Outsider on a neighbouring square, with less Energy than the hunter unless the
    hunter's Job (Hunter) may kill any; ``_hunt`` refuses every name while there is none."""
    m, loc = the_map(ctx), here(ctx)
    near = [p for p in ctx.doc("roster")["players"]
            if is_outsider(p) and where(p) is not None and m.adjacent(loc, where(p))]
    if not near:
        yield f"no Outsider is adjacent to {ctx.actor} at {designate(loc)}"
        return
    mine_energy = int(me(ctx)["stats"]["energy"])
    if not jobspec(ctx, job(ctx)).get("any_outsider") and all(int(p["stats"].get("energy", 0)) >= mine_energy
                                                               for p in near):
        yield (f"every Outsider adjacent to {ctx.actor} ({', '.join(p['name'] for p in near)}) has no less Energy "
               f"than {ctx.actor}'s {mine_energy}; only a Hunter may kill it")
        return
    yield from affords(_task_energy("hunt"), "hunting")(ctx)


def _dig_ready(ctx: Ctx) -> Iterator[str]:
    """Seed 001, 2.4 Dig Channel: adjacent Dirt with nobody in it, for 16 Energy."""
    m, loc = the_map(ctx), here(ctx)
    if not any(not at_location(ctx, n) for n in m.adjacent_named(loc, "Dirt")):
        yield f"{ctx.actor} at {designate(loc)} is adjacent to no Dirt with nobody in it"
        return
    yield from affords(_task_energy("dig"), "digging a Channel")(ctx)


def _dig(ctx: Ctx) -> None:
    loc = adjacent_target(ctx, "at", ("Dirt",), "Dirt")
    if at_location(ctx, loc):
        raise ctx.refuse(f"somebody is at {designate(loc)}")
    pay_energy(ctx, ctx.actor, task(ctx, "dig")["energy"])
    set_terrain(ctx, loc, "Channel")
    log_task(ctx, ctx.actor, "dig")


def _gather(ctx: Ctx) -> None:
    m = the_map(ctx)
    if not (m.adjacent_named(here(ctx), "Bush") or m.adjacent_named(here(ctx), "Small Tree")):
        raise ctx.refuse(f"{ctx.actor} at {designate(here(ctx))} is not adjacent to a Bush or Small Tree")
    spec = task(ctx, "gather")
    gatherer = job(ctx) == "Gatherer"
    pay_energy(ctx, ctx.actor, spec["energy"])
    choose = ctx.params.get("choose")
    results = spec["results"]
    if choose:
        if not gatherer:
            raise ctx.refuse(only_a(ctx, "only a Gatherer may choose instead of rolling"), rule="jobs")
        # seed 001, 2.6 Jobs (Gatherer): the choice is among what the Gather task gives (2.4: Food, Wood or Seeds).
        # The handbook keeps those results and a proposal may change them, so the choice is checked against it
        # (as the Catapult's ammo is), never a fixed list: a good it does not give is refused, not a traceback
        offered = [r for r in results if choose in r]
        if not offered:
            goods = ", ".join(dict.fromkeys(k for r in results for k in r)) or "nothing"
            raise ctx.refuse(f"{choose} is not a result of the Gather task (it gives {goods})", rule="jobs")
        got = dict(offered[0])
        ctx.step({"chooses": choose})
    else:
        roll = ctx.roll(len(results))
        got = dict(results[roll - 1])
        ctx.step({"roll": roll})
        if gatherer:
            bonus = jobspec(ctx, "Gatherer").get("bonus", {})
            got = {k: bonus.get(k, v) for k, v in got.items()}
    give(ctx, got)
    log_task(ctx, ctx.actor, "gather")


def _plant(ctx: Ctx) -> None:
    m = the_map(ctx)
    spec = task(ctx, "plant")
    loc = here(ctx)
    water = m.all_named("Water")
    if not any(manhattan(loc, w) < spec["water_within"] for w in water):
        raise ctx.refuse(f"{designate(loc)} is not less than {spec['water_within']} steps from Water")
    if not m.is_(loc, "Dirt"):
        raise ctx.refuse(f"{ctx.actor} stands on {m.name(loc)}, not Dirt")
    pay_energy(ctx, ctx.actor, spec["energy"])
    take(ctx, {"Seeds": spec["seeds"]})
    set_terrain(ctx, loc, "Seedling")
    log_task(ctx, ctx.actor, "plant")


def _crop(ctx: Ctx) -> tuple[Loc, str]:
    m = the_map(ctx)
    loc = here(ctx)
    kind = m.name(loc)
    if kind not in ("Small Crop", "Mature Crop"):
        raise ctx.refuse(f"{ctx.actor} stands on {kind}, not a Small or Mature Crop")
    return loc, "small" if kind == "Small Crop" else "mature"


def _harvest(ctx: Ctx) -> None:
    loc, size = _crop(ctx)
    spec = task(ctx, "harvest")
    pay_energy(ctx, ctx.actor, spec["energy"])
    set_terrain(ctx, loc, "Dirt")
    give(ctx, {"Food": spec[size]})
    if job(ctx) == "Farmer":
        give(ctx, {"Seeds": jobspec(ctx, "Farmer").get("seeds", 1)})
    log_task(ctx, ctx.actor, "harvest")


def _brew(ctx: Ctx) -> None:
    loc, size = _crop(ctx)
    spec = task(ctx, "brew")
    pay_energy(ctx, ctx.actor, spec["energy"])
    set_terrain(ctx, loc, "Dirt")
    # a Brewer's yield is eir Job's (2.6); a Job a proposal struck from the handbook has none, so the task's own
    amounts = jobspec(ctx, "Brewer") if job(ctx) == "Brewer" else {}
    give(ctx, {"Drinks": amounts.get(size, spec[size])})
    log_task(ctx, ctx.actor, "brew")


def _drink_check(ctx: Ctx) -> Iterator[str]:
    if int(me(ctx)["stats"]["stress"]) <= 0:
        yield f"{ctx.actor} has no Stress; only a Colonist with positive Stress may Drink"


def _drink(ctx: Ctx) -> None:
    spec = task(ctx, "drink")
    pay_energy(ctx, ctx.actor, spec["energy"])
    take(ctx, {"Drinks": 1})
    got = change_stat(ctx, ctx.actor, "stress", -spec["stress"])
    ctx.step({"stress": got})
    log_task(ctx, ctx.actor, "drink")


def _cook(ctx: Ctx) -> None:
    m = the_map(ctx)
    loc = here(ctx)
    rooms = m.rooms_of(loc)
    if not rooms:
        raise ctx.refuse(f"{ctx.actor} at {designate(loc)} is Outside; cooking needs to be Indoors")
    if not m.adjacent_named(loc, "Stove"):
        raise ctx.refuse(f"{ctx.actor} at {designate(loc)} is not adjacent to a Stove")
    spec = task(ctx, "cook")
    pay_energy(ctx, ctx.actor, spec["energy"])
    take(ctx, {"Food": spec["food"]})
    meals = spec["meals"] + (jobspec(ctx, "Cook").get("extra_meals", 1) if job(ctx) == "Cook" else 0)
    give(ctx, {"Meals": meals})
    dirt = sorted(c for room in rooms for c in room if m.is_(c, "Dirt"))
    # seed 001, 2.4 Cook Meal: one Dirt of the cook's Room becomes Smoke, "if any exist"; with none, a smoke=
    # names a change the rule does not make, so it is refused as input that cannot apply (as prospect= from a
    # non-Miner, choose= from a non-Gatherer and bed=true outside a Bed are), not silently ignored
    if not dirt and ctx.params.get("smoke") is not None:
        raise ctx.refuse(f"smoke={ctx.params['smoke']} was given, but {ctx.actor}'s Room has no Dirt, so cooking "
                         "turns nothing into Smoke; leave smoke= out")
    if dirt:
        if not ctx.params.get("smoke"):
            raise ctx.refuse("the Room has Dirt, so cooking must turn one Dirt into Smoke: "
                             f"give smoke=<location> (one of {', '.join(designate(c) for c in dirt[:8])}"
                             f"{' ...' if len(dirt) > 8 else ''})")
        target = location_param(ctx, "smoke")
        if target not in dirt:
            raise ctx.refuse(f"{designate(target)} is not Dirt in {ctx.actor}'s Room")
        set_terrain(ctx, target, "Smoke")
    log_task(ctx, ctx.actor, "cook")


def _eat(ctx: Ctx) -> None:
    spec = task(ctx, "eat")
    pay_energy(ctx, ctx.actor, spec["energy"])
    if ctx.params.get("meal"):
        take(ctx, {"Meals": spec["meals"]})
        # Seed 001, 2.4 Tasks (Eat): "adjacent to a Table" is a neighbouring square, not the one the eater stands on
        # (a Table may be built on one's own square, 2.5); the seed writes "on or adjacent" where it means both.
        loc = here(ctx)  # none when 2.2 The Settlement is repealed and nobody placed the eater: no Table near
        at_table = loc is not None and bool(the_map(ctx).adjacent_named(loc, "Table"))
        less = spec["table_hunger"] if at_table else spec["hunger"]
    else:
        take(ctx, {"Food": spec["food"]})
        less = spec["hunger"]
    got = change_stat(ctx, ctx.actor, "hunger", -less)
    ctx.step({"hunger": got})
    log_task(ctx, ctx.actor, "eat")


def _fire_now(ctx: Ctx) -> Iterator[str]:
    """Seed 001, 2.4 Fire Catapult: what keeps the actor from firing at all, whatever the Catapult, target and
    ammunition: a Construction pulled down within the quiet hours, or less than 10 Energy. ``_fire`` refuses these
    first, in these words."""
    spec = task(ctx, "catapult")
    pulled = ctx.doc("colony").get("pulled_down", {}).get(ctx.actor)
    if pulled and ctx.at - parse_time(pulled) < timedelta(hours=spec["quiet_hours"]):
        yield f"{ctx.actor} pulled down a Construction at {pulled}, within {spec['quiet_hours']} hours"
        return
    if int(me(ctx)["stats"]["energy"]) < spec["min_energy"]:
        yield f"{ctx.actor} has {me(ctx)['stats']['energy']} Energy; firing needs {spec['min_energy']}"


def _ammo_in_stock(ctx: Ctx) -> Iterator[str]:
    # seed 001, 2.4 Fire Catapult: 10 Rock, 1 Anvil or 1 Grand Piano from the Stockpile (``take`` refuses an amount
    # it lacks); the ammunition is the handbook's list (catapult.ammo), so any other is refused too
    ammo = task(ctx, "catapult")["ammo"]
    have = stock(ctx)
    if not any(have.get(item, 0) >= shot["amount"] for item, shot in ammo.items()):
        yield ("the Stockpile holds no ammunition for the Catapult ("
               + ", ".join(goods(shot["amount"], item) for item, shot in ammo.items()) + " needed; it holds "
               + ", ".join(goods(have.get(item, 0), item) for item in ammo) + ")")


def _fire(ctx: Ctx) -> None:
    m = the_map(ctx)
    spec = task(ctx, "catapult")
    for why in _fire_now(ctx):
        raise ctx.refuse(why)
    catapult = adjacent_target(ctx, "catapult", ("Catapult",), "a Catapult")
    target = location_param(ctx, "target")
    dr, dc = target[0] - catapult[0], target[1] - catapult[1]
    lo, hi = spec["range"]
    if (dr and dc) or not lo <= abs(dr) + abs(dc) <= hi:
        raise ctx.refuse(f"{designate(target)} is not {lo} to {hi} squares from the Catapult at "
                         f"{designate(catapult)} in a straight north, south, east or west line")
    for loc in (catapult, target):
        if m.indoors(loc):
            raise ctx.refuse(f"{designate(loc)} is Indoors; both the Catapult and the target must be Outside")
    ammo = ctx.params["ammo"]
    # seed 001, 2.4 Fire Catapult: 10 Rock, 1 Anvil or 1 Grand Piano, each with its die; the handbook keeps that
    # list (a proposal may add to it or strike from it), so the parameter is checked against it, not a fixed enum
    if ammo not in spec["ammo"]:
        raise ctx.refuse(f"{ammo} is not ammunition for the Catapult (it fires {', '.join(spec['ammo']) or 'nothing'})")
    shot = spec["ammo"][ammo]
    spend_all_energy(ctx, ctx.actor)
    take(ctx, {ammo: shot["amount"]})
    ctx.step({"fires at": designate(target)})
    hit = []
    for p in sorted(at_location(ctx, target), key=lambda p: p["name"]):
        roll = ctx.roll(shot["die"])
        ctx.step({"roll": roll, "who": p["name"]})
        if roll == 1:
            hit.append((p["name"], f"hit by {ctx.actor}'s {ammo}"))
    # seed 001, 2.4 Fire Catapult and 2.8 Death: those the one shot kills die at one moment, judged together (no
    # order among them: none is stressed by another's death, each one's Traitor test reads eir own Stress)
    die_together(ctx, hit)
    log_task(ctx, ctx.actor, "catapult")


def _shove_energy(ctx: Ctx) -> Iterator[str]:
    # seed 001, 2.4 Shove: 10 Energy or more (all of it is spent), whoever is shoved
    spec = task(ctx, "shove")
    if int(me(ctx)["stats"]["energy"]) < spec["min_energy"]:
        yield f"{ctx.actor} has {me(ctx)['stats']['energy']} Energy; shoving needs {spec['min_energy']}"


def _anyone_adjacent(ctx: Ctx) -> Iterator[str]:
    # seed 001, 2.4 Shove: the one shoved is a Colonist (an Outsider too, while 2.11 stands) on a neighbouring square
    m, loc = the_map(ctx), here(ctx)
    if not any(where(p) is not None and m.adjacent(loc, where(p)) for p in beings(ctx) if p["name"] != ctx.actor):
        yield f"no Colonist is adjacent to {ctx.actor} at {designate(loc)}"


def _shove(ctx: Ctx) -> None:
    task(ctx, "shove")  # a task the handbook lacks is refused first
    m = the_map(ctx)
    victim = ctx.player(ctx.params["colonist"])
    if victim is None or victim not in beings(ctx) or where(victim) is None:
        # seed 001 2.4 Shove moves a Colonist; with 2.11 Outsiders repealed an Outsider is none
        inert = inert_outsider(ctx, victim)
        if inert:
            raise ctx.refuse(f"{inert}: it is no Colonist to shove", rule="outsiders")
        raise ctx.refuse(f"{ctx.params['colonist']} is not a Colonist on the map")
    for why in _shove_energy(ctx):
        raise ctx.refuse(why)
    a, b = here(ctx), where(victim)
    if not m.adjacent(a, b):
        raise ctx.refuse(f"{victim['name']} at {designate(b)} is not adjacent to {ctx.actor}")
    to = (2 * b[0] - a[0], 2 * b[1] - a[1])
    if not m.inside(to):  # no designation to give: off the map's edge there are no locations
        raise ctx.refuse(f"{victim['name']} at {designate(b)} is at the edge of the map: the square beyond is "
                         "off the map, not Empty")
    if not m.empty(to):
        raise ctx.refuse(f"{designate(to)} is {m.name(to)}, not Empty")
    # seed 001: being shoved is moving, so the shoved one moves as 2.3.1 Movement and 2.11 Outsiders allow them:
    # never out of a Channel onto other ground, never an Outsider into a Door (as for a conga's followers)
    why = place_problem(ctx, b, to, victim)
    if why:
        raise ctx.refuse(f"{victim['name']} cannot be shoved to {designate(to)}: {why[1]}", rule=why[0])
    spend_all_energy(ctx, ctx.actor)
    set_stat(ctx, victim["name"], "location", designate(to))
    ctx.step({"shoves": victim["name"], "to": designate(to)})
    log_task(ctx, ctx.actor, "shove")


def _t(name: str, rule: str, summary: str, effect: Any, params: dict[str, Any] | None = None,
       check: Any = None, doc: str = "", ready: tuple[Any, ...] = (), located: bool = True) -> Action:
    """A task. ``ready``: the tests (``guarded_ready``) of a task that takes parameters, which ``nomic act --list``
    asks without them: the actor's standing, then each of these. ``located=False``: a task that asks for no
    Location of the actor (``actor_problems``)."""
    required = bool((params or {}).get("required"))
    return Action(name=f"settlement.{name}", rule=rule, summary=summary, params=params or _obj({}),
                  check=guarded(check, task=True, located=located), effect=effect, who=PLAYER, doc=doc,
                  ready=guarded_ready(*ready, task=True, located=located) if required else None)

# what the Catapult fires is the handbook's list (catapult.ammo), checked by _fire, so a proposal may change it
AMMO = {"type": "string", "minLength": 1, "maxLength": 40,
        "description": "Rock, Anvil or Grand Piano: one of the handbook's catapult ammo"}

ACTIONS = [
    _t("mine", "tasks", "Mine: 8 Energy turns an adjacent Rock into Dirt and you move into it", _mine,
       _obj({"rock": LOCATION, "prospect": {"type": "boolean", "description": "a Miner at row 50 or below: "
                                                                             "roll for ore instead of 1 Rock"}},
            ["rock"]),
       ready=(lambda ctx: next_to(ctx, "Rock", "Rock"), _out_of_channel, affords(_mine_energy, "mining"))),
    _t("chop", "tasks", "Chop Wood: 4 Energy a Wood from an adjacent Large Tree; a DICE3 of 1 fells it", _chop,
       _obj({"tree": LOCATION,
             "wood": {"type": "integer", "minimum": 1, "maximum": 100,
                      "description": "how many Wood to chop (1 if left out), each paid in Energy"}}, ["tree"]),
       ready=(lambda ctx: next_to(ctx, "Large Tree", "a Large Tree"), affords(_chop_energy, "a Wood"))),
    _t("fish", "tasks", "Fish: 4 Energy for 1 Food, next to Water", _fish, check=_fish_check),
    _t("hunt", "tasks", "Hunt: 4 Energy kills an adjacent Outsider with less Energy than you", _hunt,
       _obj({"outsider": {"$ref": "common.schema.json#/$defs/name", "description": "the adjacent Outsider to kill"}},
            ["outsider"]), ready=(_hunt_ready,)),
    _t("dig", "tasks", "Dig Channel: 16 Energy turns adjacent Dirt with nobody in it into a Channel", _dig,
       _obj({"at": LOCATION}, ["at"]), ready=(_dig_ready,)),
    _t("gather", "tasks", "Gather: 4 Energy and a DICE3 next to a Bush or Small Tree: 1 Food, 1 Wood or 2 Seeds",
       _gather, _obj({"choose": {"type": "string", "minLength": 1, "maxLength": 40,
                                 "description": "a Gatherer may choose instead of rolling: Food, Wood or Seeds "
                                                "(one of the handbook's gather results)"}})),
    _t("plant", "tasks", "Plant Seed: 8 Energy and 1 Seed turn your Dirt into a Seedling, near Water", _plant),
    _t("harvest", "tasks", "Harvest Crop: 5 Energy, your Crop becomes Dirt: 8 Food (Small) or 12 (Mature)",
       _harvest),
    _t("brew", "tasks", "Brew: 5 Energy, your Crop becomes Dirt: 8 Drinks (Small) or 12 (Mature)", _brew),
    # seed 001 2.4: Drink and Eat ask for no Location (only Eat's Table bonus, which one without a Location misses)
    _t("drink", "tasks", "Drink: 1 Energy and 1 Drink take 5 off your Stress", _drink, check=_drink_check,
       located=False),
    _t("cook", "tasks", "Cook Meal: Indoors by a Stove, 10 Energy and 2 Food make 1 Meal, and Smoke", _cook,
       _obj({"smoke": LOCATION})),
    _t("eat", "tasks", "Eat: 5 Energy and 3 Food (or 1 Meal) take 1 off your Hunger (2 for a Meal at a Table)",
       _eat, _obj({"meal": {"type": "boolean", "description": "eat a Meal instead of 3 Food"}}), located=False),
    _t("fire", "tasks", "Fire Catapult: all your Energy (10 or more) and 10 Rock, 1 Anvil or 1 Grand Piano", _fire,
       _obj({"catapult": LOCATION, "target": LOCATION, "ammo": AMMO}, ["catapult", "target", "ammo"]),
       ready=(_fire_now, lambda ctx: next_to(ctx, "Catapult", "a Catapult"), _ammo_in_stock)),
    _t("shove", "tasks", "Shove: all your Energy (10 or more) pushes an adjacent Colonist one square away", _shove,
       _obj({"colonist": {"$ref": "common.schema.json#/$defs/name", "description": "the adjacent Colonist to push"}},
            ["colonist"]),
       ready=(_shove_energy, _anyone_adjacent)),
]

