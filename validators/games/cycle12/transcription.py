"""Transcriptions of sheets ("Transcription").

On a request made within 14 days of a sheet's submission, its submitter makes
a transcription public within 7 days; transcriptions are never authoritative.
The engine knows who submitted each sheet it records (suggestions, location
tiles and cards, character sheet images, nomster cards, proposal cards, RFJ
and ruling sheets), takes requests, records transcriptions and marks late ones.
"""

from __future__ import annotations

import operator
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

from ...engine import ANYONE, Action, Ctx, peek
from ...schemas import not_blank
from ...timeutil import parse_time
from .common import (
    JUSTICE,
    NOMSTERS,
    NOMSTERS_BY_ID,
    PROPOSALS,
    SHEETS,
    SHEETS_BY_PLAYER,
    WORLD,
    Kept,
    iso,
    member_since,
)
from .proposals import PROPOSALS_BY_ID
from .world import LOCATION_IMAGES, SUGGESTION_IMAGES, dropped_claims, founding_claims

RULE = "transcription"
REQUEST_DAYS = 14
ANSWER_DAYS = 7


def card_sender(state: Any, n: dict[str, Any]) -> str:
    """Who sent a tame nomster's card: the player who tamed it (Creating a Tame Nomster: the tamer sends the
    card), whose sheet lists it among the nomsters they tamed. Its trainer changes when it joins another team
    (Join Team), but the card stays the tamer's submission (Transcription: the submitter transcribes). A
    nomster no sheet lists as tamed (made tame by a proposal) is its trainer's; once its trainer has left the game
    (on no team, our reading of 004 Teams) it stays the sheet of the one who had it, ``former_trainer``."""
    for s in peek(state.doc(SHEETS)["sheets"]):
        if n["id"] in dict.get(s, "tamed", ()):
            return str(s["player"])
    return str(n.get("trainer") or n["former_trainer"])


def sent_at(loc: dict[str, Any]) -> str:
    """When a location's answering tile or card was submitted (004 Submission): at its creation, but for the
    first location, created at the fifth reaction to a claim submitted earlier, whose ``submitted`` says when.
    A location recorded without it (files from before) is read as submitted when created."""
    return str(dict.get(loc, "submitted") or loc["created"])


def _records(state: Any) -> Iterator[tuple[str, Any]]:
    """Every recorded sheet, in the order the records are looked at: (path, a function giving (submitter, time of
    submission)). The first record of a path is its submission. Read only (peek: nothing is copied); the time is
    worked out only when asked."""
    world = state.doc(WORLD)
    proposals = list(peek(state.doc(PROPOSALS)["proposals"]))
    # 004 Location Change Cards, Submission: a tile a location change card gave a location was submitted with its
    # proposal, by its author, not with the location's creation; the location's own record does not claim it
    changed_tiles = {(c.get("x"), c.get("y"), str(c["tile"])) for p in proposals if p.get("status") == "took-effect"
                     for c in peek(p.get("changes", ())) if c.get("kind") == "location-card" and c.get("tile")}
    kinds = {}
    for s in peek(world["suggestions"]):
        kinds[s["id"]] = s["kind"]
        if s.get("image"):
            yield s["image"], lambda s=s: (s["by"], s["at"])
    for loc in peek(world["locations"]):
        if not loc.get("created_by") or not loc.get("created"):
            continue
        if loc.get("created_tile"):  # the tile it was created with, once a location change card set its tile
            yield loc["created_tile"], lambda loc=loc: (loc["created_by"], sent_at(loc))
        answered = "card" if kinds.get(loc.get("suggestion")) == "tile" else "tile"
        if answered == "tile" and (loc.get("x"), loc.get("y"), str(loc.get("tile"))) in changed_tiles:
            continue  # the tile is a change card's (below, with its proposal)
        if loc.get(answered):
            yield loc[answered], lambda loc=loc: (loc["created_by"], sent_at(loc))
    # the first location's claims, still waiting for their reactions or dropped (their sheets stay submitted)
    for c in (*founding_claims(state), *dropped_claims(state)):
        answered = "card" if kinds.get(c.get("suggestion")) == "tile" else "tile"
        if c.get(answered) and c.get("by") and c.get("at"):
            yield c[answered], lambda c=c: (c["by"], c["at"])
    for s in peek(state.doc(SHEETS)["sheets"]):
        if s.get("image") and s.get("image_at"):
            yield s["image"], lambda s=s: (s["player"], s["image_at"])
        for e in dict.get(s, "earlier_images", ()):  # the character sheets a newer one replaced
            yield e["image"], lambda s=s, e=e: (s["player"], e["at"])
    for n in peek(state.doc(NOMSTERS)["nomsters"]):
        if n.get("card") and n.get("named") and (n.get("trainer") or n.get("former_trainer")):
            yield n["card"], lambda n=n: (card_sender(state, n), n["named"])
    for p in proposals:
        if p.get("card"):
            yield p["card"], lambda p=p: (p["author"], p["submitted"])
        # the tile of a location change card is attached to the proposal's message, so it is submitted then, whether
        # or not the proposal takes effect (004 Submission: attaching is submitting)
        for c in peek(p.get("changes", ())):
            if c.get("kind") == "location-card" and c.get("tile"):
                yield c["tile"], lambda p=p: (p["author"], p["submitted"])
    for r in peek(state.doc(JUSTICE)["rfjs"]):
        for path in r.get("sheets", []):
            yield path, lambda r=r: (r["by"], r["at"])
        for ruling in r["rulings"]:
            for path in ruling.get("sheets", []):
                yield path, lambda ruling=ruling: (ruling["by"], ruling["at"])


