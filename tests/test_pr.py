"""``nomic pr`` (and ``nomic act --pr``): the pull request made for the player, on real git repositories with a
real remote (a bare repository in a temporary folder): judged as CI judges it, committed on a branch of its own
with exactly the game's changed files, pushed; refused, with nothing committed, when the check refuses it."""

from __future__ import annotations

import os
import re
import shutil
import stat
from pathlib import Path

from tests.gitgame import ROOT, git, nomic
from validators.pr import _web_compare

GAME = "content/blognomic"
NOW = ["--now", "2026-11-22T12:00:00Z"]
VOTE = ["act", "blognomic", "core.vote", "proposal=3", "vote=AGAINST", "--as", "Dana", "--at",
        "2026-11-22T12:00:00Z", "-q", *NOW]
BRANCH = "dana/core.vote-20261122t120000z"


def _cloned(tmp: Path) -> tuple[Path, Path]:
    """A game repository on main, cloned from a bare 'origin' that holds it."""
    seed = tmp / "seed"
    (seed / "content").mkdir(parents=True)
    shutil.copytree(ROOT / GAME, seed / GAME)
    git(seed, "init", "-q", "-b", "main")
    git(seed, "add", "-A")
    git(seed, "commit", "-qm", "base")
    origin = tmp / "origin.git"
    git(tmp, "clone", "-q", "--bare", str(seed), str(origin))
    work = tmp / "work"
    git(tmp, "clone", "-q", str(origin), str(work))
    git(work, "config", "user.name", "Dana")
    git(work, "config", "user.email", "dana@example.invalid")
    return work, origin


def _game_repo(work: Path, branch: str) -> Path:
    """A new repository ``work`` on ``branch`` whose one commit holds the game, made by Dana; no remote."""
    (work / "content").mkdir(parents=True)
    shutil.copytree(ROOT / GAME, work / GAME)
    git(work, "init", "-q", "-b", branch)
    git(work, "config", "user.name", "Dana")
    git(work, "config", "user.email", "dana@example.invalid")
    git(work, "add", "-A")
    git(work, "commit", "-qm", "base")
    return work


def test_pr_judges_commits_on_a_branch_and_pushes_the_actions_taken(tmp_path):
    work, origin = _cloned(tmp_path)
    (work / "notes.txt").write_text("mine, not the game's\n")
    assert nomic(work, *VOTE).returncode == 0
    r = nomic(work, "pr", "--author", "dana-nomic", *NOW)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.splitlines() == [
        f"on a new branch {BRANCH} (from main)",
        f"committed {git(work, 'rev-parse', '--short', 'HEAD').strip()}: Dana: core.vote proposal=3 vote=AGAINST "
        "(3 files)",
        f"pushed {BRANCH} to origin",
        f"open a pull request from {BRANCH} into main on origin ({origin})",
    ], r.stdout
    assert git(work, "symbolic-ref", "--short", "HEAD").strip() == BRANCH
    assert sorted(git(work, "show", "--name-only", "--format=", "HEAD").split()) == [
        f"{GAME}/actions/20261122T120000Z--Dana--core.vote.yaml", f"{GAME}/gamestate/ledger.yaml",
        f"{GAME}/gamestate/proposals.yaml"]
    assert git(work, "status", "--porcelain", "--untracked-files=all") == "?? notes.txt\n"
    assert git(origin, "rev-parse", BRANCH) == git(work, "rev-parse", "HEAD")
    # what CI will run on the pushed commit
    r = nomic(work, "check", "--base", "origin/main", "--head", "HEAD", "--author", "dana-nomic", *NOW)
    assert r.returncode == 0 and "legal: 1 action judged, no problems" in r.stdout, r.stdout


