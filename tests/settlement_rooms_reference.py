"""The Rooms of a Settlement map computed cell by cell, the plain way: the reference the module's
run-based computation (validators/games/settlement/grid.py) is compared with on random maps.

Seed 001, rule "The Settlement": a group of connected Free Locations entirely enclosed by Barriers
is a Room; a Door belongs to every Room it is adjacent to.
"""

from __future__ import annotations

Loc = tuple[int, int]


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


def reference_rooms(rows: tuple[str, ...], legend: tuple[tuple[str, bool, bool], ...], steps: tuple[Loc, ...],
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
