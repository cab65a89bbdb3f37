"""``nomic check --history``: what the repository's history did to each game's log and starting point.

The audit (``nomic check``) replays a game's log from ``initial/`` as it finds them; the pull-request check refuses
an edit to an action already in the log, and a change to ``initial/`` other than an admin's checkpoint. A commit
that reached the branch past that check (an admin's direct push, a force push, a repository imported from
elsewhere) could have rewritten either, and the audit would replay happily from a forged start. This walks the
first-parent history (one ``git log``, every commit compared with its first parent, as a merge's pull request was
judged) and reports, for each game, every commit that:

- modified, removed or renamed an action file of the log (``history is append-only``);
- changed ``initial/`` after the commit that founded the game (the first where its ``initial/`` appears) other
  than as a valid checkpoint: ``checkpoint.judge_pr`` on (first parent, commit), the checkpoint's maker (``by``)
  standing for the pull request's author, as an admin on the roster at the parent, and the commit's committer date
  for "now". A checkpoint that comes with other changes to the game is refused there, as in a pull request.

What it cannot say: who made a commit (git's author and committer are whatever the pusher wrote; the maker a
checkpoint names is what is checked against the roster), nor whether the founding commit's ``initial/`` is a fair
start: that, and a game removed and founded again (noted), are trusted as a new game's founding is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path, PurePosixPath

from .check import _git, changed_between, name_status, require_revision
from .problems import BAD_INPUT, ILLEGAL, NEEDS_ADMIN, BadInput, Problem, Report, counted
from .timeutil import UTC

APPEND_ONLY = "history is append-only"
LOCK = ".nomic.lock"


@dataclass
class Commit:
    sha: str
    short: str
    parent: str  # the first parent's hash, "" for a root commit
    time: datetime  # the committer date
    subject: str
    changes: list[tuple[str, str, str]]  # (status, path, old path), as check.name_status

    def said(self) -> str:
        subject = self.subject if len(self.subject) <= 60 else self.subject[:57] + "..."
        return f"commit {self.short} ({subject!r})"


@dataclass
class Game:
    """What the walk knows of one game folder at the commit it has reached."""

    files: set[str] = field(default_factory=set)  # every path under content/<game>/
    initial: int = 0  # how many of them lie under initial/
    founded: str = ""  # the commit where its initial/ first appeared ("" before, or before the walk)
    added: dict[str, str] = field(default_factory=dict)  # action path -> the commit that added it (in the walk)
    removed: str = ""  # the commit that removed the whole folder, until it comes back
    checkpoints: int = 0  # valid checkpoints found
    actions: int = 0  # action files added in the walk


def revisions(root: Path, given: str) -> list[str]:
    """``git log``'s revision arguments for ``--history`` (HEAD, a revision, or ``A..B``), each one checked."""
    if "..." in given:
        raise BadInput(Problem(f"{given[:80]!r}: a range is written A..B (the commits of B's first-parent line "
                               "after A), not A...B", field="--history", kind=BAD_INPUT))
    low, dots, high = given.partition("..")
    if not dots:
        require_revision(root, given, "--history")
        return [given]
    high = high or "HEAD"
    if not low:
        raise BadInput(Problem(f"{given[:80]!r}: name where the range starts (A..B)", field="--history",
                               kind=BAD_INPUT))
    require_revision(root, low, "--history")
    require_revision(root, high, "--history")
    return [f"^{low}", high]


def walk(root: Path, revs: list[str]) -> list[Commit]:
    """The first-parent history in ``revs``, oldest first, each commit with its changes against its first parent:
    one ``git log`` for the whole history."""
    # -m: a merge's changes against its first parent (--first-parent implies it from git 2.31 on); -M: renames
    out = _git(root, "log", "--first-parent", "-m", "-M", "--reverse", "-z", "--name-status", "--no-color",
               "--format=%x1e%H%x1f%h%x1f%P%x1f%ct%x1f%s", *revs, "--")
    commits = []
    for chunk in out.split("\x1e")[1:]:
        header, _, rest = chunk.partition("\0")
        sha, short, parents, stamp, subject = header.split("\x1f", 4)
        changes = name_status(rest)
        commits.append(Commit(sha, short, parents.split(" ")[0], datetime.fromtimestamp(int(stamp), UTC),
                              subject, changes))
    return commits


