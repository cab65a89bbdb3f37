"""``nomic pr``: turn the actions a player took with ``nomic act`` into a pull request.

The work tree holds the new action files and the files they changed, not yet committed. The pull request is made
of exactly those: they are judged first as CI will judge them (``check_pr`` against the last commit), and only a
legal change is committed, on a branch of its own when the player is on the base branch, then pushed, and the pull
request opened with the GitHub command line (``gh``) when it is there, its text being the comment CI writes
(``--format markdown``). Without ``gh`` the address that opens it is printed, for a GitHub remote.

Nothing but the game's folder goes into the commit: another file the player changed stays as it was, uncommitted.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path, PurePosixPath

from . import yamlio
from .content import require_game
from .problems import BAD_INPUT, BadInput, Problem, Report, did_you_mean
from .transaction import locked


@dataclass
class Submitted:
    """What ``submit`` did, for the command line to say."""

    report: Report  # the check of the change; its exit code is the command's when it refuses
    branch: str = ""
    commit: str = ""
    title: str = ""
    lines: list[str] = field(default_factory=list)  # what was done, in order


def _git(root: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    r = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True)
    if check and r.returncode != 0:
        said = (r.stderr or r.stdout).strip().splitlines()
        raise BadInput(Problem(f"git {args[0]} failed: {said[-1] if said else 'exit ' + str(r.returncode)}",
                               kind=BAD_INPUT))
    return r


def changed_games(root: Path) -> dict[str, dict[str, str]]:
    """Each game folder with uncommitted changes: game -> each changed path (untracked files listed one by one) ->
    its two-letter ``git status`` code ("??" for a file git does not know). nomic act's lock file is no change."""
    out: dict[str, dict[str, str]] = {}
    status = _git(root, "status", "--porcelain", "--untracked-files=all", "-z", "--", "content").stdout
    entries = status.split("\0")
    i = 0
    while i < len(entries):
        entry = entries[i]
        i += 1
        if len(entry) < 4:
            continue
        code, path = entry[:2], entry[3:]
        if code[0] in "RC":  # a rename's old path follows as its own entry
            i += 1
        parts = PurePosixPath(path).parts
        if len(parts) >= 3 and parts[0] == "content" and parts[-1] != ".nomic.lock":
            out.setdefault(parts[1], {})[path] = code
    return out


def game_problems(report: Report, game: str) -> list[Problem]:
    """The problems of a check of the whole work tree (``check_pr``) that are the game's: placed in its folder, or
    nowhere (the pull request's own: its author). Another game's changes are not part of this one's."""
    folder = f"content/{game}"
    return [p for p in report.problems if not p.file or p.file == folder or p.file.startswith(folder + "/")]


def _new_actions(root: Path, paths: list[str], game: str) -> list[dict]:
    """The records of the action files among ``paths`` (new ones: those the check will judge), in log order."""
    out = []
    for p in sorted(paths):
        if PurePosixPath(p).parent.as_posix() == f"content/{game}/actions" and p.endswith(".yaml"):
            try:
                data = yamlio.load_file(root / p)
            except Exception:  # noqa: BLE001 - the check has judged the file already; a title does without it
                continue
            if isinstance(data, dict):
                out.append(data)
    return out


def _checkpoint(root: Path, paths: list[str], game: str) -> list[dict]:
    """An admin's checkpoint (``nomic checkpoint``: ``initial/checkpoint.yaml`` written anew) as the one record the
    pull request is named after: its maker, ``checkpoint`` and its time. Empty when there is none."""
    path = f"content/{game}/initial/checkpoint.yaml"
    if path not in paths:
        return []
    data = _mapping(root / path)
    return [{"actor": str(data.get("by") or "admin"), "action": "checkpoint", "at": str(data.get("at") or ""),
             "params": {}}]


def _mapping(path: Path) -> dict:
    """A YAML file's mapping, for a pull request's title; empty when it is none (the check judges the file)."""
    try:
        data = yamlio.load_file(path)
    except Exception:  # noqa: BLE001 - the check judges the file; a title does without it
        return {}
    return data if isinstance(data, dict) else {}


