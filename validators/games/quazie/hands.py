"""Colours of rules and the Sleight of Hand (seed 003 rules 18 and 22), as far as they can be checked.

Colours: a rule's colour is its front matter ``colour``; it must be an HTML colour keyword (rule 18).
Whether it is Legitimate is read from ``quazie_tables.legitimate_colours``, which the seed leaves empty.
Rule 18 then sends "the Muffin" to Position Bob, without saying which Muffin; the module shows which rules
are illegitimate and moves nobody.

Hands: two Hands each hold a piece of one rule's text, written {{like this}} in the rule. An admin may move
a Hand into an adjoining dynastic rule (the wormholes join the last dynastic rule to the first), grabbing
text of their choice; the Switcheroo Alarm is then set to the Calendar Year plus 10. When the alarm is
below the current Year, moving is replaced by a Switcheroo (the Hands and their contents swap places;
alarm = Year + 30), except while a Hand is in a Pocket. The Calendar (rule 7) advances 10 Years each day
at midnight UTC from ``quazie.calendar``.

An admin moves a Hand only for a change they made to the ruleset, as their next action after it, once per change
(``note_ruleset_change`` records it in ``quazie.ruleset_changes``). A Shoo by a non-admin stands until a Hand moves;
an admin who changes the ruleset while one stands must move a Hand before anything else (``shoo_obliges``), unless
no move is possible.
"""

from __future__ import annotations

import re
from typing import Any, Iterator

from ...engine import ADMIN, Action, Ctx, State, repealed, ruled
from ...problems import Problem
from ...schemas import not_blank
from ...timeutil import day_start, format_time, parse_time
from ..blognomic.common import in_hiatus
from .common import R_COLOURS, R_HANDS, R_ROLES, number_order, rule_number

HTML_COLOURS = {
    "aliceblue", "antiquewhite", "aqua", "aquamarine", "azure", "beige", "bisque", "black", "blanchedalmond",
    "blue", "blueviolet", "brown", "burlywood", "cadetblue", "chartreuse", "chocolate", "coral",
    "cornflowerblue", "cornsilk", "crimson", "cyan", "darkblue", "darkcyan", "darkgoldenrod", "darkgray",
    "darkgreen", "darkkhaki", "darkmagenta", "darkolivegreen", "darkorange", "darkorchid", "darkred",
    "darksalmon", "darkseagreen", "darkslateblue", "darkslategray", "darkturquoise", "darkviolet", "deeppink",
    "deepskyblue", "dimgray", "dodgerblue", "firebrick", "floralwhite", "forestgreen", "fuchsia", "gainsboro",
    "ghostwhite", "gold", "goldenrod", "gray", "green", "greenyellow", "honeydew", "hotpink", "indianred",
    "indigo", "ivory", "khaki", "lavender", "lavenderblush", "lawngreen", "lemonchiffon", "lightblue",
    "lightcoral", "lightcyan", "lightgoldenrodyellow", "lightgreen", "lightgrey", "lightgray", "lightpink",
    "lightsalmon", "lightseagreen", "lightskyblue", "lightslategray", "lightsteelblue", "lightyellow", "lime",
    "limegreen", "linen", "magenta", "maroon", "mediumaquamarine", "mediumblue", "mediumorchid",
    "mediumpurple", "mediumseagreen", "mediumslateblue", "mediumspringgreen", "mediumturquoise",
    "mediumvioletred", "midnightblue", "mintcream", "mistyrose", "moccasin", "navajowhite", "navy", "oldlace",
    "olive", "olivedrab", "orange", "orangered", "orchid", "palegoldenrod", "palegreen", "paleturquoise",
    "palevioletred", "papayawhip", "peachpuff", "peru", "pink", "plum", "powderblue", "purple", "red",
    "rosybrown", "royalblue", "saddlebrown", "salmon", "seagreen", "seashell", "sienna", "silver", "skyblue",
    "slateblue", "slategray", "snow", "springgreen", "steelblue", "tan", "teal", "thistle", "tomato",
    "turquoise", "violet", "wheat", "white", "whitesmoke", "yellow", "yellowgreen",
}
POCKET = "pocket"


