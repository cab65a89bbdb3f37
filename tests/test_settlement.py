"""Pure functions of the Settlement module: designations, rooms, dance configurations, costs."""

from __future__ import annotations

import pytest

from validators.games.settlement import configs
from validators.games.settlement.common import indoor_cost
from validators.games.settlement.grid import (
    SettlementMap,
    column_letters,
    column_number,
    designate,
    from_picture,
    parse,
)

LEGEND = {
    ".": {"name": "Dirt", "state": "empty"},
    "#": {"name": "Wall", "state": "occupied", "barrier": True},
    "+": {"name": "Door", "state": "empty", "barrier": True},
    "R": {"name": "Rock", "state": "occupied", "barrier": True},
    "~": {"name": "Water", "state": "occupied"},
    "T": {"name": "Large Tree", "state": "neither"},
}


def smap(picture: str, **options: str) -> SettlementMap:
    return SettlementMap({"rows": from_picture(picture), "legend": LEGEND}, options)


def indoor_picture(m: SettlementMap) -> str:
    """The map redrawn: I for Indoors, o for Outside (barriers kept), to compare with an expected drawing."""
    out = []
    for r, row in enumerate(m.rows):
        line = ""
        for c, ch in enumerate(row):
            if m.indoors((r, c)):
                line += "I"
            elif ch in "#R":
                line += ch
            else:
                line += "o"
        out.append(line)
    return "\n".join(out)


# ---------------------------------------------------------------- designations

@pytest.mark.parametrize("col, letters", [(0, "a"), (25, "z"), (26, "aa"), (27, "ab"), (39, "an"), (51, "az"),
                                          (52, "ba")])
def test_column_letters_round_trip(col, letters):
    assert column_letters(col) == letters
    assert column_number(letters) == col


def test_designations():
    assert parse("13a") == (13, 0)
    assert parse("0an") == (0, 39)
    assert designate((13, 0)) == "13a"
    assert designate((50, 27)) == "50ab"
    with pytest.raises(ValueError):
        parse("a13")


# ---------------------------------------------------------------- rooms: at least ten maps

ROOM_MAPS = [
    ("closed box", """
        .......
        .#####.
        .#...#.
        .#####.
        .......""", {}, """
        ooooooo
        o#####o
        o#III#o
        o#####o
        ooooooo"""),
    ("gap in the wall", """
        .......
        .##.##.
        .#...#.
        .#####.""", {}, """
        ooooooo
        o##o##o
        o#ooo#o
        o#####o"""),
    ("door counts as a room of its own side", """
        .......
        .#####.
        .#...+.
        .#####.""", {}, """
        ooooooo
        o#####o
        o#IIIIo
        o#####o"""),
    ("door between two rooms", """
        .........
        .#######.
        .#..+..#.
        .#######.""", {}, """
        ooooooooo
        o#######o
        o#IIIII#o
        o#######o"""),
    ("edge is no wall", """
        #####
        #....
        #####""", {}, """
        #####
        #oooo
        #####"""),
    ("pocket in rock", """
        .....
        RRRRR
        R.~.R
        RRRRR""", {}, """
        ooooo
        RRRRR
        RIIIR
        RRRRR"""),
    ("diagonal corner closes (orthogonal)", """
        .....
        ..#..
        .#.#.
        ..#..
        .....""", {}, """
        ooooo
        oo#oo
        o#I#o
        oo#oo
        ooooo"""),
    ("diagonal corner leaks (king)", """
        .....
        ..#..
        .#.#.
        ..#..
        .....""", {"room_connectivity": "king"}, """
        ooooo
        oo#oo
        o#o#o
        oo#oo
        ooooo"""),
    ("nested rooms merge", """
        .........
        .#######.
        .#.....#.
        .#.###.#.
        .#.#.#.#.
        .#.###.#.
        .#.....#.
        .#######.""", {}, """
        ooooooooo
        o#######o
        o#IIIII#o
        o#I###I#o
        o#I#I#I#o
        o#I###I#o
        o#IIIII#o
        o#######o"""),
    ("two rooms side by side", """
        ..........
        .###.####.
        .#.#.#..#.
        .###.####.""", {}, """
        oooooooooo
        o###o####o
        o#I#o#II#o
        o###o####o"""),
    ("a tree inside is part of the room", """
        ......
        .####.
        .#T.#.
        .####.""", {}, """
        oooooo
        o####o
        o#II#o
        o####o"""),
]


@pytest.mark.parametrize("name, picture, options, expected", ROOM_MAPS, ids=[m[0] for m in ROOM_MAPS])
def test_rooms_from_ascii_maps(name, picture, options, expected):
    m = smap(picture, **options)
    want = "\n".join(from_picture(expected))
    # doors appear as I when in a room, o when not
    assert indoor_picture(m) == want


