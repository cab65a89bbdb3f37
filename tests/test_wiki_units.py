"""Unit tests of the wiki's plain functions: links, escaping, ordering, the replay, robustness to modules."""

from __future__ import annotations

import dataclasses
import re
from datetime import timedelta
from pathlib import Path

import pytest

from site_plugins import model
from site_plugins.changes import describe
from site_plugins.links import player_slugs, relative
from site_plugins.markup import css_colour, md_text, rule_html, safe_href
from site_plugins.pages import build_game
from site_plugins.players import stat_series
from site_plugins.plugin import edit_url, repository_url
from site_plugins.proposals import first_time
from site_plugins.ruleset import number_key
from validators.engine import Module, Page, Registry, State
from validators.modules import all_modules
from validators.timeutil import parse_time

ROOT = Path(__file__).resolve().parents[1]
NOW = parse_time("2026-11-05T12:00:00Z")


@pytest.mark.parametrize("here, there, anchor, want", [
    ("games/g/roster.md", "games/g/players/alice.md", "", "../players/alice/"),
    ("games/g/players/alice.md", "games/g/roster.md", "x", "../../roster/#x"),
    ("games/g/index.md", "games/g/history.md", "", "history/"),
    ("games/g/history.md", "games/g/index.md", "", "../"),
    ("index.md", "games/g/index.md", "", "games/g/"),
    ("games/g/history.md", "games/g/feed.xml", "", "../feed.xml"),
    ("games/g/ruleset.md", "games/g/ruleset.md", "quorum", "#quorum"),
])
def test_relative_links(here: str, there: str, anchor: str, want: str) -> None:
    assert relative(here, there, anchor) == want


def test_player_slugs_are_distinct() -> None:
    assert player_slugs(["Mr. X", "Mr X", "O'Brien"]) == {"Mr. X": "mr-x", "Mr X": "mr-x-2", "O'Brien": "o-brien"}


def test_numbers_sort_naturally() -> None:
    numbers = ["1.10", "G1", "1.2", "2.1", "1.2.1", "10", "9"]
    assert sorted(numbers, key=number_key) == ["1.2", "1.2.1", "1.10", "2.1", "9", "10", "G1"]


@pytest.mark.parametrize("href, ok", [("https://x.org", True), ("#a", True), ("../b/", True), ("mailto:a@b", True),
                                      ("javascript:alert(1)", False), ("JavaScript:x", False),
                                      ("data:text/html,x", False), ("", False),
                                      # as the browser reads the attribute: references decoded, tabs dropped
                                      ("javascript&#58;alert(1)", False), ("javascript&colon;x", False),
                                      ("&#106;avascript:x", False), ("java&#x09;script:x", False),
                                      (" \x01javascript:x", False), ("?a=1&amp;b=2#c", True)])
def test_safe_href(href: str, ok: bool) -> None:
    assert safe_href(href) is ok


def test_escaping() -> None:
    assert md_text("<b>*x*</b> {#id}") == "&lt;b&gt;&#42;x&#42;&lt;/b&gt; &#123;&#35;id&#125;"
    assert md_text("- [x](javascript:y) a|b ~~c~~\n#d") == \
        "&#45; &#91;x&#93;(javascript:y) a&#124;b &#126;&#126;c&#126;&#126; &#35;d"
    assert css_colour("#ff0000") == "#ff0000" and css_colour("red; x: url(y)") is None
    html = rule_html("<div onclick=x>hi</div>\n\n<script>x</script>", {"Day": "day"})
    assert "<div" not in html and "<script" not in html and "&lt;script&gt;" in html


def test_glossary_terms_link_with_the_same_capitals_only() -> None:
    html = rule_html("A Day is a day. Two Days.", {"Day": "day"})
    assert html.count('href="#day"') == 2 and "a day." in html


def test_first_time_finds_the_time_mark() -> None:
    submitted = NOW - timedelta(hours=5)
    got = first_time(lambda t: "old enough" if t - submitted >= timedelta(hours=12) else None, NOW, submitted)
    assert got == (submitted + timedelta(hours=12), "old enough")
    assert first_time(lambda t: None, NOW, submitted) is None


def test_edit_urls(monkeypatch: pytest.MonkeyPatch) -> None:
    assert edit_url("https://g.com/o/r", "main", "content/x/game.yaml") == "https://g.com/o/r/edit/main/content/x/game.yaml"
    assert edit_url("https://g.com/o/r", "main", "content/x/ruleset/") == "https://g.com/o/r/tree/main/content/x/ruleset"
    assert edit_url("", "main", "content/x/game.yaml") is None
    monkeypatch.delenv("NOMIC_REPO_URL", raising=False)
    monkeypatch.setenv("GITHUB_REPOSITORY", "o/r")
    monkeypatch.setenv("GITHUB_SERVER_URL", "https://github.com")
    assert repository_url("") == "https://github.com/o/r"
    assert repository_url("https://x.org/a/") == "https://x.org/a"


@pytest.fixture(scope="module")
def blognomic() -> model.Game:
    return model.load(ROOT, "blognomic")


def test_the_replay_reaches_the_files(blognomic: model.Game) -> None:
    assert blognomic.replayed and not blognomic.problems
    assert len(blognomic.entries) == len(blognomic.files.actions)
    last = blognomic.entries[-1].after
    assert last is not None
    assert last.docs["roster"] == blognomic.state.docs["roster"]
    assert {k: r.body for k, r in last.rules.items()} == {k: r.body for k, r in blognomic.state.rules.items()}


def test_changes_in_words(blognomic: model.Game) -> None:
    idle = blognomic.entries[-1]
    assert idle.before is not None and idle.after is not None
    words = describe(idle.before, idle.after)
    assert any("Emeka › idle: no → yes" in w for w in words), words


def test_many_changes_are_worded_up_to_the_limit_and_the_rest_counted() -> None:
    before = State({"modules": []}, {"roster": {"players": [{"name": f"P{i:02}", "stats": {"n": 0}}
                                                            for i in range(20)]}, "notes": {"a": 1}}, {})
    after = State({"modules": []}, {"roster": {"players": [{"name": f"P{i:02}", "stats": {"n": i + 1}}
                                                           for i in range(20)]}, "notes": {"a": 2}}, {})
    words = describe(before, after, limit=12)
    assert len(words) == 13 and words[-1] == "… and 9 more changes"  # 21 changes: notes.a, then 20 players
    assert words[0] == "<b>notes</b> › a: 1 → 2"
    assert words[1] == "<b>roster</b> › players › P00 › stats › n: 0 → 1"
    assert words[11] == "<b>roster</b> › players › P10 › stats › n: 0 → 11"
    assert describe(before, after, limit=30)[:12] == words[:12]


def test_an_empty_list_in_a_change_reads_none() -> None:
    before = State({"modules": []}, {"justice": {"candidates": []}}, {})
    after = State({"modules": []}, {"justice": {"candidates": [{"player": "Cleo", "endorsements": []}],
                                                "tied": []}}, {})
    words = describe(before, after)
    assert "<b>justice</b> › candidates › Cleo: added {player: Cleo, endorsements: none}" in words, words
    assert "<b>justice</b> › tied: added none" in words and not any("[]" in w for w in words), words


def test_stat_series_follows_the_roster() -> None:
    game = model.load(ROOT, "blognomic")

    def with_bananas(state: State | None, n: int) -> State:
        assert state is not None
        roster = {**state.docs["roster"], "players": [{**p, "stats": {"bananas": n}} for p in state.players()]}
        return State(state.config, {**state.docs, "roster": roster}, state.rules)

    # everyone gets a stat that changes at the last action: the series picks up the new value then
    last = game.entries[-1]
    last.before, last.after = with_bananas(last.before, 1), with_bananas(last.after, 4)
    series = stat_series(game)
    assert series["Alice"]["bananas"] == [(last.at, 4)]


def _module_pages(state: State) -> list[Page]:
    return [Page("line", "The Line", '<svg class="line-map" width="10" height="10"></svg>\n', "gamestate/roster.yaml"),
            Page("roster", "Clash", "a page whose slug is one of the wiki's own", "")]


def _broken_pages(state: State) -> list[Page]:
    raise RuntimeError("drawing bug")


def test_module_pages_are_added_and_a_broken_module_only_warns(blognomic: model.Game) -> None:
    fake = Module(name="fake", title="Fake", pages=_module_pages)
    broken = Module(name="broken", title="Broken", pages=_broken_pages)
    blognomic.files.registry = Registry([all_modules()["blognomic"], fake, broken])
    site = build_game(blognomic, now=NOW, repo_url="https://g.com/o/r")
    srcs = {p.src: p for p in site.pages}
    assert "games/blognomic/line.md" in srcs
    assert srcs["games/blognomic/line.md"].source == "content/blognomic/gamestate/roster.yaml"
    assert srcs["games/blognomic/line.md"].content.startswith("# The Line")
    assert "games/blognomic/m-roster.md" in srcs  # the wiki's own roster page is not overwritten
    assert any("broken" in w and "drawing bug" in w for w in site.warnings)
    assert {"The Line": "games/blognomic/line.md"} in site.nav
    assert site.nav[0] == {"BlogNomic (example)": "games/blognomic/index.md"}


def test_the_game_page_s_facts_are_labelled_in_capitals_whatever_case_the_game_s_keywords_are() -> None:
    # ifMUD's keyword for its players is "players"; a label starts with a capital, as "Status" does
    site = build_game(model.load(ROOT, "ifmud"), now=NOW)
    home = next(p.content for p in site.pages if p.src == "games/ifmud/index.md")
    labels = re.findall(r"<dt>([^<]*)</dt>", home)
    assert "Players" in labels and "Status" in labels, labels
    assert "<dt>Rules from</dt><dd>ifMUD Nomic</dd>" in home  # the module's title, not its folder name ifmud
    assert all(label[:1].isupper() for label in labels), labels
    # so is the navigation's entry for the players' pages, and the count on the home page's table of games
    assert {"Each Player"} <= {k for item in site.nav for k in item}, site.nav
    from site_plugins.home import Summary, render_games_table

    summary = Summary("ifmud", "ifMUD", "", None, "leader", False, 5, 0, "players", "", "")
    assert '<td data-value="5">5 Players</td>' in render_games_table([summary])
    # the front page lists the pages in the navigation's order: the game's own pages before History and Actions
    listed = re.findall(r'<li><a href="[^"]*">([^<]*)</a></li>', home.split("## Pages")[1])
    order = [next(iter(item)) for item in site.nav[1:] if isinstance(next(iter(item.values())), str)]
    assert listed == order, (listed, order)
    assert listed[-2:] == ["History", "Actions"] and listed.index("Map") < listed.index("History"), listed


