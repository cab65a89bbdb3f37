"""Shared pieces of the Settlement rules: options, who is a Colonist, where they are, paying.

Seed 001, "Royal Blood": for every dynastic rule the Expedition Leader is not a
Colonist. Outsiders (roster entries with ``kind: outsider``) are treated as
Colonists except where a rule says otherwise ("Outsiders").
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Iterable, Iterator, Mapping

from ...engine import Ctx, Remembered, State, peek, peek_items, repealed
from ...problems import Problem, counted
from ...roster import bounds, change_stat, stat_defs
from ...timeutil import format_time, parse_time
from .grid import (
    SEED_BARRIERS,
    Loc,
    SettlementMap,
    barrier_disagreements,
    construction_disagreements,
    designate,
    parse,
)

DEFAULTS: dict[str, Any] = {
    "adjacency": "king",  # "Adjacent": the eight neighbours (orthogonal where a rule says so)
    "room_connectivity": "orthogonal",  # how Free Locations join into a Room
    "nested_rooms": "merge",  # a room inside a room is part of the larger one
    "indoor_rounding": "result",  # round the reduced cost (result) or the 25% taken off (reduction)
    "start": "13a",  # where new Colonists start
    "hokey_circle": "points",  # the circle passes through location centres (points) or squares
    "dance_reuse": "type",  # what may not complete two dances within seven days: the dance type, or type+places
    "job_window": "days",  # "three times in one week": the last seven days (days) or the same Mon-Sun week (week)
    "victory_date": "2026-12-31T00:00:00Z",  # the seed's 5 May 2010, moved into this game's time
}

CHOICES: dict[str, tuple[str, ...]] = {
    "adjacency": ("king", "orthogonal"),
    "room_connectivity": ("orthogonal", "king"),
    "nested_rooms": ("merge", "separate"),
    "indoor_rounding": ("result", "reduction"),
    "hokey_circle": ("points", "squares"),
    "dance_reuse": ("type", "positions"),
    "job_window": ("days", "week"),
}

OUTSIDER = "outsider"


def option_problems(config: dict[str, Any]) -> list[tuple[str, str]]:
    """Unknown options, or values that are not one of the readings offered: (the option, what is wrong with it),
    so that the problem is placed on the option's own line of game.yaml."""
    chosen = config.get("options", {}).get("settlement", {}) or {}
    out = []
    for key, value in chosen.items():
        if key not in DEFAULTS:
            out.append((key, f"unknown option {key!r} (options: {', '.join(DEFAULTS)})"))
        elif key in CHOICES and value not in CHOICES[key]:
            out.append((key, f"{value!r} is not one of {', '.join(CHOICES[key])}"))
        elif key == "victory_date":
            try:
                parse_time(value)
            except (TypeError, ValueError) as e:
                out.append((key, str(e) if repr(value) in str(e) else f"{value!r} is not a time: {e}"))
        elif key == "start":
            try:
                parse(value)
            except ValueError as e:
                out.append((key, str(e)))
    return out


def opts(state: State | Ctx) -> dict[str, Any]:
    return {**DEFAULTS, **state.config.get("options", {}).get("settlement", {})}


def leader_of(state: State | Ctx) -> str | None:
    try:
        return state.doc("dynasty").get("leader")
    except KeyError:
        return None


def royal(state: State | Ctx) -> str | None:
    """The Expedition Leader whom seed 001 2.1 Royal Blood keeps out of the Colonists of the dynastic rules, or None.

    The core rules make the Leader one of the Colonists (Dynasties: a Dynasty is headed by a Colonist); only 2.1
    says that for the dynastic rules e is not one. Repealed, nothing does: the Leader is a Colonist like any other
    (placed on the map, hungry, stressed, counted for Victory, free to take a Colonist's actions), and None is
    given. The Leader's own powers (the Hunger, Traitors, Outsiders, the Election, filing for an Outsider) are the
    Leader's still (``leader_of``)."""
    boss = leader_of(state)
    if boss is not None and repealed(state, "royal-blood"):
        return None
    return boss


def the_map(state: State | Ctx) -> SettlementMap:
    """The map as a SettlementMap. A state's own map document is never changed in place, so its view
    (and the Rooms it has computed) is remembered by identity; a map being edited is read afresh."""
    doc, options = state.doc("map"), opts(state)
    if isinstance(state, Ctx) and "map" in state.tx.docs:
        return SettlementMap(doc, options)
    hit = _MAPS.get(doc)
    if hit is not Remembered.MISSING and hit[0] == options:
        return hit[1]
    return _MAPS.put(doc, (options, SettlementMap(doc, options)))[1]


