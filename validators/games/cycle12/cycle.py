"""What happens by itself: phase starts, the end of the week and of the cycle, medals, the win
("Population", "Standard Proposals", "Election", "Good", "Medals", "The End of All Things").
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Iterator

from ...engine import Ctx, Event
from . import justice, nomsters, phases, proposals
from .common import CYCLE, MEDALS, SHEETS, WORLD, is_reputable, iso, location_by_id, opts, start

RULE_TIME = "time"
RULE_END = "the-end-of-all-things"
RULE_GOOD = "good"
RULE_MEDALS = "medals"


def _phase_begins(ctx: Ctx) -> None:
    """A phase begins: proposals whose period ended are resolved; Mondays end the week's election;
    the end of the last phase ends the cycle; otherwise the nomster index is reset."""
    n = phases.phase_number(ctx.at, start(ctx))
    ctx.step({"phase": phases.phase_name(n) if n else "before the cycle"})
    proposals.resolve_due(ctx)
    if ctx.at.weekday() == 0:
        justice.elect(ctx)
    if ctx.at >= phases.cycle_end(start(ctx), opts(ctx)["last_phase"]):
        end_cycle(ctx, "the end of the last phase")
        return
    nomsters.reset_index(ctx)


PHASE_BEGINS = Event(
    name="cycle12.phase-begins",
    rule=RULE_TIME,
    next_time=phases.next_phase_start,
    apply=_phase_begins,
    summary="Each Monday and Thursday at 00:00 UTC: proposals resolve, the week's election ends, the nomster "
            "index is reset",
    enabled=lambda state: not state.doc(CYCLE).get("ended"),
)


def end_cycle(ctx: Ctx, why: str) -> None:
    doc = ctx.edit(CYCLE)
    doc["ended"] = True
    doc["ended_at"] = iso(ctx.at)
    doc["reason"] = why
    for s in ctx.doc(SHEETS)["sheets"]:
        if s.get("ascended") and s["player"] not in doc["winners"]:
            doc["winners"].append(s["player"])
    ctx.step({"cycle_ended": why, "winners": list(doc["winners"])})


def ended_gate(ctx: Ctx) -> Iterator[str]:
    if ctx.doc(CYCLE).get("ended") and ctx.action.name != "engine.tick":
        yield f"the cycle ended at {ctx.doc(CYCLE).get('ended_at')}"


def win_check(ctx: Ctx) -> None:
    """Good: a player with at least 1250 gooderhose points in the Tower of Ferrets wins the cycle."""
    o = opts(ctx)
    if ctx.doc(CYCLE).get("ended"):
        return
    for p in ctx.doc("roster")["players"]:
        s = next((x for x in ctx.doc(SHEETS)["sheets"] if x["player"] == p["name"]), None)
        loc = location_by_id(ctx, s["location"]) if s and s.get("location") is not None else None
        if loc and loc["name"] == o["tower"] and int(p["stats"].get("gooderhose", 0)) >= o["win_points"]:
            doc = ctx.edit(CYCLE)
            if p["name"] not in doc["winners"]:
                doc["winners"].append(p["name"])
                ctx.step({"wins": p["name"], "gooderhose": p["stats"]["gooderhose"], "at": o["tower"]})
            if o["win_ends_cycle"]:
                end_cycle(ctx, f"{p['name']} won at the {o['tower']}")
                return


# ---------------------------------------------------------------- medals


def _participation(ctx: Ctx, name: str) -> bool:
    return is_reputable(ctx, name, ctx.at)


def _cartographer(ctx: Ctx, name: str) -> bool:
    sugg = ctx.doc(WORLD)["suggestions"]
    had_fulfilled = any(s["by"] == name and s.get("fulfilled_by") for s in sugg)
    fulfilled_other = any(s.get("fulfilled_by") == name and s["by"] != name for s in sugg)
    return had_fulfilled and fulfilled_other


def _tamer(ctx: Ctx, name: str) -> bool:
    s = next((x for x in ctx.doc(SHEETS)["sheets"] if x["player"] == name), None)
    return bool(s and s.get("tamed"))


CONDITIONS = {"participation": _participation, "cartographer": _cartographer, "tamer": _tamer}


def award_medals(ctx: Ctx) -> None:
    """Medals: a player who meets a medal's condition earns it, while fewer than its quantity hold it."""
    for medal in ctx.doc(MEDALS)["medals"]:
        test = CONDITIONS.get(medal.get("test", ""))
        if test is None:
            continue
        holders = [s["player"] for s in ctx.doc(SHEETS)["sheets"] if medal["id"] in s.get("medals", [])]
        for p in ctx.doc("roster")["players"]:
            if len(holders) >= medal["quantity"]:
                break
            if p["name"] in holders or not test(ctx, p["name"]):
                continue
            sheets = ctx.edit(SHEETS)["sheets"]
            s = next((x for x in sheets if x["player"] == p["name"]), None)
            if s is None:
                continue
            s["medals"].append(medal["id"])
            holders.append(p["name"])
            ctx.step({"medal": medal["name"], "to": p["name"]})


def holders(state: Any, medal_id: str) -> list[str]:
    return [s["player"] for s in state.doc(SHEETS)["sheets"] if medal_id in s.get("medals", [])]


def end_time(state: Any) -> datetime:
    return phases.cycle_end(start(state), opts(state)["last_phase"])
