"""``nomic fmt``: one canonical layout for content files.

The canonical layout is what ruamel.yaml's round trip writes with the
project's settings (two-space mappings, sequences indented by two with the
dash inside, no line folding). ``nomic act`` writes files in the same layout,
so a file that is canonical stays byte-identical except for the values an
action changes.
"""

from __future__ import annotations

from pathlib import Path

from . import yamlio
from .content import split_front_matter
from .problems import BadInput, Report
from .transaction import write_all


def canonical_text(text: str, name: str) -> str:
    if name.endswith(".md"):
        front, body = split_front_matter(text, name)
        return "---\n" + yamlio.canonical(front, name) + "---\n" + body
    return yamlio.canonical(text, name)


def format_paths(root: Path, paths: list[str], *, check_only: bool) -> tuple[Report, list[str]]:
    report = Report()
    targets: list[Path] = []
    for p in paths or ["content"]:
        path = (root / p) if not Path(p).is_absolute() else Path(p)
        if path.is_dir():
            targets.extend(sorted(x for x in path.rglob("*") if x.suffix in (".yaml", ".md") and x.is_file()
                                  and not any(part.startswith(".") for part in x.relative_to(root).parts)))
        else:
            targets.append(path)
    changed: dict[Path, str] = {}
    for path in targets:
        rel = path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)
        if rel.endswith(".md") and "/ruleset/" not in "/" + rel:
            continue
        try:
            text = yamlio.read_text(path, rel)
            new = canonical_text(text, rel)
        except BadInput as e:
            report.add(e.problems)
            continue
        if new != text:
            changed[path] = new
    if changed and not check_only and not report.problems:
        write_all(root, changed)  # all or nothing: a bad file refuses the whole run, as bad input changes nothing
    return report, sorted(p.relative_to(root).as_posix() for p in changed)
