"""What happens by itself, after every action and every deadline, until nothing more changes.

Where things go when their place is removed (the rules disagree; the specific wins):
tokens -> the Attic (Rule 49); servants -> the Servants' Quarters (Rule 52); anything
else -> Saturn (Rule 53); and if that room is gone too, the room alphabetically first
(Rule 69). A prize token whose destination is gone gets West of Nowhere, or the room
alphabetically last (Rule 57). Quests whose rooms vanish are removed (Rule 151).
"""

from __future__ import annotations

from typing import Any

from ...engine import Ctx, peek
from ...roster import new_stats
from ...timeutil import format_time
from . import changes as ch
from . import world as w
from .order import alphabetical_extreme, next_in_turn, standard_key, standard_order

# Each consequence below first asks whether it can have anything to do, and only then runs its rule as
# written; asking changes nothing. Two ways of asking, the cheaper first:
#
# * ``_..._settled``: the action started from a fixpoint of the consequences (changes.py), on which
#   this one did nothing; so it has something to do only if the action changed what its conditions read.
#   These look only at what changed (an item, with the item as it was), and say True only when sure.
#   ``_needs`` asks them all at once at the start of a pass, and ``_untouched`` first of all whether the
#   action changed anything they read at all (a vote does not).
# * otherwise a look at everything, reading without copying (world.py's raw reads).
#
# A consequence calls ``_acting`` before it writes anything: a pass in which none did changed nothing.
# With NOMIC_VERIFY_COW=1 (the tests) ``run_all`` checks both: that every consequence judged to have
# nothing to do finds nothing, and that a pass without ``_acting`` left the state as it was.
_get = dict.get
_item = dict.__getitem__
_ABSENT: Any = object()


def _location(p: dict[str, Any]) -> Any:
    return _get(_item(p, "stats"), w.LOCATION)


def _at(e: Any) -> Any:
    """An entity's location, as ``world.entity_location`` reads it."""
    return _get(e, "location") if e else None


class _Names:
    """The sets of room names and player names, made when first asked (reading only)."""

    def __init__(self, ctx: Ctx):
        self.ctx = ctx
        self.rooms: set[Any] | None = None
        self.players: set[Any] | None = None

    def room(self, name: Any) -> bool:
        if self.rooms is None:
            self.rooms = w._rooms_view(self.ctx).name_set
        return name in self.rooms

    def player(self, name: Any) -> bool:
        if self.players is None:
            self.players = set(w.player_names(self.ctx))
        return name in self.players


def _renamed(items: list[tuple[Any, Any]], key: str = "name") -> bool:
    return any(_item(x, key) != _item(b, key) for x, b in items)


class _Pass:
    """A pass of ``run_all`` under way: what changed since the action started, asked once (``since``), and
    the state as the pass began (``before``), snapshotted only when a consequence is about to write."""

    def __init__(self, ctx: Ctx):
        self.ctx = ctx
        self.since: ch.Since | None = None
        self.before: dict[str, Any] | None = None
        self.acted = False


_passes: list[_Pass] = []  # the innermost pass under way last


def _since(ctx: Ctx) -> ch.Since:
    """What changed since the action started: the pass's own answers while it has written nothing."""
    p = _passes[-1] if _passes else None
    if p is None or p.ctx is not ctx or p.acted:
        return ch.Since(ctx)
    if p.since is None:
        p.since = ch.Since(ctx)
    return p.since


def _acting(ctx: Ctx) -> None:
    """A consequence may write now: the pass keeps the state it began with, to see whether it changed."""
    for p in _passes:
        if p.ctx is ctx and not p.acted:
            p.before = _snapshot(ctx)
            p.acted = True
            p.since = None


def _players_settled(ctx: Ctx) -> bool:
    s = _since(ctx)
    if not s.fixed:
        return False
    if s.unchanged("roster") and s.unchanged("entities", "servants"):
        return True
    players = s.items("roster", "players")
    servants = s.items("entities", "servants")
    if players is None or servants is None or not s.unchanged("roster", "stats"):
        return False
    if _renamed(players) or _renamed(servants, "owner"):
        return False
    wanted = _item(ctx.doc("roster"), "stats").keys()
    return all(wanted <= _item(x, "stats").keys() for x, _ in players)


