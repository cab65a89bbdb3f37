"""The ruleset history: every change to the rules, newest first, as a readable diff of the text."""

from __future__ import annotations

from validators.games._timefmt import day, when

from .changes import rule_changes, text_diff
from .links import Links
from .markup import counted, esc, md_text
from .model import Game
from .ruleset import by_link, change_anchor, number_key


def _cause(new_rule, old_rule) -> str:  # type: ignore[no-untyped-def]
    rule = new_rule or old_rule
    hist = (rule.meta.get("history") or []) if rule is not None else []
    return str(hist[-1].get("by", "")) if hist else ""


_WHAT = {"proposal": "Proposal", "cfj": "CfJ", "dov": "DoV"}


def _done(game: Game, entry) -> str:  # type: ignore[no-untyped-def]
    """What the action did, in words: "Proposal 1, enacted by Bruno" (``Action.done``), else "Bruno: " and the
    action's summary; the change's own line links to the action."""
    params = entry.record.get("params") or {}
    what = next((f"{_WHAT[k]} {params[k]}" for k in _WHAT if k in params), "")
    action = game.files.registry.actions.get(entry.name)
    if action is None or not action.done:
        return f"{entry.actor}: {action.summary if action is not None else entry.name}"
    said = f"{what}, {action.done}" if what else action.done[:1].upper() + action.done[1:]
    return f"{said} by {entry.actor}"


def render_ruleset_history(game: Game, links: Links) -> str:
    out = ["# How the rules changed", ""]
    if not game.replayed:
        return "\n".join(out + [_from_metadata(game, links)]) + "\n"
    changes = []
    for entry in game.entries:
        if entry.before is None or entry.after is None:
            continue
        found = rule_changes(entry.before.rules, entry.after.rules)
        if found:
            changes.append((entry, found))
    since = "the game's checkpoint" if game.held else "the game was founded"
    if not changes:
        out.append(f'<p class="nomic-lede">No rule has changed since {since}.</p>')
        return "\n".join(out) + "\n"
    out.append(f'<p class="nomic-lede">{counted(len(changes), "change")} to the ruleset since {since}, '
               f'newest first. The <a href="{esc(links.page("ruleset"))}">ruleset</a> shows the rules as they '
               "stand.</p>")
    out.append("")
    for entry, found in reversed(changes):
        title = f"{day(entry.record.get('at'))}: {_done(game, entry)}"
        out += [f"## {md_text(title)} {{#{entry.anchor}}}", ""]
        for rid, old, new, what in found:
            rule = new or old
            assert rule is not None
            cause = _cause(new, old)
            anchor = change_anchor(rid, entry.record.get("at", ""))
            link = f'<a href="{esc(links.rule(rid))}">{esc(rule.cite())}</a>' if new is not None else esc(rule.cite())
            out.append(f'<div class="nomic-change" id="{esc(anchor)}">')
            out.append(f'<p><strong>{link}</strong>: {esc(what)}'
                       f'{" by " + by_link(cause, links) if cause else ""}, '
                       f'<time datetime="{esc(entry.record.get("at", ""))}">{esc(when(entry.record.get("at")))}'
                       f'</time> · <a href="{esc(links.action(entry.anchor))}">the action</a></p>')
            if old is not None and new is not None:
                for key in ("title", "number", "status", "section", "parent", "colour"):
                    if old.meta.get(key) != new.meta.get(key):
                        out.append(f'<p class="nomic-meta-change">{esc(key)}: {esc(old.meta.get(key, "—"))} → '
                                   f'{esc(new.meta.get(key, "—"))}</p>')
                if old.body != new.body:
                    out.append(text_diff(old.body, new.body))
            elif new is not None:
                out.append(text_diff("", new.body, context=1000))
            elif old is not None:
                out.append(text_diff(old.body, "", context=1000))
            out.append("</div>")
            out.append("")
    return "\n".join(out).rstrip() + "\n"


def _from_metadata(game: Game, links: Links) -> str:
    """Without a replay, only the rules' own history lists are known."""
    events = []
    for rule in game.state.rules.values():
        for h in rule.meta.get("history") or []:
            if h.get("event") != "founded":
                events.append((str(h.get("at", "")), rule, h))
    note = ('<p class="nomic-lede">This game has no <code>initial/</code> folder, so its log cannot be replayed and '
            "the old texts are not known; this is each rule's own record of its changes.</p>")
    if not events:
        return note + "\n<p>No rule records a change.</p>"
    items = []
    for at, rule, h in sorted(events, key=lambda e: (e[0], number_key(e[1].number)), reverse=True):
        by = f" by {by_link(str(h['by']), links)}" if h.get("by") else ""
        items.append(f'<li id="{esc(change_anchor(rule.id, at))}"><time datetime="{esc(at)}">{esc(when(at))}</time>: '
                     f'<a href="{esc(links.rule(rule.id))}">{esc(rule.cite())}</a> {esc(h.get("event", ""))}{by}</li>')
    return note + '\n<ul class="nomic-rule-events">' + "".join(items) + "</ul>"