def test_pr_refuses_what_the_check_refuses_and_commits_nothing(tmp_path):
    """An edit by hand beside the action: the check's refusal is shown and nothing is committed or pushed."""
    work, origin = _cloned(tmp_path)
    assert nomic(work, *VOTE).returncode == 0
    roster = work / GAME / "gamestate" / "roster.yaml"
    roster.write_text(roster.read_text().replace("  - name: Chidi\n    account: chidi-nomic\n    admin: false",
                                                 "  - name: Chidi\n    account: chidi-nomic\n    admin: true"))
    head = git(work, "rev-parse", "HEAD")
    r = nomic(work, "pr", *NOW)
    assert r.returncode == 1, r.stdout + r.stderr
    assert r.stdout.startswith("not submitted: the check refuses the change (nothing was committed)\n"), r.stdout
    assert "players[2].admin: replay gives false, file says true" in r.stdout
    assert git(work, "rev-parse", "HEAD") == head and git(work, "symbolic-ref", "--short", "HEAD").strip() == "main"
    assert git(origin, "branch", "--list", "--format=%(refname:short)").split() == ["main"]


def test_pr_with_nothing_to_submit_or_two_games_says_so(tmp_path):
    work, _ = _cloned(tmp_path)
    r = nomic(work, "pr", *NOW)
    assert r.returncode == 2 and "nothing to submit: no game has uncommitted changes" in r.stdout, r.stdout
    shutil.copytree(work / GAME, work / "content" / "other")
    git(work, "add", "-A")
    git(work, "commit", "-qm", "a second game")
    assert nomic(work, *VOTE).returncode == 0
    assert nomic(work, "act", "other", *VOTE[2:]).returncode == 0
    r = nomic(work, "pr", *NOW)
    assert r.returncode == 2, r.stdout
    assert ("several games have uncommitted changes (blognomic, other); name the one to submit: nomic pr GAME"
            in r.stdout)
    r = nomic(work, "pr", "other", "--no-push", *NOW)
    assert r.returncode == 0, r.stdout + r.stderr
    assert git(work, "show", "--name-only", "--format=", "HEAD").split()[0].startswith("content/other/")
    assert f"not pushed (--no-push): push the branch and open the pull request into main yourself: git push -u " \
           f"origin {BRANCH}" in r.stdout
    assert git(work, "status", "--porcelain").startswith(" M content/blognomic/")  # left as it was


def test_act_pr_on_a_branch_of_ones_own_commits_there(tmp_path):
    """On a branch of the player's own (not the base), the actions are committed there, and act --pr does it all."""
    work, origin = _cloned(tmp_path)
    git(work, "switch", "-q", "-c", "dana-turn")
    r = nomic(work, *VOTE, "--pr")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "pushed dana-turn to origin" in r.stdout and "on a new branch" not in r.stdout
    assert git(origin, "rev-parse", "dana-turn") == git(work, "rev-parse", "HEAD")


def test_pr_opens_it_with_the_github_command_line_when_there(tmp_path):
    """With ``gh`` on the PATH, ``gh pr create`` opens the pull request, its text the comment CI writes. GitHub is
    not reachable from the tests, so a script in gh's place records what it is asked."""
    work, _ = _cloned(tmp_path)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    asked = tmp_path / "asked"
    gh = bin_dir / "gh"
    gh.write_text(f"#!/bin/sh\nfor a in \"$@\"; do printf '%s\\0' \"$a\"; done > {asked}\n"
                  "echo https://github.example/o/r/pull/7\n")
    gh.chmod(gh.stat().st_mode | stat.S_IEXEC)
    assert nomic(work, *VOTE).returncode == 0
    r = nomic(work, "pr", *NOW, env={"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"})
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.splitlines()[-1] == "opened the pull request: https://github.example/o/r/pull/7"
    args = asked.read_text().split("\0")[:-1]
    assert args[:8] == ["pr", "create", "--base", "main", "--head", BRANCH, "--title",
                        "Dana: core.vote proposal=3 vote=AGAINST"], args
    assert args[8] == "--body" and "core.vote" in args[9] and "Dana" in args[9], args


