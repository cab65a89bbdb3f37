"""A game on disk (or at a git revision): reading it into a State, writing it back.

Layout of one game, ``content/<game>/``::

    game.yaml              configuration: name, modules, keywords, options
    ruleset/<id>.md        one rule a file, YAML front matter then Markdown
    gamestate/<kind>.yaml  one document per kind a module registers
    actions/<stamp>--<actor>--<action>.yaml   the log, only ever added to
    initial/               the state the game was founded with (game.yaml,
                           gamestate/ and ruleset/ as above); the full audit
                           replays from it
"""

from __future__ import annotations

import bisect
import errno
import os
import posixpath
import re
import stat
import subprocess
import threading
from dataclasses import dataclass, field
from functools import lru_cache
from operator import itemgetter
from pathlib import Path, PurePosixPath
from typing import Any, Callable, Iterable, Protocol

from . import schemas, yamlio
from .engine import Registry, Rule, State
from .problems import BAD_INPUT, BadInput, Problem, did_you_mean, unreadable

SCHEMA_LINE = "# yaml-language-server: $schema="
# \Z, not $: a name with a line break at its end ("time.md\n") is no content file's (Python's $ matches before one)
ACTION_NAME = re.compile(r"^(\d{8}T\d{6}Z)--([A-Za-z0-9_.-]{1,64})--([a-z0-9_.-]{1,80})(?:--(\d+))?\.yaml\Z")
RULE_FILE = re.compile(r"^[a-z0-9][a-z0-9-]{0,79}\.md\Z")
DOC_FILE = re.compile(r"^[a-z][a-z0-9_]{0,40}\.yaml\Z")
GAME_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}\Z")  # content/<game>/: for nomic new and every command taking one
GAME_NAME_RULE = "1 to 64 lower-case letters, digits, '-' and '_', the first a letter or digit"


# ---------------------------------------------------------------- where files come from


class Source(Protocol):
    """Files of a repository, at a revision or in the work tree (paths relative, '/'-separated)."""

    def list(self, prefix: str) -> list[str]: ...

    def read(self, path: str) -> bytes: ...

    def is_link(self, path: str) -> bool: ...


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)  # where the system has no such flag, read() looks before it opens
_READ_FLAGS = os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