def test_a_module_page_s_table_links_each_player_to_their_page() -> None:
    from site_plugins.links import Links, link_player_cells

    links = Links("g", "games/g/index.md", player_slugs(["Ada", "Zoe Abbott", "O'Brien"]))
    markdown = "\n".join(["Ada leads.", "", "| Player | Where |", "|---|---|", "| Ada | Attic |",
                           "| Zoe Abbott | Ada |", "| Ada (ascended) | ▶ Zoe Abbott |",
                           "| O'Brien | Ada, Zoe Abbott |"])
    out = link_player_cells(markdown, "games/g/sheets.md", links).split("\n")
    assert out[0] == "Ada leads."  # prose is left alone, and so is the header row
    assert out[2] == "| Player | Where |" and out[3] == "|---|---|"
    assert out[4] == "| [Ada](players/ada.md) | Attic |"
    assert out[5] == "| [Zoe Abbott](players/zoe-abbott.md) | [Ada](players/ada.md) |"
    assert out[6] == "| [Ada](players/ada.md) (ascended) | ▶ [Zoe Abbott](players/zoe-abbott.md) |"
    assert out[7] == "| O'Brien | Ada, Zoe Abbott |"  # a name Markdown escapes; a list of names
    deeper = link_player_cells("| Ada |", "games/g/rooms/attic.md", links)
    assert deeper == "| [Ada](../players/ada.md) |"
    # in the built wiki: the ifMUD turn page's players lead to their pages
    site = build_game(model.load(ROOT, "ifmud"), now=NOW)
    turn = next(p.content for p in site.pages if p.src == "games/ifmud/turn.md")
    assert "| [Adam Biltcliffe](players/adam-biltcliffe.md) |" in turn, turn


def _now_section(site: object, game: str) -> str:
    home = next(p.content for p in site.pages if p.src == f"games/{game}/index.md")  # type: ignore[attr-defined]
    assert "## What's going on {#now}" in home
    return home.split("## What's going on")[1].split("## Pages")[0]


def test_the_front_page_says_what_is_up_for_a_vote_what_was_done_lately_and_what_comes_next() -> None:
    game = model.load(ROOT, "cycle12")
    site = build_game(game, now=parse_time("2026-11-24T08:00:00Z"))
    now = _now_section(site, "cycle12")
    votes, lately, coming = (now.split(f"### {h}")[1].split("###")[0] for h in ("Up for a vote", "Lately",
                                                                               "Coming up"))
    # 004 Lifecycle: proposal 4 is pending, on the Proposals page at its own place; 3 and the others are resolved
    assert re.findall(r'<a href="([^"]*)">(Proposal #\d+[^<]*)</a>', votes) == [
        ("cycle12-proposals/#proposal-4", "Proposal #4 Name the well")]
    assert 'by <a href="players/cleo/">Cleo</a>' in votes and "5 votes so far" in votes
    # the last five actions, newest first, each leading to its entry in the history
    items = re.findall(r'<li><time datetime="([^"]*)">[^<]*</time>: <a href="[^"]*">([^<]*)</a> '
                       r'<a href="([^"]*)"><code>([^<]*)</code></a></li>', lately)
    last = game.entries[-5:][::-1]
    assert [(at, who, act) for at, who, _, act in items] == [
        (e.record["at"], e.actor, e.name) for e in last]
    assert all(url.endswith("#" + e.anchor) for (_, _, url, _), e in zip(items, last))
    # 004 Time: the phase begins each Monday and Thursday; the two since the last action wait for a tick
    when = re.findall(r'<li><time datetime="([^"]*)">.*?</li>', coming)
    assert when == ["2026-11-19T00:00:00Z", "2026-11-23T00:00:00Z", "2026-11-26T00:00:00Z", "2026-11-30T00:00:00Z"]
    assert coming.count("(due now: anyone may run <code>nomic tick</code>)") == 2
    assert '<a href="ruleset/#time">Time</a>' in coming
    # a week later the same four fell due and are all said to wait, and the week after has its own two
    later = _now_section(build_game(game, now=parse_time("2026-12-01T08:00:00Z")), "cycle12")
    assert later.count("(due now: anyone may run") == 4


def test_the_front_page_says_a_proposal_can_be_resolved_now_as_its_proposals_page_does() -> None:
    """BlogNomic 1.5: proposal 3 (2 FOR, 2 AGAINST after 48 hours) "Can be failed now", said the Proposals page; the
    front page, where a player looks for what they may do, said only "3 votes so far". It says what the Proposals
    page says at the same time, and nothing while it cannot be resolved yet."""
    game = model.load(ROOT, "blognomic")
    votes = _now_section(build_game(game, now=parse_time("2026-11-25T08:00:00Z")), "blognomic").split(
        "### Lately")[0]
    assert ("4 votes so far (2 FOR, 2 AGAINST, the proposer&#x27;s FOR among them): "
            '<a href="proposals/#proposal-3">can be failed now</a> '
            "(open 48 hours with 2 of 4 votes FOR: half or fewer)") in votes, votes
    early = _now_section(build_game(game, now=parse_time("2026-11-05T09:00:00Z")), "blognomic")
    assert "can be" not in early.split("### Lately")[0], early


def test_the_front_page_writes_a_scheduled_event_in_the_game_s_words_now() -> None:
    """Seed 003 rule 9: an Ascension Address may replace "Muffin" and "Stuffs"; rule 11's reckoning is written in the
    module's words, and the front page writes the game's current ones in their place, as the Actions page does."""
    game = model.load(ROOT, "quazie")
    said = "the Muffin with the most Stuffs becomes the Stuff Describer"
    now = _now_section(build_game(game, now=parse_time("2026-11-24T08:00:00Z")), "quazie")
    assert said in now and '<a href="ruleset/#nature-of-stuff">11 The Nature of Stuff</a>' in now, now
    state = game.state
    roster = {**state.docs["roster"], "stats": {**state.docs["roster"]["stats"], "stuff": {
        **state.docs["roster"]["stats"]["stuff"], "label": "Crumbs"}}}
    game.files.state = State({**state.config, "keywords": {**state.config["keywords"], "player": "Cupcake"}},
                             {**state.docs, "roster": roster}, state.rules)
    now = _now_section(build_game(game, now=parse_time("2026-11-24T08:00:00Z")), "quazie")
    assert said not in now and ": the Cupcake with the most Crumbs becomes" in now, now


def test_the_front_page_of_a_blognomic_game_lists_its_pending_proposal_and_no_calendar(
        blognomic: model.Game) -> None:
    site = build_game(blognomic, now=NOW)
    now = _now_section(site, "blognomic")
    pending = [p for p in blognomic.state.doc("proposals")["proposals"] if p["status"] == "pending"]
    assert pending, "the example has a pending proposal"
    from validators.games.blognomic.common import tally

    for p in pending:  # seed 001 1.4: each leads to its own page, with the votes as the tally counts them
        t = tally(blognomic.state, p)
        n = t.valid
        assert (f'<a href="proposals/{p["id"]}/">Proposal #{p["id"]} {p["title"]}</a>' in now
                and f"{n} vote{'' if n == 1 else 's'} so far ({t.for_} FOR, {t.against} AGAINST" in now), now
    assert "### Coming up" not in now  # no rule of the core schedules anything


def test_the_front_page_says_a_pending_cfj_takes_no_more_votes_once_it_reached_quorum_or_its_days_passed(
        blognomic: model.Game) -> None:
    """Seed 001 1.6: a CfJ continues until it reaches a Quorum of FOR or AGAINST votes, or its four days pass; then
    it is still pending until an admin resolves it, but no longer up for a vote."""
    state = blognomic.state
    first = state.doc("cfjs")["cfjs"][0]
    clock = state.docs["ledger"]["clock"]
    at_quorum = {**first, "id": 2, "status": "pending", "title": "Fix the map", "quorum_reached": clock}
    at_quorum.pop("resolved", None)
    running = {**at_quorum, "id": 3, "title": "Fix the clock", "votes": {"Alice": "FOR"}}
    running.pop("quorum_reached")
    old = {**running, "id": 4, "title": "Fix the past", "submitted": "2026-10-20T10:00:00Z"}
    cfjs = {**state.docs["cfjs"], "next": 5, "cfjs": [first, at_quorum, running, old]}
    blognomic.files.state = State(state.config, {**state.docs, "cfjs": cfjs}, state.rules)
    now = _now_section(build_game(blognomic, now=NOW), "blognomic")
    items = {int(n): text for n, text in re.findall(r"Call for Judgment #(\d+)[^<]*</a>(.*?)</li>", now)}
    assert set(items) == {2, 3, 4}, now
    # Emeka, idle, has no valid vote (seed 001 1.4)
    assert (f"voting is over (it reached Quorum at {clock}) with 4 votes (4 FOR, 0 AGAINST), "
            "for an admin to resolve") in items[2]
    assert items[3].endswith(": 1 vote so far (1 FOR, 0 AGAINST)")
    assert "voting is over (its 4 days passed at 2026-10-24T10:00:00Z) with 1 vote" in items[4]


