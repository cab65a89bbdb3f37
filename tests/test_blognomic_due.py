"""`nomic due` for the BlogNomic core: who the Hiatus waits for after a DoV passed (seed 001 1.9)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from validators.cases import base_state, run
from validators.games.blognomic.due import due
from validators.timeutil import parse_time

PASS = [
    {"at": "2026-11-02T10:00:00Z", "actor": "Chidi", "action": "core.dov", "params": {}},
    {"at": "2026-11-02T10:10:00Z", "actor": "Alice", "action": "core.dov-vote", "params": {"dov": 1, "vote": "FOR"}},
    {"at": "2026-11-02T10:20:00Z", "actor": "Dana", "action": "core.dov-vote", "params": {"dov": 1, "vote": "FOR"}},
    {"at": "2026-11-02T10:30:00Z", "actor": "Emeka", "action": "core.dov-vote", "params": {"dov": 1, "vote": "FOR"}},
    {"at": "2026-11-02T22:00:00Z", "actor": "Bruno", "action": "core.dov-resolve", "params": {"dov": 1}},
]


def _due(extra):
    state, registry = base_state("blognomic-core")
    out = run(state, registry, PASS + extra)
    assert out.verdict == "legal", [p.text() for p in out.problems]
    return due(out.state, parse_time("2026-11-03T00:00:00Z"))


def test_active_winner_may_post_the_address():
    assert "Chidi may post the Ascension Address (core.ascend)" in _due([])


def test_idle_winner_holds_the_hiatus_and_the_ways_on_are_named():
    # 1.2 counts idle Colonists for 1.8 (still the leader), not for 1.9 (the Address): say who is awaited and how
    lines = _due([{"at": "2026-11-02T22:10:00Z", "actor": "Chidi", "action": "core.idle", "params": {}}])
    assert not any("Chidi may post" in line for line in lines)
    assert any("waits for Chidi, who is idle" in line and "core.unidle" in line and "a CfJ" in line
               for line in lines), lines


def test_winner_who_left_leaves_no_leader_and_a_cfj_is_named():
    lines = _due([{"at": "2026-11-02T22:10:00Z", "actor": "Chidi", "action": "core.leave", "params": {}}])
    assert any("no leader to post it: a CfJ may name one" in line for line in lines), lines
    assert not any("None may post" in line for line in lines)


def test_quazie_idling_is_due_only_after_more_than_a_week_without_a_vote():
    """Seed 003 rule 2: an admin may idle a Muffin who has failed to vote for *more than* a week. ``nomic due``
    names that Muffin as ``core.idle`` judges it: not at exactly seven days after the last vote, a second later."""
    from validators.cases import patched

    state, registry = base_state("blognomic-quazie")
    state = patched(state, registry, [{"op": "add", "path": "/proposals/last_vote",
                                       "value": {"Ann": "2026-11-01T10:00:00Z"}}])
    week = "2026-11-08T10:00:00Z"
    after = "2026-11-08T10:00:01Z"
    assert not any("make Ann idle" in line for line in due(state, parse_time(week)))
    assert any("make Ann idle" in line for line in due(state, parse_time(after)))
    idle = {"actor": "Ben", "action": "core.idle", "params": {"player": "Ann"}}
    assert run(state, registry, [{**idle, "at": week}]).verdict == "illegal"
    assert run(state, registry, [{**idle, "at": after}]).verdict == "legal"


@pytest.mark.parametrize("away, back, after, said", [
    # a Muffin who left and joined again has failed to vote only since its new joining; the vote it cast before
    # leaving (still in ``last_vote`` under its name) is older
    ("core.leave", "core.join", "2026-11-17T10:00:00Z", "joined 2026-11-17T10:00:00Z, no vote since"),
    # a Muffin that comes back from idleness has failed to vote only since its return (while idle it could not vote)
    ("core.idle", "core.unidle", "2026-11-30T10:00:00Z", "came back 2026-11-30T10:00:00Z, no vote since"),
])
def test_quazie_a_muffin_back_in_the_game_is_due_a_week_after_its_return(away, back, after, said):
    """Seed 003 rule 2, as ``core.idle`` reads it: ``nomic due`` does not name the Muffin a minute after it came
    back, but more than a week after."""
    state, registry = base_state("blognomic-quazie")
    records = [
        {"at": "2026-11-02T10:00:00Z", "actor": "Ann", "action": "core.propose", "params": {"title": "X"}},
        {"at": "2026-11-02T11:00:00Z", "actor": "Dot", "action": "core.vote", "params": {"proposal": 1, "vote": "FOR"}},
        {"at": "2026-11-03T10:00:00Z", "actor": "Dot", "action": away, "params": {}},
        {"at": after, "actor": "Dot", "action": back, "params": {"account": "dot"} if back == "core.join" else {}},
    ]
    out = run(state, registry, records)
    assert out.verdict == "legal", [p.text() for p in out.problems]
    t = parse_time(after)
    assert not any("make Dot idle" in line for line in due(out.state, t + timedelta(minutes=1)))
    lines = due(out.state, t + timedelta(days=7, seconds=1))
    assert f"an admin may make Dot idle ({said})" in lines, lines


def test_a_player_who_only_filed_ticks_for_a_week_is_due_to_be_idled():
    """Seed 001 1.2: the week of silence is a week with no entry or comment. A tick is neither (the engine's
    record that time has passed), so ``nomic due`` names a player whose only records in the week were ticks,
    from their last real action; a vote among the ticks keeps them off the list."""
    state, registry = base_state("blognomic-core")
    propose = {"at": "2026-11-02T10:00:00Z", "actor": "Emeka", "action": "core.propose", "params": {"title": "X"}}
    ticks = [{"at": at, "actor": "Emeka", "action": "engine.tick"}
             for at in ("2026-11-05T10:00:00Z", "2026-11-09T09:00:00Z")]
    out = run(state, registry, [propose, *ticks])
    assert out.verdict == "legal", [p.text() for p in out.problems]
    lines = due(out.state, parse_time("2026-11-09T10:00:00Z"))
    assert "an admin may make Emeka idle (last acted 2026-11-02T10:00:00Z)" in lines, lines
    vote = {"at": "2026-11-06T10:00:00Z", "actor": "Emeka", "action": "core.vote",
            "params": {"proposal": 1, "vote": "FOR"}}
    out = run(state, registry, [propose, ticks[0], vote, ticks[1]])
    assert out.verdict == "legal", [p.text() for p in out.problems]
    assert not any("make Emeka idle" in line for line in due(out.state, parse_time("2026-11-09T10:00:00Z")))


def _cfj_due(value):
    """A pending CfJ that makes Alice (already an admin) an admin, or not; what `nomic due` says of it."""
    state, registry = base_state("blognomic-core")
    cfj = {"at": "2026-11-02T10:00:00Z", "actor": "Dana", "action": "core.cfj",
           "params": {"title": "Fix it", "effects": {"gamestate": [
               {"op": "replace", "path": "/roster/players/name=Alice/admin", "value": value}]}}}
    out = run(state, registry, [cfj])
    assert out.verdict == "legal", [p.text() for p in out.problems]
    return [line for line in due(out.state, parse_time("2026-11-02T11:00:00Z")) if line.startswith("CfJ 1:")]


def test_a_cfj_without_effect_is_named_as_failable_now():
    # seed 001 1.6: any admin may fail a CfJ that has no effect on the ruleset or gamestate, at any time
    (line,) = _cfj_due(True)
    assert "it has no effect on the ruleset or gamestate, so any admin may fail it now" in line, line
    (line,) = _cfj_due(False)
    assert "no effect" not in line, line


def test_a_proposal_whose_effects_cannot_be_applied_is_due_to_be_failed_not_enacted():
    """Seed 001 1.5: proposal 1 has Quorum FOR after 12 hours, but its effects name Emeka, who has left, so
    ``core.enact`` is refused and ``core.fail`` is legal. ``nomic due`` said "an admin may enact proposal 1 now";
    it names the failure, with the reason, as the admin's action."""
    state, registry = base_state("blognomic-core")
    records = [
        {"at": "2026-11-02T10:00:00Z", "actor": "Chidi", "action": "core.propose",
         "params": {"title": "Emeka is an admin", "effects": {"gamestate": [
             {"op": "replace", "path": "/roster/players/name=Emeka/admin", "value": True}]}}},
        *({"at": at, "actor": who, "action": "core.vote", "params": {"proposal": 1, "vote": "FOR"}}
          for at, who in (("2026-11-02T11:00:00Z", "Dana"), ("2026-11-02T11:10:00Z", "Bruno"))),
        {"at": "2026-11-02T12:00:00Z", "actor": "Emeka", "action": "core.leave", "params": {}},
    ]
    out = run(state, registry, records)
    assert out.verdict == "legal", [p.text() for p in out.problems]
    now = "2026-11-03T00:00:00Z"
    lines = due(out.state, parse_time(now))
    assert not any("may enact proposal 1" in line for line in lines), lines
    assert any(line.startswith("an admin may fail proposal 1 now: its effects cannot be applied") for line in lines), \
        lines
    act = {"at": now, "actor": "Alice", "params": {"proposal": 1}}
    assert run(out.state, registry, [{**act, "action": "core.enact"}]).verdict == "illegal"
    assert run(out.state, registry, [{**act, "action": "core.fail"}]).verdict == "legal"


