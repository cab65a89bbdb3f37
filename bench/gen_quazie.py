"""The large synthetic game of the ``quazie`` module (the First Dynasty of Quazie, seed 003), for the benchmarks.

    .venv/bin/python -m bench.gen --module quazie [--out DIR] [--players 100] [--actions 10000] [--git]

Modelled on the module's example game (``content/quazie/``: ``modules: [blognomic, quazie]``, the
BlogNomic core in its ``quazie`` variant, the same keywords and options), re-dated: the generated
game is founded (its ``initial/``, ledger clock, Calendar epoch, rule histories) at 2025-01-01, its
dynasty having started ``weeks`` weeks earlier, and its history starts on Monday 2025-01-06.

**What "at scale" means here.** The issue names no Quazie document. The module's documents that grow
with the number of Muffins and the age of the dynasty are the Items, the roster's Note Histories and
the bookkeeping; the tables stay small by nature. With ``players`` Muffins (default 100) and
``weeks`` weeks of dynasty before the founding (default :data:`WEEKS` = 40, about what a long
BlogNomic dynasty runs), the initial state holds:

* ``quazie_items.yaml``: one Old Item per past week (a STUFF SHALL BE each week), each frozen with
  a value for every Muffin: ``weeks`` x ``players`` values (40 x 100 = 4,000), plus the New Item;
* ``roster.yaml``: every Muffin with every stat the roster declares (Stuffs, Position, Flavor, Tag,
  DanceMove, Roles, Note History), varied; the Note Histories are a plausible walk over the
  Positions, ``weeks`` to ``3 x weeks`` notes each (one to three moves a week);
* ``quazie.yaml``: every Muffin's last landing with who was there, the Launch Base log, who is
  Blind since when, the Writers of Awesome, the notes spent in Concertos and movements of every
  Muffin, open Concerto credits, and two designated tag days a week (Wednesdays and Saturdays)
  from the dynasty's start until ``weeks`` weeks after the founding;
* ``quazie_tables.yaml``: the example's tables plus one flavour added by Intricacy every five weeks
  (each also appended to rule 13, as the movement does), and a few Legitimate Colours;
* the ruleset: the example's, re-dated, with a colour on a few rules (rule 18).

Proposals, Calls for Judgment and the ledger start empty, as in the example; the history fills the
proposals. The history is ``actions`` legal actions (default 10,000), one UTC day at a time: most
weekdays a proposal (JSON-Patch effects: tag days, the dance stake, notes for the note table,
Stuffs, colours, reserved words, now and then a new coloured dynastic rule) with 52-66 votes
(COMPENSATE and ADMONISH too, now and then a change of mind), enacted or failed the next morning (a
weekend one sometimes with the 5-Stuff deduction from non-voters); and some 60-80 dynastic actions
a day by Muffins picked with uneven activity: dance-offs, flavour changes, Fruity moves (Tropical
ones attracting), Banana swaps, bounces after landing on an occupied Position, raising It, tagging on
tag days, pokes, Devils Food, Eggman rolls and sacrifices, kitsune flights from the Death Egg,
Concertos and their credits, movements, roles (Writers of Awesome, only to a Muffin who wrote a
proposal, now and then naming it; Eggman's Minion, Limbo King, the GRAND POOBAH), Writer of Awesome
gains, the weekly Stuff Describer (a tie broken by the GRAND POOBAH) and STUFF SHALL BE, Dynasty
Record awards, Hands moved by admins (Switcheroos when the alarm
has passed) and Shoos, leaving Limbo; a tick by the scheduled workflow most Mondays. Each action is
chosen from what the current state allows, so nearly every one is legal as planned; the few that
the engine refuses are simply not taken (no record, the clock unchanged). Deterministic for a seed.
"""

from __future__ import annotations

import random
import re
import shutil
import sys
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import Builder, example_rules, player_names, write_game
from validators import yamlio
from validators.engine import Rule, State, advance
from validators.games.quazie import hands as qhands
from validators.games.quazie.common import (
    DEATH_EGG,
    IT,
    LAUNCH_BASE,
    ROBOT,
    ROME,
    STANDARD,
    in_limbo,
    is_standard,
    it_muffin,
    step_from,
)
from validators.games.quazie.stuff import assigned_words
from validators.problems import Illegal
from validators.timeutil import format_time, parse_time

UTC = timezone.utc
FOUNDED = datetime(2025, 1, 1, tzinfo=UTC)
START = datetime(2025, 1, 6, tzinfo=UTC)  # a Monday
WEEKS = 40  # weeks of dynasty before the founding: the scale of the Items, Note Histories and tag days
EXAMPLE = ROOT / "content" / "quazie"

LEADER = "P000"
ADMINS = 5
PLAIN, BANANA, FRUITY, TROPICAL, DEVILS, BLIND = "Plain", "Banana", "Fruity", "Tropical", "Devils Food", "Blind"
DESCRIBER, WRITER, MINION, LIMBO_KING, POOBAH = (
    "Stuff Describer", "Writer of Awesome", "Eggman's Minion", "Limbo King", "GRAND POOBAH")
UNPLAYABLE = {"?", "-"}
LIMBO_VALUES = ["Bob", "Bob", ""]

NOUNS = ["Teacups", "Buttons", "Marbles", "Pebbles", "Thimbles", "Acorns", "Spoons", "Feathers", "Ribbons",
         "Candles", "Biscuits", "Pennies", "Lanterns", "Kettles", "Scones", "Whistles", "Bobbins", "Conkers",
         "Crumpets", "Doilies", "Goblets", "Hatpins", "Inkwells", "Jampots", "Kazoos", "Ladles", "Mittens",
         "Napkins", "Oysters", "Parsnips", "Quills", "Radishes", "Saucers", "Tassels", "Umbrellas", "Vases",
         "Walnuts", "Yoyos", "Zithers", "Anchovies", "Bellows", "Cobbles", "Dumplings", "Eggcups", "Firkins",
         "Gherkins", "Hazelnuts", "Jellybeans", "Kippers", "Lozenges", "Macaroons", "Nutmegs", "Pretzels", "Quinces",
         "Rhubarb", "Sprockets", "Teaspoons", "Trinkets", "Washers", "Bangles"]
