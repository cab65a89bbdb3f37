"""Wiki pages: the map (an SVG of rooms, connections and who and what is where), tokens, quests,
turns and proposals. Plain functions of a state; everything a player typed is escaped."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from datetime import datetime
from html import escape
from typing import Any

from ...engine import Open, Page, State, repealed
from ...timeutil import format_time, parse_time
from .._markup import html_block, legible_width
from .._timefmt import time_md
from . import world as w
from .consent import standing, unanimous
from .order import standard_key, standard_order, turn_order
from .turns import turn_length

SPREAD = 1.4
NO_CLOCK = "2026-11-03T00:00:00Z"  # "now" for a state without a clock (which exits are open)


def _when(state: State) -> datetime | None:
    return state.now()


def _as_of(state: State) -> str:
    """The moment a page's "open", "closed" and "may be ratified" are judged at: the game's clock, the time of its
    last action. A page is drawn from the gamestate, which changes only with an action, so it does not judge at
    the build's time (a wiki built on a Tuesday after Monday's last action shows Brigadoon as on Monday, and says
    so); the next action, a tick included, is judged at its own time."""
    now = _when(state)
    if now is None:
        return "before the game's first action"
    return (f"at the game's clock, {time_md(format_time(now))}: the time of its last action, which may be earlier "
            "than the time you read this")


_MD_UNSAFE = re.compile(r"[&<>\"'\\`*_{}\[\]#|~!]")
_HTML_REFS = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;"}


def _md(value: Any) -> str:
    """A player's text as inline Markdown (a link's text, a heading, a table cell): one line, and every
    character that HTML or Markdown would read as markup written as a character reference."""
    return _MD_UNSAFE.sub(lambda m: _HTML_REFS.get(m.group(), f"&#{ord(m.group())};"), " ".join(str(value).split()))


_HYPHENATED = re.compile(r"[^\s-]*\w-\w[^\s]*")


def _whole_words(text: str) -> str:
    """``text`` (already through ``_md``) with each hyphenated word kept on one line: in a narrow table column on a
    phone, a room linked in a list ("Central Park, Dot-Com Bubble") was broken at its hyphen, "Dot-" ending one line
    and "Com" starting the next, which reads as two names. Words still wrap between them."""
    return _HYPHENATED.sub(lambda m: f'<span style="white-space: nowrap">{m.group()}</span>', text)


def _slugify(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:56].strip("-") or "room"


def room_slugs(names: list[str]) -> dict[str, str]:
    """A distinct page slug for each room name ("Washington, DC" -> "washington-dc"; a clash gets a number)."""
    out: dict[str, str] = {}
    used: set[str] = set()
    for name in names:
        if name in out:
            continue
        base = _slugify(name)
        slug, n = base, 2
        while slug in used:
            slug, n = f"{base}-{n}", n + 1
        used.add(slug)
        out[name] = slug
    return out


# ---------------------------------------------------------------- one index per drawing


@dataclass
class Index:
    """The map arranged by room name, made once per drawing so that a page per room (hundreds in a large
    game) costs a look-up each, not a scan of every list."""

    now: datetime
    rooms: dict[str, dict[str, Any]] = field(default_factory=dict)
    slugs: dict[str, str] = field(default_factory=dict)
    exits: dict[str, list[tuple[str, dict[str, Any]]]] = field(default_factory=dict)
    tolls: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    players: dict[str, list[str]] = field(default_factory=dict)
    player_room: dict[str, Any] = field(default_factory=dict)
    servants: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    servant_room: dict[str, Any] = field(default_factory=dict)
    entities: dict[str, list[str]] = field(default_factory=dict)
    tokens: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # in the room, or carried there
    prizes: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # by destination
    quests: dict[str, list[tuple[dict[str, Any], str]]] = field(default_factory=dict)  # (quest, what the room is)
    synonyms: dict[str, list[str]] = field(default_factory=dict)
    wilderness: str | None = None
    tuesdays: bool = True  # Rule 107 in force (``world.tuesdays_apart``)

    def link(self, name: str, prefix: str = "") -> str:
        """A room's name linked to its page (``prefix`` "rooms/" from the Map page), or just its name."""
        slug = self.slugs.get(name)
        return f"[{_whole_words(_md(name))}]({prefix}{slug}.md)" if slug else _md(name)

    def closed(self, name: str) -> bool:
        """Rule 107: a Tuesdays-only room is connected to nothing on other days."""
        r = self.rooms.get(name)
        return r is None or bool(self.tuesdays and r.get("tuesdays_only") and not w.is_tuesday(self.now))

    def neighbours(self, name: str) -> list[str]:
        """``w.neighbours`` from the index: the rooms connected to this one now, in Standard Order."""
        if self.closed(name):
            return []
        return standard_order({b for b, _ in self.exits.get(name, []) if b != name and not self.closed(b)})


