"""Checkpoints: the game as it stands becomes its starting point.

``nomic checkpoint GAME --as ADMIN --why TEXT`` copies the game's files (game.yaml, gamestate/, ruleset/) into
``initial/`` and writes ``initial/checkpoint.yaml``: which action of the log the copy stands after, the count and
chain head of the ledger where the log began, who made it, when and why. From then on the audit replays only
the actions after it. The actions before it stay in the log, and their files are still verified: hashed in
order from the start's chain head they must give the ledger's chain head of ``initial/``, and their bytes the
digest it records (``files``), so none can be edited, added or removed without the audit saying so.

What it is for: a judge that changes (a fixed rule, a stricter check) may refuse an action a former judge
accepted, and the game can then never pass its audit again, although every player acted in good faith on what
CI said. A checkpoint settles the game as it stands, as a nomic's ratification settles a report: the past is
what the files say. It also spares a long game the replay of years of actions on every audit.

A checkpoint is an admin's pull request of its own (``judge_pr``): its ``initial/`` must be exactly the base's
files, through the base's last action, by the pull request's author.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from datetime import datetime
from pathlib import Path, PurePosixPath
from typing import Any

from . import yamlio
from .content import (
    SCHEMA_LINE,
    GameFiles,
    GitTree,
    Source,
    WorkTree,
    has_file,
    load_game,
    read_action,
    read_yaml,
    require_game,
    schema_line,
)
from .dice import chain
from .problems import BAD_INPUT, NEEDS_ADMIN, BadInput, Problem, counted, did_you_mean
from .timeutil import format_time, parse_time

FILE = "initial/checkpoint.yaml"
SCHEMA = "checkpoint.schema.json"
RULE = "checkpoints (initial/checkpoint.yaml)"

Held = list[tuple[str, dict[str, Any]]]  # (path, record) of each action the checkpoint holds, in log order


def read(source: Source, game: str, texts: dict[str, str]) -> dict[str, Any] | None:
    """The game's checkpoint (its shape checked), or None when it has none. Raises BadInput."""
    path = f"content/{game}/{FILE}"
    if not has_file(source, path):
        return None
    return read_yaml(source, path, SCHEMA, texts)


def held(source: Source, files: GameFiles, initial: GameFiles, cp: dict[str, Any],
         texts: dict[str, str]) -> tuple[Held, list[Problem]]:
    """The actions of the log the checkpoint ``cp`` holds (those the audit does not replay), and the problems
    that show the log is not the one it was made from."""
    path = f"{files.root}/{FILE}"

    def problem(message: str, field: str) -> Problem:
        line, col = yamlio.locate(texts[path], [field])
        return Problem(message, path, line, col, field, rule=RULE)

    ledger = initial.state.docs.get("ledger") or {}
    count, start = cp["actions"], cp["start"]
    n = count - start["actions"]
    if ledger.get("actions") != count:
        return [], [problem(f"the checkpoint counts {count} actions, and initial/gamestate/ledger.yaml "
                            f"{ledger.get('actions')}: the two were written together and must agree", "actions")]
    if n < 1:
        return [], [problem(f"holds no action: its count ({count}) must be more than its start's "
                            f"({start['actions']})", "actions")]
    if n > len(files.actions):
        return [], [problem(f"holds {counted(n, 'action')}, but the log has {len(files.actions)}: action files "
                            "before the checkpoint were removed (git log --diff-filter=D -- "
                            f"{files.root}/actions shows which)", "actions")]
    last = PurePosixPath(files.actions[n - 1]).name
    if last != cp["through"]:
        return [], [problem(f"the log's action number {n} is {last}, not {cp['through']}: an action file was added "
                            "before the checkpoint, or one was removed or renamed", "through")]
    out: Held = []
    problems: list[Problem] = []
    head = start["head"]
    for p in files.actions[:n]:
        try:
            record = read_action(source, p)
        except BadInput as e:
            problems += e.problems
            continue
        out.append((p, record))
        head = chain(head, record)
    edited = f"one of them was edited since (git log -p -- {files.root}/actions shows which)"
    if not problems and head != ledger.get("head"):
        problems.append(problem(f"the {counted(n, 'action file')} before the checkpoint do not hash to the chain "
                                f"head it was made with (initial/gamestate/ledger.yaml): {edited}", "through"))
    elif not problems and digest(source, files.actions[:n]) != cp["files"]:
        # the chain covers each action's time, actor, action and parameters; the digest the rest of the file too
        # (the outcome and dice recorded, a note), which the audit no longer compares with a replay
        problems.append(problem(f"the {counted(n, 'action file')} before the checkpoint are not the bytes it was "
                                f"made from: {edited}", "files"))
    return out, problems


