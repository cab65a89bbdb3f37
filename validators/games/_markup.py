"""Player text on the wiki's pages: the escaping every game module's ``pages.py`` (and the wiki itself) shares.

A module draws its pages as Markdown, and Markdown reads more than HTML does: in a table cell, a heading,
a list item or a paragraph, ``[x](javascript:alert(1))`` is a link, ``*x*`` emphasis, ``|`` a new column,
``#`` or ``- `` at the start of a line a heading or a list. Escaping HTML is not enough there, so:

- ``md(text)``: a player's text as inline Markdown, one line, with every character that HTML or Markdown
  would read as markup written as a character reference (it shows as typed and changes nothing around it);
- ``esc(text)``: text inside raw HTML (an SVG drawing, an attribute's value), which Markdown leaves alone
  only when the raw HTML is a block of its own: ``html_block`` wraps a drawing in a ``<div>`` for that
  (an ``<svg>`` at the start of a line is *not* a block to Markdown, and the text in it would be read);
- ``raw_html(html)``: any other block of HTML a page draws whole. Both mark the block (``HTML_OPEN`` and
  ``HTML_CLOSE``, each on a line of its own), and the wiki hands a marked block to the page as it is
  instead of having Markdown parse it again: Python-Markdown's reading of raw HTML is its slowest part,
  and a large game's history is megabytes of it (``site_plugins.markup.HtmlStash``; the page is the same).

Nothing here may import the wiki (site_plugins); the wiki imports this.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..engine import Ctx, Module, State

_UNSAFE = re.compile(r"[&<>\"'\\`*_{}\[\]#|~!]")
_REFS = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;"}
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# what makes a block of a line's start: a list item ("- x", "+ x", "1. x"), a rule or a setext underline
# ("---", "==="), a details block ("???")
_LEAD_MARK = re.compile(r"[-+=?](?=[-+=? ]|$)")
_LEAD_NUMBER = re.compile(r"\d+([.)])(?= |$)")


def _ref(char: str) -> str:
    return _REFS.get(char) or f"&#{ord(char)};"


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def md(value: Any) -> str:
    """A player's text as inline Markdown (a table cell, a heading, a link's text, a list item, a line of its own):
    one line, and every character that HTML or Markdown would read as markup written as a character reference."""
    text = _UNSAFE.sub(lambda m: _ref(m.group()), _CONTROL.sub("", " ".join(_text(value).split())))
    number = _LEAD_NUMBER.match(text)
    if number:
        return text[:number.start(1)] + _ref(number.group(1)) + text[number.end(1):]
    if _LEAD_MARK.match(text):
        return _ref(text[0]) + text[1:]
    return text


def esc(value: Any) -> str:
    """Text inside raw HTML (an element's text or an attribute's value), quotes too; None is empty."""
    return html.escape(_CONTROL.sub("", _text(value)), quote=True)


HTML_OPEN, HTML_CLOSE = "<!--nomic:html-->", "<!--/nomic:html-->"


def raw_html(html_text: str) -> str:
    """A block of HTML drawn whole (every player's text in it through ``esc``), marked: put it on a line of its
    own, with blank lines around it. It must be one complete element that Markdown keeps whole (a ``<div>``,
    ``<p>``, ``<ul>``, ``<ol>`` or ``<table>``: its start tag opens the first line, its end tag closes the
    last); blank lines inside it are kept, as Markdown keeps them."""
    return f"{HTML_OPEN}\n{html_text}\n{HTML_CLOSE}"


def cap(word: str) -> str:
    """A keyword as a title or a label: 'players' -> 'Players' (the rest as the game writes it)."""
    return word[:1].upper() + word[1:]


def article(word: str) -> str:
    """The indefinite article before a keyword, by its first letter: 'a' Colonist, 'an' Explorer. An Ascension
    Address may have replaced the word a sentence was written with (seed 001 1.9, seed 003 rule 9)."""
    return "an" if word[:1].casefold() in ("a", "e", "i", "o", "u") else "a"


def in_words(state: State | Ctx, module: Module, keep: Iterable[str] = ()) -> Callable[[str], str]:
    """A module's text in the game's current words: each keyword (``Module.words``) or roster column label
    (``Module.labels``) it is written in that the game now calls otherwise (an Ascension Address replaced it: seed
    001 1.9, seed 003 rule 9) is replaced where it stands whole and in its case, as the Address replaces it in the
    rules (no letter, digit or underscore touching it), with "a" or "an" before it as the new word takes ("a
    Colonist", "an Explorer"); never inside a `code span`, what a player types (a parameter's value that the Address
    leaves as it was). The wiki's Actions page, ``nomic act --list`` and a module's refusals (Quazie's) say its texts
    so.

    Kept as they are, too: each text of ``keep`` (the players' names and the values given, which a refusal quotes),
    and each new word itself, so that words already in the game's terms (a rule's text quoted, a title) are not
    replaced again when a new term holds the old word ("Muffin" to "Muffin Man"); a new term that is another
    keyword's old word (two words swapped) is replaced as that word."""
    replace = {old: state.keyword(key, old) for key, old in module.words.items()}
    try:
        stats = state.doc("roster").get("stats") or {}
    except KeyError:  # a state without a roster (a unit test's)
        stats = {}
    replace |= {old: str((stats.get(key) or {}).get("label") or old) for key, old in module.labels.items()}
    replace = {old: new for old, new in replace.items() if new != old}
    if not replace:
        return lambda text: text
    words = "|".join(re.escape(k) for k in sorted(replace, key=len, reverse=True))
    kept = sorted({k for k in (*keep, *replace.values()) if k and k not in replace}, key=len, reverse=True)
    # a `code span` first, kept as it is: it is what a player types (a parameter, a value of its enum such as
    # quazie.give-role's role `GRAND POOBAH`), which an Address does not rename; then the texts kept whole
    spans = r"`[^`]+`" + "".join(f"|(?<!\\w){re.escape(k)}(?!\\w)" for k in kept)
    pattern = re.compile(f"({spans})|(?:(?<!\\w)([Aa]n?) )?(?<!\\w)({words})(?!\\w)")

    def one(m: re.Match[str]) -> str:
        if m.group(1):
            return m.group(1)
        new = replace[m.group(3)]
        if not m.group(2):
            return new
        a = article(new)
        return f"{a.capitalize() if m.group(2)[0] == 'A' else a} {new}"

    return lambda text: pattern.sub(one, text)


def legible_width(width: float) -> int:
    """How narrow a drawing ``width`` units wide may be shown: the wiki shrinks a drawing to its column, which
    takes a wide one's labels down to a few pixels; at three quarters of its size they stay readable, and the
    drawing scrolls sideways in its box (``html_block``) instead. Used as the drawing's CSS ``min-width``."""
    return round(width * 0.75)


def html_block(inner: str, cls: str = "", style: str = "overflow-x:auto") -> str:
    """Raw HTML (a drawing) as a block of its own, which Markdown leaves alone: put it on a line of its own,
    with blank lines around it."""
    attrs = (f' class="{esc(cls)}"' if cls else "") + (f' style="{esc(style)}"' if style else "")
    return raw_html(f"<div{attrs}>{inner}</div>")
