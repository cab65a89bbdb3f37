"""Tag (seed 003 rule 14): It and Not It, tagging at the same Position, no tag-backs, tag days.

Rule 14.3 allows tagging only on designated tag days, and no rule says how a day is designated. The days
are data (``quazie.tag_days``, ISO dates) that a proposal may set; while none is designated, tagging is
refused and the message says why.
"""

from __future__ import annotations

from typing import Iterator

from ...engine import Action, Ctx
from .common import IT, NOT_IT, R_TAG, day, it_muffin, muffin, position_label, stat


def _tag_day(ctx: Ctx) -> Iterator[str]:
    """Seed 003 rule 14.3: tagging happens only on a designated tag day."""
    days = ctx.doc("quazie").get("tag_days", [])
    if day(ctx) not in days:
        if not days:
            yield ("tagging happens only on designated tag days, and no day has been designated (the rules do "
                   "not say how one is; a proposal may add dates to tag_days)")
        else:
            yield f"{day(ctx)} is not a designated tag day (tag days: {', '.join(days)})"


def _not_it(ctx: Ctx) -> Iterator[str]:
    """Seed 003 rule 14.1 (and 14.4: nobody It, the GRAND POOBAH is): only the Muffin who is It tags."""
    if it_muffin(ctx) != ctx.actor:
        yield f"{ctx.actor} is Not It; only the Muffin who is It may tag"


def _tag_ready(ctx: Ctx) -> Iterator[str]:
    """Seed 003 rule 14: not a tag day, or the actor Not It, and the check refuses every target; so it does when no
    other Muffin stands at the actor's Position, or only the one that just tagged it (no tag-backs)."""
    yield from _tag_day(ctx)
    yield from _not_it(ctx)
    me = ctx.player()
    if me is None or me.get("idle"):
        return
    last = ctx.doc("quazie").get("last_tag") or {}
    pos = stat(me, "position")
    if not any(p["name"] != ctx.actor and not p.get("idle") and stat(p, "position") == pos
               and not (last.get("by") == p["name"] and last.get("to") == ctx.actor) for p in ctx.players()):
        yield f"there is no Muffin {ctx.actor} may tag at {position_label(pos)}"


def _tag_check(ctx: Ctx) -> Iterator[str]:
    q = ctx.doc("quazie")
    yield from _tag_day(ctx)
    me = muffin(ctx, ctx.actor)
    target = muffin(ctx, ctx.params["target"])
    yield from _not_it(ctx)
    if target["name"] == ctx.actor:
        yield "a Muffin tags another Muffin"
    elif stat(target, "position") != stat(me, "position"):
        yield (f"{target['name']} is at {position_label(stat(target, 'position'))}, not at "
               f"{ctx.actor}'s {position_label(stat(me, 'position'))}")
    last = q.get("last_tag") or {}
    if last.get("by") == target["name"] and last.get("to") == ctx.actor:
        yield f"no tag-backs: {target['name']} just tagged {ctx.actor}"


def _tag(ctx: Ctx) -> None:
    target = ctx.params["target"]
    ctx.edit_player()["stats"]["tag"] = NOT_IT
    ctx.edit_player(target)["stats"]["tag"] = IT
    ctx.edit("quazie")["last_tag"] = {"by": ctx.actor, "to": target}
    ctx.step({"tagged": target, "by": ctx.actor})


TAG = Action(
    name="quazie.tag",
    rule=R_TAG,
    summary="It tags a Muffin at the same Position (on a tag day); the tagged Muffin becomes It",
    params={"type": "object", "required": ["target"], "additionalProperties": False,
            "properties": {"target": {"$ref": "common.schema.json#/$defs/name",
                                      "description": "the Muffin at your Position to tag"}}},
    check=_tag_check,
    ready=_tag_ready,
    effect=_tag,
    doc="When nobody is It the GRAND POOBAH is It. A Muffin may not tag the Muffin that just tagged it.",
)

ACTIONS = [TAG]
