"""The recognised dance configurations, recognised from positions on the map (seed 001, "Lord of the Dance").

Pure functions of locations: each returns None when the positions form the
dance, or a sentence saying why they do not. Locations are (row, column).

* Waltz: at least three pairs, each pair two Colonists on adjacent locations,
  and each pair at most 5 locations (steps) from another pair; we read "from
  another" as: the pairs form one group in which every pair is within 5 of some
  other pair (so two far-apart clusters do not make one Waltz).
* Square: an even number, at least four, in two parallel lines (rows or
  columns) with exactly one location between the lines and exactly one between
  neighbours in a line: a 2-by-k lattice of spacing 2, k >= 2.
* Conga: four or more in an unbroken chain of orthogonal adjacency, the
  initiator of the dance at the front (first in the list).
* Hokey-Kokey: four or more on separate locations, all on one circle. With
  ``points`` (default) the circle passes through the centres of the locations,
  tested exactly in integers; with ``squares`` it need only pass through each
  location's square, tested by a search over centres (and a straight line,
  the limit of ever larger circles).
"""

from __future__ import annotations

import math
from itertools import combinations
from typing import Sequence

from .grid import Loc, designate, manhattan


def waltz(pairs: Sequence[tuple[Loc, Loc]], adjacent) -> str | None:  # type: ignore[no-untyped-def]
    if len(pairs) < 3:
        return f"a Waltz needs at least three pairs ({len(pairs)} given)"
    for a, b in pairs:
        if a == b or not adjacent(a, b):
            return f"{designate(a)} and {designate(b)} are not adjacent, so they are not a pair"
    # one group, each pair within 5 steps of another
    def near(p: tuple[Loc, Loc], q: tuple[Loc, Loc]) -> bool:
        return min(manhattan(x, y) for x in p for y in q) <= 5

    group = {0}
    frontier = [0]
    while frontier:
        i = frontier.pop()
        for j in range(len(pairs)):
            if j not in group and near(pairs[i], pairs[j]):
                group.add(j)
                frontier.append(j)
    if len(group) != len(pairs):
        far = [j for j in range(len(pairs)) if j not in group][0]
        a, b = pairs[far]
        return f"the pair at {designate(a)}/{designate(b)} is more than 5 locations from every other pair"
    return None


def _lattice(locs: Sequence[Loc]) -> bool:
    rows = sorted({r for r, _ in locs})
    if len(rows) != 2 or rows[1] - rows[0] != 2:
        return False
    lines = [sorted(c for r, c in locs if r == row) for row in rows]
    if lines[0] != lines[1]:
        return False
    cols = lines[0]
    return len(cols) >= 2 and all(b - a == 2 for a, b in zip(cols, cols[1:]))


def square(locs: Sequence[Loc]) -> str | None:
    if len(locs) < 4 or len(locs) % 2:
        return f"a Square needs an even number of dancers, at least four ({len(locs)} given)"
    if len(set(locs)) != len(locs):
        return "two dancers of a Square share a location"
    if _lattice(locs) or _lattice([(c, r) for r, c in locs]):
        return None
    return ("the dancers are not two parallel lines with one location between the lines and one between "
            "neighbours")


def conga(line: Sequence[Loc]) -> str | None:
    if len(line) < 4:
        return f"a Conga needs four or more dancers ({len(line)} given)"
    if len(set(line)) != len(line):
        return "two dancers of the Conga share a location"
    for a, b in zip(line, line[1:]):
        if manhattan(a, b) != 1:
            return f"{designate(a)} and {designate(b)} are not orthogonally adjacent: the line is broken"
    return None


def _concyclic(points: Sequence[Loc]) -> bool:
    pts = [(c, r) for r, c in points]
    base = None
    for a, b, c in combinations(pts, 3):
        if (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]) != 0:
            base = (a, b, c)
            break
    if base is None:
        return False  # all on one straight line: no circle passes through them

    def det(p: tuple[int, int]) -> int:
        rows = [(x * x + y * y, x, y, 1) for x, y in (*base, p)]
        # 4x4 determinant by expansion (integers, exact)
        def d3(m: list[tuple[int, ...]]) -> int:
            return (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
                    - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                    + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))
        total = 0
        for j in range(4):
            minor = [tuple(row[k] for k in range(4) if k != j) for row in rows[1:]]
            total += (-1) ** j * rows[0][j] * d3(minor)
        return total

    return all(det(p) == 0 for p in pts)


