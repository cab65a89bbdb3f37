"""The Monkey module's quick paths give what the plain ones give.

``World.rebalance`` goes on from where its last pass stopped and finds items through an index;
``sync_roster`` looks only when the documents it reads changed; loading and saving a World read the
gamestate without copying it. These tests hold them to the plain algorithms and to the engine's rule that
an action never changes the state it started from.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest

from validators import yamlio
from validators.cases import base_state, patched, run
from validators.engine import State, apply_action
from validators.games.monkey.world import KongHolds, World
from validators.timeutil import format_time, parse_time

SIZES = ("pocket-size", "small", "large", "massive")
HAMMERS = [{"name": "Fairy", "effect": "fairy"}, {"name": "Sledge", "effect": "sledge"}]


def _random_world(rng: random.Random) -> World:
    names = [f"M{i}" for i in range(rng.randint(0, 12))]
    last = rng.randint(1, 20)
    low = 0 if rng.random() < 0.05 else 1  # now and then a position of 0, which the plain algorithm also moves
    pos = {m: rng.randint(low, last) for m in names}
    stats = {m: {"bananas": 5, "dance_moves": 5, "hammer": rng.choice(["Fairy", "Sledge"]), "hat": "Blue",
                 "status": "In Line"} for m in names}
    npcs = {}
    if names and rng.random() < 0.3:
        kong = rng.choice(names)
        npcs[kong] = "king-kong"
        if rng.random() < 0.5:
            pos[kong] = 1
    items = []
    for _ in range(rng.randint(0, 10)):
        item = {"name": f"I{rng.randint(0, 6)}", "size": rng.choice(SIZES), "status": "Activated"}
        if names and rng.random() < 0.5:
            item["held_by"] = rng.choice(names)
        else:
            item["lies_at"] = rng.randint(1, last + 3)
        items.append(item)
    return World(pos=pos, barrel=[], stats=stats, npcs=npcs, items=items, hammers=HAMMERS, hats=["Blue", "Green"])


def _plain_rebalance(w: World) -> list[str]:
    """The algorithm as the rule reads: from the top each time, every gap closed through ``_close_gap``."""
    done: list[str] = []
    while w.is_unbalanced():
        counts = Counter(w.pos.values())
        expected = 1
        for o in sorted(counts):
            if o != expected and counts[o] == 1:
                w._close_gap(expected, o)
                done.append(f"move up {o} to {expected}")
                break
            if counts[o] >= 2:
                done.append(f"split {o}")
                w.split(o)
                break
            expected += 1
    return done


def _outcome(w: World, how) -> tuple:
    try:
        result, error = how(w), None
    except KongHolds as e:
        result, error = None, str(e)
    return result, error, w.pos, w.items, w.log, w.stats


def test_rebalance_gives_what_the_plain_algorithm_gives():
    rng = random.Random(20261122)
    moved = 0
    for _ in range(1500):
        w = _random_world(rng)
        fast, plain = copy.deepcopy(w), copy.deepcopy(w)
        got = _outcome(fast, World.rebalance)
        assert got == _outcome(plain, _plain_rebalance), (w.pos, w.items, w.npcs)
        moved += any("picks up" in line or "stays behind" in line for line in fast.log)
    assert moved > 100  # items were found and left on the way often enough to matter


def test_positions_and_order_are_sorted_by_position_then_name():
    w = World(pos={"Cy": 2, "Al": 2, "Bo": 1, "Di": 5}, barrel=[], stats={}, npcs={}, items=[], hammers=[], hats=[])
    assert w.positions_doc() == [{"at": 1, "monkeys": ["Bo"]}, {"at": 2, "monkeys": ["Al", "Cy"]},
                                 {"at": 5, "monkeys": ["Di"]}]
    assert w.in_order() == ["Bo", "Al", "Cy", "Di"]


# ---------------------------------------------------------------- the actions never change the state they start from

CASES = Path(__file__).parent / "cases" / "monkey"


def _monkey_cases():
    for path in sorted(CASES.glob("*.yaml")):
        data = yamlio.load_file(path)
        for case in data["cases"]:
            yield pytest.param(data, case, id=f"{path.name}::{case['name']}")


@pytest.mark.parametrize("suite, case", list(_monkey_cases()))
def test_an_action_leaves_the_state_it_started_from_alone(suite, case):
    state, registry = base_state(case.get("game", suite["game"]), case.get("part", suite.get("part", "")))
    state = patched(state, registry, case.get("given", []))
    before = copy.deepcopy(state.docs)
    run(state, registry, case["actions"])
    assert state.docs == before


# ---------------------------------------------------------------- joining, whenever the roster changes


def _tick(state: State, registry, hours: int):
    at = parse_time(state.docs["ledger"]["clock"]) + timedelta(hours=hours)
    return apply_action(registry, state, {"at": format_time(at), "actor": "Alice", "action": "engine.tick",
                                          "params": {}}).state


def _with_newcomer(state: State, name: str) -> dict:
    newcomer = copy.deepcopy(state.docs["roster"]["players"][0])
    newcomer.pop("kind", None)
    newcomer["name"] = name
    return newcomer


def _placed(state: State, name: str) -> bool:
    line = state.docs["monkey_line"]
    return (any(name in e["monkeys"] for e in line["positions"])
            and any(s["monkey"] == name for s in state.docs["monkey_dance"]["sections"]))


def test_a_monkey_put_on_the_roster_between_actions_is_placed_by_the_next():
    state, registry = base_state("monkey-dance")
    state = _tick(_tick(state, registry, 1), registry, 1)  # the second finds the documents in order already
    roster = copy.deepcopy(state.docs["roster"])
    roster["players"].append(_with_newcomer(state, "Newt"))
    state = _tick(State(state.config, {**state.docs, "roster": roster}, state.rules), registry, 1)
    assert _placed(state, "Newt")


def test_a_roster_changed_in_place_is_looked_at_again():
    state, registry = base_state("monkey-dance")
    state = _tick(_tick(state, registry, 1), registry, 1)
    state.docs["roster"]["players"].append(_with_newcomer(state, "Newt"))  # not how the engine works, but seen
    state = _tick(state, registry, 1)
    assert _placed(state, "Newt")


# ---------------------------------------------------------------- the next Awesomeness count


def _plain_next_tally(posts: list[dict], after) -> object:
    """Seed 000, Awesomeness, as written: the soonest end of a pending post's 48 hours not yet counted."""
    ends = [parse_time(p["submitted"]) + timedelta(hours=48) for p in posts
            if p["status"] == "pending" and "tally" not in p]
    return min((e for e in ends if e > after), default=None)


