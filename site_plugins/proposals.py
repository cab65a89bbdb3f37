"""Proposals (and Calls for Judgment, Declarations of Victory): live tallies and whether each can be resolved.

For a BlogNomic game the tallies and verdicts come from the module itself
(``common.tally``, ``proposals.enact_now_reason`` / ``failable_reason``,
``judgment.status``, ``victory.dov_status``), evaluated at the build's "now",
so the page says what an admin could do at that moment, and, when nothing is
possible yet, from when it will be if the votes stay as they are.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any, Callable

from validators.engine import State
from validators.games._timefmt import hours, time_md, when
from validators.registry_ctx import ctx_at
from validators.roster import active_players, quorum
from validators.timeutil import format_time, parse_time

from .changes import cut_text
from .links import Links
from .markup import esc, md_text, plain_html, raw_html
from .svg import bar


def first_time(reason: Callable[[datetime], str | None], now: datetime, submitted: datetime,
               marks: tuple[float, ...] = (12, 24, 48)) -> tuple[datetime, str] | None:
    """The first moment from ``now`` on when ``reason`` gives a reason, trying the rules' time marks."""
    candidates = [now] + [submitted + timedelta(hours=h, seconds=s) for h in marks for s in (0, 1)]
    for t in sorted(c for c in candidates if c >= now):
        why = reason(t)
        if why:
            return t, why
    return None


