"""Declarations of Victory, Hiatus and the Ascension Address (seed 001 1.9, the new Dynasty of 1.8; seed 003 rule 9)."""

from __future__ import annotations

import copy
import re
from datetime import timedelta
from typing import Any, Iterator

from ...engine import LEADER, PLAYER, Action, Ctx, peek, ruled
from ...problems import Problem, did_you_mean
from ...roster import value_problem
from ...schemas import NOT_BLANK, is_blank, not_blank, vote_words
from ...timeutil import format_time, parse_time
from .common import (
    DYNASTIES,
    VETO_WHERE,
    by_effects,
    clock_start,
    edit_item,
    find,
    in_hiatus,
    leader,
    none_pending,
    open_hours,
    opts,
    tally,
)
from .players import remove_player
from .proposals import TEXT

RULE = "victory-and-ascension"

KEYWORD = r"^\S(.*\S)?$"  # a keyword or its new term: not empty, no blank at either end
KEYWORD_IS = "a word (or words) with no blank at either end"

ORDINALS = ["First", "Second", "Third", "Fourth", "Fifth", "Sixth", "Seventh", "Eighth", "Ninth", "Tenth",
            "Eleventh", "Twelfth"]


def _declare_check(ctx: Ctx) -> Iterator[str]:
    if ctx.actor == leader(ctx) and not opts(ctx)["leader_may_declare"]:
        # seed 001 1.9 excepts the Expedition Leader; seed 003 rule 9 lets any Muffin declare, the GRAND POOBAH too
        yield f"the {ctx.keyword('leader', 'leader')} may not declare victory"
    if ctx.doc("dynasty").get("awaiting_ascension"):
        yield "no DoV may be made between a passing DoV and its Ascension Address"
    barred = ctx.doc("dovs").get("barred", {}).get(ctx.actor)
    if barred and parse_time(barred) > ctx.at:
        yield (f"{ctx.actor}'s last DoV failed with more AGAINST votes than Quorum; "
               f"they may declare again after {barred}")


def _declare(ctx: Ctx) -> None:
    doc = ctx.edit("dovs")
    ident = doc["next"]
    doc["next"] = ident + 1
    item: dict[str, Any] = {"id": ident, "author": ctx.actor, "submitted": format_time(ctx.at), "status": "pending"}
    if ctx.params.get("text"):
        item["text"] = ctx.params["text"]
    item["votes"] = {}
    doc["dovs"].append(item)


DECLARE = Action(
    name="core.dov",
    rule=RULE,
    summary="Declare victory; the game goes into Hiatus",
    params={"type": "object", "additionalProperties": False,
            "properties": {"text": {**TEXT, "description": "why you have won, in words"}}},
    check=_declare_check,
    effect=_declare,
    in_hiatus=True,
)


def _vote_check(ctx: Ctx) -> Iterator[str | Problem]:
    d = find(ctx.doc("dovs")["dovs"], ctx.params["dov"], "DoV", ctx)
    if d["status"] != "pending":
        yield f"DoV {d['id']} is {d['status']}, not pending"
    if ctx.params["vote"] == "DEFERENTIAL" and opts(ctx)["dov"] != "quazie":
        # seed 001 1.9: a DoV's votes are FOR or AGAINST, everyone's; that is the whole refusal (1.9 has no ban of
        # its own on the leader, so no second problem says there is one)
        yield "votes on a DoV are FOR or AGAINST"
    elif ctx.params["vote"] == "DEFERENTIAL" and ctx.actor == leader(ctx):
        # seed 003 rule 4 (the Quazie variant, where a DoV may be voted DEFERENTIAL): not by the GRAND POOBAH; the
        # ban is rule 4's (Voting), so the refusal cites it, as on a proposal
        yield Problem(f"the {ctx.keyword('leader', 'leader')} cannot vote DEFERENTIAL", rule="voting")
    if d["status"] == "pending" and opts(ctx)["dov"] == "quazie":
        decided = quazie_decided(ctx, d)
        if decided:
            yield f"DoV {d['id']} is decided: {decided}; it takes no more responses and awaits only its resolution"


def quazie_decided(ctx: Any, d: dict[str, Any]) -> str | None:
    """Seed 003 rule 9: what the players' responses have already decided, or None.

    As soon as more than half of the Muffins consider the win legal, the poster has won and the Dynasty ends; as
    soon as more than half consider it illegal with no CfJ pending, the Hiatus ends. Either is done at that moment,
    so no later response may undo it (before, a response changed after the majority was reached turned a won
    Dynasty back into an undecided DoV at its resolution). An illegal majority while a CfJ is pending ends nothing
    yet, so the responses may still change."""
    t = tally(ctx, d, implicit_author=False)
    muffins = ctx.keyword("players", "players")
    if t.for_ * 2 > t.players:
        return f"{t.for_} of {t.players} {muffins} consider the win legal"
    if t.against * 2 > t.players and not any(c["status"] == "pending" for c in ctx.doc("cfjs")["cfjs"]):
        return f"{t.against} of {t.players} {muffins} consider the win illegal and no CfJ is pending"
    return None


def decided(ctx: Ctx, d: dict[str, Any]) -> bool:
    """Whether a pending DoV takes no more responses: seed 003 rule 9, already decided (``quazie_decided``)."""
    return opts(ctx)["dov"] == "quazie" and quazie_decided(ctx, d) is not None


def _vote(ctx: Ctx) -> None:
    d = edit_item(ctx, "dovs", "dovs", ctx.params["dov"], "DoV")
    d["votes"].pop(ctx.actor, None)
    d["votes"][ctx.actor] = ctx.params["vote"]


