"""``nomic check``: is the repository (or a pull request against a base) legal?

Without a base: every game's files validate, its invariants hold, and the
replay of its whole action log from ``initial/`` (its founding configuration,
``initial/game.yaml``, where it has one) gives exactly its files, game.yaml
included.

With ``--base REF`` (the pull-request check of DESIGN.md):

1. the gamestate at REF is the trusted starting point;
2. action files may only be added: an edited, deleted or renamed one is
   refused, and so is any change under ``initial/``;
3. the new actions are replayed in time order: parameters, who may act (the
   actor must be the pull request's author), legality, dice, effects;
4. the replayed state must equal the pull request's files, to the value;
5. changes to the judge itself (validators/, schemas/, site_plugins/,
   mkdocs.yml, CI files, the package) need an admin.
"""

from __future__ import annotations

import subprocess
from collections import deque
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path, PurePosixPath
from typing import Any

from . import engine
from .content import (
    ACTION_NAME,
    GameFiles,
    GitTree,
    Parsed,
    Source,
    WorkTree,
    games,
    has_file,
    load_game,
    no_games,
    read_action,
    require_game,
)
from .engine import State
from .judge import Step, compare, initial_problems, invariants, judge_one
from .problems import (
    BAD_INPUT,
    ILLEGAL,
    NEEDS_ADMIN,
    BadInput,
    Problem,
    Report,
    counted,
    did_you_mean,
    format_path,
    shown_name,
)

ENGINE_PATHS = ("validators/", "schemas/", "site_plugins/", "mkdocs.yml", ".github/", ".ci/", "pyproject.toml",
                "setup.py", "setup.cfg", "requirements", "Makefile", ".pre-commit-hooks.yaml")
# What a game folder may hold; anything else in a pull request (a journal, a lock, notes) needs an admin.
GAME_FILES = ("game.yaml", "gamestate/", "ruleset/", "actions/", "initial/")


@dataclass
class GameCheck:
    game: str
    steps: list[Step] = field(default_factory=list)
    final: State | None = None


def _steps_report(report: Report, steps: list[Step]) -> None:
    for s in steps:
        report.verdicts.append({"action": s.path, "actor": s.record.get("actor"), "name": s.record.get("action"),
                                "at": s.record.get("at"), "legal": s.legal,
                                "problems": [p.text() for p in s.problems]})
        report.add(s.problems)


def replay_log(files: GameFiles, source: Source, start: State, paths: list[str],
               now: datetime | None = None, states: RecentStates | list[State] | None = None,
               timeline: list[tuple[str, dict[str, Any], State, Any]] | None = None,
               slim: bool = False) -> tuple[State, list[Step]]:
    """Replay action files in order from ``start``; stops at the first illegal one.

    ``slim``: a legal step keeps only its record's time, actor and action (what the report shows), not
    its parameters and outcome (a dance's outcome can be megabytes; an audit keeps 10,000 steps).

    ``states``, when given, receives the state before each action (for ``find_conflict``).
    ``timeline``, when given, receives (path, record, state before, Applied) for each legal action:
    what the wiki draws, so that ``nomic build`` replays the log once.
    """
    if isinstance(source, GitTree):
        source.prefetch(paths)
    texts: dict[str, str] = {}
    import gc

    from .progress import progress

    frozen = len(paths) >= 1000
    if frozen:  # what is loaded already (the game, the modules) is not scanned again by every full collection
        gc.freeze()
    try:
        return _replay(files, source, start, paths, now, states, timeline, texts, progress, slim)
    finally:
        if frozen:
            gc.unfreeze()


def _replay(files: GameFiles, source: Source, state: State, paths: list[str], now: datetime | None,
            states: RecentStates | list[State] | None, timeline: list[tuple[str, dict[str, Any], State, Any]] | None,
            texts: dict[str, str], progress: Any, slim: bool) -> tuple[State, list[Step]]:
    steps: list[Step] = []
    for path in progress(paths, len(paths), "replaying"):
        if states is not None:
            states.append(state)
        try:
            record = read_action(source, path, texts, files.registry)
            name_problems = name_mismatch(path, record, texts.get(path))
        except BadInput as e:
            steps.append(Step(path, {}, [p.at(action=path) for p in e.problems]))
            break
        if name_problems:
            action = record.get("action")
            if isinstance(action, str) and action not in files.registry.actions:
                # the mismatch alone hid that the record names no action at all (a typo in 'action:')
                line, col = next(((p.line, p.col) for p in name_problems if p.field == "action"), (0, 0))
                name_problems.insert(0, Problem(files.registry.unknown_action(action), path, line, col, "action",
                                               kind=BAD_INPUT))
            steps.append(Step(path, record, [p.at(action=path) for p in name_problems]))
            break
        step = judge_one(files.registry, state, record, path, texts.get(path), now=now, shape_checked=True)
        steps.append(step)
        if not step.legal or step.applied is None:
            break
        if timeline is not None:
            timeline.append((path, record, state, step.applied))
        state = step.applied.state
        step.applied = None  # the report needs the verdict, not every intermediate state (memory, GC)
        if slim:
            step.record = {k: record[k] for k in ("at", "actor", "action") if k in record}
        texts.pop(path, None)
    return state, steps


