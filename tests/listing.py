"""What the tests of ``nomic act GAME --list`` share: the list for a player, the judge's verdict on every value a
player could give, actions taken and documents edited by hand on a copy of an example game."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Callable

from tests.test_act_list import _values
from validators import yamlio
from validators.act import act, available
from validators.content import WorkTree, load_game
from validators.engine import advance
from validators.judge import judge_one
from validators.timeutil import format_time


def listed(repo: Path, game: str, who: str, at: datetime) -> dict[str, list[str]]:
    """Each action's reasons for a "no" (none for a "yes"), as ``nomic act GAME --list --as who`` gives them."""
    return {a.name: a.why_not for a in available(repo, game, who, at)}


def refused_whatever_the_values(repo: Path, game: str, who: str, action: str, at: datetime) -> None:
    """The judge refuses ``action`` by ``who`` at ``at`` for every value a player could give."""
    files = load_game(WorkTree(repo), game)
    state, _ = advance(files.registry, files.state, at)
    schema = files.registry.actions[action].params
    combos: list[dict] = [{}]
    for name in schema["required"]:
        combos = [{**c, name: v} for c in combos for v in _values(state, name, schema["properties"][name])]
    for params in combos:
        record = {"at": format_time(at), "actor": who, "action": action, "params": params}
        assert not judge_one(files.registry, files.state, record, "", now=at, check_recorded=False).legal, params


def take(repo: Path, game: str, action: str, who: str, params: dict, minutes: int, at: datetime) -> None:
    """``who`` takes ``action`` ``minutes`` before ``at``, with ``nomic act``."""
    when = at - timedelta(minutes=minutes)
    r = act(repo, game, action, who, params, when, now=when)
    assert r.step.legal and r.written, r.step.problems


def edit(repo: Path, game: str, doc: str, change: Callable[[Any], None]) -> None:
    """Change a gamestate document by hand, as a proposal's patch may leave it."""
    path = repo / "content" / game / "gamestate" / f"{doc}.yaml"
    tree = yamlio.rt_load(path.read_text(), str(path))
    change(tree)
    path.write_text(yamlio.rt_dump(tree))


class Game:
    """The helpers above for one game, at the test module's time unless told another: ``listing.Game(GAME, NOW)``."""

    def __init__(self, game: str, now: datetime):
        self.game, self.now = game, now

    def listed(self, repo: Path, who: str, at: datetime | None = None) -> dict[str, list[str]]:
        return listed(repo, self.game, who, at or self.now)

    def refused_whatever_the_values(self, repo: Path, who: str, action: str, at: datetime | None = None) -> None:
        refused_whatever_the_values(repo, self.game, who, action, at or self.now)

    def take(self, repo: Path, action: str, who: str, params: dict, minutes: int, at: datetime | None = None) -> None:
        take(repo, self.game, action, who, params, minutes, at or self.now)

    def edit(self, repo: Path, doc: str, change: Callable[[Any], None]) -> None:
        edit(repo, self.game, doc, change)
