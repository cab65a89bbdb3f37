"""Items: using one, and their weekly reactivation.

Seed 000, "Items" and "List of Items". An item has a name, a size, a
description and a status (Activated or Deactivated; the Banana Fountain
counts down "Active - 3 left" ... "Unactive"). Only its holder may use it;
using it deactivates it until 00:00 on Sunday, when every item is activated
again. What each item does is chosen by its ``kind``:

* ``monkey-ball``: the holder gains three bananas;
* ``flaming-frisbee``: thrown to another position; a Monkey there catches it
  and loses a banana, else it lies there. Any position may be named, past the
  last Monkey too: "The Monkey Line" makes the Line endless, numbered from one
  upwards, so every such square is a position of the Line (the parameter stops
  at 100000, a bound on a record, not a rule);
* ``big-rock``: on a Monkey adjacent in the Line (the nearest Monkey on
  either side, across any empty squares), who goes into the barrel; the rock
  lies where e stood, or goes to the Monkey still standing there (a doubled
  position: an unheld item lies only in an empty position);
* ``good-luck-charm``: the holder goes to the end of the Line, even from the
  barrel (but not while All Danced Out holds em there);
* ``banana-fountain``: one banana, at most once a day, three times a week.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...engine import Action, Ctx, Problem, repealed
from ...timeutil import day_start, format_time, parse_time
from .common import RULE_DANCED_OUT, barred_npc, line_world, world
from .world import IN_LINE, KongHolds

RULE = "items"
RULE_LIST = "list-of-items"
FOUNTAIN_STATES = ("Active - 3 left", "Active - 2 left", "Active - 1 left", "Unactive")
ACTIVE = "Activated"
INACTIVE = "Deactivated"


def find_item(items: list[dict[str, Any]], name: str) -> dict[str, Any] | None:
    for item in items:
        if item["name"].casefold() == name.casefold():
            return item
    return None


def usable(item: dict[str, Any]) -> bool:
    if item.get("kind") == "banana-fountain":
        return item.get("status") not in ("Unactive", INACTIVE)
    return item.get("status") == ACTIVE


def _used_today(item: dict[str, Any], ctx: Ctx) -> bool:
    """The Banana Fountain gives its banana once a day (seed 000, "List of Items")."""
    return bool(item.get("kind") == "banana-fountain" and item.get("last_used")
                and day_start(parse_time(item["last_used"])) == day_start(ctx.at))


def _use_ready(ctx: Ctx) -> Iterator[str]:
    """Seed 000, "Items": only an item's holder uses it, and only while it is activated (the Fountain once a day).
    With no item held, or every one held deactivated or used today, the check refuses every name: the item a name
    finds is none, another's, or one of these."""
    if repealed(ctx, RULE_LIST):
        yield "the rule that describes the items is repealed: no item has a use"  # as the check says of each
        return
    held = [item for item in ctx.doc("monkey_items")["items"] if item.get("held_by") == ctx.actor]
    if not held:
        yield f"{ctx.actor} holds no item"
    elif not any(usable(item) and not _used_today(item, ctx) for item in held):
        why = ", ".join(f"{item['name']} was already used today" if usable(item) else
                        f"{item['name']} is {item.get('status')}" for item in held)
        yield f"none of the items {ctx.actor} holds can be used now ({why})"


