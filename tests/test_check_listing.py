"""How the pull-request check lists files: the base's tree from one `git ls-tree`, the head's action files
from the base's and git's changes (not from listing the folder again), names checked in one match."""

from __future__ import annotations

import os
import re
import shutil

import pytest

from tests.gitgame import commit, git, make_repo, nomic
from validators import yamlio
from validators.check import _head_actions, changed_between, changed_paths, check_pr
from validators.content import (
    ACTION_NAME,
    GitTree,
    WorkTree,
    _action_files,
    _log_order,
    action_sort_key,
    games,
    load_game,
)
from validators.problems import BadInput
from validators.timeutil import parse_time

GAME = "content/blognomic"
FOLDER = f"{GAME}/actions/"
NOW = parse_time("2026-11-22T12:00:00Z")
HEADER = "# yaml-language-server: $schema=../../../schemas/action.schema.json\n"
VOTE = "at: {at}\nactor: Dana\naction: core.vote\nparams:\n  proposal: 3\n  vote: FOR\n"


def write(repo, rel, text="x: 1\n"):
    path = repo / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def head_listing(repo):
    """The head's action files as check_pr derives them, in WorkTree.list's order."""
    base = load_game(GitTree(repo, "main"), "blognomic").actions
    changes = [c for c in changed_paths(repo, "main") if c[1].startswith(f"{GAME}/")]
    derived = _head_actions(FOLDER, base, set(base), changes)
    assert derived is not None
    log, added, removed = derived
    return sorted([p for p in log if p not in removed] + added)


def problems(report):
    return [p.text() for p in report.problems]


# ---------------------------------------------------------------- the head's log without listing it


def test_the_heads_action_files_are_what_listing_the_folder_gives(tmp_path):
    repo = make_repo(tmp_path)
    actions = sorted((repo / FOLDER).glob("*.yaml"))
    write(repo, f"{FOLDER}20261106T100000Z--Dana--core.vote.yaml")  # untracked
    write(repo, f"{FOLDER}20261106T110000Z--Dana--core.vote.yaml")
    git(repo, "add", f"{FOLDER}20261106T110000Z--Dana--core.vote.yaml")  # staged
    actions[0].unlink()  # deleted
    actions[1].rename(actions[1].with_name("20261130T000000Z--Alice--core.vote.yaml"))  # renamed, uncommitted
    git(repo, "rm", "-q", "--cached", f"{FOLDER}{actions[2].name}")  # out of the index, still in the folder
    write(repo, f"{FOLDER}.20261106T120000Z--Dana--core.vote.yaml.swp")  # hidden: not listed
    write(repo, f"{FOLDER}.drafts/20261106T130000Z--Dana--core.vote.yaml")  # in a hidden folder: not listed
    write(repo, f"{FOLDER}sub/20261106T140000Z--Dana--core.vote.yaml")  # in a subfolder: listed (and refused)
    write(repo, f"{FOLDER}notes.txt")  # misnamed: listed (and refused)
    write(repo, f"{GAME}/gamestate/ledger.yaml", (repo / GAME / "gamestate/ledger.yaml").read_text() + "\n")
    assert head_listing(repo) == WorkTree(repo).list(f"{GAME}/actions")
    commit(repo)
    git(repo, "mv", f"{FOLDER}{actions[3].name}", f"{FOLDER}20261201T000000Z--Alice--core.vote.yaml")  # staged
    assert head_listing(repo) == WorkTree(repo).list(f"{GAME}/actions")


def test_the_heads_log_is_in_log_order_with_the_new_actions_in_their_place(tmp_path):
    repo = make_repo(tmp_path)
    write(repo, f"{FOLDER}20261104T130000Z--Dana--core.vote.yaml", HEADER + VOTE.format(at="2026-11-04T13:00:00Z"))
    write(repo, f"{FOLDER}20261106T100000Z--Dana--core.vote.yaml", HEADER + VOTE.format(at="2026-11-06T10:00:00Z"))
    old = sorted((repo / FOLDER).glob("2026110[23]*.yaml"))
    old[0].unlink()
    git(repo, "mv", f"{FOLDER}{old[1].name}", f"{FOLDER}20261104T130001Z--Alice--core.vote.yaml")
    base = load_game(GitTree(repo, "main"), "blognomic")
    changes = [c for c in changed_paths(repo, "main") if c[1].startswith(f"{GAME}/")]
    head = load_game(WorkTree(repo), "blognomic", registry=base.registry,
                     log_from=_head_actions(FOLDER, base.actions, set(base.actions), changes))
    assert head.actions == load_game(WorkTree(repo), "blognomic").actions
    assert head.actions[-4:] == [f"{FOLDER}20261104T130000Z--Dana--core.vote.yaml",
                                 f"{FOLDER}20261104T130001Z--Alice--core.vote.yaml", base.actions[-1],
                                 f"{FOLDER}20261106T100000Z--Dana--core.vote.yaml"]
    assert len(head.actions) == len(base.actions) + 1


