"""Writing several files as one: all of them change, or none do.

Each new text is first written beside its target as a temporary file and
synced; then a journal naming every (temporary, target) pair is written
atomically; then the temporaries are renamed over their targets; then the
journal is removed. A run killed before the journal exists leaves only
temporaries (removed by the next run); killed after, the next run finishes
the renames. A lock file keeps two writers apart.

For the fault tests only, the environment variable ``NOMIC_FAULT`` makes a
run die (``os._exit``, as abruptly as SIGKILL) at a chosen point:
``temp:N`` after writing N temporaries, ``journal`` once the journal is
written, ``rename:N`` after N renames; ``pause:SECONDS`` sleeps while holding
the lock, after the journal (so a second writer can be shown to be kept out).
"""

from __future__ import annotations

import fcntl
import json
import os
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from .problems import BAD_INPUT, BadInput, Problem
from .yamlio import write_atomic

JOURNAL = ".nomic-journal.json"
LOCK = ".nomic.lock"  # no longer written; an old one left in a game folder is ignored


@contextmanager
def locked(folder: Path, wait: bool = False) -> Iterator[list[Path]]:
    """Hold the game's lock; yields the files an interrupted earlier write was finished with (if any)."""
    folder.mkdir(parents=True, exist_ok=True)
    # The lock is held on the game's folder itself, so locking leaves no file behind in content/.
    fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            raise BadInput(Problem("another nomic command is writing this game; try again when it has finished",
                                   str(folder), kind=BAD_INPUT)) from None
        yield recover(folder)
    finally:
        os.close(fd)


def recover(folder: Path) -> list[Path]:
    """Finish an interrupted write, or clear its leftovers. Returns the files that write changed."""
    journal = folder / JOURNAL
    finished: list[Path] = []
    if journal.exists():
        try:
            pairs = json.loads(journal.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            pairs = None  # the journal is written atomically, so this is not ours: leave it be
        if pairs is not None:
            pairs = _safe_pairs(folder, pairs)
            for tmp, final in pairs:
                if tmp.exists() and not tmp.is_symlink():
                    os.replace(tmp, final)
            journal.unlink()
            finished = [final for _, final in pairs]
    for stray in folder.rglob(".*.nomic-tmp"):
        stray.unlink()
    for stray in folder.glob(f".{JOURNAL}.*.tmp"):  # a journal that was being written when the run died
        stray.unlink()
    return finished


def _safe_pairs(folder: Path, pairs: object) -> list[tuple[Path, Path]]:
    """The journal's renames, each checked to stay inside the game's folder.

    A journal could arrive by ``git pull`` (someone committed one): it must not be able
    to rename a file of its choosing over any file of the player's machine. Each pair is a
    temporary ``.<name>.nomic-tmp`` and the file ``<name>`` beside it, under ``folder``,
    with no symbolic link on the way; anything else is ignored.
    """
    out: list[tuple[Path, Path]] = []
    if not isinstance(pairs, list):
        return out
    top = folder.resolve()
    for pair in pairs:
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)):
            continue
        final = (folder / pair[1]) if not os.path.isabs(pair[1]) else Path(pair[1])
        tmp = (folder / pair[0]) if not os.path.isabs(pair[0]) else Path(pair[0])
        if tmp.parent != final.parent or tmp.name != f".{final.name}.nomic-tmp":
            continue
        try:
            parent = final.parent.resolve(strict=True)
        except OSError:
            continue
        if parent != top and top not in parent.parents:
            continue
        if final.is_symlink() or ".." in Path(pair[1]).parts:
            continue
        out.append((parent / tmp.name, parent / final.name))
    return out


def _fault(point: str, n: int = 0) -> None:
    """The test hook described in the module's docstring; does nothing unless NOMIC_FAULT is set."""
    spec = os.environ.get("NOMIC_FAULT")
    if not spec:
        return
    kind, _, arg = spec.partition(":")
    if kind == "pause" and point == "journal":
        time.sleep(float(arg or 1))
    elif kind == point and (not arg or int(arg) == n):
        os._exit(137)


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
        pairs.append((os.path.relpath(tmp, folder), os.path.relpath(path, folder)))
        _fault("temp", len(pairs))
    write_atomic(folder / JOURNAL, json.dumps(pairs))
    _fault("journal")
    for i, (tmp, final) in enumerate(pairs, 1):
        os.replace(folder / tmp, folder / final)
        _fault("rename", i)
    (folder / JOURNAL).unlink()
    _sync_dir(folder)


def _sync_dir(folder: Path) -> None:
    """Make the renames durable (a power cut after this leaves the new files)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
