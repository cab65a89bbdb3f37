"""The memos ifMUD's deadlines and snapshots keep between actions (validators/games/ifmud/changes.py
``PerItem`` and ``snap``, turns.py ``_seen_lately``): each must give what working everything out afresh
gives, whatever the next list or dict holds, so that a stale memo fails here."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from validators.engine import State, Tx, plain_copy
from validators.games.ifmud import bombs, changes, consent, turns
from validators.timeutil import format_time, parse_time

from .replays import replay_generated
from .test_ifmud_changes import game  # noqa: F401  (the generated game, shared fixture)


def _state(docs: dict[str, Any]) -> State:
    return State(config={}, docs=docs, rules={})


# ---------------------------------------------------------------- PerItem


def test_per_item_follows_replaced_added_and_removed_items() -> None:
    calls: list[Any] = []

    def compute(item: dict[str, Any]) -> Any:
        calls.append(item["id"])
        return item["id"] * 10 + item["v"]

    per = changes.PerItem(compute)
    items = [{"id": i, "v": 0} for i in range(6)]
    assert per.many(items) == [i * 10 for i in range(6)]
    assert per.many(items) == [i * 10 for i in range(6)] and len(calls) == 6  # the very list: remembered
    replaced = list(items)
    replaced[2] = {"id": 2, "v": 7}
    calls.clear()
    assert per.many(replaced) == [0, 10, 27, 30, 40, 50] and calls == [2]  # only the new item
    added = replaced + [{"id": 9, "v": 1}]
    calls.clear()
    assert per.many(added) == [0, 10, 27, 30, 40, 50, 91] and calls == [9]
    removed = added[:1] + added[2:]  # positions moved: worked out again
    assert per.many(removed) == [0, 27, 30, 40, 50, 91]
    other = [{"id": i, "v": 3} for i in range(6)]  # the same length, every item another
    assert per.many(other) == [i * 10 + 3 for i in range(6)]


def test_per_item_on_random_lists_agrees_with_computing_afresh() -> None:
    rnd = random.Random(5)
    per = changes.PerItem(lambda item: (item["id"], item["v"]))
    items = [{"id": i, "v": 0} for i in range(20)]
    for _ in range(500):
        items = list(items)
        op = rnd.random()
        if op < 0.5 and items:
            i = rnd.randrange(len(items))
            items[i] = {"id": items[i]["id"], "v": rnd.randrange(100)}
        elif op < 0.7:
            items.append({"id": rnd.randrange(1000), "v": rnd.randrange(100)})
        elif op < 0.85 and items:
            del items[rnd.randrange(len(items))]
        elif items:
            i, j = rnd.randrange(len(items)), rnd.randrange(len(items))
            items[i], items[j] = items[j], items[i]
        assert per.many(items) == [(t["id"], t["v"]) for t in items]


def test_kept_deadlines_agree_with_the_full_ones() -> None:
    rnd = random.Random(11)
    tokens = [{"id": i, "name": f"t{i}", "location": {"room": "A"}, "since": "2026-11-01T00:00:00Z"}
              for i in range(30)]
    proposals = [{"id": i, "status": "pending", "posted": "2026-11-01T00:00:00Z"} for i in range(10)]
    for step in range(300):
        tokens, proposals = list(tokens), list(proposals)
        i = rnd.randrange(len(tokens))
        t = dict(tokens[i])
        t["since"] = format_time(parse_time("2026-11-01T00:00:00Z").replace(hour=rnd.randrange(24)))
        if rnd.random() < 0.3:
            t["delay_hours"] = rnd.randrange(1, 48)
        elif rnd.random() < 0.2:
            t.pop("delay_hours", None)
        if rnd.random() < 0.2:
            t["role"], t["charge"] = "uplink", rnd.randrange(12)
        t["location"] = rnd.choice([{"room": "A"}, {"room": "CPU"}, {"player": "P"}])
        tokens[i] = t
        j = rnd.randrange(len(proposals))
        proposals[j] = dict(proposals[j], status=rnd.choice(["pending", "ratifying", "dead"]),
                            closed={"effective": "2026-11-03T00:00:00Z"})
        if rnd.random() < 0.1:
            tokens.append(dict(t, id=100 + step))
        got = [(d[0], d[1]) for d in bombs._kept_deadlines(tokens, "CPU")]
        assert got == [(d[0], d[1]) for d in bombs._deadlines(tokens, "CPU")]
        got = [(d[0], d[1]) for d in consent._kept_deadlines(proposals)]
        assert got == [(d[0], d[1]) for d in consent._deadlines(proposals)]


# ---------------------------------------------------------------- Rule 24's quick look


def _due(players: list[dict[str, Any]], seen: dict[str, Any], passive: frozenset[Any], until: str) -> bool:
    """Whether Rule 24 has a deadline by ``until``, worked out the long way (turns._silence without its floor)."""
    recent = parse_time(until)
    for p in players:
        if p["name"] in passive:
            continue
        marks = [p["joined"]] + ([seen[p["name"]]] if p["name"] in seen else [])
        if max(parse_time(m) for m in marks) + turns._WEEK <= recent:
            return True
    return False


def test_seen_lately_only_says_so_when_nobody_is_due() -> None:
    rnd = random.Random(3)
    start = parse_time("2026-11-01T00:00:00Z")
    players = [{"name": f"P{i}", "joined": "2026-10-01T00:00:00Z", "stats": {}} for i in range(8)]
    seen = {p["name"]: format_time(start) for p in players}
    said = 0
    for step in range(600):
        players, seen = list(players), dict(seen)
        i = rnd.randrange(len(players))
        op = rnd.random()
        if op < 0.3:  # a tally changed: the same name, a new item
            players[i] = dict(players[i], stats={"x": step})
        elif op < 0.4:  # someone else in that place
            players[i] = {"name": f"Q{step}", "joined": "2026-10-01T00:00:00Z", "stats": {}}
        elif op < 0.5:
            seen.pop(players[i]["name"], None)
        elif op < 0.55:
            seen[players[i]["name"]] = "2026-11-1T00:00:00Z"  # not canonical: does not sort as text
        else:
            seen[players[i]["name"]] = format_time(start.replace(day=rnd.randrange(1, 28)))
        passive = frozenset(rnd.sample([p["name"] for p in players], rnd.randrange(3)))
        until = format_time(start.replace(day=rnd.randrange(1, 28), hour=rnd.randrange(24)))
        quick = turns._seen_lately(players, seen, passive, format_time(parse_time(until) - turns._WEEK))
        if quick:
            said += 1
            assert not _due(players, seen, passive, until), (step, players, seen, passive, until)
    assert said > 10  # it did say so, now and then


def test_seen_lately_does_not_keep_the_names_of_another_list() -> None:
    recent = "2026-11-01T00:00:00Z"
    players = [{"name": f"P{i}", "joined": "2026-10-01T00:00:00Z"} for i in range(4)]
    seen = {"P0": "2026-11-05T00:00:00Z", "P1": "2026-11-05T00:00:00Z", "P2": "2026-11-05T00:00:00Z",
            "P3": "2026-11-05T00:00:00Z", "R": "2026-10-02T00:00:00Z"}
    assert turns._seen_lately(players, seen, frozenset(), recent)
    other = list(players)
    other[2] = {"name": "R", "joined": "2026-10-01T00:00:00Z"}  # the same length, another name in a place
    assert not turns._seen_lately(other, seen, frozenset(), recent)
    assert turns._seen_lately(other, seen, frozenset({"R"}), recent)  # R is exempt (Rule 130)
    assert not turns._seen_lately(other, seen, frozenset(), recent)  # and is watched again
    again = list(other)
    again[1] = dict(again[1], stats={"x": 1})  # the same names: still R among them
    assert not turns._seen_lately(again, seen, frozenset(), recent)


# ---------------------------------------------------------------- snapshots of a list that lost an item


def test_snap_of_a_list_that_lost_an_item() -> None:
    docs = {"tokens": {"tokens": [{"id": i, "location": {"room": "A"}} for i in range(8)], "next": 8}}
    state = _state(plain_copy(docs))
    tx = Tx(state)
    ts = tx.edit("tokens")["tokens"]
    del ts[2]
    ts[4]["location"] = {"room": "B"}  # an item after the gap, changed: copied, not the original's
    ts.append({"id": 8, "location": {"room": "C"}})
    snapshot = changes.snap(tx.docs["tokens"])
    expected = plain_copy(docs["tokens"])
    del expected["tokens"][2]
    expected["tokens"][4]["location"] = {"room": "B"}
    expected["tokens"].append({"id": 8, "location": {"room": "C"}})
    assert snapshot == expected
    original = state.docs["tokens"]["tokens"]
    assert snapshot["tokens"][0] is original[0] and snapshot["tokens"][3] is original[4]  # shared, unchanged
    assert state.docs["tokens"] == docs["tokens"]  # the previous state is as it was


# ---------------------------------------------------------------- the whole replay, memos off


def test_the_deadline_memos_change_no_outcome(game: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    fast = replay_generated(game)
    monkeypatch.setattr(turns, "_seen_lately", lambda *a: False)
    monkeypatch.setattr(changes.PerItem, "many", lambda self, items: [self.compute(x) for x in items])
    slow = replay_generated(game)
    assert fast[1] == slow[1]
    assert fast[0] == slow[0]
