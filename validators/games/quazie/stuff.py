"""Stuffs and the Nature of Stuff (seed 003 rules 10 and 11).

Stuffs are the roster stat ``stuff`` (0..200, new Muffins 100; clamp-or-refuse is roster.change_stat).
The New Item always equals a Muffin's Stuffs, so it is not stored; when a new word is chosen, the
New Item's column freezes into an Old Item (``quazie_items.old_items``) and new Muffins have 0 in it.
Each week starts with a reckoning: whoever has the most Stuffs at the end of Sunday is the Stuff
Describer (on a tie the GRAND POOBAH chooses among the tied), who posts STUFF SHALL BE once that week.
"""

from __future__ import annotations

import re
from typing import Any, Iterator

from ...engine import LEADER, Action, Ctx, Event, Problem, repealed
from ...roster import change_stat
from ...schemas import not_blank
from ...timeutil import next_weekly, week_start
from .common import R_NATURE, R_PLAYERS, R_SPECIAL, in_limbo, muffin, muffins, rule_number, stat

DESCRIBER = "Stuff Describer"
WORD = re.compile(r"^[A-Za-z][A-Za-z'-]{0,39}$")


def item_column(word: str) -> str:
    """Rule 11: item columns carry a capital O at the end of their name."""
    return f"{word}O"


def column_problems(state: Any) -> Iterator[Problem]:
    """Rule 11 (seed 003): a capital O at the end of a column's name marks an Old Item's column, and no other column
    may end so. The roster's stats are the GNDT's other columns, each named by its label (or its key, unlabelled):
    one a proposal named with a final O is reported there, and the enactment refused."""
    for key, d in dict.items(state.doc("roster").get("stats") or {}):
        label = d.get("label") if isinstance(d, dict) else None
        name = label if isinstance(label, str) and label else key
        if isinstance(name, str) and name.endswith("O"):
            yield Problem(f"the GNDT column {name!r} ends in a capital O, which its rule keeps for the Old Items' "
                          "columns", "roster", field=f"stats.{key}.label" if name == label else f"stats.{key}",
                          rule=R_NATURE)


def week(ctx: Ctx) -> str:
    return week_start(ctx.at).date().isoformat()


def set_describer(ctx: Ctx, name: str | None) -> None:
    """Make ``name`` the only Stuff Describer among the active Muffins. An idle holder keeps its Role (seed 003
    rule 2: idle Muffins are not Muffins for rule 11, and keep their values while idle); it is sorted out when it
    comes back (``returning.only_one_returns``)."""
    roster = ctx.edit("roster")
    for p in roster["players"]:
        if p.get("idle") or p.get("kind"):
            continue
        roles = list(stat(p, "roles", []))
        if DESCRIBER in roles and p["name"] != name:
            roles.remove(DESCRIBER)
            p["stats"]["roles"] = roles
    if name is not None:
        p = ctx.edit_player(name)
        if DESCRIBER not in stat(p, "roles", []):
            p["stats"]["roles"] = list(stat(p, "roles", [])) + [DESCRIBER]


def reckon(ctx: Ctx) -> None:
    """The weekly event: who has the most Stuffs as Sunday ends."""
    items = ctx.edit("quazie_items")
    # seed 003 rule 15 "Special Position Rules": a Muffin in Limbo keeps its Roles and cannot be named; repealed,
    # the reckoning counts it as any other Muffin
    limbo = not repealed(ctx, R_SPECIAL)
    stuck = [p["name"] for p in muffins(ctx)
             if limbo and in_limbo(stat(p, "position")) and DESCRIBER in stat(p, "roles", [])]
    if stuck:
        # rule 15: a Muffin in Limbo cannot lose its Role; rule 23: only one Stuff Describer. Naming another would
        # make two (the Limbo guard keeps the old one's Roles), so the Muffin in Limbo stays the Stuff Describer.
        items["tied"] = []
        ctx.step({"stuff_describer": stuck[0], "because": "in Limbo, its Roles cannot change"})
        return
    eligible = [p for p in muffins(ctx) if not (limbo and in_limbo(stat(p, "position")))]
    top = max((stat(p, "stuff", 0) for p in eligible), default=None)
    best = [p["name"] for p in eligible if stat(p, "stuff", 0) == top]
    items["tied"] = best if len(best) > 1 else []
    set_describer(ctx, best[0] if len(best) == 1 else None)
    ctx.step({"stuff_describer": best[0] if len(best) == 1 else None, "most_stuff": top,
              **({"tied": best} if len(best) > 1 else {})})


