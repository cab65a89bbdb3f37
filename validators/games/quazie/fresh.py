"""A new game started from a Quazie game (``nomic new``): the Calendar, the Hands (seed 003, rule 22) and the
tables are the game's; who landed where, who was tagged, the day's log, the music spent and the Old Items'
values are the example's Muffins' play, and go. This week's New Item keeps its word from the founding.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ...timeutil import format_time

_KEPT = ("calendar", "hands", "switcheroo_alarm", "shoo")


def fresh_state(doc: dict[str, Any], founded: datetime) -> dict[str, Any]:
    return {**{k: doc[k] for k in _KEPT if k in doc}, "tag_days": []}


def fresh_items(doc: dict[str, Any], founded: datetime) -> dict[str, Any]:
    out: dict[str, Any] = {"old_items": []}
    if doc.get("new_item"):
        out["new_item"] = {"word": doc["new_item"]["word"], "since": format_time(founded)}
    return out
