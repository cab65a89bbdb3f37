"""The large synthetic game of the ``monkey`` module (the Monkey dynasty under BlogNomic's core rules).

    .venv/bin/python -m bench.gen --module monkey [--out DIR] [--players 100] [--actions 10000] [--git]

Modelled on the module's example game (``content/monkey/``): the same game.yaml options, ruleset,
move list, hammer list, Hat List, the four NPCs and the five kinds of item, at scale: ``players``
Monkeys (P000, P001, ...) each with every stat the roster declares, a Monkey Line of all of them
and the NPCs, one Dance section per Monkey, a few dozen items. The founding Line is a little
Unbalanced (a gap and two doubled positions near its end), as a Line is after a quarrel.

The history is a plausible day-by-day game: Monkeys rewrite their sections, change hammers once
a week, use their items, post and vote on Awesomeness Posts, propose and vote (some proposals
patch the move list, the roster or the items, or amend a rule), admins enact or fail the oldest
pending proposal, anyone closes a finished Awesomeness Post, trims a section that has grown past
its Monkey's Dance Moves, or balances the Line; every two or three days, in the evening, the Line
is balanced and somebody conducts the Dance. A tick early each Sunday lets the items be
reactivated. Every action is chosen from the state it will meet (the engine's own view at its
time, scheduled events applied), so each is legal; the engine judges it all the same.

Deterministic for a given seed.
"""

from __future__ import annotations

import random
import shutil
import sys
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from bench.common import Builder, example_rules, player_names, write_game
from validators import yamlio
from validators.engine import Rule, State, advance
from validators.games.blognomic.proposals import enactable_reason, failable_reason
from validators.games.monkey.items import ACTIVE, usable
from validators.games.monkey.moves import WORD, parse_entry, total_complexity
from validators.games.monkey.options import options as monkey_options
from validators.games.monkey.world import BARE, IN_BARREL, IN_LINE, World
from validators.roster import quorum
from validators.timeutil import day_start, format_time, frequency_violation, parse_time

ROOT = Path(__file__).resolve().parent.parent

UTC = timezone.utc
EXAMPLE = ROOT / "content/monkey"
FOUNDED = datetime(2026, 1, 5, tzinfo=UTC)  # a Monday
LATEST = datetime(2026, 11, 21, 12, tzinfo=UTC)  # the benchmarks check at 2026-11-22; nothing may be later
NPC_HAMMERS = {"magnet-revert": "Magnet", "king-kong": "Shot-gun"}
WORDS = ["banana", "barrel", "chalk", "square", "swing", "leap", "bow", "smash", "hat", "hammer", "jungle", "vine",
         "coconut", "drum", "rhythm", "fountain", "rock", "frisbee", "charm", "line", "dance"]
# Items at scale: (kind, size, how many), named after the example game's items
ITEM_KINDS = (("monkey-ball", "small", 12), ("flaming-frisbee", "small", 10), ("big-rock", "large", 6),
              ("good-luck-charm", "pocket-size", 10), ("banana-fountain", "massive", 6))
MAX_GAP = 20  # a Big Rock or a Good Luck Charm is used only if the Line can be balanced in this many move-ups


class Done(Exception):
    """The history has its number of actions."""


# ---------------------------------------------------------------- the founding state


def _example(kind: str) -> Any:
    path = EXAMPLE / "initial/gamestate" / f"{kind}.yaml"
    return yamlio.load(path.read_text(encoding="utf-8"), str(path))


def initial_rules() -> dict[str, Rule]:
    """The example game's ruleset, re-dated to this game's founding."""
    return example_rules(EXAMPLE, FOUNDED)


def fill_move(name: str, rng: random.Random, line_len: int) -> str:
    """A move's name with each ``n_`` word replaced by a position (the same word by the same value)."""
    values: dict[str, int] = {}
    out = []
    for token in name.split():
        if WORD.match(token):
            if token not in values:
                lo = 2 if "Left Smash" in name else 1
                hi = max(lo, line_len - (1 if "Right Smash" in name else 0))
                v = rng.randint(lo, hi) if rng.random() < 0.95 else hi + rng.randint(1, 3)
                while v in values.values() and hi > lo:  # Swing 3 to 3 is legal but dull
                    v = rng.randint(lo, hi)
                values[token] = v
            out.append(str(values[token]))
        else:
            out.append(token)
    return " ".join(out)


