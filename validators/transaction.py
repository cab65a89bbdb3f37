"""Writing several files as one: all of them change, or none do.

Each new text is first written beside its target as a temporary file and
synced; then a journal naming every (temporary, target) pair is written
atomically; then the temporaries are renamed over their targets; then the
journal is removed. A run killed before the journal exists leaves only
temporaries (removed by the next run); killed after, the next run finishes
the renames. A lock file keeps two writers apart.
"""

from __future__ import annotations

import fcntl
import json
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from .problems import BAD_INPUT, BadInput, Problem
from .yamlio import write_atomic

JOURNAL = ".nomic-journal.json"
LOCK = ".nomic.lock"


@contextmanager
def locked(folder: Path, wait: bool = False) -> Iterator[None]:
    folder.mkdir(parents=True, exist_ok=True)
    fd = os.open(folder / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            raise BadInput(Problem("another nomic command is writing this game; try again when it has finished",
                                   str(folder), kind=BAD_INPUT)) from None
        recover(folder)
        yield
    finally:
        os.close(fd)


def recover(folder: Path) -> bool:
    """Finish an interrupted write, or clear its leftovers. True if a write was finished."""
    journal = folder / JOURNAL
    finished = False
    if journal.exists():
        try:
            pairs = json.loads(journal.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            pairs = None  # the journal is written atomically, so this is not ours: leave it be
        if pairs is not None:
            for tmp, final in pairs:
                if os.path.exists(tmp):
                    os.replace(tmp, final)
            journal.unlink()
            finished = True
    for stray in folder.rglob(".*.nomic-tmp"):
        stray.unlink()
    return finished


def write_all(folder: Path, texts: dict[Path, str]) -> None:
    """Replace every file in ``texts`` together (call inside ``locked``)."""
    pairs = []
    for path, text in texts.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.parent / f".{path.name}.nomic-tmp"
        with open(tmp, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        pairs.append((str(tmp), str(path)))
    write_atomic(folder / JOURNAL, json.dumps(pairs))
    for tmp, final in pairs:
        os.replace(tmp, final)
    (folder / JOURNAL).unlink()
