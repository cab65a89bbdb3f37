"""Cycle 12 (seed 004): a Discord nomic of hand-drawn sheets, played here as code.

Phases (Monday-Wednesday, Thursday-Sunday) numbered in Roman numerals from the
cycle's start; standard and urgent proposals made of changes; reputability;
character sheets; locations on a grid with terrain tags; nomsters; items and
trades; gooderhose points; medals; judgement. See docs/modules/cycle12.md.
"""

from __future__ import annotations

from collections.abc import Iterator
from operator import itemgetter
from typing import Any

from ...engine import DocKind, Module, Problem, State, peek, repealed
from . import cycle, fresh, items, justice, nomsters, players, proposals, transcription, world
from .common import ITEMS, JUSTICE, MEDALS, NOMSTERS, PROPOSALS, SHEETS, WORLD
from .options import OPTIONS_SCHEMA, options
from .pages import open_votes, proposal_advice
from .pages import pages as draw_pages
from .ruletree import problems as rule_problems
from .world import tag_conflict


def _invariants(state: State, touched: frozenset[str] | None = None) -> Iterator[Problem]:
    """Every invariant of a whole state; with ``touched`` (document kinds, and "rules"), only those that read
    one of them (a proposal's changes compare the state they give with the one before: an invariant that
    reads none of what they changed finds the same in both). ``touched`` assumes the same configuration."""
    def reads(*kinds: str) -> bool:
        return touched is None or not touched.isdisjoint(kinds)

    try:
        o = options(state.config)
    except ValueError as e:
        if touched is None:
            yield Problem(str(e), field="options.cycle12", file="game")
        return
    if reads("rules"):
        yield from rule_problems(state, o["separator"])
    # the parts that are one rule's each: a repealed rule's part no longer checks anything (seed 004, below);
    # one lookup each, once per look at a state
    families_rule = not repealed(state, "tag-families")
    medal_box_rule, medals_rule = not repealed(state, "medal-box"), not repealed(state, "medals")
    bond_rule, active_rule = not repealed(state, "nomster-bond"), not repealed(state, "active-nomster")
    teams_rule, tame_rule, items_rule = not repealed(state, "teams"), not repealed(state, "tame-nomsters"), \
        not repealed(state, "items")
    # only read (peek: a document edited in a transaction is not copied on the way); sets for "in"
    names = [p["name"] for p in peek(state.doc("roster")["players"])]
    known = set(names)
    sheets = list(peek(state.doc(SHEETS)["sheets"]))
    if reads("roster", SHEETS):
        have = {s["player"] for s in sheets}
        for n in names:
            if n not in have:
                yield Problem(f"{n} has no character sheet", file=SHEETS, field="sheets")
    locs = list(peek(state.doc(WORLD)["locations"]))
    ids = set(map(itemgetter("id"), locs))
    if reads(WORLD) and not _map_is_clean(state, locs, families_rule):  # else: no two at one place, no tags in conflict
        seen: dict[tuple[int, int], str] = {}
        conflicts: dict[tuple[str, ...], str | None] = {}  # tag_conflict of each set of tags, once
        for i, loc in enumerate(locs):
            key = (loc["x"], loc["y"])
            if key in seen:
                yield Problem(f"{loc['name']} and {seen[key]} are both at {key}", file=WORLD, field=f"locations[{i}]")
            seen[key] = loc["name"]
            tags = loc.get("tags", [])
            tags_key = tuple(tags)
            if tags_key not in conflicts:
                conflicts[tags_key] = tag_conflict(state, tags, families=families_rule)
            why = conflicts[tags_key]
            if why:
                yield Problem(why, file=WORLD, field=f"locations[{i}].tags", rule="tag-families")
    if reads(WORLD) and locs and len({loc["name"].casefold() for loc in locs}) != len(locs):
        yield Problem("two locations share a name", file=WORLD, field="locations")
    if reads(SHEETS, "roster", WORLD):
        for i, s in enumerate(sheets):
            if s["player"] not in known:
                yield Problem(f"{s['player']} is not a player", file=SHEETS, field=f"sheets[{i}].player")
            if s.get("location") is not None and s["location"] not in ids:
                yield Problem(f"no location {s['location']}", file=SHEETS, field=f"sheets[{i}].location")
    nomster_list = list(peek(state.doc(NOMSTERS)["nomsters"]))
    if reads(SHEETS, MEDALS, NOMSTERS):
        noms = {n["id"]: n for n in nomster_list}
        medal_ids = {m["id"] for m in state.doc(MEDALS)["medals"]}
        for i, s in enumerate(sheets):
            box = s.get("medals", [])
            # seed 004 "Medal Box": the box holds the medals earned, and nothing else
            if medal_box_rule and (len(set(box)) != len(box) or not set(box) <= medal_ids):
                yield Problem("the Medal Box holds only medals the player earned, each once", file=SHEETS,
                              field=f"sheets[{i}].medals", rule="medal-box")
            # seed 004 "Nomster Bond": a player's bond is with a nomster bonded to them
            if bond_rule and s.get("bonded") is not None and noms.get(s["bonded"], {}).get("bonded_to") != s["player"]:
                yield Problem(f"{s['player']} is bonded to nomster {s['bonded']}, which is not bonded to them",
                              file=SHEETS, field=f"sheets[{i}].bonded", rule="nomster-bond")
            # seed 004 "Active Nomster": the active nomster is one of the player's team
            if active_rule and s.get("active") is not None and noms.get(s["active"], {}).get("trainer") != s["player"]:
                yield Problem(f"{s['player']}'s active nomster {s['active']} is not on their team", file=SHEETS,
                              field=f"sheets[{i}].active", rule="active-nomster")
        if bond_rule:
            # seed 004 "Nomster Bond": a player is bonded to one nomster, the one their sheet names (a bond is the
            # two's): a nomster bonded to a player whose sheet names another nomster, or none, is a second bond
            bonded = {s["player"]: s.get("bonded") for s in sheets}
            for i, n in enumerate(nomster_list):
                p = n.get("bonded_to")
                if p and p in bonded and bonded[p] != n["id"]:
                    yield Problem(f"nomster {n['id']} is bonded to {p}, whose sheet names "
                                  f"{'nomster ' + str(bonded[p]) if bonded[p] is not None else 'no bond'}",
                                  file=NOMSTERS, field=f"nomsters[{i}].bonded_to", rule="nomster-bond")
    if reads(WORLD) and not reads(NOMSTERS):
        # the nomsters are those of the state before: only where they are can break (the rest is not new)
        if not set(map(itemgetter("location"), nomster_list)) <= ids:
            for i, n in enumerate(nomster_list):
                if n["location"] not in ids:
                    yield Problem(f"no location {n['location']}", file=NOMSTERS, field=f"nomsters[{i}].location")
    elif reads(NOMSTERS, WORLD) and not _nomsters_are_clean(nomster_list, ids):
        tame_keys: dict[tuple[str, str], int] = {}
        for i, n in enumerate(nomster_list):
            if n["location"] not in ids:
                yield Problem(f"no location {n['location']}", file=NOMSTERS, field=f"nomsters[{i}].location")
            # seed 004 "Teams": a bonded nomster stays on its player's team
            if teams_rule and n.get("bonded_to") and n.get("trainer") != n["bonded_to"]:
                yield Problem("a bonded nomster is always on its bonded player's team", file=NOMSTERS,
                              field=f"nomsters[{i}].trainer", rule="teams")
            # seed 004 "Tame Nomsters": a tame nomster's portrait, species and names are its own
            if tame_rule and not n["wild"]:
                for key in nomsters.UNIQUE:
                    # compared as a card's properties are (card_key: case and spaces aside), so a patch cannot give a
                    # tame nomster a name the card check calls another's (it compared without case only)
                    k = (key, nomsters.card_key(n.get(key, "")))
                    if k in tame_keys:
                        yield Problem(f"{key} is shared with nomster {tame_keys[k]}", file=NOMSTERS,
                                      field=f"nomsters[{i}].{key}", rule="tame-nomsters")
                    tame_keys[k] = n["id"]
    if reads(NOMSTERS, "roster"):
        # 004 Teams, Nomster Bond: a trainer, and a bonded one, is a player (one who left leaves no team or bond:
        # nomsters.release_departed); bookkeeping, as the judge below, so not tied to a rule
        named = {dict.get(n, key) for n in nomster_list for key in ("trainer", "bonded_to")}
        if not named - {None} <= known:
            for i, n in enumerate(nomster_list):
                for key in ("trainer", "bonded_to"):
                    if n.get(key) is not None and n[key] not in known:
                        yield Problem(f"nomster {n['id']}'s {key.replace('_', ' ')} {n[key]!r} is not a player",
                                      file=NOMSTERS, field=f"nomsters[{i}].{key}",
                                      rule="teams" if key == "trainer" else "nomster-bond")
    for kind, listed, counter in ((NOMSTERS, "nomsters", "next"), (WORLD, "locations", "next_location"),
                                  (ITEMS, "items", "next"), (PROPOSALS, "proposals", "next")):
        if not reads(kind):
            continue
        ids_here = list(map(itemgetter("id"), peek(state.doc(kind)[listed])))
        if len(ids_here) != len(set(ids_here)):
            yield Problem(f"two {listed} share an id", file=kind, field=listed)
        if ids_here and state.doc(kind)[counter] <= max(ids_here):
            yield Problem(f"{counter} must be greater than every id in {listed}", file=kind, field=counter)
    # seed 004 "Items": every item is owned by an entity
    if items_rule and reads(ITEMS, "roster", NOMSTERS):
        nomster_ids = {f"nomster:{n['id']}" for n in nomster_list}
        kinds = state.doc(ITEMS).get("kinds") or {}
        for i, item in enumerate(peek(state.doc(ITEMS)["items"])):
            if item["owner"] not in known and item["owner"] not in nomster_ids:
                yield Problem(f"item {item['id']} is owned by {item['owner']!r}, who is no entity", file=ITEMS,
                              field=f"items[{i}].owner", rule="items")
                continue
            # only what the rules call an item is one, owned only by an entity they allow to own it
            spec = kinds.get(item["kind"])
            if spec is None:
                yield Problem(f"item {item['id']} is a {item['kind']}, which is no kind of item", file=ITEMS,
                              field=f"items[{i}].kind", rule="items")
            elif items.owner_kind(item["owner"]) not in spec.get("owners", ["player"]):
                yield Problem(f"item {item['id']} is owned by {item['owner']}, but a "
                              f"{items.owner_kind(item['owner'])} may not own a {item['kind']}", file=ITEMS,
                              field=f"items[{i}].owner", rule="items")
    # seed 004 "Medals": no more holders than a medal's quantity
    if medals_rule and reads(MEDALS, SHEETS):
        for medal in state.doc(MEDALS)["medals"]:
            held = cycle.holders(state, medal["id"])
            if len(held) > medal["quantity"]:
                yield Problem(f"{len(held)} players hold the {medal['name']}; at most {medal['quantity']} may",
                              file=SHEETS, field="sheets", rule="medals")
    j = state.doc(JUSTICE).get("judge")
    if reads(JUSTICE, "roster") and j is not None and j not in names:
        yield Problem(f"the judge {j!r} is not a player", file=JUSTICE, field="judge")