def index(state: State) -> Index:
    ix = Index(now=_when(state) or parse_time(NO_CLOCK), tuesdays=w.tuesdays_apart(state))
    for r in w.rooms(state):
        ix.rooms.setdefault(r["name"], r)
    ix.slugs = room_slugs(list(ix.rooms))
    for name in ix.rooms:
        ix.tolls[name] = w.tolls(state, name)
    for c in state.doc("map")["connections"]:
        a, b = c["between"]
        ix.exits.setdefault(a, []).append((b, c))
        if b != a:
            ix.exits.setdefault(b, []).append((a, c))
    for p in state.doc("roster")["players"]:
        where = p["stats"].get(w.LOCATION)
        ix.player_room[p["name"]] = where
        ix.players.setdefault(where, []).append(p["name"])
    for sv in state.doc("entities")["servants"]:
        ix.servant_room[sv["owner"]] = sv["location"]
        ix.servants.setdefault(sv["location"], []).append(sv)
    for which in w.ENTITIES:
        ix.entities.setdefault(w.entity_location(state, which), []).append(which)
    monkey = w.entity_location(state, "monkey")
    for t in w.tokens(state):
        kind, who = w.carrier(t["location"])
        where = {"room": who, "player": ix.player_room.get(who), "servant": ix.servant_room.get(who)}.get(kind, monkey)
        ix.tokens.setdefault(where, []).append(t)
        if w.is_prize(t):
            ix.prizes.setdefault(t["destination"], []).append(t)
    for q in state.doc("quests")["quests"]:
        for role in ("home", "locate", "goal"):
            ix.quests.setdefault(q[role], []).append((q, role))
    for row in state.doc("tables").get("synonyms", []):
        for word in row:
            if word in ix.rooms:
                ix.synonyms.setdefault(word, []).extend(x for x in row if x != word)
    ix.wilderness = w.savage_wilderness(state)
    return ix


def map_graph(state: State) -> dict[str, Any]:
    """What a map drawing needs: rooms with positions and occupants, and the connections.

    Rooms without ``x``/``y`` in map.yaml are placed on a circle."""
    rooms = w.rooms(state)
    n = max(len(rooms), 1)
    out = []
    for i, r in enumerate(rooms):
        x, y = r.get("x"), r.get("y")
        if x is None or y is None:
            x = 450 + 320 * math.cos(2 * math.pi * i / n)
            y = 270 + 220 * math.sin(2 * math.pi * i / n)
        out.append({"name": r["name"], "x": float(x), "y": float(y), "who": [], "what": [], "room": r})
    by_name = {r["name"]: r for r in out}
    for kind, who in (("player", p) for p in w.player_names(state)):
        loc = w.location_of_player(state, who)
        if loc in by_name:
            by_name[loc]["who"].append(who)
    for s in state.doc("entities")["servants"]:
        if s["location"] in by_name:
            label = s.get("name") or "servant"
            by_name[s["location"]]["who"].append(f"{label} ({s['owner']}'s servant)")
    for which in w.ENTITIES:
        loc = w.entity_location(state, which)
        if loc in by_name:
            by_name[loc]["who"].append(entity_label(which))
    for t in w.tokens(state):
        kind, where = w.carrier(t["location"])
        if kind == "room" and where in by_name:
            by_name[where]["what"].append(t["name"])
    edges = [tuple(c["between"]) for c in state.doc("map")["connections"]]
    return {"rooms": out, "edges": edges}


# the captions under a room (who and what is there) are often crossed by a connection: a halo of the sheet's
# colour under each letter keeps them readable (the wiki gives drawings a light sheet in dark mode as well)
HALO = ' stroke="#f8f8f4" stroke-width="3" stroke-linejoin="round" paint-order="stroke"'


