"""Proposals by unanimous consent (Rules 6, 10, 21, 31, 32, 34, 35, 40, 128).

* The proposer counts as voting aye; players on the Passive Voters list vote aye when
  it is posted (Rule 31); anyone silent for 72 hours counts as aye (Rule 10).
* Votes may change until the proposer posts the ratification (reading of "until the
  voting is complete"); it takes effect one hour after that posting.
* While any counted player votes nay, any player other than that one may declare it dead.
* Pending for two weeks without being ratified or declared dead: dead (Rule 128).
* Sectional consent (Rule 21): a proposal may name a section; only its members count, and it changes
  nothing (Rule 8). Decisions of all the other players about one player (Rules 22, 40, 45, 82) are
  ``about`` proposals, limited to what those rules give them to decide.
"""

from __future__ import annotations

import copy
import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime, timedelta
from typing import Any

from ...effects import apply_effects, schema_problem
from ...engine import ANYONE, PLAYER, Action, Ctx, Rule, carrier_in_force, peek, repealed_in, ruled
from ...problems import Illegal, Problem
from ...roster import Entry, fold, rename_player, same_players, unrenamable, used_names, welcome_back
from ...schemas import not_blank, vote_words
from ...timeutil import format_time, parse_time
from . import changes as ch
from . import world as w
from .consequences import complete_players, remove_player

IMPLICIT_AFTER = timedelta(hours=72)
EXPIRES_AFTER = timedelta(days=14)
TAKES_EFFECT_AFTER = timedelta(hours=1)


_item = dict.__getitem__


def proposals(state: Any) -> list[dict[str, Any]]:
    return state.doc("consent")["proposals"]


def _edit_proposal(ctx: Ctx, ident: int) -> dict[str, Any]:
    """The proposal ``ident``, to change (only it is copied). StopIteration when there is none."""
    ps = ctx.edit("consent")["proposals"]
    return next(ps[i] for i, p in enumerate(peek(ps)) if _item(p, "id") == ident)


def find(ctx: Ctx, ident: int) -> dict[str, Any]:
    ps = proposals(ctx)
    for i, p in enumerate(peek(ps)):
        if _item(p, "id") == ident:
            return ps[i]
    raise ctx.refuse(f"there is no proposal {ident}")


def voters(state: Any, p: dict[str, Any]) -> list[str]:
    """Who counts: every current player, or the section's members who are still players."""
    players = w.player_names(state)
    if p.get("section"):
        return [n for n in p["section"] if n in players]
    return players


def standing(state: Any, p: dict[str, Any], now: datetime) -> dict[str, str]:
    """Each counted player's vote now: aye, nay, or 'aye (silent)' once 72 hours have passed, else 'none'."""
    out = {}
    old = now - parse_time(p["posted"]) >= IMPLICIT_AFTER
    for name in voters(state, p):
        v = p["votes"].get(name)
        out[name] = v if v else ("aye (silent)" if old else "none")
    return out


def unanimous(state: Any, p: dict[str, Any], now: datetime) -> bool:
    votes = standing(state, p, now)
    return bool(votes) and all(v.startswith("aye") for v in votes.values())


def nays(state: Any, p: dict[str, Any]) -> list[str]:
    return [n for n in voters(state, p) if p["votes"].get(n) == "nay"]


# ---------------------------------------------------------------- posting and voting

_NAME_TAG = "[...]"
TALLIES = {"type": "array", "maxItems": 50, "description": "tallies changed when it takes effect",
           "items": {"type": "object", "required": ["player", "stat", "delta"], "additionalProperties": False,
                     "properties": {"player": {"$ref": "common.schema.json#/$defs/name"},
                                    "stat": {"enum": ["brownie", "demerits", "puissance"]},
                                    "delta": {"type": "integer", "minimum": -1000000, "maximum": 1000000}}}}
ABOUT = {"type": "object", "required": ["rule", "player"], "additionalProperties": False,
         "description": "a decision by all the other players about one player",
         "properties": {"rule": {"enum": ["r22", "r40", "r45", "r82"]},
                        "player": {"$ref": "common.schema.json#/$defs/name"}}}


def a_player(ctx: Ctx, rule: str = "r10") -> Iterator[str]:
    """Rule 10 (and 32, 91): proposing, voting, declaring dead and ratifying are for players. These actions
    are open to anybody at the engine's door (``ANYONE``) so that this is asked of the state as it is when
    the action is judged, after the deadlines before it (a third demerit for silence removes a player)."""
    if ctx.actor not in w.player_names(ctx):
        yield f"{ctx.actor} is not a player of the game; only players may do this (Rule {rule.removeprefix('r')})"


def _propose_check(ctx: Ctx) -> Iterator[str]:
    yield from a_player(ctx)
    name = ctx.params["name"].strip()
    # seed 002 Rule 34 asks for a new name ending in the proponent's referent; repealed, any name will do (the
    # parameter itself stays: a proposal is named in the record and on the wiki)
    named = not w.repealed(ctx, "r34")
    if named and not (name.endswith("]") and "[" in name and name.rindex("[") < len(name) - 2):
        yield ("a proposal's name must end with its proponent's name or initials in square brackets, "
               f"like 'Tolls {_NAME_TAG}' (Rule 34)")
    # ifMUD seed, Rule 34: the name must differ from every earlier proposal's; the rule says nothing of capitals,
    # so names are compared exactly (after trimming the spaces around them, as they are stored).
    if named and any(_item(p, "name") == name for p in peek(proposals(ctx))):
        yield f"a proposal has already been named {name!r}; names must differ from every earlier one (Rule 34)"
    section = ctx.params.get("section")
    # seed 002 Rule 21 defines sectional consent, and Rules 22, 40, 45 and 82 each give all the other players a say
    # about one player by it; a repealed rule gives that say no more (a reading: with Rule 21 gone, no decision is
    # sectional, so `about` goes with `section`)
    sectional = [r for r in ("r21", *([ctx.params["about"]["rule"]] if ctx.params.get("about") else []))
                 if (section or ctx.params.get("about")) and w.repealed(ctx, r)]
    if sectional:
        yield w.problem(f"no decision by sectional consent here: Rule {sectional[0][1:]}, which gave it, has been "
                        "repealed", sectional[0])
        return
    if section:
        unknown = [n for n in section if n not in w.player_names(ctx)]
        if unknown:
            yield f"not players: {', '.join(unknown)}"
        # ifMUD seed, Rules 8 and 21: sectional consent is only *defined* by Rule 21; the state changes only as the
        # rules prescribe (Rule 8), and the rules that let the state change by agreement ask all the players (Rules
        # 6, 12, 20, 25, 37, 54, 72, 127). The only decisions left to a section are those Rules 22, 40, 45 and 82
        # give all the other players about one player (``about``). So a proposal a named section decides changes
        # nothing: it may not carry effects or tallies.
        if not ctx.params.get("about") and (ctx.params.get("effects") or ctx.params.get("tallies")):
            yield w.problem("a proposal decided by a named section may change nothing: only Rules 22, 40, 45 and 82 "
                            "give sectional consent a say (give `about` instead), and every other change needs all "
                            "the players (Rules 6, 8, 20, 54); give no section, or no effects and tallies", "r21")
    about = ctx.params.get("about")
    if about:
        who = about["player"]
        # ifMUD seed, Rule 10: any player may post a proposal; Rules 21, 22, 45 and 82 only say who decides it (all
        # the players but the one it is about), so that player may post it too. Rule 40 alone asks of its player that
        # they have not posted in the last 72 hours, and the proposal is itself a post.
        if who not in w.player_names(ctx):
            yield f"{who!r} is not a player"
        elif who == ctx.actor and about["rule"] == "r40":
            yield (f"{who} posts this proposal, and so has posted in the last 72 hours; Rule 40 is about a player who "
                   "has not (Rule 32 lets them join the Passive Voters themselves)")
        elif about["rule"] == "r40":
            seen = ctx.doc("ledger").get("seen", {}).get(who) or ctx.state.player(who)["joined"]
            if ctx.at - parse_time(seen) < IMPLICIT_AFTER:
                yield f"{who} posted at {seen}, less than 72 hours ago (Rule 40)"
            if who in (ctx.doc("consent").get("passive_voters") or []):
                yield f"{who} is already a passive voter"
        if section:
            yield "a proposal about a player is decided by all the other players; give no section"
        yield from _about_limits(ctx, about)
    for t in ctx.params.get("tallies") or []:
        if t["player"] not in w.player_names(ctx):
            yield f"{t['player']!r} is not a player"
    for e in (ctx.params.get("effects") or {}).get("rules", []):
        yield from _fixed_rules(ctx, e)


def _about_limits(ctx: Ctx, about: dict[str, Any]) -> Iterator[Problem]:
    """ifMUD seed, Rules 22, 40, 45 and 82: what all the other players may decide about one player by sectional
    consent, and nothing more (any other change needs every player, Rules 6, 8, 20, 54):

    * r22: the demerit for deception, which the proposal carries by itself: no effects or tallies of its own.
    * r40: the place on the Passive Voters list, likewise.
    * r45: the name and species of that player's servant, once its 72 hours have run out unnamed: effects that
      set those two fields of that servant, and no tallies.
    * r82: once a turn of that player has ended by the passage of time (``turn.timed_out``), the state as if the
      required action had been taken (effects on the gamestate, taken as that), and a loss of up to ten brownie
      points and/or one demerit for that player: no other tallies.
    No such proposal edits the rules (Rule 6)."""
    rule, who = about["rule"], about["player"]
    effects = ctx.params.get("effects") or {}
    tallies = ctx.params.get("tallies") or []
    cite = f"Rule {rule.removeprefix('r')}"
    if effects.get("rules"):
        yield w.problem(f"a proposal decided by sectional consent ({cite}) may not change the rules; that needs "
                        "all the players (Rule 6)", rule)
    if rule in ("r22", "r40"):
        if effects.get("gamestate") or tallies:
            what = "the demerit" if rule == "r22" else "the place on the Passive Voters list"
            yield w.problem(f"{cite} lets the other players decide only {what}, which the proposal carries by "
                            "itself; give no effects or tallies", rule)
    elif rule == "r45":
        s = w.servant(ctx, who)
        if s is not None and s.get("naming") != "sectional":
            yield w.problem(f"{who}'s servant passes to the other players to name only once 72 hours have run out "
                            "without a name and species (Rule 45)", rule)
        wrong = [op.get("path", "") for op in effects.get("gamestate") or []
                 if op.get("op") not in ("add", "replace") or not _servant_name_path(ctx, op.get("path", ""), who)]
        if wrong or tallies:
            yield w.problem(f"Rule 45 lets the other players decide only the name and species of {who}'s servant "
                            f"(/entities/servants/owner={who}/name and /species); "
                            + (f"not {wrong[0]}" if wrong else "give no tallies"), rule)
    elif rule == "r82":
        # ifMUD seed, Rule 82: the other players may restore the state and fine a player only when that player's turn
        # ran out its time with a required action untaken; a player none of whose turns has timed out (Rule 27's 24
        # hours, Rule 92's six) never left one so, and the others have nothing to decide about them.
        if who not in (w.turn(ctx).get("timed_out") or {}):
            yield w.problem(f"Rule 82 gives the other players a say about {who} only after a turn of {who}'s has "
                            "ended by the passage of time (Rule 27) without an action the rules required; no turn of "
                            "theirs has ended so (turn.timed_out)", rule)
        seen: set[str] = set()
        for t in tallies:
            stat, delta = t["stat"], int(t["delta"])
            ok = t["player"] == who and stat not in seen and (
                (stat == "brownie" and -10 <= delta < 0) or (stat == "demerits" and delta == 1))
            seen.add(stat)
            if not ok:
                yield w.problem(f"Rule 82 lets the other players award {who} a loss of up to ten brownie points "
                                f"and/or one demerit, no other tally change (not {t['player']} {stat} {delta:+d})",
                                rule)


