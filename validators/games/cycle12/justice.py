"""Judgement: the judge, requests for justice, rulings, overturning and elections ("Judgement",
"Requests for Justice", "Delivery Judgements", "Overturning", "Authority", "Election").

An RFJ and a ruling are sheets in the real game; here each is a record with
the statement (or question), the judgement and the reasoning, and optional
paths to the sheets. The seed lets "any person" file an RFJ, so anyone may, on the
roster or not (``ANYONE``); the votes of confidence are players' only.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

from ...engine import ANYONE, LEADER, Action, Ctx, Event, Remembered, peek, repealed
from ...schemas import not_blank
from ...timeutil import parse_time, week_start
from .common import CYCLE, JUSTICE, first_after, index_of, is_reputable, iso, member_since, opts, replaced

RULE_JUDGEMENT = "judgement"
RULE_RFJ = "requests-for-justice"
RULE_DELIVERY = "delivery-judgements"
RULE_OVERTURN = "overturning"
RULE_ELECTION = "election"

SHEETS = {"type": "array", "maxItems": 10, "items": {"type": "string", "maxLength": 300},
          "description": "the paths of the character sheets it concerns"}


def judge(state: Any) -> str | None:
    return state.doc(JUSTICE).get("judge")


def _rfj(ctx: Ctx, ident: int, edit: bool = False) -> dict[str, Any]:
    doc = ctx.edit(JUSTICE) if edit else ctx.doc(JUSTICE)
    i = index_of(doc["rfjs"], "id", ident)
    if i >= 0:
        return doc["rfjs"][i]
    raise ctx.refuse(f"there is no request for justice {ident}")


def standing(r: dict[str, Any]) -> dict[str, Any] | None:
    """The latest ruling if it has not been overturned."""
    if r["rulings"] and r["rulings"][-1]["status"] == "standing":
        return r["rulings"][-1]
    return None


def _file(ctx: Ctx) -> None:
    doc = ctx.edit(JUSTICE)
    ident = doc["next_rfj"]
    doc["next_rfj"] = ident + 1
    r = {"id": ident, "by": ctx.actor, "at": iso(ctx.at), "statement": ctx.params["statement"],
         "question": bool(ctx.params.get("question", False))}
    if ctx.params.get("sheets"):
        r["sheets"] = ctx.params["sheets"]
    r["rulings"] = []
    doc["rfjs"].append(r)
    ctx.step({"rfj": ident})


FILE_RFJ = Action(
    name="cycle12.rfj",
    rule=RULE_RFJ,
    summary="Initiate a Request for Justice on one statement (or, discouraged, a question)",
    params={"type": "object", "required": ["statement"], "additionalProperties": False,
            "properties": {"statement": not_blank({"type": "string", "maxLength": 2000,
                                                   "description": "the one statement to be judged"}),
                           "question": {"type": "boolean", "description": "true: it is a question instead"},
                           "sheets": SHEETS}},
    who=ANYONE,
    effect=_file,
    doc="`question=true` files a question instead of a statement (the rules discourage it). `sheets` lists the paths "
        "of the request's sheet images, if any: sheets=\"[rfj/basil-1.png]\".",
)


def _rule_ready(ctx: Ctx) -> Iterator[str]:
    """004 Delivery Judgements: the judge rules on a request without a standing ruling. With none, the check
    refuses every number (no such request, or one already ruled on)."""
    if all(standing(r) for r in peek(ctx.doc(JUSTICE)["rfjs"])):
        yield "no request for justice is waiting for a ruling"


def _rule_check(ctx: Ctx) -> Iterator[str]:
    r = _rfj(ctx, ctx.params["rfj"])
    if standing(r):
        yield f"RFJ {r['id']} already has a standing ruling"
    j = ctx.params["judgement"]
    if not r["question"] and j not in ("TRUE", "FALSE"):
        yield "the judgement of a statement is its truth value: TRUE or FALSE"


def _rule(ctx: Ctx) -> None:
    r = _rfj(ctx, ctx.params["rfj"], edit=True)
    ruling = {"by": ctx.actor, "at": iso(ctx.at), "judgement": ctx.params["judgement"],
              "reasoning": ctx.params.get("reasoning", ""), "status": "standing"}
    if ctx.params.get("sheets"):
        ruling["sheets"] = ctx.params["sheets"]
    r["rulings"].append(ruling)
    ctx.step({"rfj": r["id"], "judgement": ruling["judgement"]})


RULE = Action(
    name="cycle12.judge",
    rule=RULE_DELIVERY,
    summary="The judge responds to an RFJ with a judgement and reasoning",
    params={"type": "object", "required": ["rfj", "judgement"], "additionalProperties": False,
            "properties": {"rfj": {"type": "integer", "minimum": 1, "description": "the number of the RFJ"},
                           "judgement": not_blank({"type": "string", "maxLength": 2000,
                                                   "description": "the judgement, in words"}),
                           "reasoning": not_blank({"type": "string", "maxLength": 20000,
                                                   "description": "why, in words"}, empty_ok=True),
                           "sheets": SHEETS}},
    who=LEADER,
    check=_rule_check,
    ready=_rule_ready,
    effect=_rule,
    doc="For a statement the judgement is TRUE or FALSE; for a question, the answer. Only the judge. `sheets` lists "
        "the paths of the ruling's sheet images, if any.",
)


def _call_ready(ctx: Ctx) -> Iterator[str]:
    """004 Overturning: a vote of confidence is called on a standing ruling within four days of it, once. With no
    such ruling, the check refuses every number."""
    days = opts(ctx)["overturn_days"]
    if not any(ruling is not None and not ruling.get("confidence")
               and ctx.at - parse_time(ruling["at"]) <= timedelta(days=days)
               for ruling in map(standing, peek(ctx.doc(JUSTICE)["rfjs"]))):
        yield f"no standing ruling made in the last {days} days is without a vote of confidence"


def _call_check(ctx: Ctx) -> Iterator[str]:
    r = _rfj(ctx, ctx.params["rfj"])
    ruling = standing(r)
    o = opts(ctx)
    if ruling is None:
        yield f"RFJ {r['id']} has no standing ruling"
        return
    if ruling.get("confidence"):
        yield f"a vote of confidence on RFJ {r['id']}'s ruling was already initiated"
    elif ctx.at - parse_time(ruling["at"]) > timedelta(days=o["overturn_days"]):
        yield f"the ruling was made at {ruling['at']}, more than {o['overturn_days']} days ago"


def _call(ctx: Ctx) -> None:
    r = _rfj(ctx, ctx.params["rfj"], edit=True)
    r["rulings"][-1]["confidence"] = {"by": ctx.actor, "at": iso(ctx.at), "votes": {}, "status": "open"}
    ctx.step({"rfj": r["id"], "vote_of_confidence": "open",
              "closes": iso(ctx.at + timedelta(days=opts(ctx)["confidence_days"]))})


CALL = Action(
    name="cycle12.call-confidence",
    rule=RULE_OVERTURN,
    summary="Initiate a public vote of confidence on a ruling (within four days of it)",
    params={"type": "object", "required": ["rfj"], "additionalProperties": False,
            "properties": {"rfj": {"type": "integer", "minimum": 1, "description": "the number of the RFJ"}}},
    check=_call_check,
    ready=_call_ready,
    effect=_call,
)


def _confidence(r: dict[str, Any]) -> dict[str, Any] | None:
    """The vote of confidence on a request's latest ruling, if any."""
    return r["rulings"][-1].get("confidence") if r["rulings"] else None


