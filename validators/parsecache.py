"""Parsed large content files, remembered on disk by the hash of their text.

A player's commands read the same large documents again and again: ``nomic act``, ``nomic check``
and ``nomic build`` each parse the whole gamestate, and most of it has not changed since the last
command (a Cycle 12 world of 600 KB is a quarter of a second of YAML each time, and 3 ms of JSON).
So ``yamlio.load`` keeps what it made of each file of at least ``MIN_CHARS`` characters, under the
hash of the text and of the loader's own source, and the next command reads that instead.

Why it cannot change a verdict:

* The key is the text itself (BLAKE2b of the loader's source and the text): another text, or a
  loader changed in any way, is another key. A file is kept only after the loader accepted it, so
  a hit is a file that passed every refusal of ``load``; bad input is parsed, and refused, each time.
* The data is kept as JSON, which holds every value a content file can give exactly (string keys,
  strings, integers, floats, true/false, null; ``1`` and ``1.0`` stay apart) and is safe to read
  from a file someone else wrote. An entry that does not read back (cut short, edited by hand) is a
  miss: the file is parsed and the entry written again.
* Nothing about the cache is ever an error: a directory that cannot be written only means parsing.

Where: ``$XDG_CACHE_HOME/nomic/parsed`` (``~/.cache/nomic/parsed``), at most ``MAX_ENTRIES``
files, the least recently used removed first. ``NOMIC_CACHE=off`` turns it off, ``NOMIC_CACHE=<dir>``
puts it elsewhere. It is off by default when ``CI`` is set: a fresh CI machine would only write
entries nobody reads, and a CI cache shared between pull requests is not a place to trust.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

MIN_CHARS = 16 * 1024  # smaller files parse in under 5 ms; a log's 10,000 small files stay uncached
MAX_ENTRIES = 256

_OFF = {"0", "off", "no", "false"}
_ON = {"1", "on", "yes", "true"}
_salt: bytes | None = None


def directory() -> Path | None:
    """Where entries live, or None when the cache is off."""
    setting = os.environ.get("NOMIC_CACHE", "").strip()
    if setting.lower() in _OFF:
        return None
    if setting and setting.lower() not in _ON:
        return Path(setting)
    if not setting and os.environ.get("CI", "").strip().lower() not in ("", "0", "false"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "nomic" / "parsed"


def _loader_salt() -> bytes:
    """The loader's own source: a change to how files are read or refused makes every entry a miss."""
    global _salt
    if _salt is None:
        from . import yamlfast, yamlio

        h = hashlib.blake2b(digest_size=16)
        for module in (yamlio.__file__, yamlfast.__file__, __file__):
            h.update(Path(module).read_bytes())
        _salt = h.digest()
    return _salt


def key(text: str) -> str:
    h = hashlib.blake2b(_loader_salt(), digest_size=20)
    h.update(text.encode("utf-8", "surrogatepass"))
    return h.hexdigest()


MISSING = object()


def get(folder: Path, k: str) -> Any:
    """The data kept under ``k``, or ``MISSING``."""
    path = folder / k
    try:
        with open(path, "rb") as f:
            data = json.loads(f.read())
    except (OSError, ValueError):  # no entry, or one that does not read back: parse again
        return MISSING
    try:
        os.utime(path)  # recently used: pruned last
    except OSError:
        pass
    return data


def put(folder: Path, k: str, data: Any) -> None:
    """Keep ``data`` under ``k`` (atomically: a reader sees the whole entry or none); never fails."""
    from .yamlio import write_atomic

    try:
        text = json.dumps(data, ensure_ascii=True, separators=(",", ":"), allow_nan=False)
        write_atomic(folder / k, text, sync=False)
        _prune(folder)
    except (OSError, ValueError, TypeError, RecursionError):
        return


def _prune(folder: Path) -> None:
    entries = []
    with os.scandir(folder) as it:
        for e in it:
            if not e.name.startswith("."):
                try:
                    entries.append((e.stat().st_mtime, e.path))
                except OSError:
                    pass
    if len(entries) <= MAX_ENTRIES:
        return
    entries.sort()
    for _, path in entries[: len(entries) - MAX_ENTRIES]:
        try:
            os.unlink(path)
        except OSError:
            pass