class WorkTree:
    def __init__(self, root: str | Path):
        self.root = Path(root)
        self._base = os.fspath(self.root)
        self._linked: dict[str, bool] = {}  # folder (relative) -> whether it or a folder above it is a link

    def list(self, prefix: str) -> list[str]:
        base = os.path.join(self._base, prefix)
        if not os.path.isdir(base):
            return []
        out = []
        start = len(self._base.rstrip(os.sep)) + 1
        # os.walk, not Path.rglob: a tenth of the time on a log of 10,000 files. Symbolic links are listed
        # (and refused when read), never followed; hidden files and folders (editor and temp files) are skipped.
        for folder, dirs, files in os.walk(base):
            rel_folder = folder[start:].replace(os.sep, "/")
            if "/." in "/" + rel_folder:
                dirs[:] = []
                continue
            for d in dirs:
                if not d.startswith(".") and os.path.islink(os.path.join(folder, d)):
                    out.append(f"{rel_folder}/{d}")
            for f in files:
                if not f.startswith("."):
                    out.append(f"{rel_folder}/{f}")
        return sorted(out)

    def read(self, path: str) -> bytes:
        full = os.path.join(self._base, path)
        if _NOFOLLOW:
            return self._read_nofollow(path, full)
        try:
            st = os.lstat(full)
            if stat.S_ISLNK(st.st_mode) or self._in_linked_folder(path):
                raise BadInput(Problem("content files may not be symbolic links (nor lie in a linked folder)", path,
                                       kind=BAD_INPUT))
            if not stat.S_ISREG(st.st_mode):
                raise BadInput(Problem("not a regular file", path, kind=BAD_INPUT))
            if st.st_size > yamlio.MAX_FILE_BYTES:
                raise BadInput(Problem(f"file is larger than {yamlio.MAX_FILE_BYTES} bytes", path, kind=BAD_INPUT))
            with open(full, "rb") as f:
                return f.read()
        except OSError as e:
            raise BadInput(Problem(unreadable(e), path, kind=BAD_INPUT)) from None

    def _read_nofollow(self, path: str, full: str) -> bytes:
        """``read`` with the file opened first, never through a link (O_NOFOLLOW) and without waiting
        on a pipe (O_NONBLOCK), then looked at: half the time of a look, an open and a buffered read, which
        a replay of 10,000 action files notices."""
        if self._in_linked_folder(path):
            raise BadInput(Problem("content files may not be symbolic links (nor lie in a linked folder)", path,
                                   kind=BAD_INPUT))
        try:
            fd = os.open(full, _READ_FLAGS)
        except OSError as e:
            if e.errno == errno.ELOOP:  # the file itself is a symbolic link
                raise BadInput(Problem("content files may not be symbolic links (nor lie in a linked folder)",
                                       path, kind=BAD_INPUT)) from None
            raise BadInput(Problem(unreadable(e), path, kind=BAD_INPUT)) from None
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                raise BadInput(Problem("not a regular file", path, kind=BAD_INPUT))
            if st.st_size > yamlio.MAX_FILE_BYTES:
                raise BadInput(Problem(f"file is larger than {yamlio.MAX_FILE_BYTES} bytes", path, kind=BAD_INPUT))
            parts = [os.read(fd, st.st_size + 1)]
            size = len(parts[0])
            if size <= st.st_size:  # a regular file reads short only at its end: all of it, in one call
                return parts[0]
            while parts[-1]:  # to the end, should the file have grown since it was looked at
                if size > yamlio.MAX_FILE_BYTES:
                    raise BadInput(Problem(f"file is larger than {yamlio.MAX_FILE_BYTES} bytes", path,
                                           kind=BAD_INPUT))
                parts.append(os.read(fd, 1 << 16))
                size += len(parts[-1])
            return parts[0] if len(parts) == 2 else b"".join(parts)
        except OSError as e:
            raise BadInput(Problem(unreadable(e), path, kind=BAD_INPUT)) from None
        finally:
            os.close(fd)

    def is_link(self, path: str) -> bool:
        """True when the file, or any folder between the repository's root and it, is a symbolic link.

        A linked folder (``content/<game>/gamestate -> /somewhere``) would let a pull request make the
        judge read, and quote back in its verdict, files from outside the repository.
        """
        return os.path.islink(os.path.join(self._base, path)) or self._in_linked_folder(path)

    def _in_linked_folder(self, path: str) -> bool:
        folder = posixpath.dirname(path)
        if folder in self._linked:
            return self._linked[folder]
        if not folder:
            return False
        if ".." in folder.split("/") or folder.startswith("/"):
            linked = True
        else:
            linked = self._in_linked_folder(folder) or os.path.islink(os.path.join(self._base, folder))
        self._linked[folder] = linked
        return linked

    def games(self) -> list[str]:
        """What ``games`` finds in ``list("content")`` (content/<name>/game.yaml), without listing every file."""
        content = os.path.join(self._base, "content")
        try:
            entries = list(os.scandir(content)) if os.path.isdir(content) else []
        except OSError:
            return []
        return sorted(e.name for e in entries
                      if not e.name.startswith(".") and e.is_dir(follow_symlinks=False)
                      and os.path.lexists(os.path.join(content, e.name, "game.yaml")))


_FILE_MODES = ("100644", "100755")  # git's modes of a plain file (120000 is a link, 160000 a nested repository)