_MAPS = Remembered(64)  # a state's map document -> (the options, its view)


def handbook(state: State | Ctx) -> dict[str, Any]:
    return state.doc("handbook")


def barrier_names(state: State | Ctx) -> tuple[str, ...]:
    """Rule 2.2's Barriers, by legend name: the handbook's ``barriers``, or the seed's Wall, Door and Rock."""
    listed = handbook(state).get("barriers")
    return SEED_BARRIERS if listed is None else tuple(peek(listed))


def barrier_problems(state: State | Ctx) -> list[tuple[str, str]]:
    """(field of the map, message) for each legend entry whose ``barrier`` flag contradicts rule 2.2's list."""
    return barrier_disagreements(the_map(state).legend, barrier_names(state))


def construction_problems(state: State | Ctx) -> list[tuple[str, str]]:
    """(field of the map, message) for each legend entry whose ``construction`` flag contradicts rule 2.5's list
    (the handbook's ``constructions``), and each Construction of that list the legend lacks."""
    return construction_disagreements(the_map(state).legend, tuple(peek(handbook(state)["constructions"])))


def is_outsider(p: Mapping[str, Any] | None) -> bool:
    return bool(p) and p.get("kind") == OUTSIDER  # type: ignore[union-attr]


def outsider_type(p: Mapping[str, Any]) -> str:
    """Seed 001, 2.11 Outsiders: an Outsider is named by its type and a number when it is created, so its type is
    that first name but the last word ("Wild Boar 2" is a Wild Boar). A change of name (1.2) changes the name, not
    what the Outsider is: a renamed one keeps its first name under ``formerly``, and that tells its type (Moose 1,
    renamed Bullwinkle, still grazes and still feeds the colony as a Moose)."""
    first = next(peek(p.get("formerly") or []), p)["name"]
    return str(first).rsplit(" ", 1)[0]


def beings(state: State | Ctx, *, outsiders: bool = True, inert: bool = False) -> list[dict[str, Any]]:
    """Everyone the dynastic rules treat as a Colonist: not the leader, not idle, not another kind of NPC.

    Outsiders are among them while seed 001 2.11 Outsiders stands: that rule is what treats them as Colonists.
    Repealed, those left on the roster are no Colonists for any rule (``inert_outsider``); ``inert=True`` gives
    them all the same, for the wiki, which still draws where they stand.

    Only to read: found with ``peek``, nothing is copied, so the dicts may be the previous state's own
    (change a stat with ``change_stat``/``set_stat``, by name, and read it again from ``ctx.player``).
    """
    boss = royal(state)  # seed 001 2.1 Royal Blood; repealed, the Leader is one of them
    players = peek(state.doc("roster")["players"])
    if outsiders and not inert and repealed(state, "outsiders") is not None:
        outsiders = False  # seed 001 2.11 Outsiders repealed: nothing treats an Outsider as a Colonist
    # one comprehension, no call per player: the consequences ask this after every action
    if outsiders:
        return [p for p in players if p["name"] != boss and not p.get("idle")
                and (not (kind := p.get("kind")) or kind == OUTSIDER)]
    return [p for p in players if p["name"] != boss and not p.get("idle") and not p.get("kind")]


def colonists(state: State | Ctx) -> list[dict[str, Any]]:
    """Colonists proper: no Outsiders (for the rules that exclude them, such as Victory)."""
    return beings(state, outsiders=False)


def inert_outsider(state: State | Ctx, p: Mapping[str, Any] | None) -> str | None:
    """Why ``p`` takes no part in the dynastic rules as an Outsider, or None: seed 001 2.11 Outsiders, which treats
    Outsiders as Colonists for the dynastic rules and lets the Expedition Leader act for them, has been repealed.
    An Outsider left on the roster then stays where it stands, inert: no rule treats it as a Colonist (it is not
    moved, made hungry, shoved, danced with or made a Traitor; an Occupied location does not kill it), and nobody
    may act for it (docs/modules/settlement.md, "When a rule is repealed")."""
    if not is_outsider(p):
        return None
    gone = repealed(state, "outsiders")
    if gone is None:
        return None
    name = p["name"] if p else ""
    return (f"{name} is an Outsider, and rule {gone.cite()}, which treated Outsiders as Colonists and let the "
            "Expedition Leader act for them, has been repealed")


