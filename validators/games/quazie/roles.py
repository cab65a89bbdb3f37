"""Muffin Roles (seed 003 rule 23): who may give each role, who may remove it, how many may hold it.

The roster stat ``roles`` is the Roles column (a list). ``quazie.role_since`` records when each
Writer of Awesome got the role (it may be removed by anyone 24 hours later).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Iterator

from ...engine import Action, Ctx, State, peek, ruled
from ...problems import Illegal, Problem, did_you_mean
from ...roster import change_stat
from ...timeutil import format_time, parse_time
from .common import (
    LAUNCH_BASE,
    R_DYNASTIES,
    R_NATURE,
    R_ROLES,
    done_today,
    in_limbo,
    leader,
    listed,
    mark_today,
    muffin,
    muffins,
    name_key,
    rule_number,
    stat,
)
from .consequences import EXEMPT, by_name, reached_players, replaced_at
from .hands import poobah_giver, subject_covers
from .launch import MINION
from .stuff import DESCRIBER

POOBAH = "GRAND POOBAH"
WRITER = "Writer of Awesome"
LIMBO_KING = "Limbo King"
ROLES = [POOBAH, WRITER, DESCRIBER, LIMBO_KING, MINION]
NAME = {"$ref": "common.schema.json#/$defs/name"}
# rule 23 (seed 003): the role a player names. Any text: the GRAND POOBAH's may also be named by the title the rules
# now give it (rule 9: an Address may rename it), which no fixed list holds; ``role_named`` reads it, and refuses a
# name that is no role in words, citing rule 23. ``examples``: the identifiers, for a reader (and the list's tests)
ROLE = {"type": "string", "examples": ROLES,
        "description": "`GRAND POOBAH`, `Writer of Awesome`, `Stuff Describer`, `Limbo King` or `Eggman's Minion`, "
                       "in any case; the GRAND POOBAH's role also by the title the rules now give it, GRAND POOBAH"}


def title(state: State | Ctx) -> str:
    """Seed 003 rule 9: the GRAND POOBAH's title as the rules now write it. An Ascension Address may replace "GRAND
    POOBAH" with a new term, and game.yaml's keyword ``leader`` follows it; rule 23's role is "the current GRAND
    POOBAH", so what a player reads names it so: the outcomes and the Roles column by this, the refusals and
    ``nomic check`` through ``wording`` (which says every seed word as the game does). The role as the Roles lists
    store it (``POOBAH``) is an identifier and stays; ``quazie.give-role`` takes it or this title
    (docs/modules/quazie.md, readings)."""
    return state.keyword("leader", POOBAH)


def role_word(state: State | Ctx, role: Any) -> Any:
    """A stored role as a player reads it: the GRAND POOBAH's by its title (``title``), any other as stored (no
    keyword of the game names them)."""
    return title(state) if role == POOBAH else role


def role_named(ctx: Ctx, name: str) -> str | None:
    """Seed 003 rules 9 and 23: the role (its identifier, as the Roles lists store it) a player names by ``name``: an
    identifier, or the GRAND POOBAH's title as the rules now write it (game.yaml's keyword ``leader``, which an
    Ascension Address may have replaced), in any case and spacing, as items are named; None for no role. An
    identifier is read first, so a title that is another role's name still names that role."""
    key = name_key(name)
    return next((r for r in ROLES if name_key(r) == key), POOBAH if key == name_key(title(ctx)) else None)


def _role(ctx: Ctx) -> str:
    """The role ``quazie.give-role`` or ``quazie.remove-role`` names (``role_named``); a name that is no role is
    refused, citing rule 23, with the names it takes."""
    given = ctx.params["role"]
    role = role_named(ctx, given)
    if role is None:
        hint = did_you_mean(given, [*ROLES, title(ctx)], repr)
        raise ctx.refuse(f"{given!r} is no role of this rule (roles: `GRAND POOBAH`, also named by its title now, "
                         "GRAND POOBAH; `Writer of Awesome`, `Stuff Describer`, `Limbo King`, `Eggman's Minion`)"
                         + hint, R_ROLES)
    return role


def holders(ctx: Ctx, role: str) -> list[str]:
    return [p["name"] for p in muffins(ctx) if role in stat(p, "roles", [])]


