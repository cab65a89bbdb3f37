"""The Cycle 12 benchmark generator makes a game that ``nomic check`` accepts (quick: a small map and history).

No timings here: the figures are in BENCHMARKS.md and come from ``python -m bench.run``.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import pytest

from bench.gen_cycle12 import HOME, TOWER, generate, initial_state
from validators import schemas
from validators.check import check_repo
from validators.content import WorkTree, load_game
from validators.games.cycle12 import MODULE
from validators.modules import registry_for
from validators.roster import check_roster
from validators.timeutil import parse_time

NOW = parse_time("2026-11-22T00:00:00Z")


def test_generated_game_replays_green(tmp_path: Path) -> None:
    folder = generate(tmp_path, game="big", players=50, actions=350, seed=3, locations=300)
    actions = sorted((folder / "actions").glob("*.yaml"))
    assert len(actions) == 350
    report = check_repo(tmp_path, now=NOW, only=["big"])
    assert report.exit_code == 0, [p.text() for p in report.problems][:5]
    assert report.notes == ["big: 350 actions replayed from initial/"]
    files = load_game(WorkTree(tmp_path), "big")
    players = files.state.players()
    assert [p["name"] for p in players] == [f"P{i:03d}" for i in range(50)]
    assert all(p.get("account") for p in players)
    declared = set(files.state.doc("roster")["stats"])
    assert declared and all(set(p["stats"]) == declared for p in players)
    assert len({p["stats"]["gooderhose"] for p in players}) > 10  # varied values
    sheets = files.state.doc("cycle12_sheets")["sheets"]
    assert sorted(s["player"] for s in sheets) == sorted(p["name"] for p in players)
    # the map at the requested scale, and more locations created in play
    initial = load_game(WorkTree(tmp_path), "big", part="initial/", registry=files.registry)
    assert len(initial.state.doc("cycle12_world")["locations"]) == 300
    assert len(files.state.doc("cycle12_world")["locations"]) > 300
    kinds = Counter(f.name.split("--")[2].removesuffix(".yaml") for f in actions)
    assert {"cycle12.move", "cycle12.vote", "cycle12.tame", "cycle12.propose", "cycle12.spawn", "cycle12.command",
            "cycle12.react", "cycle12.suggest-location", "cycle12.create-location"} <= set(kinds)
    assert len(kinds) >= 15
    assert kinds["engine.tick"] <= 0.05 * 350
    stamps = [f.name.split("--")[0] for f in actions]
    assert stamps[0] >= "20260601" and stamps[-1] < "20261019"  # within the cycle, days apart
    assert any(p["status"] == "took-effect" for p in files.state.doc("cycle12_proposals")["proposals"])


def test_full_scale_initial_state_is_valid() -> None:
    """The founding state at full scale (100 players, 1,000 locations) fits the schemas and the invariants."""
    state, _ = initial_state(100, random.Random(1), 1000)
    registry = registry_for(state.config["modules"])
    for kind, data in state.docs.items():
        schema = ({"roster": "roster.schema.json", "ledger": "ledger.schema.json"}.get(kind)
                  or registry.docs[kind].schema)
        assert schemas.errors(data, schema=schema, file=kind) == [], kind
    assert list(check_roster(state)) == []
    assert [p.message for inv in MODULE.invariants for p in inv(state)] == []
    locations = state.doc("cycle12_world")["locations"]
    assert len(locations) == 1000
    assert {(loc["x"], loc["y"]) for loc in locations if loc["name"] in (HOME, TOWER)} and \
        locations[0]["name"] == HOME and (locations[0]["x"], locations[0]["y"]) == (0, 0)
    assert len(state.players()) == 100
    assert len(state.doc("cycle12_nomsters")["nomsters"]) >= 250


def test_a_tampered_generated_game_is_refused(tmp_path: Path) -> None:
    """The generated files are what the replay gives: change one value and the check says so."""
    folder = generate(tmp_path, game="big", players=40, actions=150, seed=4, locations=120)
    nomsters = folder / "gamestate" / "cycle12_nomsters.yaml"
    text = nomsters.read_text(encoding="utf-8")
    index = re.search(r"^index: ([0-9]+)$", text, re.MULTILINE)
    assert index is not None
    nomsters.write_text(text.replace(index.group(0), f"index: {int(index.group(1)) + 1}", 1), encoding="utf-8")
    report = check_repo(tmp_path, now=NOW, only=["big"])
    assert report.exit_code != 0


@pytest.mark.parametrize(("players", "actions", "seed", "locations"), [(20, 2000, 5, 100), (8, 1200, 1, 40)])
def test_small_games_with_ascended_players_replay_green(tmp_path: Path, players: int, actions: int, seed: int,
                                                        locations: int) -> None:
    """On a small map players reach the Tower of Ferrets and ascend; the generator then gives them no action of the
    map (004 Ascend, our reading: they left the map), e.g. no trade offered to them before they ascended is accepted,
    and no reaction is asked of them when too few others are left on the map."""
    folder = generate(tmp_path, game="big", players=players, actions=actions, seed=seed, locations=locations)
    report = check_repo(tmp_path, now=NOW, only=["big"])
    assert report.exit_code == 0, [p.text() for p in report.problems][:5]
    sheets = load_game(WorkTree(tmp_path), "big").state.doc("cycle12_sheets")["sheets"]
    assert any(s["ascended"] for s in sheets)
    assert len(list((folder / "actions").glob("*.yaml"))) == actions
