"""``nomic new`` from every example game: the founding state passes the check, the founders have what a player
who joined has, and the game goes on (a newcomer joins, a founder acts)."""

from __future__ import annotations

import re
import subprocess
from datetime import datetime, timezone

import pytest

from tests.gitgame import EXAMPLE_GAMES, ROOT, commit, make_repo, nomic
from validators import yamlio
from validators.admin import _newcomer_hint
from validators.content import doc_text, split_front_matter
from validators.engine import Founding
from validators.games.ifmud.fresh import fresh_map, fresh_tokens
from validators.modules import registry_for

FOUNDED = "2026-11-22T00:00:00Z"
NOW = ("--now", "2026-11-23T12:00:00Z")
# the example games played under the BlogNomic core (its module in their game.yaml's modules)
BLOGNOMIC_GAMES = [g for g in EXAMPLE_GAMES
                   if "blognomic" in yamlio.load_file(ROOT / "content" / g / "game.yaml").get("modules", [])]


def _found(tmp_path, example: str):
    repo = make_repo(tmp_path, example)
    r = nomic(repo, "new", "fresh", "--from", example, "--admin", "Anne=anne-gh", "--admin", "Bo=bo-gh",
              "--at", FOUNDED, *NOW)
    assert r.returncode == 0, r.stdout + r.stderr
    r = nomic(repo, "check", "--game", "fresh", *NOW)
    assert r.returncode == 0 and "0 actions replayed" in r.stdout, r.stdout
    game = repo / "content" / "fresh"
    # the configuration the game is founded with, from which the audit replays its log (and so audits game.yaml)
    assert yamlio.load_file(game / "initial" / "game.yaml") == yamlio.load_file(game / "game.yaml")
    assert (game / "initial" / "game.yaml").read_text().startswith(
        "# yaml-language-server: $schema=../../../schemas/game.schema.json\n")
    assert "not audited" not in r.stdout
    return repo, game


def _doc(game, kind, part=""):
    return yamlio.load_file(game / f"{part}gamestate" / f"{kind}.yaml")


def _act(repo, *args, at):
    r = nomic(repo, "act", "fresh", *args, "--at", at, *NOW)
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.parametrize("example", BLOGNOMIC_GAMES)
def test_a_blognomic_game_founded_from_each_example_joins_and_proposes(tmp_path, example):
    repo, game = _found(tmp_path, example)
    for part in ("", "initial/"):
        ledger = _doc(game, "ledger", part)
        assert ledger == {"clock": FOUNDED, "actions": 0, "head": ""}
        assert _doc(game, "dynasty", part) == {"number": 1, "leader": None, "title": "The First Dynasty",
                                               "started": FOUNDED}
        founders = [p for p in _doc(game, "roster", part)["players"] if not p.get("kind")]
        assert [(p["name"], p["account"], p["admin"], p["joined"]) for p in founders] == \
            [("Anne", "anne-gh", True, FOUNDED), ("Bo", "bo-gh", True, FOUNDED)]
    _act(repo, "core.join", "account=cy-gh", "--as", "Cy", at="2026-11-22T01:00:00Z")
    _act(repo, "core.propose", "title=Proposal: Bananas for all", "--as", "Anne", at="2026-11-22T02:00:00Z")
    r = nomic(repo, "check", "--game", "fresh", *NOW)
    assert r.returncode == 0 and "2 actions replayed" in r.stdout, r.stdout


def test_a_monkey_game_keeps_its_npcs_and_places_its_founders_in_the_line(tmp_path):
    # seed 000, "The Monkey Line": a Monkey who joins takes the lowest-numbered empty Position, and one who
    # leaves empties eirs; NPCs are kept with what they hold. "The Dance": a section for each Monkey, none for NPCs.
    repo, game = _found(tmp_path, "monkey")
    line = _doc(game, "monkey_line")
    assert [(p["at"], p["monkeys"]) for p in line["positions"]] == [
        (1, ["Curious George"]), (2, ["Anne"]), (3, ["Bo"]), (6, ["King Kong"]), (8, ["Robin Hood"]),
        (10, ["Miss Bubbles"])]
    npcs = [p["name"] for p in _doc(game, "roster")["players"] if p.get("kind")]
    assert npcs == ["Curious George", "King Kong", "Miss Bubbles", "Robin Hood"]
    items = {i["name"]: i for i in _doc(game, "monkey_items")["items"]}
    assert items["Big Rock"]["held_by"] == "King Kong"  # an NPC's item stays eirs
    assert items["The Monkey Ball"]["lies_at"] == 7 and "held_by" not in items["The Monkey Ball"]  # Abu's, fallen
    dance = _doc(game, "monkey_dance")
    assert dance["sections"] == [{"monkey": "Anne", "moves": []}, {"monkey": "Bo", "moves": []}]
    assert dance["history"] == [] and "last_dance" not in dance
    assert _doc(game, "monkey_awesomeness") == {"next": 1, "posts": []}
    _act(repo, "core.join", "account=cy-gh", "--as", "Cy", at="2026-11-22T01:00:00Z")
    assert [p["monkeys"] for p in _doc(game, "monkey_line")["positions"] if p["at"] == 4] == [["Cy"]]
    _act(repo, "monkey.move-up", "position=7", "--as", "Anne", at="2026-11-22T02:00:00Z")  # Robin Hood moves up
    assert nomic(repo, "check", "--game", "fresh", *NOW).returncode == 0


