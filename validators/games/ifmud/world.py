"""Reading and changing ifMUD Nomic's world: rooms, connections, where things are, tallies.

Every change of location goes through this file, so the rules that fire "whenever"
something enters a room (tolls, Rule 43; brownie points for moving, Rule 99; the
bubble, Rule 29; the pie bomb, Rule 118; the Bottle Imp, Rule 149) fire for every way
of getting there.
"""

from __future__ import annotations

import copy
import math
import operator
from collections.abc import Iterator
from datetime import datetime
from itertools import compress, repeat
from typing import Any

from ...engine import Ctx, State, peek, repealed
from ...problems import Illegal, Problem
from ...timeutil import format_time
from . import changes as ch
from .order import DEFAULT_DICE, alphabetical_extreme, random_selection, standard_order

# The rooms the rules name. A game may rename them with options.ifmud.rooms.
ROOMS = {
    "lounge": "Lounge",  # Rules 14, 29, 62, 155
    "crescent": "Mornington Crescent",  # Rule 16
    "attic": "Attic",  # Rule 49
    "saturn": "Saturn",  # Rule 53
    "quarters": "Servants' Quarters",  # Rules 44, 52, 88, 131
    "zrblm": "Zrblm",  # Rule 36
    "bubble": "Dot-Com Bubble",  # Rule 29
    "nowhere": "West of Nowhere",  # Rule 57
    "heath": "Blasted Heath",  # Rules 109, 152
    "cpu": "Embedded CPU",  # Rules 101, 155, 157
    "park": "Central Park",  # Rules 71, 114
    "commons": "The House of Commons",  # Rule 80
    "jaws": "Jaws of Death",  # Rule 154
}

ENTITIES = ("monkey", "pieman", "omnibus", "robot", "kitten")
BROWNIE, DEMERITS, PUISSANCE, LOCATION, GIFTS = "brownie", "demerits", "puissance", "location", "gifts"

# Reading without copying. A document the action edited is copied on write (validators/engine.py), and
# reading it the ordinary way copies each container reached. The helpers below find things with these raw
# reads (which see the same values) and only then index the list for the item they return, so a search
# copies just what it finds. What the raw reads give must never be written to.
_get = dict.get
_item = dict.__getitem__


def room_name(state: State | Ctx, key: str) -> str:
    return str(state.config.get("options", {}).get("ifmud", {}).get("rooms", {}).get(key, ROOMS[key]))


# game.yaml's ``options.ifmud``, with the values the seed's rules give (docs/modules/ifmud.md says each reading)
OPTIONS: dict[str, Any] = {
    "win_at": 350,  # Rules 148, 153: the points that win
    "honours_at": 250,  # Rule 153: the points that share Honours
    "death_toll_in_haven": False,  # Rules 68, 78: a tax haven has no Death Toll (the reading that lets 68 win)
    "servant_limits_on_transport": False,  # Rules 36, 87, 89: the Omnibus transports, it does not move a servant
    "monkey_respects_rule_65": True,  # Rules 65, 85: the monkey's theft is barred as a player's would be
    "bubble_unpaid_entry_doubles": True,  # the bubble's reading of the burst: an unpaid re-entry doubles too
}
# each option of its default's kind, checked with game.yaml at its line: a rule reading ``win_at: abc`` failed inside
# the judge, and a misspelt option was never read at all
OPTIONS_SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False,
    "properties": {
        **{name: {"type": "boolean"} if isinstance(value, bool) else {"type": "integer", "minimum": 0}
           for name, value in OPTIONS.items()},
        # the rooms the rules name, renamed (``room_name``): a room's name as the map holds it
        "rooms": {"type": "object", "additionalProperties": False,
                  "properties": {key: {"type": "string", "minLength": 1, "maxLength": 120} for key in ROOMS}}}}


def option(state: State | Ctx, name: str, default: Any) -> Any:
    return state.config.get("options", {}).get("ifmud", {}).get(name, default)


def dice_sizes(state: State | Ctx) -> list[int]:
    return list(state.doc("tables").get("dice") or DEFAULT_DICE)


def refuse(ctx: Ctx, message: str, rule: str | None = None) -> Illegal:
    return ctx.refuse(message, rule)


# ---------------------------------------------------------------- rooms and connections


def rooms(state: State | Ctx) -> list[dict[str, Any]]:
    return state.doc("map")["rooms"]


class _Rooms:
    """What is read off the list of rooms, each part worked out when first asked: raw reads, for reading only.

    Worked out once for a list that nothing was written into since the action started (and then kept for
    as long as the actions start from that very list: see ``changes.derived``); otherwise afresh."""

    def __init__(self, rooms: Any, names_as: _Rooms | None = None, once: bool = False):
        """``names_as``: the view of a list with the same names in the same places, to take them from.
        ``once``: made for one question (of a state being read, or of rooms being changed): a room is then
        found by looking through the list, as that is cheaper than indexing it first."""
        self.rooms = list(peek(rooms))
        self.names_as = names_as
        self.once = once
        self._names: list[Any] | None = None
        self._name_set: set[Any] | None = None
        self._index: dict[Any, int] | None = None
        self._folded: dict[Any, Any] | None = None
        self._most: Any = None
        self._wild: dict[str, Any] = {}

    @property
    def names(self) -> list[Any]:
        if self._names is None:
            known = self.names_as
            self._names = known.names if known is not None else list(map(_item, self.rooms, repeat("name")))
        return self._names

    @property
    def name_set(self) -> set[Any]:
        if self._name_set is None:
            self._name_set = self.names_as.name_set if self.names_as is not None else set(self.names)
        return self._name_set

    @property
    def index(self) -> dict[Any, int]:
        """Where each name's first room is in the list (as ``room`` finds it)."""
        if self.names_as is not None:
            return self.names_as.index
        if self._index is None:
            names = self.names  # the first room of a name wins: filled from the end
            self._index = dict(zip(reversed(names), range(len(names) - 1, -1, -1)))
        return self._index

    def position(self, name: Any) -> int | None:
        """Where the first room of that name is in the list."""
        if self.once and self._index is None and self.names_as is None:
            for i, r in enumerate(self.rooms):
                if _item(r, "name") == name:
                    return i
            return None
        return self.index.get(name)

    def get(self, name: Any) -> dict[str, Any] | None:
        i = self.position(name)
        return None if i is None else self.rooms[i]

    @property
    def folded(self) -> dict[Any, Any]:
        if self.names_as is not None:
            return self.names_as.folded
        if self._folded is None:
            self._folded = {n.casefold(): n for n in self.names}
        return self._folded

    @property
    def most_visits(self) -> Any:
        if self._most is None:
            self._most = max(map(_get, self.rooms, repeat("visits"), repeat(0)))
        return self._most

    def wilderness(self, crescent: str) -> str | None:
        if crescent not in self._wild:
            candidates = [r for r in self.rooms if _item(r, "name") != crescent]
            if not candidates:
                self._wild[crescent] = None
            else:
                least = min(_get(r, "visits", 0) for r in candidates)
                self._wild[crescent] = standard_order(
                    [_item(r, "name") for r in candidates if _get(r, "visits", 0) == least])[0]
        return self._wild[crescent]