def where(p: Mapping[str, Any]) -> Loc | None:
    """A Colonist's location; None when they have none (the leader) or it is not a location at all
    (the module's invariant reports that)."""
    text = p["stats"].get("location", "")
    if not text:
        return None
    try:
        return parse(text)
    except ValueError:
        return None


def at_location(state: State | Ctx, loc: Loc, exclude: Iterable[str] = ()) -> list[dict[str, Any]]:
    skip = set(exclude)
    return [p for p in beings(state) if p["name"] not in skip and where(p) == loc]


def stat(p: Mapping[str, Any], name: str) -> Any:
    return p["stats"].get(name)


# ---------------------------------------------------------------- energy


def round_half_up(x2: int, den: int) -> int:
    """round(x2/den) with .5 going up, in integers."""
    return (2 * x2 + den) // (2 * den)


def indoor_cost(base: int, rounding: str) -> int:
    """Seed 001, "Locations", Indoors: energy costs are 25% lower, to the nearest integer, .5 up.

    ``result``: 75% of the cost, rounded (10 -> 7.5 -> 8). ``reduction``: the 25%
    taken off is rounded (10 -> 2.5 -> 3 off -> 7).
    """
    if rounding == "reduction":
        return base - round_half_up(base, 4)
    return round_half_up(3 * base, 4)


def square_until(ctx: Ctx | State, name: str) -> str | None:
    return ctx.doc("colony").get("square_dancers", {}).get(name)


def energy_cost(ctx: Ctx, name: str, base: int) -> tuple[int, list[str]]:
    """What an energy cost comes to for this Colonist now, and why it differs from ``base``."""
    p = ctx.player(name)
    cost = base
    why = []
    loc = where(p) if p else None
    # seed 001 2.2.1 "Locations" (Indoors) takes a quarter off every cost; repealed, Indoors costs what Outside does
    if loc is not None and not repealed(ctx, "locations") and the_map(ctx).indoors(loc):
        cost = indoor_cost(cost, opts(ctx)["indoor_rounding"])
        why.append("indoors")
    until = square_until(ctx, name)
    # seed 001 2.10 "Lord of the Dance" (square dance) halves the dancers' costs for 72 hours; repealed, no longer
    if until and parse_time(until) > ctx.at and not repealed(ctx, "lord-of-the-dance"):
        cost = cost // 2  # "Numbers": a division that must be whole rounds towards zero
        why.append("square dance")
    return cost, why


def pay_energy(ctx: Ctx, name: str, base: int) -> int:
    """Spend energy (refused if the Colonist has too little); records the change."""
    cost, why = energy_cost(ctx, name, base)
    change_stat(ctx, name, "energy", -cost, cost=True)
    entry: dict[str, Any] = {"energy": -cost}
    if why:
        entry["base"] = base
        entry["because"] = why
    if name != ctx.actor:
        entry["who"] = name
    ctx.step(entry)
    return cost


def spend_all_energy(ctx: Ctx, name: str) -> int:
    p = ctx.player(name)
    amount = int(p["stats"]["energy"])
    change_stat(ctx, name, "energy", -amount)
    ctx.step({"energy": -amount})
    return amount


# ---------------------------------------------------------------- the stockpile


def stock(ctx: Ctx | State) -> dict[str, int]:
    return ctx.doc("stockpile")["items"]


# Seed 001: the goods its rules measure as a mass ("10 Rock", "2 Wood", "3 Food", "1 Copper Ore"), never counted
MASS_GOODS = frozenset(("Wood", "Rock", "Food", "Copper", "Iron", "Copper Ore", "Iron Ore"))


def goods(n: int, item: str) -> str:
    """An amount of a good of the Stockpile (seed 001 2.7) as a message says it, the noun agreeing with the number.
    The Stockpile names some goods in the plural (Seeds, Meals, Drinks, as the seed's tasks do), so one of them is
    '1 Meal', not '1 Meals'; a good the seed measures as a mass (``MASS_GOODS``: Wood, Rock, Food, Copper Ore ...)
    keeps its name; any other good is a thing one counts, named in the singular (2.4 Fire Catapult's "1 Anvil or 1
    Grand Piano", a Boulder a proposal adds), so two of them are '2 Anvils', none '0 Grand Pianos'."""
    if item in MASS_GOODS:
        return f"{n} {item}"
    if item.endswith("s") and not item.endswith("ss"):
        return counted(n, item[:-1], item)
    return counted(n, item)


