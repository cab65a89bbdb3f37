"""The Settlement benchmark generator makes a game that ``nomic check`` accepts (quick: a small map and history).

No timings here: the full-size figures come from ``python -m bench.gen --module settlement``.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

from bench.gen_settlement import generate, initial_state
from validators import schemas
from validators.check import check_repo
from validators.content import WorkTree, load_game
from validators.engine import State
from validators.games.settlement.grid import SettlementMap
from validators.modules import registry_for
from validators.roster import check_roster
from validators.timeutil import parse_time

NOW = parse_time("2026-11-22T00:00:00Z")


def _state_problems(state: State) -> list[str]:
    """Every document against its schema, the roster's and the modules' invariants."""
    registry = registry_for(state.config["modules"])
    kinds = {"roster": "roster.schema.json", "ledger": "ledger.schema.json"}
    kinds.update({k: d.schema for k, d in registry.docs.items()})
    out = [f"{kind}: {p.text()}" for kind, data in state.docs.items()
           for p in schemas.errors(data, schema=kinds[kind])]
    out += [p.text() for p in check_roster(state)]
    out += [p.text() for m in registry.modules for inv in m.invariants for p in inv(state)]
    return out


def test_the_full_size_founding_state_is_valid() -> None:
    """100 players with every stat, a 200 by 200 map: valid against the schemas and the invariants."""
    state, _, _ = initial_state(100, random.Random(1), 200)
    assert _state_problems(state) == []
    rows = state.doc("map")["rows"]
    assert len(rows) == 200 and {len(r) for r in rows} == {200}
    declared = set(state.doc("roster")["stats"])
    players = state.players()
    assert len(players) == 100 and all(set(p["stats"]) == declared for p in players)
    assert len({p["stats"]["job"] for p in players}) >= 8
    assert len({p["stats"]["energy"] for p in players}) >= 30
    assert len(SettlementMap(state.doc("map"), state.config["options"]["settlement"]).rooms()) == 4


def test_generated_game_replays_green(tmp_path: Path) -> None:
    folder = generate(tmp_path, game="big", players=50, actions=350, seed=3, size=80)
    actions = sorted((folder / "actions").glob("*.yaml"))
    assert len(actions) == 350
    report = check_repo(tmp_path, now=NOW, only=["big"])
    assert report.exit_code == 0, [p.text() for p in report.problems][:5]
    assert report.notes == ["big: 350 actions replayed from initial/"]
    files = load_game(WorkTree(tmp_path), "big")
    colonists = [p for p in files.state.players() if not p.get("kind")]
    assert len(colonists) == 50
    declared = set(files.state.doc("roster")["stats"])
    assert len(declared) == 6 and all(set(p["stats"]) == declared for p in files.state.players())
    rows = files.state.doc("map")["rows"]
    assert len(rows) >= 80 and {len(r) for r in rows} == {80}
    initial = load_game(WorkTree(tmp_path), "big", part="initial/", registry=files.registry)
    assert len(initial.state.doc("map")["rows"]) == 80
    kinds = Counter(f.name.split("--")[2].removesuffix(".yaml") for f in actions)
    assert kinds["engine.tick"] <= 350 * 5 // 100
    assert {"settlement.move", "settlement.mine", "settlement.fish", "settlement.gather", "settlement.eat",
            "settlement.rest", "settlement.hunger", "core.propose", "core.vote"} <= set(kinds)
    assert len(kinds) >= 15


def test_a_tampered_generated_game_is_refused(tmp_path: Path) -> None:
    """The generated files are what the replay gives: change one value and the check says so."""
    folder = generate(tmp_path, game="big", players=40, actions=120, seed=4, size=80)
    stockpile = folder / "gamestate" / "stockpile.yaml"
    text = stockpile.read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if x.startswith("  Wood: "))
    stockpile.write_text(text.replace(line, f"  Wood: {int(line.split(': ')[1]) + 1}"), encoding="utf-8")
    report = check_repo(tmp_path, now=NOW, only=["big"])
    assert report.exit_code != 0
    assert any("Wood" in p.text() for p in report.problems)