def _founding(root: Path, paths: list[str], game: str) -> list[dict]:
    """A new game (``nomic new``: its ``game.yaml`` not in the last commit) as the one record its pull request is
    named after: its first admin founding it, at the founding (the ledger's clock). Empty for a game already there."""
    if f"content/{game}/game.yaml" not in paths or _git(root, "cat-file", "-e", f"HEAD:content/{game}/game.yaml",
                                                        check=False).returncode == 0:
        return []
    players = _mapping(root / "content" / game / "gamestate" / "roster.yaml").get("players")
    admins = [str(p.get("name")) for p in players or [] if isinstance(p, dict) and p.get("admin")]
    clock = _mapping(root / "content" / game / "gamestate" / "ledger.yaml").get("clock")
    return [{"actor": admins[0] if admins else "admin", "action": f"new game {game}", "at": str(clock or ""),
             "params": {}}]


def _title(records: list[dict], game: str) -> str:
    """'Dana: core.vote proposal=3 vote=FOR' for one action; 'Dana: 2 actions in blognomic' for more."""
    actors = sorted({str(r.get("actor", "")) for r in records})
    who = ", ".join(actors)
    if len(records) == 1:
        params = records[0].get("params") or {}
        shown = " ".join(f"{k}={v}" for k, v in params.items() if not isinstance(v, (dict, list)) and len(str(v)) <= 40)
        return f"{who}: {records[0].get('action')}{' ' + shown if shown else ''}"[:120]
    return f"{who}: {len(records)} actions in {game}"[:120]


def _branch_name(records: list[dict]) -> str:
    """'dana/core.vote-20261122t120000z': the first action's actor, name and time, as git takes them."""
    first = records[0]
    stamp = re.sub(r"[^0-9tz]", "", str(first.get("at", "")).lower())
    actor = re.sub(r"[^a-z0-9._-]+", "-", str(first.get("actor", "")).lower()).strip("-.") or "player"
    action = re.sub(r"[^a-z0-9._-]+", "-", str(first.get("action", "")).lower()).strip("-.")
    return f"{actor}/{action}-{stamp}"


def _default_base(root: Path, remote: str | None, *, required: bool = True) -> str | None:
    """The branch a pull request goes into: ``remote``'s default branch, as git knows it without asking the remote
    (``git remote show`` would): its HEAD (``refs/remotes/REMOTE/HEAD``, which git clone sets), else the branch git
    clone made here (the remote's default when cloned), else the remote's only branch (which git is then told is
    its HEAD, as a clone would have been). Without a remote, or one holding no branch yet: main, else master, else
    None (the pull request's lines then say "the default branch").

    When none of these tells (a remote added by hand, or a clone of an empty repository, holding several branches),
    refused at ``--base`` (None when not ``required``): a guess went into main, and a player on trunk pushed to it."""
    if remote:
        r = _git(root, "symbolic-ref", "--short", "-q", f"refs/remotes/{remote}/HEAD", check=False)
        if r.returncode == 0 and r.stdout.strip():
            return r.stdout.strip().split("/", 1)[-1]
        names = _remote_branches(root, remote)
        # the local branches that track a branch of the remote of their name; the one whose log begins with the clone
        for line in _git(root, "for-each-ref", "--format=%(refname:short) %(upstream)", "refs/heads",
                         check=False).stdout.splitlines():
            local, _, upstream = line.partition(" ")
            if upstream != f"refs/remotes/{remote}/{local}":
                continue
            log = Path(_git(root, "rev-parse", "--git-path", f"logs/refs/heads/{local}", check=False).stdout.strip())
            try:
                with open(root / log, encoding="utf-8", errors="replace") as f:
                    first = f.readline()
            except OSError:
                continue
            if "\tclone: from " in first:
                return local
        if len(names) == 1:
            _git(root, "remote", "set-head", remote, names[0], check=False)  # remembered, as git clone does
            return names[0]
        if names:
            if not required:
                return None
            raise BadInput(Problem(
                f"cannot tell which branch the pull request goes into: git knows no default branch of {remote} "
                f"(its branches: {', '.join(names[:10])}{', ...' if len(names) > 10 else ''}); name it with --base "
                f"BRANCH, or tell git once: git remote set-head {remote} --auto", field="--base", kind=BAD_INPUT))
    for name in ("main", "master"):
        if _git(root, "rev-parse", "--verify", "-q", f"refs/heads/{name}", check=False).returncode == 0:
            return name
    return None  # nothing to push to: the lines say "the default branch"


