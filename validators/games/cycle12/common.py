"""Shared pieces: options, documents, phases of a moment, reputability, entities and places."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from ...engine import Ctx, State, peek
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
    p = state.player(name)
    if p is None:
        return False
    o = opts(state)
    joined = parse_time(p["joined"])
    if joined > now:
        return False
    return now - joined >= timedelta(days=o["reputable_days"]) or \
        joined <= start(state) + timedelta(days=o["reputable_founding_days"])


# ---------------------------------------------------------------- remembering


class BaseMemo:
    """One value computed from documents of the state an action started from, kept for the next action.

    A state is never changed once made (the engine copies on write, and the previous state is never
    written), so while those very documents are what an action sees (it has not edited them: they are
    not in ``ctx.tx.docs``) the value computed from them still holds. Most actions leave most documents
    alone, so a check run after every action need not read them again. The key holds the documents
    themselves (not their ids), so they cannot be freed and another object take their place.

    Use it only with the context of an action or an event, whose base is a whole state; not inside a
    proposal's sandbox, whose base is a transaction's view (documents that may still change).
    """

    __slots__ = ("_kept",)

    def __init__(self) -> None:
        self._kept: tuple[tuple[Any, ...], Any] = ((), None)  # (documents, value), replaced as one

    def get(self, ctx: Ctx, kinds: tuple[str, ...], compute: Callable[[], Any]) -> Any:
        tx = ctx.tx
        if tx.config is not None or any(k in tx.docs for k in kinds):
            return compute()  # edited in this action: read afresh, and not kept
        key = (tx.base.config, *[tx.base.docs[k] for k in kinds])
        old, value = self._kept
        if len(old) == len(key):
            for a, b in zip(old, key):
                if a is not b:
                    break
            else:
                return value
        value = compute()
        self._kept = (key, value)
        return value


# ---------------------------------------------------------------- sheets


# Lists are searched with ``peek`` (nothing is copied on the way) and the item found is then taken by
# its index, so that in a document the action edits only that item is copied, and what the caller gets
# is the transaction's own (as iterating the list would give, which copies every item).


def index_of(items: list[dict[str, Any]], key: str, value: Any) -> int:
    """The index of the first item whose ``key`` is ``value`` (-1 if none); reads without copying."""
    for i, x in enumerate(peek(items)):
        if x[key] == value:
            return i
    return -1


def sheet(state: State | Ctx, name: str) -> dict[str, Any] | None:
    sheets = state.doc(SHEETS)["sheets"]
    i = index_of(sheets, "player", name)
    return sheets[i] if i >= 0 else None


def edit_sheet(ctx: Ctx, name: str) -> dict[str, Any]:
    sheets = ctx.edit(SHEETS)["sheets"]
    i = index_of(sheets, "player", name)
    if i >= 0:
        return sheets[i]
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


# The map is large and most actions leave its locations alone, so an action's context finds them by
# indexes kept from one action to the next: each is remembered with the very list it was made from, a
# plain list of a state (never changed once made; a list the action edits is a copy, and is scanned).
# (Only by id and by name: a location looked for by its coordinates is not asked for often enough.)
_LOCATION_KEYS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "id": lambda loc: loc["id"],
    "name": lambda loc: loc["name"].casefold(),
}
_LOCATION_INDEXES: dict[str, tuple[list[Any], dict[Any, int] | None]] = {}


def location_index(state: State | Ctx, field: str) -> dict[Any, int] | None:
    """{key: index of the first location with it} by ``field`` ("id", or "name" casefolded), or None where
    the locations must be scanned instead: outside an action's context, in a map the action edits, or in
    one where a key is not what a valid map holds."""
    locs = locations(state)
    if type(locs) is not list or not isinstance(state, Ctx):
        return None
    known = _LOCATION_INDEXES.get(field)
    if known is not None and known[0] is locs:
        return known[1]
    key = _LOCATION_KEYS[field]
    index: dict[Any, int] | None = {}
    try:
        for i, loc in enumerate(locs):
            index.setdefault(key(loc), i)
    except (TypeError, KeyError, AttributeError):
        index = None  # scanned, and failing (or not) where the scan would
    _LOCATION_INDEXES[field] = (locs, index)
    return index


def location_by_id(state: State | Ctx, ident: int) -> dict[str, Any] | None:
    locs = locations(state)
    index = location_index(state, "id") if type(ident) is int else None
    i = index.get(ident, -1) if index is not None else index_of(locs, "id", ident)
    return locs[i] if i >= 0 else None


def location_at(state: State | Ctx, x: int, y: int) -> dict[str, Any] | None:
    locs = locations(state)
    for i, loc in enumerate(peek(locs)):
        if loc["x"] == x and loc["y"] == y:
            return locs[i]
    return None


def find_location(ctx: Ctx, ref: Any) -> dict[str, Any]:
    """A location named by its name, its id, or its coordinates [x, y]."""
    if isinstance(ref, list) and len(ref) == 2:
        loc = location_at(ctx, int(ref[0]), int(ref[1]))
    elif isinstance(ref, int):
        loc = location_by_id(ctx, ref)
    else:
        locs, name = locations(ctx), str(ref).casefold()
        index = location_index(ctx, "name")
        if index is not None:
            i = index.get(name, -1)
        else:
            i = next((i for i, x in enumerate(peek(locs)) if x["name"].casefold() == name), -1)
        loc = locs[i] if i >= 0 else None
    if loc is None:
        raise ctx.refuse(f"there is no location {ref!r}")
    return loc


def adjacent(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Tiles: adjacent orthogonally."""
    return abs(a["x"] - b["x"]) + abs(a["y"] - b["y"]) == 1


