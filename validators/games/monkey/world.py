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

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ...engine import peek, plain_copy

SIZES = ("pocket-size", "small", "large", "massive")  # smallest first
IN_LINE = "In Line"
IN_BARREL = "In the Barrel"
BARE = "Bare"


def alphabetical(name: str) -> tuple[str, str]:
    """The key for "alphabetical order" of names.

    Seed 000 (Ruleset 48): "The Monkey Line" (a split), the status rule (Monkeys coming back from the barrel),
    the Magnet hammer and Pickpocket (which item). Letters are compared without regard to case, so "ape" comes
    before "Bruno"; names that differ only in case are then told apart by their characters. Plain ``sorted``
    would put every capital first.
    """
    return name.casefold(), name


def by_name(items: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Items in alphabetical order of their names (``alphabetical``): the order in which a Monkey picks up
    several items lying in one square.

    Seed 000, "Items": the first Monkey to move into a square picks up the items lying there, so all of them go
    to em and their order changes nobody's holdings; the seed names none, and the record tells them in the
    order the module uses wherever the seed says "alphabetical" (a split, the barrel, Magnet and Pickpocket).
    """
    return sorted(items, key=lambda i: alphabetical(i["name"]))


class KongHolds(Exception):
    """A move tried to dislodge King Kong from the top while e holds a Sledge (seed 000, "King Kong")."""


# ------------------------------------------------------------ reading and writing the gamestate
#
# A World is loaded after many actions (and read by every check of a move), so it reads the documents
# without the engine's copy-on-write copying them: ``peek`` for a list, ``get_raw`` for a key (a document
# the action already edited would otherwise copy every container it hands out). What these give may be the
# previous state's own objects: never write into it; the World keeps its own copies (``own_copy``).

get_raw = dict.__getitem__
get_raw_or = dict.get

_SCALARS = frozenset((str, int, float, bool, type(None)))


def own_copy(v: Any) -> Any:
    """A plain deep copy (``plain_copy``); a flat dict of scalars (stats, an item) is copied in one go."""
    if type(v) is dict and _SCALARS.issuperset(map(type, v.values())):
        return v.copy()
    return plain_copy(v)


def positions_of(line: dict[str, Any]) -> dict[str, int]:
    """Monkey -> position, from a ``monkey_line`` document."""
    pos: dict[str, int] = {}
    for entry in peek(get_raw(line, "positions")):
        at = int(get_raw(entry, "at"))
        for name in peek(get_raw_or(entry, "monkeys", [])):
            pos[name] = at
    return pos


def _write_list(doc: Any, key: str, was: list[Any], new: list[Any], copy: Any) -> None:
    """``doc[key] = new`` (``doc`` edited, ``was`` what it held): of a list as long, only the entries that differ."""
    if len(was) != len(new):
        doc[key] = [copy(x) for x in new]
        return
    edited = doc[key]
    for k, (old, x) in enumerate(zip(peek(was), new)):
        if old != x:
            edited[k] = copy(x)


@dataclass
class World:
    pos: dict[str, int]  # Monkeys in the Line -> position
    barrel: list[dict[str, Any]]  # {name, since, held_until?}
    stats: dict[str, dict[str, Any]]  # every Monkey on the roster -> a copy of eir stats
    npcs: dict[str, str]  # NPC name -> behaviour key (only NPCs on the roster)
    items: list[dict[str, Any]]
    hammers: list[dict[str, Any]]  # the hammer list, in ruleset order: {name, effect}
    hats: list[str]
    options: dict[str, Any] = field(default_factory=dict)
    now: str = ""
    log: list[str] = field(default_factory=list)
    idle: set[str] = field(default_factory=set)
    # Whose hammer type has changed since the World was loaded, even if it changed back (seed 000, NPCs:
    # Curious George and King Kong revert if their hammer "is changed" during the Dance).
    hammer_changed: set[str] = field(default_factory=set)
    # Seed 000, "Hats" (Bare Head): becoming Bare costs a banana; False while that rule is repealed
    # (``common.world`` looks it up).
    bare_costs: bool = True
    # Seed 000, "Items": items left behind by a Monkey who moves, and picked up by one who arrives where they lie;
    # False while that rule is repealed (``common.world``): a move then moves Monkeys only.
    items_move: bool = True

    # ------------------------------------------------------------ loading and saving

    @classmethod
    def load(cls, view: Any, options: dict[str, Any] | None = None, now: str = "") -> World:
        """From anything with ``doc(kind)`` (a State or a Ctx).

        The documents are read without copying them through the transaction (``peek``, ``get_raw``); the World
        holds its own plain copies of everything it may change (stats, barrel, items, hammers).
        """
        line = view.doc("monkey_line")
        kit = view.doc("monkey_kit")
        players = get_raw(view.doc("roster"), "players")
        pos = positions_of(line)
        stats = {p["name"]: own_copy(get_raw(p, "stats")) for p in peek(players)}
        idle = {p["name"] for p in peek(players) if get_raw_or(p, "idle")}
        # Seed 000, NPCs: the behaviours belong to NPCs, Monkeys nobody controls (``kind`` on the roster). A player
        # under a name the kit still keeps a behaviour for (a newcomer taking a departed NPC's name) is a Monkey
        # like any other, so only roster entries that are NPCs are matched.
        npc_names = {p["name"] for p in peek(players) if get_raw_or(p, "kind")}
        npcs = {name: b for name, b in dict.items(get_raw_or(kit, "npcs", {})) if name in npc_names}
        return cls(pos=pos, barrel=plain_copy(get_raw_or(line, "barrel", [])), stats=stats, npcs=npcs,
                   items=[own_copy(i) for i in peek(get_raw(view.doc("monkey_items"), "items"))],
                   hammers=plain_copy(get_raw(kit, "hammers")), hats=list(peek(get_raw(kit, "hats"))),
                   options=dict(options or {}), now=now, idle=idle)

    @classmethod
    def load_line(cls, view: Any) -> World:
        """Only who stands where in the Line (no barrel, stats, items or kit): for a check that reads no more."""
        return cls(pos=positions_of(view.doc("monkey_line")), barrel=[], stats={}, npcs={}, items=[], hammers=[],
                   hats=[])

    def save(self, ctx: Any) -> None:
        """Write the line, the barrel, the items and every changed stat back through ``ctx.edit``.

        Only what changed is written: an item or a position that is as it was keeps its own object.
        """
        line = ctx.doc("monkey_line")
        positions = self.positions_doc()
        was = get_raw(line, "positions")
        if was != positions or get_raw_or(line, "barrel", []) != self.barrel:
            line = ctx.edit("monkey_line")
            _write_list(line, "positions", was, positions, lambda entry: entry)
            line["barrel"] = plain_copy(self.barrel)
        was = get_raw(ctx.doc("monkey_items"), "items")
        if was != self.items:
            _write_list(ctx.edit("monkey_items"), "items", was, self.items, own_copy)
        changed = [p["name"] for p in peek(get_raw(ctx.doc("roster"), "players"))
                   if (new := self.stats.get(p["name"])) is not None and get_raw(p, "stats") != new]
        for name in changed:
            ctx.edit_player(name)["stats"] = own_copy(self.stats[name])

    def positions_doc(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for at, name in sorted(zip(self.pos.values(), self.pos)):  # by position, then name
            if out and out[-1]["at"] == at:
                out[-1]["monkeys"].append(name)
            else:
                out.append({"at": at, "monkeys": [name]})
        return out

    # ------------------------------------------------------------ reading

    def at(self, position: int) -> list[str]:
        """The Monkeys in a position, alphabetically (``alphabetical``)."""
        return sorted((n for n, p in self.pos.items() if p == position), key=alphabetical)

    def single(self, position: int) -> str | None:
        here = self.at(position)
        return here[0] if len(here) == 1 else None

    def adjacent_positions(self, position: int) -> tuple[int | None, int | None]:
        """The nearest occupied positions before and after ``position`` (None: nobody on that side).

        Seed 000, "List of Items" (Big Rock) with "The Monkey Line": "adjacent in line" is read as the next
        Monkey on each side in the Line's order, so an empty square (a gap while the Line is Unbalanced) is
        passed over rather than ending the reach at position +-1.
        """
        before = max((p for p in self.pos.values() if p < position), default=None)
        after = min((p for p in self.pos.values() if p > position), default=None)
        return before, after

    def last(self) -> int:
        return max(self.pos.values(), default=0)

    def in_order(self) -> list[str]:
        return [n for _, n in sorted(zip(self.pos.values(), self.pos))]  # by position, then name

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
        # Seed 000, NPCs (Curious George, King Kong): only a change of hammer *type* counts. Hammer names are
        # matched whatever their case everywhere in the module (``hammer_effect``, the weekly change), so "hot
        # potato" written by a patch and the list's "Hot Potato" are one type and swapping them changes nothing.
        if hammer.casefold() != self.hammer_of(name).casefold():
            self.hammer_changed.add(name)
        self.stats[name]["hammer"] = hammer

    # ------------------------------------------------------------ hats (seed 000, "Hats", "Bare Head")

    def change_hat(self, name: str) -> None:
        """Seed 000, Hats: changing hat takes the hat one lower on the Hat List, the last wrapping to the first.
        The held hat is found on the list whatever its case, as the Hat hammer's rows find it (``hammers._hat_at``)
        and as "bare" is Bare: with Hats repealed a proposal's patch may leave "yellow", which nothing rewrites as
        the list spells it (``line.spell_as_listed``), and it is still the list's Yellow, so the change gives Red,
        not the first hat."""
        hat = self.stats[name].get("hat", self.hats[0])
        held = hat.casefold() if isinstance(hat, str) else hat
        listed = [h.casefold() if isinstance(h, str) else h for h in self.hats]
        if held == BARE.casefold():
            if self.options.get("bare_change_hat", "first-hat") == "nothing":
                self.log.append(f"{name} is Bare and has no hat to change")
                return
            new = self.hats[0]
        elif held in listed:
            new = self.hats[(listed.index(held) + 1) % len(self.hats)]
        else:
            new = self.hats[0]
        self.stats[name]["hat"] = new
        self.log.append(f"{name} changes hat from {hat} to {new}")

    def set_hat(self, name: str, hat: str) -> None:
        old = self.stats[name].get("hat")
        self.stats[name]["hat"] = hat
        self.log.append(f"{name}'s hat changes from {old} to {hat}")

    def become_bare(self, name: str) -> None:
        held = self.stats[name].get("hat")
        if isinstance(held, str) and held.casefold() == BARE.casefold():  # "bare" too, as ``change_hat`` reads it
            self.log.append(f"{name} is already Bare")
            return
        old = self.stats[name].get("hat")
        self.stats[name]["hat"] = BARE
        if not self.bare_costs:
            self.log.append(f"{name} loses eir {old} hat and is Bare")
            return
        lost = -self.add_bananas(name, -1)
        self.log.append(f"{name} loses eir {old} hat and is Bare (-{lost} banana)")

    # ------------------------------------------------------------ moving Monkeys

    def _place(self, moves: dict[str, int | None]) -> dict[int, list[str]]:
        """Put each mover at its new position (None: into the barrel); the Monkeys arriving at each position."""
        arrivals: dict[int, list[str]] = {}
        for m, new in moves.items():
            if new is None:
                del self.pos[m]
                self._enter_barrel(m)
            else:
                self.pos[m] = new
                arrivals.setdefault(new, []).append(m)
        return arrivals

    def relocate(self, moves: dict[str, int | None], *, allow_kong: bool = False) -> None:
        """Move Monkeys all at once: a number is a new position, None the barrel.

        Items: massive and large items (and small ones of a Monkey going to the
        barrel) stay in the square their holder left; then every item lying
        where a Monkey arrives is picked up by em (the alphabetically earliest
        if two arrive together), and what was left in a square where a Monkey
        stays is taken by em (the alphabetically earliest of those there).
        """
        moves = {m: p for m, p in moves.items() if m in self.pos and p != self.pos[m]}
        if not moves:
            return
        if not allow_kong:
            for m in moves:
                if self.kong_holds(m):
                    raise KongHolds(f"{m} holds the top with a Sledge and cannot be dislodged")
        if not self.items_move:
            self._place(moves)
            return
        old = {m: self.pos[m] for m in moves}
        # one pass over the items finds what every mover holds (in list order, as ``held`` gives it)
        held: dict[str, list[dict[str, Any]]] = {}
        for item in self.items:
            holder = item.get("held_by")
            if type(holder) is str and holder in moves:
                held.setdefault(holder, []).append(item)
        for m, new in moves.items():
            for item in held.get(m, ()):
                size = item["size"]
                if size in ("massive", "large") or (size == "small" and new is None):
                    del item["held_by"]
                    item["lies_at"] = old[m]
                    self.log.append(f"{item['name']} stays behind in position {old[m]}")
        arrivals = self._place(moves)
        # Seed 000, "Items": an item nobody holds lies only in an empty position. So what a mover leaves in a
        # square where another Monkey stays (one of a doubled position) is taken at once by the Monkey standing
        # there (the alphabetically first), as the Flaming Frisbee thrown at a Monkey is gained by em.
        stayed = {p for p in old.values() if p is not None and p not in arrivals}
        finders = {p: min(arrivals[p], key=alphabetical) for p in arrivals}
        if stayed:
            standing: dict[int, list[str]] = {}
            for n, p in self.pos.items():
                if p in stayed:
                    standing.setdefault(p, []).append(n)
            for p, names in standing.items():
                finders[p] = min(names, key=alphabetical)
        if not finders:
            return
        lying: dict[int, list[dict[str, Any]]] = {}
        for item in self.items:
            square = item.get("lies_at")
            if square is not None and square in finders:
                lying.setdefault(square, []).append(item)
        for p in sorted(finders):
            finder = finders[p]
            for item in by_name(lying.get(p, ())):
                del item["lies_at"]
                item["held_by"] = finder
                self.log.append(f"{finder} picks up {item['name']} in position {p}" if p in arrivals
                                else f"{finder}, who still stands in position {p}, takes {item['name']}")

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
        for item in (by_name(self.lying_at(to)) if self.items_move else ()):
            del item["lies_at"]
            item["held_by"] = name
            self.log.append(f"{name} picks up {item['name']} in position {to}")

    def join(self, name: str, *, at_end: bool = False) -> None:
        """A new Monkey takes the lowest-numbered empty position (an NPC: the end of the Line)."""
        to = self.last() + 1 if at_end else self.lowest_empty()
        self.pos[name] = to
        self.stats[name]["status"] = IN_LINE
        self.log.append(f"{name} joins the Line in position {to}")
        for item in (by_name(self.lying_at(to)) if self.items_move else ()):
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
        """Push every later Monkey down one and put the alphabetically earliest of the two in the freed square.

        Seed 000, "King Kong": at position 1 with a Sledge he may not be dislodged, and a move that tries fails.
        Position 1 is the first position however many Monkeys share it, and the split names which Monkey leaves
        (the alphabetically earliest), so a split that would move him fails as a whole rather than move the other.
        """
        here = self.at(doubled)
        if len(here) < 2:
            raise ValueError(f"position {doubled} holds {len(here)} Monkey(s), not two")
        who = here[0]
        if self.kong_holds(who):
            raise KongHolds(f"{who}, the alphabetically earliest in position {doubled}, holds the top with a Sledge "
                            "and cannot be dislodged: the split fails")
        moves: dict[str, int | None] = {n: p + 1 for n, p in self.pos.items() if p > doubled}
        moves[who] = doubled + 1
        self.log.append(f"position {doubled} splits: {who} moves to {doubled + 1}, every later Monkey down one")
        self.relocate(moves)
        return who

    def rebalance(self) -> list[str]:
        """Correct an Unbalanced Line with the two balancing moves, lowest position first.

        A gap is closed by moving the next Monkey up one square at a time (each a balancing move); only the
        squares where items lie make a difference, so only those are visited, and a far gap costs nothing.

        Each pass looks for the first position that is wrong: after a gap, a position holding one Monkey
        (who moves up into the gap), or a position holding two or more (which is split). Everything before
        it is then right (positions 1, 2, 3 ... holding one Monkey each), and a move up changes nothing
        there, so the next pass goes on from where this one stopped instead of from the top. The Monkeys
        by position and the items by place are indexed once and kept up to date (a split, which moves
        everyone after it, is followed by a new index).
        """
        done: list[str] = []
        guard = 0
        here, order = self._by_position()
        # with Items repealed (``items_move``) nothing is dropped or picked up: the plain way moves the Monkey only
        index = _ItemIndex.of(self.items, self.npc("king-kong")) if self.items_move else None
        i, expected = 0, 1  # positions order[:i] are 1 .. expected - 1, one Monkey each
        while len(here) != len(self.pos) or len(here) != (order[-1] if order else 0):  # is_unbalanced
            guard += 1
            if guard > 100000:
                raise RuntimeError("the Line would not balance")
            while i < len(order):
                o = order[i]
                if o != expected and len(here[o]) == 1:
                    who = here[o][0]
                    if index is None:
                        self._close_gap(expected, o)
                    else:
                        self._close_gap_indexed(expected, o, who, index)
                    done.append(f"move up {o} to {expected}")
                    if o > expected:  # the gap is filled: order stays sorted
                        del here[o]
                        here[expected] = [who]
                        order[i] = expected
                    else:  # a position of 0 or less moved to 1: start again from the top
                        here, order = self._by_position()
                        i, expected = 0, 1
                    break
                if len(here[o]) >= 2:
                    done.append(f"split {o}")
                    self.split(o)
                    here, order = self._by_position()  # positions before o are as they were
                    index = _ItemIndex.of(self.items, self.npc("king-kong")) if self.items_move else None
                    break
                expected += 1
                i += 1
            else:  # cannot happen: a Line with no wrong position is balanced
                raise RuntimeError("the Line would not balance")
        return done

    def _by_position(self) -> tuple[dict[int, list[str]], list[int]]:
        here: dict[int, list[str]] = {}
        for name, at in self.pos.items():
            here.setdefault(at, []).append(name)
        return here, sorted(here)

    def _close_gap(self, empty: int, occupied: int) -> None:
        who = self.at(occupied)[0]
        if self.kong_holds(who):
            raise KongHolds(f"{who} holds the top with a Sledge and cannot be dislodged")
        self.log.append(f"{who} moves up from position {occupied} to {empty} (balancing)")
        passed = sorted({int(i["lies_at"]) for i in self.items if empty < int(i.get("lies_at") or 0) < occupied},
                        reverse=True)
        for square in passed + [empty]:
            self.relocate({who: square})

    def _close_gap_indexed(self, empty: int, occupied: int, who: str, index: _ItemIndex) -> None:
        """``_close_gap`` for the single Monkey ``who``, with the items found through ``index`` (kept up to date).

        Step by step it does what ``relocate({who: square})`` does for each square: eir large and massive items
        stay behind where e was, then e picks up whatever lies where e arrives (``by_name``). No step can move King
        Kong from the top: every square e leaves is below the gap, so below position 1.
        """
        if who == index.kong and self.kong_holds(who):
            raise KongHolds(f"{who} holds the top with a Sledge and cannot be dislodged")
        log = self.log
        log.append(f"{who} moves up from position {occupied} to {empty} (balancing)")
        items, lying = self.items, index.lying
        mine = index.held.get(who, [])
        if not mine and empty not in lying and not any(empty < k < occupied for k in lying):
            self.pos[who] = empty  # nothing to drop, nothing to pick up on the way
            return
        squares = sorted((k for k in lying if empty < k < occupied), reverse=True)
        squares.append(empty)
        at = occupied
        for square in squares:
            if mine:
                kept = []
                for k in mine:
                    item = items[k]
                    if item["size"] in ("massive", "large"):
                        del item["held_by"]
                        item["lies_at"] = at
                        log.append(f"{item['name']} stays behind in position {at}")
                        lying.setdefault(at, []).append(k)
                        lying[at].sort()
                    else:
                        kept.append(k)
                mine = kept
            self.pos[who] = square
            found = lying.pop(square, None)
            if found:
                for k in sorted(found, key=lambda k: alphabetical(items[k]["name"])):
                    item = items[k]
                    del item["lies_at"]
                    item["held_by"] = who
                    log.append(f"{who} picks up {item['name']} in position {square}")
                mine = sorted(mine + found)
            at = square
        index.held[who] = mine


class _ItemIndex:
    """Items by holder and by the position they lie in (their places in the item list, in list order)."""

    def __init__(self) -> None:
        self.held: dict[str, list[int]] = {}
        self.lying: dict[int, list[int]] = {}
        self.kong: str | None = None  # King Kong, if e is in the game: only e can be held at the top

    @classmethod
    def of(cls, items: list[dict[str, Any]], kong: str | None) -> _ItemIndex | None:
        """None unless every item is plainly held by a name or lies in a whole-numbered position, not both."""
        index = cls()
        index.kong = kong
        for k, item in enumerate(items):
            holder, square = item.get("held_by"), item.get("lies_at")
            if holder is not None and square is None and type(holder) is str:
                index.held.setdefault(holder, []).append(k)
            elif square is not None and holder is None and type(square) is int:
                index.lying.setdefault(square, []).append(k)
            elif holder is not None or square is not None:
                return None
        return index


def smallest_item(items: Iterable[dict[str, Any]]) -> dict[str, Any] | None:
    """The smallest non-massive item, earliest by name among equals (Magnet, Pickpocket)."""
    candidates = [i for i in items if i["size"] != "massive"]
    if not candidates:
        return None
    return min(candidates, key=lambda i: (SIZES.index(i["size"]), alphabetical(i["name"])))
