"""The roster (the old GNDT): players, their stats, and the numeric rules every game shares.

Seed 001, "Numbers and Variables": game variables that hold numbers hold only
non-negative integers unless a rule says otherwise, and anything that would
set one below zero sets it to zero instead. Seed 003, "Stuffs": a value with
bounds is clamped to them, unless the change is the cost of an action, in
which case the action cannot be taken. ``change_stat`` does both: ``cost=True``
refuses, otherwise it clamps.
"""

from __future__ import annotations

import copy
import unicodedata
from typing import Any, Iterable

from .engine import Ctx, State
from .problems import Illegal, Problem


def stat_defs(state_or_ctx: State | Ctx) -> dict[str, dict[str, Any]]:
    return state_or_ctx.doc("roster")["stats"]


def new_stats(defs: dict[str, dict[str, Any]]) -> dict[str, Any]:
    return {name: copy.deepcopy(d["default"]) for name, d in defs.items()}


def bounds(d: dict[str, Any]) -> tuple[int | None, int | None]:
    if d["type"] != "integer":
        return None, None
    return d.get("min", 0), d.get("max")


def change_stat(ctx: Ctx, who: str, stat: str, delta: int, *, cost: bool = False, rule: str | None = None) -> int:
    """Add ``delta`` to a player's stat; returns the amount actually changed."""
    defs = stat_defs(ctx)
    if stat not in defs:
        raise Illegal(Problem(f"this game has no stat {stat!r}", rule=rule or ctx.action.rule))
    player = ctx.edit_player(who)
    old = int(player["stats"].get(stat, defs[stat]["default"]))
    lo, hi = bounds(defs[stat])
    new = old + delta
    label = defs[stat].get("label", stat)
    if cost and ((lo is not None and new < lo) or (hi is not None and new > hi)):
        raise Illegal(Problem(f"{who} has {old} {label}; paying {-delta} would leave {new}, below {lo}"
                              if lo is not None and new < lo else
                              f"{who} has {old} {label}; {new} would exceed {hi}", rule=rule or ctx.action.rule))
    if lo is not None:
        new = max(lo, new)
    if hi is not None:
        new = min(hi, new)
    player["stats"][stat] = new
    return new - old


def set_stat(ctx: Ctx, who: str, stat: str, value: Any) -> None:
    defs = stat_defs(ctx)
    player = ctx.edit_player(who)
    if defs.get(stat, {}).get("type") == "integer":
        lo, hi = bounds(defs[stat])
        value = int(value)
        if lo is not None:
            value = max(lo, value)
        if hi is not None:
            value = min(hi, value)
    player["stats"][stat] = value


def fold(name: str) -> str:
    """A name reduced to what a reader would see: case and compatibility forms folded."""
    return unicodedata.normalize("NFKC", name).casefold().replace(" ", "").replace("_", "")


def check_roster(state: State, file: str = "") -> Iterable[Problem]:
    """Invariants of the roster: unique names (also after folding case), stats as declared."""
    roster = state.doc("roster")
    defs = roster["stats"]
    seen: dict[str, str] = {}
    accounts: dict[str, str] = {}
    for i, p in enumerate(roster["players"]):
        key = fold(p["name"])
        if key in seen:
            yield Problem(f"name {p['name']!r} is too like {seen[key]!r}; names must differ by more than case "
                          "or spacing", file, field=f"players[{i}].name")
        seen[key] = p["name"]
        acct = p.get("account")
        if acct:
            if acct.lower() in accounts:
                yield Problem(f"account {acct!r} is already {accounts[acct.lower()]}'s", file,
                              field=f"players[{i}].account")
            accounts[acct.lower()] = p["name"]
        stats = p["stats"]
        for name in stats:
            if name not in defs:
                yield Problem(f"unknown stat {name!r} (declared: {', '.join(defs) or 'none'})", file,
                              field=f"players[{i}].stats.{name}")
        for name, d in defs.items():
            if name not in stats:
                yield Problem(f"missing stat {name!r}", file, field=f"players[{i}].stats")
                continue
            v = stats[name]
            t = d["type"]
            ok = {"integer": isinstance(v, int) and not isinstance(v, bool), "string": isinstance(v, str),
                  "boolean": isinstance(v, bool), "list": isinstance(v, list)}[t]
            if not ok:
                yield Problem(f"{v!r} is not of type {t}", file, field=f"players[{i}].stats.{name}")
                continue
            if t == "integer":
                lo, hi = bounds(d)
                if lo is not None and v < lo:
                    yield Problem(f"{v} is below the minimum {lo}", file, field=f"players[{i}].stats.{name}",
                                  rule=d.get("rule", ""))
                if hi is not None and v > hi:
                    yield Problem(f"{v} is above the maximum {hi}", file, field=f"players[{i}].stats.{name}",
                                  rule=d.get("rule", ""))
            if t == "string" and d.get("choices") and v not in d["choices"]:
                yield Problem(f"{v!r} is not one of {', '.join(d['choices'])}", file,
                              field=f"players[{i}].stats.{name}", rule=d.get("rule", ""))


def active_players(state_or_ctx: State | Ctx) -> list[dict[str, Any]]:
    """Players who count as players for core rules: not idle, not non-player characters."""
    return [p for p in state_or_ctx.doc("roster")["players"] if not p.get("idle") and not p.get("kind")]


def quorum(state_or_ctx: State | Ctx, players: list[dict[str, Any]] | None = None) -> int:
    """Half the players, rounded down, plus one (seed 001 glossary, "Quorum"; seed 003 rule 5)."""
    n = len(active_players(state_or_ctx) if players is None else players)
    return n // 2 + 1
