"""A Muffin's change of name (seed 003 rule 2, taken with the core's ``core.rename``): this module's documents follow.

Renamed wherever the module keeps a Muffin's name: the day log (who did what today, and whom each Muffin has
bounced off, ``bounced:<name>``), the landings and who was there, the Launch Base, the Muffins Dr. Eggman
spared, Blind since, the last tag, the standing Shoo's poster, Writers of Awesome's role times, the notes spent in
Concertos and movements, Concerto credits, the New Item's and each flavour's maker, the Old Items' values, and the
Muffins tied for the most Stuffs. The stats hold no names.
"""

from __future__ import annotations

from typing import Any

from ...engine import Ctx, peek, peek_items
from ...roster import rename_in_list, rename_key

BOUNCED = "bounced:"


def rename(ctx: Ctx, old: str, new: str) -> None:
    if "quazie" in ctx.state.docs:
        _state(ctx, old, new)
    if "quazie_items" in ctx.state.docs:
        _items(ctx, old, new)
    if "quazie_tables" in ctx.state.docs:
        flavours = ctx.doc("quazie_tables").get("flavours", [])
        hits = [i for i, f in enumerate(peek(flavours)) if f.get("by") == old]
        if hits:
            edited = ctx.edit("quazie_tables")["flavours"]
            for i in hits:
                edited[i]["by"] = new


def _mentions_list(items: Any, old: str) -> bool:
    return isinstance(items, list) and old in items


def _state(ctx: Ctx, old: str, new: str) -> None:
    q0 = ctx.doc("quazie")
    today = q0.get("today", {})
    landings = q0.get("landings", {})
    credits = q0.get("concerto_credits", [])
    touched = (
        any(_mentions_list(v, old) for _, v in peek_items(today)) or f"{BOUNCED}{old}" in today
        or old in landings or any(_mentions_list(v.get("occupants"), old) for _, v in peek_items(landings))
        or any(old in q0.get(k, {}) for k in ("launch_base", "blind_since", "role_since", "concerto_used",
                                              "movement_used", "ruleset_changes"))
        or _mentions_list(q0.get("spared"), old)
        or old in (q0.get("last_tag") or {}).values()
        or any(old in (c.get("muffin"), c.get("from")) for c in peek(credits))
        or (isinstance(q0.get("shoo"), dict) and q0["shoo"].get("by") == old)
    )
    if not touched:
        return
    q = ctx.edit("quazie")
    if "today" in q:
        t = q["today"]
        rename_key(ctx, t, f"{BOUNCED}{old}", f"{BOUNCED}{new}", "today's log")
        for key in list(t):
            if _mentions_list(dict.get(t, key), old):
                rename_in_list(t[key], old, new)
    if "landings" in q:
        rename_key(ctx, q["landings"], old, new, "the landings")
        for who in list(q["landings"]):
            if _mentions_list(dict.get(q["landings"], who).get("occupants"), old):
                rename_in_list(q["landings"][who]["occupants"], old, new)
    for key in ("launch_base", "blind_since", "role_since", "concerto_used", "movement_used", "ruleset_changes"):
        if old in q.get(key, {}):
            rename_key(ctx, q[key], old, new, f"the {key.replace('_', ' ')}")
    if _mentions_list(q0.get("spared"), old):
        rename_in_list(q["spared"], old, new)
    if old in (q0.get("last_tag") or {}).values():
        for k in ("by", "to"):
            if q["last_tag"].get(k) == old:
                q["last_tag"][k] = new
    if isinstance(q0.get("shoo"), dict) and q0["shoo"].get("by") == old:
        q["shoo"]["by"] = new  # rule 22: the standing Shoo's poster, shown on the wiki and by nomic due
    for i, c in enumerate(peek(credits)):
        if old in (c.get("muffin"), c.get("from")):
            credit = q["concerto_credits"][i]
            for k in ("muffin", "from"):
                if credit.get(k) == old:
                    credit[k] = new


def _items(ctx: Ctx, old: str, new: str) -> None:
    d0 = ctx.doc("quazie_items")
    olds = d0.get("old_items", [])
    hits = [i for i, item in enumerate(peek(olds)) if old in item.get("values", {})]
    by = (d0.get("new_item") or {}).get("by") == old
    tied = _mentions_list(d0.get("tied"), old)
    if not (hits or by or tied):
        return
    d = ctx.edit("quazie_items")
    for i in hits:
        rename_key(ctx, d["old_items"][i]["values"], old, new, f"the values of {d['old_items'][i]['word']}")
    if by:
        d["new_item"]["by"] = new
    if tied:
        rename_in_list(d["tied"], old, new)
