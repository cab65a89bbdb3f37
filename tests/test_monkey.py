"""Unit tests of the Monkey module's pure parts: the Line, entries, the order of the dance, hammers, pages."""

from __future__ import annotations

import re
from datetime import datetime, timezone
from types import SimpleNamespace

import pytest

from validators.cases import base_state
from validators.games.monkey import dance, hammers, moves, pages
from validators.games.monkey.dance import roll_order
from validators.games.monkey.options import options
from validators.games.monkey.world import KongHolds, World, smallest_item


def world(**positions: int) -> World:
    """A small World: positions by name (underscores for spaces), everyone with 5 bananas and 5 Dance Moves."""
    pos = {k.replace("_", " "): v for k, v in positions.items()}
    stats = {n: {"bananas": 5, "dance_moves": 5, "hammer": "Fairy", "hat": "Blue", "status": "In Line"} for n in pos}
    names = [("Fairy", "fairy"), ("Banana", "banana"), ("Shot-gun", "shotgun"), ("Hammer", "hammer"),
             ("Big Squeaky", "big-squeaky"), ("Emo", "emo"), ("Revenge", "revenge"), ("Sledge", "sledge"),
             ("Hot Potato", "hot-potato"), ("MC", "mc"), ("Magnet", "magnet"), ("Invisible", "invisible"),
             ("Hat", "hat")]
    kit = [{"name": n, "effect": e} for n, e in names]
    npcs = {"King Kong": "king-kong", "Miss Bubbles": "extra-swing"}
    return World(pos=pos, barrel=[], stats=stats, npcs={k: v for k, v in npcs.items() if k in pos}, items=[],
                 hammers=kit, hats=["Blue", "Green", "Yellow", "Red"], now="2026-11-02T00:00:00Z")


# ---------------------------------------------------------------- the Line


@pytest.mark.parametrize("positions, unbalanced", [
    ({"A": 1, "B": 2, "C": 3}, False),
    ({"A": 1, "B": 3}, True),  # 2 is empty with a Monkey after it
    ({"A": 1, "B": 1, "C": 2}, True),  # two in one position
    ({"A": 2}, True),  # position 1 empty
    ({}, False),
])
def test_is_unbalanced(positions, unbalanced):
    assert world(**positions).is_unbalanced() is unbalanced


def test_move_up_needs_an_empty_position_and_one_monkey_after_it():
    w = world(A=1, B=3)
    assert w.move_up(2) == "B"
    assert w.pos == {"A": 1, "B": 2}
    with pytest.raises(ValueError):
        w.move_up(1)  # not empty
    with pytest.raises(ValueError):
        w.move_up(5)  # nobody in 6


def test_split_pushes_later_monkeys_and_moves_the_earliest():
    w = world(Zed=1, Abe=1, Cat=2, Dot=3)
    assert w.split(1) == "Abe"
    assert w.pos == {"Zed": 1, "Abe": 2, "Cat": 3, "Dot": 4}
    assert not w.is_unbalanced()


def test_rebalance_closes_gaps_and_splits():
    w = world(A=1, B=1, C=4, D=9)
    w.rebalance()
    # split 1 (A, alphabetically first, to 2; C to 5, D to 10), then C up to 3 and D up to 4
    assert w.pos == {"B": 1, "A": 2, "C": 3, "D": 4}
    assert not w.is_unbalanced()


def test_items_stay_or_follow_by_size():
    w = world(A=1, B=2)
    w.items = [{"name": "Rock", "size": "large", "held_by": "A"}, {"name": "Ball", "size": "small", "held_by": "A"},
               {"name": "Charm", "size": "pocket-size", "held_by": "A"}]
    w.relocate({"A": 2, "B": 1})
    by = {i["name"]: i.get("held_by", i.get("lies_at")) for i in w.items}
    assert by == {"Rock": "B", "Ball": "A", "Charm": "A"}  # B arrived where the Rock stayed
    w.to_barrel("A")
    by = {i["name"]: i.get("held_by", i.get("lies_at")) for i in w.items}
    assert by == {"Rock": "B", "Ball": 2, "Charm": "A"}  # small stays behind, pocket-size goes along
    assert w.stats["A"]["status"] == "In the Barrel"


def test_first_monkey_to_move_in_picks_up_a_lying_item():
    w = world(A=1, B=2)
    w.items = [{"name": "Fountain", "size": "massive", "lies_at": 3}]
    w.move("B", 3)
    assert w.items[0] == {"name": "Fountain", "size": "massive", "held_by": "B"}
    w.move("B", 2)
    assert w.items[0]["lies_at"] == 3


def test_king_kong_with_a_sledge_holds_the_top():
    w = world(King_Kong=1, A=2)
    w.set_hammer("King Kong", "Sledge")
    with pytest.raises(KongHolds):
        w.relocate({"King Kong": 2, "A": 1})
    w.to_barrel("King Kong", allow_kong=True)
    assert "King Kong" not in w.pos