def settled(source: Source, files: GameFiles,
            initial: GameFiles) -> tuple[dict[str, Any] | None, Held, list[Problem]]:
    """The game's checkpoint (None without one), the actions it holds, and the problems that show the log is not the
    one it was made from: where the audit, ``nomic replay`` and the wiki start. Raises BadInput for a checkpoint file
    that cannot be read."""
    cp = read(source, files.name, initial.texts)
    if cp is None:
        return None, [], []
    out, problems = held(source, files, initial, cp, initial.texts)
    return cp, out, problems


def digest(source: Source, paths: list[str]) -> str:
    """SHA-256 over each action file's name and bytes, in log order: what a checkpoint's ``files`` holds."""
    h = hashlib.sha256()
    for p in paths:
        data = source.read(p)
        h.update(f"{PurePosixPath(p).name}\0{len(data)}\0".encode())
        h.update(data)
    return h.hexdigest()


def _start(source: Source, game: str, old: dict[str, Any] | None) -> dict[str, Any]:
    """Where the log begins: an earlier checkpoint's start, or the founding ledger's count and chain head."""
    if old is not None:
        return dict(old["start"])
    path = f"content/{game}/initial/gamestate/ledger.yaml"
    if not has_file(source, path):
        return {"actions": 0, "head": ""}  # a game kept without initial/: its log began with the engine's ledger
    ledger = read_yaml(source, path, "ledger.schema.json", {})
    return {"actions": ledger["actions"], "head": ledger["head"]}


def _earlier(old: dict[str, Any] | None) -> list[dict[str, Any]]:
    if old is None:
        return []
    return [*old.get("earlier", []), {k: old[k] for k in ("through", "actions", "at", "by", "why")}]


def _copied(source: Source, game: str) -> dict[str, bytes]:
    """What a checkpoint copies: initial/-relative path -> the bytes of the game's file, but for a YAML file's
    first line, which names its schema from one folder deeper."""
    root = f"content/{game}/"
    out = {}
    for path in [root + "game.yaml", *source.list(root + "gamestate"), *source.list(root + "ruleset")]:
        rel, data = path[len(root):], source.read(path)
        if path.endswith(".yaml") and data.startswith(SCHEMA_LINE.encode()):
            first, nl, rest = data.partition(b"\n")
            schema = first.decode("utf-8", "replace").rstrip().rpartition("/")[2]
            data = schema_line(f"{root}initial/{rel}", schema).encode("utf-8") + nl + rest
        out[rel] = data
    return out