def _servant_name_path(ctx: Ctx, path: str, owner: str) -> bool:
    """Whether a patch path names the ``name`` or ``species`` of ``owner``'s servant (by ``owner=`` or index)."""
    parts = path.split("/")
    if len(parts) != 5 or parts[:3] != ["", "entities", "servants"] or parts[4] not in ("name", "species"):
        return False
    if parts[3] == f"owner={owner}":
        return True
    servants = ctx.doc("entities")["servants"]
    return parts[3].isdigit() and int(parts[3]) < len(servants) and servants[int(parts[3])]["owner"] == owner


# ifMUD seed, Rule 35: once added, a rule may only be removed or have the references to rule numbers in its text
# amended. A reference is written as the seed writes them: "Rule 10", and for several "Rules 21 and 40" (any
# case, lists joined by commas, "and" or "or"). An amendment is allowed when the old and the new text are the
# same once every reference is replaced by one placeholder: so the references may change, but none may be added
# or removed, and nothing else may change. Renumbering is refused: the number is the rule's own (Rule 9 gives it
# when the rule is added), and changing it is none of the two changes Rule 35 allows.
_REFERENCE = re.compile(r"\brules\s+\d+(?:\s*(?:,\s*(?:(?:and|or)\s+)?|(?:and|or)\s+)\d+)*|\brule\s+\d+",
                        re.IGNORECASE)


def references_masked(text: str) -> str:
    """The text with every reference to rule numbers replaced by one placeholder (Rule 35)."""
    return _REFERENCE.sub("\x00", text.rstrip("\n"))


def _fixed_rules(ctx: Ctx, e: dict[str, Any]) -> Iterator[str]:
    op, rid = e["op"], e["id"]
    if op in ("add", "repeal"):
        return
    if op != "amend":
        yield (f"a rule may only be added, removed, or have its references to rule numbers amended (Rule 35); "
               f"{op} of {rid} is none of these")
        return
    rule = ctx.state.rules.get(rid)
    if rule is None:
        yield f"there is no rule {rid} to amend (Rule 35)"
        return
    if "title" in e and e["title"] != rule.meta.get("title"):
        yield f"amending {rid} may not change its title; only its references to rule numbers may change (Rule 35)"
    if "body" in e and references_masked(e["body"]) != references_masked(rule.body):
        yield (f"amending {rid} changes more than its references to rule numbers (like 'Rule 12'); a rule may only "
               "be added, removed, or have those references amended (Rule 35)")


def _propose(ctx: Ctx) -> None:
    doc = ctx.edit("consent")
    ident = doc["next"]
    doc["next"] = ident + 1
    p: dict[str, Any] = {"id": ident, "name": ctx.params["name"].strip(), "author": ctx.actor,
                         "posted": format_time(ctx.at), "status": "pending"}
    for k in ("text", "section", "effects", "tallies", "about"):
        if ctx.params.get(k):
            p[k] = ctx.params[k]
    about = ctx.params.get("about")
    if about:  # Rules 22, 40, 45, 82: sectional consent of all the other players
        p["section"] = [n for n in w.player_names(ctx) if n != about["player"]]
        if about["rule"] == "r22":
            p["tallies"] = list(p.get("tallies") or []) + [{"player": about["player"], "stat": "demerits", "delta": 1}]
        if about["rule"] == "r40":
            patch = {"op": "add", "path": "/consent/passive_voters/-", "value": about["player"]}
            p["effects"] = {**(p.get("effects") or {}),
                            "gamestate": [*(p.get("effects") or {}).get("gamestate", []), patch]}
    votes = {ctx.actor: "aye"}
    implicit = []
    # seed 002 Rule 31: the Passive Voters vote aye the moment a proposal is posted; repealed, the list votes nothing
    for n in ([] if w.repealed(ctx, "r31") else doc.get("passive_voters") or []):
        if n != ctx.actor and n in w.player_names(ctx):
            votes[n] = "aye"
            implicit.append(n)
    p["votes"] = votes
    if implicit:
        p["passive"] = implicit
    doc["proposals"].append(p)
    ctx.step({"proposal": ident, "passive_ayes": implicit})


PROPOSE = Action(
    name="ifmud.propose", rule="r10", summary="Post a proposal (unanimous, or sectional with a section)",
    params={"type": "object", "required": ["name"], "additionalProperties": False,
            "properties": {"name": not_blank({"type": "string", "minLength": 4, "maxLength": 200,
                                              "description": "the proposal's name"}),
                           "text": not_blank({"type": "string", "maxLength": 20000,
                                              "description": "the proposal's text, in words"}, empty_ok=True),
                           "section": {"type": "array", "items": {"$ref": "common.schema.json#/$defs/name"},
                                       "minItems": 1, "uniqueItems": True,
                                       "description": "a sectional proposal's players, whose consent it needs"},
                           "effects": {"$ref": "common.schema.json#/$defs/effects",
                                       "description": "what it changes when ratified: a JSON Patch on the "
                                                      "gamestate, and rule edits"},
                           "tallies": TALLIES,
                           "about": ABOUT}},
    check=_propose_check, ready=a_player, effect=_propose, who=ANYONE,
    doc="The name must be new and end with the proponent's referent in brackets (Rule 34). With `section`, "
        "only those players count (Rule 21), and it may carry no effects or tallies: no rule lets a section of "
        "its own change the state (Rule 8). With `about: {rule, player}` it is decided by all the players but "
        "that one: r22 gives them a demerit for deception, r40 puts a player silent for 72 hours on the Passive "
        "Voters list, r45 and r82 carry the effects given (naming their servant, a fine). `tallies` are added "
        "when it takes effect. `effects` are applied when it takes effect: rule additions are "
        "numbered one more than the last rule (Rule 9), and one whose text is a repealed rule's, word for word, brings "
        "that rule back in force while it stands; an existing rule may only be repealed, or amended "
        "where the new text differs from the old only in its references to rule numbers (Rule 35).",
)


def _open(ctx: Ctx, p: dict[str, Any]) -> Iterator[str]:
    if p["status"] != "pending":
        yield f"proposal {p['id']} is {p['status']}; voting on it is complete"


def _pending_ready(what: Callable[[Ctx, dict[str, Any]], bool] | None = None,
                   none: Callable[[Ctx], str] | None = None) -> Callable[[Ctx], Iterator[str]]:
    """``Action.ready`` of an action on a pending proposal (Rule 10): the actor must be a player (``a_player``, the
    head of each check), and some proposal must be pending (the check refuses any other number: none such, or
    voting on it complete) and, with ``what``, be one it may act on (``none`` says there is none)."""

    def ready(ctx: Ctx) -> Iterator[str]:
        not_player = list(a_player(ctx))
        yield from not_player
        if not_player:
            return
        pending = [p for p in peek(proposals(ctx)) if _item(p, "status") == "pending"]
        if not pending:
            yield "no proposal is pending"
        elif what is not None and none is not None and not any(what(ctx, p) for p in pending):
            yield none(ctx)

    return ready


def _vote_check(ctx: Ctx) -> Iterator[str]:
    yield from a_player(ctx)
    yield from _open(ctx, find(ctx, ctx.params["proposal"]))


def _vote(ctx: Ctx) -> None:
    p = _edit_proposal(ctx, ctx.params["proposal"])
    p["votes"][ctx.actor] = ctx.params["vote"]
    ctx.step({"proposal": p["id"], ctx.actor: ctx.params["vote"]})


VOTE = Action(
    name="ifmud.vote", rule="r10", summary="Vote aye or nay (or change your vote)",
    params={"type": "object", "required": ["proposal", "vote"], "additionalProperties": False,
            # seed 002, Rule 10: the votes are "aye" and "nay"; FOR or yes, as other games vote, is told 'aye'
            "properties": {"proposal": {"type": "integer", "minimum": 1,
                                        "description": "the number of the proposal"},
                           "vote": vote_words(["aye", "nay"], yes="aye", no="nay",
                                              description="aye is for, nay is against")}},
    check=_vote_check, ready=_pending_ready(), effect=_vote, who=ANYONE,
    doc="Any player may vote, and change their vote, until the proposal is ratified or dead. Only the "
        "players who count (all, or the section's) decide it.",
)


def _dead_check(ctx: Ctx) -> Iterator[str]:
    yield from a_player(ctx)
    p = find(ctx, ctx.params["proposal"])
    yield from _open(ctx, p)
    against = nays(ctx, p)
    if not against:
        yield f"nobody who counts votes nay on proposal {p['id']}; it cannot be declared dead"
    elif against == [ctx.actor]:
        yield f"{ctx.actor} is the only nay; another player must declare it dead (Rule 10)"


