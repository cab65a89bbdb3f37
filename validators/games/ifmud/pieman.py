"""The pieman (Rules 108, 114-116, 132-133): pies and bombs for sale, pies thrown."""

from __future__ import annotations

from typing import Any, Iterator

from ...engine import Action, Ctx
from . import world as w
from .turns import lock, mark, moved_this_turn, require_turn

# ---------------------------------------------------------------- the pieman


def _pieman_moves(ctx: Ctx, rule: str) -> None:
    here = w.entity_location(ctx, "pieman")
    w.set_entity_location(ctx, "pieman", w.select(ctx, w.neighbours(ctx, here, ctx.at), "the pieman's next room", rule),
                          how=rule)


def _name_ok(name: str, ending: str) -> bool:
    """Rules 108, 133: begins with 'a ' or 'an ', ends with ' pie' / ' bomb'; never 'a pie bomb'."""
    return name.startswith(("a ", "an ")) and name.endswith(ending) and name != "a pie bomb"


# seed 002: the rule that lets each kind of token be named (Rule 108 a pie, Rule 133 a bomb)
_NAMING = {"pie": "r108", "bomb": "r133"}


def _naming_gone(ctx: Ctx, kind: str) -> str:
    """Why a ``kind`` ("pie" or "bomb") may not be named, its rule being repealed (it then stays "a pie", "a bomb");
    "" while the rule stands."""
    rule = _NAMING[kind]
    return f"a {kind} may not be renamed: Rule {rule[1:]}, which let it be, has been repealed" \
        if w.repealed(ctx, rule) else ""


def _buy_pie_check(ctx: Ctx) -> Iterator[str]:
    yield from require_turn(ctx, rule="r115")
    s = w.servant(ctx, ctx.actor)
    if s is None or s["location"] != w.entity_location(ctx, "pieman"):
        yield f"{ctx.actor}'s servant is not where the pieman is ({w.entity_location(ctx, 'pieman')})"
    if not w.neighbours(ctx, w.entity_location(ctx, "pieman"), ctx.at):
        yield "the pieman's room connects nowhere, so he cannot move on and the pie cannot be bought"
    name = ctx.params.get("name")
    if name and (gone := _naming_gone(ctx, "pie")):
        yield gone
    elif name and not _name_ok(name, " pie"):
        yield "a pie's name begins with 'a ' or 'an ' and ends with ' pie' (Rule 108)"
    yield from w.may_lose(ctx, ctx.actor, 20, "a pie")


def _buy_pie(ctx: Ctx) -> None:
    mark(ctx)
    w.add_tally(ctx, ctx.actor, -20, w.BROWNIE, "Rule 115: a pie")
    t = w.new_token(ctx, {"name": ctx.params.get("name") or "a pie", "role": "pie", "location": {"servant": ctx.actor}})
    _pieman_moves(ctx, "r115")
    if not ctx.params.get("name") and not _naming_gone(ctx, "pie"):
        _may_rename(ctx, t["id"])


def _buy_bomb_check(ctx: Ctx) -> Iterator[str]:
    yield from require_turn(ctx, rule="r132")
    if w.location_of_player(ctx, ctx.actor) != w.entity_location(ctx, "pieman"):
        yield f"{ctx.actor} is not where the pieman is ({w.entity_location(ctx, 'pieman')})"
    if not w.neighbours(ctx, w.entity_location(ctx, "pieman"), ctx.at):
        yield "the pieman's room connects nowhere, so he cannot move on and the bomb cannot be bought"
    name = ctx.params.get("name")
    if name and (gone := _naming_gone(ctx, "bomb")):
        yield gone
    elif name and not _name_ok(name, " bomb"):
        yield "a bomb's name begins with 'a ' or 'an ' and ends with ' bomb', and is not 'a pie bomb' (Rule 133)"
    yield from w.may_lose(ctx, ctx.actor, 10, "a bomb")


def _buy_bomb(ctx: Ctx) -> None:
    mark(ctx)
    w.add_tally(ctx, ctx.actor, -10, w.BROWNIE, "Rule 132: a bomb")
    days = int(ctx.params.get("days", 1))
    t = w.new_token(ctx, {"name": ctx.params.get("name") or "a bomb", "location": {"player": ctx.actor},
                          "delay_hours": 24 * days, "moved_by": ctx.actor})
    _pieman_moves(ctx, "r132")
    if not ctx.params.get("name") and not _naming_gone(ctx, "bomb"):
        _may_rename(ctx, t["id"])


