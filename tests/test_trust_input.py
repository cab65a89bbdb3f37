"""Bad input through every door: action parameters, files given with key=@file, command-line values, and
content files built to crash the parser. Each ends in exit 2 with its place, no traceback, nothing written.

tests/test_bad_input.py holds the folder of bad content files; these are the rest.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.gitgame import make_repo, nomic
from validators import yamlio
from validators.problems import BadInput

GAME = "content/blognomic"
NOW = ["--now", "2026-11-22T12:00:00Z"]
VOTE = ["act", "blognomic", "core.vote"]
AS_DANA = ["--as", "Dana", "--at", "2026-11-06T10:00:00Z", *NOW]


def snapshot(root: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in root.rglob("*") if p.is_file() and ".git" not in p.parts}


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    return make_repo(tmp_path_factory.mktemp("input"))


@pytest.mark.parametrize("params, says", [
    (["proposal=3.0", "vote=FOR"], 'params.proposal: 3.0 is not a whole number'),
    (["proposal=3.5", "vote=FOR"], 'params.proposal: 3.5 is not a whole number'),
    (["proposal=true", "vote=FOR"], 'params.proposal: true is not a whole number'),
    (["proposal=" + "9" * 40, "vote=FOR"], "integer with 40 digits is too large"),
    (["proposal=.inf", "vote=FOR"], "infinite or NaN numbers are not allowed"),
    (["proposal=3", "vote=" + "[" * 60 + "]" * 60], "nested deeper than 40 levels"),
    (["proposal=3", "vote=" + "- " * 15000 + "x"], "value is too long"),
    (["proposal=3", "vote=&a [*a]"], "aliases and anchors are not allowed"),
    (["proposal=3", "vote=[.nan]"], "infinite or NaN numbers are not allowed"),
    (["proposal=3", "vote={a: 1, a: 2}"], "duplicate key 'a'"),
    (["proposal=3", "vote=!!python/object/apply:os.system [true]"], "is not allowed in content files"),
    (["proposal=3", "vote=FOR", "extra=1"], "params.extra: unknown field 'extra'"),
    (["proposal=3", "vote=F\x01OR"], "control characters are not allowed"),
    (["proposal=3", "vote=FOR", "Bad-Key=1"], "parameter name 'Bad-Key' is not valid"),
])
def test_bad_parameters_are_refused_and_nothing_written(repo, params, says):
    before = snapshot(repo / "content")
    r = nomic(repo, *VOTE, *params, *AS_DANA)
    assert r.returncode == 2, r.stdout + r.stderr
    assert says in r.stdout, r.stdout
    assert "Traceback" not in r.stdout + r.stderr
    assert snapshot(repo / "content") == before


@pytest.mark.parametrize("content, says", [
    (b"a: \xff\xfe\n", "bytes that are not UTF-8"),
    (b"a: b\x00\n", "NUL character"),
    (b"a: &x [1]\nb: *x\n", "aliases and anchors are not allowed"),
    (b"a: 1\na: 2\n", "duplicate key 'a'"),
    (b"- " * 30000 + b"x\n", "nested deeper than 40 levels"),
])
def test_a_bad_parameter_file_is_refused(repo, tmp_path, content, says):
    f = tmp_path / "p.yaml"
    f.write_bytes(content)
    before = snapshot(repo / "content")
    r = nomic(repo, "act", "blognomic", "core.propose", "title=T", f"effects=@{f}", "--as", "Chidi", "--at",
              "2026-11-06T10:00:00Z", *NOW)
    assert r.returncode == 2, r.stdout + r.stderr
    assert says in r.stdout
    assert "Traceback" not in r.stdout + r.stderr
    assert snapshot(repo / "content") == before


def test_a_parameter_file_over_the_size_limit_is_refused(repo, tmp_path):
    f = tmp_path / "big.md"
    with open(f, "wb") as out:
        out.truncate(yamlio.MAX_FILE_BYTES + 1)
    r = nomic(repo, "act", "blognomic", "core.propose", "title=T", f"text=@{f}", "--as", "Chidi", "--at",
              "2026-11-06T10:00:00Z", *NOW)
    assert r.returncode == 2
    assert f"the limit is {yamlio.MAX_FILE_BYTES}" in r.stdout


@pytest.mark.parametrize("args, says", [
    (["--note", "x" * 2001], "note: "),
    (["--as", "D" * 41], "actor: "),
    (["--at", "2026-11-06T10:00:00+24:00"], "the offset +24:00 is not a time zone's"),  # +02:00 is converted
    (["--at", "9999999999"], "is not a UTC time"),
])
def test_bad_command_line_values_are_refused(repo, args, says):
    base = ["act", "blognomic", "core.vote", "proposal=3", "vote=FOR"]
    extra = {"--as": "Dana", "--at": "2026-11-06T10:00:00Z"}
    for flag, value in zip(args[::2], args[1::2]):
        extra[flag] = value
    argv = base + [x for kv in extra.items() for x in kv] + NOW + ([args[0], args[1]] if args[0] == "--note" else [])
    before = snapshot(repo / "content")
    r = nomic(repo, *argv)
    assert r.returncode == 2, r.stdout + r.stderr
    assert says in r.stdout + r.stderr
    assert "Traceback" not in r.stdout + r.stderr
    assert snapshot(repo / "content") == before


def test_a_compact_nesting_bomb_does_not_crash_the_parser():
    # 400 kB of "- - - ..." once overflowed LibYAML's recursive composer (a segfault, not an exception)
    with pytest.raises(BadInput) as e:
        yamlio.load("- " * 200000 + "x\n", "f.yaml")
    assert e.value.problems[0].text().startswith("f.yaml:1:")
    assert "nested deeper than 40 levels" in str(e.value)
    deep_indent = "".join(" " * i + f"k{i}:\n" for i in range(2000)) + " " * 2000 + "v\n"
    with pytest.raises(BadInput, match="nested deeper than 40 levels"):
        yamlio.load(deep_indent, "f.yaml")


def test_a_nesting_bomb_in_a_gamestate_file_is_bad_input(tmp_path):
    repo = make_repo(tmp_path)
    roster = repo / GAME / "gamestate" / "roster.yaml"
    roster.write_text(roster.read_text() + "former:\n" + "  " + "- " * 200000 + "x\n")
    r = nomic(repo, "check", *NOW)
    assert r.returncode == 2, r.stdout + r.stderr
    assert f"{GAME}/gamestate/roster.yaml:" in r.stdout and "nested deeper than 40 levels" in r.stdout


@pytest.mark.parametrize("text, where, says", [
    # an unclosed quote or bracket is noticed lines later (here at the file's end); the problem is placed where it opens
    ('a: 1\nb: "two\nc: 3\nd: 4\n', ":2:4:", 'the quoted text that starts here is not closed (found unexpected end of '
                                            'stream, at line 5, column 1)'),
    ("a: [1, 2\nb: 3\n", ":1:4:", "the list ('[') that starts here is not closed (did not find expected ',' or "
                                  "']', at line 2, column 2)"),
    ("a: {x: 1\nb: 3\n", ":1:4:", "the mapping ('{') that starts here is not closed"),
    # a bracket left open at the end of its line and the file: the parser names the node it wanted, at the end
    ("players:\n  - name: Ann\n    stats: {\n", ":3:12:", "the mapping ('{') that starts here is not closed (did not "
                                                       "find expected node content, at line 4, column 1)"),
    ("a: '{'  # {\nb: [\n", ":2:4:", "the list ('[') that starts here is not closed"),
    # where the parser notices the mistake is where it is: a line indented wrong
    ("a:\n  - 1\n - 2\n", ":3:2:", "did not find expected key"),
    ('a: "two" x\n', ":1:10:", "did not find expected key"),
])
def test_a_syntax_error_is_placed_on_the_line_of_the_mistake(text, where, says):
    with pytest.raises(BadInput) as e:
        yamlio.load(text, "f.yaml")
    got = e.value.problems[0].text()
    assert got.startswith("f.yaml" + where) and says in got, got


def test_an_unclosed_quote_in_a_gamestate_file_is_reported_at_its_line(tmp_path):
    repo = make_repo(tmp_path)
    roster = repo / GAME / "gamestate" / "roster.yaml"
    lines = roster.read_text().splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if "account:" in line)
    lines[at] = lines[at].replace("account: ", 'account: "')
    roster.write_text("".join(lines))
    r = nomic(repo, "check", *NOW)
    assert r.returncode == 2, r.stdout + r.stderr
    assert f"{GAME}/gamestate/roster.yaml:{at + 1}:" in r.stdout, r.stdout
    assert "the quoted text that starts here is not closed" in r.stdout
