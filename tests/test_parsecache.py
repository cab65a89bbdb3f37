"""The parse cache (validators/parsecache.py): a large file is parsed once, and nothing a check says changes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.gitgame import make_repo, nomic
from validators import parsecache, yamlio
from validators.problems import BadInput


def big_text(seed: str = "a", rows: int = 400) -> str:
    """A document over MIN_CHARS holding every kind of value a content file can give."""
    lines = ["# a large document", "items:"]
    for i in range(rows):
        lines += [f"  - id: {i}", f"    name: 'item {seed} {i}'", "    whole: 3", "    float: 3.0",
                  "    yes: true", "    none: null", "    text: \"1\"", "    word: \"é ☃ \\u00e9\"",
                  "    nested: {a: [1, 2.5, false], b: {c: ''}}"]
    text = "\n".join(lines) + "\n"
    assert len(text) >= parsecache.MIN_CHARS
    return text


def entries(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if not p.name.startswith(".")) if folder.exists() else []


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("NOMIC_CACHE", str(folder))
    return folder


def test_a_large_file_is_kept_and_read_back_with_its_types(cache):
    text = big_text()
    first = yamlio.load(text, "big.yaml")
    assert len(entries(cache)) == 1
    second = yamlio.load(text, "big.yaml")
    assert yamlio._same_walk(first, second) and first == second
    item = second["items"][7]
    # 3 and 3.0, true and 1, "1" and 1 stay apart through the cache
    assert type(item["whole"]) is int and type(item["float"]) is float and item["yes"] is True
    assert item["none"] is None and item["text"] == "1" and item["word"] == "é ☃ é"
    assert item["nested"] == {"a": [1, 2.5, False], "b": {"c": ""}} and type(item["nested"]["a"][2]) is bool
    assert second is not first and second["items"][0] is not first["items"][0]  # each load is fresh data


def test_the_second_load_comes_from_the_entry(cache):
    text = big_text()
    yamlio.load(text, "big.yaml")
    [entry] = entries(cache)
    entry.write_text(json.dumps({"from": "the entry"}), encoding="ascii")
    assert yamlio.load(text, "big.yaml") == {"from": "the entry"}
    # one character more is another text: parsed, and kept under its own key
    assert yamlio.load(text + "extra: 1\n", "big.yaml")["extra"] == 1
    assert len(entries(cache)) == 2


def test_small_files_are_not_kept(cache):
    assert yamlio.load("a: 1\n", "small.yaml") == {"a": 1}
    assert entries(cache) == []


def test_bad_input_is_refused_every_time_and_never_kept(cache):
    text = big_text() + "items: again\n"  # a duplicate key on the last line
    line = text.count("\n")
    for _ in range(2):
        with pytest.raises(BadInput) as e:
            yamlio.load(text, "big.yaml")
        [problem] = e.value.problems
        assert "duplicate key 'items'" in problem.message and problem.line == line
    assert entries(cache) == []


def test_an_entry_that_does_not_read_back_is_parsed_again_and_rewritten(cache):
    text = big_text()
    want = yamlio.load(text, "big.yaml")
    [entry] = entries(cache)
    entry.write_text('{"items": [', encoding="ascii")  # cut short
    assert yamlio.load(text, "big.yaml") == want
    assert json.loads(entry.read_text(encoding="ascii")) == want


def test_the_oldest_entries_are_removed_past_the_limit(cache, monkeypatch):
    monkeypatch.setattr(parsecache, "MAX_ENTRIES", 3)
    texts = [big_text(seed) for seed in "abcde"]
    for n, text in enumerate(texts):
        yamlio.load(text, f"{n}.yaml")
        for e in entries(cache):  # distinct times, oldest first, whatever the file system's resolution
            os.utime(e, (1_000_000 + n, 1_000_000 + n)) if e.name == parsecache.key(text) else None
    kept = {e.name for e in entries(cache)}
    assert kept == {parsecache.key(t) for t in texts[2:]}


def test_a_cache_that_cannot_be_written_only_means_parsing(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory", encoding="utf-8")
    monkeypatch.setenv("NOMIC_CACHE", str(blocker / "cache"))
    text = big_text()
    assert yamlio.load(text, "big.yaml")["items"][0]["id"] == 0
    assert blocker.read_text(encoding="utf-8") == "not a directory"


@pytest.mark.parametrize("env, where", [
    ({"NOMIC_CACHE": "off"}, None),
    ({"NOMIC_CACHE": "0"}, None),
    ({"CI": "true"}, None),  # CI machines start empty, and a shared CI cache is not to be trusted
    ({"CI": "true", "NOMIC_CACHE": "on"}, "xdg/nomic/parsed"),
    ({}, "xdg/nomic/parsed"),
    ({"NOMIC_CACHE": "{tmp}/elsewhere"}, "elsewhere"),
])
def test_where_the_cache_lives(tmp_path, monkeypatch, env, where):
    monkeypatch.delenv("NOMIC_CACHE", raising=False)
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    for k, v in env.items():
        monkeypatch.setenv(k, v.format(tmp=tmp_path))
    folder = parsecache.directory()
    assert (folder is None) if where is None else folder == tmp_path / where


def test_the_key_depends_on_the_loader(monkeypatch):
    text = big_text()
    before = parsecache.key(text)
    monkeypatch.setattr(parsecache, "_salt", b"another loader")
    assert parsecache.key(text) != before


def test_the_loader_is_both_readers(monkeypatch):
    """A change to the full loader or to the quick reader of plain files makes every entry a miss."""
    read = []
    real = Path.read_bytes

    def recording(self):
        read.append(self.name)
        return real(self)

    monkeypatch.setattr(parsecache, "_salt", None)
    monkeypatch.setattr(Path, "read_bytes", recording)
    parsecache.key("x")
    assert {"yamlio.py", "yamlfast.py", "parsecache.py"} <= set(read)


# ---------------------------------------------------------------- the commands, end to end

def padded_repo(tmp_path: Path) -> tuple[Path, Path]:
    """The example game with its gamestate proposals made large by a comment (the data is unchanged)."""
    repo = make_repo(tmp_path)
    doc = repo / "content" / "blognomic" / "gamestate" / "proposals.yaml"
    text = doc.read_text(encoding="utf-8")
    first, rest = text.split("\n", 1)
    pad = "".join(f"# padding line {i:05d}: this comment makes the file large enough to be cached\n"
                  for i in range(300))
    doc.write_text(first + "\n" + pad + rest, encoding="utf-8")
    return repo, doc


def test_nomic_check_says_the_same_with_the_cache_warm(tmp_path):
    repo, doc = padded_repo(tmp_path)
    folder = tmp_path / "cache"
    on = {"NOMIC_CACHE": str(folder)}
    off = {"NOMIC_CACHE": "off"}
    now = ["--now", "2026-11-22T12:00:00Z"]

    cold = nomic(repo, "check", *now, env=off)
    assert cold.returncode == 0, cold.stdout + cold.stderr
    for _ in range(2):  # the first fills the cache, the second reads from it
        r = nomic(repo, "check", *now, env=on)
        assert (r.returncode, r.stdout) == (cold.returncode, cold.stdout)
    assert len(entries(folder)) == 1

    # a vote changed by hand in the cached file: a new text, found and refused on its line either way
    text = doc.read_text(encoding="utf-8")
    assert "Dana: FOR" in text
    doc.write_text(text.replace("Dana: FOR", "Dana: AGAINST", 1), encoding="utf-8")
    changed_off = nomic(repo, "check", *now, env=off)
    changed_on = nomic(repo, "check", *now, env=on)
    assert changed_off.returncode == 1, changed_off.stdout
    assert "gamestate/proposals.yaml:" in changed_off.stdout
    assert (changed_on.returncode, changed_on.stdout) == (changed_off.returncode, changed_off.stdout)

    # bad input in the large file: refused with its line, cache or not
    doc.write_text(text.replace("\n  - ", "\n\t- ", 1), encoding="utf-8")
    bad_off = nomic(repo, "check", *now, env=off)
    bad_on = nomic(repo, "check", *now, env=on)
    assert bad_off.returncode == 2 and "tab in indentation" in bad_off.stdout
    assert (bad_on.returncode, bad_on.stdout) == (bad_off.returncode, bad_off.stdout)
