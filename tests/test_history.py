"""``nomic check --history`` (validators/history.py): the commits of the branch that rewrote a game's log or its
starting point past the pull-request check (a direct push, a force push), found by walking the history.

Each history is made in a real repository: the example BlogNomic game committed on main (the founding commit),
then actions taken with ``nomic act`` and checkpoints made with ``nomic checkpoint``, committed straight to main
as a push past CI would; the forgeries are hand edits of what those commands wrote.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.gitgame import commit, git, make_repo, nomic

GAME = "content/blognomic"
NOW = "2026-11-24T00:00:00Z"
VOTE = f"{GAME}/actions/20261106T110000Z--Alice--core.vote.yaml"
OLD = f"{GAME}/actions/20261102T150000Z--Bruno--core.vote.yaml"  # one of the example's, added by the founding


def run(repo: Path, *args: str):
    return nomic(repo, *args, "--now", NOW)


def history(repo: Path, *args: str):
    return nomic(repo, "check", "--history", *args)


def short(repo: Path, rev: str = "HEAD") -> str:
    return git(repo, "rev-parse", "--short", rev).strip()


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The example game founded on main, and one vote committed after it."""
    monkeypatch.setenv("GIT_COMMITTER_DATE", "2026-11-24T06:00:00Z")  # the commits' time: a checkpoint's "now"
    repo = make_repo(tmp_path)
    git(repo, "checkout", "-q", "main")
    vote(repo, "Alice", "11:00")
    commit(repo, "Alice votes")
    return repo


def vote(repo: Path, who: str, at: str) -> None:
    r = run(repo, "act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", who, "--at",
            f"2026-11-06T{at}:00Z", "-q")
    assert r.returncode == 0, r.stdout + r.stderr


def checkpoint(repo: Path) -> None:
    r = run(repo, "checkpoint", "blognomic", "--as", "Alice", "--why", "settled")
    assert r.returncode == 0, r.stdout + r.stderr


def test_a_clean_history_passes(repo: Path) -> None:
    r = history(repo)
    assert r.returncode == 0, r.stdout
    founding = short(repo, "HEAD~1")
    assert f"note: blognomic: 25 action files added, 0 valid checkpoints, founded in commit {founding} ('base')" \
        in r.stdout
    assert r.stdout.endswith("legal: 2 commits walked, no problems\n")


def test_a_commit_editing_an_old_action_file_is_reported(repo: Path) -> None:
    path = repo / OLD
    path.write_text(path.read_text(encoding="utf-8").replace("vote: FOR", "vote: AGAINST"), encoding="utf-8")
    commit(repo, "fix a vote")
    vote(repo, "Bruno", "12:00")  # later commits do not hide it
    commit(repo, "Bruno votes")
    r = history(repo)
    assert r.returncode == 1, r.stdout
    assert (f"{OLD}: commit {short(repo, 'HEAD~1')} ('fix a vote') edits the action file {OLD} (added in commit "
            f"{short(repo, 'HEAD~3')}): the log is only ever added to [rule: history is append-only]") in r.stdout
    assert r.stdout.endswith("illegal: 1 problem\n")
    # json names the commit in full; github annotates the file
    data = json.loads(history(repo, "--format", "json").stdout)
    assert data["exit"] == 1 and [p["commit"] for p in data["problems"]] == [git(repo, "rev-parse", "HEAD~1").strip()]
    gh = history(repo, "--format", "github").stdout
    assert gh.startswith(f"::error file={OLD},title=illegal (history is append-only)::commit {short(repo, 'HEAD~1')} ")


def test_a_commit_removing_an_action_is_reported(repo: Path) -> None:
    git(repo, "rm", "-q", VOTE)
    commit(repo, "drop the vote")
    r = history(repo)
    assert r.returncode == 1
    assert (f"{VOTE}: commit {short(repo)} ('drop the vote') removes the action file {VOTE} (added in commit "
            f"{short(repo, 'HEAD~1')}): the log is only ever added to") in r.stdout


def test_a_renamed_action_file_is_reported(repo: Path) -> None:
    new = VOTE.replace("110000Z", "103000Z")
    git(repo, "mv", VOTE, new)
    commit(repo, "move the vote earlier")
    r = history(repo)
    assert r.returncode == 1
    assert (f"{new}: commit {short(repo)} ('move the vote earlier') renames the action file {VOTE} (added in "
            f"commit {short(repo, 'HEAD~1')}), now {new.rpartition('/')[2]}: the log is only ever added to") \
        in r.stdout


