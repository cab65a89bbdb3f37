"""ifMUD's world helpers and invariants, on the fixture state."""

from __future__ import annotations

import copy
import re

import pytest

from validators.cases import base_state
from validators.engine import State
from validators.games.ifmud import MODULE
from validators.games.ifmud import world as w
from validators.timeutil import parse_time

SUNDAY = parse_time("2026-11-01T12:00:00Z")
TUESDAY = parse_time("2026-11-03T12:00:00Z")


def _state() -> State:
    state, _ = base_state("ifmud-core")
    return State(state.config, copy.deepcopy(state.docs), state.rules)


def _problems(state: State) -> list[str]:
    return [p.message for inv in MODULE.invariants for p in inv(state)]


def test_fixture_is_sound():
    assert _problems(_state()) == []


def test_connections_are_two_way_and_brigadoon_keeps_tuesdays():
    s = _state()
    assert w.connected(s, "Lounge", "Attic", SUNDAY) and w.connected(s, "Attic", "Lounge", SUNDAY)
    assert not w.connected(s, "Central Park", "Brigadoon", SUNDAY)
    assert w.connected(s, "Brigadoon", "Central Park", TUESDAY)
    assert not w.connected(s, "Lounge", "Lounge", SUNDAY)


def test_tolls_death_toll_and_havens():
    s = _state()
    assert w.tolls(s, "Washington, DC") == [{"name": "Beltway Toll", "value": 4}]
    w.room(s, "Washington, DC")["damage"] = 2
    assert [t["value"] for t in w.tolls(s, "Washington, DC")] == [4, 4]
    haven = w.room(s, "Under the High Wall (on a resting)")
    haven["damage"] = 3
    haven["toll"] = {"name": "x", "value": 9}
    assert w.tolls(s, haven["name"]) == []


def test_savage_wilderness_ignores_the_crescent_and_ties_go_by_standard_order():
    s = _state()
    assert w.savage_wilderness(s) == "Attic"
    w.room(s, "Attic")["visits"] = 1
    assert w.savage_wilderness(s) == "Blasted Heath"
    for r in w.rooms(s):
        r["visits"] = 5
    w.room(s, "Mornington Crescent")["visits"] = 0
    w.room(s, "Zrblm")["visits"] = 2
    assert w.savage_wilderness(s) == "Zrblm"


def test_connectivity_name_masks_and_substitutes():
    r = {"name": "Saturn", "masked": [2], "letters": {"1": "Q"}}
    assert w.connectivity_name(r) == "Q_turn"


def test_resolve_room_by_case_and_synonym():
    s = _state()
    assert w.resolve_room(s, "lounge") == "Lounge"
    assert w.resolve_room(s, "DC") == "Washington, DC"
    assert w.resolve_room(s, "Narnia") is None


def test_fallback_room_is_alphabetically_first():
    s = _state()
    assert w.fallback_room(s, "Saturn") == "Saturn"
    assert w.fallback_room(s, "Gone") == "Attic"


def test_invariants_catch_bad_places():
    s = _state()
    s.doc("tokens")["tokens"][0]["location"] = {"room": "Narnia"}
    s.doc("entities")["monkey"]["location"] = "Atlantis"
    s.doc("tokens")["tokens"].append({"id": 99, "name": "x", "location": {"monkey": True}})
    s.doc("tokens")["tokens"].append({"id": 98, "name": "y", "location": {"monkey": True}})
    s.doc("tokens")["next"] = 100
    found = _problems(s)
    assert any("Narnia" in m for m in found)
    assert any("Atlantis" in m for m in found)
    assert any("Rule 100" in m for m in found)


def test_invariants_say_a_location_that_is_no_text_is_no_room():
    """Rule 14: every player is in a room of the map. A location a hand edit (or a proposal's patch) made a list is
    reported as no room, beside the roster's own complaint about its type, rather than failing the check."""
    s = _state()
    s.doc("roster")["players"][0]["stats"]["location"] = ["Lounge"]
    assert any("['Lounge'], which is not a room" in m for m in _problems(s))


def test_invariants_catch_a_player_with_two_servants():
    """Rule 44: each player has one servant; a second one of the same player (a hand edit) is reported at its entry,
    not read as the first one found."""
    s = _state()
    s.doc("entities")["servants"].append({"owner": "Zoe Abbott", "location": "Attic", "since": "2026-11-01T00:00:00Z"})
    found = [(p.field, p.message) for inv in MODULE.invariants for p in inv(s) if "servant" in p.message]
    assert found == [("servants[5]", "Zoe Abbott has a second servant: servants[0] is theirs already, and a player "
                                     "has one (Rule 44)")]