def test_no_idling_is_due_during_a_quazie_hiatus():
    """Seed 003 rule 9: during Hiatus only CfJs go on, so ``core.idle`` is refused and ``nomic due`` names nobody to
    idle (it listed every Muffin silent for a week); in Ruleset 75's Hiatus 1.2 goes on, and idling with it."""
    state, registry = base_state("blognomic-quazie")
    dov = {"at": "2026-11-20T10:00:00Z", "actor": "Cat", "action": "core.dov", "params": {}}
    idle = {"at": "2026-11-20T11:00:00Z", "actor": "Ann", "action": "core.idle", "params": {"player": "Ben"}}
    now = parse_time("2026-11-20T11:00:00Z")
    assert any("make Ben idle" in line for line in due(state, now))
    out = run(state, registry, [dov])
    assert out.verdict == "legal", [p.text() for p in out.problems]
    assert not any("idle" in line for line in due(out.state, now)), due(out.state, now)
    assert run(out.state, registry, [idle]).verdict == "illegal"
    state, registry = base_state("blognomic-core")
    out = run(state, registry, [{**dov, "actor": "Chidi"}])
    assert any("make Dana idle" in line for line in due(out.state, now))
    assert run(out.state, registry, [{**idle, "actor": "Alice", "params": {"player": "Dana"}}]).verdict == "legal"


