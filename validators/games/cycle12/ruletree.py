"""Rules and subrules: parents, paths and the tree ("Subrules" in the seed).

A subrule names its parent in its front matter (``parent: <rule id>``); a rule
without a parent is a top-level rule. The path of a top-level rule is its
title; the path of a subrule is its parent's path, the separator, and its
title. The separator is punctuation that appears in no rule's title (the game
option ``separator``, "→" as the seed writes it). Each rule's ``number`` holds
its path; after a proposal takes effect the paths are recomputed.
"""

from __future__ import annotations

from typing import Any, Iterator, Mapping

from ...engine import Problem, Rule, State


def live(rules: Mapping[str, Rule]) -> dict[str, Rule]:
    return {rid: r for rid, r in rules.items() if r.meta.get("status", "active") == "active"}


def parent_of(rule: Rule) -> str | None:
    p = rule.meta.get("parent")
    return str(p) if p else None


def path_of(rules: Mapping[str, Rule], rid: str, separator: str) -> str:
    """The path of a rule; raises ValueError on a missing parent or a cycle."""
    parts, seen, cur = [], set(), rid
    while cur is not None:
        if cur in seen:
            raise ValueError(f"rule {rid!r} is its own ancestor")
        seen.add(cur)
        rule = rules.get(cur)
        if rule is None:
            raise ValueError(f"rule {rid!r} names a parent {cur!r} that does not exist")
        parts.append(rule.title)
        cur = parent_of(rule)
    return f" {separator} ".join(reversed(parts))


def children(rules: Mapping[str, Rule]) -> dict[str | None, list[str]]:
    """Each rule id's subrules (None: the top-level rules), in file order."""
    out: dict[str | None, list[str]] = {}
    for rid, rule in rules.items():
        out.setdefault(parent_of(rule), []).append(rid)
    return out


def tree(rules: Mapping[str, Rule]) -> list[tuple[int, str]]:
    """(depth, rule id) in reading order, for the ruleset page."""
    kids = children(rules)
    out: list[tuple[int, str]] = []

    def walk(rid: str, depth: int, seen: frozenset[str]) -> None:
        out.append((depth, rid))
        for k in kids.get(rid, []):
            if k not in seen:
                walk(k, depth + 1, seen | {k})

    for top in kids.get(None, []):
        walk(top, 0, frozenset({top}))
    return out


def renumber(rules: dict[str, Rule], separator: str) -> list[str]:
    """Set every active rule's number to its path; returns the ids whose number changed."""
    active = live(rules)
    changed = []
    for rid, rule in active.items():
        try:
            path = path_of(active, rid, separator)
        except ValueError:
            continue
        if rule.meta.get("number") != path:
            rule.meta["number"] = path
            changed.append(rid)
    return changed


def problems(state: State, separator: str) -> Iterator[Problem]:
    """Invariants: parents exist and are active, no cycles, the separator in no title, numbers are paths."""
    active = live(state.rules)
    for rid, rule in active.items():
        if separator in rule.title:
            yield Problem(f"the title {rule.title!r} contains the path separator {separator!r}; choose a "
                          "separator that appears in no rule's title (option cycle12.separator)",
                          field=f"rules.{rid}.title", file="game")
        try:
            path = path_of(active, rid, separator)
        except ValueError as e:
            yield Problem(str(e) + " (or it is repealed)", field=f"rules.{rid}.parent", file="game")
            continue
        if rule.number != path:
            yield Problem(f"rule {rid!r} has number {rule.number!r}; its path is {path!r}",
                          field=f"rules.{rid}.number", file="game")


def titles(rules: Mapping[str, Any]) -> list[str]:
    return [r.title for r in live(rules).values()]