def ruling(ctx: Ctx, rule_id: str) -> str | None:
    """The rule a refusal of what ``rule_id`` asks cites: that rule while it is in force; once it is repealed, None,
    which ``ctx.refuse`` (and a check's problem) reads as the action's own rule. A refusal names the rule in force
    that refuses it: with seed 001 2.2 The Settlement repealed, a Mine aimed off the map is refused by 2.4 Tasks,
    whose Rock must be adjacent, and with 2.7 Stockpile repealed a price the Stockpile lacks is still the task's
    or the Construction's own (2.4, 2.5), which G6 Numbers keeps from going below zero."""
    return None if repealed(ctx, rule_id) else rule_id


def take(ctx: Ctx, items: Mapping[str, int], rule: str | None = None) -> None:
    """Remove items from the Stockpile; an item it lacks makes the action illegal (no value goes below zero). The
    refusal cites ``rule``, else seed 001 2.7 Stockpile, else (2.7 repealed) the action's own rule (``ruling``)."""
    have = stock(ctx)
    short = [f"{goods(n, item)} (it holds {have.get(item, 0)})" for item, n in items.items() if have.get(item, 0) < n]
    if short:
        raise ctx.refuse("the Stockpile lacks " + ", ".join(short), rule=rule or ruling(ctx, "stockpile"))
    doc = ctx.edit("stockpile")["items"]
    for item, n in items.items():
        if n:
            doc[item] = doc.get(item, 0) - n
    if any(items.values()):
        ctx.step({"stockpile": {k: -v for k, v in items.items() if v}})


def give(ctx: Ctx, items: Mapping[str, int]) -> None:
    doc = ctx.edit("stockpile")["items"]
    for item, n in items.items():
        if n:
            doc[item] = doc.get(item, 0) + n
    if any(items.values()):
        ctx.step({"stockpile": {k: v for k, v in items.items() if v}})


# ---------------------------------------------------------------- the record of what Colonists did


def log_task(ctx: Ctx, name: str, task: str) -> None:
    """Remember a task for the job criteria ("three times in one week"); old entries are dropped."""
    colony = ctx.edit("colony")
    done = colony.setdefault("performed", {})
    horizon = ctx.at - timedelta(days=8)
    # read without copying; a list is replaced only when it shrinks. A list remembered as all within the
    # horizon is passed over in one pass, without a call per Colonist (this runs after most actions).
    lookup = _OLDEST.lookup
    doubtful = [(who, entries) for who, entries in peek_items(done)
                if (hit := lookup(id(entries))) is None or hit[0] is not entries or hit[1] is None
                or hit[1] < horizon]
    for who, entries in doubtful:
        oldest = _oldest(entries)
        if oldest is not None and oldest >= horizon:
            continue
        kept = [e for e in peek(entries) if parse_time(e["at"]) >= horizon]
        if not kept:
            del done[who]
        elif len(kept) < len(entries):
            done[who] = kept
    done.setdefault(name, []).append({"task": task, "at": format_time(ctx.at)})


def _oldest(entries: list[dict[str, Any]]) -> datetime | None:
    """The earliest time in a Colonist's list of tasks. A previous state's own list (a plain list:
    never changed in place) is remembered by identity, so each list is read once, not once a task."""
    own = type(entries) is list
    if own:
        hit = _OLDEST.get(entries)
        if hit is not Remembered.MISSING:
            return hit
    oldest = min((parse_time(e["at"]) for e in peek(entries)), default=None)
    return _OLDEST.put(entries, oldest) if own else oldest


_OLDEST = Remembered(4096)


def edit_map_rows(ctx: Ctx) -> list[str]:
    return ctx.edit("map")["rows"]


def terrain_char(ctx: Ctx, name: str) -> str:
    """The legend's character for the terrain ``name`` that the action writes. A rule in force that writes it has
    one (``limits.unwritable``, the module's whole-state check); a legend edited by hand without it refuses the action
    in words, never a KeyError."""
    ch = the_map(ctx).by_name.get(name)
    if ch is None:
        raise ctx.refuse(f"the map's legend has no {name} for this action to write (nomic check reports the legend)")
    return ch


