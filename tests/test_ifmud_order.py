"""Standard Order (Rule 94), Random Selection (Rule 95), alphabetical extremes (Rules 57, 69) and
turn order by surname (Rule 27): pure functions of validators/games/ifmud/order.py."""

from __future__ import annotations

import pytest

from validators.games.ifmud.order import (
    NoSelection,
    alphabetical_extreme,
    die_for,
    key_without_articles,
    next_die,
    next_in_turn,
    only_articles,
    random_selection,
    standard_order,
    turn_order,
)

# Each case: the names given (in some order) and the Standard Order expected.
STANDARD_ORDER_CASES = [
    ("articles are ignored", ["The Zoo", "Aardvark", "an Ostrich"], ["Aardvark", "an Ostrich", "The Zoo"]),
    ("case is ignored", ["banana", "Apple", "cherry"], ["Apple", "banana", "cherry"]),
    ("upper-case articles are articles", ["THE Moon", "A Lamp", "AN Egg"], ["AN Egg", "A Lamp", "THE Moon"]),
    ("punctuation is ignored", ["Washington, DC", "Wash-basin", "Walrus!"],
     ["Walrus!", "Wash-basin", "Washington, DC"]),
    ("spaces are ignored", ["Central Park", "Centra Lark"], ["Centra Lark", "Central Park"]),
    ("digits inside a name are ignored", ["Room 9", "Room 10", "Roo"], ["Roo", "Room 10", "Room 9"]),
    ("an article-like word inside another word is not an article", ["Theatre", "Anvil", "Apple"],
     ["Anvil", "Apple", "Theatre"]),
    ("articles are whole words anywhere in the name", ["West of the House", "West of a Heath"],
     ["West of a Heath", "West of the House"]),
    ("an article with punctuation is still an article", ["'The' Attic", "Basement"], ["'The' Attic", "Basement"]),
    ("names made only of articles come after the rest", ["The", "Zebra", "A"], ["Zebra", "A", "The"]),
    ("names of articles sort with their articles", ["the a", "An", "A the"], ["An", "A the", "the a"]),
    ("numbers come after names, in numerical order", ["10", "9", "Nine", "100"], ["Nine", "9", "10", "100"]),
    ("negative and decimal numbers", ["2.5", "-3", "0"], ["-3", "0", "2.5"]),
    ("non-numbers without letters come last", ["!!!", "7", "The", "x"], ["x", "The", "7", "!!!"]),
    ("the empty name is at the very end", ["", "42", "a"], ["a", "42", ""]),
    ("ties keep a fixed order by the text", ["attic", "Attic", "the Attic"], ["Attic", "attic", "the Attic"]),
    ("the rooms of the seed", ["The North Pole", "Attic", "Under the High Wall (on a resting)", "Saturn",
                               "The House of Commons", "Zrblm"],
     ["Attic", "The House of Commons", "The North Pole", "Saturn", "Under the High Wall (on a resting)", "Zrblm"]),
    ("a name that is only an article and punctuation", ["A.", "B."], ["B.", "A."]),
    # Rule 94 names the articles as the words "a", "an", "the": a word that only shares their letters is another
    # word, so its letters count ("A1" keys "a", "T.H.E. Vault" keys "thevault").
    ("a word spelling an article with a digit in it is no article", ["A1", "Aardvark", "The"],
     ["A1", "Aardvark", "The"]),
    ("an abbreviation spelling an article is no article", ["T.H.E. Vault", "Theatre", "Umbrella"],
     ["Theatre", "T.H.E. Vault", "Umbrella"]),
]


@pytest.mark.parametrize("names, expected", [pytest.param(n, e, id=i) for i, n, e in STANDARD_ORDER_CASES])
def test_standard_order(names, expected):
    assert standard_order(names) == expected
    assert standard_order(reversed(names)) == expected


def test_at_least_fifteen_standard_order_cases():
    assert len(STANDARD_ORDER_CASES) >= 15


