"""Safe text for the wiki: escaping what players typed, and rule Markdown without raw HTML.

Everything on the wiki that a player typed (names, titles, proposal text, flavour
notes) goes through ``esc`` (inside HTML) or ``md_text`` (inside Markdown: a
heading, a table cell; the game modules' pages use the same function,
``validators.games._markup.md``, which writes Markdown's syntax as character
references as well as HTML's).
Rule text is Markdown, rendered here by ``RuleMarkdown``: raw HTML is shown as
text, links may only use http, https, mailto or in-page targets (as a browser
reads them: ``javascript&#58;`` is ``javascript:``), images are replaced by their
alt text (the wiki fetches nothing from elsewhere), and glossary terms and
"Rule 1.5"-style references become links.
"""

from __future__ import annotations

import html
import re
import secrets
import xml.etree.ElementTree as etree
from collections.abc import Iterable, Mapping

import markdown
from markdown.treeprocessors import Treeprocessor

from validators.games._markup import HTML_CLOSE, HTML_OPEN, md
from validators.games._markup import cap as cap  # a keyword as a title, as the games' own pages write it
from validators.games._markup import raw_html as raw_html  # the wiki's renderers mark their blocks with it

SAFE_SCHEMES = ("http://", "https://", "mailto:")
_URL_IGNORED = re.compile(r"[\x00-\x20\x7f]+")  # what a browser drops from a URL (or strips from its ends)
_SLUG = re.compile(r"[^a-z0-9]+")
_CSS_COLOUR = re.compile(r"^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,20})$")


def esc(value: object) -> str:
    """Any value as HTML text (quotes too, so it is safe inside attributes)."""
    return html.escape("" if value is None else str(value), quote=True)


def md_text(value: object) -> str:
    """A player's text inside Markdown (a heading, a link text, a table cell): one line, no HTML, no Markdown
    syntax (each character either would read written as a character reference)."""
    return md(value)


_MARKED = re.compile(re.escape(HTML_OPEN) + r"\n(.*?)\n" + re.escape(HTML_CLOSE), re.S)
_BLANK_LINE = re.compile(r"\n[ \t]*\n")  # what follows a block's end tag when a blank line comes next
_REST_BLANK = re.compile(r"\s*\Z")  # nothing but whitespace to the end of the page
_SPACES_LINE = re.compile(r"(?<=\n) +\n")
# a start tag, and an id or name in it (the HTML drawn here quotes attributes with ", and writes a " inside a value
# or a text as &quot;, so every match is an attribute)
_START_TAG = re.compile(r'<([a-zA-Z][a-zA-Z0-9-]*)((?:\s[^<>]*)?\s(?:id|name)="[^<>]*)>')  # those with either
_ID_OR_NAME = re.compile(r'\s(id|name)="([^"]*)"')
_MARKS = f"(?:{re.escape(HTML_OPEN)}|{re.escape(HTML_CLOSE)})"
_MARK_LINE = re.compile(rf"^[ ]*{_MARKS}[ ]*(?:\n|\Z)", re.M)
_MARK = re.compile(_MARKS)


def _normalised(block: str) -> str:
    """A block as Markdown reads it (preprocessors.NormalizeWhitespace, which runs before its HTML is read):
    no STX or ETX, every line end a newline, tabs expanded (to 4), lines of spaces empty."""
    if not any(c in block for c in "\t\r\x02\x03") and " \n" not in block:
        return block
    block = block.replace("\x02", "").replace("\x03", "").replace("\r\n", "\n").replace("\r", "\n").expandtabs(4)
    return _SPACES_LINE.sub("\n", "\n" + block + "\n")[1:-1]


def unmark(markdown_text: str) -> str:
    """A page as plain Markdown: the marks of its whole blocks of HTML (``raw_html``) removed, the HTML kept
    (a mark on a line of its own goes with its line)."""
    return _MARK.sub("", _MARK_LINE.sub("", markdown_text))