RECKONING = Event(
    name="quazie.stuff-reckoning",
    rule=R_NATURE,
    next_time=lambda t: next_weekly(t, 0, 0, 0, 0),
    apply=reckon,
    when="At the end of Sunday",
    summary="the Muffin with the most Stuffs becomes the Stuff Describer",
)


def _choose_ready(ctx: Ctx) -> Iterator[str]:
    """Seed 003 rule 11: the GRAND POOBAH chooses only when the week's reckoning found a tie for the most Stuffs."""
    if not ctx.doc("quazie_items").get("tied", []):
        yield "there is no tie for the most Stuffs to decide"


def _choose_check(ctx: Ctx) -> Iterator[str]:
    tied = ctx.doc("quazie_items").get("tied", [])
    if not tied:
        yield from _choose_ready(ctx)
    elif ctx.params["muffin"] not in tied:
        yield f"{ctx.params['muffin']} is not among the tied Muffins ({', '.join(tied)})"
    else:
        # rule 11 with core rule 2 (seed 003): idle Muffins are not Muffins for rule 11, so one that went idle since
        # the reckoning cannot be made the Stuff Describer; the GRAND POOBAH chooses among the active ones
        chosen = ctx.player(ctx.params["muffin"])
        if chosen is None or chosen.get("idle"):
            yield (f"{ctx.params['muffin']} is idle, and an idle Muffin is no Muffin for this rule (rule "
                   f"{rule_number(ctx, R_PLAYERS)}): choose among the tied Muffins who are active")


def _choose(ctx: Ctx) -> None:
    ctx.edit("quazie_items")["tied"] = []
    set_describer(ctx, ctx.params["muffin"])
    ctx.step({"stuff_describer": ctx.params["muffin"]})


CHOOSE = Action(
    name="quazie.choose-describer",
    rule=R_NATURE,
    summary="The GRAND POOBAH breaks a tie for the most Stuffs: who is the Stuff Describer",
    params={"type": "object", "required": ["muffin"], "additionalProperties": False,
            "properties": {"muffin": {"$ref": "common.schema.json#/$defs/name",
                                      "description": "the Muffin who becomes the Stuff Describer"}}},
    who=LEADER,
    check=_choose_check,
    ready=_choose_ready,
    effect=_choose,
)


def assigned_words(state: Any) -> set[str]:
    """Words that already have a meaning in this dynasty: items, flavours, moves, roles, keywords, stats."""
    t = state.doc("quazie_tables")
    items = state.doc("quazie_items")
    words = set(t.get("reserved_words", []))
    words |= {f["name"] for f in t["flavours"]} | set(t["dance"]["roll"].values())
    # rule 24's named movements ("Intricacy") have their meaning in this dynasty too (rule 11)
    words |= {m["name"] for m in t.get("movements", [])}
    words |= {i["word"] for i in items.get("old_items", [])}
    if items.get("new_item"):
        words.add(items["new_item"]["word"])
    words |= set(state.config.get("keywords", {}).values())
    for name, d in state.doc("roster")["stats"].items():
        words |= {name, str(d.get("label", name))}
    return {w.casefold() for w in words}


def _shall_be_ready(ctx: Ctx) -> Iterator[str]:
    """Seed 003 rule 11: only the Stuff Describer says STUFF SHALL BE, once a week, whatever the word."""
    me = ctx.player()
    if me is None or me.get("idle"):
        return
    if DESCRIBER not in stat(me, "roles", []):
        yield f"{ctx.actor} is not the Stuff Describer"
    if ctx.doc("quazie_items").get("described_week") == week(ctx):
        yield "the nature of Stuff has already been decided this week"


def _shall_be_check(ctx: Ctx) -> Iterator[str]:
    muffin(ctx, ctx.actor)
    word = ctx.params["word"]
    yield from _shall_be_ready(ctx)
    if not WORD.match(word):
        yield f"{word!r} is not one word (a noun, or a made-up word)"
    elif word.casefold() in assigned_words(ctx.state):
        yield f"{word!r} already has a meaning in this dynasty"


def _shall_be(ctx: Ctx) -> None:
    items = ctx.edit("quazie_items")
    old = items.get("new_item")
    if old:
        values = {p["name"]: stat(p, "stuff", 0) for p in ctx.doc("roster")["players"]}
        items.setdefault("old_items", []).append({"word": old["word"], "since": old["since"],
                                                  "until": ctx.record["at"], "values": values})
    items["new_item"] = {"word": ctx.params["word"], "since": ctx.record["at"], "by": ctx.actor}
    items["described_week"] = week(ctx)
    ctx.step({"stuff_shall_be": ctx.params["word"], "old_item": old["word"] if old else None})