def test_the_front_page_says_when_nothing_is_up_for_a_vote_and_a_broken_module_only_warns() -> None:
    from validators.games.ifmud.pages import open_votes

    game = model.load(ROOT, "ifmud")
    assert [p["status"] for p in game.state.doc("consent")["proposals"]] == ["ratified", "dead"]
    assert open_votes(game.state) == []
    site = build_game(game, now=NOW)
    assert "<p>Nothing is up for a vote.</p>" in _now_section(site, "ifmud")
    # its deadlines are no scheduled events (docs/modules/ifmud.md, "Time"): weeks later the turns of Rule 27 have run
    # out, and the front page says a tick is due as nomic due does; at the last action's own time, nothing is
    later = _now_section(build_game(game, now=parse_time("2026-11-24T08:00:00Z")), "ifmud")
    assert re.search(r"the rules&#x27; own deadlines have fallen due since the last action \(\d+ changes to the "
                     r"gamestate\) \(due now: anyone may run <code>nomic tick</code>\)", later), later
    assert "### Coming up" not in _now_section(build_game(game, now=game.entries[-1].at), "ifmud")
    # Rule 10: a proposal still being voted on is listed, with the votes cast so far
    consent = dict(game.state.docs["consent"])
    consent["proposals"] = [*consent["proposals"], {**consent["proposals"][1], "id": 3, "status": "pending",
                                                    "name": "Ring road again", "votes": {"Zoe Abbott": "aye"}}]
    state = State(game.state.config, {**game.state.docs, "consent": consent}, game.state.rules)
    [o] = open_votes(state)
    assert (o.kind, o.ident, o.title, o.votes, o.page, o.anchor) == ("Proposal", 3, "Ring road again", 1,
                                                                     "proposals", "proposal-3")
    page = next(p.content for p in build_game(game, now=NOW).pages if p.src == "games/ifmud/proposals.md")
    assert '| <span id="proposal-2"></span>2 | Free roads &#91;AB&#93; |' in page, page  # the row it leads to

    def broken(state: State, now: object) -> list:
        raise RuntimeError("tally bug")

    game.files.registry = Registry([*game.files.registry.modules[1:], Module(name="x", title="X", open_votes=broken)])
    site = build_game(game, now=NOW)
    assert any("open votes failed" in w and "tally bug" in w for w in site.warnings), site.warnings
    assert "<p>Nothing is up for a vote.</p>" in _now_section(site, "ifmud")


def test_a_game_without_initial_has_no_timeline_states(tmp_path: Path) -> None:
    import shutil

    shutil.copytree(ROOT / "content/blognomic", tmp_path / "content/solo", ignore=shutil.ignore_patterns("initial"))
    game = model.load(tmp_path, "solo")
    assert not game.replayed and game.entries and all(e.before is None for e in game.entries)
    site = build_game(game, now=NOW)
    assert any(p.src == "games/solo/history.md" for p in site.pages)


def test_the_timeline_starts_from_the_founding_configuration(tmp_path: Path) -> None:
    # initial/game.yaml: the configuration the game was founded with (keywords an Ascension Address later
    # renamed, say); the wiki's replay judges each action with the configuration of its time, as the audit does
    import shutil

    shutil.copytree(ROOT / "content/blognomic", tmp_path / "content/blognomic")
    founding = tmp_path / "content/blognomic/initial/game.yaml"
    founding.write_text(founding.read_text().replace("player: Colonist", "player: Settler"))
    game = model.load(tmp_path, "blognomic")
    assert game.replayed and not game.problems
    assert game.initial is not None and game.initial.config["keywords"]["player"] == "Settler"
    assert game.entries[0].before is not None and game.entries[0].before.config["keywords"]["player"] == "Settler"
    assert game.state.config["keywords"]["player"] == "Colonist"  # the files' game.yaml, shown as the game's now


def test_a_long_history_is_split_into_pages_and_links_find_each_action(blognomic: model.Game) -> None:
    from site_plugins.history import history_pages, render_history
    from site_plugins.links import Links

    pages = history_pages(blognomic, size=10)
    assert [src for src, _ in pages] == ["games/blognomic/history.md", "games/blognomic/history/2.md",
                                         "games/blognomic/history/3.md"]
    assert sum(len(chunk) for _, chunk in pages) == len(blognomic.entries)
    assert pages[0][1][0] is blognomic.entries[-1]  # newest first
    oldest = blognomic.entries[0]
    links = Links("blognomic", "games/blognomic/players/alice.md", {}, history={
        e.anchor: src for src, chunk in pages for e in chunk})
    assert links.action(oldest.anchor) == f"../../history/3/#{oldest.anchor}"
    html = render_history(blognomic, links.at(pages[1][0]), pages[1][1], pages=[s for s, _ in pages], page=1)
    assert "page 2 of 3" in html and "← newer" in html and "older →" in html


def test_counts_of_actions_are_worded_in_the_singular_or_plural_and_the_history_page_is_a_link(
        blognomic: model.Game) -> None:
    from site_plugins.history import render_history
    from site_plugins.links import Links
    from site_plugins.players import render_player

    links = Links("blognomic", "games/blognomic/history.md", {})
    lede = f'<p class="nomic-lede">{len(blognomic.entries)} actions, newest first.'
    assert lede in render_history(blognomic, links)
    one = dataclasses.replace(blognomic, entries=blognomic.entries[:1])
    assert '<p class="nomic-lede">1 action, newest first.' in render_history(one, links)
    none = render_history(dataclasses.replace(blognomic, entries=[]), links)
    assert '<p class="nomic-lede">No action yet.' in none and "0 actions" not in none, none
    assert "Nothing has happened yet." in none
    state = blognomic.state
    bruno = [e for e in blognomic.entries if e.actor == "Bruno"]
    here = links.at("games/blognomic/players/bruno.md")
    page = render_player(state, "Bruno", here, None, bruno, recent=len(bruno) - 1)
    assert '<p>1 earlier action is on the <a href="../../history/">history page</a>.</p>' in page, page
    page = render_player(state, "Bruno", here, None, bruno, recent=len(bruno) - 2)
    assert "<p>2 earlier actions are on the" in page
    assert "earlier action" not in render_player(state, "Bruno", here, None, bruno, recent=len(bruno))
    assert "keeps no stats for its Colonists." in page  # the game's own word for its players
    from site_plugins.markup import counted
    from site_plugins.ruleset_history import render_ruleset_history

    assert (counted(0, "change"), counted(1, "change"), counted(2, "entry", "entries")) == (
        "0 changes", "1 change", "2 entries")
    assert '<p class="nomic-lede">1 change to the ruleset since' in render_ruleset_history(
        blognomic, links.at("games/blognomic/ruleset-history.md"))  # proposal 1 amended rule 1.10


def test_hostile_text_is_inert_on_every_generated_page(tmp_path: Path) -> None:
    """A game whose titles carry Markdown and HTML, and whose texts carry links a browser would run (a colon
    written as a character reference): every page the wiki draws, rendered as MkDocs renders it, is inert, and a
    title shows as typed in its heading."""
    import json
    import re
    import shutil

    from tests.wikimd import HOSTILE, assert_inert, headings, render

    text = ("[a](javascript&#58;alert(5)) [b](&#106;avascript:alert(6)) [c](java&#x09;script:alert(7)) [d][r]\n\n"
            "[r]: javascript&colon;alert(8)\n\n" + HOSTILE)
    shutil.copytree(ROOT / "content/blognomic", tmp_path / "content/evil", ignore=shutil.ignore_patterns("initial"))
    game_dir = tmp_path / "content/evil"
    proposals = game_dir / "gamestate/proposals.yaml"
    proposals.write_text(proposals.read_text(encoding="utf-8").replace(
        "    title: A charter for the colony\n", f"    title: {json.dumps(HOSTILE)}\n    text: {json.dumps(text)}\n")
        .replace("title: Free bananas for everyone", f"title: {json.dumps(HOSTILE)}"), encoding="utf-8")
    config = game_dir / "game.yaml"
    config.write_text(re.sub(r"description: >-\n(?:  .*\n)+", lambda _: f"description: {json.dumps(text)}\n",
                             config.read_text(encoding="utf-8")), encoding="utf-8")
    rule = game_dir / "ruleset/numbers.md"
    rule.write_text(rule.read_text(encoding="utf-8").replace("title: Numbers", f"title: {json.dumps(HOSTILE)}")
                    + "\n" + text + "\n", encoding="utf-8")
    game = model.load(tmp_path, "evil")
    site = build_game(game, now=NOW)
    drawn = {p.src: render(p.content) for p in site.pages if p.src.endswith(".md")}
    for src, html in drawn.items():
        assert_inert(html, src)
    shown = " ".join(HOSTILE.split())
    assert f"Proposal #3: {shown}" in headings(drawn["games/evil/proposals/3.md"])
    assert f"#3 {shown}" in headings(drawn["games/evil/proposals.md"])
    assert f"G6 {shown}" in headings(drawn["games/evil/ruleset.md"])
    assert "&lt;script&gt;alert(4)" in drawn["games/evil/index.md"]  # the description is there, as text


@pytest.mark.parametrize("name", ["blognomic", "monkey", "cycle12"])
def test_the_checks_replay_is_the_timeline_the_wiki_draws(name: str) -> None:
    """``nomic build`` hands the check's replay to the wiki: the same entries and states as the wiki's own replay."""
    from site_plugins import model
    from validators.check import check_repo

    root = Path(__file__).resolve().parents[1]
    own = model.load(root, name)
    kept: dict = {}
    report = check_repo(root, only=[name], keep=kept)
    assert report.exit_code == 0 and set(kept) == {name}
    model.preload(root, kept)
    shared = model.load(root, name)
    assert (root.resolve().as_posix(), name) not in model.PRELOADED  # used once
    assert shared.replayed and own.replayed and len(shared.entries) == len(own.entries) > 0
    for a, b in zip(own.entries, shared.entries):
        assert (a.path, a.record, a.events) == (b.path, b.record, b.events)
        assert a.before.docs == b.before.docs and a.after.docs == b.after.docs
        assert {k: r.meta for k, r in a.after.rules.items()} == {k: r.meta for k, r in b.after.rules.items()}
    assert shared.initial.docs == own.initial.docs and shared.state.docs == own.state.docs


def test_a_game_that_does_not_check_is_not_handed_over(tmp_path) -> None:
    import shutil

    from validators.check import check_repo

    root = Path(__file__).resolve().parents[1]
    shutil.copytree(root / "content" / "blognomic", tmp_path / "content" / "blognomic")
    ledger = tmp_path / "content/blognomic/gamestate/ledger.yaml"
    ledger.write_text(ledger.read_text(encoding="utf-8").replace("actions: ", "actions: 1", 1), encoding="utf-8")
    kept: dict = {}
    report = check_repo(tmp_path, only=["blognomic"], keep=kept)
    assert report.exit_code != 0 and kept == {}


def test_a_player_who_changed_their_name_keeps_their_history_on_their_page(tmp_path: Path) -> None:
    # seed 003 rule 2: a Muffin may change their name; the log keeps the old name on the files written before
    from tests.gitgame import make_repo, nomic

    repo = make_repo(tmp_path, "quazie")
    r = nomic(repo, "act", "quazie", "core.rename", "name=Kevin", "--as", "Kevan", "--at", "2026-11-10T10:00:00Z",
              "--now", "2026-11-22T12:00:00Z")
    assert r.returncode == 0, r.stdout + r.stderr
    game = model.load(repo, "quazie")
    assert game.replayed and not game.problems
    site = build_game(game, now=parse_time("2026-11-22T12:00:00Z"))
    pages = {p.src: p.content for p in site.pages}
    page = pages["games/quazie/players/kevin.md"]
    assert "formerly Kevan (until" in page
    assert "quazie.stuff-shall-be" in page or "earlier actions are" in page  # the actions filed as Kevan are theirs
    assert "games/quazie/players/kevan.md" not in pages
    history = "".join(c for s, c in pages.items() if s.startswith("games/quazie/history"))
    assert "players/kevin/" in history  # the history's entries by Kevan link to the player's page


