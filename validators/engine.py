"""The engine: actions, scheduled events, consequences, and the replay of one action.

The engine knows nothing about monkeys. A game module (``validators/games/*``)
registers what its rules define:

* ``DocKind``: a gamestate document (``gamestate/<name>.yaml``) and its schema;
* ``Action``: a named game action with a parameter schema, who may take it, a
  legality check that yields the reasons it is illegal (each citing a rule),
  and an effect on the gamestate;
* ``Event``: something that happens by itself at a time ("each Monday at
  00:00:01 UTC"), applied when time passes between two actions;
* consequences: functions run after every action ("if a Colonist is ever in
  an Occupied location, they are killed");
* gates: checks every action must pass (for example, BlogNomic's Hiatus);
* invariants: checks of a whole state, run by ``nomic check``.

``apply_action`` is the one place an action becomes a new state; ``nomic act``
and ``nomic check`` both call it, so they cannot disagree.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Callable, Iterable, Iterator, Mapping

from .dice import Dice, chain
from .problems import BAD_INPUT, ILLEGAL, Illegal, Problem
from .timeutil import format_time, frequency_violation, parse_time

ENGINE_DOCS = ("roster", "ledger")


# ---------------------------------------------------------------- state


@dataclass
class Rule:
    """One rule: its front matter (id, number, title, section, status, history ...) and its text."""

    id: str
    meta: dict[str, Any]
    body: str

    def copy(self) -> "Rule":
        return Rule(self.id, copy.deepcopy(self.meta), self.body)

    @property
    def title(self) -> str:
        return str(self.meta.get("title", self.id))

    @property
    def number(self) -> str:
        return str(self.meta.get("number", ""))

    def cite(self) -> str:
        return f"{self.number} {self.title}".strip()


@dataclass
class State:
    """A whole game: its configuration (game.yaml), gamestate documents and ruleset."""

    config: dict[str, Any]
    docs: dict[str, Any]
    rules: dict[str, Rule]

    def doc(self, kind: str) -> Any:
        return self.docs[kind]

    @property
    def modules(self) -> list[str]:
        return list(self.config.get("modules", []))

    def option(self, module: str, name: str, default: Any = None) -> Any:
        return self.config.get("options", {}).get(module, {}).get(name, default)

    def keyword(self, key: str, default: str | None = None) -> str:
        return str(self.config.get("keywords", {}).get(key, default if default is not None else key))

    # The roster is an engine document: every game has players.
    def players(self) -> list[dict[str, Any]]:
        return self.docs["roster"]["players"]

    def player(self, name: str) -> dict[str, Any] | None:
        for p in self.docs["roster"]["players"]:
            if p["name"] == name:
                return p
        return None

    def now(self) -> datetime | None:
        last = self.docs.get("ledger", {}).get("clock")
        return parse_time(last) if last else None


class Tx:
    """The changes one action makes, copy-on-write: only what it edits is copied."""

    def __init__(self, state: State):
        self.base = state
        self.docs: dict[str, Any] = {}
        self.rules: dict[str, Rule] | None = None
        self.config: dict[str, Any] | None = None

    def doc(self, kind: str) -> Any:
        if kind in self.docs:
            return self.docs[kind]
        return self.base.docs[kind]

    def edit(self, kind: str) -> Any:
        if kind not in self.docs:
            if kind not in self.base.docs:
                raise KeyError(f"no gamestate document {kind!r}")
            self.docs[kind] = copy.deepcopy(self.base.docs[kind])
        return self.docs[kind]

    def edit_rules(self) -> dict[str, Rule]:
        if self.rules is None:
            self.rules = {k: r.copy() for k, r in self.base.rules.items()}
        return self.rules

    def edit_config(self) -> dict[str, Any]:
        if self.config is None:
            self.config = copy.deepcopy(self.base.config)
        return self.config

    def view(self) -> State:
        """The state as it stands inside the transaction."""
        return State(self.config if self.config is not None else self.base.config,
                     {**self.base.docs, **self.docs},
                     self.rules if self.rules is not None else self.base.rules)

    def commit(self) -> State:
        return self.view()


# ---------------------------------------------------------------- definitions

Check = Callable[["Ctx"], Iterable["str | Problem"]]
Effect = Callable[["Ctx"], None]


def _nothing(ctx: "Ctx") -> Iterable[str]:
    return ()


def _no_effect(ctx: "Ctx") -> None:
    return None


# Who may take an action.
PLAYER = "player"  # an active player, for themselves
ADMIN = "admin"  # a player who is an admin
LEADER = "leader"  # the dynasty's leader (its keyword varies)
NEWCOMER = "newcomer"  # somebody not yet on the roster (joining)
ANYONE = "anyone"  # anybody, on the roster or not (ticks: letting time pass)


@dataclass(frozen=True)
class Action:
    """One registered game action. Its docstring-like ``doc`` is shown by ``nomic act --help`` and the wiki."""

    name: str
    rule: str  # the rule it comes from: "1.3 Proposals"
    summary: str
    params: Mapping[str, Any] = field(default_factory=lambda: {"type": "object", "additionalProperties": False})
    check: Check = _nothing
    effect: Effect = _no_effect
    who: str = PLAYER
    frequency: str | None = None  # "daily" or "weekly"
    frequency_key: str | None = None  # actions that share one limit share a key
    in_hiatus: bool = False  # may be taken while the game is in Hiatus
    idle_ok: bool = False  # idle players may take it
    doc: str = ""
    # Who may file this action in a pull request, besides the actor themselves.
    may_file: Callable[["Ctx", str], bool] | None = None

    def param_names(self) -> list[str]:
        return list(self.params.get("properties", {}))


@dataclass(frozen=True)
class Event:
    """Something the rules make happen at a time, whether or not anyone acts."""

    name: str
    rule: str
    next_time: Callable[[datetime], datetime]  # the first firing strictly after a time
    apply: Effect
    summary: str = ""
    enabled: Callable[[State], bool] = lambda state: True


@dataclass(frozen=True)
class DocKind:
    name: str
    schema: str  # file name under schemas/
    summary: str = ""
    # The document for a new game started from this one (``nomic new``); None keeps it as it is.
    fresh: Callable[[Any], Any] | None = None


@dataclass(frozen=True)
class Page:
    """A wiki page a module draws from the state: Markdown, which may hold generated SVG or HTML.

    Everything a player typed must be escaped by the module (``html.escape``) before it goes in.
    ``source`` is the content file the page comes from (for the wiki's edit link), relative to the game.
    """

    slug: str  # "line" -> games/<game>/line/
    title: str
    markdown: str
    source: str = ""


@dataclass
class Module:
    """A family of rules: everything one ruleset adds to the engine."""

    name: str
    title: str
    docs: list[DocKind] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    consequences: list[Effect] = field(default_factory=list)
    gates: list[Check] = field(default_factory=list)
    invariants: list[Callable[[State], Iterable[Problem]]] = field(default_factory=list)
    # Who leads the game, for the leader check ("Expedition Leader", "GRAND POOBAH").
    leader: Callable[[State], str | None] | None = None
    # The wiki pages this module draws from a state (see Page).
    pages: Callable[[State], list[Page]] | None = None
    # What may be done now and by whom, for ``nomic due``: (state, now) -> lines.
    due: Callable[[State, datetime], list[str]] | None = None
    doc: str = ""


# ---------------------------------------------------------------- the context of one action


class Ctx:
    """What an action's check and effect see: the state, the actor, the parameters, the dice."""

    def __init__(self, state: State, action: Action, record: dict[str, Any], at: datetime,
                 modules: "Registry", dice: Dice | None = None):
        self.tx = Tx(state)
        self.action = action
        self.record = record
        self.actor: str = record.get("actor", "")
        self.params: dict[str, Any] = record.get("params") or {}
        self.at = at
        self.registry = modules
        self.dice = dice or Dice("", self.actor, action.name, 0)
        self.outcome: list[Any] = []

    # reading
    @property
    def state(self) -> State:
        return self.tx.view()

    def doc(self, kind: str) -> Any:
        return self.tx.doc(kind)

    def edit(self, kind: str) -> Any:
        return self.tx.edit(kind)

    @property
    def config(self) -> dict[str, Any]:
        return self.tx.config if self.tx.config is not None else self.tx.base.config

    def option(self, module: str, name: str, default: Any = None) -> Any:
        return self.config.get("options", {}).get(module, {}).get(name, default)

    def keyword(self, key: str, default: str | None = None) -> str:
        return str(self.config.get("keywords", {}).get(key, default if default is not None else key))

    def players(self) -> list[dict[str, Any]]:
        return self.doc("roster")["players"]

    def player(self, name: str | None = None) -> dict[str, Any] | None:
        name = self.actor if name is None else name
        for p in self.doc("roster")["players"]:
            if p["name"] == name:
                return p
        return None

    def edit_player(self, name: str | None = None) -> dict[str, Any]:
        name = self.actor if name is None else name
        for p in self.edit("roster")["players"]:
            if p["name"] == name:
                return p
        raise Illegal(Problem(f"no player named {name!r}"))

    def leader(self) -> str | None:
        return self.registry.leader(self.state)

    # acting
    def roll(self, sides: int) -> int:
        return self.dice.roll(sides)

    def step(self, entry: Any) -> None:
        """Record what happened, for the action file's ``outcome`` and the wiki's step-by-step pages."""
        self.outcome.append(entry)

    def refuse(self, message: str, rule: str | None = None) -> "Illegal":
        """Stop the action as illegal: ``raise ctx.refuse("...")``."""
        return Illegal(Problem(message, rule=rule if rule is not None else self.action.rule))


# ---------------------------------------------------------------- registry


class Registry:
    """The modules a game uses, and their actions, events and documents by name."""

    def __init__(self, modules: Iterable[Module]):
        self.modules = [engine_module(), *modules]
        self.actions: dict[str, Action] = {}
        self.docs: dict[str, DocKind] = {}
        for m in self.modules:
            for a in m.actions:
                if a.name in self.actions:
                    raise ValueError(f"action {a.name} registered twice")
                self.actions[a.name] = a
            for d in m.docs:
                self.docs[d.name] = d

    @property
    def events(self) -> list[Event]:
        return [e for m in self.modules for e in m.events]

    def leader(self, state: State) -> str | None:
        for m in self.modules:
            if m.leader is not None:
                return m.leader(state)
        return None

    def unknown_action(self, name: str) -> str:
        import difflib

        close = difflib.get_close_matches(name, list(self.actions), n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        return f"unknown action {name!r}{hint} (nomic act GAME --list shows them)"


# ---------------------------------------------------------------- time passing


def due_events(registry: Registry, state: State, after: datetime, until: datetime) -> list[tuple[datetime, Event]]:
    """The scheduled events that fall in (after, until], in time order (ties by registration)."""
    out: list[tuple[datetime, int, Event]] = []
    for i, ev in enumerate(registry.events):
        if not ev.enabled(state):
            continue
        t = ev.next_time(after)
        guard = 0
        while t <= until and guard < 10000:
            out.append((t, i, ev))
            t = ev.next_time(t)
            guard += 1
    out.sort(key=lambda x: (x[0], x[1]))
    return [(t, ev) for t, _, ev in out]


def advance(registry: Registry, state: State, until: datetime) -> tuple[State, list[dict[str, Any]]]:
    """Apply every scheduled event between the state's clock and ``until``."""
    clock = state.now()
    if clock is None or until <= clock:
        return state, []
    fired = []
    for t, ev in due_events(registry, state, clock, until):
        if not ev.enabled(state):
            continue
        record = {"at": format_time(t), "actor": "", "action": ev.name, "params": {}}
        action = Action(name=ev.name, rule=ev.rule, summary=ev.summary)
        # an event's dice come from the chain and the event's time, so each firing rolls afresh
        dice = Dice(state.docs["ledger"].get("head", ""), "", f"{ev.name}@{format_time(t)}", 0)
        ctx = Ctx(state, action, record, t, registry, dice)
        ev.apply(ctx)
        for consequence in _consequences(registry):
            consequence(ctx)
        state = ctx.tx.commit()
        fired.append({"at": format_time(t), "event": ev.name, "rule": ev.rule, "outcome": ctx.outcome})
    ledger = copy.deepcopy(state.docs["ledger"])
    ledger["clock"] = format_time(until)
    return State(state.config, {**state.docs, "ledger": ledger}, state.rules), fired


def _consequences(registry: Registry) -> Iterator[Effect]:
    for m in registry.modules:
        yield from m.consequences


# ---------------------------------------------------------------- one action


@dataclass
class Applied:
    state: State
    dice: list[int]
    outcome: list[Any]
    events: list[dict[str, Any]]


def _problem(item: "str | Problem", rule: str) -> Problem:
    if isinstance(item, Problem):
        return item if item.rule else item.at(rule=rule)
    return Problem(str(item), rule=rule, kind=ILLEGAL)


def authorize(registry: Registry, state: State, action: Action, actor: str) -> Iterator[Problem]:
    """Whether ``actor`` is somebody who may take ``action`` at all."""
    player = state.player(actor)
    who = action.who
    if who == NEWCOMER:
        if player is not None:
            yield Problem(f"{actor} is already on the roster", rule=action.rule)
        return
    if who == ANYONE and player is None:
        return
    if player is None:
        yield Problem(f"{actor!r} is not on the roster", rule=action.rule)
        return
    if player.get("idle") and not action.idle_ok:
        yield Problem(f"{actor} is idle; idle players may not take this action", rule=action.rule)
    if who == ADMIN and not player.get("admin"):
        yield Problem(f"{actor} is not an admin; only admins may take this action", rule=action.rule)
    if who == LEADER:
        leader = registry.leader(state)
        if leader != actor:
            yield Problem(f"only the {state.keyword('leader', 'leader')} ({leader or 'none'}) may take this action",
                          rule=action.rule)


def apply_action(registry: Registry, state: State, record: dict[str, Any], *,
                 validate_params: Callable[[Action, dict[str, Any]], Iterable[Problem]] | None = None,
                 dice: Dice | None = None) -> Applied:
    """Replay one action record on ``state``: time passes, it is judged, then it takes effect.

    Raises Illegal with every reason found, or BadInput for a malformed record.
    """
    from .problems import BadInput

    name = record.get("action", "")
    action = registry.actions.get(name) if isinstance(name, str) else None
    if action is None:
        raise BadInput(Problem(registry.unknown_action(name), field="action", kind=BAD_INPUT))
    try:
        at = parse_time(record.get("at", ""))
    except ValueError as e:
        raise BadInput(Problem(str(e), field="at", kind=BAD_INPUT)) from None
    if validate_params is not None:  # the record's shape and the action's parameter schema
        problems = list(validate_params(action, record))
        if problems:
            raise BadInput(problems)

    clock = state.now()
    if clock is not None and at < clock:
        raise Illegal(Problem(f"dated {format_time(at)}, before the last action or event ({format_time(clock)}); "
                              "actions are replayed in time order", field="at", rule="time"))
    state, fired = advance(registry, state, at)

    actor = record.get("actor", "")
    ledger = state.docs["ledger"]
    if actor == ledger.get("run_actor"):
        head, k = ledger.get("run_head", ""), int(ledger.get("run_counts", {}).get(name, 0))
    else:
        head, k = ledger.get("head", ""), 0
    dice = dice or Dice(head, actor, name, k)
    ctx = Ctx(state, action, record, at, registry, dice)

    problems = list(authorize(registry, state, action, actor))
    if not problems:
        for module in registry.modules:
            for gate in module.gates:
                problems.extend(_problem(p, module.title) for p in gate(ctx))
        if action.frequency:
            key = action.frequency_key or action.name
            previous = [parse_time(t) for t in ledger.get("recent", {}).get(actor, {}).get(key, [])]
            why = frequency_violation(action.frequency, previous, at)
            if why:
                problems.append(Problem(f"{action.frequency} action {why}", rule=action.rule))
    if not problems:
        problems.extend(_problem(p, action.rule) for p in action.check(ctx))
    if problems:
        raise Illegal(problems)

    action.effect(ctx)
    for consequence in _consequences(registry):
        consequence(ctx)

    _update_ledger(ctx, action, record, at, head, k)
    return Applied(ctx.tx.commit(), list(dice.rolled), ctx.outcome, fired)


def _update_ledger(ctx: Ctx, action: Action, record: dict[str, Any], at: datetime, head: str, k: int) -> None:
    ledger = ctx.edit("ledger")
    actor = ctx.actor
    if actor != ledger.get("run_actor"):
        ledger["run_actor"] = actor
        ledger["run_head"] = ledger.get("head", "")
        ledger["run_counts"] = {}
    ledger["run_counts"][action.name] = k + 1
    ledger["head"] = chain(ledger.get("head", ""), record)
    ledger["actions"] = int(ledger.get("actions", 0)) + 1
    ledger["clock"] = format_time(at)
    ledger["last"] = f"{record.get('at')} {actor} {action.name}"
    ledger.setdefault("seen", {})[actor] = format_time(at)
    if action.frequency:
        key = action.frequency_key or action.name
        recent = ledger.setdefault("recent", {}).setdefault(actor, {})
        times = recent.get(key, [])
        horizon = at - timedelta(days=8)
        recent[key] = [t for t in times if parse_time(t) >= horizon] + [format_time(at)]
    # forget limits that can no longer bite, so the ledger stays small
    horizon = at - timedelta(days=8)
    for who in list(ledger.get("recent", {})):
        for key in list(ledger["recent"][who]):
            kept = [t for t in ledger["recent"][who][key] if parse_time(t) >= horizon]
            if kept:
                ledger["recent"][who][key] = kept
            else:
                del ledger["recent"][who][key]
        if not ledger["recent"][who]:
            del ledger["recent"][who]


# ---------------------------------------------------------------- the engine's own actions

TICK = Action(
    name="engine.tick",
    rule="scheduled events",
    summary="Let time pass: apply every scheduled event that has fallen due",
    who=ANYONE,
    idle_ok=True,
    in_hiatus=True,
    doc="Any player may file a tick; it changes nothing but the scheduled events due by its time. "
        "A scheduled workflow runs `nomic tick` on main.",
)

_ENGINE: list[Module] = []


def engine_module() -> Module:
    """The engine's own actions, part of every game: the tick, and commit-and-reveal."""
    if not _ENGINE:
        from .secrets import ACTIONS as SECRET_ACTIONS

        _ENGINE.append(Module(name="engine", title="Engine", actions=[TICK, *SECRET_ACTIONS]))
    return _ENGINE[0]
