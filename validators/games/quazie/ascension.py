"""When a Dynasty has been won (seed 003 rule 9): what the reset of the stats means for this module's state.

The BlogNomic core resets every Muffin's stats to zero or blank when a DoV passes (option
``ascension_resets_stats``); a blank the roster's declaration does not allow gets a new Muffin's value there.
This consequence, which acts only on the action that wins a dynasty (the ``core.dov-resolve``, or a CfJ
whose effects mark the DoV passed), does the rest:

* a Flavor and a DanceMove the rules require at all times (rules 13 and 19) are a new Muffin's (Plain,
  CabbagePatch) instead of blank;
* the Old Items' values, columns of the GNDT too (rule 11), are 0 for everyone (no value written);
* what this module keeps about the values just reset goes with them: the landings (for bouncing), the Launch
  Base entries (nobody is at Position 4), Dr. Eggman's sparing, when a Muffin went Blind, the last tag, the
  Writers of Awesome's times (nobody holds a role), and the notes spent in Concertos and movements (the Note
  Histories are empty, so a count of spent notes would hide notes played later).

The Year is reset to 0 A.E. at the moment of the win (rule 9), the Switcheroo Alarm with it (see
``_reset_calendar``).

The Ascension Address that follows may give "Year" and "A.E." new names (rule 9, ``core.ascend``'s ``keywords``;
the core renames them in the rules): ``address_renames`` carries the new names into this module's state.
"""

from __future__ import annotations

import copy

from ...engine import Ctx, peek, ruled
from ...timeutil import format_time
from ..blognomic.options import options as core_options
from ..blognomic.victory import keyword_pattern
from .common import DANCE_FIELD, R_VICTORY, flavour_names
from .hands import POCKET, calendar_year

# the module's records of values the reset blanks (see the module's docstring)
KEYED = ("landings", "launch_base", "blind_since", "role_since", "concerto_used", "movement_used")


# rule 9's era: what a win restarts the Calendar in, until an Ascension Address renames it (game keyword ``era``)
AFTER_WIN = "A.E."
# rule 7's era: what the Calendar counts in before any win (a Calendar with no ``era``)
BEFORE_WIN = "D.Q."


def won(ctx: Ctx) -> bool:
    """Whether this action won the dynasty (a new dynasty number): the resolving of a DoV, or an action whose effects
    marked a pending DoV passed (a CfJ's patch, which the core's ``victory.follow_dov_patch`` makes a win too)."""
    if "dynasty" not in ctx.tx.docs or ctx.doc("dynasty").get("number") == ctx.tx.base.docs["dynasty"].get("number"):
        return False
    if ctx.action.name == "core.dov-resolve":
        return True
    base = ctx.tx.base.docs.get("dovs")
    if base is None or "dovs" not in ctx.tx.docs:
        return False
    was = {d["id"] for d in peek(base["dovs"]) if d["status"] == "pending"}
    return any(d["id"] in was and d["status"] == "passed" for d in peek(ctx.doc("dovs")["dovs"]))


# seed 003 rule 9 "Victory and Ascension" resets the values and the Year on a win; repealed, nothing is reset here
@ruled(R_VICTORY)
def dynasty_won(ctx: Ctx) -> None:
    """Consequence: after the DoV that wins a dynasty, the rest of rule 9's reset (free on any other action)."""
    if not won(ctx):
        return
    if core_options(ctx.config).get("ascension_resets_stats"):
        _reset(ctx)
    if "quazie" in ctx.state.docs:
        _reset_calendar(ctx)


def _reset_calendar(ctx: Ctx) -> None:
    """Rule 9: the Year is 0 A.E. at the moment of the win; rule 7 advances it 10 Years at each midnight UTC from
    there. The Switcheroo Alarm (rule 22) is a Calendar date: it is moved with the Calendar (less the Year the win
    came in), so it rings at the same midnight as before and an alarm already passed stays passed. Read literally,
    an alarm of 210 left as it was against a Year counted again from 0 would keep Switcheroos away for three weeks,
    only because the count of Years started again."""
    year = calendar_year(ctx, ctx.at)
    q0 = ctx.doc("quazie")
    alarm = q0.get("switcheroo_alarm")
    q = ctx.edit("quazie")
    q["calendar"] = {"epoch": format_time(ctx.at), "year": 0, "era": ctx.keyword("era", AFTER_WIN)}
    if alarm is not None:
        q["switcheroo_alarm"] = int(alarm) - year
    ctx.step({"calendar": 0, **({"switcheroo_alarm": int(alarm) - year} if alarm is not None else {})})


