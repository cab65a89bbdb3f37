"""The engine: actions, scheduled events, consequences, and the replay of one action.

The engine knows nothing about monkeys. A game module (``validators/games/*``)
registers what its rules define:

* ``DocKind``: a gamestate document (``gamestate/<name>.yaml``) and its schema;
* ``Action``: a named game action with a parameter schema, who may take it, a
  legality check that yields the reasons it is illegal (each citing a rule),
  and an effect on the gamestate;
* ``Event``: something that happens by itself at a time ("each Monday at
  00:00:01 UTC"), applied when time passes between two actions;
* consequences: functions run after every action ("if a Colonist is ever in
  an Occupied location, they are killed");
* gates: checks every action must pass (for example, BlogNomic's Hiatus);
* invariants: checks of a whole state, run by ``nomic check``.

``apply_action`` is the one place an action becomes a new state; ``nomic act``
and ``nomic check`` both call it, so they cannot disagree.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from itertools import compress, repeat
from operator import indexOf, is_, is_not
from typing import Any, Callable, Iterable, Iterator, Mapping

from .dice import Dice, chain
from .problems import BAD_INPUT, ILLEGAL, Illegal, Problem, did_you_mean
from .timeutil import format_time, frequency_violation, parse_time

ENGINE_DOCS = ("roster", "ledger")


# ---------------------------------------------------------------- state


@dataclass
class Rule:
    """One rule: its front matter (id, number, title, section, status, history ...) and its text."""

    id: str
    meta: dict[str, Any]
    body: str

    def copy(self) -> "Rule":
        return Rule(self.id, copy.deepcopy(self.meta), self.body)

    @property
    def title(self) -> str:
        return str(self.meta.get("title", self.id))

    @property
    def number(self) -> str:
        return str(self.meta.get("number", ""))

    def cite(self) -> str:
        # A game that numbers rules by path (Cycle 12: "Nomsters → Taming") already ends the number with the title.
        if self.number == self.title or self.number.endswith(" " + self.title):
            return self.number
        return f"{self.number} {self.title}".strip()


@dataclass
class State:
    """A whole game: its configuration (game.yaml), gamestate documents and ruleset."""

    config: dict[str, Any]
    docs: dict[str, Any]
    rules: dict[str, Rule]

    def doc(self, kind: str) -> Any:
        return self.docs[kind]

    @property
    def modules(self) -> list[str]:
        return list(self.config.get("modules", []))

    def option(self, module: str, name: str, default: Any = None) -> Any:
        return self.config.get("options", {}).get(module, {}).get(name, default)

    def keyword(self, key: str, default: str | None = None) -> str:
        return str(self.config.get("keywords", {}).get(key, default if default is not None else key))

    # The roster is an engine document: every game has players.
    def players(self) -> list[dict[str, Any]]:
        return self.docs["roster"]["players"]

    def player(self, name: str) -> dict[str, Any] | None:
        players = self.docs["roster"]["players"]
        try:  # the first whose name is ``name``, looked for in C (the rules ask this all the time)
            return players[indexOf(_names(players), name)]
        except ValueError:
            return None

    def spelled(self, name: str) -> str | None:
        """The roster's spelling of a name typed in another case or with blanks around it ("chidi ", from a
        shell's quotes), for a did-you-mean hint; None when no player is named so."""
        key = name.strip().casefold()
        return next((str(p["name"]) for p in self.players() if str(p.get("name", "")).strip().casefold() == key), None)

    def now(self) -> datetime | None:
        last = self.docs.get("ledger", {}).get("clock")
        return parse_time(last) if last else None


# ---------------------------------------------------------------- copy on write
#
# ``Tx.edit(kind)`` used to deep-copy the whole document, which on a large game
# (a proposals document of 13,000 lines, a 200 by 200 map) cost tens of
# milliseconds per action and dominated a replay. Now it copies lazily: the
# edited document is a shallow copy whose containers are copied one level at a
# time, the first time the module reaches them (``doc["proposals"]``, iterating
# a list, ``.get``, ``.items()``, ``.values()``, ``.pop`` ...). Whatever the
# module can reach through an edited document is therefore its own copy, and
# everything it never reached stays shared with the previous state, which is
# never mutated.
#
# Every change to a copy (through its methods: ``d[k] = v``, ``del``, ``append``,
# ``update``, ``sort`` ...) marks it and its parents as changed. ``commit`` turns
# the changed copies back into plain dicts and lists and gives back the original
# object for every copy that was only read, so a committed State holds plain
# data and shares all that did not change. Set NOMIC_VERIFY_COW=1 to have every
# commit also checked against a full walk of the copies (the tests can use it).


def _names(players: Iterable[Any]) -> Iterator[Any]:
    """Each player's name, read in C (``dict.get`` itself: a copy's own ``__getitem__`` is Python, asked per player)."""
    return map(dict.get, players, repeat("name"))


_owners = __import__("itertools").count(1)
VERIFY_COW = bool(__import__("os").environ.get("NOMIC_VERIFY_COW"))
_ABSENT = object()


def _touch(node: Any) -> None:
    """``node`` itself changes: mark it, and register it (and each parent newly marked) with its parent."""
    node._m = True
    while node is not None and not node._n:
        node._n = True
        parent = node._p
        if parent is not None:
            parent._d.append(node)
        node = parent


class _CowDict(dict):
    """A dict copied from ``_s`` for the transaction ``_o``; its containers are copied on first access."""

    __slots__ = ("_o", "_s", "_p", "_n", "_f", "_m", "_d", "_k")

    def __getitem__(self, key: Any) -> Any:
        v = dict.__getitem__(self, key)
        t = type(v)
        if (t is dict or t is list) or ((t is _CowDict or t is _CowList) and v._o != self._o):
            v = _adopt(v, self._o, self, self._f or dict.get(self._s, key, _ABSENT) is not v, key)
            dict.__setitem__(self, key, v)
        return v

    def get(self, key: Any, default: Any = None) -> Any:
        return self[key] if dict.__contains__(self, key) else default

    def setdefault(self, key: Any, default: Any = None) -> Any:
        if not dict.__contains__(self, key):
            _touch(self)
            dict.__setitem__(self, key, default)
        return self[key]

    def __setitem__(self, key: Any, value: Any) -> None:
        _touch(self)
        dict.__setitem__(self, key, value)

    def __delitem__(self, key: Any) -> None:
        _touch(self)
        dict.__delitem__(self, key)

    def pop(self, key: Any, *default: Any) -> Any:
        if dict.__contains__(self, key):
            v = self[key]
            _touch(self)
            dict.__delitem__(self, key)
            return v
        return dict.pop(self, key, *default)

    def popitem(self) -> tuple[Any, Any]:
        if not dict.__len__(self):
            raise KeyError("popitem(): dictionary is empty")
        key = next(reversed(dict.keys(self)))
        return key, self.pop(key)

    def clear(self) -> None:
        _touch(self)
        dict.clear(self)

    def update(self, *args: Any, **kwargs: Any) -> None:
        _touch(self)
        dict.update(self, *args, **kwargs)

    def __ior__(self, other: Any) -> Any:
        self.update(other)
        return self

    def __iter__(self) -> Any:  # also makes dict(x), {**x} and update(x) go through __getitem__
        return dict.__iter__(self)

    def values(self) -> Any:  # type: ignore[override]
        return [self[k] for k in list(dict.keys(self))]

    def items(self) -> Any:  # type: ignore[override]
        return [(k, self[k]) for k in list(dict.keys(self))]

    def copy(self) -> dict:  # type: ignore[override]
        return dict(self.items())

    def __copy__(self) -> dict:
        return self.copy()

    def __deepcopy__(self, memo: Any) -> Any:
        return plain_copy(self)

    def __or__(self, other: Any) -> Any:
        out = self.copy()
        out.update(other)
        return out

    def __ror__(self, other: Any) -> Any:
        out = dict(other)
        out.update(self.items())
        return out

    def __reduce_ex__(self, protocol: Any) -> Any:
        return (dict, (self.items(),))