def test_nested_rooms_are_one_room_when_merged_and_two_when_separate():
    picture = """
        .........
        .#######.
        .#.....#.
        .#.###.#.
        .#.#.#.#.
        .#.###.#.
        .#.....#.
        .#######."""
    merged = smap(picture)
    assert len(merged.rooms()) == 1
    assert (4, 4) in merged.rooms()[0] and (2, 2) in merged.rooms()[0]
    separate = smap(picture, nested_rooms="separate")
    assert len(separate.rooms()) == 2
    assert [len(r) for r in sorted(separate.rooms(), key=len)] == [1, 16]


def test_door_is_in_both_rooms():
    m = smap("""
        .........
        .#######.
        .#..+..#.
        .#######.""")
    assert len(m.rooms_of((2, 4))) == 2
    assert len(m.rooms_of((2, 2))) == 1


# ---------------------------------------------------------------- the indoor discount's rounding

@pytest.mark.parametrize("base, result, reduction", [(4, 3, 3), (5, 4, 4), (6, 5, 4), (8, 6, 6), (10, 8, 7),
                                                    (16, 12, 12), (1, 1, 1), (2, 2, 1), (12, 9, 9)])
def test_indoor_cost(base, result, reduction):
    assert indoor_cost(base, "result") == result
    assert indoor_cost(base, "reduction") == reduction


# ---------------------------------------------------------------- dance configurations

def locs(*names: str):
    return [parse(n) for n in names]


def test_square_lattice():
    assert configs.square(locs("2a", "2c", "4a", "4c")) is None
    assert configs.square(locs("2a", "2c", "2e", "4a", "4c", "4e")) is None
    assert configs.square(locs("2a", "4a", "2c", "4c")) is None
    assert configs.square(locs("2a", "2c", "3a", "3c")) is not None  # lines adjacent, no gap
    assert configs.square(locs("2a", "2b", "4a", "4b")) is not None  # no gap within a line
    assert configs.square(locs("2a", "2c", "4a")) is not None  # odd


def test_hokey_kokey_points():
    assert configs.hokey_kokey(locs("0c", "2a", "2e", "4c")) is None  # a diamond on a circle
    assert configs.hokey_kokey(locs("0a", "0b", "0c", "0d")) is not None  # a straight line
    assert configs.hokey_kokey(locs("0a", "0c", "2a", "2c")) is None  # a square's corners
    assert configs.hokey_kokey(locs("0a", "0c", "2a", "3c")) is not None


def test_hokey_kokey_squares_is_more_lenient():
    assert configs.hokey_kokey(locs("0a", "0c", "2a", "3c"), "squares") is None
    assert configs.hokey_kokey(locs("0a", "0b", "0c", "0d"), "squares") is None


def test_conga_chain():
    assert configs.conga(locs("0a", "0b", "1b", "1c")) is None
    assert configs.conga(locs("0a", "0b", "1c", "1d")) is not None


def test_waltz_pairs_near_each_other():
    m = smap(".........\n.........\n.........")
    pairs = [(parse("0a"), parse("0b")), (parse("0d"), parse("0e")), (parse("2g"), parse("2h"))]
    assert configs.waltz(pairs, m.adjacent) is None
    far = [(parse("0a"), parse("0b")), (parse("0d"), parse("0e")), (parse("0m"), parse("0n"))]
    assert configs.waltz(far, smap("." * 20).adjacent) is not None


# ---------------------------------------------------------------- who may file an Outsider's action

def _ctx(actor: str, ops=()):
    from validators.cases import base_state, patched
    from validators.engine import Ctx
    from validators.timeutil import parse_time

    state, registry = base_state("settlement-basic")
    state = patched(state, registry, list(ops))
    action = registry.actions["settlement.move"]
    return Ctx(state, action, {"actor": actor, "action": action.name}, parse_time("2026-11-03T10:00:00Z"), registry)


MOOSE = {"op": "add", "path": "/roster/players/-",
         "value": {"name": "Moose 1", "kind": "outsider", "joined": "2026-11-02T00:00:00Z",
                   "stats": {"location": "0a", "energy": 50, "stress": 0, "hunger": 2, "deaths": 0, "job": "Peasant"}}}


def test_the_leader_files_for_an_outsider_and_nobody_else_does():
    from validators.games.settlement.common import outsider_filer

    action = "settlement.move"
    assert _ctx("Moose 1", [MOOSE]).registry.actions[action].may_file is outsider_filer
    assert outsider_filer(_ctx("Moose 1", [MOOSE]), "Lena")
    assert not outsider_filer(_ctx("Moose 1", [MOOSE]), "Ann")
    assert not outsider_filer(_ctx("Ben"), "Lena")  # a Colonist acts for themselves
    assert outsider_filer(_ctx("Moose 7"), "Lena")  # created earlier in the same pull request
    assert not outsider_filer(_ctx("Mooses"), "Lena")


