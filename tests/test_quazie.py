"""Unit tests of the Quazie module's pure functions, its invariants and its wiki page."""

from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as ET

import pytest

from validators.cases import base_state
from validators.engine import Rule, State
from validators.games._timefmt import day, time_md
from validators.games.quazie import MODULE, victory_at_one
from validators.games.quazie.common import height, in_limbo, step_from
from validators.games.quazie.dance import winner
from validators.games.quazie.flavours import devil_succeeds
from validators.games.quazie.hands import adjoining, calendar_year, colour_problems
from validators.games.quazie.movement import fly_destination
from validators.games.quazie.music import matching
from validators.games.quazie.pages import pages, positions_svg
from validators.timeutil import parse_time


@pytest.fixture(scope="module")
def base() -> State:
    return base_state("quazie-base")[0]


def _with(state: State, **changes) -> State:
    docs = copy.deepcopy(state.docs)
    rules = {k: r.copy() for k, r in state.rules.items()}
    for name, (stat, value) in changes.items():
        for p in docs["roster"]["players"]:
            if p["name"] == name:
                p["stats"][stat] = value
    return State(state.config, docs, rules)


def test_positions():
    assert [step_from("5", "up"), step_from("5", "down"), step_from("9", "up"), step_from("1", "down")] == \
        ["6", "4", None, None]
    assert step_from("R", "up") == "8" and step_from("R", "down") == "7"
    assert step_from("X", "up") is None
    assert height("R") == 7.5 and height("X") is None
    assert in_limbo("Bob") and in_limbo("") and not in_limbo("X") and not in_limbo("Mornington Crescent")


def test_fly_table_matches_rule_21(base):
    table = base.doc("quazie_tables")["fly"]["table"]
    got = {}
    for roll in range(1, 43):
        got.setdefault(fly_destination(table, roll), []).append(roll)
    assert got == {"1": [1], "2": [2, 3], "3": [4, 5, 6], "4": list(range(7, 12)), "5": list(range(12, 16)),
                   "6": list(range(16, 21)), "7": list(range(21, 27)), "8": list(range(27, 37)),
                   "9": [37, 38], None: [39, 40, 41, 42]}


def test_dance_table(base):
    table = base.doc("quazie_tables")["dance"]
    assert [table["roll"][str(i)] for i in range(1, 11)] == ["CabbagePatch"] * 3 + ["Disco"] * 3 + \
        ["HeadBob"] * 3 + ["BreakDance"]
    assert winner(table, "CabbagePatch", "Disco") == "challenger"
    assert winner(table, "Disco", "HeadBob") == "challenger"
    assert winner(table, "HeadBob", "CabbagePatch") == "challenger"
    assert winner(table, "Disco", "CabbagePatch") == "opponent"
    assert winner(table, "Disco", "Disco") is None


def test_devils_food():
    assert [r for r in range(1, 10) if devil_succeeds(r, ["5", "4"])] == [3, 4, 5]
    assert [r for r in range(1, 10) if devil_succeeds(r, ["1", "X"])] == [1]


def test_matching_notes():
    assert matching(["A", "B"], ["C", "A", "B"], 2)
    assert not matching(["A", "B"], ["B", "A"], 2)
    assert not matching(["-", "-"], ["-", "-"], 2)
    assert not matching(["?"], ["?"], 1)
    assert not matching(["A"], ["A"], 2)


def test_calendar_and_ring(base):
    assert calendar_year(base, parse_time("2026-11-02T23:59:59Z")) == 200
    assert calendar_year(base, parse_time("2026-11-05T00:00:00Z")) == 230
    assert adjoining(base, "special-positions") == ["colours", "tag"]
    assert adjoining(base, "stuffs") == ["in-your-eye", "nature-of-stuff"]  # the wormholes close the ring
    assert adjoining(base, "pocket") == ["fly-from-the-death-egg", "muffin-roles"]


def test_victory_switched_off_by_the_sentence(base):
    s = _with(base, Ben=("position", "1"))
    assert victory_at_one(s) is None  # the rule ends with "Simon is an awesome guy."
    rule = s.rules["position"]
    s.rules["position"] = Rule(rule.id, rule.meta, rule.body.replace("Simon is an awesome guy.\n", ""))
    assert victory_at_one(s) == "Ben"
    s2 = _with(s, Cat=("position", "1"))
    assert victory_at_one(s2) is None  # not the only Muffin there


def test_the_victory_sentence_names_the_rules_by_their_numbers_now(base):
    """Seed 003 rule 9: an Ascension Address renumbers the rules it keeps; the page's victory sentence names rules 12
    and 13 (Position, Muffin Flavours) by the numbers they then have."""
    s = _with(base, Ben=("position", "1"))
    for rid, number in (("position", "10"), ("muffin-flavours", "11")):
        r = s.rules[rid]
        s.rules[rid] = Rule(r.id, {**r.meta, "number": number}, r.body)
    (page,) = pages(s)
    assert "Rule 10 ends with “Simon is an awesome guy.”, so being alone at Position 1 wins nothing" in page.markdown
    r = s.rules["position"]
    s.rules["position"] = Rule(r.id, r.meta, r.body.replace("Simon is an awesome guy.\n", ""))
    (page,) = pages(s)
    assert "**Ben** is the only Muffin at Position 1 and has met rule 10's victory conditions" in page.markdown
    assert "rule 12" not in page.markdown.lower()


def test_a_hand_in_the_awesome_sentence_does_not_switch_the_victory_on(base):
    """Rule 12 (seed 003) sets no victory while it ends with "Simon is an awesome guy."; rule 22 says a Hand's braces
    do not interfere with the text they enclose, so a Hand grabbing part of that sentence leaves it the rule's
    ending (the page used to announce a winner at Position 1 as soon as a Hand took "awesome guy.")."""
    s = _with(base, Ben=("position", "1"))
    rule = s.rules["position"]
    s.rules["position"] = Rule(rule.id, rule.meta, rule.body.replace("awesome guy.", "{{awesome guy.}}"))
    assert s.rules["position"].body.rstrip().endswith("{{awesome guy.}}")
    assert victory_at_one(s) is None
    (page,) = pages(s)
    assert "so being alone at Position 1 wins nothing for now" in page.markdown
    assert "has met rule 12's victory conditions" not in page.markdown


def test_a_repealed_rule_12_sets_no_victory(base):
    """Rule 12 (seed 003) holds the victory at Position 1; once a proposal repeals it, nobody meets a condition
    the Ruleset no longer has, and the page says nothing of it."""
    s = _with(base, Ben=("position", "1"))
    rule = s.rules["position"]
    s.rules["position"] = Rule(rule.id, {**rule.meta, "status": "repealed"},
                               rule.body.replace("Simon is an awesome guy.\n", ""))
    assert victory_at_one(s) is None
    (page,) = pages(s)
    assert "## Victory" not in page.markdown