def _dead(ctx: Ctx) -> None:
    p = _edit_proposal(ctx, ctx.params["proposal"])
    p["status"] = "dead"
    p["closed"] = {"by": ctx.actor, "at": format_time(ctx.at), "result": "declared dead",
                   "votes": standing(ctx, p, ctx.at)}
    ctx.step({"proposal": p["id"], "result": "dead", "nays": nays(ctx, p)})


DECLARE_DEAD = Action(
    name="ifmud.declare-dead", rule="r10", summary="Declare dead a proposal somebody voted nay on",
    params={"type": "object", "required": ["proposal"], "additionalProperties": False,
            "properties": {"proposal": {"type": "integer", "minimum": 1,
                                        "description": "the number of the proposal voted nay on"}}},
    check=_dead_check, effect=_dead, who=ANYONE,
    # Rule 10: a proposal is dead once declared so by a player other than the one voting nay
    ready=_pending_ready(lambda ctx, p: any(n != ctx.actor for n in nays(ctx, p)),
                         lambda ctx: f"no pending proposal has a nay from a player who counts, other than {ctx.actor} "
                                     "(Rule 10)"),
    doc="While a counted player votes nay, any other player may declare the proposal dead (Rule 10).",
)


def _ratify_check(ctx: Ctx) -> Iterator[str]:
    yield from a_player(ctx)
    p = find(ctx, ctx.params["proposal"])
    yield from _open(ctx, p)
    if p["author"] != ctx.actor:
        yield f"only its proposer, {p['author']}, may declare proposal {p['id']} ratified"
    if not unanimous(ctx, p, ctx.at):
        missing = {n: v for n, v in standing(ctx, p, ctx.at).items() if not v.startswith("aye")}
        yield f"not every player is in favour: {', '.join(f'{n} {v}' for n, v in missing.items())} (Rule 10)"


def _ratify(ctx: Ctx) -> None:
    p = _edit_proposal(ctx, ctx.params["proposal"])
    p["status"] = "ratifying"
    effective = ctx.at + TAKES_EFFECT_AFTER
    p["closed"] = {"by": ctx.actor, "at": format_time(ctx.at), "result": "ratified",
                   "votes": standing(ctx, p, ctx.at), "effective": format_time(effective)}
    ctx.step({"proposal": p["id"], "ratified": True, "takes_effect": format_time(effective)})


RATIFY = Action(
    name="ifmud.ratify", done="ratified", rule="r10",
    summary="Declare your unanimous proposal ratified (effective an hour later)",
    params={"type": "object", "required": ["proposal"], "additionalProperties": False,
            "properties": {"proposal": {"type": "integer", "minimum": 1,
                                        "description": "the number of your unanimous proposal"}}},
    check=_ratify_check, effect=_ratify, who=ANYONE,
    # Rule 10: the proposer declares their own proposal ratified
    ready=_pending_ready(lambda ctx, p: p["author"] == ctx.actor,
                         lambda ctx: f"no proposal of {ctx.actor}'s is pending"),
    doc="The proposer, when every counted player is in favour (by aye, by the Passive Voters list, or by "
        "72 hours' silence), posts the ratification with a summary of the votes; the proposal takes effect "
        "one hour later.",
)


# ---------------------------------------------------------------- taking effect, expiring


def _words(text: str) -> str:
    return " ".join(text.split())


def _same_text_repealed(ctx: Ctx, body: str, repealing: frozenset[str] = frozenset(),
                        carried: frozenset[str] = frozenset()) -> list[str]:
    """The rules out of force (repealed, and carried by no rule in force) whose text is ``body``'s, word for word
    (spacing and line breaks aside), as the ruleset stands when the add is applied: the proposal's effects are
    applied in order, so the rules its earlier edits repeal (``repealing``) are out of force by then, and those
    an earlier add of it carries (``carried``) are in force again.

    Rule 9 gives every rule a proposal adds a new number, and Rule 35 lets a rule only be removed or have its
    references amended, so a repealed rule comes back only as a new rule with its text. A reading: a rule whose
    text is a repealed rule's, word for word, is that rule in force again, and what the module makes of the old
    rule (its actions, events and conditions, asked by its id) applies while the new one stands. Text that differs
    in any word, a reference to a rule number included, is a new rule the module knows nothing of. A rule with
    no words is no rule's text again (empty texts would all be alike)."""
    words = _words(body)
    if not words:
        return []
    rules = ctx.rules
    if repealing:
        rules = {rid: Rule(rid, {**r.meta, "status": "repealed"}, r.body) if rid in repealing else r
                 for rid, r in rules.items()}
    return [rid for rid, r in rules.items()
            if rid not in carried and repealed_in(rules, rid) is not None and _words(r.body) == words]


def _take_effect(ctx: Ctx, ident: int, at: datetime) -> None:
    p = _edit_proposal(ctx, ident)
    p["status"] = "ratified"
    effects = p.get("effects") or {}
    edits = []
    rules = ctx.tx.edit_rules() if effects.get("rules") else {}
    top = max((int(r.number) for r in rules.values() if str(r.number).isdigit()), default=0)
    repealing: frozenset[str] = frozenset()
    carried_now: frozenset[str] = frozenset()
    for e in effects.get("rules", []):
        e = dict(e)
        if e["op"] in ("repeal", "amend"):
            # Rule 35 lets a rule be removed or have its references amended: a repealed rule in force again through
            # the rule carrying its text is removed by repealing that rule (its own repeal is long done), and
            # amended by amending the text that stands, that rule's (whose title it keeps)
            carrier = carrier_in_force(ctx.rules, e["id"]) if e["id"] not in repealing else None
            if carrier is not None and carrier not in repealing:
                e["id"] = carrier
                e.pop("title", None)
        if e["op"] == "repeal":
            repealing |= {e["id"]}
        if e["op"] == "add":  # Rule 9: one more than the last
            top += 1
            e["number"], e["id"] = str(top), f"r{top}"
            e.setdefault("section", "rules")
            carried = _same_text_repealed(ctx, e["body"], repealing, carried_now)
            if carried:
                e["carries"] = carried
                carried_now |= set(carried)
        edits.append(e)
    ctx.step({"proposal": ident, "takes_effect": format_time(at)})
    spoke = _posted_since_r40(ctx, p, at)
    if spoke:
        _effects_fail(ctx, p, ident, spoke)
        return
    # Apply on a scratch transaction first: effects that cannot apply must not leave half an edit.
    scratch = Ctx(ctx.state, ctx.action, ctx.record, ctx.at, ctx.registry, ctx.dice)
    try:
        apply_effects(scratch, {**effects, "rules": edits} if effects else None, f"proposal {ident}", "r10",
                      validate=False)  # checked below, once added tokens have their ``since``
    except Illegal as e:
        _effects_fail(ctx, p, ident, "; ".join(pr.message for pr in e.problems))
        return
    parts = _changed_parts(ctx, scratch)  # as the effects wrote them, before anything below completes them
    # Effects that would leave a document against its schema (a token with no place, a tally that is no number)
    # cannot be made: none of them is, as for effects that cannot apply at all, and the note says why.
    if "tokens" in scratch.tx.docs:
        for t in list(peek(w.tokens(scratch))):
            if "since" not in t:  # added, or its record removed: where it is, it has been since now
                w.edit_token(scratch, dict.__getitem__(t, "id"))["since"] = format_time(ctx.at)
        _new_clocks(ctx, scratch)
    # A player the effects gave another name (same account and joining time) is that player renamed, not one who
    # left and a newcomer (``_renamed_players``): their joining time stands, and everything of theirs follows them.
    renames = _renamed_players(ctx, scratch) if "roster" in scratch.tx.docs else {}
    joined = _joined_now(ctx, scratch, renames) if "roster" in scratch.tx.docs else []
    bad = _known_alike(ctx, scratch) if "roster" in scratch.tx.docs else None
    if bad:
        _effects_fail(ctx, p, ident, bad)
        return
    # Then the parts of the state agreement may change, each only while a rule letting it do so is in force (a
    # decision of all the other players about one player is its own rule's, Rules 45 and 82: ``_about_limits``).
    bad = schema_problem(scratch, scratch.tx.docs) or (
        None if p.get("about") else _unagreed_change(ctx, scratch, parts, renames))
    if bad:
        _effects_fail(ctx, p, ident, f"the effects cannot be applied: {bad}")
        return
    _spell_rooms(scratch)
    # ifMUD seed, Rules 25 and 39: a connection joins two rooms, so effects adding or changing a connection one of
    # whose ends (or a room its Rule 76 basis names) is no room on the map cannot be made.
    # Rules 25 and 39 again: two rooms are connected or not, so a connection the effects add between rooms already
    # connected is no new connection (dropped with a step below), unless its Rule 76 basis differs (refused here).
    repeated: list[int] = []
    if "map" in scratch.tx.docs:
        changed = _changed_connections(ctx, scratch)
        off = _connections_off_map(scratch, changed)
        if not off:
            off, repeated = _repeated_connections(scratch, changed)
        if off:
            _effects_fail(ctx, p, ident, f"the effects cannot be applied: {off}")
            return
    # ifMUD seed, Rule 139: a quest's home, locate and goal are three different rooms, so effects that would
    # leave a quest with two of them the same (room names are compared in any case, Rule 72) cannot be made.
    if "quests" in scratch.tx.docs:
        # (seed 002 Rule 139 repealed: the rooms need not differ; they are still read as rooms of the map)
        same = _quest_rooms_off_map(ctx, scratch) or ("" if w.repealed(scratch, "r139")
                                                      else _quest_rooms_repeated(scratch))
        if same:
            _effects_fail(ctx, p, ident, f"the effects cannot be applied: {same} (Rule 139)")
            return
    # Rule 33: a player who lost may never rejoin, so effects that would add one back cannot apply.
    lost = set(w.turn(ctx).get("lost") or [])
    back = sorted((set(w.player_names(scratch)) - set(w.player_names(ctx)) - set(renames.values())) & lost) \
        if lost else []
    if back:
        _effects_fail(ctx, p, ident, f"{', '.join(back)} lost the game and may not rejoin (Rule 33)")
        return
    # Rules 12, 27: a renamed player's new name must be theirs to take, and the old one stays theirs
    taken = _names_of_the_renamed(ctx, scratch, renames) if renames else None
    # Rules 3, 12, 23: one account is one player, so effects may not give a current player's account to another
    taken = taken or (_accounts_shared(ctx, scratch, renames) if "roster" in scratch.tx.docs else None)
    # Rules 12, 13, 27: a departed player's names stay theirs; only they (their account) may be added back under one
    taken = taken or (_names_of_the_departed(ctx, scratch, renames) if "roster" in scratch.tx.docs else None)
    if taken:
        _effects_fail(ctx, p, ident, taken)
        return
    if repeated:
        _drop_repeated_connections(ctx, scratch, ident, repeated)
    if "map" in scratch.tx.docs:
        _drop_connections_of_gone_rooms(ctx, scratch, ident)
    # What was where, and who was exempt, before the effects, under the names the effects leave (so that a renamed
    # player's things are not taken for things put somewhere else)
    pre = ctx
    if renames:
        pre = Ctx(ctx.state, ctx.action, ctx.record, ctx.at, ctx.registry, ctx.dice)
        try:
            _rename_all(pre, renames)
            _rename_all(scratch, renames, written=True)
        except Illegal as e:
            _effects_fail(ctx, p, ident, "; ".join(pr.message for pr in e.problems))
            return
    # ifMUD seed, Rule 44: each player has one servant, so effects that would give one a second cannot be made; Rule 27:
    # one player is always active, so effects making somebody else active must name a player
    # Rules 31, 91: the Passive Voters and Passive Turn-Takers are lists of players
    doubled = (_second_servant(scratch) if "entities" in scratch.tx.docs else None) or (
        _no_active_player(pre, scratch) if "turn" in scratch.tx.docs else None) or _passive_non_players(pre, scratch)
    if doubled:
        _effects_fail(ctx, p, ident, f"the effects cannot be applied: {doubled}")
        return
    before = _places(pre)
    exempt = _exempt(pre)
    if "entities" in scratch.tx.docs:
        _unnamed_by_patch(pre, scratch)
    turn_was = dict(w.turn(pre))
    imp_rule_was = w.repealed(ctx, "r149") is None
    gone = _taken_off(ctx, scratch, renames) if "roster" in scratch.tx.docs else []
    ctx.tx.docs.update(scratch.tx.docs)
    for old, new in renames.items():
        ctx.step({"renamed": old, "to": new, "by": f"proposal {ident}"})
        if ctx.actor == old:  # the action the deadline came before is the renamed player's: theirs under the new name
            ctx.renamed(new)
    for pl in gone:  # Rule 7: they are no longer in the game's set of players; their names stay theirs (Rule 27)
        remove_player(ctx, pl["name"], f"taken off the roster by proposal {ident} (unanimous consent)", was=pl)
    if scratch.tx.rules is not None:
        ctx.tx.rules = scratch.tx.rules
    for name, written in joined:
        ctx.step({"player": name, "joined": format_time(at), "written": written, "rule": "r12"})
    # ifMUD seed, Rules 136 and 149: a player the effects add has their starting tallies (Puissance 1, 10 brownie
    # points, Rule 148) before the Imp the same effects hand them adds its point: counted from nothing, the missing
    # Puissance would be 1 with the Imp and then never given its start
    complete_players(ctx)
    if not imp_rule_was and w.repealed(ctx, "r149") is None:
        _imp_rule_comes_into_effect(ctx, before["tokens"])
    _moved_by_patch(ctx, ident, before)
    _exemptions_ended(ctx, exempt - _exempt(ctx), at)
    for t in find(ctx, ident).get("tallies") or []:  # consent may take tallies below zero (Rule 42)
        if t["player"] in w.player_names(ctx):
            w.add_tally(ctx, t["player"], int(t["delta"]), t["stat"], f"proposal {ident}")
    _turn_given(ctx, ident, turn_was, at)


