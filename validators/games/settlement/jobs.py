"""Seed 001, 2.6 Jobs: every Job a Colonist holds is one the rule lists (the handbook's ``jobs``).

The rule lists the Jobs and makes Peasant the default. A proposal may strike a Job from the list (the handbook
is data proposals change) while somebody holds it; the Job then no longer exists, and its holder has none of
the listed Jobs but the default: e lapses to Peasant at that moment (the core rules' Idle clause treats a value
that has become undefined the same way, giving the value new Colonists receive). An action that itself writes
a Job the rule does not list onto somebody (a proposal's patch that makes Ann a Knight without adding the
Knight to the handbook) is refused: nothing could follow from holding it. A roster left holding one by hand is
reported by the module's invariant (``unlisted``).
"""

from __future__ import annotations

from itertools import compress, count
from operator import is_not
from typing import Any, Iterator

from ...engine import Ctx, State, peek
from ...problems import Illegal, Problem
from ...roster import set_stat
from .common import handbook

DEFAULT = "Peasant"  # 2.6 Jobs: the default Job (the handbook's schema requires it)


def unlisted(state: State | Ctx) -> Iterator[tuple[int, dict[str, Any], str]]:
    """(index, player, job) for each player on the roster whose Job the handbook's ``jobs`` does not list."""
    jobs = handbook(state)["jobs"]
    for i, p in enumerate(peek(state.doc("roster")["players"])):
        job = p["stats"].get("job")
        if isinstance(job, str) and job not in jobs:  # a Job that is not text is the roster's check's to report
            yield i, p, job


def _written(ctx: Ctx, jobs: Any) -> list[Problem]:
    """A Job the action set on somebody (changed, or a newcomer's) that the handbook does not list.

    Only the players the action replaced are read: the others are the very objects of the state before it
    (a transaction copies a player before writing), found in C."""
    now = ctx.doc("roster")["players"]
    before = ctx.tx.base.docs["roster"]["players"]
    if len(now) == len(before):
        changed = [(list.__getitem__(now, i), before[i])
                   for i in compress(count(), map(is_not, peek(now), before))]
    else:  # somebody joined or left: pair by name
        old = {b["name"]: b for b in before}
        changed = [(p, old.get(p["name"])) for p in peek(now) if p is not old.get(p["name"])]
    out = []
    for p, b in changed:
        job = p["stats"].get("job")
        if b is not None and b["name"] == p["name"] and b["stats"].get("job") == job:
            continue
        if isinstance(job, str) and job not in jobs:
            out.append(Problem(f"this would make {p['name']}'s Job {job}, which rule 2.6 Jobs does not list "
                               f"(the handbook's jobs: {', '.join(jobs)}); a new Job is added to the handbook's "
                               "jobs with it", rule="jobs"))
    return out


def keep_jobs_listed(ctx: Ctx) -> None:
    """After every action: a Job it wrote must be listed; a Job it struck from the handbook lapses to Peasant."""
    tx = ctx.tx
    roster = "roster" in tx.docs
    struck = "handbook" in tx.docs and dict.get(tx.docs["handbook"], "jobs") is not dict.get(
        tx.base.docs["handbook"], "jobs")
    if not (roster or struck):
        return
    jobs = handbook(ctx)["jobs"]
    # the module's own actions write only Jobs the handbook lists (settlement.job checks it; Traitor and Peasant,
    # which the Traitor-maker and Death write, the schema requires), so only other actions are read: a proposal's
    # or a CfJ's patch, a join (the roster's default Job)
    if roster and not ctx.action.name.startswith("settlement."):
        problems = _written(ctx, jobs)
        if problems:
            raise Illegal(problems)
    if struck:
        for _, p, job in list(unlisted(ctx)):
            # seed 001, 2.6 Jobs: the Job is no longer one of the rule's; its holder keeps the default
            set_stat(ctx, p["name"], "job", DEFAULT)
            ctx.step({"job": DEFAULT, "who": p["name"], "was": job, "because": "rule 2.6 Jobs no longer lists it"})
