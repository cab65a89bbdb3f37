"""Joining, leaving, going idle and coming back (seed 001 rule 1.2; seed 003 rule 2); an admin stepping down.

Where a rule says an admin does something at a player's request (adding a new
player, de-idling one), the player files the action in a pull request and an
admin's merge performs it; the engine checks what the rule requires of it.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Iterator

from ...engine import ADMIN, NEWCOMER, PLAYER, Action, Ctx, peek, repealed
from ...problems import Problem
from ...roster import (
    Entry,
    bar_on,
    fold,
    given_names,
    new_stats,
    rename_in_list,
    rename_key,
    rename_player,
    rename_problems,
    same_players,
    unrenamable,
    used_names,
    welcome_back,
)
from ...timeutil import format_time, parse_time
from .common import FAIR_PLAY, VICTORY, holding_bars, note_return, opts, quiet_since, refusal_of

RULE = "players"
RULE_VOTING = "voting"


def barred_returns(before: list[Entry], bars: list[dict[str, Any]], roster: Any) -> Iterator[str]:
    """Seed 001 1.10: the players a proposal's or CfJ's patch brought onto the roster (added, or renamed: a name or
    account not there before) under a name or account barred before it, and still barred after it."""
    known = {(name, account) for name, account, *_ in before}
    standing = [b for b in bars if b in (roster.get("barred") or [])]
    for p in peek(roster["players"]):
        if (p["name"], p.get("account")) in known:
            continue
        b = bar_on(standing, p["name"], p.get("account"))
        if b is not None:
            by = f" by {b['by']}" if b.get("by") else ""
            yield (f"they bring {p['name']} onto the roster, but {b['name']} is barred from rejoining the game{by}; "
                   f"lift the bar in the same effects (remove /roster/barred/name={b['name']})")


def _join_check(ctx: Ctx) -> Iterator[str | Problem]:
    roster = ctx.doc("roster")
    key = fold(ctx.actor)
    for p in roster["players"]:
        if fold(p["name"]) == key:
            yield f"the name {ctx.actor!r} is too like {p['name']!r}, who is already playing"
        for f in p.get("formerly", []):
            if fold(f["name"]) == key:
                # a name a player gave up stays theirs (seed 003 rule 2): the log's files under it are their actions
                yield f"the name {ctx.actor!r} is too like {f['name']!r}, the former name of {p['name']}"
        if ctx.params.get("account") and p.get("account", "").lower() == ctx.params["account"].lower():
            yield f"the account {ctx.params['account']} already plays as {p['name']}"
    account = ctx.params["account"].lower()
    for b in holding_bars(ctx, roster.get("barred")):
        # seed 001 1.10: a proposal or CfJ may remove a player who broke fair play and bar them from rejoining; the
        # bar is on the person, so their name and their forge account are both refused. The refusal cites 1.10, the
        # rule that makes the bar, not 1.2's joining (the action's own rule, cited where a game has no 1.10)
        by = f" by {b['by']}" if b.get("by") else ""
        if fold(b["name"]) == key:
            yield refusal_of(ctx, FAIR_PLAY, f"{b['name']} is barred from rejoining the game{by}")
        elif b.get("account") and b["account"].lower() == account:
            yield refusal_of(ctx, FAIR_PLAY, f"the account {ctx.params['account']} is barred from rejoining the "
                                             f"game{by} (as {b['name']})")
    for f in roster.get("former", []):
        # seed 001 1.2 (and 1.10, one person one player): the actions filed under a departed player's name, or
        # under a name they gave up before leaving, are theirs; only they (their account) may come back under it,
        # so another newcomer would be taken for them. A record that names no account tells nobody apart, so its
        # names are refused to every newcomer until a proposal or CfJ writes the account on it (our reading)
        if f.get("account") and f["account"].lower() == account:
            names = [f["name"], *(g["name"] for g in f.get("formerly", []))]
            if key not in {fold(n) for n in names} and not opts(ctx)["rename_by_player"]:
                # seed 001 1.2: a Colonist's name changes only by a proposal approving it. The account is the person
                # (1.10), so coming back with it is that player coming back, under a name of theirs
                yield (f"the account {ctx.params['account']} left the game as {f['name']}; they come back under "
                       f"{' or '.join(repr(n) for n in names)}: in this game a "
                       f"{ctx.keyword('player', 'player')}'s name changes only by a proposal approving the change")
            continue
        given_up = [(g["name"], f"a former name of {f['name']}, a player who left") for g in f.get("formerly", [])]
        for n, what in [(f["name"], "a player who left"), *given_up]:
            if fold(n) != key:
                continue
            if f.get("account"):
                yield (f"the name {ctx.actor!r} is too like {n!r}, {what} (account {f['account']}); only they may "
                       "join again under it")
            else:
                yield (f"the name {ctx.actor!r} is too like {n!r}, {what}; the record of their departure names no "
                       "account, so nothing shows that you are them (a proposal or CfJ may write their account on it, "
                       f"/roster/former/name={f['name']}/account, and they may then join again under it)")
    for name, whose in given_names(ctx):
        # a name a module gave to a being it took off the roster (Settlement's dead Outsiders) stays given: the log's
        # files under it are that being's
        if fold(name) == key:
            yield f"the name {ctx.actor!r} is too like that of {whose}; a name stays with the one who had it"


def _join(ctx: Ctx) -> None:
    roster = ctx.edit("roster")
    player = {"name": ctx.actor}
    if ctx.params.get("account"):
        player["account"] = ctx.params["account"]
    player.update({"admin": False, "idle": False, "joined": format_time(ctx.at), "stats": new_stats(roster["stats"])})
    kept = welcome_back(ctx, ctx.actor, account=ctx.params.get("account"))
    if kept:
        player["formerly"] = kept
    roster["players"].append(player)
    ctx.step({"joined": ctx.actor})


JOIN = Action(
    name="core.join",
    rule=RULE,
    summary="Join the game (an admin's merge of the pull request adds you to the roster)",
    params={"type": "object", "required": ["account"], "additionalProperties": False,
            "properties": {"account": {"$ref": "common.schema.json#/$defs/account",
                                       "description": "your forge account, the one your pull requests come from"}}},
    who=NEWCOMER,
    check=_join_check,
    effect=_join,
    in_hiatus=True,
    doc="The newcomer files this with their own forge account; they start with every stat at its default. A name "
        "or account a proposal or CfJ barred from rejoining (Ruleset 75 1.10, `roster.barred`) is refused, and so is "
        "a name of a player who left unless the account is the one their record of departure names.",
)


def drop_votes(ctx: Ctx, who: str) -> None:
    """Seed 001 1.4 / seed 003 rule 4: the votes of a player who leaves or goes idle no longer count.

    They are removed from every pending proposal, CfJ and DoV, so they do not count again on return. The
    comment that carried the vote stays on the post, so the voter is kept in ``lapsed_votes``: seed 001 1.7 /
    seed 003 rule 7 let an author withdraw a post only while nobody has commented on it.

    Seed 001 "Voting" (1.4) / seed 003 rule 4 is what makes the vote lapse, in the actions of other rules (leaving
    and going idle, 1.2; a proposal's removal): once it is repealed, the votes stay where they were cast.
    """
    if repealed(ctx, RULE_VOTING) is not None:
        return
    for kind, key in (("proposals", "proposals"), ("cfjs", "cfjs"), ("dovs", "dovs")):
        doc = ctx.doc(kind)
        if any(item["status"] == "pending" and who in item.get("votes", {}) for item in doc[key]):
            for item in ctx.edit(kind)[key]:
                if item["status"] == "pending" and who in item.get("votes", {}):
                    del item["votes"][who]
                    lapsed = item.setdefault("lapsed_votes", [])
                    if who not in lapsed:
                        lapsed.append(who)


def remove_player(ctx: Ctx, who: str, removed_by: str | None = None, account: str | None = None) -> None:
    """Take ``who`` off the roster into ``former``: leaving (seed 001 1.2, seed 003 rule 2), or being removed.
    (``account``: theirs, when a proposal's patch has already taken their entry off.)"""
    drop_votes(ctx, who)
    if ctx.doc("dynasty").get("leader") == who:
        ctx.edit("dynasty")["leader"] = None  # "if there is no Expedition Leader" (1.4) then applies
    roster = ctx.edit("roster")
    me = ctx.player(who)
    if me is None:  # a proposal's patch took the entry off: it is as it was before the action
        me = next((p for p in peek(ctx.tx.base.doc("roster")["players"]) if p["name"] == who), None)
    roster["players"] = [p for p in roster["players"] if p["name"] != who]
    entry = {"name": who}
    account = me.get("account") if me else account
    if account:
        entry["account"] = account
    entry["left"] = format_time(ctx.at)
    if me and me.get("formerly"):
        # the names they gave up stay theirs once they have left (used_names, core.join): the log's files under them
        # are their actions
        entry["formerly"] = [dict(g) for g in peek(me["formerly"])]
    if removed_by:
        entry["removed_by"] = removed_by
    roster.setdefault("former", []).append(entry)


def _leave(ctx: Ctx) -> None:
    remove_player(ctx, ctx.actor)


# ---------------------------------------------------------------- a proposal's patch on the roster
#
# Seed 001 1.2: a Colonist's name changes when a proposal approving it is enacted, and any proposal (or CfJ) may
# take a player out of the game. Its effects are a JSON Patch on the roster, which knows nothing of votes or of
# the ledger; so what the core's own actions do on a change of name (``core.rename``) or a departure
# (``core.leave``) is done here after the patch: an entry that now carries another name (``same_players`` says
# which entry was whom) is that player renamed, everywhere; an entry that is gone is that player removed.

Marks = tuple[list[Entry], list[dict[str, Any]], dict[str, Any], Any, dict[str, tuple[str | None, str]],
              dict[str, list[dict[str, Any]]]]


def open_bar_list(ctx: Ctx, effects: dict[str, Any] | None) -> None:
    """Give the roster an empty ``barred`` list when ``effects`` write into it and it has none, so that a patch
    may always append a bar (``add /roster/barred/-``) whether or not anybody was barred before; an empty list
    left over is dropped again by ``follow_roster_patch``."""
    if "barred" in ctx.doc("roster"):
        return
    if any(str(op.get(k, "")).startswith("/roster/barred/") for op in (effects or {}).get("gamestate", [])
           for k in ("path", "from")):
        ctx.edit("roster")["barred"] = []


def roster_marks(ctx: Ctx, effects: dict[str, Any] | None = None) -> Marks:
    """Who is on the roster, as (name, account, joined, kind), the bars, who is idle (name -> their
    ``idle_since``), who leads, every name the game has given (``used_names``) and the records of the players who
    left, under each of their names (``comebacks``): taken before a proposal's effects apply (``effects``: those
    about to apply, for ``open_bar_list``)."""
    open_bar_list(ctx, effects)
    roster = ctx.doc("roster")
    return ([(p["name"], p.get("account"), p.get("joined"), p.get("kind")) for p in peek(roster["players"])],
            [dict(b) for b in peek(roster.get("barred", []))],
            {p["name"]: p.get("idle_since") for p in peek(roster["players"]) if p.get("idle")},
            ctx.doc("dynasty").get("leader"),
            used_names(ctx),
            comebacks(roster))


def comebacks(roster: Any) -> dict[str, list[dict[str, Any]]]:
    """Seed 001 1.2: each name of a player who left (the one they left under and those they had given up), folded
    -> the records of departure under it, copied as they are before a proposal's or CfJ's patch (one copy per
    record, under each of its names). Only the account of such a record may come back under the name
    (``taken_names``), and a patch that takes the record off while adding the player back still brings back the
    names it held (``_follow_returns``)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for f in peek(roster.get("former", [])):
        record = {**f, "formerly": [dict(g) for g in peek(f.get("formerly", []))]}
        for name in [f["name"], *(g["name"] for g in record["formerly"])]:
            out.setdefault(fold(name), []).append(record)
    return out


def taken_names(before: list[Entry], used: dict[str, tuple[str | None, str]], back: dict[str, list[dict[str, Any]]],
                roster: Any) -> Iterator[str]:
    """Seed 001 1.2: a Colonist's name changes as a result of a proposal (or a CfJ) approving it. Each player a
    patch renamed (an entry now under another name than it had before, ``same_players``: its account may have
    changed too) must get a name the game can give, as ``core.rename`` and ``core.join`` ask: not one that folds
    (case and spacing aside) to a name a player of the game has had (``used``: ``used_names`` before the patch: a
    current player's, one given up, one of a player who left), unless it was their own. Otherwise two players would
    share a name (the roster refuses that, and the proposal could be neither enacted nor failed), the log's files
    under that name would be taken for the new holder's, or two players who swapped names would swap everything
    kept by name (votes, the leadership, the ledger's limits and dice) with nothing renamed.

    Each entry a patch added (``same_players`` maps it to nobody) is a newcomer (1.2: anybody not playing may
    join) and must have a name ``core.join`` would give it, for the same reasons: none of those names, except that a
    player who left may come back under their own (``back``: ``comebacks`` before the patch) with the account their
    record of departure names; a record that names none lets nobody have its names, unless the same effects write on
    it the account the entry comes back with."""
    same = same_players(before, roster)
    for name, was in same.items():
        if was[0] == name:
            continue
        old = was[0]
        owner, whose = used.get(fold(name), (old, ""))
        if owner != old:
            yield (f"they rename {old} to {name}, but that name is too like that of {whose}; a name stays "
                   "with the player who had it")
    for p in peek(roster["players"]):
        name = p["name"]
        if name in same or fold(name) not in used:
            continue
        owner, whose = used[fold(name)]
        records = back.get(fold(name)) if owner is None else None
        if records is None:
            yield (f"they add {name} to the roster, but that name is too like that of {whose}; a name stays with the "
                   "player who had it")
            continue
        accounts = {f["account"].lower() for f in records if f.get("account")}
        if not accounts <= {(p.get("account") or "").lower()}:
            yield (f"they add {name} to the roster, but that name is too like that of {whose} (account "
                   f"{', '.join(sorted(accounts))}); only they may come back under it")
            continue
        for f in records:
            # seed 001 1.2: a record that named no account before the patch tells nobody apart, as for core.join: the
            # name stays theirs unless the same effects write on the record the account the entry comes back with
            written = next((g.get("account") for g in peek(roster.get("former", [])) if g["name"] == f["name"]), None)
            mine = p.get("account")
            if not f.get("account") and not (written and mine and written.lower() == mine.lower()):
                yield (f"they add {name} to the roster, but that name is too like that of {whose}; the record of "
                       "their departure names no account, so nothing shows that the newcomer is them (effects that "
                       f"write their account on it, /roster/former/name={f['name']}/account, may bring them back)")
                break


def new_leader_problem(state: Any, before: Any) -> str | None:
    """Why the leader a proposal's or CfJ's patch named (``before``: the leader before it) may not lead, or None.

    Seed 001 1.8 / seed 003 rule 8: a dynasty is headed by a single Colonist (a Muffin). A non-player character (a
    roster entry with a ``kind``; 1.11's Outsiders count as Colonists for dynastic rules only) is none, nor is a
    name nobody on the roster has. An idle player counts for 1.8 in Ruleset 75 (1.2 names it) but not for rule 8 in
    the Quazie variant (rule 2 names only rules 1 and 2): option ``idle_may_lead``. A leader the patch leaves as it
    was is not asked about (one who went idle keeps the role). Nor is no leader, except while an Ascension Address is
    awaited (``headless_address``)."""
    boss = state.doc("dynasty").get("leader")
    if boss is None:
        return headless_address(state, before)
    who = next((p for p in peek(state.doc("roster")["players"]) if p["name"] == boss), None)
    role = state.keyword("leader", "leader")
    if boss != before:
        if who is None:
            return f"they make {boss} the {role}, but nobody of that name is on the roster"
        if who.get("kind"):
            return f"they make {boss} the {role}, but {boss} is not a player (a {who['kind']})"
        if who.get("idle") and not opts(state)["idle_may_lead"]:
            return (f"they make {boss} the {role}, but {boss} is idle, and in this game idle players do not count "
                    f"for the rule on the {role}")
    return idle_address(state, who)


def idle_address(state: Any, who: dict[str, Any] | None) -> str | None:
    """Why a proposal's or CfJ's effects that leave the leader (``who``: their entry after the effects) idle while
    the Ascension Address is awaited may not do so, or None.

    Seed 003 rules 8 and 9: after a win the Hiatus lasts until the new GRAND POOBAH posts the Address, and in it
    only CfJs go on, so an idle Muffin cannot come back (rule 2's return is no CfJ) and an idle GRAND POOBAH, who
    may not post the Address while idle (rule 2 counts idle Muffins only for rules 1 and 2), would hold the game
    in a Hiatus no action can end. Such effects (idling the leader, or naming an idle one where that is allowed)
    cannot be applied: the CfJ fails, saying that they may name another leader too. Before, they were taken, and
    only another CfJ could end the Hiatus. In Ruleset 75 (seed 001 1.9 allows 1.2's actions in a Hiatus) the idle
    leader may come back and post the Address, so nothing is refused there (``hiatus_rules`` holds "players", the
    tag of ``core.unidle``); nor when the leader was already idle with the Address awaited before the effects, or
    while 1.9 (rule 9) is repealed."""
    if who is None or not who.get("idle"):
        return None
    dynasty = state.doc("dynasty")
    if (not dynasty.get("awaiting_ascension") or "players" in opts(state)["hiatus_rules"]
            or repealed(state, VICTORY) is not None):
        return None
    was = state.tx.base.doc("dynasty")
    if was.get("awaiting_ascension") and was.get("leader") == who["name"] and any(
            p["name"] == who["name"] and p.get("idle") for p in peek(state.tx.base.doc("roster")["players"])):
        return None  # already so before the effects: they do not make it worse
    role = state.keyword("leader", "leader")
    return (f"they idle {who['name']}, the {role}, before the Ascension Address, and no idle player may return in "
            f"this Hiatus, so nothing could end it; name another {role} too")


def headless_address(state: Any, before: str | None) -> str | None:
    """Why a proposal's or CfJ's effects that leave the game with no leader (``before``: the leader before them)
    may not do so now, or None.

    Seed 001 1.8 / seed 003 rule 8: each dynasty is headed by one Colonist (Muffin); 1.9 / rule 9: after a passing
    DoV the Hiatus lasts until the new leader posts the Ascension Address, which nobody else may post. Effects that
    leave the Address awaited with no leader (the leader set to none, or the wait set on a game that has none)
    would leave a dynasty with no head and a Hiatus no action can end, so they cannot be applied: the CfJ fails
    (the admin may fail such a proposal), saying that the effects may name another leader instead. Before, they
    were taken, and the game sat in Hiatus until another CfJ named a leader. Not refused: effects that take the
    leader off the roster (1.2: a player may leave at any time; 1.6, 1.10: a CfJ may remove one), after which the
    game has no leader as after the leader's leaving, and ``nomic due`` says that a CfJ may name one (our reading:
    refusing them would let a winner keep their place by heading the dynasty); and a game already awaiting its
    Address with no leader before the effects, which they do not make worse. No leader outside the wait (a
    leaderless dynasty, 1.4's "if there is no Expedition Leader") is allowed as before. While 1.9 (rule 9) is
    repealed no Address is awaited (no Hiatus), so nothing is refused."""
    dynasty = state.doc("dynasty")
    if not dynasty.get("awaiting_ascension") or repealed(state, VICTORY) is not None:
        return None
    was = state.tx.base.doc("dynasty")
    if was.get("awaiting_ascension") and was.get("leader") is None:
        return None
    if before is not None and not any(p["name"] == before for p in peek(state.doc("roster")["players"])):
        return None  # taken off the roster by these effects: as after the leader's leaving
    role = state.keyword("leader", "leader")
    return (f"they leave the Ascension Address awaited with no {role} to post it, so nothing could end the Hiatus; "
            f"they may name another player {role} instead")


def follow_roster_patch(ctx: Ctx, before: Marks, by: str) -> None:
    """After ``by``'s effects (``by``: "proposal 4", "CfJ 2"): a player the patch renamed is renamed in every
    document (as ``core.rename`` does, without its checks: the proposal decided); one it took off leaves, their
    votes no longer counting (1.4), into ``roster.former`` with ``removed_by``. Then each bar the patch added
    (seed 001 1.10) removes the player it names if still playing, and is completed with who barred them, when,
    and their account. A player the patch made idle is idled as ``core.idle`` does it: their votes lapse (1.4); one
    it brought back is back as with ``core.unidle``."""
    players, bars, idle, boss, used, back = before
    for why in taken_names(players, used, back, ctx.doc("roster")):
        # seed 001 1.2: the proposal decides that the player changes their name, not that two players share one
        raise ctx.refuse(f"{by}'s effects cannot be applied: {why}")
    for why in barred_returns(players, holding_bars(ctx, bars), ctx.doc("roster")):
        # seed 001 1.10: a bar stands until a proposal or CfJ lifts it; the effects that would bring a barred
        # person back must lift it too, or they cannot be applied (and the proposal may be failed). The bar is Fair
        # Play's: once it is repealed (by these very effects, or before) it keeps nobody out
        raise ctx.refuse(f"{by}'s effects cannot be applied: {why}")
    for why in bar_problems(bars, ctx.doc("roster")):
        raise ctx.refuse(f"{by}'s effects cannot be applied: {why}")
    why = new_leader_problem(ctx, boss)
    if why:
        # seed 001 1.8 / seed 003 rule 8: the leader is a player; the admin may fail the proposal instead
        raise ctx.refuse(f"{by}'s effects cannot be applied: {why}")
    same = same_players(players, ctx.doc("roster"))
    _follow_removals(ctx, players, same, by)
    _follow_returns(ctx, same, back, by)
    _follow_unidling(ctx, idle, same, by)
    _follow_idling(ctx, idle, same, by)
    _follow_bars(ctx, bars, by)


def _follow_returns(ctx: Ctx, same: dict[str, Entry], back: dict[str, list[dict[str, Any]]], by: str) -> None:
    """Seed 001 1.2: an entry the patch added under a name of a player who left (``taken_names`` lets only them
    have it, with their account) is that player come back, as with ``core.join`` (``welcome_back``): the record of
    their departure goes, and the names it kept stay theirs on the new entry, after any the patch wrote. A record
    the patch itself took off (``back``: the records before it) counts as if it were still there, so its names are
    kept all the same."""
    still = {f["name"] for f in peek(ctx.doc("roster").get("former", []))}
    taken_off = list({id(f): f for records in back.values() for f in records if f["name"] not in still}.values())
    if not still and not taken_off:
        return
    for name, account in [(p["name"], p.get("account")) for p in peek(ctx.doc("roster")["players"])
                          if p["name"] not in same]:
        kept = welcome_back(ctx, name, taken_off, account)
        if kept is None:
            continue  # a newcomer
        if kept:
            had = ctx.edit_player(name).setdefault("formerly", [])
            written = list(peek(had))
            had.extend(g for g in kept if g not in written)
        # seed 001 1.2 / seed 003 rule 2: back in the game by the effects, not by an action of their own, so their
        # week towards idleness runs from now, whatever ``joined`` the effects wrote
        note_return(ctx, name, own_action=False)
        ctx.step({"returned": name, "by": by})


def _was_idle(p: dict[str, Any], before: dict[str, Any], same: dict[str, Entry]) -> bool:
    """Whether the entry ``p`` was idle before the patch (``same``: who each entry was, ``same_players``)."""
    was = same.get(p["name"])
    return was is not None and was[0] in before


def _follow_unidling(ctx: Ctx, before: dict[str, Any], same: dict[str, Entry], by: str) -> None:
    """Seed 001 1.2 / seed 003 rule 2: a player a proposal's or CfJ's patch brings back from idleness comes back as
    with ``core.unidle``: the record of the spell (``idle_since``, ``idle_asked``) is dropped, or a later spell
    would be read as starting then (seed 003 rule 9's "idle throughout") and a request made before it would hold
    up a return it does not concern (seed 001 1.2's four days); a stat added meanwhile gets its default."""
    for p in peek(ctx.doc("roster")["players"]):
        if not p.get("idle") and _was_idle(p, before, same):
            me = ctx.edit_player(p["name"])
            me.pop("idle_since", None)
            me.pop("idle_asked", None)
            for k, v in new_stats(ctx.doc("roster")["stats"]).items():
                me.setdefault("stats", {}).setdefault(k, v)
            # seed 003 rule 2: its week without a vote starts again; seed 001 1.2: its week without an action
            note_return(ctx, p["name"], own_action=False)
            ctx.step({"unidled": p["name"], "by": by})


def _follow_idling(ctx: Ctx, before: dict[str, Any], same: dict[str, Entry], by: str) -> None:
    """Seed 001 1.4 / seed 003 rule 4: a player who goes idle has no valid vote any more, however they went idle.

    ``core.idle`` drops their votes (kept in ``lapsed_votes``); a proposal's or CfJ's patch that sets ``idle`` must
    do the same, or the votes would count again on their return (an idle leader's VETO among them). Players are
    matched as ``same_players`` matches them, so a change of name or account in the same patch is no new spell.

    Seed 001 1.2 / seed 003 rule 2: one who was active before the patch goes idle when it applies, so their
    ``idle_since`` is the enactment's time, whatever the entry carried (a leftover of an earlier spell) or the patch
    wrote: seed 003 rule 9's "idle throughout" and seed 001 1.2's four days are counted from it."""
    now = format_time(ctx.at)
    for p in peek(ctx.doc("roster")["players"]):
        if p.get("idle") and not _was_idle(p, before, same):
            drop_votes(ctx, p["name"])
            step: dict[str, Any] = {"idled": p["name"], "by": by}
            if p.get("idle_since") != now:
                if p.get("idle_since"):
                    step["idle_since_was"] = p["idle_since"]
                ctx.edit_player(p["name"])["idle_since"] = now
            ctx.step(step)


def bar_target(roster: Any, bar: dict[str, Any]) -> tuple[dict[str, Any] | None, str | None]:
    """Seed 001 1.10: the player still playing whom a bar is on, and why it cannot be applied, if it cannot.

    The bar is on the person (one person, one player), so it is on the player with its name (after folding case
    and spacing) and on the player its account plays as, whatever name they play under. A bar whose name and
    account are two different players is on nobody we can tell (our reading: it is refused, not guessed at)."""
    players = list(peek(roster["players"]))
    by_name = next((p for p in players if fold(p["name"]) == fold(bar["name"])), None)
    account = (bar.get("account") or "").lower()
    by_account = next((p for p in players if account and (p.get("account") or "").lower() == account), None)
    if by_name is not None and by_account is not None and by_name["name"] != by_account["name"]:
        return None, (f"the bar names {bar['name']}, but the account {bar['account']} plays as "
                      f"{by_account['name']}: a bar is on one person")
    return by_name or by_account, None


def bar_problems(before: list[dict[str, Any]], roster: Any) -> Iterator[str]:
    """The bars a proposal's or CfJ's patch added (``before``: the bars before it) that cannot be applied."""
    for b in peek(roster.get("barred", [])):
        if b not in before:
            _, why = bar_target(roster, b)
            if why:
                yield why


def _follow_bars(ctx: Ctx, before: list[dict[str, Any]], by: str) -> None:
    added = [(i, dict(b)) for i, b in enumerate(peek(ctx.doc("roster").get("barred", []))) if b not in before]
    for i, written in added:
        name = written["name"]
        target, _ = bar_target(ctx.doc("roster"), written)
        if target is not None:
            # seed 001 1.10: the proposal removes the player "and" bars them; a bar on a player still playing (by
            # name, or by the account they play under) removes them, as taking their entry off would
            remove_player(ctx, target["name"], removed_by=by)
            ctx.step({"removed": target["name"], "by": by})
        bar = ctx.edit("roster")["barred"][i]
        if not bar.get("account") and target is not None and target.get("account"):
            bar["account"] = target["account"]
        if not bar.get("account"):
            gone = [f for f in peek(ctx.doc("roster").get("former", [])) if fold(f["name"]) == fold(name)]
            if gone and gone[-1].get("account"):
                bar["account"] = gone[-1]["account"]
        bar["by"] = by
        bar["at"] = format_time(ctx.at)
        ctx.step({"barred": name, "by": by})
    if "barred" in ctx.doc("roster") and not ctx.doc("roster")["barred"]:
        ctx.edit("roster").pop("barred")


def _follow_removals(ctx: Ctx, before: list[Entry], same: dict[str, Entry], by: str) -> None:
    now_of = {was[0]: name for name, was in same.items()}
    for old, account, *_ in before:
        name = now_of.get(old)
        if name == old:
            continue
        if name is not None:
            for why in unrenamable(ctx, old):
                # the proposal decided the name (no other check of core.rename), but a module that keeps the old
                # one and cannot rename it would be left naming nobody: the effects cannot be applied
                raise ctx.refuse(f"{by}'s effects cannot be applied: renaming {old} to {name}: {why}")
            ctx.edit_player(name)["name"] = old  # back, for a rename that knows where it started
            rename_player(ctx, old, name)
            ctx.step({"renamed": old, "to": name, "by": by})
        else:
            remove_player(ctx, old, removed_by=by, account=account)
            ctx.step({"removed": old, "by": by})


LEAVE = Action(
    name="core.leave",
    rule=RULE,
    summary="Leave the game",
    who=PLAYER,
    idle_ok=True,
    in_hiatus=True,
    effect=_leave,
    doc="A player may leave at any time; their votes stop counting.",
)


def _idle_check(ctx: Ctx) -> Iterator[str]:
    o = opts(ctx)
    target_name = ctx.params.get("player", ctx.actor)
    target = ctx.player(target_name)
    if target is None:
        yield f"there is no player {target_name!r}"
        return
    if target.get("kind"):
        # seed 001 1.2 / seed 003 rule 2: a player (a Colonist, a Muffin) may be made idle; a non-player character
        # is none, and already counts for nothing in Quorum
        yield f"{target_name} is not a player (a {target['kind']}); only players may be made idle"
        return
    if target.get("idle"):
        yield f"{target_name} is already idle"
        return
    if target_name == ctx.actor:
        return  # asking to become idle is always allowed
    me = ctx.player()
    if not me or not me.get("admin"):
        yield "only an admin may make another player idle"
        return
    days = o["idle_after_days"]
    since = ctx.at - timedelta(days=days)
    last, what = quiet_since(ctx, target)
    if o["idle_basis"] == "votes":
        # seed 003 rule 2: failed to vote for *more than* a week, so a vote exactly seven days ago still counts
        if parse_time(last) >= since:
            said = f"last voted at {last}" if what == "voted" else f"{what} at {last} and has not voted since"
            yield (f"{target_name} {said}, not more than {days} days ago; if they do not vote, they "
                   f"may be made idle after {format_time(parse_time(last) + timedelta(days=days))}")
    else:
        if parse_time(last) > since:
            yield (f"{target_name} {what} at {last}, within the last {days} days; if they do not act, they "
                   f"may be made idle from {format_time(parse_time(last) + timedelta(days=days))}")


def _idle(ctx: Ctx) -> None:
    target = ctx.params.get("player", ctx.actor)
    drop_votes(ctx, target)
    p = ctx.edit_player(target)
    p["idle"] = True
    p["idle_since"] = format_time(ctx.at)
    if target == ctx.actor:
        p["idle_asked"] = format_time(ctx.at)
    else:
        p.pop("idle_asked", None)


IDLE = Action(
    name="core.idle",
    rule=RULE,
    summary="Go idle yourself, or (an admin) idle a player who has been inactive",
    params={"type": "object", "additionalProperties": False,
            "properties": {"player": {"$ref": "common.schema.json#/$defs/name",
                                      "description": "who goes idle: yourself, or (an admin) an inactive player"}}},
    who=PLAYER,
    idle_ok=True,  # seed 001 1.2: within rule 1.2 idle players still count, so an idle admin may idle others
    in_hiatus=True,
    check=_idle_check,
    effect=_idle,
    doc="Without `player`, you ask to become idle. With it, an admin idles a player who has not acted "
        "(Ruleset 75) or not voted (Quazie) for seven days. Idle players do not count as players.",
)


def _unidle_check(ctx: Ctx) -> Iterator[str]:
    me = ctx.player()
    if not me or not me.get("idle"):
        yield f"{ctx.actor} is not idle"
        return
    wait = opts(ctx)["unidle_wait_days"]
    asked = me.get("idle_asked")
    if wait and asked and ctx.at - parse_time(asked) < timedelta(days=wait):
        yield (f"{ctx.actor} asked to become idle at {asked}; they may return {wait} days after that, from "
               f"{format_time(parse_time(asked) + timedelta(days=wait))}")


def _unidle(ctx: Ctx) -> None:
    p = ctx.edit_player()
    p["idle"] = False
    p.pop("idle_since", None)
    p.pop("idle_asked", None)
    defaults = new_stats(ctx.doc("roster")["stats"])
    for k, v in defaults.items():
        p["stats"].setdefault(k, v)
    note_return(ctx, ctx.actor)  # seed 003 rule 2: its week without a vote starts again


UNIDLE = Action(
    name="core.unidle",
    rule=RULE,
    summary="Come back from idleness (an admin's merge de-idles you)",
    who=PLAYER,
    idle_ok=True,
    in_hiatus=True,
    check=_unidle_check,
    effect=_unidle,
    doc="Your stats keep the values they had; any stat added meanwhile gets its default.",
)

def _resign(ctx: Ctx) -> None:
    ctx.edit_player()["admin"] = False


RESIGN = Action(
    name="core.resign-admin",
    rule=RULE,
    summary="Step down as an admin",
    who=ADMIN,
    idle_ok=True,  # 1.2: within the rule on admins an idle admin is still an admin, so may step down too
    effect=_resign,
    # seed 001 1.2, seed 003 rule 2: an admin may be removed from the post by proposal, CfJ, or their own
    # voluntary resignation; the first two are a proposal's or a CfJ's effects, this is the third
    doc="An admin may resign the post at any time; the player stays in the game. Only a proposal makes an admin.",
)


# ---------------------------------------------------------------- changing one's name


def rename_documents(ctx: Ctx, old: str, new: str) -> None:
    """The BlogNomic documents follow a player's change of name (the module's ``rename`` hook).

    Renamed: the author, the votes, the lapsed votes and the resolving admin of every proposal, CfJ and DoV;
    when each player last voted and last came back (from idleness, or to the game by effects); the DoV bar; the
    leader, and the leaders and winners of past dynasties. Kept as written: texts and titles (a dynasty's name,
    "The First Dynasty of ...", is the name it was given), and proposals' effects, which are applied as they were
    voted on.
    """
    for kind, key in (("proposals", "proposals"), ("cfjs", "cfjs"), ("dovs", "dovs")):
        doc = ctx.doc(kind)
        hits = [i for i, item in enumerate(peek(doc[key]))
                if item["author"] == old or old in item.get("votes", {}) or old in item.get("lapsed_votes", [])
                or (item.get("resolved") or {}).get("by") == old]
        if hits:
            items = ctx.edit(kind)[key]
            for i in hits:
                item = items[i]
                if item["author"] == old:
                    item["author"] = new
                if old in item.get("votes", {}):
                    rename_key(ctx, item["votes"], old, new, f"the votes on {kind[:-1]} {item['id']}")
                if old in item.get("lapsed_votes", []):
                    rename_in_list(item["lapsed_votes"], old, new)
                if (item.get("resolved") or {}).get("by") == old:
                    item["resolved"]["by"] = new
    if old in ctx.doc("proposals").get("last_vote", {}):
        rename_key(ctx, ctx.edit("proposals")["last_vote"], old, new, "the times of the last votes")
    if old in ctx.doc("proposals").get("returned", {}):
        rename_key(ctx, ctx.edit("proposals")["returned"], old, new, "the times of the returns from idleness")
    if old in ctx.doc("dovs").get("barred", {}):
        rename_key(ctx, ctx.edit("dovs")["barred"], old, new, "the DoV bars")
    dynasty = ctx.doc("dynasty")
    past = dynasty.get("past", [])
    if dynasty.get("leader") == old or any(old in (d.get("leader"), d.get("winner")) for d in peek(past)):
        d = ctx.edit("dynasty")
        if d.get("leader") == old:
            d["leader"] = new
        for i, before in enumerate(peek(past)):
            if old in (before.get("leader"), before.get("winner")):
                item = d["past"][i]
                for k in ("leader", "winner"):
                    if item.get(k) == old:
                        item[k] = new


def _rename_ready(ctx: Ctx) -> Iterator[str]:
    if not opts(ctx)["rename_by_player"]:
        # seed 001 1.2: a Colonist's name changes only when a proposal approving the change is enacted
        yield (f"in this game a {ctx.keyword('player', 'player')}'s name changes only by a proposal approving the "
               "change")


def _rename_check(ctx: Ctx) -> Iterator[str | Problem]:
    if not opts(ctx)["rename_by_player"]:
        yield from _rename_ready(ctx)
        return
    yield from rename_problems(ctx, ctx.actor, ctx.params["name"])
    b = bar_on(ctx.doc("roster").get("barred"), ctx.params["name"], None)
    if b is not None and repealed(ctx, FAIR_PLAY) is None:
        # seed 001 1.10 (honoured in the Quazie variant too): the barred person's name stays theirs, so nobody
        # else may take it, as no newcomer may join under it. The bar is Fair Play's: repealed, it holds no name;
        # in force, the refusal cites it (a game without it, as the Quazie rules, cites the renaming rule)
        yield refusal_of(ctx, FAIR_PLAY, f"the name {ctx.params['name']!r} is too like {b['name']!r}, who is barred "
                                         "from rejoining the game")


def _rename(ctx: Ctx) -> None:
    old, new = ctx.actor, ctx.params["name"]
    rename_player(ctx, old, new)
    ctx.step({"renamed": old, "to": new})


RENAME = Action(
    name="core.rename",
    rule=RULE,
    summary="Change your name",
    params={"type": "object", "required": ["name"], "additionalProperties": False,
            "properties": {"name": {"$ref": "common.schema.json#/$defs/name", "description": "your new name"}}},
    who=PLAYER,
    idle_ok=True,  # seed 003 rule 2 is one of the rules for which idle Muffins still count
    check=_rename_check,
    ready=_rename_ready,
    effect=_rename,
    new_name_param="name",
    # seed 003 rule 2: a Muffin may change their name at any time; seed 001 1.2 only by an enacted proposal
    doc="Quazie only (a Muffin may change their name at any time; in Ruleset 75 only a proposal may). The new "
        "name follows the name rules (ASCII letters, digits, spaces, `.`, `_`, `'`, `-`; up to 40) and must not be "
        "too like any name a player of the game has had. Every document that names you follows, in every module "
        "that can rename; a module that keeps your name and cannot rename it stops the change. Your later actions "
        "are filed under the new name; the earlier ones keep the old, which the roster remembers (`formerly`).",
)


ACTIONS = [JOIN, LEAVE, IDLE, UNIDLE, RESIGN, RENAME]