def test_two_founders_of_one_name_are_refused_as_the_join_refuses_them(tmp_path):
    # seed 001 1.2: a newcomer's name may not be one already playing; a founder comes in by that same join
    repo = make_repo(tmp_path, "monkey")
    r = nomic(repo, "new", "fresh", "--from", "monkey", "--admin", "Ann=ann-gh", "--admin", "ann=bo-gh", *NOW)
    assert r.returncode == 2, r.stdout
    assert "--admin: ann cannot come in as a founder: the name 'ann' is too like 'Ann'" in r.stdout, r.stdout
    assert "Traceback" not in r.stdout + r.stderr


def test_a_blank_title_is_refused_and_a_game_yaml_with_a_blank_name_does_not_check(tmp_path):
    repo = make_repo(tmp_path)
    r = nomic(repo, "new", "fresh", "--from", "blognomic", "--admin", "Ann=ann-gh", "--title", "  ", *NOW)
    assert r.returncode == 2 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    assert "--title: must not be blank: it says nothing" in r.stdout, r.stdout
    assert not (repo / "content" / "fresh").exists()
    game = repo / "content" / "blognomic" / "game.yaml"
    text = game.read_text()
    game.write_text(re.sub(r"(?m)^name: .*$", "name: '  '", text, count=1))
    r = nomic(repo, "check", "--game", "blognomic", "--no-replay")
    assert r.returncode == 2 and "game.yaml:2:" in r.stdout and "name: must not be blank" in r.stdout, r.stdout


def test_a_cycle12_game_is_a_new_cycle_with_sheets_for_its_founders(tmp_path):
    # seed 004, Joining: a newcomer gets a character sheet; Position Constraints: with no locations the first is
    # Apeiros Village at (0, 0), so a new cycle starts with an empty world; Phase I holds the cycle's start
    repo, game = _found(tmp_path, "cycle12")
    assert "next: players join with `nomic act other cycle12.join account=LOGIN --as NAME`" in \
        nomic(repo, "new", "other", "--from", "cycle12", "--admin", "Anne=anne-gh", *NOW).stdout
    assert "start: 2026-11-22T00:00:00Z" in (game / "game.yaml").read_text()
    for part in ("", "initial/"):
        sheets = _doc(game, "cycle12_sheets", part)["sheets"]
        assert [(s["player"], s["header"], s["tamed"]) for s in sheets] == \
            [("Anne", "Character Sheet: Anne", []), ("Bo", "Character Sheet: Bo", [])]
        assert _doc(game, "roster", part)["players"][0]["admin"] is True
    world = _doc(game, "cycle12_world")
    assert world["locations"] == [] and world["suggestions"] == [] and world["tags"]
    assert _doc(game, "cycle12_items")["items"] == [] and _doc(game, "cycle12_nomsters")["nomsters"] == []
    assert _doc(game, "cycle12_justice")["judge"] is None and _doc(game, "cycle12_proposals")["proposals"] == []
    _act(repo, "cycle12.join", "account=cy-gh", "--as", "Cy", at="2026-11-22T01:00:00Z")
    _act(repo, "cycle12.suggest-location", "kind=card", "name=Apeiros Village", "x=0", "y=0",
         "description=Houses round a well", "--as", "Anne", at="2026-11-22T02:00:00Z")
    _act(repo, "cycle12.gain-treat", "--as", "Bo", at="2026-11-22T03:00:00Z")
    r = nomic(repo, "check", "--game", "fresh", *NOW)
    assert r.returncode == 0 and "3 actions replayed" in r.stdout, r.stdout


