"""Cycle 12's module: pure functions (paths, items, populations), invariants and pages."""

from __future__ import annotations

import copy
import re
from datetime import datetime, timezone

import pytest

from validators.cases import base_state
from validators.engine import Action, Ctx, Rule, State
from validators.games.cycle12 import MODULE, _invariants, items, nomsters, pages, ruletree
from validators.games.cycle12.common import is_reputable
from validators.timeutil import parse_time


@pytest.fixture(scope="module")
def base():
    return base_state("cycle12-core")


@pytest.fixture(scope="module")
def example():
    return base_state("cycle12")


def ctx_for(state: State, registry, at: str = "2026-11-10T13:00:00Z") -> Ctx:
    record = {"at": at, "actor": "Ada", "action": "test", "params": {}}
    return Ctx(state, Action(name="test", rule="items", summary=""), record, parse_time(at), registry)


RAW_STAMP = re.compile(r"\d{4}-\d\d-\d\d")  # 2026-11-04T11:00:00Z, 2026-11-02 00:00, 2026-11-12


def _t(iso: str, words: str) -> str:
    """A time as the module pages write it: in words, with the exact stamp kept for the reader who needs it."""
    return f'<time datetime="{iso}" title="{iso}">{words}</time>'


def _shown(markdown: str) -> str:
    """What a reader sees of a page: its text without tags (a tag's attributes are not shown)."""
    return re.sub(r"<[^>]*>", "", markdown)


def rule(rid: str, title: str, parent: str | None = None, number: str = "") -> Rule:
    meta = {"id": rid, "title": title, "number": number, "status": "active"}
    if parent:
        meta["parent"] = parent
    return Rule(rid, meta, "")


# ---------------------------------------------------------------- rules and subrules


def test_paths_join_titles_with_the_separator() -> None:
    rules = {"a": rule("a", "Nomsters"), "b": rule("b", "Actions", "a"), "c": rule("c", "Lick", "b")}
    assert ruletree.path_of(rules, "c", "→") == "Nomsters → Actions → Lick"
    assert ruletree.path_of(rules, "a", "→") == "Nomsters"
    assert ruletree.renumber(rules, "→") == ["a", "b", "c"]
    assert rules["b"].number == "Nomsters → Actions"
    assert ruletree.tree(rules) == [(0, "a"), (1, "b"), (2, "c")]


def test_a_cycle_of_parents_has_no_path() -> None:
    rules = {"a": rule("a", "A", "b"), "b": rule("b", "B", "a")}
    with pytest.raises(ValueError, match="its own ancestor"):
        ruletree.path_of(rules, "a", "→")


def test_a_rule_whose_parent_is_repealed_is_a_top_level_rule() -> None:
    """Seed 004, Subrules: a subrule claims another rule (in effect) as its parent; once the parent is repealed the
    rule is top-level: its path is its title, and the tree draws it at the top, not nowhere."""
    gone = rule("b", "Actions", "a")
    gone.meta["status"] = "repealed"
    rules = {"a": rule("a", "Nomsters"), "b": gone, "c": rule("c", "Lick", "b"), "d": rule("d", "Stay", "c")}
    active = ruletree.live(rules)
    assert ruletree.path_of(active, "c", "→") == "Lick"
    assert ruletree.path_of(active, "d", "→") == "Lick → Stay"
    assert ruletree.tree(active) == [(0, "a"), (0, "c"), (1, "d")]
    assert ruletree.renumber(rules, "→") == ["a", "c", "d"]
    state = State({"options": {}}, {}, rules)
    assert list(ruletree.problems(state, "→")) == []  # a repealed parent is no error
    rules["c"].meta["parent"] = "nowhere"
    found = [p.message for p in ruletree.problems(State({"options": {}}, {}, rules), "→")]
    assert found == ["rule 'c' names a parent 'nowhere' that does not exist"]


def test_the_separator_may_appear_in_no_title(base) -> None:
    state, _ = base
    rules = {k: r.copy() for k, r in state.rules.items()}
    rules["time"].meta["title"] = "Time → Space"
    bad = State(state.config, state.docs, rules)
    found = [p.message for p in _invariants(bad)]
    assert any("contains the path separator" in m for m in found)
    assert any("its path is" in m for m in found)  # Time's subrules' numbers are no longer its path


def test_every_rule_number_is_its_path(example) -> None:
    state, _ = example
    assert list(_invariants(state)) == []
    assert state.rules["follow"].number == "Nomsters → Actions → Follow"
    assert "the-well" not in state.rules  # proposal 4 adds it; its voting period has not ended


# ---------------------------------------------------------------- reputability, population


def test_reputability(base) -> None:
    state, _ = base

    def at(s: str) -> datetime:
        return datetime.fromisoformat(s.replace("Z", "+00:00"))

    assert is_reputable(state, "Ada", at("2026-11-02T00:00:00Z"))  # a founder, at once
    assert not is_reputable(state, "Esme", at("2026-11-16T23:59:59Z"))
    assert is_reputable(state, "Esme", at("2026-11-17T00:00:00Z"))
    assert not is_reputable(state, "Nobody", at("2026-11-17T00:00:00Z"))


def test_carrying_capacity_is_two_thirds_of_the_locations(base) -> None:
    state, _ = base
    assert nomsters.carrying_capacity(state) == 4  # 6 locations
    assert nomsters.wild_count(state) == 3


# ---------------------------------------------------------------- items


def test_item_verbs(base) -> None:
    state, registry = base
    ctx = ctx_for(state, registry)
    treat = items.gain(ctx, "Basil", "treat")
    assert items.owned(ctx, "Basil", "treat") == [treat]
    with pytest.raises(ValueError, match="same location"):
        items.give(ctx, "Basil", "Ada", treat["id"])  # Glass Lake and Mossy Fen
    items.give(ctx, "Ada", "nomster:2", 1)  # Ada and Bramble are both at Mossy Fen
    assert items.owned(ctx, "nomster:2") == [{"id": 1, "kind": "treat", "owner": "nomster:2"}]
    items.take(ctx, "Dmitri", "nomster:2", 1)  # Dmitri is at Mossy Fen too
    assert items.owned(ctx, "Dmitri")[0]["id"] == 1
    items.revoke(ctx, "Dmitri", 1)
    assert items.owned(ctx, "Dmitri") == []
    with pytest.raises(ValueError, match="does not own"):
        items.lose(ctx, "Dmitri", 1)
    with pytest.raises(ValueError, match="is not an item"):
        items.gain(ctx, "Ada", "sword")
    assert state.doc("cycle12_items")["items"][0]["owner"] == "Ada"  # the base state is untouched