def test_king_kong_sharing_the_top_is_held_there_and_a_split_that_moves_him_fails():
    """Seed 000, King Kong with The Monkey Line: position 1 is the first position however many share it. With a
    Sledge he may not be dislodged, so a split that names him (alphabetically earliest) fails as a whole."""
    w = world(King_Kong=1, Miss_Bubbles=1, Zed=2)
    w.set_hammer("King Kong", "Sledge")
    with pytest.raises(KongHolds, match="the split fails"):
        w.split(1)
    assert w.pos == {"King Kong": 1, "Miss Bubbles": 1, "Zed": 2}
    w = world(King_Kong=1, Abe=1, Zed=2)
    w.set_hammer("King Kong", "Sledge")
    assert w.split(1) == "Abe"
    assert w.pos == {"King Kong": 1, "Abe": 2, "Zed": 3}


def test_king_kong_ending_the_dance_in_a_shared_top_takes_a_sledge():
    """Seed 000, King Kong: ending a Dance at the first position gives him a Sledge. A dance cannot end with
    position 1 shared (it starts balanced and is balanced after every move), but were it so, he is at position 1."""
    w = world(King_Kong=1, Miss_Bubbles=1)
    w.stats["King Kong"]["hammer"] = "Shot-gun"
    steps: list = []
    ctx = SimpleNamespace(at=datetime(2026, 11, 2, 12, tzinfo=timezone.utc))
    dance._after_dance(ctx, w, [], steps.append)
    assert w.hammer_of("King Kong") == "Sledge"
    assert w.hammer_of("Miss Bubbles") == "Fairy"


def test_smallest_item_ignores_massive_and_breaks_ties_by_name():
    items = [{"name": "Z", "size": "small"}, {"name": "M", "size": "massive"}, {"name": "C", "size": "small"},
             {"name": "A", "size": "large"}]
    assert smallest_item(items)["name"] == "C"
    assert smallest_item([{"name": "M", "size": "massive"}]) is None


# ---------------------------------------------------------------- entries and order

MOVES = [{"name": "Swing n_A to n_B", "complexity": 1, "effect": "swing"},
         {"name": "Echo n_A n_B n_A", "complexity": 2, "effect": "swing"},
         {"name": "Bow", "complexity": 2, "effect": "bow"}]


def test_parse_entry_canonicalises_and_checks_words():
    e = moves.parse_entry("  swing 3   TO 7", MOVES)
    assert (e.text, e.values, e.complexity) == ("Swing 3 to 7", {"n_A": 3, "n_B": 7}, 1)
    assert moves.parse_entry("Echo 3 7 3", MOVES).values == {"n_A": 3, "n_B": 7}
    assert moves.parse_entry("Echo 3 3 3", MOVES).values == {"n_A": 3, "n_B": 3}
    with pytest.raises(ValueError, match="same value"):
        moves.parse_entry("Echo 3 3 7", MOVES)
    with pytest.raises(ValueError, match="positive integer"):
        moves.parse_entry("Swing 0 to 2", MOVES)
    with pytest.raises(ValueError, match="not a dance move"):
        moves.parse_entry("Moonwalk", MOVES)


def test_roll_order_picks_from_those_left_alphabetically():
    dice = iter([3, 1, 2])
    assert roll_order(["D", "B", "A", "C"], lambda n: next(dice)) == ["C", "A", "D", "B"]


def test_roll_order_counts_names_in_character_code_order():
    """Seed 000, "Doing the Dance" asks only for a random list of the active Monkeys; the dice count the Monkeys
    left in plain character-code order (a reading, see the module doc), not in the case-blind alphabetical
    order of a split or the barrel: a die of 1 picks Bruno before ape. Stored dances replay with it."""
    assert roll_order(["ape", "Bruno", "cy"], lambda n: 1) == ["Bruno", "ape", "cy"]


def test_roll_order_rolls_no_die_for_the_last():
    rolled = []
    roll_order(["A", "B"], lambda n: rolled.append(n) or 1)
    assert rolled == [2]


# ---------------------------------------------------------------- hammers


def test_big_squeaky_chain_runs_away_from_the_user():
    w = world(A=1, B=2, C=3, D=4)
    w.set_hammer("A", "Big Squeaky")
    w.set_hammer("B", "Big Squeaky")
    hammers.use_hammer(w, "A", "B")
    assert w.dance_moves("D") == 6  # C's Fairy hammer on D
    assert w.dance_moves("A") == 5


def test_a_big_squeaky_chain_runs_the_whole_length_of_a_long_line():
    """Seed 000, Hammers (Big Squeaky): each Monkey hit turns and hits eir other neighbour, so a row of Big Squeaky
    holders passes the blow on to its very end, however many they are. A fixed cut at 64 links stopped it."""
    w = world(**{f"M{k:03}": k for k in range(1, 101)})
    for k in range(1, 99):
        w.set_hammer(f"M{k:03}", "Big Squeaky")
    hammers.use_hammer(w, "M001", "M002")  # ... M098 on M099, whose Fairy hammer hits M100
    assert w.dance_moves("M100") == 6
    assert not any("cut" in line for line in w.log)


def test_a_chain_as_long_as_the_line_allows_is_followed_without_recursion():
    """A chain of a thousand links is a loop, not a thousand nested calls."""
    w = world(**{f"M{k:04}": k for k in range(1, 1002)})
    for k in range(1, 1000):
        w.set_hammer(f"M{k:04}", "Big Squeaky")
    hammers.use_hammer(w, "M0001", "M0002")  # M1000's Fairy hammer hits M1001
    assert w.dance_moves("M1001") == 6


