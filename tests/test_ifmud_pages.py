"""The ifMUD module's wiki pages and registry: plain functions called directly."""

from __future__ import annotations

import copy
import random
import re
from pathlib import Path

from validators.cases import base_state
from validators.engine import State
from validators.games.ifmud import MODULE
from validators.games.ifmud.pages import (
    map_graph,
    pages,
    render_map,
    render_map_svg,
    render_quests,
    render_tokens,
    render_turn,
    room_slugs,
)


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


def test_the_map_keeps_a_legible_width_in_a_box_that_scrolls():
    """Shrunk to the column, the map's labels were a few pixels high: it is drawn no narrower than three quarters of
    its size, and stays an <svg role="img"> right inside a box that scrolls (which gives it the dark-mode sheet)."""
    state, _ = base_state("ifmud")
    svg = render_map_svg(state)
    width = float(re.search(r'viewBox="\S+ \S+ (\S+) ', svg).group(1))
    assert width > 1000
    assert re.search(r'style="[^"]*min-width: (\d+)px"', svg).group(1) == str(round(width * 0.75))
    assert ' role="img" ' in svg.split(">")[0]
    page = next(p.markdown for p in pages(state) if p.slug == "map")
    assert '<div class="ifmud-map" style="overflow-x:auto"><svg ' in page


def test_a_long_room_name_is_cut_to_its_box_and_captions_have_a_halo():
    state, _ = base_state("ifmud")
    svg = render_map_svg(state)
    assert ">Under the High Wall…</text>" in svg and "<title>Under the High Wall (on a resting)" in svg
    assert svg.count('paint-order="stroke"') >= 5 and ">the pieman</text>" in svg


def test_every_table_heading_is_capitalised():
    """As the other modules' tables are headed: "Room", "Visits", "Player", not "room", "visits", "player"."""
    state, _ = base_state("ifmud")
    state.doc("quests")["quests"].append({"id": 1, "name": "Fetch", "colour": "red", "home": "Attic",
                                          "locate": "Saturn", "goal": "Lounge", "value": {"brownie": 12}})
    heads = []
    for page in pages(state):
        lines = page.markdown.splitlines()
        heads += [(page.slug, c.strip()) for i, line in enumerate(lines[:-1]) if lines[i + 1].startswith("|---")
                  for c in line.strip().strip("|").split("|")]
    assert {slug for slug, _ in heads} >= {"map", "turn", "tokens", "quests", "proposals", "rooms/attic"}
    assert ("map", "Room") in heads and ("turn", "Player") in heads and ("rooms/attic", "This room is its") in heads
    assert [h for h in heads if not (h[1][:1].isupper() or h[1] == "#")] == []
    assert ("turn", "Brownie&nbsp;points") in heads


def test_times_are_written_as_the_wiki_writes_them():
    """The turn's start, a quest's end and a proposal's posting read 5 Nov 2026 03:00 UTC, the stamp kept in
    the <time> element; no page shows a raw ISO stamp outside one."""
    state, _ = base_state("ifmud")
    state.doc("turn")["started"] = "2026-11-05T03:00:00Z"
    assert ('since <time datetime="2026-11-05T03:00:00Z" title="2026-11-05T03:00:00Z">5 Nov 2026 03:00 UTC</time>, '
            'until' in render_turn(state))
    state.doc("quests").setdefault("history", []).append(
        {"id": 7, "name": "Fetch", "colour": "red", "result": "done", "by": ["Zoe Abbott"],
         "at": "2026-11-03T14:00:00Z"})
    assert ('| 7 | Fetch | red | done | Zoe Abbott | <time datetime="2026-11-03T14:00:00Z" '
            'title="2026-11-03T14:00:00Z">3 Nov 2026 14:00 UTC</time> |') in render_quests(state)
    assert ">1 Nov 2026 03:00 UTC</time> |" in next(p.markdown for p in pages(state) if p.slug == "proposals")
    for page in pages(state):
        bare = re.sub(r"<time [^>]*>", "", page.markdown)
        assert not re.search(r"\d{4}-\d{2}-\d{2}[T ]\d", bare), page.slug


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
    # the lede names the token in words: a "<colour>" in the Markdown is an unknown HTML tag, dropped from the page
    assert "<" not in text.split("\n")[0] and "('red primary'), from its home room to its locate room" in text