def _rehome_settled(ctx: Ctx) -> bool:
    s = _since(ctx)
    if not s.fixed:
        return False
    if all(s.unchanged(kind) for kind in ("map", "roster", "entities", "tokens", "quests")):
        return True
    rooms = s.items("map", "rooms")
    players = s.items("roster", "players")
    servants = s.items("entities", "servants")
    entities = s.entries("entities")
    tokens = s.items("tokens", "tokens")
    quests = s.items("quests", "quests")
    if rooms is None or players is None or servants is None or entities is None or tokens is None or quests is None:
        return False
    if _renamed(rooms) or _renamed(players) or _renamed(servants, "owner"):
        return False  # the sets of rooms and players are as they were
    names = _Names(ctx)
    for x, b in players:
        if _location(x) != _location(b) and not names.room(_location(x)):
            return False
    for x, b in servants:
        if _item(x, "location") != _item(b, "location") and not names.room(_item(x, "location")):
            return False
    for key, x, b in entities:
        if key in w.ENTITIES and x and _at(x) != _at(b) and not names.room(_item(x, "location")):
            return False
    for x, b in tokens:
        loc = _item(x, "location")
        if loc != _item(b, "location"):
            kind, who = w.carrier(loc)
            if (kind == "room" and not names.room(who)) or (kind in ("player", "servant") and not names.player(who)):
                return False
        if "destination" in x and _item(x, "destination") != _get(b, "destination", _ABSENT) \
                and not names.room(_item(x, "destination")):
            return False
    for x, b in quests:
        where = [_item(x, k) for k in ("home", "locate", "goal")]
        if where != [_item(b, k) for k in ("home", "locate", "goal")] and not all(names.room(r) for r in where):
            return False
    return True


def _rooms_settled(ctx: Ctx) -> bool:
    s = _since(ctx)
    if not s.fixed:
        return False
    rooms = s.items("map", "rooms")
    return rooms is not None and not any(_get(x, "tax_haven") and _get(x, "toll") for x, _ in rooms)


def _high_security(rooms: list[dict[str, Any]]) -> set[Any]:
    """The names of the rooms that are high-security areas (the first room of a name, as ``room`` finds it)."""
    first: dict[Any, Any] = {}
    for r in rooms:
        first.setdefault(_item(r, "name"), r)
    return {n for n, r in first.items() if _get(r, "high_security")}


def _compasses(tokens: list[dict[str, Any]]) -> list[int]:
    """Where the prize compasses are in a list of tokens."""
    return [i for i, t in enumerate(tokens) if _get(t, "role") == "compass" and "destination" in t]


def _still_wild(ctx: Ctx, visited: list[tuple[Any, Any]], pointed: set[Any]) -> bool:
    """Whether the Savage Wilderness (Rule 122) is still where the compasses point, though the rooms
    ``visited`` (now, at the start) have other visits now. At the start it was (a fixpoint): the room
    with the fewest visits, then first in Standard Order, Mornington Crescent aside. The rooms kept their
    visits but those, so it still is unless one of those now comes before it, or it is one of them."""
    if len(pointed) != 1:
        return False
    (wild,) = pointed
    crescent = w.room_name(ctx, "crescent")
    start = ch.derived("rooms", ch.start(ctx, "map", "rooms"), w._Rooms, w._rooms_after)
    if wild is None or wild == crescent or start.names.count(wild) != 1:
        return w.savage_wilderness(ctx) == wild
    key = (_get(start.get(wild), "visits", 0), standard_key(wild))
    for x, _ in visited:
        name = _item(x, "name")
        if name == wild:
            return w.savage_wilderness(ctx) == wild
        if name != crescent and (_get(x, "visits", 0), standard_key(name)) < key:
            return False
    return True


def _is_banana(t: dict[str, Any]) -> bool:
    return "banana" in _item(t, "name").lower()


def _tokens_settled(ctx: Ctx) -> bool:
    s = _since(ctx)
    if not s.fixed:
        return False
    tokens = s.items("tokens", "tokens")
    rooms = s.items("map", "rooms")
    entities = s.entries("entities")
    if tokens is None or rooms is None or entities is None or s.items("roster", "players") is None:
        return False  # (the number of players matters: it did not change)
    for x, b in rooms:
        if _item(x, "name") != _item(b, "name") or bool(_get(x, "high_security")) != bool(_get(b, "high_security")):
            return False
    for key, x, b in entities:
        if key in ("omnibus", "monkey") and _at(x) != _at(b):
            return False
    return _tokens_kept(ctx, tokens, rooms)


def _progress_settled(ctx: Ctx) -> bool:
    s = _since(ctx)
    if not s.fixed or not s.unchanged("quests", "quests"):
        return False
    tokens = s.items("tokens", "tokens")
    players = s.items("roster", "players")
    if tokens is None or players is None or _renamed(players):
        return False
    if any("quest" in x or "quest" in b for x, b in tokens):
        return False
    quests = ch.start(ctx, "quests", "quests")
    if quests:
        places = {_item(q, k) for q in quests for k in ("home", "locate", "goal")}
        if any(_location(x) != _location(b) and _location(x) in places for x, b in players):
            return False
    return True


def _people_settled(ctx: Ctx) -> bool:
    s = _since(ctx)
    if not s.fixed or not s.unchanged("tables"):
        return False
    players = s.items("roster", "players")
    if players is None or _renamed(players):
        return False
    crescent = w.room_name(ctx, "crescent")
    for x, b in players:
        now, was = _item(x, "stats"), _item(b, "stats")
        if _get(now, w.LOCATION) == crescent or int(_get(now, w.DEMERITS, 0)) >= 3:
            return False
        if _get(now, w.GIFTS) and (_get(now, w.GIFTS) != _get(was, w.GIFTS)
                                   or _get(now, w.PUISSANCE, 0) != _get(was, w.PUISSANCE, 0)):
            return False
    return True


