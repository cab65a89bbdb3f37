"""Cycle 12's kept indexes and remembered answers: each must see every change to what it was made from.

The module keeps indexes of a state's lists (locations by id, name and place, nomsters by id, whom each
follows, items by owner, submitted images ...) from one action to the next, and remembers the medal
holders, the options and the records of a document found valid. Each test here first makes the index
(or the answer) on a state, then changes what it reads, and takes an action whose verdict depends on
seeing that change. ``Kept`` itself is compared with an index made afresh, on many random lists.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from validators.cases import base_state, patched
from validators.dice import FixedDice
from validators.engine import Action, Applied, Ctx, State, apply_action
from validators.games.cycle12 import _invariants, common, cycle, proposals
from validators.games.cycle12.common import Kept
from validators.games.cycle12.options import options
from validators.judge import param_problems
from validators.problems import Illegal
from validators.timeutil import parse_time


@pytest.fixture(scope="module")
def base():
    return base_state("cycle12-core")


def ctx_for(state: State, registry: Any, at: str = "2026-11-10T13:00:00Z") -> Ctx:
    record = {"at": at, "actor": "Ada", "action": "test", "params": {}}
    return Ctx(state, Action(name="test", rule="items", summary=""), record, parse_time(record["at"]), registry)


def act(state: State, registry: Any, at: str, actor: str, action: str, dice: list[int] | None = None,
        **params: Any) -> Applied:
    record = {"at": at, "actor": actor, "action": action, "params": params}
    return apply_action(registry, state, record, validate_params=param_problems,
                        dice=FixedDice(dice) if dice is not None else None)


def refused(state: State, registry: Any, at: str, actor: str, action: str, **params: Any) -> str:
    with pytest.raises(Illegal) as e:
        act(state, registry, at, actor, action, **params)
    return " ".join(p.message for p in e.value.problems)


# ---------------------------------------------------------------- Kept against an index made afresh


def fresh(items: list[Any], keys: Any, multi: bool) -> dict[Any, Any] | None:
    out: dict[Any, Any] = {}
    try:
        for i, x in enumerate(items):
            for k in keys(x):
                if multi:
                    if i not in out.get(k, ()):
                        out[k] = (*out.get(k, ()), i)
                else:
                    out.setdefault(k, i)
    except (TypeError, KeyError, AttributeError, ValueError):
        return None
    return out


def key_of(x: dict[str, Any]) -> tuple[Any, ...]:
    return (x["k"],)


def keys_of(x: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(x["ks"])


@pytest.mark.parametrize("multi", [False, True])
@pytest.mark.parametrize("which", ["one key", "several keys"])
def test_a_kept_index_is_always_the_index_made_afresh(base, multi, which) -> None:
    state, registry = base
    ctx = ctx_for(state, registry)
    rng = random.Random(f"{multi}{which}")
    keys = key_of if which == "one key" else keys_of
    kept, along = Kept(keys, multi=multi), None
    along = Kept(lambda x: (x.get("tag"),), multi=True, along=kept)  # moves to each list with it

    def item() -> dict[str, Any]:
        k = rng.choice([1, 2, 3, 4, "a", "b", 1.0, True, None])
        return {"k": k, "ks": rng.sample([1, 2, 3, "a", "b", "c"], rng.randint(0, 3)), "tag": rng.choice("xyz")}

    items = [item() for _ in range(30)]
    for step in range(600):
        op = rng.random()
        items = list(items)  # a new list each step (a state's lists are never changed once made)
        if op < 0.3 and items:
            i = rng.randrange(len(items))
            items[i] = dict(items[i])  # the same keys, another object
        elif op < 0.55 and items:
            items[rng.randrange(len(items))] = item()
        elif op < 0.7:
            items.append(item())
        elif op < 0.8 and items:
            del items[rng.randrange(len(items))]
        elif op < 0.85 and items:
            items[rng.randrange(len(items))] = {"k": [1], "ks": [[1]], "tag": ["x"]}  # keys that cannot be hashed
        elif op < 0.9 and items:
            items[rng.randrange(len(items))] = {"other": 1}  # no keys at all
        elif op < 0.95:
            items = [item() for _ in range(rng.randint(0, 40))]
        if rng.random() < 0.1:
            continue  # this list is never asked about: the next one is compared with an older one
        got = kept.of(ctx, items)
        assert got == fresh(items, keys, multi), step
        assert along.of(ctx, items) == fresh(items, lambda x: (x.get("tag"),), True), step
        assert kept.of(ctx, items) is got  # asked again: the same answer
    assert kept.of(ctx, tuple(items)) is None  # only a plain list
    assert kept.of(state, items) is None  # only in an action's context


# ---------------------------------------------------------------- actions that depend on a change


def test_a_location_created_is_found_by_its_name_and_its_place(base) -> None:
    state, registry = base
    # Basil is at Glass Lake (0, 1); (-1, 1) is free: the indexes are made on this state
    assert "no location" in refused(state, registry, "2026-11-10T13:00:00Z", "Basil", "cycle12.move", to=[-1, 1])
    assert "no location" in refused(state, registry, "2026-11-10T13:00:00Z", "Basil", "cycle12.move", to="Dune Sea")
    state = act(state, registry, "2026-11-10T13:00:00Z", "Ada", "cycle12.create-location", suggestion=1,
                name="Dune Sea", x=-1, y=1, description="Sand.").state
    moved = act(state, registry, "2026-11-10T13:10:00Z", "Basil", "cycle12.move", to=[-1, 1])
    assert moved.outcome[0]["to"] == "Dune Sea"
    moved = act(state, registry, "2026-11-10T13:10:00Z", "Basil", "cycle12.move", to="dune sea")
    assert moved.outcome[0]["to"] == "Dune Sea"
    # and the place is taken now
    state = act(state, registry, "2026-11-10T13:20:00Z", "Cleo", "cycle12.suggest-location", kind="tile",
                image="tiles/other.png").state
    why = refused(state, registry, "2026-11-10T13:30:00Z", "Ada", "cycle12.create-location", suggestion=3,
                  name="Second Sea", x=-1, y=1, description="More sand.")
    assert "is already Dune Sea" in why


def test_a_renamed_location_is_found_by_its_new_name_only(base) -> None:
    state, registry = base
    act(state, registry, "2026-11-10T13:00:00Z", "Dmitri", "cycle12.move", to="Ember Steppe")  # made on this state
    renamed = patched(state, registry, [{"op": "replace", "path": "/cycle12_world/locations/id=3/name",
                                         "value": "Cinder Plain"}])
    assert "no location" in refused(renamed, registry, "2026-11-10T13:00:00Z", "Dmitri", "cycle12.move",
                                    to="Ember Steppe")
    assert act(renamed, registry, "2026-11-10T13:00:00Z", "Dmitri", "cycle12.move",
               to="Cinder Plain").outcome[0]["to"] == "Cinder Plain"
    # moved elsewhere: the location at (2, 0) is now (3, 3), far from Mossy Fen
    moved = patched(state, registry, [{"op": "replace", "path": "/cycle12_world/locations/id=3/x", "value": 3},
                                      {"op": "replace", "path": "/cycle12_world/locations/id=3/y", "value": 3}])
    assert "no location" in refused(moved, registry, "2026-11-10T13:00:00Z", "Dmitri", "cycle12.move", to=[2, 0])
    assert "not adjacent" in refused(moved, registry, "2026-11-10T13:00:00Z", "Dmitri", "cycle12.move", to=[3, 3])


def test_an_image_just_submitted_is_not_new(base) -> None:
    state, registry = base
    state = act(state, registry, "2026-11-10T13:00:00Z", "Cleo", "cycle12.suggest-location", kind="tile",
                image="tiles/new.png").state
    why = refused(state, registry, "2026-11-10T13:10:00Z", "Esme", "cycle12.suggest-location", kind="tile",
                  image="tiles/new.png")
    assert "submitted before" in why
    # a location created with a new card: that card is not new either
    state = act(state, registry, "2026-11-10T13:20:00Z", "Ada", "cycle12.create-location", suggestion=1,
                name="Dune Sea", x=-1, y=1, description="Sand.", image="cards/dune.png").state
    why = refused(state, registry, "2026-11-10T13:30:00Z", "Esme", "cycle12.suggest-location", kind="tile",
                  image="cards/dune.png")
    assert "submitted before" in why


def test_a_nomster_follows_from_the_command_on_and_stays_after_stay(base) -> None:
    state, registry = base
    # whom each nomster follows is read (and kept) by this move: nobody follows Ada yet
    alone = act(state, registry, "2026-11-10T12:30:00Z", "Ada", "cycle12.move", to="Ember Steppe")
    assert alone.outcome[0]["moved"] == ["Ada"]
    state = act(state, registry, "2026-11-10T13:00:00Z", "Ada", "cycle12.command", nomster=2,
                command="follow").state
    followed = act(state, registry, "2026-11-10T13:10:00Z", "Ada", "cycle12.move", to="Ember Steppe")
    assert followed.outcome[0]["moved"] == ["Ada", "nomster:2"]
    state = act(followed.state, registry, "2026-11-10T13:20:00Z", "Ada", "cycle12.command", nomster=2,
                command="stay").state
    alone = act(state, registry, "2026-11-10T13:30:00Z", "Ada", "cycle12.move", to="Mossy Fen")
    assert alone.outcome[0]["moved"] == ["Ada"]


def test_an_announcement_just_made_or_closed_is_seen_by_a_departure(base) -> None:
    state, registry = base
    # the open announcements are read (and kept) by this move: there are none yet
    state = act(state, registry, "2026-11-10T12:00:00Z", "Cleo", "cycle12.move", to="Copper Hills").state
    state = act(state, registry, "2026-11-10T12:10:00Z", "Cleo", "cycle12.survey", family="Primary Location Type",
                tag="Metal").state
    state = act(state, registry, "2026-11-10T12:20:00Z", "Cleo", "cycle12.move", to="Apeiros Village").state
    assert state.doc("cycle12_world")["announcements"][0]["left"] == ["Cleo"]
    # a closed announcement is no longer open: leaving again records nothing more
    for at, who in (("12:30", "Ada"), ("12:31", "Basil"), ("12:32", "Dmitri")):
        state = act(state, registry, f"2026-11-10T{at}:00Z", who, "cycle12.react", announcement=1).state
    assert state.doc("cycle12_world")["announcements"][0]["status"] == "failed"
    state = act(state, registry, "2026-11-11T12:00:00Z", "Cleo", "cycle12.move", to="Copper Hills").state
    state = act(state, registry, "2026-11-11T12:10:00Z", "Cleo", "cycle12.move", to="Apeiros Village").state
    assert state.doc("cycle12_world")["announcements"][0]["left"] == ["Cleo"]


def test_a_nomster_just_spawned_can_be_tamed(base) -> None:
    state, registry = base
    assert "no nomster 6" in refused(state, registry, "2026-11-10T13:00:00Z", "Dmitri", "cycle12.tame", nomster=6)
    state = act(state, registry, "2026-11-10T13:00:00Z", "Cleo", "cycle12.spawn", dice=[2, 1, 3]).state  # Mossy Fen
    tamed = act(state, registry, "2026-11-10T13:10:00Z", "Dmitri", "cycle12.tame", dice=[3], nomster=6)
    assert tamed.outcome[0]["success"] is True


def test_a_treat_given_away_can_be_gained_again(base) -> None:
    state, registry = base
    assert "already has a treat" in refused(state, registry, "2026-11-10T13:00:00Z", "Ada", "cycle12.gain-treat")
    state = act(state, registry, "2026-11-10T13:00:00Z", "Ada", "cycle12.give-treat", nomster=2).state
    state = act(state, registry, "2026-11-10T13:10:00Z", "Ada", "cycle12.gain-treat").state
    assert "already has a treat" in refused(state, registry, "2026-11-10T13:20:00Z", "Ada", "cycle12.gain-treat")
    assert "has no treat" in refused(state, registry, "2026-11-10T13:20:00Z", "Dmitri", "cycle12.give-treat",
                                     nomster=2)


def test_a_name_just_given_to_a_nomster_is_taken(base) -> None:
    state, registry = base
    card = {"species": "Leafwing", "species_description": "A bird of folded leaves.", "portrait": "art/pip.png"}
    state = act(state, registry, "2026-11-10T13:00:00Z", "Dmitri", "cycle12.tame", dice=[3], nomster=1).state
    state = act(state, registry, "2026-11-11T00:00:00Z", "Dmitri", "cycle12.tame", dice=[3], nomster=3).state
    named = act(state, registry, "2026-11-11T01:00:00Z", "Dmitri", "cycle12.name-nomster", nomster=1, name="Pip",
                **card)
    why = refused(named.state, registry, "2026-11-11T02:00:00Z", "Dmitri", "cycle12.name-nomster", nomster=3,
                  name="PIP", **{**card, "portrait": "art/other.png", "species": "Other",
                                 "species_description": "Other."})
    assert "name 'PIP' is already Pip (#1)'s" in why
    # and the species and portrait too, in the nomsters' order and then the card's
    why = refused(named.state, registry, "2026-11-11T02:00:00Z", "Dmitri", "cycle12.name-nomster", nomster=3,
                  name="Other", **card)
    assert why.index("portrait") < why.index("species ")


def test_a_medal_taken_out_of_a_box_is_awarded_again(base) -> None:
    state, registry = base
    # every medal as many holders as its quantity (four hold the Participation Medal)
    state = patched(state, registry, [{"op": "replace", "path": f"/cycle12_medals/medals/id={m['id']}/quantity",
                                       "value": len(cycle.holders(state, m["id"]))}
                                      for m in state.doc("cycle12_medals")["medals"]])
    assert len(cycle.holders(state, "participation")) == 4
    # the holders are read (and kept) here, every medal found full: Esme, reputable now, earns none
    state = act(state, registry, "2026-11-17T00:00:00Z", "Esme", "cycle12.gain-treat").state
    state = act(state, registry, "2026-11-17T00:05:00Z", "Esme", "cycle12.submit-sheet", token="a cap").state
    assert common.sheet(state, "Esme")["medals"] == []
    box = [m for m in common.sheet(state, "Ada")["medals"] if m != "participation"]
    state = patched(state, registry, [{"op": "replace", "path": "/cycle12_sheets/sheets/player=Ada/medals",
                                       "value": box}])
    after = act(state, registry, "2026-11-17T00:10:00Z", "Esme", "cycle12.submit-sheet", token="a hat")
    # three hold it now: the first reputable player without it, in roster order, earns it (Ada again)
    assert {"medal": "Participation Medal", "to": "Ada"} in after.outcome
    assert "participation" in common.sheet(after.state, "Ada")["medals"]
    assert common.sheet(after.state, "Esme")["medals"] == []


def test_the_holders_follow_every_box(base) -> None:
    state, registry = base
    ids = [m["id"] for m in state.doc("cycle12_medals")["medals"]]
    held = cycle._all_holders(ctx_for(state, registry), ids)
    assert held == [tuple(cycle.holders(state, mid)) for mid in ids]
    for player, box in (("Ada", []), ("Esme", ["tamer"]), ("Basil", ["tamer", "participation"])):
        state = patched(state, registry, [{"op": "replace", "path": f"/cycle12_sheets/sheets/player={player}/medals",
                                           "value": box}])
        ctx = ctx_for(state, registry)
        common.touch_sheet(ctx, "Cleo")  # an edited sheet: another object, the same box
        assert cycle._all_holders(ctx, ids) == [tuple(cycle.holders(state, mid)) for mid in ids]


def test_the_options_follow_the_game(base) -> None:
    state, _ = base
    config = copy.deepcopy(state.config)
    assert options(config)["win_points"] == 1250
    config["options"]["cycle12"]["win_points"] = 10  # the same dict, changed
    assert options(config)["win_points"] == 10
    config["options"]["cycle12"]["bogus"] = 1
    with pytest.raises(ValueError):
        options(config)


# ---------------------------------------------------------------- a proposal's changes, checked


def sandbox(state: State, registry: Any, changes: list[dict[str, Any]]) -> str | None:
    ctx = ctx_for(state, registry)
    return proposals._in_sandbox(ctx, lambda inner: proposals.apply_changes(inner, {"id": 99, "changes": changes}))


def patch(path: str, value: Any) -> dict[str, Any]:
    return {"kind": "textual", "text": "t", "effects": {"gamestate": [{"op": "replace", "path": path, "value": value}]}}


def test_a_record_changed_since_the_world_was_found_valid_is_checked_again(base) -> None:
    state, registry = base
    card = {"kind": "location-card", "x": 1, "y": 0, "description": "Wetter."}
    assert sandbox(state, registry, [card]) is None  # the world is found valid, and its records kept
    # a record changed by other means (not a proposal's checked change): another object, not valid
    broken = patched(state, registry, [{"op": "replace", "path": "/cycle12_world/locations/id=4/description",
                                        "value": 5}])
    why = sandbox(broken, registry, [{**card, "description": "Wetter still."}])
    assert why is not None and "cycle12_world invalid: locations[3].description" in why
    # an appended record too
    added = patched(state, registry, [{"op": "add", "path": "/cycle12_world/suggestions/-",
                                       "value": {"id": 3, "by": "Ada", "at": "nonsense", "kind": "tile"}}])
    why = sandbox(added, registry, [card])
    assert why is not None and "suggestions[2].at" in why
    assert sandbox(state, registry, [card]) is None  # and the world as it was is still fine


def test_only_new_problems_refuse_a_proposal(base) -> None:
    state, registry = base
    assert "share a name" in sandbox(state, registry, [patch("/cycle12_world/locations/1/name", "Glass Lake")])
    assert "both at" in sandbox(state, registry, [patch("/cycle12_world/locations/1/x", 0)])
    assert "no location 99" in sandbox(state, registry, [patch("/cycle12_nomsters/nomsters/0/location", 99)])
    assert "no location 99" in sandbox(state, registry, [patch("/cycle12_sheets/sheets/0/location", 99)])
    # a state already broken elsewhere: a change that does not add to it takes effect
    broken = patched(state, registry, [{"op": "replace", "path": "/cycle12_justice/judge", "value": "Nobody"}])
    assert any("the judge" in p.message for p in _invariants(broken))
    assert sandbox(broken, registry, [patch("/cycle12_world/locations/1/description", "Moss.")]) is None
    assert "share a name" in sandbox(broken, registry, [patch("/cycle12_world/locations/1/name", "Glass Lake")])
    # every invariant of a whole state, and with the documents a change touched, only those that read them
    twice = patched(broken, registry, [{"op": "replace", "path": "/cycle12_world/locations/1/name",
                                        "value": "Glass Lake"}])
    everything = [p.message for p in _invariants(twice)]
    assert "two locations share a name" in everything and any("the judge" in m for m in everything)
    assert [p.message for p in _invariants(twice, touched=frozenset({"cycle12_world"}))] == \
        ["two locations share a name"]


def test_the_moment_of_becoming_reputable_follows_the_state(base) -> None:
    state, registry = base
    after = parse_time("2026-11-12T00:00:00Z")
    esme = parse_time("2026-11-17T00:00:00Z")
    assert cycle.next_reputable(state, after) == esme  # asked (and kept) here
    assert cycle.next_reputable(state, esme) is None
    # no medal of the participation test (another medals list): no moment
    none = patched(state, registry, [{"op": "remove", "path": "/cycle12_medals/medals/id=participation/test"}])
    assert cycle.next_reputable(none, after) is None
    # whether the medal has room is asked when the moment comes (events before it may free a place)
    full = patched(state, registry, [{"op": "replace", "path": "/cycle12_medals/medals/id=participation/quantity",
                                      "value": 4}])
    assert cycle.next_reputable(full, after) == esme
    # a later joining date (another roster list) moves the moment
    later = patched(state, registry, [{"op": "replace", "path": "/roster/players/name=Esme/joined",
                                       "value": "2026-11-11T06:00:00Z"}])
    assert cycle.next_reputable(later, after) == parse_time("2026-11-18T06:00:00Z")
    # a founding player (joined within three days of the start) is reputable from joining: no moment
    founding = patched(state, registry, [{"op": "replace", "path": "/roster/players/name=Esme/joined",
                                          "value": "2026-11-05T00:00:00Z"}])
    assert cycle.next_reputable(founding, parse_time("2026-11-04T00:00:00Z")) is None


def test_a_sheet_the_kept_indexes_call_new_is_recorded_nowhere(tmp_path, monkeypatch) -> None:
    """004 New Locations and Submission: a suggestion's sheet must be new, never submitted before as any sheet.
    The kept indexes of every list that records sheets answer "new" without the scan; over a generated game's
    whole replay, each time they do, the scan finds no record of it, and each recorded sheet they call not new."""
    from bench.gen_cycle12 import generate
    from validators.check import check_repo
    from validators.games.cycle12 import transcription

    generate(tmp_path, game="big", players=30, actions=300, seed=5, locations=120)
    said = {True: 0, False: 0}
    real = transcription._surely_new

    def checked(state: Any, path: str) -> bool:
        new = real(state, path)
        recorded = [p for p, _ in transcription._records(state)]
        assert not (new and path in recorded), path
        for p in recorded[::max(1, len(recorded) // 25)]:
            assert real(state, str(p)) is False, p
        said[new] += 1
        return new

    monkeypatch.setattr(transcription, "_surely_new", checked)
    report = check_repo(tmp_path, now=parse_time("2026-11-22T00:00:00Z"), only=["big"])
    assert report.exit_code == 0, [p.text() for p in report.problems][:3]
    assert said[True] >= 5, said  # the suggestions' new sheets, known new without the scan