def test_positions_page_says_a_robot_at_one_may_not_declare_victory(base):
    # rule 12 (seed 003): alone at Position 1 meets the victory conditions; rule 13: a Robot may not declare them
    s = _with(base, Ben=("position", "1"))
    rule = s.rules["position"]
    s.rules["position"] = Rule(rule.id, rule.meta, rule.body.replace("Simon is an awesome guy.\n", ""))
    (page,) = pages(s)
    assert "**Ben** is the only Muffin at Position 1 and has met rule 12's victory conditions.\n" in page.markdown
    (page,) = pages(_with(s, Ben=("flavour", "Robot")))
    assert ("**Ben** is the only Muffin at Position 1 and has met rule 12's victory conditions, but is Robot "
            "flavoured, and a Robot Muffin may not declare victory (rule 13).") in page.markdown


def test_positions_page_calls_the_muffins_and_the_stuffs_as_an_address_renamed_them(base):
    """Seed 003 rule 9: an Ascension Address may replace "Muffin" and "Stuffs" (game.yaml's keywords and the
    roster's column label). The page's title, headings, columns and sentences follow, as its drawing does; the
    example's words draw it as before."""
    s = _with(base, Ben=("position", "1"))
    rule = s.rules["position"]
    s.rules["position"] = Rule(rule.id, rule.meta, rule.body.replace("Simon is an awesome guy.\n", ""))
    robot = _with(s, Ben=("flavour", "Robot"))
    (page,) = pages(robot)
    assert page.title == "Positions and Muffins"
    assert "Circles are Muffins, filled by flavour" in page.markdown and "## The Muffins\n" in page.markdown
    assert "| Muffin | Position | Stuffs | Flavour |" in page.markdown
    assert "| Muffin | Stuffs | CheeseO |" in page.markdown
    assert "is the only Muffin at Position 1" in page.markdown and "a Robot Muffin may not declare" in page.markdown

    config = {**s.config, "keywords": {**s.config["keywords"], "player": "Cupcake", "players": "Cupcakes"}}
    docs = copy.deepcopy(robot.docs)
    docs["roster"]["stats"]["stuff"]["label"] = "Crumbs"
    (page,) = pages(State(config, docs, robot.rules))
    text = page.markdown
    assert page.title == "Positions and Cupcakes"
    assert "Circles are Cupcakes, filled by flavour" in text and "## The Cupcakes\n" in text
    assert "| Cupcake | Position | Crumbs | Flavour |" in text and "| Cupcake | Crumbs | CheeseO |" in text
    assert ("**Ben** is the only Cupcake at Position 1 and has met rule 12's victory conditions, but is Robot "
            "flavoured, and a Robot Cupcake may not declare victory (rule 13).") in text
    # what is left of the old words is the Hands' grab, the rules' own text (rule 9 renames it in the rules)
    assert not re.search(r"Muffins|Stuffs|Muffin \||Muffin at|Robot Muffin", text), text


def test_invariants(base):
    (inv,) = MODULE.invariants
    assert list(inv(base)) == []
    bad = _with(base, Ann=("position", "Mornington Crescent"), Ben=("position", "4"), Cat=("tag", "It"),
                Dot=("tag", "It"))
    messages = [p.message for p in inv(bad)]
    assert any("Mornington Crescent" in m for m in messages)
    assert any("Position 4 is Robot" in m for m in messages)
    assert any("only one Muffin is It" in m for m in messages)


def test_invariants_name_the_rules_by_their_numbers_now(base):
    """Rule 9 (seed 003): an Ascension Address renumbers the rules it keeps (with Colours, 18, repealed, Muffin Roles
    becomes 20). What ``nomic check`` says of a role no rule gives and of a second GRAND POOBAH names rules 8 and 23 by
    their numbers now; it once wrote the seed's 23 whatever the Ruleset said."""
    (inv,) = MODULE.invariants
    bad = _with(base, Ben=("roles", ["Cake Maker"]), Cat=("roles", ["GRAND POOBAH"]))
    rule = bad.rules["muffin-roles"]
    bad.rules["muffin-roles"] = Rule(rule.id, {**rule.meta, "number": "20"}, rule.body)
    messages = [p.message for p in inv(bad)]
    assert "'Cake Maker' is not a role of rule 20" in messages, messages
    assert any(m.endswith("and there may be only one (rules 8 and 20)") for m in messages), messages
    assert not any("23" in m for m in messages), messages


def test_invariant_dance_table_covers_its_die(base):
    """Seed 003 rule 20: every face of the Dance Off die sets a Dance Move; a table leaving one out is reported."""
    (inv,) = MODULE.invariants
    docs = copy.deepcopy(base.docs)
    docs["quazie_tables"]["dance"]["sides"] = 11
    bad = State(base.config, docs, base.rules)
    (problem,) = [p for p in inv(bad) if p.field == "dance.roll"]
    assert problem.file == "quazie_tables" and "face(s) 11" in problem.message


def test_invariant_second_grand_poobah(base):
    """Seed 003 rules 8 and 23: the dynasty's leader (Ann) is the GRAND POOBAH, whatever the Roles lists say, and
    there may be only one; the role in another active Muffin's Roles is reported, with the rules cited. The leader's
    own entry, an idle holder (rule 2) and a holder while nobody leads are not."""
    (inv,) = MODULE.invariants
    bad = _with(base, Dot=("roles", ["GRAND POOBAH"]))
    found = [p for p in inv(bad) if "GRAND POOBAH" in p.message]
    assert len(found) == 1
    assert "Dot holds the role GRAND POOBAH, but Ann leads the dynasty" in found[0].message
    assert "rules 8 and 23" in found[0].message
    assert found[0].field == "players[3].stats.roles"
    assert list(inv(_with(base, Ann=("roles", ["GRAND POOBAH"])))) == []
    docs = copy.deepcopy(bad.docs)
    docs["dynasty"]["leader"] = None
    assert list(inv(State(bad.config, docs, bad.rules))) == []
    docs = copy.deepcopy(bad.docs)
    next(p for p in docs["roster"]["players"] if p["name"] == "Dot")["idle"] = True
    assert list(inv(State(bad.config, docs, bad.rules))) == []


