"""``nomic act cycle12 --list``: an action that takes parameters is said not to be possible when no value would do
(``Action.ready``), on a copy of the example game at 2026-11-22 (Phase VI). Each case takes the game to a state
where the refusal holds, asserts the exact words, then acts until the rules allow it and asserts the "yes"."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from tests.gitgame import make_repo
from tests.test_act_list import _values
from validators import yamlio
from validators.act import act, available
from validators.content import WorkTree, load_game
from validators.engine import advance
from validators.judge import judge_one
from validators.timeutil import format_time, parse_time

NOW = parse_time("2026-11-22T12:00:00Z")  # Sunday of Phase VI; Phase VII begins at midnight


def _listed(repo: Path, who: str, at: datetime = NOW) -> dict[str, list[str]]:
    """What the list says of each action; every refusal of ``Action.ready`` it says is tried against the judge
    with every number the game's records use and each player's name (the check refuses them all)."""
    listed = available(repo, "cycle12", who, at)
    files = load_game(WorkTree(repo), "cycle12")
    state, _ = advance(files.registry, files.state, at)
    for a in listed:
        action = files.registry.actions[a.name]
        if not a.why_not or action.ready is None:
            continue
        props = action.params.get("properties", {})
        combos: list[dict] = [{}]
        for name in action.params.get("required", []):
            combos = [{**c, name: v} for c in combos for v in _values(state, name, props[name])]
        for params in combos[:200]:
            record = {"at": format_time(at), "actor": who, "action": a.name, "params": params}
            step = judge_one(files.registry, state, record, "", now=at, check_recorded=False)
            assert not step.legal, (who, a.name, params, a.why_not)
    return {a.name: a.why_not for a in listed}


def _act(repo: Path, action: str, who: str, params: dict[str, Any], at: datetime) -> list[Any]:
    r = act(repo, "cycle12", action, who, params, at, now=at)
    assert r.step.legal and r.written, [p.message for p in r.step.problems]
    return r.step.applied.outcome


def _edit_doc(repo: Path, kind: str, **values: Any) -> None:
    """Set top-level fields of a gamestate document of the copy (the state a case starts from)."""
    path = repo / "content" / "cycle12" / "gamestate" / f"{kind}.yaml"
    tree = yamlio.rt_load(path.read_text(encoding="utf-8"), path.name)
    tree.update(values)
    path.write_text(yamlio.rt_dump(tree), encoding="utf-8")


def _minutes(n: int) -> datetime:
    return NOW + timedelta(minutes=n)


def test_votes_edits_and_resolutions_follow_the_voting_periods(tmp_path):
    """Seed 004 Lifecycle: reactions count while a voting period runs, the author alone records an edit of a
    pending proposal, and a proposal is resolved when its period ends. Cleo's #4 is the example's only pending one
    (its period ends as Phase VII begins)."""
    repo = make_repo(tmp_path, "cycle12")
    basil, cleo = _listed(repo, "Basil"), _listed(repo, "Cleo")
    assert basil["cycle12.vote"] == [] and basil["cycle12.resolve"] == []
    assert basil["cycle12.edit-proposal"] == ["no proposal of yours is pending"]
    assert cleo["cycle12.edit-proposal"] == []
    monday = parse_time("2026-11-23T06:00:00Z")
    assert _listed(repo, "Basil", monday)["cycle12.vote"] == ["no proposal's voting period is running"]
    assert _listed(repo, "Cleo", monday)["cycle12.edit-proposal"] == ["no proposal of yours is pending"]
    _act(repo, "cycle12.propose", "Basil", {"changes": [{"kind": "textual", "text": "Ring the bell."}]}, monday)
    basil = _listed(repo, "Basil", monday)
    assert basil["cycle12.vote"] == [] and basil["cycle12.edit-proposal"] == []


def test_a_proposal_is_resolved_only_once_its_period_has_ended(tmp_path):
    """Seed 004 Lifecycle: with no proposal, or only one whose period still runs, there is nothing to resolve."""
    repo = make_repo(tmp_path, "cycle12")
    _edit_doc(repo, "cycle12_proposals", proposals=[])
    basil = _listed(repo, "Basil")
    assert basil["cycle12.resolve"] == ["no proposal's voting period has ended"]
    assert basil["cycle12.vote"] == ["no proposal's voting period is running"]
    _act(repo, "cycle12.propose", "Basil", {"changes": [{"kind": "textual", "text": "Ring the bell."}]}, NOW)
    basil = _listed(repo, "Basil")
    assert basil["cycle12.resolve"] == ["no proposal's voting period has ended"] and basil["cycle12.vote"] == []
    after = parse_time("2026-11-26T01:00:00Z")  # the standard period was Phase VII, which ended at midnight
    basil = _listed(repo, "Basil", after)
    assert basil["cycle12.resolve"] == [] and basil["cycle12.vote"] == ["no proposal's voting period is running"]


def test_a_location_is_created_only_for_a_suggestion_waiting_for_its_answer(tmp_path):
    """Seed 004 New Locations, Creation Constraints: every suggestion of the example is fulfilled; a new one may be
    answered for a week."""
    repo = make_repo(tmp_path, "cycle12")
    refused = ["no location suggestion is waiting for an answer (each is fulfilled or more than 7 days old)"]
    assert _listed(repo, "Basil")["cycle12.create-location"] == refused
    _act(repo, "cycle12.suggest-location", "Cleo", {"kind": "tile", "image": "tiles/dune.png"}, _minutes(1))
    assert _listed(repo, "Basil", _minutes(1))["cycle12.create-location"] == []
    assert _listed(repo, "Basil", _minutes(1) + timedelta(days=8))["cycle12.create-location"] == refused


def test_a_move_needs_a_location_next_to_the_movers(tmp_path):
    """Seed 004 Located Entities: a move goes to an adjacent location. Cinder Coast, put apart at (5, 5), has
    none until a location is created next to it (Position Constraints: adjacent to an existing one)."""
    repo = make_repo(tmp_path, "cycle12")
    world = yamlio.load_file(repo / "content/cycle12/gamestate/cycle12_world.yaml")
    locations = [dict(loc, x=5, y=5) if loc["name"] == "Cinder Coast" else loc for loc in world["locations"]]
    _edit_doc(repo, "cycle12_world", locations=locations)
    sheets = yamlio.load_file(repo / "content/cycle12/gamestate/cycle12_sheets.yaml")["sheets"]
    _edit_doc(repo, "cycle12_sheets", sheets=[dict(s, location=13) if s["player"] == "Cleo" else s for s in sheets])
    assert _listed(repo, "Cleo")["cycle12.move"] == ["no location is adjacent to Cinder Coast (5, 5)"]
    assert _listed(repo, "Basil")["cycle12.move"] == []
    card = {"kind": "card", "name": "Salt Flats", "x": 5, "y": 4, "description": "White as far as one can see."}
    _act(repo, "cycle12.suggest-location", "Basil", card, _minutes(1))
    _act(repo, "cycle12.create-location", "Dmitri", {"suggestion": 14, "image": "tiles/salt.png"}, _minutes(2))
    assert _listed(repo, "Cleo", _minutes(2))["cycle12.move"] == []


def test_surveys_terraformings_and_their_reactions(tmp_path):
    """Seed 004 Terraforming, Surveying: one announcement of each kind a phase; terraforming needs the location's
    Primary Location Type tag and two nomsters of that type there; a reaction is to an open announcement, once; a
    Random one completed waits for its tag to be chosen."""
    repo = make_repo(tmp_path, "cycle12")
    basil, cleo = _listed(repo, "Basil"), _listed(repo, "Cleo")
    assert cleo["cycle12.terraform"] == ["Apeiros Village has no Primary Location Type tag; terraforming it fails"]
    assert basil["cycle12.terraform"] == ["1 Plant nomster(s) at Mossy Fen: terraforming needs two or more"]
    assert basil["cycle12.survey"] == []
    assert basil["cycle12.react"] == ["no terraforming or surveying announcement is open"]
    assert basil["cycle12.choose-random"] == ["no announcement is waiting for a random tag"]
    _act(repo, "cycle12.survey", "Basil", {"family": "Primary Location Type", "tag": "Random"}, _minutes(1))
    basil = _listed(repo, "Basil", _minutes(1))
    assert basil["cycle12.survey"] == ["Basil has already announced a survey this phase"]
    assert basil["cycle12.react"] == [] and _listed(repo, "Cleo", _minutes(1))["cycle12.react"] == []
    _act(repo, "cycle12.react", "Cleo", {"announcement": 4}, _minutes(2))
    assert _listed(repo, "Cleo", _minutes(2))["cycle12.react"] == [
        "no open announcement is waiting for Cleo's reaction"]
    _act(repo, "cycle12.react", "Dmitri", {"announcement": 4}, _minutes(3))
    _act(repo, "cycle12.react", "Esme", {"announcement": 4}, _minutes(4))
    cleo = _listed(repo, "Cleo", _minutes(4))
    assert cleo["cycle12.choose-random"] == []
    assert cleo["cycle12.react"] == ["no terraforming or surveying announcement is open"]
    # a new phase: Basil may survey again
    assert _listed(repo, "Basil", parse_time("2026-11-23T06:00:00Z"))["cycle12.survey"] == []


def test_nomsters_are_tamed_named_set_active_commanded_cuddled_and_treated_where_they_are(tmp_path):
    """Seed 004 Taming (once a day, a wild nomster in one's location), Creating a Tame Nomster (after a successful
    attempt), Active Nomster (one's own, once a phase), Commands (the active nomster), Cuddle (a tame one in one's
    location), Treats (one's own treat; another's or a wild nomster only for the reputable)."""
    repo = make_repo(tmp_path, "cycle12")
    cleo, basil = _listed(repo, "Cleo"), _listed(repo, "Basil")
    assert cleo["cycle12.tame"] == ["there is no wild nomster at Apeiros Village"]
    assert cleo["cycle12.name-nomster"] == ["Cleo has no successful taming attempt to convert"]
    assert cleo["cycle12.set-active"] == ["no nomster is on Cleo's team"]
    assert cleo["cycle12.command"] == ["Cleo has no active nomster; only the active nomster takes commands"]
    assert cleo["cycle12.cuddle"] == ["there is no tame nomster at Apeiros Village"]
    assert cleo["cycle12.give-treat"] == ["Cleo has no treat", "there is no nomster at Apeiros Village"]
    assert basil["cycle12.set-active"] == [] and basil["cycle12.command"] == [] and basil["cycle12.cuddle"] == []
    assert basil["cycle12.tame"] == ["there is no wild nomster at Mossy Fen"]
    # Cleo gains a treat and walks to Mossy Fen, where Basil's Mossback is
    _act(repo, "cycle12.gain-treat", "Cleo", {}, _minutes(1))
    # (the dice of Basil's taming below follow the last action of another player: this one, at this second)
    moved = _minutes(2) + timedelta(seconds=1)
    _act(repo, "cycle12.move", "Cleo", {"to": "Mossy Fen"}, moved)
    cleo = _listed(repo, "Cleo", moved)
    assert cleo["cycle12.cuddle"] == [] and cleo["cycle12.give-treat"] == []
    assert cleo["cycle12.tame"] == ["there is no wild nomster at Mossy Fen"]
    _act(repo, "cycle12.set-active", "Basil", {"nomster": 2}, _minutes(3))
    basil = _listed(repo, "Basil", _minutes(3))
    assert basil["cycle12.set-active"] == ["Basil already set their active nomster this phase"]
    assert basil["cycle12.command"] == []
    # two wild nomsters are at Frost Terrace
    _act(repo, "cycle12.move", "Basil", {"to": "Frost Terrace"}, _minutes(4))
    basil = _listed(repo, "Basil", _minutes(4))
    assert basil["cycle12.tame"] == [] and basil["cycle12.cuddle"] == ["there is no tame nomster at Frost Terrace"]
    outcome = _act(repo, "cycle12.tame", "Basil", {"nomster": 4}, _minutes(5))
    assert outcome == [{"nomster": 4, "d3": 3, "success": True}]
    basil = _listed(repo, "Basil", _minutes(5))
    assert basil["cycle12.tame"] == ["Basil already attempted a taming today (at 2026-11-22T12:05:00Z); once per day"]
    assert basil["cycle12.name-nomster"] == []
    assert _listed(repo, "Basil", parse_time("2026-11-23T06:00:00Z"))["cycle12.set-active"] == []


def test_a_player_not_yet_reputable_treats_only_their_own_nomsters_and_does_not_trade(tmp_path):
    """Seed 004 Treats: only a reputable player starts an adoption with a treat; Trade: only reputable players
    trade, and a trade offered takes place when the other consents within seven days."""
    repo = make_repo(tmp_path, "cycle12")
    _act(repo, "cycle12.join", "Gus", {}, _minutes(1))
    _act(repo, "cycle12.gain-treat", "Gus", {}, _minutes(2))
    gus = _listed(repo, "Gus", _minutes(2))
    assert gus["cycle12.give-treat"] == ["no nomster of Gus's team is at Apeiros Village, and Gus is not reputable; "
                                         "only reputable players start an adoption with a treat"]
    assert gus["cycle12.offer-trade"] == ["Gus is not reputable; only reputable players trade"]
    assert gus["cycle12.accept-trade"] == ["no trade offered to Gus in the last 7 days is waiting for their consent",
                                           "Gus is not reputable; only reputable players trade"]
    refused = ["no trade offered to Basil in the last 7 days is waiting for their consent"]
    assert _listed(repo, "Basil", _minutes(2))["cycle12.accept-trade"] == refused
    _act(repo, "cycle12.offer-trade", "Dmitri", {"with": "Basil", "give": [3]}, _minutes(3))
    assert _listed(repo, "Basil", _minutes(3))["cycle12.accept-trade"] == []
    assert _listed(repo, "Dmitri", _minutes(3))["cycle12.accept-trade"] == [
        "no trade offered to Dmitri in the last 7 days is waiting for their consent"]
    assert _listed(repo, "Basil", _minutes(3) + timedelta(days=8))["cycle12.accept-trade"] == refused


def test_rulings_votes_of_confidence_and_candidacies(tmp_path):
    """Seed 004 Delivery Judgements (the judge rules on a request without a standing ruling), Overturning (a vote
    of confidence within four days of a standing ruling, open for two days; the judge overturns their own ruling),
    Election (one reaction to each candidacy). The example's one request is started afresh."""
    repo = make_repo(tmp_path, "cycle12")
    _edit_doc(repo, "cycle12_justice", rfjs=[], next_rfj=1)
    cleo, basil = _listed(repo, "Cleo"), _listed(repo, "Basil")
    assert cleo["cycle12.judge"] == ["no request for justice is waiting for a ruling"]
    assert cleo["cycle12.self-overturn"] == ["no standing ruling is Cleo's"]
    assert basil["cycle12.call-confidence"] == [
        "no standing ruling made in the last 4 days is without a vote of confidence"]
    assert basil["cycle12.confidence-vote"] == ["no vote of confidence is open"]
    assert basil["cycle12.close-confidence"] == ["no vote of confidence has ended"]
    assert basil["cycle12.endorse"] == ["there is no candidate this week"]
    _act(repo, "cycle12.rfj", "Dmitri", {"statement": "The fen is wet."}, _minutes(1))
    assert _listed(repo, "Cleo", _minutes(1))["cycle12.judge"] == []
    _act(repo, "cycle12.judge", "Cleo", {"rfj": 1, "judgement": "TRUE"}, _minutes(2))
    cleo, basil = _listed(repo, "Cleo", _minutes(2)), _listed(repo, "Basil", _minutes(2))
    assert cleo["cycle12.judge"] == ["no request for justice is waiting for a ruling"]
    assert cleo["cycle12.self-overturn"] == [] and basil["cycle12.self-overturn"] == ["no standing ruling is Basil's"]
    assert basil["cycle12.call-confidence"] == []
    _act(repo, "cycle12.call-confidence", "Basil", {"rfj": 1}, _minutes(3))
    basil = _listed(repo, "Basil", _minutes(3))
    assert basil["cycle12.confidence-vote"] == [] and basil["cycle12.close-confidence"] == [
        "no vote of confidence has ended"]
    assert basil["cycle12.call-confidence"] == [
        "no standing ruling made in the last 4 days is without a vote of confidence"]
    _act(repo, "cycle12.stand", "Basil", {}, _minutes(4))
    assert _listed(repo, "Cleo", _minutes(4))["cycle12.endorse"] == []
    _act(repo, "cycle12.endorse", "Cleo", {"candidate": "Basil"}, _minutes(5))
    assert _listed(repo, "Cleo", _minutes(5))["cycle12.endorse"] == [
        "Cleo already reacted to every candidacy this week"]
    over = _listed(repo, "Dmitri", _minutes(3) + timedelta(days=2))
    assert over["cycle12.confidence-vote"] == ["no vote of confidence is open"]
    assert over["cycle12.close-confidence"] == []