def colour_of(rule: Any) -> str | None:
    c = rule.meta.get("colour")
    return str(c) if c else None


def legitimate(state: State, colour: str) -> bool:
    return colour.casefold() in {c.casefold() for c in state.doc("quazie_tables").get("legitimate_colours", [])}


def colour_problems(state: State) -> Iterator[Problem]:
    for rid, rule in state.rules.items():
        c = colour_of(rule)
        if c and c.replace(" ", "").casefold() not in HTML_COLOURS:
            yield Problem(f"rule {rule.cite()} has the colour {c!r}, which is not an HTML colour keyword",
                          file="ruleset", field=f"{rid}.colour", rule=R_COLOURS)


# ---------------------------------------------------------------- the Calendar and the Hands


NO_CALENDAR = {"epoch": "2026-11-01T00:00:00Z", "year": 0}  # a state written without one


def calendar_year(state: State | Ctx, at: Any) -> int:
    return year_on(state.doc("quazie").get("calendar", NO_CALENDAR), at)


def year_on(cal: dict[str, Any], at: Any) -> int:
    """Rule 7: the Calendar's Year at ``at``: ``year`` on the day of ``epoch``, 10 more at each midnight UTC."""
    days = (day_start(at) - day_start(parse_time(cal["epoch"]))).days
    return int(cal["year"]) + 10 * days


def dynastic_order(state: State | Ctx) -> list[str]:
    """Active dynastic rules by number, without the Glossary: the ring the Hands walk (wormholes close it).

    Rule 22 (seed 003): a Hand moves into an adjoining rule, so the order is the Ruleset's (``number_order``): a
    rule a proposal numbered "23a" sits after 23, and 22.10 after 22.9 (read as decimals they came before, and a
    number with a letter stopped every Hand's move with a ValueError)."""
    rules = [r for r in state.rules.values()
             if r.meta.get("status") == "active" and r.meta.get("section") == "dynastic"]
    return [r.id for r in sorted(rules, key=lambda r: number_order(r.number))]


def adjoining(state: State | Ctx, rid: str) -> list[str]:
    ring = dynastic_order(state)
    here = R_HANDS if rid == POCKET else rid
    if here not in ring or len(ring) < 2:
        return []
    i = ring.index(here)
    return sorted({ring[i - 1], ring[(i + 1) % len(ring)]})


def _hands(ctx: Ctx) -> dict[str, Any]:
    return ctx.doc("quazie").get("hands", {})


def in_no_rule(state: State | Ctx, hand: dict[str, Any]) -> bool:
    """Whether a Hand outside its Pocket is no longer in any rule: its rule is not an active dynastic rule, or
    the rule's text no longer holds its braced grab (a proposal amended it away)."""
    rid = hand["rule"]
    if rid == POCKET:
        return False
    return rid not in dynastic_order(state) or "{{" + str(hand["text"]) + "}}" not in state.rules[rid].body


def pocketed(state: State | Ctx, hands: dict[str, Any]) -> list[str]:
    """The Hands that are in a Pocket for rule 22 (seed 003): those there, and those no longer in any rule, which
    the rule moves into their Pocket. While there is one, no Switcheroo can be performed."""
    return [k for k, h in hands.items() if h["rule"] == POCKET or in_no_rule(state, h)]


def hand_problems(state: State) -> Iterator[Problem]:
    """Rule 22 (seed 003): a Hand is in a rule of the Ruleset (in force, or one it has since left) or in its Pocket.
    A Hand naming a rule the ruleset has never had is a slip in quazie.yaml, reported where it is."""
    for which, hand in state.doc("quazie").get("hands", {}).items():
        if hand["rule"] != POCKET and hand["rule"] not in state.rules:
            yield Problem(f"the {which} Hand is in rule {hand['rule']!r}, and the ruleset has no such rule (a Hand is "
                          f"in a rule's text or in its Pocket, '{POCKET}')", "quazie", field=f"hands.{which}.rule",
                          rule=R_HANDS)


