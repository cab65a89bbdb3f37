"""Music (seed 003 rule 24): note histories, Concertos and the named movements.

Each move appends a note to the roster stat ``notes`` (movement.move_to). The table of notes is data
(``quazie_tables.notes``); the seed's table survives only for Position 7 (G flat) and X (silence, '[]'),
and its example gives 8 (A) and 9 (B). Any other position plays '?', an undefined note that, like Limbo's
'-', can never be part of a Concerto or a movement.

A Concerto uses the most recent notes of each Muffin taking part; a note once used in a Concerto cannot
be used in another (``quazie.concerto_used``: how many notes of each history are spent). The claim is
itself the comment to the other Muffins, so the reverse effect of an unannounced Concerto never arises;
each partner receives a credit to apply the same effect when they choose (quazie.concerto-use).
The spent counts never exceed the histories they count (``spent_within_history``, after every action).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Iterator

from ...engine import Action, Ctx, Problem, peek, repealed, ruled
from ...schemas import is_blank
from ...timeutil import format_time
from .common import (
    DEATH_EGG,
    MANGO_TREE,
    R_FLAVOURS,
    R_HANDS,
    R_MUSIC,
    R_SPECIAL,
    STANDARD,
    TROPICAL,
    bound_blind,
    muffin,
    name_key,
    opts,
    position_label,
    stat,
    step_from,
    tables,
)
from .consequences import reached_players
from .flavours import blind_for_a_day, set_flavour
from .movement import LIMBO_NOTE, ROME_PARAM, SPENT_KEYS, UNKNOWN_NOTE, move_to
from .stuff import add_to_item, names_item

UNPLAYABLE = {LIMBO_NOTE, UNKNOWN_NOTE}
NAME = {"$ref": "common.schema.json#/$defs/name"}
CHOICES = {
    "item": {"type": "string", "maxLength": 40,
             "description": "2 notes: 'stuff' (default; the New Item's name means the same) or an Old Item, by its "
                            "word or its column's name (CheeseO)"},
    "direction": {"enum": ["up", "down"], "description": "3 notes: the direction to move"},
    "position": {"enum": STANDARD + [DEATH_EGG], "description": "8 notes: the Position to move to"},
    "rome": ROME_PARAM,
}


def note_problem(notes: list) -> str | None:
    """Rule 24 (seed 003): a Note History is a list of notes, each written as text (hand-edited lists aside)."""
    for j, note in enumerate(notes):
        if not isinstance(note, str):
            return f"notes[{j}] is {note!r}, not a note (each note of a Note History is text: 'G flat', '[]', '-')"
    return None


def fresh_notes(ctx: Ctx, name: str, key: str = "concerto_used") -> list[str]:
    p = muffin(ctx, name)
    notes = list(stat(p, "notes", []))
    bad = note_problem(notes)
    if bad:
        raise ctx.refuse(f"{name}'s Note History (roster stats.notes) is not a list of notes: {bad}", R_MUSIC)
    used = int(ctx.doc("quazie").get(key, {}).get(name, 0))
    return notes[used:]


def _unspent(ctx: Ctx, p: dict[str, Any], key: str) -> list[str] | None:
    """``fresh_notes`` of an active Muffin, or None where it refuses (a Note History that is not a list of notes),
    for ``Action.ready``, which never refuses by raising."""
    notes = list(stat(p, "notes", []))
    if note_problem(notes):
        return None
    return notes[int(ctx.doc("quazie").get(key, {}).get(p["name"], 0)):]


# seed 003 rule 24 "Music": a string of notes makes one Concerto only; repealed, the spent counts are left alone
@ruled(R_MUSIC)
def spent_within_history(ctx: Ctx) -> None:
    """Rule 24 (seed 003): a string of notes makes one Concerto (or movement) only, and the spent count says how
    many of a history's first notes are used. Notes that are no longer in the history (a proposal's patch cut it
    short) cannot be spent, so the count is cut to the history's length: what is left is all spent, and every note
    played afterwards is fresh. (Left as it was, the count hid the next notes until the history outgrew it.)"""
    if "roster" not in ctx.tx.docs and "quazie" not in ctx.tx.docs:
        return  # neither a history nor a count changed
    q = ctx.doc("quazie")
    spent = [(key, dict.get(q, key) or {}) for key in SPENT_KEYS]  # read, not copied
    base_q = ctx.tx.base.docs.get("quazie") or {}
    if all(dict.get(q, key) is dict.get(base_q, key) for key in SPENT_KEYS):
        # the counts are the ones before the action (the same objects: copy on write), which were within their
        # histories then; only a history the action reached can have become shorter than its count
        players: Any = [p for p, _ in reached_players(ctx) if any(p["name"] in counts for _, counts in spent)]
    else:
        names = {name for _, counts in spent for name in counts}
        players = [p for p in peek(ctx.doc("roster")["players"]) if p["name"] in names]
    lengths = {}
    for p in players:
        notes = dict.get(dict.get(p, "stats") or {}, "notes", [])
        if isinstance(notes, list):
            lengths[p["name"]] = len(notes)
    for key, counts in spent:
        # a count is cut only where it is past its history: asked of each history read first, so that the counts
        # of every Muffin (up to 100 a key) are walked, in their order, only when one is to be cut
        if not any(isinstance(c := dict.get(counts, name), int) and c > n for name, n in lengths.items()):
            continue
        for name, count in list(dict.items(counts)):
            if name in lengths and isinstance(count, int) and count > lengths[name]:
                ctx.edit("quazie")[key][name] = lengths[name]
                ctx.step({"notes_spent": name, "of": key, "from": count, "to": lengths[name]})


def matching(a: list[str], b: list[str], n: int) -> bool:
    """Whether the last ``n`` notes of two histories match exactly, and are all playable."""
    if n <= 0 or len(a) < n or len(b) < n:
        return False
    tail = a[-n:]
    return tail == b[-n:] and not (set(tail) & UNPLAYABLE)


def _item(ctx: Ctx) -> str:
    """The type of Stuff a 2-note Concerto adds to: 'stuff', or an Old Item's word. Rule 11: the New Item always
    equals Stuffs, so naming it (in any case) means Stuffs."""
    item = ctx.params.get("item", "stuff")
    new = str((ctx.doc("quazie_items").get("new_item") or {}).get("word", "stuff"))
    if item.casefold() in ("stuff", "stuffs", new.casefold()):
        return "stuff"
    # rule 11: a column may be named with its capital O (the New Item's "CheeseO" is Stuffs too); a word is
    # matched before a column's name, so an Old Item whose word ends in O is never taken for the New Item
    olds = ctx.doc("quazie_items").get("old_items", [])
    if names_item(new, item) and not any(o["word"].casefold() == item.casefold() for o in olds):
        return "stuff"
    return item


def _choice_problems(ctx: Ctx, size: int, who: str) -> Iterator[str | Problem]:
    """What keeps ``who`` from taking its share of a ``size``-note Concerto now. The limits rule 24 leaves standing
    are other rules' (seed 003), and each refusal cites the rule that makes it: rule 13 for Blind and for the Mango
    Tree (rule 15 when only it is left in force), rule 24 for the Concerto's own choices."""
    effect = tables(ctx)["concertos"].get(str(size))
    p = muffin(ctx, who)
    blind = bound_blind(ctx, p)
    if effect in ("step", "anywhere") and blind:
        yield Problem(f"{who} is Blind; a Blind Muffin may not move or be moved", rule=R_FLAVOURS)
    if effect == "step" and not ctx.params.get("direction"):
        yield "a 3-note Concerto moves one Position: give direction=up or down"
    elif effect == "step" and step_from(stat(p, "position"), ctx.params["direction"]) is None:
        yield f"there is no Standard Position {ctx.params['direction']} from {position_label(stat(p, 'position'))}"
    if effect == "anywhere" and not ctx.params.get("position") and not ctx.params.get("rome"):
        yield "an 8-note Concerto moves to a Position of your choice: give position"
    # seed 003 rules 13 "Muffin Flavors" and 15 "Special Position Rules" both keep Tropical to Position 9, the Mango
    # Tree; with both repealed a Concerto makes a Muffin Tropical anywhere
    if effect == "tropical" and not opts(ctx)["concerto_tropical_anywhere"] and \
            stat(p, "position") != MANGO_TREE and (not repealed(ctx, R_FLAVOURS) or not repealed(ctx, R_SPECIAL)):
        yield Problem(f"{who} is not at Position 9; only at the Mango Tree can a Muffin become Tropical",
                      rule=R_SPECIAL if repealed(ctx, R_FLAVOURS) else R_FLAVOURS)
    if effect == "tropical" and blind and not blind_for_a_day(ctx, who):
        # rule 24 lifts only the Robot restriction; rule 13 keeps a Blind Muffin's flavour for 24 hours
        yield Problem(f"{who} has been Blind for less than 24 hours; its Flavor may not change yet", rule=R_FLAVOURS)
    if effect == "stuff" and _item(ctx) != "stuff":
        from .stuff import old_item

        if old_item(ctx, ctx.params["item"]) is None:
            yield f"there is no Old Item {ctx.params['item']!r}"