def test_transcriptions_are_asked_of_recent_sheets_and_given_by_their_submitters(tmp_path):
    """Seed 004 Transcription: a request within 14 days of a sheet's submission, answered by its submitter."""
    repo = make_repo(tmp_path, "cycle12")
    assert _listed(repo, "Dmitri")["cycle12.transcribe"] == ["no open transcription request is for a sheet Dmitri "
                                                             "submitted"]
    assert _listed(repo, "Fen")["cycle12.request-transcription"] == []
    _act(repo, "cycle12.request-transcription", "Fen", {"sheet": "rfj/dmitri-1.png"}, _minutes(1))
    assert _listed(repo, "Dmitri", _minutes(1))["cycle12.transcribe"] == []
    assert _listed(repo, "Fen", _minutes(1))["cycle12.transcribe"] == ["no open transcription request is for a sheet "
                                                                       "Fen submitted"]
    later = parse_time("2026-12-20T12:00:00Z")
    assert _listed(repo, "Fen", later)["cycle12.request-transcription"] == [
        "no recorded sheet submitted in the last 14 days is free to be asked for a transcription"]
    _act(repo, "cycle12.submit-sheet", "Basil", {"image": "sheets/basil-2.png"}, later)
    assert _listed(repo, "Fen", later)["cycle12.request-transcription"] == []


def test_an_ascended_player_is_told_why_in_words(tmp_path):
    """Seed 004 Ascend: Ada has left the map with Bramble; the list says so as the judge does, with the rule."""
    repo = make_repo(tmp_path, "cycle12")
    assert _listed(repo, "Ada")["cycle12.move"] == ["Ada has ascended and left the map [rule: Nomsters → Actions → "
                                                    "Ascend]"]
