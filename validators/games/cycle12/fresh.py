"""A new game started from a Cycle 12 game (``nomic new``) is a new cycle.

Seed 004, Position Constraints: when there are no locations yet, the first is Apeiros Village at (0, 0); so a
cycle starts with an empty world, as the example's own founding state does. What the rules and proposals made
data (tag families and tags, nomster types and classes, item kinds, the medals) is kept; the map, the
nomsters, items and trades, the proposals, the judge and the RFJs, and the character sheets (each founder gets
eirs by joining, Joining) are the old cycle's play and start empty. Phase I holds the founding
(options.cycle12.start), as it holds a cycle's start.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ...timeutil import format_time


def found(config: dict[str, Any], at: datetime, example_founded: datetime | None) -> None:
    config.setdefault("options", {}).setdefault("cycle12", {})["start"] = format_time(at)


def fresh_proposals(doc: dict[str, Any], founded: datetime) -> dict[str, Any]:
    return {"next": 1, "proposals": []}


def fresh_sheets(doc: dict[str, Any], founded: datetime) -> dict[str, Any]:
    return {"sheets": []}


def fresh_world(doc: dict[str, Any], founded: datetime) -> dict[str, Any]:
    return {"families": doc["families"], "tags": doc["tags"], "next_location": 1, "locations": [],
            "next_suggestion": 1, "suggestions": [], "founding": None, "next_announcement": 1, "announcements": []}


def fresh_nomsters(doc: dict[str, Any], founded: datetime) -> dict[str, Any]:
    return {"types": doc["types"], "classes": doc["classes"], "index": 0, "next": 1, "nomsters": [],
            "attempts": {}, "tamings": []}


def fresh_items(doc: dict[str, Any], founded: datetime) -> dict[str, Any]:
    return {"kinds": doc["kinds"], "next": 1, "items": [], "next_trade": 1, "trades": []}


def fresh_justice(doc: dict[str, Any], founded: datetime) -> dict[str, Any]:
    return {"judge": None, "removal": [], "next_rfj": 1, "rfjs": [], "candidates": []}


def fresh_cycle(doc: dict[str, Any], founded: datetime) -> dict[str, Any]:
    return {"ended": False, "winners": []}
