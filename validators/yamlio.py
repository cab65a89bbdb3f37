"""Reading and writing content files.

Two loaders, one meaning:

* ``load`` reads with LibYAML (PyYAML's C parser) into plain Python data. It is
  what every check uses, because YAML parsing is most of a check's time.
* ``RoundTrip`` reads with ruamel.yaml's round-trip loader, keeps comments,
  key order and quoting, and writes a file back with only the changed values
  changed. ``nomic act`` and ``nomic fmt`` use it.

Both resolve plain scalars by the same small YAML 1.2 core schema (decimal
integers, floats, true/false, null; no timestamps, no octal, no ``yes``/``no``),
so a file means the same thing to both. Every error names the file, line,
column and field, and a user's mistake never surfaces as a traceback.

Refused on purpose: duplicate keys, aliases and anchors (the "billion laughs"
bomb lives in aliases, and no content file needs them), tabs in indentation,
bytes that are not UTF-8, NUL characters, files, strings, integers and nesting
over the limits below.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import io
import marshal
import os
import re
import tempfile
from pathlib import Path
from typing import Any, Iterable, Sequence

import yaml
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.resolver import VersionedResolver

from . import parsecache, yamlfast
from .problems import BAD_INPUT, BadInput, Problem, format_path, unreadable

MAX_FILE_BYTES = 4 * 1024 * 1024
MAX_STRING = 64 * 1024
MAX_DEPTH = 40
MAX_INT_DIGITS = 15  # any game value fits well within 10**15
MAX_LINE = 16 * 1024

# The YAML 1.2 core schema, narrowed: decimal integers only, no timestamps.
_BOOL = re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$")
_INT = re.compile(r"^[-+]?(?:0|[1-9][0-9]*)$")
_FLOAT = re.compile(
    r"""^(?:[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)(?:[eE][-+]?[0-9]+)?|[-+]?[0-9]+[eE][-+]?[0-9]+
    |[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$""",
    re.X,
)
_NULL = re.compile(r"^(?:~|null|Null|NULL|)$")
_RESOLVERS = [
    ("tag:yaml.org,2002:bool", _BOOL, list("tTfF")),
    ("tag:yaml.org,2002:int", _INT, list("-+0123456789")),
    ("tag:yaml.org,2002:float", _FLOAT, list("-+0123456789.")),
    ("tag:yaml.org,2002:null", _NULL, ["~", "n", "N", ""]),
]


class _Resolver(yaml.resolver.Resolver):
    yaml_implicit_resolvers: dict = {}

    def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
        # A plain scalar's tag depends on its text alone (there are no path resolvers): remembered,
        # since a log repeats the same keys and values ten thousand times.
        if kind is yaml.ScalarNode:
            if not implicit[0]:
                return _STR if implicit[1] else yaml.resolver.Resolver.resolve(self, kind, value, implicit)
            tag = _TAGS.get(value)
            if tag is None:
                tag = yaml.resolver.Resolver.resolve(self, kind, value, implicit)
                if len(_TAGS) < 50_000:
                    _TAGS[value] = tag
            return tag
        # a collection's tag is the default one (PyYAML's answer, with no path resolvers), without the call
        return _MAP if kind is yaml.MappingNode else _SEQ


_TAGS: dict[str, str] = {}
assert not _Resolver.yaml_path_resolvers  # the cache above relies on it


for _tag, _rx, _first in _RESOLVERS:
    _Resolver.add_implicit_resolver(_tag, _rx, _first)


class _Constructor(yaml.constructor.SafeConstructor):
    """SafeConstructor that refuses aliases and duplicate keys."""

    def construct_object(self, node: Any, deep: bool = False) -> Any:
        if node in self.constructed_objects or node in self.recursive_objects:
            raise _Refused("aliases and anchors are not allowed in content files", node.start_mark)
        return super().construct_object(node, deep)

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        seen: set = set()
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge" or getattr(key_node, "value", None) == "<<":
                raise _Refused("merge keys (<<) are not allowed in content files", key_node.start_mark)
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
            if key is None:
                raise _Refused("mapping keys must be plain strings or numbers", key_node.start_mark)
            if key in seen:
                raise _Refused(f"duplicate key {key!r}", key_node.start_mark)
            seen.add(key)
        return super().construct_mapping(node, deep)

    def construct_yaml_int(self, node: Any) -> int:
        text = node.value.lstrip("+-")
        if len(text) > MAX_INT_DIGITS:
            raise _Refused(f"integer with {len(text)} digits is too large (at most {MAX_INT_DIGITS})", node.start_mark)
        return int(node.value)

    def construct_undefined(self, node: Any) -> Any:
        raise _Refused(f"tag {node.tag!r} is not allowed in content files", node.start_mark)


_Constructor.add_constructor("tag:yaml.org,2002:int", _Constructor.construct_yaml_int)
for _t in ("tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:binary", "tag:yaml.org,2002:set",
           "tag:yaml.org,2002:omap", "tag:yaml.org,2002:pairs"):
    _Constructor.add_constructor(_t, _Constructor.construct_undefined)
_Constructor.add_constructor(None, _Constructor.construct_undefined)

try:  # LibYAML's parser; ``yaml.CParser`` is not exported at the top level, only from yaml.cyaml
    from yaml.cyaml import CParser as _CParser

    _Parser: Any = _CParser
except ImportError:  # pragma: no cover - LibYAML missing; slower but equal
    _Parser = None


if _Parser is not None:

    class _Loader(_CParser, _Constructor, _Resolver):  # type: ignore[misc]
        def __init__(self, stream: str) -> None:
            _CParser.__init__(self, stream)
            _Constructor.__init__(self)
            _Resolver.__init__(self)

else:  # pragma: no cover

    class _Loader(yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser,  # type: ignore[no-redef]
                  yaml.composer.Composer, _Constructor, _Resolver):
        def __init__(self, stream: str) -> None:
            yaml.reader.Reader.__init__(self, stream)
            yaml.scanner.Scanner.__init__(self)
            yaml.parser.Parser.__init__(self)
            yaml.composer.Composer.__init__(self)
            _Constructor.__init__(self)
            _Resolver.__init__(self)


_STR = "tag:yaml.org,2002:str"
_INT_TAG = "tag:yaml.org,2002:int"
_NULL_TAG = "tag:yaml.org,2002:null"
_BOOL_TAG = "tag:yaml.org,2002:bool"
_FLOAT_TAG = "tag:yaml.org,2002:float"
_MAP = "tag:yaml.org,2002:map"
_SEQ = "tag:yaml.org,2002:seq"
_MERGE = "tag:yaml.org,2002:merge"


class _Convert:
    """Nodes to plain data in one recursive pass: what ``_Constructor`` does, without its generic machinery.

    PyYAML's constructor builds every mapping through generators and bookkeeping meant for
    recursive structures, which content files may not have; walking the node tree directly
    is about twice as fast and refuses exactly the same things with the same messages.
    Scalars other than plain strings, integers and nulls go through ``_Constructor``.

    On its way it notes (``odd``) whether the data holds anything ``_check_limits`` refuses: a string
    over ``MAX_STRING`` or with a NUL, a number that is infinite or NaN, a key that is not a string,
    nesting deeper than ``MAX_DEPTH``, or a value built by the generic constructor. Only then does that
    walk, which names the place, run again over the data: for a large file it was a second pass as
    long as this one.
    """

    def __init__(self, constructor: "_Constructor", anchors: bool):
        self.c = constructor
        self.seen: set[int] | None = set() if anchors else None  # an alias is a node met twice
        self.odd = False
        self.depth = 0

    def __call__(self, node: Any) -> Any:
        seen = self.seen
        if seen is not None:
            if id(node) in seen:
                raise _Refused("aliases and anchors are not allowed in content files", node.start_mark)
            seen.add(id(node))
        cls = node.__class__
        tag = node.tag
        if cls is yaml.ScalarNode:
            if tag == _STR:
                value = node.value
                if len(value) > MAX_STRING or "\x00" in value:
                    self.odd = True
                return value
            if tag == _INT_TAG:
                return self.c.construct_yaml_int(node)
            if tag == _NULL_TAG:
                return None
            if tag == _BOOL_TAG:
                return self.c.construct_yaml_bool(node)
            if tag == _FLOAT_TAG:
                number = self.c.construct_yaml_float(node)
                if number != number or number in _INFINITE:
                    self.odd = True
                return number
            self.odd = True
            return self.c.construct_object(node, deep=True)
        depth = self.depth
        if depth > MAX_DEPTH:
            self.odd = True
        if cls is yaml.MappingNode and tag == _MAP:
            pairs = node.value
            keys: set = set()
            for key_node, _ in pairs:
                if key_node.tag == _MERGE or getattr(key_node, "value", None) == "<<":
                    raise _Refused("merge keys (<<) are not allowed in content files", key_node.start_mark)
                if key_node.__class__ is not yaml.ScalarNode:
                    raise _Refused("mapping keys must be plain strings or numbers", key_node.start_mark)
                if key_node.tag != _STR:
                    self.odd = True  # a number as a key
                if key_node.value in keys:
                    raise _Refused(f"duplicate key {key_node.value!r}", key_node.start_mark)
                keys.add(key_node.value)
            out = {}
            self.depth = depth + 1
            for key_node, value_node in pairs:
                out[self(key_node)] = self(value_node)
            self.depth = depth
            return out
        if cls is yaml.SequenceNode and tag == _SEQ:
            self.depth = depth + 1
            out_list = [self(x) for x in node.value]
            self.depth = depth
            return out_list
        self.odd = True
        return self.c.construct_object(node, deep=True)  # an explicit tag: refused or built as before


_INFINITE = (float("inf"), float("-inf"))


class _Refused(Exception):
    def __init__(self, message: str, mark: Any):
        super().__init__(message)
        self.message = message
        self.mark = mark


# ---------------------------------------------------------------- reading


def read_text(path: str | Path, display: str | None = None, data: bytes | None = None) -> str:
    """A content file's text, refusing what no content file may hold."""
    name = display or str(path)
    if data is None:
        p = Path(path)
        if p.is_symlink():
            raise BadInput(Problem("content files may not be symbolic links", name, kind=BAD_INPUT))
        try:
            size = p.stat().st_size
            if size > MAX_FILE_BYTES:
                raise BadInput(Problem(f"file is {size} bytes; the limit is {MAX_FILE_BYTES}", name, kind=BAD_INPUT))
            data = p.read_bytes()
        except OSError as e:
            raise BadInput(Problem(unreadable(e), name, kind=BAD_INPUT)) from None
    if len(data) > MAX_FILE_BYTES:
        raise BadInput(Problem(f"file is {len(data)} bytes; the limit is {MAX_FILE_BYTES}", name, kind=BAD_INPUT))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        col = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        raise BadInput(Problem(f"bytes that are not UTF-8 (byte 0x{data[e.start]:02x})", name, line, col,
                               kind=BAD_INPUT)) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\x00" in text:
        line, col = _line_col(text, text.index("\x00"))
        raise BadInput(Problem("NUL character", name, line, col, kind=BAD_INPUT))
    return text


def _line_col(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    col = index - (text.rfind("\n", 0, index) + 1) + 1
    return line, col


_TAB_INDENT = re.compile(r"^[ ]*\t", re.M)
_BRACKET = re.compile(r"[\[\]{}]")


def _prescan(text: str, name: str) -> None:
    m = _TAB_INDENT.search(text) if "\t" in text else None  # a substring search first: most files hold no tab
    if m:
        line, col = _line_col(text, m.end() - 1)
        raise BadInput(Problem("tab in indentation; indent with spaces", name, line, col, kind=BAD_INPUT))
    # Flow collections are the only way to nest deeply in a small file; bound them before parsing.
    if text.count("[") + text.count("{") > MAX_DEPTH:
        depth = 0
        for m in _BRACKET.finditer(text):  # only the brackets are visited, not every character
            if m.group() in "[{":
                depth += 1
                if depth > MAX_DEPTH:
                    line, col = _line_col(text, m.start())
                    raise BadInput(Problem(f"nested deeper than {MAX_DEPTH} levels", name, line, col,
                                           kind=BAD_INPUT))
            else:
                depth = max(0, depth - 1)


# Block nesting costs a column a level ("- - - - x", or indentation). LibYAML's composer recurses in C and
# overflows the stack (a crash, not an exception) past some tens of thousands of levels, so a file whose
# lines start that deep has its depth counted from the parser's events (which use no recursion) first.
_BLOCK_PREFIX = re.compile(r"^[ ]*(?:[-?:][ ]+)*", re.M)


_MAYBE_DEEP = re.compile(r"^[ ?:-]{%d}" % (4 * MAX_DEPTH + 1), re.M)  # a line that could start that deep


def _block_depth(text: str, name: str) -> None:
    if not _MAYBE_DEEP.search(text):  # one search in C; the prefixes are measured only when it finds one
        return
    if max((m.end() - m.start() for m in _BLOCK_PREFIX.finditer(text)), default=0) <= 4 * MAX_DEPTH:
        return
    depth = 0
    try:
        for event in yaml.parse(text, Loader=_ComposeLoader):
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    raise BadInput(Problem(f"nested deeper than {MAX_DEPTH} levels", name,
                                           event.start_mark.line + 1, event.start_mark.column + 1, kind=BAD_INPUT))
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    except yaml.YAMLError:
        return  # load() reports it with its place


def _refuse_tags(text: str, name: str, line_offset: int) -> None:
    """Content files hold plain data: an explicit tag (``!!float 3``, ``!!str 4``, ``!thing``) is refused
    with its place, even one PyYAML would construct, so a value's type shows in how it is written."""
    try:
        for event in yaml.parse(text, Loader=_ComposeLoader):
            tag = getattr(event, "tag", None)
            if tag is not None:
                mark = event.start_mark
                shown = "!!" + tag[len("tag:yaml.org,2002:"):] if tag.startswith("tag:yaml.org,2002:") else tag
                raise BadInput(Problem(f"tag {shown!r} is not allowed in content files (write the plain value)",
                                       name, mark.line + 1 + line_offset, mark.column + 1, kind=BAD_INPUT))
    except yaml.YAMLError:
        return  # the load below reports it with its place


def _plain_value(text: str) -> Any:
    """A plain scalar's value as the full loader gives it, for ``yamlfast``; ``yamlfast.Other`` for a
    float or a too long integer, which go the full way (the float's construction, the integer's refusal)."""
    if text:
        first = text[0]
        if first not in _RESOLVED_FIRST:  # no implicit resolver starts with it: text, as the resolver says
            return text
        if first in _DIGITS and text.isdigit() and text.isascii() and (first != "0" or len(text) == 1):
            if len(text) <= MAX_INT_DIGITS:  # a decimal integer, as _INT reads it
                return int(text)
            raise yamlfast.Other
    tag = _TAGS.get(text)
    if tag is None:
        tag = _PLAIN_TAGS.resolve(yaml.ScalarNode, text, (True, False))
        if len(_TAGS) < 50_000:
            _TAGS[text] = tag
    if tag == _STR:
        return text
    if tag == _INT_TAG and len(text.lstrip("+-")) <= MAX_INT_DIGITS:
        return int(text)
    if tag == _NULL_TAG:
        return None
    if tag == _BOOL_TAG:
        return text.lower() == "true"  # as construct_yaml_bool, for the only spellings _BOOL accepts
    raise yamlfast.Other


_PLAIN_TAGS = _Resolver()
# the first characters of the implicit resolvers above (bool, int, float, null): a plain scalar starting with any
# other is text without a regular expression tried (the resolver's own test, by its first character)
_RESOLVED_FIRST = frozenset(c for _, _, firsts in _RESOLVERS for c in firsts if c)
_DIGITS = frozenset("0123456789")


def load(text: str, name: str, *, line_offset: int = 0) -> Any:
    """Plain data from YAML text, or BadInput naming the place."""
    if len(text) <= yamlfast.MAX_CHARS:  # an action file: read in one pass of line matches when it is plain
        data = yamlfast.load(text, _plain_value)
        if data is not None:
            return data
    if len(text) >= parsecache.MIN_CHARS:  # a large file may have been parsed by an earlier command
        folder = parsecache.directory()
        if folder is not None:
            k = parsecache.key(text)
            data = parsecache.get(folder, k)
            if data is parsecache.MISSING:
                data = _load_large(text, name, line_offset)
                parsecache.put(folder, k, data)
            return data
    if len(text) > yamlfast.MAX_CHARS:
        return _load_large(text, name, line_offset)
    return _load(text, name, line_offset)


def _load_large(text: str, name: str, line_offset: int) -> Any:
    """A gamestate document as the round trip writes it is plain block YAML too: the quick reader takes it in
    about half the time (the nomsters of the Cycle 12 benchmark, 210 KB: 29 ms against 78), and gives the very
    data the full loader gives. Its strings are one line each, so a line longer than ``MAX_STRING`` (which the full
    loader refuses as a string) sends the text the full way, as anything else outside its subset does. (Under
    ``keeping_nodes`` the text is marked as read this way, and a rewrite composes it with ``yamlfast.compose``.)"""
    collecting = gc.isenabled()
    gc.disable()  # as in ``_load``: the data holds no cycles, and collections of a large heap are long
    try:
        data = yamlfast.load(text, _plain_value, MAX_FILE_BYTES, MAX_STRING)
    finally:
        if collecting:
            gc.enable()
    if data is None:
        return _load(text, name, line_offset)
    if _kept is not None and len(text) >= PATCH_MIN_CHARS:
        _kept[text] = _QUICK  # a rewrite composes it the quick way (``yamlfast.compose``)
    return data


_CONFLICT = re.compile(r"^(<{7}|>{7})(?: |$)", re.M)


# What the parser was reading when it stopped, for the openings whose closing it looks for on later lines: an
# unclosed quote or bracket is noticed only where the next one is, or at the file's end, far below the mistake.
_UNCLOSED = {
    "while scanning a quoted scalar": "the quoted text that starts here is not closed",
    "while parsing a flow sequence": "the list ('[') that starts here is not closed",
    "while parsing a flow mapping": "the mapping ('{') that starts here is not closed",
}


def _open_bracket(text: str, line: int, column: int) -> tuple[int, int, str] | None:
    """(line, column, '[' or '{'), 0-based, of the innermost bracket still open at (line, column) of ``text``,
    outside quotes and comments; None when every bracket before it is closed."""
    stack: list[tuple[int, int, str]] = []
    for i, row in enumerate(text.split("\n")[:line + 1]):
        quote = ""
        for j, ch in enumerate(row if i < line else row[:column]):
            if quote:
                if ch == quote:
                    quote = ""
            elif ch in "'\"":
                quote = ch
            elif ch == "#" and (j == 0 or row[j - 1] in " \t"):
                break
            elif ch in "[{":
                stack.append((i, j, ch))
            elif ch in "]}" and stack:
                stack.pop()
    return stack[-1] if stack else None


def _syntax_problem(e: yaml.MarkedYAMLError, name: str, line_offset: int, text: str = "") -> Problem:
    """A syntax error, placed where the parser noticed it, or, for an opening left unclosed, where it opens."""
    opened, found = e.context_mark, e.problem_mark
    unclosed = _UNCLOSED.get(str(e.context))
    if str(e.context) == "while parsing a flow node" and found is not None and text:
        # a bracket left open at the end of its line (``stats: {``) and never closed: the parser names the node
        # it wanted, at the file's end, not the bracket; the bracket is found by scanning back to it
        bracket = _open_bracket(text, found.line, found.column)
        if bracket is not None and bracket[0] < found.line:
            what = "the list ('[')" if bracket[2] == "[" else "the mapping ('{')"
            return Problem(f"not valid YAML: {what} that starts here is not closed ({e.problem}, at line "
                           f"{found.line + 1 + line_offset}, column {found.column + 1})", name,
                           bracket[0] + 1 + line_offset, bracket[1] + 1, kind=BAD_INPUT)
    if unclosed and opened is not None and found is not None and opened.line < found.line:
        return Problem(f"not valid YAML: {unclosed} ({e.problem}, at line {found.line + 1 + line_offset}, "
                       f"column {found.column + 1})", name, opened.line + 1 + line_offset, opened.column + 1,
                       kind=BAD_INPUT)
    mark = found or opened
    msg = " ".join(str(x) for x in (e.context, e.problem) if x) or "not valid YAML"
    return Problem(f"not valid YAML: {msg}", name, (mark.line + 1 + line_offset) if mark else 0,
                   (mark.column + 1) if mark else 0, kind=BAD_INPUT)


def _load(text: str, name: str, line_offset: int) -> Any:
    _prescan(text, name)
    _block_depth(text, name)
    if "!" in text:  # a substring search first: a tag needs one
        _refuse_tags(text, name, line_offset)
    loader = _Loader(text)
    # The collector is paused while the node tree and the data are built: they hold no cycles, and a
    # large file's tens of thousands of new containers otherwise set off collection after collection,
    # each scanning all that was built so far (two thirds of the time of a 600 KB file).
    collecting = gc.isenabled()
    gc.disable()
    try:
        node = loader.get_single_node()
        convert = _Convert(loader, "&" in text)
        data = convert(node) if node is not None else None
        if _kept is not None and node is not None and len(text) >= PATCH_MIN_CHARS:
            _kept[text] = node
    except _Refused as e:
        raise BadInput(Problem(e.message, name, e.mark.line + 1 + line_offset, e.mark.column + 1,
                               kind=BAD_INPUT)) from None
    except yaml.MarkedYAMLError as e:
        conflict = _CONFLICT.search(text)
        if conflict:  # what git left of a merge or rebase: YAML's complaint would be about a line after it
            line = text.count("\n", 0, conflict.start()) + 1 + line_offset
            if "gamestate" in str(name).replace("\\", "/").split("/"):
                # the gamestate is what the log gives: once both sides' actions are in the log, neither side's file
                # is right, and keeping one would only be refused as not matching the log (docs/playing.md)
                how = ("neither side is right, as the gamestate must be what both sides' actions give: undo the "
                       "merge (git merge --abort, or git rebase --abort) and take your action again on the new base "
                       "with nomic act")
            else:
                how = "keep the side you mean, delete the markers, then run nomic again"
            raise BadInput(Problem("a merge conflict is left in the file (the lines <<<<<<<, ======= and >>>>>>>): "
                                   + how, name, line, 1, kind=BAD_INPUT)) from None
        raise BadInput(_syntax_problem(e, name, line_offset, text)) from None
    except yaml.YAMLError as e:
        raise BadInput(Problem(f"not valid YAML: {e}", name, kind=BAD_INPUT)) from None
    except (RecursionError, MemoryError):
        raise BadInput(Problem(f"nested deeper than {MAX_DEPTH} levels", name, kind=BAD_INPUT)) from None
    finally:
        loader.dispose()
        if collecting:
            gc.enable()
    if convert.odd:  # only then is there something to refuse, and this walk says where
        _check_limits(data, text, name, line_offset)
    return data


def _check_limits(data: Any, text: str, name: str, line_offset: int) -> None:
    stack: list[tuple[Any, int, tuple]] = [(data, 0, ())]
    while stack:
        node, depth, path = stack.pop()
        if depth > MAX_DEPTH:
            raise _limit(f"nested deeper than {MAX_DEPTH} levels", text, name, path, line_offset)
        if isinstance(node, dict):
            for k, v in node.items():
                if not isinstance(k, str):
                    raise _limit(f"key {k!r} must be a string", text, name, path, line_offset)
                if isinstance(v, (dict, list)):
                    stack.append((v, depth + 1, path + (k,)))
                elif isinstance(v, str) and (len(v) > MAX_STRING or "\x00" in v):
                    raise _limit(_bad_string(v), text, name, path + (k,), line_offset)
                elif isinstance(v, float) and (v != v or v in (float("inf"), float("-inf"))):
                    raise _limit("infinite or NaN numbers are not allowed", text, name, path + (k,), line_offset)
        elif isinstance(node, list):
            for i, v in enumerate(node):
                if isinstance(v, (dict, list)):
                    stack.append((v, depth + 1, path + (i,)))
                elif isinstance(v, str) and (len(v) > MAX_STRING or "\x00" in v):
                    raise _limit(_bad_string(v), text, name, path + (i,), line_offset)
                elif isinstance(v, float) and (v != v or v in (float("inf"), float("-inf"))):
                    raise _limit("infinite or NaN numbers are not allowed", text, name, path + (i,), line_offset)


def _bad_string(v: str) -> str:
    if "\x00" in v:
        return "NUL character in text"
    return f"text of {len(v)} characters; the limit is {MAX_STRING}"


def _limit(message: str, text: str, name: str, path: tuple, line_offset: int) -> BadInput:
    line, col = locate(text, path)
    return BadInput(Problem(message, name, line + line_offset if line else 0, col, format_path(path),
                            kind=BAD_INPUT))


def load_file(path: str | Path, display: str | None = None) -> Any:
    name = display or str(path)
    return load(read_text(path, name), name)


# ---------------------------------------------------------------- positions


@functools.lru_cache(maxsize=2)  # a big file's tree is large: keep only the one being reported on
def _composed(text: str) -> Any:
    """The node tree of ``text`` (False if it does not parse), composed once for all the places asked of it:
    a check reports many differences in one file, and composing a large file for each was quadratic."""
    try:
        return yaml.compose(text, Loader=_ComposeLoader)
    except yaml.YAMLError:
        return False


def locate(text: str, path: Sequence[object]) -> tuple[int, int]:
    """1-based (line, col) of the node at ``path`` in YAML ``text``.

    The deepest existing node along the path is given when the path does not
    exist in the text (a value the file lacks is reported where it belongs).
    """
    node = _composed(text)
    if node is False:
        return (0, 0)
    if node is None:
        return (1, 1)
    best = node.start_mark
    for part in path:
        found = None
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                if isinstance(k, yaml.ScalarNode) and k.value == str(part):
                    found = v
                    best = k.start_mark if not isinstance(v, yaml.ScalarNode) else v.start_mark
                    break
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and 0 <= part < len(node.value):
            found = node.value[part]
            best = found.start_mark
        if found is None:
            break
        node = found
    return best.line + 1, best.column + 1


if _Parser is not None:

    class _ComposeLoader(_CParser, _Resolver):  # type: ignore[misc]
        def __init__(self, stream: str) -> None:
            _CParser.__init__(self, stream)
            _Resolver.__init__(self)

else:  # pragma: no cover
    _ComposeLoader = yaml.SafeLoader  # type: ignore[misc,assignment]


# ---------------------------------------------------------------- round trip


class _RTResolver(VersionedResolver):
    """ruamel's resolver with the same narrowed schema as ``load``."""

    @property
    def versioned_resolver(self) -> Any:
        table = getattr(self, "_narrowed", None)
        if table is None:
            table = {}
            for tag, rx, first in _RESOLVERS:
                for ch in first:
                    table.setdefault(ch, []).append((tag, rx))
            self._narrowed = table
        return table


def _yaml() -> YAML:
    y = YAML(typ="rt")
    y.Resolver = _RTResolver
    y.preserve_quotes = True
    y.indent(mapping=2, sequence=4, offset=2)
    y.width = 4096
    y.allow_duplicate_keys = False
    return y


def rt_load(text: str, name: str) -> Any:
    """A round-trip tree. Call only on text that ``load`` accepted."""
    _ = load(text, name)  # refuse what the checker refuses, with the same message
    try:
        return _yaml().load(text)
    except Exception as e:  # pragma: no cover - ``load`` accepted it, so this is a bug
        raise BadInput(Problem(f"cannot be rewritten: {e}", name, kind=BAD_INPUT)) from None


def rt_dump(tree: Any) -> str:
    out = io.StringIO()
    _yaml().dump(tree, out)
    return out.getvalue()


def to_plain(node: Any) -> Any:
    if isinstance(node, dict):
        return {str(k): to_plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [to_plain(v) for v in node]
    if isinstance(node, bool) or node is None:
        return node
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    if isinstance(node, str):
        return str(node)
    return node


def _fresh(value: Any) -> Any:
    """Plain data as round-trip nodes, in block style."""
    if isinstance(value, dict):
        m = CommentedMap()
        for k, v in value.items():
            m[k] = _fresh(v)
        return m
    if isinstance(value, list):
        s = CommentedSeq()
        for v in value:
            s.append(_fresh(v))
        return s
    return value


def _same_scalar(old: Any, new: Any) -> bool:
    if isinstance(old, (dict, list)) or isinstance(new, (dict, list)):
        return False
    return type(to_plain(old)) is type(new) and to_plain(old) == new


def sync_into(tree: Any, new: Any) -> Any:
    """Make round-trip ``tree`` equal ``new``, touching only what differs.

    Returns the node to store (``tree`` itself when it could be updated in
    place). Comments, key order and quoting of untouched values survive.
    """
    if isinstance(tree, dict) and isinstance(new, dict):
        for key in [k for k in tree if k not in new]:
            del tree[key]
        for key, value in new.items():
            if key in tree:
                old = tree[key]
                if _same_scalar(old, value):
                    continue
                tree[key] = sync_into(old, value)
            else:
                tree[key] = _fresh(value)
        return tree
    if isinstance(tree, list) and isinstance(new, list):
        _sync_list(tree, new)
        return tree
    if _same_scalar(tree, new):
        return tree
    if isinstance(tree, str) and isinstance(new, str) and hasattr(tree, "style"):
        return type(tree)(new) if _safe_style(type(tree), new) else new
    return _fresh(new)


def _safe_style(cls: type, value: str) -> bool:
    # keep a quoted or block style for a changed string, unless the new value cannot use it
    try:
        cls(value)
    except Exception:
        return False
    return True


def _sync_list(tree: list, new: list) -> None:
    old_plain = [to_plain(x) for x in tree]
    # Compared with their types (``same_data``): an item whose only change is 1 to true or 3 to 3.0 is
    # equal under ``==`` and would otherwise keep its old text.
    # Appends and removals at the end are the common case; keep the head in place.
    i = 0
    n = min(len(tree), len(new))
    # detect a single deletion in the middle so later items keep their comments
    if len(tree) == len(new) + 1:
        for j in range(len(new)):
            if not same_data(old_plain[j], new[j]):
                if same_data(old_plain[j + 1:], new[j:]):
                    del tree[j]
                    return
                break
        else:
            del tree[len(new)]
            return
    if len(new) == len(tree) + 1:
        for j in range(len(tree)):
            if not same_data(old_plain[j], new[j]):
                if same_data(old_plain[j:], new[j + 1:]):
                    tree.insert(j, _fresh(new[j]))
                    return
                break
    while i < n:
        if not same_data(old_plain[i], new[i]):
            tree[i] = sync_into(tree[i], new[i])
        i += 1
    while len(tree) > len(new):
        del tree[len(tree) - 1]
    for value in new[len(tree):]:
        tree.append(_fresh(value))


# ---------------------------------------------------------------- writing


def write_atomic(path: str | Path, text: str, *, sync: bool = True) -> None:
    """Replace ``path`` with ``text`` so a reader sees the old file or the new one.

    ``sync``: the text is on disk before the rename (a game file); without it only a reader's view is whole
    (a cache entry, which a crash may lose)."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix="." + p.name + ".", suffix=".tmp", dir=p.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            if sync:
                f.flush()
                os.fsync(f.fileno())
        os.replace(tmp, p)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def dump_new(data: Any, header: Iterable[str] = ()) -> str:
    """Text for a new file in the canonical layout, header lines as comments."""
    text = rt_dump(_fresh(data))
    head = "".join(f"# {h}\n" for h in header)
    return head + text


def canonical(text: str, name: str) -> str:
    """The canonical layout of a YAML text: what ``nomic fmt`` writes."""
    return rt_dump(rt_load(text, name))


# ---------------------------------------------------------------- patching a large file's text

PATCH_MIN_CHARS = 32 * 1024  # below this the round trip is quick enough, and it is the reference


class _NoPatch(Exception):
    """The change is not one the text patcher handles; the round trip does it."""


MISSING_OLD = object()  # patch_text's ``old`` not given

_kept: dict[str, Any] | None = None  # a large text's node tree, from its load, while ``keeping_nodes`` is on
_QUICK = object()  # in ``_kept``: the text was read by the quick reader, whose ``compose`` gives its tree


@contextlib.contextmanager
def keeping_nodes() -> Iterable[None]:
    """Within it, the full loader keeps each large file's node tree, and ``patch_text`` of that same text uses
    it instead of composing the text again (for a file outside the quick reader's subset, which ``load`` reads
    with the full loader: the proposals of a game, say). The two trees are the
    same: one parser and one resolver build both. A large text the quick reader read is marked as such, and
    ``patch_text`` composes it the quick way. Meant for one command: all is dropped at the end."""
    global _kept
    outer = _kept
    _kept = {} if outer is None else outer
    try:
        yield
    finally:
        _kept = outer


def patch_text(old_text: str, new: Any, name: str = "", old: Any = MISSING_OLD) -> str | None:
    """``old_text`` changed to hold ``new``, touching only the lines of what changed; None if it cannot.

    What ``sync_into`` and the round trip do, at the speed of LibYAML: the old text is composed
    with positions, the old and new data are compared, and each change becomes an edit of the
    text: a changed entry or item is rewritten (rendered by ruamel.yaml, so it looks as the round
    trip would write it), a new key or item is added after the last one, a removed key is cut.
    Anything else (flow collections that grow, deletions inside lists, comments in the way)
    gives None, and the caller uses the round trip. The result is parsed again and must give
    exactly ``new``, so a patch can never change what a file means.

    ``old``, when given, is what ``old_text`` was read as (``load`` of the same text: the caller's state
    before the action), which saves converting the composed nodes again; it is only ever compared with
    ``new``, and the check above still reads the patched text.
    """
    global _kept
    collecting = gc.isenabled()
    gc.disable()  # as in ``load``: the node tree holds no cycles
    try:
        root = _kept.get(old_text) if _kept else None
        quick = root is _QUICK
        if quick:
            root = yamlfast.compose(old_text)  # its scalars hold no tags: ``old`` is read, not converted
        elif root is None:
            root = yaml.compose(old_text, Loader=_ComposeLoader)
        if root is None:
            return None
        if old is MISSING_OLD:
            old = load(old_text, name or "old") if quick else _Convert(_Loader(""), False)(root)
        edits: list[tuple[int, int, str]] = []
        _patch_node(old_text, root, old, new, edits)
    except (_NoPatch, yaml.YAMLError, _Refused, RecursionError):
        return None
    finally:
        if collecting:
            gc.enable()
    if not edits:
        return old_text
    edits.sort(key=lambda e: (e[0], e[1]))
    out = []
    pos = 0
    for start, end, text in edits:
        if start < pos:
            return None  # overlapping edits: not expected, never risked
        out.append(old_text[pos:start])
        out.append(text)
        pos = end
    out.append(old_text[pos:])
    patched = "".join(out)
    del root, edits, out  # the node tree is not needed to read the patched text back
    kept, _kept = _kept, None  # the patched text's own tree is not wanted
    try:
        again = load(patched, name or "patched")
    except BadInput:
        return None
    finally:
        _kept = kept
    return patched if same_data(again, new) else None


def same_data(a: Any, b: Any) -> bool:
    """Equal values of equal types (key order aside: new keys are added at the end, as sync_into does)."""
    if a is b:
        return True
    try:
        # In C first: marshal writes each value's type (True, 1 and 1.0 differ) and, in version 2, no
        # references, so equal bytes mean equal values of equal types in the same order. Anything else
        # (another key order, a value marshal refuses, a real difference) is walked below.
        if marshal.dumps(a, 2) == marshal.dumps(b, 2):
            return True
    except ValueError:
        pass
    return _same_walk(a, b)


def _same_walk(a: Any, b: Any) -> bool:
    if type(a) is not type(b) and not (isinstance(a, dict) and isinstance(b, dict)) and not (
            isinstance(a, list) and isinstance(b, list)):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same_walk(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same_walk(x, y) for x, y in zip(a, b))
    return a == b


def _line_start(text: str, index: int) -> int:
    return text.rfind("\n", 0, index) + 1


def _line_end(text: str, index: int) -> int:
    """The index just after the end of the line holding ``index - 1`` (the node's last character)."""
    if index > 0 and text[index - 1] == "\n":
        return index
    nl = text.find("\n", index)
    if nl < 0:
        raise _NoPatch()
    if text[index:nl].strip():
        raise _NoPatch()  # a comment or more after the value on its line
    return nl + 1


def _last_end(node: Any) -> int:
    """Where the text of ``node`` ends (a block collection's own end mark lies after following lines)."""
    if isinstance(node, yaml.ScalarNode) or getattr(node, "flow_style", False):
        return node.end_mark.index
    if isinstance(node, yaml.MappingNode):
        if not node.value:
            return node.end_mark.index
        return _last_end(node.value[-1][1])
    if isinstance(node, yaml.SequenceNode):
        if not node.value:
            return node.end_mark.index
        return _last_end(node.value[-1])
    raise _NoPatch()


def _render(value: Any, column: int, item: bool = False) -> str:
    """A mapping entry ``{key: value}`` (or a list item) as the round trip writes it, at ``column``."""
    text = rt_dump(_fresh(value))
    if item:  # a top-level list is written "  - x": its items start at column 4
        shift = column - 4
    else:
        shift = column
    if shift < 0:
        raise _NoPatch()
    pad = " " * shift
    return "".join(pad + line if line.strip() else line for line in text.splitlines(True))


def _is_block(node: Any) -> bool:
    return isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and not node.flow_style and bool(node.value)


def _patch_node(text: str, node: Any, old: Any, new: Any, edits: list) -> None:
    if isinstance(old, dict) and isinstance(new, dict) and isinstance(node, yaml.MappingNode) and _is_block(node):
        _patch_map(text, node, old, new, edits)
    elif isinstance(old, list) and isinstance(new, list) and isinstance(node, yaml.SequenceNode) and _is_block(node):
        _patch_seq(text, node, old, new, edits)
    elif not same_data(old, new):
        raise _NoPatch()  # the document itself changes kind: the round trip writes it


def _patch_map(text: str, node: Any, old: dict, new: dict, edits: list, *, item: bool = False) -> None:
    """A block mapping's changed entries. ``item``: the mapping is a list item ("- id: 3"), whose first
    entry shares the dash's line and stays as it is (the caller checked it is unchanged)."""
    column = node.value[0][0].start_mark.column
    for n, (key_node, value_node) in enumerate(node.value):
        key = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
        if key not in old:
            raise _NoPatch()
        if item and n == 0:
            continue
        start = _line_start(text, key_node.start_mark.index)
        if text[start:key_node.start_mark.index].strip():
            raise _NoPatch()  # the key does not start its line (the first key of a list item)
        if key not in new:
            edits.append((start, _line_end(text, _last_end(value_node)), ""))
            continue
        if same_data(old[key], new[key]):
            continue
        if _is_block(value_node) and type(old[key]) is type(new[key]) and isinstance(new[key], (dict, list)) \
                and new[key]:
            _patch_node(text, value_node, old[key], new[key], edits)
            continue
        edits.append((start, _line_end(text, _last_end(value_node)),
                      _render({key: _styled(value_node, new[key])}, column)))
    added = [k for k in new if k not in old]
    if added:
        at = _line_end(text, _last_end(node))
        edits.append((at, at, _render({k: new[k] for k in added}, column)))


def _styled(node: Any, value: Any) -> Any:
    """A changed string keeps its quoting or block style, as ``sync_into`` keeps it."""
    if not isinstance(value, str) or not isinstance(node, yaml.ScalarNode) or not node.style:
        return value
    from ruamel.yaml.scalarstring import (
        DoubleQuotedScalarString,
        FoldedScalarString,
        LiteralScalarString,
        SingleQuotedScalarString,
    )

    cls = {"'": SingleQuotedScalarString, '"': DoubleQuotedScalarString, "|": LiteralScalarString,
           ">": FoldedScalarString}.get(node.style)
    if cls is None or not _safe_style(cls, value):
        return value
    return cls(value)


def _patch_seq(text: str, node: Any, old: list, new: list, edits: list) -> None:
    if len(new) < len(old):
        raise _NoPatch()
    items = node.value
    column = items[0].start_mark.column
    for i, item_node in enumerate(items):
        if same_data(old[i], new[i]):
            continue
        if isinstance(item_node, yaml.MappingNode) and _is_block(item_node) and isinstance(new[i], dict) and new[i]:
            first_key = item_node.value[0][0]
            if first_key.value in new[i] and list(new[i])[:1] == [first_key.value] and same_data(
                    old[i][first_key.value], new[i][first_key.value]):
                _patch_map(text, item_node, old[i], new[i], edits, item=True)
                continue
        start = _line_start(text, item_node.start_mark.index)
        edits.append((start, _line_end(text, _last_end(item_node)),
                      _render([_styled(item_node, new[i])], column, item=True)))
    if len(new) > len(old):
        at = _line_end(text, _last_end(node))
        edits.append((at, at, _render(new[len(old):], column, item=True)))
