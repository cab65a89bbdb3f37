"""The large synthetic game of the ``cycle12`` module (seed 004's Cycle 12), for the benchmarks.

    .venv/bin/python -m bench.gen --module cycle12 [--out DIR] [--players 100] [--actions 10000] [--git]

Modelled on the module's example game (``content/cycle12/``): the same game.yaml, ruleset, stats,
tag families and tags, nomster types and classes, medals and treats, re-dated to this game's
founding (Monday 1 June 2026, the start of its Phase I), at scale: ``players`` players (P000,
P001, ...) each with every stat the roster declares and a character sheet; a world map of
``locations`` (1,000) locations grown outwards from Apeiros Village, each with its tile, card,
description, terrain tags and the suggestion it answered, the Tower of Ferrets among them; a
quarter as many wild nomsters, a tame team for most players (some bonded), items, the medals
already earned and a judge.

The history is a simulation of the cycle, one action at a time, each chosen from the state it will
meet (the engine's own view at its time, scheduled events applied), so each is legal; the engine
judges it all the same. Players walk the map, hunting the nearest wild nomster to tame (once a day,
d3), name what they tame, have their active nomster follow them, cuddle it and give it treats in
successive phases until it bonds, command it to lick the players it meets, now and then adopt
another's nomster (a treat, then Join Team) or walk a bonded nomster to the Tower of Ferrets to
ascend; they spawn nomsters, survey and terraform (three reactions complete it, a die picks a
Random tag), suggest locations and answer others' suggestions, propose (standard and urgent:
location change cards, gamestate patches, rule amendments and new subrules) and vote, file
Requests for Justice that the judge rules on, call and hold votes of confidence, stand and endorse
for judge each week, trade items, submit sheets, and ask for and give transcriptions. A tick now
and then at a phase start. Deterministic for a given seed.
"""

from __future__ import annotations

import random
import shutil
import sys
from collections import deque
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from bench.common import Builder, example_rules, player_names, write_game
from validators import yamlio
from validators.engine import Rule, State, advance
from validators.games.cycle12 import transcription
from validators.games.cycle12.common import ITEMS, JUSTICE, NOMSTERS, PROPOSALS, SHEETS, WORLD
from validators.games.cycle12.justice import assents
from validators.games.cycle12.phases import next_phase_start, phase_number
from validators.timeutil import day_start, format_time, parse_time, week_start

ROOT = Path(__file__).resolve().parent.parent
UTC = timezone.utc
EXAMPLE = ROOT / "content/cycle12"
FOUNDED = datetime(2026, 6, 1, tzinfo=UTC)  # a Monday: Phase I; the cycle (forty phases) ends on 19 October
START = FOUNDED + timedelta(hours=9)
TOTAL_MINUTES = 140_000  # about 97 days of play for a long history, whatever its length
TOWER = "Tower of Ferrets"
HOME = "Apeiros Village"

ADJECTIVES = ["Mossy", "Ember", "Glass", "Frost", "Copper", "Gloom", "Whisper", "Sunken", "Amber", "Silver", "Hollow",
              "Misty", "Golden", "Quiet", "Broken", "Tangled", "Windy", "Salt", "Cinder", "Velvet", "Thorny", "Pale",
              "Crooked", "Drowsy", "Rusty", "Starlit", "Bitter", "Lonely", "Humming", "Shifting", "Painted", "Ancient",
              "Bramble", "Foggy", "Sleeping", "Crimson"]
NOUNS = ["Fen", "Steppe", "Lake", "Terrace", "Hills", "Hollow", "Wood", "Bell", "Marsh", "Meadow", "Cliffs", "Dunes",
         "Grove", "Harbour", "Ridge", "Vale", "Caves", "Springs", "Orchard", "Quarry", "Ford", "Spire", "Garden",
         "Moor",
         "Reef", "Canyon", "Bridge", "Glade", "Falls", "Bluff", "Warren", "Thicket", "Plateau", "Lagoon", "Barrens",
         "Crossing"]
SIGHTS = ["Soft ground that sighs underfoot.", "Grass that glows at dusk; the wind is warm.",
          "Still water that shows the sky twice.", "Rocks stacked by nobody anyone remembers.",
          "A path that forgets where it was going.", "Trees that lean together as if whispering.",
          "Old stones, warm in the afternoon.", "A bell rings here when the tide turns.",
          "Frost in the morning, whatever the season.", "Paw prints everywhere, and no paws."]
TOKENS = ["a red kite", "a teapot", "a crescent moon", "a pine cone", "a paper boat", "a brass key", "a feather",
          "a green leaf", "a snail shell", "a lantern", "a blue bead", "a dice", "a thimble", "an acorn"]
NOMSTER_NAMES = ["Bramble", "Pip", "Soot", "Nettle", "Wisp", "Cobble", "Fidget", "Mote", "Ruckus", "Sprout",
                 "Tinder", "Quill", "Marrow", "Puddle", "Gust", "Clink", "Dapple", "Murk", "Glim", "Burr"]
SPECIES_A = ["Thorn", "Ember", "Frost", "Moss", "Spark", "Gloom", "Tide", "Iron", "Dust", "Glow"]
SPECIES_B = ["wing", "paw", "fin", "tail", "snout", "shell", "claw", "hop", "whisker", "scale"]
HOWS = ["a long hug", "a scratch behind the ears", "a gentle pat", "a quiet song", "a warm blanket",
        "a game of chase", "a belly rub"]
STATEMENTS = ["An edited proposal's votes still count towards nothing.", "A nomster that stays is still following.",
              "Surveying a tagged location fails.", "A trade needs both players in one place.",
              "The nomster index is reset at each phase start.", "A cuddle by anyone completes a bond.",
              "A location change card may give a special tag.", "Treats given to wild nomsters are lost."]
QUESTIONS = ["Who may choose a Random tag?", "When does an urgent proposal end?",
             "Which phase is the voting period of a standard proposal?", "Can an ascended player trade?"]
TOPICS = ["lanterns", "the fen", "bridges", "treats", "the tower", "spawning", "medals", "the judge", "maps",
          "the harbour", "weather", "nomster names", "roads", "tags", "trades"]


def _example(kind: str) -> Any:
    path = EXAMPLE / "initial/gamestate" / f"{kind}.yaml"
    return yamlio.load(path.read_text(encoding="utf-8"), str(path))


def initial_rules() -> dict[str, Rule]:
    """The example game's ruleset, re-dated to this game's founding."""
    return example_rules(EXAMPLE, FOUNDED)


class Names:
    """Unique location names: adjective and noun, then the same with a numeral."""

    def __init__(self, rng: random.Random):
        self.pool = [f"{a} {b}" for a in ADJECTIVES for b in NOUNS]
        rng.shuffle(self.pool)
        self.i = 0

    def __call__(self) -> str:
        base = self.pool[self.i % len(self.pool)]
        rnd = self.i // len(self.pool)
        self.i += 1
        return base if rnd == 0 else f"{base} {rnd + 1}"


def slug(name: str) -> str:
    return name.lower().replace(" ", "-")


