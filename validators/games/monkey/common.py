"""Helpers every part of the Monkey module shares: who is an NPC, a Monkey's section, the World of an action."""

from __future__ import annotations

from typing import Any, Iterator

from ...engine import Ctx
from ...timeutil import format_time
from .options import options
from .world import World


def is_npc(ctx: Ctx, name: str | None = None) -> bool:
    p = ctx.player(name)
    return bool(p and p.get("kind"))


def no_npc(ctx: Ctx) -> Iterator[str]:
    """Seed 000, NPCs: they take no game actions of their own."""
    if is_npc(ctx):
        yield f"{ctx.actor} is a non-player character and takes no actions of eir own"


def section_of(doc: dict[str, Any], name: str) -> dict[str, Any] | None:
    for s in doc["sections"]:
        if s["monkey"] == name:
            return s
    return None


def world(ctx: Ctx) -> World:
    return World.load(ctx, options(ctx.config), format_time(ctx.at))