def _act(at: str, actor: str, action: str, **params: object) -> dict[str, object]:
    """An action record on 2 November 2026 at ``at`` (HH:MM), for the proposals page's tests."""
    return {"at": f"2026-11-02T{at}:00Z", "actor": actor, "action": action, "params": params}


def test_an_altered_post_says_when_it_was_altered_and_what_changed() -> None:
    # seed 001 1.7: an author may alter an official post before anyone comments; the page says that it was altered
    from site_plugins.links import Links
    from site_plugins.proposals import render_item, render_proposals
    from validators.cases import base_state, patched, run

    state, registry = base_state("blognomic-core")

    actions = [_act("10:00", "Chidi", "core.propose", title="X"),
               _act("20:00", "Chidi", "core.alter", proposal=1, text="T"),
               _act("20:05", "Chidi", "core.alter", proposal=1, title="Y"),
               _act("20:10", "Alice", "core.vote", proposal=1, vote="FOR"),
               _act("20:11", "Bruno", "core.vote", proposal=1, vote="FOR")]
    now = parse_time("2026-11-02T21:00:00Z")
    links = Links(game="g", here="games/g/proposals.md", players={})
    out = run(state, registry, actions)
    assert out.verdict == "legal"
    page = render_proposals(out.state, links, now)
    assert 'altered 2 times, last <time datetime="2026-11-02T20:05:00Z">' in page
    assert "(title)" in page
    # by default the twelve hours run from the posting
    assert 'Can be enacted from <time datetime="2026-11-02T22:00:00Z">' in page
    # with alter_restarts_clock, from the last alteration
    later = run(patched(state, registry, [{"op": "add", "path": "/config/options/blognomic/alter_restarts_clock",
                                           "value": True}]), registry, actions)
    assert 'Can be enacted from <time datetime="2026-11-03T08:05:00Z">' in render_proposals(later.state, links, now)
    item = out.state.doc("proposals")["proposals"][0]
    assert "altered 2 times" in render_item(out.state, item, "proposal", links, now, [])


def test_the_proposals_page_shows_a_pending_dov_and_what_resolving_it_would_do() -> None:
    # seed 001 1.9 Victory and Ascension: a DoV may be resolved after 24 hours and passes on a Quorum of votes, more
    # than half FOR, unless its maker is no longer a Colonist who can lead (idle or gone). The page asks the module,
    # which looks the maker up on the roster: the page's own stand-in context had no players, and a pending DoV
    # stopped the build with an AttributeError
    from site_plugins.links import Links
    from site_plugins.proposals import render_item, render_proposals
    from validators.cases import base_state, run

    state, registry = base_state("blognomic-core")

    declared = [_act("10:00", "Chidi", "core.dov"),
                _act("10:10", "Dana", "core.dov-vote", dov=1, vote="FOR"),
                _act("10:20", "Emeka", "core.dov-vote", dov=1, vote="FOR"),
                _act("10:30", "Bruno", "core.dov-vote", dov=1, vote="FOR")]
    links = Links(game="g", here="games/g/proposals.md", players={})
    out = run(state, registry, declared)
    assert out.verdict == "legal"
    # the moment it may be, and the one the leader's vote would give (1.9: 12 hours), as the refusal names them
    assert ("Cannot be resolved yet: it may be resolved 24 hours after it was made, from 2026-11-03T10:00:00Z "
            "(12 hours, from 2026-11-02T22:00:00Z, if the Expedition Leader votes on it).") in render_proposals(
        out.state, links, parse_time("2026-11-02T12:00:00Z"))
    later = parse_time("2026-11-03T10:00:00Z")
    assert "Resolving it now would pass it: 3 voted (Quorum 3) and 3 FOR." in render_proposals(out.state, links, later)
    dov = out.state.doc("dovs")["dovs"][0]
    assert "Resolving it now would pass it" in render_item(out.state, dov, "dov", links, later, [])
    idle = run(out.state, registry, [_act("11:00", "Chidi", "core.idle")])
    assert "Resolving it now would fail it: its maker Chidi is idle" in render_proposals(idle.state, links, later)


def test_the_proposals_page_does_not_offer_an_enactment_whose_effects_cannot_be_applied() -> None:
    # seed 001 1.5: with Quorum FOR after 12 hours, but effects naming Emeka, who has left, core.enact is refused and
    # the admin fails the proposal; the page said "Can be enacted now" beside "Can be failed now"
    from site_plugins.links import Links
    from site_plugins.proposals import render_proposals
    from validators.cases import base_state, run

    state, registry = base_state("blognomic-core")
    effects = {"gamestate": [{"op": "replace", "path": "/roster/players/name=Emeka/admin", "value": True}]}
    out = run(state, registry, [_act("10:00", "Chidi", "core.propose", title="X", effects=effects),
                                _act("10:30", "Dana", "core.vote", proposal=1, vote="FOR"),
                                _act("10:40", "Bruno", "core.vote", proposal=1, vote="FOR"),
                                _act("11:00", "Emeka", "core.leave")])
    assert out.verdict == "legal"
    page = render_proposals(out.state, Links(game="g", here="games/g/proposals.md", players={}),
                            parse_time("2026-11-03T00:00:00Z"))
    assert "Can be enacted now" not in page
    assert "Can be failed now</span>: its effects cannot be applied" in page


def test_a_resolved_proposal_s_page_shows_its_proposer_s_unrecorded_for_and_says_what_it_did(
        blognomic: model.Game) -> None:
    # seed 001 rule 1.4: a proposer who has not voted on their own proposal counts FOR; proposal #1 (Chidi's) was
    # enacted 4 FOR with three recorded votes, #2 (Emeka's) failed 1 FOR, 4 AGAINST with none of them FOR
    site = build_game(blognomic, now=NOW)
    pages = {p.src: p.content for p in site.pages}
    enacted, failed = pages["games/blognomic/proposals/1.md"], pages["games/blognomic/proposals/2.md"]
    assert "Final tally: 4 FOR, 0 AGAINST" in enacted
    assert re.search(r'<tr><td><a href="[^"]*chidi/">Chidi</a></td><td>FOR \(as proposer, not voted\)</td></tr>',
                     enacted), enacted
    assert "Final tally: 1 FOR, 4 AGAINST" in failed and "FOR (as proposer, not voted)" in failed
    assert "<summary>What it did</summary>" in enacted and "if enacted" not in enacted
    # a proposer who voted is shown with their vote only; a CfJ has no vote of its maker's (rule 1.6)
    voted = dict(next(p for p in blognomic.state.docs["proposals"]["proposals"] if p["id"] == 1))
    voted["votes"] = {**voted["votes"], "Chidi": "AGAINST"}
    from site_plugins.links import Links
    from site_plugins.proposals import render_item

    html = render_item(blognomic.state, voted, "proposal", Links("blognomic", "games/blognomic/proposals/1.md", {}),
                       NOW, [])
    assert "as proposer" not in html and "<td>Chidi</td><td>AGAINST</td>" in html
    voted.update(status="failed", resolved={**voted["resolved"], "result": "failed"})
    html = render_item(blognomic.state, voted, "proposal", Links("blognomic", "games/blognomic/proposals/1.md", {}),
                       NOW, [])
    assert "<summary>What it would have done</summary>" in html
    assert "as proposer" not in pages["games/blognomic/proposals/cfj-1.md"]
    assert "<summary>What it does if enacted</summary>" in pages["games/blognomic/proposals.md"]


def test_the_proposals_page_says_no_proposal_is_resolved_in_hiatus() -> None:
    # seed 001 1.9 Victory and Ascension: in Hiatus only the actions of 1.2, 1.4, 1.6, 1.7 and 1.9 may be taken, so
    # 1.5's enacting and failing wait; the page must not say "Can be enacted now" while core.enact is refused
    from site_plugins.links import Links
    from site_plugins.proposals import render_proposals
    from validators.cases import base_state, run

    state, registry = base_state("blognomic-core")

    voted = [_act("10:00", "Chidi", "core.propose", title="X"),
             _act("10:30", "Dana", "core.vote", proposal=1, vote="FOR"),
             _act("10:40", "Emeka", "core.vote", proposal=1, vote="FOR")]
    now = parse_time("2026-11-03T00:00:00Z")
    links = Links(game="g", here="games/g/proposals.md", players={})
    before = run(state, registry, voted)
    assert "Can be enacted now" in render_proposals(before.state, links, now)  # Quorum after 12 hours
    hiatus = run(state, registry, voted + [_act("11:00", "Dana", "core.dov")])
    assert hiatus.verdict == "legal"
    page = render_proposals(hiatus.state, links, now)
    assert "Can be enacted now" not in page and "Can be failed now" not in page
    assert "The game is in Hiatus</span>: no proposal may be enacted or failed until it ends" in page
    assert "it could then be enacted (3 FOR reach Quorum (3) after 14 hours)" in page
    refused = run(hiatus.state, registry, [{"at": "2026-11-03T00:00:00Z", "actor": "Bruno", "action": "core.enact",
                                            "params": {"proposal": 1}}])
    assert refused.verdict == "illegal"  # as the page says


def test_the_roster_page_shows_who_is_barred_from_rejoining() -> None:
    # seed 001 1.10: a proposal or CfJ may remove a player and bar them from rejoining; the roster page says so
    from site_plugins.links import Links
    from site_plugins.players import render_roster
    from validators.cases import base_state, patched

    state, registry = base_state("blognomic-core")
    links = Links(game="blognomic-core", here="games/blognomic-core/roster.md", players={})
    assert "barred" not in render_roster(state, links)  # a roster with no bars: the page is as before
    state = patched(state, registry, [
        {"op": "remove", "path": "/roster/players/name=Emeka"},
        {"op": "add", "path": "/roster/former", "value": [
            {"name": "Emeka", "account": "emeka", "left": "2026-11-02T22:00:00Z", "removed_by": "proposal 1"}]},
        {"op": "add", "path": "/roster/barred", "value": [
            {"name": "Emeka", "account": "emeka", "by": "proposal 1", "at": "2026-11-02T22:00:00Z"},
            {"name": "Mallory", "reason": "a second account"}]}])
    page = render_roster(state, links)
    assert "Emeka (removed by proposal 1 2 Nov 2026; barred from rejoining by proposal 1 on 2 Nov 2026)" in page
    assert "## Barred from joining" in page and "Mallory (barred from rejoining: a second account)" in page