def name_mismatch(path: str, record: dict[str, Any], text: str | None) -> list[Problem]:
    """An action file's name repeats its time, actor and action (the wiki and reviewers read the name)."""
    from .act import slug
    from .timeutil import file_stamp

    m = ACTION_NAME.match(path.rpartition("/")[2])
    if not m:
        return []
    try:
        stamp = file_stamp(record["at"])
    except (KeyError, TypeError, ValueError):
        return []
    actor_slug = slug(str(record.get("actor", "")))
    action = str(record.get("action", ""))
    if m.group(1) == stamp and m.group(2) == actor_slug and m.group(3) == action:
        return []
    from .yamlio import locate

    out = []
    for fld, named, real in (("at", m.group(1), stamp), ("actor", m.group(2), actor_slug),
                             ("action", m.group(3), action)):
        if named != real:
            line, col = locate(text, [fld]) if text is not None else (0, 0)
            out.append(Problem(f"the file's name says {named!r}, the record says {real!r}; name action files as "
                               "nomic act does", path, line, col, fld, rule="action file names"))
    return out


CONFLICT_WINDOW = 40  # how far back to look for the action an illegal one conflicts with


class RecentStates:
    """The states before the last few actions, by action index: all ``find_conflict`` looks at.

    Keeping every state of a 10,000-action replay would hold them all in memory (they share what did
    not change, but each action's copies stay alive) and make the garbage collector scan them again and again.
    """

    def __init__(self, keep: int):
        self._items: deque[State] = deque(maxlen=keep)
        self._count = 0

    def append(self, state: State) -> None:
        self._items.append(state)
        self._count += 1

    def __getitem__(self, i: int) -> State:
        first = self._count - len(self._items)
        if not first <= i < self._count:
            raise IndexError(f"state {i} is no longer kept (only the last {len(self._items)})")
        return self._items[i - first]


def find_conflict(files: GameFiles, source: Source, states: RecentStates | list[State], paths: list[str],
                  j: int, now: datetime | None = None) -> str | None:
    """The latest earlier action without which action ``j`` would be legal (and the ones between stay legal).

    When two pull requests are each judged legal against the same base and both are merged, the second
    action in time is the one the replay refuses; this names the first.
    """
    records: dict[int, dict[str, Any]] = {}

    def record(k: int) -> dict[str, Any] | None:
        if k not in records:
            try:
                records[k] = read_action(source, paths[k])
            except BadInput:
                return None
        return records[k]

    for i in range(j - 1, max(-1, j - 1 - CONFLICT_WINDOW), -1):
        state = states[i]
        ok = True
        for k in list(range(i + 1, j)) + [j]:
            rec = record(k)
            if rec is None:
                return None
            step = judge_one(files.registry, state, rec, paths[k], now=now)  # judged as the replay judged it
            if not step.legal or step.applied is None:
                ok = False
                break
            state = step.applied.state
        if ok:
            return paths[i]
    return None


def check_repo(root: Path, *, replay: bool = True, now: datetime | None = None,
               only: list[str] | None = None, keep: dict[str, Any] | None = None) -> Report:
    """Every game validates; with ``replay``, its log replays from initial/ to its files.

    ``keep``, when given, receives for each game that checks legal its files, its initial state and its
    timeline (``replay_log``'s): ``nomic build`` hands them to the wiki instead of replaying twice.
    """
    report = Report()
    source = WorkTree(root)
    for name in only or []:
        require_game(root, name, "--game")  # only: the check's --game
    names = only or games(source)
    if not names:
        report.add([Problem(no_games(root), "content", kind=BAD_INPUT)])
    for name in names:
        try:
            files = load_game(source, name)
        except BadInput as e:
            report.add(e.problems)
            continue
        report.add(invariants(files))
        from .transaction import JOURNAL

        if (root / files.root / JOURNAL).exists():
            report.add([Problem("an interrupted nomic act left its journal here; the files may be half written. "
                                "The next nomic act on this game finishes the write", f"{files.root}/{JOURNAL}",
                                kind=BAD_INPUT)])
        if replay:
            audit_game(source, files, report, now=now, keep=keep)
    if not replay:  # else the verdict's '0 actions judged' would read as a log found empty
        report.notes.append("the files only (--no-replay): no action log was replayed")
    return report


