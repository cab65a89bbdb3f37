"""``nomic fmt``: one canonical layout for content files.

The canonical layout is what ruamel.yaml's round trip writes with the
project's settings (two-space mappings, sequences indented by two with the
dash inside, no line folding). ``nomic act`` writes files in the same layout,
so a file that is canonical stays byte-identical except for the values an
action changes.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from . import yamlio
from .content import CORE_DOC_SCHEMAS, SCHEMA_LINE, doc_schemas, schema_line, split_front_matter
from .problems import BAD_INPUT, BadInput, Problem, Report
from .transaction import write_all


def canonical_text(text: str, name: str) -> str:
    if name.endswith(".md"):
        front, body = split_front_matter(text, name)
        return "---\n" + yamlio.canonical(front, name) + "---\n" + body
    return yamlio.canonical(text, name)


_GAMESTATE = re.compile(r"^content/([^/]+)/(?:initial/)?gamestate/([^/]+)\.yaml$")


def schema_of(rel: str, root: Path) -> str | None:
    """The schema a content file's first line names (what ``nomic check`` asks of it), or None when that is not
    known from the path (a rule, a document no module of the game defines, a game.yaml that cannot be read)."""
    parts = rel.split("/")
    if len(parts) == 4 and parts[0] == "content" and parts[2] == "actions" and rel.endswith(".yaml"):
        return "action.schema.json"
    if parts[0] == "content" and (len(parts) == 3 and parts[2] == "game.yaml"
                                  or len(parts) == 4 and parts[2:] == ["initial", "game.yaml"]):
        return "game.schema.json"
    if len(parts) == 4 and parts[0] == "content" and parts[2:] == ["initial", "checkpoint.yaml"]:
        return "checkpoint.schema.json"  # nomic checkpoint's record (validators/checkpoint.py)
    m = _GAMESTATE.match(rel)
    if not m:
        return None
    try:
        from .modules import registry_for

        config = yamlio.load(yamlio.read_text(root / "content" / m.group(1) / "game.yaml", "game.yaml"), "game.yaml")
        known = doc_schemas(registry_for(config.get("modules", [])))
    except (BadInput, OSError, KeyError, ValueError, AttributeError, TypeError):
        # the check says what is wrong with game.yaml; only the core documents are known then
        known = CORE_DOC_SCHEMAS
    return known.get(m.group(2))


def with_schema_line(text: str, rel: str, root: Path) -> str:
    """The text with the first line ``nomic check`` asks for (``# yaml-language-server: $schema=...``): added
    when the file has none, put right when it names another schema or folder (a file moved by hand)."""
    schema = schema_of(rel, root)
    if schema is None:
        return text
    want = schema_line(rel, schema)
    first, nl, rest = text.partition("\n")
    if first.rstrip() == want:
        return text
    if first.startswith(SCHEMA_LINE):
        return want + "\n" + rest
    return want + "\n" + text


def _not_formatted(rel: str) -> str:
    """Why ``nomic fmt`` does not format the file at ``rel`` (relative to the repository), or "" when it does."""
    if not rel.startswith("content/"):  # also a path outside the repository (../, or an absolute one)
        return "not a content file: nomic fmt formats only the files under content/"
    if rel.endswith(".md"):
        return "" if "/ruleset/" in rel else "not formatted: the Markdown files nomic fmt formats are rules (ruleset/)"
    if not rel.endswith(".yaml"):
        return "not formatted: nomic fmt formats .yaml files and rules (ruleset/<id>.md)"
    return ""


def format_paths(root: Path, paths: list[str], *, check_only: bool) -> tuple[Report, list[str]]:
    report = Report()
    targets: list[Path] = []
    for p in paths or ["content"]:
        path = (root / p) if not Path(p).is_absolute() else Path(p)
        rel = Path(os.path.relpath(os.path.normpath(path), root)).as_posix()
        in_content = (rel + "/").startswith("content/")
        why = ("" if in_content else "not a content folder: nomic fmt formats only the files under content/ "
               "(all of them without a path)") if path.is_dir() else _not_formatted(rel)
        if not path.exists() and not path.is_symlink():  # a mistyped path: said so, not 'not a content file'
            report.add([Problem("does not exist" + ("" if in_content else " (and nomic fmt formats only the files "
                                                    "under content/)"), p, kind=BAD_INPUT)])
            continue
        if why:
            # once skipped without a word (exit 0): the player took the file for formatted
            report.add([Problem(why, p, kind=BAD_INPUT)])
            continue
        if path.is_dir():
            targets.extend(sorted(x for x in path.rglob("*") if x.suffix in (".yaml", ".md") and x.is_file()
                                  and not any(part.startswith(".") for part in x.relative_to(root).parts)
                                  and not _not_formatted(x.relative_to(root).as_posix())))
        else:
            targets.append(path)
    changed: dict[Path, str] = {}
    for path in targets:
        rel = path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)
        try:
            text = yamlio.read_text(path, rel)
            new = with_schema_line(canonical_text(text, rel), rel, root)
        except BadInput as e:
            report.add(e.problems)
            continue
        if new != text:
            changed[path] = new
    if changed and not check_only and not report.problems:
        write_all(root, changed)  # all or nothing: a bad file refuses the whole run, as bad input changes nothing
    return report, sorted(p.relative_to(root).as_posix() for p in changed)
