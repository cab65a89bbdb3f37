"""Where each generated page lives, and links between them.

Generated pages hold HTML (tables, charts), and MkDocs rewrites ``.md`` links only
in Markdown, so links are computed here as final, relative URLs.
"""

from __future__ import annotations

import functools
import posixpath
import re
from dataclasses import dataclass, field
from typing import Iterable

from .markup import slug

# The pages every game gets, by kind: file name under games/<game>/.
PAGES = {
    "home": "index.md",
    "ruleset": "ruleset.md",
    "ruleset-history": "ruleset-history.md",
    "roster": "roster.md",
    "proposals": "proposals.md",
    "history": "history.md",
    "actions": "actions.md",
    "feed": "feed.xml",
}
RESERVED_DIRS = {"players", "history", "assets", "search"}  # folders the wiki itself fills


def player_slugs(names: Iterable[str]) -> dict[str, str]:
    """A distinct slug for each player name ('Mr. X' -> 'mr-x'; a clash gets a number)."""
    out: dict[str, str] = {}
    used: set[str] = set()
    for name in names:
        base = slug(name)
        s, n = base, 2
        while s in used:
            s, n = f"{base}-{n}", n + 1
        used.add(s)
        out[name] = s
    return out


def page_url(src: str, directory_urls: bool = True) -> str:
    """The URL (from the site root) MkDocs gives the page whose source is ``src``."""
    if not src.endswith(".md"):
        return src
    stem = src[:-3]
    if stem == "index" or stem.endswith("/index"):
        return stem[: -len("index")]
    return stem + "/" if directory_urls else stem + ".html"


def relative(from_src: str, to_src: str, anchor: str = "", directory_urls: bool = True) -> str:
    if from_src == to_src:
        return "#" + anchor if anchor else "./"
    rel = _relative_path(from_src, to_src, directory_urls)
    return rel + ("#" + anchor if anchor else "")


@functools.lru_cache(maxsize=1 << 16)  # a history page links 200 actions to the same few pages
def _relative_path(from_src: str, to_src: str, directory_urls: bool) -> str:
    here = page_url(from_src, directory_urls)
    there = page_url(to_src, directory_urls)
    here_dir = here if here.endswith("/") or here == "" else posixpath.dirname(here) + "/"
    rel = posixpath.relpath("/" + there, "/" + here_dir) if there != here_dir.rstrip("/") else "."
    if there.endswith("/") and not rel.endswith("/"):
        rel += "/"
    return rel


@dataclass
class Links:
    """Links from one generated page (``here``) of one game to the others, and to the repository."""

    game: str
    here: str  # source path of the page being drawn, e.g. games/blognomic/roster.md
    players: dict[str, str]  # name -> slug
    directory_urls: bool = True
    repo_url: str = ""  # https://github.com/owner/repo (empty: no links to the repository)
    branch: str = "main"
    history: dict[str, str] = field(default_factory=dict)  # action anchor -> the history page that shows it

    def src(self, kind: str) -> str:
        return f"games/{self.game}/{PAGES[kind]}"

    def page(self, kind: str, anchor: str = "") -> str:
        return relative(self.here, self.src(kind), anchor, self.directory_urls)

    def action(self, anchor: str) -> str:
        """The history entry of one action (the history is split into pages in a large game)."""
        return relative(self.here, self.history.get(anchor, self.src("history")), anchor, self.directory_urls)

    def player_src(self, name: str) -> str:
        return f"games/{self.game}/players/{self.players.get(name) or slug(name)}.md"

    def player(self, name: str) -> str | None:
        if name not in self.players:
            return None
        return relative(self.here, self.player_src(name), "", self.directory_urls)

    def module_src(self, page_slug: str) -> str:
        return f"games/{self.game}/{page_slug}.md"

    def other(self, src: str, anchor: str = "") -> str:
        return relative(self.here, src, anchor, self.directory_urls)

    def rule(self, rule_id: str) -> str:
        return self.page("ruleset", rule_id)

    def blob(self, path: str) -> str:
        """The repository's view of a content file ('' without a repository URL)."""
        if not self.repo_url:
            return ""
        return f"{self.repo_url.rstrip('/')}/blob/{self.branch}/{path}"

    def edit(self, path: str) -> str:
        if not self.repo_url:
            return ""
        return f"{self.repo_url.rstrip('/')}/edit/{self.branch}/{path}"

    def at(self, here: str) -> "Links":
        return Links(self.game, here, self.players, self.directory_urls, self.repo_url, self.branch, self.history)


_PLAIN_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 .-]*")  # a name every module's Markdown writes as it is
# a cell that names one player: alone, after the ifMUD turn page's mark for the active player, or before a remark
# in brackets ("Ada (ascended)")
_NAME_CELL = re.compile(r"(?P<pre>\s*(?:▶ )?)(?P<name>[^()]+?)(?P<post>(?: \(.*\))?\s*)")


def link_player_cells(markdown: str, here: str, links: Links) -> str:
    """A module page's Markdown (``here`` is its source) with each table cell that names a player (``_NAME_CELL``)
    linked to the player's page, as the wiki's own tables link them. A name with characters Markdown would escape
    is left as it is, and so is anything outside a table."""
    names = {n for n in links.players if _PLAIN_NAME.fullmatch(n)}
    if not names:
        return markdown
    folder = posixpath.dirname(here)
    out = []
    for line in markdown.split("\n"):
        if line.startswith("|") and line.rstrip().endswith("|") and not set(line) <= set("|-: "):
            cells = line.split("|")
            for i in range(1, len(cells) - 1):
                m = _NAME_CELL.fullmatch(cells[i])
                if m and m["name"] in names:
                    url = posixpath.relpath(links.player_src(m["name"]), folder)
                    cells[i] = f"{m['pre']}[{m['name']}]({url}){m['post']}"
            line = "|".join(cells)
        out.append(line)
    return "\n".join(out)
