"""What happens by itself, after every action and every deadline, until nothing more changes.

Where things go when their place is removed (the rules disagree; the specific wins):
tokens -> the Attic (Rule 49); servants -> the Servants' Quarters (Rule 52); anything
else -> Saturn (Rule 53); and if that room is gone too, the room alphabetically first
(Rule 69). A prize token whose destination is gone gets West of Nowhere, or the room
alphabetically last (Rule 57). Quests whose rooms vanish are removed (Rule 151).
"""

from __future__ import annotations

import json

from ...engine import Ctx
from ...roster import new_stats
from ...timeutil import format_time
from . import world as w
from .order import alphabetical_extreme, standard_order


def rehome(ctx: Ctx) -> None:
    names = set(w.room_names(ctx))
    players = set(w.player_names(ctx))
    saturn = w.room_name(ctx, "saturn")
    for p in ctx.doc("roster")["players"]:
        if p["stats"].get(w.LOCATION) not in names:
            w.set_player_location(ctx, p["name"], w.fallback_room(ctx, saturn), how="Rules 53, 69", by_action=False)
    ent = ctx.doc("entities")
    if any(s["owner"] not in players for s in ent["servants"]):  # Rule 44 C
        for s in ent["servants"]:
            if s["owner"] not in players:
                ctx.step({"servant_gone": s["owner"]})
        ctx.edit("entities")["servants"] = [s for s in ent["servants"] if s["owner"] in players]
    for s in ctx.doc("entities")["servants"]:
        if s["location"] not in names:
            w.set_servant_location(ctx, s["owner"], w.fallback_room(ctx, w.room_name(ctx, "quarters")),
                                   how="Rules 52, 69", by_action=False)
    for which in w.ENTITIES:
        e = ctx.doc("entities").get(which)
        if e and e["location"] not in names:
            w.set_entity_location(ctx, which, w.fallback_room(ctx, saturn), how="Rules 53, 69")
    attic = w.room_name(ctx, "attic")
    for t in list(w.tokens(ctx)):
        kind, who = w.carrier(t["location"])
        gone = (kind == "room" and who not in names) or (kind in ("player", "servant") and who not in players)
        if gone:
            w.set_token_location(ctx, w.edit_token(ctx, t["id"]), {"room": w.fallback_room(ctx, attic)})
            ctx.step({"token": t["id"], "rehomed": "Rules 49, 69"})
        if w.is_prize(t) and t["destination"] not in names:
            nowhere = w.room_name(ctx, "nowhere")
            dest = nowhere if nowhere in names else alphabetical_extreme(names, last=True)
            w.edit_token(ctx, t["id"])["destination"] = dest
            ctx.step({"token": t["id"], "destination": dest, "rule": "r57"})
    from .quests import finish, roster

    for q in list(roster(ctx)):
        if not {q["home"], q["locate"], q["goal"]} <= names:
            finish(ctx, q, why="removed: a room vanished (Rule 151)")


def _players(ctx: Ctx) -> None:
    """Every player has every stat (new players: 10 brownie points, Rule 148; Puissance 1, Rule 136)
    and a servant (Rule 44)."""
    defs = ctx.doc("roster")["stats"]
    for p in ctx.doc("roster")["players"]:
        missing = [k for k in defs if k not in p["stats"]]
        if missing:
            e = ctx.edit_player(p["name"])
            fresh = new_stats(defs)
            for k in missing:
                e["stats"][k] = fresh[k]
        if w.servant(ctx, p["name"]) is None:
            ctx.edit("entities")["servants"].append({"owner": p["name"], "location": w.room_name(ctx, "quarters"),
                                                     "since": format_time(ctx.at)})
            ctx.step({"servant_for": p["name"]})


def _remove_player(ctx: Ctx, who: str, why: str, lost: bool = False) -> None:
    roster = ctx.edit("roster")
    roster["players"] = [p for p in roster["players"] if p["name"] != who]
    roster.setdefault("former", []).append({"name": who, "left": format_time(ctx.at)})
    if lost:
        ctx.edit("turn").setdefault("lost", []).append(who)
    for key in ("passive_turn_takers", "asleep"):
        if who in (w.turn(ctx).get(key) or []):
            ctx.edit("turn")[key].remove(who)
    if who in (ctx.doc("consent").get("passive_voters") or []):
        ctx.edit("consent")["passive_voters"].remove(who)
    ctx.step({"removed": who, "why": why})
    rehome(ctx)


def remove_player(ctx: Ctx, who: str, why: str, lost: bool = False) -> None:
    _remove_player(ctx, who, why, lost)


def _rooms(ctx: Ctx) -> None:
    for r in w.rooms(ctx):
        if r.get("tax_haven") and r.get("toll"):  # Rule 68
            for e in ctx.edit("map")["rooms"]:
                if e["name"] == r["name"]:
                    ctx.step({"toll_ceases": e.pop("toll")["name"], "in": r["name"], "rule": "r68"})


