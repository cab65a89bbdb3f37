"""Reading and changing ifMUD Nomic's world: rooms, connections, where things are, tallies.

Every change of location goes through this file, so the rules that fire "whenever"
something enters a room (tolls, Rule 43; brownie points for moving, Rule 99; the
bubble, Rule 29; the pie bomb, Rule 118; the Bottle Imp, Rule 149) fire for every way
of getting there.
"""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any, Iterator

from ...engine import Ctx, State
from ...problems import Illegal, Problem
from ...timeutil import format_time
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


def room_name(state: State | Ctx, key: str) -> str:
    return str(state.config.get("options", {}).get("ifmud", {}).get("rooms", {}).get(key, ROOMS[key]))


def option(state: State | Ctx, name: str, default: Any) -> Any:
    return state.config.get("options", {}).get("ifmud", {}).get(name, default)


def dice_sizes(state: State | Ctx) -> list[int]:
    return list(state.doc("tables").get("dice") or DEFAULT_DICE)


def refuse(ctx: Ctx, message: str, rule: str | None = None) -> Illegal:
    return ctx.refuse(message, rule)


# ---------------------------------------------------------------- rooms and connections


def rooms(state: State | Ctx) -> list[dict[str, Any]]:
    return state.doc("map")["rooms"]


def room_names(state: State | Ctx) -> list[str]:
    return [r["name"] for r in rooms(state)]


def room(state: State | Ctx, name: str) -> dict[str, Any] | None:
    for r in rooms(state):
        if r["name"] == name:
            return r
    return None


def resolve_room(state: State | Ctx, given: str) -> str | None:
    """A room by its name, its name in another case, or a synonym of it (Rule 72)."""
    names = room_names(state)
    if given in names:
        return given
    folded = {n.casefold(): n for n in names}
    if given.casefold() in folded:
        return folded[given.casefold()]
    for row in state.doc("tables").get("synonyms", []):
        words = [w.casefold() for w in row]
        if given.casefold() in words:
            for w in row:
                if w.casefold() in folded:
                    return folded[w.casefold()]
    return None


def is_tuesday(at: datetime) -> bool:
    return at.weekday() == 1


def connected(state: State | Ctx, a: str, b: str, at: datetime) -> bool:
    """Rules 25, 39, 107: a two-way connection, and Brigadoon only on Tuesdays (UTC)."""
    if a == b:
        return False
    for r in (room(state, a), room(state, b)):
        if r is None or (r.get("tuesdays_only") and not is_tuesday(at)):
            return False
    for c in state.doc("map")["connections"]:
        if set(c["between"]) == {a, b}:
            return True
    return False


def neighbours(state: State | Ctx, a: str, at: datetime) -> list[str]:
    return standard_order(n for n in room_names(state) if connected(state, a, n, at))


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
    r = room(state, name)
    if r is None:
        return []
    haven = bool(r.get("tax_haven"))
    out = []
    if r.get("toll") and not haven:
        out.append(r["toll"])
    if r.get("damage", 0) > 0 and (not haven or option(state, "death_toll_in_haven", False)):
        out.append({"name": "Death Toll", "value": 2 * r["damage"]})
    return out


def savage_wilderness(state: State | Ctx) -> str | None:
    """Rule 122: the room with the fewest visits, Mornington Crescent aside; ties by Standard Order."""
    crescent = room_name(state, "crescent")
    candidates = [r for r in rooms(state) if r["name"] != crescent]
    if not candidates:
        return None
    least = min(r.get("visits", 0) for r in candidates)
    return standard_order([r["name"] for r in candidates if r.get("visits", 0) == least])[0]


def fallback_room(state: State | Ctx, wanted: str) -> str:
    """Rule 69: a room that no longer exists is replaced by the room alphabetically first."""
    if room(state, wanted) is not None:
        return wanted
    first = alphabetical_extreme(room_names(state))
    if first is None:
        raise ValueError("the map has no room with a name to fall back on (Rule 69)")
    return first


# ---------------------------------------------------------------- players, servants, entities


def player_names(state: State | Ctx) -> list[str]:
    return [p["name"] for p in state.doc("roster")["players"]]


def location_of_player(state: State | Ctx, name: str) -> str | None:
    for p in state.doc("roster")["players"]:
        if p["name"] == name:
            return p["stats"].get(LOCATION)
    return None


def servant(state: State | Ctx, owner: str) -> dict[str, Any] | None:
    for s in state.doc("entities")["servants"]:
        if s["owner"] == owner:
            return s
    return None