def apply_effect(ctx: Ctx, size: int, who: str) -> None:
    effect = tables(ctx)["concertos"][str(size)]
    rome = bool(ctx.params.get("rome"))
    if effect == "stuff":
        item = _item(ctx)
        if item == "stuff":
            from ...roster import change_stat

            got = change_stat(ctx, who, "stuff", 2, rule=R_MUSIC)
        else:
            got = add_to_item(ctx, who, item, 2)
        ctx.step({"concerto": size, "muffin": who, "item": item, "gained": got})
    elif effect == "step":
        move_to(ctx, who, step_from(stat(ctx.player(who), "position"), ctx.params["direction"]) or "", rome=rome,
                how=f"{size}-note Concerto")
    elif effect == "tropical":
        set_flavour(ctx, who, TROPICAL)
    elif effect == "anywhere":
        move_to(ctx, who, ctx.params.get("position", ""), rome=rome, how=f"{size}-note Concerto")
    else:
        raise ctx.refuse(f"unknown Concerto effect {effect!r}", R_MUSIC)


def _concerto_ready(ctx: Ctx) -> Iterator[str]:
    """Seed 003 rule 24: a Concerto needs, for one of the sizes the table gives, that many of the claimer's unspent
    notes, all defined, and another active Muffin whose unspent notes end the same way. With none, the check refuses
    every size and partner (a size the table lacks, too few notes, '-' or '?' among them, or a partner whose notes do
    not match)."""
    me = ctx.player()
    mine = None if me is None or me.get("idle") else _unspent(ctx, me, "concerto_used")
    if mine is None:
        return
    sizes = [n for n in range(1, 101) if str(n) in tables(ctx)["concertos"]]
    playable = [n for n in sizes if len(mine) >= n and not set(mine[-n:]) & UNPLAYABLE]
    if not playable:
        shown = " ".join(mine) if mine else "none"
        yield (f"{ctx.actor}'s notes not yet used in a Concerto ({shown}) end in no run of defined notes as long as "
               f"a Concerto ({', '.join(str(n) for n in sizes)} notes)")
        return
    others = [theirs for p in ctx.players() if p["name"] != ctx.actor and not p.get("idle")
              if (theirs := _unspent(ctx, p, "concerto_used")) is not None]
    if not any(matching(mine, theirs, n) for n in playable for theirs in others):
        yield (f"no other Muffin's notes not yet used in a Concerto end as {ctx.actor}'s do "
               f"({', '.join(str(n) for n in playable)} notes)")


