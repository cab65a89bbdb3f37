"""Committing copy-on-write edits (``engine._freeze``) and the ledger's update, against what they gave before.

``_freeze`` looks only at the places of a changed list that no longer hold the source's very object; these
tests check, case by case, the values it gives and which objects are shared with the source and which are new.
The ledger is built as plain data unless the action edited it; its values and its chain are pinned to what the
copy-on-write edit gave (computed with the engine before that change).
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest

from validators import engine
from validators.engine import Action, Module, Registry, State, Tx, apply_action, peek, peek_items

COWS = (engine._CowDict, engine._CowList)


def _plain(v: Any) -> None:
    """No copy-on-write object is left anywhere in ``v``."""
    assert type(v) not in COWS
    if isinstance(v, dict):
        for x in dict.values(v):
            _plain(x)
    elif isinstance(v, list):
        for x in list.__iter__(v):
            _plain(x)


def _commit(doc: Any, change: Any) -> tuple[Any, Any]:
    """``change`` applied to an edit of ``doc``: (the committed document, the edit), checked against a full walk."""
    tx = Tx(State({}, {"d": doc}, {}))
    edited = tx.edit("d")
    change(edited)
    out = engine._freeze(edited)
    _plain(out)
    assert engine._strict_equal(out, engine._freeze_full(edited))
    return out, edited


def _items(n: int, nested: bool) -> list[dict[str, Any]]:
    return [{"id": i, "tags": [f"t{i}"]} if nested else {"id": i, "wild": True} for i in range(n)]


# ---------------------------------------------------------------- lists


@pytest.mark.parametrize("nested", [False, True])
def test_an_appended_list_shares_every_other_item(nested):
    src = _items(50, nested)
    new = {"id": 50, "tags": ["fresh"]} if nested else {"id": 50}
    out, _ = _commit({"xs": src}, lambda d: d["xs"].append(new))
    xs = out["xs"]
    assert xs is not src and len(src) == 50  # the source is not changed
    assert all(a is b for a, b in zip(xs, src)) and len(xs) == 51
    assert xs[50] == new
    assert (xs[50] is not new) if nested else (xs[50] is new)  # a container holding containers is walked anew


def test_an_appended_item_holding_a_copy_is_frozen():
    src = _items(30, nested=True)

    def change(d):
        xs = d["xs"]
        xs.append({"id": 99, "tags": xs[3]["tags"]})  # the tags of item 3, as the edit's copy

    xs = _commit({"xs": src}, change)[0]["xs"]
    assert xs[30] == {"id": 99, "tags": ["t3"]}
    assert xs[30]["tags"] is src[3]["tags"]  # a copy never changed gives back its original
    assert all(a is b for a, b in zip(xs, src))


def test_an_item_replaced_in_the_middle_is_the_only_new_one():
    src = _items(40, nested=True)
    new = {"id": "new", "tags": []}

    def change(d):
        d["xs"][20] = new

    xs = _commit({"xs": src}, change)[0]["xs"]
    assert xs[20] == new
    assert [i for i, (a, b) in enumerate(zip(xs, src)) if a is not b] == [20]


def test_an_item_replaced_by_an_equal_object_is_not_taken_for_the_source():
    src = _items(40, nested=True)
    flat = {"id": 5, "tags": ["t5"]}

    def change(d):
        xs = d["xs"]
        xs[20] = {"id": 20, "tags": xs[20]["tags"]}  # equal to the source's item, but holding the edit's copy
        xs[5] = flat  # equal too, and holding only plain data
        xs.append({"id": 40})

    xs = _commit({"xs": src}, change)[0]["xs"]
    assert xs[20] == src[20] and xs[20] is not src[20]
    assert type(xs[20]["tags"]) is list and xs[20]["tags"] is src[20]["tags"]
    assert xs[5] == src[5] and xs[5] is not src[5]
    assert [i for i, (a, b) in enumerate(zip(xs, src)) if a is not b] == [5, 20]


def test_a_list_shortened_then_appended_keeps_its_length_but_not_its_items():
    src = _items(20, nested=True)
    new = {"id": 20}

    def change(d):
        del d["xs"][0]
        d["xs"].append(new)

    xs = _commit({"xs": src}, change)[0]["xs"]
    assert len(xs) == len(src)
    assert all(xs[i] is src[i + 1] for i in range(19)) and xs[19] is new


def test_the_last_item_popped_and_an_equal_one_appended_is_new():
    src = _items(20, nested=True)

    def change(d):
        d["xs"].pop()
        d["xs"].append({"id": 19, "tags": ["t19"]})

    xs = _commit({"xs": src}, change)[0]["xs"]
    assert xs == src and xs[19] is not src[19]
    assert all(a is b for a, b in zip(xs[:19], src))


def test_a_source_item_moved_elsewhere_is_shared_not_copied():
    src = _items(20, nested=True)

    def change(d):
        first = next(peek(d["xs"]))  # the source's own object, as read without copying
        del d["xs"][0]
        d["xs"].append(first)

    xs = _commit({"xs": src}, change)[0]["xs"]
    assert xs[19] is src[0]
    assert all(xs[i] is src[i + 1] for i in range(19))


@pytest.mark.parametrize("n", [3, 30])  # a few searched one by one, many through a set of ids
def test_a_reversed_list_shares_every_item(n):
    src = _items(n, nested=True)
    xs = _commit({"xs": src}, lambda d: d["xs"].reverse())[0]["xs"]
    assert all(a is b for a, b in zip(xs, reversed(src)))


def test_a_list_read_through_then_appended_gives_back_its_items():
    src = _items(30, nested=True)

    def change(d):
        for _ in d["xs"]:  # every item becomes the edit's copy, none of them changed
            pass
        d["xs"].append({"id": 30})

    xs = _commit({"xs": src}, change)[0]["xs"]
    assert all(a is b for a, b in zip(xs, src)) and xs[30] == {"id": 30}


def test_nested_lists_in_lists():
    src = [[0] * 5 for _ in range(5)]
    extra = [7]

    def change(d):
        d["grid"][1][2] = 9
        d["grid"].append(extra)

    grid = _commit({"grid": src}, change)[0]["grid"]
    assert grid == [[0] * 5, [0, 0, 9, 0, 0], [0] * 5, [0] * 5, [0] * 5, [7]]
    assert src[1] == [0] * 5
    assert [i for i, (a, b) in enumerate(zip(grid, src)) if a is not b] == [1]
    assert grid[5] is extra

    def shift(d):
        d["grid"][0].append(1)
        d["grid"].insert(0, [5])

    grid = _commit({"grid": src}, shift)[0]["grid"]
    assert grid == [[5], [0, 0, 0, 0, 0, 1], [0] * 5, [0] * 5, [0] * 5, [0] * 5]
    assert grid[1] is not src[0] and all(grid[i] is src[i - 1] for i in range(2, 6))


def test_a_changed_item_deep_in_a_longer_list():
    src = [{"id": i, "rows": [[i]]} for i in range(10)]

    def change(d):
        d["xs"][4]["rows"][0].append(99)
        d["xs"].append({"id": 10, "rows": []})

    xs = _commit({"xs": src}, change)[0]["xs"]
    assert xs[4] == {"id": 4, "rows": [[4, 99]]} and src[4] == {"id": 4, "rows": [[4]]}
    assert [i for i, (a, b) in enumerate(zip(xs, src)) if a is not b] == [4]


def test_a_source_list_holding_another_transactions_copies_is_walked():
    """A sandbox: a transaction over the state another one is building, whose lists may hold that one's copies."""
    outer = Tx(State({}, {"d": {"xs": [], "y": {"k": 1}, "z": {"k": 2}}}, {}))
    doc = outer.edit("d")
    doc["y"]["k"] = 10  # a changed copy
    doc["xs"] = [doc["y"], doc["z"]]  # a plain list holding the outer transaction's copies
    inner = Tx(outer.view())
    inner.edit("d")["xs"].append({"k": 3})
    after = inner.commit().docs["d"]
    _plain(after)
    assert after["xs"] == [{"k": 10}, {"k": 2}, {"k": 3}]