def test_the_roster_page_shows_the_names_a_former_player_had_given_up() -> None:
    # seed 001 1.2 (seed 003 rule 2): the names a player gave up stay theirs once they have left (roster.former's
    # formerly); the list of former players says so, as a current player's page does
    from site_plugins.links import Links
    from site_plugins.players import render_roster
    from validators.cases import base_state, patched

    state, registry = base_state("blognomic-core")
    links = Links(game="blognomic-core", here="games/blognomic-core/roster.md", players={})
    state = patched(state, registry, [
        {"op": "remove", "path": "/roster/players/name=Chidi"},
        {"op": "remove", "path": "/roster/players/name=Emeka"},
        {"op": "add", "path": "/roster/former", "value": [
            {"name": "Chad", "account": "chidi", "left": "2026-11-04T10:00:00Z",
             "formerly": [{"name": "Chidi", "until": "2026-11-02T22:00:00Z"}]},
            {"name": "Emeka", "account": "emeka", "left": "2026-11-05T10:00:00Z"}]}])
    page = render_roster(state, links)
    assert "Chad (formerly Chidi until 2 Nov 2026; left 4 Nov 2026)" in page
    assert "Emeka (left 5 Nov 2026)" in page  # nothing given up: as before


def test_a_bar_by_account_is_shown_beside_the_former_player_it_removed() -> None:
    # seed 001 1.10: a bar is on the person; one written with another name but the account a player played under
    # removed that player (validators/games/blognomic/players.py bar_target), so the page shows it beside them
    from site_plugins.links import Links
    from site_plugins.players import render_roster
    from validators.cases import base_state, patched

    state, registry = base_state("blognomic-core")
    links = Links(game="blognomic-core", here="games/blognomic-core/roster.md", players={})
    state = patched(state, registry, [
        {"op": "remove", "path": "/roster/players/name=Emeka"},
        {"op": "add", "path": "/roster/former", "value": [
            {"name": "Emeka", "account": "emeka", "left": "2026-11-02T22:00:00Z", "removed_by": "proposal 1"}]},
        {"op": "add", "path": "/roster/barred", "value": [
            {"name": "Em", "account": "EMEKA", "by": "proposal 1", "at": "2026-11-02T22:00:00Z"}]}])
    page = render_roster(state, links)
    assert ("Emeka (removed by proposal 1 2 Nov 2026; barred from rejoining as Em by proposal 1 on 2 Nov 2026)"
            in page)
    assert "Barred from joining" not in page


def test_a_stat_charts_points_and_ends_are_dated_as_the_wiki_dates() -> None:
    """A player's stat chart names each point's time as the wiki writes times (its hover title), not as a stamp."""
    from site_plugins.svg import stat_chart

    svg = stat_chart([(parse_time("2026-11-02T00:00:00Z"), 0), (parse_time("2026-11-09T00:05:00Z"), 3)],
                     "gooderhose points", end=NOW)
    assert "<title>2 Nov 2026 00:00 UTC: 0</title>" in svg and "<title>9 Nov 2026 00:05 UTC: 3</title>" in svg
    assert ">2 Nov</text>" in svg and ">9 Nov</text>" in svg  # the clock is earlier than the last change
    assert "2026-11" not in svg


def test_a_stat_chart_keeps_a_legible_size() -> None:
    """A player's stat chart was shrunk to its table cell, half its size on a phone (labels of 4 px): like the
    modules' drawings it keeps three quarters of its width (``legible_width``) and its table scrolls instead."""
    from site_plugins.svg import stat_chart

    svg = stat_chart([(parse_time("2026-11-02T00:00:00Z"), 0), (parse_time("2026-11-09T00:05:00Z"), 3)], "Energy")
    assert 'width="320" height="96" style="min-width:240px"' in svg


def test_a_changed_time_is_worded_as_the_wiki_writes_times() -> None:
    """History: a value that is a time reads as the wiki writes times, its stamp kept in the <time> element; so does
    a time inside a larger value (a record added whole), and one cut short is left out whole rather than cut."""
    before = State({"modules": []}, {"roster": {"players": [{"name": "Emeka", "last": "2026-11-02T18:00:00Z"}]}}, {})
    after = State({"modules": []}, {"roster": {"players": [{"name": "Emeka", "last": "2026-11-04T12:00:00Z",
                                                            "idle_since": "2026-11-05T09:00:00Z",
                                                            "log": {"at": "2026-11-05T09:00:00Z"}}]}}, {})
    words = describe(before, after)
    assert ('<b>roster</b> › players › Emeka › last: <time datetime="2026-11-02T18:00:00Z" '
            'title="2026-11-02T18:00:00Z">2 Nov 2026 18:00 UTC</time> → <time datetime="2026-11-04T12:00:00Z" '
            'title="2026-11-04T12:00:00Z">4 Nov 2026 12:00 UTC</time>') in words, words
    assert any(w.endswith('idle_since: added <time datetime="2026-11-05T09:00:00Z" title="2026-11-05T09:00:00Z">'
                          "5 Nov 2026 09:00 UTC</time>") for w in words), words
    assert any(w.endswith('log: added {at: <time datetime="2026-11-05T09:00:00Z" '
                          'title="2026-11-05T09:00:00Z">5 Nov 2026 09:00 UTC</time>}') for w in words), words
    from site_plugins.changes import value_html
    from site_plugins.history import outcome_html

    both = {"note": "x" * 10, "since": "2026-11-02T08:30:00Z", "until": "2026-11-09T10:00:00Z"}
    assert value_html(both) == ('{note: ' + "x" * 10 + ', since: <time datetime="2026-11-02T08:30:00Z" '
                                'title="2026-11-02T08:30:00Z">2 Nov 2026 08:30 UTC</time>, until: …')
    assert value_html({"note": "x" * 40, "at": "2026-11-02T08:30:00Z"}) == (
        '{note: ' + "x" * 40 + ', at: …')  # the time would be cut: left out
    assert value_html("2026-02-30T10:00:00Z") == "2026-02-30T10:00:00Z"  # no such day: shown as it is
    assert outcome_html([{"turn_ends": "Zoe", "at": "2026-11-05T03:00:00Z"}, "<b>"]) == [
        'turn ends: Zoe, at: <time datetime="2026-11-05T03:00:00Z" title="2026-11-05T03:00:00Z">5 Nov 2026 03:00 UTC'
        "</time>", "&lt;b&gt;"]
    # an outcome's values read as words, not as Python writes them (Quazie's tied dance-off, a failed roll, an
    # empty list of passive ayes): "winner: none", not "winner: None"
    assert outcome_html([{"winner": None, "succeeds": False, "adoption": True, "passive_ayes": [],
                          "order": ["Abu", "Zira"], "at": {"room_name": "Attic"}}]) == [
        "winner: none, succeeds: no, adoption: yes, passive ayes: none, order: [Abu, Zira], at: {room name: Attic}"]



def test_a_changed_day_is_worded_as_the_wiki_writes_days() -> None:
    """History: a value that is a day alone (Quazie's tag days) reads as the wiki writes days, the exact day kept in
    the <time> element, alone or inside a record; a day that is part of a word, a path or a file name is left as it
    is, and so is a day that does not exist."""
    before = State({"modules": []}, {"quazie": {"day": "2026-11-04"}}, {})
    after = State({"modules": []}, {"quazie": {"day": "2026-11-05", "tag_days": ["2026-11-05"]}}, {})
    words = describe(before, after)
    assert ('<b>quazie</b> › day: <time datetime="2026-11-04" title="2026-11-04">4 Nov 2026</time> → '
            '<time datetime="2026-11-05" title="2026-11-05">5 Nov 2026</time>') in words, words
    assert '<b>quazie</b> › tag_days: added [<time datetime="2026-11-05" title="2026-11-05">5 Nov 2026</time>]' \
        in words, words
    from site_plugins.changes import times_html

    assert times_html("on 2026-11-05.") == 'on <time datetime="2026-11-05" title="2026-11-05">5 Nov 2026</time>.'
    for kept in ("notes/2026-11-05/a", "x-2026-11-05", "2026-11-05.yaml", "v2026-11-05", "2026-02-30"):
        assert times_html(kept) == kept
    """The roster's own marks (the leader, admin, idle, active) are headed "Standing"; the Monkey game's stat "Status"
    (In Line or In the Barrel, content/monkey's roster) keeps its own heading: no two columns share one."""
    import re

    from site_plugins.links import Links
    from site_plugins.players import render_roster
    from validators.cases import base_state

    state, _ = base_state("monkey")
    page = render_roster(state, Links(game="monkey", here="games/monkey/roster.md", players={}))
    headings = re.findall(r"<th [^>]*>([^<]*)</th>", page)
    assert len(headings) == len(set(headings)), headings
    assert "Standing" in headings and "Status" in headings
    assert headings.index("Standing") == 1  # beside the name; its title says what it holds
    assert 'title="On the roster: Top Banana, admin, idle, a non-player&#x27;s kind, or else active">Standing' in page


def test_search_index_entries_name_their_game() -> None:
    from site_plugins.searchindex import name_games

    index = {"docs": [
        {"location": "games/a/players/fatima/", "title": "Fatima", "text": ""},
        {"location": "games/a/players/fatima/#stats", "title": "Stats", "text": ""},
        {"location": "games/b/players/fatima/", "title": "Fatima", "text": ""},
        {"location": "games/a/", "title": "A &lt;game&gt;", "text": ""},
        {"location": "games/a/ruleset/", "title": "Ruleset of A &lt;game&gt;", "text": ""},
        {"location": "playing/", "title": "How to play", "text": ""},
    ]}
    assert name_games(index, {"games/a/": "A <game>", "games/b/": "B"}) == 2
    assert [e["title"] for e in index["docs"]] == [
        "Fatima · A &lt;game&gt;", "Stats", "Fatima · B", "A &lt;game&gt;", "Ruleset of A &lt;game&gt;", "How to play"]


