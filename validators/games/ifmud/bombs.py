"""Time bombs (Rules 70, 74, 75, 77, 90, 111), the pie bomb's making (Rule 120), the esploding cigar
(Rule 152) and the uplink's recharge (Rule 101): the token deadlines."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from datetime import datetime, timedelta
from itertools import chain
from typing import Any

from ...engine import Action, Ctx, peek, ruled
from ...timeutil import format_time, parse_time
from . import changes as ch
from . import world as w
from .turns import mark, require_turn

# ---------------------------------------------------------------- creating bombs and cigars


def _pie_bomb_check(ctx: Ctx) -> Iterator[str]:
    yield from require_turn(ctx, rule="r120")
    if w.by_role(ctx, "pie-bomb"):
        yield "a pie bomb already exists (Rule 120)"


def _pie_bomb(ctx: Ctx) -> None:
    mark(ctx)
    names = w.room_names(ctx)
    where = w.select(ctx, names, "the pie bomb's room", "r120")
    dest = w.select(ctx, names, "the pie bomb's destination", "r120")
    w.new_token(ctx, {"name": "the pie bomb", "role": "pie-bomb", "location": {"room": where}, "value": 7,
                      "destination": dest})


def _cigar_check(ctx: Ctx) -> Iterator[str]:
    yield from require_turn(ctx, rule="r152")
    if w.by_role(ctx, "cigar"):
        yield "an esploding cigar already exists"
        return
    last = ctx.doc("tokens").get("last_cigar")
    if not last:
        yield "no esploding cigar has ever existed, so there is none to copy (Rule 152)"
    elif float(last.get("delay_hours", 0)) - 24 <= 0:
        yield f"the last cigar's delay was {last.get('delay_hours')} hours; one day shorter is not positive"


def _cigar(ctx: Ctx) -> None:
    mark(ctx)
    last = ctx.doc("tokens")["last_cigar"]
    loc = dict(last["location"])
    kind, who = w.carrier(loc)
    # Rule 152 puts the cigar where the last one was. A room no longer on the map is a room the rules require a
    # location to be changed to that no longer exists, so Rule 69 puts it in the room alphabetically first; and
    # where that place would remove the cigar at once (a high-security area, Rule 74) it goes to Blasted Heath
    # instead, itself by Rule 69 when Blasted Heath is gone. (A carrier who is no longer a player is no room: the
    # consequences rehome the cigar as any token whose location ceased to exist, the Attic, Rule 49.) Only Rule 74
    # removes a time bomb lying in a high-security area: with it repealed that place removes nothing, and the cigar
    # starts there (seed 002 Rule 152's exception is for a place that would remove it).
    if kind == "room":
        room = w.required_room(ctx, who) or who
        if (w.room(ctx, room) or {}).get("high_security") and not w.repealed(ctx, "r74"):
            heath = w.room_name(ctx, "heath")
            room = w.required_room(ctx, heath) or heath
        loc = {"room": room}
    # Rule 90 fines whoever last caused a time bomb's location to change: the cigar's first location is the
    # creator's doing, as a bomb bought from the pieman is the buyer's (Rule 132), so the creator is its last mover
    fields = {"name": last["name"], "role": "cigar", "location": loc, "delay_hours": float(last["delay_hours"]) - 24,
              "moved_by": ctx.actor}
    for k in ("destination", "value"):
        if k in last:
            fields[k] = last[k]
    if fields["delay_hours"] == int(fields["delay_hours"]):
        fields["delay_hours"] = int(fields["delay_hours"])
    w.new_token(ctx, fields)


CREATE_PIE_BOMB = Action(name="ifmud.create-pie-bomb", rule="r120", summary="Create the pie bomb (if none exists)",
                         check=_pie_bomb_check, effect=_pie_bomb,
                         doc="Value 7; room and destination each chosen by Random Selection from all rooms.")
CREATE_CIGAR = Action(name="ifmud.create-cigar", rule="r152", summary="Create an esploding cigar (if none exists)",
                      check=_cigar_check, effect=_cigar,
                      doc="A copy of the last cigar, one day shorter; at Blasted Heath if its old place would "
                          "remove it at once (a high-security area); from a place that is gone it goes where lost "
                          "tokens go.")


# ---------------------------------------------------------------- deadlines: bombs and the uplink


Deadline = tuple[datetime, str, Callable[[Ctx, datetime], None]]


def deadlines(ctx: Ctx) -> list[Deadline]:
    cpu = w.room_name(ctx, "cpu")
    kept = w._as_started(ctx, "tokens", "tokens")
    if kept is not None:  # the tokens as the action started: worked out once for them
        return ch.derived(f"bomb deadlines, CPU {cpu}", kept, lambda tokens: _kept_deadlines(tokens, cpu))
    return _deadlines(peek(w.tokens(ctx)), cpu)


def _esplode_at(ident: int) -> Callable[[Ctx, datetime], None]:
    @ruled("r70")  # seed 002 Rule 70: a bomb lying in a room goes off; repealed, none does
    def fire(c: Ctx, at: datetime) -> None:
        esplode(c, ident, at)

    return fire


def _recharge_at(ident: int) -> Callable[[Ctx, datetime], None]:
    @ruled("r101")  # seed 002 Rule 101: the uplink's 48 hours in the CPU
    def recharge(c: Ctx, at: datetime) -> None:
        w.edit_token(c, ident)["charge"] = 10
        c.step({"uplink": "recharged", "rule": "r101"})

    return recharge


def _deadlines(tokens: Iterable[dict[str, Any]], cpu: str) -> list[Deadline]:
    out: list[Deadline] = []
    for t in tokens:
        out.extend(_token_deadlines(t, cpu))
    return out


_NONE: tuple[Deadline, ...] = ()


def _token_deadlines(t: dict[str, Any], cpu: str) -> tuple[Deadline, ...]:
    """A token's deadlines: a time bomb lying in a room esplodes, an uplink in the CPU recharges."""
    get, item = dict.get, dict.__getitem__  # read without copying (nothing here is changed)
    bomb, uplink = "delay_hours" in t, get(t, "role") == "uplink"
    if not uplink and (not bomb or "room" not in item(t, "location")):
        return _NONE  # only what lies in a room has a deadline
    out: list[Deadline] = []
    kind, where = w.carrier(item(t, "location"))
    if bomb and kind == "room":
        due = parse_time(item(t, "since")) + timedelta(hours=float(item(t, "delay_hours")))
        out.append((due, f"bomb {item(t, 'id'):08d}", _esplode_at(item(t, "id"))))
    # seed 002 Rule 101 resets the charge to 10, so one above 10 (a proposal's, Rule 54) comes down as one below goes up
    if uplink and kind == "room" and where == cpu and int(get(t, "charge", 0)) != 10:
        out.append((parse_time(item(t, "since")) + timedelta(hours=48), f"uplink {item(t, 'id')}",
                    _recharge_at(item(t, "id"))))
    return tuple(out)


