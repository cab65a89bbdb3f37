"""Awesomeness posts (seed 000, "Awesomeness").

A Monkey with no Awesomeness Post pending may pay three bananas to post
"Acknowledge the Awesomeness of X" about another Monkey. For forty-eight
hours Monkeys vote FOR or AGAINST; then, if more than a quorum of the
active Monkeys voted FOR, X gains one Awesomeness. A post is pending for
its forty-eight hours; closing it afterwards (anyone may) records the result.

The result is fixed at the end of the forty-eight hours, so a scheduled event
(``monkey.awesomeness-tally``) counts the FOR votes and the Quorum of the
active Monkeys at that very moment into the post's ``tally``; closing applies
that count, whoever went idle or came back since. Within the forty-eight
hours a Monkey's vote lapses when e goes idle or leaves, as the core rules
say of votes (seed 001, 1.4): it does not count again if e comes back.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from datetime import datetime, timedelta
from operator import itemgetter
from typing import Any

from ...engine import VERIFY_COW, Action, Ctx, Remembered, peek, repealed, ruled
from ...roster import active_players, change_stat, quorum
from ...schemas import not_blank, vote_words
from ...timeutil import format_time, parse_time
from .common import RULE_NPCS, barred_npc
from .options import options

RULE = "awesomeness"
WINDOW = timedelta(hours=48)


def _open(post: dict[str, Any], now: Any) -> bool:
    return post["status"] == "pending" and now - parse_time(post["submitted"]) < WINDOW


def deadline(post: dict[str, Any]) -> datetime | None:
    """The end of the post's forty-eight hours (None for a time that cannot be read: the schema reports it)."""
    try:
        return parse_time(post["submitted"]) + WINDOW
    except (KeyError, TypeError, ValueError):
        return None


RULE_VOTING = "voting"


def voters(ctx: Ctx) -> list[dict[str, Any]]:
    """The Monkeys whose votes on a post count and who make its Quorum: the active players (not idle, not NPCs).

    Seed 000, "NPCs": NPCs do not count when totaling Quorum and do not vote; that is the NPCs rule's, so once it
    is repealed an NPC who is not idle counts and votes as any Monkey (its vote is let in: ``barred_npc``)."""
    if repealed(ctx, RULE_NPCS):
        return [p for p in ctx.doc("roster")["players"]
                if not p.get("idle") and p.get("kind") in (None, "", "npc")]
    return active_players(ctx)


def _count(ctx: Ctx, post: dict[str, Any]) -> tuple[int, int]:
    """FOR votes of the Monkeys who count (``voters``: not idle, not NPCs while that rule stands) and their Quorum,
    as they stand now."""
    who = voters(ctx)
    active = {p["name"] for p in who}
    return sum(1 for n, v in post["votes"].items() if v == "FOR" and n in active), quorum(ctx, who)


def _find(ctx: Ctx, ident: int) -> dict[str, Any]:
    for p in ctx.doc("monkey_awesomeness")["posts"]:
        if p["id"] == ident:
            return p
    raise ctx.refuse(f"there is no Awesomeness Post {ident}")


def _post_check(ctx: Ctx) -> Iterator[str]:
    if barred_npc(ctx):
        yield f"{ctx.actor} is a non-player character and takes no actions of eir own"
        return
    about = ctx.params["about"]
    if about == ctx.actor:
        yield "an Awesomeness Post names another Monkey, not its author"
    elif (named := ctx.player(about)) is None:
        yield f"there is no Monkey named {about!r}"
    elif named.get("idle"):
        # Seed 000, "Awesomeness": the post names "another Monkey"; seed 001 (the core's Idle rule) counts an idle
        # player as no player for the dynastic rules, so an idle Monkey cannot be the one acknowledged.
        yield f"{about} is idle, and an idle Monkey counts as no Monkey here: the post must name an active one"
    yield from _post_ready(ctx)


def _post_ready(ctx: Ctx) -> Iterator[str]:
    """Seed 000, "Awesomeness": a Monkey with a post of eir own still pending may not post another, and a post costs
    three bananas; whoever it is about."""
    for p in ctx.doc("monkey_awesomeness")["posts"]:
        if p["author"] == ctx.actor and _open(p, ctx.at):
            yield f"{ctx.actor} already has Awesomeness Post {p['id']} pending (until 48 hours after {p['submitted']})"
    me = ctx.player()
    if me and int(me["stats"].get("bananas", 0)) < 3:
        yield f"{ctx.actor} has {me['stats'].get('bananas', 0)} bananas; an Awesomeness Post costs 3"


