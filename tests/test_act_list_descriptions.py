"""Every parameter of every action says what it is: the wiki's Actions page shows its description under "About"
and ``nomic act GAME ACTION --help`` beside it; ``engine.reveal``'s ``secret`` and ``salt`` had none, and their
cells were empty. The registry of every module is walked (the engine's own actions too).

``UNDESCRIBED`` lists the parameters still without one: it may only shrink (a parameter given a description must
leave it; a new parameter without one fails)."""

from __future__ import annotations

from validators.engine import engine_module
from validators.modules import all_modules

UNDESCRIBED = {
    "cycle12.join.account",
    "cycle12.join.token",
    "cycle12.join.card",
    "cycle12.submit-sheet.image",
    "cycle12.submit-sheet.token",
    "cycle12.propose.title",
    "cycle12.propose.class",
    "cycle12.propose.card",
    "cycle12.propose.changes",
    "cycle12.vote.proposal",
    "cycle12.vote.vote",
    "cycle12.edit-proposal.proposal",
    "cycle12.resolve.proposal",
    "cycle12.suggest-location.kind",
    "cycle12.suggest-location.name",
    "cycle12.suggest-location.x",
    "cycle12.suggest-location.y",
    "cycle12.suggest-location.description",
    "cycle12.create-location.suggestion",
    "cycle12.create-location.name",
    "cycle12.create-location.x",
    "cycle12.create-location.y",
    "cycle12.create-location.description",
    "cycle12.create-location.tags",
    "cycle12.react-founding.founding",
    "cycle12.move.to",
    "cycle12.terraform.family",
    "cycle12.terraform.tag",
    "cycle12.survey.family",
    "cycle12.survey.tag",
    "cycle12.react.announcement",
    "cycle12.choose-random.announcement",
    "cycle12.tame.nomster",
    "cycle12.name-nomster.nomster",
    "cycle12.name-nomster.name",
    "cycle12.name-nomster.species",
    "cycle12.name-nomster.species_description",
    "cycle12.name-nomster.portrait",
    "cycle12.name-nomster.card",
    "cycle12.name-nomster.type",
    "cycle12.name-nomster.class",
    "cycle12.set-active.nomster",
    "cycle12.cuddle.nomster",
    "cycle12.cuddle.how",
    "cycle12.give-treat.nomster",
    "cycle12.command.nomster",
    "cycle12.command.command",
    "cycle12.command.target",
    "cycle12.offer-trade.with",
    "cycle12.offer-trade.give",
    "cycle12.offer-trade.get",
    "cycle12.accept-trade.trade",
    "cycle12.rfj.statement",
    "cycle12.rfj.question",
    "cycle12.rfj.sheets",
    "cycle12.judge.rfj",
    "cycle12.judge.judgement",
    "cycle12.judge.reasoning",
    "cycle12.judge.sheets",
    "cycle12.call-confidence.rfj",
    "cycle12.confidence-vote.rfj",
    "cycle12.confidence-vote.vote",
    "cycle12.close-confidence.rfj",
    "cycle12.self-overturn.rfj",
    "cycle12.endorse.candidate",
    "cycle12.request-transcription.sheet",
    "cycle12.transcribe.request",
    "cycle12.transcribe.text",
}


def _params() -> dict[str, dict]:
    return {f"{a.name}.{name}": schema for m in [engine_module(), *all_modules().values()] for a in m.actions
            for name, schema in (a.params.get("properties") or {}).items()}


def test_every_parameter_of_every_action_has_a_description() -> None:
    params = _params()
    missing = {key for key, schema in params.items() if not str(schema.get("description") or "").strip()}
    assert missing <= UNDESCRIBED, f"parameters without a description: {sorted(missing - UNDESCRIBED)}"
    assert not UNDESCRIBED - missing, f"described now, take them off UNDESCRIBED: {sorted(UNDESCRIBED - missing)}"
    for key in ("engine.reveal.secret", "engine.reveal.salt", "engine.reveal.label", "core.vote.vote"):
        assert params[key].get("description"), key


def test_the_actions_page_has_no_empty_about_cell() -> None:
    import re
    from pathlib import Path

    from site_plugins import model
    from site_plugins.pages import build_game
    from validators.timeutil import parse_time

    root = Path(__file__).resolve().parents[1]
    site = build_game(model.load(root, "blognomic"), now=parse_time("2026-11-25T08:00:00Z"))
    page = next(p.content for p in site.pages if p.src == "games/blognomic/actions.md")
    # every row of every parameters table: its last cell, "About" (a BlogNomic game's are the core's and engine's)
    rows = re.findall(r"<tr><td><code>([^<]*)</code></td>(?:<td>.*?</td>){2}<td>(.*?)</td></tr>", page)
    assert len(rows) > 40 and not [name for name, about in rows if not about.strip()], rows
    reveal = page.split('{#action-engine-reveal}')[1].split("</table>")[0]
    assert "the salt <code>nomic hash</code> gave you" in reveal, reveal
