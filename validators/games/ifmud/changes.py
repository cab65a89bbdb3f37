"""What an action has changed so far, so that the consequences look only at that.

The consequences (consequences.py) run after every action until a pass of them changes nothing: the
state they leave is a *fixpoint*, on which every one of them does nothing. The next action starts from
that state. So when the state an action started from is known to be that fixpoint, a consequence whose
conditions read only parts of the state that the action has not changed would still do nothing, and
need not look; one whose parts did change need only look at the items that changed.

This module tells both, from the copy-on-write marks of validators/engine.py (``Tx``): a document the
action never edited is the previous state's own; in one it edited, a copy that nothing was written into
(``_n`` unset) still holds what the original held, and each container registers its changed children
(``_d``, by their key ``_k``) the first time one changes. A list that was itself changed (an item added,
removed or replaced: ``_m``) is reported as unknown (None), and the caller looks at everything.

Whether the starting state is that fixpoint is known by comparing it with what the last pass that
changed nothing left (``remember``): the comparison shares all the unchanged data, so it costs little.
A state that was not left by a completed run of the consequences (the first action of a replay, a game
founded by hand, an action refused after its deadlines ran) simply fails the comparison, and the
consequences then look at everything, as they always did.

``derived`` remembers what was worked out from a part of the state an action started from (the rooms by
name, the deadlines of the tokens ...) for as long as the next actions start from that very object. Like
the comparison above, it relies on the engine's rule that a state, once made, is never changed in place.
"""

from __future__ import annotations

import operator
from itertools import compress
from typing import Any

from ...engine import VERIFY_COW as VERIFY  # noqa: F401  (NOMIC_VERIFY_COW=1: consequences.py checks itself)
from ...engine import Ctx, _CowDict, _CowList

# The documents the consequences read, besides the configuration.
READ = ("roster", "map", "entities", "tokens", "quests", "turn", "tables")

_ABSENT: Any = object()
_PLAIN = (dict, list)
_CONTAINERS = frozenset((dict, list, _CowDict, _CowList))


# ---------------------------------------------------------------- snapshots


def snap(v: Any) -> Any:
    """``v`` as plain data to compare later: what it has not changed is given back as the very object of
    the previous state (never changed), and only what it changed is copied."""
    t = type(v)
    if t is _CowDict or t is _CowList:
        src = v._s
        if not v._f and type(src) in _PLAIN:
            if not v._n:
                return src  # nothing in it changed
            if not v._m:  # only some of its children changed, each registered in _d
                out = src.copy()
                for child in v._d:
                    out[child._k] = snap(child)
                return out
            if t is _CowDict:
                out = dict(dict.items(v))
                if _CONTAINERS.isdisjoint(map(type, dict.values(v))):
                    return out  # it holds no containers (asked in C)
                was = src.get
                for k, x in out.items():
                    tx = type(x)
                    if tx is _CowDict or tx is _CowList or ((tx is dict or tx is list) and x is not was(k, _ABSENT)):
                        out[k] = snap(x)
                return out
            if _CONTAINERS.isdisjoint(map(type, list.__iter__(v))):
                return list(list.__iter__(v))
            n = len(src)
            out_l = [_snap_in(x, src[i] if i < n else _ABSENT, src) for i, x in enumerate(list.__iter__(v))]
            _known.clear()
            return out_l
        if t is _CowDict:
            return {k: snap(x) for k, x in dict.items(v)}
        return [snap(x) for x in list.__iter__(v)]
    if t is dict:
        return {k: snap(x) for k, x in v.items()}
    if t is list:
        return [snap(x) for x in v]
    return v


_known: list[Any] = []  # (the original list, the ids of its items) while ``snap`` walks one changed list