def audit_game(source: Any, files: Any, report: Report, *, now: datetime | None = None,
               keep: dict[str, Any] | None = None) -> None:
    """The audit of one game (``files``, loaded from ``source``, a work tree or a commit): its log replays from
    initial/ to its files. Problems and a note go into ``report``; ``keep`` as for ``check_repo``."""
    name = files.name
    if not source.list(f"content/{name}/initial"):
        report.notes.append(f"{name}: no initial/ folder, so the action log cannot be audited")
        return
    try:
        initial = load_game(source, name, part="initial/", registry=files.registry)
    except BadInput as e:
        report.add(e.problems)
        return
    founding = initial_problems(initial)
    if founding:
        # the rules read the founding state as the checks promise (a stat as the roster declares it, a module's
        # invariants): a value they cannot read is bad input at its line, not an error deep in the first rule
        report.add(founding)
        return
    from . import checkpoint

    try:  # after a checkpoint, initial/ is the game after the log's first actions: those are verified, not replayed
        cp, held, problems = checkpoint.settled(source, files, initial)
    except BadInput as e:
        problems = e.problems
    if problems:
        report.add(problems)
        return
    log = files.actions[len(held):]
    states = RecentStates(CONFLICT_WINDOW + 1)
    timeline: list[tuple[str, dict[str, Any], State, Any]] | None = [] if keep is not None else None
    final, steps = replay_log(files, source, initial.state, log, now=now, states=states,
                              timeline=timeline, slim=True)
    if steps and not steps[-1].legal and steps[-1].record and len(steps) > 1 and all(
            p.kind == ILLEGAL and p.rule != "action file names" for p in steps[-1].problems):
        j = len(steps) - 1
        other = find_conflict(files, source, states, log, j, now=now)
        if other is not None:
            steps[-1].problems.insert(0, Problem(
                f"conflicts with the earlier action {other}: each is legal without the other, not both "
                "(two pull requests judged against the same base and both merged?); a CfJ or a revert of "
                "one of them settles it", steps[-1].path, rule="the replay of the action log",
                action=steps[-1].path))
            report.add([Problem(f"conflicts with the later action {steps[-1].path}, which is illegal after "
                                "it (see there)", other, rule="the replay of the action log", action=other)])
    _steps_report(report, steps)
    if all(s.legal for s in steps):
        differences = compare(final, files)
        report.add(differences)
        if keep is not None and not differences:
            keep[name] = (files, initial.state, timeline, held, cp)
    report.notes.append(f"{name}: {counted(len(steps), 'action')} replayed from initial/" + (
        f" (the checkpoint of {cp['at']} by {cp['by']} holds the {counted(len(held), 'action')} before them, "
        "their files verified by the hash chain)" if cp is not None else ""))
    if initial.config_path != f"{files.root}/initial/game.yaml":
        report.notes.append(f"{name}: no initial/game.yaml (the configuration the game was founded with), so the "
                            "log was replayed with the current game.yaml, and the configuration (keywords, options) "
                            "was not audited")


def _snapshot(state: State) -> list[Any]:
    """A deep copy of a state's data, to verify that a replay left its start as it was."""
    return [engine.plain_copy(state.config), engine.plain_copy(state.docs),
            {rid: [engine.plain_copy(r.meta), r.body] for rid, r in state.rules.items()}]


def _git(root: Path, *args: str) -> str:
    """What ``git ARGS`` prints, read as UTF-8 with what is not (an old commit's subject, a path) replaced; a git
    that fails is bad input, with what it said."""
    r = subprocess.run(["git", "-C", str(root), *args], capture_output=True)
    if r.returncode != 0:
        raise BadInput(Problem(f"git {args[0]}: {r.stderr.decode('utf-8', 'replace').strip()}", kind=BAD_INPUT))
    return r.stdout.decode("utf-8", "replace")