def _concerto_check(ctx: Ctx) -> Iterator[str]:
    size = ctx.params["notes"]
    if str(size) not in tables(ctx)["concertos"]:
        yield f"no Concerto is made of {size} notes (sizes: {', '.join(tables(ctx)['concertos'])})"
        return
    partners = ctx.params["with"]
    if ctx.actor in partners or len(set(partners)) != len(partners):
        yield "the Muffins playing with you are other Muffins, each named once"
        return
    mine = fresh_notes(ctx, ctx.actor)
    if len(mine) < size:
        yield f"{ctx.actor} has {len(mine)} notes not yet used in a Concerto; this one needs {size}"
        return
    if set(mine[-size:]) & UNPLAYABLE:
        yield f"{ctx.actor}'s last {size} notes include '-' (Limbo) or '?' (a note the table of notes does not define)"
        return
    for other in partners:
        theirs = fresh_notes(ctx, other)
        if not matching(mine, theirs, size):
            yield (f"{other}'s last {size} unused notes {theirs[-size:]} do not match {ctx.actor}'s "
                   f"{mine[-size:]}")
    # Rule 24 (seed 003): "each Muffin may" take the effect, and an announced Concerto may be applied later; so the
    # claimer's own share is its to take now or keep (defer: a credit, like its partners'), and a claimer who cannot
    # take it now (Blind, rule 13; at X, where no step leads) still makes the claim for everyone.
    if ctx.params.get("defer"):
        given = [k for k in CHOICES if k in ctx.params]
        if given:
            yield Problem(f"defer keeps your own share for quazie.concerto-use: give {', '.join(given)} when you use "
                          "it", field=f"params.{given[0]}", rule=R_MUSIC)
        return
    hint = " (the claim may stand without your own share: add defer: true)"
    for problem in _choice_problems(ctx, size, ctx.actor):
        yield problem.at(message=problem.message + hint) if isinstance(problem, Problem) else f"{problem}{hint}"


