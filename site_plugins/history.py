"""The history page (every action, newest first, with what it changed in words) and its Atom feed."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Sequence
from xml.sax.saxutils import escape as xml_escape

from validators.games._timefmt import day, when

from .changes import describe, times_html, words
from .links import Links, page_url, relative
from .markup import counted, esc, md_text, raw_html
from .model import Entry, Game
from .players import params_html, params_words


def outcome_words(outcome: Any) -> list[str]:
    """Each step of an action's outcome in words, as plain text (its times as the record keeps them): a field's
    name with spaces for its underscores, yes and no for true and false, "none" for nothing or an empty list."""
    out = []
    for step in outcome or []:
        if isinstance(step, dict):
            out.append(", ".join(f"{_spaced(k)}: {words(v, _spaced)}" for k, v in step.items()))
        else:
            out.append(str(step))
    return out


def outcome_html(outcome: Any) -> list[str]:
    """Each step of an action's outcome as HTML, its times written as the wiki writes times (the stamp kept in
    each ``<time>`` element)."""
    return [times_html(o) for o in outcome_words(outcome)]


def _spaced(key: Any) -> str:
    return str(key).replace("_", " ")


def entry_html(entry: Entry, links: Links) -> list[str]:
    """One action: who, when, what, what it changed, and its file."""
    at = entry.record.get("at", "")
    url = links.player(entry.actor)
    who = f'<a href="{esc(url)}">{esc(entry.actor)}</a>' if url else esc(entry.actor or "(the engine)")
    params = params_html(entry.record.get("params"), limit=160)
    src = links.blob(entry.path)
    file_link = f'<a class="nomic-source" href="{esc(src)}">{esc(entry.file)}</a>' if src \
        else f'<code class="nomic-source">{esc(entry.path)}</code>'
    out = [f'<div class="nomic-action" id="{esc(entry.anchor)}">',
           f'<p class="nomic-meta"><time datetime="{esc(at)}">{esc(when(at))}</time> · {who} · '
           f'<a href="{esc(links.page("actions", "action-" + entry.name.replace(".", "-")))}"><code>{esc(entry.name)}'
           f"</code></a>{' · ' + params if params else ''}</p>"]
    if entry.record.get("note"):
        out.append(f'<p class="nomic-note">“{esc(entry.record["note"])}”</p>')
    lines = []
    for ev in entry.events:
        # what the event did, as an action's outcome says it (a proposal it resolved, what that set off)
        steps = "".join(f"<li>{x}</li>" for x in outcome_html(ev.get("outcome")))
        lines.append(f"scheduled first: <code>{esc(ev.get('event', ''))}</code> at {times_html(str(ev.get('at', '')))}"
                     + (f"<ul>{steps}</ul>" if steps else ""))
    if entry.record.get("dice"):
        lines.append(f"dice: {esc(', '.join(str(d) for d in entry.record['dice']))}")
    lines += outcome_html(entry.record.get("outcome"))
    if entry.before is not None and entry.after is not None:
        changes = describe(entry.before, entry.after)
        lines += changes or ["changed nothing but the clock"]
    if lines:
        out.append('<ul class="nomic-what">' + "".join(f"<li>{x}</li>" for x in lines) + "</ul>")
    out.append(f'<p class="nomic-file">{file_link}</p></div>')
    return out


PAGE_SIZE = 200  # actions per history page; a large game's history is split, newest first


def history_pages(game: Game, size: int = PAGE_SIZE) -> list[tuple[str, list[Entry]]]:
    """(page source, its actions newest first) for each history page: history.md, history/2.md, ..."""
    newest = list(reversed(game.entries))
    chunks = [newest[i:i + size] for i in range(0, len(newest), size)] or [[]]
    return [(f"games/{game.name}/history.md" if k == 0 else f"games/{game.name}/history/{k + 1}.md", chunk)
            for k, chunk in enumerate(chunks)]


def _pager(links: Links, pages: list[str], k: int) -> str:
    if len(pages) < 2:
        return ""
    parts = []
    if k > 0:
        parts.append(f'<a href="{esc(links.other(pages[k - 1]))}">← newer</a>')
    parts.append(f"page {k + 1} of {len(pages)}")
    if k + 1 < len(pages):
        parts.append(f'<a href="{esc(links.other(pages[k + 1]))}">older →</a>')
    return '<p class="nomic-pager">' + " · ".join(parts) + "</p>"


def _made(cp: dict[str, Any] | None) -> str:
    """Who made a checkpoint, when and why, as the history's lede says it."""
    if not cp:
        return ""
    return (f" made by {esc(str(cp.get('by', '')))} on {times_html(str(cp.get('at', '')))} "
            f"(“{esc(str(cp.get('why', '')))}”)")


