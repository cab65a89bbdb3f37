"""The dance cases draw their dance floor; the drawing must match the locations the case sets."""

from __future__ import annotations

from pathlib import Path

import pytest

from validators import yamlio
from validators.games.settlement.grid import designate

CASES = Path(__file__).parent / "cases" / "settlement" / "lord-of-the-dance.yaml"
LETTERS = {"A": "Ann", "B": "Ben", "C": "Cat", "D": "Dev", "E": "Eve", "F": "Fay", "G": "Gus", "H": "Hal"}


def _pictured():
    for case in yamlio.load_file(CASES)["cases"]:
        if "picture" in case:
            yield pytest.param(case, id=case["name"])


def test_there_are_at_least_ten_pictured_dances():
    assert len(list(_pictured())) >= 10


@pytest.mark.parametrize("case", list(_pictured()))
def test_picture_matches_given_locations(case):
    drawn = {}
    for r, row in enumerate(case["picture"].strip("\n").splitlines()):
        for c, ch in enumerate(row.strip()):
            if ch in LETTERS:
                drawn[LETTERS[ch]] = designate((r, c))
    given = {}
    for op in case["given"]:
        path = op["path"]
        if path.startswith("/roster/players/name=") and path.endswith("/stats/location"):
            given[path.split("=")[1].split("/")[0]] = op["value"]
    assert drawn, "the picture shows nobody"
    for name, loc in drawn.items():
        assert given.get(name) == loc, f"{name} is drawn at {loc} but placed at {given.get(name)}"
    participants = case["actions"][-1]["params"]["participants"]
    assert set(participants) <= set(drawn), "every participant is drawn"