def _post(ctx: Ctx) -> None:
    change_stat(ctx, ctx.actor, "bananas", -3, cost=True, rule=RULE)
    doc = ctx.edit("monkey_awesomeness")
    ident = doc["next"]
    doc["next"] = ident + 1
    post: dict[str, Any] = {"id": ident, "title": f"Acknowledge the Awesomeness of {ctx.params['about']}",
                            "author": ctx.actor, "about": ctx.params["about"], "submitted": format_time(ctx.at),
                            "status": "pending"}
    if ctx.params.get("text"):
        post["text"] = ctx.params["text"]
    post["votes"] = {}
    doc["posts"].append(post)
    ctx.step({"post": ident, "about": ctx.params["about"], "bananas": -3})


POST = Action(
    name="monkey.awesomeness-post",
    rule=RULE,
    summary="Pay 3 bananas to post 'Acknowledge the Awesomeness of X'",
    params={"type": "object", "required": ["about"], "additionalProperties": False,
            "properties": {"about": {"$ref": "common.schema.json#/$defs/name",
                                     "description": "the Monkey whose Awesomeness it acknowledges"},
                           "text": not_blank({"type": "string", "maxLength": 20000,
                                              "description": "the post's text, in words: why"}, empty_ok=True)}},
    check=_post_check,
    ready=_post_ready,
    effect=_post,
    doc="`about` names another Monkey; `text` says what e did that was awesome.",
)


def _vote_ready(ctx: Ctx) -> Iterator[str]:
    """Seed 000, "Awesomeness": votes are cast within a post's 48 hours; with no post open, the check refuses every
    number (no such post, or closed to votes)."""
    if not any(_open(p, ctx.at) for p in ctx.doc("monkey_awesomeness")["posts"]):
        yield "no Awesomeness Post is open to votes"


def _vote_check(ctx: Ctx) -> Iterator[str]:
    if barred_npc(ctx):
        yield f"{ctx.actor} is a non-player character and cannot vote"
        return
    post = _find(ctx, ctx.params["post"])
    if not _open(post, ctx.at):
        yield f"Awesomeness Post {post['id']} is closed to votes (48 hours after {post['submitted']})"


def _post_to_edit(ctx: Ctx, ident: int) -> dict[str, Any]:
    """The post to change, found by reading: only it is copied (the check made sure it exists)."""
    posts = ctx.edit("monkey_awesomeness")["posts"]
    return posts[next(i for i, p in enumerate(peek(posts)) if p["id"] == ident)]


def _vote(ctx: Ctx) -> None:
    post = _post_to_edit(ctx, ctx.params["post"])
    post["votes"].pop(ctx.actor, None)
    post["votes"][ctx.actor] = ctx.params["vote"]


VOTE = Action(
    name="monkey.awesomeness-vote",
    rule=RULE,
    summary="Vote FOR or AGAINST an Awesomeness Post within its 48 hours",
    params={"type": "object", "required": ["post", "vote"], "additionalProperties": False,
            "properties": {"post": {"type": "integer", "minimum": 1,
                                    "description": "the number of the Awesomeness Post"},
                           "vote": vote_words(["FOR", "AGAINST"], yes="FOR", no="AGAINST",
                                              description="your vote; a later one replaces it")}},
    check=_vote_check,
    ready=_vote_ready,
    effect=_vote,
)


def _close_ready(ctx: Ctx) -> Iterator[str]:
    """Seed 000, "Awesomeness": a post is closed once its 48 hours are over; with no pending post past them, the
    check refuses every number (no such post, already closed, or still open)."""
    if not any(p["status"] == "pending" and ctx.at - parse_time(p["submitted"]) >= WINDOW
               for p in ctx.doc("monkey_awesomeness")["posts"]):
        yield "no pending Awesomeness Post is past its 48 hours"


def _close_check(ctx: Ctx) -> Iterator[str]:
    post = _find(ctx, ctx.params["post"])
    if post["status"] != "pending":
        yield f"Awesomeness Post {post['id']} is already {post['status']}"
    elif ctx.at - parse_time(post["submitted"]) < WINDOW:
        yield f"Awesomeness Post {post['id']} is open until 48 hours after {post['submitted']}"


def _close(ctx: Ctx) -> None:
    post = _post_to_edit(ctx, ctx.params["post"])
    # Seed 000, "Awesomeness": the outcome is what the votes were at the end of the 48 hours (the tally the
    # event wrote then), not who is active when someone gets round to closing. A post with no tally (one a
    # proposal's patch dated so that its end was already past) is counted now.
    tally = post.get("tally")
    fors, q = (tally["for"], tally["quorum"]) if tally else _count(ctx, post)
    passed = fors > q if options(ctx.config)["awesomeness_pass"] == "more-than-quorum" else fors >= q
    post["status"] = "passed" if passed else "failed"
    post["closed"] = {"at": format_time(ctx.at), "for": fors, "quorum": q}
    if passed and ctx.player(post["about"]) is not None:
        change_stat(ctx, post["about"], "awesomeness", 1, rule=RULE)
    ctx.step({"post": post["id"], "result": post["status"], "for": fors, "quorum": q})


