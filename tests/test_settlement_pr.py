"""The Expedition Leader files Outsiders' actions in their own pull requests (seed 001, "Outsiders")."""

from __future__ import annotations

from tests.gitgame import check_pr_cli, commit, make_repo, nomic

NOW = ["--now", "2026-11-22T12:00:00Z"]


def act(repo, *args, at):
    r = nomic(repo, "act", "settlement", *args, "--at", at, *NOW)
    assert r.returncode == 0, r.stdout + r.stderr
    return r


def check(repo, author):
    return check_pr_cli(repo, "--base", "main", "--author", author, *NOW)


def test_the_leader_creates_a_moose_and_moves_it(tmp_path):
    repo = make_repo(tmp_path, "settlement")
    act(repo, "settlement.create-outsider", "type=Moose", "at=0d", "--as", "Ilse", at="2026-11-17T10:00:00Z")
    act(repo, "settlement.move", "path=SS", "--as", "Moose 2", at="2026-11-17T11:00:00Z")
    commit(repo)
    r = check(repo, "ilse-nomic")
    assert r.returncode == 0, r.stdout
    assert "legal: 2 actions judged" in r.stdout


def test_a_colonist_may_not_file_for_the_moose(tmp_path):
    repo = make_repo(tmp_path, "settlement")
    act(repo, "settlement.create-outsider", "type=Moose", "at=0d", "--as", "Ilse", at="2026-11-17T10:00:00Z")
    commit(repo, "base2")
    from tests.gitgame import git

    git(repo, "checkout", "-q", "-B", "main")
    git(repo, "checkout", "-q", "-b", "pr2")
    act(repo, "settlement.move", "path=S", "--as", "Moose 2", at="2026-11-17T11:00:00Z")
    commit(repo)
    r = check(repo, "asha-nomic")
    assert r.returncode == 1
    assert "the actor is Moose 2, but this pull request is by asha-nomic" in r.stdout


def test_the_leader_may_not_file_for_a_colonist(tmp_path):
    repo = make_repo(tmp_path, "settlement")
    act(repo, "settlement.fish", "--as", "Elif", at="2026-11-17T10:00:00Z")
    commit(repo)
    r = check(repo, "ilse-nomic")
    assert r.returncode == 1
    assert "the actor is Elif" in r.stdout
