"""Locations, the world map, creating locations, moving, terrain tags and families, terraforming and
surveying ("Locations", "World Map", "New Locations", "Creation Constraints", "Position Constraints",
"Located Entities", "Terrain Tags", "Tag Families", "Terraforming", "Surveying", "Tags").

Tiles and cards are images in the real game. Here a location is a record with
the properties the rules require (name, description, coordinates, tags) and
optional paths to its tile and card images. Tags and their families are data
in ``cycle12_world`` so a proposal can add one without code.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

from ...engine import ANYONE, Action, Ctx, peek, repealed
from ...problems import Problem
from ...roster import change_stat
from ...schemas import not_blank
from ...timeutil import parse_time
from .common import (
    LOCATIONS_BY_XY,
    NOMSTER_REF,
    NOMSTERS,
    NOMSTERS_BY_ID,
    RULE_LOCATED,
    SHEETS,
    WORLD,
    Kept,
    adjacent,
    edit_sheet,
    find_by,
    find_location,
    has_ascended,
    index_of,
    iso,
    location_at,
    location_by_id,
    location_index,
    locations,
    member_since,
    opts,
    phase_of,
    players_located,
    sheet,
    touch_sheet,
    touch_sheet_once,
    where,
)

RULE_NEW = "new-locations"
RULE_CREATION = "creation-constraints"
RULE_POSITION = "position-constraints"
RULE_FAMILIES = "tag-families"
RULE_TAGS = "tags"
RULE_TERRAFORM = "terraforming"
RULE_SURVEY = "surveying"
RANDOM = "Random"

IMAGE = {"type": "string", "maxLength": 300, "description": "path or link to the image"}


# ---------------------------------------------------------------- tags


def tag_defs(state: Any) -> dict[str, dict[str, Any]]:
    return state.doc(WORLD)["tags"]


def families(state: Any) -> dict[str, dict[str, Any]]:
    return state.doc(WORLD)["families"]


def primary_family(state: Any) -> str | None:
    return next((f for f, d in families(state).items() if d.get("primary")), None)


def family_tags(state: Any, family: str) -> list[str]:
    return [t for t, d in tag_defs(state).items() if d.get("family") == family]


def tag_conflict(state: Any, tags: list[str], *, families: bool | None = None) -> str | None:
    """Tag Families: no location has more than one tag of one family; unknown tags are refused too.

    ``families``: whether the rule Tag Families is in force (asked of ``state`` when not given). Seed 004 "Tag
    Families" is what forbids two tags of one family (the terraforming, survey, location change card or new
    location that would give one fails by that rule); repealed, it no longer does. A tag must still be a tag."""
    defs = tag_defs(state)
    if families is None:
        families = not repealed(state, RULE_FAMILIES)
    seen: dict[str, str] = {}
    for t in tags:
        if t not in defs:
            return f"{t!r} is not a terrain tag (tags: {', '.join(defs)})"
        fam = defs[t].get("family")
        if fam and families:
            if fam in seen:
                return f"{seen[fam]} and {t} are both of the family {fam!r}; a location may have only one"
            seen[fam] = t
    if len(set(tags)) != len(tags):
        return "a tag is listed twice"
    return None


def primary_type(state: Any, loc: dict[str, Any]) -> str | None:
    fam = primary_family(state)
    return next((t for t in loc.get("tags", []) if tag_defs(state).get(t, {}).get("family") == fam), None)


def apply_location_card(ctx: Ctx, change: dict[str, Any]) -> None:
    """Location Change Cards: a card with an existing location's coordinates sets any of its properties."""
    doc = ctx.edit(WORLD)
    locs = doc["locations"]
    at = next((i for i, x in enumerate(peek(locs)) if x["x"] == change["x"] and x["y"] == change["y"]), -1)
    if at < 0:
        raise ValueError(f"no location at ({change['x']}, {change['y']}) for the location change card")
    loc = locs[at]
    if "tags" in change:
        why = tag_conflict(ctx, change["tags"])
        if why:
            raise ValueError(why)
        loc["tags"] = list(change["tags"])
    for key in ("name", "description", "tile"):
        if key in change:
            if key == "name" and any(i != at and o["name"].casefold() == change["name"].casefold()
                                     for i, o in enumerate(peek(locs))):
                raise ValueError(f"another location is already named {change['name']!r}")
            if key == "tile" and loc.get("tile") and "created_tile" not in loc:
                # 004 Submission: the tile the location was created with was submitted then, and replacing it
                # takes nothing back: it is kept, so it is no new sheet for a later suggestion and a transcription
                # request may still name it (a tile a change card gave is its proposal's, recorded there). A card
                # restating that very tile is kept so too: it stays the creator's submission, not the proposal's
                loc["created_tile"] = loc["tile"]
            loc[key] = change[key]


# ---------------------------------------------------------------- suggesting and creating


# a location's sheets: its tile and card, and the tile it was created with once a location change card set another
LOCATION_SHEETS = ("tile", "card", "created_tile")


def submitted_images(state: Any) -> set[str]:
    """Every tile and card image already submitted for a location or a suggestion ("a new sheet")."""
    world = state.doc(WORLD)
    seen = {str(s["image"]) for s in peek(world["suggestions"]) if s.get("image")}
    seen |= {str(loc[k]) for loc in peek(world["locations"]) for k in LOCATION_SHEETS if loc.get(k)}
    return seen