def _turn_settled(ctx: Ctx) -> bool:
    s = _since(ctx)
    if not s.fixed:
        return False
    now, was = ctx.doc("turn"), ch.start(ctx, "turn")
    if _get(now, "over"):
        return True
    if _get(was, "over") or _get(now, "active") != _get(was, "active"):
        return False
    players = s.items("roster", "players")
    return players is not None and not _renamed(players)


def _scores_settled(ctx: Ctx) -> bool:
    s = _since(ctx)
    if not s.fixed:
        return False
    now, was = ctx.doc("turn"), ch.start(ctx, "turn")
    if any(bool(_get(now, k)) != bool(_get(was, k)) for k in ("honours", "over")):
        return False
    players = s.items("roster", "players")
    tokens = s.items("tokens", "tokens")
    if players is None or tokens is None or _renamed(players):
        return False
    if any(_get(x, "role") == "imp" or _get(b, "role") == "imp" for x, b in tokens):
        return False
    least = min(int(w.option(ctx, "win_at", 350)), int(w.option(ctx, "honours_at", 250)))
    return not any(int(_get(_item(x, "stats"), w.BROWNIE, 0)) >= least for x, _ in players)


def _needs(ctx: Ctx) -> set[str] | None:
    """The ``_..._settled`` checks above at once, for a pass that has written nothing yet: which
    consequences may have something to do (the others would say they are settled). None when the action
    did not start from a fixpoint, or changed lists themselves, or renamed rooms or players: then each asks
    for itself. Each part below says the same as the check it is named after (or more)."""
    s = _since(ctx)
    if not s.fixed:
        return None
    players, servants = s.items("roster", "players"), s.items("entities", "servants")
    entities, tokens, rooms = s.entries("entities"), s.items("tokens", "tokens"), s.items("map", "rooms")
    quests = s.items("quests", "quests")
    if players is None or servants is None or entities is None or tokens is None or rooms is None or quests is None:
        return None
    if _renamed(players) or _renamed(servants, "owner") or _renamed(rooms):
        return None
    needs: set[str] = set()
    moved = [(x, b) for x, b in players if _location(x) != _location(b)]
    # _players
    if not s.unchanged("roster", "stats"):
        needs.add("players")
    elif players:
        wanted = _item(ctx.doc("roster"), "stats").keys()
        if not all(wanted <= _item(x, "stats").keys() for x, _ in players):
            needs.add("players")
    # rehome
    names = _Names(ctx)
    if any(not names.room(_location(x)) for x, _ in moved) or any(
            _item(x, "location") != _item(b, "location") and not names.room(_item(x, "location"))
            for x, b in servants) or any(
            key in w.ENTITIES and x and _at(x) != _at(b) and not names.room(_item(x, "location"))
            for key, x, b in entities):
        needs.add("rehome")
    for x, b in tokens:
        loc = _item(x, "location")
        if loc != _item(b, "location"):
            kind, who = w.carrier(loc)
            if (kind == "room" and not names.room(who)) or (kind in ("player", "servant") and not names.player(who)):
                needs.add("rehome")
        if "destination" in x and _item(x, "destination") != _get(b, "destination", _ABSENT) \
                and not names.room(_item(x, "destination")):
            needs.add("rehome")
    for x, b in quests:
        where = [_item(x, k) for k in ("home", "locate", "goal")]
        if where != [_item(b, k) for k in ("home", "locate", "goal")] and not all(names.room(r) for r in where):
            needs.add("rehome")
    # _rooms
    if any(_get(x, "tax_haven") and _get(x, "toll") for x, _ in rooms):
        needs.add("rooms")
    # _tokens
    if any(bool(_get(x, "high_security")) != bool(_get(b, "high_security")) for x, b in rooms) or any(
            key in ("omnibus", "monkey") and _at(x) != _at(b) for key, x, b in entities) or (
            (tokens or rooms) and not _tokens_kept(ctx, tokens, rooms)):  # (nothing to look at: kept)
        needs.add("tokens")
    # progress
    if not s.unchanged("quests", "quests") or any("quest" in x or "quest" in b for x, b in tokens):
        needs.add("progress")
    elif moved:
        at_start = ch.start(ctx, "quests", "quests")
        if at_start:
            places = {_item(q, k) for q in at_start for k in ("home", "locate", "goal")}
            if any(_location(x) in places for x, _ in moved):
                needs.add("progress")
    # _people
    if not s.unchanged("tables"):
        needs.add("people")
    elif players:
        crescent = w.room_name(ctx, "crescent")
        for x, b in players:
            now, was = _item(x, "stats"), _item(b, "stats")
            if _get(now, w.LOCATION) == crescent or int(_get(now, w.DEMERITS, 0)) >= 3 or (
                    _get(now, w.GIFTS) and (_get(now, w.GIFTS) != _get(was, w.GIFTS)
                                            or _get(now, w.PUISSANCE, 0) != _get(was, w.PUISSANCE, 0))):
                needs.add("people")
                break
    # _scores and _turn
    now, was = ctx.doc("turn"), ch.start(ctx, "turn")
    if any(bool(_get(now, k)) != bool(_get(was, k)) for k in ("honours", "over")) or any(
            _get(x, "role") == "imp" or _get(b, "role") == "imp" for x, b in tokens):
        needs.add("scores")
    elif players:
        least = min(int(w.option(ctx, "win_at", 350)), int(w.option(ctx, "honours_at", 250)))
        if any(int(_get(_item(x, "stats"), w.BROWNIE, 0)) >= least for x, _ in players):
            needs.add("scores")
    if not _get(now, "over") and (_get(was, "over") or _get(now, "active") != _get(was, "active")):
        needs.add("turn")
    return needs


