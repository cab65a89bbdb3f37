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
from typing import Any, Callable, Iterable, Iterator

from .engine import Ctx, State, peek, peek_items
from .problems import Illegal, Problem, shown_value, wrong_kind
from .timeutil import format_time


def stat_defs(state_or_ctx: State | Ctx) -> dict[str, dict[str, Any]]:
    return state_or_ctx.doc("roster")["stats"]


def new_stats(defs: dict[str, dict[str, Any]]) -> dict[str, Any]:
    return {name: copy.deepcopy(d["default"]) for name, d in defs.items()}


def bounds(d: dict[str, Any]) -> tuple[int | None, int | None]:
    if d["type"] != "integer":
        return None, None
    return d.get("min", 0), d.get("max")


def value_problem(d: dict[str, Any], v: Any) -> str | None:
    """What is wrong with ``v``, a value of the type its declaration ``d`` names, against the declaration's bounds
    or choices; None if it is allowed."""
    if d["type"] == "integer":
        lo, hi = bounds(d)
        if lo is not None and v < lo:
            return f"{v} is below the minimum {lo}"
        if hi is not None and v > hi:
            return f"{v} is above the maximum {hi}"
    elif d["type"] == "string" and d.get("choices") and v not in d["choices"]:
        return f"{v!r} is not one of {', '.join(d['choices'])}"
    return None


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


def bar_on(bars: Any, name: str, account: str | None) -> dict[str, Any] | None:
    """The bar (``roster.barred``, BlogNomic's seed 001 1.10) that stops ``name`` (after folding case and
    spacing) or ``account``, if any."""
    for b in bars or []:
        if fold(b["name"]) == fold(name) or (account and b.get("account")
                                            and b["account"].lower() == account.lower()):
            return b
    return None


# Whether a value is of a stat's declared type (a bool is no integer, as in the schemas)
STAT_TYPES: dict[str, Callable[[Any], bool]] = {
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool), "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool), "list": lambda v: isinstance(v, list)}


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
            if not STAT_TYPES[t](v):
                yield Problem(wrong_kind(shown_value(v), t), file, field=f"players[{i}].stats.{name}")
                continue
            wrong = value_problem(d, v)
            if wrong:
                yield Problem(wrong, file, field=f"players[{i}].stats.{name}", rule=d.get("rule", ""))


def active_players(state_or_ctx: State | Ctx) -> list[dict[str, Any]]:
    """Players who count as players for core rules: not idle, not non-player characters."""
    return [p for p in state_or_ctx.doc("roster")["players"] if not p.get("idle") and not p.get("kind")]


def quorum(state_or_ctx: State | Ctx, players: list[dict[str, Any]] | None = None) -> int:
    """Half the players, rounded down, plus one (seed 001 glossary, "Quorum"; seed 003 rule 5)."""
    n = len(active_players(state_or_ctx) if players is None else players)
    return n // 2 + 1


# ---------------------------------------------------------------- a player's change of name


Entry = tuple[str, Any, Any, Any]  # a roster entry before a patch: (name, account, joined, kind)