def test_an_action_inserted_in_the_past_and_left_uncommitted_is_judged_and_refused(tmp_path):
    repo = make_repo(tmp_path)
    write(repo, f"{FOLDER}20261104T130000Z--Dana--core.vote.yaml", HEADER + VOTE.format(at="2026-11-04T13:00:00Z"))
    report = check_pr(repo, "main", author="dana-nomic", now=NOW)
    assert report.exit_code == 1
    assert [v["action"] for v in report.verdicts] == [f"{FOLDER}20261104T130000Z--Dana--core.vote.yaml"]
    assert any("before the last action or event (2026-11-05T09:00:00Z)" in t for t in problems(report))


@pytest.mark.parametrize("committed", [False, True])
@pytest.mark.parametrize("rel", ["notes.txt", "sub/20261106T100000Z--Dana--core.vote.yaml",
                                 "20261106T100000Z--Dana--Core.Vote.yaml"])
def test_a_misnamed_file_added_to_the_log_is_refused(tmp_path, rel, committed):
    repo = make_repo(tmp_path)
    write(repo, FOLDER + rel, HEADER + VOTE.format(at="2026-11-06T10:00:00Z"))
    if committed:
        commit(repo)
    report = check_pr(repo, "main", author="dana-nomic", now=NOW)
    assert report.exit_code != 0
    said = ("action files lie directly in content/blognomic/actions/, not in a sub-folder" if rel.startswith("sub/")
            else "action files are named <yyyymmddThhmmssZ>--<actor>--<action>.yaml")
    assert any(t.startswith(f"{FOLDER}{rel}: {said}") for t in problems(report)), problems(report)


def test_an_old_action_taken_out_of_the_index_is_refused_as_deleted(tmp_path):
    repo = make_repo(tmp_path)
    old = sorted((repo / FOLDER).glob("*.yaml"))[-1].name
    git(repo, "rm", "-q", "--cached", FOLDER + old)
    report = check_pr(repo, "main", author="dana-nomic", now=NOW)
    assert report.exit_code == 1
    assert any(f"deletes an action already in the log ({FOLDER}{old})" in t for t in problems(report))
    assert report.verdicts == []  # the file is back as an untracked one, but not a new action


def test_a_nested_repository_in_the_log_is_listed_from_the_folder(tmp_path):
    repo = make_repo(tmp_path)
    nested = repo / FOLDER / "sub"
    write(repo, f"{FOLDER}sub/20261106T100000Z--Dana--core.vote.yaml", HEADER + VOTE.format(at="2026-11-06T10:00:00Z"))
    git(nested, "init", "-q")
    changes = [c for c in changed_paths(repo, "main") if c[1].startswith(f"{GAME}/")]
    assert changes == [("A", f"{FOLDER}sub/", f"{FOLDER}sub/")]  # git names the folder, not its files
    assert _head_actions(FOLDER, [], set(), changes) is None
    report = check_pr(repo, "main", author="dana-nomic", now=NOW)
    assert report.exit_code != 0
    assert any(t.startswith(f"{FOLDER}sub/20261106T100000Z--Dana--core.vote.yaml: action files lie directly in "
                            f"{FOLDER}, not in a sub-folder") for t in problems(report)), problems(report)


def test_a_legal_uncommitted_pull_request_passes_and_an_edit_beside_it_is_caught(tmp_path):
    from tests.gitgame import nomic

    repo = make_repo(tmp_path)
    r = nomic(repo, "act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Dana",
              "--at", "2026-11-06T10:00:00Z", "--now", "2026-11-22T12:00:00Z")
    assert r.returncode == 0, r.stdout + r.stderr
    report = check_pr(repo, "main", author="dana-nomic", now=NOW)
    assert report.exit_code == 0, problems(report)
    assert [v["action"] for v in report.verdicts] == [f"{FOLDER}20261106T100000Z--Dana--core.vote.yaml"]
    old = sorted((repo / FOLDER).glob("*Dana--core.vote.yaml"))[0]
    old.write_text(old.read_text().replace("vote: FOR", "vote: AGAINST"))
    report = check_pr(repo, "main", author="dana-nomic", now=NOW)
    assert report.exit_code == 1
    assert any("edits an action already in the log" in t for t in problems(report))


# ---------------------------------------------------------------- names, checked at once, and their order