def test_invariants_count_only_active_muffins(base):
    """Seed 003 rule 2: idle Muffins are not Muffins for rules 14 and 23, and keep their values while idle. An idle
    Muffin still marked It leaves nobody It (rule 14.4: the GRAND POOBAH is), so the Muffin the GRAND POOBAH then
    tags is the only Muffin It; likewise an idle holder of GRAND POOBAH or Stuff Describer makes no second one."""
    from validators.cases import patched, run

    (inv,) = MODULE.invariants
    state, registry = base_state("quazie-base")
    s = patched(state, registry, [
        {"op": "replace", "path": "/quazie/tag_days", "value": ["2026-11-03"]},
        {"op": "replace", "path": "/roster/players/name=Ben/stats/tag", "value": "It"},
        {"op": "replace", "path": "/roster/players/name=Ben/idle", "value": True},
        {"op": "replace", "path": "/roster/players/name=Cat/stats/position", "value": "9"}])
    tagged = run(s, registry, [{"at": "2026-11-03T10:00:00Z", "actor": "Ann", "action": "quazie.tag",
                                "params": {"target": "Cat"}}])
    assert tagged.verdict == "legal"
    assert [p.message for p in inv(tagged.state)] == []
    s = patched(state, registry, [
        {"op": "replace", "path": "/dynasty/leader", "value": None},
        {"op": "replace", "path": "/roster/players/name=Ben/stats/roles", "value": ["GRAND POOBAH"]},
        {"op": "replace", "path": "/roster/players/name=Ben/idle", "value": True}])
    given = run(s, registry, [{"at": "2026-11-03T10:00:00Z", "actor": "Cat", "action": "quazie.give-role",
                               "params": {"role": "GRAND POOBAH", "to": "Dot"}}])
    assert given.verdict == "legal"
    assert [p.message for p in inv(given.state)] == []
    # and when Ben comes back, his old mark lapses, so there is still one It and one GRAND POOBAH (rules 14, 23)
    back = {"at": "2026-11-03T11:00:00Z", "actor": "Ben", "action": "core.unidle", "params": {}}
    for earlier in (tagged, given):
        returned = run(earlier.state, registry, [back])
        assert returned.verdict == "legal"
        assert [p.message for p in inv(returned.state)] == []
    # two active Muffins It is still a problem
    assert any("only one Muffin is It" in p.message for p in inv(_with(base, Cat=("tag", "It"), Dot=("tag", "It"))))


def test_ascension_renumbers_with_strings():
    """Seed 003 rule 9: the rules left after the Ascension Address are renumbered in sequence; the numbers are
    written as strings, as the rule files write them, not a mix of strings and integers."""
    from validators.cases import run

    state, registry = base_state("quazie-base")
    votes = [{"at": f"2026-11-02T10:{i:02d}:00Z", "actor": who, "action": "core.dov-vote",
              "params": {"dov": 1, "vote": "FOR"}} for i, who in enumerate(["Ann", "Ben", "Dot", "Eve", "Fay"], 1)]
    done = run(state, registry, [
        {"at": "2026-11-02T10:00:00Z", "actor": "Cat", "action": "core.dov", "params": {}}, *votes,
        {"at": "2026-11-02T11:00:00Z", "actor": "Ben", "action": "core.dov-resolve", "params": {"dov": 1}},
        {"at": "2026-11-02T12:00:00Z", "actor": "Cat", "action": "core.ascend",
         "params": {"theme": "Robots", "repeal": ["stuffs"]}}])
    assert done.verdict == "legal", [p.text() for p in done.problems]
    numbers = sorted((r.meta["number"] for r in done.state.rules.values() if r.meta.get("status") == "active"),
                     key=int)
    assert all(isinstance(n, str) for n in numbers)
    assert numbers == [str(i) for i in range(1, len(numbers) + 1)]


@pytest.mark.parametrize("text, shown", [("\u200b\u2060\ufeff", "(added by Intricacy)"),
                                         ("  \n", "(added by Intricacy)"),
                                         ("\u200bsour\u200d", "\u200bsour\u200d")])
def test_intricacy_text_of_invisible_characters_gets_the_placeholder(text, shown):
    """Seed 003 rule 24 (Intricacy) adds the new flavour with its text to rule 13; a text that shows nothing (only
    blanks or zero-width characters, ``schemas.is_blank``) is written as the placeholder, not as an invisible line."""
    from validators.cases import patched, run

    state, registry = base_state("quazie-base")
    state = patched(state, registry, [{"op": "replace", "path": "/roster/players/name=Ann/stats/notes",
                                       "value": ["C#", "G flat", "[]"]}])
    done = run(state, registry, [{"at": "2026-11-03T10:00:00Z", "actor": "Ann", "action": "quazie.movement",
                                  "params": {"movement": "Intricacy", "flavour": "Lemon", "text": text}}])
    assert done.verdict == "legal", [p.text() for p in done.problems]
    assert done.state.rules["muffin-flavours"].body.endswith(f"\n\nLemon – {shown}\n")


def test_colours(base):
    assert list(colour_problems(base)) == []  # rule 18 is Brown
    s = _with(base)
    s.rules["tag"].meta["colour"] = "Sparkly"
    (p,) = list(colour_problems(s))
    assert "not an HTML colour keyword" in p.message and p.field == "tag.colour"


def test_colours_table_orders_rules_as_the_ruleset_does(base):
    """Rule 18 (seed 003) lists the coloured rules; the page orders them as the Ruleset does, numerals as numbers:
    a rule a proposal numbered "18a" comes after 18, and 18.10 after 18.9 (it read numbers as decimals, and a
    number with a letter stopped the page with a ValueError)."""
    from validators.games.quazie.pages import colours_table

    s = _with(base)
    extra = {"haiku": "18a", "limerick": "18.10", "sonnet": "18.9"}
    for rid, number in extra.items():
        s.rules[rid] = Rule(rid, {"id": rid, "number": number, "title": rid.capitalize(), "section": "dynastic",
                                  "status": "active", "colour": "Red"}, "Verse.\n")
    rows = [line.split(" | ")[0] for line in colours_table(s).splitlines() if line.startswith("| 18")]
    assert rows == ["| 18 Colours", "| 18.9 Sonnet", "| 18.10 Limerick", "| 18a Haiku"]


def test_positions_svg_draws_every_muffin_and_escapes(base):
    svg = positions_svg(base)
    root = ET.fromstring(svg)
    titles = [t.text for t in root.iter("{http://www.w3.org/2000/svg}title")]
    for name in ["Ann", "Ben", "Cat", "Dot", "Eve", "Fay", "Gus", "Hal"]:
        assert any(t.startswith(name + ":") for t in titles), name
    s = copy.deepcopy(base.docs)
    s["roster"]["players"][0]["stats"]["flavour"] = "<script>"
    svg = positions_svg(State(base.config, s, base.rules))
    assert "<script>" not in svg and "&lt;script&gt;" in svg


