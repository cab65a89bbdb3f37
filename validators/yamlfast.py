"""A quick reader for the small, plain block-style YAML that ``nomic act`` writes (action files).

An audit or a wiki build reads 10,000 action files of a few lines each. LibYAML parses each in C,
but PyYAML then builds a node for every scalar and resolves its tag in Python: 35-110 µs a file here
(``yamlio``'s own node walk included). ``load`` reads the same text with one regular expression match
a line, in about half that, and answers ``None`` whenever the text holds anything beyond the plain
subset below, so that ``yamlio.load`` reads it the full way (and reports any error with its place).
For every text it accepts it gives the very data the full loader gives, types included;
``tests/test_yamlfast.py`` compares the two on every example file and on thousands of altered and
random texts.

The subset: ASCII text of at most ``MAX_CHARS`` characters without tabs, carriage returns, control
characters or document markers; whole-line comments and blank lines; block mappings whose keys are
plain scalars that resolve to text; block sequences (``- value``, ``- key: value``); plain scalars of
common characters (no ``#``, no ``: ``, no flow, anchor or tag indicators), quoted scalars on one line
without escapes, and the empty ``[]`` and ``{}``. A plain scalar's value is the full loader's own
(``plain``, from ``yamlio``, which keeps every rule of types and limits): integers, ``true``/``false``,
``null``/``~``, else text; for a float, or an integer too long, it raises ``Other`` and the file goes
the full way.
"""

from __future__ import annotations

import re
from typing import Any, Callable

MAX_CHARS = 8192  # an action file; a larger text is read this way only when its caller asks (``max_chars``)
MAX_DEPTH = 20

_C = r"[A-Za-z0-9_./()~+$^=<>;,?'\"-]"  # inside a plain scalar: common characters, and ":" or spaces between them
_PLAIN = rf"(?:-(?=[^ ])|[A-Za-z0-9_./(~+$^]){_C}*(?:(?: +:*|:+){_C}+)*"
_SCALAR = rf"(?:{_PLAIN}|'[^'\n]*'|\"[^\"\\\n]*\"|\[\]|\{{\}})"
# one content line: indentation, an optional "- ", then "key:" with an optional value, or a bare value
_LINE = re.compile(rf"( *)(- +)?(?:({_PLAIN}):(?: +({_SCALAR}))?|({_SCALAR})) *")
_SKIP = re.compile(r" *(?:#.*)?")
# refused by the full loader (with its place), or read by it as a document's start or end
_OTHER = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]|^(?:---|\.\.\.)", re.M)
_EMPTY = {"[]": list, "{}": dict}


class Other(Exception):
    """The text is outside the subset: read it the full way."""


def _scalar(text: str, plain: Callable[[str], Any]) -> Any:
    first = text[0]
    if first == "'" or first == '"':
        return text[1:-1]
    if first == "[" or first == "{":
        return _EMPTY[text]()
    return plain(text)


def load(text: str, plain: Callable[[str], Any], max_chars: int = MAX_CHARS, max_line: int | None = None) -> Any:
    """The data of ``text``, or ``None`` when it is outside the subset (``None`` is never a result:
    an empty document is left to the full loader too). ``plain`` gives a plain scalar's value as the
    full loader does, or raises ``Other``. A text over ``max_chars`` characters, or with a line over ``max_line``
    (a string can be no longer than its line), is left to the full loader."""
    if len(text) > max_chars or not text.isascii() or "\t" in text or "\r" in text or _OTHER.search(text):
        return None
    # the content as rows (column, is a dash, key, value); a dash and the content after it are two rows
    rows: list[tuple[int, bool, str | None, str | None]] = []
    match, skip = _LINE.fullmatch, _SKIP.fullmatch
    lines = text.split("\n")
    if max_line is not None and max(map(len, lines)) > max_line:
        return None
    for line in lines:
        m = match(line)
        if m is None:
            if skip(line):
                continue
            return None
        indent, dash, key, kv, item = m.groups()
        col = len(indent)
        if dash:
            rows.append((col, True, None, None))
            col += len(dash)
        if key is not None:
            try:
                if type(plain(key)) is not str:
                    return None  # a key such as true, null or 1: not a string
            except Other:
                return None
            rows.append((col, False, key, kv))
        elif dash:
            rows.append((col, False, None, item))
        else:
            return None  # a bare value outside a sequence: a document that is one scalar, or a continuation
    if not rows:
        return None
    # Each block reads the rows in its own column; the first row it cannot place ends it, and so on
    # outwards. A row left over (a continuation, an indentation that closes nothing) sends the text the
    # full way.
    try:
        data, end = _block(rows, 0, 0, plain)
    except Other:
        return None
    return data if end == len(rows) else None


def _block(rows: list, i: int, depth: int, plain: Callable[[str], Any]) -> tuple[Any, int]:
    if depth > MAX_DEPTH:
        raise Other
    if rows[i][1]:
        return _sequence(rows, i, rows[i][0], depth, plain)
    return _mapping(rows, i, rows[i][0], depth, plain)


def _sequence(rows: list, i: int, col: int, depth: int, plain: Callable[[str], Any]) -> tuple[list, int]:
    out = []
    n = len(rows)
    while i < n and rows[i][0] == col and rows[i][1]:
        c, _, key, value = rows[i + 1]  # what follows the dash on its line
        if key is None:  # "- value"
            out.append(_scalar(value, plain))  # type: ignore[arg-type]
            i += 2
        else:  # "- key: value": a mapping whose keys stand in the column after the dash
            item, i = _mapping(rows, i + 1, c, depth + 1, plain)
            out.append(item)
    return out, i


def _mapping(rows: list, i: int, col: int, depth: int, plain: Callable[[str], Any]) -> tuple[dict, int]:
    out: dict[str, Any] = {}
    n = len(rows)
    while i < n and rows[i][0] == col and not rows[i][1]:
        _, _, key, value = rows[i]
        if key is None or key in out:
            raise Other  # a bare value among keys, or a duplicate key (refused the full way, with its place)
        i += 1
        if value is not None:
            out[key] = _scalar(value, plain)
        elif i < n and (rows[i][0] > col or (rows[i][0] == col and rows[i][1])):
            out[key], i = _block(rows, i, depth + 1, plain)  # the nested block (a sequence may share the key's column)
        else:
            out[key] = None
    return out, i
