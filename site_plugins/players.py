"""The roster (the old GNDT) and a page per player: stats now, how they changed, recent actions."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Mapping, Sequence

from validators.engine import State
from validators.games._markup import article
from validators.games._timefmt import day, when
from validators.roster import active_players, bar_on, fold, quorum
from validators.timeutil import UTC, format_time, parse_time

from .changes import Pieces, cut_pieces, pieces_html, pieces_text, time_pieces
from .links import Links
from .markup import cap, esc, md_text, raw_html
from .model import Entry, Game
from .svg import stat_chart

Series = dict[str, dict[str, list[tuple[datetime, Any]]]]  # player -> stat -> [(time, value)]


def stat_value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(short_item(v) for v in value) or "—"
    if value is None or value == "":
        return "—"
    return str(value)


def short_item(v: Any) -> str:
    if isinstance(v, dict):
        return str(v.get("name") or v.get("id") or ", ".join(f"{k}: {x}" for k, x in v.items()))
    return str(v)


def _sort_value(value: Any) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, list):
        return str(len(value))
    return str(value or "")


def stat_series(game: Game) -> Series:
    """Every value each player's stats took along the replay (only when the roster changed)."""
    out: Series = {}
    start = game.initial
    if start is not None:
        t0 = _founded(game)
        # a checkpoint's starting point is the game after the actions it holds: its values date from the last one
        settled = game.entries[game.held - 1].at if game.held else None
        for p in start.docs["roster"]["players"]:
            for stat, v in (p.get("stats") or {}).items():
                out.setdefault(p["name"], {}).setdefault(stat, []).append((settled or _joined(p, t0), v))
    for entry in game.entries:
        if entry.before is None or entry.after is None:
            continue
        a, b = entry.before.docs["roster"], entry.after.docs["roster"]
        if a is b:
            continue
        old = {p["name"]: p.get("stats") or {} for p in a["players"]}
        for p in b["players"]:
            prev = old.get(p["name"])
            for stat, v in (p.get("stats") or {}).items():
                if prev is None or prev.get(stat) != v:
                    out.setdefault(p["name"], {}).setdefault(stat, []).append((entry.at, v))
    return out


def _founded(game: Game) -> datetime:
    if game.entries:
        return min(e.at for e in game.entries)
    return datetime(1970, 1, 1, tzinfo=UTC)


def _joined(p: dict[str, Any], default: datetime) -> datetime:
    try:
        return parse_time(p.get("joined", ""))
    except ValueError:
        return default


def badges(state: State, p: dict[str, Any], leader: str | None) -> list[str]:
    out = []
    if leader and p["name"] == leader:
        out.append(f'<span class="nomic-badge leader" title="{esc(state.keyword("leader", "leader"))}">'
                   f'{esc(state.keyword("leader", "leader"))}</span>')
    if p.get("admin"):
        out.append('<span class="nomic-badge admin" title="admin">admin</span>')
    if p.get("idle"):
        out.append('<span class="nomic-badge idle" title="idle">idle</span>')
    if p.get("kind"):
        out.append(f'<span class="nomic-badge kind">{esc(p["kind"])}</span>')
    return out