def test_a_proposal_with_too_few_votes_counts_them_in_words():
    """1.5: open 48 hours with fewer than 2 valid votes, a proposal may be failed; the reason counts in words."""
    state, registry = base_state("blognomic-core")
    out = run(state, registry, [{"at": "2026-11-02T10:00:00Z", "actor": "Chidi", "action": "core.propose",
                                 "params": {"title": "Hats for all"}}])
    assert out.verdict == "legal", [p.text() for p in out.problems]
    lines = due(out.state, parse_time("2026-11-04T11:00:00Z"))
    assert any("with 1 valid vote: fewer than 2" in line for line in lines), lines
    assert not any("(s)" in line for line in lines), lines


def _enactment_refused(at: str, *votes: dict) -> str:
    """Chidi proposes "Hats" on 2 November at 10:00, ``votes`` follow, and Bruno (an admin) tries to enact it at
    ``at``: the refusal, in words (the enactment must be refused)."""
    state, registry = base_state("blognomic-core")
    out = run(state, registry, [
        {"at": "2026-11-02T10:00:00Z", "actor": "Chidi", "action": "core.propose", "params": {"title": "Hats"}},
        *votes,
        {"at": at, "actor": "Bruno", "action": "core.enact", "params": {"proposal": 1}}])
    assert out.verdict == "illegal", at
    return " ".join(p.message for p in out.problems)