class HtmlStash:
    """Hands the blocks of HTML a page draws whole (``raw_html``) to the page as they are.

    Python-Markdown reads every block of raw HTML with Python's ``HTMLParser`` to find where it ends, then
    writes it out unchanged; for a large game's history (megabytes of HTML) that reading is most of the
    page's Markdown time. ``set_aside`` replaces each marked block with a paragraph holding a token, so
    Markdown reads only the rest of the page; ``put_back`` replaces each token's paragraph with its block,
    which is what Markdown would have written there (``tests/test_wiki_stash.py`` builds the wiki both ways
    and compares every page). A block that is not one of its own to Markdown (no blank line before or after
    it, a mark not on a line of its own) loses its marks and is left to Markdown.

    One difference is kept on purpose: Markdown's fence extension reads a line of a block that starts with
    three backticks (a player's note, say) as the start of a code block, inside the raw HTML; set aside, the
    block shows that line as it was typed.
    """

    def __init__(self) -> None:
        # letters and digits only, so that Markdown writes a token's paragraph as <p>token</p>; new for each
        # build, so that no text can carry one
        self.token = "nomichtml" + secrets.token_hex(8)
        # a token Markdown did not leave as a paragraph of its own (a mark in the wrong place) still gets its block
        self._paragraph = re.compile(f"(?:<p>)?{self.token}x([0-9]+)(?:</p>)?")

    def set_aside(self, markdown_text: str) -> tuple[str, list[str]]:
        blocks: list[str] = []

        def aside(m: re.Match[str]) -> str:
            text, start, end = m.string, m.start(), m.end()
            # only a block Markdown reads as one of its own: after a blank line or at the page's start, before a
            # blank line or at its end; any other is left to Markdown (unmarked below)
            at_end = _REST_BLANK.match(text, end) is not None
            if not ((start == 0 or text.endswith("\n\n", 0, start)) and (at_end or _BLANK_LINE.match(text, end))):
                return m.group(0)
            block = _normalised(m.group(1))
            # Markdown keeps a block's end of line when a blank line follows it (htmlparser.HTMLExtractor), and
            # strips the end of the page
            blocks.append(block if at_end else block + "\n")
            return f"{self.token}x{len(blocks) - 1}"

        return unmark(_MARKED.sub(aside, markdown_text)), blocks

    @staticmethod
    def anchors(blocks: list[str]) -> set[str]:
        """The anchors (``id``, and ``name`` on ``<a>``) in the blocks set aside. MkDocs finds a page's anchors
        for its link validation by reading the raw HTML Markdown was given; these it was not given."""
        found = set()
        for block in blocks:
            for tag in _START_TAG.finditer(block):
                for attr in _ID_OR_NAME.finditer(tag.group(2)):
                    if attr.group(1) == "id" or tag.group(1).lower() == "a":
                        found.add(html.unescape(attr.group(2)))
        return found

    def put_back(self, html_text: str, blocks: list[str]) -> str:
        if not blocks:
            return html_text
        return self._paragraph.sub(lambda m: blocks[int(m.group(1))], html_text)


def slug(value: str) -> str:
    """A URL- and id-safe slug: 'Mr. Banana' -> 'mr-banana'."""
    s = _SLUG.sub("-", str(value).lower()).strip("-")
    return s or "x"


def css_colour(value: object) -> str | None:
    """A colour a game gave (a name or #hex) if it is safe to put in a style attribute, else None."""
    text = str(value or "").strip()
    return text if _CSS_COLOUR.match(text) else None


def safe_href(href: str) -> bool:
    """Whether a link's target is one the wiki allows, read as the browser will read it: the attribute's
    character references decoded (``javascript&#58;x``, ``&#106;avascript:x``), tabs, newlines and controls
    dropped (``java&#9;script:x``)."""
    h = _URL_IGNORED.sub("", html.unescape(href))
    if not h:
        return False
    low = h.lower()
    if low.startswith(SAFE_SCHEMES):
        return True
    # relative links and anchors; anything with a scheme (javascript:, data:) is refused
    return ":" not in low.split("/", 1)[0].split("#", 1)[0].split("?", 1)[0]


# ---------------------------------------------------------------- rule Markdown

_SKIP = {"a", "code", "pre", "h1", "h2", "h3", "h4", "h5", "h6"}


