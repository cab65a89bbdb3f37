"""Real temporary git repositories holding a copy of an example game, for the pull-request check."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from validators.content import WorkTree, games

ROOT = Path(__file__).resolve().parent.parent
NOMIC = [sys.executable, "-m", "validators.cli"]
# the example games: every folder of content/ holding a game.yaml, as the engine finds them, so that a test of every
# example tests a new one without a word here
EXAMPLE_GAMES = games(WorkTree(ROOT))


def git(repo: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid"}
    r = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    return r.stdout


def make_repo(tmp: Path, game: str = "blognomic") -> Path:
    repo = tmp / "game-repo"
    (repo / "content").mkdir(parents=True)
    shutil.copytree(ROOT / "content" / game, repo / "content" / game)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    git(repo, "checkout", "-q", "-b", "pr")
    return repo


def nomic(repo: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*NOMIC, "--repo", str(repo), *args], capture_output=True, text=True,
                          cwd=str(ROOT), env={**os.environ, **(env or {})})


def commit(repo: Path, message: str = "pr") -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", message)


def check_pr_cli(repo: Path, *args: str) -> subprocess.CompletedProcess:
    """``nomic check <args>`` of the work tree; when the work tree is what HEAD holds, the same check of the
    commit (``--head HEAD``, CI's way) must give the very same verdict, output and exit code."""
    r = nomic(repo, "check", *args)
    if not git(repo, "status", "--porcelain", "--untracked-files=all"):
        h = nomic(repo, "check", *args, "--head", "HEAD")
        assert (h.returncode, h.stdout, h.stderr) == (r.returncode, r.stdout, r.stderr), (r.stdout, h.stdout)
    return r
