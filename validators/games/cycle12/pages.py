"""Wiki pages drawn from a Cycle 12 state: the world map (SVG), the subrule tree, the phase calendar,
proposals, character sheets, nomsters and judgement.

Everything a player typed is escaped. Rendering is plain functions of a state,
which tests call directly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from html import escape
from typing import Any, Callable

from ...engine import Open, Page, State, repealed
from ...timeutil import format_time, parse_time
from .._markup import html_block, legible_width
from .._timefmt import time_md
from . import phases, proposals, ruletree, world
from .common import (
    CYCLE,
    ITEMS,
    JUSTICE,
    MEDALS,
    NOMSTERS,
    PROPOSALS,
    SHEETS,
    WORLD,
    nomster_label,
    opts,
    phase_of,
    start,
)
from .cycle import RULE_END, RULE_TIME
from .justice import endorsement_count
from .world import reaction_count

TILE = 132
PAD = 24


def esc(value: Any) -> str:
    return escape(str(value), quote=True)


def _cell(value: Any) -> str:
    """A Markdown table cell: escaped, with pipes, newlines and Markdown's own syntax made harmless."""
    return _md(value)


_MD_UNSAFE = re.compile(r"[&<>\"'\\`*_{}\[\]#|~!]")
_HTML_REFS = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;"}


def _md(value: Any) -> str:
    """A player's text as inline Markdown (a link's text, a heading, a table cell): one line, and every
    character that HTML or Markdown would read as markup written as a character reference."""
    return _MD_UNSAFE.sub(lambda m: _HTML_REFS.get(m.group(), f"&#{ord(m.group())};"), " ".join(str(value).split()))


def _loc_link(loc: dict[str, Any], prefix: str = "") -> str:
    """A Markdown link to a location's page: ``prefix`` is "locations/" from the world map, "" between locations."""
    return f"[{_md(loc['name'])}]({prefix}{loc['id']}.md)"


# ---------------------------------------------------------------- one index per drawing

DIRECTIONS = (("north", 0, 1), ("east", 1, 0), ("south", 0, -1), ("west", -1, 0))


@dataclass
class Index:
    """Everything about the World map arranged by location, made once per drawing so that a page per
    location (a thousand in a large game) costs a look-up each, not a scan of every list."""

    by_id: dict[Any, dict[str, Any]] = field(default_factory=dict)
    at: dict[tuple[int, int], dict[str, Any]] = field(default_factory=dict)
    nomsters: dict[Any, list[dict[str, Any]]] = field(default_factory=dict)
    nomster_by_id: dict[Any, dict[str, Any]] = field(default_factory=dict)
    sheets: dict[Any, list[dict[str, Any]]] = field(default_factory=dict)
    announcements: dict[Any, list[dict[str, Any]]] = field(default_factory=dict)
    suggestions: dict[Any, dict[str, Any]] = field(default_factory=dict)
    cards: dict[tuple[int, int], list[tuple[dict[str, Any], dict[str, Any]]]] = field(default_factory=dict)


def index(state: State) -> Index:
    world = state.doc(WORLD)
    ix = Index()
    for loc in world["locations"]:
        ix.by_id.setdefault(loc["id"], loc)
        ix.at.setdefault((loc["x"], loc["y"]), loc)
    for n in state.doc(NOMSTERS)["nomsters"]:
        ix.nomsters.setdefault(n.get("location"), []).append(n)
        ix.nomster_by_id.setdefault(n["id"], n)
    for s in state.doc(SHEETS)["sheets"]:
        ix.sheets.setdefault(s.get("location"), []).append(s)
    for a in world.get("announcements") or []:
        ix.announcements.setdefault(a.get("location"), []).append(a)
    for s in world.get("suggestions") or []:
        if s.get("location") is not None:
            ix.suggestions.setdefault(s["location"], s)
    for p in state.doc(PROPOSALS)["proposals"]:
        for c in p.get("changes", []):
            if c.get("kind") != "textual" and "x" in c and "y" in c:
                ix.cards.setdefault((c["x"], c["y"]), []).append((p, c))
    return ix


def _tag_colour(state: State, loc: dict[str, Any]) -> str:
    tags = state.doc(WORLD)["tags"]
    for t in loc.get("tags", []):
        if tags.get(t, {}).get("colour"):
            return str(tags[t]["colour"])
    return "#eeeeee"