# ---------------------------------------------------------------- invariants of a whole state

def _problems(ops):
    from validators.cases import base_state, patched
    from validators.games.settlement import invariants

    state, registry = base_state("settlement-basic")
    return [p.message for p in invariants(patched(state, registry, ops))]


def test_the_fixture_state_is_sound():
    assert _problems([]) == []


@pytest.mark.parametrize("ops, expected", [
    ([{"op": "replace", "path": "/map/rows/0", "value": "..."}], "same length"),
    ([{"op": "replace", "path": "/map/rows/0", "value": "...............?"}], "which the legend does not explain"),
    ([{"op": "replace", "path": "/roster/players/name=Ann/stats/location", "value": "40a"}], "is not on the map"),
    ([{"op": "replace", "path": "/roster/players/name=Ann/stats/location", "value": "a7"}], "is not a location"),
    ([{"op": "replace", "path": "/stockpile/items/Wood", "value": -1}], "no negative amounts"),
    ([{"op": "replace", "path": "/config/options/settlement", "value": {"adjacency": "hex"}}], "not one of king"),
    ([{"op": "replace", "path": "/config/options/settlement", "value": {"colour": "red"}}], "unknown option"),
    # rule 2.2: Walls, Doors and Rock are Barriers, by the rule's list (the handbook's), not by the legend's say
    ([{"op": "replace", "path": "/map/legend/#/barrier", "value": False}], "marks Wall ('#') as no Barrier"),
    ([{"op": "remove", "path": "/map/legend/R/barrier"}], "marks Rock ('R') as no Barrier"),
    ([{"op": "add", "path": "/map/legend/./barrier", "value": True}], "marks Dirt ('.') as a Barrier"),
    ([{"op": "add", "path": "/handbook/barriers", "value": ["Wall", "Door", "Rock", "Bed"]}],
     "marks Bed ('B') as no Barrier"),
    # rule 2.5: so are the Constructions, by the handbook's constructions
    ([{"op": "remove", "path": "/map/legend/B/construction"}], "marks Bed ('B') as no Construction"),
    ([{"op": "add", "path": "/map/legend/~/construction", "value": True}], "marks Water ('~') as a Construction"),
    ([{"op": "remove", "path": "/handbook/constructions/Chimney"}], "marks Chimney ('H') as a Construction"),
    ([{"op": "add", "path": "/handbook/constructions/Fence",
       "value": {"energy": 6, "materials": [{"Wood": 1}], "on": "Dirt", "reach": "adjacent"}}],
     "the legend has no character for Fence"),
    # rule 2.6: a Job is one the rule lists (the handbook's jobs); only a hand edit leaves an unlisted one
    ([{"op": "replace", "path": "/roster/players/name=Ann/stats/job", "value": "Brewer"},
      {"op": "remove", "path": "/handbook/jobs/Brewer"}], "Ann's Job is Brewer, which rule 2.6 Jobs does not list"),
    # rule 2.6: the roster's Job column and the handbook list the same Jobs
    ([{"op": "remove", "path": "/handbook/jobs/Cook"}], "and the handbook's (Peasant"),
    ([{"op": "add", "path": "/roster/stats/job/choices/-", "value": "Knight"}], "struck from both"),
    # rules 2.8 and 2.9: the Hunger limit above a new Colonist's Hunger, from either side
    ([{"op": "replace", "path": "/handbook/hunger/dies_at", "value": 0}], "kills at 0 Hunger, and a new Colonist"),
    ([{"op": "replace", "path": "/roster/stats/hunger/default", "value": 9}], "kills at 7 Hunger, and a new"),
])
def test_invariants_find_broken_states(ops, expected):
    assert any(expected in m for m in _problems(ops)), _problems(ops)


_NOWHERE = {"name": "Moose 1", "kind": "outsider", "joined": "2026-11-03T10:00:00Z",
            "stats": {"location": "", "energy": 50, "stress": 0, "hunger": 2, "deaths": 0, "job": "Peasant"}}


def _repeal(rule):
    return {"op": "replace", "path": f"/rules/{rule}/meta/status", "value": "repealed"}


