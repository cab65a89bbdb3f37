"""Shared pieces: options, documents, phases of a moment, reputability, entities and places."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from itertools import compress
from operator import is_, is_not
from typing import Any

from ...engine import Ctx, State, peek, repealed
from ...timeutil import parse_time
from . import phases
from .options import cycle_start, options

PROPOSALS = "cycle12_proposals"
SHEETS = "cycle12_sheets"
WORLD = "cycle12_world"
NOMSTERS = "cycle12_nomsters"
ITEMS = "cycle12_items"
MEDALS = "cycle12_medals"
JUSTICE = "cycle12_justice"
CYCLE = "cycle12_cycle"

NOMSTER_REF = "nomster:"
RULE_LOCATED = "located-entities"
RULE_ITEM_ACTIONS = "item-actions"


def opts(state: State | Ctx) -> dict[str, Any]:
    return options(state.config)


def start(state: State | Ctx) -> datetime:
    return cycle_start(state.config)


_PHASE_OF: tuple[Any, ...] = (None, None, 0)  # (moment, cycle start, phase) of the last question


def phase_of(state: State | Ctx, t: datetime) -> int:
    """The phase of ``t`` (an action asks it of its own time several times: the last answer is kept)."""
    global _PHASE_OF
    first = start(state)
    last_t, last_first, n = _PHASE_OF
    if t is last_t and first is last_first:  # the very same (unchangeable) datetimes
        return n
    n = phases.phase_number(t, first)
    _PHASE_OF = (t, first, n)
    return n


def roman_phase(state: State | Ctx, t: datetime) -> str:
    n = phase_of(state, t)
    return phases.phase_name(n) if n else "before the cycle"


def is_reputable(state: State | Ctx, name: str, now: datetime) -> bool:
    """Reputability: a player continuously for the last seven days, or since within three days of the start.

    A player's ``joined`` time is when their current, continuous membership began
    (leaving and rejoining starts a new one).
    """
    p = state.player(name)
    if p is None:
        return False
    o = opts(state)
    joined = parse_time(p["joined"])
    if joined > now:
        return False
    return now - joined >= timedelta(days=o["reputable_days"]) or \
        joined <= start(state) + timedelta(days=o["reputable_founding_days"])


def member_since(state: State | Ctx, name: Any, when: Any) -> bool:
    """Whether ``name`` is a player whose current membership began by ``when`` (a time, or its text): the one who
    did what a record of that moment says ``name`` did. A player of that name who joined after it is a newcomer,
    someone else (our reading, docs/modules/cycle12.md: a newcomer of a departed player's name is someone else),
    as Proposal Points has it for the author's point. A record or a ``joined`` that is no time is not judged."""
    p = state.player(name) if isinstance(name, str) else None
    if p is None:
        return False
    joined = p.get("joined")
    if not isinstance(joined, str):
        return True
    if isinstance(when, str):
        try:
            when = parse_time(when)
        except ValueError:
            return True
    return not isinstance(when, datetime) or parse_time(joined) <= when


def departed(ctx: Ctx) -> frozenset[Any]:
    """The players this action took off the roster (a proposal's changes, the module's only departure): names on
    the roster before it and not after, and names whose entry after it is a new membership (``new_membership``: the
    changes removed the player and put someone else of the name on the roster, ``replaced``). Nothing is read unless
    the action edited the roster, and an entry the action left as it was (the very object) is not compared."""
    if "roster" not in ctx.tx.docs:
        return frozenset()

    def entries(state: Any) -> dict[Any, Any]:
        out: dict[Any, Any] = {}
        for p in peek(state.doc("roster")["players"]):
            if isinstance(p, dict):
                out.setdefault(p.get("name"), p)  # the first of a name, as ctx.player finds it
        return out

    after = entries(ctx)
    return frozenset(name for name, p in entries(ctx.tx.base).items()
                     if name not in after or (after[name] is not p and new_membership(p, after[name])))


def replaced(ctx: Ctx) -> frozenset[Any]:
    """The players this action's changes put someone else in the place of: departed (``departed``), yet their name is
    on the roster, in an entry of a new membership (``new_membership``). 004 Joining makes whoever joins a new player,
    so the newcomer inherits nothing the departed player had (our reading, docs/modules/cycle12.md). Nothing is read
    unless the action edited the roster."""
    return frozenset(name for name in departed(ctx) if ctx.player(name) is not None)


def as_it_was(ctx: Ctx, kind: str, key: str) -> Callable[[Any], bool]:
    """Whether a record of ``ctx.doc(kind)[key]`` is the very record the action started from: not one the action
    wrote (copy on write gives a written record, and only that, a new object). A record the changes rewrote is what
    they say; one they left as it was is what was there before."""
    if kind not in ctx.tx.docs:
        return lambda record: True
    before = ctx.tx.base.doc(kind).get(key)
    kept = {id(x) for x in peek(before)} if isinstance(before, list) else set()
    return lambda record: id(record) in kept


def new_membership(old: dict[str, Any], new: dict[str, Any]) -> bool:
    """Whether roster entry ``new`` of a player's name is someone else than ``old`` (our reading,
    docs/modules/cycle12.md): its ``joined``, the start of the current continuous membership, is later than the old
    entry's (a membership began after the old one's: that one ended), or both name a forge ``account`` and they
    differ. A ``joined`` moved earlier, or any other field rewritten, is the same player. A time that does not read
    as one is not judged."""
    a, b = old.get("account"), new.get("account")
    if isinstance(a, str) and isinstance(b, str) and a and b and a.lower() != b.lower():
        return True
    j, k = old.get("joined"), new.get("joined")
    if not (isinstance(j, str) and isinstance(k, str)) or j == k:
        return False
    try:
        return parse_time(k) > parse_time(j)
    except ValueError:
        return False


# ---------------------------------------------------------------- remembering


class BaseMemo:
    """One value computed from documents of the state an action started from, kept for the next action.

    A state is never changed once made (the engine copies on write, and the previous state is never
    written), so while those very documents are what an action sees (it has not edited them: they are
    not in ``ctx.tx.docs``) the value computed from them still holds. Most actions leave most documents
    alone, so a check run after every action need not read them again. The key holds the documents
    themselves (not their ids), so they cannot be freed and another object take their place.

    Use it only with the context of an action or an event, whose base is a whole state; not inside a
    proposal's sandbox, whose base is a transaction's view (documents that may still change).
    """

    __slots__ = ("_kept",)

    def __init__(self) -> None:
        self._kept: tuple[tuple[Any, ...], Any] = ((), None)  # (documents, value), replaced as one

    def get(self, ctx: Ctx, kinds: tuple[str, ...], compute: Callable[[], Any]) -> Any:
        tx = ctx.tx
        if tx.config is not None or not tx.docs.keys().isdisjoint(kinds):
            return compute()  # edited in this action: read afresh, and not kept
        docs = tx.base.docs
        key = (tx.base.config, *map(docs.__getitem__, kinds))
        old, value = self._kept
        if len(old) == len(key) and all(map(is_, old, key)):
            return value
        value = compute()
        self._kept = (key, value)
        return value


# ---------------------------------------------------------------- sheets


# Lists are searched with ``peek`` (nothing is copied on the way) and the item found is then taken by
# its index, so that in a document the action edits only that item is copied, and what the caller gets
# is the transaction's own (as iterating the list would give, which copies every item).


def index_of(items: list[dict[str, Any]], key: str, value: Any) -> int:
    """The index of the first item whose ``key`` is ``value`` (-1 if none); reads without copying."""
    for i, x in enumerate(peek(items)):
        if x[key] == value:
            return i
    return -1


def sheet(state: State | Ctx, name: str) -> dict[str, Any] | None:
    sheets = state.doc(SHEETS)["sheets"]
    i = find_by(state, sheets, SHEETS_BY_PLAYER, "player", name)
    return sheets[i] if i >= 0 else None


def has_ascended(state: State | Ctx, name: str) -> bool:
    """Whether the player ``name`` has ascended (004 Ascend). The module reads ascension as the player leaving
    the map with their nomster (docs/modules/cycle12.md, readings): an ascended player is at no location.
    That reading is seed 004 "Ascend"'s: with the rule repealed, a player recorded as ascended is back on the
    map, at the location their sheet keeps (the Tower of Ferrets)."""
    return bool((sheet(state, name) or {}).get("ascended")) and not repealed(state, "ascend")


def left_the_map(who: str) -> str:
    """The one wording of every refusal that ascension causes (see ``has_ascended``)."""
    return f"{who} has ascended and left the map"


def edit_sheet(ctx: Ctx, name: str) -> dict[str, Any]:
    sheets, i = found_for_edit(ctx, SHEETS, "sheets", SHEETS_BY_PLAYER, "player", name)
    if i >= 0:
        return sheets[i]
    raise ctx.refuse(f"{name} has no character sheet")


def touch_sheet(ctx: Ctx, name: str) -> dict[str, Any]:
    """Self-Updating: an action that changes a tracked value gives its player a new sheet version."""
    s = edit_sheet(ctx, name)
    s["version"] = int(s.get("version", 1)) + 1
    s["updated"] = iso(ctx.at)
    return s


def touch_sheet_once(ctx: Ctx, name: str) -> dict[str, Any]:
    """``touch_sheet`` for a change that may come on top of the action's own (a medal the action earns).

    Self-Updating asks for one new sheet showing everything the actions change, so a sheet this action
    (or event) has already given a new version keeps it.
    """
    s = edit_sheet(ctx, name)
    before = sheet(ctx.tx.base, name)
    if before is not None and s.get("version", 1) != before.get("version", 1):
        return s
    return touch_sheet(ctx, name)


# ---------------------------------------------------------------- places


def locations(state: State | Ctx) -> list[dict[str, Any]]:
    return state.doc(WORLD)["locations"]


# ---------------------------------------------------------------- indexes kept from one action to the next


class Kept:
    """An index of the items of a list, {key: position of the first item with that key}, kept with the very list
    it was made from, and brought up to date for the next list of the same kind.

    Only for a plain list of a state (never changed once made: the engine copies on write, and a list an
    action edits is a copy, for which ``of`` answers None and the caller scans instead). Most actions leave
    a list alone or change a few of its items in place: the next state's list then holds the same item
    objects at the same places, except the few changed and any appended, so the index is brought up to
    date by comparing items by identity (in C) and looking only at those; it is rebuilt when items were
    removed, or the first item with a key no longer has it.

    ``keys(item)`` gives the item's keys (a tuple, often of one); ``multi``: the index gives every position
    with the key (a tuple, in order) instead of the first. An item whose keys cannot be read or hashed
    makes the index None for that list (the caller scans, and fails or not where the scan would).
    ``along``: another index of the same lists; indexes kept along each other move to a new list together,
    so the lists are compared once.
    """

    __slots__ = ("_bad", "_group", "_index", "_items", "keys", "multi")

    def __init__(self, keys: Callable[[Any], tuple[Any, ...]], multi: bool = False,
                 along: Kept | None = None) -> None:
        self.keys = keys
        self.multi = multi
        self._items: list[Any] | None = None
        self._index: dict[Any, Any] | None = None
        self._bad: tuple[int, Any] | None = None  # where the index of ``_items`` could not be made
        self._group: list[Kept] = along._group if along is not None else []
        self._group.append(self)

    def of(self, state: Any, items: Any) -> dict[Any, Any] | None:
        """The index of ``items``, read from ``state``; None unless ``state`` is an action's or an event's
        context and ``items`` a plain list (outside a context, a caller's data may change in place)."""
        if type(items) is not list or not isinstance(state, Ctx):
            return None
        if items is not self._items:
            for kept in self._group:
                if kept._items is not items:
                    kept._index = kept._refresh(items)
                    kept._items = items
        return self._index

    def _refresh(self, items: list[Any]) -> dict[Any, Any] | None:
        old, index, keys, multi = self._items, self._index, self.keys, self.multi
        if index is None:
            bad = self._bad
            if bad is not None and bad[0] < len(items) and items[bad[0]] is bad[1]:
                return None  # the item whose keys could not be read is still there
            return self._build(items)
        if old is None or len(items) < len(old):
            return self._build(items)
        n = len(old)
        at = -1
        try:
            changed = _changed(old, items)
            if len(changed) > 16 + n // 8:
                return self._build(items)
            edits = []
            for at in changed:
                before, after = keys(old[at]), keys(items[at])
                if before != after:
                    edits.append((at, before, after))
            if not edits and len(items) == n:
                return index  # the same keys at the same places
            index = dict(index)  # the old list's index stays as it was
            for at, before, after in edits:  # in order of position
                i = at
                for k in before:
                    if multi:
                        rest = tuple(j for j in index[k] if j != i)
                        if rest:
                            index[k] = rest
                        else:
                            del index[k]
                    elif index.get(k) == i:
                        return self._build(items)  # the first item with that key no longer has it
                for k in after:
                    if multi:
                        got = index.get(k, ())
                        if i not in got:
                            index[k] = tuple(sorted((*got, i)))
                    elif k not in index or index[k] > i:
                        index[k] = i
            for at in range(n, len(items)):
                for k in keys(items[at]):
                    if multi:
                        got = index.get(k, ())
                        if not got or got[-1] != at:
                            index[k] = (*got, at)
                    elif k not in index:
                        index[k] = at
        except (TypeError, KeyError, AttributeError, ValueError):
            self._bad = (at, items[at]) if 0 <= at < len(items) else None
            return None
        return index

    def _build(self, items: list[Any]) -> dict[Any, Any] | None:
        keys = self.keys
        i = -1
        try:
            if self.multi:
                lists: dict[Any, list[int]] = {}
                for i, x in enumerate(items):
                    for k in keys(x):
                        got = lists.get(k)
                        if got is None:
                            lists[k] = [i]
                        elif got[-1] != i:
                            got.append(i)
                return {k: tuple(v) for k, v in lists.items()}
            index: dict[Any, int] = {}
            for i, x in enumerate(items):
                for k in keys(x):
                    if k not in index:
                        index[k] = i
            return index
        except (TypeError, KeyError, AttributeError, ValueError):
            self._bad = (i, items[i]) if 0 <= i < len(items) else None
            return None


def positions_changed(old: list[Any], new: list[Any]) -> tuple[int, ...]:
    """The positions below ``min(len(old), len(new))`` where ``new`` holds another object than ``old`` (in C)."""
    return tuple(compress(range(len(old)), map(is_not, old, new))) if any(map(is_not, old, new)) else ()


_DIFFS: dict[tuple[int, int], tuple[Any, Any, tuple[int, ...]]] = {}  # the last few comparisons


def _changed(old: list[Any], new: list[Any]) -> tuple[int, ...]:
    """The positions below ``len(old)`` where ``new`` holds another object than ``old``. The indexes of one
    list ask the same of the same two lists, so the last few answers are kept (with the lists themselves,
    so that their ids are not another's)."""
    key = (id(old), id(new))
    known = _DIFFS.get(key)
    if known is not None and known[0] is old and known[1] is new:
        return known[2]
    positions = positions_changed(old, new)
    if len(_DIFFS) >= 8:
        del _DIFFS[next(iter(_DIFFS))]
    _DIFFS[key] = (old, new, positions)
    return positions


def find_by(state: Any, items: list[dict[str, Any]], kept: Kept, key: str, value: Any) -> int:
    """``index_of(items, key, value)``, answered by ``kept`` (an index by ``item[key]``) when it can."""
    index = kept.of(state, items)
    if index is not None:
        try:
            return index.get(value, -1)
        except TypeError:  # an unhashable value: equal to no key
            return -1
    return index_of(items, key, value)


def found_for_edit(ctx: Ctx, kind: str, field: str, kept: Kept, key: str, value: Any) -> tuple[Any, int]:
    """``ctx.edit(kind)[field]`` and the index in it of the first item whose ``key`` is ``value`` (-1 if none).

    When the action has not edited the document yet, its copy is made from the state's own list and holds
    the same items in the same places: the index is then found in that plain list, by ``kept``.
    """
    if kind not in ctx.tx.docs:
        i = find_by(ctx, ctx.doc(kind)[field], kept, key, value)
        return ctx.edit(kind)[field], i
    items = ctx.edit(kind)[field]
    return items, index_of(items, key, value)


SHEETS_BY_PLAYER = Kept(lambda s: (s["player"],))
NOMSTERS_BY_ID = Kept(lambda n: (n["id"],))
# only tame nomsters have names (004 Tame Nomsters): a wild one is found by no name, not even an empty one
NOMSTERS_BY_NAME = Kept(lambda n: (n["name"].casefold(),) if n.get("name") else ())  # asked less often: by itself
# Only by id, by name and by coordinates: locations are sought by all three (a move's ``to``).
LOCATIONS_BY_ID = Kept(lambda loc: (loc["id"],))
LOCATIONS_BY_NAME = Kept(lambda loc: (loc["name"].casefold(),), along=LOCATIONS_BY_ID)


def _grid_point(loc: dict[str, Any]) -> tuple[tuple[int, int]]:
    x, y = loc["x"], loc["y"]
    if type(x) is not int or type(y) is not int:
        raise TypeError("coordinates that are not whole numbers: the map is scanned")
    return ((x, y),)


# only for a map of whole-number coordinates (what a valid one holds)
LOCATIONS_BY_XY = Kept(_grid_point, along=LOCATIONS_BY_ID)
_LOCATION_INDEXES = {"id": LOCATIONS_BY_ID, "name": LOCATIONS_BY_NAME}


def location_index(state: State | Ctx, field: str) -> dict[Any, int] | None:
    """{key: index of the first location with it} by ``field`` ("id", or "name" casefolded), or None where
    the locations must be scanned instead: outside an action's context, in a map the action edits, or in
    one where a key is not what a valid map holds."""
    return _LOCATION_INDEXES[field].of(state, locations(state))


def location_by_id(state: State | Ctx, ident: int) -> dict[str, Any] | None:
    locs = locations(state)
    index = location_index(state, "id") if type(ident) is int else None
    i = index.get(ident, -1) if index is not None else index_of(locs, "id", ident)
    return locs[i] if i >= 0 else None


def location_at(state: State | Ctx, x: int, y: int) -> dict[str, Any] | None:
    locs = locations(state)
    index = LOCATIONS_BY_XY.of(state, locs) if type(x) is int and type(y) is int else None
    if index is not None:
        i = index.get((x, y), -1)
        return locs[i] if i >= 0 else None
    for i, loc in enumerate(peek(locs)):
        if loc["x"] == x and loc["y"] == y:
            return locs[i]
    return None


def find_location(ctx: Ctx, ref: Any) -> dict[str, Any]:
    """A location named by its name, its id, or its coordinates [x, y]."""
    if isinstance(ref, list) and len(ref) == 2:
        loc = location_at(ctx, int(ref[0]), int(ref[1]))
    elif isinstance(ref, int):
        loc = location_by_id(ctx, ref)
    else:
        locs, name = locations(ctx), str(ref).casefold()
        index = location_index(ctx, "name")
        if index is not None:
            i = index.get(name, -1)
        else:
            i = next((i for i, x in enumerate(peek(locs)) if x["name"].casefold() == name), -1)
        loc = locs[i] if i >= 0 else None
    if loc is None:
        raise ctx.refuse(f"there is no location {ref!r}")
    return loc


def adjacent(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Tiles: adjacent orthogonally."""
    return abs(a["x"] - b["x"]) + abs(a["y"] - b["y"]) == 1


def where(state: State | Ctx, entity: str) -> int | None:
    """The location id of a located entity (a player's name, or ``nomster:<id>``)."""
    # only read, so nothing is copied: the location is a number
    if entity.startswith(NOMSTER_REF):
        ident = int(entity[len(NOMSTER_REF):])
        pool = state.doc(NOMSTERS)["nomsters"]
        i = find_by(state, pool, NOMSTERS_BY_ID, "id", ident)
        return dict.__getitem__(list.__getitem__(pool, i), "location") if i >= 0 else None
    sheets = state.doc(SHEETS)["sheets"]
    i = find_by(state, sheets, SHEETS_BY_PLAYER, "player", entity)
    return dict.get(list.__getitem__(sheets, i), "location") if i >= 0 else None


def apart(state: State | Ctx, a: str, b: str) -> str | None:
    """Why located entities ``a`` and ``b`` are not in one location, or None when they are. 004 Item Actions
    (and Cuddle, Lick, Teams...) ask for "the same location": an entity at no location (a player before the
    first location exists) is in none, so it is with nobody, not even another entity that is nowhere."""
    la, lb = where(state, a), where(state, b)
    nowhere = [who for who, loc in ((a, la), (b, lb)) if loc is None]
    if nowhere:
        return f"{' and '.join(nowhere)} {'are' if len(nowhere) > 1 else 'is'} at no location"
    if la != lb:
        return f"{a} is at {place_name(state, la)} and {b} at {place_name(state, lb)}"
    return None


def players_located(state: State | Ctx) -> bool:
    """Whether players are located entities. 004 Located Entities is the rule that says so (and gives them the
    location at (0, 0) to start at); repealed, no rule does: a player keeps the location on their sheet, but nobody
    starts anywhere and Item Actions no longer binds a player (our reading, docs/modules/cycle12.md)."""
    return not repealed(state, RULE_LOCATED)


def item_apart(state: State | Ctx, a: str, b: str) -> str | None:
    """Why 004 Item Actions keeps ``a`` from giving to or taking from ``b`` (they are not in one location), None
    when it does not. That rule binds a located entity giving to or taking from another located entity, so it
    binds nobody once repealed, and no pair with a player in it once Located Entities is repealed."""
    if repealed(state, RULE_ITEM_ACTIONS):
        return None
    if not (a.startswith(NOMSTER_REF) and b.startswith(NOMSTER_REF)) and not players_located(state):
        return None
    return apart(state, a, b)


def place_name(state: State | Ctx, loc_id: int | None) -> str:
    loc = location_by_id(state, loc_id) if loc_id is not None else None
    return loc["name"] if loc else "no location"


# ---------------------------------------------------------------- nomsters


def nomster(state: State | Ctx, ident: int) -> dict[str, Any] | None:
    pool = state.doc(NOMSTERS)["nomsters"]
    i = find_by(state, pool, NOMSTERS_BY_ID, "id", ident)
    return pool[i] if i >= 0 else None


def _nomster_at(ctx: Ctx, pool: list[dict[str, Any]], ref: Any) -> int:
    if isinstance(ref, int):
        return find_by(ctx, pool, NOMSTERS_BY_ID, "id", ref)
    if isinstance(ref, str):
        name = ref.casefold()
        if not name:
            return -1  # a blank name names no nomster (a wild one has none to be named by)
        index = NOMSTERS_BY_NAME.of(ctx, pool)
        if index is not None:
            return index.get(name, -1)
        return next((i for i, n in enumerate(peek(pool)) if n.get("name") and n["name"].casefold() == name), -1)
    return -1


def find_nomster(ctx: Ctx, ref: Any, *, edit: bool = False) -> dict[str, Any]:
    """A nomster by id (an integer) or, for a tame one, its name (found by the kept indexes of the state's list)."""
    if edit and NOMSTERS in ctx.tx.docs:
        pool = ctx.edit(NOMSTERS)["nomsters"]
        i = _nomster_at(ctx, pool, ref)
    else:
        pool = ctx.doc(NOMSTERS)["nomsters"]
        i = _nomster_at(ctx, pool, ref)
        if edit:  # a copy of that very list, made now: the same items in the same places
            pool = ctx.edit(NOMSTERS)["nomsters"]
    if i >= 0:
        return pool[i]
    raise ctx.refuse(f"there is no nomster {ref!r}")


def nomster_label(n: dict[str, Any]) -> str:
    if n.get("name"):
        return f"{n['name']} (#{n['id']})"
    return f"wild {n['type']} {n['class']} #{n['id']}"


def team(state: State | Ctx, player: str) -> list[dict[str, Any]]:
    return [n for n in state.doc(NOMSTERS)["nomsters"] if n.get("trainer") == player]


_ISO: tuple[Any, str] = (None, "")  # the last time written, and its text


def iso(t: datetime) -> str:
    global _ISO
    last, text = _ISO
    if t is last:  # an action writes its own time several times
        return text
    text = t.strftime("%Y-%m-%dT%H:%M:%SZ")
    _ISO = (t, text)
    return text


def first_after(times: Sequence[datetime], after: datetime) -> datetime | None:
    """The first of the sorted ``times`` strictly after ``after``, or None: when an event read from the
    gamestate (an urgent proposal's end, a vote of confidence's end) next falls due."""
    i = bisect_right(times, after)
    return times[i] if i < len(times) else None