TRICKY = ["20261106T100000Z--Dana--core.vote.yaml", "20261106T100000Z--Dana-B--core.vote.yaml",
          "20261106T100000Z--Dana--core.vote--2.yaml", "20261106T100000Z--Dana--core.vote--10.yaml",
          "20261106T100000Z--Dana--core-vote.yaml", "20261106T100000Z--" + "D" * 64 + "--core.vote--3.yaml",
          "20261106T100000Z--" + "D" * 65 + "--core.vote.yaml", "20261106T100000Z--Dana--Core.vote.yaml",
          "20261106T100000Z--Dana--core.vote.yaml\n", "2026110٦T100000Z--Dana--core.vote.yaml",
          "20261106T100000Z--Dana--core.vote.yml", "20261106T100000Z-Dana--core.vote.yaml",
          "20261106T100000Z--Dana--" + "v" * 80 + ".yaml", "20261106T100000Z--Dana--" + "v" * 81 + ".yaml",
          "20261105T235959Z--Zed--core.idle.yaml", "20261107T000000Z--A_b.c--x_y.z.yaml", ".hidden.yaml"]


def reference(folder, paths):
    """The check as it was: ACTION_NAME on each name, in the folder itself."""
    good, bad = [], []
    for path in paths:
        parent, _, fname = path.rpartition("/")
        (good if ACTION_NAME.match(fname) and parent == folder.rstrip("/") else bad).append(path)
    return sorted(good, key=action_sort_key), bad


@pytest.mark.parametrize("names", [TRICKY, [n for n in TRICKY if ACTION_NAME.match(n)],
                                   [n for n in TRICKY if re.fullmatch(r"\d{8}T\d{6}Z--\w+--[a-z.]+\.yaml", n)]])
def test_checking_names_at_once_accepts_and_refuses_what_each_match_did(names):
    paths = sorted([FOLDER + n for n in names] + [f"{FOLDER}sub/{names[0]}", f"{GAME}/other/{names[0]}"])
    found = []
    good = _action_files(FOLDER, paths, found)
    want_good, want_bad = reference(FOLDER, paths)
    assert _log_order(FOLDER, good) == want_good
    assert [p.file for p in found] == want_bad
    # all well named: the one match accepts them all
    assert _action_files(FOLDER, want_good, []) == want_good


@pytest.mark.parametrize("name", TRICKY)
def test_one_match_over_a_log_accepts_a_name_only_when_each_match_did(name):
    plain = [FOLDER + n for n in TRICKY if re.fullmatch(r"\d{8}T\d{6}Z--\w+--[a-z.]+\.yaml", n)]
    for paths in ([FOLDER + name], sorted(plain + [FOLDER + name])):
        found = []
        good = _action_files(FOLDER, paths, found)
        assert (good, [p.file for p in found]) == (sorted(reference(FOLDER, paths)[0]), reference(FOLDER, paths)[1])


def test_same_second_actions_keep_the_keys_order():
    # ACTION_NAME's number is only ever read past an 80-character action (the actor takes the rest)
    long = "v" * 80
    names = ["20261106T100000Z--Zed--core.vote.yaml", f"20261106T100000Z--Amy--{long}--2.yaml",
             f"20261106T100000Z--Amy--{long}--10.yaml", "20261106T095959Z--Zed--core.vote.yaml",
             "20261106T100001Z--Amy--core.vote.yaml"]
    paths = [FOLDER + n for n in names]
    assert _action_files(FOLDER, paths, []) == paths
    assert _log_order(FOLDER, paths) == sorted(paths, key=action_sort_key) == [paths[i] for i in (3, 0, 1, 2, 4)]
    assert _log_order(FOLDER, paths[3:]) == sorted(paths[3:])


# ---------------------------------------------------------------- the base's tree


def test_the_bases_games_and_files_from_one_listing(tmp_path):
    repo = make_repo(tmp_path)
    shutil.copytree(repo / GAME, repo / "content/a-b")
    write(repo, "content/a.b/game.yaml")
    write(repo, "content/a/sub/game.yaml")  # not a game: game.yaml is not in content/a itself
    write(repo, "content/b/notes.yaml")
    write(repo, "content/README.md")
    write(repo, "content/blognomic0/game.yaml")
    write(repo, "content/c/tab\tand \"quote\" é.yaml", "odd: name\n")
    os.symlink("../blognomic/game.yaml", repo / "content/c/link.yaml")
    commit(repo)
    tree = GitTree(repo, "HEAD")
    listed = tree.list("content")
    reference_games = sorted({p.split("/")[1] for p in listed if p.count("/") == 2 and p.endswith("/game.yaml")})
    assert games(tree) == reference_games == ["a-b", "a.b", "blognomic", "blognomic0"]
    assert tree.read("content/c/tab\tand \"quote\" é.yaml") == b"odd: name\n"
    assert tree.is_link("content/c/link.yaml") and not tree.is_link(f"{GAME}/game.yaml")
    with pytest.raises(BadInput, match="symbolic links"):  # as the work tree's: a link is never read through
        tree.read("content/c/link.yaml")
    assert tree.list(GAME) == sorted(git(repo, "ls-files", GAME).splitlines())
    with pytest.raises(BadInput):
        GitTree(repo, "no-such-ref").list("content")