def test_positions_svg_names_the_leader_and_the_stuffs_as_an_address_renamed_them(base):
    """Seed 003 rule 9: an Ascension Address may replace "GRAND POOBAH", "Stuffs" and "Muffin" (game.yaml's keywords
    and the roster's column label); the drawing's words follow, as the rest of the wiki's do."""
    from validators.games.blognomic.common import leader

    boss = leader(base)
    assert boss, "the fixture has a GRAND POOBAH"
    config = {**base.config, "keywords": {**base.config.get("keywords", {}), "leader": "Grand Baker",
                                          "players": "Cupcakes"}}
    docs = copy.deepcopy(base.docs)
    docs["roster"].setdefault("stats", {}).setdefault("stuff", {})["label"] = "Crumbs"
    root = ET.fromstring(positions_svg(State(config, docs, base.rules)))
    titles = [t.text for t in root.iter("{http://www.w3.org/2000/svg}title")]
    mine = next(t for t in titles if t.startswith(boss + ":"))
    assert mine.endswith(", Grand Baker") and " Crumbs" in mine and "GRAND POOBAH" not in mine, mine
    assert all("Stuffs" not in t for t in titles)
    assert root.get("aria-label") == "The Positions and the Cupcakes in them"


def test_positions_svg_keeps_a_legible_width_and_the_dark_mode_sheet(base):
    """The wiki gives a drawing a light sheet in dark mode when it is an <svg role="img"> right inside a box that
    scrolls (``div[style*=overflow-x] > svg[role=img]``); shrunk no further than three quarters of its size."""
    (page,) = pages(base)
    assert '<div class="quazie-positions" style="overflow-x:auto"><svg ' in page.markdown
    root = ET.fromstring(positions_svg(base))
    assert root.get("role") == "img" and root.get("style") == "min-width:600px" and root.get("width") == "800"


def test_page(base):
    (page,) = pages(base)
    assert page.slug == "positions" and "<svg" in page.markdown
    assert "No tag day has been designated" in page.markdown
    assert "CheeseO" in page.markdown and "FeetO" in page.markdown


def test_the_muffins_headings_stay_on_one_line(base):
    (page,) = pages(base)
    head = page.markdown.split("## The Muffins")[1].strip().splitlines()[0]
    cells = [c.strip() for c in head.strip("|").split("|")]
    assert cells == ["Muffin", "Position", "Stuffs", "Flavour", "Tag", "Dance&nbsp;Move", "Roles", "Note&nbsp;History"]
    assert all(" " not in c for c in cells)


def test_tag_days_are_written_as_the_wiki_writes_days(base):
    assert time_md("2026-11-05", day) == '<time datetime="2026-11-05" title="2026-11-05">5 Nov 2026</time>'
    assert time_md("2026-11-05T08:00:00Z", day) == ('<time datetime="2026-11-05T08:00:00Z" '
                                                    'title="2026-11-05T08:00:00Z">5 Nov 2026</time>')
    assert time_md("2026-13-40", day) == "2026-13-40" and time_md("*soon*", day) == "&#42;soon&#42;"
    docs = copy.deepcopy(base.docs)
    docs["quazie"]["tag_days"] = ["2026-11-05", "2026-11-12"]
    (page,) = pages(State(base.config, docs, base.rules))
    days = page.markdown.split("## Tag days")[1]
    assert ">5 Nov 2026</time>, <time" in days and ">12 Nov 2026</time>" in days and "2026-11-05\n" not in days


def test_options_are_checked(base):
    (inv,) = MODULE.invariants
    config = {**base.config, "options": {**base.config["options"], "quazie": {"unknown_note": "guess", "colour": 1}}}
    messages = [p.message for p in inv(State(config, base.docs, base.rules))]
    assert any("unknown option 'colour'" in m for m in messages)
    assert any("'record' or 'refuse'" in m for m in messages)


def _quazie_with(base: State, text: str) -> State:
    """The fixture with ``text`` wherever a player types: a Muffin's name (Ann, alone at Position 1), its notes,
    dance move and roles, the items, the Hands, a tag day and a coloured rule's title."""
    import json
    import re

    docs = json.loads(re.sub(r"\bAnn\b", lambda _: json.dumps(text)[1:-1], json.dumps(base.docs)))
    rules = {k: r.copy() for k, r in base.rules.items()}
    muffin = next(p for p in docs["roster"]["players"] if p["name"] == text)
    muffin["stats"].update(position="1", notes=[text, "C"], dance_move=text, roles=[text])
    for p in docs["roster"]["players"]:
        if p is not muffin and p["stats"].get("position") == "1":
            p["stats"]["position"] = "2"
    docs["quazie_items"]["new_item"]["word"] = text
    docs["quazie_items"]["old_items"][0]["word"] = text + " old"
    for hand in docs["quazie"]["hands"].values():
        hand["text"] = text
    docs["quazie"]["tag_days"] = [text]
    for r in rules.values():
        if r.meta.get("colour"):
            r.meta["title"] = text
    return State(base.config, docs, rules)


def test_a_hostile_name_is_inert_on_the_page(base):
    """Text a player typed, rendered as the wiki renders it: no link, no tag, no emphasis, no extra column, and the
    drawing (which Markdown would read as text unless it is a block of its own) left alone."""
    from tests.wikimd import HOSTILE, PLAIN, assert_same_shape

    (plain,) = pages(_quazie_with(base, PLAIN))
    (hostile,) = pages(_quazie_with(base, HOSTILE))
    assert_same_shape(plain.markdown, hostile.markdown, hostile.slug)
    assert "&lt;img src=x onerror=alert(1)&gt; &#91;x&#93;(javascript:alert(2)) &#42;y&#42;" in hostile.markdown
    assert "## Victory" in hostile.markdown and "## Tag days" in hostile.markdown


