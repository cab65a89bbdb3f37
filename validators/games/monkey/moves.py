"""Dance moves: reading a section's entries against the move list, and what each move does.

Seed 000, "Doing the Dance". The move list is data (``gamestate/monkey_dance.yaml``
``moves``: name, complexity, description, effect); a move's name may hold
words beginning ``n_`` which a section replaces by positive integers, the
same word by the same value. The eleven effects are here, keyed by
``effect``. An effect reads its positions from the move's ``n_`` words in
the order they first appear in the name (``EFFECT_PARAMS``): for every move
of the seed's list that is n_A then n_B, and a proposal that renames a word
(``Swing n_X to n_Y``) keeps the move working. A name with fewer words than
its effect needs is no move one can dance: an entry of it is refused, and
the check reports the move list (``invariants``).

Positions a move refers to:

* not a position at all (0 or less, as ``Left Smash from 1`` gives) -> the
  move is *skipped*;
* an empty position, when the move would read or change that Monkey's
  values (stats or items) -> the move is *ignored*;
* an empty position otherwise (a Swing; a Smash with an Invisible or Shot-gun
  hammer towards an empty position) -> the move is *executed*.

Skipped and ignored moves are not executed, so they do not count towards
the Monkey's complexity during the dance.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ...engine import Problem, State
from ...problems import counted
from .hammers import use_hammer
from .world import KongHolds, World, smallest_item

RULE_MOVES = "dance-moves"

WORD = re.compile(r"^n_[A-Za-z0-9]+$")

# How many positions each effect reads, named as the seed's list names them; the move's own n_ words are given
# to them in the order they first appear in its name.
EFFECT_PARAMS: dict[str, tuple[str, ...]] = {
    "swing": ("n_A", "n_B"), "leap": (), "bow": (), "left-smash": ("n_A",), "right-smash": ("n_A",),
    "bananas-plus": (), "big-bonus": (), "soul-selling": ("n_A",), "hat-trick": ("n_A",),
    "pickpocket": ("n_A", "n_B"), "anti-hat-swing": (),
}


@dataclass(frozen=True)
class Entry:
    """One entry of a section, matched against the move list."""

    text: str  # canonical: the move's name with its words replaced
    move: dict[str, Any]
    values: dict[str, int]  # each n_ word of the name -> its value, in the order the words first appear

    @property
    def args(self) -> dict[str, int]:
        """The positions the effect reads (``EFFECT_PARAMS``), from the words in the order they appear."""
        return dict(zip(EFFECT_PARAMS.get(self.effect, ()), self.values.values()))

    @property
    def complexity(self) -> int:
        return int(self.move["complexity"])

    @property
    def effect(self) -> str:
        return str(self.move["effect"])


@lru_cache(maxsize=1024)
def _compiled(name: str) -> tuple[re.Pattern[str], tuple[str, ...], tuple[str, ...]]:
    """A move's name, read once: its pattern, its ``n_`` words in order, and its tokens."""
    tokens = tuple(name.split())
    parts = [r"(\S+)" if WORD.match(token) else re.escape(token) for token in tokens]
    pattern = re.compile(r"^\s*" + r"\s+".join(parts) + r"\s*$", re.IGNORECASE)
    return pattern, tuple(t for t in tokens if WORD.match(t)), tokens


_DIGITS = re.compile(r"[0-9]+")


def parse_entry(text: str, moves: list[dict[str, Any]]) -> Entry:
    """Match one entry; raises ValueError saying why it is not a dance move."""
    text_s = str(text)
    for move in moves:
        pattern, words, tokens = _compiled(move["name"])
        m = pattern.match(text_s)
        if not m:
            continue
        values: dict[str, int] = {}
        for word, raw in zip(words, m.groups()):
            if not _DIGITS.fullmatch(raw) or int(raw) < 1:
                raise ValueError(f"{text!r}: {word} must be replaced by a positive integer, not {raw!r}")
            if word in values and values[word] != int(raw):
                raise ValueError(f"{text!r}: {word} stands for {values[word]} and {raw}; the same word must "
                                 "have the same value")
            values[word] = int(raw)
        why = missing_words(move)
        if why:
            raise ValueError(f"{text!r}: {why}")
        canon = " ".join(str(values[t]) if WORD.match(t) else t for t in tokens)
        return Entry(canon, move, values)
    raise ValueError(f"{text!r} is not a dance move (the move list names: "
                     f"{', '.join(m['name'] for m in moves)})")