@ruled(R_HANDS)
def pocket_lost_hands(ctx: Ctx) -> None:
    """Rule 22 (seed 003, Sleight of Hand): a Hand that is no longer in any rule is moved into its Pocket, grabbing
    "Left" or "Right" there. After an action that changed the ruleset (a proposal or CfJ repealing the Hand's rule,
    amending its grab away or moving the rule among the core rules; an Ascension Address's repeals), each Hand left
    in no rule goes to its Pocket at once, as the rule says, rather than waiting in the old rule for an admin to put
    it there. That is a move of the Hand, so a pending Shoo is answered by it (the Shoo asks for a post "since either
    Hand was last moved"). A Hand naming a rule the ruleset never had is a slip, reported by ``hand_problems``, and
    left alone. Nothing to do when the ruleset did not change."""
    if ctx.tx.rules is None:
        return
    hands = ctx.doc("quazie").get("hands")
    if not hands:
        return
    rules = ctx.rules
    lost = [k for k, h in hands.items() if h["rule"] != POCKET and h["rule"] in rules and in_no_rule(ctx.state, h)]
    if not lost:
        return
    q = ctx.edit("quazie")
    for which in lost:
        hand = q["hands"][which]
        ctx.step({"pocketed": which, "from": hand["rule"], "grabs": which.capitalize()})
        hand["rule"], hand["text"] = POCKET, which.capitalize()
    if q.get("shoo"):
        q["shoo"] = False


BRACED = re.compile(r"\{\{(.*?)\}\}", re.S)


def brace_problems(state: State) -> Iterator[Problem]:
    """Rule 22 (seed 003): the Ruleset holds two Hands, text written in double braces, and nothing else is written
    so. Text in double braces in a rule in force that is neither Hand's grab there (a proposal's rule added with
    braces, or a Hand's braced text amended without the Hand) would be a third Hand, and is reported at the rule. Rule
    22's own text is left alone: no Hand is ever in it, and it shows the Hands' format and its Pockets. A game whose
    state records no Hands is not checked."""
    hands = state.doc("quazie").get("hands") or {}
    if not hands:
        return
    for rid, rule in state.rules.items():
        if rid == R_HANDS or rule.meta.get("status") != "active" or "{{" not in rule.body:
            continue
        grabs = [str(h["text"]) for h in hands.values() if h.get("rule") == rid]
        for text in BRACED.findall(rule.body):
            if text in grabs:
                grabs.remove(text)
                continue
            yield Problem(f"rule {rule.cite()} holds {{{{{text}}}}}, which is neither Hand's grab: the Ruleset has two "
                          "Hands, the only text written in double braces; a proposal that changes a Hand's "
                          "grab sets the Hand's text in quazie.yaml too", file="ruleset", field=f"{rid}.body",
                          rule=R_HANDS)


def _change_ready(ctx: Ctx) -> Iterator[str]:
    """Rule 22 (seed 003): an admin may move one Hand whenever they make a change to the ruleset; the log keeps the
    change and the move apart, so the move is the admin's next action after their change, one per change."""
    change = (ctx.doc("quazie").get("ruleset_changes") or {}).get(ctx.actor)
    if change is None:
        yield (f"{ctx.actor} has made no change to the ruleset to move a Hand for: an admin moves one Hand when they "
               "change the ruleset (enacting a proposal or CfJ that changes a rule, a typo fix, an Ascension Address), "
               "as their next action after the change")
    elif change.get("moved"):
        yield (f"a Hand has already moved for {ctx.actor}'s change to the ruleset ({change.get('by')} at "
               f"{change.get('at')}): one Hand per change")


