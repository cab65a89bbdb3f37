"""Players: joining, reputability, character sheets and self-updating ("Joining", "Reputability",
"Tracking", "Character Token", "Self-Updating", "Medal Box").

A character sheet is a hand-drawn image in the real game. Here it is a record
in ``cycle12_sheets`` holding what the rules require a sheet to show: the
header (the player's name), the token, the location, the medal box, the bond
(the nomster's name and the type it gives) and, derived from
``cycle12_items``, the items owned; plus an optional path to the image.
Every action that changes one of these values makes a new version of the
record: that is self-updating, done by the engine for the player.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Iterator

from ...engine import NEWCOMER, PLAYER, Action, Ctx
from ...roster import fold, new_stats
from ...timeutil import parse_time
from .common import SHEETS, iso, location_at, players_located, touch_sheet
from .transcription import REQUEST_DAYS

RULE_JOINING = "joining"
RULE_TRACKING = "tracking"


def new_sheet(ctx: Ctx, name: str, token: str = "", image: str | None = None) -> dict[str, Any]:
    # 004 Located Entities: everyone starts at (0, 0); repealed, a player is no located entity and starts nowhere
    home = location_at(ctx, 0, 0) if players_located(ctx) else None
    s: dict[str, Any] = {"player": name, "header": f"Character Sheet: {name}", "token": token,
                         "location": home["id"] if home else None, "medals": [], "bonded": None, "type": None,
                         "active": None, "tamed": [], "ascended": False, "version": 1, "updated": iso(ctx.at)}
    if image:
        s["image"] = image
        s["image_at"] = iso(ctx.at)
    return s


def _join_check(ctx: Ctx) -> Iterator[str]:
    key = fold(ctx.actor)
    for p in ctx.doc("roster")["players"]:
        if fold(p["name"]) == key:
            yield f"the name {ctx.actor!r} is too like {p['name']!r}, who is already playing"
        if ctx.params.get("account") and p.get("account", "").lower() == ctx.params["account"].lower():
            yield f"the account {ctx.params['account']} already plays as {p['name']}"


def _join(ctx: Ctx) -> None:
    roster = ctx.edit("roster")
    player: dict[str, Any] = {"name": ctx.actor}
    if ctx.params.get("account"):
        player["account"] = ctx.params["account"]
    player.update({"admin": False, "idle": False, "joined": iso(ctx.at), "stats": new_stats(roster["stats"])})
    roster["players"].append(player)
    sheets = ctx.edit(SHEETS)["sheets"]
    sheets.append(new_sheet(ctx, ctx.actor, ctx.params.get("token", ""), ctx.params.get("card")))
    ctx.step({"joined": ctx.actor, "location": sheets[-1]["location"]})


JOIN = Action(
    name="cycle12.join",
    rule=RULE_JOINING,
    summary="Join the cycle by sending a card",
    params={"type": "object", "additionalProperties": False,
            "properties": {"account": {"$ref": "common.schema.json#/$defs/account"},
                           "token": {"type": "string", "maxLength": 200},
                           "card": {"type": "string", "maxLength": 300}}},
    who=NEWCOMER,
    check=_join_check,
    effect=_join,
    doc="The newcomer becomes a player of this cycle with 0 gooderhose points and a character sheet, at the "
        "location at (0, 0). `token` describes the sheet's Token; `card` is the path of the joining card.",
)


def _sheet_check(ctx: Ctx) -> Iterator[str]:
    if not ctx.params:
        yield "give a new `image` or `token`"
    if ctx.params.get("image"):
        # 004 Self-Updating asks for a *new* character sheet, and Submission calls a sheet new only if it was never
        # submitted before (as this player's sheet, or as any other sheet the engine records)
        from .world import submitted_before

        before = submitted_before(ctx, ctx.params["image"])
        if before:
            yield f"{ctx.params['image']} was submitted before (by {before}); a character sheet is a new sheet, " \
                  "one never submitted before"


def _sheet(ctx: Ctx) -> None:
    s = touch_sheet(ctx, ctx.actor)
    if "image" in ctx.params and s.get("image") and s.get("image_at") and s["image"] != ctx.params["image"]:
        # Transcription: a sheet may be asked for within 14 days of its submission, also once a newer one
        # replaced it, so the images replaced are kept while they can still be asked for
        horizon = ctx.at - timedelta(days=REQUEST_DAYS)
        kept = [e for e in s.get("earlier_images", []) if parse_time(e["at"]) >= horizon]
        if parse_time(s["image_at"]) >= horizon:
            kept.append({"image": s["image"], "at": s["image_at"]})
        if kept:
            s["earlier_images"] = kept
        else:
            s.pop("earlier_images", None)
    for key in ("image", "token"):
        if key in ctx.params:
            s[key] = ctx.params[key]
    if "image" in ctx.params:
        s["image_at"] = iso(ctx.at)
    ctx.step({"sheet": ctx.actor, "version": s["version"]})


SHEET = Action(
    name="cycle12.submit-sheet",
    rule=RULE_TRACKING,
    summary="Submit a new character sheet image or token",
    params={"type": "object", "additionalProperties": False,
            "properties": {"image": {"type": "string", "maxLength": 300},
                           "token": {"type": "string", "maxLength": 200}}},
    who=PLAYER,
    check=_sheet_check,
    effect=_sheet,
    doc="The tracked values are kept by the engine; this records the picture (`image`) and the token.",
)

ACTIONS = [JOIN, SHEET]
