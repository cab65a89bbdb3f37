"""The MkDocs plugin: content/ -> wiki pages at build time (nothing generated is committed).

Thin by design: loading is ``model.load``, drawing is ``pages.build_game`` and the
rendering functions it calls; this file only hands their output to MkDocs, builds
the navigation, sets each page's edit link to the content file it comes from,
and puts the home page's table of games where ``docs/index.md`` says
``<!-- nomic:games -->``.

Options (mkdocs.yml)::

    plugins:
      - nomic:
          content: content          # the games, relative to mkdocs.yml
          repo_url: ""              # https://github.com/OWNER/REPO for edit and source links;
                                    # default: $NOMIC_REPO_URL, else $GITHUB_SERVER_URL/$GITHUB_REPOSITORY
          branch: main
          now: ""                   # a fixed "now" (UTC) for reproducible builds; default $NOMIC_NOW, else the clock
          pass_html: true           # hand the blocks of HTML the plugin draws whole to the page as they are,
                                    # instead of having Markdown parse them again (the pages are the same)
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority, get_plugin_logger
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from validators.problems import BadInput
from validators.timeutil import parse_time

from . import model
from .home import render_games_table
from .markup import HtmlStash, esc, unmark
from .navigation import place_unlisted
from .pages import GameSite, GeneratedPage, build_game, error_page, now_utc
from .searchindex import name_games_in_file

log = get_plugin_logger(__name__)
ASSETS = Path(__file__).parent / "assets"
GAMES_MARKER = "<!-- nomic:games -->"
DEFAULT_HOME = f"# The games\n\n{GAMES_MARKER}\n"


class NomicConfig(Config):
    content = c.Type(str, default="content")
    repo_url = c.Type(str, default="")
    branch = c.Type(str, default="main")
    now = c.Type(str, default="")
    pass_html = c.Type(bool, default=True)


def repository_url(configured: str) -> str:
    if configured:
        return configured.rstrip("/")
    if os.environ.get("NOMIC_REPO_URL"):
        return os.environ["NOMIC_REPO_URL"].rstrip("/")
    if os.environ.get("GITHUB_REPOSITORY"):
        server = os.environ.get("GITHUB_SERVER_URL", "https://github.com")
        return f"{server.rstrip('/')}/{os.environ['GITHUB_REPOSITORY']}"
    return ""


def edit_url(repo: str, branch: str, source: str) -> str | None:
    if not repo or not source:
        return None
    if source.endswith("/"):
        return f"{repo}/tree/{branch}/{source.rstrip('/')}"
    return f"{repo}/edit/{branch}/{source}"


class NomicPlugin(BasePlugin[NomicConfig]):
    def __init__(self) -> None:
        super().__init__()
        self.sources: dict[str, str] = {}  # page src -> content file
        self.titles: dict[str, str] = {}  # page src -> its title as the content gives it (unescaped)
        self.sites: list[GameSite] = []
        self.root = Path(".")
        self.stash = HtmlStash()
        self.blocks: dict[str, list[str]] = {}  # page src -> its blocks of HTML set aside, until its HTML is made

    # ------------------------------------------------------------ configuration

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        self.root = Path(config.config_file_path or ".").resolve().parent
        for css in ("assets/nomic/nomic.css",):
            if css not in config.extra_css:
                config.extra_css.append(css)
        scripts = [str(s) for s in config.extra_javascript]
        if "assets/nomic/nomic.js" not in scripts:
            config.extra_javascript.append("assets/nomic/nomic.js")
        return config

    def _now(self):  # type: ignore[no-untyped-def]
        fixed = self.config.now or os.environ.get("NOMIC_NOW", "")
        if fixed:
            try:
                return parse_time(fixed)
            except ValueError as e:
                raise PluginError(f"nomic plugin: 'now' {fixed!r}: {e}") from None
        return now_utc()

    # ------------------------------------------------------------ pages

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        content = self.root / self.config.content
        if not content.is_dir():
            raise PluginError(f"nomic plugin: no folder {content} (set the plugin's 'content' option in mkdocs.yml)")
        repo = repository_url(self.config.repo_url)
        now = self._now()
        self.sources = {}
        self.titles = {}
        self.sites = []
        self.stash = HtmlStash()  # a new token for each build
        self.blocks = {}
        generated: list[GeneratedPage] = []
        game_nav: list[Any] = []
        for name in sorted(p.parent.name for p in content.glob("*/game.yaml")):
            try:
                game = model.load(self.root, name)
            except BadInput as e:
                problems = [p.text() for p in e.problems]
                log.warning(f"game {name!r} does not load; its pages show why: {problems[0] if problems else ''}")
                page = error_page(name, problems)
                generated.append(page)
                game_nav.append({esc(name): [page.src]})
                continue
            site = build_game(game, now=now, repo_url=repo, branch=self.config.branch,
                              site_url=config.site_url or "", directory_urls=config.use_directory_urls)
            for w in site.warnings:
                log.warning(w)
            self.sites.append(site)
            generated += site.pages
            game_nav.append({esc(site.summary.title): site.nav})
        for page in generated:
            if files.get_file_from_path(page.src) is not None:
                files.remove(files.get_file_from_path(page.src))  # type: ignore[arg-type]
            files.append(File.generated(config, page.src, content=page.content))
            if page.source:
                self.sources[page.src] = page.source
            if page.src.endswith(".md"):
                self.titles[page.src] = page.title
        for asset in sorted(ASSETS.iterdir()):
            if asset.is_file():
                files.append(File.generated(config, f"assets/nomic/{asset.name}", abs_src_path=str(asset)))
        if files.get_file_from_path("index.md") is None:
            files.append(File.generated(config, "index.md", content=DEFAULT_HOME))
        config.nav = self._nav(files, game_nav)
        return files

    def _nav(self, files: Files, game_nav: list[Any]) -> list[Any]:
        """Home, each game, then the hand-written docs and each module's docs (docs/modules/*.md)."""
        ours = {p.src for s in self.sites for p in s.pages} | set(self.sources)
        written = sorted(f.src_uri for f in files.documentation_pages()
                         if f.src_uri not in ours and not f.src_uri.startswith("games/") and f.src_uri != "index.md")
        modules = [s for s in written if s.startswith("modules/")]
        others = [s for s in written if not s.startswith("modules/")]
        nav: list[Any] = [{"Home": "index.md"}, {"Games": game_nav}] if len(game_nav) > 1 else \
            [{"Home": "index.md"}, *game_nav]
        if others:
            nav.append({"How it works": others})
        if modules:
            nav.append({"Modules": modules})
        return nav

    def on_nav(self, nav: Any, *, config: MkDocsConfig, files: Files) -> Any:
        """A game's page kept out of the navigation sits under its game's section (``navigation.place_unlisted``)."""
        return place_unlisted(nav, files)

    def on_page_markdown(self, markdown: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        raw = self.titles.get(page.file.src_uri)
        if raw is not None:
            # Material writes <title>{{ page.title | striptags }}</title>, and striptags undoes escaping;
            # a title in page.meta is written as it is, so the escaped title goes there
            page.meta["title"] = esc(raw)
        if GAMES_MARKER in markdown:
            table = render_games_table([s.summary for s in self.sites], page.file.src_uri)
            markdown = markdown.replace(GAMES_MARKER, table)
        if raw is not None:  # a page the plugin drew: its whole blocks of HTML skip Markdown (markup.HtmlStash)
            if self.config.pass_html:
                markdown, blocks = self.stash.set_aside(markdown)
                if blocks:
                    self.blocks[page.file.src_uri] = blocks
            else:
                markdown = unmark(markdown)
        return markdown

    @event_priority(100)  # before any other plugin reads the page's HTML
    def on_page_content(self, html: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        blocks = self.blocks.pop(page.file.src_uri, None)
        if not blocks:
            return html
        if page.present_anchor_ids is not None:  # for MkDocs' check of links to anchors
            page.present_anchor_ids |= self.stash.anchors(blocks)
        return self.stash.put_back(html, blocks)

    def on_page_context(self, context: dict[str, Any], *, page: Page, config: MkDocsConfig, nav: Any) -> dict:
        repo = repository_url(self.config.repo_url)
        source = self.sources.get(page.file.src_uri) or (
            f"{Path(config.docs_dir).resolve().relative_to(self.root).as_posix()}/{page.file.src_uri}"
            if Path(config.docs_dir).resolve().is_relative_to(self.root) else "")
        page.edit_url = edit_url(repo, self.config.branch, source)
        if page.file.src_uri in self.titles and not any(item.children for item in page.toc.items) \
                and len(page.toc.items) <= 1:
            # a drawn page with no heading under its title (a roster, a list): Material would keep an empty
            # column for the table of contents; hidden, the page's wide tables get that room
            page.meta["hide"] = [*page.meta.get("hide", []), "toc"]
        context["nomic_source"] = source
        return context

    @event_priority(-100)  # after the search plugin has written its index
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        # every game has a "Proposals" and a "History", and a player may play in two games:
        # each game page's search result says its game (searchindex.py)
        games = {f"games/{s.summary.name}/": s.summary.title for s in self.sites}
        name_games_in_file(Path(config.site_dir) / "search" / "search_index.json", games)

    def on_serve(self, server: Any, *, config: MkDocsConfig, builder: Any) -> Any:
        server.watch(str(self.root / self.config.content))
        return server