def render_roster(state: State, links: Links, leader: str | None = None, seen: dict[str, str] | None = None,
                  apart: Mapping[str, tuple[str, str]] | None = None) -> str:
    """One sortable table of every player and their stats; click a heading to sort by it. One the module's rules
    do not count among the players (``apart``: Settlement's Leader, by Royal Blood no Colonist) is not counted in
    the lede, which says why, and their row says so."""
    roster = state.doc("roster")
    defs = roster.get("stats") or {}
    players = roster.get("players") or []
    seen = seen if seen is not None else (state.docs.get("ledger") or {}).get("seen", {})
    title = state.keyword("players", "Players")
    apart = apart or {}
    active = [p for p in active_players(state) if p["name"] not in apart]
    kept = [name for name in apart if state.player(name) is not None]
    idle = sum(1 for p in players if p.get("idle"))
    # the page's title and the table's headings are labels: they start with a capital, as the navigation's
    # (ifMUD's game calls its players "players"; a stat may be labelled "brownie points")
    out = [f"# {md_text(cap(title))}", "",
           f'<p class="nomic-lede">{len(active)} active {esc(title if len(active) != 1 else state.keyword("player"))}'
           f'{f", {idle} idle" if idle else ""}'
           + "".join(f"; and {esc(name)}, {esc(apart[name][0])}" for name in kept)
           + f'. Quorum is {quorum(state)}. Click a column heading to sort.</p>', ""]
    # the roster's own marks (badges), headed "Standing" so that no game's stat is confused with them: the Monkey
    # game has a stat labelled "Status" (In Line or In the Barrel, rule 2.4), a column of its own
    marks = f'{state.keyword("leader", "leader")}, admin, idle, a non-player\'s kind, or else active'
    head = [f'<th data-sort="text" aria-sort="ascending">{esc(cap(state.keyword("player", "Player")))}</th>',
            f'<th data-sort="text" title="{esc("On the roster: " + marks)}">Standing</th>']
    for name, d in defs.items():
        kind = "number" if d.get("type") == "integer" else "text"
        head.append(f'<th data-sort="{kind}" title="{esc(d.get("rule", ""))}">{esc(cap(d.get("label") or name))}</th>')
    head += ['<th data-sort="text">Joined</th>', '<th data-sort="text">Last action</th>']
    rows = []
    for p in sorted(players, key=lambda p: p["name"].casefold()):
        url = links.player(p["name"])
        name = f'<a href="{esc(url)}">{esc(p["name"])}</a>' if url else esc(p["name"])
        status = " ".join(badges(state, p, leader)) or '<span class="nomic-badge active">active</span>'
        if p["name"] in apart:
            status += (f' <span class="nomic-badge kind" title="{esc(": ".join(apart[p["name"]]))}">not '
                       f'{esc(article(state.keyword("player", "player")))} {esc(state.keyword("player", "player"))}'
                       "</span>")
        status_key = ("0" if leader == p["name"] else "1") + ("0" if p.get("admin") else "1") + \
            ("1" if p.get("idle") else "0")
        cells = [f'<td data-value="{esc(p["name"].casefold())}">{name}</td>',
                 f'<td data-value="{status_key}">{status}</td>']
        stats = p.get("stats") or {}
        for stat, d in defs.items():
            v = stats.get(stat, d.get("default"))
            cells.append(f'<td data-value="{esc(_sort_value(v))}">{esc(stat_value(v))}</td>')
        last = seen.get(p["name"], "")
        cells.append(f'<td data-value="{esc(p.get("joined", ""))}">{esc(day(p.get("joined", "")))}</td>')
        cells.append(f'<td data-value="{esc(last)}">{esc(day(last)) if last else "—"}</td>')
        cls = ' class="idle"' if p.get("idle") else ""
        rows.append(f"<tr{cls}>{''.join(cells)}</tr>")
    out.append('<table class="nomic-roster nomic-sortable">'
               f"<thead><tr>{''.join(head)}</tr></thead><tbody>{''.join(rows)}</tbody></table>")
    former = roster.get("former") or []
    # seed 001 1.10 (BlogNomic fair play): a proposal or CfJ may bar a removed player from rejoining; a game whose
    # roster has no ``barred`` list shows nothing more
    bars = list(roster.get("barred") or [])
    # a bar is on the person, by name or by the account they played under (as the judge finds it), so it is shown
    # beside the former player it removed even when it was written with another name; the latest of several
    # former entries of one person is the one it removed
    mine: dict[int, dict[str, Any]] = {}
    for i in reversed(range(len(former))):
        b = bar_on(bars, former[i]["name"], former[i].get("account"))
        if b is not None:
            mine[i] = b
            bars.remove(b)
    if former:
        out += ["", "## Former players", "",
                "<ul>" + "".join(f"<li>{esc(f['name'])} ({_formerly(f)}{_gone(f)}{_bar(mine.get(i), f['name'])})"
                                 "</li>" for i, f in enumerate(former)) + "</ul>"]
    if bars:
        out += ["", "## Barred from joining", "",
                "<ul>" + "".join(f"<li>{esc(b['name'])} ({_bar(b)[2:]})</li>" for b in bars) + "</ul>"]
    return "\n".join(out) + "\n"