def test_revenge_and_emo_end_quietly():
    w = world(A=1, B=2)
    w.set_hammer("A", "Revenge")
    w.set_hammer("B", "Emo")
    hammers.use_hammer(w, "A", "B")  # B's Emo on A; A holds a Revenge: everyone laughs
    assert w.stats["A"] == w.stats["A"] | {"bananas": 5, "dance_moves": 5}
    assert any("laughs" in line for line in w.log)


def test_every_hammer_effect_is_known():
    assert set(hammers.HITS) == set(hammers.EFFECTS)


def test_hat_hammer_bonus_option():
    for bonus, bananas in (("every-case", 7), ("bare-only", 5)):
        w = world(A=1, B=2)
        w.options = {"hat_hammer_bonus": bonus}
        w.set_hammer("A", "Hat")
        hammers.use_hammer(w, "A", "B")
        assert (w.stats["B"]["hat"], w.bananas("B")) == ("Green", bananas)


def test_options_refuse_unknown_values():
    with pytest.raises(ValueError):
        options({"options": {"monkey": {"hat_hammer_bonus": "sometimes"}}})
    with pytest.raises(ValueError):
        options({"options": {"monkey": {"colour": "brown"}}})


# ---------------------------------------------------------------- pages

RAW_STAMP = re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d")  # 2026-11-04T11:00:00Z or 2026-11-04 11:00


def _t(iso: str, words: str) -> str:
    """A time as the module pages write it: in words, with the exact stamp kept for the reader who needs it."""
    return f'<time datetime="{iso}" title="{iso}">{words}</time>'


def _shown(markdown: str) -> str:
    """What a reader sees of a page: its text without tags (a tag's attributes are not shown)."""
    return re.sub(r"<[^>]*>", "", markdown)


def test_every_time_on_the_monkey_pages_is_written_as_the_wiki_writes_times():
    """The Dance, the last Dance, a dance's own page, the barrel and Awesomeness write times as the rest of the
    wiki does (4 Nov 2026 11:00 UTC), never a raw stamp; the stamp stays in the ``<time>`` element's title."""
    state, _ = base_state("monkey")
    state.doc("monkey_line")["barrel"] = [{"name": "Abu", "since": "2026-11-21T10:00:00Z",
                                           "held_until": "2026-11-25T10:00:00Z"}]
    drawn = {p.slug: p.markdown for p in pages.pages(state)}
    assert {"dance", "last-dance", "awesomeness", "monkey-line"} <= set(drawn)
    for slug, text in drawn.items():
        assert not RAW_STAMP.search(_shown(text)), (slug, RAW_STAMP.search(_shown(text)))
    assert f"| 1 | {_t('2026-11-09T18:00:00Z', '9 Nov 2026 18:00 UTC')} | Caesar |" in drawn["dance"]
    assert f"| {_t('2026-11-12T13:00:00Z', '12 Nov 2026 13:00 UTC')} |" in drawn["dance"]  # a section's update
    assert (f"conducted by Caesar at {_t('2026-11-21T10:00:00Z', '21 Nov 2026 10:00 UTC')}, move by move"
            in drawn["last-dance"])
    assert (f"| Abu | {_t('2026-11-21T10:00:00Z', '21 Nov 2026 10:00 UTC')} | "
            f"{_t('2026-11-25T10:00:00Z', '25 Nov 2026 10:00 UTC')} |") in drawn["monkey-line"]
    assert (f"| 1 | Marcel | Caesar | {_t('2026-11-08T16:00:00Z', '8 Nov 2026 16:00 UTC')} | 5 | 0 | "
            f"5 FOR against Quorum 4, counted {_t('2026-11-10T16:00:00Z', '10 Nov 2026 16:00 UTC')} | "
            f"passed, closed {_t('2026-11-10T17:00:00Z', '10 Nov 2026 17:00 UTC')} |") in drawn["awesomeness"]
    page = pages.dance_action_page({"action": "monkey.dance", "actor": "Zira", "at": "2026-11-11T19:00:00Z",
                                    "dice": [3], "outcome": [{"after": "nothing", "events": []}]})
    assert page is not None and page.slug == "dance-20261111t190000z"
    assert page.title == "Dance of 11 Nov 2026 19:00 UTC, conducted by Zira"
    assert page.markdown.startswith(f"Conducted by **Zira** at {_t('2026-11-11T19:00:00Z', '11 Nov 2026 19:00 UTC')}.")
    assert not RAW_STAMP.search(_shown(page.markdown))
    assert "highlighted names moved." in page.markdown  # the drawings' highlight is explained, as on the last Dance


def test_pages_draw_the_line_and_escape_names():
    state, _ = base_state("monkey-dance")
    state.doc("monkey_items")["items"][0]["name"] = "<script>Ball</script>"
    drawn = {p.slug: p for p in pages.pages(state)}
    assert {"monkey-line", "dance", "last-dance"} <= set(drawn)
    line = drawn["monkey-line"].markdown
    assert "<svg" in line and "King Kong" in line and "&lt;script&gt;Ball" in line
    assert "<script>" not in line
    assert "Banana Fountain" in line  # lying in position 11


