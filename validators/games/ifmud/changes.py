"""What an action has changed so far, so that the consequences look only at that.

The consequences (consequences.py) run after every action until a pass of them changes nothing: the
state they leave is a *fixpoint*, on which every one of them does nothing. The next action starts from
that state. So when the state an action started from is known to be that fixpoint, a consequence whose
conditions read only parts of the state that the action has not changed would still do nothing, and
need not look; one whose parts did change need only look at the items that changed.

The engine tells both (validators/written.py, from its copy-on-write marks): whether a document or a part
of it was written into since the action started, which items of a list or entries of a document were, and
a snapshot of a document that shares every part not written into. A list that was itself changed (an item
added, removed or replaced) is reported as unknown (None), and the caller looks at everything.

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
from ...engine import Ctx
from ...written import changed_entries, changed_items, snap, start, unchanged  # noqa: F401  (used as ch.*)

# The documents the consequences read, besides the configuration.
READ = ("roster", "map", "entities", "tokens", "quests", "turn", "tables")

_ABSENT: Any = object()


# ---------------------------------------------------------------- comparing snapshots


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

_fixpoint: list[Any] = [None]  # (snapshots of READ, configuration, ruleset) left by the last pass that changed nothing
_verdict: list[Any] = [None, False]  # the transaction last asked about, and whether its start is that fixpoint


def remember(ctx: Ctx, snapshots: dict[str, Any]) -> None:
    """The consequences changed nothing in their last pass: the state as it stands is a fixpoint."""
    tx = ctx.tx
    if tx.config is not None or tx.rules is not None:  # the configuration or ruleset changed: not worth keeping
        _fixpoint[0] = None
        return
    docs = dict(snapshots)
    for kind in READ:
        if kind not in docs:
            docs[kind] = snap(tx.docs[kind]) if kind in tx.docs else tx.base.docs.get(kind, _ABSENT)
    _fixpoint[0] = (docs, tx.base.config, tx.base.rules)


def at_fixpoint(ctx: Ctx) -> bool:
    """Whether the action started from a fixpoint of the consequences, with the configuration unchanged."""
    tx = ctx.tx
    if tx.config is not None or tx.rules is not None:
        return False
    if _verdict[0] is not tx:
        fixed = _fixpoint[0]
        base = tx.base
        # the very same ruleset: a consequence a repealed rule no longer runs (``engine.repealed``) did nothing at
        # the fixpoint because of the ruleset, and a state with a rule repealed or enacted again is no fixpoint
        ok = fixed is not None and fixed[2] is base.rules and same(fixed[1], base.config) and all(
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
