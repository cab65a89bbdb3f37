"""ifMUD's consequences look only at what an action changed, when it started from a state they leave as it
is (validators/games/ifmud/changes.py). A generated game replays to the very same states and outcomes with
that shortcut switched off, and with its self-checks switched on (NOMIC_VERIFY_COW=1 does the latter for
every test; CI runs without it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.gen_ifmud import generate
from tests.replays import replay_generated
from validators.games.ifmud import changes


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("ifmud")
    generate(root, game="big", players=40, actions=400, seed=7, rooms=60)
    return root


def test_the_shortcut_changes_no_outcome(game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = replay_generated(game)
    monkeypatch.setattr(changes, "at_fixpoint", lambda ctx: False)  # every consequence looks at everything
    slow = replay_generated(game)
    assert fast[1] == slow[1]
    assert fast[0] == slow[0]


def test_the_shortcut_checks_itself(game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each consequence judged to have nothing to do is run all the same and must find nothing, and a
    pass in which none said it would write must leave the state as it was."""
    fast = replay_generated(game)
    monkeypatch.setattr(changes, "VERIFY", True)
    assert replay_generated(game) == fast