SYLLABLES = ["ba", "lo", "mi", "zu", "ker", "fen", "dra", "pli", "quo", "tar", "vel", "wim", "sno", "gri", "pud",
             "nob", "rav", "sil", "tum", "yop"]
NEW_FLAVOURS = ("Lemon Drizzle", "Blueberry", "Cinnamon", "Poppy Seed", "Pumpkin", "Raspberry", "Apple Crumble",
                "Marmalade", "Carrot", "Gingerbread", "Pistachio", "Walnut", "Honey Oat", "Cherry", "Mocha",
                "Maple", "Hazelnut Swirl", "Toffee", "Coconut", "Rhubarb Ripple")
COLOURS = ["chocolate", "peru", "tan", "wheat", "burlywood", "sienna", "goldenrod", "crimson", "orchid", "teal"]
TEXT = ["muffin", "crumb", "oven", "batter", "tray", "icing", "sprinkle", "flour", "whisk", "glaze", "dough",
        "frosting", "recipe", "bake", "cool", "stuff", "position", "flavour", "dance", "note", "tag"]
HAND_SKIP = {"awesome", "whenever", "another", "muffin", "muffins", "poobah"}
NOTE_TABLE_ADDS = [("6", "C#"), ("5", "E"), ("3", "D"), ("2", "C"), ("1", "F"), ("4", "G")]


# ---------------------------------------------------------------- the initial state


def _example(path: str) -> Any:
    p = EXAMPLE / path
    return yamlio.load(p.read_text(encoding="utf-8"), str(p))


