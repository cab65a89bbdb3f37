"""The Settlement map as data, and what follows from it: designations, rooms, Indoors.

Seed 001, rule "The Settlement": each Location is designated by a number
(its row, 0 at the top) followed by a letter (its column), and drawn as one
character whose meaning the legend gives. Walls, Doors and Rock are Barrier
Locations, the rest are Free. A group of connected Free Locations entirely
enclosed by Barriers is a Room; a Door belongs to every Room it is adjacent to;
a Location in a Room is Indoors, any other is Outside.

The map is stored as one string per row and a legend keyed by character, so
one changed location is one changed line in a diff. Rooms are never stored:
they are computed here, from the rows, every time they are needed.

Readings (game options, ``options.settlement``; see docs/modules/settlement.md):

* ``adjacency``: ``king`` (default; the eight neighbours, because the rules say
  "orthogonal" where they mean only four) or ``orthogonal``.
* ``room_connectivity``: how Free Locations connect into a Room and how the
  enclosure is tested: ``orthogonal`` (default; a wall with a diagonal step
  still closes a room) or ``king``.
* ``nested_rooms``: ``merge`` (default; a room drawn inside another room is
  part of the larger one, which is the only case in which a Location could be
  in two Rooms, so the "only the largest counts" clause has an effect) or
  ``separate`` (every enclosed group of Free Locations is its own Room).
* The map's edge is not a Barrier: a group of Free Locations that reaches the
  edge is not enclosed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable, Iterator, Mapping

Loc = tuple[int, int]  # (row, column), both from 0

ORTHOGONAL: tuple[Loc, ...] = ((-1, 0), (1, 0), (0, -1), (0, 1))
KING: tuple[Loc, ...] = ORTHOGONAL + ((-1, -1), (-1, 1), (1, -1), (1, 1))
DIRECTIONS: dict[str, Loc] = {"N": (-1, 0), "S": (1, 0), "W": (0, -1), "E": (0, 1)}

_DESIGNATION = re.compile(r"^\s*(\d{1,4})\s*([a-zA-Z]{1,3})\s*$")


# ---------------------------------------------------------------- designations


def column_letters(col: int) -> str:
    """0 -> a, 25 -> z, 26 -> aa, 27 -> ab ... (the columns after z are written with two letters)."""
    if col < 0:
        raise ValueError("columns start at 0")
    out = ""
    n = col + 1
    while n:
        n, rem = divmod(n - 1, 26)
        out = chr(ord("a") + rem) + out
    return out


def column_number(letters: str) -> int:
    n = 0
    for ch in letters.lower():
        n = n * 26 + (ord(ch) - ord("a") + 1)
    return n - 1


def designate(loc: Loc) -> str:
    """(13, 0) -> '13a'."""
    return f"{loc[0]}{column_letters(loc[1])}"


def parse(designation: str) -> Loc:
    """'13a' -> (13, 0). Raises ValueError for anything else."""
    m = _DESIGNATION.match(str(designation))
    if not m:
        raise ValueError(f"{designation!r} is not a location like 13a (row number, then column letter)")
    return int(m.group(1)), column_number(m.group(2))


def manhattan(a: Loc, b: Loc) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


# ---------------------------------------------------------------- the map


@dataclass(frozen=True)
class Terrain:
    char: str
    name: str
    state: str  # empty | occupied | neither
    barrier: bool = False
    construction: bool = False
    noisy: bool = False


class SettlementMap:
    """A read-only view of the map document (``gamestate/map.yaml``)."""

    def __init__(self, doc: Mapping[str, Any], options: Mapping[str, Any] | None = None):
        self.rows: tuple[str, ...] = tuple(doc["rows"])
        self.legend: dict[str, Terrain] = {
            ch: Terrain(ch, e["name"], e.get("state", "neither"), bool(e.get("barrier")),
                        bool(e.get("construction")), bool(e.get("noisy")))
            for ch, e in doc["legend"].items()
        }
        self.by_name: dict[str, str] = {t.name: ch for ch, t in self.legend.items()}
        opts = dict(options or {})
        self.adjacency = KING if opts.get("adjacency", "king") == "king" else ORTHOGONAL
        self.room_steps = KING if opts.get("room_connectivity", "orthogonal") == "king" else ORTHOGONAL
        self.nested = opts.get("nested_rooms", "merge")

    # shape
    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return max((len(r) for r in self.rows), default=0)

    def inside(self, loc: Loc) -> bool:
        r, c = loc
        return 0 <= r < len(self.rows) and 0 <= c < len(self.rows[r])

    def locations(self) -> Iterator[Loc]:
        for r, row in enumerate(self.rows):
            for c in range(len(row)):
                yield (r, c)

    # what is where
    def char(self, loc: Loc) -> str:
        return self.rows[loc[0]][loc[1]]

    def terrain(self, loc: Loc) -> Terrain:
        ch = self.char(loc)
        t = self.legend.get(ch)
        if t is None:  # the invariant reports it; meanwhile it is nothing anyone may enter
            return Terrain(ch, f"unexplained {ch!r}", "neither")
        return t

    def name(self, loc: Loc) -> str:
        return self.terrain(loc).name

    def is_(self, loc: Loc, name: str) -> bool:
        return self.inside(loc) and self.terrain(loc).name == name

    def empty(self, loc: Loc) -> bool:
        return self.inside(loc) and self.terrain(loc).state == "empty"

    def occupied(self, loc: Loc) -> bool:
        return self.inside(loc) and self.terrain(loc).state == "occupied"

    def barrier(self, loc: Loc) -> bool:
        return self.terrain(loc).barrier

    def char_of(self, name: str) -> str:
        if name not in self.by_name:
            raise KeyError(f"the legend has no {name!r}")
        return self.by_name[name]

    # neighbourhoods
    def neighbours(self, loc: Loc, steps: Iterable[Loc] | None = None) -> Iterator[Loc]:
        for dr, dc in (steps if steps is not None else self.adjacency):
            n = (loc[0] + dr, loc[1] + dc)
            if self.inside(n):
                yield n

    def adjacent(self, a: Loc, b: Loc) -> bool:
        return (b[0] - a[0], b[1] - a[1]) in self.adjacency

    def adjacent_named(self, loc: Loc, name: str) -> list[Loc]:
        return [n for n in self.neighbours(loc) if self.terrain(n).name == name]

    def all_named(self, name: str) -> list[Loc]:
        return [loc for loc in self.locations() if self.terrain(loc).name == name]

    # rooms
    def rooms(self) -> list[frozenset[Loc]]:
        """Every Room, each with its Doors; computed from the rows (cached by content)."""
        return list(_rooms(self.rows, tuple(sorted((ch, t.barrier, t.name == "Door") for ch, t in self.legend.items())),
                           self.room_steps, self.adjacency, self.nested))

    def rooms_of(self, loc: Loc) -> list[frozenset[Loc]]:
        return [room for room in self.rooms() if loc in room]

    def indoors(self, loc: Loc) -> bool:
        return bool(self.rooms_of(loc))

    def outside(self, loc: Loc) -> bool:
        return not self.indoors(loc)


def edit_row(rows: list[str], loc: Loc, ch: str) -> None:
    """Put one character at a location of a rows list (the map document's ``rows``)."""
    r, c = loc
    row = rows[r]
    rows[r] = row[:c] + ch + row[c + 1:]


# ---------------------------------------------------------------- rooms, computed


def _components(cells: set[Loc], steps: tuple[Loc, ...]) -> list[set[Loc]]:
    seen: set[Loc] = set()
    out = []
    for start in sorted(cells):
        if start in seen:
            continue
        group = {start}
        stack = [start]
        seen.add(start)
        while stack:
            r, c = stack.pop()
            for dr, dc in steps:
                n = (r + dr, c + dc)
                if n in cells and n not in seen:
                    seen.add(n)
                    group.add(n)
                    stack.append(n)
        out.append(group)
    return out


def _reach_from_edge(all_cells: set[Loc], walls: set[Loc], steps: tuple[Loc, ...], height: int,
                     widths: list[int]) -> set[Loc]:
    """Cells reachable from beyond the map's edge without crossing ``walls``."""
    def on_edge(loc: Loc) -> bool:
        r, c = loc
        if r == 0 or r == height - 1 or c == 0 or c == widths[r] - 1:
            return True
        # a neighbour (in these steps) that is off the map: ragged rows count as edge
        return any((r + dr, c + dc) not in all_cells for dr, dc in steps)

    start = [loc for loc in all_cells if loc not in walls and on_edge(loc)]
    seen = set(start)
    stack = list(start)
    while stack:
        r, c = stack.pop()
        for dr, dc in steps:
            n = (r + dr, c + dc)
            if n in all_cells and n not in walls and n not in seen:
                seen.add(n)
                stack.append(n)
    return seen


@lru_cache(maxsize=256)
def _rooms(rows: tuple[str, ...], legend: tuple[tuple[str, bool, bool], ...], steps: tuple[Loc, ...],
           adjacency: tuple[Loc, ...], nested: str) -> tuple[frozenset[Loc], ...]:
    barrier_chars = {ch for ch, barrier, _ in legend if barrier}
    door_chars = {ch for ch, _, door in legend if door}
    height = len(rows)
    widths = [len(r) for r in rows]
    all_cells = {(r, c) for r in range(height) for c in range(widths[r])}
    free = {(r, c) for (r, c) in all_cells if rows[r][c] not in barrier_chars}
    outside = _reach_from_edge(all_cells, all_cells - free, steps, height, widths)
    enclosed = [g for g in _components(free - outside, steps)]
    if nested == "merge":
        candidates: list[set[Loc]] = []
        for group in enclosed:
            boundary = {(r + dr, c + dc) for (r, c) in group for dr, dc in steps} - group
            reach = _reach_from_edge(all_cells, boundary, steps, height, widths)
            candidates.append({loc for loc in free if loc not in reach})
        # a Location in more than one Room belongs to the largest only
        candidates.sort(key=lambda g: (-len(g), min(g)))
        kept: list[set[Loc]] = []
        for g in candidates:
            if not any(g & k for k in kept):
                kept.append(g)
        groups = kept
    else:
        groups = enclosed
    rooms = []
    for g in sorted(groups, key=min):
        doors = {n for (r, c) in g for dr, dc in adjacency
                 for n in [(r + dr, c + dc)] if n in all_cells and rows[n[0]][n[1]] in door_chars}
        rooms.append(frozenset(g | doors))
    return tuple(rooms)


# ---------------------------------------------------------------- drawing small maps (tests, cases)


def from_picture(picture: str) -> list[str]:
    """A small ASCII map as rows (blank lines and indentation removed)."""
    lines = [line.strip() for line in picture.strip("\n").splitlines()]
    return [line for line in lines if line]
