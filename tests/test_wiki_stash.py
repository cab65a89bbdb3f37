"""The wiki hands the blocks of HTML it draws whole to the page as they are (``site_plugins.markup.HtmlStash``,
the plugin's ``pass_html`` option), instead of having Python-Markdown parse them again: the pages must be exactly
the ones Markdown makes of the same text. The example games are built both ways and every file compared."""

from __future__ import annotations

import filecmp
import re
import shutil
from pathlib import Path

import pytest

from site_plugins.markup import HTML_CLOSE, HTML_OPEN, HtmlStash, plain_html, raw_html, unmark
from tests.gitgame import EXAMPLE_GAMES
from tests.test_wiki_build import ROOT, build
from tests.wikimd import render

NOW = "2026-11-05T12:00:00Z"


@pytest.mark.parametrize("text", [
    "# T\n\n" + raw_html('<div class="a">\n<p>x</p></div>') + "\n\n## U\n\n" + raw_html("<p>y</p>") + "\n",
    raw_html("<div>a</div>") + "\n\n" + raw_html("<div>b</div>") + "\n\ntext *after*\n\n"
    + raw_html("<ul><li>c</li></ul>"),
    "- a list\n- of two\n\n" + raw_html("<table><tr><td>1</td></tr></table>") + "\n\n| h |\n|---|\n| c |\n",
    "no marks at all, <b>inline</b> HTML and *Markdown*\n",
    # a player's text drawn inside a block: blank lines in a code block, HTML shown as text
    "# P\n\n" + raw_html('<div class="x">\n<div class="nomic-text">'
                          + plain_html("para\n\n```\ncode\n\n\nmore\n```\n\n<b>x</b> *y*") + "</div>\n</div>")
    + "\n\n## R",
    # whitespace Markdown normalises before it reads raw HTML: a tab, a carriage return, a line of spaces
    "# N\n\n" + raw_html('<div class="n">\n<p class="nomic-note">tab\there\r\nCR\rLF\n   \n\t\nend</p></div>')
    + "\n\nafter\n",
    # blocks that are not blocks of their own to Markdown: text right after, text right before, under a list item,
    # two blocks one line apart, marks not on lines of their own
    raw_html("<div>a</div>") + "\nafter text\n",
    "before text\n" + raw_html("<div>b</div>") + "\n\nmore\n",
    "- item\n" + raw_html("<p>c</p>") + "\n\nend\n",
    raw_html("<div>d</div>") + "\n" + raw_html("<div>e</div>") + "\n",
    f"x {HTML_OPEN}\n<p>b</p>\n{HTML_CLOSE} y\n",
    # a block at the end of the page, followed by blank lines or by nothing
    "# E\n\n" + raw_html("<div>f</div>") + "\n\n",
    "# E\n\n" + raw_html("<div>g</div>"),
])
def test_a_page_with_its_blocks_set_aside_is_the_page_markdown_makes(text: str) -> None:
    assert render(text) == render(text, pass_html=False)
    assert HTML_OPEN not in render(text) and "nomichtml" not in render(text)


def test_a_fence_in_a_block_is_shown_as_typed() -> None:
    # the one difference kept on purpose (HtmlStash's docstring): Markdown's fence extension reads a line of raw
    # HTML that starts with three backticks as a code block; set aside, a player's note shows it as typed
    note = '<div class="nomic-action">\n<p class="nomic-note">look\n```\nfenced\n```\n</p></div>'
    text = "# F\n\n" + raw_html(note) + "\n"
    assert "<pre" in render(text, pass_html=False)
    fast = render(text)
    assert "<pre" not in fast and "```\nfenced\n```" in fast


def test_unmark_gives_the_text_without_the_marks() -> None:
    text = "a\n\n" + raw_html("<p>b</p>") + "\n\nc\n"
    assert unmark(text) == "a\n\n<p>b</p>\n\nc\n"
    # a mark that is not where raw_html puts it is dropped, and its block left to Markdown
    stray = f"x {HTML_OPEN}<p>b</p>{HTML_CLOSE} y\n"
    rest, blocks = HtmlStash().set_aside(stray)
    assert blocks == [] and rest == "x <p>b</p> y\n"


def test_a_block_markdown_does_not_leave_as_a_paragraph_still_comes_back() -> None:
    # a block right under a list item (no blank line between) is a renderer's mistake: its token is read as part
    # of the item, and the block must still come back in its place
    text = "- item\n" + raw_html("<p>inside</p>") + "\n"
    out = render(text)
    assert "<p>inside</p>" in out and "nomichtml" not in out
    # marks that are indented are not set aside: unmarked, the text is as it would be without them
    indented = "- item\n\n    " + raw_html("<p>inside</p>").replace("\n", "\n    ") + "\n"
    assert unmark(indented) == "- item\n\n    <p>inside</p>\n"
    assert render(indented) == render("- item\n\n    <p>inside</p>\n", pass_html=False)


def test_tokens_differ_from_build_to_build() -> None:
    assert HtmlStash().token != HtmlStash().token
    assert re.fullmatch(r"nomichtml[0-9a-f]{16}", HtmlStash().token)


