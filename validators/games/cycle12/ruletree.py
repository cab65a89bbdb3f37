"""Rules and subrules: parents, paths and the tree ("Subrules" in the seed).

A subrule names its parent in its front matter (``parent: <rule id>``); a rule
without a parent is a top-level rule. So is a rule whose parent has been
repealed: it claims no rule in effect as its parent, so it is no subrule
(seed 004, Subrules). The path of a top-level rule is its title; the path of
a subrule is its parent's path, the separator, and its title. The separator
is punctuation that appears in no rule's title (the game option
``separator``, "→" as the seed writes it). Each rule's ``number`` holds its
path; after a proposal takes effect the paths are recomputed.
"""

from __future__ import annotations

from typing import Any, Iterator, Mapping

from ...engine import Problem, Rule, State


def live(rules: Mapping[str, Rule]) -> dict[str, Rule]:
    return {rid: r for rid, r in rules.items() if r.meta.get("status", "active") == "active"}


def parent_of(rule: Rule) -> str | None:
    p = rule.meta.get("parent")
    return str(p) if p else None


def parent_in(rules: Mapping[str, Rule], rule: Rule) -> str | None:
    """The parent ``rule`` claims if it is one of ``rules`` (the rules in effect), else None.

    Seed 004, Subrules: a subrule is a rule that claims *another rule* as its parent, and a rule that is no
    subrule is a top-level rule. A rule whose parent was repealed claims no rule in effect, so it is a
    top-level rule (its path is its title) until a proposal gives it a parent again."""
    p = parent_of(rule)
    return p if p is not None and p in rules else None


def path_of(rules: Mapping[str, Rule], rid: str, separator: str) -> str:
    """The path of a rule of ``rules`` (the rules in effect); raises ValueError on a cycle."""
    parts, seen, cur = [], set(), rid
    while cur is not None:
        if cur in seen:
            raise ValueError(f"rule {rid!r} is its own ancestor")
        seen.add(cur)
        rule = rules.get(cur)
        if rule is None:
            raise ValueError(f"there is no rule {cur!r} in effect")
        parts.append(rule.title)
        cur = parent_in(rules, rule)
    return f" {separator} ".join(reversed(parts))


def children(rules: Mapping[str, Rule]) -> dict[str | None, list[str]]:
    """Each rule id's subrules (None: the top-level rules, a rule whose parent is not among ``rules`` with
    them), in file order."""
    out: dict[str | None, list[str]] = {}
    for rid, rule in rules.items():
        out.setdefault(parent_in(rules, rule), []).append(rid)
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
    """Invariants: a parent names a rule of the ruleset (one since repealed leaves a top-level rule), no cycles,
    the separator in no title, numbers are paths."""
    active = live(state.rules)
    for rid, rule in active.items():
        if separator in rule.title:
            yield Problem(f"the title {rule.title!r} contains the path separator {separator!r}; choose a "
                          "separator that appears in no rule's title (option cycle12.separator)",
                          field=f"rules.{rid}.title", file="game")
        claimed = parent_of(rule)
        if claimed is not None and claimed not in state.rules:
            # no rule of that id was ever in the ruleset: a slip in the front matter or a proposal's rule edit
            yield Problem(f"rule {rid!r} names a parent {claimed!r} that does not exist", field=f"rules.{rid}.parent",
                          file="game")
            continue
        try:
            path = path_of(active, rid, separator)
        except ValueError as e:
            yield Problem(str(e), field=f"rules.{rid}.parent", file="game")
            continue
        if rule.number != path:
            yield Problem(f"rule {rid!r} has number {rule.number!r}; its path is {path!r}",
                          field=f"rules.{rid}.number", file="game")


def titles(rules: Mapping[str, Any]) -> list[str]:
    return [r.title for r in live(rules).values()]
