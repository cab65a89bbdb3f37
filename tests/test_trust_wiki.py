"""Script injection: a game whose every player-typed place carries script, built into the wiki and opened in
headless Chromium. No payload may run (each would set its own ``window.__pwned_*`` flag), no link may keep a
``javascript:`` target, and no element may carry an event handler a player wrote.

Player names cannot carry a payload at all (the roster schema allows letters, digits, space and ``.'_-``;
tests/test_trust.py shows the refusals), so the payloads go where text is free: the game's name, description,
keywords and colours, rule titles and rule text, proposal and CfJ titles and texts, and action notes.
"""

from __future__ import annotations

import functools
import http.server
import os
import re
import shutil
import tempfile
import threading
from html import unescape
from pathlib import Path

import pytest

from tests.gitgame import ROOT, commit, make_repo, nomic

NOW = ["--now", "2026-11-22T12:00:00Z"]
GAME = "content/blognomic"


def payload(tag: str, short: bool = False) -> str:
    """Script in every form a browser might run it, each setting window.__pwned_<tag>."""
    flag = f"window.__pwned_{tag}=1"
    forms = [f"<script>{flag}</script>", f'<img src=x onerror="{flag}">']
    if not short:
        forms += [f'<svg onload="{flag}"></svg>', f"[click](javascript:{flag})", f'<a href="javascript:{flag}">a</a>',
                  f'<iframe src="javascript:{flag}"></iframe>', f'<details open ontoggle="{flag}">',
                  f"![x](javascript:{flag})", f"<javascript:{flag}>"]
    return " ".join(forms)


def _yaml_quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _build_hostile_game(tmp: Path, names: bool = False) -> Path:
    """The example game with payloads in its texts; with ``names``, in its name and keywords as well."""
    repo = make_repo(tmp)
    game = repo / GAME
    # the game's own description and colours (and name and keywords, which the navigation shows)
    cfg = game / "game.yaml"
    text = cfg.read_text()
    if names:
        text = text.replace("name: BlogNomic (example)", "name: " + _yaml_quote(payload("gamename", short=True)))
        text = text.replace("  player: Colonist", "  player: " + _yaml_quote(payload("keyword", short=True)))
    text = re.sub(r"description: >-\n(?:  .*\n)+", "description: " + _yaml_quote(payload("description")) + "\n",
                  text)
    text += "colours:\n  Alice: " + _yaml_quote('x" onload="window.__pwned_colour=1') + "\n"
    cfg.write_text(text)
    # the game was founded so (initial/game.yaml): the audit replays from it, and so passes the file as it is
    (game / "initial" / "game.yaml").write_text(text.replace("=../../schemas/", "=../../../schemas/", 1))
    # a rule's title and text, as founded (initial/) and as they stand
    for folder in (game / "ruleset", game / "initial" / "ruleset"):
        rule = folder / "numbers.md"
        body = rule.read_text()
        body = body.replace("title: Numbers", "title: " + _yaml_quote(payload("ruletitle", short=True)))
        body += "\n" + payload("ruletext") + "\n\n<div onclick=\"window.__pwned_div=1\">raw html</div>\n"
        rule.write_text(body)
    commit(repo, "founded with payloads")  # so founded: nomic act builds on no uncommitted change to initial/
    # proposals, a CfJ and votes with flavour notes, all taken with nomic act
    steps = [
        ["core.propose", "title=" + payload("ptitle", short=True), "text=" + payload("ptext"),
         "--note", payload("pnote"), "--as", "Chidi", "--at", "2026-11-06T10:00:00Z"],
        ["core.cfj", "title=" + payload("ctitle", short=True), "text=" + payload("ctext"),
         "--note", payload("cnote"), "--as", "Dana", "--at", "2026-11-06T11:00:00Z"],
        ["core.vote", "proposal=4", "vote=FOR", "--note", payload("vnote"), "--as", "Alice", "--at",
         "2026-11-06T12:00:00Z"],
    ]
    for args in steps:
        r = nomic(repo, "act", "blognomic", *args, *NOW)
        assert r.returncode == 0, r.stdout + r.stderr
    r = nomic(repo, "check", *NOW)
    assert r.returncode == 0, r.stdout  # a valid game: the wiki draws it, rather than an error page
    return repo


def _site(tmp: Path, names: bool) -> Path:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    repo = _build_hostile_game(tmp, names)
    shutil.copytree(ROOT / "docs", repo / "docs")
    config = (ROOT / "mkdocs.yml").read_text()
    config = config.replace("custom_dir: site_plugins/templates", f"custom_dir: {ROOT / 'site_plugins' / 'templates'}")
    (repo / "mkdocs.yml").write_text(config)
    out = tmp / "site"
    old = os.environ.get("NOMIC_NOW")
    os.environ["NOMIC_NOW"] = "2026-11-22T12:00:00Z"
    try:
        build(load_config(config_file=str(repo / "mkdocs.yml"), site_dir=str(out)))
    finally:
        if old is None:
            os.environ.pop("NOMIC_NOW", None)
        else:
            os.environ["NOMIC_NOW"] = old
    return out


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory) -> Path:
    return _site(tmp_path_factory.mktemp("hostile"), names=False)


