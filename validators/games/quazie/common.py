"""Shared pieces of the First Dynasty of Quazie (seed 003, rules 10 on): positions, the day's log, options.

Positions are strings in the roster stat ``position``:

* ``"1"`` .. ``"9"``: the Standard Positions, 1 farthest down, 9 farthest up (rule 12);
* ``"X"``: the Death Egg, not reachable by linear movement (rules 12, 15, 21);
* ``"R"``: Rome, the GRAND POOBAH's; left as if it stood between 7 and 8 (rule 15);
* ``"Mornington Crescent"``: exists, but nobody may ever be there (rule 15);
* anything else (``""``, ``"Bob"``): an undefined position, which is Limbo (rule 15).
"""

from __future__ import annotations

import re
from typing import Any

from ...engine import Ctx, State, peek, repealed

STANDARD = [str(i) for i in range(1, 10)]
DEATH_EGG = "X"
ROME = "R"
MORNINGTON = "Mornington Crescent"
DEFINED = set(STANDARD) | {DEATH_EGG, ROME, MORNINGTON}
LAUNCH_BASE = "4"
MANGO_TREE = "9"

ROBOT = "Robot"
BLIND = "Blind"
PLAIN = "Plain"
TROPICAL = "Tropical"
FRUITY = "Fruity"
BANANA = "Banana"
DEVILS_FOOD = "Devils Food"

IT = "It"
DANCE_FIELD = "dance_move"
NOT_IT = "NotIt"

# Rule ids of this game's ruleset (the engine cites them as the game numbers them).
R_STUFFS = "stuffs"
R_NATURE = "nature-of-stuff"
R_POSITION = "position"
R_FLAVOURS = "muffin-flavours"
R_TAG = "tag"
R_SPECIAL = "special-positions"
R_COLOURS = "colours"
R_DANCE_MOVES = "dance-moves"
R_DANCE_OFF = "dance-off"
R_FLY = "fly-from-the-death-egg"
R_HANDS = "sleight-of-hand"
R_ROLES = "muffin-roles"
R_MUSIC = "music"
R_EYE = "in-your-eye"
R_VICTORY = "victory-and-ascension"  # core rule 9
R_PLAYERS = "players"  # core rule 2
R_DYNASTIES = "dynasties"  # core rule 8

# Seed 003's numbers of the rules the module's messages name, for a game whose ruleset lacks one (``rule_number``).
SEED_NUMBERS = {R_PLAYERS: "2", R_DYNASTIES: "8", R_VICTORY: "9", R_STUFFS: "10", R_NATURE: "11", R_POSITION: "12",
                R_FLAVOURS: "13", R_TAG: "14", R_SPECIAL: "15", R_COLOURS: "18", R_DANCE_MOVES: "19",
                R_DANCE_OFF: "20", R_FLY: "21", R_HANDS: "22", R_ROLES: "23", R_MUSIC: "24", R_EYE: "25"}

DEFAULT_OPTIONS: dict[str, Any] = {
    # Rule 24 gives notes for few positions. "record": a move to a position without a note plays "?",
    # which can never be part of a Concerto or a movement; "refuse": such a move cannot be made.
    "unknown_note": "record",
    # Rule 12: a bounce must follow its move on the same day ("bounced off of that day").
    "bounce_same_day": True,
    # Rule 24's 5-note Concerto says "regardless of whether it is Robot"; rule 13/15 still require Position 9
    # to become Tropical unless this is true.
    "concerto_tropical_anywhere": False,
}


def opts(state: State | Ctx) -> dict[str, Any]:
    return {**DEFAULT_OPTIONS, **state.config.get("options", {}).get("quazie", {})}


# ---------------------------------------------------------------- positions


def is_standard(pos: Any) -> bool:
    return pos in STANDARD


def bound_blind(ctx: State | Ctx, p: dict[str, Any]) -> bool:
    """Whether ``p`` is Blind and held by it: seed 003 rule 13 "Muffin Flavors" forbids a Blind Muffin to move, be
    moved or challenge anyone; with that rule repealed, Blind binds nobody."""
    return stat(p, "flavour") == BLIND and not repealed(ctx, R_FLAVOURS)


def in_limbo(pos: Any) -> bool:
    """Rule 15: a Muffin whose Position is not one the rules define is in Limbo."""
    return pos not in DEFINED


def height(pos: Any) -> float | None:
    """How far up a position is, for "in that direction": Rome counts as between 7 and 8 (rule 15)."""
    if is_standard(pos):
        return float(pos)
    if pos == ROME:
        return 7.5
    return None


def step_from(pos: Any, direction: str) -> str | None:
    """The Standard Position one step up or down from ``pos``, or None (off the ends, X, Limbo)."""
    if pos == ROME:
        return "8" if direction == "up" else "7"
    if not is_standard(pos):
        return None
    n = int(pos) + (1 if direction == "up" else -1)
    return str(n) if 1 <= n <= 9 else None


def position_label(pos: Any) -> str:
    if is_standard(pos):
        return f"Position {pos}"
    if pos == DEATH_EGG:
        return "Position X (the Death Egg)"
    if pos == ROME:
        return "Rome (R)"
    if pos == MORNINGTON:
        return "Mornington Crescent"
    return f"Limbo ({pos!r})"