def _tokens(ctx: Ctx) -> None:
    for t in list(w.tokens(ctx)):
        kind, where = w.carrier(t["location"])
        if w.is_time_bomb(t) and kind == "room" and (w.room(ctx, where) or {}).get("high_security"):
            w.remove_token(ctx, w.edit_token(ctx, t["id"]), "Rule 74: time bomb in a high-security area")
    if not any(w.is_time_bomb(t) for t in w.tokens(ctx)) and w.player_names(ctx):  # Rule 134
        for p in w.player_names(ctx):
            w.new_token(ctx, {"name": f"{p}'s bomb", "location": {"player": p}, "delay_hours": 24})
    bus = w.entity_location(ctx, "omnibus")
    for t in w.by_role(ctx, "lunchbox"):  # Rule 106
        if w.is_prize(t) and t["destination"] != bus:
            w.edit_token(ctx, t["id"])["destination"] = bus
    wild = w.savage_wilderness(ctx)
    for t in w.by_role(ctx, "compass"):  # Rule 123
        if w.is_prize(t) and t["destination"] != wild:
            w.edit_token(ctx, t["id"])["destination"] = wild
    # Rule 138: the monkey drops what it has for the first banana in Standard Order.
    here = w.entity_location(ctx, "monkey")
    held = w.carried_by(ctx, "monkey")
    bananas = [t for t in w.tokens(ctx) if "banana" in t["name"].lower() and t["location"] == {"room": here}]
    if bananas and not any("banana" in t["name"].lower() for t in held):
        for t in held:
            w.set_token_location(ctx, w.edit_token(ctx, t["id"]), {"room": here})
        first = standard_order(bananas, lambda t: t["name"])[0]
        w.set_token_location(ctx, w.edit_token(ctx, first["id"]), {"monkey": True})
        ctx.step({"monkey": "took a banana", "token": first["id"], "rule": "r138"})


def _people(ctx: Ctx) -> None:
    crescent = w.room_name(ctx, "crescent")
    for p in list(w.player_names(ctx)):
        if w.location_of_player(ctx, p) == crescent:  # Rule 16
            ctx.step({"won_mornington_crescent": p})
            _remove_player(ctx, p, "won Mornington Crescent, and so lost (Rules 16, 33)", lost=True)
    for p in list(w.player_names(ctx)):
        if w.tally(ctx, p, w.DEMERITS) >= 3:  # Rule 11
            _remove_player(ctx, p, "three demerits (Rule 11)")
    gifts = {g["name"] for g in ctx.doc("tables").get("dark_gifts", [])}
    for p in ctx.doc("roster")["players"]:
        have = list(p["stats"].get(w.GIFTS) or [])
        keep = [g for g in have if g in gifts]  # Rule 127: removed gifts are lost
        keep = list(dict.fromkeys(keep))
        limit = max(0, int(p["stats"].get(w.PUISSANCE, 0)))
        if len(keep) > limit:  # Rule 137: lose from the end of Standard Order
            ordered = standard_order(keep)
            lose = set(ordered[limit:])
            keep = [g for g in keep if g not in lose]
        if keep != have:
            ctx.edit_player(p["name"])["stats"][w.GIFTS] = keep
            ctx.step({"gifts": p["name"], "now": keep, "rule": "r137"})


def _scores(ctx: Ctx) -> None:
    goal = int(w.option(ctx, "win_at", 350))
    honours = int(w.option(ctx, "honours_at", 250))
    t = w.turn(ctx)
    for imp in w.by_role(ctx, "imp"):  # Rule 150
        kind, who = w.carrier(imp["location"])
        if kind in ("player", "servant") and who in w.player_names(ctx):
            v = w.tally(ctx, who)
            if v >= goal:
                cap = min(50, v // 5) if kind == "player" else min(150, v // 2)
                w.add_tally(ctx, who, cap - v, w.BROWNIE, "Rule 150: the Bottle Imp")
    if not t.get("honours"):
        reached = [p for p in w.player_names(ctx) if w.tally(ctx, p) >= honours]
        if reached:
            ctx.edit("turn")["honours"] = {"kind": "First Honours" if len(reached) == 1 else "Shared Honours",
                                           "players": reached, "at": format_time(ctx.at)}
            ctx.step({"honours": reached})
    winners = [p for p in w.player_names(ctx) if w.tally(ctx, p) >= goal]
    if winners and not t.get("over"):
        ctx.edit("turn")["over"] = {"winner": winners[0], "at": format_time(ctx.at)}
        ctx.step({"wins": winners[0], "rule": "r148"})


def _turn(ctx: Ctx) -> None:
    from .turns import end_turn

    t = w.turn(ctx)
    if t.get("over"):
        return
    if t.get("active") and t["active"] not in w.player_names(ctx):  # Rule 27: removed mid-turn
        end_turn(ctx, ctx.at, "player removed")


def _fingerprint(ctx: Ctx) -> str:
    return json.dumps({k: ctx.doc(k) for k in ("roster", "map", "entities", "tokens", "quests", "turn")},
                      sort_keys=True, default=str)


def run_all(ctx: Ctx) -> None:
    from .quests import progress

    for _ in range(20):
        before = _fingerprint(ctx)
        _players(ctx)
        rehome(ctx)
        _rooms(ctx)
        _tokens(ctx)
        progress(ctx)
        _people(ctx)
        _scores(ctx)
        _turn(ctx)
        if _fingerprint(ctx) == before:
            return


def consequence(ctx: Ctx) -> None:
    run_all(ctx)