def second_poobahs(state: State | Ctx) -> list[tuple[int, str, str]]:
    """Seed 003 rules 8 and 23: (index, name, leader) of each active Muffin, not the dynasty's leader, whose Roles
    hold GRAND POOBAH while the dynasty has a leader. Rule 8 gives each dynasty a single GRAND POOBAH, its leader
    (idle or not: an idle spell does not end a dynasty); rule 23's role is "the current GRAND POOBAH" and only one
    may hold it, so such an entry names a second one. (An idle Muffin is no Muffin for rule 23, rule 2.)"""
    boss = leader(state)
    if boss is None:
        return []
    return [(i, p["name"], boss) for i, p in enumerate(peek(state.doc("roster")["players"]))
            if p["name"] != boss and not p.get("idle") and not p.get("kind") and POOBAH in listed(p, "roles")]


def second_poobah_message(state: State | Ctx, name: str, boss: str) -> str:
    """Rules 8 and 23 by their numbers now; the words are the seed's, which ``wording`` says as the game does."""
    return (f"{name} holds the role GRAND POOBAH, but {boss} leads the dynasty and is the GRAND POOBAH: the role is "
            f"the current GRAND POOBAH, and there may be only one (rules {rule_number(state, R_DYNASTIES)} and "
            f"{rule_number(state, R_ROLES)})")


# seed 003 rule 23 "Muffin Roles": only one Muffin holds the role GRAND POOBAH; repealed, there is no such role to
# guard
@ruled(R_ROLES)
def poobah_guard(ctx: Ctx) -> None:
    """Consequence (seed 003 rules 8 and 23): an action that would make a Muffin other than the dynasty's leader hold
    the role GRAND POOBAH (a proposal's patch writing it into their Roles, or naming a new leader while another keeps
    the role) is refused: its effects cannot be applied (the admin may fail the proposal instead). Only what the
    action changed is read; a state already so is left to ``nomic check``. Not the end of a dynasty (DoV, Ascension),
    nor a change of name."""
    docs = ctx.tx.docs
    # a change of name (core rule 2) moves a holding, it makes none
    if ("roster" not in docs and "dynasty" not in docs) or ctx.action.name in EXEMPT | {"core.rename"}:
        return
    boss = leader(ctx)
    if boss is None:
        return
    now = list(peek(ctx.doc("roster")["players"]))
    base = ctx.tx.base.docs["roster"]["players"]
    moved = boss != ctx.tx.base.docs["dynasty"].get("leader")
    if not moved and "roster" not in docs:
        return
    todo: Any = range(len(now)) if moved else replaced_at(now, base)
    olds: dict[str, Any] | None = None
    for i in todo:
        p = now[i]
        if p["name"] == boss or p.get("idle") or p.get("kind") or POOBAH not in stat(p, "roles", []):
            continue
        if not moved:
            olds = olds if olds is not None else by_name(base)
            old = olds.get(p["name"])
            if old is not None and not old.get("idle") and POOBAH in stat(old, "roles", []):
                continue  # held already before this action: not its doing
        # the words follow the game's keywords (``wording``), the rules' numbers the Ruleset's
        raise Illegal(Problem(f"the action would leave {second_poobah_message(ctx, p['name'], boss)}; no rule "
                              "lets the role pass while the dynasty has its GRAND POOBAH", rule=R_ROLES))


def sole_in_limbo(ctx: Ctx) -> str | None:
    inside = [p["name"] for p in muffins(ctx) if in_limbo(stat(p, "position"))]
    return inside[0] if len(inside) == 1 else None


def _proposals(ctx: Ctx) -> list[dict[str, Any]]:
    """The game's proposals (the BlogNomic core's ``proposals`` document), any status; none without one."""
    try:
        return list(peek(ctx.doc("proposals")["proposals"]))
    except KeyError:
        return []


def wrote_a_proposal(ctx: Ctx, name: str) -> bool:
    """Seed 003 rule 23: a Muffin achieves Writer of Awesome by writing a particularly awesome proposal. How awesome
    is the GRAND POOBAH's judgement; that ``name`` is the author of a proposal (pending or resolved) is checked."""
    return any(p.get("author") == name for p in _proposals(ctx))