def test_the_line_is_never_shrunk_below_legible():
    """The wiki shrinks a drawing to its column; the Line keeps at least three quarters of its size (names of
    9 px), and scrolls sideways in its box instead."""
    import re

    state, _ = base_state("monkey-dance")
    drawn = {p.slug: p.markdown for p in pages.pages(state)}
    for text in (drawn["monkey-line"], pages.strip_svg(["Abu", "Caesar", "Jack"])):
        svgs = re.findall(r'<svg [^>]*role="img"[^>]*>', text)
        assert svgs
        for tag in svgs:
            width = int(re.search(r' width="(\d+)"', tag).group(1))
            floor = int(re.search(r'min-width:(\d+)px', tag).group(1))
            assert floor == round(width * 0.75), tag


def test_steps_markdown_tells_each_move():
    text = pages.steps_markdown([
        {"dance": 1, "conductor": "Al", "order": ["Al"], "line": ["Al", "Bo"], "barrel": []},
        {"monkey": "Al", "move": "Swing 1 to 2", "complexity": 1, "result": "executed", "events": ["swing"],
         "line": ["Bo", "Al"]},
        {"after": "Robin Hood", "events": ["Robin Hood takes a banana from <b>"]},
    ])
    # the number after a move is its complexity, and says so: "(1)" alone was a number without its unit
    assert "**1. Al: Swing 1 to 2 (complexity 1)**" in text
    assert "&lt;b&gt;" in text
    assert text.count("<svg") == 2


def test_steps_markdown_tells_a_stay_ended_before_the_first_move():
    """Seed 000, "All Danced Out": a stay the dance finds over ends before the first move; the page tells it there,
    not as something after the dance, and does not count it as a move."""
    text = pages.steps_markdown([
        {"dance": 2, "conductor": "Al", "order": ["Al"], "line": ["Al"], "barrel": ["Bo"]},
        {"before": "All Danced Out", "events": ["Bo has stayed in the barrel long enough"]},
        {"monkey": "Al", "move": "Bow", "complexity": 2, "result": "executed", "events": []},
    ])
    assert "**Before the first move: All Danced Out**" in text
    assert "After the dance" not in text
    assert "**1. Al: Bow (complexity 2)**" in text


def test_the_awesomeness_page_names_its_rule_as_the_ruleset_does():
    # the page's lede cites the rule by the game's own number and title, not by the project's seed number
    state, _ = base_state("monkey-dance")
    state.doc("monkey_awesomeness")["posts"].append({"id": 1, "author": "Abu", "about": "Caesar",
                                                     "submitted": "2026-11-08T16:00:00Z", "votes": {}})
    text = next(p.markdown for p in pages.pages(state) if p.slug == "awesomeness")
    rule = state.rules.get("awesomeness")
    assert text.startswith(f"Rule {rule.cite()}: Monkeys vote for 48 hours." if rule else "Awesomeness: "), text
    assert "Seed 000" not in text and "seed" not in text.lower()


def test_the_last_dance_page_draws_steps_a_patch_reshaped():
    """The last Dance page tells ``monkey_dance.last_dance.steps`` (seed 000, The Dance: the wiki's record of it),
    whose schema asks only for objects: a proposal's patch that empties a change, cuts an item's pair or makes the
    Line a number leaves a record the page still draws, showing what it cannot read as it is (the page used to be
    left out of the wiki with an IndexError or a ValueError)."""
    text = pages.steps_markdown([
        {"dance": 1, "conductor": "Al", "order": ["Al"], "line": ["Al", "Bo"], "barrel": []},
        {"monkey": "Al", "move": "Swing 1 to 2", "complexity": 1, "result": "executed", "events": [], "line": 7},
        {"monkey": "Bo", "move": "Bow", "complexity": 2, "result": "executed", "events": []},
        {"summary": True, "monkeys": {"Al": {"bananas": [], "hat": ["Blue", "Red"]}}, "items": {"Big Rock": ["Al"]}},
    ])
    assert "**A step as recorded:** &#123;&quot;monkey&quot;: &quot;Al&quot;," in text
    assert "**1. Bo: Bow (complexity 2)**" in text  # the step shown as recorded is not counted as a move
    assert "| Al | &#91;&#93; |  |  | Blue &rarr; Red |  |" in text
    assert "Items: Big Rock &#91;&quot;Al&quot;&#93;." in text


