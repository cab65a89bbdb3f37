"""Proposals: standard and urgent, votes, popularity, taking effect ("Proposals", "Lifecycle",
"Standard Proposals", "Urgent Proposals", "Changes", "Textual Changes", "Location Change Cards",
"Proposal Points").

A proposal is a list of changes. A textual change carries its words and,
for the engine, machine-readable effects (rule edits and a gamestate patch);
a location change card names a location by its coordinates and gives any of
its properties, special tags included. When a proposal takes effect its
changes are applied in order, as one instant: if one cannot be applied,
none is, and the proposal is recorded as failed with the reason.

Votes are the thumbs-up and thumbs-down reactions: a vote counts if it
stands at the end of the voting period. A proposal is resolved at the very
end of its voting period, whether or not anyone acts: a standard one by the
phase-start event (its period is a phase), an urgent one ending mid-phase by
the event ``cycle12.urgent-proposal-ends``, due at its end. ``cycle12.resolve``
after the end finds it resolved already and says how.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

from ...effects import apply_effects
from ...engine import ANYONE, Action, Ctx, Event, Remembered, State, Tx, peek, repealed
from ...problems import Illegal, Problem
from ...roster import change_stat
from ...schemas import not_blank, vote_words
from ...timeutil import parse_time
from . import items, justice, nomsters, phases, ruletree, world
from .common import (
    CYCLE,
    PROPOSALS,
    Kept,
    find_by,
    first_after,
    found_for_edit,
    is_reputable,
    iso,
    member_since,
    opts,
    phase_of,
    start,
)
from .options import OPTIONS_SCHEMA

RULE_PROPOSALS = "proposals"
RULE_LIFECYCLE = "lifecycle"
RULE_STANDARD = "standard-proposals"
RULE_URGENT = "urgent-proposals"
RULE_POINTS = "proposal-points"
RULE_TIME = "time"  # the rule whose event begins the phases (cycle.PHASE_BEGINS)

# seed 004 Rules, Changes: a proposal may amend a rule, numbers included. The numbers and readings the module plays
# by are the game's options (options.py), so a textual change that amends one says the option's new value
# (`options`); every option but the cycle's start, which fixes the phases' numbering
AMENDABLE = {k: v for k, v in OPTIONS_SCHEMA["properties"].items() if k != "start"}

CHANGE = {
    "type": "object",
    "required": ["kind"],
    "properties": {
        "kind": {"enum": ["textual", "location-card"]},
        "text": not_blank({"type": "string", "maxLength": 20000}, empty_ok=True),
        "effects": {"$ref": "common.schema.json#/$defs/effects"},
        "options": {"type": "object", "properties": AMENDABLE, "additionalProperties": False, "minProperties": 1},
        # the map's coordinates, as a location's (schemas/cycle12_world.schema.json) and as the proposals file keeps
        # them: a card beyond was refused only when the file was written, as an invalid file, not at the field
        "x": {"type": "integer", "minimum": -1000, "maximum": 1000},
        "y": {"type": "integer", "minimum": -1000, "maximum": 1000},
        "name": not_blank({"type": "string", "maxLength": 80}),
        "description": {"type": "string", "maxLength": 2000},
        "tags": {"type": "array", "maxItems": 20, "items": {"type": "string", "maxLength": 60}},
        "tile": {"type": "string", "maxLength": 300},
    },
    "additionalProperties": False,
}


def voting_end(state: Any, p: dict[str, Any]) -> datetime:
    """Standard: the end of the first phase after submission. Urgent: two days after submission."""
    submitted = parse_time(p["submitted"])
    if p["class"] == "urgent":
        return submitted + timedelta(days=opts(state)["urgent_days"])
    n = phase_of(state, submitted)
    return phases.phase_bounds(n + 1, start(state))[1]


def period_over(state: Any, p: dict[str, Any], at: datetime) -> bool:
    """Whether proposal ``p``'s voting period has ended by ``at``. A standard proposal's period is a phase (004
    Standard Proposals), and with 004 Time repealed no phase ends: its period does not end, however late, so it
    still takes votes and is not resolved (by the phase-start event, which cites Time, nor by hand). An urgent one's
    two days do not depend on phases."""
    if at < parse_time(p["ends"]):
        return False
    return not (p["class"] == "standard" and repealed(state, RULE_TIME) is not None)


def voting_start(state: Any, p: dict[str, Any]) -> datetime:
    submitted = parse_time(p["submitted"])
    if p["class"] == "urgent":
        return submitted
    return phases.phase_bounds(phase_of(state, submitted) + 1, start(state))[0]


def tally(state: Any, p: dict[str, Any]) -> tuple[int, int]:
    """(for, against) among players still playing."""
    players = {x["name"] for x in peek(state.doc("roster")["players"])}
    votes = [v for n, v in p.get("votes", {}).items() if n in players]
    return sum(1 for v in votes if v == "for"), sum(1 for v in votes if v == "against")


def popular(state: Any, p: dict[str, Any]) -> bool:
    f, a = tally(state, p)
    if p["class"] == "urgent":
        return a <= opts(state)["urgent_max_against"]
    return f > a


# ---------------------------------------------------------------- submitting and voting


# seed 004: a proposal's class is defined by its own rule (Standard Proposals, Urgent Proposals: its voting period
# and when it is popular), and a location change card by Location Change Cards; repealed, no proposal is submitted
# in that class or with such a card (a proposal already submitted keeps the class and changes it had)
_CLASS_RULES = {"standard": RULE_STANDARD, "urgent": RULE_URGENT}
_CHANGE_RULES = {"location-card": "location-change-cards"}


def _propose_check(ctx: Ctx) -> Iterator[str | Problem]:
    cls = ctx.params.get("class", "standard")
    gone = repealed(ctx, _CLASS_RULES.get(cls, ""))
    if gone is not None:
        yield Problem(f"the rule that makes {cls} proposals, {gone.cite()}, has been "
                      "repealed", rule=gone.id)
        return
    if cls == "urgent" and not is_reputable(ctx, ctx.actor, ctx.at):
        # the condition is 004 Urgent Proposals', so the refusal cites it (Proposals only says how one is made)
        yield Problem(f"{ctx.actor} is not reputable; only reputable players may submit urgent proposals",
                      rule=RULE_URGENT)
    for i, c in enumerate(ctx.params.get("changes", [])):
        gone = repealed(ctx, _CHANGE_RULES.get(c["kind"], ""))
        if gone is not None:
            yield Problem(f"change {i + 1}: the rule that makes a {c['kind']} change, "
                          f"{gone.cite()}, has been repealed", rule=gone.id)
        if c["kind"] == "location-card" and ("x" not in c or "y" not in c):
            yield f"change {i + 1}: a location change card gives the coordinates of an existing location"
        if c["kind"] == "textual" and not (c.get("text") or c.get("effects") or c.get("options")):
            yield f"change {i + 1}: a textual change describes a modification"
        if c["kind"] != "textual" and "options" in c:
            # 004 Location Change Cards: such a card modifies a location's properties, not the game's numbers
            yield f"change {i + 1}: only a textual change amends the game's numbers (`options`); a {c['kind']} " \
                  "change modifies a location"


def _propose(ctx: Ctx) -> None:
    doc = ctx.edit(PROPOSALS)
    ident = doc["next"]
    doc["next"] = ident + 1
    p: dict[str, Any] = {"id": ident, "title": ctx.params.get("title") or f"Proposal {ident}",
                         "class": ctx.params.get("class", "standard"), "author": ctx.actor,
                         "submitted": iso(ctx.at), "status": "pending"}
    if ctx.params.get("card"):
        p["card"] = ctx.params["card"]
    p["changes"] = list(ctx.params.get("changes", []))
    p["ends"] = iso(voting_end(ctx, p))
    p["votes"] = {}
    doc["proposals"].append(p)
    ctx.step({"proposal": ident, "class": p["class"], "voting_ends": p["ends"]})


PROPOSE = Action(
    name="cycle12.propose",
    rule=RULE_PROPOSALS,
    summary="Submit a proposal (a list of changes), standard or urgent",
    params={"type": "object", "required": ["changes"], "additionalProperties": False,
            "properties": {"title": not_blank({"type": "string", "maxLength": 200,
                                               "description": "the proposal's title"}, empty_ok=True),
                           "class": {"enum": ["standard", "urgent"], "description": "standard (if left out) or urgent"},
                           "card": {"type": "string", "maxLength": 300,
                                    "description": "the path of the proposal's card image"},
                           "changes": {"type": "array", "minItems": 1, "maxItems": 50, "items": CHANGE,
                                       "description": "what it changes: textual changes and location changes"}}},
    check=_propose_check,
    effect=_propose,
    doc="Any player may propose; `class` defaults to standard. Only reputable players may submit urgent "
        "proposals. `changes` is a list of textual changes (`kind: textual`, `text`, `effects`) and location change "
        "cards (`kind: location-card`, `x`, `y` and any of `name`, `description`, `tags`, `tile`), like "
        "changes=\"[{kind: textual, text: ...}]\".",
)


PROPOSALS_BY_ID = Kept(lambda p: (p["id"],))


def _find(ctx: Ctx, ident: int, edit: bool = False) -> dict[str, Any]:
    if edit:
        listed, i = found_for_edit(ctx, PROPOSALS, "proposals", PROPOSALS_BY_ID, "id", ident)
    else:
        listed = ctx.doc(PROPOSALS)["proposals"]
        i = find_by(ctx, listed, PROPOSALS_BY_ID, "id", ident)
    if i >= 0:
        return listed[i]
    raise ctx.refuse(f"there is no proposal {ident}")


def _vote_ready(ctx: Ctx) -> Iterator[str]:
    """004 Lifecycle: reactions count only while a proposal's voting period runs. With none running, the check
    refuses every number (no such proposal, one resolved, or one whose period has ended)."""
    if not any(p["status"] == "pending" and not period_over(ctx, p, ctx.at)
               for p in peek(ctx.doc(PROPOSALS)["proposals"])):
        yield "no proposal's voting period is running"


def _vote_check(ctx: Ctx) -> Iterator[str]:
    p = _find(ctx, ctx.params["proposal"])
    if p["status"] != "pending":
        yield f"proposal {p['id']} is {p['status']}; its voting period is over"
    elif period_over(ctx, p, ctx.at):
        yield f"proposal {p['id']}'s voting period ended at {p['ends']}"


def _vote(ctx: Ctx) -> None:
    p = _find(ctx, ctx.params["proposal"], edit=True)
    p["votes"].pop(ctx.actor, None)
    if ctx.params["vote"] != "none":
        p["votes"][ctx.actor] = ctx.params["vote"]


VOTE = Action(
    name="cycle12.vote",
    rule=RULE_LIFECYCLE,
    summary="React thumbs-up (for) or thumbs-down (against) to a proposal, or withdraw the reaction",
    params={"type": "object", "required": ["proposal", "vote"], "additionalProperties": False,
            "properties": {"proposal": {"type": "integer", "minimum": 1,
                                        "description": "the number of the pending proposal"},
                           "vote": vote_words(["for", "against", "none"], yes="for", no="against",
                                              description="your vote (none takes it back); a later one replaces "
                                                          "it")}},
    check=_vote_check,
    ready=_vote_ready,
    effect=_vote,
    doc="The reactions standing at the end of the voting period are the votes; a later reaction replaces an "
        "earlier one. Voting closes when the voting period ends.",
)


_ENDED_AS = {"took-effect": "took effect", "failed": "failed", "not-popular": "was not popular enough",
             "not-taken-effect": "did not take effect"}  # a resolved proposal's status, said in a sentence


def _edit_ready(ctx: Ctx) -> Iterator[str]:
    """004 Lifecycle: only an author edits their proposal, and an edit matters only while it is pending. With no
    pending proposal of the actor's, the check refuses every number (none, another's, or no longer pending)."""
    if not any(p["status"] == "pending" and p["author"] == ctx.actor and member_since(ctx, ctx.actor, p["submitted"])
               for p in peek(ctx.doc(PROPOSALS)["proposals"])):
        yield "no proposal of yours is pending"


def _edit_check(ctx: Ctx) -> Iterator[str]:
    p = _find(ctx, ctx.params["proposal"])
    if p["author"] != ctx.actor:
        yield f"only {p['author']} can edit or delete the message of proposal {p['id']}"
    elif not member_since(ctx, ctx.actor, p["submitted"]):
        # the author is the player who made it; one of that name who joined after it was submitted is a newcomer,
        # not its author, who left the game (our reading: a newcomer of a departed player's name is someone else)
        yield f"proposal {p['id']} was made by the {p['author']} who left the game, before {ctx.actor} joined; " \
              "only its author can edit or delete its message"
    elif p["status"] != "pending":
        yield f"proposal {p['id']} is no longer pending: it {_ENDED_AS.get(p['status'], p['status'])}"


def _edit(ctx: Ctx) -> None:
    p = _find(ctx, ctx.params["proposal"], edit=True)
    p["edited"] = iso(ctx.at)
    ctx.step({"proposal": p["id"], "edited": True, "note": "an edited or deleted proposal does not take effect"})


EDIT = Action(
    name="cycle12.edit-proposal",
    rule=RULE_LIFECYCLE,
    summary="Record that the message or a card of your proposal was edited or deleted",
    params={"type": "object", "required": ["proposal"], "additionalProperties": False,
            "properties": {"proposal": {"type": "integer", "minimum": 1,
                                        "description": "the number of the pending proposal"}}},
    check=_edit_check,
    ready=_edit_ready,
    effect=_edit,
    doc="A proposal whose message or cards were edited or deleted does not take effect at the end of its "
        "voting period, however popular.",
)


# ---------------------------------------------------------------- taking effect


def apply_changes(ctx: Ctx, p: dict[str, Any]) -> None:
    """Each change in sequence; raises ValueError naming the change that cannot be applied."""
    for i, change in enumerate(p.get("changes", []), 1):
        try:
            if change["kind"] == "textual":
                patch = (change.get("effects") or {}).get("gamestate")
                before = world.located(ctx) if patch else None
                origin = world.origin_id(ctx) if patch else None
                ids = world.location_ids(ctx) if patch else None
                apply_effects(ctx, change.get("effects"), f"proposal {p['id']}", RULE_PROPOSALS)
                if change.get("options"):
                    days = opts(ctx)["urgent_days"]
                    amend_options(ctx, change["options"])
                    if opts(ctx)["urgent_days"] != days:
                        # 004 Rules, Urgent Proposals: the period the amended rule defines is every pending one's
                        follow_urgent_days(ctx, p["id"], days)
                if ids is not None:
                    # 004 Position Constraints: a location the patch created is placed as one created by an action
                    world.placed_where_allowed(ctx, ids)
                if before is not None:
                    # 004 Follow: an entity the patch moves has changed location, as by a move
                    world.follow_direct_moves(ctx, before)
                    # 004 Located Entities: a location the patch put at (0, 0) is where players at no location are
                    world.place_newcomers_if_new(ctx, origin)
            else:
                world.apply_location_card(ctx, change)
        except Illegal as e:
            raise ValueError(f"change {i}: {e.problems[0].message}") from None
        except ValueError as e:
            raise ValueError(f"change {i}: {e}") from None
    # 004 Judgement, Election (our reading): a change that takes the judge off the roster leaves no judge until
    # the next election; done here, before the changes are checked, so the departure itself is not refused
    gone = justice.judge_left(ctx)
    if gone is not None:
        ctx.step({"judge": gone, "left_the_game": True, "office": "empty until the next election"})
    # 004 Judgement: assents the changes made enough (recorded, or the number lowered) remove the judge
    justice.remove_if_assented(ctx)
    # 004 Terraforming, Surveying: an announcement the changes gave its reactions (or the number lowered) completes
    world.complete_if_reacted(ctx)
    # 004 Position Constraints: a claim on the first location the changes gave its reactions is created
    world.found_if_reacted(ctx)
    # 004 Items: an item the changes left with no owner (its player or nomster gone) is deleted, not refused
    items.delete_ownerless(ctx)
    # 004 Joining, Tracking: a newcomer the changes put in a departed player's place has a new sheet, not theirs
    from .players import lapse_departed, renew_replaced_sheets  # here: players reads transcription, which reads this

    renew_replaced_sheets(ctx)
    # 004 Teams, Nomster Bond (our reading): a player the changes took out of the game leaves no team and no bond
    nomsters.release_departed(ctx)
    # 004 Active Nomster, Lifecycle: an active nomster the changes took off its player's team lapses, not refused
    nomsters.lapse_active(ctx)
    # 004 Lifecycle, Election, Overturning, Taming, Lick: what a player who left had under way lapses with them, so a
    # newcomer of their name (our reading: someone else) inherits none of it
    lapse_departed(ctx)
    # 004 Join Team, Follow (our reading): a nomster the changes put on another team stops following
    nomsters.lapse_follows(ctx)
    # 004 Nomster Bond: a bond the changes made is the two's, and gives the player the nomster's type
    nomsters.follow_bonds(ctx)
    # 004 Active Nomster: a first taming the changes recorded makes that nomster the player's active nomster
    nomsters.activate_first_tamed(ctx)
    rules = ctx.tx.rules
    if rules is not None:
        ruletree.renumber(rules, opts(ctx)["separator"])


def follow_urgent_days(ctx: Ctx, resolving: int, was: int) -> None:
    """A change amending Urgent Proposals' number of days (``urgent_days``): every urgent proposal still pending
    but ``resolving`` (the proposal taking effect, whose period is over) ends that many days after its submission.
    004 Rules has the rules in effect apply continuously, and 004 Urgent Proposals defines the period as running from
    the submission to so many days later, so a pending proposal's period is the rule's as it now reads (as a vote of
    confidence's two days are read when they are asked). Only an end that is still the rule's (``was`` days after
    submission) follows: one a proposal's change set otherwise was decided by that change. An end the amendment puts
    in the past is over as the change takes effect: ``resolve_due`` resolves that proposal in the same instant, at
    its new end. Each moved end is a step of the outcome."""
    days = opts(ctx)["urgent_days"]
    moved = []
    for p in peek(ctx.doc(PROPOSALS)["proposals"]):
        # a record the changes left malformed is left out, for the check of the state they give to name it
        if not isinstance(p, dict) or p.get("id") == resolving or p.get("status") != "pending" \
                or p.get("class") != "urgent" or not isinstance(p.get("submitted"), str):
            continue
        try:
            submitted, ends = parse_time(p["submitted"]), parse_time(p["ends"])
        except (KeyError, TypeError, ValueError):
            continue
        if ends == submitted + timedelta(days=was):
            moved.append((p["id"], iso(submitted + timedelta(days=days)), p["ends"]))
    for ident, ends, before in moved:
        _find(ctx, ident, edit=True)["ends"] = ends
        ctx.step({"proposal": ident, "voting_ends": ends, "was": before, "because": f"urgent proposals now vote "
                  f"{days} days"})


def amend_options(ctx: Ctx, values: dict[str, Any]) -> None:
    """A textual change amending a rule's number or reading (004 Rules, Textual Changes): the game's options take
    the new values in the same instant as the change's other modifications, and game.yaml is written with them."""
    config = ctx.tx.edit_config()
    every = dict(config.get("options") or {})
    every["cycle12"] = {**(every.get("cycle12") or {}), **values}
    config["options"] = every
    ctx.step({"options": dict(values)})


def _in_sandbox(ctx: Ctx, fn: Any, steps: list[Any] | None = None) -> str | None:
    """Run ``fn`` on a copy of the transaction; keep its changes only if it succeeds, and then add the steps of
    its outcome to ``steps`` (what the changes did beyond what they say: a follow, an announcement failing)."""
    inner = Ctx(ctx.state, ctx.action, ctx.record, ctx.at, ctx.registry, ctx.dice)
    try:
        fn(inner)
    except (ValueError, Illegal) as e:
        return str(e) if isinstance(e, ValueError) else e.problems[0].message
    # the state the changes give, as plain data (what they did not change is shared, not copied)
    after = inner.tx.commit()
    changed = {kind: after.docs[kind] for kind in inner.tx.docs}
    why = _left_broken(ctx, after, changed)
    if why:
        return why
    # kept as documents this transaction edits, copy on write: what it changes next is copied first,
    # so the plain data above (and the states it shares with) is never written
    kept = Tx(after)
    for kind in changed:
        ctx.tx.docs[kind] = kept.edit(kind)
    if inner.tx.rules is not None:
        ctx.tx.rules = inner.tx.rules
    if inner.tx.config is not None:
        ctx.tx.config = inner.tx.config
    if steps is not None:
        steps += inner.outcome
    return None


def _left_broken(before: Ctx, after: State, changed: dict[str, Any]) -> str | None:
    """Why the changes would leave the gamestate unreadable or breaking the rules' invariants, or None.

    ``after``: the state with the changes; ``changed``: the documents they edited.

    Only what the changes can have broken is looked at: the invariants that read a document (or the rules)
    the changes edited, since every other one finds in ``after`` what it finds before them (the very same
    documents), which is not new; and in a changed document, only the items that are not those of a
    document found valid before (see ``_schema_errors``).
    """
    from . import _invariants

    for kind, data in changed.items():
        known = before.registry.docs.get(kind)
        schema = known.schema if known else f"{kind}.schema.json"
        errors = _schema_errors(data, schema, kind)
        if errors:
            return f"the changes would leave {kind} invalid: {errors[0].field}: {errors[0].message}"[:200]
    touched = None if after.config is not before.config else \
        frozenset((*changed, *(("rules",) if after.rules is not before.state.rules else ())))
    after_problems = list(_invariants(after, touched=touched))
    old = {p.message for p in _invariants(before.state)} if after_problems else set()  # only to compare
    new = [p for p in after_problems if p.message not in old]
    if new:
        return f"the changes would break the gamestate: {new[0].message}"[:200]
    return None


# ---------------------------------------------------------------- validating only what changed
#
# A gamestate document is mostly lists of records (locations, suggestions, players, items ...), and its
# schema checks each record of such a list by itself ("items", and nothing about the list as a whole).
# Then the document is valid exactly when the document with only some records of those lists is valid
# and so is every record left out: a record of a document found valid before (the very same object: a
# state's data is never changed once made) is valid. So a changed document is checked with only its
# new and changed records in those lists; when that finds a problem, the whole document is checked
# again, so the problems reported are those of the whole document, as before.

_ARRAY_KEYS = frozenset(("type", "items", "title", "description", "$comment"))
_OBJECT_KEYS = frozenset(("$schema", "title", "description", "$comment", "$defs", "type", "required",
                          "properties", "additionalProperties"))
_ITEMWISE: dict[str, tuple[str, ...]] = {}  # schema file -> the properties that are lists checked record by record
_VALID: dict[str, tuple[Any, dict[str, list[Any]]]] = {}  # schema file -> (document, its lists) found valid


def _itemwise(schema: str) -> tuple[str, ...]:
    """The top-level properties of ``schema`` whose value is checked record by record, and only so."""
    if schema not in _ITEMWISE:
        import json

        from ... import schemas

        fields: tuple[str, ...] = ()
        try:
            tree = json.loads((schemas.SCHEMA_DIR / schema).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            tree = None
        if isinstance(tree, dict) and tree.get("type") == "object" and _OBJECT_KEYS.issuperset(tree) \
                and isinstance(tree.get("properties", {}), dict):
            fields = tuple(k for k, sub in tree.get("properties", {}).items()
                           if isinstance(sub, dict) and _ARRAY_KEYS.issuperset(sub) and sub.get("type") == "array"
                           and isinstance(sub.get("items"), dict))
        _ITEMWISE[schema] = fields
    return _ITEMWISE[schema]


def _schema_errors(data: Any, schema: str, kind: str) -> list[Any]:
    """``schemas.errors(data, schema=schema, file=kind)``, checking only the records that are not those of a
    document of this schema found valid before."""
    from ... import schemas
    from .common import _changed

    fields = _itemwise(schema)
    known = _VALID.get(schema)
    if fields and known is not None and type(data) is dict:
        probe, valid_lists = dict(data), known[1]
        for field in fields:
            items, valid = data.get(field), valid_lists.get(field)
            if type(items) is list and valid is not None:
                if len(items) >= len(valid):
                    fresh = [items[i] for i in _changed(valid, items)] + items[len(valid):]
                else:
                    seen = set(map(id, valid))
                    fresh = [x for x in items if id(x) not in seen]
                probe[field] = fresh
        if schemas.errors(probe, schema=schema, file=kind):
            return schemas.errors(data, schema=schema, file=kind)
    else:
        errors = schemas.errors(data, schema=schema, file=kind)
        if errors:
            return errors
    if fields and type(data) is dict:
        lists = {f: data[f] for f in fields if type(data.get(f)) is list}
        _VALID[schema] = (data, lists)  # the document is kept too: its lists are its own, never changed
    return []


def resolve(ctx: Ctx, ident: int) -> dict[str, Any]:
    """At the end of the voting period: take effect if popular and unedited."""
    doc = ctx.edit(PROPOSALS)
    p = doc["proposals"][next(i for i, x in enumerate(peek(doc["proposals"])) if x["id"] == ident)]
    f, a = tally(ctx, p)
    ends = parse_time(p["ends"])
    changed: list[Any] = []  # the steps of the changes taking effect, told after the result
    # Lifecycle: whether it was edited is judged at the end of the voting period; an edit recorded after the
    # end (an urgent proposal ending mid-phase is often recorded later) does not undo it
    if p.get("edited") and parse_time(p["edited"]) < ends:
        result, reason = "not-taken-effect", "its message or a card was edited or deleted"
    elif not popular(ctx, p):
        result = "not-popular"
        reason = (f"{a} against: more than {opts(ctx)['urgent_max_against']}" if p["class"] == "urgent"
                  else f"{f} for, {a} against: not more for than against")
    else:
        snapshot = dict(p)
        why = _in_sandbox(ctx, lambda inner: apply_changes(inner, snapshot), changed)
        if why:
            result, reason = "failed", f"a change could not be applied: {why}"[:200]
        else:
            result, reason = "took-effect", (f"{f} for, {a} against" if p["class"] == "standard"
                                             else f"{a} against, no more than {opts(ctx)['urgent_max_against']}")
    entry = {"proposal": ident, "result": result, "for": f, "against": a}
    doc = ctx.edit(PROPOSALS)
    i = next((i for i, x in enumerate(peek(doc["proposals"])) if x["id"] == ident), -1)
    if i >= 0:
        p = doc["proposals"][i]
        p["status"] = result
        p["resolved"] = {"at": iso(ends), "result": result, "reason": reason, "for": f, "against": a}
    else:
        # 004 Lifecycle: a popular proposal takes effect, whatever its changes; when they removed its own record
        # (by itself, or by emptying the list) it has still taken effect, and only this step says so (our reading,
        # as the core's enactment and ifMUD's ratification do)
        entry["record"] = "removed by its own changes"
    if result == "took-effect":
        entry.update(award_proposal_point(ctx, p["author"], ends, p.get("submitted")))
    ctx.step(entry)
    for step in changed:
        ctx.step(step)
    return p


def award_proposal_point(ctx: Ctx, author: str, ends: datetime, submitted: Any = None) -> dict[str, Any]:
    """Proposal Points: one point, at most five a phase from this rule, to the player that created the proposal."""
    from .common import edit_sheet, sheet

    o = opts(ctx)
    # seed 004 "Proposal Points" is the rule paying the point; repealed (by this very proposal too), none is paid
    player = ctx.player(author)
    if player is None or sheet(ctx, author) is None or repealed(ctx, RULE_POINTS):
        return {"points": 0}
    # the player that created it: a player of that name who joined after it was submitted is a newcomer, not its
    # author, who left the game (our reading: a newcomer of a departed player's name is someone else)
    if isinstance(submitted, str) and not member_since(ctx, author, submitted):
        return {"points": 0}
    phase = phase_of(ctx, ends - timedelta(seconds=1))
    s = edit_sheet(ctx, author)
    got = s.setdefault("proposal_points", {})
    key = phases.phase_name(phase) if phase else "before"
    already = int(got.get(key, 0))
    gain = max(0, min(o["proposal_points"], o["proposal_points_per_phase"] - already))
    if gain:
        change_stat(ctx, author, "gooderhose", gain, rule=RULE_POINTS)
        # every phase's count is kept (at most one per phase of the cycle): a proposal whose end another proposal
        # moved into an earlier phase is counted there, and the five of that phase must still be known
        got[key] = already + gain
    return {"points": gain, "author": author}


def resolve_due(ctx: Ctx) -> None:
    """Resolve every pending proposal whose voting period has ended by now, oldest end first.

    One at a time, looking again after each: a proposal's change may move another's end to a moment already
    past, and that one's period is then over as the change takes effect (Lifecycle), so it is resolved too.
    """
    while True:
        # 004 Lifecycle is the rule that makes a popular proposal take effect at the end of its period; repealed
        # (by the proposal resolved just before, too), no rule resolves one: they stay pending, a proposal enacting
        # it again among them (docs/modules/cycle12.md, "When a rule is repealed")
        if repealed(ctx, RULE_LIFECYCLE):
            return
        # read only: the ids. With Time repealed a standard proposal's period does not end (``period_over``), so an
        # urgent proposal's end resolves no standard one with it
        due = [p for p in peek(ctx.doc(PROPOSALS)["proposals"])
               if p["status"] == "pending" and period_over(ctx, p, ctx.at)]
        if not due:
            return
        resolve(ctx, min(due, key=lambda x: (parse_time(x["ends"]), x["id"]))["id"])


# ---------------------------------------------------------------- an urgent proposal's end, as it comes
#
# Seed 004, Lifecycle: a proposal takes effect at the end of its voting period; Urgent Proposals: that end is
# two days after submission, most often in the middle of a phase. So the end is an event read from the
# gamestate (``Event.next_due``): every action after it sees the proposal's effect, as the rule has it,
# without waiting for anyone to record it or for the next phase. An end that falls on a phase start is left
# to the phase-start event, which resolves every proposal due then (so nothing fires twice).

_URGENT = Remembered(16)  # a state's proposals list -> the ends of its pending urgent proposals (sorted): all, and
# those that are not phase starts


def _urgent_ends(items: list[dict[str, Any]], at_phase_starts: bool = False) -> tuple[datetime, ...]:
    """The ends of the pending urgent proposals of ``items`` in order: those that are not phase starts, or with
    ``at_phase_starts`` all of them.

    Asked before every action, so remembered for the very list it was read from (a state's list is never
    changed in place: an action that votes or proposes makes a new one, and the ends are read again)."""
    ends = _URGENT.get(items)
    if ends is Remembered.MISSING:
        every = tuple(sorted(parse_time(p["ends"]) for p in peek(items)
                             if p["status"] == "pending" and p["class"] == "urgent"))
        ends = _URGENT.put(items, (every, tuple(t for t in every if phases.phase_start(t) != t)))
    return ends[0] if at_phase_starts else ends[1]


def next_urgent_end(state: Any, after: datetime) -> datetime | None:
    """The first end of a pending urgent proposal's voting period strictly after ``after``, or None. An end at a
    phase start is left to the phase-start event while it is in the game: seed 004 Time makes the phases, and
    with Time repealed no phase begins, so the urgent proposal's own end resolves it then (Urgent Proposals and
    Lifecycle do not depend on phases; it was once left pending for good)."""
    no_phases = repealed(state, RULE_TIME) is not None
    return first_after(_urgent_ends(state.doc(PROPOSALS)["proposals"], at_phase_starts=no_phases), after)


def _urgent_end(ctx: Ctx) -> None:
    """An urgent proposal's end: what is due takes effect; if a change set the last phase (its option) to one already
    over, the cycle ends now (004 The End of All Things), not at the next phase start."""
    resolve_due(ctx)
    from .cycle import end_if_over

    end_if_over(ctx)


URGENT_ENDS = Event(
    name="cycle12.urgent-proposal-ends",
    # taking effect at the end of the period is Lifecycle's; the period is the class's as recorded (a proposal
    # submitted while Urgent Proposals stood keeps its end when that rule is repealed)
    rule=RULE_LIFECYCLE,
    next_time=None,
    next_due=next_urgent_end,
    apply=_urgent_end,
    when="At the end of an urgent proposal's two days",
    summary="it takes effect if popular and unedited",
    enabled=lambda state: not state.doc(CYCLE).get("ended"),
)


# ---------------------------------------------------------------- recording a resolution


def _resolve_ready(ctx: Ctx) -> Iterator[str]:
    """004 Lifecycle: a proposal is resolved at the end of its voting period. While every proposal's period still
    runs (or there is none), the check refuses every number (no such proposal, or one not yet ended)."""
    if all(p["status"] == "pending" and not period_over(ctx, p, ctx.at)
           for p in peek(ctx.doc(PROPOSALS)["proposals"])):
        yield "no proposal's voting period has ended"


def _resolve_check(ctx: Ctx) -> Iterator[str]:
    p = _find(ctx, ctx.params["proposal"])
    if p["status"] == "pending" and ctx.at < parse_time(p["ends"]):
        yield f"proposal {p['id']}'s voting period ends at {p['ends']}; it cannot be resolved before then"
    elif p["status"] == "pending" and not period_over(ctx, p, ctx.at):
        # 004 Time repealed: no phase ends, so neither does a standard proposal's voting period
        yield f"proposal {p['id']}'s voting period is a phase, and with {repealed(ctx, RULE_TIME).cite()} repealed " \
              "no phase ends: it cannot be resolved"


def _resolve(ctx: Ctx) -> None:
    """Once the period has ended the proposal was resolved at that moment by an event (the phase start, or
    its own end for an urgent one): recording it changes nothing and says how it went. Kept so that logs
    that record resolutions (from before the events did it) stay legal."""
    p = _find(ctx, ctx.params["proposal"])
    if p["status"] == "pending":  # not reached while the events run; kept so the action never does less
        resolve(ctx, p["id"])
        return
    done = p.get("resolved", {})
    ctx.step({"proposal": p["id"], "already": p["status"], "at": done.get("at", p["ends"]),
              "note": "resolved when its voting period ended; nothing left to record"})


RESOLVE = Action(
    name="cycle12.resolve",
    done="resolved",
    rule=RULE_LIFECYCLE,
    summary="Ask how a proposal whose voting period has ended was resolved (it was, at that very moment)",
    params={"type": "object", "required": ["proposal"], "additionalProperties": False,
            "properties": {"proposal": {"type": "integer", "minimum": 1,
                                        "description": "the number of the pending proposal"}}},
    who=ANYONE,
    check=_resolve_check,
    ready=_resolve_ready,
    effect=_resolve,
    doc="Proposals resolve by themselves at the end of their voting period (standard ones as the next phase "
        "begins, urgent ones two days after submission): the proposal takes effect then if popular and unedited. "
        "This action, refused before the end, changes nothing afterwards; its outcome says how and when the "
        "proposal was resolved. Standard: popular with more for than against. Urgent: no more than two against.",
)

ACTIONS = [PROPOSE, VOTE, EDIT, RESOLVE]
