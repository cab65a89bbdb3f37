"""Pages rendered as the wiki renders them: Python-Markdown with mkdocs.yml's ``markdown_extensions``, then read back.

For the hostile-text tests of the modules' pages and the wiki's own: ``render`` draws a page's Markdown as HTML,
``assert_inert`` finds no script, no event handler and no ``javascript:`` target in it, and ``shape`` sums up its
structure (every element, every table's rows and columns), so that a page drawn with hostile text can be compared
with the same page drawn with plain words: text that Markdown read as markup changes the shape.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import markdown
import yaml

ROOT = Path(__file__).resolve().parents[1]

# In a table cell, a heading, a list item, a line of its own, a drawing: every way Markdown or HTML could read it.
HOSTILE = ("- <img src=x onerror=alert(1)> [x](javascript:alert(2)) *y* _z_ | # `c` ~~s~~ !!! note "
           "{: onclick=\"alert(3)\"} <script>alert(4)</script> [r][1] &#106;")
PLAIN = "Plain words"


class _Loader(yaml.SafeLoader):
    pass


_Loader.add_multi_constructor("", lambda loader, suffix, node: None)  # mkdocs.yml's !!python/name and !ENV


@lru_cache(maxsize=1)
def _extensions() -> tuple[list[str], dict[str, dict[str, Any]]]:
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_Loader)
    names, configs = [], {}
    for ext in config["markdown_extensions"]:
        if isinstance(ext, dict):
            (name, options), = ext.items()
            names.append(name)
            configs[name] = options or {}
        else:
            names.append(ext)
    return names, configs


def render(text: str, pass_html: bool = True) -> str:
    """As the plugin renders a page it drew: its marked blocks of HTML set aside, the rest through Markdown
    (``pass_html=False``: the whole page through Markdown, as the plugin's option of that name does)."""
    from site_plugins.markup import HtmlStash, unmark

    names, configs = _extensions()
    if not pass_html:
        return markdown.markdown(unmark(text), extensions=names, extension_configs=configs)
    stash = HtmlStash()
    rest, blocks = stash.set_aside(text)
    return stash.put_back(markdown.markdown(rest, extensions=names, extension_configs=configs), blocks)


_DANGEROUS_TAGS = {"script", "img", "iframe", "object", "embed", "style", "link", "meta", "base", "form"}
_URL_ATTRS = {"href", "src", "xlink:href", "action", "formaction", "data", "poster", "background"}


@dataclass
class Shape:
    tags: Counter = field(default_factory=Counter)
    tables: list[list[int]] = field(default_factory=list)  # each table: the number of cells in each row
    problems: list[str] = field(default_factory=list)


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.shape = Shape()
        self.open: list[list[int]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.shape.tags[tag] += 1
        if tag in _DANGEROUS_TAGS:
            self.shape.problems.append(f"a <{tag}> element")
        for name, value in attrs:
            if name.startswith("on"):
                self.shape.problems.append(f"an {name} attribute on <{tag}>")
            # attribute values come decoded; a browser also drops tabs, newlines and leading controls
            plain = re.sub(r"[\x00-\x20]+", "", value or "").lower()
            if name in _URL_ATTRS and plain.startswith(("javascript:", "vbscript:", "data:")):
                self.shape.problems.append(f"<{tag} {name}={value!r}>")
        if tag == "table":
            self.open.append([])
        elif tag == "tr" and self.open:
            self.open[-1].append(0)
        elif tag in ("td", "th") and self.open and self.open[-1]:
            self.open[-1][-1] += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "table" and self.open:
            self.shape.tables.append(self.open.pop())


def shape(html: str) -> Shape:
    reader = _Reader()
    reader.feed(html)
    reader.close()
    return reader.shape


def assert_inert(html: str, where: str = "") -> Shape:
    """No script, handler or script URL; every table with as many cells in each row as in its heading."""
    s = shape(html)
    assert not s.problems, f"{where}: {s.problems}"
    for rows in s.tables:
        assert len(set(rows)) <= 1, f"{where}: a table's rows have {rows} cells"
    return s


def assert_same_shape(plain_markdown: str, hostile_markdown: str, where: str = "") -> None:
    """A page drawn with hostile text: inert, and shaped as the same page drawn with plain words."""
    plain = shape(render(plain_markdown))
    hostile = assert_inert(render(hostile_markdown), where)
    assert_inert(render(hostile_markdown, pass_html=False), f"{where} (pass_html: false)")
    assert hostile.tables == plain.tables, f"{where}: tables {hostile.tables} instead of {plain.tables}"
    extra = (hostile.tags - plain.tags) + (plain.tags - hostile.tags)
    assert hostile.tags == plain.tags, f"{where}: elements differ: {dict(extra)}"


class _Headings(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.depth = 0  # inside a heading: the text is kept, but not a permalink's

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if re.fullmatch(r"h[1-6]", tag):
            self.found.append("")
            self.depth = 1
        elif self.depth and tag == "a" and ("class", "headerlink") in attrs:
            self.depth = 2

    def handle_endtag(self, tag: str) -> None:
        if re.fullmatch(r"h[1-6]", tag):
            self.depth = 0
        elif tag == "a" and self.depth == 2:
            self.depth = 1

    def handle_data(self, data: str) -> None:
        if self.depth == 1:
            self.found[-1] += data


def headings(html: str) -> list[str]:
    """The text of every heading, as a reader sees it (without the permalink)."""
    reader = _Headings()
    reader.feed(html)
    reader.close()
    return [" ".join(h.split()) for h in reader.found]
