"""Wiki pages: the map (an SVG of rooms, connections and who and what is where), tokens, quests,
turns and proposals. Plain functions of a state; everything a player typed is escaped."""

from __future__ import annotations

import math
from datetime import datetime
from html import escape
from typing import Any

from ...engine import Page, State
from ...timeutil import parse_time
from . import world as w
from .consent import standing, unanimous
from .order import standard_order, turn_order


SPREAD = 1.4


def _when(state: State) -> datetime | None:
    return state.now()


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
            by_name[loc]["who"].append({"omnibus": "the Magic Omnibus"}.get(which, f"the {which}"))
    for t in w.tokens(state):
        kind, where = w.carrier(t["location"])
        if kind == "room" and where in by_name:
            by_name[where]["what"].append(t["name"])
    edges = [tuple(c["between"]) for c in state.doc("map")["connections"]]
    return {"rooms": out, "edges": edges}


def render_map_svg(state: State) -> str:
    g = map_graph(state)
    for r in g["rooms"]:  # map.yaml positions are compact; spread them so labels do not collide
        r["x"], r["y"] = r["x"] * SPREAD, r["y"] * SPREAD
    pos = {r["name"]: (r["x"], r["y"]) for r in g["rooms"]}
    width = max([x for x, _ in pos.values()] + [600]) + 200
    height = max([y for _, y in pos.values()] + [400]) + 140
    now = _when(state)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="-40 -40 {width:.0f} {height:.0f}" '
             f'width="100%" role="img" aria-label="Map of the rooms and their connections" '
             f'style="font-family: sans-serif; font-size: 11px">']
    for a, b in g["edges"]:
        if a in pos and b in pos:
            dashed = any((w.room(state, n) or {}).get("tuesdays_only") for n in (a, b))
            live = now is None or w.connected(state, a, b, now)
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
        tolls = w.tolls(state, room["name"])
        tip = [room["name"], f"visits {room.get('visits', 0)}, damage {room.get('damage', 0)}"]
        tip += [f"toll {t['name']} {t['value']}" for t in tolls]
        tip += r["who"] + [f"token: {t}" for t in r["what"]]
        parts.append(f'<g><title>{escape(chr(10).join(tip))}</title>'
                     f'<rect x="{x - 70:.0f}" y="{y - 16:.0f}" width="140" height="32" rx="6" fill="{fill}" '
                     f'stroke="#333"/>'
                     f'<text x="{x:.0f}" y="{y - 2:.0f}" text-anchor="middle" font-weight="bold">'
                     f'{escape(room["name"][:26])}</text>'
                     f'<text x="{x:.0f}" y="{y + 11:.0f}" text-anchor="middle" fill="#555">'
                     f'{escape(_badges(room, tolls))}</text>')
        lines = r["who"] + [f"◆ {t}" for t in r["what"]]
        for i, line in enumerate(lines[:6]):
            parts.append(f'<text x="{x:.0f}" y="{y + 30 + 12 * i:.0f}" text-anchor="middle" fill="#124">'
                         f'{escape(line[:34])}</text>')
        if len(lines) > 6:
            parts.append(f'<text x="{x:.0f}" y="{y + 30 + 72:.0f}" text-anchor="middle">… {len(lines) - 6} more</text>')
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