def _rooms_after(earlier: list[dict[str, Any]], view: _Rooms, rooms: list[dict[str, Any]]) -> _Rooms:
    """``_Rooms(rooms)``, taking from the view of an earlier list what still holds: an action (the end of a
    turn, say) changes a few rooms, and the next list holds the very same objects for all the others."""
    new = _Rooms(rooms)
    if len(earlier) != len(rooms) or view.names_as is not None:
        return new
    changed = list(compress(range(len(rooms)), map(operator.is_not, rooms, earlier)))
    if any(_item(rooms[i], "name") != _item(earlier[i], "name") for i in changed):
        return new
    new._names, new._name_set, new._index, new._folded = view._names, view._name_set, view._index, view._folded
    if view._most is not None:
        old = [_get(earlier[i], "visits", 0) for i in changed]
        now = [_get(rooms[i], "visits", 0) for i in changed]
        if all(a >= b for a, b in zip(now, old)):  # no room has fewer visits than it had
            new._most = max([view._most, *now])
    return new


def _as_started(state: State | Ctx, kind: str, key: str) -> Any:
    """The part ``doc[key]`` as the action started, when nothing was written into it since (else None)."""
    if type(state) is Ctx and kind not in state.tx.docs:  # the document was not edited at all
        doc = state.tx.base.docs.get(kind)
        if type(doc) is dict:
            return _item(doc, key)
    if isinstance(state, Ctx) and ch.unchanged(state, kind, key):
        return ch.start(state, kind, key)
    return None


def _rooms_view(state: State | Ctx) -> _Rooms:
    if isinstance(state, Ctx):
        kept = _as_started(state, "map", "rooms")
        if kept is not None:
            return ch.derived("rooms", kept, _Rooms, _rooms_after)
        changed = ch.changed_items(state, "map", "rooms")
        if changed is not None and all(_item(x, "name") == _item(b, "name") for x, b in changed):
            # the same rooms in the same places under the same names: where each name is is known already
            return _Rooms(rooms(state), ch.derived("rooms", ch.start(state, "map", "rooms"), _Rooms, _rooms_after))
    return _Rooms(rooms(state), once=True)


def _linked(connections: list[dict[str, Any]]) -> dict[Any, set[Any]]:
    """For each room, the rooms one connection joins it to (a connection between exactly two rooms)."""
    out: dict[Any, set[Any]] = {}
    for c in connections:
        ends = set(_item(c, "between"))
        if len(ends) == 2:
            a, b = ends
            out.setdefault(a, set()).add(b)
            out.setdefault(b, set()).add(a)
    return out


def _links(state: State | Ctx) -> dict[Any, set[Any]] | None:
    """``_linked`` of the connections, when nothing was written into them since the action started."""
    kept = _as_started(state, "map", "connections")
    return None if kept is None else ch.derived("links", kept, _linked)


def room_names(state: State | Ctx) -> list[str]:
    return list(_rooms_view(state).names)


def room(state: State | Ctx, name: str) -> dict[str, Any] | None:
    i = _rooms_view(state).position(name)
    return None if i is None else rooms(state)[i]


def room_index(state: State | Ctx) -> dict[str, dict[str, Any]]:
    """Each room by name (the first of a name, as ``room`` finds it), read raw: for reading only."""
    view = _rooms_view(state)
    return {n: view.rooms[i] for n, i in view.index.items()}


def resolve_room(state: State | Ctx, given: str) -> str | None:
    """A room by its name, its name in another case, or a synonym of it (Rule 72)."""
    view = _rooms_view(state)
    if given in view.name_set:
        return given
    folded = view.folded
    if given.casefold() in folded:
        return folded[given.casefold()]
    # seed 002 Rule 72 makes the words of a row of the Table of Synonyms mean the same; repealed, a synonym names
    # no room (a room's own name in another case still does: that is no synonym, this module's reading)
    for row in (() if repealed(state, "r72") else state.doc("tables").get("synonyms", [])):
        words = [w.casefold() for w in row]
        if given.casefold() in words:
            for w in row:
                if w.casefold() in folded:
                    return folded[w.casefold()]
    return None


def is_tuesday(at: datetime) -> bool:
    return at.weekday() == 1


def _open_room(r: dict[str, Any] | None, at: datetime, always: bool = False) -> bool:
    """A room connected as usual at ``at``: Rule 107's Tuesdays-only room (Brigadoon) on Tuesdays alone, unless
    ``always`` (Rule 107 repealed: ``tuesdays_apart``)."""
    return r is not None and (always or not (_get(r, "tuesdays_only") and not is_tuesday(at)))


def tuesdays_apart(state: State | Ctx) -> bool:
    """Whether Rule 107 keeps its Tuesdays-only room apart on other days. seed 002 Rule 107 makes Brigadoon
    connected only on Tuesdays; repealed, it is connected as any room, every day."""
    return repealed(state, "r107") is None


def connected(state: State | Ctx, a: str, b: str, at: datetime) -> bool:
    """Rules 25, 39, 107: a two-way connection, and Brigadoon only on Tuesdays (UTC)."""
    if a == b:
        return False
    view = _rooms_view(state)
    always = not tuesdays_apart(state)
    for name in (a, b):
        if not _open_room(view.get(name), at, always):
            return False
    links = _links(state)
    if links is not None:
        return b in links.get(a, ())
    want = {a, b}
    for c in peek(state.doc("map")["connections"]):
        ends = _item(c, "between")
        if a in ends and b in ends and set(ends) == want:
            return True
    return False


def neighbours(state: State | Ctx, a: str, at: datetime) -> list[str]:
    """The rooms connected to ``a`` now, in Standard Order (each connection is looked at once)."""
    view = _rooms_view(state)
    always = not tuesdays_apart(state)
    if not _open_room(view.get(a), at, always):
        return []
    links = _links(state)
    if links is None:
        links = _linked(peek(state.doc("map")["connections"]))
    other = links.get(a, set())
    return standard_order(n for n in view.names if n != a and n in other and _open_room(view.get(n), at, always))


def connectivity_name(r: dict[str, Any]) -> str:
    """Rule 129: the name used for connectivity, with Rule 76's masked positions shown as '_' and
    Rule 121's substituted letters in place (positions count from 1)."""
    chars = list(r.get("connect_name", r["name"]))
    for pos, letter in (r.get("letters") or {}).items():
        i = int(pos) - 1
        if 0 <= i < len(chars):
            chars[i] = letter
    for pos in r.get("masked") or []:
        i = int(pos) - 1
        if 0 <= i < len(chars):
            chars[i] = "_"
    return "".join(chars)


