"""BlogNomic's core rules: players, proposals, votes, enactment, CfJs, victory and ascension.

One module, two versions (seed 001's Ruleset 75 and seed 003's Quazie core),
chosen per game with ``options.blognomic.variant``. See docs/modules/blognomic.md.
"""

from __future__ import annotations

from typing import Iterator

from ...engine import Ctx, DocKind, Module, Problem, State
from . import due, judgment, players, proposals, tracking, typo, victory
from .common import leader
from .options import OPTIONS_SCHEMA, options


def _invariants(state: State) -> Iterator[Problem]:
    try:
        options(state.config)
    except ValueError as e:
        yield Problem(str(e), field="options.blognomic", file="game")
    names = {p["name"] for p in state.doc("roster")["players"]}
    boss = state.doc("dynasty").get("leader")
    if boss is not None and boss not in names:
        yield Problem(f"the leader {boss!r} is not on the roster", field="leader", file="dynasty")
    ids = [p["id"] for p in state.doc("proposals")["proposals"]]
    if len(ids) != len(set(ids)):
        yield Problem("proposal numbers must be unique", field="proposals", file="proposals")
    if ids and state.doc("proposals")["next"] <= max(ids):
        yield Problem("next must be greater than every proposal number", field="next", file="proposals")


def _npc_gate(ctx: Ctx) -> Iterator[Problem]:
    """Seed 001 1.2-1.9 / seed 003 rules 2-9: the core actions are a player's (a Colonist's, a Muffin's).

    A roster entry with a ``kind`` (a non-player character, an Outsider) is no player: it counts for nothing in
    Quorum or a tally, so it may not propose, vote, raise a CfJ, declare victory or take any other core action.
    What it may do is its dynasty module's to say, for that module's own actions.
    """
    if not ctx.action.name.startswith("core."):  # asked of every action: the name first, the roster only then
        return
    me = ctx.player()
    if me is not None and me.get("kind"):
        yield Problem(f"{ctx.actor} is not a player (a {me['kind']}); only players take the core rules' actions",
                      rule=ctx.action.rule)


MODULE = Module(
    name="blognomic",
    title="BlogNomic core rules",
    docs=[
        DocKind("proposals", "proposals.schema.json", "Proposals and their votes", due.fresh_list("proposals")),
        DocKind("cfjs", "cfjs.schema.json", "Calls for Judgment", due.fresh_list("cfjs")),
        DocKind("dovs", "dovs.schema.json", "Declarations of Victory", due.fresh_list("dovs")),
        DocKind("dynasty", "dynasty.schema.json", "The dynasty and its leader", due.fresh_dynasty),
    ],
    actions=(players.ACTIONS + proposals.ACTIONS + judgment.ACTIONS + victory.ACTIONS + typo.ACTIONS
             + tracking.ACTIONS),
    gates=[_npc_gate, victory.hiatus_gate],
    # After every action: a proposal or CfJ the effects took out of pending is recorded as resolved, but one with
    # effects of its own cannot be marked enacted or passed by them (1.5, 1.6 / rules 5, 6: its effects would be lost);
    # an author's AGAINST the effects write on their pending proposal self-kills it as core.vote's would (1.4, 1.5);
    # a DoV an action's effects (a CfJ's patch) passed or failed is resolved as core.dov-resolve
    # resolves one (seed 001 1.9 / seed 003 rule 9: the new dynasty, the other DoVs failed, the 120-hour bar); then
    # a dynasty awaiting its Address whose leader the effects changed is named after them (1.8 / rule 8); the
    # pending CfJs whose Hiatus days ran out when the Hiatus ends are marked (1.6), and those whose votes have just
    # reached Quorum (1.6 / rule 6: the CfJ ends then). Each tied to its rule.
    consequences=[proposals.follow_status_patch, proposals.patched_self_kill, judgment.follow_status_patch,
                  victory.follow_dov_patch, victory.name_after_new_leader, judgment.hiatus_ended,
                  judgment.note_quorum],
    invariants=[_invariants],
    leader=leader,
    due=due.due,
    open_votes=due.open_votes,
    advice=proposals.vote_advice,
    options_schema=OPTIONS_SCHEMA,
    rename=players.rename_documents,
    doc=__doc__ or "",
)