def _tokens_kept(ctx: Ctx, tokens: list[tuple[Any, Any]], rooms: list[tuple[Any, Any]]) -> bool:
    """The part of ``_tokens_settled`` about the rooms' visits and the tokens that changed."""
    visited = [(x, b) for x, b in rooms if _get(x, "visits", 0) != _get(b, "visits", 0)]
    if visited:  # Rule 123: the Savage Wilderness may be elsewhere now
        at_start = ch.start(ctx, "tokens", "tokens")
        compasses = ch.derived("compasses", at_start, _compasses)
        if compasses and not _still_wild(ctx, visited, {_item(at_start[i], "destination") for i in compasses}):
            return False
    secure: set[Any] | None = None
    here = {"room": w.entity_location(ctx, "monkey")}
    on_monkey = {"monkey": True}
    for x, b in tokens:
        bomb = "delay_hours" in x
        if "delay_hours" in b and not bomb:
            return False  # a time bomb fewer: there may be none left (Rule 134)
        loc = _item(x, "location")
        if bomb and ("delay_hours" not in b or loc != _item(b, "location")):
            kind, where = w.carrier(loc)
            if kind == "room":
                if secure is None:
                    secure = ch.derived("secure", ch.start(ctx, "map", "rooms"), _high_security)
                if where in secure:
                    return False
        if _get(x, "role") in ("lunchbox", "compass") and "destination" in x and any(
                _get(x, k, _ABSENT) != _get(b, k, _ABSENT) for k in ("role", "destination")):
            return False
        if (loc == here and _is_banana(x)) or (_item(b, "location") == on_monkey and _is_banana(b)):
            return False
    return True


def _homeless(ctx: Ctx, names: set[Any], players: set[Any]) -> bool:
    """Whether ``rehome`` has anything to do: something whose place (or owner, or destination) is gone."""
    for p in w._raw_players(ctx):
        if _get(_item(p, "stats"), w.LOCATION) not in names:
            return True
    ent = ctx.doc("entities")
    for s in peek(_item(ent, "servants")):
        if _item(s, "owner") not in players or _item(s, "location") not in names:
            return True
    for which in w.ENTITIES:
        e = _get(ent, which)
        if e and _item(e, "location") not in names:
            return True
    for t in peek(w.tokens(ctx)):
        kind, who = w.carrier(_item(t, "location"))
        if (kind == "room" and who not in names) or (kind in ("player", "servant") and who not in players):
            return True
        if "destination" in t and _item(t, "destination") not in names:
            return True
    for q in peek(ctx.doc("quests")["quests"]):
        if not {_item(q, "home"), _item(q, "locate"), _item(q, "goal")} <= names:
            return True
    return False


def rehome(ctx: Ctx) -> None:
    if _rehome_settled(ctx):
        return
    names = set(w.room_names(ctx))
    players = set(w.player_names(ctx))
    if not _homeless(ctx, names, players):
        return
    _acting(ctx)
    saturn = w.room_name(ctx, "saturn")
    for p in ctx.doc("roster")["players"]:
        if p["stats"].get(w.LOCATION) not in names:
            w.set_player_location(ctx, p["name"], w.fallback_room(ctx, saturn), how="Rules 53, 69", by_action=False)
    ent = ctx.doc("entities")
    if any(s["owner"] not in players for s in ent["servants"]):  # Rule 44 C
        for s in ent["servants"]:
            if s["owner"] not in players:
                ctx.step({"servant_gone": s["owner"]})
        ctx.edit("entities")["servants"] = [s for s in ent["servants"] if s["owner"] in players]
    for s in ctx.doc("entities")["servants"]:
        if s["location"] not in names:
            w.set_servant_location(ctx, s["owner"], w.fallback_room(ctx, w.room_name(ctx, "quarters")),
                                   how="Rules 52, 69", by_action=False)
    for which in w.ENTITIES:
        e = ctx.doc("entities").get(which)
        if e and e["location"] not in names:
            w.set_entity_location(ctx, which, w.fallback_room(ctx, saturn), how="Rules 53, 69")
    attic = w.room_name(ctx, "attic")
    for t in list(w.tokens(ctx)):
        kind, who = w.carrier(t["location"])
        gone = (kind == "room" and who not in names) or (kind in ("player", "servant") and who not in players)
        if gone:
            w.set_token_location(ctx, w.edit_token(ctx, t["id"]), {"room": w.fallback_room(ctx, attic)})
            ctx.step({"token": t["id"], "rehomed": "Rules 49, 69"})
        if w.is_prize(t) and t["destination"] not in names:
            nowhere = w.room_name(ctx, "nowhere")
            dest = nowhere if nowhere in names else alphabetical_extreme(names, last=True)
            w.edit_token(ctx, t["id"])["destination"] = dest
            ctx.step({"token": t["id"], "destination": dest, "rule": "r57"})
    from .quests import finish, roster

    for q in list(roster(ctx)):
        if not {q["home"], q["locate"], q["goal"]} <= names:
            finish(ctx, q, why="removed: a room vanished (Rule 151)")