def test_parameters_are_cut_after_their_times_are_written_never_inside_one() -> None:
    """History and a player's recent actions: an action's parameters show their times and days as the wiki writes
    them; a value is cut past 40 shown characters and the whole past its limit, and a time that would be cut is left
    out whole rather than shown as half a stamp."""
    from site_plugins.history import entry_html
    from site_plugins.links import Links
    from site_plugins.players import params_html, render_player

    stamp = "2026-11-05T10:00:00Z"
    t = f'<time datetime="{stamp}" title="{stamp}">5 Nov 2026 10:00 UTC</time>'
    assert params_html({"until": stamp, "day": "2026-11-05", "why": "<b>"}) == (
        f'until: {t}; day: <time datetime="2026-11-05" title="2026-11-05">5 Nov 2026</time>; why: &lt;b&gt;')
    # the value's own cut (40): 25 characters, then a time that does not fit, left out whole
    assert params_html({"note": "x" * 25 + " " + stamp}) == "note: " + "x" * 25 + " …"
    # the whole's cut: the time would end past the limit, so it is left out whole
    assert params_html({"a": "y" * 30, "at": stamp}, limit=50) == "a: " + "y" * 30 + "; at: …"
    assert params_html({"a": "y" * 30, "at": stamp}, limit=60) == "a: " + "y" * 30 + f"; at: {t}"
    assert params_html(None) == ""

    params = {"note": "x" * 25 + " " + stamp, "until": stamp}  # was shown "note: xx… 2026-11-05T10…"
    record = {"at": "2026-11-05T12:00:00Z", "actor": "Simon", "action": "quazie.tag", "params": params}
    entry = model.Entry("content/quazie/actions/20261105T120000Z--Simon--quazie.tag.yaml", record)
    html = "".join(entry_html(entry, Links("quazie", "games/quazie/history.md", {})))
    assert "<code>quazie.tag</code></a> · note: " + "x" * 25 + f" …; until: {t}</p>" in html
    state = State({"modules": []}, {"roster": {"players": [{"name": "Simon", "joined": "2026-11-01T00:00:00Z"}]}}, {})
    page = render_player(state, "Simon", Links("quazie", "games/quazie/players/simon.md", {"Simon": "simon"}),
                         entries=[entry])
    assert "<code>quazie.tag</code></a> — note: " + "x" * 25 + f" …; until: {t}</li>" in page


def test_the_history_shows_what_a_scheduled_event_did_before_the_action() -> None:
    """History: an event fired before an action is listed under it with the steps of its outcome. Cycle 12's urgent
    proposal takes effect at the end of its two days (004 Urgent Proposals, Lifecycle) and its patch carries Ada off;
    Bramble, following her, follows (004 Follow): the action after it shows the result and the follow."""
    from site_plugins.history import entry_html
    from site_plugins.links import Links
    from validators.cases import base_state, run

    state, registry = base_state("cycle12-core")
    patch = [{"op": "replace", "path": "/cycle12_sheets/sheets/player=Ada/location", "value": 3}]
    records = [
        {"at": "2026-11-10T12:00:00Z", "actor": "Ada", "action": "cycle12.command",
         "params": {"nomster": "Bramble", "command": "follow"}},
        {"at": "2026-11-10T13:00:00Z", "actor": "Basil", "action": "cycle12.propose",
         "params": {"class": "urgent", "changes": [{"kind": "textual", "text": "Ada is carried off.",
                                                    "effects": {"gamestate": patch}}]}},
        {"at": "2026-11-12T13:00:01Z", "actor": "Esme", "action": "cycle12.resolve", "params": {"proposal": 2}},
    ]
    before = run(state, registry, records[:-1]).state
    last = run(before, registry, records[-1:])
    assert last.verdict == "legal"
    entry = model.Entry("content/cycle12/actions/x.yaml", records[-1], events=last.applied.events)
    html = "".join(entry_html(entry, Links("cycle12", "games/cycle12/history.md", {})))
    assert "scheduled first: <code>cycle12.urgent-proposal-ends</code>" in html
    assert "<li>proposal: 2, result: took-effect, for: 0, against: 0" in html
    assert "<li>followed: Ada, moved: [nomster:2], to: Ember Steppe</li>" in html


def test_the_actions_reference_names_a_rule_the_ruleset_lacks_as_the_judge_does() -> None:
    """Actions: a rule an action or an event cites is linked to the ruleset; one the game's ruleset lacks (a game set
    up without it) is named as the judge names it, rather than left a bare file id that reads like a citation; a
    rule named in words, and the engine's own (time, dice), are shown as they are."""
    from datetime import datetime

    from site_plugins.actions_ref import render_actions, rule_link
    from site_plugins.links import Links
    from validators.engine import Action, Event, Rule

    state = State({"modules": []}, {}, {"voting": Rule("voting", {"id": "voting", "number": "1.4", "title": "Votes"},
                                                        "")})
    links = Links("g", "games/g/actions.md", {})
    assert rule_link(state, "voting", links) == '<a href="../ruleset/#voting">1.4 Votes</a>'
    assert rule_link(state, "tagging", links) == "tagging (no such rule in this game&#x27;s ruleset)"
    assert rule_link(state, "scheduled events", links) == "scheduled events"
    assert rule_link(state, "dice", links) == "dice"
    module = Module("tags", "Tags", actions=[Action("tags.tag", "tagging", "Tag somebody.")],
                    events=[Event("tags.reset", "tag-reset", lambda t: datetime(2026, 11, 9), lambda s, t: s)])
    page = render_actions(state, Registry([module]), links, "g")
    assert "<strong>rule</strong>: tagging (no such rule in this game&#x27;s ruleset)" in page, page
    assert "(tag-reset (no such rule in this game" in page
    # a summary or a description written with `code` for nomic act --help shows it as code, not as backticks
    from site_plugins.actions_ref import words_html

    assert words_html("Commit by its hash (see `nomic hash`) <b>") == \
        "Commit by its hash (see <code>nomic hash</code>) &lt;b&gt;"
    module = Module("h", "H", actions=[Action("h.commit", "hidden", "Commit (see `nomic hash`)",
                                              params={"type": "object", "properties": {"label": {
                                                  "type": "string", "description": "as in `nomic hash`"}}})])
    page = render_actions(state, Registry([module]), links, "g")
    assert "<p>Commit (see <code>nomic hash</code>)</p>" in page and "<td>as in <code>nomic hash</code></td>" in page
    assert "`nomic hash`" not in page  # the engine's own engine.commit is written so too


def test_the_actions_reference_writes_the_keywords_an_address_replaced() -> None:
    """Seed 001 1.9: an Ascension Address may replace any keywords. A module's summaries, parameters' descriptions
    and docs are written in its keywords (``Module.words``); the Actions page writes the game's current ones in their
    place, whole words in their case, with "a" or "an" as the new word takes; unchanged, the page is as before."""
    from site_plugins.actions_ref import render_actions
    from site_plugins.links import Links
    from validators.cases import base_state, patched

    state, registry = base_state("settlement-basic")
    links = Links("g", "games/g/actions.md", {})
    page = render_actions(state, registry, links, "g")
    assert "<p>The Expedition Leader makes a Colonist a Traitor (while there are fewer than two)</p>" in page
    assert "<p>Call a dance: for 48 hours Colonists may form a recognised configuration</p>" in page
    renamed = patched(state, registry, [{"op": "replace", "path": "/config/keywords", "value": {
        "player": "Explorer", "players": "Explorers", "leader": "Captain"}}])
    page = render_actions(renamed, registry, links, "g")
    assert "<p>The Captain makes an Explorer a Traitor (while there are fewer than two)</p>" in page
    assert "<p>Call a dance: for 48 hours Explorers may form a recognised configuration</p>" in page
    assert "<p>The Captain makes every Explorer (and Outsider) 2 Hunger hungrier</p>" in page
    assert "A weekly action of the Captain." in page  # a doc
    # the rules' own titles are the ruleset's (the Address renames them there): all that is left of the old words
    assert set(re.findall(r"Colonists?|Expedition Leader", page)) == {"Colonists"}
    assert page.count("Colonists") == page.count("1.2 Colonists</a>")


def test_the_feed_cuts_parameters_before_a_time_never_inside_one() -> None:
    """The Atom feed: an action's parameters keep their stamps and days as the files write them, and a cut (a value
    past 40 characters, the whole past 200) falls before a stamp or a day, never inside one: one that would be cut is
    left out whole rather than shown as half a stamp ("2026-11-05T10:0…")."""
    import dataclasses
    import xml.etree.ElementTree as ET

    from site_plugins.history import atom_feed
    from site_plugins.links import Links
    from site_plugins.players import params_words

    stamp = "2026-11-05T10:00:00Z"
    assert params_words({"until": stamp, "day": "2026-11-05"}) == f"until: {stamp}; day: 2026-11-05"
    # the value's own cut (40): 25 characters, then a stamp that does not fit, left out whole
    assert params_words({"note": "x" * 25 + " " + stamp}) == "note: " + "x" * 25 + " …"
    assert params_words({"note": "x" * 30 + " 2026-11-05 y"}) == "note: " + "x" * 30 + " …"
    # the whole's cut: the stamp would end past the limit, so it is left out whole
    assert params_words({"a": "y" * 30, "at": stamp}, limit=50) == "a: " + "y" * 30 + "; at: …"
    assert params_words({"a": "y" * 30, "at": stamp}, limit=60) == "a: " + "y" * 30 + f"; at: {stamp}"
    # plain text past the limit is still cut where it falls, and so is an impossible date, which the wiki leaves as
    # it is (no day of its own)
    assert params_words({"a": "y" * 60}, limit=20) == "a: " + "y" * 16 + "…"
    assert params_words({"a": "x" * 30 + " 2026-13-45"}) == "a: " + "x" * 30 + " 2026-13-…"
    assert params_words(None) == ""

    game = model.load(ROOT, "quazie", replay=False)
    params = {f"p{i}": "z" * 30 for i in range(5)} | {"until": stamp}  # the stamp straddles the feed's 200
    record = {"at": "2026-11-05T12:00:00Z", "actor": "Simon", "action": "quazie.tag", "params": params}
    entry = model.Entry("content/quazie/actions/20261105T120000Z--Simon--quazie.tag.yaml", record)
    feed = atom_feed(dataclasses.replace(game, entries=[entry]), Links("quazie", "games/quazie/history.md", {}), "")
    ns = {"a": "http://www.w3.org/2005/Atom"}
    summary = ET.fromstring(feed).find("a:entry/a:summary", ns).text
    assert summary.splitlines()[1] == "; ".join(f"p{i}: " + "z" * 30 for i in range(5)) + "; until: …"