def render_map_svg(state: State, ix: Index | None = None) -> str:
    """The World map: one square tile per location at its coordinates (north up), with its tags, the
    nomsters there (wild hollow, tame filled) and the players' tokens."""
    ix = ix or index(state)
    locs = state.doc(WORLD)["locations"]
    if not locs:
        return '<svg xmlns="http://www.w3.org/2000/svg" width="240" height="60" role="img" ' \
               'aria-label="The World map is empty"><text x="10" y="35">No location exists yet.</text></svg>'
    xs, ys = [loc["x"] for loc in locs], [loc["y"] for loc in locs]
    minx, maxy = min(xs), max(ys)
    width = (max(xs) - minx + 1) * TILE + 2 * PAD
    height = (maxy - min(ys) + 1) * TILE + 2 * PAD
    out = [(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" style="min-width:{legible_width(width)}px" role="img" '
           'aria-label="The World map" '
           'font-family="sans-serif" font-size="11">'),
           '<title>The World map</title>']
    for loc in locs:
        px = PAD + (loc["x"] - minx) * TILE
        py = PAD + (maxy - loc["y"]) * TILE
        out.append(f'<g class="tile" id="tile-{loc["id"]}">')
        out.append(f'<rect x="{px + 2}" y="{py + 2}" width="{TILE - 4}" height="{TILE - 4}" rx="6" '
                   f'fill="{esc(_tag_colour(state, loc))}" fill-opacity="0.45" stroke="#333"/>')
        out.append(f'<text x="{px + 8}" y="{py + 18}" font-weight="bold">{esc(loc["name"])}</text>')
        out.append(f'<text x="{px + 8}" y="{py + 32}" fill="#333">({loc["x"]}, {loc["y"]})</text>')
        tag_text = esc(", ".join(loc.get("tags", [])) or "no tags")
        out.append(f'<text x="{px + 8}" y="{py + 46}" font-style="italic">{tag_text}</text>')
        here = [n for n in ix.nomsters.get(loc["id"], []) if not n.get("ascended")]
        for i, n in enumerate(here[:12]):
            cx, cy = px + 14 + (i % 6) * 19, py + 66 + (i // 6) * 19
            label = n.get("name") or f"wild {n['type']} {n['class']}"
            colour = esc(state.doc(WORLD)["tags"].get(n["type"], {}).get("colour", "#222"))
            fill = colour if not n["wild"] else "white"
            out.append(f'<circle cx="{cx}" cy="{cy}" r="7" fill="{fill}" stroke="#222" stroke-width="1.5">'
                       f'<title>{esc(label)} (#{n["id"]}, {esc(n["type"])} {esc(n["class"])})</title></circle>')
        people = [s["player"] for s in ix.sheets.get(loc["id"], [])]
        if people:
            out.append(f'<text x="{px + 8}" y="{py + TILE - 12}" fill="#7a1f1f">{esc(", ".join(people))}</text>')
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)


