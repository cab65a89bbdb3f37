"""validators/written.py: what a transaction has written so far, read from the copy-on-write marks."""

from __future__ import annotations

from types import SimpleNamespace

from validators import written
from validators.engine import State, Tx, plain_copy


def base() -> State:
    docs = {
        "map": {"rooms": [{"id": 1, "exits": [2]}, {"id": 2, "exits": [1]}, {"id": 3, "exits": []}],
                "meta": {"turn": 1}, "name": "Hub"},
        "turn": {"player": "Ann"},
    }
    return State({}, docs, {})


def ctx_for(state: State) -> SimpleNamespace:
    return SimpleNamespace(tx=Tx(state))


def test_nothing_written_is_unchanged_everywhere():
    state = base()
    ctx = ctx_for(state)
    assert written.unchanged(ctx, "map") and written.unchanged(ctx, "map", "rooms")
    assert written.changed_items(ctx, "map", "rooms") == [] and written.changed_entries(ctx, "map") == []
    assert written.start(ctx, "map") is state.docs["map"]
    assert written.start(ctx, "map", "rooms") is state.docs["map"]["rooms"]
    # reading through an edited copy writes nothing
    doc = ctx.tx.edit("map")
    assert doc["rooms"][1]["exits"] == [1]
    assert written.unchanged(ctx, "map") and written.changed_items(ctx, "map", "rooms") == []
    assert written.snap(doc) is state.docs["map"]


def test_an_item_written_into_is_named_with_what_it_was():
    state = base()
    ctx = ctx_for(state)
    doc = ctx.tx.edit("map")
    doc["rooms"][1]["exits"].append(3)
    assert not written.unchanged(ctx, "map") and not written.unchanged(ctx, "map", "rooms")
    assert written.unchanged(ctx, "map", "meta") and written.unchanged(ctx, "turn")
    [(now, before)] = written.changed_items(ctx, "map", "rooms")
    assert before is state.docs["map"]["rooms"][1] and before["exits"] == [1]
    assert now["exits"] == [1, 3]
    [(key, now_rooms, before_rooms)] = written.changed_entries(ctx, "map")
    assert key == "rooms" and before_rooms is state.docs["map"]["rooms"]
    # the snapshot is plain data sharing every part not written into
    snapshot = written.snap(doc)
    assert snapshot == {"rooms": [{"id": 1, "exits": [2]}, {"id": 2, "exits": [1, 3]}, {"id": 3, "exits": []}],
                        "meta": {"turn": 1}, "name": "Hub"}
    assert type(snapshot) is dict and type(snapshot["rooms"]) is list and type(snapshot["rooms"][1]) is dict
    assert snapshot["meta"] is state.docs["map"]["meta"]
    assert snapshot["rooms"][0] is state.docs["map"]["rooms"][0]
    assert snapshot["rooms"][1] is not state.docs["map"]["rooms"][1]
    assert state.docs["map"]["rooms"][1]["exits"] == [1]  # the previous state is never changed
    assert ctx.tx.commit().docs["map"] == snapshot  # and the snapshot left the transaction as it was


def test_a_list_that_itself_changed_cannot_name_its_items():
    state = base()
    ctx = ctx_for(state)
    doc = ctx.tx.edit("map")
    doc["rooms"].append({"id": 4, "exits": []})
    assert written.changed_items(ctx, "map", "rooms") is None
    assert not written.unchanged(ctx, "map", "rooms")
    assert written.snap(doc)["rooms"][3] == {"id": 4, "exits": []}
    assert written.snap(doc)["rooms"][2] is state.docs["map"]["rooms"][2]


def test_a_document_whose_own_keys_changed_cannot_name_its_entries():
    state = base()
    ctx = ctx_for(state)
    doc = ctx.tx.edit("map")
    doc["name"] = "Plaza"
    assert written.changed_entries(ctx, "map") is None
    assert written.unchanged(ctx, "map", "rooms") and not written.unchanged(ctx, "map", "name")
    assert written.snap(doc)["name"] == "Plaza" and written.snap(doc)["rooms"] is state.docs["map"]["rooms"]


def test_a_document_replaced_whole_is_not_paired():
    state = base()
    ctx = ctx_for(state)
    ctx.tx.docs["turn"] = plain_copy(state.docs["turn"])  # a new object, not a copy on write of the old one
    assert not written.unchanged(ctx, "turn") and written.changed_entries(ctx, "turn") is None
