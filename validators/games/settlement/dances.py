"""Lord of the Dance: opening a dance, declaring it successful, and the Conga's march (seed 001).

The dance post is the ``dances`` list of the colony document. A dance is open
for 48 hours after it is called; within them, a participant of a recognised
configuration (see configs.py) may declare it successful, which ends it.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Iterator

from ...engine import Action, Ctx
from ...problems import counted
from ...roster import change_stat, set_stat
from ...schemas import FORM
from ...timeutil import format_time, parse_time, week_start
from . import configs
from .common import (
    beings,
    energy_cost,
    guarded,
    guarded_ready,
    handbook,
    inert_outsider,
    opts,
    outsider_filer,
    pay_energy,
    step_problem,
    the_map,
    where,
)
from .grid import DIRECTIONS, designate, manhattan
from .movement import can_step, move_cost
from .tasks import _obj

RULE = "lord-of-the-dance"
KINDS = ["waltz", "square", "conga", "hokey-kokey"]


def dance_list(ctx: Ctx) -> list[dict[str, Any]]:
    return ctx.doc("colony").get("dances", [])


def open_dance(ctx: Ctx) -> dict[str, Any] | None:
    hours = handbook(ctx)["dance"]["hours"]
    for d in dance_list(ctx):
        if d["status"] == "open" and ctx.at - parse_time(d["opened"]) < timedelta(hours=hours):
            return d
    return None


def _open_check(ctx: Ctx) -> Iterator[str]:
    d = open_dance(ctx)
    if d is not None:
        yield f"dance {d['id']} (called by {d['by']} at {d['opened']}) is still open; only one may be open"
    week = [d for d in dance_list(ctx) if parse_time(d["opened"]) >= week_start(ctx.at)]
    per_week = handbook(ctx)["dance"]["per_week"]
    if len(week) >= per_week:
        yield (f"{counted(len(week), 'dance')} {'has' if len(week) == 1 else 'have'} been called this week; no more "
               f"than {per_week}")


def _open(ctx: Ctx) -> None:
    colony = ctx.edit("colony")
    dances = colony.setdefault("dances", [])
    hours = handbook(ctx)["dance"]["hours"]
    for d in dances:  # a dance whose 48 hours ran out unsuccessfully is over
        if d["status"] == "open" and ctx.at - parse_time(d["opened"]) >= timedelta(hours=hours):
            d["status"] = "over"
    ident = max((d["id"] for d in dances), default=0) + 1
    dances.append({"id": ident, "by": ctx.actor, "opened": format_time(ctx.at), "status": "open"})
    colony.pop("conga", None)
    ctx.step({"dance": ident, "open until": format_time(ctx.at + timedelta(hours=hours))})


OPEN = Action(
    name="settlement.dance",
    rule=RULE,
    summary="Call a dance: for 48 hours Colonists may form a recognised configuration",
    check=guarded(_open_check, outsiders=True, located=False),  # 2.10: calling a dance asks for no Location
    effect=_open,
    frequency="weekly",
    may_file=outsider_filer,
    doc="A weekly action; only one dance may be open at a time and no more than two called in a week.",
)


def config_key(kind: str, locs: list[str], reuse: str) -> str:
    return kind if reuse == "type" else kind + ":" + ",".join(sorted(locs))


def _any_open(ctx: Ctx) -> Iterator[str]:
    """Seed 001, 2.10 Lord of the Dance: a dance is declared successful only while it is open (48 hours after it is
    called, until declared successful); with none open, ``_declare`` refuses every dance number."""
    if open_dance(ctx) is None:
        yield (f"no dance is open (a dance is open for {counted(handbook(ctx)['dance']['hours'], 'hour')} after it "
               "is called, "
               "until declared successful)")


def _declare(ctx: Ctx) -> None:
    d = open_dance(ctx)
    if d is None or d["id"] != ctx.params["dance"]:
        raise ctx.refuse(f"dance {ctx.params['dance']} is not open (a dance is open for "
                         f"{counted(handbook(ctx)['dance']['hours'], 'hour')} after it is called, until declared "
                         "successful)")
    kind = ctx.params["kind"]
    names = list(ctx.params["participants"])
    if ctx.actor not in names:
        raise ctx.refuse(f"{ctx.actor} is not among the participants; only a participant may declare")
    if len(set(names)) != len(names):
        raise ctx.refuse("a participant is named twice")
    m = the_map(ctx)
    people = {p["name"]: p for p in beings(ctx)}
    locs = []
    for n in names:
        if n not in people or where(people[n]) is None:
            # seed 001 2.11 Outsiders repealed: an Outsider is no Colonist, so it dances in no configuration
            inert = inert_outsider(ctx, ctx.player(n))
            raise ctx.refuse(f"{inert}: it dances in no configuration" if inert else
                             f"{n} is not a Colonist on the map", rule="outsiders" if inert else None)
        locs.append(where(people[n]))
    if kind == "waltz":
        if len(locs) % 2:
            raise ctx.refuse("a Waltz is declared as pairs: list the participants two by two")
        why = configs.waltz([(locs[i], locs[i + 1]) for i in range(0, len(locs), 2)], m.adjacent)
    elif kind == "square":
        why = configs.square(locs)
    elif kind == "conga":
        why = configs.conga(locs)
        if why is None and names[0] != d["by"]:
            why = f"the front of a Conga must be {d['by']}, who called the dance"
    else:
        why = configs.hokey_kokey(locs, opts(ctx)["hokey_circle"])
    if why:
        raise ctx.refuse(why)
    key = config_key(kind, [designate(x) for x in locs], opts(ctx)["dance_reuse"])
    for other in dance_list(ctx):
        if other.get("status") == "over" and other.get("key") == key and \
                ctx.at - parse_time(other["at"]) < timedelta(days=7):
            raise ctx.refuse(f"this configuration ({key}) completed dance {other['id']} at {other['at']}, "
                             "within the last seven days")
    spec = handbook(ctx)["dance"]
    colony = ctx.edit("colony")
    for entry in colony["dances"]:
        if entry["id"] == d["id"]:
            entry.update({"status": "over", "kind": kind, "participants": names, "at": format_time(ctx.at),
                          "key": key})
    joined = colony.setdefault("dances_joined", {})
    for n in names:
        joined[n] = joined.get(n, 0) + 1
        got = change_stat(ctx, n, "energy", spec["energy"])
        ctx.step({"energy": got, "who": n})
    if kind == "square":
        until = format_time(ctx.at + timedelta(hours=spec["square_hours"]))
        squares = colony.setdefault("square_dancers", {})
        for n in names:
            squares[n] = until
        ctx.step({"half energy until": until})
    elif kind == "conga":
        colony["conga"] = {"front": names[0], "line": names[1:], "moves": spec["conga_moves"]}
        ctx.step({"conga": names[0], "moves": spec["conga_moves"]})
    elif kind == "hokey-kokey":
        for n in names:
            got = change_stat(ctx, n, "hunger", -spec["hokey_hunger"])
            ctx.step({"hunger": got, "who": n})


DECLARE = Action(
    name="settlement.dance-success",
    rule=RULE,
    summary="Declare the open dance successful: name the dance and its participants",
    params=_obj({"dance": {"type": "integer", "minimum": 1, "description": "the number of the open dance"},
                 "kind": {"enum": KINDS, "description": "which dance it was"},
                 "participants": {"type": "array", "minItems": 1, "maxItems": 100,
                                  "items": {"$ref": "common.schema.json#/$defs/name"},
                                  "description": "the Colonists who took part"}},
                ["dance", "kind", "participants"]),
    check=guarded(outsiders=True),
    ready=guarded_ready(_any_open, outsiders=True),
    effect=_declare,
    may_file=outsider_filer,
    doc="A Waltz lists its participants pair by pair; a Conga lists them front first (the caller of the "
        "dance at the front). Every participant gains 15 Energy; a Square halves their energy costs for "
        "72 hours; the Conga's front may lead up to 10 moves; the Hokey-Kokey takes 1 off each one's Hunger.",
)


def _conga_front(ctx: Ctx) -> Iterator[str]:
    """Seed 001, 2.10 Lord of the Dance (Conga): only the front of a successful Conga leads its moves."""
    conga = ctx.doc("colony").get("conga")
    if not conga or conga["front"] != ctx.actor:
        yield f"{ctx.actor} is not at the front of a successful Conga"


def _conga_move(ctx: Ctx) -> None:
    for why in _conga_front(ctx):
        raise ctx.refuse(why)
    conga = ctx.doc("colony")["conga"]
    path = ctx.params["path"].upper()
    if len(path) > conga["moves"]:
        raise ctx.refuse(f"the Conga has {counted(conga['moves'], 'move')} left")
    # The line is the Colonists who danced; one who has since left the game, or stands nowhere, has no place
    # to step into: they drop out and the others close up (our reading; the seed does not say). One who is no
    # longer a Colonist for the dynastic rules (``beings``) drops out too, where e stands: an Idle one (the core
    # rules' Idle clause: not counted as a Colonist), or an Outsider once 2.11 Outsiders, which treated it as one,
    # is repealed
    dancers = {p["name"] for p in beings(ctx)}
    line = [ctx.actor, *(n for n in conga["line"] if n in dancers and where(ctx.player(n)) is not None)]
    if (me := ctx.player()) is None or where(me) is None:
        raise ctx.refuse(f"{ctx.actor} stands nowhere on the map, so cannot lead the Conga")
    # seed 001 "Lord of the Dance", Conga: the front moves "the rest of the conga line" behind them, and a conga
    # line is an unbroken chain of orthogonal adjacency. A dancer who has stepped out of it since the dance (or
    # stands behind one who has) is no longer in the line: left where they are, never carried across the map
    # into the place of the one ahead
    chain = line[:1]
    for n in line[1:]:
        if manhattan(where(ctx.player(n)), where(ctx.player(chain[-1]))) != 1:  # type: ignore[arg-type]
            ctx.step({"conga line ends before": n})
            break
        chain.append(n)
    line = chain
    # The march is refused whole if the front cannot pay for all of it; the refusal counts the whole march
    # against the Energy the front had before it (not what an earlier step would have left), so the steps go
    # on being costed after the first one the front cannot pay for
    before = int(me["stats"].get("energy", 0))
    needed, short = 0, False
    for letter in path:
        positions = [where(ctx.player(n)) for n in line]
        dr, dc = DIRECTIONS[letter]
        to = (positions[0][0] + dr, positions[0][1] + dc)
        why = step_problem(ctx, positions[0], to, ctx.player())
        if why:
            raise ctx.refuse(why[1], rule=why[0])
        # seed 001 "Lord of the Dance", Conga: the front's moves are moves of rule 2.3.1 (into an Empty location;
        # other Colonists make no location non-Empty) and the line follows behind. The last dancer's square is
        # one the front may step into, since the last dancer steps on at the same moment (a line of four in a
        # square turns round); a square further up the line would put the front and the one behind that dancer
        # on one location, so the line could not follow behind the front: that is refused
        if to in positions[1:-1]:
            raise ctx.refuse(f"the front would step onto the line at {designate(to)}")
        targets = [to, *positions[:-1]]
        # seed 001 "Lord of the Dance", Conga: the front's moves are moves of rule 2.3.1 and the line must follow;
        # each follower steps as that rule and "Outsiders" allow (none out of a Channel onto other ground, no
        # Outsider into a Door), so a move the line cannot follow is not one the front may make
        for name, frm, dest in zip(line[1:], positions[1:], targets[1:]):
            why = step_problem(ctx, frm, dest, ctx.player(name))
            if why:
                # the limit that keeps the follower back is cited: 2.3.1's Channel, 2.11's Door
                raise ctx.refuse(f"the conga line cannot follow: {why[1]}", rule=why[0])
        # seed 001 "Lord of the Dance", Conga: the front makes "moves (as defined in rule 2.3.1)", and 2.3.1
        # defines a move as spending 4 Energy to step: so each costs the front what a move of theirs costs (a
        # Dancer's 2, Indoors and square-dance discounts). The followers make no moves; the front moves them
        cost = energy_cost(ctx, ctx.actor, move_cost(ctx))[0]
        needed += cost
        short = short or int(ctx.player()["stats"].get("energy", 0)) < cost
        if not short:
            pay_energy(ctx, ctx.actor, move_cost(ctx))
        for name, loc in zip(line, targets):
            set_stat(ctx, name, "location", designate(loc))
        ctx.step({"conga moves": letter, "front at": designate(to)})
    if short:
        raise ctx.refuse(f"the march needs {counted(len(path), 'move')} costing {needed} Energy "
                         f"in all; {ctx.actor} has {before} Energy before it")
    colony = ctx.edit("colony")
    if len(line) - 1 < len(conga["line"]):
        colony["conga"]["line"] = line[1:]
    colony["conga"]["moves"] -= len(path)
    if colony["conga"]["moves"] <= 0:
        colony.pop("conga")


CONGA = Action(
    name="settlement.conga-move",
    rule=RULE,
    summary="Lead the successful Conga: up to 10 moves in all (4 Energy each), the line following behind",
    params=_obj({"path": {"type": "string", "pattern": "^[NESWnesw]{1,10}$",
                          "description": "the steps in order, e.g. NNE",
                          FORM: "1 to 10 steps, each N, E, S or W, like NNE"}}, ["path"]),
    check=guarded(outsiders=True),
    # 2.10 (Conga): the front's moves are moves of 2.3.1: with no first step to take or pay for, no march at all
    ready=guarded_ready(_conga_front, can_step, outsiders=True),
    effect=_conga_move,
    may_file=outsider_filer,
    doc="Each move is a move of the Movement rule: orthogonal, to an Empty location, and it costs the front "
        "the Energy of a move (4; 2 for a Dancer; less Indoors or after a square dance); the followers pay "
        "nothing. Each follower steps into the place of the one "
        "ahead, as the Movement rule allows them (not out of a Channel onto other ground; an Outsider never "
        "into a Door), or the move is refused. The moves lapse when the next dance is called.",
)

ACTIONS = [OPEN, DECLARE, CONGA]