def render_map(state: State, ix: Index | None = None) -> str:
    """The World map page: the drawing, then a table of the locations, each linked to its own page."""
    ix = ix or index(state)
    world = state.doc(WORLD)
    locs = world["locations"]
    n = len(locs)
    nd = state.doc(NOMSTERS)
    lines = ["# World map", "",
             (f"{n} locations. Nomster carrying capacity: {2 * n / 3:.2f} (two thirds of the locations); "
             f"nomster index: {nd['index']}. Wild nomsters are white circles, tame ones filled with their "
             "type's colour; players are named in red. Tiles and cards are images in the real game; here "
             "each location records them as paths. Each location's name leads to its page."), "",
             html_block(render_map_svg(state, ix), "cycle12-map"), "",
             "| Location | Coordinates | Tags | Description | Tile | Created by |", "|---|---|---|---|---|---|"]
    for loc in sorted(locs, key=lambda x: (x["y"], x["x"])):
        tags = _cell(", ".join(loc.get("tags", [])))
        lines.append(f"| {_loc_link(loc, 'locations/')} | ({loc['x']}, {loc['y']}) | {tags} | "
                     f"{_cell(loc.get('description', ''))} | {_cell(loc.get('tile', ''))} | "
                     f"{_cell(loc.get('created_by', ''))} |")
    lines += render_first_location(state)
    lines += ["", "## Terrain tags", "", "| Tag | Family | Special | Note |", "|---|---|---|---|"]
    for t, d in world["tags"].items():
        lines.append(f"| {_cell(t)} | {_cell(d.get('family', ''))} | {'yes' if d.get('special') else ''} | "
                     f"{_cell(d.get('note', ''))} |")
    open_s = [s for s in world["suggestions"] if not s.get("fulfilled_by")]
    if open_s:
        lines += ["", "## Unfulfilled suggestions", "", "| # | By | At | Kind | Card |", "|---|---|---|---|---|"]
        for s in open_s:
            card = f"{s.get('name', '')} ({s.get('x', '?')}, {s.get('y', '?')})" if s["kind"] == "card" else ""
            lines.append(f"| {s['id']} | {_cell(s['by'])} | {time_md(s['at'])} | {s['kind']} | {_cell(card)} |")
    if world["announcements"]:
        lines += ["", "## Terraforming and surveying", "",
                  "| # | Kind | By | Location | Family | Tag | Reactions | Status |",
                  "|---|---|---|---|---|---|---|---|"]
        for a in world["announcements"]:
            there = ix.by_id.get(a["location"])
            where = _loc_link(there, "locations/") if there else "?"
            lines.append(f"| {a['id']} | {a['kind']} | {_cell(a['by'])} | {where} | "
                         f"{_cell(a['family'])} | {_cell(a['tag'])} | {reaction_count(a)} | "
                         f"{_cell(a['status'] + (': ' + a['result'] if a.get('result') else ''))} |")
    return "\n".join(lines) + "\n"


def _claim_sheets(c: dict[str, Any]) -> str:
    """A claim's location card (name, coordinates) and its tile and card images, in one cell."""
    sheets = [f"{k} {c[k]}" for k in ("tile", "card") if c.get(k)]
    return _cell(f"{c.get('name', '?')} ({c.get('x', '?')}, {c.get('y', '?')})" + (f"; {'; '.join(sheets)}"
                                                                                   if sheets else ""))


def render_first_location(state: State) -> list[str]:
    """004 Position Constraints: the claims on the first location, those waiting for their reactions (who made
    each, when, which suggestion it answers, its card and tile, the reactions so far and what it still needs)
    and those dropped (when and why). Nothing while there are none."""
    waiting, dropped = world.founding_claims(state), world.dropped_claims(state)
    if not waiting and not dropped:
        return []
    o = opts(state)
    need, days = o["founding_reactions"], o["suggestion_days"]
    suggestions = {s.get("id"): s for s in state.doc(WORLD)["suggestions"]}
    now = state.now()
    lines = ["", "## The first location", "",
             (f"While no location exists, the first one is {_md(o['founding_name'])} at (0, 0), and it is created only "
              f"when its claim (the tile or card answering a suggestion) has {need} reactions, its suggestion being "
              f"then at most {days} days old. Several claims may wait at once: the first to reach {need} is created "
              "and the others are dropped (Position Constraints, Creation Constraints).")]
    if waiting:
        lines += ["", "### Waiting for reactions", "",
                  "| Claim | By | At | Suggestion | Location card and sheets | Reactions | Still needs |",
                  "|---|---|---|---|---|---|---|"]
        for c in waiting:
            s = suggestions.get(c.get("suggestion"))
            reactions = list(c.get("reactions") or ())
            # 004 Position Constraints: the reactions of players who have since left stay on the message
            reactions += [f"{r} (left the game)" for r in c.get("departed_reactions") or ()]
            left = max(need - len(reactions), 0)
            still = f"{left} more reaction{'' if left == 1 else 's'}"
            if s is not None and s.get("at"):
                expires = parse_time(s["at"]) + timedelta(days=days)
                if now is not None and now > expires:
                    # Creation Constraints: reactions may still come, but the claim is dropped at its last one
                    still = f"cannot be created any more: suggestion {_md(s['id'])} is more than {days} days old"
                else:
                    still += f" by {time_md(format_time(expires))}"
            about = f" ({_md(s.get('kind', ''))} by {_md(s.get('by', '?'))})" if s is not None else ""
            lines.append(f"| {_md(c.get('id', 1))} | {_md(c.get('by', '?'))} | {time_md(c.get('at', '?'))} | "
                         f"{_md(c.get('suggestion', '?'))}{about} | {_claim_sheets(c)} | "
                         f"{len(reactions)}{': ' + _cell(', '.join(reactions)) if reactions else ''} | {still} |")
    if dropped:
        lines += ["", "### Dropped claims", "",
                  "Not created; the tile or card each answered with stays submitted, and its suggestion unfulfilled.",
                  "", "| Claim | By | At | Suggestion | Location card and sheets | Reactions | Dropped | Why |",
                  "|---|---|---|---|---|---|---|---|"]
        for c in dropped:
            lines.append(f"| {_md(c.get('id', 1))} | {_md(c.get('by', '?'))} | {time_md(c.get('at', '?'))} | "
                         f"{_md(c.get('suggestion', '?'))} | {_claim_sheets(c)} | {reaction_count(c)} | "
                         f"{time_md(c.get('dropped', '?'))} | {_cell(c.get('because', ''))} |")
    return lines