def _vote_ready(ctx: Ctx) -> Iterator[str]:
    """004 Overturning: players vote for two days on a standing ruling's vote of confidence. With none open, the
    check refuses every number."""
    if not any(c and c["status"] == "open" and standing(r) is not None and ctx.at < confidence_end(ctx, c)
               for r in peek(ctx.doc(JUSTICE)["rfjs"]) for c in (_confidence(r),)):
        yield "no vote of confidence is open"


def _vote_check(ctx: Ctx) -> Iterator[str]:
    r = _rfj(ctx, ctx.params["rfj"])
    c = _confidence(r)
    if not c or c["status"] == "open" and standing(r) is None:
        yield f"RFJ {r['id']} has no open vote of confidence"
    elif c["status"] != "open" or ctx.at >= confidence_end(ctx, c):  # decided at its end (an event)
        yield f"the vote of confidence opened at {c['at']} has closed (votes run {opts(ctx)['confidence_days']} days)"


def _vote(ctx: Ctx) -> None:
    r = _rfj(ctx, ctx.params["rfj"], edit=True)
    votes = r["rulings"][-1]["confidence"]["votes"]
    votes.pop(ctx.actor, None)
    votes[ctx.actor] = ctx.params["vote"]


VOTE = Action(
    name="cycle12.confidence-vote",
    rule=RULE_OVERTURN,
    summary="Vote to overturn or to affirm a ruling under a vote of confidence",
    params={"type": "object", "required": ["rfj", "vote"], "additionalProperties": False,
            "properties": {"rfj": {"type": "integer", "minimum": 1, "description": "the number of the RFJ"},
                           "vote": {"enum": ["overturn", "affirm"],
                                    "description": "overturn the ruling or affirm it"}}},
    check=_vote_check,
    ready=_vote_ready,
    effect=_vote,
    doc="The seed's thumbs-up/thumbs-down are named here by what they mean: overturn or affirm.",
)