def _move_check(ctx: Ctx) -> Iterator[str | Problem]:
    tie = list(_change_ready(ctx))
    if tie:
        yield from tie
        return
    hands = _hands(ctx)
    which = ctx.params["hand"]
    if which not in hands:
        yield f"there is no {which} Hand in this game's gamestate"
        return
    bad = list(hand_problems(ctx.state))
    if bad:
        yield from bad
        return
    year = calendar_year(ctx, ctx.at)
    alarm = int(ctx.doc("quazie").get("switcheroo_alarm", 0))
    # rule 22 (seed 003): a Hand no longer in any rule goes into its Pocket, and no Switcheroo happens while a Hand
    # is in one; swapping such a Hand would write its text into a repealed rule, or drop the other Hand's grab
    in_pocket = bool(pocketed(ctx.state, hands))
    if alarm < year and not in_pocket:
        return  # a Switcheroo happens instead, whatever was asked
    hand = hands[which]
    target = ctx.params.get("rule")
    text = ctx.params.get("text", "")
    if not target:
        yield "give rule (an adjoining rule's id) and text (what the Hand grabs there)"
        return
    if target == POCKET:
        # rule 22: a Hand goes into its Pocket only when it would move into rule 22 (or a Core rule, which the
        # wormholes keep out of reach), or when it is no longer in any rule; never straight from a rule
        if hand["rule"] == POCKET:
            yield f"the {which} Hand is already in its Pocket"
        elif not in_no_rule(ctx.state, hand):
            yield (f"the {which} Hand is in rule {hand['rule']}; a Hand goes into its Pocket only when it would "
                   f"move into rule {rule_number(ctx, R_HANDS)} ({R_HANDS}), if that adjoins, or when it is no "
                   "longer in any rule")
        return
    if target not in adjoining(ctx.state, hand["rule"]):
        yield f"rule {target!r} does not adjoin the rule the {which} Hand is in ({hand['rule']})"
        return
    if target in (POCKET, R_HANDS):
        return
    body = ctx.state.rules[target].body
    other = _other_text(hands, which, target)
    if not text or text not in body.replace("{{", "").replace("}}", ""):
        yield f"rule {target} does not contain the text {text!r}"
    elif "\n\n" in text:
        yield "a Hand grabs text within one rule and one paragraph"
    elif "{{" in text or "}}" in text:
        yield "a Hand's text does not include braces; they are the Hands' own"
    elif grab_index(body, text, other) is None:
        yield (f"the two Hands may not overlap: every {text!r} in rule {target} shares text with the other Hand's "
               f"{other!r}" if other is not None else f"rule {target} does not contain the text {text!r}")


def _other_text(hands: dict[str, Any], which: str, rid: str) -> str | None:
    """What the other Hand holds in rule ``rid``, or None if it is not there."""
    for k, h in hands.items():
        if k != which and h["rule"] == rid:
            return str(h["text"])
    return None


def grab_index(body: str, text: str, other: str | None) -> int | None:
    """Where in ``body`` a Hand grabs ``text``: the first occurrence that does not overlap the other Hand's
    braced ``{{other}}`` (rule 22: the selection may not overlap the other Hand), or None if there is none.

    Text read across the other Hand's braces (part inside, part outside) is never found here, so it is refused.
    """
    span = None
    if other is not None:
        k = body.find("{{" + other + "}}")
        if k >= 0:
            span = (k, k + len(other) + 4)
    i = body.find(text)
    while i >= 0:
        if span is None or i + len(text) <= span[0] or i >= span[1]:
            return i
        i = body.find(text, i + 1)
    return None


def _ungrab(ctx: Ctx, rid: str, text: str) -> None:
    if rid == POCKET:
        return
    rule = ctx.tx.edit_rules()[rid]
    rule.body = rule.body.replace("{{" + text + "}}", text, 1)


