"""Replaying a generated game from its ``initial/`` to the end, for tests that compare two ways of judging."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from validators.check import replay_log
from validators.content import WorkTree, load_game
from validators.timeutil import parse_time

NOW = parse_time("2026-11-22T00:00:00Z")


def replay_generated(root: Path, game: str = "big") -> tuple[dict[str, Any], list[Any]]:
    """The final documents, and each legal action's (path, outcome, dice); every action must be legal."""
    source = WorkTree(root)
    files = load_game(source, game)
    initial = load_game(source, game, part="initial/", registry=files.registry)
    timeline: list[Any] = []
    final, steps = replay_log(files, source, initial.state, files.actions, now=NOW, timeline=timeline)
    assert all(s.legal for s in steps), [p.text() for s in steps for p in s.problems][:3]
    return final.docs, [(path, applied.outcome, applied.dice) for path, _, _, applied in timeline]