DOV_VOTE = Action(
    name="core.dov-vote",
    rule=RULE,
    summary="Say whether a declared victory is real (FOR) or not (AGAINST)",
    params={"type": "object", "required": ["dov", "vote"], "additionalProperties": False,
            "properties": {"dov": {"type": "integer", "minimum": 1,
                                   "description": "the number of the pending Declaration of Victory"},
                           "vote": vote_words(["FOR", "AGAINST", "DEFERENTIAL"], yes="FOR", no="AGAINST",
                                              description="FOR: the victory is real; AGAINST: it is not",
                                              # seed 001 1.9, seed 003 rule 9: a DoV is answered FOR, AGAINST
                                              # (or DEFERENTIAL); a veto is no answer (``VETO_WHERE``)
                                              elsewhere={"VETO": "a Declaration of Victory is answered FOR, AGAINST "
                                                                 "or DEFERENTIAL (Victory and Ascension), never with "
                                                                 f"a VETO; {VETO_WHERE}"})}},
    check=_vote_check,
    # no DoV is pending, or every pending one is already decided: the check refuses every number and every response
    ready=none_pending("dovs", "dovs", "DoV", over=(decided, "every pending DoV is already decided and takes no more "
                                                  "responses; it awaits only its resolution")),
    effect=_vote,
    in_hiatus=True,
)


def dov_status(ctx: Any, d: dict[str, Any]) -> tuple[str | None, str]:
    """('passed' | 'failed' | None, why): what resolving DoV ``d`` now would do, or None if it cannot yet."""
    result, why = _dov_verdict(ctx, d)
    maker = ctx.player(d["author"])
    if result == "passed" and maker is None:
        # seed 001 1.9: a passing DoV makes its maker the new leader; one who has left the game is no longer a
        # player (1.2), so it cannot pass (our reading), rather than naming a leader who is not on the roster
        return "failed", f"its maker {d['author']} has left the game ({why})"
    if result == "passed" and maker.get("idle"):
        # seed 001 1.2: idle Colonists are Colonists only for 1.1, 1.2, 1.8 and 1.10, so for 1.9 an idle maker is
        # not "the Colonist who made the DoV" who would lead; seed 003 rule 2: only for rules 1 and 2, so an idle
        # poster neither wins (rule 9) nor is GRAND POOBAH (rule 8). The DoV fails as one whose maker left (our
        # reading), rather than make a leader who can neither post the Address nor hand the role on
        return "failed", f"its maker {d['author']} is idle ({why})"
    return result, why


def _dov_verdict(ctx: Any, d: dict[str, Any]) -> tuple[str | None, str]:
    o = opts(ctx)
    t = tally(ctx, d, implicit_author=False)
    age = open_hours(ctx, d, ctx.at)
    if o["dov"] == "quazie":
        # seed 003 rule 9: more than half of the players call it legal, or illegal; else the leader after 24 hours
        if t.for_ * 2 > t.players:
            return "passed", f"{t.for_} of {t.players} players consider it legal"
        pending_cfjs = [c["id"] for c in ctx.doc("cfjs")["cfjs"] if c["status"] == "pending"]
        cfjs_wait = f"CfJ {', '.join(map(str, pending_cfjs))} is still pending"
        if t.against * 2 > t.players:
            if pending_cfjs:  # rule 9: an illegal verdict ends the Hiatus only if no CfJ remains pending
                return None, f"{t.against} of {t.players} players consider it illegal, but {cfjs_wait}"
            return "failed", f"{t.against} of {t.players} players consider it illegal"
        decision = ctx.params.get("decision") if hasattr(ctx, "params") else None
        if age >= 24 and decision and ctx.actor == leader(ctx):
            boss = ctx.keyword("leader", "leader")
            if decision == "failed" and pending_cfjs:
                # seed 003 rule 9: the leader's decision stands in for the clear decision the players did not
                # reach; an illegal finding ends the Hiatus only under the condition the rule puts on it (no CfJ
                # pending), whoever found it, so the leader's "illegal" waits for the CfJs as the players' does
                return None, f"the {boss} decided it is illegal, but {cfjs_wait}"
            return decision, f"no clear decision after 24 hours; the {boss} decided"
        return None, f"{t.for_} FOR, {t.against} AGAINST of {t.players}; no clear decision" + _may_decide(ctx, d, age)
    boss = leader(ctx)
    # 1.9: 12 hours if the leader has voted on it; the vote of a leader who is idle is no longer valid (1.2, 1.4)
    wait = 12 if boss and boss in t.counted else 24
    if age < wait:
        # the moment, as a refusal to enact a proposal too early names it (seed 001 1.5); and, while the leader
        # could still shorten the wait by voting, the moment that would give
        start = clock_start(ctx, d)
        why = f"it may be resolved {wait} hours after it was made, from {format_time(start + timedelta(hours=wait))}"
        me = ctx.player(boss) if boss else None
        if wait == 24 and me is not None and not me.get("idle"):
            why += (f" (12 hours, from {format_time(start + timedelta(hours=12))}, if the "
                    f"{ctx.keyword('leader', 'leader')} votes on it)")
        return None, why
    voted = len(t.counted)
    if voted >= t.quorum and t.for_ * 2 > voted:
        return "passed", f"{voted} voted (Quorum {t.quorum}) and {t.for_} FOR"
    return "failed", f"{voted} voted (Quorum {t.quorum}), {t.for_} FOR"


def _may_decide(ctx: Any, d: dict[str, Any], age: float) -> str:
    """Seed 003 rule 9: who may step in when the players reach no clear decision, and from when: the GRAND POOBAH,
    after 24 hours (the refusal and the admin's desk said only "no clear decision")."""
    boss = leader(ctx)
    title = ctx.keyword("leader", "leader")
    me = ctx.player(boss) if boss else None
    if me is None or me.get("idle"):
        return f"; no active {title} may decide it"
    if age >= 24:
        return f"; {boss}, the {title}, may decide it now (decision: passed or failed)"
    start = format_time(clock_start(ctx, d) + timedelta(hours=24))
    return f"; if it stays so, {boss}, the {title}, may decide it from {start}"


def _resolve_check(ctx: Ctx) -> Iterator[str]:
    d = find(ctx.doc("dovs")["dovs"], ctx.params["dov"], "DoV", ctx)
    if d["status"] != "pending":
        yield f"DoV {d['id']} is {d['status']}, not pending"
        return
    if ctx.params.get("decision") and opts(ctx)["dov"] != "quazie":
        # seed 001 1.9: the votes alone pass or fail it; the deciding leader is seed 003 rule 9's
        yield "this game's rules leave no decision on a DoV to anyone: its votes pass or fail it"
        return
    if ctx.params.get("decision") and ctx.actor != leader(ctx):
        yield f"only the {ctx.keyword('leader', 'leader')} may decide a DoV"
    result, why = dov_status(ctx, d)
    if result is None:
        yield f"DoV {d['id']} cannot be resolved yet: {why}"