def test_next_tally_gives_what_reading_every_post_gives():
    """``next_tally`` remembers a list's pending ends by identity; it finds what a look at every post finds,
    whatever order the posts are listed in (a patch may add one dated in the past), and sees a list changed in
    place (not how the engine works) through its length."""
    from validators.games.monkey.awesomeness import next_tally

    state, _ = base_state("monkey-dance")
    rng = random.Random(48)
    start = parse_time("2026-11-01T00:00:00Z")
    for _ in range(300):
        posts = []
        for i in range(rng.randint(0, 8)):
            post = {"id": i + 1, "submitted": format_time(start + timedelta(hours=rng.randint(0, 200))),
                    "status": rng.choice(["pending", "pending", "passed", "failed"]), "votes": {}}
            if rng.random() < 0.3:
                post["tally"] = {"at": post["submitted"], "for": 0, "quorum": 0}
            posts.append(post)
        if rng.random() < 0.7:
            posts.sort(key=lambda p: p["submitted"])
        docs = {**state.docs, "monkey_awesomeness": {"next": len(posts) + 1, "posts": posts}}
        st = State(state.config, docs, state.rules)
        for _ in range(4):
            after = start + timedelta(hours=rng.randint(0, 260))
            assert next_tally(st, after) == _plain_next_tally(posts, after)
        posts.append({"id": 99, "submitted": format_time(start + timedelta(hours=300)), "status": "pending",
                      "votes": {}})
        assert next_tally(st, start) == _plain_next_tally(posts, start)
