"""The whole wiki, built for real with MkDocs from content/ into a temporary folder."""

from __future__ import annotations

import os
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from validators.content import WorkTree, games, load_game

ROOT = Path(__file__).resolve().parents[1]
REPO = "https://example.org/owner/nomic"


def build(root: Path, out: Path, **env: str) -> None:
    from mkdocs.commands.build import build as mkbuild
    from mkdocs.config import load_config

    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        mkbuild(load_config(config_file=str(root / "mkdocs.yml"), site_dir=str(out)))
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wiki")
    build(ROOT, out, NOMIC_REPO_URL=REPO, NOMIC_NOW="2026-11-05T12:00:00Z")
    return out


def _edit_link(html: str) -> str | None:
    m = re.search(r'<a href="([^"]+)" title="[^"]*" class="md-content__button md-icon" rel="edit"', html)
    return m.group(1) if m else None


def test_every_game_has_its_pages(site: Path) -> None:
    names = games(WorkTree(ROOT))
    assert names, "no games in content/"
    home = (site / "index.html").read_text(encoding="utf-8")
    for name in names:
        state = load_game(WorkTree(ROOT), name).state
        assert state.config["name"].split(" ")[0] in home
        base = site / "games" / name
        for page in ("", "ruleset/", "ruleset-history/", "roster/", "history/", "actions/"):
            assert (base / page / "index.html").is_file(), f"{name}: no page {page or 'home'}"
        slugs = {d.name for d in (base / "players").iterdir()}
        assert len(slugs) == len(state.players())


def test_edit_links_point_at_content_files(site: Path) -> None:
    roster = (site / "games/blognomic/roster/index.html").read_text(encoding="utf-8")
    assert _edit_link(roster) == f"{REPO}/edit/main/content/blognomic/gamestate/roster.yaml"
    ruleset = (site / "games/blognomic/ruleset/index.html").read_text(encoding="utf-8")
    assert _edit_link(ruleset) == f"{REPO}/tree/main/content/blognomic/ruleset"
    assert f'href="{REPO}/blob/main/content/blognomic/ruleset/fair-play.md"' in ruleset
    player = (site / "games/blognomic/players/alice/index.html").read_text(encoding="utf-8")
    assert _edit_link(player) == f"{REPO}/edit/main/content/blognomic/gamestate/roster.yaml"
    history = (site / "games/blognomic/history/index.html").read_text(encoding="utf-8")
    assert f"{REPO}/blob/main/content/blognomic/actions/20261105T090000Z--Emeka--core.idle.yaml" in history
    playing = (site / "playing/index.html").read_text(encoding="utf-8")
    assert _edit_link(playing) == f"{REPO}/edit/main/docs/playing.md"


def test_search_results_name_their_game(site: Path) -> None:
    """Two games have a Dmitri and every game a "History": the search index's page titles say which game."""
    import json

    docs = json.loads((site / "search/search_index.json").read_text(encoding="utf-8"))["docs"]
    titles = {e["location"]: e["title"] for e in docs}
    assert titles["games/cycle12/players/dmitri/"] == "Dmitri · Cycle 12 (example)"
    assert titles["games/settlement/players/dmitri/"] == "Dmitri · The Settlement (example)"
    assert titles["games/blognomic/history/"] == "History · BlogNomic (example)"
    assert titles["games/blognomic/players/fatima/#stats"] == "Stats"  # a section shows under its page
    assert titles["games/blognomic/"] == "BlogNomic (example)"  # named already
    assert titles["playing/"] == "How to play"  # not a game's page
    pages = [t for loc, t in titles.items() if loc.startswith("games/") and "#" not in loc]
    assert len(set(pages)) == len(pages), "two game pages still look alike in search results"
    # what readers see on the page and in its tab is the page's own title
    page = (site / "games/cycle12/players/dmitri/index.html").read_text(encoding="utf-8")
    assert "<title>Dmitri - Nomic as code</title>" in page and "Cycle 12 (example)</h1>" not in page


def test_ruleset_history_shows_the_enacted_amendment(site: Path) -> None:
    html = (site / "games/blognomic/ruleset-history/index.html").read_text(encoding="utf-8")
    assert "1.10 Fair Play" in html
    assert "<ins>- Do not edit another Colonist" in html