def test_two_players_at_no_location_do_not_give(base) -> None:
    # 004 Item Actions: one location is needed; being nowhere together is not being in one location
    state, registry = base
    docs = copy.deepcopy(state.docs)
    for s in docs["cycle12_sheets"]["sheets"]:
        if s["player"] in ("Ada", "Cleo"):
            s["location"] = None
    ctx = ctx_for(State(state.config, docs, state.rules), registry)
    with pytest.raises(ValueError, match="Ada and Cleo are at no location"):
        items.give(ctx, "Ada", "Cleo", 1)
    with pytest.raises(ValueError, match="Ada is at no location"):
        items.give(ctx, "Ada", "nomster:2", 1)


def test_who_may_own_an_item_is_data(base) -> None:
    state, registry = base
    docs = copy.deepcopy(state.docs)
    docs["cycle12_items"]["kinds"]["treat"]["owners"] = ["player"]
    ctx = ctx_for(State(state.config, docs, state.rules), registry)
    with pytest.raises(ValueError, match="a nomster may not own a treat"):
        items.give(ctx, "Ada", "nomster:2", 1)


# ---------------------------------------------------------------- invariants


def test_invariants_catch_two_tags_of_a_family_and_a_stray_owner(base) -> None:
    state, _ = base
    docs = copy.deepcopy(state.docs)
    docs["cycle12_world"]["locations"][1]["tags"] = ["Plant", "Water"]
    docs["cycle12_items"]["items"][0]["owner"] = "nomster:99"
    docs["cycle12_nomsters"]["nomsters"][1]["bonded_to"] = "Basil"
    found = " / ".join(p.message for p in _invariants(State(state.config, docs, state.rules)))
    assert "both of the family" in found
    assert "who is no entity" in found
    assert "always on its bonded player's team" in found


def test_invariants_catch_a_nomster_bonded_to_a_player_whose_sheet_names_another(base) -> None:
    """004 Nomster Bond: a player is bonded to one nomster, the one the sheet names. A hand edit bonding Bramble to
    Ada, whose sheet names no bond, is a problem ``nomic check`` reports; so is a second bond beside the first."""
    state, _ = base
    docs = copy.deepcopy(state.docs)
    docs["cycle12_nomsters"]["nomsters"][1]["bonded_to"] = "Ada"
    found = " / ".join(p.message for p in _invariants(State(state.config, docs, state.rules)))
    assert "nomster 2 is bonded to Ada, whose sheet names no bond" in found
    docs["cycle12_sheets"]["sheets"][0]["bonded"] = 2
    assert not [p for p in _invariants(State(state.config, docs, state.rules)) if p.rule == "nomster-bond"]
    docs["cycle12_nomsters"]["nomsters"][0].update(wild=False, trainer="Ada", bonded_to="Ada")
    found = " / ".join(p.message for p in _invariants(State(state.config, docs, state.rules)))
    assert "nomster 1 is bonded to Ada, whose sheet names nomster 2" in found


def test_invariants_catch_an_item_of_no_kind_or_with_an_owner_its_kind_does_not_allow(base) -> None:
    """004 Items: only what the rules call an item is one, owned only by an entity they allow; a hand edit
    breaking either is a problem ``nomic check`` reports."""
    state, _ = base
    docs = copy.deepcopy(state.docs)
    docs["cycle12_items"]["kinds"]["treat"]["owners"] = ["nomster"]
    found = " / ".join(p.message for p in _invariants(State(state.config, docs, state.rules)))
    assert "item 1 is owned by Ada, but a player may not own a treat" in found
    del docs["cycle12_items"]["kinds"]["treat"]
    found = " / ".join(p.message for p in _invariants(State(state.config, docs, state.rules)))
    assert "item 1 is a treat, which is no kind of item" in found


def test_every_action_cites_a_rule_of_the_example_and_says_what_it_does(example) -> None:
    state, _ = example
    for action in MODULE.actions:
        assert action.rule in state.rules, f"{action.name} cites {action.rule!r}"
        assert action.summary
    assert all(e.rule in state.rules for e in MODULE.events)


# ---------------------------------------------------------------- pages


def test_pages_escape_what_players_typed(base) -> None:
    state, _ = base
    docs = copy.deepcopy(state.docs)
    docs["cycle12_world"]["locations"][0]["name"] = "<script>alert(1)</script>"
    docs["cycle12_nomsters"]["nomsters"][1]["name"] = "Bram|ble <b>"
    hostile = State(state.config, docs, state.rules)
    svg = pages.render_map_svg(hostile)
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    table = pages.render_nomsters(hostile)
    assert "<b>" not in table and "Bram&#124;ble" in table


def test_a_nomster_whose_trainer_left_is_shown_on_no_team(base) -> None:
    """Our reading of 004 Teams: a nomster whose trainer left the game is on no team; the pages say whose it was."""
    state, _ = base
    docs = copy.deepcopy(state.docs)
    bramble = docs["cycle12_nomsters"]["nomsters"][1]
    del bramble["trainer"]
    bramble["former_trainer"] = "Ada"
    gone = State(state.config, docs, state.rules)
    row = next(line for line in pages.render_nomsters(gone).splitlines() if "Bramble" in line)
    assert "| none (Ada left the game) |" in row


def test_the_map_draws_each_tile_at_its_coordinates(base) -> None:
    state, _ = base
    svg = pages.render_map_svg(state)
    tiles = re.findall(r'<g class="tile" id="tile-(\d+)">\s*<rect x="(\d+)" y="(\d+)"', svg)
    at = {int(i): (int(x), int(y)) for i, x, y in tiles}
    assert len(at) == 6
    # Mossy Fen (1, 0) is one tile east of Apeiros Village (0, 0); Glass Lake (0, 1) one tile north
    assert at[2][0] - at[1][0] == pages.TILE and at[2][1] == at[1][1]
    assert at[1][1] - at[4][1] == pages.TILE and at[4][0] == at[1][0]
    assert svg.count("<circle") == 5  # five nomsters


def test_the_tree_page_nests_subrules(example) -> None:
    state, _ = example
    text = pages.render_tree(state)
    assert "    - **Taming** <small>Nomsters → Taming</small>" in text
    assert "        - **Creating a Tame Nomster**" in text


def test_the_calendar_names_the_current_phase(base) -> None:
    state, _ = base
    text = pages.render_calendar(state, datetime(2026, 11, 13, tzinfo=timezone.utc))
    assert "**Phase IV**" in text
    assert f"| Phase IV (at that time) | Thu {_t('2026-11-12T00:00:00Z', '12 Nov 2026 00:00 UTC')} |" in text
    assert not RAW_STAMP.search(_shown(text))