def _players(ctx: Ctx) -> None:
    """Every player has every stat (new players: 10 brownie points, Rule 148; Puissance 1, Rule 136)
    and a servant (Rule 44)."""
    if _players_settled(ctx):
        return
    roster = ctx.doc("roster")
    wanted = _item(roster, "stats").keys()
    owners = {_item(s, "owner") for s in peek(ctx.doc("entities")["servants"])}
    if all(wanted <= _item(p, "stats").keys() and _item(p, "name") in owners for p in w._raw_players(ctx)):
        return
    _acting(ctx)
    defs = ctx.doc("roster")["stats"]
    for p in ctx.doc("roster")["players"]:
        missing = [k for k in defs if k not in p["stats"]]
        if missing:
            e = ctx.edit_player(p["name"])
            fresh = new_stats(defs)
            # seed 002 Rule 148 gives a player added to the game 10 brownie points (the roster's default); repealed,
            # the tally of Rule 28 starts empty, at 0, as Rule 41 starts the demerits (a reading: no rule says)
            if w.BROWNIE in fresh and w.repealed(ctx, "r148"):
                fresh[w.BROWNIE] = 0
            # ifMUD seed, Rule 14: a player's location is initially the Lounge (the roster's default). With that room
            # no longer on the map, Rule 69 names the room alphabetically first as the location at once, as for the
            # other rooms the rules send something to (xyzzy, Rule 62; the burst bubble, Rule 29): the newcomer is
            # not put in a room that is gone and then sent on to Saturn (Rule 53, for a location that ceases to
            # exist), which would be a change of location, paid by Rule 99, charged by Rule 43, counted by Rule 98.
            if isinstance(fresh.get(w.LOCATION), str):
                fresh[w.LOCATION] = w.required_room(ctx, fresh[w.LOCATION]) or fresh[w.LOCATION]
            for k in missing:
                e["stats"][k] = fresh[k]
        if w.servant(ctx, p["name"]) is None:
            ctx.edit("entities")["servants"].append({"owner": p["name"], "location": w.room_name(ctx, "quarters"),
                                                     "since": format_time(ctx.at)})
            ctx.step({"servant_for": p["name"]})


def complete_players(ctx: Ctx) -> None:
    """``_players`` outside the consequences: a ratified proposal's effects that add a player give them their
    starting tallies (Rules 41, 136, 148) and location (Rule 14) before anything the same effects set off is counted
    on those tallies (``consent._take_effect``: the Bottle Imp put in their hands, Rule 149), as a player already on
    the roster has them."""
    _players(ctx)


def _remove_player(ctx: Ctx, who: str, why: str, lost: bool = False, left: bool = False,
                   was: dict[str, Any] | None = None) -> None:
    """Take ``who`` off the roster into ``roster.former``. ``left``: of their own accord (Rule 13); otherwise the
    rules removed them (Rules 11, 16, 33), or a ratified proposal's effects did (``was``: their entry before those
    effects took it off), and ``why`` is kept there as the ``reason`` the roster page shows.

    The record keeps their account and any names they had given up (``formerly``): Rule 27 orders turns by the names
    players are known by, so a departed player's names stay theirs (``roster.used_names``), and one who left without
    losing may be added back by consent (Rules 12, 33), known by the account (``consent._names_of_the_departed``)."""
    roster = ctx.edit("roster")
    me = was or next((p for p in peek(roster["players"]) if p["name"] == who), None)
    roster["players"] = [p for p in roster["players"] if p["name"] != who]
    entry = {"name": who}
    if me and me.get("account"):
        entry["account"] = me["account"]
    entry["left"] = format_time(ctx.at)
    if me and me.get("formerly"):
        entry["formerly"] = [dict(g) for g in me["formerly"]]
    if not left:
        entry["reason"] = why
    roster.setdefault("former", []).append(entry)
    if lost:
        ctx.edit("turn").setdefault("lost", []).append(who)
    for key in ("passive_turn_takers", "asleep"):
        if who in (w.turn(ctx).get(key) or []):
            ctx.edit("turn")[key].remove(who)
    if who in (ctx.doc("consent").get("passive_voters") or []):
        ctx.edit("consent")["passive_voters"].remove(who)
    ctx.step({"removed": who, "why": why})
    rehome(ctx)


