"""A new game started from an ifMUD game (``nomic new``): the map, its rooms and connections, is kept as the
example's proposals left it, without the damage its play spent on connectivity names (Rules 75, 76, 121), and
the tables as they stand; the tokens, the monkey and the other entities, and the Roster of Quests are those the example
was founded with, where they then were and at the values the rules start them with (Rules 71, 80, 101, 104, 105,
109, 114, 155), and none that play makes (time bombs, pies, the pie bomb, cigars, quest tokens, Quests: Rules 70,
115, 120, 132, 134, 141, 142, 152); what the example's players did and own is not kept.

Its players leave as Rule 44 C and Rule 49 say: their servants cease to exist, and what they or their servants
carried goes to the Attic. Its time bombs are not kept (each was made in play, most for one of its players, Rule
134): with none left, each founder gets their own, as Rule 134 gives every player one. Every tally starts again
at 0 (Rule 75's damage, Rule 98's visits) and the bubble has had no visitor (Rule 29). Everything is where it is
since the founding, so no uplink recharges (Rule 101) on a clock the example started. No proposal, donation or
finished quest is carried over, and nobody is active: Rule 27 makes the first player in surname order active
(``consequences._turn``), and each founder gets a servant as any player added to the game does
(``consequences._players``, Rule 44).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from ...engine import Founding
from ...timeutil import format_time
from . import world as w


def fresh_map(doc: dict[str, Any], founding: Founding) -> dict[str, Any]:
    """The map as the example's proposals left it (Rules 20, 25), without what its play did to it: every tally at 0
    (Rules 75, 97), a bubble nobody entered and so none burst (Rule 29), and no damage spent on connectivity names
    (Rules 76, 121).

    Seed 002 Rules 75, 76 and 121: damage starts at 0 and only an esplosion gives it, so no letter position of a new
    game's map has been masked (Rule 76) or given another letter (Rule 121) by spending it: each room keeps the
    ``masked`` and ``letters`` the example was founded with (its ``initial/``), and a room the founding lacked has
    none. A connection of the founding map or of a ratified proposal that Rule 76 deleted (it is gone, both its
    rooms are still on the map, and every position of its ``basis`` is masked now) is back, since the masking that
    deleted it is undone."""
    start = founding.example_doc if isinstance(founding.example_doc, dict) else {}
    founded_rooms = {r.get("name"): r for r in start.get("rooms") or [] if isinstance(r, dict)}
    masked = {r["name"]: set(r.get("masked") or ()) for r in doc["rooms"]}  # as play left them, read before undoing
    _burst_bubble_back(doc, start, founding)
    for room in doc["rooms"]:
        room["visits"] = 0
        room["damage"] = 0
        was = founded_rooms.get(room["name"]) or {}
        for key in ("masked", "letters"):  # Rules 76, 121
            if key in was:
                room[key] = was[key]
            else:
                room.pop(key, None)
    doc["bubble"] = {"next": 1, "last": None}
    candidates = [*(start.get("connections") or []), *_agreed_connections(founding.example)]
    doc["connections"].extend(_deleted_by_rule_76(doc["connections"], candidates, masked))
    return doc


def _agreed_connections(example: Any) -> list[dict[str, Any]]:
    """The connections the example's ratified proposals added or wrote (Rules 20, 25: ``map`` paths of their
    effects, when the effects were made: no ``closed.note``), their rooms spelled as the map spells them, for Rule
    76's undoing: one that a masking deleted since is part of the board the proposals left. A room is read as the
    effects' rooms were when they were made (``consent._connections_off_map``: ``world.resolve_room``, any case or a
    synonym of Rule 72, by the example's map and Table of Synonyms as they stand now), so "lobby" is the Lounge."""
    if example is None:
        return []

    def spelled(name: str) -> str:
        return w.resolve_room(example, name) or name

    out = []
    for p in (example.docs.get("consent") or {}).get("proposals") or []:
        if not isinstance(p, dict) or p.get("status") != "ratified" or (p.get("closed") or {}).get("note"):
            continue
        for op in (p.get("effects") or {}).get("gamestate") or []:
            if isinstance(op, dict) and op.get("op") in ("add", "replace") \
                    and str(op.get("path", "")).startswith("/map"):
                out.extend(_spelled(c, spelled) for c in _connections_in(op.get("value")))
    return [c for c in out if c is not None]


def _connections_in(value: Any) -> list[dict[str, Any]]:
    """Every connection record (a mapping with ``between``) in a patch's value: one, a list of them, or a map."""
    if isinstance(value, dict):
        return [value] if "between" in value else _connections_in(value.get("connections"))
    return [c for c in value if isinstance(c, dict) and "between" in c] if isinstance(value, list) else []


def _spelled(c: dict[str, Any], spelled: Callable[[str], str]) -> dict[str, Any] | None:
    ends = c.get("between")
    basis = c.get("basis") or []
    if not isinstance(ends, list) or not isinstance(basis, list) or not all(isinstance(e, str) for e in ends) \
            or not all(isinstance(b, dict) and isinstance(b.get("room"), str) for b in basis):
        return None
    out = {**c, "between": [spelled(e) for e in ends]}
    if basis:
        out["basis"] = [{**b, "room": spelled(b["room"])} for b in basis]
    return out