def missing_words(move: dict[str, Any]) -> str | None:
    """Why a move of the list cannot be danced: its name has fewer ``n_`` words than its effect reads positions.

    Seed 000, "Doing the Dance": a move names the positions it acts on by its ``n_`` words. A proposal may rename
    a move (the list is data); a name that gives its effect no position to act on (``Hat Trick`` with no word)
    describes no move the engine can do, so it is reported rather than guessed at.
    """
    needs = len(EFFECT_PARAMS.get(str(move.get("effect")), ()))
    has = len(set(_compiled(move["name"])[1]))
    if has >= needs:
        return None
    return (f"the move list's {move['name']!r} ({move.get('effect')}) acts on {needs} position(s) but its name "
            f"has {has} n_ word(s) to give them")


def invariants(state: State) -> Iterator[Problem]:
    """The move list: every move's name gives its effect the positions it reads (``missing_words``)."""
    for i, move in enumerate(state.doc("monkey_dance")["moves"]):
        why = missing_words(move)
        if why:
            yield Problem(why, file="monkey_dance", field=f"moves[{i}].name")


def total_complexity(entries: list[Entry]) -> int:
    return sum(e.complexity for e in entries)


# ---------------------------------------------------------------- executing one move

EXECUTED, SKIPPED, IGNORED, FAILED = "executed", "skipped", "ignored", "failed"
# Hammer effects that neither read nor change their target's stats or items: a Smash of one towards an empty
# position is executed rather than ignored (seed 000, Doing the Dance; see ``_smash``).
TARGET_UNTOUCHED = frozenset(("invisible", "shotgun"))


class Roller:
    """What a move needs from the action: dice."""

    def __init__(self, roll: Callable[[int], int]):
        self.roll = roll


def run_move(w: World, entry: Entry, roller: Roller) -> str:
    """Do one move; returns executed, skipped, ignored or failed (King Kong held firm)."""
    fn = RUNS.get(entry.effect)
    if fn is None:
        w.log.append(f"the move list gives {entry.move['name']!r} an effect ({entry.effect}) this engine does not know")
        return IGNORED
    try:
        return fn(w, entry.args, roller)
    except KongHolds as e:
        w.log.append(f"the move fails: {e}")
        return FAILED


def _needs(w: World, *positions: int, touches: bool = True) -> str | None:
    if any(p < 1 for p in positions):
        w.log.append(f"position {min(positions)} is not a position: the move is skipped")
        return SKIPPED
    if touches:
        for p in positions:
            if not w.at(p):
                w.log.append(f"nobody is in position {p}: the move is ignored")
                return IGNORED
    return None


def _swing(w: World, v: dict[str, int], roller: Roller, *, extra: bool = False) -> str:
    a, b = v["n_A"], v["n_B"]
    why = _needs(w, a, b, touches=False)
    if why:
        return why
    if a == b:
        w.log.append(f"positions {a} and {b} are the same: nobody moves")
        return EXECUTED
    in_a, in_b = w.at(a), w.at(b)
    for m in in_a + in_b:
        if w.kong_holds(m):
            raise KongHolds(f"{m} holds the top with a Sledge and cannot be dislodged")
    moves: dict[str, int | None] = {m: b for m in in_a}
    moves.update({m: a for m in in_b})
    w.log.append(f"swing {a} and {b}: " + (", ".join(f"{m} to {p}" for m, p in moves.items()) or "both empty"))
    w.relocate(moves)
    bubbles = w.npc("extra-swing")
    if extra or bubbles is None or bubbles not in moves:
        return EXECUTED
    # Seed 000, Miss Bubbles: she swings once more, onward in the direction she moved, at no complexity.
    frm = b if bubbles in in_b else a
    new = w.pos[bubbles]
    onward = new + (1 if new > frm else -1)
    w.log.append(f"{bubbles} was swung: she swings on from {new} to {onward}")
    try:
        _swing(w, {"n_A": new, "n_B": onward}, roller, extra=True)
    except KongHolds as e:
        w.log.append(f"her extra swing fails: {e}")
    return EXECUTED