def _image_keys(item: dict[str, Any], fields: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(str(v) for v in map(item.get, fields) if v)


SUGGESTIONS_BY_ID = Kept(lambda s: (s["id"],))
SUGGESTIONS_ALL_BY_ID = Kept(lambda s: (s["id"],), multi=True, along=SUGGESTIONS_BY_ID)
SUGGESTION_IMAGES = Kept(lambda s: _image_keys(s, ("image",)), along=SUGGESTIONS_BY_ID)
LOCATION_IMAGES = Kept(lambda loc: _image_keys(loc, LOCATION_SHEETS))  # asked by new locations


def image_submitted(state: Any, image: str) -> bool:
    """``image in submitted_images(state)``, without building the set (read only; by the kept indexes of the
    state's lists when it can)."""
    world = state.doc(WORLD)
    in_suggestions = SUGGESTION_IMAGES.of(state, world["suggestions"])
    in_locations = LOCATION_IMAGES.of(state, world["locations"])
    if in_suggestions is not None and in_locations is not None:
        try:
            return image in in_suggestions or image in in_locations
        except TypeError:  # not hashable: equal to no image
            return False
    for s in peek(world["suggestions"]):
        v = s.get("image")
        if v and str(v) == image:
            return True
    for loc in peek(world["locations"]):
        for k in LOCATION_SHEETS:
            v = loc.get(k)
            if v and str(v) == image:
                return True
    return False


def submitted_before(ctx: Ctx, image: str) -> str | None:
    """Who submitted ``image`` before, as a location's tile or card or as any other sheet the engine records
    (a character sheet, a nomster card, a proposal card, an RFJ or ruling sheet), or None for a new sheet.

    004 New Locations: a location is suggested, and created, by submitting a *new* tile or card, and Submission
    calls a sheet new when it has never been submitted before, as whatever kind of sheet."""
    if image_submitted(ctx, image) or any(str(c.get(k)) == str(image) for c in (*founding_claims(ctx),
                                                                                 *dropped_claims(ctx))
                                           for k in ("tile", "card")):
        return "a location suggestion or location"
    from .transcription import submission

    found = submission(ctx, image)
    return f"{found[0]}, at {found[1]}" if found is not None else None


def _suggest_check(ctx: Ctx) -> Iterator[str]:
    p = ctx.params
    before = submitted_before(ctx, p["image"]) if p.get("image") else None
    if before:
        yield f"{p['image']} was submitted before (by {before}); a suggestion is a new tile or card"
    if p["kind"] == "card":
        # Location Sheets: the card shows the name, the coordinates and the description (a blank one shows none)
        for key in ("name", "x", "y", "description"):
            if key not in p or key == "description" and not str(p[key]).strip():
                yield f"a location card gives the location's {key}"
    else:
        if "image" not in p:
            yield "a location tile suggestion gives the tile's image"
        # 004 Location Sheets: a tile is a picture of the place; its name, coordinates and description are the
        # card's, given by whoever answers it (New Locations). Given with a tile they would be kept on the
        # suggestion and then ignored when the card answering it names the place (they once were)
        for key in ("name", "x", "y", "description"):
            if key in p:
                yield f"a location tile suggestion is the tile alone: the card answering it gives the {key}; " \
                      f"leave `{key}` out (or suggest a card)"


def _suggest(ctx: Ctx) -> None:
    doc = ctx.edit(WORLD)
    ident = doc["next_suggestion"]
    doc["next_suggestion"] = ident + 1
    s = {"id": ident, "by": ctx.actor, "at": iso(ctx.at), "kind": ctx.params["kind"]}
    for key in ("name", "x", "y", "description", "image"):
        if key in ctx.params:
            s[key] = ctx.params[key]
    doc["suggestions"].append(s)
    ctx.step({"suggestion": ident, "kind": s["kind"]})


def _location_fields(whose: str, when: str = "") -> dict[str, Any]:
    """The parameters a location card gives (004 New Locations: its name, place and description), described as
    ``whose`` they are, ``when`` they are given."""
    def described(schema: dict[str, Any], what: str) -> dict[str, Any]:
        return {**schema, "description": f"{whose} {what}{when}"}

    return {"name": not_blank(described({"type": "string", "maxLength": 80}, "name")),
            "x": described({"type": "integer", "minimum": -1000, "maximum": 1000}, "x coordinate"),
            "y": described({"type": "integer", "minimum": -1000, "maximum": 1000}, "y coordinate"),
            "description": described({"type": "string", "maxLength": 2000}, "description")}

SUGGEST = Action(
    name="cycle12.suggest-location",
    rule=RULE_NEW,
    summary="Suggest a location with a new location tile or a new location card",
    params={"type": "object", "required": ["kind"], "additionalProperties": False,
            "properties": {"kind": {"enum": ["tile", "card"], "description": "a new location tile or card"},
                           "image": IMAGE, **_location_fields("a card's location's")}},
    check=_suggest_check,
    effect=_suggest,
    doc="A tile suggestion gives `image`; a card suggestion gives `name`, `x`, `y` and `description` (and may "
        "give `image`, the card's picture).",
)


def _suggestion(ctx: Ctx, ident: int) -> dict[str, Any]:
    sugg = ctx.doc(WORLD)["suggestions"]
    i = find_by(ctx, sugg, SUGGESTIONS_BY_ID, "id", ident)
    if i >= 0:
        return sugg[i]
    raise ctx.refuse(f"there is no location suggestion {ident}", RULE_NEW)


def _created_fields(ctx: Ctx, s: dict[str, Any]) -> dict[str, Any]:
    """The card's information and the tile: one from the suggestion, the other from the reply."""
    p = ctx.params
    if s["kind"] == "tile":
        return {"name": p.get("name"), "x": p.get("x"), "y": p.get("y"), "description": p.get("description", ""),
                "tile": s.get("image"), "card": p.get("image")}
    return {"name": s["name"], "x": s["x"], "y": s["y"], "description": s.get("description", ""),
            "tile": p.get("image"), "card": s.get("image")}


def _create_ready(ctx: Ctx) -> Iterator[str]:
    """004 New Locations, Creation Constraints: a location answers a suggestion not yet fulfilled and at most a week
    old. With none such, the check refuses every number (no such suggestion, fulfilled, or too old)."""
    days = opts(ctx)["suggestion_days"]
    # seed 004 "Creation Constraints" sets the week; repealed, a suggestion of any age may be answered
    old_ok = repealed(ctx, RULE_CREATION)
    if not any(not s.get("fulfilled_by") and (old_ok or ctx.at - parse_time(s["at"]) <= timedelta(days=days))
               for s in peek(ctx.doc(WORLD)["suggestions"])):
        yield f"no location suggestion is waiting for an answer (each is fulfilled or more than {days} days old)"


def _create_check(ctx: Ctx) -> Iterator[Any]:
    from ...problems import Problem

    o = opts(ctx)
    s = _suggestion(ctx, ctx.params["suggestion"])
    if s.get("fulfilled_by"):
        yield f"suggestion {s['id']} was already fulfilled by {s['fulfilled_by']}"
        return
    # seed 004 "Creation Constraints": no location from a suggestion over a week old; repealed, any age will do
    if ctx.at - parse_time(s["at"]) > timedelta(days=o["suggestion_days"]) and not repealed(ctx, RULE_CREATION):
        yield Problem(f"suggestion {s['id']} was made at {s['at']}, more than {o['suggestion_days']} days ago",
                      rule=RULE_CREATION)
    f = _created_fields(ctx, s)
    before = submitted_before(ctx, ctx.params["image"]) if ctx.params.get("image") else None
    if before:
        yield f"{ctx.params['image']} was submitted before (by {before}); a location is created with a new tile " \
              "or card"
    if s["kind"] == "tile":
        # Location Sheets: a location card shows all the location's properties but its tile and tags, so the
        # description too (a blank one shows none)
        for key in ("name", "x", "y", "description"):
            if f[key] is None or key == "description" and not str(f[key]).strip():
                yield f"a reply to a tile suggestion is a location card: give its {key}"
    else:
        if not f["tile"]:
            yield "a reply to a card suggestion is a location tile: give its image"
        # 004 New Locations: answering a card suggestion, the location is made with the tile and the information
        # the card gives; a name, place or description in the reply that differs from the card's would be
        # silently dropped (it once was: the player named a location that was then made under the card's name)
        for key in ("name", "x", "y", "description"):
            given, card = ctx.params.get(key), s.get(key, "")
            if key in ctx.params and (given.strip() if isinstance(given, str) else given) != card:
                yield f"a reply to a card suggestion is a location tile: the card gives the {key} ({card!r}), " \
                      f"not {given!r}; leave `{key}` out"
    if f["name"] is None or f["x"] is None or f["y"] is None:
        return
    # 004 Terrain Tags bars only special tags here; Locations' "one or more tags" is no condition of creating (the
    # card carries none: a location may start with none, see the readings table)
    tags = ctx.params.get("tags", [])
    # seed 004 "Terrain Tags" bars special tags when fulfilling a suggestion; repealed, they may be given
    special = [t for t in tags if tag_defs(ctx).get(t, {}).get("special")]
    if special and not repealed(ctx, "terrain-tags"):
        yield Problem(f"special tags ({', '.join(special)}) may not be given while fulfilling a suggestion",
                      rule="terrain-tags")
    unknown = [t for t in tags if t not in tag_defs(ctx)]
    if unknown:
        # 004 Terrain Tags → Tags: a terrain tag is one the rules define (in subrules of Tags); a word that is none
        # is refused citing Tags, not Tag Families (which once was cited, also when it was repealed)
        yield Problem(f"{unknown[0]!r} is not a terrain tag (tags: {', '.join(tag_defs(ctx))})", rule=RULE_TAGS)
    else:
        why = tag_conflict(ctx, tags)
        if why:
            yield Problem(why, rule=RULE_FAMILIES)
    existing = locations(ctx)
    if not existing and not repealed(ctx, RULE_POSITION):
        if (f["x"], f["y"]) != (0, 0) or f["name"] != o["founding_name"]:
            yield Problem(f"the first location is placed at (0, 0) and named {o['founding_name']!r}",
                          rule=RULE_POSITION)
        return
    fx, fy = f["x"], f["y"]
    if location_at(ctx, f["x"], f["y"]):
        yield Problem(f"({f['x']}, {f['y']}) is already {location_at(ctx, f['x'], f['y'])['name']}",
                      rule=RULE_POSITION)
    # seed 004 "Position Constraints": a new location is next to one that exists; repealed, it may be anywhere
    # free (not where one already is: Tiles and World Map forbid that as well, so that check stays untied)
    elif not _has_neighbour(ctx, existing, fx, fy) and not repealed(ctx, RULE_POSITION):
        yield Problem(f"({f['x']}, {f['y']}) is adjacent to no existing location", rule=RULE_POSITION)
    name = str(f["name"]).casefold()
    names = location_index(ctx, "name")
    if (name in names) if names is not None else any(loc["name"].casefold() == name for loc in peek(existing)):
        yield f"a location is already named {f['name']!r}"


def _has_neighbour(ctx: Ctx, existing: list[dict[str, Any]], fx: Any, fy: Any) -> bool:
    """Whether a location is adjacent (orthogonally) to (fx, fy): its four neighbours looked up in the kept
    index of whole-number coordinates, or every location compared."""
    grid = LOCATIONS_BY_XY.of(ctx, existing) if type(fx) is int and type(fy) is int else None
    if grid is not None:
        return any(p in grid for p in ((fx - 1, fy), (fx + 1, fy), (fx, fy - 1), (fx, fy + 1)))
    return any(abs(loc["x"] - fx) + abs(loc["y"] - fy) == 1 for loc in peek(existing))  # adjacent(loc, f)


def _new_location(ctx: Ctx, f: dict[str, Any], by: str, suggestion: int, tags: list[str],
                  submitted: str | None = None) -> dict[str, Any]:
    """Add the location ``f`` created by ``by`` now, fulfilling ``suggestion``. ``submitted``: when its answering
    tile or card was submitted, if before now (Apeiros Village's claim, created at its fifth reaction); kept as
    ``submitted`` so that a request to transcribe that sheet counts its 14 days from then (004 Transcription)."""
    # the suggestions with that id, in the state's own list (the copy made below holds the same in the same places)
    fulfilled = SUGGESTIONS_ALL_BY_ID.of(ctx, ctx.doc(WORLD)["suggestions"]) if WORLD not in ctx.tx.docs else None
    doc = ctx.edit(WORLD)
    ident = doc["next_location"]
    doc["next_location"] = ident + 1
    loc = {"id": ident, "name": f["name"], "x": f["x"], "y": f["y"], "description": f.get("description", ""),
           "tags": list(tags)}
    for key in ("tile", "card"):
        if f.get(key):
            loc[key] = f[key]
    loc.update({"created": iso(ctx.at), "created_by": by, "suggestion": suggestion})
    if submitted and submitted != loc["created"]:
        loc["submitted"] = submitted
    doc["locations"].append(loc)
    sugg = doc["suggestions"]
    try:
        found = fulfilled.get(suggestion, ()) if fulfilled is not None else None
    except TypeError:  # not hashable: equal to no id
        found = ()
    if found is None:
        found = [i for i, s in enumerate(peek(sugg)) if s["id"] == suggestion]  # found by reading
    for i in found:  # only the fulfilled one is copied
        s = sugg[i]
        s["fulfilled_by"] = by
        s["fulfilled_at"] = iso(ctx.at)
        s["location"] = ident
    return loc


def _place_newcomers(ctx: Ctx, loc: dict[str, Any], only: set[str] | None = None) -> None:
    """004 Located Entities: the initial location of every player is the location at (0, 0). A player at no
    location yet (none was there when they joined) is at it once it is created. The location is a value the
    character sheet shows, so each such player's sheet gets a new version (Self-Updating, as for a move).
    ``only``: the players to place (the others are left where they are), or None for every one at no location."""
    if (loc["x"], loc["y"]) != (0, 0) or not players_located(ctx):  # repealed: nobody starts anywhere
        return
    for name in [s["player"] for s in peek(ctx.doc(SHEETS)["sheets"])  # a sheet a patch left malformed: its check
                 if isinstance(s, dict) and isinstance(s.get("player"), str) and s.get("location") is None
                 and (only is None or s["player"] in only)]:
        touch_sheet_once(ctx, name)["location"] = loc["id"]


def origin_id(ctx: Ctx) -> Any:
    """The id of the location at (0, 0), None when there is none (read only)."""
    loc = location_at(ctx, 0, 0)
    return loc["id"] if loc is not None else None


def location_ids(ctx: Ctx) -> set[Any]:
    """The ids of the locations (read only): ``placed_where_allowed``'s ``before``."""
    return {loc.get("id") for loc in peek(ctx.doc(WORLD)["locations"]) if isinstance(loc, dict)}


def placed_where_allowed(ctx: Ctx, before: set[Any]) -> None:
    """004 Position Constraints, for the locations a proposal's patch created (ids not in ``before``, the ids
    before it): each is created as one by an action is, so each must be adjacent to a location existing when it
    is created (those before the patch, and the ones it created earlier in its list: a change's modifications are
    put into place in the order described, 004 Textual Changes); the first location of an empty world is at (0, 0)
    and named as the rule says. Raises ValueError naming the first that is not (the changes cannot apply).
    Overlapping an existing location is the gamestate check's (Tiles, World Map). Repealed: anywhere free."""
    if repealed(ctx, RULE_POSITION):
        return
    locs = [loc for loc in peek(ctx.doc(WORLD)["locations"]) if isinstance(loc, dict)]
    new = [loc for loc in locs if loc.get("id") not in before]
    if not new:
        return
    places = {(loc.get("x"), loc.get("y")) for loc in locs if loc.get("id") in before}
    founding = opts(ctx)["founding_name"]
    for loc in new:
        x, y = loc.get("x"), loc.get("y")
        if type(x) is not int or type(y) is not int:
            continue  # the schema check of the changes names it
        if not places:
            if (x, y) != (0, 0) or loc.get("name") != founding:
                raise ValueError(f"the first location is placed at (0, 0) and named {founding!r}, not "
                                 f"{loc.get('name')!r} at ({x}, {y})")
        elif not places & {(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)}:
            raise ValueError(f"{loc.get('name')} at ({x}, {y}) is adjacent to no existing location")
        places.add((x, y))


def place_newcomers_if_new(ctx: Ctx, before: Any) -> None:
    """``_place_newcomers`` for a location at (0, 0) that a proposal's patch made (``before``: ``origin_id``
    before it; the patch has passed the documents' schemas): 004 Located Entities makes it every player's initial
    location however it came to exist. Likewise a player the patch itself brought into the game (a sheet that was
    not there before it) at no location starts at the location at (0, 0) that exists already: it is the initial
    location of all players, however they joined (it once left them at no location for good)."""
    loc = location_at(ctx, 0, 0)
    if loc is None:
        return
    if loc["id"] != before:
        _place_newcomers(ctx, loc)
        return
    had = {s.get("player") for s in peek(ctx.tx.base.doc(SHEETS)["sheets"]) if isinstance(s, dict)}
    new = {s["player"] for s in peek(ctx.doc(SHEETS)["sheets"])
           if isinstance(s, dict) and isinstance(s.get("player"), str) and s["player"] not in had}
    if new:
        _place_newcomers(ctx, loc, new)


def _create(ctx: Ctx) -> None:
    s = _suggestion(ctx, ctx.params["suggestion"])
    f = _created_fields(ctx, s)
    tags = list(ctx.params.get("tags", []))
    if not locations(ctx) and repealed(ctx, RULE_POSITION):
        # seed 004 "Position Constraints" repealed: the first location is no longer deferred, nor held to (0, 0)
        # and its name; it is created at once, like any other. A claim still waiting for its reactions (made
        # under the rule) is moot once a location exists, as when one is created first (its sheet stays submitted)
        loc = _new_location(ctx, f, ctx.actor, s["id"], tags)
        waiting = founding_claims(ctx)
        if waiting:
            ctx.edit(WORLD)["founding"] = None
            _drop_claims(ctx, waiting, "a location exists")
        _place_newcomers(ctx, loc)
        ctx.step({"created": loc["name"], "at": [loc["x"], loc["y"]], "suggestion": s["id"]})
        return
    if not locations(ctx):
        # 004 Position Constraints: the first location waits for five of the same reaction on its own card. While
        # no location exists every such claim is permitted, so a second claim waits beside the first (each with
        # its own reactions; the first to reach five is created); a claim never blocks another.
        claims = _claims_to_edit(ctx)
        ident = max((c["id"] for c in claims), default=0) + 1
        claims.append({"id": ident, "suggestion": s["id"], "by": ctx.actor, "at": iso(ctx.at),
                       **{k: v for k, v in f.items() if v is not None}, "tags": tags, "reactions": []})
        step = {"founding": f["name"], "deferred": f"until {opts(ctx)['founding_reactions']} reactions"}
        if ident > 1:
            step["claim"] = ident
        ctx.step(step)
        return
    loc = _new_location(ctx, f, ctx.actor, s["id"], tags)
    _place_newcomers(ctx, loc)
    ctx.step({"created": loc["name"], "at": [loc["x"], loc["y"]], "suggestion": s["id"]})


CREATE = Action(
    name="cycle12.create-location",
    rule=RULE_NEW,
    summary="Create a location by answering a suggestion: a card for a tile, or a tile for a card",
    params={"type": "object", "required": ["suggestion"], "additionalProperties": False,
            "properties": {"suggestion": {"type": "integer", "minimum": 1,
                                          "description": "the number of the suggestion answered"},
                           "image": IMAGE, **_location_fields("the location's", " (answering a tile)"),
                           "tags": {"type": "array", "maxItems": 10, "items": {"type": "string"},
                                    "description": "its tags"}}},
    check=_create_check,
    ready=_create_ready,
    effect=_create,
    doc="Answer a tile suggestion with the card (`name`, `x`, `y`, `description`) or a card suggestion with "
        "the tile (`image`). The suggestion must be at most a week old; the new location must be adjacent to "
        "one that exists and not on one. The very first is at (0, 0), named Apeiros Village, and waits for "
        "five reactions (`cycle12.react-founding`). `tags` may give non-special tags, one per family.",
)


def founding_claims(state: Any) -> list[dict[str, Any]]:
    """The claims on the first location waiting for their reactions (Position Constraints), read only.

    ``founding`` is null, a list of claims, or (as written before there could be several) one claim."""
    f = state.doc(WORLD).get("founding")
    if not f:
        return []
    return list(peek(f)) if isinstance(f, list) else [f]


def dropped_claims(state: Any) -> list[dict[str, Any]]:
    """The claims on the first location that were not created, read only (``dropped_claims``, absent in files
    from before it was kept)."""
    return list(peek(state.doc(WORLD).get("dropped_claims") or ()))


def reaction_count(record: dict[str, Any]) -> int:
    """The reactions on an announcement's or a claim's message (004 Terraforming, Surveying, Position Constraints):
    those by the names in ``reactions`` and those of players who have since left the game (``departed_reactions``,
    ``keep_departed_reactions``), which stay on the message and still count."""
    return len(record.get("reactions") or ()) + len(record.get("departed_reactions") or ())


def keep_departed_reactions(ctx: Ctx, gone: frozenset[Any]) -> dict[Any, list[str]]:
    """After a proposal's changes took the players ``gone`` off the roster: their reactions to an open terraforming
    or surveying announcement, or to a claim on the first location still waiting, stay and still count. 004
    Terraforming, Surveying and Position Constraints count the reactions on the message, not a player's (as
    Lifecycle's votes are), and anyone may react. But a newcomer of a departed player's name is someone else (our
    reading), who may add a reaction of their own: so the departed's reaction moves from ``reactions`` (where the
    name would refuse the newcomer's as a second) to ``departed_reactions``, which ``reaction_count`` adds. Returns
    what stayed, by player, for the outcome."""
    kept: dict[Any, list[str]] = {}
    world = ctx.doc(WORLD)

    def moved(record: dict[str, Any], what: str) -> None:
        names = [r for r in record["reactions"] if r in gone]
        record["reactions"] = [r for r in record["reactions"] if r not in gone]
        record["departed_reactions"] = [*(record.get("departed_reactions") or ()), *names]
        for name in names:
            kept.setdefault(name, []).append(what)

    def hit(record: Any) -> bool:
        return isinstance(record, dict) and isinstance(record.get("reactions"), list) \
            and any(r in gone for r in record["reactions"])

    announcements = world.get("announcements")
    if isinstance(announcements, list) and any(a.get("status") == "open" and hit(a) for a in peek(announcements)
                                               if isinstance(a, dict)):
        for a in ctx.edit(WORLD)["announcements"]:
            if isinstance(a, dict) and a.get("status") == "open" and hit(a):
                moved(a, f"reaction to announcement {a.get('id')}")
    if any(hit(c) for c in founding_claims(ctx)):
        for c in _claims_to_edit(ctx):
            if hit(c):
                moved(c, f"reaction to the claim {c.get('id', 1)} on the first location")
    return kept


def _drop_claims(ctx: Ctx, claims: list[dict[str, Any]], because: str) -> None:
    """Position Constraints: these claims will not be created. Submission: the tile or card each answered its
    suggestion with was submitted all the same, so it is kept (not new again, and open to a transcription
    request for 14 days from the claim); its suggestion stays unfulfilled."""
    if claims:
        doc = ctx.edit(WORLD)
        kept = [dict(copy.deepcopy(c), dropped=iso(ctx.at), because=because[:200]) for c in claims]
        doc["dropped_claims"] = [*(doc.get("dropped_claims") or ()), *kept]


def _claims_to_edit(ctx: Ctx) -> list[dict[str, Any]]:
    """The waiting claims on the first location, to change: ``founding`` as a list of claims with ids (none yet,
    or one claim written as an object, become a list of our own)."""
    if not isinstance(ctx.doc(WORLD).get("founding"), list):
        own = [dict(copy.deepcopy(c), id=c.get("id", 1)) for c in founding_claims(ctx)]
        ctx.edit(WORLD)["founding"] = own
    return ctx.edit(WORLD)["founding"]


def _claim_index(ctx: Ctx) -> int:
    """The position of the claim a reaction is for: ``founding`` (a claim's id), which may be left out while
    only one claim waits."""
    claims = founding_claims(ctx)
    if not claims:
        raise ctx.refuse("no first location is waiting for reactions", RULE_POSITION)
    want = ctx.params.get("founding")
    if want is None:
        if len(claims) > 1:
            ids = ", ".join(str(c.get("id", 1)) for c in claims)
            raise ctx.refuse(f"{len(claims)} claims on the first location are waiting (ids {ids}): give founding, "
                             "the claim reacted to", RULE_POSITION)
        return 0
    i = next((i for i, c in enumerate(claims) if c.get("id", 1) == want), -1)
    if i < 0:
        raise ctx.refuse(f"no first location is waiting for reactions as claim {want}", RULE_POSITION)
    return i


def _react_founding_check(ctx: Ctx) -> Iterator[str]:
    claim = founding_claims(ctx)[_claim_index(ctx)]
    if ctx.actor in claim["reactions"]:
        yield f"{ctx.actor} has already reacted"


def _react_founding(ctx: Ctx) -> None:
    at = _claim_index(ctx)
    claims = _claims_to_edit(ctx)
    f = claims[at]
    f["reactions"].append(ctx.actor)
    need = opts(ctx)["founding_reactions"]
    ctx.step({"reactions": reaction_count(f), "needed": need})
    if reaction_count(f) >= need:
        _found(ctx, claims, at)


def found_if_reacted(ctx: Ctx) -> None:
    """After a proposal's changes: 004 Position Constraints creates the first location once its card has the
    reactions the rule asks for (``founding_reactions``). When the changes give a waiting claim that many (a patch
    recording reactions, or an amendment lowering the number to those it has), it is created then, as at the
    reaction that reaches the number (``_react_founding``; the first such claim in the list when several reach it,
    the others dropped), or dropped if no longer permitted. It once waited for a reaction the rule no longer asked
    for. Nothing is looked at unless the changes edited the world or the game's options, or while the rule is
    repealed (no claim waits for reactions then)."""
    if WORLD not in ctx.tx.docs and ctx.tx.config is None:
        return
    if not founding_claims(ctx) or repealed(ctx, RULE_POSITION):
        return
    need = opts(ctx)["founding_reactions"]
    while founding_claims(ctx):  # a claim dropped (its suggestion too old) leaves the next one its turn
        claims = _claims_to_edit(ctx)
        at = next((i for i, c in enumerate(claims) if reaction_count(c) >= need), None)
        if at is None:
            return
        _found(ctx, claims, at)


def _found(ctx: Ctx, claims: list[dict[str, Any]], at: int) -> None:
    """The claim ``claims[at]`` (being edited) has its reactions: Apeiros Village is created, if still permitted."""
    doc = ctx.edit(WORLD)
    f = claims[at]
    others = [c for i, c in enumerate(claims) if i != at]
    days = opts(ctx)["suggestion_days"]
    s = next((x for x in peek(doc["suggestions"]) if x["id"] == f["suggestion"]), None)  # read only
    why = None
    if s is not None and ctx.at - parse_time(s["at"]) > timedelta(days=days) \
            and not repealed(ctx, RULE_CREATION):
        # "and is still otherwise permitted": the suggestion has grown too old meanwhile (seed 004 "Creation
        # Constraints"; repealed, its age no longer matters)
        why = f"suggestion {s['id']} is more than {days} days old"
    elif locations(ctx):  # a location exists after all (put there by a proposal): no first location now
        why = "a location exists"
    if why:
        doc["founding"] = others or None  # only this claim ends; the others still wait
        _drop_claims(ctx, [f], why)
        ctx.step({"founding": "not created", "because": why})
        return
    doc["founding"] = None  # a location now exists: no other claim is permitted any more
    _drop_claims(ctx, others, f"claim {f.get('id', 1)} was created first")
    # 004 Submission, Transcription: the claim's tile or card was submitted with the claim (its `at`), not
    # at this reaction, and a request to transcribe it counts its 14 days from then
    loc = _new_location(ctx, f, f["by"], f["suggestion"], f.get("tags", []), submitted=f.get("at"))
    _place_newcomers(ctx, loc)
    step = {"created": loc["name"], "at": [0, 0]}
    if others:
        step["dropped"] = [c["id"] for c in others]
    ctx.step(step)


REACT_FOUNDING = Action(
    name="cycle12.react-founding",
    rule=RULE_POSITION,
    summary="React to the first location's card; five of the same reaction create it",
    params={"type": "object", "additionalProperties": False,
            "properties": {"founding": {"type": "integer", "minimum": 1,
                                        "description": "the number of the location's founding"}}},
    who=ANYONE,
    check=_react_founding_check,
    effect=_react_founding,
    doc="When the fifth player reacts, Apeiros Village is created at (0, 0) and every player without a "
        "location starts there. While several claims on the first location wait, `founding` names the one "
        "reacted to (its id); the first to reach five is created and the others are dropped.",
)


# ---------------------------------------------------------------- moving


def _ref_index(pool: list[dict[str, Any]], who: str) -> int:
    """The index of the first nomster whose ``nomster:<id>`` is ``who`` (-1 if none), read without copying.

    An id that is an integer (every id, in a valid state) is compared as a number instead of being
    formatted: ``f"nomster:{id}" == who`` exactly when ``who`` ends in that number written plainly.
    """
    text = who[len(NOMSTER_REF):]
    try:
        number: int | None = int(text)
    except ValueError:
        number = None
    if number is not None and str(number) != text:
        number = None  # " 5", "05", "5_0" ...: no integer is formatted so
    for i, x in enumerate(peek(pool)):
        v = x["id"]
        if (v == number) if type(v) is int else (f"{NOMSTER_REF}{v}" == who):
            return i
    return -1


def _int_id(n: dict[str, Any]) -> tuple[int]:
    if type(n["id"]) is not int:
        raise TypeError("an id that is not an integer: the list is scanned")
    return (n["id"],)


# Integer ids only (what a valid state holds): ``_ref_index`` compares an id that is not an integer as text.
NOMSTERS_BY_INT_ID = Kept(_int_id, along=NOMSTERS_BY_ID)
# whom each nomster follows -> the positions of the nomsters following them
FOLLOWERS = Kept(lambda n: (n.get("following"),), multi=True, along=NOMSTERS_BY_ID)


def _ref_in(index: dict[Any, int], who: str) -> int:
    """``_ref_index`` by an index of integer ids."""
    text = who[len(NOMSTER_REF):]
    try:
        number = int(text)
    except ValueError:
        return -1
    return index.get(number, -1) if str(number) == text else -1


def move_entity(ctx: Ctx, entity: str, to: int) -> list[str]:
    """Move a located entity; nomsters following it from where it was take a follow action. Returns who moved.

    Moving changes only locations: the nomsters stay in their places in the list, and what each follows
    stays, so both are read once, from the state's own list by its kept indexes when the action has not
    edited the nomsters before (the list the action copies holds the same nomsters in the same places).
    """
    moved: list[str] = []
    queue = [(entity, to)]
    first_pool = ctx.doc(NOMSTERS)["nomsters"]
    by_id = NOMSTERS_BY_ID.of(ctx, first_pool)
    by_ref = NOMSTERS_BY_INT_ID.of(ctx, first_pool) if by_id is not None else None
    followers = FOLLOWERS.of(ctx, first_pool) if by_ref is not None else None
    following: list[Any] | None = None  # (without the indexes) what each nomster follows, read once
    follows = not repealed(ctx, "follow")  # seed 004 "Follow" moves the followers; repealed, none moves along
    away = not repealed(ctx, "ascend")  # seed 004 "Ascend" (our reading): an ascended nomster follows nobody
    while queue:
        who, dest = queue.pop(0)
        if who in moved:
            continue
        if who.startswith(NOMSTER_REF):
            if by_ref is not None:
                ident = int(who[len(NOMSTER_REF):])  # where(): ValueError for no number
                j = by_id.get(ident, -1)
                pool = ctx.edit(NOMSTERS)["nomsters"]
                origin = dict.__getitem__(list.__getitem__(pool, j), "location") if j >= 0 else None
                i = _ref_in(by_ref, who)
            else:
                origin = where(ctx, who)
                pool = ctx.edit(NOMSTERS)["nomsters"]
                i = _ref_index(pool, who)
            if i < 0:
                raise StopIteration(who)  # as the search by next() did
            pool[i]["location"] = dest  # only the nomster that moves is copied
        else:
            origin = where(ctx, who)
            touch_sheet(ctx, who)["location"] = dest
        moved.append(who)
        if origin is not None and origin != dest:
            note_departure(ctx, who, origin)
        if not follows:
            continue
        # read only: the followers are found without copying every nomster
        pool = ctx.doc(NOMSTERS)["nomsters"]
        if followers is not None:
            found: Any = followers.get(who, ())
        else:
            if following is None:
                following = [n.get("following") for n in peek(pool)]
            found = [i for i, f in enumerate(following) if f == who] if who in following else ()
        for i in found:
            n = list.__getitem__(pool, i)
            if n["location"] == origin and not (away and n.get("ascended")):
                queue.append((f"{NOMSTER_REF}{n['id']}", dest))
    return moved


def located(ctx: Ctx) -> dict[str, Any]:
    """Where each located entity is (players by name, nomsters as ``nomster:<id>``), read only. A record a
    proposal's patch left malformed (no id, an id that is no integer) is left out: the check of the state the
    changes give names it.

    An ascended entity is at no location (our reading of 004 Ascend: ascending leaves the map; see
    ``common.has_ascended``), so a patch that records a player or nomster as ascended takes it away from where it
    was, as the Ascend command does: an open survey or terraforming there finds it gone."""
    away = not repealed(ctx, "ascend")
    at: dict[str, Any] = {}
    for s in peek(ctx.doc(SHEETS)["sheets"]):
        if isinstance(s, dict) and isinstance(s.get("player"), str):
            at[s["player"]] = None if away and s.get("ascended") else s.get("location")
    for n in peek(ctx.doc(NOMSTERS)["nomsters"]):
        if isinstance(n, dict) and type(n.get("id")) is int:
            at[f"{NOMSTER_REF}{n['id']}"] = None if away and n.get("ascended") else n.get("location")
    return at


def follow_direct_moves(ctx: Ctx, before: dict[str, Any]) -> list[str]:
    """004 Follow, for a change that edits the world directly (a proposal's patch): every entity whose location
    it changed "changes location", so the nomsters following it from where it was take a follow action, as
    when it moves by an action (``move_entity``, chains included); its leaving is noted on the open
    announcements of where it was. ``before``: ``located`` before the change. Returns the followers moved.

    Each follow, and each open announcement that someone's leaving will make fail, is a step of the outcome
    (the change itself says only where it put what it moved).

    Readings (docs/modules/cycle12.md): a nomster whose location the change set itself does not follow an
    entity the change moved (the change said where it is); moving a follower moves nobody it follows; a
    follower goes only to a location that exists (else it is not able to, and the check of the changes
    refuses the move)."""
    after = located(ctx)
    placed = [who for who, loc in after.items() if who in before and before[who] != loc]
    if not placed:
        return []
    ids = {loc.get("id") for loc in peek(ctx.doc(WORLD)["locations"]) if isinstance(loc, dict)}
    placed_set = set(placed)
    # whom each nomster follows: moving changes no one's, so it is read once; seed 004 "Follow" repealed, nobody
    follows = [(f"{NOMSTER_REF}{n['id']}", n.get("following")) for n in peek(ctx.doc(NOMSTERS)["nomsters"])
               if isinstance(n, dict) and type(n.get("id")) is int and n.get("following") is not None
               and not (n.get("ascended") and not repealed(ctx, "ascend"))] \
        if not repealed(ctx, "follow") else []
    left_before = _left_of_open(ctx)
    followed: list[str] = []
    for who in placed:
        origin, dest = before[who], after[who]
        if type(origin) is int:
            note_departure(ctx, who, origin)  # Surveying, Terraforming: it has left, as by a move
        if origin is None or type(dest) is not int or dest not in ids:
            continue
        these: list[str] = []
        for ref, target in follows:
            # where it is now: a chain moved earlier in this loop may have taken it away already
            if target == who and ref not in placed_set and where(ctx, ref) == origin:
                these += [m for m in move_entity(ctx, ref, dest) if m not in followed and m not in these]
        if these:
            followed += these
            there = location_by_id(ctx, dest)
            ctx.step({"followed": who, "moved": these, "to": there["name"] if there else dest})
    for ident, (kind, left) in _left_of_open(ctx).items():
        gone = [w for w in left if w not in left_before.get(ident, (None, ()))[1]]
        if gone:
            # Surveying, Terraforming: it stays open, and fails when its last reaction comes (``_react``)
            ctx.step({"announcement": ident, "kind": kind, "left": gone, "will_fail": True})
    return followed


def _left_of_open(ctx: Ctx) -> dict[Any, tuple[Any, tuple[Any, ...]]]:
    """Who has left the location of each open announcement (``note_departure``): its id -> (kind, who), read only."""
    return {a.get("id"): (a.get("kind"), tuple(a.get("left") or ())) for a in peek(ctx.doc(WORLD)["announcements"])
            if isinstance(a, dict) and a.get("status") == "open"}


# the open terraforming and surveying announcements by location -> their positions
OPEN_ANNOUNCEMENTS = Kept(lambda a: (a["location"],) if a["status"] == "open" else (), multi=True)


def note_departure(ctx: Ctx, who: str, origin: int) -> None:
    """Terraforming, Surveying: an announcement completes only if the surveyor (or the terraforming's nomsters)
    "has not left" the location. Leaving is recorded on the open announcements of ``origin`` it concerns
    (``left``), so that coming back before the third reaction does not undo it; the announcement stays open
    (reacting to it is still possible) and fails when it would complete."""
    if WORLD in ctx.tx.docs:
        listed, index = ctx.edit(WORLD)["announcements"], None
    else:
        listed = ctx.doc(WORLD)["announcements"]
        index = OPEN_ANNOUNCEMENTS.of(ctx, listed)
    if index is not None:
        places: Any = index.get(origin, ())
    else:
        places = [i for i, a in enumerate(peek(listed)) if a["status"] == "open" and a["location"] == origin]
    nomster = int(who[len(NOMSTER_REF):]) if who.startswith(NOMSTER_REF) else None
    hits = []
    for i in places:
        a = list.__getitem__(listed, i)  # read only
        if a["kind"] == "survey" and nomster is None and a["by"] == who or \
                a["kind"] == "terraform" and nomster is not None and nomster in a.get("nomsters", ()):
            if who not in a.get("left", ()):
                hits.append(i)
    if hits:
        announcements = ctx.edit(WORLD)["announcements"]  # the same announcements in the same places
        for i in hits:
            a = announcements[i]
            a["left"] = [*a.get("left", ()), who]


def _move_head(ctx: Ctx) -> Iterator[str]:
    """004 Located Entities: the mover is somewhere on the map (the check's head)."""
    s = sheet(ctx, ctx.actor)
    if s is None or s.get("location") is None:
        yield f"{ctx.actor} is at no location yet: players start at (0, 0) once it exists"
    elif has_ascended(ctx, ctx.actor):  # the gate nomsters.ascended_gate refuses it first (both: seed 004 Ascend)
        yield f"{ctx.actor} has ascended and left the map"


def _move_ready(ctx: Ctx) -> Iterator[str]:
    """004 Located Entities: a move goes to an adjacent location. With none next to the mover's, the check refuses
    every ``to`` (no such location, the mover's own, or one not adjacent)."""
    head = list(_move_head(ctx))
    if head:
        yield from head
        return
    here = location_by_id(ctx, sheet(ctx, ctx.actor)["location"])
    if here is not None and not any(adjacent(here, loc) for loc in peek(locations(ctx))):
        yield f"no location is adjacent to {here['name']} ({here['x']}, {here['y']})"


def _move_check(ctx: Ctx) -> Iterator[str]:
    head = list(_move_head(ctx))
    if head:
        yield from head
        return
    s = sheet(ctx, ctx.actor)
    here = location_by_id(ctx, s["location"])
    there = find_location(ctx, ctx.params["to"])
    if here is not None and here["id"] == there["id"]:
        yield f"{ctx.actor} is already at {there['name']} ({there['x']}, {there['y']}); a move goes to an adjacent " \
              "location"
    elif here is not None and not adjacent(here, there):
        yield f"{there['name']} ({there['x']}, {there['y']}) is not adjacent to {here['name']} " \
              f"({here['x']}, {here['y']})"


def _move(ctx: Ctx) -> None:
    there = find_location(ctx, ctx.params["to"])
    moved = move_entity(ctx, ctx.actor, there["id"])
    ctx.step({"moved": moved, "to": there["name"]})


MOVE = Action(
    name="cycle12.move",
    rule=RULE_LOCATED,
    summary="Move to a location adjacent to yours",
    params={"type": "object", "required": ["to"], "additionalProperties": False,
            "properties": {"to": {"oneOf": [{"type": "string", "maxLength": 80}, {"type": "integer"},
                                             {"type": "array", "items": {"type": "integer"}, "minItems": 2,
                                              "maxItems": 2}],
                                  "description": "the adjacent location: its name, its number or [x, y]"}}},
    check=_move_check,
    ready=_move_ready,
    effect=_move,
    doc="`to` is a location's name, id or [x, y]. Nomsters following you from where you were follow.",
)


# ---------------------------------------------------------------- terraforming and surveying


def _announce_head(kind: str, ctx: Ctx) -> tuple[list[str], bool]:
    """The refusals of an announcement that come before its family and tag (004 Terraforming, Surveying: the
    announcer's location, once a phase), and whether the check stops there (the announcer is at no location)."""
    s = sheet(ctx, ctx.actor)
    if s is None or s.get("location") is None:
        return [f"{ctx.actor} is at no location"], True
    if s.get(f"{kind}_phase") == phase_of(ctx, ctx.at):
        return [f"{ctx.actor} has already announced a {kind} this phase"], False
    return [], False


def _terraform_tail(ctx: Ctx) -> Iterator[str]:
    """The refusals of a terraforming that come after its family and tag (004 Terraforming: the location's Primary
    Location Type tag, two or more nomsters of that type there, one on the announcer's team)."""
    loc = location_by_id(ctx, sheet(ctx, ctx.actor)["location"])
    ptype = primary_type(ctx, loc) if loc else None
    if ptype is None:
        name = loc["name"] if loc else "this location"
        fam = primary_family(ctx)
        # 004 Terraforming names the "Primary Location Type" family; the world's families say which it is,
        # and a proposal may leave none marked primary: then no location has such a tag
        yield (f"{name} has no {fam} tag; terraforming it fails" if fam else
               f"no tag family is marked primary (cycle12_world.families), so {name} has no Primary Location "
               "Type tag; terraforming it fails")
        return
    here = _matching(ctx, loc["id"], ptype)
    if len(here) < 2:
        yield f"{len(here)} {ptype} nomster(s) at {loc['name']}: terraforming needs two or more"
    elif not any(n.get("trainer") == ctx.actor for n in here):
        yield f"none of the {ptype} nomsters at {loc['name']} is on {ctx.actor}'s team"


def _announce_check(kind: str):
    def check(ctx: Ctx) -> Iterator[str]:
        fam, tag = ctx.params["family"], ctx.params["tag"]
        head, stop = _announce_head(kind, ctx)
        yield from head
        if stop:
            return
        allowed = [f for f, d in families(ctx).items() if d.get(kind)]
        if fam not in allowed:
            yield f"the family {fam!r} cannot be chosen for {kind}ing (families: {', '.join(allowed)})"
        elif tag != RANDOM and tag not in family_tags(ctx, fam):
            yield f"{tag!r} is not a tag of the family {fam!r} (tags: {', '.join(family_tags(ctx, fam))}, or Random)"
        if kind == "terraform":
            yield from _terraform_tail(ctx)
    return check


def _announce_ready(kind: str):
    """The refusals of an announcement whatever its family and tag: the check makes each of them for every value
    (its head and, for a terraforming, its tail), and refuses every family when the world has none to choose
    (004 Tag Families: the families are the world's)."""
    def ready(ctx: Ctx) -> Iterator[str]:
        head, stop = _announce_head(kind, ctx)
        yield from head
        if stop:
            return
        if not any(d.get(kind) for d in families(ctx).values()):
            yield f"no tag family can be chosen for {kind}ing"
        if kind == "terraform":
            yield from _terraform_tail(ctx)
    return ready


def _matching(ctx: Any, loc_id: int, ptype: str) -> list[dict[str, Any]]:
    pool = ctx.doc(NOMSTERS)["nomsters"]
    away = not repealed(ctx, "ascend")  # seed 004 "Ascend" (our reading): an ascended nomster is off the map
    return [pool[i] for i, n in enumerate(peek(pool)) if n["location"] == loc_id and n["type"] == ptype
            and not (away and n.get("ascended"))]


def _announce(kind: str):
    def effect(ctx: Ctx) -> None:
        s = edit_sheet(ctx, ctx.actor)
        s[f"{kind}_phase"] = phase_of(ctx, ctx.at)
        doc = ctx.edit(WORLD)
        ident = doc["next_announcement"]
        doc["next_announcement"] = ident + 1
        a = {"id": ident, "kind": kind, "by": ctx.actor, "at": iso(ctx.at), "location": s["location"],
             "family": ctx.params["family"], "tag": ctx.params["tag"]}
        if kind == "terraform":
            loc = location_by_id(ctx, s["location"])
            a["nomsters"] = [n["id"] for n in _matching(ctx, s["location"], primary_type(ctx, loc) or "")]
        a.update({"reactions": [], "status": "open"})
        doc["announcements"].append(a)
        ctx.step({"announcement": ident, "kind": kind, "needs": opts(ctx)["announcement_reactions"]})
    return effect


_ANNOUNCE_PARAMS = {"type": "object", "required": ["family", "tag"], "additionalProperties": False,
                    "properties": {"family": {"type": "string", "maxLength": 60,
                                              "description": "the tag family"},
                                   "tag": {"type": "string", "maxLength": 60, "description": "the tag in it"}}}

TERRAFORM = Action(
    name="cycle12.terraform",
    rule=RULE_TERRAFORM,
    summary="Announce a terraforming of your location (once a phase)",
    params=_ANNOUNCE_PARAMS,
    check=_announce_check("terraform"),
    ready=_announce_ready("terraform"),
    effect=_announce("terraform"),
    doc="The location must have a Primary Location Type tag, and two or more nomsters of that type must be "
        "there, one on your team. Give a terraforming family (Population Level) and one of its tags, or Random. "
        "Three reactions (`cycle12.react`) complete it if those nomsters are still there; the tag is added "
        "(unless the family already has one there) and you gain 5 gooderhose points.",
)

SURVEY = Action(
    name="cycle12.survey",
    rule=RULE_SURVEY,
    summary="Announce a survey of your location (once a phase)",
    params=_ANNOUNCE_PARAMS,
    check=_announce_check("survey"),
    ready=_announce_ready("survey"),
    effect=_announce("survey"),
    doc="Give a surveying family (Primary Location Type) and one of its tags, or Random. Three reactions "
        "complete it if you have not left; the tag is added and you gain 2 gooderhose points.",
)


def _announcement(ctx: Ctx, ident: int, edit: bool = False) -> dict[str, Any]:
    doc = ctx.edit(WORLD) if edit else ctx.doc(WORLD)
    items = doc["announcements"]
    i = index_of(items, "id", ident)
    if i >= 0:
        return items[i]
    raise ctx.refuse(f"there is no terraforming or surveying announcement {ident}")


# seed 004: an announcement is completed by the rule that makes it (Terraforming, Surveying): the reactions, the
# random tag, the tag added and the points
_KIND_RULES = {"terraform": RULE_TERRAFORM, "survey": RULE_SURVEY}


def _kind_gone(ctx: Ctx, a: dict[str, Any]) -> Any:
    """The rule making announcement ``a``'s kind when it is repealed (then the announcement completes no more: no
    reaction, no random tag), else None. ``cycle12.react`` and ``choose-random`` cite Terraforming and Surveying
    (``Action.also``): the engine takes them out of the game only once both are repealed, and this refuses the
    announcements of the one that is."""
    return repealed(ctx, _KIND_RULES.get(a.get("kind"), ""))


def _kind_gone_problem(ctx: Ctx, a: dict[str, Any]) -> Problem | None:
    gone = _kind_gone(ctx, a)
    if gone is None:
        return None
    return Problem(f"the rule that makes a {a['kind']} announcement, {gone.cite()}, has "
                   f"been repealed: announcement {a['id']} completes no more", rule=gone.id)


def _react_ready(ctx: Ctx) -> Iterator[str]:
    """004 Terraforming, Surveying: a reaction is to an open announcement, one per player (the announcer's own
    only where this game counts it). With no such announcement, the check refuses every number."""
    open_now = [a for a in peek(ctx.doc(WORLD)["announcements"])
                if a["status"] == "open" and _kind_gone(ctx, a) is None]
    if not open_now:
        yield "no terraforming or surveying announcement is open"
    elif not any(ctx.actor not in a["reactions"] and (opts(ctx)["announcer_may_react"] or not _is_announcer(ctx, a))
                 for a in open_now):
        yield f"no open announcement is waiting for {ctx.actor}'s reaction"


def _is_announcer(ctx: Ctx, a: dict[str, Any]) -> bool:
    """Whether the actor is who made announcement ``a`` (004 Terraforming, Surveying; read where the announcer's own
    reaction does not count, ``announcer_may_react``). A player of the name who joined after the announcement is a
    newcomer, someone else (our reading, ``common.member_since``), not the announcer who left; one of the name who
    is no player is taken for the announcer, as the name is all that tells them apart."""
    if ctx.actor != a["by"]:
        return False
    return ctx.player(ctx.actor) is None or member_since(ctx, ctx.actor, a.get("at"))


def _kind_rule(a: dict[str, Any]) -> str:
    """The rule of an announcement's kind: 004 Terraforming or Surveying. ``cycle12.react`` and
    ``cycle12.choose-random`` serve both and cite Terraforming as their own rule; a refusal about one
    announcement cites the rule that made it."""
    return RULE_SURVEY if a.get("kind") == "survey" else RULE_TERRAFORM


def _react_check(ctx: Ctx) -> Iterator[str | Problem]:
    a = _announcement(ctx, ctx.params["announcement"])
    gone = _kind_gone_problem(ctx, a) if a["status"] == "open" else None
    rule = _kind_rule(a)
    if a["status"] != "open":
        yield Problem(f"announcement {a['id']} is {a['status']}", rule=rule)
    elif gone is not None:
        yield gone
    elif ctx.actor in a["reactions"]:
        yield Problem(f"{ctx.actor} has already reacted to announcement {a['id']}", rule=rule)
    elif not opts(ctx)["announcer_may_react"] and _is_announcer(ctx, a):
        yield Problem("the announcer's own reaction does not count in this game", rule=rule)


def _location_gone(ctx: Ctx, a: dict[str, Any]) -> bool:
    """004 Terraforming, Surveying: the tag is added to the announced location, and only a tag added earns the
    points. When a proposal's changes have taken that location away there is nothing to add it to: the
    announcement fails (our reading, see the docs), as one whose tag Tag Families refuses does. True if so."""
    if location_by_id(ctx, a["location"]) is not None:
        return False
    a["status"] = "failed"
    a["result"] = f"location {a['location']} no longer exists"
    ctx.step({"announcement": a["id"], "failed": a["result"]})
    return True


def _finish(ctx: Ctx, a: dict[str, Any], tag: str) -> None:
    """Add the tag (or fail by Tag Families) and award the announcer."""
    if _location_gone(ctx, a):
        return
    locs = ctx.edit(WORLD)["locations"]
    loc = locs[next(i for i, x in enumerate(peek(locs)) if x["id"] == a["location"])]
    why = tag_conflict(ctx, loc["tags"] + [tag]) if tag not in loc["tags"] else f"{loc['name']} already has {tag}"
    if why:
        a["status"] = "failed"
        a["result"] = why[:200]
        ctx.step({"announcement": a["id"], "failed": why})
        return
    loc["tags"].append(tag)
    a["status"] = "done"
    a["result"] = f"{tag} added to {loc['name']}"
    points = opts(ctx)["terraform_points" if a["kind"] == "terraform" else "survey_points"]
    rule = RULE_TERRAFORM if a["kind"] == "terraform" else RULE_SURVEY
    # 004 Terraforming, Surveying: the points are the announcer's; one who has left the game is no player, and a
    # player of that name who joined after the announcement is someone else (our reading), who gains none
    if member_since(ctx, a["by"], a.get("at")):
        change_stat(ctx, a["by"], "gooderhose", points, rule=rule)
    else:
        points = 0
    ctx.step({"announcement": a["id"], "tag": tag, "location": loc["name"], "points": {a["by"]: points}})


def _react(ctx: Ctx) -> None:
    a = _announcement(ctx, ctx.params["announcement"], edit=True)
    a["reactions"].append(ctx.actor)
    need = opts(ctx)["announcement_reactions"]
    if reaction_count(a) < need:
        ctx.step({"announcement": a["id"], "reactions": reaction_count(a), "needed": need})
        return
    _complete(ctx, a)


def complete_if_reacted(ctx: Ctx) -> None:
    """After a proposal's changes: 004 Terraforming, Surveying complete an announcement once it has the reactions
    the rule asks for (``announcement_reactions``). When the changes give an open announcement that many (a
    patch recording reactions, or an amendment lowering the number to those it has), it completes then, as at
    the reaction that reaches the number (``_react``): it once waited for another reaction the rule no longer
    asked for. An announcement whose kind's rule is repealed completes no more (``_kind_gone``). Nothing is
    looked at unless the changes edited the world or the game's options."""
    if WORLD not in ctx.tx.docs and ctx.tx.config is None:
        return
    need = opts(ctx)["announcement_reactions"]
    due = [a.get("id") for a in peek(ctx.doc(WORLD)["announcements"])
           if isinstance(a, dict) and a.get("status") == "open" and isinstance(a.get("reactions"), list)
           and reaction_count(a) >= need and _kind_gone(ctx, a) is None]
    for ident in due:
        _complete(ctx, _announcement(ctx, ident, edit=True))


def _complete(ctx: Ctx, a: dict[str, Any]) -> None:
    """An announcement (``a``, being edited) that has its reactions: it completes if its conditions still hold."""
    if _location_gone(ctx, a):
        return
    # the condition must still hold when the last reaction comes: nobody it names has left the location
    # since the announcement (note_departure records leaving, also when they came back), nor is elsewhere
    if a.get("left"):
        a["status"] = "failed"
        a["result"] = f"{', '.join(map(str, a['left']))} left the location"[:200]
        ctx.step({"announcement": a["id"], "failed": a["result"]})
        return
    if a["kind"] == "terraform":
        at_now = {n["id"]: n["location"] for n in peek(ctx.doc(NOMSTERS)["nomsters"])}
        gone = [i for i in a.get("nomsters", []) if at_now.get(i) != a["location"]]
        if gone:
            a["status"] = "failed"
            a["result"] = f"nomster(s) {', '.join(map(str, gone))} left the location"
            ctx.step({"announcement": a["id"], "failed": a["result"]})
            return
    elif (sheet(ctx, a["by"]) or {}).get("location") != a["location"]:
        a["status"] = "failed"
        a["result"] = f"{a['by']} left the location"
        ctx.step({"announcement": a["id"], "failed": a["result"]})
        return
    if a["tag"] == RANDOM:
        a["status"] = "awaiting-random"
        ctx.step({"announcement": a["id"], "complete": True, "next": "any player chooses the tag at random"})
        return
    _finish(ctx, a, a["tag"])


REACT = Action(
    name="cycle12.react",
    rule=RULE_TERRAFORM,
    also=(RULE_SURVEY,),  # 004 Surveying completes its announcements the same way (engine.withdrawn)
    summary="React (🧭) to a terraforming or surveying announcement",
    params={"type": "object", "required": ["announcement"], "additionalProperties": False,
            "properties": {"announcement": {"type": "integer", "minimum": 1,
                                            "description": "the number of the announcement"}}},
    who=ANYONE,
    check=_react_check,
    ready=_react_ready,
    effect=_react,
    doc="One reaction per player. The third completes the announcement if its conditions still hold.",
)


def _random_ready(ctx: Ctx) -> Iterator[str]:
    """004 Terraforming, Surveying: the random tag is chosen for a completed Random announcement. With none waiting,
    the check refuses every number."""
    if not any(a["status"] == "awaiting-random" and _kind_gone(ctx, a) is None
               for a in peek(ctx.doc(WORLD)["announcements"])):
        yield "no announcement is waiting for a random tag"


def _random_check(ctx: Ctx) -> Iterator[str | Problem]:
    a = _announcement(ctx, ctx.params["announcement"])
    gone = _kind_gone_problem(ctx, a) if a["status"] == "awaiting-random" else None
    if a["status"] != "awaiting-random":
        yield Problem(f"announcement {a['id']} is {a['status']}, not waiting for a random tag", rule=_kind_rule(a))
    elif gone is not None:
        yield gone


def _random(ctx: Ctx) -> None:
    a = _announcement(ctx, ctx.params["announcement"], edit=True)
    a["chosen_by"] = ctx.actor  # the one choice is used, also when it lapses
    if _location_gone(ctx, a):  # no tag is drawn for a location that no longer exists
        return
    choices = family_tags(ctx, a["family"])
    if not choices:
        # Terraforming, Surveying (our reading): the draw is among the family's tags when it is made; with none
        # left (a proposal took them away) no tag can be chosen or added, so the announcement fails, as one
        # whose location is gone does, and the one choice is used: refusing it left the announcement waiting
        a["status"] = "failed"
        a["result"] = f"the family {a['family']!r} has no tags to choose from"[:200]
        ctx.step({"announcement": a["id"], "failed": a["result"]})
        return
    tag = choices[ctx.roll(len(choices)) - 1]
    ctx.step({"announcement": a["id"], "rolled": tag, "from": choices})
    _finish(ctx, a, tag)


CHOOSE_RANDOM = Action(
    name="cycle12.choose-random",
    rule=RULE_TERRAFORM,
    also=(RULE_SURVEY,),  # 004 Surveying completes its announcements the same way (engine.withdrawn)
    summary="Choose at random the tag of a completed Random terraforming or surveying",
    params={"type": "object", "required": ["announcement"], "additionalProperties": False,
            "properties": {"announcement": {"type": "integer", "minimum": 1,
                                            "description": "the number of the announcement"}}},
    # Terraforming, Surveying: any *player* picks the random tag (the reactions before it may be anyone's)
    check=_random_check,
    ready=_random_ready,
    effect=_random,
    doc="Any player, once: a die picks one of the family's tags (in the order the world document lists them); "
        "when the family has no tags left, the announcement fails and no tag is added.",
)

ACTIONS = [SUGGEST, CREATE, REACT_FOUNDING, MOVE, TERRAFORM, SURVEY, REACT, CHOOSE_RANDOM]
