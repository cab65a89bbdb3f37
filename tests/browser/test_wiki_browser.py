"""The built wiki in a real headless Chromium: pages load cleanly, tables sort, search works, pictures show.

Screenshots of each kind of page go to test-artifacts/ (wiki-<game>-<kind>.png).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest


def _pages(site: Path) -> list[str]:
    """Every HTML page of the site, as a path from the site root ('' for the home page)."""
    out = []
    for p in sorted(site.rglob("index.html")):
        rel = p.parent.relative_to(site).as_posix()
        if rel.startswith("assets") or rel.startswith("search"):
            continue
        out.append("" if rel == "." else rel + "/")
    return out


def _kind(path: str) -> str:
    parts = path.strip("/").split("/")
    if not path:
        return "home"
    if parts[0] != "games":
        return "docs-" + "-".join(parts)
    game = parts[1]
    if len(parts) == 2:
        return f"{game}-game"
    if parts[2] == "players":
        return f"{game}-player"
    return f"{game}-{parts[2]}"


def _errors(browser) -> list[str]:  # type: ignore[no-untyped-def]
    return [f"{e['level']}: {e['message']}" for e in browser.get_log("browser") if e["level"] == "SEVERE"]


def _wait(condition, timeout: float = 10.0):  # type: ignore[no-untyped-def]
    end = time.time() + timeout
    while time.time() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    return condition()


ICON = ("ancestor::*[contains(@class,'md-icon') or contains(@class,'md-content__button')"
        " or contains(@class,'headerlink')]")


@pytest.fixture(scope="module")
def visited(browser, site_url, built_site, artifacts):  # type: ignore[no-untyped-def]
    """Every page visited once: its console errors, whether it rendered, its pictures; one screenshot per kind."""
    out: dict[str, dict] = {}
    shot: set[str] = set()
    browser.get_log("browser")  # start clean
    for path in _pages(built_site):
        browser.get(site_url + path)
        _wait(lambda: browser.execute_script("return document.readyState") == "complete")
        pictures = []
        if path.startswith("games/"):
            for svg in browser.find_elements("css selector", "article svg"):
                if not svg.find_elements("xpath", ICON):
                    pictures.append((svg.get_attribute("class"), svg.is_displayed(), svg.size))
        out[path] = {"errors": _errors(browser), "rendered": bool(browser.find_elements("css selector", "article h1")),
                     "pictures": pictures}
        kind = _kind(path)
        if kind not in shot:
            browser.save_screenshot(str(artifacts / f"wiki-{kind}.png"))
            shot.add(kind)
    return out


def test_every_page_loads_without_console_errors(visited, artifacts):  # type: ignore[no-untyped-def]
    assert any(p.startswith("games/") for p in visited), list(visited)
    failures = {p: v["errors"] + ([] if v["rendered"] else ["no heading: the page did not render"])
                for p, v in visited.items() if v["errors"] or not v["rendered"]}
    assert not failures, failures
    shots = {p.name for p in artifacts.glob("wiki-*.png")}
    assert any(n.endswith("-roster.png") for n in shots) and any(n.endswith("-player.png") for n in shots)


def test_pictures_are_visible(visited):  # type: ignore[no-untyped-def]
    """Every SVG picture on a game page (charts, tally bars, module maps) is shown with a real size."""
    pictures = [(p, *pic) for p, v in visited.items() for pic in v["pictures"]]
    assert pictures, "no picture on any game page"
    hidden = [f"{p}: {cls} {size}" for p, cls, shown, size in pictures
              if not shown or size["width"] < 5 or size["height"] < 5]
    assert not hidden, hidden


def _column(browser, index: int) -> list[str]:  # type: ignore[no-untyped-def]
    return browser.execute_script(
        "return Array.from(document.querySelectorAll('table.nomic-roster tbody tr'))"
        ".map(r => r.children[arguments[0]].textContent.trim())", index)


def test_roster_sorts_on_click(browser, site_url, artifacts):  # type: ignore[no-untyped-def]
    browser.get(site_url + "games/blognomic/roster/")
    names = _column(browser, 0)
    assert len(names) >= 3 and names == sorted(names, key=str.casefold)
    headings = browser.find_elements("css selector", "table.nomic-roster thead th")
    headings[0].click()  # already ascending by name: now descending
    assert _wait(lambda: _column(browser, 0) == sorted(names, key=str.casefold, reverse=True)), _column(browser, 0)
    assert headings[0].get_attribute("aria-sort") == "descending"
    joined_col = [h.text.strip() for h in headings].index("Joined")
    headings[joined_col].click()
    joined = browser.execute_script(
        "return Array.from(document.querySelectorAll('table.nomic-roster tbody tr'))"
        ".map(r => r.children[arguments[0]].getAttribute('data-value'))", joined_col)
    assert joined == sorted(joined), joined
    browser.save_screenshot(str(artifacts / "wiki-roster-sorted.png"))


def _search(browser, site_url: str, query: str) -> list[str]:  # type: ignore[no-untyped-def]
    browser.get(site_url)
    # open the search as a reader does with the keyboard ("/"), or by its toggle on narrow screens
    browser.execute_script("var t = document.getElementById('__search'); if (t) { t.checked = true; "
                           "t.dispatchEvent(new Event('change')); }")
    box = _wait(lambda: [b for b in browser.find_elements("css selector", "input.md-search__input")
                         if b.is_displayed()])
    assert box, "the search box did not open"
    box[0].click()
    box[0].send_keys(query)
    return _wait(lambda: [r.text for r in browser.find_elements("css selector", ".md-search-result__item")
                          if query.lower() in r.text.lower()], timeout=15) or []


def test_search_finds_a_player_and_a_rule(browser, site_url, artifacts):  # type: ignore[no-untyped-def]
    found = _search(browser, site_url, "Fatima")
    assert found, "searching for a player found nothing"
    browser.save_screenshot(str(artifacts / "wiki-search-player.png"))
    found = _search(browser, site_url, "Enactment")
    assert found, "searching for a rule found nothing"
    browser.save_screenshot(str(artifacts / "wiki-search-rule.png"))



def test_search_results_say_their_game(browser, site_url, artifacts):  # type: ignore[no-untyped-def]
    # Dmitri plays in two games: each result's page title says which
    assert _search(browser, site_url, "Dmitri"), "searching for a player found nothing"
    heads = _wait(lambda: [h.text for h in browser.find_elements("css selector", ".md-search-result__item h1")
                           if h.text.startswith("Dmitri ·")], timeout=15) or []
    browser.save_screenshot(str(artifacts / "wiki-search-game.png"))
    assert "Dmitri · Cycle 12 (example)" in heads and "Dmitri · The Settlement (example)" in heads, heads

WIDE_PAGES = ["", "games/monkey/roster/", "games/quazie/roster/", "games/blognomic/proposals/",
              "games/monkey/monkey-line/", "games/settlement/settlement/", "games/cycle12/world-map/",
              "games/ifmud/map/"]

# the links in a page's tables that are cut inside a word: a word of the link (what lies between spaces, "Dot-Com"
# too, which the browser may break at its hyphen) whose letters are on more than one line
BROKEN_LINKS = """return Array.from(document.querySelectorAll('article table a')).filter(a => {
  const walk = document.createTreeWalker(a, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    for (const m of n.data.matchAll(/\\S+/g)) {
      const word = document.createRange();
      word.setStart(n, m.index);
      word.setEnd(n, m.index + m[0].length);
      if (new Set(Array.from(word.getClientRects(), r => Math.round(r.top))).size > 1) return true;
    }
  }
  return false;
}).map(a => a.textContent)"""

# each module's drawing, and in it a part whose size tells whether it can be read: (page, drawing, part, its
# least height in px at a phone's width). A map cell of the Settlement is 14 units, a Cycle 12 tile's name 11.
DRAWINGS = [("games/monkey/monkey-line/", "svg.monkey-line", "text", 7),
            ("games/quazie/positions/", "article div[style*=overflow-x] > svg[role=img]", "text", 7),
            ("games/ifmud/map/", "div.ifmud-map > svg", "text", 7),
            ("games/settlement/settlement/", "svg.settlement-map", "rect[height='14']", 10),
            ("games/cycle12/world-map/", "div.cycle12-map > svg", "g.tile text", 8)]


@pytest.mark.parametrize("width", [390, 1280])
def test_no_page_is_wider_than_the_screen(browser, site_url, artifacts, width):  # type: ignore[no-untyped-def]
    """At a phone's width and a desktop's, wide tables and drawings scroll inside their box: the page itself
    never scrolls sideways, and no link in a table is broken inside a word (the ifMUD map's "Dot-Com Bubble", in a
    list of rooms, was broken at its hyphen: "Dot-" ending a line, "Com" starting the next)."""
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": width, "height": 844, "deviceScaleFactor": 1, "mobile": width < 500})
    try:
        wide = {}
        for path in WIDE_PAGES:
            browser.get(site_url + path)
            _wait(lambda: browser.execute_script("return document.readyState") == "complete")
            scroll = browser.execute_script("return document.documentElement.scrollWidth")
            if scroll > width:
                wide[path] = scroll
            broken = browser.execute_script(BROKEN_LINKS)
            if broken:
                wide[path + " broken links"] = broken
        browser.save_screenshot(str(artifacts / f"wiki-width-{width}.png"))
        assert not wide, wide
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_drawings_keep_a_legible_size_on_a_phone(browser, site_url, artifacts):  # type: ignore[no-untyped-def]
    """At a phone's width (390 px) a wide drawing is not shrunk to the column, which took its labels and cells
    down to a few pixels: it keeps three quarters of its size (``_markup.legible_width``) and scrolls sideways in
    its own box, while the page itself does not scroll sideways."""
    width = 390
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": width, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    try:
        found = {}
        for path, drawing, part, least in DRAWINGS:
            browser.get(site_url + path)
            _wait(lambda: browser.execute_script("return document.readyState") == "complete")
            m = browser.execute_script(
                "const svg = document.querySelector(arguments[0]); if (!svg) return null;"
                "const parts = Array.from(svg.querySelectorAll(arguments[1]));"
                "const box = svg.parentElement;"
                "return {scale: svg.getBoundingClientRect().width / svg.viewBox.baseVal.width,"
                " part: parts.length ? Math.min(...parts.map(p => p.getBoundingClientRect().height)) : 0,"
                " overflow: getComputedStyle(box).overflowX, box: box.clientWidth, inner: box.scrollWidth,"
                " page: document.documentElement.scrollWidth}", drawing, part)
            assert m, (path, drawing)
            found[path] = m
            name = path.strip("/").split("/")[-1]
            browser.save_screenshot(str(artifacts / f"wiki-drawing-{width}-{name}.png"))
        small = {p: m for p, m in found.items() if m["scale"] < 0.74}
        assert not small, small  # shrunk below three quarters of its size
        unreadable = {p: m for (p, _, _, least) in DRAWINGS if (m := found[p])["part"] < least}
        assert not unreadable, unreadable
        wide = {p: m for p, m in found.items() if m["page"] > width or m["overflow"] != "auto"}
        assert not wide, wide  # the page scrolls sideways, or the drawing's box does not
        # the two maps are wider than a phone's column at that size: they scroll in their box
        for path in ("games/settlement/settlement/", "games/cycle12/world-map/"):
            assert found[path]["inner"] > found[path]["box"], (path, found[path])
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_a_players_stat_chart_keeps_a_legible_size_on_a_phone(browser, site_url, artifacts):  # type: ignore
    """At 390 px a player's stat chart was shrunk into its table cell to half its size (labels 4 px high): it keeps
    three quarters of its size, and its table scrolls sideways in its own box while the page does not."""
    width = 390
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": width, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    try:
        browser.get(site_url + "games/cycle12/players/ada/")
        _wait(lambda: browser.execute_script("return document.readyState") == "complete")
        m = browser.execute_script(
            "const svg = document.querySelector('article svg.nomic-chart'); if (!svg) return null;"
            "const box = svg.closest('table');"
            "return {scale: svg.getBoundingClientRect().width / svg.viewBox.baseVal.width,"
            " overflow: getComputedStyle(box).overflowX, page: document.documentElement.scrollWidth}")
        browser.save_screenshot(str(artifacts / f"wiki-chart-{width}.png"))
        assert m and m["scale"] >= 0.74, m
        assert m["overflow"] == "auto" and m["page"] <= width, m
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_a_box_that_scrolls_sideways_fades_where_more_of_it_lies(browser, site_url, artifacts):  # type: ignore
    # (a phone's width, then a desktop's)
    """At a phone's width the Settlement map, the Monkey roster and the Monkey Line's table (a Markdown table, in
    the box Material wraps it in: it was cut at the screen's edge with no hint) do not fit: their box fades at the
    right edge, where more lies; scrolled to the middle, at both edges; to the end, at the left only. At a desktop's
    width a table that fits does not fade at all (nomic.js marks the box, nomic.css masks its edge)."""
    more = ("const box = document.querySelector(arguments[0]);"
            "return [box.getAttribute('data-nomic-more'), getComputedStyle(box).maskImage"
            " || getComputedStyle(box).webkitMaskImage]")
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    try:
        for path, box in (("games/settlement/settlement/", "article div[style*=overflow-x]"),
                          ("games/monkey/roster/", "article table.nomic-roster"),
                          ("games/monkey/monkey-line/", "article .md-typeset__scrollwrap")):
            browser.get(site_url + path)
            _wait(lambda: browser.execute_script("return document.readyState") == "complete")
            _wait(lambda: browser.execute_script(more, box)[0] == "right")
            side, mask = browser.execute_script(more, box)
            assert side == "right" and "linear-gradient" in mask, (path, side, mask)
            browser.execute_script("const b = document.querySelector(arguments[0]);"
                                   "b.scrollLeft = (b.scrollWidth - b.clientWidth) / 2", box)
            assert _wait(lambda: browser.execute_script(more, box)[0] == "both"), path
            browser.save_screenshot(str(artifacts / f"wiki-scroll-hint-{path.strip('/').split('/')[-1]}.png"))
            browser.execute_script("const b = document.querySelector(arguments[0]); b.scrollLeft = b.scrollWidth", box)
            assert _wait(lambda: browser.execute_script(more, box)[0] == "left"), path
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": 1280, "height": 844, "deviceScaleFactor": 1, "mobile": False})
    try:
        browser.get(site_url + "games/blognomic/roster/")
        _wait(lambda: browser.execute_script("return document.readyState") == "complete")
        side, mask = browser.execute_script(more, "article table.nomic-roster")
        assert side is None and mask in ("none", None, ""), (side, mask)
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})



def _open_in_system_palette(browser, url: str) -> None:  # type: ignore[no-untyped-def]
    """Open ``url`` in the palette the system prefers: Material keeps the palette of earlier visits, so forget it
    and load the page again."""
    browser.get(url)
    browser.execute_script("localStorage.clear()")
    browser.get(url)
    _wait(lambda: browser.execute_script("return document.readyState") == "complete")


def test_drawings_stay_readable_in_dark_mode(browser, site_url, artifacts):  # type: ignore[no-untyped-def]
    """Module drawings are dark ink on light ground: in the dark palette they keep a light sheet of their own."""
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia",
                            {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    try:
        for path in ("games/settlement/settlement/", "games/ifmud/map/", "games/quazie/positions/",
                     "games/monkey/monkey-line/", "games/cycle12/world-map/"):
            _open_in_system_palette(browser, site_url + path)
            scheme = browser.execute_script("return document.body.getAttribute('data-md-color-scheme')")
            assert scheme == "slate", (path, scheme)
            grounds = browser.execute_script(
                "return Array.from(document.querySelectorAll('article div[style*=\"overflow-x\"] > svg[role=img]'))"
                ".map(s => getComputedStyle(s).backgroundColor)")
            assert grounds, path
            light = [g for g in grounds if sum(map(int, g[g.index("(") + 1:g.index(")")].split(",")[:3])) > 600]
            assert light == grounds, (path, grounds)
        browser.save_screenshot(str(artifacts / "wiki-dark-drawing.png"))
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def test_a_page_without_headings_gives_its_table_the_toc_column(built_site):  # type: ignore[no-untyped-def]
    """A roster has no heading under its title: Material's table-of-contents column is hidden, not kept empty."""
    toc = '<div class="md-sidebar md-sidebar--secondary" data-md-component="sidebar" data-md-type="toc"'
    roster = (built_site / "games/monkey/roster/index.html").read_text()
    ruleset = (built_site / "games/monkey/ruleset/index.html").read_text()
    assert toc + " hidden>" in roster
    assert toc + " >" in ruleset


# the contrast of each coloured word of the wiki's own (badges, tallies, verdicts, results) with the ground behind it
CONTRAST = """function lum(c) {
  return c.match(/[\\d.]+/g).slice(0, 3).map(Number).map(v => (v /= 255) <= 0.03928 ? v / 12.92
    : Math.pow((v + 0.055) / 1.055, 2.4)).reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
}
function ground(e) {
  for (; e; e = e.parentElement) {
    const b = getComputedStyle(e).backgroundColor;
    if (b && b !== "rgba(0, 0, 0, 0)" && b !== "transparent") return b;
  }
  return getComputedStyle(document.body).backgroundColor;
}
return Array.from(document.querySelectorAll(arguments[0])).filter(e => e.textContent.trim()).map(e => {
  const a = lum(getComputedStyle(e).color), b = lum(ground(e));
  return [e.className, e.textContent.trim(), (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)];
})"""


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_coloured_words_keep_their_contrast(browser, site_url, artifacts, scheme):  # type: ignore[no-untyped-def]
    """The badges (admin, idle, the leader), the tallies (FOR, AGAINST), the verdicts and the results (enacted,
    failed) were coloured for a light page: on the dark palette's ground their red, green and blue read at less than
    3:1. In either palette each keeps WCAG's 4.5:1 for text."""
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia",
                            {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    words = ".nomic-badge, .nomic-tally .for, .nomic-tally .against, .nomic-verdict, .nomic-result"
    try:
        found, faint = 0, []
        for path in ("games/blognomic/roster/", "games/blognomic/proposals/", "games/monkey/roster/",
                     "games/ifmud/ruleset/", ""):
            _open_in_system_palette(browser, site_url + path)
            seen = browser.execute_script(CONTRAST, words)
            found += len(seen)
            faint += [(path, cls, text, round(r, 2)) for cls, text, r in seen if r < 4.5]
        browser.save_screenshot(str(artifacts / f"wiki-contrast-{scheme}.png"))
        assert found > 10 and not faint, faint
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