def render_history(game: Game, links: Links, entries: Sequence[Entry] | None = None, *,
                   pages: Sequence[str] = (), page: int = 0) -> str:
    """One history page: ``entries`` newest first (default: the whole log)."""
    rows = list(entries) if entries is not None else list(reversed(game.entries))
    total = len(game.entries)
    pager = _pager(links, list(pages), page)
    lede = f"{counted(total, 'action')}, newest first" if total else "No action yet"
    out = [f"# History{f' (page {page + 1})' if page else ''}", "",
           f'<p class="nomic-lede">{lede}. '
           f'<a href="{esc(links.page("feed"))}" type="application/atom+xml">Atom feed</a>.'
           + ("" if game.replayed else " This game's log is not replayed here (no <code>initial/</code> folder, or a "
              "step did not replay), so changes are not spelled out.")
           + (f" The first {counted(game.held, 'action')} (through {esc(game.entries[game.held - 1].file)}) are held "
              f"by a checkpoint{_made(game.checkpoint)}: the game's starting point includes them, so they are shown "
              "as recorded." if game.replayed and game.held else "") + "</p>", ""]
    if pager:
        out += [pager, ""]
    current = None
    for entry in rows:
        d = day(entry.record.get("at", ""))
        if d != current:
            out += [f"## {md_text(d)}", ""]
            current = d
        out += [raw_html("\n".join(entry_html(entry, links))), ""]
    if not rows:
        out.append("<p>Nothing has happened yet.</p>")
    if pager:
        out += ["", pager]
    return "\n".join(out).rstrip() + "\n"


def _entry_url(links: Links, entry: Entry, site_url: str) -> str:
    src = links.history.get(entry.anchor, links.src("history"))
    if site_url:
        return f"{site_url.rstrip('/')}/{page_url(src, links.directory_urls)}#{entry.anchor}"
    return relative(links.src("feed"), src, entry.anchor, links.directory_urls)


def atom_feed(game: Game, links: Links, site_url: str, updated: datetime | None = None, limit: int = 50) -> str:
    """An Atom feed of the latest actions (site_url makes its links absolute when the site has one)."""
    # without a site URL, links are relative to the feed itself (games/<game>/feed.xml)
    history_url = f"{site_url.rstrip('/')}/games/{game.name}/history/" if site_url else "history/"
    last = game.last()
    stamp = last.record.get("at") if last else (updated.strftime("%Y-%m-%dT%H:%M:%SZ") if updated else
                                                "1970-01-01T00:00:00Z")
    parts = ['<?xml version="1.0" encoding="utf-8"?>', '<feed xmlns="http://www.w3.org/2005/Atom">',
             f"<title>{xml_escape(game.title)}: history</title>",
             f"<id>tag:nomic-as-code,2026:{xml_escape(game.name)}</id>",
             f"<updated>{xml_escape(str(stamp))}</updated>",
             f'<link rel="alternate" href="{xml_escape(history_url)}"/>']
    for entry in list(reversed(game.entries))[:limit]:
        summary = [f"{entry.actor}: {entry.name}"]
        params = params_words(entry.record.get("params"), limit=200)
        if params:
            summary.append(params)
        if entry.before is not None and entry.after is not None:
            import html as _html
            import re

            summary += [_html.unescape(re.sub(r"<[^>]+>", "", x)) for x in describe(entry.before, entry.after)]
        parts += ["<entry>",
                  f"<title>{xml_escape(entry.actor + ' ' + entry.name)}</title>",
                  f"<id>tag:nomic-as-code,2026:{xml_escape(game.name)}/{xml_escape(entry.file)}</id>",
                  f"<updated>{xml_escape(str(entry.record.get('at', '')))}</updated>",
                  f"<author><name>{xml_escape(entry.actor or 'engine')}</name></author>",
                  f'<link rel="alternate" href="{xml_escape(_entry_url(links, entry, site_url))}"/>',
                  f"<summary>{xml_escape(chr(10).join(summary))}</summary>",
                  "</entry>"]
    parts.append("</feed>")
    return "\n".join(parts) + "\n"
