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


def test_a_fixpoint_holds_only_for_the_ruleset_it_was_reached_under() -> None:
    """A state the consequences left alone while seed 002 Rule 68 was repealed (a tax haven keeping its toll) is no
    fixpoint once the rule is in force: the same documents under the other ruleset are looked at afresh, and the
    toll ceases at the next action."""
    from validators.cases import base_state, lookup, patched, run

    state, registry = base_state("ifmud-core")
    toll = [{"op": "add", "path": "/map/rooms/name=Under the High Wall (on a resting)/toll",
             "value": {"name": "Wall Fee", "value": 5}}]
    repealed = patched(state, registry, toll + [{"op": "replace", "path": "/rules/r68/meta/status",
                                                 "value": "repealed"}])
    tick = [{"at": "2026-11-01T01:00:00Z", "actor": "Adam Biltcliffe", "action": "engine.tick"}]
    first = run(repealed, registry, tick)
    path = "/map/rooms/name=Under the High Wall (on a resting)/toll/name"
    assert lookup(first.state, first.applied, path) == "Wall Fee"  # repealed: the toll stays
    in_force = type(first.state)(first.state.config, first.state.docs, state.rules)  # the same documents, Rule 68 back
    second = run(in_force, registry, [{**tick[0], "at": "2026-11-01T02:00:00Z"}])
    with pytest.raises(KeyError):
        lookup(second.state, second.applied, path)