def test_the_turn_page_names_every_winner():
    """Rules 33 and 148: players who reach 350 at the same moment all win, and the page says so."""
    state = _state()
    state.doc("turn")["over"] = {"winners": ["Adam Biltcliffe", "Roger Carbol"], "at": "2026-11-01T01:00:00Z"}
    text = render_turn(state)
    assert "The game is over: **Adam Biltcliffe** and **Roger Carbol** won (a shared win" in text
    state.doc("turn")["over"] = {"winners": ["Zoe Abbott"], "at": "2026-11-01T01:00:00Z"}
    assert "The game is over: **Zoe Abbott** won." in render_turn(state)
    state.doc("turn")["over"] = {"winner": "Zoe Abbott", "at": "2026-11-01T01:00:00Z"}  # an older state's record
    assert "The game is over: **Zoe Abbott** won." in render_turn(state)


def test_the_turn_page_names_the_losers():
    """Rule 33: when a player wins, the others lose and are removed; the Turns page says so and names them."""
    state = _state()
    state.doc("turn")["over"] = {"winners": ["Zoe Abbott"], "at": "2026-11-01T01:00:00Z"}
    state.doc("turn")["lost"] = ["Adam Biltcliffe", "Roger Carbol"]
    text = render_turn(state)
    assert "Everyone else lost and was removed from the game (Rule 33)." in text
    assert "may not rejoin (Rules 16, 33): Adam Biltcliffe, Roger Carbol." in text
    assert ("The last turn was turn 1, Zoe Abbott's, from <time datetime=\"2026-11-01T00:00:00Z\" "
            "title=\"2026-11-01T00:00:00Z\">1 Nov 2026 00:00 UTC</time>.") in text


def test_arrivals_of_the_turn_are_shown_on_the_room_page():
    """Rule 98: the room page counts the players who arrived during the turn, each once, and names them."""
    state = _state()
    state.doc("turn")["arrivals"] = {"Attic": ["Zoe Abbott", "Adam Biltcliffe"]}
    attic = next(p for p in pages(state) if p.slug.startswith("rooms/") and p.title == "Attic")
    assert "(Rule 98): 2 (Zoe Abbott, Adam Biltcliffe)." in attic.markdown


def test_pages_have_distinct_slugs():
    state = _state()
    drawn = pages(state)
    assert [p.slug for p in drawn if p.listed] == ["map", "turn", "tokens", "quests", "proposals"]
    slugs = [p.slug for p in drawn]
    assert len(set(slugs)) == len(slugs)
    rooms = [p for p in drawn if not p.listed]
    assert len(rooms) == len(state.doc("map")["rooms"])
    assert all(p.slug.startswith("rooms/") and p.source == "gamestate/map.yaml" for p in rooms)


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
    # player text reaches the page with Markdown's brackets written as character references
    assert "Ring road &#91;RC&#93;" in by_slug["proposals"] and "ratified" in by_slug["proposals"]
    attic = next(r for r in map_graph(state)["rooms"] if r["name"] == "Blasted Heath")
    assert "Zoe Abbott" in attic["who"]


def test_every_action_is_documented():
    undocumented = [a.name for a in MODULE.actions if not a.doc]
    assert undocumented == []


# ---------------------------------------------------------------- a page per room


def test_room_slugs_are_distinct_and_safe():
    assert room_slugs(["Washington, DC", "washington dc", "Servants' Quarters", "!!!", "ÉÉÉ"]) == {
        "Washington, DC": "washington-dc", "washington dc": "washington-dc-2",
        "Servants' Quarters": "servants-quarters", "!!!": "room", "ÉÉÉ": "room-2"}
    long = room_slugs(["x" * 120])["x" * 120]
    assert len(long) <= 56 and re.fullmatch(r"[a-z0-9][a-z0-9-]*", long)


