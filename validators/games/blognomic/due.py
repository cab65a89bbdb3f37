"""The admin's desk for the BlogNomic core rules: what can be done now, and from when."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from ...engine import Action, Open, State, withdrawn
from ...registry_ctx import ctx_at
from ...timeutil import format_time, parse_time
from . import judgment, players, proposals, victory
from .common import author_counts_for, in_hiatus, leader, opts, quiet_since, tally
from .proposals import decision_marks, enact_now_reason, failable_reason


def repealed_resolution(state: State, action: Action) -> str | None:
    """Why nobody may resolve a pending item while the rule that makes ``action`` is repealed, or None.

    A proposal that repeals 1.5 Enactment (1.6 Calls for Judgment, 1.9 Victory and Ascension; seed 003 rules 5, 6,
    9) takes ``core.enact`` and ``core.fail`` (``core.cfj-resolve``, ``core.dov-resolve``) out of the game
    (``engine.withdrawn``): what is pending stays so. The admin's desk and the wiki say that, not that an admin
    may resolve it now (before, they did, while the action was refused)."""
    gone = withdrawn(state, action)
    return None if gone is None else f"the rule that lets an admin resolve it, {gone.cite()}, has been repealed"


def _when(test, start: datetime, marks: list[datetime]) -> datetime | None:
    """The first of ``marks`` (times the answer can change, with no new votes) at which ``test`` holds."""
    for t in sorted(m for m in marks if m >= start):
        if test(t):
            return t
    return None


def due(state: State, now: datetime) -> list[str]:
    lines: list[str] = []
    o = opts(state)
    pending = sorted((p for p in state.doc("proposals")["proposals"] if p["status"] == "pending"),
                     key=lambda p: (p["submitted"], p["id"]))
    stuck = repealed_resolution(state, proposals.ENACT) if pending else None
    if stuck:
        lines.append(f"proposal {pending[0]['id']} (the oldest pending) stays pending: {stuck}")
    elif pending and not in_hiatus(state):
        p = pending[0]
        marks = [now, *decision_marks(state, p)]
        # seed 001 1.5: the votes allow it, and its effects can be applied (else the admin fails it instead)
        enact = _when(lambda t: enact_now_reason(state, p, t) is not None, now, marks)
        fail = _when(lambda t: failable_reason(state, p, t) is not None, now, marks)
        if enact == now:
            lines.append(f"an admin may enact proposal {p['id']} now: {enact_now_reason(state, p, now)}")
        elif fail == now:
            lines.append(f"an admin may fail proposal {p['id']} now: {failable_reason(state, p, now)}")
        else:
            if enact:
                lines.append(f"proposal {p['id']} may be enacted from {format_time(enact)} if the votes stand")
            if fail:
                lines.append(f"proposal {p['id']} may be failed from {format_time(fail)} if the votes stand")
            if not enact and not fail:
                lines.append(f"proposal {p['id']} (the oldest pending) needs more votes")
    for c in state.doc("cfjs")["cfjs"]:
        if c["status"] == "pending":
            stuck = repealed_resolution(state, judgment.CFJ_RESOLVE)
            if stuck:
                lines.append(f"CfJ {c['id']} stays pending: {stuck}")
                continue
            ctx = ctx_at(state, now)
            ok, why = judgment.status(ctx, c)
            line = f"CfJ {c['id']}: " + (f"an admin may resolve it now ({why})" if ok else why)
            if o["cfj_fail_without_effect"] and not judgment.has_effect(ctx, c.get("effects")):
                # seed 001 1.6: a CfJ that changes neither the ruleset nor the gamestate may be failed at any time
                line += ("; it has no effect on the ruleset or gamestate, so any admin may fail it now "
                         "(fail_without_effect: true)")
            lines.append(line)
    for d in state.doc("dovs")["dovs"]:
        if d["status"] == "pending":
            stuck = repealed_resolution(state, victory.DOV_RESOLVE)
            if stuck:
                lines.append(f"DoV {d['id']} stays pending: {stuck}")
                continue
            result, why = victory.dov_status(ctx_at(state, now), d)
            lines.append(f"DoV {d['id']}: " + (f"may be resolved now; it would be {result} ({why})" if result
                                                else why))
    # seed 001 1.9 / seed 003 rule 9 makes the Address and the removal of idle players; repealed, neither is due
    if state.doc("dynasty").get("awaiting_ascension") and withdrawn(state, victory.ASCEND) is None:
        lines.append(_address_line(state))
    if state.doc("dynasty").get("awaiting_ascension") and withdrawn(state, victory.REMOVE_IDLE) is None:
        idle = victory.idle_throughout(state)
        if idle:
            lines.append(f"{leader(state)} may remove from the game, as idle throughout the dynasty won: "
                         f"{', '.join(idle)} (core.remove-idle)")
    if in_hiatus(state) and victory.HIATUS_TAGS["core.idle"] not in o["hiatus_rules"]:
        # seed 003 rule 9: in Hiatus only CfJs go on, so no admin may idle anybody until it ends (hiatus_gate);
        # Ruleset 75's Hiatus allows 1.2, its idling included
        return lines
    if withdrawn(state, players.IDLE) is not None:
        return lines  # seed 001 1.2 / seed 003 rule 2 makes the idling; repealed, core.idle is refused
    days = o["idle_after_days"]
    for p in state.doc("roster")["players"]:
        if p.get("idle") or p.get("kind"):
            continue
        last, what = quiet_since(state, p)  # as core.idle reads it (players.py)
        gap = now - parse_time(last)
        # as core.idle judges it (players.py): seed 003 rule 2 asks *more than* a week without a vote; seed 001 1.2
        # a week or more without an action
        if gap > timedelta(days=days) if o["idle_basis"] == "votes" else gap >= timedelta(days=days):
            if o["idle_basis"] != "votes":
                lines.append(f"an admin may make {p['name']} idle ({what} {last})")
            else:
                did = f"last voted {last}" if what == "voted" else f"{what} {last}, no vote since"
                lines.append(f"an admin may make {p['name']} idle ({did})")
    return lines


def _address_line(state: State) -> str:
    """Who the Hiatus waits for: the new leader's Ascension Address (seed 001 1.9, seed 003 rule 9).

    A new leader who went idle after their DoV passed still heads the dynasty (1.2 counts idle Colonists for
    1.8), but may neither post the Address nor hand the role on (1.9, where idle Colonists do not count): the
    Hiatus waits for their return, which Ruleset 75's 1.2 allows in Hiatus (after 4 days if they asked to go idle),
    or for a CfJ, which both variants allow in Hiatus, to name another leader (our reading). The same CfJ is the
    way on when the new leader has left.
    """
    boss = leader(state)
    me = state.player(boss) if boss else None
    if me is None:
        return ("the Ascension Address is awaited, but the dynasty has no leader to post it: a CfJ may name one "
                "(/dynasty/leader)")
    if not me.get("idle"):
        return f"{boss} may post the Ascension Address (core.ascend)"
    back = ("they may come back (core.unidle) and post it, or " if "players" in opts(state)["hiatus_rules"]
            else "")
    return (f"the Ascension Address waits for {boss}, who is idle and may not post it while idle: {back}a CfJ may "
            "name another leader (/dynasty/leader)")


def fresh_list(key: str):
    def fresh(doc: Any, founded: datetime) -> Any:
        return {"next": 1, key: []}
    return fresh


def fresh_dynasty(doc: Any, founded: datetime) -> Any:
    # a new game's first dynasty begins at its founding, not when the example's began: what a dynasty's time is
    # asked of (seed 001 "Dynasties"; seed 003 rule 9, idle throughout the dynasty) is counted from its start
    return {"number": 1, "leader": None, "title": "The First Dynasty", "started": format_time(founded)}


# (document and its list, what the front page calls one, the page of one as the wiki names it under the game)
_VOTED = (("proposals", "Proposal", "proposals/{}"), ("cfjs", "Call for Judgment", "proposals/cfj-{}"),
          ("dovs", "Declaration of Victory", "proposals/dov-{}"))


def open_votes(state: State, now: datetime | None = None) -> list[Open]:
    """The proposals, Calls for Judgment and Declarations of Victory pending now (seed 001 1.4: what players vote
    on), each kind oldest first, for the game's front page; each links to its own page in the wiki. One still
    pending that takes no more votes says why (``Open.over``), at ``now`` (the build's, as the Proposals page judges
    its verdicts; the game's clock if none or earlier): a CfJ that reached Quorum or whose days passed (seed 001 1.6,
    seed 003 rule 6: ``judgment.time_up``), a DoV already decided (rule 9)."""
    out: list[Open] = []
    ctx = None
    for doc, kind, page in _VOTED:
        if doc not in state.docs:
            continue
        pending = sorted((x for x in state.doc(doc)[doc] if x["status"] == "pending"),
                         key=lambda x: (x["submitted"], x["id"]))
        for x in pending:
            over = ""
            if doc in ("cfjs", "dovs"):
                if ctx is None:
                    clock = parse_time(state.docs["ledger"]["clock"])
                    ctx = ctx_at(state, max(clock, now) if now is not None else clock)
                if doc == "cfjs":
                    over = judgment.time_up(ctx, x) or ""
                elif victory.decided(ctx, x):
                    over = f"it is decided: {victory.quazie_decided(ctx, x)}"
            # the votes as the tally counts them (the Proposals page's, nomic due's "2 of 4 votes FOR"): a proposer
            # who has not voted counts FOR (seed 001 1.4), an idle voter's vote does not, DEFERENTIAL follows the leader
            proposal = doc == "proposals"
            t = tally(state, x, implicit_author=proposal)
            split = f"{t.for_} FOR, {t.against} AGAINST"
            if proposal and str(x["author"]) in t.counted and author_counts_for(state, x):
                split += ", the proposer's FOR among them"
            if t.abstain:
                split += f", {t.abstain} abstaining"
            out.append(Open(kind, x["id"], str(x.get("title") or ""), str(x["author"]), str(x["submitted"]),
                            t.valid, page.format(x["id"]), over=over, split=split))
    return out