def _through_squares(points: Sequence[Loc]) -> bool:
    pts = [(c + 0.0, r + 0.0) for r, c in points]

    def fits(cx: float, cy: float) -> bool:
        lo, hi = 0.0, math.inf
        for x, y in pts:
            dx = max(abs(cx - x) - 0.5, 0.0)
            dy = max(abs(cy - y) - 0.5, 0.0)
            near = math.hypot(dx, dy)
            far = math.hypot(abs(cx - x) + 0.5, abs(cy - y) + 0.5)
            lo, hi = max(lo, near), min(hi, far)
        return lo <= hi

    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    span = max(max(xs) - min(xs), max(ys) - min(ys), 1.0)
    x0, y0 = min(xs) - span, min(ys) - span
    steps = int(3 * span / 0.25) + 1
    for i in range(steps):
        for j in range(steps):
            if fits(x0 + i * 0.25, y0 + j * 0.25):
                return True
    # a straight line through every square is the limit of ever larger circles
    for (ax, ay), (bx, by) in combinations(pts, 2):
        for ox in (-0.45, 0.0, 0.45):
            for oy in (-0.45, 0.0, 0.45):
                p, q = (ax + ox, ay + oy), (bx - ox, by - oy)
                dx, dy = q[0] - p[0], q[1] - p[1]
                norm = math.hypot(dx, dy)
                if norm and all(abs(dy * (x - p[0]) - dx * (y - p[1])) / norm
                                < 0.5 * (abs(dx) + abs(dy)) / norm for x, y in pts):
                    return True
    return False


def hokey_kokey(locs: Sequence[Loc], mode: str = "points") -> str | None:
    if len(locs) < 4:
        return f"the Hokey-Kokey needs at least four dancers ({len(locs)} given)"
    if len(set(locs)) != len(locs):
        return "each dancer of the Hokey-Kokey must be on a separate location"
    ok = _concyclic(locs) if mode == "points" else _through_squares(locs)
    if not ok:
        return ("no circle passes through the centre of every dancer's location" if mode == "points" else
                "no circle passes through every dancer's square")
    return None


# ---------------------------------------------------------------- finding the dances formed on the map now


def detect(positions: dict[str, Loc], adjacent, mode: str = "points", limit: int = 12) -> list[tuple[str, list[str]]]:  # type: ignore[no-untyped-def]
    """The recognised configurations that the Colonists at ``positions`` form now (for the wiki).

    Each is (dance, participants); a Waltz lists its pairs in order, a Conga its line front first.
    Exhaustive for small groups; at most ``limit`` findings of each kind.
    """
    names = sorted(positions)
    found: list[tuple[str, list[str]]] = []
    # Square: two rows (or columns) two apart, two or more columns two apart, all filled
    at: dict[Loc, str] = {}
    for n in names:
        at.setdefault(positions[n], n)
    squares = []
    for (r, c) in sorted(at):
        for transpose in (False, True):
            def cell(i: int, line: int) -> Loc:
                return (r + 2 * line, c + 2 * i) if not transpose else (r + 2 * i, c + 2 * line)
            k = 0
            while cell(k, 0) in at and cell(k, 1) in at:
                k += 1
            if k >= 2:
                squares.append([at[cell(i, line)] for line in (0, 1) for i in range(k)])
    for group in squares[:limit]:
        found.append(("square", group))
    # Conga: chains of four or more orthogonal neighbours (each chain once, from its smaller end)
    congas: list[list[str]] = []

    def extend(chain: list[Loc]) -> None:
        if len(congas) >= limit:
            return
        grew = False
        r, c = chain[-1]
        for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if n in at and n not in chain:
                grew = True
                extend(chain + [n])
        if not grew and len(chain) >= 4 and chain[0] < chain[-1]:
            congas.append([at[x] for x in chain])

    for start in sorted(at):
        extend([start])
    for line in congas[:limit]:
        found.append(("conga", line))
    # Waltz: adjacent pairs, grouped by nearness, three or more pairs
    free = set(names)
    pairs = []
    for a in names:
        if a not in free:
            continue
        for b in names:
            if b != a and b in free and positions[a] != positions[b] and adjacent(positions[a], positions[b]):
                pairs.append((a, b))
                free -= {a, b}
                break
    groups: list[list[tuple[str, str]]] = []
    for pair in pairs:
        near = [g for g in groups if any(min(manhattan(positions[x], positions[y]) for x in pair for y in q) <= 5
                                         for q in g)]
        merged = [pair] + [p for g in near for p in g]
        groups = [g for g in groups if g not in near] + [merged]
    for g in groups:
        if len(g) >= 3:
            found.append(("waltz", [n for pair in sorted(g) for n in pair]))
    # Hokey-Kokey: four on one circle (points only: exact), every circle once
    if mode == "points" and len(at) <= 16:
        seen: set[frozenset[Loc]] = set()
        locs = sorted(at)
        for quad in combinations(locs, 4):
            if len([q for q in seen if set(quad) <= q]):
                continue
            if _concyclic(list(quad)):
                circle = [x for x in locs if _concyclic(list(quad[:3]) + [x])]
                seen.add(frozenset(circle))
                found.append(("hokey-kokey", [at[x] for x in circle]))
                if len(seen) >= limit:
                    break
    return found
