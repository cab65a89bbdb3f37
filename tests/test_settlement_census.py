"""Settlement's rules after every action read everyone's facts from ``census.look``, which reads again only
the players an action replaced (validators/games/settlement/census.py). A generated game replays to the
very same states, outcomes and dice with the look switched off, and with its self-check switched on;
every Settlement case passes with the self-check on; each fact is read as the rules read it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bench.gen_settlement import generate
from tests.replays import replay_generated
from validators.games.settlement import census
from validators.timeutil import parse_time

NOW = parse_time("2026-11-22T00:00:00Z")
ROWS = ("..~..", ".....", "#####")  # Water at 0c and the Walls of row 2 are Occupied
OCC = frozenset("~#")


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("settlement")
    generate(root, game="big", players=40, actions=400, seed=11, size=80)
    return root


def test_the_look_changes_no_outcome(game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = replay_generated(game)
    monkeypatch.setattr(census, "FAST", False)  # the rules as written, after every action
    slow = replay_generated(game)
    assert fast[1] == slow[1]
    assert fast[0] == slow[0]


def test_the_look_checks_itself_and_reads_few_players(game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every look compared with everyone read afresh; and most looks read only a player or two."""
    calls = []
    real = census.facts

    def counted(*args: Any) -> int:
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(census, "facts", counted)
    monkeypatch.setattr(census, "VERIFY", False)  # the first replay without the self-check, whatever NOMIC_VERIFY_COW
    fast = replay_generated(game)
    read = len(calls)
    monkeypatch.setattr(census, "VERIFY", True)
    assert replay_generated(game) == fast
    everyone = len(calls) - read  # with VERIFY, each look also reads all 40 players afresh
    assert 0 < read < everyone / 4, (read, everyone)


@pytest.mark.parametrize("suite, case", [p for p in __import__("tests.test_cases", fromlist=["_collect"])._collect()
                                         if p.values[0]["game"].startswith("settlement")])
def test_every_settlement_case_with_the_self_check(suite: dict[str, Any], case: dict[str, Any],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.test_cases import test_case

    monkeypatch.setattr(census, "VERIFY", True)
    test_case(suite, case)


def _p(name: str = "Ann", **kw: Any) -> dict[str, Any]:
    stats = {"location": "1b", "hunger": 0, "deaths": 0, "job": "Peasant", **kw.pop("stats", {})}
    return {"name": name, "stats": stats, **kw}


@pytest.mark.parametrize("player, expected", [
    (_p(), census.BEING | census.COLONIST | census.DEATHLESS),
    (_p("Lena"), 0),  # the Expedition Leader
    (_p(idle=True), 0),
    (_p(kind="npc", stats={"hunger": "lots"}), 0),  # not read at all
    (_p(kind="outsider"), census.BEING),
    (_p(kind="outsider", stats={"location": "0c", "hunger": 9}), census.BEING | census.OCCUPIED | census.STARVING),
    (_p(stats={"location": ""}), census.BEING | census.COLONIST | census.NEWCOMER | census.DEATHLESS),
    (_p(kind="outsider", stats={"location": ""}), census.BEING),  # an Outsider is no newcomer
    (_p(stats={"location": "2a"}), census.BEING | census.COLONIST | census.OCCUPIED | census.DEATHLESS),
    (_p(stats={"location": "9a"}), census.BEING | census.COLONIST | census.DEATHLESS),  # off the map
    (_p(stats={"location": "1z"}), census.BEING | census.COLONIST | census.DEATHLESS),  # off the row
    (_p(stats={"location": "nowhere"}), census.BEING | census.COLONIST | census.DEATHLESS),
    (_p(stats={"hunger": 7}), census.BEING | census.COLONIST | census.STARVING | census.DEATHLESS),
    (_p(stats={"job": "Traitor"}), census.BEING | census.COLONIST | census.TRAITOR),
    (_p(stats={"deaths": 2}), census.BEING | census.COLONIST),
    (_p(stats={"hunger": "lots"}), census.UNSURE),  # as the rules would read it, it cannot be a number
    (_p(stats={"location": ["1b"]}), census.UNSURE),
    (_p(stats={"deaths": "x"}), census.UNSURE),
    (_p(stats={"deaths": "x", "job": "Traitor"}), census.BEING | census.COLONIST | census.TRAITOR),  # not read
    ({"name": "Ann"}, census.UNSURE),  # no stats
])
def test_a_players_facts_are_read_as_the_rules_read_them(player: dict[str, Any], expected: int) -> None:
    assert census.facts(player, "Lena", ROWS, OCC, 7) == expected


def test_a_look_reads_again_whoever_stands_in_a_changed_row_and_everyone_after_other_changes() -> None:
    from validators.cases import base_state, patched
    from validators.engine import Action, Ctx

    state, registry = base_state("settlement-basic")

    def look(st: Any) -> Any:
        record = {"at": "2026-11-03T10:00:00Z", "actor": "", "action": "test.look", "params": {}}
        return census.look(Ctx(st, Action(name="test.look", rule="", summary=""), record, NOW, registry))

    def given(*ops: tuple[str, Any]) -> Any:
        return patched(state, registry, [{"op": "replace", "path": path, "value": v} for path, v in ops])

    seen = look(state)
    assert seen[census.COLONIST] and seen[census.DEATHLESS]
    assert not (seen[census.OCCUPIED] or seen[census.NEWCOMER] or seen[census.STARVING] or seen[census.TRAITOR])
    flooded = given(("/map/rows/7", "..~............."))  # Water under Ann (7c); no player changed
    assert flooded.docs["roster"] is state.docs["roster"]
    assert look(flooded)[census.OCCUPIED]
    assert not look(state)[census.OCCUPIED]  # and back
    assert look(given(("/dynasty/leader", "Ann")))[census.NEWCOMER]  # Lena, without a location, is a Colonist now
    assert look(given(("/handbook/hunger/dies_at", 0)))[census.STARVING]
    assert look(given(("/roster/players/name=Ben/stats/job", "Traitor")))[census.TRAITOR]
    assert not look(state)[census.TRAITOR]


def test_a_look_never_trusts_a_transactions_own_copy_of_a_player() -> None:
    """A player the transaction copied may change again before the next look (a death resets a Colonist):
    the look reads such a copy every time."""
    from validators.cases import base_state
    from validators.engine import Action, Ctx

    state, registry = base_state("settlement-basic")
    record = {"at": "2026-11-03T10:00:00Z", "actor": "", "action": "test.look", "params": {}}
    ctx = Ctx(state, Action(name="test.look", rule="", summary=""), record, NOW, registry)
    ann = ctx.edit_player("Ann")
    assert not census.look(ctx)[census.STARVING]
    ann["stats"]["hunger"] = 7  # the same copy, changed in place
    assert census.look(ctx)[census.STARVING]
    ann["stats"]["hunger"] = 0
    assert not census.look(ctx)[census.STARVING]