def make(root: Path, game: str, by: str, why: str, now: datetime) -> list[str]:
    """Write the checkpoint of ``game`` as its files stand (``nomic checkpoint``). Raises BadInput."""
    from .judge import invariants
    from .pr import changed_games
    from .transaction import locked

    require_game(root, game)
    folder = root / "content" / game
    with locked(folder):
        recovered = _recover(folder)
        source = WorkTree(root)
        if (root / ".git").exists():
            changed = changed_games(root).get(game)
            if changed:
                path = next(iter(changed))
                raise BadInput(Problem(f"the game has uncommitted changes ({counted(len(changed), 'file')}, "
                                       f"{path} first): a checkpoint holds the game as committed, so commit them "
                                       "(or undo them) first", path, kind=BAD_INPUT))
        files = load_game(source, game)
        problems = invariants(files)
        if problems:
            raise BadInput(problems)
        admins = [p["name"] for p in files.state.players() if p.get("admin")]
        if by not in admins:
            # --as bruno: the admin meant, as nomic act says it (names are written as on the roster)
            same = [a for a in admins if a.casefold() == by.casefold()]
            meant = (f"; did you mean {same[0]}? (names are written as on the roster)" if same
                     else did_you_mean(by, admins))
            raise BadInput(Problem(f"{by!r} is not an admin of {game} (its admins: {', '.join(admins) or 'none'}): "
                                   f"a checkpoint settles the game, which only an admin may propose{meant}",
                                   field="--as", kind=BAD_INPUT))
        old, head, held_old = None, None, []
        if has_file(source, f"content/{game}/{FILE}"):  # the new one carries on from the last: its actions must be
            initial = load_game(source, game, part="initial/", registry=files.registry)  # the ones it was made from
            old, held_old, problems = settled(source, files, initial)
            if problems:
                raise BadInput([p.at(kind=BAD_INPUT) for p in problems])
            head = initial.state.doc("ledger")["head"]  # what its actions hash to, as held() found
        start = _start(source, game, old)
        ledger = files.state.doc("ledger")
        n = ledger["actions"] - start["actions"]
        since = ledger["actions"] - (old["actions"] if old else start["actions"])
        if since < 1:
            raise BadInput(Problem("no action was taken since " + ("the last checkpoint" if old else "the game began")
                                   + ": there is nothing for a checkpoint to hold", files.doc_paths["ledger"],
                                   field="actions", kind=BAD_INPUT))
        if n != len(files.actions):
            raise BadInput(Problem(f"the ledger counts {counted(n, 'action')} since the log began, and the log holds "
                                   f"{counted(len(files.actions), 'action file')}: the gamestate is not the end of "
                                   "its log (nomic check says where)", files.doc_paths["ledger"], field="actions",
                                   kind=BAD_INPUT))
        head = start["head"] if head is None else head
        for path in files.actions[len(held_old):]:
            head = chain(head, read_action(source, path))
        if head != ledger["head"]:
            raise BadInput(Problem("the log's action files do not hash to the ledger's chain head: one was edited "
                                   f"after it was judged (git log -p -- {files.root}/actions shows which)",
                                   files.doc_paths["ledger"], field="head", kind=BAD_INPUT))
        data = {"through": PurePosixPath(files.actions[-1]).name, "actions": ledger["actions"], "start": start,
                "files": digest(source, files.actions), "at": format_time(now), "by": by, "why": why}
        if old is not None:
            data["earlier"] = _earlier(old)
        copied = _copied(source, game)
        copied["checkpoint.yaml"] = yamlio.dump_new(
            data, [schema_line(f"content/{game}/{FILE}", SCHEMA)[2:]]).encode("utf-8")
        _swap(folder, copied)
    return [*recovered, f"content/{game}/initial/ now holds the game after {data['through']} "
            f"({counted(since, 'action')} since {'the last checkpoint' if old else 'the game began'}); the audit "
            "replays only the actions after it, and verifies the files of those before it by their hash chain",
            f"commit content/{game}/initial in a pull request of its own (an admin's): nomic pr {game} --author "
            f"LOGIN, or by hand: git switch -c checkpoint-{game} && git add content/{game}/initial && git commit -m "
            f"'checkpoint' && git push -u origin checkpoint-{game}"]


