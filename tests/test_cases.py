"""Every rule case under tests/cases/ (see validators/cases.py for the format)."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from validators import yamlio
from validators.cases import base_state, lookup, patched, run

CASES = Path(__file__).parent / "cases"


def _collect():
    for path in sorted(CASES.rglob("*.yaml")):
        data = yamlio.load_file(path)
        for i, case in enumerate(data.get("cases", [])):
            ident = f"{path.relative_to(CASES).as_posix()}::{case.get('name', i)}"
            yield pytest.param(data, case, id=ident)


_BASES: dict = {}


def _base(game: str, part: str):
    if (game, part) not in _BASES:
        _BASES[(game, part)] = base_state(game, part)
    return _BASES[(game, part)]


@pytest.mark.parametrize("suite, case", list(_collect()))
def test_case(suite, case):
    assert suite.get("rule") or case.get("rule"), "every case file names the rule it exercises"
    assert case.get("says"), "every case says what the rule says that it checks"
    game = case.get("game", suite["game"])
    part = case.get("part", suite.get("part", ""))
    state, registry = _base(game, part)
    state = patched(state, registry, case.get("given", []))
    records = case["actions"]
    before_last = run(state, registry, records[:-1])
    assert before_last.verdict == "legal", f"set-up action refused: {[p.text() for p in before_last.problems]}"
    snapshot = copy.deepcopy((before_last.state.docs, {k: (r.meta, r.body) for k, r in before_last.state.rules.items()},
                              before_last.state.config))
    outcome = run(before_last.state, registry, records[-1:])
    expect = case.get("expect", "legal")
    messages = [p.text() for p in outcome.problems]
    assert outcome.verdict == expect, f"expected {expect}, got {outcome.verdict}: {messages}"
    if expect != "legal":
        if case.get("error"):
            assert any(case["error"] in m for m in messages), f"no problem mentions {case['error']!r}: {messages}"
        if "errors" in case:  # the refusal says these, one problem each, and nothing else
            left = list(messages)
            for part in case["errors"]:
                hit = next((m for m in left if part in m), None)
                assert hit is not None, f"no other problem mentions {part!r}: {messages}"
                left.remove(hit)
            assert not left, f"problems the case does not expect: {left}"
        after = (before_last.state.docs, {k: (r.meta, r.body) for k, r in before_last.state.rules.items()},
                 before_last.state.config)
        assert after == snapshot, "a refused action changed the state"
    for check in case.get("then", []):
        got = lookup(outcome.state, outcome.applied, check["path"])
        assert got == check["value"], f"{check['path']}: got {got!r}, expected {check['value']!r}"
    for path in case.get("absent", []):
        with pytest.raises(KeyError):
            lookup(outcome.state, outcome.applied, path)


def test_a_path_past_the_end_of_a_list_is_absent_like_a_missing_key():
    """``absent:`` can say that a list did not grow: an index past either end is a KeyError, as a missing key is;
    a negative index counts from the end (``-1`` is the last item)."""
    from validators.engine import State

    state = State({"modules": []}, {"roster": {"players": [{"name": "Ada"}, {"name": "Bo"}]}}, {})
    assert lookup(state, None, "/roster/players/-1/name") == "Bo"
    assert lookup(state, None, "/roster/players/0/name") == "Ada"
    for path in ("/roster/players/2", "/roster/players/-3", "/roster/players/name=Cy", "/roster/captain"):
        with pytest.raises(KeyError):
            lookup(state, None, path)