def same_players(before: list[Entry], roster: Any) -> dict[str, Entry]:
    """Who each entry on the roster after a proposal's or CfJ's patch was before it: its name now -> its entry
    before (``before``: the entries before it, as BlogNomic's ``roster_marks`` lists them), for each entry the
    patch carried over; an entry before that nobody here maps to was taken off, an entry here that maps to nobody
    was added.

    Seed 001 1.2: a Colonist's name changes by a proposal approving it; the patch may also give the player another
    forge account, and they are still the same player. ifMUD's seed (002) has no rule for a change of name, but its
    players' set is part of the state, which unanimous consent may change (Rules 7, 10, 12), a name with it. Read
    in this order (our reading):

    1. an entry with the account and joining time of exactly one entry before (and the only one now) is that
       player, whatever its name (so two players who swap names are each renamed);
    2. an entry left with the name of an entry left before is that player (an account changed, or dropped);
    3. the entries left (name and account both new) are the entries left before with the same joining time and
       ``kind`` (a player, or a non-player character of that kind), taken in roster order, when as many are left
       on each side; a patch that rewrites an entry's fields keeps its joining time and its place. Where the
       numbers differ (a patch that also takes off, or adds, an entry with that joining time), nobody of that
       joining time is paired: the ones before are taken off and the ones now added."""
    was: dict[tuple[Any, Any], list[Entry]] = {}
    for b in before:
        was.setdefault((b[1], b[2]), []).append(b)
    now = list(peek(roster["players"]))
    # each entry's account and joining time, read with ``dict.get``, in C: after a patch every entry is a
    # copy-on-write map, whose own ``get`` is Python, and this runs on each proposal's or CfJ's patch, for
    # everyone; the values are only compared, so nothing need be copied
    keys = [(dict.get(p, "account"), dict.get(p, "joined")) for p in now]
    count: dict[tuple[Any, Any], int] = {}
    for key in keys:
        count[key] = count.get(key, 0) + 1
    out: dict[str, Entry] = {}
    for p, key in zip(now, keys):
        olds = was.get(key, [])
        if len(olds) == 1 and count[key] == 1:
            out[p["name"]] = olds[0]
    if len(out) == len(now):
        return out  # the usual patch: no account changed
    taken = set(out.values())
    left = [b for b in before if b not in taken]
    by_name = {b[0]: b for b in left}
    for p in now:
        if p["name"] not in out and p["name"] in by_name:
            out[p["name"]] = by_name[p["name"]]
            left.remove(by_name[p["name"]])
    olds_at: dict[tuple[Any, Any], list[Entry]] = {}
    for b in left:
        olds_at.setdefault((b[2], b[3]), []).append(b)
    news_at: dict[tuple[Any, Any], list[str]] = {}
    for p in now:
        if p["name"] not in out:
            news_at.setdefault((p.get("joined"), p.get("kind")), []).append(p["name"])
    for key, names in news_at.items():
        olds = olds_at.get(key, [])
        if len(olds) == len(names):
            out.update(zip(names, olds))
    return out


def rename_key(ctx: Ctx, mapping: dict[str, Any], old: str, new: str, where: str) -> None:
    """Rename the key ``old`` of an edited ``mapping`` to ``new``, keeping its place (so the file's diff stays
    small); a mapping that already has ``new`` stops the change."""
    if old not in mapping:
        return
    if new in mapping:
        raise ctx.refuse(f"{where} already has an entry for {new!r}; the name cannot be taken")
    items = [(new if k == old else k, mapping[k]) for k in list(mapping)]
    mapping.clear()
    mapping.update(items)


def rename_in_list(items: list[Any], old: str, new: str) -> None:
    """Replace ``old`` by ``new`` in an edited list of names."""
    for i, x in enumerate(peek(items)):
        if x == old:
            items[i] = new


def mentions(doc: Any, name: str, path: str = "") -> str | None:
    """Where ``doc`` holds ``name`` as a whole string value or a key, or None."""
    if isinstance(doc, dict):
        for k, v in peek_items(doc):
            here = f"{path}.{k}" if path else str(k)
            if k == name:
                return here
            found = mentions(v, name, here)
            if found:
                return found
    elif isinstance(doc, list):
        for i, v in enumerate(peek(doc)):
            found = mentions(v, name, f"{path}[{i}]")
            if found:
                return found
    elif doc == name:
        return path or "."
    return None


def used_names(ctx: Ctx) -> dict[str, tuple[str | None, str]]:
    """Every name this game has given a player, folded: (the player who has it now or had it, or None for one who
    left or whom a module took off the roster, ``given_names``; how to say whose it is). A new name must not be one
    of them, or the log (whose files name their actors) would mix two players up."""
    roster = ctx.doc("roster")
    out: dict[str, tuple[str | None, str]] = {}
    for p in roster["players"]:
        out.setdefault(fold(p["name"]), (p["name"], p["name"]))
        for f in p.get("formerly", []):
            out.setdefault(fold(f["name"]), (p["name"], f"{p['name']}, formerly {f['name']}"))
    for f in roster.get("former", []):
        out.setdefault(fold(f["name"]), (None, f"{f['name']}, who left"))
        for g in f.get("formerly", []):  # a name given up before leaving stays theirs too
            out.setdefault(fold(g["name"]), (None, f"{f['name']}, formerly {g['name']}, who left"))
    for name, whose in given_names(ctx):
        out.setdefault(fold(name), (None, whose))
    return out


