"""Cycle 12's calendar, as pure functions ("Time" in the seed).

All times are UTC; a day starts at 00:00; a week starts on Monday. Each week
has two phases: Monday-Wednesday and Thursday-Sunday. Phases are numbered
with successive Roman numerals; the phase that holds the cycle's start is
Phase I. The cycle ends at the end of phase XXXX (forty; the seed writes it
additively, we print the standard form XL).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from ...timeutil import day_start, to_roman, week_start

THURSDAY = 3  # datetime.weekday() of the first day of a week's second phase


def phase_start(t: datetime) -> datetime:
    """The first instant of the phase that holds ``t``."""
    monday = week_start(t)
    return monday if day_start(t).weekday() < THURSDAY else monday + timedelta(days=THURSDAY)


def next_phase_start(t: datetime) -> datetime:
    """The first phase start strictly after ``t`` (Monday or Thursday, 00:00 UTC)."""
    start = phase_start(t)
    monday = week_start(t)
    return monday + timedelta(days=THURSDAY) if start == monday else monday + timedelta(days=7)


def phase_number(t: datetime, cycle_start: datetime) -> int:
    """Which phase of the cycle ``t`` falls in: 1 for Phase I. Before the cycle starts: 0."""
    if t < cycle_start:
        return 0
    first, here = phase_start(cycle_start), phase_start(t)
    weeks = (week_start(here) - week_start(first)).days // 7
    half = lambda s: 0 if s.weekday() < THURSDAY else 1  # noqa: E731
    return 2 * weeks + half(here) - half(first) + 1


def phase_bounds(n: int, cycle_start: datetime) -> tuple[datetime, datetime]:
    """(first instant, first instant after) of phase ``n`` (1-based). Phase I starts at the cycle's start."""
    if n < 1:
        raise ValueError("phases are numbered from I")
    start = phase_start(cycle_start)
    for _ in range(n - 1):
        start = next_phase_start(start)
    end = next_phase_start(start)
    return (cycle_start if n == 1 else start), end


def phase_name(n: int) -> str:
    return f"Phase {to_roman(n)}"


def cycle_end(cycle_start: datetime, last_phase: int = 40) -> datetime:
    """The end of the cycle: the first instant after its last phase ("The End of All Things")."""
    return phase_bounds(last_phase, cycle_start)[1]


def phase_days(n: int, cycle_start: datetime) -> list[str]:
    """The days of phase ``n``, as weekday names, for pages and docs."""
    start, end = phase_bounds(n, cycle_start)
    days, d = [], day_start(start)
    while d < end:
        days.append(d.strftime("%A"))
        d += timedelta(days=1)
    return days