def test_the_calendar_says_its_phase_is_the_game_clocks_and_writes_each_bound_alike(example) -> None:
    """The Phases page said "Now (18 Nov 2026 22:40 UTC): Phase V" and marked Phase V "(now)" to a reader a week
    later, in Phase VII: it is the game's clock, its last action, and the page says so as the other games' pages do.
    A phase ran "From Mon 2 Nov 2026" "Until Thu 5 Nov 2026 00:00 UTC": both bounds are written alike, with their
    time."""
    state, _ = example
    text = pages.render_calendar(state)
    assert ("At the game's clock, " + _t("2026-11-18T22:40:00Z", "18 Nov 2026 22:40 UTC") + ", the time of its "
            "last action (which may be earlier than the time you read this): **Phase V**.") in text
    assert "Now (" not in text and "(now)" not in text
    assert "| Phase V (at the clock) |" in text
    assert (f"| Phase I | Mon {_t('2026-11-02T00:00:00Z', '2 Nov 2026 00:00 UTC')} | "
            f"Thu {_t('2026-11-05T00:00:00Z', '5 Nov 2026 00:00 UTC')} |") in text


def test_module_pages_are_all_drawn(example) -> None:
    state, _ = example
    drawn = MODULE.pages(state)
    assert {p.slug for p in drawn} >= {"world-map", "subrules", "phases", "cycle12-proposals", "sheets"}
    assert all(p.markdown.startswith("# ") for p in drawn)


def test_a_path_number_is_cited_once(example) -> None:
    state, _ = example
    assert state.rules["follow"].cite() == "Nomsters → Actions → Follow"
    assert state.rules["time"].cite() == "Time"
    assert rule("x", "Energy", number="2.3").cite() == "2.3 Energy"  # other games keep "number title"


# ---------------------------------------------------------------- a page per location


def test_every_location_has_an_unlisted_page(example) -> None:
    state, _ = example
    drawn = MODULE.pages(state)
    located = [p for p in drawn if p.slug.startswith("locations/")]
    assert sorted(p.slug for p in located) == sorted(f"locations/{loc['id']}"
                                                    for loc in state.doc("cycle12_world")["locations"])
    assert all(not p.listed and p.source == "gamestate/cycle12_world.yaml" for p in located)
    assert all(p.listed for p in drawn if p not in located)


def test_a_location_page_shows_the_place(example) -> None:
    state, _ = example
    by_slug = {p.slug: p for p in MODULE.pages(state)}
    fen = by_slug["locations/2"]
    assert fen.title == "Mossy Fen"
    text = fen.markdown
    assert text.startswith("# Mossy Fen\n")
    assert "at (1, 0)" in text and "> Soft green ground that sighs underfoot." in text
    assert "| Plant | Primary Location Type | the plant element |" in text
    assert "| Farm | Population Level | worked as farmland |" in text
    assert "tiles/mossy-fen.png" in text and "cards/mossy-fen.png" in text
    assert (f"Created {_t('2026-11-02T10:52:00Z', '2 Nov 2026 10:52 UTC')} by Dmitri, answering suggestion 2 "
            "(tile) by Cleo.") in text
    players = text.split("## Players here")[1].split("##")[0]
    assert "| Basil | a teapot | Mossback (&#35;2) |" in players and "| Dmitri | a pine cone |" in players
    assert "Ada" not in players and "Cleo" not in players
    assert "| 2 | Mossback | tame | Plant | Reptilian | Fen Lizard | Basil |" in text
    # its four neighbours, north, east, south and west, each linked to its page
    assert "| north | [Frost Terrace](7.md) | (1, 1) | Cold |" in text
    assert "| east | [Ember Steppe](3.md) |" in text
    assert "| south | [Sunken Bell](9.md) |" in text
    assert "| west | [Apeiros Village](1.md) |" in text
    assert (f"| 1 | terraform | Ada | {_t('2026-11-10T09:37:00Z', '10 Nov 2026 09:37 UTC')} | Population Level | "
            "Farm | 3 "
            "| done: Farm added to Mossy Fen |") in text
    assert "[World map](../world-map.md)" in text
    # wild nomsters, an ascended one and the player who ascended, a survey and a location change card
    lake = by_slug["locations/4"].markdown
    assert "| 6 |  | wild | Light | Mammalian |" in lake and "| 9 |  | wild | Water | Reptilian |" in lake
    tower = by_slug["locations/12"].markdown
    assert "| 1 | Bramble | tame (ascended: left the map here) | Plant | Avian | Thornwing | Ada | Ada | Ada |" in tower
    assert "| Ada (ascended: left the map here) | a red kite |" in tower
    assert "| 3 | The tower has a door | took effect |" in tower  # in words, not the file's took-effect
    assert "No location is adjacent" not in tower and "| south | [Glass Lake](4.md) |" in tower
    hills = by_slug["locations/5"].markdown
    assert "| 2 | survey | Basil |" in hills and "done: Dark added to Copper Hills" in hills
    assert "No nomster is here." in by_slug["locations/1"].markdown


def test_the_world_map_links_each_location_to_its_page(example) -> None:
    state, _ = example
    text = pages.render_map(state)
    for loc in state.doc("cycle12_world")["locations"]:
        assert f"| [{loc['name']}](locations/{loc['id']}.md) | ({loc['x']}, {loc['y']}) |" in text
    assert "| 1 | terraform | Ada | [Mossy Fen](locations/2.md) |" in text


def _claims_played(base, reacted_to_2: int, last_at: str = "2026-11-10T13:25:00Z"):
    """Two claims on the first location (Basil's, 1, and Dmitri's, 2), ``reacted_to_2`` reactions to the second."""
    from validators.cases import patched, run

    state, registry = base
    state = patched(state, registry, [{"op": "replace", "path": "/cycle12_world/locations", "value": []}])
    suggest = {"kind": "card", "name": "Apeiros Village", "x": 0, "y": 0}
    records = [
        {"at": "2026-11-10T13:00:00Z", "actor": "Ada", "action": "cycle12.suggest-location",
         "params": {**suggest, "description": "Where it begins."}},
        {"at": "2026-11-10T13:01:00Z", "actor": "Cleo", "action": "cycle12.suggest-location",
         "params": {**suggest, "description": "A second start."}},
        {"at": "2026-11-10T13:10:00Z", "actor": "Basil", "action": "cycle12.create-location",
         "params": {"suggestion": 3, "image": "tiles/apeiros.png"}},
        {"at": "2026-11-10T13:11:00Z", "actor": "Dmitri", "action": "cycle12.create-location",
         "params": {"suggestion": 4, "image": "tiles/apeiros-2.png"}},
        {"at": "2026-11-10T13:20:00Z", "actor": "Ada", "action": "cycle12.react-founding", "params": {"founding": 1}},
    ]
    for who, minute in list(zip(["Ada", "Basil", "Cleo", "Dmitri", "Esme"], range(21, 26)))[:reacted_to_2]:
        at = f"2026-11-10T13:{minute}:00Z" if who != "Esme" else last_at
        records.append({"at": at, "actor": who, "action": "cycle12.react-founding", "params": {"founding": 2}})
    outcome = run(state, registry, records)
    assert outcome.verdict == "legal", [p.text() for p in outcome.problems]
    return outcome.state


