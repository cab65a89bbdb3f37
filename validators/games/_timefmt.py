"""Times as the wiki shows them (all UTC, as the games keep them): for the wiki and for the modules' pages.

Nothing here may import the wiki (site_plugins); the wiki imports this. ``time_md`` is for the modules' Markdown
pages; the wiki writes its own ``<time>`` elements in HTML.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime

from validators.timeutil import format_time, parse_time

from ._markup import esc, md

_DATE = re.compile(r"\d{4}-\d\d-\d\d")  # a day alone, as some games keep one (Quazie's tag days)


def _t(value: object) -> datetime | None:
    """The time ``value`` is (a stamp, a datetime, or a day alone, read as its midnight), or None."""
    if isinstance(value, str) and _DATE.fullmatch(value.strip()):
        value = f"{value.strip()}T00:00:00Z"
    try:
        return parse_time(value)  # type: ignore[arg-type]
    except (ValueError, TypeError):
        return None


def day(value: object) -> str:
    """'3 Nov 2026'."""
    t = _t(value)
    return f"{t.day} {t.strftime('%b %Y')}" if t else str(value or "")


def when(value: object) -> str:
    """'3 Nov 2026 08:00 UTC'."""
    t = _t(value)
    return f"{t.day} {t.strftime('%b %Y %H:%M')} UTC" if t else str(value or "")


def hours(delta_hours: float) -> str:
    """A duration in words: '5 h', '2 d 3 h'."""
    h = int(round(delta_hours))
    if h < 48:
        return f"{h} h"
    return f"{h // 24} d {h % 24} h" if h % 24 else f"{h // 24} d"


def time_md(value: object, show: Callable[[object], str] = when) -> str:
    """A time in a module's Markdown page (a table cell, a sentence): written as ``show`` writes it (``when``,
    or ``day``), in a ``<time>`` element that keeps the exact stamp for a reader who needs it (its ``title``,
    shown on hover) and for the machine (its ``datetime``); a day alone (``2026-11-05``) is kept as one. What is no
    time is written as it is, through ``md``."""
    t = _t(value)
    if t is None:
        return md(value)
    bare = isinstance(value, str) and _DATE.fullmatch(value.strip())
    stamp = value.strip() if bare else format_time(t)  # a day alone is kept as the day it is
    return f'<time datetime="{stamp}" title="{stamp}">{esc(show(t))}</time>'