def test_a_long_patch_value_is_cut_before_it_is_escaped_with_a_mark_and_kept_whole_on_hover() -> None:
    """A proposal's "What it does if enacted": a long gamestate value is cut as written (never inside "&amp;" nor
    inside a stamp or a day), at a space when there is one near, marked with "…", then escaped; the whole value is
    kept in the ``title`` (shown on hover). A short one is shown whole, without a title."""
    import html as _html

    from site_plugins.proposals import effects_html

    def code(value: object) -> str:
        out = effects_html({"gamestate": [{"op": "set", "path": "a/b", "value": value}]})
        start = out.index("= <code") + 2
        return out[start:out.index("</code>", start) + len("</code>")]

    tom = "Tom & Jerry " * 20  # escaped, the old cut at 120 fell inside an "&amp;"
    assert code(tom) == (f'<code title="{_html.escape(tom, quote=True)}">'
                         + _html.escape("Tom & Jerry " * 9 + "Tom & Jerry…", quote=False) + "</code>")
    assert code("alphabet " * 20) == f'<code title="{"alphabet " * 20}">' + "alphabet " * 12 + "alphabet…</code>"
    assert code("y" * 200) == f'<code title="{"y" * 200}">' + "y" * 119 + "…</code>"
    stamp = "2026-11-05T10:00:00Z"
    assert code("x" * 100 + f" {stamp} tail") == f'<code title="{"x" * 100} {stamp} tail">' + "x" * 100 + "…</code>"
    assert code("x" * 110 + " 2026-11-05 tail") == (
        f'<code title="{"x" * 110} 2026-11-05 tail">' + "x" * 110 + "…</code>")
    assert code("x" * 100 + " 2026-11-05 and more words") == (
        f'<code title="{"x" * 100} 2026-11-05 and more words">' + "x" * 100 + " 2026-11-05 and…</code>")
    assert code("a < b") == "<code>a &lt; b</code>"
    assert code(3) == "<code>3</code>"
    # a value that is no string is written as the file would write it, in YAML's flow form, not Python's
    assert code({"a": 1, "b": [True, None]}) == '<code>{&quot;a&quot;: 1, &quot;b&quot;: [true, null]}</code>'
    assert code(False) == "<code>false</code>"
    assert code("z" * 5000).count("z") == 119 + 1999  # the title is capped too


def test_an_untitled_item_in_the_archive_is_named_by_its_text_cut_with_a_mark() -> None:
    """The archive of resolved proposals (CfJs, DoVs): an item without a title is named by the start of its text, on
    one line, cut past 80 characters at a space when there is one near and marked "…", then escaped."""
    from site_plugins.links import Links
    from site_plugins.proposals import archive_table

    def cell(text: object) -> str:
        out = archive_table([{"id": 7, "status": "failed", "text": text}], Links("g", "games/g/proposals.md", {}),
                            "cfj", "CfJs")
        return out.split("<td>")[1].split("</td>")[0]

    assert cell("Is Fred & Ginger\nallowed to dance? " * 5) == (
        "Is Fred &amp; Ginger allowed to dance? Is Fred &amp; Ginger allowed to dance? Is Fred &amp;…")
    assert cell("short <one>") == "short &lt;one&gt;"
    assert cell(None) == ""


def test_a_short_value_in_a_change_is_cut_before_a_stamp_never_inside_one() -> None:
    """The change lists name an added item by its title, cut past 60 characters: before a stamp, not inside it."""
    from site_plugins.changes import short

    stamp = "2026-11-05T10:00:00Z"
    assert short("x" * 45 + " " + stamp) == "x" * 45 + "…"
    assert short("Proposal: " + "words " * 12).endswith("words…")
    assert short("brief") == "brief"


def _roster(*names: str, n: int = 1) -> State:
    return State({"modules": []}, {"roster": {"players": [{"name": x, "stats": {"n": n}} for x in names]}}, {})


def test_a_record_removed_added_or_moved_in_a_list_is_named_as_it_is() -> None:
    """History: a player who leaves from the middle of the roster reads as that player removed, named as they were,
    not as each later player turned into the next; one who joins as well reads as added; a reordering of the
    records (Monkey's Line) reads as the order changed; a rename in place reads as a rename."""
    before = _roster("Al", "Bo", "Cy", "Di")
    assert describe(before, _roster("Al", "Cy", "Di")) == [
        "<b>roster</b> › players › Bo: removed (was {name: Bo, stats: {n: 1}})"]
    assert describe(before, _roster("Al", "Cy", "Di", "Ed")) == [
        "<b>roster</b> › players › Bo: removed (was {name: Bo, stats: {n: 1}})",
        "<b>roster</b> › players › Ed: added “Ed”"]
    assert describe(before, _roster("Al", "Bo", "Cy")) == [
        "<b>roster</b> › players › Di: removed (was {name: Di, stats: {n: 1}})"]  # the last one: named, not "item 4"
    assert describe(before, _roster("Bo", "Al", "Cy", "Di")) == ["<b>roster</b> › players › order: Al, Bo → Bo, Al"]
    assert describe(before, _roster("Al", "Bea", "Cy", "Di")) == ["<b>roster</b> › players › Bea › name: Bo → Bea"]
    assert describe(before, _roster("Al", "Cy", "Di", n=2)) == [
        "<b>roster</b> › players › Al › stats › n: 1 → 2", "<b>roster</b> › players › Bo: removed (was {name: Bo, "
        "stats: {n: 1}})", "<b>roster</b> › players › Cy › stats › n: 1 → 2", "<b>roster</b> › players › Di › stats › "
        "n: 1 → 2"]
    sheets = State({"modules": []}, {"c12": {"sheets": [{"player": "Ada", "at": 1}, {"player": "Bo", "at": 1}]}}, {})
    assert describe(sheets, State({"modules": []}, {"c12": {"sheets": [{"player": "Ada", "at": 1},
                                                                       {"player": "Bo", "at": 2}]}}, {})) == [
        "<b>c12</b> › sheets › Bo › at: 1 → 2"]  # a record of one player's is named by its player
    dance = State({"modules": []}, {"monkey_dance": {"sections": [{"monkey": "Al", "moves": ["Bow"]}]}}, {})
    assert describe(dance, State({"modules": []}, {"monkey_dance": {"sections": [{"monkey": "Al", "moves": []}]}},
                                 {})) == ["<b>monkey_dance</b> › sections › Al › moves › item 1: removed (was Bow)"]
    plain = State({"modules": []}, {"notes": {"list": [1, 2, 3]}}, {})  # not named records: by place, as before
    assert describe(plain, State({"modules": []}, {"notes": {"list": [1, 3]}}, {})) == [
        "<b>notes</b> › list › item 2: 2 → 3", "<b>notes</b> › list › item 3: removed (was 3)"]


def test_a_changed_value_reads_as_words_not_as_stored() -> None:
    """History: text without quotes, yes and no, none, records in braces with each field as the file names it."""
    before = State({"modules": []}, {"notes": {"a": {"task": "hunt", "ok": True, "by": None, "tags": ["x", "y"]}}},
                   {})
    after = State({"modules": []}, {"notes": {}}, {})
    assert describe(before, after) == ["<b>notes</b> › a: removed (was {task: hunt, ok: yes, by: none, tags: [x, y]})"]


def test_a_pending_proposal_made_within_the_hour_reads_under_an_hour_ago() -> None:
    from site_plugins.proposals import ago

    assert ago(0.2) == "under an hour ago"
    assert ago(5) == "5 h ago" and ago(51) == "2 d 3 h ago"


def test_a_player_page_gives_an_active_player_the_roster_s_standing(blognomic: model.Game) -> None:
    from site_plugins.links import Links
    from site_plugins.players import render_player

    here = Links("blognomic", "games/blognomic/players/chidi.md", {})
    page = render_player(blognomic.state, "Chidi", here)
    assert '<p class="nomic-lede"><span class="nomic-badge active">active</span> joined 2 Oct 2026' in page, page
    page = render_player(blognomic.state, "Emeka", here.at("games/blognomic/players/emeka.md"))
    assert "nomic-badge idle" in page and "nomic-badge active" not in page


def test_the_actions_page_says_which_actions_and_events_a_repeal_took_out() -> None:
    """Seed 001 1.1: a repealed rule no longer says what may change the gamestate (engine.repealed), so its actions
    and scheduled events are marked on the Actions page; the others are not."""
    from site_plugins.actions_ref import render_actions
    from site_plugins.links import Links
    from validators.cases import base_state
    from validators.engine import Rule

    state, registry = base_state("monkey-dance")
    rules = {**state.rules, "items": Rule("items", {**state.rules["items"].meta, "status": "repealed"},
                                          state.rules["items"].body)}
    links = Links("g", "games/g/actions.md", {})
    html = render_actions(State(state.config, state.docs, rules), registry, links, "g")
    use = html.split("monkey.use-item` {#")[1].split("</div>\n")[0]
    assert "<strong>Not an action of the game now</strong>: its rule has been repealed" in use
    assert html.count("Not an action of the game now") == sum(a.rule == "items" for a in registry.actions.values())
    assert "<code>monkey.items-reactivate</code>" in html and "not now: its rule has been repealed" in html
    assert "Not an action of the game now" not in render_actions(state, registry, links, "g")


def test_the_roster_and_a_player_page_write_their_labels_with_a_capital() -> None:
    """ifMUD's game calls its players "players" and labels a stat "brownie points": the roster's title and its column
    headings, and a player page's stat names, are labels, and start with a capital as the navigation's "Players"
    does; the sentence under the title keeps the game's word as it is ("5 active players")."""
    import re

    from site_plugins.links import Links
    from site_plugins.players import render_player, render_roster
    from validators.cases import base_state

    state, _ = base_state("ifmud")
    assert state.keyword("players") == "players"
    page = render_roster(state, Links(game="ifmud", here="games/ifmud/roster.md", players={}))
    assert page.startswith("# Players\n")
    assert re.search(r"\d active players\b", page)
    headings = re.findall(r"<th [^>]*>([^<]*)</th>", page)
    assert headings[:2] == ["Player", "Standing"] and "Brownie points" in headings, headings
    assert all(h[:1] == h[:1].upper() for h in headings), headings
    name = state.doc("roster")["players"][0]["name"]
    player = render_player(state, name, Links(game="ifmud", here="games/ifmud/players/x.md", players={}))
    assert '<th scope="row">Brownie points</th>' in player and "brownie points</th>" not in player


