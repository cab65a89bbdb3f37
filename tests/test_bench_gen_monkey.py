"""The Monkey benchmark generator makes a game that ``nomic check`` accepts (quick: a small history).

No timings here: the figures are in BENCHMARKS.md and come from ``python -m bench.run``.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from bench.gen import generate as generate_module
from bench.gen_monkey import generate
from validators.check import check_repo
from validators.content import WorkTree, load_game
from validators.games.monkey.moves import parse_entry, total_complexity
from validators.timeutil import parse_time

NOW = parse_time("2026-11-22T00:00:00Z")


def _kinds(folder: Path) -> Counter[str]:
    return Counter(f.name.split("--")[2].removesuffix(".yaml") for f in (folder / "actions").glob("*.yaml"))


def test_generated_monkey_game_replays_green(tmp_path: Path) -> None:
    folder = generate(tmp_path, game="big", players=50, actions=350, seed=3)
    assert len(list((folder / "actions").glob("*.yaml"))) == 350
    report = check_repo(tmp_path, now=NOW, only=["big"])
    assert report.exit_code == 0, [p.text() for p in report.problems][:5]
    assert report.notes == ["big: 350 actions replayed from initial/"]

    files = load_game(WorkTree(tmp_path), "big")
    state = files.state
    assert state.config["modules"] == ["blognomic", "monkey"]
    players = state.players()
    monkeys = [p for p in players if not p.get("kind")]
    assert [p["name"] for p in monkeys] == [f"P{i:03d}" for i in range(50)]
    assert all(p.get("account") for p in monkeys)
    declared = set(state.doc("roster")["stats"])
    assert len(declared) >= 6 and all(set(p["stats"]) == declared for p in players)
    assert len({p["stats"]["hammer"] for p in monkeys}) > 5 and len({p["stats"]["bananas"] for p in monkeys}) > 5

    # the large documents, at the requested scale: every Monkey and NPC in the Line or the barrel, a section each
    line = state.doc("monkey_line")
    placed = [m for pos in line["positions"] for m in pos["monkeys"]] + [b["name"] for b in line["barrel"]]
    assert sorted(placed) == sorted(p["name"] for p in players)
    sections = state.doc("monkey_dance")["sections"]
    assert sorted(s["monkey"] for s in sections) == [p["name"] for p in monkeys]
    assert sum(bool(s["moves"]) for s in sections) > 40
    assert len(state.doc("monkey_items")["items"]) >= 40

    kinds = _kinds(folder)
    assert {"monkey.update-section", "monkey.change-hammer", "monkey.use-item", "monkey.dance", "monkey.move-up",
            "monkey.awesomeness-post", "monkey.awesomeness-vote", "core.propose", "core.vote"} <= set(kinds)
    assert kinds.get("engine.tick", 0) <= 350 * 0.05
    assert state.doc("monkey_dance")["history"], "at least one dance was conducted"


def test_full_scale_founding_state_is_valid(tmp_path: Path) -> None:
    """A hundred Monkeys, the four NPCs and every section, through the real check (a short history)."""
    folder = generate_module(tmp_path, module="monkey", game="big", players=100, actions=40, seed=5)
    report = check_repo(tmp_path, now=NOW, only=["big"])
    assert report.exit_code == 0, [p.text() for p in report.problems][:5]
    initial = load_game(WorkTree(tmp_path), "big", part="initial/").state
    assert len([p for p in initial.players() if not p.get("kind")]) == 100
    line = initial.doc("monkey_line")
    assert sum(len(pos["monkeys"]) for pos in line["positions"]) + len(line["barrel"]) == 104
    dance = initial.doc("monkey_dance")
    assert len(dance["sections"]) == 100
    stats = {p["name"]: p["stats"] for p in initial.players()}
    for s in dance["sections"]:  # every founding section fits its Monkey's Dance Moves
        entries = [parse_entry(t, dance["moves"]) for t in s["moves"]]
        assert total_complexity(entries) <= stats[s["monkey"]]["dance_moves"]
    assert len(list((folder / "actions").glob("*.yaml"))) == 40


def test_a_tampered_generated_monkey_game_is_refused(tmp_path: Path) -> None:
    """The generated files are what the replay gives: change one value and the check says so."""
    folder = generate(tmp_path, game="big", players=40, actions=150, seed=4)
    roster = folder / "gamestate" / "roster.yaml"
    text = roster.read_text(encoding="utf-8")
    marker = "  - name: P001\n"
    assert marker in text
    head, _, rest = text.partition(marker)
    before, sep, after = rest.partition("      bananas: ")
    value, nl, tail = after.partition("\n")
    roster.write_text(head + marker + before + sep + str(int(value) + 7) + nl + tail, encoding="utf-8")
    report = check_repo(tmp_path, now=NOW, only=["big"])
    assert report.exit_code != 0
    assert any("bananas" in p.text() or "P001" in p.text() for p in report.problems), \
        [p.text() for p in report.problems][:5]
