"""Nomsters: wild and tame, population and spawning, taming, teams, the active nomster, commands,
cuddles, treats and bonds ("Nomsters", "Tame Nomsters", "Population", "Spawning", "Type", "Class",
"Taming", "Creating a Tame Nomster", "Active Nomster", "Teams", "Commands", "Follow", "Stay", "Lick",
"Join Team", "Ascend", "Cuddle", "Treats", "Nomster Bond").

A nomster card is an image in the real game; here a tame nomster's record
holds what the card shows (portrait, species name and description, name, type,
class) with an optional path to the card's image. Types and classes are data
in ``cycle12_nomsters``.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

from ...engine import Action, Ctx, peek, repealed, ruled
from ...problems import Problem
from ...roster import change_stat
from ...timeutil import day_start, parse_time
from . import items, world
from .common import (
    NOMSTER_REF,
    NOMSTERS,
    RULE_ITEM_ACTIONS,
    SHEETS,
    WORLD,
    Kept,
    _nomster_at,
    as_it_was,
    departed,
    find_nomster,
    has_ascended,
    is_reputable,
    iso,
    left_the_map,
    location_by_id,
    locations,
    nomster,
    nomster_label,
    opts,
    phase_of,
    place_name,
    players_located,
    replaced,
    sheet,
    touch_sheet,
    touch_sheet_once,
    where,
)

RULE_POPULATION = "population"
RULE_SPAWNING = "spawning"
RULE_TAMING = "taming"
RULE_CREATING = "creating-a-tame-nomster"
RULE_ACTIVE = "active-nomster"
RULE_COMMANDS = "commands"
RULE_CUDDLE = "cuddle"
RULE_LICK = "lick"
RULE_JOIN_TEAM = "join-team"
RULE_ASCEND = "ascend"
RULE_FOLLOW = "follow"
RULE_BOND = "nomster-bond"
RULE_TAME_NOMSTERS = "tame-nomsters"

UNIQUE = ("portrait", "species", "species_description", "name")


def card_key(value: Any) -> str:
    """A card property as compared for uniqueness (004 Tame Nomsters): case and the spaces around and between
    words are no difference, so "Bramble " is Bramble's name again."""
    return " ".join(str(value).split()).casefold()


def ref(n: dict[str, Any]) -> str:
    return f"{NOMSTER_REF}{n['id']}"


def wild_count(state: Any) -> int:
    return sum(1 for n in peek(state.doc(NOMSTERS)["nomsters"]) if n["wild"] and not n.get("ascended"))


def is_player(ctx: Ctx, name: str) -> bool:
    """``ctx.player(name) is not None``, by reading alone (the roster may be edited in this action)."""
    return any(p["name"] == name for p in peek(ctx.doc("roster")["players"]))


def carrying_capacity(state: Any) -> float:
    """Population: two thirds of the number of locations in the world map."""
    return 2 * len(locations(state)) / 3


def tag_rule(tag: str) -> str:
    """The id of the rule defining a terrain tag (seed 004: each tag is defined in a subrule of Tags, named as
    the tag): "Civilized" -> "civilized"."""
    return "-".join(tag.casefold().split())


def reset_index(ctx: Ctx) -> None:
    """Population: when a phase begins, the NI becomes the number of wild nomsters. Seed 004 "Population" is the
    rule that does this; repealed, the NI is left as it is."""
    if repealed(ctx, RULE_POPULATION):
        return
    doc = ctx.edit(NOMSTERS)
    doc["index"] = wild_count(ctx)
    ctx.step({"nomster_index": doc["index"]})


# ---------------------------------------------------------------- spawning


def _spawn_check(ctx: Ctx) -> Iterator[str | Problem]:
    # seed 004 "Population" is the rule that lets a player spawn a nomster, while the NI is below the NCC ("Spawning"
    # only says what spawning is); repealed, no rule lets anyone spawn one
    gone = repealed(ctx, RULE_POPULATION)
    if gone is not None:
        yield Problem(f"the rule that lets a player spawn a nomster, {gone.cite()}, has been "
                      "repealed", rule=RULE_POPULATION)
        return
    ni, ncc = ctx.doc(NOMSTERS)["index"], carrying_capacity(ctx)
    # 004 Spawning selects a random type and class from the lists of valid ones (004 Type, Class); a proposal may
    # leave a list empty, and then none can be selected (the die over an empty list failed inside the judge)
    for key, rule in (("types", "type"), ("classes", "class")):
        if not ctx.doc(NOMSTERS)[key]:
            yield Problem(f"there is no valid {'elemental type' if key == 'types' else 'class'} to select "
                          f"(cycle12_nomsters.{key} is empty)", rule=rule)
    if not locations(ctx):
        yield "there is no location to spawn a nomster in"
    elif ni >= ncc:
        # the condition is Population's ("while the NI is less than the NCC, any player can spawn"), so the
        # refusal cites Population, not Spawning (which only says what a spawn does)
        yield Problem(f"the nomster index ({ni}) is not less than the carrying capacity ({ncc:g}, two thirds of "
                      f"{len(locations(ctx))} locations)", rule=RULE_POPULATION)


def _spawn(ctx: Ctx) -> None:
    doc = ctx.doc(NOMSTERS)
    locs = locations(ctx)
    loc = locs[ctx.roll(len(locs)) - 1]
    kind = doc["types"][ctx.roll(len(doc["types"])) - 1]
    cls = doc["classes"][ctx.roll(len(doc["classes"])) - 1]
    # seed 004 "Civilized" (a subrule of Tags, by the tag's name): no nomster spawns there; repealed, one does
    civilized = [t for t in loc.get("tags", []) if ctx.doc(WORLD)["tags"].get(t, {}).get("blocks_spawning")
                 and not repealed(ctx, tag_rule(t))]
    if civilized:
        ctx.step({"spawn": "failed", "location": loc["name"], "because": f"{civilized[0]}: nothing is updated"})
        return
    doc = ctx.edit(NOMSTERS)
    ident = doc["next"]
    doc["next"] = ident + 1
    doc["nomsters"].append({"id": ident, "wild": True, "type": kind, "class": cls, "location": loc["id"],
                            "spawned": iso(ctx.at), "spawned_by": ctx.actor})
    doc["index"] += 1
    ctx.step({"spawned": ident, "type": kind, "class": cls, "location": loc["name"], "nomster_index": doc["index"]})


SPAWN = Action(
    name="cycle12.spawn",
    rule=RULE_SPAWNING,
    summary="Spawn a wild nomster at a random location, of a random type and class",
    check=_spawn_check,
    effect=_spawn,
    doc="While the nomster index is less than the carrying capacity. Three dice pick the location (in the "
        "world document's order), the type and the class. On a Civilized location the spawning fails and "
        "nothing changes; you may try again.",
)