def test_proposals_page_has_live_tallies(site: Path) -> None:
    html = (site / "games/blognomic/proposals/index.html").read_text(encoding="utf-8")
    assert 'id="proposal-3"' in html and 'id="proposal-1"' in html
    assert "Quorum is <strong>" in html
    assert "nomic-verdict" in html


def test_feed_is_atom_with_the_latest_action_first(site: Path) -> None:
    feed = ET.parse(site / "games/blognomic/feed.xml").getroot()
    ns = {"a": "http://www.w3.org/2005/Atom"}
    entries = feed.findall("a:entry", ns)
    assert entries
    assert entries[0].find("a:title", ns).text == "Emeka core.idle"  # type: ignore[union-attr]


def test_the_site_fetches_nothing_from_elsewhere(site: Path) -> None:
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert "fonts.googleapis.com" not in text, page
        for src in re.findall(r'<(?:script|link|img)[^>]+(?:src|href)="(https?://[^"]+)"', text):
            pytest.fail(f"{page}: loads {src}")


def test_a_hostile_game_without_initial_is_escaped_and_builds(tmp_path: Path) -> None:
    """Player text with HTML in a game that has no initial/ folder: escaped, and the build still works."""
    root = tmp_path / "repo"
    root.mkdir()
    shutil.copy(ROOT / "mkdocs.yml", root / "mkdocs.yml")
    shutil.copytree(ROOT / "docs", root / "docs")
    shutil.copytree(ROOT / "content/blognomic", root / "content/evil", ignore=shutil.ignore_patterns("initial"))
    proposals = root / "content/evil/gamestate/proposals.yaml"
    text = proposals.read_text(encoding="utf-8")
    proposals.write_text(text.replace("title: A charter for the colony",
                                      "title: '<script>alert(\"pwned\")</script><img src=x onerror=alert(1)>'"),
                         encoding="utf-8")
    config = root / "content/evil/game.yaml"
    config.write_text(config.read_text(encoding="utf-8")
                      .replace("name: BlogNomic (example)", "name: '<script>alert(\"name\")</script> & Co'")
                      .replace("player: Colonist", "player: '<img src=x onerror=alert(2)>'"), encoding="utf-8")
    out = tmp_path / "site"
    build(root, out, NOMIC_NOW="2026-11-05T12:00:00Z")
    for page in out.rglob("*.html"):  # the game's name and keywords reach the navigation and titles escaped
        text = page.read_text(encoding="utf-8")
        assert '<script>alert("name")' not in text and "<img src=x" not in text, page
    home = (out / "games/evil/index.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(&#34;name&#34;)&lt;/script&gt; &amp; Co" in home or \
        "&lt;script&gt;alert(&quot;name&quot;)&lt;/script&gt; &amp; Co" in home
    html = (out / "games/evil/proposals/index.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert" in html
    assert '<script>alert("pwned")' not in html and "<img src=x" not in html
    history = (out / "games/evil/history/index.html").read_text(encoding="utf-8")
    assert "no <code>initial/</code> folder" in history
    assert (out / "games/evil/ruleset-history/index.html").is_file()


def test_each_proposal_has_a_page_with_its_record(site: Path) -> None:
    """Proposal 2 of the example game: proposed by Emeka, four votes AGAINST, failed by Alice."""
    page = (site / "games/blognomic/proposals/2/index.html").read_text(encoding="utf-8")
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))
    assert "Proposal #2: Free bananas for everyone" in text
    assert "by Emeka" in text and "failed" in text and "by Alice" in text
    assert "Final tally: 1 FOR, 4 AGAINST" in text
    record = text[text.index("On the record"):]
    assert [a for a in re.findall(r"core\.[a-z-]+", record)] == ["core.propose"] + ["core.vote"] * 4 + ["core.fail"]
    assert 'href="../../history/#a-20261102t140000z--emeka--core-propose"' in page
    listing = (site / "games/blognomic/proposals/index.html").read_text(encoding="utf-8")
    assert 'href="2/">Free bananas for everyone</a>' in listing
    state = load_game(WorkTree(ROOT), "blognomic").state
    made = {d.name for d in (site / "games/blognomic/proposals").iterdir() if d.is_dir()}
    assert {str(p["id"]) for p in state.doc("proposals")["proposals"]} <= made
    assert {f"cfj-{c['id']}" for c in state.doc("cfjs")["cfjs"]} <= made


