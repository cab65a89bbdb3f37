"""Golden tests of the wiki's rendering functions: input YAML -> expected HTML fragment, no site build.

Each tests/golden/wiki/<case>.yaml names a renderer and its input; the expected
output is <case>.html beside it. To accept a deliberate change of output:
``UPDATE_GOLDEN=1 .venv/bin/pytest tests/test_wiki_golden.py`` and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable

import pytest

from site_plugins.changes import text_diff
from site_plugins.home import Summary, render_games_table
from site_plugins.links import Links, player_slugs
from site_plugins.players import render_player, render_roster
from site_plugins.proposals import render_proposals
from site_plugins.ruleset import render_ruleset
from site_plugins.svg import stat_chart
from validators.engine import Rule, State
from validators.timeutil import parse_time
from validators.yamlio import load as load_yaml

GOLDEN = Path(__file__).parent / "golden" / "wiki"


def state_from(case: dict[str, Any]) -> State:
    config = case.get("config") or {"name": "Test", "modules": ["blognomic"],
                                      "keywords": {"player": "Player", "players": "Players"}}
    docs = {"ledger": {"clock": case.get("clock", "2026-11-05T09:00:00Z")}, **(case.get("docs") or {})}
    docs.setdefault("roster", {"stats": {}, "players": []})
    rules = {}
    for r in case.get("rules") or []:
        meta = {k: v for k, v in r.items() if k != "body"}
        rules[meta["id"]] = Rule(meta["id"], meta, r.get("body", ""))
    return State(config, docs, rules)


def links_for(state: State, here: str, case: dict[str, Any]) -> Links:
    names = [p["name"] for p in state.docs["roster"]["players"]]
    return Links("test", here, player_slugs(names), True, case.get("repo_url", ""), "main")


def _ruleset(case: dict[str, Any]) -> str:
    state = state_from(case)
    paths = {rid: f"content/test/ruleset/{rid}.md" for rid in state.rules}
    return render_ruleset(state, links_for(state, "games/test/ruleset.md", case), paths, title="Ruleset")


def _roster(case: dict[str, Any]) -> str:
    state = state_from(case)
    return render_roster(state, links_for(state, "games/test/roster.md", case), case.get("leader"),
                         case.get("seen") or {})


def _player(case: dict[str, Any]) -> str:
    state = state_from(case)
    series = {name: {stat: [(parse_time(t), v) for t, v in points] for stat, points in stats.items()}
              for name, stats in (case.get("series") or {}).items()}
    return render_player(state, case["name"], links_for(state, "games/test/players/x.md", case), series, (),
                         leader=case.get("leader"), clock=parse_time(case.get("clock", "2026-11-05T09:00:00Z")),
                         votes=[tuple(v) for v in case.get("votes") or []])


def _proposals(case: dict[str, Any]) -> str:
    state = state_from(case)
    return render_proposals(state, links_for(state, "games/test/proposals.md", case), parse_time(case["now"]))


def _diff(case: dict[str, Any]) -> str:
    return text_diff(case["old"], case["new"]) + "\n"


def _chart(case: dict[str, Any]) -> str:
    points = [(parse_time(t), v) for t, v in case["points"]]
    return stat_chart(points, case["label"], end=parse_time(case["end"]) if case.get("end") else None) + "\n"


def _games(case: dict[str, Any]) -> str:
    return render_games_table([Summary(**s) for s in case["games"]]) + "\n"


RENDERERS: dict[str, Callable[[dict[str, Any]], str]] = {
    "ruleset": _ruleset, "roster": _roster, "player": _player, "proposals": _proposals, "diff": _diff,
    "chart": _chart, "games": _games,
}

CASES = sorted(GOLDEN.glob("*.yaml"))


def test_there_are_golden_cases_for_every_renderer() -> None:
    used = {load_yaml(p.read_text(encoding="utf-8"), p.name)["render"] for p in CASES}
    assert used == set(RENDERERS), f"renderers without a golden case: {set(RENDERERS) - used}"


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_golden(path: Path) -> None:
    case = load_yaml(path.read_text(encoding="utf-8"), path.name)
    got = RENDERERS[case["render"]](case)
    expected_path = path.with_suffix(".html")
    if os.environ.get("UPDATE_GOLDEN") or not expected_path.exists():
        expected_path.write_text(got, encoding="utf-8")
        if not os.environ.get("UPDATE_GOLDEN"):
            pytest.fail(f"wrote the missing golden file {expected_path.name}; review it and run again")
    assert got == expected_path.read_text(encoding="utf-8")
    for needle in case.get("must_not_contain") or []:
        assert needle not in got, f"{needle!r} must not appear in the output"
    for needle in case.get("must_contain") or []:
        assert needle in got, f"{needle!r} must appear in the output"