def _turn_given(ctx: Ctx, ident: int, was: dict[str, Any], at: datetime) -> None:
    """ifMUD seed, Rules 27 and 47: it is always the active player's turn, and who is active is part of the state,
    so effects that make another player active end the turn of the one who was (with all Rule 27's end of a turn
    brings: Rules 62, 88, 93, 98, 131; not Rule 92's, which is for a turn that timed out) when they take effect,
    after everything else the effects set off, and begin the new player's own turn then, with its own once-a-turn
    actions and its own 24 hours. The start and number of the turn the effects wrote themselves are kept as
    written. ``was``: the turn before the effects, under the names they leave. Effects naming nobody, or somebody
    who is no player, are not made (``_no_active_player``)."""
    t = w.turn(ctx)
    now, before = t.get("active"), was.get("active")
    if t.get("over") or not before or now == before or now not in w.player_names(ctx):
        return
    from .turns import end_turn

    written = {k: t[k] for k in ("started", "number") if k in t and t.get(k) != was.get(k)}
    ctx.edit("turn")["active"] = before
    end_turn(ctx, at, f"proposal {ident}", nxt=now)
    ctx.edit("turn").update(written)


def _no_active_player(ctx: Ctx, scratch: Ctx) -> str | None:
    """ifMUD seed, Rule 27: at any moment one player is active. Why effects applied on ``scratch`` that change who is
    active (``ctx``: the state before them, under the names they leave) cannot be made when they name nobody, or
    somebody who is not a player after them, else None. Effects that take the active player off the roster and leave
    the name as it was are the turn ending by removal, which the consequences apply (``consequences._turn``)."""
    t = w.turn(scratch)
    now = dict.get(t, "active")
    if dict.get(t, "over") or now == dict.get(w.turn(ctx), "active"):
        return None
    if now is None:
        return "they leave no player active; one player is always active (Rule 27)"
    if now not in w.player_names(scratch):
        return f"they make {now} active, who is not a player; one player is always active (Rule 27)"
    return None


# ifMUD seed: the lists of players Rules 31 and 91 make part of the state (document, key, name, rule)
_PLAYER_LISTS = (("consent", "passive_voters", "the Passive Voters list", "Rule 31"),
                 ("turn", "passive_turn_takers", "the Passive Turn-Takers list", "Rule 91"))


def _passive_non_players(ctx: Ctx, scratch: Ctx) -> str | None:
    """ifMUD seed, Rules 31 and 91: the Passive Voters and the Passive Turn-Takers are lists of players (whoever
    leaves goes off them, ``consequences._remove_player``). Why effects applied on ``scratch`` cannot be made when they
    put on one a name that is no player's after them (``ctx``: the state before, under the names they leave): it would
    wait there for whoever joins under that name, who never asked to be on it (Rules 32, 91), else None. A player the
    same effects add may be put on either list."""
    players = set(w.player_names(scratch))
    for kind, key, what, rule in _PLAYER_LISTS:
        if kind not in scratch.tx.docs:
            continue
        now, was = dict.get(scratch.doc(kind), key) or [], dict.get(ctx.doc(kind), key) or []
        for name in now if isinstance(now, list) else ():
            if name not in players and name not in was:
                return f"they put {name} on {what}, who is not a player ({rule})"
    return None


def _second_servant(scratch: Ctx) -> str | None:
    """ifMUD seed, Rule 44: each player has a servant, their one (Rules 46, 65 and 87 speak of "his or her servant",
    and a token a servant carries is located by its player's name). Why effects applied on ``scratch`` (under the
    names they leave) cannot be made when they would leave a player with two servants, else None. Servants of
    somebody who is no player go (Rule 44 C, ``consequences.rehome``)."""
    players = set(w.player_names(scratch))
    seen: set[Any] = set()
    for s in peek(scratch.doc("entities")["servants"]):
        owner = dict.__getitem__(s, "owner")
        if owner in seen and owner in players:
            return f"they would give {owner} two servants, and a player has one (Rule 44)"
        seen.add(owner)
    return None


def _new_clocks(ctx: Ctx, scratch: Ctx) -> None:
    """ifMUD seed, Rules 70 and 101: a time bomb esplodes once it has lain in one room for its delay, and the uplink
    recharges once it has lain in Embedded CPU for 48 hours. A token the effects make a time bomb (give a delay it
    did not have) or the uplink (give that role) was neither before, so it has lain there as one only since they
    take effect: its ``since`` is then, unless they wrote it themselves. (Counted from its old ``since``, the deadline
    could lie behind the effects: the banana made a bomb would esplode at once for the days it lay about.) A delay
    the effects only change is still the same bomb's (see "a deadline moved into the past")."""
    was = {dict.get(t, "id"): t for t in peek(w.tokens(ctx)) if isinstance(dict.get(t, "id"), int)}
    for t in list(peek(w.tokens(scratch))):
        ident = dict.get(t, "id") if isinstance(t, dict) else None
        old = was.get(ident) if isinstance(ident, int) else None
        if old is None or dict.get(t, "since") != dict.get(old, "since"):
            continue
        bomb = "delay_hours" in t and "delay_hours" not in old
        uplink = dict.get(t, "role") == "uplink" and dict.get(old, "role") != "uplink"
        if bomb or uplink:
            w.edit_token(scratch, ident)["since"] = format_time(scratch.at)


def _unnamed_by_patch(ctx: Ctx, scratch: Ctx) -> None:
    """ifMUD seed, Rule 45: the demerit is for a player who fails to name their servant within 72 hours of joining
    (or of the rule taking effect). A servant named before the effects that they leave without its name and species
    is no such failure: it stands as a servant just given to its player (as one the rules give anew when effects
    take a player's servant away, Rule 44, ``consequences._players``), so its 72 hours (``since``) start when the
    effects take effect, unless they wrote ``since`` or the naming's passing to the others themselves. ``ctx``:
    the state before the effects, under the names they leave."""
    was = {dict.__getitem__(s, "owner"): s for s in peek(ctx.doc("entities")["servants"])}
    servants = scratch.doc("entities")["servants"]
    for i, s in enumerate(peek(servants)):
        old = was.get(dict.__getitem__(s, "owner"))
        if old is None or w.is_named(s) or not w.is_named(old) or dict.get(s, "naming") == "sectional" \
                or dict.get(s, "since") != dict.get(old, "since"):
            continue
        scratch.edit("entities")["servants"][i]["since"] = format_time(scratch.at)


def _imp_rule_comes_into_effect(ctx: Ctx, tokens: dict[Any, dict[str, Any]]) -> None:
    """ifMUD seed, Rule 149: when the rule comes into effect (here: its very text enacted again while it stood
    repealed, ``_same_text_repealed``), a player who is then the Bottle Imp's location gains a point of Puissance,
    as one it comes to later does; else letting it go afterwards would cost a point the rule never gave. The rule
    edits come before the gamestate patch, so the carrier is the one before the effects (``tokens``: as
    ``_places`` kept them); an Imp the same effects hand on is then followed from there (``_tokens_by_patch``)."""
    for ident in sorted(tokens):
        was = tokens[ident]
        if was.get("role") != "imp":
            continue
        holder = w.carrying_player(ctx, was["location"])
        if holder is not None:
            w.add_tally(ctx, holder, 1, w.PUISSANCE, "Rule 149: the Bottle Imp's carrier as the rule comes into effect")