def _writer_problems(ctx: Ctx, to: str) -> Iterator[str]:
    """Seed 003 rule 23, what a gift of Writer of Awesome to ``to`` needs of the proposals: ``to`` wrote one, and the
    one the GRAND POOBAH names (optional ``proposal``) exists and is theirs."""
    ident = ctx.params.get("proposal")
    if ident is not None:
        named = next((p for p in _proposals(ctx) if p.get("id") == ident), None)
        if named is None:
            yield f"there is no proposal {ident}"
        elif named.get("author") != to:
            yield (f"proposal {ident} was written by {named.get('author')}, not {to}: the Writer of Awesome is given "
                   "for the recipient's own proposal")
        return
    if not wrote_a_proposal(ctx, to):
        yield f"{to} has written no proposal, and the Writer of Awesome is given for one"


def _give_ready(ctx: Ctx) -> Iterator[str]:
    """Seed 003 rule 23, role by role, what refuses giving it to anyone (``_give_check`` refuses each name so): a
    GRAND POOBAH there already, Writer of Awesome given by another than the GRAND POOBAH or with no Muffin who may
    take it the author of a proposal, the Stuff Describer never given, no Muffin alone in Limbo to be Limbo King (or
    it is already), nobody at Position 4 for more than 48 hours who is not Eggman's Minion already. When every role
    is so refused, no role may be given now."""
    why = []
    current = [n for n in (leader(ctx), *holders(ctx, POOBAH)) if n]
    if current:
        why.append(f"there may be only one GRAND POOBAH, and {current[0]} is")
    else:
        return
    boss = leader(ctx)
    authors = {p.get("author") for p in _proposals(ctx)}
    if ctx.actor != boss:
        why.append("only the GRAND POOBAH may give the role of Writer of Awesome")
    elif any(p["name"] in authors and p["name"] != boss and not p.get("idle")
             and not {WRITER, POOBAH} & set(listed(p, "roles")) for p in peek(ctx.players())):
        return
    else:
        # rule 23 (seed 003): the role is given for a proposal, and no Muffin who may take it has written one
        why.append("no Muffin who may be made Writer of Awesome has written a proposal")
    why.append("the Stuff Describer is not given")
    sole = sole_in_limbo(ctx)
    if sole is None:
        why.append("no Muffin is alone in Limbo to be Limbo King")
    elif LIMBO_KING in stat(ctx.player(sole) or {}, "roles", []):
        why.append(f"{sole}, alone in Limbo, is Limbo King already")
    else:
        return
    for p in ctx.players():
        since = ctx.doc("quazie").get("launch_base", {}).get(p["name"], {}).get("since")
        if (not p.get("idle") and MINION not in stat(p, "roles", []) and stat(p, "position") == LAUNCH_BASE
                and since is not None and ctx.at - parse_time(since) > timedelta(hours=48)):
            return
    why.append("no Muffin who is not Eggman's Minion already has been at Position 4 for more than 48 hours")
    yield "no role may be given now: " + "; ".join(why)


def _give_check(ctx: Ctx) -> Iterator[str]:
    role, to = _role(ctx), ctx.params["to"]
    target = muffin(ctx, to)
    muffin(ctx, ctx.actor)
    if role in stat(target, "roles", []):
        yield f"{to} already has the role {role}"
        return
    if role != WRITER and ctx.params.get("proposal") is not None:
        # rule 23 (seed 003): only the Writer of Awesome is achieved by a proposal
        yield f"a proposal is named only when giving the Writer of Awesome; {role} is not given for one"
    if role == POOBAH:
        giver = poobah_giver(ctx.state) or f"a {ctx.keyword('player', 'Muffin')}"
        may = subject_covers(ctx.state, giver, ctx.actor)
        if may is None:
            yield f"the rule now says {giver!r} gives the role of GRAND POOBAH; this module cannot tell who that is"
        elif not may:
            yield f"only {giver} may give the role of GRAND POOBAH (as the rule now reads)"
        if to == ctx.actor:
            yield "the role of GRAND POOBAH is given to another Muffin"
        # rule 23: the role is the current GRAND POOBAH, the dynasty's leader, whether or not its Roles list
        # says so; only one may hold it, so it can be given only while there is none
        current = [n for n in (leader(ctx), *holders(ctx, POOBAH)) if n]
        if current:
            yield f"there may be only one GRAND POOBAH, and {current[0]} is"
        if WRITER in stat(target, "roles", []):
            # rule 23 (seed 003): the GRAND POOBAH may not be a Writer of Awesome, whichever role comes second
            yield (f"the GRAND POOBAH may not be a Writer of Awesome, and {to} is one (anyone may remove that role "
                   "24 hours after it was given)")
    elif role == WRITER:
        if ctx.actor != leader(ctx):
            yield "only the GRAND POOBAH may give the role of Writer of Awesome"
        if to == leader(ctx) or POOBAH in stat(target, "roles", []):
            yield "the GRAND POOBAH may not be a Writer of Awesome"
        # rule 23 (seed 003): "a Muffin must write a particularly awesome proposal in the eyes of the GRAND POOBAH";
        # the judgement is the GRAND POOBAH's, but that the recipient wrote the proposal can be checked
        yield from _writer_problems(ctx, to)
    elif role == DESCRIBER:
        yield (f"the Stuff Describer is whoever has the most Stuffs at the end of Sunday (rule "
               f"{rule_number(ctx, R_NATURE)}), not given")
    elif role == LIMBO_KING:
        if sole_in_limbo(ctx) != to:
            yield f"{to} is not the only Muffin in Limbo"
    elif role == MINION:
        since = ctx.doc("quazie").get("launch_base", {}).get(to, {}).get("since")
        if stat(target, "position") != LAUNCH_BASE or since is None:
            yield f"{to} is not at Position 4"
        elif ctx.at - parse_time(since) <= timedelta(hours=48):
            yield f"{to} has been at Position 4 since {since}, not more than 48 hours"


