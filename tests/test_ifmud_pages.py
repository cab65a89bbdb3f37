"""The ifMUD module's wiki pages and registry: plain functions called directly."""

from __future__ import annotations

import copy
import re
from pathlib import Path

from validators.cases import base_state
from validators.engine import State
from validators.games.ifmud import MODULE
from validators.games.ifmud.pages import map_graph, pages, render_map_svg, render_quests, render_tokens


def _state() -> State:
    state, _ = base_state("ifmud-core")
    return State(state.config, copy.deepcopy(state.docs), state.rules)


def test_map_svg_draws_every_room_and_connection():
    state = _state()
    svg = render_map_svg(state)
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    for r in state.doc("map")["rooms"]:
        assert r["name"].replace("'", "&#x27;") in svg
    assert svg.count("<line ") == len(state.doc("map")["connections"])


def test_map_graph_places_who_and_what():
    state = _state()
    state.docs["roster"]["players"][0]["stats"]["location"] = "Attic"
    g = map_graph(state)
    attic = next(r for r in g["rooms"] if r["name"] == "Attic")
    assert "Zoe Abbott" in attic["who"]
    assert "The Bus Driver's Lunchbox" in attic["what"]
    park = next(r for r in g["rooms"] if r["name"] == "Central Park")
    assert "the monkey" in park["who"] and "the pieman" in park["who"]


def test_rooms_without_positions_get_one():
    state = _state()
    for r in state.doc("map")["rooms"]:
        r.pop("x", None)
        r.pop("y", None)
    g = map_graph(state)
    assert len({(round(r["x"]), round(r["y"])) for r in g["rooms"]}) == len(g["rooms"])


def test_player_text_is_escaped():
    state = _state()
    state.doc("tokens")["tokens"][0]["name"] = "<script>alert(1)</script>"
    state.doc("tokens")["tokens"][0]["location"] = {"room": "Lounge"}
    for text in (render_map_svg(state), render_tokens(state)):
        assert "<script>" not in text
        assert "&lt;script&gt;" in text


def test_quests_roster_lists_quests():
    state = _state()
    assert "No quests" in render_quests(state)
    state.doc("quests")["quests"].append({"id": 1, "colour": "red", "home": "Attic", "locate": "Saturn",
                                          "goal": "Lounge", "value": {"brownie": 12}})
    text = render_quests(state)
    assert "| 1 |  | red | Attic | Saturn | Lounge | 12 brownie points |" in text


def test_pages_have_distinct_slugs():
    slugs = [p.slug for p in pages(_state())]
    assert slugs == ["map", "turn", "tokens", "quests", "proposals"]


def test_every_action_cites_a_rule_of_the_example_game_and_has_cases():
    state, _ = base_state("ifmud")
    cases = "".join(p.read_text() for p in (Path(__file__).parent / "cases" / "ifmud").glob("*.yaml"))
    for action in MODULE.actions:
        assert action.rule in state.rules, f"{action.name} cites {action.rule}, not a rule of the game"
        assert state.rules[action.rule].meta["status"] == "active"
        assert re.search(rf"action: {re.escape(action.name)}\b", cases), f"no case uses {action.name}"
        assert action.summary


def test_example_game_pages_show_its_history():
    state, _ = base_state("ifmud")
    by_slug = {p.slug: p.markdown for p in pages(state)}
    assert "The Fleece Run" in by_slug["quests"] and "Zoe Abbott" in by_slug["quests"]
    assert "Ring road [RC]" in by_slug["proposals"] and "ratified" in by_slug["proposals"]
    attic = next(r for r in map_graph(state)["rooms"] if r["name"] == "Blasted Heath")
    assert "Zoe Abbott" in attic["who"]


def test_every_action_is_documented():
    undocumented = [a.name for a in MODULE.actions if not a.doc]
    assert undocumented == []
