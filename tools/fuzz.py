"""Throw generated input at the loader, the schema check, ``nomic check`` and ``nomic act``; count what happens.

    .venv/bin/python tools/fuzz.py                 # 10,000 inputs (the default split below)
    .venv/bin/python tools/fuzz.py --scale 0.1     # a tenth of that, for a quick look
    .venv/bin/python tools/fuzz.py --seed 7 --markdown

A clean verdict is: the loader returns data or refuses with BadInput (exit 2's
problem); the schema check returns its list of problems; ``nomic check`` and
``nomic act --dry-run`` exit 0, 1 or 2. A crash is any other exception, exit 3
(the command line's "internal error"), or a run over the time limit. Each crash
is printed with the input that caused it (also saved under --crashes), so it can
be turned into a test. The goal is zero crashes; FUZZING.md holds the last figures.

Inputs come from Hypothesis strategies: YAML dumped from random data, real
content files of the example games with random edits, hand-made nasties (YAML
bombs, deep nesting, huge numbers, tags, NUL, invalid UTF-8, duplicate keys),
random bytes, and structured action records for every action of every example
game with parameters drawn from each action's own schema and from the words and
numbers the game's state holds (its rooms, tokens, ids), so they name things that
exist. ``nomic check`` runs in-process (``validators.cli.main``) on a copy of each
example game whose ``initial/`` is its current state, so each input is judged
from a known state; some inputs are a sequence of actions (the later judged on
what the earlier made), some a founding state with one to three fields swapped
for other values of the same field (a state that does not hang together) and an
action or two replayed on it.
"""

from __future__ import annotations

import argparse
import contextlib
import faulthandler
import io
import json
import random
import re
import shutil
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import yaml
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from validators import cli, schemas, yamlio
from validators.content import SCHEMA_LINE, WorkTree, games, load_game
from validators.problems import BadInput

NOW = "2026-12-31T00:00:00Z"
TIME_LIMIT = 20  # seconds for one input; more is a crash (a hang)
SPLIT = {"loader": 3500, "schema": 2500, "check": 2500, "act": 1500}


# ---------------------------------------------------------------- bookkeeping


@dataclass
class Tally:
    name: str
    counts: Counter = field(default_factory=Counter)
    crashes: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def crash(self, what: str, sample: Any, detail: str) -> None:
        self.counts["crash"] += 1
        if len(self.crashes) < 20:
            self.crashes.append({"target": self.name, "what": what, "input": _printable(sample), "detail": detail})


def _printable(sample: Any) -> Any:
    if isinstance(sample, bytes):
        return {"bytes": sample[:2000].hex()}
    if isinstance(sample, str):
        return sample[:2000]
    try:
        json.dumps(sample)
        return sample
    except (TypeError, ValueError):
        return repr(sample)[:2000]


