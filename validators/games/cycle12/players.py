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

from ...engine import NEWCOMER, PLAYER, Action, Ctx, peek
from ...roster import fold, new_stats
from ...timeutil import parse_time
from .common import (
    JUSTICE,
    NOMSTERS,
    PROPOSALS,
    SHEETS,
    as_it_was,
    departed,
    iso,
    location_at,
    players_located,
    replaced,
    touch_sheet,
)
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


def renew_replaced_sheets(ctx: Ctx) -> None:
    """After a proposal's changes: a player they put a newcomer of the name in the place of (``replaced``: the entry
    of a later membership, or of another account) has left, and the newcomer is a new player (004 Joining, our
    reading), as one joining by ``cycle12.join`` after a departure is. A character sheet is the sheet of the player
    it was created for (004 Tracking), and its Medal Box holds only the medals that player earned (Medal Box), so
    the departed's sheet, where the changes left it as it was, gives way to a new one as at joining: at the location
    at (0, 0), no medals, bond, nomsters or proposal points. A sheet the changes wrote for the name is the
    newcomer's as they wrote it. Each renewal is a step of the outcome. Nothing is read unless the changes put
    someone in another's place."""
    others = replaced(ctx)
    if not others:
        return
    untouched = as_it_was(ctx, SHEETS, "sheets")
    at = [(i, s["player"]) for i, s in enumerate(peek(ctx.doc(SHEETS)["sheets"]))
          if isinstance(s, dict) and s.get("player") in others and untouched(s)]
    if not at:
        return
    sheets = ctx.edit(SHEETS)["sheets"]
    for i, name in at:
        sheets[i] = new_sheet(ctx, name)
        ctx.step({"sheet": name, "new_sheet": True, "because": f"the {name} who had it left the game"})


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
            "properties": {"account": {"$ref": "common.schema.json#/$defs/account",
                                       "description": "your forge account, the one your pull requests come from"},
                           "token": {"type": "string", "maxLength": 200,
                                     "description": "what your character sheet's Token looks like, in words"},
                           "card": {"type": "string", "maxLength": 300,
                                    "description": "the path of your joining card's image"}}},
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
            "properties": {"image": {"type": "string", "maxLength": 300,
                                     "description": "the path of the new character sheet's picture"},
                           "token": {"type": "string", "maxLength": 200,
                                     "description": "what the sheet's Token looks like now, in words"}}},
    who=PLAYER,
    check=_sheet_check,
    effect=_sheet,
    doc="The tracked values are kept by the engine; this records the picture (`image`) and the token.",
)

ACTIONS = [JOIN, SHEET]


# ---------------------------------------------------------------- leaving the game


def _dicts(items: Any) -> list[dict[str, Any]]:
    """The records of a list that are mappings (a record the changes left malformed is left for the check of the
    state they give to name it)."""
    return [x for x in peek(items) if isinstance(x, dict)] if isinstance(items, list) else []