# ---------------------------------------------------------------- dicts


def test_a_dict_value_moved_to_another_key_is_shared():
    src = {"a": {"x": [1]}, "b": 1}
    new = {"y": [2]}

    def change(d):
        raw = dict(peek_items(d))["a"]  # the source's own object
        d["c"] = raw
        d["e"] = new

    out = _commit(src, change)[0]
    assert out["c"] is src["a"] and out["a"] is src["a"]
    assert out["e"] == new and out["e"]["y"] is new["y"]


# ---------------------------------------------------------------- random edits against a model


def _random_edit(rng: random.Random, src: list[dict[str, Any]]) -> tuple[Any, list[Any]]:
    """A random run of edits on a copy of ``src``; the model says, for each place, which source item it must
    be (("src", i)), must not be (("changed", i)) or nothing (("new", None))."""
    model: list[tuple[str, Any]] = [("src", i) for i in range(len(src))]
    steps = []
    for _ in range(rng.randint(1, 8)):
        op = rng.choice(["append", "append_nested", "set", "del", "insert", "change", "deep", "read", "move",
                         "reverse", "iterate", "pop"])
        if op in ("set", "del", "change", "deep", "read", "move", "pop") and not model:
            op = "append"
        i = rng.randrange(len(model)) if model else 0
        if op == "append":
            steps.append(lambda xs: xs.append({"id": "new"}))
            model.append(("new", None))
        elif op == "append_nested":
            steps.append(lambda xs: xs.append({"id": "new", "tags": ["n"]}))
            model.append(("new", None))
        elif op == "set":
            steps.append(lambda xs, i=i: xs.__setitem__(i, {"id": "set", "tags": ["s"]}))
            model[i] = ("new", None)
        elif op == "del":
            steps.append(lambda xs, i=i: xs.__delitem__(i))
            del model[i]
        elif op == "pop":
            steps.append(lambda xs, i=i: xs.pop(i))
            model.pop(i)
        elif op == "insert":
            steps.append(lambda xs, i=i: xs.insert(i, {"id": "ins", "tags": ["i"]}))
            model.insert(i, ("new", None))
        elif op == "change":
            steps.append(lambda xs, i=i: xs[i].__setitem__("seen", True))
            if model[i][0] == "src":
                model[i] = ("changed", model[i][1])
        elif op == "deep":
            steps.append(lambda xs, i=i: xs[i]["tags"].append("deep") if "tags" in xs[i] else None)
            if model[i][0] == "src":
                model[i] = ("changed", model[i][1])
        elif op == "read":
            steps.append(lambda xs, i=i: xs[i].get("tags"))
        elif op == "move":
            steps.append(lambda xs, i=i: xs.append(list(peek(xs))[i]))
            model.append(model[i] if model[i][0] == "src" else ("new", None))
        elif op == "reverse":
            steps.append(lambda xs: xs.reverse())
            model.reverse()
        else:
            steps.append(lambda xs: [x for x in xs])

    def change(d):
        for step in steps:
            step(d["xs"])

    return change, model