# ---------------------------------------------------------------- taming


def _tame_once(ctx: Ctx) -> Iterator[str]:
    """004 Taming: one attempt a day (the check's head)."""
    last = ctx.doc(NOMSTERS).get("attempts", {}).get(ctx.actor)
    if last and parse_time(last) >= day_start(ctx.at):
        yield f"{ctx.actor} already attempted a taming today (at {last}); once per day"


def _nowhere_or(ctx: Ctx, here: int | None, what: str) -> str:
    return f"{ctx.actor} is at no location" if here is None else f"there is no {what} at {place_name(ctx, here)}"


def _tame_ready(ctx: Ctx) -> Iterator[str]:
    """004 Taming: the attempt is once a day, on a wild nomster in the player's location. With none there, the
    check refuses every number (no such nomster, a tame one, or one elsewhere)."""
    yield from _tame_once(ctx)
    here = where(ctx, ctx.actor)
    if not any(n["wild"] and n["location"] == here for n in peek(ctx.doc(NOMSTERS)["nomsters"])):
        yield _nowhere_or(ctx, here, "wild nomster")


def _tame_check(ctx: Ctx) -> Iterator[str]:
    yield from _tame_once(ctx)
    n = find_nomster(ctx, ctx.params["nomster"])
    if not n["wild"]:
        yield f"{nomster_label(n)} is not wild"
    elif where(ctx, ctx.actor) != n["location"]:
        yield f"{nomster_label(n)} is at {place_name(ctx, n['location'])}; {ctx.actor} is at " \
              f"{place_name(ctx, where(ctx, ctx.actor))}"


def _tame(ctx: Ctx) -> None:
    n = find_nomster(ctx, ctx.params["nomster"])
    doc = ctx.edit(NOMSTERS)
    doc.setdefault("attempts", {})[ctx.actor] = iso(ctx.at)
    roll = ctx.roll(3)
    success = roll == 3
    if success:
        doc.setdefault("tamings", []).append({"nomster": n["id"], "player": ctx.actor, "at": iso(ctx.at)})
    ctx.step({"nomster": n["id"], "d3": roll, "success": success})


TAME = Action(
    name="cycle12.tame",
    rule=RULE_TAMING,
    summary="Attempt to tame a wild nomster in your location (d3; a 3 succeeds), once a day",
    params={"type": "object", "required": ["nomster"], "additionalProperties": False,
            "properties": {"nomster": {"type": "integer", "minimum": 1,
                                       "description": "the number of the wild nomster"}}},
    check=_tame_check,
    ready=_tame_ready,
    effect=_tame,
    doc="A success lets you, once, send its nomster card (`cycle12.name-nomster`).",
)


def _name_ready(ctx: Ctx) -> Iterator[str]:
    """004 Creating a Tame Nomster: the card converts a wild nomster the sender tamed. Without a successful attempt
    of theirs on a nomster still wild, the check refuses every number (no such nomster, a tame one, or one they
    did not tame)."""
    pool = ctx.doc(NOMSTERS)
    if not any(t["player"] == ctx.actor and (nomster(ctx, t["nomster"]) or {}).get("wild")
               for t in peek(pool.get("tamings", []))):
        yield f"{ctx.actor} has no successful taming attempt to convert"


def _name_check(ctx: Ctx) -> Iterator[str | Problem]:
    n = find_nomster(ctx, ctx.params["nomster"])
    if not n["wild"]:
        yield f"{nomster_label(n)} is already tame"
        return
    if not any(t["nomster"] == n["id"] and t["player"] == ctx.actor for t in ctx.doc(NOMSTERS).get("tamings", [])):
        yield f"{ctx.actor} has no successful taming attempt on nomster {n['id']} to convert"
    # 004 Tame Nomsters: the card shows each of these properties; one of blanks shows none
    blank = [key for key in UNIQUE if not str(ctx.params[key]).strip()]
    for key in blank:
        yield f"the card must show a {key.replace('_', ' ')}: it is blank"
    if blank:
        return
    for key in ("type", "class"):
        if key in ctx.params and ctx.params[key] != n[key]:
            yield f"the card must describe the nomster's existing {key} accurately: {n[key]}, not {ctx.params[key]}"
    # the uniqueness of a tame nomster's portrait, species, species description and name is 004 Tame Nomsters'
    # condition ("which must be unique"), so a clash cites it, not Creating a Tame Nomster (which says how the card
    # converts the nomster)
    pool = ctx.doc(NOMSTERS)["nomsters"]
    index = TAME_CARDS.of(ctx, pool)
    if index is not None:  # the tame nomsters sharing a property, by the kept index of the state's list
        if index:  # a tame nomster is there to compare
            given = {key: card_key(ctx.params[key]) for key in UNIQUE}
            clashes = sorted((i, k) for k, key in enumerate(UNIQUE) for i in index.get((key, given[key]), ()))
            for i, k in clashes:
                key = UNIQUE[k]
                yield Problem(f"the {key.replace('_', ' ')} {ctx.params[key]!r} is already "
                              f"{nomster_label(pool[i])}'s; tame nomsters' card properties are unique",
                              rule=RULE_TAME_NOMSTERS)
        return
    given = None  # the card's properties, casefolded once (when a tame nomster is there to compare)
    for other in peek(pool):
        if other["wild"]:
            continue
        if given is None:
            given = {key: card_key(ctx.params[key]) for key in UNIQUE}
        for key in UNIQUE:
            if card_key(other.get(key, "")) == given[key]:
                yield Problem(f"the {key.replace('_', ' ')} {ctx.params[key]!r} is already "
                              f"{nomster_label(other)}'s; tame nomsters' card properties are unique",
                              rule=RULE_TAME_NOMSTERS)