def test_a_state_with_one_hand_is_bad_input_not_a_traceback(tmp_path):
    """Rule 22 (seed 003): the Ruleset has two Hands, and a Switcheroo swaps the one with the other. A hand-edited
    quazie.yaml holding only the left Hand was accepted, and the next Hand move once the Alarm had passed (a
    Switcheroo) stopped with a traceback; now the file is refused, naming its line and the missing Hand."""
    from tests.gitgame import make_repo, nomic

    repo = make_repo(tmp_path, "quazie")
    path = repo / "content" / "quazie" / "gamestate" / "quazie.yaml"
    text = path.read_text()
    right = "  right:\n    rule: special-positions\n    text: Mango Tree\n"
    assert right in text and "switcheroo_alarm: 210\n" in text
    path.write_text(text.replace(right, "").replace("switcheroo_alarm: 210\n", "switcheroo_alarm: 10\n"))
    before = {p: p.read_bytes() for p in (repo / "content").rglob("*") if p.is_file()}
    r = nomic(repo, "act", "quazie", "quazie.move-hand", "hand=left", "rule=tag", "text=tag days", "--as", "Quazie",
              "--at", "2026-11-20T10:00:00Z")
    out = r.stdout + r.stderr
    assert r.returncode == 2 and "Traceback" not in out, out
    assert "content/quazie/gamestate/quazie.yaml:5:1: hands: 'right' is a required property" in out, out
    assert {p: p.read_bytes() for p in (repo / "content").rglob("*") if p.is_file()} == before
    r = nomic(repo, "check")
    assert r.returncode == 2 and "hands: 'right' is a required property" in r.stdout, r.stdout + r.stderr


def test_a_hand_in_a_rule_the_ruleset_lacks_is_reported_not_a_traceback(tmp_path):
    """Rule 22 (seed 003): a Hand is in a rule's text or in its Pocket. A hand-edited quazie.yaml naming a rule id
    the ruleset does not have made the Hand's move to its Pocket stop with a KeyError; now `nomic check` names the
    file and field, and the move is refused saying why."""
    from tests.gitgame import make_repo, nomic

    repo = make_repo(tmp_path, "quazie")
    path = repo / "content" / "quazie" / "gamestate" / "quazie.yaml"
    text = path.read_text()
    moved = "    by: core.enact\n    shoo: false\n    moved: true\n"
    assert "    rule: muffin-roles\n" in text and moved in text
    # Quazie's last change to the ruleset has not had its Hand moved yet (rule 22: an admin moves one for it)
    path.write_text(text.replace("    rule: muffin-roles\n", "    rule: muffin-rolls\n", 1)
                    .replace(moved, "    by: core.enact\n    shoo: false\n"))
    r = nomic(repo, "check")
    out = r.stdout + r.stderr
    assert r.returncode != 0 and "Traceback" not in out, out
    assert "hands.left.rule: the left Hand is in rule 'muffin-rolls', and the ruleset has no such rule" in out, out
    assert "content/quazie/gamestate/quazie.yaml" in out, out
    r = nomic(repo, "act", "quazie", "quazie.move-hand", "hand=left", "rule=pocket", "--as", "Quazie",
              "--at", "2026-11-20T10:00:00Z")
    out = r.stdout + r.stderr
    assert r.returncode != 0 and "Traceback" not in out, out
    assert "the ruleset has no such rule" in out, out


def test_a_role_entry_that_is_a_list_refuses_a_limbo_move_at_its_line_not_a_traceback(tmp_path):
    """Rules 15 and 23 (seed 003): only a Muffin's own setting to 9 changes it in Limbo, and the Limbo King role is
    given or taken there. A hand-edited roster giving Simon (in Limbo) Roles `[[GRAND POOBAH]]` made his own move
    out of Limbo stop with a TypeError (the Roles were put in a set); now the move is refused because the roster is
    already invalid, at the Roles' line, and nothing is written."""
    from tests.gitgame import make_repo, nomic

    repo = make_repo(tmp_path, "quazie")
    path = repo / "content" / "quazie" / "gamestate" / "roster.yaml"
    text = path.read_text()
    simon = "  - name: Simon\n"
    start = text.index(simon)
    old = "      position: '5'\n      flavour: Devils Food\n      tag: NotIt\n      dance_move: CabbagePatch\n" \
          "      roles: []\n"
    assert text.index(old, start) == text.index("      position:", start)
    path.write_text(text[:start] + text[start:].replace(old, old.replace("'5'", "Limbo").replace(
        "roles: []", "roles: [[GRAND POOBAH]]"), 1))
    line = path.read_text().splitlines().index("      roles: [[GRAND POOBAH]]") + 1
    before = {p: p.read_bytes() for p in (repo / "content").rglob("*") if p.is_file()}
    r = nomic(repo, "act", "quazie", "quazie.leave-limbo", "--as", "Simon", "--at", "2026-11-09T12:00:00Z")
    out = r.stdout + r.stderr
    assert r.returncode == 1 and "Traceback" not in out, out
    assert (f"content/quazie/gamestate/roster.yaml:{line}:7: players[1].stats.roles: this file is already invalid, "
            "before the action; fix it first (nomic check shows it): ['GRAND POOBAH'] is not a role of rule 23") \
        in out, out
    assert {p: p.read_bytes() for p in (repo / "content").rglob("*") if p.is_file()} == before


def test_invariant_a_note_history_holds_notes(base):
    """Rule 24 (seed 003): `nomic check` names a Note History entry that is not a note (text), by its field."""
    (inv,) = MODULE.invariants
    docs = copy.deepcopy(base.docs)
    docs["roster"]["players"][1]["stats"]["notes"] = ["A", {"B": 1}]
    problems = [p for p in inv(State(base.config, docs, base.rules)) if "Note History" in p.message]
    assert [(p.field, p.message) for p in problems] == [
        ("players[1].stats.notes", "Ben's Note History: notes[1] is {'B': 1}, not a note (each note of a Note History "
                                   "is text: 'G flat', '[]', '-')")]


def test_the_muffins_table_shows_a_note_history_or_roles_holding_other_than_text(base):
    """Rules 23 and 24 (seed 003): roles and a Note History are lists of text. A hand edit or a proposal's patch may
    put a number or a list in them (``nomic check`` reports it); the Muffins' table still draws, showing each entry
    as it is, and a value that is no list at all as it is too (the page used to be left out of the wiki)."""
    (page,) = pages(_with(base, Ben=("notes", ["G", 7, None, ["A", "B"]])))
    row = next(line for line in page.markdown.splitlines() if line.startswith("| Ben |"))
    assert row.endswith("| G 7 None &#91;&#x27;A&#x27;, &#x27;B&#x27;&#93; |")
    (page,) = pages(_with(base, Ben=("roles", [3, "Poobah"])))
    assert "| 3, Poobah |" in page.markdown
    (page,) = pages(_with(base, Ben=("notes", 42)))
    row = next(line for line in page.markdown.splitlines() if line.startswith("| Ben |"))
    assert row.endswith("| 42 |")