def _posted_since_r40(ctx: Ctx, p: dict[str, Any], at: datetime) -> str | None:
    """ifMUD seed, Rule 40: a player who has not posted in the last 72 hours may be added to the Passive Voters by
    the sectional consent of all the others. The consent adds them when the proposal takes effect (Rule 10), so
    the 72 hours are counted back from then, not only from its posting (which ``_propose_check`` asks): a player
    who posted meanwhile is no longer silent, and the proposal, which does nothing else, changes nothing. Why, or
    None when it may take effect."""
    about = p.get("about") or {}
    if about.get("rule") != "r40" or w.repealed(ctx, "r40"):
        return None
    who = about.get("player")
    seen = ctx.doc("ledger").get("seen", {}).get(who)
    if seen and parse_time(seen) <= at and at - parse_time(seen) < IMPLICIT_AFTER:
        return f"{who} posted at {seen}, less than 72 hours before the proposal took effect (Rule 40)"
    return None


def _effects_fail(ctx: Ctx, p: dict[str, Any], ident: int, why: str) -> None:
    """A ratified proposal's effects that cannot be made: none of them is, its record's note says why (200
    characters at most), and the action's outcome says so."""
    p["closed"]["note"] = why[:200]
    ctx.step({"proposal": ident, "effects_failed": p["closed"]["note"]})


# ifMUD seed: the parts of the state that unanimous agreement may change, each with the rules that let it: Rule 20
# the details of the map (its rooms and everything about them, and the connections between them), Rule 25 the
# connections, Rule 54 the tokens, Rule 72 the Table of Synonyms, Rule 127 the Dark Gifts. (Rule 12's, adding
# players, is asked of the roster in ``_unagreed_change``; Rule 37's, the game's name, lives in game.yaml, which
# effects do not patch.) A part stays changeable while any rule of its own is in force.
AGREED_PARTS: tuple[tuple[str, str, tuple[str, ...], str], ...] = (
    ("map", "rooms", ("r20",), "the rooms of the map"),
    ("map", "connections", ("r20", "r25"), "the connections between rooms"),
    ("tokens", "tokens", ("r54",), "the tokens"),
    ("tables", "synonyms", ("r72",), "the Table of Synonyms"),
    ("tables", "dark_gifts", ("r127",), "the list of Dark Gifts"),
)


def _rules_named(rules: list[str]) -> str:
    nums = [r.removeprefix("r") for r in rules]
    return f"Rule {nums[0]}" if len(nums) == 1 else f"Rules {', '.join(nums[:-1])} and {nums[-1]}"


def _changed_parts(ctx: Ctx, scratch: Ctx) -> list[tuple[str, tuple[str, ...]]]:
    """The parts of ``AGREED_PARTS`` the effects applied on ``scratch`` change (what, and the rules that let it be
    changed), compared by value as the effects wrote them."""
    return [(what, rules) for kind, key, rules, what in AGREED_PARTS
            if kind in scratch.tx.docs and dict.get(scratch.doc(kind), key) != dict.get(ctx.doc(kind), key)]


def _unagreed_change(ctx: Ctx, scratch: Ctx, changed: list[tuple[str, tuple[str, ...]]],
                     renames: dict[str, str]) -> str | None:
    """ifMUD seed, Rules 8, 12, 20, 25, 54, 72 and 127: the state changes only as the rules prescribe, and each of
    those rules lets unanimous agreement change one part of it (``AGREED_PARTS``, those the effects change:
    ``changed``; Rule 12: adding a player, one the effects leave on the roster who was not on it before, under the
    names they leave: ``renames``). With every rule that lets a part change repealed, effects that change it cannot
    be made: why, in words, or None. Asked of the ruleset the effects leave (``scratch``), as the consequences and
    Rule 139's check are: effects that repeal the rule and change its part are read with the rule already gone, so
    none of them is made."""
    for what, rules in changed:
        if all(w.repealed(scratch, r) for r in rules):
            return (f"they change {what}, which {_rules_named(rules)} let unanimous agreement change, and "
                    f"{'it has' if len(rules) == 1 else 'each has'} been repealed")
    if "roster" in scratch.tx.docs and w.repealed(scratch, "r12"):
        before = _players_before(ctx, renames)
        added = [n for n in w.player_names(scratch) if n not in before]
        if added:
            return (f"they add {', '.join(added)} to the game, which Rule 12 let unanimous consent do, and it has "
                    "been repealed")
    return None


_WEEK = timedelta(days=7)


def _folded_names(state: Ctx) -> Counter[str]:
    players = dict.get(state.doc("roster"), "players")
    return Counter(fold(n) for pl in (peek(players) if isinstance(players, list) else ())
                   if isinstance(pl, dict) and isinstance(n := dict.get(pl, "name"), str))


def _known_alike(ctx: Ctx, scratch: Ctx) -> str | None:
    """ifMUD seed, Rules 12 and 27: turns go in the order of the names players are known by, so effects that would
    leave two players whose names differ only in case or spacing (one of them added by the effects, or renamed
    into the other's) cannot be made. Why, or None. Read before the schema check, so that the note names the
    clash rather than what it breaks."""
    after = _folded_names(scratch)
    if not any(n > 1 for n in after.values()):
        return None
    before = _folded_names(ctx)
    alike = next((key for key, n in after.items() if n > 1 and n > before[key]), None)
    if alike is None:
        return None
    names = [n for pl in peek(scratch.doc("roster")["players"]) if isinstance(pl, dict)
             and isinstance(n := dict.get(pl, "name"), str) and fold(n) == alike]
    return (f"two players would be known as {' and '.join(repr(n) for n in names)}; players' names must differ by "
            "more than case or spacing (Rules 12, 27)")


def _taken_off(ctx: Ctx, scratch: Ctx, renames: dict[str, str]) -> list[dict[str, Any]]:
    """The roster entries (as before the effects) of the players the effects take off the roster, unless the
    effects themselves write their record of leaving: each is then removed as the rules remove a player (a record of
    leaving with their account, their servant gone, what they carried in the Attic, Rules 44 and 49). A player the
    effects renamed (``renames``: old name -> new) is still playing."""
    after = set(w.player_names(scratch))
    recorded = {f["name"] for f in peek(scratch.doc("roster").get("former") or ())}
    return [pl for pl in peek(ctx.doc("roster")["players"])
            if pl["name"] not in after and pl["name"] not in recorded and pl["name"] not in renames]


def _renamed_players(ctx: Ctx, scratch: Ctx) -> dict[str, str]:
    """The players the effects gave another name: old name -> new.

    ifMUD's seed has no rule for a change of name, but the set of players is part of the state (Rule 7) and a
    ratified proposal may change it (Rules 10, 12), so its effects may rename a player. An entry the effects leave
    under a new name is the same player as an entry before them when the two are paired as the shared roster pairs
    them (``roster.same_players``: the same account and joining time, as BlogNomic's proposals are read): that
    player keeps their place, tallies, servant, tokens, votes and joining time (``rename.py``), rather than being
    taken off (Rules 13, 44 C, 49) and added as a newcomer (Rules 12, 45). Effects that leave the roster in no shape
    to be read (an entry that is no mapping, a name that is no text) rename nobody: the schema check says why."""
    players = dict.get(scratch.doc("roster"), "players")
    if not isinstance(players, list):
        return {}
    for pl in peek(players):
        if not isinstance(pl, dict) or not isinstance(dict.get(pl, "name"), str):
            return {}
        try:
            hash((dict.get(pl, "account"), dict.get(pl, "joined"), dict.get(pl, "kind")))
        except TypeError:
            return {}
    before: list[Entry] = [(pl["name"], pl.get("account"), pl.get("joined"), pl.get("kind"))
                           for pl in peek(ctx.doc("roster")["players"])]
    same = same_players(before, scratch.doc("roster"))
    return {was[0]: name for name, was in same.items() if was[0] != name}


def _players_before(ctx: Ctx, renames: dict[str, str]) -> set[str]:
    """The players before a proposal's effects, by the names the effects leave them (``renames``: old -> new): an
    entry after the effects under none of these names is one they added."""
    return (set(w.player_names(ctx)) - set(renames)) | set(renames.values())


def _names_of_the_renamed(ctx: Ctx, scratch: Ctx, renames: dict[str, str]) -> str | None:
    """ifMUD seed, Rules 12 and 27: turns go by the names players are known by, and the log's files under a name are
    its player's. So a player the effects rename may take only a name nobody else of the game has had (a current
    player's, one given up, a departed player's: ``roster.used_names``; one of their own is theirs again), and the
    name they give up stays theirs: the same effects may not add somebody under it. A module that keeps the old
    name and cannot rename it stops the change too (``roster.unrenamable``). Why the effects cannot be made, or
    None."""
    used = used_names(ctx)
    for old, new in renames.items():
        owner, whose = used.get(fold(new), (old, ""))
        if owner != old:
            return (f"the effects rename {old} to {new}, but that name is too like that of {whose}; a name stays "
                    "with the player who had it (Rules 12, 27)")
        for why in unrenamable(ctx, old):
            return f"the effects cannot rename {old} to {new}: {why}"
    was = _players_before(ctx, renames)
    gone = {fold(old): (old, new) for old, new in renames.items()}
    for pl in peek(scratch.doc("roster")["players"]):
        if pl["name"] not in was and fold(pl["name"]) in gone:
            old, new = gone[fold(pl["name"])]
            return (f"the effects rename {old} to {new} and add {pl['name']}, but the name {old!r} stays with {new}, "
                    "who had it (Rules 12, 27)")
    return None