def test_a_room_page_shows_the_room():
    state, _ = base_state("ifmud")
    by_slug = {p.slug: p for p in pages(state)}
    commons = by_slug["rooms/the-house-of-commons"]
    assert commons.title == "The House of Commons" and not commons.listed
    text = commons.markdown
    assert text.startswith("# The House of Commons\n") and "[Map](../map.md)" in text
    assert "Visits (Rule 97): 2; damage (Rule 75): 1." in text
    assert "Tolls for entering (Rules 43, 78): Stamp Duty 2, Death Toll 2." in text
    exits = text.split("## Exits")[1].split("##")[0]
    assert "| [Central Park](central-park.md) | open |  |  |" in exits
    assert "| [Washington, DC](washington-dc.md) | open | Beltway Toll 4 |  |" in exits
    assert "| [Saturn](saturn.md) |" in exits and exits.count("](") == 3
    assert "| the Magic Omnibus |" in text
    assert "| 9 | Adam Biltcliffe&#x27;s bomb | lying here | time bomb, delay 24 h |" in text
    # the lunchbox is a prize to be brought here; it lies in Brigadoon
    assert "| 3 | The Bus Driver&#x27;s Lunchbox | 0 | [Brigadoon](brigadoon.md) |" in text

    lounge = by_slug["rooms/lounge"].markdown
    who = lounge.split("## Who is here")[1].split("##")[0]
    assert "| Admiral Jota | player |" in who and "| the monkey |" in who and "| the kitten |" in who
    assert "| 1 | mind-control satellite uplink | carried by Admiral Jota | role uplink; charge 9 |" in lounge
    assert "| 4 | Explorer&#x27;s Compass | lying here |" in lounge
    assert "| [Attic](attic.md) | open |  | letter 1 of Attic |" in lounge
    assert "Also called (Rule 72): the Lounge, lobby." in lounge

    quarters = by_slug["rooms/servants-quarters"].markdown
    assert "| Jeeves the valet | Zoe Abbott&#x27;s servant |" in quarters
    brigadoon = by_slug["rooms/brigadoon"].markdown
    assert "only on Tuesdays" in brigadoon and "Savage Wilderness" in brigadoon
    assert "| [Central Park](central-park.md) |" in brigadoon
    heaven = by_slug["rooms/under-the-high-wall-on-a-resting"].markdown
    assert "A tax haven: no tolls are paid here (Rule 68)." in heaven
    bubble = by_slug["rooms/dot-com-bubble"].markdown
    assert ("The next to enter is paid 2 brownie points (Rule 29); the last paid was Zoe Abbott, who is paid "
            "nothing for entering again (the points double all the same).") in bubble


def test_brigadoon_is_shown_open_or_closed_at_the_game_clock_and_the_page_says_when():
    """Rule 107: Brigadoon is connected only on Tuesdays (UTC). A page is drawn from the gamestate, so it judges at
    the game's clock (its last action), and says so with that time, rather than saying "now" of a moment that may
    be days before the reader's (a wiki built on a Tuesday after Monday's last action)."""
    state, _ = base_state("ifmud")
    assert state.docs["ledger"]["clock"] == "2026-11-05T04:00:00Z"  # a Thursday
    by_slug = {p.slug: p for p in pages(state)}
    brigadoon = by_slug["rooms/brigadoon"].markdown
    said = ('at the game\'s clock, <time datetime="2026-11-05T04:00:00Z" title="2026-11-05T04:00:00Z">5 Nov 2026 '
            '04:00 UTC</time>: the time of its last action, which may be earlier than the time you read this')
    assert f"Open or closed {said}." in brigadoon
    assert "| [Central Park](central-park.md) | closed (Rule 107: not a Tuesday) |" in brigadoon
    assert f"Which connections are live is shown {said}." in by_slug["map"].markdown
    assert "| Connected to (at the clock) |" in by_slug["map"].markdown
    assert "Votes are counted, and whether a proposal may be ratified said, at the game's clock" in \
        by_slug["proposals"].markdown
    tuesday = State(state.config, {**state.docs, "ledger": {**state.docs["ledger"], "clock": "2026-11-10T09:00:00Z"}},
                    state.rules)
    brigadoon = {p.slug: p for p in pages(tuesday)}["rooms/brigadoon"].markdown
    assert "| [Central Park](central-park.md) | open |" in brigadoon and "10 Nov 2026 09:00 UTC" in brigadoon


