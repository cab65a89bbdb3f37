"""The large synthetic game of the Settlement module (the dynasty of BlogNomic Ruleset 75), for the benchmarks.

    .venv/bin/python -m bench.gen --module settlement [--out DIR] [--players 100] [--actions 10000] [--git]

writes ``DIR/content/<game>/`` with the modules and options of the example game
(``content/settlement``): 100 players (P000 is the Expedition
Leader, the others are Colonists, each carrying every stat the roster declares: Location, Energy,
Stress, Hunger, Deaths, Job, with varied values), a procedurally drawn 200 by 200 map (a river
with bridges and fields on its banks, a lake, woods, a village of four rooms: beds, a kitchen, a
hall and a store; a plaza for the dances, a catapult, a palisade being built, and Rock below with a
shaft to the bottom row), and a history of exactly ``actions`` legal actions.

The history is a small simulation of the colony, every action made with
:meth:`bench.common.Builder.act` (the engine's ``apply_action`` with the check's parameter
validation, so an illegal action raises): each Colonist works at their trade (mining and
prospecting, tunnelling, felling, fishing, gathering, planting and harvesting, brewing, cooking and
clearing the smoke, building the palisade, bridges and furniture, digging and filling channels),
eats, drinks, rests (in a bed when they can), moves, now and then shoves a neighbour, and takes a
Job when they have met its criteria. The Leader makes everybody hungrier each week (when nobody
would starve of it), creates Moose (whose actions the Leader files: they graze, move and rest, and
Hunters hunt them) and Traitors. A dance is called twice a week and danced on the plaza (square,
waltz, conga with its march, hokey-kokey, in turn); on Saturday afternoons somebody fires a
catapult. Proposals that change the handbook, the stockpile, stats or a rule's text are voted on
by more than a quorum and enacted (or failed). A tick on Monday mornings lets the crops grow;
ticks top the log up to the count.

Everything is deterministic for a given seed: the only randomness is ``random.Random(seed)``,
and the dice are the engine's.
"""

from __future__ import annotations

import math
import random
import shutil
import sys
from collections import deque
from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import Builder, example_rules, write_game
from validators import yamlio
from validators.engine import Rule, State
from validators.games.settlement.grid import SettlementMap, designate, parse
from validators.timeutil import format_time, frequency_violation, parse_time, week_start

UTC = timezone.utc
FOUNDED = datetime(2026, 3, 1, tzinfo=UTC)  # a Sunday
START = datetime(2026, 3, 2, 7, 0, tzinfo=UTC)  # the Monday after, in the morning
EXAMPLE = ROOT / "content" / "settlement"
LEADER = "P000"
MIN_SIZE = 80

Loc = tuple[int, int]
ORTH: dict[str, Loc] = {"N": (-1, 0), "S": (1, 0), "W": (0, -1), "E": (0, 1)}
KING: tuple[Loc, ...] = ((-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1))

# (job, what the Colonist mostly does), dealt out in this order: a colony of 20 repeats it once
TRADES: list[tuple[str, str]] = [
    ("Fisher", "fisher"), ("Peasant", "builder"), ("Miner", "miner"), ("Farmer", "farmer"),
    ("Woodcutter", "woodcutter"), ("Peasant", "miner"), ("Gatherer", "gatherer"), ("Fisher", "fisher"),
    ("Peasant", "builder"), ("Farmer", "farmer"), ("Cook", "cook"), ("Dancer", "dancer"), ("Peasant", "dancer"),
    ("Brewer", "brewer"), ("Miner", "miner"), ("Peasant", "woodcutter"), ("Peasant", "gatherer"),
    ("Hunter", "hunter"), ("Peasant", "fisher"), ("Peasant", "digger"),
]
# the trade whose criteria a Peasant meets by doing its task
JOB_OF_ROLE = {"miner": "Miner", "woodcutter": "Woodcutter", "fisher": "Fisher", "gatherer": "Gatherer",
               "farmer": "Farmer", "brewer": "Brewer", "cook": "Cook", "hunter": "Hunter"}
DANCES = ["square", "waltz", "conga", "hokey-kokey"]
WORDS = ["colony", "river", "harbour", "granary", "council", "ledger", "lantern", "orchard", "bridge", "quarry",
         "market", "beacon", "archive", "tower", "meadow", "hearth", "palisade", "furrow", "kiln"]


# ---------------------------------------------------------------- the example game, re-dated


def _example(path: str) -> Any:
    file = EXAMPLE / path
    return yamlio.load(file.read_text(encoding="utf-8"), str(file))


def initial_rules() -> dict[str, Rule]:
    """The example game's ruleset, re-dated to this game's founding."""
    return example_rules(EXAMPLE, FOUNDED)


# ---------------------------------------------------------------- the map


@dataclass
class World:
    """Where things are on the generated map, for the Colonists' plans (the map itself is in the state)."""

    size: int
    surface: int  # the first row of Rock
    river: dict[int, int]  # row -> the first of the river's two columns
    hearth: Loc = (0, 0)  # the kitchen's Dirt beside the Chimney, where cooking puts its Smoke
    spread: Loc = (0, 0)  # the Dirt beside the hearth that Smoke may spread to
    cook_spots: list[Loc] = field(default_factory=list)  # Indoors, beside the Stove
    sites: list[tuple[Loc, str]] = field(default_factory=list)  # furniture to build, indoors and out
    plaza: tuple[int, int, int, int] = (0, 0, 0, 0)  # top, left, bottom, right (inclusive)
    palisade: list[Loc] = field(default_factory=list)
    shaft: int = 0
    homes: dict[str, list[Loc]] = field(default_factory=dict)
    reserved: set[Loc] = field(default_factory=set)  # cells nobody stands on (the hearth and beside it)
    bridges_left: int = 0  # bridges the builders may still add
    river_digs_left: int = 0  # channels the diggers may still cut to the river


