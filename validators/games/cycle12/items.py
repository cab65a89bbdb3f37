"""Items, item actions, trades and treats ("Items", "Item Actions", "Trade", "Treats").

An item belongs to exactly one entity: a player (by name) or a nomster
(``nomster:<id>``). Kinds of item and who may own them are data
(``cycle12_items.kinds``). The five item verbs are functions other rules and
proposals use: gain, lose, revoke, take, give. Players and nomsters are
located, so giving and taking between them needs one location.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

from ...engine import PLAYER, Action, Ctx, peek, repealed
from ...problems import Problem
from ...timeutil import parse_time
from .common import (
    ITEMS,
    NOMSTER_REF,
    NOMSTERS,
    RULE_ITEM_ACTIONS,
    Kept,
    as_it_was,
    found_for_edit,
    has_ascended,
    index_of,
    is_reputable,
    iso,
    item_apart,
    left_the_map,
    member_since,
    opts,
    replaced,
    touch_sheet,
)

RULE_ITEMS = "items"
RULE_TRADE = "trade"
RULE_TREATS = "treats"


def owner_kind(owner: str) -> str:
    return "nomster" if owner.startswith(NOMSTER_REF) else "player"


ITEMS_BY_ID = Kept(lambda i: (i["id"],))
ITEMS_BY_OWNER = Kept(lambda i: (i["owner"],), multi=True, along=ITEMS_BY_ID)


def owned(state: Any, owner: str, kind: str | None = None) -> list[dict[str, Any]]:
    items = state.doc(ITEMS)["items"]
    index = ITEMS_BY_OWNER.of(state, items) if type(owner) is str else None
    if index is not None:  # the owner's items, by the kept index of the state's list
        return [items[j] for j in index.get(owner, ()) if kind is None or items[j]["kind"] == kind]
    return [items[j] for j, i in enumerate(peek(items)) if i["owner"] == owner and (kind is None or i["kind"] == kind)]


def gain(ctx: Ctx, owner: str, kind: str) -> dict[str, Any]:
    """To gain an item: it is created in the entity's possession."""
    doc = ctx.edit(ITEMS)
    spec = doc["kinds"].get(kind)
    if spec is None:
        raise ValueError(f"{kind!r} is not an item (items: {', '.join(doc['kinds']) or 'none'})")
    if owner_kind(owner) not in spec.get("owners", ["player"]):
        raise ValueError(f"a {owner_kind(owner)} may not own a {kind}")
    item = {"id": doc["next"], "kind": kind, "owner": owner}
    doc["next"] += 1
    doc["items"].append(item)
    return item


def lose(ctx: Ctx, owner: str, ident: int) -> None:
    """To lose (or have revoked) an item: it is destroyed from the entity's possession."""
    doc = ctx.edit(ITEMS)
    j = index_of(doc["items"], "id", ident)
    item = doc["items"][j] if j >= 0 else None
    if item is None or item["owner"] != owner:
        raise ValueError(f"{owner} does not own item {ident}")
    doc["items"].remove(item)


revoke = lose


def give(ctx: Ctx, giver: str, receiver: str, ident: int) -> None:
    """Entity A gives B an item: it passes from A to B; located entities only in the same location."""
    listed, j = found_for_edit(ctx, ITEMS, "items", ITEMS_BY_ID, "id", ident)
    doc = ctx.edit(ITEMS)
    item = listed[j] if j >= 0 else None
    if item is None or item["owner"] != giver:
        raise ValueError(f"{giver} does not own item {ident}")
    spec = doc["kinds"].get(item["kind"], {})
    if owner_kind(receiver) not in spec.get("owners", ["player"]):
        raise ValueError(f"a {owner_kind(receiver)} may not own a {item['kind']}")
    # 004 Item Actions: located entities give and take only in the same location; at no location is in none.
    # Repealed, that rule no longer keeps a giver and a receiver in one place (nor a player, Located Entities gone)
    why = item_apart(ctx, giver, receiver)
    if why:
        raise ValueError(f"{why}: located entities give and take only in the same location")
    item["owner"] = receiver


def take(ctx: Ctx, taker: str, holder: str, ident: int) -> None:
    """Entity A takes an item from B: it passes from B to A."""
    give(ctx, holder, taker, ident)