def where(state: State | Ctx, entity: str) -> int | None:
    """The location id of a located entity (a player's name, or ``nomster:<id>``)."""
    # only read, so nothing is copied: the location is a number
    if entity.startswith(NOMSTER_REF):
        ident = int(entity[len(NOMSTER_REF):])
        n = next((x for x in peek(state.doc(NOMSTERS)["nomsters"]) if x["id"] == ident), None)
        return n["location"] if n else None
    s = next((x for x in peek(state.doc(SHEETS)["sheets"]) if x["player"] == entity), None)
    return s.get("location") if s else None


def place_name(state: State | Ctx, loc_id: int | None) -> str:
    loc = location_by_id(state, loc_id) if loc_id is not None else None
    return loc["name"] if loc else "nowhere"


# ---------------------------------------------------------------- nomsters


def nomster(state: State | Ctx, ident: int) -> dict[str, Any] | None:
    pool = state.doc(NOMSTERS)["nomsters"]
    i = index_of(pool, "id", ident)
    return pool[i] if i >= 0 else None


_FOUND: tuple[Any, ...] = (None, None, -1)  # (list, ref, index) of the last nomster found in a state's list


def find_nomster(ctx: Ctx, ref: Any, *, edit: bool = False) -> dict[str, Any]:
    """A nomster by id (an integer) or, for a tame one, its name.

    An action's check and its effect each look for the same nomster in the same list: a plain list
    of a state (never changed once made), so the second look is answered by the first.
    """
    global _FOUND
    pool = ctx.edit(NOMSTERS)["nomsters"] if edit else ctx.doc(NOMSTERS)["nomsters"]
    plain = type(pool) is list
    found_in, found_ref, found_at = _FOUND
    if plain and found_in is pool and type(found_ref) is type(ref) and found_ref == ref:
        return pool[found_at]
    if isinstance(ref, int):
        i = index_of(pool, "id", ref)
    elif isinstance(ref, str):
        name = ref.casefold()
        i = next((i for i, n in enumerate(peek(pool)) if n.get("name", "").casefold() == name), -1)
    else:
        i = -1
    if i >= 0:
        if plain and type(ref) in (int, str):
            _FOUND = (pool, ref, i)
        return pool[i]
    raise ctx.refuse(f"there is no nomster {ref!r}")


def nomster_label(n: dict[str, Any]) -> str:
    if n.get("name"):
        return f"{n['name']} (#{n['id']})"
    return f"wild {n['type']} {n['class']} #{n['id']}"


def team(state: State | Ctx, player: str) -> list[dict[str, Any]]:
    return [n for n in state.doc(NOMSTERS)["nomsters"] if n.get("trainer") == player]


def iso(t: datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")
