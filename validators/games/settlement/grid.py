"""The Settlement map as data, and what follows from it: designations, rooms, Indoors.

Seed 001, rule "The Settlement": each Location is designated by a number
(its row, 0 at the top) followed by a letter (its column), and drawn as one
character whose meaning the legend gives. Walls, Doors and Rock are Barrier
Locations, the rest are Free. A group of connected Free Locations entirely
enclosed by Barriers is a Room; a Door belongs to every Room it is adjacent to;
a Location in a Room is Indoors, any other is Outside.

The map is stored as one string per row and a legend keyed by character, so
one changed location is one changed line in a diff. Rooms are never stored:
they are computed here, from the rows, and remembered by the pattern of
Barriers and Doors they depend on.

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

from ...engine import Remembered, peek

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
    return _parse(str(designation))


@lru_cache(maxsize=8192)  # remembered: every rule asks where everyone is
def _parse(designation: str) -> Loc:
    m = _DESIGNATION.match(designation)
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
        self.rows: tuple[str, ...] = tuple(peek(doc["rows"]))  # strings: nothing to copy on the way
        # the legend as stored, not a transaction's copy of it (dict.get reads past copy on write)
        self.legend: dict[str, Terrain] = _terrains(dict.get(doc, "legend") if isinstance(doc, dict) else doc["legend"])
        self.by_name: dict[str, str] = {t.name: ch for ch, t in self.legend.items()}
        opts = dict(options or {})
        self.adjacency = KING if opts.get("adjacency", "king") == "king" else ORTHOGONAL
        self.room_steps = KING if opts.get("room_connectivity", "orthogonal") == "king" else ORTHOGONAL
        self.nested = opts.get("nested_rooms", "merge")
        self._rooms: list[frozenset[Loc]] | None = None
        self._occupied_chars: frozenset[str] | None = None
        self._code_table: dict[str, str] | None = None
        self._code_key: tuple[tuple[str, str], ...] = ()

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

    def occupied_chars(self) -> frozenset[str]:
        """The legend's characters of Occupied terrain."""
        if self._occupied_chars is None:
            self._occupied_chars = frozenset(ch for ch, t in self.legend.items() if t.state == "occupied")
        return self._occupied_chars

    def barrier(self, loc: Loc) -> bool:
        return self.terrain(loc).barrier

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
        """Every location of the legend's terrain ``name``, row by row (a search of each row, not of each cell)."""
        chars = [ch for ch, t in self.legend.items() if t.name == name]
        out = []
        for r, row in enumerate(self.rows):
            for ch in chars:
                c = row.find(ch)
                while c >= 0:
                    out.append((r, c))
                    c = row.find(ch, c + 1)
        return out if len(chars) < 2 else sorted(out)

    # rooms
    def rooms(self) -> list[frozenset[Loc]]:
        """Every Room, each with its Doors; computed from the rows (cached by their Barriers and Doors)."""
        if self._rooms is None:
            legend = tuple(sorted((ch, t.barrier, t.name == "Door") for ch, t in self.legend.items()))
            self._rooms = list(_rooms(self.rows, legend, self.room_steps, self.adjacency, self.nested))
        return self._rooms

    def rooms_of(self, loc: Loc) -> list[frozenset[Loc]]:
        return [room for room in self.rooms() if loc in room]

    def indoors(self, loc: Loc) -> bool:
        """In a Room. Energy costs ask this of the map after almost every action, and each mined Rock
        makes a new pattern of walls, so a Location plainly Outside is answered without the Rooms:
        see ``_reaches_edge``."""
        if self._rooms is None and self._reaches_edge(loc):
            return False
        return bool(self.rooms_of(loc))

    def _reaches_edge(self, loc: Loc) -> bool:
        """A Free Location that is not a Door, joined (by the Rooms' steps) to the map's edge.

        Such a Location is in no Room, whatever the reading of nested rooms: a Room is made of Free
        Locations no path of Free Locations joins to the edge (a room drawn inside another is enclosed
        by the other's wall, all of it Barriers), and of Doors, which are never answered here. The
        search walks the runs of Free Locations of each row from the one holding ``loc`` and stops at
        the first that touches the edge, the test ``_linked_runs`` applies. False means "not known".
        """
        if not self.inside(loc):
            return False
        r, c = loc
        codes = self._codes()
        if codes.get(self.rows[r][c]) != _FREE:  # a Door, a Barrier, or a character the legend lacks
            return False
        ext = 1 if len(self.room_steps) == 8 else 0
        height = len(self.rows)
        runs = [None] * height  # each row's runs, found when the search first reaches the row
        key = self._code_key

        def row_runs(i: int) -> list[tuple[int, int]]:
            got = runs[i]
            if got is None:
                got = runs[i] = _free_runs_of(self.rows[i], key, codes)
            return got

        start = next(i for i, (a, b) in enumerate(row_runs(r)) if a <= c < b)
        seen = {(r, start)}
        todo = [(r, start)]
        while todo:
            i, j = todo.pop()
            a, b = row_runs(i)[j]
            width = len(self.rows[i])
            above = len(self.rows[i - 1]) if i > 0 else 0
            below = len(self.rows[i + 1]) if i + 1 < height else 0
            if i == 0 or i == height - 1 or a == 0 or b == width or b - 1 + ext >= above or b - 1 + ext >= below:
                return True
            for n in (i - 1, i + 1):
                for k, (a2, b2) in enumerate(row_runs(n)):
                    if a < b2 + ext and a2 < b + ext and (n, k) not in seen:
                        seen.add((n, k))
                        todo.append((n, k))
        return False

    def _codes(self) -> dict[str, str]:
        """Each legend character as one of the four codes of the Rooms' mask (see ``_rooms``)."""
        if self._code_table is None:
            self._code_table = {ch: (_WALL_DOOR if t.name == "Door" else _WALL) if t.barrier
                                else (_FREE_DOOR if t.name == "Door" else _FREE) for ch, t in self.legend.items()}
            self._code_key = tuple(sorted(self._code_table.items()))
        return self._code_table

    def outside(self, loc: Loc) -> bool:
        return not self.indoors(loc)