class Hang(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise Hang()


@contextlib.contextmanager
def time_limit(seconds: float):  # type: ignore[no-untyped-def]
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


# ---------------------------------------------------------------- strategies

NASTY_STRINGS = ["", " ", "~", "null", "yes", "NO", "0x1F", "0o17", "1e999", "-.inf", ".nan", "2026-11-22",
                 "2026-11-22T10:00:00Z", "2026-13-45T99:99:99Z", "<script>alert(1)</script>", "javascript:x",
                 "../../etc/passwd", "/etc/passwd", "Ｃｈｉｄｉ", "Chid\u0456", "Alice", "Bruno", "a\u0000b", "\ufeff",
                 "\u202e", "x" * 300, "%", "*a", "&a", "!!python/object:os.system", "{", "[", "- - -", "'", '"',
                 "\\", "\n", "\r\n", "\t", "12345678901234567890", "-0", "+1", "1_000", "3.0", "NaN"]

scalar = st.one_of(
    st.none(), st.booleans(),
    st.integers(min_value=-10, max_value=30), st.integers(), st.integers(min_value=-(10 ** 30), max_value=10 ** 30),
    st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([0.5, 3.0, -1.0, 1e300]),
    st.text(max_size=30), st.sampled_from(NASTY_STRINGS),
)
key = st.one_of(st.text(max_size=12), st.sampled_from(["name", "id", "at", "actor", "action", "params", "stats",
                                                       "players", "votes", "status", "<<", "dice", "outcome"]))
data = st.recursive(scalar, lambda c: st.one_of(st.lists(c, max_size=6), st.dictionaries(key, c, max_size=6)),
                    max_leaves=40)
SPECIAL = "-:?[]{}&*!|>'\"%@`#,\n\t \x00\ufeff\\.0123456789abc"


def _real_texts() -> list[str]:
    out = []
    for game in sorted((ROOT / "content").iterdir()):
        for p in sorted(game.rglob("*")):
            if p.is_file() and p.suffix in (".yaml", ".md") and not p.name.startswith("."):
                try:
                    out.append(p.read_text(encoding="utf-8"))
                except (OSError, UnicodeDecodeError):
                    continue
    random.Random(0).shuffle(out)
    return out[:400]


REAL = _real_texts()


@st.composite
def edited(draw: Any, base: st.SearchStrategy[str]) -> str:
    text = draw(base)
    for _ in range(draw(st.integers(0, 6))):
        if not text:
            text = draw(st.text(alphabet=SPECIAL, max_size=5))
            continue
        i = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["insert", "delete", "replace", "duplicate-line", "indent"]))
        piece = draw(st.one_of(st.text(alphabet=SPECIAL, min_size=1, max_size=4), st.text(min_size=1, max_size=4)))
        if op == "insert":
            text = text[:i] + piece + text[i:]
        elif op == "delete":
            text = text[:i] + text[i + draw(st.integers(1, 20)):]
        elif op == "replace":
            text = text[:i] + piece + text[i + len(piece):]
        else:
            start = text.rfind("\n", 0, i) + 1
            end = text.find("\n", i)
            end = len(text) if end < 0 else end + 1
            line = text[start:end]
            text = text[:end] + (line if op == "duplicate-line" else "  " + line) + text[end:]
    return text


def _nasty(kind: str, n: int) -> str:
    if kind == "flow":
        return "a: " + "[" * n + "]" * n + "\n"
    if kind == "compact":
        return "- " * n + "x\n"
    if kind == "indent":
        return "".join(" " * i + f"k{i}:\n" for i in range(n)) + " " * n + "v\n"
    if kind == "bomb":
        lines = ['a0: &a0 ["lol","lol"]']
        lines += [f"a{i}: &a{i} [*a{i-1},*a{i-1}]" for i in range(1, min(n, 30))]
        return "\n".join(lines) + "\n"
    if kind == "bigint":
        return f"actions: {'9' * n}\n"
    if kind == "float":
        return f"actions: {n}.0\nclock: 2026-11-05T09:00:00Z\n"
    if kind == "dupkey":
        return "name: a\n" * max(2, n % 50)
    if kind == "tag":
        return "a: !!python/object/apply:os.system ['true']\nb: !custom x\nc: !!binary aGk=\n"
    if kind == "merge":
        return "base: &b {x: 1}\nother:\n  <<: *b\n"
    if kind == "long":
        return "text: " + "x" * (n * 1000) + "\n"
    if kind == "many-keys":
        return "".join(f"k{i}: {i}\n" for i in range(n * 50))
    if kind == "nul":
        return "a: b\x00c\n"
    if kind == "crlf":
        return "a: 1\r\nb:\r\n  - 2\r\n"
    if kind == "bom":
        return "\ufeff\ufeffa: 1\n"
    if kind == "documents":
        return "a: 1\n---\nb: 2\n"
    if kind == "tabs":
        return "a:\n\tb: 1\n"
    if kind == "complex-key":
        return "? [a, b]\n: c\n" + "? " * n + "x\n"
    return ""