def tolls(state: State | Ctx, name: str) -> list[dict[str, Any]]:
    """The tolls on a room: its own (Rule 43) and the Death Toll of its damage (Rule 78); none in a
    tax haven (Rule 68, which this module lets win over Rule 78 unless options.ifmud.death_toll_in_haven)."""
    r = _rooms_view(state).get(name)
    # seed 002 Rule 43 is what makes a toll cost whoever enters its room, any toll: Rule 78's Death Toll is a tax,
    # which Rule 43 makes a toll. Repealed, no toll is asked, the Death Toll included.
    if r is None or repealed(state, "r43"):
        return []
    haven = bool(_get(r, "tax_haven"))
    if haven and repealed(state, "r68"):  # seed 002 Rule 68 repealed: a tax haven frees from no toll
        haven = False
    out = []
    # seed 002 Rule 78 gives a damaged room its Death Toll; repealed, that toll is not asked (a room's own is)
    if _get(r, "toll") and not haven:
        out.append(r["toll"])
    if _get(r, "damage", 0) > 0 and (not haven or option(state, "death_toll_in_haven", False)) \
            and not repealed(state, "r78"):
        out.append({"name": "Death Toll", "value": 2 * _item(r, "damage")})
    return out


def savage_wilderness(state: State | Ctx) -> str | None:
    """Rule 122: the room with the fewest visits, Mornington Crescent aside; ties by Standard Order."""
    return _rooms_view(state).wilderness(room_name(state, "crescent"))


def required_room(state: State | Ctx, wanted: str, but: tuple[str, ...] = ()) -> str | None:
    """ifMUD seed, Rule 69: where something the rules send to the room ``wanted`` goes: ``wanted`` while it is on
    the map, else the room alphabetically first (not counting articles, nor rooms named only with them), leaving
    out ``but`` (a room about to leave the map). None when there is no such room."""
    if wanted in _rooms_view(state).name_set:
        return wanted
    return alphabetical_extreme(n for n in room_names(state) if n not in but)


def map_limits(doc: Any) -> Iterator[tuple[tuple[str | int, ...], str]]:
    """(path in the map, why) when the map has no room Rule 69 could send anything to (``DocKind.limits``; ``doc``
    is a map the schema accepts). Rule 14: everything has a place on the map; Rules 53 and 69 send whatever loses
    its place to the room alphabetically first, not counting articles. A map with no room, or only rooms named
    with articles alone, leaves nowhere to go: bad input at load, and a proposal's effects that would leave it so
    are not made (their note says why)."""
    if alphabetical_extreme(str(r.get("name", "")) for r in doc["rooms"]) is None:
        yield (("rooms",), "the map needs a room named with more than articles, where Rule 69 sends what loses its "
                           "place")


def fallback_room(state: State | Ctx, wanted: str) -> str:
    """Rule 69: a room that no longer exists is replaced by the room alphabetically first."""
    if wanted in _rooms_view(state).name_set:
        return wanted
    first = alphabetical_extreme(room_names(state))
    if first is None:
        raise ValueError("the map has no room with a name to fall back on (Rule 69)")
    return first


# ---------------------------------------------------------------- players, servants, entities


def _raw_players(state: State | Ctx) -> Iterator[dict[str, Any]]:
    return peek(state.doc("roster")["players"])


def player_names(state: State | Ctx) -> list[str]:
    return list(map(_item, _raw_players(state), repeat("name")))


def _stats(state: State | Ctx) -> list[dict[str, Any]]:
    return list(map(_item, _raw_players(state), repeat("stats")))


def location_of_player(state: State | Ctx, name: str) -> str | None:
    for p in _raw_players(state):
        if _item(p, "name") == name:
            return _get(_item(p, "stats"), LOCATION)
    return None


def locations(state: State | Ctx, but: str | None = None) -> dict[str, Any]:
    """Every player's location by name (the first player of a name, as ``location_of_player`` finds it),
    but ``but``'s."""
    names, stats = player_names(state), _stats(state)
    out = dict(zip(reversed(names), map(_get, reversed(stats), repeat(LOCATION))))
    if but is not None:
        out.pop(but, None)
    return out


def tallies(state: State | Ctx, stat: str = BROWNIE) -> dict[str, int]:
    """Every player's tally by name (the first player of a name, as ``tally`` finds it)."""
    names, stats = player_names(state), _stats(state)
    return dict(zip(reversed(names), map(int, map(_get, reversed(stats), repeat(stat), repeat(0)))))


def servant(state: State | Ctx, owner: str) -> dict[str, Any] | None:
    servants = state.doc("entities")["servants"]
    for i, s in enumerate(peek(servants)):
        if _item(s, "owner") == owner:
            return servants[i]
    return None


def is_named(s: dict[str, Any]) -> bool:
    """ifMUD seed, Rule 45: a servant is named once it has both a name and a species (``ifmud.name-servant`` gives
    both at once); one without the other is not named, and the schema refuses it as bad input."""
    return bool(_get(s, "name")) and bool(_get(s, "species"))


def edit_servant(ctx: Ctx, owner: str) -> dict[str, Any]:
    servants = ctx.edit("entities")["servants"]
    for i, s in enumerate(peek(servants)):
        if _item(s, "owner") == owner:
            return servants[i]
    raise refuse(ctx, f"{owner} has no servant", "r44")


def entity_location(state: State | Ctx, which: str) -> str | None:
    e = _get(state.doc("entities"), which)
    return _get(e, "location") if e else None


def tally(state: State | Ctx, who: str, stat: str = BROWNIE) -> int:
    for p in _raw_players(state):
        if _item(p, "name") == who:
            return int(_get(_item(p, "stats"), stat, 0))
    return 0


def may_lose(ctx: Ctx, who: str, amount: int, why: str, stat: str = BROWNIE) -> Iterator[Problem]:
    """Rule 42: an action by individual intent may not be one that *could* send the actor's own
    tally below zero, or push a negative tally further down. ``amount`` is the worst case. (seed 002 Rule 42 is
    this condition on every other rule's action; repealed, no action is refused for what it could cost.)"""
    if amount <= 0 or repealed(ctx, "r42"):
        return
    have = tally(ctx, who, stat)
    if have >= 0 and have - amount < 0:
        yield Problem(f"{why} could cost {who} {amount} {stat} and they have {have}; Rule 42 forbids an action "
                      "that could send their own tally below zero", rule="r42")
    elif have < 0:
        yield Problem(f"{who}'s {stat} tally is {have}; Rule 42 forbids an action that could lower it further",
                      rule="r42")


