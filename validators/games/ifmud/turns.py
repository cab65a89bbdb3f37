"""Turns (Rules 27, 47, 82, 88, 91-93, 96, 98, 131) and time passing (Rules 24, 45, 70, 101, 128).

The engine's scheduled events fire at fixed times; ifMUD's deadlines hang on the
state (a turn ends 24 hours after it began, a bomb 6 hours after it was dropped).
So ``settle`` is a gate: before every action (``engine.tick`` included) it applies,
in time order, every deadline that fell due since the last action, each at its own
time. A refused action keeps nothing, and the next action settles again.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from datetime import datetime, timedelta
from itertools import compress, repeat
from typing import Any

from ...engine import ANYONE, PLAYER, Action, Ctx, peek, ruled, runs
from ...timeutil import format_time, parse_time
from . import changes as ch
from . import consent
from . import world as w
from .consequences import run_all
from .order import next_in_turn

RULE_TURNS = "r27"
Deadline = tuple[datetime, str, Callable[[Ctx, datetime], None]]
_get = dict.get  # reading without copying (world.py)
_item = dict.__getitem__
_CANONICAL = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$")


_CANONICAL_SEEN: set[str] = set()


def _canonical(text: str) -> bool:
    """A time written as the engine writes it (2026-11-22T10:15:00Z): such times sort as text."""
    if text in _CANONICAL_SEEN:
        return True
    if not _CANONICAL.match(text):
        return False
    if len(_CANONICAL_SEEN) > 100_000:
        _CANONICAL_SEEN.clear()
    _CANONICAL_SEEN.add(text)
    return True


# ---------------------------------------------------------------- whose turn, and what was done in it


def active(state: Any) -> str | None:
    return w.turn(state).get("active")


def chatting(state: Any, who: str) -> bool:
    return who in (w.turn(state).get("chatting") or {})


def require_turn(ctx: Ctx, *, once: str | None = None, rule: str = RULE_TURNS) -> Iterator[str]:
    """The checks every turn-dependent action shares."""
    t = w.turn(ctx)
    if t.get("active") != ctx.actor:
        yield f"it is {t.get('active') or 'nobody'}'s turn, not {ctx.actor}'s (Rule 27)"
        return
    # seed 002 Rule 62 makes a player who used xyzzy chat their life away; repealed, chatting stops nobody
    if chatting(ctx, ctx.actor) and not w.repealed(ctx, "r62"):
        yield f"{ctx.actor} is chatting their life away (Rule 62): no turn actions but ending the turn"
        return
    # seed 002 Rule 135: after metamorphosing only ending the turn (or abandoning gifts); repealed, that stops nobody
    if ctx.actor in (t.get("metamorphosed") or []) and not w.repealed(ctx, "r135"):
        yield f"{ctx.actor} metamorphosed this turn (Rule 135): no turn actions but ending it or abandoning gifts"
        return
    if once and once in (t.get("used") or []):
        yield f"{ctx.actor} has already done this once this turn ({once})"


def mark(ctx: Ctx, key: str | None = None) -> None:
    """Record a voluntary turn action: once-per-turn keys, and waking from sleep (Rule 93)."""
    t = ctx.edit("turn")
    t.setdefault("used", []).append(key or ctx.action.name.removeprefix("ifmud."))
    t["voluntary"] = True
    # seed 002 Rule 93: a voluntary action wakes a sleeper; repealed, they sleep on (Rule 92)
    if ctx.actor in (t.get("asleep") or []) and not w.repealed(ctx, "r93"):
        wake(ctx, ctx.actor)


def wake(ctx: Ctx, who: str) -> None:
    """Rule 93: awake now, and not asleep again until the end of their following turn. Reading (docs, "End of a
    turn"): that end is still covered, so ``awake`` counts the player's own turn-ends Rule 92 may not put them to
    sleep at: this turn's and the next one's when woken on their turn, the next one's when woken in another's."""
    t = ctx.edit("turn")
    t["asleep"].remove(who)
    t.setdefault("awake", {})[who] = 2 if t.get("active") == who else 1
    ctx.step({"awake": who, "rule": "r93"})


def moved_this_turn(state: Any, who: str) -> bool:
    """Whether ``who`` (a player, or ``servant:<owner>``) had their location changed by a turn action this turn,
    in any way (Rule 62's "any action to change their location", Rule 116's "voluntarily changed")."""
    return who in (w.turn(state).get("moved") or [])


def made_a_move(state: Any, who: str) -> bool:
    """Whether the active player (or ``servant:<them>``) *moved* this turn in Rule 89's sense.

    ifMUD seed, Rule 89: a change of location is a move only when the rule allowing it calls it moving. Of the
    ways a player or servant changes location, only Rule 30 (moving oneself) and Rule 46 (moving one's servant)
    do; xyzzy, the Omnibus ("transport") and the teleporter ("setting one's location") do not. So "has moved in
    the same turn" (Rules 80, 110) asks only about those two actions."""
    key = "move-servant" if who.startswith("servant:") else "move-self"
    return key in (w.turn(state).get("used") or [])


def _note(ctx: Ctx, key: str, who: str) -> None:
    names = ctx.edit("turn").setdefault(key, [])
    if who not in names:
        names.append(who)


def note_moved(ctx: Ctx, who: str, *, lock: bool = False) -> None:
    _note(ctx, "moved", who)
    if lock:
        _note(ctx, "locked", who)


def lock(ctx: Ctx, who: str) -> None:
    """``who`` may not have their location changed again this turn, though it was not changed now."""
    _note(ctx, "locked", who)


def locked(state: Any, who: str) -> bool:
    return who in (w.turn(state).get("locked") or [])


# What each rule that keeps a being where it is for the rest of the turn says it did (ifMUD seed, Rules 80, 110, 116)
LOCKS = {"r80": "rode the Magic Omnibus", "r110": "used the personal teleporter", "r116": "threw a pie"}


def _servant_rode(t: Any, owner: str) -> bool:
    """Whether ``owner``'s servant was the Omnibus's passenger this turn (``t``: the turn). The ride notes its
    passenger as moved and locked (Rule 80); a servant moved by its player (Rule 46) may neither ride after that
    nor, while Rule 80 stands, be moved after riding, and a pie (Rule 116) locks it without moving it."""
    who = "servant:" + owner
    return ("omnibus" in (t.get("used") or []) and who in (t.get("moved") or []) and who in (t.get("locked") or [])
            and "move-servant" not in (t.get("used") or []))


def lock_rules(state: Any, who: str) -> list[str]:
    """The rules in force that keep ``who`` (the active player, or ``servant:<them>``) from being moved again this
    turn: ifMUD seed, Rule 80 its Omnibus passenger, Rule 110 the player who used the teleporter, Rule 116 the
    servant that threw a pie. ``turn.locked`` says who is kept; which rule keeps them is read from the turn's
    record (``used``, ``moved``), so that a rule repealed during the turn keeps nobody any longer while another
    that also locked them still does. A lock the record does not explain (written by hand) is each such rule's."""
    t = w.turn(state)
    if who not in (t.get("locked") or []):
        return []
    used = t.get("used") or []
    servant = who.startswith("servant:")
    rules = ["r80"] if "omnibus" in used and _servant_rode(t, who.removeprefix("servant:")) == servant else []
    rules += ["r116"] if servant and "throw-pie" in used else []
    rules += ["r110"] if not servant and "teleport" in used else []
    rules = rules or (["r80", "r116"] if servant else ["r80", "r110"])
    return [r for r in rules if not w.repealed(state, r)]


def locked_why(state: Any, who: str, name: str) -> str:
    """Why ``who`` may not be moved again this turn (``lock_rules``; ``name``: how to call them), or ""."""
    rules = lock_rules(state, who)
    if not rules:
        return ""
    cite = f"Rule {rules[0][1:]}" if len(rules) == 1 else f"Rules {', '.join(r[1:] for r in rules)}"
    return f"{name} {' and '.join(LOCKS[r] for r in rules)} this turn and may not be moved again ({cite})"


# ---------------------------------------------------------------- ending a turn


def turn_length(state: Any) -> timedelta:
    t = w.turn(state)
    # seed 002 Rule 92 gives a player asleep at the switch six hours; repealed, every turn has the full day
    asleep = t.get("active") in (t.get("asleep") or []) and not w.repealed(state, "r92")
    return timedelta(hours=6) if asleep else timedelta(hours=24)


def end_turn(ctx: Ctx, at: datetime, how: str, nxt: str | None = None) -> None:
    """Rule 27's end of a turn and everything that happens then. The next active player is the next by surname,
    or ``nxt`` when a ratified proposal's effects chose them (``consent._turn_given``)."""
    t = ctx.edit("turn")
    who = t.get("active")
    ctx.step({"turn_ends": who, "how": how, "at": format_time(at)})
    # Rule 98: each room's visits go up by the players whose location changed to it this turn (seed 002 Rule 98;
    # repealed, the visits stay as they are).
    for name, entry in sorted((() if w.repealed(ctx, "r98") else (t.get("arrivals") or {}).items())):
        r = _edit_room(ctx, name)
        if r is not None and w.arrivals_count(entry):
            r["visits"] = int(r.get("visits", 0)) + w.arrivals_count(entry)
    names = w.player_names(ctx)  # nobody joins or leaves below
    if who in names:
        # Rule 131: ending a turn in the Servants' Quarters costs three brownie points.
        if w.location_of_player(ctx, who) == w.room_name(ctx, "quarters") and not w.repealed(ctx, "r131"):
            w.add_tally(ctx, who, -3, w.BROWNIE, "Rule 131: turn ended in the Servants' Quarters")
        # Rule 88: a servant left with another player goes home.
        s = w.servant(ctx, who)
        if s and s["location"] in w.locations(ctx, but=who).values() and not w.repealed(ctx, "r88"):
            w.set_servant_location(ctx, who, w.room_name(ctx, "quarters"), how="Rule 88", by_action=False)
        # ifMUD seed, Rule 82: the other players' say over a required action left untaken comes only once a turn has
        # run out its time; the latest such end of each player's turn is kept for that (consent.py).
        if how == "timeout":
            t.setdefault("timed_out", {})[who] = format_time(at)
        # Rule 92: a passive turn-taker timing out without a voluntary action is asleep at the switch (Rule 93:
        # not one woken since their last turn but one; seed 002 Rule 93 repealed, that spares nobody).
        if how == "timeout" and who in (t.get("passive_turn_takers") or []) and not t.get("voluntary") \
                and (who not in (t.get("awake") or []) or w.repealed(ctx, "r93")) \
                and who not in t.setdefault("asleep", []) and not w.repealed(ctx, "r92"):
            t["asleep"].append(who)
            ctx.step({"asleep": who, "rule": "r92"})
        # Rule 62: chatting lasts the rest of this turn and all of the next.
        chat = t.get("chatting") or {}
        if who in chat:
            chat[who] -= 1
            if chat[who] <= 0:
                del chat[who]
        # seed 002 Rule 93: one more of the woken player's own turn-ends covered (the one just checked above, the
        # end of their following turn included: the module's reading of "until the end of")
        awake = t.get("awake") or {}
        if who in awake:
            awake[who] -= 1
            if awake[who] <= 0:
                del awake[who]
    for key in ("used", "moved", "locked", "metamorphosed"):
        t[key] = []
    t["arrivals"] = {}
    t["voluntary"] = False
    t["robot_kitten"] = 0
    t["pending"] = {}
    if nxt is None:
        nxt = next_in_turn(names, who)
    t["active"] = nxt
    t["started"] = format_time(at)
    t["number"] = int(t.get("number", 0)) + 1
    ctx.step({"turn_begins": nxt, "number": t["number"]})


def _edit_room(ctx: Ctx, name: str) -> dict[str, Any] | None:
    rooms = ctx.edit("map")["rooms"]
    i = w._rooms_view(ctx).position(name)  # found by reading: only the one changed is copied
    return None if i is None else rooms[i]


# ---------------------------------------------------------------- deadlines


def _deadlines(ctx: Ctx, until: datetime | None = None) -> Iterator[Deadline]:
    """Every deadline; given ``until``, those due after it may be left out (they are not due yet)."""
    t = w.turn(ctx)
    if t.get("over"):
        return
    if t.get("active") and t.get("started"):
        yield parse_time(t["started"]) + turn_length(ctx), "turn", lambda c, at: end_turn(c, at, "timeout")
    yield from _due_by("bombs", bombs.deadlines(ctx), until)
    yield from _due_by("proposals", consent.deadlines(ctx), until)
    yield from _silence(ctx, until)
    yield from _due_by("servants", _unnamed_servants(ctx), until)


_soonest: dict[str, tuple[list[Deadline], datetime]] = {}


def _due_by(source: str, deadlines: list[Deadline], until: datetime | None) -> list[Deadline]:
    """``deadlines``, or none when even the soonest is after ``until``. The lists worked out once for the
    documents as some action started come back as the very same list: their soonest is remembered."""
    if until is None or not deadlines:
        return deadlines
    hit = _soonest.get(source)
    if hit is None or hit[0] is not deadlines:
        hit = (deadlines, min(d[0] for d in deadlines))
        _soonest[source] = hit
    return deadlines if hit[1] <= until else []



_WEEK = timedelta(days=7)

# Rule 24 is asked about before every action, of every player. Each player's deadline is a week after
# their latest mark (joining, last posting, last demerit for silence); marks only move later. So the
# earliest latest mark, once worked out, stays a floor for as long as the same players are watched and no
# mark moved earlier: while that floor is within the week, nobody's deadline has come.
_quiet: list[Any] = [None]  # (players, seen, silence, passive, earliest latest mark), all as some action started


def _silence(ctx: Ctx, until: datetime | None = None) -> Iterator[Deadline]:
    """Rule 24: a week without posting costs a demerit, and each week after (Rule 130 exempts players
    on both passive lists)."""
    if until is not None and _silent_floor(ctx, until):
        return  # nobody's latest mark is a week old
    players, seen, silence, passive = _watched(ctx)
    recent = format_time(until - _WEEK) if until is not None else None
    earliest, exact = "~", True  # "~" sorts after every time
    for p in peek(players):
        name = _item(p, "name")
        if name in passive:
            continue
        marks = [_item(p, "joined")]
        if name in seen:
            marks.append(seen[name])
        if name in silence:
            marks.append(silence[name])
        if all(type(m) is str and _canonical(m) for m in marks):  # such times sort as text
            latest = max(marks)
            earliest = min(earliest, latest)
            if recent is not None and latest > recent:
                continue  # not due by ``until``
            due = parse_time(latest) + _WEEK
        else:
            exact = False
            due = max(parse_time(m) for m in marks) + _WEEK
        yield due, f"silence {name}", _silent_at(name)
    if exact and recent is not None and _as_started(ctx):
        _quiet[0] = (players, seen, silence, passive, earliest)


def _watched(ctx: Ctx) -> tuple[Any, Any, Any, frozenset[Any]]:
    """What Rule 24 reads: the players, when each last posted, their last demerits for silence, and who
    is on both passive lists."""
    t = w.turn(ctx)
    if w.repealed(ctx, "r130"):  # seed 002 Rule 130 exempts those on both lists; repealed, Rule 24 watches everyone
        return ctx.doc("roster")["players"], _get(ctx.doc("ledger"), "seen") or {}, _get(t, "silence") or {}, _NOBODY
    takers, voters = _get(t, "passive_turn_takers") or [], _get(ctx.doc("consent"), "passive_voters") or []
    both = _both[0]
    if both is None or both[0] is not takers or both[1] is not voters or not _as_started(ctx):
        both = (takers, voters, frozenset(takers) & frozenset(voters))
        if _as_started(ctx):  # the previous state's own lists: never changed
            _both[0] = both
    return ctx.doc("roster")["players"], _get(ctx.doc("ledger"), "seen") or {}, _get(t, "silence") or {}, both[2]


_both: list[Any] = [None]  # (passive turn-takers, passive voters, who is on both)
_NOBODY: frozenset[Any] = frozenset()


def _as_started(ctx: Ctx) -> bool:
    """Nothing Rule 24 reads was edited yet in this action: all of it is the previous state's (never changed)."""
    return not {"roster", "ledger", "turn", "consent"} & ctx.tx.docs.keys()


_week_ago: list[Any] = [None, None]  # the last time asked about, and the time a week before it, as text


def _week_before(until: datetime) -> str:
    """``format_time(until - _WEEK)``, remembered for the last ``until`` (asked again and again in one action)."""
    if _week_ago[0] != until or type(_week_ago[0]) is not type(until):
        _week_ago[0], _week_ago[1] = until, format_time(until - _WEEK)
    return str(_week_ago[1])


def _silent_floor(ctx: Ctx, until: datetime) -> bool:
    """Whether no silence deadline has come by ``until``: every watched player posted within the week
    (``_seen_lately``), or ``_quiet``'s floor shows it."""
    players, seen, silence, passive = _watched(ctx)
    started = _as_started(ctx)
    if started and _seen_lately(players, seen, passive, _week_before(until)):
        return True
    if _quiet_kept(players, seen, silence, passive) and _quiet[0][4] > _week_before(until):
        if started:  # the floor holds for these marks too: compare the next action's with these
            _quiet[0] = (players, seen, silence, passive, _quiet[0][4])
        return True
    return False


_watching: list[Any] = [None, None, ()]  # (a players list as some action started, who is on both lists, who is watched)


def _seen_lately(players: Any, seen: Any, passive: frozenset[Any], recent: str) -> bool:
    """Whether every player Rule 24 watches last posted after ``recent`` (a canonical time): then nobody's
    week has run out, whatever their other marks, since a player's latest mark is at least their last
    posting. Asked of the previous state's own (plain) players and ``seen``, in C but for the names of the
    watched players (worked out once per players list) and the times not yet known to be canonical."""
    if type(players) is not list or type(seen) is not dict:
        return False
    memo = _watching
    if memo[0] is not players or memo[1] != passive:
        was = memo[0]
        if was is not None and memo[1] == passive and len(was) == len(players) and all(
                _item(players[i], "name") == _item(was[i], "name")
                for i in compress(range(len(players)), map(operator.is_not, players, was))):
            memo[0] = players  # the players replaced (a tally or a location changed) kept their names
        else:
            memo[:] = [players, passive, [n for n in map(_item, players, repeat("name")) if n not in passive]]
    names = memo[2]
    if not names:
        return False
    times = list(map(seen.get, names))
    try:
        low = min(times)
    except TypeError:
        return False  # someone never posted (None), or a time that is not text
    if type(low) is not str or not low > recent:
        return False
    if not _CANONICAL_SEEN.issuperset(times):
        for t in set(times).difference(_CANONICAL_SEEN):
            if type(t) is not str or not _canonical(t):
                return False  # such a time does not sort as text
    return True


def _silent_at(name: str) -> Callable[[Ctx, datetime], None]:
    @ruled("r24")  # seed 002 Rule 24: a silent week costs a demerit
    def apply(c: Ctx, at: datetime) -> None:
        c.edit("turn").setdefault("silence", {})[name] = format_time(at)
        w.add_tally(c, name, 1, w.DEMERITS, "Rule 24: a week without posting")

    return apply


def _quiet_kept(players: Any, seen: Any, silence: Any, passive: frozenset[Any]) -> bool:
    """Whether ``_quiet``'s floor still holds: the same players watched (names and joining times, in
    order), and every mark the one it was or later."""
    kept = _quiet[0]
    if kept is None:
        return False
    players0, seen0, silence0, passive0, _ = kept
    if passive != passive0:
        return False
    if players is not players0:
        now = list(peek(players))
        if len(now) != len(players0):
            return False
        for i in _differing(now, players0):
            a, b = now[i], players0[i]
            if _item(a, "name") != _item(b, "name") or _get(a, "joined") != _get(b, "joined"):
                return False
    return _later(seen, seen0) and _later(silence, silence0)


def _differing(a: list[Any], b: list[Any]) -> Iterator[int]:
    """Where two lists of one length hold different objects (most hold the very same ones)."""
    same = list(map(operator.is_, a, b))
    i = -1
    while True:
        try:
            i = same.index(False, i + 1)
        except ValueError:
            return
        yield i


def _later(now: Any, was: dict[str, Any]) -> bool:
    """The same names, each with the time it had or a later one (canonical times)."""
    if now is was:
        return True
    if len(now) != len(was):
        return False
    if not now:
        return True  # both empty
    if list(dict.keys(now)) != list(was.keys()):
        return False
    values, before = list(dict.values(now)), list(was.values())
    for i in compress(range(len(values)), map(operator.is_not, values, before)):  # (found in C)
        n, o = values[i], before[i]
        if not (type(n) is str and type(o) is str and _canonical(n) and _canonical(o) and n >= o):
            return False
    return True


def _unnamed_servants(ctx: Ctx) -> list[Deadline]:
    """Rule 45: a servant not named within 72 hours costs its player a demerit; naming passes to the others."""
    kept = w._as_started(ctx, "entities", "servants")
    if kept is not None:  # the servants as the action started: worked out once for them
        return ch.derived("servant deadlines", kept, _kept_servant_deadlines)
    return _servant_deadlines(peek(ctx.doc("entities")["servants"]))


def _unnamed_at(owner: str) -> Callable[[Ctx, datetime], None]:
    @ruled("r45")  # seed 002 Rule 45: an unnamed servant costs a demerit
    def apply(c: Ctx, at: datetime) -> None:
        w.edit_servant(c, owner)["naming"] = "sectional"
        w.add_tally(c, owner, 1, w.DEMERITS, "Rule 45: servant not named in 72 hours")

    return apply


def _servant_deadline(s: dict[str, Any]) -> Deadline | None:
    if w.is_named(s) or _get(s, "naming") == "sectional":  # Rule 45: named means a name and a species
        return None
    return (parse_time(_item(s, "since")) + timedelta(hours=72), f"servant {_item(s, 'owner')}",
            _unnamed_at(_item(s, "owner")))


def _servant_deadlines(servants: Iterable[dict[str, Any]]) -> list[Deadline]:
    return [d for d in map(_servant_deadline, servants) if d is not None]


_servant_deadline_of_kept = ch.PerItem(_servant_deadline)  # a servant moved is one new item: the others are known


def _kept_servant_deadlines(servants: list[dict[str, Any]]) -> list[Deadline]:
    """``_servant_deadlines`` of the servants as an action started (the previous state's own, never changed)."""
    return [d for d in _servant_deadline_of_kept.many(servants) if d is not None]


_soon: dict[str, tuple[Any, datetime | None]] = {}  # by source: (its list as some action started, soonest)


def _soonest_in(source: str, part: Any, deadlines: Callable[[Any], list[Deadline]]) -> datetime | None:
    """The soonest of ``deadlines(part)``, remembered while the actions start from that very ``part``."""
    hit = _soon.get(source)
    if hit is None or hit[0] is not part:
        times = [d[0] for d in deadlines(part)]
        hit = (part, min(times) if times else None)
        _soon[source] = hit
    return hit[1]


def _nothing_due(ctx: Ctx) -> bool:
    """Whether no deadline has come by the action's time, asked the quick way, before the action has
    edited anything (settle's first look): from what is remembered of the documents it started from.
    False when that cannot be told so (``_deadlines`` then tells)."""
    if ctx.tx.docs:
        return False
    t = w.turn(ctx)
    if t.get("over"):
        return True
    if t.get("active") and t.get("started") and parse_time(t["started"]) + turn_length(ctx) <= ctx.at:
        return False
    cpu = w.room_name(ctx, "cpu")
    # (nothing is edited yet: these are the previous state's own lists)
    for soonest in (_soonest_in(f"bombs, CPU {cpu}", w.tokens(ctx), lambda ts: bombs._kept_deadlines(ts, cpu)),
                    _soonest_in("proposals", consent.proposals(ctx), consent._kept_deadlines),
                    _soonest_in("servants", ctx.doc("entities")["servants"], _kept_servant_deadlines)):
        if soonest is not None and soonest <= ctx.at:
            return False
    if len(_CANONICAL_SEEN) < 100_000:  # the action's time as the ledger will write it: canonical
        _CANONICAL_SEEN.add(format_time(ctx.at))
    return w.repealed(ctx, "r24") is not None or _silent_floor(ctx, ctx.at)


def settle(ctx: Ctx) -> Iterator[str]:
    """Gate: apply every deadline up to the action's time, earliest first.

    Time only runs forward (Rule 117 makes the current time part of the state): a deadline that comes out earlier
    than the last action, or than a deadline already applied, was moved into the past since (a ratified proposal's
    effects set back a turn's start, a joining, a servant's arrival, a posting, a bomb's stay or delay, Rules 10,
    24, 27, 45, 70, 101, 128). It takes effect at the time it was moved, not before it: what was already applied
    keeps its time and order."""
    floor: datetime | None = None
    for _ in range(10000):
        if _nothing_due(ctx):
            break
        # a deadline tied to its rule (``ruled``: Rules 24, 45, 70, 101, 128) falls due no more once the rule is
        # repealed; a turn's time and a ratified proposal taking effect (Rules 27, 10: the frame) are tied to none
        due = [(at, key, fn) for at, key, fn in _deadlines(ctx, ctx.at) if at <= ctx.at and runs(ctx, fn)]
        if not due:
            break
        at, _key, fn = min(due, key=lambda d: (d[0], d[1]))
        floor = max(at, floor or ctx.tx.base.now() or at)
        at = floor
        now, ctx.at = ctx.at, at  # everything the deadline does happens at its own time
        try:
            fn(ctx, at)
            run_all(ctx)
        finally:
            ctx.at = now
    if ctx.action.who != ANYONE and ctx.player() is None:
        # ifMUD seed, Rule 11: a player with three demerits is removed from the game at once; when the deadlines
        # before this action removed its actor (a third demerit, Rule 24), the actor is no player any more.
        why = next((s.get("why") for s in ctx.outcome if isinstance(s, dict) and s.get("removed") == ctx.actor
                    and s.get("why")), "")
        yield f"{ctx.actor} was removed from the game before this action ({why or 'Rule 11'}); only players may " \
              "take it"
        return
    t = w.turn(ctx)
    if ctx.action.name.startswith("ifmud.") and t.get("active") == ctx.actor and not t.get("over"):
        # Rules 92-93: any voluntary action on one's own turn counts, not only turn actions.
        if not t.get("voluntary"):
            ctx.edit("turn")["voluntary"] = True
        # ifmud.wake is itself Rule 93's second way to wake (saying so): it wakes the player, so the gate leaves
        # that to it rather than waking them first and having the action refused as made by one already awake.
        if ctx.actor in (t.get("asleep") or []) and ctx.action.name != "ifmud.wake" \
                and not w.repealed(ctx, "r93"):  # (seed 002 Rule 93 repealed: no action wakes anyone)
            wake(ctx, ctx.actor)
    if w.turn(ctx).get("over") and ctx.action.name != "engine.tick":
        yield f"the game is over: {w.names_and(w.winners(ctx)) or 'somebody'} won (Rule 33)"


# ---------------------------------------------------------------- actions


def _end_check(ctx: Ctx) -> Iterator[str]:
    if active(ctx) != ctx.actor:
        yield f"it is {active(ctx) or 'nobody'}'s turn, not {ctx.actor}'s"
        return
    # ifMUD seed, Rule 42: announcing the end of one's turn is an action by individual intent, and ending it in the
    # Servants' Quarters costs three points at once (Rule 131), which is no penalty for non-action. So the
    # announcement is refused when those three could take the tally below zero (or lower a negative one); the
    # turn still ends by itself after its time (Rule 27), and then Rule 131's loss is not limited.
    # (seed 002 Rule 131 repealed: ending there costs nothing, so nothing is refused)
    if w.location_of_player(ctx, ctx.actor) == w.room_name(ctx, "quarters") and not w.repealed(ctx, "r131"):
        for problem in w.may_lose(ctx, ctx.actor, 3, "ending the turn in the Servants' Quarters (Rule 131)"):
            yield replace(problem, message=problem.message + "; the turn still ends by itself when its time is up "
                                                             "(Rule 27)")


END_TURN = Action(
    name="ifmud.end-turn",
    rule=RULE_TURNS,
    summary="Announce that your turn is over",
    check=_end_check,
    effect=lambda ctx: end_turn(ctx, ctx.at, "announced"),
    doc="The active player ends their turn. The next player is the one whose surname comes next "
        "alphabetically (or the first). At the end of a turn visits are counted (Rule 98), a player in "
        "the Servants' Quarters loses 3 brownie points (Rule 131) and a servant sharing a room with another "
        "player goes back to the Servants' Quarters (Rule 88). A turn also ends by itself after 24 hours "
        "(6 when its player is asleep at the switch, Rule 92). In the Servants' Quarters the announcement is refused "
        "when its three points could take the player's tally below zero (Rule 42); a timeout is not.",
)


def _list_toggle(doc: str, field: str, rule: str, add: bool):
    def check(ctx: Ctx) -> Iterator[str]:
        not_player = list(consent.a_player(ctx, rule))  # Rule 91: "any player"
        if not_player:
            yield from not_player
            return
        present = ctx.actor in (ctx.doc(doc).get(field) or [])
        if add and present:
            yield f"{ctx.actor} is already on the list"
        if not add and not present:
            yield f"{ctx.actor} is not on the list"

    def effect(ctx: Ctx) -> None:
        lst = ctx.edit(doc).setdefault(field, [])
        if add:
            lst.append(ctx.actor)
        else:
            lst.remove(ctx.actor)
        ctx.step({field: ctx.actor, "added" if add else "removed": True})

    return check, effect


def _wake_check(ctx: Ctx) -> Iterator[str]:
    if ctx.actor not in (w.turn(ctx).get("asleep") or []):
        yield f"{ctx.actor} is not asleep at the switch"


def _wake(ctx: Ctx) -> None:
    wake(ctx, ctx.actor)


_ptt_on = _list_toggle("turn", "passive_turn_takers", "r91", True)
_ptt_off = _list_toggle("turn", "passive_turn_takers", "r91", False)

ACTIONS = [
    END_TURN,
    Action(name="ifmud.passive-turns", rule="r91", summary="Join the Passive Turn-Takers list",
           check=_ptt_on[0], effect=_ptt_on[1], who=ANYONE,
           doc="Any player may put themselves on the Passive Turn-Takers list (Rule 91)."),
    Action(name="ifmud.active-turns", rule="r91", summary="Leave the Passive Turn-Takers list",
           check=_ptt_off[0], effect=_ptt_off[1], who=ANYONE,
           doc="Any player may take themselves off the Passive Turn-Takers list (Rule 91)."),
    Action(name="ifmud.wake", rule="r93", summary="Say you do not mean to be asleep at the switch",
           check=_wake_check, effect=_wake, who=PLAYER,
           doc="A player asleep at the switch who says so is awake again, and is not put to sleep again "
               "before the end of their following turn (Rule 93)."),
]


from . import bombs  # noqa: E402 (at the end: bombs imports this module)