def confidence_end(state: Any, c: dict[str, Any]) -> datetime:
    """Overturning: a vote of confidence takes votes for two days after it is initiated."""
    return parse_time(c["at"]) + timedelta(days=opts(state)["confidence_days"])


def _tally(ctx: Ctx, c: dict[str, Any]) -> tuple[int, int]:
    """(to overturn, to affirm) among players still playing."""
    players = {p["name"] for p in peek(ctx.doc("roster")["players"])}
    over = sum(1 for n, v in c["votes"].items() if v == "overturn" and n in players)
    keep = sum(1 for n, v in c["votes"].items() if v == "affirm" and n in players)
    return over, keep


def _decide(ctx: Ctx, ident: int) -> None:
    """The end of a vote of confidence: the ruling is overturned if strictly more voted to overturn."""
    r = _rfj(ctx, ident, edit=True)
    ruling = r["rulings"][-1]
    c = ruling["confidence"]
    over, keep = _tally(ctx, c)
    if over > keep:
        c["status"] = "overturned"
        ruling["status"] = "overturned"
    else:
        c["status"] = "affirmed"
    ctx.step({"rfj": r["id"], "overturn": over, "affirm": keep, "result": c["status"]})


def _open_votes(state: Any) -> list[tuple[datetime, int]]:
    """(end, RFJ id) of every open vote of confidence on a standing ruling (a request's latest)."""
    out = []
    for r in peek(state.doc(JUSTICE)["rfjs"]):
        ruling = standing(r)  # a ruling its judge overturned meanwhile is void: nothing left to decide
        c = ruling.get("confidence") if ruling else None
        if c and c.get("status") == "open":
            out.append((confidence_end(state, c), r["id"]))
    return out


def decide_due(ctx: Ctx) -> None:
    """Decide every open vote of confidence whose two days are over by now, the earliest end first."""
    for end, ident in sorted(_open_votes(ctx)):
        if end <= ctx.at:
            _decide(ctx, ident)


# ---------------------------------------------------------------- the end of a vote of confidence, as it comes
#
# Seed 004, Overturning: players vote for two days after the vote is initiated, and at the end of that period the
# ruling is overturned if strictly more voted to overturn. So the end is an event read from the gamestate
# (``Event.next_due``): from that moment the ruling is overturned (the judge may rule again) or affirmed, whether
# or not anyone records the close.

_ENDS = Remembered(16)  # a state's rfjs list -> (confidence days, the ends of its open votes, sorted)


def next_confidence_end(state: Any, after: datetime) -> datetime | None:
    """The first end of an open vote of confidence strictly after ``after``, or None."""
    items = state.doc(JUSTICE)["rfjs"]
    days = opts(state)["confidence_days"]
    known = _ENDS.get(items)
    if known is Remembered.MISSING or known[0] != days:
        known = _ENDS.put(items, (days, tuple(sorted(end for end, _ in _open_votes(state)))))
    return first_after(known[1], after)


CONFIDENCE_ENDS = Event(
    name="cycle12.confidence-vote-ends",
    rule=RULE_OVERTURN,
    next_time=None,
    next_due=next_confidence_end,
    apply=decide_due,
    when="At the end of a vote of confidence's two days",
    summary="the ruling is overturned if strictly more voted so",
    enabled=lambda state: not state.doc(CYCLE).get("ended"),
)


def _close_ready(ctx: Ctx) -> Iterator[str]:
    """004 Overturning: a vote of confidence is decided at the end of its two days. With none decided or ended,
    the check refuses every number (no vote on the request's ruling, or one still running)."""
    if not any(c and (c["status"] != "open" or (standing(r) is not None and ctx.at >= confidence_end(ctx, c)))
               for r in peek(ctx.doc(JUSTICE)["rfjs"]) for c in (_confidence(r),)):
        yield "no vote of confidence has ended"