def _concerto(ctx: Ctx) -> None:
    size = ctx.params["notes"]
    q = ctx.edit("quazie")
    used = q.setdefault("concerto_used", {})
    for name in [ctx.actor, *ctx.params["with"]]:
        used[name] = len(stat(ctx.player(name), "notes", []))
    ctx.step({"concerto": size, "notes": list(stat(ctx.player(), "notes", []))[-size:],
              "players": [ctx.actor, *ctx.params["with"]]})
    takers = list(ctx.params["with"])
    if ctx.params.get("defer"):
        takers.insert(0, ctx.actor)
    else:
        apply_effect(ctx, size, ctx.actor)
    for other in takers:
        q.setdefault("concerto_credits", []).append({"muffin": other, "notes": size, "from": ctx.actor,
                                                     "at": format_time(ctx.at)})


CONCERTO = Action(
    name="quazie.concerto",
    rule=R_MUSIC,
    summary="Claim a Concerto: your most recent notes match those of other Muffins",
    params={"type": "object", "required": ["with", "notes"], "additionalProperties": False,
            "properties": {"with": {"type": "array", "items": NAME, "minItems": 1, "maxItems": 50,
                                    "description": "the other Muffins whose notes match yours"},
                           "notes": {"type": "integer", "minimum": 1, "maximum": 100,
                                     "description": "how many of your most recent notes match"}, **CHOICES,
                           "defer": {"type": "boolean",
                                     "description": "Apply nothing to yourself now: your share becomes a credit, "
                                                    "used later with quazie.concerto-use like your partners'"}}},
    check=_concerto_check,
    ready=_concerto_ready,
    effect=_concerto,
    doc="2 notes: each Muffin adds 2 to a Stuff of its choice. 3: each may move one Position. 5: each may become "
        "Tropical. 8: each may move to any Position. The claimer's effect applies now (or, with defer, becomes a "
        "credit too); each partner gets a credit for quazie.concerto-use. Notes used in a Concerto cannot make "
        "another.",
)


def _credit(ctx: Ctx) -> dict[str, Any] | None:
    for c in ctx.doc("quazie").get("concerto_credits", []):
        if c["muffin"] == ctx.actor and c["notes"] == ctx.params["notes"]:
            return c
    return None


def _use_ready(ctx: Ctx) -> Iterator[str]:
    """Seed 003 rule 24: a share of a Concerto is applied from a credit; with none, the check refuses every size."""
    if not any(c["muffin"] == ctx.actor for c in ctx.doc("quazie").get("concerto_credits", [])):
        yield f"{ctx.actor} has no unused Concerto"


def _use_check(ctx: Ctx) -> Iterator[str]:
    if _credit(ctx) is None:
        yield f"{ctx.actor} has no unused {ctx.params['notes']}-note Concerto"
        return
    yield from _choice_problems(ctx, ctx.params["notes"], ctx.actor)


def _use(ctx: Ctx) -> None:
    credit = _credit(ctx)
    q = ctx.edit("quazie")
    q["concerto_credits"] = [c for c in q["concerto_credits"] if c != credit]
    apply_effect(ctx, ctx.params["notes"], ctx.actor)


CONCERTO_USE = Action(
    name="quazie.concerto-use",
    rule=R_MUSIC,
    summary="Apply your share of a Concerto another Muffin claimed with you",
    params={"type": "object", "required": ["notes"], "additionalProperties": False,
            "properties": {"notes": {"type": "integer", "minimum": 1, "maximum": 100,
                                     "description": "how many notes the Concerto matched"}, **CHOICES}},
    check=_use_check,
    ready=_use_ready,
    effect=_use,
)


# ---------------------------------------------------------------- movements


def _movement(ctx: Ctx) -> dict[str, Any] | None:
    for m in tables(ctx)["movements"]:
        if m["name"] == ctx.params["movement"]:
            return m
    return None


def _movement_ready(ctx: Ctx) -> Iterator[str]:
    """Seed 003 rule 24: a movement is claimed when the Muffin's most recent notes not yet used in one are its
    notes; when they form none of the table's, the check refuses every name (unknown, or not formed)."""
    me = ctx.player()
    notes = None if me is None or me.get("idle") else _unspent(ctx, me, "movement_used")
    if notes is None:
        return
    movements = tables(ctx)["movements"]
    if not any(notes[-len(m["notes"]):] == m["notes"] for m in movements):
        shown = " ".join(notes) if notes else "none"
        yield (f"{ctx.actor}'s most recent notes not yet used in a movement ({shown}) form none of the movements "
               f"({', '.join(m['name'] for m in movements)})")


