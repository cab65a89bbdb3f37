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

The map's legend must name every terrain a rule in force turns a location into (``unwritable``), or the action that
does so has no character to write: Dirt, Rock, Water, Channel, Smoke, Seedling, Small Crop and Mature Crop, and the
Wall and Door that enclose Rooms. That asks the ruleset, which a document's limits cannot see, so it is the module's
whole-state check (a hand edit is reported at the legend's line) and its consequence (an action leaving the legend
without one is refused: a proposal striking Smoke, or enacting 2.2.1 again without its Crops).
"""

from __future__ import annotations

from typing import Any, Iterator

from ...engine import Ctx, State, repealed
from ...problems import counted
from .common import the_map


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


# Seed 001: the terrains a rule turns a location into, by legend name, and each rule that does it (its id, its
# number and title, and how), in the order a refusal names the first of them in force
WRITTEN: tuple[tuple[str, tuple[tuple[str, str, str], ...]], ...] = (
    ("Dirt", (("tasks", "2.4 Tasks", "Mine, Chop wood, Harvest Crop and Brew leave Dirt"),
              ("constructions", "2.5 Constructions", "a Construction pulled down or a Channel filled in leaves Dirt"),
              ("locations", "2.2.1 Locations", "Smoke cleared becomes Dirt"),
              ("outsider-tasks", "2.11.1 Outsider Tasks", "a Moose's Graze leaves Dirt"))),
    ("Rock", (("tunneling", "2.2.2 Tunneling", "it adds rows of Rock"),)),
    ("Water", (("locations", "2.2.1 Locations", "a Channel next to Water turns into Water"),
               ("constructions", "2.5 Constructions", "a Bridge pulled down leaves Water"))),
    ("Channel", (("tasks", "2.4 Tasks", "Dig Channel makes one"),)),
    ("Smoke", (("tasks", "2.4 Tasks", "Cook Meal turns Dirt into Smoke"),
               ("locations", "2.2.1 Locations", "Smoke spreads to Dirt next to it"))),
    ("Seedling", (("tasks", "2.4 Tasks", "Plant Seed makes one"),)),
    ("Small Crop", (("locations", "2.2.1 Locations", "a Seedling becomes a Small Crop on Monday"),)),
    ("Mature Crop", (("locations", "2.2.1 Locations", "a Small Crop becomes a Mature Crop on Monday"),)),
    ("Wall", (("the-settlement", "2.2 The Settlement", "Walls enclose Rooms"),
              ("constructions", "2.5 Constructions", "Build Wall makes one"))),
    ("Door", (("the-settlement", "2.2 The Settlement", "Doors join Rooms"),
              ("constructions", "2.5 Constructions", "Build Door makes one"))),
)


def unwritable(state: State | Ctx) -> list[tuple[str, str, str, str]]:
    """(terrain, rule id, rule, how) for each terrain a rule in force writes that the map's legend has no character
    for, naming the first such rule of ``WRITTEN``.

    Seed 001: a rule in force that turns a location into a terrain needs the legend's character for it, or its action
    or event would have nothing to write. A terrain whose every writing rule is repealed is not asked for: a proposal
    repealing 2.2.1 Locations may strike the two Crops, and one enacting 2.2.1 again gives the legend its Crops back
    (the module's consequence refuses it otherwise, ``_legend_as_ruled``). Asked of the ruleset as ``state`` has it
    (docs/modules/settlement.md, readings)."""
    names = the_map(state).by_name
    out = []
    for name, writers in WRITTEN:
        if name in names:
            continue
        writer = next(((rule, title, how) for rule, title, how in writers if not repealed(state, rule)), None)
        if writer is not None:
            out.append((name, *writer))
    return out
