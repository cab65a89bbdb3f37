"""Proposals, votes, enactment and failure (seed 001 rules 1.3-1.5; seed 003 rules 3-5, 10).

Cases: tests/cases/blognomic/proposals.yaml.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Iterator

from ...effects import apply_effects
from ...engine import ADMIN, Action, Ctx, in_force, peek, repealed, ruled
from ...problems import Illegal, Problem
from ...roster import active_players, change_stat
from ...schemas import not_blank, vote_words
from ...timeutil import day_start, format_time, parse_time
from .common import (
    DYNASTIES,
    EFFECT_ACTIONS,
    STUFFS,
    Tally,
    age_hours,
    by_effects,
    clock_start,
    edit_item,
    find,
    follow_patched_statuses,
    holding_bars,
    leader,
    none_pending,
    open_for,
    open_hours,
    opts,
    refusal_of,
    subject_problem,
    tally,
)
from .players import (
    bar_problems,
    barred_returns,
    follow_roster_patch,
    new_leader_problem,
    open_bar_list,
    roster_marks,
    taken_names,
)

RULE_PROPOSALS = "proposals"
RULE_VOTING = "voting"
RULE_ENACTMENT = "enactment"
AGAINST_OWN = ("AGAINST", "ADMONISH")  # a proposer's vote against their own proposal (seed 003's double AGAINST too)

EFFECTS = {"$ref": "common.schema.json#/$defs/effects",
           "description": "what it changes when it passes: a JSON Patch on the gamestate, and rule edits"}
# What an official post says, as its parameters: checked the same way when it is made (core.propose, core.cfj,
# core.dov) and when its author alters it (core.alter, core.cfj-alter, core.dov-alter; seed 001 1.7, seed 003 rule 7).
# A title must say something, and a text given must too ("" leaves it out, as it always has)
TITLE = not_blank({"type": "string", "maxLength": 200, "description": "the post's title, up to 200 characters"})
TEXT = not_blank({"type": "string", "maxLength": 20000,
                  "description": "the post's text, in words: what it proposes, asks or claims"}, empty_ok=True)
POST_FIELDS = {"title": TITLE, "text": TEXT, "effects": EFFECTS}


# ---------------------------------------------------------------- submitting


def _propose_check(ctx: Ctx) -> Iterator[str]:
    yield from subject_problem(ctx, ctx.params["title"])
    o = opts(ctx)
    mine = [p for p in ctx.doc("proposals")["proposals"] if p["author"] == ctx.actor]
    pending = [p for p in mine if p["status"] == "pending"]
    if len(pending) >= o["proposals_pending_max"]:
        yield (f"{ctx.actor} already has {len(pending)} proposals pending "
               f"(#{', #'.join(str(p['id']) for p in pending)}); the limit is {o['proposals_pending_max']}")
    today = day_start(ctx.at)
    made_today = [p for p in mine if parse_time(p["submitted"]) >= today]
    if len(made_today) >= o["proposals_per_day"]:
        yield f"{ctx.actor} has already made {len(made_today)} proposals today; the limit is {o['proposals_per_day']}"


def _propose(ctx: Ctx) -> None:
    doc = ctx.edit("proposals")
    ident = doc["next"]
    doc["next"] = ident + 1
    item: dict[str, Any] = {"id": ident, "title": ctx.params["title"], "author": ctx.actor,
                            "submitted": format_time(ctx.at), "status": "pending"}
    if ctx.params.get("text"):
        item["text"] = ctx.params["text"]
    if ctx.params.get("effects"):
        item["effects"] = ctx.params["effects"]
    item["votes"] = {}
    doc["proposals"].append(item)
    ctx.step({"proposal": ident})


PROPOSE = Action(
    name="core.propose",
    rule=RULE_PROPOSALS,
    summary="Submit a proposal to change the ruleset or the gamestate",
    params={"type": "object", "required": ["title"], "additionalProperties": False, "properties": POST_FIELDS},
    check=_propose_check,
    effect=_propose,
    doc="A player may submit a proposal unless they already have two pending or have made three today. "
        "Its `effects` (a JSON Patch on the gamestate and rule edits) are applied when it is enacted.",
)


# ---------------------------------------------------------------- voting


def failable_reason(ctx_or_state: Any, p: dict[str, Any], now: datetime, t: Tally | None = None) -> str | None:
    """Why an admin may fail proposal ``p`` now, or None (ignoring "oldest pending first")."""
    t = t or tally(ctx_or_state, p)
    if t.vetoed:
        return "vetoed"
    if p.get("self_killed"):
        return "self-killed"
    if p.get("votes", {}).get(p["author"]) in ("AGAINST", "ADMONISH") and p["author"] in {
            x["name"] for x in active_players(ctx_or_state)}:
        return "its proposer voted AGAINST it"
    blocked = effects_problem(ctx_or_state, p, now)
    if blocked:
        return f"its effects cannot be applied ({blocked})"
    return vote_grounds(ctx_or_state, p, now, t)


def vote_grounds(ctx_or_state: Any, p: dict[str, Any], now: datetime, t: Tally | None = None) -> str | None:
    """The ruleset's own grounds for failing ``p`` that its votes and age give, or None.

    Seed 001 1.5 lists them (besides the proposer's AGAINST and the veto): enough AGAINST, and after 48 hours half
    or fewer FOR or under 2 valid votes; seed 003 rule 5 has enough AGAINST, everyone voted and still not
    enactable, and most AGAINST after 48 hours. Effects that can no longer be applied are not among them.
    """
    o = opts(ctx_or_state)
    t = t or tally(ctx_or_state, p)
    age = open_hours(ctx_or_state, p, now)
    # seed 001 1.5 / seed 003 rule 5: so many AGAINST votes that it could not be enacted unless one of them changed.
    # The AGAINST votes are those that count as AGAINST (1.4 / rule 4): a DEFERENTIAL that follows the leader's
    # AGAINST is one, and the only ways to change it (its voter's or the leader's vote) each change one of those
    # votes. Held fixed, they leave the other players short of Quorum, and then of a majority after 48 hours too.
    if t.players - t.against < t.quorum:
        return (f"{t.against} AGAINST of {t.players} players: it cannot reach Quorum ({t.quorum}) "
                "unless a vote changes")
    if o["fail_all_voted"] and len(t.counted) + t.abstain >= t.players and not _ever_enactable(ctx_or_state, p, now, t):
        return "every player has voted and it cannot be enacted"
    if age >= 48:
        if o["fail_48h"] == "half-or-fewer-for" and t.for_ * 2 <= t.valid:
            return f"open 48 hours with {t.for_} of {t.valid} votes FOR: half or fewer"
        if o["fail_48h"] == "most-against" and age > 48 and t.against * 2 > t.valid:
            return f"more than 48 hours old with {t.against} of {t.valid} votes AGAINST: most of them"
        if o["fail_48h_few_votes"] and t.valid < 2:
            return f"open 48 hours with {t.valid} valid vote{'' if t.valid == 1 else 's'}: fewer than 2"
    return None


def _ever_enactable(ctx_or_state: Any, p: dict[str, Any], now: datetime, t: Tally) -> bool:
    """Whether, with the votes as they stand, the proposal could be enacted now or at a later time.

    Seed 003 rule 5: "all Muffins have voted on it and it still cannot be Enacted" is read as: no waiting
    would let it pass, so a unanimous proposal is not failed just because 12 hours have not yet passed.
    """
    sub = clock_start(ctx_or_state, p)
    times = [now] + [t0 for t0 in (sub + timedelta(hours=12), sub + timedelta(hours=48, seconds=1)) if t0 > now]
    return any(enactable_reason(ctx_or_state, p, when, t) for when in times)


def _strings(value: Any) -> Iterator[str]:
    """Every string in a patch's value, the keys of its objects included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def renamed_in_effects(ctx_or_state: Any, effects: dict[str, Any] | None) -> str | None:
    """A name the effects' patch uses (in a path, or as a value) that a player has given up since, or None.

    Seed 003 rule 2 (a Muffin renames at any time) and seed 001 1.2 (a rename by proposal): the pending effects are
    kept as they were voted on, so effects that name a player by the name they gave up would write to, or for, a
    name nobody has. They cannot be applied as voted (our reading): the enactment is refused, and an admin may fail
    the proposal (a CfJ fails), as for effects naming a player who left.
    """
    ops = (effects or {}).get("gamestate") or []
    if not ops:
        return None
    players = ctx_or_state.doc("roster")["players"]
    current = {x["name"] for x in players}
    given_up = {f["name"]: x["name"] for x in players for f in x.get("formerly", []) if f["name"] not in current}
    if not given_up:
        return None
    for op in ops:
        for key in ("path", "from"):
            for seg in str(op.get(key, "")).split("/"):
                old = seg.rpartition("=")[2].replace("~1", "/").replace("~0", "~")
                if old in given_up:
                    return f"{op.get(key)} names {old}, who has since changed their name to {given_up[old]}"
        if str(op.get("path", "")).endswith("/name"):
            continue  # a name being given (taking one's old name back is allowed): the rename's own checks apply
        for text in _strings(op.get("value")):
            if text in given_up:
                return (f"the value of {op.get('path')} names {text}, who has since changed their name to "
                        f"{given_up[text]}")
    return None


def effects_problem(ctx_or_state: Any, p: dict[str, Any], now: datetime) -> str | None:
    """Why the proposal's effects could not be applied to the state as it is now, or None."""
    effects = p.get("effects")
    if not effects:
        return None
    stale = renamed_in_effects(ctx_or_state, effects)
    if stale:
        return stale
    from ...effects import apply_rule_edits, patch_gamestate, schema_problem
    from ...registry_ctx import ctx_at

    state = ctx_or_state.state if isinstance(ctx_or_state, Ctx) else ctx_or_state
    scratch = ctx_at(state, now)
    open_bar_list(scratch, effects)  # as on enactment: a bar may be appended to a roster that has none yet
    marks = roster_marks(scratch)
    players, bars, _, boss, used, back = marks
    try:
        apply_rule_edits(scratch, effects.get("rules", []), f"proposal {p['id']}")
        patch_gamestate(scratch, effects.get("gamestate", []))  # a stat past a bound set to it, as on enactment
    except ValueError as e:
        return str(e)
    why = schema_problem(scratch, scratch.tx.docs)
    if why is None and "roster" in scratch.tx.docs:
        why = next(taken_names(players, used, back, scratch.doc("roster")), None)  # seed 001 1.2, as on enactment
    if why is None and "roster" in scratch.tx.docs:
        # seed 001 1.10, as on enactment: a bar keeps its person out while Fair Play is in force (the effects
        # themselves may have repealed it)
        why = next(barred_returns(players, holding_bars(scratch, bars), scratch.doc("roster")), None)
    if why is None and "roster" in scratch.tx.docs:
        why = next(bar_problems(bars, scratch.doc("roster")), None)  # seed 001 1.10, as on enactment
    if why is None:
        why = new_leader_problem(scratch, boss)  # seed 001 1.8 / seed 003 rule 8, as on enactment
    if why is None:
        why = _rest_of_enactment(scratch, state, marks, f"proposal {p['id']}")
    return why


def _rest_of_enactment(scratch: Ctx, state: Any, marks: Any, by: str) -> str | None:
    """What else would stop these effects, already applied to ``scratch``, from taking effect: what follows a
    patch of the roster (``follow_roster_patch``: a module that keeps a renamed player's old name and cannot rename
    it), each module's consequences (Settlement's 2.6 Jobs refuses a Job its handbook does not list), and the
    checks of the whole state that ``nomic act`` makes after every action (the roster's declared stats, each
    module's invariants), counting only the problems the state did not have already (``state``: before them).

    Seed 001 1.5 / seed 003 rule 5: the oldest pending proposal goes first, so effects that any of these refuse
    would hold every later proposal for ever when the votes give none of the rule's grounds for failing it (a
    Quorum FOR, say); like effects naming a player who left, they let an admin fail it, and a CfJ fails."""
    from ...judge import state_problems

    try:
        follow_roster_patch(scratch, marks, by)
        for module in scratch.registry.modules:
            for consequence in in_force(scratch, module.consequences):
                consequence(scratch)
    except Illegal as e:
        return e.problems[0].message.split("effects cannot be applied: ", 1)[-1]
    after = state_problems(scratch.tx.commit(), scratch.registry)
    if after:
        already = {(q.file, q.field, q.message) for q in state_problems(state, scratch.registry)}
        new = [q for q in after if (q.file, q.field, q.message) not in already]
        if new:
            q = new[0]
            return f"they would leave {q.file or 'the roster'} invalid: {q.field + ': ' if q.field else ''}{q.message}"
    return None


def enactable_reason(ctx_or_state: Any, p: dict[str, Any], now: datetime, t: Tally | None = None) -> str | None:
    """Why an admin may enact proposal ``p`` now, or None (ignoring "oldest pending first")."""
    o = opts(ctx_or_state)
    t = t or tally(ctx_or_state, p)
    if t.vetoed or (p.get("self_killed") and o["self_kill_blocks_enactment"]):
        return None
    age = open_hours(ctx_or_state, p, now)
    if t.for_ >= t.quorum and age >= 12:
        return f"{t.for_} FOR reach Quorum ({t.quorum}) after {int(age)} hours"
    old_enough = age >= 48 if o["variant"] == "ruleset-75" else age > 48
    if old_enough and t.valid >= max(o["enact_48h_min_votes"], 1) and t.for_ * 2 > t.valid:
        return f"open {int(age)} hours with {t.for_} of {t.valid} votes FOR: more than half"
    return None


def enact_now_reason(ctx_or_state: Any, p: dict[str, Any], now: datetime, t: Tally | None = None) -> str | None:
    """Why an admin may enact ``p`` at ``now`` as the admin's desk and the wiki say it: ``enactable_reason``, unless
    its effects cannot be applied then (``effects_problem``), when ``core.enact`` is refused and the admin fails it
    instead (``failable_reason`` gives that ground)."""
    why = enactable_reason(ctx_or_state, p, now, t)
    if why is None or effects_problem(ctx_or_state, p, now) is not None:
        return None
    return why


def _vote_check(ctx: Ctx) -> Iterator[str | Problem]:
    o = opts(ctx)
    p = find(ctx.doc("proposals")["proposals"], ctx.params["proposal"], "proposal", ctx)
    vote = ctx.params["vote"]
    if p["status"] != "pending":
        yield f"proposal {p['id']} is {p['status']}, not pending"
        return
    boss = leader(ctx)
    if vote == "VETO":
        gone = repealed(ctx, DYNASTIES) if o["veto"] else None
        if not o["veto"]:
            yield "this game's rules give nobody a veto"
        elif gone is not None:
            # seed 001 "Dynasties" (1.8) is what lets the leader VETO a proposal; repealed, nobody may
            yield f"the rule that gives the {ctx.keyword('leader', 'leader')} a VETO, {gone.cite()}, has been repealed"
        elif ctx.actor != boss:
            # seed 001 1.8 "Dynasties": the Expedition Leader may vote to VETO any proposal; 1.4's voting icons are
            # FOR, AGAINST and DEFERENTIAL, so the refusal cites 1.8, not the action's own 1.4
            yield refusal_of(ctx, DYNASTIES, f"only the {ctx.keyword('leader', 'leader')} may VETO")
    if vote == "DEFERENTIAL" and ctx.actor == boss and o["leader_deferential"] == "forbidden":
        yield f"the {ctx.keyword('leader', 'leader')} cannot vote DEFERENTIAL"
    if vote in ("COMPENSATE", "ADMONISH") and not o["double_votes"]:
        yield "this game has no compensate or admonish votes"
    mine = p["votes"].get(ctx.actor)
    if p["author"] == ctx.actor and mine in ("AGAINST", "ADMONISH") and mine != vote:
        yield f"{ctx.actor} voted against their own proposal; a self-kill vote may not be changed"


def _vote(ctx: Ctx) -> None:
    doc = ctx.edit("proposals")
    p = edit_item(ctx, "proposals", "proposals", ctx.params["proposal"], "proposal")
    vote = ctx.params["vote"]
    if p["author"] == ctx.actor and vote in ("AGAINST", "ADMONISH") and not p.get("self_killed"):
        # seed 001 1.5: self-killed unless vetoed, or it already met one of the rule's other grounds for failing
        # before this vote. Only the rule's grounds count: "its effects cannot be applied" is this project's own
        # ground for an admin to fail it, and does not stop a self-kill.
        # An AGAINST cast again is not a new self-kill vote: it was placed when first cast.
        t = tally(ctx, p)
        again = p["votes"].get(ctx.actor) in ("AGAINST", "ADMONISH")
        if not again and not t.vetoed and vote_grounds(ctx, p, ctx.at, t) is None:
            p["self_killed"] = True
    votes = p["votes"]
    votes.pop(ctx.actor, None)
    votes[ctx.actor] = vote
    doc.setdefault("last_vote", {})[ctx.actor] = format_time(ctx.at)


VOTE = Action(
    name="core.vote",
    rule=RULE_VOTING,
    # seed 001 1.8 gives the leader a VETO vote; seed 003 none (rules 4 and 8): the words hold in both variants
    summary="Vote FOR, AGAINST or DEFERENTIAL on a pending proposal (and VETO, the leader, where the rules give it a "
            "veto vote)",
    params={"type": "object", "required": ["proposal", "vote"], "additionalProperties": False,
            "properties": {"proposal": {"type": "integer", "minimum": 1,
                                        "description": "the number of the pending proposal"},
                           "vote": vote_words(["FOR", "AGAINST", "DEFERENTIAL", "VETO", "COMPENSATE", "ADMONISH"],
                                              yes="FOR", no="AGAINST",
                                              description="your vote; a later one replaces it")}},
    check=_vote_check,
    ready=none_pending("proposals", "proposals", "proposal"),
    effect=_vote,
    in_hiatus=True,
    doc="A later vote replaces an earlier one, except that an author's vote against their own proposal "
        "(a self-kill) cannot be changed. COMPENSATE and ADMONISH are the double FOR and double AGAINST of "
        "the Quazie variant.",
)


def vote_advice(record: dict[str, Any], before: Any, after: Any) -> list[str]:
    """``nomic act``'s notes on a legal vote (``Module.advice``). Seed 001 1.4 Voting: an author's vote against their
    own proposal may not be changed (``_vote_check`` refuses a change), so the author is told so when casting it;
    1.5 Enactment: cast before the proposal met another ground to fail, it self-kills the proposal. A vote cast again
    as it stands changes nothing but the time of the player's last vote."""
    if record.get("action") != VOTE.name:
        return []
    from ...judge import cited

    ident, actor = (record.get("params") or {}).get("proposal"), record["actor"]
    was = next((p for p in before.doc("proposals").get("proposals", []) if p["id"] == ident), None)
    now = next((p for p in after.doc("proposals").get("proposals", []) if p["id"] == ident), None)
    if was is None or now is None:
        return []
    old, new = was["votes"].get(actor), now["votes"].get(actor)
    if old == new:
        return [f"your vote on proposal {ident} was {new} already: it stands as it was (only the time of your last "
                "vote changes)"]
    if now["author"] != actor or new not in ("AGAINST", "ADMONISH"):
        return []
    said = f"you voted {new} on your own proposal {ident}: that vote may not be changed ({cited(after, RULE_VOTING)})"
    if now.get("self_killed") and not was.get("self_killed"):
        blocks = opts(after)["self_kill_blocks_enactment"]
        said += (f"; it self-kills the proposal: an admin may fail it now{' and none may enact it' if blocks else ''} "
                 f"({cited(after, RULE_ENACTMENT)})")
    return [said]


# ---------------------------------------------------------------- enacting and failing


def oldest_pending(ctx: Ctx) -> dict[str, Any] | None:
    pending = [p for p in ctx.doc("proposals")["proposals"] if p["status"] == "pending"]
    return min(pending, key=lambda p: (p["submitted"], p["id"])) if pending else None


def decision_marks(ctx_or_state: Any, p: dict[str, Any]) -> list[datetime]:
    """The times at which, with no new vote, whether ``p`` may be enacted or failed can change: the limits of seed
    001 1.5 (rule 5 of seed 003), 12 and 48 hours open, and the moment after 48 (where "more than 48" holds)."""
    start = clock_start(ctx_or_state, p)
    return [start + timedelta(hours=12), start + timedelta(hours=48), start + timedelta(hours=48, seconds=1)]


def _from_when(ctx: Ctx, p: dict[str, Any], t: Tally, enact: bool) -> str:
    """"; if the votes stand, it may be enacted from TIME": the first of the ``decision_marks`` at which the votes
    as they are would allow it, as ``nomic due`` says it."""
    test = enactable_reason if enact else failable_reason
    for mark in decision_marks(ctx, p):
        if mark > ctx.at and test(ctx, p, mark, t) is not None:
            return f"; if the votes stand, it may be {'enacted' if enact else 'failed'} from {format_time(mark)}"
    return ""


def _resolve_check(enact: bool):
    def check(ctx: Ctx) -> Iterator[str]:
        p = find(ctx.doc("proposals")["proposals"], ctx.params["proposal"], "proposal", ctx)
        if p["status"] != "pending":
            yield f"proposal {p['id']} is {p['status']}, not pending"
            return
        oldest = oldest_pending(ctx)
        if oldest is not None and oldest["id"] != p["id"]:
            yield f"only the oldest pending proposal may be {'enacted' if enact else 'failed'}: that is #{oldest['id']}"
            return
        t = tally(ctx, p)
        if enact:
            stale = renamed_in_effects(ctx, p.get("effects"))
            if stale:
                yield (f"proposal {p['id']}'s effects cannot be applied as voted: {stale}; an admin may fail it "
                       "instead")
            if enactable_reason(ctx, p, ctx.at, t) is None:
                later = "" if t.vetoed or p.get("self_killed") else _from_when(ctx, p, t, True)
                why = "it is vetoed" if t.vetoed else "it is self-killed" if p.get("self_killed") else (
                    f"{t.for_} FOR of {t.valid} after {open_for(ctx, p, ctx.at)}: neither Quorum "
                    f"({t.quorum}) after 12 hours nor more than half after 48" + later)
                ground = failable_reason(ctx, p, ctx.at, t)  # the admin at the desk: what may be done instead
                # seed 001 1.5: what may be done instead, now or, as nomic due says it, once the votes allow it
                instead = (f"; an admin may fail it now ({ground})" if ground else
                           "" if later else _from_when(ctx, p, t, False))
                yield f"proposal {p['id']} cannot be enacted: {why}{instead}"
            elif not stale:
                # seed 001 1.5 / seed 003 rule 5: effects that cannot be applied (``effects_problem``: the whole state
                # they would leave included, its declared stats and each module's checks) are what lets the admin
                # fail it (``failable_reason``); the rules refuse its enactment for the same reasons, so that the
                # judge of one action, nomic act and the admin's desk agree
                blocked = effects_problem(ctx, p, ctx.at)
                if blocked:
                    yield f"proposal {p['id']}'s effects cannot be applied: {blocked}; an admin may fail it instead"
        elif failable_reason(ctx, p, ctx.at, t) is None:
            yield (f"proposal {p['id']} cannot be failed yet: {t.for_} FOR, {t.against} AGAINST after "
                   f"{open_for(ctx, p, ctx.at)}" + _from_when(ctx, p, t, False))
        if ctx.params.get("deduct_nonvoters"):
            o = opts(ctx)
            gone = repealed(ctx, STUFFS)
            if not o["nonvoter_penalty"]:
                yield "this game has no penalty for not voting"
            elif gone is not None:
                # seed 003 rule 10 "Stuffs" gives the admin resolving a proposal this penalty; repealed, none has it
                yield f"the rule that lets an admin penalise non-voters, {gone.cite()}, has been repealed"
            elif age_hours(p, ctx.at) <= 48:  # rule 10: "pending" more than 48 hours, from its posting
                yield "non-voters may be penalised only for a proposal pending more than 48 hours"
            elif t.vetoed or p.get("self_killed"):
                yield "non-voters may not be penalised on a vetoed or self-killed proposal"
    return check


def _resolve(enact: bool):
    def effect(ctx: Ctx) -> None:
        o = opts(ctx)
        p = edit_item(ctx, "proposals", "proposals", ctx.params["proposal"], "proposal")
        t = tally(ctx, p)
        reason = (enactable_reason if enact else failable_reason)(ctx, p, ctx.at, t) or ""
        result = "enacted" if enact else ("vetoed" if t.vetoed else "self-killed" if p.get("self_killed") else "failed")
        p["status"] = "enacted" if enact else "failed"
        p["resolved"] = {"by": ctx.actor, "at": format_time(ctx.at), "result": result, "reason": reason[:200],
                         "tally": t.as_record()}
        ctx.step({"proposal": p["id"], "result": result, "tally": t.as_record()})
        if enact:
            before = roster_marks(ctx, p.get("effects"))
            apply_effects(ctx, p.get("effects"), f"proposal {p['id']}", RULE_ENACTMENT)
            follow_roster_patch(ctx, before, f"proposal {p['id']}")
        stuff = o["stuff_stat"]
        # seed 003 rule 3 "Proposals" adds this reward and fine to the resolution of rule 5; repealed, neither is paid
        if stuff and o["double_votes"] and (t.compensate or t.admonish) and repealed(ctx, RULE_PROPOSALS) is None:
            # seed 003 rule 3: one player more than Quorum double-FOR: +5 on enactment; double-AGAINST: -5
            proposer = ctx.player(p["author"])
            # the proposer has left the game, or is idle: rule 2 counts an idle Muffin as a Muffin only for rules 1
            # and 2 and has it come back with the values it had when it went idle, so rule 3 neither compensates
            # nor admonishes it (as rule 9's reset and rule 10's deduction pass over it). Before, an idle proposer
            # gained or lost the five Stuff
            absent = proposer is None or bool(proposer.get("idle"))
            if not absent and enact and t.compensate >= t.quorum + 1:
                change_stat(ctx, p["author"], stuff, 5)
                ctx.step({"compensated": p["author"], stuff: 5})
            if not absent and t.admonish >= t.quorum + 1:
                change_stat(ctx, p["author"], stuff, -5)
                ctx.step({"admonished": p["author"], stuff: -5})
        if stuff and ctx.params.get("deduct_nonvoters"):
            # seed 003 rule 10 "Stuffs" gives the option (the check refuses it once the rule is repealed); a
            # proposal whose own effects repeal rule 10 is enacted without it, as rule 3's reward above is paid
            gone = repealed(ctx, STUFFS)
            if gone is not None:
                raise ctx.refuse(f"the rule that lets an admin penalise non-voters, {gone.cite()}, is repealed by "
                                 f"proposal {p['id']}'s own effects; enact it without deduct_nonvoters", STUFFS)
            voters = set(p["votes"]) | {p["author"]}
            for player in active_players(ctx):
                if player["name"] not in voters:
                    change_stat(ctx, player["name"], stuff, -o["nonvoter_penalty"])
                    ctx.step({"did_not_vote": player["name"], stuff: -o["nonvoter_penalty"]})
    return effect


_RESOLVE_PARAMS = {"type": "object", "required": ["proposal"], "additionalProperties": False,
                   "properties": {"proposal": {"type": "integer", "minimum": 1,
                                               "description": "the number of the oldest pending proposal"},
                                  "deduct_nonvoters": {"type": "boolean", "description": (
                                      "whether the players who did not vote on it lose the penalty where the "
                                      "rules give one")}}}

ENACT = Action(
    name="core.enact",
    done="enacted",
    rule=RULE_ENACTMENT,
    summary="Enact the oldest pending proposal and apply its effects",
    params=_RESOLVE_PARAMS,
    who=ADMIN,
    check=_resolve_check(True),
    ready=none_pending("proposals", "proposals", "proposal"),
    effect=_resolve(True),
    doc="An admin may enact the oldest pending proposal once it has Quorum FOR and has been open 12 hours, or "
        "has been open 48 hours with more than half of its (at least two) votes FOR, and is neither vetoed nor "
        "self-killed. The engine records the admin, the time and the final tally.",
)

FAIL = Action(
    name="core.fail",
    done="failed",
    rule=RULE_ENACTMENT,
    summary="Fail the oldest pending proposal",
    params=_RESOLVE_PARAMS,
    who=ADMIN,
    check=_resolve_check(False),
    ready=none_pending("proposals", "proposals", "proposal"),
    effect=_resolve(False),
    doc="An admin may fail the oldest pending proposal when enough AGAINST votes stop it from ever reaching "
        "Quorum, when it is vetoed or self-killed, or after 48 hours without enough support.",
)

ACTIONS = [PROPOSE, VOTE, ENACT, FAIL]


# seed 001 "Enactment" (1.5) / seed 003 rule 5: what "enacted" means is that rule's; repealed, a status is as written
@ruled(RULE_ENACTMENT)
def follow_status_patch(ctx: Ctx) -> None:
    """A consequence: a pending proposal that an action's effects (a CfJ's patch of ``/proposals/proposals/id=N/
    status``) took out of pending.

    Seed 001 1.5 / seed 003 rule 5: a proposal is enacted by an admin who updates the ruleset and gamestate to
    include its effects, so "enacted" says its effects were made. A patch that marks enacted a proposal carrying
    effects would not make them (the patch is the CfJ's, not the proposal's), leaving a proposal recorded as enacted
    whose effects never happened: such effects cannot be applied (the CfJ fails, the admin may fail such a
    proposal); a CfJ that wants those changes carries them itself. Before, the status was taken and the effects
    silently dropped. Failing a pending proposal (the way a CfJ unblocks the queue) is taken, and so is marking
    enacted one whose only content is its text; each is recorded as an admin's resolution (1.5: name and tally),
    by the admin who applied the effects, unless the patch wrote one."""
    own = ctx.params.get("proposal") if ctx.action.name in ("core.enact", "core.fail") else None
    follow_patched_statuses(ctx, "proposals", own, "enacted", "proposal", ("effects", "core.enact"))


# seed 001 "Voting" (1.4) names the self-kill, which 1.5 reads; repealed, a vote a patch writes self-kills nothing
@ruled(RULE_VOTING)
def patched_self_kill(ctx: Ctx) -> None:
    """A consequence: a pending proposal on which an action's effects (a CfJ's patch of ``/proposals/proposals/id=N/
    votes/<author>``) wrote its author's vote AGAINST.

    Seed 001 1.4 / 1.5: a proposer's vote against their own proposal is a self-kill, unless the proposal was vetoed
    or already met another of 1.5's grounds for failing before the vote was placed. Reading: the effects record
    the author's vote as the gamestate's (the same vote ``core.vote`` refuses to let them change), so it is placed
    when they apply and judged as ``core.vote`` judges one, on the votes and age just before. Before, such a vote
    could not be changed, yet self-killed nothing. A vote the effects turn from AGAINST to another leaves the
    self-kill as it was recorded (as ``core.vote`` would), and so does one written again."""
    if "proposals" not in ctx.tx.docs or ctx.action.name not in EFFECT_ACTIONS:
        return
    base = ctx.tx.base
    was = {p["id"]: p for p in peek(base.doc("proposals")["proposals"]) if p["status"] == "pending"}
    for p in peek(ctx.doc("proposals")["proposals"]):
        before = was.get(p["id"])
        if before is None or p["status"] != "pending" or p.get("self_killed"):
            continue
        if (p.get("votes") or {}).get(p["author"]) not in AGAINST_OWN:
            continue
        if (before.get("votes") or {}).get(p["author"]) in AGAINST_OWN:
            continue
        t = tally(base, before)
        if t.vetoed or vote_grounds(base, before, ctx.at, t) is not None:
            continue
        edit_item(ctx, "proposals", "proposals", p["id"], "proposal")["self_killed"] = True
        ctx.step({"self_killed": p["id"], "by": by_effects(ctx)})