def test_a_hand_edit_of_initial_is_reported(repo: Path) -> None:
    roster = repo / GAME / "initial/gamestate/roster.yaml"
    roster.write_text(roster.read_text(encoding="utf-8").replace("admin: false", "admin: true", 1),
                      encoding="utf-8")
    commit(repo, "make Chidi an admin")
    r = history(repo)
    assert r.returncode == 1
    assert (f"{GAME}/initial/gamestate/roster.yaml: commit {short(repo)} ('make Chidi an admin'): the game's "
            "starting point (initial/) may change only by a checkpoint, which writes initial/checkpoint.yaml with it "
            "(nomic checkpoint) [rule: checkpoints (initial/checkpoint.yaml)]") in r.stdout


def test_a_valid_checkpoint_passes_and_a_later_forged_one_is_reported(repo: Path) -> None:
    checkpoint(repo)
    commit(repo, "checkpoint")
    r = history(repo)
    assert r.returncode == 0, r.stdout
    assert (f"note: commit {short(repo)} ('checkpoint'): blognomic: a checkpoint by an admin (Alice), holding 25 "
            "actions through 20261106T110000Z--Alice--core.vote.yaml") in r.stdout
    assert "25 action files added, 1 valid checkpoint" in r.stdout

    # a second one, its maker changed to a player who is no admin
    vote(repo, "Bruno", "12:00")
    commit(repo, "Bruno votes")
    checkpoint(repo)
    path = repo / GAME / "initial/checkpoint.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("by: Alice", "by: Chidi"), encoding="utf-8")
    commit(repo, "checkpoint by Chidi")
    r = history(repo)
    assert r.returncode == 1
    assert (f"{GAME}/initial/checkpoint.yaml: commit {short(repo)} ('checkpoint by Chidi'): the game's starting "
            "point (initial/) may change only by an admin's checkpoint (its maker Chidi is no admin of blognomic)") \
        in r.stdout
    assert "1 valid checkpoint" in r.stdout  # the first still is


@pytest.mark.parametrize("forgery, said", [
    # the copy is not the game's files: a stat changed on the way
    ("copy", f"{GAME}/initial/gamestate/roster.yaml: commit {{c}} ('checkpoint'): differs from "
             f"{GAME}/gamestate/roster.yaml: a checkpoint holds the game's files as they stand at the base"),
    # it comes with an action: a checkpoint is a change of its own
    ("with-action", f"{GAME}/actions/20261106T120000Z--Bruno--core.vote.yaml: commit {{c}} ('checkpoint'): a "
                    "checkpoint is a pull request of its own: this one changes the game besides"),
    # no checkpoint.yaml at all: a hand copy of the game into initial/
    ("no-file", f"{GAME}/initial/gamestate/ledger.yaml: commit {{c}} ('checkpoint'): the game's starting point "
                "(initial/) may change only by a checkpoint, which writes initial/checkpoint.yaml with it"),
])
def test_a_forged_checkpoint_is_reported(repo: Path, forgery: str, said: str) -> None:
    checkpoint(repo)
    if forgery == "copy":
        roster = repo / GAME / "initial/gamestate/roster.yaml"
        roster.write_text(roster.read_text(encoding="utf-8").replace("admin: false", "admin: true", 1),
                          encoding="utf-8")
    elif forgery == "with-action":
        vote(repo, "Bruno", "12:00")
    else:
        (repo / GAME / "initial/checkpoint.yaml").unlink()
    commit(repo, "checkpoint")
    r = history(repo)
    assert r.returncode == 1, r.stdout
    assert said.format(c=short(repo)) in r.stdout
    assert "0 valid checkpoints" in r.stdout