class _Linker(Treeprocessor):
    """Makes links of glossary terms and rule references in text; cleans links and images."""

    def __init__(self, md: markdown.Markdown, owner: RuleMarkdown):
        super().__init__(md)
        self.owner = owner

    def run(self, root: etree.Element) -> None:
        self._clean(root)
        if self.owner.pattern is not None:
            self._walk(root)

    def _clean(self, root: etree.Element) -> None:
        for parent in list(root.iter()):
            for i, child in enumerate(list(parent)):
                if child.tag == "img":
                    span = etree.Element("span")
                    span.text = child.get("alt", "")
                    span.tail = child.tail
                    parent.remove(child)
                    parent.insert(i, span)
                elif child.tag == "a":
                    href = child.get("href", "")
                    if not safe_href(href):
                        child.attrib.pop("href", None)
                    elif href.lower().startswith(("http://", "https://")):
                        child.set("rel", "nofollow noopener")

    def _walk(self, el: etree.Element) -> None:
        if el.tag in _SKIP:
            return
        children = list(el)
        if el.text:
            new = self._split(el.text)
            if new is not None:
                el.text = new[0]
                for j, node in enumerate(new[1]):
                    el.insert(j, node)
        for child in children:
            self._walk(child)
            if child.tail:
                new = self._split(child.tail)
                if new is not None:
                    child.tail = new[0]
                    idx = list(el).index(child)
                    for j, node in enumerate(new[1]):
                        el.insert(idx + 1 + j, node)

    def _split(self, text: str) -> tuple[str, list[etree.Element]] | None:
        pattern = self.owner.pattern
        assert pattern is not None
        pieces = list(pattern.finditer(text))
        if not pieces:
            return None
        head = text[:pieces[0].start()]
        nodes: list[etree.Element] = []
        for k, m in enumerate(pieces):
            target = self.owner.target(m)
            end = pieces[k + 1].start() if k + 1 < len(pieces) else len(text)
            if target is None:
                # not a link after all: keep the text where it belongs
                if nodes:
                    nodes[-1].tail = (nodes[-1].tail or "") + text[m.start():end]
                else:
                    head += text[m.start():end]
                continue
            a = etree.Element("a", {"href": target[0], "class": target[1]})
            a.text = m.group(0)
            a.tail = text[m.end():end]
            nodes.append(a)
        if not nodes:
            return None
        return head, nodes


class RuleMarkdown:
    """Renders rule text as HTML: Markdown without raw HTML, with glossary terms and rule numbers linked.

    ``glossary`` maps a term ("Quorum") to the anchor of its definition; ``numbers``
    maps a rule number ("1.5") to its anchor. ``skip`` is the anchor of the rule being
    rendered, so a definition does not link to itself.
    """

    def __init__(self, glossary: Mapping[str, str] | None = None, numbers: Mapping[str, str] | None = None):
        self.glossary = dict(glossary or {})
        self.numbers = dict(numbers or {})
        self.skip: str | None = None
        alts = []
        if self.glossary:
            terms = sorted(self.glossary, key=len, reverse=True)
            alts.append(r"(?P<term>\b(?:" + "|".join(re.escape(t) for t in terms) + r")(?:s|es)?\b)")
        if self.numbers:
            alts.append(r"(?P<ref>\b[Rr]ule\s+(?P<num>[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)\b)")
        self.pattern = re.compile("|".join(alts)) if alts else None
        self.md = markdown.Markdown(extensions=["tables", "fenced_code", "sane_lists"], output_format="html")
        # No raw HTML: both the block and the inline HTML processors are removed, so "<b>" stays text.
        self.md.preprocessors.deregister("html_block")
        self.md.inlinePatterns.deregister("html")
        self.md.treeprocessors.register(_Linker(self.md, self), "nomic-linker", 1)

    def target(self, m: re.Match[str]) -> tuple[str, str] | None:
        groups = m.groupdict()
        if groups.get("term"):
            word = groups["term"]
            anchor = self.glossary.get(word)
            if anchor is None:
                for suffix in ("es", "s"):
                    if word.endswith(suffix) and word[: -len(suffix)] in self.glossary:
                        anchor = self.glossary[word[: -len(suffix)]]
                        break
            if anchor is None or anchor == self.skip:
                return None
            return "#" + anchor, "nomic-term"
        if groups.get("ref"):
            anchor = self.numbers.get(m.group("num"))
            if anchor is None or anchor == self.skip:
                return None
            return "#" + anchor, "nomic-ruleref"
        return None

    def render(self, text: str, skip: str | None = None) -> str:
        self.skip = skip
        self.md.reset()
        return self.md.convert(text or "")


def rule_html(text: str, glossary: Mapping[str, str] | None = None, numbers: Mapping[str, str] | None = None,
              skip: str | None = None) -> str:
    """One rule's text as safe HTML (a convenience around RuleMarkdown)."""
    return RuleMarkdown(glossary, numbers).render(text, skip)


_PLAIN: list[RuleMarkdown] = []


def plain_html(text: str) -> str:
    """A player's free text (a proposal's text, a note) as safe HTML: Markdown, no raw HTML, no links made."""
    if not _PLAIN:
        _PLAIN.append(RuleMarkdown())
    return _PLAIN[0].render(text)


def join_html(parts: Iterable[str]) -> str:
    return "\n".join(p for p in parts if p)


def counted(n: int, one: str, many: str | None = None) -> str:
    """A count with its noun in the singular or plural: '1 action', '24 actions' (never 'action(s)')."""
    return f"{n} {one if n == 1 else (many or one + 's')}"
