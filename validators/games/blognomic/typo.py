"""Admins correct plain spelling and typing mistakes in the ruleset at any time (seed 001 1.1; seed 003 rule 1)."""

from __future__ import annotations

import difflib
from typing import Iterator

from ...engine import ADMIN, Action, Ctx
from ...timeutil import format_time

RULE = "ruleset-and-gamestate"
MAX_CHANGED = 40  # characters: a typo fix, not a rewrite


def _changed_chars(old: str, new: str) -> int:
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    return sum(max(i2 - i1, j2 - j1) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal")


def _check(ctx: Ctx) -> Iterator[str]:
    rule = ctx.state.rules.get(ctx.params["rule"])
    if rule is None:
        yield f"there is no rule {ctx.params['rule']!r}"
        return
    if rule.meta.get("status") != "active":
        # seed 001 1.1 / seed 003 rule 1: the mistakes corrected are the Ruleset's; a repealed rule has left it, and
        # its text is kept as it stood when it was repealed
        yield (f"rule {rule.cite()} is {rule.meta.get('status')}, no longer part of the ruleset; "
               "there is nothing to correct")
        return
    old, new = ctx.params["old"], ctx.params["new"]
    if old == new:
        yield "the correction changes nothing"
    # seed 001 1.1 / seed 003 rule 1: the mistakes are the Ruleset's, and a rule's title is part of it as much as its
    # text (a title's typo could not be corrected: only the text was searched)
    count = rule.body.count(old) + str(rule.meta.get("title") or "").count(old)
    if count != 1:
        yield (f"the text to correct must appear exactly once in the rule (its title and its text); {old!r} appears "
               f"{count} times")
    elif _changed_chars(old, new) > MAX_CHANGED:
        yield f"a correction changes at most {MAX_CHANGED} characters; larger changes need a proposal"


def _fix(ctx: Ctx) -> None:
    rules = ctx.tx.edit_rules()
    rule = rules[ctx.params["rule"]]
    old, new = ctx.params["old"], ctx.params["new"]
    where = "spelling or typing"
    if old in rule.body:
        rule.body = rule.body.replace(old, new, 1)
    else:  # the check found it once, in the title
        rule.meta["title"] = str(rule.meta["title"]).replace(old, new, 1)
        where += " (title)"
    rule.meta.setdefault("history", []).append({"event": "amended", "by": f"typo fix by {ctx.actor}",
                                                "at": format_time(ctx.at), "note": where})


TYPO = Action(
    name="core.typo",
    done="a typo corrected",
    rule=RULE,
    summary="Correct a plain spelling or typing mistake in a rule",
    params={"type": "object", "required": ["rule", "old", "new"], "additionalProperties": False,
            "properties": {"rule": {"type": "string", "maxLength": 80,
                                    "description": "the rule's id (its file's name in ruleset/, without .md)"},
                           "old": {"type": "string", "minLength": 1, "maxLength": 200,
                                   "description": "the mistaken text, exactly as the rule writes it"},
                           "new": {"type": "string", "maxLength": 200, "description": "the corrected text"}}},
    who=ADMIN,
    idle_ok=True,  # seed 001 1.2: idle players still count as players for rule 1.1, so idle admins keep this power
    check=_check,
    effect=_fix,
    in_hiatus=True,
    doc="Replaces `old` (which must appear once, in the rule's title or text) by `new`; at most 40 characters "
        "change. Whether it is really a typo is for the players to judge (a CfJ), as on the blog.",
)

ACTIONS = [TYPO]
