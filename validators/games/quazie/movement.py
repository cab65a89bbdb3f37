"""Moving between Positions (seed 003 rules 12, 15, 21, 24): the one ``move_to``, bouncing, raising It,
leaving Limbo, flying from the Death Egg.

Every way a Muffin changes Position goes through ``move_to``, so the restrictions hold for all of them:
a Blind Muffin may not move or be moved (rule 13); nobody may be in Mornington Crescent (rule 15); a
Muffin in Limbo may only be set to 9 (rule 15); only the GRAND POOBAH may go to Rome instead (rule 15);
every move plays a note (rule 24).
"""

from __future__ import annotations

from typing import Any, Iterator

from ...engine import Action, Ctx, Problem, repealed, ruled
from ...roster import change_stat
from ...timeutil import format_time, parse_time
from .common import (
    DEATH_EGG,
    MORNINGTON,
    PLAIN,
    R_FLAVOURS,
    R_FLY,
    R_MUSIC,
    R_POSITION,
    R_SPECIAL,
    R_TAG,
    ROBOT,
    ROME,
    at_position,
    bounced_today,
    bound_blind,
    day,
    done_today,
    in_limbo,
    is_standard,
    it_muffin,
    mark_today,
    muffin,
    muffins,
    opts,
    position_label,
    rule_number,
    stat,
    step_from,
    tables,
)
from .consequences import EXEMPT, reached_players

LIMBO_NOTE = "-"


def rome_subject(state: Any) -> str:
    """Who may go to Rome: rule 15's words, which a Hand may have swapped (seed: "the GRAND POOBAH")."""
    from .hands import ROME_SUBJECT, subject_in_rule

    return subject_in_rule(state, R_SPECIAL, ROME_SUBJECT) or "the GRAND POOBAH"


def subject_covers(state: Any, subject: str, name: str) -> bool | None:
    from .hands import subject_covers as covers

    return covers(state, subject, name)
UNKNOWN_NOTE = "?"

ROME_PARAM = {"type": "boolean", "description": "The GRAND POOBAH goes to Rome (R) instead (Special Position Rules)"}


def note_for(ctx: Ctx, start: str, dest: str) -> str | None:
    """The note a move from ``start`` to ``dest`` plays (rule 24), or None when the table has none.

    Movements in Limbo are written '-' (a move that starts or ends there, by this module's reading).
    """
    if in_limbo(start) or in_limbo(dest):
        return LIMBO_NOTE
    return tables(ctx)["notes"].get(dest)


def _play(ctx: Ctx, who: str, note: str) -> None:
    p = ctx.edit_player(who)
    p["stats"]["notes"] = list(stat(p, "notes", [])) + [note]


def rome_refusal(ctx: Ctx, who: str) -> str | None:
    """Why ``who`` may not go to Rome (rule 15 names who may, the seed's text the GRAND POOBAH), or None."""
    if repealed(ctx, R_SPECIAL):
        # seed 003 rule 15 "Special Position Rules" makes Rome and who may go there; repealed, nobody may
        return "the rule that lets a Muffin go to Rome has been repealed; nobody may go there"
    subject = rome_subject(ctx.state)
    allowed = subject_covers(ctx.state, subject, who)
    if allowed is None:
        return f"the rule now lets {subject!r} go to Rome, and this module cannot tell who that is"
    if not allowed:
        return f"only {subject} may go to Rome (as the rule now reads)"
    return None


def landing_refusal(ctx: Ctx, who: str, start: str, dest: str) -> tuple[str, str] | None:
    """Why ``who`` may not land at ``dest`` from ``start``, whoever moves it (message, rule), or None.

    Used by ``move_to`` and, for every Position the dice could pick, before a fly's roll.
    """
    if dest == MORNINGTON:
        return "no Muffin may ever be in Mornington Crescent", R_SPECIAL
    if dest == start:
        return f"{who} is already at {position_label(dest)}", R_POSITION
    # seed 003 rule 24 "Music": every move plays a note; repealed, no move plays one, and none is refused for it
    if note_for(ctx, start, dest) is None and opts(ctx)["unknown_note"] == "refuse" and not repealed(ctx, R_MUSIC):
        return (f"the table of notes gives no note for {position_label(dest)}, and every move plays one; "
                "this game refuses moves whose note is undefined", R_MUSIC)
    return None