NASTY_KINDS = ["flow", "compact", "indent", "bomb", "bigint", "float", "dupkey", "tag", "merge", "long", "many-keys",
               "nul", "crlf", "bom", "documents", "tabs", "complex-key"]
nasty = st.builds(_nasty, st.sampled_from(NASTY_KINDS), st.one_of(st.integers(1, 60), st.integers(60, 3000)))
dumped = data.map(lambda d: yaml.safe_dump(d, allow_unicode=True, sort_keys=False))
yaml_text = st.one_of(dumped, edited(st.sampled_from(REAL)), nasty, edited(nasty), st.text(max_size=200),
                      edited(dumped))
raw_bytes = st.one_of(st.binary(max_size=300), yaml_text.map(lambda t: t.encode("utf-8", "surrogatepass")),
                      st.tuples(yaml_text, st.binary(min_size=1, max_size=4)).map(
                          lambda tb: tb[0].encode("utf-8", "surrogatepass") + tb[1]))


# ---------------------------------------------------------------- targets


def _run(settings_: tuple[settings, int], strategy: st.SearchStrategy, body: Callable[[Any], None]) -> None:
    @seed(settings_[1])
    @settings_[0]
    @given(strategy)
    def run(sample: Any) -> None:
        body(sample)

    run()


def fuzz_loader(n: int, seed: int) -> Tally:
    tally = Tally("loader")

    def body(sample: bytes) -> None:
        try:
            with time_limit(TIME_LIMIT):
                text = yamlio.read_text("fuzz.yaml", "fuzz.yaml", sample)
                yamlio.load(text, "fuzz.yaml")
                if len(text) < 20000:
                    yamlio.rt_load(text, "fuzz.yaml")  # nomic act's round trip accepts what the checker does
            tally.counts["accepted"] += 1
        except BadInput as e:
            tally.counts["refused (exit 2)"] += 1
            if not all(p.file == "fuzz.yaml" for p in e.problems):
                tally.crash("refusal without its file", sample, str(e))
        except Hang:
            tally.crash("hang", sample, f"over {TIME_LIMIT}s")
        except Exception:  # noqa: BLE001 - any exception is what the fuzzer counts as a crash
            tally.crash("exception", sample, traceback.format_exc(limit=6))

    _run(_settings(n, seed), raw_bytes, body)
    return tally


SCHEMAS = sorted(p.name for p in schemas.SCHEMA_DIR.glob("*.schema.json") if p.name != "common.schema.json")


@st.composite
def schema_input(draw: Any) -> tuple[str, Any, str | None]:
    name = draw(st.sampled_from(SCHEMAS))
    how = draw(st.sampled_from(["data", "text", "mutated-real"]))
    if how == "data":
        return name, draw(data), None
    text = draw(yaml_text if how == "text" else edited(st.sampled_from(REAL)))
    return name, text, text


def _mutate(value: Any, rng: random.Random, new: Any) -> Any:
    """Replace one node somewhere in ``value`` with ``new``."""
    if isinstance(value, dict) and value and rng.random() < 0.8:
        k = rng.choice(list(value))
        return {**value, k: _mutate(value[k], rng, new)}
    if isinstance(value, list) and value and rng.random() < 0.8:
        i = rng.randrange(len(value))
        return value[:i] + [_mutate(value[i], rng, new)] + value[i + 1:]
    return new


