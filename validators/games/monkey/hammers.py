"""Hammers: what each type does when one Monkey uses it on another, the chains, and the weekly change.

Seed 000, "Hammers" and the paragraphs after it. The hammer list (names, order,
and which effect each name has) is data in ``gamestate/monkey_kit.yaml``; the
thirteen effects are here, keyed by ``effect``:

fairy, banana, shotgun, hammer, big-squeaky, emo, revenge, sledge,
hot-potato, mc, magnet, invisible, hat.

Chains: a Big Squeaky makes its target hit the neighbour on eir other side
(nothing if the target holds a Revenge); an Emo makes its target hit emself
(nothing if e holds a Revenge, Big Squeaky or Emo); a Revenge makes its target
hit back the Monkey who used it (nothing if e also holds a Revenge). Every
chain ends: a Big Squeaky chain runs one way down the Line, one Monkey per
link, and a Revenge or an Emo link is followed by at most one more. So a
chain is followed to its end however long the Line is (a loop, not
recursion, so a Line of hundreds of Big Squeaky holders is no trouble), with
a guard far above that bound.
"""

from __future__ import annotations

from typing import Iterator

from ...engine import Action, Ctx
from .common import as_listed
from .common import no_npc as _no_npc
from .world import BARE, KongHolds, World, smallest_item

RULE_HAMMERS = "hammers"

EFFECTS = ("fairy", "banana", "shotgun", "hammer", "big-squeaky", "emo", "revenge", "sledge", "hot-potato", "mc",
           "magnet", "invisible", "hat")


# The next use of a hammer a use leads to, (user, target), or None when the chain ends.
Next = tuple[str, str] | None


def use_hammer(w: World, user: str, target: str) -> bool:
    """``user`` uses eir hammer on ``target``, then every use that leads to, to the end of the chain.

    Seed 000, Hammers (Big Squeaky, Emo, Revenge): each link is a use of its own, and a dislodged King Kong makes
    only that use fail. A Big Squeaky chain down the Line has as many links as Monkeys stand along it, so no
    fixed number of links may cut it short: chains are followed to their end (see the module docstring for why
    they end); the guard is twice the Line's length plus a few, which no chain of the seed's rules can reach.

    Returns False when King Kong held firm against the first use, the one the move makes: seed 000, King Kong,
    "any move otherwise attempting to dislodge" him fails, so that Smash is a failed move, not an executed one.
    A later link stopped by him fails alone; the move did not aim it at him.
    """
    guard = 2 * len(w.pos) + 8
    step: Next = (user, target)
    first = True
    while step is not None:
        if guard == 0:
            w.log.append("the chain of hammers is cut: it runs longer than any chain of these rules can")
            return True
        guard -= 1
        try:
            step = _use_once(w, *step)
        except KongHolds as e:
            w.log.append(f"it fails: {e}")
            return not first
        first = False
    return True


def _use_once(w: World, user: str, target: str) -> Next:
    if user not in w.pos or target not in w.pos:
        w.log.append(f"{user}'s hammer finds nobody: {target if user in w.pos else user} is not in the Line")
        return None
    hammer = w.hammer_of(user)
    effect = w.hammer_effect(hammer)
    who = "emself" if user == target else target
    w.log.append(f"{user} uses eir {hammer} hammer on {who}")
    return HITS.get(effect, _unknown)(w, user, target)


def _unknown(w: World, user: str, target: str) -> Next:
    w.log.append(f"{w.hammer_of(user)!r} is on no hammer list; nothing happens")
    return None


def _fairy(w: World, user: str, target: str) -> Next:
    dm = w.dance_moves(target)
    w.add_dance_moves(target, 1 if dm % 2 else -1)
    w.log.append(f"{target}'s Dance Moves go from {dm} to {w.dance_moves(target)}")
    return None


def _banana(w: World, user: str, target: str) -> Next:
    lost = -w.add_bananas(target, -1)
    w.log.append(f"{target} loses {lost} banana")
    return None


def _shotgun(w: World, user: str, target: str) -> Next:
    w.move(target, w.lowest_empty(), why="shot to the lowest empty position")
    return None


