"""A player's change of name (the module's ``rename`` hook): the ifMUD documents follow, so the player keeps
everything that is theirs.

ifMUD's seed (002) has no rule for changing a name, but the set of players is part of the state (Rule 7), and a
ratified proposal may change it (Rules 10, 12): its effects may give a player another name, and
``consent._renamed_players`` tells a renamed player from one who left and a newcomer (same account and joining
time, ``roster.same_players``). Rule 27 says players are known in the game by their names, so what the state
keeps under the old name is the player's under the new one: without this hook the tokens they carry would go to
the Attic (Rule 49), their servant would cease (Rule 44 C), and their turn, votes and passive lists would name
nobody.

Renamed: the servant's master (``entities.servants[].owner``) and whoever last moved the monkey, the pieman, the
Omnibus, the robot or the kitten (Rule 90's ``moved_by``); tokens carried by the player or their servant, a
token's bar (Rules 112, 145) and last mover, and the last esploding cigar's place (Rule 152); the active player
and everything the turn keeps by name (moved and locked, themselves or ``servant:<name>``, arrivals, chatting,
asleep and awake, metamorphosed, the Passive Turn-Takers, silence, timed-out turns, honours, winners); the Passive
Voters, every proposal's author, section, votes, passive ayes, ratifier, vote summary, tallies and ``about``, and the
donations; a quest's creator and the players who finished one; the last player paid for entering the bubble
(Rule 29). The ledger is renamed by the engine (``roster.rename_player``).

Kept as written: names and texts, which are what they were given as (a token called "Zoe Abbott's bomb" by Rule
134, a proposal's name ending in its proponent's referent, Rule 34), proposals' effects, which apply as they were
agreed, and ``turn.lost``, which lists only players who are gone.
"""

from __future__ import annotations

from typing import Any

from ...engine import Ctx, peek, peek_items
from ...roster import rename_in_list, rename_key
from . import world as w


def rename(ctx: Ctx, old: str, new: str) -> None:
    _entities(ctx, old, new)
    _tokens(ctx, old, new)
    _turn(ctx, old, new)
    _consent(ctx, old, new)
    _quests(ctx, old, new)
    bubble = ctx.doc("map").get("bubble") or {}
    if bubble.get("last") == old:
        ctx.edit("map")["bubble"]["last"] = new


def _entities(ctx: Ctx, old: str, new: str) -> None:
    doc = ctx.doc("entities")
    servants = [i for i, s in enumerate(peek(doc["servants"])) if s["owner"] == old]
    movers = [k for k in w.ENTITIES if isinstance(e := doc.get(k), dict) and e.get("moved_by") == old]
    if not (servants or movers):
        return
    edited = ctx.edit("entities")
    for i in servants:
        edited["servants"][i]["owner"] = new
    for k in movers:
        edited[k]["moved_by"] = new


def _place(loc: Any, old: str) -> bool:
    return isinstance(loc, dict) and (loc.get("player") == old or loc.get("servant") == old)


def _moved(loc: dict[str, Any], old: str, new: str) -> None:
    for k in ("player", "servant"):
        if loc.get(k) == old:
            loc[k] = new


def _tokens(ctx: Ctx, old: str, new: str) -> None:
    doc = ctx.doc("tokens")
    hits = [i for i, t in enumerate(peek(doc["tokens"]))
            if _place(t.get("location"), old) or t.get("barred") == old or t.get("moved_by") == old]
    cigar = _place((doc.get("last_cigar") or {}).get("location"), old)
    if not (hits or cigar):
        return
    edited = ctx.edit("tokens")
    for i in hits:
        t = edited["tokens"][i]
        _moved(t["location"], old, new)
        for k in ("barred", "moved_by"):
            if t.get(k) == old:
                t[k] = new
    if cigar:
        _moved(edited["last_cigar"]["location"], old, new)


_TURN_LISTS = ("moved", "locked", "metamorphosed", "asleep", "passive_turn_takers")
_TURN_KEYS = ("chatting", "awake", "silence", "timed_out")


