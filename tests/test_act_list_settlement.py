"""``nomic act settlement --list``: the Settlement's actions that take parameters say why they cannot be taken now,
whatever values are given (``Action.ready``, seed 001's dynastic rules 2.x), and say "yes" once the state allows
them. Every refusal listed is tried against the judge with many values: the list never says "no" to an action
the check would take."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from tests.gitgame import make_repo
from validators.act import act, available
from validators.content import WorkTree, load_game
from validators.engine import advance
from validators.games.settlement.common import the_map, where
from validators.games.settlement.grid import designate
from validators.judge import judge_one
from validators.timeutil import format_time, parse_time

GAME = "settlement"
NOW = parse_time("2026-11-22T12:00:00Z")  # a Sunday, after the example's last action
ROYAL = "the Expedition Leader is not a Colonist for the dynastic rules (Royal Blood)"


def _listed(repo: Path, who: str, at=NOW) -> dict[str, list[str]]:
    return {a.name: a.why_not for a in available(repo, GAME, who, at)}


def _do(repo: Path, action: str, who: str, params: dict, at) -> None:
    r = act(repo, GAME, action, who, params, at, now=at)
    assert r.step.legal and r.written, [p.message for p in r.step.problems]


def _values(state, who: str) -> dict[str, list]:
    """Values to try for each parameter of the Settlement's actions: every location within two squares of
    ``who`` (and every Smoke), paths of one and two steps, every name, Job, Construction, Outsider type and
    ammunition the handbook lists, a few more."""
    p = state.player(who)
    here = where(p) if p else None
    m = the_map(state)
    near = [] if here is None else [designate((here[0] + dr, here[1] + dc)) for dr in range(-2, 3)
                                    for dc in range(-2, 3) if m.inside((here[0] + dr, here[1] + dc))]
    locs = near + [designate(s) for s in m.all_named("Smoke")] + ["0a"]
    names = [x["name"] for x in state.players()] + ["Zed"]
    book = state.doc("handbook")
    paths = ["N", "E", "S", "W", "NN", "EE", "SS", "WW", "NE", "SW"]
    return {"at": locs, "rock": locs, "tree": locs, "catapult": locs, "target": locs[:3], "path": paths,
            "outsider": names, "colonist": names, "job": [*book["jobs"], "Knight"],
            "what": [*book["constructions"], "Tower"], "type": [*book["outsiders"], "Dragon"],
            "ammo": [*book["tasks"]["catapult"]["ammo"], "Pebble"], "dance": [1, 2, 3, 4],
            "kind": ["waltz", "square", "conga", "hokey-kokey"], "participants": [[who], names[:4]]}


def _sound(repo: Path, who: str, at=NOW) -> set[str]:
    """Each Settlement action the list refuses to ``who`` is refused by the judge for every value tried (those
    it says "no" to because of Action.ready, returned)."""
    files = load_game(WorkTree(repo), GAME)
    state, _ = advance(files.registry, files.state, at)
    values = _values(state, who)
    said = set()
    for a in available(repo, GAME, who, at):
        action = files.registry.actions[a.name]
        required = action.params.get("required", [])
        if not a.name.startswith("settlement.") or not a.why_not or not required or action.ready is None:
            continue
        combos: list[dict] = [{}]
        for name in required:
            combos = [{**c, name: v} for c in combos for v in values[name]]
        for params in combos[:300]:
            record = {"at": format_time(at), "actor": who, "action": a.name, "params": params}
            step = judge_one(files.registry, files.state, record, "", now=at, check_recorded=False)
            assert not step.legal, (who, a.name, params, a.why_not)
        said.add(a.name)
    return said


def test_the_leader_is_told_royal_blood_beside_every_dynastic_action_with_parameters(tmp_path):
    """Seed 001, 2.1 Royal Blood: the Expedition Leader is no Colonist for the dynastic rules; the check refuses
    every such action of eirs first, so the list says so whatever the parameters. The Leader's own actions (2.6
    make-traitor, 2.11 create-outsider) stay open."""
    repo = make_repo(tmp_path, GAME)
    ilse = _listed(repo, "Ilse")
    for name in ("move", "mine", "chop", "hunt", "dig", "fire", "shove", "build", "pull-down", "fill",
                 "spread-smoke", "clear-smoke", "job", "dance-success", "conga-move", "support"):
        assert ilse[f"settlement.{name}"] == [ROYAL], name
    assert ilse["settlement.make-traitor"] == [] and ilse["settlement.create-outsider"] == []
    assert len(_sound(repo, "Ilse")) == 16


def test_energy_too_low_for_the_cheapest_choice_and_yes_after_a_rest(tmp_path):
    """Seed 001, 2.3 Energy and 2.3.1 Movement: Farah has 0 Energy, so no move, Channel, Construction or shove is
    hers to make, whatever the path or place; after she rests (a weekly action, taken again on Monday) they
    are."""
    repo = make_repo(tmp_path, GAME)
    farah = _listed(repo, "Farah")
    assert farah["settlement.move"] == ["Farah has 0 Energy; a move costs 4"]
    assert farah["settlement.dig"] == ["Farah has 0 Energy; digging a Channel costs 16"]
    assert farah["settlement.fire"] == ["Farah has 0 Energy; firing needs 10"]
    assert farah["settlement.shove"] == ["Farah has 0 Energy; shoving needs 10"]
    assert farah["settlement.build"] == ["Farah has 0 Energy; a Bed costs 4, the least of any Construction the "
                                         "Stockpile has materials for"]
    assert farah["settlement.pull-down"] == ["Farah has 0 Energy; pulling down a Catapult costs 10"]
    assert {"settlement.move", "settlement.dig", "settlement.build", "settlement.pull-down"} <= _sound(repo, "Farah")
    monday = parse_time("2026-11-23T09:00:00Z")
    _do(repo, "settlement.rest", "Farah", {}, monday)
    farah = _listed(repo, "Farah", monday)
    # 2.3 Energy: resting is weekly, and the list says so with every reason the judge gives (its gates' and its
    # limit of how often)
    later = monday + timedelta(minutes=1)
    listed = _listed(repo, "Farah", later)["settlement.rest"]
    judged = act(repo, GAME, "settlement.rest", "Farah", {}, later, now=later)
    assert not judged.step.legal and not judged.written
    assert [w.split(" [rule:")[0] for w in listed] == [p.message for p in judged.step.problems]
    assert any("weekly action" in w for w in listed), listed
    assert farah["settlement.move"] == [] and farah["settlement.dig"] == [] and farah["settlement.build"] == []
    assert farah["settlement.pull-down"] == [] and farah["settlement.fire"] == []
    # 2.4 Fire Catapult: not within 48 hours of pulling down a Construction, whatever is fired where
    state = load_game(WorkTree(repo), GAME).state
    catapult = the_map(state).adjacent_named(where(state.player("Farah")), "Catapult")[0]
    pulled = monday + timedelta(minutes=5)
    _do(repo, "settlement.pull-down", "Farah", {"at": designate(catapult)}, pulled)
    assert _listed(repo, "Farah", pulled)["settlement.fire"] == [
        f"Farah pulled down a Construction at {format_time(pulled)}, within 48 hours"]
    assert "settlement.fire" in _sound(repo, "Farah", pulled)


def test_nothing_adjacent_to_work_on(tmp_path):
    """Seed 001, 2.4 Tasks: Mine, Chop, Hunt and Fire Catapult work on an adjacent Rock, Large Tree, Outsider or
    Catapult; 2.5: a Construction pulled down is adjacent. Gwen, the Miner, stands by Rock; Asha by none."""
    repo = make_repo(tmp_path, GAME)
    asha = _listed(repo, "Asha")
    assert asha["settlement.mine"] == ["Asha at 13j is not adjacent to Rock"]
    assert asha["settlement.chop"] == ["Asha at 13j is not adjacent to a Large Tree"]
    assert asha["settlement.hunt"] == ["no Outsider is adjacent to Asha at 13j"]
    assert asha["settlement.fire"] == ["Asha at 13j is not adjacent to a Catapult"]
    assert asha["settlement.fill"] == ["Asha at 13j is neither in nor adjacent to a Channel without water"]
    assert asha["settlement.shove"] == ["no Colonist is adjacent to Asha at 13j"]
    assert _listed(repo, "Hugo")["settlement.pull-down"] == ["no Construction is adjacent to Hugo at 13a"]
    assert _listed(repo, "Gwen")["settlement.mine"] == []
    assert {"settlement.mine", "settlement.chop", "settlement.hunt", "settlement.fire", "settlement.fill",
            "settlement.shove"} <= _sound(repo, "Asha")


def test_smoke_to_spread_or_clear_once_a_cook_makes_it(tmp_path):
    """Seed 001, 2.2.1 Locations (Smoke): with no Smoke on the map nobody spreads or clears any; Chen's cooking
    (2.4 Cook Meal) turns a Dirt of his Room into Smoke, which may spread, but clears only where it touches the
    Outside or a Chimney: at 12m it touches neither."""
    repo = make_repo(tmp_path, GAME)
    boris = _listed(repo, "Boris")
    assert boris["settlement.spread-smoke"] == ["there is no Smoke on the map"]
    assert boris["settlement.clear-smoke"] == ["there is no Smoke on the map"]
    assert {"settlement.spread-smoke", "settlement.clear-smoke"} <= _sound(repo, "Boris")
    _do(repo, "settlement.cook", "Chen", {"smoke": "12m"}, NOW - timedelta(minutes=5))
    boris = _listed(repo, "Boris")
    assert boris["settlement.spread-smoke"] == []
    assert boris["settlement.clear-smoke"] == ["no Smoke on the map is adjacent to an Outside location or to a "
                                               "Chimney"]
    assert "settlement.clear-smoke" in _sound(repo, "Boris")


def test_no_dance_open_then_one_called(tmp_path):
    """Seed 001, Lord of the Dance: a dance is declared successful only while one is open, and only the front
    of a successful Conga leads it."""
    repo = make_repo(tmp_path, GAME)
    asha = _listed(repo, "Asha")
    assert asha["settlement.dance-success"] == ["no dance is open (a dance is open for 48 hours after it is "
                                                "called, until declared successful)"]
    assert asha["settlement.conga-move"] == ["Asha is not at the front of a successful Conga"]
    assert {"settlement.dance-success", "settlement.conga-move"} <= _sound(repo, "Asha")
    _do(repo, "settlement.dance", "Asha", {}, NOW - timedelta(minutes=5))
    asha = _listed(repo, "Asha")
    assert asha["settlement.dance-success"] == []
    assert asha["settlement.conga-move"] == ["Asha is not at the front of a successful Conga"]


def test_jobs_a_peasant_has_no_criteria_for_and_a_traitor(tmp_path):
    """Seed 001, 2.6 Jobs: a Peasant takes only a Job whose criteria e has met, anyone else may go back to
    Peasant, a Traitor changes eir Job never; the Leader makes Traitors only while there are fewer than two."""
    repo = make_repo(tmp_path, GAME)
    assert _listed(repo, "Asha")["settlement.job"] == ["Asha is a Peasant and has met the criteria of no other Job"]
    assert _listed(repo, "Chen")["settlement.job"] == []  # a Cook may become a Peasant
    assert "settlement.job" in _sound(repo, "Asha")
    at = NOW - timedelta(minutes=10)
    _do(repo, "settlement.make-traitor", "Ilse", {"colonist": "Asha"}, at)
    assert _listed(repo, "Asha")["settlement.job"] == ["a Traitor may not change their Job"]
    assert "settlement.job" in _sound(repo, "Asha")
    traitors = [p["name"] for p in load_game(WorkTree(repo), GAME).state.players()
                if p["stats"].get("job") == "Traitor"]
    if len(traitors) < 2:
        assert _listed(repo, "Ilse")["settlement.make-traitor"] == []
        _do(repo, "settlement.make-traitor", "Ilse", {"colonist": "Boris"}, at + timedelta(minutes=1))
    assert _listed(repo, "Ilse")["settlement.make-traitor"] == [
        "there are already 2 Traitors; the Leader may only make one while there are fewer than 2"]
    assert "settlement.make-traitor" in _sound(repo, "Ilse")


def test_outsiders_of_every_type_made_this_week(tmp_path):
    """Seed 001, 2.11 Outsiders: creating one is a weekly action for each type; the example made a Rat this week,
    so once a Moose is made too no type is left to create, whatever the place."""
    repo = make_repo(tmp_path, GAME)
    assert _listed(repo, "Ilse")["settlement.create-outsider"] == []  # the Moose is still to make
    at = NOW - timedelta(minutes=10)
    files = load_game(WorkTree(repo), GAME)
    free = next(designate((0, c)) for c in range(the_map(files.state).width)
                if the_map(files.state).empty((0, c)) and c > 0)
    _do(repo, "settlement.create-outsider", "Ilse", {"type": "Moose", "at": free}, at)
    assert _listed(repo, "Ilse")["settlement.create-outsider"] == [
        "every type of Outsider (Moose, Rat) was created within this week or the last 24 hours"]
    assert "settlement.create-outsider" in _sound(repo, "Ilse")


def test_support_only_while_an_election_is_open(tmp_path):
    """Seed 001, 2.12 Victory: after the victory date the Leader may call an Election for Mayor, and for 48
    hours every Colonist may support another with 0 Deaths."""
    repo = make_repo(tmp_path, GAME)
    assert _listed(repo, "Asha")["settlement.support"] == ["no Election for Mayor has been called"]
    assert "settlement.support" in _sound(repo, "Asha")
    after = parse_time("2027-01-01T12:00:00Z")
    _do(repo, "settlement.election", "Ilse", {}, after)
    assert _listed(repo, "Asha", after)["settlement.support"] == []
    closed = after + timedelta(hours=49)
    assert _listed(repo, "Asha", closed)["settlement.support"] == [
        "the Election for Mayor closed 48 hours after it was called"]
    assert "settlement.support" in _sound(repo, "Asha", closed)


def test_hunting_an_adjacent_outsider_with_less_energy(tmp_path):
    """Seed 001, 2.4 Hunt: the Outsider hunted is on a neighbouring square and, unless the hunter is a Hunter, has
    less Energy than em. Dmitri walks up to row 0 beside a new Moose, which has more Energy than he has left;
    once the Moose has tired itself out (its moves filed by the Leader, 2.11), he may hunt it."""
    repo = make_repo(tmp_path, GAME)
    at = NOW - timedelta(hours=1)
    _do(repo, "settlement.create-outsider", "Ilse", {"type": "Moose", "at": "0y"}, at)
    moose = next(p["name"] for p in load_game(WorkTree(repo), GAME).state.players() if p.get("kind") == "outsider")
    assert _listed(repo, "Dmitri", at)["settlement.hunt"] == ["no Outsider is adjacent to Dmitri at 6y"]
    _do(repo, "settlement.move", "Dmitri", {"path": "NNNNN"}, at + timedelta(minutes=1))
    later = at + timedelta(minutes=2)
    assert _listed(repo, "Dmitri", later)["settlement.hunt"] == [
        f"every Outsider adjacent to Dmitri ({moose}) has no less Energy than Dmitri's 20; only a Hunter may kill it"]
    assert "settlement.hunt" in _sound(repo, "Dmitri", later)
    _do(repo, "settlement.move", moose, {"path": "EWEWEWEW"}, later)
    assert _listed(repo, "Dmitri", later + timedelta(minutes=1))["settlement.hunt"] == []
    _do(repo, "settlement.hunt", "Dmitri", {"outsider": moose}, later + timedelta(minutes=1))


def test_an_action_of_optional_parameters_that_asks_for_one_is_no_no(tmp_path) -> None:
    """Chen stands in a Room with Dirt by a Stove: cooking without ``smoke=`` is refused, asking for it, and with
    it cooking is legal (seed 001 2.3 Tasks, Cook Meal). The list says "yes" and shows what the judge asked for; a
    refusal that holds for every value (Asha is by no Stove) stays a "no"."""
    from tests.gitgame import nomic

    repo = make_repo(tmp_path, GAME)
    listed = {a.name: a for a in available(repo, GAME, "Chen", NOW)}
    cook = listed["settlement.cook"]
    assert cook.why_not == [] and cook.bare and "give smoke=<location>" in cook.bare[0]
    files = load_game(WorkTree(repo), GAME)
    record = {"at": format_time(NOW), "actor": "Chen", "action": "settlement.cook", "params": {"smoke": "12l"}}
    assert judge_one(files.registry, files.state, record, "", now=NOW, check_recorded=False).legal
    assert available(repo, GAME, "Asha", NOW)[[a.name for a in listed.values()].index("settlement.cook")].why_not
    out = nomic(repo, "act", GAME, "--list", "--as", "Chen", "--now", format_time(NOW)).stdout
    assert "yes settlement.cook smoke=?\n" in out
    assert "      - without parameters: the Room has Dirt, so cooking must turn one Dirt into Smoke" in out