def grow_map(n: int, rng: random.Random) -> list[tuple[int, int]]:
    """``n`` cells, connected, grown from (0, 0): each new cell is the one nearest the centre of a few
    picked at random on the frontier, so the map is a rough disc with ragged edges."""
    cells = [(0, 0)]
    taken = {(0, 0)}
    frontier: list[tuple[int, int]] = []
    on_frontier: set[tuple[int, int]] = set()

    def add_neighbours(c: tuple[int, int]) -> None:
        for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1)):
            d = (c[0] + dx, c[1] + dy)
            if d not in taken and d not in on_frontier:
                frontier.append(d)
                on_frontier.add(d)

    add_neighbours((0, 0))
    while len(cells) < n:
        picks = [rng.randrange(len(frontier)) for _ in range(3)]
        k = min(picks, key=lambda i: (frontier[i][0] ** 2 + frontier[i][1] ** 2, i))
        c = frontier[k]
        frontier[k] = frontier[-1]
        frontier.pop()
        on_frontier.discard(c)
        cells.append(c)
        taken.add(c)
        add_neighbours(c)
    return cells


def tag_set(rng: random.Random, primary: list[str], population: list[str], civilized: bool = False) -> list[str]:
    tags = []
    if rng.random() < 0.75:
        tags.append(rng.choice(primary))
    if civilized:
        tags.append("Civilized")
    elif rng.random() < 0.35:
        tags.append(rng.choice(population))
    return tags


def nomster_card(nid: int, kind: str, cls: str, rng: random.Random) -> dict[str, Any]:
    """What a tame nomster's card shows; every property is unique to the nomster (its number is in each)."""
    return {"name": f"{rng.choice(NOMSTER_NAMES)} {nid}",
            "species": f"{rng.choice(SPECIES_A)}{rng.choice(SPECIES_B)} {nid}",
            "species_description": f"A {cls.lower()} of {kind.lower()}, the {nid}th of its line.",
            "portrait": f"art/nomster-{nid}.png"}