# seed 003 rule 9 "Victory and Ascension" lets the Ascension Address rename "Year" and "A.E."; repealed, the
# module's state keeps its words
@ruled(R_VICTORY)
def address_renames(ctx: Ctx) -> None:
    """Consequence: seed 003 rule 9 lets the Ascension Address replace "Year" and "A.E." with new terms; the core
    replaces them in the rules, and this module's state follows, so nothing here keeps the old name:

    * the Calendar's ``era``, when the Address renames the era it is counted in (A.E. after a win);
    * the era a later win restarts the Calendar in: rule 9's text now names the new term, so the game keyword
      ``era`` holds it (the core renames a keyword already in game.yaml; a first rename writes it there);
    * the reserved words of rule 11 (the nature of Stuff): "Year" renamed is the new term that has a meaning;
    * each Hand's grabbed text (rule 22): a Hand is a piece of ruleset text between braces, so the core, replacing a
      word in its rule, replaces it inside the braces too (``_hands_follow``).

    Free on every other action, and on an Address that renames nothing."""
    if ctx.action.name != "core.ascend" or not ctx.params.get("keywords"):
        return
    replace = ctx.params["keywords"]
    # read before the Address: the core has already renamed a keyword game.yaml declared, and reading it now would
    # rename it twice when the Address also renames the new term ({"A.E.": "B.C.", "B.C.": "C.E."})
    era = str((ctx.tx.base.config.get("keywords") or {}).get("era", AFTER_WIN))
    if era in replace:
        ctx.tx.edit_config().setdefault("keywords", {})["era"] = replace[era]
    if "quazie" in ctx.state.docs:
        calendar = ctx.doc("quazie").get("calendar")
        if calendar is not None and (calendar.get("era") or BEFORE_WIN) in replace:
            new = replace[calendar.get("era") or BEFORE_WIN]
            ctx.edit("quazie")["calendar"]["era"] = new
            ctx.step({"calendar_era": new})
    if "quazie_tables" in ctx.state.docs:
        words = ctx.doc("quazie_tables").get("reserved_words") or []
        if any(w in replace for w in words):
            edited = ctx.edit("quazie_tables")
            edited["reserved_words"] = [replace.get(w, w) for w in edited["reserved_words"]]
    if "quazie" in ctx.state.docs:
        _hands_follow(ctx, replace)


def _hands_follow(ctx: Ctx, replace: dict[str, str]) -> None:
    """Seed 003 rule 22: a Hand is the braces around a piece of ruleset text ("{{X}}", X being rule text). Rule 9's
    Address replacing a word in the Hand's rule replaces it between the braces as well, so the Hand still grabs the
    same piece, now in the new words: its recorded ``text`` follows. Left as it was, the record no longer matched
    its rule, and the Hand counted as in no rule (in its Pocket), so an Address renaming "Muffin" took rule 23's
    "{{a Muffin}}" Hand out of play and stopped every Switcheroo. A Hand in a rule the Address repeals is left as
    it is here: it is in no rule now, and rule 22 puts it in its Pocket (``hands.pocket_lost_hands``, next)."""
    pattern = keyword_pattern(replace)
    for side, hand in (ctx.doc("quazie").get("hands") or {}).items():
        rid, text = hand.get("rule"), str(hand.get("text"))
        before, after = ctx.tx.base.rules.get(rid), ctx.state.rules.get(rid)
        if pattern is None or rid == POCKET or before is None or after is None:
            continue
        grab = "{{" + text + "}}"
        if grab not in before.body or grab in after.body:
            continue  # not in its rule before the Address, or still there as it was
        new = pattern.sub(lambda m: replace[m.group(1)], text)
        if new != text and "{{" + new + "}}" in after.body:
            ctx.edit("quazie")["hands"][side]["text"] = new
            ctx.step({"hand": side, "grabs": new})


def _reset(ctx: Ctx) -> None:
    roster = ctx.doc("roster")
    defs = roster.get("stats") or {}
    required = {"flavour": set(flavour_names(ctx)),
                DANCE_FIELD: set(ctx.doc("quazie_tables")["dance"]["roll"].values())}
    names = set()
    for i, p in enumerate(peek(roster["players"])):
        if p.get("idle") or p.get("kind"):
            continue  # rule 2: not a Muffin for rule 9; the core kept its values, and so is it kept here
        names.add(p["name"])
        stats = p.get("stats") or {}
        for key, allowed in required.items():
            if key in stats and stats[key] not in allowed and key in defs:
                # rules 13 and 19: every Muffin always has a Flavor and a DanceMove; blank is neither, so the
                # reset gives a new Muffin's (rule 13: Plain; rule 19: CabbagePatch), the roster's default
                ctx.edit("roster")["players"][i]["stats"][key] = copy.deepcopy(defs[key]["default"])
    q0 = ctx.doc("quazie") if "quazie" in ctx.state.docs else {}
    keyed = [k for k in KEYED if names & set(q0.get(k) or {})]
    spared = names & set(q0.get("spared") or [])
    last_tag = names & set((q0.get("last_tag") or {}).values())
    if keyed or spared or last_tag:
        q = ctx.edit("quazie")
        for k in keyed:
            q[k] = {n: v for n, v in q[k].items() if n not in names}
            if not q[k]:
                del q[k]
        if spared:
            q["spared"] = [n for n in q["spared"] if n not in names]
        if last_tag:
            q.pop("last_tag")
    items0 = ctx.doc("quazie_items") if "quazie_items" in ctx.state.docs else {}
    if any(names & set(item.get("values") or {}) for item in peek(items0.get("old_items") or [])):
        # rule 11: the Old Items are columns of the GNDT, so the reset sets them to 0 (a new Muffin's value,
        # rule 11, written as no value at all)
        for item in ctx.edit("quazie_items")["old_items"]:
            if names & set(item.get("values") or {}):
                item["values"] = {n: v for n, v in item["values"].items() if n not in names}
