"""The one value every check reports: a Problem at a place in a file.

Two kinds matter to the exit code: ``bad-input`` (the file or command could
not be read as meant: exit 2) and ``illegal`` (it was read, and the rules
forbid it: exit 1).
"""

from __future__ import annotations

import errno
import json
import unicodedata
from dataclasses import dataclass, field
from typing import Callable, Iterable

BAD_INPUT = "bad-input"
ILLEGAL = "illegal"
NEEDS_ADMIN = "needs-admin"


@dataclass(frozen=True)
class Problem:
    message: str
    file: str = ""
    line: int = 0  # 1-based; 0 when unknown
    col: int = 0  # 1-based; 0 when unknown
    field: str = ""  # a path inside the document, like players[2].stats.bananas
    rule: str = ""  # the rule cited, "1.5 Enactment"
    kind: str = ILLEGAL
    action: str = ""  # the action file this problem belongs to, if any
    # the JSON Schema keyword a schema error is of ("type", "required", "enum"...), so that a command adds its own
    # hint by what was found, not by the words of the message; "" for any other problem. Not printed.
    keyword: str = ""
    commit: str = ""  # the commit this problem belongs to (nomic check --history), if any
    # why it is asked, when the message does not say it: the description of a schema's condition (if/then) that
    # requires a field ("'value' is a required property": add, replace and test take a value). Shown after the
    # message (``said``), never part of it: a module may store a message in the gamestate (Cycle 12's reason a
    # proposal failed), and what it stored must not change with the words a refusal is shown in
    why: str = ""

    def said(self) -> str:
        """The message as a player is shown it: with why, when there is one."""
        return f"{self.message}: {self.why}" if self.why else self.message

    def where(self) -> str:
        if not self.file:
            return ""
        if self.line:
            return f"{shown_name(self.file)}:{self.line}:{self.col or 1}"
        return shown_name(self.file)

    def text(self) -> str:
        parts = []
        where = self.where()
        if where:
            parts.append(where + ":")
        if self.field:
            parts.append(self.field + ":")
        parts.append(self.said())
        out = " ".join(parts)
        if self.rule:
            out += f" [rule: {self.rule}]"
        return out

    def at(self, **changes: object) -> "Problem":
        """A copy placed elsewhere (file, line, col, field, action)."""
        values = {**self.__dict__, **changes}
        return Problem(**values)  # type: ignore[arg-type]


class NomicError(Exception):
    """Carries problems up to the command line, which prints them."""

    kind = ILLEGAL

    def __init__(self, problems: Problem | Iterable[Problem] | str):
        if isinstance(problems, str):
            problems = [Problem(problems, kind=self.kind)]
        elif isinstance(problems, Problem):
            problems = [problems]
        self.problems: list[Problem] = list(problems)
        super().__init__("; ".join(p.text() for p in self.problems))


class BadInput(NomicError):
    """The input could not be read as meant (exit 2)."""

    kind = BAD_INPUT


class Illegal(NomicError):
    """The rules forbid it (exit 1)."""

    kind = ILLEGAL


def bad(message: str, file: str = "", line: int = 0, col: int = 0, field: str = "") -> BadInput:
    return BadInput(Problem(message, file, line, col, field, kind=BAD_INPUT))


def shown_name(name: str) -> str:
    """A file's name (or a folder's) as a line of text shows it: as it is, or, when it holds a character that prints
    nothing or moves the cursor (a line break, an escape, a zero-width space), as Python writes it, quoted, with
    escapes (``'content/x/time.md\\n'``): a name committed in a pull request could otherwise forge a line of the
    verdict in a terminal or a CI log, or erase one."""
    return name if name.isprintable() else repr(name)


def one_line(text: str) -> str:
    """A line of text output with each control character in it (line breaks, escapes, and the line and paragraph
    separators) written as its escape (``\\n``, ``\\x1b``): whatever a message quotes stays on its line."""
    if text.isprintable():
        return text
    return "".join(repr(c)[1:-1] if unicodedata.category(c) in ("Cc", "Zl", "Zp") else c for c in text)


def counted(n: int, one: str, many: str | None = None) -> str:
    """A count with its noun in the singular or plural: '1 action', '2 actions' (never 'action(s)')."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


def did_you_mean(word: str, choices: Iterable[str], show: Callable[[str], str] = str) -> str:
    """"; did you mean X?" for the choice nearest ``word`` (``difflib``, one cutoff for every such hint), or ""."""
    import difflib

    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f"; did you mean {show(close[0])}?" if close else ""


# What a JSON Schema type (or a roster stat's declared type) asks, in a player's words
KIND_WORDS = {"integer": "a whole number", "number": "a number", "string": "text", "boolean": "true or false",
              "array": "a list", "list": "a list", "object": "a mapping (key: value pairs)", "null": "nothing (null)"}


def shown_value(value: object) -> str:
    """A value as a message writes it, in the words of the file it came from (YAML's, JSON's): "three", true,
    null, [1, 2], as the schema's messages write them; never Python's 'three', True or None."""
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 60 else text[:57] + "..."


def wrong_kind(shown: str, kinds: str | Iterable[str]) -> str:
    """'"three" is not a whole number': a value (``shown`` as the caller writes values) that is not of the type, or
    of any of the types, ``kinds`` names (JSON Schema's, or a roster stat's)."""
    names = [kinds] if isinstance(kinds, str) else list(kinds)
    words = [KIND_WORDS.get(str(k), str(k)) for k in names] or ["of the type asked"]
    said = words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"
    return f"{shown} is not {said}"


def format_path(path: Iterable[object]) -> str:
    """['players', 2, 'stats', 'bananas'] -> 'players[2].stats.bananas'."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


@dataclass
class Report:
    """What a command found, in order; the exit code follows from it."""

    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    verdicts: list[dict] = field(default_factory=list)
    changes: list[dict] = field(default_factory=list)  # who, what, before, after: for the PR comment
    judged: str = ""  # what was judged, when not actions ("10,001 commits walked"): the summary's words

    def add(self, problems: Iterable[Problem]) -> None:
        self.problems.extend(problems)

    @property
    def exit_code(self) -> int:
        if any(p.kind == BAD_INPUT for p in self.problems):
            return 2
        if self.problems:
            return 1
        return 0


def unreadable(e: OSError) -> str:
    """Why a file could not be read, in words: one that does not exist, or a folder, said so, not by the system's
    'No such file or directory' after 'cannot read'."""
    if e.errno == errno.ENOENT:
        return "does not exist"
    if e.errno == errno.EISDIR:
        return "is a folder, not a file"
    return f"cannot read: {e.strerror or e}"