def _swap(folder: Path, files: dict[str, bytes]) -> None:
    """Replace ``folder/initial`` with a folder holding ``files``: written whole beside it first, so a failure
    leaves the old one (a failed rename puts it back); the two renames that swap them are the only moment neither
    is in place."""
    new, old = folder / f".initial-new-{os.getpid()}", folder / f".initial-old-{os.getpid()}"
    shutil.rmtree(new, ignore_errors=True)
    try:
        for rel, data in files.items():
            target = new / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(target, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
    except BaseException:
        shutil.rmtree(new, ignore_errors=True)
        raise
    current = folder / "initial"
    moved = current.exists()
    try:
        if moved:
            os.rename(current, old)
        os.rename(new, current)
    except BaseException:
        if moved and old.exists() and not current.exists():
            os.rename(old, current)  # the old one back in place: a failure leaves the game as it was
        shutil.rmtree(new, ignore_errors=True)
        raise
    shutil.rmtree(old, ignore_errors=True)
    try:  # the renames on disk before the command says it is done
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError:
        pass


def _recover(folder: Path) -> list[str]:
    """Put right what a run killed in the middle of ``_swap`` left beside the game: the old ``initial/`` back in its
    place when there is none (killed between the two renames), and the hidden folders removed (a new one may be
    half written; an old one beside an ``initial/`` is the one replaced)."""
    said = []
    current = folder / "initial"
    olds = sorted(folder.glob(".initial-old-*"))
    if not current.exists() and len(olds) == 1:
        os.rename(olds[0], current)
        said.append(f"put {current.name}/ back from {olds[0].name}, which an interrupted checkpoint left")
        olds = []
    for leftover in [*olds, *sorted(folder.glob(".initial-new-*"))]:
        shutil.rmtree(leftover, ignore_errors=True)
        said.append(f"removed {leftover.name}, which an interrupted checkpoint left")
    return said


def judge_pr(base: Source, head: Source, before: GameFiles, who: str | None, author: str | None,
             changes: list[tuple[str, str, str]], now: datetime | None = None) -> tuple[list[Problem], str]:
    """A pull request that changes ``initial/``: only a checkpoint may, made by an admin of the game (``who``,
    the author's player at the base when an admin of it, else None), in a pull request of its own, holding exactly
    the base's files through the base's last action. Returns the problems and, when there are none, the note the
    check prints."""
    game = before.name
    root = f"content/{game}"
    path = f"{root}/{FILE}"
    starting = [p for _, p, _ in changes if p.startswith(f"{root}/initial/")]
    if who is None:
        said = f"{author} is no admin of {game}" if author else "no pull-request author given (--author)"
        return [Problem(f"the game's starting point (initial/) may change only by an admin's checkpoint ({said})",
                        p, kind=NEEDS_ADMIN, rule=RULE) for p in starting], ""
    problems = [Problem("a checkpoint is a pull request of its own: this one changes the game besides", p, rule=RULE)
                for _, p, _ in changes if p not in starting and p != f"{root}/.nomic.lock"]
    if not has_file(head, path):
        return problems + [Problem("the game's starting point (initial/) may change only by a checkpoint, which "
                                   f"writes {FILE} with it (nomic checkpoint)", p, rule=RULE) for p in starting], ""
    texts: dict[str, str] = {}
    try:
        cp = read(head, game, texts)
        base_texts: dict[str, str] = {}
        old = read(base, game, base_texts)
        start = _start(base, game, old)
        if old is not None:  # the new one carries on from it: its actions must be the ones it was made from
            _, wrong = held(base, before, load_game(base, game, part="initial/", registry=before.registry), old,
                            base_texts)
            problems += [p.at(message="at the base: " + p.message) for p in wrong]
    except BadInput as e:
        return problems + e.problems, ""
    assert cp is not None
    want = _copied(base, game)
    have = {p[len(root) + len("/initial/"):] for p in head.list(f"{root}/initial")} - {"checkpoint.yaml"}
    for rel in sorted(want.keys() | have):
        where = f"{root}/initial/{rel}"
        if rel not in have:
            problems.append(Problem(f"missing: a checkpoint holds a copy of every file of the game ({root}/{rel})",
                                    where, rule=RULE))
        elif rel not in want:
            problems.append(Problem(f"the game has no {root}/{rel}: a checkpoint holds the game's own files only",
                                    where, rule=RULE))
        elif head.read(where) != want[rel]:
            problems.append(Problem(f"differs from {root}/{rel}: a checkpoint holds the game's files as they stand "
                                    "at the base", where, rule=RULE))
    if isinstance(base, GitTree):  # the log's files, hashed below and by held(): one batch, not a git run each
        base.prefetch(before.actions)
    expected = {"through": PurePosixPath(before.actions[-1]).name if before.actions else "(no action)",
                "actions": before.state.doc("ledger")["actions"], "start": start,
                "files": digest(base, before.actions), "by": who,
                "earlier": _earlier(old)}
    for key, value in expected.items():
        if cp.get(key, []) != value:
            line, col = yamlio.locate(texts[path], [key] if key in cp else [])
            problems.append(Problem(f"should be {value!r}, as at the base (the pull request's author, the base's last "
                                    f"action, its ledger and earlier checkpoints), not {cp.get(key)!r}", path, line,
                                    col, key, rule=RULE))
    # when it was made: after the actions it holds (the game's clock at the base), and not later than now
    made, clock = parse_time(cp["at"]), before.state.now()
    if (clock is not None and made < clock) or (now is not None and made > now):
        line, col = yamlio.locate(texts[path], ["at"])
        why = (f"before the game's clock at the base ({format_time(clock)}): a checkpoint is made after the actions "
               "it holds" if clock is not None and made < clock else f"in the future (now is {format_time(now)})")
        problems.append(Problem(f"{cp['at']} is {why}", path, line, col, "at", rule=RULE))
    if old is not None and expected["actions"] <= old["actions"]:  # as nomic checkpoint refuses it
        line, col = yamlio.locate(texts[path], ["actions"])
        problems.append(Problem(f"no action was taken since the last checkpoint (through {old['through']}): there is "
                                "nothing for a checkpoint to hold", path, line, col, "actions", rule=RULE))
    if problems:
        return problems, ""
    try:
        initial = load_game(head, game, part="initial/", registry=before.registry)
    except BadInput as e:
        return e.problems, ""
    held_actions, problems = held(head, before, initial, cp, texts)
    return problems, (f"{game}: a checkpoint by an admin ({who}), holding {counted(len(held_actions), 'action')} "
                      f"through {cp['through']}")