def test_an_ifmud_game_gives_its_founders_servants_and_the_first_turn(tmp_path):
    # ifMUD seed: Rule 44 A/C, each player has a servant (initially in the Servants' Quarters) and a departed
    # player's ceases to exist; Rule 49, what they carried goes to the Attic; Rule 27, the first player in
    # surname order is active; Rule 148, a player added gets 10 brownie points; Rule 14, everyone starts in the Lounge
    repo, game = _found(tmp_path, "ifmud")
    for part in ("", "initial/"):
        turn = _doc(game, "turn", part)
        assert (turn["active"], turn["number"], turn["started"]) == ("Anne", 1, FOUNDED)
        servants = _doc(game, "entities", part)["servants"]
        assert [(s["owner"], s["location"], s["since"]) for s in servants] == \
            [("Anne", "Servants' Quarters", FOUNDED), ("Bo", "Servants' Quarters", FOUNDED)]
        players = _doc(game, "roster", part)["players"]
        assert [(p["name"], p["admin"], p["stats"]["brownie"], p["stats"]["location"]) for p in players] == \
            [("Anne", True, 10, "Lounge"), ("Bo", True, 10, "Lounge")]
    tokens = {t["name"]: t for t in _doc(game, "tokens")["tokens"]}
    # Rules 70, 132, 134, 152: every time bomb is one the example's play made (Zoe carried hers, Adam's lay in The
    # House of Commons), so none is kept; with no time bomb, Rule 134 gives each founder one at the founding
    bombs = {n: (t["location"], t["delay_hours"]) for n, t in tokens.items() if "delay_hours" in t}
    assert bombs == {"Anne's bomb": ({"player": "Anne"}, 24), "Bo's bomb": ({"player": "Bo"}, 24)}
    # Rule 101: the uplink starts charged (10) where the example was founded with it, though Admiral Jota carried it
    assert (tokens["mind-control satellite uplink"]["location"], tokens["mind-control satellite uplink"]["charge"]) \
        == ({"room": "Embedded CPU"}, 10)
    assert all(t["since"] == FOUNDED and "barred" not in t for t in tokens.values())
    assert _doc(game, "consent")["proposals"] == [] and _doc(game, "quests")["history"] == []
    assert all(r["visits"] == 0 and r["damage"] == 0 for r in _doc(game, "map")["rooms"])
    # a newcomer comes in by a ratified proposal's effects (no join action in these rules)
    effects = ('effects={gamestate: [{op: add, path: /roster/players/-, value: {name: Cy Young, account: cy-gh, '
               'joined: "2026-11-22T01:00:00Z", stats: {}}}]}')
    _act(repo, "ifmud.propose", "name=Welcome Cy [AN]", effects, "--as", "Anne", at="2026-11-22T01:00:00Z")
    _act(repo, "ifmud.vote", "proposal=1", "vote=aye", "--as", "Bo", at="2026-11-22T02:00:00Z")
    _act(repo, "ifmud.ratify", "proposal=1", "--as", "Anne", at="2026-11-22T03:00:00Z")
    _act(repo, "engine.tick", "--as", "Anne", at="2026-11-22T04:00:01Z")
    assert [s["owner"] for s in _doc(game, "entities")["servants"]] == ["Anne", "Bo", "Cy Young"]
    # Rules 10, 12 and 45 B: a newcomer joins when the proposal takes effect (an hour after the ratification), and
    # their unnamed servant's 72 hours run from then, as a founder's run from the founding
    joined = {p["name"]: p["joined"] for p in _doc(game, "roster")["players"]}
    assert joined == {"Anne": FOUNDED, "Bo": FOUNDED, "Cy Young": "2026-11-22T04:00:00Z"}  # the effects said 01:00
    assert {s["owner"]: (s["since"], s.get("name")) for s in _doc(game, "entities")["servants"]} == \
        {who: (at, None) for who, at in joined.items()}
    r = nomic(repo, "check", "--game", "fresh", *NOW)
    assert r.returncode == 0 and "4 actions replayed" in r.stdout, r.stdout


def test_an_ifmud_game_keeps_no_time_bomb_nor_the_last_cigar():
    # ifMUD seed, Rules 132, 134, 152: time bombs (a player's, one bought, a cigar) are made in play; the new game keeps
    # the other tokens, and no record of a cigar that existed before it (Rule 152 copies the last one)
    doc = {"next": 4, "last_cigar": {"name": "a cigar", "location": {"room": "Attic"}, "value": 3,
                                     "destination": "Lounge", "delay_hours": 48},
           "tokens": [{"id": 1, "name": "a bomb", "location": {"room": "Lounge"}, "delay_hours": 24},
                      {"id": 2, "name": "a cigar", "location": {"player": "Zoe Abbott"}, "delay_hours": 24,
                       "role": "cigar", "value": 3, "destination": "Lounge"},
                      {"id": 3, "name": "a banana", "location": {"room": "Saturn"}, "moved_by": "Zoe Abbott"}]}
    out = fresh_tokens(doc, Founding(datetime(2026, 11, 22, tzinfo=timezone.utc), None, None))
    assert out == {"next": 4, "tokens": [{"id": 3, "name": "a banana", "location": {"room": "Saturn"},
                                          "since": FOUNDED}]}


def test_an_ifmud_game_starts_its_tokens_and_quests_as_the_rules_start_them(tmp_path):
    # ifMUD seed: Rule 101, the uplink's charge starts at 10 (the example's play left 9); Rule 105, the Lunchbox's
    # die starts at 18 (16 after two rolls); Rule 120, the pie bomb is made in play; Rule 142, a Quest is created in
    # play; the golden fleece (a prize the example was founded with, Rules 54, 57) starts where it started there
    repo = make_repo(tmp_path, "ifmud")
    quests = repo / "content" / "ifmud" / "gamestate" / "quests.yaml"  # a Quest created in play, still open
    quests.write_text(quests.read_text().replace("next: 2\nquests: []", "next: 3\nquests:\n  - {id: 2, colour: blue, "
                                                 "home: Saturn, locate: Attic, goal: Lounge, value: {brownie: 9}}"))
    r = nomic(repo, "new", "fresh", "--from", "ifmud", "--admin", "Anne=anne-gh", "--at", FOUNDED, *NOW)
    assert r.returncode == 0, r.stdout + r.stderr
    game = repo / "content" / "fresh"
    for part in ("", "initial/"):
        tokens = {t["name"]: t for t in _doc(game, "tokens", part)["tokens"]}
        assert sorted(tokens) == ["Anne's bomb", "Bottle Imp", "Explorer's Compass", "The Bus Driver's Lunchbox",
                                  "a banana", "golden fleece", "mind-control satellite uplink", "personal teleporter"]
        uplink, box, fleece = (tokens[n] for n in ("mind-control satellite uplink", "The Bus Driver's Lunchbox",
                                                   "golden fleece"))
        assert (uplink["location"], uplink["charge"]) == ({"room": "Embedded CPU"}, 10)
        assert (box["location"], box["die"], box["value"], box["destination"]) == \
            ({"room": "Attic"}, 18, 0, "The House of Commons")
        assert (fleece["location"], fleece["destination"], fleece["value"]) == \
            ({"room": "West of House"}, "West of Nowhere", 15)
        assert tokens["personal teleporter"]["status"] == "burned out"  # Rule 109
        assert _doc(game, "quests", part) == {"next": 1, "quests": [], "history": []}
    r = nomic(repo, "check", "--game", "fresh", *NOW)
    assert r.returncode == 0, r.stdout