def fuzz_schema(n: int, seed: int) -> Tally:
    tally = Tally("schema")
    real_docs = []
    for text in REAL:
        try:
            real_docs.append(yamlio.load(text, "x"))
        except BadInput:
            continue

    def body(sample: tuple[str, Any, str | None, int, Any]) -> None:
        name, value, text, pick, new = sample
        try:
            with time_limit(TIME_LIMIT):
                if text is not None:
                    try:
                        value = yamlio.load(text, "fuzz.yaml")
                    except BadInput:
                        tally.counts["refused by the loader"] += 1
                        return
                elif real_docs and pick % 2:
                    value = _mutate(real_docs[pick % len(real_docs)], random.Random(pick), new)
                found = schemas.errors(value, schema=name, file="fuzz.yaml", text=text)
            tally.counts["valid" if not found else "problems reported"] += 1
        except Hang:
            tally.crash("hang", sample, f"over {TIME_LIMIT}s")
        except Exception:  # noqa: BLE001 - any exception is what the fuzzer counts as a crash
            tally.crash("exception", sample, traceback.format_exc(limit=6))

    strategy = st.tuples(st.sampled_from(SCHEMAS), st.just(None), st.none(), st.integers(0, 10 ** 6), data)
    _run(_settings(n, seed), st.one_of(schema_input().map(lambda s: (*s, 0, None)), strategy), body)
    return tally


# ---------------------------------------------------------------- a playground of the example games


@dataclass
class Vocab:
    """What an action's parameters may name: players, and the words and numbers found in the game's state."""
    names: list[str]
    words: list[str] = field(default_factory=list)  # strings and keys of the gamestate: rooms, tokens, items...
    numbers: list[int] = field(default_factory=list)  # its integers: ids of proposals, tokens, nomsters...
    by_key: dict[str, list[Any]] = field(default_factory=dict)  # the values seen under each key: rooms under room


def vocabulary(docs: dict[str, Any], names: list[str]) -> Vocab:
    """The short strings, keys and integers of a game's state, so generated parameters name things that exist."""
    words: set[str] = set()
    numbers: set[int] = set()
    by_key: dict[str, set[Any]] = {}

    def walk(v: Any, under: str) -> None:
        if isinstance(v, dict):
            for k, x in v.items():
                walk(k, "")
                walk(x, str(k))
        elif isinstance(v, list):
            for x in v:
                walk(x, under)
        elif isinstance(v, str) and 0 < len(v) <= 80 and "\n" not in v:
            words.add(v)
            by_key.setdefault(under, set()).add(v)
        elif isinstance(v, int) and not isinstance(v, bool) and -10 <= v <= 10 ** 6:
            numbers.add(v)
            by_key.setdefault(under, set()).add(v)

    walk(docs, "")
    return Vocab(names, sorted(words), sorted(numbers),
                 {k: sorted(v, key=lambda x: (isinstance(x, str), x)) for k, v in by_key.items()})


@dataclass
class Game:
    name: str
    clock: str
    players: list[str]
    vocab: Vocab
    actions: dict[str, dict[str, Any]]  # name -> params schema
    docs: list[str]  # gamestate file paths, relative to the repository
    rules: list[str]


def playground() -> tuple[Path, list[Game]]:
    """A temporary repository holding each example game, its initial/ being its current state, its log empty."""
    root = Path(tempfile.mkdtemp(prefix="nomic-fuzz-"))
    out = []
    for name in games(WorkTree(ROOT)):
        src = ROOT / "content" / name
        dst = root / "content" / name
        shutil.copytree(src, dst, ignore=shutil.ignore_patterns(".*"))
        shutil.rmtree(dst / "initial", ignore_errors=True)
        shutil.rmtree(dst / "actions", ignore_errors=True)
        (dst / "actions").mkdir()
        (dst / "initial").mkdir()
        shutil.copytree(dst / "gamestate", dst / "initial" / "gamestate")
        shutil.copytree(dst / "ruleset", dst / "initial" / "ruleset")
        for doc in (dst / "initial" / "gamestate").glob("*.yaml"):  # one folder deeper: one more ../
            text = doc.read_text(encoding="utf-8")
            doc.write_text(text.replace("$schema=../../../schemas/", "$schema=../../../../schemas/", 1),
                           encoding="utf-8")
        try:
            files = load_game(WorkTree(root), name)
        except BadInput as e:
            print(f"skipping {name}: {e}", file=sys.stderr)
            shutil.rmtree(dst)
            continue
        rc = _cli(["--repo", str(root), "check", "--game", name, "--now", NOW])[0]
        if rc != 0:
            print(f"skipping {name}: its playground does not check green (exit {rc})", file=sys.stderr)
            shutil.rmtree(dst)
            continue
        clock = files.state.docs["ledger"].get("clock") or "2026-11-01T00:00:00Z"
        players = [p["name"] for p in files.state.players()]
        out.append(Game(name, clock, players, vocabulary(dict(files.state.docs), players),
                        {a.name: dict(a.params) for a in files.registry.actions.values()},
                        sorted(files.doc_paths.values()), sorted(files.rule_paths.values())))
    return root, out