def test_a_refused_enactment_says_when_the_proposal_may_be_failed_now():
    """1.5: an admin who tries to enact a proposal the votes do not carry, but that may be failed, is told so."""
    said = _enactment_refused("2026-11-04T11:00:00Z")
    assert "proposal 1 cannot be enacted: " in said, said
    assert "; an admin may fail it now (open 48 hours with 1 valid vote: fewer than 2)" in said, said


def test_a_refused_enactment_says_from_when_the_proposal_may_be_failed_if_the_votes_stand():
    """1.5: too early to fail and no way to enact as the votes stand: the refusal says from when an admin may fail
    it, as ``nomic due`` does; one the votes will carry says when it may be enacted, and nothing of failing."""
    said = _enactment_refused("2026-11-03T11:00:00Z")
    assert "proposal 1 cannot be enacted: " in said and "an admin may fail it now" not in said, said
    assert said.endswith("; if the votes stand, it may be failed from 2026-11-04T10:00:00Z"), said
    said = _enactment_refused("2026-11-02T12:00:00Z", {"at": "2026-11-02T11:00:00Z", "actor": "Bruno",
                                                       "action": "core.vote", "params": {"proposal": 1, "vote": "FOR"}})
    assert "may be enacted from" in said and "failed" not in said, said


# seed 001 1.5, 1.6, 1.9 and 1.2: a proposal that repeals one of them takes its actions out of the game (core.enact
# and core.fail; core.cfj-resolve; core.dov-resolve and core.ascend; core.idle). The desk and the wiki's proposals
# page must not then offer them: before, `nomic due` said "an admin may enact proposal 2 now" and the page "Can be
# enacted now" while core.enact was refused.
def _repeal(rule: str, at: str, n: int) -> list[dict]:
    return [
        {"at": at, "actor": "Chidi", "action": "core.propose",
         "params": {"title": f"No more {rule}", "effects": {"rules": [{"op": "repeal", "id": rule}]}}},
        {"at": at, "actor": "Dana", "action": "core.vote", "params": {"proposal": n, "vote": "FOR"}},
        {"at": at, "actor": "Emeka", "action": "core.vote", "params": {"proposal": n, "vote": "FOR"}},
    ]


def _later(n: int, at: str) -> list[dict]:
    return [{"at": at, "actor": "Dana", "action": "core.propose", "params": {"title": "Later"}},
            {"at": at, "actor": "Alice", "action": "core.vote", "params": {"proposal": n, "vote": "FOR"}},
            {"at": at, "actor": "Emeka", "action": "core.vote", "params": {"proposal": n, "vote": "FOR"}}]


def _state(actions):
    state, registry = base_state("blognomic-core")
    out = run(state, registry, actions)
    assert out.verdict == "legal", [p.text() for p in out.problems]
    return out.state, registry


def _page(state, now):
    from site_plugins.links import Links
    from site_plugins.proposals import render_proposals

    return render_proposals(state, Links(game="g", here="games/g/proposals.md", players={}), now)


ENACT_1 = [{"at": "2026-11-02T22:00:00Z", "actor": "Bruno", "action": "core.enact", "params": {"proposal": 1}}]


def test_with_enactment_repealed_no_proposal_is_offered_for_enactment():
    state, registry = _state(_repeal("enactment", "2026-11-02T10:00:00Z", 1) + _later(2, "2026-11-02T11:00:00Z")
                             + ENACT_1)
    now = parse_time("2026-11-04T12:00:00Z")
    lines = due(state, now)
    assert ("proposal 2 (the oldest pending) stays pending: the rule that lets an admin resolve it, 1.5 Enactment, "
            "has been repealed") in lines
    assert not any("may enact" in line or "may fail" in line for line in lines), lines
    page = _page(state, now)
    assert "Stays pending</span>: the rule that lets an admin resolve it, 1.5 Enactment, has been repealed." in page
    assert "Can be enacted" not in page and "Can be failed" not in page
    enact = {"at": "2026-11-04T12:00:00Z", "actor": "Bruno", "action": "core.enact", "params": {"proposal": 2}}
    assert run(state, registry, [enact]).verdict == "illegal"