def move_to(ctx: Ctx, who: str, dest: str, *, rome: bool = False, how: str = "move", out_of_limbo: bool = False) -> str:
    """Move ``who`` to ``dest`` (or to Rome), or refuse saying which rule forbids it. Returns where it landed.

    ``out_of_limbo``: rule 15's setting of a Limbo Muffin's Position to 9, which a Blind Muffin may do too.
    """
    p = muffin(ctx, who)
    start = stat(p, "position")
    # Rule 13 forbids a Blind Muffin to move; rule 15 lets a Muffin in Limbo be set to 9 at any time, and freezes
    # its Flavor there, so a Blind Muffin in Limbo could otherwise never leave: rule 15's exit is read as the
    # exception (docs/modules/quazie.md, readings). Going to Rome instead needs a Muffin able to move, so not that.
    limbo_exit = out_of_limbo and in_limbo(start) and dest == "9" and not rome
    if bound_blind(ctx, p) and not limbo_exit:
        raise ctx.refuse(f"{who} is Blind; a Blind Muffin may not move or be moved", R_FLAVOURS)
    if rome or dest == ROME:
        # rule 15: only the Muffin it names may go to R, however it gets there (a Banana swap with a Muffin in
        # Rome would otherwise carry anyone there)
        why = rome_refusal(ctx, who)
        if why:
            raise ctx.refuse(why, R_SPECIAL)
        dest = ROME
    if dest == MORNINGTON:
        raise ctx.refuse("no Muffin may ever be in Mornington Crescent", R_SPECIAL)
    # seed 003 rule 15 "Special Position Rules": a Muffin in Limbo may only be set to 9; repealed, it moves freely
    if in_limbo(start) and dest != "9" and not rome and not repealed(ctx, R_SPECIAL):
        raise ctx.refuse(f"{who} is in Limbo ({start!r}); their Position may only be set to 9", R_SPECIAL)
    refusal = landing_refusal(ctx, who, start, dest)
    if refusal:
        raise ctx.refuse(*refusal)
    note = note_for(ctx, start, dest) or UNKNOWN_NOTE
    q = ctx.edit("quazie")
    occupants = at_position(ctx, dest, but=who)
    me = ctx.edit_player(who)
    me["stats"]["position"] = dest
    music = not repealed(ctx, R_MUSIC)  # seed 003 rule 24 "Music": the move's note; repealed, none is played
    if music:
        _play(ctx, who, note)
    if is_standard(dest):
        q.setdefault("landings", {})[who] = {"position": dest, "at": format_time(ctx.at), "note": note,
                                             "occupants": occupants}
    else:
        q.get("landings", {}).pop(who, None)
    step: dict[str, Any] = {"moved": who, "from": start, "to": dest, **({"note": note} if music else {})}
    if how != "move":
        step["by"] = how
    ctx.step(step)
    if dest == ROME and stat(me, "flavour") != ROBOT:
        # rule 15: entering Rome makes the Muffin Plain, even past the day's flavour change, and counts as it
        me["stats"]["flavour"] = PLAIN
        mark_today(ctx, "flavour", who)
        ctx.step({"flavour": who, "to": PLAIN, "because": "Rome"})
    return dest


def patched_moves(ctx: Ctx) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """The Muffins whose Position an action from outside the module changed (a proposal's or CfJ's patch), each with
    its entry before the action. The module's own actions move Muffins through ``move_to``, which applies the
    rules of a move itself; a join, a departure and the end of a dynasty (whose reset blanks every Position) are no
    moves; a Muffin under a new name is not compared with its old entry. An idle Muffin is no Muffin for these
    rules (core rule 2), and its values are only kept: one a patch moved while idle is left as the patch put it."""
    if ctx.action.name.startswith("quazie.") or ctx.action.name in EXEMPT:
        return []
    out = []
    for p, old in reached_players(ctx):
        if old is None or p.get("kind") or p.get("idle"):
            continue
        if stat(old, "position") != stat(p, "position"):
            out.append((p, old))
    return out


