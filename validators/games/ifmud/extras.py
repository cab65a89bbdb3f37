"""Donations (Rule 113), spending damage on connectivity names (Rules 76, 121, 129), naming
servants (Rule 45) and leaving (Rule 13)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Callable

from ...engine import ANYONE, PLAYER, Action, Ctx, peek
from ...schemas import not_blank
from . import consent
from . import world as w
from .consequences import remove_player
from .turns import mark, require_turn

# ---------------------------------------------------------------- donations (Rule 113)


def _offer_check(ctx: Ctx) -> Iterator[str]:
    if ctx.params["to"] not in w.player_names(ctx) or ctx.params["to"] == ctx.actor:
        yield f"{ctx.params['to']!r} is not another player"


def _offer(ctx: Ctx) -> None:
    doc = ctx.edit("consent")
    n = max([d["id"] for d in doc.get("donations", [])], default=0) + 1
    doc.setdefault("donations", []).append({"id": n, "from": ctx.actor, "to": ctx.params["to"],
                                            "points": ctx.params["points"], "status": "offered"})
    ctx.step({"donation": n})


def _accept_check(ctx: Ctx, who: str):
    d = next((x for x in ctx.doc("consent").get("donations", []) if x["id"] == ctx.params["donation"]), None)
    if d is None or d["status"] != "offered":
        yield f"there is no open donation {ctx.params['donation']}"
    elif d[who] != ctx.actor:
        yield f"donation {d['id']} is not {'to' if who == 'to' else 'from'} {ctx.actor}"
    elif who == "to" and d["from"] not in w.player_names(ctx):
        yield f"{d['from']} is no longer a player"


def _donation_ready(who: str) -> Callable[[Ctx], Iterator[str]]:
    """``Action.ready`` of accepting (``who`` "to") or retracting ("from") a donation (Rule 113): with no open
    donation to (from) the actor, the check refuses every number."""

    def ready(ctx: Ctx) -> Iterator[str]:
        if not any(d["status"] == "offered" and d[who] == ctx.actor
                   for d in peek(ctx.doc("consent").get("donations", []))):
            yield f"no donation {who} {ctx.actor} is open"

    return ready


def _accept(ctx: Ctx) -> None:
    d = next(x for x in ctx.edit("consent")["donations"] if x["id"] == ctx.params["donation"])
    d["status"] = "accepted"
    w.add_tally(ctx, d["from"], -d["points"], w.BROWNIE, "Rule 113: donation")
    w.add_tally(ctx, d["to"], d["points"], w.BROWNIE, "Rule 113: donation")


def _retract(ctx: Ctx) -> None:
    next(x for x in ctx.edit("consent")["donations"] if x["id"] == ctx.params["donation"])["status"] = "retracted"


_DON = {"type": "object", "required": ["donation"], "additionalProperties": False,
        "properties": {"donation": {"type": "integer", "minimum": 1, "description": "the number of the donation"}}}

DONATIONS = [
    Action(name="ifmud.donate", rule="r113", summary="Offer brownie points to another player",
           params={"type": "object", "required": ["to", "points"], "additionalProperties": False,
                   "properties": {"to": {"$ref": "common.schema.json#/$defs/name",
                                         "description": "the player you offer them to"},
                                  "points": {"type": "integer", "minimum": 1, "maximum": 100000,
                                             "description": "how many brownie points"}}},
           check=_offer_check, effect=_offer, who=PLAYER,
           doc="Nothing moves until the recipient accepts (Rule 113)."),
    Action(name="ifmud.accept-donation", rule="r113", summary="Accept a donation offered to you", params=_DON,
           check=lambda ctx: _accept_check(ctx, "to"), ready=_donation_ready("to"), effect=_accept, who=PLAYER,
           doc="The points move when the recipient accepts. Rule 42 binds the acting player only, and "
               "accepting only raises the recipient's tally, so this module does not stop a donor going below "
               "zero (see the docs)."),
    Action(name="ifmud.retract-donation", rule="r113", summary="Retract a donation not yet accepted", params=_DON,
           check=lambda ctx: _accept_check(ctx, "from"), ready=_donation_ready("from"), effect=_retract,
           who=PLAYER,
           doc="Only the donor, and only before the recipient accepts (Rule 113)."),
]


# ---------------------------------------------------------------- damage and connectivity


def _damage_ready(ctx: Ctx) -> Iterator[str]:
    """What stops spending damage on any room, with a letter or without (``Action.ready``): not the actor's turn
    (Rule 27; once a turn is only for masking, Rule 76), or no room with damage left (Rules 76, 121), which the
    check says of whichever room is named."""
    now = list(require_turn(ctx, rule="r76"))
    yield from now
    if not now and not any(int(r.get("damage", 0)) > 0 for r in peek(w.rooms(ctx))):
        yield "no room has damage to spend (Rules 76, 121)"


def _damage_check(ctx: Ctx) -> Iterator[str]:
    rule = "r121" if ctx.params.get("letter") else "r76"
    yield from require_turn(ctx, once=None if ctx.params.get("letter") else "unmask", rule=rule)
    # seed 002 Rule 121 makes spending damage on a new letter an action, Rule 76 spending it on unmasking one (the
    # action is both rules', ``also``: the engine refuses it only once both are repealed); each refuses its own
    # use while it is repealed
    if ctx.params.get("letter") and w.repealed(ctx, "r121"):
        yield "a new letter may not be bought with damage: Rule 121, which let it be, has been repealed"
        return
    if not ctx.params.get("letter") and w.repealed(ctx, "r76"):
        yield "a letter may not be unmasked with damage: Rule 76, which let it be, has been repealed"
        return
    r = w.room(ctx, w.resolve_room(ctx, ctx.params["room"]) or "")
    if r is None:
        yield f"there is no room {ctx.params['room']!r}"
        return
    if int(r.get("damage", 0)) <= 0:
        yield f"{r['name']} has no damage to spend"
    pos = ctx.params["position"]
    name = r.get("connect_name", r["name"])
    if pos > len(name):
        yield f"{r['name']}'s connectivity name has fewer than {pos} letters"
    # ifMUD seed, Rules 76 and 121: the position designated is a *letter* position of the room's name for
    # connectivity (Rule 129); a space, digit or punctuation mark there is no letter to mask or replace. Rule 76's
    # position must also still count: one masked before no longer does, and masking it again changes nothing.
    elif not (r.get("letters") or {}).get(str(pos), name[pos - 1]).isalpha():
        yield (f"position {pos} of {name!r} is {name[pos - 1]!r}, not a letter; Rules 76 and 121 designate a "
               "letter position")
    elif not ctx.params.get("letter") and pos in (r.get("masked") or []):
        yield f"position {pos} of {name!r} was masked before and already does not count for connectivity (Rule 76)"
    if ctx.params.get("letter"):
        yield from w.may_lose(ctx, ctx.actor, 2, "Rule 121's renaming")


def _damage(ctx: Ctx) -> None:
    name = w.resolve_room(ctx, ctx.params["room"])
    pos = ctx.params["position"]
    letter = ctx.params.get("letter")
    mark(ctx, None if letter else "unmask")
    m = ctx.edit("map")
    r = m["rooms"][w._rooms_view(ctx).position(name)]  # the first room of that name
    r["damage"] = int(r["damage"]) - 1
    if letter:
        r.setdefault("letters", {})[str(pos)] = letter
        w.add_tally(ctx, ctx.actor, -2, w.BROWNIE, "Rule 121")
    else:
        r.setdefault("masked", []).append(pos)
        connections, item = m["connections"], dict.__getitem__  # read without copying; only deletions change it
        deleted = set()
        for i, c in enumerate(peek(connections)):
            basis = dict.get(c, "basis") or []
            if basis and _solely_on(ctx, basis, name, pos):
                ctx.step({"connection_deleted": item(c, "between"), "rule": "r76"})
                deleted.add(i)
        if deleted:
            m["connections"] = [c for i, c in enumerate(peek(connections)) if i not in deleted]
    ctx.step({"room": name, "connectivity_name": w.connectivity_name(r)})


def _solely_on(ctx: Ctx, basis: Any, name: str, pos: int) -> bool:
    """ifMUD seed, Rule 76: is a connection with this basis based solely on position ``pos`` of room ``name``? The
    positions a basis names are those its connection rests on, each enough by itself; one masked before (Rule 76,
    in its room's ``masked``) no longer counts for connectivity, so it holds nothing up. The connection rests solely
    on ``pos`` when that is among its basis and every other position of it that still counts is that one too."""
    hit = False
    for b in peek(basis):
        room, at = dict.__getitem__(b, "room"), dict.__getitem__(b, "position")
        if room == name and at == pos:
            hit = True
            continue
        r = w.room(ctx, room)
        if r is None or at not in (dict.get(r, "masked") or ()):
            return False  # another position still holds it up (or a room the map lacks: not ours to judge)
    return hit


DAMAGE = Action(
    name="ifmud.spend-damage", rule="r76", also=("r121",),
    summary="Spend a point of a room's damage on its connectivity name",
    params={"type": "object", "required": ["room", "position"], "additionalProperties": False,
            "properties": {"room": {"type": "string", "maxLength": 120,
                                    "description": "the damaged room, as the map names it"},
                           "position": {"type": "integer", "minimum": 1, "maximum": 200,
                                        "description": "the position of the letter in its connectivity name"},
                           "letter": {"type": "string", "pattern": "^[A-Za-z]$",
                                      "description": "one letter, A to Z in either case"}}},
    check=_damage_check, ready=_damage_ready, effect=_damage,
    doc="Without `letter` (Rule 76, once per turn): the letter at that position no longer counts, and "
        "connections recorded as based only on it are deleted. With `letter` (Rule 121, costs 2 brownie "
        "points): connectivity reads that letter at that position instead.",
)


# ---------------------------------------------------------------- servants' names, leaving


def _name_check(ctx: Ctx) -> Iterator[str]:
    s = w.servant(ctx, ctx.actor)
    if s is None:
        yield f"{ctx.actor} has no servant"
    elif w.is_named(s):
        yield f"{ctx.actor}'s servant is already named {s['name']} the {s['species']}"
    elif s.get("naming") == "sectional":
        yield "72 hours have passed: naming this servant is now for the other players by sectional consent (Rule 45)"


def _name(ctx: Ctx) -> None:
    s = w.edit_servant(ctx, ctx.actor)
    s["name"], s["species"] = ctx.params["name"], ctx.params["species"]
    ctx.step({"servant": ctx.actor, "name": s["name"], "species": s["species"]})


def _leave_check(ctx: Ctx) -> Iterator[str]:
    # ifMUD seed, Rule 13: "any player" may leave. The action is open to anybody at the engine's door (the deadlines
    # before it may remove the actor), so whether they are a player is asked here, of the state after those.
    yield from consent.a_player(ctx, "r13")


def _leave(ctx: Ctx) -> None:
    remove_player(ctx, ctx.actor, "left the game (Rule 13)", left=True)


OTHERS = [
    Action(name="ifmud.name-servant", rule="r45", summary="Give your servant a name and a species",
           params={"type": "object", "required": ["name", "species"], "additionalProperties": False,
                   "properties": {"name": not_blank({"type": "string", "maxLength": 60,
                                                     "description": "your servant's name"}),
                                  "species": not_blank({"type": "string", "maxLength": 60,
                                                        "description": "your servant's species"})}},
           check=_name_check, effect=_name, who=PLAYER,
           ready=_name_check,  # Rule 45: the check asks nothing of the name and species given
           doc="Within 72 hours of joining; after that, a demerit and the others name it (Rule 45)."),
    Action(name="ifmud.leave", rule="r13", summary="Leave the game", check=_leave_check, effect=_leave, who=ANYONE,
           doc="The player and their servant leave; what they carried goes to the Attic (Rules 13, 44, 49). Only a "
               "player may leave."),
]

ACTIONS = [*DONATIONS, DAMAGE, *OTHERS]
