"""The two versions of BlogNomic's core rules in the seeds, as options.

``variant: ruleset-75`` is seed 001 (BlogNomic Ruleset 75, 2010);
``variant: quazie`` is seed 003 (the end of the First Dynasty of Quazie, 2005).
A game picks a variant in ``game.yaml`` and may override any single option:

    options:
      blognomic: {variant: quazie, nonvoter_penalty: 0}
"""

from __future__ import annotations

from typing import Any

VARIANTS: dict[str, dict[str, Any]] = {
    "ruleset-75": {
        "veto": True,  # Dynasties (seed 001 1.8): the leader may vote to VETO any Proposal
        "leader_deferential": "cancels",  # Voting (1.4): the leader's DEFERENTIAL cancels their earlier vote
        "enact_48h_min_votes": 2,  # Enactment (1.5): "more than 1 valid vote"
        "self_kill_blocks_enactment": True,  # 1.5: enactable only if "not vetoed or self-killed"
        "fail_48h": "half-or-fewer-for",  # Enactment (1.5): half or fewer of its votes are FOR
        "fail_48h_few_votes": True,  # Enactment (1.5): fewer than 2 valid votes after 48 hours
        "fail_all_voted": False,
        "double_votes": False,
        "stuff_stat": None,
        "nonvoter_penalty": 0,
        "cfj_days": 4,
        "cfj_days_in_hiatus": 2,
        "cfj_against_quorum_ends": True,
        "cfj_fail_without_effect": True,  # 1.6: any admin may fail a CfJ that has no effect on ruleset or gamestate
        "idle_basis": "activity",  # Colonists (1.2): no entry or comment in the last seven days
        "idle_after_days": 7,
        "unidle_wait_days": 4,
        "dov": "ruleset-75",
        "ascension_resets_stats": False,
        "ascension_renumbers": False,
        "leader_may_declare": False,  # 1.9: a Colonist "other than the Expedition Leader" may declare victory
        "leader_may_pass": True,  # 1.9: the maker of the passing DoV may hand the new leadership to another Colonist
        # 1.2 counts idle Colonists as Colonists for 1.8, whose dynasty is headed by a Colonist: a proposal's or CfJ's
        # effects may name an idle one the leader
        "idle_may_lead": True,
        "ascension_veto": False,  # 1.9: the Address names a theme, repeals dynastic rules, replaces keywords; no veto
        # 1.9: "any keywords" are replaced, in every rule (None); a list: the only words replaced in the core rules too
        "ascension_core_words": None,
        "core_sections": ["core", "glossary"],
        "hiatus_rules": ["players", "voting", "cfj", "tracking", "victory"],
        "proposals_pending_max": 2,
        "proposals_per_day": 3,
        # 1.7: an official post may be withdrawn or altered while "no Colonist" has commented, so the author's own
        # vote blocks
        "withdraw_own_comment_blocks": True,
        "remove_idle_after_win": False,  # 1.9 says nothing of idle Colonists when a dynasty is won
        "rename_by_player": False,  # 1.2: a Colonist's name changes only as a result of a proposal approving it
        # 1.5 counts hours "open for voting" while it "has continuously been a proposal": an alteration (1.7) leaves
        # it open and a proposal, so its hours run from its posting; true: from its last alteration instead
        "alter_restarts_clock": False,
        # 1.4: the proposer counts FOR if they have "not cast a Vote"; one whose vote lapsed (idle, or left and came
        # back) has cast one, no longer valid (1.4), so has no vote until they cast another
        "lapsed_author_counts_for": False,
        # Glossary, Subject: the part of an entry's title after its first colon (or all of it); an entry whose
        # subject is empty is not valid, so a proposal or CfJ titled "Proposal:" is refused
        "empty_subject_invalid": True,
    },
    "quazie": {
        "veto": False,  # rule 8 lists the GRAND POOBAH's powers, and lists none
        "leader_deferential": "forbidden",  # rule 4: the GRAND POOBAH cannot vote DEFERENTIAL
        "enact_48h_min_votes": 0,
        "self_kill_blocks_enactment": False,  # rule 5's enactment sentence has no self-kill exception
        "fail_48h": "most-against",  # rule 5: more than 48 hours old and most of its votes are AGAINST
        "fail_48h_few_votes": False,
        "fail_all_voted": True,  # rule 5: all Muffins voted and it still cannot be enacted
        "double_votes": True,  # rule 3: compensate and admonish
        "stuff_stat": "stuff",
        "nonvoter_penalty": 5,  # rule 10: the admin may deduct 5 Stuffs from those who did not vote
        "cfj_days": 4,
        "cfj_days_in_hiatus": 4,
        "cfj_against_quorum_ends": False,
        "cfj_fail_without_effect": False,  # rule 6 has no such power: every CfJ runs until Quorum FOR or four days
        "idle_basis": "votes",  # rule 2: failed to vote for more than a week
        "idle_after_days": 7,
        "unidle_wait_days": 0,
        "dov": "quazie",
        "ascension_resets_stats": True,  # rule 9: all GNDT stats reset to zero or blank
        "ascension_renumbers": True,  # rule 9: the remaining rules are renumbered
        "leader_may_declare": True,  # rule 9: any Muffin who believes they have won may declare; no exception
        "leader_may_pass": False,  # rule 9 lets the new GRAND POOBAH do nothing of the kind
        "idle_may_lead": False,  # rule 2 counts idle Muffins only in rules 1 and 2, not in rule 8 (the GRAND POOBAH)
        "ascension_veto": True,  # rule 9: the Address may proclaim the veto of pending proposals
        # rule 9: the five words it names (with the forms the rules write them in: Muffins, Stuff, Years) are
        # replaced wherever they stand; any other keyword only in rules over 9. Once renamed, rule 9's text names
        # the new terms: the dynasty's ``ascension_words`` then holds the list
        "ascension_core_words": ["Muffin", "Muffins", "GRAND POOBAH", "Stuffs", "Stuff", "Year", "Years", "A.E."],
        "core_sections": ["core"],
        "hiatus_rules": ["cfj"],  # rule 9: only Calls for Judgment during Hiatus
        "proposals_pending_max": 2,
        "proposals_per_day": 3,
        "withdraw_own_comment_blocks": False,  # rule 7: withdrawn or altered while "nobody else" has commented
        "remove_idle_after_win": True,  # rule 9: the GRAND POOBAH may remove Muffins idle throughout the won Dynasty
        "rename_by_player": True,  # rule 2: a Muffin may change their name at any time
        "alter_restarts_clock": False,  # rule 5: "open for voting", "more than 48 hours old": from its posting
        "lapsed_author_counts_for": True,  # rule 4, as read in docs/modules/quazie.md ("Who did not vote")
        "empty_subject_invalid": False,  # seed 003 has no glossary defining an entry's subject
    },
}