def test_the_awesomeness_page_shows_each_posts_count_and_when_it_is_taken():
    """Seed 000, "Awesomeness": the result is fixed by the count at the end of the 48 hours (the ``tally`` the
    event writes). The page shows it for every post: when a pending post will be counted, the count once taken
    (FOR votes, Quorum, when) and what closing will make of it, and the result with the closing time."""
    from validators.cases import run

    state, registry = base_state("monkey-dance")
    voters = ["Alice", "Chidi", "Dana", "Emeka", "Fatima"]
    votes = [{"at": f"2026-11-02T1{i}:00:00Z", "actor": who, "action": "monkey.awesomeness-vote",
              "params": {"post": 1, "vote": "FOR"}} for i, who in enumerate(voters)]
    out = run(state, registry, [{"at": "2026-11-02T09:00:00Z", "actor": "Alice", "action": "monkey.awesomeness-post",
                                 "params": {"about": "Bruno"}}] + votes)
    assert out.verdict == "legal"
    page = pages.awesomeness_page(out.state)
    assert (f"| 1 | Alice | Bruno | {_t('2026-11-02T09:00:00Z', '2 Nov 2026 09:00 UTC')} | 5 | 0 | "
            f"to be counted at {_t('2026-11-04T09:00:00Z', '4 Nov 2026 09:00 UTC')} | pending: open to votes |") in page
    # After the 48 hours an action (Bruno's own post) lets the tally event count post 1: 5 FOR, Quorum 4.
    out = run(out.state, registry, [{"at": "2026-11-04T10:00:00Z", "actor": "Bruno",
                                     "action": "monkey.awesomeness-post", "params": {"about": "Alice"}}])
    assert out.verdict == "legal"
    assert out.state.doc("monkey_awesomeness")["posts"][0]["tally"] == {"at": "2026-11-04T09:00:00Z", "for": 5,
                                                                          "quorum": 4}
    page = pages.awesomeness_page(out.state)
    assert (f"| 5 FOR against Quorum 4, counted {_t('2026-11-04T09:00:00Z', '4 Nov 2026 09:00 UTC')} | "
            "counted; awaiting closing (it passes) |") in page
    assert (f"| 2 | Bruno | Alice | {_t('2026-11-04T10:00:00Z', '4 Nov 2026 10:00 UTC')} | 0 | 0 | "
            f"to be counted at {_t('2026-11-06T10:00:00Z', '6 Nov 2026 10:00 UTC')} |") in page
    out = run(out.state, registry, [{"at": "2026-11-04T11:00:00Z", "actor": "Chidi",
                                     "action": "monkey.awesomeness-close", "params": {"post": 1}}])
    page = pages.awesomeness_page(out.state)
    assert (f"| 5 FOR against Quorum 4, counted {_t('2026-11-04T09:00:00Z', '4 Nov 2026 09:00 UTC')} | "
            f"passed, closed {_t('2026-11-04T11:00:00Z', '4 Nov 2026 11:00 UTC')} |") in page
    assert "more FOR votes than Quorum" in page
    assert not RAW_STAMP.search(_shown(page))
    # A post closed with no tally (a patch dated it in the past) shows the count taken at closing.
    post = {"id": 9, "author": "Alice", "about": "Bruno", "submitted": "2026-10-01T00:00:00Z", "votes": {},
            "status": "failed", "closed": {"at": "2026-11-04T12:00:00Z", "for": 0, "quorum": 4}}
    assert pages._count_cell(post) == "0 FOR against Quorum 4, when closed"
    assert pages._result_cell(post, True) == f"failed, closed {_t('2026-11-04T12:00:00Z', '4 Nov 2026 12:00 UTC')}"


# ---------------------------------------------------------------- the module as a whole


def test_every_action_cites_a_rule_of_the_games_and_has_cases():
    from pathlib import Path

    from validators import yamlio
    from validators.games.monkey import MODULE

    fixture, _ = base_state("monkey-dance")
    example, _ = base_state("monkey")
    used = set()
    for path in (Path(__file__).parent / "cases" / "monkey").glob("*.yaml"):
        for case in yamlio.load_file(path)["cases"]:
            used.update(a["action"] for a in case["actions"])
    for action in MODULE.actions:
        assert action.rule in fixture.rules and action.rule in example.rules, action.name
        assert action.name in used, f"{action.name} has no case"
        assert action.summary


def test_invariants_catch_a_monkey_in_two_places():
    from validators.games.monkey import MODULE

    state, _ = base_state("monkey-dance")
    assert [p for inv in MODULE.invariants for p in inv(state)] == []
    state.doc("monkey_line")["barrel"].append({"name": "Alice"})
    state.doc("monkey_items")["items"][0]["lies_at"] = 3
    messages = [p.message for inv in MODULE.invariants for p in inv(state)]
    assert any("both in the Line and in the barrel" in m for m in messages)
    assert any("not both or neither" in m for m in messages)


def test_invariants_write_a_stat_s_value_as_the_roster_file_does():
    """Seed 000, Hammers and Hats: a hammer or hat not on its list is named as the roster writes it (null, "Teal"),
    not in Python's words (None, 'Teal')."""
    from validators.games.monkey import MODULE

    state, _ = base_state("monkey-dance")
    monkey = next(p for p in state.players() if not p.get("kind"))
    monkey["stats"]["hat"] = None
    monkey["stats"]["hammer"] = "Teal"
    messages = [p.message for inv in MODULE.invariants for p in inv(state)]
    assert f"{monkey['name']}'s hat null is not on the Hat List" in messages, messages
    assert f'{monkey["name"]}\'s hammer "Teal" is not on the hammer list' in messages, messages


