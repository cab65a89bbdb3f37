"""Times as the wiki shows them (all UTC, as the games keep them): for the wiki and for the modules' pages.

Nothing here may import the wiki (site_plugins); the wiki imports this. ``time_md`` is for the modules' Markdown
pages; the wiki writes its own ``<time>`` elements in HTML.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from validators.timeutil import format_time, parse_time

from ._markup import esc, md


def _t(value: object) -> datetime | None:
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
    shown on hover) and for the machine (its ``datetime``). What is no time is written as it is, through ``md``."""
    t = _t(value)
    if t is None:
        return md(value)
    stamp = format_time(t)
    return f'<time datetime="{stamp}" title="{stamp}">{esc(show(t))}</time>'
