"""The Settlement dynasty (seed 001, BlogNomic Ruleset 75): its dynastic rules as a game module.

A game uses it beside the core rules: ``modules: [blognomic, settlement]``.
Documents: ``map`` (rows and legend), ``stockpile``, ``handbook`` (the costs
and yields a proposal may change) and ``colony`` (what the rules remember:
tasks done for jobs, rests, dances, outsiders created, victory). Colonists'
Location, Energy, Stress, Hunger, Deaths and Job are roster stats.
See docs/modules/settlement.md.
"""

from __future__ import annotations

from typing import Any, Iterator

from ...engine import DocKind, Module, Problem, State, repealed
from ...problems import Illegal
from . import build, dances, fresh, jobs, life, movement, outsiders, tasks, victory
from .common import barrier_problems, construction_problems, is_outsider, option_problems, outsider_type, the_map
from .grid import parse
from .limits import handbook_limits, unwritable
from .pages import apart, pages
from .rename import rename as rename_records

RULE = "the-settlement"


def consequences(ctx):  # type: ignore[no-untyped-def]
    if "map" not in ctx.state.docs:
        return
    _legend_as_ruled(ctx)
    # seed 001 "Jobs" (2.6) lists the Jobs; repealed, nothing keeps a Job to its list
    if not repealed(ctx, "jobs"):
        jobs.keep_jobs_listed(ctx)
    seen = life.consequences(ctx)  # everyone's facts, when nobody arrived or died
    # seed 001 "Victory" (2.12): repealed, nobody achieves victory by it (nor is its date judged)
    if not repealed(ctx, victory.RULE):
        victory.check_victory(ctx, seen)


# each legend flag a rule's list decides: (the handbook's key for the list, the problems, the rule's number, id)
_RULED_FLAGS = (("barriers", barrier_problems, "2.2", RULE),
                ("constructions", construction_problems, "2.5", "constructions"))


def _legend_as_ruled(ctx) -> None:  # type: ignore[no-untyped-def]
    """Seed 001, rule 2.2 The Settlement names the Barriers (Walls, Doors and Rock), and rule 2.5 Constructions
    lists the Constructions; the legend does neither. An action (an enacted proposal's patch, say) that would
    leave the legend's ``barrier`` or ``construction`` flags against the rule's list (the handbook's
    ``barriers``, ``constructions``) is refused, as a patch that breaks a schema is: a proposal that changes
    which terrains are Barriers or Constructions changes that list with them. Asked only when the action touched
    the legend or the list, and only of what it broke (a disagreement already there is the invariant's to
    report). A list whose rule is repealed is not held to (asked of the ruleset as the action left it)."""
    tx = ctx.tx

    def touched(kind: str, key: str) -> bool:
        return kind in tx.docs and dict.get(tx.docs[kind], key) is not dict.get(tx.base.docs[kind], key)

    legend = touched("map", "legend")
    new = []
    for key, problems, number, rule in _RULED_FLAGS:
        if not (legend or touched("handbook", key)) or repealed(ctx, rule):
            continue
        after = problems(ctx)
        if after:
            before = set(problems(tx.base))
            # said of the action (its file is where the refusal belongs); the map's field is named in the message
            new += [Problem(f"this would leave the map's {field} against rule {number}: {why}", rule=rule)
                    for field, why in after if (field, why) not in before]
    # Seed 001: a terrain a rule in force writes has a character in the legend (``limits.unwritable``); asked when
    # the action touched the legend or the ruleset (a rule enacted again asks for its terrains), of what it broke
    if legend or tx.rules is not None:
        lacking = unwritable(ctx)
        if lacking:
            before = {name for name, *_ in unwritable(tx.base)}
            new += [Problem(f"this would leave the map's legend without {name}, which rule {title} writes ({how}): "
                            "a terrain a rule in force writes has a character in the legend", rule=rule)
                    for name, rule, title, how in lacking if name not in before]
    if new:
        raise Illegal(new)