def open_renames(pending: dict[str, Any] | None) -> list[int]:
    """The pies and bombs bought this turn that may still be renamed (Rules 108, 133), in the order bought."""
    return w.pending_ids(pending, "renames", "rename")


def _may_rename(ctx: Ctx, ident: int) -> None:
    """ifMUD seed, Rules 108 and 133: each pie or bomb bought may be renamed until the turn ends; buying another
    does not take that right from the first."""
    pending = ctx.edit("turn").setdefault("pending", {})
    pending["renames"] = [*open_renames(pending), ident]
    pending.pop("rename", None)


_NO_RENAME = "you bought no pie or bomb this turn that is still unnamed (Rules 108, 133)"


def _chosen(ctx: Ctx) -> tuple[int | None, str | None]:
    """The pie or bomb being renamed, or why there is none."""
    return w.choose_pending(ctx, open_renames(w.turn(ctx).get("pending")),
                            none=_NO_RENAME,
                            what="pies or bombs bought this turn may be renamed",
                            not_open="is no pie or bomb you bought this turn and have not yet renamed (Rules 108, 133)")


def _rename_ready(ctx: Ctx) -> Iterator[str]:
    """What stops any renaming (``Action.ready``): not the actor's turn (Rule 27), or nothing they bought this turn
    left to rename (Rules 108, 133), which the check says whatever name or token is given."""
    now = list(require_turn(ctx, rule="r133"))
    yield from now
    if not now and not open_renames(w.turn(ctx).get("pending")):
        yield _NO_RENAME


def _rename_check(ctx: Ctx) -> Iterator[str]:
    yield from require_turn(ctx, rule="r133")
    ident, why = _chosen(ctx)
    if why:
        yield why
        return
    t = w.token(ctx, ident)
    # (the action is Rule 133's and Rule 108's, ``also``: the engine refuses it only once both are repealed)
    gone = _naming_gone(ctx, "pie" if t.get("role") == "pie" else "bomb")
    if gone:
        yield gone
        return
    ending = " pie" if t.get("role") == "pie" else " bomb"
    if not _name_ok(ctx.params["name"], ending):
        yield f"the name must begin with 'a ' or 'an ' and end with '{ending}'" + (
            ", and not be 'a pie bomb'" if ending == " bomb" else "")


def _rename(ctx: Ctx) -> None:
    ident, _ = _chosen(ctx)
    w.close_pending(ctx, ident, "renames", "rename")
    w.edit_token(ctx, ident)["name"] = ctx.params["name"]
    ctx.step({"token": ident, "renamed": ctx.params["name"]})


def _throw_ready(ctx: Ctx) -> Iterator[str]:
    """The head of the check, whatever target is named (``Action.ready``): the actor's turn (Rule 27), a servant
    carrying a pie, not moved this turn (Rule 116)."""
    yield from require_turn(ctx, rule="r116")
    if w.servant(ctx, ctx.actor) is None:
        yield f"{ctx.actor} has no servant"
        return
    pies = [t for t in w.carried_by(ctx, "servant", ctx.actor) if t.get("role") == "pie"]
    if not pies:
        yield "the servant carries no pie"
    if moved_this_turn(ctx, "servant:" + ctx.actor):
        yield "the servant's location was changed this turn; it may not throw a pie (Rule 116)"


def _throw_check(ctx: Ctx) -> Iterator[str]:
    yield from _throw_ready(ctx)
    s = w.servant(ctx, ctx.actor)
    if s is None:
        return
    where = _target_place(ctx)
    if where is None:
        yield f"there is no target {ctx.params['target']!r}"
    elif where == s["location"] or not w.connected(ctx, s["location"], where, ctx.at):
        yield f"the target is in {where}, which is not a room connected to the servant's ({s['location']})"
    # ifMUD seed, Rule 42 on the worst case: a pie that hits its player's own thrower makes them drop everything
    # (Rule 116), the Bottle Imp too, whose leaving lowers their Puissance, a tally (Rules 136, 149).
    if _target(ctx) == ("player", ctx.actor) and any(
            w.imp_holder(ctx, t) == ctx.actor for t in w.carried_by(ctx, "player", ctx.actor)):
        yield from w.may_lose(ctx, ctx.actor, 1, "a pie hitting them, so that they drop the Bottle Imp (Rule 149)",
                              stat=w.PUISSANCE)