def _accounts_shared(ctx: Ctx, scratch: Ctx, renames: dict[str, str]) -> str | None:
    """Our reading of Rules 3, 10, 23 and 24: a player is a person who posts to The List (Rule 23), and votes (Rule
    10) and silence (Rule 24) are counted by who posted, so each account (the address a player posts from) plays
    one player; nothing in the seed lets one person hold two places in the game's set of players (Rules 3, 7, 12).
    So effects that would leave an account (any case) with two players, one of whom did not have it before them
    (added, or given it), cannot be made. Why, naming the player who has it, or None. Accounts shared before the
    effects are left to ``nomic check`` (``roster.check_roster``), which reports them."""
    had = {pl["name"]: str(pl.get("account") or "").lower() for pl in peek(ctx.doc("roster")["players"])}
    was = {new: old for old, new in renames.items()}
    holders: dict[str, list[dict[str, Any]]] = {}
    for pl in peek(scratch.doc("roster")["players"]):
        if pl.get("account"):
            holders.setdefault(str(pl["account"]).lower(), []).append(pl)
    for key, pls in holders.items():
        fresh = [pl for pl in pls if had.get(was.get(pl["name"], pl["name"])) != key]
        if len(pls) < 2 or not fresh:
            continue
        other = next((pl for pl in pls if pl not in fresh), None) or next(pl for pl in pls if pl is not fresh[0])
        how = "add {} with" if was.get(fresh[0]["name"], fresh[0]["name"]) not in had else "give {}"
        return (f"the effects {how.format(fresh[0]['name'])} the account {fresh[0]['account']!r}, which already "
                f"plays as {other['name']}; one account plays one player (Rules 3, 12, 23)")
    return None


def _rename_all(ctx: Ctx, renames: dict[str, str], written: bool = False) -> None:
    """Give each renamed player (``renames``: old -> new) their new name in every document, as the engine renames a
    player (``roster.rename_player``, then this module's ``rename.rename``). ``written``: the roster entry already
    has the new name (the effects wrote it), so it is given back the old one first, for the rename to start from."""
    for old, new in renames.items():
        if written:
            ctx.edit_player(new)["name"] = old
        rename_player(ctx, old, new)


def _names_of_the_departed(ctx: Ctx, scratch: Ctx, renames: dict[str, str]) -> str | None:
    """ifMUD seed, Rules 12, 13, 27 and 33: a player who left (or whom the rules removed without their losing) may be
    added back by consent, but Rule 27 orders turns by the names players are known by, and the log's files under a
    departed player's name are theirs: so a player the effects add under such a name (or one its owner had given
    up), case and spacing aside, must be that player, known by the account on their record of leaving. Why the
    effects cannot be made, or None; each player who comes back has their record of leaving taken off the roster
    (in ``scratch``), the names they had given up staying theirs on their new entry (``formerly``).

    The records read are those before the effects, as the effects may rewrite them (an account written on one is
    the one asked for) or take them off: effects that take a record off while adding somebody under its name are
    judged as if it were there, and a player they bring back so keeps the names it held. A record that names no
    account (written by hand) tells nobody apart, so its names are taken back only by effects that write on it the
    account the player comes back with (as BlogNomic's ``core.join`` reads such a record).
    A player the same effects take off the roster counts as one who left (``_taken_off`` records it after); one they
    rename (``renames``: old name -> new) neither left nor is added (``_names_of_the_renamed`` asks about them)."""
    roster = scratch.doc("roster")
    written = {f["name"]: f for f in peek(dict.get(roster, "former") or ()) if isinstance(f, dict)}
    before = list(peek(ctx.doc("roster").get("former") or ()))
    removed = [f for f in before if f["name"] not in written]
    former = [written.get(f["name"], f) for f in before]
    former += [f for name, f in written.items() if all(name != b["name"] for b in before)]
    was = _players_before(ctx, renames)
    after = set(w.player_names(scratch))
    leaving = [p for p in peek(ctx.doc("roster")["players"]) if p["name"] not in after and p["name"] not in renames]
    if not former and not leaving:
        return None
    back: dict[int, str] = {}  # the added entries that are players come back: index -> name
    for i, pl in enumerate(peek(roster["players"])):
        if pl["name"] in was:
            continue
        key = fold(pl["name"])
        for j, f in enumerate([*former, *leaving]):
            if key != fold(f["name"]) and all(key != fold(g["name"]) for g in f.get("formerly", [])):
                continue
            who = "a player who left" if j < len(former) else "whom the same effects take off the roster"
            if f.get("account") and str(pl.get("account") or "").lower() != f["account"].lower():
                return (f"the name {pl['name']!r} stays with {f['name']}, {who} (account {f['account']}); only they "
                        "may be added back under it (Rules 12, 27)")
            if not f.get("account") and j < len(former):
                return (f"the name {pl['name']!r} stays with {f['name']}, {who}; the record names no account, so "
                        f"nothing shows it is them (effects may write it: /roster/former/name={f['name']}/account) "
                        "(Rules 12, 27)")
            if j < len(former):
                back[i] = pl["name"]
    for i, name in back.items():  # their record of leaving goes, as with a join in BlogNomic (``roster.welcome_back``)
        kept = welcome_back(scratch, name, removed)
        if kept:
            entry = scratch.edit("roster")["players"][i]
            entry["formerly"] = [*entry.get("formerly", []), *kept]
    return None


def _joined_now(ctx: Ctx, scratch: Ctx, renames: dict[str, str]) -> list[tuple[str, Any]]:
    """ifMUD seed, Rules 10 and 12: players are added by unanimous consent, which is reached when the proposal takes
    effect, so a player the effects add joins then, whatever time they wrote as ``joined`` (or none): Rule 24's week
    and Rule 45's 72 hours both run from that moment, as a founder's run from the founding. A servant the effects
    give such a player has its ``since`` (Rule 45's clock) from then too. The names whose written time was another,
    with that time, for a step each. A player the effects renamed (``renames``: old name -> new) joined when they
    did."""
    was = _players_before(ctx, renames)
    now = format_time(ctx.at)
    out, added = [], set()
    players = dict.get(scratch.doc("roster"), "players")
    for i, p in enumerate(peek(players) if isinstance(players, list) else ()):  # else the schema check says why
        name = dict.get(p, "name") if isinstance(p, dict) else None
        if isinstance(name, str) and name not in was:
            added.add(name)
            if dict.get(p, "joined") != now:
                out.append((name, dict.get(p, "joined")))
                scratch.edit("roster")["players"][i]["joined"] = now
    servants = dict.get(scratch.doc("entities"), "servants") if added and "entities" in scratch.tx.docs else None
    for i, sv in enumerate(peek(servants) if isinstance(servants, list) else ()):
        owner = dict.get(sv, "owner") if isinstance(sv, dict) else None
        if isinstance(owner, str) and owner in added and dict.get(sv, "since") != now:
            scratch.edit("entities")["servants"][i]["since"] = now
    return out


def _exempt(ctx: Ctx) -> set[str]:
    """Rule 130: the players on both the Passive Voters and the Passive Turn-Takers lists (nobody while seed 002
    Rule 130 is repealed: a proposal repealing it ends their exemption as one taking them off a list does)."""
    if w.repealed(ctx, "r130"):
        return set()
    return set(w.turn(ctx).get("passive_turn_takers") or []) & set(ctx.doc("consent").get("passive_voters") or [])


def _exemptions_ended(ctx: Ctx, names: set[str], at: datetime) -> None:
    """ifMUD seed, Rules 24 and 130: a player the effects took off one of the two passive lists was spared Rule 24's
    demerits until now. Each week of silence (counted from their latest post, joining or demerit for silence, then
    week by week, Rule 24) that ran out while they were on both lists cost nothing (Rule 130); the latest of them
    is recorded as Rule 24's latest invocation (``turn.silence``), so their next demerit falls a week after it,
    not at once for every week they were spared."""
    seen = ctx.doc("ledger").get("seen") or {}
    for name in sorted(names):
        player = ctx.player(name)
        if player is None:
            continue
        marks = [m for m in (player.get("joined"), seen.get(name), (w.turn(ctx).get("silence") or {}).get(name)) if m]
        if not marks:
            continue
        latest = max(parse_time(m) for m in marks)
        weeks = (at - latest) // _WEEK
        if weeks >= 1:
            spared = latest + weeks * _WEEK
            ctx.edit("turn").setdefault("silence", {})[name] = format_time(spared)
            ctx.step({"silence_spared": name, "until": format_time(spared), "weeks": weeks, "rule": "r130"})


def _spell_rooms(scratch: Ctx) -> None:
    """The rooms the effects name as where things are, written with the map's spelling: a room is named in any
    case or by a synonym (Rule 72, ``world.resolve_room``, as the map and the table stand after the effects), so
    the effects' "saturn" is Saturn, not a place that does not exist (whose things Rules 49, 52, 53 and 57 would
    send elsewhere). Players' locations, servants', the entities' (monkey, pieman ...), and tokens' rooms and
    destinations, in the documents the effects changed. A name that is no room is left as written: what lies there
    is rehomed as before (consequences.rehome)."""
    names = set(w.room_names(scratch))

    def spelled(given: Any) -> str | None:
        """The map's spelling of ``given`` when that differs from it, else None."""
        if not isinstance(given, str) or given in names:
            return None
        name = w.resolve_room(scratch, given)
        return name if name is not None and name != given else None

    docs = scratch.tx.docs
    if "roster" in docs:
        for i, pl in enumerate(peek(scratch.doc("roster")["players"])):
            stats = dict.get(pl, "stats")
            name = spelled(dict.get(stats, w.LOCATION)) if isinstance(stats, dict) else None
            if name:
                scratch.edit("roster")["players"][i]["stats"][w.LOCATION] = name
    if "entities" in docs:
        ent = scratch.doc("entities")
        for i, sv in enumerate(peek(dict.get(ent, "servants") or [])):
            name = spelled(dict.get(sv, "location"))
            if name:
                scratch.edit("entities")["servants"][i]["location"] = name
        for which in w.ENTITIES:
            e = dict.get(ent, which)
            name = spelled(dict.get(e, "location")) if isinstance(e, dict) else None
            if name:
                scratch.edit("entities")[which]["location"] = name
    if "tokens" in docs:
        for i, t in enumerate(peek(w.tokens(scratch))):
            loc = dict.get(t, "location")
            name = spelled(dict.get(loc, "room")) if isinstance(loc, dict) else None
            if name:
                scratch.edit("tokens")["tokens"][i]["location"] = {"room": name}
            name = spelled(dict.get(t, "destination"))
            if name:
                scratch.edit("tokens")["tokens"][i]["destination"] = name


