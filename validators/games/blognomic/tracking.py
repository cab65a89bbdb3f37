"""Official posts withdrawn by their authors (seed 001 rule 1.7 Gamestate Tracking; seed 003 rule 7).

Both rules let an official post be altered or removed while nobody has commented on it. Proposals, CfJs and
DoVs are this module's official posts; the comments on them that the game models are the votes. Seed 001
says "no Colonist has commented", so any vote blocks, the author's own included (their implicit FOR is no
comment); seed 003 says "nobody else", so only another player's vote blocks. A withdrawn post keeps its record
with the status ``withdrawn``: it is no longer pending, it can never be enacted or passed, and the wiki lists
it with the resolved ones. Cases: tests/cases/blognomic/tracking.yaml.
"""

from __future__ import annotations

from typing import Any, Iterator

from ...engine import Action, Ctx
from ...timeutil import format_time
from .common import edit_item, find, opts

RULE = "gamestate-tracking"

# kind -> (document, list key, parameter, what it is called)
KINDS = {
    "proposal": ("proposals", "proposals", "proposal", "proposal"),
    "cfj": ("cfjs", "cfjs", "cfj", "CfJ"),
    "dov": ("dovs", "dovs", "dov", "DoV"),
}


def commenters(ctx: Any, item: dict[str, Any]) -> list[str]:
    """Who has commented on ``item`` in a way that stops its author withdrawing it, in the order they voted.

    A vote is a comment. A player who left or went idle lost their vote (1.4 / rule 4) but not their comment,
    which ``lapsed_votes`` keeps. Whether the author's own vote counts is the variant's option.
    """
    names = list(item.get("votes", {})) + [n for n in item.get("lapsed_votes", []) if n not in item.get("votes", {})]
    if not opts(ctx)["withdraw_own_comment_blocks"]:
        names = [n for n in names if n != item["author"]]
    return names


def _check(kind: str):
    doc, key, param, what = KINDS[kind]

    def check(ctx: Ctx) -> Iterator[str]:
        item = find(ctx.doc(doc)[key], ctx.params[param], what, ctx)
        if item["author"] != ctx.actor:
            yield f"{what} {item['id']} is {item['author']}'s; only its author may withdraw it"
            return
        if item["status"] != "pending":
            yield f"{what} {item['id']} is {item['status']}, not pending; only a pending {what} may be withdrawn"
            return
        who = commenters(ctx, item)
        if who:
            others = "" if opts(ctx)["withdraw_own_comment_blocks"] else " other"
            yield (f"{', '.join(who)} {'has' if len(who) == 1 else 'have'} commented (voted) on {what} {item['id']}; "
                   f"it may be withdrawn only while no{others} player has")

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


def _action(kind: str, name: str, summary: str, doc: str) -> Action:
    _, _, param, _ = KINDS[kind]
    return Action(
        name=name,
        rule=RULE,
        summary=summary,
        params={"type": "object", "required": [param], "additionalProperties": False,
                "properties": {param: {"type": "integer", "minimum": 1}}},
        check=_check(kind),
        effect=_effect(kind),
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

ACTIONS = [WITHDRAW, CFJ_WITHDRAW, DOV_WITHDRAW]