def _resolve(ctx: Ctx) -> None:
    dovs = ctx.edit("dovs")
    d = find(dovs["dovs"], ctx.params["dov"], "DoV", ctx)
    t = tally(ctx, d, implicit_author=False)
    result, why = dov_status(ctx, d)
    assert result is not None
    d["status"] = result
    d["resolved"] = {"by": ctx.actor, "at": format_time(ctx.at), "result": result, "reason": why[:200],
                     "tally": t.as_record()}
    if result == "failed":
        _bar(ctx, dovs, d, t)
        return
    _win(ctx, dovs, d)


def _win(ctx: Ctx, dovs: dict[str, Any], d: dict[str, Any]) -> None:
    """Seed 001 1.9 / seed 003 rule 9: what follows DoV ``d``'s passing (``dovs``: the document, being edited): the
    other pending DoVs fail, the dynasty ends (kept in ``past``) and the next begins, led by the DoV's maker, the
    Hiatus going on until the Address; in the Quazie variant the stats are reset."""
    o = opts(ctx)
    for other in dovs["dovs"]:
        if other["status"] == "pending":
            # seed 001 1.9: the other active DoVs fail, and each such failure is like any other (1.5: its tally is
            # reported; 1.9: more AGAINST than Quorum bars its maker for 120 hours)
            ot = tally(ctx, other, implicit_author=False)
            other["status"] = "failed"
            other["resolved"] = {"by": ctx.actor, "at": format_time(ctx.at), "result": "failed",
                                 "reason": f"DoV {d['id']} passed", "tally": ot.as_record()}
            _bar(ctx, dovs, other, ot)
    dynasty = ctx.edit("dynasty")
    past = {k: dynasty[k] for k in ("number", "leader", "title", "theme", "started") if k in dynasty}
    past["ended"] = format_time(ctx.at)
    past["winner"] = d["author"]
    dynasty.setdefault("past", []).append(past)
    dynasty["number"] = dynasty["number"] + 1
    dynasty["leader"] = d["author"]
    dynasty["title"] = f"The {_ordinal(ctx, d['author'])} Dynasty of {d['author']}"
    dynasty.pop("theme", None)
    dynasty["started"] = format_time(ctx.at)
    dynasty["awaiting_ascension"] = True
    if o["ascension_resets_stats"]:
        roster = ctx.edit("roster")
        defs = roster.get("stats") or {}
        for p in roster["players"]:
            if p.get("idle") or p.get("kind"):
                # seed 003 rule 2: idle Muffins are Muffins only for rules 1 and 2, so rule 9 resets none of their
                # stats; back from idleness they have what they had when they went idle (rule 2)
                continue
            p["stats"] = blank_stats(p["stats"], defs)


# seed 001 "Victory and Ascension" (1.9) / seed 003 rule 9: what follows a DoV's passing or failing is that rule's;
# repealed, a DoV a patch marks is left as the patch writes it
@ruled(RULE)
def follow_dov_patch(ctx: Ctx) -> None:
    """A consequence: a DoV that an action other than its resolution marked passed or failed (a CfJ's patch of
    ``/dovs/dovs/id=N/status``; 1.6 lets a CfJ settle what needs urgent attention, and a CfJ may be made in Hiatus)
    passes or fails as ``core.dov-resolve`` would make it.

    Seed 001 1.9 / seed 003 rule 9: when a DoV passes, the other active DoVs fail and a new dynasty begins, led by
    its maker, the Hiatus going on until the Address (the Quazie variant resets the stats); when one fails with more
    AGAINST than Quorum, its maker may not declare again for 120 hours. Before, the patch changed the status alone:
    the game left the Hiatus with the old dynasty and leader, the other DoVs still pending, the winner leading
    nothing. The resolution is recorded (by the admin who applied the effects, with the CfJ as its reason) unless the
    patch wrote one. Effects that pass a DoV whose maker has left or is idle (who could not lead, ``dov_status``), or
    pass two DoVs at once (each would fail the other), cannot be applied: the CfJ fails, the admin may fail the
    proposal. The winner leads: a leader the same patch named is replaced by the maker, who may hand the role on
    (``core.pass-leadership``, Ruleset 75)."""
    if "dovs" not in ctx.tx.docs or ctx.action.name == "core.dov-resolve":
        return
    base = ctx.tx.base.docs.get("dovs")
    if base is None:
        return
    was = {d["id"]: d["status"] for d in peek(base["dovs"])}
    now = list(peek(ctx.doc("dovs")["dovs"]))
    won = [d for d in now if d["status"] == "passed" and was.get(d["id"]) != "passed"]
    lost = [d for d in now if d["status"] == "failed" and was.get(d["id"]) == "pending"]
    if not (won or lost):
        return
    by = by_effects(ctx)
    if len(won) > 1:
        raise ctx.refuse(f"{by}'s effects cannot be applied: they pass DoVs "
                         f"{' and '.join(str(d['id']) for d in won)}, but when one DoV passes the others fail")
    for d in won:
        maker = ctx.player(d["author"])
        if maker is None or maker.get("idle") or maker.get("kind"):
            state = "has left the game" if maker is None else "is idle" if maker.get("idle") else "is no player"
            raise ctx.refuse(f"{by}'s effects cannot be applied: they pass DoV {d['id']}, but its maker "
                             f"{d['author']} {state} and cannot lead the new dynasty")
    dovs = ctx.edit("dovs")
    for d in lost + won:
        item = next(x for x in dovs["dovs"] if x["id"] == d["id"])
        t = tally(ctx, item, implicit_author=False)
        if "resolved" not in item:
            item["resolved"] = {"by": ctx.actor, "at": format_time(ctx.at), "result": item["status"],
                                "reason": f"{by} {item['status']} it"[:200], "tally": t.as_record()}
        if item["status"] == "failed":
            _bar(ctx, dovs, item, t)
        else:
            _win(ctx, dovs, item)
        ctx.step({"dov": item["id"], item["status"]: by})