def _first_location_section(text: str) -> str:
    return _shown(text.split("## The first location", 1)[1].split("## Terrain tags", 1)[0])


def test_the_world_map_shows_the_claims_waiting_on_the_first_location(base) -> None:
    """004 Position Constraints: while no location exists, each claim on Apeiros Village waits for five reactions;
    the World map page, where the first location is to be found, lists them with what each still needs."""
    text = pages.render_map(_claims_played(base, 2))
    shown = _first_location_section(text)
    assert "## The first location" in text and "### Waiting for reactions" in text
    assert "### Dropped claims" not in text
    rows = [line for line in shown.splitlines() if line.startswith(("| 1 | Basil |", "| 2 | Dmitri |"))]
    assert len(rows) == 2, rows
    basil, dmitri = rows
    # who, which suggestion (made by whom), the card and tile, the reactions so far, and what is still needed:
    # five reactions within a week of the suggestion (Creation Constraints)
    assert "| 3 (card by Ada) | Apeiros Village (0, 0); tile tiles/apeiros.png |" in basil
    assert "| 1: Ada | 4 more reactions by " in basil
    assert "| 4 (card by Cleo) | Apeiros Village (0, 0); tile tiles/apeiros-2.png |" in dmitri
    assert "| 2: Ada, Basil | 3 more reactions by " in dmitri
    assert 'datetime="2026-11-17T13:01:00Z"' in text  # Cleo's suggestion turns a week old then
    one_short = _first_location_section(pages.render_map(_claims_played(base, 4)))
    assert "| 4: Ada, Basil, Cleo, Dmitri | 1 more reaction by " in one_short, one_short


def test_the_world_map_counts_the_reactions_of_players_who_left(base) -> None:
    """004 Position Constraints counts the reactions on the claim's card, anyone's: one whose reactor has left the
    game (set apart as ``departed_reactions``) still counts, and the page says whose it was."""
    state = _claims_played(base, 2)
    world = state.docs["cycle12_world"]
    claims = [dict(c, reactions=["Basil"], departed_reactions=["Ada"]) if c["id"] == 2 else c
              for c in world["founding"]]
    state = State(state.config, {**state.docs, "cycle12_world": {**world, "founding": claims}}, state.rules)
    row = next(line for line in _first_location_section(pages.render_map(state)).splitlines()
               if line.startswith("| 2 | Dmitri |"))
    assert "| 2: Basil, Ada (left the game) | 3 more reactions by " in row, row


def test_a_claim_whose_suggestion_is_too_old_says_it_can_no_longer_be_created(base) -> None:
    """004 Creation Constraints: a claim whose suggestion is more than a week old will not be created."""
    state = _claims_played(base, 2)
    later = State(state.config, {**state.docs, "ledger": {**state.docs["ledger"], "clock": "2026-11-18T00:00:00Z"}},
                  state.rules)
    shown = _shown(pages.render_map(later))
    assert "cannot be created any more: suggestion 4 is more than 7 days old" in shown


def test_the_world_map_shows_the_dropped_claims_on_the_first_location(base) -> None:
    """004 Position Constraints: once a claim reaches five reactions the others are dropped; the page keeps them,
    with when and why, beside the location made."""
    text = pages.render_map(_claims_played(base, 5))
    shown = _first_location_section(text)
    assert "### Waiting for reactions" not in text and "### Dropped claims" in text
    row = next(line for line in shown.splitlines() if line.startswith("| 1 | Basil |"))
    assert "| 3 | Apeiros Village (0, 0); tile tiles/apeiros.png | 1 |" in row
    assert row.endswith("| claim 2 was created first |")
    assert 'datetime="2026-11-10T13:25:00Z"' in text
    # a claim dropped because its suggestion grew too old says so
    text = pages.render_map(_claims_played(base, 5, last_at="2026-11-17T13:02:00Z"))
    assert "suggestion 4 is more than 7 days old" in _shown(text) and "### Waiting for reactions" in text


def test_a_hostile_location_name_is_escaped_on_every_page(base) -> None:
    import markdown

    state, _ = base
    docs = copy.deepcopy(state.docs)
    world = docs["cycle12_world"]["locations"]
    world[0]["name"] = "<script>alert(1)</script> [x](javascript:alert(2)) *x* | #"
    world[0]["description"] = "<img src=x onerror=alert(3)>"
    hostile = State(state.config, docs, state.rules)
    drawn = MODULE.pages(hostile)
    for p in drawn:  # as the wiki renders it
        html = markdown.markdown(p.markdown, extensions=["tables", "attr_list"])
        assert "<script" not in html and "<img" not in html and not re.search(r'href="\s*javascript:', html), p.slug
    by_slug = {p.slug: p for p in drawn}
    lid = world[0]["id"]
    own = by_slug[f"locations/{lid}"]
    assert own.title == world[0]["name"]  # the wiki escapes page titles itself
    text = "&lt;script&gt;alert(1)&lt;/script&gt; &#91;x&#93;(javascript:alert(2)) &#42;x&#42; &#124; &#35;"
    assert own.markdown.startswith(f"# {text}\n")
    assert "&lt;img src=x onerror=alert(3)&gt;" in own.markdown
    assert f"| [{text}](locations/{lid}.md) |" in by_slug["world-map"].markdown
    east = next(loc for loc in world if (loc["x"], loc["y"]) == (world[0]["x"] + 1, world[0]["y"]))
    assert f"| west | [{text}]({lid}.md) |" in by_slug[f"locations/{east['id']}"].markdown


