"""Cycle 12's numbers and the readings this module chose, as game options.

A game sets them in ``game.yaml``::

    options:
      cycle12: {start: 2026-11-02T00:00:00Z, separator: "→"}

Every option has a default that follows the seed (004).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ...timeutil import parse_time

DEFAULTS: dict[str, Any] = {
    "start": "2026-11-02T00:00:00Z",  # when the cycle started (Phase I holds it)
    "last_phase": 40,  # The End of All Things: the end of phase XXXX
    "separator": "→",  # Subrules: punctuation appearing in no rule's title
    "reputable_days": 7,  # Reputability: a player for the last seven days
    "reputable_founding_days": 3,  # ... or since within three days of the cycle's start
    "urgent_days": 2,  # Urgent Proposals: the voting period ends two days after submission
    "urgent_max_against": 2,  # Urgent Proposals: popular with no more than two votes against
    "proposal_points": 1,  # Proposal Points: one point per proposal that takes effect
    "proposal_points_per_phase": 5,  # ... at most five per phase
    "win_points": 1250,  # Good: 1250 points at the Tower of Ferrets wins
    "tower": "Tower of Ferrets",
    "win_ends_cycle": True,  # reading: a win under "Good" ends the cycle
    "founding_name": "Apeiros Village",  # Position Constraints
    "founding_reactions": 5,  # ... deferred until five of the same reaction
    "suggestion_days": 7,  # Creation Constraints: suggestions older than a week cannot be used
    "announcement_reactions": 3,  # Terraforming, Surveying: three reactions complete them
    "announcer_may_react": True,  # reading: the seed does not bar the announcer's own reaction
    "terraform_points": 5,
    "survey_points": 2,
    "lick_points": 5,  # Lick
    "trade_days": 7,  # Trade: both consents within seven days of each other
    "trade_same_location": True,  # reading: a trade is giving, and located entities give only in one place
    "join_team_treat_days": 7,  # Join Team: a treat from that player within the last seven days
    "bond_cuddle_by_anyone": True,  # reading of Lick: "is cuddled" names no cuddler; the first case says trainer
    "overturn_days": 4,  # Overturning: a vote of confidence within four days of a ruling
    "confidence_days": 2,  # ... open for two days
    "removal_assents": 2,  # Judgement: removal with the assent of two players
}


def _schema() -> dict[str, Any]:
    """What game.yaml's ``options.cycle12`` may hold, each option of its default's kind: checked with the file, at
    its line, before a rule reads a number that is text (a ``last_phase: abc`` once failed inside the judge)."""
    props: dict[str, Any] = {}
    for name, value in DEFAULTS.items():
        if name == "start":
            props[name] = {"$ref": "common.schema.json#/$defs/time"}
        elif isinstance(value, bool):
            props[name] = {"type": "boolean"}
        elif isinstance(value, int):
            # The End of All Things: the cycle ends with a phase, and phases are numbered from I (a last phase of 0
            # failed inside the judge, at every phase start); the other numbers may be 0
            props[name] = {"type": "integer", "minimum": 1 if name == "last_phase" else 0}
        else:
            props[name] = {"type": "string", "minLength": 1, "maxLength": 80}
    return {"type": "object", "properties": props, "additionalProperties": False}


OPTIONS_SCHEMA = _schema()

_KNOWN: tuple[Any, ...] = (None, None, None)  # (the game's options, a copy of them, the options they give)


def options(config: dict[str, Any]) -> dict[str, Any]:
    """The options with their defaults. Asked many times an action, of the same game options: the last answer
    is kept while the game's options are the same dict holding the same values. Read it, never change it."""
    global _KNOWN
    given = config.get("options", {}).get("cycle12", {}) or {}
    known_given, known_copy, known = _KNOWN
    if given is known_given and type(given) is dict and given == known_copy:
        return known
    unknown = sorted(set(given) - set(DEFAULTS))
    if unknown:
        raise ValueError(f"unknown cycle12 option(s): {', '.join(unknown)} (known: {', '.join(DEFAULTS)})")
    value = {**DEFAULTS, **given}
    if type(given) is dict:
        _KNOWN = (given, dict(given), value)
    return value


def cycle_start(config: dict[str, Any]) -> datetime:
    value = options(config)["start"]
    return parse_time(value) if not isinstance(value, datetime) else parse_time(value)