def initial_state(n: int, rng: random.Random, n_locations: int = 1000) -> tuple[State, Names]:
    names = player_names(n)
    founded = format_time(FOUNDED)
    config = {"name": "Large synthetic Cycle 12 game (benchmark)",
              "description": "Generated by bench/gen_cycle12.py; not a real game.",
              "modules": ["cycle12"],
              "keywords": {"player": "Player", "players": "Players", "leader": "Judge"},
              "timezone": "UTC", "dice": "chain", "options": {"cycle12": {"start": founded}}}

    # the world: families and tags as the example has them, and the map at scale
    world = _example(WORLD)
    tags = world["tags"]
    primary = [t for t, d in tags.items() if d.get("family") == "Primary Location Type"]
    population = [t for t, d in tags.items() if d.get("family") == "Population Level" and not d.get("special")]
    cells = grow_map(max(n_locations, 2), rng)
    namegen = Names(rng)
    tower_at = max(1, len(cells) // 10)
    locations, suggestions = [], []
    for i, (x, y) in enumerate(cells):
        ident = i + 1
        if i == 0:
            name, loc_tags = HOME, ["Civilized"]
        elif i == tower_at:
            name, loc_tags = TOWER, [rng.choice(primary)]
        else:
            name = namegen()
            while name in (HOME, TOWER):
                name = namegen()
            loc_tags = tag_set(rng, primary, population, civilized=rng.random() < 0.04)
        by, answered_by = rng.sample(names, 2) if n > 1 else (names[0], names[0])
        description = rng.choice(SIGHTS)
        tile, card = f"tiles/{slug(name)}.png", f"cards/{slug(name)}.png"
        s: dict[str, Any] = {"id": ident, "by": by, "at": founded, "kind": "card" if i % 2 == 0 else "tile"}
        if s["kind"] == "card":
            s.update({"name": name, "x": x, "y": y, "description": description, "image": card})
        else:
            s["image"] = tile
        s.update({"fulfilled_by": answered_by, "fulfilled_at": founded, "location": ident})
        suggestions.append(s)
        locations.append({"id": ident, "name": name, "x": x, "y": y, "description": description, "tags": loc_tags,
                          "tile": tile, "card": card, "created": founded, "created_by": answered_by,
                          "suggestion": ident})
    world.update({"next_location": len(locations) + 1, "locations": locations,
                  "next_suggestion": len(suggestions) + 1, "suggestions": suggestions, "founding": None,
                  "next_announcement": 1, "announcements": []})

    # players start near the village, where the map was first drawn
    near = [loc["id"] for loc in locations[: max(20, min(len(locations), int(n * 0.8)))]]
    home_of = {p: rng.choice(near) for p in names}

    # nomsters: wild ones about the map (never in a Civilized place), and most players' teams
    nom = _example(NOMSTERS)
    types, classes = nom["types"], nom["classes"]
    wild_spots = [loc["id"] for loc in locations if "Civilized" not in loc["tags"]]
    nomsters: list[dict[str, Any]] = []
    for _ in range(len(locations) // 4):
        nomsters.append({"id": len(nomsters) + 1, "wild": True, "type": rng.choice(types),
                         "class": rng.choice(classes), "location": rng.choice(wild_spots), "spawned": founded,
                         "spawned_by": rng.choice(names)})
    wild = len(nomsters)
    sheets = []
    for p in names:
        s: dict[str, Any] = {"player": p, "header": f"Character Sheet: {p}", "token": rng.choice(TOKENS),
                             "location": home_of[p], "medals": [], "bonded": None, "type": None, "active": None,
                             "tamed": [], "ascended": False, "version": rng.randint(1, 12), "updated": founded}
        if rng.random() < 0.4:
            s["image"] = f"sheets/{p.lower()}-v{s['version']}.png"
            s["image_at"] = founded
        team = rng.choices([0, 1, 2, 3], weights=[4, 4, 2, 1])[0]
        for k in range(team):
            nid = len(nomsters) + 1
            kind, cls = rng.choice(types), rng.choice(classes)
            m = {"id": nid, "wild": False, "type": kind, "class": cls, "location": home_of[p], "spawned": founded,
                 "spawned_by": rng.choice(names), **nomster_card(nid, kind, cls, rng),
                 "card": f"cards/nomster-{nid}.png", "trainer": p, "named": founded}
            if k == 0:
                m["following"] = p
                s["active"] = nid
                if rng.random() < 0.25:
                    m["bonded_to"] = p
                    s.update({"bonded": nid, "type": kind, "bond_name": m["name"]})
            s["tamed"].append(nid)
            nomsters.append(m)
        sheets.append(s)
    nom.update({"index": wild, "next": len(nomsters) + 1, "nomsters": nomsters, "attempts": {}, "tamings": []})

    # the medals already earned, as the consequence would award them (roster order, up to each quantity)
    medals = _example("cycle12_medals")
    by_sheet = {s["player"]: s for s in sheets}
    suggested = {s["by"] for s in suggestions}
    answered = {s["fulfilled_by"] for s in suggestions if s["fulfilled_by"] != s["by"]}
    tests = {"participation": lambda p: True, "cartographer": lambda p: p in suggested and p in answered,
             "tamer": lambda p: bool(by_sheet[p]["tamed"])}
    for medal in medals["medals"]:
        held = 0
        for p in names:
            if held < medal["quantity"] and tests[medal["test"]](p):
                by_sheet[p]["medals"].append(medal["id"])
                held += 1

    # items: the example's treats, and a few other kinds players carry
    items = _example(ITEMS)
    items["kinds"].update({"berry": {"owners": ["player", "nomster"], "note": "a snack nomsters like too"},
                           "lantern": {"owners": ["player"], "note": "for the dark places"},
                           "rope": {"owners": ["player"], "note": "for cliffs and wells"},
                           "compass": {"owners": ["player"], "note": "for surveyors"}})
    kinds = list(items["kinds"])
    owned: list[dict[str, Any]] = []
    for p in names:
        for kind in rng.sample(kinds, rng.randint(0, 3)):
            owned.append({"id": len(owned) + 1, "kind": kind, "owner": p})
    for m in nomsters:
        if not m["wild"] and rng.random() < 0.2:
            owned.append({"id": len(owned) + 1, "kind": rng.choice(["treat", "berry"]), "owner": f"nomster:{m['id']}"})
    items.update({"next": len(owned) + 1, "items": owned, "next_trade": 1, "trades": []})

    roster = _example("roster")
    roster["players"] = [{"name": p, "account": f"{p.lower()}-c12", "admin": i < 3, "idle": False, "joined": founded,
                          "stats": {"gooderhose": rng.choice([0, 0, rng.randint(1, 40), rng.randint(20, 300)])}}
                         for i, p in enumerate(names)]
    docs = {
        "roster": roster,
        "ledger": {"clock": founded, "actions": 0, "head": ""},
        "cycle12_cycle": _example("cycle12_cycle"),
        ITEMS: items,
        JUSTICE: {"judge": rng.choice(names), "removal": [], "next_rfj": 1, "rfjs": [], "candidates": []},
        "cycle12_medals": medals,
        NOMSTERS: nom,
        PROPOSALS: {"next": 1, "proposals": []},
        SHEETS: {"sheets": sheets},
        WORLD: world,
    }
    return State(config, docs, initial_rules()), namegen


# ---------------------------------------------------------------- the history

Choice = tuple[str, str, "dict[str, Any] | None", "Callable[[Any], None] | None"]


class History:
    """The simulation: each step picks one legal action for the state at its time and takes it."""

    def __init__(self, state: State, actions: int, rng: random.Random, namegen: Names):
        self.b = Builder(state, rng, START)
        self.rng = rng
        self.names = [p["name"] for p in state.players()]
        self.mean_gap = max(1.0, min(60.0, TOTAL_MINUTES / max(actions, 1)))
        self.namegen = namegen
        self.serial = 0
        self.cache: dict[str, tuple[Any, Any]] = {}
        self.plans: dict[str, list[int]] = {}
        self.st = state
        self.when = START
        self.phase = 1
        families = state.doc(WORLD)["families"]
        self.survey_family = next(f for f, d in families.items() if d.get("survey"))
        self.terraform_family = next(f for f, d in families.items() if d.get("terraform"))
        self.primary_family = next(f for f, d in families.items() if d.get("primary"))
        # work in progress, each with the earliest time it is taken up
        self.announcements: list[int] = []
        self.random_due: list[int] = []
        self.proposals: dict[int, dict[str, Any]] = {}
        self.suggestions: dict[int, dict[str, Any]] = {}
        self.rfjs: dict[int, dict[str, Any]] = {}
        self.trades: dict[int, datetime] = {}
        self.requests: dict[int, datetime] = {}
        self.namings: dict[tuple[int, str], datetime] = {}
        self.adoptions: dict[tuple[int, str], datetime] = {}
        self.sheets_sent: list[tuple[str, datetime]] = []
        self.kinds = [("move", 24.0), ("vote", 22.0), ("tame", 9.0), ("spawn", 3.0), ("cuddle", 2.0), ("bond", 2.5),
                      ("gain_treat", 2.5), ("give_treat", 3.0), ("command", 4.0), ("set_active", 0.4),
                      ("survey", 1.5), ("terraform", 1.5), ("suggest", 1.0), ("create", 1.2), ("propose", 1.1),
                      ("edit_proposal", 0.06), ("rfj", 0.5), ("call_confidence", 0.6), ("confidence_vote", 3.0),
                      ("self_overturn", 0.04), ("assent", 0.02), ("stand", 0.5), ("endorse", 3.0),
                      ("offer_trade", 0.5), ("adopt", 0.3), ("request", 0.4), ("submit_sheet", 0.8)]

    # ------------------------------------------------------------ the loop

    def run(self, actions: int, progress: bool) -> Builder:
        b = self.b
        while len(b.records) < actions:
            gap = 1 + int(self.rng.expovariate(1 / self.mean_gap))
            when = b.t + timedelta(minutes=gap)
            crossed = next_phase_start(b.t) <= when
            self.st, _ = advance(b.registry, b.state, when)
            self.when = when
            self.phase = phase_number(when, FOUNDED)
            if crossed and self.rng.random() < 0.35:
                b.act(self.rng.choice(self.names), "engine.tick", None, minutes=gap)
                continue
            actor, action, params, after = self.obligation() or self.pick()
            applied = b.act(actor, action, params, minutes=gap)
            if after is not None:
                after(applied)
            if progress and len(b.records) % 1000 == 0:
                print(f"  {len(b.records)} actions, {format_time(b.t)}", file=sys.stderr)
        return b

    def pick(self) -> Choice:
        keyed = sorted(((self.rng.random() ** (1 / w), k) for k, w in self.kinds), reverse=True)
        for _, kind in keyed:
            choice = getattr(self, f"c_{kind}")()
            if choice is not None:
                return choice
        raise RuntimeError("no legal action found")  # move is almost always possible

    def obligation(self) -> Choice | None:
        for fn, p in ((self.o_name, 0.5), (self.o_react, 0.5), (self.o_random, 0.5), (self.o_resolve, 0.5),
                      (self.o_close, 0.4), (self.o_judge, 0.3), (self.o_accept, 0.3), (self.o_transcribe, 0.3),
                      (self.o_follow, 0.3), (self.o_assent, 0.3), (self.o_adopt, 0.3), (self.o_create, 0.1)):
            if self.rng.random() < p:
                choice = fn()
                if choice is not None:
                    return choice
        return None

    # ------------------------------------------------------------ views of the state, rebuilt when it changes

    def _cached(self, key: str, obj: Any, build: Callable[[Any], Any]) -> Any:
        hit = self.cache.get(key)
        if hit is not None and hit[0] is obj:
            return hit[1]
        value = build(obj)
        self.cache[key] = (obj, value)
        return value

    def locs(self) -> dict[str, Any]:
        def build(locs: list[dict[str, Any]]) -> dict[str, Any]:
            by_id = {loc["id"]: loc for loc in locs}
            by_xy = {(loc["x"], loc["y"]): loc["id"] for loc in locs}
            frontier = sorted({(x + dx, y + dy) for (x, y) in by_xy for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1))
                               if (x + dx, y + dy) not in by_xy and abs(x + dx) <= 1000 and abs(y + dy) <= 1000})
            tower = next((loc["id"] for loc in locs if loc["name"] == TOWER), None)
            return {"by_id": by_id, "by_xy": by_xy, "frontier": frontier, "tower": tower}
        return self._cached("locs", self.st.doc(WORLD)["locations"], build)

    def sheets(self) -> dict[str, Any]:
        def build(sheets: list[dict[str, Any]]) -> dict[str, Any]:
            at: dict[int, list[str]] = {}
            for s in sheets:
                if s.get("location") is not None and not s.get("ascended"):  # the ascended have left the map
                    at.setdefault(s["location"], []).append(s["player"])
            gone = {s["player"] for s in sheets if s.get("ascended")}
            return {"of": {s["player"]: s for s in sheets}, "at": at, "gone": gone}
        return self._cached("sheets", self.st.doc(SHEETS)["sheets"], build)

    def on_map(self) -> list[str]:
        """The players who may still take the map's actions: all but the ascended, who have left the map."""
        gone = self.sheets()["gone"]
        return [p for p in self.names if p not in gone] if gone else self.names

    def noms(self) -> dict[str, Any]:
        def build(noms: list[dict[str, Any]]) -> dict[str, Any]:
            at: dict[int, list[dict[str, Any]]] = {}
            wild_at: dict[int, list[int]] = {}
            team: dict[str, list[dict[str, Any]]] = {}
            for n in noms:
                if n.get("ascended"):
                    continue
                at.setdefault(n["location"], []).append(n)
                if n["wild"]:
                    wild_at.setdefault(n["location"], []).append(n["id"])
                elif n.get("trainer"):
                    team.setdefault(n["trainer"], []).append(n)
            return {"by_id": {n["id"]: n for n in noms}, "at": at, "wild_at": wild_at, "team": team}
        return self._cached("noms", self.st.doc(NOMSTERS)["nomsters"], build)

    def holdings(self) -> dict[str, list[dict[str, Any]]]:
        def build(items: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
            out: dict[str, list[dict[str, Any]]] = {}
            for i in items:
                out.setdefault(i["owner"], []).append(i)
            return out
        return self._cached("items", self.st.doc(ITEMS)["items"], build)

    def neighbours(self, loc_id: int) -> list[int]:
        loc = self.locs()["by_id"][loc_id]
        by_xy = self.locs()["by_xy"]
        out = []
        for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1)):
            other = by_xy.get((loc["x"] + dx, loc["y"] + dy))
            if other is not None:
                out.append(other)
        return out

    def bfs(self, start: int, goal: Callable[[int], bool], limit: int = 14) -> list[int] | None:
        """The shortest path (without ``start``) to the nearest location meeting ``goal``."""
        back: dict[int, int | None] = {start: None}
        queue = deque([(start, 0)])
        while queue:
            here, depth = queue.popleft()
            if here != start and goal(here):
                path = []
                while here != start:
                    path.append(here)
                    here = back[here]  # type: ignore[assignment]
                return path[::-1]
            if depth >= limit:
                continue
            for nxt in self.neighbours(here):
                if nxt not in back:
                    back[nxt] = here
                    queue.append((nxt, depth + 1))
        return None

    def active(self, who: str) -> dict[str, Any] | None:
        s = self.sheets()["of"][who]
        n = self.noms()["by_id"].get(s.get("active")) if s.get("active") is not None else None
        if n is None or n.get("trainer") != who or n.get("ascended"):
            return None
        return n

    def sheet(self, who: str) -> dict[str, Any]:
        return self.sheets()["of"][who]

    def mobile(self, who: str) -> bool:
        s = self.sheet(who)
        return s.get("location") is not None and not s.get("ascended")

    def blocked(self) -> set[str]:
        """Players who announced a terraforming or a survey that is still open stay put until it completes."""
        anns = self.st.doc(WORLD)["announcements"]
        return {anns[i - 1]["by"] for i in self.announcements if anns[i - 1]["status"] == "open"}

    def players_here(self, loc_id: int) -> list[str]:
        return self.sheets()["at"].get(loc_id, [])

    def treats(self, who: str) -> list[dict[str, Any]]:
        return [i for i in self.holdings().get(who, []) if i["kind"] == "treat"]

    def loc_ref(self, loc_id: int) -> Any:
        loc = self.locs()["by_id"][loc_id]
        r = self.rng.random()
        return loc["name"] if r < 0.7 else loc_id if r < 0.85 else [loc["x"], loc["y"]]

    def image(self, folder: str, stem: str) -> str:
        self.serial += 1
        return f"{folder}/{stem}-{self.serial}.png"

    def sent(self, path: str) -> None:
        self.sheets_sent.append((path, self.when))

    def later(self, lo: float, hi: float) -> datetime:
        return self.when + timedelta(minutes=self.rng.uniform(lo, hi))

    def days_ago(self, text: str) -> float:
        return (self.when - parse_time(text)).total_seconds() / 86400

    # ------------------------------------------------------------ walking

    def plan(self, who: str, here: int) -> list[int]:
        rng = self.rng
        n = self.active(who)
        locs = self.locs()
        if n is not None and n.get("bonded_to") == who and n.get("following") == who and locs["tower"] is not None \
                and rng.random() < 0.3:
            path = self.bfs(here, lambda x: x == locs["tower"], limit=60)
            if path:
                return path
        last = self.st.doc(NOMSTERS).get("attempts", {}).get(who, "")
        if last < format_time(day_start(self.when)) and rng.random() < 0.65:
            wild_at = self.noms()["wild_at"]
            path = self.bfs(here, lambda x: x in wild_at)
            if path:
                return path
        if n is not None and n.get("following") == who and rng.random() < 0.3:
            at = self.noms()["at"]

            def fit(x: int) -> bool:
                loc = locs["by_id"][x]
                return n["type"] in loc["tags"] and any(m["type"] == n["type"] for m in at.get(x, []))
            path = self.bfs(here, fit, limit=10)
            if path:
                return path
        path, prev, cur = [], None, here
        for _ in range(rng.randint(2, 6)):
            options = [x for x in self.neighbours(cur) if x != prev] or self.neighbours(cur)
            if not options:
                break
            prev, cur = cur, rng.choice(options)
            path.append(cur)
        return path

    def c_move(self) -> Choice | None:
        blocked = self.blocked()
        for _ in range(8):
            who = self.rng.choice(self.names)
            if who in blocked or not self.mobile(who):
                continue
            here = self.sheet(who)["location"]
            steps = self.plans.get(who)
            if not steps or steps[0] not in self.neighbours(here):
                steps = self.plans[who] = self.plan(who, here)
            if not steps:
                continue
            return who, "cycle12.move", {"to": self.loc_ref(steps.pop(0))}, None
        return None

    # ------------------------------------------------------------ nomsters

    def c_spawn(self) -> Choice | None:
        if self.st.doc(NOMSTERS)["index"] >= 2 * len(self.locs()["by_id"]) / 3 or not self.on_map():
            return None
        return self.rng.choice(self.on_map()), "cycle12.spawn", None, None

    def c_tame(self) -> Choice | None:
        attempts = self.st.doc(NOMSTERS).get("attempts", {})
        today = format_time(day_start(self.when))
        wild_at = self.noms()["wild_at"]
        ready = [p for p in self.names if self.mobile(p) and self.sheet(p)["location"] in wild_at
                 and attempts.get(p, "") < today]
        if not ready:
            return None
        who = self.rng.choice(ready)
        nid = self.rng.choice(wild_at[self.sheet(who)["location"]])

        def after(applied: Any) -> None:
            if applied.outcome and applied.outcome[0].get("success"):
                self.namings[(nid, who)] = self.later(5, 240)
        return who, "cycle12.tame", {"nomster": nid}, after

    def o_name(self) -> Choice | None:
        for (nid, who), t in list(self.namings.items()):
            if t > self.when:
                continue
            del self.namings[(nid, who)]
            n = self.noms()["by_id"].get(nid)
            if n is None or who in self.sheets()["gone"] or not n["wild"] \
                    or not any(x["nomster"] == nid and x["player"] == who
                               for x in self.st.doc(NOMSTERS).get("tamings", [])):
                continue
            params: dict[str, Any] = {"nomster": nid, **nomster_card(nid, n["type"], n["class"], self.rng)}
            if self.rng.random() < 0.8:
                params["card"] = f"cards/nomster-{nid}.png"
                self.sent(params["card"])
            if self.rng.random() < 0.5:
                params.update({"type": n["type"], "class": n["class"]})
            return who, "cycle12.name-nomster", params, None
        return None

    def o_follow(self) -> Choice | None:
        for who in self.rng.sample(self.names, min(10, len(self.names))):
            n = self.active(who)
            if n is not None and n.get("following") != who and n["location"] == self.sheet(who)["location"]:
                params: dict[str, Any] = {"nomster": n["id"], "command": "follow"}
                if self.rng.random() < 0.5:
                    params["target"] = who
                return who, "cycle12.command", params, None
        return None

    def c_command(self) -> Choice | None:
        rng = self.rng
        for who in rng.sample(self.names, min(12, len(self.names))):
            n = self.active(who)
            if n is None:
                continue
            here = n["location"]
            ref = n["id"] if rng.random() < 0.7 else n["name"]
            s = self.sheet(who)
            if n.get("bonded_to") == who and here == self.locs()["tower"] and s["location"] == here:
                return who, "cycle12.command", {"nomster": ref, "command": "ascend"}, None
            if not n.get("bonded_to") and rng.random() < 0.5:
                horizon = format_time(self.when - timedelta(days=7))
                givers = sorted({t["by"] for t in n.get("treats", []) if t.get("at", "") >= horizon and t["by"] != who
                                 and t["by"] in self.players_here(here)})
                if givers:
                    return who, "cycle12.command", {"nomster": ref, "command": "join-team",
                                                    "target": rng.choice(givers)}, None
            others = [p for p in self.players_here(here) if p != who]
            if others and rng.random() < 0.8:
                return who, "cycle12.command", {"nomster": ref, "command": "lick", "target": rng.choice(others)}, None
            if n.get("following") != who and s["location"] == here:
                return who, "cycle12.command", {"nomster": ref, "command": "follow"}, None
            if n.get("following") == who and rng.random() < 0.1:
                return who, "cycle12.command", {"nomster": ref, "command": "stay"}, None
        return None

    def c_set_active(self) -> Choice | None:
        here = self.on_map()
        for who in self.rng.sample(here, min(10, len(here))):
            s = self.sheet(who)
            if s.get("active_phase") == self.phase:
                continue
            team = [n for n in self.noms()["team"].get(who, []) if n["id"] != s.get("active")]
            near = [n for n in team if n["location"] == s["location"]] or team
            if near:
                n = self.rng.choice(near)
                return who, "cycle12.set-active", {"nomster": n["id"] if self.rng.random() < 0.7 else n["name"]}, None
        return None

    def c_cuddle(self) -> Choice | None:
        for who in self.rng.sample(self.names, min(12, len(self.names))):
            s = self.sheet(who)
            if s.get("ascended"):  # off the map: no cuddles given (nor taken: noms() leaves ascended nomsters out)
                continue
            tame = [n for n in self.noms()["at"].get(s["location"], []) if not n["wild"]]
            if not tame:
                continue
            own = [n for n in tame if n.get("trainer") == who and not n.get("bonded_to")]
            n = self.rng.choice(own if own and self.rng.random() < 0.7 else tame)
            return who, "cycle12.cuddle", {"nomster": n["id"], "how": self.rng.choice(HOWS)}, None
        return None

    def c_bond(self) -> Choice | None:
        """A player caring for their unbonded active nomster: a cuddle and a treat in successive phases bond them."""
        for who in self.rng.sample(self.names, min(15, len(self.names))):
            n, s = self.active(who), self.sheet(who)
            if n is None or n.get("bonded_to") or s.get("bonded") is not None or n["location"] != s["location"]:
                continue
            did = {(x["by"], x["phase"], what) for what in ("treats", "cuddles") for x in n.get(what, [])}
            cuddle = (who, "cycle12.cuddle", {"nomster": n["id"], "how": self.rng.choice(HOWS)}, None)
            treat = (who, "cycle12.give-treat", {"nomster": n["id"]}, None)
            has_treat = bool(self.treats(who))
            if (who, self.phase - 1, "treats") in did:
                return cuddle
            if (who, self.phase - 1, "cuddles") in did and has_treat:
                return treat
            if has_treat and (who, self.phase, "treats") not in did:
                return treat
            if (who, self.phase, "cuddles") not in did:
                return cuddle
            if not has_treat:
                return who, "cycle12.gain-treat", None, None
        return None

    def c_adopt(self) -> Choice | None:
        """A reputable player gives a treat to another's unbonded active nomster; its trainer may let it join them."""
        at = self.sheets()["at"]
        for loc in self.rng.sample(sorted(at), min(15, len(at))):
            ps = at[loc]
            for a in ps:
                n = self.active(a)
                if n is None or n.get("bonded_to") or n["location"] != loc:
                    continue
                givers = [b for b in ps if b != a and self.treats(b)]
                if givers:
                    b = self.rng.choice(givers)

                    def after(applied: Any, nid: int = n["id"], b: str = b) -> None:
                        if self.rng.random() < 0.6:
                            self.adoptions[(nid, b)] = self.later(5, 90)
                    return b, "cycle12.give-treat", {"nomster": n["id"]}, after
        return None

    def o_adopt(self) -> Choice | None:
        for (nid, b), t in list(self.adoptions.items()):
            if t > self.when:
                continue
            del self.adoptions[(nid, b)]
            n = self.noms()["by_id"].get(nid)
            a = n.get("trainer") if n else None
            if n is None or a is None or self.active(a) is not n or n.get("bonded_to") \
                    or b not in self.players_here(n["location"]):
                continue
            return a, "cycle12.command", {"nomster": nid, "command": "join-team", "target": b}, None
        return None

    def c_gain_treat(self) -> Choice | None:
        here = self.on_map()
        for who in self.rng.sample(here, min(12, len(here))):
            if not self.treats(who) and (self.active(who) is not None or self.rng.random() < 0.3):
                return who, "cycle12.gain-treat", None, None
        return None

    def c_give_treat(self) -> Choice | None:
        for who in self.rng.sample(self.names, min(12, len(self.names))):
            if not self.treats(who) or self.sheet(who).get("ascended"):
                continue
            here = self.noms()["at"].get(self.sheet(who)["location"], [])
            if not here:
                continue
            own = [n for n in here if n.get("trainer") == who]
            n = self.rng.choice(own if own and self.rng.random() < 0.75 else here)
            return who, "cycle12.give-treat", {"nomster": n["id"]}, None
        return None

    # ------------------------------------------------------------ terraforming and surveying

    def _announced(self, applied: Any) -> None:
        self.announcements.append(applied.outcome[0]["announcement"])

    def c_survey(self) -> Choice | None:
        blocked = self.blocked()
        tags = self.st.doc(WORLD)["tags"]
        primary = [t for t, d in tags.items() if d.get("family") == self.survey_family]
        anyway = self.rng.random() < 0.1  # now and then a survey of a place already tagged, which fails
        for who in self.rng.sample(self.names, min(10, len(self.names))):
            s = self.sheet(who)
            if who in blocked or not self.mobile(who) or s.get("survey_phase") == self.phase:
                continue
            loc = self.locs()["by_id"][s["location"]]
            tagged = any(tags.get(t, {}).get("family") == self.survey_family for t in loc["tags"])
            if tagged and not anyway:
                continue
            tag = "Random" if self.rng.random() < 0.35 else self.rng.choice(primary)
            return who, "cycle12.survey", {"family": self.survey_family, "tag": tag}, self._announced
        return None

    def c_terraform(self) -> Choice | None:
        blocked = self.blocked()
        tags = self.st.doc(WORLD)["tags"]
        fam_tags = [t for t, d in tags.items() if d.get("family") == self.terraform_family and not d.get("special")]
        anyway = self.rng.random() < 0.1
        for who in self.rng.sample(self.names, len(self.names)):
            n = self.active(who)
            s = self.sheet(who)
            if n is None or who in blocked or s.get("terraform_phase") == self.phase or not self.mobile(who):
                continue
            loc = self.locs()["by_id"][s["location"]]
            ptype = next((t for t in loc["tags"] if tags.get(t, {}).get("family") == self.primary_family), None)
            if ptype is None:
                continue
            here = [m for m in self.noms()["at"].get(loc["id"], []) if m["type"] == ptype]
            if len(here) < 2 or not any(m.get("trainer") == who for m in here):
                continue
            settled = any(tags.get(t, {}).get("family") == self.terraform_family for t in loc["tags"])
            if settled and not anyway:
                continue
            tag = "Random" if self.rng.random() < 0.3 else self.rng.choice(fam_tags)
            return who, "cycle12.terraform", {"family": self.terraform_family, "tag": tag}, self._announced
        return None

    def o_react(self) -> Choice | None:
        anns = self.st.doc(WORLD)["announcements"]
        for ident in list(self.announcements):
            a = anns[ident - 1]
            if a["status"] != "open":
                self.announcements.remove(ident)
                if a["status"] == "awaiting-random":
                    self.random_due.append(ident)
                continue
            if self.days_ago(a["at"]) * 1440 < 10:
                continue
            free = [p for p in self.on_map() if p not in a["reactions"]]
            if not free:
                continue  # all still on the map have reacted (in a small game the rest may have ascended)
            who = self.rng.choice(free)

            def after(applied: Any, ident: int = ident) -> None:
                if anns_status(self.b.state, ident) == "awaiting-random":
                    self.random_due.append(ident)
                    self.announcements.remove(ident)
            return who, "cycle12.react", {"announcement": ident}, after
        return None

    def o_random(self) -> Choice | None:
        anns = self.st.doc(WORLD)["announcements"]
        for ident in list(self.random_due):
            if anns[ident - 1]["status"] != "awaiting-random":
                self.random_due.remove(ident)
                continue
            if not self.on_map():
                return None  # everyone has ascended: nobody left on the map to choose
            self.random_due.remove(ident)
            return self.rng.choice(self.on_map()), "cycle12.choose-random", {"announcement": ident}, None
        return None

    # ------------------------------------------------------------ locations

    def free_cells(self) -> list[tuple[int, int]]:
        reserved = {s["cell"] for s in self.suggestions.values() if s.get("cell")}
        return [c for c in self.locs()["frontier"] if c not in reserved]

    def new_tags(self) -> list[str]:
        tags = self.st.doc(WORLD)["tags"]
        primary = [t for t, d in tags.items() if d.get("family") == self.primary_family and not d.get("special")]
        other = [t for t, d in tags.items() if d.get("family") == self.terraform_family and not d.get("special")]
        out = []
        if self.rng.random() < 0.8:
            out.append(self.rng.choice(primary))
        if self.rng.random() < 0.3:
            out.append(self.rng.choice(other))
        return out

    def c_suggest(self) -> Choice | None:
        if not self.on_map():
            return None
        who = self.rng.choice(self.on_map())
        if self.rng.random() < 0.5:
            cells = self.free_cells()
            if not cells:
                return None
            cell = self.rng.choice(cells)
            name = self.namegen()
            params: dict[str, Any] = {"kind": "card", "name": name, "x": cell[0], "y": cell[1],
                                      "description": self.rng.choice(SIGHTS)}
            if self.rng.random() < 0.7:
                params["image"] = self.image("cards", slug(name))
        else:
            cell = None
            params = {"kind": "tile", "image": self.image("tiles", "tile")}
        if "image" in params:
            self.sent(params["image"])

        def after(applied: Any) -> None:
            self.suggestions[applied.outcome[0]["suggestion"]] = {"cell": cell, "by": who, "at": self.when,
                                                                  "due": self.later(30, 4 * 1440)}
        return who, "cycle12.suggest-location", params, after

    def o_create(self) -> Choice | None:
        return self.c_create(due_only=True)

    def c_create(self, due_only: bool = False) -> Choice | None:
        for sid, meta in list(self.suggestions.items()):
            if (self.when - meta["at"]).total_seconds() > 6.9 * 86400:
                del self.suggestions[sid]  # never answered
                continue
            if due_only and meta["due"] > self.when:
                continue
            s = self.st.doc(WORLD)["suggestions"][sid - 1]
            if not self.on_map():
                return None
            who = self.rng.choice([p for p in self.on_map() if p != meta["by"]] or self.on_map())
            params: dict[str, Any] = {"suggestion": sid}
            if s["kind"] == "tile":
                cells = self.free_cells()
                if not cells:
                    return None
                cell = self.rng.choice(cells)
                name = self.namegen()
                params.update({"name": name, "x": cell[0], "y": cell[1], "description": self.rng.choice(SIGHTS),
                               "image": self.image("cards", slug(name))})
            else:
                params["image"] = self.image("tiles", slug(s["name"]))
            self.sent(params["image"])
            tags = self.new_tags()
            if tags:
                params["tags"] = tags
            del self.suggestions[sid]
            return who, "cycle12.create-location", params, None
        return None

    # ------------------------------------------------------------ proposals

    def change(self) -> dict[str, Any]:
        rng = self.rng
        r = rng.random()
        locs = list(self.locs()["by_id"].values())
        if r < 0.4:
            loc = rng.choice(locs)
            c: dict[str, Any] = {"kind": "location-card", "x": loc["x"], "y": loc["y"]}
            if rng.random() < 0.6:
                c["description"] = f"{rng.choice(SIGHTS)} {rng.choice(SIGHTS)}"
            if rng.random() < 0.5:
                c["tags"] = self.new_tags() + (["Civilized"] if rng.random() < 0.1 else [])
                fams = [self.st.doc(WORLD)["tags"][t]["family"] for t in c["tags"]]
                if len(set(fams)) != len(fams):
                    c["tags"] = c["tags"][:1]
            if rng.random() < 0.2 and loc["name"] not in (TOWER, HOME):
                c["name"] = self.namegen()
            if rng.random() < 0.15 or len(c) == 3:
                c["tile"] = self.image("tiles", slug(loc["name"]))
            return c
        if r < 0.7:
            ops, whom = [], rng.sample(self.names, min(len(self.names), rng.randint(1, 3)))
            for who in whom:
                p = self.st.player(who)
                value = min(400, int(p["stats"]["gooderhose"]) + rng.randint(1, 20)) if p else rng.randint(1, 20)
                ops.append({"op": "replace", "path": f"/roster/players/name={who}/stats/gooderhose", "value": value})
            return {"kind": "textual", "text": f"A reward of gooderhose points for {', '.join(whom)}.",
                    "effects": {"gamestate": ops}}
        if r < 0.8:
            kind = rng.choice(list(self.st.doc(ITEMS)["kinds"]))
            return {"kind": "textual", "text": f"The {kind} gets a new note.",
                    "effects": {"gamestate": [{"op": "replace", "path": f"/cycle12_items/kinds/{kind}/note",
                                               "value": f"{kind}s, as amended ({rng.choice(TOPICS)})"}]}}
        if r < 0.93:
            active = sorted(rid for rid, rule in self.st.rules.items() if rule.meta.get("status", "active") == "active")
            rid = rng.choice(active)
            if rng.random() < 0.7:
                body = self.st.rules[rid].body.rstrip("\n") + f"\n\nAs amended: {rng.choice(STATEMENTS)}\n"
                return {"kind": "textual", "text": f"Amend {rid}.",
                        "effects": {"rules": [{"op": "amend", "id": rid, "body": body}]}}
            self.serial += 1
            return {"kind": "textual", "text": f"A new subrule of {rid}.",
                    "effects": {"rules": [{"op": "add", "id": f"house-rule-{self.serial}", "parent": rid,
                                           "title": f"House Rule {self.serial}", "section": "core",
                                           "body": f"{rng.choice(STATEMENTS)}\n"}]}}
        return {"kind": "textual", "text": f"Players are encouraged to draw {rng.choice(TOPICS)} more often."}

    def c_propose(self) -> Choice | None:
        rng = self.rng
        who = rng.choice(self.names)
        urgent = rng.random() < 0.12
        params: dict[str, Any] = {"title": f"On {rng.choice(TOPICS)} and {rng.choice(TOPICS)}",
                                  "changes": [self.change() for _ in range(rng.choices([1, 2, 3], [5, 3, 1])[0])]}
        if urgent:
            params["class"] = "urgent"
        if rng.random() < 0.2:
            params["card"] = self.image("cards", "proposal")
            self.sent(params["card"])
        n = len(self.names)

        def after(applied: Any) -> None:
            pid = applied.outcome[0]["proposal"]
            if urgent:
                meta = {"turnout": max(2, int(n * rng.uniform(0.05, 0.15))), "p_for": 0.95}
            else:
                meta = {"turnout": max(3, int(n * rng.uniform(0.15, 0.55))), "p_for": rng.choice([0.8, 0.65, 0.5, 0.3])}
            self.proposals[pid] = meta
        return who, "cycle12.propose", params, after

    def proposal(self, pid: int) -> dict[str, Any]:
        return self.st.doc(PROPOSALS)["proposals"][pid - 1]

    def c_vote(self) -> Choice | None:
        rng = self.rng
        open_ = []
        for pid, meta in list(self.proposals.items()):
            p = self.proposal(pid)
            if p["status"] != "pending":
                del self.proposals[pid]
            elif self.when < parse_time(p["ends"]) and len(p["votes"]) < meta["turnout"]:
                open_.append(pid)
        if not open_:
            return None
        pid = rng.choice(open_)
        p, meta = self.proposal(pid), self.proposals[pid]
        if p["votes"] and rng.random() < 0.04:
            voter = rng.choice(sorted(p["votes"]))
            vote = "none" if rng.random() < 0.5 else ("against" if p["votes"][voter] == "for" else "for")
            return voter, "cycle12.vote", {"proposal": pid, "vote": vote}, None
        voters = [x for x in self.names if x not in p["votes"]]
        if not voters:
            return None
        vote = "for" if rng.random() < meta["p_for"] else "against"
        return rng.choice(voters), "cycle12.vote", {"proposal": pid, "vote": vote}, None

    def c_edit_proposal(self) -> Choice | None:
        pending = [pid for pid in self.proposals if self.proposal(pid)["status"] == "pending"
                   and not self.proposal(pid).get("edited")]
        if not pending:
            return None
        pid = self.rng.choice(pending)
        return self.proposal(pid)["author"], "cycle12.edit-proposal", {"proposal": pid}, None

    def o_resolve(self) -> Choice | None:
        for pid in self.proposals:
            p = self.proposal(pid)
            if p["status"] == "pending" and p["class"] == "urgent" and parse_time(p["ends"]) <= self.when:
                return self.rng.choice(self.names), "cycle12.resolve", {"proposal": pid}, None
        return None

    # ------------------------------------------------------------ judgement and the election

    def rfj(self, rid: int) -> dict[str, Any]:
        return self.st.doc(JUSTICE)["rfjs"][rid - 1]

    def c_rfj(self) -> Choice | None:
        rng = self.rng
        question = rng.random() < 0.15
        params: dict[str, Any] = {"statement": rng.choice(QUESTIONS if question else STATEMENTS)}
        if question:
            params["question"] = True
        if rng.random() < 0.3:
            params["sheets"] = [self.image("rfj", "request")]
            self.sent(params["sheets"][0])

        def after(applied: Any) -> None:
            self.rfjs[applied.outcome[0]["rfj"]] = {"rule_at": self.later(30, 30 * 60), "call": rng.random() < 0.35,
                                                    "turnout": rng.randint(4, 20)}
        return rng.choice(self.names), "cycle12.rfj", params, after

    def o_judge(self) -> Choice | None:
        judge = self.st.doc(JUSTICE).get("judge")
        if judge is None or self.st.player(judge) is None:
            return None
        for rid, meta in self.rfjs.items():
            r = self.rfj(rid)
            if meta["rule_at"] > self.when or (r["rulings"] and r["rulings"][-1]["status"] == "standing"):
                continue
            judgement = (f"Yes, as far as {self.rng.choice(TOPICS)} go" if r["question"]
                         else self.rng.choice(["TRUE", "FALSE"]))
            params: dict[str, Any] = {"rfj": rid, "judgement": judgement,
                                      "reasoning": f"The rules on {self.rng.choice(TOPICS)} say so."}
            if self.rng.random() < 0.2:
                params["sheets"] = [self.image("rulings", "ruling")]
                self.sent(params["sheets"][0])
            return judge, "cycle12.judge", params, None
        return None

    def standing(self, rid: int) -> dict[str, Any] | None:
        r = self.rfj(rid)
        return r["rulings"][-1] if r["rulings"] and r["rulings"][-1]["status"] == "standing" else None

    def c_call_confidence(self) -> Choice | None:
        for rid, meta in list(self.rfjs.items()):
            ruling = self.standing(rid)
            if ruling is None:
                continue
            if self.days_ago(ruling["at"]) > 3.9 or ruling.get("confidence"):
                if (ruling.get("confidence") or {}).get("status") != "open":
                    del self.rfjs[rid]  # settled
                continue
            if meta["call"]:
                meta["call"] = False
                who = self.rng.choice([p for p in self.names if p != ruling["by"]] or self.names)
                return who, "cycle12.call-confidence", {"rfj": rid}, None
        return None

    def c_confidence_vote(self) -> Choice | None:
        for rid, meta in self.rfjs.items():
            c = (self.standing(rid) or {}).get("confidence")
            if not c or c["status"] != "open" or self.days_ago(c["at"]) >= 1.95 or len(c["votes"]) >= meta["turnout"]:
                continue
            voters = [p for p in self.names if p not in c["votes"]]
            if voters:
                vote = "overturn" if self.rng.random() < 0.45 else "affirm"
                return self.rng.choice(voters), "cycle12.confidence-vote", {"rfj": rid, "vote": vote}, None
        return None

    def o_close(self) -> Choice | None:
        for rid in self.rfjs:
            c = (self.standing(rid) or {}).get("confidence")
            if c and c["status"] == "open" and self.days_ago(c["at"]) >= 2.05:
                return self.rng.choice(self.names), "cycle12.close-confidence", {"rfj": rid}, None
        return None

    def c_self_overturn(self) -> Choice | None:
        for rid, meta in self.rfjs.items():
            ruling = self.standing(rid)
            if ruling is not None and not ruling.get("confidence") and self.st.player(ruling["by"]) is not None:
                meta["rule_at"] = self.later(60, 600)
                return ruling["by"], "cycle12.self-overturn", {"rfj": rid}, None
        return None

    def c_assent(self) -> Choice | None:
        doc = self.st.doc(JUSTICE)
        if not doc.get("judge") or assents(doc, self.st):
            return None
        return self.rng.choice([p for p in self.names if p != doc["judge"]] or self.names), \
            "cycle12.assent-removal", None, None

    def o_assent(self) -> Choice | None:
        doc = self.st.doc(JUSTICE)
        given = assents(doc, self.st)  # only those against the incumbent count (each names its judge)
        if not doc.get("judge") or not given:
            return None
        who = self.rng.choice([p for p in self.names if p not in given and p != doc["judge"]])
        return who, "cycle12.assent-removal", None, None

    def c_stand(self) -> Choice | None:
        cands = self.st.doc(JUSTICE)["candidates"]
        if len(cands) >= 4 or self.when - week_start(self.when) > timedelta(days=5):
            return None
        standing = {c["player"] for c in cands}
        who = self.rng.choice([p for p in self.names if p not in standing])
        return who, "cycle12.stand", None, None

    def c_endorse(self) -> Choice | None:
        cands = self.st.doc(JUSTICE)["candidates"]
        if not cands:
            return None
        done = {p for c in cands for p in c["endorsements"]}
        free = [p for p in self.names if p not in done]
        if not free:
            return None
        c = self.rng.choice(cands)
        return self.rng.choice(free), "cycle12.endorse", {"candidate": c["player"]}, None

    # ------------------------------------------------------------ items, sheets, transcriptions

    def c_offer_trade(self) -> Choice | None:
        at = self.sheets()["at"]
        crowded = [loc for loc, ps in sorted(at.items()) if len(ps) >= 2]
        if not crowded:
            return None
        a, b = self.rng.sample(at[self.rng.choice(crowded)], 2)
        mine, theirs = self.holdings().get(a, []), self.holdings().get(b, [])
        params: dict[str, Any] = {"with": b}
        if mine and self.rng.random() < 0.85:
            params["give"] = [self.rng.choice(mine)["id"]]
        if theirs and (self.rng.random() < 0.7 or "give" not in params):
            params["get"] = [self.rng.choice(theirs)["id"]]
        if "give" not in params and "get" not in params:
            return None

        def after(applied: Any) -> None:
            self.trades[applied.outcome[0]["trade"]] = self.later(5, 180)
        return a, "cycle12.offer-trade", params, after

    def o_accept(self) -> Choice | None:
        trades = self.st.doc(ITEMS)["trades"]
        owner = {i["id"]: i["owner"] for i in self.st.doc(ITEMS)["items"]} if self.trades else {}
        for tid, t_at in list(self.trades.items()):
            if t_at > self.when:
                continue
            t = trades[tid - 1]
            del self.trades[tid]
            if t["status"] != "offered" or self.days_ago(t["at"]) > 6.9:
                continue
            gone = self.sheets()["gone"]
            if t["by"] in gone or t["with"] in gone:
                continue  # one of them ascended since the offer: off the map, they trade no more (004 Ascend)
            if self.sheet(t["by"])["location"] != self.sheet(t["with"])["location"]:
                continue  # they parted: the offer lapses
            if any(owner.get(i) != t["by"] for i in t["give"]) or any(owner.get(i) != t["with"] for i in t["get"]):
                continue
            return t["with"], "cycle12.accept-trade", {"trade": tid}, None
        return None

    def c_submit_sheet(self) -> Choice | None:
        who = self.rng.choice(self.names)
        params: dict[str, Any] = {}
        if self.rng.random() < 0.8:
            params["image"] = self.image("sheets", who.lower())
            self.sent(params["image"])
        if self.rng.random() < 0.3 or not params:
            params["token"] = self.rng.choice(TOKENS)
        return who, "cycle12.submit-sheet", params, None

    def c_request(self) -> Choice | None:
        horizon = self.when - timedelta(days=13.9)
        self.sheets_sent = [(p, t) for p, t in self.sheets_sent if t >= horizon]
        if not self.sheets_sent:
            return None
        path, _ = self.rng.choice(self.sheets_sent)
        if any(r["sheet"] == path and r["status"] == "open" for r in self.st.doc(SHEETS).get("transcriptions", [])):
            return None
        known = transcription.submissions(self.st)
        if path not in known or self.st.player(known[path][0]) is None:
            return None

        def after(applied: Any) -> None:
            r = self.rng.random()
            delay = self.rng.uniform(20, 2 * 1440) if r < 0.7 else self.rng.uniform(3 * 1440, 6 * 1440) \
                if r < 0.9 else self.rng.uniform(8 * 1440, 10 * 1440)
            self.requests[applied.outcome[0]["transcription"]] = self.later(delay, delay)
        return self.rng.choice(self.names), "cycle12.request-transcription", {"sheet": path}, after

    def o_transcribe(self) -> Choice | None:
        reqs = self.st.doc(SHEETS).get("transcriptions", [])
        for rid, due in list(self.requests.items()):
            if due > self.when:
                continue
            del self.requests[rid]
            r = reqs[rid - 1]
            if r["status"] != "open" or self.st.player(r["submitter"]) is None:
                continue
            text = f"{r['sheet']}: {self.rng.choice(SIGHTS)} {self.rng.choice(STATEMENTS)}"
            return r["submitter"], "cycle12.transcribe", {"request": rid, "text": text}, None
        return None


def anns_status(state: State, ident: int) -> str:
    return state.doc(WORLD)["announcements"][ident - 1]["status"]


def build_history(state: State, actions: int, rng: random.Random, namegen: Names, progress: bool = False) -> Builder:
    return History(state, actions, rng, namegen).run(actions, progress)


def generate(out: Path, *, game: str = "big", players: int = 100, actions: int = 10000, seed: int = 1,
             git: bool = False, progress: bool = False, locations: int = 1000) -> Path:
    """Write the Cycle 12 game under ``out/content/<game>``; returns that folder."""
    rng = random.Random(seed)
    folder = out / "content" / game
    if folder.exists():
        shutil.rmtree(folder)
    start, namegen = initial_state(players, rng, locations)
    b = build_history(start, actions, rng, namegen, progress)
    return write_game(out, game, start, b, git)