@pytest.mark.parametrize("rule, ops, expected", [
    # seed 001 2.2 The Settlement: its list of Barriers binds the legend only while the rule stands
    ("the-settlement", [{"op": "replace", "path": "/map/legend/#/barrier", "value": False}],
     "marks Wall ('#') as no Barrier"),
    # seed 001 2.5 Constructions: likewise its list of Constructions
    ("constructions", [{"op": "remove", "path": "/map/legend/B/construction"}], "marks Bed ('B') as no Construction"),
    # seed 001 G6 Numbers: no negative amounts
    ("numbers", [{"op": "replace", "path": "/stockpile/items/Wood", "value": -1}], "no negative amounts"),
    # seed 001 2.6 Jobs: a held Job is a listed one, and the roster's column and the handbook list the same Jobs
    ("jobs", [{"op": "replace", "path": "/roster/players/name=Ann/stats/job", "value": "Brewer"},
              {"op": "remove", "path": "/handbook/jobs/Brewer"}], "which rule 2.6 Jobs does not list"),
    ("jobs", [{"op": "add", "path": "/roster/stats/job/choices/-", "value": "Knight"}], "struck from both"),
    # seed 001 2.11 Outsiders: no Outsider changes its Job, so none is a Traitor
    ("outsiders", [{"op": "add", "path": "/roster/players/-",
                    "value": {"name": "Moose 1", "kind": "outsider", "joined": "2026-11-03T10:00:00Z",
                              "stats": {"location": "0a", "energy": 50, "stress": 0, "hunger": 2, "deaths": 0,
                                        "job": "Traitor"}}}], "may not be a Traitor"),
    # seed 001 2.9 Hunger with 2.8 Death: a limit at a new Colonist's Hunger would kill whoever dies again, for ever;
    # with either rule repealed nobody dies at the limit, or nothing follows a death
    ("hunger", [{"op": "replace", "path": "/handbook/hunger/dies_at", "value": 0}], "kills at 0 Hunger"),
    ("death", [{"op": "replace", "path": "/handbook/hunger/dies_at", "value": 0}], "kills at 0 Hunger"),
    # seed 001 2.11 Outsiders (placed when created) with 2.2 The Settlement (a Colonist's Location): an Outsider
    # stands somewhere; with either repealed it may stand nowhere
    ("outsiders", [{"op": "add", "path": "/roster/players/-", "value": _NOWHERE}], "an Outsider with no Location"),
    ("the-settlement", [{"op": "add", "path": "/roster/players/-", "value": _NOWHERE}],
     "an Outsider with no Location"),
    # seed 001 2.11 Outsiders: nor is one any other Job than it was created with
    ("outsiders", [{"op": "add", "path": "/roster/players/-",
                    "value": {**_NOWHERE, "stats": {**_NOWHERE["stats"], "location": "0a", "job": "Dancer"}}}],
     "may not be a Dancer"),
])
def test_a_repealed_rule_no_longer_checks_the_state(rule, ops, expected):
    """What each invariant checks for its rule (the case above finds it with the rule in force) is no longer
    checked once a proposal has repealed that rule (seed 001 1.1; engine.repealed); the other checks stand."""
    assert any(expected in m for m in _problems(ops)), _problems(ops)
    assert not any(expected in m for m in _problems([_repeal(rule), *ops])), _problems([_repeal(rule), *ops])
    # the map's shape is no rule's to repeal: it is checked whatever is repealed
    shape = [{"op": "replace", "path": "/map/rows/0", "value": "..."}]
    assert any("same length" in m for m in _problems([_repeal(rule), *ops, *shape]))


_MOOSE = {"name": "Moose 1", "kind": "outsider", "joined": "2026-11-03T10:00:00Z",
          "stats": {"location": "0a", "energy": 50, "stress": 0, "hunger": 2, "deaths": 0, "job": "Traitor"}}


def test_an_outsider_traitor_is_reported_naming_it():
    """Seed 001, 2.11 Outsiders: an Outsider may not change its Job, so none is a Traitor; a roster that says so
    (as a proposal's patch could write it) breaks the invariant, which names the Outsider and the rule."""
    from validators.cases import base_state, patched
    from validators.games.settlement import invariants

    state, registry = base_state("settlement-basic")
    found = [p for p in invariants(patched(state, registry, [{"op": "add", "path": "/roster/players/-",
                                                                "value": _MOOSE}]))]
    assert [(p.message, p.file, p.rule) for p in found] == [
        ("Moose 1 is an Outsider and may not be a Traitor (Outsiders may not change their Job)", "roster",
         "outsiders")]
    assert found[0].field == f"players[{len(state.doc('roster')['players'])}].stats.job"


