"""A new game started from a Monkey game (``nomic new``): what of the example's play is not carried over.

The moves, the hammers, hats and NPCs, the items and the Line's NPCs are the game's; the example's dances and
Awesomeness Posts are its history (the posts start again from number 1, as BlogNomic's proposals do:
``blognomic.due.fresh_list``), and the sections are its players' (the founders' own empty sections are
given them when they join, seed 000 "The Dance"). Who left the Line, and where eir items fall, is settled by
the game's own consequences when the founders join (``line.sync_roster``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any


def fresh_dance(doc: dict[str, Any], founded: datetime) -> dict[str, Any]:
    return {"moves": doc["moves"], "sections": [], "history": []}