def test_a_player_page_lists_the_proposer_s_unrecorded_for_on_a_pending_proposal(blognomic: model.Game) -> None:
    """Seed 001 rule 1.4: a proposer who has not voted on their own proposal counts as voting FOR. Bruno proposed #3
    and cast no vote on it; the proposals page counts his FOR, and his own page says so rather than "not voted". An
    idle proposer's FOR does not count (rule 1.4: an idle player's votes stop counting), so theirs says "not voted"."""
    import copy

    site = build_game(blognomic, now=NOW)
    page = {p.src: p.content for p in site.pages}

    def votes(name: str) -> str:
        return page[f"games/blognomic/players/{name}.md"].split("## Votes on pending proposals")[1].split("##")[0]

    assert "#3 A charter for the colony</a>: FOR (as proposer, not voted)</li>" in votes("bruno")
    assert "FOR (as proposer, not voted)</td><td>FOR</td>" in page["games/blognomic/proposals.md"]
    assert "#3 A charter for the colony</a>: FOR</li>" in votes("dana")  # a vote cast is shown as cast
    assert "#3 A charter for the colony</a>: <em>not voted</em></li>" in votes("fatima")  # not the proposer
    from site_plugins.proposals import own_vote

    state = blognomic.state
    proposal = next(p for p in state.doc("proposals")["proposals"] if p["id"] == 3)
    assert own_vote(state, proposal, "Bruno") == "FOR (as proposer, not voted)"
    docs = copy.deepcopy(state.docs)
    next(p for p in docs["roster"]["players"] if p["name"] == "Bruno")["idle"] = True
    assert own_vote(State(state.config, docs, state.rules), proposal, "Bruno") is None


def test_a_blognomic_ruleset_without_dynastic_rules_says_it_has_none() -> None:
    """BlogNomic 1.1: "Section Two holds the rules of the current dynasty". Between dynasties the example has none,
    and its Ruleset went from Core Rules to the Glossary without a word: a newcomer looked for Section Two. The
    page names the section, between the two, and says none is in force; a game with dynastic rules is unchanged."""
    from site_plugins.links import Links
    from site_plugins.ruleset import render_ruleset

    game = model.load(ROOT, "blognomic")
    links = Links("blognomic", "games/blognomic/ruleset.md", {})
    page = render_ruleset(game.state, links)
    assert "## Dynastic Rules {#section-dynastic}\n\n<p>No dynastic rule is in force.</p>" in page
    assert page.index("## Core Rules") < page.index("## Dynastic Rules") < page.index("## Glossary")
    monkey = model.load(ROOT, "monkey")
    dynastic = render_ruleset(monkey.state, Links("monkey", "games/monkey/ruleset.md", {}))
    assert dynastic.count("## Dynastic Rules") == 1 and "No dynastic rule is in force" not in dynastic
    ifmud = model.load(ROOT, "ifmud")  # no sections of BlogNomic's: nothing said of them
    assert "Dynastic" not in render_ruleset(ifmud.state, Links("ifmud", "games/ifmud/ruleset.md", {}))


def test_an_ifmud_front_page_says_whose_turn_it_is() -> None:
    """ifMUD Rule 27: exactly one player is active at a time, and most actions are theirs alone. The front page, where
    a player looks for what they may do, named nobody: whose turn it was lay two clicks away. Its facts say whose
    turn it is at the game's clock and until when at the latest, linked to the player and to the Turns page."""
    game = model.load(ROOT, "ifmud")
    home = next(p.content for p in build_game(game, now=NOW).pages if p.src == "games/ifmud/index.md")
    assert ('<dt>Turn</dt><dd><a href="turn/">26</a>: <a href="players/zoe-abbott/">Zoe Abbott</a>, until '
            '<time datetime="2026-11-06T03:00:00Z">6 Nov 2026 03:00 UTC</time> at the latest</dd>') in home, home
    other = next(p.content for p in build_game(model.load(ROOT, "blognomic"), now=NOW).pages
                 if p.src == "games/blognomic/index.md")
    assert "<dt>Turn</dt>" not in other


def test_a_players_changes_over_time_say_the_time_when_two_fall_on_one_day() -> None:
    """Zoe Abbott's Location, over time, read "1 Nov 2026: Lounge", "1 Nov 2026: Dot-Com Bubble", "1 Nov 2026: Jaws
    of Death": three moves in a day, told neither when nor in what order. When two changes fall on one day each
    says its time; otherwise its day, as before."""
    site = build_game(model.load(ROOT, "ifmud"), now=NOW)
    page = next(p.content for p in site.pages if p.src == "games/ifmud/players/zoe-abbott.md")
    moves = re.findall(r'<ul class="nomic-changes">(.*?)</ul>', page)[0]
    assert re.findall(r'<li><time datetime="[^"]*">([^<]*)</time>: ([^<]*)</li>', moves)[:3] == [
        ("1 Nov 2026 00:00 UTC", "Lounge"), ("1 Nov 2026 01:05 UTC", "Dot-Com Bubble"),
        ("1 Nov 2026 10:00 UTC", "Jaws of Death")]
    ilse = next(p.content for p in build_game(model.load(ROOT, "settlement"), now=NOW).pages
                if p.src == "games/settlement/players/ilse.md")
    assert '<li><time datetime="2026-10-01T00:00:00Z">1 Oct 2026</time>: Peasant</li>' in ilse


def test_coming_up_says_each_event_s_time_once_and_the_event_in_words() -> None:
    """Settlement's front page said "23 Nov 2026 00:00 UTC: Monday 00:00:00 UTC: every Small Crop becomes a Mature
    Crop", Cycle 12's "...: Each Monday and Thursday at 00:00 UTC: proposals resolve ...": an event's summary says what
    happens and its ``when`` when (``Event.said`` for the Actions page, which has no time of its own); ``nomic due``
    names the event with the same words."""
    from validators.admin import due

    for game, what in (("settlement", "every Small Crop becomes a Mature Crop"),
                       ("cycle12", "proposals resolve, the week&#x27;s election ends")):
        site = build_game(model.load(ROOT, game), now=parse_time("2026-11-24T08:00:00Z"))
        coming = _now_section(site, game).split("### Coming up")[1]
        assert what in coming, coming
        assert "Monday" not in coming, coming
        actions = next(p.content for p in site.pages if p.src == f"games/{game}/actions.md")
        assert "Monday" in actions.split("### Scheduled events")[1]
    lines = due(ROOT, "settlement", parse_time("2026-12-01T08:00:00Z"))
    assert any("settlement.crops-ripen (every Small Crop becomes a Mature Crop) fell due" in line for line in lines)
    for module in all_modules().values():
        for ev in module.events:  # no summary starts with its time again
            assert not re.match(r"(Each |At |When |Monday)", ev.summary), ev.summary


def test_the_ruleset_history_says_each_change_s_action_in_words() -> None:
    """Its headings read "proposal 1, core.enact by Bruno", an action's id where a reader looks for what happened:
    "Proposal 1, enacted by Bruno" (``Action.done``), an action without its phrase in its summary; each change still
    links to its action."""
    from site_plugins.links import Links
    from site_plugins.ruleset_history import render_ruleset_history

    for game, want, action in (("blognomic", "Proposal 1, enacted by ", "core.enact"),
                               ("quazie", "A Hand moved by ", "quazie.move-hand")):
        g = model.load(ROOT, game)
        page = render_ruleset_history(g, Links(game, f"games/{game}/ruleset-history.md", {}))
        heads = [line for line in page.splitlines() if line.startswith("## ")]
        assert any(want in h for h in heads), heads
        assert not any(action in h or "core." in h for h in heads), heads
        assert "the action</a>" in page
    assert all(a.done for m in all_modules().values() for a in m.actions
               if a.name in {"core.enact", "core.cfj-resolve", "core.dov-resolve", "core.ascend", "cycle12.resolve",
                             "ifmud.ratify"})


def test_the_front_page_counts_a_proposal_s_votes_as_its_tally_and_nomic_due_do() -> None:
    """Seed 001 1.4: "If the Colonist who made a Proposal has not cast a Vote on it, his Vote is counted as FOR". The
    front page said "3 votes so far" of proposal 3 (three comments cast) while the Proposals page's tally and
    ``nomic due`` ("2 of 4 votes FOR") counted the proposer's implicit FOR: all three say 4, and the front page how
    they split."""
    from validators.admin import due

    game = model.load(ROOT, "blognomic")
    at = parse_time("2026-11-25T08:00:00Z")
    site = build_game(game, now=at)
    votes = _now_section(site, "blognomic").split("### Lately")[0]
    assert "4 votes so far (2 FOR, 2 AGAINST, the proposer&#x27;s FOR among them)" in votes, votes
    page = next(p.content for p in site.pages if p.src == "games/blognomic/proposals/3.md")
    assert '<span class="for">2 FOR</span>' in page and '<span class="against">2 AGAINST</span>' in page
    assert any("2 of 4 votes FOR" in line for line in due(ROOT, "blognomic", at))


def test_the_front_page_judges_what_is_over_at_the_build_s_now_as_the_proposals_page_does() -> None:
    """Two "now"s: a CfJ's "voting is over" was judged at the game's last action, while the Proposals page's verdicts
    and "can be failed now" at the build's time. A CfJ whose four days (seed 001 1.6) end after the last action but
    before the build is over on the front page too, and still running at a build before its end."""
    from datetime import timedelta

    from validators.timeutil import format_time

    game = model.load(ROOT, "blognomic")
    state = game.state
    clock = parse_time(state.docs["ledger"]["clock"])
    first = state.doc("cfjs")["cfjs"][0]
    running = {**first, "id": 2, "status": "pending", "title": "Fix the clock", "votes": {"Alice": "FOR"},
               "submitted": format_time(clock - timedelta(days=3))}
    for key in ("resolved", "quorum_reached"):
        running.pop(key, None)
    game.files.state = State(state.config, {**state.docs, "cfjs": {**state.docs["cfjs"], "next": 3,
                                                                    "cfjs": [first, running]}}, state.rules)
    later = _now_section(build_game(game, now=clock + timedelta(days=2)), "blognomic")
    assert "voting is over (its 4 days passed at" in later, later
    soon = _now_section(build_game(game, now=clock + timedelta(hours=1)), "blognomic")
    assert "Fix the clock" in soon and "voting is over" not in soon.split("### Lately")[0], soon
