"""Victory (seed 001, dynastic rule "Victory"), checked by the engine after every action and event.

* If at any time no non-Traitor Colonist has 0 Deaths, the Traitors with the
  fewest Deaths among Traitors have achieved victory.
* At the victory date (judged at the first action or event at or after it; the seed's 5 May 2010 00:00:00,
  moved to this game's ``options.settlement.victory_date``, a midnight), if exactly one non-Traitor
  Colonist has 0 Deaths, they have achieved victory; otherwise the Expedition
  Leader may call an "Election for Mayor": every Colonist may support another
  Colonist with 0 Deaths (the last support counts), and 48 hours after the
  call the Colonist supported by the most others (alone) has achieved victory.

Outsiders never count here. What is achieved is recorded in the colony
document's ``victory``; the core rules' Declaration of Victory follows it.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Iterator

from ...engine import LEADER, PLAYER, Action, Ctx, State
from ...timeutil import format_time, parse_time
from . import census
from .common import colonists, guarded, guarded_ready, opts
from .tasks import _obj

RULE = "colony-victory"


def deathless(state: State | Ctx, people: list[dict[str, Any]] | None = None) -> list[str]:
    """The non-Traitor Colonists with 0 Deaths (of ``people``, the Colonists already found, if given)."""
    return [p["name"] for p in (colonists(state) if people is None else people) if _deathless(p)]


def _deathless(p: dict[str, Any]) -> bool:
    return p["stats"].get("job") != "Traitor" and int(p["stats"].get("deaths", 0)) == 0


def traitor_winners(state: State | Ctx, people: list[dict[str, Any]] | None = None) -> list[str]:
    people = colonists(state) if people is None else people
    traitors = [p for p in people if p["stats"].get("job") == "Traitor"]
    # asked after every action: one non-Traitor with 0 Deaths settles it, and is usually found at once
    if not traitors or any(map(_deathless, people)):
        return []
    least = min(int(p["stats"].get("deaths", 0)) for p in traitors)
    return sorted(p["name"] for p in traitors if int(p["stats"].get("deaths", 0)) == least)


def _record(ctx: Ctx, winners: list[str], how: str) -> None:
    colony = ctx.edit("colony")
    colony["victory"] = {"winners": winners, "at": format_time(ctx.at), "how": how}
    ctx.step({"victory": winners, "how": how})


def check_victory(ctx: Ctx, seen: census.Counts | None = None) -> None:
    """A consequence: the Traitors' victory, and the end of an Election for Mayor.

    ``seen``: the census's look at everyone, when nobody has changed since it was taken."""
    judge_date(ctx)
    colony = ctx.doc("colony")
    if colony.get("victory"):
        return
    if seen is None and census.FAST:
        seen = census.look(ctx)
    if seen is not None and not seen[census.UNSURE]:
        # the Colonists' facts, kept from the last look: no Colonist, or no Traitor to win, settles it
        if not seen[census.COLONIST]:
            return
        winners = traitor_winners(ctx) if seen[census.TRAITOR] and not seen[census.DEATHLESS] else []
    else:
        people = colonists(ctx)
        if not people:
            return
        winners = traitor_winners(ctx, people)
    if winners:
        _record(ctx, winners, "no non-Traitor Colonist has 0 Deaths")
        return
    election = colony.get("election")
    if election and "result" not in election and ctx.at >= _closes(election):
        top, best = election_count(ctx.tx.base, election)
        if len(top) == 1:
            _record(ctx, top, f"Election for Mayor: supported by {best}")
            return
        ctx.edit("colony")["election"]["result"] = NO_WINNER


NO_WINNER = "no single Colonist had the most support"


def _closes(election: dict[str, Any]) -> Any:
    return parse_time(election["opened"]) + timedelta(hours=48)


def election_count(at_close: State, election: dict[str, Any]) -> tuple[list[str], int]:
    """Those supported by the most other Colonists when the Election closes, and by how many.

    Seed 001, 2.12 Victory: at the close the Colonist supported by the most *other Colonists* wins. Who is a
    Colonist is read at the close (``at_close``: the state before the first action at or after it; nothing
    changes between actions): the support of one who has left the game or gone idle since giving it is not a
    Colonist's, and one who has left or gone idle is not a Colonist to achieve victory (as the core drops the
    votes of those who leave or go idle). The result is judged once, at the close."""
    present = {p["name"] for p in colonists(at_close)}
    counts: dict[str, int] = {}
    for supporter, name in election.get("support", {}).items():
        if supporter in present and name in present:
            counts[name] = counts.get(name, 0) + 1
    if not counts:
        return [], 0
    best = max(counts.values())
    return [n for n, c in counts.items() if c == best], best


def _date(state: State | Ctx) -> Any:
    """The victory date, or None when the game's option is not a time (the module's invariant reports it at
    ``options.settlement``; until it is mended the date is never reached, rather than a traceback)."""
    try:
        return parse_time(opts(state)["victory_date"])
    except (TypeError, ValueError):
        return None


def judge_date(ctx: Ctx) -> None:
    """The victory date, judged at the first action or event at or after it.

    Nothing changes Deaths or Jobs between actions, so the state just before that
    action (``ctx.tx.base``) is the state at the date itself.
    """
    colony = ctx.doc("colony")
    date = _date(ctx)
    if colony.get("date_judged") or colony.get("victory") or date is None or ctx.at < date:
        return
    when = opts(ctx)["victory_date"]
    ctx.edit("colony")["date_judged"] = when
    if not _in_force_at(ctx, date):
        # Seed 001, 2.12 Victory: the date's test is the rule's, and the rule was repealed at its date (a proposal
        # has since enacted it again): nothing was won then, and the colony as it stands now is not the colony on
        # the date. The date has passed without a winner, so the rule's "otherwise" (the Election) follows
        ctx.step({"victory date": "it passed while rule 2.12 Victory was repealed: nobody won on it; the Leader may "
                                  "call an Election for Mayor"})
        return
    alive = deathless(ctx.tx.base)
    if len(alive) == 1:
        colony = ctx.edit("colony")
        colony["victory"] = {"winners": alive, "at": when,
                             "how": "the only non-Traitor Colonist with 0 Deaths on the victory date"}
        ctx.step({"victory": alive, "how": "the victory date"})
    else:
        ctx.step({"victory date": f"{len(alive)} non-Traitor Colonists had 0 Deaths; the Leader may call an "
                                   "Election for Mayor"})


