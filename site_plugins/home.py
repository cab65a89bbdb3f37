"""The home page's table of games, and each game's front page."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence

from validators.engine import Open, State
from validators.games._timefmt import when
from validators.judge import cited
from validators.roster import active_players

from .links import Links, relative
from .markup import cap, esc, md_text, plain_html


@dataclass
class Summary:
    """What the home page says of one game."""

    name: str  # folder name
    title: str
    dynasty: str
    leader: str | None
    leader_word: str
    hiatus: bool
    players: int
    idle: int
    player_word: str
    last_action: str  # "Emeka core.idle"
    last_at: str
    # the active players the module's rules do not count among its players, each with why (``Module.apart``):
    # ``players`` does not count them
    apart: tuple[tuple[str, str], ...] = ()


def in_hiatus(state: State) -> bool:
    if "blognomic" in state.modules and {"dynasty", "dovs"} <= set(state.docs):
        from validators.games.blognomic.common import in_hiatus as blog_hiatus

        return blog_hiatus(state)
    return bool((state.docs.get("dynasty") or {}).get("hiatus"))


def summarize(name: str, state: State, leader: str | None, last_actor: str = "", last_name: str = "",
              last_at: str = "", apart: Mapping[str, tuple[str, str]] | None = None) -> Summary:
    dyn = state.docs.get("dynasty") or {}
    players = state.doc("roster").get("players") or []
    active = active_players(state)
    kept = tuple((p["name"], apart[p["name"]][0]) for p in active if apart and p["name"] in apart)
    return Summary(
        name=name, title=str(state.config.get("name", name)),
        dynasty=str(dyn.get("title") or (f"Dynasty {dyn['number']}" if dyn.get("number") else "")),
        leader=leader, leader_word=state.keyword("leader", "leader"), hiatus=in_hiatus(state),
        players=len(active) - len(kept), idle=sum(1 for p in players if p.get("idle")),
        player_word=state.keyword("players", "players"),
        last_action=f"{last_actor} {last_name}".strip(), last_at=last_at, apart=kept)


def render_games_table(summaries: Sequence[Summary], here: str = "index.md") -> str:
    """The table of every game, for the home page."""
    if not summaries:
        return "<p>There are no games yet: a game is a folder <code>content/&lt;game&gt;/</code> with a game.yaml.</p>"
    rows = []
    for s in summaries:
        url = relative(here, f"games/{s.name}/index.md")
        hist = relative(here, f"games/{s.name}/history.md")
        leader = f"{esc(s.leader)} <small>({esc(s.leader_word)})</small>" if s.leader else "—"
        status = '<span class="nomic-badge hiatus">in Hiatus</span>' if s.hiatus else \
            '<span class="nomic-badge active">playing</span>'
        last = (f'<a href="{esc(hist)}">{esc(s.last_action)}</a><br><time datetime="{esc(s.last_at)}">'
                f"{esc(when(s.last_at))}</time>") if s.last_action else "—"
        rows.append(f'<tr><td><a href="{esc(url)}"><strong>{esc(s.title)}</strong></a></td>'
                    f"<td>{esc(s.dynasty) or '—'}</td><td>{leader}</td><td>{status}</td>"
                    f'<td data-value="{s.players}">{s.players} {esc(cap(s.player_word))}'
                    f"{f' (+{s.idle} idle)' if s.idle else ''}</td><td>{last}</td></tr>")
    return ('<table class="nomic-games nomic-sortable"><thead><tr><th data-sort="text">Game</th>'
            '<th data-sort="text">Dynasty</th><th data-sort="text">Leader</th><th data-sort="text">Status</th>'
            '<th data-sort="number">Players</th><th data-sort="text">Last action</th></tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table>")


@dataclass
class Happenings:
    """What a game's front page says is going on: what is up for a vote (each with the link to its page, or ""),
    the last actions (who, which, when, the link to each in the history), and the scheduled events next (when,
    what, the rule that makes it, and whether it has fallen due and waits for a tick)."""

    # each with the link to its page, and what may be done with it now, why, and where that is said (or None)
    votes: list[tuple[Open, str, tuple[str, str, str] | None]] = field(default_factory=list)
    recent: list[tuple[str, str, str, str]] = field(default_factory=list)  # actor, action, at, its history link
    coming: list[tuple[str, str, str, bool]] = field(default_factory=list)  # at, what, rule id or "", fallen due


def _time(value: str) -> str:
    return f'<time datetime="{esc(value)}">{esc(when(value))}</time>'


def render_happenings(h: Happenings, state: State, links: Links, player_word: str = "players") -> list[str]:
    """The "What's going on" section of a game's front page; who acted leads to their page, a rule to its place in
    the ruleset."""
    def who(name: str) -> str:
        url = links.player(name)
        return f'<a href="{esc(url)}">{esc(name)}</a>' if url else esc(name)

    out = ["## What's going on {#now}", "", "### Up for a vote", ""]
    if h.votes:
        items = []
        for o, url, can in h.votes:
            name = f"{o.kind} #{o.ident}" + (f" {o.title}" if o.title else "")
            named = f'<a href="{esc(url)}">{esc(name)}</a>' if url else esc(name)
            count = f"{o.votes} vote{'' if o.votes == 1 else 's'}"
            split = f" ({esc(o.split)})" if o.split else ""  # how they count, as the tally counts them
            tally = (f"voting is over ({esc(o.over)}) with {count}{split}, for an admin to resolve" if o.over else
                     f"{count} so far{split}")
            if can:  # what may be done now, and why, linked to where the Proposals page says it
                said, why, where = can
                tally += (f': <a href="{esc(where)}">{esc(said)}</a>' if where else f": {esc(said)}") + \
                    f" ({esc(why)})"
            items.append(f"<li>{named}, by {who(o.author)}, since {_time(o.since)}: {tally}</li>")
        out.append('<ul class="nomic-now">' + "".join(items) + "</ul>")
    else:
        out.append("<p>Nothing is up for a vote.</p>")
    out += ["", "### Lately", ""]
    if h.recent:
        out.append('<ul class="nomic-now">' + "".join(
            f'<li>{_time(at)}: {who(actor)} <a href="{esc(url)}"><code>{esc(name)}</code></a></li>'
            for actor, name, at, url in h.recent) + "</ul>")
    else:
        out.append(f"<p>No action yet: the {esc(player_word)} stand where the game was founded.</p>")
    if h.coming:
        out += ["", "### Coming up", ""]
        items = []
        for at, what, rule, due in h.coming:
            tag = " (due now: anyone may run <code>nomic tick</code>)" if due else ""
            cite = f'<a href="{esc(links.rule(rule))}">{esc(cited(state, rule))}</a>' if rule in state.rules else \
                esc(rule)
            items.append(f"<li>{_time(at)}: {esc(what)}{f' <small>({cite})</small>' if cite else ''}{tag}</li>")
        out.append('<ul class="nomic-now">' + "".join(items) + "</ul>")
    return out + [""]


def turn_fact(state: State, links: Links) -> list[str]:
    """ifMUD's Rule 27: whose turn it is at the game's clock and until when at the latest (24 hours; Rule 92's six
    asleep at the switch), linked to the Turns page and the player's; nothing in another game or once it is over."""
    t = state.docs.get("turn") if "ifmud" in state.modules else None
    if not isinstance(t, dict) or not t.get("active") or t.get("over"):
        return []
    from validators.games.ifmud.turns import turn_length
    from validators.timeutil import format_time, parse_time

    who = str(t["active"])
    url = links.player(who)
    named = f'<a href="{esc(url)}">{esc(who)}</a>' if url else esc(who)
    try:
        until = format_time(parse_time(str(t.get("started"))) + turn_length(state))
        by = f", until {_time(until)} at the latest"
    except ValueError:  # a start that is no time: the check reports it
        by = ""
    number = esc(str(t.get("number", "")))
    turn = f'<a href="{esc(links.other(links.module_src("turn")))}">{number}</a>'
    return [f"<dt>Turn</dt><dd>{turn}: {named}{by}</dd>"]