def _leap(w: World, v: dict[str, int], roller: Roller) -> str:
    if len(w.pos) < 2:
        w.log.append("fewer than two Monkeys in the Line: nobody moves")
        return EXECUTED
    last = w.at(w.last())[0]
    moves: dict[str, int | None] = {m: p + 1 for m, p in w.pos.items() if m != last}
    moves[last] = 1
    for m in moves:
        if w.kong_holds(m):
            raise KongHolds(f"{m} holds the top with a Sledge and cannot be dislodged")
    w.log.append(f"{last} leaps from position {w.pos[last]} to the top; everyone else moves down one")
    w.relocate(moves)
    return EXECUTED


def _bow(w: World, v: dict[str, int], roller: Roller) -> str:
    why = _needs(w, 1)
    if why:
        return why
    first = w.at(1)[0]
    # Seed 000, Bow: the top Monkey is compared with "the most" Dance Moves, a measure over the Monkeys: those in
    # the Line and those in the barrel, who are Monkeys with Dance Moves too (the rules say "in the line" where they
    # mean it, as Bananas++ does). Seed 001 1.2 (Idle) counts an idle Monkey as none, so an idle one's Dance Moves
    # set no "most" (as Bananas++ leaves em out). The top Monkey is named by eir square, so e bows idle or not.
    monkeys = [*w.pos, *(b["name"] for b in w.barrel if b["name"] in w.stats)]
    most = max(w.dance_moves(m) for m in monkeys if m == first or m not in w.idle)
    if w.dance_moves(first) < most:
        w.add_dance_moves(first, 1)
        w.log.append(f"{first} bows: eir Dance Moves rise to {w.dance_moves(first)}")
    else:
        w.log.append(f"{first} bows, but already has the most Dance Moves ({w.dance_moves(first)})")
    return EXECUTED


def _smash(direction: int) -> Callable[[World, dict[str, int], Roller], str]:
    def run(w: World, v: dict[str, int], roller: Roller) -> str:
        a, b = v["n_A"], v["n_A"] + direction
        why = _needs(w, a, b, touches=False) or _needs(w, a)  # the user's hammer is always read
        if why:
            return why
        if not w.at(b):
            # Seed 000, Doing the Dance: a move on an empty position is ignored only if it would read or change
            # that Monkey's values. An Invisible hammer does nothing, and a Shot-gun only moves its target (a
            # place in the Line is not a GNDT value, as for a Swing into an empty position): with nobody there
            # the move is executed, and counts towards the cap. Every other hammer reads or changes its target.
            effect = w.effect_of(w.at(a)[0])
            if effect not in TARGET_UNTOUCHED:
                return _needs(w, b) or IGNORED
            w.log.append(f"nobody is in position {b}: the {w.hammer_of(w.at(a)[0])} hammer meets nobody, "
                         "touching no Monkey's values, and the move is executed")
            return EXECUTED
        return EXECUTED if use_hammer(w, w.at(a)[0], w.at(b)[0]) else FAILED
    return run


def _bananas_plus(w: World, v: dict[str, int], roller: Roller) -> str:
    # Seed 000, Bananas++: "each Monkey in the line" gains a banana. It counts Monkeys, not squares, and seed 001
    # 1.2 (Idle) counts an idle Monkey as none outside rules 1.1, 1.2, 1.8 and 1.10, eir gamestate waiting for eir
    # return: an idle Monkey standing in the Line gains nothing (as the Hot Potato and All Danced Out leave em out)
    gainers = [m for m in w.in_order() if m not in w.idle]
    for m in gainers:
        w.add_bananas(m, 1)
    skipped = len(w.pos) - len(gainers)
    w.log.append(f"every Monkey in the Line gains a banana ({len(gainers)})"
                 + (f"; none for {counted(skipped, 'idle Monkey')} standing in it" if skipped else ""))
    return EXECUTED