def test_a_thousand_location_pages_are_drawn_at_once(base) -> None:
    state, _ = base
    docs = copy.deepcopy(state.docs)
    world = docs["cycle12_world"]
    proto = world["locations"][0]
    world["locations"] = [dict(proto, id=i + 1, name=f"Place {i + 1}", x=i % 40, y=i // 40, tags=["Heat"])
                          for i in range(1000)]
    big = State(state.config, docs, state.rules)
    drawn = MODULE.pages(big)
    assert sum(1 for p in drawn if p.slug.startswith("locations/")) == 1000
    middle = next(p for p in drawn if p.slug == "locations/42").markdown  # (1, 1): four neighbours
    assert all(f"[Place {n}]({n}.md)" in middle for n in (82, 43, 2, 41))


# ---------------------------------------------------------------- reading without copying


def test_the_quick_lookups_agree_with_the_whole_maps(example) -> None:
    from validators.games.cycle12 import transcription, world

    state, _ = example
    known = transcription.submissions(state)
    assert known, "the example records some sheets"
    for path, found in known.items():
        assert transcription.submission(state, path) == found
        assert world.image_submitted(state, path) == (path in world.submitted_images(state))
    assert transcription.submission(state, "no/such/sheet.png") is None
    assert not world.image_submitted(state, "no/such/sheet.png")


def test_the_medal_tests_read_once_and_answer_as_the_conditions(example) -> None:
    from validators.games.cycle12 import cycle

    state, registry = example
    docs = copy.deepcopy(state.docs)
    sugg = docs["cycle12_world"]["suggestions"]
    names = [p["name"] for p in docs["roster"]["players"]]
    if len(sugg) >= 2 and len(names) >= 2:  # one of each way round, so a cartographer exists
        sugg[0].update(by=names[0], fulfilled_by=names[1])
        sugg[1].update(by=names[1], fulfilled_by=names[0])
    varied = State(state.config, docs, state.rules)
    for st in (state, varied):
        for at in ("2026-11-03T00:00:00Z", "2026-11-20T00:00:00Z", "2027-01-01T00:00:00Z"):
            ctx = ctx_for(st, registry, at)
            for cond, make in cycle.FAST_TESTS.items():
                test = make(ctx)
                for name in [*names, "Nobody"]:
                    assert test(name) == cond(ctx, name), (cond.__name__, name, at)


def test_a_remembered_value_is_read_again_once_its_documents_are_edited(base) -> None:
    from validators.games.cycle12.common import SHEETS, BaseMemo

    state, registry = base
    memo, calls = BaseMemo(), []

    def compute() -> int:
        calls.append(1)
        return len(calls)

    assert memo.get(ctx_for(state, registry), (SHEETS,), compute) == 1
    assert memo.get(ctx_for(state, registry), (SHEETS,), compute) == 1  # the same documents: remembered
    ctx = ctx_for(state, registry)
    ctx.edit(SHEETS)
    assert memo.get(ctx, (SHEETS,), compute) == 2  # edited in this action: read afresh
    other = State(state.config, {**state.docs, SHEETS: copy.deepcopy(state.docs[SHEETS])}, state.rules)
    assert memo.get(ctx_for(other, registry), (SHEETS,), compute) == 3  # another state's documents


# ---------------------------------------------------------------- an urgent proposal's end


def _urgent(registry, state: State, at: str) -> State:
    from validators.engine import apply_action

    card = {"kind": "location-card", "x": -1, "y": 0, "name": "Rust Hills"}
    record = {"at": at, "actor": "Ada", "action": "cycle12.propose", "params": {"class": "urgent", "changes": [card]}}
    return apply_action(registry, state, record).state


def test_an_urgent_proposal_ending_mid_phase_fires_its_own_event_at_its_end(base) -> None:
    """Seed 004, Lifecycle / Urgent Proposals: the event is due at the end of the two days, and only then."""
    from validators.engine import apply_action

    state, registry = base
    state = _urgent(registry, state, "2026-11-10T13:00:00Z")
    tick = {"at": "2026-11-13T09:00:00Z", "actor": "Basil", "action": "engine.tick", "params": {}}
    fired = apply_action(registry, state, tick).events
    assert [(e["event"], e["at"]) for e in fired] == [
        ("cycle12.phase-begins", "2026-11-12T00:00:00Z"),
        ("cycle12.urgent-proposal-ends", "2026-11-12T13:00:00Z")]
    assert fired[1]["outcome"][0]["result"] == "took-effect"


def test_an_urgent_proposal_ending_as_a_phase_begins_is_resolved_once_by_the_phase_start(base) -> None:
    """The phase start resolves whatever is due then; the urgent event skips that moment, so nothing fires twice."""
    from validators.engine import apply_action

    state, registry = base
    state = _urgent(registry, state, "2026-11-14T00:00:00Z")
    tick = {"at": "2026-11-16T00:00:00Z", "actor": "Basil", "action": "engine.tick", "params": {}}
    applied = apply_action(registry, state, tick)
    assert [e["event"] for e in applied.events] == ["cycle12.phase-begins"]
    resolved = [s for s in applied.events[0]["outcome"] if "proposal" in s]
    assert [s["proposal"] for s in resolved] == [1, 2]


def test_every_time_on_the_cycle12_pages_is_written_as_the_wiki_writes_times(example) -> None:
    """Proposals, judgement, sheets, locations, the map and the phases write times as the rest of the wiki does
    (4 Nov 2026 11:00 UTC, or 4 Nov 2026 for a day), never a raw stamp; the stamp stays in each ``<time>``'s title."""
    state, _ = example
    drawn = {p.slug: p.markdown for p in MODULE.pages(state)}
    for slug, text in drawn.items():
        found = RAW_STAMP.search(_shown(text))
        assert found is None, (slug, found)
    assert (f"Standard, by Cleo, made {_t('2026-11-18T16:50:00Z', '18 Nov 2026 16:50 UTC')} (Phase V); "
            f"voting ends {_t('2026-11-23T00:00:00Z', '23 Nov 2026 00:00 UTC')}.") in drawn["cycle12-proposals"]
    archived = f"| took effect | 4 | 1 | {_t('2026-11-09T00:00:00Z', '9 Nov 2026 00:00 UTC')} |"
    assert archived in drawn["cycle12-proposals"]
    assert "| 2 | Bigger treats | standard | Dmitri | did not take effect |" in drawn["cycle12-proposals"]
    assert "-effect" not in drawn["cycle12-proposals"]  # each result in words, not as the file keeps it
    assert f"Statement by Dmitri, {_t('2026-11-10T13:35:00Z', '10 Nov 2026 13:35 UTC')}." in drawn["judgement"]
    assert f"— Cleo, {_t('2026-11-10T15:05:00Z', '10 Nov 2026 15:05 UTC')} (standing)." in drawn["judgement"]
    assert (f"| Dmitri | {_t('2026-11-18T21:10:00Z', '18 Nov 2026 21:10 UTC')} | "
            f"{_t('2026-11-25T21:10:00Z', '25 Nov 2026 21:10 UTC')} | done |") in drawn["sheets"]
    assert (f"The cycle started at {_t('2026-11-02T00:00:00Z', '2 Nov 2026 00:00 UTC')} and ends"
            in drawn["phases"])
    assert (f"| Phase I | Mon {_t('2026-11-02T00:00:00Z', '2 Nov 2026 00:00 UTC')} | "
            f"Thu {_t('2026-11-05T00:00:00Z', '5 Nov 2026 00:00 UTC')} |") in drawn["phases"]


def test_the_map_keeps_a_legible_width_in_a_box_that_scrolls(base) -> None:
    """Shrunk to a phone's column, a tile's name was a few pixels high: the map is drawn no narrower than three
    quarters of its size (``_markup.legible_width``), right inside a box that scrolls sideways."""
    state, _ = base
    svg = pages.render_map_svg(state)
    width = int(re.search(r'viewBox="0 0 (\d+) ', svg).group(1))
    assert re.search(r'style="min-width:(\d+)px"', svg).group(1) == str(round(width * 0.75))
    assert '<div class="cycle12-map" style="overflow-x:auto"><svg ' in pages.render_map(state)


def test_a_judge_taken_off_the_roster_by_any_action_leaves_no_judge(base) -> None:
    """004 Judgement, Election (our reading): the consequence empties the office whatever action removes the
    judge from the roster (not only a proposal's change), and drops the assents that lapse with them; an
    action that leaves the roster alone looks at nothing."""
    from validators.games.cycle12 import justice

    state, registry = base
    ctx = ctx_for(state, registry)
    justice_doc = ctx.edit("cycle12_justice")
    justice_doc["removal"] = [{"player": "Ada", "against": "Basil"}]
    ctx = ctx_for(ctx.tx.commit(), registry)
    justice.lapse_assents(ctx)  # the roster untouched: the judge stays, so does the assent
    assert ctx.doc("cycle12_justice")["judge"] == "Basil" and len(ctx.doc("cycle12_justice")["removal"]) == 1
    players = ctx.edit("roster")["players"]
    players[:] = [p for p in players if p["name"] != "Basil"]
    justice.lapse_assents(ctx)
    assert ctx.doc("cycle12_justice")["judge"] is None
    assert ctx.doc("cycle12_justice")["removal"] == []
    assert ctx.outcome[-1] == {"judge_left": "Basil", "judge": None}


def test_an_ascended_player_is_shown_at_no_location(example) -> None:
    """004 Ascend, our reading: an ascended player and nomster have left the map, so they are at no location. The
    sheet keeps the location they left from (the Tower of Ferrets), which every rule reads as nowhere; the pages
    say so instead of showing them as still there."""
    state, _ = example
    ada = next(s for s in state.doc("cycle12_sheets")["sheets"] if s["player"] == "Ada")
    assert ada["ascended"] and ada["location"] == 12  # the place left, kept on the sheet
    sheets = pages.render_sheets(state)
    row = next(line for line in sheets.splitlines() if line.startswith("| Ada"))
    assert "| left the map (from Tower of Ferrets) |" in row and "| Tower of Ferrets |" not in row
    noms = pages.render_nomsters(state)
    row = next(line for line in noms.splitlines() if "Bramble" in line)
    assert "| left the map (from Tower of Ferrets) |" in row


def _checked_after_edit(tmp_path, name: str, old: str, new: str):
    """``nomic check --no-replay`` of the example game with ``old`` in ``gamestate/<name>`` replaced by ``new``: bad
    input (exit 2), with no traceback. Returns the command's result and the file's text before the edit."""
    from tests.gitgame import make_repo, nomic

    repo = make_repo(tmp_path, "cycle12")
    path = repo / "content" / "cycle12" / "gamestate" / name
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))
    r = nomic(repo, "check", "--no-replay")
    assert r.returncode == 2, r.stdout + r.stderr
    assert "Traceback" not in r.stdout + r.stderr
    return r, text


