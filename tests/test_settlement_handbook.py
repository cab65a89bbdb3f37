"""The Settlement handbook is data a proposal may change; every key the module reads is required by its schema.

A handbook without one (or with one of the wrong type, or a zero-sided die, or an empty list of results) is bad
input at load, reported at the handbook's line and field, not a KeyError when an action reads it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.gitgame import git, nomic
from validators import yamlio
from validators.content import WorkTree, load_game
from validators.problems import BadInput

GAME = "settlement-basic"
FIXTURE = Path(__file__).parent / "fixtures" / "content" / GAME
HANDBOOK = f"content/{GAME}/gamestate/handbook.yaml"

# every key the module's code reads (validators/games/settlement/, through ``handbook(...)``), as a path
REQUIRED = [
    *[(k,) for k in ("movement", "rest", "tunneling", "tasks", "constructions", "fill_channel", "jobs", "death",
                     "hunger", "dance", "outsiders", "outsider_limit")],
    ("movement", "energy"),
    ("rest", "base"), ("rest", "floor"), ("rest", "bed"),
    ("tunneling", "rows"),
    *[("tasks", t) for t in ("mine", "chop", "fish", "hunt", "dig", "gather", "plant", "harvest", "brew", "drink",
                             "cook", "eat", "catapult", "shove", "graze")],
    ("tasks", "mine", "energy"),
    ("tasks", "chop", "energy_per_wood"), ("tasks", "chop", "die"), ("tasks", "chop", "fells_on"),
    ("tasks", "fish", "energy"), ("tasks", "fish", "food"),
    ("tasks", "hunt", "energy"),
    ("tasks", "dig", "energy"),
    ("tasks", "gather", "energy"), ("tasks", "gather", "results"),
    ("tasks", "plant", "energy"), ("tasks", "plant", "seeds"), ("tasks", "plant", "water_within"),
    ("tasks", "harvest", "energy"), ("tasks", "harvest", "small"), ("tasks", "harvest", "mature"),
    ("tasks", "brew", "energy"), ("tasks", "brew", "small"), ("tasks", "brew", "mature"),
    ("tasks", "drink", "energy"), ("tasks", "drink", "stress"),
    ("tasks", "cook", "energy"), ("tasks", "cook", "food"), ("tasks", "cook", "meals"),
    *[("tasks", "eat", k) for k in ("energy", "food", "meals", "hunger", "table_hunger")],
    *[("tasks", "catapult", k) for k in ("min_energy", "range", "quiet_hours", "ammo")],
    ("tasks", "catapult", "ammo", "Rock", "amount"), ("tasks", "catapult", "ammo", "Rock", "die"),
    ("tasks", "shove", "min_energy"),
    ("tasks", "graze", "energy"),
    *[("constructions", "Wall", k) for k in ("energy", "materials", "on", "reach")],
    ("fill_channel", "energy"),
    ("jobs", "Peasant"), ("jobs", "Traitor"),
    ("jobs", "Miner", "rock"), ("jobs", "Miner", "deep_row"), ("jobs", "Miner", "ore"),
    ("jobs", "Brewer", "small"), ("jobs", "Brewer", "mature"),
    ("jobs", "Fisher", "tasks"), ("jobs", "Dancer", "dances"), ("jobs", "Cook", "tasks"),
    ("death", "stress"), ("death", "traitor_stress"),
    ("hunger", "weekly"), ("hunger", "starving"), ("hunger", "dies_at"),
    *[("dance", k) for k in ("hours", "per_week", "energy", "square_hours", "conga_moves", "hokey_hunger")],
]

# (path, bad value, the field reported, a part of the message)
WRONG = [
    (("tasks", "mine"), {}, "tasks.mine", "'energy' is a required property"),
    (("tasks", "chop", "die"), 0, "tasks.chop.die", "less than the minimum of 1"),
    (("tasks", "catapult", "ammo", "Anvil", "die"), 0, "tasks.catapult.ammo.Anvil.die", "less than the minimum"),
    (("tasks", "gather", "results"), [], "tasks.gather.results", "should be non-empty"),
    (("tasks", "gather", "results"), [{}], "tasks.gather.results[0]", "should be non-empty"),
    (("tasks", "catapult", "ammo"), {}, "tasks.catapult.ammo", "should be non-empty"),
    (("tasks", "catapult", "range"), [4], "tasks.catapult.range", "is too short"),
    (("tasks", "fish", "food"), "one", "tasks.fish.food", "is not a whole number"),
    (("tasks", "eat", "energy"), True, "tasks.eat.energy", "is not a whole number"),
    (("tasks", "mine", "energy"), -8, "tasks.mine.energy", "less than the minimum of 0"),
    (("tasks", "mine", "enrgy"), 8, "tasks.mine.enrgy", "unknown field 'enrgy'"),
    (("rest", "base"), -1, "rest.base", "less than the minimum of 0"),
    (("hunger", "dies_at"), "7", "hunger.dies_at", "is not a whole number"),
    (("dance", "hours"), 10 ** 12, "dance.hours", "greater than the maximum"),
    (("jobs", "Miner", "ore"), {"4": "Gold"}, "jobs.Miner.ore", "'4'"),
    (("jobs", "Knight"), {"times": 3}, "jobs.Knight", "'tasks', 'dances' or 'anyone' is required"),
    (("jobs", "Knight"), {"anyone": False}, "jobs.Knight.anyone", "True was expected"),
    (("jobs", "Fisher", "tasks"), [], "jobs.Fisher.tasks", "should be non-empty"),
    (("outsiders", "Moose", "graze"), {}, "outsiders.Moose.graze", "should be non-empty"),
    (("outsiders", "Moose", "death_food"), [15], "outsiders.Moose.death_food", "is not a whole number"),
    (("outsider_limit",), None, "outsider_limit", "is not a whole number"),
]


# what the schema cannot say, one amount against another (validators/games/settlement/limits.py, seed 001 2.4
# Tasks): (path, value, the field reported, a part of the message)
OUT_OF_ORDER = [
    # Chop wood: the tree falls on a 1 of DICE3; a face beyond the die's sides never comes up
    (("tasks", "chop", "fells_on"), 4, "tasks.chop.fells_on", "the tree falls on a 4, but the die (tasks.chop.die) "
                                                               "has 3 sides"),
    # Fire Catapult: between 4 and 8 squares; the nearest beyond the farthest leaves no square
    (("tasks", "catapult", "range"), [8, 4], "tasks.catapult.range", "the nearest target (8 squares) is farther "
                                                                      "than the farthest (4)"),
]

def _game(tmp_path: Path) -> Path:
    shutil.copytree(FIXTURE, tmp_path / "content" / GAME)
    return tmp_path / HANDBOOK


def _edit(path: Path, keys: tuple[str, ...], value: object = None, *, remove: bool = False) -> None:
    tree = yamlio.rt_load(path.read_text(), str(path))
    node = tree
    for k in keys[:-1]:
        node = node[k]
    if remove:
        assert keys[-1] in node, f"the fixture's handbook has no {'.'.join(keys)}"
        del node[keys[-1]]
    else:
        node[keys[-1]] = value
    path.write_text(yamlio.rt_dump(tree))


def _problems(tmp_path: Path) -> list:
    before = {p: p.read_bytes() for p in (tmp_path / "content").rglob("*") if p.is_file()}
    with pytest.raises(BadInput) as e:
        load_game(WorkTree(tmp_path), GAME)
    assert before == {p: p.read_bytes() for p in (tmp_path / "content").rglob("*") if p.is_file()}
    return e.value.problems


def test_the_fixture_and_the_game_handbooks_load(tmp_path):
    _game(tmp_path)
    load_game(WorkTree(tmp_path), GAME)
    root = Path(__file__).resolve().parent.parent
    for part in ("", "initial/"):
        load_game(WorkTree(root), "settlement", part=part)


@pytest.mark.parametrize("keys", REQUIRED, ids=".".join)
def test_a_handbook_without_a_key_the_module_reads_is_bad_input(tmp_path, keys):
    path = _game(tmp_path)
    _edit(path, keys, remove=True)
    problems = _problems(tmp_path)
    parent = ".".join(keys[:-1])
    found = [p for p in problems if p.file == HANDBOOK and p.field == parent and p.line > 0
             and (f"'{keys[-1]}' is a required property" in p.message
                  or (keys[-1] in ("tasks", "dances", "anyone") and "'anyone' is required" in p.message))]
    assert found, [p.text() for p in problems]


@pytest.mark.parametrize("keys, value, field, says", WRONG, ids=[f"{'.'.join(w[0])}={w[1]!r}" for w in WRONG])
def test_a_handbook_value_of_the_wrong_kind_is_bad_input(tmp_path, keys, value, field, says):
    path = _game(tmp_path)
    _edit(path, keys, value)
    problems = _problems(tmp_path)
    found = [p for p in problems if p.file == HANDBOOK and p.field == field and p.line > 0 and says in p.message]
    assert found, [p.text() for p in problems]


@pytest.mark.parametrize("old, bad, col, says", [
    # ``tasks: {mine: {}}`` once let ``nomic check`` pass and ``settlement.mine`` end in a KeyError
    ("  mine: {energy: 8}", "  mine: {}", 3, "tasks.mine: 'energy' is a required property"),
    # a range [8, 4] the schema accepts, out of order (limits.py, seed 001 2.4 Fire Catapult)
    ("    range: [4, 8]", "    range: [8, 4]", 5,
     "tasks.catapult.range: the nearest target (8 squares) is farther than the farthest (4)"),
])
def test_the_cli_names_the_handbook_line_and_field_without_a_traceback(tmp_path, old, bad, col, says):
    """A hand-edited handbook: ``nomic check`` and ``nomic act`` both say bad input (exit 2) at the field's line,
    with no traceback, and write nothing."""
    repo = tmp_path / "repo"
    path = _game(repo)
    path.write_text(path.read_text().replace(old + "\n", bad + "\n"))
    line = path.read_text().splitlines().index(bad) + 1
    _refused_as_bad_input(repo, ["settlement.mine", "rock=8k", "--as", "Gus"], f"{HANDBOOK}:{line}:{col}: {says}")


def _refused_as_bad_input(repo, act: list[str], says: str) -> None:
    """The hand-edited game in ``repo``, committed: ``nomic check`` and ``nomic act <act>`` both say bad input
    (exit 2) with ``says``, with no traceback, and write nothing."""
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    before = {p: p.read_bytes() for p in (repo / "content").rglob("*") if p.is_file()}
    for args in (["check", "--no-replay"], ["act", GAME, *act, "--at", "2026-11-03T10:00:00Z"]):
        r = nomic(repo, *args)
        assert r.returncode == 2, r.stdout + r.stderr
        assert "Traceback" not in r.stdout + r.stderr
        assert says in r.stdout + r.stderr, r.stdout + r.stderr
    assert before == {p: p.read_bytes() for p in (repo / "content").rglob("*") if p.is_file()}


def test_a_job_the_handbook_no_longer_lists_is_reported_at_the_roster_line(tmp_path):
    """Seed 001, 2.6 Jobs: a Job is one the rule lists. A proposal striking one makes its holders Peasants (cases in
    jobs.yaml); a hand edit of the handbook that strikes the Brewer while Ann is one is reported by ``nomic check``
    at Ann's Job in the roster, with the rule, and no traceback."""
    repo = tmp_path / "repo"
    path = _game(repo)
    path.write_text(path.read_text().replace("  Brewer: {tasks: [brew], times: 3, small: 15, mature: 20}\n", ""))
    roster = repo / f"content/{GAME}/gamestate/roster.yaml"
    text = roster.read_text()
    ann = "    stats: {location: '7c', energy: 50, stress: 0, hunger: 0, deaths: 0, job: Peasant}"
    assert ann in text
    roster.write_text(text.replace(ann, ann.replace("job: Peasant", "job: Brewer")))
    line = roster.read_text().splitlines().index(ann.replace("job: Peasant", "job: Brewer")) + 1
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    r = nomic(repo, "check", "--no-replay")
    assert r.returncode == 1, r.stdout + r.stderr
    assert "Traceback" not in r.stdout + r.stderr
    want = f"content/{GAME}/gamestate/roster.yaml:{line}:"
    found = [x for x in (r.stdout + r.stderr).splitlines() if x.startswith(want)]
    assert found and "players[1].stats.job: Ann's Job is Brewer, which rule 2.6 Jobs does not list" in found[0] \
        and "[rule: jobs]" in found[0], r.stdout + r.stderr