def _cli(argv: list[str]) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(argv)
    return code, err.getvalue()


COMMON = json.loads((schemas.SCHEMA_DIR / "common.schema.json").read_text(encoding="utf-8"))["$defs"]


def value_for(schema: Any, vocab: Vocab) -> st.SearchStrategy:
    """Values near what an action's parameter schema wants, and some that are not."""
    if not isinstance(schema, dict):
        return data
    ref = str(schema.get("$ref", ""))
    if ref.startswith(("common.schema.json#/$defs/", "#/$defs/")) and ref.rsplit("/", 1)[1] in COMMON \
            and not ref.endswith(("/name", "/time")):
        schema = {**COMMON[ref.rsplit("/", 1)[1]], **{k: v for k, v in schema.items() if k != "$ref"}}
    wrong = st.one_of(scalar, data)
    if "anyOf" in schema or "oneOf" in schema:
        right: st.SearchStrategy = st.one_of([value_for(x, vocab) for x in schema.get("anyOf", schema.get("oneOf"))])
    elif schema.get("type") == "string" and "pattern" in schema and "enum" not in schema:
        right = st.from_regex(schema["pattern"], fullmatch=True).filter(lambda x: len(x) < 200)
        fits = [w for w in vocab.words if re.fullmatch(schema["pattern"], w)]
        if fits:  # a location, a label... that the state holds
            right = st.one_of(right, st.sampled_from(fits))
    elif "enum" in schema:
        right = st.sampled_from(list(schema["enum"]))
    elif "const" in schema:
        right = st.just(schema["const"])
    else:
        t = schema.get("type")
        ref = str(schema.get("$ref", ""))
        if isinstance(t, list):
            t = t[0] if t else None
        if t == "integer" or ref.endswith(("/count", "/int")):
            right = st.one_of(st.integers(-2, 12), st.integers(min_value=schema.get("minimum", -(10 ** 6)),
                                                               max_value=schema.get("maximum", 10 ** 6)))
            if vocab.numbers:  # an id or count the state holds
                right = st.one_of(right, st.sampled_from(vocab.numbers))
        elif t == "number":
            right = st.one_of(st.integers(-2, 12), st.floats(-100, 100))
        elif t == "boolean":
            right = st.booleans()
        elif ref.endswith("/name"):
            right = st.sampled_from(vocab.names + ["Zed", "Chid\u0456"])
        elif ref.endswith("/time"):
            right = st.sampled_from(["2026-11-06T10:00:00Z", "2026-12-01T00:00:00Z", "2026-02-30T00:00:00Z"])
        elif t == "string" or ref:
            right = st.one_of(st.sampled_from(vocab.names), st.text(max_size=30), st.sampled_from(NASTY_STRINGS),
                              st.sampled_from(["1", "a", "13a", "north", "FOR", "north-east", "A1", "0,0"]),
                              *([st.sampled_from(vocab.words)] * 3 if vocab.words else []))  # a room, a token...
        elif t == "array":
            right = st.lists(value_for(schema.get("items", {}), vocab), max_size=4)
        elif t == "object" or "properties" in schema:
            right = params_for(schema, vocab)
        else:
            right = wrong
    # mostly right, so most inputs get past the schema and reach the rules (Hypothesis's own choices lean to
    # the first branch and to small numbers, even in its Random: the rare branch is the high end)
    return st.randoms(use_true_random=False).flatmap(lambda r: wrong if r.random() > 0.94 else right)


