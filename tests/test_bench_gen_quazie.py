"""The Quazie benchmark generator makes a game that ``nomic check`` accepts (quick: a small history).

No timings here: the figures come from ``python -m bench.gen --module quazie`` and ``nomic check``.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import yaml

from bench.gen_quazie import WEEKS, generate
from validators.check import check_repo
from validators.content import WorkTree, load_game
from validators.timeutil import parse_time

NOW = parse_time("2026-11-22T00:00:00Z")
EXAMPLE_STATS = {"stuff", "position", "flavour", "tag", "dance_move", "roles", "notes"}


def _load(path: Path) -> object:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _initial_scale(folder: Path, players: int, weeks: int) -> None:
    """The large documents of the initial state are there at the requested scale."""
    items = _load(folder / "initial" / "gamestate" / "quazie_items.yaml")
    assert len(items["old_items"]) == weeks
    assert all(len(i["values"]) == players for i in items["old_items"])
    roster = _load(folder / "initial" / "gamestate" / "roster.yaml")
    assert all(len(p["stats"]["notes"]) >= weeks for p in roster["players"])
    q = _load(folder / "initial" / "gamestate" / "quazie.yaml")
    assert len(q["concerto_used"]) == players and len(q["tag_days"]) >= 4 * weeks - 2
    assert len(q["landings"]) >= players // 2


def test_generated_quazie_game_replays_green(tmp_path: Path) -> None:
    weeks = 8
    folder = generate(tmp_path, game="big", players=50, actions=400, seed=3, weeks=weeks)
    actions = sorted((folder / "actions").glob("*.yaml"))
    assert len(actions) == 400
    report = check_repo(tmp_path, now=NOW, only=["big"])
    assert report.exit_code == 0, [p.text() for p in report.problems][:5]
    assert report.notes == ["big: 400 actions replayed from initial/"]

    files = load_game(WorkTree(tmp_path), "big")
    assert files.state.config["modules"] == ["blognomic", "quazie"]
    players = files.state.players()
    assert len(players) == 50 and players[0]["name"] == "P000" and all(p.get("account") for p in players)
    declared = set(files.state.doc("roster")["stats"])
    assert declared == EXAMPLE_STATS and all(set(p["stats"]) == declared for p in players)
    assert len({p["stats"]["stuff"] for p in players}) > 10
    assert len({p["stats"]["position"] for p in players}) >= 5
    assert len({p["stats"]["flavour"] for p in players}) >= 5
    _initial_scale(folder, 50, weeks)

    kinds = Counter(f.name.split("--")[2].removesuffix(".yaml") for f in actions)
    assert {"core.propose", "core.vote", "core.enact", "quazie.dance-off", "quazie.flavour"} <= set(kinds)
    assert len([k for k in kinds if k.startswith("quazie.")]) >= 12, kinds
    assert kinds["engine.tick"] <= 20
    assert max(kinds.values()) < 250  # a mix, not one action over and over


def test_full_scale_initial_state_is_valid(tmp_path: Path) -> None:
    """The default scale (100 Muffins, WEEKS weeks of Items and notes), with no history: schemas and invariants."""
    folder = generate(tmp_path, game="big", players=100, actions=0, seed=1)
    report = check_repo(tmp_path, now=NOW, only=["big"])
    assert report.exit_code == 0, [p.text() for p in report.problems][:5]
    _initial_scale(folder, 100, WEEKS)


def test_the_quazie_generator_is_deterministic(tmp_path: Path) -> None:
    a = generate(tmp_path / "a", players=30, actions=120, seed=5, weeks=4)
    b = generate(tmp_path / "b", players=30, actions=120, seed=5, weeks=4)
    names = sorted(p.name for p in (a / "actions").glob("*.yaml"))
    assert names == sorted(p.name for p in (b / "actions").glob("*.yaml"))
    for rel in ("gamestate/roster.yaml", "gamestate/quazie.yaml", f"actions/{names[-1]}"):
        assert (a / rel).read_text(encoding="utf-8") == (b / rel).read_text(encoding="utf-8")


def test_a_tampered_generated_quazie_game_is_refused(tmp_path: Path) -> None:
    """The generated files are what the replay gives: change one value and the check says so."""
    folder = generate(tmp_path, game="big", players=40, actions=200, seed=4, weeks=4)
    assert check_repo(tmp_path, now=NOW, only=["big"]).exit_code == 0
    roster = folder / "gamestate" / "roster.yaml"
    text = roster.read_text(encoding="utf-8")
    start = text.index("  - name: P001\n")
    at = text.index("      stuff: ", start)
    end = text.index("\n", at)
    value = int(text[at + len("      stuff: "):end])
    roster.write_text(text[:at] + f"      stuff: {value + 1 if value < 200 else 199}" + text[end:], encoding="utf-8")
    report = check_repo(tmp_path, now=NOW, only=["big"])
    assert report.exit_code != 0
    assert any("roster" in p.text() for p in report.problems)