def test_the_muffins_table_names_the_grand_poobah_s_role_by_its_title_after_an_address(base):
    """Rule 9 (seed 003): an Ascension Address may replace "GRAND POOBAH" with a new term, which game.yaml's keyword
    ``leader`` then holds; rule 23's role is "the current GRAND POOBAH", so the Roles column shows it by the title the
    rules now use (the stored role keeps its identifier, which ``quazie.give-role`` takes). Other roles, which no
    keyword names, are shown as stored. It once still read GRAND POOBAH."""
    renamed = _with(base, Ben=("roles", ["GRAND POOBAH", "Limbo King"]))
    renamed = State(dict(renamed.config, keywords={**renamed.config.get("keywords", {}), "leader": "Head Baker"}),
                    renamed.docs, renamed.rules)
    (page,) = pages(renamed)
    row = next(line for line in page.markdown.splitlines() if line.startswith("| Ben |"))
    assert "| Head Baker, Limbo King |" in row and "GRAND POOBAH" not in row


def test_invariants_read_stats_of_another_type_as_what_they_are_not(base):
    """Rules 13, 17, 23 and 24 (seed 003): a flavour and a Dance Move are names, Roles and the Note History lists. A
    stat a hand edit or a proposal's patch left of another type is reported (no flavour, no Dance Move; the roster's
    check says the list is no list) instead of failing the whole check with a TypeError."""
    (inv,) = MODULE.invariants
    s = _with(base, Ben=("flavour", ["Fruity"]))
    s = _with(s, Cat=("dance_move", ["Disco"]))
    s = _with(s, Dot=("roles", 3))
    s = _with(s, Eve=("notes", 7))
    messages = [p.message for p in inv(s)]
    assert "['Fruity'] is not a flavour" in messages
    assert "['Disco'] is not a Dance Move" in messages


def test_the_actions_page_keeps_a_value_to_type_as_the_action_takes_it_after_an_address(base):
    """Seed 003 rule 9: an Ascension Address may replace "GRAND POOBAH" and "Muffin"; the Actions page writes the new
    words in the module's texts, but not inside a code span: quazie.give-role's role may still be typed `GRAND
    POOBAH`, the identifier, and the parameter's description says it is taken by the new title too (rules 9 and 23)."""
    from site_plugins.actions_ref import render_actions
    from site_plugins.links import Links

    registry = base_state("quazie-base")[1]
    config = {**base.config, "keywords": {**base.config.get("keywords", {}), "leader": "Grand Baker",
                                          "player": "Cupcake", "players": "Cupcakes"}}
    html = render_actions(State(config, base.docs, base.rules), registry, Links("g", "games/g/actions.md", {}), "g")
    give = html.split("quazie.give-role` {#")[1].split("</div>\n</div>")[0]
    assert "<td><code>GRAND POOBAH</code>, <code>Writer of Awesome</code>," in give  # the identifiers, as typed
    assert "the Grand Baker&#x27;s role also by the title the rules now give it, Grand Baker</td>" in give
    assert "<code>GRAND POOBAH</code>: given to another, if there is no Grand Baker" in give
    assert "(any Cupcake in the founding text; a Hand may change it)" in give
    assert "<code>Writer of Awesome</code>: only the Grand Baker gives it" in give
    assert "Grand Baker:" not in give


def test_the_actions_page_calls_the_stuffs_as_the_roster_now_does(base):
    """Seed 003 rule 9 names "Stuffs" among the words an Ascension Address may replace, which renames the roster's
    column (as the Positions page heads it); the Actions page's summaries and docs write it so too."""
    from site_plugins.actions_ref import render_actions
    from site_plugins.links import Links

    registry = base_state("quazie-base")[1]
    docs = copy.deepcopy(base.docs)
    docs["roster"].setdefault("stats", {}).setdefault("stuff", {})["label"] = "Crumbs"
    html = render_actions(State(base.config, docs, base.rules), registry, Links("g", "games/g/actions.md", {}), "g")
    assert "<p>Writer of Awesome: gain 5 Crumbs (once a day)</p>" in html
    assert "Stuffs" not in html and "Stuff Describer" in html  # "Stuff" is no word of the Address
    plain = render_actions(base, registry, Links("g", "games/g/actions.md", {}), "g")
    assert "<p>Writer of Awesome: gain 5 Stuffs (once a day)</p>" in plain


# ---------------------------------------------------------------- a repealed rule stops what it makes (seed 003 rule 1)


def _repealed(state: State, *rule_ids: str) -> State:
    rules = {k: r.copy() for k, r in state.rules.items()}
    for rid in rule_ids:
        rules[rid].meta["status"] = "repealed"
    return State(state.config, state.docs, rules)


def test_whole_consequences_and_gates_are_tied_to_their_rules():
    """Each consequence or gate that is one rule's work carries that rule's id (engine.ruled), so the engine skips it
    while the rule is repealed; the rest are no single rule's (docs/modules/quazie.md, "When a rule is repealed").
    Rule 9's two act only on rule 9's own actions (core.dov-resolve, core.ascend), which a repeal of rule 9 already
    takes out of the game, so no case can show them skipped; this is where their tie is checked."""
    tied = {fn.__name__: getattr(fn, "rule", None) for fn in MODULE.consequences + MODULE.gates + MODULE.invariants}
    assert tied == {
        "dynasty_won": "victory-and-ascension", "address_renames": "victory-and-ascension",
        "pocket_lost_hands": "sleight-of-hand", "note_ruleset_change": "sleight-of-hand", "departures": None,
        "launch_base": None, "limbo_guard": "special-positions", "rome_makes_plain": "special-positions",
        "patch_plays_note": "music", "patch_landing": "position", "spent_within_history": "music",
        "writer_since": "muffin-roles", "blind_since": "muffin-flavours", "only_one_returns": None,
        "poobah_guard": "muffin-roles", "robot_gate": "muffin-flavours", "shoo_obliges": "sleight-of-hand",
        "_invariants": None}


@pytest.mark.parametrize("rule_id, bad, words", [
    ("special-positions", {"Ann": ("position", "Mornington Crescent")}, "Mornington Crescent"),
    ("special-positions", {"Ben": ("position", "4")}, "Position 4 is Robot"),
    ("muffin-flavours", {"Ann": ("flavour", "Chocolate")}, "is not a flavour"),
    ("dance-moves", {"Ann": ("dance_move", "Tango")}, "is not a Dance Move"),
    ("tag", {"Cat": ("tag", "It"), "Dot": ("tag", "It")}, "only one Muffin is It"),
    ("music", {"Ann": ("notes", [["A"]])}, "Note History"),
    ("muffin-roles", {"Ann": ("roles", ["Baker"])}, "is not a role of rule 23"),
    ("muffin-roles", {"Cat": ("roles", ["Stuff Describer"]), "Dot": ("roles", ["Stuff Describer"])},
     "only one Stuff Describer"),
    ("muffin-roles", {"Dot": ("roles", ["GRAND POOBAH"])}, "Dot holds the role GRAND POOBAH"),
])
def test_a_repealed_rule_asks_nothing_of_the_state(base, rule_id, bad, words):
    """Seed 003 rules 13 (a Flavor each), 14 (one It), 15 (nobody in Mornington Crescent; a Muffin at 4 is Robot),
    19 (a Dance Move each), 23 (its roles; one Stuff Describer, one GRAND POOBAH) and 24 (a Note History of notes):
    each part of the module's invariant checks only while its rule stands. In force, the state is reported; with
    the rule repealed, the same state is not."""
    (inv,) = MODULE.invariants
    state = _with(base, **bad)
    assert any(words in p.message for p in inv(state))
    assert not any(words in p.message for p in inv(_repealed(state, rule_id)))