def test_the_page_that_opens_a_pull_request_on_github():
    page = "https://github.com/ann/nomic/compare/main...dana/x?expand=1"
    for url in ("https://github.com/ann/nomic.git", "https://github.com/ann/nomic", "git@github.com:ann/nomic.git",
                "ssh://git@github.com/ann/nomic.git", "https://token@github.com/ann/nomic.git"):
        assert _web_compare(url, "main", "dana/x") == page, url
    assert _web_compare("/srv/git/nomic.git", "main", "dana/x") is None
    assert _web_compare("https://gitlab.com/ann/nomic.git", "main", "dana/x") is None
    # a base not known (a remote holding no branch yet): GitHub's compare of one branch is against the default
    assert _web_compare("https://github.com/ann/nomic.git", None, "dana/x") == \
        "https://github.com/ann/nomic/compare/dana/x?expand=1"


def test_pr_commits_none_of_what_was_staged_outside_the_game(tmp_path):
    """A hand edit of another game staged with git add stays staged and out of the commit and the push."""
    work, origin = _cloned(tmp_path)
    shutil.copytree(work / GAME, work / "content" / "other")
    git(work, "add", "-A")
    git(work, "commit", "-qm", "a second game")
    git(work, "push", "-q", "origin", "main")
    dynasty = work / "content" / "other" / "gamestate" / "proposals.yaml"
    dynasty.write_text(dynasty.read_text() + "# by hand\n")
    git(work, "add", "content/other")
    (work / "notes.txt").write_text("mine\n")
    git(work, "add", "notes.txt")
    assert nomic(work, *VOTE).returncode == 0
    r = nomic(work, "pr", "blognomic", *NOW)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "(3 files)" in r.stdout, r.stdout
    assert all(p.startswith(f"{GAME}/") for p in git(work, "show", "--name-only", "--format=", "HEAD").split())
    assert git(origin, "rev-parse", BRANCH) == git(work, "rev-parse", "HEAD")
    assert sorted(git(work, "status", "--porcelain").splitlines()) == ["A  notes.txt",
                                                                      "M  content/other/gamestate/proposals.yaml"]


def test_pr_from_master_with_a_remote_added_by_hand_makes_a_branch(tmp_path):
    """A remote with no HEAD known (git remote add, git push -u origin master): master is the base, so the actions
    go on a branch of their own, not pushed to master."""
    work = _game_repo(tmp_path / "work", "master")
    origin = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", str(origin))
    git(work, "remote", "add", "origin", str(origin))
    git(work, "push", "-q", "-u", "origin", "master")
    before = git(origin, "rev-parse", "master")
    assert nomic(work, *VOTE).returncode == 0
    r = nomic(work, "pr", *NOW)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.splitlines()[0] == f"on a new branch {BRANCH} (from master)", r.stdout
    assert "into master on origin" in r.stdout, r.stdout
    assert git(origin, "rev-parse", "master") == before
    assert git(origin, "rev-parse", BRANCH) == git(work, "rev-parse", "HEAD")


def test_pr_whose_commit_git_refuses_leaves_the_player_where_they_were(tmp_path):
    """A pre-commit hook (or git without a name to commit under) refuses the commit: the player is back on main, the
    branch made for it is gone, and nomic pr runs again once the cause is put right."""
    work, origin = _cloned(tmp_path)
    hook = work / ".git" / "hooks" / "pre-commit"
    hook.write_text("#!/bin/sh\necho 'not today' >&2\nexit 1\n")
    hook.chmod(hook.stat().st_mode | stat.S_IEXEC)
    assert nomic(work, *VOTE).returncode == 0
    r = nomic(work, "pr", *NOW)
    assert r.returncode == 2, r.stdout + r.stderr
    assert (f"git commit failed: not today; nothing was committed; back on main, the branch {BRANCH} removed"
            in r.stdout), r.stdout
    assert git(work, "symbolic-ref", "--short", "HEAD").strip() == "main"
    assert git(work, "branch", "--list", "--format=%(refname:short)").split() == ["main"]
    hook.unlink()
    r = nomic(work, "pr", *NOW)
    assert r.returncode == 0 and r.stdout.startswith(f"on a new branch {BRANCH} (from main)\n"), r.stdout
    assert git(origin, "rev-parse", BRANCH) == git(work, "rev-parse", "HEAD")