def _target(ctx: Ctx) -> tuple[str, str]:
    t = ctx.params["target"]
    if t == "monkey":
        return "monkey", ""
    if t.startswith("servant:"):
        return "servant", t[len("servant:"):]
    return "player", t


def _target_place(ctx: Ctx) -> str | None:
    kind, who = _target(ctx)
    if kind == "monkey":
        return w.entity_location(ctx, "monkey")
    if kind == "servant":
        return (w.servant(ctx, who) or {}).get("location")
    return w.location_of_player(ctx, who)


def _throw(ctx: Ctx) -> None:
    mark(ctx)
    # Rule 116: throwing does not change the servant's location (so a second pie may follow in the same
    # turn); it only forbids changing it voluntarily for the rest of the turn.
    lock(ctx, "servant:" + ctx.actor)
    pie = next(t for t in w.carried_by(ctx, "servant", ctx.actor) if t.get("role") == "pie")
    roll = ctx.roll(6)
    kind, who = _target(ctx)
    ctx.step({"pie": pie["name"], "at": ctx.params["target"], "d6": roll})
    if roll % 2 == 0:
        w.remove_token(ctx, w.edit_token(ctx, pie["id"]), "Rule 116: the pie hit")
        w.drop_all(ctx, kind, who, "Rule 116: hit by a pie", by=ctx.actor)  # Rule 90: the thrower moved them
    else:
        w.set_token_location(ctx, w.edit_token(ctx, pie["id"]), {"room": _target_place(ctx)}, by=ctx.actor)


PIEMAN = [
    Action(name="ifmud.buy-pie", rule="r115", summary="Have your servant buy a pie from the pieman (20 points)",
           params={"type": "object", "additionalProperties": False,
                   "properties": {"name": {"type": "string", "maxLength": 120, "description": "a name for the pie"}}},
           check=_buy_pie_check, effect=_buy_pie,
           doc="The servant must be with the pieman. The pie goes to the servant; the pieman moves on to a "
               "connected room chosen by Random Selection. `name` renames it at once (Rule 108)."),
    Action(name="ifmud.buy-bomb", rule="r132", summary="Buy a time bomb from the pieman (10 points)",
           params={"type": "object", "additionalProperties": False,
                   "properties": {"days": {"type": "integer", "minimum": 1, "maximum": 7,
                                           "description": "its delay in days (1 if left out)"},
                                  "name": {"type": "string", "maxLength": 120, "description": "a name for the bomb"}}},
           check=_buy_bomb_check, effect=_buy_bomb,
           doc="Delay 1 to 7 days (default 1). The pieman moves on by Random Selection (Rule 132)."),
    Action(name="ifmud.rename", rule="r133", also=("r108",), summary="Name the pie or bomb you just bought",
           params={"type": "object", "required": ["name"], "additionalProperties": False,
                   "properties": {"name": {"type": "string", "minLength": 3, "maxLength": 120,
                                           "description": "its new name"},
                                  "token": {"oneOf": [{"type": "integer", "minimum": 1},
                                                      {"type": "string", "minLength": 1, "maxLength": 120}],
                                            "description": "which one, when more than one bought this turn "
                                                           "may still be renamed"}}},
           check=_rename_check, ready=_rename_ready, effect=_rename,
           doc="Before the end of the turn in which it was bought; 'a ...pie' or 'an ...bomb' (Rules 108, 133). "
               "Each pie or bomb bought in the turn may be renamed once; name the token when several may."),
    Action(name="ifmud.throw-pie", rule="r116", summary="Have your servant throw a pie",
           params={"type": "object", "required": ["target"], "additionalProperties": False,
                   "properties": {"target": {"type": "string", "minLength": 1, "maxLength": 60,
                                             "description": "a player's name, servant:<owner>, or monkey"}}},
           check=_throw_check, ready=_throw_ready, effect=_throw,
           doc="At a target in a connected room. A d6: even hits (the pie is gone, the target drops everything); "
               "odd misses (the pie lands by the target). The servant may not have moved this turn, nor move after."),
]


ACTIONS = PIEMAN