# ---------------------------------------------------------------- rules


def rule_number(state: State | Ctx, rule_id: str) -> str:
    """A rule's number as the Ruleset now writes it, for what a player reads ("rule 23" in a refusal naming a rule
    other than the one it cites, an outcome, a page): an Ascension Address renumbers the rules it keeps (seed 003
    rule 9) and a proposal may renumber one, so the seed's number would contradict the citation beside it. The seed's
    number (``SEED_NUMBERS``) for a game whose ruleset has no such rule. Only asked when the words are made."""
    rule = state.rules.get(rule_id)
    return rule.number if rule is not None and rule.number else SEED_NUMBERS.get(rule_id, rule_id)


def name_key(name: Any) -> str:
    """A name as compared case and spacing aside: a flavour's for Intricacy (rule 24), a role's for give-role (rule
    23)."""
    return " ".join(str(name).split()).casefold()


def number_order(number: Any) -> tuple:
    """A rule number as the Ruleset orders it (rules 9 and 22 of seed 003 read rules "in sequence"): numerals
    compared as numbers, so 22.9 comes before 22.10 and 23a after 23; a number is any text the rule file may hold
    (a proposal may add rule "23a"), never an error. The wiki's ruleset page orders rules the same way."""
    parts = re.findall(r"\d+|[^\d.]+", str(number))
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in parts)


# ---------------------------------------------------------------- muffins


def muffins(state: State | Ctx) -> list[dict[str, Any]]:
    """The Muffins who count (rule 2: idle Muffins are not Muffins for rules other than 1 and 2).

    For reading only (found without copying them; to change a Muffin, use ``ctx.edit_player`` or ``change_stat``).
    """
    return [p for p in peek(state.doc("roster")["players"]) if not p.get("idle") and not p.get("kind")]


def stat(p: dict[str, Any], name: str, default: Any = None) -> Any:
    return p.get("stats", {}).get(name, default)


def listed(p: dict[str, Any], name: str) -> list[Any]:
    """A stat the roster declares a list (Roles, the Note History); one of another type (a hand edit or a proposal's
    patch; ``check_roster`` reports it) holds nothing for the rules that read it."""
    value = stat(p, name, [])
    return value if isinstance(value, list) else []


def muffin(ctx: Ctx, name: str, what: str = "Muffin") -> dict[str, Any]:
    p = ctx.player(name)
    if p is None or p.get("idle"):
        raise ctx.refuse(f"there is no active {what} named {name!r}")
    return p


def at_position(state: State | Ctx, pos: str, but: str | None = None) -> list[str]:
    return [p["name"] for p in muffins(state) if stat(p, "position") == pos and p["name"] != but]


def leader(state: State | Ctx) -> str | None:
    return state.doc("dynasty").get("leader")


def it_muffin(state: State | Ctx) -> str | None:
    """Rule 14.4: the Muffin whose Tag is It; if there is none, the GRAND POOBAH is It."""
    for p in muffins(state):
        if stat(p, "tag") == IT:
            return p["name"]
    return leader(state)


# ---------------------------------------------------------------- the day's log ("once per day")


def day(ctx: Ctx) -> str:
    return ctx.at.date().isoformat()


def done_today(ctx: Ctx, key: str, name: str) -> bool:
    q = ctx.doc("quazie")
    if q.get("day") != day(ctx):
        return False
    return name in q.get("today", {}).get(key, [])


def today_list(ctx: Ctx, key: str) -> list[str]:
    q = ctx.doc("quazie")
    if q.get("day") != day(ctx):
        return []
    return list(q.get("today", {}).get(key, []))


def mark_today(ctx: Ctx, key: str, name: str) -> None:
    q = ctx.edit("quazie")
    if q.get("day") != day(ctx):
        q["day"] = day(ctx)
        q["today"] = {}
    # a proposal's patch may strike the log of today's doings while leaving its day (the schema asks for neither)
    names = q.setdefault("today", {}).setdefault(key, [])
    if name not in names:
        names.append(name)


def bounced_today(ctx: Ctx, mover: str) -> list[str]:
    return today_list(ctx, f"bounced:{mover}")


def tables(state: State | Ctx) -> dict[str, Any]:
    return state.doc("quazie_tables")


def flavour_names(state: State | Ctx) -> list[str]:
    return [f["name"] for f in tables(state)["flavours"]]


AWESOME_SENTENCE = "Simon is an awesome guy."


def ends_awesomely(rule: Any) -> bool:
    """Whether rule 12's text ends with the awesome sentence. A Hand's braces are no part of the text they hold
    (rule 22: they do not interfere with it), so "Simon is an {{awesome guy.}}" still ends with the sentence."""
    return rule.body.replace("{{", "").replace("}}", "").strip().endswith(AWESOME_SENTENCE)


def victory_at_one(state: State) -> str | None:
    """Rule 12: the only Muffin at Position 1 has won, unless the rule ends with the awesome sentence (or is no
    longer in the Ruleset: a repealed rule 12 sets no victory condition)."""
    rule = state.rules.get(R_POSITION)
    if rule is None or rule.meta.get("status") == "repealed" or ends_awesomely(rule):
        return None
    at1 = [p["name"] for p in muffins(state) if stat(p, "position") == "1"]
    return at1[0] if len(at1) == 1 else None