CLOSE = Action(
    name="monkey.awesomeness-close",
    rule=RULE,
    summary="Close an Awesomeness Post after its 48 hours: more than a quorum FOR gives its Monkey +1 Awesomeness",
    params={"type": "object", "required": ["post"], "additionalProperties": False,
            "properties": {"post": {"type": "integer", "minimum": 1,
                                    "description": "the number of the Awesomeness Post whose 48 hours are over"}}},
    check=_close_check,
    ready=_close_ready,
    effect=_close,
    doc="Any Monkey may close it. It applies the count taken when the 48 hours ended: the FOR votes of the "
        "Monkeys active then (not idle, and not NPCs while the NPCs rule stands) against their Quorum.",
)


# ---------------------------------------------------------------- the end of the 48 hours


_PENDING = Remembered(16)  # a state's posts list -> (its length, its pending posts as (end, id, counted), by end)


def pending_ends(posts: list[dict[str, Any]]) -> tuple[tuple[datetime, int, bool], ...]:
    """The pending posts as (the end of their 48 hours, id, counted already), soonest end first.

    Posts are found by their ends, not by their place in the list: a proposal's patch may add one dated in the
    past after the others. Asked at every action, so a previous state's own list (a plain list, never changed
    in place: a post or a vote makes a new one) is remembered by identity and read once; its length is
    checked too, as a guard against a caller who changes it in place anyway (NOMIC_VERIFY_COW=1 reads it again
    every time and compares).
    """
    own = type(posts) is list
    hit = _PENDING.get(posts) if own else Remembered.MISSING
    if hit is not Remembered.MISSING and hit[0] == len(posts) and not VERIFY_COW:
        return hit[1]
    found = tuple(sorted((end, p.get("id", 0), "tally" in p) for p in peek(posts)
                         if p.get("status") == "pending" and (end := deadline(p)) is not None))
    if hit is not Remembered.MISSING and hit[0] == len(posts) and hit[1] != found:
        raise AssertionError(f"Awesomeness kept stale post ends: {hit[1]} against {found}")
    if own:
        _PENDING.put(posts, (len(posts), found))
    return found


def next_tally(state: Any, after: datetime) -> datetime | None:
    """The first end of a pending post's 48 hours strictly after ``after`` that has not been counted yet."""
    ends = pending_ends(state.doc("monkey_awesomeness")["posts"])
    for end, _, counted in ends[bisect_right(ends, after, key=itemgetter(0)):]:
        if not counted:
            return end
    return None


def tally_event(ctx: Ctx) -> None:
    """Seed 000, "Awesomeness": at the end of the 48 hours the FOR votes and the Quorum of the active Monkeys
    are counted; ``close`` applies this count later."""
    due = [p["id"] for p in peek(ctx.doc("monkey_awesomeness")["posts"])
           if p.get("status") == "pending" and "tally" not in p and (end := deadline(p)) is not None
           and end <= ctx.at]
    for ident in due:
        post = _post_to_edit(ctx, ident)
        fors, q = _count(ctx, post)
        post["tally"] = {"at": format_time(deadline(post)), "for": fors, "quorum": q}
        ctx.step({"post": ident, "for": fors, "quorum": q})


# seed 000, "Awesomeness": the votes are that rule's; repealed, its posts are left as they stand. Their lapse is
# the core's 1.4 Voting, asked inline
@ruled(RULE)
def drop_lapsed_votes(ctx: Ctx) -> None:
    """After every action: within a post's 48 hours, the vote of a Monkey who has gone idle or left lapses.

    Seed 001 (the core, 1.4 Voting): a vote is no longer valid once its voter goes idle or leaves, so it
    does not count again if e comes back before the end (BlogNomic's proposals do the same, ``drop_votes``).
    Only posts still within their 48 hours are looked at (``pending_ends``), newest first; and only after an
    action that edited the roster, since nobody goes idle or leaves without it (this runs after every action
    of a replay).
    """
    if "roster" not in ctx.tx.docs:
        return
    # seed 001 1.4 "Voting" is what makes a vote lapse when its voter goes idle or leaves; repealed, the votes stay
    if repealed(ctx, RULE_VOTING):
        return
    ends = pending_ends(ctx.doc("monkey_awesomeness")["posts"])
    # the newest post first (the highest id), as the steps have always been written
    open_ids = sorted((ident for _, ident, _ in ends[bisect_right(ends, ctx.at, key=itemgetter(0)):]), reverse=True)
    if not open_ids:
        return
    active = {p["name"] for p in voters(ctx)}
    for ident in open_ids:
        post = next(p for p in peek(ctx.doc("monkey_awesomeness")["posts"]) if p["id"] == ident)
        if not post.get("votes"):
            continue
        lapsed = [n for n in post["votes"] if n not in active]
        if lapsed:
            votes = _post_to_edit(ctx, ident)["votes"]
            for name in lapsed:
                del votes[name]
            ctx.step({"post": ident, "lapsed_votes": lapsed})

ACTIONS = [POST, VOTE, CLOSE]