def test_an_ifmud_games_monkey_and_other_entities_start_where_the_rules_put_them(tmp_path):
    # ifMUD seed, Rules 71 and 114: the monkey and the pieman start in Central Park; Rule 80: the Omnibus in The House
    # of Commons; Rule 155: the robot in Embedded CPU, the kitten in the Lounge. The example's Admiral Jota moved the
    # monkey to the Lounge with the uplink (Rule 71): a new game's monkey is back in Central Park, moved by nobody
    repo = make_repo(tmp_path, "ifmud")
    entities = repo / "content" / "ifmud" / "gamestate" / "entities.yaml"  # the pieman and the kitten wandered too
    entities.write_text(entities.read_text().replace("pieman:\n  location: Central Park", "pieman:\n  location: Attic")
                        .replace("kitten:\n  location: Lounge", "kitten:\n  location: Saturn"))
    r = nomic(repo, "new", "fresh", "--from", "ifmud", "--admin", "Anne=anne-gh", "--at", FOUNDED, *NOW)
    assert r.returncode == 0, r.stdout + r.stderr
    game = repo / "content" / "fresh"
    for part in ("", "initial/"):
        doc = _doc(game, "entities", part)
        assert {k: v for k, v in doc.items() if k != "servants"} == {
            "monkey": {"location": "Central Park"}, "pieman": {"location": "Central Park"},
            "omnibus": {"location": "The House of Commons"}, "robot": {"location": "Embedded CPU"},
            "kitten": {"location": "Lounge"}}
    r = nomic(repo, "check", "--game", "fresh", *NOW)
    assert r.returncode == 0, r.stdout


def test_an_ifmud_games_map_has_no_damage_spent_on_it_by_the_examples_play(tmp_path):
    # ifMUD seed, Rules 75, 76, 121: damage starts at 0 and is spent only in play, so the new game's North Pole has
    # no position masked, no letter read in place of its own, and the Saturn-North Pole connection (resting on its
    # fifth letter) that the masking deleted is back; the connection a ratified proposal added (Rule 25) stays
    repo = make_repo(tmp_path, "ifmud")
    example = repo / "content" / "ifmud"
    pole = "  - name: The North Pole\n    visits: 0\n    damage: 0\n"
    link = "  - between:\n      - Saturn\n      - The North Pole\n"
    for part in ("", "initial/"):  # founded with damage at the North Pole (where nobody went), for play to spend
        path = example / f"{part}gamestate" / "map.yaml"
        text = path.read_text()
        assert pole in text and link in text
        path.write_text(text.replace(pole, pole.replace("damage: 0", "damage: 2")).replace(
            link, link + "    basis:\n      - room: The North Pole\n        position: 5\n"))
    commit(repo, "the North Pole founded with damage")
    for at, params in (("2026-11-05T05:00:00Z", ["room=The North Pole", "position=5"]),
                       ("2026-11-05T05:01:00Z", ["room=The North Pole", "position=6", "letter=x"])):
        r = nomic(repo, "act", "ifmud", "ifmud.spend-damage", *params, "--as", "Zoe Abbott", "--at", at, *NOW)
        assert r.returncode == 0, r.stdout + r.stderr
    played = _doc(example, "map")
    room = next(r for r in played["rooms"] if r["name"] == "The North Pole")
    assert (room["masked"], room["letters"], room["damage"]) == ([5], {"6": "x"}, 0)
    assert ["Saturn", "The North Pole"] not in [c["between"] for c in played["connections"]]  # Rule 76 deleted it
    r = nomic(repo, "check", "--game", "ifmud", *NOW)
    assert r.returncode == 0, r.stdout
    r = nomic(repo, "new", "fresh", "--from", "ifmud", "--admin", "Anne=anne-gh", "--at", FOUNDED, *NOW)
    assert r.returncode == 0, r.stdout + r.stderr
    game = repo / "content" / "fresh"
    for part in ("", "initial/"):
        doc = _doc(game, "map", part)
        room = next(r for r in doc["rooms"] if r["name"] == "The North Pole")
        assert "masked" not in room and "letters" not in room and room["damage"] == 0
        assert {"between": ["Saturn", "The North Pole"], "basis": [{"room": "The North Pole", "position": 5}]} \
            in doc["connections"]
        assert {"between": ["Lounge", "Saturn"]} in doc["connections"]
        assert len(doc["connections"]) == len(played["connections"]) + 1
    r = nomic(repo, "check", "--game", "fresh", *NOW)
    assert r.returncode == 0, r.stdout