def _close_check(ctx: Ctx) -> Iterator[str]:
    r = _rfj(ctx, ctx.params["rfj"])
    c = _confidence(r)
    if not c or c["status"] == "open" and standing(r) is None:
        yield f"RFJ {r['id']} has no vote of confidence on its ruling"
    elif c["status"] == "open" and ctx.at < confidence_end(ctx, c):
        yield f"the vote of confidence runs until {iso(confidence_end(ctx, c))}"


def _close(ctx: Ctx) -> None:
    """Once its two days are over the vote was decided at that moment by an event: recording the close changes
    nothing and says how it went. Kept so that logs that record closes (from before the event did it) stay
    legal."""
    r = _rfj(ctx, ctx.params["rfj"])
    c = r["rulings"][-1]["confidence"]
    if c["status"] == "open":  # not reached while the events run; kept so the action never does less
        _decide(ctx, r["id"])
        return
    over, keep = _tally(ctx, c)
    ctx.step({"rfj": r["id"], "already": c["status"], "at": iso(confidence_end(ctx, c)), "overturn": over,
              "affirm": keep, "note": "decided when its two days ended; nothing left to record"})


CLOSE = Action(
    name="cycle12.close-confidence",
    rule=RULE_OVERTURN,
    summary="Ask how a vote of confidence whose two days are over went (it was decided at that very moment)",
    params={"type": "object", "required": ["rfj"], "additionalProperties": False,
            "properties": {"rfj": {"type": "integer", "minimum": 1, "description": "the number of the RFJ"}}},
    who=ANYONE,
    check=_close_check,
    ready=_close_ready,
    effect=_close,
)


def _self_ready(ctx: Ctx) -> Iterator[str]:
    """004 Overturning: a judge may overturn a standing ruling of their own. With none, the check refuses every
    number."""
    if not any((standing(r) or {}).get("by") == ctx.actor and member_since(ctx, ctx.actor, standing(r)["at"])
               for r in peek(ctx.doc(JUSTICE)["rfjs"])):
        yield f"no standing ruling is {ctx.actor}'s"


def _self_check(ctx: Ctx) -> Iterator[str]:
    r = _rfj(ctx, ctx.params["rfj"])
    ruling = standing(r)
    if ruling is None:
        yield f"RFJ {r['id']} has no standing ruling"
    elif ruling["by"] != ctx.actor:
        yield f"only the judge who made it ({ruling['by']}) may overturn this ruling by a card"
    elif not member_since(ctx, ctx.actor, ruling["at"]):
        # 004 Overturning: the judge who made it; a player of that name who joined after the ruling is someone
        # else (our reading: a newcomer of a departed player's name is someone else)
        yield f"the ruling was made by the {ruling['by']} who left the game, before {ctx.actor} joined; only the " \
              "judge who made it may overturn it by a card"


def _self(ctx: Ctx) -> None:
    r = _rfj(ctx, ctx.params["rfj"], edit=True)
    r["rulings"][-1]["status"] = "overturned"
    ctx.step({"rfj": r["id"], "overturned_by_judge": ctx.actor, "next": "the judge shall issue a new ruling"})


SELF_OVERTURN = Action(
    name="cycle12.self-overturn",
    rule=RULE_OVERTURN,
    summary="The judge who made a ruling overturns it (and shall issue a new one)",
    params={"type": "object", "required": ["rfj"], "additionalProperties": False,
            "properties": {"rfj": {"type": "integer", "minimum": 1, "description": "the number of the RFJ"}}},
    check=_self_check,
    ready=_self_ready,
    effect=_self,
)


def against(entry: Any, judge_now: str | None) -> str | None:
    """The judge an assent to removal was given against. A bare name (a file from before assents named their
    judge) is read as it was then: against the incumbent."""
    return entry.get("against") if isinstance(entry, dict) else judge_now


def assents(doc: Any, state: Any) -> list[str]:
    """Who has assented to removing the incumbent judge: only assents given against that very judge count
    (004 Judgement: the assents are to removing the incumbent; one given against another judge, who has
    since been replaced by an election, a proposal's patch or a departure, is not one of them), and only
    those of players (004 Judgement asks for the assent of two *players*: one who has left the game is no
    player, so their assent no longer counts; ``state`` is the state or context whose roster says who plays)."""
    j = doc.get("judge")
    if j is None:
        return []
    return [p for p in (e["player"] if isinstance(e, dict) else e for e in peek(doc.get("removal", ()))
                        if against(e, j) == j) if state.player(p) is not None]