def welcome_back(ctx: Ctx, name: str, taken_off: Iterable[dict[str, Any]] = (),
                 account: str | None = None) -> list[dict[str, Any]] | None:
    """Seed 001 1.2 (ifMUD's Rules 12 and 27 alike): a player who left and comes back (under ``name``) is playing
    again, so their record of leaving goes, whatever the case or spacing of the name they come back under, the one
    they left under or one they had given up (each game's checks let only them take either). Returns the names that
    stay theirs on their new entry (``formerly``): those they had given up, and the one they left under when they
    come back under another (given up when they left); None when no player who left had the name.

    ``taken_off``: records of leaving that the change bringing the player back has itself taken off the roster (a
    proposal's or CfJ's patch that removes the record and adds the player in one go). They are read as the roster's
    own are, so a return by such a patch keeps the same names as one by ``core.join``.

    ``account``: the account the player comes back with. A record of leaving with that account (any case) is
    theirs whatever name they come back under (seed 001 1.10: one person, one player; the account is the person),
    so its names stay theirs as given up: where the game lets a name change only by a proposal, ``core.join``
    refuses such a return under a new name first."""
    key = fold(name)
    mine = account.lower() if account else None

    def theirs(f: Any) -> bool:
        return (fold(f["name"]) == key or any(fold(g["name"]) == key for g in f.get("formerly", []))
                or (mine is not None and str(f.get("account") or "").lower() == mine))

    here = [f for f in peek(ctx.doc("roster").get("former", [])) if theirs(f)]
    back = here + [f for f in taken_off if theirs(f)]
    if not back:
        return None
    kept = [dict(g) for f in back for g in f.get("formerly", []) if fold(g["name"]) != key]
    kept += [{"name": f["name"], "until": f["left"]} for f in back if fold(f["name"]) != key]
    if here or ctx.doc("roster").get("former") == []:  # a list the change emptied goes too, as after a join
        roster = ctx.edit("roster")
        gone = {f["name"] for f in here}
        roster["former"] = [f for f in roster["former"] if f["name"] not in gone]
        if not roster["former"]:
            roster.pop("former")
    return kept


def given_names(ctx: Ctx) -> Iterator[tuple[str, str]]:
    """The names the game's modules gave to beings they have taken off the roster altogether (each module's
    ``given_names``: Settlement's Outsiders who died), with whose each was."""
    for module in ctx.registry.modules:
        if module.given_names is not None:
            yield from module.given_names(ctx)


def rename_problems(ctx: Ctx, old: str, new: str) -> Iterator[str]:
    """Why ``old`` cannot become ``new``: the name is taken, or a module keeps names it cannot rename."""
    if new == old:
        yield f"{old} is already called {new}"
        return
    owner, whose = used_names(ctx).get(fold(new), (old, ""))
    if owner != old:  # a name of one's own, even a former one, may be taken again
        yield (f"the name {new!r} is too like that of {whose}; names must differ by more than case or spacing, "
               "and a name stays with the player who had it")
    yield from unrenamable(ctx, old)


def unrenamable(ctx: Ctx, old: str) -> Iterator[str]:
    """The modules that keep ``old`` in a document and have no way to rename it (no ``rename``): a change of name,
    however made, would leave those documents naming nobody."""
    for module in ctx.registry.modules:
        if module.rename is not None:
            continue
        for dk in module.docs:
            where = mentions(ctx.doc(dk.name), old) if dk.name in ctx.state.docs else None
            if where:
                yield (f"{module.title} keeps {old!r} in its {dk.name} document ({where}) and has no way to "
                       "rename it; the change of name would leave it naming nobody")
                break


def rename_player(ctx: Ctx, old: str, new: str) -> None:
    """Give player ``old`` the name ``new`` in the engine's documents, then in every module's (their ``rename``).

    The roster entry keeps the names it had (``formerly``), so the wiki can show the player's actions filed
    under an old name as theirs; the ledger's entries (last seen, recent takings of limited actions, hidden
    commitments, the current run of the dice) follow the player, so a new name neither resets a daily limit
    nor starts a fresh run of dice. The action log keeps the names its files were written with.
    """
    p = ctx.edit_player(old)
    p["name"] = new
    p.setdefault("formerly", []).append({"name": old, "until": format_time(ctx.at)})
    ledger = ctx.edit("ledger")
    for key in ("seen", "recent", "commitments"):
        if old in ledger.get(key, {}):
            rename_key(ctx, ledger[key], old, new, f"the ledger's {key}")
    if ledger.get("run_actor") == old:
        ledger["run_actor"] = new
    for module in ctx.registry.modules:
        if module.rename is not None:
            module.rename(ctx, old, new)
    if ctx.actor == old:
        ctx.renamed(new)