# seed 003 rule 15 "Special Position Rules": entering Rome makes a Muffin Plain unless Robot; repealed, Rome does not
@ruled(R_SPECIAL)
def rome_makes_plain(ctx: Ctx) -> None:
    """Consequence (seed 003 rule 15): a Muffin that enters Rome is made Plain at once unless it is Robot, even past
    the day's change of Flavor, and that counts as the change for the day. ``move_to`` does so for the module's own
    moves; this does it for a Muffin a proposal's patch put in Rome (whoever it is: rule 15 lets the GRAND POOBAH go
    there by its own moves and does not stop a proposal putting another Muffin there). A flavour the same patch gave
    is the one Rome replaces, as it would replace one changed earlier that day. Runs after the Limbo guard, which
    keeps a Muffin in Limbo where it was."""
    for p, _old in patched_moves(ctx):
        if stat(p, "position") != ROME or stat(p, "flavour") == ROBOT:
            continue
        name, was = p["name"], stat(p, "flavour")
        if was != PLAIN:
            ctx.edit_player(name)["stats"]["flavour"] = PLAIN
        mark_today(ctx, "flavour", name)
        ctx.step({"flavour": name, "from": was, "to": PLAIN, "because": "Rome"})


# seed 003 rule 24 "Music": every move plays a note; repealed, no move plays one
@ruled(R_MUSIC)
def patch_plays_note(ctx: Ctx) -> None:
    """Consequence (seed 003 rule 24): whenever a Muffin moves to a new Position a note plays. ``move_to`` plays it
    for the module's own moves; this plays it for a Muffin whose Position a proposal's (or CfJ's) patch changed: the
    note of the Position it now holds, '-' for a move into or out of Limbo, '?' where the table gives none (refused
    instead, with the rest of the action, when the game's ``unknown_note`` is ``refuse``). A patch that writes the
    Muffin's Note History itself says what was played, and is applied as written. Runs after the Limbo guard, which
    keeps a Muffin in Limbo where it was (no move, no note)."""
    for p, old in patched_moves(ctx):
        name, start, dest = p["name"], stat(old, "position"), stat(p, "position")
        if stat(p, "notes") != stat(old, "notes") or not isinstance(stat(p, "notes", []), list):
            continue  # written by the patch itself (or no list: nomic check reports that history)
        note = note_for(ctx, start, dest)
        if note is None and opts(ctx)["unknown_note"] == "refuse":
            raise ctx.refuse(f"{name} would move to {position_label(dest)}, and the table of notes gives no "
                             "note for it; every move plays one, and this game refuses moves whose note is undefined",
                             R_MUSIC)
        _play(ctx, name, note or UNKNOWN_NOTE)
        ctx.step({"moved": name, "from": start, "to": dest, "note": note or UNKNOWN_NOTE})


# seed 003 rule 12 "Position": a Muffin that moved onto an occupied Standard Position may bounce; repealed, nobody
# bounces (the action goes with the rule), and no landing is noted for a proposal's move
@ruled(R_POSITION)
def patch_landing(ctx: Ctx) -> None:
    """Consequence (seed 003 rule 12): a Muffin that moved to a Standard Position somebody occupies may bounce off
    them. ``move_to`` notes each landing (where, when, its note, who was there) for the module's own moves; this
    notes it for a Muffin a proposal's (or CfJ's) patch moved, so it may bounce that day as after any move, and
    drops the landing of one the patch took off the Standard Positions. Runs after the note is played."""
    for p, old in patched_moves(ctx):
        name, start, dest = p["name"], stat(old, "position"), stat(p, "position")
        landings = ctx.doc("quazie").get("landings", {})
        if is_standard(dest):
            note = note_for(ctx, start, dest) or UNKNOWN_NOTE
            ctx.edit("quazie").setdefault("landings", {})[name] = {
                "position": dest, "at": format_time(ctx.at), "note": note,
                "occupants": at_position(ctx, dest, but=name)}
        elif name in landings:
            ctx.edit("quazie")["landings"].pop(name)


# ---------------------------------------------------------------- bouncing (rule 12)


def _bounce_head(ctx: Ctx, me: dict[str, Any]) -> Iterator[str]:
    """Seed 003 rule 12: a bounce follows a move (on the same day, by this game's option), whoever it is off."""
    landing = ctx.doc("quazie").get("landings", {}).get(ctx.actor)
    pos = stat(me, "position")
    if landing is None or landing["position"] != pos:
        yield f"{ctx.actor} has not just moved to {position_label(pos)}; a Muffin bounces right after moving"
    elif opts(ctx)["bounce_same_day"] and parse_time(landing["at"]).date().isoformat() != day(ctx):
        yield f"{ctx.actor} moved to {position_label(pos)} on an earlier day; a bounce follows its move"


