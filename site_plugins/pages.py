"""Every page of one game, as plain data: what the plugin hands to MkDocs.

``game_pages`` calls the rendering functions and the game modules' own
``Module.pages``; a module whose pages fail is reported (and the rest of the
site still builds), so a module in progress cannot take the wiki down.
"""

from __future__ import annotations

import re
import traceback
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from validators.admin import deadlines_due
from validators.engine import due_events
from validators.problems import counted
from validators.timeutil import format_time

from .actions_ref import in_words, render_actions
from .history import atom_feed, history_pages, render_history
from .home import Happenings, Summary, render_game_home, summarize
from .links import PAGES, RESERVED_DIRS, Links, link_player_cells, player_slugs
from .markup import cap, esc, md_text
from .model import Game
from .players import render_player, render_roster, stat_series
from .proposals import ITEM_DOCS, item_src, item_timeline, own_vote, render_item, render_proposals, resolvable_now
from .ruleset import render_ruleset
from .ruleset_history import render_ruleset_history

_MODULE_SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{0,60}(?:/[a-z0-9][a-z0-9-]{0,60})?$")


@dataclass
class GeneratedPage:
    src: str  # path under docs: games/<game>/roster.md
    title: str
    content: str  # Markdown, or the file's text for a non-Markdown file
    source: str = ""  # the content file (or folder, ending in /) it comes from, relative to the repository


@dataclass
class GameSite:
    """One game's pages, its navigation, and what went wrong drawing it."""

    game: Game
    summary: Summary
    pages: list[GeneratedPage] = field(default_factory=list)
    nav: list[Any] = field(default_factory=list)  # MkDocs nav entries under the game
    warnings: list[str] = field(default_factory=list)


def _clock(game: Game) -> datetime | None:
    return game.state.now()


def set_apart(game: Game) -> dict[str, tuple[str, str]]:
    """The players the modules' rules do not count among their players, each with why and what of their stats
    (``Module.apart``)."""
    out: dict[str, tuple[str, str]] = {}
    for module in game.files.registry.modules:
        if module.apart is not None:
            out.update(module.apart(game.state))
    return out