def set_terrain(ctx: Ctx, loc: Loc, name: str) -> None:
    from .grid import edit_row

    ch = terrain_char(ctx, name)
    before = the_map(ctx).name(loc)
    edit_row(edit_map_rows(ctx), loc, ch)
    ctx.step({"map": designate(loc), "from": before, "to": name})


def location_param(ctx: Ctx, key: str) -> Loc:
    """A location parameter, which must be on the map."""
    # seed 001 2.2 The Settlement makes the map's Locations; repealed, the action's own rule refuses a place the
    # map lacks (a Mine's Rock must be adjacent, 2.4; a Wall's Dirt too, 2.5), so the refusal cites that (``ruling``)
    try:
        loc = parse(ctx.params[key])
    except ValueError as e:
        raise ctx.refuse(str(e), rule=ruling(ctx, "the-settlement")) from None
    if not the_map(ctx).inside(loc):
        raise ctx.refuse(f"{ctx.params[key]} is not on the map", rule=ruling(ctx, "the-settlement"))
    return loc


def step_problem(ctx: Ctx, frm: Loc, to: Loc, mover: Mapping[str, Any]) -> tuple[str | None, str] | None:
    """Why ``mover`` may not go from ``frm`` to ``to``, as (rule, why), or None.

    Seed 001, 2.3.1 Movement: only into an Empty location, and from a Channel only into another Channel;
    2.11 Outsiders: never an Outsider into a Door. Asked of every way a being changes place: a move, a
    conga follower's step, a shove (being moved is moving), the miner stepping into the Rock he mined.

    ``rule`` is the rule a refusal cites: the Channel's 2.3.1 Movement and the Door's 2.11 Outsiders
    (``place_problem``), whichever action is moving the being; None for a step off the map or into a location
    that is not Empty, which the caller's own rule says (2.3.1 for a move, 2.10 for a Conga's front, whose moves
    are moves as 2.3.1 defines them even once that rule is repealed).
    """
    m = the_map(ctx)
    if not m.inside(to):
        return None, f"{designate(frm)} -> off the map"
    if not m.empty(to):
        return None, f"{designate(to)} is {m.name(to)}, not an Empty location"
    return place_problem(ctx, frm, to, mover)


def place_problem(ctx: Ctx, frm: Loc, to: Loc, mover: Mapping[str, Any]) -> tuple[str, str] | None:
    """The Channel and Door limits of ``step_problem`` alone, as (rule, why), whatever ``to`` is now."""
    m = the_map(ctx)
    # seed 001 2.3.1 "Movement" keeps one in a Channel to Channels, and 2.11 "Outsiders" keeps Outsiders out of
    # Doors, whoever moves them; each limit ends with its rule's repeal
    if m.is_(frm, "Channel") and not m.is_(to, "Channel") and not repealed(ctx, "movement"):
        return "movement", f"{mover['name']} is in a Channel at {designate(frm)} and may only move along Channels"
    if is_outsider(mover) and m.is_(to, "Door") and not repealed(ctx, "outsiders"):
        return "outsiders", f"Outsiders may not move into Doors ({designate(to)})"
    return None


# ---------------------------------------------------------------- who may act