def edit_servant(ctx: Ctx, owner: str) -> dict[str, Any]:
    for s in ctx.edit("entities")["servants"]:
        if s["owner"] == owner:
            return s
    raise refuse(ctx, f"{owner} has no servant", "r44")


def entity_location(state: State | Ctx, which: str) -> str | None:
    e = state.doc("entities").get(which)
    return e.get("location") if e else None


def tally(state: State | Ctx, who: str, stat: str = BROWNIE) -> int:
    for p in state.doc("roster")["players"]:
        if p["name"] == who:
            return int(p["stats"].get(stat, 0))
    return 0


def may_lose(ctx: Ctx, who: str, amount: int, why: str, stat: str = BROWNIE) -> Iterator[Problem]:
    """Rule 42: an action by individual intent may not be one that *could* send the actor's own
    tally below zero, or push a negative tally further down. ``amount`` is the worst case."""
    if amount <= 0:
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
    p = ctx.edit_player(who)
    p["stats"][stat] = int(p["stats"].get(stat, 0)) + amount
    ctx.step({"tally": who, stat: amount, **({"why": why} if why else {})})


# ---------------------------------------------------------------- tokens


def tokens(state: State | Ctx) -> list[dict[str, Any]]:
    return state.doc("tokens")["tokens"]


def token(state: State | Ctx, ident: int) -> dict[str, Any] | None:
    for t in tokens(state):
        if t["id"] == ident:
            return t
    return None


def edit_token(ctx: Ctx, ident: int) -> dict[str, Any]:
    for t in ctx.edit("tokens")["tokens"]:
        if t["id"] == ident:
            return t
    raise ctx.refuse(f"there is no token #{ident}", "r54")


def find_token(ctx: Ctx, ref: Any) -> dict[str, Any]:
    """A token by id, or by a name that only one token has."""
    if isinstance(ref, int):
        t = token(ctx, ref)
        if t is None:
            raise ctx.refuse(f"there is no token #{ref}", "r54")
        return t
    hits = [t for t in tokens(ctx) if t["name"] == ref] or [t for t in tokens(ctx)
                                                            if t["name"].casefold() == str(ref).casefold()]
    if not hits:
        raise ctx.refuse(f"there is no token named {ref!r}", "r54")
    if len(hits) > 1:
        raise ctx.refuse(f"{len(hits)} tokens are named {ref!r}; give its number ({', '.join('#' + str(t['id']) for t in hits)})",
                         "r54")
    return hits[0]


def by_role(state: State | Ctx, role: str) -> list[dict[str, Any]]:
    return [t for t in tokens(state) if t.get("role") == role]


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
    return [t for t in tokens(state) if t["location"] == want]


def is_time_bomb(t: dict[str, Any]) -> bool:
    return "delay_hours" in t


def is_prize(t: dict[str, Any]) -> bool:
    return "destination" in t


def set_token_location(ctx: Ctx, t: dict[str, Any], loc: dict[str, Any], *, by: str = "", direct: bool = False) -> None:
    """Move a token (``t`` must come from ctx.edit('tokens')). Keeps Rule 70's clock, Rule 90's
    last mover, Rule 100's one-token monkey, Rule 112/145's bars and Rule 149's Bottle Imp."""
    kind, who = carrier(loc)
    if kind == "monkey" and any(x["id"] != t["id"] for x in carried_by(ctx, "monkey")):
        if direct:
            raise ctx.refuse("the monkey already carries a token and may carry only one", "r100")
        loc = {"room": entity_location(ctx, "monkey")}
        kind, who = "room", str(loc["room"])
    old = t["location"]
    if old == loc:
        return
    old_kind, old_who = carrier(old)
    t["location"] = loc
    t["since"] = format_time(ctx.at)
    if by:
        t["moved_by"] = by
    if t.get("barred") and kind in ("player", "servant") and who != t["barred"]:
        del t["barred"]  # picked up by another player or servant
    if t.get("role") == "imp":
        if old_kind == "player" and old_who in player_names(ctx):
            add_tally(ctx, old_who, -1, PUISSANCE, "Rule 149: the Bottle Imp left them")
        if kind == "player":
            add_tally(ctx, who, 1, PUISSANCE, "Rule 149: the Bottle Imp came to them")