def _table(head: list[str], rows: list[list[Any]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        lines.append("| " + " | ".join(escape(str(c)).replace("|", "&#124;") for c in r) + " |")
    return "\n".join(lines)


def render_map(state: State) -> str:
    wild = w.savage_wilderness(state)
    rows = []
    for r in standard_order(w.rooms(state), lambda r: r["name"]):
        rows.append([r["name"], r.get("visits", 0), r.get("damage", 0),
                     ", ".join(f"{t['name']} {t['value']}" for t in w.tolls(state, r["name"])) or "",
                     ", ".join(w.neighbours(state, r["name"], _when(state) or parse_time("2026-11-03T00:00:00Z"))),
                     w.connectivity_name(r) if w.connectivity_name(r) != r["name"] else ""])
    people = []
    for p in turn_order(w.player_names(state)):
        s = w.servant(state, p) or {}
        people.append([p, w.location_of_player(state, p), f"{s.get('name') or '(unnamed)'} the {s.get('species') or '?'}",
                       s.get("location", "")])
    ents = [[k, w.entity_location(state, k)] for k in w.ENTITIES]
    return "\n\n".join([
        "Rooms and their two-way connections (Rules 14, 25, 39). Dashed lines: Brigadoon's, live only on "
        "Tuesdays (Rule 107). Hover a room for its visits, damage, tolls, occupants and tokens.",
        render_map_svg(state),
        f"The Savage Wilderness (Rule 122) is **{escape(wild or '-')}**.",
        "## Rooms", _table(["room", "visits", "damage", "tolls", "connected to (now)", "connectivity name"], rows),
        "## Players and servants", _table(["player", "in", "servant", "servant in"], people),
        "## Others", _table(["who", "in"], ents),
    ])


def _where(state: State, loc: dict[str, Any]) -> str:
    kind, who = w.carrier(loc)
    return {"room": who, "player": f"carried by {who}", "servant": f"carried by {who}'s servant",
            "monkey": "carried by the monkey"}[kind]


def render_tokens(state: State) -> str:
    rows = []
    for t in standard_order(w.tokens(state), lambda t: t["name"]):
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
        rows.append([t["id"], t["name"], _where(state, t["location"]), "; ".join(extra)])
    return "Every token and where it is (Rules 54-57).\n\n" + _table(["#", "token", "where", "about"], rows)


def render_quests(state: State) -> str:
    doc = state.doc("quests")
    rows = []
    for q in doc["quests"]:
        stat, amount = next(iter(q["value"].items()))
        rows.append([q["id"], q.get("name", ""), q["colour"], q["home"], q["locate"], q["goal"],
                     f"{amount} {'brownie points' if stat == 'brownie' else 'Puissance'}"])
    done = [[h["id"], h.get("name", ""), h["colour"], h["result"], ", ".join(h.get("by", [])), h["at"]]
            for h in doc.get("history", [])]
    out = ["The Roster of Quests (Rules 139-142). Carry the '<colour> primary' token from home to locate, where "
           "it turns secondary, and on to the goal.", "## On the roster",
           _table(["#", "name", "colour", "home", "locate", "goal", "value"], rows) if rows else "_No quests._"]
    if done:
        out += ["## Finished", _table(["#", "name", "colour", "result", "by", "at"], done)]
    return "\n\n".join(out)


def render_turn(state: State) -> str:
    t = state.doc("turn")
    order = turn_order(w.player_names(state))
    rows = [[("▶ " if p == t.get("active") else "") + p, w.location_of_player(state, p), w.tally(state, p),
             w.tally(state, p, w.DEMERITS), w.tally(state, p, w.PUISSANCE),
             ", ".join(state.player(p)["stats"].get(w.GIFTS) or [])] for p in order]
    lines = [f"Turn {t.get('number')}: **{escape(str(t.get('active')))}**, since {t.get('started')}."]
    if t.get("over"):
        lines.append(f"The game is over: **{escape(t['over']['winner'])}** won.")
    if t.get("honours"):
        lines.append(f"{t['honours']['kind']}: {escape(', '.join(t['honours']['players']))}.")
    lines.append("Done this turn: " + escape(", ".join(t.get("used") or []) or "nothing yet") + ".")
    for key, label in (("passive_turn_takers", "Passive Turn-Takers"), ("asleep", "Asleep at the switch"),
                       ("chatting", "Chatting their life away")):
        if t.get(key):
            lines.append(f"{label}: {escape(', '.join(t[key]))}.")
    return "\n\n".join(lines + ["## Players in turn order (by surname)",
                                _table(["player", "in", "brownie points", "demerits", "Puissance", "Dark Gifts"], rows)])


def render_proposals(state: State) -> str:
    now = _when(state) or parse_time("2026-11-01T00:00:00Z")
    doc = state.doc("consent")
    rows = []
    for p in reversed(doc["proposals"]):
        votes = standing(state, p, now) if p["status"] == "pending" else (p.get("closed", {}).get("votes") or {})
        summary = ", ".join(f"{n}: {v}" for n, v in votes.items())
        status = p["status"]
        if status == "pending" and unanimous(state, p, now):
            status += " (may be ratified now)"
        rows.append([p["id"], p["name"], p["author"], p["posted"], status, summary])
    head = "Proposals need everyone (or everyone in a section) in favour (Rule 10)."
    if doc.get("passive_voters"):
        head += f" Passive Voters: {escape(', '.join(doc['passive_voters']))}."
    return head + "\n\n" + (_table(["#", "name", "by", "posted", "status", "votes"], rows) if rows else "_None yet._")


def pages(state: State) -> list[Page]:
    return [
        Page("map", "Map", render_map(state), "gamestate/map.yaml"),
        Page("turn", "Turns and tallies", render_turn(state), "gamestate/turn.yaml"),
        Page("tokens", "Tokens", render_tokens(state), "gamestate/tokens.yaml"),
        Page("quests", "Quests", render_quests(state), "gamestate/quests.yaml"),
        Page("proposals", "Proposals", render_proposals(state), "gamestate/consent.yaml"),
    ]