@pytest.mark.parametrize("keys, value, field, says", OUT_OF_ORDER,
                         ids=[f"{'.'.join(w[0])}={w[1]!r}" for w in OUT_OF_ORDER])
def test_a_handbook_with_a_pair_of_amounts_out_of_order_is_bad_input(tmp_path, keys, value, field, says):
    """Seed 001, 2.4 Tasks (Chop wood, Fire Catapult): each amount passes the schema alone, the pair cannot be
    met; the handbook is bad input at the field's line, as a schema error is."""
    path = _game(tmp_path)
    _edit(path, keys, value)
    problems = _problems(tmp_path)
    found = [p for p in problems if p.file == HANDBOOK and p.field == field and p.line > 0 and says in p.message
             and p.kind == "bad-input"]
    assert found, [p.text() for p in problems]


def test_the_face_may_be_the_die_s_last_side_and_no_further(tmp_path):
    """The limit is the die's sides: a DICE1 that fells on a 1, a DICE6 on a 6, and a range of one distance [5, 5]
    load; a DICE1 felling on a 2 does not (the message names the face field, the one a reader changes)."""
    path = _game(tmp_path)
    _edit(path, ("tasks", "chop", "die"), 1)
    _edit(path, ("tasks", "catapult", "range"), [5, 5])
    load_game(WorkTree(tmp_path), GAME)
    _edit(path, ("tasks", "chop"), {"energy_per_wood": 4, "die": 6, "fells_on": 6})
    load_game(WorkTree(tmp_path), GAME)
    _edit(path, ("tasks", "chop"), {"energy_per_wood": 4, "die": 1, "fells_on": 2})
    assert [(p.field, p.message.split(",")[0]) for p in _problems(tmp_path)] == [
        ("tasks.chop.fells_on", "the tree falls on a 2")]