def test_a_repealed_colours_rule_asks_no_html_colour(base):
    """Seed 003 rule 18: a rule's Colour is an HTML colour keyword; repealed, a rule coloured otherwise is no
    problem."""
    (inv,) = MODULE.invariants
    rules = {k: r.copy() for k, r in base.rules.items()}
    rules["tag"].meta["colour"] = "Muffinish"
    state = State(base.config, base.docs, rules)
    assert any("not an HTML colour keyword" in p.message for p in inv(state))
    assert not any("not an HTML colour keyword" in p.message for p in inv(_repealed(state, "colours")))


@pytest.mark.parametrize("rule_id, who, change, words", [
    ("muffin-flavours", "Ann", ("flavour", "Blind"), "a Blind Muffin may not challenge anyone"),
    ("special-positions", "Hal", None, "Hal is in Limbo"),
])
def test_a_repealed_rule_leaves_a_dance_off_possible(base, rule_id, who, change, words):
    """Seed 003 rule 13 (a Blind Muffin challenges nobody) and rule 15 (a Muffin in Limbo changes nothing) refuse
    rule 20's Dance Off before anyone is named (``nomic act --list``); with the rule repealed they do not."""
    from validators.act import record_for
    from validators.engine import Ctx

    registry = base_state("quazie-base")[1]
    action = registry.actions["quazie.dance-off"]
    at = parse_time("2026-11-03T10:00:00Z")
    state = _with(base, **{who: change}) if change else base

    def ready(s: State) -> list[str]:
        ctx = Ctx(s, action, record_for(action.name, who, at, {}, None), at, registry)
        return [x.message if hasattr(x, "message") else str(x) for x in action.ready(ctx)]

    assert any(words in m for m in ready(state))
    assert not any(words in m for m in ready(_repealed(state, rule_id)))


def test_the_switcheroo_alarm_sentence_ends_with_one_full_stop(base):
    """Rule 22 (seed 003) keeps the Switcheroo Alarm as a Year; rule 7 counts Years "D.Q." and rule 9 "A.E." after a
    win. The page wrote the era and then a full stop, "230 D.Q.."; an era an Ascension Address renamed without a
    stop of its own still gets one."""
    from validators.games.quazie.pages import colours_table

    s = _with(base)  # the Year at the game's clock follows the Alarm after a semicolon, the sentence ends once
    assert "Switcheroo Alarm: 230 D.Q.; the Calendar was at " in colours_table(s)
    assert colours_table(s).endswith("not passed yet.") and ".." not in colours_table(s)
    s.docs["quazie"]["calendar"]["era"] = "A.E."
    assert "Switcheroo Alarm: 230 A.E.; the Calendar was at " in colours_table(s) and ".." not in colours_table(s)
    s.docs["quazie"]["calendar"]["era"] = "Anno Muffini"
    assert "Switcheroo Alarm: 230 Anno Muffini; the Calendar" in colours_table(s)
    s.docs["quazie"]["switcheroo_alarm"] = "230"  # no Year (a hand edit; the check reports it): no Calendar beside it
    assert colours_table(s).endswith("Switcheroo Alarm: 230 Anno Muffini.")
    s.docs["quazie"]["calendar"]["era"] = "A.E."
    assert colours_table(s).endswith("Switcheroo Alarm: 230 A.E.")


# ---------------------------------------------------------------- rule 22: what the wiki and nomic due say of the Hands

SHOO = {"at": "2026-11-03T08:00:00Z", "actor": "Cat", "action": "quazie.shoo"}
TYPO = {"at": "2026-11-03T09:00:00Z", "actor": "Ann", "action": "core.typo",
        "params": {"rule": "glossary", "old": "It only clarifies", "new": "It merely clarifies"}}
MOVE = {"at": "2026-11-03T09:20:00Z", "actor": "Ann", "action": "quazie.move-hand",
        "params": {"hand": "left", "rule": "colours", "text": "Bob"}}


def _played(records) -> State:
    from validators.cases import run

    state, registry = base_state("quazie-base")
    out = run(state, registry, records)
    assert out.verdict == "legal", [p.text() for p in out.problems]
    return out.state


def test_the_hands_section_says_whether_a_shoo_stands_and_who_moves_a_hand():
    """Rule 22 (seed 003): a standing Shoo obliges the next admin who changes the ruleset to move a Hand, and an admin
    moves one only as the next action after their change. The page's Hands section says both: whether a Shoo stands
    (since when, by whom) and which admin may, or must, move a Hand now and why. Before, it showed neither."""
    from validators.games.quazie.pages import hands_duties as colours_table

    quiet = colours_table(_played([]))
    assert "No Shoo stands" in quiet and "No admin has a Hand to move now" in quiet
    may = colours_table(_played([TYPO]))
    assert "No Shoo stands" in may
    assert "Ann may move a Hand as their next action, for their change to the ruleset (core.typo, " in may
    owed = colours_table(_played([SHOO, TYPO]))
    assert "**A Shoo stands**, posted by Cat at " in owed and "3 Nov 2026 08:00 UTC" in owed
    assert "**Ann must move a Hand** before any other action, for their change to the ruleset (core.typo" in owed
    assert "made while the Shoo stood" in owed
    moved = colours_table(_played([SHOO, TYPO, MOVE]))
    assert "No Shoo stands" in moved and "Ann" not in moved
    # the Alarm (230) passed on 6 November (Year 240): the owed move is a Switcheroo
    late = [{**SHOO, "at": "2026-11-06T08:00:00Z"}, {**TYPO, "at": "2026-11-06T09:00:00Z"}]
    assert "The Switcheroo Alarm has passed, so the move is a Switcheroo." in colours_table(_played(late))
    (page,) = pages(_played([SHOO, TYPO]))
    assert "**Ann must move a Hand**" in page.markdown


