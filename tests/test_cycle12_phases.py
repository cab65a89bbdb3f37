"""Cycle 12's calendar ("Time", "The End of All Things"): phases as pure functions."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from validators.games.cycle12 import phases

UTC = timezone.utc


def t(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


START = t("2026-11-02T00:00:00Z")  # a Monday


@pytest.mark.parametrize("when, number", [
    ("2026-11-02T00:00:00Z", 1),   # the start: Phase I (Monday)
    ("2026-11-04T23:59:59Z", 1),   # Wednesday's last second is still Phase I
    ("2026-11-05T00:00:00Z", 2),   # Thursday starts Phase II
    ("2026-11-08T23:59:59Z", 2),   # Sunday ends it
    ("2026-11-09T00:00:00Z", 3),   # next Monday: across the week boundary
    ("2026-11-30T12:00:00Z", 9),   # Monday 30 November
    ("2026-12-01T00:00:00Z", 9),   # across the month boundary, same phase (Tuesday)
    ("2026-12-03T00:00:00Z", 10),  # Thursday 3 December
    ("2027-01-01T00:00:00Z", 18),  # across the year boundary: a Friday
    ("2026-11-01T23:59:59Z", 0),   # before the cycle
])
def test_phase_number_from_a_monday_start(when: str, number: int) -> None:
    assert phases.phase_number(t(when), START) == number


@pytest.mark.parametrize("start, when, number", [
    # a cycle starting on a Saturday: Phase I is the rest of that Thursday-Sunday phase
    ("2026-10-31T15:00:00Z", "2026-11-01T23:59:59Z", 1),
    ("2026-10-31T15:00:00Z", "2026-11-02T00:00:00Z", 2),   # across the month boundary on a Monday
    ("2026-10-31T15:00:00Z", "2026-11-05T00:00:00Z", 3),
    # starting on a Wednesday
    ("2026-09-30T08:00:00Z", "2026-09-30T23:00:00Z", 1),
    ("2026-09-30T08:00:00Z", "2026-10-01T00:00:00Z", 2),   # Thursday 1 October
    ("2026-09-30T08:00:00Z", "2026-10-05T00:00:00Z", 3),
])
def test_phase_number_from_other_starts(start: str, when: str, number: int) -> None:
    assert phases.phase_number(t(when), t(start)) == number


def test_phase_bounds_are_three_and_four_days() -> None:
    a, b = phases.phase_bounds(3, START)
    assert (a, b) == (t("2026-11-09T00:00:00Z"), t("2026-11-12T00:00:00Z"))
    a, b = phases.phase_bounds(4, START)
    assert (a, b) == (t("2026-11-12T00:00:00Z"), t("2026-11-16T00:00:00Z"))
    assert phases.phase_days(4, START) == ["Thursday", "Friday", "Saturday", "Sunday"]


def test_first_phase_starts_at_the_cycle_start() -> None:
    start = t("2026-11-03T10:00:00Z")
    assert phases.phase_bounds(1, start) == (start, t("2026-11-05T00:00:00Z"))


def test_every_instant_of_a_phase_numbers_back_to_it() -> None:
    for n in range(1, 45):
        a, b = phases.phase_bounds(n, START)
        assert phases.phase_number(a, START) == n
        assert phases.phase_number(b, START) == n + 1


def test_next_phase_start() -> None:
    assert phases.next_phase_start(t("2026-11-04T23:59:59Z")) == t("2026-11-05T00:00:00Z")
    assert phases.next_phase_start(t("2026-11-05T00:00:00Z")) == t("2026-11-09T00:00:00Z")
    assert phases.next_phase_start(t("2026-11-29T18:00:00Z")) == t("2026-11-30T00:00:00Z")


def test_names_in_roman_numerals() -> None:
    assert phases.phase_name(1) == "Phase I"
    assert phases.phase_name(4) == "Phase IV"
    assert phases.phase_name(40) == "Phase XL"  # the seed's XXXX


def test_cycle_end_is_the_end_of_phase_forty() -> None:
    end = phases.cycle_end(START)
    assert phases.phase_number(end, START) == 41
    assert end == t("2027-03-22T00:00:00Z")  # twenty weeks (140 days) after a Monday start
