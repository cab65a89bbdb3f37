"""Shared pieces: options, documents, phases of a moment, reputability, entities and places."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from ...engine import Ctx, State
from ...timeutil import parse_time
from . import phases
from .options import cycle_start, options

PROPOSALS = "cycle12_proposals"
SHEETS = "cycle12_sheets"
WORLD = "cycle12_world"
NOMSTERS = "cycle12_nomsters"
ITEMS = "cycle12_items"
MEDALS = "cycle12_medals"
JUSTICE = "cycle12_justice"
CYCLE = "cycle12_cycle"

NOMSTER_REF = "nomster:"


def opts(state: State | Ctx) -> dict[str, Any]:
    return options(state.config)


def start(state: State | Ctx) -> datetime:
    return cycle_start(state.config)


def phase_of(state: State | Ctx, t: datetime) -> int:
    return phases.phase_number(t, start(state))


def roman_phase(state: State | Ctx, t: datetime) -> str:
    n = phase_of(state, t)
    return phases.phase_name(n) if n else "before the cycle"


def is_reputable(state: State | Ctx, name: str, now: datetime) -> bool:
    """Reputability: a player continuously for the last seven days, or since within three days of the start.

    A player's ``joined`` time is when their current, continuous membership began
    (leaving and rejoining starts a new one).
    """
    p = state.player(name) if isinstance(state, State) else state.player(name)
    if p is None:
        return False
    o = opts(state)
    joined = parse_time(p["joined"])
    if joined > now:
        return False
    return now - joined >= timedelta(days=o["reputable_days"]) or \
        joined <= start(state) + timedelta(days=o["reputable_founding_days"])


# ---------------------------------------------------------------- sheets


def sheet(state: State | Ctx, name: str) -> dict[str, Any] | None:
    for s in state.doc(SHEETS)["sheets"]:
        if s["player"] == name:
            return s
    return None


def edit_sheet(ctx: Ctx, name: str) -> dict[str, Any]:
    for s in ctx.edit(SHEETS)["sheets"]:
        if s["player"] == name:
            return s
    raise ctx.refuse(f"{name} has no character sheet")


def touch_sheet(ctx: Ctx, name: str) -> dict[str, Any]:
    """Self-Updating: an action that changes a tracked value gives its player a new sheet version."""
    s = edit_sheet(ctx, name)
    s["version"] = int(s.get("version", 1)) + 1
    s["updated"] = ctx.at.strftime("%Y-%m-%dT%H:%M:%SZ")
    return s


# ---------------------------------------------------------------- places


def locations(state: State | Ctx) -> list[dict[str, Any]]:
    return state.doc(WORLD)["locations"]


def location_by_id(state: State | Ctx, ident: int) -> dict[str, Any] | None:
    for loc in locations(state):
        if loc["id"] == ident:
            return loc
    return None


def location_at(state: State | Ctx, x: int, y: int) -> dict[str, Any] | None:
    for loc in locations(state):
        if loc["x"] == x and loc["y"] == y:
            return loc
    return None


def find_location(ctx: Ctx, ref: Any) -> dict[str, Any]:
    """A location named by its name, its id, or its coordinates [x, y]."""
    if isinstance(ref, list) and len(ref) == 2:
        loc = location_at(ctx, int(ref[0]), int(ref[1]))
    elif isinstance(ref, int):
        loc = location_by_id(ctx, ref)
    else:
        loc = next((x for x in locations(ctx) if x["name"].casefold() == str(ref).casefold()), None)
    if loc is None:
        raise ctx.refuse(f"there is no location {ref!r}")
    return loc


def adjacent(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Tiles: adjacent orthogonally."""
    return abs(a["x"] - b["x"]) + abs(a["y"] - b["y"]) == 1


def where(state: State | Ctx, entity: str) -> int | None:
    """The location id of a located entity (a player's name, or ``nomster:<id>``)."""
    if entity.startswith(NOMSTER_REF):
        n = nomster(state, int(entity[len(NOMSTER_REF):]))
        return n["location"] if n else None
    s = sheet(state, entity)
    return s.get("location") if s else None


def place_name(state: State | Ctx, loc_id: int | None) -> str:
    loc = location_by_id(state, loc_id) if loc_id is not None else None
    return loc["name"] if loc else "nowhere"


# ---------------------------------------------------------------- nomsters


def nomster(state: State | Ctx, ident: int) -> dict[str, Any] | None:
    for n in state.doc(NOMSTERS)["nomsters"]:
        if n["id"] == ident:
            return n
    return None


def find_nomster(ctx: Ctx, ref: Any, *, edit: bool = False) -> dict[str, Any]:
    """A nomster by id (an integer) or, for a tame one, its name."""
    pool = ctx.edit(NOMSTERS)["nomsters"] if edit else ctx.doc(NOMSTERS)["nomsters"]
    for n in pool:
        if (isinstance(ref, int) and n["id"] == ref) or (isinstance(ref, str) and n.get("name", "").casefold()
                                                         == ref.casefold()):
            return n
    raise ctx.refuse(f"there is no nomster {ref!r}")


def nomster_label(n: dict[str, Any]) -> str:
    if n.get("name"):
        return f"{n['name']} (#{n['id']})"
    return f"wild {n['type']} {n['class']} #{n['id']}"


def team(state: State | Ctx, player: str) -> list[dict[str, Any]]:
    return [n for n in state.doc(NOMSTERS)["nomsters"] if n.get("trainer") == player]


def iso(t: datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")
