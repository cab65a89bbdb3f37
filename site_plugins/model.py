"""A game as the wiki sees it: its files, and every state along its action log.

The timeline is the replay of ``content/<game>/actions/`` from ``initial/`` (and
its founding configuration, ``initial/game.yaml``, where the game has one) with
the engine's own judge (``validators.judge.judge_one``), so the wiki shows what
``nomic check`` accepts. A game without an ``initial/`` folder has no timeline:
its pages show the current state and the action files as recorded.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from validators import checkpoint
from validators.content import GameFiles, WorkTree, games, load_game, read_action
from validators.engine import State
from validators.judge import judge_one
from validators.problems import BadInput
from validators.timeutil import parse_time


@dataclass
class Entry:
    """One action of the log: its record, the state before and after, and what the engine recorded."""

    path: str  # content/<game>/actions/<file>.yaml
    record: dict[str, Any]
    before: State | None = None  # None when the game has no initial/ (no replay)
    after: State | None = None
    events: list[dict[str, Any]] = field(default_factory=list)  # scheduled events fired before it

    @property
    def at(self) -> datetime:
        return parse_time(self.record.get("at", "1970-01-01T00:00:00Z"))

    @property
    def actor(self) -> str:
        return str(self.record.get("actor", ""))

    @property
    def name(self) -> str:
        return str(self.record.get("action", ""))

    @property
    def file(self) -> str:
        return self.path.rsplit("/", 1)[-1]

    @property
    def anchor(self) -> str:
        return "a-" + self.file[: -len(".yaml")].replace(".", "-").lower()


@dataclass
class Game:
    """One game: its files as read, and its timeline (empty ``entries`` means no actions)."""

    name: str
    files: GameFiles
    initial: State | None
    entries: list[Entry]
    replayed: bool  # whether the entries carry states (all but the first ``held``)
    problems: list[str] = field(default_factory=list)
    held: int = 0  # the actions a checkpoint holds (initial/checkpoint.yaml): first in the log, with no states
    checkpoint: dict[str, Any] | None = None  # that checkpoint's record (through, at, by, why ...)

    @property
    def state(self) -> State:
        return self.files.state

    @property
    def root(self) -> str:
        return self.files.root

    @property
    def title(self) -> str:
        return str(self.state.config.get("name", self.name))

    def last(self) -> Entry | None:
        return self.entries[-1] if self.entries else None


# (resolved repository root, game) -> what ``check_repo(keep=...)`` kept: set by ``nomic build`` just before
# MkDocs runs in the same process, used once, so that the log is replayed once.
PRELOADED: dict[tuple[str, str], Any] = {}


def preload(root: Path, kept: dict[str, Any]) -> None:
    for name, value in kept.items():
        PRELOADED[(str(Path(root).resolve()), name)] = value


def load(root: Path, name: str, *, replay: bool = True) -> Game:
    """Read one game and replay its log. Raises BadInput when its files do not load."""
    kept = PRELOADED.pop((str(Path(root).resolve()), name), None)
    if kept is not None and replay:
        files, initial, timeline, held, cp = kept
        entries = [Entry(path, record) for path, record in held]
        entries += [Entry(path, record, before, applied.state, applied.events)
                    for path, record, before, applied in timeline]
        return Game(name, files, initial, entries, replayed=True, problems=[], held=len(held), checkpoint=cp)
    source = WorkTree(root)
    files = load_game(source, name)
    initial: State | None = None
    entries: list[Entry] = []
    problems: list[str] = []
    cp = None
    if replay and source.list(f"content/{name}/initial"):
        founding = load_game(source, name, part="initial/", registry=files.registry)
        initial = founding.state
        cp, held, wrong = checkpoint.settled(source, files, founding)
        if cp is not None:  # the actions it holds are shown as recorded: the replay starts after them
            entries = [] if wrong else [Entry(path, record) for path, record in held]
            problems += [f"{p.file}: {p.message}" for p in wrong]
            if wrong:
                initial = None
    start = len(entries)
    state = initial
    texts: dict[str, str] = {}
    for path in files.actions[start:]:
        try:
            record = read_action(source, path, texts)
        except BadInput as e:
            problems.append(f"{path}: {e.problems[0].message if e.problems else 'unreadable'}")
            continue
        entry = Entry(path, record)
        if state is not None:
            step = judge_one(files.registry, state, record, path, texts.get(path), check_recorded=False)
            if step.legal and step.applied is not None:
                entry.before, entry.after, entry.events = state, step.applied.state, step.applied.events
                state = step.applied.state
            else:
                problems.append(f"{path}: {step.problems[0].message if step.problems else 'illegal'}; "
                                "the wiki shows the history up to here")
                state = None
        entries.append(entry)
    return Game(name, files, initial, entries, replayed=initial is not None and not problems, problems=problems,
                held=start, checkpoint=cp if start else None)


def load_all(root: Path, *, replay: bool = True) -> list[Game]:
    return [load(root, name, replay=replay) for name in games(WorkTree(root))]