MAP = f"content/{GAME}/gamestate/map.yaml"


@pytest.mark.parametrize("name", ["Dirt", "Rock", "Water", "Channel", "Smoke", "Seedling", "Small Crop",
                                  "Mature Crop", "Wall", "Door"])
def test_a_legend_without_a_terrain_a_rule_in_force_writes_is_reported(tmp_path, name):
    """Seed 001: the rules turn locations into these terrains (2.4 Tasks: Dirt, a Channel, Smoke, a Seedling;
    2.2.1 Locations: Water, the Crops; 2.2.2 Tunneling: Rock; 2.2 and 2.5: Walls and Doors). A map whose legend
    lacks one while a rule that writes it is in force is reported by the module's whole-state check at the legend
    (validators/games/settlement/limits.py, ``unwritable``), not a KeyError when somebody cooks, digs or plants; the
    check reads the ruleset, so a terrain whose every writing rule is repealed is not asked for (cases in
    the-settlement.yaml)."""
    from validators.games.settlement import invariants

    _game(tmp_path)
    path = tmp_path / MAP
    tree = yamlio.rt_load(path.read_text(), str(path))
    chars = [ch for ch, entry in tree["legend"].items() if entry["name"] == name]
    assert chars, f"the fixture's legend has no {name}"
    for ch in chars:
        del tree["legend"][ch]
    path.write_text(yamlio.rt_dump(tree))
    problems = list(invariants(load_game(WorkTree(tmp_path), GAME).state))
    found = [p for p in problems if p.file == "map" and p.field == "legend"
             and p.message.startswith(f"the legend has no {name}, which rule ")]
    assert found, [p.text() for p in problems]