def _bounce_ready(ctx: Ctx) -> Iterator[str]:
    """Seed 003 rule 12: the check's head (no move to bounce from), then whether anybody is left to bounce off: a
    Muffin who was at the Position when the mover landed, is there still and was not bounced off today; with
    nobody, the check refuses every name."""
    me = ctx.player()
    if me is None or me.get("idle"):
        return
    head = list(_bounce_head(ctx, me))
    yield from head
    if head:
        return
    landing = ctx.doc("quazie")["landings"][ctx.actor]
    pos = stat(me, "position")
    if not any(p["name"] != ctx.actor and p["name"] in landing.get("occupants", []) and stat(p, "position") == pos
               and p["name"] not in bounced_today(ctx, ctx.actor) for p in muffins(ctx)):
        yield (f"nobody who was at {position_label(pos)} when {ctx.actor} moved there is still there and not yet "
               "bounced off today")


def _bounce_check(ctx: Ctx) -> Iterator[str]:
    me = muffin(ctx, ctx.actor)
    head = list(_bounce_head(ctx, me))
    if head:
        yield from head
        return
    landing = ctx.doc("quazie")["landings"][ctx.actor]
    pos = stat(me, "position")
    off = ctx.params["off"]
    if off == ctx.actor:
        yield "a Muffin cannot bounce off itself"
    elif off not in at_position(ctx, pos):
        yield f"{off} is not at {position_label(pos)}, where {ctx.actor} moved"
    elif off not in landing.get("occupants", []):
        yield f"{off} was not at {position_label(pos)} when {ctx.actor} moved there"
    elif off in bounced_today(ctx, ctx.actor):
        yield f"{ctx.actor} has already bounced off {off} today"
    if step_from(pos, ctx.params["direction"]) is None and not ctx.params.get("rome"):
        yield f"there is no Standard Position {ctx.params['direction']} from {position_label(pos)}"


SPENT_KEYS = ("concerto_used", "movement_used")


def _carry_spent(ctx: Ctx, mover: str, off: str) -> None:
    """A note the bounce hands on stays spent if it was already used (rule 24: a string of notes makes one
    Concerto only).

    A Concerto or movement claimed between a move and its bounce may have used the landing note. The spent
    counts are prefixes of each history: the mover's shrinks to what is left of its history, and the Muffin
    bounced off has all of its history spent, which loses nothing, as any later string that reached back
    past the handed-on note would have to include it.
    """
    q = ctx.doc("quazie")
    mine = len(stat(ctx.player(mover), "notes", []))
    for key in SPENT_KEYS:
        if int(q.get(key, {}).get(mover, 0)) > mine:
            spent = ctx.edit("quazie")[key]
            spent[mover] = mine
            spent[off] = len(stat(ctx.player(off), "notes", []))


def _bounce(ctx: Ctx) -> None:
    off, direction = ctx.params["off"], ctx.params["direction"]
    q = ctx.doc("quazie")
    landing = q["landings"][ctx.actor]
    me = ctx.edit_player()
    notes = list(stat(me, "notes", []))
    # rule 24: the note of the position bounced from goes to the Muffin bounced off, not the mover
    if notes and notes[-1] == landing["note"] and not repealed(ctx, R_MUSIC):  # seed 003 rule 24, as in ``move_to``
        notes.pop()
        me["stats"]["notes"] = notes
        _play(ctx, off, landing["note"])
        _carry_spent(ctx, ctx.actor, off)
        ctx.step({"bounced_off": off, "note_to": off, "note": landing["note"]})
    mark_today(ctx, f"bounced:{ctx.actor}", off)
    move_to(ctx, ctx.actor, step_from(landing["position"], direction) or "", rome=bool(ctx.params.get("rome")),
            how="bounce")


BOUNCE = Action(
    name="quazie.bounce",
    rule=R_POSITION,
    summary="Bounce off a Muffin at the Position you just moved to, one Position up or down",
    params={"type": "object", "required": ["off", "direction"], "additionalProperties": False,
            "properties": {"off": {"$ref": "common.schema.json#/$defs/name",
                                   "description": "the Muffin at your new Position you bounce off"},
                           "direction": {"enum": ["up", "down"], "description": "which way you bounce"},
                           "rome": ROME_PARAM}},
    check=_bounce_check,
    ready=_bounce_ready,
    effect=_bounce,
    doc="After any move to an occupied Standard Position, the mover may bounce off a Muffin there to an "
        "adjacent Position, and again from there, but off each Muffin at most once a day. The note of the "
        "Position bounced from goes into the note history of the Muffin bounced off.",
)


