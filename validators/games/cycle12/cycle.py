"""What happens by itself: phase starts, the end of the week and of the cycle, medals, the win
("Population", "Standard Proposals", "Election", "Good", "Medals", "The End of All Things").
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from itertools import repeat
from typing import Any

from ...engine import Ctx, Event, Remembered, peek, repealed, ruled
from ...timeutil import parse_time
from . import justice, nomsters, phases, proposals
from .common import (
    CYCLE,
    MEDALS,
    SHEETS,
    WORLD,
    BaseMemo,
    is_reputable,
    iso,
    location_by_id,
    member_since,
    opts,
    positions_changed,
    start,
    touch_sheet_once,
)

RULE_TIME = "time"
RULE_END = "the-end-of-all-things"
RULE_GOOD = "good"
RULE_MEDALS = "medals"
RULE_PARTICIPATION = "participation-medal"


def _phase_begins(ctx: Ctx) -> None:
    """A phase begins: proposals whose period ended are resolved; Mondays end the week's election;
    the end of the last phase ends the cycle; otherwise the nomster index is reset."""
    n = phases.phase_number(ctx.at, start(ctx))
    ctx.step({"phase": phases.phase_name(n) if n else "before the cycle"})
    proposals.resolve_due(ctx)
    # seed 004 "Election": the week's election ends on Monday; repealed, nobody is elected (the candidacies stay)
    if ctx.at.weekday() == 0 and not repealed(ctx, "election"):
        justice.elect(ctx)
    # seed 004 "The End of All Things": the cycle ends with its last phase; repealed, it goes on
    if ctx.at >= phases.cycle_end(start(ctx), opts(ctx)["last_phase"]) and not repealed(ctx, RULE_END):
        end_cycle(ctx, "the end of the last phase")
        return
    nomsters.reset_index(ctx)


_PHASE: tuple[datetime, datetime] | None = None  # [start, end) of the phase last asked about


def _next_phase_start(t: datetime) -> datetime:
    """``phases.next_phase_start``, asked before every action: every moment of a phase has the same
    answer, the end of that phase, so the phase last asked about is remembered."""
    global _PHASE
    if t.tzinfo is None:
        return phases.next_phase_start(t)
    known = _PHASE
    if known is not None and known[0] <= t < known[1]:
        return known[1]
    end = phases.next_phase_start(t)
    _PHASE = (phases.phase_start(t), end)
    return end


PHASE_BEGINS = Event(
    name="cycle12.phase-begins",
    rule=RULE_TIME,
    next_time=_next_phase_start,
    apply=_phase_begins,
    when="Each Monday and Thursday at 00:00 UTC",
    summary="proposals resolve, the week's election ends, the nomster index is reset",
    enabled=lambda state: not state.doc(CYCLE).get("ended"),
)


def end_if_over(ctx: Ctx) -> None:
    """004 The End of All Things: the cycle ends at the end of its last phase. The phase-start event ends it then;
    when a proposal taking effect mid-phase (an urgent one's end) sets the last phase to one already over, the
    cycle ends as the change takes effect, not at the next phase start. Repealed, it does not end so."""
    if ctx.doc(CYCLE).get("ended") or repealed(ctx, RULE_END):
        return
    last = opts(ctx)["last_phase"]
    if ctx.at >= phases.cycle_end(start(ctx), last):
        end_cycle(ctx, f"the end of the last phase ({phases.phase_name(last)}), already over when a change set it")


def end_cycle(ctx: Ctx, why: str) -> None:
    doc = ctx.edit(CYCLE)
    doc["ended"] = True
    doc["ended_at"] = iso(ctx.at)
    doc["reason"] = why
    # seed 004 "The End of All Things" makes the ascended winners; repealed (the cycle then ends only by a win at
    # the Tower of Ferrets), being ascended wins nothing
    ascended_win = not repealed(ctx, RULE_END)
    for s in ctx.doc(SHEETS)["sheets"]:
        if ascended_win and s.get("ascended") and s["player"] not in doc["winners"]:
            doc["winners"].append(s["player"])
    ctx.step({"cycle_ended": why, "winners": list(doc["winners"])})


def ended_gate(ctx: Ctx) -> Iterator[str]:
    if ctx.doc(CYCLE).get("ended") and ctx.action.name != "engine.tick":
        yield f"the cycle ended at {ctx.doc(CYCLE).get('ended_at')}"


_RICH = BaseMemo()


def _rich(ctx: Ctx, need: int) -> list[dict[str, Any]]:
    """The players with at least ``need`` gooderhose points, in roster order, found by reading alone
    (dict.__getitem__: a player's stats are read, not copied, when the roster is edited in this action)."""
    return [p for p in peek(ctx.doc("roster")["players"])
            if int(dict.__getitem__(p, "stats").get("gooderhose", 0)) >= need]


# seed 004 "Good": the rule that makes the win; repealed, no player wins at the Tower of Ferrets (the cycle still
# ends at its last phase, and the ascended still win then)
@ruled(RULE_GOOD)
def win_check(ctx: Ctx) -> None:
    """Good: a player with at least 1250 gooderhose points in the Tower of Ferrets wins the cycle.

    It runs after every action, so it first finds the players with enough points (seldom anyone; the
    same as after the previous action when this one did not touch the roster), and looks for the
    sheet and the location of those only.
    """
    o = opts(ctx)
    if ctx.doc(CYCLE).get("ended"):
        return
    need = o["win_points"]
    won = []
    for p in _RICH.get(ctx, ("roster",), lambda: _rich(ctx, need)):
        s = next((x for x in peek(ctx.doc(SHEETS)["sheets"]) if x["player"] == p["name"]), None)
        # our reading of 004 Ascend: an ascended player has left the map, so is in no location (not the
        # Tower of Ferrets either); ascended players win at the end of the cycle (The End of All Things)
        loc = location_by_id(ctx, s["location"]) if s and s.get("location") is not None \
            and not (s.get("ascended") and not repealed(ctx, "ascend")) else None
        if loc and loc["name"] == o["tower"] and int(p["stats"].get("gooderhose", 0)) >= o["win_points"]:
            won.append(p)
    # 004 Good: every player meeting the condition wins, so all who meet it at the same moment (one proposal can
    # give several players their points) are winners, before the win ends the cycle (our reading, win_ends_cycle)
    for p in won:
        doc = ctx.edit(CYCLE)
        if p["name"] not in doc["winners"]:
            doc["winners"].append(p["name"])
            ctx.step({"wins": p["name"], "gooderhose": p["stats"]["gooderhose"], "at": o["tower"]})
    if won and o["win_ends_cycle"]:
        end_cycle(ctx, f"{' and '.join(p['name'] for p in won)} won at the {o['tower']}")


# ---------------------------------------------------------------- medals


def _participation(ctx: Ctx, name: str) -> bool:
    return is_reputable(ctx, name, ctx.at)


def _answered(ctx: Ctx, s: dict[str, Any]) -> Any:
    """When the fulfiller of suggestion ``s`` did their part, submitting the answering tile or card (004 New
    Locations): the fulfilling itself (``fulfilled_at``), but for Apeiros Village, created at its fifth reaction
    after its claim (004 Position Constraints): then the claim's time, which its location keeps as ``submitted``.
    So a newcomer of a departed claimant's name, who joined in between, is not taken for the claimant."""
    loc = location_by_id(ctx, s["location"]) if type(s.get("location")) is int else None
    sub = loc.get("submitted") if loc is not None and loc.get("suggestion") == s.get("id") else None
    return sub if isinstance(sub, str) else s.get("fulfilled_at")


def _cartographer(ctx: Ctx, name: str) -> bool:
    # 004 Cartographer: the player's own suggestion fulfilled, and another's suggestion fulfilled by the player.
    # What a player of that name did before this player joined was done by someone else (our reading: a newcomer of
    # a departed player's name is someone else), so it is neither their suggestion nor their fulfilling
    sugg = ctx.doc(WORLD)["suggestions"]
    had_fulfilled = any(s["by"] == name and s.get("fulfilled_by") and member_since(ctx, name, s["at"]) for s in sugg)
    fulfilled_other = any(s.get("fulfilled_by") == name and member_since(ctx, name, _answered(ctx, s))
                          and not (s["by"] == name and member_since(ctx, name, s["at"])) for s in sugg)
    return had_fulfilled and fulfilled_other


def _tamer(ctx: Ctx, name: str) -> bool:
    s = next((x for x in ctx.doc(SHEETS)["sheets"] if x["player"] == name), None)
    return bool(s and s.get("tamed"))


CONDITIONS = {"participation": _participation, "cartographer": _cartographer, "tamer": _tamer}

# The same conditions for the medal check after every action: each reads the documents once (without
# copying) and answers for any player. Awarding a medal changes only Medal Boxes, which none reads.


def _participation_test(ctx: Ctx) -> Callable[[str], bool]:
    o, now = opts(ctx), ctx.at
    first, founding = start(ctx), timedelta(days=o["reputable_founding_days"])
    days = timedelta(days=o["reputable_days"])
    joined: dict[str, Any] = {}
    for p in peek(ctx.doc("roster")["players"]):
        joined.setdefault(p["name"], p["joined"])  # the first of a name, as ctx.player finds it

    def test(name: str) -> bool:  # is_reputable
        if name not in joined:
            return False
        t = parse_time(joined[name])
        return t <= now and (now - t >= days or t <= first + founding)
    return test


def _cartographer_test(ctx: Ctx) -> Callable[[str], bool]:
    joined: dict[str, Any] = {}
    for p in peek(ctx.doc("roster")["players"]):
        joined.setdefault(p["name"], p.get("joined"))  # the first of a name, as ctx.player finds it

    def since(name: Any, at: Any) -> bool:  # member_since, read from the roster once
        if name not in joined:
            return False
        t = joined[name]
        return not isinstance(t, str) or not isinstance(at, str) or parse_time(t) <= parse_time(at)

    had_fulfilled, fulfilled_other = set(), set()
    for s in peek(ctx.doc(WORLD)["suggestions"]):
        by, done = s["by"], s.get("fulfilled_by")
        if done is None:
            continue  # unfulfilled: counts for neither, and no time is read
        # 004 Cartographer, our reading: what a player of the name did before this one joined was someone else's
        own = since(by, s.get("at"))
        if done and own:
            had_fulfilled.add(by)
        # ... and the fulfilling is the answer (004 New Locations), for Apeiros Village its claim (``_answered``):
        # looked up only when the fulfiller joined after the suggestion was made
        if (done != by or not own) and since(done, s.get("fulfilled_at")) \
                and (since(done, s.get("at")) or since(done, _answered(ctx, s))):
            fulfilled_other.add(done)
    return lambda name: name in had_fulfilled and name in fulfilled_other


def _tamer_test(ctx: Ctx) -> Callable[[str], bool]:
    tamed: dict[str, bool] = {}
    for s in peek(ctx.doc(SHEETS)["sheets"]):
        if s["player"] not in tamed:
            tamed[s["player"]] = bool(dict.get(s, "tamed"))
    return lambda name: tamed.get(name, False)


FAST_TESTS = {_participation: _participation_test, _cartographer: _cartographer_test, _tamer: _tamer_test}


_HOLDERS = BaseMemo()


def _holders(ctx: Ctx, mid: Any) -> list[str]:
    """Who holds medal ``mid``, in sheet order (read without copying)."""
    return [s["player"] for s in peek(ctx.doc(SHEETS)["sheets"]) if mid in dict.get(s, "medals", [])]


_DICT, _LIST = frozenset((dict,)), frozenset((list,))
_BOXES: tuple[Any, ...] = ((), [], [], [], [])  # (medal ids, sheets, players, boxes, holders) of a plain reading


def _all_holders(ctx: Ctx, ids: list[Any]) -> list[tuple[str, ...]]:
    """``_holders`` of each of ``ids``, in one reading of the sheets.

    An action that edits a sheet seldom touches its Medal Box. The last reading of a state's own sheets
    (plain, never changed once made) is kept: the sheets now are mostly those very objects, and where one
    is another object (a sheet this action or the ones since edited), its player and its box (the very
    list) are compared; when they are the same, so are the holders.
    """
    global _BOXES
    sheets = list(peek(ctx.doc(SHEETS)["sheets"]))
    last_ids, last_sheets, last_players, last_boxes, last_holders = _BOXES
    if last_ids == ids and len(last_sheets) == len(sheets):
        for i in positions_changed(last_sheets, sheets):
            s = sheets[i]
            if dict.__getitem__(s, "player") != last_players[i] or dict.get(s, "medals", ()) is not last_boxes[i]:
                break
        else:
            if set(map(type, sheets)) <= _DICT:  # a state's own: kept as the reading to compare with
                _BOXES = (last_ids, sheets, last_players, last_boxes, last_holders)
            return last_holders
    players = list(map(dict.__getitem__, sheets, repeat("player")))  # read in C: a name is no container
    boxes = list(map(dict.get, sheets, repeat("medals"), repeat(())))
    out: list[list[str]] = [[] for _ in ids]
    for player, box in zip(players, boxes):
        if isinstance(box, list) and not box:
            continue  # an empty box holds nothing (half the boxes, often)
        for j, mid in enumerate(ids):
            if mid in box:
                out[j].append(player)
    holders = [tuple(x) for x in out]
    if set(map(type, sheets)) <= _DICT and set(map(type, boxes)) <= _LIST:  # a state's own: never changed
        _BOXES = (list(ids), sheets, players, boxes, holders)
    return holders


# seed 004 "Medals": the rule that has players earn medals; repealed, nobody earns any (the boxes keep theirs)
@ruled(RULE_MEDALS)
def award_medals(ctx: Ctx) -> None:
    """Medals: a player who meets a medal's condition earns it, while fewer than its quantity hold it.

    Everything is read without copying; a sheet is copied only when a medal goes into its box. Most
    of the time every medal is held by as many as its quantity: the holders are those after the
    previous action unless this one edited the sheets or the medals.
    """
    global _FULL
    medals = ctx.doc(MEDALS)["medals"]
    ids = [m["id"] for m in medals]
    # the holders of each medal as the sheets stand now (until a medal is awarded below)
    known = _HOLDERS.get(ctx, (MEDALS, SHEETS), lambda: _all_holders(ctx, ids))
    if _FULL[0] is known and _FULL[1] is medals:
        return  # the very holders and medals found every medal held by its quantity
    players, awarded, full = None, False, True
    for at, medal in enumerate(medals):
        kind = medal.get("test", "")
        if kind not in CONDITIONS:
            continue
        mid, quantity = medal["id"], medal["quantity"]
        # seed 004: each medal is a subrule of Medals ("Participation Medal", "Cartographer", "Nomster Tamer"),
        # named by the medal's ``rule``; a medal whose rule is repealed is earned by nobody. Not counted as full:
        # the rule enacted again has it earned at once
        if medal.get("rule") and repealed(ctx, medal["rule"]):
            full = False
            continue
        held_now = _holders(ctx, mid) if awarded else known[at]
        if len(held_now) >= quantity:
            continue
        full = False
        holders = list(held_now)
        cond = CONDITIONS[kind]
        make = FAST_TESTS.get(cond) or (lambda ctx, cond=cond: lambda who: cond(ctx, who))
        if players is None:
            # 004 Medals (our reading): the quantity is the most *players* who may have a medal; one who has left
            # is no player: they earn none (only the roster is asked), and count for none, since their sheet, the
            # Medal Box with it, leaves with them (the invariant that every sheet is a player's)
            players = [p["name"] for p in peek(ctx.doc("roster")["players"])]
        held, test = set(holders), None
        for name in players:
            if len(holders) >= quantity:
                break
            if name in held:
                continue
            test = test or make(ctx)
            if not test(name):
                continue
            sheets = ctx.edit(SHEETS)["sheets"]
            i = next((i for i, x in enumerate(peek(sheets)) if x["player"] == name), -1)
            if i < 0:
                continue
            sheets[i]["medals"].append(mid)
            # Self-Updating: the Medal Box is on the character sheet, so earning a medal is a new version of it
            touch_sheet_once(ctx, name)
            awarded = True
            holders.append(name)
            held.add(name)
            ctx.step({"medal": medal["name"], "to": name})
    if full and type(medals) is list:  # a state's own list (never changed), and holders never changed either
        _FULL = (known, medals)


_FULL: tuple[Any, Any] = (None, None)  # (holders, medals) of the last check that found every medal full


# ---------------------------------------------------------------- becoming reputable, as it comes
#
# Seed 004, Participation Medal: its condition is being a reputable player, and Reputability makes a player
# reputable once they have been one for seven days (one who joined within three days of the start is so from
# joining, and their join earns the medal). Our reading: a medal is earned when its condition is met, so the
# seven days' end is an event read from the gamestate (``Event.next_due``): the medal goes into the Medal Box
# at that moment, whether or not anyone acts then, and the sheet's new version is dated then.

_LATE = Remembered(16)  # a state's roster players -> (settings, when each late joiner becomes reputable, who)


def _late_joiners(state: Any) -> tuple[tuple[datetime, ...], tuple[str, ...]]:
    """The moments at which players who joined after the founding days become reputable, in order, with
    their names. Asked before every action, so remembered for the very roster list it was read from."""
    players = state.doc("roster")["players"]
    o, first = opts(state), start(state)
    key = (o["reputable_days"], o["reputable_founding_days"], first)
    known = _LATE.get(players)
    if known is Remembered.MISSING or known[0] != key:
        founding_end = first + timedelta(days=o["reputable_founding_days"])
        days = timedelta(days=o["reputable_days"])
        seen: set[str] = set()
        pairs = []
        for p in peek(players):
            if p["name"] in seen:
                continue  # the first of a name, as ctx.player finds it
            seen.add(p["name"])
            joined = parse_time(p["joined"])
            if joined > founding_end:
                pairs.append((joined + days, p["name"]))
        pairs.sort()
        known = _LATE.put(players, (key, tuple(t for t, _ in pairs), tuple(n for _, n in pairs)))
    return known[1], known[2]


def next_reputable(state: Any, after: datetime) -> datetime | None:
    """The first moment strictly after ``after`` at which a player becomes reputable by time passing, while
    some medal is awarded by the participation test; or None. Only the roster (and the few medals) is read.

    Seed 004, Reputability: the moment is seven days after ``joined``. The engine asks again after every
    firing within a gap, of the state it left, so a proposal taking effect then that moves a join time has
    the player become reputable at the new moment (remembered for the roster list: asked again only when
    the roster changed). Whether the medal has room, or the player has it already, is not asked here but
    when the moment comes: a firing that finds the medal full gives nothing."""
    times, _ = _late_joiners(state)
    i = bisect_right(times, after)
    if i == len(times) or not any(m.get("test") == "participation" for m in peek(state.doc(MEDALS)["medals"])):
        return None
    return times[i]


def _becomes_reputable(ctx: Ctx) -> None:
    """The moment a player (or several) becomes reputable: recorded, and the medals are awarded."""
    times, names = _late_joiners(ctx.state)  # the roster as the moment came
    who = [n for t, n in zip(times, names) if t == ctx.at]
    if who:  # none when the moment was asked of a state that changed since (the engine asks again)
        ctx.step({"reputable": who})
    if not repealed(ctx, RULE_MEDALS):  # seed 004 "Medals" repealed: nobody earns one (as ``ruled`` below)
        award_medals(ctx)


BECOMES_REPUTABLE = Event(
    name="cycle12.becomes-reputable",
    rule=RULE_PARTICIPATION,
    next_time=None,
    next_due=next_reputable,
    apply=_becomes_reputable,
    when="When a player has been one for seven days",
    summary="they earn the Participation Medal if it has room",
    enabled=lambda state: not state.doc(CYCLE).get("ended"),
)


def holders(state: Any, medal_id: str) -> list[str]:
    return [s["player"] for s in state.doc(SHEETS)["sheets"] if medal_id in s.get("medals", [])]


def end_time(state: Any) -> datetime:
    return phases.cycle_end(start(state), opts(state)["last_phase"])