def add_tally(ctx: Ctx, who: str, amount: int, stat: str = BROWNIE, why: str = "") -> None:
    """Change a tally without bounds (Rule 42: tallies may be negative)."""
    if amount == 0:
        return
    _add_to(ctx, ctx.edit_player(who), who, amount, stat, why)


def _add_to(ctx: Ctx, p: dict[str, Any], who: str, amount: int, stat: str, why: str) -> None:
    p["stats"][stat] = int(p["stats"].get(stat, 0)) + amount
    ctx.step({"tally": who, stat: amount, **({"why": why} if why else {})})


def add_tally_to_all_but(ctx: Ctx, who: str, amount: int, stat: str = BROWNIE, why: str = "") -> None:
    """``add_tally`` for every player but ``who``, in roster order (each player found once, not once per player)."""
    if amount == 0:
        return
    players = ctx.edit("roster")["players"]
    first: dict[Any, int] = {}
    for i, p in enumerate(peek(players)):
        first.setdefault(_item(p, "name"), i)
    for other in player_names(ctx):
        if other != who:
            _add_to(ctx, players[first[other]], other, amount, stat, why)


# ---------------------------------------------------------------- tokens


def tokens(state: State | Ctx) -> list[dict[str, Any]]:
    return state.doc("tokens")["tokens"]


def token(state: State | Ctx, ident: int) -> dict[str, Any] | None:
    ts = tokens(state)
    for i, t in enumerate(peek(ts)):
        if _item(t, "id") == ident:
            return ts[i]
    return None


def edit_token(ctx: Ctx, ident: int) -> dict[str, Any]:
    ts = ctx.edit("tokens")["tokens"]
    for i, t in enumerate(peek(ts)):
        if _item(t, "id") == ident:
            return ts[i]
    raise ctx.refuse(f"there is no token #{ident}", "r54")


def _picked(items: list[dict[str, Any]], keep: Any) -> list[dict[str, Any]]:
    """The items of ``items`` for which ``keep(raw item)`` holds, in order; only those are copied."""
    return [items[i] for i, t in enumerate(peek(items)) if keep(t)]


def find_token(ctx: Ctx, ref: Any) -> dict[str, Any]:
    """A token by id, or by a name that only one token has."""
    if isinstance(ref, int):
        t = token(ctx, ref)
        if t is None:
            raise ctx.refuse(f"there is no token #{ref}", "r54")
        return t
    folded = str(ref).casefold()
    hits = _picked(tokens(ctx), lambda t: _item(t, "name") == ref) or _picked(
        tokens(ctx), lambda t: _item(t, "name").casefold() == folded)
    if not hits:
        raise ctx.refuse(f"there is no token named {ref!r}", "r54")
    if len(hits) > 1:
        numbers = ", ".join("#" + str(t["id"]) for t in hits)
        raise ctx.refuse(f"{len(hits)} tokens are named {ref!r}; give its number ({numbers})", "r54")
    return hits[0]


def _roles(tokens: list[dict[str, Any]]) -> dict[Any, list[int]]:
    """Where the tokens of each role are in a list of tokens."""
    out: dict[Any, list[int]] = {}
    for i, role in enumerate(map(_get, tokens, repeat("role"))):
        if role is not None:
            out.setdefault(role, []).append(i)
    return out


def by_role(state: State | Ctx, role: str) -> list[dict[str, Any]]:
    ts = tokens(state)
    kept = _as_started(state, "tokens", "tokens") if role is not None else None
    if kept is not None:  # the tokens as the action started: where each role is was worked out once
        return [ts[i] for i in ch.derived("roles", kept, _roles).get(role, ())]
    return [ts[i] for i, t in enumerate(peek(ts)) if _get(t, "role") == role]


def carrier(loc: dict[str, Any]) -> tuple[str, str]:
    """('room'|'player'|'servant'|'monkey', name) of a token location."""
    (kind, value), = loc.items()
    return kind, str(value)


def place_of(state: State | Ctx, loc: dict[str, Any]) -> str | None:
    """The room a token is in, following whoever carries it."""
    kind, who = carrier(loc)
    if kind == "room":
        return who
    if kind == "player":
        return location_of_player(state, who)
    if kind == "servant":
        s = servant(state, who)
        return s["location"] if s else None
    return entity_location(state, "monkey")


def carried_by(state: State | Ctx, kind: str, who: str = "") -> list[dict[str, Any]]:
    want = {kind: True if kind == "monkey" else who}
    return _picked(tokens(state), lambda t: _item(t, "location") == want)


def is_time_bomb(t: dict[str, Any]) -> bool:
    return "delay_hours" in t


def is_prize(t: dict[str, Any]) -> bool:
    return "destination" in t


PRIMARY, SECONDARY = "primary", "secondary"


def quest_stage(t: dict[str, Any]) -> str | None:
    """ifMUD seed, Rule 141: whether a quest token is at its ``primary`` or ``secondary`` stage (else None).

    The rule names the token "<colour> primary" and later swaps that word for "secondary": the stage is the word
    the rule puts at the end of the name, after the colour. The colour is the quest's creator's free text, so its
    own words ("secondary", "primary blue") say nothing of the stage (reading in docs/modules/ifmud.md)."""
    words = _item(t, "name").split()
    last = words[-1] if words else ""
    return last if last in (PRIMARY, SECONDARY) else None


def quest_token_name(colour: str, stage: str = PRIMARY) -> str:
    """Rule 141's name of a quest token: the quest's colour, then its stage."""
    return f"{colour} {stage}"


def promoted_name(name: str) -> str:
    """Rule 141 at the locate room: ``name`` (of a primary quest token) with its stage word, the last one, made
    "secondary"; a "primary" in the colour stays as it is."""
    body = name.rstrip()
    return body[: len(body) - len(PRIMARY)] + SECONDARY + name[len(body):]


def set_token_location(ctx: Ctx, t: dict[str, Any], loc: dict[str, Any], *, by: str = "", direct: bool = False) -> None:
    """Move a token (``t`` must come from ctx.edit('tokens')). Keeps Rule 70's clock, Rule 90's
    last mover, Rule 100's one-token monkey, Rule 112/145's bars and Rule 149's Bottle Imp."""
    kind, who = carrier(loc)
    if kind == "monkey" and any(x["id"] != t["id"] for x in carried_by(ctx, "monkey")) and not repealed(ctx, "r100"):
        if direct:
            raise ctx.refuse("the monkey already carries a token and may carry only one", "r100")
        loc = {"room": entity_location(ctx, "monkey")}
    old = t["location"]
    if old == loc:
        return
    t["location"] = loc
    token_location_changed(ctx, t, old, by=by)
    if t.get("role") == "imp":
        imp_passed(ctx, carrying_player(ctx, old), carrying_player(ctx, loc))