def test_an_outsider_made_traitor_by_a_proposal_cannot_be_enacted_and_a_colonist_may_be():
    """Rule 2.11: make-traitor refuses an Outsider, and a proposal's patch that writes the Job leaves a state the
    game's check refuses, so its effects cannot be applied (seed 001 1.5): the enactment is refused, naming the
    Outsider and the rule, and the admin may fail it. A Colonist, Ann, made a Traitor alone is enacted: 2.6 Jobs
    allows Traitors."""
    from validators.cases import base_state, run
    from validators.games.settlement import invariants

    state, registry = base_state("settlement-basic")
    moose = {"op": "replace", "path": "/roster/players/name=Moose 1/stats/job", "value": "Traitor"}
    ann = {"op": "replace", "path": "/roster/players/name=Ann/stats/job", "value": "Traitor"}
    setup = [{"at": "2026-11-03T10:00:00Z", "actor": "Lena", "action": "settlement.create-outsider",
              "params": {"type": "Moose", "at": "0a"}}]

    def enact(patch):
        return run(state, registry, [
            *setup,
            {"at": "2026-11-03T10:05:00Z", "actor": "Ben", "action": "core.propose",
             "params": {"title": "The Moose turns", "effects": {"gamestate": patch}}},
            {"at": "2026-11-03T11:00:00Z", "actor": "Cat", "action": "core.vote",
             "params": {"proposal": 1, "vote": "FOR"}},
            {"at": "2026-11-05T10:05:00Z", "actor": "Ann", "action": "core.enact", "params": {"proposal": 1}},
        ])

    out = enact([moose, ann])
    assert out.verdict == "illegal"
    assert [p.message for p in out.problems] == [
        "proposal 1's effects cannot be applied: they would leave roster invalid: players[9].stats.job: Moose 1 is an "
        "Outsider and may not be a Traitor (Outsiders may not change their Job); an admin may fail it instead"]
    out = enact([ann])
    assert out.verdict == "legal", [p.text() for p in out.problems]
    assert out.state.player("Ann")["stats"]["job"] == "Traitor"
    assert [p.message for p in invariants(out.state)] == []


def test_a_changed_list_of_barriers_with_its_legend_is_sound():
    """Rule 2.2 changed by a proposal: the handbook's list and the legend's flags agree, so nothing is wrong."""
    assert _problems([{"op": "add", "path": "/handbook/barriers", "value": ["Door", "Rock"]},
                      {"op": "replace", "path": "/map/legend/#/barrier", "value": False}]) == []


def test_a_changed_list_of_constructions_with_its_legend_is_sound():
    """Rule 2.5 changed by a proposal: a Chimney no longer a Construction, in the list and the legend alike."""
    assert _problems([{"op": "remove", "path": "/handbook/constructions/Chimney"},
                      {"op": "remove", "path": "/map/legend/H/construction"}]) == []


def test_a_legend_against_rule_2_2_is_reported_with_its_line_and_field(tmp_path):
    """``nomic check`` names the map file, the line of the legend entry and the field."""
    import shutil
    from pathlib import Path

    from validators.content import WorkTree, load_game
    from validators.judge import invariants

    root = Path(__file__).parent / "fixtures"
    shutil.copytree(root / "content" / "settlement-basic", tmp_path / "content" / "settlement-basic")
    path = tmp_path / "content" / "settlement-basic" / "gamestate" / "map.yaml"
    text = path.read_text()
    path.write_text(text.replace("'#': {name: Wall, state: occupied, barrier: true",
                                 "'#': {name: Wall, state: occupied, barrier: false"))
    files = load_game(WorkTree(tmp_path), "settlement-basic")
    found = [p for p in invariants(files) if "Barrier" in p.message]
    assert len(found) == 1, [p.text() for p in found]
    line = next(i for i, t in enumerate(path.read_text().splitlines(), 1) if t.startswith("  '#'"))
    assert found[0].file.endswith("gamestate/map.yaml") and found[0].line == line
    assert found[0].field == "legend.#.barrier" and found[0].rule == "the-settlement"


# ---------------------------------------------------------------- every action has cases

def test_every_settlement_action_has_legal_and_illegal_cases():
    from pathlib import Path

    from validators import yamlio
    from validators.games.settlement import MODULE

    seen: dict[str, set[str]] = {}
    for path in (Path(__file__).parent / "cases" / "settlement").glob("*.yaml"):
        for case in yamlio.load_file(path)["cases"]:
            last = case["actions"][-1]["action"]
            seen.setdefault(last, set()).add(case.get("expect", "legal"))
    for action in MODULE.actions:
        assert "legal" in seen.get(action.name, set()), f"{action.name} has no legal case"
        assert "illegal" in seen.get(action.name, set()), f"{action.name} has no illegal case"


