"""Shared pieces of the BlogNomic core rules: options, the leader, Hiatus, tallies."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from operator import indexOf, itemgetter
from typing import Any, Callable, Iterator

from ...engine import Ctx, State, peek, repealed
from ...problems import Problem
from ...roster import active_players, quorum
from ...schemas import is_blank
from ...timeutil import format_time, parse_time
from .options import options

# The ids (in the example rulesets, content/*/ruleset/) of the rules whose conditions other rules' actions check here
DYNASTIES = "dynasties"
FAIR_PLAY = "fair-play"
VICTORY = "victory-and-ascension"
STUFFS = "stuffs"

FOR_VOTES = ("FOR", "COMPENSATE")
AGAINST_VOTES = ("AGAINST", "ADMONISH", "VETO")
# Where a veto stands, in words true of both variants: Ruleset 75's Dynasties (seed 001 1.8) gives the leader a VETO
# vote on proposals; seed 003 gives nobody a VETO vote (rule 4's votes are FOR, AGAINST and DEFERENTIAL, rule 8 lists
# no power of the GRAND POOBAH), and its only veto is the new GRAND POOBAH's, of pending proposals, at the Ascension
# Address (rule 9). A vote parameter's schema is the same in both games, so its refusal of a VETO says only that
VETO_WHERE = "a game's rules give a veto, if at all, to its leader, on proposals"


def opts(state: State | Ctx) -> dict[str, Any]:
    return options(state.config)


def subject_problem(ctx: Ctx, title: str) -> Iterator[str]:
    """Seed 001's glossary: an entry's subject is what follows the first colon of its title (all of it when it has
    none), and an entry whose subject is empty is not valid (option ``empty_subject_invalid``)."""
    # empty as the schema's NOT_BLANK sees it: blanks and invisible characters (a zero-width space) say nothing
    if opts(ctx)["empty_subject_invalid"] and ":" in title and is_blank(title.split(":", 1)[1]):
        yield (f"the title {title!r} has an empty subject (what follows its first colon): an entry whose subject "
               "is empty is not valid")


def quiet_since(state: State | Ctx, p: dict[str, Any]) -> tuple[str, str]:
    """(time, what happened then, as a sentence says it: "last acted", "voted", "joined", "came back"): the moment
    from which a player's seven days towards idleness are counted.

    Seed 001 1.2 (``idle_basis: activity``): their last entry or comment, read as their last game action (the
    ledger's ``seen``), their joining, or their return by a proposal's or CfJ's effects (``returned``,
    ``note_return``), whichever is latest. The effects stand in for the post 1.2 asks of the player (announcing
    their arrival, asking to come back), as they do for a newcomer the effects add, whose week runs from their
    ``joined``. Before, the week ran from the last action before the player left or went idle, so an admin could
    idle a player the second a proposal brought them back (``seen`` before ``joined`` was read first).
    Seed 003 rule 2 (``idle_basis: votes``): their last vote, or their joining if that is later: a Muffin who
    left and joined again has not failed to vote since joining, whatever it did as the Muffin it was before (the
    old ``last_vote`` stays under its name; before, it was read first, so a Muffin back in the game a minute could
    be made idle at once); and likewise its return from idleness or to the game (``returned``, ``note_return``),
    whichever of the three is latest.
    """
    doc = state.doc("proposals")
    back = doc.get("returned", {}).get(p["name"])
    if opts(state)["idle_basis"] != "votes":
        seen = state.doc("ledger").get("seen", {}).get(p["name"])
        times = [(p["joined"], "last acted")] + ([(seen, "last acted")] if seen else [])
        times += [(back, "came back")] if back else []
        return max(times, key=lambda tw: parse_time(tw[0]))
    joined = (p["joined"], "joined")
    voted = doc.get("last_vote", {}).get(p["name"])
    times = [joined] + ([(voted, "voted")] if voted else []) + ([(back, "came back")] if back else [])
    return max(times, key=lambda tw: parse_time(tw[0]))


def note_return(ctx: Ctx, name: str, *, own_action: bool = True) -> None:
    """A player's return (from idleness, or to the game), from which their week towards idleness runs again.

    Seed 003 rule 2 (``idle_basis: votes``): a Muffin back from idleness (``core.unidle``, or a proposal's or
    CfJ's patch) has its week without a vote counted from its return, as a newcomer's is from its joining. While
    idle it was no Muffin for rule 4 and could not vote, so it has not failed to vote then (our reading); before,
    the week ran from its last vote before going idle, and an admin could idle it again the moment it was back,
    undoing the return rule 2 grants at its request.

    Seed 001 1.2 (``idle_basis: activity``) counts any action: a return the player takes (``core.unidle``,
    ``own_action``) is itself one, so nothing is noted; a return by a proposal's or CfJ's effects is not their
    action, and is noted (our reading: the effects stand in for the request 1.2 asks of them)."""
    if opts(ctx)["idle_basis"] == "votes" or not own_action:
        ctx.edit("proposals").setdefault("returned", {})[name] = format_time(ctx.at)


def refusal_of(ctx: Ctx, rule_id: str, message: str) -> Problem | str:
    """A refusal citing ``rule_id``, the rule that makes the limit, when the game's ruleset holds it; otherwise the
    message alone, which cites the action's own rule (a game set up without that rule, such as the Quazie variant
    without a fair-play rule). The engine cites an action's refusals to the action's rule, which is not always the
    rule that says no: a VETO is 1.8's, a bar from rejoining 1.10's."""
    return Problem(message, rule=rule_id) if rule_id in ctx.rules else message


def leader(state: State | Ctx) -> str | None:
    return state.doc("dynasty").get("leader")


def holding_bars(ctx: State | Ctx, bars: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """The bars from rejoining that keep anyone out: seed 001 1.10 "Fair Play" makes them, so while it is repealed
    (by the very effects being applied, too) none does; the records stay in the roster."""
    return bars if bars and repealed(ctx, FAIR_PLAY) is None else []


def in_hiatus(state: State | Ctx) -> bool:
    """Seed 001 1.9 (Victory and Ascension) / seed 003 rule 9: from a DoV until it fails, or until the Ascension
    Address.

    Seed 001 "Victory and Ascension" (1.9), seed 003 rule 9: that rule alone puts the game in Hiatus. Once it is
    repealed the game is in Hiatus no more, whatever DoV is left pending: the gate (``victory.hiatus_gate``) stops,
    a CfJ runs its ordinary days (1.6), and the end of the Hiatus is the repeal (``judgment.hiatus_ended``). Asked
    only when a DoV or the Address would hold the game in Hiatus, so ordinary play costs no lookup."""
    if not (state.doc("dynasty").get("awaiting_ascension")
            or any(d["status"] == "pending" for d in state.doc("dovs")["dovs"])):
        return False
    return repealed(state, VICTORY) is None


_ID = itemgetter("id")


def edit_item(ctx: Ctx, kind: str, key: str, ident: int, what: str) -> dict[str, Any]:
    """The item ``ident`` of ``doc[key]``, for editing; found by reading, so only that item is copied."""
    try:  # the first with that id, found in C (every vote looks among a game's 140-odd proposals)
        i = indexOf(map(_ID, peek(ctx.doc(kind)[key])), ident)
    except ValueError:
        raise ctx.refuse(f"there is no {what} {ident}") from None
    return ctx.edit(kind)[key][i]


def find(items: list[dict[str, Any]], ident: int, what: str, ctx: Ctx) -> dict[str, Any]:
    try:  # the first with that id, found in C, as in ``edit_item``
        return items[indexOf(map(_ID, peek(items)), ident)]
    except ValueError:
        pass
    pending = [str(item["id"]) for item in items if item.get("status") == "pending"]
    # the numbers a player who mistyped one most likely meant
    open_now = f"pending: {', '.join(pending)}" if pending else f"no {what} is pending"
    raise ctx.refuse(f"there is no {what} {ident} ({open_now})")


def none_pending(doc: str, key: str, what: str, *, own: bool = False,
                 over: tuple[Callable[[Ctx, dict[str, Any]], Any], str] | None = None
                 ) -> Callable[[Ctx], Iterator[str]]:
    """``Action.ready`` of an action on a pending post: there is none (``own``: none of the actor's), so the check
    refuses every number (``find``: no such post, or not pending; or another's). ``over``: whether a pending post
    takes no more of this action (a CfJ whose days have passed, a decided DoV), and what to say when none does."""

    def ready(ctx: Ctx) -> Iterator[str]:
        pending = [item for item in peek(ctx.doc(doc)[key])
                   if item["status"] == "pending" and (not own or item.get("author") == ctx.actor)]
        if not pending:
            yield f"no {what} of yours is pending" if own else f"no {what} is pending"
        elif over is not None and all(over[0](ctx, item) for item in pending):
            yield over[1]

    return ready


def age_hours(item: dict[str, Any], now: datetime) -> float:
    """How long ago the post was made (seed 003 rule 10: "pending for more than 48 hours")."""
    return (now - parse_time(item["submitted"])).total_seconds() / 3600


def clock_start(state: Any, item: dict[str, Any]) -> datetime:
    """When a post's time limits start: its posting, or its last alteration with ``alter_restarts_clock``.

    Seed 001 1.5 counts 12 and 48 hours "open for voting", while "continuously" a proposal; seed 003 rule 5 a
    proposal's hours open and its age. A post altered before any comment (1.7, rule 7) was open for voting and
    remained a proposal all along, so by default its hours run from its posting. The same holds for a CfJ's
    days and a DoV's hours.
    """
    altered = item.get("altered")
    if altered and opts(state)["alter_restarts_clock"]:
        return parse_time(altered[-1]["at"])
    return parse_time(item["submitted"])


def open_hours(state: Any, item: dict[str, Any], now: datetime) -> float:
    """How long the post has been open for voting, as the time limits of 1.5, 1.6, 1.9 (rules 5, 6, 9) count."""
    return (now - clock_start(state, item)).total_seconds() / 3600


def open_for(state: Any, item: dict[str, Any], now: datetime) -> str:
    """How long the post has been open, as a refusal says it: "47h59m59s", never rounded up.

    The limits of 1.5 (rules 5, 9) fall on whole hours, so a time shown rounded ("48.0 hours" one second short of
    48) would read as the limit reached in the very message that says it is not.
    """
    secs = max(0, int((now - clock_start(state, item)).total_seconds()))
    return f"{secs // 3600}h{secs % 3600 // 60:02d}m{secs % 60:02d}s"


@dataclass
class Tally:
    """How a proposal, CfJ or DoV stands: each valid vote counted as the rules say."""

    for_: int = 0
    against: int = 0
    abstain: int = 0
    compensate: int = 0
    admonish: int = 0
    vetoed: bool = False
    counted: dict[str, str] = field(default_factory=dict)  # voter -> effective FOR/AGAINST
    quorum: int = 0
    players: int = 0

    @property
    def valid(self) -> int:
        return self.for_ + self.against

    def as_record(self) -> dict[str, int]:
        out = {"for": self.for_, "against": self.against}
        if self.abstain:
            out["abstain"] = self.abstain
        if self.compensate:
            out["compensate"] = self.compensate
        if self.admonish:
            out["admonish"] = self.admonish
        return out


def author_counts_for(state: State | Ctx, item: dict[str, Any]) -> bool:
    """Seed 001 rule 1.4 / seed 003 rule 4: whether a proposal's author counts FOR without a vote of their own: they
    have cast none (a vote that lapsed was cast, unless the option ``lapsed_author_counts_for`` says otherwise).
    Whether they may vote at all (active) is the caller's question."""
    author = item.get("author")
    return bool(author) and author not in (item.get("votes") or {}) and (
        author not in item.get("lapsed_votes", ()) or bool(opts(state)["lapsed_author_counts_for"]))


def tally(state: State | Ctx, item: dict[str, Any], *, implicit_author: bool = True) -> Tally:
    """Seed 001 rule 1.4 Voting / seed 003 rule 4: the votes as they count now.

    * Only players who are neither idle nor gone have valid votes.
    * An author who has not voted counts as FOR (proposals only). In Ruleset 75 (seed 001 1.4: "has not cast a
      Vote") an author whose vote lapsed when they went idle or left (``lapsed_votes``) has cast one, no longer
      valid, so they have no vote until they cast another (option ``lapsed_author_counts_for``, on in the Quazie
      variant, whose reading is in docs/modules/quazie.md).
    * DEFERENTIAL counts as the leader's vote; if the leader has not voted, or
      voted DEFERENTIAL (which cancels their vote), it is an abstention and not
      a vote at all.
    * VETO is the leader's; it counts against and marks the item vetoed.
    """
    active = {p["name"] for p in active_players(state)}
    votes = {n: v for n, v in item.get("votes", {}).items() if n in active}
    author = item.get("author")
    if implicit_author and author in active and author_counts_for(state, item):
        votes[author] = "FOR"
    boss = leader(state)
    boss_vote = votes.get(boss) if boss in active else None
    follow = None
    if boss_vote in FOR_VOTES:
        follow = "FOR"
    elif boss_vote in AGAINST_VOTES:
        follow = "AGAINST"
    t = Tally(quorum=quorum(state), players=len(active))
    for name, vote in votes.items():
        effective = vote
        if vote == "DEFERENTIAL":
            effective = follow if name != boss else None
        if vote == "VETO" and name == boss:
            t.vetoed = True
        if vote == "COMPENSATE":
            t.compensate += 1
        if vote == "ADMONISH":
            t.admonish += 1
        if effective in FOR_VOTES:
            t.for_ += 1
            t.counted[name] = "FOR"
        elif effective in AGAINST_VOTES:
            t.against += 1
            t.counted[name] = "AGAINST"
        else:
            t.abstain += 1
    return t


# The actions that apply a post's effects (and the context in which they are tried before, ``effects_problem``); the
# module's other actions change statuses themselves (core.ascend's Quazie veto fails proposals, core.withdraw ...)
EFFECT_ACTIONS = ("core.enact", "core.cfj-resolve", "engine.look")


def patched_out_of_pending(ctx: Ctx, kind: str, own: int | None) -> list[dict[str, Any]]:
    """The proposals or CfJs (``kind``: the document, whose list has the same name) that were pending before the
    action and are not now, though the action is not their own resolution (``own``: the number the action resolves,
    if it resolves one of ``kind``): a proposal's or CfJ's patch of ``/<kind>/<kind>/id=N/status`` changed them."""
    if kind not in ctx.tx.docs or ctx.action.name not in EFFECT_ACTIONS:
        return []
    base = ctx.tx.base.docs.get(kind)
    if base is None:
        return []
    was = {item["id"] for item in peek(base[kind]) if item["status"] == "pending"}
    return [item for item in peek(ctx.doc(kind)[kind])
            if item["id"] in was and item["id"] != own and item["status"] != "pending"]


def effects_written(item: dict[str, Any]) -> bool:
    """Whether a post carries effects for the gamestate or the ruleset (a text alone changes nothing here)."""
    effects = item.get("effects") or {}
    return bool(effects.get("gamestate") or effects.get("rules"))


def by_effects(ctx: Ctx) -> str:
    """Whose effects an action applied: "CfJ 3", "proposal 7" (the name of another action, or "the effects")."""
    if ctx.action.name == "core.cfj-resolve":
        return f"CfJ {ctx.params['cfj']}"
    if ctx.action.name in ("core.enact", "core.fail"):
        return f"proposal {ctx.params['proposal']}"
    return ctx.action.name if ctx.action.name != "engine.look" else "the effects"


def follow_patched_statuses(ctx: Ctx, kind: str, own: int | None, done: str, what: str,
                            maker: tuple[str, str]) -> None:
    """Seed 001 1.5, 1.6 / seed 003 rules 5, 6: the posts of ``kind`` an action's effects took out of pending
    (``patched_out_of_pending``). Marked ``done`` (enacted, passed) while they carry effects of their own, which only
    their own resolution (``maker``) makes, the effects cannot be applied; marked ``done`` or failed otherwise, the
    resolution is recorded (``record_patched_resolution``). ``what``: "proposal", "CfJ"; the effects they would make:
    "effects", "measures"."""
    for item in patched_out_of_pending(ctx, kind, own):
        by = by_effects(ctx)
        if item["status"] == done and effects_written(item):
            raise ctx.refuse(f"{by}'s effects cannot be applied: they mark {what} {item['id']} {done}, but its own "
                             f"{maker[0]} would not be made (only {maker[1]} makes them); effects that want them must "
                             "carry them")
        if item["status"] in (done, "failed"):
            record_patched_resolution(ctx, kind, item, by)


def record_patched_resolution(ctx: Ctx, kind: str, item: dict[str, Any], by: str) -> None:
    """Seed 001 1.5 / seed 003 rule 5: whoever marks a post passed or failed reports their name and the tally; for a
    post an action's effects marked (``by``: whose), that is the admin who applied them, unless the effects wrote a
    ``resolved`` of their own."""
    if item.get("resolved"):
        return
    for i, x in enumerate(peek(ctx.doc(kind)[kind])):
        if x["id"] == item["id"]:
            mine = ctx.edit(kind)[kind][i]
            t = tally(ctx, mine, implicit_author=kind == "proposals")
            mine["resolved"] = {"by": ctx.actor, "at": format_time(ctx.at), "result": mine["status"],
                                "reason": f"{by} marked it {mine['status']}"[:200], "tally": t.as_record()}
            return
