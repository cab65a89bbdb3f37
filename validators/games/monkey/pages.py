"""Wiki pages of the Monkey dynasty: the Line as a picture, the barrel, the Dance, the last dance step by step.

Everything is drawn in plain functions from the state (tests call them
directly); pictures are SVG made here, each in a ``<div>`` of its own so that
Markdown leaves it alone, with every name escaped for HTML there (``esc``) and
for Markdown as well everywhere else (``md``: table cells, headings, lists).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ...engine import Page, State
from .._markup import article, cap, esc, html_block, legible_width, md
from .._timefmt import time_md, when
from .awesomeness import deadline
from .options import options
from .world import BARE

HAT_COLOURS = {"Blue": "#3b6fd8", "Green": "#2e9e4f", "Yellow": "#e3c22b", "Red": "#d23b3b"}
SQUARE = 118  # width of one chalk square
FUR = "#8a5a2b"


def _monkey(state: State) -> str:
    """The Monkey as the game now calls em: game.yaml's ``player`` keyword, which an Ascension Address may have
    replaced (seed 001 1.9, "any keywords"), written for Markdown."""
    return md(state.keyword("player", "Monkey"))


def _monkeys(state: State) -> str:
    return md(state.keyword("players", "Monkeys"))


# the stats a dance changes, in the summary's order, with the labels the example's roster gives them
DANCE_STATS = {"bananas": "Bananas", "dance_moves": "Dance Moves", "hammer": "Hammer", "hat": "Hat",
               "status": "Status"}


def _labels(state: State) -> dict[str, str]:
    """The roster's column labels, written for Markdown: an Address replacing a keyword renames a label holding it
    (seed 001 1.9), and the tables' headings follow as the roster's do."""
    defs = state.doc("roster").get("stats") or {}
    return {k: md((defs.get(k) or {}).get("label") or default)
            for k, default in {**DANCE_STATS, "awesomeness": "Awesomeness"}.items()}


def line_name(state: State) -> str:
    """The Monkey Line as the ruleset names it now: an Address replacing "Monkey" renames the rule too."""
    rule = state.rules.get("the-monkey-line")
    return rule.title if rule is not None else "The Monkey Line"


def _stats(state: State) -> dict[str, dict[str, Any]]:
    return {p["name"]: p for p in state.doc("roster")["players"]}


def _held(state: State) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for item in state.doc("monkey_items")["items"]:
        if item.get("held_by"):
            out.setdefault(item["held_by"], []).append(item)
    return out


def _lying(state: State) -> dict[int, list[dict[str, Any]]]:
    out: dict[int, list[dict[str, Any]]] = {}
    for item in state.doc("monkey_items")["items"]:
        if item.get("lies_at"):
            out.setdefault(int(item["lies_at"]), []).append(item)
    return out


def _monkey_figure(x: float, y: float, name: str, hat: str, npc: bool, items: list[str]) -> str:
    """One Monkey: a head, a hat (or none when Bare), eir name and eir items."""
    parts = [(f'<g class="monkey"><title>{esc(name)}{" (NPC)" if npc else ""}: hat {esc(hat)}'
             f'{"; items: " + esc(", ".join(items)) if items else ""}</title>')]
    parts.append(f'<circle cx="{x:.0f}" cy="{y:.0f}" r="13" fill="{FUR}"/>')
    parts.append(f'<circle cx="{x - 4:.0f}" cy="{y - 2:.0f}" r="2" fill="#fff"/>'
                 f'<circle cx="{x + 4:.0f}" cy="{y - 2:.0f}" r="2" fill="#fff"/>')
    if hat != BARE:
        colour = HAT_COLOURS.get(hat, "#888")
        parts.append(f'<path d="M{x - 11:.0f},{y - 10:.0f} L{x + 11:.0f},{y - 10:.0f} L{x + 5:.0f},{y - 24:.0f} '
                     f'L{x - 5:.0f},{y - 24:.0f} Z" fill="{colour}" stroke="#333" stroke-width="0.8"/>')
    weight = ' font-style="italic"' if npc else ""
    parts.append(f'<text x="{x:.0f}" y="{y + 28:.0f}" text-anchor="middle" font-size="12"{weight}>{esc(name)}</text>')
    for i, item in enumerate(items):
        parts.append(f'<text x="{x:.0f}" y="{y + 42 + 12 * i:.0f}" text-anchor="middle" font-size="10" '
                     f'fill="#7a4b00">&#9670; {esc(item)}</text>')
    parts.append("</g>")
    return "".join(parts)


def squares_to_draw(occupied: Iterable[int], lying: Iterable[int], *, first: int = 40) -> list[int]:
    """Which squares the picture shows: the first ones, every occupied or item square, and one empty after.

    A far square (an item thrown to position 100000) is drawn after a gap instead of drawing every square.
    """
    marked = set(occupied) | set(lying)
    last = max(marked | {0}) + 1
    return sorted(marked | set(range(1, min(last, first) + 1)) | {last})


def line_svg(state: State) -> str:
    """The Monkey Line: numbered chalk squares, the Monkeys in them with their hats, held and lying items."""
    players = _stats(state)
    held = _held(state)
    lying = _lying(state)
    positions = {int(e["at"]): list(e["monkeys"]) for e in state.doc("monkey_line")["positions"]}
    squares = squares_to_draw(positions, lying)
    occupied_last = max(list(positions) + [0])
    rows = max([len(v) for v in positions.values()] + [1])
    item_rows = max([len(held.get(m, [])) for ms in positions.values() for m in ms] + [0])
    height = 40 + rows * (70 + 12 * item_rows) + 12 * max([len(v) for v in lying.values()] + [0]) + 20
    gaps = sum(1 for a, b in itertools.pairwise(squares) if b > a + 1)
    width = len(squares) * SQUARE + gaps * 24 + 10
    out = [(f'<svg xmlns="http://www.w3.org/2000/svg" class="monkey-line" viewBox="0 0 {width} {height}" '
           f'width="{width}" height="{height}" style="min-width:{legible_width(width)}px" role="img" '
           f'aria-label="{esc(line_name(state))}">')]
    x0 = 5
    previous = 0
    for p in squares:
        if p > previous + 1:
            out.append(f'<text x="{x0 + 4}" y="{height / 2:.0f}" font-size="16" fill="#999">&#8230;</text>')
            x0 += 24
        previous = p
        empty = not positions.get(p)
        unbalanced = (empty and p < occupied_last) or len(positions.get(p, [])) > 1
        stroke = "#c0392b" if unbalanced else "#999"
        out.append(f'<rect x="{x0}" y="5" width="{SQUARE - 6}" height="{height - 10}" rx="6" fill="#f7f4ec" '
                   f'stroke="{stroke}" stroke-dasharray="{"4 3" if empty else "none"}"/>')
        out.append(f'<text x="{x0 + 8}" y="22" font-size="13" font-weight="bold" fill="#555">{p}</text>')
        y = 62
        for name in sorted(positions.get(p, [])):
            player = players.get(name, {"stats": {}})
            items = [i["name"] for i in held.get(name, [])]
            out.append(_monkey_figure(x0 + (SQUARE - 6) / 2, y, name, str(player["stats"].get("hat", "")),
                                      bool(player.get("kind")), items))
            y += 70 + 12 * item_rows
        for i, item in enumerate(lying.get(p, [])):
            out.append(f'<text x="{x0 + (SQUARE - 6) / 2:.0f}" y="{height - 18 - 12 * i}" text-anchor="middle" '
                       f'font-size="10" font-style="italic" fill="#7a4b00"><title>lying here</title>'
                       f'&#9671; {esc(item["name"])}</text>')
        x0 += SQUARE
    out.append("</svg>")
    return html_block("".join(out), "monkey-line-picture")


def strip_svg(line: list[str], changed: Iterable[str] = ()) -> str:
    """A small picture of the Line as a list of names (a balanced Line: the first is in position 1)."""
    w = 100
    changed = set(changed)
    width = len(line) * w + 10
    out = [(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} 44" width="{width}" height="44" '
           f'style="min-width:{legible_width(width)}px" role="img" aria-label="the Line">')]
    for i, name in enumerate(line):
        x0 = 5 + i * w
        fill = "#fff3c4" if name in changed else "#f7f4ec"
        out.append(f'<rect x="{x0}" y="4" width="{w - 4}" height="36" rx="4" fill="{fill}" stroke="#999"/>'
                   f'<text x="{x0 + 4}" y="16" font-size="9" fill="#777">{i + 1}</text>'
                   f'<text x="{x0 + (w - 4) / 2:.0f}" y="31" text-anchor="middle" font-size="11">{esc(name)}</text>')
    out.append("</svg>")
    return html_block("".join(out))


def line_page(state: State) -> str:
    players = _stats(state)
    held = _held(state)
    line = state.doc("monkey_line")
    from .world import World

    monkey = _monkey(state)
    balanced = f"Unbalanced: any {monkey} may balance it" if World.load(state).is_unbalanced() else "balanced"
    out = [f"The Line is **{balanced}**.", "",
           (f"{md(line_name(state))}, top (position 1) first. A hat shows each {monkey}'s hat (none when Bare); "
            f"NPCs' names are in italics; &#9670; marks an item {article(monkey)} {monkey} holds, &#9671; one lying "
            "in a square. A red square is what makes the Line Unbalanced."), "", line_svg(state), ""]
    label = _labels(state)
    out.append(f"| Position | {cap(monkey)} | {label['hat']} | {label['hammer']} | {label['bananas']} | "
               f"{label['dance_moves']} | Items |")
    out.append("|---:|---|---|---|---:|---:|---|")
    for entry in line["positions"]:
        for name in entry["monkeys"]:
            s = players.get(name, {"stats": {}})["stats"]
            items = ", ".join(md(i["name"]) for i in held.get(name, []))
            npc = " (NPC)" if players.get(name, {}).get("kind") else ""
            out.append(f"| {entry['at']} | {md(name)}{npc} | {md(s.get('hat', ''))} | {md(s.get('hammer', ''))} | "
                       f"{s.get('bananas', '')} | {s.get('dance_moves', '')} | {items} |")
    lying = _lying(state)
    if lying:
        out += ["", "Items lying in the Line: " + "; ".join(
            f"{md(i['name'])} in position {p}" for p in sorted(lying) for i in lying[p]) + "."]
    out += ["", "## The barrel", "", barrel_markdown(state)]
    return "\n".join(out) + "\n"


def barrel_markdown(state: State) -> str:
    barrel = state.doc("monkey_line").get("barrel", [])
    if not barrel:
        return "The barrel is empty."
    held = _held(state)
    rows = [f"| {cap(_monkey(state))} | In since | Held until (All Danced Out) | Items |", "|---|---|---|---|"]
    for b in barrel:
        items = ", ".join(md(i["name"]) for i in held.get(b["name"], []))
        rows.append(f"| {md(b['name'])} | {time_md(b.get('since', ''))} | {time_md(b.get('held_until', ''))} | "
                    f"{items} |")
    return "\n".join(rows)


def dance_page(state: State) -> str:
    dance = state.doc("monkey_dance")
    players = _stats(state)
    monkey = _monkey(state)
    out = [f"Each {monkey}'s section of the Dance, the moves that may be put in one, and the dances so far.", "",
           "## Sections", "",
           f"| {cap(monkey)} | {_labels(state)['dance_moves']} | Section | Complexity | Last changed |",
           "|---|---:|---|---:|---|"]
    from .moves import parse_entry

    for s in dance["sections"]:
        total = 0
        for t in s["moves"]:
            try:
                total += parse_entry(t, dance["moves"]).complexity
            except ValueError:
                pass
        dm = players.get(s["monkey"], {"stats": {}})["stats"].get("dance_moves", "")
        over = " (over: may be trimmed)" if isinstance(dm, int) and total > dm else ""
        moves = "; ".join(md(m) for m in s["moves"]) or "(none)"
        out.append(f"| {md(s['monkey'])} | {dm} | {moves} | {total}{over} | {time_md(s.get('updated', ''))} |")
    out += ["", "## The moves", "", "| Move | Complexity | What it does |", "|---|---:|---|"]
    for m in dance["moves"]:
        out.append(f"| {md(m['name'])} | {m['complexity']} | {md(m.get('description', ''))} |")
    kit = state.doc("monkey_kit")
    out += ["", "## Hammers, in list order", "", ", ".join(md(h["name"]) for h in kit["hammers"]) + ".",
            "", "## The Hat List", "", " &rarr; ".join(md(h) for h in kit["hats"]) + " (then back to the first)."]
    history = dance.get("history", [])
    out += ["", "## Dances so far", ""]
    if history:
        out += ["| Dance | When | Conducted by |", "|---:|---|---|"]
        out += [f"| {d['number']} | {time_md(d['at'])} | {md(d['by'])} |" for d in history]
    else:
        out.append("No dance yet.")
    return "\n".join(out) + "\n"


def steps_markdown(steps: list[dict[str, Any]], monkey: str = "Monkey", labels: dict[str, str] | None = None) -> str:
    """A dance told step by step from its recorded outcome (the action's ``outcome`` or ``last_dance.steps``);
    ``monkey``: the word for a Monkey and ``labels`` the roster's column labels, written for Markdown (``_monkey``,
    ``_labels``).

    ``last_dance.steps`` is a record whose schema asks only for objects, and a proposal's patch may rewrite it:
    a step this cannot read (a Line that is no list of names, a change that is no pair) is shown as it is
    recorded, and the page is still drawn."""
    out: list[str] = []
    told = _Told()
    for step in steps:
        kept = (told.n, list(told.line), list(told.barrel))
        try:
            out += _step_lines(step, told, monkey, labels)
        except (AttributeError, KeyError, IndexError, TypeError, ValueError):
            told.n, told.line, told.barrel = kept
            out += [f"**A step as recorded:** {_recorded(step)}", ""]
    return "\n".join(out) + "\n"


@dataclass
class _Told:
    """What the steps told so far leave: the moves counted, the Line and the barrel."""

    n: int = 0
    line: list[str] = field(default_factory=list)
    barrel: list[str] = field(default_factory=list)


def _step_lines(step: dict[str, Any], told: _Told, monkey: str = "Monkey",
                labels: dict[str, str] | None = None) -> list[str]:
    out: list[str] = []
    before = list(told.line)
    if "line" in step:
        told.line = list(step["line"])
    if "barrel" in step:
        told.barrel = list(step["barrel"])
    line, barrel = told.line, told.barrel
    if "summary" in step:
        return [summary_markdown(step, monkey, labels), ""]
    if "dance" in step:
        out += [f"Dance {step['dance']}, conducted by {md(step.get('conductor', ''))}. The order rolled: "
                + ", ".join(md(m) for m in step.get("order", [])) + ".", "", "Where everyone stood:", "",
                strip_svg(line), ""]
        if barrel:
            out += ["In the barrel: " + ", ".join(md(b) for b in barrel) + ".", ""]
        return out
    if "monkey" in step:
        told.n += 1
        cx = f" (complexity {step['complexity']})" if "complexity" in step else ""  # its unit said
        out.append(f"**{told.n}. {md(step['monkey'])}: {md(step.get('move', ''))}{cx}** &mdash; "
                   f"{md(step.get('result', ''))}")
    elif "before" in step:
        out.append(f"**Before the first move: {md(step['before'])}**")
    else:
        out.append(f"**After the dance: {md(step.get('after', ''))}**")
    out.append("")
    out += [f"- {md(e)}" for e in step.get("events", [])]
    out.append("")
    if "line" in step:
        moved = [m for i, m in enumerate(line) if i >= len(before) or before[i] != m]
        out += [strip_svg(line, moved), ""]
    if "barrel" in step:
        out += ["In the barrel: " + (", ".join(md(b) for b in barrel) or "nobody") + ".", ""]
    return out


def summary_markdown(step: dict[str, Any], monkey: str = "Monkey", labels: dict[str, str] | None = None) -> str:
    """The table of what a whole dance changed (its record's last step); ``monkey`` and ``labels`` as in
    ``steps_markdown``."""
    labels = {k: (labels or {}).get(k) or v for k, v in DANCE_STATS.items()}
    out = ["**What the dance changed**", ""]
    monkeys = step.get("monkeys", {})
    if monkeys:
        out += [f"| {cap(monkey)} | " + " | ".join(labels.values()) + " |", "|---|" + "---|" * len(labels)]
        for name, diff in monkeys.items():
            cells = [_change(diff[k]) if k in diff else "" for k in labels]
            out.append(f"| {md(name)} | " + " | ".join(cells) + " |")
    else:
        out.append(f"No {monkey}'s stats changed.")
    items = step.get("items", {})
    if items:
        out += ["", "Items: " + "; ".join(f"{md(n)} {_change(v, 'from {} to {}')}" for n, v in items.items()) + "."]
    return "\n".join(out)


def _change(value: Any, form: str = "{} &rarr; {}") -> str:
    """A change the dance's summary records as [before, after]. The document keeps the steps as they were
    recorded, which a proposal's patch may rewrite (its schema asks only for objects): a value that is no such
    pair is shown as it is, so the page is still drawn."""
    if isinstance(value, (list, tuple)) and len(value) == 2:
        return form.format(md(value[0]), md(value[1]))
    return _recorded(value)


def _recorded(value: Any) -> str:
    """A recorded value shown as it is: text as text, anything else as JSON."""
    return md(value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str))


def last_dance_page(state: State) -> str:
    last = state.doc("monkey_dance").get("last_dance")
    if not last:
        return "No dance has been conducted yet.\n"
    head = (f"The last Dance, number {last['number']}, conducted by {md(last['by'])} at {time_md(last['at'])}, move by "
            "move as its action file records it (earlier dances are in the History). Highlighted names moved.\n\n")
    return head + steps_markdown(last["steps"], _monkey(state), _labels(state))


def pages(state: State) -> list[Page]:
    if "monkey_line" not in state.docs:
        return []
    out = [Page("monkey-line", line_name(state), line_page(state), "gamestate/monkey_line.yaml"),
           Page("dance", "The Dance", dance_page(state), "gamestate/monkey_dance.yaml"),
           Page("last-dance", "The last Dance", last_dance_page(state), "gamestate/monkey_dance.yaml")]
    posts = state.doc("monkey_awesomeness")["posts"]
    if posts:
        out.append(Page("awesomeness", "Awesomeness", awesomeness_page(state), "gamestate/monkey_awesomeness.yaml"))
    return out


def _post_deadline(post: dict[str, Any]) -> str:
    """When the post's forty-eight hours end (seed 000, "Awesomeness"), as a ``<time>`` for the page; "" when its
    submission time cannot be read (the schema reports that)."""
    end = deadline(post)
    return time_md(end) if end is not None else ""


def _count_cell(post: dict[str, Any]) -> str:
    """The count that decides the post: the ``tally`` taken at the end of its 48 hours, or, for a post closed
    without one (a patch dated it in the past), the count taken at closing; a pending post not yet counted
    shows when it will be."""
    tally, closed = post.get("tally"), post.get("closed") or {}
    if isinstance(tally, dict):
        return (f"{md(tally.get('for', ''))} FOR against Quorum {md(tally.get('quorum', ''))}, "
                f"counted {time_md(tally.get('at', ''))}")
    if closed.get("for") is not None:
        return f"{md(closed.get('for'))} FOR against Quorum {md(closed.get('quorum', ''))}, when closed"
    if post.get("status") == "pending":
        due = _post_deadline(post)
        return f"to be counted at {due}" if due else "to be counted 48 hours after it was posted"
    return ""


def _result_cell(post: dict[str, Any], more_than: bool | None) -> str:
    status, closed = post.get("status"), post.get("closed") or {}
    if status != "pending":
        return f"{md(status)}, closed {time_md(closed['at'])}" if closed.get("at") else md(status)
    tally = post.get("tally")
    if isinstance(tally, dict) and more_than is not None:
        try:
            fors, q = int(tally["for"]), int(tally["quorum"])
        except (KeyError, TypeError, ValueError):
            return "counted; awaiting closing"
        passes = fors > q if more_than else fors >= q
        return f"counted; awaiting closing (it {'passes' if passes else 'fails'})"
    return "pending: open to votes" if not isinstance(tally, dict) else "counted; awaiting closing"


def awesomeness_page(state: State) -> str:
    """Every Awesomeness Post with its votes, the count taken at the end of its 48 hours (the ``tally``), and
    its result; then the standings."""
    try:
        more_than: bool | None = options(state.config)["awesomeness_pass"] == "more-than-quorum"
    except ValueError:  # a bad option: the invariants report it
        more_than = None
    needs = {True: "more FOR votes than Quorum", False: "at least Quorum FOR votes", None: "FOR votes against Quorum"}
    rule = state.rules.get("awesomeness")  # seed 000, Awesomeness: named as this game's ruleset names it
    monkey, monkeys = _monkey(state), _monkeys(state)
    head = [(f"{'Rule ' + rule.cite() if rule is not None else 'Awesomeness'}: {monkeys} vote for 48 hours. "
             f"When they end, the FOR votes of the active {monkeys} "
             f"are counted against their Quorum (a post passes with {needs[more_than]}); closing the post "
             f"afterwards applies that count and gives its {monkey} one Awesomeness if it passed."), ""]
    rows = ["| Post | By | About | Posted | FOR | AGAINST | Count at the end of the 48 hours | Result |",
            "|---:|---|---|---|---:|---:|---|---|"]
    for p in state.doc("monkey_awesomeness")["posts"]:
        fors = sum(1 for v in p["votes"].values() if v == "FOR")
        against = sum(1 for v in p["votes"].values() if v == "AGAINST")
        rows.append(f"| {p['id']} | {md(p['author'])} | {md(p['about'])} | {time_md(p['submitted'])} | {fors} | "
                    f"{against} | {_count_cell(p)} | {_result_cell(p, more_than)} |")
    board = ["", f"| {cap(monkey)} | {_labels(state)['awesomeness']} |", "|---|---:|"]
    ranked = sorted(state.doc("roster")["players"], key=lambda x: (-int(x["stats"].get("awesomeness", 0)), x["name"]))
    for pl in ranked:
        board.append(f"| {md(pl['name'])} | {pl['stats'].get('awesomeness', 0)} |")
    return "\n".join(head + rows + board) + "\n"


def dance_action_page(record: dict[str, Any], state: State | None = None) -> Page | None:
    """Every dance of the log gets a page of its own, step by step, drawn from its action file's outcome, in the
    words of the game's ``state`` now (the keyword for a Monkey; the seed's without one)."""
    if record.get("action") != "monkey.dance" or not record.get("outcome"):
        return None
    at = str(record.get("at", ""))
    title = f"Dance of {when(at)}, conducted by {record.get('actor', '')}"
    intro = (f"Conducted by **{md(record.get('actor', ''))}** at {time_md(at)}. "
             f"Dice rolled: {md(', '.join(str(d) for d in record.get('dice', [])) or 'none')}. The Line is drawn "
             "again after each move that changed it: highlighted names moved.\n\n")
    return Page(slug=f"dance-{at.replace(':', '').replace('-', '').lower()}", title=title,
                markdown=intro + (steps_markdown(record["outcome"], _monkey(state), _labels(state)) if state
                                  else steps_markdown(record["outcome"])))