# seed 001 "Dynasties" (1.8) / seed 003 rule 8: a dynasty is named after its head; repealed, the name stays as written
@ruled(DYNASTIES)
def name_after_new_leader(ctx: Ctx) -> None:
    """A consequence: a dynasty awaiting its Ascension Address whose leader an action's effects changed (a CfJ's patch
    of ``/dynasty/leader``) is named after the new leader, as ``core.pass-leadership`` names it.

    Seed 001 1.8 / seed 003 rule 8: a dynasty is named for the number of dynasties its head has headed ("The First
    Dynasty of Myke"). Until the Address the new dynasty's head may still change (1.9's handing on; a CfJ naming
    another when the winner left), and the name follows; before, a CfJ's new leader headed a dynasty named after the
    one they replaced. Reading: once the Address is posted the dynasty has been proclaimed under its name, which it
    keeps, as it keeps it when its head changes their name. Not renamed: a title the same effects wrote, a leader
    who is the same player renamed (same account and joining time), no leader at all."""
    if "dynasty" not in ctx.tx.docs or ctx.action.name in ("core.dov-resolve", "core.pass-leadership", "core.ascend"):
        return
    base = ctx.tx.base.docs.get("dynasty")
    dynasty = ctx.doc("dynasty")
    boss = dynasty.get("leader")
    if (base is None or not dynasty.get("awaiting_ascension") or not base.get("awaiting_ascension") or boss is None
            or boss == base.get("leader") or dynasty.get("title") != base.get("title")):
        return
    was = next((p for p in peek(ctx.tx.base.doc("roster")["players"]) if p["name"] == base.get("leader")), None)
    me = ctx.player(boss)
    if me is None or (was is not None and (was.get("account"), was["joined"]) == (me.get("account"), me["joined"])):
        return
    title = f"The {_ordinal(ctx, boss)} Dynasty of {boss}"
    ctx.edit("dynasty")["title"] = title
    ctx.step({"dynasty": title})


# seed 003 rule 9: "zero or blank" for each kind of stat the roster declares (roster.schema.json's types)
BLANKS: dict[str, Any] = {"integer": 0, "string": "", "list": [], "boolean": False}


def _kind(v: Any) -> str | None:
    """The declared type a value of an undeclared stat reads as (``nomic check`` reports the stat itself)."""
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, (int, float)):
        return "integer"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "list"
    if isinstance(v, dict):
        return "mapping"
    return None


