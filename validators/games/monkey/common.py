"""Helpers every part of the Monkey module shares: who is an NPC, a Monkey's section, the World of an action."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...engine import Ctx, peek
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
    """A Monkey's section; found by reading, so of an edited document only the section returned is copied."""
    sections = doc["sections"]
    for i, s in enumerate(peek(sections)):
        if s["monkey"] == name:
            return sections[i]
    return None


def world(ctx: Ctx) -> World:
    return World.load(ctx, options(ctx.config), format_time(ctx.at))


def line_world(ctx: Ctx) -> World:
    """The Line alone, for checks that only read who stands where (``World.load_line``).

    The options are read as ``world`` reads them, so a wrong option stops the action in the check as before.
    """
    options(ctx.config)
    return World.load_line(ctx)
