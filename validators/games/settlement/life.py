"""Arriving, resting, hunger and dying; what the map does by itself.

Seed 001 rules "The Settlement" (new Colonists at 13a), "Locations" (Channels
turn to Water, crops grow on Mondays), "Energy" (resting), "Death", "Hunger"
and "Jobs" (Traitors).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Collection, Iterator

from ...engine import LEADER, PLAYER, Action, Ctx, Event, Problem, Remembered, peek, repealed
from ...problems import counted
from ...roster import change_stat, new_stats, set_stat
from ...timeutil import format_time, next_weekly, parse_time, week_start
from . import census
from .common import (
    beings,
    give,
    guarded,
    guarded_ready,
    handbook,
    inert_outsider,
    is_outsider,
    opts,
    outsider_filer,
    outsider_type,
    set_terrain,
    the_map,
    where,
)
from .grid import LOCATIONS, Loc, designate, parse

# ---------------------------------------------------------------- where a newcomer starts


def start_location(ctx: Ctx) -> Loc | None:
    """13a if it is Empty, else the Empty location nearest to it (straight-line distance; ties: top, then left)."""
    m = the_map(ctx)
    start = parse(opts(ctx)["start"])
    if m.empty(start):
        return start
    best = None
    for loc in m.locations():
        if m.empty(loc):
            key = ((loc[0] - start[0]) ** 2 + (loc[1] - start[1]) ** 2, loc)
            if best is None or key < best:
                best = key
    return best[1] if best else None


def place_newcomers(ctx: Ctx, people: list[dict[str, Any]] | None = None) -> bool:
    """A Colonist without a location starts at 13a (or the nearest Empty location); whether anyone did.

    ``people``: ``beings(ctx)`` when the caller has just found it (Outsiders are skipped here)."""
    placed = False
    # those without a location, found first (setting one Colonist's location changes no one else's)
    for p in [p for p in (beings(ctx) if people is None else people)
              if not p["stats"].get("location") and not is_outsider(p)]:
        loc = start_location(ctx)
        if loc is None:
            continue
        set_stat(ctx, p["name"], "location", designate(loc))
        ctx.step({"arrives": p["name"], "at": designate(loc)})
        placed = True
    return placed


# ---------------------------------------------------------------- death


def die(ctx: Ctx, name: str, cause: str, together: Collection[str] = ()) -> None:
    """Seed 001 "Death": what happens to whoever dies or is killed.

    ``together``: everyone dying at this same moment (see ``die_together``); none of them gains Stress from
    this death."""
    p = ctx.player(name)
    if p is None:
        return
    m = the_map(ctx)
    loc = where(p)
    # seed 001 2.6 "Jobs" (Traitor): a Traitor gains no Stress from a death; repealed, Traitors are stressed too
    calm = "Traitor" if not repealed(ctx, "jobs") else None
    # seed 001 2.8 "Death" says what dying does (Deaths, Stress, Traitor, restart); repealed, a Colonist who "dies"
    # (a catapult's shot) has nothing follow, and an Outsider only ceases to exist (2.11)
    mortal = not repealed(ctx, "death")
    if not mortal and not is_outsider(p):
        ctx.step({"dies": name, "cause": cause, "nothing follows": "rule 2.8 Death has been repealed"})
        return
    # seed 001 2.11 "Outsiders" treats an Outsider as a Colonist, so 2.8 Death's Stress follows its death, and it
    # feeds the colony as a Moose; repealed, an Outsider left on the roster (hunted: 2.4 names Outsiders itself) is
    # no Colonist: it is killed and gone, and nothing else follows
    inert = inert_outsider(ctx, p) is not None
    mortal = mortal and not inert
    ctx.step({"dies": name, "cause": cause})
    # the others' Stress: same Room if Indoors, everyone Outside if Outside; Traitors gain none
    if loc is not None and mortal:
        rooms = m.rooms_of(loc)
        shared: set[Loc] = set().union(*rooms) if rooms else set()
        for other in beings(ctx):
            if other["name"] == name or other["name"] in together or other["stats"].get("job") == calm:
                continue
            oloc = where(other)
            if oloc is None:
                continue
            if (rooms and oloc in shared) or (not rooms and m.outside(oloc)):
                change_stat(ctx, other["name"], "stress", handbook(ctx)["death"]["stress"])
                ctx.step({"stress": handbook(ctx)["death"]["stress"], "who": other["name"]})
    if is_outsider(p):
        # "Outsiders": an Outsider who dies ceases to exist. Seed 001, Outsiders: its type is in the name it was
        # created with (outsider_type), kept under ``formerly`` by a change of name
        kind = p["stats"].get("type") or outsider_type(p)
        roster = ctx.edit("roster")
        roster["players"] = [x for x in roster["players"] if x["name"] != name]
        if p.get("formerly"):
            # its names stay given (outsiders.dead_outsiders); the numbering remembers only those it gave
            dead = ctx.edit("colony").setdefault("dead_outsiders", [])
            known = list(peek(dead))
            dead.extend(n for n in [*(f["name"] for f in peek(p["formerly"])), name] if n not in known)
        food = handbook(ctx)["outsiders"].get(kind, {}).get("death_food", 0)
        # seed 001 2.11 "Outsiders": a dead Moose feeds the colony; repealed, it leaves no Food
        if food and not inert:
            give(ctx, {"Food": food})
        return
    stress = int(p["stats"].get("stress", 0))
    deaths = int(p["stats"].get("deaths", 0))
    fresh = new_stats(ctx.doc("roster")["stats"])
    me = ctx.edit_player(name)
    job = "Traitor" if stress >= handbook(ctx)["death"]["traitor_stress"] else "Peasant"
    for key, value in fresh.items():
        me["stats"][key] = value
    me["stats"]["deaths"] = deaths + 1
    me["stats"]["energy"] = 0
    me["stats"]["job"] = job
    me["stats"]["location"] = ""
    start = start_location(ctx)
    if start is not None:
        me["stats"]["location"] = designate(start)
    # The record of rests is kept: seed 001, Death, resets the Colonist's GNDT values as for a new Colonist, but
    # e is still the same Colonist, not a new one, and the glossary's Weekly Action allows each Colonist one
    # taking a week and none within 24 hours; when e last rested is no GNDT value, so a death gives no extra rest.
    ctx.step({"deaths": deaths + 1, "job": job, "restarts at": me["stats"]["location"]})


def die_together(ctx: Ctx, victims: list[tuple[str, str]]) -> None:
    """Seed 001 "Death", for several who die at one moment (``victims``: (name, cause) pairs).

    The rules give such deaths no order, so they are judged together, not one after another in the roster's
    order (which made one of two identical Colonists a Traitor and the other not): each one's Traitor test
    reads the Stress e had when dying, and the Stress of each death goes to the others in the Room (or
    Outside) who do not die with em (a co-dying Colonist's values are reset as a newcomer's anyway, and once
    restarted e is not stressed by the others' deaths at that same moment)."""
    together = frozenset(name for name, _ in victims)
    for name, cause in victims:
        die(ctx, name, cause, together)


# ---------------------------------------------------------------- automatic consequences


def flood_channels(ctx: Ctx) -> bool:
    """"Channel": a Channel adjacent to Water turns into Water (and so on down the channel).

    It runs after every action and scans the whole map (40,000 squares on a 200 by 200 one), so a
    map already found dry is remembered: while an action edits neither the map nor the game's
    options, the very same objects are found dry again without a scan.
    """
    doc, config = ctx.doc("map"), ctx.config
    if "map" not in ctx.tx.docs and _DRY.get(doc) == config:
        return False
    flooded = False
    while True:
        m = the_map(ctx)
        if "Channel" not in m.by_name or "Water" not in m.by_name:
            break
        wet = [loc for loc in m.all_named("Channel") if m.adjacent_named(loc, "Water")]
        if not wet:
            break
        for loc in wet:
            set_terrain(ctx, loc, "Water")
        flooded = True
    if "map" not in ctx.tx.docs:  # a state's own map (states are never changed in place): remembered dry
        _DRY.put(doc, config)
    return flooded


_DRY = Remembered(64)  # a map document found dry -> the config it was found dry with


def _victims(ctx: Ctx, who: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """(name, cause) of everyone who dies now: in an Occupied location ("Death") or at the Hunger limit ("Hunger").

    One who is both dies once, with both causes: a Colonist dies or does not at a given moment, and the first
    death resets eir Hunger anyway (as a newcomer's)."""
    m = the_map(ctx)
    rows, occupied, locs = m.rows, m.occupied_chars(), LOCATIONS
    limit = handbook(ctx)["hunger"]["dies_at"]
    # seed 001 1.1: a rule a proposal repealed kills nobody (engine.repealed): 2.8 Death's Occupied locations,
    # 2.9 Hunger's limit
    mortal = True
    if repealed(ctx, "death"):
        occupied = frozenset()
        mortal = False  # and nothing follows a Colonist's death (``die``): only a starving Outsider dies of Hunger
    if repealed(ctx, "hunger"):
        limit = float("inf")
    out = []
    for p in who:  # one pass, no call per Colonist but for the dying (it runs when the census saw a death coming)
        stats = p["stats"]
        try:
            loc = locs[stats.get("location", "")]
            drowned = (loc is not None and loc[0] < len(rows) and loc[1] < len(rows[loc[0]])
                       and rows[loc[0]][loc[1]] in occupied)
        except TypeError:  # a location that is not even text (the roster's invariant reports it)
            loc = where(p)
            drowned = loc is not None and bool(occupied) and m.occupied(loc)
        starving = int(stats.get("hunger", 0)) >= limit and (mortal or p.get("kind") == "outsider")
        if drowned or starving:
            causes = ([f"in {m.name(loc)} at {designate(loc)}"] if drowned else []) + (["hunger"] if starving else [])
            out.append((p["name"], " and ".join(causes)))
    return out


def kill_the_dying(ctx: Ctx, people: list[dict[str, Any]] | None = None) -> bool:
    """Seed 001, 2.8 Death ("a Colonist ever in an Occupied location is killed") and 2.9 Hunger ("when a
    Colonist's Hunger reaches 7 or more, he dies"), together. Whether anyone died.

    Everyone who stands in an Occupied location (a Channel just flooded, say) or has reached the Hunger limit
    at this moment dies at this one moment, whatever the cause: one ``die_together``, so the rules' reading
    of simultaneous deaths (nobody dying then is stressed by another's death, each Traitor test reads eir own
    Stress) holds between a drowned and a starved Colonist as between two drowned ones. (They were two
    batches, the drowned first: a starving Colonist Outside took the drowned one's 10 Stress before eir own
    Traitor test, and the drowned one, restarted Outside, took the starved one's.)

    ``people``: ``beings(ctx)`` when the caller has just found it (found again after each death)."""
    for i in range(100):
        victims = _victims(ctx, beings(ctx) if people is None or i else people)
        if not victims:
            return i > 0
        die_together(ctx, victims)
    return True


def consequences(ctx: Ctx) -> census.Counts | None:
    """After every action and event: newcomers arrive, Channels flood, the Occupied and the starving die.

    Nearly always nobody is to arrive or die: ``census.look`` sees that without reading every Colonist
    again, and the rules below run as written only when it finds someone (or cannot tell). Gives back
    that look when nobody arrived or died (nor was the map flooded), for Victory to read."""
    if "map" not in ctx.state.docs:
        return None
    if not census.FAST:
        consequences_as_written(ctx)
        return None
    seen = census.look(ctx)
    if seen[census.UNSURE] or seen[census.NEWCOMER]:
        consequences_as_written(ctx)
        return None
    # seed 001 2.2.1 "Locations" (Channel): repealed, a Channel beside Water stays a Channel. The map only; with
    # no newcomer, the rules as written do nothing before it
    if not repealed(ctx, "locations") and flood_channels(ctx):
        seen = census.look(ctx)  # against the map as flooded
    if seen[census.UNSURE] or seen[census.OCCUPIED] or seen[census.STARVING]:
        _deaths(ctx, beings(ctx))
        return None
    return seen


def consequences_as_written(ctx: Ctx) -> None:
    if "map" not in ctx.state.docs:
        return
    # everyone, found once (only to read); each step that changes someone finds them again
    people = beings(ctx)
    # seed 001 2.2 "The Settlement" starts a new Colonist at 13a; repealed, a newcomer is placed nowhere
    if not repealed(ctx, "the-settlement") and place_newcomers(ctx, people):
        people = beings(ctx)
    if not repealed(ctx, "locations"):  # seed 001 2.2.1 "Locations": Channels beside Water flood
        flood_channels(ctx)  # the map only
    _deaths(ctx, people)


def _deaths(ctx: Ctx, people: list[dict[str, Any]]) -> None:
    """"Death" (whoever is in an Occupied location) and "Hunger" (whoever is at the limit), at one moment."""
    kill_the_dying(ctx, people)


# ---------------------------------------------------------------- crops grow (scheduled)


def _grow(source: str, target: str):
    def apply(ctx: Ctx) -> None:
        m = the_map(ctx)
        for loc in m.all_named(source):
            set_terrain(ctx, loc, target)
    return apply


EVENTS = [
    # Small Crops ripen first (00:00:00), then Seedlings grow (00:00:01): a seed takes two Mondays
    Event("settlement.crops-ripen", "locations", lambda t: next_weekly(t, 0, 0, 0, 0),
          _grow("Small Crop", "Mature Crop"), when="Monday 00:00:00 UTC",
          summary="every Small Crop becomes a Mature Crop"),
    Event("settlement.seedlings-grow", "locations", lambda t: next_weekly(t, 0, 0, 0, 1),
          _grow("Seedling", "Small Crop"), when="Monday 00:00:01 UTC",
          summary="every Seedling becomes a Small Crop"),
]


# ---------------------------------------------------------------- resting


def _rest_check(ctx: Ctx) -> Iterator[str | Problem]:
    me = ctx.player()
    times = [parse_time(t) for t in ctx.doc("colony").get("rests", {}).get(ctx.actor, [])]
    week = [t for t in times if t >= week_start(ctx.at)]
    job = me["stats"].get("job", "Peasant")
    # seed 001 2.6 "Jobs" (Traitor) lets a Traitor rest twice a week; repealed, everyone rests once
    allowed = (1 if repealed(ctx, "jobs") else
               int(handbook(ctx)["jobs"].get(job, {}).get("rests_per_week", 1)))
    # A refusal names the rule whose limit it enforces: a Job's extra rests, and the Traitor's "never within 24
    # hours after resting" that comes with them, are seed 001 2.6 Jobs' (Traitor); the one rest a week, and the
    # glossary's 24 hours between takings of a Weekly Action, are 2.3 Energy's (the action's own rule)
    limit = "jobs" if allowed > 1 else None
    if len(week) >= allowed:
        yield Problem(f"{ctx.actor} has rested {counted(len(week), 'time')} this week; "
                      + (f"a {job} may rest {counted(allowed, 'time')} a week" if limit else
                         "resting is a weekly action"), rule=limit)
    if times and ctx.at - max(times) < timedelta(hours=24):
        yield Problem(f"{ctx.actor} rested at {format_time(max(times))}; not again within 24 hours"
                      + (f" (a {job}'s rests are never within 24 hours of each other)" if limit else ""), rule=limit)
    if ctx.params.get("bed"):
        # seed 001 2.2.1 "Locations" (Bed) gives the Bed its bonus; repealed, there is no bonus to rest with
        if repealed(ctx, "locations"):
            yield "rule 2.2.1 Locations, which gives a Bed its bonus, has been repealed; rest without bed=true"
        else:
            yield from _bed_problems(ctx)


def _bed_problems(ctx: Ctx) -> Iterator[Problem]:
    """Why a rest may not take the Bed's bonus. Seed 001, 2.2.1 Locations (Bed): the bonus is that rule's, for a
    Colonist in a Bed in a Room holding no Noisy Contraption and no Smoke, so a refusal cites 2.2.1, not 2.3 Energy
    (whose plain rest stays open: rest without bed=true)."""
    m = the_map(ctx)
    loc = where(ctx.player())
    if loc is None or not m.is_(loc, "Bed"):
        yield Problem(f"{ctx.actor} is not in a Bed", rule="locations")
        return
    # seed 001 "Locations", Bed: the bonus is for a Bed in a Room (a quiet one); a Bed Outside is in none
    rooms = m.rooms_of(loc)
    if not rooms:
        yield Problem(f"the Bed at {designate(loc)} is Outside, not in a Room; only a Bed in a quiet Room adds the "
                      "bonus", rule="locations")
        return
    for room in rooms:
        for cell in room:
            t = m.terrain(cell)
            if t.noisy or t.name == "Smoke":
                yield Problem(f"the Room has {t.name} at {designate(cell)}; nobody sleeps well beside it",
                              rule="locations")
                return


def _rest(ctx: Ctx) -> None:
    rest = handbook(ctx)["rest"]
    stress = int(ctx.player()["stats"]["stress"])
    value = max(rest["base"] - stress, rest["floor"])
    if ctx.params.get("bed"):
        value += rest["bed"]
    before = ctx.player()["stats"]["energy"]
    set_stat(ctx, ctx.actor, "energy", value)
    ctx.step({"energy": value - before, "rests to": value})
    colony = ctx.edit("colony")
    rests = colony.setdefault("rests", {})
    horizon = ctx.at - timedelta(days=8)
    rests[ctx.actor] = [t for t in rests.get(ctx.actor, []) if parse_time(t) >= horizon] + [format_time(ctx.at)]


REST = Action(
    name="settlement.rest",
    rule="energy",
    summary="Rest: set your Energy to 100 minus your Stress, or 35 if that is more (+50 in a quiet Bed)",
    params={"type": "object", "additionalProperties": False,
            "properties": {"bed": {"type": "boolean", "description": "rest in the Bed you are in (+50)"}}},
    who=PLAYER,
    check=guarded(_rest_check, outsiders=True, located=False),  # 2.3: a rest asks for no Location
    effect=_rest,
    may_file=outsider_filer,
    doc="A weekly action (twice a week for a Traitor, never within 24 hours of the last rest). "
        "`bed=true` adds 50 when you are in a Bed whose Room holds no Smoke and no noisy contraption.",
)


# ---------------------------------------------------------------- hunger


def _hunger(ctx: Ctx) -> None:
    step = handbook(ctx)["hunger"]["weekly"]
    for p in beings(ctx):
        change_stat(ctx, p["name"], "hunger", step)
    ctx.step({"hunger": step, "who": "every Colonist"})


HUNGER = Action(
    name="settlement.hunger",
    rule="hunger",
    summary="The Expedition Leader makes every Colonist (and Outsider) 2 Hunger hungrier",
    who=LEADER,
    frequency="weekly",
    effect=_hunger,
    doc="A weekly action of the Expedition Leader. Whoever reaches 7 Hunger dies at once.",
)


# ---------------------------------------------------------------- jobs


def job_counts(ctx: Ctx, name: str) -> dict[str, int]:
    """How often each task was performed within the job window."""
    done = ctx.doc("colony").get("performed", {}).get(name, [])
    if opts(ctx)["job_window"] == "week":
        since = week_start(ctx.at)
    else:
        since = ctx.at - timedelta(days=7)
    counts: dict[str, int] = {}
    for e in done:
        at = parse_time(e["at"])
        # Seed 001, 2.6 Jobs: criteria met "within the last week". The last seven days are a window open at its
        # far end, as every other span of the module is (the Catapult's 48 hours, a dance's 48 hours, a
        # configuration's seven days, the weekly action's 24 hours): a task exactly seven days ago has left it.
        # A calendar week (job_window: week) starts at and includes Monday 00:00:00. Cases in jobs.yaml.
        if at > since or (at == since and opts(ctx)["job_window"] == "week"):
            counts[e["task"]] = counts.get(e["task"], 0) + 1
    return counts


def qualifies(ctx: Ctx, name: str, job: str) -> bool:
    spec = handbook(ctx)["jobs"].get(job)
    if spec is None:
        return False
    if "dances" in spec:
        return ctx.doc("colony").get("dances_joined", {}).get(name, 0) >= spec["dances"]
    if "tasks" in spec:
        counts = job_counts(ctx, name)
        return sum(counts.get(t, 0) for t in spec["tasks"]) >= spec.get("times", 3)
    return bool(spec.get("anyone"))


def _job_check(ctx: Ctx) -> Iterator[str]:
    yield from _job_problems(ctx, ctx.params["job"])


def _job_ready(ctx: Ctx) -> Iterator[str]:
    """Seed 001, 2.6 Jobs: no Job the handbook lists is one the actor may take now (a Traitor may take none; a
    Peasant only one whose criteria e has met), so ``_job_check`` refuses every Job, listed or not."""
    current = ctx.player()["stats"].get("job", "Peasant")
    if current == "Traitor":
        yield "a Traitor may not change their Job"
    elif not any(next(_job_problems(ctx, new), None) is None for new in handbook(ctx)["jobs"]):
        yield (f"{ctx.actor} is a Peasant and has met the criteria of no other Job" if current == "Peasant" else
               f"{ctx.actor} is a {current} and no Job of the handbook may be taken from it")


def _job_problems(ctx: Ctx, new: str) -> Iterator[str]:
    me = ctx.player()
    current = me["stats"].get("job", "Peasant")
    jobs = handbook(ctx)["jobs"]
    if new not in jobs:
        yield f"there is no job {new!r} (jobs: {', '.join(jobs)})"
        return
    if current == "Traitor":
        yield "a Traitor may not change their Job"
        return
    if new == current:
        yield f"{ctx.actor} is already a {new}"
        return
    if new == "Traitor":
        yield "only the Expedition Leader makes Traitors"
        return
    if current != "Peasant" and new != "Peasant":
        yield f"a {current} may only become a Peasant"
        return
    if new != "Peasant" and not qualifies(ctx, ctx.actor, new):
        spec = jobs[new]
        need = (f"{counted(spec['dances'], 'successful dance')}" if "dances" in spec else
                f"{counted(spec.get('times', 3), 'time')} {' or '.join(spec['tasks'])} in one week")
        yield f"{ctx.actor} has not met the {new} criteria ({need})"


def _job(ctx: Ctx) -> None:
    set_stat(ctx, ctx.actor, "job", ctx.params["job"])
    ctx.step({"job": ctx.params["job"]})


JOB = Action(
    name="settlement.job",
    rule="jobs",
    summary="Change your Job: a Peasant to any Job whose criteria they met; anyone else back to Peasant",
    params={"type": "object", "required": ["job"], "additionalProperties": False,
            "properties": {"job": {"type": "string", "maxLength": 40,
                                   "description": "the Job to take, as the handbook names it (Peasant: give "
                                                  "yours up)"}}},
    who=PLAYER,
    check=guarded(_job_check, located=False),  # 2.6: a change of Job asks for no Location
    ready=guarded_ready(_job_ready, located=False),
    effect=_job,
)


def _traitor_check(ctx: Ctx) -> Iterator[str | Problem]:
    target = ctx.player(ctx.params["colonist"])
    # seed 001 2.11 "Outsiders" treats an Outsider as a Colonist but bars its change of Job; repealed, nothing makes
    # an Outsider one of the "any Colonist" the Leader may make a Traitor
    inert = inert_outsider(ctx, target)
    if inert:
        yield Problem(f"{inert}: it is no Colonist the Expedition Leader may make a Traitor", rule="outsiders")
        return
    if is_outsider(target):
        # Seed 001, 2.11 Outsiders: treated as Colonists, but they may not change their Job unless a rule lets them
        # as Outsiders, and 2.6 Jobs (Traitor) does not; so the Leader's "any Colonist" does not reach them. The
        # bar is 2.11's, so the refusal cites it (as the whole-state check does)
        yield Problem(f"{ctx.params['colonist']} is an Outsider; Outsiders may not change their Job, so the "
                      "Expedition Leader may not make one a Traitor", rule="outsiders")
        return
    if target is None or target not in beings(ctx, outsiders=False):
        yield f"{ctx.params['colonist']} is not a Colonist"
        return
    yield from _traitors_ready(ctx)
    if target["stats"].get("job") == "Traitor":
        yield f"{target['name']} is already a Traitor"


def _traitors_ready(ctx: Ctx) -> Iterator[str]:
    """Seed 001, 2.6 Jobs (Traitor): the Leader makes one only while there are fewer than two, whoever is named."""
    traitors = [p for p in beings(ctx, outsiders=False) if p["stats"].get("job") == "Traitor"]
    if len(traitors) >= 2:
        yield f"there are already {len(traitors)} Traitors; the Leader may only make one while there are fewer than 2"


def _traitor(ctx: Ctx) -> None:
    set_stat(ctx, ctx.params["colonist"], "job", "Traitor")
    ctx.step({"job": "Traitor", "who": ctx.params["colonist"]})


TRAITOR = Action(
    name="settlement.make-traitor",
    rule="jobs",
    summary="The Expedition Leader makes a Colonist a Traitor (while there are fewer than two)",
    params={"type": "object", "required": ["colonist"], "additionalProperties": False,
            "properties": {"colonist": {"$ref": "common.schema.json#/$defs/name",
                                        "description": "the Colonist to make a Traitor"}}},
    who=LEADER,
    check=_traitor_check,
    ready=_traitors_ready,
    effect=_traitor,
)


ACTIONS = [REST, HUNGER, JOB, TRAITOR]
