"""Official posts withdrawn or altered by their authors (seed 001 rule 1.7 Gamestate Tracking; seed 003 rule 7).

Both rules let an official post be altered or removed while nobody has commented on it. Proposals, CfJs and
DoVs are this module's official posts; the comments on them that the game models are the votes. Seed 001
says "no Colonist has commented", so any vote blocks, the author's own included (their implicit FOR is no
comment); seed 003 says "nobody else", so only another player's vote blocks. Altering and withdrawing ask the
same question, in ``author_may_change``.

A withdrawn post keeps its record with the status ``withdrawn``: it is no longer pending, it can never be
enacted or passed, and the wiki lists it with the resolved ones. An altered post gets a new title, text or
effects (a DoV: a new text), checked as they are when a post is made; it stays pending, keeps its number and its
time of posting, and lists its alterations under ``altered``. It never becomes a different kind of post: seed
001 1.7 forbids that after fifteen minutes, and the actions have no way to do it at all. Whether an alteration
restarts the post's time limits is the option ``alter_restarts_clock`` (``common.clock_start``).
Cases: tests/cases/blognomic/tracking.yaml, tests/cases/blognomic/alter.yaml.
"""

from __future__ import annotations

from typing import Any, Iterator

from ...engine import Action, Ctx
from ...timeutil import format_time
from .common import edit_item, find, none_pending, opts, subject_problem
from .proposals import POST_FIELDS

RULE = "gamestate-tracking"

# kind -> (document, list key, parameter, what it is called)
KINDS = {
    "proposal": ("proposals", "proposals", "proposal", "proposal"),
    "cfj": ("cfjs", "cfjs", "cfj", "CfJ"),
    "dov": ("dovs", "dovs", "dov", "DoV"),
}


def commenters(ctx: Any, item: dict[str, Any]) -> list[str]:
    """Who has commented on ``item`` in a way that stops its author withdrawing or altering it, in voting order.

    A vote is a comment. A player who left or went idle lost their vote (1.4 / rule 4) but not their comment,
    which ``lapsed_votes`` keeps. Whether the author's own vote counts is the variant's option.
    """
    names = list(item.get("votes", {})) + [n for n in item.get("lapsed_votes", []) if n not in item.get("votes", {})]
    if not opts(ctx)["withdraw_own_comment_blocks"]:
        names = [n for n in names if n != item["author"]]
    return names


def author_may_change(ctx: Ctx, kind: str, verb: str, done: str) -> Iterator[str]:
    """Why ``ctx.actor`` may not withdraw or alter (``verb``; ``done``: its past participle) the post named in the
    parameters: it is not theirs, it is no longer pending, or somebody has commented on it (``commenters``)."""
    doc, key, param, what = KINDS[kind]
    item = find(ctx.doc(doc)[key], ctx.params[param], what, ctx)
    if item["author"] != ctx.actor:
        yield f"{what} {item['id']} is {item['author']}'s; only its author may {verb} it"
        return
    if item["status"] != "pending":
        yield f"{what} {item['id']} is {item['status']}, not pending; only a pending {what} may be {done}"
        return
    who = commenters(ctx, item)
    if who:
        others = "" if opts(ctx)["withdraw_own_comment_blocks"] else " other"
        yield (f"{', '.join(who)} {'has' if len(who) == 1 else 'have'} commented (voted) on {what} {item['id']}; "
               f"it may be {done} only while no{others} player has")


def _check(kind: str):
    def check(ctx: Ctx) -> Iterator[str]:
        yield from author_may_change(ctx, kind, "withdraw", "withdrawn")

    return check


def _effect(kind: str):
    doc, key, param, what = KINDS[kind]

    def effect(ctx: Ctx) -> None:
        item = edit_item(ctx, doc, key, ctx.params[param], what)
        item["status"] = "withdrawn"
        item["resolved"] = {"by": ctx.actor, "at": format_time(ctx.at), "result": "withdrawn",
                            "reason": "withdrawn by its author before anyone commented"}
        ctx.step({param: item["id"], "result": "withdrawn"})

    return effect