class _Locations(dict):
    """location text -> (row, column), or None when it is not a location (``where`` reads it so too)."""

    def __missing__(self, text: Any) -> Loc | None:
        try:
            loc = _parse(str(text)) if text else None
        except ValueError:
            loc = None
        if len(self) >= 65536:
            self.clear()
        self[text] = loc
        return loc


LOCATIONS = _Locations()  # every rule asks where everyone is: each text is parsed once


def _terrains(legend: Mapping[str, Any]) -> dict[str, Terrain]:
    """The legend as Terrains. A plain dict is a state's own (a transaction copies before it changes
    anything), never changed in place, so it is read once and remembered by identity."""
    plain = type(legend) is dict
    if plain:
        hit = _LEGENDS.get(legend)
        if hit is not Remembered.MISSING:
            return hit
    out = {ch: Terrain(ch, e["name"], e.get("state", "neither"), bool(e.get("barrier")),
                       bool(e.get("construction")), bool(e.get("noisy")))
           for ch, e in legend.items()}
    return _LEGENDS.put(legend, out) if plain else out


_LEGENDS = Remembered(64)


# Seed 001, rule 2.2 The Settlement: Walls, Doors and Rock are Barriers, every other Location is Free. Which
# terrains are Barriers is the rule's to say, not the legend's: the handbook keeps the rule's list as data
# (``barriers``; these three when it has none), so a proposal that changes rule 2.2 changes the list, and the
# legend's ``barrier`` flags (which the Rooms are computed from) must agree with it. Terrains are tied to the
# rule's words by their legend name, as everywhere in this module.
SEED_BARRIERS: tuple[str, ...] = ("Wall", "Door", "Rock")


def barrier_disagreements(legend: Mapping[str, Terrain], barriers: Iterable[str]) -> list[tuple[str, str]]:
    """(field, message) for each legend entry whose ``barrier`` flag is not what rule 2.2's list says."""
    return _flag_disagreements(legend, barriers, "barrier", "Barrier", "2.2", "barriers")


# Seed 001, rule 2.5 Constructions: every item the rule lists is a Construction, and building and pulling down
# go by that list as the handbook keeps it (``constructions``). The legend's ``construction`` flag is a copy of
# it, tied by legend name as the ``barrier`` flag is to rule 2.2's list; and a Construction the legend has no
# character for could never be built (building puts its terrain on the map). Filling in a Channel is an item
# of the rule too, but it makes Dirt, not a terrain of its own, so it is not in that list.
def construction_disagreements(legend: Mapping[str, Terrain], constructions: Iterable[str]) -> list[tuple[str, str]]:
    """(field, message) for each legend entry whose ``construction`` flag is not what rule 2.5's list says, and
    for each Construction of the list that the legend has no character for."""
    listed = list(constructions)
    out = _flag_disagreements(legend, listed, "construction", "Construction", "2.5", "constructions")
    named = {t.name for t in legend.values()}
    for name in listed:
        if name not in named:
            out.append(("legend", f"rule 2.5 makes {name} a Construction (the handbook's constructions), but the "
                        f"legend has no character for {name}, so none could be built; a proposal that adds a "
                        "Construction adds its legend entry as well"))
    return out


