"""Printing what a command found: text, json, or GitHub annotations. Checking never prints."""

from __future__ import annotations

import json
from typing import TextIO

from .problems import BAD_INPUT, NEEDS_ADMIN, Problem, Report, counted, one_line


def _github_escape(text: str, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def github_line(p: Problem) -> str:
    level = "error"
    props = []
    if p.file:
        props.append(f"file={_github_escape(p.file, True)}")
    if p.line:
        props.append(f"line={p.line}")
    if p.col:
        props.append(f"col={p.col}")
    title = "needs an admin" if p.kind == NEEDS_ADMIN else "bad input" if p.kind == BAD_INPUT else "illegal"
    if p.rule:
        title += f" ({p.rule})"
    props.append(f"title={_github_escape(title, True)}")
    msg = (p.field + ": " if p.field else "") + p.said()
    return f"::{level} {','.join(props)}::{_github_escape(msg)}"


def as_dict(p: Problem) -> dict:
    """A problem as --format json writes it: what is said and where (``keyword`` is the program's own)."""
    return {k: p.said() if k == "message" else v for k, v in p.__dict__.items()
            if (v not in ("", 0) or k in ("message", "kind")) and k not in ("keyword", "why")}


def emit(report: Report, fmt: str, out: TextIO, *, quiet: bool = False, command: str = "check") -> None:
    if fmt == "json":
        json.dump({"exit": report.exit_code, "problems": [as_dict(p) for p in report.problems],
                   "actions": report.verdicts, "notes": report.notes}, out, indent=2, ensure_ascii=False)
        out.write("\n")
        return
    if fmt == "github":
        for p in report.problems:
            out.write(github_line(p) + "\n")
        out.write(summary(report) + "\n")
        return
    if fmt == "markdown":
        from .markdown import pr_comment

        out.write(pr_comment(report, command))
        return
    # a file's name is shown quoted when it would print as more than itself (Problem.where); whatever else a message
    # or a note quotes keeps to its line all the same: a line break in it would forge a line of the verdict
    for p in report.problems:
        out.write(one_line(p.text()) + "\n")
    if not quiet:
        for n in report.notes:
            out.write(f"note: {one_line(n)}\n")
    out.write(summary(report) + "\n")


def summary(report: Report) -> str:
    code = report.exit_code
    n = len(report.problems)
    if code == 0 and report.judged:
        return f"legal: {report.judged}, no problems"
    if code == 0:
        legal = sum(1 for v in report.verdicts if v["legal"])
        return f"legal: {counted(legal, 'action')} judged, no problems"
    word = "bad input" if code == 2 else "illegal"
    return f"{word}: {n} problem{'s' if n != 1 else ''}"