def test_a_treat_without_its_time_is_bad_input_at_its_line(tmp_path) -> None:
    """Seed 004 Join Team counts a treat by when it was given (within 7 days, while its giver was reputable):
    a hand-edited treat without ``at`` is refused by the schema at its line, not a KeyError in a command."""
    timed = "    treats:\n      - by: Basil\n        phase: 5\n        at: 2026-11-18T20:10:00Z\n"
    r, text = _checked_after_edit(tmp_path, "cycle12_nomsters.yaml", timed,
                                  "    treats:\n      - by: Basil\n        phase: 5\n")
    line = 1 + text[:text.index(timed)].count("\n") + 1  # the treat's first line, "- by: Basil"
    assert f"content/cycle12/gamestate/cycle12_nomsters.yaml:{line}:" in r.stdout
    assert "treats[0]: 'at' is a required property" in r.stdout


def test_a_long_cuddle_description_is_written_and_checks_clean(tmp_path) -> None:
    """Seed 004, Cuddle: the cuddler writes how, however brief, and the action takes up to 500 characters; the
    nomster's record keeps it, so its schema takes as many (it took 200: a 300-character cuddle was legal but
    left cycle12_nomsters.yaml invalid, and `nomic act` refused to write it). One more is bad input."""
    from tests.gitgame import make_repo, nomic

    repo = make_repo(tmp_path, "cycle12")
    how = "gently, " * 62 + "ok"  # 498 characters
    r = nomic(repo, "act", "cycle12", "cycle12.cuddle", "nomster=2", f"how={how}", "--as", "Dmitri",
              "--at", "2026-11-19T10:00:00Z")
    assert r.returncode == 0, r.stdout + r.stderr
    text = (repo / "content" / "cycle12" / "gamestate" / "cycle12_nomsters.yaml").read_text()
    assert how in text
    c = nomic(repo, "check", "--base", "main")
    assert c.returncode == 0, c.stdout + c.stderr
    r = nomic(repo, "act", "cycle12", "cycle12.cuddle", "nomster=2", "how=" + "x" * 501, "--as", "Basil",
              "--at", "2026-11-19T10:05:00Z")
    assert r.returncode == 2, r.stdout + r.stderr
    assert "Traceback" not in r.stdout + r.stderr


def test_a_card_suggestion_without_its_name_is_bad_input_at_its_line(tmp_path) -> None:
    """Seed 004, Location Sheets: a location card shows the location's name and coordinates, and a location is
    created from a card suggestion with them. A hand-edited card suggestion without its name is refused by the
    schema at its line (it reached create-location as a KeyError); a tile suggestion needs none."""
    r, _ = _checked_after_edit(tmp_path, "cycle12_world.yaml", "    kind: card\n    name: Copper Hills\n",
                               "    kind: card\n")
    assert "content/cycle12/gamestate/cycle12_world.yaml:" in r.stdout
    assert "'name' is a required property" in r.stdout


