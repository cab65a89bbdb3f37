"""The commands README.md and docs/ show: each `nomic act` example names an action of its game and a player on
its roster (or a placeholder: NAME, LOGIN), so a reader who copies one is told about the game, not about a name
that never was."""

from __future__ import annotations

import re
import shlex

from tests.gitgame import EXAMPLE_GAMES, ROOT
from validators.content import WorkTree, load_game
from validators.modules import all_modules

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


# docs/modules/<module>.md for each module the engine finds (a new module is asked for its page without a word
# here): the prefix of the actions it registers ("core." for the BlogNomic core)
MODULE_DOCS = {name: f"{module.actions[0].name.split('.')[0]}." for name, module in all_modules().items()}
NAMED = re.compile(r"\b((?:" + "|".join(sorted({"engine", *MODULE_DOCS, *(p[:-1] for p in MODULE_DOCS.values())}))
                   + r")\.[a-z0-9]+(?:-[a-z0-9]+)*)\b")


def _registered():
    """Every action and scheduled event of the example games' modules, by name."""
    actions, events = {}, set()
    for game in EXAMPLE_GAMES:
        registry = load_game(WorkTree(ROOT), game).registry
        actions.update(registry.actions)
        events.update(e.name for e in registry.events)
    return actions, events


def test_each_module_page_names_every_action_of_its_module_and_its_tables_no_other():
    """A module's page lists its actions (in a table, or rule by rule): one the module registers and the page never
    names is an action a reader cannot learn of; one a table of actions names that no module registers is gone."""
    actions, events = _registered()
    wrong = []
    for module, prefix in MODULE_DOCS.items():
        path = ROOT / "docs" / "modules" / f"{module}.md"
        text = path.read_text(encoding="utf-8")
        named = set(NAMED.findall(text))
        wrong += [f"{path.name}: never names {name}" for name in sorted(actions)
                  if name.startswith(prefix) and name not in named]
        for line in text.splitlines():
            if line.startswith("| `") and line.count("|") >= 4:  # a table row whose first cell is code: an action's
                first = line.split("|")[1]
                wrong += [f"{path.name}: the table names {name}, which no module registers"
                          for name in NAMED.findall(first) if name not in actions and name not in events]
    assert not wrong, "\n".join(wrong)


def test_the_quick_start_is_two_make_targets_of_the_makefile():
    """README.md's quick start is two commands, each a target of the Makefile: one builds the wiki, one runs the
    tests (each setting itself up)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.split("## Getting started: the quick start", 1)[1]
    block = start.split("```sh\n", 1)[1].split("```", 1)[0]
    assert block.split("\n")[:-1] == ["make wiki", "make test"]
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipes = dict(re.findall(r"^([a-z]+): [^\n]*\n((?:\t[^\n]*\n)+)", makefile, re.M))
    assert "nomic build" in recipes["wiki"] and "bytecode" in makefile.split("\nwiki:", 1)[1].split("\n", 1)[0]
    assert "pytest" in recipes["test"] and "setup-chromium" in recipes["test"]
    assert "-m venv" in makefile and "pip install" in makefile  # the set-up both go through (setup, bytecode)