def _big_bonus(w: World, v: dict[str, int], roller: Roller) -> str:
    why = _needs(w, 1)
    if why:
        return why
    first = w.at(1)[0]
    if w.kong_holds(first) and len(w.pos) > 1:
        raise KongHolds(f"{first} holds the top with a Sledge and cannot be dislodged")
    w.add_bananas(first, 3)
    w.log.append(f"{first} gains 3 bananas")
    w.to_back(first)
    return EXECUTED


def _soul_selling(w: World, v: dict[str, int], roller: Roller) -> str:
    a = v["n_A"]
    why = _needs(w, a)
    if why:
        return why
    who = w.at(a)[0]
    if w.kong_holds(who):
        raise KongHolds(f"{who} holds the top with a Sledge and cannot be dislodged")
    w.add_bananas(who, 5)
    w.log.append(f"{who} sells eir soul for 5 bananas")
    w.to_barrel(who)
    return EXECUTED


def _hat_trick(w: World, v: dict[str, int], roller: Roller) -> str:
    a = v["n_A"]
    why = _needs(w, a)
    if why:
        return why
    w.change_hat(w.at(a)[0])
    return EXECUTED


def _pickpocket(w: World, v: dict[str, int], roller: Roller) -> str:
    a, b = v["n_A"], v["n_B"]
    why = _needs(w, a, b)
    if why:
        return why
    x, y = roller.roll(5), roller.roll(5)
    gap = abs(a - b)
    ma, mb = w.at(a)[0], w.at(b)[0]
    w.log.append(f"the dice give {x} and {y}; the positions are {gap} apart")
    if x - y > gap:
        thief, victim = ma, mb
    elif y - x > gap:
        thief, victim = mb, ma
    else:
        w.log.append("neither difference is greater: nobody's pocket is picked")
        return EXECUTED
    item = smallest_item(w.held(victim))
    if item is None or thief == victim:
        w.log.append(f"{victim} has nothing {thief} can take")
        return EXECUTED
    item["held_by"] = thief
    w.log.append(f"{thief} picks {item['name']} from {victim}'s pocket")
    return EXECUTED


def _anti_hat_swing(w: World, v: dict[str, int], roller: Roller) -> str:
    # Seed 000, Anti-hat swing: the die has Y sides, Y "the number of Monkeys in the Monkey line". That counts
    # Monkeys, and seed 001 1.2 (Idle) counts an idle one as none (as Bananas++ does): Y leaves idle Monkeys out.
    # The die then names a square, position X, and whoever stands there becomes Bare, idle or not (as a Swing or a
    # Smash reaches whoever stands in the square it names).
    # With no Monkey to count, Y is 0 and the die has no side: there is no X, so the move names no valid position,
    # which Doing the Dance calls skipped (as Position 0 is); ignored is for a valid position where nobody stands
    y = sum(1 for m in w.pos if m not in w.idle)
    if y == 0:
        w.log.append("no active Monkey is in the Line: the die (Y = 0) has no side, so the move names no position "
                     "and is skipped")
        return SKIPPED
    x = roller.roll(y)
    who = w.at(x)
    idle_here = len(w.pos) - y
    w.log.append(f"the die gives {x} of {y}"
                 + (f" (the Monkeys in the Line, not counting {counted(idle_here, 'idle Monkey')})"
                    if idle_here else ""))
    if not who:
        w.log.append(f"nobody is in position {x}: the move is ignored")
        return IGNORED
    w.become_bare(who[0])
    return EXECUTED


RUNS: dict[str, Callable[[World, dict[str, int], Roller], str]] = {
    "swing": _swing, "leap": _leap, "bow": _bow, "left-smash": _smash(-1), "right-smash": _smash(+1),
    "bananas-plus": _bananas_plus, "big-bonus": _big_bonus, "soul-selling": _soul_selling,
    "hat-trick": _hat_trick, "pickpocket": _pickpocket, "anti-hat-swing": _anti_hat_swing,
}