def test_invariants_catch_a_repeated_connection():
    """Rules 25 and 39: two rooms are connected or not, so the map lists each pair once, either way round."""
    s = _state()
    assert not any("twice" in m for m in _problems(s))
    s.doc("map")["connections"].append({"between": ["Attic", "Lounge"]})
    s.doc("map")["connections"].append({"between": ["Saturn", "Zrblm"], "basis": [{"room": "Zrblm", "position": 1}]})
    found = [(p.field, p.message) for inv in MODULE.invariants for p in inv(s) if "twice" in p.message]
    assert found == [("connections[23]", "Attic and Lounge are connected twice: connections[1] joins them already"),
                     ("connections[24]", "Saturn and Zrblm are connected twice: connections[16] joins them already")]


def _repealing(state: State, rule: str) -> State:
    """``state`` with the rule ``rule`` of its ruleset repealed (as a ratified proposal's effects would)."""
    rules = dict(state.rules)
    r = rules[rule]
    rules[rule] = type(r)(r.id, {**r.meta, "status": "repealed"}, r.body)
    return State(state.config, state.docs, rules)


def test_a_repeated_connection_is_no_fault_once_rule_25_is_repealed():
    """Seed 002 Rule 25 makes two rooms connected or not, hence the map's one entry a pair; with the rule repealed
    that check stops, and the other checks of the map stand (a connection to a room off the map)."""
    s = _state()
    s.doc("map")["connections"].append({"between": ["Attic", "Lounge"]})
    s.doc("map")["connections"].append({"between": ["Attic", "Narnia"]})
    assert any("twice" in m for m in _problems(s))
    found = _problems(_repealing(s, "r25"))
    assert not any("twice" in m for m in found)
    assert any("Narnia" in m for m in found)


def test_a_quest_with_two_equal_rooms_is_no_fault_once_rule_139_is_repealed():
    """Seed 002 Rule 139 gives a quest three different rooms of the map. Repealed, two equal rooms are no fault;
    a room off the map still is (Rule 151 ends such a quest)."""
    s = _state()
    s.doc("quests")["quests"].append({"id": 1, "colour": "red", "home": "Attic", "locate": "Lounge", "goal": "Attic",
                                      "value": {"brownie": 3}})
    assert any("three different rooms" in m for m in _problems(s))
    assert not any("three different rooms" in m for m in _problems(_repealing(s, "r139")))
    s.doc("quests")["quests"][0]["goal"] = "Narnia"
    assert any("three different rooms" in m for m in _problems(_repealing(s, "r139")))


def test_a_monkey_with_two_tokens_is_no_fault_once_rule_100_is_repealed():
    """Seed 002 Rule 100: the monkey carries one token at most; repealed, two on it are no fault."""
    s = _state()
    s.doc("tokens")["tokens"][6]["location"] = {"monkey": True}
    s.doc("tokens")["tokens"][5]["location"] = {"monkey": True}
    assert any("Rule 100" in m for m in _problems(s))
    assert not any("Rule 100" in m for m in _problems(_repealing(s, "r100")))


def test_a_time_bomb_without_its_start_is_bad_input_not_a_traceback(tmp_path):
    """Rule 70 counts a bomb's stay in a room from ``since`` (Rule 101 the uplink's in Embedded CPU): a tokens
    file that leaves it out gets a clear error naming the file and the token, not a KeyError from the replay."""
    import shutil
    from pathlib import Path

    from validators.check import check_repo

    root = Path(__file__).resolve().parents[1]
    shutil.copytree(root / "content" / "ifmud", tmp_path / "content" / "ifmud")
    path = tmp_path / "content/ifmud/initial/gamestate/tokens.yaml"
    text = path.read_text(encoding="utf-8")
    bomb = "    location:\n      player: Zoe Abbott\n    delay_hours: 24\n    since: 2026-11-01T00:00:00Z\n"
    assert bomb in text
    path.write_text(text.replace(bomb, "    location:\n      room: Attic\n    delay_hours: 24\n"), encoding="utf-8")
    report = check_repo(tmp_path, only=["ifmud"])
    assert report.exit_code != 0
    texts = [p.text() for p in report.problems]
    assert any("tokens.yaml" in t and "'since' is a required property" in t for t in texts), texts