# ---------------------------------------------------------------- raising It (rule 12)


def _raise_check(ctx: Ctx) -> Iterator[str]:
    muffin(ctx, ctx.actor)
    if repealed(ctx, R_TAG):
        # seed 003 rule 14 "Tag" makes It (and the GRAND POOBAH It when nobody is); repealed, there is no It to raise
        yield f"nobody is It: rule {rule_number(ctx, R_TAG)}, which makes It, has been repealed"
        return
    it = it_muffin(ctx)
    if it is None:
        yield "nobody is It"
        return
    if ctx.actor == it:
        yield f"{ctx.actor} is It; only a Muffin who is Not It may raise It"
    if done_today(ctx, "it_raised", it):
        yield "the position of the Muffin who is It has already been raised today"
    # rule 12 (seed 003) sets two limits: "Once a Day" is the raiser's (as rule 13's "Once per day a Muffin may"),
    # and It's position not raised today is It's; a new It after a tag may be raised, but not by the same raiser
    if done_today(ctx, "raised_it", ctx.actor):
        yield f"{ctx.actor} has already raised It today; a Muffin may raise It once a day"
    p = muffin(ctx, it, "Muffin who is It")
    # Rule 12 (seed 003) raises It "by 1", and rule 15 lets the Muffin it names go to R only when it "is able to
    # move": with no Position above (9, X, Limbo) there is no raise, so no Rome instead either (as for a Fruity
    # move or a Concerto's step). Rule 15 also keeps a Muffin in Limbo for its own (or a same-Limbo) setting to 9.
    if step_from(stat(p, "position"), "up") is None:
        yield f"{it} is at {position_label(stat(p, 'position'))}: there is no Position above to raise them to" + (
            ", so no raise to send them to Rome instead" if ctx.params.get("rome") else "")


def _raise(ctx: Ctx) -> None:
    it = it_muffin(ctx) or ""
    pos = stat(muffin(ctx, it), "position")
    mark_today(ctx, "it_raised", it)
    mark_today(ctx, "raised_it", ctx.actor)
    move_to(ctx, it, step_from(pos, "up") or "", rome=bool(ctx.params.get("rome")), how=f"raised by {ctx.actor}")


RAISE_IT = Action(
    name="quazie.raise-it",
    rule=R_POSITION,
    summary="Raise the position of the Muffin who is It by 1 (once a day, by a Muffin who is Not It)",
    params={"type": "object", "additionalProperties": False, "properties": {"rome": ROME_PARAM}},
    check=_raise_check,
    effect=_raise,
    doc="Any Muffin who is Not It may, once a day, move the Muffin who is It (the GRAND POOBAH when nobody is) "
        "one Position up, if that Muffin's position has not been raised today (so a new It after a tag may be "
        "raised the same day, by another Muffin). If It is the GRAND POOBAH, the raiser may send them to Rome "
        "instead.",
)


# ---------------------------------------------------------------- leaving Limbo (rule 15)


def _limbo_check(ctx: Ctx) -> Iterator[str]:
    who = ctx.params.get("muffin", ctx.actor)
    p = muffin(ctx, who)
    pos = stat(p, "position")
    if not in_limbo(pos):
        yield f"{who} is not in Limbo but at {position_label(pos)}"
        return
    if who != ctx.actor:
        mine = stat(muffin(ctx, ctx.actor), "position")
        if mine != pos:
            yield (f"only {who} or a Muffin in Limbo with the same Position value ({pos!r}) may set {who}'s "
                   f"Position to 9; {ctx.actor} is at {position_label(mine)}")


def _leave_limbo(ctx: Ctx) -> None:
    move_to(ctx, ctx.params.get("muffin", ctx.actor), "9", rome=bool(ctx.params.get("rome")), how="out of Limbo",
            out_of_limbo=True)


