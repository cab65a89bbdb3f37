"""The benchmark generator makes a game that ``nomic check`` accepts (quick: a small history).

No timings here: the figures are in BENCHMARKS.md and come from ``python -m bench.run``.
"""

from __future__ import annotations

from pathlib import Path

from bench.gen import generate
from validators.check import check_repo
from validators.content import WorkTree, load_game
from validators.timeutil import parse_time


def test_generated_game_replays_green(tmp_path: Path) -> None:
    folder = generate(tmp_path, game="big", players=60, actions=400, seed=3)
    actions = sorted((folder / "actions").glob("*.yaml"))
    assert len(actions) == 400
    report = check_repo(tmp_path, now=parse_time("2026-11-22T00:00:00Z"), only=["big"])
    assert report.exit_code == 0, [p.text() for p in report.problems][:5]
    assert report.notes == ["big: 400 actions replayed from initial/"]  # none saying the config was not audited
    files = load_game(WorkTree(tmp_path), "big")
    assert load_game(WorkTree(tmp_path), "big", part="initial/").config_path == "content/big/initial/game.yaml"
    players = files.state.players()
    assert len(players) == 60
    declared = set(files.state.doc("roster")["stats"])
    assert len(declared) >= 5 and all(set(p["stats"]) == declared for p in players)
    kinds = {f.name.split("--")[2] for f in actions}
    assert {"core.propose.yaml", "core.vote.yaml", "core.enact.yaml", "core.fail.yaml"} <= kinds
    proposals = files.state.doc("proposals")["proposals"]
    assert any(p["status"] == "enacted" and p.get("effects") for p in proposals)


def test_a_tampered_generated_game_is_refused(tmp_path: Path) -> None:
    """The generated files are what the replay gives: change one value and the check says so."""
    folder = generate(tmp_path, game="big", players=60, actions=200, seed=4)
    roster = folder / "gamestate" / "roster.yaml"
    text = roster.read_text(encoding="utf-8")
    assert "  - name: P001\n" in text
    roster.write_text(text.replace("name: P001\n", "name: P001\n    admin: true\n", 1)
                      .replace("    admin: false\n    idle: false\n    joined", "    idle: false\n    joined", 1),
                      encoding="utf-8")
    report = check_repo(tmp_path, now=parse_time("2026-11-22T00:00:00Z"), only=["big"])
    assert report.exit_code != 0
