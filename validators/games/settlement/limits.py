"""What the handbook's schema cannot say: one amount against another (``DocKind.limits``).

The schema bounds each amount alone; two pairs of them are read together by the tasks, and each pair can be
out of order while both amounts pass (seed 001, 2.4 Tasks):

* Chop wood rolls a DICE3 and the tree falls on a 1: the handbook's ``tasks.chop.die`` and ``fells_on``. A face
  beyond the die's sides never comes up, and the tree could never fall.
* Fire Catapult aims between 4 and 8 squares from the Catapult: ``tasks.catapult.range`` as [nearest, farthest].
  The nearest beyond the farthest leaves no square to aim at.

(The other dice need no such check: the Catapult's ammunition kills on a 1, which every die has; Gather's die
has a side for each of its results; the Miner's ore is named by the faces of a DICE3, which the schema lists.)

A handbook file out of order is bad input at the field's line; a proposal whose patch would leave it so is
refused at enactment, as one that breaks the schema is.

The map's legend (``map_limits``) must name every terrain the rules themselves turn a location into, or the action
that does so has no character to write: Dirt, Rock, Water, Channel, Smoke, Seedling, Small Crop and Mature Crop,
and the Wall and Door that enclose Rooms. A legend without one is bad input at its line, and a proposal whose patch
would strike one is refused at enactment, not a KeyError when somebody cooks, digs or plants. Whether the rule that
writes the terrain is in force is not asked (the check sees the map alone): see ``map_limits``.
"""

from __future__ import annotations

from typing import Any, Iterator

from ...problems import counted


def handbook_limits(doc: Any) -> Iterator[tuple[tuple[str | int, ...], str]]:
    """(path in the handbook, why) for each pair of amounts out of order; ``doc`` is a handbook the schema
    accepts."""
    chop = doc["tasks"]["chop"]
    if chop["fells_on"] > chop["die"]:
        # seed 001, 2.4 Tasks, Chop wood: a Large Tree falls on a 1 of DICE3
        yield (("tasks", "chop", "fells_on"),
               f"the tree falls on a {chop['fells_on']}, but the die (tasks.chop.die) has "
               f"{counted(chop['die'], 'side')}, so no roll could fell it; the face must be at most the die's sides")
    lo, hi = doc["tasks"]["catapult"]["range"]
    if lo > hi:
        # seed 001, 2.4 Tasks, Fire Catapult: the target lies between 4 and 8 squares from the Catapult
        yield (("tasks", "catapult", "range"),
               f"the nearest target ({counted(lo, 'square')}) is farther than the farthest ({hi}), so no square "
               "could be fired at; the range is [nearest, farthest]")


# Seed 001: the terrains a rule turns a location into, by legend name, and the rule that does it
WRITTEN = (
    ("Dirt", "2.4 Tasks: Mine, Chop wood, Harvest Crop and Brew leave Dirt"),
    ("Rock", "2.2.2 Tunneling adds rows of Rock"),
    ("Water", "2.2.1 Locations: a Channel next to Water turns into Water; 2.5: a Bridge pulled down leaves Water"),
    ("Channel", "2.4 Tasks: Dig Channel makes one"),
    ("Smoke", "2.4 Tasks: Cook Meal turns Dirt into Smoke"),
    ("Seedling", "2.4 Tasks: Plant Seed makes one"),
    ("Small Crop", "2.2.1 Locations: a Seedling becomes a Small Crop on Monday"),
    ("Mature Crop", "2.2.1 Locations: a Small Crop becomes a Mature Crop on Monday"),
    ("Wall", "2.2 The Settlement: Walls enclose Rooms (2.5: Build Wall)"),
    ("Door", "2.2 The Settlement: Doors join Rooms (2.5: Build Door)"),
)


def map_limits(doc: Any) -> Iterator[tuple[tuple[str | int, ...], str]]:
    """(path in the map, why) for each terrain a rule writes that the legend has no character for; ``doc`` is a
    map the schema accepts.

    Asked of the map alone (``DocKind.limits``: a file read, a patch applied), so it cannot see the ruleset: a
    terrain whose writing rule is repealed is still asked for (docs/modules/settlement.md, readings). That is the
    safe reading: a proposal may enact the rule again (seed 001 1.5 Enactment) without touching the map, and the
    rule's action or event (2.2.1's Monday growth, say) would then have no character to write."""
    names = {entry["name"] for entry in doc["legend"].values()}
    for name, why in WRITTEN:
        if name not in names:
            yield (("legend",), f"the legend has no {name}, which the rules need ({why}); the legend keeps it even "
                                "while that rule is repealed, as a proposal may enact the rule again")