def _give(ctx: Ctx) -> None:
    role, to = _role(ctx), ctx.params["to"]
    p = ctx.edit_player(to)
    p["stats"]["roles"] = list(stat(p, "roles", [])) + [role]
    if role == WRITER:
        ctx.edit("quazie").setdefault("role_since", {})[to] = format_time(ctx.at)
    step: dict[str, Any] = {"role": role, "given_to": to}
    if ctx.params.get("proposal") is not None:
        step["proposal"] = ctx.params["proposal"]  # the awesome proposal, when the GRAND POOBAH names it
    ctx.step(step)


GIVE = Action(
    name="quazie.give-role",
    rule=R_ROLES,
    summary="Give a Muffin a role, where its rule allows it",
    params={"type": "object", "required": ["role", "to"], "additionalProperties": False,
            "properties": {"role": ROLE, "to": {**NAME, "description": "the Muffin to give the role"},
                           # rule 23 (seed 003): optional, Writer of Awesome only: the recipient's awesome proposal
                           "proposal": {"type": "integer", "minimum": 0,
                                        "description": "Writer of Awesome: the number of the recipient's awesome "
                                                       "proposal"}}},
    check=_give_check,
    ready=_give_ready,
    effect=_give,
    doc="`role` names a role in any case; the GRAND POOBAH's role by `GRAND POOBAH` or by the title the rules now "
        "give it, GRAND POOBAH (an Ascension Address may rename it), and the Roles column stores `GRAND POOBAH`. "
        "`GRAND POOBAH`: given to another, if there is no GRAND POOBAH (no leader, no holder), by whoever rule 23 "
        "now says may give it (any Muffin in the founding text; a Hand may change it). "
        "`Writer of Awesome`: only the GRAND POOBAH gives it, never to themselves, and only to a "
        "Muffin who has written a proposal (any status); `proposal` (optional, this role only) names it, and must "
        "be the recipient's. `Limbo King`: to the only Muffin "
        "in Limbo. `Eggman's Minion`: to a Muffin who has been at Position 4 for more than 48 hours. The Stuff "
        "Describer is never given.",
)


# seed 003 rule 23 "Muffin Roles" times a Writer of Awesome's removal; repealed, no time is noted
@ruled(R_ROLES)
def writer_since(ctx: Ctx) -> None:
    """Consequence (rule 23): a Muffin who became Writer of Awesome by any action, an enacted proposal say,
    has the 24 hours before removal counted from then, as ``quazie.give-role`` counts them. Only the players
    the action replaced are read (found by identity, in C); runs after the Limbo guard, which may undo a change."""
    for p, old in reached_players(ctx):
        if WRITER not in stat(p, "roles", []):
            continue
        if old is not None and WRITER in stat(old, "roles", []):
            continue
        since = ctx.doc("quazie").get("role_since", {})
        if old is None and p["name"] in since:
            continue  # a new name (core.rename moved the time with the Muffin): not a new Writer
        if since.get(p["name"]) != format_time(ctx.at):
            ctx.edit("quazie").setdefault("role_since", {})[p["name"]] = format_time(ctx.at)