def test_a_waiting_claim_on_the_first_location_shows_what_it_creates(base) -> None:
    """Seed 004, Position Constraints: a claim waiting for its five reactions creates the location its card
    describes; the schema asks a claim for its suggestion, answerer, reactions, name and coordinates (one written
    by hand without its reactions reached react-founding as a KeyError)."""
    from validators import schemas

    state, _ = base
    world = copy.deepcopy(state.docs["cycle12_world"])
    claim = {"suggestion": 1, "by": "Ada", "name": "Apeiros Village", "x": 0, "y": 0, "reactions": []}
    for founding in (claim, [dict(claim, id=1)]):
        world["founding"] = founding
        assert schemas.errors(world, schema="cycle12_world.schema.json") == []
    for founding in ({k: v for k, v in claim.items() if k != "reactions"}, [claim]):
        world["founding"] = founding
        assert schemas.errors(world, schema="cycle12_world.schema.json"), founding


def test_due_shows_the_events_as_they_will_fire_and_none_after_the_cycle_ends(tmp_path) -> None:
    """Seed 004, The End of All Things: the cycle ends at the end of its last phase, and nothing falls due after it.
    `nomic due` lists the events as the tick will fire them, each next one asked of the state the last left (as
    the engine's advance does): here the last phase is VI, so the phase start of Monday 23 November ends the cycle
    and is the last event shown (the preview used to plan every phase start to the date asked from the state
    before, listing phase starts of a cycle already over)."""
    from tests.gitgame import make_repo, nomic

    repo = make_repo(tmp_path, "cycle12")
    game = repo / "content" / "cycle12" / "game.yaml"
    game.write_text(game.read_text().replace("    start: 2026-11-02T00:00:00Z\n",
                                             "    start: 2026-11-02T00:00:00Z\n    last_phase: 6\n"))
    r = nomic(repo, "due", "cycle12", "--at", "2026-12-20T00:00:00Z")
    assert r.returncode == 0, r.stdout + r.stderr
    shown = [line for line in r.stdout.splitlines() if "scheduled: cycle12.phase-begins" in line]
    assert [line.split(" fell due at ")[1].split(" ")[0] for line in shown] == [
        "2026-11-19T00:00:00Z", "2026-11-23T00:00:00Z"], r.stdout
    assert "more scheduled events" not in r.stdout


def test_due_events_are_those_the_tick_fires(base) -> None:
    """The preview and the tick agree: `due_events` gives the firings `advance` makes (the fixture with a last phase
    of III ends at the phase start of 12 November: one event, not a phase start every half week after it)."""
    from validators.cases import patched
    from validators.engine import advance, due_events

    state, registry = base
    state = patched(state, registry, [{"op": "replace", "path": "/config/options/cycle12/last_phase", "value": 3}])
    until = parse_time("2026-11-30T00:00:00Z")
    planned = [(t.isoformat(), ev.name) for t, ev in due_events(registry, state, state.now(), until)]
    _, fired = advance(registry, state, until)
    assert planned == [(parse_time(f["at"]).isoformat(), f["event"]) for f in fired]
    assert planned == [("2026-11-12T00:00:00+00:00", "cycle12.phase-begins")]


def test_the_proposals_page_has_the_headings_of_the_other_games_and_says_when_they_are_empty(example) -> None:
    state, _ = example
    page = pages.render_proposals(state)
    assert "## Pending proposals {#pending}" in page and "## Archive {#archive}" in page
    assert "### #4 Name the well {#proposal-4}" in page  # numbered as the other games number their proposals
    assert "No proposal is pending." not in page and "No proposals resolved yet." not in page
    empty = State(state.config, {**state.docs, "cycle12_proposals": {**state.doc("cycle12_proposals"),
                                                                     "proposals": []}}, state.rules)
    page = pages.render_proposals(empty)
    assert "## Pending proposals {#pending}\n\nNo proposal is pending." in page
    assert "## Archive {#archive}\n\nNo proposals resolved yet." in page  # no heading missing, no section left bare


def test_the_proposals_page_says_which_game_options_a_textual_change_sets(base) -> None:
    # 004 Textual Changes: a change amending a rule's number sets the game's option (docs/modules/cycle12.md,
    # Proposals); the page says so beside the change's text, and says nothing of options for a change without
    state, _ = base
    doc = copy.deepcopy(state.doc("cycle12_proposals"))
    doc["proposals"][0]["changes"].append({"kind": "textual", "text": "Licks pay 10.", "options": {"lick_points": 10}})
    page = pages.render_proposals(State(state.config, {**state.docs, "cycle12_proposals": doc}, state.rules))
    assert "2. Textual change: Licks pay 10. (sets the game's options: lick&#95;points 10)" in page  # _ as markup-safe
    assert "1. Textual change: Cleo gains a treat.\n" in page


def test_the_judgement_page_spells_out_rfj_and_says_when_there_is_none(example) -> None:
    # Judgement → Requests for Justice: the page's headings say "RFJ 1"; the lede says what an RFJ is
    state, _ = example
    page = pages.render_justice(state)
    assert "Each Request for Justice (RFJ) names a statement" in page and "## RFJ 1: " in page
    assert "No Request for Justice" not in page
    justice = copy.deepcopy(state.doc("cycle12_justice"))
    justice["rfjs"] = []
    empty = State(state.config, {**state.docs, "cycle12_justice": justice}, state.rules)
    assert "No Request for Justice has been made yet." in pages.render_justice(empty)


def _repealed(state: State, *ids: str) -> State:
    rules = dict(state.rules)
    for rid in ids:
        r = rules[rid]
        rules[rid] = Rule(r.id, {**r.meta, "status": "repealed"}, r.body)
    return State(state.config, state.docs, rules)


def _ready(state: State, registry, action: str, actor: str, at: str) -> list[str]:
    record = {"at": at, "actor": actor, "action": action, "params": {}}
    ctx = Ctx(state, registry.actions[action], record, parse_time(at), registry)
    return [str(getattr(p, "message", p)) for p in registry.actions[action].ready(ctx)]