def _game_of(path: str) -> tuple[str, str] | None:
    """(game, path inside its folder) for a path under content/<game>/, else None."""
    parts = path.split("/", 2)
    if len(parts) < 3 or parts[0] != "content" or not parts[2]:
        return None
    return parts[1], parts[2]


def _start(root: Path, commit: Commit, games: dict[str, Game]) -> None:
    """The games as they stand at the first parent of the walk's oldest commit (a range's start): their files, and
    whether each is founded already."""
    if not commit.parent:
        return
    for path in _git(root, "ls-tree", "-r", "-z", "--name-only", "--full-tree", commit.parent,
                     "--", "content").split("\0"):
        found = _game_of(path)
        if found is None:
            continue
        game = games.setdefault(found[0], Game())
        game.files.add(path)
        if found[1].startswith("initial/"):
            game.initial += 1
            game.founded = "(before the range)"


def _by_game(changes: list[tuple[str, str, str]], wanted: set[str] | None) -> dict[str, list[tuple[str, str, str]]]:
    """A commit's changes under content/, by game (of the games ``wanted``, or all); a file moved from one game's
    folder to another's (or out of content/) is removed from the one and added to the other."""
    out: dict[str, list[tuple[str, str, str]]] = {}

    def touch(status: str, path: str, old: str) -> None:
        found = _game_of(path)
        if found and (wanted is None or found[0] in wanted):
            out.setdefault(found[0], []).append((status, path, old))

    for status, path, old in changes:
        if status == "R" and (_game_of(old) or ("",))[0] != (_game_of(path) or ("",))[0]:
            touch("D", old, old)
            touch("A", path, path)
        elif status == "C":
            touch("A", path, path)
        else:
            touch(status, path, old)
    return out


def check_history(root: Path, given: str = "HEAD", only: list[str] | None = None) -> Report:
    """Every commit of the first-parent history ``given`` that rewrote a game's log or starting point."""
    report = Report()
    revs = revisions(root, given)
    commits = walk(root, revs)
    games: dict[str, Game] = {}
    if commits:
        _start(root, commits[0], games)
    wanted = set(only) if only else None
    for commit in commits:
        for name, changes in _by_game(commit.changes, wanted).items():
            _commit(root, commit, name, games.setdefault(name, Game()), changes, report)
    for name in sorted(wanted or ()):
        if name not in games:
            raise BadInput(Problem(f"no commit of the history walked ({given}) holds content/{name}",
                                   field="--game", kind=BAD_INPUT))
    for name in sorted(games):
        game = games[name]
        if wanted is not None and name not in wanted:
            continue
        said = (f"{name}: {counted(game.actions, 'action file')} added, "
                f"{counted(game.checkpoints, 'valid checkpoint')}")
        if game.founded and game.founded != "(before the range)":
            said += f", founded in commit {game.founded}"
        report.notes.append(said)
    shallow = _git(root, "rev-parse", "--is-shallow-repository").strip() == "true"
    if shallow:
        report.notes.append("a shallow clone: the history before its oldest commit is not here, and that commit's "
                            "files are trusted as a founding commit's are (fetch the whole history: git fetch "
                            "--unshallow, or fetch-depth: 0 in CI)")
    report.notes.append(f"the history only ({counted(len(commits), 'commit')} of {given}'s first-parent line walked); "
                        "nomic check without --history audits the games' logs")
    report.judged = f"{counted(len(commits), 'commit')} walked"
    return report


