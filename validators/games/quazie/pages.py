"""Wiki pages of the First Dynasty of Quazie: the Positions drawn as SVG with the Muffins in them, the
Muffins' columns, the items, and the rules' colours and Hands. Plain functions; everything typed is escaped,
for HTML in the drawing (``esc``, the drawing in a ``<div>`` of its own so that Markdown leaves it alone) and
for Markdown as well in the tables and lines around it (``md``).
"""

from __future__ import annotations

from typing import Any

from ...engine import Page, State, repealed
from ...timeutil import format_time
from .._markup import cap, esc, html_block, legible_width, md
from .._timefmt import day, time_md, when
from .common import (
    AWESOME_SENTENCE,
    DEATH_EGG,
    IT,
    MORNINGTON,
    R_FLAVOURS,
    R_HANDS,
    R_POSITION,
    ROBOT,
    ROME,
    STANDARD,
    ends_awesomely,
    in_limbo,
    it_muffin,
    leader,
    muffins,
    number_order,
    rule_number,
    stat,
    victory_at_one,
)
from .hands import HTML_COLOURS, POCKET, calendar_year, colour_of, hand_moves, legitimate, pocketed, standing_shoo
from .roles import role_word
from .stuff import item_column

FLAVOUR_FILL = {"Plain": "#f5e6c8", "Banana": "#ffe135", "Fruity": "#ff8fa3", "Robot": "#b0b7c3",
                "Devils Food": "#5b3a29", "Tropical": "#4cd4a0", "Blind": "#222222"}
DARK = {"Devils Food", "Blind"}
W, ROW, LEFT, BOX = 800, 44, 210, 380


def _muffin_dots(names: list[dict[str, Any]], x0: float, y: float, it: str | None, boss: str | None,
                 words: tuple[str, str] = ("GRAND POOBAH", "Stuffs")) -> list[str]:
    """The Muffins at one place; ``words``: the leader's title and the Stuffs' label as the game now writes them
    (an Ascension Address may have replaced them, rule 9)."""
    title, stuffs = words
    out = []
    for i, p in enumerate(names):
        x = x0 + 22 + i * 44
        flavour = str(stat(p, "flavour", ""))
        fill = FLAVOUR_FILL.get(flavour, "#dddddd")
        ink = "#ffffff" if flavour in DARK else "#000000"
        ring = ' stroke="#d62828" stroke-width="3"' if p["name"] == it else ' stroke="#333" stroke-width="1"'
        out.append(f'<g><title>{esc(p["name"])}: {esc(flavour)}, {esc(stat(p, "stuff", 0))} {esc(stuffs)}'
                   f'{", It" if p["name"] == it else ""}{", " + esc(title) if p["name"] == boss else ""}</title>'
                   f'<circle cx="{x}" cy="{y}" r="17" fill="{fill}"{ring}/>'
                   f'<text x="{x}" y="{y + 4}" font-size="9" text-anchor="middle" fill="{ink}">'
                   f'{esc(p["name"][:6])}</text></g>')
    return out


def _stuffs(state: State) -> str:
    """The Stuffs' column label as the roster now writes it (rule 9 lets an Ascension Address replace "Stuffs")."""
    stuff = (state.doc("roster").get("stats") or {}).get("stuff") or {}
    return str(stuff.get("label") or "Stuffs")


