"""``nomic act monkey --list``: the Monkey module's actions that take parameters are said not to be possible when no
value would do (``Action.ready``, seed 000): no gap or doubled position in the Line to balance, no section over its
Monkey's Dance Moves, no usable item held, no Awesomeness Post open to votes or past its 48 hours, an own post still
pending or too few bananas to post. Each "no" is tried against the judge with every value, and the "yes" comes back
once the game allows it."""

from __future__ import annotations

from datetime import timedelta

from tests import listing
from tests.gitgame import make_repo
from validators.timeutil import parse_time

GAME = "monkey"
NOW = parse_time("2026-11-22T12:00:00Z")  # a Sunday: the items were activated again at 00:00

_GAME = listing.Game(GAME, NOW)
_listed, _take, _edit = _GAME.listed, _GAME.take, _GAME.edit
_refused_whatever_the_values = _GAME.refused_whatever_the_values


def test_balancing_the_line_needs_a_gap_or_a_doubled_position(tmp_path):
    """Seed 000, "The Monkey Line": the example's Line is balanced, one Monkey in each of positions 1 to 10. A
    Monkey who leaves empties a position, and the Monkey after it may be moved up; two Monkeys in one position (as
    a proposal's patch may leave them) may be split."""
    repo = make_repo(tmp_path, GAME)
    abu = _listed(repo, "Abu")
    assert abu["monkey.move-up"] == ["no empty position of the Line has a single Monkey right after it to move up"]
    assert abu["monkey.split"] == ["no position of the Line holds two Monkeys to split"]
    for action in ("monkey.move-up", "monkey.split"):
        _refused_whatever_the_values(repo, "Abu", action)
    _take(repo, "core.leave", "Dodger", {}, 2)  # Dodger stood in position 5, King Kong alone in 6
    assert _listed(repo, "Abu")["monkey.move-up"] == []
    _take(repo, "monkey.move-up", "Abu", {"position": 5}, 1)
    assert _listed(repo, "Abu")["monkey.move-up"] == []  # the gap is now position 6, Abu alone in 7

    def doubled(line):
        line["positions"][1]["monkeys"].append("Jack")  # Caesar and Jack in position 2, position 3 empty
        del line["positions"][2]

    _edit(repo, "monkey_line", doubled)
    abu = _listed(repo, "Abu")
    assert abu["monkey.split"] == [] and abu["monkey.move-up"] == []
    _take(repo, "monkey.split", "Abu", {"position": 2}, 0)


def test_trimming_needs_a_section_over_its_monkeys_dance_moves(tmp_path):
    """Seed 000, "Doing the Dance": every section of the example fits its Monkey's Dance Moves. Once Caesar's fall
    to 1 (by hand here), his section of complexity over 1 may be trimmed, by anyone; then none is over again."""
    repo = make_repo(tmp_path, GAME)
    assert _listed(repo, "Jack")["monkey.trim-section"] == ["no section of the Dance exceeds its Monkey's Dance Moves"]
    _refused_whatever_the_values(repo, "Jack", "monkey.trim-section")

    def one_move(roster):
        next(p for p in roster["players"] if p["name"] == "Caesar")["stats"]["dance_moves"] = 1

    _edit(repo, "roster", one_move)
    assert _listed(repo, "Jack")["monkey.trim-section"] == []
    _take(repo, "monkey.trim-section", "Jack", {"monkey": "Caesar"}, 1)
    assert _listed(repo, "Jack")["monkey.trim-section"] == ["no section of the Dance exceeds its Monkey's Dance Moves"]


