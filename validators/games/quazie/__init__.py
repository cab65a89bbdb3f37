"""The First Dynasty of Quazie (seed 003, rules 10 on): Stuffs and their nature, Positions, flavours,
tag, the special positions, dance-offs, roles, music, colours and the Hands.

Used with the BlogNomic core rules: ``modules: [blognomic, quazie]`` and
``options: {blognomic: {variant: quazie}}``. See docs/modules/quazie.md.
"""

from __future__ import annotations

from typing import Iterator

from ...engine import DocKind, Module, Problem, State, repealed
from . import (
    ascension,
    consequences,
    dance,
    flavours,
    fresh,
    hands,
    launch,
    leaving,
    movement,
    music,
    returning,
    roles,
    stuff,
    tag,
)
from .common import (
    DANCE_FIELD,
    DEFAULT_OPTIONS,
    IT,
    LAUNCH_BASE,
    MORNINGTON,
    R_COLOURS,
    R_DANCE_MOVES,
    R_FLAVOURS,
    R_HANDS,
    R_MUSIC,
    R_NATURE,
    R_ROLES,
    R_SPECIAL,
    R_STUFFS,
    R_TAG,
    ROBOT,
    flavour_names,
    listed,
    rule_number,
    stat,
    victory_at_one,
)
from .pages import pages
from .rename import rename as rename_documents
from .wording import worded


def _option_problems(state: State) -> Iterator[Problem]:
    chosen = state.config.get("options", {}).get("quazie", {})
    for key, value in chosen.items():
        if key not in DEFAULT_OPTIONS:
            yield Problem(f"unknown option {key!r} (known: {', '.join(DEFAULT_OPTIONS)})", "game",
                          field=f"options.quazie.{key}")
        elif key == "unknown_note" and value not in ("record", "refuse"):
            yield Problem("unknown_note is 'record' or 'refuse'", "game", field="options.quazie.unknown_note")
        elif key != "unknown_note" and not isinstance(value, bool):
            yield Problem(f"{key} is true or false", "game", field=f"options.quazie.{key}")


def _invariants(state: State) -> Iterator[Problem]:
    """The module's checks of a whole state. Each part a dynastic rule makes checks only while that rule is in force
    (``engine.repealed``); the options, the Hands' places and the tables' shape are the game's files, no rule's."""
    # seed 003 rule 13 "Muffin Flavors": exactly one Flavor each; rule 14 "Tag": one It; rule 15 "Special Position
    # Rules": nobody in Mornington Crescent, a Muffin at 4 is Robot; rule 18 "Colours": a Colour is an HTML colour
    # keyword; rule 19 "Dance Moves": a Dance Move each; rule 23 "Muffin Roles": its roles, one GRAND POOBAH, one
    # Stuff Describer; rule 24 "Music": a Note History of notes
    flavours_, tag_, special = (not repealed(state, r) for r in (R_FLAVOURS, R_TAG, R_SPECIAL))
    moves_, roles_, music_ = (not repealed(state, r) for r in (R_DANCE_MOVES, R_ROLES, R_MUSIC))
    yield from _option_problems(state)
    if not repealed(state, R_COLOURS):
        yield from hands.colour_problems(state)
    yield from hands.hand_problems(state)
    # seed 003 rule 11 "The Nature Of Stuff": a final capital O marks the Old Items' columns only
    if not repealed(state, R_NATURE):
        yield from stuff.column_problems(state)
    # seed 003 rule 22 "Sleight of Hand": two Hands, the only text in double braces; repealed, no Hands to count
    if not repealed(state, R_HANDS):
        yield from hands.brace_problems(state)
    known = set(flavour_names(state))
    moves = set(state.doc("quazie_tables")["dance"]["roll"].values())
    bad_table = dance.table_problem(state.doc("quazie_tables")["dance"])
    if bad_table:
        yield bad_table
    its = []
    for i, p in enumerate(state.doc("roster")["players"]):
        where = f"players[{i}].stats"
        if special and stat(p, "position") == MORNINGTON:
            yield Problem("no Muffin may ever be in Mornington Crescent", "roster", field=f"{where}.position")
        # a stat of another type than declared (check_roster says so) is no flavour, move or list of them either
        if flavours_ and (not isinstance(stat(p, "flavour"), str) or stat(p, "flavour") not in known):
            yield Problem(f"{stat(p, 'flavour')!r} is not a flavour", "roster", field=f"{where}.flavour")
        if special and stat(p, "position") == LAUNCH_BASE and stat(p, "flavour") != ROBOT:
            yield Problem("a Muffin at Position 4 is Robot", "roster", field=f"{where}.flavour")
        if moves_ and (not isinstance(stat(p, DANCE_FIELD), str) or stat(p, DANCE_FIELD) not in moves):
            yield Problem(f"{stat(p, DANCE_FIELD)!r} is not a Dance Move", "roster", field=f"{where}.{DANCE_FIELD}")
        # rule 2: idle Muffins are not Muffins for rules 14 and 23 (and keep their values while idle), so an idle
        # Muffin still marked It, or holding a role only one may hold, makes no second one
        if tag_ and stat(p, "tag") == IT and not p.get("idle"):
            its.append(p["name"])
        bad_notes = music.note_problem(listed(p, "notes")) if music_ else None
        if bad_notes:
            yield Problem(f"{p['name']}'s Note History: {bad_notes}", "roster", field=f"{where}.notes")
        for role in listed(p, "roles") if roles_ else ():
            if role not in roles.ROLES:
                yield Problem(f"{role!r} is not a role of rule {rule_number(state, R_ROLES)}", "roster",
                              field=f"{where}.roles")
    if len(its) > 1:
        yield Problem(f"only one Muffin is It, not {', '.join(its)}", "roster", field="players")
    if not roles_:
        return
    for role in (roles.POOBAH, stuff.DESCRIBER):
        holders = [p["name"] for p in state.doc("roster")["players"]
                   if role in listed(p, "roles") and not p.get("idle")]
        if len(holders) > 1:
            yield Problem(f"there may be only one {role}, not {', '.join(holders)}", "roster", field="players")
    for i, name, boss in roles.second_poobahs(state):
        yield Problem(roles.second_poobah_message(state, name, boss), "roster", field=f"players[{i}].stats.roles")


