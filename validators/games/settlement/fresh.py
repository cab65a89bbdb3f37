"""A new game started from a Settlement game (``nomic new``): the map, the Stockpile and the handbook are the
colony the new game takes over; what the dynastic rules remember of the example's Colonists (tasks performed,
rests, dances, who pulled down what, the election, the victory) goes. Outsiders on the roster stay (they are no
players), and so does their numbering, so that a new Outsider is never given the name of one still there. The
victory date is as far from the new game's founding as the example's was from its own.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from ...timeutil import format_time, parse_time
from .common import DEFAULTS


def fresh_colony(doc: dict[str, Any], founded: datetime) -> dict[str, Any]:
    return {"outsider_numbers": doc["outsider_numbers"]} if doc.get("outsider_numbers") else {}


def found(config: dict[str, Any], founded: datetime, example_founded: datetime | None) -> None:
    """Seed 001, 2.12 Victory: the dynasty's date (5 May 2010) is a time in the game's own calendar
    (``options.settlement.victory_date``). The example's date, taken over as it stands, may be past when a new game
    is founded, and the founding itself would judge it before anyone played; so the new game's date is the
    example's distance from founding to victory date on from its own founding, at the midnight ending that day
    (the seed's date is a midnight). A date that is not a time is left for the check to report."""
    chosen = config.setdefault("options", {}).setdefault("settlement", {})
    try:
        date = parse_time(chosen.get("victory_date", DEFAULTS["victory_date"]))
    except (TypeError, ValueError):
        return
    if example_founded is None:
        return
    when = founded + (date - example_founded)
    midnight = when.replace(hour=0, minute=0, second=0, microsecond=0)
    chosen["victory_date"] = format_time(midnight if midnight == when else midnight + timedelta(days=1))