def test_an_ifmud_game_has_a_connection_its_examples_proposal_made_and_a_masking_deleted(tmp_path):
    # ifMUD seed, Rules 25, 70, 75, 76: in a game founded from ifmud, a ratified proposal connects the Lounge to the
    # North Pole on the Lounge's first letter; Anne's bomb esplodes in the Lounge (one damage) and Bo spends it
    # masking that letter, which deletes the connection. A game founded from that one has the proposal's board:
    # the connection is back and the Lounge's letter counts again
    repo, game = _found(tmp_path, "ifmud")
    later = ("--now", "2026-11-23T06:00:00Z")

    def act(*args, at):
        r = nomic(repo, "act", "fresh", *args, "--at", at, *later)
        assert r.returncode == 0, r.stdout + r.stderr

    link = {"between": ["Lounge", "The North Pole"], "basis": [{"room": "Lounge", "position": 1}]}
    act("ifmud.propose", "name=Pole road [AN]", "effects={gamestate: [{op: add, path: /map/connections/-, value: "
        "{between: [Lounge, The North Pole], basis: [{room: Lounge, position: 1}]}}]}", "--as", "Anne",
        at="2026-11-22T01:00:00Z")
    act("ifmud.vote", "proposal=1", "vote=aye", "--as", "Bo", at="2026-11-22T02:00:00Z")
    act("ifmud.ratify", "proposal=1", "--as", "Anne", at="2026-11-22T03:00:00Z")
    act("ifmud.drop", "token=Anne's bomb", "--as", "Anne", at="2026-11-22T04:00:01Z")
    assert link in _doc(game, "map")["connections"]
    act("ifmud.spend-damage", "room=Lounge", "position=1", "--as", "Bo", at="2026-11-23T05:00:00Z")
    lounge = next(r for r in _doc(game, "map")["rooms"] if r["name"] == "Lounge")
    assert lounge["masked"] == [1] and link not in _doc(game, "map")["connections"]
    r = nomic(repo, "new", "again", "--from", "fresh", "--admin", "Cy=cy-gh", "--at", "2026-11-23T06:00:00Z", *later)
    assert r.returncode == 0, r.stdout + r.stderr
    for part in ("", "initial/"):
        doc = _doc(repo / "content" / "again", "map", part)
        assert "masked" not in next(r for r in doc["rooms"] if r["name"] == "Lounge")
        assert link in doc["connections"]
    r = nomic(repo, "check", "--game", "again", *later)
    assert r.returncode == 0, r.stdout


def test_an_ifmud_games_bubble_burst_in_the_examples_play_is_back(tmp_path):
    # ifMUD seed, Rule 29: a player paid 32 points for entering the Dot-Com Bubble bursts it and it leaves the map;
    # that is play, so a new game has the bubble as the example was founded with it, joined to the Lounge and the
    # Jaws of Death, with nobody paid yet
    repo = make_repo(tmp_path, "ifmud")
    path = repo / "content" / "ifmud" / "gamestate" / "map.yaml"
    played = yamlio.load_file(path)
    played["rooms"] = [r for r in played["rooms"] if r["name"] != "Dot-Com Bubble"]  # as world.burst_bubble leaves it
    played["connections"] = [c for c in played["connections"] if "Dot-Com Bubble" not in c["between"]]
    played["bubble"] = {"next": 64, "last": "Zoe Abbott"}
    path.write_text(doc_text(played, "content/ifmud/gamestate/map.yaml", "ifmud_map.schema.json"))
    r = nomic(repo, "new", "fresh", "--from", "ifmud", "--admin", "Anne=anne-gh", "--at", FOUNDED, *NOW)
    assert r.returncode == 0, r.stdout + r.stderr
    game = repo / "content" / "fresh"
    founded = _doc(repo / "content" / "ifmud", "map", "initial/")
    for part in ("", "initial/"):
        doc = _doc(game, "map", part)
        assert [r["name"] for r in doc["rooms"]] == [r["name"] for r in founded["rooms"]]
        bubble = next(r for r in doc["rooms"] if r["name"] == "Dot-Com Bubble")
        assert (bubble["visits"], bubble["damage"]) == (0, 0)
        assert {"between": ["Lounge", "Dot-Com Bubble"]} in doc["connections"]
        assert {"between": ["Dot-Com Bubble", "Jaws of Death"]} in doc["connections"]
        assert doc["bubble"] == {"next": 1, "last": None}
    r = nomic(repo, "check", "--game", "fresh", *NOW)
    assert r.returncode == 0, r.stdout


def test_an_ifmud_bubble_a_proposal_took_off_the_map_stays_off():
    # ifMUD seed, Rules 20 and 29: with nobody paid 32 points the bubble did not burst; gone from the map, a
    # proposal took it off, and the map is kept as the proposals left it
    room = {"name": "Dot-Com Bubble", "visits": 0, "damage": 0}
    founded = {"rooms": [{"name": "Lounge", "visits": 0, "damage": 0}, room],
               "connections": [{"between": ["Lounge", "Dot-Com Bubble"]}], "bubble": {"next": 1, "last": None}}
    doc = {"rooms": [{"name": "Lounge", "visits": 3, "damage": 0}], "connections": [],
           "bubble": {"next": 8, "last": "Zoe Abbott"}}
    out = fresh_map(doc, Founding(datetime(2026, 11, 22, tzinfo=timezone.utc), None, founded))
    assert out == {"rooms": [{"name": "Lounge", "visits": 0, "damage": 0}], "connections": [],
                   "bubble": {"next": 1, "last": None}}


def test_an_ifmud_game_without_a_founding_state_starts_its_tokens_at_the_rules_values():
    # ifMUD seed, Rules 101, 104, 105: with no initial/ to say what the example was founded with, the tokens are
    # those that stand, at the values the rules start them with; Rules 120, 141: the pie bomb and a quest token go
    doc = {"next": 9, "tokens": [
        {"id": 1, "name": "uplink", "location": {"room": "Lounge"}, "role": "uplink", "charge": 0},
        {"id": 3, "name": "Lunchbox", "location": {"room": "Saturn"}, "role": "lunchbox", "value": 7,
         "destination": "Attic", "die": 4, "barred": "Zoe Abbott"},
        {"id": 5, "name": "the pie bomb", "location": {"room": "Attic"}, "role": "pie-bomb", "value": 7,
         "destination": "Lounge"},
        {"id": 8, "name": "red primary", "location": {"room": "Attic"}, "quest": 1}]}
    out = fresh_tokens(doc, Founding(datetime(2026, 11, 22, tzinfo=timezone.utc), None, None))
    assert out == {"next": 9, "tokens": [
        {"id": 1, "name": "uplink", "location": {"room": "Lounge"}, "role": "uplink", "charge": 10, "since": FOUNDED},
        {"id": 3, "name": "Lunchbox", "location": {"room": "Saturn"}, "role": "lunchbox", "value": 0,
         "destination": "Attic", "die": 18, "since": FOUNDED}]}


