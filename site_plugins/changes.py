"""What an action changed, in words and as readable diffs.

``describe`` turns the difference of two states into short sentences
("roster › Emeka › idle: false → true"); list items are named by their
``name`` or ``id`` rather than their position. ``text_diff`` draws a rule's old
and new text line by line, with the changed words marked.
"""

from __future__ import annotations

import difflib
import re
from datetime import datetime
from itertools import compress, count
from operator import is_, is_not
from typing import Any, Callable, Iterator, NamedTuple

from validators.engine import Rule, State
from validators.games._timefmt import day, when
from validators.judge import MISSING, diff
from validators.timeutil import format_time

from .markup import esc

HIDDEN_DOCS = {"ledger"}  # the engine's bookkeeping: clocks, hashes
MAX_LINES = 12
# a time as the state keeps it, alone or inside a larger value (in JSON, with its quotes); then a day alone
# (Quazie's tag days, 2026-11-05), but not one that is part of a word, a path or a file name
_STAMP_TEXT = r"\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]00:?00)"
_DATE_TEXT = r"\d{4}-\d\d-\d\d"
_STAMP_IN = re.compile(f'"({_STAMP_TEXT})"|({_STAMP_TEXT})|"({_DATE_TEXT})"|'
                       f'(?<![\\w./-])({_DATE_TEXT})(?![\\w/-]|\\.\\w)')


