"""A Muffin back from idleness who holds something only one Muffin may hold (seed 003 rules 2, 14, 15, 23).

Rule 2 keeps an idle Muffin's values and does not count it as a Muffin for rules 10 on, so while it is idle
another Muffin may become It (rule 14: only one Muffin is It), the Stuff Describer (rule 11's reckoning; rule 23:
only one) or the GRAND POOBAH (rule 23: only one). When it comes back (``core.unidle``, or a proposal's patch)
there would be two. The consequence here settles it, the same way for all three:

* the returning Muffin's mark lapses: the other got it while the returning one did not count;
* but a Muffin in Limbo cannot lose anything (rule 15): one coming back into Limbo keeps it and the others yield;
  when another holder is in Limbo too, neither may change, so coming back would leave two, which rule 23 (rule 14
  for It) forbids: the return is refused (rule 2 lets an admin un-idle a Muffin; it does not oblige one), as is a
  proposal's patch that would bring it back (the admin may fail the proposal instead). It may come back once the
  other has left Limbo (rule 15: set to Position 9), and then the other's mark lapses;
* and for the GRAND POOBAH, the dynasty's leader is the current GRAND POOBAH (rules 8 and 23): a returning leader
  keeps the role and the other holder's entry lapses; a returning Muffin who is not the leader loses the role while
  the dynasty has a leader (or, in Limbo, where it cannot lose it, may not come back).

Runs after the Limbo guard; only players the action replaced are read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ...engine import Ctx, peek, repealed
from ...problems import Illegal, Problem
from .common import (
    IT,
    NOT_IT,
    R_DYNASTIES,
    R_PLAYERS,
    R_ROLES,
    R_SPECIAL,
    R_TAG,
    in_limbo,
    leader,
    muffins,
    rule_number,
    stat,
)
from .consequences import replaced_at
from .roles import POOBAH, role_word, title
from .stuff import DESCRIBER


def _has_role(role: str) -> Callable[[dict[str, Any]], bool]:
    return lambda p: role in stat(p, "roles", [])


def _drop_role(role: str) -> Callable[[dict[str, Any]], None]:
    def drop(p: dict[str, Any]) -> None:
        p["stats"]["roles"] = [r for r in stat(p, "roles", []) if r != role]
    return drop


def _drop_it(p: dict[str, Any]) -> None:
    p["stats"]["tag"] = NOT_IT


@dataclass(frozen=True)
class Sole:
    label: str  # as the messages name it
    key: str  # the outcome's key: ``<key>_lapsed``
    has: Callable[[dict[str, Any]], bool]
    drop: Callable[[dict[str, Any]], None]
    rule: str  # the id of the rule allowing only one: repealed, it allows any number, and nothing is settled


def _numbers(ctx: Ctx, *rule_ids: str) -> str:
    """"rule 15", "rules 8 and 23": rules by their numbers now (an Ascension Address renumbers rules, seed 003 rule
    9), for a refusal naming rules it does not cite and for the outcome's ``because``."""
    numbers = [rule_number(ctx, r) for r in rule_ids]
    return f"rule {numbers[0]}" if len(numbers) == 1 else f"rules {', '.join(numbers[:-1])} and {numbers[-1]}"


SOLE = [
    # seed 003 rule 14 "Tag": one Muffin is It
    Sole("It", "it", lambda p: stat(p, "tag") == IT, _drop_it, R_TAG),
    # seed 003 rule 23 "Muffin Roles": one Stuff Describer, one GRAND POOBAH
    Sole(DESCRIBER, "stuff_describer", _has_role(DESCRIBER), _drop_role(DESCRIBER), R_ROLES),
    Sole(POOBAH, "grand_poobah", _has_role(POOBAH), _drop_role(POOBAH), R_ROLES),
]


def only_one_returns(ctx: Ctx) -> None:
    if "roster" not in ctx.tx.docs:
        return
    now = list(peek(ctx.tx.docs["roster"]["players"]))
    base = ctx.tx.base.docs["roster"]["players"]
    back = [now[i] for i in replaced_at(now, base)]
    back = [p for p in back if not p.get("idle") and not p.get("kind")]
    if not back:
        return
    was_idle = {p["name"] for p in base if p.get("idle")}
    back = [p for p in back if p["name"] in was_idle]
    if not back:
        return
    soles = [sole for sole in SOLE if not repealed(ctx, sole.rule)]
    # seed 003 rule 15 "Special Position Rules": nothing of a Muffin in Limbo changes; repealed, Limbo holds nobody
    # fast, and a returning Muffin's mark lapses wherever it stands
    limbo = not repealed(ctx, R_SPECIAL)
    if limbo:
        for p in back:
            _refuse_deadlock(ctx, p, soles)
    for p in back:
        for sole in soles:
            _settle(ctx, p["name"], sole, limbo)