def _map_is_clean(state: State, locs: list[dict[str, Any]], families: bool = True) -> bool:
    """No two locations at one place and no location's tags in conflict (asked in C, and once per set of tags),
    or False when that is not so, or cannot be said so quickly (then every location is looked at)."""
    try:
        places = list(zip(map(itemgetter("x"), locs), map(itemgetter("y"), locs)))
        if len(set(places)) != len(places):
            return False
        return not any(tag_conflict(state, list(tags), families=families) for tags in set(map(tuple, map(_tags, locs))))
    except Exception:  # noqa: BLE001 - the full look says what is wrong, or fails where it fails
        return False


def _tags(loc: dict[str, Any]) -> Any:
    return loc.get("tags", [])


def _nomsters_are_clean(nomster_list: list[dict[str, Any]], ids: set[Any]) -> bool:
    """No nomster in no location, every bonded one on its player's team, no card property shared by two tame
    ones; False when that is not so, or cannot be said so quickly (then every nomster is looked at)."""
    try:
        if not set(map(itemgetter("location"), nomster_list)) <= ids:
            return False
        if any(n.get("bonded_to") and n.get("trainer") != n["bonded_to"] for n in nomster_list):
            return False
        tame = [n for n in nomster_list if not n["wild"]]
        for key in nomsters.UNIQUE:
            values = [nomsters.card_key(n.get(key, "")) for n in tame]
            if len(set(values)) != len(values):
                return False
        return True
    except Exception:  # noqa: BLE001 - the full look says what is wrong, or fails where it fails
        return False