class _CowList(list):
    """A list copied from ``_s`` for the transaction ``_o``; its containers are copied on first access.

    ``_a``: every item is already the transaction's own (cleared when items are put in).
    """

    __slots__ = ("_o", "_s", "_p", "_n", "_f", "_a", "_m", "_d", "_k")

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(list.__len__(self)))]
        v = list.__getitem__(self, index)
        t = type(v)
        if (t is dict or t is list) or ((t is _CowDict or t is _CowList) and v._o != self._o):
            src = self._s
            fresh = self._f or not ((0 <= index < list.__len__(src) and list.__getitem__(src, index) is v)
                                    or _holds(src, index, v))
            v = _adopt(v, self._o, self, fresh, index if index >= 0 else index + list.__len__(self))
            list.__setitem__(self, index, v)
        return v

    def __iter__(self) -> Any:
        # Iterating is how modules search lists, so it is the hot path: every item is made the
        # transaction's own once, in one loop, and then the list's own C iterator runs.
        if not self._a:
            get, size, put = list.__getitem__, list.__len__, list.__setitem__
            owner, src, fresh_all = self._o, self._s, self._f
            n_src = size(src)
            for i in range(size(self)):
                v = get(self, i)
                t = type(v)
                if (t is dict or t is list) or ((t is _CowDict or t is _CowList) and v._o != owner):
                    fresh = fresh_all or not ((i < n_src and get(src, i) is v) or _holds(src, i, v))
                    put(self, i, _adopt(v, owner, self, fresh, i))
            self._a = True
        return list.__iter__(self)

    def __reversed__(self) -> Any:
        i = list.__len__(self) - 1
        while i >= 0:
            if i < list.__len__(self):
                yield self[i]
            i -= 1

    def __setitem__(self, index: Any, value: Any) -> None:
        _touch(self)
        self._a = False
        list.__setitem__(self, index, value)

    def __delitem__(self, index: Any) -> None:
        _touch(self)
        list.__delitem__(self, index)

    def append(self, value: Any) -> None:
        _touch(self)
        self._a = False
        list.append(self, value)

    def extend(self, values: Any) -> None:
        _touch(self)
        self._a = False
        list.extend(self, values)

    def insert(self, index: Any, value: Any) -> None:
        _touch(self)
        self._a = False
        list.insert(self, index, value)

    def remove(self, value: Any) -> None:
        _touch(self)
        list.remove(self, value)

    def pop(self, index: int = -1) -> Any:
        v = self[index]
        _touch(self)
        list.pop(self, index)
        return v

    def clear(self) -> None:
        _touch(self)
        list.clear(self)

    def sort(self, *args: Any, **kwargs: Any) -> None:
        _touch(self)
        list.sort(self, *args, **kwargs)

    def reverse(self) -> None:
        _touch(self)
        list.reverse(self)

    def __iadd__(self, other: Any) -> Any:
        self.extend(other)
        return self

    def __imul__(self, n: Any) -> Any:
        _touch(self)
        self._a = False
        return list.__imul__(self, n)

    def copy(self) -> list:  # type: ignore[override]
        return list(self)

    def __copy__(self) -> list:
        return list(self)

    def __deepcopy__(self, memo: Any) -> Any:
        return plain_copy(self)

    def __add__(self, other: Any) -> Any:
        return list(self) + list(other)

    def __radd__(self, other: Any) -> Any:
        return list(other) + list(self)

    def __mul__(self, n: Any) -> Any:
        return list(self) * n

    __rmul__ = __mul__

    def __reduce_ex__(self, protocol: Any) -> Any:
        return (list, (list(self),))


_COWS = (_CowDict, _CowList)


def _holds(src: list, index: int, v: Any) -> bool:
    """Whether list ``src`` (what a copy was made from) holds the very object ``v``."""
    n = list.__len__(src)
    if index < 0:
        index += n
    if 0 <= index < n and list.__getitem__(src, index) is v:
        return True
    for x in list.__iter__(src):
        if x is v:
            return True
    return False


def _adopt(v: Any, owner: int, parent: Any, fresh: bool = False, key: Any = None) -> Any:
    """A copy of container ``v`` (one level deep) owned by ``owner``, reached from ``parent``.

    ``fresh``: ``v`` was put there during the transaction (it is not part of the state the
    transaction started from), so it may hold copies anywhere below it.
    """
    t = type(v)
    if t is dict:
        n: Any = _CowDict(v)
    elif t is list:
        n = _CowList(v)
    elif t is _CowDict:
        n = _CowDict(dict.items(v))
    else:
        n = _CowList(list.__iter__(v))
    n._o = owner
    n._s = v
    n._p = parent
    n._n = False
    n._f = fresh
    n._m = False
    n._d = []
    n._k = key
    if t is list or t is _CowList:
        n._a = False
    return n


def _freeze(v: Any) -> Any:
    """Plain data again: changed copies become plain dicts and lists; unchanged ones give back their original."""
    t = type(v)
    if t is not _CowDict and t is not _CowList:
        return v
    src = v._s
    fresh = v._f
    if not v._n:  # neither it nor anything below it changed
        if fresh:
            return _freeze_new(src)
        return _freeze(src) if type(src) in _COWS else src
    foreign = type(src) in _COWS  # copied from another transaction's copy (a sandbox), which may change later
    if foreign:
        src = _freeze(src)
    if not v._m and not fresh and not foreign:
        # only things below it changed: its original, with the changed children put in their places
        out_c = src.copy()
        for child in v._d:
            out_c[child._k] = _freeze(child)
        return out_c
    # it changed itself: a plain copy, then the containers in it are seen to one by one
    # (whether any value is a container is asked first in C: a map of names to times or votes holds none)
    if t is _CowDict:
        out = dict(dict.items(v))  # not dict.copy(v): on a subclass it reads through __getitem__, copying every child
        todo = [k for k, x in dict.items(v) if type(x) in _CONTAINERS] \
            if not _CONTAINER_SET.isdisjoint(map(type, dict.values(v))) else []
        get_src = src.get
    else:
        out = list(list.__iter__(v))
        n = len(src)
        if _CONTAINER_SET.isdisjoint(map(type, out)):
            todo = []
        elif fresh or not _COW_SET.isdisjoint(map(type, src)):
            todo = [i for i, x in enumerate(out) if type(x) in _CONTAINERS]
        else:
            # An item still in its place is the source's very object: the previous state's plain data, which
            # the loop below would keep as it is. So only the places that changed are looked at (the identities
            # are compared in C): committing a long list with one item appended or replaced costs that item,
            # not a walk of the list. (A source holding copies, from a sandbox, gets the full walk above: an
            # item shared with it may be one of those copies, which must be frozen.)
            todo = [i for i in compress(range(n), map(is_not, out, src)) if type(out[i]) in _CONTAINERS]
            if len(out) > n:
                todo += [i for i in range(n, len(out)) if type(out[i]) in _CONTAINERS]

        def get_src(i: int) -> Any:
            return src[i] if i < n else _ABSENT
    known: set[int] | None = None
    searched = 0
    for k in todo:
        x = out[k]
        tx = type(x)
        if tx is _CowDict or tx is _CowList:
            if x._n or x._f or type(x._s) in _COWS:
                out[k] = _freeze(x)
            else:
                out[k] = x._s
        elif fresh:
            out[k] = _freeze_new(x)
        elif get_src(k) is not x:
            # is it one of the source's items (moved: kept as it is) or a container the module put there (it may
            # hold copies: walked)? Holding no container, it is kept either way, and nothing need be searched.
            # The first few are searched for in C; a set of every item's id is worth building only for many (a
            # sorted list), as it is built in Python and an append asks for one.
            if _CONTAINER_SET.isdisjoint(map(type, x.values() if tx is dict else x)):
                continue
            if known is None and searched < 4:
                searched += 1
                held = any(map(is_, repeat(x), src.values() if isinstance(src, dict) else src))
            else:
                if known is None:
                    known = {id(y) for y in (src.values() if isinstance(src, dict) else src)}
                held = id(x) in known
            if not held:
                out[k] = _freeze_new(x)
    return out


def _freeze_new(v: Any) -> Any:
    """A container built by module code: walked through, since it may hold copies anywhere."""
    t = type(v)
    if t is _CowDict or t is _CowList:
        return _freeze(v)
    if t is dict:
        if any(type(x) in _CONTAINERS for x in dict.values(v)):
            return {k: _freeze_new(x) for k, x in dict.items(v)}
        return v
    if t is list:
        if any(type(x) in _CONTAINERS for x in v):
            return [_freeze_new(x) for x in v]
        return v
    return v