def _snap_in(x: Any, was: Any, src: list[Any]) -> Any:
    """A child of a changed list; ``was``: what its original ``src`` (the previous state's) held in the same
    place."""
    if type(x) in _PLAIN:
        if x is was:
            return x  # the original's own, never reached
        # An item of the original elsewhere (the list lost or gained an item before it): the previous
        # state's own too, so plain and never changed. Its ids are read once per list (the list keeps them).
        if not _known or _known[0] is not src:
            _known[:] = [src, set(map(id, src))]
        if id(x) in _known[1]:
            return x
    return snap(x)


def same(a: Any, b: Any) -> bool:
    """Whether two snapshots hold the same data, as their JSON would: dicts by their keys, lists in order,
    scalars by type and value (1, 1.0 and True differ)."""
    if a is b:
        return True
    t = type(a)
    if t is not type(b):
        return False
    if t is dict:
        if len(a) != len(b):
            return False
        for k, x in a.items():
            y = b.get(k, _ABSENT)
            if x is not y and (y is _ABSENT or not same(x, y)):
                return False
        return True
    if t is list:
        if len(a) != len(b):
            return False
        identical = list(map(operator.is_, a, b))  # most items are the very same objects
        i = -1
        try:
            while True:
                i = identical.index(False, i + 1)
                if not same(a[i], b[i]):
                    return False
        except ValueError:
            return True
    return a == b


# ---------------------------------------------------------------- the fixpoint

_fixpoint: list[Any] = [None]  # (snapshots of READ, configuration) left by the last pass that changed nothing
_verdict: list[Any] = [None, False]  # the transaction last asked about, and whether its start is that fixpoint


def remember(ctx: Ctx, snapshots: dict[str, Any]) -> None:
    """The consequences changed nothing in their last pass: the state as it stands is a fixpoint."""
    tx = ctx.tx
    if tx.config is not None:  # the configuration changed in this action: not worth keeping
        _fixpoint[0] = None
        return
    docs = dict(snapshots)
    for kind in READ:
        if kind not in docs:
            docs[kind] = snap(tx.docs[kind]) if kind in tx.docs else tx.base.docs.get(kind, _ABSENT)
    _fixpoint[0] = (docs, tx.base.config)


def at_fixpoint(ctx: Ctx) -> bool:
    """Whether the action started from a fixpoint of the consequences, with the configuration unchanged."""
    tx = ctx.tx
    if tx.config is not None:
        return False
    if _verdict[0] is not tx:
        fixed = _fixpoint[0]
        base = tx.base
        ok = fixed is not None and same(fixed[1], base.config) and all(
            same(snapshot, base.docs.get(kind, _ABSENT)) for kind, snapshot in fixed[0].items())
        _verdict[0], _verdict[1] = tx, ok
    return bool(_verdict[1])


# ---------------------------------------------------------------- what changed since the start

_derived: dict[str, tuple[Any, Any]] = {}


def derived(name: str, part: Any, compute: Any, after: Any = None) -> Any:
    """``compute(part)`` for a part of the state an action started from (never changed), remembered
    while the next actions start from that very part. ``after(earlier part, its value, part)``, when
    given, works the value out from the one remembered for an earlier part (which is never changed either)."""
    hit = _derived.get(name)
    if hit is not None and hit[0] is part:
        return hit[1]
    value = after(hit[0], hit[1], part) if after is not None and hit is not None else compute(part)
    _derived[name] = (part, value)
    return value


def start(ctx: Ctx, kind: str, key: Any = None) -> Any:
    """The document (or its part under ``key``) as the action started."""
    doc = ctx.tx.base.docs[kind]
    return doc if key is None else doc[key]



def _kept(now: Any, before: Any) -> bool:
    """``now`` is ``before``, or this transaction's copy of it (so its marks tell what changed in it)."""
    return now is before or ((type(now) is _CowDict or type(now) is _CowList) and now._s is before and not now._f)


