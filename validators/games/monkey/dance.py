"""The Dance: conducting a whole dance in one action, and what happens after it.

Seed 000, "Doing the Dance", with "NPCs" (Curious George, King Kong, Robin
Hood), "Hot Potato", the status rule (the barrel after a dance) and "All
Danced Out". Conducting is one action: the engine rolls the order of the
Monkeys, runs every section move by move, rebalances the Line after each,
then applies the after-dance rules in this order (docs/modules/monkey.md):

1. Robin Hood and the Monkey just above em;
2. everyone holding a Hot Potato loses a banana;
3. Curious George and King Kong take their hammers back (Kong a Sledge if e
   ends at the top);
4. the Monkeys who were in the barrel when the dance began come back, in
   alphabetical order, to the end of the Line (unless All Danced Out holds
   them);
5. All Danced Out: every Monkey with zero Dance Moves or fewer goes into the
   barrel until the date changes and at least twelve hours pass (a longer
   stay e is already held for is kept).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

from ...engine import Action, Ctx, peek, repealed, ruled
from ...timeutil import day_start, format_time, parse_time
from .common import RULE_DANCED_OUT, RULE_HAMMERS, RULE_NPCS, RULE_STATUS, line_world, section_of, world
from .common import no_npc as _no_npc
from .moves import EXECUTED, FAILED, RULE_MOVES, Roller, parse_entry, run_move
from .options import options
from .world import IN_BARREL, World, alphabetical, get_raw_or

RULE_DANCE = "doing-the-dance"


# ---------------------------------------------------------------- conducting the Dance


def _conduct_check(ctx: Ctx) -> Iterator[str]:
    yield from _no_npc(ctx)
    o = options(ctx.config)
    for d in reversed(ctx.doc("monkey_dance").get("history", [])):
        if ctx.at - parse_time(d["at"]) >= timedelta(hours=48):
            break
        if o["dance_cooldown"] == "anyone" or d["by"] != ctx.actor:
            yield f"{d['by']} conducted the Dance at {d['at']}, less than 48 hours ago"
            break
    section = section_of(ctx.doc("monkey_dance"), ctx.actor)
    if section and section.get("updated") and ctx.at - parse_time(section["updated"]) < timedelta(hours=6):
        yield f"{ctx.actor} updated eir section at {section['updated']}, less than 6 hours ago"
    if line_world(ctx).is_unbalanced():
        yield "the Monkey Line is Unbalanced; balance it before conducting the Dance"


def dancers(ctx: Ctx) -> list[str]:
    """Every active Monkey with a section: not idle, not an NPC (NPCs have no sections), in character-code order.

    Seed 000, "NPCs" is what leaves NPCs out of the Dance; once it is repealed they are active Monkeys like the
    others and take their turn in the order (an NPC with no section has no move to dance)."""
    if repealed(ctx, RULE_NPCS):
        return sorted(p["name"] for p in ctx.players() if not p.get("idle"))
    return sorted(p["name"] for p in ctx.players() if not p.get("idle") and not p.get("kind"))


def roll_order(names: list[str], roll: Any) -> list[str]:
    """A random order: each die picks the next Monkey from those left, counted in character-code order.

    Seed 000, "Doing the Dance", only asks for the active Monkeys in a random list; how dice make that list is
    the engine's choice (a reading in docs/modules/monkey.md), so the plain sort stays: it is not the rule's
    "alphabetical" order (``world.alphabetical``), and changing it would re-roll every stored dance."""
    left = sorted(names)
    order = []
    while left:
        k = roll(len(left)) if len(left) > 1 else 1
        order.append(left.pop(k - 1))
    return order


def end_holds(w: World, ctx_at: Any) -> None:
    """All Danced Out: a Monkey whose stay has run its time gets three Dance Moves."""
    for b in w.barrel:
        if b.get("held_until") and _over(b["held_until"], ctx_at):
            del b["held_until"]
            w.stats[b["name"]]["dance_moves"] = 3
            w.log.append(f"{b['name']} has stayed in the barrel long enough: eir Dance Moves are set to 3")


def _snapshot(w: World) -> dict[str, Any]:
    return {"line": w.in_order(), "barrel": [b["name"] for b in w.barrel]}


def _conduct(ctx: Ctx) -> None:
    w = world(ctx)
    # what the dance changed is counted from before a stay that is over ends (it ends within this action)
    stats_at_start = copy.deepcopy(w.stats)
    items_at_start = {i["name"]: _where(i) for i in w.items}
    # seed 000, "All Danced Out": a stay over by now ends as the dance begins; repealed, the rule ends none
    danced_out = not repealed(ctx, RULE_DANCED_OUT)
    if danced_out:
        end_holds(w, ctx.at)
    ended = list(w.log)
    dance_doc = ctx.doc("monkey_dance")
    number = len(dance_doc.get("history", [])) + 1
    in_barrel_at_start = [b["name"] for b in w.barrel]
    order = roll_order(dancers(ctx), ctx.roll)
    steps: list[dict[str, Any]] = []

    shown: dict[str, Any] = {}

    def step(entry: dict[str, Any]) -> None:
        # the line and the barrel are recorded only when they differ from the last step that showed them
        snap = _snapshot(w)
        for key in ("line", "barrel"):
            entry.pop(key, None)
            if shown.get(key) != snap[key]:
                entry[key] = snap[key]
                shown[key] = snap[key]
        steps.append(entry)
        ctx.step(entry)

    step({"dance": number, "conductor": ctx.actor, "order": order})
    if ended:
        # Seed 000, All Danced Out: a stay found over as the dance begins ends then (Dance Moves set to 3), which
        # the record tells before the first move
        step({"before": "All Danced Out", "events": ended})
    moves = dance_doc["moves"]
    # seed 000, "Doing the Dance": only the moves the ruleset outlines are danced (2.3 Dance Moves in the example);
    # with that rule repealed every entry left in a section is skipped
    no_moves = repealed(ctx, RULE_MOVES)
    for monkey in order:
        section = section_of(dance_doc, monkey)
        spent = 0
        for text in (section or {}).get("moves", []):
            w.log = []
            if no_moves:
                step({"monkey": monkey, "move": text, "result": "skipped",
                      "events": ["the rule that lists the dance moves is repealed"]})
                continue
            try:
                entry = parse_entry(text, moves)
            except ValueError as e:
                step({"monkey": monkey, "move": text, "result": "skipped", "events": [str(e)]})
                continue
            if spent + entry.complexity > w.dance_moves(monkey):
                step({"monkey": monkey, "move": entry.text, "complexity": entry.complexity, "result": "stopped",
                      "events": [(f"{monkey} has executed moves of complexity {spent}; this one would pass eir "
                                  f"{w.dance_moves(monkey)} Dance Moves, so eir section ends here")]})
                break
            result = run_move(w, entry, Roller(ctx.roll))
            if result in (EXECUTED, FAILED):
                spent += entry.complexity
            if w.is_unbalanced():
                w.log.append("the Line is Unbalanced: it is corrected")
                w.rebalance()
            step({"monkey": monkey, "move": entry.text, "complexity": entry.complexity, "result": result,
                  "events": list(w.log)})
    _after_dance(ctx, w, in_barrel_at_start, step, danced_out=danced_out, hot_potato=not repealed(ctx, RULE_HAMMERS),
                 barrel=not repealed(ctx, RULE_STATUS))
    step({"summary": number, **_changes(w, stats_at_start, items_at_start)})
    w.save(ctx)
    doc = ctx.edit("monkey_dance")
    doc.setdefault("history", []).append({"number": number, "at": format_time(ctx.at), "by": ctx.actor})
    doc["last_dance"] = {"number": number, "at": format_time(ctx.at), "by": ctx.actor, "steps": steps}


SUMMARY_STATS = ("bananas", "dance_moves", "hammer", "hat", "status")


def _where(item: dict[str, Any]) -> str:
    return str(item["held_by"]) if item.get("held_by") else f"position {item.get('lies_at')}"


def _changes(w: World, stats: dict[str, dict[str, Any]], items: dict[str, str]) -> dict[str, Any]:
    """What the whole dance changed: each Monkey's stats and each item's place, as [before, after]."""
    monkeys = {}
    for name in sorted(w.stats):
        diff = {k: [stats[name].get(k), w.stats[name].get(k)] for k in SUMMARY_STATS
                if stats[name].get(k) != w.stats[name].get(k)}
        if diff:
            monkeys[name] = diff
    moved = {i["name"]: [items.get(i["name"]), _where(i)] for i in w.items if items.get(i["name"]) != _where(i)}
    return {"monkeys": monkeys, "items": moved}


def _after_dance(ctx: Any, w: World, in_barrel_at_start: list[str], step: Any, *, danced_out: bool = True,
                 hot_potato: bool = True, barrel: bool = True) -> None:
    """The after-dance rules, each only while the rule making it is in force: ``danced_out`` (All Danced Out),
    ``hot_potato`` (Hammers), ``barrel`` (the status rule); the caller looks each up (``engine.repealed``)."""
    # 1. Robin Hood (seed 000, "Robin Hood"): compares with the Monkey just above em as the dance finished. The NPCs'
    # behaviours are the NPCs rule's: with it repealed, the World knows none (``common.world``), so Robin Hood and
    # the NPC hammers below do nothing.
    w.log = []
    robin = w.npc("robin-hood")
    if robin and robin in w.pos and w.pos[robin] > 1:
        above = w.single(w.pos[robin] - 1)
        if above:
            if w.bananas(above) > w.bananas(robin):
                w.add_bananas(above, -1)
                w.add_bananas(robin, 1)
                w.log.append(f"{robin} takes a banana from {above}")
            elif w.bananas(above) < w.bananas(robin):
                w.add_bananas(robin, -1)
                w.add_bananas(above, 1)
                w.log.append(f"{robin} gives a banana to {above}")
            else:
                w.log.append(f"{robin} and {above} have as many bananas: nothing changes hands")
    if w.log:
        step({"after": "Robin Hood", "events": list(w.log)})
    # 2. Hot Potato (seed 000, "Hammers"): whoever holds one loses a banana, if e has one; not once that rule is
    # repealed.
    w.log = []
    for name in (sorted(w.stats) if hot_potato else ()):
        if name not in w.idle and w.effect_of(name) == "hot-potato":
            lost = -w.add_bananas(name, -1)
            w.log.append(f"{name} holds a Hot Potato and loses {lost} banana")
    if w.log:
        step({"after": "Hot Potato", "events": list(w.log)})
    # 3. Curious George and King Kong (seed 000, "NPCs"): each reverts if eir hammer was changed at any
    # time during the Dance, even if it was changed back before the end (w.hammer_changed), not only if it
    # differs from the start.
    w.log = []
    changed = set(w.hammer_changed)
    george = w.npc("magnet-revert")
    if george and george in changed:
        magnet = w.hammer_named_by_effect("magnet") or "Magnet"
        w.set_hammer(george, magnet)
        w.log.append(f"{george}'s hammer was changed during the Dance: e takes a {magnet} hammer again")
    kong = w.npc("king-kong")
    if kong:
        if w.pos.get(kong) == 1:
            sledge = w.hammer_named_by_effect("sledge") or "Sledge"
            if w.hammer_of(kong) != sledge:
                w.set_hammer(kong, sledge)
            w.log.append(f"{kong} ends the Dance at the top and takes a {sledge} hammer")
        elif kong in changed:
            shotgun = w.hammer_named_by_effect("shotgun") or "Shot-gun"
            w.set_hammer(kong, shotgun)
            w.log.append(f"{kong}'s hammer was changed during the Dance: e takes a {shotgun} hammer again")
    if w.log:
        step({"after": "NPC hammers", "events": list(w.log)})
    # 4. The barrel (seed 000, status rule): those in it when the dance began come back, alphabetically; not once
    # that rule is repealed. All Danced Out keeps a held Monkey in; with it repealed, its stays hold nobody.
    w.log = []
    for name in (sorted(in_barrel_at_start, key=alphabetical) if barrel else ()):
        entry = next((b for b in w.barrel if b["name"] == name), None)
        if entry is None:
            continue
        if name in w.idle:
            # Seed 000, status rule: "any Monkey" in the barrel when the Dance began comes back, a quantifier over
            # Monkeys, and seed 001 1.2 (Idle) counts an idle Monkey as none, eir gamestate waiting for eir return
            # (as the Hot Potato and All Danced Out leave em out): e stays in the barrel, and the first Dance after
            # e comes back, which e begins in the barrel, brings em back.
            w.log.append(f"{name} is idle and stays in the barrel until a Dance after e comes back")
            continue
        if danced_out and entry.get("held_until"):
            w.log.append(f"{name} is All Danced Out and stays in the barrel until {entry['held_until']}")
            continue
        w.leave_barrel(name)
    if w.log:
        step({"after": "The barrel", "events": list(w.log)})
    # 5. All Danced Out (seed 000): zero Dance Moves or fewer -> the barrel, until the date changes and 12 hours;
    # nobody once that rule is repealed.
    w.log = []
    until = format_time(max(day_start(ctx.at) + timedelta(days=1), ctx.at + timedelta(hours=12)))
    for name in (sorted(w.stats) if danced_out else ()):
        if name in w.idle or w.dance_moves(name) > 0:
            continue
        if name in w.pos:
            w.to_barrel(name, allow_kong=True)
        else:
            w.log.append(f"{name} is already in the barrel")
        w.stats[name]["status"] = IN_BARREL
        entry = next(b for b in w.barrel if b["name"] == name)
        # The rule asks for a stay at least this long; it does not end a longer one the Monkey is already held
        # for (a proposal's patch may have set it), so the later end is kept.
        kept = entry.get("held_until")
        end = kept if kept and _time_or_none(kept) is not None and parse_time(kept) > parse_time(until) else until
        entry["held_until"] = end
        w.log.append(f"{name} is All Danced Out ({w.dance_moves(name)} Dance Moves): in the barrel until {end}")
    if w.is_unbalanced():
        w.log.append("the Line is Unbalanced; any Monkey may now balance it")
    if w.log:
        step({"after": "All Danced Out", "events": list(w.log)})


CONDUCT = Action(
    name="monkey.dance",
    rule=RULE_DANCE,
    summary="Conduct the Dance: every section, in a random order, move by move",
    check=_conduct_check,
    effect=_conduct,
    doc="Nobody may have conducted the Dance in the last 48 hours, your own section must be unchanged for six "
        "hours, and the Line must not be Unbalanced. The engine rolls the order of the Monkeys (each die picks "
        "the next Monkey from those left, counted in character-code order), runs each section in order while the "
        "executed complexity stays within that Monkey's Dance Moves, rebalances the Line after every move, then "
        "applies Robin Hood, Hot Potato, the NPCs' hammers, the barrel and All Danced Out. The action file's `outcome` "
        "is the dance step by step; the wiki draws it.",
)


# ---------------------------------------------------------------- time passing: All Danced Out


def next_hold_end(state: Any, after: datetime) -> datetime | None:
    """All Danced Out: the first moment strictly after ``after`` at which a Monkey's stay is over, or None.

    Seed 000, "All Danced Out": the Dance Moves become three once the stay has lasted long enough, that
    is at ``held_until`` itself (the later of the next midnight and twelve hours after the dance), not at
    the next whole hour. Only an action (a dance, or a proposal's patch) writes a stay's end, and the event
    only ends stays that are over, so the times read here as time starts passing hold until the next action.
    An end an action writes at or before its own time is never strictly after the clock: ``end_past_holds``
    ends that stay within the action itself.
    """
    ends = (_time_or_none(b["held_until"]) for b in state.doc("monkey_line").get("barrel", []) if b.get("held_until"))
    return min((t for t in ends if t is not None and t > after), default=None)


def _time_or_none(text: Any) -> datetime | None:
    """A stay's end, or None for a time that cannot be read (the schema check reports it, with its file)."""
    try:
        return parse_time(text)
    except ValueError:
        return None


def end_holds_event(ctx: Ctx) -> None:
    w = world(ctx)
    end_holds(w, ctx.at)
    if w.log:
        w.save(ctx)
        ctx.step({"events": list(w.log)})


# Seed 000, "Doing the Dance": the Dance Moves stat is five for a new Monkey, ten for the Top Banana at the start
TOP_BANANA_DANCE_MOVES = 10


# seed 000, "Doing the Dance": the Top Banana's ten Dance Moves are that rule's; repealed, a new leader gets none
@ruled(RULE_DANCE)
def top_banana_starts_with_ten(ctx: Ctx) -> None:
    """After any action that changed the dynasty: a Top Banana who starts leading has ten Dance Moves.

    Seed 000, "Doing the Dance": Dance Moves are five for a Monkey, except that the Top Banana (the dynasty's
    leader, seed 001 1.8) starts with ten. Reading (docs/modules/monkey.md): the ten are given when a Top Banana
    starts to lead the play, that is when the Hiatus after a passing DoV ends (the Ascension Address, or whatever
    action ends the wait for it), to whoever leads then: until the Address the winner may still hand the role on
    (1.9), and nothing of the Dance is played meanwhile; and at once when a proposal's or CfJ's patch names another
    leader while no Address is awaited. Eir Dance Moves are set to ten, the starting value, whatever e had, unless
    the same action wrote them (a proposal that says otherwise). A Top Banana who stops being one keeps eir Dance
    Moves: the rule gives a starting value, which play changes afterwards (Bow, the Fairy and MC hammers), and
    nothing in it takes them back. A leader who is the same player under a new name (1.2) starts nothing. Only an
    action that edited the dynasty can change its leader or end the wait, so the others cost no look.
    """
    if "dynasty" not in ctx.tx.docs:
        return
    base = ctx.tx.base.docs.get("dynasty")
    now = ctx.doc("dynasty")
    boss = get_raw_or(now, "leader")
    if base is None or boss is None or get_raw_or(now, "awaiting_ascension"):
        return
    was = get_raw_or(base, "leader")
    if not get_raw_or(base, "awaiting_ascension") and boss == was:
        return
    me = ctx.player(boss)
    if me is None or me.get("kind"):
        return
    before = {p["name"]: p for p in peek(ctx.tx.base.doc("roster")["players"])}
    old = before.get(was) if was is not None else None
    if (not get_raw_or(base, "awaiting_ascension") and old is not None
            and (old.get("account"), old["joined"]) == (me.get("account"), me["joined"])):
        return  # the same leader, renamed
    dm = me["stats"].get("dance_moves")
    mine = before.get(boss)
    if mine is not None and mine["stats"].get("dance_moves") != dm:
        return  # the action itself set the new Top Banana's Dance Moves: that value is kept
    if dm == TOP_BANANA_DANCE_MOVES:
        return
    ctx.edit_player(boss)["stats"]["dance_moves"] = TOP_BANANA_DANCE_MOVES
    ctx.step({"top_banana": f"{boss} starts as {ctx.keyword('leader', 'Top Banana')} with "
                            f"{TOP_BANANA_DANCE_MOVES} Dance Moves (had {dm})"})


# seed 000, "All Danced Out": the stay and its end are that rule's; repealed, no stay ends this way
@ruled(RULE_DANCED_OUT)
def end_past_holds(ctx: Ctx) -> None:
    """After any action: a stay whose end an action has just written at or before its own time is over now.

    Seed 000, "All Danced Out": the Dance Moves become three once the Monkey has stayed as long as the stay
    asks. The event above only fires at ends strictly after the clock, and the clock is the time of the action
    that wrote the end; so a proposal whose patch moves ``held_until`` to the past (or to the very moment it is
    enacted) would leave the Monkey held until the next dance. Such a stay is already over when the patch takes
    effect, so it ends then, within the same action (what was judged before stays as it was judged). Only an
    action that edited ``monkey_line`` can have written such an end, so the others cost no look.

    A patch that removes ``held_until`` from a Monkey it leaves in the barrel ends the stay as one that puts the end
    at the enactment does: e is held no longer, so e has stayed as long as the stay asks, and eir Dance Moves become
    three (a patch that takes em out of the barrel altogether, or the module's own actions, which end stays
    themselves, are not this).
    """
    if "monkey_line" not in ctx.tx.docs:
        return
    barrel = list(peek(get_raw_or(ctx.doc("monkey_line"), "barrel", ())))
    ends = (get_raw_or(b, "held_until") for b in barrel)
    if any(_over(end, ctx.at) for end in ends if end):
        end_holds_event(ctx)
    if ctx.action.name.startswith("monkey."):
        return
    base = ctx.tx.base.docs.get("monkey_line")
    was_held = {get_raw_or(b, "name") for b in peek(get_raw_or(base, "barrel", ())) if get_raw_or(b, "held_until")
                } if base is not None else set()
    lifted = sorted((get_raw_or(b, "name") for b in barrel
                     if get_raw_or(b, "name") in was_held and not get_raw_or(b, "held_until")), key=alphabetical)
    if not lifted:
        return
    w = world(ctx)
    for name in lifted:
        if name in w.stats:
            w.stats[name]["dance_moves"] = 3
            w.log.append(f"{name} is held in the barrel no longer: eir stay is over and eir Dance Moves are set to 3")
    if w.log:
        w.save(ctx)
        ctx.step({"events": list(w.log)})


def _over(end: Any, at: datetime) -> bool:
    """Whether a stay written to end at ``end`` is over at ``at`` (a time that cannot be read is not)."""
    t = _time_or_none(end)
    return t is not None and t <= at


ACTIONS = [CONDUCT]
