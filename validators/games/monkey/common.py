"""Helpers every part of the Monkey module shares: who is an NPC, a Monkey's section, the World of an action."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...engine import Ctx, peek, repealed
from ...timeutil import format_time
from .options import options
from .world import World

# The ids (in the example ruleset) of the rules whose parts the module's code asks about (``engine.repealed``)
RULE_NPCS = "npcs"
RULE_HATS = "hats"
RULE_ITEMS = "items"
RULE_STATUS = "status-and-barrel"
RULE_HAMMERS = "hammers"
RULE_DANCED_OUT = "all-danced-out"


def is_npc(ctx: Ctx, name: str | None = None) -> bool:
    p = ctx.player(name)
    return bool(p and p.get("kind"))


def barred_npc(ctx: Ctx) -> bool:
    """Whether the actor is an NPC whom the NPCs rule keeps from acting.

    Seed 000, "NPCs": NPCs take no game actions of their own and do not vote. That is the NPCs rule's doing, so
    once it is repealed an NPC acts as any Monkey may (the repeal is looked up only for an NPC)."""
    return is_npc(ctx) and not repealed(ctx, RULE_NPCS)


def no_npc(ctx: Ctx) -> Iterator[str]:
    """Seed 000, NPCs: they take no game actions of their own (``barred_npc``)."""
    if barred_npc(ctx):
        yield f"{ctx.actor} is a non-player character and takes no actions of eir own"


def as_listed(value: Any, listed: Any) -> str | None:
    """The name of ``listed`` that ``value`` is in any case (a hammer list's, the Hat List's), as the list spells it;
    None when ``value`` is no text or no name of the list."""
    if type(value) is not str:
        return None
    key = value.casefold()
    return next((n for n in listed if isinstance(n, str) and n.casefold() == key), None)


def section_of(doc: dict[str, Any], name: str) -> dict[str, Any] | None:
    """A Monkey's section; found by reading, so of an edited document only the section returned is copied."""
    sections = doc["sections"]
    for i, s in enumerate(peek(sections)):
        if s["monkey"] == name:
            return sections[i]
    return None


def world(ctx: Ctx) -> World:
    w = World.load(ctx, options(ctx.config), format_time(ctx.at))
    if w.npcs and repealed(ctx, RULE_NPCS):
        # seed 000, "NPCs": Curious George's and King Kong's hammers, King Kong's hold on the top, Miss Bubbles'
        # second Swing and Robin Hood's bananas are that rule's; repealed, the World knows no NPC behaviour
        w.npcs = {}
    if repealed(ctx, RULE_HATS):
        # seed 000, "Hats" (Bare Head): the banana that becoming Bare costs is that rule's
        w.bare_costs = False
    if repealed(ctx, RULE_ITEMS):
        # seed 000, "Items": what a move does to items (left behind, picked up) is that rule's
        w.items_move = False
    return w


def line_world(ctx: Ctx) -> World:
    """The Line alone, for checks that only read who stands where (``World.load_line``).

    The options are read as ``world`` reads them, so a wrong option stops the action in the check as before.
    """
    options(ctx.config)
    return World.load_line(ctx)
