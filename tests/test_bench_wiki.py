"""The wiki figure's baseline draws the very pages the plugin draws (``bench/wiki.py``): a plain Material build of
the plugin's pages as static files, with the same navigation. No timings here (BENCHMARKS.md has the figures)."""

from __future__ import annotations

import re
from pathlib import Path

from bench.gen_cycle12 import generate
from bench.run import Row
from bench.wiki import _measure_wiki  # measure_wiki removes the sites after


def _sidebar_links(page: Path) -> list[str]:
    """The links of a page's sidebars (everything before its content), in order."""
    html = page.read_text(encoding="utf-8")
    return re.findall(r'href="([^"]*)"', html[:html.index('<div class="md-content"')])


def test_a_location_page_kept_out_of_the_nav_has_the_same_sidebar_in_both_builds(tmp_path: Path) -> None:
    # a Cycle 12 location is kept out of the navigation; the plugin gives it its game's section (on_nav), and the
    # static copy of it had none: a smaller page (45 MB against 52 MB for the large game), so a cheaper baseline
    repo = tmp_path / "repo"
    generate(repo, game="big", players=8, actions=40, seed=3, locations=30)
    row = Row("wiki", "at most 1.25x")
    _measure_wiki(repo, "big", row, 1)
    assert row.ours and row.base, row.notes
    plugin, static = repo / "site-plugin", tmp_path / "static-site" / "site"
    location = next(p for p in sorted((plugin / "games" / "big" / "locations").iterdir()) if p.is_dir())
    page = Path("games", "big", "locations", location.name, "index.html")
    ours = _sidebar_links(plugin / page)
    assert "../../players/p000/" in ours, ours  # the game's section, open at the game
    assert _sidebar_links(static / page) == ours