def blank_stats(stats: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """Seed 003 rule 9: every stat of a player reset to zero or blank, by its declared type: a number to 0, a text
    to "", a list to [], a truth value to false (a mapping, of a stat not declared, to {}). A blank the declaration
    does not allow (a text with choices that do not include "", a number whose bounds exclude 0) gives the stat
    the value a new player gets (its default), the nearest a reset can come to blank on a valid roster."""
    out: dict[str, Any] = {}
    for k, v in stats.items():
        d = defs.get(k) or {}
        kind = d.get("type") if d.get("type") in BLANKS else _kind(v)
        if kind == "mapping":
            out[k] = {}
        elif kind is None:
            out[k] = v  # no blank known for it: as it was
        elif d and "default" in d and value_problem(d, BLANKS[kind]):
            out[k] = copy.deepcopy(d["default"])
        else:
            out[k] = copy.deepcopy(BLANKS[kind])
    return out


def _bar(ctx: Ctx, dovs: dict[str, Any], d: dict[str, Any], t: Any) -> None:
    """Seed 001 1.9: a DoV failed with more AGAINST votes than Quorum bars its maker from declaring for 120 hours."""
    if opts(ctx)["dov"] == "ruleset-75" and t.against > t.quorum:
        dovs.setdefault("barred", {})[d["author"]] = format_time(ctx.at + timedelta(hours=120))


def _ordinal(ctx: Ctx, who: str) -> str:
    n = 1 + sum(1 for p in ctx.doc("dynasty").get("past", []) if p.get("leader") == who)
    return ORDINALS[n - 1] if n <= len(ORDINALS) else f"{n}th"


DOV_RESOLVE = Action(
    name="core.dov-resolve",
    done="resolved",
    rule=RULE,
    summary="Resolve a Declaration of Victory",
    params={"type": "object", "required": ["dov"], "additionalProperties": False,
            "properties": {"dov": {"type": "integer", "minimum": 1,
                                   "description": "the number of the pending Declaration of Victory"},
                           "decision": {"enum": ["passed", "failed"],
                                        "description": "whether it passed or failed, as its votes decide"}}},
    who=PLAYER,
    check=lambda ctx: _admin_or_leader(ctx, _resolve_check(ctx)),
    ready=none_pending("dovs", "dovs", "DoV"),
    effect=_resolve,
    in_hiatus=True,
    doc="Ruleset 75: after 24 hours (12 if the leader voted) an admin resolves it; it passes if Quorum voted "
        "and more than half FOR. Quazie: it passes or fails as soon as more than half of the players say so; "
        "after 24 hours without a clear decision the leader may decide (`decision`).",
)


def _admin_or_leader(ctx: Ctx, problems: Iterator[str]) -> Iterator[str]:
    me = ctx.player() or {}
    # seed 001 1.5/1.9: admins mark DoVs passed or failed; only the Quazie leader (seed 003 rule 9) may step in
    leader_may = opts(ctx)["dov"] == "quazie" and ctx.actor == leader(ctx)
    if not me.get("admin") and not leader_may:
        yield ("only an admin (or the leader deciding) may resolve a DoV" if opts(ctx)["dov"] == "quazie"
               else "only an admin may resolve a DoV")
        return
    yield from problems


def _ascend_ready(ctx: Ctx) -> Iterator[str]:
    if not ctx.doc("dynasty").get("awaiting_ascension"):
        yield "there is no passed DoV awaiting an Ascension Address"


def _ascend_check(ctx: Ctx) -> Iterator[str | Problem]:
    yield from _ascend_ready(ctx)
    o = opts(ctx)
    rules = ctx.state.rules
    for rid in ctx.params.get("repeal", []):
        r = rules.get(rid)
        if r is None:
            yield f"there is no rule {rid!r} to repeal"
        elif r.meta.get("status") != "active":
            # seed 001 1.9 / seed 003 rule 9: the Address repeals rules in force; one already gone is not repealed
            # again (its history would record a second repeal)
            yield f"rule {r.cite()} is not in force ({r.meta.get('status')}); there is nothing to repeal"
        elif r.meta.get("section") in o["core_sections"]:
            yield f"rule {r.cite()} is a core rule; an Ascension Address may repeal only dynastic rules"
    for old, new in ctx.params.get("keywords", {}).items():
        for word in (old, new):
            # seed 001 1.9 / seed 003 rule 9: a keyword and its new term are words written into the rules. A line
            # break or other control character in one (the schema's pattern refuses one at the very end too) would
            # break a rule's line, and an invisible character at either end would make a word that looks like
            # another but never matches it: refused, naming the word
            if any(ord(c) < 0x20 or 0x7f <= ord(c) < 0xa0 for c in word):
                yield f"the keyword or new term {word!r} holds a line break or other control character"
            elif is_blank(word[:1]) or is_blank(word[-1:]):
                yield f"the keyword or new term {word!r} begins or ends with an invisible character"
    yield from _keywords_in_reach(ctx, o)
    if ctx.params.get("veto") and not o["ascension_veto"]:
        # seed 001 1.9: the Address may name a theme, repeal dynastic rules and replace keywords, nothing more;
        # the new leader vetoes by voting VETO (1.8), and an admin fails the oldest pending proposal (1.5)
        yield ("this game's Ascension Address cannot veto proposals; the "
               f"{ctx.keyword('leader', 'leader')} may vote VETO on them instead")
        return
    proposals = {p["id"]: p for p in ctx.doc("proposals")["proposals"]}
    for pid in ctx.params.get("veto", []):
        if pid not in proposals or proposals[pid]["status"] != "pending":
            yield f"proposal {pid} is not pending"


def _keywords_in_reach(ctx: Ctx, o: dict) -> Iterator[Problem]:
    """Seed 003 rule 9: the Address replaces the words rule 9 names wherever they stand, and any other keyword only in
    the rules over 9 that it does not repeal. A keyword it could change nowhere is almost surely a slip of the pen
    (a typo, a word the rules do not write, a word only in a rule the same Address repeals); accepted, it would be
    a replacement that replaces nothing. So it is refused, naming the parameter, the word and why:

    * a keyword only in core rules (1-9): refused, naming a core rule that holds it (rule 9 keeps them from it);
    * a keyword in no rule over 9 the Address keeps: refused, naming a rule it repeals that holds it, or with the
      nearest word those rules do hold ("did you mean");
    * a word rule 9 names, in another case than the list's ("a.e."): refused when it stands in no rule in force,
      no keyword of game.yaml and no column label (the list's own spelling, "A.E.", is always accepted: rule 9
      names it, and the game's own state, such as the Calendar's era, may hold it where no rule text does);
    * a keyword given itself as its new term, which changes nothing at all.

    Ruleset 75 (seed 001 1.9: "any keywords", in every rule): a keyword standing in no rule the Address keeps, no
    keyword of game.yaml and no column label is refused in the same way (``_keywords_anywhere``)."""
    core_words = _core_words(ctx, o)
    replace = ctx.params.get("keywords", {})
    if not replace:
        return
    for old, new in replace.items():
        if old == new:  # no new term: the Address would change nothing at all
            yield Problem(f"{old!r} is given itself as its new term; replacing it would change nothing",
                          field=f"params.keywords.{old}")
    replace = {old: new for old, new in replace.items() if old != new}
    repealed = set(ctx.params.get("repeal", []))
    active = [r for r in ctx.state.rules.values() if r.meta.get("status") == "active"]
    kept = [r for r in active if r.id not in repealed]
    if core_words is None:
        yield from _keywords_anywhere(ctx, replace, active, kept)
        return
    core = [r for r in kept if r.meta.get("section") in o["core_sections"]]
    over_9 = [r for r in kept if r.meta.get("section") not in o["core_sections"]]
    for old in replace:
        field = f"params.keywords.{old}"
        if old in core_words:
            continue  # rule 9 names it: the Address may replace it, wherever it stands
        pattern = keyword_pattern({old: old})
        if _named(old, core_words):
            if any(_holds(r, pattern) for r in kept) or _outside_rules(ctx, old, pattern):
                continue
            listed = next(w for w in core_words if w.casefold() == old.casefold())
            yield Problem(f"{old!r} stands in no rule in force after this Address, no keyword of game.yaml and no "
                          f"column label, so replacing it would change nothing; did you mean {listed!r}? (a word "
                          "is replaced where it stands in the case given)", field=field)
            continue
        if any(_holds(r, pattern) for r in over_9):
            continue
        in_core = [r for r in core if _holds(r, pattern)]
        gone = [r for r in active if r.id in repealed and _holds(r, pattern)]
        if in_core:
            # the words rule 9 names: the rule this refusal cites, by its number now (no inline number, which a
            # renumbering would leave wrong)
            yield Problem(f"{old!r} stands only in core rules (rule {in_core[0].cite()}); the Ascension Address may "
                          "replace it only in the rules over 9 it does not repeal, and only the words its own rule "
                          "names in every rule", field=field)
        elif gone:
            yield Problem(f"{old!r} stands only in rule {gone[0].cite()}, which this Address repeals; the Ascension "
                          "Address replaces a keyword only in the rules over 9 it keeps", field=field)
        else:
            yield Problem(f"{old!r} stands in no rule over 9 that this Address keeps, so replacing it would change "
                          "nothing" + _nearest_word(old, over_9), field=field)


def _outside_rules(ctx: Ctx, word: str, pattern: re.Pattern[str] | None) -> bool:
    """Whether an Address replacing ``word`` changes something outside the rules: a keyword of game.yaml (the
    names the game gives its players, leader and stats), or a roster column's label."""
    labels = [str(d.get("label") or "") for d in (ctx.doc("roster").get("stats") or {}).values()]
    return (word in (ctx.config.get("keywords") or {}).values()
            or any(pattern is not None and pattern.search(label) for label in labels))


def _keywords_anywhere(ctx: Ctx, replace: dict[str, str], active: list[Any], kept: list[Any]) -> Iterator[Problem]:
    """Seed 001 1.9: the Address may proclaim that any keywords are replaced, in every rule. One that stands in no
    rule in force after the Address, no keyword of game.yaml and no column label would replace nothing: refused,
    as in the Quazie variant, naming the rule the same Address repeals that holds it, or the nearest word the rules
    hold (a keyword given itself is refused before, for both variants)."""
    repealed = [r for r in active if r not in kept]
    for old in replace:
        field = f"params.keywords.{old}"
        pattern = keyword_pattern({old: old})
        if any(_holds(r, pattern) for r in kept) or _outside_rules(ctx, old, pattern):
            continue
        gone = [r for r in repealed if _holds(r, pattern)]
        if gone:
            yield Problem(f"{old!r} stands only in rule {gone[0].cite()}, which this Address repeals, so replacing "
                          "it would change nothing", field=field)
        else:
            yield Problem(f"{old!r} stands in no rule in force, no keyword of game.yaml and no column label, so "
                          "replacing it would change nothing" + _nearest_word(old, kept), field=field)


def _nearest_word(word: str, rules: list[Any]) -> str:
    """"; did you mean X?" for the words standing whole in ``rules`` (as the Address would find them), as many as
    ``word`` has, nearest it; or ""."""
    import difflib

    token = r"\w+(?:[.'\u2019-]\w+)*\.?"
    phrase = re.compile(r"(?<!\w)(?=(" + token + r"(?: " + token + r"){" + str(len(word.split()) - 1) + r"}))")
    found: set[str] = set()
    for r in rules:
        for text in (r.title, r.body):
            for m in phrase.finditer(text):
                found.update((m.group(1), m.group(1).rstrip(".")))
    close = difflib.get_close_matches(word, sorted(found), n=5, cutoff=0.6)
    standing = [c for c in close if any(_holds(r, keyword_pattern({c: c})) for r in rules)]
    return did_you_mean(word, standing, repr)


def _holds(rule: Any, pattern: re.Pattern[str] | None) -> bool:
    """Whether a keyword's pattern finds it in the rule's text or title."""
    return pattern is not None and bool(pattern.search(rule.body) or pattern.search(rule.title))


def _core_words(ctx: Ctx, o: dict) -> list[str] | None:
    """The words an Address replaces in the core rules too (seed 003 rule 9), as renamed by earlier Addresses; None
    when every keyword is replaced in every rule (seed 001 1.9)."""
    if o["ascension_core_words"] is None:
        return None
    return ctx.doc("dynasty").get("ascension_words", o["ascension_core_words"])


def _named(word: str, core_words: list[str]) -> bool:
    """Whether rule 9 names the word, in any case: the rules write "muffin" as well as "Muffin"."""
    return word.casefold() in {w.casefold() for w in core_words}


def _ascend(ctx: Ctx) -> None:
    o = opts(ctx)
    core_words = _core_words(ctx, o)
    dynasty = ctx.edit("dynasty")
    dynasty["awaiting_ascension"] = False
    dynasty["theme"] = ctx.params["theme"]
    when = format_time(ctx.at)
    by = f"Ascension Address of {ctx.actor}"
    rules = ctx.tx.edit_rules()
    for rid in ctx.params.get("repeal", []):
        rules[rid].meta["status"] = "repealed"
        rules[rid].meta.setdefault("history", []).append({"event": "repealed", "by": by, "at": when})
    replace = ctx.params.get("keywords", {})
    if replace:
        config = ctx.tx.edit_config()
        for key, value in list(config.get("keywords", {}).items()):
            for old, new in replace.items():
                if value == old:
                    config["keywords"][key] = new
        pattern = keyword_pattern(replace)
        # seed 003 rule 9: the words it names are replaced in every rule, any other keyword only in the rules over 9
        # (rule 1: rules 1-9 are the core); seed 001 1.9 replaces any keyword in every rule (no list)
        core_pattern = pattern if core_words is None else keyword_pattern(
            {k: v for k, v in replace.items() if _named(k, core_words)})
        for r in rules.values():
            if r.meta.get("status") != "active":
                continue
            r_pattern = core_pattern if r.meta.get("section") in o["core_sections"] else pattern
            if r_pattern is None:
                continue
            new_body = r_pattern.sub(lambda m: replace[m.group(1)], r.body)
            new_title = r_pattern.sub(lambda m: replace[m.group(1)], r.title)
            if new_body != r.body or new_title != r.meta.get("title"):
                r.body = new_body
                r.meta["title"] = new_title
                r.meta.setdefault("history", []).append({"event": "amended", "by": by, "at": when,
                                                         "note": "keywords replaced"})
        if core_words is not None and any(w in replace for w in core_words):
            # rule 9's own text now names the new terms: those are the words a later Address may replace in the core
            # (each once, as in the rules; two words given one term are listed once)
            dynasty["ascension_words"] = list(dict.fromkeys(replace.get(w, w) for w in core_words))
        # the GNDT's column labels are the game's words too (seed 003 rule 9 names "Stuffs", a column): a label
        # holding a keyword as a whole word is renamed as the rules are; the stat's own key stays
        defs = ctx.doc("roster").get("stats") or {}
        labels = {k: pattern.sub(lambda m: replace[m.group(1)], str(d["label"]))
                  for k, d in defs.items() if d.get("label")}
        renamed = {k: v for k, v in labels.items() if v != defs[k]["label"]}
        if renamed:
            stats = ctx.edit("roster")["stats"]
            for k, v in renamed.items():
                stats[k]["label"] = v
            ctx.step({"labels": renamed})
    if o["ascension_renumbers"]:
        active = sorted((r for r in rules.values() if r.meta.get("status") == "active"),
                        key=lambda r: _number_key(r.number))
        for i, r in enumerate(active, start=1):
            if str(r.meta.get("number")) != str(i):
                # seed 003 rule 9: the remaining rules are renumbered in sequence. Written as a string, as every rule
                # file writes its number (rule.schema.json allows both, but an integer here would mix the two)
                r.meta["number"] = str(i)
                r.meta.setdefault("history", []).append({"event": "renumbered", "by": by, "at": when})
    proposals = ctx.edit("proposals")
    for p in proposals["proposals"]:
        if p["id"] in ctx.params.get("veto", []):
            p["status"] = "failed"
            p["resolved"] = {"by": ctx.actor, "at": when, "result": "vetoed",
                             "reason": "vetoed in the Ascension Address"}


def keyword_pattern(replace: dict[str, str]) -> re.Pattern[str] | None:
    """The keywords of an Address, each matched where it stands as a whole word: no letter, digit or underscore
    touches either end (longest first, so "GRAND POOBAH" wins over "GRAND"). None when there are none.

    Not ``\\b``: seed 003 rule 9 names "A.E." among the words an Address may replace, and ``\\b`` after its final
    dot would need a letter to follow, so "0 A.E. at" (or "A.E." at the end of a line) kept the old word."""
    if not replace:
        return None
    words = "|".join(re.escape(k) for k in sorted(replace, key=len, reverse=True))
    return re.compile(r"(?<!\w)(" + words + r")(?!\w)")


def _number_key(number: str) -> tuple:
    """A rule number in the Ruleset's order, for seed 003 rule 9's renumbering "in sequence": numerals compared as
    numbers (22.9 before 22.10) and a rule a proposal numbered "18a" right after 18, as the wiki's ruleset page and
    the Quazie Hands order them. Each part read as a number or else 0 put "18a" before rule 1, so the Address
    renumbered it 1 and pushed the core rules up to 2-10, rule 9 among the rules over 9."""
    parts = re.findall(r"\d+|[^\d.]+", str(number))
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in parts)


