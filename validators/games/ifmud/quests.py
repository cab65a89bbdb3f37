"""Quests (Rules 139-142, 151): the roster, creating one by Random Selection and a d20, and the quest
tokens that travel home -> locate -> goal. Progress is a consequence (see consequences.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...engine import Action, Ctx, peek
from ...schemas import not_blank
from ...timeutil import format_time
from . import world as w
from .turns import mark, require_turn

MAX_QUESTS = 3


def roster(state: Any) -> list[dict[str, Any]]:
    return state.doc("quests")["quests"]


def _full(ctx: Ctx) -> Iterator[str]:
    if len(roster(ctx)) >= MAX_QUESTS:
        yield f"there are already {len(roster(ctx))} quests on the roster; a new one needs fewer than three"


def _too_few_rooms(ctx: Ctx) -> Iterator[str]:
    crescent = w.room_name(ctx, "crescent")
    if len([r for r in w.room_names(ctx) if r != crescent]) < 3:
        yield "the map needs three rooms besides Mornington Crescent"


def _create_ready(ctx: Ctx) -> Iterator[str]:
    """What stops creating a quest of any colour (``Action.ready``): not the actor's turn (Rule 27), three quests
    on the roster already, or too few rooms for home, locate and goal (Rule 142); the check says each."""
    yield from require_turn(ctx, rule="r142")
    yield from _full(ctx)
    yield from _too_few_rooms(ctx)


def _create_check(ctx: Ctx) -> Iterator[str]:
    yield from require_turn(ctx, rule="r142")
    yield from _full(ctx)
    colour = ctx.params["colour"]
    # ifMUD seed, Rule 142: a different colour; "Red" and "red" are one colour (reading in docs/modules/ifmud.md).
    if any(q["colour"].casefold() == colour.casefold() for q in roster(ctx)):
        yield f"a quest is already {colour}; each quest's colour differs (Rule 142)"
    yield from _too_few_rooms(ctx)


def _create(ctx: Ctx) -> None:
    mark(ctx)
    crescent = w.room_name(ctx, "crescent")
    pool = [r for r in w.room_names(ctx) if r != crescent]
    home = w.select(ctx, pool, "home", "r142")
    locate = w.select(ctx, [r for r in pool if r != home], "locate", "r142")
    goal = w.select(ctx, [r for r in pool if r not in (home, locate)], "goal", "r142")
    d20 = ctx.roll(20)
    value = {"brownie": d20} if d20 <= 17 else {"puissance": 1}
    doc = ctx.edit("quests")
    q: dict[str, Any] = {"id": doc["next"]}
    if ctx.params.get("name"):
        q["name"] = ctx.params["name"]
    q.update({"colour": ctx.params["colour"], "home": home, "locate": locate, "goal": goal, "value": value,
              "created_by": ctx.actor, "created": format_time(ctx.at)})
    doc["next"] += 1
    doc["quests"].append(q)
    ctx.step({"quest": q["id"], "d20": d20, "value": value})


CREATE = Action(
    name="ifmud.create-quest", rule="r142", summary="Create a quest (when fewer than three exist)",
    params={"type": "object", "required": ["colour"], "additionalProperties": False,
            "properties": {"name": not_blank({"type": "string", "maxLength": 120, "description": "the quest's name"},
                                             empty_ok=True),
                           "colour": not_blank({"type": "string", "maxLength": 40,
                                                "description": "its colour, unlike any other quest's"})}},
    check=_create_check, ready=_create_ready, effect=_create,
    doc="Name (optional) and colour (unlike any other quest's) are the player's; home, locate and goal are "
        "chosen in that order by Random Selection among the rooms other than Mornington Crescent and the "
        "ones already chosen; a d20 of 17 or less is the value in brownie points, 18 or more one Puissance. "
        "The rolls are made in one action, so a quest cannot be left half made.",
)


_get = dict.get
_item = dict.__getitem__


def quest_tokens(state: Any, qid: int) -> list[dict[str, Any]]:
    return w._picked(w.tokens(state), lambda t: _get(t, "quest") == qid)


def _raw_quest_tokens(state: Any, qid: int) -> list[dict[str, Any]]:
    """``quest_tokens`` read raw: for reading only."""
    return [t for t in peek(w.tokens(state)) if _get(t, "quest") == qid]


def progress(ctx: Ctx) -> bool:
    """Rules 140-141 once over; True if anything changed."""
    changed = False
    # seed 002 Rule 141 makes quest tokens at home, turns them at the locate room and pays at the goal; repealed,
    # no quest moves on (Rule 140's merging, below, is its own rule)
    quests = [] if w.repealed(ctx, "r141") else list(roster(ctx))
    # Nothing here moves a player or changes who plays: where everyone is can be read once.
    where = w.locations(ctx) if quests else {}
    for q in quests:
        primary = w.quest_token_name(q["colour"])
        home, locate, goal = q["home"], q["locate"], q["goal"]
        for p in w.player_names(ctx):
            here = where[p]
            if here != home and here != locate:
                continue  # nothing below can happen for them
            carried = {"player": p}
            mine = [t for t in _raw_quest_tokens(ctx, q["id"]) if _item(t, "location") == carried]
            if here == home and not any(_item(t, "name") == primary for t in mine):
                lying = [t for t in _raw_quest_tokens(ctx, q["id"]) if _item(t, "location") == {"room": here}
                         and _item(t, "name") == primary]
                if not lying:
                    w.new_token(ctx, {"name": primary, "quest": q["id"], "location": {"room": here}})
                    changed = True
            if here == locate:
                for t in mine:
                    # ifMUD seed, Rule 141: the stage is the name's last word (w.quest_stage), not any "primary"
                    # in it: a quest coloured "primary" or "secondary" keeps its colour in the name.
                    if w.quest_stage(t) == w.PRIMARY:
                        e = w.edit_token(ctx, _item(t, "id"))
                        e["name"] = w.promoted_name(e["name"])
                        ctx.step({"token": e["id"], "renamed": e["name"], "rule": "r141"})
                        changed = True
        at_goal = [p for p in w.player_names(ctx) if where[p] == goal]
        winners = []
        if at_goal:
            held = [t for t in _raw_quest_tokens(ctx, q["id"]) if w.quest_stage(t) == w.SECONDARY]
            winners = [p for p in at_goal if any(_item(t, "location") == {"player": p} for t in held)]
        if winners:
            stat, amount = next(iter(q["value"].items()))
            for p in winners:
                w.add_tally(ctx, p, int(amount), w.BROWNIE if stat == "brownie" else w.PUISSANCE,
                            f"Rule 141: quest {q.get('name') or q['colour']} completed")
            finish(ctx, q, winners)
            changed = True
    # seed 002 Rule 140: quest tokens of one name in one place merge; repealed, they lie side by side
    if not w.repealed(ctx, "r140"):
        changed |= merge(ctx)
    return changed


def finish(ctx: Ctx, q: dict[str, Any], winners: list[str] | None = None, why: str = "completed") -> None:
    for t in quest_tokens(ctx, q["id"]):
        w.remove_token(ctx, w.edit_token(ctx, t["id"]), f"quest {why}")
    doc = ctx.edit("quests")
    doc["quests"] = [x for x in doc["quests"] if x["id"] != q["id"]]
    record = {"id": q["id"], "colour": q["colour"], "result": why, "at": format_time(ctx.at)}
    if q.get("name"):
        record["name"] = q["name"]
    if winners:
        record["by"] = winners
        record["value"] = q["value"]
    doc.setdefault("history", []).append(record)
    ctx.step({"quest": q["id"], "result": why, **({"by": winners} if winners else {})})


def merge(ctx: Ctx) -> bool:
    """Rule 140: quest tokens of one name in one location become a single new token."""
    seen: set[tuple[Any, Any]] = set()
    for t in peek(w.tokens(ctx)):
        if "quest" in t:
            key = (_item(t, "name"), tuple(sorted(dict.items(_item(t, "location")))))
            if key in seen:
                break
            seen.add(key)
    else:
        return False  # no two quest tokens of one name in one place
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for t in w.tokens(ctx):
        if "quest" in t:
            groups.setdefault((t["name"], repr(sorted(t["location"].items()))), []).append(t)
    changed = False
    for (name, _), ts in groups.items():
        if len(ts) < 2:
            continue
        loc, quest = ts[0]["location"], ts[0]["quest"]
        for t in ts:
            w.remove_token(ctx, w.edit_token(ctx, t["id"]), "Rule 140: merged")
        w.new_token(ctx, {"name": name, "quest": quest, "location": loc})
        changed = True
    return changed


ACTIONS = [CREATE]