def _changed_connections(ctx: Ctx, scratch: Ctx) -> list[int]:
    """The indices of the connections the effects add or change: those not on the map before, compared by value
    (as written, before any name is respelled)."""
    def key(c: Any) -> str:
        return json.dumps(c, sort_keys=True, default=str)

    was = Counter(key(c) for c in peek(ctx.doc("map")["connections"]))
    out = []
    for i, c in enumerate(peek(scratch.doc("map")["connections"])):
        k = key(c)
        if was[k] > 0:
            was[k] -= 1
        else:
            out.append(i)
    return out


def _connections_off_map(scratch: Ctx, changed: list[int]) -> str:
    """Rules 25 and 39 join two rooms by a connection. Each end of a connection the effects add or change, and each
    room its ``basis`` names (Rule 76: the letter positions it rests on), is read as a room named in an action's
    parameters is (``world.resolve_room``: any case, or a synonym, Rule 72, as the map and the table stand after the
    effects) and written with the map's spelling, so that ``between: [lobby, saturn]`` joins the Lounge and Saturn
    and Rule 76 finds its basis. The first such name that is no room on the map, or connection whose two ends are
    the same room, is said in words, with the field ("" if none): then none of the effects can be made.
    Connections the effects leave as they were are not looked at.
    """
    connections = list(peek(scratch.doc("map")["connections"]))
    for i in changed:
        c = connections[i]
        ends = []
        for j, given in enumerate(dict.get(c, "between") or []):
            name = w.resolve_room(scratch, given)
            if name is None:
                return f"map connections[{i}].between[{j}], {given}, is not a room on the map (Rules 25, 39)"
            if name != given:
                scratch.edit("map")["connections"][i]["between"][j] = name
            ends.append(name)
        # Rule 25 connects *two* rooms to each other: ends that are one room (however each is written, e.g. the
        # Lounge and its synonym 'lobby', Rule 72) join nothing, so effects making such a connection cannot be made.
        if len(ends) == 2 and ends[0] == ends[1]:
            return f"map connections[{i}].between joins {ends[0]} to itself, not two rooms (Rule 25)"
        for j, b in enumerate(dict.get(c, "basis") or []):
            given = dict.get(b, "room")
            name = w.resolve_room(scratch, given)
            if name is None:
                return f"map connections[{i}].basis[{j}].room, {given}, is not a room on the map (Rule 76)"
            if name != given:
                scratch.edit("map")["connections"][i]["basis"][j]["room"] = name
    return ""


def _basis_key(c: Any) -> tuple[tuple[str, int], ...]:
    """A connection's Rule 76 basis as a sorted tuple of (room, position): none and [] are alike."""
    basis = peek(dict.get(c, "basis") or [])
    return tuple(sorted((str(dict.get(b, "room")), int(dict.get(b, "position"))) for b in basis))


def _repeated_connections(scratch: Ctx, changed: list[int]) -> tuple[str, list[int]]:
    """ifMUD seed, Rules 25 and 39: two rooms are connected to each other or not (two-way, one relation), so a
    connection the effects add or change between two rooms another connection already joins (either way round, the
    ends spelled as the map does) is no new connection. The connections the effects leave alone claim their pairs
    first, then the changed ones in order. A repeat with the same basis (Rule 76) says nothing new: its index is
    returned, to be dropped. A repeat on another basis would keep two records of one connection that Rule 76 deletes
    differently, and which the players meant cannot be told: that is said in words, and none of the effects is
    made. Connections repeated before the effects are left as they are (the invariant reports them)."""
    connections = list(peek(scratch.doc("map")["connections"]))
    todo = set(changed)
    claimed: dict[frozenset[str], int] = {}
    for i, c in enumerate(connections):
        if i not in todo:
            claimed.setdefault(frozenset(peek(dict.get(c, "between") or [])), i)
    repeats = []
    for i in changed:
        c = connections[i]
        pair = frozenset(peek(dict.get(c, "between") or []))
        j = claimed.get(pair)
        if j is None:
            claimed[pair] = i
        elif _basis_key(c) == _basis_key(connections[j]):
            repeats.append(i)
        else:
            a, b = peek(dict.get(c, "between"))
            return (f"map connections[{i}] joins {a} and {b}, already connected by connections[{j}] on another "
                    "basis (Rules 25, 39, 76)"), []
    return "", repeats


def _drop_repeated_connections(ctx: Ctx, scratch: Ctx, ident: int, repeated: list[int]) -> None:
    """Drop the connections ``_repeated_connections`` found saying again what the map says, a step each."""
    drop = set(repeated)
    kept = []
    for i, c in enumerate(peek(scratch.doc("map")["connections"])):
        if i in drop:
            ctx.step({"proposal": ident, "connection_exists": list(peek(dict.get(c, "between"))), "rule": "r25"})
        else:
            kept.append(c)
    scratch.edit("map")["connections"] = kept


def _drop_connections_of_gone_rooms(ctx: Ctx, scratch: Ctx, ident: int) -> None:
    """A connection joins two rooms (ifMUD seed, Rules 25 and 39): when the effects take a room off the map (remove
    it, or rename it, which the rules read as a room vanishing), its connections go with it, as when the bubble
    bursts (Rule 29, ``world.remove_room``), instead of staying on the map leading nowhere."""
    gone = set(w.room_names(ctx)) - set(w.room_names(scratch))
    if not gone:
        return
    kept = []
    for c in peek(scratch.doc("map")["connections"]):
        ends = dict.get(c, "between") or []
        if any(e in gone for e in ends):
            ctx.step({"proposal": ident, "connection_deleted": list(ends), "rule": "r25"})
        else:
            kept.append(c)
    if len(kept) != len(scratch.doc("map")["connections"]):
        scratch.edit("map")["connections"] = kept


def _quest_rooms_off_map(ctx: Ctx, scratch: Ctx) -> str:
    """Rule 139 gives a quest three rooms *on the map*. Each room a quest the effects add or change names is read as
    a room named in an action's parameters is (``world.resolve_room``: the name in any case, or a synonym, Rule 72,
    as the map and the table stand after the effects) and written with the map's spelling, so the quest matches
    where players are (Rule 141) and is not taken for one whose room vanished (Rule 151). The first such room that
    names no room on the map is said in words ("" if none): then none of the effects can be made. A quest the
    effects leave alone keeps its rooms as they are (a room the effects remove ends it, Rule 151)."""
    was = {dict.get(q, "id"): q for q in peek(ctx.doc("quests")["quests"])}
    fields = ("home", "locate", "goal")
    for i, q in enumerate(peek(scratch.doc("quests")["quests"])):
        old = was.get(dict.get(q, "id"))
        for k in fields:
            given = dict.get(q, k)
            if old is not None and dict.get(old, k) == given:
                continue
            name = w.resolve_room(scratch, given) if isinstance(given, str) else None
            if name is None:
                label = dict.get(q, "name") or dict.get(q, "colour") or dict.get(q, "id")
                return f"quest {label}'s {k}, {given}, is not a room on the map"
            if name != given:
                scratch.edit("quests")["quests"][i][k] = name
    return ""


def _quest_rooms_repeated(state: Any) -> str:
    """The first quest on the roster whose home, locate and goal are not three different rooms, said in words
    ("" if none is): Rule 139 gives every quest three different rooms."""
    for q in peek(state.doc("quests")["quests"]):
        rooms = [dict.get(q, k) for k in ("home", "locate", "goal")]
        if len({str(r).casefold() for r in rooms}) < 3:
            label = dict.get(q, "name") or dict.get(q, "colour") or dict.get(q, "id")
            return (f"quest {label} would have home {rooms[0]}, locate {rooms[1]} and goal {rooms[2]}, "
                    "not three different rooms")
    return ""


_MOVER = ("moved_by", "moved_at")  # the monkey's record of its last change of location (Rule 90)
_TOKEN_RECORD = ("since", "moved_by", "barred")  # what a token's change of location writes (world.py)


def _places(ctx: Ctx) -> dict[str, Any]:
    """Where everything is before a proposal's effects are applied, with the records a change of location
    writes: players' locations, servants' by owner, the entities (monkey, pieman ...) and the tokens by id
    (shallow copies, read raw: the effects replace what they change, they never write into these)."""
    ent = ctx.doc("entities")
    return {
        "players": w.locations(ctx),
        "servants": {dict.__getitem__(s, "owner"): dict.__getitem__(s, "location") for s in peek(ent["servants"])},
        "entities": {k: dict(e) for k in w.ENTITIES if isinstance(e := dict.get(ent, k), dict)},
        "tokens": {dict.__getitem__(t, "id"): dict(t) for t in peek(w.tokens(ctx))},
        "last_cigar": dict.get(ctx.doc("tokens"), "last_cigar"),
    }


def _kept(now: dict[str, Any], was: dict[str, Any], fields: tuple[str, ...]) -> set[str]:
    """The fields the proposal's effects wrote themselves: present or absent, or valued, otherwise than before."""
    missing = object()
    return {f for f in fields if now.get(f, missing) != was.get(f, missing)}


def _moved_by_patch(ctx: Ctx, ident: int, before: dict[str, Any]) -> None:
    """Whatever the proposal's effects relocated gets what the rules attach to that change of location, as if
    the ``world.set_..._location`` of its kind had made it; taking effect is no player's action, so nothing is
    set off (Rule 118's pie bomb needs an action) and Rule 90 blames nobody for it (see ``_tokens_by_patch``).
    Tokens, servants and the entities first; then the players (``_players_by_patch``), whose entries may burst
    the bubble and carry things on from there."""
    how = f"proposal {ident}"
    _tokens_by_patch(ctx, how, before["tokens"], before["last_cigar"])
    ent = ctx.doc("entities")
    rooms = set(w.room_names(ctx))
    for s in list(peek(ent["servants"])):
        owner, dest = dict.__getitem__(s, "owner"), dict.__getitem__(s, "location")
        old = before["servants"].get(owner, dest)
        if dest != old and dest in rooms:  # a servant put in no room is sent on by Rule 52 (consequences.rehome)
            w.servant_location_changed(ctx, owner, old, dest, how=how, by_action=False)
    for which, was in before["entities"].items():
        e = dict.get(ctx.doc("entities"), which)
        if not isinstance(e, dict) or e.get("location") == was.get("location") or e.get("location") not in rooms:
            continue  # unmoved, gone, or put in no room (then moved on by Rule 53)
        w.entity_location_changed(ctx, which, was.get("location"), e["location"], how=how,
                                  kept=_kept(e, was, _MOVER))
    _players_by_patch(ctx, ident, before["players"])