def test_a_room_flag_whose_rule_is_repealed_says_it_no_longer_applies():
    """Seed 002 Rule 68 makes a tax haven free of tolls; with the rule repealed the room keeps its flag in the
    gamestate, and its page says the flag no longer means anything (the judge asks tolls there again)."""
    from validators.engine import Rule

    state = _state()
    rules = {k: (Rule(k, {**r.meta, "status": "repealed"}, r.body) if k == "r68" else r)
             for k, r in state.rules.items()}
    assert "r68" in rules
    heaven = {p.slug: p.markdown for p in pages(State(state.config, state.docs, rules))}[
        "rooms/under-the-high-wall-on-a-resting"]
    assert "A tax haven: no tolls are paid here (Rule 68, repealed: this no longer applies)." in heaven
    assert "(Rule 68)." not in heaven


def test_a_room_page_lists_its_quests():
    state = _state()
    state.doc("quests")["quests"].append({"id": 1, "name": "Fetch", "colour": "red", "home": "Attic",
                                          "locate": "Saturn", "goal": "Lounge", "value": {"brownie": 12}})
    by_slug = {p.slug: p.markdown for p in pages(state)}
    row = ("| [Attic](attic.md) | [Saturn](saturn.md) | [Lounge](lounge.md) | 12 brownie points |")
    assert f"| 1 | Fetch | red | home {row}" in by_slug["rooms/attic"]
    assert f"| 1 | Fetch | red | locate {row}" in by_slug["rooms/saturn"]
    assert f"| 1 | Fetch | red | goal {row}" in by_slug["rooms/lounge"]
    assert "Quests" not in by_slug["rooms/zrblm"]


def test_the_map_links_each_room_to_its_page():
    state, _ = base_state("ifmud")
    drawn = pages(state)
    text = next(p.markdown for p in drawn if p.slug == "map")
    slugs = {p.title: p.slug for p in drawn if not p.listed}
    nobr = '<span style="white-space: nowrap">Dot-Com</span>'  # a hyphenated word is kept on one line
    for r in state.doc("map")["rooms"]:
        assert f"| [{r['name']}]({slugs[r['name']]}.md) |".replace("'", "&#x27;").replace("Dot-Com", nobr) in text
    assert f"[{nobr} Bubble](rooms/dot-com-bubble.md)" in text
    assert ("| [Washington, DC](rooms/washington-dc.md) | 1 | 0 | Beltway Toll 4 | "
            "[Central Park](rooms/central-park.md), ") in text
    assert "The Savage Wilderness (Rule 122) is **[Brigadoon](rooms/brigadoon.md)**." in text