LEAVE_LIMBO = Action(
    name="quazie.leave-limbo",
    rule=R_SPECIAL,
    summary="Set the Position of a Muffin in Limbo to 9",
    params={"type": "object", "additionalProperties": False,
            "properties": {"muffin": {"$ref": "common.schema.json#/$defs/name",
                                      "description": "the Muffin in Limbo"}, "rome": ROME_PARAM}},
    check=_limbo_check,
    effect=_leave_limbo,
    doc="A Muffin in Limbo may set its own Position to 9 at any time; so may another Muffin in Limbo with the "
        "same Position value. The GRAND POOBAH may go to Rome instead.",
)


# ---------------------------------------------------------------- flying from the Death Egg (rule 21)


def fly_destination(table: list[dict[str, Any]], roll: int) -> str | None:
    """The DICE42 table: the first row whose ``upto`` is at least the roll; None for a Bastard (over 38)."""
    for row in table:
        if roll <= row["upto"]:
            return str(row["position"])
    return None


def fly_landings(table: list[dict[str, Any]], sides: int) -> list[str]:
    """Every Position some roll of the die (1 to ``sides``) can fly to, in the table's order."""
    out: list[str] = []
    low = 1  # the smallest roll not yet taken by an earlier row
    for row in table:
        high = min(row["upto"], sides)
        if high >= low and str(row["position"]) not in out:
            out.append(str(row["position"]))
        low = max(low, high + 1)
    return out


def _fly_check(ctx: Ctx) -> Iterator[str]:
    p = muffin(ctx, ctx.actor)
    if stat(p, "position") != DEATH_EGG:
        yield f"{ctx.actor} is at {position_label(stat(p, 'position'))}, not at Position X"
        return
    if bound_blind(ctx, p):  # seed 003 rule 13 (not rule 21) keeps a Blind Muffin from moving, as in ``move_to``
        yield Problem(f"{ctx.actor} is Blind; a Blind Muffin may not move or be moved", rule=R_FLAVOURS)
    if ctx.params.get("rome"):
        # rule 15: asked before the DICE42, so that a Bastard (no move, so no Rome) does not make it legal
        why = rome_refusal(ctx, ctx.actor)
        if why:
            yield Problem(why, rule=R_SPECIAL)
    # Every landing the DICE42 could pick is judged before the roll (with unknown_note: refuse, one whose note
    # rule 24's table leaves undefined), so that whether the fly is legal never hangs on the dice.
    fly = tables(ctx)["fly"]
    landings = fly_landings(fly["table"], fly["sides"])
    if ctx.params.get("rome") and landings:
        landings = [ROME]
    refused = [(dest, why) for dest in landings if (why := landing_refusal(ctx, ctx.actor, DEATH_EGG, dest))]
    if refused:
        where = ", ".join(position_label(dest) for dest, _ in refused)
        message, rule = refused[0][1]
        yield Problem(f"the DICE{fly['sides']} may fly {ctx.actor} to {where}, and this fly is judged before the "
                      f"roll: {message}", rule=rule)


def _fly(ctx: Ctx) -> None:
    fly = tables(ctx)["fly"]
    change_stat(ctx, ctx.actor, "stuff", -fly["cost"], cost=True, rule=R_FLY)
    roll = ctx.roll(fly["sides"])
    dest = fly_destination(fly["table"], roll)
    ctx.step({"hired_kitsune": ctx.actor, "stuff": -fly["cost"], "roll": roll})
    if dest is None:
        ctx.step({"bastard": roll, "stays": DEATH_EGG})
        return
    move_to(ctx, ctx.actor, dest, rome=bool(ctx.params.get("rome")), how="fly")


FLY = Action(
    name="quazie.fly",
    rule=R_FLY,
    summary="Hire a kitsune: pay 5 Stuffs at Position X and fly by DICE42",
    params={"type": "object", "additionalProperties": False, "properties": {"rome": ROME_PARAM}},
    check=_fly_check,
    effect=_fly,
    doc="A Muffin at the Death Egg pays 5 Stuffs (refused if it has fewer) and rolls DICE42: 1 goes to "
        "Position 1, 2-3 to 2, 4-6 to 3, 7-11 to 4, 12-15 to 5, 16-20 to 6, 21-26 to 7, 27-36 to 8, 37-38 "
        "to 9. Over 38 is a Bastard: the Muffin stays at X and the Stuffs are spent.",
)

ACTIONS = [BOUNCE, RAISE_IT, LEAVE_LIMBO, FLY]