def remove_player(ctx: Ctx, who: str, why: str, lost: bool = False, left: bool = False,
                  was: dict[str, Any] | None = None) -> None:
    _remove_player(ctx, who, why, lost, left, was)


def _rooms(ctx: Ctx) -> None:
    # seed 002 Rule 68: a toll in a tax haven ceases; with the rule repealed, a tax haven keeps its toll
    if _rooms_settled(ctx) or w.repealed(ctx, "r68") \
            or not any(_get(r, "tax_haven") and _get(r, "toll") for r in peek(w.rooms(ctx))):
        return
    _acting(ctx)
    for r in w.rooms(ctx):
        if r.get("tax_haven") and r.get("toll"):  # Rule 68
            for e in ctx.edit("map")["rooms"]:
                if e["name"] == r["name"]:
                    ctx.step({"toll_ceases": e.pop("toll")["name"], "in": r["name"], "rule": "r68"})


def _token_work(ctx: Ctx) -> set[str]:
    """Which parts of ``_tokens`` have something to do, from one read of the tokens."""
    todo: set[str] = set()
    bombs = False
    secure: set[Any] | None = None
    bus = w.entity_location(ctx, "omnibus")
    here = {"room": w.entity_location(ctx, "monkey")}
    on_monkey = {"monkey": True}
    banana_here = banana_held = False
    pointed: set[Any] = set()
    for t in peek(w.tokens(ctx)):
        if "delay_hours" in t:
            bombs = True
            kind, where = w.carrier(_item(t, "location"))
            if kind == "room":
                if secure is None:
                    secure = {n for n, r in w.room_index(ctx).items() if _get(r, "high_security")}
                if where in secure:
                    todo.add("secure")
        role = _get(t, "role")
        if role == "lunchbox" and "destination" in t and _item(t, "destination") != bus:
            todo.add("lunchbox")
        elif role == "compass" and "destination" in t:
            pointed.add(_item(t, "destination"))
        loc = _item(t, "location")
        if (loc == here or loc == on_monkey) and "banana" in _item(t, "name").lower():
            if loc == here:
                banana_here = True
            else:
                banana_held = True
    if not bombs and w.player_names(ctx):
        todo.add("bombs")
    if pointed and pointed != {w.savage_wilderness(ctx)}:
        todo.add("compass")
    if banana_here and not banana_held:
        todo.add("monkey")
    for part in todo & _TOKEN_RULES.keys():
        if w.repealed(ctx, _TOKEN_RULES[part]):  # that part's rule is repealed: it has nothing to do
            todo.discard(part)
    return todo


# The parts of ``_tokens`` and the rules that make them (seed 002): Rule 74 removes a time bomb lying in a
# high-security area; Rule 134 gives each player a bomb when none is left; Rule 106 points the Lunchbox at the
# Omnibus; Rule 123 points the Compass at the Savage Wilderness; Rule 138 has the monkey swap what it holds for
# a banana. While a rule is repealed its part does nothing.
_TOKEN_RULES = {"secure": "r74", "bombs": "r134", "lunchbox": "r106", "compass": "r123", "monkey": "r138"}


def _tokens(ctx: Ctx) -> None:
    if _tokens_settled(ctx):
        return
    todo = _token_work(ctx)
    if not todo:
        return
    _acting(ctx)
    if "secure" in todo:
        for t in list(w.tokens(ctx)):
            kind, where = w.carrier(t["location"])
            if w.is_time_bomb(t) and kind == "room" and (w.room(ctx, where) or {}).get("high_security"):
                w.remove_token(ctx, w.edit_token(ctx, t["id"]), "Rule 74: time bomb in a high-security area")
        todo = _token_work(ctx)
    if "bombs" in todo:  # Rule 134
        for p in w.player_names(ctx):
            w.new_token(ctx, {"name": f"{p}'s bomb", "location": {"player": p}, "delay_hours": 24})
        todo = _token_work(ctx)
    if "lunchbox" in todo:
        bus = w.entity_location(ctx, "omnibus")
        for t in w.by_role(ctx, "lunchbox"):  # Rule 106
            if w.is_prize(t) and t["destination"] != bus:
                w.edit_token(ctx, t["id"])["destination"] = bus
        todo = _token_work(ctx)
    if "compass" in todo:
        wild = w.savage_wilderness(ctx)
        for t in w.by_role(ctx, "compass"):  # Rule 123
            if w.is_prize(t) and t["destination"] != wild:
                w.edit_token(ctx, t["id"])["destination"] = wild
        todo = _token_work(ctx)
    if "monkey" not in todo:
        return
    # Rule 138: the monkey drops what it has for the first banana in Standard Order.
    here = w.entity_location(ctx, "monkey")
    held = w.carried_by(ctx, "monkey")
    bananas = [t for t in w.tokens(ctx) if "banana" in t["name"].lower() and t["location"] == {"room": here}]
    if bananas and not any("banana" in t["name"].lower() for t in held):
        for t in held:
            w.set_token_location(ctx, w.edit_token(ctx, t["id"]), {"room": here})
        first = standard_order(bananas, lambda t: t["name"])[0]
        w.set_token_location(ctx, w.edit_token(ctx, first["id"]), {"monkey": True})
        ctx.step({"monkey": "took a banana", "token": first["id"], "rule": "r138"})


