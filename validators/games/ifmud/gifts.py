"""Dark Gifts (Rules 124, 127, 135, 137). Their powers are text; the module keeps who has which."""

from __future__ import annotations

from typing import Iterator

from ...engine import PLAYER, Action, Ctx
from . import world as w
from .turns import mark, require_turn

# ---------------------------------------------------------------- Dark Gifts


def _gift_names(ctx: Ctx) -> list[str]:
    return [g["name"] for g in ctx.doc("tables").get("dark_gifts", [])]


def _meta_ready(ctx: Ctx) -> Iterator[str]:
    """The head of the check, whatever gift is named (``Action.ready``): the actor's turn (Rule 27), nothing done
    in it yet but abandoning gifts (Rule 135)."""
    yield from require_turn(ctx, rule="r135")
    used = [u for u in (w.turn(ctx).get("used") or []) if u != "abandon"]
    if used:
        yield f"{ctx.actor} has already acted this turn; metamorphosing must come first (Rule 135)"


def _meta_check(ctx: Ctx) -> Iterator[str]:
    yield from _meta_ready(ctx)
    gift = ctx.params["gift"]
    if gift not in _gift_names(ctx):
        yield f"there is no Dark Gift {gift!r} (Rule 124)"
    have = ctx.player()["stats"].get(w.GIFTS) or []
    if gift in have:
        yield f"{ctx.actor} already has {gift}; no player may have a gift twice (Rule 137)"


def _meta(ctx: Ctx) -> None:
    mark(ctx, "metamorphose")
    p = ctx.edit_player()
    have = list(p["stats"].get(w.GIFTS) or [])
    ctx.edit("turn").setdefault("metamorphosed", []).append(ctx.actor)
    ctx.step({"metamorphosed": ctx.actor, "gift": ctx.params["gift"]})
    # Rule 137: a gift acquired beyond the Puissance limit is itself lost at once; the gifts already held
    # stay (Standard Order chooses the gifts lost only when Puissance falls below their number).
    # (seed 002 Rule 137 repealed: no limit, the gift is kept)
    if len(have) >= max(0, int(p["stats"].get(w.PUISSANCE, 0))) and not w.repealed(ctx, "r137"):
        ctx.step({"gift_lost": ctx.params["gift"], "why": "beyond the Puissance limit", "rule": "r137"})
        return
    p["stats"][w.GIFTS] = have + [ctx.params["gift"]]


def _abandon_ready(ctx: Ctx) -> Iterator[str]:
    """Rule 137: a gift is abandoned by one who has it; with none, the check refuses every gift named."""
    if not ctx.player()["stats"].get(w.GIFTS):
        yield f"{ctx.actor} has no Dark Gift"


def _abandon_check(ctx: Ctx) -> Iterator[str]:
    if ctx.params["gift"] not in (ctx.player()["stats"].get(w.GIFTS) or []):
        yield f"{ctx.actor} does not have {ctx.params['gift']}"


def _abandon(ctx: Ctx) -> None:
    p = ctx.edit_player()
    p["stats"][w.GIFTS] = [g for g in p["stats"][w.GIFTS] if g != ctx.params["gift"]]
    if w.turn(ctx).get("active") == ctx.actor:
        ctx.edit("turn").setdefault("used", []).append("abandon")
    ctx.step({"abandoned": ctx.params["gift"]})


_GIFT = {"type": "object", "required": ["gift"], "additionalProperties": False,
         "properties": {"gift": {"type": "string", "minLength": 1, "maxLength": 120,
                                 "description": "the gift, by its name"}}}

GIFTS = [
    Action(name="ifmud.metamorphose", rule="r135", summary="Obtain a Dark Gift (first thing in your turn)",
           params=_GIFT, check=_meta_check, ready=_meta_ready, effect=_meta,
           doc="Only if the turn's only actions so far were abandoning gifts; afterwards only ending the turn "
               "or abandoning gifts. A player holds at most their Puissance in gifts: one obtained beyond that is "
               "itself lost at once, and the gifts held stay, so abandon one first to change gifts (Rule 137). "
               "Standard Order picks the gifts lost only when Puissance falls below their number."),
    Action(name="ifmud.abandon-gift", rule="r137", summary="Abandon a Dark Gift", params=_GIFT,
           check=_abandon_check, ready=_abandon_ready, effect=_abandon, who=PLAYER,
           doc="At any time, even after metamorphosing in the same turn (Rules 135, 137)."),
]


ACTIONS = GIFTS
