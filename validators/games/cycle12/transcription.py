"""Transcriptions of sheets ("Transcription").

On a request made within 14 days of a sheet's submission, its submitter makes
a transcription public within 7 days; transcriptions are never authoritative.
The engine knows who submitted each sheet it records (suggestions, location
tiles and cards, character sheet images, nomster cards, proposal cards, RFJ
and ruling sheets), takes requests, records transcriptions and marks late ones.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Iterator

from ...engine import ANYONE, Action, Ctx
from ...timeutil import parse_time
from .common import JUSTICE, NOMSTERS, PROPOSALS, SHEETS, WORLD, iso

RULE = "transcription"
REQUEST_DAYS = 14
ANSWER_DAYS = 7


def submissions(state: Any) -> dict[str, tuple[str, str]]:
    """Every recorded sheet: its path -> (submitter, time of submission)."""
    out: dict[str, tuple[str, str]] = {}
    world = state.doc(WORLD)
    kinds = {}
    for s in world["suggestions"]:
        kinds[s["id"]] = s["kind"]
        if s.get("image"):
            out.setdefault(s["image"], (s["by"], s["at"]))
    for loc in world["locations"]:
        if not loc.get("created_by") or not loc.get("created"):
            continue
        answered = "card" if kinds.get(loc.get("suggestion")) == "tile" else "tile"
        if loc.get(answered):
            out.setdefault(loc[answered], (loc["created_by"], loc["created"]))
    for s in state.doc(SHEETS)["sheets"]:
        if s.get("image") and s.get("image_at"):
            out.setdefault(s["image"], (s["player"], s["image_at"]))
    for n in state.doc(NOMSTERS)["nomsters"]:
        if n.get("card") and n.get("named") and n.get("trainer"):
            out.setdefault(n["card"], (n["trainer"], n["named"]))
    for p in state.doc(PROPOSALS)["proposals"]:
        if p.get("card"):
            out.setdefault(p["card"], (p["author"], p["submitted"]))
    for r in state.doc(JUSTICE)["rfjs"]:
        for path in r.get("sheets", []):
            out.setdefault(path, (r["by"], r["at"]))
        for ruling in r["rulings"]:
            for path in ruling.get("sheets", []):
                out.setdefault(path, (ruling["by"], ruling["at"]))
    return out


def _request_check(ctx: Ctx) -> Iterator[str]:
    known = submissions(ctx)
    path = ctx.params["sheet"]
    if path not in known:
        yield f"no recorded sheet {path!r}"
        return
    by, at = known[path]
    if ctx.at - parse_time(at) > timedelta(days=REQUEST_DAYS):
        yield f"{path} was submitted at {at}, more than {REQUEST_DAYS} days ago"
    if any(r["sheet"] == path and r["status"] == "open" for r in ctx.doc(SHEETS).get("transcriptions", [])):
        yield f"a transcription of {path} is already requested"


def _request(ctx: Ctx) -> None:
    by, at = submissions(ctx)[ctx.params["sheet"]]
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
            "properties": {"sheet": {"type": "string", "minLength": 1, "maxLength": 300}}},
    who=ANYONE,
    check=_request_check,
    effect=_request,
)


def _find(ctx: Ctx, ident: int, edit: bool = False) -> dict[str, Any]:
    doc = ctx.edit(SHEETS) if edit else ctx.doc(SHEETS)
    for r in doc.get("transcriptions", []):
        if r["id"] == ident:
            return r
    raise ctx.refuse(f"there is no transcription request {ident}")


def _transcribe_check(ctx: Ctx) -> Iterator[str]:
    r = _find(ctx, ctx.params["request"])
    if r["submitter"] != ctx.actor:
        yield f"{r['sheet']} was submitted by {r['submitter']}, who transcribes it"
    elif r["status"] != "open":
        yield f"request {r['id']} is already answered"


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
            "properties": {"request": {"type": "integer", "minimum": 1},
                           "text": {"type": "string", "minLength": 1, "maxLength": 20000}}},
    check=_transcribe_check,
    effect=_transcribe,
    doc="Due within 7 days of the request; a late transcription is recorded as late.",
)

ACTIONS = [REQUEST, TRANSCRIBE]
