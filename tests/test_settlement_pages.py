"""The Settlement's wiki pages, drawn from a state by plain functions."""

from __future__ import annotations

import re

from validators.cases import base_state, patched
from validators.games.settlement.pages import pages, render_map_svg, render_stockpile


def _state(ops=()):
    state, registry = base_state("settlement-basic")
    return patched(state, registry, list(ops))


def test_map_svg_draws_every_location_once_per_run_and_the_rooms():
    svg = render_map_svg(_state())
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    # every location is covered: the run widths of each row add up to the map's width
    for r in range(12):
        widths = [int(w) for y, w in re.findall(r'<rect x="\d+" y="(\d+)" width="(\d+)"', svg)
                  if int(y) == 16 + r * 14]
        assert sum(widths) == 16 * 14
    assert svg.count('class="room"') == 1  # the fixture has one Room
    assert "Room 1: 7 locations" in svg  # six Free Locations and the Door


def test_colonists_are_drawn_and_escaped():
    state = _state([{"op": "add", "path": "/roster/players/-",
                     "value": {"name": "Moose 1", "kind": "outsider", "joined": "2026-11-02T00:00:00Z",
                               "stats": {"location": "0a", "energy": 50, "stress": 0, "hunger": 2, "deaths": 0,
                                         "job": "Peasant"}}},
                    {"op": "replace", "path": "/map/legend/~0/name", "value": "<b>Water</b>"}])
    svg = render_map_svg(state)
    assert "7c: Ann" in svg and "0a: Moose 1" in svg
    assert "<b>Water</b>" not in svg and "&lt;b&gt;Water&lt;/b&gt;" in svg
    assert svg.count('class="colonist"') == 9  # eight Colonists and the Moose; the Leader is not drawn


def test_pages_hold_map_table_and_stockpile():
    drawn = {p.slug: p for p in pages(_state())}
    assert set(drawn) == {"settlement", "stockpile"}
    page = drawn["settlement"].markdown
    assert "| Cat | 4d | Room 1 |" in page
    assert "| Ann | 7c | Outside |" in page
    stock = render_stockpile(_state([{"op": "replace", "path": "/stockpile/items/Wood", "value": 7}]))
    assert "| Wood | 7 |" in stock


def test_the_legend_says_which_terrains_are_barriers_and_constructions():
    """Rule 2.2's Barriers and rule 2.5's Constructions, as the legend (held to the rules' lists) flags them."""
    from validators.games.settlement.pages import render_legend

    table = render_legend(_state())
    assert "| Barrier | Construction |" in table
    assert re.search(r"\| Wall \| occupied \| yes \| yes \|", table)
    assert re.search(r"\| Rock \| occupied \| yes \|  \|", table)
    assert re.search(r"\| Table \| neither \|  \| yes \|", table)


def test_the_page_shows_the_dances_formed_now():
    from validators.games.settlement.pages import render_formations

    assert "square" not in render_formations(_state())
    alone = [{"op": "replace", "path": f"/roster/players/name={n}/stats/location", "value": v}
             for n, v in (("Ann", "0a"), ("Ben", "0c"), ("Cat", "0e"), ("Dev", "0g"), ("Eve", "0i"), ("Fay", "0k"),
                          ("Gus", "0m"), ("Hal", "0o"))]
    assert "No recognised dance" in render_formations(_state(alone))  # a row of loners: no circle, no pairs
    ops = [{"op": "replace", "path": f"/roster/players/name={n}/stats/location", "value": v}
           for n, v in (("Ann", "0a"), ("Ben", "0c"), ("Cat", "2a"), ("Dev", "2c"))]
    shown = render_formations(_state(ops))
    assert "| square | Ann, Ben, Cat, Dev |" in shown


def _settlement_with(text):
    """The fixture with ``text`` wherever a player types: a Colonist's and the Leader's names, a job, a legend's
    meaning, a good in the Stockpile, a dance and a victory."""
    import json

    from validators.engine import State

    state = _state()
    quoted = json.dumps(text)[1:-1]
    dump = json.dumps(state.docs)
    dump = re.sub(r"\bAnn\b", lambda _: quoted, dump)
    dump = re.sub(r"\bLena\b", lambda _: quoted + " the Leader", dump)
    docs = json.loads(dump)
    for p in docs["roster"]["players"]:
        p["stats"]["job"] = text
    docs["map"]["legend"]["."]["name"] = text
    docs["map"]["legend"]["."]["state"] = text
    docs["stockpile"]["items"][text] = 3
    docs["colony"]["dances"] = [{"id": 1, "by": text, "opened": "2026-11-03T10:00:00Z", "status": text, "kind": text,
                                 "participants": [text, "Ben"]}]
    docs["colony"]["victory"] = {"at": text, "winners": [text], "how": text}
    return State(state.config, docs, state.rules)