def test_before_the_repeal_the_same_proposal_is_offered():
    state, _ = _state(_repeal("a-dynastic-rule", "2026-11-02T10:00:00Z", 1) + _later(2, "2026-11-02T11:00:00Z")
                      + ENACT_1)
    now = parse_time("2026-11-04T12:00:00Z")
    assert any(line.startswith("an admin may enact proposal 2 now") for line in due(state, now))
    assert "Can be enacted now" in _page(state, now)


def test_with_calls_for_judgment_repealed_no_cfj_is_offered_for_resolution():
    cfj = [{"at": "2026-11-02T09:00:00Z", "actor": "Dana", "action": "core.cfj", "params": {"title": "Fix it"}}]
    state, _ = _state(cfj + _repeal("calls-for-judgment", "2026-11-02T10:00:00Z", 1) + ENACT_1)
    now = parse_time("2026-11-07T12:00:00Z")  # its four days are over
    lines = due(state, now)
    assert ("CfJ 1 stays pending: the rule that lets an admin resolve it, 1.6 Calls for Judgment, has been "
            "repealed") in lines
    assert not any("may resolve" in line or "may fail it" in line for line in lines), lines
    page = _page(state, now)
    assert "Stays pending: the rule that lets an admin resolve it, 1.6 Calls for Judgment, has been repealed." in page
    assert "Can be resolved now" not in page


def _cfj_repealing_victory(hour: str, first: int = 0) -> list[dict]:
    """A CfJ (allowed in Hiatus) that repeals 1.9, made at ``hour``:``first`` minutes, passed by Quorum 10 minutes
    later and resolved 10 minutes after that."""
    at = [f"{hour}:{first + m:02d}:00Z" for m in (0, 10, 20)]
    cfj = [{"at": at[0], "actor": "Dana", "action": "core.cfj",
            "params": {"title": "No victory", "effects": {"rules": [{"op": "repeal", "id": "victory-and-ascension"}]}}}]
    cfj += [{"at": at[1], "actor": who, "action": "core.cfj-vote", "params": {"cfj": 1, "vote": "FOR"}}
            for who in ("Alice", "Bruno", "Emeka")]
    return cfj + [{"at": at[2], "actor": "Bruno", "action": "core.cfj-resolve", "params": {"cfj": 1}}]


def test_with_victory_repealed_no_dov_or_address_is_offered():
    state, registry = base_state("blognomic-core")
    pending = run(state, registry, PASS[:-1])  # a DoV with Quorum FOR, resolvable from 22:00
    assert pending.verdict == "legal"
    # a CfJ (allowed in Hiatus) repeals 1.9
    out = run(pending.state, registry, _cfj_repealing_victory("2026-11-02T11"))
    assert out.verdict == "legal", [p.text() for p in out.problems]
    now = parse_time("2026-11-03T00:00:00Z")
    lines = due(out.state, now)
    assert ("DoV 1 stays pending: the rule that lets an admin resolve it, 1.9 Victory and Ascension, has been "
            "repealed") in lines
    assert not any("may be resolved now" in line for line in lines), lines
    assert "Stays pending: the rule that lets an admin resolve it, 1.9 Victory and Ascension" in _page(out.state, now)


def test_with_victory_repealed_after_a_win_no_address_is_awaited():
    state, registry = base_state("blognomic-core")
    won = run(state, registry, PASS)
    out = run(won.state, registry, _cfj_repealing_victory("2026-11-02T22", first=10))
    assert out.verdict == "legal", [p.text() for p in out.problems]
    lines = due(out.state, parse_time("2026-11-03T00:00:00Z"))
    assert not any("Ascension Address" in line for line in lines), lines
    ascend = {"at": "2026-11-03T00:00:00Z", "actor": "Chidi", "action": "core.ascend", "params": {"theme": "X"}}
    assert run(out.state, registry, [ascend]).verdict == "illegal"


