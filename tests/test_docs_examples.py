"""The commands README.md and docs/ show: each `nomic act` example names an action of its game and a player on
its roster (or a placeholder: NAME, LOGIN), so a reader who copies one is told about the game, not about a name
that never was."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from validators.content import WorkTree, load_game

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = re.compile(r"nomic act ([a-z0-9]+) ([a-z0-9.-]+)((?:[^`#\n]|\\\n)*?"
                     r"--as (?:\"[^\"]*\"|'[^']*'|[A-Za-z0-9_-]+))")
PLACEHOLDERS = {"NAME", "LOGIN", "GAME"}


def _examples():
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        for m in EXAMPLE.finditer(path.read_text(encoding="utf-8")):
            yield path.relative_to(ROOT).as_posix(), m.group(1), m.group(2), m.group(0)


def test_every_nomic_act_example_names_an_action_and_a_player_of_its_game():
    games = {}
    wrong = []
    seen = 0
    for where, game, action, text in _examples():
        if game in PLACEHOLDERS or not (ROOT / "content" / game / "game.yaml").is_file():
            continue  # a game the example creates first (nomic new pirates)
        seen += 1
        files = games.get(game) or games.setdefault(game, load_game(WorkTree(ROOT), game))
        words = shlex.split(text.replace("\\\n", " "))
        actor = words[words.index("--as") + 1]
        if not action.startswith("-") and action not in files.registry.actions:
            wrong.append(f"{where}: {text!r}: {game} has no action {action}")
        if actor not in PLACEHOLDERS and files.state.player(actor) is None:
            wrong.append(f"{where}: {text!r}: {actor} is not on {game}'s roster")
    assert seen >= 10
    assert not wrong, "\n".join(wrong)
