"""What a player types on the command line, and the mistakes they make, on real temporary git repositories:
values are read as the action asks, and each mistake gets a clear message, the documented exit code and no
change to the work tree."""

from __future__ import annotations

from tests.gitgame import commit, git, make_repo, nomic
from validators.content import WorkTree, read_action

GAME = "content/blognomic"
NOW = ["--now", "2026-11-22T12:00:00Z"]


def _new_action(repo):
    out = git(repo, "status", "--porcelain", "--untracked-files=all")
    return [line[3:] for line in out.splitlines() if "/actions/" in line]


def test_a_text_parameter_keeps_what_was_typed_even_where_yaml_would_read_something_else(tmp_path):
    repo = make_repo(tmp_path)
    # Ruleset 75's titles have a colon: YAML reads "Proposal: More Fun" as a mapping, "A: B: C" as no YAML at all
    for at, title in (("2026-11-22T10:00:00Z", "Proposal: More Fun"), ("2026-11-22T10:00:01Z", "Proposal: A: B")):
        r = nomic(repo, "act", "blognomic", "core.propose", f"title={title}", "text=1999", "--as", "Dana",
                  "--at", at, "-q", *NOW)
        assert r.returncode == 0, r.stdout + r.stderr
    records = [read_action(WorkTree(repo), p) for p in sorted(_new_action(repo))]
    assert [(a["params"]["title"], a["params"]["text"]) for a in records] == [
        ("Proposal: More Fun", "1999"), ("Proposal: A: B", "1999")]
    commit(repo)
    c = nomic(repo, "check", "--base", "main", "--head", "HEAD", "--author", "dana-nomic", *NOW)
    assert c.returncode == 0, c.stdout + c.stderr

    # a parameter that takes something else is still read as YAML, and refused as such
    for args, said in ((["core.vote", "proposal=abc", "vote=FOR"], 'params.proposal: "abc" is not of type integer'),
                       (["core.propose", "title=T", "effects=[a"], "parameter effects:")):
        r = nomic(repo, "act", "blognomic", *args, "--as", "Dana", *NOW)
        assert r.returncode == 2 and said in r.stdout and "Traceback" not in r.stderr, r.stdout + r.stderr
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""
