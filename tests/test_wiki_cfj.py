"""The wiki's Call for Judgment pages (site_plugins/proposals.py) for a BlogNomic game."""

from __future__ import annotations

from site_plugins.links import Links
from site_plugins.proposals import render_item, render_proposals
from validators.cases import base_state, run
from validators.timeutil import parse_time


def _act(at: str, actor: str, action: str, **params: object) -> dict[str, object]:
    return {"at": at, "actor": actor, "action": action, "params": params}


# seed 001 1.6: a CfJ continues until two days have passed while a Hiatus is going on; one whose two days ran out in
# a Hiatus stays ended when the Hiatus ends (validators/games/blognomic/judgment.py hiatus_ended)
RAN_OUT = [_act("2026-11-02T10:00:00Z", "Dana", "core.cfj", title="Fix it"),
           _act("2026-11-02T10:10:00Z", "Dana", "core.cfj-vote", cfj=1, vote="FOR"),
           _act("2026-11-04T11:00:00Z", "Chidi", "core.dov"),
           _act("2026-11-04T12:00:00Z", "Chidi", "core.dov-withdraw", dov=1)]
SENTENCE = ('its 2 days ran out in the Hiatus that ended '
            '<time datetime="2026-11-04T12:00:00Z" title="2026-11-04T12:00:00Z">4 Nov 2026 12:00 UTC</time>')


def test_a_cfj_whose_time_ran_out_in_a_hiatus_says_so_and_that_its_votes_decide() -> None:
    state, registry = base_state("blognomic-core")
    out = run(state, registry, RAN_OUT)
    assert out.verdict == "legal"
    links = Links(game="g", here="games/g/proposals.md", players={})
    now = parse_time("2026-11-04T13:00:00Z")
    page = render_proposals(out.state, links, now)
    assert SENTENCE in page
    assert "may be resolved now by its votes" in page
    assert "2026-11-04T12:00:00Z</p>" not in page  # the verdict line writes the time as the wiki does, too
    item = out.state.doc("cfjs")["cfjs"][0]
    assert SENTENCE in render_item(out.state, item, "cfj", links, now, [])
    # resolved, its own page still says why its time was over
    done = run(out.state, registry, [_act("2026-11-04T13:00:00Z", "Bruno", "core.cfj-resolve", cfj=1)])
    assert done.verdict == "legal"
    item = done.state.doc("cfjs")["cfjs"][0]
    page = render_item(done.state, item, "cfj", links, now, [])
    assert SENTENCE in page and "was resolved by its votes" in page


def test_a_cfj_that_did_not_run_out_in_a_hiatus_says_nothing_of_it() -> None:
    state, registry = base_state("blognomic-core")
    out = run(state, registry, RAN_OUT[:2])
    links = Links(game="g", here="games/g/proposals.md", players={})
    page = render_proposals(out.state, links, parse_time("2026-11-02T13:00:00Z"))
    assert "ran out in the Hiatus" not in page


def test_a_pending_cfj_that_reached_quorum_says_its_voting_is_over() -> None:
    # seed 001 1.6: a CfJ continues until it reaches Quorum; then it takes no more votes (judgment.note_quorum)
    state, registry = base_state("blognomic-core")
    votes = [_act(f"2026-11-02T10:{10 * (i + 1)}:00Z", who, "core.cfj-vote", cfj=1, vote="FOR")
             for i, who in enumerate(["Chidi", "Emeka", "Dana"])]
    links = Links(game="g", here="games/g/proposals.md", players={})
    now = parse_time("2026-11-02T11:00:00Z")
    short = run(state, registry, [RAN_OUT[0], *votes[:2]])
    assert "Its voting is over" not in render_proposals(short.state, links, now)
    out = run(state, registry, [RAN_OUT[0], *votes])
    assert out.verdict == "legal"
    page = render_proposals(out.state, links, now)
    assert ('it reached Quorum <time datetime="2026-11-02T10:30:00Z" title="2026-11-02T10:30:00Z">2 Nov 2026 10:30 '
            "UTC</time>, and a CfJ ends then, so it takes no more votes") in page