def test_a_hostile_name_is_inert_on_every_page():
    """Text a player typed, rendered as the wiki renders it: no link, no tag, no emphasis, no extra column."""
    from tests.wikimd import HOSTILE, PLAIN, assert_same_shape

    plain = {p.slug: p.markdown for p in pages(_settlement_with(PLAIN))}
    hostile = {p.slug: p.markdown for p in pages(_settlement_with(HOSTILE))}
    assert set(hostile) == set(plain) == {"settlement", "stockpile"}
    for slug, text in hostile.items():
        assert_same_shape(plain[slug], text, slug)
        assert "&lt;img src=x onerror=alert(1)&gt; &#91;x&#93;(javascript:alert(2)) &#42;y&#42;" in text, slug
    assert "&#45; &lt;img src=x" in hostile["settlement"]  # "- " would start a list on the Leader's line


def test_dance_and_victory_times_read_as_the_rest_of_the_wiki():
    from validators.games.settlement.pages import render_dances

    state = _state()
    state.doc("colony")["dances"] = [{"id": 1, "by": "Ann", "opened": "2026-11-04T11:00:00Z", "status": "over",
                                      "kind": "square", "participants": ["Ann", "Ben"]}]
    state.doc("colony")["victory"] = {"at": "2026-11-05T09:30:00Z", "winners": ["Ann"], "how": "a square"}
    shown = render_dances(state)
    assert "| 1 | Ann | 4 Nov 2026 11:00 UTC | over |" in shown
    assert "**Victory** at 5 Nov 2026 09:30 UTC" in shown and "2026-11-0" not in shown


def test_the_map_keeps_a_legible_width_in_a_box_that_scrolls():
    """Shrunk to a phone's column, the map's cells were a few pixels: it is drawn no narrower than three quarters
    of its size (``_markup.legible_width``), right inside a box that scrolls sideways."""
    svg = render_map_svg(_state())
    width = int(re.search(r'viewBox="0 0 (\d+) ', svg).group(1))
    assert re.search(r'style="min-width:(\d+)px"', svg).group(1) == str(round(width * 0.75))
    page = next(p.markdown for p in pages(_state()) if p.slug == "settlement")
    assert '<div class="settlement-map-wrap" style="overflow-x:auto"><svg ' in page


def test_the_map_page_calls_the_colonists_and_the_leader_as_game_yaml_now_does():
    """Seed 001 1.9: an Ascension Address may replace any keywords. game.yaml's ``player``, ``players`` and
    ``leader`` are the words the map page writes for the Colonists and the Expedition Leader; Royal Blood and the
    Outsiders are rules' names, and stay. The example's words write the page as before."""
    page = next(p for p in pages(_state()) if p.slug == "settlement").markdown
    assert "## Colonists" in page and "| Colonist | Location | Indoors |" in page
    assert "each dot is a Colonist (yellow: an Outsider)" in page
    assert "Lena is the Expedition Leader and, by Royal Blood, not a Colonist." in page

    renamed = _state([{"op": "replace", "path": "/config/keywords", "value": {
        "player": "Explorer", "players": "Explorers", "leader": "Captain"}}])
    page = next(p for p in pages(renamed) if p.slug == "settlement").markdown
    assert "## Explorers" in page and "| Explorer | Location | Indoors |" in page
    assert "each dot is an Explorer (yellow: an Outsider)" in page
    assert "Lena is the Captain and, by Royal Blood, not an Explorer." in page
    assert "Colonist" not in page and "Expedition Leader" not in page


def test_the_formations_table_heads_its_column_with_the_players_keyword():
    from validators.games.settlement.pages import render_formations

    ops = [{"op": "replace", "path": f"/roster/players/{i}/stats/location", "value": loc}
           for i, loc in enumerate(["4b", "4c", "4d", "4e"])]
    table = render_formations(_state(ops))
    assert table.startswith("| Configuration | Colonists |"), table
    renamed = _state(ops + [{"op": "replace", "path": "/config/keywords/players", "value": "pirates"}])
    assert render_formations(renamed).startswith("| Configuration | Pirates |")


def test_the_colonists_table_heads_its_columns_with_the_rosters_labels():
    """Seed 001 1.9: an Address replacing "any keywords" renames a roster label holding one ("Energy" to
    "Stamina"); the map page's table heads the column as the roster now labels it."""
    from validators.games.settlement.pages import render_colonists

    assert render_colonists(_state()).startswith(
        "| Colonist | Location | Indoors | Energy | Stress | Hunger | Deaths | Job |\n")
    renamed = _state([{"op": "replace", "path": "/roster/stats/energy/label", "value": "Stamina"},
                      {"op": "replace", "path": "/roster/stats/job/label", "value": "Trade"}])
    assert render_colonists(renamed).startswith(
        "| Colonist | Location | Indoors | Stamina | Stress | Hunger | Deaths | Trade |\n")