def remove_token(ctx: Ctx, t: dict[str, Any], why: str) -> None:
    """Remove a token from the game; a protected one goes to the Jaws of Death first (Rule 154)."""
    jaws = room_name(ctx, "jaws")
    if t.get("protected") and t["location"] != {"room": jaws} and room(ctx, jaws) is not None:
        set_token_location(ctx, t, {"room": jaws})
        ctx.step({"token": t["id"], "to": jaws, "why": f"protected ({why})"})
        return
    doc = ctx.edit("tokens")
    if t.get("role") == "imp" and carrier(t["location"])[0] == "player":
        who = carrier(t["location"])[1]
        if who in player_names(ctx):
            add_tally(ctx, who, -1, PUISSANCE, "Rule 149: the Bottle Imp left them")
    if t.get("role") == "cigar":
        doc["last_cigar"] = {k: v for k, v in t.items() if k in ("name", "location", "destination", "value",
                                                                   "delay_hours")}
    doc["tokens"] = [x for x in doc["tokens"] if x["id"] != t["id"]]
    ctx.step({"token": t["id"], "name": t["name"], "removed": why})


def new_token(ctx: Ctx, fields: dict[str, Any]) -> dict[str, Any]:
    doc = ctx.edit("tokens")
    t = {"id": doc["next"], **fields}
    t.setdefault("since", format_time(ctx.at))
    doc["next"] += 1
    doc["tokens"].append(t)
    ctx.step({"token": t["id"], "created": t["name"], "at": t["location"]})
    if t.get("role") == "imp" and carrier(t["location"])[0] == "player":
        add_tally(ctx, carrier(t["location"])[1], 1, PUISSANCE, "Rule 149")
    return t


def drop_all(ctx: Ctx, kind: str, who: str, why: str) -> None:
    """Everything a player, servant or the monkey carries goes to the room they are in."""
    here = {"player": lambda: location_of_player(ctx, who), "servant": lambda: (servant(ctx, who) or {}).get("location"),
            "monkey": lambda: entity_location(ctx, "monkey")}[kind]()
    for t in list(carried_by(ctx, kind, who)):
        set_token_location(ctx, edit_token(ctx, t["id"]), {"room": here})
        ctx.step({"dropped": t["name"], "by": who or kind, "why": why})


def select(ctx: Ctx, items: list[str], what: str, rule: str) -> str:
    """Random Selection (Rule 95) with the action's verifiable dice."""
    from .order import NoSelection

    try:
        choice = random_selection(items, ctx.roll, dice=dice_sizes(ctx))
    except NoSelection as e:
        raise ctx.refuse(f"cannot choose {what} by Random Selection: {e}", rule) from None
    ctx.step({"random_selection": what, "from": len(items), "chose": choice})
    return choice


# ---------------------------------------------------------------- arriving somewhere


def turn(state: State | Ctx) -> dict[str, Any]:
    return state.doc("turn")


def entry_cost(state: State | Ctx, who: str, dest: str) -> int:
    """The worst brownie-point change of ``who`` entering ``dest``: tolls less Rule 99's award."""
    paid = sum(int(t["value"]) for t in tolls(state, dest))
    return paid - visit_award(state, dest)


def visit_award(state: State | Ctx, dest: str) -> int:
    """Rule 99: the largest visits tally on the map less the new room's."""
    r = room(state, dest)
    if r is None:
        return 0
    return max(x.get("visits", 0) for x in rooms(state)) - r.get("visits", 0)


def set_player_location(ctx: Ctx, who: str, dest: str, *, how: str, by_action: bool = True) -> None:
    """A player's location changes: Rules 43 (tolls), 98 (visits counted at the turn's end), 99
    (brownie points), 29 (the bubble) and 118 (the pie bomb). Rule 16 is a consequence."""
    p = ctx.edit_player(who)
    old = p["stats"].get(LOCATION)
    if old == dest:
        return
    p["stats"][LOCATION] = dest
    ctx.step({"player": who, "from": old, "to": dest, "how": how})
    award = visit_award(ctx, dest)
    if award:
        add_tally(ctx, who, award, BROWNIE, "Rule 99: visits")
    for toll in tolls(ctx, dest):
        value = int(toll["value"])
        add_tally(ctx, who, -value, BROWNIE, f"Rule 43: toll {toll['name']}")
        for other in player_names(ctx):
            if other != who:
                add_tally(ctx, other, math.ceil(value / 2), BROWNIE, f"Rule 43: half of {who}'s toll")
    tdoc = ctx.edit("turn")
    arrivals = tdoc.setdefault("arrivals", {})
    arrivals[dest] = int(arrivals.get(dest, 0)) + 1
    if dest == room_name(ctx, "bubble"):
        enter_bubble(ctx, who)
    if by_action:
        pie_bomb_trap(ctx, dest)


