"""Hidden information: commit to a secret by its hash now, reveal it later (checked by the engine).

BlogNomic players do this by hand ("I have chosen a number; its SHA-256 is
..."). Here ``engine.commit`` records a hash under a label, and a later
``engine.reveal`` by the same player gives the secret and the salt; the engine
checks that ``sha256(salt + ":" + secret)`` is the committed hash. Rules that
need a hidden choice read the revealed secret with ``revealed(state, who,
label)``. ``nomic hash SECRET`` prints a fresh salt, the hash, and the commit
command to run; keep the salt until you reveal.
"""

from __future__ import annotations

import hashlib
import secrets as _random
from typing import Any, Iterator

from .engine import ANYONE, PLAYER, Action, Ctx, State
from .timeutil import format_time

# a pattern's error shows the schema's description, which says what is asked in words
LABEL = {"type": "string", "pattern": "^[A-Za-z0-9_.-]{1,60}$",
         "description": "a label of 1 to 60 letters, digits, dots, dashes or underscores, no spaces"}
HASH = {"type": "string", "pattern": "^[0-9a-f]{64}$",
        "description": "the hash nomic hash prints: 64 digits and letters a-f"}


def digest(secret: str, salt: str) -> str:
    return hashlib.sha256(f"{salt}:{secret}".encode("utf-8")).hexdigest()


def new_salt() -> str:
    return _random.token_hex(16)


def commitment(state: State | Ctx, who: str, label: str) -> dict[str, Any] | None:
    return state.doc("ledger").get("commitments", {}).get(who, {}).get(label)


def revealed(state: State | Ctx, who: str, label: str) -> str | None:
    c = commitment(state, who, label)
    return c.get("secret") if c else None


def _commit_check(ctx: Ctx) -> Iterator[str]:
    if commitment(ctx, ctx.actor, ctx.params["label"]) is not None:
        yield f"{ctx.actor} has already committed to {ctx.params['label']!r}; use another label"


def _commit(ctx: Ctx) -> None:
    ledger = ctx.edit("ledger")
    ledger.setdefault("commitments", {}).setdefault(ctx.actor, {})[ctx.params["label"]] = {
        "hash": ctx.params["hash"], "at": format_time(ctx.at)}


def _reveal_check(ctx: Ctx) -> Iterator[str]:
    c = commitment(ctx, ctx.actor, ctx.params["label"])
    if c is None:
        yield f"{ctx.actor} has not committed to {ctx.params['label']!r}"
        return
    if "secret" in c:
        yield f"{ctx.actor} has already revealed {ctx.params['label']!r}"
        return
    if digest(ctx.params["secret"], ctx.params["salt"]) != c["hash"]:
        yield "the secret and salt do not give the committed hash"


def _reveal(ctx: Ctx) -> None:
    c = ctx.edit("ledger")["commitments"][ctx.actor][ctx.params["label"]]
    c["secret"] = ctx.params["secret"]
    c["salt"] = ctx.params["salt"]
    c["revealed"] = format_time(ctx.at)


COMMIT = Action(
    name="engine.commit",
    rule="hidden information",
    summary="Commit to a hidden choice by its hash (see `nomic hash`)",
    params={"type": "object", "required": ["label", "hash"], "additionalProperties": False,
            "properties": {"label": LABEL, "hash": HASH}},
    who=PLAYER,
    in_hiatus=True,
    check=_commit_check,
    effect=_commit,
    doc="Records `hash` = sha256(salt + ':' + secret) under `label`; the secret stays hidden until revealed.",
)

REVEAL = Action(
    name="engine.reveal",
    rule="hidden information",
    summary="Reveal a committed secret; the engine checks it against the hash",
    params={"type": "object", "required": ["label", "secret", "salt"], "additionalProperties": False,
            "properties": {"label": LABEL,
                           "secret": {"type": "string", "maxLength": 2000,
                                      "description": "the secret you committed to, exactly as you hashed it"},
                           "salt": {"type": "string", "maxLength": 200,
                                    "description": "the salt `nomic hash` gave you when you committed"}}},
    who=PLAYER,
    idle_ok=True,
    in_hiatus=True,
    check=_reveal_check,
    effect=_reveal,
)

ACTIONS = [COMMIT, REVEAL]
del ANYONE