def _remote_branches(root: Path, remote: str) -> list[str]:
    """The branches of ``remote`` as git last fetched them (its HEAD left out), sorted."""
    return sorted(b[len(f"refs/remotes/{remote}/"):] for b in _git(
        root, "for-each-ref", "--format=%(refname)", f"refs/remotes/{remote}", check=False).stdout.split()
        if b != f"refs/remotes/{remote}/HEAD")


def _web_compare(url: str, base: str | None, branch: str) -> str | None:
    """The page that opens a pull request from ``branch`` into ``base`` (the repository's default when None), for a
    GitHub remote's URL; else None."""
    m = re.match(r"^(?:https?://(?:[^@/]+@)?github\.com/|git@github\.com:|ssh://git@github\.com/)([^/]+)/(.+?)"
                 r"(?:\.git)?/?$", url)
    if not m:
        return None
    return f"https://github.com/{m.group(1)}/{m.group(2)}/compare/{f'{base}...' if base else ''}{branch}?expand=1"


def submit(root: Path, game: str | None, *, base: str | None = None, remote: str | None = "origin",
           branch: str | None = None, push: bool = True, author: str | None = None,
           now: datetime | None = None, use_gh: bool = True, named_remote: bool = False) -> Submitted:
    """Judge, commit, push and open the pull request of the uncommitted actions of ``game`` (the only game with
    changes, when None), or of its new checkpoint. Refused (nothing committed) when there is nothing to submit or
    the check refuses it. ``named_remote``: ``remote`` was given (--remote), so is asked for even without a push."""
    remotes = preflight(root, base=base, remote=remote, branch=branch, push=push, named_remote=named_remote)
    if game is not None:  # a misspelt game is told as one, with the games there are, not as having nothing new
        require_game(root, game)
    changed = changed_games(root)
    if game is None:
        if not changed:
            raise BadInput(Problem("nothing to submit: no game has uncommitted changes (take an action with nomic "
                                   "act first)", kind=BAD_INPUT))
        if len(changed) > 1:
            raise BadInput(Problem(f"several games have uncommitted changes ({', '.join(sorted(changed))}); name the "
                                   "one to submit: nomic pr GAME", field="game", kind=BAD_INPUT))
        game = next(iter(changed))
    if not changed.get(game) or not (root / "content" / game).is_dir():
        raise BadInput(Problem(f"nothing to submit in content/{game}: no new action file (a game changes only "
                               "through nomic act; take the action first)", f"content/{game}", kind=BAD_INPUT))
    # held as nomic act holds it, from the reading of the changes to the commit: an action being written meanwhile is
    # neither judged nor committed half-written (and one a killed nomic act left half-written is finished first)
    with locked(root / "content" / game):
        paths = list(changed_games(root).get(game, {}))
        records = _new_actions(root, paths, game) or _checkpoint(root, paths, game) or _founding(root, paths, game)
        if not records:
            raise BadInput(Problem(f"nothing to submit in content/{game}: no new action file (a game changes only "
                                   "through nomic act; take the action first)", f"content/{game}", kind=BAD_INPUT))
        return _commit_and_push(root, game, paths, records, base=base, remote=remote, remotes=remotes,
                                branch=branch, push=push, author=author, now=now, use_gh=use_gh)