_STATUS_EVENTS = ("founded", "enacted", "repealed", "restored")  # a rule's history: what puts it in force or out


def _in_force_at(ctx: Ctx, moment: Any) -> bool:
    """Whether rule 2.12 Victory was in force at ``moment``, read from the rule's history (each repeal and each
    enactment again is recorded with its time, ``effects.apply_rule_edits``): the last such event at or before the
    moment says; with none, the first after it does (a rule first restored after the moment was repealed then, one
    first repealed after it was in force). A rule with no such history has been in force throughout (this is asked
    only while it is in force)."""
    rule = ctx.rules.get(RULE)
    history = (rule.meta.get("history") or ()) if rule is not None else ()
    events = [(parse_time(h["at"]), h["event"]) for h in history
              if isinstance(h, dict) and h.get("event") in _STATUS_EVENTS and h.get("at")]
    before = [event for at, event in events if at <= moment]
    if before:
        return before[-1] != "repealed"
    after = [event for at, event in events if at > moment]
    return not after or after[0] == "repealed"


def _election_check(ctx: Ctx) -> Iterator[str]:
    colony = ctx.doc("colony")
    date = _date(ctx)
    if date is None:
        yield f"the victory date ({opts(ctx)['victory_date']!r}) is not a time, so it is never reached"
    elif ctx.at < date:
        yield f"the victory date ({opts(ctx)['victory_date']}) has not been reached"
    elif not colony.get("date_judged") and len(deathless(ctx)) == 1:
        yield f"{deathless(ctx)[0]} alone had 0 Deaths on the victory date, and so has won"
    if colony.get("victory"):
        yield "victory has already been achieved"
    election = colony.get("election")
    if election:
        # Seed 001, 2.12 Victory: after the date the Leader may call an Election; the rule sets no limit to one, so
        # once an Election has closed without a winner (a tie, or no support) another may be called. One at a time:
        # not while the last is within its 48 hours
        if ctx.at < _closes(election):
            yield (f"the Election for Mayor called at {election['opened']} is open until "
                   f"{format_time(_closes(election))}")
        elif "result" not in election:
            top, _ = election_count(ctx.tx.base, election)
            if len(top) == 1:
                yield f"{top[0]} won the Election for Mayor called at {election['opened']}"


def _election(ctx: Ctx) -> None:
    last = ctx.doc("colony").get("election")
    if last:
        # the last Election closed without a winner (the check made sure): the new one takes its place
        ctx.step({"last election": last["opened"], "result": last.get("result", NO_WINNER)})
    ctx.edit("colony")["election"] = {"opened": format_time(ctx.at), "support": {}}
    ctx.step({"election": "opened", "closes": format_time(ctx.at + timedelta(hours=48))})


ELECTION = Action(
    name="settlement.election",
    rule=RULE,
    summary="After the victory date, when no single Colonist won it, call the Election for Mayor",
    who=LEADER,
    check=_election_check,
    effect=_election,
)


def _election_open(ctx: Ctx) -> Iterator[str]:
    """Seed 001, 2.12 Victory: support is given in an Election for Mayor, for the 48 hours after it is called."""
    election = ctx.doc("colony").get("election")
    if not election:
        yield "no Election for Mayor has been called"
    elif ctx.at >= parse_time(election["opened"]) + timedelta(hours=48):
        yield "the Election for Mayor closed 48 hours after it was called"


def _someone_to_support(ctx: Ctx) -> Iterator[str]:
    # seed 001, 2.12 Victory: another Colonist with 0 Deaths (``_support`` refuses oneself and anyone else)
    if not [p for p in colonists(ctx) if p["name"] != ctx.actor and int(p["stats"].get("deaths", 0)) == 0]:
        yield f"no Colonist but {ctx.actor} has 0 Deaths"


def _support(ctx: Ctx) -> None:
    for why in _election_open(ctx):
        raise ctx.refuse(why)
    name = ctx.params["colonist"]
    if name == ctx.actor:
        raise ctx.refuse("a Colonist supports another Colonist, not themselves")
    if name not in deathless(ctx) and name not in [p["name"] for p in colonists(ctx)
                                                    if int(p["stats"].get("deaths", 0)) == 0]:
        raise ctx.refuse(f"{name} is not a Colonist with 0 Deaths")
    support = ctx.edit("colony")["election"].setdefault("support", {})
    support.pop(ctx.actor, None)
    support[ctx.actor] = name
    ctx.step({"supports": name})


SUPPORT = Action(
    name="settlement.support",
    rule=RULE,
    summary="Support another Colonist with 0 Deaths in the Election for Mayor (your last support counts)",
    params=_obj({"colonist": {"$ref": "common.schema.json#/$defs/name",
                              "description": "the Colonist you support for Mayor"}}, ["colonist"]),
    who=PLAYER,
    check=guarded(located=False),  # 2.12: support asks for no Location
    ready=guarded_ready(_election_open, _someone_to_support, located=False),
    effect=_support,
)

ACTIONS = [ELECTION, SUPPORT]