def _use_check(ctx: Ctx) -> Iterator[str]:
    if barred_npc(ctx):
        yield f"{ctx.actor} is a non-player character and takes no actions of eir own"
        return
    item = find_item(ctx.doc("monkey_items")["items"], ctx.params["item"])
    if item is None:
        yield f"there is no item {ctx.params['item']!r}"
        return
    if item.get("held_by") != ctx.actor:
        where = f"held by {item['held_by']}" if item.get("held_by") else f"lying in position {item.get('lies_at')}"
        yield f"only the Monkey holding {item['name']} may use it; it is {where}"
        return
    if repealed(ctx, RULE_LIST):
        # seed 000, "List of Items": what each item does when used is that rule's description; with it repealed no
        # item has a use (the Items rule's action stands, for items a later rule may describe)
        yield Problem(f"{item['name']} has no use: the rule that describes the items is repealed", rule=RULE_LIST)
        return
    kind = item.get("kind")
    if not usable(item):
        # the Banana Fountain's countdown is its own description's (List of Items); any other item is Deactivated
        # by the Items rule until it is activated again
        yield Problem(f"{item['name']} is {item.get('status')}; it may be used again once it is activated",
                      rule=RULE_LIST if kind == "banana-fountain" else RULE)
    # Seed 000, "List of Items": each item's description says how it is used (the Fountain once a day, the
    # Frisbee and the Big Rock at a position), so a use against those words is refused citing that rule
    if _used_today(item, ctx):
        yield Problem(f"{item['name']} was already used today (at {item['last_used']})", rule=RULE_LIST)
    target = ctx.params.get("target")
    w = line_world(ctx)
    # Seed 000, "List of Items" (Flaming Frisbee) names "another position in the Monkey line"; "The Monkey Line"
    # makes that line endless, so a square after the last Monkey is one of its positions and may be the target.
    if kind in ("flaming-frisbee", "big-rock"):
        if target is None:
            yield Problem(f"{item['name']} needs a target position (target=N)", rule=RULE_LIST)
            return
        mine = w.pos.get(ctx.actor)
        if mine is None:
            yield Problem(f"{ctx.actor} is not in the Line", rule=RULE_LIST)
            return
        if target == mine:
            yield Problem(f"{item['name']} must be aimed at another position than {ctx.actor}'s own ({mine})",
                          rule=RULE_LIST)
        if kind == "big-rock":
            # Seed 000, "List of Items" (Big Rock): only on a Monkey adjacent in line, read as the nearest
            # Monkey on either side; an empty square in between (a gap, "The Monkey Line") is passed over.
            if not w.at(target):
                yield Problem(f"nobody is in position {target}", rule=RULE_LIST)
            elif target not in w.adjacent_positions(mine):
                near = " and ".join(str(p) for p in w.adjacent_positions(mine) if p is not None) or "nobody"
                yield Problem(f"the Big Rock may only be used on a Monkey adjacent in line to {ctx.actor} "
                              f"(position {mine}): the nearest Monkeys stand in position {near}", rule=RULE_LIST)
    elif target is not None:
        yield Problem(f"{item['name']} takes no target", rule=RULE_LIST)
    if kind == "good-luck-charm" and not repealed(ctx, RULE_DANCED_OUT):
        # Seed 000, "All Danced Out": a danced-out Monkey must stay in the barrel until eir stay is over;
        # the Charm's "even from the barrel" is the way out of an ordinary stay, which the rule lets apply
        # only after that ("normal rules for exiting the barrel apply"). With that rule repealed, no stay holds.
        held = next((b for b in ctx.doc("monkey_line").get("barrel", [])
                     if b["name"] == ctx.actor and b.get("held_until")), None)
        if held is not None:
            yield Problem(f"{ctx.actor} is All Danced Out and must stay in the barrel until {held['held_until']}; "
                          "the Good Luck Charm may bring em back after that", rule=RULE_DANCED_OUT)
    if kind not in KINDS:
        yield Problem(f"{item['name']} has no known use (kind {kind!r})", rule=RULE_LIST)


def _use(ctx: Ctx) -> None:
    w = world(ctx)
    item = find_item(w.items, ctx.params["item"])
    assert item is not None
    me = ctx.actor
    kind = item["kind"]
    KINDS[kind](ctx, w, item)
    if kind == "banana-fountain":
        i = FOUNTAIN_STATES.index(item["status"]) if item["status"] in FOUNTAIN_STATES else 0
        item["status"] = FOUNTAIN_STATES[min(i + 1, 3)]
        item["last_used"] = format_time(ctx.at)
    else:
        item["status"] = INACTIVE
    w.log.append(f"{item['name']} is now {item['status']}")
    w.save(ctx)
    ctx.step({"monkey": me, "item": item["name"], "events": w.log})


