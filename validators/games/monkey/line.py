"""The Monkey Line between dances: the two balancing moves, joining and leaving, and its invariants.

Seed 000, "The Monkey Line". Any Monkey may move the single Monkey right after
an empty position up into it, and may split a doubled position (every later
Monkey moves down one; the alphabetically earliest of the two takes the
freed square). A Monkey who joins takes the lowest-numbered empty position.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain, compress, repeat
from operator import not_
from typing import Any

from ...engine import Action, Ctx, Problem, State, peek, plain_copy, repealed, repealed_in, ruled
from ...problems import shown_value
from .common import (
    RULE_HAMMERS,
    RULE_HATS,
    RULE_ITEMS,
    RULE_NPCS,
    RULE_STATUS,
    as_listed,
    line_world,
    section_of,
    world,
)
from .common import no_npc as _no_npc
from .options import options
from .world import BARE, IN_BARREL, IN_LINE, SIZES, KongHolds, World, alphabetical, get_raw, get_raw_or, positions_of

RULE = "the-monkey-line"


def _move_up_ready(ctx: Ctx) -> Iterator[str]:
    """Seed 000, "The Monkey Line": a move up needs an empty position with exactly one Monkey right after it; with
    none in the Line, the check refuses every position (not empty, or not one Monkey after it)."""
    w = World.load_line(ctx)
    if not any(p > 1 and not w.at(p - 1) and len(w.at(p)) == 1 for p in set(w.pos.values())):
        yield "no empty position of the Line has a single Monkey right after it to move up"


def _move_up_check(ctx: Ctx) -> Iterator[str]:
    yield from _no_npc(ctx)
    w = line_world(ctx)
    p = ctx.params["position"]
    if w.at(p):
        yield f"position {p} is not empty ({', '.join(w.at(p))})"
    elif len(w.at(p + 1)) != 1:
        yield f"position {p + 1}, right after it, holds {len(w.at(p + 1))} Monkeys, not exactly one"


def _move_up(ctx: Ctx) -> None:
    w = world(ctx)
    try:
        w.move_up(ctx.params["position"])
    except KongHolds as e:
        raise ctx.refuse(str(e), rule="npcs") from None
    w.save(ctx)
    ctx.step({"events": w.log, "line": w.in_order()})


MOVE_UP = Action(
    name="monkey.move-up",
    rule=RULE,
    summary="Balance the Line: move the single Monkey after an empty position up into it",
    params={"type": "object", "required": ["position"], "additionalProperties": False,
            "properties": {"position": {"type": "integer", "minimum": 1, "maximum": 100000,
                                        "description": "the empty position the Monkey after it moves up into"}}},
    check=_move_up_check,
    ready=_move_up_ready,
    effect=_move_up,
    doc="`position` is the empty position; the one Monkey in the next position moves into it (and picks up "
        "any item lying there).",
)


def _split_ready(ctx: Ctx) -> Iterator[str]:
    """Seed 000, "The Monkey Line": only a position holding two Monkeys is split; with none, the check refuses every
    position."""
    w = World.load_line(ctx)
    if not any(len(w.at(p)) >= 2 for p in set(w.pos.values())):
        yield "no position of the Line holds two Monkeys to split"


def _split_check(ctx: Ctx) -> Iterator[str]:
    yield from _no_npc(ctx)
    w = line_world(ctx)
    p = ctx.params["position"]
    if len(w.at(p)) < 2:
        yield f"position {p} holds {len(w.at(p))} Monkey(s); only a position with two can be split"


def _split(ctx: Ctx) -> None:
    w = world(ctx)
    try:
        w.split(ctx.params["position"])
    except KongHolds as e:
        raise ctx.refuse(str(e), rule="npcs") from None
    w.save(ctx)
    ctx.step({"events": w.log, "line": w.in_order()})


SPLIT = Action(
    name="monkey.split",
    rule=RULE,
    summary="Balance the Line: split a position holding two Monkeys",
    params={"type": "object", "required": ["position"], "additionalProperties": False,
            "properties": {"position": {"type": "integer", "minimum": 1, "maximum": 100000,
                                        "description": "the position holding two Monkeys"}}},
    check=_split_check,
    ready=_split_ready,
    effect=_split,
    doc="Every Monkey after `position` moves down one, and the alphabetically earliest of the two in it takes "
        "the freed position. If that Monkey is King Kong holding position 1 with a Sledge, the split is refused.",
)


# ---------------------------------------------------------------- joining and leaving (a consequence)


def sync_roster(ctx: Ctx) -> None:
    """After any action: a new Monkey joins the Line and gets a section; one who left is taken out.

    Most actions change neither who is on the roster nor who is placed, so the names are compared first,
    reading the documents without copying them; the World is loaded only when somebody joins or leaves.
    An action that edits none of the documents looked at, taken on the very documents last found in order,
    needs no look at all.
    """
    tx = ctx.tx
    if "monkey_line" not in tx.docs and "monkey_line" not in tx.base.docs:
        return
    # Seed 000, "NPCs": NPCs have no section and an NPC added is put at the end of the Line; that is the NPCs
    # rule's, so with it repealed an NPC is placed and given a section as any Monkey. What is in order depends on
    # it, so it is part of what was last found in order (``_fingerprint``).
    npcs_apart = not repealed(ctx, RULE_NPCS)
    seen = None
    if tx.config is None and not any(kind in tx.docs for kind in _SYNC_DOCS):
        seen = _fingerprint(tx.base, npcs_apart)
        if _same(_IN_ORDER[0], seen):
            return
    options(ctx.config)  # as loading the World does: a game with a wrong option cannot act
    # (read in C, with map: this runs after every action, votes included)
    players = list(peek(ctx.players()))
    names_in_order = list(map(get_raw, players, repeat("name")))
    names = set(names_in_order)
    line = ctx.doc("monkey_line")
    entries = peek(get_raw(line, "positions"))
    placed = set(chain.from_iterable(map(get_raw_or, entries, repeat("monkeys"), repeat(()))))
    placed.update(map(get_raw, peek(get_raw_or(line, "barrel", ())), repeat("name")))
    changed = placed != names
    if changed:
        # seed 000, the status rule: a newcomer whose status is In the Barrel starts there; repealed, status is a stat
        _join_and_leave(ctx, names, placed, npcs_apart, barrel_status=not repealed(ctx, RULE_STATUS))
    wanted = (list(compress(names_in_order, map(not_, map(get_raw_or, players, repeat("kind")))))  # not NPCs
              if npcs_apart else names_in_order)
    have = set(map(get_raw, peek(get_raw(ctx.doc("monkey_dance"), "sections")), repeat("monkey")))
    if have != set(wanted):
        changed = True
        doc = ctx.edit("monkey_dance")
        doc["sections"] = [s for s in doc["sections"] if s["monkey"] in wanted]
        for name in wanted:
            if section_of(doc, name) is None:
                # Seed 000, "Doing the Dance": the six hours a conductor waits run from eir own last change of eir
                # section; the empty section a newcomer is given is none of eir doing, so it carries no `updated`.
                doc["sections"].append({"monkey": name, "moves": []})
    if seen is not None and not changed:
        _IN_ORDER[0] = seen


_SYNC_DOCS = ("roster", "monkey_line", "monkey_dance")


def _fingerprint(state: State, npcs_apart: bool = True) -> tuple[tuple[Any, ...], tuple[int, ...]]:
    """The configuration and documents ``sync_roster`` reads, to be compared by identity (``_same``), and whether
    the NPCs rule (in force: ``npcs_apart``) kept NPCs apart when they were found in order.

    A state's documents are never changed in place; their lengths are kept too, as a guard against a caller who
    changes one anyway.
    """
    docs = state.docs
    objects = (state.config, docs.get("roster"), docs["monkey_line"], docs.get("monkey_dance"))
    lengths = tuple(len(get_raw_or(doc, key, ())) if isinstance(doc, dict) else -1
                    for doc, key in zip(objects[1:], ("players", "positions", "sections")))
    return objects, lengths + (int(npcs_apart),)


def _same(a: tuple[tuple[Any, ...], tuple[int, ...]] | None, b: tuple[tuple[Any, ...], tuple[int, ...]]) -> bool:
    return a is not None and all(x is y for x, y in zip(a[0], b[0])) and a[1] == b[1]


# The documents last found in order (nobody to place, no section missing or extra): one entry, replaced as
# the game moves on, so it holds on to one state's documents at most.
_IN_ORDER: list[tuple[tuple[Any, ...], tuple[int, ...]] | None] = [None]


def _join_and_leave(ctx: Ctx, names: set[str], placed: set[str], npcs_apart: bool = True,
                    barrel_status: bool = True) -> None:
    """Who left is taken out, eir items put down; who is new takes a place.

    A newcomer takes the lowest empty position (an NPC the end of the Line: seed 000, "The Monkey Line", "NPCs").
    One whose status is already In the Barrel (only a proposal's patch adds a Monkey with a status other than the
    roster's default, In Line) starts in the barrel instead: the status rule keeps a Monkey In the Barrel out of
    the Line, and the proposal said where e is (``barrel_status``: that rule is in force).

    A newcomer first gets the starting value of every stat the patch that added em left out (``_starting_stats``).
    """
    _starting_stats(ctx, names - placed, npcs_apart)
    w = world(ctx)
    for gone in sorted(placed - names):
        stood = w.pos.pop(gone, None)
        w.barrel = [b for b in w.barrel if b["name"] != gone]
        for item in w.items:
            if item.get("held_by") == gone:
                # eir items fall where e stood (or, from the barrel, in the lowest empty position)
                del item["held_by"]
                item["lies_at"] = stood if stood is not None and not w.at(stood) else w.lowest_empty()
                w.log.append(f"{gone} has left; {item['name']} lies in position {item['lies_at']}")
    for p in ctx.players():
        if p["name"] not in placed:
            if barrel_status and p["stats"].get("status") == IN_BARREL:
                w.barrel.append({"name": p["name"], "since": w.now})
                w.log.append(f"{p['name']} joins in the barrel, eir status being {IN_BARREL}")
                continue
            # seed 000, NPCs: an NPC added to the gamestate is put at the end of the Line
            w.join(p["name"], at_end=npcs_apart and bool(p.get("kind")))
    w.save(ctx)
    if w.log:
        ctx.step({"line": w.log})


# Seed 000, NPCs: the hammer an NPC of a behaviour begins with, by the effect of that hammer on the list ("Curious
# George begins the game with a 'Magnet' type hammer"; King Kong with a 'Shot-Gun' one)
_NPC_HAMMERS = {"magnet-revert": "magnet", "king-kong": "shotgun"}


def _starting_stats(ctx: Ctx, newcomers: set[str], npc_rule: bool = True) -> None:
    """Every stat a newcomer lacks gets the roster's declared default, the value the rules give a new Monkey.

    Seed 000 gives each new Monkey its starting values: 5 bananas (Bananas), five Dance Moves (Doing the Dance), a
    Fairy hammer (Hammers), a Blue hat (Hats), the status In Line (the status rule), no Awesomeness (Awesomeness);
    and NPCs, unless a rule says otherwise, start as any Monkey does (NPCs: "beginning with a Fairy hammer, and
    initially possessing 5 bananas"). ``core.join`` writes all of them; a proposal's (or CfJ's) patch that adds a
    Monkey may write only some, and its enactment used to be refused for the rest ("missing stat"). The values the
    patch wrote are kept: they are the "otherwise" the proposal noted. Only a newcomer is completed, so a stat
    taken from a Monkey already in the game is still reported by the roster's check.

    An NPC whose behaviour the kit keeps under eir name and whose paragraph names the hammer e begins with (Curious
    George a Magnet, King Kong a Shot-gun: the "otherwise noted" of NPCs) begins with that one, the list's hammer of
    its effect, instead of the Fairy. That is the NPCs rule's (``npc_rule``: in force).
    """
    if not newcomers:
        return
    defs = get_raw(ctx.doc("roster"), "stats")
    starting = {name: get_raw(d, "default") for name, d in dict.items(defs)}
    kit = ctx.doc("monkey_kit")
    behaviours = get_raw_or(kit, "npcs", {}) if npc_rule else {}
    told = []
    for p in peek(ctx.players()):
        name = get_raw(p, "name")
        if name not in newcomers:
            continue
        stats = get_raw_or(p, "stats")
        if not isinstance(stats, dict):
            continue  # the roster's schema refuses an entry without stats
        missing = [k for k in starting if k not in stats]
        if not missing:
            continue
        own = dict(starting)
        effect = _NPC_HAMMERS.get(get_raw_or(behaviours, name)) if get_raw_or(p, "kind") else None
        if effect is not None and "hammer" in own:
            own["hammer"] = next((get_raw(h, "name") for h in peek(get_raw(kit, "hammers"))
                                  if get_raw(h, "effect") == effect), own["hammer"])
        mine = ctx.edit_player(name)["stats"]
        for k in missing:
            mine[k] = plain_copy(own[k])
        told.append(f"{name} starts with " + ", ".join(f"{k} {shown_value(own[k])}" for k in missing))
    if told:
        ctx.step({"starting_stats": told})


def _before_the_patch(ctx: Ctx, stat: str) -> dict[str, Any] | None:
    """Each player's ``stat`` as it was before this action, by name, when the action comes from outside the module
    and edited the roster (a proposal's or CfJ's patch); None after any other action. The module's own actions keep
    its rules themselves (``World``)."""
    tx = ctx.tx
    if "roster" not in tx.docs or ctx.action.name.startswith("monkey."):
        return None
    base = tx.base.docs.get("roster")
    if base is None:
        return None
    return {get_raw(p, "name"): get_raw_or(get_raw(p, "stats"), stat) for p in peek(get_raw(base, "players"))}


# seed 000, the status rule (2.4 Status and the Barrel): where a Monkey is follows eir status; repealed, nothing does
@ruled(RULE_STATUS)
def follow_status(ctx: Ctx) -> None:
    """After an action from outside the module: a Monkey whose status it changed goes where that status puts em.

    Seed 000, the status rule: a Monkey whose status is In the Barrel is out of the Line, and one whose status is
    In Line again is added to its end (several in alphabetical order, as after a Dance). The module's own actions
    move Monkeys through World, which sets the status with the place; a proposal's (or CfJ's) patch may instead
    change only the status on the roster, and its enactment was then refused, the status disagreeing with the
    Line. Only a status the action changed is followed: a patch that moves a Monkey in ``monkey_line`` and leaves
    the status as it was is not undone (the check reports the disagreement). The move is the rule's, not a Dance
    move, so King Kong's hold on the top does not stop it; the Items rule says what stays behind (``World``).
    """
    was = _before_the_patch(ctx, "status")
    if was is None:
        return
    line = ctx.doc("monkey_line")
    in_line = set(positions_of(line))
    in_barrel = {get_raw(b, "name") for b in peek(get_raw_or(line, "barrel", ()))}
    out, back = [], []
    for p in peek(ctx.players()):
        name, status = get_raw(p, "name"), get_raw_or(get_raw(p, "stats"), "status")
        if name not in was or was[name] == status:
            continue
        if status == IN_BARREL and name in in_line:
            out.append(name)
        elif status == IN_LINE and name in in_barrel and name not in in_line:
            back.append(name)
    if not (out or back):
        return
    w = world(ctx)
    for name in sorted(out, key=alphabetical):
        w.to_barrel(name, allow_kong=True)
    for name in sorted(back, key=alphabetical):
        w.leave_barrel(name)
    w.save(ctx)
    ctx.step({"status": list(w.log)})


def spell_as_listed(ctx: Ctx) -> None:
    """After an action from outside the module: a hammer or hat it wrote in another case is written as the list
    spells it.

    Seed 000, Hammers: each Monkey holds one hammer of a listed type; Hats: a hat of the Hat List, or "Bare". The
    module reads a held hammer's type whatever its case (``World.hammer_effect``, the weekly change), so a
    proposal's (or CfJ's) patch that gives Bruno a "hot potato" gives him the Hot Potato; the whole-state check asks
    for the list's spelling, and the enactment used to be refused. The stat is now written as the list spells it
    (a hat as the Hat List does, "bare" as "Bare"), and the outcome says so; a name on no list in any case is still
    refused by the check. Only the Monkeys whose hammer or hat the action changed are looked at (a newcomer's
    included), or every Monkey when it changed the kit (a list whose spelling changed: its holders follow).
    Each part is its rule's (``engine.repealed``): with Hammers repealed nothing asks for a listed hammer, and with
    Hats repealed nothing asks for a listed hat, so neither is rewritten.
    """
    tx = ctx.tx
    kit_changed = "monkey_kit" in tx.docs
    if ("roster" not in tx.docs and not kit_changed) or ctx.action.name.startswith("monkey."):
        return
    lists = []
    kit = ctx.doc("monkey_kit")
    if not repealed(ctx, RULE_HAMMERS):
        lists.append(("hammer", [get_raw(h, "name") for h in peek(get_raw(kit, "hammers"))]))
    if not repealed(ctx, RULE_HATS):
        lists.append(("hat", [BARE, *peek(get_raw(kit, "hats"))]))
    if not lists:
        return
    base = tx.base.docs.get("roster")
    before = ({} if base is None or kit_changed else
              {get_raw(p, "name"): get_raw(p, "stats") for p in peek(get_raw(base, "players"))})
    fixes = []
    for p in peek(ctx.players()):
        name, stats = get_raw(p, "name"), get_raw(p, "stats")
        was = before.get(name)
        if was is stats:
            continue
        for stat, listed in lists:
            value = get_raw_or(stats, stat)
            if type(value) is not str or value in listed or (was is not None and get_raw_or(was, stat) == value):
                continue
            spelled = as_listed(value, listed)
            if spelled is not None:
                fixes.append((name, stat, value, spelled))
    if not fixes:
        return
    told = []
    for name, stat, value, spelled in fixes:
        ctx.edit_player(name)["stats"][stat] = spelled
        where = "the hammer list" if stat == "hammer" else "the Hat List"
        told.append(f"{name}'s {stat} {shown_value(value)} is written as {where} spells it, {spelled}")
    ctx.step({"spelling": told})


# seed 000, Hats ("Bare Head"): becoming Bare costs a banana, whatever made the Monkey Bare; repealed, it costs none
@ruled(RULE_HATS)
def bare_costs_a_banana(ctx: Ctx) -> None:
    """After an action from outside the module: a Monkey whose hat it set to Bare loses a banana (to no fewer than 0).

    The module's own actions make a Monkey Bare through ``World.become_bare``, which takes the banana; a proposal's (or
    CfJ's) patch may set the hat to Bare on the roster itself, and the rule charges for that too, after the patch: a
    patch that also sets the bananas has the banana taken from what it set. A Monkey new to the roster, or one who
    was Bare already, does not become Bare.
    """
    was = _before_the_patch(ctx, "hat")
    if was is None:
        return
    bared = [get_raw(p, "name") for p in peek(ctx.players())
             if get_raw_or(get_raw(p, "stats"), "hat") == BARE and get_raw(p, "name") in was
             and was[get_raw(p, "name")] != BARE]
    if not bared:
        return
    w = world(ctx)
    for name in sorted(bared, key=alphabetical):
        lost = -w.add_bananas(name, -1)
        w.log.append(f"{name} became Bare (-{lost} banana)")
    w.save(ctx)
    ctx.step({"hats": list(w.log)})


# seed 000, "Items": a new item goes to the Monkey at the top unless its addition says otherwise; repealed, no one
# is given it (the whole-state check then asks where it is)
@ruled(RULE_ITEMS)
def give_new_items(ctx: Ctx) -> None:
    """After any action: an item that is neither held nor lying anywhere goes to the Monkey in position 1.

    Seed 000, "Items": an item added, unless the addition says otherwise, is given to the Monkey in the first
    position of the Line. Only a proposal's (or a CfJ's) patch adds items, and one that writes neither
    ``held_by`` nor ``lies_at`` says nothing otherwise, so the item is given at once, within the enacting action.
    Two Monkeys sharing position 1 (only a patch can do that): the alphabetically first takes it, as for an item
    lying where Monkeys stand. With nobody in position 1 it stays nowhere, and the whole-state check refuses the
    change."""
    if "monkey_items" not in ctx.tx.docs or ctx.action.name.startswith("monkey."):
        return  # the module's own actions add no items
    items = list(peek(get_raw(ctx.doc("monkey_items"), "items")))
    new = [k for k, item in enumerate(items) if isinstance(item, dict)
           and get_raw_or(item, "held_by") is None and get_raw_or(item, "lies_at") is None]
    if not new:
        return
    top = next((list(peek(get_raw_or(e, "monkeys", ()))) for e in peek(get_raw(ctx.doc("monkey_line"), "positions"))
                if get_raw_or(e, "at") == 1), [])
    if not top:
        return
    taker = min(top, key=alphabetical)
    edited = ctx.edit("monkey_items")["items"]
    for k in new:
        edited[k]["held_by"] = taker
    ctx.step({"items": [f"{taker}, in position 1, is given {items[k]['name']}, a new item" for k in new]})


# seed 000, "Items": what a Monkey who moves leaves behind; with that rule repealed, a Monkey keeps all e holds
@ruled(RULE_ITEMS)
def leave_items_behind(ctx: Ctx) -> None:
    """After an action from outside the module: the items a Monkey it moved leaves in the square e stood in.

    Seed 000, "Items": a massive or large item stays in the old square when its holder moves to another place in
    the Line, and a small one too when e goes into the barrel (pocket-size items go everywhere with em). The
    module's own moves keep that (``World.relocate``); a proposal's (or CfJ's) patch may instead rewrite
    ``monkey_line`` itself, moving a Monkey to another square or into the barrel, and the rule applies as well.
    Only an item the action left as it was (held by the same Monkey as before) stays behind: a patch that also says
    where an item goes is followed. It runs before ``follow_status``: a patch that moves a Monkey and also sets eir
    status to In the Barrel leaves eir large items in the square e stood in before the patch, and the status rule
    then takes em from the new one (leaving what is small there). What now lies where another Monkey stands (a
    swap) is taken by em later (``settle_lying_items``).
    """
    tx = ctx.tx
    if "monkey_line" not in tx.docs or ctx.action.name.startswith("monkey."):
        return
    base_line, base_items = tx.base.docs.get("monkey_line"), tx.base.docs.get("monkey_items")
    if base_line is None or base_items is None:
        return
    was = positions_of(base_line)
    line = ctx.doc("monkey_line")
    now = positions_of(line)
    barrel = {get_raw(b, "name") for b in peek(get_raw_or(line, "barrel", ()))}
    moved = {name: at for name, at in was.items() if now.get(name, at) != at or (name not in now and name in barrel)}
    if not moved:
        return
    held_before = {(get_raw_or(i, "name"), get_raw_or(i, "held_by")) for i in peek(get_raw(base_items, "items"))}
    items = list(peek(get_raw(ctx.doc("monkey_items"), "items")))
    left = []
    for k, item in enumerate(items):
        holder = get_raw_or(item, "held_by")
        if holder not in moved or (get_raw_or(item, "name"), holder) not in held_before:
            continue
        size = get_raw_or(item, "size")
        if size in ("massive", "large") or (size == "small" and holder not in now):
            left.append(k)
    if not left:
        return
    edited = ctx.edit("monkey_items")["items"]
    told = []
    for k in left:
        item = edited[k]
        square = moved[item["held_by"]]
        del item["held_by"]
        item["lies_at"] = square
        told.append(f"{item['name']} stays behind in position {square}, which its holder left")
    ctx.step({"items": told})


# seed 000, "Items": an item nobody holds lies only in an empty square; with that rule repealed, nothing settles it
@ruled(RULE_ITEMS)
def settle_lying_items(ctx: Ctx) -> None:
    """After any action: an item nobody holds that lies in an occupied position goes to the Monkey there.

    Seed 000, "Items": an item that belongs to no Monkey must lie in an empty position. The module's moves keep
    that (``World.relocate``: what is left where a Monkey still stands is taken by em at once, as the Flaming
    Frisbee sent where a Monkey stands is gained by em, List of Items). A proposal's patch may still write an
    item's ``lies_at`` onto an occupied square, or place a Monkey where an item lies; the state is then settled
    the same way, within that action: the Monkey standing there (the alphabetically first, if more than one)
    takes it. Only an action from outside the module that edited the Line or the items can have made such a
    state (the invariant reports one however it came).
    """
    tx = ctx.tx
    if "monkey_items" not in tx.docs and "monkey_line" not in tx.docs:
        return
    if ctx.action.name.startswith("monkey."):
        return  # the module's own actions move Monkeys and items through World, which keeps the rule itself
    items = list(peek(get_raw(ctx.doc("monkey_items"), "items")))
    lying: dict[int, list[int]] = {}
    for k, item in enumerate(items):
        square = get_raw_or(item, "lies_at")
        if type(square) is int and get_raw_or(item, "held_by") is None:
            lying.setdefault(square, []).append(k)
    if not lying:
        return
    standing: dict[int, list[str]] = {}
    for entry in peek(get_raw(ctx.doc("monkey_line"), "positions")):
        at = get_raw(entry, "at")
        if at in lying:
            names = list(peek(get_raw_or(entry, "monkeys", ())))
            if names:
                standing[at] = names
    if not standing:
        return
    edited = ctx.edit("monkey_items")["items"]
    taken = []
    for square in sorted(standing):
        taker = min(standing[square], key=alphabetical)
        for k in sorted(lying[square], key=lambda k: alphabetical(items[k]["name"])):
            item = edited[k]
            del item["lies_at"]
            item["held_by"] = taker
            taken.append(f"{taker}, who stands in position {square}, takes {item['name']}, which lay there")
    ctx.step({"items": taken})


# ---------------------------------------------------------------- invariants


def invariants(state: State) -> Iterator[Problem]:
    """The Line, the barrel, the stats and the items agree. Who is where, the roster's names and each item's
    one place are the documents' own shape, checked whatever is repealed; each check that a rule makes is skipped
    while that rule is repealed (one lookup each)."""
    rules = state.rules
    # seed 000, the status rule: a Monkey In the Barrel is out of the Line, one In Line in it
    status_rule = repealed_in(rules, RULE_STATUS) is None
    # seed 000, "Hammers": every Monkey holds a hammer of the list
    hammer_rule = repealed_in(rules, RULE_HAMMERS) is None
    # seed 000, "Hats": every Monkey wears a hat of the Hat List, or is Bare
    hat_rule = repealed_in(rules, RULE_HATS) is None
    # seed 000, "Items": only pocket-size items go into the barrel; an item nobody holds lies in an empty square
    item_rule = repealed_in(rules, RULE_ITEMS) is None
    # seed 000, "NPCs": NPCs have no section of the Dance
    npc_rule = repealed_in(rules, RULE_NPCS) is None
    line = state.doc("monkey_line")
    roster = state.doc("roster")
    kit = state.doc("monkey_kit")
    names = {p["name"]: p for p in roster["players"]}
    seen: dict[str, str] = {}
    last = 0
    for i, entry in enumerate(line["positions"]):
        if entry["at"] <= last:
            yield Problem("positions must be listed in increasing order", file="monkey_line",
                          field=f"positions[{i}].at")
        last = entry["at"]
        for name in entry["monkeys"]:
            if name not in names:
                yield Problem(f"{name!r} is not on the roster", file="monkey_line", field=f"positions[{i}].monkeys")
            if name in seen:
                yield Problem(f"{name} is in the Line twice", file="monkey_line", field=f"positions[{i}].monkeys")
            seen[name] = "line"
    for i, b in enumerate(line.get("barrel", [])):
        if b["name"] in seen:
            yield Problem(f"{b['name']} is both in the Line and in the barrel", file="monkey_line",
                          field=f"barrel[{i}]")
        seen[b["name"]] = "barrel"
    for name, p in names.items():
        where = seen.get(name)
        status = p["stats"].get("status")
        if where is None:
            yield Problem(f"{name} is neither in the Line nor in the barrel", file="monkey_line", field="positions")
        elif status_rule and (where == "line") != (status == IN_LINE):
            place = "Line" if where == "line" else "barrel"
            yield Problem(f"{name}'s status is {shown_value(status)} but e is in the {place}",
                          file="roster", field=f"players.{name}.stats.status")
        hammer = p["stats"].get("hammer")
        hammers = [h["name"] for h in kit["hammers"]]
        if hammer_rule and hammer not in hammers:
            yield Problem(f"{name}'s hammer {shown_value(hammer)} is not on the hammer list"
                          + _spelled_hint(hammer, hammers), file="roster", field=f"players.{name}.stats.hammer")
        hat = p["stats"].get("hat")
        if hat_rule and hat != BARE and hat not in kit["hats"]:
            yield Problem(f"{name}'s hat {shown_value(hat)} is not on the Hat List"
                          + _spelled_hint(hat, [BARE, *kit["hats"]]), file="roster", field=f"players.{name}.stats.hat")
    occupied = {entry["at"]: entry["monkeys"] for entry in line["positions"] if entry["monkeys"]}
    for i, item in enumerate(state.doc("monkey_items")["items"]):
        if ("held_by" in item) == ("lies_at" in item):
            yield Problem(f"{item['name']} must be held by a Monkey or lie in a position, not both or neither",
                          file="monkey_items", field=f"items[{i}]")
        holder = item.get("held_by")
        if holder is not None and holder not in names:
            yield Problem(f"{item['name']} is held by {holder!r}, who is not on the roster", file="monkey_items",
                          field=f"items[{i}].held_by")
        if item_rule and holder is not None and seen.get(holder) == "barrel" and item["size"] != "pocket-size":
            yield Problem(f"{item['name']} is {item['size']}; only pocket-size items go into the barrel",
                          file="monkey_items", field=f"items[{i}].size")
        square = item.get("lies_at")
        if item_rule and holder is None and square in occupied:
            # Seed 000, "Items": an item nobody holds lies only in an empty position.
            yield Problem(f"{item['name']} lies in position {square}, where {', '.join(occupied[square])} "
                          "stands; an item nobody holds may lie only in an empty position", file="monkey_items",
                          field=f"items[{i}].lies_at")
        if item["size"] not in SIZES:
            yield Problem(f"unknown size {item['size']!r}", file="monkey_items", field=f"items[{i}].size")
    dance = state.doc("monkey_dance")
    for i, s in enumerate(dance["sections"]):
        p = names.get(s["monkey"])
        if p is None or (npc_rule and p.get("kind")):
            yield Problem(f"{s['monkey']} may not have a section (not a Monkey, or an NPC)", file="monkey_dance",
                          field=f"sections[{i}]")


def _spelled_hint(value: Any, listed: list[str]) -> str:
    """"; did you mean 'Hot Potato'?" when ``value`` is a listed name in another case (a hand-edited file: a patch's
    is written as the list spells it, ``spell_as_listed``), else nothing."""
    spelled = as_listed(value, listed)
    return f"; did you mean {shown_value(spelled)}? (the list's spelling)" if spelled is not None else ""


ACTIONS = [MOVE_UP, SPLIT]