def _hammer(w: World, user: str, target: str) -> Next:
    names = [h["name"] for h in w.hammers]
    old = w.hammer_of(target)
    idx = [n.casefold() for n in names].index(old.casefold()) if old.casefold() in [n.casefold() for n in names] \
        else len(names) - 1
    new = names[(idx + 1) % len(names)]
    w.set_hammer(target, new)
    w.log.append(f"{target} drops eir {old} hammer and picks up a {new} hammer")
    return None


def _big_squeaky(w: World, user: str, target: str) -> Next:
    if w.effect_of(target) == "revenge":
        w.log.append(f"{target} holds a Revenge hammer: nothing happens")
        return None
    p, q = w.pos[target], w.pos[user]
    if p == q:
        w.log.append(f"{target} has no other side to turn to: nothing happens")
        return None
    other = p + 1 if q < p else p - 1
    neighbour = w.single(other) if other >= 1 else None
    if neighbour is None:
        w.log.append(f"nobody stands in position {other} next to {target}: nothing happens")
        return None
    return target, neighbour


def _emo(w: World, user: str, target: str) -> Next:
    if w.effect_of(target) in ("revenge", "big-squeaky", "emo"):
        w.log.append(f"{target} bangs emself on the head with eir {w.hammer_of(target)} hammer; everyone laughs; "
                     "nothing happens")
        return None
    if w.effect_of(target) == "sledge":
        # Seed 000, King Kong: an Emo used by another Monkey may dislodge em.
        w.log.append(f"{target} uses eir {w.hammer_of(target)} hammer on emself")
        w.to_barrel(target, allow_kong=True)
        return None
    return target, target


def _revenge(w: World, user: str, target: str) -> Next:
    if w.effect_of(target) == "revenge":
        w.log.append(f"{target} also holds a Revenge hammer: nothing happens")
        return None
    return target, user


def _sledge(w: World, user: str, target: str) -> Next:
    # Seed 000, King Kong: a Sledge used by another Monkey may dislodge em.
    w.to_barrel(target, allow_kong=user != target)
    return None


def _hot_potato(w: World, user: str, target: str) -> Next:
    a, b = w.hammer_of(user), w.hammer_of(target)
    w.set_hammer(user, b)
    w.set_hammer(target, a)
    if user != target:
        w.log.append(f"{user} and {target} swap hammers: {user} now holds {b}, {target} holds {a}")
    return None


def _mc(w: World, user: str, target: str) -> Next:
    if w.bananas(target) >= 3:
        w.add_bananas(target, -3)
        w.add_dance_moves(target, 1)
        w.log.append(f"{target} pays 3 bananas and gains a Dance Move")
    else:
        lost = -w.add_bananas(target, -w.bananas(target))
        w.log.append(f"{target} has fewer than 3 bananas: loses all {lost} and gains no Dance Move")
    return None


def _magnet(w: World, user: str, target: str) -> Next:
    item = smallest_item(w.held(target))
    if item is None:
        lost = -w.add_bananas(user, -1)
        w.log.append(f"{target} has no item the magnet can pull: it backfires and {user} loses {lost} banana")
        return None
    item["held_by"] = user
    w.log.append(f"the magnet pulls {item['name']} from {target} to {user}")
    return None


def _invisible(w: World, user: str, target: str) -> Next:
    w.log.append("the hammer is invisible: nothing happens")
    return None


