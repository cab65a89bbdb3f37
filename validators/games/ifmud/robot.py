"""The robot and the kitten (Rules 155, 157, 160)."""

from __future__ import annotations

from collections.abc import Iterator

from ...engine import Action, Ctx, peek
from . import world as w
from .turns import mark, require_turn

# ---------------------------------------------------------------- the robot and the kitten


def _rk_ready(ctx: Ctx) -> Iterator[str]:
    """The head of the check, whatever is done (``Action.ready``): the actor's turn (Rule 27), and the robot and
    the kitten used less than twice in it (Rule 160)."""
    yield from require_turn(ctx, rule="r160")
    if int(w.turn(ctx).get("robot_kitten", 0)) >= 2:
        yield "the robot and the kitten have already been used twice this turn (Rule 160)"


def _rk_check(ctx: Ctx) -> Iterator[str]:
    yield from _rk_ready(ctx)
    what = ctx.params["do"]
    if what == "kitten-move" and not w.neighbours(ctx, w.entity_location(ctx, "kitten"), ctx.at):
        yield "the kitten's room connects nowhere"
    if what == "kitten-fly":
        yield "the rules do not say where a kitten can fly (the rules that did were removed), so it cannot (Rule 160)"
    if what == "robot":
        here = w.entity_location(ctx, "robot")
        dest = here
        if ctx.params.get("to"):
            dest = w.resolve_room(ctx, ctx.params["to"])
            if dest is None or not w.connected(ctx, here, dest, ctx.at):
                yield f"the robot cannot move from {here} to {ctx.params['to']!r}"
                return
        if not _examinable(ctx, dest):
            yield f"nothing but the robot would be in {dest}; the examination cannot be completed, so no movement"
        kitten_only = [k for k, _ in _examinable(ctx, dest)] == ["kitten"]
        if not kitten_only and not w.repealed(ctx, "r157"):  # (seed 002 Rule 157 repealed: examining costs nothing)
            yield from w.may_lose(ctx, ctx.actor, 1, "examining a non-kitten entity")


# What the rules call the entities that have no name of their own (Rules 71, 80, 114, 155).
_CALLED = {"monkey": "the monkey", "pieman": "the pieman", "omnibus": "the Magic Omnibus", "kitten": "the kitten"}


def _examinable(ctx: Ctx, place: str) -> list[tuple[str, str]]:
    """(kind, name) of everything but the robot whose location is ``place``. Random Selection (Rule 95) puts
    them in the Standard Order of their names: a player's name, a servant's name (Rule 45; "<owner>'s
    servant" while it has none), a token's name, and the monkey, pieman, Magic Omnibus and kitten as the
    rules call them."""
    out = []
    for kind, who in w.everything_in(ctx, place):
        if kind == "robot":
            continue
        if kind == "servant":
            s = w.servant(ctx, who) or {}
            out.append(("servant", s["name"] if w.is_named(s) else f"{who}'s servant"))
        elif kind == "player":
            out.append(("player", who))
        else:
            out.append((kind, _CALLED[kind]))
    lying = {"room": place}
    out += [("token", t["name"]) for t in peek(w.tokens(ctx)) if dict.__getitem__(t, "location") == lying]
    return out


def _rk(ctx: Ctx) -> None:
    mark(ctx)
    ctx.edit("turn")["robot_kitten"] = int(w.turn(ctx).get("robot_kitten", 0)) + 1
    what = ctx.params["do"]
    if what == "kitten-move":
        here = w.entity_location(ctx, "kitten")
        to = w.select(ctx, w.neighbours(ctx, here, ctx.at), "the kitten's room", "r160")
        w.set_entity_location(ctx, "kitten", to, how="Rule 160")
        return
    dest = w.resolve_room(ctx, ctx.params["to"]) if ctx.params.get("to") else w.entity_location(ctx, "robot")
    w.set_entity_location(ctx, "robot", dest, how="Rule 160")
    kind, seen = w.select(ctx, _examinable(ctx, dest), "what the robot examines", "r160", name=lambda x: x[1])
    # seed 002 Rule 157 gives the examination its outcome (a point lost, or robotfindskitten's 10 and both sent
    # home); repealed, the robot examines (Rule 160) and nothing follows
    if w.repealed(ctx, "r157"):
        return
    if kind == "kitten":
        ctx.step({"robotfindskitten": True})
        w.add_tally(ctx, ctx.actor, 10, w.BROWNIE, "Rule 157: robotfindskitten")
        # ifMUD seed, Rule 157 sends the robot to Embedded CPU and the kitten to the Lounge; a room the rules send
        # something to that is no longer on the map is replaced by the room alphabetically first (Rule 69), not by
        # Saturn (Rule 53 is for a location that ceases to exist).
        for which, room in (("robot", "cpu"), ("kitten", "lounge")):
            home = w.room_name(ctx, room)
            w.set_entity_location(ctx, which, w.required_room(ctx, home) or home,
                                  how="Rule 157" if w.room(ctx, home) is not None else "Rules 157, 69")
    else:
        w.add_tally(ctx, ctx.actor, -1, w.BROWNIE, f"Rule 157: the robot examined {seen}")


ROBOT = Action(
    name="ifmud.robot-kitten", rule="r160", summary="Move the kitten, or move the robot and examine (twice a turn)",
    params={"type": "object", "required": ["do"], "additionalProperties": False,
            "properties": {"do": {"enum": ["kitten-move", "kitten-fly", "robot"],
                                  "description": "move the kitten, fly it, or move the robot"},
                           "to": {"type": "string", "maxLength": 120,
                                  "description": "robot: the connected room to move it to first"}}},
    check=_rk_check, ready=_rk_ready, effect=_rk,
    doc="kitten-move: to a connected room by Random Selection. robot: optionally move it to a connected room "
        "(`to`), then it examines something there chosen by Random Selection (players, servants, the monkey, "
        "pieman, Omnibus, kitten, and tokens lying there): the kitten pays 10 points and sends both home; "
        "anything else costs 1 point. kitten-fly is refused: no rule says where a kitten can fly.",
)


ACTIONS = [ROBOT]