def test_every_rule_the_module_cites_is_in_the_example_ruleset():
    import re
    from pathlib import Path

    from validators.games.settlement import MODULE

    root = Path(__file__).resolve().parent.parent
    cited = {a.rule for a in MODULE.actions} | {e.rule for e in MODULE.events}
    for path in (root / "validators" / "games" / "settlement").glob("*.py"):
        cited |= set(re.findall(r'rule="([a-z0-9-]+)"', path.read_text()))
    cited |= {"stockpile"}
    for game in (root / "content" / "settlement", root / "tests" / "fixtures" / "content" / "settlement-basic"):
        have = {p.stem for p in (game / "ruleset").glob("*.md")}
        assert cited <= have, f"{game.name} lacks {sorted(cited - have)}"


def test_detect_finds_the_dances_on_the_map():
    from validators.games.settlement.configs import detect

    m = smap("." * 12 + "\n" + "." * 12 + "\n" + "." * 12)
    square = {"A": parse("0a"), "B": parse("0c"), "C": parse("2a"), "D": parse("2c")}
    kinds = {k for k, _ in detect(square, m.adjacent)}
    assert "square" in kinds and "hokey-kokey" in kinds  # a square's corners are on a circle too
    conga = {"A": parse("0a"), "B": parse("0b"), "C": parse("1b"), "D": parse("1c")}
    found = detect(conga, m.adjacent)
    assert ("conga", ["A", "B", "C", "D"]) in found
    assert not any(k == "square" for k, _ in found)
    waltz = {"A": parse("0a"), "B": parse("0b"), "C": parse("0d"), "D": parse("0e"), "E": parse("2a"),
             "F": parse("2b")}
    assert any(k == "waltz" and sorted(names) == list("ABCDEF") for k, names in detect(waltz, m.adjacent))
    alone = {"A": parse("0a"), "B": parse("2f")}
    assert detect(alone, m.adjacent) == []


# ------------------------------------------------------- rooms: the run-based computation against the plain one