def _trainer(n: dict[str, Any]) -> str:
    """A nomster's trainer for the pages; one whose trainer left the game is on no team (our reading of 004 Teams)."""
    if n.get("trainer"):
        return str(n["trainer"])
    return f"none ({n['former_trainer']} left the game)" if n.get("former_trainer") else ""


def _nomster_row(n: dict[str, Any]) -> str:
    status = "wild" if n.get("wild") else "tame"
    if n.get("ascended"):
        status += f" ({LEFT_HERE})"
    return (f"| {n['id']} | {_md(n.get('name') or '')} | {status} | {_md(n.get('type', ''))} | "
            f"{_md(n.get('class', ''))} | {_md(n.get('species', ''))} | {_md(_trainer(n))} | "
            f"{_md(n.get('bonded_to') or '')} | {_md(n.get('following') or '')} |")


def render_location(state: State, loc: dict[str, Any], ix: Index) -> str:
    """One location's page: what it is, who and what is there, its neighbours and what was announced about it."""
    tag_defs = state.doc(WORLD)["tags"]
    lid = loc["id"]
    lines = [f"# {_md(loc['name'])}", "",
             f"Location {_md(lid)} of the [World map](../world-map.md), at ({_md(loc['x'])}, {_md(loc['y'])}).", ""]
    if loc.get("description"):
        lines += [f"> {_md(loc['description'])}", ""]
    made = f"Created {time_md(loc.get('created', '?'))} by {_md(loc.get('created_by', '?'))}"
    s = ix.suggestions.get(lid)
    if s is not None:
        made += f", answering suggestion {_md(s['id'])} ({_md(s.get('kind', ''))}) by {_md(s.get('by', '?'))}"
    elif loc.get("suggestion") is not None:
        made += f", answering suggestion {_md(loc['suggestion'])}"
    lines += [f"- **Coordinates:** ({_md(loc['x'])}, {_md(loc['y'])})",
              f"- **Tile:** {_md(loc.get('tile') or 'none')}",
              f"- **Card:** {_md(loc.get('card') or 'none')}",
              f"- {made}.", ""]
    lines += ["## Tags", ""]
    if loc.get("tags"):
        lines += ["| Tag | Family | Note |", "|---|---|---|"]
        for t in loc["tags"]:
            d = tag_defs.get(t, {})
            note = d.get("note", "") + (" (special)" if d.get("special") else "")
            lines.append(f"| {_md(t)} | {_md(d.get('family', '?'))} | {_md(note)} |")
    else:
        lines.append("No tags.")
    lines += ["", "## Neighbours", ""]
    near = [(d, ix.at.get((loc["x"] + dx, loc["y"] + dy))) for d, dx, dy in DIRECTIONS]
    near = [(d, n) for d, n in near if n is not None]
    if near:
        lines += ["| Direction | Location | Coordinates | Tags |", "|---|---|---|---|"]
        for d, n in near:
            lines.append(f"| {d} | {_loc_link(n)} | ({_md(n['x'])}, {_md(n['y'])}) | "
                         f"{_md(', '.join(n.get('tags', [])))} |")
    else:
        lines.append("No location is adjacent yet.")
    people = ix.sheets.get(lid, [])
    lines += ["", "## Players here", ""]
    if people:
        lines += ["| Player | Token | Active nomster |", "|---|---|---|"]
        for p in people:
            status = f" ({LEFT_HERE})" if p.get("ascended") else ""
            active = ix.nomster_by_id.get(p.get("active")) if p.get("active") is not None else None
            lines.append(f"| {_md(p['player'])}{status} | {_md(p.get('token') or '')} | "
                         f"{_md(nomster_label(active)) if active else ''} |")
    else:
        lines.append("No player's character sheet puts them here.")
    noms = ix.nomsters.get(lid, [])
    lines += ["", "## Nomsters here", ""]
    if noms:
        lines += ["| # | Name | Wild or tame | Type | Class | Species | Trainer | Bonded to | Following |",
                  "|---|---|---|---|---|---|---|---|---|"]
        lines += [_nomster_row(n) for n in noms]
    else:
        lines.append("No nomster is here.")
    anns = ix.announcements.get(lid, [])
    if anns:
        lines += ["", "## Terraforming and surveying", "",
                  "| # | Kind | By | At | Family | Tag | Reactions | Status |", "|---|---|---|---|---|---|---|---|"]
        for a in anns:
            status = str(a.get("status", "")) + (": " + str(a["result"]) if a.get("result") else "")
            lines.append(f"| {_md(a['id'])} | {_md(a.get('kind', ''))} | {_md(a.get('by', ''))} | "
                         f"{time_md(a.get('at', ''))} | {_md(a.get('family', ''))} | {_md(a.get('tag', ''))} | "
                         f"{reaction_count(a)} | {_md(status)} |")
    cards = ix.cards.get((loc["x"], loc["y"]), [])
    if cards:
        lines += ["", "## Location change cards", "", "Proposals with a location change card for these coordinates.",
                  "", "| Proposal | Title | Status | Changes |", "|---|---|---|---|"]
        for p, c in cards:
            props = "; ".join(f"{k}: {', '.join(map(str, v)) if isinstance(v, list) else v}"
                              for k, v in c.items() if k not in ("kind", "x", "y"))
            lines.append(f"| {_md(p['id'])} | {_md(p.get('title', ''))} | {_md(status_words(p.get('status', '')))} | "
                         f"{_md(props)} |")
    return "\n".join(lines) + "\n"