ASCEND = Action(
    name="core.ascend",
    done="ascended",
    rule=RULE,
    summary="Post the Ascension Address: theme, repeals, new keywords, vetoes; Hiatus ends",
    params={"type": "object", "required": ["theme"], "additionalProperties": False,
            "properties": {"theme": not_blank({"type": "string", "maxLength": 200,
                                               "description": "the new dynasty's theme, in words"}),
                           "repeal": {"type": "array", "items": {"type": "string"}, "maxItems": 200,
                                      "uniqueItems": True,
                                      "description": "the ids of the dynastic rules to repeal"},
                           # seed 001 1.9 / seed 003 rule 9: keywords replaced by new terms; a keyword is a word
                           # (or words), so neither it nor its new term may be empty or start or end with a blank:
                           # an empty key would match at every word boundary of every rule; nor may either be
                           # only invisible characters (a zero-width space): blank as NOT_BLANK says, it names nothing
                           "keywords": {"type": "object", "maxProperties": 20,
                                        "description": "each keyword replaced by its new term (Player: Muffin)",
                                        "propertyNames": {"maxLength": 60, "pattern": KEYWORD,
                                                          "description": KEYWORD_IS,
                                                          "allOf": [{"pattern": NOT_BLANK}]},
                                        "additionalProperties": {"type": "string", "maxLength": 60,
                                                                 "pattern": KEYWORD, "description": KEYWORD_IS,
                                                                 "allOf": [{"pattern": NOT_BLANK}]}},
                           "veto": {"type": "array", "items": {"type": "integer"}, "maxItems": 50,
                                    "uniqueItems": True,
                                    "description": "the numbers of the pending proposals to veto"}}},
    who=LEADER,
    check=_ascend_check,
    ready=_ascend_ready,
    effect=_ascend,
    in_hiatus=True,
    doc="`repeal` lists the ids of the dynastic rules to repeal, `keywords` maps each word in use to its new term "
        "(`keywords=\"{OLD: NEW, OLDS: NEWS}\"`, each word as the rules write it), and `veto` (the Quazie game only) "
        "the numbers of "
        "pending proposals to veto.",
)