def _grab(ctx: Ctx, rid: str, text: str, other: str | None) -> None:
    if rid == POCKET:
        return
    rule = ctx.tx.edit_rules()[rid]
    i = grab_index(rule.body, text, other)
    if i is None:  # the check has refused this already
        raise ctx.refuse(f"rule {rid} has no {text!r} outside the other Hand", R_HANDS)
    rule.body = rule.body[:i] + "{{" + text + "}}" + rule.body[i + len(text):]


def _move_hand(ctx: Ctx) -> None:
    q = ctx.edit("quazie")
    q["ruleset_changes"][ctx.actor]["moved"] = True  # rule 22: one Hand per change (the check found the change)
    hands = q["hands"]
    which = ctx.params["hand"]
    year = calendar_year(ctx, ctx.at)
    in_pocket = bool(pocketed(ctx.state, hands))  # rule 22: a Hand in no rule is in its Pocket (see _move_check)
    if int(q.get("switcheroo_alarm", 0)) < year and not in_pocket:
        (a, ha), (b, hb) = list(hands.items())[:2]
        rules = ctx.tx.edit_rules()
        rules[ha["rule"]].body = rules[ha["rule"]].body.replace("{{" + ha["text"] + "}}", "\0A\0", 1)
        rules[hb["rule"]].body = rules[hb["rule"]].body.replace("{{" + hb["text"] + "}}", "\0B\0", 1)
        rules[ha["rule"]].body = rules[ha["rule"]].body.replace("\0A\0", "{{" + hb["text"] + "}}")
        rules[hb["rule"]].body = rules[hb["rule"]].body.replace("\0B\0", "{{" + ha["text"] + "}}")
        # rule 22: each Hand, holding what it grabbed, goes to the other's place (so "the left Hand" is now in the
        # right one's rule); the rules' texts read the same either way
        ha["rule"], hb["rule"] = hb["rule"], ha["rule"]
        q["switcheroo_alarm"] = year + 30
        q["shoo"] = False
        ctx.step({"switcheroo": [a, b], "alarm": year + 30})
        return
    hand = hands[which]
    _ungrab(ctx, hand["rule"], hand["text"])
    target = ctx.params["rule"]
    if target in (POCKET, R_HANDS):
        hand["rule"], hand["text"] = POCKET, which.capitalize()
    else:
        hand["rule"], hand["text"] = target, ctx.params["text"]
        _grab(ctx, target, ctx.params["text"], _other_text(hands, which, target))
    q["switcheroo_alarm"] = year + 10
    q["shoo"] = False
    ctx.step({"hand": which, "rule": hand["rule"], "grabs": hand["text"], "alarm": year + 10})


MOVE = "quazie.move-hand"

MOVE_HAND = Action(
    name=MOVE,
    done="a Hand moved",
    rule=R_HANDS,
    summary="An admin who has just changed the ruleset moves a Hand into an adjoining rule (or a Switcheroo happens, "
            "when the alarm has passed)",
    params={"type": "object", "required": ["hand"], "additionalProperties": False,
            "properties": {"hand": {"enum": ["left", "right"], "description": "which Hand moves"},
                           "rule": {"type": "string", "maxLength": 80,
                                    "description": "the id of the adjoining rule it moves into"},
                           "text": not_blank({"type": "string", "maxLength": 500,
                                              "description": "the words of that rule the Hand grabs"},
                                             empty_ok=True)}},
    who=ADMIN,
    check=_move_check,
    ready=_change_ready,
    effect=_move_hand,
)


def _shoo_check(ctx: Ctx) -> Iterator[str]:
    me = ctx.player() or {}
    if me.get("admin"):
        yield "only a Muffin who is not an admin may Shoo the Hands"


def _shoo(ctx: Ctx) -> None:
    """Rule 22 (seed 003): a Shoo post stands until a Hand moves. The first post since the last move is recorded (who
    and when), so the wiki and ``nomic due`` can say since when a Shoo stands; a later one adds nothing to it."""
    q = ctx.edit("quazie")
    if not q.get("shoo"):
        q["shoo"] = {"by": ctx.actor, "at": format_time(ctx.at)}
    ctx.step({"shoo": ctx.actor})