@pytest.mark.parametrize("example", EXAMPLE_GAMES)
def test_no_example_player_is_left_in_a_new_game(tmp_path, example):
    # the example's players are no players of the new game: no document names them, a token's name included (ifMUD's
    # "Zoe Abbott's bomb" was Zoe's by Rule 134, and goes with the other time bombs); initial/ holds what gamestate/
    # holds
    repo, game = _found(tmp_path, example)
    example_roster = yamlio.load_file(repo / "content" / example / "gamestate" / "roster.yaml")
    gone = [p["name"] for p in example_roster["players"] if not p.get("kind")]
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, gone)) + r")\b")
    for path in sorted((game / "gamestate").glob("*.yaml")):
        lines = [line for line in path.read_text().splitlines()[1:] if pattern.search(line)]
        assert not lines, (path.name, lines)
        assert path.read_text().splitlines()[1:] == \
            (game / "initial" / "gamestate" / path.name).read_text().splitlines()[1:]


def test_a_settlement_game_keeps_its_outsiders_and_their_numbering(tmp_path):
    # seed 001, Outsiders: they are on the roster and treated as Colonists, but are no players; a new game keeps
    # them (and the numbering their names take, so the next Moose is Moose 2), and loses the example's Colonists
    repo = make_repo(tmp_path, "settlement")
    for part in ("", "initial/"):
        roster = repo / "content" / "settlement" / f"{part}gamestate" / "roster.yaml"
        roster.write_text(roster.read_text() + "  - {name: Moose 1, kind: outsider, joined: '2026-11-02T00:00:00Z', "
                          "stats: {location: 0a, energy: 50, stress: 0, hunger: 2, deaths: 0, job: Peasant}}\n")
    r = nomic(repo, "new", "fresh", "--from", "settlement", "--admin", "Anne=anne-gh", "--at", FOUNDED, *NOW)
    assert r.returncode == 0, r.stdout + r.stderr
    game = repo / "content" / "fresh"
    assert [(p["name"], p.get("kind")) for p in _doc(game, "roster")["players"]] == \
        [("Moose 1", "outsider"), ("Anne", None)]
    assert _doc(game, "colony") == {"outsider_numbers": {"Moose": 1, "Rat": 1}}
    r = nomic(repo, "check", "--game", "fresh", *NOW)
    assert r.returncode == 0, r.stdout


@pytest.mark.parametrize("example", EXAMPLE_GAMES)
def test_a_new_games_rules_are_founded_with_it_and_carry_no_history_of_the_example(tmp_path, example):
    # a rule's history tells what happened to it in this game: the new game's rules are founded at its founding
    # (--at), not on the example's date, and no proposal of the example (BlogNomic's proposal 1 amended a rule)
    # stands in them; the text, number, title and status are the example's as they stand
    repo, game = _found(tmp_path, example)
    source = repo / "content" / example / "ruleset"
    for part in ("", "initial/"):
        files = sorted((game / f"{part}ruleset").glob("*.md"))
        assert [f.name for f in files] == sorted(f.name for f in source.glob("*.md"))
        for path in files:
            front, body = split_front_matter(path.read_text(), str(path))
            old_front, old_body = split_front_matter((source / path.name).read_text(), path.name)
            meta, old = yamlio.rt_load(front, str(path)), yamlio.rt_load(old_front, path.name)
            assert meta["history"] == [{"event": "founded", "at": FOUNDED}], (part, path.name, meta["history"])
            assert {k: v for k, v in meta.items() if k != "history"} == \
                {k: v for k, v in old.items() if k != "history"}, path.name
            assert body == old_body, path.name


LATER = ("--now", "2027-02-02T00:00:00Z")


def _found_later(tmp_path, example: str):
    """A game founded from ``example`` on 2027-02-01, three months after the example's founding."""
    repo = make_repo(tmp_path, example)
    r = nomic(repo, "new", "fresh", "--from", example, "--admin", "Anne=anne-gh", "--at", "2027-02-01T06:00:00Z",
              *LATER)
    assert r.returncode == 0, r.stdout + r.stderr
    return repo, repo / "content" / "fresh"


def test_a_settlement_games_victory_date_is_as_far_from_its_founding_as_the_examples(tmp_path):
    # seed 001, 2.12 Victory: the dynasty's victory date (5 May 2010), which the example moved to 2026-12-31, 60
    # days after its founding (2026-11-01). A game founded on 2027-02-01 took that date over, already past: the
    # founding itself judged it (colony.date_judged), before anyone had played. The new game's date is 60 days
    # after its own founding, at the midnight that ends that day, and is not judged at the founding
    repo, game = _found_later(tmp_path, "settlement")
    config = yamlio.load_file(game / "game.yaml")
    assert config["options"]["settlement"]["victory_date"] == "2027-04-03T00:00:00Z"
    assert yamlio.load_file(game / "initial" / "game.yaml") == config
    for part in ("", "initial/"):
        assert "date_judged" not in _doc(game, "colony", part) and "victory" not in _doc(game, "colony", part)
    r = nomic(repo, "check", "--game", "fresh", *LATER)
    assert r.returncode == 0, r.stdout