# every refusal and report in the game's words: an Ascension Address may rename Muffin and the GRAND POOBAH (rule 9)
MODULE = worded(Module(
    name="quazie",
    title="The First Dynasty of Quazie",
    words={"player": "Muffin", "players": "Muffins", "leader": "GRAND POOBAH"},
    labels={"stuff": "Stuffs"},
    # seed 003 rule 10 "Stuffs": a fractional value of Stuffs is rounded down (a proposal's patch writing 50.5 gives 50)
    round_down={"stuff": R_STUFFS},
    docs=[
        DocKind("quazie", "quazie_state.schema.json", "Day log, Launch Base, tag, music and Hands bookkeeping",
                fresh_founding=fresh.fresh_state),
        DocKind("quazie_tables", "quazie_tables.schema.json", "Flavours, dance table, DICE42, notes, movements"),
        DocKind("quazie_items", "quazie_items.schema.json", "The New Item and the Old Items (nature of Stuff)",
                fresh.fresh_items),
    ],
    actions=(movement.ACTIONS + flavours.ACTIONS + tag.ACTIONS + launch.ACTIONS + dance.ACTIONS + stuff.ACTIONS
             + roles.ACTIONS + music.ACTIONS + hands.ACTIONS),
    events=stuff.EVENTS,
    # After every action (each tied to its rule where it has one): the win's reset and the Address's renames (9);
    # a Hand left in no rule by a change to the ruleset goes to its Pocket, and an admin's change is noted for the
    # Hand they may (or, after a Shoo, must) move (22);
    # departures; Position 4's Robot and arrivals (15); the Limbo guard (15); for a Muffin a proposal's patch moved,
    # Rome's Plain (15), the note it plays (24) and its landing (12); spent notes within their histories (24); when
    # Writers of Awesome (23) and Blind Muffins (13) began; returns from idleness (14, 23); no second GRAND POOBAH (23)
    consequences=[ascension.dynasty_won, ascension.address_renames, hands.pocket_lost_hands,
                  hands.note_ruleset_change, leaving.departures,
                  consequences.launch_base, consequences.limbo_guard, movement.rome_makes_plain,
                  movement.patch_plays_note, movement.patch_landing, music.spent_within_history,
                  roles.writer_since, flavours.blind_since, returning.only_one_returns, roles.poobah_guard],
    gates=[consequences.robot_gate, hands.shoo_obliges],
    invariants=[_invariants],
    pages=pages,
    # rule 22: a standing Shoo, and the Hand an admin may (or must) move now
    due=hands.due,
    rename=rename_documents,
    doc=__doc__ or "",
))

__all__ = ["MODULE", "victory_at_one"]