SHOO = Action(
    name="quazie.shoo",
    rule=R_HANDS,
    summary="Shoo! the Hands: until a Hand moves, an admin who changes the ruleset must move one",
    params={"type": "object", "additionalProperties": False, "properties": {}},
    check=_shoo_check,
    effect=_shoo,
)

ACTIONS = [MOVE_HAND, SHOO]


# ---------------------------------------------------------------- rule 22: a Hand moves for an admin's change


def rules_changed(before: dict[str, Any], after: dict[str, Any]) -> bool:
    """Whether the ruleset ``after`` differs from ``before``: a rule added, gone, or its text or front matter."""
    if before is after:
        return False
    if before.keys() != after.keys():
        return True
    return any(r.body != before[k].body or r.meta != before[k].meta for k, r in after.items())


@ruled(R_HANDS)
def note_ruleset_change(ctx: Ctx) -> None:
    """Rule 22 (seed 003, Sleight of Hand): whenever an admin makes a change to the ruleset they may move one Hand.

    After an action that changed the ruleset (an enactment or CfJ with rule edits, a typo fix, an Ascension Address,
    Intricacy's new flavour; the Hand's own move is none), taken by an active admin, the change is recorded under
    the admin's name in ``quazie.ruleset_changes``: when, by which action, and whether a Shoo stood then (the move is
    then owed, ``shoo_obliges``). ``quazie.move-hand`` takes it (``moved``). The admin's next action of any other
    kind ends it: the log has no "same act", so the move is read as the admin's next action after the change.
    Free when the ruleset did not change and the actor has no change recorded."""
    if ctx.action.name == MOVE:
        return  # the move (or Switcheroo) answers a change; its braces are no change that earns another move
    q0 = ctx.doc("quazie")
    owed = q0.get("ruleset_changes")
    mine = bool(owed) and ctx.actor in owed and ctx.action.activity
    changed = ctx.tx.rules is not None and rules_changed(ctx.tx.base.rules, ctx.tx.rules)
    if not (mine or changed) or "hands" not in q0:
        return
    me = ctx.player() if changed else None
    admin = bool(me and me.get("admin") and not me.get("idle"))
    if not (mine or admin):
        return
    q = ctx.edit("quazie")
    changes = q.setdefault("ruleset_changes", {})
    if mine:
        del changes[ctx.actor]
    if admin:
        changes[ctx.actor] = {"at": format_time(ctx.at), "by": ctx.action.name, "shoo": bool(q.get("shoo"))}
    if not changes:
        del q["ruleset_changes"]


def in_the_hiatus(state: State) -> bool:
    """Rule 9 (seed 003): the game is in Hiatus (a DoV pending, or a won Dynasty awaiting its Ascension Address), when
    no game action but a CfJ's (and a DoV's answers) may be taken, so no Hand may move (``quazie.move-hand`` is no
    Hiatus action)."""
    return "dovs" in state.docs and "dynasty" in state.docs and in_hiatus(state)


def any_move(state: State, at: Any) -> bool:
    """Whether an admin could move a Hand now (rule 22): a Switcheroo is due (the alarm passed, both Hands in rules),
    a Hand in no rule can go to its Pocket, or a Hand has an adjoining rule to go to (rule 22 itself, for its Pocket,
    or a rule with text outside the other Hand to grab). Not while a Hand names a rule the ruleset never had, nor in
    the Hiatus (rule 9), when no Hand may move."""
    q = state.doc("quazie")
    hands = q.get("hands") or {}
    if len(hands) < 2 or next(hand_problems(state), None) is not None or in_the_hiatus(state):
        return False
    if int(q.get("switcheroo_alarm", 0)) < calendar_year(state, at) and not pocketed(state, hands):
        return True
    for which, hand in hands.items():
        if hand["rule"] != POCKET and in_no_rule(state, hand):
            return True
        for target in adjoining(state, hand["rule"]):
            if target == R_HANDS:
                return True
            body = state.rules[target].body
            other = _other_text(hands, which, target)
            if other is not None:
                body = body.replace("{{" + other + "}}", "", 1)
            if body.replace("{{", "").replace("}}", "").strip():
                return True
    return False