def test_a_checkpoint_is_judged_at_its_commit_s_time(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    checkpoint(repo)  # made at NOW, committed the day before: its "now" is the commit's (committer) date
    monkeypatch.setenv("GIT_COMMITTER_DATE", "2026-11-23T12:00:00Z")
    commit(repo, "checkpoint")
    r = history(repo)
    assert r.returncode == 1
    assert (f"{GAME}/initial/checkpoint.yaml:8:5: at: commit {short(repo)} ('checkpoint'): {NOW} is in the future "
            "(now is 2026-11-23T12:00:00Z)") in r.stdout


def test_a_merge_is_judged_against_its_first_parent(repo: Path) -> None:
    """A merged branch is judged whole, as its pull request was: an action it added and then edited is new to the
    log the merge extends; the merge of a branch that edits an older action is reported at the merge."""
    git(repo, "checkout", "-q", "-b", "bruno")
    vote(repo, "Bruno", "12:00")
    commit(repo, "Bruno votes")
    mine = repo / GAME / "actions/20261106T120000Z--Bruno--core.vote.yaml"
    mine.write_text(mine.read_text(encoding="utf-8") + "note: changed my mind about the note\n", encoding="utf-8")
    commit(repo, "Bruno's note")
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--no-ff", "bruno", "-m", "Merge pull request 1")
    r = history(repo)
    assert r.returncode == 0, r.stdout
    assert "legal: 3 commits walked" in r.stdout  # the first-parent line: base, Alice's vote, the merge

    git(repo, "checkout", "-q", "-b", "mallory")
    git(repo, "rm", "-q", OLD)
    commit(repo, "tidy the log")
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--no-ff", "mallory", "-m", "Merge pull request 2")
    r = history(repo)
    assert r.returncode == 1
    assert f"{OLD}: commit {short(repo)} ('Merge pull request 2') removes the action file {OLD}" in r.stdout


def test_a_range_walks_only_its_commits(repo: Path) -> None:
    git(repo, "rm", "-q", VOTE)
    commit(repo, "drop the vote")
    vote(repo, "Bruno", "12:00")
    commit(repo, "Bruno votes")
    assert history(repo).returncode == 1
    # an admin who has looked at a reported commit walks from after it
    r = history(repo, "HEAD~1..HEAD")
    assert r.returncode == 0, r.stdout
    assert "legal: 1 commit walked, no problems" in r.stdout
    r = history(repo, "HEAD~2..")
    assert r.returncode == 1 and "('drop the vote') removes" in r.stdout


def test_a_game_removed_and_founded_again_is_noted(repo: Path) -> None:
    git(repo, "rm", "-q", "-r", GAME)
    commit(repo, "remove the game")
    git(repo, "checkout", "-q", "HEAD~1", "--", GAME)
    commit(repo, "found it again")
    r = history(repo)
    assert r.returncode == 0, r.stdout
    assert (f"note: blognomic: removed in commit {short(repo, 'HEAD~1')} ('remove the game') and founded again in "
            f"commit {short(repo)} ('found it again')") in r.stdout


@pytest.mark.parametrize("args, said", [
    (["--base", "main"], "--base: not with --history"),
    (["--no-replay"], "--no-replay: not with --history"),
    (["--history=nope"], "--history: 'nope' is not a commit, branch or tag of this repository"),
    (["--history=main...HEAD"], "--history: 'main...HEAD': a range is written A..B"),
    (["--game", "pirates"], "--game: no commit of the history walked (HEAD) holds content/pirates"),
])
def test_bad_history_options_are_refused(repo: Path, args: list[str], said: str) -> None:
    extra = [] if any(a.startswith("--history") for a in args) else ["--history"]
    r = nomic(repo, "check", *extra, *args)
    assert r.returncode == 2, r.stdout + r.stderr
    assert said in r.stdout and not r.stderr


def test_initial_game_yaml_added_to_a_game_founded_without_it_is_noted(repo: Path) -> None:
    """docs/admins.md, "A game founded before initial/game.yaml": an admin pushes it as the founding was pushed."""
    git(repo, "checkout", "-q", "HEAD~1")
    git(repo, "rm", "-q", f"{GAME}/initial/game.yaml")
    git(repo, "commit", "-q", "--amend", "-m", "base")
    git(repo, "checkout", "-q", "main", "--", f"{GAME}/initial/game.yaml")
    commit(repo, "the founding configuration")
    r = history(repo)
    assert r.returncode == 0, r.stdout
    assert (f"note: blognomic: commit {short(repo)} ('the founding configuration') adds initial/game.yaml, the "
            "configuration the game was founded with (trusted as the founding commit is)") in r.stdout
    # anything else added to initial/ so is not
    (repo / GAME / "initial/gamestate/notes.yaml").write_text("a: 1\n", encoding="utf-8")
    commit(repo, "a note")
    assert "('a note'): the game's starting point (initial/) may change only by a checkpoint" in history(repo).stdout