def test_a_hostile_room_name_is_escaped_on_every_page():
    import markdown

    state = _state()
    evil = "<img src=x onerror=alert(1)> [x](javascript:alert(2)) *y* | #"
    old = "Attic"
    for r in state.doc("map")["rooms"]:
        if r["name"] == old:
            r["name"] = evil
    for c in state.doc("map")["connections"]:
        c["between"] = [evil if n == old else n for n in c["between"]]
        for b in c.get("basis") or []:
            b["room"] = evil if b["room"] == old else b["room"]
    for t in state.doc("tokens")["tokens"]:
        if t["location"] == {"room": old}:
            t["location"] = {"room": evil}
    drawn = pages(state)
    for p in drawn:  # as the wiki renders it
        html = markdown.markdown(p.markdown, extensions=["tables", "attr_list"])
        assert "<img" not in html and "<script" not in html and not re.search(r'href="\s*javascript:', html), p.slug
    page = next(p for p in drawn if p.title == evil)
    assert page.slug == "rooms/img-src-x-onerror-alert-1-x-javascript-alert-2-y"
    text = "&lt;img src=x onerror=alert(1)&gt; &#91;x&#93;(javascript:alert(2)) &#42;y&#42; &#124; &#35;"
    assert page.markdown.startswith(f"# {text}\n")
    assert f"| [{text}](rooms/img-src-x-onerror-alert-1-x-javascript-alert-2-y.md) |" in render_map(state)
    lounge = next(p for p in drawn if p.slug == "rooms/lounge").markdown
    assert f"| [{text}](img-src-x-onerror-alert-1-x-javascript-alert-2-y.md) | open |" in lounge


def test_hundreds_of_room_pages_are_drawn_at_once():
    state = _state()
    m = state.doc("map")
    rng = random.Random(7)
    extra = [f"Room {i}" for i in range(300)]
    m["rooms"] += [{"name": n, "visits": rng.randint(0, 5), "damage": 0, "x": 10 * i, "y": 700}
                   for i, n in enumerate(extra)]
    m["connections"] += [{"between": [a, b]} for a, b in zip(["Lounge"] + extra, extra)]
    m["connections"] += [{"between": [rng.choice(extra), rng.choice(extra)]} for _ in range(100)]
    drawn = pages(state)
    assert sum(1 for p in drawn if p.slug.startswith("rooms/")) == len(m["rooms"])
    assert "[Room 1](room-1.md)" in next(p.markdown for p in drawn if p.slug == "rooms/room-0")


def test_the_roster_page_says_why_former_players_went():
    """Rule 33: a loser is removed from the game; the shared roster page lists them among the former players with
    the reason kept in ``roster.former`` (``reason``), while a player who left (Rule 13) just 'left'."""
    from site_plugins.links import Links, player_slugs
    from site_plugins.players import render_roster
    from validators.cases import run

    state, registry = base_state("ifmud-core")
    roster = copy.deepcopy(state.docs["roster"])
    next(p for p in roster["players"] if p["name"] == "Zoe Abbott")["stats"]["brownie"] = 349
    state = State(state.config, {**state.docs, "roster": roster}, state.rules)
    out = run(state, registry, [
        {"at": "2026-11-01T00:30:00Z", "actor": "Carl Muckenhoupt", "action": "ifmud.leave"},
        {"at": "2026-11-01T01:00:00Z", "actor": "Zoe Abbott", "action": "ifmud.move",
         "params": {"to": "Dot-Com Bubble"}},
    ])
    assert out.verdict == "legal", [p.text() for p in out.problems]
    former = {f["name"]: f for f in out.state.doc("roster")["former"]}
    assert former["Adam Biltcliffe"]["reason"] == "did not win, and so lost (Rule 33)"
    assert "reason" not in former["Carl Muckenhoupt"]
    names = [p["name"] for p in out.state.doc("roster")["players"]]
    page = render_roster(out.state, Links("ifmud", "games/ifmud/roster.md", player_slugs(names)), None, {})
    assert "<li>Adam Biltcliffe (removed 1 Nov 2026: did not win, and so lost (Rule 33))</li>" in page
    assert "<li>Carl Muckenhoupt (left 1 Nov 2026)</li>" in page


def test_the_others_table_names_the_entities_as_the_rules_do():
    # ifMUD seed, Rules 71, 80, 114, 155: the monkey, the Magic Omnibus, the pieman, the robot and the kitten.
    text = render_map(_state())
    others = text.split("## Others", 1)[1]
    for label in ("the monkey", "the pieman", "the Magic Omnibus", "the robot", "the kitten"):
        assert f"| {label} |" in others
    assert "| monkey |" not in others and "| omnibus |" not in others