def _action(kind: str, name: str, summary: str, doc: str, *, alter: bool = False) -> Action:
    """Withdrawing (or, with ``alter``, altering) a post of this kind: its number, and what an alteration may
    change."""
    doc_kind, key, param, what = KINDS[kind]
    fields = {f: POST_FIELDS[f] for f in ALTERABLE[kind]} if alter else {}
    # an alteration gives at least one new field (_alter_check); where only one may change (a DoV's text), it is
    # required, so that --list and the actions page do not offer it as optional
    required = [param, *fields] if len(fields) == 1 else [param]
    return Action(
        name=name,
        rule=RULE,
        summary=summary,
        params={"type": "object", "required": required, "additionalProperties": False,
                "properties": {param: {"type": "integer", "minimum": 1,
                                       "description": f"the number of your pending {what}"}, **fields}},
        check=(_alter_check if alter else _check)(kind),
        ready=none_pending(doc_kind, key, what, own=True),  # author_may_change refuses another's or one not pending
        effect=(_alter if alter else _effect)(kind),
        in_hiatus=True,  # which of them Hiatus allows is victory.HIATUS_TAGS's to say
        doc=doc,
    )


_WHO = ("Only its author, while it is pending and nobody has voted on it (Ruleset 75: not even the author; "
        "Quazie: nobody else).")

WITHDRAW = _action("proposal", "core.withdraw", "Withdraw your own pending proposal before anyone votes on it",
                   "The proposal is marked withdrawn: it no longer counts as pending and can never be enacted. "
                   "It still counts among the proposals its author made that day. " + _WHO)
CFJ_WITHDRAW = _action("cfj", "core.cfj-withdraw", "Withdraw your own pending CfJ before anyone votes on it",
                       "The CfJ is marked withdrawn; its measures are never applied. " + _WHO)
DOV_WITHDRAW = _action("dov", "core.dov-withdraw", "Withdraw your own pending DoV before anyone votes on it",
                       "The DoV is marked withdrawn; if no other DoV is pending, the Hiatus it began ends. "
                       "Withdrawing is not failing: it bars nobody from declaring again. " + _WHO)

# ---------------------------------------------------------------- altering

# kind -> what its author may alter: what the post was made with (core.propose, core.cfj, core.dov)
ALTERABLE = {"proposal": ("title", "text", "effects"), "cfj": ("title", "text", "effects"), "dov": ("text",)}


def _current(item: dict[str, Any], name: str) -> Any:
    return item.get(name) or None  # an empty text or effects is none, as when the post is made


def _changes(ctx: Ctx, kind: str, item: dict[str, Any]) -> list[str]:
    return [f for f in ALTERABLE[kind] if f in ctx.params and (ctx.params[f] or None) != _current(item, f)]


def _alter_check(kind: str):
    doc, key, param, what = KINDS[kind]

    def check(ctx: Ctx) -> Iterator[str]:
        problems = list(author_may_change(ctx, kind, "alter", "altered"))
        if problems:
            yield from problems
            return
        fields = ALTERABLE[kind]
        if not any(f in ctx.params for f in fields):
            yield f"give a new {', '.join(fields[:-1]) + ' or ' if len(fields) > 1 else ''}{fields[-1]} to alter"
            return
        if "title" in ctx.params:
            yield from subject_problem(ctx, ctx.params["title"])
        item = find(ctx.doc(doc)[key], ctx.params[param], what, ctx)
        if not _changes(ctx, kind, item):
            yield f"{what} {item['id']} already says that: the alteration changes nothing"

    return check


def _alter(kind: str):
    doc, key, param, what = KINDS[kind]

    def effect(ctx: Ctx) -> None:
        item = edit_item(ctx, doc, key, ctx.params[param], what)
        changed = _changes(ctx, kind, item)
        for f in changed:
            if ctx.params[f]:
                item[f] = ctx.params[f]
            else:
                item.pop(f, None)
        item.setdefault("altered", []).append({"at": format_time(ctx.at), "changed": changed})
        ctx.step({param: item["id"], "altered": changed})

    return effect


_ALTER = ("Only its author, while it is pending and nobody has voted on it, exactly as for withdrawing. An empty "
          "text or `effects: {}` removes them. It keeps its number and its time of posting; its time limits run "
          "from that time unless the game sets `alter_restarts_clock`.")

ALTER = _action("proposal", "core.alter", "Alter your own pending proposal before anyone votes on it",
                "Give a new `title`, `text` or `effects` (checked as core.propose checks them). " + _ALTER, alter=True)
CFJ_ALTER = _action("cfj", "core.cfj-alter", "Alter your own pending CfJ before anyone votes on it",
                    "Give a new `title`, `text` or `effects` (checked as core.cfj checks them). " + _ALTER, alter=True)
DOV_ALTER = _action("dov", "core.dov-alter", "Alter your own pending DoV's text before anyone votes on it",
                    "Give a new `text`. " + _ALTER, alter=True)

ACTIONS = [WITHDRAW, CFJ_WITHDRAW, DOV_WITHDRAW, ALTER, CFJ_ALTER, DOV_ALTER]