def test_invariants_name_the_list_s_spelling_of_a_hammer_or_hat_in_another_case():
    """Seed 000, Hammers and Hats: a hand-edited roster that writes a listed hammer or hat in another case ("hot
    potato", "green") is reported, and told the list's spelling (a proposal's patch has it written so at once,
    ``line.spell_as_listed``); a name on no list gets no hint."""
    from validators.games.monkey import MODULE

    state, _ = base_state("monkey-dance")
    monkey = next(p for p in state.players() if not p.get("kind"))
    monkey["stats"]["hammer"] = "hot potato"
    monkey["stats"]["hat"] = "green"
    messages = [p.message for inv in MODULE.invariants for p in inv(state)]
    name = monkey["name"]
    assert (f'{name}\'s hammer "hot potato" is not on the hammer list; did you mean "Hot Potato"? (the list\'s '
            "spelling)") in messages, messages
    assert f'{name}\'s hat "green" is not on the Hat List; did you mean "Green"? (the list\'s spelling)' in messages
    monkey["stats"]["hat"] = "BARE"
    messages = [p.message for inv in MODULE.invariants for p in inv(state)]
    assert any('hat "BARE" is not on the Hat List; did you mean "Bare"?' in m for m in messages), messages


def test_invariants_report_an_item_lying_in_an_occupied_position():
    """Seed 000, "Items": an item nobody holds lies only in an empty position (a hand-edited state)."""
    from validators.games.monkey import MODULE

    state, _ = base_state("monkey-dance")
    fountain = next(i for i in state.doc("monkey_items")["items"] if i["name"] == "Banana Fountain")
    fountain["lies_at"] = 4
    found = [p for inv in MODULE.invariants for p in inv(state)]
    assert [(p.file, p.field) for p in found] == [("monkey_items", "items[4].lies_at")]
    assert "Bruno" in found[0].message and "empty position" in found[0].message


def test_squares_to_draw_skips_a_long_empty_stretch():
    assert pages.squares_to_draw([1, 2, 3], [5]) == [1, 2, 3, 4, 5, 6]
    drawn = pages.squares_to_draw([1, 2], [100000])
    assert len(drawn) < 50 and drawn[-2:] == [100000, 100001]


def test_a_far_swing_is_balanced_quickly_and_picks_up_items_on_the_way():
    import time

    w = world(A=1, B=2, C=3)
    w.items = [{"name": "Pebble", "size": "small", "lies_at": 500000},
               {"name": "Boulder", "size": "large", "lies_at": 700000}]
    start = time.perf_counter()
    w.relocate({"C": 999999})
    w.rebalance()
    assert time.perf_counter() - start < 1
    assert w.pos == {"A": 1, "B": 2, "C": 3}
    by = {i["name"]: i.get("held_by", i.get("lies_at")) for i in w.items}
    assert by == {"Pebble": "C", "Boulder": 700000}  # the small one is carried on, the large one stays


def test_check_replays_the_example_dances_to_the_banana(tmp_path):
    """`nomic check` re-runs every dance of content/monkey; one banana changed by hand is caught."""
    import shutil
    from pathlib import Path

    from validators.check import check_repo

    root = Path(__file__).resolve().parent.parent
    shutil.copytree(root / "content" / "monkey", tmp_path / "content" / "monkey")
    assert check_repo(tmp_path, only=["monkey"]).exit_code == 0
    roster = tmp_path / "content" / "monkey" / "gamestate" / "roster.yaml"
    text = roster.read_text()
    marker = "  - name: Jack\n"
    head, tail = text.split(marker, 1)
    tail = tail.replace("bananas: ", "bananas: 9", 1)  # Jack's bananas gain a leading 9
    roster.write_text(head + marker + tail)
    report = check_repo(tmp_path, only=["monkey"])
    assert report.exit_code == 1
    assert any("bananas" in p.text() for p in report.problems)


def _monkey_with(text: str):
    """The dance fixture with ``text`` wherever a player types: a Monkey's name (Alice), an item, a move, the
    barrel, the last dance's record, a dance's history, an Awesomeness post."""
    import json
    import re

    from validators.engine import State

    state, _ = base_state("monkey-dance")
    quoted = json.dumps(text)[1:-1]
    docs = json.loads(re.sub(r"\bAlice\b", lambda _: quoted, json.dumps(state.docs)))
    docs["monkey_items"]["items"][0]["name"] = f"{text} item"
    docs["monkey_items"]["items"].append({"name": f"{text} lying", "size": "small", "kind": "x", "lies_at": 12})
    dance = docs["monkey_dance"]
    dance["moves"][0]["description"] = text
    dance["sections"][0]["moves"] = [text]
    dance["sections"][0]["updated"] = text
    dance["history"] = [{"number": 1, "at": "2026-11-03T10:00:00Z", "by": text}]
    steps = [{"dance": 1, "conductor": text, "order": [text, "Bruno"], "line": [text, "Bruno"], "barrel": [text]},
             {"monkey": text, "move": text, "complexity": 1, "result": text, "events": [text, "plain"],
              "line": ["Bruno", text], "barrel": []},
             {"after": text, "events": [text]},
             {"summary": True, "monkeys": {text: {"bananas": [text, 4], "hat": ["Blue", text]}},
              "items": {text: [text, text]}}]
    dance["last_dance"] = {"number": 1, "by": text, "at": "2026-11-03T10:00:00Z", "steps": steps}
    docs["monkey_line"]["barrel"] = [{"name": f"{text} barrel", "since": text, "held_until": text}]
    docs["monkey_kit"]["hammers"][0]["name"] = text
    docs["monkey_awesomeness"]["posts"] = [{"id": 1, "author": text, "about": text, "submitted": text,
                                            "votes": {text: "FOR", "Bruno": "AGAINST"}, "status": text,
                                            "closed": {"at": text}},
                                           {"id": 2, "author": text, "about": text, "submitted": text,
                                            "votes": {}, "status": "pending",
                                            "tally": {"at": text, "for": text, "quorum": text}}]
    record = {"action": "monkey.dance", "actor": text, "at": "2026-11-03T10:00:00Z", "dice": [3, 1],
              "outcome": steps}
    return State(state.config, docs, state.rules), record


