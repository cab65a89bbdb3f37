"""Tag (seed 003 rule 14): It and Not It, tagging at the same Position, no tag-backs, tag days.

Rule 14.3 allows tagging only on designated tag days, and no rule says how a day is designated. The days
are data (``quazie.tag_days``, ISO dates) that a proposal may set; while none is designated, tagging is
refused and the message says why.
"""

from __future__ import annotations

from typing import Iterator

from ...engine import Action, Ctx
from .common import IT, NOT_IT, R_TAG, day, it_muffin, muffin, position_label, stat


def _tag_check(ctx: Ctx) -> Iterator[str]:
    q = ctx.doc("quazie")
    days = q.get("tag_days", [])
    if day(ctx) not in days:
        if not days:
            yield ("tagging happens only on designated tag days, and no day has been designated (the rules do "
                   "not say how one is; a proposal may add dates to tag_days)")
        else:
            yield f"{day(ctx)} is not a designated tag day (tag days: {', '.join(days)})"
    me = muffin(ctx, ctx.actor)
    target = muffin(ctx, ctx.params["target"])
    if it_muffin(ctx) != ctx.actor:
        yield f"{ctx.actor} is Not It; only the Muffin who is It may tag"
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
            "properties": {"target": {"$ref": "common.schema.json#/$defs/name"}}},
    check=_tag_check,
    effect=_tag,
    doc="When nobody is It the GRAND POOBAH is It. A Muffin may not tag the Muffin that just tagged it.",
)

ACTIONS = [TAG]