def _pass_ready(ctx: Ctx) -> Iterator[str]:
    if not opts(ctx)["leader_may_pass"]:
        # seed 003 rule 9 (and rule 1: the gamestate changes only as a rule permits): the winner of the dynasty
        # is its new leader, with no provision to hand the role on; handing it on is Ruleset 75's (seed 001 1.9)
        yield f"this game's rules do not let the new {ctx.keyword('leader', 'leader')} pass the role on"
        return
    dynasty = ctx.doc("dynasty")
    if not dynasty.get("awaiting_ascension"):
        yield "leadership may be passed on only between a passing DoV and its Ascension Address"
        return
    winner = (dynasty.get("past") or [{}])[-1].get("winner")
    if winner is not None and ctx.actor != winner:
        # seed 001 1.9: "that Colonist", the maker of the passing DoV, may pass the role, once; whoever it was
        # handed to leads the dynasty and posts the Address, but may not hand it on again
        yield f"only {winner}, whose DoV passed, may pass the role on; {ctx.actor} received it"


def _pass_check(ctx: Ctx) -> Iterator[str]:
    yield from _pass_ready(ctx)
    if not opts(ctx)["leader_may_pass"] or not ctx.doc("dynasty").get("awaiting_ascension"):
        return
    to = ctx.player(ctx.params["to"])
    if to is None:
        yield f"there is no player {ctx.params['to']!r}"
    elif to["name"] == ctx.actor:
        # seed 001 1.9: the role may be passed to *another* Colonist; naming oneself hands nothing on
        yield f"{ctx.actor} already leads; the role may be passed only to another player"
    elif to.get("kind"):
        yield f"{ctx.params['to']} is not a player (a {to['kind']}); leadership passes to another player"
    elif to.get("idle"):
        # seed 001 1.2: for rule 1.9 idle players are not counted as players, so the role cannot go to one
        yield f"{ctx.params['to']} is idle; leadership passes to a player who is not idle"


def _pass(ctx: Ctx) -> None:
    d = ctx.edit("dynasty")
    d["leader"] = ctx.params["to"]
    d["title"] = f"The {_ordinal(ctx, ctx.params['to'])} Dynasty of {ctx.params['to']}"


PASS_LEADERSHIP = Action(
    name="core.pass-leadership",
    rule=RULE,
    summary="The winner hands the new dynasty's leadership to another player",
    params={"type": "object", "required": ["to"], "additionalProperties": False,
            "properties": {"to": {"$ref": "common.schema.json#/$defs/name",
                                  "description": "the player who is to lead the new dynasty"}}},
    who=LEADER,
    check=_pass_check,
    ready=_pass_ready,
    effect=_pass,
    in_hiatus=True,
)