def options(config: dict[str, Any]) -> dict[str, Any]:
    chosen = dict(config.get("options", {}).get("blognomic", {}))
    variant = chosen.pop("variant", "ruleset-75")
    if variant not in VARIANTS:
        raise ValueError(f"unknown BlogNomic variant {variant!r} (known: {', '.join(VARIANTS)})")
    return {**VARIANTS[variant], **chosen, "variant": variant}


def _schema() -> dict[str, Any]:
    props: dict[str, Any] = {"variant": {"enum": list(VARIANTS)}}
    for name, value in VARIANTS["ruleset-75"].items():
        if name == "ascension_core_words":
            props[name] = {"type": ["array", "null"], "items": {"type": "string"}, "uniqueItems": True}
        elif isinstance(value, bool):
            props[name] = {"type": "boolean"}
        elif isinstance(value, int) or name in ("stuff_stat",):
            props[name] = {"type": "integer", "minimum": 0} if name != "stuff_stat" else {"type": ["string", "null"]}
        elif isinstance(value, list):
            props[name] = {"type": "array", "items": {"type": "string"}}
        elif isinstance(value, str):
            choices = sorted({v[name] for v in VARIANTS.values()})
            props[name] = {"enum": choices}
    return {"type": "object", "properties": props, "additionalProperties": False}


OPTIONS_SCHEMA = _schema()