def test_the_cli_names_a_legend_without_smoke_without_a_traceback(tmp_path):
    """A hand edit striking Smoke from the legend: ``nomic check`` reports it at the legend's line (2.4 Tasks'
    Cook Meal writes Smoke), and ``nomic act`` refuses a Cook Meal, which would have written Smoke, in words, with
    no traceback, writing nothing."""
    repo = tmp_path / "repo"
    _game(repo)
    path = repo / MAP
    smoke = "  '&': {name: Smoke, state: empty, colour: '#b0b0b0'}\n"
    assert smoke in path.read_text()
    path.write_text(path.read_text().replace(smoke, "").replace("  - '..#...#.........'\n",
                                                                   "  - '..#.S.#.........'\n", 1))
    line = path.read_text().splitlines().index("legend:") + 1
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    before = {p: p.read_bytes() for p in (repo / "content").rglob("*") if p.is_file()}
    r = nomic(repo, "check", "--no-replay")
    assert r.returncode == 1 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    assert f"{MAP}:{line}:1: legend: the legend has no Smoke, which rule 2.4 Tasks writes" in r.stdout, r.stdout
    r = nomic(repo, "act", GAME, "settlement.cook", "smoke=4f", "--as", "Cat", "--at", "2026-11-03T10:00:00Z")
    assert r.returncode != 0 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    assert "the map's legend has no Smoke for this action to write" in r.stdout + r.stderr, r.stdout + r.stderr
    assert before == {p: p.read_bytes() for p in (repo / "content").rglob("*") if p.is_file()}