def token_location_changed(ctx: Ctx, t: dict[str, Any], old: Any, *, by: str = "", kept: Any = ()) -> None:
    """What the rules attach to token ``t``'s location having changed from ``old`` (``t["location"]`` is already
    written, ``t`` comes from ctx.edit('tokens')): ``set_token_location``'s bookkeeping, also for a location a
    ratified proposal's effects set (consent.py). Rule 70's clock: ``since``, when its stay in a room began, is
    now. Rule 90's last mover: ``by``, the player whose action caused the change, or nobody. Rules 112/145:
    a bar ends when the token comes to another player or servant. ``kept``: the fields the proposal's effects
    wrote themselves, left as they wrote them. (Rule 149's Bottle Imp: ``imp_passed``.)"""
    kind, who = carrier(t["location"])
    if "since" not in kept:
        t["since"] = format_time(ctx.at)
    if "moved_by" not in kept:
        # ifMUD seed, Rule 90 fines the player who caused the *latest* change of the bomb's location. A change no
        # player's action made (an esplosion's drop, Rule 77; the monkey reaching for a banana, Rule 138; a token
        # rehomed, Rules 49 and 69, or sent to the Jaws of Death, Rule 154; a proposal taking effect) is that
        # latest change too, so the record names nobody rather than whoever moved the token before it.
        if by:
            t["moved_by"] = by
        else:
            t.pop("moved_by", None)
    if "barred" not in kept and t.get("barred") and kind in ("player", "servant") and who != t["barred"]:
        del t["barred"]  # picked up by another player or servant


def carrying_player(state: State | Ctx, loc: dict[str, Any]) -> str | None:
    """The player a token at ``loc`` is carried by, if it is a player (of the game now)."""
    kind, who = carrier(loc)
    return who if kind == "player" and who in player_names(state) else None


def imp_holder(state: State | Ctx, t: dict[str, Any] | None) -> str | None:
    """The player whose Puissance the token ``t`` raises (Rule 149): a Bottle Imp's carrier, if a player."""
    # seed 002 Rule 149 ties the Imp to its carrier's Puissance; repealed, the Imp raises nobody's
    if t is None or _get(t, "role") != "imp" or repealed(state, "r149"):
        return None
    return carrying_player(state, _item(t, "location"))


def imp_passed(ctx: Ctx, old: str | None, new: str | None) -> None:
    """Rule 149: the Bottle Imp's location ceased to be player ``old`` and became player ``new``."""
    if old == new or repealed(ctx, "r149"):  # (seed 002 Rule 149 repealed: the Imp moves no Puissance)
        return
    if old is not None and old in player_names(ctx):
        add_tally(ctx, old, -1, PUISSANCE, "Rule 149: the Bottle Imp left them")
    if new is not None:
        add_tally(ctx, new, 1, PUISSANCE, "Rule 149: the Bottle Imp came to them")


def spared_to(state: State | Ctx, t: dict[str, Any]) -> str | None:
    """ifMUD seed, Rule 154: where a protected token the rules require to be removed goes instead, or None when it
    is removed. The Jaws of Death; with the Jaws gone, Rule 69's room alphabetically first (Rule 154 sets a
    location, and Rule 69 says where a location set to a room no longer on the map goes). Reading: a token already
    lying there is removed (the Jaws' own exception: nothing is left to do instead of removing it), which also
    ends what would otherwise never end, such as a protected bomb in a high-security first room (Rule 74)."""
    # seed 002 Rule 154 spares a protected token; repealed, a protected token the rules remove is removed
    if not t.get("protected") or repealed(state, "r154"):
        return None
    dest = required_room(state, room_name(state, "jaws"))
    if dest is None or t.get("location") == {"room": dest}:
        return None
    return dest


def remove_token(ctx: Ctx, t: dict[str, Any], why: str) -> None:
    """Remove a token from the game; a protected one goes to the Jaws of Death first (Rule 154, ``spared_to``)."""
    dest = spared_to(ctx, t)
    if dest is not None:
        set_token_location(ctx, t, {"room": dest})
        ctx.step({"token": t["id"], "to": dest, "why": f"protected ({why})"})
        return
    doc = ctx.edit("tokens")
    imp_passed(ctx, imp_holder(ctx, t), None)
    if t.get("role") == "cigar":
        doc["last_cigar"] = cigar_record(t)
    ts, ident = doc["tokens"], t["id"]
    # found by reading, then deleted in place: the other tokens are not copied (a new list of them was)
    for i in reversed([i for i, x in enumerate(peek(ts)) if _item(x, "id") == ident]):
        del ts[i]
    ctx.step({"token": t["id"], "name": t["name"], "removed": why})


def cigar_record(t: dict[str, Any]) -> dict[str, Any]:
    """What Rule 152 copies of the esploding cigar to have most recently existed (``tokens.last_cigar``)."""
    return {k: copy.deepcopy(v) for k, v in t.items() if k in ("name", "location", "destination", "value",
                                                                "delay_hours")}


def new_token(ctx: Ctx, fields: dict[str, Any]) -> dict[str, Any]:
    """Create a token. ifMUD seed, Rule 100: one created on the monkey while it carries another is a second token set
    on it by no direct action, so it lies in the monkey's room instead (an esploding cigar copied from one the monkey
    carried, Rule 152)."""
    if fields.get("location") == {"monkey": True} and carried_by(ctx, "monkey") and not repealed(ctx, "r100"):
        fields = {**fields, "location": {"room": entity_location(ctx, "monkey")}}
        ctx.step({"created_on_monkey": fields["name"], "to": fields["location"], "rule": "r100"})
    doc = ctx.edit("tokens")
    t = {"id": doc["next"], **fields}
    t.setdefault("since", format_time(ctx.at))
    doc["next"] += 1
    doc["tokens"].append(t)
    ctx.step({"token": t["id"], "created": t["name"], "at": t["location"]})
    imp_passed(ctx, None, imp_holder(ctx, t))
    return t


def drop_all(ctx: Ctx, kind: str, who: str, why: str, by: str = "") -> None:
    """Everything a player, servant or the monkey carries goes to the room they are in.

    ``by``: the player whose action made them drop it (a pie's thrower, Rule 116; the player who set off
    the pie bomb, Rule 119). Rule 90 blames the player who last caused a time bomb's location to change, so
    that player becomes the bomb's last mover; after a drop no player's action caused (an esplosion, Rule 77)
    the bomb's last mover is nobody (``token_location_changed``)."""
    here = {"player": lambda: location_of_player(ctx, who),
            "servant": lambda: (servant(ctx, who) or {}).get("location"),
            "monkey": lambda: entity_location(ctx, "monkey")}[kind]()
    for t in list(carried_by(ctx, kind, who)):
        set_token_location(ctx, edit_token(ctx, t["id"]), {"room": here}, by=by)
        ctx.step({"dropped": t["name"], "by": who or kind, "why": why})