def lapse_departed(ctx: Ctx) -> None:
    """After a proposal's changes: what a player they took off the roster had under way lapses at once, so that a
    newcomer of that name (someone else, our reading) starts clean. Each is a player's own by its rule, and someone
    who left is no player:

    - their reactions to pending proposals (004 Lifecycle: a reaction *by a player* is a vote);
    - their candidacy for judge this week (004 Election: a candidate is a reputable player);
    - their votes on open votes of confidence (004 Overturning: *players* vote);
    - their taming attempt of the day and their successful attempts not yet converted (004 Taming: once a day for
      a player; Creating a Tame Nomster: *the player who made the attempt* converts it, once);
    - the cuddles and treats they gave and the licks they had, on the nomsters' records (004 Lick: the bonding lick
      reads the trainer's cuddle or treat of the previous phase, the points the first lick of a player in a phase).

    Nothing of this survives to be read as the newcomer's. Their reactions to an open announcement or a waiting claim
    on the first location, and their :+1: on another's candidacy, stay and count (004 Terraforming, Surveying,
    Position Constraints and Election count the reactions on the message, anyone's), set apart from the names
    (``world.keep_departed_reactions``, ``departed_endorsements``). The outcome says what lapsed and what stayed,
    one step per player. The rest is judged by when the newcomer joined (``common.member_since``). Nothing is read
    unless the changes took someone off the roster."""
    gone = departed(ctx)
    if not gone:
        return
    lapsed: dict[Any, list[str]] = {name: [] for name in sorted(gone, key=str)}
    # 004 Lifecycle: the votes on a proposal still pending
    for p in _dicts(ctx.doc(PROPOSALS).get("proposals")):
        votes = p.get("votes")
        if p.get("status") != "pending" or not isinstance(votes, dict) or not gone.intersection(votes):
            continue
        edit = next(x for x in ctx.edit(PROPOSALS)["proposals"] if isinstance(x, dict) and x.get("id") == p.get("id"))
        for name in sorted(gone.intersection(votes), key=str):
            del edit["votes"][name]
            lapsed[name].append(f"vote on proposal {p.get('id')}")
    justice = ctx.doc(JUSTICE)
    # 004 Election: the week's candidacies of a player who left lapse; their :+1: on the others stay on the message
    # and count (the rule counts the reactions, anyone's), set apart so that a newcomer of the name may react too
    endorsed: dict[Any, list[str]] = {}
    cands = _dicts(justice.get("candidates"))
    if any(c.get("player") in gone or gone.intersection(c.get("endorsements") or ()) for c in cands):
        kept = []
        for c in ctx.edit(JUSTICE)["candidates"]:
            if not isinstance(c, dict):
                kept.append(c)
            elif c.get("player") in gone:
                lapsed[c["player"]].append("candidacy for judge")
            else:
                ends = c.get("endorsements")
                if isinstance(ends, list) and gone.intersection(ends):
                    names = [e for e in ends if e in gone]
                    for name in names:
                        endorsed.setdefault(name, []).append(f"reaction to {c.get('player')}'s candidacy")
                    c["endorsements"] = [e for e in ends if e not in gone]
                    c["departed_endorsements"] = [*(c.get("departed_endorsements") or ()), *names]
                kept.append(c)
        ctx.edit(JUSTICE)["candidates"] = kept
    # 004 Overturning: the votes on a vote of confidence still open
    for r in _dicts(justice.get("rfjs")):
        rulings = _dicts(r.get("rulings"))
        c = rulings[-1].get("confidence") if rulings else None
        if not isinstance(c, dict) or c.get("status") != "open" or not isinstance(c.get("votes"), dict) \
                or not gone.intersection(c["votes"]):
            continue
        edit = next(x for x in ctx.edit(JUSTICE)["rfjs"] if isinstance(x, dict) and x.get("id") == r.get("id"))
        votes = edit["rulings"][-1]["confidence"]["votes"]
        for name in sorted(gone.intersection(votes), key=str):
            del votes[name]
            lapsed[name].append(f"vote of confidence on RFJ {r.get('id')}")
    pool = ctx.doc(NOMSTERS)
    # 004 Taming: the day's attempt and the successes not yet converted
    attempts = pool.get("attempts")
    if isinstance(attempts, dict) and gone.intersection(attempts):
        edit_attempts = ctx.edit(NOMSTERS)["attempts"]
        for name in sorted(gone.intersection(attempts), key=str):
            del edit_attempts[name]
            lapsed[name].append("taming attempt")
    tamings = pool.get("tamings")
    if any(t.get("player") in gone for t in _dicts(tamings)):
        kept = []
        for t in ctx.edit(NOMSTERS)["tamings"]:
            if isinstance(t, dict) and t.get("player") in gone:
                lapsed[t["player"]].append(f"successful taming of nomster {t.get('nomster')}")
            else:
                kept.append(t)
        ctx.edit(NOMSTERS)["tamings"] = kept
    # 004 Lick: the cuddles, treats and licks on the nomsters' records
    fields = (("cuddles", "by", "cuddle of"), ("treats", "by", "treat to"), ("licked", "player", "lick by"))
    for n in _dicts(pool.get("nomsters")):
        if not any(x.get(key) in gone for field, key, _ in fields for x in _dicts(n.get(field))):
            continue
        edit = next(x for x in ctx.edit(NOMSTERS)["nomsters"] if isinstance(x, dict) and x.get("id") == n.get("id"))
        for field, key, said in fields:
            records = edit.get(field)
            if not isinstance(records, list):
                continue
            for x in records:
                if isinstance(x, dict) and x.get(key) in gone:
                    lapsed[x[key]].append(f"{said} nomster {n.get('id')}")
            edit[field] = [x for x in records if not (isinstance(x, dict) and x.get(key) in gone)]
    # 004 Terraforming, Surveying, Position Constraints: their reactions on an announcement or a claim's message stay
    # and count (anyone's do), kept apart so that a newcomer of the name may add their own
    from .world import keep_departed_reactions  # here: world reads this module's sheets

    stayed = keep_departed_reactions(ctx, gone)
    for name, what in endorsed.items():
        stayed.setdefault(name, []).extend(what)
    for name, what in lapsed.items():
        step: dict[str, Any] = {"left_the_game": name}
        if what:
            step["lapsed"] = list(dict.fromkeys(what))
        if stayed.get(name):
            step["reactions_stay"] = stayed[name]
        if len(step) > 1:
            ctx.step(step)

