"""Calls for Judgment (seed 001 rule 1.6; seed 003 rule 6)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Iterator

from ...effects import apply_effects
from ...engine import ADMIN, Action, Ctx, peek, ruled
from ...schemas import vote_words
from ...timeutil import format_time
from .._timefmt import when
from .common import (
    VETO_WHERE,
    clock_start,
    edit_item,
    find,
    follow_patched_statuses,
    in_hiatus,
    none_pending,
    open_hours,
    opts,
    subject_problem,
    tally,
)
from .players import follow_roster_patch, roster_marks
from .proposals import POST_FIELDS, effects_problem

RULE = "calls-for-judgment"


def _raise_check(ctx: Ctx) -> Iterator[str]:
    yield from subject_problem(ctx, ctx.params["title"])


def _raise(ctx: Ctx) -> None:
    doc = ctx.edit("cfjs")
    ident = doc["next"]
    doc["next"] = ident + 1
    item: dict[str, Any] = {"id": ident, "title": ctx.params["title"], "author": ctx.actor,
                            "submitted": format_time(ctx.at), "status": "pending"}
    if ctx.params.get("text"):
        item["text"] = ctx.params["text"]
    if ctx.params.get("effects"):
        item["effects"] = ctx.params["effects"]
    item["votes"] = {}
    doc["cfjs"].append(item)


CFJ = Action(
    name="core.cfj",
    rule=RULE,
    summary="Raise a Call for Judgment",
    params={"type": "object", "required": ["title"], "additionalProperties": False, "properties": POST_FIELDS},
    check=_raise_check,
    effect=_raise,
    in_hiatus=True,
    doc="Describe the dispute and the measures to resolve it; `effects` are applied if it passes.",
)


def time_up(ctx: Any, c: dict[str, Any]) -> str | None:
    """Why CfJ ``c``'s time is over, or None while it still runs.

    Seed 001 1.6: a CfJ continues until it reaches a Quorum of FOR votes or of AGAINST votes (``quorum_reached``,
    written by ``note_quorum`` at that moment), or until four days have passed, or two while a Hiatus is going on,
    and one whose two days ran out in a Hiatus stays ended (``ran_out_in_hiatus``); seed 003 rule 6: a Quorum of FOR
    votes, or four days. "After this time" the votes cast decide it.

    A pending CfJ whose votes reach Quorum though no action marked the moment has ended too: a game's starting point
    (a checkpoint, ``nomic checkpoint``, or a founding state) may hold one, its files written before the mark existed,
    and no action has touched the CfJs or the roster since (``note_quorum`` marks it then). Before, such a CfJ took
    votes, and a changed one could take it back under Quorum."""
    over = _ended(ctx, c)
    if over is None and c["status"] == "pending" and c.get("votes"):
        reached = _at_quorum(ctx, c)
        if reached:
            return f"it has reached Quorum ({reached})"
    return over


def _ended(ctx: Any, c: dict[str, Any]) -> str | None:
    """``time_up`` by what is recorded and by the clock: the mark of its Quorum, its days, its days run out in a
    Hiatus (not its votes as they stand)."""
    if c.get("quorum_reached"):
        return f"it reached Quorum at {c['quorum_reached']}"
    o = opts(ctx)
    days = o["cfj_days_in_hiatus"] if in_hiatus(ctx) else o["cfj_days"]
    if open_hours(ctx, c, ctx.at) >= days * 24:
        return f"its {days} days passed at {format_time(clock_start(ctx, c) + timedelta(days=days))}"
    if c.get("ran_out_in_hiatus"):
        return f"its {o['cfj_days_in_hiatus']} days ran out in the Hiatus that ended at {c['ran_out_in_hiatus']}"
    return None


def _vote_check(ctx: Ctx) -> Iterator[str]:
    c = find(ctx.doc("cfjs")["cfjs"], ctx.params["cfj"], "CfJ", ctx)
    if c["status"] != "pending":
        yield f"CfJ {c['id']} is {c['status']}, not pending"
        return
    over = time_up(ctx, c)
    if over:
        # seed 001 1.6 / seed 003 rule 6: a CfJ continues only until it reaches Quorum or its days have passed; after
        # that the votes cast then decide it. Before, a vote cast or changed after the end still counted when an
        # admin resolved it (after a Quorum, until this change, too)
        yield (f"CfJ {c['id']} has ended: {over}; it is decided by the votes cast before, and takes no more (an "
               "admin resolves it)")


def _vote(ctx: Ctx) -> None:
    c = edit_item(ctx, "cfjs", "cfjs", ctx.params["cfj"], "CfJ")
    c["votes"].pop(ctx.actor, None)
    c["votes"][ctx.actor] = ctx.params["vote"]
    if opts(ctx)["idle_basis"] == "votes":
        # seed 003 rule 2 idles a Muffin that has failed to vote for more than a week, and rule 6 calls what a Muffin
        # adds to a CfJ votes ("a Muffin's later votes overriding its earlier ones"): one is a vote for rule 2 too.
        # Before, only votes on proposals were noted, so a Muffin voting on CfJs every day could be idled
        ctx.edit("proposals").setdefault("last_vote", {})[ctx.actor] = format_time(ctx.at)


# seed 001 1.6 (seed 003 rule 6): a CfJ takes votes of agreement or disagreement; DEFERENTIAL (1.4, rule 4) is a vote
# on proposals and DoVs, and a veto is the leader's on proposals where the rules give one (``VETO_WHERE``: seed 001
# 1.8's VETO vote; seed 003 has none but rule 9's Address), told so rather than only listed as not among FOR and
# AGAINST. No state of the game makes either a vote on a CfJ, so it is bad input (exit 2), told the rules by title
# (the same in seeds 001 and 003)
_CFJS = "a Call for Judgment, which takes votes of agreement or disagreement (Calls for Judgment)"
_NOT_ON_CFJS = {"VETO": f"a VETO is no vote on {_CFJS}; {VETO_WHERE}",
                "DEFERENTIAL": f"DEFERENTIAL is a vote on proposals and Declarations of Victory (Voting), not on "
                               f"{_CFJS}"}

CFJ_VOTE = Action(
    name="core.cfj-vote",
    rule=RULE,
    summary="Vote FOR or AGAINST a Call for Judgment",
    params={"type": "object", "required": ["cfj", "vote"], "additionalProperties": False,
            "properties": {"cfj": {"type": "integer", "minimum": 1,
                                   "description": "the number of the pending Call for Judgment"},
                           "vote": vote_words(["FOR", "AGAINST"], yes="FOR", no="AGAINST", elsewhere=_NOT_ON_CFJS,
                                              description="your vote; a later one replaces it")}},
    check=_vote_check,
    # no CfJ is pending, or every pending one has ended (``time_up``: Quorum or its days): the check refuses every
    # number and every vote
    ready=none_pending("cfjs", "cfjs", "CfJ", over=(time_up, "every pending CfJ has ended (it reached Quorum or its "
                                                     "days have passed) and takes no more votes; an admin resolves "
                                                     "it")),
    effect=_vote,
    in_hiatus=True,
)


def status(ctx: Any, c: dict[str, Any]) -> tuple[bool, str]:
    """(may it be resolved now, why); the verdict then is: more than half of the cast votes FOR."""
    o = opts(ctx)
    t = tally(ctx, c, implicit_author=False)
    if t.for_ >= t.quorum:
        return True, f"{t.for_} FOR reach Quorum ({t.quorum})"
    if o["cfj_against_quorum_ends"] and t.against >= t.quorum:
        return True, f"{t.against} AGAINST reach Quorum ({t.quorum})"
    days = o["cfj_days_in_hiatus"] if in_hiatus(ctx) else o["cfj_days"]
    if open_hours(ctx, c, ctx.at) >= days * 24:
        return True, f"{days} days have passed"
    if c.get("quorum_reached"):
        # seed 001 1.6 / seed 003 rule 6: it ended when it reached Quorum (note_quorum), whatever the Quorum or its
        # votes' count since (a newcomer raising the Quorum, a voter who left); its cast votes decide it
        return True, f"it reached Quorum at {when(c['quorum_reached'])}"
    if c.get("ran_out_in_hiatus"):
        # seed 001 1.6: its time was over in the Hiatus (hiatus_ended); the time written as the wiki writes times
        ended = when(c["ran_out_in_hiatus"])
        return True, f"its {o['cfj_days_in_hiatus']} days ran out in the Hiatus that ended at {ended}"
    return False, f"{t.for_} FOR, {t.against} AGAINST; open until Quorum or {days} days"


# seed 001 "Calls for Judgment" (1.6): a CfJ's shorter time in a Hiatus is that rule's; repealed, no CfJ is marked
@ruled(RULE)
def hiatus_ended(ctx: Ctx) -> None:
    """A consequence: when a Hiatus ends, mark the pending CfJs whose time ran out in it.

    Seed 001 1.6: a CfJ continues until Quorum FOR or AGAINST, or until four days have passed, or two while a
    Hiatus is going on. One whose two days passed while the game was in Hiatus (two days old when a DoV began it,
    or reaching two days in it) ended then, and a CfJ that has ended does not start again when the Hiatus ends (a
    DoV fails or is withdrawn, or the Address is posted): it is resolved by its votes. Before, its time was asked
    only of the moment it was resolved, so the end of the Hiatus gave it back up to two more days. In the Quazie
    variant a CfJ's time is four days either way, so the mark changes nothing there.
    """
    if "dovs" not in ctx.tx.docs and "dynasty" not in ctx.tx.docs and ctx.tx.rules is None:
        # the Hiatus begins and ends only with a DoV or the Address, or with a repeal of 1.9 (``in_hiatus``)
        return
    if not in_hiatus(ctx.tx.base) or in_hiatus(ctx):
        return
    hours = opts(ctx)["cfj_days_in_hiatus"] * 24
    for c in ctx.doc("cfjs")["cfjs"]:
        if c["status"] == "pending" and not c.get("ran_out_in_hiatus") and open_hours(ctx, c, ctx.at) >= hours:
            edit_item(ctx, "cfjs", "cfjs", c["id"], "CfJ")["ran_out_in_hiatus"] = format_time(ctx.at)


def _at_quorum(state: Any, c: dict[str, Any]) -> str | None:
    """How CfJ ``c``'s votes reach a Quorum that ends it ("3 FOR, Quorum 3"): of FOR votes, or (Ruleset 75) of
    AGAINST votes; None when they do not."""
    t = tally(state, c, implicit_author=False)
    if t.for_ >= t.quorum:
        return f"{t.for_} FOR, Quorum {t.quorum}"
    if opts(state)["cfj_against_quorum_ends"] and t.against >= t.quorum:
        return f"{t.against} AGAINST, Quorum {t.quorum}"
    return None


def _who_counts_changed(base: dict[str, Any], now: Any) -> bool:
    """Whether the players who count towards Quorum, and whose votes count (not idle, no ``kind``), differ between
    two rosters. An entry the action did not touch is the base's own object (copy on write), so a change of stats
    alone costs one look at each entry."""
    was, new = base["players"], now["players"]
    if was is new:
        return False
    if len(was) != len(new):
        return True
    return any(a is not b and (a["name"], bool(a.get("idle")), a.get("kind")) != (b["name"], bool(b.get("idle")),
                                                                              b.get("kind"))
               for a, b in zip(peek(was), peek(new)))


# seed 001 "Calls for Judgment" (1.6) / seed 003 rule 6: when a CfJ ends is that rule's; repealed, nothing is marked
@ruled(RULE)
def note_quorum(ctx: Ctx) -> None:
    """A consequence: a pending CfJ whose votes have just reached Quorum is marked ``quorum_reached`` (the time).

    Seed 001 1.6: a CfJ continues until it reaches a Quorum of FOR votes or a Quorum of AGAINST votes (or its days
    pass); seed 003 rule 6: a quorum of FOR votes (or four days). "After this time" its cast votes decide it, and
    the admin only records the result: from that moment it takes no more votes, new or changed (``time_up``), and
    stays resolvable whatever happens to the Quorum (a newcomer raising it). Before, nothing recorded the moment,
    so a changed vote could take a CfJ back under Quorum and a newcomer could make it unresolvable again.

    Only the votes (the ``cfjs`` document) and who counts (the roster's players who are neither idle nor
    characters) decide it, so any other action returns at once, and one that changed only the roster looks at it
    only while a CfJ could reach Quorum."""
    docs = ctx.tx.docs
    if "cfjs" not in docs and "roster" not in docs:
        return
    open_ = [c for c in peek(ctx.doc("cfjs")["cfjs"])
             if c["status"] == "pending" and c.get("votes") and not c.get("quorum_reached")
             and not c.get("ran_out_in_hiatus")]
    if not open_:
        return
    base_roster = ctx.tx.base.docs.get("roster")
    moved = "roster" in docs and base_roster is not None and _who_counts_changed(base_roster, ctx.doc("roster"))
    if "cfjs" not in docs and not moved:
        return  # a stat changed, not who counts: no Quorum moved
    was = {c["id"]: c for c in peek(ctx.tx.base.doc("cfjs")["cfjs"])} if moved else {}
    for c in open_:
        if _ended(ctx, c) is not None:
            continue
        # seed 001 1.6 / seed 003 rule 6: at Quorum now, or at Quorum before this change of who counts though no
        # action had marked it (a checkpoint's or founding state's CfJ, ``time_up``): it ended then, and a newcomer
        # raising the Quorum does not start it again
        old = was.get(c["id"])
        if _at_quorum(ctx, c) or (old is not None and old["status"] == "pending" and old.get("votes")
                                  and not old.get("quorum_reached") and _at_quorum(ctx.tx.base, old)):
            edit_item(ctx, "cfjs", "cfjs", c["id"], "CfJ")["quorum_reached"] = format_time(ctx.at)


def has_effect(ctx: Ctx, effects: dict[str, Any] | None) -> bool:
    """Whether a CfJ's effects would change the ruleset or the gamestate at all (seed 001 1.6: an admin may fail at
    once a CfJ "that has no effect on the ruleset or gamestate").

    Effects of empty lists, or a patch of ``test`` operations alone (a test reads the gamestate and writes
    nothing), are no effect. Otherwise the effects are tried on a copy of the state as it is now and the result
    compared with it: a patch that writes the value already there (``replace .../admin: true`` on an admin) or
    puts back what it took, or a rule edit that gives a rule the text, title and number it has, changes nothing,
    so it is no effect either (the record a rule edit would add to the rule's history is not the ruleset's
    content). Before, any write counted as an effect, and such a CfJ held out for its Quorum or its days. Effects
    that cannot be applied at all still count as effects: the CfJ is resolved by its votes, and fails then if
    they still cannot apply.
    """
    e = effects or {}
    if not e.get("rules") and not any(op.get("op") != "test" for op in e.get("gamestate") or []):
        return False
    from ...effects import apply_rule_edits, patch_gamestate
    from ...registry_ctx import ctx_at

    state = ctx.state
    scratch = ctx_at(state, ctx.at)
    try:
        apply_rule_edits(scratch, e.get("rules") or [], "CfJ")
        patch_gamestate(scratch, e.get("gamestate") or [])  # a stat past a bound is set to it, as on resolution
    except (ValueError, KeyError, TypeError):
        return True
    after = scratch.tx.commit()
    if any(after.docs[kind] != state.docs.get(kind) for kind in scratch.tx.docs):
        return True

    def text(rules: dict[str, Any]) -> dict[str, Any]:
        return {k: ({m: v for m, v in r.meta.items() if m != "history"}, r.body) for k, r in rules.items()}

    return scratch.tx.rules is not None and text(scratch.tx.rules) != text(state.rules)


def _resolve_check(ctx: Ctx) -> Iterator[str]:
    c = find(ctx.doc("cfjs")["cfjs"], ctx.params["cfj"], "CfJ", ctx)
    if c["status"] != "pending":
        yield f"CfJ {c['id']} is {c['status']}, not pending"
        return
    ok, why = status(ctx, c)
    if ctx.params.get("fail_without_effect"):
        if not opts(ctx)["cfj_fail_without_effect"]:
            # seed 003 rule 6: a CfJ goes on until a quorum of FOR votes or four days, then its votes decide;
            # the admin's power to fail one that changes nothing is Ruleset 75's (seed 001 1.6) alone
            yield ("this game's rules give no admin the power to fail a CfJ because it has no effect; "
                   + ("resolve it by its votes" if ok else f"it cannot be resolved yet: {why}"))
            return
        if has_effect(ctx, c.get("effects")):
            yield (f"CfJ {c['id']} has effects, so it cannot be failed at once"
                   + (f"; it cannot be resolved yet: {why}" if not ok else "; resolve it by its votes"))
        return  # seed 001 1.6: a CfJ without effect may be failed by any admin at any time, whatever its votes
    if not ok:
        o = opts(ctx)
        days = o["cfj_days_in_hiatus"] if in_hiatus(ctx) else o["cfj_days"]
        end = format_time(clock_start(ctx, c) + timedelta(days=days))
        hint = ""
        if o["cfj_fail_without_effect"] and not has_effect(ctx, c.get("effects")):
            # seed 001 1.6: the admin's other way out, which the refusal would otherwise leave unsaid
            hint = ("; it has no effect on the ruleset or gamestate, so an admin may fail it now "
                    "(fail_without_effect=true)")
        yield f"CfJ {c['id']} cannot be resolved yet: {why} (its {days} days end at {end}){hint}"


def _resolve(ctx: Ctx) -> None:
    c = edit_item(ctx, "cfjs", "cfjs", ctx.params["cfj"], "CfJ")
    t = tally(ctx, c, implicit_author=False)
    if ctx.params.get("fail_without_effect"):
        # seed 001 1.6: the admin fails it because it has no effect; its votes do not matter
        passed, why = False, "it has no effect on the ruleset or gamestate"
    else:
        ok, why = status(ctx, c)
        passed = ok and t.for_ * 2 > t.valid
        blocked = effects_problem(ctx, c, ctx.at) if passed and c.get("effects") else None
        if blocked:
            # measures that can no longer be carried out (a player they name has left, say): the CfJ fails, as a
            # proposal in that case does, rather than standing pending forever with every resolution refused
            passed, why = False, f"its effects cannot be applied ({blocked})"
    c["status"] = "passed" if passed else "failed"
    c["resolved"] = {"by": ctx.actor, "at": format_time(ctx.at), "result": c["status"], "reason": why[:200],
                     "tally": t.as_record()}
    if passed:
        before = roster_marks(ctx, c.get("effects"))
        apply_effects(ctx, c.get("effects"), f"CfJ {c['id']}", RULE)
        follow_roster_patch(ctx, before, f"CfJ {c['id']}")


# seed 001 "Calls for Judgment" (1.6) / seed 003 rule 6: what a passing CfJ does is that rule's; repealed, a status
# is as written
@ruled(RULE)
def follow_status_patch(ctx: Ctx) -> None:
    """A consequence: a pending CfJ that another post's effects (a proposal's or CfJ's patch of ``/cfjs/cfjs/id=N/
    status``) took out of pending.

    Seed 001 1.6 / seed 003 rule 6: a CfJ that passes has the gamestate and ruleset amended as it specified. A patch
    marking passed a CfJ that carries effects would not make them, leaving a CfJ recorded as passed whose measures
    never happened: such effects cannot be applied (the admin may fail the proposal; a CfJ fails). Before, the
    status was taken and the measures silently dropped. Failing one, or passing one with no effects, is taken and
    recorded as a resolution by the admin who applied the effects, unless the patch wrote one."""
    own = ctx.params.get("cfj") if ctx.action.name == "core.cfj-resolve" else None
    follow_patched_statuses(ctx, "cfjs", own, "passed", "CfJ", ("measures", "core.cfj-resolve"))


CFJ_RESOLVE = Action(
    name="core.cfj-resolve",
    done="resolved",
    rule=RULE,
    summary="Mark a Call for Judgment passed or failed",
    params={"type": "object", "required": ["cfj"], "additionalProperties": False,
            "properties": {"cfj": {"type": "integer", "minimum": 1,
                                   "description": "the number of the pending Call for Judgment"},
                           "fail_without_effect": {"type": "boolean", "description": (
                               "fail it at once because it would change neither the ruleset nor the gamestate, "
                               "where the rules allow it")}}},
    who=ADMIN,
    check=_resolve_check,
    ready=none_pending("cfjs", "cfjs", "CfJ"),
    effect=_resolve,
    in_hiatus=True,
    doc="Once it has Quorum FOR (or AGAINST, in Ruleset 75) or four days have passed (two in Hiatus), a CfJ "
        "passes if more than half of the cast votes are FOR. A CfJ without effects may be failed at any time "
        "with `fail_without_effect: true`.",
)

ACTIONS = [CFJ, CFJ_VOTE, CFJ_RESOLVE]
