"""Sections of the Dance: a Monkey sets eir own, and anyone trims one that has grown too long.

Seed 000, "Doing the Dance": a section is a list of moves from the move list,
written by name with every ``n_`` word replaced, whose complexities add up to
no more than the Monkey's Dance Moves; excess moves are removed latest first.
"""

from __future__ import annotations

from typing import Any, Iterator

from ...engine import Action, Ctx, repealed
from ...timeutil import format_time
from .common import no_npc as _no_npc
from .common import section_of
from .moves import RULE_MOVES, Entry, parse_entry, total_complexity

RULE_DANCE = "doing-the-dance"




def _update_check(ctx: Ctx) -> Iterator[str]:
    yield from _no_npc(ctx)
    if ctx.params["moves"] and repealed(ctx, RULE_MOVES):
        # seed 000, "Doing the Dance": only the moves the ruleset outlines may be added (2.3 Dance Moves in the
        # example); with that rule repealed none is, and a section may only be emptied
        yield "the rule that lists the dance moves is repealed: no move may be added to a section"
        return
    moves = ctx.doc("monkey_dance")["moves"]
    entries: list[Entry] = []
    for text in ctx.params["moves"]:
        try:
            entries.append(parse_entry(text, moves))
        except ValueError as e:
            yield str(e)
    if len(entries) == len(ctx.params["moves"]):
        me = ctx.player()
        dm = int(me["stats"].get("dance_moves", 0)) if me else 0
        total = total_complexity(entries)
        if total > dm:
            yield f"the moves' total complexity is {total}; {ctx.actor} has {dm} Dance Moves"


def _update(ctx: Ctx) -> None:
    moves = ctx.doc("monkey_dance")["moves"]
    canon = [parse_entry(t, moves).text for t in ctx.params["moves"]]
    doc = ctx.edit("monkey_dance")
    section = section_of(doc, ctx.actor)
    if section is None:
        section = {"monkey": ctx.actor}
        doc["sections"].append(section)
    section["moves"] = canon
    section["updated"] = format_time(ctx.at)
    ctx.step({"section": ctx.actor, "moves": canon})


UPDATE_SECTION = Action(
    name="monkey.update-section",
    rule=RULE_DANCE,
    summary="Replace your own section of the Dance with a list of dance moves",
    params={"type": "object", "required": ["moves"], "additionalProperties": False,
            "properties": {"moves": {"type": "array", "maxItems": 100,
                                     "items": {"type": "string", "minLength": 1, "maxLength": 100},
                                     "description": "your section's new dance moves, in order"}}},
    check=_update_check,
    effect=_update,
    doc="`moves` lists dance moves by name, with every `n_` word replaced by a positive integer (the same word "
        "by the same value): `moves=[Swing 2 to 5, Bow]`. Their total complexity may not exceed your Dance "
        "Moves. The engine stores each move's name as the move list spells it.",
)


def _overlong(ctx: Ctx, section: dict[str, Any]) -> bool:
    """Whether a section's moves add up to more than its Monkey's Dance Moves (so it may be trimmed)."""
    target = ctx.player(section["monkey"])
    if target is None:
        return False
    entries = _entries(ctx.doc("monkey_dance")["moves"], section["moves"])
    return total_complexity(entries) > int(target["stats"].get("dance_moves", 0))


def _trim_ready(ctx: Ctx) -> Iterator[str]:
    """Seed 000, "Doing the Dance": only excess moves are removed; with no section over its Monkey's Dance Moves,
    the check refuses every name (no section, or one within them)."""
    if not any(_overlong(ctx, s) for s in ctx.doc("monkey_dance")["sections"]):
        yield "no section of the Dance exceeds its Monkey's Dance Moves"


def _trim_check(ctx: Ctx) -> Iterator[str]:
    yield from _no_npc(ctx)
    name = ctx.params["monkey"]
    target = ctx.player(name)
    section = section_of(ctx.doc("monkey_dance"), name)
    if target is None or section is None:
        yield f"{name} has no section of the Dance"
        return
    entries = _entries(ctx.doc("monkey_dance")["moves"], section["moves"])
    dm = int(target["stats"].get("dance_moves", 0))
    if total_complexity(entries) <= dm:
        yield f"{name}'s section has total complexity {total_complexity(entries)}, within eir {dm} Dance Moves"


def _entries(moves: list[dict[str, Any]], texts: list[str]) -> list[Entry]:
    out = []
    for t in texts:
        try:
            out.append(parse_entry(t, moves))
        except ValueError:
            continue
    return out


def _trim(ctx: Ctx) -> None:
    name = ctx.params["monkey"]
    dm = int(ctx.player(name)["stats"].get("dance_moves", 0))
    doc = ctx.edit("monkey_dance")
    section = section_of(doc, name)
    removed = []
    while section["moves"] and total_complexity(_entries(doc["moves"], section["moves"])) > dm:
        removed.append(section["moves"].pop())
    ctx.step({"section": name, "removed": removed})


TRIM_SECTION = Action(
    name="monkey.trim-section",
    rule=RULE_DANCE,
    summary="Remove the excess moves of a section, latest first, until it fits its Monkey's Dance Moves",
    params={"type": "object", "required": ["monkey"], "additionalProperties": False,
            "properties": {"monkey": {"$ref": "common.schema.json#/$defs/name",
                                      "description": "the Monkey whose section has too many moves"}}},
    check=_trim_check,
    ready=_trim_ready,
    effect=_trim,
    doc="Any Monkey may do it to any section whose total complexity exceeds its owner's Dance Moves.",
)


ACTIONS = [UPDATE_SECTION, TRIM_SECTION]