def require_revision(root: Path, rev: str, option: str) -> None:
    """Refuse, before any git diff, a folder that is not a git repository or a revision git does not know,
    with the likeliest branch or tag: git's own message would be a page of ``git diff`` usage."""
    found = subprocess.run(["git", "-C", str(root), "rev-parse", "--verify", "--quiet", "--end-of-options",
                            f"{rev}^{{commit}}"], capture_output=True, text=True)
    if found.returncode == 0 and not rev.startswith("-"):
        return  # one git call when all is well; the others only to say what is wrong
    inside = subprocess.run(["git", "-C", str(root), "rev-parse", "--git-dir"], capture_output=True, text=True)
    if inside.returncode != 0:
        raise BadInput(Problem(f"{root} is not in a git repository; {option} names a git revision of the game "
                               "repository: run nomic there, or pass --repo PATH", field=option, kind=BAD_INPUT))
    refs = subprocess.run(["git", "-C", str(root), "for-each-ref", "--format=%(refname:short)",
                           "refs/heads", "refs/remotes", "refs/tags"], capture_output=True, text=True).stdout.split()
    # a clone has main only as origin/main until it is checked out: name the remote's branch of that name
    remote = sorted((r for r in refs if r.endswith("/" + rev) and r != f"{r.split('/', 1)[0]}/HEAD"),
                    key=lambda r: (not r.startswith("origin/"), r))
    hint = f"; did you mean {remote[0]}?" if remote else did_you_mean(rev, refs)
    raise BadInput(Problem(f"{rev[:80]!r} is not a commit, branch or tag of this repository{hint}", field=option,
                           kind=BAD_INPUT))


def changed_paths(root: Path, base: str) -> list[tuple[str, str, str]]:
    """(status, path, old path) of every change from ``base`` to the work tree, untracked files included."""
    out = name_status(_git(root, "diff", "--no-color", "--name-status", "-z", "--find-renames", base, "--"))
    for path in _git(root, "ls-files", "--others", "--exclude-standard", "-z").split("\0"):
        if path:
            out.append(("A", path, path))
    return out


def name_status(diff: str) -> list[tuple[str, str, str]]:
    """(status, path, old path) of each change ``git diff`` or ``git log`` lists with ``--name-status -z`` (a
    rename or copy ``R``/``C`` with its old path; a status may follow the newline ``git log`` puts after a commit)."""
    out = []
    items = diff.split("\0")
    i = 0
    while i < len(items) - 1:
        status = items[i].lstrip("\n")
        if not status:
            i += 1
            continue
        if status[0] in "RC":
            out.append((status[0], items[i + 2], items[i + 1]))
            i += 3
        else:
            out.append((status[0], items[i + 1], items[i + 1]))
            i += 2
    return out


def changed_between(root: Path, base: str, head: str) -> tuple[list[tuple[str, str, str]], list[tuple[str, str]]]:
    """``changed_paths`` from ``base`` to the commit ``head`` (the work tree is not looked at), and each
    changed path's ``git ls-tree`` line at ``head`` ("" where it is gone), for ``GitTree.changed``.

    One ``git diff --raw`` between two trees: git compares them by their objects, without looking at a
    file of the work tree (a check of the work tree looks at each of a large log's 10,000 files).
    """
    out: list[tuple[str, str, str]] = []
    lines: list[tuple[str, str]] = []
    items = _git(root, "diff", "--no-color", "--raw", "-z", "--no-abbrev", "--find-renames", base, head,
                 "--").split("\0")
    i = 0
    while i < len(items) - 1:
        meta = items[i]
        if not meta.startswith(":"):
            i += 1
            continue
        # ":<old mode> <new mode> <old object> <new object> <status>", then the path (two for a rename or copy)
        _, mode, _, obj, status = meta[1:].split(" ")
        if status[0] in "RC":
            old, path = items[i + 1], items[i + 2]
            i += 3
        else:
            old = path = items[i + 1]
            i += 2
        out.append((status[0], path, old))
        if status[0] == "R":
            lines.append((old, ""))
        kind = "commit" if mode == "160000" else "blob"
        lines.append((path, "" if status[0] == "D" else f"{mode} {kind} {obj}\t{path}"))
    return out, lines


def _head_actions(folder: str, base: list[str], base_set: set[str],
                  changes: list[tuple[str, str, str]]) -> tuple[list[str], list[str], set[str]] | None:
    """The head's action files as ``load_game``'s ``log_from``: the base's log, the paths added, the paths removed.

    Listing a log of 10,000 files again, and checking and sorting their names again, costs as much as parsing
    all of a small game's other files; git has already compared every one of them with the base
    (``changed_paths``). None, to list the folder after all, for a change this does not follow.
    """
    added: list[str] = []
    removed: set[str] = set()
    for status, path, old in changes:
        if status not in "ACDMRT" or path.endswith("/"):
            return None  # an unmerged path, or a folder git lists whole (a nested repository)
        if status == "D":
            removed.add(path)
            continue
        if status == "R":
            removed.add(old)
        # as WorkTree.list: hidden files, and whatever lies in a hidden folder, are not listed
        if path.startswith(folder) and "/." not in "/" + path:
            added.append(path)
    # a base file git reports deleted (from the index) may be back as an untracked one: listed again
    return base, [p for p in dict.fromkeys(added) if p not in base_set or p in removed], removed