def location_pages(state: State, ix: Index | None = None) -> list[Page]:
    """A page per location (``locations/<id>``), left out of the navigation: the World map links to each."""
    ix = ix or index(state)
    return [Page(f"locations/{loc['id']}", str(loc["name"]), render_location(state, loc, ix),
                 f"gamestate/{WORLD}.yaml", listed=False) for loc in ix.by_id.values()]


def render_tree(state: State) -> str:
    """The subrule tree: every active rule under its parent, with its path."""
    sep = opts(state)["separator"]
    live = ruletree.live(state.rules)
    lines = ["# Rules and subrules", "",
             (f"Each subrule is drawn under its parent; its path joins the titles with “{_md(sep)}”, "
             "a mark found in no rule's title."), ""]
    for depth, rid in ruletree.tree(live):
        rule = live[rid]
        try:
            path = ruletree.path_of(live, rid, sep)
        except ValueError:
            path = rule.title
        lines.append(f"{'    ' * depth}- **{_md(rule.title)}** <small>{_md(path)}</small>")
    return "\n".join(lines) + "\n"


def render_calendar(state: State, now: datetime | None = None) -> str:
    """The cycle's phases up to two after the current one. The page is drawn from the gamestate, so the current
    phase is the one at the game's clock (its last action), and the page says so rather than "now", which to a
    reader a week later is two phases back; ``now`` (a test's) is named as the time it is."""
    clock = now is None and state.now() is not None
    now = now or state.now() or start(state)
    s, o = start(state), opts(state)
    current = phases.phase_number(now, s)
    at = (f"At the game's clock, {time_md(now)}, the time of its last action (which may be earlier than the time "
          "you read this)") if clock else f"At {time_md(now)}"
    lines = ["# Phases", "",
             (f"The cycle started at {time_md(s)} and ends at the end of phase {o['last_phase']} "
             f"({phases.phase_name(o['last_phase'])}, which the rules write XXXX), at "
             f"{time_md(phases.cycle_end(s, o['last_phase']))}."), "",
             f"{at}: **{phases.phase_name(current) if current else 'before the cycle'}**.",
             "", "| Phase | From | Until | Days |", "|---|---|---|---|"]
    for n in range(1, max(current, 1) + 3):
        a, b = phases.phase_bounds(n, s)
        mark = (" (at the clock)" if clock else " (at that time)") if n == current else ""
        lines.append(f"| {phases.phase_name(n)}{mark} | {a:%a} {time_md(a)} | {b:%a} {time_md(b)} | "
                     f"{', '.join(d[:3] for d in phases.phase_days(n, s))} |")
    return "\n".join(lines) + "\n"