def _bar(bar: dict[str, Any] | None, name: str | None = None) -> str:
    """'; barred from rejoining by proposal 4 on 2 Nov 2026: reason', or nothing for a player not barred; with
    'as NAME' when the bar was written with another name than ``name``, the one the player played under."""
    if bar is None:
        return ""
    same = name is None or fold(bar["name"]) == fold(name)
    written = "" if same else f" as {esc(bar['name'])}"
    by = f" by {esc(bar['by'])}" if bar.get("by") else ""
    when = f" on {esc(day(bar['at']))}" if bar.get("at") else ""
    reason = f": {esc(bar['reason'])}" if bar.get("reason") else ""
    return f"; barred from rejoining{written}{by}{when}{reason}"


def _formerly(former: dict[str, Any]) -> str:
    """'formerly Chidi until 2 Nov 2026; ' for a former player who had changed their name before going, or nothing:
    the names they gave up stay theirs (seed 001 1.2, seed 003 rule 2), and the history's entries filed under them
    are theirs, as a current player's page says of its own."""
    names = [f"{esc(g['name'])} until {esc(day(g.get('until', '')))}" if g.get("until") else esc(g["name"])
             for g in former.get("formerly") or []]
    return f"formerly {', '.join(names)}; " if names else ""


def _gone(former: dict[str, Any]) -> str:
    """How and when a former player went: of their own accord ('left'), removed by somebody (seed 003 rule 9),
    or removed by the rules; with the reason kept, when there is one (ifMUD's losers, Rule 33)."""
    if former.get("removed_by"):
        how = f"removed by {esc(former['removed_by'])}"
    else:
        how = "removed" if former.get("reason") else "left"
    reason = f": {esc(former['reason'])}" if former.get("reason") else ""
    return f"{how} {esc(day(former.get('left', '')))}{reason}"


def _param_text(value: Any) -> str:
    text = value if isinstance(value, str) else stat_value(value) if not isinstance(value, dict) else "{…}"
    return " ".join(str(text).split())


def _params_pieces(params: dict[str, Any], limit: int, keep: bool) -> Pieces:
    """An action's parameters in pieces (``time_pieces``), each value cut past 40 shown characters and the whole
    past ``limit``, never inside a time or a day: one that would be cut is left out whole."""
    pieces: Pieces = []
    for k, v in params.items():
        pieces += [("; " if pieces else "", None), (f"{k}: ", None),
                   *cut_pieces(time_pieces(_param_text(v), keep=keep), 40)]
    return cut_pieces(pieces, limit)


def params_words(params: dict[str, Any] | None, limit: int = 80) -> str:
    """An action's parameters as plain text, as the record keeps them (for the Atom feed): 'proposal: 3; vote: FOR',
    each value cut past 40 characters, the whole past ``limit``; a cut falls before a stamp or a day, never inside
    one (``_params_pieces``)."""
    return pieces_text(_params_pieces(params, limit, keep=True)) if params else ""


def params_html(params: dict[str, Any] | None, limit: int = 80) -> str:
    """An action's parameters as HTML for a page (the history, a player's recent actions): as ``params_words``, but
    each time and day written as the wiki writes them (``time_pieces``) before anything is cut, so that the cuts
    count the characters shown and never fall inside a time: one that would be cut is left out whole."""
    return pieces_html(_params_pieces(params, limit, keep=False)) if params else ""