def _game_of(path: str) -> str | None:
    """The game folder a path lies in (content/<game>/...), None for any other path."""
    parts = PurePosixPath(path).parts
    return parts[1] if len(parts) >= 3 and parts[0] == "content" else None


def _moves_apart(changes: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    """The changes, with a file moved out of a game folder (into another game, docs/, anywhere) also listed as
    deleted where it was: git reports a move as one change at its new path, and a game's action, rule or
    gamestate file moved out of the game is gone from its game (history is append-only, SECURITY.md 3).
    A file moved into a game from elsewhere is likewise deleted where it was (an engine file, say)."""
    out = []
    for status, path, old in changes:
        out.append((status, path, old))
        if status == "R" and old != path and (_game_of(old) != _game_of(path) or _game_of(path) is None):
            out.append(("D", old, old))
    return out


def author_player(state: State, author: str) -> str | None:
    for p in state.doc("roster")["players"]:
        if str(p.get("account", "")).lower() == author.lower():
            return p["name"]
    return None


def check_pr(root: Path, base: str, *, author: str | None = None, now: datetime | None = None,
             head: str | None = None) -> Report:
    """The pull request from ``base`` to the work tree, or to the commit ``head`` when given (CI's way:
    the pull request is what was pushed, and files the work tree holds besides are not part of it)."""
    report = Report()
    require_revision(root, base, "--base")
    if head is not None:
        require_revision(root, head, "--head")
    behind = subprocess.run(["git", "-C", str(root), "merge-base", "--is-ancestor", base, head or "HEAD"],
                            capture_output=True).returncode == 1  # 0: it holds the base; >1: git could not say
    if behind:
        # the files are compared with the base's: what the base gained since the branch left it would be read as
        # undone by the pull request ("renames an action already in the log"), with no word of why
        report.notes.append(f"the branch does not hold {base} (it was begun before {base}'s last commits, or "
                            f"elsewhere): what {base} gained since counts as undone by this pull request; take the "
                            f"actions again on {base} as it stands (git switch -C BRANCH {base}, then nomic act), or "
                            f"merge {base} into the branch if {base} changed only other games")
    base_tree = GitTree(root, base)
    head_tree: WorkTree | GitTree
    if head is None:
        changes = changed_paths(root, base)
        head_tree = WorkTree(root)
    else:
        changes, lines = changed_between(root, base, head)
        head_tree = GitTree.changed(base_tree, head, lines)
    base_games = set(games(base_tree))
    head_games = set(games(head_tree))
    parsed: Parsed = {}  # the files the head shares with the base are parsed and validated once
    author_is_admin = False
    touched: dict[str, list[tuple[str, str, str]]] = {}
    engine_changes = []
    other_changes = []
    loose = []  # files in content/ but in no game: content/<name>/ holds no game.yaml at the base nor the head
    for status, path, old in _moves_apart(changes):
        parts = PurePosixPath(path).parts
        if path.startswith("content/") and (len(parts) < 3 or (parts[1] not in base_games
                                                              and parts[1] not in head_games)):
            loose.append(path)
        elif path.startswith("content/"):
            touched.setdefault(parts[1], []).append((status, path, old))
        elif any(path == p or path.startswith(p) for p in ENGINE_PATHS):
            engine_changes.append(path)
        else:
            # docs/ is built into the wiki as raw Markdown (HTML passes through); README, tests and tools
            # are the project's. Players change content/ only.
            other_changes.append(path)

    admin_anywhere: bool | None = None  # asked once, when a pull request creates or removes a game
    for name in sorted(touched):
        if name not in base_games or name not in head_games:
            if admin_anywhere is None:
                admin_anywhere = bool(author) and _admin_anywhere(base_tree, base_games, author, parsed)
            if name in head_games:
                # a new game (nomic new): an admin of a game may found another, which is checked as the audit on
                # main would check it (files, invariants, its log replayed from initial/)
                if not admin_anywhere:
                    report.add([Problem(f"a new game {name!r}: creating a game needs an admin",
                                        f"content/{name}/game.yaml", kind=NEEDS_ADMIN)])
                    continue
                try:
                    files = load_game(head_tree, name, parsed=parsed)
                except BadInput as e:
                    report.add(e.problems)
                    continue
                report.add(invariants(files))
                founding = f"content/{name}/initial/game.yaml"
                if not has_file(head_tree, founding):
                    # only a game founded before it was written may lack it: a new one's configuration is audited
                    report.add([Problem("a new game holds the configuration it is founded with in initial/game.yaml "
                                        "(nomic new writes it: a copy of game.yaml), from which the audit replays "
                                        "its log", founding, kind=BAD_INPUT)])
                audit_game(head_tree, files, report, now=now)
                report.notes.append(f"{name}: a new game, by an admin ({author})")
            elif admin_anywhere:
                report.notes.append(f"{name}: the game was removed, by an admin ({author})")
            else:
                report.add([Problem(f"the game {name!r} was removed: that needs an admin",
                                    f"content/{name}/game.yaml", kind=NEEDS_ADMIN)])
            continue
        try:
            before = load_game(base_tree, name, parsed=parsed)
        except BadInput as e:
            report.add([p.at(message="at the base: " + p.message) for p in e.problems])
            continue
        who = author_player(before.state, author) if author else None
        game_admin = who is not None and any(p["name"] == who and p.get("admin") for p in before.state.players())
        author_is_admin = author_is_admin or game_admin
        new_actions = []
        history_problems = []
        starting_point = False  # whether initial/ changes: only a checkpoint may change it
        for status, path, old in touched[name]:
            rel = PurePosixPath(path).relative_to(f"content/{name}").as_posix()
            if status != "D" and head_tree.is_link(path):
                history_problems.append(Problem("a symbolic link in a game's folder; content files are plain files",
                                                path, kind=BAD_INPUT))
                continue
            if rel == ".nomic.lock":
                continue  # nomic act's empty lock file; never read
            if not (rel == "game.yaml" or rel.startswith(GAME_FILES[1:])) or any(
                    part.startswith(".") for part in PurePosixPath(rel).parts):
                history_problems.append(Problem(
                    "not a game file (a game holds game.yaml, gamestate/, ruleset/, actions/ and initial/); "
                    "an admin must make or approve this change", path, kind=NEEDS_ADMIN))
                continue
            if rel.startswith("actions/"):
                if status == "A":
                    new_actions.append(path)
                else:
                    verb = {"M": "edits", "D": "deletes", "R": "renames", "T": "changes"}.get(status, "changes")
                    history_problems.append(Problem(
                        f"this pull request {verb} an action already in the log ({shown_name(old)}); the log is only "
                        "ever added to", path, rule="history is append-only"))
                    if status == "R":
                        new_actions.append(path)
            elif rel.startswith("initial/"):
                starting_point = True
        if starting_point:
            from . import checkpoint

            problems, note = checkpoint.judge_pr(base_tree, head_tree, before, who if game_admin else None, author,
                                                 touched[name], now)
            history_problems += problems
            if note:
                report.notes.append(note)
        report.add(history_problems)
        known = set(before.actions)
        try:
            after = load_game(head_tree, name, registry=before.registry, parsed=parsed,
                              log_from=_head_actions(f"content/{name}/actions/", before.actions, known,
                                                     touched[name]))
        except BadInput as e:
            report.add(e.problems)
            continue
        report.add(invariants(after))
        judged = {p for p in new_actions if p not in known}
        new_actions = [p for p in after.actions if p in judged]  # in log order
        last_base = before.actions[-1] if before.actions else None
        untouched = _snapshot(before.state) if engine.VERIFY_COW else None
        # the state before each action, where an action may be filed for another (may_file): judged as it then stood
        states: list[State] | None = [] if any(a.may_file for a in before.registry.actions.values()) else None
        final, steps = replay_log(after, head_tree, before.state, new_actions, now=now, states=states)
        if untouched is not None and not engine._strict_equal(untouched, _snapshot(before.state)):
            # the head's state shares the documents and rules of every file the pull request left as it was
            raise AssertionError("the replay changed the base state in place")
        if author:
            _authorship(report, before, steps, author, head_tree, states)
        else:
            report.notes.append("no pull-request author given (--author): authorship not checked")
        _steps_report(report, steps)
        if last_base and new_actions and new_actions[0] < last_base and all(s.legal for s in steps):
            pass  # time order is judged by the replay itself (the ledger's clock)
        if all(s.legal for s in steps) and not history_problems:
            differences = compare(final, after) or reordered(before.state, final, after)
            report.add(differences)
            if differences:
                report.notes.append(_why_files_differ(name, base, bool(new_actions)))
            from .markdown import state_changes

            report.changes.extend(state_changes(name, before.state, final))
        unjudged = [p.rpartition("/")[2] for p in new_actions[len(steps):]]
        if unjudged and steps and not steps[-1].legal:
            # the replay stops at the first illegal action: what comes after it was never judged
            shown = ", ".join(unjudged[:5]) + (f" and {len(unjudged) - 5} more" if len(unjudged) > 5 else "")
            report.notes.append(f"{name}: {len(steps)} of {counted(len(new_actions), 'new action')} judged "
                                f"against {base}; the replay stops at the first illegal one, so {len(unjudged)} "
                                f"after it were not judged ({shown})")
        else:
            report.notes.append(f"{name}: {counted(len(new_actions), 'new action')} judged against {base}")

    if (engine_changes or other_changes or loose) and author and not author_is_admin:
        author_is_admin = _admin_anywhere(base_tree, base_games, author, parsed)
    for path in loose:
        # a folder of content/ is a game only with its game.yaml: a file beside the games is no game's file, and
        # is told so on its own path (not as a game removed, on a game.yaml that is not there)
        parts = PurePosixPath(path).parts
        where = ("directly in content/, in no game" if len(parts) < 3 else
                 f"in {shown_name(f'content/{parts[1]}/')}, which is no game (no game.yaml there, at the base or in "
                 "this pull request)")
        if author_is_admin:
            report.notes.append(f"{shown_name(path)}: a file {where}, by an admin ({author})")
            continue
        report.add([Problem(f"a file {where}; players change only their game's files (content/<game>/ with its "
                            "game.yaml, gamestate/, ruleset/ and actions/), so an admin must make or approve this "
                            "change", path, kind=NEEDS_ADMIN)])
    for path in other_changes:
        if author_is_admin:
            report.notes.append(f"{shown_name(path)}: change outside the games by an admin ({author})")
            continue
        report.add([Problem("changes a file outside content/ (the wiki's docs, the project's files); players "
                            "change only their game's files, so an admin must make or approve this change",
                            path, kind=NEEDS_ADMIN)])
    for path in engine_changes:
        kind = NEEDS_ADMIN
        if author_is_admin:
            report.notes.append(f"{shown_name(path)}: engine change by an admin ({author})")
            continue
        report.add([Problem("changes the judge itself (engine, schemas, site or CI); an admin must make or "
                            "approve this change, in a pull request of its own", path, kind=kind)])
    return report


def reordered(base: State, replayed: State, files: GameFiles) -> list[Problem]:
    """The first mapping no action changed whose keys the files list in another order than the base's do.

    The values are compared as data (``compare``), key order aside; but the rules read a mapping in its order (Cycle
    12's die picks one of a family's tags as the world lists them), so a pull request reordering one by hand, legal
    by value, would make a later action judged on its files give what the audit's replay from initial/ does not.
    Only what no action of the pull request changed is looked at (the very objects of the base's state: the replay
    copies what it changes), whose order nomic act leaves as it was; a mapping an action changed is written its own
    way (a list item's keys synced into another item's place), so its order is not judged.
    """
    from .yamlio import locate

    pairs = [(f"{files.root}/game.yaml", base.config, replayed.config, files.state.config)]
    pairs += [(files.doc_paths.get(kind, f"{files.root}/gamestate/{kind}.yaml"), base.docs[kind], doc,
               files.state.docs[kind]) for kind, doc in replayed.docs.items()
              if kind in base.docs and kind in files.state.docs]
    for file, was, now, written in pairs:
        path = _reordered_in(was, now, written, ())
        if path is not None:
            text = files.texts.get(file)
            line, col = locate(text, path) if text is not None and path else (1, 1)
            node = now
            for k in path:
                node = node[k]
            keys = ", ".join(map(str, list(node)[:8])) + (", ..." if len(node) > 8 else "")
            return [Problem(f"the keys are in another order than the base's ({keys}), and no action of this pull "
                            "request changed them; the rules read them in that order",
                            file, line, col, format_path(path), rule="the replay of the action log")]
    return []


def _reordered_in(was: Any, now: Any, written: Any, path: tuple) -> tuple | None:
    if now is written:
        return None
    if now is was:  # as at the base: the files list its keys as the base did
        return None if _same_order(now, written) else _first_reordered(now, written, path)
    if isinstance(now, dict) and isinstance(was, dict) and isinstance(written, dict):
        for k, v in now.items():
            if k in was and k in written:
                found = _reordered_in(was[k], v, written[k], path + (k,))
                if found is not None:
                    return found
    elif isinstance(now, list) and isinstance(was, list) and isinstance(written, list):
        for i, (a, b, c) in enumerate(zip(was, now, written)):
            found = _reordered_in(a, b, c, path + (i,))
            if found is not None:
                return found
    return None


def _same_order(a: Any, b: Any) -> bool:
    """Equal data listing every mapping's keys in the same order (marshal, in C, writes them in order)."""
    import marshal

    try:
        return marshal.dumps(a, 2) == marshal.dumps(b, 2)
    except ValueError:
        return _first_reordered(a, b, ()) is None


def _first_reordered(a: Any, b: Any, path: tuple) -> tuple | None:
    if a is b:
        return None
    if isinstance(a, dict) and isinstance(b, dict):
        if list(a) != list(b):
            return path
        for k in a:
            found = _first_reordered(a[k], b[k], path + (k,))
            if found is not None:
                return found
    elif isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b)):
            found = _first_reordered(x, y, path + (i,))
            if found is not None:
                return found
    return None