def set_servant_location(ctx: Ctx, owner: str, dest: str, *, how: str, by_action: bool = True) -> None:
    s = edit_servant(ctx, owner)
    if s["location"] == dest:
        return
    ctx.step({"servant": owner, "from": s["location"], "to": dest, "how": how})
    s["location"] = dest
    if by_action:
        pie_bomb_trap(ctx, dest)


def set_entity_location(ctx: Ctx, which: str, dest: str, *, by: str = "", how: str = "", by_action: bool = False) -> None:
    e = ctx.edit("entities")[which]
    if e["location"] == dest:
        return
    ctx.step({which: e["location"], "to": dest, **({"how": how} if how else {})})
    e["location"] = dest
    if which == "monkey":
        e["moved_by"] = by
        e["moved_at"] = format_time(ctx.at)
        if by_action:
            pie_bomb_trap(ctx, dest)


def enter_bubble(ctx: Ctx, who: str) -> None:
    """Rule 29: 1, 2, 4 ... brownie points to each new enterer (not twice running); 32 bursts it."""
    m = ctx.edit("map")
    b = m.setdefault("bubble", {"next": 1, "last": None})
    if b.get("last") == who:
        ctx.step({"bubble": "no points: last to be paid", "player": who})
        return
    points = int(b.get("next", 1))
    add_tally(ctx, who, points, BROWNIE, "Rule 29: the bubble")
    b["last"] = who
    b["next"] = points * 2
    if points >= 32:
        burst_bubble(ctx)


def burst_bubble(ctx: Ctx) -> None:
    bubble, lounge = room_name(ctx, "bubble"), room_name(ctx, "lounge")
    ctx.step({"bubble": "burst"})
    for p in player_names(ctx):
        if location_of_player(ctx, p) == bubble:
            set_player_location(ctx, p, lounge, how="Rule 29: the bubble burst", by_action=False)
    for s in list(ctx.doc("entities")["servants"]):
        if s["location"] == bubble:
            set_servant_location(ctx, s["owner"], lounge, how="Rule 29: the bubble burst", by_action=False)
    for which in ENTITIES:
        if entity_location(ctx, which) == bubble:
            ctx.edit("entities")[which]["location"] = lounge
    for t in list(tokens(ctx)):
        if t["location"] == {"room": bubble}:
            set_token_location(ctx, edit_token(ctx, t["id"]), {"room": lounge})
    remove_room(ctx, bubble)


def remove_room(ctx: Ctx, name: str) -> None:
    m = ctx.edit("map")
    m["rooms"] = [r for r in m["rooms"] if r["name"] != name]
    m["connections"] = [c for c in m["connections"] if name not in c["between"]]
    ctx.step({"room_removed": name})
    from .consequences import rehome

    rehome(ctx)


def pie_bomb_trap(ctx: Ctx, dest: str) -> None:
    """Rules 118-119: entering the pie bomb's room by an action rolls a d6; a six kersplats it."""
    for bomb in by_role(ctx, "pie-bomb"):
        if place_of(ctx, bomb["location"]) != dest:
            continue
        roll = ctx.roll(6)
        ctx.step({"pie_bomb": bomb["id"], "d6": roll})
        if roll != 6:
            continue
        ctx.step({"pie_bomb": "kersplat"})
        near = {dest, *neighbours(ctx, dest, ctx.at)}
        victims: list[tuple[str, str]] = []
        for p in player_names(ctx):
            if location_of_player(ctx, p) in near and carried_by(ctx, "player", p):
                victims.append(("player", p))
        for s in ctx.doc("entities")["servants"]:
            if s["location"] in near and carried_by(ctx, "servant", s["owner"]):
                victims.append(("servant", s["owner"]))
        if entity_location(ctx, "monkey") in near and carried_by(ctx, "monkey"):
            victims.append(("monkey", ""))
        for kind, who in victims:
            d2 = ctx.roll(2)
            ctx.step({"kersplat_d2": who or kind, "kind": kind, "roll": d2})
            if d2 % 2 == 0:
                drop_all(ctx, kind, who, "Rule 119: kersplat")
        remove_token(ctx, bomb, "Rule 118: kersplatted")


def everything_in(state: State | Ctx, place: str) -> Iterator[tuple[str, str]]:
    """(kind, name) of every player, servant and entity whose location is ``place``."""
    for p in player_names(state):
        if location_of_player(state, p) == place:
            yield ("player", p)
    for s in state.doc("entities")["servants"]:
        if s["location"] == place:
            yield ("servant", s["owner"])
    for which in ENTITIES:
        if entity_location(state, which) == place:
            yield (which, which)


def problem(message: str, rule: str) -> Problem:
    return Problem(message, rule=rule)