def actor_problems(ctx: Ctx, *, task: bool = False, outsiders: bool = False, located: bool = True) -> list[Problem]:
    """Why the actor may not take a dynastic action at all (Royal Blood, Outsiders, not on the map, Smoke), each
    citing the rule that refuses it: 2.1 Royal Blood, 2.11 Outsiders, 2.2.1 Locations for Smoke, and for one with no
    Location 2.2 The Settlement (which gives every Colonist one) while it stands, else the action's own rule, whose
    task or move needs the Location (``ruling``). A problem with no rule is read as the action's own.

    ``located=False``: the action asks for no Location of the actor (seed 001: Drink and Eat, resting, a change of
    Job, calling a dance, spreading or clearing Smoke, support in the Election), so a Colonist without one (with
    2.2 The Settlement repealed nobody places a newcomer) may take it; what the Location would decide (Eat's Table,
    a rest's Bed) is then simply not met."""
    p = ctx.player()
    if p is None:
        return [Problem(f"{ctx.actor} is not on the roster")]
    if ctx.actor == royal(ctx):  # seed 001 2.1 Royal Blood; repealed, the Leader acts as a Colonist
        return [Problem(f"the {ctx.keyword('leader', 'Expedition Leader')} is not a Colonist for the dynastic rules "
                        "(Royal Blood)", rule="royal-blood")]
    # seed 001 2.11 "Outsiders": no tasks, no building, no change of Job for an Outsider; repealed, no action at all
    # (nothing lets the Leader act for one, nor treats it as a Colonist): that refusal names the repeal
    inert = inert_outsider(ctx, p)
    if inert:
        return [Problem(f"{inert}: an Outsider takes no action", rule="outsiders")]
    if is_outsider(p) and not outsiders:
        return [Problem(f"{ctx.actor} is an Outsider; Outsiders may not do this", rule="outsiders")]
    if p.get("kind") and not is_outsider(p):
        return [Problem(f"{ctx.actor} is not a Colonist", rule=ruling(ctx, "the-settlement"))]
    loc = where(p)
    if loc is None:
        # seed 001 2.2 The Settlement gives each Colonist a Location; repealed, the action's rule asks for one
        return [Problem(f"{ctx.actor} has no Location on the map", rule=ruling(ctx, "the-settlement"))] if located \
            else []
    # seed 001 2.2.1 "Locations" (Smoke): nobody in Smoke performs a Task or builds; repealed, Smoke stops nobody
    if task and the_map(ctx).is_(loc, "Smoke") and not repealed(ctx, "locations"):
        return [Problem(f"{ctx.actor} is in Smoke at {designate(loc)}, and may not perform Tasks or build "
                        "Constructions", rule="locations")]
    return []


def _standing(ctx: Ctx, task: bool, outsiders: bool, located: bool = True) -> list[Problem]:
    return actor_problems(ctx, task=task, outsiders=outsiders, located=located)


def guarded(check: Any = None, *, task: bool = False, outsiders: bool = False, located: bool = True) -> Any:
    """A check with the actor's standing checked first (``located``: see ``actor_problems``)."""
    def run(ctx: Ctx) -> Iterable[Any]:
        problems = _standing(ctx, task, outsiders, located)
        if problems:
            return problems
        return list(check(ctx)) if check is not None else []
    return run


def guarded_ready(*tests: Any, task: bool = False, outsiders: bool = False, located: bool = True) -> Any:
    """``Action.ready`` of a guarded action that takes parameters: the actor's standing, as ``guarded`` checks it
    first with the same words (seed 001: 2.1 Royal Blood, 2.11 Outsiders, no Location on the map, 2.2.1 Smoke),
    then each of ``tests`` until one says why not. A test yields only what holds for every value of the
    parameters: the check or the effect refuses each value, in its own words or in these (``nomic act --list``
    says it beside the action)."""
    def ready(ctx: Ctx) -> Iterator[Any]:
        problems = _standing(ctx, task, outsiders, located)
        if problems:
            yield from problems
            return
        for test in tests:
            found = list(test(ctx))
            if found:
                yield from found
                return
    return ready


def energy_short(ctx: Ctx, base: int, what: str) -> str | None:
    """Why the actor cannot pay an Energy cost of ``base`` now (after the Indoor and square-dance discounts:
    ``pay_energy`` would refuse it), or None. Seed 001, 2.3 Energy: a cost is paid from Energy, which no action
    takes below its minimum."""
    d = stat_defs(ctx).get("energy")
    p = ctx.player()
    if d is None or p is None:
        return None
    lo, _ = bounds(d)
    have = int(p["stats"].get("energy", d["default"]))
    cost, why = energy_cost(ctx, ctx.actor, base)
    if lo is None or have - cost >= lo:
        return None
    return f"{ctx.actor} has {have} Energy; {what} costs {cost}" + (f" ({', '.join(why)})" if why else "")


def outsider_filer(ctx: Ctx, who: str) -> bool:
    """"Outsiders": the Expedition Leader may take any action an Outsider could legally take, for it.

    An Outsider created earlier in the same pull request is not on the base roster yet; its name
    ("Moose 3": a type of the handbook and a number) says what it is.
    """
    if who != leader_of(ctx):
        return False
    p = ctx.player()
    if p is not None:
        return is_outsider(p)
    kind, _, number = ctx.actor.rpartition(" ")
    return number.isdigit() and kind in handbook(ctx).get("outsiders", {})
