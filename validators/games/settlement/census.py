"""What the rules run after every action need to know of everyone, kept from one action to the next.

After every action and event, the Settlement's rules look at every Colonist (seed 001): is anyone
without a location ("The Settlement": they start at 13a), in an Occupied location ("Death"), at the
Hunger limit ("Hunger"), and have the Traitors won ("Victory")? On a large game that is several passes
over 100 players an action, and nearly always the answer is "no one" while only the one or two players
the action changed differ from the players the last look saw.

So each player's facts are kept with the very dict they were read from (a state's dicts are never
changed in place: a transaction copies a player before it writes), and a look reads again only the
players that are not the very objects seen last time (compared by identity, in C), and those whose
location lies in a row of the map that is not the very string read last time (a changed map shares
its other rows). A transaction's own copy of a player is read at every look: it may change again.
Whatever else the facts depend on (the Expedition Leader, what the legend makes Occupied, the Hunger
limit, the number of rows) is compared whole; when any of it differs, everyone is read again. The
rules use the look only to see that nothing is to be done; when something is, or a player's values
cannot be read the usual way, they run exactly as written (``life.consequences_as_written``,
``victory.check_victory``).

``FAST = False`` turns the look off (the rules then always run as written); ``VERIFY = True`` reads
everyone again at every look and compares (NOMIC_VERIFY_COW=1 sets it, as for copy on write).
"""

from __future__ import annotations

import os
from collections import Counter
from itertools import compress
from operator import is_not
from typing import Any

from ...engine import Ctx, peek, repealed
from .common import OUTSIDER, handbook, royal, the_map
from .grid import LOCATIONS

FAST = True
VERIFY = bool(os.environ.get("NOMIC_VERIFY_COW"))

BEING = 1  # a Colonist for the dynastic rules: not the Leader (2.1 Royal Blood), not idle, no kind or an Outsider
COLONIST = 2  # a Colonist proper: no kind at all (Victory leaves Outsiders out)
NEWCOMER = 4  # a Colonist proper without a location
OCCUPIED = 8  # a being whose location is on the map and Occupied
STARVING = 16  # a being at the Hunger limit
TRAITOR = 32  # a Colonist proper whose Job is Traitor
DEATHLESS = 64  # a Colonist proper, not a Traitor, with 0 Deaths
UNSURE = 128  # a value the rules would read otherwise (not a number, not text): let them run as written


def facts(p: Any, boss: str | None, rows: tuple[str, ...], occupied: frozenset[str], limit: Any,
          outsiders: bool = True) -> int:
    """One player's facts, as the rules read them (``common.beings``, ``life``, ``victory``). ``outsiders``: whether
    an Outsider is a Colonist for the dynastic rules (seed 001 2.11 Outsiders stands)."""
    try:
        if p["name"] == boss or p.get("idle"):
            return 0
        kind = p.get("kind")
        if kind and (kind != OUTSIDER or not outsiders):
            return 0
        stats = p["stats"]
        out = BEING if kind else BEING | COLONIST
        text = stats.get("location", "")
        if not kind and not stats.get("location"):
            out |= NEWCOMER
        loc = LOCATIONS[text]
        if loc is not None and loc[0] < len(rows) and loc[1] < len(rows[loc[0]]) and rows[loc[0]][loc[1]] in occupied:
            out |= OCCUPIED
        if int(stats.get("hunger", 0)) >= limit:
            out |= STARVING
        if not kind:
            if stats.get("job") == "Traitor":
                out |= TRAITOR
            elif int(stats.get("deaths", 0)) == 0:
                out |= DEATHLESS
        return out
    except Exception:  # noqa: BLE001 - whatever it is, the rules as written meet it (and report it) themselves
        return UNSURE


class Counts:
    """Which facts anyone has: ``counts[NEWCOMER]`` is true when somebody is a newcomer."""

    __slots__ = ("present",)

    def __init__(self, present: int):
        self.present = present

    def __getitem__(self, fact: int) -> int:
        return self.present & fact


