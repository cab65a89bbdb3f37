"""What a transaction has written so far, read from the engine's copy-on-write marks.

A module whose consequences run after every action (ifMUD's, validators/games/ifmud/consequences.py) can
spare itself work by looking only at what the action changed. That is known from how copy on write works
in validators/engine.py (``Tx``), and this module is the one place outside the engine that reads its marks:

* a document the action never edited is the previous state's own (``tx.docs`` does not hold it);
* in one it edited, a copy that nothing was written into still holds what the original held;
* each copied container registers its changed children, by their key, the first time one changes;
* a list that was itself changed (an item added, removed or replaced) cannot tell which items changed:
  that is reported as unknown (None), and the caller looks at everything.

Everything read here is read raw: never write into what these functions give. ``ctx`` is anything with the
transaction as ``ctx.tx`` (an action's ``Ctx``).
"""

from __future__ import annotations

from typing import Any

from .engine import _CowDict, _CowList

_ABSENT: Any = object()
_PLAIN = (dict, list)
_CONTAINERS = frozenset((dict, list, _CowDict, _CowList))


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


def start(ctx: Any, kind: str, key: Any = None) -> Any:
    """The document (or its part under ``key``) as the action started."""
    doc = ctx.tx.base.docs[kind]
    return doc if key is None else doc[key]



def _kept(now: Any, before: Any) -> bool:
    """``now`` is ``before``, or this transaction's copy of it (so its marks tell what changed in it)."""
    return now is before or ((type(now) is _CowDict or type(now) is _CowList) and now._s is before and not now._f)


def _part(ctx: Any, kind: str, key: Any) -> tuple[Any, Any] | None:
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


def unchanged(ctx: Any, kind: str, key: Any = None) -> bool:
    """Nothing was written into the document (or into its part under ``key``) since the action started."""
    tx = ctx.tx
    if kind not in tx.docs:  # not edited at all (what ``_part`` would find, asked directly)
        return key is None or type(tx.base.docs.get(kind, _ABSENT)) is dict
    pair = _part(ctx, kind, key)
    if pair is None:
        return False
    now, before = pair
    return now is before or (_kept(now, before) and not now._n)


def changed_items(ctx: Any, kind: str, key: str) -> list[tuple[Any, Any]] | None:
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


def changed_entries(ctx: Any, kind: str) -> list[tuple[Any, Any, Any]] | None:
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