def params_for(schema: dict[str, Any], vocab: Vocab) -> st.SearchStrategy:
    props = schema.get("properties", {})
    if not props:
        return st.one_of(st.just({}), st.dictionaries(key, scalar, max_size=2))
    required = set(schema.get("required", []))
    fixed = {k: value_for(v, vocab) for k, v in props.items() if k in required}
    optional = {k: value_for(v, vocab) for k, v in props.items() if k not in required}
    return st.fixed_dictionaries(fixed, optional=optional)


@st.composite
def action_record(draw: Any, game: Game) -> dict[str, Any]:
    from datetime import timedelta

    from validators.timeutil import format_time, parse_time

    rng = draw(st.randoms(use_true_random=False))
    name = rng.choice(sorted(game.actions)) if rng.random() < 0.95 else rng.choice(["core.nothing", "x"])
    at = parse_time(game.clock) + timedelta(minutes=draw(st.integers(-60, 60 * 24 * 30)))
    actor = rng.choice(game.players) if rng.random() < 0.95 else rng.choice(["Zed", "alice"])
    record: dict[str, Any] = {"at": format_time(at), "actor": actor}
    record["action"] = name
    params = draw(params_for(game.actions.get(name, {}), game.vocab))
    if params or draw(st.booleans()):
        record["params"] = params
    if rng.random() > 0.96:
        record[rng.choice(["dice", "outcome", "note", "extra"])] = draw(data)
    return record


def _leaves(value: Any, path: tuple = ()) -> list[tuple]:
    """The paths to the strings and integers inside ``value``."""
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _leaves(v, (*path, k))]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _leaves(v, (*path, i))]
    return [path] if isinstance(value, (str, int)) and not isinstance(value, bool) and path else []


def swapped(doc: Any, vocab: Vocab, rng: random.Random) -> Any:
    """``doc`` with one to three strings or integers swapped for others the state holds: still of the schema's
    types, mostly, but naming the wrong room, a missing id, a player twice -- a state that does not hang together."""
    doc = json.loads(json.dumps(doc, default=str))
    for _ in range(rng.randint(1, 3)):
        paths = _leaves(doc)
        if not paths:
            break
        *parent, last = rng.choice(paths)
        node = doc
        for k in parent:
            node = node[k]
        under = next((str(k) for k in reversed((*parent, last)) if isinstance(k, str)), "")
        pool = [v for v in vocab.by_key.get(under, []) if v != node[last]]  # another value of the same field
        if not pool or rng.random() < 0.2:
            pool = vocab.numbers if isinstance(node[last], int) else vocab.names + vocab.words
        if pool:
            node[last] = rng.choice(pool)
    return doc


def _action_file(record: dict[str, Any], taken: set[str] | None = None) -> tuple[str, str]:
    from validators.act import action_filename

    try:
        fname = action_filename(record)
    except Exception:  # noqa: BLE001 - a record too odd to name: any name will do, the check refuses it
        fname = "20261106T100000Z--Zed--core.vote.yaml"
    while taken and fname in taken:  # a second action of one name in one second: the check refuses it all the same
        fname = fname.removesuffix(".yaml") + "x.yaml"
    text = f"{SCHEMA_LINE}../../../schemas/action.schema.json\n" + yaml.safe_dump(record, allow_unicode=True,
                                                                                 sort_keys=False)
    return fname, text