def positions_svg(state: State) -> str:
    """Positions 9 (top) to 1, Rome between 7 and 8, the Death Egg, Limbo and the empty Mornington Crescent."""
    ms = muffins(state)
    it, boss = it_muffin(state), leader(state)
    words = (state.keyword("leader", "GRAND POOBAH"), _stuffs(state))
    by_pos: dict[str, list[dict[str, Any]]] = {}
    for p in ms:
        pos = str(stat(p, "position", ""))
        by_pos.setdefault("limbo" if in_limbo(pos) else pos, []).append(p)
    height = ROW * 9 + 40
    parts = [(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {height}" width="{W}" height="{height}" '
             f'style="min-width:{legible_width(W)}px" role="img" '
             f'aria-label="The Positions and the {esc(state.keyword("players", "Muffins"))} in them" '
             'font-family="sans-serif">')]
    for i, pos in enumerate(reversed(STANDARD)):
        y = 20 + i * ROW
        special = {"9": " (Mango Tree)", "4": " (Launch Base Zone)", "1": " (victory)"}.get(pos, "")
        fill = "#fff3e0" if pos == "4" else "#eef6ee" if pos == "9" else "#f7f7f7"
        parts.append(f'<rect x="{LEFT}" y="{y}" width="{BOX}" height="{ROW - 6}" fill="{fill}" stroke="#999"/>')
        parts.append(f'<text x="{LEFT - 8}" y="{y + 24}" font-size="13" text-anchor="end">'
                     f'Position {pos}{special}</text>')
        parts.extend(_muffin_dots(by_pos.get(pos, []), LEFT, y + (ROW - 6) / 2, it, boss, words))
    # Rome: drawn between 7 and 8, to the right
    ry = 20 + 1.5 * ROW
    side = LEFT + BOX + 20
    for label, key, y in (("Rome (R)", ROME, ry), ("Death Egg (X)", DEATH_EGG, 20 + 4 * ROW),
                          ("Limbo", "limbo", 20 + 6.5 * ROW)):
        parts.append(f'<rect x="{side}" y="{y}" width="170" height="{ROW - 6}" fill="#eef" stroke="#669" rx="8"/>')
        parts.append(f'<text x="{side + 85}" y="{y - 4}" font-size="12" text-anchor="middle">{label}</text>')
        parts.extend(_muffin_dots(by_pos.get(key, [])[:3], side, y + (ROW - 6) / 2, it, boss, words))
    my = 20 + 8 * ROW
    parts.append(f'<rect x="{side}" y="{my}" width="170" height="{ROW - 6}" fill="#fff" stroke="#aaa" '
                 'stroke-dasharray="4 3" rx="8"/>')
    parts.append(f'<text x="{side + 85}" y="{my + 24}" font-size="11" text-anchor="middle">'
                 f'{esc(MORNINGTON)} (empty)</text>')
    parts.append("</svg>")
    return "".join(parts)


def muffins_table(state: State) -> str:
    """The Muffins' columns. Eight of them are wider than the page's column, so the table scrolls and the browser
    gives its last columns their least width, where a heading of two words broke onto two lines and made the
    heading row twice as tall as the rows under it: those headings keep their words together. The Muffin and the
    Stuffs are headed as game.yaml and the roster now call them (rule 9)."""
    it = it_muffin(state)
    rows = [f"| {cap(md(state.keyword('player', 'Muffin')))} | Position | {md(_stuffs(state))} | Flavour | Tag | "
            "Dance&nbsp;Move | Roles | Note&nbsp;History |",
            "|---|---|---|---|---|---|---|---|"]
    for p in muffins(state):
        rows.append("| " + " | ".join(md(v) for v in (
            p["name"], stat(p, "position", "") or "(blank)", stat(p, "stuff", 0), stat(p, "flavour", ""),
            IT if p["name"] == it else stat(p, "tag", ""), stat(p, "dance_move", ""),
            _roles(state, stat(p, "roles", [])), _listed(stat(p, "notes", []), " ", last=12))) + " |")
    return "\n".join(rows)


def _roles(state: State, values: Any) -> str:
    """A Muffin's Roles (rule 23) as a player reads them: the GRAND POOBAH's role by the title the rules now use
    (rule 9: an Ascension Address may replace it; ``roles.role_word``), the others as stored."""
    return _listed([role_word(state, r) for r in values] if isinstance(values, list) else values, ", ")