def render_proposals(state: State, now: datetime | None = None) -> str:
    now = now or state.now() or start(state)
    items = state.doc(PROPOSALS)["proposals"]
    lines = ["# Proposals", "",
             ("A standard proposal votes through the first phase after it was made and is popular with more for "
             "than against; an urgent one votes for two days and is popular with no more than two against."), ""]
    pending = [p for p in items if p["status"] == "pending"]
    lines += ["## Pending proposals {#pending}", ""]  # as the other games' Proposals pages say it
    if not pending:
        lines.append("No proposal is pending.")
    for p in pending:
        f, a = proposals.tally(state, p)
        ends = parse_time(p["ends"])
        state_now = "popular" if proposals.popular(state, p) else "not popular"
        if p.get("edited") and parse_time(p["edited"]) < ends:  # an edit after the end changes nothing
            state_now = "edited: it will not take effect"
        lines += [f"### #{p['id']} {_md(p['title'])} {{#proposal-{p['id']}}}", "",
                  (f"{p['class'].capitalize()}, by {_md(p['author'])}, made {time_md(p['submitted'])} "
                  f"({phases.phase_name(phase_of(state, parse_time(p['submitted'])) or 1)}); "
                  f"voting ends {time_md(p['ends'])}"
                  f"{' (ended)' if ends <= now else ''}. For {f}, against {a}: **{state_now}**."
                  + _past_the_end(state, p, ends)), ""]
        for i, c in enumerate(p.get("changes", []), 1):
            if c["kind"] == "textual":
                sets = ", ".join(f"{_md(k)} {_md(v)}" for k, v in (c.get("options") or {}).items())
                lines.append(f"{i}. Textual change: {_md(c.get('text', '(machine-readable effects only)'))}"
                             + (f" (sets the game's options: {sets})" if sets else ""))
            else:
                props = ", ".join(f"{k} {_md(v)}" for k, v in c.items() if k not in ("kind", "x", "y"))
                lines.append(f"{i}. Location change card for ({c['x']}, {c['y']}): {props}")
        lines.append("")
    done = [p for p in items if p["status"] != "pending"]
    lines += ["## Archive {#archive}", ""]
    if not done:
        lines.append("No proposals resolved yet.")
    else:
        lines += ["| # | Title | Class | Author | Result | For | Against | At |",
                  "|---|---|---|---|---|---|---|---|"]
        for p in reversed(done):
            r = p.get("resolved", {})
            lines.append(f"| {p['id']} | {_cell(p['title'])} | {p['class']} | {_cell(p['author'])} | "
                         f"{_cell(status_words(r.get('result', p['status'])))} | {r.get('for', '')} | "
                         f"{r.get('against', '')} | {time_md(r.get('at', ''))} |")
    return "\n".join(lines) + "\n"


def _past_the_end(state: State, p: dict[str, Any], ends: datetime, show: Callable[[Any], str] = time_md) -> str:
    """A sentence for a pending proposal that will not take effect, or "", its times written by ``show``. 004 The End
    of All Things: nothing takes effect once the cycle is over, so neither does a proposal whose vote ends after the
    end of the last phase (a standard one made in it votes through the phase after). 004 Time repealed: no phase
    begins (``cycle12.phase-begins`` is its event), so no standard proposal's vote ends."""
    cycle = state.doc(CYCLE)
    if cycle.get("ended"):
        return f" The cycle ended {show(cycle['ended_at'])}: it will not take effect."
    if p["class"] == "standard" and repealed(state, RULE_TIME) is not None:
        return " Time is repealed: no phase begins to end its vote, so it stays pending."
    if repealed(state, RULE_END) is not None:
        return ""
    last = opts(state)["last_phase"]
    cycle_end = phases.cycle_end(start(state), last)
    if ends <= cycle_end:
        return ""
    return (f" Its voting ends after the cycle does (the end of {phases.phase_name(last)}, {show(cycle_end)}): it "
            "will not take effect unless a change sets a later last phase.")