FREE_OF_THE_SHOO = {MOVE, "core.leave"}  # the move itself; leaving, which rule 2 allows at any time


@ruled(R_HANDS)
def shoo_obliges(ctx: Ctx) -> Iterator[str]:
    """Rule 22 (seed 003): while a Shoo has been posted since either Hand last moved, an admin making a change to the
    ruleset must move a Hand. Gate: an admin whose change was made while a Shoo stood, and who has not moved a Hand
    for it, is refused every other action (leaving the game apart, and actions that are no play, such as a tick)
    until they do. The duty ends when the Shoo is answered otherwise (another admin's move, a Hand going to its
    Pocket), and when no move is possible (``any_move``): the rule asks for a move, and none can be made. Free while
    the actor has no change recorded. In the Hiatus (rule 9) no Hand may move, so the duty asks nothing then: it
    refused the admin the CfJ actions and the DoV's answers rule 9 allows, with a move they could not make."""
    owed = ctx.doc("quazie").get("ruleset_changes")
    if not owed:
        return
    change = owed.get(ctx.actor)
    if (change is None or not change.get("shoo") or change.get("moved") or ctx.action.name in FREE_OF_THE_SHOO
            or not ctx.action.activity or not ctx.doc("quazie").get("shoo")):
        return
    me = ctx.player()
    if not (me and me.get("admin")) or not any_move(ctx.state, ctx.at):
        return
    yield (f"a Shoo has been posted since a Hand last moved, and {ctx.actor} changed the ruleset ({change.get('by')} "
           f"at {change.get('at')}): an admin who changes the ruleset while a Shoo stands must move a Hand "
           "(quazie.move-hand) before taking any other action")


def standing_shoo(state: State) -> dict[str, Any] | None:
    """Rule 22 (seed 003): the Shoo posted since either Hand last moved, as ``{by, at}`` (empty when a state written
    before the post was recorded says only that one stands), or None when none stands."""
    shoo = state.doc("quazie").get("shoo")
    if not shoo:
        return None
    return dict(shoo) if isinstance(shoo, dict) else {}


def hand_moves(state: State, at: Any) -> list[dict[str, Any]]:
    """Rule 22 (seed 003): the admins who may move a Hand now, each for a change of theirs to the ruleset not yet
    answered by a move (``ruleset_changes``), oldest first: ``admin``, the change (``by``, ``at``), ``owed`` (made
    while a Shoo stood that still stands, so ``shoo_obliges`` refuses the admin's other actions), ``possible``
    (``any_move``: with no move to make, nothing is owed), ``switcheroo`` (the Alarm has passed, both Hands in
    rules: the move is a Switcheroo) and ``hiatus`` (no move possible because the game is in Hiatus, rule 9). Empty
    while rule 22 is repealed (the move has left the game) or without Hands. For the wiki and ``nomic due``, which
    show what the log's gates and checks would say."""
    q = state.doc("quazie")
    changes = q.get("ruleset_changes") or {}
    if not changes or not q.get("hands") or repealed(state, R_HANDS):
        return []
    admins = {p["name"] for p in state.doc("roster")["players"] if p.get("admin") and not p.get("idle")}
    possible = any_move(state, at)
    hands = q.get("hands") or {}
    switch = (possible and int(q.get("switcheroo_alarm", 0)) < calendar_year(state, at)
              and not pocketed(state, hands))
    out = []
    for name, change in sorted(changes.items(), key=lambda kv: (str(kv[1].get("at")), kv[0])):
        if change.get("moved") or name not in admins:
            continue
        out.append({"admin": name, "by": change.get("by"), "at": change.get("at"), "possible": possible,
                    "owed": bool(change.get("shoo") and q.get("shoo") and possible), "switcheroo": switch,
                    "hiatus": not possible and in_the_hiatus(state)})
    return out


