"""Faults: nomic act killed mid-write, two nomic act runs at once, pull requests that conflict once merged,
and fixing the past with ``nomic replay --without``. Each on a real temporary git repository.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.gitgame import NOMIC, ROOT, commit, git, make_repo, nomic
from validators.transaction import JOURNAL, locked, recover, write_all

GAME = "content/blognomic"
NOW = ["--now", "2026-11-22T12:00:00Z"]
PROPOSE = ["act", "blognomic", "core.propose", "title=A longer day", "text=Each day lasts 25 hours.", "--as", "Chidi",
           "--at", "2026-11-06T10:00:00Z", *NOW]
LATER = ["act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Fatima", "--at",
         "2026-11-06T11:00:00Z", *NOW]


def files_of(repo: Path) -> dict[str, bytes]:
    """The game's files as git would see them (nomic's lock, journal and temporaries left aside)."""
    out = {}
    for p in (repo / GAME).rglob("*"):
        if p.is_file() and not p.name.startswith("."):
            out[p.relative_to(repo).as_posix()] = p.read_bytes()
    return out


def reset(repo: Path) -> None:
    git(repo, "checkout", "-q", "--", ".")
    git(repo, "clean", "-qfdx", "content")


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """A repository, its files before the propose, and its files after a propose that ran to the end."""
    repo = make_repo(tmp_path_factory.mktemp("faults"))
    old = files_of(repo)
    r = nomic(repo, *PROPOSE)
    assert r.returncode == 0, r.stdout + r.stderr
    new = files_of(repo)
    changed = sorted(p for p in set(old) | set(new) if old.get(p) != new.get(p))
    assert len(changed) >= 3  # the action file and at least two gamestate documents
    reset(repo)
    assert files_of(repo) == old
    return repo, old, new


def assert_each_file_old_or_new(repo: Path, old: dict[str, bytes], new: dict[str, bytes]) -> str:
    """Every file is as it was or as it will be; returns 'old', 'new' or 'mixed' for the set."""
    now = files_of(repo)
    assert set(now) <= set(old) | set(new), set(now) - set(old) - set(new)
    for path in set(old) | set(new):
        assert now.get(path) in (old.get(path), new.get(path)), f"{path} is half written"
    if now == old:
        return "old"
    if now == new:
        return "new"
    return "mixed"


def recover_and_audit(repo: Path, new: dict[str, bytes]) -> None:
    """A later nomic act finishes (or clears) the interrupted write; then the whole log audits green."""
    r = nomic(repo, *LATER)
    if r.returncode == 2:
        assert "an earlier nomic act was interrupted; its write is now finished" in r.stdout, r.stdout
        assert "core.propose.yaml" in r.stdout
        now = files_of(repo)
        assert all(now[p] == new[p] for p in new), "the finished write is not the full new state"
        r = nomic(repo, *LATER)
    assert r.returncode == 0, r.stdout + r.stderr
    assert not (repo / GAME / JOURNAL).exists()
    assert not list((repo / GAME).rglob("*.nomic-tmp"))
    r = nomic(repo, "check", *NOW)
    assert r.returncode == 0, r.stdout + r.stderr


# ---------------------------------------------------------------- killed mid-write


def test_killed_at_every_step_of_the_write(game):
    repo, old, new = game
    n = sum(1 for p in set(old) | set(new) if old.get(p) != new.get(p))
    points = [f"temp:{i}" for i in range(1, n + 1)] + ["journal"] + [f"rename:{i}" for i in range(1, n + 1)]
    seen = {}
    for point in points:
        reset(repo)
        r = nomic(repo, *PROPOSE, env={"NOMIC_FAULT": point})
        assert r.returncode == 137, (point, r.stdout, r.stderr)  # died, as if killed
        seen[point] = assert_each_file_old_or_new(repo, old, new)
        if point.startswith("temp"):
            assert seen[point] == "old"
            assert not (repo / GAME / JOURNAL).exists()
        else:
            assert (repo / GAME / JOURNAL).exists()
            # the audit sees the interruption rather than judging half a write
            r = nomic(repo, "check", *NOW)
            assert r.returncode == 2 and "an interrupted nomic act left its journal" in r.stdout, r.stdout
        recover_and_audit(repo, new)
    assert seen[f"rename:{n}"] == "new"
    assert "mixed" in seen.values()  # the test did stop between renames


def test_killed_at_random_moments(game):
    repo, old, new = game
    rng = random.Random(9)
    reset(repo)
    start = time.monotonic()
    r = nomic(repo, *PROPOSE)
    full = time.monotonic() - start
    assert r.returncode == 0
    outcomes = []
    for _ in range(10):
        reset(repo)
        proc = subprocess.Popen([*NOMIC, "--repo", str(repo), *PROPOSE], cwd=str(ROOT), stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.3, 1.0) * full)
        proc.send_signal(signal.SIGKILL)
        code = proc.wait()
        outcomes.append(code)
        assert_each_file_old_or_new(repo, old, new)
        recover_and_audit(repo, new)
    assert -signal.SIGKILL in outcomes  # at least some runs were killed


def test_a_leftover_journal_may_not_write_outside_the_game(tmp_path):
    # a journal that arrived by git pull names a file of the player's: recovery ignores such pairs
    folder = tmp_path / "content" / "g"
    folder.mkdir(parents=True)
    victim = tmp_path / "victim.txt"
    victim.write_text("mine\n")
    (tmp_path / ".victim.txt.nomic-tmp").write_text("evil\n")
    (folder / ".x.nomic-tmp").write_text("evil\n")
    (folder / JOURNAL).write_text(json.dumps([[str(tmp_path / ".victim.txt.nomic-tmp"), str(victim)],
                                              ["../../.victim.txt.nomic-tmp", "../../victim.txt"],
                                              [".x.nomic-tmp", "/etc/hostname"]]))
    assert recover(folder) == []
    assert victim.read_text() == "mine\n"
    assert not (folder / JOURNAL).exists()


def test_write_all_replaces_every_file_together(tmp_path):
    folder = tmp_path / "g"
    folder.mkdir()
    (folder / "a.yaml").write_text("a: 1\n")
    with locked(folder) as recovered:
        assert recovered == []
        write_all(folder, {folder / "a.yaml": "a: 2\n", folder / "sub" / "b.yaml": "b: 2\n"})
    assert (folder / "a.yaml").read_text() == "a: 2\n"
    assert (folder / "sub" / "b.yaml").read_text() == "b: 2\n"
    assert sorted(p.name for p in folder.rglob("*") if p.is_file()) == ["a.yaml", "b.yaml"]


# ---------------------------------------------------------------- two runs at once


def test_a_second_act_while_one_is_writing_is_refused(game):
    repo, _, new = game
    reset(repo)
    slow = subprocess.Popen([*NOMIC, "--repo", str(repo), *PROPOSE], cwd=str(ROOT), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "NOMIC_FAULT": "pause:4"})
    deadline = time.monotonic() + 20
    while not (repo / GAME / JOURNAL).exists():  # the first run holds the lock, its journal written
        assert time.monotonic() < deadline and slow.poll() is None, slow.communicate()
        time.sleep(0.05)
    r = nomic(repo, *LATER)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "another nomic command is writing this game" in r.stdout
    out, err = slow.communicate(timeout=60)
    assert slow.returncode == 0, out + err
    assert files_of(repo) == new  # the second run changed nothing, the first is whole
    r = nomic(repo, "check", *NOW)
    assert r.returncode == 0, r.stdout


def test_many_acts_at_once_never_interleave(game):
    repo, _, _ = game
    reset(repo)
    voters = ["Alice", "Bruno", "Chidi", "Dana", "Fatima"]
    procs = [subprocess.Popen([*NOMIC, "--repo", str(repo), "act", "blognomic", "core.vote", "proposal=3",
                               "vote=AGAINST", "--as", v, "--at", "2026-11-06T10:00:00Z", *NOW], cwd=str(ROOT),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for v in voters]
    results = [(p.wait(timeout=120), p.stdout.read(), p.stderr.read()) for p in procs]
    done = 0
    for code, out, err in results:
        assert code in (0, 1, 2), out + err
        if code == 2:
            assert "another nomic command is writing this game" in out, out
        if code == 1:  # a vote in the same second as one already written, whose file would sort before it
            assert "taken in the same second" in out, out
        done += code == 0
    assert done >= 1
    assert len(list((repo / GAME / "actions").glob("20261106T100000Z--*"))) == done
    r = nomic(repo, "check", *NOW)
    assert r.returncode == 0, r.stdout  # every written action is whole and the state agrees with them all


# ---------------------------------------------------------------- legal apart, illegal together


def _branch(repo: Path, name: str, *act_args: str) -> str:
    git(repo, "checkout", "-q", "main")
    git(repo, "checkout", "-q", "-b", name)
    r = nomic(repo, "act", "blognomic", *act_args, *NOW)
    assert r.returncode == 0, r.stdout + r.stderr
    commit(repo, name)
    return re.search(r"wrote (\S+)", r.stdout).group(1)


def _merge_both(repo: Path, first: str, second: str) -> subprocess.CompletedProcess:
    """Each pull request judged alone against main, then both merged (the second's conflicts taken from it)."""
    for branch in (first, second):
        git(repo, "checkout", "-q", branch)
        r = nomic(repo, "check", "--base", "main", "--author", "alice-nomic" if branch == first else "bruno-nomic",
                  *NOW)
        assert r.returncode in (0, 1)
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--no-edit", first)
    git(repo, "merge", "-q", "--no-edit", "-X", "theirs", second)
    return nomic(repo, "check", *NOW)


def test_two_proposals_that_both_think_they_are_number_four(tmp_path):
    repo = make_repo(tmp_path)
    a = _branch(repo, "pr-a", "core.propose", "title=Longer days", "--as", "Alice", "--at", "2026-11-06T10:00:00Z")
    b = _branch(repo, "pr-b", "core.propose", "title=Shorter days", "--as", "Bruno", "--at", "2026-11-06T11:00:00Z")
    for branch, author in (("pr-a", "alice-nomic"), ("pr-b", "bruno-nomic")):
        git(repo, "checkout", "-q", branch)
        assert nomic(repo, "check", "--base", "main", "--author", author, *NOW).returncode == 0
    r = _merge_both(repo, "pr-a", "pr-b")
    assert r.returncode == 1, r.stdout
    assert f"{b}:" in r.stdout and f"conflicts with the earlier action {a}" in r.stdout
    assert f"{a}: conflicts with the later action {b}" in r.stdout
    assert 'outcome: replay gives [{"proposal": 5}], file says [{"proposal": 4}] [rule: outcome]' in r.stdout


def test_two_admins_idling_the_same_player(tmp_path):
    repo = make_repo(tmp_path)
    a = _branch(repo, "pr-a", "core.idle", "player=Chidi", "--as", "Alice", "--at", "2026-11-20T10:00:00Z")
    b = _branch(repo, "pr-b", "core.idle", "player=Chidi", "--as", "Bruno", "--at", "2026-11-20T11:00:00Z")
    r = _merge_both(repo, "pr-a", "pr-b")
    assert r.returncode == 1, r.stdout
    assert "Chidi is already idle" in r.stdout
    assert f"conflicts with the earlier action {a}" in r.stdout
    assert f"{a}: conflicts with the later action {b}" in r.stdout


def test_the_second_pr_rejudged_after_the_first_is_merged_is_refused(tmp_path):
    # what branch protection's "require branches to be up to date" does: the check runs again on the new base
    repo = make_repo(tmp_path)
    _branch(repo, "pr-a", "core.idle", "player=Chidi", "--as", "Alice", "--at", "2026-11-20T10:00:00Z")
    _branch(repo, "pr-b", "core.idle", "player=Chidi", "--as", "Bruno", "--at", "2026-11-20T11:00:00Z")
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--no-edit", "pr-a")
    git(repo, "checkout", "-q", "pr-b")
    merged = subprocess.run(["git", "-C", str(repo), "merge", "-q", "--no-edit", "main"], capture_output=True,
                            text=True, check=False)
    assert merged.returncode != 0  # the ledger's hash chain makes any two action PRs conflict in git
    git(repo, "merge", "--abort")
    git(repo, "merge", "-q", "--no-edit", "-X", "theirs", "main")
    r = nomic(repo, "check", "--base", "main", "--author", "bruno-nomic", *NOW)
    assert r.returncode == 1, r.stdout
    assert "Chidi is already idle" in r.stdout


# ---------------------------------------------------------------- fixing the past


def test_replay_without_an_old_vote_makes_a_later_enactment_illegal(tmp_path):
    repo = make_repo(tmp_path)
    before = files_of(repo)
    r = nomic(repo, "replay", "blognomic", "--without", "20261102T130000Z--Dana--core.vote.yaml")
    assert r.returncode == 1, r.stdout + r.stderr
    assert f"note: left out {GAME}/actions/20261102T130000Z--Dana--core.vote.yaml" in r.stdout
    assert re.search(r"20261103T080000Z--Bruno--core\.enact\.yaml:\d+:\d+: becomes illegal: proposal 1 cannot be "
                     r"enacted", r.stdout), r.stdout
    # how the files would differ: the rule that proposal 1 amended keeps its old text
    assert re.search(r"note: would change .*proposals\.yaml:\d+:\d+: proposals\[0\]\.status: replay gives "
                     r"\"pending\", file says \"enacted\"", r.stdout), r.stdout
    assert re.search(r"note: would change .*ruleset/fair-play\.md", r.stdout)
    assert files_of(repo) == before  # a replay writes nothing


def test_replay_without_a_proposal_reports_every_vote_on_it(tmp_path):
    repo = make_repo(tmp_path)
    r = nomic(repo, "replay", "blognomic", "--without", f"{GAME}/actions/20261104T090000Z--Bruno--core.propose.yaml",
              "--format", "json")
    assert r.returncode == 1
    data = json.loads(r.stdout)
    illegal = sorted(v["action"].rsplit("/", 1)[1] for v in data["actions"] if not v["legal"])
    assert illegal == ["20261104T100000Z--Dana--core.vote.yaml", "20261104T110000Z--Alice--core.vote.yaml",
                       "20261104T120000Z--Chidi--core.vote.yaml"]


def test_replay_without_an_action_nothing_depends_on(tmp_path):
    repo = make_repo(tmp_path)
    r = nomic(repo, "replay", "blognomic", "--without", "20261105T090000Z--Emeka--core.idle.yaml")
    assert r.returncode == 0, r.stdout
    assert "becomes illegal" not in r.stdout
    assert re.search(r"note: would change .*roster\.yaml:\d+:\d+: players\[4\]\.idle: replay gives false, "
                     r"file says true", r.stdout), r.stdout


def test_replay_of_the_whole_log_changes_nothing(tmp_path):
    repo = make_repo(tmp_path)
    r = nomic(repo, "replay", "blognomic")
    assert r.returncode == 0
    assert "0 actions left out; 0 values of the files would change" in r.stdout


def test_replay_without_an_unknown_action_is_bad_input(tmp_path):
    repo = make_repo(tmp_path)
    r = nomic(repo, "replay", "blognomic", "--without", "20991231T000000Z--Nobody--core.vote.yaml")
    assert r.returncode == 2
    assert "no action file '20991231T000000Z--Nobody--core.vote.yaml' in this game's log" in r.stdout


def test_an_action_in_the_future_is_not_called_a_conflict(tmp_path):
    """Refused for its date, an action stays refused without any earlier one: no conflict is named."""
    repo = make_repo(tmp_path)
    _branch(repo, "pr-a", "core.idle", "player=Chidi", "--as", "Alice", "--at", "2026-11-20T10:00:00Z")
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--no-edit", "pr-a")
    r = nomic(repo, "check", "--now", "2026-11-20T09:00:00Z")
    assert r.returncode == 1, r.stdout
    assert "in the future (now is 2026-11-20T09:00:00Z)" in r.stdout
    assert "conflicts with" not in r.stdout