def _card_keys(n: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    if n["wild"]:
        return ()
    return tuple((key, card_key(n.get(key, ""))) for key in UNIQUE)


# each tame nomster's card properties, as compared (card_key): (property, value) -> the nomsters' positions
TAME_CARDS = Kept(_card_keys, multi=True)  # asked only by name-nomster: kept by itself


def _name(ctx: Ctx) -> None:
    n = find_nomster(ctx, ctx.params["nomster"], edit=True)
    n["wild"] = False
    for key in UNIQUE:
        n[key] = ctx.params[key].strip()  # as the card shows it: the spaces around it are no part of it
    if ctx.params.get("card"):
        n["card"] = ctx.params["card"]
    n["named"] = iso(ctx.at)
    n["trainer"] = ctx.actor
    doc = ctx.edit(NOMSTERS)
    doc["tamings"] = [t for t in doc.get("tamings", []) if t["nomster"] != n["id"]]
    s = touch_sheet(ctx, ctx.actor)
    if not s["tamed"]:
        s["active"] = n["id"]  # Active Nomster: the first nomster a player tames
    s["tamed"].append(n["id"])
    ctx.step({"tamed": n["id"], "name": n["name"], "trainer": ctx.actor, "active": s["active"] == n["id"]})


NAME = Action(
    name="cycle12.name-nomster",
    rule=RULE_CREATING,
    summary="Send the nomster card of a nomster you tamed: it becomes tame and joins your team",
    # seed 004, Nomsters → Taming → Creating a Tame Nomster: the card converts the nomster the player tamed, so it
    # must say which one (its absence used to reach the check as a KeyError)
    params={"type": "object", "required": ["nomster", *UNIQUE], "additionalProperties": False,
            "properties": {"nomster": {"type": "integer", "minimum": 1,
                                       "description": "the number of the nomster you tamed"},
                           "name": {"type": "string", "minLength": 1, "maxLength": 60, "description": "its name"},
                           "species": {"type": "string", "minLength": 1, "maxLength": 60,
                                       "description": "its species"},
                           "species_description": {"type": "string", "minLength": 1, "maxLength": 1000,
                                                   "description": "its species, described in words"},
                           "portrait": {"type": "string", "minLength": 1, "maxLength": 300,
                                        "description": "the path of its portrait image"},
                           "card": {"type": "string", "maxLength": 300, "description": "the path of its card image"},
                           "type": {"type": "string", "description": "its type, if given (it must match)"},
                           "class": {"type": "string", "description": "its class, if given (it must match)"}}},
    check=_name_check,
    ready=_name_ready,
    effect=_name,
    doc="After a successful attempt: give the portrait (an image path), species, species description and "
        "name, each unique among tame nomsters (`type` and `class`, if given, must match). Your first tamed "
        "nomster becomes your active nomster.",
)


def _active_ready(ctx: Ctx) -> Iterator[str]:
    """004 Active Nomster: a nomster on the player's team, set once a phase. The check refuses every nomster when
    their team is empty, and says the second in its own words for every nomster on their team."""
    if not any(n.get("trainer") == ctx.actor for n in peek(ctx.doc(NOMSTERS)["nomsters"])):
        yield f"no nomster is on {ctx.actor}'s team"
    if (sheet(ctx, ctx.actor) or {}).get("active_phase") == phase_of(ctx, ctx.at):
        yield f"{ctx.actor} already set their active nomster this phase"


def _active_check(ctx: Ctx) -> Iterator[str]:
    n = find_nomster(ctx, ctx.params["nomster"])
    s = sheet(ctx, ctx.actor) or {}
    if n.get("trainer") != ctx.actor:
        yield f"{nomster_label(n)} is not on {ctx.actor}'s team"
    if s.get("active_phase") == phase_of(ctx, ctx.at):
        yield f"{ctx.actor} already set their active nomster this phase"


def _active(ctx: Ctx) -> None:
    n = find_nomster(ctx, ctx.params["nomster"])
    s = touch_sheet(ctx, ctx.actor)
    s["active"] = n["id"]
    s["active_phase"] = phase_of(ctx, ctx.at)
    ctx.step({"active": n["id"]})


SET_ACTIVE = Action(
    name="cycle12.set-active",
    rule=RULE_ACTIVE,
    summary="Set or change your active nomster (once a phase)",
    params={"type": "object", "required": ["nomster"], "additionalProperties": False,
            "properties": {"nomster": {"oneOf": [{"type": "integer", "minimum": 1}, {"type": "string"}],
                                       "description": "your tame nomster, by its number or its name"}}},
    check=_active_check,
    ready=_active_ready,
    effect=_active,
)


def lapse_active(ctx: Ctx) -> None:
    """After a proposal's changes: a player whose active nomster they took off the player's team (put on another
    team, or off the map) has no active nomster, as when it leaves by Join Team (``_command``). 004 Active Nomster
    lets a player set their active nomster to one on their team, and says nothing of a nomster that leaves it; the
    gamestate check (an active nomster is on its player's team) once failed such a popular proposal instead, which
    004 Lifecycle has take effect. Each lapse is a step of the outcome. Nothing is read unless the changes edited
    the nomsters or the sheets."""
    if NOMSTERS not in ctx.tx.docs and SHEETS not in ctx.tx.docs:
        return

    def trainers(state: Any) -> dict[int, Any]:
        return {n["id"]: n.get("trainer") for n in peek(state.doc(NOMSTERS)["nomsters"])
                if isinstance(n, dict) and type(n.get("id")) is int}

    def actives(state: Any) -> dict[str, int]:
        # a record the changes left malformed is left out, for the check of the state they give to name it
        return {s["player"]: s["active"] for s in peek(state.doc(SHEETS)["sheets"])
                if isinstance(s, dict) and isinstance(s.get("player"), str) and type(s.get("active")) is int}

    before, now = ctx.tx.base, trainers(ctx)
    was, chosen = trainers(before), actives(before)
    # only a nomster that was on its player's team and has left it: a change that itself names a player's active
    # nomster has said which it is (one off their team is still for the gamestate check to refuse)
    lapsed = [(player, ident) for player, ident in actives(ctx).items()
              if chosen.get(player) == ident and was.get(ident) == player and now.get(ident) != player]
    for player, ident in lapsed:
        touch_sheet_once(ctx, player)["active"] = None  # Self-Updating: the sheet shows the active nomster
        ctx.step({"active_nomster": ident, "of": player,
                  "lapsed": "no longer on their team" if ident in now else "no longer exists"})


def activate_first_tamed(ctx: Ctx) -> None:
    """After a proposal's changes: 004 Active Nomster makes the first nomster a player tames their active nomster.
    A patch that records a first taming on a sheet (``tamed`` was empty, now lists a nomster on the player's team)
    says the player tamed it (as for the Nomster Tamer Badge, see the readings), so that nomster becomes active, as
    when the card converts it (``_name``), unless the same changes set the sheet's active nomster themselves. A
    nomster the patch lists that is not on the player's team is left for the gamestate check. As in ``_name``, this
    is the record Active Nomster reads, kept while the rule is repealed (not tied). Each is a step of the outcome.
    Nothing is read unless the changes edited the sheets."""
    if SHEETS not in ctx.tx.docs:
        return
    before = {s.get("player"): s for s in peek(ctx.tx.base.doc(SHEETS)["sheets"]) if isinstance(s, dict)}
    for s in peek(ctx.doc(SHEETS)["sheets"]):
        if not isinstance(s, dict) or not isinstance(s.get("player"), str):
            continue
        tamed, old = s.get("tamed"), before.get(s["player"])
        if not isinstance(tamed, list) or not tamed or type(tamed[0]) is not int:
            continue
        if old is not None and (old.get("tamed") or old.get("active") != s.get("active")):
            continue  # tamed one before (this is not the first), or the changes chose the active nomster
        if old is None and s.get("active") is not None:
            continue  # a sheet the changes made, with its active nomster
        first = tamed[0]
        n = nomster(ctx, first)
        if s.get("active") == first or n is None or n.get("trainer") != s["player"]:
            continue
        touch_sheet_once(ctx, s["player"])["active"] = first  # Self-Updating: the sheet shows the active nomster
        ctx.step({"active_nomster": first, "of": s["player"], "because": "the first nomster they tamed"})


def release_departed(ctx: Ctx) -> None:
    """After a proposal's changes: the nomsters of a player they took out of the game (off the roster) are on no
    team and bonded to nobody. 004 Teams makes a *player* a nomster's trainer, with the nomster on their team, and
    004 Nomster Bond bonds a *player*; someone who left is neither, and the seed says nothing else of a departure
    (our reading, docs/modules/cycle12.md): the nomster stays tame (no rule makes a tame nomster wild), keeps its
    name and card and stays where it is. Its record keeps the name of the trainer it had (``former_trainer``), as
    the sender of its card may still be asked for it (Transcription), never as its trainer: a newcomer of that name
    is someone else, and once had it on their team. Each release is a step of the outcome. Nothing is read unless
    the changes edited the roster, and then only the nomsters of someone who left are written.

    A player the changes put a newcomer of the name in the place of (``replaced``) has left too (004 Joining makes
    the newcomer a new player, who tamed and adopted nothing): their nomsters are released as well, but for a record
    the changes wrote themselves, which gives the nomster to the newcomer as it says."""
    gone = departed(ctx)
    if not gone:
        return
    others, untouched = replaced(ctx), as_it_was(ctx, NOMSTERS, "nomsters")

    def theirs(name: Any, n: dict[str, Any]) -> bool:
        return name in gone and (name not in others or untouched(n))

    # a record the changes left malformed is left out, for the check of the state they give to name it
    left = [n["id"] for n in peek(ctx.doc(NOMSTERS)["nomsters"])
            if isinstance(n, dict) and type(n.get("id")) is int
            and (theirs(n.get("trainer"), n) or theirs(n.get("bonded_to"), n))]
    for ident in left:
        n = find_nomster(ctx, ident, edit=True)
        step: dict[str, Any] = {"nomster": ident}
        trainer = n.get("trainer")
        if trainer in gone:  # the record is the departed's (``left``): the changes did not write it for a newcomer
            del n["trainer"]
            n["former_trainer"] = trainer
            step["leaves_team_of"] = trainer
        if n.get("bonded_to") in gone:
            step["bond_ended"] = True
            who = n.pop("bonded_to")
            trainer = trainer if trainer in gone else who
        step["because"] = f"{trainer} left the game"
        ctx.step(step)


def lapse_follows(ctx: Ctx) -> None:
    """After a proposal's changes: a nomster they put on another team stops following, as one leaving its team by
    Join Team does (``_command``; our reading of 004 Join Team and Follow: the old trainer's Follow lapses with the
    team it leaves). A change that itself says whom the nomster follows has said so, and is kept. A nomster
    following an entity the changes took out of the game (a player off the roster, a nomster removed) stops too:
    004 Follow has it follow a located entity, and there is none left to follow (a newcomer of the same name is
    someone else). Each lapse is a step of the outcome. Nothing is read unless the changes edited the nomsters or
    the roster."""
    if NOMSTERS not in ctx.tx.docs and "roster" not in ctx.tx.docs:
        return

    def teams(state: Any) -> dict[int, tuple[Any, Any]]:
        # a record the changes left malformed is left out, for the check of the state they give to name it
        return {n["id"]: (n.get("trainer"), n.get("following")) for n in peek(state.doc(NOMSTERS)["nomsters"])
                if isinstance(n, dict) and type(n.get("id")) is int}

    was, now = teams(ctx.tx.base), teams(ctx)
    lapsed = [(ident, following) for ident, (trainer, following) in now.items()
              if following is not None and ident in was and was[ident][0] is not None
              and was[ident][0] != trainer and was[ident][1] == following]
    # a player the changes put a newcomer of the name in the place of has left: a follow of them the changes did not
    # set lapses, as of one taken off the roster (the newcomer is someone else, 004 Joining; our reading)
    others = replaced(ctx)
    entities = {p.get("name") for p in peek(ctx.doc("roster")["players"])
                if isinstance(p, dict) and p.get("name") not in others}
    entities |= {f"{NOMSTER_REF}{ident}" for ident in now}
    gone = [(ident, following) for ident, (_, following) in now.items()
            if isinstance(following, str) and following not in entities and (ident, following) not in lapsed
            and (following not in others or (ident in was and was[ident][1] == following))]
    for ident, following in lapsed:
        find_nomster(ctx, ident, edit=True).pop("following", None)
        ctx.step({"nomster": ident, "stops_following": following, "because": "it left its team"})
    for ident, following in gone:
        find_nomster(ctx, ident, edit=True).pop("following", None)
        why = "left the game" if following in others else "is no entity"
        ctx.step({"nomster": ident, "stops_following": following, "because": f"{following} {why}"})


def follow_bonds(ctx: Ctx) -> None:
    """After a proposal's changes: 004 Nomster Bond holds for a bond the changes made, as for one a lick makes
    (``_bonding_lick``). A bond joins the two to each other (004 Lick), so a nomster the changes bonded to a
    player bonds that player to it, and a player the changes bonded to a nomster gains its type, recorded on the
    sheet with its name. A player bonded to a nomster before the changes cannot become bonded with another: the
    changes cannot apply (ValueError). What is left inconsistent (the nomster bonded to someone else, or off its
    player's team) is for the gamestate check to refuse. Nothing is read unless the changes edited the nomsters or
    the sheets."""
    if NOMSTERS not in ctx.tx.docs and SHEETS not in ctx.tx.docs:
        return
    if repealed(ctx, RULE_BOND):
        return

    def bonds(state: Any) -> tuple[dict[int, Any], dict[str, Any]]:
        # a record the changes left malformed is left out, for the check of the state they give to name it
        by_nomster = {n["id"]: n.get("bonded_to") for n in peek(state.doc(NOMSTERS)["nomsters"])
                      if isinstance(n, dict) and type(n.get("id")) is int}
        by_player = {s["player"]: s.get("bonded") for s in peek(state.doc(SHEETS)["sheets"])
                     if isinstance(s, dict) and isinstance(s.get("player"), str)}
        return by_nomster, by_player

    (nomster_was, player_was), (nomster_now, player_now) = bonds(ctx.tx.base), bonds(ctx)
    new: dict[str, int] = {}  # player -> the nomster the changes bonded them to
    for ident, player in nomster_now.items():
        if isinstance(player, str) and nomster_was.get(ident) != player and player in player_now:
            new.setdefault(player, ident)
    for player, ident in player_now.items():
        if type(ident) is int and player_was.get(player) != ident:
            new[player] = ident
    for player, ident in new.items():
        earlier = player_was.get(player)
        if earlier is not None and earlier != ident:
            raise ValueError(f"{player} is bonded to nomster {earlier} and cannot become bonded with another "
                             f"(nomster {ident})")
        n = find_nomster(ctx, ident)
        if n is None:
            continue  # the gamestate check names a bond with no nomster
        if n.get("bonded_to") is None:
            find_nomster(ctx, ident, edit=True)["bonded_to"] = player  # the bond is the two's
        s = sheet(ctx, player) or {}
        if s.get("bonded") not in (None, ident):
            raise ValueError(f"{player} is bonded to nomster {s['bonded']} and cannot become bonded with another "
                             f"(nomster {ident})")
        if (s.get("bonded"), s.get("type"), s.get("bond_name")) != (ident, n["type"], n.get("name")):
            s = touch_sheet_once(ctx, player)  # Self-Updating: the sheet shows the bond and the type
            s["bonded"], s["type"], s["bond_name"] = ident, n["type"], n.get("name")
        ctx.step({"bonded": player, "nomster": ident, "type": n["type"]})


# ---------------------------------------------------------------- licks and bonds


def lick(ctx: Ctx, n: dict[str, Any], target: str, why: str) -> None:
    """Lick: a player licked for the first time this phase by this nomster gains 5, unless it is on their team."""
    phase = phase_of(ctx, ctx.at)
    pool = ctx.edit(NOMSTERS)["nomsters"]
    n = pool[next(i for i, x in enumerate(peek(pool)) if x["id"] == n["id"])]
    licked = dict.get(n, "licked", [])  # read only (peek): the licks are not copied on the way
    first = not any(x["player"] == target and x["phase"] == phase for x in peek(licked))
    entry: dict[str, Any] = {"lick": target, "by": n["id"], "why": why}
    if target.startswith(NOMSTER_REF) or not is_player(ctx, target):
        ctx.step(entry)
        return
    n.setdefault("licked", [])
    n["licked"] = [x for x in peek(dict.__getitem__(n, "licked")) if x["phase"] == phase] + \
        [{"player": target, "phase": phase}]
    points = opts(ctx)["lick_points"] if first and n.get("trainer") != target else 0
    if points:
        change_stat(ctx, target, "gooderhose", points, rule=RULE_LICK)
    entry["points"] = points
    ctx.step(entry)


def bond_lick(ctx: Ctx, n: dict[str, Any]) -> None:
    """Lick (bonding): the nomster licks its trainer if they are in its location; an unbonded trainer becomes
    bonded to it. Seed 004 "Lick" makes this lick (and with it the bond); repealed, a treat or a cuddle is only
    that."""
    if repealed(ctx, RULE_LICK):
        return
    trainer = n["trainer"]
    if ascended(ctx, trainer):
        # our reading of 004 Ascend (see ``ascended``): an ascended trainer has left the map, so no nomster
        # left behind is in their location to lick them
        ctx.step({"lick": trainer, "by": n["id"], "why": "bonding", "licked": False,
                  "because": f"{trainer} has ascended"})
        return
    if where(ctx, trainer) != n["location"]:
        # Lick: a nomster licks only an entity in its location; no lick, so no bond (a cuddle by another
        # player, bond_cuddle_by_anyone, can come while the trainer is elsewhere)
        ctx.step({"lick": trainer, "by": n["id"], "why": "bonding", "licked": False,
                  "because": f"{trainer} is not at {place_name(ctx, n['location'])}"})
        return
    lick(ctx, n, trainer, "bonding")
    s = sheet(ctx, trainer) or {}
    if s.get("bonded") is None and not n.get("bonded_to"):
        s = touch_sheet(ctx, trainer)
        s["bonded"] = n["id"]
        s["type"] = n["type"]  # Nomster Bond: the player gains the nomster's type
        s["bond_name"] = n.get("name")
        m = find_nomster(ctx, n["id"], edit=True)
        m["bonded_to"] = trainer
        ctx.step({"bonded": trainer, "nomster": n["id"], "type": n["type"]})


def ascended(ctx: Ctx, entity: str) -> bool:
    """Whether a located entity (a player's name or ``nomster:<id>``) has ascended.

    004 Ascend says only that the player and the nomster are now ascended (and The End of All Things makes
    ascended players winners). Our reading, kept throughout the module: ascending takes both off the map, so
    an ascended player takes no action of the map's rules (``ascended_gate``), an ascended nomster takes no
    commands, and neither shares a location with anyone left at the Tower of Ferrets: nobody cuddles, treats,
    licks, follows, adopts or trades with them there."""
    if entity.startswith(NOMSTER_REF):
        # seed 004 "Ascend" repealed: its reading no longer keeps an ascended nomster off the map
        return bool(find_nomster(ctx, int(entity[len(NOMSTER_REF):])).get("ascended")) \
            and not repealed(ctx, RULE_ASCEND)
    return has_ascended(ctx, entity)


def _gone(ctx: Ctx, n: dict[str, Any]) -> Iterator[str]:
    """The refusals of a cuddle or a treat when the actor or the nomster has ascended (see ``ascended``)."""
    if ascended(ctx, ctx.actor):
        yield left_the_map(ctx.actor)
    if n.get("ascended") and ascended(ctx, ref(n)):
        yield left_the_map(nomster_label(n))


def _did(n: dict[str, Any], what: str, phase: int, by: str | None) -> bool:
    return any(x["phase"] == phase and (by is None or x["by"] == by) for x in n.get(what, []))


def _cuddle_ready(ctx: Ctx) -> Iterator[str]:
    """004 Cuddle: a tame nomster in the cuddler's location (one that has ascended is in none, see ``ascended``).
    With none there, the check refuses every nomster (wild, ascended, or elsewhere)."""
    here = where(ctx, ctx.actor)
    away = not repealed(ctx, RULE_ASCEND)  # seed 004 "Ascend" (our reading): an ascended one is off the map
    if not any(not n["wild"] and not (away and n.get("ascended")) and n["location"] == here
               for n in peek(ctx.doc(NOMSTERS)["nomsters"])):
        yield _nowhere_or(ctx, here, "tame nomster")


def _cuddle_check(ctx: Ctx) -> Iterator[str]:
    n = find_nomster(ctx, ctx.params["nomster"])
    gone = list(_gone(ctx, n))
    if gone:
        yield from gone
        return
    if not ctx.params["how"].strip():
        # 004 Tame Nomsters → Cuddle: the cuddler writes how they intend to cuddle it, however briefly; blanks
        # describe nothing
        yield "a cuddle needs a written description of how, however brief (`how` is blank)"
    if n["wild"]:
        yield f"{nomster_label(n)} is wild; only tame nomsters are cuddled"
    elif where(ctx, ctx.actor) != n["location"]:
        yield f"{nomster_label(n)} is at {place_name(ctx, n['location'])}, not with {ctx.actor}"


def _cuddle(ctx: Ctx) -> None:
    n = find_nomster(ctx, ctx.params["nomster"], edit=True)
    phase = phase_of(ctx, ctx.at)
    n.setdefault("cuddles", [])
    n["cuddles"] = [c for c in n["cuddles"] if c["phase"] >= phase - 1] + [
        {"by": ctx.actor, "phase": phase, "at": iso(ctx.at), "how": ctx.params["how"]}]
    ctx.step({"cuddled": n["id"], "by": ctx.actor})
    by_trainer_only = not opts(ctx)["bond_cuddle_by_anyone"]
    if n.get("trainer") and _did(n, "treats", phase - 1, n["trainer"]) and (
            not by_trainer_only or ctx.actor == n["trainer"]):
        bond_lick(ctx, n)


CUDDLE = Action(
    name="cycle12.cuddle",
    rule=RULE_CUDDLE,
    summary="Cuddle a tame nomster in your location, saying how",
    params={"type": "object", "required": ["nomster", "how"], "additionalProperties": False,
            "properties": {"nomster": {"oneOf": [{"type": "integer", "minimum": 1}, {"type": "string"}],
                                       "description": "the tame nomster, by its number or its name"},
                           "how": {"type": "string", "minLength": 1, "maxLength": 500,
                                   "description": "how you cuddle it, in words"}}},
    check=_cuddle_check,
    ready=_cuddle_ready,
    effect=_cuddle,
    doc="If its trainer gave it a treat in the previous phase, it licks its trainer; an unbonded trainer "
        "becomes bonded to it.",
)


def _treat_ready(ctx: Ctx) -> Iterator[str]:
    """004 Treats, Item Actions: the giver has a treat and gives it in their location, to their own nomster or (a
    reputable giver only) another's or a wild one. The check says the first for every nomster, in these words,
    and refuses every nomster when no such one is there (ascended, elsewhere, or another's to one not reputable)."""
    if not items.owned(ctx, ctx.actor, "treat"):
        yield f"{ctx.actor} has no treat"
    here = where(ctx, ctx.actor)
    reputable = is_reputable(ctx, ctx.actor, ctx.at)
    anywhere = _treat_anywhere(ctx, here)
    away = not repealed(ctx, RULE_ASCEND)  # seed 004 "Ascend" (our reading): an ascended one is off the map
    if not any(not (away and n.get("ascended")) and (anywhere or n["location"] == here)
               and (reputable or n.get("trainer") == ctx.actor) for n in peek(ctx.doc(NOMSTERS)["nomsters"])):
        if anywhere:
            yield "there is no nomster" if reputable else f"no nomster is on {ctx.actor}'s team, and " \
                f"{ctx.actor} is not reputable; only reputable players start an adoption with a treat"
        else:
            yield _nowhere_or(ctx, here, "nomster") if here is None or reputable else \
                f"no nomster of {ctx.actor}'s team is at {place_name(ctx, here)}, and {ctx.actor} is not " \
                "reputable; only reputable players start an adoption with a treat"


def _treat_anywhere(ctx: Ctx, here: int | None) -> bool:
    """Whether a treat may go to a nomster in any location. 004 Item Actions keeps a located giver to its own
    location. Repealed, a player on the map gives anywhere (one at no location still gives none: our reading);
    Located Entities repealed, a player is no located entity, so that rule does not bind them at all."""
    return not players_located(ctx) or (here is not None and repealed(ctx, RULE_ITEM_ACTIONS))


def _treat_check(ctx: Ctx) -> Iterator[str | Problem]:
    n = find_nomster(ctx, ctx.params["nomster"])
    gone = list(_gone(ctx, n))
    if gone:
        yield from gone
        return
    mine = items.owned(ctx, ctx.actor, "treat")
    if not mine:
        yield f"{ctx.actor} has no treat"
    # seed 004 "Item Actions": a treat passes only within one location; repealed, to a nomster anywhere on the map
    here = where(ctx, ctx.actor)
    if here != n["location"] and not _treat_anywhere(ctx, here):
        # the condition is Item Actions', so the refusal cites it (Treats says nothing of where a treat is given)
        yield Problem(f"{nomster_label(n)} is at {place_name(ctx, n['location'])}, not with {ctx.actor}",
                      rule=RULE_ITEM_ACTIONS)
    if n.get("trainer") != ctx.actor and not is_reputable(ctx, ctx.actor, ctx.at):
        yield f"{ctx.actor} is not reputable; only reputable players start an adoption with a treat"


def _treat(ctx: Ctx) -> None:
    n = find_nomster(ctx, ctx.params["nomster"])
    treat = items.owned(ctx, ctx.actor, "treat")[0]
    try:
        items.give(ctx, ctx.actor, ref(n), treat["id"])
    except ValueError as e:
        raise ctx.refuse(str(e), RULE_ITEM_ACTIONS) from None
    touch_sheet(ctx, ctx.actor)  # Self-Updating: the treat leaves the items owned on the giver's sheet
    phase = phase_of(ctx, ctx.at)
    n = find_nomster(ctx, n["id"], edit=True)
    n.setdefault("treats", [])
    n["treats"] = _kept_treats(ctx, n["treats"]) + [{"by": ctx.actor, "phase": phase, "at": iso(ctx.at)}]
    ctx.step({"treat": treat["id"], "to": n["id"], "adoption": n.get("trainer") != ctx.actor})
    if n.get("trainer") == ctx.actor and _did(n, "cuddles", phase - 1, ctx.actor):
        bond_lick(ctx, n)


def _kept_treats(ctx: Ctx, treats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The treats a nomster keeps on record as the actor gives it another: those recent enough for the bonding
    lick (004 Lick: a treat in the previous phase) and for Join Team (a treat from the player within its days),
    and each other giver's latest, whatever its age. Join Team's number of days may be amended later (the option
    join_team_treat_days), and a treat it then reaches must still be known (a giver's latest is the one it asks
    for: it is the most recent, and a treat given while its giver was reputable makes their later ones so too).
    Older treats were once dropped by the number of days in force when the next treat was given."""
    horizon = ctx.at - timedelta(days=opts(ctx)["join_team_treat_days"] + 7)
    times = [parse_time(t["at"]) for t in treats]
    latest: dict[Any, int] = {}  # each giver's latest treat, by its time
    for i, t in enumerate(treats):
        if t["by"] not in latest or times[i] >= times[latest[t["by"]]]:
            latest[t["by"]] = i
    return [t for i, t in enumerate(treats)
            if times[i] >= horizon or (latest[t["by"]] == i and t["by"] != ctx.actor)]


GIVE_TREAT = Action(
    name="cycle12.give-treat",
    rule="treats",
    summary="Give a nomster in your location one of your treats",
    params={"type": "object", "required": ["nomster"], "additionalProperties": False,
            "properties": {"nomster": {"oneOf": [{"type": "integer", "minimum": 1}, {"type": "string"}],
                                       "description": "your tame nomster, by its number or its name"}}},
    check=_treat_check,
    ready=_treat_ready,
    effect=_treat,
    doc="To another's nomster (or a wild one) it starts an adoption, for reputable players only. To your own "
        "nomster cuddled by you in the previous phase, it makes the nomster lick you and bond with you.",
)


# ---------------------------------------------------------------- commands


def _entity(ctx: Ctx, target: Any) -> str:
    """A located entity: a player's name, a nomster's name or id."""
    if isinstance(target, int):
        return ref(find_nomster(ctx, target))
    if is_player(ctx, target):
        return str(target)
    if str(target).startswith(NOMSTER_REF):
        # Follow, Lick: the entity is a nomster written nomster:<id>; without a number it names none
        number = str(target)[len(NOMSTER_REF):]
        if not (number.isascii() and number.isdigit()):
            raise ctx.refuse(f"there is no nomster {target!r}: write nomster:<id>, or the nomster's name",
                             RULE_COMMANDS)
        return ref(find_nomster(ctx, int(number)))
    if _nomster_at(ctx, ctx.doc(NOMSTERS)["nomsters"], str(target)) < 0:
        # 004 Commands, Follow, Lick: the target is a located entity, a player or a nomster; a name that is neither
        # was refused as "there is no nomster 'Zed'", which read as if only nomsters could be named
        raise ctx.refuse(f"{target!r} is neither a player nor a tame nomster's name: a target is a located entity, "
                         "written as a player's name (as on the roster), a tame nomster's name or nomster:<id>",
                         RULE_COMMANDS)
    return ref(find_nomster(ctx, str(target)))


def _command_ready(ctx: Ctx) -> Iterator[str]:
    """004 Commands, Active Nomster: only the player's active nomster, on their team, takes commands (and not once
    it has ascended, see ``ascended``). Without one, the check refuses every nomster and command."""
    active = (sheet(ctx, ctx.actor) or {}).get("active")
    # seed 004 "Active Nomster": a player gives commands only to their active nomster; repealed, to any on their team
    anyone = repealed(ctx, RULE_ACTIVE) is not None
    mine = [n for n in peek(ctx.doc(NOMSTERS)["nomsters"])
            if n.get("trainer") == ctx.actor and (anyone or n["id"] == active)]
    if not mine and anyone:
        yield f"{ctx.actor} has no nomster on their team to command"
    elif not mine:
        yield f"{ctx.actor} has no active nomster; only the active nomster takes commands"
    elif all(n.get("ascended") for n in mine) and not repealed(ctx, RULE_ASCEND):
        yield f"{nomster_label(mine[0])} has ascended"


def _command_check(ctx: Ctx) -> Iterator[str | Problem]:
    n = find_nomster(ctx, ctx.params["nomster"])
    s = sheet(ctx, ctx.actor) or {}
    cmd = ctx.params["command"]
    # seed 004 "Nomster Actions": each command is a nomster action made by its own subrule (Follow, Stay, Lick,
    # Join Team, Ascend, ids as the commands); one whose rule is repealed can no longer be commanded
    gone = repealed(ctx, cmd)
    if gone is not None:
        yield Problem(f"the rule that makes the {cmd} command, {gone.cite()}, has been repealed",
                      rule=cmd)
        return
    if n.get("trainer") != ctx.actor:
        yield f"{nomster_label(n)} is not on {ctx.actor}'s team"
        return
    # seed 004 "Active Nomster" sets this condition on Commands; repealed, any nomster on the team takes commands.
    # A refusal by a condition one of the nomster rules sets cites that rule (Active Nomster, Follow, Lick, Join
    # Team, Ascend, Treats), not Commands, which only says how a command is given
    if s.get("active") != n["id"] and not repealed(ctx, RULE_ACTIVE):
        yield Problem(f"{nomster_label(n)} is not {ctx.actor}'s active nomster; only the active nomster takes "
                      "commands", rule=RULE_ACTIVE)
        return
    if n.get("ascended") and not repealed(ctx, RULE_ASCEND):  # seed 004 "Ascend" (our reading)
        yield Problem(f"{nomster_label(n)} has ascended", rule=RULE_ASCEND)
        return
    target = ctx.params.get("target")
    if cmd in ("lick", "join-team") and target is None:
        yield f"{cmd} needs a target"
        return
    if cmd in ("stay", "ascend") and target is not None:
        # 004 Stay, Ascend: neither names an entity (Stay ends any follow, Ascend takes the nomster and its bonded
        # player); a target given was once ignored without a word, as if it meant something
        yield f"{cmd} takes no target (the {cmd} command names no entity); leave `target` out"
        return
    if cmd == "follow":
        who = _entity(ctx, target) if target is not None else ctx.actor
        if who == ref(n):
            yield Problem("a nomster cannot follow itself", rule=RULE_FOLLOW)
        elif ascended(ctx, who):
            yield Problem(f"{target} has ascended and left the map; there is nobody to follow", rule=RULE_ASCEND)
    elif cmd == "lick":
        who = _entity(ctx, target)
        if who == ref(n):
            # 004 Lick (our reading): the nomster licks an entity when *they* share a location, so the entity is
            # another one; as Follow, a nomster named as its own target is refused
            yield Problem("a nomster cannot lick itself", rule=RULE_LICK)
        elif ascended(ctx, who):
            yield Problem(f"{target} has ascended and left the map", rule=RULE_ASCEND)
        elif where(ctx, who) != n["location"]:
            # 004 Lick: a nomster licks an entity only in the same location
            yield Problem(f"{nomster_label(n)} and {target} are not in the same location", rule=RULE_LICK)
    elif cmd == "join-team":
        for why in _join_team_problems(ctx, n, str(target)):
            yield why if isinstance(why, Problem) else Problem(why, rule=RULE_JOIN_TEAM)
    elif cmd == "ascend":
        # 004 Ascend: the nomster bonded, it at the Tower of Ferrets, and its player there too
        tower = opts(ctx)["tower"]
        loc = location_by_id(ctx, n["location"])
        if not n.get("bonded_to"):
            yield Problem(f"{nomster_label(n)} is not bonded", rule=RULE_ASCEND)
        elif loc is None or loc["name"] != tower:
            yield Problem(f"{nomster_label(n)} is at {place_name(ctx, n['location'])}, not the {tower}",
                          rule=RULE_ASCEND)
        elif where(ctx, n["bonded_to"]) != n["location"]:
            yield Problem(f"{n['bonded_to']} is not at the {tower}", rule=RULE_ASCEND)


def _join_team_problems(ctx: Ctx, n: dict[str, Any], player: str) -> Iterator[str | Problem]:
    """004 Join Team's conditions (a plain message cites Join Team; the ascended player, our reading of Ascend,
    and the treat given while reputable, Treats' condition, cite their own rules)."""
    o = opts(ctx)
    if n.get("bonded_to"):
        yield f"{nomster_label(n)} is bonded; bonded nomsters cannot join another team"
        return
    if ctx.player(player) is None:
        yield f"{player!r} is not a player"
        return
    if has_ascended(ctx, player):
        # our reading of 004 Ascend (see ``ascended``): Join Team needs the player in the nomster's location,
        # and an ascended player is in none
        yield Problem(left_the_map(player), rule=RULE_ASCEND)
        return
    if n.get("trainer") == player:
        # 004 Join Team: the nomster leaves its current team for the named player's; named its own trainer it
        # leaves nothing (accepted, it took the trainer's active nomster away)
        yield f"{nomster_label(n)} is already on {player}'s team; Join Team names another player"
        return
    if where(ctx, player) != n["location"]:
        yield f"{player} is not in the same location as {nomster_label(n)}"
    horizon = ctx.at - timedelta(days=o["join_team_treat_days"])
    recent = [at for t in n.get("treats", []) if t["by"] == player
              for at in (parse_time(t["at"]),) if at >= horizon]
    if not recent:
        yield f"{nomster_label(n)} has had no treat from {player} in the last {o['join_team_treat_days']} days"
    elif not any(is_reputable(ctx, player, at) for at in recent) and not repealed(ctx, "treats"):
        # 004 Treats: only a reputable player starts an adoption by giving a treat, so of the treats Join Team
        # asks for (from that player, in the last 7 days) only one given while they were reputable counts; one
        # they gave their own nomster before (allowed: it may bond them) starts no adoption. The condition is
        # Treats'; with that rule repealed, any recent treat from the player counts
        yield Problem(f"{nomster_label(n)} has had no treat from {player} given while {player} was reputable (only "
                      "a reputable player starts an adoption with a treat), in the last "
                      f"{o['join_team_treat_days']} days", rule="treats")


def _command(ctx: Ctx) -> None:
    n = find_nomster(ctx, ctx.params["nomster"], edit=True)
    cmd, target = ctx.params["command"], ctx.params.get("target")
    if cmd == "follow":
        who = _entity(ctx, target) if target is not None else ctx.actor
        n["following"] = who
        ctx.step({"nomster": n["id"], "follows": who})
    elif cmd == "stay":
        n.pop("following", None)
        ctx.step({"nomster": n["id"], "stays": True})
    elif cmd == "lick":
        lick(ctx, n, _entity(ctx, target), "command")
    elif cmd == "join-team":
        old = n["trainer"]
        n["trainer"] = str(target)
        n.pop("following", None)
        s = sheet(ctx, old) or {}
        if s.get("active") == n["id"]:
            touch_sheet(ctx, old)["active"] = None
        touch_sheet(ctx, str(target))
        ctx.step({"nomster": n["id"], "left_team": old, "joined_team": target, "adoption": "successful"})
    elif cmd == "ascend":
        n["ascended"] = True
        s = touch_sheet(ctx, n["bonded_to"])
        s["ascended"] = True
        # our reading of 004 Ascend (see ``ascended``): both leave the Tower of Ferrets with the map, so an open
        # survey of the player's or terraforming with the nomster there finds them gone (004 Surveying,
        # Terraforming: they complete only if the player, or the nomsters, have not left the location)
        world.note_departure(ctx, n["bonded_to"], n["location"])
        world.note_departure(ctx, ref(n), n["location"])
        ctx.step({"ascended": n["bonded_to"], "nomster": n["id"]})


COMMAND = Action(
    name="cycle12.command",
    rule=RULE_COMMANDS,
    summary="Command your active nomster: follow, stay, lick, join-team or ascend",
    params={"type": "object", "required": ["nomster", "command"], "additionalProperties": False,
            "properties": {"nomster": {"oneOf": [{"type": "integer", "minimum": 1}, {"type": "string"}],
                                       "description": "your active nomster, by its number or its name"},
                           "command": {"enum": ["follow", "stay", "lick", "join-team", "ascend"],
                                       "description": "what it is to do"},
                           "target": {"oneOf": [{"type": "integer", "minimum": 1}, {"type": "string"}],
                                      "description": "whom: the one followed, licked, or whose team it joins"}}},
    check=_command_check,
    ready=_command_ready,
    effect=_command,
    doc="`target`: for follow, a located entity (default: you); for lick, the entity licked (a player licked "
        "for the first time this phase by this nomster gains 5 points unless it is on their team); for "
        "join-team, the player whose team it joins (same location, a treat they gave while reputable in the "
        "last 7 days, not bonded); ascend needs the nomster bonded, it and its player at the Tower of Ferrets.",
)

ACTIONS = [SPAWN, TAME, NAME, SET_ACTIVE, CUDDLE, GIVE_TREAT, COMMAND]

# The actions of the map's rules (Locations, Nomsters, Items): every one is refused to an ascended player, who
# has left the map with their nomster (our reading of 004 Ascend, see ``ascended``). The nomic's own actions
# (proposals and votes, sheets, transcription, judgement and elections) stay open to them: an ascended player
# is still a player, and The End of All Things makes them a winner.
ON_THE_MAP = frozenset(a.name for a in (*world.ACTIONS, *ACTIONS, *items.ACTIONS))


# seed 004 "Ascend": an ascended player has left the map (our reading); repealed, nobody is kept off it
@ruled(RULE_ASCEND)
def ascended_gate(ctx: Ctx) -> Iterator[Problem]:
    if ctx.action.name in ON_THE_MAP and has_ascended(ctx, ctx.actor):
        yield Problem(left_the_map(ctx.actor), rule=RULE_ASCEND)
