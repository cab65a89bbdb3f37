"""Awesomeness posts (seed 000, "Awesomeness").

A Monkey with no Awesomeness Post pending may pay three bananas to post
"Acknowledge the Awesomeness of X" about another Monkey. For forty-eight
hours Monkeys vote FOR or AGAINST; then, if more than a quorum of the
active Monkeys voted FOR, X gains one Awesomeness. A post is pending for
its forty-eight hours; closing it afterwards (anyone may) records the result.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

from ...engine import Action, Ctx, peek
from ...roster import active_players, change_stat, quorum
from ...timeutil import format_time, parse_time
from .common import is_npc
from .options import options

RULE = "awesomeness"
WINDOW = timedelta(hours=48)


def _open(post: dict[str, Any], now: Any) -> bool:
    return post["status"] == "pending" and now - parse_time(post["submitted"]) < WINDOW


def _find(ctx: Ctx, ident: int) -> dict[str, Any]:
    for p in ctx.doc("monkey_awesomeness")["posts"]:
        if p["id"] == ident:
            return p
    raise ctx.refuse(f"there is no Awesomeness Post {ident}")


def _post_check(ctx: Ctx) -> Iterator[str]:
    if is_npc(ctx):
        yield f"{ctx.actor} is a non-player character and takes no actions of eir own"
        return
    about = ctx.params["about"]
    if about == ctx.actor:
        yield "an Awesomeness Post names another Monkey, not its author"
    elif ctx.player(about) is None:
        yield f"there is no Monkey named {about!r}"
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
            "properties": {"about": {"$ref": "common.schema.json#/$defs/name"},
                           "text": {"type": "string", "maxLength": 20000}}},
    check=_post_check,
    effect=_post,
    doc="`about` names another Monkey; `text` says what e did that was awesome.",
)


def _vote_check(ctx: Ctx) -> Iterator[str]:
    if is_npc(ctx):
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
            "properties": {"post": {"type": "integer", "minimum": 1}, "vote": {"enum": ["FOR", "AGAINST"]}}},
    check=_vote_check,
    effect=_vote,
)


def _close_check(ctx: Ctx) -> Iterator[str]:
    post = _find(ctx, ctx.params["post"])
    if post["status"] != "pending":
        yield f"Awesomeness Post {post['id']} is already {post['status']}"
    elif ctx.at - parse_time(post["submitted"]) < WINDOW:
        yield f"Awesomeness Post {post['id']} is open until 48 hours after {post['submitted']}"


def _close(ctx: Ctx) -> None:
    post = _post_to_edit(ctx, ctx.params["post"])
    active = {p["name"] for p in active_players(ctx)}
    fors = sum(1 for n, v in post["votes"].items() if v == "FOR" and n in active)
    q = quorum(ctx)
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
            "properties": {"post": {"type": "integer", "minimum": 1}}},
    check=_close_check,
    effect=_close,
    doc="Any Monkey may close it. Votes of Monkeys who are idle or NPCs do not count.",
)

ACTIONS = [POST, VOTE, CLOSE]