def delete_ownerless(ctx: Ctx) -> list[dict[str, Any]]:
    """004 Items: an item whose owner cannot be determined is deleted. Called once a proposal's changes are
    applied: an item whose owner is no entity any more (a player they took off the roster, a nomster they
    removed) has no owner the gamestate shows, so it is deleted rather than the changes refused (our reading,
    docs/modules/cycle12.md). Each deletion is a step of the outcome; returns the items deleted.

    So is an item the changes made no item (its kind taken out of the kinds) or left with an owner the kinds no
    longer allow (004 Items; our reading). Nothing is read unless the changes edited the roster, the nomsters or
    the items: only they can leave an item without its owner."""
    if not any(kind in ctx.tx.docs for kind in ("roster", NOMSTERS, ITEMS)):
        return []
    if repealed(ctx, RULE_ITEMS):  # seed 004 "Items" deletes them; repealed, an item keeps the owner it names
        return []
    entities = {p.get("name") for p in peek(ctx.doc("roster")["players"]) if isinstance(p, dict)}
    entities |= {f"{NOMSTER_REF}{n['id']}" for n in peek(ctx.doc(NOMSTERS)["nomsters"])
                 if isinstance(n, dict) and type(n.get("id")) is int}
    kinds = ctx.doc(ITEMS).get("kinds")
    kinds = kinds if isinstance(kinds, dict) else {}
    # a player the changes put a newcomer of the name in the place of has left (004 Joining: the newcomer is a new
    # player, our reading): an item the changes left as it was is still the departed's, so no entity's; one they
    # wrote for the name is the newcomer's
    others, untouched = replaced(ctx), as_it_was(ctx, ITEMS, "items")

    def why(i: Any) -> str | None:
        # a record the changes left malformed is kept, for the check of the state they give to name it
        if not isinstance(i, dict) or not isinstance(i.get("owner"), str):
            return None
        if i["owner"] not in entities:
            return f"its owner {i['owner']} is no entity"
        if i["owner"] in others and untouched(i):
            return f"its owner {i['owner']} left the game"
        # 004 Items: only what the rules call an item is one, owned only by an entity they allow to own it; an
        # item the changes made no item, or left with an owner who may not own it, has no owner the rules allow
        # (our reading: deleted, as one whose owner is gone; docs/modules/cycle12.md)
        spec = kinds.get(i.get("kind"))
        if not isinstance(spec, dict):
            return f"a {i.get('kind')} is no item any more"
        owners = spec.get("owners", ["player"])
        if isinstance(owners, list) and owner_kind(i["owner"]) not in owners:
            return f"a {owner_kind(i['owner'])} may not own a {i.get('kind')}"
        return None

    reasons = [(j, why(i)) for j, i in enumerate(peek(ctx.doc(ITEMS)["items"]))]
    at = [(j, r) for j, r in reasons if r is not None]
    if not at:
        return []
    listed = ctx.edit(ITEMS)["items"]  # the same items in the same places
    gone = [(list.__getitem__(listed, j), r) for j, r in at]  # read only: they are taken out, not changed
    for j, _ in reversed(at):
        del listed[j]
    for i, r in gone:
        ctx.step({"item": i.get("id"), "kind": i.get("kind"), "deleted": r})
    return [i for i, _ in gone]


# ---------------------------------------------------------------- treats


def _gain_treat_check(ctx: Ctx) -> Iterator[str]:
    if owned(ctx, ctx.actor, "treat"):
        yield f"{ctx.actor} already has a treat; a player may gain one only when they have none"


def _gain_treat(ctx: Ctx) -> None:
    try:
        item = gain(ctx, ctx.actor, "treat")
    except ValueError as e:
        # 004 Items: an item is only what the rules call one, owned only by whom they allow; a proposal's changes
        # may take the treat out of the kinds of item (cycle12_items.kinds) or take players off its owners
        raise ctx.refuse(f"no treat can be gained: {e}", RULE_ITEMS) from None
    touch_sheet(ctx, ctx.actor)  # Self-Updating: the items owned are on the character sheet
    ctx.step({"gained": "treat", "item": item["id"]})


GAIN_TREAT = Action(
    name="cycle12.gain-treat",
    rule=RULE_TREATS,
    summary="Gain a treat (only if you have none)",
    check=_gain_treat_check,
    effect=_gain_treat,
    doc="Any player with no treat may gain one.",
)


# ---------------------------------------------------------------- trades


def _offer_ready(ctx: Ctx) -> Iterator[str]:
    """004 Trade: only reputable players trade. The check refuses every other party while the offerer is not: in
    these words, or as no player, an ascended one or the offerer themself."""
    if not is_reputable(ctx, ctx.actor, ctx.at):
        yield f"{ctx.actor} is not reputable; only reputable players trade"