def make_section(rng: random.Random, moves: list[dict[str, Any]], dance_moves: int, line_len: int) -> list[str]:
    """A section whose total complexity is within ``dance_moves``."""
    budget = dance_moves if rng.random() < 0.7 else rng.randint(0, dance_moves)
    out: list[str] = []
    for _ in range(rng.randint(1, 6)):
        fits = [m for m in moves if int(m["complexity"]) <= budget]
        if not fits:
            break
        m = rng.choice(fits)
        out.append(fill_move(m["name"], rng, line_len))
        budget -= int(m["complexity"])
    return out


def initial_state(n: int, rng: random.Random) -> State:
    """The founding state: the example game's documents, with ``n`` Monkeys, re-dated to FOUNDED."""
    founded = format_time(FOUNDED)
    config = yamlio.load((EXAMPLE / "game.yaml").read_text(encoding="utf-8"), "game.yaml")
    config["name"] = "Large synthetic Monkey dynasty (benchmark)"
    config["description"] = "Generated by bench/gen_monkey.py after the example game content/monkey; not a real game."
    example_roster = _example("roster")
    kit = _example("monkey_kit")
    dance = _example("monkey_dance")
    example_items = {i["kind"]: i for i in _example("monkey_items")["items"]}
    hammers = [h["name"] for h in kit["hammers"]]
    hats = list(kit["hats"])

    names = player_names(n)
    barrel = set(rng.sample(names[1:], min(3, max(0, n - 1))))
    players = []
    for i, name in enumerate(names):
        dm = 10 if i == 0 else rng.randint(1, 12)  # the Top Banana has ten Dance Moves at founding
        stats = {"bananas": rng.randint(0, 25), "dance_moves": dm, "hammer": rng.choice(hammers),
                 "hat": rng.choice(hats + hats + [BARE]), "status": IN_BARREL if name in barrel else IN_LINE,
                 "awesomeness": rng.choice([0, 0, 0, 1, 1, 2, 3])}
        players.append({"name": name, "account": f"{name.lower()}-monkey", "admin": i < 5, "idle": False,
                        "joined": founded, "stats": stats})
    npcs = dict(kit["npcs"])
    for npc, behaviour in npcs.items():
        stats = {"bananas": rng.randint(0, 25), "dance_moves": rng.randint(1, 12),
                 "hammer": NPC_HAMMERS.get(behaviour, rng.choice(hammers)), "hat": rng.choice(hats),
                 "status": IN_LINE, "awesomeness": 0}
        players.append({"name": npc, "admin": False, "idle": False, "joined": founded, "kind": "npc", "stats": stats})
    # The Line: everyone not in the barrel, shuffled; near its end a gap, then two doubled positions
    in_line = [p["name"] for p in players if p["name"] not in barrel]
    rng.shuffle(in_line)
    head, tail = in_line[:-4], in_line[-4:]
    at: dict[str, int] = {m: k + 1 for k, m in enumerate(head)}
    if len(head) > 3:
        for m in head[-2:]:
            at[m] += 1  # an empty position before the last two of the head
    last = max(at.values(), default=0)
    for k, m in enumerate(tail):
        at[m] = last + 1 + k // 2
    positions: dict[int, list[str]] = {}
    for m, p in at.items():
        positions.setdefault(p, []).append(m)
    line = {"positions": [{"at": p, "monkeys": sorted(ms)} for p, ms in sorted(positions.items())],
            "barrel": [{"name": m, "since": founded} for m in sorted(barrel)]}
    line_len = len(in_line)
    # A Monkey or two near the end of the Line with no Dance Moves left: All Danced Out after the first dance
    near_end = [m for m in head[-10:] if m in names and m != names[0]]
    for m in rng.sample(near_end, min(2, len(near_end))):
        players[names.index(m)]["stats"]["dance_moves"] = 0

    # Items: the example's five, many times over; held by Monkeys in the Line (pocket-size ones also in
    # the barrel), a few lying in positions beyond the end of the Line
    items = []
    holders_line = [m for m in in_line if m in names]
    for kind, size, count in ITEM_KINDS:
        model = example_items[kind]
        for k in range(count):
            name = model["name"] if k == 0 else f"{model['name']} {k + 1}"
            item = {"name": name, "size": size, "kind": kind, "description": model["description"]}
            if kind == "banana-fountain":
                item["status"] = rng.choice(["Active - 3 left", "Active - 3 left", "Active - 2 left"])
            else:
                item["status"] = ACTIVE if rng.random() < 0.85 else "Deactivated"
            r = rng.random()
            if r < 0.1 or (kind == "banana-fountain" and r < 0.5):
                item["lies_at"] = line_len + rng.randint(2, 8)
            elif size == "pocket-size" and barrel and r < 0.3:
                item["held_by"] = rng.choice(sorted(barrel))
            else:
                item["held_by"] = rng.choice(holders_line)
            items.append(item)

    sections = []
    for p in players[:n]:
        moves = [] if rng.random() < 0.1 else make_section(rng, dance["moves"], p["stats"]["dance_moves"], line_len)
        sections.append({"monkey": p["name"], "moves": moves, "updated": founded})

    docs = {
        "roster": {"stats": example_roster["stats"], "players": players},
        "ledger": {"clock": founded, "actions": 0, "head": ""},
        "proposals": {"next": 1, "proposals": []},
        "cfjs": {"next": 1, "cfjs": []},
        "dovs": {"next": 1, "dovs": []},
        "dynasty": {"number": 1, "leader": names[0], "title": f"The First Dynasty of {names[0]}",
                    "theme": "The Monkey Dance", "started": founded},
        "monkey_line": line,
        "monkey_dance": {"moves": dance["moves"], "sections": sections, "history": []},
        "monkey_kit": kit,
        "monkey_items": {"items": items},
        "monkey_awesomeness": {"next": 1, "posts": []},
    }
    return State(config, docs, initial_rules())