def roll(ctx: Ctx, sides: int) -> int:
    """A die of ``sides`` faces. ifMUD seed, Rule 159: a one-sided die is taken to show 1 with nothing rolled (the
    Lunchbox's die can shrink to a d1, Rule 105). Random Selection of one item likewise rolls nothing (``select``)."""
    if sides == 1:
        ctx.step({"d1": 1, "rule": "r159"})
        return 1
    return ctx.roll(sides)


def select(ctx: Ctx, items: list[Any], what: str, rule: str, name: Any = str) -> Any:
    """Random Selection (Rule 95) with the action's verifiable dice; ``name(item)`` is what Standard Order
    reads (the items themselves when they are names)."""
    from .order import NoSelection

    try:
        choice = random_selection(items, ctx.roll, name=name, dice=dice_sizes(ctx))
    except NoSelection as e:
        raise ctx.refuse(f"cannot choose {what} by Random Selection: {e}", rule) from None
    ctx.step({"random_selection": what, "from": len(items), "chose": name(choice)})
    return choice


# ---------------------------------------------------------------- arriving somewhere


def turn(state: State | Ctx) -> dict[str, Any]:
    return state.doc("turn")


def pending_ids(pending: dict[str, Any] | None, key: str, single: str) -> list[int]:
    """The tokens ``turn.pending[key]`` lists, in order, waiting for the active player's choice this turn (an
    older state kept only the last one, as ``single``)."""
    pending = pending or {}
    if key in pending:
        return list(pending[key])
    return [pending[single]] if pending.get(single) is not None else []


def close_pending(ctx: Ctx, ident: int, key: str, single: str) -> None:
    """The choice for token ``ident`` is made: it leaves ``turn.pending[key]`` (dropped when empty; an older
    state's ``single`` goes too)."""
    pending = ctx.edit("turn")["pending"]
    left = [i for i in pending_ids(pending, key, single) if i != ident]
    pending.pop(single, None)
    if left:
        pending[key] = left
    else:
        pending.pop(key, None)


def choose_pending(ctx: Ctx, opened: list[int], *, none: str, what: str,
                   not_open: str) -> tuple[int | None, str | None]:
    """The token of ``opened`` the action's ``token`` parameter names (it may be left out while only one waits),
    or why there is none: ``none`` when none waits, ``what`` names those waiting (several waiting, the parameter
    left out), ``not_open`` follows the token's name when it is not among them."""
    if not opened:
        return None, none
    ref = ctx.params.get("token")
    if ref is None:
        if len(opened) > 1:
            names = ", ".join(f"#{i} {(token(ctx, i) or {}).get('name', '?')}" for i in opened)
            return None, f"{len(opened)} {what} ({names}); say which with token"
        ident = opened[0]
    else:
        t = find_token(ctx, ref)
        if t["id"] not in opened:
            return None, f"{t['name']} (#{t['id']}) {not_open}"
        ident = t["id"]
    if token(ctx, ident) is None:
        return None, f"token #{ident}, waiting since earlier this turn, is no longer in the game"
    return ident, None


def winners(state: State | Ctx) -> list[str]:
    """Who won (Rules 33, 148): everyone who reached the winning tally at the moment the game ended. (An
    older state names one ``winner``.)"""
    over = turn(state).get("over") or {}
    if "winners" in over:
        return list(over["winners"])
    return [over["winner"]] if over.get("winner") else []


def names_and(names: list[str]) -> str:
    """'A', 'A and B', 'A, B and C'."""
    return " and ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else "".join(names)


def entry_cost(state: State | Ctx, who: str, dest: str) -> int:
    """What ``who`` entering ``dest`` costs in brownie points (negative: gains), for Rule 42's check: tolls less
    Rule 99's award; for the bubble, less its points (Rule 29) and, when they burst it, with the cost of being put
    in the Lounge by the burst (its tolls less its award: the burst is part of the same entry); and the negative
    value of a quest the entry would finish (Rule 141, ``quest_loss``)."""
    cost = _arrival_cost(state, dest) - (bubble_payment(state, who) if dest == room_name(state, "bubble") else 0)
    end = _bursts(state, who, dest)
    if end is not None:
        cost += _arrival_cost(state, end)
    return cost + quest_loss(state, who, end or dest)[BROWNIE]


BURST_AT = 32  # Rule 29: a player paid this many points (or more, after an unpaid re-entry) bursts the bubble


def bubble_payment(state: State | Ctx, who: str) -> int:
    """Rule 29: the points ``who`` is paid for entering the bubble now (none for the last player paid)."""
    b = _get(state.doc("map"), "bubble") or {}
    if repealed(state, "r29"):  # seed 002 Rule 29 repealed: the bubble is a room like any other, paying nothing
        return 0
    return 0 if _get(b, "last") == who else int(_get(b, "next", 1))


def burst_destination(state: State | Ctx) -> str:
    """Rule 29: where a burst puts what was in the bubble: the Lounge, or with the Lounge gone the room
    alphabetically first other than the bubble (Rule 69)."""
    return (required_room(state, room_name(state, "lounge"), but=(room_name(state, "bubble"),))
            or room_name(state, "lounge"))


def _bursts(state: State | Ctx, who: str, dest: str) -> str | None:
    """Where the burst puts ``who`` when ``who`` entering ``dest`` bursts the bubble, else None."""
    if dest != room_name(state, "bubble") or bubble_payment(state, who) < BURST_AT:
        return None
    return burst_destination(state)


def trap_takes_imp(state: State | Ctx, actor: str, dest: str, actor_room: Any, at: datetime) -> bool:
    """ifMUD seed, Rules 118, 119 and 149 for Rule 42's worst case: something entering ``dest`` by ``actor``'s action
    where the pie bomb lies may kersplat it, and a kersplat may make everyone carrying tokens in that room or next
    door drop everything: the Bottle Imp ``actor`` holds, and its point of Puissance with it, when ``actor`` is then
    in ``actor_room``, that room or one connected to it."""
    if not any(imp_holder(state, t) == actor for t in by_role(state, "imp")):
        return False
    if not any(_item(b, "location") == {"room": dest} for b in by_role(state, "pie-bomb")):
        return False
    if repealed(state, "r118") or repealed(state, "r119"):  # (either repealed: no kersplat knocks anything away)
        return False
    return actor_room == dest or actor_room in neighbours(state, dest, at)