def fuzz_check(n: int, seed: int, root: Path, pool: list[Game]) -> Tally:
    tally = Tally("check")

    @st.composite
    def case(draw: Any) -> tuple[str, list[tuple[str, str]]]:
        game = draw(st.sampled_from(pool))
        how = draw(st.sampled_from(["action", "action", "action", "edited-action", "gamestate", "rule", "sequence",
                                          "initial"]))
        if how in ("action", "edited-action"):
            fname, text = _action_file(draw(action_record(game)))
            if how == "edited-action":
                text = draw(edited(st.just(text)))
            return game.name, [(f"content/{game.name}/actions/{fname}", text)]
        if how == "initial":  # the founding state does not hang together; replay an action or two on it
            path = draw(st.sampled_from(game.docs)).replace("/gamestate/", "/initial/gamestate/", 1)
            original = (root / path).read_text(encoding="utf-8")
            head = original.split("\n", 1)[0] + "\n" if original.startswith(SCHEMA_LINE) else ""
            doc = swapped(yamlio.load(original, path), game.vocab, draw(st.randoms(use_true_random=False)))
            files = [(path, head + yaml.safe_dump(doc, allow_unicode=True, sort_keys=False))]
            taken: set[str] = set()
            for record in sorted(draw(st.lists(action_record(game), min_size=1, max_size=3)), key=lambda r: r["at"]):
                fname, text = _action_file(record, taken)
                taken.add(fname)
                files.append((f"content/{game.name}/actions/{fname}", text))
            return game.name, files
        if how == "sequence":  # several actions in a row: the later ones are judged on the state the earlier made
            records = sorted(draw(st.lists(action_record(game), min_size=2, max_size=5)), key=lambda r: r["at"])
            taken = set()
            files = []
            for record in records:
                fname, text = _action_file(record, taken)
                taken.add(fname)
                files.append((f"content/{game.name}/actions/{fname}", text))
            return game.name, files
        path = draw(st.sampled_from(game.docs if how == "gamestate" else game.rules))
        original = (root / path).read_text(encoding="utf-8")
        return game.name, [(path, draw(st.one_of(edited(st.just(original)), yaml_text)))]

    def body(sample: tuple[str, list[tuple[str, str]]]) -> None:
        game, files = sample
        shown = [{"path": path, "text": text} for path, text in files]
        originals = {}
        try:
            for path, text in files:
                target = root / path
                if target not in originals:  # two odd records may share the fallback name: keep the first original
                    originals[target] = target.read_bytes() if target.exists() else None
                target.write_text(text, encoding="utf-8", errors="surrogatepass")
            with time_limit(TIME_LIMIT * 3):
                code, err = _cli(["--repo", str(root), "check", "--game", game, "--now", NOW])
            if code in (0, 1, 2):
                tally.counts[f"exit {code}"] += 1
            else:
                tally.crash(f"exit {code}", shown, err[-3000:])
        except Hang:
            tally.crash("hang", shown, f"over {TIME_LIMIT * 3}s")
        except Exception:  # noqa: BLE001 - any exception is what the fuzzer counts as a crash
            tally.crash("exception", shown, traceback.format_exc(limit=8))
        finally:
            for target, original in originals.items():
                if original is None:
                    target.unlink(missing_ok=True)
                else:
                    target.write_bytes(original)

    _run(_settings(n, seed), case(), body)
    return tally