@pytest.mark.parametrize("seed", range(300))
def test_random_edits_share_exactly_what_they_did_not_change(seed):
    rng = random.Random(seed)
    src = [{"id": i, "tags": [f"t{i}"]} for i in range(rng.choice([0, 1, 5, 12]))]
    change, model = _random_edit(rng, src)
    xs = _commit({"xs": src}, change)[0]["xs"]
    assert len(xs) == len(model)
    for x, (kind, i) in zip(xs, model):
        if kind == "src":
            assert x is src[i]
        elif kind == "changed":
            assert x is not src[i] and x != src[i]
    assert src == [{"id": i, "tags": [f"t{i}"]} for i in range(len(src))]  # the source is never written


# ---------------------------------------------------------------- the ledger


def _ledger_registry() -> Registry:
    def note(ctx):
        ctx.step({"noted": ctx.actor})

    module = Module(name="toy", title="Toy", actions=[
        Action(name="toy.roll", rule="toy", summary="", frequency="daily", effect=lambda ctx: ctx.step(ctx.roll(6))),
        Action(name="toy.note", rule="toy", summary="", effect=note),
        Action(name="toy.bonus", rule="toy", summary="", frequency="weekly", frequency_key="bonus"),
    ])
    return Registry([module])


def _ledger_state(ledger: dict[str, Any]) -> State:
    players = [{"name": n, "joined": "2026-11-01T00:00:00Z", "stats": {}} for n in ("A", "B", "C")]
    return State({"modules": []}, {"roster": {"stats": {}, "players": players}, "ledger": ledger}, {})