class Words:
    """Fresh words for STUFF SHALL BE: nouns first, then made-up ones, never one already used."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.used: set[str] = set()
        self.nouns = list(NOUNS)
        rng.shuffle(self.nouns)

    def next(self, taken: set[str] | frozenset[str] = frozenset()) -> str:
        while True:
            if self.nouns:
                w = self.nouns.pop()
            else:
                w = "".join(self.rng.choice(SYLLABLES) for _ in range(self.rng.randint(2, 3))).capitalize()
            if w.casefold() not in self.used and w.casefold() not in taken:
                self.used.add(w.casefold())
                return w


def _walk_notes(rng: random.Random, end: str, length: int, notes_table: dict[str, str]) -> list[str]:
    """A Note History of ``length`` notes whose walk over the Positions ends at ``end``."""
    if length <= 0:
        return []
    pos = end if is_standard(end) or end in (DEATH_EGG, ROME) else "9"
    walk = [pos]
    for _ in range(length - 1):
        if pos == DEATH_EGG:
            pos = rng.choice(["4", "5", "6", "7", "8", "8", "3"])  # where a kitsune flew from (backwards)
        elif pos == ROME:
            pos = rng.choice(["7", "8"])
        else:
            options = [q for q in (step_from(pos, "up"), step_from(pos, "down")) if q]
            pos = rng.choice(options + ([DEATH_EGG] if rng.random() < 0.04 else []))
        walk.append(pos)
    walk.reverse()

    def note(p: str) -> str:
        return "-" if in_limbo(p) else notes_table.get(p, "?")

    out = [note(p) for p in walk]
    if in_limbo(end):
        out.append("-")
    return out


def _stamp(rng: random.Random, before: datetime, max_days: float) -> str:
    return format_time(before - timedelta(minutes=rng.randint(60, int(max_days * 1440))))


def initial_roster(names: list[str], rng: random.Random, weeks: int, tables: dict[str, Any],
                   extra_flavours: list[str], started: datetime) -> dict[str, Any]:
    stats = _example("initial/gamestate/roster.yaml")["stats"]
    positions = ["9"] * 22 + ["8"] * 16 + ["7"] * 14 + ["6"] * 10 + ["5"] * 9 + ["4"] * 8 + ["3"] * 6 + \
        ["2"] * 5 + ["1"] + [DEATH_EGG] * 5
    flavours = [PLAIN] * 6 + [BANANA] * 6 + [FRUITY] * 6 + [DEVILS] * 3 + [TROPICAL] * 3 + [ROBOT] * 2 + \
        [BLIND] + extra_flavours
    moves = sorted(set(tables["dance"]["roll"].values()))
    limbo = set(rng.sample(names[ADMINS:], min(len(LIMBO_VALUES), max(0, len(names) - ADMINS))))
    limbo_values = iter(LIMBO_VALUES)
    players = []
    for i, name in enumerate(names):
        if name == LEADER:
            pos = ROME
        elif name in limbo:
            pos = next(limbo_values)
        else:
            pos = rng.choice(positions)
        if pos == LAUNCH_BASE:
            flavour = ROBOT
        elif pos == ROME:
            flavour = PLAIN
        elif pos == DEATH_EGG:
            flavour = rng.choice([ROBOT, ROBOT, PLAIN, BANANA])
        else:
            flavour = rng.choice(flavours)
            if flavour == TROPICAL and pos not in ("9", "8", "7"):
                flavour = FRUITY
        length = rng.randint(weeks, 3 * weeks)
        players.append({
            "name": name, "account": f"{name.lower()}-gh", "admin": i < ADMINS, "idle": False,
            "joined": format_time(started + timedelta(hours=rng.randint(0, 72))),
            "stats": {"stuff": rng.choice([200, rng.randint(0, 200), rng.randint(60, 190), rng.randint(80, 160)]),
                      "position": pos, "flavour": flavour, "tag": "NotIt", "dance_move": rng.choice(moves),
                      "roles": [], "notes": _walk_notes(rng, pos, length, tables["notes"])}})
    return {"stats": stats, "players": players}


def _seed_movements(rng: random.Random, players: list[dict[str, Any]], tables: dict[str, Any]) -> list[str]:
    """A few Muffins at the Death Egg whose latest notes form a named movement (from before the founding)."""
    candidates = [p for p in players if p["stats"]["position"] == DEATH_EGG]
    chosen = []
    for p, m in zip(candidates, [tables["movements"][0], tables["movements"][2], tables["movements"][0]]):
        p["stats"]["notes"] = p["stats"]["notes"][:-1] + list(m["notes"])
        chosen.append(p["name"])
    return chosen


def initial_docs(names: list[str], rng: random.Random, weeks: int, words: Words) -> tuple[dict[str, Any], list[str]]:
    started = FOUNDED - timedelta(weeks=weeks)
    tables = _example("initial/gamestate/quazie_tables.yaml")
    extra = []
    for k in range(max(1, weeks // 5)):
        name = NEW_FLAVOURS[k] if k < len(NEW_FLAVOURS) else f"Flavour {k}"
        extra.append({"name": name, "by": rng.choice(names),
                      "usable_from": format_time(started + timedelta(days=7 * 5 * k + rng.randint(3, 30)))})
    tables["flavours"].extend(extra)
    tables["legitimate_colours"] = ["chocolate", "peru", "wheat"]
    roster = initial_roster(names, rng, weeks, tables, [f["name"] for f in extra], started)
    players = roster["players"]
    by_name = {p["name"]: p for p in players}

    def pos(n: str) -> str:
        return by_name[n]["stats"]["position"]

    free = [p["name"] for p in players if not in_limbo(pos(p["name"])) and p["name"] != LEADER]
    it = rng.choice([n for n in free if pos(n) not in (DEATH_EGG, LAUNCH_BASE)])
    by_name[it]["stats"]["tag"] = IT
    describer = rng.choice(free)
    by_name[describer]["stats"]["roles"].append(DESCRIBER)
    writers = rng.sample([n for n in free if n != describer], min(3, len(free) - 1))
    role_since = {}
    for w in writers:
        by_name[w]["stats"]["roles"].append(WRITER)
        role_since[w] = _stamp(rng, FOUNDED, 20)
    at4 = [n for n in free if pos(n) == LAUNCH_BASE]
    launch_base = {n: {"since": _stamp(rng, FOUNDED, 30), "rolled": True} for n in at4}
    spared = []
    if at4:
        minion = at4[0]
        by_name[minion]["stats"]["roles"].append(MINION)
        launch_base[minion]["since"] = _stamp(rng, FOUNDED - timedelta(days=3), 30)
        for n in at4[1:3]:
            launch_base[n]["rolled"] = False  # arrived just before the founding, not yet rolled
        if len(at4) > 3:
            spared.append(at4[3])
    movers = _seed_movements(rng, players, tables)
    blind_since = {p["name"]: _stamp(rng, FOUNDED, 5) for p in players if p["stats"]["flavour"] == BLIND}
    landings = {}
    for p in players:
        where = pos(p["name"])
        if is_standard(where):
            others = [n for n in by_name if n != p["name"] and pos(n) == where]
            landings[p["name"]] = {"position": where, "at": _stamp(rng, FOUNDED, 14), "note": p["stats"]["notes"][-1],
                                   "occupants": sorted(rng.sample(others, rng.randint(0, len(others))))}
    concerto_used = {}
    movement_used = {}
    for p in players:
        n = len(p["stats"]["notes"])
        concerto_used[p["name"]] = max(0, n - rng.randint(0, 4))
        movement_used[p["name"]] = max(0, n - (3 if p["name"] in movers else rng.randint(0, 2)))
    credits = []
    for _ in range(max(1, len(names) // 12)):
        a, b = rng.sample(free, 2)
        credits.append({"muffin": a, "notes": rng.choice([2, 2, 3]), "from": b, "at": _stamp(rng, FOUNDED, 6)})
    tag_days = []
    d = started.date()
    while d <= (FOUNDED + timedelta(weeks=weeks)).date():
        if d.weekday() in (2, 5):
            tag_days.append(d.isoformat())
        d += timedelta(days=1)
    year = 10 * (FOUNDED - started).days
    quazie = {
        "calendar": {"epoch": format_time(FOUNDED), "year": year},
        "hands": {"left": {"rule": "special-positions", "text": "the GRAND POOBAH"},
                  "right": {"rule": "muffin-roles", "text": "a Muffin"}},
        "switcheroo_alarm": year + 20,
        "shoo": False,
        "landings": landings,
        "launch_base": launch_base,
        "spared": spared,
        "blind_since": blind_since,
        "tag_days": tag_days,
        "last_tag": {"by": rng.choice([n for n in free if n != it]), "to": it},
        "role_since": role_since,
        "concerto_used": concerto_used,
        "movement_used": movement_used,
        "concerto_credits": credits,
    }
    if not launch_base:
        del quazie["launch_base"]
    old_items = []
    monday = started - timedelta(days=started.weekday())
    for k in range(weeks):
        since = monday + timedelta(weeks=k, hours=rng.randint(1, 40))
        until = monday + timedelta(weeks=k + 1, hours=rng.randint(1, 40))
        old_items.append({"word": words.next(), "since": format_time(since), "until": format_time(until),
                          "values": {p["name"]: rng.randint(0, 200) for p in players}})
    last_monday = FOUNDED - timedelta(days=FOUNDED.weekday())
    items = {"new_item": {"word": words.next(), "since": format_time(last_monday + timedelta(hours=9)),
                          "by": describer},
             "old_items": old_items, "described_week": last_monday.date().isoformat()}
    docs = {
        "roster": roster,
        "ledger": {"clock": format_time(FOUNDED), "actions": 0, "head": ""},
        "proposals": {"next": 1, "proposals": []},
        "cfjs": {"next": 1, "cfjs": []},
        "dovs": {"next": 1, "dovs": []},
        "dynasty": {"number": 1, "leader": LEADER, "title": f"The First Dynasty of {LEADER}", "theme": "Muffins",
                    "started": format_time(started)},
        "quazie": quazie,
        "quazie_tables": tables,
        "quazie_items": items,
    }
    return docs, [f["name"] for f in extra]


def initial_rules(rng: random.Random, new_flavours: list[str]) -> dict[str, Rule]:
    """The example game's ruleset, re-dated to this game's founding, a few rules coloured (rule 18)."""
    rules = example_rules(EXAMPLE, FOUNDED)
    for rid, colour in zip(["dance-off", "tag", "in-your-eye", "stuffs", "music", "colours"],
                           ["peru", "crimson", "teal", "chocolate", "orchid", "wheat"]):
        if rid in rules:
            rules[rid].meta["colour"] = colour
    flav = rules["muffin-flavours"]
    for name in new_flavours:
        flav.body = flav.body.rstrip("\n") + f"\n\n{name} – {' '.join(rng.choice(TEXT) for _ in range(10))}\n"
        flav.meta["history"].append({"event": "amended", "by": "Intricacy", "at": format_time(FOUNDED)})
    return rules


def initial_state(n: int, rng: random.Random, weeks: int = WEEKS, words: Words | None = None) -> State:
    config = _example("game.yaml")
    config["name"] = "Large synthetic Quazie game (benchmark)"
    config["description"] = "Generated by bench/gen_quazie.py; not a real game."
    docs, new_flavours = initial_docs(player_names(n), rng, weeks, words or Words(rng))
    return State(config, docs, initial_rules(rng, new_flavours))


# ---------------------------------------------------------------- the history


def _stat(p: dict[str, Any], k: str, default: Any = None) -> Any:
    return p["stats"].get(k, default)


class History:
    """Plays the game one UTC day at a time, choosing each action from what the state allows."""

    def __init__(self, state: State, actions: int, rng: random.Random, words: Words, progress: bool):
        self.b = Builder(state, rng, START)
        self.rng = rng
        self.target = actions
        self.words = words
        self.progress = progress
        self.names = [p["name"] for p in state.players()]
        self.admins = [p["name"] for p in state.players() if p.get("admin")]
        self.activity = [rng.lognormvariate(0, 0.6) for _ in self.names]
        self.day = ""
        self.day_end = START
        self.remaining = 0
        self.refused = 0
        self.proposal_no = 0
        self.today_pid: int | None = None
        self.author = ""
        self.rules_added = 0
        self.notes_added = 0
        self.poobah_given = False

    # ---- basics

    @property
    def state(self) -> State:
        return self.b.state

    def full(self) -> bool:
        return len(self.b.records) >= self.target

    def gap(self) -> float:
        left = (self.day_end - self.b.t).total_seconds() / 60
        return max(1.0, left / (self.remaining + 2) * self.rng.uniform(0.5, 1.5))

    def act(self, actor: str, action: str, params: dict[str, Any] | None = None,
            minutes: float | None = None) -> Any:
        """Take the action if the engine allows it; a refused one leaves no trace (and the clock as it was)."""
        if self.full():
            return None
        t0 = self.b.t
        try:
            return self.b.act(actor, action, params, minutes=self.gap() if minutes is None else minutes)
        except Illegal:
            self.b.t = t0
            self.refused += 1
            return None

    def player(self, name: str) -> dict[str, Any]:
        p = self.state.player(name)
        assert p is not None
        return p

    def pos(self, name: str) -> str:
        return _stat(self.player(name), "position")

    def q(self) -> dict[str, Any]:
        return self.state.doc("quazie")

    def done(self, key: str, name: str) -> bool:
        q = self.q()
        return q.get("day") == self.day and name in q.get("today", {}).get(key, [])

    def free(self) -> list[dict[str, Any]]:
        """Muffins outside Limbo (a Muffin in Limbo can be neither touched nor touch others)."""
        return [p for p in self.state.players() if not in_limbo(_stat(p, "position")) and not p.get("idle")]

    def movable(self, p: dict[str, Any]) -> bool:
        return _stat(p, "flavour") != BLIND and not in_limbo(_stat(p, "position"))

    def pick(self) -> str:
        return self.rng.choices(self.names, weights=self.activity)[0]

    def may_rome(self, name: str) -> bool:
        from validators.games.quazie.movement import rome_subject

        return bool(qhands.subject_covers(self.state, rome_subject(self.state), name))

    # ---- the day

    def run(self) -> Builder:
        day0 = START
        while not self.full():
            self.play_day(day0)
            day0 += timedelta(days=1)
            if self.progress:
                print(f"  {day0.date()}: {len(self.b.records)} actions ({self.refused} refused)", file=sys.stderr)
        return self.b

    def play_day(self, day0: datetime) -> None:
        rng = self.rng
        self.day = day0.date().isoformat()
        self.day_end = day0 + timedelta(hours=23, minutes=45)
        self.b.at_least(day0 + timedelta(minutes=rng.randint(1, 5)))
        weekday = day0.weekday()
        first: list[Callable[[], None]] = []
        if weekday == 0 and rng.random() < 0.8:
            first.append(lambda: self.act(rng.choice(self.admins), "engine.tick", None, minutes=rng.randint(1, 10)))
        if weekday in (0, 1, 2):
            first.append(self.describe)
        if not (weekday == 5 and rng.random() < 0.4) and weekday != 6:
            first.append(self.resolve)
        self.today_pid = None
        later: list[Callable[[], None]] = []
        if weekday < 5:
            first.append(self.propose)
            later += self.vote_tasks()
        later += [self.dynastic] * rng.randint(60, 80)
        if self.day in self.q().get("tag_days", []):
            later += [self.tag] * rng.randint(3, 7)
        later += [self.raise_it] * rng.choice([0, 1, 1, 2])
        if rng.random() < 0.45:
            later.append(self.typo_and_move)
        if rng.random() < 0.12:
            later.append(self.shoo)
        if rng.random() < 0.15:
            later.append(self.award)
        later += [self.roles] * rng.choice([0, 1, 1, 2])
        for p in self.state.players():
            if WRITER in _stat(p, "roles", []) and rng.random() < 0.6:
                later.append(lambda name=p["name"]: self.awesome(name))
        rng.shuffle(later)
        tasks = first + later
        self.remaining = len(tasks)
        for task in tasks:
            if self.full():
                return
            task()
            self.remaining -= 1

    # ---- governance: proposals, votes, enactment

    def effects(self) -> dict[str, Any] | None:
        rng, k = self.rng, self.proposal_no
        names = self.names
        kind = k % 8
        if kind == 0:
            return None
        if kind == 1 or (kind == 6 and self.notes_added >= len(NOTE_TABLE_ADDS)):
            days = self.q().get("tag_days", [])
            ahead = [(datetime.fromisoformat(self.day) + timedelta(days=d)).date().isoformat() for d in range(2, 10)]
            free = [d for d in ahead if d not in days]
            if free:
                return {"gamestate": [{"op": "add", "path": "/quazie/tag_days/-", "value": rng.choice(free)}]}
            return None
        if kind == 2:
            return {"gamestate": [{"op": "replace", "path": "/quazie_tables/dance/stake", "value": rng.randint(3, 8)}]}
        if kind in (3, 7):
            ops = [{"op": "replace", "path": f"/roster/players/name={who}/stats/stuff", "value": rng.randint(40, 200)}
                   for who in rng.sample(names, rng.randint(1, 3))]
            return {"gamestate": ops}
        if kind == 4:
            colour = rng.choice(COLOURS)
            if k % 16 == 4:
                self.rules_added += 1
                number = str(25 + self.rules_added)
                return {"rules": [{"op": "add", "id": f"muffin-tin-{self.rules_added}", "number": number,
                                   "title": f"Muffin Tin {self.rules_added}", "section": "dynastic",
                                   "colour": colour,
                                   "body": " ".join(rng.choice(TEXT) for _ in range(60))}]}
            return {"gamestate": [{"op": "add", "path": "/quazie_tables/legitimate_colours/-", "value": colour}]}
        if kind == 5:
            word = self.words.next(assigned_words(self.state))
            return {"gamestate": [{"op": "add", "path": "/quazie_tables/reserved_words/-", "value": word}]}
        pos, note = NOTE_TABLE_ADDS[self.notes_added]
        self.notes_added += 1
        return {"gamestate": [{"op": "add", "path": f"/quazie_tables/notes/{pos}", "value": note}]}

    def propose(self) -> None:
        rng = self.rng
        for _ in range(3):
            author = self.pick()
            self.proposal_no += 1
            params: dict[str, Any] = {
                "title": f"Proposal {self.proposal_no}: {rng.choice(TEXT).capitalize()} {rng.choice(TEXT)}",
                "text": " ".join(rng.choice(TEXT) for _ in range(rng.randint(15, 45)))}
            eff = self.effects()
            if eff:
                params["effects"] = eff
            applied = self.act(author, "core.propose", params, minutes=rng.randint(20, 90))
            if applied is not None:
                self.today_pid = applied.outcome[0]["proposal"]
                self.author = author
                return

    def vote_tasks(self) -> list[Callable[[], None]]:
        rng = self.rng
        fail = rng.random() < 0.17
        count = rng.randint(52, 66)
        voters = [n for n in self.names]
        rng.shuffle(voters)
        plan: list[str] = []
        for k in range(count):
            if fail:
                vote = rng.choice(["AGAINST"] * 9 + ["ADMONISH"]) if k < 51 else rng.choice(["FOR", "DEFERENTIAL"])
            else:
                vote = rng.choice(["FOR"] * 8 + ["COMPENSATE"]) if k < 54 else rng.choice(
                    ["FOR", "AGAINST", "AGAINST", "DEFERENTIAL", "ADMONISH"])
            plan.append(vote)
        rng.shuffle(plan)
        tasks: list[Callable[[], None]] = []
        for voter, vote in zip(voters, plan):
            tasks.append(lambda voter=voter, vote=vote: self.vote(voter, vote))
        return tasks

    def vote(self, voter: str, vote: str) -> None:
        pid = self.today_pid
        if pid is None:
            return
        if voter == self.author:
            return
        if vote == "DEFERENTIAL" and voter == LEADER:
            vote = "FOR"
        self.act(voter, "core.vote", {"proposal": pid, "vote": vote})
        if self.rng.random() < 0.02:  # a change of mind, soon after
            self.act(voter, "core.vote", {"proposal": pid, "vote": vote if vote != "DEFERENTIAL" else "FOR"},
                     minutes=self.rng.randint(2, 30))

    def resolve(self) -> None:
        rng = self.rng
        now = self.b.t
        for p in sorted((p for p in self.state.doc("proposals")["proposals"] if p["status"] == "pending"),
                        key=lambda p: (p["submitted"], p["id"])):
            age = (now - parse_time(p["submitted"])).total_seconds() / 3600
            if age < 13:
                return
            params: dict[str, Any] = {"proposal": p["id"]}
            if age > 49 and rng.random() < 0.7:
                params["deduct_nonvoters"] = True
            admin = rng.choice(self.admins)
            against = sum(1 for v in p.get("votes", {}).values() if v in ("AGAINST", "ADMONISH"))
            tries = ["core.fail", "core.enact"] if against * 2 >= len(self.names) else ["core.enact", "core.fail"]
            if all(self.act(admin, what, params, minutes=rng.randint(5, 30)) is None for what in tries) and \
                    self.act(admin, "core.fail", {"proposal": p["id"]}, minutes=rng.randint(1, 5)) is None:
                return
            self.after_change(admin)

    # ---- the weekly Stuff Describer

    def describe(self) -> None:
        # the state as the next action will see it: with the weekly reckoning applied if it is due
        items = advance(self.b.registry, self.state, self.b.t)[0].doc("quazie_items")
        if items.get("tied"):
            self.act(LEADER, "quazie.choose-describer", {"muffin": self.rng.choice(items["tied"])},
                     minutes=self.rng.randint(10, 90))
        view = advance(self.b.registry, self.state, self.b.t)[0]
        holders = [p["name"] for p in view.players() if DESCRIBER in _stat(p, "roles", [])]
        monday = (datetime.fromisoformat(self.day) - timedelta(days=datetime.fromisoformat(self.day).weekday()))
        if holders and view.doc("quazie_items").get("described_week") != monday.date().isoformat():
            self.act(holders[0], "quazie.stuff-shall-be", {"word": self.words.next(assigned_words(self.state))},
                     minutes=self.rng.randint(10, 120))

    # ---- dynastic actions

    def dynastic(self) -> None:
        rng = self.rng
        actor = self.pick()
        me = self.player(actor)
        if in_limbo(_stat(me, "position")):
            self.limbo(actor)
            return
        options: list[tuple[float, Callable[[], Any]]] = []
        pos, flavour = _stat(me, "position"), _stat(me, "flavour")
        roles = _stat(me, "roles", [])
        q = self.q()
        add = options.append
        fare = self.state.doc("quazie_tables")["fly"]["cost"]
        if pos == DEATH_EGG and flavour != BLIND and _stat(me, "stuff") >= fare:
            add((6, lambda: self.fly(actor)))
        entry = q.get("launch_base", {}).get(actor)
        if (pos == LAUNCH_BASE and entry and not entry.get("rolled")) or \
                (MINION in roles and not self.done("eggman", actor)):
            add((8, lambda: self.act(actor, "quazie.eggman-spare-me")))
        if actor in q.get("spared", []) and flavour != BLIND:
            add((6, lambda: self.act(actor, "quazie.sacrifice")))
        if WRITER in roles and not self.done("awesome", actor):
            add((6, lambda: self.act(actor, "quazie.awesome")))
        if any(c["muffin"] == actor for c in q.get("concerto_credits", [])):
            add((4, lambda: self.concerto_use(actor)))
        add((3, lambda: self.concerto(actor)))
        add((6, lambda: self.movement(actor)))
        if flavour != BLIND and not self.done("dance-off", actor):
            add((5, lambda: self.dance_off(actor)))
        if not self.done("flavour", actor) and (flavour != ROBOT or pos == DEATH_EGG):
            add((3.5, lambda: self.flavour(actor)))
        if flavour in (FRUITY, TROPICAL) and not self.done("fruity", actor):
            add((6, lambda: self.fruity(actor)))
        if flavour == BANANA and not self.done("swapped", actor):
            add((5, lambda: self.swap(actor)))
        if flavour == DEVILS and not self.done("devil", actor):
            add((5, lambda: self.devil(actor)))
        if not self.done("poke", actor):
            add((1.2, lambda: self.poke(actor)))
        for _ in range(3):
            if not options:
                return
            k = rng.choices(range(len(options)), weights=[w for w, _ in options])[0]
            _, fn = options.pop(k)
            if fn() is not None:
                return

    def limbo(self, actor: str) -> None:
        rng = self.rng
        inside = [p["name"] for p in self.state.players() if in_limbo(_stat(p, "position"))]
        if len(inside) == 1 and LIMBO_KING not in _stat(self.player(actor), "roles", []) and rng.random() < 0.5:
            self.act(actor, "quazie.give-role", {"role": LIMBO_KING, "to": actor})
            return
        if rng.random() < 0.12:
            params = {"rome": True} if self.may_rome(actor) and rng.random() < 0.3 else None
            self.act(actor, "quazie.leave-limbo", params)

    def after_move(self, actor: str) -> None:
        """Bounce off a Muffin found at the Position just reached (rule 12), now and then, maybe again."""
        rng = self.rng
        for chance in (0.35, 0.2, 0.1):
            if rng.random() >= chance:
                return
            me = self.player(actor)
            landing = self.q().get("landings", {}).get(actor)
            pos = _stat(me, "position")
            if not landing or landing["position"] != pos or not landing["at"].startswith(self.day):
                return
            bounced = self.q().get("today", {}).get(f"bounced:{actor}", []) if self.q().get("day") == self.day else []
            offs = [n for n in landing.get("occupants", []) if n not in bounced and self.pos(n) == pos]
            dirs = [d for d in ("up", "down") if step_from(pos, d)]
            if not offs or not dirs or not self.movable(me):
                return
            if self.act(actor, "quazie.bounce", {"off": rng.choice(offs), "direction": rng.choice(dirs)},
                        minutes=rng.randint(1, 4)) is None:
                return

    def rome(self, name: str, params: dict[str, Any]) -> dict[str, Any]:
        if self.rng.random() < 0.15 and self.pos(name) != ROME and self.may_rome(name):
            params["rome"] = True
        return params

    def fly(self, actor: str) -> Any:
        applied = self.act(actor, "quazie.fly", self.rome(actor, {}) or None)
        if applied is not None:
            self.after_move(actor)
        return applied

    def dance_off(self, actor: str) -> Any:
        opponents = [p["name"] for p in self.free() if p["name"] != actor]
        if not opponents:
            return None
        params: dict[str, Any] = {"opponent": self.rng.choice(opponents)}
        if self.rng.random() < 0.4:  # a generous BreakDancer takes nothing (rule 20 says "may")
            params["take"] = False
        return self.act(actor, "quazie.dance-off", params)

    def flavour(self, actor: str) -> Any:
        me = self.player(actor)
        now, pos = _stat(me, "flavour"), _stat(me, "position")
        since = self.q().get("blind_since", {}).get(actor)
        if now == BLIND and since and self.b.t - parse_time(since) < timedelta(hours=25):
            return None
        weights = {PLAIN: 1.5, BANANA: 3, FRUITY: 4, DEVILS: 1.5, BLIND: 0.15}
        if pos == "9":
            weights[TROPICAL] = 3
        for f in self.state.doc("quazie_tables")["flavours"]:
            ready = f.get("usable_from")
            if f["name"] not in weights and f["name"] not in (ROBOT, TROPICAL) and \
                    (not ready or parse_time(ready) < self.b.t):
                weights[f["name"]] = 0.4
        weights.pop(now, None)
        want = self.rng.choices(list(weights), weights=list(weights.values()))[0]
        return self.act(actor, "quazie.flavour", {"flavour": want})

    def fruity(self, actor: str) -> Any:
        rng = self.rng
        me = self.player(actor)
        pos = _stat(me, "position")
        from validators.games.quazie.common import height

        h = height(pos)
        if h is None or not self.movable(me):
            return None
        others = [(height(_stat(p, "position")), p) for p in self.free()
                  if p["name"] != actor and _stat(p, "flavour") in (FRUITY, TROPICAL)]
        dirs = []
        for d in ("up", "down"):
            ahead = [hp for hp, _ in others if hp is not None and ((hp > h) if d == "up" else (hp < h))]
            if ahead and step_from(pos, d):
                dirs += [d] * (3 if d == "up" else 2)
        if not dirs:
            return None
        d = rng.choice(dirs)
        params: dict[str, Any] = {"direction": d}
        if _stat(me, "flavour") == TROPICAL and rng.random() < 0.5:
            back = "down" if d == "up" else "up"
            targets = [p["name"] for p in self.free() if p["name"] != actor and self.movable(p)
                       and (hp := height(_stat(p, "position"))) is not None and ((hp > h) if d == "up" else (hp < h))
                       and step_from(_stat(p, "position"), back)]
            if targets:
                params["attract"] = rng.choice(targets)
        applied = self.act(actor, "quazie.fruity-move", self.rome(actor, params))
        if applied is not None:
            self.after_move(actor)
        return applied

    def swap(self, actor: str) -> Any:
        pos = self.pos(actor)
        # Nobody swaps with a Banana in Rome, nor sends anyone there by a swap (``rome``/``with_rome``): only the
        # Muffin rule 15 names may end up in Rome, and the generator keeps to the simple swaps.
        partners = [p["name"] for p in self.free() if p["name"] != actor and _stat(p, "flavour") == BANANA
                    and _stat(p, "position") not in (pos, ROME) and not self.done("swapped", p["name"])]
        if not partners or pos == ROME:
            return None
        applied = self.act(actor, "quazie.swap", {"with": self.rng.choice(partners)})
        if applied is not None:
            self.after_move(actor)
        return applied

    def devil(self, actor: str) -> Any:
        robots = [p for p in self.free() if _stat(p, "flavour") == ROBOT]
        away = [p["name"] for p in robots if _stat(p, "position") != LAUNCH_BASE]
        pool = away if away and self.rng.random() < 0.85 else [p["name"] for p in robots]
        if not pool:
            return None
        return self.act(actor, "quazie.devils-food", {"target": self.rng.choice(pool)})

    def poke(self, actor: str) -> Any:
        pos = self.pos(actor)
        targets = [p["name"] for p in self.free() if _stat(p, "position") == pos and _stat(p, "flavour") != ROBOT]
        if not targets:
            return None
        return self.act(actor, "quazie.poke", {"target": self.rng.choice(targets)})

    def fresh(self, name: str, key: str = "concerto_used") -> list[str]:
        used = int(self.q().get(key, {}).get(name, 0))
        return list(_stat(self.player(name), "notes", []))[used:]

    def choices(self, actor: str, size: int) -> dict[str, Any] | None:
        """The parameters a Concerto's effect needs for ``actor`` (None when it could not apply)."""
        rng = self.rng
        effect = self.state.doc("quazie_tables")["concertos"].get(str(size))
        me = self.player(actor)
        pos = _stat(me, "position")
        if effect == "stuff":
            old = self.state.doc("quazie_items").get("old_items", [])
            if old and rng.random() < 0.4:
                return {"item": rng.choice(old)["word"]}
            return {}
        if effect == "step":
            dirs = [d for d in ("up", "down") if step_from(pos, d)]
            return {"direction": rng.choice(dirs)} if dirs and self.movable(me) else None
        if effect == "tropical":
            return {} if pos == "9" else None
        if effect == "anywhere":
            dests = [d for d in STANDARD + [DEATH_EGG] if d != pos]
            return {"position": rng.choice(dests)} if self.movable(me) else None
        return None

    def concerto(self, actor: str) -> Any:
        mine = self.fresh(actor)
        sizes = sorted((int(s) for s in self.state.doc("quazie_tables")["concertos"]), reverse=True)
        for size in sizes:
            tail = mine[-size:]
            if len(mine) < size or set(tail) & UNPLAYABLE:
                continue
            partners = [p["name"] for p in self.free() if p["name"] != actor and self.fresh(p["name"])[-size:] == tail]
            if not partners:
                continue
            extra = self.choices(actor, size)
            if extra is None:
                continue
            self.rng.shuffle(partners)
            applied = self.act(actor, "quazie.concerto",
                               {"with": sorted(partners[:self.rng.randint(1, 3)]), "notes": size, **extra})
            if applied is not None and size in (3, 8):
                self.after_move(actor)
            return applied
        return None

    def concerto_use(self, actor: str) -> Any:
        credits = [c for c in self.q().get("concerto_credits", []) if c["muffin"] == actor]
        c = self.rng.choice(credits)
        extra = self.choices(actor, c["notes"])
        if extra is None:
            return None
        applied = self.act(actor, "quazie.concerto-use", {"notes": c["notes"], **extra})
        if applied is not None and c["notes"] in (3, 8):
            self.after_move(actor)
        return applied

    def movement(self, actor: str) -> Any:
        mine = self.fresh(actor, "movement_used")
        for m in self.state.doc("quazie_tables")["movements"]:
            want = list(m["notes"])
            if mine[-len(want):] != want:
                continue
            params: dict[str, Any] = {"movement": m["name"]}
            if m["effect"] == "intricacy":
                taken = {f["name"] for f in self.state.doc("quazie_tables")["flavours"]}
                fresh = [f for f in NEW_FLAVOURS if f not in taken]
                if not fresh:
                    return None
                params["flavour"] = fresh[0]
                params["text"] = " ".join(self.rng.choice(TEXT) for _ in range(12))
            elif not self.movable(self.player(actor)):
                return None
            done = self.act(actor, "quazie.movement", params)
            if done is not None and actor in self.admins:
                self.after_change(actor)  # Intricacy writes into rule 13: an admin's change to the ruleset (rule 22)
            return done
        return None

    # ---- once-a-day and occasional actions

    def tag(self) -> None:
        it = it_muffin(self.state)
        if it is None:
            return
        me = self.player(it)
        pos = _stat(me, "position")
        if in_limbo(pos):
            return
        last = self.q().get("last_tag") or {}
        targets = [p["name"] for p in self.free() if _stat(p, "position") == pos and p["name"] != it
                   and not (last.get("by") == p["name"] and last.get("to") == it)]
        if targets:
            self.act(it, "quazie.tag", {"target": self.rng.choice(targets)})

    def raise_it(self) -> None:
        it = it_muffin(self.state)
        if it is None or self.done("it_raised", it):
            return
        p = self.player(it)
        if not self.movable(p):
            return
        raiser = self.pick()
        if raiser == it or in_limbo(self.pos(raiser)):
            return
        params: dict[str, Any] = {}
        if self.may_rome(it) and _stat(p, "position") != ROME and self.rng.random() < 0.25:
            params["rome"] = True
        elif not step_from(_stat(p, "position"), "up"):
            return
        if self.act(raiser, "quazie.raise-it", params or None) is not None:
            self.after_move(it)

    def roles(self) -> None:
        rng = self.rng
        players = self.state.players()
        writers = [p["name"] for p in players if WRITER in _stat(p, "roles", [])]
        q = self.q()
        r = rng.random()
        if r < 0.3 and len(writers) < 6:
            # seed 003 rule 23: the role is given for a proposal its recipient wrote (any status)
            written: dict[str, list[int]] = {}
            for prop in self.state.doc("proposals")["proposals"]:
                written.setdefault(prop["author"], []).append(prop["id"])
            cands = [p["name"] for p in self.free() if p["name"] != LEADER and WRITER not in _stat(p, "roles", [])
                     and POOBAH not in _stat(p, "roles", []) and p["name"] in written]
            if cands:
                to = rng.choice(cands)
                params: dict[str, Any] = {"role": WRITER, "to": to}
                if rng.random() < 0.5:  # the GRAND POOBAH names the awesome proposal
                    params["proposal"] = rng.choice(written[to])
                self.act(LEADER, "quazie.give-role", params)
        elif r < 0.55 and len(writers) > 2:
            old = [w for w in writers if w in q.get("role_since", {})
                   and self.b.t - parse_time(q["role_since"][w]) > timedelta(hours=25)]
            actor = self.pick()
            if old and not in_limbo(self.pos(actor)):
                self.act(actor, "quazie.remove-role", {"role": WRITER, "from": rng.choice(old)})
        elif r < 0.8:
            minions = [p["name"] for p in players if MINION in _stat(p, "roles", [])]
            at4 = [n for n, e in q.get("launch_base", {}).items() if len(minions) < 4
                   and self.b.t - parse_time(e["since"]) > timedelta(hours=49)
                   and MINION not in _stat(self.player(n), "roles", [])]
            actor = self.pick()
            if at4 and not in_limbo(self.pos(actor)):
                self.act(actor, "quazie.give-role", {"role": MINION, "to": rng.choice(at4)})
        elif not self.poobah_given:
            from validators.games.quazie.hands import POOBAH_GIVER, subject_in_rule

            giver = subject_in_rule(self.state, "muffin-roles", POOBAH_GIVER) or "a Muffin"
            actor = self.pick()
            if qhands.subject_covers(self.state, giver, actor) and not in_limbo(self.pos(actor)):
                to = rng.choice([p["name"] for p in self.free() if p["name"] != actor])
                if self.act(actor, "quazie.give-role", {"role": POOBAH, "to": to}) is not None:
                    self.poobah_given = True
        else:
            inside = [p["name"] for p in players if in_limbo(_stat(p, "position"))]
            kings = [p["name"] for p in players if LIMBO_KING in _stat(p, "roles", [])]
            actor = self.pick()
            if len(inside) == 1 and kings and kings[0] != inside[0] and not in_limbo(self.pos(actor)):
                self.act(actor, "quazie.remove-role", {"role": LIMBO_KING, "from": kings[0]})

    def awesome(self, name: str) -> None:
        if WRITER in _stat(self.player(name), "roles", []) and not self.done("awesome", name):
            self.act(name, "quazie.awesome")

    def award(self) -> None:
        to = self.rng.choice([n for n in self.names if n != LEADER and not in_limbo(self.pos(n))])
        self.act(LEADER, "quazie.record-award",
                 {"to": to, "record": f"The {self.rng.choice(TEXT)} record of {to}"})

    def shoo(self) -> None:
        actor = self.pick()
        if actor not in self.admins and not self.q().get("shoo"):
            self.act(actor, "quazie.shoo")

    def after_change(self, admin: str) -> None:
        """Rule 22 (seed 003): an admin whose last action changed the ruleset may move a Hand next, and must after a
        Shoo; the generator moves one then, or half the time when nothing obliges it."""
        change = self.q().get("ruleset_changes", {}).get(admin)
        if change is None or change.get("moved"):
            return
        if change.get("shoo") and self.q().get("shoo") or self.rng.random() < 0.5:
            self.move_hand(admin)

    def typo_and_move(self) -> None:
        """An admin corrects a 'typo' in the Glossary (rule 1: a change to the ruleset), then moves a Hand for it."""
        admin = self.rng.choice(self.admins)
        body = self.state.rules["glossary"].body
        old, new = ("It only clarifies", "It merely clarifies") if "It only clarifies" in body else (
            "It merely clarifies", "It only clarifies")
        if self.act(admin, "core.typo", {"rule": "glossary", "old": old, "new": new}) is not None:
            self.move_hand(admin)

    def move_hand(self, admin: str) -> None:
        rng = self.rng
        q = self.q()
        hands = q.get("hands", {})
        which = rng.choice(sorted(hands))
        year = qhands.calendar_year(self.state, self.b.t)
        in_pocket = bool(qhands.pocketed(self.state, hands))  # a Hand in no rule counts as in its Pocket (rule 22)
        if int(q.get("switcheroo_alarm", 0)) < year and not in_pocket:
            # the alarm has passed: whatever the admin asks, a Switcheroo happens instead
            self.act(admin, "quazie.move-hand", {"hand": which})
            return
        other = [h for k, h in hands.items() if k != which]
        targets = [r for r in qhands.adjoining(self.state, hands[which]["rule"])
                   if not other or r != other[0]["rule"]]
        if not targets:
            return
        target = rng.choice(targets)
        body = self.state.rules[target].body
        if target == qhands.R_HANDS:
            self.act(admin, "quazie.move-hand", {"hand": which, "rule": target})
            return
        words = []
        for m in re.finditer(r"(?<![A-Za-z{])[a-z]{6,12}(?![A-Za-z}])", body):
            w = m.group(0)
            first = body.find(w)
            if w in HAND_SKIP or first != m.start() or "{{" in body[max(0, first - 40):first]:
                continue
            words.append(w)
        if words:
            self.act(admin, "quazie.move-hand", {"hand": which, "rule": target, "text": rng.choice(words)})


def build_history(state: State, actions: int, rng: random.Random, words: Words, progress: bool = False) -> Builder:
    h = History(state, actions, rng, words, progress)
    b = h.run()
    while len(b.records) < actions:  # not reached: run() stops at exactly ``actions``
        b.act(rng.choice(h.names), "engine.tick", None, minutes=30)
    return b


# ---------------------------------------------------------------- the game


def generate(out: Path, *, game: str = "big", players: int = 100, actions: int = 10000, seed: int = 1,
             git: bool = False, progress: bool = False, weeks: int = WEEKS) -> Path:
    """Write the Quazie game under ``out/content/<game>``; returns that folder.

    ``weeks`` (weeks of dynasty before the founding) scales the Old Items, Note Histories and tag days.
    """
    rng = random.Random(seed)
    folder = out / "content" / game
    if folder.exists():
        shutil.rmtree(folder)
    words = Words(rng)
    start = initial_state(players, rng, weeks, words)
    b = build_history(start, actions, rng, words, progress)
    return write_game(out, game, start, b, git)


if __name__ == "__main__":
    from bench.gen import main

    raise SystemExit(main(["--module", "quazie", *sys.argv[1:]]))
