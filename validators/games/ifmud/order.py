"""Standard Order (Rule 94) and Random Selection (Rule 95), and the orders built on them.

Pure functions: no game state, no dice of their own. Random Selection takes a
``roll(sides) -> int`` so the engine's verifiable dice (or a test's fixed dice)
decide it.

Rule 94, as read here:

1. Each name is cut into words at white space. A word is an article when the
   word itself, in any case, is "a", "an" or "the" (Rule 94 names the articles
   as those words); punctuation before or after it ("'The'", "A.", "the,") does
   not make it another word, but anything inside it does: "A1", "T.H.E." and
   "A-B" are words of their own, not articles. The *key* of a name is
   the letters (a-z, case folded) of its non-article words, joined with nothing
   (spaces and punctuation are non-alphabetic and so ignored).
2. Names whose key is not empty come first, in order of that key.
3. "Any items remaining" are names with no letters outside articles but some
   letters in them: names made only of articles ("The A"). They follow, in
   order of all their letters, articles included.
4. Names with no letters at all come last: those that are numbers ("42",
   "-3", "2.5") in numerical order, then the rest ("!!!", "").

Ties (two names with the same key, such as "Attic" and "the attic") are broken
by the name's own text, so the order is total and the same on every machine.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import TypeVar

T = TypeVar("T")

ARTICLES = frozenset({"a", "an", "the"})
_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)$")


def letters(text: str) -> str:
    """The alphabetic characters of ``text`` (ASCII a-z and other letters), case folded."""
    return "".join(ch for ch in text.casefold() if ch.isalpha())


_EDGES = re.compile(r"^[\W_]+|[\W_]+$")


def is_article(word: str) -> bool:
    """Rule 94: the articles are the words "a", "an" and "the". A word is one when, with the punctuation around it
    taken off, it is one of them in any case: "A1" or "T.H.E." only shares an article's letters."""
    return _EDGES.sub("", word).casefold() in ARTICLES


def key_without_articles(name: str) -> str:
    """Rule 94's first key: letters of the words that are not articles."""
    return "".join(letters(w) for w in name.split() if not is_article(w))


def only_articles(name: str) -> bool:
    """A name whose letters all belong to articles, and that has at least one (Rules 57, 69, 94)."""
    return not key_without_articles(name) and bool(letters(name))


def _number(name: str) -> float | None:
    s = name.strip()
    return float(s) if _NUMBER.match(s) else None


@lru_cache(maxsize=8192)  # a pure function of the name, asked for again and again
def standard_key(name: str) -> tuple:
    """A sort key putting names in Standard Order (Rule 94)."""
    key = key_without_articles(name)
    if key:
        return (0, key, 0.0, name)
    every = letters(name)
    if every:
        return (1, every, 0.0, name)
    n = _number(name)
    if n is not None:
        return (2, "", n, name)
    return (3, "", 0.0, name)


def standard_order(items: Iterable[T], name: Callable[[T], str] = str) -> list[T]:  # type: ignore[assignment]
    """``items`` in Standard Order, by ``name(item)``."""
    return sorted(items, key=lambda x: standard_key(name(x)))


def plain_key(name: str) -> tuple[str, str]:
    """A sort key putting names in plain alphabetical order, not counting articles (Rules 57 and 69).

    Unlike Standard Order (Rule 94, which applies only to lists said to be in it), every character but the
    article words is counted: the words that are not articles, joined by one space, case folded and with accents
    taken off their letters, compared character by character. A space, punctuation and digits come before every
    letter, so "Zr Zone" comes before "Zrblm", as in a word-by-word dictionary. Ties are broken by the name."""
    words = " ".join(w for w in name.split() if not is_article(w)).casefold()
    bare = "".join(ch for ch in unicodedata.normalize("NFKD", words) if not unicodedata.combining(ch))
    return (bare, name)


def alphabetical_extreme(names: Iterable[str], last: bool = False) -> str | None:
    """The name alphabetically first (or last) not counting articles (ifMUD seed, Rules 57 and 69), in plain
    alphabetical order (``plain_key``), not Standard Order: those two rules name only articles as not counted.
    Names of only articles (or no letters at all) are not considered. None when nothing qualifies."""
    keyed = [n for n in names if key_without_articles(n)]
    if not keyed:
        return None
    return (max if last else min)(keyed, key=plain_key)


# ---------------------------------------------------------------- dice and Random Selection


DEFAULT_DICE = (1, 2, 3, 4, 6, 8, 10, 12, 16, 18, 20, 24, 30, 100)


def die_for(n: int, dice: Sequence[int] = DEFAULT_DICE) -> int | None:
    """The die for choosing among ``n`` items: one of ``n`` sides, else the next largest available
    (Rule 95). None when no die is large enough."""
    bigger = sorted(d for d in dice if d >= n)
    return bigger[0] if bigger else None


def next_die(size: int, dice: Sequence[int] = DEFAULT_DICE, larger: bool = False) -> int | None:
    """The next smaller (or larger) available die than ``size``, or None (Rules 105, 145)."""
    if larger:
        up = sorted(d for d in dice if d > size)
        return up[0] if up else None
    down = sorted(d for d in dice if d < size)
    return down[-1] if down else None


class NoSelection(ValueError):
    """Random Selection cannot be made (nothing to choose from, or no die big enough)."""


def random_selection(items: Iterable[T], roll: Callable[[int], int], name: Callable[[T], str] = str,
                     dice: Sequence[int] = DEFAULT_DICE, max_rerolls: int = 1000) -> T:  # type: ignore[assignment]
    """Rule 95: put the items in Standard Order, roll the die for their number (the next largest
    available if there is none of that size), reroll values beyond the list, and take that item.

    A one-item list takes its item without a roll (Rule 159: a one-sided die may be assumed to
    give 1 without any action)."""
    ordered = standard_order(list(items), name)
    if not ordered:
        raise NoSelection("there is nothing to choose from")
    n = len(ordered)
    sides = die_for(n, dice)
    if sides is None:
        raise NoSelection(f"no available die has {n} or more sides")
    if sides == 1:
        return ordered[0]
    for _ in range(max_rerolls):
        value = roll(sides)
        if 1 <= value <= n:
            return ordered[value - 1]
    raise NoSelection(f"{max_rerolls} rerolls of a d{sides} never gave 1..{n}")


# ---------------------------------------------------------------- turn order


def surname(name: str) -> str:
    """The surname of a name as the game knows it: its last word (a one-word name is its own surname)."""
    words = name.split()
    return words[-1] if words else name


@lru_cache(maxsize=8192)
def turn_key(name: str) -> tuple[str, str]:
    """Alphabetical order by surname (Rule 27), case-insensitive, then by the whole name."""
    return (letters(surname(name)) or surname(name).casefold(), name.casefold())


def turn_order(names: Iterable[str]) -> list[str]:
    return sorted(names, key=turn_key)


def next_in_turn(names: Iterable[str], current: str | None) -> str | None:
    """The player after ``current`` in surname order, or the first when there is none after (Rule 27).

    ``current`` need not be among ``names`` (it may just have left the game)."""
    order, keys = _in_turn_order(tuple(names))
    if not order:
        return None
    if current is None:
        return order[0]
    i = bisect.bisect_right(keys, turn_key(current))  # the first whose key comes after current's
    return order[i] if i < len(order) else order[0]


@lru_cache(maxsize=64)  # the roster changes seldom; a turn ends often
def _in_turn_order(names: tuple[str, ...]) -> tuple[list[str], list[tuple[str, str]]]:
    order = turn_order(names)
    return order, [turn_key(n) for n in order]