def _turn(ctx: Ctx, old: str, new: str) -> None:
    t = w.turn(ctx)
    servant = f"servant:{old}"
    lists = [k for k in _TURN_LISTS if any(x in (old, servant) for x in peek(t.get(k) or []))]
    keys = [k for k in _TURN_KEYS if old in (t.get(k) or {})]
    arrivals = [room for room, names in peek_items(t.get("arrivals") or {})
                if isinstance(names, list) and old in peek(names)]
    honours = old in peek((t.get("honours") or {}).get("players") or [])
    over = t.get("over") or {}
    winners = old in peek(over.get("winners") or []) or over.get("winner") == old
    if not (t.get("active") == old or lists or keys or arrivals or honours or winners):
        return
    edited = ctx.edit("turn")
    if edited.get("active") == old:
        edited["active"] = new
    for k in lists:
        rename_in_list(edited[k], old, new)
        rename_in_list(edited[k], servant, f"servant:{new}")
    for k in keys:
        rename_key(ctx, edited[k], old, new, f"the turn's {k}")
    for room in arrivals:
        rename_in_list(edited["arrivals"][room], old, new)
    if honours:
        rename_in_list(edited["honours"]["players"], old, new)
    if winners:
        if old in (edited["over"].get("winners") or []):
            rename_in_list(edited["over"]["winners"], old, new)
        if edited["over"].get("winner") == old:
            edited["over"]["winner"] = new


def _names_in(p: dict[str, Any], old: str) -> bool:
    closed = p.get("closed") or {}
    return (p["author"] == old or old in peek(p.get("section") or []) or old in (p.get("votes") or {})
            or old in peek(p.get("passive") or []) or closed.get("by") == old or old in (closed.get("votes") or {})
            or any(x.get("player") == old for x in peek(p.get("tallies") or []))
            or (p.get("about") or {}).get("player") == old)


def _consent(ctx: Ctx, old: str, new: str) -> None:
    doc = ctx.doc("consent")
    hits = [i for i, p in enumerate(peek(doc["proposals"])) if _names_in(p, old)]
    passive = old in peek(doc.get("passive_voters") or [])
    gifts = [i for i, d in enumerate(peek(doc.get("donations") or [])) if old in (d["from"], d["to"])]
    if not (hits or passive or gifts):
        return
    edited = ctx.edit("consent")
    for i in hits:
        p = edited["proposals"][i]
        where = f"proposal {p['id']}"
        if p["author"] == old:
            p["author"] = new
        for k in ("section", "passive"):
            if old in (p.get(k) or []):
                rename_in_list(p[k], old, new)
        if old in (p.get("votes") or {}):
            rename_key(ctx, p["votes"], old, new, f"the votes on {where}")
        closed = p.get("closed") or {}
        if closed.get("by") == old:
            closed["by"] = new
        if old in (closed.get("votes") or {}):
            rename_key(ctx, closed["votes"], old, new, f"the summary of the votes on {where}")
        for x in p.get("tallies") or []:
            if x.get("player") == old:
                x["player"] = new
        if (p.get("about") or {}).get("player") == old:
            p["about"]["player"] = new
    if passive:
        rename_in_list(edited["passive_voters"], old, new)
    for i in gifts:
        d = edited["donations"][i]
        for k in ("from", "to"):
            if d[k] == old:
                d[k] = new


def _quests(ctx: Ctx, old: str, new: str) -> None:
    doc = ctx.doc("quests")
    made = [i for i, q in enumerate(peek(doc["quests"])) if q.get("created_by") == old]
    done = [i for i, h in enumerate(peek(doc.get("history") or [])) if old in peek(h.get("by") or [])]
    if not (made or done):
        return
    edited = ctx.edit("quests")
    for i in made:
        edited["quests"][i]["created_by"] = new
    for i in done:
        rename_in_list(edited["history"][i]["by"], old, new)
