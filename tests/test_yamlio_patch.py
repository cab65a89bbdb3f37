"""``nomic act``'s writer for large documents (yamlio.patch_text): the text the round trip would write, or None."""

from __future__ import annotations

import copy
from collections import Counter

import pytest

from bench.patch import changes
from validators import yamlio


def proposals_text(n: int = 160) -> str:
    """A proposals document over PATCH_MIN_CHARS, in the canonical layout (as the round trip writes it)."""
    doc = {"next": n + 1, "proposals": []}
    for i in range(1, n + 1):
        doc["proposals"].append({
            "id": i, "title": f"Proposal number {i}", "author": f"P{i % 40:03d}",
            "status": "pending" if i > n - 5 else "enacted",
            "votes": {f"P{v:03d}": "FOR" if (i + v) % 3 else "AGAINST" for v in range(1, 9)},
            "text": f"Amend rule {i}: players may do {i} things.\nA second line.",
            "score": i * 2, "ratio": i / 4, "open": i % 2 == 0,
        })
    text = yamlio.dump_new(doc)
    text = text.replace("title: Proposal number 4\n", "title: 'Proposal number 4'\n")  # a quoted title
    assert len(text) >= yamlio.PATCH_MIN_CHARS
    return text


def round_trip(text: str, new) -> str:
    return yamlio.rt_dump(yamlio.sync_into(yamlio.rt_load(text, "p.yaml"), new))


@pytest.mark.parametrize("k", range(7))
def test_a_patch_is_what_the_round_trip_writes(k):
    text = proposals_text()
    new = changes(yamlio.load(text, "p.yaml"), k)
    patched = yamlio.patch_text(text, new, "p.yaml")
    assert patched is not None
    assert patched == round_trip(text, new)
    assert yamlio._same_walk(yamlio.load(patched, "p.yaml"), new)
    a, b = Counter(text.splitlines()), Counter(patched.splitlines())
    if yamlio._same_walk(new, yamlio.load(text, "p.yaml")):
        assert patched == text
    else:  # only the lines of what changed
        assert 0 < (a - b).total() + (b - a).total() <= 12


@pytest.mark.parametrize("key, before, after", [
    ("score", 1, True),   # 1 == True in Python: the writers must still see a change of type
    ("score", 8, 8.0),    # 8 == 8.0
    ("score", 8, "8"),
    ("open", True, 1),
    ("ratio", 1.0, 1),
])
def test_a_change_of_type_alone_is_written(key, before, after):
    text = proposals_text()
    data = yamlio.load(text, "p.yaml")
    data["proposals"][3][key] = before
    base = round_trip(text, data)
    assert yamlio._same_walk(yamlio.load(base, "p.yaml"), data)
    new = copy.deepcopy(data)
    new["proposals"][3][key] = after
    for written in (yamlio.patch_text(base, new, "p.yaml"), round_trip(base, new)):
        assert written is not None and written != base
        again = yamlio.load(written, "p.yaml")["proposals"][3][key]
        assert type(again) is type(after) and again == after
        assert yamlio._same_walk(yamlio.load(written, "p.yaml"), new)


@pytest.mark.parametrize("k", range(7))
def test_a_tree_kept_from_reading_patches_as_a_fresh_one(k, monkeypatch):
    """``nomic act`` keeps a large file's node tree from its reading (yamlio.keeping_nodes) and patches
    with it; the text written is the same as when the text is composed again."""
    text = proposals_text()
    new = changes(yamlio.load(text, "p.yaml"), k)
    fresh = yamlio.patch_text(text, new, "p.yaml")
    other = proposals_text(161)  # a text not read within the command
    other_new = changes(yamlio.load(other, "p.yaml"), k)
    with yamlio.keeping_nodes():
        yamlio.load(text, "p.yaml")
        assert text in yamlio._kept
        composed = []
        real = yamlio.yaml.compose
        monkeypatch.setattr(yamlio.yaml, "compose", lambda *a, **kw: composed.append(1) or real(*a, **kw))
        assert yamlio.patch_text(text, new, "p.yaml") == fresh
        assert composed == []  # the kept tree was used
        assert len(yamlio._kept) == 1  # not the patched text's tree too
        # another text is composed, never patched with the wrong tree
        assert yamlio.patch_text(other, other_new, "p.yaml") == round_trip(other, other_new)
        assert composed == [1]
    assert yamlio._kept is None  # dropped at the end of the command


def test_what_the_patcher_does_not_handle_is_left_to_the_round_trip():
    text = proposals_text()
    new = yamlio.load(text, "p.yaml")
    del new["proposals"][40]  # a deletion inside a list
    assert yamlio.patch_text(text, new, "p.yaml") is None
    from validators.content import doc_text

    written = doc_text(new, "content/g/gamestate/proposals.yaml", "proposals.schema.json", text)
    assert yamlio._same_walk(yamlio.load(written, "p.yaml"), new)
    assert written == round_trip(text, new)


def test_an_unchanged_document_is_the_same_text():
    text = proposals_text()
    assert yamlio.patch_text(text, yamlio.load(text, "p.yaml"), "p.yaml") == text


@pytest.mark.parametrize("a, b, same", [
    (1, True, False), (1, 1.0, False), ("1", 1, False), (None, False, False),
    ({"a": 1, "b": [1, 2]}, {"b": [1, 2], "a": 1}, True),  # key order aside
    ({"a": [1, {"b": 2}]}, {"a": [1, {"b": 2.0}]}, False),
    ([1, 2], [1, 2, 3], False), ({"a": 1}, {"a": 1, "b": None}, False),
])
def test_same_data_is_equal_values_of_equal_types(a, b, same):
    assert yamlio.same_data(a, b) is same
    assert yamlio.same_data(b, a) is same