def _ball(ctx: Ctx, w: Any, item: dict[str, Any]) -> None:
    w.add_bananas(ctx.actor, 3)
    w.log.append(f"{ctx.actor} gains 3 bananas")


def _frisbee(ctx: Ctx, w: Any, item: dict[str, Any]) -> None:
    target = ctx.params["target"]
    here = w.at(target)
    del item["held_by"]
    if here:
        catcher = here[0]
        item["held_by"] = catcher
        lost = -w.add_bananas(catcher, -1)
        w.log.append(f"{catcher} catches {item['name']} in position {target} and loses {lost} banana")
    else:
        item["lies_at"] = target
        w.log.append(f"{item['name']} lands in empty position {target} and waits there")


def _rock(ctx: Ctx, w: Any, item: dict[str, Any]) -> None:
    target = ctx.params["target"]
    victim = w.at(target)[0]
    try:
        w.to_barrel(victim)
    except KongHolds as e:
        raise ctx.refuse(str(e), rule="npcs") from None
    del item["held_by"]
    # Seed 000, Items: an item nobody holds lies only in an empty position. If the target was a doubled
    # position, the Monkey still standing there gains the rock at once (as a Monkey in the Flaming Frisbee's
    # target position gains it); otherwise it lies in the emptied square.
    here = w.at(target)
    if here:
        item["held_by"] = here[0]
        w.log.append(f"{item['name']} lands in position {target}, where {here[0]} stands and takes it")
    else:
        item["lies_at"] = target
        w.log.append(f"{item['name']} now lies in position {target}")


def _charm(ctx: Ctx, w: Any, item: dict[str, Any]) -> None:
    me = ctx.actor
    if me in w.pos:
        try:
            w.to_back(me)
        except KongHolds as e:
            raise ctx.refuse(str(e), rule="npcs") from None
    else:
        w.leave_barrel(me)
        w.stats[me]["status"] = IN_LINE


def _fountain(ctx: Ctx, w: Any, item: dict[str, Any]) -> None:
    w.add_bananas(ctx.actor, 1)
    w.log.append(f"{ctx.actor} drinks from {item['name']}: +1 banana")


KINDS = {"monkey-ball": _ball, "flaming-frisbee": _frisbee, "big-rock": _rock, "good-luck-charm": _charm,
         "banana-fountain": _fountain}

USE_ITEM = Action(
    name="monkey.use-item",
    rule=RULE,
    summary="Use an item you hold",
    params={"type": "object", "required": ["item"], "additionalProperties": False,
            "properties": {"item": {"type": "string", "minLength": 1, "maxLength": 80,
                                    "description": "the name of the item you hold"},
                           "target": {"type": "integer", "minimum": 1, "maximum": 100000,
                                      "description": "the position in the Line it is aimed at (the Flaming Frisbee, "
                                                     "the Big Rock)"}}},
    check=_use_check,
    ready=_use_ready,
    effect=_use,
    doc="`item` is the item's name; the Flaming Frisbee and the Big Rock need `target`, a position (1 to 100000; "
        "the Frisbee may land past the last Monkey, the Line being endless, and lies there). Using an item "
        "deactivates it until Sunday 00:00 (the Banana Fountain counts down instead, once a day). The Good Luck "
        "Charm works from the barrel, but not while All Danced Out still holds you there.",
)


def reactivate(ctx: Ctx) -> None:
    """Sunday 00:00 UTC (seed 000, "Items"): every item is activated; the fountain is full again."""
    doc = ctx.doc("monkey_items")
    changes = []
    for i, item in enumerate(doc["items"]):
        want = FOUNTAIN_STATES[0] if item.get("kind") == "banana-fountain" else ACTIVE
        if item.get("status") != want:
            changes.append((i, want))
    if changes:
        items = ctx.edit("monkey_items")["items"]
        for i, want in changes:
            items[i]["status"] = want
        ctx.step({"reactivated": [items[i]["name"] for i, _ in changes]})


ACTIONS = [USE_ITEM]