def entry_puissance_cost(state: State | Ctx, who: str, dest: str, at: datetime) -> int:
    """What the player ``who`` entering ``dest`` by their own action could cost in Puissance, for Rule 42: the
    Bottle Imp a pie bomb there may knock from their hands (Rules 118, 119, 149; also in the Lounge, where a burst
    of the bubble puts them, Rule 29), and quests of negative Puissance they would finish there (Rule 141)."""
    end = _bursts(state, who, dest)
    imp = trap_takes_imp(state, who, dest, dest, at) or (end is not None and trap_takes_imp(state, who, end, end, at))
    return int(imp) + quest_loss(state, who, end or dest)[PUISSANCE]


def quest_loss(state: State | Ctx, who: str, room: Any, extra: Any = ()) -> dict[str, int]:
    """ifMUD seed, Rule 141 for Rule 42: what finishing quests in ``room`` would cost the player ``who`` carrying
    what they carry and ``extra`` (tokens about to come to them), by stat: the quests whose goal is ``room`` and
    whose secondary token they would hold there (or a primary one, turned secondary there when a proposal made the
    quest's locate room its goal too), counted only when a proposal made the value negative (Rules 54, 139)."""
    out = {BROWNIE: 0, PUISSANCE: 0}
    quests = [q for q in peek(state.doc("quests")["quests"]) if _item(q, "goal") == room]
    if not quests or repealed(state, "r141"):  # (Rule 141 repealed: reaching the goal finishes nothing)
        return out
    held = [*peek(carried_by(state, "player", who)), *extra]
    for q in quests:
        mine = [t for t in held if _get(t, "quest") == _item(q, "id")]
        if not any((stage := quest_stage(t)) == SECONDARY or (stage == PRIMARY and _item(q, "locate") == room)
                   for t in mine):
            continue
        for stat, amount in dict.items(_item(q, "value")):
            if int(amount) < 0:
                out[BROWNIE if stat == "brownie" else PUISSANCE] -= int(amount)
    return out


def _arrival_cost(state: State | Ctx, dest: str) -> int:
    """Rules 43 and 99: the tolls on ``dest`` less the visit points for arriving there."""
    paid = sum(int(t["value"]) for t in tolls(state, dest))
    return paid - visit_award(state, dest)


def visit_award(state: State | Ctx, dest: str) -> int:
    """Rule 99: the largest visits tally on the map less the new room's."""
    view = _rooms_view(state)
    r = view.get(dest)
    if r is None or repealed(state, "r99"):  # (seed 002 Rule 99 repealed: moving earns nothing)
        return 0
    return view.most_visits - _get(r, "visits", 0)


def set_player_location(ctx: Ctx, who: str, dest: str, *, how: str, by_action: bool = True) -> None:
    """A player's location changes: Rules 43 (tolls), 98 (visits counted at the turn's end), 99
    (brownie points), 29 (the bubble) and 118 (the pie bomb). Rule 16 is a consequence."""
    p = ctx.edit_player(who)
    old = p["stats"].get(LOCATION)
    if old == dest:
        return
    p["stats"][LOCATION] = dest
    location_changed(ctx, who, old, dest, how=how, by_action=by_action)


def location_changed(ctx: Ctx, who: str, old: Any, dest: str, *, how: str, by_action: bool = True) -> None:
    """What the rules attach to ``who``'s location having changed from ``old`` to ``dest`` (already written):
    ``set_player_location``'s bookkeeping, also for a location a ratified proposal's effects set (consent.py)."""
    ctx.step({"player": who, "from": old, "to": dest, "how": how})
    award = visit_award(ctx, dest)
    if award:
        add_tally(ctx, who, award, BROWNIE, "Rule 99: visits")
    for toll in tolls(ctx, dest):
        value = int(toll["value"])
        add_tally(ctx, who, -value, BROWNIE, f"Rule 43: toll {toll['name']}")
        add_tally_to_all_but(ctx, who, math.ceil(value / 2), BROWNIE, f"Rule 43: half of {who}'s toll")
    # Rule 98 counts, for each room, the players whose location was changed to it this turn: a player sent to
    # the same room twice in one turn (by a vanished room, Rules 53 and 69, or the bubble's burst, Rule 29) is
    # one of them once.
    note_arrival(ctx, who, dest)
    # Rule 118 before Rule 29: entering the bubble where the pie bomb lies is entering its room, and the die is
    # rolled to complete that entry, before the entry's points burst the bubble and carry the pie bomb away.
    if by_action:
        pie_bomb_trap(ctx, dest)
    if dest == room_name(ctx, "bubble"):
        enter_bubble(ctx, who, by=ctx.actor if by_action else "")


def note_arrival(ctx: Ctx, who: str, dest: str) -> None:
    """Rule 98: ``who``'s location was changed to ``dest`` this turn (each player listed once per room)."""
    arrivals = ctx.edit("turn").setdefault("arrivals", {})
    names = arrivals.get(dest)
    if not isinstance(names, list):  # an older state kept only a count: its arrivals cannot be named
        names = arrivals[dest] = [f"#{i + 1}" for i in range(int(names or 0))]
    if who not in names:
        names.append(who)


def arrivals_count(entry: Any) -> int:
    """How many visits a room's ``turn.arrivals`` entry adds (Rule 98): its players, or an older count."""
    return len(entry) if isinstance(entry, list) else int(entry or 0)


def set_servant_location(ctx: Ctx, owner: str, dest: str, *, how: str, by_action: bool = True) -> None:
    s = edit_servant(ctx, owner)
    if s["location"] == dest:
        return
    old = s["location"]
    s["location"] = dest
    servant_location_changed(ctx, owner, old, dest, how=how, by_action=by_action)


def servant_location_changed(ctx: Ctx, owner: str, old: Any, dest: str, *, how: str, by_action: bool = True) -> None:
    """What the rules attach to a servant's location having changed (already written): only the pie bomb, when an
    action made the change (Rule 118). Tolls, visits and the bubble are for players (Rules 29, 43, 98, 99); the
    limits on moving a servant (Rules 36, 87) and the rules on a servant sharing a room (65, 88) are asked of
    the state when they apply."""
    ctx.step({"servant": owner, "from": old, "to": dest, "how": how})
    if by_action:
        pie_bomb_trap(ctx, dest)


def set_entity_location(ctx: Ctx, which: str, dest: str, *, by: str = "", how: str = "",
                        by_action: bool = False) -> None:
    e = ctx.edit("entities")[which]
    if e["location"] == dest:
        return
    old = e["location"]
    e["location"] = dest
    entity_location_changed(ctx, which, old, dest, by=by, how=how, by_action=by_action)