def _offer_check(ctx: Ctx) -> Iterator[str]:
    other = ctx.params["with"]
    if other == ctx.actor:
        yield "a trade is between two players"
    if ctx.player(other) is None:
        yield f"{other!r} is not a player"
        return
    if has_ascended(ctx, other):
        # our reading of 004 Ascend (docs/modules/cycle12.md, readings): the ascended have left the map with
        # their items' owner; 004 Item Actions lets located entities give only in one location
        yield left_the_map(other)
        return
    for who in (ctx.actor, other):
        if not is_reputable(ctx, who, ctx.at):
            yield f"{who} is not reputable; only reputable players trade"
    yield from _ownership(ctx, ctx.actor, other, ctx.params.get("give", []), ctx.params.get("get", []))
    if not ctx.params.get("give") and not ctx.params.get("get"):
        yield "a trade exchanges at least one item"


def _ownership(ctx: Ctx, a: str, b: str, gives: list[int], gets: list[int]) -> Iterator[str]:
    items = {i["id"]: i for i in peek(ctx.doc(ITEMS)["items"])}  # read only
    for ident in gives:
        if items.get(ident, {}).get("owner") != a:
            yield f"{a} does not own item {ident}"
    for ident in gets:
        if items.get(ident, {}).get("owner") != b:
            yield f"{b} does not own item {ident}"


def _mirrored(ctx: Ctx) -> dict[str, Any] | None:
    """The open offer this one consents to, if any: one the other party made to the actor in the last seven days,
    of the very items this one names the other way (what it gives is what this one gets, and the reverse).

    004 Trade: a trade takes place when both parties consent to it within seven days of each other, whichever
    way the second consent is sent; an offer of the same exchange back is that consent."""
    other, days = ctx.params["with"], timedelta(days=opts(ctx)["trade_days"])
    give, get = sorted(ctx.params.get("give", [])), sorted(ctx.params.get("get", []))
    for t in peek(ctx.doc(ITEMS)["trades"]):
        if t["by"] == other and t["with"] == ctx.actor and t["status"] == "offered" \
                and ctx.at - parse_time(t["at"]) <= days and sorted(t["give"]) == get and sorted(t["get"]) == give \
                and _parties_since(ctx, t):
            return t
    return None


def _parties_since(ctx: Ctx, t: dict[str, Any]) -> bool:
    """Whether both parties of open offer ``t`` are the players it was made by and to: 004 Trade has the two parties
    consent, and a player of either name who joined after the offer is someone else (our reading: a newcomer of a
    departed player's name is someone else), whose consent completes no trade the departed was party to."""
    return member_since(ctx, t["by"], t["at"]) and member_since(ctx, t["with"], t["at"])


def _offer(ctx: Ctx) -> None:
    t = _mirrored(ctx)
    # the check found both reputable and each owning what they give (the same items as the other's offer); the
    # exchange takes place if they are in one location (004 Item Actions), else this consent waits as an offer
    if t is not None and not (opts(ctx)["trade_same_location"] and item_apart(ctx, ctx.actor, t["by"])):
        _complete(ctx, t["id"], {"consented_by": "an offer of the same items the other way"})
        return
    doc = ctx.edit(ITEMS)
    ident = doc["next_trade"]
    doc["next_trade"] = ident + 1
    doc["trades"].append({"id": ident, "by": ctx.actor, "with": ctx.params["with"], "at": iso(ctx.at),
                          "give": list(ctx.params.get("give", [])), "get": list(ctx.params.get("get", [])),
                          "status": "offered"})
    ctx.step({"trade": ident})


# an item is given once: naming it twice is a slip, refused as bad input
_ITEM_IDS = {"type": "array", "maxItems": 50, "uniqueItems": True, "items": {"type": "integer"}}

OFFER = Action(
    name="cycle12.offer-trade",
    rule=RULE_TRADE,
    summary="Consent to a trade: the items you give and the items you get",
    params={"type": "object", "required": ["with"], "additionalProperties": False,
            "properties": {"with": {"$ref": "common.schema.json#/$defs/name",
                                    "description": "the player you trade with"},
                           "give": {**_ITEM_IDS, "description": "the numbers of the items you give"},
                           "get": {**_ITEM_IDS, "description": "the numbers of the items you get"}}},
    check=_offer_check,
    ready=_offer_ready,
    effect=_offer,
    doc="Both players must be reputable. The trade takes place when the other consents "
        "(`cycle12.accept-trade`) within seven days. An offer of the very items of an open offer made to you, the "
        "other way round, is that consent: the trade takes place (if you are in one location).",
)


def _trade(ctx: Ctx, ident: int, edit: bool = False) -> dict[str, Any]:
    doc = ctx.edit(ITEMS) if edit else ctx.doc(ITEMS)
    j = index_of(doc["trades"], "id", ident)
    if j >= 0:
        return doc["trades"][j]
    raise ctx.refuse(f"there is no trade {ident}")