def judge_left(ctx: Ctx) -> str | None:
    """The judge who has left the game in this action (is no longer on the roster), now no judge; or None.

    004 Judgement has one judge, and 004 Election is the only way the rules make someone judge: once the
    incumbent leaves the game (a proposal's patch taking them off the roster, the module's only departure)
    nobody holds the office until the week's election fills it (our reading, docs/modules/cycle12.md).
    Only a departure empties the office: a judge named by this very action who is not a player is left for
    the invariant to refuse. A judge whose entry the changes replaced by a newcomer's of the name (``replaced``) has
    left as well: the newcomer was elected to nothing (004 Joining makes a new player). Cheap: nothing is looked at
    unless the action edited the roster."""
    if "roster" not in ctx.tx.docs:
        return None
    j = ctx.doc(JUSTICE).get("judge")
    if j is None or (ctx.player(j) is not None and j not in replaced(ctx)):
        return None
    before = ctx.tx.base
    if before.doc(JUSTICE).get("judge") != j or before.player(j) is None:
        return None
    ctx.edit(JUSTICE)["judge"] = None
    return j


def remove_if_assented(ctx: Ctx) -> str | None:
    """After a proposal's changes: 004 Judgement removes the incumbent judge with the assent of the number of
    players it names (``removal_assents``). When the assents standing against the incumbent reach it because of
    the changes (a patch recording assents, or an amendment lowering the number), the judge is removed then, as
    by the assent that reaches it (``_assent``); it once stayed in office with enough assents until one more came.
    Returns the judge removed, or None. Nothing is looked at unless the changes edited the judgement document or
    the game's options (the number), or when Judgement is repealed (no removal)."""
    if JUSTICE not in ctx.tx.docs and ctx.tx.config is None:
        return None
    doc = ctx.doc(JUSTICE)
    j = doc.get("judge")
    if j is None or not doc.get("removal") or repealed(ctx, RULE_JUDGEMENT):
        return None
    given = assents(doc, ctx)
    if len(given) < opts(ctx)["removal_assents"]:
        return None
    edit = ctx.edit(JUSTICE)
    edit["judge"] = None
    edit["removal"] = []
    ctx.step({"removed": j, "assents": given})
    return j


def lapse_assents(ctx: Ctx) -> None:
    """A consequence: a judge who left the game this action leaves the office empty (``judge_left``); once
    the incumbent changes in any way (a proposal's patch, an election, a removal, a departure), the assents
    against the judge before lapse (004 Judgement), so that they cannot come back if that person is judge
    again later; the assent of a player who has left lapses too (it no longer counts, ``assents``, and does
    not come back if they join again); bare names of older files are written with the judge they are read
    against."""
    gone = judge_left(ctx)
    if gone is not None:
        ctx.step({"judge_left": gone, "judge": None})
    doc = ctx.doc(JUSTICE)
    removal = doc.get("removal")
    if not removal:
        return  # nearly always: one look per action
    j = doc.get("judge")
    if j is not None and all(isinstance(e, dict) and e.get("against") == j and ctx.player(e.get("player"))
                             is not None for e in peek(removal)):
        return
    ctx.edit(JUSTICE)["removal"] = [{"player": p, "against": j} for p in assents(doc, ctx)]


def _assent_check(ctx: Ctx) -> Iterator[str]:
    doc = ctx.doc(JUSTICE)
    if not doc.get("judge"):
        yield "there is no incumbent judge"
    elif ctx.actor in assents(doc, ctx):
        yield f"{ctx.actor} has already assented to removing the judge {doc['judge']}"


def _assent(ctx: Ctx) -> None:
    # 004 Judgement: two players' assent removes the incumbent judge; each assent records the judge it is
    # against, and only those against the incumbent count (the others lapse)
    doc = ctx.edit(JUSTICE)
    j = doc["judge"]
    given = assents(doc, ctx) + [ctx.actor]
    need = opts(ctx)["removal_assents"]
    if len(given) >= need:
        ctx.step({"removed": j, "assents": given})
        doc["judge"] = None
        doc["removal"] = []
    else:
        doc["removal"] = [{"player": p, "against": j} for p in given]
        ctx.step({"assents": len(given), "needed": need, "against": j})


