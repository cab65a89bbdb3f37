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


# ---------------------------------------------------------------- the node tree, for the patch writer


class _Mark:
    """A node's place: as much of PyYAML's ``Mark`` as ``yamlio.patch_text`` reads."""

    __slots__ = ("index", "column")

    def __init__(self, index: int, column: int) -> None:
        self.index = index
        self.column = column


def compose(text: str) -> Any:
    """The node tree of a text ``load`` reads (the caller knows it does), as ``yaml.compose`` gives it in what
    ``yamlio.patch_text`` reads: each node's kind, a scalar's text and quoting, a collection's flow style, where
    each node starts and a scalar ends. Scalars are not resolved (PyYAML's tree holds their text too), and a
    collection finds its entries only when asked: the patch writer looks into what changed, and composing
    Cycle 12's 600 KB world with LibYAML took 0.25-0.3 s here, for a change of a few lines.
    ``tests/test_yamlfast.py`` compares the two trees."""
    import yaml

    # as in ``load``, with places: (column, is a dash, key, value, where the row starts, where its value
    # starts: just after the colon for a key without one, where its line starts)
    rows: list[tuple[int, bool, str | None, str | None, int, int, int]] = []
    match = _LINE.fullmatch
    at = 0
    for line in text.split("\n"):
        m = match(line)
        if m is not None:
            indent, dash, key, kv, item = m.groups()
            col = len(indent)
            if dash:
                rows.append((col, True, None, None, at + col, 0, at))
                col += len(dash)
            if key is not None:
                rows.append((col, False, key, kv, at + col, at + (m.start(4) if kv is not None else m.end(3) + 1), at))
            else:
                rows.append((col, False, None, item, at + m.start(5), at + m.start(5), at))
        at += len(line) + 1
    return _Nodes(yaml, rows).block(0)


def _lazy(base: Any, tag: str, fill: str) -> Any:
    """A node class of PyYAML's ``base`` whose ``value`` (its entries) ``_Nodes.<fill>`` makes when first read."""

    class Lazy(base):  # type: ignore[misc,valid-type]
        def __init__(self, nodes: "_Nodes", i: int, col: int, start: _Mark) -> None:  # no super(): see ``value``
            self.tag, self.flow_style, self.start_mark, self.end_mark = tag, False, start, start
            self.nodes, self.first, self.col, self.made = nodes, i, col, None

        @property
        def value(self) -> list:
            if self.made is None:
                self.made = getattr(self.nodes, fill)(self.first, self.col)
            return self.made

    return Lazy


class _Nodes:
    """The nodes of a text's rows, made when the patch writer reads them."""

    _classes: tuple[Any, Any] | None = None  # (Mapping, Sequence), made once: PyYAML is imported by then

    def __init__(self, yaml: Any, rows: list) -> None:
        self.yaml, self.rows = yaml, rows
        if _Nodes._classes is None:
            _Nodes._classes = (_lazy(yaml.MappingNode, "tag:yaml.org,2002:map", "pairs"),
                               _lazy(yaml.SequenceNode, "tag:yaml.org,2002:seq", "items"))
        self.Mapping, self.Sequence = _Nodes._classes

    def scalar(self, raw: str, index: int, line: int) -> Any:
        y = self.yaml
        start, end = _Mark(index, index - line), _Mark(index + len(raw), index - line + len(raw))
        first = raw[:1]
        if first == "'" or first == '"':
            return y.ScalarNode("tag:yaml.org,2002:str", raw[1:-1], start, end, first)
        if raw == "[]":
            return y.SequenceNode("tag:yaml.org,2002:seq", [], start, end, True)
        if raw == "{}":
            return y.MappingNode("tag:yaml.org,2002:map", [], start, end, True)
        return y.ScalarNode("", raw, start, end, None)

    def block(self, i: int) -> Any:
        col, dash, _, _, where, _, line = self.rows[i]
        if dash:
            return self.Sequence(self, i, col, _Mark(where, col))
        return self.Mapping(self, i, col, _Mark(where, col))

    def items(self, i: int, col: int) -> list:
        rows = self.rows
        out = []
        n = len(rows)
        while i < n and rows[i][0] == col and rows[i][1]:
            c, _, key, value, where, _, line = rows[i + 1]
            if key is None:
                out.append(self.scalar(value, where, line))  # type: ignore[arg-type]
                i += 2
            else:
                out.append(self.Mapping(self, i + 1, c, _Mark(where, c)))
                i += 2
                while i < n and rows[i][0] > col:
                    i += 1
        return out

    def pairs(self, i: int, col: int) -> list:
        rows = self.rows
        out: list[tuple[Any, Any]] = []
        n = len(rows)
        while i < n and rows[i][0] == col and not rows[i][1]:
            _, _, key, value, where, value_at, line = rows[i]
            key_node = self.scalar(key, where, line)  # type: ignore[arg-type]
            i += 1
            if value is not None:
                out.append((key_node, self.scalar(value, value_at, line)))
            elif i < n and (rows[i][0] > col or (rows[i][0] == col and rows[i][1])):
                out.append((key_node, self.block(i)))
                if rows[i][0] == col:  # a sequence in the key's own column: its dashes, and what is deeper
                    while i < n and (rows[i][0] > col or (rows[i][0] == col and rows[i][1])):
                        i += 1
                else:
                    while i < n and rows[i][0] > col:
                        i += 1
            else:
                mark = _Mark(value_at, value_at - line)
                out.append((key_node, self.yaml.ScalarNode("tag:yaml.org,2002:null", "", mark, mark, None)))
        return out