def test_with_players_repealed_nobody_is_offered_for_idling():
    state, registry = _state(_repeal("players", "2026-11-02T10:00:00Z", 1) + ENACT_1)
    now = parse_time("2026-11-20T00:00:00Z")  # everybody has been silent for a week
    assert not any("idle" in line for line in due(state, now)), due(state, now)
    idle = {"at": "2026-11-20T00:00:00Z", "actor": "Bruno", "action": "core.idle", "params": {"player": "Chidi"}}
    assert run(state, registry, [idle]).verdict == "illegal"


def test_quazie_dov_without_a_clear_decision_names_when_the_grand_poobah_may_decide():
    """Seed 003 rule 9: with no clear decision after 24 hours the GRAND POOBAH may step in and decide. ``nomic due``
    (and the refusal to resolve) said only "no clear decision", naming neither who may decide nor from when."""
    state, registry = base_state("blognomic-quazie")
    dov = [{"at": "2026-11-02T10:00:00Z", "actor": "Cat", "action": "core.dov", "params": {}},
           {"at": "2026-11-02T10:10:00Z", "actor": "Dot", "action": "core.dov-vote",
            "params": {"dov": 1, "vote": "FOR"}}]
    out = run(state, registry, dov)
    assert out.verdict == "legal", [p.text() for p in out.problems]
    early = due(out.state, parse_time("2026-11-02T12:00:00Z"))
    assert any("DoV 1:" in line and "Ann, the GRAND POOBAH, may decide it from 2026-11-03T10:00:00Z" in line
               for line in early), early
    late = due(out.state, parse_time("2026-11-03T10:00:00Z"))
    assert any("DoV 1:" in line and "Ann, the GRAND POOBAH, may decide it now (decision: passed or failed)" in line
               for line in late), late
    refused = run(out.state, registry, [{"at": "2026-11-02T12:00:00Z", "actor": "Ben", "action": "core.dov-resolve",
                                         "params": {"dov": 1}}])
    assert refused.verdict == "illegal"
    assert any("may decide it from 2026-11-03T10:00:00Z" in p.text() for p in refused.problems), \
        [p.text() for p in refused.problems]


def test_the_list_says_no_vote_is_open_once_every_cfj_has_ended_or_every_dov_is_decided():
    """``nomic act --list`` (``Action.ready``): seed 001 1.6 / seed 003 rule 6, a CfJ whose days have passed takes no
    more votes; seed 003 rule 9, a DoV more than half have already decided takes no more responses. When every
    pending one is so, voting on them is said not to be possible, as the check refuses every value."""
    from validators.games.blognomic.judgment import CFJ_VOTE
    from validators.games.blognomic.victory import DOV_VOTE
    from validators.registry_ctx import ctx_at

    state, registry = base_state("blognomic-core")
    out = run(state, registry, [{"at": "2026-11-02T10:00:00Z", "actor": "Dana", "action": "core.cfj",
                                 "params": {"title": "Fix it"}}])
    assert list(CFJ_VOTE.ready(ctx_at(out.state, parse_time("2026-11-06T09:59:59Z")))) == []
    said = list(CFJ_VOTE.ready(ctx_at(out.state, parse_time("2026-11-06T10:00:00Z"))))
    assert said and "every pending CfJ has ended" in said[0], said
    state, registry = base_state("blognomic-quazie")
    votes = [{"at": f"2026-11-02T10:{i}0:00Z", "actor": who, "action": "core.dov-vote",
              "params": {"dov": 1, "vote": "FOR"}} for i, who in enumerate(["Ann", "Ben", "Dot"], 1)]
    out = run(state, registry, [{"at": "2026-11-02T10:00:00Z", "actor": "Cat", "action": "core.dov", "params": {}},
                                *votes[:2]])
    assert list(DOV_VOTE.ready(ctx_at(out.state, parse_time("2026-11-02T10:25:00Z")))) == []
    out = run(out.state, registry, votes[2:])
    said = list(DOV_VOTE.ready(ctx_at(out.state, parse_time("2026-11-02T10:35:00Z"))))
    assert said and "already decided" in said[0], said