def _kept_gifts(stats: dict[str, Any], gifts: set[Any], limited: bool = True) -> tuple[Any, list[Any]]:
    """(the gifts a player has, the gifts they keep): Rules 127 and 137.

    A proposal's patch may write anything there: an entry that is not the name of a Dark Gift of Rule 124 (a
    number, a list) is no gift, and is lost as a removed gift is (Rule 127); a value that is no list at all is
    read as the one entry it is, and rewritten as a list."""
    raw = _get(stats, w.GIFTS) or []
    have = list(raw) if isinstance(raw, list) else [raw]
    keep = [g for g in have if isinstance(g, str) and g in gifts]  # Rule 127: removed gifts are lost
    keep = list(dict.fromkeys(keep))
    limit = max(0, int(_get(stats, w.PUISSANCE, 0)))
    if limited and len(keep) > limit:  # Rule 137: lose from the end of Standard Order
        ordered = standard_order(keep)
        lose = set(ordered[limit:])
        keep = [g for g in keep if g not in lose]
    return have if isinstance(raw, list) else raw, keep


def _people(ctx: Ctx) -> None:
    if _people_settled(ctx):
        return
    crescent = w.room_name(ctx, "crescent")
    # seed 002 Rule 16: whoever reaches Mornington Crescent wins it, and so loses; repealed, they simply stand there
    if crescent in w.locations(ctx).values() and not w.repealed(ctx, "r16"):
        _acting(ctx)
        for p in list(w.player_names(ctx)):
            if w.location_of_player(ctx, p) == crescent:  # Rule 16
                ctx.step({"won_mornington_crescent": p})
                _remove_player(ctx, p, "won Mornington Crescent, and so lost (Rules 16, 33)", lost=True)
    # seed 002 Rule 11: three demerits put a player out of the game; repealed, demerits remove nobody
    if any(v >= 3 for v in w.tallies(ctx, w.DEMERITS).values()) and not w.repealed(ctx, "r11"):
        _acting(ctx)
        for p in list(w.player_names(ctx)):
            if w.tally(ctx, p, w.DEMERITS) >= 3:  # Rule 11
                _remove_player(ctx, p, "three demerits (Rule 11)")
    gifted = [_item(p, "stats") for p in w._raw_players(ctx) if _get(_item(p, "stats"), w.GIFTS)]
    if not gifted:
        return  # nobody has a gift: nobody loses one
    gifts = {g["name"] for g in ctx.doc("tables").get("dark_gifts", [])}
    # seed 002 Rule 137: no more gifts than one's Puissance; repealed, a player keeps every gift they have
    limited = not w.repealed(ctx, "r137")
    if all(have == keep for have, keep in (_kept_gifts(stats, gifts, limited) for stats in gifted)):
        return
    _acting(ctx)
    for p in ctx.doc("roster")["players"]:
        have, keep = _kept_gifts(p["stats"], gifts, limited)
        if keep != have:
            ctx.edit_player(p["name"])["stats"][w.GIFTS] = keep
            ctx.step({"gifts": p["name"], "now": keep, "rule": "r137"})