def render_player(state: State, name: str, links: Links, series: Series | None = None,
                  entries: Sequence[Entry] | dict[str, list[Entry]] = (), *, leader: str | None = None,
                  clock: datetime | None = None, recent: int = 20,
                  votes: Sequence[tuple[int, str, str | None]] = (), apart: tuple[str, str] | None = None) -> str:
    p = state.player(name)
    if p is None:
        return f"# {md_text(name)}\n\nNot on the roster.\n"
    defs = state.doc("roster").get("stats") or {}
    out = [f"# {md_text(name)}", ""]
    tags = badges(state, p, leader) or ['<span class="nomic-badge active">active</span>']  # as the roster has it
    facts = [f"joined {esc(day(p.get('joined', '')))}"]
    if p.get("idle_since"):
        facts.append(f"idle since {esc(day(p['idle_since']))}")
    if p.get("formerly"):
        facts.append("formerly " + ", ".join(f"{esc(f['name'])} (until {esc(day(f.get('until', '')))})"
                                             for f in p["formerly"]))
    if p.get("account"):
        facts.append(f"plays as <code>{esc(p['account'])}</code>")
    out.append(f'<p class="nomic-lede">{" ".join(tags)} {" · ".join(facts)} · '
               f'<a href="{esc(links.page("roster"))}">all {esc(state.keyword("players", "players"))}</a></p>')
    out.append("")
    out += ["## Stats", ""]
    if apart:  # the module's rules do not count them among the players (Settlement's Leader, by Royal Blood)
        out += [f'<p class="nomic-note">{esc(name)} is {esc(apart[0])}: {esc(apart[1])}.</p>', ""]
    mine = (series or {}).get(name, {})
    if not defs:
        out.append(f"<p>This game keeps no stats for its {esc(state.keyword('players', 'players'))}.</p>")
    else:
        rows = []
        for stat, d in defs.items():
            v = (p.get("stats") or {}).get(stat, d.get("default"))
            points = mine.get(stat, [])
            if d.get("type") == "integer" and points:
                picture = stat_chart([(t, int(x)) for t, x in points if isinstance(x, int)], d.get("label") or stat,
                                     end=clock)
            elif points:
                # the day of each change, or its time when two fall on one day ("1 Nov 2026: Lounge", "1 Nov 2026:
                # Attic" told neither when nor in what order)
                shown = [(format_time(t), x) for t, x in points[-8:]]
                days = [day(t) for t, _ in shown]
                at = days if len(set(days)) == len(days) else [when(t) for t, _ in shown]
                picture = "<ul class=\"nomic-changes\">" + "".join(
                    f'<li><time datetime="{esc(t)}">{esc(a)}</time>: {esc(stat_value(x))}</li>'
                    for a, (t, x) in zip(at, shown)) + "</ul>"
            else:
                picture = ""
            rows.append(f'<tr><th scope="row">{esc(cap(d.get("label") or stat))}</th><td class="value">'
                        f'{esc(stat_value(v))}</td><td>{picture}</td></tr>')
        out.append(raw_html('<table class="nomic-stats"><thead><tr><th>Stat</th><th>Now</th><th>Over time</th></tr>'
                            f"</thead><tbody>{''.join(rows)}</tbody></table>"))
    if votes:
        out += ["", "## Votes on pending proposals", ""]
        items = [f'<li><a href="{esc(links.page("proposals", f"proposal-{pid}"))}">#{pid} {esc(title)}</a>: '
                 f'{esc(vote) if vote else "<em>not voted</em>"}</li>' for pid, title, vote in votes]
        out.append(f'<ul class="nomic-player-votes">{"".join(items)}</ul>')
    out += ["", "## Recent actions", ""]
    theirs = [e for e in entries if e.actor == name] if not isinstance(entries, dict) else entries.get(name, [])
    if not theirs:
        out.append("<p>None yet.</p>")
    else:
        items = []
        for e in list(reversed(theirs))[:recent]:
            what = params_html(e.record.get("params"))
            items.append(f'<li><time datetime="{esc(e.record.get("at", ""))}">{esc(when(e.record.get("at")))}</time> '
                         f'<a href="{esc(links.action(e.anchor))}"><code>{esc(e.name)}</code></a>'
                         f'{" — " + what if what else ""}</li>')
        earlier = len(theirs) - recent
        more = (f'<p>{earlier} earlier {"action is" if earlier == 1 else "actions are"} on the '
                f'<a href="{esc(links.page("history"))}">history page</a>.</p>') if earlier > 0 else ""
        out.append(f'<ul class="nomic-recent">{"".join(items)}</ul>{more}')
    return "\n".join(out) + "\n"
