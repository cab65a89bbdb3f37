"""The quick reader of plain action files (validators/yamlfast.py) against the full loader.

Whatever ``yamlfast.load`` accepts must be exactly what ``yamlio``'s full loader gives, types
included; whatever it does not accept goes the full way, where errors are reported with their place.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from validators import yamlfast, yamlio
from validators.problems import BadInput

ROOT = Path(__file__).resolve().parent.parent


def typed(x):
    """The data with every value's type spelled out: 1, 1.0 and True must not compare equal here."""
    if isinstance(x, dict):
        return ("map", [(k, typed(v)) for k, v in x.items()])
    if isinstance(x, list):
        return ("seq", [typed(v) for v in x])
    return (type(x).__name__, x)


def fast(text: str):
    return yamlfast.load(text, yamlio._plain_value)


def full(text: str):
    try:
        return yamlio._load(text, "f.yaml", 0)
    except BadInput as e:
        return e


def agrees(text: str) -> bool:
    """False only when the quick reader accepts a text and reads it otherwise than the full loader."""
    quick = fast(text)
    if quick is None:
        return True
    whole = full(text)
    return not isinstance(whole, BadInput) and typed(quick) == typed(whole)


ACTION = """# yaml-language-server: $schema=../../../schemas/action.schema.json
at: 2026-06-01T09:08:00Z
actor: P059
action: cycle12.move
params:
  to:
    - 1
    - 4
outcome:
  - moved:
      - P059
      - nomster:302
    to: Gloom Plateau
"""


def test_an_action_file_as_nomic_act_writes_it():
    assert fast(ACTION) == {
        "at": "2026-06-01T09:08:00Z", "actor": "P059", "action": "cycle12.move", "params": {"to": [1, 4]},
        "outcome": [{"moved": ["P059", "nomster:302"], "to": "Gloom Plateau"}]}
    assert typed(fast(ACTION)) == typed(full(ACTION))


@pytest.mark.parametrize("text, data", [
    ("a: 1\nb: -2\nc: +3\nd: 0\n", {"a": 1, "b": -2, "c": 3, "d": 0}),
    ("a: true\nb: False\nc: TRUE\n", {"a": True, "b": False, "c": True}),
    ("a: null\nb: ~\nc:\nd: Null\n", {"a": None, "b": None, "c": None, "d": None}),
    ("a: yes\nb: on\nc: 007\nd: 0x1F\n", {"a": "yes", "b": "on", "c": "007", "d": "0x1F"}),  # the narrowed schema
    ("a: 'x: # y'\nb: \"it's\"\nc: ''\n", {"a": "x: # y", "b": "it's", "c": ""}),
    ("a: []\nb: {}\n", {"a": [], "b": {}}),
    ("rests to: 100\nCurious George:\n  tree stands: 99k\n",
     {"rests to": 100, "Curious George": {"tree stands": "99k"}}),
    ("a:\n- 1\n- x\nb: 2\n", {"a": [1, "x"], "b": 2}),  # a sequence in its key's column
    ("- a: 1\n  b:\n    - c\n- 2\n", [{"a": 1, "b": ["c"]}, 2]),
    ("a: x:y\nb: 2026-01-01T00:00:00Z\nc: it's a b\n", {"a": "x:y", "b": "2026-01-01T00:00:00Z", "c": "it's a b"}),
    ("# a comment\n\na:   # x\n  # between\n  b: 1   \n", None),  # a comment after a key: the full way
    ("# a comment\n\na:\n  # between\n  b: 1   \n", {"a": {"b": 1}}),
])
def test_what_the_subset_reads(text, data):
    assert fast(text) == data
    if data is not None:
        assert typed(fast(text)) == typed(full(text))