# a day as the files keep it, alone (2026-11-05, Quazie's tag days) or in a stamp (2026-11-05T10:00:00Z)
RAW_STAMP = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def _visible_stamps(html: str) -> list[str]:
    """The raw stamps and days in a page's visible text (not in attributes, scripts or styles), each with its
    context. Left out on purpose: a proposal's gamestate patch ("What it does if enacted": ``add
    /quazie/tag_days/- = 2026-11-05``), code that shows the path and the value exactly as the proposal will write
    them into the files."""
    from html.parser import HTMLParser

    found: list[str] = []

    class Text(HTMLParser):
        hidden = patch = code = 0

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            self.hidden += tag in ("script", "style")
            self.patch += tag == "details" and "nomic-effects" in (dict(attrs).get("class") or "").split()
            self.code += tag == "code" and self.patch > 0

        def handle_endtag(self, tag: str) -> None:
            self.hidden -= tag in ("script", "style")
            self.patch -= tag == "details" and self.patch > 0
            self.code -= tag == "code" and self.code > 0

        def handle_data(self, data: str) -> None:
            if not self.hidden and not self.code:
                found.extend(data[max(0, m.start() - 60):m.end() + 10] for m in RAW_STAMP.finditer(data))

    parser = Text(convert_charrefs=True)
    parser.feed(html)
    parser.close()
    return found


def test_no_raw_stamp_is_visible_on_a_games_pages(site: Path) -> None:
    """The history (an action's outcome, a record added whole, a changed value that is a day alone) and every other
    page of a game write times and days as the wiki writes them ("5 Nov 2026 10:00 UTC", "5 Nov 2026"); the exact
    stamp is kept in the <time> element's datetime and title."""
    pages = sorted((site / "games").rglob("*.html"))
    histories = [p for p in pages if "history" in p.relative_to(site).parts[2:3]]
    assert len(histories) >= len(games(WorkTree(ROOT)))
    shown = {str(p.relative_to(site)): s for p in pages
             if (s := _visible_stamps(p.read_text(encoding="utf-8")))}
    assert not shown, shown
    quazie = (site / "games/quazie/history/index.html").read_text(encoding="utf-8")  # a day alone, changed
    assert ('day: <time datetime="2026-11-04" title="2026-11-04">4 Nov 2026</time> → '
            '<time datetime="2026-11-05" title="2026-11-05">5 Nov 2026</time>') in quazie
    ifmud = (site / "games/ifmud/history/index.html").read_text(encoding="utf-8")  # an outcome's field
    assert re.search(r'how: timeout, at: <time datetime="(2026-[^"]+Z)" title="\1">\d+ Nov 2026 \d\d:\d\d UTC</time>',
                     ifmud)
    settlement = (site / "games/settlement/history/index.html").read_text(encoding="utf-8")  # a record added whole
    assert re.search(r'added \{task: \w+, at: <time datetime="(2026-[^"]+Z)" '
                     r'title="\1">\d+ Nov 2026 \d\d:\d\d UTC</time>\}', settlement)


def test_a_page_kept_out_of_the_navigation_opens_the_sidebar_at_its_game(site: Path) -> None:
    """An ifMUD room or a Cycle 12 location is no entry of the navigation (there are hundreds), but its sidebar
    opens at its game as on the game's listed pages: the game's section is active, and its pages are linked."""
    for page, listed in (("games/ifmud/rooms/lounge", "map"), ("games/cycle12/locations/1", "world-map")):
        html = (site / page / "index.html").read_text(encoding="utf-8")
        nav = html[html.index('<nav class="md-nav md-nav--primary"'):]
        nav = nav[:nav.index("</nav>\n</div>") if "</nav>\n</div>" in nav else len(nav)]
        assert f'href="../../{listed}/"' in nav, page
        assert "md-nav__item--active" in nav, page