STUFF_SHALL_BE = Action(
    name="quazie.stuff-shall-be",
    rule=R_NATURE,
    summary="STUFF SHALL BE: the Stuff Describer names the new nature of Stuff (the New Item)",
    params={"type": "object", "required": ["word"], "additionalProperties": False,
            "properties": {"word": {"type": "string", "minLength": 1, "maxLength": 40,
                                    "description": "the New Item: the word Stuff now is"}}},
    check=_shall_be_check,
    ready=_shall_be_ready,
    effect=_shall_be,
    doc="Once a week. One word, not already given a meaning in this dynasty. The New Item's column becomes an "
        "Old Item, frozen at each Muffin's Stuffs.",
)


def names_item(word: str, name: str) -> bool:
    """Whether ``name`` names the item ``word`` (case aside): by its word, or by its column's name, which ends in a
    capital O (rule 11: the O need never be mentioned to refer to the column, and mentioning it refers to it too)."""
    given = name.casefold()
    return given in (word.casefold(), item_column(word).casefold())


def _old_item_index(ctx: Ctx, name: str) -> int:
    """The position of the Old Item ``name`` names, or -1: its word first, then its column's name (so that an
    item whose word itself ends in O is never taken for another's column)."""
    listed = ctx.doc("quazie_items").get("old_items", [])
    for exact in (True, False):
        for i, item in enumerate(listed):
            if item["word"].casefold() == name.casefold() if exact else names_item(item["word"], name):
                return i
    return -1


def old_item(ctx: Ctx, word: str) -> dict[str, Any] | None:
    i = _old_item_index(ctx, word)
    return ctx.doc("quazie_items")["old_items"][i] if i >= 0 else None


def add_to_item(ctx: Ctx, who: str, word: str, delta: int) -> int:
    """Change a Muffin's Old Item by ``delta``, clamped to Stuff's bounds (rule 10); returns the change."""
    bounds = ctx.doc("roster")["stats"]["stuff"]
    i = _old_item_index(ctx, word)
    if i < 0:
        raise ctx.refuse(f"there is no Old Item {word!r}", R_NATURE)
    item = ctx.edit("quazie_items")["old_items"][i]
    before = int(item["values"].get(who, 0))
    after = max(bounds.get("min", 0), min(bounds.get("max", 200), before + delta))
    item["values"][who] = after
    return after - before


def reduce_all_stuff(ctx: Ctx, who: str, amount: int) -> None:
    """'All types of Stuff' (rule 11): Stuffs (and so the New Item) and every Old Item, none below 0."""
    got = change_stat(ctx, who, "stuff", -amount)
    changed = {"stuff": got}
    for item in ctx.doc("quazie_items").get("old_items", []):
        changed[item_column(item["word"])] = add_to_item(ctx, who, item["word"], -amount)
    ctx.step({"sacrifice": who, **changed})


EVENTS = [RECKONING]


# ---------------------------------------------------------------- rule 8: Dynasty Records


def _award_check(ctx: Ctx) -> Iterator[str]:
    muffin(ctx, ctx.params["to"])
    if ctx.params["to"] == ctx.actor:
        # in the game's words (``wording``: an Ascension Address may replace the title, rule 9)
        yield "the GRAND POOBAH rewards a Muffin who submitted a Dynasty Record, not itself"


def _award(ctx: Ctx) -> None:
    got = change_stat(ctx, ctx.params["to"], "stuff", 20, rule="dynasties")
    ctx.step({"dynasty_record": ctx.params.get("record", ""), "to": ctx.params["to"], "stuff": got})


RECORD_AWARD = Action(
    name="quazie.record-award",
    rule="dynasties",
    summary="The GRAND POOBAH gives 20 Stuffs to a Muffin whose Dynasty Record it uses",
    params={"type": "object", "required": ["to"], "additionalProperties": False,
            "properties": {"to": {"$ref": "common.schema.json#/$defs/name",
                                  "description": "the Muffin whose Dynasty Record is used"},
                           "record": not_blank({"type": "string", "maxLength": 200,
                                                "description": "the Dynasty Record used, in words"},
                                               empty_ok=True)}},
    who=LEADER,
    check=_award_check,
    effect=_award,
    doc="A power of Dynasties, a core rule (the core module has no action for it). Whether a record is used is the "
        "GRAND POOBAH's call; Stuffs stop at 200.",
)

ACTIONS = [CHOOSE, STUFF_SHALL_BE, RECORD_AWARD]