def draw_map(size: int, rng: random.Random) -> tuple[list[str], World]:
    """A ``size`` by ``size`` map in the example's legend, and where its places are."""
    if size < MIN_SIZE:
        raise ValueError(f"the map must be at least {MIN_SIZE} by {MIN_SIZE}")
    n = size
    s = int(n * 0.6)
    g = [["." if r < s else "R" for _ in range(n)] for r in range(n)]
    protected: set[Loc] = set()

    # the river, two wide, meandering from the top to the Rock; bridges every 14 rows
    rc = max(10, int(n * 0.2))
    river = {r: rc + round(2 * math.sin(r / 9.0)) for r in range(s)}
    for r, c in river.items():
        g[r][c] = g[r][c + 1] = "~"
        protected.update((r, c + d) for d in range(-3, 5))
    for r in range(5, s - 2, 14):
        g[r][river[r]] = g[r][river[r] + 1] = "="
    # a lake in the north-east
    lr, lc, a, b = max(4, int(s * 0.15)), int(n * 0.8), max(3, n // 28), max(4, n // 16)
    for r in range(max(0, lr - a - 3), min(s, lr + a + 4)):
        for c in range(max(0, lc - b - 3), min(n, lc + b + 4)):
            d = ((r - lr) / a) ** 2 + ((c - lc) / b) ** 2
            if d <= 1:
                g[r][c] = "~"
            if d <= 2.2:
                protected.add((r, c))

    # fields on both banks (a Crop or Seedling is less than three steps from Water), in patches
    def field_cell(r: int, c: int, kind: str) -> None:
        if 0 <= c < n and g[r][c] == ".":
            g[r][c] = kind

    for r0 in range(1, s - 1, 8):
        for side in ((2, 3), (-1, -2)):
            kind = rng.choice(["C", "C", "c", ",", "."])
            for r in range(r0, min(r0 + rng.randint(3, 7), s - 1)):
                if g[r][river[r]] == "=" or (r > 0 and g[r - 1][river[r - 1]] == "=") or g[r + 1][river[r + 1]] == "=":
                    continue  # the way onto a bridge stays open
                for d in side:
                    field_cell(r, river[r] + d, kind)
    for c in range(lc - b, lc + b + 1):
        for r in (lr + a + 1, lr + a + 2):
            if r < s and rng.random() < 0.6:
                field_cell(r, c, rng.choice(["C", "c", ","]))

    # the village: four rooms, a plaza, a catapult, the palisade in progress
    vt, vl = int(s * 0.35), rc + 8
    for r in range(vt - 2, vt + 31):
        for c in range(vl - 2, vl + 47):
            protected.add((r, c))
    w = World(size=n, surface=s, river=river)

    def at(dr: int, dc: int) -> Loc:
        return (vt + dr, vl + dc)

    def put(loc: Loc, ch: str) -> None:
        g[loc[0]][loc[1]] = ch

    def room(top: int, left: int, h: int, wd: int, door: Loc) -> None:
        for dr in range(h):
            for dc in range(wd):
                edge = dr in (0, h - 1) or dc in (0, wd - 1)
                put(at(top + dr, left + dc), "#" if edge else ".")
        put(at(*door), "+")

    room(0, 0, 7, 13, (6, 6))  # the longhouse: a row of Beds
    for dc in range(1, 12):
        put(at(1, dc), "B")
    w.sites += [(at(5, dc), "Bed") for dc in (2, 4, 8, 10)]
    room(0, 16, 6, 9, (5, 20))  # the kitchen: Chimney, hearth, Stove, Table
    put(at(1, 17), "H")
    put(at(3, 17), "S")
    put(at(3, 22), "h")
    w.hearth, w.spread = at(1, 18), at(1, 19)
    w.reserved = {w.hearth, w.spread}
    w.cook_spots = [at(2, 17), at(2, 18), at(3, 18), at(4, 17), at(4, 18)]
    room(9, 0, 8, 14, (9, 7))  # the hall: two Tables, room for more
    put(at(12, 4), "h")
    put(at(12, 9), "h")
    w.sites += [(at(14, 3), "Table"), (at(14, 6), "Stove"), (at(14, 10), "Table"), (at(11, 2), "Chimney")]
    room(9, 16, 5, 9, (9, 20))  # the store
    w.plaza = (vt, vl + 28, vt + 14, vl + 44)
    for dc in range(28, 45, 3):  # bushes along the plaza's south side, for the dancers to gather at
        put(at(16, dc), "*" if dc % 2 else "t")
    put(at(19, 36), "K")
    w.sites += [(at(22, 8), "Catapult")]
    w.palisade = [at(28, dc) for dc in range(2, 41)] + [at(-5, dc) for dc in range(45)]
    for loc in w.palisade[:9]:
        put(loc, "#")
    put(w.palisade[9], "+")
    for dc in (2, 3, 4, 5, 11, 12, 13):  # dry channels, to be filled in
        put(at(24, dc), "-")

    # the shaft to the bottom row, and a gallery along it
    w.shaft = vl + 20
    for r in range(s, n):
        g[r][w.shaft] = "."
    for c in range(w.shaft - 8, w.shaft + 9):
        g[s + 3][c] = "."

    # woods, and bushes and trees scattered everywhere else; more bushes in the north for the Moose
    def free(r: int, c: int) -> bool:
        return 0 <= r < s and 0 <= c < n and g[r][c] == "." and (r, c) not in protected

    for _ in range(max(3, n * n // 2500)):
        cr, cc, rad = rng.randint(2, s - 5), rng.randint(2, n - 3), rng.randint(2, max(3, n // 30))
        for r in range(cr - rad, cr + rad + 1):
            for c in range(cc - rad, cc + rad + 1):
                if (r - cr) ** 2 + (c - cc) ** 2 <= rad * rad and free(r, c):
                    x = rng.random()
                    g[r][c] = "T" if x < 0.45 else "t" if x < 0.55 else "*" if x < 0.6 else "."
    for r in range(s):
        for c in range(n):
            if free(r, c):
                x = rng.random()
                bush = 0.08 if r < 6 else 0.015
                g[r][c] = "*" if x < bush else "t" if x < bush + 0.01 else "T" if x < bush + 0.016 else "."

    rows = ["".join(row) for row in g]
    w.bridges_left = max(2, n // 20)
    w.river_digs_left = max(3, n // 8)

    # where Colonists of each trade live at the start
    def near(r: int, c: int, chars: str) -> bool:
        return any(0 <= r + dr < n and 0 <= c + dc < n and g[r + dr][c + dc] in chars for dr, dc in KING)

    surface = [(r, c) for r in range(s) for c in range(n) if g[r][c] == "." and (r, c) not in w.reserved]
    top, left, bottom, right = w.plaza
    w.homes = {
        "fisher": [x for x in surface if near(*x, "~")],
        "miner": [x for x in surface if x[0] == s - 1] + [(s + 3, c) for c in range(w.shaft - 8, w.shaft + 9)],
        "farmer": [(r, c) for r in range(s) for c in range(n) if g[r][c] in "Cc"],
        "woodcutter": [x for x in surface if near(*x, "T")],
        "gatherer": [x for x in surface if near(*x, "*t")],
        "cook": list(w.cook_spots),
        "dancer": [(r, c) for r in range(top, bottom + 1) for c in range(left, right + 1)],
        "builder": [at(27, dc) for dc in range(2, 41)] + [at(21, dc) for dc in range(2, 26)]
        + [x for x in surface if x[0] == vt - 4 and vl <= x[1] <= vl + 44],
        "hunter": [x for x in surface if x[0] < 6],
        "digger": [x for x in surface if near(*x, "~-")],
        "deep": [(r, w.shaft) for r in range(s + 4, n)],
    }
    w.homes["brewer"] = w.homes["farmer"]
    return rows, w


# ---------------------------------------------------------------- the initial state


def initial_state(players: int, rng: random.Random, size: int) -> tuple[State, World, dict[str, str]]:
    """The founding state; also the map's places and each Colonist's trade."""
    if players < 20:
        raise ValueError("the settlement game needs at least 20 players")
    config = _example("game.yaml")
    config["name"] = "Large synthetic Settlement game (benchmark)"
    config["description"] = "Generated by bench/gen_settlement.py; not a real game."
    rows, world = draw_map(size, rng)
    legend = _example("initial/gamestate/map.yaml")["legend"]
    example_roster = _example("initial/gamestate/roster.yaml")
    trades: dict[str, str] = {}
    taken: set[Loc] = set()
    roster = []
    deep = 0
    for i in range(players):
        name = f"P{i:03d}"
        if i == 0:  # the Expedition Leader: no Location, not a Colonist for the dynastic rules
            stats = {"location": "", "energy": 50, "stress": 0, "hunger": 0, "deaths": 0, "job": "Peasant"}
        else:
            job, role = TRADES[(i - 1) % len(TRADES)]
            if role == "miner" and deep < max(1, players // 50):
                role, deep = "deep", deep + 1
            trades[name] = role
            homes = [x for x in world.homes[role] if x not in taken] or world.homes[role]
            home = rng.choice(homes)
            taken.add(home)
            stats = {"location": designate(home), "energy": rng.randint(25, 110),
                     "stress": rng.choice([0, 0, 0, 2, 5, 8]),
                     "hunger": rng.randint(0, 2), "deaths": rng.choice([0] * 12 + [1]),
                     "job": "Miner" if role == "deep" else job}
        roster.append({"name": name, "account": f"{name.lower()}-gh", "admin": i < 5, "idle": False,
                       "joined": format_time(FOUNDED), "stats": stats})
    scale = players / 100
    items = {"Wood": 300, "Rock": 300, "Food": 900, "Seeds": 80, "Drinks": 150, "Meals": 40, "Copper": 12, "Iron": 30,
             "Copper Ore": 0, "Iron Ore": 0, "Anvil": 2, "Grand Piano": 1}
    items = {k: (int(v * scale) if v > 3 else v) for k, v in items.items()}
    docs = {
        "roster": {"stats": example_roster["stats"], "players": roster},
        "ledger": {"clock": format_time(FOUNDED), "actions": 0, "head": ""},
        "proposals": {"next": 1, "proposals": []},
        "cfjs": {"next": 1, "cfjs": []},
        "dovs": {"next": 1, "dovs": []},
        "dynasty": {"number": 1, "leader": LEADER, "title": f"The First Dynasty of {LEADER}", "theme": "The Settlement",
                    "started": format_time(FOUNDED)},
        "map": {"rows": rows, "legend": legend},
        "stockpile": {"items": items},
        "handbook": _example("initial/gamestate/handbook.yaml"),
        "colony": {},
    }
    return State(config, docs, initial_rules()), world, trades


# ---------------------------------------------------------------- the simulation


@dataclass
class Act:
    actor: str
    action: str
    params: dict[str, Any] | None = None


@dataclass
class Wait:
    until: datetime


Plan = Generator["Act | Wait | None", Any, None]


@dataclass
class Script:
    """A sequence of actions spread over time (a dance, a proposal and its votes, the Leader's week)."""

    gen: Plan
    weight: float
    ready: datetime
    sent: Any = None


class Colony:
    """The colony's life: who does what, when. Every plan is read from the current state and is legal by
    the module's rules; ``Builder.act`` would raise otherwise."""

    def __init__(self, start: State, world: World, trades: dict[str, str], rng: random.Random, actions: int,
                 progress: bool = False):
        self.b = Builder(start, rng, START)
        self.w = world
        self.trades = trades
        self.rng = rng
        self.target = actions
        self.progress = progress
        self.now = START
        self.busy: set[str] = set()  # dancing, or off to fire the catapult: no other plans for them
        self.sleep: dict[str, datetime] = {}
        self.moose_born: dict[str, datetime] = {}
        self.project: dict[str, str | None] = {}
        self.scripts: list[Script] = []
        self._cache: dict[str, Any] = {}

    # ------------------------------------------------------------ reading the state

    def doc(self, kind: str) -> Any:
        return self.b.state.doc(kind)

    @property
    def hb(self) -> dict[str, Any]:
        return self.doc("handbook")

    def rows(self) -> list[str]:
        return self.doc("map")["rows"]

    def legend(self) -> dict[str, tuple[str, str]]:
        if "legend" not in self._cache:
            legend = self.doc("map")["legend"]
            self._cache["legend"] = {ch: (e["name"], e.get("state", "neither")) for ch, e in legend.items()}
        return self._cache["legend"]

    def inside(self, loc: Loc) -> bool:
        rows = self.rows()
        return 0 <= loc[0] < len(rows) and 0 <= loc[1] < len(rows[loc[0]])

    def terrain(self, loc: Loc) -> str:
        return self.legend()[self.rows()[loc[0]][loc[1]]][0] if self.inside(loc) else ""

    def walkable(self, loc: Loc, outsider: bool = False) -> bool:
        if not self.inside(loc) or loc in self.w.reserved:
            return False
        name, state = self.legend()[self.rows()[loc[0]][loc[1]]]
        return state == "empty" and name not in ("Channel", "Smoke") and not (outsider and name == "Door")

    def players(self) -> dict[str, dict[str, Any]]:
        if "players" not in self._cache:
            self._cache["players"] = {p["name"]: p for p in self.doc("roster")["players"]}
        return self._cache["players"]

    def where(self, name: str) -> Loc | None:
        p = self.players().get(name)
        text = p["stats"].get("location") if p else ""
        return parse(text) if text else None

    def occupied_by(self) -> dict[Loc, list[str]]:
        """Who stands where (Colonists and Outsiders)."""
        if "occ" not in self._cache:
            occ: dict[Loc, list[str]] = {}
            for p in self.players().values():
                if p["name"] != LEADER and p["stats"].get("location"):
                    occ.setdefault(parse(p["stats"]["location"]), []).append(p["name"])
            self._cache["occ"] = occ
        return self._cache["occ"]

    def colonists(self) -> list[str]:
        return [n for n, p in self.players().items() if n != LEADER and not p.get("kind")]

    def moose(self) -> list[str]:
        return [n for n, p in self.players().items() if p.get("kind") == "outsider"]

    def stock(self, item: str) -> int:
        return int(self.doc("stockpile")["items"].get(item, 0))

    def adjacent(self, loc: Loc, names: Iterable[str], steps: Iterable[Loc] = KING) -> list[Loc]:
        want = set(names)
        return [x for x in ((loc[0] + dr, loc[1] + dc) for dr, dc in steps) if self.terrain(x) in want]

    def water_near(self, loc: Loc, within: int) -> bool:
        """Water less than ``within`` steps away (Plant Seed)."""
        d = within - 1
        return any(self.terrain((loc[0] + dr, loc[1] + dc)) == "Water"
                   for dr in range(-d, d + 1) for dc in range(-d, d + 1) if abs(dr) + abs(dc) <= d)

    def the_map(self) -> SettlementMap:
        return SettlementMap(self.doc("map"), self.b.state.config["options"]["settlement"])

    # ------------------------------------------------------------ costs and limits

    def job(self, name: str) -> str:
        return str(self.players()[name]["stats"].get("job", "Peasant"))

    def jobspec(self, name: str) -> dict[str, Any]:
        return self.hb["jobs"].get(self.job(name), {})

    def step_cost(self, name: str) -> int:
        return int(self.jobspec(name).get("move_energy", self.hb["movement"]["energy"]))

    def can_rest(self, name: str) -> bool:
        times = [parse_time(t) for t in self.doc("colony").get("rests", {}).get(name, [])]
        allowed = int(self.jobspec(name).get("rests_per_week", 1))
        if len([t for t in times if t >= week_start(self.now)]) >= allowed:
            return False
        return not times or self.now - max(times) >= timedelta(hours=24)

    def may_exhaust(self, name: str) -> bool:
        """Whether spending all one's Energy is safe: a rest is still to come this week, or it is nearly
        Monday and one is not hungry."""
        hunger = int(self.players()[name]["stats"]["hunger"])
        return self.can_rest(name) or (self.now.weekday() >= 4 and hunger <= 1)

    def weekly_ok(self, actor: str, action: str) -> bool:
        previous = [parse_time(t) for t in self.doc("ledger").get("recent", {}).get(actor, {}).get(action, [])]
        return frequency_violation("weekly", previous, self.now) is None

    def qualifies(self, name: str, job: str) -> bool:
        spec = self.hb["jobs"].get(job)
        if spec is None:
            return False
        if "dances" in spec:
            return self.doc("colony").get("dances_joined", {}).get(name, 0) >= spec["dances"]
        since = self.now - timedelta(days=7) + timedelta(hours=1)
        done = [e for e in self.doc("colony").get("performed", {}).get(name, []) if parse_time(e["at"]) >= since]
        return sum(1 for e in done if e["task"] in spec.get("tasks", [])) >= spec.get("times", 3)

    # ------------------------------------------------------------ paths

    def path(self, start: Loc, goal: Callable[[Loc], bool], maxlen: int = 20, outsider: bool = False) -> str | None:
        """The shortest orthogonal path of Empty locations (no Channels, no Smoke) to a goal, or None."""
        if goal(start):
            return ""
        prev: dict[Loc, tuple[Loc, str] | None] = {start: None}
        q = deque([(start, 0)])
        while q:
            cur, d = q.popleft()
            if d >= maxlen:
                continue
            for letter, (dr, dc) in ORTH.items():
                nxt = (cur[0] + dr, cur[1] + dc)
                if nxt in prev or not self.walkable(nxt, outsider):
                    continue
                prev[nxt] = (cur, letter)
                if goal(nxt):
                    out = []
                    at: Loc | None = nxt
                    while prev[at] is not None:  # type: ignore[index]
                        at, letter2 = prev[at]  # type: ignore[index, misc]
                        out.append(letter2)
                    return "".join(reversed(out))
                q.append((nxt, d + 1))
        return None

    def go(self, name: str, goal: Callable[[Loc], bool], spare: int, maxlen: int = 20) -> list[Act] | None:
        """Move towards a goal, as far as the Colonist's energy allows (at least one step)."""
        loc = self.where(name)
        if loc is None:
            return None
        route = self.path(loc, goal, maxlen, outsider=bool(self.players()[name].get("kind")))
        if not route:
            return None
        steps = min(len(route), spare // max(1, self.step_cost(name)), 12)
        if steps < 1:
            return None
        return [Act(name, "settlement.move", {"path": route[:steps]})]

    # ------------------------------------------------------------ acting

    def act(self, a: Act, minutes: float) -> Any:
        applied = self.b.act(a.actor, a.action, a.params, minutes=minutes)
        self._cache.clear()
        if self.progress and len(self.b.records) % 500 == 0:
            print(f"  {len(self.b.records)} actions, {format_time(self.b.t)}", file=sys.stderr)
        return applied

    def gap(self) -> float:
        return self.rng.choice([1, 1, 2, 2, 2, 3, 3, 4, 5])

    # ------------------------------------------------------------ a Colonist's turn

    def turn(self, name: str) -> list[Act] | None:
        p = self.players()[name]
        st = p["stats"]
        loc = self.where(name)
        if loc is None:
            return None
        energy, hunger, stress = int(st["energy"]), int(st["hunger"]), int(st["stress"])
        job = self.job(name)
        hb = self.hb
        tasks = hb["tasks"]
        rng = self.rng
        eat = tasks["eat"]
        # a Peasant who met a Job's criteria takes it; now and then somebody gives up theirs
        if job == "Peasant":
            want = JOB_OF_ROLE.get(self.trades[name]) or ("Dancer" if self.trades[name] == "dancer" else None)
            if want and rng.random() < 0.5 and self.qualifies(name, want):
                return [Act(name, "settlement.job", {"job": want})]
        elif job != "Traitor" and rng.random() < 0.002:
            return [Act(name, "settlement.job", {"job": "Peasant"})]
        # eating first, when hungry
        if hunger >= 3 or (hunger >= 2 and rng.random() < 0.25):
            if energy >= eat["energy"]:
                at_table = bool(self.adjacent(loc, ["Table"]))
                short = self.stock("Food") < eat["food"]
                if self.stock("Meals") >= eat["meals"] and (at_table or short or rng.random() < 0.4):
                    return [Act(name, "settlement.eat", {"meal": True})]
                if self.stock("Food") >= eat["food"]:
                    return [Act(name, "settlement.eat")]
            elif self.can_rest(name):
                return [self.rest(name, loc)]
        if stress >= 10 and self.stock("Drinks") >= 1 and energy >= tasks["drink"]["energy"] and rng.random() < 0.4:
            return [Act(name, "settlement.drink")]
        role = self.trades[name]
        keep = 40 if role == "dancer" else 0  # dancers keep the energy to walk to a dance
        if energy < 14 + keep and self.can_rest(name):
            return [self.rest(name, loc)]
        spare = energy - keep - (eat["energy"] if hunger >= 1 else 0)
        if spare < 4:
            if stress > 0 and self.stock("Drinks") >= 1 and energy >= tasks["drink"]["energy"] and rng.random() < 0.3:
                return [Act(name, "settlement.drink")]
            return None
        plan = self.shove(name, loc) if rng.random() < 0.01 else None
        if not plan and rng.random() < 0.85:
            plan = getattr(self, f"work_{role}")(name, loc, spare)
        return plan or self.work_generalist(name, loc, spare)

    def rest(self, name: str, loc: Loc) -> Act:
        if self.terrain(loc) == "Bed":
            m = self.the_map()
            quiet = all(not (m.terrain(c).noisy or m.terrain(c).name == "Smoke")
                        for room in m.rooms_of(loc) for c in room)
            if quiet:
                return Act(name, "settlement.rest", {"bed": True})
        return Act(name, "settlement.rest")

    # the trades

    def mine_cost(self, name: str) -> int:
        base = int(self.hb["tasks"]["mine"]["energy"])
        return int(self.jobspec(name).get("energy", base)) if self.job(name) == "Miner" else base

    def work_miner(self, name: str, loc: Loc, spare: int) -> list[Act] | None:
        cost = self.mine_cost(name)
        rock = self.adjacent(loc, ["Rock"], ORTH.values())
        if rock and spare >= cost:
            below = [x for x in rock if x[0] > loc[0]]
            side = [x for x in rock if x[0] == loc[0]]
            pick = self.rng.choice(below if below and self.rng.random() < 0.35 else side or rock)
            params: dict[str, Any] = {"rock": designate(pick)}
            spec = self.hb["jobs"].get("Miner", {})
            if self.job(name) == "Miner" and pick[0] >= spec.get("deep_row", 50) and self.rng.random() < 0.4:
                params["prospect"] = True
            return [Act(name, "settlement.mine", params)]
        if not rock:
            return self.go(name, lambda x: bool(self.adjacent(x, ["Rock"], ORTH.values())), spare)
        return None

    def work_deep(self, name: str, loc: Loc, spare: int) -> list[Act] | None:
        """The shaft's miner: down to the bottom row, then five more rows of Rock once a week (Tunneling)."""
        bottom = len(self.rows()) - 1
        if loc[0] == bottom:
            if self.weekly_ok(name, "settlement.tunnel"):
                return [Act(name, "settlement.tunnel")]
            return self.work_miner(name, loc, spare)
        down = (loc[0] + 1, loc[1])
        if self.terrain(down) == "Rock":
            return [Act(name, "settlement.mine", {"rock": designate(down)})] if spare >= self.mine_cost(name) else None
        return self.go(name, lambda x: x[0] == bottom or self.terrain((x[0] + 1, x[1])) == "Rock", spare, maxlen=40)

    def work_woodcutter(self, name: str, loc: Loc, spare: int) -> list[Act] | None:
        per = int(self.jobspec(name).get("energy_per_wood", self.hb["tasks"]["chop"]["energy_per_wood"])) \
            if self.job(name) == "Woodcutter" else int(self.hb["tasks"]["chop"]["energy_per_wood"])
        trees = self.adjacent(loc, ["Large Tree"])
        if trees:
            wood = min(self.rng.randint(1, 3), spare // per)
            if wood < 1:
                return None
            params: dict[str, Any] = {"tree": designate(self.rng.choice(trees))}
            if wood > 1:
                params["wood"] = wood
            return [Act(name, "settlement.chop", params)]
        return self.go(name, lambda x: bool(self.adjacent(x, ["Large Tree"])), spare)

    def work_fisher(self, name: str, loc: Loc, spare: int) -> list[Act] | None:
        if self.adjacent(loc, ["Water"]):
            return [Act(name, "settlement.fish")] if spare >= self.hb["tasks"]["fish"]["energy"] else None
        return self.go(name, lambda x: bool(self.adjacent(x, ["Water"])), spare)

    def work_gatherer(self, name: str, loc: Loc, spare: int) -> list[Act] | None:
        if self.adjacent(loc, ["Bush", "Small Tree"]):
            if spare < self.hb["tasks"]["gather"]["energy"]:
                return None
            if self.job(name) == "Gatherer" and self.rng.random() < 0.5:
                return [Act(name, "settlement.gather", {"choose": self.rng.choice(["Food", "Food", "Wood", "Seeds"])})]
            return [Act(name, "settlement.gather")]
        return self.go(name, lambda x: bool(self.adjacent(x, ["Bush", "Small Tree"])), spare)


    def work_farmer(self, name: str, loc: Loc, spare: int, task: str = "harvest") -> list[Act] | None:
        tasks = self.hb["tasks"]
        on = self.terrain(loc)
        if on in ("Small Crop", "Mature Crop"):
            return [Act(name, f"settlement.{task}")] if spare >= tasks[task]["energy"] else None
        plant = tasks["plant"]
        plantable = task == "harvest" and self.stock("Seeds") >= plant["seeds"]
        if plantable and on == "Dirt" and self.water_near(loc, plant["water_within"]) and spare >= plant["energy"]:
            return [Act(name, "settlement.plant")]

        def goal(x: Loc) -> bool:
            t = self.terrain(x)
            if t in ("Small Crop", "Mature Crop"):
                return True
            return plantable and t == "Dirt" and self.water_near(x, plant["water_within"])
        return self.go(name, goal, spare)

    def work_brewer(self, name: str, loc: Loc, spare: int) -> list[Act] | None:
        return self.work_farmer(name, loc, spare, task="brew")

    def work_cook(self, name: str, loc: Loc, spare: int) -> list[Act] | None:
        w = self.w
        if loc in w.cook_spots:
            cook = self.hb["tasks"]["cook"]
            if self.terrain(w.hearth) != "Dirt" or self.stock("Food") < cook["food"] + 30 or spare < cook["energy"]:
                return None
            plan = [Act(name, "settlement.cook", {"smoke": designate(w.hearth)})]
            if self.terrain(w.spread) == "Dirt" and not self.occupied_by().get(w.spread) and self.rng.random() < 0.15:
                plan.append(Act(name, "settlement.spread-smoke", {"at": designate(w.spread)}))
            plan.append(Act(name, "settlement.clear-smoke", {"at": designate(w.hearth)}))
            return plan
        return self.go(name, lambda x: x in w.cook_spots, spare, maxlen=30)

    def work_builder(self, name: str, loc: Loc, spare: int) -> list[Act] | None:
        """A builder keeps to one project until it is done: the palisade, a bridge, the furniture."""
        specs = self.hb["constructions"]
        occ = self.occupied_by()
        rng = self.rng

        def touching(a: Loc, b: Loc) -> bool:
            return max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1

        def build(what: str, target: Loc) -> list[Act] | None:
            options = [dict(o) for o in specs[what]["materials"]]
            affordable = [o for o in options
                          if all(self.stock(k) >= v + (20 if k in ("Rock", "Wood") else 0) for k, v in o.items())]
            if not affordable or spare < specs[what]["energy"]:
                return None
            params: dict[str, Any] = {"what": what, "at": designate(target)}
            if len(options) > 1:
                params["pay"] = rng.choice(affordable)
            return [Act(name, "settlement.build", params)]

        project = self.project.get(name)
        if project is None or rng.random() < 0.03:
            project = self.project[name] = rng.choice(["palisade"] * 6 + ["bridge"] * 2 + ["furniture"] * 2)
        if project == "palisade":
            todo = [x for x in self.w.palisade if self.terrain(x) == "Dirt" and not occ.get(x)]
            near = [x for x in todo if touching(x, loc)]
            if near:
                return build("Door" if rng.random() < 0.08 else "Wall", rng.choice(near))
            walls = [x for x in self.w.palisade if self.terrain(x) == "Wall" and touching(x, loc)]
            if walls and rng.random() < (0.3 if not todo else 0.03) and spare >= specs["Wall"]["energy"]:
                return [Act(name, "settlement.pull-down", {"at": designate(rng.choice(walls))})]
            if todo:
                targets = set(todo)
                return self.go(name, lambda y: (y[0] + 1, y[1]) in targets or (y[0] - 1, y[1]) in targets, spare, 30)
        elif project == "bridge" and self.w.bridges_left > 0:
            river = self.w.river
            water = [x for x in self.adjacent(loc, ["Water"]) if x[1] - river.get(x[0], -9) in (0, 1)]
            if water:
                plan = build("Bridge", rng.choice(water))
                if plan:
                    self.w.bridges_left -= 1
                return plan
            plan = self.go(name, lambda y: any(x[1] - river.get(x[0], -9) in (0, 1)
                                                for x in self.adjacent(y, ["Water"])), spare, 30)
            if plan:
                return plan
        elif project == "furniture":
            sites = [(x, what) for x, what in self.w.sites if self.terrain(x) == "Dirt" and not occ.get(x)]
            for x, what in sites:
                if touching(x, loc):
                    return build(what, x)
            if sites:
                targets = {x for x, _ in sites}
                return self.go(name, lambda y: any(touching(y, t) for t in targets), spare, 30)
        self.project[name] = None
        return None

    def work_digger(self, name: str, loc: Loc, spare: int) -> list[Act] | None:
        occ = self.occupied_by()
        dry = [x for x in self.adjacent(loc, ["Channel"]) + ([loc] if self.terrain(loc) == "Channel" else [])]
        if dry and spare >= self.hb["fill_channel"]["energy"]:
            return [Act(name, "settlement.fill", {"at": designate(self.rng.choice(dry))})]
        dig = self.hb["tasks"]["dig"]["energy"]
        if spare >= dig and self.w.river_digs_left > 0:
            cut = [x for x in self.adjacent(loc, ["Dirt"]) if not occ.get(x) and x not in self.w.reserved
                   and self.adjacent(x, ["Water"], ORTH.values())]
            if cut:
                self.w.river_digs_left -= 1
                return [Act(name, "settlement.dig", {"at": designate(self.rng.choice(cut))})]
        if spare >= dig and self.rng.random() < 0.1:  # a dry channel, to be filled in later
            cut = [x for x in self.adjacent(loc, ["Dirt"], ORTH.values()) if not occ.get(x) and x not in self.w.reserved
                   and not self.adjacent(x, ["Water", "Channel"])]
            if cut:
                return [Act(name, "settlement.dig", {"at": designate(self.rng.choice(cut))})]
        return self.work_fisher(name, loc, spare)

    def work_hunter(self, name: str, loc: Loc, spare: int) -> list[Act] | None:
        mine = int(self.players()[name]["stats"]["energy"])
        for moose in self.moose():
            born = self.moose_born.get(moose, self.now)
            prey = self.players()[moose]
            ripe = self.now - born >= timedelta(days=5) or int(prey["stats"]["hunger"]) >= 5
            at = self.where(moose)
            if not ripe or at is None:
                continue
            if self.job(name) != "Hunter" and int(prey["stats"]["energy"]) >= mine:
                continue
            if max(abs(at[0] - loc[0]), abs(at[1] - loc[1])) == 1:
                if spare < self.hb["tasks"]["hunt"]["energy"]:
                    return None
                return [Act(name, "settlement.hunt", {"outsider": moose})]
            return self.go(name, lambda x, at=at: max(abs(at[0] - x[0]), abs(at[1] - x[1])) == 1, spare, 60)
        return self.work_gatherer(name, loc, spare)

    def work_dancer(self, name: str, loc: Loc, spare: int) -> list[Act] | None:
        """Dancers live by the plaza: they gather at its bushes, and otherwise do what there is nearby."""
        top, left, bottom, right = self.w.plaza
        if not (top - 10 <= loc[0] <= bottom + 10 and left - 10 <= loc[1] <= right + 10):
            return self.go(name, lambda x: top <= x[0] <= bottom and left <= x[1] <= right, spare, 30)
        if self.rng.random() < 0.6:
            return self.work_gatherer(name, loc, spare)
        return self.work_generalist(name, loc, spare)

    def work_generalist(self, name: str, loc: Loc, spare: int) -> list[Act] | None:
        options = [self.work_gatherer, self.work_fisher, self.work_woodcutter, self.work_miner, self.work_farmer]
        self.rng.shuffle(options)
        for work in options:
            plan = work(name, loc, spare)
            if plan:
                return plan
        return None

    def aim(self, name: str, loc: Loc) -> dict[str, Any] | None:
        """Where a Colonist next to a catapult may fire it: an empty square Outside, in range; or None."""
        cats = self.adjacent(loc, ["Catapult"])
        ammo = "Rock" if self.stock("Rock") >= 60 else "Anvil" if self.stock("Anvil") >= 1 else None
        if not cats or ammo is None:
            return None
        cat = self.rng.choice(cats)
        m = self.the_map()
        lo, hi = self.hb["tasks"]["catapult"]["range"]
        occ = self.occupied_by()
        targets = [(cat[0] + dr * k, cat[1] + dc * k) for dr, dc in ORTH.values() for k in range(lo, hi + 1)]
        targets = [t for t in targets if m.inside(t) and not occ.get(t) and not m.indoors(t)]
        if not targets or m.indoors(cat):
            return None
        return {"catapult": designate(cat), "target": designate(self.rng.choice(targets)), "ammo": ammo}

    def practice(self) -> Plan:
        """On Saturday afternoons somebody who has not pulled anything down lately fires a catapult (all their
        Energy) at an empty square, when there is one they can walk to and still fire."""
        while True:
            monday = week_start(self.now)
            yield Wait(monday + timedelta(days=5, hours=14, minutes=self.rng.randint(0, 120)))
            spec = self.hb["tasks"]["catapult"]
            ps = self.players()
            best = None
            for name in self.colonists():
                at, energy = self.where(name), int(ps[name]["stats"]["energy"])
                pulled = self.doc("colony").get("pulled_down", {}).get(name)
                if at is None or name in self.busy or not spec["min_energy"] <= energy <= 80 \
                        or not self.may_exhaust(name) or self.terrain(at) == "Smoke" \
                        or (pulled and self.now - parse_time(pulled) < timedelta(hours=spec["quiet_hours"] + 1)):
                    continue
                route = self.path(at, lambda y: bool(self.adjacent(y, ["Catapult"])), 20)
                if route is not None and energy - self.step_cost(name) * len(route) >= spec["min_energy"] \
                        and (best is None or len(route) < len(best[1])):
                    best = (name, route)
            if best is not None:
                name, route = best
                self.busy.add(name)
                if route:
                    yield Act(name, "settlement.move", {"path": route})
                    yield Wait(self.now + timedelta(minutes=self.rng.randint(2, 20)))
                params = self.aim(name, self.where(name))  # type: ignore[arg-type]
                if params:
                    yield Act(name, "settlement.fire", params)
                self.busy.discard(name)
            yield Wait(monday + timedelta(days=7))

    def shove(self, name: str, loc: Loc) -> list[Act] | None:
        """Push a neighbour one square away (all your Energy), onto Dirt."""
        energy = int(self.players()[name]["stats"]["energy"])
        if not (self.hb["tasks"]["shove"]["min_energy"] <= energy <= 30 and self.may_exhaust(name)):
            return None
        occ = self.occupied_by()
        for dr, dc in KING:
            there = (loc[0] + dr, loc[1] + dc)
            to = (loc[0] + 2 * dr, loc[1] + 2 * dc)
            victims = [v for v in occ.get(there, []) if v in self.trades and v not in self.busy]
            if victims and self.walkable(to) and self.terrain(to) == "Dirt":
                return [Act(name, "settlement.shove", {"colonist": self.rng.choice(victims)})]
        return None

    # ------------------------------------------------------------ the Moose (the Leader files their actions)

    def moose_turn(self, name: str) -> Act | None:
        p = self.players().get(name)
        loc = self.where(name)
        if p is None or loc is None:
            return None
        energy, hunger = int(p["stats"]["energy"]), int(p["stats"]["hunger"])
        graze = self.hb["outsiders"].get("Moose", {}).get("graze", {})
        on = self.terrain(loc)
        if on in graze and hunger >= graze[on] and energy >= self.hb["tasks"]["graze"]["energy"]:
            return Act(name, "settlement.graze")
        if energy < 12 and self.can_rest(name):
            return Act(name, "settlement.rest")
        step = self.hb["movement"]["energy"]
        if energy < step or hunger < 1:
            return None
        route = self.path(loc, lambda x: hunger >= graze.get(self.terrain(x), 99), 15, outsider=True)
        if not route:
            free = [d for d, (dr, dc) in ORTH.items() if self.walkable((loc[0] + dr, loc[1] + dc), True)]
            route = self.rng.choice(free) if free else ""
        route = route[:min(4, energy // step)]
        return Act(name, "settlement.move", {"path": route}) if route else None

    def moose_life(self, name: str) -> Plan:
        while name in self.players():
            yield Wait(self.now + timedelta(minutes=self.rng.randint(60, 240)))
            if name in self.players():
                yield self.moose_turn(name)

    # ------------------------------------------------------------ the Leader's week

    def leader_weeks(self) -> Plan:
        week = 0
        while True:
            monday = week_start(self.now)
            yield Wait(monday + timedelta(hours=7))
            yield Act(LEADER, "engine.tick")  # the scheduled workflow's tick: the crops have grown
            # hunger, unless somebody would starve of it (then the Leader waits, until Wednesday)
            yield Wait(monday + timedelta(hours=10, minutes=self.rng.randint(0, 90)))
            limit = self.hb["hunger"]["dies_at"] - self.hb["hunger"]["weekly"]
            while self.now < monday + timedelta(days=3):
                hungry = [n for n, p in self.players().items() if n != LEADER and int(p["stats"]["hunger"]) >= limit]
                if not hungry and self.weekly_ok(LEADER, "settlement.hunger"):
                    yield Act(LEADER, "settlement.hunger")
                    break
                yield Wait(self.now + timedelta(hours=2))
            # a Moose, when there is room for one
            yield Wait(self.now + timedelta(minutes=self.rng.randint(30, 240)))
            plan = self.new_moose()
            if plan:
                applied = yield plan
                for step in applied.outcome:
                    if isinstance(step, dict) and "outsider" in step:
                        self.moose_born[step["outsider"]] = self.now
                        self.scripts.append(Script(self.moose_life(step["outsider"]), 2.0, self.now))
            if week in (1, 3):
                target = self.traitor()
                if target:
                    yield Wait(self.now + timedelta(hours=self.rng.randint(1, 4)))
                    yield Act(LEADER, "settlement.make-traitor", {"colonist": target})
            week += 1
            yield Wait(monday + timedelta(days=7))

    def new_moose(self) -> Act | None:
        made = [parse_time(t) for t in self.doc("colony").get("outsiders_created", {}).get("Moose", [])]
        if any(t >= week_start(self.now) for t in made) or (made and self.now - max(made) < timedelta(hours=25)):
            return None
        if len(self.moose()) >= self.hb["outsider_limit"] or self.rng.random() < 0.3:
            return None
        occ = self.occupied_by()
        row0 = [(0, c) for c in range(len(self.rows()[0])) if self.walkable((0, c), True) and not occ.get((0, c))]
        # on a Bush (it grazes), in the north where the Hunters live: near one of them
        hunters = [self.where(n) for n, role in self.trades.items() if role == "hunter"]
        cols = [h[1] for h in hunters if h is not None] or [len(self.rows()[0]) // 2]
        col = self.rng.choice(cols)
        bushes = [x for x in row0 if self.terrain(x) == "Bush" and abs(x[1] - col) <= 15]
        spot = self.rng.choice(bushes or row0)
        return Act(LEADER, "settlement.create-outsider", {"type": "Moose", "at": designate(spot)})

    def traitor(self) -> str | None:
        ps = self.players()
        if sum(1 for n in self.colonists() if ps[n]["stats"]["job"] == "Traitor") >= 2:
            return None
        candidates = [n for n in self.colonists() if ps[n]["stats"]["job"] == "Peasant" and n not in self.busy]
        return max(candidates, key=lambda n: (int(ps[n]["stats"]["stress"]), n)) if candidates else None

    # ------------------------------------------------------------ dances, twice a week

    def dances(self) -> Plan:
        k = 0
        while True:
            monday = week_start(self.now)
            for day in (1, 4):
                yield Wait(monday + timedelta(days=day, hours=9, minutes=self.rng.randint(0, 120)))
                k += 1
                for _ in range(4):  # not enough dancers about: try again later in the day
                    if (yield from self.dance([DANCES[(k + j) % len(DANCES)] for j in range(len(DANCES))])):
                        break
                    yield Wait(self.now + timedelta(hours=3))
                self.busy.clear()
            yield Wait(monday + timedelta(days=7))

    def formation(self, kind: str, r: int, c: int, n: int) -> list[Loc]:
        if kind == "square":
            return [(r + 2 * i, c + 2 * j) for i in (0, 1) for j in range(n // 2)]
        if kind == "waltz":
            return [(r + 2 * i, c + j) for i in range(n // 2) for j in (0, 1)]
        if kind == "conga":
            return [(r, c + j) for j in range(n)]
        return [(r - 2, c), (r, c - 2), (r, c + 2), (r + 2, c)]

    def line_up(self, kind: str) -> tuple[list[Loc], list[str], str] | None:
        """Where on the plaza a dance of this kind is danced, by whom (in the order the declaration lists
        them), and who calls it (a Conga's caller is its front); or None when too few can come."""
        rng = self.rng
        n = {"square": rng.choice([4, 4, 6]), "waltz": 6, "conga": rng.choice([4, 5, 6]), "hokey-kokey": 4}[kind]
        top, left, bottom, right = self.w.plaza
        ps = self.players()
        able = {}  # who could come: not hungry, not dancing already, not in Smoke
        for name in self.colonists():
            at = self.where(name)
            if at is not None and name not in self.busy and int(ps[name]["stats"]["hunger"]) < 4 \
                    and self.terrain(at) != "Smoke":
                able[name] = (at, int(ps[name]["stats"]["energy"]), self.step_cost(name))
        for _ in range(30):
            r, c = rng.randint(top + 2, bottom - 4), rng.randint(left + 4, right - 6)
            spots = self.formation(kind, r, c, n)
            march = [(r, c - j) for j in range(1, 4)] if kind == "conga" else []
            if not all(self.walkable(x) and self.terrain(x) == "Dirt" for x in spots + march):
                continue
            near = sorted((abs(at[0] - r) + abs(at[1] - c), name) for name, (at, _, _) in able.items())
            near = [name for d, name in near if d <= 20]
            dancers: list[str] = []
            for i, spot in enumerate(spots):  # each place to the nearest who can walk there (a Conga's front calls)
                for name in near:
                    at, energy, step = able[name]
                    if name in dancers or (i == 0 and kind == "conga" and not self.weekly_ok(name, "settlement.dance")):
                        continue
                    if step * (abs(at[0] - spot[0]) + abs(at[1] - spot[1])) + 2 > energy:
                        continue
                    route = self.path(at, lambda x, s=spot: x == s, 28)
                    if route is not None and step * len(route) + 2 <= energy:
                        dancers.append(name)
                        break
                else:
                    break
            if len(dancers) < n:
                continue
            callers = [x for x in dancers if self.weekly_ok(x, "settlement.dance")]
            if callers:
                return spots, dancers, dancers[0] if kind == "conga" else rng.choice(callers)
        return None

    def dance(self, kinds: list[str]) -> Generator[Act | Wait | None, Any, bool]:
        colony = self.doc("colony").get("dances", [])
        if any(d["status"] == "open" and self.now - parse_time(d["opened"]) < timedelta(hours=self.hb["dance"]["hours"])
               for d in colony):
            return
        # a kind may not be danced again within seven days (dance_reuse: type); the dance ends within 48 hours
        recent = {d.get("kind") for d in colony if d.get("at") and self.now - parse_time(d["at"]) < timedelta(days=7)}
        for kind in kinds:
            if kind in recent:
                continue
            found = self.line_up(kind)
            if found:
                break
        else:
            return False
        spots, dancers, caller = found
        self.busy.update(dancers)
        yield from self.dance_it(kind, spots, dancers, caller)
        return True

    def dance_it(self, kind: str, spots: list[Loc], dancers: list[str], caller: str) -> Plan:
        """Call the dance, walk to the places, declare it; a Conga then marches."""
        rng = self.rng
        yield Act(caller, "settlement.dance")
        dance_id = max(d["id"] for d in self.doc("colony")["dances"])
        for name, spot in zip(dancers, spots):
            while self.where(name) != spot:
                yield Wait(self.now + timedelta(minutes=rng.randint(2, 25)))
                at = self.where(name)
                route = self.path(at, lambda x, s=spot: x == s, 30) if at else None
                energy = int(self.players()[name]["stats"]["energy"])
                if not route or energy < self.step_cost(name) * len(route):
                    return  # the dance is not danced; it lapses after 48 hours
                yield Act(name, "settlement.move", {"path": route[:20]})
        yield Wait(self.now + timedelta(minutes=rng.randint(5, 30)))
        if any(self.where(x) != s for x, s in zip(dancers, spots)):
            return
        declarer = rng.choice(dancers)
        yield Act(declarer, "settlement.dance-success", {"dance": dance_id, "kind": kind, "participants": dancers})
        if kind == "conga":
            yield Wait(self.now + timedelta(minutes=rng.randint(3, 20)))
            front = self.where(caller)
            steps = 0
            while steps < 10 and front and self.walkable((front[0], front[1] - steps - 1)) \
                    and self.terrain((front[0], front[1] - steps - 1)) == "Dirt":
                steps += 1
            # each conga move costs the front a move's Energy (seed 001 Lord of the Dance: moves of rule 2.3.1)
            steps = min(steps, int(self.players()[caller]["stats"]["energy"]) // self.step_cost(caller))
            if steps:
                yield Act(caller, "settlement.conga-move", {"path": "W" * rng.randint(1, steps)})

    # ------------------------------------------------------------ proposals

    def effects(self, i: int) -> dict[str, Any] | None:
        rng = self.rng
        names = self.colonists()
        kind = i % 8
        hb = self.hb
        if kind == 0:
            return None
        if kind == 1:
            return {"gamestate": [{"op": "replace", "path": "/handbook/tasks/fish/food",
                                   "value": 2 if hb["tasks"]["fish"]["food"] == 1 else 1}]}
        if kind == 2:
            return {"gamestate": [
                {"op": "replace", "path": "/stockpile/items/Food", "value": self.stock("Food") + 150},
                {"op": "replace", "path": "/stockpile/items/Drinks", "value": self.stock("Drinks") + 60}]}
        if kind == 3:
            return {"gamestate": [{"op": "replace", "path": f"/roster/players/name={who}/stats/stress", "value": 0}
                                  for who in rng.sample(names, 4)]}
        if kind == 4:
            rid = rng.choice(sorted(r for r, rule in self.b.state.rules.items()
                                    if rule.meta.get("status") == "active" and rule.meta.get("section") == "dynastic"))
            return {"rules": [{"op": "amend", "id": rid,
                               "body": self.b.state.rules[rid].body.rstrip() + f"\n\nAmended by proposal {i}: "
                               + " ".join(rng.choice(WORDS) for _ in range(30)) + "\n"}]}
        if kind == 5:
            return {"gamestate": [{"op": "replace", "path": "/handbook/dance/energy",
                                   "value": 20 if hb["dance"]["energy"] == 15 else 15}]}
        if kind == 6:
            return {"gamestate": [
                {"op": "replace", "path": "/stockpile/items/Wood", "value": self.stock("Wood") + 80},
                {"op": "replace", "path": "/stockpile/items/Seeds", "value": self.stock("Seeds") + 30}]}
        return {"gamestate": [{"op": "replace", "path": f"/roster/players/name={rng.choice(names)}/stats/energy",
                               "value": rng.randint(60, 100)}]}

    def proposals(self) -> Plan:
        rng = self.rng
        i = 0
        while True:
            yield Wait(self.now + timedelta(hours=rng.randint(20, 50) if i else rng.randint(2, 6)))
            i += 1
            names = self.colonists()
            author = rng.choice(names)
            params: dict[str, Any] = {"title": f"Proposal {i}: the {rng.choice(WORDS)} {rng.choice(WORDS)}",
                                      "text": " ".join(rng.choice(WORDS) for _ in range(40))}
            eff = self.effects(i)
            if eff:
                params["effects"] = eff
            applied = yield Act(author, "core.propose", params)
            pid = applied.outcome[0]["proposal"]
            submitted = self.now
            active = [n for n, p in self.players().items() if not p.get("kind") and not p.get("idle")]
            quorum = len(active) // 2 + 1
            voters = [n for n in active if n not in (author, LEADER)]
            rng.shuffle(voters)
            fail = i % 6 == 3
            against = len(active) - quorum + 2  # enough AGAINST that it can never reach Quorum
            count = min(len(voters), (against if fail else quorum) + rng.randint(2, 14))
            for k, voter in enumerate(voters[:count]):
                if fail:
                    vote = "AGAINST" if k < against else rng.choice(["FOR", "DEFERENTIAL"])
                else:
                    vote = "FOR" if k < quorum else rng.choice(["FOR", "AGAINST", "AGAINST", "DEFERENTIAL"])
                yield Act(voter, "core.vote", {"proposal": pid, "vote": vote})
                if k == 7 and rng.random() < 0.4:  # a change of mind, to the same vote
                    yield Act(voter, "core.vote", {"proposal": pid, "vote": vote})
            yield Wait(max(self.now, submitted + timedelta(hours=12, minutes=rng.randint(5, 240))))
            admin = rng.choice([n for n, p in self.players().items() if p.get("admin")])
            yield Act(admin, "core.fail" if fail else "core.enact", {"proposal": pid})

    # ------------------------------------------------------------ the day

    def morning(self) -> None:
        """No actions between 22:30 and 07:00."""
        t = self.b.t
        if t.hour * 60 + t.minute >= 22 * 60 + 30:
            nxt = (t + timedelta(days=1)).replace(hour=7, minute=0, second=0)
            self.b.at_least(nxt + timedelta(minutes=self.rng.randint(0, 40)))
        elif t.hour < 7:
            self.b.at_least(t.replace(hour=7, minute=self.rng.randint(0, 40), second=0))

    def run(self) -> Builder:
        rng = self.rng
        self.scripts = [Script(self.leader_weeks(), 20.0, START), Script(self.dances(), 6.0, START),
                        Script(self.proposals(), 3.0, START), Script(self.practice(), 6.0, START)]
        while len(self.b.records) < self.target - 3:
            self.morning()
            minutes = self.gap()
            self.now = self.b.t + timedelta(minutes=minutes)
            ready = [s for s in self.scripts if s.ready <= self.now]
            if ready and rng.random() < 0.4:
                s = rng.choices(ready, weights=[x.weight for x in ready])[0]
                try:
                    step = s.gen.send(s.sent)
                except StopIteration:
                    self.scripts.remove(s)
                    continue
                s.sent = None
                if isinstance(step, Wait):
                    s.ready = step.until
                elif isinstance(step, Act):
                    s.sent = self.act(step, minutes)
                else:
                    s.ready = self.now + timedelta(minutes=30)
                continue
            if not self.colonist_turn(minutes):
                self.b.at_least(self.b.t + timedelta(minutes=20))
        while len(self.b.records) < self.target:
            self.act(Act(rng.choice(self.colonists()), "engine.tick"), 30)
        return self.b

    def colonist_turn(self, minutes: float) -> bool:
        names = [n for n in self.colonists() if n not in self.busy and self.sleep.get(n, START) <= self.now]
        for name in self.rng.sample(names, min(8, len(names))):
            plan = self.turn(name)
            if not plan:
                self.sleep[name] = self.now + timedelta(minutes=self.rng.randint(60, 240))
                continue
            room = self.target - 3 - len(self.b.records)
            for k, a in enumerate(plan[:max(1, room)]):
                self.act(a, minutes if k == 0 else self.rng.choice([1, 2]))
            return True
        return False


# ---------------------------------------------------------------- the game


def generate(out: Path, *, game: str = "big", players: int = 100, actions: int = 10000, seed: int = 1,
             git: bool = False, progress: bool = False, size: int = 200) -> Path:
    """Write the Settlement game under ``out/content/<game>`` (a ``size`` by ``size`` map); returns that folder."""
    rng = random.Random(seed)
    folder = out / "content" / game
    if folder.exists():
        shutil.rmtree(folder)
    start, world, trades = initial_state(players, rng, size)
    b = Colony(start, world, trades, rng, actions, progress).run()
    return write_game(out, game, start, b, git)