def _commit(root: Path, commit: Commit, name: str, game: Game, changes: list[tuple[str, str, str]],
            report: Report) -> None:
    """Follow one commit's changes to one game, and report what the pull-request check would have refused."""
    folder = f"content/{name}/"
    had_files = bool(game.files)
    starting: list[tuple[str, str, str]] = []
    edits: list[tuple[str, str, str]] = []
    for status, path, old in changes:
        rel = path[len(folder):]
        if status == "R":
            game.files.discard(old)
            game.initial -= old[len(folder):].startswith("initial/")
        if status == "D":
            game.files.discard(path)
            game.initial -= rel.startswith("initial/")
        elif path not in game.files:
            game.files.add(path)
            game.initial += rel.startswith("initial/")
        if rel.startswith("initial/") or (status == "R" and old[len(folder):].startswith("initial/")):
            starting.append((status, path, old))
        if rel.startswith("actions/") or (status == "R" and old[len(folder):].startswith("actions/")):
            if status == "A" or (status == "R" and not old[len(folder):].startswith("actions/")):
                game.added[path] = commit.short
                game.actions += 1
            else:
                edits.append((status, path, old))
    if not game.files:  # the whole folder removed: an admin's removal of a game, as the pull-request check allows
        game.removed = commit.said()
        game.initial, game.added = 0, {}
        return
    if game.removed and not had_files:
        report.notes.append(f"{name}: removed in {game.removed} and founded again in {commit.said()}; the new "
                            "folder's initial/ is trusted as a founding commit's is")
        game.removed, game.founded = "", ""
    for status, path, old in edits:
        verb = {"M": "edits", "D": "removes", "R": "renames", "T": "changes"}.get(status, "changes")
        since = game.added.get(old)
        what = f"the action file {old}" + (f" (added in commit {since})" if since else "")
        if status == "R":
            what += f", now {PurePosixPath(path).name}"
            game.added[path] = game.added.pop(old, commit.short)
        report.add([Problem(f"{commit.said()} {verb} {what}: the log is only ever added to", path,
                            rule=APPEND_ONLY, commit=commit.sha)])
    if not starting:
        return
    if not game.founded:
        # the commit founding the game (its initial/ appears): trusted, as the check of a new game trusts it
        if game.initial:
            game.founded = f"{commit.short} ({commit.subject[:60]!r})"
        return
    if [(s, p[len(folder):]) for s, p, _ in starting] == [("A", "initial/game.yaml")]:
        # a game founded before initial/game.yaml was written gets it (docs/admins.md): added by an admin's push,
        # and the audit checks that the log leads from it to game.yaml
        report.notes.append(f"{name}: {commit.said()} adds initial/game.yaml, the configuration the game was "
                            "founded with (trusted as the founding commit is)")
        return
    _checkpoint(root, commit, name, game, [c for c in changes if c[1] != folder + LOCK], report)


def _checkpoint(root: Path, commit: Commit, name: str, game: Game, changes: list[tuple[str, str, str]],
                report: Report) -> None:
    """A commit that changes an established game's initial/: the pull-request check's judgement of a checkpoint
    (``checkpoint.judge_pr``), from its first parent to it, its maker in the author's place."""
    from . import checkpoint
    from .content import GitTree, has_file, load_game

    def place(problems: list[Problem], prefix: str = "") -> list[Problem]:
        # no admin can approve a commit already on the branch: what needed one is illegal here
        return [p.at(message=f"{commit.said()}: {prefix}{p.message}", commit=commit.sha,
                     kind=ILLEGAL if p.kind == NEEDS_ADMIN else p.kind) for p in problems]

    base = GitTree(root, commit.parent)
    # the commit's tree as the pull-request check makes its head: the parent's, with the commit's changes (one git
    # diff), so that the files the two share are read once, in one batch
    head = GitTree.changed(base, commit.sha, changed_between(root, commit.parent, commit.sha)[1])
    try:
        before = load_game(base, name)
    except BadInput as e:
        report.add(place(e.problems, "changes initial/, and the game at its parent cannot be read: "))
        return
    who: str | None = ""  # judge_pr's maker; "" when there is no checkpoint to name one (it says what is wrong)
    maker: str | None = None
    if has_file(head, f"content/{name}/{checkpoint.FILE}"):
        try:
            cp = checkpoint.read(head, name, {})
        except BadInput:
            cp = None  # judge_pr reads it again, and reports it
        if cp is not None:
            by = str(cp.get("by", ""))
            admin = any(p.get("name") == by and p.get("admin") for p in before.state.players())
            who, maker = (by if admin else None), f"its maker {by}"
    problems, note = checkpoint.judge_pr(base, head, before, who, maker, changes, commit.time)
    if problems:
        report.add(place(problems))
        return
    game.checkpoints += 1
    report.notes.append(f"{commit.said()}: {note}")