def random_rows(rng, height: int, width: int, ragged: bool) -> list[str]:
    """Dirt with noise of every kind, and walled boxes (some with doors, some inside others, some at the edge)."""
    grid = [[rng.choice("......~T#R+") if rng.random() < 0.25 else "." for _ in range(width)] for _ in range(height)]
    boxes = []
    for _ in range(rng.randint(1, 6)):
        if boxes and rng.random() < 0.5:  # inside another box, when it has room for one
            t, lft, b, r_ = rng.choice(boxes)
            if b - t < 6 or r_ - lft < 6:
                continue
            top, left = rng.randint(t + 2, b - 4), rng.randint(lft + 2, r_ - 4)
            bottom, right = rng.randint(top + 2, b - 2), rng.randint(left + 2, r_ - 2)
        else:
            top, left = rng.randint(0, height - 3), rng.randint(0, width - 3)
            bottom, right = rng.randint(top + 2, height - 1), rng.randint(left + 2, width - 1)
        boxes.append((top, left, bottom, right))
        for r in range(top, bottom + 1):
            for c in range(left, right + 1):
                if r in (top, bottom) or c in (left, right):
                    grid[r][c] = "+" if rng.random() < 0.05 else ("R" if rng.random() < 0.1 else "#")
                elif rng.random() < 0.7:
                    grid[r][c] = "."
        if rng.random() < 0.2:  # a gap in the wall
            grid[top][rng.randint(left, right)] = "."
    rows = ["".join(row) for row in grid]
    if ragged:
        rows = [row[:rng.randint(max(1, width // 2), width)] for row in rows]
    return rows


@pytest.mark.parametrize("seed", range(200))
def test_rooms_match_the_cell_by_cell_reference(seed):
    import random

    from tests.settlement_rooms_reference import reference_rooms
    from validators.games.settlement.grid import KING, ORTHOGONAL

    rng = random.Random(seed)
    rows = random_rows(rng, rng.randint(3, 30), rng.randint(3, 30), ragged=seed % 3 == 0)
    legend = tuple(sorted((ch, bool(e.get("barrier")), e["name"] == "Door") for ch, e in LEGEND.items()))
    for connectivity in ("orthogonal", "king"):
        for adjacency in ("king", "orthogonal"):
            for nested in ("merge", "separate"):
                m = SettlementMap({"rows": rows, "legend": LEGEND},
                                  {"room_connectivity": connectivity, "adjacency": adjacency, "nested_rooms": nested})
                steps = KING if connectivity == "king" else ORTHOGONAL
                want = reference_rooms(tuple(rows), legend, steps, KING if adjacency == "king" else ORTHOGONAL, nested)
                assert m.rooms() == list(want), "\n".join(rows)


@pytest.mark.parametrize("seed", range(120))
def test_indoors_without_the_rooms_agrees_with_the_cell_by_cell_reference(seed):
    """``indoors`` answers a Location joined to the edge without computing the Rooms: on random maps
    (ragged ones, doors, gaps, rooms in rooms), in every reading, each answer is the reference's."""
    import random

    from tests.settlement_rooms_reference import reference_rooms
    from validators.games.settlement.grid import KING, ORTHOGONAL

    rng = random.Random(1000 + seed)
    rows = random_rows(rng, rng.randint(3, 24), rng.randint(3, 24), ragged=seed % 3 == 0)
    legend = tuple(sorted((ch, bool(e.get("barrier")), e["name"] == "Door") for ch, e in LEGEND.items()))
    plain_free = {ch for ch, e in LEGEND.items() if not e.get("barrier") and e["name"] != "Door"}
    for connectivity in ("orthogonal", "king"):
        for adjacency in ("king", "orthogonal"):
            for nested in ("merge", "separate"):
                options = {"room_connectivity": connectivity, "adjacency": adjacency, "nested_rooms": nested}
                want = reference_rooms(tuple(rows), legend, KING if connectivity == "king" else ORTHOGONAL,
                                       KING if adjacency == "king" else ORTHOGONAL, nested)
                indoor = set().union(*want)
                for r, row in enumerate(rows):
                    for c in range(len(row)):
                        fresh = SettlementMap({"rows": rows, "legend": LEGEND}, options)
                        # a plain Free Location is answered quickly exactly when it is Outside; others never
                        quick = fresh._reaches_edge((r, c))
                        assert quick == (row[c] in plain_free and (r, c) not in indoor), \
                            ((r, c), options, "\n".join(rows))
                        assert fresh.indoors((r, c)) == ((r, c) in indoor), ((r, c), options, "\n".join(rows))


def test_indoors_quick_answer_on_a_drawn_map():
    picture = """
        ........
        .####...
        .#..#.#.
        .####.#.
        ......#."""
    m = smap(picture)
    assert m._reaches_edge((0, 0)) and m._reaches_edge((2, 5))  # the open ground, and a nook open at the bottom
    assert not m._reaches_edge((2, 2))  # the room: the Rooms must answer
    assert not m._reaches_edge((1, 1))  # a wall is never answered quickly
    assert m.indoors((2, 2)) and not m.indoors((2, 5)) and not m.indoors((0, 0))
    assert not smap(picture).indoors((2, 5))
    # a ragged map: with king steps a corner off the map (above the run's end) is the edge
    ragged = ["###", "#..#", "####"]
    king = SettlementMap({"rows": ragged, "legend": LEGEND}, {"room_connectivity": "king"})
    orthogonal = SettlementMap({"rows": ragged, "legend": LEGEND}, {"room_connectivity": "orthogonal"})
    assert king._reaches_edge((1, 1)) and not king.indoors((1, 1))
    assert not orthogonal._reaches_edge((1, 1)) and orthogonal.indoors((1, 1))


def test_rooms_follow_barriers_and_doors_but_not_other_terrain():
    picture = """
        .......
        .#####.
        .#...#.
        .#...#.
        .#####.
        ......."""
    rows = from_picture(picture)
    m = smap(picture)
    assert [len(r) for r in m.rooms()] == [6]
    # a tree or water where there was dirt changes no room (the same rooms, from the cache of the wall pattern)
    treed = SettlementMap({"rows": rows[:2] + [".#T~.#."] + rows[3:], "legend": LEGEND}, {})
    assert treed.rooms() == m.rooms()
    # a wall across the room makes two rooms, a gap in the outer wall none, a door is in the room
    split = SettlementMap({"rows": rows[:2] + [".#.#.#."] + rows[3:], "legend": LEGEND}, {})
    assert [len(r) for r in split.rooms()] == [5]  # a wall in row 2 only: the room goes round it
    walled = SettlementMap({"rows": rows[:2] + [".#.#.#.", ".#.#.#."] + rows[4:], "legend": LEGEND}, {})
    assert sorted(len(r) for r in walled.rooms()) == [2, 2]
    opened = SettlementMap({"rows": [rows[0], ".##.##."] + rows[2:], "legend": LEGEND}, {})
    assert opened.rooms() == []
    door = SettlementMap({"rows": [rows[0], ".##+##."] + rows[2:], "legend": LEGEND}, {})
    assert [len(r) for r in door.rooms()] == [7] and (1, 3) in door.rooms()[0]


@pytest.mark.parametrize("seed", range(20))
def test_all_named_finds_every_location_of_a_terrain_in_reading_order(seed):
    import random

    rng = random.Random(seed)
    rows = random_rows(rng, rng.randint(3, 20), rng.randint(3, 20), ragged=seed % 2 == 0)
    legend = {**LEGEND, "w": {"name": "Water", "state": "occupied"}}  # two characters for one terrain
    rows = [row.replace("T", "w") if r % 2 else row for r, row in enumerate(rows)]
    rows[0], rows[1] = "w" + rows[0][1:], rows[1] + "~"
    m = SettlementMap({"rows": rows, "legend": legend}, {})
    for name in ("Water", "Wall", "Dirt", "Door", "Large Tree", "Moat"):
        assert m.all_named(name) == [loc for loc in m.locations() if m.terrain(loc).name == name]
    assert {(0, 0), (1, len(rows[1]) - 1)} <= set(m.all_named("Water")) and m.all_named("Moat") == []


def test_the_task_record_trusts_a_remembered_time_only_for_its_own_list():
    """log_task passes over a Colonist's list when the oldest time remembered for it is within eight
    days. What is remembered is found by the list's id, and an id is reused once its object is gone:
    a time kept for another object under the same id must not spare an old entry."""
    from datetime import datetime, timezone

    from validators.cases import base_state, patched, run
    from validators.games.settlement.common import _OLDEST

    state, registry = base_state("settlement-basic")
    state = patched(state, registry, [{"op": "add", "path": "/colony/performed",
                                       "value": {"Fay": [{"task": "fish", "at": "2026-10-01T00:00:00Z"}]}}])
    fays = state.docs["colony"]["performed"]["Fay"]
    _OLDEST._kept[id(fays)] = (object(), datetime(2100, 1, 1, tzinfo=timezone.utc))  # as if the id were reused
    try:
        out = run(state, registry, [{"at": "2026-11-03T10:00:00Z", "actor": "Hal", "action": "settlement.gather",
                                     "dice": [1]}])
    finally:
        _OLDEST._kept.clear()
    assert out.verdict == "legal", out.problems
    assert "Fay" not in out.state.docs["colony"]["performed"]
    assert out.state.docs["colony"]["performed"]["Hal"] == [{"task": "gather", "at": "2026-11-03T10:00:00Z"}]


# ---------------------------------------------------------------- a change of name (seed 001 1.2)

def test_a_module_without_a_rename_hook_stops_a_change_of_name(monkeypatch):
    """The engine refuses a change of name that would leave a module's document naming nobody (``unrenamable``);
    the Settlement module renames its colony records (``rename.py``), so without its hook the same change is
    refused, naming the record."""
    from validators.cases import base_state, patched, run
    from validators.games import settlement

    state, registry = base_state("settlement-basic")
    state = patched(state, registry, [
        {"op": "add", "path": "/config/options/blognomic/rename_by_player", "value": True},
        {"op": "add", "path": "/colony/rests", "value": {"Ann": ["2026-11-02T09:00:00Z"]}}])
    record = {"at": "2026-11-03T10:00:00Z", "actor": "Ann", "action": "core.rename", "params": {"name": "Anna"}}
    renamed = run(state, registry, [record])
    assert renamed.verdict == "legal"
    assert renamed.state.docs["colony"]["rests"] == {"Anna": ["2026-11-02T09:00:00Z"]}
    module = next(m for m in registry.modules if m.name == "settlement")
    assert module is settlement.MODULE
    monkeypatch.setattr(module, "rename", None)
    refused = run(state, registry, [record])
    assert refused.verdict == "illegal"
    assert "keeps 'Ann' in its colony document (rests.Ann) and has no way to rename it" in refused.problems[0].message


def test_a_repealed_movement_no_longer_keeps_a_miner_in_a_channel_in_the_list():
    """Seed 001, 2.3.1 Movement keeps one in a Channel to Channels, so ``nomic act --list`` says mining cannot be
    done from a Channel (the Mine task moves the miner into the Rock); once a proposal has repealed Movement that
    limit no longer holds, and the list no longer says so (the case in repealed-rules.yaml mines out of one)."""
    from datetime import datetime, timezone

    from validators.cases import base_state, patched
    from validators.engine import Ctx

    state, registry = base_state("settlement-basic")
    mine = next(a for m in registry.modules for a in m.actions if a.name == "settlement.mine")
    at = datetime(2026, 11, 3, 10, tzinfo=timezone.utc)
    channel = [{"op": "replace", "path": "/map/rows/8", "value": ".........-RRRRRR"}]

    def why_not(ops):
        s = patched(state, registry, ops)
        return list(mine.ready(Ctx(s, mine, {"actor": "Gus", "action": mine.name}, at, registry)))

    assert any("may only move along Channels" in str(w) for w in why_not(channel))
    assert why_not([_repeal("movement"), *channel]) == []