def test_a_hostile_name_is_inert_on_every_page():
    """Text a player typed, rendered as the wiki renders it: no link, no tag, no emphasis, no extra column."""
    from tests.wikimd import HOSTILE, PLAIN, assert_same_shape

    plain_state, plain_record = _monkey_with(PLAIN)
    hostile_state, hostile_record = _monkey_with(HOSTILE)
    plain = {p.slug: p.markdown for p in pages.pages(plain_state)}
    hostile = {p.slug: p.markdown for p in pages.pages(hostile_state)}
    assert set(hostile) == set(plain) == {"monkey-line", "dance", "last-dance", "awesomeness"}
    for slug, text in hostile.items():
        assert_same_shape(plain[slug], text, slug)
        assert "&lt;img src=x onerror=alert(1)&gt; &#91;x&#93;(javascript:alert(2)) &#42;y&#42;" in text, slug
    plain_page, hostile_page = pages.dance_action_page(plain_record), pages.dance_action_page(hostile_record)
    assert plain_page is not None and hostile_page is not None
    assert_same_shape(plain_page.markdown, hostile_page.markdown, "a dance's own page")


def test_a_patched_stay_end_that_cannot_be_read_is_refused_with_its_field():
    """Seed 000, "All Danced Out": a proposal whose patch writes a held_until that is no time cannot be enacted:
    the patch is checked against the Monkey Line's schema as it applies (``effects.apply_effects``), so the
    refusal names the field, and no rule of the Dance ever reads the broken time (no traceback)."""
    from validators.cases import patched, run

    state, registry = base_state("monkey-dance")
    proposal = {"id": 1, "title": "x", "author": "Alice", "submitted": "2026-11-01T00:00:00Z", "status": "pending",
                "effects": {"gamestate": [{"op": "replace", "path": "/monkey_line/barrel/name=Dana/held_until",
                                           "value": "soon"}]},
                "votes": {"Alice": "FOR", "Bruno": "FOR", "Chidi": "FOR", "Dana": "FOR"}}
    state = patched(state, registry, [
        {"op": "replace", "path": "/roster/players/name=Dana/stats/dance_moves", "value": 0},
        {"op": "add", "path": "/proposals/proposals/-", "value": proposal},
        {"op": "replace", "path": "/proposals/next", "value": 2}])
    out = run(state, registry, [
        {"at": "2026-11-02T15:00:00Z", "actor": "Bruno", "action": "monkey.dance", "dice": [1, 1, 1, 1, 1]},
        {"at": "2026-11-02T20:00:00Z", "actor": "Bruno", "action": "core.enact", "params": {"proposal": 1}}])
    assert out.verdict == "illegal"
    assert any("held_until" in p.message and "monkey_line invalid" in p.message for p in out.problems), \
        [p.text() for p in out.problems]


def test_invariants_report_a_move_whose_name_gives_its_effect_no_position():
    """Seed 000, "Doing the Dance": a move acts on the positions its n_ words name; a patch that leaves the name of
    an effect reading a position with no such word is reported on the move list, as the check shows it."""
    from validators.games.monkey import MODULE

    state, _ = base_state("monkey-dance")
    hat_trick = next(i for i, m in enumerate(state.doc("monkey_dance")["moves"]) if m["effect"] == "hat-trick")
    state.doc("monkey_dance")["moves"][hat_trick]["name"] = "Hat Trick"
    found = [p for inv in MODULE.invariants for p in inv(state)]
    assert [(p.file, p.field) for p in found] == [("monkey_dance", f"moves[{hat_trick}].name")]
    assert "acts on 1 position(s)" in found[0].message
    state.doc("monkey_dance")["moves"][hat_trick]["name"] = "Hat Trick n_Z"  # any word will do
    assert [p for inv in MODULE.invariants for p in inv(state)] == []
    assert moves.parse_entry("hat trick 3", state.doc("monkey_dance")["moves"]).args == {"n_A": 3}