def test_after_an_ascension_address_the_pages_and_the_actions_page_write_its_words():
    """The whole way: a DoV passes, the new Expedition Leader's Address replaces Colonist, Colonists, Expedition
    Leader and Energy (seed 001 1.9, "any keywords"); game.yaml's keywords, the rules and the roster's label take the
    new words, and so do the map page and the Actions page that game.yaml's keywords reach."""
    from site_plugins.actions_ref import render_actions
    from site_plugins.links import Links
    from validators.cases import run

    state, registry = base_state("settlement-basic")
    votes = [{"at": f"2026-11-04T10:{10 + i}:00Z", "actor": name, "action": "core.dov-vote",
              "params": {"dov": 1, "vote": "FOR"}} for i, name in enumerate(["Ben", "Cat", "Dev", "Eve", "Fay", "Gus"])]
    address = {"theme": "Pirates", "keywords": {"Colonist": "Explorer", "Colonists": "Explorers",
                                                "Expedition Leader": "Captain", "Energy": "Stamina"}}
    outcome = run(state, registry, [{"at": "2026-11-04T10:00:00Z", "actor": "Ann", "action": "core.dov"}, *votes,
                                    {"at": "2026-11-05T22:00:00Z", "actor": "Lena", "action": "core.dov-resolve",
                                     "params": {"dov": 1}},
                                    {"at": "2026-11-06T09:00:00Z", "actor": "Ann", "action": "core.ascend",
                                     "params": address}])
    assert outcome.verdict == "legal", outcome.problems
    after = outcome.state
    page = next(p for p in pages(after) if p.slug == "settlement").markdown
    assert "## Explorers" in page and "| Explorer | Location | Indoors | Stamina | Stress |" in page
    assert "Ann is the Captain and, by Royal Blood, not an Explorer." in page
    assert not re.search(r"Colonist|Expedition Leader|Energy", page)
    actions = render_actions(after, registry, Links("g", "games/g/actions.md", {}), "g")
    assert "<p>The Captain makes an Explorer a Traitor (while there are fewer than two)</p>" in actions
    assert not re.search(r"Colonist|Expedition Leader", actions)  # the rules' titles too: the Address renamed them


def test_starving_is_shown_only_while_hunger_stands():
    """Seed 001 2.9 Hunger: a Colonist with 4 Hunger or more is Starving. The word is the rule's: with 2.9 repealed
    nobody is Starving, and the Colonists' table says only the number."""
    from validators.games.settlement.pages import render_colonists

    hungry = {"op": "replace", "path": "/roster/players/name=Ann/stats/hunger", "value": 5}
    assert "| 5 (Starving) |" in render_colonists(_state([hungry]))
    table = render_colonists(_state([hungry, {"op": "replace", "path": "/rules/hunger/meta/status",
                                              "value": "repealed"}]))
    assert "Starving" not in table and "| 5 |" in table


def test_outsiders_left_by_a_repeal_of_outsiders_are_still_drawn():
    """Seed 001 2.11 Outsiders repealed: the Outsiders on the roster are inert (no rule treats them as Colonists) but
    still stand on the map, so the wiki still draws and lists them."""
    from validators.games.settlement.pages import render_colonists

    state = _state([{"op": "replace", "path": "/rules/outsiders/meta/status", "value": "repealed"},
                    {"op": "add", "path": "/roster/players/-",
                     "value": {"name": "Moose 1", "kind": "outsider", "joined": "2026-11-02T00:00:00Z",
                               "stats": {"location": "0a", "energy": 50, "stress": 0, "hunger": 2, "deaths": 0,
                                         "job": "Peasant"}}}])
    assert "0a: Moose 1" in render_map_svg(state)
    assert "Moose 1 (Outsider)" in render_colonists(state)


def test_the_expedition_leader_is_no_colonist_on_the_front_page_the_roster_or_their_page():
    """Seed 001 2.1 Royal Blood: "For purposes of all dynastic rules, the Expedition Leader is not considered a
    Colonist". The Settlement page said so, while the front page counted Ilse among the "10 active" Colonists and
    the roster and her page showed her Colonist stats without a word: the count is of the others, and each page says
    why (``Module.apart``), her page what of her stats. Repealed, she is one of them again."""
    from pathlib import Path

    from site_plugins import model
    from site_plugins.pages import build_game
    from validators.engine import Rule, State
    from validators.roster import active_players
    from validators.timeutil import parse_time

    game = model.load(Path(__file__).resolve().parents[1], "settlement")
    boss = game.state.doc("dynasty")["leader"]
    n = len(active_players(game.state))
    site = {p.src: p.content for p in build_game(game, now=parse_time("2026-11-24T08:00:00Z")).pages}
    home = site["games/settlement/index.md"]
    assert f">{n - 1} active</a>; and <a href=" in home and "by 2.1 Royal Blood not a Colonist" in home, home
    roster = site["games/settlement/roster.md"]
    assert f"{n - 1} active Colonists; and {boss}, the Expedition Leader, by 2.1 Royal Blood" in roster
    assert ">not a Colonist</span>" in roster
    page = site[f"games/settlement/players/{boss.lower()}.md"]
    assert f"{boss} is the Expedition Leader, by 2.1 Royal Blood not a Colonist" in page
    assert "no dynastic rule reads or changes their stats" in page
    state = game.state
    old = state.rules["royal-blood"]
    rules = {**state.rules, "royal-blood": Rule(old.id, {**old.meta, "status": "repealed"}, old.body)}
    game.files.state = State(state.config, state.docs, rules)
    again = {p.src: p.content for p in build_game(game, now=parse_time("2026-11-24T08:00:00Z")).pages}
    assert f">{n} active</a></dd>" in again["games/settlement/index.md"]