def test_a_quazie_game_has_no_shoo_pending_from_the_examples_muffins(tmp_path):
    # seed 003, rule 22: a Shoo is a non-admin Muffin's post since a Hand last moved, which obliges the next admin who
    # changes the ruleset to move a Hand; the example's Muffins' Shoo is not one posted in the new game
    repo = make_repo(tmp_path, "quazie")
    state = repo / "content" / "quazie" / "gamestate" / "quazie.yaml"
    state.write_text(state.read_text().replace("shoo: false", "shoo: true"))
    r = nomic(repo, "new", "fresh", "--from", "quazie", "--admin", "Anne=anne-gh", "--at", FOUNDED, *NOW)
    assert r.returncode == 0, r.stdout + r.stderr
    for part in ("", "initial/"):
        assert _doc(repo / "content" / "fresh", "quazie", part)["shoo"] is False


def test_a_quazie_games_calendar_begins_at_its_founding_with_the_alarm_as_far_from_it(tmp_path):
    # seed 003, rule 7: the Calendar advances 10 Years at each midnight UTC; rule 9: the only Year the rules set is
    # 0, at a Dynasty's start; rule 22: a Hand moved while the Switcheroo Alarm is below the Year makes a Switcheroo.
    # The example's Calendar read 150 at its founding (2026-11-01) and its alarm is 210, six days on. A game founded
    # on 2027-02-01 took the Calendar over (Year 1070 there) with the alarm long passed, so its first Hand move was a
    # Switcheroo; it now starts at Year 0 with the alarm at 60, and a Hand moved on its first day moves
    repo, game = _found_later(tmp_path, "quazie")
    for part in ("", "initial/"):
        state = _doc(game, "quazie", part)
        assert (state["calendar"], state["switcheroo_alarm"]) == \
            ({"epoch": "2027-02-01T06:00:00Z", "year": 0}, 60)
        assert state["hands"] == _doc(repo / "content" / "quazie", "quazie")["hands"]
    # rule 22: Anne moves a Hand for a change she makes to the ruleset (a typo fix, rule 1)
    r = nomic(repo, "act", "fresh", "core.typo", "rule=glossary", "old=It only clarifies", "new=It merely clarifies",
              "--as", "Anne", "--at", "2027-02-01T06:59:00Z", *LATER)
    assert r.returncode == 0, r.stdout + r.stderr
    r = nomic(repo, "act", "fresh", "quazie.move-hand", "hand=right", "rule=tag", "text=Not It", "--as", "Anne",
              "--at", "2027-02-01T07:00:00Z", *LATER)
    assert r.returncode == 0, r.stdout + r.stderr
    state = _doc(game, "quazie")
    assert (state["hands"]["right"], state["switcheroo_alarm"]) == ({"rule": "tag", "text": "Not It"}, 10)
    assert "{{Not It}}" in (game / "ruleset" / "tag.md").read_text()
    r = nomic(repo, "check", "--game", "fresh", *LATER)
    assert r.returncode == 0 and "2 actions replayed" in r.stdout, r.stdout


def test_the_hint_for_an_ifmud_game_says_joined_is_when_the_proposal_takes_effect(tmp_path):
    # ifMUD seed, Rules 10 and 12: a player is added by unanimous consent, reached when the proposal takes effect, so
    # their `joined` is that moment whatever the effects write: the hint leaves it out, and its patch works as shown
    repo = make_repo(tmp_path, "ifmud")
    r = nomic(repo, "new", "fresh", "--from", "ifmud", "--admin", "Anne=anne-gh", "--admin", "Bo=bo-gh",
              "--at", FOUNDED, *NOW)
    assert r.returncode == 0, r.stdout + r.stderr
    hint = next(line for line in r.stdout.splitlines() if line.startswith("next: "))
    assert "joined: TIME" not in hint and "`joined` is set to the moment the proposal takes effect" in hint, hint
    value = re.search(r"value: (\{name: NAME.*?\}\})", hint).group(1).replace("NAME", "Cy Young").replace("LOGIN", "cy")
    _act(repo, "ifmud.propose", "name=Welcome Cy [AN]", f"effects={{gamestate: [{{op: add, path: /roster/players/-, "
         f"value: {value}}}]}}", "--as", "Anne", at="2026-11-22T01:00:00Z")
    _act(repo, "ifmud.vote", "proposal=1", "vote=aye", "--as", "Bo", at="2026-11-22T02:00:00Z")
    _act(repo, "ifmud.ratify", "proposal=1", "--as", "Anne", at="2026-11-22T03:00:00Z")
    _act(repo, "engine.tick", "--as", "Anne", at="2026-11-22T04:00:01Z")
    joined = {p["name"]: p["joined"] for p in _doc(repo / "content" / "fresh", "roster")["players"]}
    assert joined["Cy Young"] == "2026-11-22T04:00:00Z"
    # a game with no join and no word of its own: the proposal's effects write `joined`, the time it takes effect
    assert "TIME being when the proposal takes effect" in _newcomer_hint(registry_for(["blognomic"]))