@pytest.mark.parametrize("date, says", [
    ("'2026-02-31T00:00:00Z'", "victory_date: '2026-02-31T00:00:00Z' is not a time: day is out of range for month"),
    ("'2026-12-31'", "victory_date: '2026-12-31' is not a UTC time like 2026-11-22T10:15:00Z"),
])
def test_a_victory_date_that_is_not_a_time_is_named_without_a_traceback(tmp_path, date, says):
    """Seed 001, 2.12 Victory: the victory date (the seed's 5 May 2010) is the game's option
    ``options.settlement.victory_date``. One that is not a time was read by every action's look at Victory and ended
    ``nomic check`` and ``nomic act`` in a ValueError; the option is now reported at game.yaml's
    ``options.settlement.victory_date`` (the module's invariant), the date is never reached, and the Leader's
    Election for Mayor is refused saying why."""
    repo = tmp_path / "repo"
    _game(repo)
    game = repo / f"content/{GAME}/game.yaml"
    game.write_text(game.read_text().replace("  settlement: {}\n", f"  settlement: {{victory_date: {date}}}\n"))
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    r = nomic(repo, "act", GAME, "settlement.fish", "--as", "Eve", "--at", "2026-11-03T10:00:00Z")
    assert "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    r = nomic(repo, "act", GAME, "settlement.election", "--as", "Lena", "--at", "2026-11-04T10:00:00Z")
    assert r.returncode != 0 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    assert "is not a time, so it is never reached" in r.stdout + r.stderr, r.stdout + r.stderr
    r = nomic(repo, "check")
    out = r.stdout + r.stderr
    assert r.returncode == 1 and "Traceback" not in out, out
    assert f"content/{GAME}/game.yaml:" in out and f"options.settlement.{says}" in out, out
