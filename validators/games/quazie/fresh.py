"""A new game started from a Quazie game (``nomic new``): the Hands (seed 003, rule 22) and the tables are the
game's, with no Shoo pending; the Calendar (rule 7) begins at the founding, with the Switcheroo Alarm as far from
it as the example's was from its own founding; who landed where, who was tagged, the day's log, the music spent
and the Old Items' values are the example's Muffins' play, and go. This week's New Item keeps its word from the
founding.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ...engine import Founding
from ...timeutil import format_time, parse_time
from .hands import NO_CALENDAR, year_on


def fresh_state(doc: dict[str, Any], founding: Founding) -> dict[str, Any]:
    """Rule 7 counts the Calendar's Years from no date of its own, and the only Year the rules ever set is rule 9's
    0 at a Dynasty's start: a new game's first Dynasty counts from Year 0 (D.Q., no win yet) on its founding day.
    The Switcheroo Alarm (rule 22) is a Calendar date, so it keeps the distance in Years it had from the example's
    Year at the example's founding (or at its Calendar's epoch, without a founding state): the example's clock
    taken over as it stood would start a game founded weeks later at a Year far past the alarm."""
    out: dict[str, Any] = {"calendar": {"epoch": format_time(founding.at), "year": 0}}
    if "hands" in doc:  # the Hands hold braces in the ruleset's text, which is kept as it stands
        out["hands"] = doc["hands"]
    if "switcheroo_alarm" in doc:
        cal = doc.get("calendar", NO_CALENDAR)
        then = founding.example_at if founding.example_at is not None else cal["epoch"]
        then = then if isinstance(then, datetime) else parse_time(then)
        out["switcheroo_alarm"] = int(doc["switcheroo_alarm"]) - year_on(cal, then)
    if "shoo" in doc:  # rule 22: a Shoo is a non-admin Muffin's post; none has been made in the new game
        out["shoo"] = False
    return {**out, "tag_days": []}


def fresh_items(doc: dict[str, Any], founded: datetime) -> dict[str, Any]:
    out: dict[str, Any] = {"old_items": []}
    if doc.get("new_item"):
        out["new_item"] = {"word": doc["new_item"]["word"], "since": format_time(founded)}
    return out