def words(value: Any, field: Callable[[Any], str] = str) -> str:
    """A stored value as a reader reads it: no quotes around text, yes and no for true and false, "none" for
    nothing or an empty list or record; a record in braces (``{task: hunt, at: 16 Nov 2026 12:00 UTC}``), a list in
    brackets, each field named by ``field`` (as the file names it; an outcome's words give it spaces)."""
    if isinstance(value, str):
        return value
    if value is None or value == [] or value == {}:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, datetime):
        return format_time(value)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{field(k)}: {words(v, field)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(words(x, field) for x in value) + "]"
    return str(value)


def _text(value: Any) -> str:
    return " ".join(words(value).split())


def short(value: Any, limit: int = 60) -> str:
    if value is MISSING:
        return "nothing"
    return cut_text(_text(value), limit)  # never inside a stamp or a day


def time_html(stamp: str, shown: str | None = None) -> str:
    """A time in a sentence: as the wiki writes times (4 Nov 2026 11:00 UTC), its exact stamp kept in the
    ``<time>`` element (its ``datetime``, and its ``title``, shown on hover)."""
    return f'<time datetime="{esc(stamp)}" title="{esc(stamp)}">{esc(when(stamp) if shown is None else shown)}</time>'


Pieces = list[tuple[str, str | None]]  # (the text shown, its HTML when it is a time)


def time_pieces(text: str, *, keep: bool = False) -> Pieces:
    """Plain ``text`` in pieces: each time in it (a value, or a field of a record written whole) as the wiki writes
    times (``time_html``; a JSON string's quotes go with it), a day alone as the wiki writes days (``day``: 5 Nov
    2026), the rest as it is. A stamp or a day of an impossible date is left as it is. With ``keep`` (plain text
    such as the Atom feed), each time and day is shown as ``text`` writes it, but still as a piece of its own, which
    ``cut_pieces`` never cuts."""
    pieces: Pieces = []
    pos = 0
    for m in _STAMP_IN.finditer(text):
        stamp = m.group(1) or m.group(2)
        exact = stamp or m.group(3) or m.group(4)
        shown = when(stamp) if stamp else day(exact)
        if shown == exact:
            continue
        if keep:
            pieces += [(text[pos:m.start()], None), (m.group(0), esc(m.group(0)))]
        else:
            pieces += [(text[pos:m.start()], None), (shown, time_html(exact, shown))]
        pos = m.end()
    pieces.append((text[pos:], None))
    return pieces


def cut_pieces(pieces: Pieces, limit: int | None) -> Pieces:
    """``pieces`` cut with "…" past ``limit`` shown characters, never inside a time: one that would be cut is left
    out whole."""
    if limit is None or sum(len(s) for s, _ in pieces) <= limit:
        return pieces
    room, kept = limit - 1, []
    for s, h in pieces:
        if len(s) > room:
            if h is None:
                kept.append((s[:room], None))
            break
        kept.append((s, h))
        room -= len(s)
    return kept + [("…", None)]


def cut_text(text: str, limit: int, near: int = 20) -> str:
    """Plain ``text`` cut with "…" past ``limit`` characters, to be escaped after (never an escaped text cut, which
    can fall inside "&amp;"): before a stamp or a day, never inside one (``time_pieces``), and, when the cut falls
    inside a word, at the last space within ``near`` characters before it, if there is one."""
    if len(text) <= limit:
        return text
    kept = pieces_text(cut_pieces(time_pieces(text, keep=True), limit))[:-1]  # a prefix of text, less its "…"
    if kept and not kept[-1].isspace() and not text[len(kept)].isspace():
        space = max(kept.rfind(c) for c in " \t\n")
        if space >= max(1, len(kept) - near):
            kept = kept[:space]
    return kept.rstrip() + "…"


def pieces_html(pieces: Pieces) -> str:
    return "".join(esc(s) if h is None else h for s, h in pieces)


def pieces_text(pieces: Pieces) -> str:
    """``pieces`` as the plain text they show."""
    return "".join(s for s, _ in pieces)


def times_html(text: str, limit: int | None = None) -> str:
    """Plain ``text`` as HTML, each time and day in it written as the wiki writes them (``time_pieces``); past
    ``limit`` shown characters it is cut with "…", never inside a time."""
    return pieces_html(cut_pieces(time_pieces(text), limit))


class By(NamedTuple):
    """A record in a list of named records found by its name (``field``: one of ``_NAMES``), not by its position:
    where it is in the list before and after (None on the side that lacks it)."""

    field: str
    value: Any
    before: int | None
    after: int | None


_NAMES = ("name", "id", "player", "monkey")  # what names a record in a list, in this order


def _label(node: Any, key: Any) -> tuple[str | None, Any]:
    """How to call ``node[key]`` in a sentence, and the child node; no name when ``node`` has no such child (an
    item past the end of a list)."""
    if isinstance(node, list) and isinstance(key, int):
        if not 0 <= key < len(node):
            return None, None
        item = node[key]
        if isinstance(item, dict):
            if "name" in item:
                return str(item["name"]), item
            if "id" in item:
                return f"#{item['id']}", item
            for field in _NAMES[2:]:  # a record of one player's (Cycle 12's sheets, Monkey's Dance sections)
                if isinstance(item.get(field), str):
                    return item[field], item
        return f"item {key + 1}", item
    if isinstance(node, dict):
        return str(key), node.get(key)
    return str(key), None


def path_words(doc_before: Any, doc_after: Any, path: tuple) -> str:
    """``path`` as a reader names it: each list item by its record's name, id or player, taken from the side that
    has it (a record removed is named as it was)."""
    parts = []
    a, b = doc_before, doc_after
    for key in path:
        if isinstance(key, By):
            parts.append(f"#{key.value}" if key.field == "id" else str(key.value))
            a = a[key.before] if key.before is not None and isinstance(a, list) else None
            b = b[key.after] if key.after is not None and isinstance(b, list) else None
            continue
        la, na = _label(a, key) if a is not None else (None, None)
        lb, nb = _label(b, key) if b is not None else (None, None)
        parts.append(lb or la or str(key))
        a, b = na, nb
    return " › ".join(parts)


def _names(items: list, field: str) -> list | None:
    """Each record's ``field``, or None when some item is no record with one."""
    try:
        return [x[field] for x in items] if all(isinstance(x, dict) and field in x for x in items) else None
    except TypeError:
        return None


def _name_field(a: list, b: list) -> tuple[str, list, list] | None:
    """The field that names the records of two lists of named records (each a mapping with a distinct ``name``,
    ``id``, ``player`` or ``monkey``), with the names in each list's order; None when they are no such lists."""
    for field in _NAMES:
        na, nb = _names(a, field), _names(b, field)
        if na is None or nb is None:
            continue
        try:
            if len(set(na)) == len(na) and len(set(nb)) == len(nb):
                return field, na, nb
        except TypeError:  # a name that is a record or a list: not a name
            pass
        return None
    return None


def _moved(a: list, b: list) -> bool:
    """Whether two lists of records hold some records at other places than before: grown or shrunk elsewhere
    than at the end, or, as long as each other, with more than one place whose record has another name (one is a
    rename in place, read as it is). Found without a look at the records left as they were (in C)."""
    if len(a) != len(b):
        return not all(map(is_, a, b))  # the rest the very same records: grown or shrunk at the end
    changed = [i for i in compress(count(), map(is_not, a, b))]
    if len(changed) < 2:
        return False
    for field in _NAMES:
        if all(isinstance(a[i], dict) and isinstance(b[i], dict) and field in a[i] and field in b[i]
               for i in changed):
            return sum(a[i][field] != b[i][field] for i in changed) > 1
    return False


def _by_name(a: list, b: list, path: tuple) -> Iterator[tuple[tuple, Any, Any]] | None:
    """For ``judge.diff``: the differences of two lists of named records whose records moved (``_moved``), with
    the records paired by name (``By``): those of ``a`` in its order, then those only ``b`` has, then the change
    of order, if any (``_reordered``). None, for differences by place, when the lists are no such lists or their
    records stayed at their places."""
    if not _moved(a, b) or (named := _name_field(a, b)) is None:
        return None
    field, na, nb = named
    at_a, at_b = {k: i for i, k in enumerate(na)}, {k: j for j, k in enumerate(nb)}
    if na[:len(nb)] == nb[:len(na)]:
        return None  # the same names at the same places: by place says it

    def differences() -> Iterator[tuple[tuple, Any, Any]]:
        for k, i in at_a.items():
            j = at_b.get(k)
            if j is None:
                yield path + (By(field, k, i, None),), a[i], MISSING
            else:
                yield from diff(a[i], b[j], path + (By(field, k, i, j),), _by_name)
        for k, j in at_b.items():
            if k not in at_a:
                yield path + (By(field, k, None, j),), MISSING, b[j]
        yield from _reordered(path, [k for k in na if k in at_b], [k for k in nb if k in at_a])

    return differences()


def _reordered(path: tuple, old: list, new: list) -> Iterator[tuple[tuple, Any, Any]]:
    """The change of order of the records both lists hold (their names in each list's order), if any: their names
    from the first place that differs to the last, before and after (``players › order: Al, Bo → Bo, Al``)."""
    if old != new:
        moved = [i for i, (x, y) in enumerate(zip(old, new)) if x != y]
        yield (path + ("order",), ", ".join(map(str, old[moved[0]:moved[-1] + 1])),
               ", ".join(map(str, new[moved[0]:moved[-1] + 1])))


def changes(a: Any, b: Any) -> Iterator[tuple[tuple, Any, Any]]:
    """(path, old, new) for each place ``a`` and ``b`` differ, as ``judge.diff`` finds them, except that a list of
    named records that grew, shrank or shifted pairs its records by name (``By``): a player who left reads as that
    player removed, not as each later player turned into the next one."""
    return diff(a, b, lists=_by_name)


def value_html(value: Any, limit: int = 60) -> str:
    """A changed value in a sentence, as the state keeps it (``short``), but each time in it, alone or inside a
    larger value (a record added whole), written as the wiki writes times (4 Nov 2026 11:00 UTC), its stamp kept
    in the ``<time>`` element (shown on hover): see ``times_html``."""
    if value is MISSING:
        return "nothing"
    return times_html(_text(value), limit)


def _sentence(kind: str, where: str, old: Any, new: Any) -> str:
    head = f"<b>{esc(kind)}</b>" + (f" › {esc(where)}" if where else "")
    if old is MISSING:
        if isinstance(new, dict) and ("title" in new or "name" in new):
            return f"{head}: added “{esc(short(new.get('title') or new.get('name')))}”"
        return f"{head}: added {value_html(new)}"
    if new is MISSING:
        return f"{head}: removed (was {value_html(old)})"
    return f"{head}: {value_html(old)} → {value_html(new)}"


def describe_docs(before: State, after: State, limit: int | None = None) -> list[str]:
    """A sentence for each change; past ``limit`` sentences, the rest are counted, as empty strings."""
    out = []
    for kind in sorted(set(before.docs) | set(after.docs)):
        if kind in HIDDEN_DOCS:
            continue
        a, b = before.docs.get(kind, MISSING), after.docs.get(kind, MISSING)
        if a is b:
            continue
        for path, old, new in changes(a, b):
            if limit is not None and len(out) >= limit:
                out.append("")  # counted, not worded: it will not be shown
                continue
            if len(path) > 1 and path[0] == kind:  # proposals › proposals › #3 reads as proposals › #3
                a_in = a.get(kind) if isinstance(a, dict) else None
                b_in = b.get(kind) if isinstance(b, dict) else None
                out.append(_sentence(kind, path_words(a_in, b_in, path[1:]), old, new))
                continue
            out.append(_sentence(kind, path_words(a if a is not MISSING else None, b if b is not MISSING else None,
                                                  path), old, new))
    if before.config is not after.config:
        for path, old, new in diff(before.config, after.config):
            counted = limit is not None and len(out) >= limit
            out.append("" if counted else _sentence("game", " › ".join(map(str, path)), old, new))
    return out


def rule_changes(before: dict[str, Rule], after: dict[str, Rule]) -> list[tuple[str, Rule | None, Rule | None, str]]:
    """(rule id, old, new, what happened) for every rule that changed, in rule order."""
    out = []
    if before is after:
        return out
    for rid in sorted(set(before) | set(after)):
        old, new = before.get(rid), after.get(rid)
        if old is None and new is not None:
            out.append((rid, None, new, "enacted"))
        elif new is None and old is not None:
            out.append((rid, old, None, "removed"))
        elif old is not None and new is not None:
            what = []
            if old.body != new.body:
                what.append("amended")
            for key in ("title", "number", "section", "parent", "colour"):
                if old.meta.get(key) != new.meta.get(key):
                    what.append({"title": "retitled", "number": "renumbered"}.get(key, f"{key} changed"))
            if old.meta.get("status") != new.meta.get("status"):
                what.append("repealed" if new.meta.get("status") == "repealed" else "restored")
            if old.meta.get("carried_by") != new.meta.get("carried_by") and new.meta.get("carried_by"):
                carrier = after.get(str(new.meta["carried_by"]))  # ifMUD Rule 9: enacted again under a new number
                what.append(f"its text enacted again as {carrier.cite() if carrier else new.meta['carried_by']}")
            if what:
                out.append((rid, old, new, ", ".join(what)))
    return out


def describe_rules(before: State, after: State) -> list[str]:
    out = []
    for _rid, old, new, what in rule_changes(before.rules, after.rules):
        r = new or old
        assert r is not None
        out.append(f"<b>ruleset</b> › {esc(r.cite())}: {esc(what)}")
    return out


def describe(before: State, after: State, limit: int = MAX_LINES) -> list[str]:
    """Sentences (safe HTML) saying what changed from one state to the next."""
    rules = describe_rules(before, after)
    lines = rules + describe_docs(before, after, max(0, limit - len(rules)))
    if len(lines) > limit:
        lines = lines[:limit] + [f"… and {len(lines) - limit} more changes"]
    return lines


# ---------------------------------------------------------------- text diffs

_WORDS = re.compile(r"\s+|[^\s]+")


def _word_diff(a: str, b: str) -> tuple[str, str]:
    wa, wb = _WORDS.findall(a), _WORDS.findall(b)
    sm = difflib.SequenceMatcher(None, wa, wb, autojunk=False)
    left, right = [], []
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        x, y = esc("".join(wa[i1:i2])), esc("".join(wb[j1:j2]))
        if op == "equal":
            left.append(x)
            right.append(y)
        else:
            if x:
                left.append(f"<del>{x}</del>")
            if y:
                right.append(f"<ins>{y}</ins>")
    return "".join(left), "".join(right)


def text_diff(old: str, new: str, context: int = 2) -> str:
    """Old and new text as an HTML diff: removed lines, added lines, changed words marked."""
    a, b = (old or "").splitlines(), (new or "").splitlines()
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    rows: list[str] = []
    for group in sm.get_grouped_opcodes(context):
        if rows:
            rows.append('<div class="gap">⋯</div>')
        for op, i1, i2, j1, j2 in group:
            if op == "equal":
                rows += [f'<div class="same">{esc(line) or "&nbsp;"}</div>' for line in a[i1:i2]]
            elif op == "replace" and i2 - i1 == j2 - j1:
                for la, lb in zip(a[i1:i2], b[j1:j2], strict=True):
                    x, y = _word_diff(la, lb)
                    rows.append(f'<div class="del">{x or "&nbsp;"}</div>')
                    rows.append(f'<div class="ins">{y or "&nbsp;"}</div>')
            else:
                rows += [f'<div class="del"><del>{esc(line)}</del></div>' for line in a[i1:i2]]
                rows += [f'<div class="ins"><ins>{esc(line)}</ins></div>' for line in b[j1:j2]]
    if not rows:
        return '<div class="nomic-diff"><div class="same">(the text did not change)</div></div>'
    return '<div class="nomic-diff">' + "".join(rows) + "</div>"