@pytest.mark.parametrize("text", [
    "a: 1.5\n", "a: .inf\n", "a: 1e3\n",  # floats
    "a: 1234567890123456\n",  # an integer too long: refused the full way, with its place
    "a: b # c\n", "a: [1, 2]\n", "a: {b: 1}\n", "a: &x 1\nb: *x\n", "a: !!str 1\n", "a: |\n  text\n",
    "a: b\n  c\n",  # a plain scalar over two lines
    "a: 1\na: 2\n",  # a duplicate key: refused the full way, with its place
    "true: 1\n", "null: 1\n", "1: a\n",  # keys that are not text
    "a:\tb\n", "a: b\r\n", "a: caf\u00e9\n", "a: \x07\n",
    "---\na: 1\n", "a: 1\n...\n", "a: 1\n---\nb: 2\n",
    "", "# only a comment\n", "just text\n", "- \n", "-\n", "a: -\n",
    "a:\n  b: 1\n c: 2\n",  # an indentation that closes nothing
    "a: 1\n  b: 2\n",  # deeper after a value
    "- a\n  - b\n",
    "a: 'it''s'\n", 'a: "x\\ty"\n',  # quoted scalars with escapes
    "a: " + "b" * 9000 + "\n",  # longer than MAX_CHARS
])
def test_what_goes_the_full_way(text):
    assert fast(text) is None


def test_nesting_deeper_than_its_limit_goes_the_full_way():
    deep = "".join(" " * (2 * i) + f"k{i}:\n" for i in range(yamlfast.MAX_DEPTH + 3)) + " " * 60 + "v: 1\n"
    assert fast(deep) is None
    shallow = "".join(" " * (2 * i) + f"k{i}:\n" for i in range(5)) + " " * 10 + "v: 1\n"
    assert typed(fast(shallow)) == typed(full(shallow))


def test_a_refused_text_keeps_its_place_in_the_error():
    with pytest.raises(BadInput) as e:
        yamlio.load("at: 2026-01-01T00:00:00Z\nactor: P1\nactor: P2\n", "content/g/actions/x.yaml")
    p = e.value.problems[0]
    assert "duplicate key 'actor'" in p.message and p.line == 3


def example_files() -> list[Path]:
    return sorted(p for p in (ROOT / "content").rglob("*.yaml") if p.stat().st_size <= yamlfast.MAX_CHARS)


def test_every_example_file_reads_the_same_both_ways():
    files = example_files()
    actions = [p for p in files if p.parent.name == "actions"]
    assert len(actions) > 100
    accepted = 0
    for p in files:
        text = p.read_text(encoding="utf-8")
        quick = fast(text)
        if quick is not None:
            accepted += 1
            assert typed(quick) == typed(full(text)), p
    quick_actions = sum(fast(p.read_text(encoding="utf-8")) is not None for p in actions)
    assert quick_actions >= 0.8 * len(actions)  # the point: most action files take the quick way
    assert accepted >= quick_actions


PIECES = ["\n" + " " * k + x for k in range(7) for x in ("- ", "k:", "k: 1", "- k: v", "#c", "")] + [
    " ", "  ", ":", ": ", "-", "- ", "#", " #", "'", '"', "[", "]", "[]", "{}", "{", ",", "?", "? ", "&a", "*a",
    "!", "!!str ", "|", ">", "%", "@", "`", "a", "1", "0", ".", "e", "true", "null", "Null", "~", "\t", "\\",
    ".5", "1e3", "0x1", "+1", "-0", "12345678901234567", "yes", ".inf", "---", "...", "<<", "=", "\r",
    "\u00e9", "x: y", "00", "01", "1_0", "1:2", " :x"]


def altered(text: str, rng: random.Random) -> str:
    """``text`` with one to three pieces inserted, cut or put in place of a few characters."""
    for _ in range(rng.randint(1, 3)):
        pos = rng.randint(0, len(text))
        op = rng.random()
        if op < 0.5:
            text = text[:pos] + rng.choice(PIECES) + text[pos:]
        elif op < 0.75:
            text = text[:pos] + text[pos + rng.randint(1, 4):]
        else:
            text = text[:pos] + rng.choice(PIECES) + text[pos + rng.randint(1, 3):]
    return text