def test_the_pages_call_the_monkeys_as_game_yaml_and_the_ruleset_now_do():
    """Seed 001 1.9 (the core of this game): an Ascension Address may replace any keywords, in game.yaml's
    ``player`` and ``players`` and in every rule, titles too. The pages' headings, columns and sentences write the
    new words, and name The Monkey Line as its rule is now titled; the example's words draw them as before."""
    import copy

    from validators.engine import State

    state, _ = base_state("monkey")
    state.doc("monkey_line")["barrel"] = [{"name": "Abu", "since": "2026-11-21T10:00:00Z"}]
    record = {"action": "monkey.dance", "actor": "Zira", "at": "2026-11-11T19:00:00Z", "dice": [3],
              "outcome": state.doc("monkey_dance")["last_dance"]["steps"]}
    before = {p.slug: p for p in pages.pages(state)}
    assert before["monkey-line"].title == "The Monkey Line"
    assert "| Position | Monkey | Hat |" in before["monkey-line"].markdown
    assert "| Monkey | In since |" in before["monkey-line"].markdown
    assert "Each Monkey's section of the Dance" in before["dance"].markdown
    assert "| Monkey | Dance Moves | Section |" in before["dance"].markdown
    assert "| Monkey | Bananas | Dance Moves |" in before["last-dance"].markdown
    assert ": Monkeys vote for 48 hours. When they end, the FOR votes of the active Monkeys" \
        in before["awesomeness"].markdown
    assert "| Monkey | Awesomeness |" in before["awesomeness"].markdown

    config = {**state.config, "keywords": {**state.config["keywords"], "player": "Pirate", "players": "Pirates"}}
    rules = {k: r.copy() for k, r in state.rules.items()}
    rules["the-monkey-line"].meta["title"] = "The Pirate Line"
    renamed = State(config, copy.deepcopy(state.docs), rules)
    drawn = {p.slug: p for p in pages.pages(renamed)}
    line = drawn["monkey-line"].markdown
    assert drawn["monkey-line"].title == "The Pirate Line" and 'aria-label="The Pirate Line"' in line
    assert "The Pirate Line, top (position 1) first. A hat shows each Pirate's hat" in line
    assert "marks an item a Pirate holds" in line
    assert "| Position | Pirate | Hat |" in line and "| Pirate | In since |" in line
    assert "Each Pirate's section of the Dance" in drawn["dance"].markdown
    assert "| Pirate | Dance Moves | Section |" in drawn["dance"].markdown
    assert "| Pirate | Bananas | Dance Moves |" in drawn["last-dance"].markdown
    awesome = drawn["awesomeness"].markdown
    assert ": Pirates vote for 48 hours. When they end, the FOR votes of the active Pirates" in awesome
    assert "gives its Pirate one Awesomeness" in awesome and "| Pirate | Awesomeness |" in awesome
    step = pages.dance_action_page(record, renamed)
    assert step is not None and "| Pirate | Bananas | Dance Moves |" in step.markdown
    # what the pages wrote themselves; "The Monkey Ball" (an item) and the moves' descriptions are the game's data
    from validators.games._markup import md

    described = [md(m.get("description", "")) for m in state.doc("monkey_dance")["moves"]]
    for text in [p.markdown for p in drawn.values()] + [step.markdown]:
        for d in described:
            text = text.replace(d, "")
        assert not re.search(r"\| Monkey \||Monkey's|Monkeys|a Monkey|The Monkey Line", text), text


def test_a_dance_that_changed_no_stats_says_so_in_the_games_word():
    step = {"summary": True, "monkeys": {}, "items": {}}
    assert "No Monkey's stats changed." in pages.steps_markdown([step])
    assert "No Ape's stats changed." in pages.steps_markdown([step], "Ape")


def test_the_tables_head_the_stats_columns_with_the_rosters_labels():
    """Seed 001 1.9: an Address replacing "any keywords" renames a roster label holding one ("Bananas" to
    "Doubloons"); the pages' tables, the last dance's and a dance's own page head the column as the roster does."""
    state, _ = base_state("monkey")
    before = {p.slug: p.markdown for p in pages.pages(state)}
    assert "| Position | Monkey | Hat | Hammer | Bananas | Dance Moves | Items |" in before["monkey-line"]
    assert "| Monkey | Awesomeness |" in before["awesomeness"]
    stats = state.doc("roster")["stats"]
    renamed = {"bananas": "Doubloons", "dance_moves": "Jigs", "hat": "Tricorn", "awesomeness": "Renown"}
    for key, label in renamed.items():
        stats[key]["label"] = label
    drawn = {p.slug: p.markdown for p in pages.pages(state)}
    assert "| Position | Monkey | Tricorn | Hammer | Doubloons | Jigs | Items |" in drawn["monkey-line"]
    assert "| Monkey | Jigs | Section | Complexity |" in drawn["dance"]
    assert "| Monkey | Doubloons | Jigs | Hammer | Tricorn | Status |" in drawn["last-dance"]
    assert "| Monkey | Renown |" in drawn["awesomeness"]
    record = {"action": "monkey.dance", "actor": "Zira", "at": "2026-11-11T19:00:00Z", "dice": [3],
              "outcome": state.doc("monkey_dance")["last_dance"]["steps"]}
    step = pages.dance_action_page(record, state)
    assert step is not None and "| Monkey | Doubloons | Jigs | Hammer | Tricorn | Status |" in step.markdown
    assert "| Monkey | Bananas | Dance Moves |" in pages.dance_action_page(record).markdown  # no state: the seed's