def test_a_connection_a_proposal_adds_is_drawn_and_listed_under_the_map_spelling():
    """Effects naming a connection's rooms by a synonym or in another case (Rule 72) store the map's spelling, so the
    map draws one more line and the Lounge's page lists Saturn as an open exit resting on the Lounge's letter 2."""
    from validators.cases import patched, run

    state, registry = base_state("ifmud-core")
    state = patched(state, registry, [{"op": "replace", "path": "/consent/passive_voters",
                                       "value": ["Zoe Abbott", "Adam Biltcliffe", "Admiral Jota", "Carl Muckenhoupt"]}])
    lines = render_map_svg(state).count("<line ")
    effects = {"gamestate": [{"op": "add", "path": "/map/connections/-",
                              "value": {"between": ["lobby", "saturn"], "basis": [{"room": "LOUNGE", "position": 2}]}}]}
    out = run(state, registry, [
        {"at": "2026-11-01T01:00:00Z", "actor": "Roger Carbol", "action": "ifmud.propose",
         "params": {"name": "Ring road [RC]", "effects": effects}},
        {"at": "2026-11-01T01:01:00Z", "actor": "Roger Carbol", "action": "ifmud.ratify", "params": {"proposal": 1}},
        {"at": "2026-11-01T02:01:01Z", "actor": "Roger Carbol", "action": "engine.tick"},
    ])
    assert out.verdict == "legal"
    assert render_map_svg(out.state).count("<line ") == lines + 1
    lounge = {p.slug: p for p in pages(out.state)}["rooms/lounge"].markdown
    assert "| [Saturn](saturn.md) | open |  | letter 2 of Lounge |" in lounge
    assert not list(MODULE.invariants[0](out.state))


def test_the_turn_page_shows_gifts_a_hand_edit_left_as_they_are():
    """Rule 124: gifts are names, and the consequences of Rule 127 drop any other entry as play goes on; a roster
    edited by hand to hold a number among them, or a single name where the list belongs, still draws the turn page,
    each entry shown as it is."""
    state = _state()
    zoe = next(p for p in state.doc("roster")["players"] if p["name"] == "Zoe Abbott")
    zoe["stats"]["gifts"] = ["Charm", 7]
    assert "| Charm, 7 |" in render_turn(state)
    zoe["stats"]["gifts"] = "Bat Form"
    assert "| Bat Form |" in render_turn(state)


def test_the_turn_page_says_when_the_turn_runs_out_and_at_what_time_it_is_judged():
    """Rule 27: a turn ends after 24 hours at the latest (Rule 92: six for a player asleep at the switch). The page
    said only "Turn 26: Zoe Abbott, since 5 Nov": a player could not tell until when, nor that a wiki read weeks
    later still shows the turn of the game's last action, which the next action (a tick) moves on."""
    state, _ = base_state("ifmud")
    state.doc("turn").update(active="Zoe Abbott", started="2026-11-05T03:00:00Z", asleep=[])
    text = render_turn(state)
    assert ('until <time datetime="2026-11-06T03:00:00Z" title="2026-11-06T03:00:00Z">6 Nov 2026 03:00 UTC</time> '
            "at the latest (24 hours, Rule 27)") in text
    assert "The turn is shown as it stands at the game's clock, <time datetime=\"2026-11-05T04:00:00Z\"" in text
    assert "a turn that has run out since ends with the next action (`nomic tick` too)" in text
    state.doc("turn")["asleep"] = ["Zoe Abbott"]
    assert ">5 Nov 2026 09:00 UTC</time> at the latest (6 hours: asleep at the switch, Rule 92)" in render_turn(state)
    state.doc("turn")["over"] = {"winners": ["Zoe Abbott"], "at": "2026-11-05T04:00:00Z"}
    assert "at the latest" not in render_turn(state)