def submissions(state: Any) -> dict[str, tuple[str, str]]:
    """Every recorded sheet: its path -> (submitter, time of submission)."""
    out: dict[str, tuple[str, str]] = {}
    for path, when in _records(state):
        if path not in out:
            out[path] = when()
    return out


_LAST: tuple[Any, ...] = ((), None, None)  # (documents, path, answer) of the last look-up in a state's documents


def submission(state: Any, path: str) -> tuple[str, str] | None:
    """``submissions(state).get(path)``, without building the whole map: the first record of ``path``,
    looking in the same order, and stopping there. Read only (peek: nothing is copied).

    A request's check and effect ask the same of the same documents: plain documents of a state (never
    changed once made) give the same answer, so the second is the first's.
    """
    global _LAST
    docs = tuple(state.doc(kind) for kind in (WORLD, SHEETS, NOMSTERS, PROPOSALS, JUSTICE))
    last_docs, last_path, last_found = _LAST
    if last_path == path and type(last_path) is str and len(last_docs) == len(docs) \
            and all(map(operator.is_, last_docs, docs)):
        return last_found
    found = _find_submission(state, path)
    if isinstance(state, Ctx) and type(path) is str and all(type(d) is dict for d in docs):
        _LAST = (docs, path, found)
    return found


def _texts(*values: Any) -> tuple[str, ...]:
    return tuple(str(v) for v in values if v)


# Every path each list's items could record, kept from one action to the next (common.Kept): more than _records
# yields (a nomster's card before it is named, a location's tile and card both), never less, so a path none of
# them holds is recorded nowhere, and a new sheet (the usual case: a location suggestion's) is known so without
# the scan
SHEET_IMAGES = Kept(lambda s: _texts(s.get("image"), *(e.get("image") for e in dict.get(s, "earlier_images", ()))),
                    along=SHEETS_BY_PLAYER)
NOMSTER_CARDS = Kept(lambda n: _texts(n.get("card")), along=NOMSTERS_BY_ID)
PROPOSAL_SHEETS = Kept(lambda p: _texts(p.get("card"), *(c.get("tile") for c in p.get("changes") or ())),
                       along=PROPOSALS_BY_ID)
RFJ_SHEETS = Kept(lambda r: _texts(*r.get("sheets", ()), *(x for ruling in r["rulings"]
                                                          for x in ruling.get("sheets", ()))))


def _surely_new(state: Any, path: str) -> bool:
    """Whether ``path`` is surely no recorded sheet, by the kept indexes (False when one cannot tell: outside an
    action's context, or for an edited list)."""
    world = state.doc(WORLD)
    for kept, items in ((SUGGESTION_IMAGES, world["suggestions"]), (LOCATION_IMAGES, world["locations"]),
                        (SHEET_IMAGES, state.doc(SHEETS)["sheets"]), (NOMSTER_CARDS, state.doc(NOMSTERS)["nomsters"]),
                        (PROPOSAL_SHEETS, state.doc(PROPOSALS)["proposals"]), (RFJ_SHEETS, state.doc(JUSTICE)["rfjs"])):
        index = kept.of(state, items)
        if index is None or path in index:
            return False
    return not any(path in _texts(c.get("tile"), c.get("card")) for c in (*founding_claims(state),
                                                                         *dropped_claims(state)))


def _find_submission(state: Any, path: str) -> tuple[str, str] | None:
    if type(path) is str and _surely_new(state, path):
        return None
    for recorded, when in _records(state):
        if recorded == path:
            return when()
    return None


def _request_ready(ctx: Ctx) -> Iterator[str]:
    """004 Transcription: a transcription is asked of a sheet within 14 days of its submission, one request open
    at a time. With no recorded sheet so, the check refuses every path (no such sheet, too old, or asked
    already)."""
    asked = {r["sheet"] for r in ctx.doc(SHEETS).get("transcriptions", []) if r["status"] == "open"}
    if not any(ctx.at - parse_time(at) <= timedelta(days=REQUEST_DAYS) and path not in asked
               for path, (_, at) in submissions(ctx).items()):
        yield f"no recorded sheet submitted in the last {REQUEST_DAYS} days is free to be asked for a transcription"


