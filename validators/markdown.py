"""``nomic check --format markdown``: the pull-request comment players read.

It gives the verdict on each action, the rule behind each refusal, and the
coming change of the gamestate as a small table (who, what, before, after).
The workflow posts it once and updates it on every push (the marker line).
"""

from __future__ import annotations

import html
import json
from typing import Any

from .problems import BAD_INPUT, NEEDS_ADMIN, Report

MARKER = "<!-- nomic-check -->"  # how the pull-request workflow finds the check's comment to update it
MAX_ROWS = 40
MAX_CHARS = 60_000  # GitHub refuses a comment (and a pull request's text) over 65,536 characters
_ONE = {"proposals": "proposal", "cfjs": "CfJ", "dovs": "DoV"}  # a record of these lists, by its number


def cell(value: Any) -> str:
    """A table cell: whatever a player typed, made inert (no HTML, no table breaks, no mentions)."""
    if isinstance(value, str):
        text = value
    else:
        text = json.dumps(value, ensure_ascii=False, default=str)
    if len(text) > 80:
        text = text[:77] + "..."
    text = html.escape(text, quote=False).replace("|", "\\|").replace("\n", " ").replace("@", "@\u200b")
    text = text.replace("`", "'")
    return f"`{text}`" if text else "—"


_MARKUP = str.maketrans({c: "\\" + c for c in "\\`*_[]~|"})


def inline_code(text: str) -> str:
    """A path or field as inline code. Its backticks become quotes: a file named ``a `@someone` b.yaml`` once closed
    the code early and mentioned someone. Code shows what it holds as it is, so nothing is HTML-escaped."""
    text = text.replace("`", "'").replace("\r", " ").replace("\n", " ")
    return f"`{text}`"


def plain(text: str) -> str:
    """A message as text: it may quote what a player wrote (a parameter ``"@someone hi"``, a file's name), which must
    mention nobody (the comment is the workflow's, and would notify them), link nowhere and break no line."""
    text = html.escape(text.translate(_MARKUP).replace("\r", " ").replace("\n", " "))
    return text.replace("@", "@\u200b")


def _named(value: Any) -> Any:
    """A record added or removed whole, by its title or name in quotes (“Hats for all”), as the wiki's history
    names it, not as JSON; any other value as it is."""
    if isinstance(value, dict) and isinstance(value.get("title") or value.get("name"), str):
        return f"“{value.get('title') or value.get('name')}”"
    return value