def _part(ctx: Ctx, kind: str, key: Any) -> tuple[Any, Any] | None:
    """(now, at the start) of a document or of one key of it; None when they cannot be paired."""
    tx = ctx.tx
    before = tx.base.docs.get(kind, _ABSENT)
    now = tx.docs.get(kind, before)
    if not _kept(now, before):
        return None
    if key is None:
        return now, before
    if type(before) is not dict:
        return None
    return dict.get(now, key, _ABSENT), dict.get(before, key, _ABSENT)


def unchanged(ctx: Ctx, kind: str, key: Any = None) -> bool:
    """Nothing was written into the document (or into its part under ``key``) since the action started."""
    tx = ctx.tx
    if kind not in tx.docs:  # not edited at all (what ``_part`` would find, asked directly)
        return key is None or type(tx.base.docs.get(kind, _ABSENT)) is dict
    pair = _part(ctx, kind, key)
    if pair is None:
        return False
    now, before = pair
    return now is before or (_kept(now, before) and not now._n)


def changed_items(ctx: Ctx, kind: str, key: str) -> list[tuple[Any, Any]] | None:
    """The items of the list ``doc[key]`` written into since the action started, each as (now, at the
    start), read raw: never write into them. None when the list itself changed, or it cannot be told."""
    pair = _part(ctx, kind, key)
    if pair is None:
        return None
    now, before = pair
    if now is before:
        return []
    if type(now) is not _CowList or now._s is not before or now._f or now._m:
        return None
    return [(child, before[child._k]) for child in now._d]


def changed_entries(ctx: Ctx, kind: str) -> list[tuple[Any, Any, Any]] | None:
    """(key, now, at the start) of each value of the document written into since the action started;
    None when keys were set or removed in the document itself, or it cannot be told."""
    pair = _part(ctx, kind, None)
    if pair is None:
        return None
    now, before = pair
    if now is before:
        return []
    if now._m:
        return None
    return [(child._k, child, dict.get(before, child._k)) for child in now._d]


class Since:
    """``at_fixpoint``, ``unchanged``, ``changed_items`` and ``changed_entries`` for one transaction, each
    worked out once: valid only while nothing is written (consequences.py drops it at the first write)."""

    def __init__(self, ctx: Ctx):
        self.ctx = ctx
        self.fixed = at_fixpoint(ctx)
        self._memo: dict[Any, Any] = {}

    def unchanged(self, kind: str, key: Any = None) -> bool:
        k = ("unchanged", kind, key)
        if k not in self._memo:
            self._memo[k] = unchanged(self.ctx, kind, key)
        return bool(self._memo[k])

    def items(self, kind: str, key: str) -> list[tuple[Any, Any]] | None:
        k = ("items", kind, key)
        if k not in self._memo:
            self._memo[k] = changed_items(self.ctx, kind, key)
        return self._memo[k]

    def entries(self, kind: str) -> list[tuple[Any, Any, Any]] | None:
        k = ("entries", kind)
        if k not in self._memo:
            self._memo[k] = changed_entries(self.ctx, kind)
        return self._memo[k]


class PerItem:
    """``[compute(item) for item in items]`` for lists of a state's documents as some action started (the
    previous state's own, whose items are never changed in place), worked out from the last list asked
    about: a replay's next list holds the very same items but the few an action replaced or added, so only
    the items that are not the very same objects in the same places are computed again (found in C, by
    identity, without reading the items). The last list is kept with its values, so that it is not reused.
    Never give it a list of a document the action has edited (that one may still change)."""

    def __init__(self, compute: Any):
        self.compute = compute
        self.last: tuple[list[Any], list[Any]] | None = None

    def many(self, items: list[Any]) -> list[Any]:
        last = self.last
        if last is not None and last[0] is items:
            return last[1]
        compute = self.compute
        if last is None or len(items) < len(last[0]):
            values = list(map(compute, items))  # a list that lost items: the positions moved
        else:
            before, values = last
            values = values.copy()
            for i in compress(range(len(before)), map(operator.is_not, items, before)):
                values[i] = compute(items[i])
            values.extend(map(compute, items[len(before):]))  # added at the end
        self.last = (items, values)
        return values