def test_altered_action_files_never_read_otherwise():
    corpus = [p.read_text(encoding="utf-8") for p in example_files() if p.parent.name == "actions"]
    rng = random.Random(20261122)
    accepted = 0
    for _ in range(4000):
        text = altered(rng.choice(corpus), rng)
        assert agrees(text), repr(text)
        accepted += fast(text) is not None
    assert accepted > 800  # many altered files are still plain, and were compared


def random_layout(rng: random.Random, keys: list[str], scalars: list[str], ends: list[str] | None = None) -> str:
    """One to eight lines of keys, dashes and scalars at random indentations (``ends``: what may end a line)."""
    lines = []
    for _ in range(rng.randint(1, 8)):
        indent = " " * rng.choice([0, 0, 1, 2, 2, 3, 4, 4, 6])
        dash = rng.choice(["", "", "- ", "-  "])
        body = rng.choice([rng.choice(keys) + ":", rng.choice(keys) + ": " + rng.choice(scalars),
                           rng.choice(scalars)])
        lines.append(indent + dash + body + (rng.choice(ends) if ends else ""))
    return "\n".join(lines) + rng.choice(["", "\n"])


def test_random_layouts_never_read_otherwise():
    scalars = ["a", "b c", "1", "-2", "true", "null", "~", "'q'", '"d"', "[]", "{}", "x:y", "2026-01-01T00:00:00Z",
               "it's", "+3", "007", "False"]
    keys = ["a", "b", "c", "k k", "a"]
    rng = random.Random(7)
    accepted = 0
    for _ in range(20000):
        text = random_layout(rng, keys, scalars)
        assert agrees(text), repr(text)
        accepted += fast(text) is not None
    assert accepted > 1500


def fast_large(text: str):
    return yamlfast.load(text, yamlio._plain_value, yamlio.MAX_FILE_BYTES)


def large_documents() -> list[str]:
    """Gamestate documents of the example games grown past the action files' size, as the round trip writes
    them: each list of records repeated with its names made unique (the benchmark's games are ten to a hundred
    times the examples')."""
    out = []
    for p in sorted((ROOT / "content").glob("*/gamestate/*.yaml")):
        data = yamlio._load(p.read_text(encoding="utf-8"), str(p), 0)
        if not isinstance(data, dict):
            continue
        grown = {}
        for k, v in data.items():
            if isinstance(v, list) and v:
                grown[k] = [{"copy": n, **x} if isinstance(x, dict) else x for n in range(40) for x in v]
            else:
                grown[k] = v
        text = yamlio.dump_new(grown)
        if len(text) > yamlfast.MAX_CHARS:
            out.append(text)
    return out


def test_large_gamestate_documents_read_the_same_both_ways():
    """``yamlio.load`` reads a large document the quick way (``_load_large``) when it is plain: what it gives is
    what the full loader gives, and most of the examples' documents, grown large, are plain."""
    texts = large_documents()
    assert len(texts) >= 10
    accepted = 0
    for text in texts:
        quick = fast_large(text)
        if quick is not None:
            accepted += 1
            assert typed(quick) == typed(full(text))
            assert typed(yamlio.load(text, "g.yaml")) == typed(quick)
    assert accepted >= 0.6 * len(texts)


def test_altered_large_documents_never_read_otherwise():
    corpus = [t for t in large_documents() if fast_large(t) is not None]
    rng = random.Random(20261123)
    accepted = 0
    for _ in range(300):
        text = altered(rng.choice(corpus), rng)
        quick = fast_large(text)
        if quick is not None:
            accepted += 1
            whole = full(text)
            assert not isinstance(whole, BadInput) and typed(quick) == typed(whole)
    assert accepted > 25  # an alteration of a long text mostly leaves the subset; those still in it were compared


# ---------------------------------------------------------------- the node tree (yamlfast.compose)