def proposal_advice(record: dict[str, Any], before: State, state: State) -> list[str]:
    """``nomic act``'s note on a proposal just made that will not take effect as things stand (``_past_the_end``):
    nothing forbids making it (a standard proposal made in the last phase; any with Time repealed), but its author
    should know before asking for votes."""
    if record.get("action") != proposals.PROPOSE.name:
        return []
    ident = next((o["proposal"] for o in record.get("outcome") or [] if isinstance(o, dict) and "proposal" in o), None)
    made = next((p for p in state.doc(proposals.PROPOSALS)["proposals"] if p["id"] == ident), None)
    if made is None:
        return []
    said = _past_the_end(state, made, parse_time(made["ends"]), lambda t: format_time(_as_time(t)))
    return [f"proposal {ident}:{said}"] if said else []


def _as_time(value: Any) -> datetime:
    return value if isinstance(value, datetime) else parse_time(value)


# a proposal's status as the files keep it (proposals.py), in the words a table shows
_STATUS_WORDS = {"took-effect": "took effect", "not-taken-effect": "did not take effect", "not-popular": "not popular"}


def status_words(status: str) -> str:
    """A proposal's status in words: "took effect", not the file's ``took-effect``."""
    return _STATUS_WORDS.get(status, str(status).replace("-", " "))


# 004 Ascend, our reading (docs/modules/cycle12.md, readings): the ascended have left the map and are at no
# location. The sheet (and the nomster's record) keeps the location they left from, which no rule reads as theirs
# (every rule asks ``has_ascended`` first); the pages say that they left from there, not that they are there.
LEFT_HERE = "ascended: left the map here"


def left_the_map_from(place: str) -> str:
    return f"left the map (from {place})"


def render_sheets(state: State) -> str:
    """Character sheets as records: what each sheet must show (the drawn sheet is linked when given)."""
    locs = {loc["id"]: loc["name"] for loc in state.doc(WORLD)["locations"]}
    medals = {m["id"]: m for m in state.doc(MEDALS)["medals"]}
    noms = {n["id"]: n for n in state.doc(NOMSTERS)["nomsters"]}
    items = state.doc(ITEMS)["items"]
    points = {p["name"]: p["stats"].get("gooderhose", 0) for p in state.doc("roster")["players"]}
    lines = ["# Character sheets", "",
             ("In the real game a character sheet is a hand-drawn image; here it is a record of what the rules "
             "require it to show, kept up to date by the engine (self-updating), with the image's path if one "
             "was submitted."), "",
             "| Player | Token | Location | Gooderhose | Items | Medal box | Bond (type) | Active nomster | Sheet |",
             "|---|---|---|---|---|---|---|---|---|"]
    for s in state.doc(SHEETS)["sheets"]:
        owned = [f"{i['kind']} #{i['id']}" for i in items if i["owner"] == s["player"]]
        box = ", ".join(medals[m]["name"] for m in s.get("medals", []) if m in medals)
        bond = f"{noms[s['bonded']].get('name', s['bonded'])} ({s.get('type')})" if s.get("bonded") in noms else ""
        active = noms[s["active"]].get("name", "") if s.get("active") in noms else ""
        status = " (ascended)" if s.get("ascended") else ""
        place = locs.get(s.get('location'), 'no location')
        if s.get("ascended"):  # the location kept is the one left (see left_the_map_from)
            place = left_the_map_from(place)
        lines.append(f"| {_cell(s['player'])}{status} | {_cell(s.get('token', ''))} | "
                     f"{_cell(place)} | {points.get(s['player'], 0)} | "
                     f"{_cell(', '.join(owned))} | {_cell(box)} | {_cell(bond)} | {_cell(active)} | "
                     f"v{s.get('version', 1)} {_cell(s.get('image', ''))} |")
    reqs = state.doc(SHEETS).get("transcriptions", [])
    if reqs:
        lines += ["", "## Transcriptions", "", "Never authoritative.", "",
                  "| # | Sheet | Submitter | Requested | Due | Status | Text |", "|---|---|---|---|---|---|---|"]
        for r in reqs:
            status = r["status"] + (" (late)" if r.get("late") else "")
            lines.append(f"| {r['id']} | {_cell(r['sheet'])} | {_cell(r['submitter'])} | {time_md(r['requested'])} | "
                         f"{time_md(r['due'])} | {status} | {_cell(r.get('text', ''))} |")
    lines += ["", "## Medals", "", "| Medal | Symbol | Condition | Quantity | Held by |", "|---|---|---|---|---|"]
    for m in medals.values():
        held = [s["player"] for s in state.doc(SHEETS)["sheets"] if m["id"] in s.get("medals", [])]
        lines.append(f"| {_cell(m['name'])} | {_cell(m['symbol'])} | {_cell(m['condition'])} | {m['quantity']} | "
                     f"{_cell(', '.join(held))} |")
    return "\n".join(lines) + "\n"