def _hat(w: World, user: str, target: str) -> Next:
    """The Hat hammer's table; the +2 bananas applies to every case or only to a Bare target (option).

    Seed 000, Hammers (Hat hammer): each row names its hat by colour (Blue, Green, Yellow, Red). A row is found by
    that colour on the Hat List whatever its case, and a hat it gives is written as the list spells it: a proposal
    that recapitalises the list (its holders follow, ``line.spell_as_listed``) changes no hat, so no row is lost."""
    hat = w.stats[target].get("hat")
    bananas = w.bananas(target)
    hats = w.hats
    blue, green, yellow, red = (_hat_at(hats, i) for i in range(4))
    held = hat.casefold() if isinstance(hat, str) else hat
    if held == BARE.casefold():
        # Seed 000, Hat hammer: the Bare row names Blue, as the other rows name their hats; the first hat of
        # the list only stands in if a proposal has taken Blue off it.
        w.set_hat(target, blue or hats[0])
    elif blue is not None and held == blue.casefold():
        w.change_hat(target)
    elif green is not None and held == green.casefold():
        if bananas < 10:
            w.add_bananas(target, 3)
            w.log.append(f"{target} ({hat} hat, fewer than 10 bananas) gains 3 bananas")
        else:
            w.set_hat(target, red or hats[-1])
    elif yellow is not None and held == yellow.casefold():
        w.to_back(target)
    elif red is not None and held == red.casefold():
        if bananas > 2:
            w.add_bananas(target, -3)
            w.log.append(f"{target} ({hat} hat, more than 2 bananas) loses 3 bananas")
        else:
            w.set_hat(target, green or hats[0])
    else:
        w.log.append(f"the Hat hammer's table has no row for a {hat} hat")
    if held == BARE.casefold() or w.options.get("hat_hammer_bonus", "every-case") == "every-case":
        w.add_bananas(target, 2)
        w.log.append(f"{target} gains 2 bananas")
    return None


# Seed 000, Hammers (Hat hammer): the colours its rows name, the first four hats of the seed's Hat List
HAT_ROWS = ("Blue", "Green", "Yellow", "Red")


def _hat_at(hats: list[str], i: int) -> str | None:
    """The hat of the Hat List that the Hat hammer's row ``i`` names, as the list spells it (a proposal may write
    the list in another case: ``BLUE`` is still the Blue hat), or None if the list no longer has that colour."""
    return as_listed(HAT_ROWS[i], hats)


HITS = {
    "fairy": _fairy, "banana": _banana, "shotgun": _shotgun, "hammer": _hammer, "big-squeaky": _big_squeaky,
    "emo": _emo, "revenge": _revenge, "sledge": _sledge, "hot-potato": _hot_potato, "mc": _mc, "magnet": _magnet,
    "invisible": _invisible, "hat": _hat,
}


# ---------------------------------------------------------------- the weekly change of hammer


def _listed(ctx: Ctx) -> str | None:
    """The hammer the player named, as the hammer list spells it (names are matched whatever their case, as the
    Dance's move names and a held hammer's type are); None if it is not on the list."""
    want = ctx.params["hammer"].casefold()
    return next((h["name"] for h in ctx.doc("monkey_kit")["hammers"] if h["name"].casefold() == want), None)


def _change_check(ctx: Ctx) -> Iterator[str]:
    yield from _no_npc(ctx)
    names = [h["name"] for h in ctx.doc("monkey_kit")["hammers"]]
    want = _listed(ctx)
    if want is None:
        yield f"{ctx.params['hammer']!r} is not on the hammer list ({', '.join(names)})"
        return None
    me = ctx.player()
    if me and str(me["stats"].get("hammer", "")).casefold() == want.casefold():
        yield f"{ctx.actor} already holds a {want} hammer"


def _change(ctx: Ctx) -> None:
    # Seed 000, Hammers: the weekly change is to a type on the list; the stat keeps the list's spelling.
    me = ctx.edit_player()
    old = me["stats"].get("hammer")
    new = _listed(ctx)
    me["stats"]["hammer"] = new
    ctx.step({"monkey": ctx.actor, "hammer": new, "was": old})


CHANGE_HAMMER = Action(
    name="monkey.change-hammer",
    rule=RULE_HAMMERS,
    summary="Change your hammer to any type on the hammer list (weekly)",
    params={"type": "object", "required": ["hammer"], "additionalProperties": False,
            "properties": {"hammer": {"type": "string", "minLength": 1, "maxLength": 40,
                                      "description": "the hammer's type, as the hammer list names it"}}},
    check=_change_check,
    effect=_change,
    frequency="weekly",
    doc="`hammer` is a name on the hammer list in gamestate/monkey_kit.yaml, e.g. `hammer=Hot Potato` (any case; "
        "the stat is written as the list spells it).",
)


ACTIONS = [CHANGE_HAMMER]