def _named(links: Links, name: str) -> str:
    url = links.player(name)
    return f'<a href="{esc(url)}">{esc(name)}</a>' if url else esc(name)


def render_game_home(state: State, s: Summary, links: Links, pages: Sequence[tuple[str, str]],
                     module_titles: Mapping[str, str] | None = None, happenings: Happenings | None = None) -> str:
    """A game's front page: who leads, who plays, what just happened, and where to read more; the modules its rules
    come from by their titles ("BlogNomic core rules"), not their folder names."""
    out = [f"# {md_text(s.title)}", ""]
    if state.config.get("description"):
        out.append(f'<div class="nomic-lede">{plain_html(str(state.config["description"]))}</div>')
    facts = []
    if s.dynasty:
        facts.append(f"<dt>Dynasty</dt><dd>{esc(s.dynasty)}</dd>")
    if s.leader:
        url = links.player(s.leader)
        who = f'<a href="{esc(url)}">{esc(s.leader)}</a>' if url else esc(s.leader)
        facts.append(f"<dt>{esc(cap(s.leader_word))}</dt><dd>{who}</dd>")
    facts.append(f"<dt>Status</dt><dd>{'in Hiatus' if s.hiatus else 'playing'}</dd>")
    facts += turn_fact(state, links)
    # one the module's rules do not count (Settlement's Leader, by Royal Blood no Colonist) is named apart, with why
    apart = "".join(f"; and {_named(links, name)}, {esc(why)}" for name, why in s.apart)
    facts.append(f'<dt>{esc(cap(s.player_word))}</dt><dd><a href="{esc(links.page("roster"))}">{s.players} active'
                 f"{f', {s.idle} idle' if s.idle else ''}</a>{apart}</dd>")
    if s.last_action:
        facts.append(f'<dt>Last action</dt><dd><a href="{esc(links.page("history"))}">{esc(s.last_action)}</a>, '
                     f"{esc(when(s.last_at))}</dd>")
    titles = module_titles or {}
    facts.append(f"<dt>Rules from</dt><dd>{', '.join(esc(titles.get(m, m)) for m in state.modules)}</dd>")
    out += [f'<dl class="nomic-facts">{"".join(facts)}</dl>', ""]
    if happenings is not None:
        out += render_happenings(happenings, state, links, s.player_word)
    out += ["## Pages", ""]
    out.append('<ul class="nomic-pages">' + "".join(f'<li><a href="{esc(url)}">{esc(title)}</a></li>'
                                                      for title, url in pages) + "</ul>")
    past = (state.docs.get("dynasty") or {}).get("past") or []
    if past:
        # earlier dynasties stay readable: who led, the theme, when, who won
        out += ["", "## Earlier dynasties", "", "<table>", "<tr><th>Dynasty</th><th>Theme</th><th>From</th>"
                "<th>To</th><th>Won by</th></tr>"]
        for d in reversed(past):
            out.append(f"<tr><td>{esc(str(d.get('title', '')))}</td><td>{esc(str(d.get('theme', '')))}</td>"
                       f"<td>{esc(when(str(d.get('started', ''))))}</td><td>{esc(when(str(d.get('ended', ''))))}</td>"
                       f"<td>{esc(str(d.get('winner', '')))}</td></tr>")
        out.append("</table>")
    return "\n".join(out) + "\n"