def entity_location_changed(ctx: Ctx, which: str, old: Any, dest: str, *, by: str = "", how: str = "",
                            by_action: bool = False, kept: Any = ()) -> None:
    """What the rules attach to an entity's location having changed (already written). The monkey's: Rule 90's
    record of who caused it (``by``, nobody when empty) and when, and the pie bomb when an action made the change
    (Rule 118). ``kept``: the fields a ratified proposal's effects wrote themselves (consent.py)."""
    ctx.step({which: old, "to": dest, **({"how": how} if how else {})})
    if which == "monkey":
        e = ctx.edit("entities")[which]
        if "moved_by" not in kept:
            e["moved_by"] = by
        if "moved_at" not in kept:
            e["moved_at"] = format_time(ctx.at)
        if by_action:
            pie_bomb_trap(ctx, dest)


def enter_bubble(ctx: Ctx, who: str, by: str = "") -> None:
    """Rule 29: 1, 2, 4 ... brownie points to each new enterer (not twice running); 32 bursts it.
    ``by``: the player whose action brought ``who`` in (and so bursts the bubble).

    ifMUD seed, Rule 29: the points double each time a player enters; the last player paid gets nothing for
    entering again, but that entry is one, so the points double all the same. Reading: the bubble bursts when a
    player is paid 32 *or more* (an unpaid re-entry may skip the 32 itself; 64 paid holds the 32 the rule waits
    for, and the bubble would otherwise never burst). The other reading, that only paid entries double the
    points (so the 32 is always reached exactly), is ``options.ifmud.bubble_unpaid_entry_doubles: false``."""
    if repealed(ctx, "r29"):  # (seed 002 Rule 29 repealed: nothing is paid, counted or burst)
        return
    m = ctx.edit("map")
    b = m.setdefault("bubble", {"next": 1, "last": None})
    points = int(b.get("next", 1))
    if b.get("last") == who:  # unpaid (``bubble_payment``)
        if option(ctx, "bubble_unpaid_entry_doubles", True):
            b["next"] = points * 2
        ctx.step({"bubble": "no points: last to be paid", "player": who, "next": b["next"]})
        return
    add_tally(ctx, who, points, BROWNIE, "Rule 29: the bubble")
    b["last"] = who
    b["next"] = points * 2
    if points >= BURST_AT:
        burst_bubble(ctx, by)


def burst_bubble(ctx: Ctx, by: str = "") -> None:
    """Rule 29: everything in the bubble goes to the Lounge and the bubble leaves the map. ``by`` is the player
    whose action burst it: for Rule 90 they caused the monkey's and the tokens' change of location, as the
    movers of the monkey (``set_entity_location``) and of tokens (``set_token_location``) are recorded.

    Each player, servant and monkey so put in the Lounge enters it as the result of ``by``'s action, so a pie
    bomb lying there is set off (Rule 118; ``by``, the actor, rolls): one d6 per entry, in the order below
    (players, servants, the monkey), until it kersplats. A burst no action caused (``by`` empty: a proposal's
    effects, Rules 53 and 69) sets nothing off. The tokens move last: a pie bomb carried out of the bubble
    arrives with the others, who do not enter its room."""
    bubble = room_name(ctx, "bubble")
    lounge = burst_destination(ctx)
    by_action = bool(by)
    ctx.step({"bubble": "burst"})
    for p in player_names(ctx):
        if location_of_player(ctx, p) == bubble:
            set_player_location(ctx, p, lounge, how="Rule 29: the bubble burst", by_action=by_action)
    for s in list(ctx.doc("entities")["servants"]):
        if s["location"] == bubble:
            set_servant_location(ctx, s["owner"], lounge, how="Rule 29: the bubble burst", by_action=by_action)
    for which in ENTITIES:
        if entity_location(ctx, which) == bubble:
            set_entity_location(ctx, which, lounge, by=by, how="Rule 29: the bubble burst", by_action=by_action)
    for t in list(tokens(ctx)):
        if t["location"] == {"room": bubble}:
            set_token_location(ctx, edit_token(ctx, t["id"]), {"room": lounge}, by=by)
    remove_room(ctx, bubble)


def remove_room(ctx: Ctx, name: str) -> None:
    m = ctx.edit("map")
    m["rooms"] = [r for r in m["rooms"] if r["name"] != name]
    m["connections"] = [c for c in m["connections"] if name not in c["between"]]
    ctx.step({"room_removed": name})
    from .consequences import rehome

    rehome(ctx)


def pie_bomb_trap(ctx: Ctx, dest: str) -> None:
    """Rules 118-119: entering the pie bomb's room by an action rolls a d6; a six kersplats it.

    Only a pie bomb lying in a room has a room for its location: a carried token's location is its carrier
    (Rule 55), so moving with the pie bomb in hand, or joining the player, servant or monkey carrying it,
    is not entering its location (Rule 118), as a carried time bomb never esplodes (Rule 70)."""
    for bomb in by_role(ctx, "pie-bomb"):
        if bomb["location"] != {"room": dest}:
            continue
        if repealed(ctx, "r118"):  # seed 002 Rule 118 makes the pie bomb a trap; repealed, it lies there harmless
            return
        roll = ctx.roll(6)
        ctx.step({"pie_bomb": bomb["id"], "d6": roll})
        if roll != 6:
            continue
        ctx.step({"pie_bomb": "kersplat"})
        # seed 002 Rule 119: a kersplat makes those carrying tokens nearby roll to drop them; repealed, nobody rolls
        near = set() if repealed(ctx, "r119") else {dest, *neighbours(ctx, dest, ctx.at)}
        victims: list[tuple[str, str]] = []
        where = locations(ctx)
        for p in player_names(ctx):
            if where[p] in near and carried_by(ctx, "player", p):
                victims.append(("player", p))
        for s in peek(ctx.doc("entities")["servants"]):
            if _item(s, "location") in near and carried_by(ctx, "servant", _item(s, "owner")):
                victims.append(("servant", _item(s, "owner")))
        if entity_location(ctx, "monkey") in near and carried_by(ctx, "monkey"):
            victims.append(("monkey", ""))
        for kind, who in victims:
            d2 = ctx.roll(2)
            ctx.step({"kersplat_d2": who or kind, "kind": kind, "roll": d2})
            if d2 % 2 == 0:
                drop_all(ctx, kind, who, "Rule 119: kersplat", by=ctx.actor)
        remove_token(ctx, bomb, "Rule 118: kersplatted")


def everything_in(state: State | Ctx, place: str) -> Iterator[tuple[str, str]]:
    """(kind, name) of every player, servant and entity whose location is ``place``."""
    where = locations(state)
    for p in player_names(state):
        if where[p] == place:
            yield ("player", p)
    for s in peek(state.doc("entities")["servants"]):
        if _item(s, "location") == place:
            yield ("servant", _item(s, "owner"))
    for which in ENTITIES:
        if entity_location(state, which) == place:
            yield (which, which)


def problem(message: str, rule: str) -> Problem:
    return Problem(message, rule=rule)