def build_game(game: Game, *, now: datetime, repo_url: str = "", branch: str = "main", site_url: str = "",
               directory_urls: bool = True) -> GameSite:
    state = game.state
    registry = game.files.registry
    root = game.root
    g = game.name
    leader = registry.leader(state)
    last = game.last()
    apart = set_apart(game)
    summary = summarize(g, state, leader, last.actor if last else "", last.name if last else "",
                        last.record.get("at", "") if last else "", apart)
    names = [p["name"] for p in state.players()]
    slugs = player_slugs(names)
    # a player who changed their name (seed 003 rule 2): the log's files under an old name link to their page
    former_names = {f["name"]: p["name"] for p in state.players() for f in p.get("formerly") or []
                    if f["name"] not in slugs}
    for old, new in former_names.items():
        slugs[old] = slugs[new]
    links = Links(g, f"games/{g}/index.md", slugs, directory_urls, repo_url, branch)
    site = GameSite(game, summary)
    site.warnings += [f"{g}: {p}" for p in game.problems]
    now = max(now, _clock(game) or now)

    def add(kind: str, title: str, content: str, source: str) -> None:
        site.pages.append(GeneratedPage(f"games/{g}/{PAGES[kind]}", title, content, source))

    here = links.at
    pages_of_history = history_pages(game)
    links.history.update({e.anchor: src for src, chunk in pages_of_history for e in chunk})
    add("ruleset", "Ruleset", render_ruleset(state, here(links.src("ruleset")), game.files.rule_paths,
                                             title=f"Ruleset of {summary.title}"), f"{root}/ruleset/")
    add("ruleset-history", "Ruleset history", render_ruleset_history(game, here(links.src("ruleset-history"))),
        f"{root}/ruleset/")
    add("roster", cap(state.keyword("players", "Players")),
        render_roster(state, here(links.src("roster")), leader, apart=apart), f"{root}/gamestate/roster.yaml")
    proposals_page = "proposals" in state.docs and "blognomic" in state.modules
    if proposals_page:
        add("proposals", "Proposals", render_proposals(state, here(links.src("proposals")), now, pages=True),
            game.files.doc_paths.get("proposals", f"{root}/gamestate/proposals.yaml"))
        timeline = item_timeline(game.entries)
        for kind, doc_name, key, label in ITEM_DOCS:
            items = [x for x in (state.docs.get(doc_name) or {}).get(key) or [] if isinstance(x, dict) and "id" in x]
            pending = sorted((x for x in items if x.get("status") == "pending"),
                             key=lambda x: (x.get("submitted", ""), x["id"]))
            oldest = pending[0]["id"] if pending else None
            for x in items:
                src = item_src(g, kind, x["id"])
                site.pages.append(GeneratedPage(src, f"{label} #{x['id']}", render_item(
                    state, x, kind, here(src), now, timeline.get((kind, x["id"]), []), oldest),
                    game.files.doc_paths.get(doc_name, f"{root}/gamestate/{doc_name}.yaml")))
    for k, (src, chunk) in enumerate(pages_of_history):
        site.pages.append(GeneratedPage(src, "History" if k == 0 else f"History, page {k + 1}", render_history(
            game, here(src), chunk, pages=[s for s, _ in pages_of_history], page=k), f"{root}/actions/"))
    add("actions", "Actions", render_actions(state, registry, here(links.src("actions")), g), f"{root}/game.yaml")
    site.pages.append(GeneratedPage(f"games/{g}/{PAGES['feed']}", "feed", atom_feed(game, links, site_url, now)))

    series = stat_series(game) if game.replayed else {}
    by_actor: dict[str, list[Any]] = {}
    for e in game.entries:
        by_actor.setdefault(former_names.get(e.actor, e.actor), []).append(e)
    for old, new in former_names.items():  # the stats a player's roster entry had under an old name come first
        earlier = series.pop(old, None)
        if earlier:
            mine = series.setdefault(new, {})
            for stat, points in earlier.items():
                mine[stat] = sorted(points + mine.get(stat, []), key=lambda tv: tv[0])
    pending = [p for p in (state.docs.get("proposals") or {}).get("proposals") or []
               if isinstance(p, dict) and p.get("status") == "pending" and "id" in p] if proposals_page else []
    player_nav = []
    for name in names:
        src = links.player_src(name)
        site.pages.append(GeneratedPage(src, name, render_player(
            state, name, here(src), series, by_actor, leader=leader, clock=_clock(game), apart=apart.get(name),
            votes=[(p["id"], p.get("title", ""), own_vote(state, p, name)) for p in pending]),
            f"{root}/gamestate/roster.yaml"))
        player_nav.append({esc(name): src})

    module_pages: list[tuple[str, str]] = []  # (title as the module gave it, page source)
    taken = {p.src for p in site.pages}
    for module in registry.modules:
        if module.pages is None:
            continue
        try:
            drawn = list(module.pages(state))
        except Exception as e:  # a module's drawing bug must not stop the wiki
            site.warnings.append(f"{g}: module {module.name}'s pages failed: {e!r}\n{traceback.format_exc(limit=3)}")
            continue
        for page in drawn:
            slug = str(page.slug).strip("/").lower()
            if not _MODULE_SLUG.match(slug) or slug.split("/")[0] in RESERVED_DIRS or f"games/{g}/{slug}.md" in taken:
                slug = "m-" + re.sub(r"[^a-z0-9-]+", "-", slug).strip("-")
            src = f"games/{g}/{slug}.md"
            if src in taken:
                site.warnings.append(f"{g}: module {module.name} draws the page {page.slug!r} twice; kept the first")
                continue
            taken.add(src)
            source = f"{root}/{page.source}" if page.source else f"{root}/gamestate/"
            body = page.markdown if page.markdown.lstrip().startswith("# ") else \
                f"# {md_text(page.title)}\n\n{page.markdown}"
            body = link_player_cells(body, src, links)  # the players in its tables lead to their pages
            site.pages.append(GeneratedPage(src, str(page.title), body, source))
            if getattr(page, "listed", True):
                module_pages.append((str(page.title), src))

    # Pages for single actions (every dance, step by step), from the modules that draw them
    action_nav: list[Any] = []
    for entry in game.entries:
        for module in registry.modules:
            if module.action_page is None:
                continue
            try:
                page = module.action_page(entry.record, state)
            except Exception as e:  # a module's drawing bug must not stop the wiki
                site.warnings.append(f"{g}: module {module.name}'s page for {entry.path} failed: {e!r}")
                continue
            if page is None:
                continue
            slug = re.sub(r"[^a-z0-9-]+", "-", str(page.slug).lower()).strip("-")
            src = f"games/{g}/steps/{slug}.md"
            if any(p.src == src for p in site.pages):
                continue
            body = page.markdown if page.markdown.lstrip().startswith("# ") else \
                f"# {md_text(page.title)}\n\n{page.markdown}"
            site.pages.append(GeneratedPage(src, str(page.title), body, entry.path))
            action_nav.append({esc(str(page.title)): src})
    if action_nav:
        module_pages.append(("Step by step", action_nav[0][next(iter(action_nav[0]))]))

    listed = [("Ruleset", "ruleset"), ("Ruleset history", "ruleset-history"),
              (cap(state.keyword("players", "Players")), "roster")]
    if proposals_page:
        listed.append(("Proposals", "proposals"))
    listed += [("History", "history"), ("Actions", "actions")]
    # the game's front page lists its pages in the order of the navigation beside it
    page_links = ([(t, links.page(k)) for t, k in listed[:3]] + [(t, links.other(src)) for t, src in module_pages]
                  + [(t, links.page(k)) for t, k in listed[3:]])
    happenings = _happenings(game, links, now, {p.src for p in site.pages}, site.warnings)
    home = render_game_home(state, summary, links, page_links, {m.name: m.title for m in registry.modules},
                            happenings)
    site.pages.insert(0, GeneratedPage(f"games/{g}/index.md", summary.title, home, f"{root}/game.yaml"))
    # MkDocs and Material put navigation titles into the HTML as they are: everything here is escaped,
    # since a game's name, its keywords and a module's page titles come from content
    site.nav = ([{esc(summary.title): f"games/{g}/index.md"}]
                + [{esc(t): f"games/{g}/{PAGES[k]}"} for t, k in listed[:3]]
                + [{esc(t): src} for t, src in module_pages if t != "Step by step"]
                + ([{"Step by step": action_nav}] if action_nav else [])
                + [{esc(t): f"games/{g}/{PAGES[k]}"} for t, k in listed[3:]]
                + [{esc(f"Each {cap(state.keyword('player', 'player'))}"): player_nav}])
    return site


