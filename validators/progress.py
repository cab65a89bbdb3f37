"""A progress bar on long runs when a person is watching (stderr is a terminal); nothing otherwise."""

from __future__ import annotations

import os
import sys
import time
from typing import Iterable, Iterator, TypeVar

T = TypeVar("T")


def progress(items: Iterable[T], total: int, label: str, *, minimum: int = 200) -> Iterator[T]:
    stream = sys.stderr
    show = total >= minimum and stream.isatty() and not os.environ.get("CI") and os.environ.get("TERM") != "dumb"
    if not show:
        yield from items
        return
    start = last = time.monotonic()
    width = 30
    for i, item in enumerate(items, 1):
        now = time.monotonic()
        if now - last > 0.1 or i == total:
            filled = width * i // max(total, 1)
            rate = i / max(now - start, 1e-6)
            stream.write(f"\r{label} [{'#' * filled}{'.' * (width - filled)}] {i}/{total} ({rate:.0f}/s)")
            stream.flush()
            last = now
        yield item
    stream.write("\r" + " " * (len(label) + width + 40) + "\r")
    stream.flush()
