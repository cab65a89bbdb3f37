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
"""

from __future__ import annotations

from typing import Any, Iterator


def handbook_limits(doc: Any) -> Iterator[tuple[tuple[str | int, ...], str]]:
    """(path in the handbook, why) for each pair of amounts out of order; ``doc`` is a handbook the schema
    accepts."""
    chop = doc["tasks"]["chop"]
    if chop["fells_on"] > chop["die"]:
        # seed 001, 2.4 Tasks, Chop wood: a Large Tree falls on a 1 of DICE3
        yield (("tasks", "chop", "fells_on"),
               f"the tree falls on a {chop['fells_on']}, but the die (tasks.chop.die) has {chop['die']} sides, so "
               "no roll could fell it; the face must be at most the die's sides")
    lo, hi = doc["tasks"]["catapult"]["range"]
    if lo > hi:
        # seed 001, 2.4 Tasks, Fire Catapult: the target lies between 4 and 8 squares from the Catapult
        yield (("tasks", "catapult", "range"),
               f"the nearest target ({lo} squares) is farther than the farthest ({hi}), so no square could be "
               "fired at; the range is [nearest, farthest]")