def tree(node):
    """What ``yamlio.patch_text`` reads of a node tree: kinds, scalar text and quoting, flow style, places."""
    import yaml

    if isinstance(node, yaml.ScalarNode):
        return ("scalar", node.value, node.style or None, node.start_mark.index, node.start_mark.column,
                node.end_mark.index)
    kind = "map" if isinstance(node, yaml.MappingNode) else "seq"
    if node.flow_style or not node.value:
        return (kind, bool(node.flow_style), node.start_mark.index, node.start_mark.column, node.end_mark.index)
    inner = [(tree(k), tree(v)) for k, v in node.value] if kind == "map" else [tree(v) for v in node.value]
    return (kind, False, node.start_mark.index, node.start_mark.column, inner)


def trees_agree(text: str, max_chars: int = yamlfast.MAX_CHARS) -> bool:
    """Where the quick reader reads a text, its tree is LibYAML's (which ``patch_text`` otherwise composes)."""
    import yaml

    if yamlfast.load(text, yamlio._plain_value, max_chars) is None:
        return True
    return tree(yamlfast.compose(text)) == tree(yaml.compose(text, Loader=yamlio._ComposeLoader))


def test_the_quick_tree_is_libyamls():
    text = ("# c\nlist:\n- x: 1\n\n  y: 'q'\n  # z\n- 2\n- - 3\nnull:\nflow: []\nmap: {}\nin:\n  f: \"z\"\n  g:\n"
            "  - 1\n  - k: v\n    l:\n    - m\n").replace("- - 3\n", "").replace("null:", "empty:")
    assert trees_agree(text) and yamlfast.load(text, yamlio._plain_value) is not None


def test_quick_trees_of_large_and_altered_documents_are_libyamls():
    corpus = [t for t in large_documents() if fast_large(t) is not None]
    for text in corpus:
        assert trees_agree(text, yamlio.MAX_FILE_BYTES)
    rng = random.Random(20261124)
    for _ in range(150):
        assert trees_agree(altered(rng.choice(corpus), rng), yamlio.MAX_FILE_BYTES)
    actions = [p.read_text(encoding="utf-8") for p in example_files() if p.parent.name == "actions"]
    for _ in range(2000):
        text = altered(rng.choice(actions), rng)
        assert trees_agree(text), repr(text)


def test_random_layouts_give_libyamls_tree():
    scalars = ["a", "b c", "1", "'q'", '"d"', "[]", "{}", "x:y", "null", "~"]
    rng = random.Random(8)
    compared = 0
    for _ in range(10000):
        text = random_layout(rng, list("abc"), scalars, ends=["", "", "  ", " # c"])
        assert trees_agree(text), repr(text)
        compared += yamlfast.load(text, yamlio._plain_value) is not None
    assert compared > 700


def test_a_quick_read_document_is_patched_as_the_full_tree_patches_it():
    """``nomic act`` reads a large document the quick way and rewrites it from the quick tree: the text written
    is the one the full tree gives."""
    rng = random.Random(5)
    corpus = [t for t in large_documents() if len(t) >= yamlio.PATCH_MIN_CHARS and fast_large(t) is not None]
    patched = 0
    for text in corpus:
        data = yamlio.load(text, "g.yaml")
        key = rng.choice([k for k, v in data.items() if isinstance(v, list) and v and isinstance(v[0], dict)] or [None])
        if key is None:
            continue
        new = {**data, key: list(data[key])}
        i = rng.randrange(len(new[key]))
        new[key][i] = {**new[key][i], "copy": 999, "added": "x y"}
        full_way = yamlio.patch_text(text, new, "g.yaml")
        with yamlio.keeping_nodes():
            again = yamlio.load(text, "g.yaml")
            assert yamlio._kept.get(text) is yamlio._QUICK
            quick_way = yamlio.patch_text(text, new, "g.yaml", again)
        assert quick_way == full_way and quick_way is not None
        patched += 1
    assert patched >= 5