def _happenings(game: Game, links: Links, now: datetime, srcs: set[str], warnings: list[str]) -> Happenings:
    """What the game's front page says is going on at the build's ``now``: what the modules say is up for a vote
    (``Module.open_votes``), the last five actions, and the next five scheduled events within a week, the ones
    fallen due first (``engine.due_events``, as ``nomic due`` finds them)."""
    state, registry, g = game.state, game.files.registry, game.name
    h = Happenings()
    for module in registry.modules:
        if module.open_votes is None:
            continue
        try:
            votes = module.open_votes(state, now)
        except Exception as e:  # a module's bug must not stop the wiki
            warnings.append(f"{g}: module {module.name}'s open votes failed: {e!r}")
            continue
        # a BlogNomic proposal that may be enacted or failed now says so, as the Proposals page does
        ready = resolvable_now(state, now) if module.name == "blognomic" else {}
        for o in votes:
            src = f"games/{g}/{o.page}.md"
            url = links.other(src, o.anchor) if src in srcs else ""
            can = ready.get(o.ident) if o.kind == "Proposal" else None
            where = links.other(f"games/{g}/{PAGES['proposals']}", f"proposal-{o.ident}") if can else ""
            h.votes.append((o, url, (f"can be {can[0]} now", can[1], where) if can else None))
    h.recent = [(e.actor, e.name, str(e.record.get("at", "")), links.action(e.anchor))
                for e in reversed(game.entries[-5:])]
    clock = state.now()
    if clock is not None:
        # each event's summary in the game's words now, as the Actions page writes its module's texts
        says = {ev.name: in_words(state, m) for m in registry.modules for ev in m.events}
        for t, ev in due_events(registry, state, clock, now + timedelta(days=7))[:5]:
            h.coming.append((format_time(t), says[ev.name](ev.summary) if ev.summary else ev.name, ev.rule, t <= now))
        if not any(due for *_, due in h.coming):
            # the deadlines a module settles before any action (ifMUD's turns running out), as nomic due says them
            kept = deadlines_due(registry, state, now)
            if kept:
                h.coming.insert(0, (format_time(now), "the rules' own deadlines have fallen due since the last action "
                                    f"({counted(len(kept), 'change')} to the gamestate)", "", True))
    return h


def now_utc() -> datetime:
    from validators.timeutil import UTC

    return datetime.now(UTC).replace(microsecond=0)


def error_page(game: str, problems: list[str]) -> GeneratedPage:
    items = "".join(f"<li><code>{esc(p)}</code></li>" for p in problems)
    return GeneratedPage(f"games/{game}/index.md", game,
                         f"# {md_text(game)}\n\n<p>This game's files do not load, so its pages are not drawn. "
                         f"<code>nomic check --game {esc(game)}</code> says why:</p><ul>{items}</ul>\n",
                         f"content/{game}/game.yaml")