def test_the_hands_section_says_nothing_of_shoos_while_rule_22_is_repealed():
    s = _played([SHOO])
    s.rules["sleight-of-hand"].meta["status"] = "repealed"
    (page,) = pages(s)
    assert "Shoo" not in page.markdown


def test_nomic_due_names_a_standing_shoo_and_the_hand_an_admin_owes_or_may_move():
    """Rule 22 (seed 003): ``nomic due`` (the module's ``due``) lists a standing Shoo, an owed move (a change made
    while the Shoo stood) and a move an admin may make; nothing once the move is made, and nothing while no Hand
    can move but the admin's chance. Before, the module had no ``due`` at all."""
    at = parse_time("2026-11-03T10:00:00Z")
    assert MODULE.due is not None
    assert MODULE.due(_played([]), at) == []
    assert MODULE.due(_played([TYPO]), at) == [
        "Ann may move a Hand (quazie.move-hand) as their next action, for their change to the ruleset (core.typo at "
        "2026-11-03T09:00:00Z) [rule: 22 Sleight of Hand]"]
    assert MODULE.due(_played([SHOO]), at) == [
        "a Shoo stands (posted by Cat at 2026-11-03T08:00:00Z): no Hand has moved since, so the next admin to change "
        "the ruleset must move a Hand [rule: 22 Sleight of Hand]"]
    lines = MODULE.due(_played([SHOO, TYPO]), at)
    assert lines[1] == ("Ann must move a Hand (quazie.move-hand) before any other action: they made their change to "
                        "the ruleset (core.typo at 2026-11-03T09:00:00Z) while a Shoo stood [rule: 22 Sleight of Hand]")
    assert MODULE.due(_played([SHOO, TYPO, MOVE]), at) == []
    late = [{**SHOO, "at": "2026-11-06T08:00:00Z"}, {**TYPO, "at": "2026-11-06T09:00:00Z"}]
    assert "(the Switcheroo Alarm has passed: the move is a Switcheroo)" in MODULE.due(
        _played(late), parse_time("2026-11-06T10:00:00Z"))[1]
    # a Shoo posted after Ann's change binds the next admin, not Ann: her move is one she may make
    lines = MODULE.due(_played([TYPO, {**SHOO, "at": "2026-11-03T09:10:00Z"}]), at)
    assert lines[1].startswith("Ann may move a Hand (quazie.move-hand) as their next action")


def test_nomic_due_on_a_quazie_game_lists_the_hands_after_the_core(tmp_path):
    """The whole ``nomic due`` (``validators.admin.due``) of a game on disk reads the module's lines too."""
    import shutil

    from validators.admin import due

    game = tmp_path / "content" / "quazie"
    shutil.copytree("content/quazie", game)
    state = game / "gamestate" / "quazie.yaml"
    text = state.read_text()
    assert "\nshoo: false\n" in text
    state.write_text(text.replace("\nshoo: false\n", "\nshoo:\n  by: Cayvie\n  at: 2026-11-06T10:00:00Z\n"))
    lines = due(tmp_path, "quazie", parse_time("2026-11-10T10:00:00Z"))  # after the last action (nomic due asks)
    assert any(line.startswith("a Shoo stands (posted by Cayvie at 2026-11-06T10:00:00Z)") for line in lines), lines


def test_nomic_due_says_no_hand_moves_in_the_hiatus():
    """Rules 9 and 22 (seed 003): in the Hiatus no Hand may move, so an admin's change made then (a CfJ resolved)
    shows as a move no Hand can make now, not as one owed, though a Shoo stands."""
    cfj = {"at": "2026-11-02T10:10:00Z", "actor": "Eve", "action": "core.cfj",
           "params": {"title": "Short", "effects": {"rules": [{"op": "amend", "id": "glossary", "body": "Last.\n"}]}}}
    votes = [{"at": f"2026-11-02T10:2{i}:00Z", "actor": who, "action": "core.cfj-vote",
              "params": {"cfj": 1, "vote": "FOR"}} for i, who in enumerate(["Dot", "Eve", "Fay", "Ann", "Ben"])]
    s = _played([{**SHOO, "at": "2026-11-02T10:00:00Z"}, {"at": "2026-11-02T10:05:00Z", "actor": "Dot",
                                                           "action": "core.dov"}, cfj, *votes,
                 {"at": "2026-11-02T10:40:00Z", "actor": "Ben", "action": "core.cfj-resolve", "params": {"cfj": 1}}])
    lines = MODULE.due(s, parse_time("2026-11-02T11:00:00Z"))
    assert lines[1] == ("Ben may move a Hand for their change to the ruleset (core.cfj-resolve at "
                        "2026-11-02T10:40:00Z), but no Hand can move now (the game is in Hiatus) "
                        "[rule: 22 Sleight of Hand]")


def test_the_hands_name_their_rules_as_the_ruleset_does_and_the_alarm_says_the_year():
    """Rule 22: the page said "left Hand in muffin-roles", the rule's file name, where a reader looks for rule 23
    Muffin Roles, and gave the Switcheroo Alarm (210 D.Q.) without the Calendar's Year, so nobody could tell it had
    passed. Each Hand's rule is named by its number and title and links to it; the Year at the game's clock is said
    beside the Alarm, and whether the Alarm has passed."""
    from validators.games.quazie.pages import colours_table

    state, _ = base_state("quazie")
    text = colours_table(state)
    assert ("**The Hands.** The left Hand is in [rule 23 Muffin Roles](ruleset.md#muffin-roles), grabbing “tag days”; "
            "the right Hand in [rule 15 Special Position Rules](ruleset.md#special-positions), grabbing “Mango Tree”."
            ) in text
    assert ("Switcheroo Alarm: 210 D.Q.; the Calendar was at 230 D.Q. at the game's clock, <time datetime="
            "\"2026-11-09T11:00:00Z\"") in text
    assert "so the Alarm has passed: the next Hand to move makes a Switcheroo (rule 22)" in text
    state.doc("quazie")["hands"]["right"]["rule"] = "pocket"
    assert "the right Hand in its Pocket" in colours_table(state)
    assert "but no Switcheroo happens while a Hand is in its Pocket" in colours_table(state)
    state.doc("quazie")["switcheroo_alarm"] = 230
    assert "230 D.Q. at the game's clock, " in colours_table(state)
    assert "so the Alarm has not passed yet." in colours_table(state)
    state.doc("quazie")["hands"]["left"]["rule"] = "gone-rule"  # a rule the ruleset lacks (the check reports it)
    assert "The left Hand is in gone-rule, grabbing" in colours_table(state)
