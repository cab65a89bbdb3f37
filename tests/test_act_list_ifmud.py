"""``nomic act ifmud --list``: what an ifMUD player may do now, as the judge finds it (ifMUD seed, 002). An action that
takes parameters is said not to be possible when no value would do (``Action.ready``): not the player's turn
(Rule 27), nothing to act with or on (no token carried, no proposal pending, no uplink held, no gift had)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from tests.gitgame import make_repo
from validators.act import act, available
from validators.timeutil import parse_time

NOW = parse_time("2026-11-22T12:00:00Z")


def _at(minutes: int):
    return NOW + timedelta(minutes=minutes)


def _listed(repo: Path, who: str, minutes: int = 0) -> dict[str, list[str]]:
    return {a.name: a.why_not for a in available(repo, "ifmud", who, _at(minutes))}


def _act(repo: Path, action: str, who: str, params: dict, minutes: int, *, legal: bool = True) -> list[str]:
    r = act(repo, "ifmud", action, who, params, _at(minutes), now=_at(minutes))
    why = [p.message for p in r.step.problems]
    assert r.step.legal is legal and bool(r.written) is legal, (action, who, params, why)
    return why


def test_the_list_finds_whose_turn_it_is_as_the_judge_does(tmp_path):
    """Rule 27: a turn ends by itself a day after it began, and the next player's begins then. The example's last
    action was on 2026-11-05; by 2026-11-22 many turns have run out, each at its own time, and it is Zoe
    Abbott's turn. The list once let every overdue turn end at the time asked about, and named Adam Biltcliffe."""
    repo = make_repo(tmp_path, "ifmud")
    assert _listed(repo, "Zoe Abbott")["ifmud.end-turn"] == []
    assert _listed(repo, "Adam Biltcliffe")["ifmud.end-turn"] == ["it is Zoe Abbott's turn, not Adam Biltcliffe's"]
    adam = _listed(repo, "Adam Biltcliffe")
    assert adam["ifmud.xyzzy"] == ["it is Zoe Abbott's turn, not Adam Biltcliffe's (Rule 27)"]
    assert _act(repo, "ifmud.end-turn", "Adam Biltcliffe", {}, 0, legal=False) == [
        "it is Zoe Abbott's turn, not Adam Biltcliffe's"]
    _act(repo, "ifmud.end-turn", "Zoe Abbott", {}, 0)
    assert _listed(repo, "Adam Biltcliffe", 1)["ifmud.end-turn"] == []