@pytest.fixture(scope="module")
def hostile_names_site(tmp_path_factory) -> Path:
    return _site(tmp_path_factory.mktemp("hostile-names"), names=True)


def _pages(site: Path) -> list[str]:
    out = []
    for p in sorted(site.rglob("*.html")):
        rel = p.relative_to(site).as_posix()
        if rel.startswith(("assets/", "search/")):
            continue
        out.append(rel)
    return out


def test_the_payloads_reach_the_wiki_as_text(hostile_site):
    # the test can fail: every payload is on some page, escaped, so a page that dropped it would not pass unseen
    html = "\n".join((hostile_site / p).read_text(encoding="utf-8") for p in _pages(hostile_site))
    # as a reader sees it: titles in Markdown are written with character references (_ as &#95;)
    shown = unescape(re.sub(r"<[^>]+>", " ", html))
    for tag in ("description", "ruletitle", "ruletext", "ptitle", "ptext", "pnote", "ctitle", "ctext", "vnote"):
        assert f"__pwned_{tag}" in shown, f"the {tag} payload is on no page"
    assert "&lt;script&gt;window.__pwned_ptitle=1&lt;/script&gt;" in html
    _assert_inert(html)


def _assert_inert(html: str) -> None:
    assert "<script>window.__pwned" not in html
    assert not re.search(r"""<[a-zA-Z][^<>]*\son[a-z]+\s*=\s*["']?window\.__pwned""", html)
    assert not re.search(r"""<[a-zA-Z][^<>]*\s(?:href|src)\s*=\s*["']?\s*javascript:""", html, re.IGNORECASE)


def test_the_game_name_and_keywords_are_inert_in_the_navigation(hostile_names_site):
    # MkDocs prints navigation titles as they are: the plugin must escape the game's name and keywords there
    html = "\n".join((hostile_names_site / p).read_text(encoding="utf-8") for p in _pages(hostile_names_site))
    assert "__pwned_gamename" in html and "__pwned_keyword" in html
    _assert_inert(html)


@pytest.fixture(scope="module")
def chromium():
    from tests.browser.conftest import CHROMIUM_FLAGS, _find

    chromium_path = _find("chromium", "chromium-browser", "google-chrome")
    driver_path = _find("chromedriver")
    if not chromium_path or not driver_path:
        if os.environ.get("CI"):
            pytest.fail("chromium or chromedriver missing; in CI the browser tests must run")
        pytest.skip("chromium or chromedriver missing (sh tools/setup-chromium.sh)")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.skip("selenium is not installed (pip install -e '.[test]')")
    profile = tempfile.mkdtemp(prefix="nomic-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium_path
    for flag in CHROMIUM_FLAGS + [f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


FLAGS_JS = """
const flags = Object.keys(window).filter(k => k.startsWith('__pwned'));
const js = [...document.querySelectorAll('[href],[src],[action],[formaction],[data]')]
  .map(e => e.getAttribute('href') || e.getAttribute('src') || e.getAttribute('action') || '')
  .filter(v => /^\\s*javascript:/i.test(v));
const handlers = [];
for (const el of document.querySelectorAll('*')) {
  for (const a of el.attributes) {
    if (a.name.startsWith('on') && a.value.includes('__pwned')) handlers.push(el.tagName + ' ' + a.name);
  }
}
return {flags, js, handlers, text: document.body ? document.body.innerText.includes('__pwned') : false};
"""


@pytest.mark.parametrize("which", ["hostile_site", "hostile_names_site"])
def test_no_payload_runs_in_the_browser(request, which, chromium):
    hostile_site = request.getfixturevalue(which)
    handler = functools.partial(_Quiet, directory=str(hostile_site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        # the check itself works: a page that does run one of the payloads is caught
        chromium.get(base + "404.html" if (hostile_site / "404.html").exists() else base)
        chromium.execute_script("document.body.insertAdjacentHTML('beforeend', arguments[0])",
                                '<img src=x onerror="window.__pwned_control=1">')
        chromium.implicitly_wait(0)
        import time

        time.sleep(0.5)
        assert "__pwned_control" in chromium.execute_script(FLAGS_JS)["flags"]

        shown = 0
        for page in _pages(hostile_site):
            chromium.get(base + page)
            time.sleep(0.05)  # let onerror and onload handlers fire, were there any
            found = chromium.execute_script(FLAGS_JS)
            assert not found["flags"], f"{page}: script ran: {found['flags']}"
            assert not found["js"], f"{page}: javascript: links {found['js']}"
            assert not found["handlers"], f"{page}: event handlers {found['handlers']}"
            shown += bool(found["text"])
        assert shown >= 3, "the payloads were shown as text on too few pages"
    finally:
        server.shutdown()
        server.server_close()