def preflight(root: Path, *, base: str | None = None, remote: str | None = "origin", branch: str | None = None,
              push: bool = True, named_remote: bool = False) -> list[str]:
    """The repository's remotes, once the options are known good: what ``submit`` refuses before it judges or
    commits anything, and ``nomic act --pr`` before it acts (its action was written, then the pull request refused)."""
    if _git(root, "rev-parse", "--git-dir", check=False).returncode != 0:  # "HEAD: ...", as if an option, it said
        raise BadInput(Problem(f"{root} is not in a git repository: nomic pr commits the actions taken in a clone of "
                               "the game repository (git clone URL), and pushes them from there", kind=BAD_INPUT))
    if _git(root, "rev-parse", "--verify", "-q", "HEAD^{commit}", check=False).returncode != 0:
        raise BadInput(Problem("this repository has no commit yet: nomic pr judges the actions against the last "
                               "commit; commit the game first (git add content && git commit)", kind=BAD_INPUT))
    remotes = _git(root, "remote").stdout.split()
    if (push or named_remote) and remote and remotes and remote not in remotes:
        # a misspelt --remote: refused before anything is committed, rather than committed and left unpushed (with
        # --no-push too: its hint said git push -u REMOTE for the name misspelt)
        raise BadInput(Problem(f"no remote {remote!r} in this repository (its remotes: {', '.join(remotes)})"
                               f"{did_you_mean(remote, remotes)}", field="--remote", kind=BAD_INPUT))
    if base is not None:
        _require_base(root, base, remote if remote in remotes else None)
    else:
        default = _default_base(root, remote if remote in remotes else None)  # refused when it cannot be told
        if push and remote in remotes and not _remote_branches(root, remote):
            # to a remote holding no branch yet, the player's branch would be the first pushed, which the forge
            # makes the repository's default (and the pull request would have no branch to go into)
            raise BadInput(Problem(
                f"{remote} holds no branch yet (as git last fetched it: git fetch {remote}), so the pull request "
                f"has no branch to go into, and its own would be the first pushed, which the forge makes the default "
                f"branch: push the game's main branch to {remote} first (git push -u {remote} {default or 'BRANCH'}), "
                "or name the branch the pull request goes into with --base BRANCH", field="--base", kind=BAD_INPUT))
    if branch is not None and _git(root, "check-ref-format", "--branch", branch, check=False).returncode != 0:
        # asked before the check and the commit: git would refuse it only when the branch is made
        raise BadInput(Problem(f"{branch[:80]!r} is not a name git takes for a branch (no spaces, '..', '~', '^', "
                               "':', '?', '*', '[' or '\\', not starting with '-' nor ending with '/', '.' or "
                               "'.lock'); name another with --branch", field="--branch", kind=BAD_INPUT))
    return remotes


def _require_base(root: Path, base: str, remote: str | None) -> None:
    """``--base`` names a branch the pull request can go into: one of this repository's, or of ``remote`` as git
    last fetched it. Refused before anything is committed (a misspelt base once left a commit on a new branch)."""
    refs = [f"refs/heads/{base}"] + ([f"refs/remotes/{remote}/{base}"] if remote else [])
    if base and not base.startswith("-") and any(
            _git(root, "rev-parse", "--verify", "-q", ref, check=False).returncode == 0 for ref in refs):
        return
    pattern = ["refs/heads"] + ([f"refs/remotes/{remote}"] if remote else [])
    names = sorted({line.split("/", 3 if line.startswith("refs/remotes/") else 2)[-1]
                    for line in _git(root, "for-each-ref", "--format=%(refname)", *pattern).stdout.split()} - {"HEAD"})
    where = f"here or on {remote} (as last fetched: git fetch {remote})" if remote else "here"
    raise BadInput(Problem(f"no branch {base[:80]!r} {where} for the pull request to go into (its branches: "
                           f"{', '.join(names[:10]) or 'none'}){did_you_mean(base, names)}", field="--base",
                           kind=BAD_INPUT))