def _removable(ctx: Ctx, role: str, who: str) -> bool:
    """Seed 003 rule 23: whether ``role`` may be taken from ``who``, who holds it: a Writer of Awesome 24 hours after
    it was given, the Limbo King once another Muffin is alone in Limbo, no other role ever (``_remove_check``)."""
    if role == WRITER:
        since = ctx.doc("quazie").get("role_since", {}).get(who)
        return not (since and ctx.at - parse_time(since) < timedelta(hours=24))
    if role == LIMBO_KING:
        sole = sole_in_limbo(ctx)
        return sole is not None and sole != who
    return False


def _remove_ready(ctx: Ctx) -> Iterator[str]:
    """The check refuses every role and name when no active Muffin holds a role it may lose now."""
    if not any(role in ROLES and _removable(ctx, role, p["name"]) for p in ctx.players() if not p.get("idle")
               for role in listed(p, "roles")):
        yield "no Muffin holds a role that may be removed now"


def _remove_check(ctx: Ctx) -> Iterator[str]:
    role, who = _role(ctx), ctx.params["from"]
    target = muffin(ctx, who)
    muffin(ctx, ctx.actor)
    if role not in stat(target, "roles", []):
        yield f"{who} does not have the role {role}"
        return
    if role == WRITER:
        since = ctx.doc("quazie").get("role_since", {}).get(who)
        if since and ctx.at - parse_time(since) < timedelta(hours=24):
            yield f"{who} became Writer of Awesome at {since}; it may be removed 24 hours after"
    elif role == LIMBO_KING:
        sole = sole_in_limbo(ctx)
        if sole is None or sole == who:
            yield "the Limbo King may be removed only when another Muffin is the only Muffin in Limbo"
    else:
        yield f"the rule gives no way to remove the role {role}"


def _remove(ctx: Ctx) -> None:
    role, who = _role(ctx), ctx.params["from"]
    p = ctx.edit_player(who)
    p["stats"]["roles"] = [r for r in stat(p, "roles", []) if r != role]
    if role == WRITER:
        ctx.edit("quazie").get("role_since", {}).pop(who, None)
    ctx.step({"role": role, "removed_from": who})


REMOVE = Action(
    name="quazie.remove-role",
    rule=R_ROLES,
    summary="Remove a role from a Muffin, where its rule allows it",
    params={"type": "object", "required": ["role", "from"], "additionalProperties": False,
            "properties": {"role": ROLE, "from": {**NAME, "description": "the Muffin who loses the role"}}},
    check=_remove_check,
    ready=_remove_ready,
    effect=_remove,
    doc="Anyone may remove Writer of Awesome 24 hours after it was given, and Limbo King once another Muffin "
        "is alone in Limbo. No rule removes the other roles.",
)


def _awesome_check(ctx: Ctx) -> Iterator[str]:
    me = muffin(ctx, ctx.actor)
    if WRITER not in stat(me, "roles", []):
        yield f"{ctx.actor} is not a Writer of Awesome"
    elif ctx.actor == leader(ctx) or POOBAH in stat(me, "roles", []):
        # rule 23 (seed 003): the GRAND POOBAH may not be a Writer of Awesome. A patch or a change of leader can
        # still leave the role in the GRAND POOBAH's Roles; while it is the GRAND POOBAH the role gives nothing
        # (the Roles list is kept as it is; anyone removes the Writer role 24 hours after it was given)
        yield (f"{ctx.actor} is the GRAND POOBAH, and the GRAND POOBAH may not be a Writer of Awesome: "
               "the role's 5 Stuffs a day are not theirs")
    if done_today(ctx, "awesome", ctx.actor):
        yield f"{ctx.actor} has already gained Stuffs as Writer of Awesome today"


def _awesome(ctx: Ctx) -> None:
    mark_today(ctx, "awesome", ctx.actor)
    got = change_stat(ctx, ctx.actor, "stuff", 5, rule=R_ROLES)
    ctx.step({"writer_of_awesome": ctx.actor, "stuff": got})


AWESOME = Action(
    name="quazie.awesome",
    rule=R_ROLES,
    summary="Writer of Awesome: gain 5 Stuffs (once a day)",
    params={"type": "object", "additionalProperties": False, "properties": {}},
    check=_awesome_check,
    effect=_awesome,
    doc="Once a day. Not for the GRAND POOBAH (the dynasty's leader, or the holder of the role), who may not be "
        "a Writer of Awesome, even if its Roles list says so.",
)

ACTIONS = [GIVE, REMOVE, AWESOME]