def invariants(state: State) -> Iterator[Problem]:
    for key, message in option_problems(state.config):
        yield Problem(message, file="game", field=f"options.settlement.{key}")
    doc = state.doc("map")
    rows = doc["rows"]
    if len({len(r) for r in rows}) > 1:
        yield Problem("every row of the map must have the same length", file="map", field="rows")
    legend = doc["legend"]
    for i, row in enumerate(rows):
        unknown = sorted(set(row) - set(legend))
        if unknown:
            yield Problem(f"row {i} holds {', '.join(map(repr, unknown))}, which the legend does not explain",
                          file="map", field=f"rows[{i}]")
    names = [e["name"] for e in legend.values()]
    if len(set(names)) != len(names):
        yield Problem("two legend characters have the same name", file="map", field="legend")
    for name, rule, title, how in unwritable(state):  # seed 001: what a rule in force writes, the legend names
        yield Problem(f"the legend has no {name}, which rule {title} writes ({how})", file="map", field="legend",
                      rule=rule)
    for _, problems, _, rule in _RULED_FLAGS:  # rules 2.2 and 2.5: the Barriers and Constructions are the rules'
        if repealed(state, rule):  # a repealed rule's list binds the legend no more
            continue
        for field, why in problems(state):
            yield Problem(why, file="map", field=field, rule=rule)
    # seed 001 G6 "Numbers": a number the game keeps is never negative (the Stockpile's amounts among them)
    numbers = not repealed(state, "numbers")
    for item, n in state.doc("stockpile")["items"].items():
        if n < 0 and numbers:
            yield Problem(f"{item} is {n}; the Stockpile holds no negative amounts", file="stockpile",
                          field=f"items.{item}")
    yield from _hunger_limit_problems(state)
    listing = not repealed(state, "jobs")  # seed 001 2.6 "Jobs": repealed, it lists no Jobs to keep to
    for i, p, job in (jobs.unlisted(state) if listing else ()):
        # Seed 001, 2.6 Jobs: a Job is one the rule lists (the handbook's jobs); a proposal striking one makes its
        # holders Peasants at once (jobs.keep_jobs_listed), so only a hand edit leaves one here
        yield Problem(f"{p['name']}'s Job is {job}, which rule 2.6 Jobs does not list (the handbook's jobs: "
                      f"{', '.join(state.doc('handbook')['jobs'])})", file="roster", field=f"players[{i}].stats.job",
                      rule="jobs")
    listed = list(state.doc("handbook")["jobs"])
    choices = (state.doc("roster").get("stats") or {}).get("job", {}).get("choices")
    if listing and choices is not None and set(choices) != set(listed):
        # Seed 001, 2.6 Jobs: one list of Jobs, kept twice (the roster's column and the handbook, which the
        # tasks read): a Job in one only could be neither taken nor used, so the two must agree
        yield Problem(f"the roster's Jobs ({', '.join(choices)}) and the handbook's ({', '.join(listed)}) differ: "
                      "a Job is added to or struck from both", file="roster", field="stats.job.choices", rule="jobs")
    m = the_map(state)
    # seed 001 2.11 "Outsiders" forbids an Outsider a change of Job; repealed, an Outsider may be a Traitor
    barred = not repealed(state, "outsiders")
    # seed 001 2.11 "Outsiders" places an Outsider when it is created, and 2.2 "The Settlement" gives a Colonist a
    # Location; with either repealed, an Outsider may stand nowhere
    placed = barred and not repealed(state, RULE)
    for i, p in enumerate(state.doc("roster")["players"]):
        if barred and p["stats"].get("job") == "Traitor" and is_outsider(p):
            # Seed 001, 2.11 Outsiders: an Outsider may not change its Job unless a rule lets it as an Outsider,
            # and 2.6 Jobs (Traitor) does not, so no Outsider is a Traitor (make-traitor refuses one; a proposal's
            # patch of the roster could still write it)
            yield Problem(f"{p['name']} is an Outsider and may not be a Traitor (Outsiders may not change their Job)",
                          file="roster", field=f"players[{i}].stats.job", rule="outsiders")
        elif barred and is_outsider(p):
            # Seed 001, 2.11 Outsiders, likewise for every other Job: an Outsider keeps the Job it was created with
            # (its type's starting Job in the handbook, else the roster's default, Peasant), or the default a Job
            # struck from 2.6's list lapses to; a patch making a Moose a Dancer would give it the Dancer's step
            job, start = p["stats"].get("job"), _outsider_jobs(state, p)
            if job is not None and job not in start:
                yield Problem(f"{p['name']} is an Outsider and may not be a {job} (Outsiders may not change their "
                              f"Job; it was created a {start[0]})", file="roster", field=f"players[{i}].stats.job",
                              rule="outsiders")
        loc_text = p["stats"].get("location", "")
        if not loc_text:
            if placed and is_outsider(p):
                # Seed 001, 2.11 Outsiders: an Outsider is placed when it is created and, treated as a Colonist,
                # has a Location (2.2); no rule places one later (it does not start at 13a), so one with none
                # would stay nowhere for ever. Only a patch (a proposal's or CfJ's) or a hand edit leaves one
                yield Problem(f"{p['name']} is an Outsider with no Location: rule 2.11 Outsiders places an Outsider "
                              "on the map when it is created, and no rule would place it later; give it a "
                              "Location", file="roster", field=f"players[{i}].stats.location", rule="outsiders")
            continue
        try:
            loc = parse(loc_text)
        except ValueError as e:
            yield Problem(str(e), file="roster", field=f"players[{i}].stats.location")
            continue
        if loc is None or not m.inside(loc):
            yield Problem(f"{loc_text} is not on the map", file="roster", field=f"players[{i}].stats.location")


