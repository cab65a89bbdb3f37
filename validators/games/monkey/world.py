"""The Monkey Line as a working model: where every Monkey stands, who is in the barrel, items, stats.

Seed 000, "The Monkey Line": positions are numbered from one (the top); a
position holds any number of Monkeys, or none; the Line is Unbalanced when
an empty position has a Monkey after it, or a position holds more than one
Monkey. "Items": massive and large items stay where their holder was when e
moves; small items follow em except into the barrel; pocket-size items never
leave em. An item lying in a position is picked up by the first Monkey to
move there.

A ``World`` is loaded from the gamestate, changed by plain methods (which
tests call directly), and written back once (``save``). Every method that
changes something appends a sentence to ``log`` so a dance can be told step
by step.
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable

SIZES = ("pocket-size", "small", "large", "massive")  # smallest first
IN_LINE = "In Line"
IN_BARREL = "In the Barrel"
BARE = "Bare"


class KongHolds(Exception):
    """A move tried to dislodge King Kong from the top while e holds a Sledge (seed 000, "King Kong")."""


@dataclass
class World:
    pos: dict[str, int]  # Monkeys in the Line -> position
    barrel: list[dict[str, Any]]  # {name, since, held_until?}
    stats: dict[str, dict[str, Any]]  # every Monkey on the roster -> a copy of eir stats
    npcs: dict[str, str]  # NPC name -> behaviour key (only those on the roster)
    items: list[dict[str, Any]]
    hammers: list[dict[str, Any]]  # the hammer list, in ruleset order: {name, effect}
    hats: list[str]
    options: dict[str, Any] = field(default_factory=dict)
    now: str = ""
    log: list[str] = field(default_factory=list)
    idle: set[str] = field(default_factory=set)

    # ------------------------------------------------------------ loading and saving

    @classmethod
    def load(cls, view: Any, options: dict[str, Any] | None = None, now: str = "") -> "World":
        """From anything with ``doc(kind)`` (a State or a Ctx)."""
        line = view.doc("monkey_line")
        kit = view.doc("monkey_kit")
        roster = view.doc("roster")
        pos: dict[str, int] = {}
        for entry in line["positions"]:
            for name in entry.get("monkeys", []):
                pos[name] = int(entry["at"])
        stats = {p["name"]: copy.deepcopy(p["stats"]) for p in roster["players"]}
        idle = {p["name"] for p in roster["players"] if p.get("idle")}
        npcs = {name: b for name, b in kit.get("npcs", {}).items() if name in stats}
        return cls(pos=pos, barrel=copy.deepcopy(line.get("barrel", [])), stats=stats, npcs=npcs,
                   items=copy.deepcopy(view.doc("monkey_items")["items"]),
                   hammers=copy.deepcopy(kit["hammers"]), hats=list(kit["hats"]),
                   options=dict(options or {}), now=now, idle=idle)

    def save(self, ctx: Any) -> None:
        """Write the line, the barrel, the items and every changed stat back through ``ctx.edit``."""
        line = ctx.doc("monkey_line")
        positions = self.positions_doc()
        if line["positions"] != positions or line.get("barrel", []) != self.barrel:
            line = ctx.edit("monkey_line")
            line["positions"] = positions
            line["barrel"] = copy.deepcopy(self.barrel)
        if ctx.doc("monkey_items")["items"] != self.items:
            ctx.edit("monkey_items")["items"] = copy.deepcopy(self.items)
        roster = ctx.doc("roster")
        for p in roster["players"]:
            new = self.stats.get(p["name"])
            if new is not None and p["stats"] != new:
                ctx.edit_player(p["name"])["stats"] = copy.deepcopy(new)

    def positions_doc(self) -> list[dict[str, Any]]:
        out = []
        for at in sorted(set(self.pos.values())):
            out.append({"at": at, "monkeys": self.at(at)})
        return out

    # ------------------------------------------------------------ reading

    def at(self, position: int) -> list[str]:
        """The Monkeys in a position, alphabetically."""
        return sorted(n for n, p in self.pos.items() if p == position)

    def single(self, position: int) -> str | None:
        here = self.at(position)
        return here[0] if len(here) == 1 else None

    def last(self) -> int:
        return max(self.pos.values(), default=0)

    def in_order(self) -> list[str]:
        return sorted(self.pos, key=lambda n: (self.pos[n], n))

    def lowest_empty(self) -> int:
        taken = set(self.pos.values())
        p = 1
        while p in taken:
            p += 1
        return p

    def is_unbalanced(self) -> bool:
        """A position with two Monkeys or more, or an empty position before the last Monkey."""
        taken = set(self.pos.values())
        return len(taken) != len(self.pos) or len(taken) != self.last()

    def npc(self, behaviour: str) -> str | None:
        for name, b in self.npcs.items():
            if b == behaviour:
                return name
        return None

    def hammer_of(self, name: str) -> str:
        return str(self.stats[name].get("hammer", ""))

    def hammer_effect(self, hammer_name: str) -> str:
        for h in self.hammers:
            if h["name"].casefold() == hammer_name.casefold():
                return str(h["effect"])
        return ""

    def effect_of(self, name: str) -> str:
        return self.hammer_effect(self.hammer_of(name))

    def hammer_named_by_effect(self, effect: str) -> str | None:
        for h in self.hammers:
            if h["effect"] == effect:
                return str(h["name"])
        return None

    def held(self, name: str) -> list[dict[str, Any]]:
        return [i for i in self.items if i.get("held_by") == name]

    def lying_at(self, position: int) -> list[dict[str, Any]]:
        return [i for i in self.items if i.get("lies_at") == position]

    def in_barrel(self, name: str) -> bool:
        return any(b["name"] == name for b in self.barrel)

    def kong_holds(self, name: str) -> bool:
        """King Kong at the top with a Sledge may not be dislodged (save by Sledge or Emo)."""
        return (name == self.npc("king-kong") and self.pos.get(name) == 1
                and self.effect_of(name) == "sledge")

    # ------------------------------------------------------------ stats

    def bananas(self, name: str) -> int:
        return int(self.stats[name].get("bananas", 0))

    def add_bananas(self, name: str, n: int) -> int:
        """Change bananas, never below zero; returns the change made."""
        old = self.bananas(name)
        new = max(0, old + n)
        self.stats[name]["bananas"] = new
        return new - old

    def dance_moves(self, name: str) -> int:
        return int(self.stats[name].get("dance_moves", 0))

    def add_dance_moves(self, name: str, n: int) -> int:
        """Change Dance Moves, never below zero (the core rule "Numbers"); returns the change made."""
        old = self.dance_moves(name)
        self.stats[name]["dance_moves"] = max(0, old + n)
        return self.stats[name]["dance_moves"] - old

    def set_hammer(self, name: str, hammer: str) -> None:
        self.stats[name]["hammer"] = hammer

    # ------------------------------------------------------------ hats (seed 000, "Hats", "Bare Head")

    def change_hat(self, name: str) -> None:
        hat = self.stats[name].get("hat", self.hats[0])
        if hat == BARE:
            if self.options.get("bare_change_hat", "first-hat") == "nothing":
                self.log.append(f"{name} is Bare and has no hat to change")
                return
            new = self.hats[0]
        elif hat in self.hats:
            new = self.hats[(self.hats.index(hat) + 1) % len(self.hats)]
        else:
            new = self.hats[0]
        self.stats[name]["hat"] = new
        self.log.append(f"{name} changes hat from {hat} to {new}")

    def set_hat(self, name: str, hat: str) -> None:
        old = self.stats[name].get("hat")
        self.stats[name]["hat"] = hat
        self.log.append(f"{name}'s hat changes from {old} to {hat}")

    def become_bare(self, name: str) -> None:
        if self.stats[name].get("hat") == BARE:
            self.log.append(f"{name} is already Bare")
            return
        old = self.stats[name].get("hat")
        self.stats[name]["hat"] = BARE
        lost = -self.add_bananas(name, -1)
        self.log.append(f"{name} loses eir {old} hat and is Bare (-{lost} banana)")

    # ------------------------------------------------------------ moving Monkeys

    def relocate(self, moves: dict[str, int | None], *, allow_kong: bool = False) -> None:
        """Move Monkeys all at once: a number is a new position, None the barrel.

        Items: massive and large items (and small ones of a Monkey going to the
        barrel) stay in the square their holder left; then every item lying
        where a Monkey arrives is picked up by em (the alphabetically earliest
        if two arrive together).
        """
        moves = {m: p for m, p in moves.items() if m in self.pos and p != self.pos[m]}
        if not moves:
            return
        if not allow_kong:
            for m in moves:
                if self.kong_holds(m):
                    raise KongHolds(f"{m} holds the top with a Sledge and cannot be dislodged")
        old = {m: self.pos[m] for m in moves}
        for m, new in moves.items():
            for item in self.held(m):
                size = item["size"]
                if size in ("massive", "large") or (size == "small" and new is None):
                    del item["held_by"]
                    item["lies_at"] = old[m]
                    self.log.append(f"{item['name']} stays behind in position {old[m]}")
        arrivals: dict[int, list[str]] = {}
        for m, new in moves.items():
            if new is None:
                del self.pos[m]
                self._enter_barrel(m)
            else:
                self.pos[m] = new
                arrivals.setdefault(new, []).append(m)
        for p in sorted(arrivals):
            finder = sorted(arrivals[p])[0]
            for item in sorted(self.lying_at(p), key=lambda i: i["name"]):
                del item["lies_at"]
                item["held_by"] = finder
                self.log.append(f"{finder} picks up {item['name']} in position {p}")

    def move(self, name: str, to: int | None, *, allow_kong: bool = False, why: str = "") -> None:
        frm = self.pos.get(name)
        if frm is None or to == frm:
            return
        if not allow_kong and self.kong_holds(name):
            raise KongHolds(f"{name} holds the top with a Sledge and cannot be dislodged")
        where = "the barrel" if to is None else f"position {to}"
        self.log.append(f"{name} moves from position {frm} to {where}" + (f" ({why})" if why else ""))
        self.relocate({name: to}, allow_kong=allow_kong)

    def _enter_barrel(self, name: str) -> None:
        self.stats[name]["status"] = IN_BARREL
        if not self.in_barrel(name):
            self.barrel.append({"name": name, "since": self.now})

    def to_barrel(self, name: str, *, allow_kong: bool = False) -> None:
        if name not in self.pos:
            return
        if not allow_kong and self.kong_holds(name):
            raise KongHolds(f"{name} holds the top with a Sledge and cannot be dislodged")
        self.log.append(f"{name} goes from position {self.pos[name]} into the barrel")
        self.relocate({name: None}, allow_kong=allow_kong)

    def leave_barrel(self, name: str) -> None:
        """Back to the end of the Line (seed 000, status rule)."""
        self.barrel = [b for b in self.barrel if b["name"] != name]
        self.stats[name]["status"] = IN_LINE
        to = self.last() + 1
        self.pos[name] = to
        self.log.append(f"{name} comes out of the barrel to position {to}")
        for item in sorted(self.lying_at(to), key=lambda i: i["name"]):
            del item["lies_at"]
            item["held_by"] = name
            self.log.append(f"{name} picks up {item['name']} in position {to}")

    def join(self, name: str, *, at_end: bool = False) -> None:
        """A new Monkey takes the lowest-numbered empty position (an NPC: the end of the Line)."""
        to = self.last() + 1 if at_end else self.lowest_empty()
        self.pos[name] = to
        self.stats[name]["status"] = IN_LINE
        self.log.append(f"{name} joins the Line in position {to}")
        for item in sorted(self.lying_at(to), key=lambda i: i["name"]):
            del item["lies_at"]
            item["held_by"] = name
            self.log.append(f"{name} picks up {item['name']} in position {to}")

    def to_back(self, name: str) -> None:
        """To the back of the Line: behind every other Monkey (no move if e is already last alone)."""
        others = [p for n, p in self.pos.items() if n != name]
        if not others or self.pos[name] > max(others):
            self.log.append(f"{name} is already at the back of the line")
            return
        self.move(name, self.last() + 1, why="to the back of the line")

    # ------------------------------------------------------------ balancing (seed 000, "The Monkey Line")

    def move_up(self, empty: int) -> str:
        """Move the single Monkey right after an empty position into it."""
        if empty < 1:
            raise ValueError(f"position {empty} is not a position")
        if self.at(empty):
            raise ValueError(f"position {empty} is not empty")
        who = self.single(empty + 1)
        if who is None:
            n = len(self.at(empty + 1))
            raise ValueError(f"position {empty + 1} holds {n} Monkeys, not one")
        self.move(who, empty, why="balancing")
        return who

    def split(self, doubled: int) -> str:
        """Push every later Monkey down one and put the alphabetically earliest of the two in the freed square."""
        here = self.at(doubled)
        if len(here) < 2:
            raise ValueError(f"position {doubled} holds {len(here)} Monkey(s), not two")
        movable = [n for n in here if not self.kong_holds(n)]
        who = movable[0]
        moves: dict[str, int | None] = {n: p + 1 for n, p in self.pos.items() if p > doubled}
        moves[who] = doubled + 1
        self.log.append(f"position {doubled} splits: {who} moves to {doubled + 1}, every later Monkey down one")
        self.relocate(moves)
        return who

    def rebalance(self) -> list[str]:
        """Correct an Unbalanced Line with the two balancing moves, lowest position first.

        A gap is closed by moving the next Monkey up one square at a time (each a balancing move); only the
        squares where items lie make a difference, so only those are visited, and a far gap costs nothing.
        """
        done: list[str] = []
        guard = 0
        while self.is_unbalanced():
            guard += 1
            if guard > 100000:
                raise RuntimeError("the Line would not balance")
            counts = Counter(self.pos.values())
            expected = 1
            for o in sorted(counts):
                if o != expected and counts[o] == 1:
                    self._close_gap(expected, o)
                    done.append(f"move up {o} to {expected}")
                    break
                if counts[o] >= 2:
                    done.append(f"split {o}")
                    self.split(o)
                    break
                expected += 1
        return done

    def _close_gap(self, empty: int, occupied: int) -> None:
        who = self.at(occupied)[0]
        if self.kong_holds(who):
            raise KongHolds(f"{who} holds the top with a Sledge and cannot be dislodged")
        self.log.append(f"{who} moves up from position {occupied} to {empty} (balancing)")
        passed = sorted({int(i["lies_at"]) for i in self.items if empty < int(i.get("lies_at") or 0) < occupied},
                        reverse=True)
        for square in passed + [empty]:
            self.relocate({who: square})


def smallest_item(items: Iterable[dict[str, Any]]) -> dict[str, Any] | None:
    """The smallest non-massive item, earliest by name among equals (Magnet, Pickpocket)."""
    candidates = [i for i in items if i["size"] != "massive"]
    if not candidates:
        return None
    return min(candidates, key=lambda i: (SIZES.index(i["size"]), i["name"]))