_kept_by_cpu: dict[str, ch.PerItem] = {}  # by the CPU's name: each token's deadlines


def _kept_deadlines(tokens: list[dict[str, Any]], cpu: str) -> list[Deadline]:
    """``_deadlines`` of the tokens as an action started (the previous state's own, never changed): a token
    picked up or dropped is a new item, the others' deadlines are known (``changes.PerItem``)."""
    per = _kept_by_cpu.get(cpu)
    if per is None:
        per = _kept_by_cpu[cpu] = ch.PerItem(lambda t: _token_deadlines(t, cpu))
    return list(chain.from_iterable(per.many(tokens)))


def esplode(ctx: Ctx, ident: int, at: datetime) -> None:
    """Rules 70, 75, 77, 90, 111: a time bomb esplodes."""
    t = w.edit_token(ctx, ident)
    here = w.place_of(ctx, t["location"])
    ctx.step({"esplodes": t["name"], "in": here, "at": format_time(at)})
    # seed 002 Rule 75: an esplosion damages its room; repealed, the room takes none
    rooms = ctx.edit("map")["rooms"] if not w.repealed(ctx, "r75") else []
    for i, r in enumerate(peek(rooms)):  # found by reading: only the rooms changed are copied
        if dict.__getitem__(r, "name") == here:
            r = rooms[i]
            r["damage"] = int(r.get("damage", 0)) + 1
    # Rule 111 asks for the same location as the bomb's, which lies in a room (Rule 70): a teleporter carried
    # by someone in that room has its carrier for its location (Rule 55) and is not charged.
    # (seed 002 Rule 111 repealed: no teleporter is charged)
    for tp in (() if w.repealed(ctx, "r111") else w.by_role(ctx, "teleporter")):
        if tp["location"] == t["location"] and tp["id"] != ident:
            w.edit_token(ctx, tp["id"])["status"] = "fully charged"
            ctx.step({"teleporter": "fully charged", "rule": "r111"})
    where = w.locations(ctx)  # nothing below moves a player
    # seed 002 Rule 77: those in the room drop everything and lose 2; repealed, they are untouched
    for p in (() if w.repealed(ctx, "r77") else w.player_names(ctx)):
        if where[p] == here:
            w.drop_all(ctx, "player", p, "Rule 77: esplosion")
            w.add_tally(ctx, p, -2, w.BROWNIE, "Rule 77: caught in an esplosion")
    monkey = ctx.doc("entities")["monkey"]
    # seed 002 Rule 90: an esplosion beside the monkey fines whoever brought bomb or monkey there; repealed, nobody
    if monkey["location"] == here and not w.repealed(ctx, "r90"):
        # ifMUD seed, Rule 90: the fine is for the player who caused the latest change of location of the bomb or
        # the monkey. The records name that change's player, or nobody when none caused it (world.py), so a change
        # made by the rules themselves fines nobody rather than an earlier mover.
        culprit = t.get("moved_by")
        if monkey.get("moved_at") and monkey.get("moved_at") > t.get("since", ""):
            culprit = monkey.get("moved_by")
        if culprit and culprit in w.player_names(ctx):
            loss = min(40, max(0, w.tally(ctx, culprit)))
            w.add_tally(ctx, culprit, -loss, w.BROWNIE, "Rule 90: esplosion beside the monkey")
    w.remove_token(ctx, w.edit_token(ctx, ident), "esploded")


ACTIONS = [CREATE_PIE_BOMB, CREATE_CIGAR]
