"""A Muffin who leaves the game (seed 003 rule 2, the core's ``core.leave``) or is removed from it (rule 9's
removal of idle Muffins, ``core.remove-idle``; or a proposal's patch): this module's records of them go too.

The seed says only that a Muffin may leave at any time (rule 2) and that their vote no longer counts (rule 4).
It keeps a Muffin's values only for one who goes idle (rule 2), and it says what a new Muffin starts with
(rules 11, 12, 13, 19). Our reading: leaving ends the Muffin. Their GNDT row (Stuffs, Position, Flavour, Tag,
Dance Move, Roles, Note History) leaves with their roster entry, so their Position is no longer occupied and
their Roles lapse (a GRAND POOBAH who leaves leaves the game without one; if they, or the Muffin who left, were
It, nobody is It but the GRAND POOBAH, rule 14.4). Here, what holds the Muffin's own state goes as well:

* their landing (they cannot bounce), and their place among the Muffins another landed on (nobody can bounce
  off them);
* their entry at the Launch Base, Dr. Eggman's sparing, when they went Blind, their Writer of Awesome time,
  the notes they spent in Concertos and movements, the Concerto credits they hold;
* their values in the Old Items (rule 11: a new Muffin has 0 in each), their place in a tie for the most
  Stuffs (the GRAND POOBAH chooses among the others), and the last tag if it names them.

Kept: the day's log, which ends with the day (as the engine's ledger keeps the recent takings of daily and
weekly actions, so leaving and joining again the same day does not buy a second once-a-day action); the
credits other Muffins hold from a Concerto the Muffin who left claimed (their share stands); who made the New
Item or a flavour (history, as a proposal's author is).
"""

from __future__ import annotations

from ...engine import Ctx, peek, peek_items
from .consequences import replaced_at


def departures(ctx: Ctx) -> None:
    """After any action: forget the Muffins no longer on the roster (not those who changed their name)."""
    if "roster" not in ctx.tx.docs:
        return
    base = ctx.tx.base.docs["roster"]["players"]
    now = list(peek(ctx.tx.docs["roster"]["players"]))
    if len(now) >= len(base) and all(now[i]["name"] == base[i]["name"] for i in replaced_at(now, base)
                                     if i < len(base)):
        return  # nobody left (the common case: the names in their places, a newcomer at the end)
    names = {p["name"] for p in now}
    renamed = {f["name"] for p in now for f in p.get("formerly", [])}
    for p in base:
        if p["name"] not in names and p["name"] not in renamed:
            cleared = forget(ctx, p["name"])
            ctx.step({"left": p["name"], "position": p.get("stats", {}).get("position"),
                      **({"cleared": cleared} if cleared else {})})


def forget(ctx: Ctx, name: str) -> list[str]:
    """Remove ``name`` from the module's records of Muffins' state; the records changed, by their keys."""
    cleared: list[str] = []
    if "quazie" in ctx.state.docs:
        cleared += _state(ctx, name)
    if "quazie_items" in ctx.state.docs:
        cleared += _items(ctx, name)
    return cleared


_KEYED = ("launch_base", "blind_since", "role_since", "concerto_used", "movement_used", "ruleset_changes")


def _state(ctx: Ctx, name: str) -> list[str]:
    q0 = ctx.doc("quazie")
    landings = q0.get("landings", {})
    found = []
    if name in landings or any(name in (v.get("occupants") or []) for _, v in peek_items(landings)):
        found.append("landings")
    if name in (q0.get("spared") or []):
        found.append("spared")
    found += [k for k in _KEYED if name in (q0.get(k) or {})]
    if name in (q0.get("last_tag") or {}).values():
        found.append("last_tag")
    if any(c.get("muffin") == name for c in peek(q0.get("concerto_credits") or [])):
        found.append("concerto_credits")
    if not found:
        return []
    q = ctx.edit("quazie")
    if "landings" in found:
        q["landings"].pop(name, None)
        for who, landing in list(peek_items(q["landings"])):
            if name in (landing.get("occupants") or []):
                q["landings"][who]["occupants"] = [n for n in landing["occupants"] if n != name]
    if "spared" in found:
        q["spared"] = [n for n in q["spared"] if n != name]
    for key in _KEYED:
        if key in found:
            del q[key][name]
    if "launch_base" in found and not q["launch_base"]:
        q.pop("launch_base")  # as the Launch Base's own consequence leaves it when nobody is there
    if "ruleset_changes" in found and not q["ruleset_changes"]:
        q.pop("ruleset_changes")  # as rule 22's own consequence leaves it when no change waits for a Hand
    if "last_tag" in found:
        q.pop("last_tag")
    if "concerto_credits" in found:
        q["concerto_credits"] = [c for c in q["concerto_credits"] if c.get("muffin") != name]
    order = ["landings", "launch_base", "spared", "blind_since", "last_tag", "role_since", "concerto_used",
             "movement_used", "concerto_credits", "ruleset_changes"]
    return [k for k in order if k in found]


def _items(ctx: Ctx, name: str) -> list[str]:
    d0 = ctx.doc("quazie_items")
    hits = [i for i, item in enumerate(peek(d0.get("old_items") or [])) if name in (item.get("values") or {})]
    tied = name in (d0.get("tied") or [])
    if not (hits or tied):
        return []
    d = ctx.edit("quazie_items")
    for i in hits:
        del d["old_items"][i]["values"][name]
    if tied:
        d["tied"] = [n for n in d["tied"] if n != name]
    return (["old_items"] if hits else []) + (["tied"] if tied else [])