def _request_check(ctx: Ctx) -> Iterator[str]:
    path = ctx.params["sheet"]
    found = submission(ctx, path)
    if found is None:
        yield f"no recorded sheet {path!r}"
        return
    at = found[1]
    if ctx.at - parse_time(at) > timedelta(days=REQUEST_DAYS):
        yield f"{path} was submitted at {at}, more than {REQUEST_DAYS} days ago"
    if any(r["sheet"] == path and r["status"] == "open" for r in ctx.doc(SHEETS).get("transcriptions", [])):
        yield f"a transcription of {path} is already requested"


def _request(ctx: Ctx) -> None:
    found = submission(ctx, ctx.params["sheet"])
    if found is None:
        raise KeyError(ctx.params["sheet"])
    by, at = found
    doc = ctx.edit(SHEETS)
    reqs = doc.setdefault("transcriptions", [])
    ident = max((r["id"] for r in reqs), default=0) + 1
    reqs.append({"id": ident, "sheet": ctx.params["sheet"], "submitter": by, "submitted": at,
                 "requested_by": ctx.actor, "requested": iso(ctx.at),
                 "due": iso(ctx.at + timedelta(days=ANSWER_DAYS)), "status": "open"})
    ctx.step({"transcription": ident, "submitter": by, "due": reqs[-1]["due"]})


REQUEST = Action(
    name="cycle12.request-transcription",
    rule=RULE,
    summary="Ask the submitter of a sheet for a transcription (within 14 days of its submission)",
    params={"type": "object", "required": ["sheet"], "additionalProperties": False,
            "properties": {"sheet": not_blank({"type": "string", "maxLength": 300,
                                               "description": "the path of the sheet to transcribe"})}},
    who=ANYONE,
    check=_request_check,
    ready=_request_ready,
    effect=_request,
)


def _find(ctx: Ctx, ident: int, edit: bool = False) -> dict[str, Any]:
    doc = ctx.edit(SHEETS) if edit else ctx.doc(SHEETS)
    for r in doc.get("transcriptions", []):
        if r["id"] == ident:
            return r
    raise ctx.refuse(f"there is no transcription request {ident}")


def _transcribe_ready(ctx: Ctx) -> Iterator[str]:
    """004 Transcription: the submitter answers a request for their sheet, once. With no open request for a sheet
    of the actor's, the check refuses every number."""
    requests = ctx.doc(SHEETS).get("transcriptions", [])
    if not any(r["submitter"] == ctx.actor and r["status"] == "open" and member_since(ctx, ctx.actor, r["submitted"])
               for r in requests):
        yield f"no open transcription request is for a sheet {ctx.actor} submitted"


def _transcribe_check(ctx: Ctx) -> Iterator[str]:
    r = _find(ctx, ctx.params["request"])
    if r["submitter"] != ctx.actor:
        yield f"{r['sheet']} was submitted by {r['submitter']}, who transcribes it"
    elif r["status"] != "open":
        yield f"request {r['id']} is already answered"
    elif not member_since(ctx, ctx.actor, r["submitted"]):
        # 004 Transcription: the submitter transcribes; a player of that name who joined after the submission is
        # someone else (our reading: a newcomer of a departed player's name is someone else)
        yield f"{r['sheet']} was submitted by the {r['submitter']} who left the game, before {ctx.actor} joined; " \
              "its submitter transcribes it"


def _transcribe(ctx: Ctx) -> None:
    r = _find(ctx, ctx.params["request"], edit=True)
    r["status"] = "done"
    r["text"] = ctx.params["text"]
    r["done"] = iso(ctx.at)
    late = ctx.at > parse_time(r["due"])
    if late:
        r["late"] = True
    ctx.step({"transcription": r["id"], "late": late, "note": "transcriptions are never authoritative"})


TRANSCRIBE = Action(
    name="cycle12.transcribe",
    rule=RULE,
    summary="Publish the transcription of a sheet you submitted",
    params={"type": "object", "required": ["request", "text"], "additionalProperties": False,
            "properties": {"request": {"type": "integer", "minimum": 1,
                                       "description": "the number of the transcription request"},
                           "text": not_blank({"type": "string", "maxLength": 20000,
                                              "description": "the sheet's text, transcribed"})}},
    check=_transcribe_check,
    ready=_transcribe_ready,
    effect=_transcribe,
    doc="Due within 7 days of the request; a late transcription is recorded as late.",
)

ACTIONS = [REQUEST, TRANSCRIBE]
