"""A new game started from a Settlement game (``nomic new``): the map, the Stockpile and the handbook are the
colony the new game takes over; what the dynastic rules remember of the example's Colonists (tasks performed,
rests, dances, who pulled down what, the election, the victory) goes. Outsiders on the roster stay (they are no
players), and so does their numbering, so that a new Outsider is never given the name of one still there.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any


def fresh_colony(doc: dict[str, Any], founded: datetime) -> dict[str, Any]:
    return {"outsider_numbers": doc["outsider_numbers"]} if doc.get("outsider_numbers") else {}