# ---------------------------------------------------------------- the history


@dataclass
class Plan:
    """The votes still to come on a proposal or an Awesomeness Post."""

    kind: str  # "proposal" or "post"
    ident: int
    created: datetime
    votes: list[tuple[str, str]] = field(default_factory=list)


# an action chosen: actor, action, params, and what to note once it is taken
Planned = tuple[str, str, Any, Any]


class History:
    """Makes the game's history one planned action at a time."""

    def __init__(self, state: State, actions: int, rng: random.Random, progress: bool = False):
        self.rng = rng
        self.target = actions
        self.progress = progress
        self.b = Builder(state, rng, FOUNDED)
        self.opts = monkey_options(state.config)
        self.monkeys = [p["name"] for p in state.players() if not p.get("kind")]
        self.admins = [p["name"] for p in state.players() if p.get("admin")]
        self.plans: list[Plan] = []
        self.tasks: list[Any] = []
        self.index = 0
        self.items_added = 0
        self.proposals_made = 0
        self.last_dance: datetime | None = None
        self.complexity: dict[tuple[Any, str], int] = {}

    # ------------------------------------------------------------ acting

    def view(self, at: datetime) -> State:
        """The state as an action at ``at`` will meet it (scheduled events applied)."""
        return advance(self.b.registry, self.b.state, at)[0]

    def run(self, plan: Any, minutes: int) -> Any:
        at = self.b.t + timedelta(minutes=minutes)
        if at > LATEST:
            raise ValueError(f"the history runs past {format_time(LATEST)}; ask for fewer actions")
        planned = plan(self.view(at), at)
        if planned is None:
            return None
        actor, action, params, after = planned
        applied = self.b.act(actor, action, params, minutes=minutes)
        if after is not None:
            after(applied)
        if self.progress and len(self.b.records) % 1000 == 0:
            print(f"  {len(self.b.records)} actions ({format_time(self.b.t)})", file=sys.stderr)
        if len(self.b.records) >= self.target:
            raise Done
        return applied

    def world(self, st: State, at: datetime) -> World:
        return World.load(st, self.opts, format_time(at))

    # ------------------------------------------------------------ the days

    def build(self) -> Builder:
        if self.target <= 0:
            return self.b
        day = FOUNDED
        dance_every = 2
        try:
            while True:
                dance_today = self.last_dance is None or (day - day_start(self.last_dance)).days >= dance_every
                self.one_day(day, dance_today)
                if dance_today and self.last_dance is not None and day_start(self.last_dance) == day:
                    dance_every = self.rng.choice([2, 2, 3])
                day += timedelta(days=1)
        except Done:
            pass
        return self.b

    def one_day(self, day: datetime, dance: bool) -> None:
        rng = self.rng
        if day.weekday() == 6 and day > FOUNDED:
            # Sunday 00:00: the items are activated again; somebody up late lets the time pass
            self.b.at_least(day)
            self.run(self.plan_tick, rng.randint(1, 40))
        self.b.at_least(day + timedelta(hours=7, minutes=rng.randint(0, 90)))
        tasks: list[Any] = ["resolve", "close", "close"]
        tasks += ["propose"] * rng.choice([0, 1, 1, 1, 2])
        tasks += ["post"] * rng.choice([0, 1, 1, 1, 2])
        tasks += ["section"] * rng.randint(10, 18)
        tasks += ["hammer"] * rng.randint(3, 8)
        tasks += ["item"] * rng.randint(4, 9)
        tasks += ["trim"] * rng.randint(0, 2)
        tasks += ["balance"] * rng.randint(4, 12)
        tasks += ["resolve"] * 2
        for plan in self.plans:
            age = (day - day_start(plan.created)).days
            if plan.kind == "post" or age >= 2:
                share = len(plan.votes)
            else:
                share = int(len(plan.votes) * rng.uniform(0.5, 0.8))
            tasks += [("vote", plan)] * share
        rng.shuffle(tasks)
        if dance:
            tasks += ["balance-all", "dance", "section", "trim"]
        self.tasks, self.index = tasks, 0
        end = day + timedelta(hours=19 if dance else 22, minutes=rng.randint(0, 60))
        while self.index < len(self.tasks):
            task = self.tasks[self.index]
            self.index += 1
            left = max(1, len(self.tasks) - self.index + 1)
            gap = max(1, int((end - self.b.t).total_seconds() / 60 / left))
            minutes = max(1, int(gap * rng.uniform(0.4, 1.6)))
            if isinstance(task, tuple):
                self.run(lambda st, at, p=task[1]: self.plan_vote(st, at, p), minutes)
            elif task == "balance-all":
                while self.run(self.plan_balance, rng.randint(1, 4)) is not None:
                    pass
            elif task == "dance":
                self.b.at_least(day + timedelta(hours=19, minutes=rng.randint(0, 120)))
                if self.run(self.plan_dance, 1) is not None:
                    self.last_dance = self.b.t
            else:
                self.run(getattr(self, f"plan_{task}"), minutes)
        self.plans = [p for p in self.plans if p.votes]

    def later_today(self, items: list[Any]) -> None:
        """Put ``items`` among today's tasks still to come."""
        for it in items:
            self.tasks.insert(self.rng.randint(self.index, len(self.tasks)), it)

    # ------------------------------------------------------------ choosing each action

    def plan_tick(self, st: State, at: datetime) -> Planned:
        return self.rng.choice(self.monkeys), "engine.tick", None, None

    def plan_section(self, st: State, at: datetime) -> Planned | None:
        rng = self.rng
        dance = st.doc("monkey_dance")
        moves = dance["moves"]
        over = [s["monkey"] for s in dance["sections"] if self._over(st, s)]
        who = rng.choice(over) if over and rng.random() < 0.6 else rng.choice(self.monkeys)
        dm = int(st.player(who)["stats"]["dance_moves"])
        line_len = len(self.world(st, at).pos)
        section = make_section(rng, moves, dm, line_len)
        return who, "monkey.update-section", {"moves": section}, None

    def _over(self, st: State, section: dict[str, Any]) -> bool:
        """Whether a section's total complexity exceeds its Monkey's Dance Moves (entries parsed once)."""
        moves = st.doc("monkey_dance")["moves"]
        key = tuple((m["name"], m["complexity"]) for m in moves)
        total = 0
        for text in section["moves"]:
            c = self.complexity.get((key, text))
            if c is None:
                try:
                    c = total_complexity([parse_entry(text, moves)])
                except ValueError:
                    c = 0
                self.complexity[(key, text)] = c
            total += c
        return total > int(st.player(section["monkey"])["stats"]["dance_moves"])

    def plan_trim(self, st: State, at: datetime) -> Planned | None:
        over = [s["monkey"] for s in st.doc("monkey_dance")["sections"] if self._over(st, s)]
        if not over:
            return None
        return self.rng.choice(self.monkeys), "monkey.trim-section", {"monkey": self.rng.choice(over)}, None

    def plan_hammer(self, st: State, at: datetime) -> Planned | None:
        rng = self.rng
        recent = st.doc("ledger").get("recent", {})
        for _ in range(20):
            who = rng.choice(self.monkeys)
            previous = [parse_time(t) for t in recent.get(who, {}).get("monkey.change-hammer", [])]
            if frequency_violation("weekly", previous, at) is None:
                current = st.player(who)["stats"]["hammer"]
                choices = [h["name"] for h in st.doc("monkey_kit")["hammers"] if h["name"] != current]
                return who, "monkey.change-hammer", {"hammer": rng.choice(choices)}, None
        return None

    def plan_item(self, st: State, at: datetime) -> Planned | None:
        rng = self.rng
        w = self.world(st, at)
        balanced = not w.is_unbalanced()
        options: list[tuple[str, dict[str, Any]]] = []
        for item in st.doc("monkey_items")["items"]:
            holder = item.get("held_by")
            if holder not in self.monkeys or not usable(item):
                continue
            kind = item["kind"]
            params: dict[str, Any] = {"item": item["name"]}
            mine = w.pos.get(holder)
            if kind == "banana-fountain":
                if item.get("last_used") and day_start(parse_time(item["last_used"])) == day_start(at):
                    continue
            elif kind == "flaming-frisbee":
                if mine is None:
                    continue
                others = [p for p in set(w.pos.values()) if p != mine]
                if rng.random() < 0.1 or not others:
                    params["target"] = w.last() + rng.randint(1, 5)
                else:
                    params["target"] = rng.choice(sorted(others))
            elif kind == "big-rock":
                if mine is None or not balanced:
                    continue
                near = [p for p in (mine - 1, mine + 1) if w.at(p) and not w.kong_holds(w.at(p)[0])
                        and w.last() - p <= MAX_GAP]
                if not near:
                    continue
                params["target"] = rng.choice(near)
            elif kind == "good-luck-charm" and mine is not None and (not balanced or w.last() - mine > MAX_GAP):
                continue
            options.append((holder, params))
        if not options:
            return None
        holder, params = rng.choice(options)
        return holder, "monkey.use-item", params, None

    def plan_balance(self, st: State, at: datetime) -> Planned | None:
        w = self.world(st, at)
        counts = Counter(w.pos.values())
        expected = 1
        for o in sorted(counts):
            if counts[o] >= 2:
                return self.rng.choice(self.monkeys), "monkey.split", {"position": o}, None
            if o != expected:
                return self.rng.choice(self.monkeys), "monkey.move-up", {"position": o - 1}, None
            expected += 1
        return None

    def plan_dance(self, st: State, at: datetime) -> Planned | None:
        if self.world(st, at).is_unbalanced():
            return None
        history = st.doc("monkey_dance")["history"]
        if history and at - parse_time(history[-1]["at"]) < timedelta(hours=48):
            return None
        sections = st.doc("monkey_dance")["sections"]
        ready = [s["monkey"] for s in sections if at - parse_time(s.get("updated", format_time(FOUNDED)))
                 >= timedelta(hours=6)]
        if not ready:
            return None
        return self.rng.choice(ready), "monkey.dance", None, None

    # ------------------------------------------------------------ Awesomeness Posts

    def plan_post(self, st: State, at: datetime) -> Planned | None:
        rng = self.rng
        posts = st.doc("monkey_awesomeness")["posts"]
        busy = {p["author"] for p in posts if p["status"] == "pending"
                and at - parse_time(p["submitted"]) < timedelta(hours=48)}
        can = [m for m in self.monkeys if m not in busy and int(st.player(m)["stats"]["bananas"]) >= 3]
        if not can:
            return None
        author = rng.choice(can)
        about = rng.choice([m for m in self.monkeys if m != author])
        params = {"about": about}
        if rng.random() < 0.6:
            params["text"] = f"{about} " + " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 30))) + "."
        voters = [m for m in self.monkeys if m not in (author, about)]
        rng.shuffle(voters)
        q = quorum(st)
        if rng.random() < 0.3:  # passes: more than a quorum FOR
            fors = min(len(voters), q + rng.randint(2, 8))
            against = rng.randint(0, max(0, min(8, len(voters) - fors)))
            votes = [(v, "FOR") for v in voters[:fors]] + [(v, "AGAINST") for v in voters[fors:fors + against]]
        else:
            k = rng.randint(6, min(len(voters), max(6, q - 10)))
            votes = [(v, rng.choice(["FOR", "FOR", "AGAINST"])) for v in voters[:k]]
        rng.shuffle(votes)

        def after(applied: Any) -> None:
            plan = Plan("post", applied.outcome[0]["post"], self.b.t, votes)
            self.plans.append(plan)
            self.later_today([("vote", plan)] * int(len(votes) * rng.uniform(0.2, 0.5)))

        return author, "monkey.awesomeness-post", params, after

    def plan_close(self, st: State, at: datetime) -> Planned | None:
        done = [p for p in st.doc("monkey_awesomeness")["posts"] if p["status"] == "pending"
                and at - parse_time(p["submitted"]) >= timedelta(hours=48)]
        if not done:
            return None
        return self.rng.choice(self.monkeys), "monkey.awesomeness-close", {"post": done[0]["id"]}, None

    # ------------------------------------------------------------ proposals

    def plan_propose(self, st: State, at: datetime) -> Planned | None:
        rng = self.rng
        mine: dict[str, list[dict[str, Any]]] = {}
        for p in st.doc("proposals")["proposals"]:
            mine.setdefault(p["author"], []).append(p)
        today = day_start(at)
        can = [m for m in self.monkeys
               if sum(p["status"] == "pending" for p in mine.get(m, [])) < 2
               and sum(parse_time(p["submitted"]) >= today for p in mine.get(m, [])) < 3]
        if not can:
            return None
        author = rng.choice(can)
        self.proposals_made += 1
        i = self.proposals_made
        params: dict[str, Any] = {"title": f"Proposal {i}: the {rng.choice(WORDS)} {rng.choice(WORDS)}",
                                  "text": " ".join(rng.choice(WORDS) for _ in range(rng.randint(15, 60)))}
        effects = self.effects(st, i)
        if effects:
            params["effects"] = effects
        voters = [m for m in self.monkeys if m != author]
        rng.shuffle(voters)
        q = quorum(st)
        fate = rng.random()
        leader = st.doc("dynasty")["leader"]
        if fate < 0.25:  # quorum FOR: enacted after 12 hours
            fors = min(len(voters), q + rng.randint(0, 8))
            votes = [(v, "FOR") for v in voters[:fors]]
            votes += [(v, rng.choice(["AGAINST", "DEFERENTIAL"])) for v in voters[fors:fors + rng.randint(0, 6)]]
        elif fate < 0.65:  # a majority of fewer votes: enacted after 48 hours
            k = rng.randint(8, max(8, min(len(voters), q - 15)))
            votes = [(v, "FOR" if j % 3 else "AGAINST") for j, v in enumerate(voters[:k])]
        elif fate < 0.92:  # failed after 48 hours
            k = rng.randint(8, max(8, min(len(voters), q - 15)))
            votes = [(v, "AGAINST" if j % 3 else "FOR") for j, v in enumerate(voters[:k])]
        elif fate < 0.97 and leader != author:  # the Top Banana vetoes it
            k = rng.randint(5, 20)
            votes = [(v, rng.choice(["FOR", "AGAINST"])) for v in voters[:k] if v != leader]
            votes.insert(rng.randint(0, len(votes)), (leader, "VETO"))
        else:  # its author thinks better of it: self-killed
            k = rng.randint(3, 12)
            votes = [(v, rng.choice(["FOR", "AGAINST"])) for v in voters[:k]] + [(author, "AGAINST")]
        rng.shuffle(votes)

        def after(applied: Any) -> None:
            plan = Plan("proposal", applied.outcome[0]["proposal"], self.b.t, votes)
            self.plans.append(plan)
            self.later_today([("vote", plan)] * int(len(votes) * rng.uniform(0.2, 0.4)))

        return author, "core.propose", params, after

    def effects(self, st: State, i: int) -> dict[str, Any] | None:
        """Now and then a proposal patches the roster, the move list or the items, or amends a rule."""
        rng = self.rng
        r = rng.random()
        if r < 0.35:
            return None
        if r < 0.6:
            ops = []
            for who in rng.sample(self.monkeys, min(len(self.monkeys), rng.randint(1, 3))):
                stat, value = rng.choice([("bananas", rng.randint(0, 30)), ("awesomeness", rng.randint(0, 6)),
                                          ("dance_moves", rng.randint(1, 12))])
                ops.append({"op": "replace", "path": f"/roster/players/name={who}/stats/{stat}", "value": value})
            return {"gamestate": ops}
        if r < 0.72:
            move = rng.choice(st.doc("monkey_dance")["moves"])
            value = rng.choice([c for c in range(1, 7) if c != move["complexity"]])
            return {"gamestate": [{"op": "replace", "path": f"/monkey_dance/moves/name={move['name']}/complexity",
                                   "value": value}]}
        if r < 0.84:
            self.items_added += 1
            kind, size, _ = rng.choice(ITEM_KINDS)
            model = next(it for it in st.doc("monkey_items")["items"] if it["kind"] == kind)
            label = " ".join(w.capitalize() for w in kind.split("-"))
            item = {"name": f"New {label} {self.items_added}", "size": size, "kind": kind,
                    "description": model.get("description", label),
                    "status": "Active - 3 left" if kind == "banana-fountain" else ACTIVE,
                    "lies_at": rng.randint(1, len(self.world(st, FOUNDED).pos) + 5)}
            return {"gamestate": [{"op": "add", "path": "/monkey_items/items/-", "value": item}]}
        rid = rng.choice(sorted(r for r, rule in st.rules.items()
                                if rule.meta.get("section") == "dynastic" and rule.meta.get("status") == "active"))
        body = st.rules[rid].body.rstrip("\n") + f"\n\nAmended by proposal {i}: " + \
            " ".join(rng.choice(WORDS) for _ in range(rng.randint(20, 60))) + ".\n"
        return {"rules": [{"op": "amend", "id": rid, "body": body}]}

    def plan_vote(self, st: State, at: datetime, plan: Plan) -> Planned | None:
        while plan.votes:
            voter, vote = plan.votes.pop(0)
            if plan.kind == "proposal":
                p = next(x for x in st.doc("proposals")["proposals"] if x["id"] == plan.ident)
                if p["status"] != "pending":
                    plan.votes.clear()
                    return None
                if voter == p["author"] and p["votes"].get(voter) in ("AGAINST",):
                    continue
                return voter, "core.vote", {"proposal": plan.ident, "vote": vote}, None
            post = next(x for x in st.doc("monkey_awesomeness")["posts"] if x["id"] == plan.ident)
            if post["status"] != "pending" or at - parse_time(post["submitted"]) >= timedelta(hours=48):
                plan.votes.clear()
                return None
            return voter, "monkey.awesomeness-vote", {"post": plan.ident, "vote": vote}, None
        return None

    def plan_resolve(self, st: State, at: datetime) -> Planned | None:
        pending = [p for p in st.doc("proposals")["proposals"] if p["status"] == "pending"]
        if not pending:
            return None
        p = min(pending, key=lambda x: (x["submitted"], x["id"]))
        admin = self.rng.choice(self.admins)
        if enactable_reason(st, p, at) is not None:
            return admin, "core.enact", {"proposal": p["id"]}, None
        if failable_reason(st, p, at) is not None:
            return admin, "core.fail", {"proposal": p["id"]}, None
        return None


# ---------------------------------------------------------------- the game


def generate(out: Path, *, game: str = "big", players: int = 100, actions: int = 10000, seed: int = 1,
             git: bool = False, progress: bool = False) -> Path:
    """Write the Monkey game under ``out/content/<game>``; returns that folder."""
    rng = random.Random(seed)
    folder = out / "content" / game
    if folder.exists():
        shutil.rmtree(folder)
    start = initial_state(players, rng)
    b = History(start, actions, rng, progress).build()
    return write_game(out, game, start, b, git)
