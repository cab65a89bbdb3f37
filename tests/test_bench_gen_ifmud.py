"""The ifMUD Nomic benchmark generator makes a game that ``nomic check`` accepts (quick: a small history
on a smaller map, and the full-size founding state with a few actions).

No timings here: the figures are in BENCHMARKS.md and come from ``python -m bench.run``.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from bench.gen_ifmud import ROOMS, action_kinds, generate
from validators.check import check_repo
from validators.content import WorkTree, load_game
from validators.timeutil import parse_time

NOW = parse_time("2026-11-22T00:00:00Z")


def test_generated_game_replays_green(tmp_path: Path) -> None:
    folder = generate(tmp_path, game="big", players=50, actions=400, seed=3, rooms=80)
    actions = sorted((folder / "actions").glob("*.yaml"))
    assert len(actions) == 400
    report = check_repo(tmp_path, now=NOW, only=["big"])
    assert report.exit_code == 0, [p.text() for p in report.problems][:5]
    assert report.notes == ["big: 400 actions replayed from initial/"]
    files = load_game(WorkTree(tmp_path), "big")
    state = files.state
    players = state.players()
    assert len(players) == 50
    declared = set(state.doc("roster")["stats"])
    assert declared == {"brownie", "demerits", "puissance", "location", "gifts"}
    assert all(set(p["stats"]) == declared for p in players)
    assert len({p["stats"]["brownie"] for p in players}) > 10  # varied, not the defaults
    assert len(state.doc("map")["rooms"]) == 80
    assert len(state.doc("entities")["servants"]) == 50
    kinds = Counter(action_kinds(folder))
    assert {"ifmud.move", "ifmud.end-turn", "ifmud.vote", "ifmud.propose", "ifmud.pick-up",
            "ifmud.move-servant"} <= set(kinds)
    assert len(kinds) >= 12
    assert kinds["engine.tick"] <= 0.05 * 400
    assert state.doc("turn")["number"] > 50 and not state.doc("turn").get("over")


def test_full_size_founding_state_is_valid(tmp_path: Path) -> None:
    """300 rooms and 100 players, valid against the schemas and the module's invariants, and playable."""
    folder = generate(tmp_path, game="big", actions=30, seed=5)
    report = check_repo(tmp_path, now=NOW, only=["big"])
    assert report.exit_code == 0, [p.text() for p in report.problems][:5]
    assert report.notes == ["big: 30 actions replayed from initial/"]
    initial = load_game(WorkTree(tmp_path), "big", part="initial/").state
    assert len(initial.doc("map")["rooms"]) == ROOMS == 300
    assert len(initial.doc("map")["connections"]) >= ROOMS
    assert len(initial.players()) == 100
    assert len(initial.doc("tokens")["tokens"]) >= 250
    assert (folder / "initial" / "gamestate" / "map.yaml").stat().st_size > 30_000


def test_a_tampered_generated_game_is_refused(tmp_path: Path) -> None:
    """The generated files are what the replay gives: change one value and the check says so."""
    folder = generate(tmp_path, game="big", players=40, actions=150, seed=4, rooms=60)
    roster = folder / "gamestate" / "roster.yaml"
    text = roster.read_text(encoding="utf-8")
    at = text.index("  - name: P001\n")
    brownie = text.index("      brownie: ", at)
    end = text.index("\n", brownie)
    value = int(text[brownie + len("      brownie: "):end])
    roster.write_text(text[:brownie] + f"      brownie: {value + 1}" + text[end:], encoding="utf-8")
    report = check_repo(tmp_path, now=NOW, only=["big"])
    assert report.exit_code != 0
    assert any("brownie" in p.text() for p in report.problems)