class _Seen:
    __slots__ = ("items", "bits", "key", "rows", "row_of", "patterns", "present")

    def __init__(self, items: list[Any], bits: list[int], key: tuple[Any, ...], rows: tuple[str, ...],
                 row_of: list[int], patterns: dict[int, int]):
        self.items = items  # the players as looked at: a transaction's own copy kept as None (it may change)
        self.bits = bits  # each one's facts
        self.key = key  # what else they depend on, but the map's rows: the Leader, what is Occupied, the limit
        self.rows = rows  # the map's rows they were read against
        self.row_of = row_of  # the row of each one's location (-1: none, or not a being)
        self.patterns = patterns  # how many players have each pattern of facts
        present = 0
        for pattern, n in patterns.items():
            if n:
                present |= pattern
        self.present = present


def _row(p: Any, bits: int) -> int:
    """The row of a being's location, which is all of the map its facts read; -1 for anyone else."""
    if not bits & BEING or bits & UNSURE:
        return -1
    loc = LOCATIONS[p["stats"].get("location", "")]  # read once already by ``facts``, without a problem
    return -1 if loc is None else loc[0]


_last: _Seen | None = None


def look(ctx: Ctx) -> Counts:
    """Everyone's facts now."""
    global _last
    players = list(peek(ctx.doc("roster")["players"]))
    m = the_map(ctx)
    try:
        # seed 001 2.11 Outsiders makes an Outsider a Colonist for the dynastic rules; repealed, it is none. With 2.8
        # Death repealed no Occupied location kills, with 2.9 Hunger none dies at its limit (``life._victims``): the
        # look then sees nobody to kill, rather than sending every action to the rules as written to find nobody
        key = (royal(ctx), frozenset() if repealed(ctx, "death") else m.occupied_chars(),
               float("inf") if repealed(ctx, "hunger") else handbook(ctx)["hunger"]["dies_at"],
               repealed(ctx, "outsiders") is None)
    except Exception:  # noqa: BLE001 - a handbook without its Hunger limit: the rules as written report it
        return Counts(UNSURE)
    rows = m.rows
    boss, occupied, limit, outsiders = key
    n = len(players)
    last = _last
    todo: list[int] | None = None
    if last is not None and len(last.items) == n and last.key == key and len(last.rows) == len(rows):
        todo = list(compress(range(n), map(is_not, players, last.items)))
        if last.rows is not rows:
            # a changed row changes the facts only of those whose location is in it: the rows that are not
            # the very strings read last time are found in C (a changed map shares its other rows)
            changed = set(compress(range(len(rows)), map(is_not, rows, last.rows)))
            if changed:
                todo = sorted(set(todo).union(i for i, r in enumerate(last.row_of) if r in changed))
        if len(todo) > n // 2:
            todo = None
    if todo is None:
        bits = [facts(p, boss, rows, occupied, limit, outsiders) for p in players]
        patterns = dict(Counter(bits))
        items = [p if type(p) is dict else None for p in players]
        row_of = [_row(p, b) for p, b in zip(players, bits)]
    else:
        assert last is not None
        bits, patterns, items, row_of = last.bits[:], dict(last.patterns), last.items[:], last.row_of[:]
        for i in todo:
            p = players[i]
            patterns[bits[i]] -= 1
            bits[i] = b = facts(p, boss, rows, occupied, limit, outsiders)
            patterns[b] = patterns.get(b, 0) + 1
            items[i] = p if type(p) is dict else None
            row_of[i] = _row(p, b)
    if VERIFY:
        fresh = [facts(p, boss, rows, occupied, limit, outsiders) for p in players]
        if fresh != bits or +Counter(fresh) != +Counter(patterns):
            raise AssertionError(f"Settlement's census kept stale facts: {bits} against {fresh}")
    _last = seen = _Seen(items, bits, key, rows, row_of, patterns)
    return Counts(seen.present)