def render_nomsters(state: State) -> str:
    locs = {loc["id"]: loc["name"] for loc in state.doc(WORLD)["locations"]}
    lines = ["# Nomsters", "",
             "A tame nomster's card is an image in the real game; here its record holds what the card shows.", "",
             "| # | Name | Species | Type | Class | Where | Trainer | Bonded to | Following |",
             "|---|---|---|---|---|---|---|---|---|"]
    for n in state.doc(NOMSTERS)["nomsters"]:
        name = "wild" if n["wild"] else n.get("name", "")
        place = locs.get(n['location'], '?')
        if n.get("ascended"):
            name += " (ascended)"
            place = left_the_map_from(place)
        lines.append(f"| {n['id']} | {_cell(name)} | {_cell(n.get('species', ''))} | {_cell(n['type'])} | "
                     f"{_cell(n['class'])} | {_cell(place)} | {_cell(_trainer(n))} | "
                     f"{_cell(n.get('bonded_to', ''))} | {_cell(n.get('following', ''))} |")
    return "\n".join(lines) + "\n"


def render_justice(state: State) -> str:
    doc = state.doc(JUSTICE)
    # Judgement → Requests for Justice: the abbreviation the headings use is spelled out once, and an empty list
    # says so rather than leaving the page bare
    lines = ["# Judgement", "", f"Judge: **{_md(doc.get('judge') or 'none')}**.", "",
             "Each Request for Justice (RFJ) names a statement, or a question, for the Judge to rule on; a ruling may "
             "be put to a vote of confidence. Newest first.", ""]
    if doc["candidates"]:
        lines += ["Candidates this week: " + ", ".join(
            f"{_md(c['player'])} ({endorsement_count(c)} 👍)" for c in doc["candidates"]), ""]
    if not doc["rfjs"]:
        lines += ["No Request for Justice has been made yet.", ""]
    for r in reversed(doc["rfjs"]):
        lines += [f"## RFJ {r['id']}: {_md(r['statement'])}", "",
                  f"{'Question' if r['question'] else 'Statement'} by {_md(r['by'])}, {time_md(r['at'])}.", ""]
        for ruling in r["rulings"]:
            c = ruling.get("confidence")
            vote = f" Vote of confidence: {c['status']}." if c else ""
            lines.append(f"- {_md(ruling['judgement'])} — {_md(ruling['by'])}, {time_md(ruling['at'])} "
                         f"({ruling['status']}).{vote} {_md(ruling.get('reasoning', ''))}")
        lines.append("")
    return "\n".join(lines) + "\n"


def pages(state: State) -> list[Page]:
    ix = index(state)
    return [
        Page("world-map", "World map", render_map(state, ix), "gamestate/cycle12_world.yaml"),
        Page("subrules", "Subrule tree", render_tree(state), "ruleset/"),
        Page("phases", "Phases", render_calendar(state), "game.yaml"),
        Page("cycle12-proposals", "Proposals", render_proposals(state), "gamestate/cycle12_proposals.yaml"),
        Page("sheets", "Character sheets", render_sheets(state), "gamestate/cycle12_sheets.yaml"),
        Page("nomsters", "Nomsters", render_nomsters(state), "gamestate/cycle12_nomsters.yaml"),
        Page("judgement", "Judgement", render_justice(state), "gamestate/cycle12_justice.yaml"),
        *location_pages(state, ix),
    ]


def open_votes(state: State, now: datetime | None = None) -> list[Open]:
    """The pending proposals (004 Lifecycle: voted on until their class's end), oldest first, for the game's front
    page; each links to its place on the Proposals page. Nothing in it depends on ``now``."""
    return [Open("Proposal", p["id"], str(p["title"]), str(p["author"]), str(p["submitted"]),
                 len(p.get("votes") or {}), "cycle12-proposals", f"proposal-{p['id']}")
            for p in state.doc(PROPOSALS)["proposals"] if p["status"] == "pending"]
