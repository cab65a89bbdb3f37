"""Rule edits in a proposal's effects (validators/effects.py): the stored form of a rule's number."""

from __future__ import annotations

import pytest

from validators.cases import base_state
from validators.effects import apply_effects
from validators.problems import Illegal
from validators.registry_ctx import ctx_at
from validators.timeutil import parse_time

AT = parse_time("2026-11-03T10:00:00Z")


def _ctx():
    state, _ = base_state("blognomic-core")
    return ctx_at(state, AT)


def _state_and_ctx():
    state, _ = base_state("blognomic-core")
    return state, ctx_at(state, AT)


@pytest.mark.parametrize("given", [12, "12"])
def test_a_number_given_as_a_whole_number_or_a_string_is_stored_as_the_string(given):
    ctx = _ctx()
    apply_effects(ctx, {"rules": [{"op": "add", "id": "bananas", "number": given, "title": "Bananas"},
                                  {"op": "renumber", "id": "a-dynastic-rule", "number": given}]}, "proposal 4", "1.5")
    rules = ctx.tx.commit().rules
    assert rules["bananas"].meta["number"] == "12"
    assert rules["a-dynastic-rule"].meta["number"] == "12"
    assert rules["a-dynastic-rule"].meta["history"][-1]["event"] == "renumbered"


@pytest.mark.parametrize("bad", [[1, 2], {"a": 1}, True, 2.1, None])
@pytest.mark.parametrize("op, rid", [("add", "bananas"), ("renumber", "a-dynastic-rule")])
def test_a_number_that_is_no_rule_number_is_refused_naming_the_proposal_and_field(bad, op, rid):
    state, ctx = _state_and_ctx()
    before = state.rules
    with pytest.raises(Illegal) as e:
        apply_effects(ctx, {"rules": [{"op": "retitle", "id": "a-dynastic-rule", "title": "T"},
                                      {"op": op, "id": rid, "number": bad}]}, "proposal 4", "1.5")
    message = e.value.problems[0].message
    assert message.startswith("proposal 4's effects cannot be applied: effects.rules[1].number is ")
    assert "no rule number" in message
    if isinstance(bad, float):
        assert "quote" in message
    assert "bananas" not in before and before["a-dynastic-rule"].meta["number"] == "2.1"
    assert before["a-dynastic-rule"].meta["title"] != "T"


def test_a_retitling_without_a_title_is_refused_not_a_traceback():
    with pytest.raises(Illegal, match=r"effects.rules\[0\] retitles rule 'a-dynastic-rule' but gives no title"):
        apply_effects(_ctx(), {"rules": [{"op": "retitle", "id": "a-dynastic-rule"}]}, "proposal 4", "1.5")