def _flag_disagreements(legend: Mapping[str, Terrain], names: Iterable[str], flag: str, noun: str, rule: str,
                        data: str) -> list[tuple[str, str]]:
    """(field, message) for each legend entry whose boolean ``flag`` is not whether its name is in a rule's list
    (``names``, the handbook's ``data``)."""
    listed = list(names)
    said = ", ".join(listed) or "none"
    out = []
    for ch, t in legend.items():
        want = t.name in listed
        if getattr(t, flag) == want:
            continue
        # the field as a path into the map document; a character that is itself path punctuation names the legend
        field = "legend" if ch in ".[]" else f"legend.{ch}.{flag}"
        if want:
            why = (f"the legend marks {t.name} ({ch!r}) as no {noun}, but rule {rule} makes {t.name} a {noun} "
                   f"(its {noun}s: {said})")
        else:
            why = (f"the legend marks {t.name} ({ch!r}) as a {noun}, but rule {rule}'s {noun}s are {said}, "
                   "and no other")
        out.append((field, why + f"; a proposal that changes which terrains are {noun}s changes the handbook's "
                    f"{data} as well"))
    return out


def edit_row(rows: list[str], loc: Loc, ch: str) -> None:
    """Put one character at a location of a rows list (the map document's ``rows``)."""
    r, c = loc
    row = rows[r]
    rows[r] = row[:c] + ch + row[c + 1:]


# ---------------------------------------------------------------- rooms, computed
#
# Rooms depend only on which Locations are Barriers and which are Doors, so the rows are first
# reduced to a mask of four codes, and the rooms are cached by that mask: farming, felling or
# building furniture changes a row but not its mask, and costs nothing here.
#
# The computation works on runs: the maximal stretches of Free Locations in a row, found by a
# regular expression. Two runs in neighbouring rows are connected when they overlap (or touch at
# a corner, with king steps), so a 200 by 200 map is a few hundred runs, not 40,000 cells.

_FREE, _FREE_DOOR, _WALL, _WALL_DOOR = "\x00", "\x01", "\x02", "\x03"
_FREE_RUN = re.compile("[\x00\x01]+")
_DOOR = re.compile("[\x01\x03]")


def _linked_runs(runs: list[list[tuple[int, int]]], widths: list[int], ext: int) -> tuple[list[int], list[bool]]:
    """Union-find the runs of every row: (the component of each run, whether that run touches the edge).

    Runs are numbered row by row. ``ext`` is 1 when a corner joins (king steps), 0 when it does not.
    """
    height = len(runs)
    parent: list[int] = []
    edge: list[bool] = []
    first: list[int] = []  # the number of each row's first run

    def find(x: int) -> int:
        root = x
        while parent[root] != root:
            root = parent[root]
        while parent[x] != root:
            parent[x], x = root, parent[x]
        return root

    for r, row in enumerate(runs):
        first.append(len(parent))
        last_row = r == 0 or r == height - 1
        above = widths[r - 1] if r > 0 else 0
        below = widths[r + 1] if r + 1 < height else 0
        width = widths[r]
        for a, b in row:
            parent.append(len(parent))
            # on the edge: the first or last row or column, or a neighbour off a ragged map
            edge.append(last_row or a == 0 or b == width or b - 1 + ext >= above or b - 1 + ext >= below)
    for r in range(height - 1):
        upper, lower = runs[r], runs[r + 1]
        i = j = 0
        while i < len(upper) and j < len(lower):
            a1, b1 = upper[i]
            a2, b2 = lower[j]
            if a1 < b2 + ext and a2 < b1 + ext:
                x, y = find(first[r] + i), find(first[r + 1] + j)
                if x != y:
                    parent[x] = y
            if b1 < b2:
                i += 1
            else:
                j += 1
    return [find(x) for x in range(len(parent))], edge


def _enclosed(runs: list[list[tuple[int, int]]], widths: list[int], ext: int) -> list[list[tuple[int, int, int]]]:
    """The groups of runs that do not reach the edge, each as (row, start, end) runs."""
    comp, edge = _linked_runs(runs, widths, ext)
    open_ = {comp[x] for x in range(len(comp)) if edge[x]}
    groups: dict[int, list[tuple[int, int, int]]] = {}
    x = 0
    for r, row in enumerate(runs):
        for a, b in row:
            if comp[x] not in open_:
                groups.setdefault(comp[x], []).append((r, a, b))
            x += 1
    return list(groups.values())