def _tokens_by_patch(ctx: Ctx, how: str, before: dict[Any, dict[str, Any]], last_cigar: Any = None) -> None:
    """Tokens the effects added, removed or relocated (Rule 54 lets unanimous agreement do all three).

    * Rule 100: a token the effects put on the monkey while it carries another (one it carried before, or the
      first of those put on it, in the list's order) is a second token set on it by no direct action, so its
      location is the monkey's room instead.
    * A relocated token gets ``world.token_location_changed``: its stay in a room starts now (Rule 70's clock,
      Rule 101's recharge), a bar ends if another player or servant now has it (Rules 112, 145). Rule 90's last
      mover is cleared: the change was made by unanimous consent, which Rule 42 calls a non-individual action,
      so no single player caused it, and the player who placed it before did not cause this, the latest change.
      Fields the effects wrote themselves (``since``, ``moved_by``, ``barred``) are kept as written. A token put
      where nothing is (no such room, player or servant) only loses its last mover: Rule 49 sends it to the Attic.
    * A token the effects added (or left without ``since``) has been where it is since now, unless they say
      otherwise (a time bomb's deadline reads it): ``_take_effect`` writes that before the schema check.
    * Rule 149: the Bottle Imp's Puissance follows it from player to player, also when it is added in a
      player's hands or removed from them (Rule 137 then trims gifts beyond Puissance, consequences.py).
    * Rule 152: an esploding cigar the effects remove is the cigar to have most recently existed, so it becomes
      ``tokens.last_cigar`` (as one that esplodes does, ``world.remove_token``), unless the effects wrote
      ``last_cigar`` themselves (``last_cigar``: as it was before them)."""
    monkey_room = w.entity_location(ctx, "monkey")
    on_monkey = {"monkey": True}
    held = [t for t in peek(w.tokens(ctx)) if dict.__getitem__(t, "location") == on_monkey]
    if len(held) > 1 and not w.repealed(ctx, "r100"):  # (seed 002 Rule 100 repealed: the monkey keeps them all)
        stays = [t for t in held if before.get(dict.__getitem__(t, "id"), {}).get("location") == on_monkey][:1]
        stays = stays or held[:1]
        for t in held:
            if t is not stays[0]:
                w.edit_token(ctx, dict.__getitem__(t, "id"))["location"] = {"room": monkey_room}
                ctx.step({"token": dict.__getitem__(t, "id"), "to": monkey_room,
                          "why": "Rule 100: the monkey already carries a token"})
    names, players = set(w.room_names(ctx)), set(w.player_names(ctx))
    now_ids = set()
    for t in list(peek(w.tokens(ctx))):
        ident = dict.__getitem__(t, "id")
        now_ids.add(ident)
        was = before.get(ident)
        loc = dict.__getitem__(t, "location")
        if was is None:
            ctx.step({"token": ident, "created": dict.__getitem__(t, "name"), "at": loc, "how": how})
            w.imp_passed(ctx, None, w.imp_holder(ctx, t))
            continue
        if loc != was.get("location"):
            edited = w.edit_token(ctx, ident)
            kept = _kept(edited, was, _TOKEN_RECORD)
            kind, who = w.carrier(loc)
            exists = who in names if kind == "room" else who in players if kind in ("player", "servant") else True
            ctx.step({"token": ident, "from": was.get("location"), "to": loc, "how": how})
            if exists:
                w.token_location_changed(ctx, edited, was.get("location"), kept=kept)
            elif "moved_by" not in kept:
                edited.pop("moved_by", None)
        if was.get("role") == "imp" or dict.get(t, "role") == "imp":  # (``t``'s location is as it stands)
            w.imp_passed(ctx, w.imp_holder(ctx, was), w.imp_holder(ctx, t))
    for ident, was in before.items():
        if ident not in now_ids:
            if _spared(ctx, ident, was, how):
                continue
            ctx.step({"token": ident, "removed": how})
            w.imp_passed(ctx, w.imp_holder(ctx, was), None)
            if was.get("role") == "cigar" and dict.get(ctx.doc("tokens"), "last_cigar") == last_cigar:
                ctx.edit("tokens")["last_cigar"] = w.cigar_record(was)
                ctx.step({"last_cigar": ident, "rule": "r152"})


def _spared(ctx: Ctx, ident: Any, was: dict[str, Any], how: str) -> bool:
    """ifMUD seed, Rule 154: a protected token the rules require to be removed goes to the Jaws of Death instead,
    unless it was there already. A ratified proposal takes effect because Rule 10 says it must, so a removal in its
    effects is one the rules require: the token (as it was before the effects) is put back, in the Jaws of Death,
    a change of location made by no single player (``token_location_changed`` with nobody for its mover, as for a
    token the effects relocate). With no Jaws of Death on the map it goes to the room alphabetically first on the
    map the effects leave (Rule 69), as ``world.remove_token`` sends it (``world.spared_to``)."""
    jaws = w.spared_to(ctx, was)
    if jaws is None:
        return False
    ts = ctx.edit("tokens")["tokens"]
    at = next((i for i, t in enumerate(peek(ts)) if dict.__getitem__(t, "id") > ident), len(ts))
    ts.insert(at, {**copy.deepcopy(was), "location": {"room": jaws}})
    t = w.edit_token(ctx, ident)
    w.token_location_changed(ctx, t, was.get("location"))
    ctx.step({"token": ident, "to": jaws, "why": f"protected (Rule 154): {how} removed it"})
    w.imp_passed(ctx, w.imp_holder(ctx, was), None)
    return True


def _players_by_patch(ctx: Ctx, ident: int, before: dict[str, Any]) -> None:
    """The players whose location the proposal's effects changed get what the rules attach to a change of
    location, as if ``world.set_player_location`` had made it: Rule 99's points, Rule 43's tolls (an entry "by
    other means described in the rules": Rule 20's unanimous consent is one), Rule 98's arrival and Rule 29's
    bubble. Not Rule 118's pie bomb: taking effect is no player's action (``by_action=False``). Only players
    who were players before and whose new location is a room: a player the effects added starts where they
    are put (Rule 14), and one put in no room is moved on by Rule 53 (``consequences.rehome``), which is the
    change that counts, so it is not counted twice. Players in roster order (it matters only for the bubble, whose
    burst may move the later ones on first: then that move is the one counted)."""
    now = w.locations(ctx)
    for who in dict.fromkeys(w.player_names(ctx)):
        dest = now[who]
        if who not in before or dest == before[who] or w.room(ctx, dest) is None:
            continue
        if w.location_of_player(ctx, who) != dest:
            continue  # an earlier one's entry burst the bubble with them in it: that move was counted (Rule 29)
        w.location_changed(ctx, who, before[who], dest, how=f"proposal {ident} (Rules 20, 99)", by_action=False)


def _expire(ctx: Ctx, ident: int, at: datetime) -> None:
    p = _edit_proposal(ctx, ident)
    p["status"] = "dead"
    p["closed"] = {"at": format_time(at), "result": "expired after two weeks (Rule 128)",
                   "votes": standing(ctx, p, at)}
    ctx.step({"proposal": ident, "result": "expired"})


Deadline = tuple[datetime, str, Callable[[Ctx, datetime], None]]


def deadlines(ctx: Ctx) -> list[Deadline]:
    kept = w._as_started(ctx, "consent", "proposals")
    if kept is not None:  # the proposals as the action started: worked out once for them
        return ch.derived("proposal deadlines", kept, _kept_deadlines)
    return _deadlines(peek(proposals(ctx)))


def _take_effect_at(ident: int) -> Callable[[Ctx, datetime], None]:
    return lambda c, at: _take_effect(c, ident, at)


def _expire_at(ident: int) -> Callable[[Ctx, datetime], None]:
    @ruled("r128")  # seed 002 Rule 128: two weeks pending kills a proposal
    def expire(c: Ctx, at: datetime) -> None:
        _expire(c, ident, at)

    return expire


def _deadline(p: dict[str, Any]) -> Deadline | None:
    """A proposal's deadline, if it has one (read without copying: nothing here is changed)."""
    status = _item(p, "status")
    if status == "ratifying":
        return (parse_time(_item(_item(p, "closed"), "effective")), f"proposal {_item(p, 'id'):08d}",
                _take_effect_at(_item(p, "id")))
    if status == "pending":
        return (parse_time(_item(p, "posted")) + EXPIRES_AFTER, f"proposal {_item(p, 'id'):08d}",
                _expire_at(_item(p, "id")))
    return None


def _deadlines(ps: Iterable[dict[str, Any]]) -> list[Deadline]:
    return [d for d in map(_deadline, ps) if d is not None]


_deadline_of_kept = ch.PerItem(_deadline)  # a vote replaces one proposal: the others' deadlines are known


def _kept_deadlines(ps: list[dict[str, Any]]) -> list[Deadline]:
    """``_deadlines`` of the proposals as an action started (the previous state's own, never changed)."""
    return [d for d in _deadline_of_kept.many(ps) if d is not None]


# ---------------------------------------------------------------- the Passive Voters list


def _pv(add: bool):
    def check(ctx: Ctx) -> Iterator[str]:
        on = ctx.actor in (ctx.doc("consent").get("passive_voters") or [])
        if add and on:
            yield f"{ctx.actor} is already a passive voter"
        if not add and not on:
            yield f"{ctx.actor} is not a passive voter"

    def effect(ctx: Ctx) -> None:
        lst = ctx.edit("consent").setdefault("passive_voters", [])
        lst.append(ctx.actor) if add else lst.remove(ctx.actor)
        ctx.step({"passive_voters": list(lst)})

    return check, effect


ACTIONS = [
    PROPOSE, VOTE, DECLARE_DEAD, RATIFY,
    Action(name="ifmud.passive-voter", rule="r32", summary="Join the Passive Voters list",
           check=_pv(True)[0], effect=_pv(True)[1], who=PLAYER,
           doc="A passive voter votes aye on every proposal the moment it is posted, and may change it (Rule 31)."),
    Action(name="ifmud.active-voter", rule="r32", summary="Leave the Passive Voters list",
           check=_pv(False)[0], effect=_pv(False)[1], who=PLAYER,
           doc="Later proposals no longer get an implicit aye from this player (Rule 32)."),
]