def _short(text: str, most: int) -> str:
    """``text`` cut to at most ``most`` characters, at a word's end where it can be, with an ellipsis (a room's box
    holds about 22 of its name); the whole of it is in the room's tooltip."""
    if len(text) <= most:
        return text
    cut = text[:most - 1]
    return (cut.rsplit(" ", 1)[0] if " " in cut else cut).rstrip(" ,(") + "…"


def render_map_svg(state: State, ix: Index | None = None) -> str:
    ix = ix or index(state)
    g = map_graph(state)
    for r in g["rooms"]:  # map.yaml positions are compact; spread them so labels do not collide
        r["x"], r["y"] = r["x"] * SPREAD, r["y"] * SPREAD
    pos = {r["name"]: (r["x"], r["y"]) for r in g["rooms"]}
    width = max([x for x, _ in pos.values()] + [600]) + 200
    height = max([y for _, y in pos.values()] + [400]) + 140
    now = _when(state)
    parts = [(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="-40 -40 {width:.0f} {height:.0f}" '
             f'width="100%" role="img" aria-label="Map of the rooms and their connections" '
             f'style="font-family: sans-serif; font-size: 11px; min-width: {legible_width(width)}px">')]
    for a, b in g["edges"]:
        if a in pos and b in pos:
            dashed = ix.tuesdays and any((ix.rooms.get(n) or {}).get("tuesdays_only") for n in (a, b))
            live = now is None or (a != b and not ix.closed(a) and not ix.closed(b))  # w.connected, from the index
            dash = ' stroke-dasharray="6 4"' if dashed or not live else ""
            parts.append(f'<line x1="{pos[a][0]:.0f}" y1="{pos[a][1]:.0f}" x2="{pos[b][0]:.0f}" y2="{pos[b][1]:.0f}" '
                         f'stroke="#888" stroke-width="2"{dash}><title>{escape(a)} - {escape(b)}</title></line>')
    for r in g["rooms"]:
        room = r["room"]
        x, y = r["x"], r["y"]
        fill = "#fff"
        if room.get("tax_haven"):
            fill = "#e6f4ea"
        if room.get("high_security"):
            fill = "#fde8e8"
        if room.get("damage", 0) > 0:
            fill = "#fff3cd"
        tolls = ix.tolls.get(room["name"], [])
        tip = [room["name"], f"visits {room.get('visits', 0)}, damage {room.get('damage', 0)}"]
        tip += [f"toll {t['name']} {t['value']}" for t in tolls]
        tip += r["who"] + [f"token: {t}" for t in r["what"]]
        parts.append(f'<g><title>{escape(chr(10).join(tip))}</title>'
                     f'<rect x="{x - 70:.0f}" y="{y - 16:.0f}" width="140" height="32" rx="6" fill="{fill}" '
                     f'stroke="#333"/>'
                     f'<text x="{x:.0f}" y="{y - 2:.0f}" text-anchor="middle" font-weight="bold">'
                     f'{escape(_short(room["name"], 22))}</text>'
                     f'<text x="{x:.0f}" y="{y + 11:.0f}" text-anchor="middle" fill="#555">'
                     f'{escape(_badges(room, tolls))}</text>')
        lines = r["who"] + [f"◆ {t}" for t in r["what"]]
        for i, line in enumerate(lines[:6]):
            parts.append(f'<text x="{x:.0f}" y="{y + 30 + 12 * i:.0f}" text-anchor="middle" fill="#124"{HALO}>'
                         f'{escape(_short(line, 34))}</text>')
        if len(lines) > 6:
            parts.append(f'<text x="{x:.0f}" y="{y + 30 + 72:.0f}" text-anchor="middle" fill="#124"{HALO}>'
                         f'… {len(lines) - 6} more</text>')
        parts.append("</g>")
    parts.append("</svg>")
    return "".join(parts)


def _badges(room: dict[str, Any], tolls: list[dict[str, Any]]) -> str:
    out = [f"v{room.get('visits', 0)}"]
    if room.get("damage"):
        out.append(f"dmg {room['damage']}")
    out += [f"{t['name']} {t['value']}" for t in tolls]
    for flag, label in (("tax_haven", "haven"), ("high_security", "secure"), ("tuesdays_only", "Tuesdays"),
                        ("no_servants", "no servants")):
        if room.get(flag):
            out.append(label)
    return " · ".join(out)


