"""The readings this module lets a game choose (game.yaml ``options.monkey``); see docs/modules/monkey.md."""

from __future__ import annotations

from typing import Any

DEFAULTS: dict[str, Any] = {
    # The Hat hammer's last sentence, "Increase the number of bananas ... by 2": after every row of the
    # table ("every-case"), or only after the Bare row it follows ("bare-only").
    "hat_hammer_bonus": "every-case",
    # "Change hat" moves one step down the Hat List; a Bare Monkey has no place on it. "first-hat": e puts
    # on the first hat of the list (as the Hat hammer does for the Bare); "nothing": nothing happens.
    "bare_change_hat": "first-hat",
    # "If no other Monkey has done so within the last forty eight hours": "anyone" reads it as no dance at
    # all in the last 48 hours; "others" lets the same Monkey conduct again sooner.
    "dance_cooldown": "anyone",
    # Awesomeness posts pass with "more than a quorum" FOR ("more-than-quorum") or with a quorum ("quorum").
    "awesomeness_pass": "more-than-quorum",
}

CHOICES: dict[str, tuple[str, ...]] = {
    "hat_hammer_bonus": ("every-case", "bare-only"),
    "bare_change_hat": ("first-hat", "nothing"),
    "dance_cooldown": ("anyone", "others"),
    "awesomeness_pass": ("more-than-quorum", "quorum"),
}


# checked with game.yaml, each option at its own line (``options.monkey.KEY``), before any rule reads one
OPTIONS_SCHEMA: dict[str, Any] = {"type": "object", "additionalProperties": False,
                                  "properties": {key: {"enum": list(choices)} for key, choices in CHOICES.items()}}


def options(config: dict[str, Any]) -> dict[str, Any]:
    chosen = dict(config.get("options", {}).get("monkey", {}))
    for key, value in chosen.items():
        if key not in DEFAULTS:
            raise ValueError(f"unknown option monkey.{key} (known: {', '.join(DEFAULTS)})")
        if value not in CHOICES[key]:
            raise ValueError(f"option monkey.{key} is {value!r}; choose one of {', '.join(CHOICES[key])}")
    return {**DEFAULTS, **chosen}
