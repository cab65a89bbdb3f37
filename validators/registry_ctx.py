"""A context for reading a state at a time, outside any action (the admin's desk, the wiki)."""

from __future__ import annotations

from datetime import datetime

from .engine import Action, Ctx, State
from .modules import registry_for
from .timeutil import format_time

_LOOK = Action(name="engine.look", rule="", summary="read the state")


def ctx_at(state: State, at: datetime, actor: str = "") -> Ctx:
    record = {"at": format_time(at), "actor": actor, "action": _LOOK.name, "params": {}}
    return Ctx(state, _LOOK, record, at, registry_for(state.modules))