def test_a_quest_token_s_stage_is_the_last_word_of_its_name():
    """ifMUD seed, Rule 141: the token is named '<colour> primary' and the locate room swaps that word for
    'secondary'; the colour is free text, so a 'primary' or 'secondary' in it is not the stage."""
    stage = [w.quest_stage({"name": n}) for n in ("red primary", "secondary primary", "primary secondary",
                                                 "red", "secondary thing", "")]
    assert stage == [w.PRIMARY, w.PRIMARY, w.SECONDARY, None, None, None]
    assert w.promoted_name(w.quest_token_name("primary")) == "primary secondary"
    assert w.promoted_name("primary blue primary") == "primary blue secondary"


def test_a_servant_is_named_only_with_a_name_and_a_species():
    """ifMUD seed, Rule 45: a servant has a name and a species, given together (``ifmud.name-servant``); one
    without the other is not named, so its 72 hours still run."""
    from validators.games.ifmud.turns import _servant_deadline

    named = {"owner": "Zoe Abbott", "name": "Jeeves", "species": "valet", "location": "Lounge",
             "since": "2026-11-01T00:00:00Z"}
    assert w.is_named(named) and _servant_deadline(named) is None
    for half in ({**named, "species": None}, {**named, "name": None}, {k: v for k, v in named.items() if k != "name"}):
        assert not w.is_named(half)
        due = _servant_deadline(half)
        assert due is not None and due[0] == parse_time("2026-11-04T00:00:00Z")


@pytest.mark.parametrize("edit, where, says", [
    (("    species: valet\n", ""), "entities.yaml:3:5: servants[0]", "'species' is a required property"),
    (("    name: Jeeves\n", ""), "entities.yaml:3:5: servants[0]", "'name' is a required property"),
    (("    species: valet\n", "    species: null\n"), "entities.yaml:5:14: servants[0].species",
     "null is not text: a servant with a name needs a species too (Rule 45)"),
    (("    name: Jeeves\n", "    name: null\n"), "entities.yaml:4:11: servants[0].name",
     "null is not text: a servant with a species needs a name too (Rule 45)"),
    (("    name: Jeeves\n", "    name: ' '\n"), "entities.yaml:4:11: servants[0].name", "must not be blank"),
])
def test_a_half_named_servant_is_bad_input_at_its_line(tmp_path, edit, where, says):
    """Rule 45's name and species go together: a hand-edited servant with only one of them is refused as bad
    input, naming the file, line and field, with no traceback."""
    import shutil
    from pathlib import Path

    from validators.check import check_repo

    root = Path(__file__).resolve().parents[1]
    shutil.copytree(root / "content" / "ifmud", tmp_path / "content" / "ifmud")
    path = tmp_path / "content/ifmud/gamestate/entities.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count(edit[0]) == 1
    path.write_text(text.replace(*edit), encoding="utf-8")
    report = check_repo(tmp_path, only=["ifmud"])
    assert report.exit_code == 2
    texts = [p.text() for p in report.problems]
    assert any(where + ": " + says in t for t in texts), texts


def test_a_prize_of_negative_value_is_bad_input_at_its_line(tmp_path):
    """ifMUD seed, Rule 57: a prize token's value is a non-negative integer. A tokens file giving one a negative value
    is refused as bad input naming the file, line and field; 0 is a value the schema takes."""
    import shutil
    from pathlib import Path

    from validators.check import check_repo

    root = Path(__file__).resolve().parents[1]
    shutil.copytree(root / "content" / "ifmud", tmp_path / "content" / "ifmud")
    path = tmp_path / "content/ifmud/gamestate/tokens.yaml"
    text = path.read_text(encoding="utf-8")
    fleece = "    name: golden fleece\n    location:\n      room: West of Nowhere\n    value: 15\n"
    assert text.count(fleece) == 1
    path.write_text(text.replace(fleece, fleece.replace("value: 15", "value: -5")), encoding="utf-8")
    report = check_repo(tmp_path, only=["ifmud"])
    assert report.exit_code == 2
    texts = [p.text() for p in report.problems]
    assert any(re.search(r"gamestate/tokens\.yaml:\d+:\d+: tokens\[6\]\.value: -5 is less than the minimum of 0", t)
               for t in texts), texts
    path.write_text(text.replace(fleece, fleece.replace("value: 15", "value: 0")), encoding="utf-8")
    texts = [p.text() for p in check_repo(tmp_path, only=["ifmud"]).problems]
    assert not [t for t in texts if "minimum" in t], texts  # (the replay still says 15: that is another matter)