def _movement_check(ctx: Ctx) -> Iterator[str]:
    m = _movement(ctx)
    if m is None:
        names = ", ".join(x["name"] for x in tables(ctx)["movements"])
        yield f"there is no movement {ctx.params['movement']!r} (movements: {names})"
        return
    notes = fresh_notes(ctx, ctx.actor, "movement_used")
    want = m["notes"]
    if notes[-len(want):] != want:
        yield f"{ctx.actor}'s most recent notes {notes[-len(want):]} are not {want}"
    if m["effect"] == "intricacy":
        new = ctx.params.get("flavour")
        if not new:
            yield "Intricacy creates a flavour: give flavour (its name) and text (its attributes)"
        else:
            # rule 24 (seed 003): Intricacy creates a *new* flavour; a name that differs from one already in the
            # Ruleset only by case or spacing ("PLAIN", "Banana ") names that flavour again, and a Muffin taking it
            # would escape what the flavour's rule says (a "ROBOT" Muffin would not be Robot)
            same = next((f["name"] for f in tables(ctx)["flavours"] if name_key(f["name"]) == name_key(new)),
                        None)
            if same is not None:
                yield f"there is already a flavour {same}" + (f" ({new!r} is the same name)" if same != new else "")
        # rule 22 (seed 003): the Ruleset holds exactly two Hands, written {{...}}; the text goes into rule 13 as
        # written, so double braces in it would add a third, false Hand (and could hide a lost Hand's grab)
        if "{{" in ctx.params.get("text", "") or "}}" in ctx.params.get("text", ""):
            yield Problem("Intricacy's text may not contain double braces: in the Ruleset they mark the two Hands",
                          field="params.text", rule=R_HANDS)


def _perform(ctx: Ctx) -> None:
    m = _movement(ctx) or {}
    q = ctx.edit("quazie")
    q.setdefault("movement_used", {})[ctx.actor] = len(stat(ctx.player(), "notes", []))
    ctx.step({"movement": m["name"]})
    rome = bool(ctx.params.get("rome"))  # rule 15: the Muffin it names may go to R whenever it can move
    if m["effect"] == "to-1":
        move_to(ctx, ctx.actor, "1", rome=rome, how=m["name"])
    elif m["effect"] == "to-X":
        move_to(ctx, ctx.actor, DEATH_EGG, rome=rome, how=m["name"])
    elif m["effect"] == "intricacy":
        name, text = " ".join(ctx.params["flavour"].split()), ctx.params.get("text", "")  # as rule 13 writes it
        usable = format_time(ctx.at + timedelta(hours=72))
        ctx.edit("quazie_tables")["flavours"].append({"name": name, "by": ctx.actor, "usable_from": usable})
        rules = ctx.tx.edit_rules()
        rule = rules[R_FLAVOURS]
        # a text that says nothing (blanks, or only invisible characters: schemas.NOT_BLANK) gets the placeholder
        said = "(added by Intricacy)" if is_blank(text) else text.strip()
        rule.body = rule.body.rstrip("\n") + f"\n\n{name} – {said}\n"
        rule.meta.setdefault("history", []).append({"event": "amended", "by": f"Intricacy of {ctx.actor}",
                                                    "at": format_time(ctx.at)})
        ctx.step({"new_flavour": name, "usable_from": usable})


MOVEMENT = Action(
    name="quazie.movement",
    rule=R_MUSIC,
    summary="Claim a named movement your most recent notes form ([]B[], EFG, Intricacy)",
    params={"type": "object", "required": ["movement"], "additionalProperties": False,
            "properties": {"movement": {"type": "string", "maxLength": 80,
                                        "description": "the movement's name ([]B[], EFG, Intricacy)"},
                           "flavour": {"type": "string", "pattern": "^[A-Z][A-Za-z' -]{0,39}$",
                                       "description": "a flavour's name: 1 to 40 letters, spaces, apostrophes and "
                                                      "dashes, starting with a capital letter, like Plain"},
                           "text": {"type": "string", "maxLength": 2000,
                                    "description": "what the new flavour does, as the rule of flavours will say"},
                           "rome": ROME_PARAM}},
    check=_movement_check,
    ready=_movement_ready,
    effect=_perform,
    doc="[]B[]: move directly to Position 1. EFG (Escape from the Launch Base Zone): move to Position X. "
        "C# G flat [] (Intricacy): add a new flavour to the rule of flavours (Muffin Flavors); nobody may become it "
        "for 72 hours.",
)

ACTIONS = [CONCERTO, CONCERTO_USE, MOVEMENT]