def test_using_an_item_needs_one_held_that_may_be_used_now(tmp_path):
    """Seed 000, "Items" and "List of Items": Caesar holds nothing; Abu holds The Monkey Ball, activated again this
    Sunday, and once he has used it he has nothing to use until next Sunday. The Banana Fountain gives once a day."""
    repo = make_repo(tmp_path, GAME)
    assert _listed(repo, "Caesar")["monkey.use-item"] == ["Caesar holds no item"]
    assert _listed(repo, "Abu")["monkey.use-item"] == []
    _refused_whatever_the_values(repo, "Caesar", "monkey.use-item")
    _take(repo, "monkey.use-item", "Abu", {"item": "The Monkey Ball"}, 2)
    deactivated = ["none of the items Abu holds can be used now (The Monkey Ball is Deactivated)"]
    assert _listed(repo, "Abu")["monkey.use-item"] == deactivated
    _refused_whatever_the_values(repo, "Abu", "monkey.use-item")
    assert _listed(repo, "Abu", NOW + timedelta(days=7))["monkey.use-item"] == []

    def caesar_holds_the_fountain(items):
        fountain = next(i for i in items["items"] if i["name"] == "Banana Fountain")
        del fountain["lies_at"]
        fountain["held_by"] = "Caesar"

    _edit(repo, "monkey_items", caesar_holds_the_fountain)
    assert _listed(repo, "Caesar")["monkey.use-item"] == []
    _take(repo, "monkey.use-item", "Caesar", {"item": "Banana Fountain"}, 1)
    assert _listed(repo, "Caesar")["monkey.use-item"] == [
        "none of the items Caesar holds can be used now (Banana Fountain was already used today)"]
    _refused_whatever_the_values(repo, "Caesar", "monkey.use-item")
    assert _listed(repo, "Caesar", NOW + timedelta(days=1))["monkey.use-item"] == []


def test_awesomeness_needs_a_post_open_to_vote_or_past_its_48_hours(tmp_path):
    """Seed 000, "Awesomeness": both posts of the example are closed. Caesar's new post is open to votes for 48
    hours, and may be closed after them; while it is pending he may post no other. Dodger has only the 3 bananas a
    post costs: once he has posted, he has neither a free hand nor the bananas."""
    repo = make_repo(tmp_path, GAME)
    abu = _listed(repo, "Abu")
    assert abu["monkey.awesomeness-vote"] == ["no Awesomeness Post is open to votes"]
    assert abu["monkey.awesomeness-close"] == ["no pending Awesomeness Post is past its 48 hours"]
    for action in ("monkey.awesomeness-vote", "monkey.awesomeness-close"):
        _refused_whatever_the_values(repo, "Abu", action)
    assert _listed(repo, "Caesar")["monkey.awesomeness-post"] == []
    _take(repo, "monkey.awesomeness-post", "Caesar", {"about": "Jack"}, 5)
    _take(repo, "monkey.awesomeness-post", "Dodger", {"about": "Abu"}, 4)
    abu = _listed(repo, "Abu")
    assert abu["monkey.awesomeness-vote"] == []
    assert abu["monkey.awesomeness-close"] == ["no pending Awesomeness Post is past its 48 hours"]
    assert _listed(repo, "Caesar")["monkey.awesomeness-post"] == [
        "Caesar already has Awesomeness Post 3 pending (until 48 hours after 2026-11-22T11:55:00Z)"]
    assert _listed(repo, "Dodger")["monkey.awesomeness-post"] == [
        "Dodger already has Awesomeness Post 4 pending (until 48 hours after 2026-11-22T11:56:00Z)",
        "Dodger has 0 bananas; an Awesomeness Post costs 3"]
    _refused_whatever_the_values(repo, "Caesar", "monkey.awesomeness-post")
    later = NOW + timedelta(hours=49)
    abu = _listed(repo, "Abu", later)
    assert abu["monkey.awesomeness-vote"] == ["no Awesomeness Post is open to votes"]
    assert abu["monkey.awesomeness-close"] == []
    _refused_whatever_the_values(repo, "Abu", "monkey.awesomeness-vote", later)
    _take(repo, "monkey.awesomeness-close", "Abu", {"post": 3}, 0, later)