def fuzz_act(n: int, seed: int, root: Path, pool: list[Game]) -> Tally:
    tally = Tally("act")

    @st.composite
    def argv(draw: Any) -> list[str]:
        game = draw(st.sampled_from(pool))
        record = draw(action_record(game))
        rng = draw(st.randoms(use_true_random=False))
        pairs = []
        for k, v in (record.get("params") or {}).items():
            if rng.random() > 0.9:
                raw = draw(st.one_of(st.text(max_size=40), st.sampled_from(NASTY_STRINGS)))
            else:
                raw = json.dumps(v, ensure_ascii=False)  # JSON is YAML: the value arrives as it was drawn
            pairs.append(f"{k}={raw}")
        if rng.random() > 0.85:
            pairs.append(draw(st.sampled_from(["=", "x", "Bad-Key=1", "k=@/nonexistent", "k=@/dev/zero",
                                               "k=" + "[" * 100, "k=" + "9" * 40, "k=\x00"])))
        extra = draw(st.sampled_from([[], [], [], ["--note", draw(st.text(max_size=60))], ["--at", "yesterday"],
                                      ["--format", "json"], ["--note", "x" * 3000]]))  # mostly none: reach the rules
        return ["--repo", str(root), "act", game.name, record["action"], *pairs, "--as", record["actor"],
                "--at", record["at"], *extra, "--dry-run", "-q", "--now", NOW]

    def body(args: list[str]) -> None:
        try:
            with time_limit(TIME_LIMIT * 3):
                code, err = _cli(args)
            if code in (0, 1, 2):
                tally.counts[f"exit {code}"] += 1
            else:
                tally.crash(f"exit {code}", args, err[-3000:])
        except Hang:
            tally.crash("hang", args, f"over {TIME_LIMIT * 3}s")
        except Exception:  # noqa: BLE001 - any exception is what the fuzzer counts as a crash
            tally.crash("exception", args, traceback.format_exc(limit=8))

    _run(_settings(n, seed), argv(), body)
    return tally


def _settings(n: int, seed_: int) -> tuple[settings, int]:
    return settings(max_examples=n, database=None, deadline=None, phases=[Phase.generate],
                    suppress_health_check=list(HealthCheck), print_blob=False), seed_


# ---------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    p.add_argument("--scale", type=float, default=1.0, help="multiply every target's count (default 1: 10,000)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--only", action="append", choices=sorted(SPLIT), help="run only this target (repeatable)")
    p.add_argument("--crashes", default="test-artifacts/fuzz-crashes.json", help="where to save crash samples")
    p.add_argument("--markdown", action="store_true", help="print the figures as a Markdown table")
    args = p.parse_args(argv)
    faulthandler.enable()
    random.seed(args.seed)
    counts = {k: max(1, int(v * args.scale)) for k, v in SPLIT.items() if not args.only or k in args.only}
    tallies: list[Tally] = []
    root, pool = (None, []) if not ({"check", "act"} & set(counts)) else playground()
    try:
        for target, n in counts.items():
            start = time.monotonic()
            if target == "loader":
                t = fuzz_loader(n, args.seed)
            elif target == "schema":
                t = fuzz_schema(n, args.seed)
            elif target == "check":
                t = fuzz_check(n, args.seed, root, pool)
            else:
                t = fuzz_act(n, args.seed, root, pool)
            t.seconds = time.monotonic() - start
            tallies.append(t)
            print(f"{target}: {t.total} inputs in {t.seconds:.0f}s: " + ", ".join(
                f"{k} {v}" for k, v in sorted(t.counts.items())), flush=True)
    finally:
        if root is not None:
            shutil.rmtree(root, ignore_errors=True)
    total = sum(t.total for t in tallies)
    crashes = sum(t.counts["crash"] for t in tallies)
    print(f"total: {total} inputs, {total - crashes} clean verdicts, {crashes} crashes"
          f" (games: {', '.join(g.name for g in pool) or 'none'})")
    samples = [c for t in tallies for c in t.crashes]
    if samples:
        out = ROOT / args.crashes
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(samples, indent=2, ensure_ascii=False), encoding="utf-8")
        for c in samples[:5]:
            print(f"--- {c['target']}: {c['what']}\n{json.dumps(c['input'], ensure_ascii=False)[:500]}\n{c['detail']}")
        print(f"crash samples saved to {out}")
    if args.markdown:
        print("\n| target | inputs | clean verdicts | crashes | time |\n|---|---:|---:|---:|---:|")
        for t in tallies:
            clean = ", ".join(f"{k}: {v}" for k, v in sorted(t.counts.items()) if k != "crash")
            print(f"| {t.name} | {t.total} | {clean} | {t.counts['crash']} | {t.seconds:.0f} s |")
    return 1 if crashes else 0


if __name__ == "__main__":
    raise SystemExit(main())