# ifMUD seed, Rules 71, 80, 114 and 155 name these entities "the monkey", "the pieman", "the Magic Omnibus",
# "the robot" and "the kitten": the wiki writes them so, not by their keys in entities.yaml.
_ENTITY_LABELS = {"omnibus": "the Magic Omnibus"}


def entity_label(which: str) -> str:
    """The entity ``which`` (a key of ``world.ENTITIES``) as the rules name it."""
    return _ENTITY_LABELS.get(which, f"the {which}")


def _table(head: list[str], rows: list[list[Any]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        lines.append("| " + " | ".join(_md(c) for c in r) + " |")
    return "\n".join(lines)


def _md_table(head: list[str], rows: list[list[str]]) -> str:
    """A Markdown table of cells already written as Markdown (escaped with ``_md``)."""
    return "\n".join(["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
                     + ["| " + " | ".join(r) + " |" for r in rows])


def render_map(state: State, ix: Index | None = None) -> str:
    ix = ix or index(state)
    wild = ix.wilderness
    rows = []
    for r in standard_order(w.rooms(state), lambda r: r["name"]):
        name = r["name"]
        cname = w.connectivity_name(r)
        rows.append([ix.link(name, "rooms/"), _md(r.get("visits", 0)), _md(r.get("damage", 0)),
                     _md(", ".join(f"{t['name']} {t['value']}" for t in ix.tolls.get(name, []))),
                     ", ".join(ix.link(n, "rooms/") for n in ix.neighbours(name)),
                     _md(cname) if cname != name else ""])
    people = []
    for p in turn_order(w.player_names(state)):
        s = w.servant(state, p) or {}
        people.append([p, w.location_of_player(state, p),
                       f"{s.get('name') or '(unnamed)'} the {s.get('species') or '?'}", s.get("location", "")])
    ents = [[entity_label(k), w.entity_location(state, k)] for k in w.ENTITIES]
    return "\n\n".join([
        ("Rooms and their two-way connections (Rules 14, 25, 39). Dashed lines: Brigadoon's, live only on "
         "Tuesdays, UTC (Rule 107). Hover a room for its visits, damage, tolls, occupants and tokens; each room's "
         f"name in the table below leads to its page. Which connections are live is shown {_as_of(state)}."),
        html_block(render_map_svg(state, ix), "ifmud-map"),
        f"The Savage Wilderness (Rule 122) is **{ix.link(wild, 'rooms/') if wild else '-'}**.",
        "## Rooms", _md_table(["Room", "Visits", "Damage", "Tolls", "Connected to (at the clock)", "Connectivity name"],
                                rows),
        "## Players and servants", _table(["Player", "In", "Servant", "Servant in"], people),
        "## Others", _table(["Who", "In"], ents),
    ])


def _where(state: State, loc: dict[str, Any]) -> str:
    kind, who = w.carrier(loc)
    return {"room": who, "player": f"carried by {who}", "servant": f"carried by {who}'s servant",
            "monkey": "carried by the monkey"}[kind]


def _about(t: dict[str, Any]) -> str:
    """What a token is, besides its name and place: prize, time bomb, role, status ..."""
    extra = []
    if w.is_prize(t):
        extra.append(f"prize {t.get('value', 0)} to {t['destination']}")
    if w.is_time_bomb(t):
        extra.append(f"time bomb, delay {t['delay_hours']} h")
    for k in ("role", "status", "charge", "die", "barred"):
        if k in t:
            extra.append(f"{k} {t[k]}")
    if t.get("protected"):
        extra.append("protected")
    if "quest" in t:
        extra.append(f"quest {t['quest']}")
    return "; ".join(extra)


def render_tokens(state: State) -> str:
    rows = []
    for t in standard_order(w.tokens(state), lambda t: t["name"]):
        rows.append([t["id"], t["name"], _where(state, t["location"]), _about(t)])
    return "Every token and where it is (Rules 54-57).\n\n" + _table(["#", "Token", "Where", "About"], rows)


_FLAGS = (("tax_haven", "r68", "A tax haven: no tolls are paid here"),
          ("high_security", "r74", "High security"),
          ("tuesdays_only", "r107", "Connected to other rooms only on Tuesdays, UTC"),
          ("no_servants", "r36", "No servant may be moved here"),
          ("no_omnibus", "r80", "The Magic Omnibus may not stop here"))


def _flags(state: State, room: dict[str, Any]) -> list[str]:
    """What the room's flags mean, each with the rule that gives it that meaning; a flag whose rule has been
    repealed is still shown (the gamestate keeps it), saying it no longer applies (``engine.repealed``)."""
    out = []
    for flag, rule, text in _FLAGS:
        if room.get(flag):
            number = rule[1:]
            out.append(f"{text} (Rule {number}, repealed: this no longer applies)." if repealed(state, rule)
                       else f"{text} (Rule {number}).")
    return out


def render_room(state: State, room: dict[str, Any], ix: Index) -> str:
    """One room's page: what it is, its exits, who and what is there, and the quests and prizes that concern it."""
    name = room["name"]
    lines = [f"# {_md(name)}", "", "A room of the [Map](../map.md).", ""]
    if room.get("note"):
        lines += [f"> {_md(room['note'])}", ""]
    facts = [f"Visits (Rule 97): {_md(room.get('visits', 0))}; damage (Rule 75): {_md(room.get('damage', 0))}."]
    tolls = ix.tolls.get(name, [])
    if tolls:
        facts.append("Tolls for entering (Rules 43, 78): "
                     + ", ".join(f"{_md(t['name'])} {_md(t['value'])}" for t in tolls) + ".")
    facts += _flags(state, room)
    cname = w.connectivity_name(room)
    if cname != name:
        facts.append(f"Name for connectivity (Rules 76, 121, 129): {_md(cname)}.")
    if ix.synonyms.get(name):
        facts.append(f"Also called (Rule 72): {_md(', '.join(ix.synonyms[name]))}.")
    if name == ix.wilderness:
        facts.append("This is the Savage Wilderness, the room with the fewest visits (Rule 122).")
    arrivals = (state.doc("turn").get("arrivals") or {}).get(name)
    if arrivals:
        who = f" ({_md(', '.join(arrivals))})" if isinstance(arrivals, list) else ""
        facts.append(f"Arrivals this turn, to be counted as visits at its end (Rule 98): "
                     f"{w.arrivals_count(arrivals)}{who}.")
    bubble = state.doc("map").get("bubble")
    if name == w.room_name(state, "bubble") and bubble:
        last = ""
        if bubble.get("last"):
            doubles = w.option(state, "bubble_unpaid_entry_doubles", True)
            last = (f"; the last paid was {_md(bubble['last'])}, who is paid nothing for entering again"
                    + (" (the points double all the same)" if doubles else ""))
        facts.append(f"The next to enter is paid {_md(bubble.get('next', 1))} brownie points (Rule 29){last}.")
    lines += [f"- {f}" for f in facts] + ["", "## Exits", ""]
    exits = sorted(ix.exits.get(name, []), key=lambda e: standard_key(e[0]))
    if exits:
        rows = []
        for other, c in exits:
            if other not in ix.rooms:
                state_now = "not on the map"
            else:
                state_now = "closed (Rule 107: not a Tuesday)" if ix.closed(name) or ix.closed(other) else "open"
            basis = "; ".join(f"letter {_md(b['position'])} of {_md(b['room'])}" for b in c.get("basis") or [])
            there = ", ".join(f"{_md(t['name'])} {_md(t['value'])}" for t in ix.tolls.get(other, []))
            rows.append([ix.link(other), state_now, there, basis])
        lines += [f"Open or closed {_as_of(state)}.", "",
                  _md_table(["To", "At the clock", "Tolls there", "Rests on (Rule 76)"], rows)]
    else:
        lines.append("No connection leads anywhere from here.")
    who = [[_md(p), "player"] for p in turn_order(ix.players.get(name, []))]
    who += [[_md(f"{sv.get('name') or '(unnamed)'} the {sv.get('species') or '?'}"), _md(f"{sv['owner']}'s servant")]
            for sv in ix.servants.get(name, [])]
    who += [[entity_label(e), ""] for e in ix.entities.get(name, [])]
    lines += ["", "## Who is here", ""]
    lines.append(_md_table(["Who", "What"], who) if who else "Nobody.")
    lines += ["", "## Tokens here", ""]
    toks = standard_order(ix.tokens.get(name, []), lambda t: t["name"])
    lines.append(_md_table(["#", "Token", "Where", "About"], [
        [_md(t["id"]), _md(t["name"]), _md("lying here" if w.carrier(t["location"])[0] == "room"
                                           else _where(state, t["location"])), _md(_about(t))] for t in toks])
        if toks else "No token is here.")
    prizes = standard_order(ix.prizes.get(name, []), lambda t: t["name"])
    if prizes:
        lines += ["", "## Prizes to bring here", ""]
        rows = []
        for t in prizes:
            kind, where = w.carrier(t["location"])
            now_at = ix.link(where) if kind == "room" else _md(_where(state, t["location"]))
            rows.append([_md(t["id"]), _md(t["name"]), _md(t.get("value", 0)), now_at])
        lines.append(_md_table(["#", "Token", "Value", "Now"], rows))
    quests = ix.quests.get(name, [])
    if quests:
        lines += ["", "## Quests (Rules 139-142)", ""]
        rows = []
        for q, role in quests:
            stat, amount = next(iter(q["value"].items()))
            rows.append([_md(q["id"]), _md(q.get("name", "")), _md(q["colour"]), role,
                         ix.link(q["home"]), ix.link(q["locate"]), ix.link(q["goal"]),
                         _md(f"{amount} {'brownie points' if stat == 'brownie' else 'Puissance'}")])
        lines.append(_md_table(["#", "Name", "Colour", "This room is its", "Home", "Locate", "Goal", "Value"], rows))
    return "\n".join(lines) + "\n"


def room_pages(state: State, ix: Index | None = None) -> list[Page]:
    """A page per room (``rooms/<slug>``), left out of the navigation: the Map page links to each."""
    ix = ix or index(state)
    return [Page(f"rooms/{ix.slugs[name]}", name, render_room(state, r, ix), "gamestate/map.yaml", listed=False)
            for name, r in ix.rooms.items()]


def render_quests(state: State) -> str:
    doc = state.doc("quests")
    rows = []
    for q in doc["quests"]:
        stat, amount = next(iter(q["value"].items()))
        rows.append([q["id"], q.get("name", ""), q["colour"], q["home"], q["locate"], q["goal"],
                     f"{amount} {'brownie points' if stat == 'brownie' else 'Puissance'}"])
    done = [[_md(c) for c in (h["id"], h.get("name", ""), h["colour"], h["result"], ", ".join(h.get("by", [])))]
            + [time_md(h["at"])] for h in doc.get("history", [])]
    # Rule 141's token is named after the quest's colour; written out, since "<colour>" would read as an HTML tag
    # and vanish from the page
    out = [("The Roster of Quests (Rules 139-142). Carry a quest's primary token, named after its colour ('red "
            "primary'), from its home room to its locate room, where it turns secondary, and on to its goal room."),
           "## On the roster",
           _table(["#", "Name", "Colour", "Home", "Locate", "Goal", "Value"], rows) if rows else "_No quests._"]
    if done:
        out += ["## Finished", _md_table(["#", "Name", "Colour", "Result", "By", "At"], done)]
    return "\n\n".join(out)


def _gifts_cell(gifts: Any) -> str:
    """A player's Dark Gifts; an entry a hand edit left that is not text is shown as it is (the check reports it)."""
    return ", ".join(map(str, gifts)) if isinstance(gifts, list) else str(gifts or "")


def render_turn(state: State) -> str:
    t = state.doc("turn")
    order = turn_order(w.player_names(state))
    rows = [[("▶ " if p == t.get("active") else "") + p, w.location_of_player(state, p), w.tally(state, p),
             w.tally(state, p, w.DEMERITS), w.tally(state, p, w.PUISSANCE),
             _gifts_cell(state.player(p)["stats"].get(w.GIFTS))] for p in order]
    started = time_md(t.get("started"))
    if t.get("over"):
        lines = [f"The last turn was turn {t.get('number')}, {_md(str(t.get('active')))}'s, from {started}."]
    else:
        # Rule 27: a turn ends after 24 hours at the latest; Rule 92: six for a player asleep at the switch
        length = turn_length(state)
        why = "24 hours, Rule 27" if length.total_seconds() == 86400 else "6 hours: asleep at the switch, Rule 92"
        until = ""
        if isinstance(t.get("started"), str):
            try:
                until = f", until {time_md(format_time(parse_time(t['started']) + length))} at the latest ({why})"
            except ValueError:  # a start that is no time: the check reports it
                pass
        lines = [f"Turn {t.get('number')}: **{_md(str(t.get('active')))}**, since {started}{until}.",
                 f"The turn is shown as it stands {_as_of(state)}; a turn that has run out since ends with the next "
                 "action (`nomic tick` too)."]
    if t.get("over"):
        won = w.winners(state)
        shared = " (a shared win: they reached the winning tally at the same moment, Rules 33, 148)" \
            if len(won) > 1 else ""
        lines.append(f"The game is over: {w.names_and([f'**{_md(p)}**' for p in won]) or 'somebody'} "
                     f"won{shared}. Everyone else lost and was removed from the game (Rule 33).")
    if t.get("lost"):
        lines.append(f"Lost, removed from the game and may not rejoin (Rules 16, 33): {_md(', '.join(t['lost']))}.")
    if t.get("honours"):
        lines.append(f"{t['honours']['kind']}: {_md(', '.join(t['honours']['players']))}.")
    lines.append("Done this turn: " + _md(", ".join(t.get("used") or []) or "nothing yet") + ".")
    for key, label in (("passive_turn_takers", "Passive Turn-Takers"), ("asleep", "Asleep at the switch"),
                       ("chatting", "Chatting their life away")):
        if t.get(key):
            lines.append(f"{label}: {_md(', '.join(t[key]))}.")
    # the tallies' headings keep their words together: in a squeezed column "Brownie points" broke onto two lines
    head = ["Player", "In", "Brownie&nbsp;points", "Demerits", "Puissance", "Dark&nbsp;Gifts"]
    return "\n\n".join(lines + ["## Players in turn order (by surname)", _table(head, rows)])


def render_proposals(state: State) -> str:
    now = _when(state) or parse_time("2026-11-01T00:00:00Z")
    doc = state.doc("consent")
    rows = []
    for p in reversed(doc["proposals"]):
        votes = standing(state, p, now) if p["status"] == "pending" else (p.get("closed", {}).get("votes") or {})
        summary = ", ".join(f"{n}: {v}" for n, v in votes.items())
        status = p["status"]
        if status == "pending" and unanimous(state, p, now):
            status += " (may be ratified)"
        # an anchor on each row, where the game's front page links a proposal still being voted on
        anchor = f'<span id="proposal-{int(p["id"])}"></span>'
        rows.append([anchor + _md(p["id"]), _md(p["name"]), _md(p["author"]), time_md(p["posted"]), _md(status),
                     _md(summary)])
    head = ("Proposals need everyone (or everyone in a section) in favour (Rule 10). Votes are counted, and "
            f"whether a proposal may be ratified said, {_as_of(state)}.")
    if doc.get("passive_voters"):
        head += f" Passive Voters: {_md(', '.join(doc['passive_voters']))}."
    table = _md_table(["#", "Name", "By", "Posted", "Status", "Votes"], rows) if rows else "_None yet._"
    return head + "\n\n" + table


def open_votes(state: State, now: datetime | None = None) -> list[Open]:
    """The proposals still being voted on (Rule 10: ratified by unanimous consent), oldest first, for the game's
    front page; each links to its row on the Proposals page. Nothing in it depends on ``now``."""
    return [Open("Proposal", p["id"], str(p["name"]), str(p["author"]), str(p["posted"]), len(p.get("votes") or {}),
                 "proposals", f"proposal-{p['id']}") for p in state.doc("consent")["proposals"]
            if p["status"] == "pending"]


def pages(state: State) -> list[Page]:
    ix = index(state)
    return [
        Page("map", "Map", render_map(state, ix), "gamestate/map.yaml"),
        Page("turn", "Turns and tallies", render_turn(state), "gamestate/turn.yaml"),
        Page("tokens", "Tokens", render_tokens(state), "gamestate/tokens.yaml"),
        Page("quests", "Quests", render_quests(state), "gamestate/quests.yaml"),
        Page("proposals", "Proposals", render_proposals(state), "gamestate/consent.yaml"),
        *room_pages(state, ix),
    ]