def _commit_and_push(root: Path, game: str, paths: list[str], records: list[dict], *, base: str | None,
                     remote: str | None, remotes: list[str], branch: str | None, push: bool, author: str | None,
                     now: datetime | None, use_gh: bool) -> Submitted:
    from .check import check_pr
    from .report import emit

    report = check_pr(root, "HEAD", author=author, now=now)
    report.problems = game_problems(report, game)  # the pull request holds the game's folder only
    done = Submitted(report)
    if report.exit_code != 0:
        return done
    asked, remote = remote, (remote if remote in remotes else None)  # ``remotes``: as submit read them
    default = _default_base(root, remote, required=not base)
    base = base or default  # None: a remote holding no branch yet, and no main nor master here
    into = base or "the game repository's default branch"
    current = _git(root, "symbolic-ref", "--short", "-q", "HEAD", check=False).stdout.strip()
    start = current or _git(root, "rev-parse", "HEAD").stdout.strip()  # where the player was
    detached = not current
    made = ""  # the branch made here, if any
    done.title = _title(records, game)
    # a branch the pull request could go into is never committed on: the base, the remote's default, main, master
    shared = {base, "main", "master", default} - {None}
    if not current or current in shared or (branch and branch != current):
        name = branch or _branch_name(records)
        if _git(root, "rev-parse", "--verify", "-q", f"refs/heads/{name}", check=False).returncode == 0:
            raise BadInput(Problem(f"the branch {name} exists already; name another with --branch", field="--branch",
                                   kind=BAD_INPUT))
        _git(root, "switch", "-q", "-c", name)
        made = name
        done.lines.append(f"on a new branch {name} (from {current or 'a detached HEAD'})")
        current = name
    done.branch = current
    _git(root, "add", "-A", "--", f"content/{game}")
    _git(root, "reset", "-q", "--", f"content/{game}/.nomic.lock", check=False)  # act's lock is no part of it
    body = io.StringIO()
    emit(report, "markdown", body)
    # --only: what the player had staged elsewhere (another game's files) stays staged, out of this commit
    how = {"checkpoint": "Made with nomic checkpoint", f"new game {game}": "Founded with nomic new"}.get(
        str(records[0].get("action")), "Taken with nomic act")
    committed = _git(root, "commit", "-q", "--only", "-m", done.title, "-m", f"{how} in content/{game}; judged by "
                     "nomic check against the commit before it.", "--", f"content/{game}", check=False)
    if committed.returncode != 0:
        # a hook or git's own configuration refused: back where the player was, the new branch gone with nothing on
        # it, so that running nomic pr again starts afresh (the game's files stay in the work tree, staged)
        said = (committed.stderr or committed.stdout).strip().splitlines()
        back = ""
        if made:
            _git(root, "switch", "-q", *(["--detach"] if detached else []), start, check=False)
            _git(root, "branch", "-q", "-D", made, check=False)
            back = f"; back on {'the detached HEAD' if detached else start}, the branch {made} removed"
        raise BadInput(Problem(f"git commit failed: {said[-1] if said else 'exit ' + str(committed.returncode)}; "
                               f"nothing was committed{back}", kind=BAD_INPUT))
    done.commit = _git(root, "rev-parse", "--short", "HEAD").stdout.strip()
    done.lines.append(f"committed {done.commit}: {done.title} ({len(paths)} file{'s' if len(paths) != 1 else ''})")
    if push and not remotes:  # a repository with no remote at all: --remote could name none (it said "no remote
        # named origin (--remote names another)")
        done.lines.append(f"not pushed (this repository has no remote): add the game repository's, push the branch "
                          f"and open the pull request into {into} yourself: git remote add {asked or 'origin'} URL && "
                          f"git push -u {asked or 'origin'} {current}")
        return done
    if not push or remote is None:
        why = "--no-push" if not push else f"no remote named {asked}: --remote names another"
        done.lines.append(f"not pushed ({why}): push the branch and open the pull request into {into} yourself: "
                          f"git push -u {remote or 'REMOTE'} {current}")
        return done
    pushed = _git(root, "push", "-q", "-u", remote, current, check=False)
    if pushed.returncode != 0:
        said = (pushed.stderr or pushed.stdout).strip().splitlines()
        raise BadInput(Problem(f"the change is committed ({done.commit} on {current}), but git push to {remote} "
                               f"failed: {said[-1] if said else 'exit ' + str(pushed.returncode)}; push it again "
                               f"with git push -u {remote} {current}", field="--remote", kind=BAD_INPUT))
    done.lines.append(f"pushed {current} to {remote}")
    gh = shutil.which("gh") if use_gh else None
    if gh:
        made = subprocess.run([gh, "pr", "create", *(["--base", base] if base else []), "--head", current,
                               "--title", done.title,
                               "--body", body.getvalue()], cwd=str(root), capture_output=True, text=True)
        if made.returncode == 0:
            done.lines.append(f"opened the pull request: {made.stdout.strip().splitlines()[-1]}")
            return done
        # all of what gh said: its last line alone can be the least of it (not logged in, it ends with
        # "Alternatively, populate the GH_TOKEN environment variable...", after "please run: gh auth login")
        said = " ".join(" ".join(line.split()) for line in (made.stderr or made.stdout).splitlines() if line.strip())
        done.lines.append(f"gh pr create failed ({said[:300] if said else 'exit ' + str(made.returncode)}); the "
                          f"branch is pushed, so open the pull request as said below, or with gh pr create --head "
                          f"{current} once gh works (gh auth login)")
    url = _git(root, "remote", "get-url", remote, check=False).stdout.strip()
    page = _web_compare(url, base, current)
    if page:
        done.lines.append(f"open the pull request: {page}")
    else:
        done.lines.append(f"open a pull request from {current} into {into} on {remote} ({url})")
    return done