def recorded(outcome: Any) -> Any:
    """An outcome as its action file will hold it: plain data, a tuple a module made being a list.

    The judge compares a replay's outcome with the file's, so they must be the same kind of value.
    """
    return _untuple(_freeze_new(outcome))


def _untuple(v: Any) -> Any:
    t = type(v)
    if t is tuple or (t is list and not _PLAIN_SET.issuperset(map(type, v))):
        return [_untuple(x) for x in v]
    if t is dict and not _PLAIN_SET.issuperset(map(type, v.values())):
        return {k: _untuple(x) for k, x in v.items()}
    return v


_PLAIN_SET = frozenset((str, int, float, bool, type(None)))


def _freeze_full(v: Any) -> Any:
    """``_freeze`` without trusting the change marks (for NOMIC_VERIFY_COW): every copy is rebuilt."""
    t = type(v)
    if t is _CowDict:
        return {k: _freeze_full(x) for k, x in dict.items(v)}
    if t is _CowList:
        return [_freeze_full(x) for x in list.__iter__(v)]
    if t is dict:
        return {k: _freeze_full(x) for k, x in v.items()}
    if t is list:
        return [_freeze_full(x) for x in v]
    return v


def _strict_equal(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_strict_equal(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_strict_equal(x, y) for x, y in zip(a, b))
    return a == b


_CONTAINERS = (dict, list, _CowDict, _CowList)
_CONTAINER_SET = frozenset(_CONTAINERS)
_COW_SET = frozenset(_COWS)
_ATOMS = (str, int, float, bool, type(None))


def peek(items: Any) -> Any:
    """Iterate a list only to read it (to find an item, say): nothing is copied on the way.

    What it yields may be the previous state's own objects: change only what ``ctx.edit`` gives.
    """
    return list.__iter__(items) if type(items) is _CowList else iter(items)


def peek_items(mapping: Any) -> Any:
    """A mapping's (key, value) pairs only to read them: nothing is copied on the way (see ``peek``)."""
    return dict.items(mapping) if isinstance(mapping, dict) else mapping.items()


class Remembered:
    """Values worked out from a state's own objects, remembered by identity.

    A plain dict or list of a state is never changed in place (a transaction copies before it
    writes), so what was computed from it holds while that very object lives; the object is kept
    with its value, so that its id cannot be taken by another. At most ``size`` are kept.
    """

    MISSING = object()

    def __init__(self, size: int):
        self._size = size
        self._kept: dict[int, tuple[Any, Any]] = {}
        # ``lookup(id(obj))``: ``(obj, value)`` or None, for loops that cannot afford a Python call of ``get``
        # per object (compare the ``obj`` found with yours: an id is unique only while its object lives)
        self.lookup = self._kept.get

    def get(self, obj: Any) -> Any:
        """What was remembered for this very object, or ``Remembered.MISSING``."""
        hit = self._kept.get(id(obj))
        return hit[1] if hit is not None and hit[0] is obj else Remembered.MISSING

    def put(self, obj: Any, value: Any) -> Any:
        if len(self._kept) >= self._size:
            self._kept.clear()
        self._kept[id(obj)] = (obj, value)
        return value


def plain_copy(v: Any) -> Any:
    """A deep copy of plain YAML data (dicts, lists, scalars); much faster than ``copy.deepcopy``."""
    if isinstance(v, dict):
        return {k: (x if type(x) in _ATOMS else plain_copy(x)) for k, x in dict.items(v)}
    if isinstance(v, list):
        return [(x if type(x) in _ATOMS else plain_copy(x)) for x in list.__iter__(v)]
    if type(v) in _ATOMS:
        return v
    return copy.deepcopy(v)


class Tx:
    """The changes one action makes, copy-on-write: only what it reaches is copied, one level at a time."""

    def __init__(self, state: State):
        self.base = state
        self.docs: dict[str, Any] = {}
        self.rules: dict[str, Rule] | None = None
        self.config: dict[str, Any] | None = None
        self._owner = next(_owners)

    def doc(self, kind: str) -> Any:
        if kind in self.docs:
            return self.docs[kind]
        return self.base.docs[kind]

    def edit(self, kind: str) -> Any:
        if kind not in self.docs:
            if kind not in self.base.docs:
                raise KeyError(f"no gamestate document {kind!r}")
            doc = self.base.docs[kind]
            self.docs[kind] = _adopt(doc, self._owner, None) if type(doc) in _CONTAINERS else copy.deepcopy(doc)
        return self.docs[kind]

    def edit_rules(self) -> dict[str, Rule]:
        if self.rules is None:
            self.rules = {k: Rule(r.id, plain_copy(r.meta), r.body) for k, r in self.base.rules.items()}
        return self.rules

    def edit_config(self) -> dict[str, Any]:
        if self.config is None:
            self.config = plain_copy(self.base.config)
        return self.config

    def view(self) -> State:
        """The state as it stands inside the transaction."""
        return State(self.config if self.config is not None else self.base.config,
                     {**self.base.docs, **self.docs},
                     self.rules if self.rules is not None else self.base.rules)

    def commit(self) -> State:
        """The new state, as plain data; documents the action never edited are shared with the old one."""
        docs = dict(self.base.docs)
        for kind, doc in self.docs.items():
            docs[kind] = _freeze(doc) if type(doc) in _CONTAINERS else doc
            if VERIFY_COW and not _strict_equal(docs[kind], _freeze_full(doc)):
                raise AssertionError(f"copy on write lost a change to {kind!r}")
        return State(self.config if self.config is not None else self.base.config, docs,
                     self.rules if self.rules is not None else self.base.rules)


# ---------------------------------------------------------------- definitions

Check = Callable[["Ctx"], Iterable["str | Problem"]]
Effect = Callable[["Ctx"], None]


def ruled(rule: str) -> Callable[[Any], Any]:
    """Ties a consequence, gate or invariant to the rule (its id in the game's ruleset) that makes it: while the
    ruleset holds that rule repealed, the engine does not run it, as a repealed rule's actions and scheduled events
    are out of the game (``repealed``). One the game's ruleset lacks, or one left untied, runs whatever is repealed.
    A function doing the work of several rules asks ``repealed`` about each itself."""
    def tie(fn: Any) -> Any:
        fn.rule = rule
        return fn
    return tie


def runs(where: "State | Ctx", fn: Any) -> bool:
    """Whether ``fn`` (a consequence, gate, invariant, or a module's own deadline) runs now: it is tied to no rule
    (``ruled``), or its rule is not repealed in ``where``'s ruleset (of a ``Ctx``: as the action has left it)."""
    return _runs_in(where.rules, fn)


def _runs_in(rules: Mapping[str, "Rule"], fn: Any) -> bool:
    rid = getattr(fn, "rule", None)
    return rid is None or repealed_in(rules, rid) is None


def in_force(where: "State | Ctx", fns: Iterable[Any]) -> Iterator[Any]:
    """The consequences, gates or invariants of ``fns`` that run now (``runs``), each asked as it comes."""
    return (fn for fn in fns if runs(where, fn))


_RUNNING = Remembered(64)  # a state's ruleset -> {id of a module's list of consequences or gates: (it, ``_running``)}


def _running(rules: Mapping[str, "Rule"], fns: list[Any]) -> tuple[bool, ...]:
    """Whether each of a module's ``fns`` runs (``runs``) under a state's ruleset. Every action asks it of every
    consequence and gate (twenty-odd look-ups of the ruleset an action, each a few calls), and a state's ruleset
    never changes (an action that changes it edits a copy, ``Tx.edit_rules``): so the answers are remembered by
    the ruleset's identity, and most actions, which share their ruleset with the action before, look them up once."""
    known = _RUNNING.get(rules)
    if known is Remembered.MISSING:
        known = _RUNNING.put(rules, {})
    hit = known.get(id(fns))
    if hit is None or hit[0] is not fns:
        hit = known[id(fns)] = (fns, tuple(_runs_in(rules, fn) for fn in fns))
    return hit[1]


def _nothing(ctx: "Ctx") -> Iterable[str]:
    return ()


def _no_effect(ctx: "Ctx") -> None:
    return None


# Who may take an action.
PLAYER = "player"  # an active player, for themselves
ADMIN = "admin"  # a player who is an admin
LEADER = "leader"  # the dynasty's leader (its keyword varies)
NEWCOMER = "newcomer"  # somebody not yet on the roster (joining)
ANYONE = "anyone"  # anybody, on the roster or not (ticks: letting time pass)


@dataclass(frozen=True)
class Action:
    """One registered game action. ``summary`` is what ``nomic act --list`` shows; the longer ``doc`` is shown on
    the wiki's actions page."""

    name: str
    rule: str  # the rule it comes from: "1.3 Proposals"
    summary: str
    params: Mapping[str, Any] = field(default_factory=lambda: {"type": "object", "additionalProperties": False})
    check: Check = _nothing
    effect: Effect = _no_effect
    who: str = PLAYER
    frequency: str | None = None  # "daily" or "weekly"
    frequency_key: str | None = None  # actions that share one limit share a key
    in_hiatus: bool = False  # may be taken while the game is in Hiatus
    idle_ok: bool = False  # idle players may take it
    doc: str = ""
    # Who may file this action in a pull request, besides the actor themselves.
    may_file: Callable[["Ctx", str], bool] | None = None
    # The parameter that holds the actor's new name, for an action that renames its actor: the actions after it
    # are theirs under that name (the pull-request check follows it; the effect calls ``ctx.renamed``).
    new_name_param: str | None = None
    # Refusals that need no parameters: the action cannot be taken now whatever values are given (no proposal is
    # pending to vote on; this game's rules give no such power). ``nomic act --list`` says them beside an action
    # that takes parameters, which it cannot judge whole. Each must be one the check makes too, for every value
    # (the check begins with it, or refuses each value in its own words), so that the list never says "no" to an
    # action the check would take.
    ready: Check | None = None
    # Whether taking it is the actor acting in the game, so the ledger's ``seen`` records it. The engine's tick
    # is no game action (anyone files it, only to let time pass): it moves the clock but leaves ``seen`` alone,
    # so rules that ask when a player last acted (seed 001 1.2's week without a post) do not count it.
    activity: bool = True
    # Further rules that make this action, for one that serves several (Cycle 12's reaction completes a
    # terraforming or a survey): the action is out of the game only once every one of its rules the ruleset holds
    # is repealed (``withdrawn``); its check refuses what a repealed one of them made.
    also: tuple[str, ...] = ()
    # What was done, in words, for a page that tells of the action taken ("enacted": "Proposal 1, enacted by
    # Bruno" on the ruleset history); without it the page writes the summary.
    done: str = ""

    def param_names(self) -> list[str]:
        return list(self.params.get("properties", {}))


@dataclass(frozen=True)
class Event:
    """Something the rules make happen at a time, whether or not anyone acts.

    Most events keep a calendar (a weekly reset): ``next_time`` gives the first firing strictly after a
    time. An event whose moment the gamestate sets (a stay that ends twelve hours after a dance) gives
    ``next_due`` instead: the first firing strictly after a time, read from the state, or None when
    nothing is due. ``advance`` asks each event for its next firing only: of the state as time starts
    passing, and again of the state each firing leaves, so a firing that moves a later one (a proposal
    taking effect that changes a join time) is followed by that one at its new moment. ``next_due`` is
    asked often: keep it cheap, remembered for the documents it reads.
    """

    name: str
    rule: str
    next_time: Callable[[datetime], datetime] | None  # None: next_due says when
    apply: Effect
    summary: str = ""  # what happens, in words, without when: a page or `nomic due` gives the time beside it
    enabled: Callable[[State], bool] = lambda state: True
    next_due: Callable[[State, datetime], datetime | None] | None = None
    when: str = ""  # when it happens, in words ("Monday 00:00:00 UTC"), for a list of events that has no time

    def said(self) -> str:
        """When and what, for a list without a time of its own (the Actions page): "Monday 00:00:00 UTC: ..."."""
        return f"{self.when}: {self.summary}" if self.when and self.summary else self.summary or self.when

    def __post_init__(self) -> None:
        if (self.next_time is None) == (self.next_due is None):
            raise ValueError(f"event {self.name!r}: give exactly one of next_time and next_due")

    def after(self, state: State, t: datetime) -> datetime | None:
        """The first firing strictly after ``t``, or None."""
        if self.next_due is not None:
            return self.next_due(state, t)
        assert self.next_time is not None
        return self.next_time(t)


@dataclass(frozen=True)
class Founding:
    """A new game's founding (``nomic new``), for a document whose start is not the example's document as it
    stands: what the rules give a world at its start (a tally's initial value), or a date kept as far from the
    founding as the example's was from its own."""

    at: datetime  # the new game's founding
    example_at: datetime | None  # the example's founding (the clock of its initial/), or None without one
    example_doc: Any  # the example's document as it was founded (its initial/), or None without one
    # the example as it stands (configuration, documents, ruleset), for a start that depends on them: ifMUD's bubble
    # is the room its options name (Rule 29); None when not given
    example: Any = None


@dataclass(frozen=True)
class DocKind:
    name: str
    schema: str  # file name under schemas/
    summary: str = ""
    # The document for a new game started from this one (``nomic new``), given the example's document and the
    # founding time; None keeps it as it is. Who left is settled afterwards by the module's consequences.
    fresh: Callable[[Any, datetime], Any] | None = None
    # Instead of ``fresh``, when the new game's document needs the example's founding (see Founding): given the
    # example's document as it stands and the founding.
    fresh_founding: Callable[[Any, Founding], Any] | None = None
    # What the schema cannot say (one field against another: a die's winning face within its sides), asked of a
    # document its schema accepts: each (path inside the document, message). Wherever the schema is checked, so
    # are these: a file read (bad input at its line, ``schemas.limit_errors``) and a proposal's patch (refused).
    limits: Callable[[Any], Iterable[tuple[tuple[str | int, ...], str]]] | None = None


@dataclass(frozen=True)
class Page:
    """A wiki page a module draws from the state: Markdown, which may hold generated SVG or HTML.

    Everything a player typed must be escaped by the module (``html.escape``) before it goes in.
    ``source`` is the content file the page comes from (for the wiki's edit link), relative to the game.
    Pages of one kind in large numbers (a page per location or room) go in a folder, unlisted, and the
    module's listing page links to each with a Markdown link between page sources: ``locations/12.md``
    from ``world-map``, ``13.md`` from one location to another.
    """

    slug: str  # "line" -> games/<game>/line/; one folder is allowed: "locations/12" -> games/<game>/locations/12/
    title: str
    markdown: str
    source: str = ""
    listed: bool = True  # in the game's navigation; a page of many (one per location, say) is linked instead


@dataclass(frozen=True)
class Open:
    """Something up for a vote now (a proposal, a Call for Judgment), as a game's front page in the wiki lists it:
    what it is and its id, its title, who made it and when, how many have voted, and the page drawing it (a page's
    slug under the game, as ``Page.slug``) with the anchor of its place there, if any."""

    kind: str  # "Proposal", "Call for Judgment"
    ident: Any
    title: str
    author: str
    since: str  # the time it was made, as its document writes it
    votes: int
    page: str
    anchor: str = ""
    # why it takes no more votes though it is still pending, if so ("it reached Quorum at ..."): an admin resolves it
    over: str = ""
    # how the votes counted in ``votes`` split, in words, if the module says ("2 FOR, 2 AGAINST, the proposer's FOR
    # among them"): ``votes`` is the count its rules count, not the comments cast
    split: str = ""


@dataclass
class Module:
    """A family of rules: everything one ruleset adds to the engine."""

    name: str
    title: str
    docs: list[DocKind] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    consequences: list[Effect] = field(default_factory=list)
    gates: list[Check] = field(default_factory=list)
    invariants: list[Callable[[State], Iterable[Problem]]] = field(default_factory=list)
    # Who leads the game, for the leader check ("Expedition Leader", "GRAND POOBAH").
    leader: Callable[[State], str | None] | None = None
    # The game.yaml keywords this module's own texts are written in (its actions' and events' summaries, their
    # parameters' descriptions and docs): {"player": "Colonist", ...}. An Ascension Address may replace them (seed
    # 001 1.9, seed 003 rule 9); the wiki's Actions page writes the game's current keyword in their place.
    words: dict[str, str] = field(default_factory=dict)
    # The roster's column labels its texts are written in, by stat: {"stuff": "Stuffs"}. An Address replacing a word
    # renames a label holding it (seed 003 rule 9 names "Stuffs"); the Actions page writes the roster's label now.
    labels: dict[str, str] = field(default_factory=dict)
    # The whole-number roster stats whose fractional values are rounded down, each with the id of the rule that says so
    # ({"stuff": "stuffs"}: seed 003 rule 10). A proposal's (or CfJ's) patch writing 50.5 there gives 50, while that
    # rule is in force (``effects.clamp_stats``); elsewhere a fraction is a value of the wrong kind, and refused.
    round_down: dict[str, str] = field(default_factory=dict)
    # The wiki pages this module draws from a state (see Page).
    pages: Callable[[State], list[Page]] | None = None
    # A wiki page for one action of the log, drawn from its record and outcome (a dance, step by step) in the
    # words of the game's state now (its keywords), or None for actions that need no page of their own.
    action_page: Callable[[dict[str, Any], State], Page | None] | None = None
    # A JSON Schema for this module's options in game.yaml (options.<name>), checked when a game is read.
    options_schema: dict[str, Any] | None = None
    # What a player should know of a legal action they have just taken, though no rule forbids it: (its record, with
    # its outcome; the state before it; the state after it) -> sentences. ``nomic act`` says each as a note (a Cycle
    # 12 proposal whose vote ends after the cycle does will not take effect; a BlogNomic vote against one's own
    # proposal may not be changed); the check says nothing of them.
    advice: Callable[[dict[str, Any], State, State], list[str]] | None = None
    # What may be done now and by whom, for ``nomic due``: (state, now) -> lines.
    due: Callable[[State, datetime], list[str]] | None = None
    # What is up for a vote now, for the game's front page in the wiki (see Open), oldest first: (state, now), now
    # being the build's, the time a reader means by "now" (what is over by then is said so, as the Proposals page
    # judges its verdicts), never before the game's clock.
    open_votes: Callable[[State, datetime], list[Open]] | None = None
    # The players on the roster whom the module's rules do not count among its players (Settlement's Expedition
    # Leader: by Royal Blood, seed 001 2.1, no Colonist for the dynastic rules), each with why and what of their
    # stats, in words (plain text, the game's words), for the wiki: the front page and the roster count the others
    # and say why; the roster's row and the player's page say what of their stats.
    apart: Callable[[State], dict[str, tuple[str, str]]] | None = None
    # A player changes their name (ctx, old, new): the module's own documents follow. A module that keeps
    # players' names and has no such hook stops the change (see validators/roster.py, ``rename_player``).
    rename: Callable[["Ctx", str, str], None] | None = None
    # The names the module gave to beings it has since taken off the roster altogether, which the roster no longer
    # shows (Settlement's Outsiders who died): (name, whose it was, in words). They stay given (``used_names``).
    given_names: Callable[["Ctx"], Iterable[tuple[str, str]]] | None = None
    # A new game started from this one (``nomic new``): the options its founding time sets, in game.yaml's
    # configuration (config, founded, the example's own founding or None), such as the start of a cycle or a
    # date kept as far from the founding as the example's was.
    found: Callable[[dict[str, Any], datetime, datetime | None], None] | None = None
    # How a newcomer comes into a game whose rules have no join action (``nomic new``'s hint), in the module's
    # own terms; "" gives the general hint (a proposal's effects that add them to the roster).
    newcomer_hint: str = ""
    doc: str = ""


# ---------------------------------------------------------------- the context of one action


class Ctx:
    """What an action's check and effect see: the state, the actor, the parameters, the dice."""

    def __init__(self, state: State, action: Action, record: dict[str, Any], at: datetime,
                 modules: "Registry", dice: Dice | None = None):
        self.tx = Tx(state)
        self.action = action
        self.record = record
        self.actor: str = record.get("actor", "")
        self.params: dict[str, Any] = record.get("params") or {}
        self.at = at
        self.registry = modules
        self.dice = dice or Dice("", self.actor, action.name, 0)
        self.outcome: list[Any] = []

    # reading
    @property
    def state(self) -> State:
        return self.tx.view()

    @property
    def rules(self) -> dict[str, Rule]:
        """The ruleset as the action has left it so far (a proposal's effects may have changed it), without the
        view ``state`` merges."""
        return self.tx.rules if self.tx.rules is not None else self.tx.base.rules

    def doc(self, kind: str) -> Any:
        return self.tx.doc(kind)

    def edit(self, kind: str) -> Any:
        return self.tx.edit(kind)

    @property
    def config(self) -> dict[str, Any]:
        return self.tx.config if self.tx.config is not None else self.tx.base.config

    def option(self, module: str, name: str, default: Any = None) -> Any:
        return self.config.get("options", {}).get(module, {}).get(name, default)

    def keyword(self, key: str, default: str | None = None) -> str:
        return str(self.config.get("keywords", {}).get(key, default if default is not None else key))

    def players(self) -> list[dict[str, Any]]:
        return self.doc("roster")["players"]

    def player(self, name: str | None = None) -> dict[str, Any] | None:
        name = self.actor if name is None else name
        players = self.doc("roster")["players"]
        try:  # found by reading, in C; in an edited roster only that one is copied
            return players[indexOf(_names(peek(players)), name)]
        except ValueError:
            return None

    def edit_player(self, name: str | None = None) -> dict[str, Any]:
        name = self.actor if name is None else name
        players = self.edit("roster")["players"]
        try:  # found by reading, in C: only the one edited is copied
            i = indexOf(_names(peek(players)), name)
        except ValueError:
            raise Illegal(Problem(f"no player named {name!r}")) from None
        return players[i]

    def leader(self) -> str | None:
        return self.registry.leader(self.state)

    # acting
    def roll(self, sides: int) -> int:
        return self.dice.roll(sides)

    def step(self, entry: Any) -> None:
        """Record what happened, for the action file's ``outcome`` and the wiki's step-by-step pages."""
        self.outcome.append(entry)

    def renamed(self, new: str) -> None:
        """The actor now goes by ``new`` (an action that renames its actor): the consequences and the ledger
        (who was seen, the dice run, the limits) know them by it from here on."""
        self.actor = new

    def refuse(self, message: str, rule: str | None = None) -> "Illegal":
        """Stop the action as illegal: ``raise ctx.refuse("...")``."""
        return Illegal(Problem(message, rule=rule if rule is not None else self.action.rule))


# ---------------------------------------------------------------- registry


class Registry:
    """The modules a game uses, and their actions, events and documents by name."""

    def __init__(self, modules: Iterable[Module]):
        self.modules = [engine_module(), *modules]
        self.actions: dict[str, Action] = {}
        self.docs: dict[str, DocKind] = {}
        for m in self.modules:
            for a in m.actions:
                if a.name in self.actions:
                    raise ValueError(f"action {a.name} registered twice")
                self.actions[a.name] = a
            for d in m.docs:
                if d.name in self.docs:
                    raise ValueError(f"two modules of one game both define a document {d.name!r}")
                self.docs[d.name] = d

    @property
    def events(self) -> list[Event]:
        return [e for m in self.modules for e in m.events]

    def leader(self, state: State) -> str | None:
        for m in self.modules:
            if m.leader is not None:
                return m.leader(state)
        return None

    def unknown_action(self, name: str) -> str:
        import difflib

        close = difflib.get_close_matches(name, list(self.actions), n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        return (f"unknown action {name!r}: this game has no such action{hint} (nomic act GAME --list --as NAME shows "
                "them)")


# ---------------------------------------------------------------- time passing


def due_events(registry: Registry, state: State, after: datetime, until: datetime) -> list[tuple[datetime, Event]]:
    """The scheduled events that fall in (after, until], in time order (ties by registration): what ``nomic due``
    shows. They are found as ``advance`` fires them, each next firing asked of the state the previous one left,
    so a firing that moves or stops a later one (a cycle that ends, a proposal taking effect that moves another's
    end) is shown as it will happen, not as ``state`` alone plans it. Nothing is kept of the states they leave."""
    try:
        _, fired = _fire_due(registry, state, after, until)
    except Exception:  # noqa: BLE001 - an event that fails is the tick's to report; the preview plans instead
        return _planned_events(registry, state, after, until)
    by_name = {ev.name: ev for ev in registry.events}
    return [(parse_time(f["at"]), by_name[f["event"]]) for f in fired]


def _planned_events(registry: Registry, state: State, after: datetime,
                    until: datetime) -> list[tuple[datetime, Event]]:
    """The scheduled events in (after, until] as ``state`` alone plans them (none fired)."""
    out: list[tuple[datetime, int, Event]] = []
    for i, ev in enumerate(registry.events):
        if not ev.enabled(state) or repealed(state, ev.rule):
            continue
        t = ev.after(state, after)
        guard = 0
        while t is not None and t <= until and guard < 10000:
            out.append((t, i, ev))
            t = ev.after(state, t)
            guard += 1
    out.sort(key=lambda x: (x[0], x[1]))
    return [(t, ev) for t, _, ev in out]


_TICK = timedelta(microseconds=1)  # the finest step of a datetime: strictly after t - _TICK is at t or later


def _next_firing(events: list[Event], state: State, last: datetime, last_index: int,
                 until: datetime) -> tuple[datetime, int, Event] | None:
    """The first firing after the firing ``(last, last_index)``, in time order and then registration order,
    up to ``until``, as ``state`` plans it; or None. An event registered after the last one fired may still
    fire at that very moment; one registered before it (or the same one) fires strictly later."""
    best: tuple[datetime, int, Event] | None = None
    for i, ev in enumerate(events):
        if not ev.enabled(state) or repealed(state, ev.rule):  # a repealed rule's event no longer fires
            continue
        t = ev.after(state, last - _TICK if i > last_index else last)
        if t is None or t > until or t < last or (t == last and i <= last_index):
            continue  # nothing due in the gap (or a plan that does not move forward, ignored)
        if best is None or t < best[0]:
            best = (t, i, ev)
    return best


def advance(registry: Registry, state: State, until: datetime, *,
            stamp: bool = True) -> tuple[State, list[dict[str, Any]]]:
    """Apply every scheduled event between the state's clock and ``until``.

    The next firing is asked of the state the previous one left (not planned once as time starts passing),
    so an event or a proposal taking effect within the gap that moves a later event's moment (a join time,
    a proposal's end) has that event fire at its new moment, not at the next action.

    ``stamp=False``: leave the ledger's clock where it was (``apply_action`` sets it, with the rest of the
    ledger, once the action has been judged; nothing an action's rules read looks at the clock), so that
    a time in which nothing fell due costs no copy of the ledger and the state.
    """
    clock = state.now()
    if clock is None or until <= clock:
        return state, []
    state, fired = _fire_due(registry, state, clock, until)
    if not stamp:
        return state, fired
    ledger = dict(state.docs["ledger"])  # only its clock changes: a shallow copy is enough
    ledger["clock"] = format_time(until)
    return State(state.config, {**state.docs, "ledger": ledger}, state.rules), fired


def _fire_due(registry: Registry, state: State, clock: datetime,
              until: datetime) -> tuple[State, list[dict[str, Any]]]:
    """Fire every scheduled event in (clock, until], each next one asked of the state the last one left."""
    fired: list[dict[str, Any]] = []
    if until <= clock:
        return state, fired
    events = registry.events
    last, last_index, guard = clock, len(events), 0
    while guard < 10000 * max(1, len(events)):
        guard += 1
        nxt = _next_firing(events, state, last, last_index, until)
        if nxt is None:
            break
        t, last_index, ev = nxt
        last = t
        record = {"at": format_time(t), "actor": "", "action": ev.name, "params": {}}
        action = Action(name=ev.name, rule=ev.rule, summary=ev.summary)
        # an event's dice come from the chain and the event's time, so each firing rolls afresh
        dice = Dice(state.docs["ledger"].get("head", ""), "", f"{ev.name}@{format_time(t)}", 0)
        ctx = Ctx(state, action, record, t, registry, dice)
        ev.apply(ctx)
        for consequence in _consequences(registry, ctx):
            consequence(ctx)
        state = ctx.tx.commit()
        fired.append({"at": format_time(t), "event": ev.name, "rule": ev.rule, "outcome": recorded(ctx.outcome)})
    return state, fired


def _consequences(registry: Registry, ctx: Ctx) -> Iterator[Effect]:
    """Every module's consequences, in order, but those of a rule repealed (``ruled``) by the time each runs: a
    proposal whose effect repeals a rule stops that rule's consequences at once."""
    tx = ctx.tx
    for m in registry.modules:
        fns = m.consequences
        # while the action leaves the ruleset as it was, each is answered by the state's ruleset (``_running``,
        # remembered); once it has edited it (a proposal's effects, an event), each is asked as it comes
        for fn, on in zip(fns, _running(tx.base.rules, fns)):
            if on if tx.rules is None else runs(ctx, fn):
                yield fn


# ---------------------------------------------------------------- one action


@dataclass
class Applied:
    state: State
    dice: list[int]
    outcome: list[Any]
    events: list[dict[str, Any]]


def _problem(item: "str | Problem", rule: str) -> Problem:
    if isinstance(item, Problem):
        return item if item.rule else item.at(rule=rule)
    return Problem(str(item), rule=rule, kind=ILLEGAL)


def name_hint(state: State, name: str) -> str:
    """"; did you mean X?" for a name not on the roster: the roster's spelling of it in another case, the player
    whose name it begins (Zoe for Zoe Abbott), or the nearest name (Bort for Bart, as an unknown action gets)."""
    same = state.spelled(name)
    if same:
        return f"; did you mean {same}? (names are written as on the roster)"
    names = [str(p.get("name", "")) for p in state.players()]
    first = [n for n in names if n.casefold().startswith(name.strip().casefold() + " ")]
    if len(first) == 1 and name.strip():
        return f"; did you mean {first[0]}?"
    return did_you_mean(name, names)


def repealed(where: "State | Ctx", rule_id: str) -> Rule | None:
    """The rule ``rule_id`` names when the game's ruleset holds it repealed, else None. Of a ``Ctx``: the ruleset
    as the action has left it so far (a proposal whose effects repeal the rule has done so), read without
    merging a view; one dict lookup either way.

    What a rule makes (an action, a scheduled event) is part of the game only while the rule is: a proposal
    that repeals it takes its action and its events out of the game, and one that enacts it again brings them
    back. An action or event citing no rule of the ruleset (the engine's own, a citation in words) stands. What a
    rule makes inside another rule's code (a condition, a part of a function doing several rules' work) asks
    this before it applies; a whole consequence, gate or invariant is tied with ``ruled``."""
    return repealed_in(where.rules, rule_id)


def repealed_in(rules: Mapping[str, Rule], rule_id: str) -> Rule | None:
    """``repealed`` of a ruleset.

    A repealed rule whose very text a later rule enacted again (its ``carried_by``: a game whose new rules always
    take a new number, as ifMUD's Rule 9 has it) is in force while that later rule is, or while the rule carrying
    that one is, and so on (``carrier_in_force``; ``effects.apply_rule_edits``, ``carries``)."""
    rule = rules.get(rule_id)
    if rule is None or rule.meta.get("status") != "repealed":
        return None
    if rule.meta.get("carried_by") is None or carrier_in_force(rules, rule_id) is None:
        return rule
    return None


def carrier_in_force(rules: Mapping[str, Rule], rule_id: str) -> str | None:
    """The id of the rule in force whose text the repealed rule ``rule_id`` stands in, following ``carried_by``
    down a chain of repealed rules (a loop, or a rule the ruleset lacks, ends it); None when there is none, or the
    rule is not repealed."""
    rule = rules.get(rule_id)
    if rule is None or rule.meta.get("status") != "repealed":
        return None
    seen, by = {rule_id}, rule.meta.get("carried_by")
    while by is not None and by not in seen:
        carrier = rules.get(by)
        if carrier is None:
            return None
        if carrier.meta.get("status") != "repealed":
            return str(by)
        seen.add(by)
        by = carrier.meta.get("carried_by")
    return None


def too_often(action: Action, ledger: Mapping[str, Any], actor: str, at: datetime) -> str | None:
    """Why ``actor`` may not take ``action`` again at ``at`` by its limit of how often (``Action.frequency``, the
    ledger's ``recent`` takings), else None."""
    if not action.frequency:
        return None
    key = action.frequency_key or action.name
    previous = [parse_time(t) for t in ledger.get("recent", {}).get(actor, {}).get(key, [])]
    return frequency_violation(action.frequency, previous, at)


def withdrawn(state: "State | Ctx", action: Action) -> Rule | None:
    """The repealed rule to cite when ``action`` is out of the game, else None: its rule is repealed, and so is
    every further rule (``Action.also``) the ruleset holds."""
    gone = repealed(state, action.rule)
    if gone is None or any(r in state.rules and repealed(state, r) is None for r in action.also):
        return None
    return gone


def withdrawn_problem(gone: Rule, action: Action) -> Problem:
    return Problem(f"the rule that makes this action, {gone.cite()}, has been repealed: the action is no longer "
                   "part of the game", rule=action.rule)


def who_problems(registry: Registry, state: State, action: Action, actor: str) -> Iterator[Problem]:
    """Whether ``actor`` is somebody who may take ``action`` at all (whether the action is still a rule's is
    ``withdrawn``: the judge asks it again after the gates, which may change the ruleset)."""
    player = state.player(actor)
    who = action.who
    if who == NEWCOMER:
        if player is not None:
            yield Problem(f"{actor} is already on the roster", rule=action.rule)
        return
    if who == ANYONE and player is None:
        return
    if player is None:
        yield Problem(f"{actor!r} is not on the roster{name_hint(state, actor)}", rule=action.rule)
        return
    if player.get("idle") and not action.idle_ok:
        # the way back, which the idle player may not know is an action of their own (none while the rule that
        # makes it is repealed: it is no way back then)
        back = [a for a in registry.actions.values() if a.name.endswith(".unidle") and withdrawn(state, a) is None]
        hint = f" (come back first: {back[0].name})" if back else ""
        # cited to the rule that makes idle players no players (seed 001 1.2 Colonists, seed 003 rule 2: the rule of
        # the way back) when the game's ruleset holds it: that is the limit, not the action's own rule (an idle
        # admin may not enact because 1.2 does not count them, not because of 1.5)
        rule = back[0].rule if back and back[0].rule in state.rules else action.rule
        yield Problem(f"{actor} is idle; idle players may not take this action{hint}", rule=rule)
    if who == ADMIN and not player.get("admin"):
        yield Problem(f"{actor} is not an admin; only admins may take this action", rule=action.rule)
    if who == LEADER:
        leader = registry.leader(state)
        if leader != actor:
            yield Problem(f"only the {state.keyword('leader', 'leader')} ({leader or 'none'}) may take this action",
                          rule=action.rule)


def too_late(at: datetime, now: datetime | None) -> Problem | None:
    """Why an action dated ``at`` may not be taken when the time is ``now`` (G7 Time): it lies in the future.
    None when it does not, or with no ``now`` to judge by."""
    if now is None or at <= now:
        return None
    return Problem(f"dated {format_time(at)}, in the future (now is {format_time(now)})", field="at", rule="time")


def too_early(state: State, at: datetime) -> Problem | None:
    """Why an action dated ``at`` may not be taken in ``state`` for its time alone (G7 Time): before the last action
    or event, or, with no action yet, before the founding. None when its time is no bar."""
    clock = state.now()
    if clock is None or at >= clock:
        return None
    if not state.docs.get("ledger", {}).get("actions"):  # no action yet: the clock is the founding's (nomic new)
        return Problem(f"dated {format_time(at)}, before the game began ({format_time(clock)}, the clock its "
                       "founding state gives); a game's actions come after its founding", field="at", rule="time")
    return Problem(f"dated {format_time(at)}, before the last action or event ({format_time(clock)}); actions are "
                   "replayed in time order", field="at", rule="time")


def apply_action(registry: Registry, state: State, record: dict[str, Any], *,
                 validate_params: Callable[[Action, dict[str, Any]], Iterable[Problem]] | None = None,
                 dice: Dice | None = None) -> Applied:
    """Replay one action record on ``state``: time passes, it is judged, then it takes effect.

    Raises Illegal with every reason found, or BadInput for a malformed record.
    """
    from .problems import BadInput

    name = record.get("action", "")
    action = registry.actions.get(name) if isinstance(name, str) else None
    if action is None:
        raise BadInput(Problem(registry.unknown_action(name), field="action", kind=BAD_INPUT))
    try:
        at = parse_time(record.get("at", ""))
    except ValueError as e:
        raise BadInput(Problem(str(e), field="at", kind=BAD_INPUT)) from None
    if validate_params is not None:  # the record's shape and the action's parameter schema
        problems = list(validate_params(action, record))
        if problems:
            raise BadInput(problems)

    early = too_early(state, at)
    if early is not None:
        raise Illegal(early)
    state, fired = advance(registry, state, at, stamp=False)  # _update_ledger sets the clock

    actor = record.get("actor", "")
    ledger = state.docs["ledger"]
    if actor == ledger.get("run_actor"):
        head, k = ledger.get("run_head", ""), int(ledger.get("run_counts", {}).get(name, 0))
    else:
        head, k = ledger.get("head", ""), 0
    dice = dice or Dice(head, _dice_name(state, actor), name, k)
    ctx = Ctx(state, action, record, at, registry, dice)

    gone = withdrawn(state, action)
    problems = list(who_problems(registry, state, action, actor))
    if problems and gone is not None:
        problems = [withdrawn_problem(gone, action)]
    if not problems:
        for module in registry.modules:
            for gate in compress(module.gates, _running(state.rules, module.gates)):  # in_force, remembered
                problems.extend(_problem(p, getattr(gate, "rule", module.title)) for p in gate(ctx))
        if ctx.tx.rules is not None:
            # a gate let the module's own time run up to the action (ifMUD's settle: a ratified proposal taking
            # effect an hour after, Rule 10), and that changed the ruleset: whether the action is still (or again)
            # a rule's is judged by the ruleset as it stands at the action's time
            gone = withdrawn(ctx, action)
        if gone is not None:
            raise Illegal(withdrawn_problem(gone, action))
        why = too_often(action, ledger, actor, at)
        if why:
            problems.append(Problem(f"{action.frequency} action {why}", rule=action.rule))
    if not problems:
        problems.extend(_problem(p, action.rule) for p in action.check(ctx))
    if problems:
        raise Illegal(problems)

    action.effect(ctx)
    for consequence in _consequences(registry, ctx):
        consequence(ctx)

    _update_ledger(ctx, action, record, at, head, k)
    return Applied(ctx.tx.commit(), list(dice.rolled), recorded(ctx.outcome), fired)


def _update_ledger(ctx: Ctx, action: Action, record: dict[str, Any], at: datetime, head: str, k: int) -> None:
    """The ledger after the action: the run, the chain, the count, the clock, who was seen (not for a tick), recent
    takings.

    Every action changes the ledger, and only the engine usually does, last: so it is built here as plain
    data, copying only the parts that change, rather than through a copy-on-write edit that commit must then
    walk. If the action edited the ledger itself (commit and reveal do) or a part of it is not what the
    schema says, the copy-on-write edit below does it instead; the two give the same ledger.
    """
    tx = ctx.tx
    old = None if "ledger" in tx.docs else tx.base.docs.get("ledger")
    actor = ctx.actor
    old_recent = old.get("recent", _ABSENT) if type(old) is dict else None
    if (type(old) is not dict
            or (actor == old.get("run_actor") and type(old.get("run_counts")) is not dict)
            or ("seen" in old and type(old["seen"]) is not dict)
            or (old_recent is not _ABSENT and (type(old_recent) is not dict or (
                action.frequency and actor in old_recent and type(old_recent[actor]) is not dict)))):
        _update_ledger_copied(ctx, action, record, at, head, k)
        return
    # the previous state's ledger is never written: it and each part that changes are copied (in C)
    ledger = dict(old)
    if actor != ledger.get("run_actor"):
        ledger["run_actor"] = actor
        ledger["run_head"] = ledger.get("head", "")
        counts = ledger["run_counts"] = {}
    else:
        counts = ledger["run_counts"] = dict(ledger["run_counts"])
    counts[action.name] = k + 1
    ledger["head"] = chain(ledger.get("head", ""), record)
    ledger["actions"] = int(ledger.get("actions", 0)) + 1
    now = format_time(at)
    ledger["clock"] = now
    ledger["last"] = f"{record.get('at')} {record.get('actor', actor)} {action.name}"
    if action.activity:
        seen = ledger["seen"] = dict(ledger["seen"]) if "seen" in ledger else {}
        seen[actor] = now
    at - _RECENT  # even when unused, as in the edit below: a time too early for it fails alike
    if action.frequency or ledger.get("recent"):
        # the horizon as text only when there are takings to compare with it (most games limit no action)
        live = _live_since(at)
        if action.frequency:
            key = action.frequency_key or action.name
            recent = ledger["recent"] = dict(ledger["recent"]) if "recent" in ledger else {}
            mine = recent[actor] = dict(recent[actor]) if actor in recent else {}
            mine[key] = [t for t in mine.get(key, []) if live(t)] + [now]
        # forget limits that can no longer bite, so the ledger stays small; only the players' parts that change
        # are copied
        raw = ledger.get("recent")
        if raw:
            stale = _stale(raw, live)
            if stale:
                recent = ledger["recent"] = dict(raw)
                for who, keys in stale:
                    limits = dict(recent[who])
                    for key in keys:
                        kept = [t for t in limits[key] if live(t)]
                        if kept:
                            limits[key] = kept
                        else:
                            del limits[key]
                    if limits:
                        recent[who] = limits
                    else:
                        del recent[who]
    tx.docs["ledger"] = ledger


_RECENT = timedelta(days=8)  # how long a limited action's takings are kept: longer than any limit looks back


def _dice_name(state: State, actor: str) -> str:
    """The name in a player's dice seed: the one they first played under (a change of name keeps their run of dice,
    roster.rename_player, and a new name of their choosing would otherwise choose their next rolls)."""
    p = state.player(actor) if "roster" in state.docs else None
    earlier = p.get("formerly") if p is not None else None
    if isinstance(earlier, list) and earlier and isinstance(earlier[0], dict):
        return str(earlier[0].get("name", actor))
    return actor


def _update_ledger_copied(ctx: Ctx, action: Action, record: dict[str, Any], at: datetime, head: str,
                          k: int) -> None:
    """``_update_ledger`` through a copy-on-write edit, for a ledger the action edited itself."""
    ledger = ctx.edit("ledger")
    actor = ctx.actor
    if actor != ledger.get("run_actor"):
        ledger["run_actor"] = actor
        ledger["run_head"] = ledger.get("head", "")
        ledger["run_counts"] = {}
    ledger["run_counts"][action.name] = k + 1
    ledger["head"] = chain(ledger.get("head", ""), record)
    ledger["actions"] = int(ledger.get("actions", 0)) + 1
    ledger["clock"] = format_time(at)
    ledger["last"] = f"{record.get('at')} {record.get('actor', actor)} {action.name}"
    if action.activity:
        ledger.setdefault("seen", {})[actor] = format_time(at)
    live = _live_since(at)
    if action.frequency:
        key = action.frequency_key or action.name
        recent = ledger.setdefault("recent", {}).setdefault(actor, {})
        times = recent.get(key, [])
        recent[key] = [t for t in times if live(t)] + [format_time(at)]
    # forget limits that can no longer bite, so the ledger stays small; read without copying, write what changes
    raw = dict.get(ledger, "recent")
    if raw:
        stale = _stale(raw, live)
        if stale:
            recent = ledger["recent"]
            for who, keys in stale:
                for key in keys:
                    kept = [t for t in recent[who][key] if live(t)]
                    if kept:
                        recent[who][key] = kept
                    else:
                        del recent[who][key]
                if not recent[who]:
                    del recent[who]


_CANONICAL_TIME = __import__("re").compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$")


def _live_since(at: datetime) -> Callable[[Any], bool]:
    """Whether a recorded taking is still within the eight days kept before ``at`` (the horizon, as text, is the
    function's ``horizon``)."""
    horizon = at - _RECENT
    horizon_text = format_time(horizon)

    def live(t: Any) -> bool:
        # canonical times (what the ledger's schema allows) compare as text; anything else is parsed
        if isinstance(t, str) and len(t) == 20 and _CANONICAL_TIME.match(t):
            return t >= horizon_text
        return parse_time(t) >= horizon

    live.horizon = horizon_text  # type: ignore[attr-defined]
    return live


_NEVER_STALE = "\uffff"  # above every canonical time: a player whose limits hold no taking has none to forget
_OLDEST = Remembered(4096)  # a player's takings, or all players' -> the oldest taking, or None (see ``_oldest``)


def _oldest(limits: Any) -> str | None:
    """The oldest taking a player's limits hold (canonical text, comparable with ``live.horizon``), remembered
    for that very dict: the ledger's other players' limits are the previous state's own, so each action walks only
    what it wrote. None when the limits are empty or anything in them is not a list of canonical times: the
    caller then looks at each taking, as ``live`` does. Only a plain dict is remembered: a transaction's copy
    may still change."""
    plain = type(limits) is dict
    if plain:
        oldest = _OLDEST.get(limits)
        if oldest is not Remembered.MISSING:
            return oldest
    oldest = None
    if isinstance(limits, dict) and limits:
        lists = list(dict.values(limits))
        times = [t for ts in lists if type(ts) is list for t in ts]
        if all(type(ts) is list for ts in lists) and all(
                type(t) is str and len(t) == 20 and _CANONICAL_TIME.match(t) for t in times):
            oldest = min(times) if times else _NEVER_STALE
    return _OLDEST.put(limits, oldest) if plain else oldest


def _stale(raw: dict, live: Callable[[Any], bool]) -> list[tuple[Any, list[Any]]]:
    """Each player of the recent takings with the limits holding a taking no longer live (read without copying),
    and each player left with no limit at all.

    Most actions forget nothing: the oldest taking of all (remembered for the very ``raw`` dict, from each
    player's, see ``_oldest``) is compared with the horizon first, and only a player whose own oldest is older
    (or unknown) has each taking looked at."""
    horizon = live.horizon  # type: ignore[attr-defined]
    overall = _OLDEST.get(raw) if type(raw) is dict else Remembered.MISSING
    if overall is Remembered.MISSING:
        olds = [_oldest(limits) for limits in dict.values(raw)]
        overall = None if None in olds else min(olds, default=_NEVER_STALE)
        if type(raw) is dict:
            _OLDEST.put(raw, overall)
    if overall is not None and overall >= horizon:
        return []
    out = []
    for who, limits in dict.items(raw):
        oldest = _oldest(limits)
        if oldest is not None and oldest >= horizon:
            continue
        keys = [key for key, times in dict.items(limits) if not all(live(t) for t in times)]
        if keys or not dict.__len__(limits):
            out.append((who, keys))
    return out


# ---------------------------------------------------------------- the engine's own actions

TICK = Action(
    name="engine.tick",
    done="time passed (scheduled events applied)",
    rule="scheduled events",
    summary="Let time pass: apply every scheduled event that has fallen due",
    who=ANYONE,
    idle_ok=True,
    in_hiatus=True,
    activity=False,
    doc="Any player may file a tick; it changes nothing but the scheduled events due by its time (and the "
        "ledger's clock and count: it is no activity, so when its filer last acted stays as it was). "
        "A scheduled workflow runs `nomic tick` on main.",
)

_ENGINE: list[Module] = []


def engine_module() -> Module:
    """The engine's own actions, part of every game: the tick, and commit-and-reveal."""
    if not _ENGINE:
        from .secrets import ACTIONS as SECRET_ACTIONS

        _ENGINE.append(Module(name="engine", title="Engine", actions=[TICK, *SECRET_ACTIONS]))
    return _ENGINE[0]