def _listed(values: Any, sep: str, last: int | None = None) -> str:
    """A list of a Muffin's stats (roles, the Note History: rules 23 and 24) as one cell. An entry that is not
    text (a hand edit or a proposal's patch put it there; ``nomic check`` reports it) is shown as it is, and so
    is a value that is no list, so that the page is still drawn."""
    if not isinstance(values, list):
        return str(values)
    return sep.join(map(str, values[-last:] if last else values))


def items_table(state: State) -> str:
    items = state.doc("quazie_items")
    new = items.get("new_item")
    olds = items.get("old_items", [])
    lines = [f"This week's item: **{md(new['word'])}?**" if new else "No New Item has been named yet.", ""]
    cols = ([item_column(new["word"])] if new else []) + [item_column(o["word"]) for o in olds]
    if not cols:
        return "\n".join(lines)
    lines += [f"| {cap(md(state.keyword('player', 'Muffin')))} | {md(_stuffs(state))} | "
              + " | ".join(md(c) for c in cols) + " |", "|---" * (len(cols) + 2) + "|"]
    for p in state.doc("roster")["players"]:
        vals = ([stat(p, "stuff", 0)] if new else []) + [o["values"].get(p["name"], 0) for o in olds]
        lines.append(f"| {md(p['name'])} | {md(stat(p, 'stuff', 0))} | " + " | ".join(md(v) for v in vals) + " |")
    return "\n".join(lines)


def colours_table(state: State) -> str:
    rows = ["| Rule | Colour | Legitimate |", "|---|---|---|"]
    for rule in sorted(state.rules.values(), key=lambda r: number_order(r.number)):
        c = colour_of(rule)
        if not c:
            continue
        swatch = (f'<span style="color:{esc(c.lower())}">&#9632;</span> '
                  if c.replace(" ", "").casefold() in HTML_COLOURS else "")
        rows.append(f"| {md(rule.cite())} | {swatch}{md(c)} | {'yes' if legitimate(state, c) else 'no'} |")
    q = state.doc("quazie")
    hands = q.get("hands", {})
    out = "\n".join(rows) if len(rows) > 2 else "No rule has a colour."
    if hands:
        def where(rule: Any) -> str:
            # a Hand's rule as the ruleset names it, linked ("rule 23 Muffin Roles"), not its file name
            found = state.rules.get(str(rule))
            if str(rule) == POCKET:
                return "its Pocket"
            return f"[rule {md(found.cite())}](ruleset.md#{found.id})" if found is not None else md(rule)
        out += "\n\n**The Hands.** " + "; ".join(
            f"{'The' if i == 0 else 'the'} {md(k)} Hand {'is ' if i == 0 else ''}in {where(h.get('rule'))}, "
            f"grabbing “{md(h.get('text'))}”" for i, (k, h) in enumerate(hands.items()))
        era = (q.get("calendar") or {}).get("era") or "D.Q."  # rule 7's Years, or rule 9's A.E. after a win
        alarm = q.get("switcheroo_alarm", "")
        out += f". Switcheroo Alarm: {md(alarm)} {md(era)}"
        now = state.now()
        if now is not None and q.get("calendar") and isinstance(alarm, int) and not isinstance(alarm, bool):
            # rule 7's Calendar at the game's clock, which tells whether the Alarm has passed (rule 22)
            year = calendar_year(state, now)
            if alarm >= year:
                so = "the Alarm has not passed yet"
            elif pocketed(state, hands):
                so = "the Alarm has passed, but no Switcheroo happens while a Hand is in its Pocket"
            else:
                so = (f"the Alarm has passed: the next Hand to move makes a Switcheroo "
                      f"(rule {md(rule_number(state, R_HANDS))})")
            out += (f"; the Calendar was at {year} {md(era)} at the game's clock, {time_md(format_time(now), when)}, "
                    f"so {so}.")
        elif not str(era).endswith("."):  # one full stop ends the sentence: "210 D.Q.", not "D.Q.."
            out += "."
    return out


