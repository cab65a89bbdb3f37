"""Time as the glossaries define it: UTC days, Monday-to-Sunday weeks, limits.

BlogNomic's glossary (seed 001, "Day", "Week", "Daily Action", "Weekly
Action"): a day starts at 00:00:00 GMT; a week runs from the start of Monday
to the end of Sunday; a daily action may be taken once each day but not more
than once every six hours; a weekly action once each week but not more than
once every twenty-four hours.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from functools import lru_cache
from typing import Iterable

UTC = timezone.utc
_STAMP = re.compile(r"^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(Z|[+-]00:?00)?$")


def parse_time(text: str) -> datetime:
    """An ISO 8601 UTC time: 2026-11-22T10:15:00Z. Raises ValueError."""
    if isinstance(text, datetime):
        return text.astimezone(UTC) if text.tzinfo else text.replace(tzinfo=UTC)
    if type(text) is str:
        return _parse_text(text)  # a replay parses each action's time several times: remembered
    return _parse_text(str(text))


@lru_cache(maxsize=4096)
def _parse_text(text: str) -> datetime:
    m = _STAMP.match(text.strip())
    if not m:
        raise ValueError(f"{text!r} is not a UTC time like 2026-11-22T10:15:00Z")
    y, mo, d, h, mi, s = (int(x) for x in m.groups()[:6])
    return datetime(y, mo, d, h, mi, s, tzinfo=UTC)


_GIVEN = re.compile(r"^(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?)([+-])(\d{2}):?(\d{2})?$")


_FRACTION = re.compile(r"(?<=:\d{2})\.(\d+)")


def parse_given_time(text: str) -> datetime:
    """A time given on the command line: a UTC time as ``parse_time`` reads it, or one with an explicit offset
    (2026-11-22T11:15:00+01:00), converted to UTC. Records are never read this way: they hold UTC with a Z.
    Raises ValueError."""
    frac = _FRACTION.search(text.strip())
    if frac and frac.group(1).strip("0"):  # once cut to whole seconds without a word
        whole = text.strip()[:frac.start()] + text.strip()[frac.end():]
        raise ValueError(f"{text!r} has a fraction of a second; the game's files hold whole seconds: write {whole}")
    m = _GIVEN.match(text.strip())
    if m is None:
        stamp = _STAMP.match(text.strip())
        if not stamp:
            raise ValueError(f"{text!r} is not a UTC time like 2026-11-22T10:15:00Z, nor a time with its offset "
                             f"like 2026-11-22T11:15:00+01:00{_meant(text.strip())}")
        if stamp.group(7) is None:
            # once taken for UTC: a player who typed their own clock's time acted hours away from it
            local = text.strip().replace(" ", "T", 1)
            raise ValueError(f"{text!r} says no time zone: write {local}Z for UTC, or add your offset, like "
                             f"{local}+01:00")
        return _held(text, _on_the_calendar(text, text))
    local, sign, hh, mm = m.group(1), m.group(2), int(m.group(3)), int(m.group(4) or 0)
    if hh > 23 or mm > 59:
        raise ValueError(f"{text!r}: the offset {sign}{m.group(3)}:{m.group(4) or '00'} is not a time zone's "
                         "(at most 23:59 from UTC)")
    offset = timedelta(hours=hh, minutes=mm) * (1 if sign == "+" else -1)
    try:
        return _held(text, _on_the_calendar(text, local + "Z") - offset)
    except OverflowError:  # 0001-01-01T00:00:00+05:00 is before the first day a date can hold
        raise ValueError(f"{text!r} is not a time the game's files can hold (years 1000 to 9999, in UTC)") from None


def _held(given: str, t: datetime) -> datetime:
    """``t``, a time given on the command line, if the files can hold it: common.schema.json's ``time`` writes the
    years 1000 to 9999 (a game founded in the year 1 failed inside the judge, a week before it)."""
    if not 1000 <= t.year <= 9999:
        raise ValueError(f"{given!r} is not a time the game's files can hold (years 1000 to 9999, in UTC)")
    return t


_SHORT = re.compile(r"^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2})(?::(\d{2}))?)?(Z|[+-]\d{2}:\d{2})?$")


def _meant(text: str) -> str:
    """"; did you mean ...?" for a time written short (no seconds, a blank for the T, a day alone): the full
    form, in UTC unless an offset was given."""
    m = _SHORT.match(text)
    if not m:
        return ""
    return f"; did you mean {m.group(1)}T{m.group(2) or '00:00'}:{m.group(3) or '00'}{m.group(4) or 'Z'}?"


def _on_the_calendar(given: str, text: str) -> datetime:
    """``parse_time(text)``, saying which time typed is not on the calendar (2026-13-01: month must be in 1..12)."""
    try:
        return parse_time(text)
    except ValueError as e:
        raise ValueError(f"{given!r} is not a time of the calendar: {e}") from None


@lru_cache(maxsize=4096)  # a replay formats each action's time several times
def format_time(t: datetime) -> str:
    if t.tzinfo is UTC:  # the usual case, without strftime (the same text)
        return f"{t.year:04d}-{t.month:02d}-{t.day:02d}T{t.hour:02d}:{t.minute:02d}:{t.second:02d}Z"
    return t.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def file_stamp(at: str) -> str:
    """The time as an action file's name gives it: 2026-11-22T10:15:00Z -> 20261122T101500Z."""
    t = parse_time(at)  # refuses an impossible date (remembered, so cheap on a replay)
    if len(at) == 20 and _CANONICAL.match(at):
        return at[0:4] + at[5:7] + at[8:10] + "T" + at[11:13] + at[14:16] + at[17:19] + "Z"
    return t.strftime("%Y%m%dT%H%M%SZ")


_CANONICAL = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$")


def day_start(t: datetime) -> datetime:
    return t.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)


def week_start(t: datetime) -> datetime:
    """The start of the Monday that begins ``t``'s week."""
    d = day_start(t)
    return d - timedelta(days=d.weekday())


def next_weekly(after: datetime, weekday: int = 0, hour: int = 0, minute: int = 0, second: int = 0) -> datetime:
    """The first moment strictly after ``after`` that is weekday/hour:minute:second (Monday is 0)."""
    base = week_start(after) + timedelta(days=weekday, hours=hour, minutes=minute, seconds=second)
    while base <= after:
        base += timedelta(days=7)
    return base


def next_daily(after: datetime, hour: int = 0, minute: int = 0, second: int = 0) -> datetime:
    base = day_start(after) + timedelta(hours=hour, minutes=minute, seconds=second)
    while base <= after:
        base += timedelta(days=1)
    return base


# Frequencies: (period start function, minimum gap between two takings).
FREQUENCIES = {
    "daily": (day_start, timedelta(hours=6)),
    "weekly": (week_start, timedelta(hours=24)),
}


def frequency_violation(kind: str, previous: Iterable[datetime], now: datetime) -> str | None:
    """Why an action limited to ``kind`` may not be taken at ``now``, or None."""
    period, gap = FREQUENCIES[kind]
    start = period(now)
    for t in previous:
        if t >= start:
            return f"already taken this {'day' if kind == 'daily' else 'week'} (at {format_time(t)})"
        if now - t < gap:
            hours = int(gap.total_seconds() // 3600)
            return f"taken at {format_time(t)}; a {kind} action needs {hours} hours between takings"
    return None


def hours(n: float) -> timedelta:
    return timedelta(hours=n)


def to_roman(n: int) -> str:
    if n <= 0:
        raise ValueError("Roman numerals start at 1")
    out = ""
    for value, letters in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
                           (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while n >= value:
            out += letters
            n -= value
    return out