# ---------------------------------------------------------------- the head as a commit (--head, CI's way)


def test_the_head_tree_is_the_base_with_gits_changes_applied(tmp_path):
    repo = make_repo(tmp_path)
    actions = sorted((repo / FOLDER).glob("*.yaml"))
    actions[0].unlink()  # deleted
    actions[1].rename(actions[1].with_name("20261130T000000Z--Alice--core.vote.yaml"))  # renamed
    write(repo, f"{FOLDER}20261106T100000Z--Dana--core.vote.yaml", HEADER + VOTE.format(at="2026-11-06T10:00:00Z"))
    (repo / GAME / "gamestate" / "ledger.yaml").write_text("changed: 1\n")  # modified
    (repo / GAME / "gamestate" / "roster.yaml").chmod(0o755)  # its mode only
    os.symlink("roster.yaml", repo / GAME / "gamestate" / "link.yaml")  # a link
    write(repo, "validators/outside.py")  # outside content/: not in either tree's entries
    commit(repo)
    base = GitTree(repo, "main")
    changes, lines = changed_between(repo, "main", "HEAD")
    head = GitTree.changed(base, "HEAD", lines)
    reference = GitTree(repo, "HEAD")
    assert head.entries() == reference.entries()
    assert head.list(GAME) == reference.list(GAME) and games(head) == games(reference)
    assert head.is_link(f"{GAME}/gamestate/link.yaml")
    assert head.read(f"{GAME}/gamestate/ledger.yaml") == b"changed: 1\n"
    assert head.read(f"{GAME}/game.yaml") == base.read(f"{GAME}/game.yaml")
    assert sorted(changes) == sorted(changed_paths(repo, "main")) != []  # the work tree holds HEAD


def test_with_head_the_work_tree_beside_the_commit_is_not_judged(tmp_path):
    repo = make_repo(tmp_path)
    rel = f"{GAME}/gamestate/proposals.yaml"
    before = (repo / rel).read_text()
    assert nomic(repo, "act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Dana", "--at",
                 "2026-11-06T10:00:00Z", "--now", "2026-11-22T12:00:00Z").returncode == 0
    assert (repo / rel).read_text() != before
    commit(repo)
    (repo / rel).write_text(before)  # left in the work tree after the commit: not part of the pull request
    write(repo, f"{GAME}/stray.yaml")
    args = ["check", "--base", "main", "--author", "dana-nomic", "--now", "2026-11-22T12:00:00Z"]
    r = nomic(repo, *args)
    assert r.returncode == 1 and "stray.yaml: not a game file" in r.stdout
    r = nomic(repo, *args, "--head", "HEAD")
    assert r.returncode == 0 and "legal: 1 action judged" in r.stdout, r.stdout


def test_with_head_a_file_past_the_size_limit_is_refused_without_being_read_whole(tmp_path):
    repo = make_repo(tmp_path)
    rel = f"{GAME}/gamestate/proposals.yaml"
    (repo / rel).write_text((repo / rel).read_text() + "#" * (yamlio.MAX_FILE_BYTES + 1) + "\n")
    commit(repo)
    report = check_pr(repo, "main", author="dana-nomic", now=NOW, head="HEAD")
    assert report.exit_code == 2
    assert f"{rel}: file is larger than {yamlio.MAX_FILE_BYTES} bytes" in problems(report)
    assert problems(report) == problems(check_pr(repo, "main", author="dana-nomic", now=NOW))


def test_a_head_without_a_base_and_a_head_that_is_no_revision_are_bad_input(tmp_path):
    repo = make_repo(tmp_path)
    r = nomic(repo, "check", "--head", "HEAD")
    assert r.returncode == 2 and "--head needs --base" in r.stdout + r.stderr
    r = nomic(repo, "check", "--base", "main", "--head", "no-such-ref")
    assert r.returncode == 2 and "--head: 'no-such-ref' is not a commit" in r.stdout and "Traceback" not in r.stderr


def test_the_verdict_counts_actions_in_words() -> None:
    from validators.problems import Report
    from validators.report import summary

    report = Report()
    assert summary(report) == "legal: 0 actions judged, no problems"
    report.verdicts.append({"legal": True})
    assert summary(report) == "legal: 1 action judged, no problems"
    report.verdicts.append({"legal": True})
    assert summary(report) == "legal: 2 actions judged, no problems"


def test_a_check_without_replay_says_no_log_was_replayed(tmp_path):
    repo = make_repo(tmp_path)
    r = nomic(repo, "check", "--no-replay")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "note: the files only (--no-replay): no action log was replayed" in r.stdout, r.stdout
    r = nomic(repo, "check")
    assert r.returncode == 0 and "--no-replay" not in r.stdout, r.stdout