class GitTree:
    """The files at a git revision, read in one batch.

    ``GitTree.changed`` makes the tree of a later revision from this one and the changes git reports
    between the two: ``nomic check --head`` lists the head without running ``git ls-tree`` again, and
    reads only the files that differ (the others are the base's, read once for both).
    """

    def __init__(self, repo: str | Path, ref: str):
        self.repo = Path(repo)
        self.ref = ref
        self._entries: dict[str, str] | None = None
        self._sorted: list[str] | None = None
        # object name -> its bytes, or the Problem that refuses it; shared with the trees made by ``changed``
        self._blobs: dict[str, bytes | Problem] = {}
        # objects the next batch reads as well (a later revision's changed files: one batch for both trees)
        self._pending: dict[str, str] = {}

    @classmethod
    def changed(cls, base: GitTree, ref: str, changes: Iterable[tuple[str, str, str]]) -> GitTree:
        """The tree at ``ref``: ``base``'s entries under content/, with ``changes`` applied.

        ``changes``: (path, the path's ``git ls-tree`` line at ``ref``, or "" where it is gone), as
        ``git diff --raw`` between the two revisions gives them.
        """
        tree = cls(base.repo, ref)
        entries = dict(base.entries())
        for path, line in changes:
            if not path.startswith("content/"):
                continue  # as ``entries``: the games' files only
            if line:
                entries[path] = line
                if cls._mode(line) in _FILE_MODES:
                    base._pending[cls._object(line)] = path
            else:
                entries.pop(path, None)
        tree._entries = entries
        tree._blobs, tree._pending = base._blobs, base._pending
        return tree

    def _git(self, *args: str, input: bytes | None = None) -> bytes:
        r = subprocess.run(["git", "-C", str(self.repo), *args], input=input, capture_output=True)
        if r.returncode != 0:
            raise BadInput(Problem(f"git {' '.join(args[:2])}: {r.stderr.decode(errors='replace').strip()}",
                                   kind=BAD_INPUT))
        return r.stdout

    def entries(self) -> dict[str, str]:
        """path -> its ``git ls-tree`` line, "<mode> <type> <object>", a tab, "<path>" (``_mode``, ``_object``)."""
        if self._entries is None:
            out = self._git("ls-tree", "-r", "-z", "--full-tree", self.ref, "--", "content")
            # NUL-separated, decoded at once (a NUL survives the replacement). Each line is kept whole and
            # split only when it is read: a large game's 10,000 action files are listed, never read, at the base.
            items = out.decode("utf-8", errors="replace").split("\0")
            if items and not items[-1]:
                items.pop()
            self._entries = dict(zip([item.partition("\t")[2] for item in items], items))
        return self._entries

    @staticmethod
    def _mode(line: str) -> str:
        return line.partition(" ")[0]

    @staticmethod
    def _object(line: str) -> str:
        return line.partition("\t")[0].rpartition(" ")[2]

    def _listing(self) -> list[str]:
        if self._sorted is None:
            # as WorkTree.list: hidden files, and whatever lies in a hidden folder, are not listed
            self._sorted = sorted(p for p in self.entries() if "/." not in "/" + p)
        return self._sorted

    def list(self, prefix: str) -> list[str]:
        pre = prefix.rstrip("/") + "/"
        paths = self._listing()
        # the paths under pre, found by bisection: "0" is the character after "/"
        return paths[bisect.bisect_left(paths, pre):bisect.bisect_left(paths, pre[:-1] + "0")]

    def games(self) -> list[str]:
        """What ``games`` finds in ``list("content")`` (content/<name>/game.yaml), one bisection per folder."""
        paths, entries = self._listing(), self.entries()
        names = []
        i = bisect.bisect_left(paths, "content/")
        while i < len(paths) and paths[i].startswith("content/"):
            name = paths[i][len("content/"):].partition("/")[0]
            if f"content/{name}/game.yaml" in entries:
                names.append(name)
            # past content/<name>/...: "0" is the character after "/"
            i = bisect.bisect_left(paths, f"content/{name}0", i + 1)
        return sorted(names)

    def is_link(self, path: str) -> bool:
        line = self.entries().get(path)
        return line is not None and self._mode(line) == "120000"

    def read(self, path: str) -> bytes:
        line = self.entries().get(path)
        if line is None:
            raise BadInput(Problem(f"not in the tree at {self.ref}", path, kind=BAD_INPUT))
        mode = self._mode(line)
        if mode == "120000":
            raise BadInput(Problem("content files may not be symbolic links (nor lie in a linked folder)", path,
                                   kind=BAD_INPUT))
        if mode not in _FILE_MODES:
            raise BadInput(Problem("not a regular file", path, kind=BAD_INPUT))
        sha = self._object(line)
        if sha not in self._blobs:
            self.prefetch([path])
        blob = self._blobs[sha]
        if isinstance(blob, Problem):
            raise BadInput(blob.at(file=path))
        return blob

    def prefetch(self, paths: Iterable[str]) -> None:
        entries, blobs = self.entries(), self._blobs
        shas = {self._object(entries[p]): p for p in paths if p in entries and self._mode(entries[p]) in _FILE_MODES}
        wanted = [sha for sha in shas if sha not in blobs]
        if not wanted:
            return
        for sha, path in self._pending.items():
            if sha not in blobs and sha not in shas:
                shas[sha] = path
                wanted.append(sha)
        self._pending.clear()
        # Streamed, not read whole: a file past the size limit (one a pull request added, say) is skipped
        # over, never held in memory.
        proc = subprocess.Popen(["git", "-C", str(self.repo), "cat-file", "--batch"], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        feed = threading.Thread(target=_feed, args=(proc.stdin, "".join(sha + "\n" for sha in wanted).encode()))
        feed.start()
        out = proc.stdout
        try:
            for sha in wanted:
                header = out.readline().split()
                if len(header) != 3 or header[1] != b"blob":  # "<name> missing", or not a file's contents
                    if not header:
                        break  # git stopped early: its message is reported below
                    blobs[sha] = Problem("not a file git can read at this revision", shas[sha], kind=BAD_INPUT)
                    continue
                size = int(header[2])
                if size > yamlio.MAX_FILE_BYTES:
                    blobs[sha] = Problem(f"file is larger than {yamlio.MAX_FILE_BYTES} bytes", shas[sha],
                                         kind=BAD_INPUT)
                    left = size + 1
                    while left > 0:
                        chunk = out.read(min(left, 1 << 20))
                        if not chunk:
                            break
                        left -= len(chunk)
                    continue
                blobs[sha] = out.read(size)
                out.read(1)  # the newline after the contents
        finally:
            feed.join()
            out.close()
            err = proc.stderr.read()
            proc.stderr.close()
            proc.wait()
        if proc.returncode != 0 or any(sha not in blobs for sha in wanted):
            raise BadInput(Problem(f"git cat-file --batch: {err.decode(errors='replace').strip() or 'stopped early'}",
                                   kind=BAD_INPUT))


def _feed(pipe: Any, data: bytes) -> None:
    """Writes a batch's requests while its answers are read (both pipes could fill otherwise)."""
    try:
        pipe.write(data)
    except BrokenPipeError:
        pass  # git stopped; the reader reports it
    finally:
        try:
            pipe.close()
        except BrokenPipeError:
            pass


# ---------------------------------------------------------------- reading a game


@dataclass
class GameFiles:
    """One game as read: its state, and the texts it came from (for placing errors)."""

    name: str
    root: str  # content/<name>
    state: State
    registry: Registry
    texts: dict[str, str] = field(default_factory=dict)  # path -> text of each file read
    actions: list[str] = field(default_factory=list)  # action file paths, in log order
    doc_paths: dict[str, str] = field(default_factory=dict)  # kind -> path
    rule_paths: dict[str, str] = field(default_factory=dict)  # rule id -> path
    config_path: str = ""  # the configuration read: game.yaml, or initial/game.yaml for a founding state


def games(source: Source) -> list[str]:
    if isinstance(source, (WorkTree, GitTree)):
        return source.games()
    names = set()
    for p in source.list("content"):
        if not p.endswith("/game.yaml"):
            continue  # most files are not; only these need a path object
        parts = PurePosixPath(p).parts
        if len(parts) >= 3 and parts[2] == "game.yaml":
            names.add(parts[1])
    return sorted(names)


def no_games(root: str | Path) -> str:
    """What a command says when the folder it runs in holds no game."""
    return (f"no games found in {Path(root) / 'content'} (content/<game>/game.yaml): run nomic in the game "
            "repository (or a folder inside it), or pass --repo PATH")


def games_here(root: str | Path) -> list[str]:
    """Every game of the repository at ``root``; refused, saying so, when there is none."""
    names = games(WorkTree(root))
    if not names:
        raise BadInput(Problem(no_games(root), kind=BAD_INPUT))
    return names


def game_name(name: str, field: str = "game") -> str:
    """``name`` if a game's folder may have it (never a path: ``../x`` would reach outside content/); else refused,
    with the name meant when the case or a blank is the mistake. ``field``: where it was given (``--game``)."""
    if not GAME_NAME.match(name):
        meant = name.strip().lower().replace(" ", "-")
        hint = f"; did you mean {meant}?" if GAME_NAME.match(meant) else ""
        raise BadInput(Problem(f"{name[:80]!r} is not a game's name ({GAME_NAME_RULE}){hint}", field=field,
                               kind=BAD_INPUT))
    return name


def require_game(root: str | Path, name: str, field: str = "game") -> None:
    """Refuse, with the games there are and the likeliest one, a game name that has no content/<name>/game.yaml.

    ``field``: where it was given: the commands' GAME argument, or an option (``--from``)."""
    if os.path.lexists(os.path.join(root, "content", name, "game.yaml")):
        return  # there, if not a file (a folder, a link): reading it says so, as the check does
    there = WorkTree(root).games()
    if not there:
        hint = (f"; there are no games in {Path(root) / 'content'}: run nomic in the game repository (or a folder "
                "inside it), or pass --repo PATH")
    else:
        hint = did_you_mean(name.lower(), there) + f" (the games: {', '.join(there)})"
    raise BadInput(Problem(f"there is no game {name[:80]!r} (no content/{name[:80]}/game.yaml){hint}",
                           field=field, kind=BAD_INPUT))


def schema_line(path: str, schema: str) -> str:
    """The first line a file at ``path`` (relative to the repository) holds: it tells a player's editor which
    schema to check the file against, from the file's folder."""
    if "//" in path or "/./" in path or path.startswith(("/", "./")) or path.endswith("/"):
        depth = len(PurePosixPath(path).parts) - 1
    else:
        depth = path.count("/")  # the same count, without building a path object for each of 10,000 files
    return SCHEMA_LINE + "../" * depth + "schemas/" + schema


CORE_DOC_SCHEMAS = {"roster": "roster.schema.json", "ledger": "ledger.schema.json"}  # every game has these


def doc_schemas(registry: Registry) -> dict[str, str]:
    """The schema of each gamestate document of a game: the core's and those its modules define."""
    return {**CORE_DOC_SCHEMAS, **{k: d.schema for k, d in registry.docs.items()}}


def check_schema_line(text: str, path: str, schema: str) -> list[Problem]:
    """The first line tells a player's editor which schema to check against."""
    want = schema_line(path, schema)
    nl = text.find("\n")
    first = (text if nl < 0 else text[:nl]).rstrip()
    if first != want:
        return [Problem(f"first line must be '{want}' so editors check the file (nomic fmt {path} writes it)",
                        path, 1, 1, kind=BAD_INPUT)]
    return []


def split_front_matter(text: str, path: str) -> tuple[str, str]:
    """(front matter YAML, Markdown body) of a rule file."""
    if not text.startswith("---\n"):
        raise BadInput(Problem("a rule file starts with '---' and YAML front matter", path, 1, 1, kind=BAD_INPUT))
    end = text.find("\n---\n", 3)
    if end < 0:
        raise BadInput(Problem("front matter is not closed by a '---' line", path, 1, 1, kind=BAD_INPUT))
    return text[4:end + 1], text[end + 5:]


# A pull request's check loads its game at the base and again at the head, and most files are the same
# bytes on both sides. Given the same ``Parsed`` dict, ``load_game`` parses and validates each (path,
# schema, bytes) once, and both states share what it gave. Sharing is safe because a state is never
# changed in place (the engine copies on write; ``check_pr`` verifies it under NOMIC_VERIFY_COW=1), and
# the path is part of the key, so a problem names its own file, and a line in it, on either side. Only
# what read cleanly is kept: a file with a problem is read again, and refused again, where it is needed.
Parsed = dict[tuple[str, str, bytes], tuple[str, Any]]  # (path, schema, bytes) -> (text, data or Rule)


def _read_once(parsed: Parsed | None, key: tuple[str, str, bytes],
               read: Callable[[], tuple[str, Any]]) -> tuple[str, Any]:
    """``read()``, or what it gave for the same key earlier in this check."""
    if parsed is None:
        return read()
    hit = parsed.get(key)
    if hit is None:
        hit = parsed[key] = read()
    return hit


def read_rule(source: Source, path: str, texts: dict[str, str], parsed: Parsed | None = None) -> Rule:
    raw = source.read(path)
    text, rule = _read_once(parsed, (path, "rule.schema.json", raw), lambda: _parse_rule(path, raw))
    texts[path] = text
    return rule


def _parse_rule(path: str, raw: bytes) -> tuple[str, Rule]:
    text = yamlio.read_text(path, path, raw)
    front, body = split_front_matter(text, path)
    meta = yamlio.load(front, path, line_offset=1)
    problems = schemas.errors(meta, schema="rule.schema.json", file=path, text=front, line_offset=1)
    if problems:
        raise BadInput(problems)
    stem = PurePosixPath(path).stem
    if meta["id"] != stem:
        raise BadInput(Problem(f"id {meta['id']!r} must match the file name {stem!r}", path, 2, 1, "id",
                               kind=BAD_INPUT))
    return text, Rule(meta["id"], meta, body)


def read_yaml(source: Source, path: str, schema: str, texts: dict[str, str], parsed: Parsed | None = None) -> Any:
    if source.is_link(path):
        raise BadInput(Problem("content files may not be symbolic links", path, kind=BAD_INPUT))
    raw = source.read(path)
    text, data = _read_once(parsed, (path, schema, raw), lambda: _parse_yaml(path, raw, schema))
    texts[path] = text
    return data


def _parse_yaml(path: str, raw: bytes, schema: str) -> tuple[str, Any]:
    text = yamlio.read_text(path, path, raw)
    problems = check_schema_line(text, path, schema)
    data = yamlio.load(text, path)
    problems += schemas.errors(data, schema=schema, file=path, text=text)
    if problems:
        raise BadInput(problems)
    return text, data


def load_game(source: Source, name: str, *, part: str = "", registry: Registry | None = None,
              parsed: Parsed | None = None, log_from: tuple[list[str], list[str], set[str]] | None = None
              ) -> GameFiles:
    """Read ``content/<name>`` (or its ``initial/`` when part='initial/') into a GameFiles.

    The founding state's configuration is ``initial/game.yaml`` where the game has one (games founded before
    it was written have none: their founding state is read with the current ``game.yaml``). Its modules must be
    the current ``game.yaml``'s, which gives the registry either way: a game's modules never change.

    ``parsed``: what earlier loads in the same check read (see ``Parsed``); a file with the same path and
    bytes is taken from it instead of being parsed and validated again.

    ``log_from``: (log, added, removed) when the caller knows the action files without listing their folder:
    ``log`` is the same game's ``GameFiles.actions`` from an earlier load (``check_pr``: the base's, whose
    names were checked then), ``added`` and ``removed`` the paths that differ here (as git reports them).
    The added ones are checked as listed ones are.

    Raises BadInput listing every problem found in the files.
    """
    from .modules import registry_for

    root = f"content/{name}"
    if not GAME_NAME.match(name):  # a folder made by hand: audited, while no command could name the game
        raise BadInput(Problem(f"{name[:80]!r} is not a game's name ({GAME_NAME_RULE}): rename the folder, as no "
                               "command could name the game", root, kind=BAD_INPUT))
    texts: dict[str, str] = {}
    problems: list[Problem] = []
    cfg_path = f"{root}/game.yaml"
    founding_path = f"{root}/{part}game.yaml" if part else ""
    if founding_path and not has_file(source, founding_path):
        founding_path = ""
    if isinstance(source, GitTree):  # every file this reads, in one `git cat-file --batch`
        source.prefetch([cfg_path, *([founding_path] if founding_path else []),
                         *source.list(f"{root}/{part}gamestate"), *source.list(f"{root}/{part}ruleset")])
    config = read_yaml(source, cfg_path, "game.schema.json", texts, parsed)
    if registry is None:
        try:
            registry = registry_for(config.get("modules", []))
        except (KeyError, ValueError) as e:
            raise BadInput(Problem(str(e.args[0]), cfg_path, *yamlio.locate(texts[cfg_path], ["modules"]), "modules",
                                   kind=BAD_INPUT)) from None
    if founding_path:
        founding = read_yaml(source, founding_path, "game.schema.json", texts, parsed)
        if founding.get("modules", []) != config.get("modules", []):
            raise BadInput(Problem(
                f"the modules of a game cannot change: it was founded with {_listed(founding.get('modules', []))} "
                f"({founding_path}), and game.yaml lists {_listed(config.get('modules', []))}", cfg_path,
                *yamlio.locate(texts[cfg_path], ["modules"]), "modules", rule="the replay of the action log"))
        config, cfg_path = founding, founding_path
    option_problems = []
    named = [m.name for m in registry.modules]
    for key in config.get("options") or {}:
        if key not in named:  # options no module reads: a misspelt name would leave every option at its default
            option_problems.append(Problem(
                f"no module of this game is named {str(key)[:80]!r} (its modules: {', '.join(named[1:])}), so none "
                f"would read these options{did_you_mean(str(key), named)}", cfg_path,
                *yamlio.locate(texts[cfg_path], ["options", key]), f"options.{key}", kind=BAD_INPUT))
    for module in registry.modules:
        if module.options_schema is not None:
            chosen = config.get("options", {}).get(module.name, {})
            option_problems += schemas.errors(chosen, inline=module.options_schema, file=cfg_path,
                                              text=texts[cfg_path], prefix=("options", module.name))
    if option_problems:
        raise BadInput(option_problems)
    base = f"{root}/{part}"
    docs: dict[str, Any] = {}
    doc_paths: dict[str, str] = {}
    known = doc_schemas(registry)
    for path in source.list(f"{base}gamestate"):
        fname = PurePosixPath(path).name
        kind = fname[:-5] if fname.endswith(".yaml") else ""
        if PurePosixPath(path).parent.as_posix() != f"{base}gamestate" or not DOC_FILE.match(fname):
            problems.append(Problem("unexpected file: gamestate holds <kind>.yaml files only", path,
                                    kind=BAD_INPUT))
            continue
        if kind not in known:
            problems.append(Problem(f"no module of this game defines a document {kind!r} "
                                    f"(known: {', '.join(sorted(known))})", path, kind=BAD_INPUT))
            continue
        try:
            docs[kind] = read_yaml(source, path, known[kind], texts, parsed)
            doc_paths[kind] = path
        except BadInput as e:
            problems.extend(e.problems)
            continue
        if kind in registry.docs:  # what its schema cannot say (one field against another)
            problems += schemas.limit_errors(docs[kind], registry.docs[kind].limits, file=path, text=texts[path])
    for kind in known:
        if kind not in docs and f"{base}gamestate/{kind}.yaml" not in doc_paths.values() and not any(
                p.file == f"{base}gamestate/{kind}.yaml" for p in problems):
            missing = f"{base}gamestate/{kind}.yaml"
            problems.append(Problem(f"missing document {kind!r}: the game's rules keep it in this file, which is "
                                    f"not there (deleted? git checkout -- {missing} brings back the committed one)",
                                    missing, kind=BAD_INPUT))
    rules: dict[str, Rule] = {}
    rule_paths: dict[str, str] = {}
    for path in source.list(f"{base}ruleset"):
        folder, _, fname = path.rpartition("/")
        if not RULE_FILE.match(fname) or folder != f"{base}ruleset":
            # one in a sub-folder (ruleset/old/time.md) would be a second file of the rule: read after the rule's
            # own, its text would be the rule, and the rule's own file could then say anything unjudged
            problems.append(Problem("rule files are named <id>.md (lower case, digits, dashes), directly in "
                                    f"{base}ruleset/", path, kind=BAD_INPUT))
            continue
        if source.is_link(path):
            problems.append(Problem("content files may not be symbolic links", path, kind=BAD_INPUT))
            continue
        try:
            rule = read_rule(source, path, texts, parsed)
            rules[rule.id] = rule
            rule_paths[rule.id] = path
        except BadInput as e:
            problems.extend(e.problems)
    actions: list[str] = []
    folder = f"{root}/actions/"
    if not part and log_from is None:
        actions = _log_order(folder, _action_files(folder, source.list(f"{root}/actions"), problems))
    elif not part:
        log, added, removed = log_from
        actions = [p for p in log if p not in removed] if removed else list(log)
        for path in _action_files(folder, sorted(added), problems):
            bisect.insort(actions, path, key=action_sort_key)  # the log is in this order already
    if problems:
        raise BadInput(problems)
    state = State(config, docs, rules)
    return GameFiles(name, root, state, registry, texts, actions, doc_paths, rule_paths, cfg_path)


def has_file(source: Source, path: str) -> bool:
    """Whether ``path`` is in ``source`` (as a file or a link, which reading then refuses), without listing a folder
    where the source can say so at once."""
    if isinstance(source, WorkTree):
        return os.path.lexists(os.path.join(source._base, path))
    if isinstance(source, GitTree):
        return path in source.entries()
    return path in source.list(posixpath.dirname(path))


def _listed(modules: Any) -> str:
    return ", ".join(map(str, modules)) if isinstance(modules, list) and modules else "no modules"


@lru_cache(maxsize=64)
def _plain_action_paths(folder: str) -> re.Pattern[str]:
    """NUL-terminated paths of action files in ``folder`` named the plain way (ASCII digits, an actor without
    a dash): a subset of what ACTION_NAME accepts, checked for a whole log in one match."""
    name = r"[0-9]{8}T[0-9]{6}Z--[A-Za-z0-9_.]{1,64}--[a-z0-9_.-]{1,80}\.yaml"
    return re.compile(f"(?:{re.escape(folder)}{name}\0)*")


def _action_files(folder: str, paths: list[str], problems: list[Problem]) -> list[str]:
    """The paths that name action files directly in ``folder``; a problem for each other one."""
    if not paths:
        return []
    # One regular-expression match over the whole listing costs a sixth of matching 10,000 names one by one
    # (a large game's check spent more time on that than on parsing its small files); any name it does not
    # accept is judged by ACTION_NAME below, as before. No path holds a NUL, so the count checks the split.
    joined = "\0".join(paths) + "\0"
    if joined.count("\0") == len(paths) and _plain_action_paths(folder).fullmatch(joined):
        return list(paths)
    out = []
    for path in paths:
        parent, _, fname = path.rpartition("/")  # as PurePosixPath's parent and name, for listed paths
        if parent + "/" != folder and ACTION_NAME.match(fname):
            # a well-named file moved into a sub-folder: its name was not what is wrong
            problems.append(Problem(f"action files lie directly in {folder}, not in a sub-folder: the log is that "
                                    "folder's files only", path, kind=BAD_INPUT))
            continue
        if not ACTION_NAME.match(fname) or parent + "/" != folder:
            problems.append(Problem("action files are named <yyyymmddThhmmssZ>--<actor>--<action>.yaml",
                                    path, kind=BAD_INPUT))
            continue
        out.append(path)
    return out


def _log_order(folder: str, paths: list[str]) -> list[str]:
    """Action files (named as ACTION_NAME says, directly in ``folder``) in log order: ``action_sort_key``'s."""
    # The name starts with its 16-character time stamp. When no two files share one, the key orders them by
    # it alone, and so does the plain order of the paths: no need to match 10,000 names again for their key.
    if len(set(map(itemgetter(slice(len(folder), len(folder) + 16)), paths))) == len(paths):
        return sorted(paths)
    return sorted(paths, key=action_sort_key)


@lru_cache(maxsize=1 << 16)  # judge.py calls it for every action replayed; a log with same-second files sorts by it
def action_sort_key(path: str) -> tuple[str, int, str]:
    m = ACTION_NAME.match(path.rpartition("/")[2])
    if not m:
        return ("", 0, path)
    return (m.group(1), int(m.group(4) or 0), path)


def read_action(source: Source, path: str, texts: dict[str, str] | None = None,
                registry: Registry | None = None) -> dict[str, Any]:
    """An action file's record, its shape checked against action.schema.json.

    ``registry``: the game's, to report with a bad shape (a wrong time, say) what is wrong in the parameters too,
    and an action the game does not have, so that one hand edit is not answered one mistake at a time.
    """
    if not isinstance(source, WorkTree) and source.is_link(path):  # a WorkTree's read refuses links itself
        raise BadInput(Problem("content files may not be symbolic links", path, kind=BAD_INPUT))
    text = yamlio.read_text(path, path, source.read(path))
    if texts is not None:
        texts[path] = text
    problems = check_schema_line(text, path, "action.schema.json")
    record = yamlio.load(text, path)
    shape = schemas.errors(record, schema="action.schema.json", file=path, text=text)
    if shape and registry is not None and isinstance(record, dict):
        shape += _more_record_problems(registry, record, shape, path, text)
    problems += shape
    if problems:
        raise BadInput(problems)
    return record


def _more_record_problems(registry: Registry, record: dict[str, Any], shape: list[Problem], path: str,
                          text: str) -> list[Problem]:
    """What the record's shape check does not look at: whether the game has its action, and that action's
    parameters (the shape check allows any mapping there)."""
    name = record.get("action")
    if not isinstance(name, str) or any(p.field == "action" for p in shape):
        return []
    action = registry.actions.get(name)
    if action is None:
        line, col = yamlio.locate(text, ["action"])
        return [Problem(registry.unknown_action(name), path, line, col, "action", kind=BAD_INPUT)]
    params = record.get("params") or {}
    if not isinstance(params, dict) or any(p.field.startswith("params") for p in shape):
        return []
    return schemas.errors(params, inline=dict(action.params), file=path, text=text, prefix=("params",))


# ---------------------------------------------------------------- writing


def rule_text(rule: Rule, old_text: str | None = None, path: str = "") -> str:
    """A rule file's text; when rewriting, only changed front-matter values change."""
    if old_text is not None:
        front, _ = split_front_matter(old_text, path)
        tree = yamlio.rt_load(front, path)
        yamlio.sync_into(tree, rule.meta)
        meta_text = yamlio.rt_dump(tree)
    else:
        meta_text = yamlio.rt_dump(yamlio._fresh(rule.meta))
    return "---\n" + meta_text + "---\n" + rule.body


def doc_text(data: Any, path: str, schema: str, old_text: str | None = None,
             old_data: Any = yamlio.MISSING_OLD) -> str:
    """The text of a document holding ``data``: ``old_text`` changed where the data changed, or a new file.
    ``old_data``: what ``old_text`` was read as, if the caller has it (saves reading a large file again)."""
    if old_text is not None:
        if len(old_text) >= yamlio.PATCH_MIN_CHARS:
            # a large document: patch the changed lines in place (what the round trip would write, ten
            # times sooner); the round trip below remains for what the patcher does not handle
            patched = yamlio.patch_text(old_text, data, path, old_data)
            if patched is not None:
                return patched
        tree = yamlio.rt_load(old_text, path)
        tree = yamlio.sync_into(tree, data)
        return yamlio.rt_dump(tree)
    return yamlio.dump_new(data, [schema_line(path, schema)[2:]])
