"""Wiki pages of the Settlement: the map drawn as an SVG grid (legend, Colonists, Rooms), the Stockpile.

Rendering is plain functions of the state (``render_map_svg``, ``render_map_page``,
``render_stockpile``) that tests call directly; every name a player chose is escaped, for HTML in the
drawing (``esc``, the drawing in a ``<div>`` of its own so that Markdown leaves it alone) and for Markdown
as well in the tables and lines around it (``md``).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from ...engine import Page, State, repealed
from ...problems import counted
from ...timeutil import parse_time
from .._markup import article, cap, esc, html_block, legible_width, md
from .._timefmt import when
from . import configs
from .common import beings, handbook, is_outsider, opts, royal, the_map, where
from .grid import column_letters, designate

CELL = 14
DEFAULT_COLOUR = "#dddddd"
ROOM_COLOURS = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#9a6324"]


def _colour(entry: dict[str, Any]) -> str:
    c = str(entry.get("colour", ""))
    return c if len(c) == 7 and c.startswith("#") else DEFAULT_COLOUR


def render_map_svg(state: State) -> str:
    """The map as an SVG grid: one square a location, coloured by the legend; Rooms outlined; Colonists as dots."""
    m = the_map(state)
    doc = state.doc("map")
    legend = doc["legend"]
    left, top = 28, 16
    width = left + m.width * CELL + 4
    height = top + m.height * CELL + 4
    out = [(f'<svg xmlns="http://www.w3.org/2000/svg" class="settlement-map" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" style="min-width:{legible_width(width)}px" role="img" '
           f'aria-label="The Settlement map, {m.width} by {m.height}">')]
    out.append('<g font-family="monospace" font-size="9" fill="#555">')
    for c in range(m.width):
        if c % 2 == 0:
            out.append(f'<text x="{left + c * CELL + CELL / 2:.0f}" y="{top - 4}" text-anchor="middle">'
                       f'{column_letters(c)}</text>')
    for r in range(m.height):
        if r % 2 == 0:
            out.append(f'<text x="{left - 3}" y="{top + r * CELL + CELL - 3}" text-anchor="end">{r}</text>')
    out.append("</g>")
    out.append('<g shape-rendering="crispEdges">')
    for r, row in enumerate(m.rows):
        c = 0
        while c < len(row):  # one rectangle for each run of the same character
            end = c
            while end + 1 < len(row) and row[end + 1] == row[c]:
                end += 1
            entry = legend.get(row[c], {})
            span = designate((r, c)) + (f"-{designate((r, end))}" if end > c else "")
            out.append(f'<rect x="{left + c * CELL}" y="{top + r * CELL}" width="{(end - c + 1) * CELL}" '
                       f'height="{CELL}" fill="{_colour(entry)}"><title>{span}: {esc(entry.get("name", row[c]))}'
                       '</title></rect>')
            c = end + 1
    out.append("</g>")
    # Rooms: each room's outline, one colour a room
    for i, room in enumerate(m.rooms()):
        colour = ROOM_COLOURS[i % len(ROOM_COLOURS)]
        segs = []
        for (r, c) in room:
            x, y = left + c * CELL, top + r * CELL
            if (r - 1, c) not in room:
                segs.append(f"M{x},{y}h{CELL}")
            if (r + 1, c) not in room:
                segs.append(f"M{x},{y + CELL}h{CELL}")
            if (r, c - 1) not in room:
                segs.append(f"M{x},{y}v{CELL}")
            if (r, c + 1) not in room:
                segs.append(f"M{x + CELL},{y}v{CELL}")
        out.append(f'<path class="room" d="{"".join(sorted(segs))}" fill="none" stroke="{colour}" '
                   f'stroke-width="2"><title>Room {i + 1}: {counted(len(room), "location")}</title></path>')
    # Colonists
    by_place: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for p in beings(state, inert=True):
        loc = where(p)
        if loc is not None and m.inside(loc):
            by_place.setdefault(loc, []).append(p)
    for (r, c), people in sorted(by_place.items()):
        cx, cy = left + c * CELL + CELL / 2, top + r * CELL + CELL / 2
        names = ", ".join(p["name"] for p in people)
        outsider = all(is_outsider(p) for p in people)
        fill = "#ffffff" if not outsider else "#ffd54f"
        label = people[0]["name"][:1].upper() + ("+" if len(people) > 1 else "")
        out.append(f'<g class="colonist"><circle cx="{cx:.1f}" cy="{cy:.1f}" r="{CELL / 2 - 1}" fill="{fill}" '
                   f'stroke="#000" stroke-width="1"/><text x="{cx:.1f}" y="{cy + 3:.1f}" font-size="9" '
                   f'font-family="sans-serif" text-anchor="middle">{esc(label)}</text>'
                   f'<title>{designate((r, c))}: {esc(names)}</title></g>')
    out.append("</svg>")
    return "".join(out)


def render_legend(state: State) -> str:
    # Barrier (rule 2.2: what shuts a Room) and Construction (rule 2.5: what may be pulled down); the invariants
    # hold both flags to the rules' lists, so the page may show them as the legend has them
    rows = ["| | Character | Meaning | Empty / Occupied | Barrier | Construction |", "|---|---|---|---|---|---|"]
    for ch, entry in state.doc("map")["legend"].items():
        swatch = (f'<svg width="14" height="14"><rect width="14" height="14" fill="{_colour(entry)}" '
                  f'stroke="#333"/></svg>')
        rows.append(f"| {swatch} | <code>{md(ch)}</code> | {md(entry['name'])} | {md(entry.get('state', ''))} | "
                    f"{'yes' if entry.get('barrier') else ''} | {'yes' if entry.get('construction') else ''} |")
    return "\n".join(rows)


def _words(state: State) -> tuple[str, str, str]:
    """The Colonist, the Colonists and the Expedition Leader as the game now calls them (game.yaml's keywords,
    which an Ascension Address may have replaced: seed 001 1.9), written for Markdown."""
    return (md(state.keyword("player", "Colonist")), md(state.keyword("players", "Colonists")),
            md(state.keyword("leader", "Expedition Leader")))


def apart(state: State) -> dict[str, tuple[str, str]]:
    """Seed 001 2.1 Royal Blood: the Expedition Leader is no Colonist for the dynastic rules while it stands
    (``royal``), though the core rules count them (Quorum, votes): why, for the wiki's front page, roster and their
    page. Nothing once it is repealed."""
    boss = royal(state)
    if boss is None:
        return {}
    rule = state.rules.get("royal-blood")
    player = state.keyword("player", "Colonist")
    return {boss: (f"the {state.keyword('leader', 'Expedition Leader')}, by {rule.cite() if rule else 'Royal Blood'} "
                   f"not {article(player)} {player} for the dynastic rules",
                   f"no dynastic rule reads or changes their stats, which stand as the roster holds them: they are "
                   f"not on the map, never hungry or stressed, take no {player}'s action and are not counted for "
                   f"Victory (the core rules count them: Quorum, votes)")}


def _labels(state: State, *stats: str) -> list[str]:
    """The roster's column labels of ``stats``, written for Markdown: an Address replacing a keyword renames a label
    holding it (seed 001 1.9), and the table's headings follow as the roster's do; a stat without one, its key."""
    defs = state.doc("roster").get("stats") or {}
    return [md((defs.get(s) or {}).get("label") or s.capitalize()) for s in stats]


def render_colonists(state: State) -> str:
    m = the_map(state)
    # seed 001 2.9 Hunger names a Colonist at 4 Hunger or more Starving; repealed, nobody is
    starving = float("inf") if repealed(state, "hunger") else handbook(state)["hunger"]["starving"]
    place, *rest = _labels(state, "location", "energy", "stress", "hunger", "deaths", "job")
    rows = [f"| {cap(_words(state)[0])} | {place} | Indoors | {' | '.join(rest)} |",
            "|---|---|---|---|---|---|---|---|"]
    for p in beings(state, inert=True):
        s = p["stats"]
        loc = where(p)
        inside = ""
        if loc is not None and m.inside(loc):
            rooms = [i + 1 for i, room in enumerate(m.rooms()) if loc in room]
            inside = "Room " + ", ".join(map(str, rooms)) if rooms else "Outside"
        hunger = f"{s.get('hunger', 0)}" + (" (Starving)" if int(s.get("hunger", 0)) >= starving else "")
        who = md(p["name"]) + (" (Outsider)" if is_outsider(p) else "")
        rows.append(f"| {who} | {md(s.get('location', ''))} | {inside} | {s.get('energy', '')} | "
                    f"{s.get('stress', '')} | {hunger} | {s.get('deaths', '')} | "
                    f"{md(s.get('job', '')) if not is_outsider(p) else ''} |")
    return "\n".join(rows)


def render_rooms(state: State) -> str:
    m = the_map(state)
    rooms = m.rooms()
    if not rooms:
        return "There are no Rooms."
    rows = ["| Room | Locations | Span | Who is in it |", "|---|---|---|---|"]
    for i, room in enumerate(rooms):
        people = [p["name"] for p in beings(state, inert=True) if where(p) in room]
        first, last = min(room), max(room)
        rows.append(f"| {i + 1} | {len(room)} | {designate(first)} to {designate(last)} | "
                    f"{md(', '.join(people)) or '—'} |")
    return "\n".join(rows)


def render_formations(state: State) -> str:
    """The recognised configurations the Colonists form right now (a reader's aid; declaring is an action)."""
    m = the_map(state)
    positions = {p["name"]: where(p) for p in beings(state) if where(p) is not None}
    found = configs.detect(positions, m.adjacent, opts(state)["hokey_circle"])  # type: ignore[arg-type]
    if not found:
        return "No recognised dance configuration stands on the map right now."
    rows = [f"| Configuration | {cap(_words(state)[1])} |", "|---|---|"]
    for kind, names in found:
        rows.append(f"| {md(kind)} | {md(', '.join(names))} |")
    return "\n".join(rows)


def render_dances(state: State) -> str:
    colony = state.doc("colony")
    dances = colony.get("dances", [])
    out = []
    if dances:
        out += ["| Dance | Called by | At | Status | Configuration | Participants |", "|---|---|---|---|---|---|"]
        clock = state.now()
        hours = handbook(state)["dance"]["hours"]
        for d in dances:
            status = d["status"]
            if status == "open" and clock is not None and clock - parse_time(d["opened"]) >= timedelta(hours=hours):
                status = f"over (no configuration within {counted(hours, 'hour')})"
            out.append(f"| {d['id']} | {md(d['by'])} | {md(when(d['opened']))} | {md(status)} | "
                       f"{md(d.get('kind', ''))} | {md(', '.join(d.get('participants', [])))} |")
    else:
        out.append("No dance has been called yet.")
    victory = colony.get("victory")
    if victory:
        out.append(f"\n**Victory** at {md(when(victory['at']))}: {md(', '.join(victory['winners']))} "
                   f"({md(victory['how'])}).")
    return "\n".join(out)


def render_map_page(state: State) -> str:
    m = the_map(state)
    boss = royal(state)  # seed 001 2.1 Royal Blood: while it stands the Leader is no Colonist
    player, players, title = _words(state)
    parts = [
        (f"The map is {m.width} locations wide and {m.height} deep; row 0 is the surface. Rooms are computed from "
        f"the map (never stored) and outlined; each dot is {article(player)} {player} (yellow: an Outsider). "
        "Hover a square for its designation."),
        "",
        html_block(render_map_svg(state), "settlement-map-wrap"),
        "",
        f"## {cap(players)}",
        "",
        render_colonists(state),
        "",
        f"{md(boss)} is the {title} and, by Royal Blood, not {article(player)} {player}." if boss else "",
        "",
        "## Rooms",
        "",
        render_rooms(state),
        "",
        "## Legend",
        "",
        render_legend(state),
        "",
        "## Dances",
        "",
        render_dances(state),
        "",
        "Configurations on the map now:",
        "",
        render_formations(state),
        "",
    ]
    return "\n".join(parts)


def render_stockpile(state: State) -> str:
    items = state.doc("stockpile")["items"]
    rows = ["| Good | Amount |", "|---|---:|"]
    for name, n in items.items():
        rows.append(f"| {md(name)} | {n} |")
    total = sum(items.values())
    return ("The Colony Stockpile: every task and Construction takes from it or adds to it, and nothing in it "
            f"may go below zero. {counted(total, 'good')} in all.\n\n" + "\n".join(rows) + "\n")


def pages(state: State) -> list[Page]:
    if "map" not in state.docs:
        return []
    return [
        Page("settlement", "The Settlement", render_map_page(state), "gamestate/map.yaml"),
        Page("stockpile", "Stockpile", render_stockpile(state), "gamestate/stockpile.yaml"),
    ]