def _outsider_jobs(state: State, p: Any) -> list[str]:
    """The Jobs an Outsider may hold (seed 001, 2.11: it may not change its Job): the one it was created with, its
    type's starting Job in the handbook (``outsiders.<type>.stats.job``) or else the roster's default, and that
    default, which a Job struck from 2.6's list lapses to (``jobs.keep_jobs_listed``)."""
    default = ((state.doc("roster").get("stats") or {}).get("job") or {}).get("default", "Peasant")
    kind = p["stats"].get("type") or outsider_type(p)
    spec = state.doc("handbook")["outsiders"].get(kind)
    first = ((spec or {}).get("stats") or {}).get("job", default) if isinstance(spec, dict) else default
    return [first, default]


def _hunger_limit_problems(state: State) -> Iterator[Problem]:
    """Seed 001, 2.9 Hunger kills a Colonist whose Hunger reaches the limit (the handbook's ``hunger.dies_at``), and
    2.8 Death gives whoever dies a new Colonist's values (the roster's defaults, 0 Hunger in the seed). A limit at
    or below a new Colonist's Hunger would kill every Colonist who dies again at once, without end: no state the
    rules can stand in. Nothing but a patch (a proposal's or CfJ's, lowering the limit or raising the default) or a
    hand edit leaves one, and the enactment of such a patch is refused here, as the check reports a hand edit.
    With either rule repealed the loop cannot happen (nobody dies at the limit, or nothing follows a death)."""
    if repealed(state, "hunger") or repealed(state, "death"):
        return
    limit = state.doc("handbook")["hunger"]["dies_at"]
    start = ((state.doc("roster").get("stats") or {}).get("hunger") or {}).get("default", 0)
    if type(start) is int and start >= limit:
        yield Problem(f"rule 2.9 Hunger kills at {limit} Hunger, and a new Colonist starts with {start} (the "
                      "roster's hunger default), which rule 2.8 Death gives whoever dies: every death would be "
                      "followed by another at once, for ever; the limit must be above a new Colonist's Hunger",
                      file="handbook", field="hunger.dies_at", rule="hunger")


MODULE = Module(
    name="settlement",
    title="The Settlement (dynastic rules of BlogNomic Ruleset 75)",
    words={"player": "Colonist", "players": "Colonists", "leader": "Expedition Leader"},
    docs=[
        DocKind("map", "settlement_map.schema.json", "The Settlement map: rows of characters and the legend"),
        DocKind("stockpile", "settlement_stockpile.schema.json", "The Colony Stockpile"),
        DocKind("handbook", "settlement_handbook.schema.json", "Costs and yields of tasks, constructions, jobs",
                limits=handbook_limits),
        DocKind("colony", "settlement_colony.schema.json", "What the dynastic rules remember between actions",
                fresh.fresh_colony),
    ],
    actions=(movement.ACTIONS + tasks.ACTIONS + build.ACTIONS + life.ACTIONS + dances.ACTIONS + outsiders.ACTIONS
             + victory.ACTIONS),
    events=life.EVENTS,
    consequences=[consequences],
    gates=[outsiders.outsider_gate],
    invariants=[invariants],
    pages=pages,
    apart=apart,
    # seed 001 1.2: a Colonist's change of name (a proposal's patch, or core.rename): the colony's records follow
    rename=rename_records,
    # seed 001 2.11 with 1.2: a dead Outsider has left the roster, and its name stays given
    given_names=outsiders.dead_outsiders,
    # a new game (nomic new): the victory date of 2.12 as far from the founding as the example's
    found=fresh.found,
    doc=__doc__ or "",
)