def _burst_bubble_back(doc: dict[str, Any], start: dict[str, Any], founding: Founding) -> None:
    """Seed 002 Rule 29: there is a Dot-Com Bubble, and only play bursts it (a player paid 32 points for entering
    takes it off the map). A new game starts before any burst: when the example's bubble burst (gone from the map,
    with 64 or more points waiting for the next enterer: ``world.enter_bubble``), the room comes back as the
    example was founded with it, with its founding connections to rooms still on the map. A bubble a proposal took
    off the map before anyone was paid 32 points stays off, as any room a proposal removed."""
    name = w.room_name(founding.example, "bubble") if founding.example is not None else w.ROOMS["bubble"]
    if any(r["name"] == name for r in doc["rooms"]) or int((doc.get("bubble") or {}).get("next") or 1) < 2 * w.BURST_AT:
        return
    rooms = [r for r in start.get("rooms") or [] if isinstance(r, dict)]
    at = next((i for i, r in enumerate(rooms) if r.get("name") == name), None)
    if at is None:
        return  # the example was founded without it: nothing to bring back
    doc["rooms"].insert(min(at, len(doc["rooms"])), rooms[at])
    here = {r["name"] for r in doc["rooms"]}
    joined = {frozenset(c["between"]) for c in doc["connections"]}
    for c in start.get("connections") or []:
        pair = frozenset(c.get("between") or ()) if isinstance(c, dict) else frozenset()
        if name in pair and len(pair) == 2 and pair <= here and pair not in joined:
            doc["connections"].append(c)
            joined.add(pair)


def _deleted_by_rule_76(now: list[dict[str, Any]], founded: list[Any], masked: dict[str, set[int]]) -> list[Any]:
    """Seed 002 Rule 76: the connections of the founding and of the example's proposals that masking deleted:
    missing now, between two rooms still on the map and not joined otherwise, with a basis whose every position the
    example's play has masked (a connection a proposal's effects took away, or one that rested on a position still
    counting, stays away)."""
    joined = {frozenset(c["between"]) for c in now}
    back = []
    for c in founded:
        if not isinstance(c, dict) or not c.get("basis") or len(c.get("between") or ()) != 2:
            continue
        pair = frozenset(c["between"])
        if pair in joined or not all(r in masked for r in pair):
            continue
        if all(isinstance(b, dict) and b.get("position") in masked.get(b.get("room"), ()) for b in c["basis"]):
            back.append(c)
            joined.add(pair)
    return back


def fresh_entities(doc: dict[str, Any], founding: Founding) -> dict[str, Any]:
    """The monkey, the pieman, the Omnibus, the robot and the kitten where the example was founded with them (its
    ``initial/``, or where they stand without one): the rules' start places (Central Park, Central Park, The House
    of Commons, Embedded CPU, the Lounge: Rules 71, 114, 80, 155), not where the example's play moved them."""
    start = founding.example_doc if founding.example_doc is not None else doc
    out: dict[str, Any] = {"servants": []}
    for which, entity in start.items():
        if which != "servants":
            out[which] = {k: v for k, v in entity.items() if k not in ("moved_by", "moved_at")}
    return out


# What the rules give a token at its start: the uplink's charge (Rule 101), the Lunchbox's die (Rule 105) and its
# value, which a delivery reverts to 0 (Rule 104), the teleporter's status (Rule 109).
_STARTS = {"uplink": {"charge": 10}, "lunchbox": {"die": 18, "value": 0}, "teleporter": {"status": "burned out"}}
# Tokens only play makes: a pie bought (Rule 115), the pie bomb (Rule 120), a cigar (Rule 152).
_PLAYED = ("pie", "pie-bomb", "cigar")


def _made_in_play(token: dict[str, Any]) -> bool:
    # Rules 70, 132, 134: a time bomb is made for a player (Rule 134's "x's bomb", one each when none is left) or
    # bought by one; Rule 141: a quest token is made when a player reaches a Quest's home
    return "delay_hours" in token or "quest" in token or token.get("role") in _PLAYED


def fresh_tokens(doc: dict[str, Any], founding: Founding) -> dict[str, Any]:
    """The tokens the example was founded with (its ``initial/``, or as they stand without one), where they were
    then, at the values the rules start them with; none that play makes. With no time bomb left, Rule 134 gives
    each founder theirs at the founding (``consequences``)."""
    start = founding.example_doc if founding.example_doc is not None else doc
    at = format_time(founding.at)
    tokens = [t for t in start["tokens"] if not _made_in_play(t)]
    for token in tokens:  # what a departed player carried goes to the Attic by the consequences (Rule 49)
        token.update({k: v for k, v in _STARTS.get(token.get("role"), {}).items() if k != "value" or k in token})
        token["since"] = at
        token.pop("moved_by", None)  # Rule 90: who last moved it, and Rules 112, 145: who may not carry it
        token.pop("barred", None)
    return {"next": start["next"], "tokens": tokens}  # no cigar has existed (Rule 152's last_cigar)


def fresh_quests(doc: dict[str, Any], founding: Founding) -> dict[str, Any]:
    """Rule 142: a Quest is created in play; the new game's Roster holds those the example was founded with."""
    start = founding.example_doc
    if start is None:
        return {"next": 1, "quests": [], "history": []}
    return {"next": start["next"], "quests": start["quests"], "history": []}


def fresh_turn(doc: dict[str, Any], founded: datetime) -> dict[str, Any]:
    return {"active": None, "started": format_time(founded), "number": 0, "used": [], "moved": [], "locked": [],
            "arrivals": {}, "voluntary": False, "robot_kitten": 0, "pending": {}, "chatting": {}, "asleep": [],
            "passive_turn_takers": [], "metamorphosed": []}


def fresh_consent(doc: dict[str, Any], founded: datetime) -> dict[str, Any]:
    return {"next": 1, "passive_voters": [], "proposals": [], "donations": []}