def pr_comment(report: Report, command: str = "check") -> str:
    """The comment in markdown, headed by the command that made it (nomic check, or nomic replay)."""
    code = report.exit_code
    head = {0: "✅ **Legal.**", 1: "❌ **Not legal.**", 2: "⚠️ **Could not be read.**"}[code]
    # each command its own marker: a replay's report posted as a comment is not the check's, for the workflow to update
    marker = MARKER if command == "check" else f"<!-- nomic-{command} -->"
    out = [marker, f"### nomic {command}: {head}", ""]
    if report.verdicts:
        out += ["| action | by | at | verdict |", "|---|---|---|---|"]
        # a pull request of thousands of actions: the first ones, and every illegal one (each game's replay stops
        # at its first), as one row each; the comment of all of them was refused by GitHub for its length
        shown = [v for i, v in enumerate(report.verdicts) if i < MAX_ROWS or not v["legal"]]
        for v in shown:
            name = (v.get("action") or "").rsplit("/", 1)[-1]
            verdict = "legal" if v["legal"] else "**illegal**"
            out.append(f"| {cell(v.get('name') or '?')} ({cell(name)}) | {cell(v.get('actor') or '?')} | "
                       f"{cell(v.get('at') or '?')} | {verdict} |")
        if len(shown) < len(report.verdicts):
            out.append(f"| … and {len(report.verdicts) - len(shown)} more, legal | | | |")
        out.append("")
    if report.problems:
        out.append("**Why not**" if code == 1 else "**Problems**")
        out.append("")
        for p in report.problems[:MAX_ROWS]:
            where = inline_code(p.where()) if p.where() else ""
            field = f" {inline_code(p.field)}:" if p.field else ""
            tag = " (needs an admin)" if p.kind == NEEDS_ADMIN else " (bad input)" if p.kind == BAD_INPUT else ""
            rule = f" — rule **{plain(p.rule)}**" if p.rule else ""
            out.append(f"- {where}{field} {plain(p.said())}{tag}{rule}")
        if len(report.problems) > MAX_ROWS:
            out.append(f"- … and {len(report.problems) - MAX_ROWS} more")
        out.append("")
    if report.changes and code == 0:
        out += ["**What changes**", "", "| who | what | before | after |", "|---|---|---|---|"]
        for c in report.changes[:MAX_ROWS]:
            out.append(f"| {cell(c['who'])} | {cell(c['what'])} | {cell(_named(c['before']))} | "
                       f"{cell(_named(c['after']))} |")
        if len(report.changes) > MAX_ROWS:
            out.append(f"| … | {len(report.changes) - MAX_ROWS} more | | |")
        out.append("")
    for n in report.notes[:MAX_ROWS]:
        # a note's backticks are the program's own (`nomic act`); what it quotes is a path or login, which mentions
        # nobody all the same
        out.append(f"<sub>{html.escape(n.replace(chr(10), ' ')).replace('@', '@' + chr(0x200b))}</sub>  ")
    if len(report.notes) > MAX_ROWS:
        out.append(f"<sub>… and {len(report.notes) - MAX_ROWS} more notes</sub>")
    text = "\n".join(out).rstrip() + "\n"
    if len(text) > MAX_CHARS:  # long rows (80 characters a cell) can still add up: cut between lines
        text = text[:text.rindex("\n", 0, MAX_CHARS)] + "\n\n… (cut here: the rest is longer than GitHub takes; " \
            f"`nomic {'check --base' if command == 'check' else command}` prints all of it)\n"
    return text


def state_changes(game: str, before: Any, after: Any) -> list[dict[str, Any]]:
    """The change from one state to another as rows: who (a player, or the document), what, before, after."""
    from .judge import MISSING, diff

    rows = []
    for kind in sorted(set(before.docs) | set(after.docs)):
        if kind == "ledger":
            continue
        old, new = before.docs.get(kind, {}), after.docs.get(kind, {})
        for path, a, b in diff(old, new):
            who = kind
            what = path
            if len(path) >= 2 and isinstance(path[1], int):
                # an item of a list: name it by its name (players, monkeys) or number (proposals)
                items = old.get(path[0], []) if isinstance(old, dict) else []
                if not (isinstance(items, list) and path[1] < len(items)):
                    items = new.get(path[0], []) if isinstance(new, dict) else []
                item = items[path[1]] if isinstance(items, list) and path[1] < len(items) else None
                if isinstance(item, dict) and "name" in item:
                    who = str(item["name"])
                    what = path[2:] or ("added" if a is MISSING else "removed",)
                elif isinstance(item, dict) and "id" in item:
                    who = f"{_ONE.get(str(path[0]), kind)} {item['id']}"  # proposal 4, as a player says it
                    what = path[2:] or ("added" if a is MISSING else "removed",)
            rows.append({"game": game, "who": who, "what": ".".join(str(p) for p in what),
                         "before": "—" if a is MISSING else a, "after": "—" if b is MISSING else b})
    for rid in sorted(set(before.rules) | set(after.rules)):
        r0, r1 = before.rules.get(rid), after.rules.get(rid)
        if r0 is None or r1 is None or r0.meta != r1.meta or r0.body != r1.body:
            what = "added" if r0 is None else "removed" if r1 is None else (
                "text" if r0.body != r1.body else "status" if r0.meta.get("status") != r1.meta.get("status")
                else "front matter")
            rows.append({"game": game, "who": f"rule {rid}", "what": what,
                         "before": r0.meta.get("status", "") if r0 else "—",
                         "after": r1.meta.get("status", "") if r1 else "—"})
    return rows
