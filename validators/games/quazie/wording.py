"""What a player reads of this module, in the game's words (seed 003 rule 9).

An Ascension Address may replace "Muffin" and "GRAND POOBAH" (and "Stuffs", the roster's column label) with new
terms, and game.yaml's keywords (``player``, ``players``, ``leader``) then hold them. The module's messages are
written in the seed's words; ``worded`` passes every refusal (an action's check and ``ready``, a gate, an effect or
a consequence stopping the action) and what ``nomic check`` and ``nomic due`` say through one helper,
``_markup.in_words`` (the wiki's Actions page and ``nomic act --list`` say the actions' descriptions through it too),
so that they follow the keywords without a copy of the words in each message. The players' names and the values
a player gave, which a refusal quotes, are kept as they are.

Only the words of a refusal or a report are ever rewritten, when it is made: on the legal path a check yields
nothing and a consequence raises nothing, so the wrapping costs one call. Outcomes, which the log records and the
replay compares, are not rewritten here; the few that name the GRAND POOBAH say its title themselves
(``roles.title``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from functools import wraps
from typing import Any

from ...engine import Action, Ctx, Module, State, peek
from ...problems import NomicError, Problem
from .._markup import in_words


def _kept(where: State | Ctx) -> list[str]:
    """What a refusal quotes that is no word of the rules: the players' names, and each text the action was given
    as a refusal quotes it (``repr``), so a Muffin named "Muffin" or a word given as 'Muffin' stays so."""
    names = [str(p.get("name", "")) for p in peek(where.players())]
    params = where.params if isinstance(where, Ctx) else {}
    given = [v for value in params.values() for v in (value if isinstance(value, list) else [value])]
    return names + [repr(v) for v in given if isinstance(v, str)]


def _said(where: State | Ctx, module: Module, items: Iterable[Any]) -> list[Any]:
    """Each message (text or Problem) of ``items`` in the game's words."""
    say = in_words(where, module, _kept(where))
    return [x.at(message=say(x.message)) if isinstance(x, Problem) else say(str(x)) for x in items]


def _reraised(where: State | Ctx, module: Module, e: NomicError) -> NomicError:
    return type(e)(_said(where, module, e.problems))


def _yields(module: Module, fn: Callable[..., Iterable[Any]]) -> Callable[..., Iterator[Any]]:
    """A check, ``ready``, gate or invariant whose messages follow the game's words."""
    @wraps(fn)  # keeps what ``engine.ruled`` ties to it
    def worded(where: Any, *args: Any) -> Iterator[Any]:
        try:
            found = list(fn(where, *args))
        except NomicError as e:
            raise _reraised(where, module, e) from None
        return iter(_said(where, module, found) if found else found)
    return worded


def _stops(module: Module, fn: Callable[[Ctx], None]) -> Callable[[Ctx], None]:
    """An effect or consequence whose refusal follows the game's words."""
    @wraps(fn)
    def worded(ctx: Ctx) -> None:
        try:
            fn(ctx)
        except NomicError as e:
            raise _reraised(ctx, module, e) from None
    return worded


def _action(module: Module, a: Action) -> Action:
    ready = _yields(module, a.ready) if a.ready is not None else None
    return replace(a, check=_yields(module, a.check), ready=ready, effect=_stops(module, a.effect))


def worded(module: Module) -> Module:
    """``module`` with its refusals and reports in the game's words (see the module's docstring)."""
    due = module.due
    return replace(
        module,
        actions=[_action(module, a) for a in module.actions],
        consequences=[_stops(module, c) for c in module.consequences],
        gates=[_yields(module, g) for g in module.gates],
        invariants=[_yields(module, i) for i in module.invariants],
        due=(lambda state, now: _said(state, module, due(state, now))) if due is not None else None,
    )