def test_the_lists_readiness_follows_a_repealed_rule(base):
    """``Action.ready`` (what ``nomic act --list`` says is possible) asks the same rules as the check: with seed 004
    Creation Constraints repealed a suggestion of any age may be answered, and with Item Actions repealed a treat
    may be given to a nomster anywhere; in force, neither (tests/cases/cycle12/repealed-rules.yaml has the
    verdicts)."""
    state, registry = base
    late = "2026-11-20T10:00:00Z"  # both suggestions are over a week old
    assert _ready(state, registry, "cycle12.create-location", "Ada", late)
    assert _ready(_repealed(state, "creation-constraints"), registry, "cycle12.create-location", "Ada", late) == []
    # Cleo, at Apeiros Village with a treat, has no nomster there
    assert _ready(state, registry, "cycle12.give-treat", "Cleo", "2026-11-10T13:00:00Z")
    assert _ready(_repealed(state, "item-actions"), registry, "cycle12.give-treat", "Cleo",
                  "2026-11-10T13:00:00Z") == []


def test_the_lists_readiness_gives_treats_anywhere_once_players_are_not_located(base):
    """Seed 004 Item Actions binds located entities, and Located Entities is the rule that makes players located:
    with it repealed, ``nomic act --list`` offers Cleo a treat to a nomster elsewhere, also once she is at no
    location, which Item Actions' repeal alone does not (our reading: she is then off the map). Without a nomster
    of her own, a player not reputable is still offered none, in words that name no location."""
    state, registry = base
    at = "2026-11-10T13:00:00Z"
    assert _ready(_repealed(state, "located-entities"), registry, "cycle12.give-treat", "Cleo", at) == []
    sheets = copy.deepcopy(state.doc("cycle12_sheets"))
    next(s for s in sheets["sheets"] if s["player"] == "Cleo")["location"] = None
    nowhere = State(state.config, {**state.docs, "cycle12_sheets": sheets}, state.rules)
    assert _ready(_repealed(nowhere, "item-actions"), registry, "cycle12.give-treat", "Cleo", at) == [
        "Cleo is at no location"]
    assert _ready(_repealed(nowhere, "located-entities"), registry, "cycle12.give-treat", "Cleo", at) == []
    roster = copy.deepcopy(state.doc("roster"))
    roster["players"].append({"name": "Gus", "joined": "2026-11-10T12:00:00Z", "stats": {"gooderhose": 0}})
    items_doc = copy.deepcopy(state.doc("cycle12_items"))
    next(i for i in items_doc["items"] if i["id"] == 1)["owner"] = "Gus"  # Ada's treat
    gus = State(state.config, {**state.docs, "roster": roster, "cycle12_items": items_doc}, state.rules)
    assert _ready(_repealed(gus, "located-entities"), registry, "cycle12.give-treat", "Gus", at) == [
        "no nomster is on Gus's team, and Gus is not reputable; only reputable players start an adoption with a treat"]


def test_the_lists_readiness_offers_commands_to_any_nomster_of_the_team_once_active_nomster_is_repealed(base):
    """Seed 004 Active Nomster: a player gives commands only to their active nomster, so ``nomic act --list``
    offers Ada, who has none, no command; with that rule repealed it offers one to Bramble, on her team. Dmitri,
    with no nomster on his team, is offered none either way (Commands' own condition)."""
    state, registry = base
    sheets = copy.deepcopy(state.doc("cycle12_sheets"))
    next(s for s in sheets["sheets"] if s["player"] == "Ada")["active"] = None
    inactive = State(state.config, {**state.docs, "cycle12_sheets": sheets}, state.rules)
    at = "2026-11-10T13:00:00Z"
    assert _ready(inactive, registry, "cycle12.command", "Ada", at)
    assert _ready(_repealed(inactive, "active-nomster"), registry, "cycle12.command", "Ada", at) == []
    assert _ready(_repealed(inactive, "active-nomster"), registry, "cycle12.command", "Dmitri", at)


def test_the_lists_readiness_forgets_ascension_once_ascend_is_repealed(base):
    """Our reading of seed 004 Ascend keeps an ascended nomster off the map, so ``nomic act --list`` offers no
    cuddle, treat or command of it; with Ascend repealed it is where its record puts it again, as for the check."""
    state, registry = base
    nomsters_doc = copy.deepcopy(state.doc("cycle12_nomsters"))
    bramble = next(n for n in nomsters_doc["nomsters"] if n["id"] == 2)  # Ada's, put alone with Cleo
    bramble.update(ascended=True, location=1)
    gone = State(state.config, {**state.docs, "cycle12_nomsters": nomsters_doc}, state.rules)
    at = "2026-11-10T13:00:00Z"
    for action, actor in (("cycle12.cuddle", "Cleo"), ("cycle12.give-treat", "Cleo"), ("cycle12.command", "Ada")):
        assert _ready(gone, registry, action, actor, at), action
        assert _ready(_repealed(gone, "ascend"), registry, action, actor, at) == [], action


def test_the_proposals_page_says_a_proposal_voting_past_the_cycle_s_end_will_not_take_effect(base) -> None:
    # 004 Time and The End of All Things: a standard proposal votes through the phase after it was made, and the
    # cycle ends at the end of the last phase; one made in the last phase never comes to the end of its vote. The
    # fixture's proposal 1 (made 9 Nov, in phase III) votes until 16 Nov; a last phase of III ends on 12 Nov
    from validators.cases import patched

    state, registry = base
    assert "will not take effect" not in pages.render_proposals(state)  # last phase XL: its vote ends in time
    short = patched(state, registry, [{"op": "replace", "path": "/config/options/cycle12/last_phase", "value": 3}])
    page = pages.render_proposals(short, parse_time("2026-11-10T00:00:00Z"))
    assert (" Its voting ends after the cycle does (the end of Phase III, " + _t("2026-11-12T00:00:00Z", "12 Nov 2026 "
            "00:00 UTC") + "): it will not take effect unless a change sets a later last phase.") in page, page
    ended = State(short.config, {**short.docs, "cycle12_cycle": {"ended": True, "ended_at": "2026-11-12T00:00:00Z",
                                                                 "winners": []}}, short.rules)
    page = pages.render_proposals(ended)
    assert " The cycle ended " + _t("2026-11-12T00:00:00Z", "12 Nov 2026 00:00 UTC") + ": it will not take effect." \
        in page, page
    # The End of All Things repealed: the cycle does not end at its last phase, so the vote ends in time
    end = short.rules["the-end-of-all-things"]
    rules = {**short.rules, end.id: Rule(end.id, {**end.meta, "status": "repealed"}, end.body)}
    assert "will not take effect" not in pages.render_proposals(State(short.config, short.docs, rules))
    # Time repealed: no phase begins, so a standard proposal's vote never ends (docs/modules/cycle12.md)
    time = state.rules["time"]
    rules = {**state.rules, time.id: Rule(time.id, {**time.meta, "status": "repealed"}, time.body)}
    assert (" Time is repealed: no phase begins to end its vote, so it stays pending."
            in pages.render_proposals(State(state.config, state.docs, rules)))
