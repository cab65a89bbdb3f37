"""``nomic act GAME --list``: an action that takes parameters is said not to be possible when it is not, whatever
values are given (``Action.ready``): nothing pending to vote on, a power this game's rules do not give. The list
must never say "no" to an action the check would take: each example game's refusals are tried against the judge
with every number the game has used and one more."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
import yaml

from tests.gitgame import EXAMPLE_GAMES, ROOT, make_repo, nomic
from validators.act import act, available
from validators.content import WorkTree, load_game
from validators.engine import advance
from validators.judge import judge_one
from validators.timeutil import parse_time

NOW = parse_time("2026-11-22T12:00:00Z")
AT = ["--at", "2026-11-22T12:00:00Z", "--now", "2026-11-22T12:00:00Z"]
CORE_READY = {"core.cfj-vote", "core.dov-resolve", "core.cfj-withdraw", "core.ascend"}
IFMUD_READY = {f"ifmud.{name}" for name in (
    "move move-servant omnibus teleport move-monkey pick-up drop set-destination steal monkey-pick-up monkey-drop "
    "monkey-steal monkey-delay create-quest vote declare-dead ratify rename throw-pie robot-kitten metamorphose "
    "abandon-gift accept-donation retract-donation spend-damage name-servant").split()}
# the actions whose Action.ready refusals each example game shows to its first players, tried below: each example
# game needs its entry (an empty set if none), and the test of a game without one fails, naming it
READY = {
    "blognomic": CORE_READY,
    "monkey": CORE_READY | {"monkey.move-up", "monkey.split", "monkey.trim-section", "monkey.use-item",
                            "monkey.awesomeness-vote", "monkey.awesomeness-close"},
    "settlement": CORE_READY | {
        "settlement.move", "settlement.mine", "settlement.chop", "settlement.hunt", "settlement.dig",
        "settlement.fire", "settlement.shove", "settlement.build", "settlement.pull-down", "settlement.fill",
        "settlement.spread-smoke", "settlement.clear-smoke", "settlement.job", "settlement.dance-success",
        "settlement.conga-move", "settlement.support",
    },
    "quazie": CORE_READY | {"quazie.bounce", "quazie.flavour", "quazie.swap", "quazie.fruity-move",
                            "quazie.devils-food", "quazie.poke", "quazie.tag", "quazie.choose-describer",
                            "quazie.stuff-shall-be", "quazie.give-role", "quazie.remove-role", "quazie.concerto",
                            "quazie.concerto-use", "quazie.movement"},
    "ifmud": IFMUD_READY,
    "cycle12": {f"cycle12.{a}" for a in (
        "edit-proposal create-location terraform react choose-random tame name-nomster set-active cuddle give-treat "
        "command accept-trade judge call-confidence confidence-vote self-overturn endorse transcribe").split()},
}


def test_ready_names_only_example_games():
    """An entry of READY for a game that is no longer an example (renamed, removed) would be tried by no test."""
    assert not set(READY) - set(EXAMPLE_GAMES), sorted(set(READY) - set(EXAMPLE_GAMES))


def _listed(repo: Path, game: str, who: str) -> dict[str, list[str]]:
    return {a.name: a.why_not for a in available(repo, game, who, NOW)}


def _used(files) -> dict[str, list[str]]:
    """Every text the game's recorded actions gave to each parameter, by the parameter's name (a location, a path,
    a Job), in log order."""
    used: dict[str, list[str]] = {}
    for path in files.actions:
        record = yaml.safe_load((ROOT / path).read_text(encoding="utf-8")) or {}
        for key, value in (record.get("params") or {}).items():
            if isinstance(value, str) and value not in used.setdefault(key, []):
                used[key].append(value)
    return used


def _listed_things(state) -> tuple[list[int], list[str]]:
    """The numbers (``id``) and the names (``name``) of every thing a list of the game's documents holds: posts,
    Awesomeness Posts, items, hammers, flavours, movements."""
    ids, names = [], []
    for doc in state.docs.values():
        for value in doc.values() if isinstance(doc, dict) else ():
            for item in value if isinstance(value, list) else ():
                if isinstance(item, dict):
                    ids += [item["id"]] if isinstance(item.get("id"), int) else []
                    names += [item["name"]] if isinstance(item.get("name"), str) else []
    return ids, names


def _values(state, name: str, schema: dict, used: dict[str, list[str]] | None = None) -> list:
    """Values a player could give to a parameter: every number a thing of the game has (and one more), every
    number up to the count of players and one more (a place in a line, a count of notes), each player's name (and
    a stranger's), each name the game's documents give to a thing, each text the game's actions gave to a parameter
    of that name (a location, a path, a Job), each vote; for a parameter of several types, the values of each."""
    if "enum" in schema:
        return list(schema["enum"])
    if "examples" in schema:  # a text that takes more than a list (Quazie's role, also by its title): those, and more
        return list(schema["examples"]) + ["x"]
    if "oneOf" in schema:  # a nomster named by its id or its name: the values of each
        return [v for alt in schema["oneOf"] for v in _values(state, name, alt, used)]
    ids, things = _listed_things(state)
    players = [p["name"] for p in state.players()]
    if schema.get("type") == "integer":
        return list(range(1, max([*ids, len(players)], default=0) + 2))
    if schema.get("type") == "boolean":
        return [False, True]
    if str(schema.get("$ref", "")).endswith("/name") or name in ("to", "player", "name"):
        return players + ["Zed"]
    items = schema.get("items") if schema.get("type") == "array" else None
    if isinstance(items, dict) and str(items.get("$ref", "")).endswith("/name"):
        return [[n] for n in players + ["Zed"]]
    given = (used or {}).get(name, [])
    return ["x"] + sorted(set(things) - set(players) - set(given)) + given


@pytest.mark.parametrize("game", EXAMPLE_GAMES)
def test_an_action_the_list_refuses_is_refused_by_the_check_for_every_value(game):
    """Every "no" the list says of an action that takes parameters (its who, the game's gates, ``Action.ready``) is
    the check's verdict for every value tried."""
    if game not in READY:  # a new example game: said so, not skipped, nor a KeyError at the end of the test
        pytest.fail(f"the example game {game!r} has no entry in READY (tests/test_act_list.py): give it the actions "
                    "whose Action.ready refuses for its first players (set(), if none)")
    files = load_game(WorkTree(ROOT), game)
    state, _ = advance(files.registry, files.state, NOW)
    used = _used(files)
    tried = set()
    for who in [p["name"] for p in state.players()][:4]:
        for a in available(ROOT, game, who, NOW):
            action = files.registry.actions[a.name]
            required = action.params.get("required", [])
            props = action.params.get("properties", {})
            if not a.why_not or not props:
                continue
            # the parameters a value is needed for: the required ones, or else each optional one (with none given
            # among the tries too), since a "no" said of an action with only optional parameters must hold for them
            asked = required or list(props)
            values = {name: _values(state, name, props[name], used) for name in asked}
            combos: list[dict] = [{}]
            for name in asked:
                combos = [{**c, name: v} for c in combos for v in values[name] + ([] if required else [None])]
            combos = [{k: v for k, v in c.items() if v is not None} for c in combos]
            if len(combos) > 200:  # too many together: each value of each parameter, the others at their first
                first = {name: vs[0] for name, vs in values.items()}
                combos = [{**first, name: v} for name, vs in values.items() for v in vs]
            for params in combos[:200]:
                record = {"at": "2026-11-22T12:00:00Z", "actor": who, "action": a.name, "params": params}
                step = judge_one(files.registry, files.state, record, "", now=NOW, check_recorded=False)
                assert not step.legal, (game, who, a.name, params, a.why_not)
            if action.ready is not None:
                tried.add(a.name)
    # the refusals of Action.ready were among those tried: nothing pending to vote on, nothing of one's own
    assert READY[game] <= tried, tried


def test_the_list_says_what_is_pending_to_vote_on_withdraw_and_resolve(tmp_path):
    """Seed 001 1.3-1.7: the example has one pending proposal, Bruno's #3, and no CfJ. Voting on proposals is
    possible, on CfJs not; withdrawing a proposal is for Bruno alone. Once Chidi raises a CfJ, voting on it is."""
    repo = make_repo(tmp_path)
    alice, bruno = _listed(repo, "blognomic", "Alice"), _listed(repo, "blognomic", "Bruno")
    assert alice["core.vote"] == [] and alice["core.enact"] == []
    assert alice["core.withdraw"] == ["no proposal of yours is pending"] and bruno["core.alter"] == []
    assert alice["core.cfj-vote"] == ["no CfJ is pending"] and alice["core.cfj-resolve"] == ["no CfJ is pending"]
    assert alice["core.dov-vote"] == ["no DoV is pending"]
    assert alice["core.ascend"] == ["there is no passed DoV awaiting an Ascension Address"]
    r = act(repo, "blognomic", "core.cfj", "Chidi", {"title": "Was that fair?", "text": "Judge it."},
            NOW - timedelta(minutes=5), now=NOW)
    assert r.step.legal and r.written
    alice, chidi = _listed(repo, "blognomic", "Alice"), _listed(repo, "blognomic", "Chidi")
    assert alice["core.cfj-vote"] == [] and chidi["core.cfj-withdraw"] == []
    assert alice["core.cfj-withdraw"] == ["no CfJ of yours is pending"]


def test_the_list_says_no_to_a_rename_where_only_a_proposal_renames(tmp_path):
    """Seed 001 1.2: in Ruleset 75 a name changes only by a proposal; seed 003 rule 2: a Muffin renames at will."""
    r = nomic(ROOT, "act", "blognomic", "--list", "--as", "Alice", *AT)
    assert r.returncode == 0, r.stdout + r.stderr
    text = r.stdout.split("core.rename", 1)[1]
    assert text.startswith(" name=\n      Change your name\n      - in this game a Colonist's name changes only by a "
                           "proposal approving the change"), r.stdout
    r = nomic(ROOT, "act", "quazie", "--list", "--as", "Quazie", *AT)
    assert "yes core.rename name=" in r.stdout, r.stdout


def test_the_ascension_address_s_detail_shows_the_form_of_its_keywords(tmp_path):
    """Seed 001 1.9: the Address replaces keywords by new terms; the action's detail shows how to write that, and the
    form shown is one the action takes (refused here only because no DoV has passed)."""
    r = nomic(ROOT, "act", "blognomic", "core.ascend", "--list", "--as", "Alice", *AT)
    assert r.returncode == 0, r.stdout + r.stderr
    assert 'keywords="{OLD: NEW, OLDS: NEWS}"' in r.stdout, r.stdout
    r = nomic(ROOT, "act", "blognomic", "core.ascend", "theme=Pirates", "repeal=[fair-play]",
              "keywords={Colonist: Pirate, Colonists: Pirates}", "--as", "Alice", "--dry-run", *AT)
    assert r.returncode == 1 and "there is no passed DoV awaiting an Ascension Address" in r.stdout, r.stdout


def test_a_request_for_justice_s_detail_shows_how_to_give_its_sheets():
    """Cycle 12 (seed 004, Requests for Justice): an RFJ is a sheet; its list of sheet images is shown in a form the
    action takes."""
    r = nomic(ROOT, "act", "cycle12", "cycle12.rfj", "--list", "--as", "Basil", *AT)
    assert r.returncode == 0, r.stdout + r.stderr
    assert 'sheets="[rfj/basil-1.png]"' in r.stdout, r.stdout
    r = nomic(ROOT, "act", "cycle12", "cycle12.rfj", "statement=Basil is on the map", "sheets=[rfj/basil-1.png]",
              "--as", "Basil", "--dry-run", *AT)
    assert r.returncode == 0 and "legal: cycle12.rfj by Basil" in r.stdout, r.stdout


def test_the_list_in_json_is_the_same_list_as_data():
    """``--list --format json`` printed the text list; it now gives the same verdicts as data (for a bot or an
    editor), and ``--format github`` is refused (a list has no file lines to annotate)."""
    import json

    text = nomic(ROOT, "act", "blognomic", "--list", "--as", "Alice", *AT)
    r = nomic(ROOT, "act", "blognomic", "--list", "--as", "Alice", "--format", "json", *AT)
    assert r.returncode == 0 and text.returncode == 0, r.stdout + r.stderr
    data = json.loads(r.stdout)
    assert (data["game"], data["as"], data["at"]) == ("blognomic", "Alice", "2026-11-22T12:00:00Z")
    said = {line.split()[1]: line.split()[0] for line in text.stdout.splitlines() if line[:3] in ("yes", "no ")}
    assert {a["name"]: "yes" if a["may"] else "no" for a in data["actions"]} == said
    vote = next(a for a in data["actions"] if a["name"] == "core.vote")
    assert vote["may"] and vote["required"] == ["proposal", "vote"] and vote["rule"] == "1.4 Voting", vote
    # seed 001 1.9: the Address waits for a passed DoV, as the text list says
    ascend = next(a for a in data["actions"] if a["name"] == "core.ascend")
    assert ascend["why_not"] == ["there is no passed DoV awaiting an Ascension Address"]
    one = json.loads(nomic(ROOT, "act", "blognomic", "core.ascend", "--list", "--as", "Alice", "--format", "json",
                           *AT).stdout)
    assert [a["name"] for a in one["actions"]] == ["core.ascend"]
    r = nomic(ROOT, "act", "blognomic", "--list", "--as", "Alice", "--format", "github", *AT)
    assert r.returncode == 2 and "not with --list" in r.stdout, r.stdout + r.stderr