MODULE = Module(
    name="cycle12",
    title="Cycle 12",
    docs=[
        DocKind(proposals.PROPOSALS, "cycle12_proposals.schema.json", "Proposals, their changes and votes",
                fresh.fresh_proposals),
        DocKind(SHEETS, "cycle12_sheets.schema.json", "Character sheets: what each must show", fresh.fresh_sheets),
        DocKind(WORLD, "cycle12_world.schema.json", "The world map: locations, suggestions, tags, announcements",
                fresh.fresh_world),
        DocKind(NOMSTERS, "cycle12_nomsters.schema.json", "Nomsters, types, classes and the nomster index",
                fresh.fresh_nomsters),
        DocKind(ITEMS, "cycle12_items.schema.json", "Items, their owners, and trades", fresh.fresh_items),
        DocKind(MEDALS, "cycle12_medals.schema.json", "The medals, their conditions and quantities"),
        DocKind(JUSTICE, "cycle12_justice.schema.json", "The judge, requests for justice, elections",
                fresh.fresh_justice),
        DocKind("cycle12_cycle", "cycle12_cycle.schema.json", "The cycle's end and its winners", fresh.fresh_cycle),
    ],
    actions=players.ACTIONS + proposals.ACTIONS + world.ACTIONS + nomsters.ACTIONS + items.ACTIONS
    + justice.ACTIONS + transcription.ACTIONS,
    # the phase start first: at a moment that is both, it resolves what is due (the urgent event skips it)
    events=[cycle.PHASE_BEGINS, proposals.URGENT_ENDS, justice.CONFIDENCE_ENDS, cycle.BECOMES_REPUTABLE],
    consequences=[cycle.award_medals, cycle.win_check, justice.lapse_assents],
    gates=[cycle.ended_gate, nomsters.ascended_gate],
    invariants=[_invariants],
    options_schema=OPTIONS_SCHEMA,
    leader=justice.judge,
    found=fresh.found,
    pages=draw_pages,
    open_votes=open_votes,
    advice=proposal_advice,
    doc=__doc__ or "",
)