def _scores(ctx: Ctx) -> None:
    if _scores_settled(ctx):
        return
    goal = int(w.option(ctx, "win_at", 350))
    honours = int(w.option(ctx, "honours_at", 250))
    t = w.turn(ctx)
    # seed 002 Rule 150: the Bottle Imp caps its carrier's points at the winning line; repealed, it caps nothing
    for imp in (() if w.repealed(ctx, "r150") else w.by_role(ctx, "imp")):
        kind, who = w.carrier(imp["location"])
        if kind in ("player", "servant") and who in w.player_names(ctx):
            v = w.tally(ctx, who)
            if v >= goal:
                _acting(ctx)
                cap = min(50, v // 5) if kind == "player" else min(150, v // 2)
                w.add_tally(ctx, who, cap - v, w.BROWNIE, "Rule 150: the Bottle Imp")
    names = w.player_names(ctx)
    brownie = w.tallies(ctx)
    # seed 002 Rule 153: the first to 250 points takes the Honours; repealed, nobody does
    if not t.get("honours") and not w.repealed(ctx, "r153"):
        reached = [p for p in names if brownie[p] >= honours]
        if reached:
            _acting(ctx)
            ctx.edit("turn")["honours"] = {"kind": "First Honours" if len(reached) == 1 else "Shared Honours",
                                           "players": reached, "at": format_time(ctx.at)}
            ctx.step({"honours": reached})
    # Rule 148: whoever reaches 350 wins; Rule 33: a win ends the game. Players who reach it at the same moment
    # (a toll's halves, Rule 43; a quest finished by several, Rule 141) all win: no rule picks one of them.
    # seed 002 Rule 148: 350 points win; repealed, points win nothing (and Rule 33's losers follow no winner)
    winners = [p for p in names if brownie[p] >= goal]
    if winners and not t.get("over") and not w.repealed(ctx, "r148"):
        _acting(ctx)
        ctx.edit("turn")["over"] = {"winners": winners, "at": format_time(ctx.at)}
        ctx.step({"wins": winners, "rule": "r148"})
        # Rule 33: the players who have not won lose, and a player who loses is removed from the state of the game
        # (and may not rejoin: listed in turn.lost), as Rule 16's loser is. The game is over, so nothing is left
        # for them to do; their servants go and what they carried goes to the Attic (Rules 44, 49).
        for p in names:
            if p not in winners:
                ctx.step({"lost": p, "final": {k: w.tally(ctx, p, k) for k in (w.BROWNIE, w.DEMERITS, w.PUISSANCE)},
                          "rule": "r33"})
                _remove_player(ctx, p, "did not win, and so lost (Rule 33)", lost=True)


def _turn(ctx: Ctx) -> None:
    from .turns import end_turn

    if _turn_settled(ctx):
        return
    t = w.turn(ctx)
    if t.get("over"):
        return
    if t.get("active") and t["active"] not in w.player_names(ctx):  # Rule 27: removed mid-turn
        _acting(ctx)
        end_turn(ctx, ctx.at, "player removed")
    elif not t.get("active") and w.player_names(ctx):
        # Rule 27: one player is always active, and the first in surname order is when there was none (a new game,
        # or players added after every player left)
        _acting(ctx)
        e = ctx.edit("turn")
        e["active"] = next_in_turn(w.player_names(ctx), None)
        e["started"] = format_time(ctx.at)
        e["number"] = int(e.get("number", 0)) + 1
        ctx.step({"turn_begins": e["active"], "number": e["number"], "rule": "r27"})


# ---------------------------------------------------------------- until nothing changes
#
# ``run_all`` repeats its pass until a pass leaves these documents as they were. It used to compare their
# JSON; now it compares snapshots (changes.snap), which share every part the transaction did not change,
# so the comparison walks only what changed, and compares values as the JSON did.

_WATCHED = ("roster", "map", "entities", "tokens", "quests", "turn")


def _snapshot(ctx: Ctx) -> dict[str, Any]:
    edited = ctx.tx.docs
    return {k: ch.snap(edited[k]) if k in edited else ctx.tx.base.docs[k] for k in _WATCHED}


def run_all(ctx: Ctx) -> None:
    for _ in range(20):
        p = _Pass(ctx)
        untouched = _untouched(ctx)  # the action changed nothing any consequence reads: none has anything to do
        if ch.VERIFY:  # the tests check that, and that no consequence writes without saying so first
            p.before = _snapshot(ctx)
        elif untouched:
            ch.remember(ctx, _snapshot(ctx))
            return
        _passes.append(p)
        try:
            needs = set() if untouched else _needs(ctx)
            for name, consequence in _PASS:
                if needs is None or p.acted or name in needs:
                    consequence(ctx)
                elif ch.VERIFY:  # the tests run it all the same: it must find nothing to do
                    consequence(ctx)
                    if p.acted:
                        raise AssertionError(f"consequence {name} acted where it was judged to have nothing to do")
        finally:
            _passes.pop()
        after = _snapshot(ctx)
        if not p.acted:  # nothing was written: nothing changed
            if p.before is not None and not _all_same(p.before, after):
                raise AssertionError("a consequence wrote without calling _acting first")
            ch.remember(ctx, after)
            return
        if p.before is not None and _all_same(p.before, after):
            ch.remember(ctx, after)
            return


def _untouched(ctx: Ctx) -> bool:
    """The action started from a fixpoint and has written into none of the documents the consequences read
    (a vote, say): then every ``_..._settled`` above would say so."""
    edited = ctx.tx.docs
    if any(kind in edited for kind in ch.READ):
        s = _since(ctx)
        return s.fixed and all(s.unchanged(kind) for kind in ch.READ)
    return ch.at_fixpoint(ctx)


def _all_same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return all(ch.same(a[k], b[k]) for k in _WATCHED)


def _progress(ctx: Ctx) -> None:
    from .quests import progress

    if not _progress_settled(ctx):
        _acting(ctx)
        progress(ctx)


_PASS = (("players", _players), ("rehome", rehome), ("rooms", _rooms), ("tokens", _tokens),
         ("progress", _progress), ("people", _people), ("scores", _scores), ("turn", _turn))


def consequence(ctx: Ctx) -> None:
    run_all(ctx)