def test_the_wiki_is_the_same_with_and_without_the_shortcut(tmp_path: Path) -> None:
    fast, slow = tmp_path / "fast", tmp_path / "slow"
    build(ROOT, fast, NOMIC_NOW=NOW)
    project = tmp_path / "project"
    project.mkdir()
    for name in ("content", "docs"):
        shutil.copytree(ROOT / name, project / name)
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert "      content: content\n" in config
    (project / "mkdocs.yml").write_text(config.replace("      content: content\n",
                                                       "      content: content\n      pass_html: false\n"),
                                        encoding="utf-8")
    build(project, slow, NOMIC_NOW=NOW)

    pages = sorted(p.relative_to(fast) for p in fast.rglob("*.html"))
    assert len(pages) > 100
    assert pages == sorted(p.relative_to(slow) for p in slow.rglob("*.html"))
    differ = [str(p) for p in pages if not filecmp.cmp(fast / p, slow / p, shallow=False)]
    assert differ == []
    # and what is made from the pages: the search index (Material's search reads each page's HTML)
    index = Path("search") / "search_index.json"
    assert filecmp.cmp(fast / index, slow / index, shallow=False)
    for p in pages:
        text = (fast / p).read_text(encoding="utf-8")
        assert "nomic:html" not in text and "nomichtml" not in text, p


def test_the_history_and_the_maps_are_set_aside() -> None:
    from site_plugins import model
    from site_plugins.pages import build_game
    from validators.timeutil import parse_time

    def drawn(game: str, page: str) -> tuple[model.Game, str]:
        g = model.load(ROOT, game)
        return g, next(p.content for p in build_game(g, now=parse_time(NOW)).pages if p.src == page)

    g, history = drawn("blognomic", "games/blognomic/history.md")
    rest, blocks = HtmlStash().set_aside(history)
    assert len(blocks) == len(g.entries) >= 5  # one block for each action
    assert 'class="nomic-action"' not in rest and "## " in rest  # the days' headings stay Markdown
    for game, page in (("cycle12", "games/cycle12/world-map.md"), ("ifmud", "games/ifmud/map.md")):
        rest, blocks = HtmlStash().set_aside(drawn(game, page)[1])
        assert len(blocks) == 1 and "<svg" in blocks[0] and "<svg" not in rest, page


def test_the_anchors_set_aside_are_the_ones_mkdocs_would_find() -> None:
    # MkDocs reads the raw HTML it is given for the anchors its link check knows; the plugin adds those of the
    # blocks it set aside (on_page_content). MkDocs' own reader is the reference, on every page of the examples.
    from mkdocs.structure.pages import _HTMLHandler

    from site_plugins import model
    from site_plugins.pages import build_game
    from validators.timeutil import parse_time

    def mkdocs_anchors(text: str) -> set[str]:
        handler = _HTMLHandler()
        handler.feed(text)
        handler.close()
        return handler.present_anchor_ids

    synthetic = ['<div id="x">a</div>', '<p class="c" id="y" title="id=&quot;z&quot;">t id="no"</p>',
                 '<a name="n" href="h">l</a>', '<span name="not">s</span>', '<div data-id="no"><br id="b"/></div>',
                 '<svg viewBox="0 0 1 1"><g class="tile" id="tile-&amp;1"><title>T</title></g></svg>']
    assert HtmlStash.anchors(synthetic) == mkdocs_anchors("\n".join(synthetic)) == {"x", "y", "n", "b", "tile-&1"}
    checked = 0
    for game in EXAMPLE_GAMES:
        for page in build_game(model.load(ROOT, game), now=parse_time(NOW)).pages:
            if not page.src.endswith(".md"):
                continue
            rest, blocks = HtmlStash().set_aside(page.content)
            found = HtmlStash.anchors(blocks)
            assert found == mkdocs_anchors("\n".join(blocks)), page.src
            assert mkdocs_anchors(rest) | found == mkdocs_anchors(unmark(page.content)), page.src
            checked += len(found)
    assert checked > 50


def test_a_link_to_an_action_of_the_history_is_checked_as_before(tmp_path: Path,
                                                                 caplog: pytest.LogCaptureFixture) -> None:
    # an anchor inside a block set aside (an action of the history) is one MkDocs' link check knows
    import logging

    from site_plugins import model

    first = model.load(ROOT, "blognomic").entries[0].anchor
    project = tmp_path / "project"
    project.mkdir()
    for name in ("content", "docs"):
        shutil.copytree(ROOT / name, project / name)
    shutil.copy(ROOT / "mkdocs.yml", project / "mkdocs.yml")
    (project / "docs" / "see.md").write_text(f"# See\n\n[the first action](games/blognomic/history.md#{first}), "
                                             "[nothing](games/blognomic/history.md#a-no-such-action)\n",
                                             encoding="utf-8")
    with caplog.at_level(logging.INFO, logger="mkdocs"):
        build(project, tmp_path / "site", NOMIC_NOW=NOW)
    missing = [r.getMessage() for r in caplog.records if "does not contain an anchor" in r.getMessage()]
    assert any("#a-no-such-action" in m for m in missing), missing  # the check runs
    assert not any(first in m for m in missing), missing