def _free_runs_of(row: str, key: tuple[tuple[str, str], ...], codes: dict[str, str]) -> list[tuple[int, int]]:
    """The runs (start, end) of Free Locations of one row, by the legend's codes; remembered by the
    row's text, since a changed map shares all its other rows with the map before."""
    hit = _ROW_RUNS.get((row, key))
    if hit is None:
        if len(_ROW_RUNS) >= 4096:
            _ROW_RUNS.clear()
        # as _rooms reads a row: a character the legend lacks is neither Free nor a Door (the map's
        # invariant refuses it), and the four codes themselves stand for nothing
        table = {ord(code): _FREE for code in (_FREE, _FREE_DOOR, _WALL, _WALL_DOOR)}
        table.update((ord(ch), code) for ch, code in codes.items())
        hit = _ROW_RUNS[(row, key)] = [m.span() for m in _FREE_RUN.finditer(row.translate(table))]
    return hit


_ROW_RUNS: dict[tuple[str, tuple[tuple[str, str], ...]], list[tuple[int, int]]] = {}


def _cells(group: Iterable[tuple[int, int, int]]) -> set[Loc]:
    return {(r, c) for r, a, b in group for c in range(a, b)}


@lru_cache(maxsize=64)
def _rooms_of_mask(mask: tuple[str, ...], steps: tuple[Loc, ...], adjacency: tuple[Loc, ...],
                   nested: str) -> tuple[frozenset[Loc], ...]:
    widths = [len(r) for r in mask]
    ext = 1 if len(steps) == 8 else 0
    free_runs = [[m.span() for m in _FREE_RUN.finditer(row)] for row in mask]
    enclosed = [_cells(g) for g in _enclosed(free_runs, widths, ext)]
    groups = enclosed
    if nested == "merge" and len(enclosed) > 1:
        candidates = [_enclosed_by(g, enclosed, mask, widths, steps, ext) for g in enclosed]
        # a Location in more than one Room belongs to the largest only
        candidates.sort(key=lambda g: (-len(g), min(g)))
        kept: list[set[Loc]] = []
        for g in candidates:
            if not any(g & k for k in kept):
                kept.append(g)
        groups = kept
    door_cells = [(r, m.start()) for r, row in enumerate(mask) for m in _DOOR.finditer(row)]
    rooms = []
    for g in sorted(groups, key=min):
        doors = {(r, c) for r, c in door_cells if any((r - dr, c - dc) in g for dr, dc in adjacency)}
        rooms.append(frozenset(g | doors))
    return tuple(rooms)


def _enclosed_by(group: set[Loc], enclosed: list[set[Loc]], mask: tuple[str, ...], widths: list[int],
                 steps: tuple[Loc, ...], ext: int) -> set[Loc]:
    """The group and every Free Location its own wall encloses (the rooms drawn inside it)."""
    boundary = {(r + dr, c + dc) for (r, c) in group for dr, dc in steps} - group
    top, bottom = min(r for r, _ in boundary), max(r for r, _ in boundary)
    left, right = min(c for _, c in boundary), max(c for _, c in boundary)
    # whatever lies outside the wall's bounding box walks along its row to the map's edge
    if not any(h is not group and top < min(h)[0] and max(h)[0] < bottom
               and all(left < c < right for _, c in h) for h in enclosed):
        return group
    cuts: dict[int, list[int]] = {}
    for r, c in boundary:
        if 0 <= r < len(mask) and 0 <= c < widths[r]:
            cuts.setdefault(r, []).append(c)
    runs: list[list[tuple[int, int]]] = []
    for r, width in enumerate(widths):
        row: list[tuple[int, int]] = []
        start = 0
        for c in sorted(cuts.get(r, ())):
            if c > start:
                row.append((start, c))
            start = c + 1
        if start < width:
            row.append((start, width))
        runs.append(row)
    inside = set()
    for g in _enclosed(runs, widths, ext):
        inside |= {(r, c) for r, a, b in g for c in range(a, b) if mask[r][c] in (_FREE, _FREE_DOOR)}
    return inside


@lru_cache(maxsize=256)
def _rooms(rows: tuple[str, ...], legend: tuple[tuple[str, bool, bool], ...], steps: tuple[Loc, ...],
           adjacency: tuple[Loc, ...], nested: str) -> tuple[frozenset[Loc], ...]:
    # characters the legend does not explain stay as they are, neither Free nor Doors (the invariant
    # reports them); the four codes are mapped too, so that no character of the map can pose as one
    table = {ord(code): _FREE for code in (_FREE, _FREE_DOOR, _WALL, _WALL_DOOR)}
    for ch, barrier, door in legend:
        table[ord(ch)] = (_WALL_DOOR if door else _WALL) if barrier else (_FREE_DOOR if door else _FREE)
    return _rooms_of_mask(tuple(row.translate(table) for row in rows), steps, adjacency, nested)


# ---------------------------------------------------------------- drawing small maps (tests, cases)


def from_picture(picture: str) -> list[str]:
    """A small ASCII map as rows (blank lines and indentation removed)."""
    lines = [line.strip() for line in picture.strip("\n").splitlines()]
    return [line for line in lines if line]