@pytest.mark.parametrize("second, said", [
    ("Bo=ANNE-gh", "--admin: Bo cannot come in as a founder: the account ANNE-gh already plays as Anne"),
    ("anne=bo-gh", "--admin: anne cannot come in as a founder: the name 'anne' is too like 'Anne', who is already "
                   "playing")])
def test_two_ifmud_founders_of_one_account_or_name_are_refused_before_anything_is_written(tmp_path, second, said):
    # ifMUD seed, Rules 3, 23: a player posts from an account, so one account plays one player; Rules 12, 27: turns go
    # by the names players are known by. These rules have no join action, so founders are put on the roster as a
    # proposal's effects put a player there, and are refused for what would stop those effects
    repo = make_repo(tmp_path, "ifmud")
    r = nomic(repo, "new", "fresh", "--from", "ifmud", "--admin", "Anne=anne-gh", "--admin", second, *NOW)
    assert r.returncode == 2 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    assert said in r.stdout, r.stdout
    assert not (repo / "content" / "fresh").exists()
    r = nomic(repo, "new", "fresh", "--from", "ifmud", "--admin", "Anne=anne-gh", "--admin", "Bo=bo-gh", *NOW)
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.parametrize("example", ["blognomic", "ifmud", "cycle12"])
@pytest.mark.parametrize("args, said", [
    (["--admin", "Ann=!!"], "--admin: LOGIN '!!' is not a login on the forge"),
    (["--admin", "Dána=ann-gh"], "--admin: NAME 'Dána' is not a player's name"),
    (["--admin", "A" * 100 + "=ann-gh"], "--admin: NAME 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'... (100 characters) "
                                         "is not a player's name"),
    (["--admin", "Ann=ann-gh", "--title", "y" * 201], "--title: 'yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy'... "
                                                      "(201 characters) is too long (at most 200 characters)"),
])
def test_a_founder_or_title_the_files_could_not_hold_is_refused_before_anything_is_written(tmp_path, example, args,
                                                                                          said):
    # the roster holds a player's name and login, game.yaml the title, by common.schema.json; a value they refuse is
    # the command line's mistake, said of its option, and the game's folder is not made
    repo = make_repo(tmp_path, example)
    r = nomic(repo, "new", "fresh", "--from", example, *args, *NOW)
    assert r.returncode == 2 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    assert any(line.startswith(said) for line in r.stdout.splitlines()), r.stdout
    assert "created" not in r.stdout, r.stdout
    assert not (repo / "content" / "fresh").exists()
    assert subprocess.run(["git", "-C", str(repo), "status", "--porcelain"], capture_output=True,
                          text=True).stdout == ""


@pytest.mark.parametrize("example", ["blognomic", "quazie", "cycle12"])
def test_a_game_founded_before_the_files_can_date_it_is_refused_before_anything_is_written(tmp_path, example):
    # common.schema.json's times are of the years 1000 to 9999: a game founded in the year 1 failed inside the judge
    # (a week before its founding is no date), after its folder was begun
    repo = make_repo(tmp_path, example)
    r = nomic(repo, "new", "fresh", "--from", example, "--admin", "Ann=ann-gh", "--at", "0001-01-01T00:00:00Z", *NOW)
    assert r.returncode == 2 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    assert ("--at: '0001-01-01T00:00:00Z' is not a time the game's files can hold (years 1000 to 9999, in UTC)"
            in r.stdout.splitlines()), r.stdout
    assert not (repo / "content" / "fresh").exists()
    assert subprocess.run(["git", "-C", str(repo), "status", "--porcelain"], capture_output=True,
                          text=True).stdout == ""


def test_an_ifmud_game_has_a_connection_a_proposal_wrote_with_a_synonym_back_after_its_masking():
    # ifMUD seed, Rules 25, 72, 76: the example's ratified proposal connected "lobby" (a synonym of the Lounge in the
    # Table of Synonyms, so the Lounge for every purpose of the game) to the North Pole on the lobby's first letter,
    # and a masking of the Lounge's first letter deleted it. A game founded from it has the proposal's board, so the
    # connection is back between the Lounge and the North Pole. Before, the proposal's rooms were matched in any case
    # but not through the synonyms, "lobby" was no room of the map, and the connection stayed lost
    import copy

    from validators.content import WorkTree, load_game
    from validators.engine import State

    source = load_game(WorkTree(ROOT), "ifmud").state
    docs = copy.deepcopy(dict(source.docs))
    assert ["Lounge", "the Lounge", "lobby"] in docs["tables"]["synonyms"]
    lounge = next(r for r in docs["map"]["rooms"] if r["name"] == "Lounge")
    lounge["masked"] = [1]
    assert not any(set(c["between"]) == {"Lounge", "The North Pole"} for c in docs["map"]["connections"])
    docs["consent"]["proposals"].append({
        "id": 99, "name": "Pole road [AN]", "status": "ratified",
        "effects": {"gamestate": [{"op": "add", "path": "/map/connections/-", "value": {
            "between": ["lobby", "The North Pole"], "basis": [{"room": "lobby", "position": 1}]}}]}})
    example = State(source.config, docs, source.rules)
    out = fresh_map(copy.deepcopy(docs["map"]),
                    Founding(datetime(2026, 11, 22, tzinfo=timezone.utc), None, None, example))
    assert {"between": ["Lounge", "The North Pole"], "basis": [{"room": "Lounge", "position": 1}]} \
        in out["connections"]
    assert "masked" not in next(r for r in out["rooms"] if r["name"] == "Lounge")