SALT, SECRET = "s", "x"
_HASH = hashlib.sha256(f"{SALT}:{SECRET}".encode()).hexdigest()

RECORDS = [
    ("2026-11-21T01:00:00Z", "A", "toy.roll", None),
    ("2026-11-21T02:00:00Z", "A", "toy.note", {"text": "é ü \" \\ \n"}),
    ("2026-11-21T02:30:00Z", "A", "toy.roll", None),  # refused: a second daily action in a day
    ("2026-11-21T03:00:00Z", "B", "toy.roll", None),
    ("2026-11-21T04:00:00Z", "B", "toy.bonus", None),
    ("2026-11-22T00:00:00Z", "A", "engine.commit", {"label": "pick", "hash": _HASH}),  # the action edits the ledger
    ("2026-11-23T00:00:00Z", "C", "toy.roll", None),
    ("2026-11-24T00:00:00Z", "A", "engine.reveal", {"label": "pick", "secret": SECRET, "salt": SALT}),
    ("2026-11-24T00:00:01Z", "A", "toy.note", {"n": [1, 2.5, None, True]}),
    ("2026-12-05T00:00:00Z", "B", "toy.note", None),  # A's and B's takings have run out
    ("2026-12-06T00:00:00Z", "C", "toy.roll", None),  # C's last one has run out as C takes another
    ("2026-12-06T01:00:00Z", "C", "toy.bonus", None),
]

START = {"clock": "2026-11-20T00:00:00Z", "actions": 0, "head": ""}
# a ledger already holding what the schema would refuse but the engine copes with: a time written otherwise,
# a player with nothing left, and no "seen"
ODD_START = {"clock": "2026-11-20T00:00:00Z", "actions": 7, "head": "ab" * 32, "run_actor": "C",
             "run_head": "cd" * 32, "run_counts": {"toy.note": 2},
             "recent": {"Z": {"toy.roll": ["2026-11-19 00:00:00", "2026-11-20T00:00:00Z"]}, "Y": {}}}


def _replay(ledger: dict[str, Any]) -> tuple[list[str], dict[str, Any]]:
    """Every step's ledger as text (the order of its keys included) and the last ledger."""
    reg, state = _ledger_registry(), _ledger_state(ledger)
    texts = []
    for at, actor, action, params in RECORDS:
        record = {"at": at, "actor": actor, "action": action, **({"params": params} if params else {})}
        previous, as_it_was = state.docs["ledger"], json.dumps(state.docs["ledger"])
        try:
            state = apply_action(reg, state, record).state
        except engine.Illegal:
            texts.append("refused")
            continue
        assert json.dumps(previous) == as_it_was  # the previous state's ledger is never written
        texts.append(json.dumps(state.docs["ledger"], ensure_ascii=False))
    return texts, state.docs["ledger"]


def _digest(texts: list[str]) -> str:
    return hashlib.sha256("\n".join(texts).encode()).hexdigest()


# computed with the engine as it was before the ledger was built as plain data
KNOWN = {
    "start": ("13c0d75332239a9206249b7d61d56f48db4f7f8a69f27cd1f967c979077bb325",
              "3a16a2921cda0a0b412a0b718beffba7d53d235d988cfd78e04d56ab269ebb72"),
    "odd": ("0291b9eabeedeb48ac6c43fa44664e55275b3975d3b7141c2347e92acb4cf1d0",
            "9a2286b70bbe3df93c2caad982158503d10b22fdcaccc1dab52dd3e4bbd2272f"),
}


