"""``judge.diff``: what differs between two states, as the check's comparison and the wiki's history read it."""

from __future__ import annotations

import random

from validators.judge import MISSING, diff


def reference(a, b, path=()):
    """The plain reading of the contract, child by child in Python."""
    if type(a) is type(b) and a == b and not isinstance(a, (dict, list)):
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for k in a:
            if k not in b:
                yield path + (k,), a[k], MISSING
            else:
                yield from reference(a[k], b[k], path + (k,))
        for k in b:
            if k not in a:
                yield path + (k,), MISSING, b[k]
        return
    if isinstance(a, list) and isinstance(b, list):
        for i in range(min(len(a), len(b))):
            yield from reference(a[i], b[i], path + (i,))
        for i in range(len(b), len(a)):
            yield path + (i,), a[i], MISSING
        for i in range(len(a), len(b)):
            yield path + (i,), MISSING, b[i]
        return
    yield path, a, b


def shown(changes):
    return [(p, repr(x), repr(y)) for p, x, y in changes]


def test_one_changed_location_among_a_thousand_shared_ones():
    locations = [{"name": f"L{i}", "items": [i]} for i in range(1000)]
    before = {"world": {"locations": locations, "turn": 3}}
    after_locations = list(locations)
    after_locations[617] = {"name": "L617", "items": [617, "gem"]}
    after = {"world": {"locations": after_locations, "turn": 4}}
    assert shown(diff(before, after)) == [
        (("world", "locations", 617, "items", 1), "nothing", "'gem'"),
        (("world", "turn"), "3", "4")]


def test_keys_removed_then_added_in_order_and_types_kept_apart():
    a = {"x": 1, "gone": [1], "y": {"k": True}, "z": 1.0}
    b = {"x": True, "y": {"k": 1}, "z": 1, "new": "n", "also": None}
    assert shown(diff(a, b)) == [
        (("x",), "1", "True"), (("gone",), "[1]", "nothing"), (("y", "k"), "True", "1"), (("z",), "1.0", "1"),
        (("new",), "nothing", "'n'"), (("also",), "nothing", "None")]


def test_lists_that_grow_and_shrink():
    assert shown(diff([1, 2, 3], [1, 5])) == [((1,), "2", "5"), ((2,), "3", "nothing")]
    assert shown(diff([1], [1, [2]])) == [((1,), "nothing", "[2]")]
    assert list(diff({"a": [1, {"b": 2}]}, {"a": [1, {"b": 2}]})) == []  # equal, not the same objects


def test_random_documents_agree_with_the_reference():
    rng = random.Random(11)

    def gen(depth=0):
        r = rng.random()
        if depth < 3 and r < 0.3:
            return {rng.choice("abcde"): gen(depth + 1) for _ in range(rng.randint(0, 4))}
        if depth < 3 and r < 0.5:
            return [gen(depth + 1) for _ in range(rng.randint(0, 4))]
        return rng.choice([1, 1.0, True, "x", None, 2, "y"])

    def mutate(x, depth=0):  # shares what it does not change, as states do
        if isinstance(x, dict):
            y = dict(x)
            for k in list(y):
                if rng.random() < 0.3:
                    y[k] = mutate(y[k], depth + 1)
                elif rng.random() < 0.1:
                    del y[k]
            if rng.random() < 0.2:
                y[rng.choice("abcdefg")] = gen(depth + 1)
            return y
        if isinstance(x, list):
            y = list(x)
            for i in range(len(y)):
                if rng.random() < 0.3:
                    y[i] = mutate(y[i], depth + 1)
            if rng.random() < 0.2:
                y.append(gen(depth + 1))
            if y and rng.random() < 0.2:
                y.pop()
            return y
        return gen(depth) if rng.random() < 0.5 else x

    differing = 0
    for _ in range(5000):
        a = gen()
        b = mutate(a) if rng.random() < 0.8 else gen()
        want = shown(reference(a, b))
        assert shown(diff(a, b)) == want, (a, b)
        differing += bool(want)
    assert differing > 1500