def _remove_idle_now(ctx: Ctx) -> Iterator[str]:
    boss = ctx.keyword("leader", "leader")
    if not opts(ctx)["remove_idle_after_win"]:
        # seed 001 1.9 has no such power; 1.2 lets a Colonist leave, and fair play (1.10) needs a proposal or CfJ
        yield "this game's rules let nobody remove idle players when a dynasty is won"
        return
    dynasty = ctx.doc("dynasty")
    if not dynasty.get("awaiting_ascension") or not dynasty.get("past"):
        # seed 003 rule 9: the removal is part of what follows the win, before the Ascension Address ends the Hiatus
        yield (f"idle players may be removed only between a passing DoV and the {boss}'s Ascension Address, "
               "when the dynasty has been won")


def _remove_idle_ready(ctx: Ctx) -> Iterator[str]:
    now = list(_remove_idle_now(ctx))
    yield from now
    if not now and not idle_throughout(ctx):  # the check refuses every player named: not one of these
        yield f"no player was idle throughout {ctx.doc('dynasty')['past'][-1]['title']}"


def _remove_idle_check(ctx: Ctx) -> Iterator[str]:
    now = list(_remove_idle_now(ctx))
    if now:
        yield from now
        return
    won = ctx.doc("dynasty")["past"][-1]
    name = ctx.params["player"]
    target = ctx.player(name)
    if target is None:
        yield f"there is no player {name!r}"
        return
    if target.get("kind"):
        yield f"{name} is not a player (a {target['kind']})"
        return
    if not target.get("idle"):
        yield f"{name} is not idle"
        return
    since = target.get("idle_since")
    if not since:
        yield (f"there is no record of when {name} went idle, so nothing shows they were idle throughout "
               f"{won['title']}")
        return
    if parse_time(since) > parse_time(won["started"]):
        yield (f"{name} has been idle since {since}, after {won['title']} began ({won['started']}); only players "
               "idle throughout the dynasty may be removed")


def idle_throughout(state: Any) -> list[str]:
    """The players the leader may remove now under seed 003 rule 9 (for ``nomic due``)."""
    dynasty = state.doc("dynasty")
    past = dynasty.get("past") or []
    if not opts(state)["remove_idle_after_win"] or not dynasty.get("awaiting_ascension") or not past:
        return []
    start = parse_time(past[-1]["started"])
    return [p["name"] for p in state.doc("roster")["players"]
            if p.get("idle") and not p.get("kind") and p.get("idle_since") and parse_time(p["idle_since"]) <= start]


def _remove_idle(ctx: Ctx) -> None:
    name = ctx.params["player"]
    since = (ctx.player(name) or {}).get("idle_since")
    remove_player(ctx, name, removed_by=ctx.actor)
    ctx.step({"removed": name, "idle_since": since})


REMOVE_IDLE = Action(
    name="core.remove-idle",
    rule=RULE,
    summary="The new leader removes a player who was idle throughout the dynasty just won",
    params={"type": "object", "required": ["player"], "additionalProperties": False,
            "properties": {"player": {"$ref": "common.schema.json#/$defs/name",
                                      "description": "the player idle throughout the dynasty to remove"}}},
    who=LEADER,
    check=_remove_idle_check,
    ready=_remove_idle_ready,
    effect=_remove_idle,
    in_hiatus=True,
    # seed 003 rule 9: when a Dynasty has been won, Muffins idle throughout it may be removed from the game at the
    # GRAND POOBAH's discretion; the Dynasty has ended, so that is the new GRAND POOBAH (the winner, dynasty.leader)
    doc="Quazie only: between the passing DoV and the Ascension Address, the new leader may remove from the game "
        "a player who has been idle since before the won dynasty began (`idle_since` no later than its start). "
        "They join the former players, marked as removed.",
)


# seed 001 "Victory and Ascension" (1.9) / seed 003 rule 9: the Hiatus and the short list of rules whose actions go
# on in it are that rule's; repealed, the gate is not asked (and ``in_hiatus`` says no Hiatus either)
@ruled(RULE)
def hiatus_gate(ctx: Ctx) -> Iterator[str]:
    """During Hiatus only the actions of the listed core rules may be taken."""
    if not in_hiatus(ctx):
        return
    allowed = set(opts(ctx)["hiatus_rules"])
    tag = HIATUS_TAGS.get(ctx.action.name)
    if tag == "always" or (tag in allowed):
        return
    yield Problem(f"the game is in Hiatus; {ctx.action.name} may not be taken until it ends", rule=RULE)


HIATUS_TAGS = {
    # leaving, renaming and correcting typos are allowed "at any time" (seed 001 1.2 and 1.1; seed 003 rules 2 and
    # 1), which the narrower list of actions allowed in a Hiatus (seed 003 rule 9: CfJs only) does not take away
    "core.join": "players", "core.leave": "always", "core.idle": "players", "core.unidle": "players",
    "core.resign-admin": "players", "core.rename": "always",
    "core.vote": "voting",
    "core.cfj": "cfj", "core.cfj-vote": "cfj", "core.cfj-resolve": "cfj",
    "core.dov": "victory", "core.dov-vote": "always", "core.dov-resolve": "always",
    "core.ascend": "always", "core.pass-leadership": "always", "core.remove-idle": "always", "engine.tick": "always",
    "core.typo": "always", "engine.commit": "always", "engine.reveal": "always",
    # withdrawing a post (seed 001 1.7, seed 003 rule 7): a proposal under Gamestate Tracking, which Ruleset 75's
    # Hiatus allows and Quazie's does not; a CfJ with the CfJs; a DoV at any time, as voting on it and resolving it
    # are, since it is the DoV that holds the game in Hiatus
    "core.withdraw": "tracking", "core.cfj-withdraw": "cfj", "core.dov-withdraw": "always",
    # altering one (the same rules) goes with withdrawing it
    "core.alter": "tracking", "core.cfj-alter": "cfj", "core.dov-alter": "always",
}

ACTIONS = [DECLARE, DOV_VOTE, DOV_RESOLVE, ASCEND, PASS_LEADERSHIP, REMOVE_IDLE]