@pytest.mark.parametrize("name, ledger", [("start", START), ("odd", ODD_START)])
def test_the_ledger_is_what_it_was(name, ledger):
    texts, last = _replay(ledger)
    assert texts[2] == "refused"
    assert (_digest(texts), last["head"]) == KNOWN[name]


def test_the_last_ledger_in_full():
    last = _replay(START)[1]
    assert list(last) == ["clock", "actions", "head", "run_actor", "run_head", "run_counts", "last", "seen",
                          "recent", "commitments"]
    assert last["recent"] == {"C": {"toy.roll": ["2026-12-06T00:00:00Z"], "bonus": ["2026-12-06T01:00:00Z"]}}
    assert last["seen"] == {"A": "2026-11-24T00:00:01Z", "B": "2026-12-05T00:00:00Z", "C": "2026-12-06T01:00:00Z"}
    assert last["run_counts"] == {"toy.roll": 1, "toy.bonus": 1} and last["run_actor"] == "C"
    assert last["actions"] == 11 and last["last"] == "2026-12-06T01:00:00Z C toy.bonus"


@pytest.mark.parametrize("ledger", [START, ODD_START])
def test_both_ways_of_updating_the_ledger_agree(ledger, monkeypatch):
    plain = _replay(ledger)[0]
    monkeypatch.setattr(engine, "_update_ledger", engine._update_ledger_copied)
    assert _replay(ledger)[0] == plain


def test_the_previous_ledger_is_never_written():
    start = {**START, "seen": {"B": "2026-11-20T00:00:00Z"}, "recent": {"B": {"toy.roll": ["2026-11-20T00:00:00Z"]}}}
    before = json.dumps(start)
    reg, state = _ledger_registry(), _ledger_state(start)
    after = apply_action(reg, state, {"at": "2026-11-21T00:00:00Z", "actor": "B", "action": "toy.roll"}).state
    after = apply_action(reg, after, {"at": "2026-11-21T01:00:00Z", "actor": "B", "action": "toy.note"}).state
    assert json.dumps(start) == before
    assert after.docs["ledger"]["recent"] == {"B": {"toy.roll": ["2026-11-20T00:00:00Z", "2026-11-21T00:00:00Z"]}}


def test_a_ledger_part_of_another_shape_is_left_to_the_copy_on_write_edit():
    odd = {**START, "run_actor": "A"}  # no run counts for the run it names: refused the same way as before
    reg, state = _ledger_registry(), _ledger_state(odd)
    record = {"at": "2026-11-21T00:00:00Z", "actor": "A", "action": "toy.note"}
    with pytest.raises(KeyError):
        apply_action(reg, state, record)


@pytest.mark.parametrize("copied", [False, True])
def test_a_tick_moves_the_clock_but_not_who_was_seen(copied, monkeypatch):
    """A tick is no game action: the ledger's clock, count, chain and run move, ``seen`` stays (both ways of
    updating the ledger), so a rule asking when a player last acted does not count it."""
    if copied:
        monkeypatch.setattr(engine, "_update_ledger", engine._update_ledger_copied)
    reg, state = _ledger_registry(), _ledger_state(dict(START))
    state = apply_action(reg, state, {"at": "2026-11-21T00:00:00Z", "actor": "A", "action": "toy.note"}).state
    state = apply_action(reg, state, {"at": "2026-11-22T00:00:00Z", "actor": "B", "action": "engine.tick"}).state
    state = apply_action(reg, state, {"at": "2026-11-23T00:00:00Z", "actor": "A", "action": "engine.tick"}).state
    ledger = state.docs["ledger"]
    assert ledger["seen"] == {"A": "2026-11-21T00:00:00Z"}
    assert ledger["clock"] == "2026-11-23T00:00:00Z" and ledger["actions"] == 3
    assert ledger["last"] == "2026-11-23T00:00:00Z A engine.tick" and ledger["run_actor"] == "A"
