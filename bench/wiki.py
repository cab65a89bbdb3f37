"""The wiki figure: ``mkdocs build`` of the large game with the nomic plugin, against a plain
Material build of the very same pages written as static Markdown files, with the same
mkdocs.yml (theme, features such as navigation.prune, extensions) and the same navigation.

The baseline pages are the plugin's own output (``site_plugins.pages.build_game``), so the
ratio isolates what the plugin adds: loading and replaying the game and drawing the pages.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
MKDOCS = str(Path(sys.executable).parent / "mkdocs")
NOW = "2026-11-22T00:00:00Z"
SLOW_CONFIG = "mkdocs-html-through-markdown.yml"

# A plain MkDocs hook: a page under games/<game>/ that the nav does not list gets its game's section as its parent,
# by the very function the plugin's on_nav calls (a module of its own, which imports nothing of the plugin)
SAME_NAV_HOOK = '''
from site_plugins.navigation import place_unlisted


def on_nav(nav, config, files):
    return place_unlisted(nav, files)
'''


def _cpu_children() -> float:
    import resource

    c = resource.getrusage(resource.RUSAGE_CHILDREN)
    return c.ru_utime + c.ru_stime


def _build(project: Path, site: Path, config: str = "mkdocs.yml") -> tuple[float, float, subprocess.CompletedProcess]:
    if site.exists():
        shutil.rmtree(site)
    env = {**os.environ, "NOMIC_NOW": NOW}
    c0, w0 = _cpu_children(), time.perf_counter()
    r = subprocess.run([MKDOCS, "build", "-q", "-f", str(project / config), "-d", str(site)], cwd=project,
                       capture_output=True, text=True, env=env)
    return _cpu_children() - c0, time.perf_counter() - w0, r


def _size_mb(folder: Path) -> float:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 2**20


def _pages(folder: Path) -> int:
    return sum(1 for _ in folder.rglob("index.html"))


def measure_wiki(repo: Path, game: str, row: Any, repeat: int = 1) -> None:
    try:
        _measure_wiki(repo, game, row, repeat)
    finally:  # leave the repository as it was: a later pull-request figure must not see these files
        for leftover in ("docs", "site-plugin"):
            shutil.rmtree(repo / leftover, ignore_errors=True)
        (repo / "mkdocs.yml").unlink(missing_ok=True)
        (repo / SLOW_CONFIG).unlink(missing_ok=True)


def _measure_wiki(repo: Path, game: str, row: Any, repeat: int = 1) -> None:
    from site_plugins import model
    from site_plugins.markup import unmark
    from site_plugins.pages import build_game
    from validators.timeutil import parse_time

    # 1. the real thing: the project's mkdocs.yml and docs, the plugin reading content/
    shutil.copy(ROOT / "mkdocs.yml", repo / "mkdocs.yml")
    if (repo / "docs").exists():
        shutil.rmtree(repo / "docs")
    shutil.copytree(ROOT / "docs", repo / "docs")

    # 2. the same pages as static files, the same configuration without the plugin, the same navigation
    g = model.load(repo, game)
    site = build_game(g, now=parse_time(NOW))
    del g
    static = repo.parent / "static-site"
    if static.exists():
        shutil.rmtree(static)
    shutil.copytree(ROOT / "docs", static / "docs")
    for page in site.pages:
        out = static / "docs" / page.src
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(unmark(page.content), encoding="utf-8")
    assets = ROOT / "site_plugins" / "assets"
    (static / "docs" / "assets" / "nomic").mkdir(parents=True, exist_ok=True)
    for a in assets.iterdir():
        if a.is_file():
            shutil.copy(a, static / "docs" / "assets" / "nomic" / a.name)
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    config["plugins"] = [p for p in config.get("plugins", []) if not (isinstance(p, dict) and "nomic" in p)
                         and p != "nomic"]
    config["extra_css"] = list(config.get("extra_css", [])) + ["assets/nomic/nomic.css"]
    config["extra_javascript"] = list(config.get("extra_javascript", [])) + ["assets/nomic/nomic.js"]
    written = sorted(str(p.relative_to(static / "docs").as_posix()) for p in (static / "docs").rglob("*.md")
                     if not p.relative_to(static / "docs").as_posix().startswith("games/")
                     and p.name != "index.md" or p.relative_to(static / "docs").as_posix() == "index.md")
    others = [s for s in written if s != "index.md" and not s.startswith("modules/")]
    modules = [s for s in written if s.startswith("modules/")]
    nav: list[Any] = [{"Home": "index.md"}, {site.summary.title: site.nav}]
    if others:
        nav.append({"How it works": others})
    if modules:
        nav.append({"Modules": modules})
    config["nav"] = nav
    # the plugin gives a game's page kept out of the navigation (a Cycle 12 location, an ifMUD room) its game's
    # section, so its sidebar opens at the game (``NomicPlugin.on_nav``); a page outside the nav of a plain build
    # has none, and draws a smaller sidebar (52 MB against 45 MB for Cycle 12's 1,304 pages). The same parent is
    # given here by a hook of MkDocs' own, so that both builds draw the very same pages
    (static / "same_nav.py").write_text(SAME_NAV_HOOK, encoding="utf-8")
    config["hooks"] = ["same_nav.py"]
    (static / "mkdocs.yml").write_text(yaml.safe_dump(config, sort_keys=False, allow_unicode=True), encoding="utf-8")

    # 3. the two builds in turn, so that a slower spell of the machine weighs on both alike
    best = base = (float("inf"), float("inf"))
    pairs = []
    for _ in range(repeat):
        c, w, r = _build(repo, repo / "site-plugin")
        if r.returncode != 0:
            row.notes.append(f"the plugin build failed: {(r.stderr or r.stdout)[-500:]}")
            row.verdict = "build failed"
            return
        best = (min(best[0], c), min(best[1], w))
        cs, ws, r = _build(static, static / "site")
        if r.returncode != 0:
            row.notes.append(f"the static build failed: {(r.stderr or r.stdout)[-500:]}")
            return
        base = (min(base[0], cs), min(base[1], ws))
        pairs.append(c / cs)
    row.ours = best
    if repeat > 1:
        row.notes.append(f"{repeat} pairs of builds, one after the other; each pair's CPU ratio: "
                         + ", ".join(f"{x:.2f}x" for x in pairs))
    pages = _pages(repo / "site-plugin")
    # the plugin's build again with its blocks of HTML read by Markdown, as a static page's are (pass_html: false):
    # what replaying, loading and drawing cost, without what the shortcut saves on Markdown
    text = (repo / "mkdocs.yml").read_text(encoding="utf-8")
    slow = text.replace("      content: content\n", "      content: content\n      pass_html: false\n")
    if slow == text:
        row.notes.append("mkdocs.yml has no `content: content` line under the plugin: the build without the "
                         "shortcut was not made")
    else:
        (repo / SLOW_CONFIG).write_text(slow, encoding="utf-8")
        c, w, r = _build(repo, repo / "site-plugin", SLOW_CONFIG)
        row.notes.append(f"without the shortcut for the plugin's blocks of HTML (`pass_html: false`, so that "
                         f"Markdown reads them as it reads the static pages'): {c:.1f} s CPU / {w:.1f} s wall, "
                         f"{c / base[0]:.2f}x the best plain build" if r.returncode == 0 else
                         f"the build without the shortcut failed: {(r.stderr or r.stdout)[-300:]}")
    # what `make wiki` runs: the check (whose replay the wiki reuses), then the same build
    env = {**os.environ, "NOMIC_NOW": NOW}
    c0, w0 = _cpu_children(), time.perf_counter()
    r = subprocess.run([str(Path(sys.executable).parent / "nomic"), "--repo", str(repo), "build", "--site-dir",
                        str(repo / "site-plugin")], cwd=repo, capture_output=True, text=True, env=env)
    if r.returncode == 0:
        row.notes.append(f"`nomic build` (the whole check, then the wiki drawn from the check's replay): "
                         f"{_cpu_children() - c0:.1f} s CPU / {time.perf_counter() - w0:.1f} s wall")
    else:
        row.notes.append(f"`nomic build` failed: {(r.stderr or r.stdout)[-300:]}")
    row.base = base
    static_pages = _pages(static / "site")
    row.notes.append(f"{pages} pages built with the plugin ({_size_mb(repo / 'site-plugin'):.0f} MB), "
                     f"{static_pages} in the static build ({_size_mb(static / 'site'):.0f} MB)")
    row.ratio_goal = 1.25
    ratio = row.ratio()
    enough = pages >= 1000
    if not enough:
        row.notes.append(f"the plugin draws {pages} pages for this game, fewer than the 1,000 the figure asks for")
    row.verdict = ("met" if ratio is not None and ratio <= 1.25 else "missed") + ("" if enough else
                                                                                  " (fewer than 1,000 pages)")