def hands_duties(state: State) -> str:
    """Rule 22 (seed 003), as of the game's last action: whether a Shoo stands (since when, by whom), and which admin
    may, or must, move a Hand now and why. Empty while rule 22 is repealed (no Hand moves then) or without Hands."""
    if repealed(state, R_HANDS) or not state.doc("quazie").get("hands"):
        return ""
    rule = md(rule_number(state, R_HANDS))
    shoo = standing_shoo(state)
    if shoo is None:
        out = "\n\nNo Shoo stands: no non-admin has posted one since a Hand last moved."
    else:
        posted = f", posted by {md(shoo['by'])} at {time_md(shoo['at'], when)}" if shoo else ""
        out = (f"\n\n**A Shoo stands**{posted}, and no Hand has moved since: the next admin to change the ruleset "
               f"must move a Hand (rule {rule}).")
    now = state.now()
    moves = hand_moves(state, now) if now is not None else []
    for m in moves:
        change = f"for their change to the ruleset ({md(m['by'])}, {time_md(m['at'], when)})"
        how = " The Switcheroo Alarm has passed, so the move is a Switcheroo." if m["switcheroo"] else ""
        if not m["possible"]:
            why = " while the game is in Hiatus" if m["hiatus"] else ""
            out += f" {md(m['admin'])} may move a Hand {change}, but no Hand can move now{why}."
        elif m["owed"]:
            out += (f" **{md(m['admin'])} must move a Hand** before any other action, {change}, made while the Shoo "
                    f"stood.{how}")
        else:
            out += f" {md(m['admin'])} may move a Hand as their next action, {change}.{how}"
    if not moves:
        out += " No admin has a Hand to move now: an admin moves one as the next action after changing the ruleset."
    return out


def pages(state: State) -> list[Page]:
    # the Muffin and the Muffins as game.yaml now calls them: an Ascension Address may replace "Muffin" (rule 9)
    muffin, plural = state.keyword("player", "Muffin"), state.keyword("players", "Muffins")
    # the drawing in a block of its own: an <svg> is not one to Markdown, which would read the names in it
    lines = ["## The Positions", "", html_block(positions_svg(state), "quazie-positions"), "",
             f"Circles are {md(plural)}, filled by flavour; a red ring is It. Hover for details.", "",
             f"## The {md(plural)}", "", muffins_table(state), "",
             "## The Nature of Stuff", "", items_table(state), "",
             "## Colours and Hands", "", colours_table(state) + hands_duties(state), ""]
    winner = victory_at_one(state)
    rule = state.rules.get("position")
    # the rules by their numbers now: an Ascension Address renumbers those it keeps (rule 9)
    position, flavours = rule_number(state, R_POSITION), rule_number(state, R_FLAVOURS)
    if winner:
        met = (f"**{md(winner)}** is the only {md(muffin)} at Position 1 and has met rule {md(position)}'s victory "
               "conditions")
        # rule 13 (seed 003): a Robot Muffin may not declare victory, so having met the conditions wins nothing yet
        robot = next((stat(p, "flavour") == ROBOT for p in muffins(state) if p["name"] == winner), False)
        lines += ["## Victory", "", met + (f", but is Robot flavoured, and a Robot {md(muffin)} may not declare "
                                           f"victory (rule {md(flavours)})." if robot else "."), ""]
    elif rule is not None and rule.meta.get("status") != "repealed" and ends_awesomely(rule):
        lines += ["## Victory", "", (f"Rule {md(position)} ends with “{AWESOME_SENTENCE}”, so being alone at "
                  "Position 1 wins nothing for now."), ""]
    tag_days = state.doc("quazie").get("tag_days", [])
    lines += ["## Tag days", "", ", ".join(time_md(d, day) for d in tag_days) if tag_days else
              "No tag day has been designated; tagging is not possible until one is.", ""]
    return [Page("positions", f"Positions and {plural}", "\n".join(lines), "gamestate/roster.yaml")]
