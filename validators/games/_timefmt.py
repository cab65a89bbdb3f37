"""Times as the wiki shows them (all UTC, as the games keep them): for the wiki and for the modules' pages.

Nothing here may import the wiki (site_plugins); the wiki imports this.
"""

from __future__ import annotations

from datetime import datetime

from validators.timeutil import parse_time


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