def test_pr_waits_for_no_nomic_act_writing_the_game(tmp_path):
    """nomic pr holds the game's lock as nomic act does: while another command writes the game, it is refused and
    nothing is committed, rather than judging and committing files half-written."""
    import fcntl

    work, _ = _cloned(tmp_path)
    assert nomic(work, *VOTE).returncode == 0
    fd = os.open(work / GAME, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        r = nomic(work, "pr", *NOW)
    finally:
        os.close(fd)
    assert r.returncode == 2 and "another nomic command is writing this game" in r.stdout, r.stdout + r.stderr
    assert git(work, "symbolic-ref", "--short", "HEAD").strip() == "main"
    assert nomic(work, "pr", *NOW).returncode == 0


def test_pr_never_commits_on_main_when_the_remote_s_default_is_another_branch(tmp_path):
    """The remote's default branch is develop; a player on main still gets a branch of their own: main, master and
    the base are branches a pull request goes into, never ones it is made on."""
    work, origin = _cloned(tmp_path)
    git(work, "push", "-q", "origin", "main:develop")
    git(work, "remote", "set-head", "origin", "develop")
    assert nomic(work, *VOTE).returncode == 0
    r = nomic(work, "pr", *NOW)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.splitlines()[0] == f"on a new branch {BRANCH} (from main)", r.stdout
    assert f"open a pull request from {BRANCH} into develop on origin" in r.stdout
    assert git(origin, "rev-parse", "main") == git(work, "rev-parse", "origin/main")
    assert git(work, "rev-parse", "main") == git(work, "rev-parse", "origin/main")


def test_pr_says_all_of_why_gh_failed_and_how_to_open_it_still(tmp_path):
    """``gh`` installed but not logged in: what it says is shown whole (its last line alone tells the least), the
    branch stays pushed, and the page that opens the pull request follows."""
    work, origin = _cloned(tmp_path)
    git(work, "remote", "set-url", "origin", "https://github.com/ann/nomic.git")
    git(work, "config", f"url.{origin}.pushInsteadOf", "https://github.com/ann/nomic.git")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    gh = bin_dir / "gh"
    gh.write_text("#!/bin/sh\necho 'To get started with GitHub CLI, please run:  gh auth login' >&2\n"
                  "echo 'Alternatively, populate the GH_TOKEN environment variable with a GitHub API authentication "
                  "token.' >&2\nexit 4\n")
    gh.chmod(gh.stat().st_mode | stat.S_IEXEC)
    assert nomic(work, *VOTE).returncode == 0
    r = nomic(work, "pr", "--author", "dana-nomic", *NOW, env={"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"})
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert lines[-2] == ("gh pr create failed (To get started with GitHub CLI, please run: gh auth login "
                         "Alternatively, populate the GH_TOKEN environment variable with a GitHub API authentication "
                         f"token.); the branch is pushed, so open the pull request as said below, or with gh pr create "
                         f"--head {BRANCH} once gh works (gh auth login)"), lines
    assert lines[-1] == f"open the pull request: https://github.com/ann/nomic/compare/main...{BRANCH}?expand=1"
    assert git(origin, "rev-parse", BRANCH) == git(work, "rev-parse", "HEAD")


def test_pr_makes_the_pull_request_of_an_admin_s_checkpoint(tmp_path):
    """docs/admins.md, "Checkpoints": a checkpoint goes in an admin's pull request of its own; ``nomic pr`` makes it
    as it makes one of actions (judged first: by anyone else it needs an admin, and nothing is committed)."""
    work, origin = _cloned(tmp_path)
    r = nomic(work, "checkpoint", "blognomic", "--as", "Alice", "--why", "the judge now refuses idle proposers")
    assert r.returncode == 0 and "nomic pr blognomic --author LOGIN" in r.stdout, r.stdout + r.stderr
    head = git(work, "rev-parse", "HEAD")
    r = nomic(work, "pr", "blognomic", "--author", "dana-nomic")
    assert r.returncode == 1 and git(work, "rev-parse", "HEAD") == head, r.stdout + r.stderr
    r = nomic(work, "pr", "blognomic", "--author", "alice-nomic")
    assert r.returncode == 0, r.stdout + r.stderr
    branch = git(work, "symbolic-ref", "--short", "HEAD").strip()
    assert re.fullmatch(r"alice/checkpoint-\d{8}t\d{6}z", branch), branch
    lines = r.stdout.splitlines()
    assert lines[1].endswith(": Alice: checkpoint (6 files)"), lines
    assert f"{GAME}/initial/checkpoint.yaml" in git(work, "show", "--name-only", "--format=", "HEAD").split()
    assert git(origin, "rev-parse", branch) == git(work, "rev-parse", "HEAD")
    r = nomic(work, "check", "--base", "origin/main", "--head", "HEAD", "--author", "alice-nomic")
    assert r.returncode == 0 and "a checkpoint by an admin (Alice)" in r.stdout, r.stdout


def test_pr_makes_the_pull_request_of_a_new_game(tmp_path):
    """docs/admins.md, "Starting a game": a new game goes in an admin's pull request. `nomic new` then `nomic pr`
    said "nothing to submit in content/pirates: no new action file (... take the action first)": a new game has
    none. It is judged as CI judges it (by anyone but an admin of a game it needs an admin; nothing committed)."""
    work, origin = _cloned(tmp_path)
    r = nomic(work, "new", "pirates", "--from", "blognomic", "--admin", "Ann=ann-gh", "--at", "2026-11-22T00:00:00Z",
              *NOW)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "its pull request (an admin's, as an admin of a game opens it): nomic pr pirates --author LOGIN" in \
        r.stdout.splitlines(), r.stdout
    head = git(work, "rev-parse", "HEAD")
    r = nomic(work, "pr", "--author", "ann-gh", *NOW)
    assert r.returncode == 1 and "creating a game needs an admin" in r.stdout, r.stdout + r.stderr
    assert git(work, "rev-parse", "HEAD") == head
    r = nomic(work, "pr", "pirates", "--author", "alice-nomic", *NOW)
    assert r.returncode == 0, r.stdout + r.stderr
    branch = git(work, "symbolic-ref", "--short", "HEAD").strip()
    assert branch == "ann/new-game-pirates-20261122t000000z", branch
    assert r.stdout.splitlines()[1].endswith(": Ann: new game pirates"
                                             f" ({len(git(work, 'show', '--name-only', '--format=', 'HEAD').split())}"
                                             " files)"), r.stdout
    assert git(work, "status", "--porcelain", "--untracked-files=all") == ""
    assert git(origin, "rev-parse", branch) == git(work, "rev-parse", "HEAD")
    r = nomic(work, "check", "--base", "origin/main", "--head", "HEAD", "--author", "alice-nomic", *NOW)
    assert r.returncode == 0 and "a new game, by an admin" in r.stdout, r.stdout

def test_act_pr_with_a_dry_run_a_list_or_a_machine_format_is_refused_before_anything(tmp_path):
    """``nomic act --pr`` commits what the action wrote and says so in nomic pr's lines: after --dry-run or --list
    there is nothing to submit, and with --format json or github the action used to be written with no pull request
    made at all. Each is refused as bad input, nothing written or committed."""
    work, _ = _cloned(tmp_path)
    head = git(work, "rev-parse", "HEAD")
    for extra, said in ((["--dry-run"], "--pr: not with --dry-run: a dry run writes nothing to submit"),
                        (["--list"], "--pr: not with --list: a list takes no action"),
                        (["--format", "json"], '"message": "not with --format json: nomic pr\'s lines would break the '
                                               'verdict\'s format; run nomic pr blognomic after the action"')):
        r = nomic(work, *VOTE, "--pr", *extra)
        assert r.returncode == 2 and said in r.stdout, (extra, r.stdout + r.stderr)
        assert git(work, "status", "--porcelain", "--untracked-files=all") == ""
        assert git(work, "rev-parse", "HEAD") == head


def test_pr_to_a_misspelt_remote_is_refused_before_anything_is_committed(tmp_path):
    """Once committed on a new branch and left unpushed, saying "no remote named origin" of --remote origni: now
    refused first, with the remotes there are; the work tree stays as it was, on main."""
    work, origin = _cloned(tmp_path)
    assert nomic(work, *VOTE).returncode == 0
    head, status = git(work, "rev-parse", "HEAD"), git(work, "status", "--porcelain", "--untracked-files=all")
    for extra in ([], ["--no-push"]):  # with --no-push, once committed, its hint saying git push -u REMOTE
        r = nomic(work, "pr", "--remote", "origni", *extra, "--author", "dana-nomic", *NOW)
        assert r.returncode == 2 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
        assert ("--remote: no remote 'origni' in this repository (its remotes: origin); did you mean origin?"
                in r.stdout.splitlines()), r.stdout
        assert git(work, "rev-parse", "HEAD") == head and git(work, "symbolic-ref", "--short", "HEAD").strip() == "main"
        assert git(work, "status", "--porcelain", "--untracked-files=all") == status
    assert git(origin, "branch", "--list", "--format=%(refname:short)").split() == ["main"]


def test_pr_into_a_base_branch_there_is_not_is_refused_before_anything_is_committed(tmp_path):
    """``--base mian`` once committed on a new branch (and with --no-push stopped there, the base never looked at):
    now refused first, naming the branches there are; a base only the remote has (as last fetched) is taken."""
    work, origin = _cloned(tmp_path)
    assert nomic(work, *VOTE).returncode == 0
    head, status = git(work, "rev-parse", "HEAD"), git(work, "status", "--porcelain", "--untracked-files=all")
    for extra in ([], ["--no-push"]):
        r = nomic(work, "pr", "--base", "mian", *extra, "--author", "dana-nomic", *NOW)
        assert r.returncode == 2 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
        assert ("--base: no branch 'mian' here or on origin (as last fetched: git fetch origin) for the pull request "
                "to go into (its branches: main); did you mean main?" in r.stdout.splitlines()), r.stdout
        assert git(work, "rev-parse", "HEAD") == head and git(work, "symbolic-ref", "--short", "HEAD").strip() == "main"
        assert git(work, "status", "--porcelain", "--untracked-files=all") == status
    git(origin, "branch", "season-2", "main")  # a branch of the remote's, fetched: a base the pull request can take
    git(work, "fetch", "-q", "origin")
    r = nomic(work, "pr", "--base", "season-2", "--no-push", "--author", "dana-nomic", *NOW)
    assert r.returncode == 0 and "open the pull request into season-2 yourself" in r.stdout, r.stdout + r.stderr


def test_pr_in_a_repository_with_no_remote_says_how_to_add_one(tmp_path):
    """A repository with no remote at all: the actions are committed, and the player is told to add the game
    repository's remote and push; before, "no remote named origin (--remote names another)", where there is none
    to name."""
    from tests.gitgame import make_repo

    work = make_repo(tmp_path)  # no remote; on a branch of its own (pr)
    git(work, "config", "user.name", "Dana")
    git(work, "config", "user.email", "dana@example.invalid")
    assert nomic(work, *VOTE).returncode == 0
    r = nomic(work, "pr", "--author", "dana-nomic", *NOW)
    assert r.returncode == 0 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    assert ("not pushed (this repository has no remote): add the game repository's, push the branch and open the "
            "pull request into main yourself: git remote add origin URL && git push -u origin pr") \
        in r.stdout.splitlines(), r.stdout
    assert git(work, "status", "--porcelain", "--untracked-files=all") == ""


def _trunk(tmp: Path, *, clone: bool) -> tuple[Path, Path]:
    """A bare 'origin' whose default branch is trunk (and which has a branch dev besides), holding the game; the
    player's repository is its clone (``clone``), or one whose remote was added by hand and trunk pushed to it."""
    tmp.mkdir(parents=True, exist_ok=True)
    origin = tmp / "origin.git"
    git(tmp, "init", "-q", "--bare", "-b", "trunk", str(origin))
    work = tmp / "work"
    if clone:  # a clone of the empty repository, as a game repository just made on GitHub is cloned
        git(tmp, "clone", "-q", str(origin), str(work))
    else:
        work.mkdir()
        git(work, "init", "-q", "-b", "trunk")
        git(work, "remote", "add", "origin", str(origin))
    git(work, "config", "user.name", "Dana")
    git(work, "config", "user.email", "dana@example.invalid")
    (work / "content").mkdir()
    shutil.copytree(ROOT / GAME, work / GAME)
    git(work, "add", "-A")
    git(work, "commit", "-qm", "base")
    git(work, "push", "-q", "-u", "origin", "trunk")
    return work, origin


def test_pr_goes_into_the_remote_s_default_branch_trunk_or_asks_for_base(tmp_path):
    """A remote whose default branch is trunk: the pull request went into main (a branch there is not) whenever git
    had no origin/HEAD (a clone of an empty repository has none, nor has a remote added by hand). The base is the
    remote's HEAD as git knows it, else the branch the repository was cloned from, else the remote's only branch;
    when none tells, the player is asked for --base before anything is committed."""
    work, origin = _trunk(tmp_path / "a", clone=True)
    git(work, "push", "-q", "origin", "trunk:dev")  # two branches on origin, and no origin/HEAD: nothing tells
    head = git(work, "rev-parse", "HEAD")
    assert nomic(work, *VOTE).returncode == 0
    r = nomic(work, "pr", *NOW)
    assert r.returncode == 2 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    assert ("--base: cannot tell which branch the pull request goes into: git knows no default branch of origin "
            "(its branches: dev, trunk); name it with --base BRANCH, or tell git once: git remote set-head origin "
            "--auto") in r.stdout.splitlines(), r.stdout
    assert git(work, "rev-parse", "HEAD") == head and git(work, "symbolic-ref", "--short", "HEAD").strip() == "trunk"
    r = nomic(work, "pr", "--base", "trunk", *NOW)
    assert r.returncode == 0 and f"open a pull request from {BRANCH} into trunk on origin ({origin})" in r.stdout, \
        r.stdout
    # nomic act --pr asks before it acts: the action was written, then its pull request refused
    git(work, "switch", "-q", "trunk")
    r = nomic(work, "act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Chidi", "--at",
              "2026-11-22T12:00:00Z", "--pr", *NOW, env={"NOMIC_AUTHOR": "chidi-nomic"})
    assert r.returncode == 2 and "--base: cannot tell which branch" in r.stdout, r.stdout
    assert git(work, "status", "--porcelain", "--untracked-files=all") == ""

    # a clone whose origin/HEAD is gone: the branch git clone made is the remote's default
    work, origin = _trunk(tmp_path / "b", clone=False)
    git(work, "push", "-q", "origin", "trunk:dev")
    clone = tmp_path / "b" / "clone"
    git(tmp_path / "b", "clone", "-q", str(origin), str(clone))
    git(clone, "config", "user.name", "Dana")
    git(clone, "config", "user.email", "dana@example.invalid")
    git(clone, "remote", "set-head", "origin", "-d")
    assert nomic(clone, *VOTE).returncode == 0
    r = nomic(clone, "pr", *NOW)
    assert r.returncode == 0 and f"into trunk on origin ({origin})" in r.stdout, r.stdout
    assert r.stdout.splitlines()[0] == f"on a new branch {BRANCH} (from trunk)", r.stdout

    # a remote added by hand holding trunk only: its one branch, which git is then told is its default, so that the
    # next pull request (when the remote holds the first one's branch too) goes there as well
    work, origin = _trunk(tmp_path / "c", clone=False)
    assert nomic(work, *VOTE).returncode == 0
    r = nomic(work, "pr", *NOW)
    assert r.returncode == 0 and f"into trunk on origin ({origin})" in r.stdout, r.stdout
    assert git(work, "symbolic-ref", "--short", "refs/remotes/origin/HEAD").strip() == "origin/trunk"
    git(work, "switch", "-q", "trunk")
    assert nomic(work, "act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Chidi", "--at",
                 "2026-11-22T12:00:00Z", "-q", *NOW).returncode == 0
    r = nomic(work, "pr", *NOW)
    assert r.returncode == 0 and "into trunk on origin" in r.stdout, r.stdout

    # no remote, and no main nor master: nothing is guessed (it said "into main"), nor refused: nothing is pushed
    work = tmp_path / "d"
    shutil.copytree(tmp_path / "c" / "work", work)
    git(work, "remote", "remove", "origin")
    git(work, "branch", "-q", "-m", "trunk", "mine")
    assert nomic(work, *VOTE).returncode == 0
    r = nomic(work, "pr", *NOW)
    assert r.returncode == 0 and "open the pull request into the game repository's default branch yourself" in \
        r.stdout, r.stdout
    git(work, "remote", "add", "upstream", str(tmp_path / "c" / "origin.git"))
    r = nomic(work, "act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Dana", "--at",
              "2026-11-22T12:00:01Z", "--pr", "--now", "2026-11-22T12:00:01Z", env={"NOMIC_AUTHOR": "dana-nomic"})
    assert r.returncode == 2 and "--remote: no remote 'origin' in this repository (its remotes: upstream)" in \
        r.stdout, r.stdout  # once said after the action was written
    assert git(work, "status", "--porcelain", "--untracked-files=all") == ""


def test_pr_to_a_remote_holding_no_branch_yet_asks_for_the_main_branch_pushed_first(tmp_path):
    """A game repository on trunk whose origin is a new, empty repository (no branch yet) and which has no main
    nor master: nomic pr named no base and pushed the player's branch first, which the forge then made the
    repository's default branch. Refused before anything is committed (and by nomic act --pr before it acts),
    saying to push the game's main branch first or to name the base with --base; --no-push pushes nothing, and
    so is not refused. With a main branch here (the pull request would go into a branch the remote lacks), the
    same, naming it."""
    origin = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", str(origin))
    work = _game_repo(tmp_path / "work", "trunk")
    git(work, "remote", "add", "origin", str(origin))
    head = git(work, "rev-parse", "HEAD")
    said = ("--base: origin holds no branch yet (as git last fetched it: git fetch origin), so the pull request has "
            "no branch to go into, and its own would be the first pushed, which the forge makes the default branch: "
            "push the game's main branch to origin first (git push -u origin BRANCH), or name the branch the pull "
            "request goes into with --base BRANCH")
    r = nomic(work, "act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Chidi", "--at",
              "2026-11-22T12:00:00Z", "--pr", *NOW, env={"NOMIC_AUTHOR": "chidi-nomic"})
    assert r.returncode == 2 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    assert said in r.stdout.splitlines(), r.stdout
    assert git(work, "status", "--porcelain", "--untracked-files=all") == ""
    assert nomic(work, *VOTE).returncode == 0
    r = nomic(work, "pr", *NOW)
    assert r.returncode == 2 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    assert said in r.stdout.splitlines(), r.stdout
    assert git(work, "rev-parse", "HEAD") == head and git(work, "symbolic-ref", "--short", "HEAD").strip() == "trunk"
    assert git(work, "branch", "--list", "--format=%(refname:short)").split() == ["trunk"]
    assert git(origin, "for-each-ref") == ""  # nothing pushed
    unpushed = tmp_path / "unpushed"
    shutil.copytree(work, unpushed)
    r = nomic(unpushed, "pr", "--no-push", *NOW)
    assert r.returncode == 0 and "open the pull request into the game repository's default branch yourself" in \
        r.stdout, r.stdout
    assert git(origin, "for-each-ref") == ""
    # with a main branch here, it is the one named
    named = tmp_path / "named"
    shutil.copytree(work, named)  # the vote taken and not committed: its pull request is refused the same way
    git(named, "branch", "-q", "-m", "trunk", "main")
    r = nomic(named, "pr", *NOW)
    assert r.returncode == 2 and said.replace("BRANCH)", "main)") in r.stdout.splitlines(), r.stdout
    assert git(origin, "for-each-ref") == ""
    # the main branch pushed first: the pull request goes into it
    git(work, "push", "-q", "-u", "origin", "trunk")
    r = nomic(work, "pr", *NOW)
    assert r.returncode == 0 and f"open a pull request from {BRANCH} into trunk on origin ({origin})" in r.stdout, \
        r.stdout