def due(state: State, now: Any) -> list[str]:
    """``nomic due`` for rule 22 (seed 003): a standing Shoo, and each admin who may (or, after a Shoo, must) move a
    Hand now for their change to the ruleset."""
    from ...judge import cited  # imported here, as the core's modules do: judge imports the engine's registry

    if repealed(state, R_HANDS) or not state.doc("quazie").get("hands"):
        return []
    rule = cited(state, R_HANDS)
    lines = []
    shoo = standing_shoo(state)
    if shoo is not None:
        posted = f" (posted by {shoo['by']} at {shoo['at']})" if shoo else ""
        lines.append(f"a Shoo stands{posted}: no Hand has moved since, so the next admin to change the ruleset must "
                     f"move a Hand [rule: {rule}]")
    for m in hand_moves(state, now):
        change = f"their change to the ruleset ({m['by']} at {m['at']})"
        how = " (the Switcheroo Alarm has passed: the move is a Switcheroo)" if m["switcheroo"] else ""
        if not m["possible"]:
            why = " (the game is in Hiatus)" if m["hiatus"] else ""
            lines.append(f"{m['admin']} may move a Hand for {change}, but no Hand can move now{why} [rule: {rule}]")
        elif m["owed"]:
            lines.append(f"{m['admin']} must move a Hand (quazie.move-hand){how} before any other action: they made "
                         f"{change} while a Shoo stood [rule: {rule}]")
        else:
            lines.append(f"{m['admin']} may move a Hand (quazie.move-hand){how} as their next action, for {change} "
                         f"[rule: {rule}]")
    return lines


# ---------------------------------------------------------------- what the Hands' grabs make the rules say

ROME_SUBJECT = r"Whenever (.{1,80}?) can move"
POOBAH_GIVER = r"Only (.{1,80}?) may give it to another "  # then the rules' word for a Muffin (``poobah_giver``)


def subject_in_rule(state: State, rule_id: str, pattern: str) -> str | None:
    """The words a rule now uses where ``pattern`` has its group (braces of a Hand's grab removed)."""
    rule = state.rules.get(rule_id)
    if rule is None or rule.meta.get("status") == "repealed":
        return None
    m = re.search(pattern, rule.body.replace("{{", "").replace("}}", ""))
    return " ".join(m.group(1).split()) if m else None


def poobah_giver(state: State) -> str | None:
    """Who rule 23 (seed 003) now says may give the role of GRAND POOBAH ("Only X may give it to another Muffin",
    X being a Hand's grab in the seed), or None. The sentence is read in the rules' words: rule 9 lets an Ascension
    Address replace "Muffin", and game.yaml's keyword ``player`` holds the new term; looking for "Muffin" found
    nothing after such an Address, and let any Muffin give the role whatever rule 23 said."""
    word = re.escape(state.keyword("player", "Muffin"))
    return subject_in_rule(state, R_ROLES, POOBAH_GIVER + word)


def subject_covers(state: State, subject: str, name: str) -> bool | None:
    """Whether the Muffin ``name`` is what ``subject`` ("the GRAND POOBAH", "a Muffin") names; None if unclear."""
    s = subject.casefold()
    boss = state.doc("dynasty").get("leader")
    leader_word = state.keyword("leader", "GRAND POOBAH").casefold()
    player_word = state.keyword("player", "Muffin").casefold()
    if s in ("the grand poobah", f"the {leader_word}", leader_word):
        return name == boss
    if s in ("a muffin", "any muffin", f"a {player_word}", f"any {player_word}"):
        return True
    for p in state.doc("roster")["players"]:
        if p["name"].casefold() == s:
            return name == p["name"]
    return None