def _refuse_deadlock(ctx: Ctx, p: dict[str, Any], soles: list[Sole]) -> None:
    """Seed 003 rules 2, 14, 15, 23: a Muffin coming back into Limbo with a mark only one may hold, while another
    Muffin in Limbo holds it too (one already active, or one coming back with it), would make two that no rule may
    settle (neither's values may change while in Limbo). The return is refused before anything changes."""
    pos = stat(p, "position")
    if not in_limbo(pos):
        return
    for sole in soles:
        if not sole.has(p):
            continue
        boss = leader(ctx)
        if sole.label == POOBAH and boss is not None and boss != p["name"]:
            # rules 8 and 23: the dynasty's leader is the GRAND POOBAH, and it cannot yield that to a role entry
            raise Illegal(Problem(
                f"{p['name']} cannot come back now: it is in Limbo ({pos!r}) holding the role GRAND POOBAH, which "
                f"cannot lapse there, and {boss} leads the dynasty and is the GRAND POOBAH; there may be only one "
                f"({_numbers(ctx, R_DYNASTIES, R_ROLES)}). {p['name']} may come back once out of Limbo",
                rule=R_SPECIAL))
        # every active Muffin as the action left it: one already active, or one coming back with it
        for o in muffins(ctx):
            if o["name"] == p["name"] or not sole.has(o) or not in_limbo(stat(o, "position")):
                continue
            raise Illegal(Problem(
                f"{p['name']} cannot come back now: it is in Limbo ({pos!r}) as {sole.label}, and {o['name']}, in "
                f"Limbo too ({stat(o, 'position')!r}), is {sole.label}; nothing of a Muffin in Limbo may change, and "
                f"there may be only one ({_numbers(ctx, sole.rule)}). {p['name']} may come back once {o['name']} "
                "has left Limbo (Position 9); a proposal bringing it back may be failed instead", rule=R_SPECIAL))


def _settle(ctx: Ctx, name: str, sole: Sole, limbo: bool = True) -> None:
    p = ctx.player(name)
    if p is None or not sole.has(p):
        return
    boss = leader(ctx)
    if sole.label == POOBAH and boss is not None and boss != name:
        # rules 8 and 23: the role is the current GRAND POOBAH, the dynasty's leader, whatever the Roles lists say
        _drop(ctx, name, sole, f"{boss} leads the dynasty and is the {title(ctx)} "
                               f"({_numbers(ctx, R_DYNASTIES, R_ROLES)}); there may be only one "
                               f"({_numbers(ctx, sole.rule)})")
        return
    others = [o for o in muffins(ctx) if o["name"] != name and sole.has(o)]
    if not others:
        return  # rule 2: it comes back with the values it had, and nobody else has this one
    first = others[0]["name"]
    if limbo and in_limbo(stat(p, "position")):
        for o in others:  # none in Limbo: ``_refuse_deadlock`` has refused that
            _drop(ctx, o["name"], sole, f"{name} came back in Limbo as {role_word(ctx, sole.label)}, and a Muffin "
                                        f"in Limbo cannot lose it ({_numbers(ctx, R_SPECIAL)}); there may be only "
                                        f"one ({_numbers(ctx, sole.rule)})")
        return
    if sole.label == POOBAH and name == leader(ctx) and not (limbo and any(in_limbo(stat(o, "position"))
                                                                          for o in others)):
        for o in others:
            _drop(ctx, o["name"], sole, f"{name} is the dynasty's {title(ctx)} ({_numbers(ctx, R_DYNASTIES, R_ROLES)}"
                                        f"); there may be only one ({_numbers(ctx, sole.rule)})")
        return
    _drop(ctx, name, sole, f"{first} became {role_word(ctx, sole.label)} while {name} was idle "
                           f"({_numbers(ctx, R_PLAYERS)}: not counted as a Muffin); there may be only one "
                           f"({_numbers(ctx, sole.rule)})")


def _drop(ctx: Ctx, name: str, sole: Sole, because: str) -> None:
    sole.drop(ctx.edit_player(name))
    ctx.step({f"{sole.key}_lapsed": name, "because": because})