def _value_text(value: Any) -> str:
    """A patch value as a file writes it: a string as it is, anything else in YAML's flow form (JSON is that form:
    ``{"a": 1}``, ``[1, 2]``, ``true``, ``null``), not Python's (``{'a': 1}``, ``True``, ``None``)."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, default=str)


def effects_html(effects: dict[str, Any] | None, result: str = "pending", kind: str = "proposal") -> str:
    """What a proposal (CfJ, DoV) changes, under a heading that fits its ``result``: what it does if it is enacted
    (a CfJ or DoV: if it passes) while it is pending, what it did once it was enacted or passed, what it would have
    done once it failed."""
    if not effects:
        return ""
    items = []
    for e in effects.get("rules", []) or []:
        label = " ".join(str(x) for x in (e.get("number", ""), e.get("title", "")) if x) or e.get("id", "")
        items.append(f"<li>{esc(e.get('op', ''))} rule <code>{esc(e.get('id', ''))}</code>"
                     f"{' (' + esc(label) + ')' if label and label != e.get('id') else ''}"
                     + (f"<blockquote>{plain_html(e['body'])}</blockquote>" if e.get("body") else "") + "</li>")
    for op in effects.get("gamestate", []) or []:
        value = ""
        if "value" in op or "from" in op:
            # cut as written, then escaped (an escaped text cut can fall inside "&amp;"); the whole shown on hover
            text = _value_text(op.get("value", op.get("from", "")))
            shown = cut_text(text, 120)
            title = f' title="{esc(cut_text(text, 2000))}"' if shown != text else ""
            value = f" = <code{title}>{esc(shown)}</code>"
        items.append(f"<li>{esc(op.get('op', ''))} <code>{esc(op.get('path', ''))}</code>{value}</li>")
    pending = "What it does if enacted" if kind == "proposal" else "What it does if it passes"
    summary = {"pending": pending, "enacted": "What it did", "passed": "What it did"}.get(result,
                                                                                          "What it would have done")
    return (f'<details class="nomic-effects"><summary>{summary}</summary>'
            f'<ul>{"".join(items)}</ul></details>')


AS_PROPOSER = "FOR (as proposer, not voted)"


def own_vote(state: State, item: dict[str, Any], name: str) -> str | None:
    """A player's vote on a pending proposal as their page lists it: the one they cast or, for its proposer who cast
    none, the FOR that seed 001 rule 1.4 (seed 003 rule 4) counts for them, worded as the proposals page words it;
    None when they have no vote (an idle proposer's FOR does not count: the tally leaves it out)."""
    vote = (item.get("votes") or {}).get(name)
    if vote is None and name == item.get("author"):
        from validators.games.blognomic.common import tally

        if name in tally(state, item).counted:
            return AS_PROPOSER
    return vote


def votes_table(item: dict[str, Any], counted: dict[str, str], links: Links, implicit_author: bool) -> str:
    rows = []
    votes = dict(item.get("votes") or {})
    author = item.get("author")
    if implicit_author and author and author not in votes and author in counted:
        votes[author] = AS_PROPOSER
    for voter, vote in votes.items():
        url = links.player(voter)
        who = f'<a href="{esc(url)}">{esc(voter)}</a>' if url else esc(voter)
        counts = counted.get(voter)
        counts_as = counts if counts else "not counted"
        rows.append(f"<tr><td>{who}</td><td>{esc(vote)}</td><td>{esc(counts_as)}</td></tr>")
    if not rows:
        return "<p>No votes yet.</p>"
    return ('<table class="nomic-votes"><thead><tr><th>Voter</th><th>Vote</th><th>Counts as</th></tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table>")


def tally_html(t: Any) -> str:
    return (f'<p class="nomic-tally"><span class="for">{t.for_} FOR</span> {bar(t.for_, t.quorum, cls="for")} '
            f'<span class="against">{t.against} AGAINST</span> {bar(t.against, t.quorum, cls="against")} '
            f'· Quorum {t.quorum}{f" · {t.abstain} abstaining" if t.abstain else ""}'
            f'{" · <strong>vetoed</strong>" if t.vetoed else ""}</p>')


def altered_html(item: dict[str, Any]) -> str:
    """" · altered <time> (title, text)": when its author last altered the post (before anyone commented), and what
    that changed; "altered 3 times, last <time> (text)" when there were more."""
    altered = item.get("altered") or []
    if not altered:
        return ""
    last = altered[-1]
    count = f"{len(altered)} times, last " if len(altered) > 1 else ""
    return (f' · altered {count}<time datetime="{esc(last.get("at", ""))}">{esc(when(last.get("at", "")))}</time>'
            f' ({esc(", ".join(last.get("changed") or []))})')


def _author(item: dict[str, Any], links: Links) -> str:
    url = links.player(item.get("author", ""))
    name = esc(item.get("author", ""))
    return f'<a href="{esc(url)}">{name}</a>' if url else name


def ago(age_hours: float) -> str:
    """How long ago, in words: 'under an hour ago' (not '0 h ago'), '5 h ago', '2 d 3 h ago'."""
    return "under an hour ago" if round(age_hours) < 1 else f"{hours(age_hours)} ago"


def pending_proposal(state: State, p: dict[str, Any], links: Links, now: datetime, oldest: int | None) -> list[str]:
    from validators.games.blognomic.common import clock_start, in_hiatus, tally
    from validators.games.blognomic.due import repealed_resolution
    from validators.games.blognomic.proposals import ENACT, enact_now_reason, enactable_reason, failable_reason

    t = tally(state, p)
    submitted = parse_time(p["submitted"])
    age = (now - submitted).total_seconds() / 3600
    out = [f"### #{p['id']} {md_text(p.get('title', ''))} {{#proposal-{p['id']}}}", "",
           '<div class="nomic-proposal pending">',
           f'<p class="nomic-meta">by {_author(p, links)}, <time datetime="{esc(p["submitted"])}">'
           f'{esc(when(p["submitted"]))}</time> ({esc(ago(age))}){altered_html(p)}'
           f'{" · <strong>self-killed</strong>" if p.get("self_killed") else ""}</p>']
    if p.get("text"):
        out.append(f'<div class="nomic-text">{plain_html(p["text"])}</div>')
    out += [x for x in (effects_html(p.get("effects")), tally_html(t)) if x]
    out.append(votes_table(p, t.counted, links, implicit_author=True))
    enact = enact_now_reason(state, p, now, t)  # not when its effects cannot be applied: core.enact refuses then
    fail = failable_reason(state, p, now, t)
    verdict = []
    stuck = repealed_resolution(state, ENACT)
    if stuck:
        # seed 001 1.5 / seed 003 rule 5 repealed: core.enact and core.fail are out of the game, so the proposal is
        # neither "Can be enacted now" nor from a later time
        verdict.append(f'<span class="nomic-verdict wait">Stays pending</span>: {esc(stuck)}.')
    elif in_hiatus(state):
        # seed 001 1.9 / seed 003 rule 9: in Hiatus no proposal is enacted or failed (core.enact and core.fail are
        # refused), so the page must not say "Can be enacted now"; what the votes would allow is said as a forecast
        would = " or ".join(x for x in (f"be enacted ({enact})" if enact else "",
                                         f"be failed ({fail})" if fail else "") if x)
        then = f". As the votes stand, it could then {esc(would)}." if would else "."
        verdict.append('<span class="nomic-verdict wait">The game is in Hiatus</span>: no proposal may be enacted or '
                       "failed until it ends" + then)
    else:
        if enact:
            verdict.append(f'<span class="nomic-verdict enact">Can be enacted now</span>: {esc(enact)}.')
        if fail:
            verdict.append(f'<span class="nomic-verdict fail">Can be failed now</span>: {esc(fail)}.')
    if not enact and not fail and not verdict:
        start = clock_start(state, p)  # its posting, or its last alteration (option alter_restarts_clock)
        later_e = first_time(lambda at: enactable_reason(state, p, at, tally(state, p)), now, start)
        later_f = first_time(lambda at: failable_reason(state, p, at, tally(state, p)), now, start)
        if later_e:
            verdict.append(f'<span class="nomic-verdict wait">Can be enacted from '
                           f'<time datetime="{format_time(later_e[0])}">{esc(when(format_time(later_e[0])))}</time>'
                           f'</span> if the votes stay as they are ({esc(later_e[1])}).')
        if later_f:
            verdict.append(f'<span class="nomic-verdict wait">Can be failed from '
                           f'<time datetime="{format_time(later_f[0])}">{esc(when(format_time(later_f[0])))}</time>'
                           f'</span> if the votes stay as they are ({esc(later_f[1])}).')
        if not later_e and not later_f:
            verdict.append('<span class="nomic-verdict wait">Neither enactable nor failable yet</span>: '
                           "it needs more votes.")
    if oldest is not None and oldest != p["id"]:
        verdict.append(f'Only the oldest pending proposal may be resolved: <a href="#proposal-{oldest}">#{oldest}</a> '
                       "goes first.")
    out.append(f'<p class="nomic-verdicts">{" ".join(verdict)}</p>')
    out += ["</div>", ""]
    return out


def resolvable_now(state: State, now: datetime) -> dict[Any, tuple[str, str]]:
    """The pending proposals of a BlogNomic game that may be resolved at ``now``, for its front page: each id with
    what may be done ("enacted", "failed") and why, as its place on the Proposals page says it ("Can be failed now:
    open 48 hours with ..."). Only the oldest pending proposal may be resolved; none while the game is in Hiatus or
    resolution is repealed (the Proposals page says why)."""
    from validators.games.blognomic.common import in_hiatus, tally
    from validators.games.blognomic.due import repealed_resolution
    from validators.games.blognomic.proposals import ENACT, enact_now_reason, failable_reason

    items = (state.docs.get("proposals") or {}).get("proposals") or []
    pending = sorted((p for p in items if p.get("status") == "pending"), key=lambda p: (p["submitted"], p["id"]))
    if not pending or repealed_resolution(state, ENACT) or in_hiatus(state):
        return {}
    p = pending[0]
    t = tally(state, p)
    enact = enact_now_reason(state, p, now, t)
    if enact:
        return {p["id"]: ("enacted", enact)}
    fail = failable_reason(state, p, now, t)
    return {p["id"]: ("failed", fail)} if fail else {}


def item_src(game: str, prefix: str, ident: Any) -> str:
    """The page of one proposal (CfJ, DoV): games/<game>/proposals/<id>.md, cfj-<id>.md, dov-<id>.md."""
    return f"games/{game}/proposals/{'' if prefix == 'proposal' else prefix + '-'}{ident}.md"


def archive_table(items: list[dict[str, Any]], links: Links, prefix: str, label: str, pages: bool = False) -> str:
    rows = []
    for p in sorted(items, key=lambda p: p["id"], reverse=True):
        r = p.get("resolved") or {}
        t = r.get("tally") or {}
        tally_text = ", ".join(f"{v} {k.upper()}" for k, v in t.items())
        # an untitled item is named by the start of its text, on one line, cut as written and then escaped
        title = esc(p.get("title", "") or cut_text(" ".join(str(p.get("text") or "").split()), 80))
        if pages:
            href = esc(links.other(item_src(links.game, prefix, p["id"])))
            title = f'<a href="{href}">{title or "#" + str(p["id"])}</a>'
        rows.append(f'<tr id="{prefix}-{p["id"]}"><td data-value="{p["id"]}">#{p["id"]}</td>'
                    f'<td>{title}</td><td>{_author(p, links)}</td>'
                    f'<td><span class="nomic-result {esc(r.get("result", p.get("status", "")))}">'
                    f'{esc(r.get("result", p.get("status", "")))}</span></td>'
                    f'<td>{esc(tally_text)}</td><td data-value="{esc(r.get("at", ""))}">{esc(when(r.get("at", "")))}'
                    f'{" by " + esc(r["by"]) if r.get("by") else ""}</td></tr>')
    if not rows:
        return f"<p>No {esc(label)} resolved yet.</p>"
    return ('<table class="nomic-archive nomic-sortable"><thead><tr><th data-sort="number">#</th>'
            '<th data-sort="text">Title</th><th data-sort="text">Author</th><th data-sort="text">Result</th>'
            '<th data-sort="text">Final tally</th><th data-sort="text">Resolved</th></tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table>")


def ran_out_html(state: State, item: dict[str, Any]) -> str:
    """Seed 001 1.6: a CfJ whose two days passed while the game was in Hiatus has ended, and does not start again
    when the Hiatus ends (``judgment.hiatus_ended`` marks it ``ran_out_in_hiatus``, the time the Hiatus ended): the
    page says so, and that its votes decide it. Empty for any other item."""
    ended = item.get("ran_out_in_hiatus")
    if not ended:
        return ""
    from validators.games.blognomic.common import opts

    days = opts(state)["cfj_days_in_hiatus"]
    head = (f"Its time is over: its {days} days ran out in the Hiatus that ended {time_md(ended)}, "
            "and a CfJ's time does not start again when a Hiatus ends, so ")
    if item.get("status") == "pending":
        return (f'<p class="nomic-note">{head}it may be resolved now by its votes: it passes '
                "if more than half of the cast votes are FOR, and fails otherwise.</p>")
    return f'<p class="nomic-note">{head}it was resolved by its votes.</p>'


def pending_judgment(state: State, item: dict[str, Any], links: Links, now: datetime, kind: str) -> list[str]:
    from validators.games.blognomic.common import tally

    # a context at the build's moment, as nomic due reads it: the status functions ask it for documents, the time,
    # players (1.9: a DoV's maker who left or is idle cannot win) and keywords
    at = ctx_at(state, now)
    t = tally(state, item, implicit_author=False)
    from validators.games.blognomic.due import repealed_resolution
    from validators.games.blognomic.judgment import CFJ_RESOLVE
    from validators.games.blognomic.victory import DOV_RESOLVE

    # seed 001 1.6 / 1.9 (seed 003 rules 6, 9) repealed: nobody may resolve it, whatever its votes say
    stuck = repealed_resolution(state, CFJ_RESOLVE if kind == "cfj" else DOV_RESOLVE)
    if stuck:
        verdict = f"Stays pending: {stuck}."
    elif kind == "cfj":
        from validators.games.blognomic.judgment import status

        ok, why = status(at, item)
        verdict = ("Can be resolved now" if ok else "Cannot be resolved yet") + f": {why}."
    else:
        from validators.games.blognomic.victory import dov_status

        result, why = dov_status(at, item)
        verdict = (f"Resolving it now would {'pass' if result == 'passed' else 'fail'} it" if result
                   else "Cannot be resolved yet") + f": {why}."
    name = "CfJ" if kind == "cfj" else "DoV"
    title = item.get("title") or f"{name} by {item.get('author', '')}"
    out = [f"### {name} #{item['id']} {md_text(title)} {{#{kind}-{item['id']}}}", "",
           f'<div class="nomic-proposal pending {kind}">',
           f'<p class="nomic-meta">by {_author(item, links)}, <time datetime="{esc(item["submitted"])}">'
           f'{esc(when(item["submitted"]))}</time>{altered_html(item)}</p>']
    if item.get("text"):
        out.append(f'<div class="nomic-text">{plain_html(item["text"])}</div>')
    out += [x for x in (effects_html(item.get("effects"), kind=kind), tally_html(t)) if x]
    out.append(votes_table(item, t.counted, links, implicit_author=False))
    if kind == "cfj" and item.get("ran_out_in_hiatus") and not stuck:
        out.append(ran_out_html(state, item))
    if kind == "cfj" and item.get("quorum_reached") and not stuck:
        # seed 001 1.6 / seed 003 rule 6: a CfJ continues until it reaches Quorum (judgment.note_quorum); then it
        # takes no more votes, and its cast votes decide it
        out.append(f'<p class="nomic-note">Its voting is over: it reached Quorum {time_md(item["quorum_reached"])}, '
                   "and a CfJ ends then, so it takes no more votes; an admin resolves it by the votes cast.</p>")
    out.append(f'<p class="nomic-verdicts">{esc(verdict)}</p>')
    out += ["</div>", ""]
    return out


def render_proposals(state: State, links: Links, now: datetime, pages: bool = False) -> str:
    """The proposals page of a BlogNomic game: pending with live tallies, then the archive.

    ``pages``: each proposal (CfJ, DoV) also has a page of its own (``render_item``), which the archive links.
    """
    doc = state.docs.get("proposals") or {"proposals": []}
    items = doc.get("proposals") or []
    pending = sorted((p for p in items if p.get("status") == "pending"), key=lambda p: (p["submitted"], p["id"]))
    n = len(active_players(state))
    out = ["# Proposals", "",
           f'<p class="nomic-lede">Quorum is <strong>{quorum(state)}</strong> of {n} active '
           f'{esc(state.keyword("players", "players"))}. Tallies and verdicts as of '
           f'<time datetime="{format_time(now)}">{esc(when(format_time(now)))}</time>.</p>', "",
           "## Pending proposals {#pending}", ""]
    if not pending:
        out += ["<p>No proposal is pending.</p>", ""]
    oldest = pending[0]["id"] if pending else None
    for p in pending:
        block = pending_proposal(state, p, links, now, oldest)
        if pages:  # before the closing </div>: the way to its own page, with every action on it
            block[-2:-2] = [f'<p><a href="{esc(links.other(item_src(links.game, "proposal", p["id"])))}">'
                            f"Proposal #{p['id']} on its own page, with every action on it</a></p>"]
        out += block
    out += ["## Archive {#archive}", "",
            archive_table([p for p in items if p.get("status") != "pending"], links, "proposal", "proposals", pages),
            ""]
    for kind, doc_name, key, label in (("cfj", "cfjs", "cfjs", "Calls for Judgment"),
                                       ("dov", "dovs", "dovs", "Declarations of Victory")):
        entries = (state.docs.get(doc_name) or {}).get(key) or []
        if not entries:
            continue
        out += [f"## {label} {{#{doc_name}}}", ""]
        for item in sorted((c for c in entries if c.get("status") == "pending"), key=lambda c: c["id"]):
            out += pending_judgment(state, item, links, now, kind)
        out += [archive_table([c for c in entries if c.get("status") != "pending"], links, kind, label.lower(), pages),
                ""]
    return "\n".join(out).rstrip() + "\n"


# ---------------------------------------------------------------- a page for each


ITEM_DOCS = (("proposal", "proposals", "proposals", "Proposal"), ("cfj", "cfjs", "cfjs", "Call for Judgment"),
             ("dov", "dovs", "dovs", "Declaration of Victory"))


def item_timeline(entries: list[Any]) -> dict[tuple[str, int], list[Any]]:
    """(kind, id) -> the log entries that name it: proposed, voted on, resolved. Built once for a game."""
    keys = {"proposal": "proposal", "cfj": "cfj", "dov": "dov"}
    out: dict[tuple[str, int], list[Any]] = {}
    for e in entries:
        params = e.record.get("params") or {}
        found = False
        for kind, key in keys.items():
            ident = params.get(key) if isinstance(params, dict) else None
            if isinstance(ident, int) and not isinstance(ident, bool):
                out.setdefault((kind, ident), []).append(e)
                found = True
        if not found:  # the action that made it: its outcome names the id
            for o in e.record.get("outcome") or []:
                if isinstance(o, dict):
                    for kind, key in keys.items():
                        if isinstance(o.get(key), int) and e.name.endswith((".propose", ".cfj", ".dov")):
                            out.setdefault((kind, o[key]), []).append(e)
    return out


def render_item(state: State, item: dict[str, Any], kind: str, links: Links, now: datetime,
                timeline: list[Any], oldest: int | None = None) -> str:
    """The page of one proposal (CfJ, DoV): the text, what it does, its votes, and every action on it."""
    name = {"proposal": "Proposal", "cfj": "Call for Judgment", "dov": "Declaration of Victory"}[kind]
    back = links.page("proposals", "pending" if item.get("status") == "pending" else f"{kind}-{item['id']}")
    if item.get("status") == "pending":
        block = pending_proposal(state, item, links, now, oldest) if kind == "proposal" else \
            pending_judgment(state, item, links, now, kind)
        body = block[2:]  # its own heading is the page's
    else:
        r = item.get("resolved") or {}
        t = r.get("tally") or {}
        result = r.get("result", item.get("status", ""))
        body = [f'<div class="nomic-proposal {esc(result)}">',
                f'<p class="nomic-meta">by {_author(item, links)}, <time datetime="{esc(item.get("submitted", ""))}">'
                f'{esc(when(item.get("submitted", "")))}</time> · <span class="nomic-result {esc(result)}">'
                f'{esc(result)}</span>'
                + (f' <time datetime="{esc(r.get("at", ""))}">{esc(when(r.get("at", "")))}</time>'
                   if r.get("at") else "")
                + (f" by {esc(r['by'])}" if r.get("by") else "") + altered_html(item) + "</p>"]
        if item.get("text"):
            body.append(f'<div class="nomic-text">{plain_html(item["text"])}</div>')
        if item.get("effects"):
            body.append(effects_html(item.get("effects"), result, kind))
        if t:
            final = ", ".join(f"{v} {k.upper()}" for k, v in t.items())
            body.append(f'<p class="nomic-tally">Final tally: {esc(final)}</p>')
        if kind == "cfj" and item.get("ran_out_in_hiatus"):
            body.append(ran_out_html(state, item))
        votes = dict(item.get("votes") or {})
        from validators.games.blognomic.common import author_counts_for

        if kind == "proposal" and author_counts_for(state, item):
            votes[item["author"]] = AS_PROPOSER
        rows = "".join(f"<tr><td>{_who(v, links)}</td><td>{esc(x)}</td></tr>" for v, x in votes.items())
        body.append('<table class="nomic-votes"><thead><tr><th>Voter</th><th>Vote</th></tr></thead>'
                    f"<tbody>{rows}</tbody></table>" if rows else "<p>No votes.</p>")
        body = [raw_html("\n".join([*body, "</div>"]))]
    title = item.get("title") or f"{name} by {item.get('author', '')}"
    out = [f"# {name} #{item['id']}: {md_text(title)}", "", *body, ""]
    if timeline:
        out += ["## On the record {#record}", ""]
        record = ["<ol class=\"nomic-timeline\">"]
        for e in timeline:
            record.append(f'<li><time datetime="{esc(e.record.get("at", ""))}">{esc(when(e.record.get("at", "")))}'
                          f'</time> {_who(e.actor, links)} <a href="{esc(links.action(e.anchor))}">'
                          f'<code>{esc(e.name)}</code></a>{_param_note(e.record.get("params"))}</li>')
        out += [raw_html("\n".join([*record, "</ol>"])), ""]
    out += [f'<p><a href="{esc(back)}">All proposals</a></p>', ""]
    return "\n".join(out)


def _who(name: str, links: Links) -> str:
    url = links.player(name)
    return f'<a href="{esc(url)}">{esc(name)}</a>' if url else esc(name)


def _param_note(params: Any) -> str:
    if isinstance(params, dict) and isinstance(params.get("vote"), str):
        return f" {esc(params['vote'])}"
    return ""