ASSENT = Action(
    name="cycle12.assent-removal",
    rule=RULE_JUDGEMENT,
    summary="Assent to removing the incumbent judge (two assents remove them)",
    check=_assent_check,
    effect=_assent,
    doc="The seed asks that a judge be removed only for abuse of office; the engine cannot judge that.",
)


def _stand_check(ctx: Ctx) -> Iterator[str]:
    if not is_reputable(ctx, ctx.actor, ctx.at):
        yield f"{ctx.actor} is not reputable; only reputable players may stand for judge"
    if any(c["player"] == ctx.actor for c in ctx.doc(JUSTICE)["candidates"]):
        yield f"{ctx.actor} is already a candidate this week"


def _stand(ctx: Ctx) -> None:
    ctx.edit(JUSTICE)["candidates"].append({"player": ctx.actor, "at": iso(ctx.at), "endorsements": []})


STAND = Action(
    name="cycle12.stand",
    rule=RULE_ELECTION,
    summary="Become a candidate for judge this week",
    check=_stand_check,
    effect=_stand,
)


def _endorse_ready(ctx: Ctx) -> Iterator[str]:
    """004 Election: a player reacts once to each candidacy of the week. With no candidate, or none the actor has
    not reacted to, the check refuses every name."""
    cands = ctx.doc(JUSTICE)["candidates"]
    if not cands:
        yield "there is no candidate this week"
    elif all(ctx.actor in c["endorsements"] for c in peek(cands)):
        yield f"{ctx.actor} already reacted to every candidacy this week"


def _endorse_check(ctx: Ctx) -> Iterator[str]:
    c = next((c for c in ctx.doc(JUSTICE)["candidates"] if c["player"] == ctx.params["candidate"]), None)
    if c is None:
        yield f"{ctx.params['candidate']} is not a candidate this week"
    elif ctx.actor in c["endorsements"]:
        yield f"{ctx.actor} already reacted to {c['player']}'s candidacy"


def _endorse(ctx: Ctx) -> None:
    for c in ctx.edit(JUSTICE)["candidates"]:
        if c["player"] == ctx.params["candidate"]:
            c["endorsements"].append(ctx.actor)


ENDORSE = Action(
    name="cycle12.endorse",
    rule=RULE_ELECTION,
    summary="React :+1: to a candidacy for judge",
    params={"type": "object", "required": ["candidate"], "additionalProperties": False,
            "properties": {"candidate": {"$ref": "common.schema.json#/$defs/name",
                                         "description": "the player you endorse"}}},
    who=ANYONE,
    check=_endorse_check,
    ready=_endorse_ready,
    effect=_endorse,
)


def endorsement_count(candidacy: dict[str, Any]) -> int:
    """The :+1: reactions on a candidacy's message (004 Election counts the reactions on it, whoever's, as
    Terraforming and Surveying count theirs; our reading, docs/modules/cycle12.md): those recorded by name and those
    of players who have since left the game (``departed_endorsements``), which stay on the message."""
    return len(candidacy.get("endorsements") or ()) + len(candidacy.get("departed_endorsements") or ())


def elect(ctx: Ctx) -> None:
    """At the end of the week the candidate with the most :+1: becomes judge; ties go to the earliest."""
    doc = ctx.doc(JUSTICE)
    week = week_start(ctx.at - timedelta(seconds=1))
    cands = [c for c in doc["candidates"] if parse_time(c["at"]) >= week and ctx.player(c["player"])]
    if not doc["candidates"]:
        return
    doc = ctx.edit(JUSTICE)
    if cands:
        # 004 Election: the message with the most :+1: reactions, whoever's (anyone may react, as on Terraforming's
        # and Surveying's announcements; unlike Lifecycle's votes, which are a player's)
        count = endorsement_count
        best = min(cands, key=lambda c: (-count(c), c["at"]))
        # 004 Judgement: the assents are to removing the *incumbent* judge and do not expire. A newly elected
        # judge starts with none; the incumbent re-elected stays the incumbent, so the assents against them stand.
        if best["player"] != doc.get("judge"):
            doc["removal"] = []
        doc["judge"] = best["player"]
        ctx.step({"elected": best["player"], "reactions": count(best)})
    doc["candidates"] = []


ACTIONS = [FILE_RFJ, RULE, CALL, VOTE, CLOSE, SELF_OVERTURN, ASSENT, STAND, ENDORSE]
