"""A Colonist's change of name (the core's: seed 001 1.2, by an enacted proposal; ``core.rename`` where the core
variant lets a player do it): the colony's records follow, so the Colonist keeps what the rules remember of em.

The dynastic rules read several records by the Colonist's name, all in the ``colony`` document: the tasks e
performed (2.6 Jobs: "three times in one week"), eir rests (2.3 Energy, a weekly action; the Traitor's second
rest and the 24 hours), eir last pull-down (2.4 Fire Catapult: 48 hours), the dances e called and joined (2.10:
only a participant declares, the Conga's front is its caller, the Dancer's three dances), the square dance's 72
hours of half costs, the Conga's front and line, eir support in the Election for Mayor, given or received, and a
victory e achieved (2.12). Without this hook the engine refuses every change of name of a Colonist those
records keep (the module would keep a name it cannot rename), and in a game under way that is every Colonist
who has rested or performed a task in the last eight days.

The map, the Stockpile and the handbook keep no Colonist's name (Locations are on the roster); the record of
Outsiders created is by type, not by player, and is left alone.
"""

from __future__ import annotations

from typing import Any

from ...engine import Ctx, peek, peek_items
from ...roster import rename_in_list, rename_key

# the colony's records keyed by a Colonist's name
_BY_NAME = ("performed", "rests", "pulled_down", "dances_joined", "square_dancers")


def rename(ctx: Ctx, old: str, new: str) -> None:
    """Seed 001 1.2: the name changes wherever the colony's records keep it."""
    if "colony" not in ctx.state.docs:
        return
    colony = ctx.doc("colony")
    keyed = [key for key in _BY_NAME if old in (colony.get(key) or {})]
    dances = [i for i, d in enumerate(peek(colony.get("dances") or [])) if _in_dance(d, old)]
    conga = colony.get("conga") or {}
    in_conga = conga.get("front") == old or old in peek(conga.get("line") or [])
    election = colony.get("election") or {}
    support = election.get("support") or {}
    in_election = old in support or old in (v for _, v in peek_items(support))
    victory = colony.get("victory") or {}
    won = old in peek(victory.get("winners") or [])
    if not (keyed or dances or in_conga or in_election or won):
        return
    edited = ctx.edit("colony")
    for key in keyed:
        rename_key(ctx, edited[key], old, new, f"the colony's {key}")
    for i in dances:
        dance = edited["dances"][i]
        if dance.get("by") == old:
            dance["by"] = new  # 2.10 Conga: the front of the line must be the one who called the dance
        if old in peek(dance.get("participants") or []):
            rename_in_list(dance["participants"], old, new)
    if in_conga:
        if edited["conga"].get("front") == old:
            edited["conga"]["front"] = new
        rename_in_list(edited["conga"]["line"], old, new)
    if in_election:
        votes = edited["election"]["support"]
        rename_key(ctx, votes, old, new, "the support in the Election for Mayor")
        for supporter, name in list(peek_items(votes)):
            if name == old:
                votes[supporter] = new
    if won:
        rename_in_list(edited["victory"]["winners"], old, new)


def _in_dance(dance: Any, name: str) -> bool:
    return dance.get("by") == name or name in peek(dance.get("participants") or [])