def _why_files_differ(name: str, base: str, acted: bool) -> str:
    """How a player puts right files that differ from the replay: the two ways they come about are a hand edit
    and a commit that left out the new action file (``git commit -a``), and nothing in a ledger's hashes says so."""
    if not acted:
        return (f"{name}: the pull request changes the game's files but adds no action to it: they change only "
                "through `nomic act`. Was the new action file left out of the commit (git add content)? An edit "
                f"by hand is undone with `git checkout {base} -- content/{name}`, then act with `nomic act`")
    return (f"{name}: the files do not say what the new actions give: they change only through `nomic act`, never "
            f"by hand. Undo the edits with `git checkout {base} -- content/{name}/gamestate content/{name}/ruleset`"
            " and take the actions again with `nomic act`")


def _admin_anywhere(base_tree: GitTree, names: set[str], author: str, parsed: Parsed | None = None) -> bool:
    """Whether ``author`` is an admin of any game at the base (admins look after the repository)."""
    for name in sorted(names):
        try:
            state = load_game(base_tree, name, parsed=parsed).state
        except BadInput:
            continue
        who = author_player(state, author)
        if who is not None and any(p["name"] == who and p.get("admin") for p in state.players()):
            return True
    return False


def _authorship(report: Report, before: GameFiles, steps: list[Step], author: str, source: Source,
                states: list[State] | None = None) -> None:
    """Each action's actor must be the pull request's author (through the roster's account field). A problem is
    placed on the line of the field it names in the action file (``source``: the pull request's files), where a
    GitHub annotation shows it.

    ``states``: the state before each step, in which an action filed for another (``may_file``) is judged: the
    Expedition Leader who leaves, earlier in the same pull request, files for no Outsider after it."""

    def placed(p: Problem) -> Problem:
        from .yamlio import locate

        try:
            text = source.read(p.file).decode("utf-8")
        except (OSError, KeyError, ValueError, BadInput):
            return p
        line, col = locate(text, (p.field or "action").split("."))
        return p.at(line=line, col=col) if line else p

    who = author_player(before.state, author)
    # an author who passed a player's name (in any case), not a login: that player, for the hints below
    named = before.state.player(before.state.spelled(author) or author) if who is None else None
    for i, step in enumerate(steps):
        actor = step.record.get("actor")
        if not actor:
            continue
        action = before.registry.actions.get(step.record.get("action", ""))
        if action is not None and action.who == "newcomer":
            account = (step.record.get("params") or {}).get("account", "")
            if str(account).lower() != author.lower():
                step.problems.insert(0, placed(Problem(
                    f"{actor} joins with account {account!r}, but this pull request is by {author}",
                    step.path, field="params.account", rule=action.rule, action=step.path)))
            continue
        if actor == who:
            if action is not None and action.new_name_param and step.legal:
                # the author took a new name (a change of name): their later actions are filed under it
                new = (step.record.get("params") or {}).get(action.new_name_param)
                who = new if isinstance(new, str) else who
            continue
        if action is not None and action.may_file is not None and who is not None:
            from .engine import Ctx
            from .timeutil import parse_time

            ctx = Ctx(states[i] if states and i < len(states) else before.state, action, step.record,
                      parse_time(step.record["at"]), before.registry)
            if action.may_file(ctx, who):
                continue
        if who is None and str(actor).casefold() == author.casefold() and named is None:
            # the author filed under their login, which no roster names (a tick filed as nomic-tick): "the actor is
            # X, but this pull request is by X" said nothing
            step.problems.insert(0, placed(Problem(
                f"{actor} is the pull request's author, but no player of this game plays with the account "
                f"{author}: actions are filed under a roster name, by the player whose account it is (scheduled "
                "ticks by a name on no roster are pushed to main by the tick workflow)", step.path, field="actor",
                rule="who may act", action=step.path)))
            continue
        mapped = f" (who plays as {who})" if who else " (who is on no roster of this game)"
        if named is not None and named.get("account"):
            mapped = (f" (who is on no roster of this game: the author is a login, and {named['name']} "
                      f"plays with the account {named['account']})")
        fix = ""
        if who and step.record.get("action") == "engine.tick":
            # docs/admins.md, "Scheduled events": a tick in a pull request is filed under the author's roster name
            game = step.path.split("/")[1] if step.path.count("/") >= 2 else "GAME"
            fix = f"; a tick in a pull request is filed under your own name: nomic tick {game} --as {who}"
        step.problems.insert(0, placed(Problem(f"the actor is {actor}, but this pull request is by {author}{mapped}; "
                                               f"players act only for themselves{fix}", step.path, field="actor",
                                               rule="who may act", action=step.path)))
