"""Dice anyone can recompute from the repository, and nobody can steer.

A roll is a pure function of:

* ``head``: the hash chain of the action log as it stood before the actor's
  current run of actions (the last action taken by somebody else);
* the actor's name (the one a player first played under: a new name would choose the roll otherwise),
  the action's name, and how many times the actor has taken
  that action in the current run;
* the roll's index within the action.

Not in the seed, on purpose: the time, the parameters and the note. So
rewording the action, retrying it, re-timing it or adding harmless actions of
another kind before it gives the same dice. The chain only moves when another
player's action lands. What an actor *can* do is look at the coming roll
before acting (everything is public) and decide whether to act now or wait for
somebody else's action; SECURITY.md and docs/engine.md discuss this.

The bytes: ``sha256("nomic-dice-v1\\0" head \\0 actor \\0 action \\0 k \\0 i)``,
read as a big integer, reduced without bias by rejection sampling.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any


def chain(head: str, record: dict[str, Any]) -> str:
    """The next chain head after ``record`` (its time, actor, action and parameters)."""
    body = _CHAIN_JSON.encode({"at": record.get("at"), "actor": record.get("actor"), "action": record.get("action"),
                               "params": record.get("params")})
    return hashlib.sha256((head + "\n" + body).encode("utf-8")).hexdigest()


# what json.dumps(..., sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str) would make
# afresh for every action
_CHAIN_JSON = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


class Dice:
    """The dice of one action. ``roll(6)`` is a d6; every call is the next die."""

    def __init__(self, head: str, actor: str, action: str, k: int):
        self.seed = f"nomic-dice-v1\0{head}\0{actor}\0{action}\0{k}"
        self.rolled: list[int] = []
        self._i = 0

    def _draw(self, sides: int) -> int:
        limit = (1 << 256) - ((1 << 256) % sides)
        while True:
            digest = hashlib.sha256(f"{self.seed}\0{self._i}".encode("utf-8")).digest()
            self._i += 1
            value = int.from_bytes(digest, "big")
            if value < limit:
                return value % sides + 1

    def roll(self, sides: int) -> int:
        """One die of ``sides`` faces, 1..sides. A die of zero or fewer sides gives 0 (seed 001, Numbers)."""
        if sides <= 0:
            self.rolled.append(0)
            return 0
        value = self._draw(sides)
        self.rolled.append(value)
        return value

    def shuffle(self, items: list[Any]) -> list[Any]:
        """A random order (Fisher-Yates by successive dice)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.roll(i + 1) - 1
            out[i], out[j] = out[j], out[i]
        return out

    def choice(self, items: list[Any]) -> Any:
        if not items:
            raise ValueError("nothing to choose from")
        return items[self.roll(len(items)) - 1]


class FixedDice(Dice):
    """Dice that give chosen values, for test cases that need a particular roll."""

    def __init__(self, values: list[int]):
        super().__init__("", "", "", 0)
        self.values = list(values)

    def _draw(self, sides: int) -> int:
        if not self.values:
            raise AssertionError("the case rolled more dice than it gave")
        value = self.values.pop(0)
        if not 1 <= value <= sides:
            raise AssertionError(f"the case gave {value} for a die of {sides} sides")
        return value