def _accept_ready(ctx: Ctx) -> Iterator[str]:
    """004 Trade: a trade takes place when the other party consents within seven days, both reputable. With no
    offer to the actor still open (offered, its offerer not ascended, young enough), the check refuses every
    number; and it says the second, in these words or its own, for every trade while the actor is not reputable."""
    days = opts(ctx)["trade_days"]
    if not any(t["with"] == ctx.actor and t["status"] == "offered" and not has_ascended(ctx, t["by"])
               and ctx.at - parse_time(t["at"]) <= timedelta(days=days) and _parties_since(ctx, t)
               for t in peek(ctx.doc(ITEMS)["trades"])):
        yield f"no trade offered to {ctx.actor} in the last {days} days is waiting for their consent"
    if not is_reputable(ctx, ctx.actor, ctx.at):
        yield f"{ctx.actor} is not reputable; only reputable players trade"


def _accept_check(ctx: Ctx) -> Iterator[str | Problem]:
    t = _trade(ctx, ctx.params["trade"])
    o = opts(ctx)
    if t["with"] != ctx.actor:
        yield f"trade {t['id']} is offered to {t['with']}, not {ctx.actor}"
        return
    if t["status"] != "offered":
        yield f"trade {t['id']} is {t['status']}"
        return
    if has_ascended(ctx, t["by"]):
        # our reading of 004 Ascend, as in the offer: nobody completes a trade with an ascended player
        yield left_the_map(t["by"])
        return
    if ctx.at - parse_time(t["at"]) > timedelta(days=o["trade_days"]):
        yield f"{t['by']} consented at {t['at']}, more than {o['trade_days']} days ago"
    for who, way in ((t["by"], "by"), (t["with"], "to")):
        if not member_since(ctx, who, t["at"]):
            # 004 Trade: the parties are the players it was offered by and to (our reading: a newcomer of a departed
            # player's name is someone else)
            yield f"trade {t['id']} was offered {way} the {who} who left the game, before {who} joined; " \
                  "only its parties consent to it"
            return
    for who in (t["by"], t["with"]):
        if not is_reputable(ctx, who, ctx.at):
            yield f"{who} is not reputable; only reputable players trade"
    yield from _ownership(ctx, t["by"], t["with"], t["give"], t["get"])
    if o["trade_same_location"]:
        # 004 Item Actions: the items pass between located players only in one location; two players at no
        # location (before the first location exists) are not in one location, so they do not trade either.
        # Repealed (or Located Entities, so players are not located), that rule no longer asks for one location
        why = item_apart(ctx, t["by"], t["with"])
        if why:
            # the condition is Item Actions', so the refusal cites it (not Trade, which asks for consent and
            # reputability only)
            yield Problem(f"{t['by']} and {t['with']} are not in the same location ({why}); located entities give "
                          "only there", rule=RULE_ITEM_ACTIONS)


def _accept(ctx: Ctx) -> None:
    _complete(ctx, ctx.params["trade"])


def _complete(ctx: Ctx, trade: int, note: dict[str, Any] | None = None) -> None:
    """The trade takes place: the items change hands and both sheets are updated."""
    t = _trade(ctx, trade, edit=True)
    t["status"] = "done"
    t["accepted_at"] = iso(ctx.at)
    for ident in t["give"]:
        _transfer(ctx, ident, t["with"])
    for ident in t["get"]:
        _transfer(ctx, ident, t["by"])
    for who in dict.fromkeys((t["by"], t["with"])):  # Self-Updating: both lists of items owned changed
        touch_sheet(ctx, who)
    ctx.step({"trade": t["id"], "done": True, **(note or {})})


def _transfer(ctx: Ctx, ident: int, to: str) -> None:
    items = ctx.edit(ITEMS)["items"]
    for j, i in enumerate(peek(items)):
        if i["id"] == ident:
            items[j]["owner"] = to


ACCEPT = Action(
    name="cycle12.accept-trade",
    rule=RULE_TRADE,
    summary="Consent to a trade offered to you; it takes place",
    params={"type": "object", "required": ["trade"], "additionalProperties": False,
            "properties": {"trade": {"type": "integer", "minimum": 1, "description": "the number of the trade"}}},
    who=PLAYER,
    check=_accept_check,
    ready=_accept_ready,
    effect=_accept,
    doc="Within seven days of the offer; both still reputable, the items still theirs, both in one location.",
)

ACTIONS = [GAIN_TREAT, OFFER, ACCEPT]