def test_key_and_only_articles():
    assert key_without_articles("The House of Commons") == "houseofcommons"
    assert only_articles("A the an")
    assert not only_articles("42")
    assert not only_articles("Theatre")
    assert not only_articles("A1") and not only_articles("T.H.E.")  # Rule 94: not the words a, an, the
    assert only_articles("'The' A.")
    assert key_without_articles("A1 Lounge") == "alounge"


class Dice:
    def __init__(self, *values):
        self.values = list(values)
        self.asked: list[int] = []

    def __call__(self, sides):
        self.asked.append(sides)
        return self.values.pop(0)


def test_random_selection_indexes_standard_order():
    dice = Dice(2)
    assert random_selection(["The Zoo", "Attic", "Lounge"], dice) == "Lounge"
    assert dice.asked == [3]


def test_random_selection_next_larger_die_and_rerolls():
    dice = Dice(6, 5, 4)  # d6 for five items: 6 is rerolled, then 5 picks the fifth
    assert random_selection(list("zyxwv"), dice, dice=(4, 6, 8)) == "z"
    assert dice.asked == [6, 6]


def test_random_selection_single_letter_a_is_an_article():
    # "a" alone is a name made only of an article, so it sorts after "b"
    assert random_selection(["a", "b"], Dice(1)) == "b"


def test_random_selection_of_one_rolls_nothing():
    dice = Dice()
    assert random_selection(["Saturn"], dice) == "Saturn"
    assert dice.asked == []


def test_random_selection_errors():
    with pytest.raises(NoSelection):
        random_selection([], Dice(1))
    with pytest.raises(NoSelection):
        random_selection(list("abcdefg"), Dice(1), dice=(4, 6))


def test_dice_sizes():
    assert die_for(5, (4, 6, 8)) == 6
    assert die_for(9, (4, 6, 8)) is None
    assert next_die(18, (12, 18, 20)) == 12
    assert next_die(18, (12, 18, 20), larger=True) == 20
    assert next_die(4, (4, 6)) is None


def test_alphabetical_extremes_skip_article_names():
    rooms = ["The", "Attic", "Zrblm", "A", "The Zoo", "42"]
    assert alphabetical_extreme(rooms) == "Attic"
    assert alphabetical_extreme(rooms, last=True) == "Zrblm"
    assert alphabetical_extreme(["The", "An"]) is None
    assert alphabetical_extreme(["A1", "Attic"]) == "A1"  # "A1" is a name, not an article (Rule 94's words)


def test_alphabetical_extremes_count_all_but_articles():
    """Rules 57 and 69 leave out articles only, not spaces, punctuation or digits as Standard Order does."""
    rooms = ["Zr Zone", "Zrblm", "The Attic", "Attic-2"]
    assert alphabetical_extreme(rooms, last=True) == "Zrblm"  # "zr zone" < "zrblm": the space comes first
    assert standard_order(rooms)[-1] == "Zr Zone"  # Standard Order: "zrzone" > "zrblm"
    assert alphabetical_extreme(rooms) == "The Attic"  # "attic" < "attic-2"
    assert alphabetical_extreme(["Room 9", "Room 10"], last=True) == "Room 9"  # "9" > "1"
    assert alphabetical_extreme(["Émile", "Ezra", "Fen"]) == "Émile"  # accents do not move a letter


def test_turn_order_by_surname():
    names = ["Carl Muckenhoupt", "Admiral Jota", "Adam Biltcliffe", "Roger Carbol", "Zoe Abbott"]
    assert turn_order(names) == ["Zoe Abbott", "Adam Biltcliffe", "Roger Carbol", "Admiral Jota", "Carl Muckenhoupt"]
    assert next_in_turn(names, "Admiral Jota") == "Carl Muckenhoupt"
    assert next_in_turn(names, "Carl Muckenhoupt") == "Zoe Abbott"
    # a player who has just left still has a place in the order
    assert next_in_turn(["Zoe Abbott", "Carl Muckenhoupt"], "Roger Carbol") == "Carl Muckenhoupt"
    assert next_in_turn([], "x") is None
