"""A new game started from an ifMUD game (``nomic new``): the map, its rooms and connections, the tokens, quests
and tables are kept; what the example's players did and own is not.

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

from datetime import datetime
from typing import Any

from ...timeutil import format_time


def fresh_map(doc: dict[str, Any], founded: datetime) -> dict[str, Any]:
    for room in doc["rooms"]:
        room["visits"] = 0
        room["damage"] = 0
    doc["bubble"] = {"next": 1, "last": None}
    return doc


def fresh_entities(doc: dict[str, Any], founded: datetime) -> dict[str, Any]:
    out: dict[str, Any] = {"servants": []}
    for which, entity in doc.items():
        if which != "servants":
            out[which] = {k: v for k, v in entity.items() if k not in ("moved_by", "moved_at")}
    return out


def fresh_tokens(doc: dict[str, Any], founded: datetime) -> dict[str, Any]:
    at = format_time(founded)
    # Rules 70, 132, 134, 152: a time bomb is made in play, for a player (Rule 134's "x's bomb", one per player when
    # none is left) or by one (bought, or a cigar made again), so the example's are not kept, nor the cigar Rule 152
    # copies; with no time bomb left, Rule 134 gives each founder theirs at the founding (``consequences``).
    doc["tokens"] = [t for t in doc["tokens"] if "delay_hours" not in t]
    doc.pop("last_cigar", None)
    for token in doc["tokens"]:  # what a departed player carried goes to the Attic by the consequences (Rule 49)
        token["since"] = at
        token.pop("moved_by", None)  # Rule 90: who last moved it, and Rules 112, 145: who may not carry it
        token.pop("barred", None)
    return doc


def fresh_quests(doc: dict[str, Any], founded: datetime) -> dict[str, Any]:
    return {"next": doc["next"], "quests": doc["quests"], "history": []}


def fresh_turn(doc: dict[str, Any], founded: datetime) -> dict[str, Any]:
    return {"active": None, "started": format_time(founded), "number": 0, "used": [], "moved": [], "locked": [],
            "arrivals": {}, "voluntary": False, "robot_kitten": 0, "pending": {}, "chatting": {}, "asleep": [],
            "passive_turn_takers": [], "metamorphosed": []}


def fresh_consent(doc: dict[str, Any], founded: datetime) -> dict[str, Any]:
    return {"next": 1, "passive_voters": [], "proposals": [], "donations": []}
