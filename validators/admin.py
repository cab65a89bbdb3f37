"""The admin's desk and the game's life: ``nomic due``, ``nomic tick``, ``nomic new``."""

from __future__ import annotations

import copy
from datetime import datetime
from pathlib import Path
from typing import Any, Iterator

from . import content, yamlio
from .content import GameFiles, WorkTree, games_here, load_game, require_game
from .engine import NEWCOMER, Founding, Registry, Rule, State, apply_action, due_events
from .judge import cited
from .problems import BAD_INPUT, BadInput, Illegal, Problem, counted
from .roster import fold, new_stats
from .timeutil import format_time, parse_time
from .transaction import locked, write_all


def due(root: Path, game: str, now: datetime) -> list[str]:
    """What can be done now in ``game``, and by whom; scheduled events that have fallen due."""
    require_game(root, game)
    files = load_game(WorkTree(root), game)
    state = files.state
    clock = state.now()
    if clock is not None and now < clock:
        # the gamestate is the game's as it stands, after its last action: what was due before then is not in it
        # (`nomic due monkey --at` a day before its last action said "nothing to do")
        raise BadInput(Problem(f"{format_time(now)} is before {game}'s last action or event ({format_time(clock)}): "
                               "nomic due reads the gamestate as it stands, so it answers only from then on",
                               field="--at", kind=BAD_INPUT))
    lines = []
    events, kept = fallen_due(files.registry, state, now)
    for t, ev in events[:20]:
        what = f" ({ev.summary})" if ev.summary else ""
        lines.append(f"scheduled: {ev.name}{what} fell due at {format_time(t)} [rule: {cited(state, ev.rule)}]; "
                     f"anyone may apply it with `nomic tick {game} --as NAME`")
    if len(events) > 20:
        lines.append(f"... and {len(events) - 20} more scheduled events")
    if kept:
        lines.append(f"the rules' own deadlines have fallen due since the last action "
                     f"({counted(len(kept), 'change')}, the first: {said(kept[0])}); anyone may apply "
                     f"them with `nomic tick {game} --as NAME`")
    for module in files.registry.modules:
        if module.due is not None:
            lines.extend(module.due(state, now))
    return lines


def fallen_due(registry: Registry, state: State, now: datetime,
               actor: str = "nomic-tick") -> tuple[list[tuple[datetime, Any]], list[Any]]:
    """What a tick at ``now`` would apply: the scheduled events fallen due since the last action, or, when there
    are none, the deadlines a module settles before any action (``deadlines_due``); both empty before the game
    has a clock. ``nomic due`` says them, and ``nomic tick`` files a tick when either is not empty."""
    clock = state.now()
    if clock is None:
        return [], []
    events = due_events(registry, state, clock, now)
    return events, ([] if events else deadlines_due(registry, state, now, actor))


def deadlines_due(registry: Registry, state: State, now: datetime, actor: str = "nomic-tick") -> list[Any]:
    """What a tick at ``now`` would do besides the scheduled events: the deadlines a module settles in its gate
    before any action (ifMUD's turns running out, bombs, proposals taking effect: docs/modules/ifmud.md, "Time"),
    as the tick's recorded outcome. Empty when nothing has fallen due (or a tick could not be taken: the tick says
    why when it is filed)."""
    record = {"at": format_time(now), "actor": actor, "action": "engine.tick"}
    try:
        return list(apply_action(registry, state, record).outcome)
    except Exception:  # noqa: BLE001 - only a preview: a refused tick is reported by the tick itself
        return []


def said(step: Any) -> str:
    """One outcome step in a line: ``turn_ends: Zoe Abbott, how: timeout, at: 2026-11-06T03:00:00Z``."""
    if isinstance(step, dict):
        return ", ".join(f"{k}: {v}" for k, v in step.items())[:160]
    return str(step)[:160]


def unread(problems: list[Problem]) -> str:
    """What ``nomic due`` and ``nomic tick`` of every game say in the place of one they cannot read, its problems
    being told after the others' answers (bad input, exit 2)."""
    return f"its files are bad input ({counted(len(problems), 'problem')}, below)"


def tick(root: Path, game: str | None, actor: str, now: datetime) -> Iterator[str]:
    """Apply the scheduled events that have fallen due, as an ``engine.tick`` action per game that has any: a line
    for each game as it is done. Of every game, one that cannot be read is told in its place and the others are
    ticked; its problems are raised (BadInput) at the end."""
    from .act import act

    bad: list[Problem] = []
    if game:
        require_game(root, game)
    for name in [game] if game else games_here(root):
        try:
            files = load_game(WorkTree(root), name)
        except BadInput as e:
            if game:
                raise
            bad += e.problems
            yield f"{name}: not ticked: {unread(e.problems)}"
            continue
        # the scheduled events (the engine's), or else the deadlines a module settles before every action (ifMUD's
        # turns and bombs): either makes a tick worth filing
        if not any(fallen_due(files.registry, files.state, now, actor)):
            yield f"{name}: nothing due"
            continue
        result = act(root, name, "engine.tick", actor, {}, now, now=now)
        if not result.step.legal:
            # the tick's action file is not written: a problem placed in it named a file nobody could find; the
            # actor's is the --as typed (as nomic act places a refusal on the action, not on its unwritten file)
            raise BadInput([p.at(kind=BAD_INPUT, file="", line=0, col=0, action="",
                                 field="--as" if p.field == "actor" else p.field)
                            if p.file == result.action_path else p.at(kind=BAD_INPUT)
                            for p in result.step.problems])
        fired = result.step.applied.events if result.step.applied else []
        steps = result.step.applied.outcome if result.step.applied else []
        what = counted(len(fired), 'scheduled event') if fired or not steps else \
            f"the deadlines that fell due ({counted(len(steps), 'change')})"
        yield f"{name}: {what} applied; wrote {result.action_path}"
    if bad:
        raise BadInput(bad)


def new_game(root: Path, name: str, example: str, now: datetime, title: str | None = None,
             admins: list[str] | None = None) -> list[str]:
    """A new game folder from an example: fresh roster, ruleset kept, history empty, ready to check and build.

    ``admins`` (``NAME=ACCOUNT``) are the founding players, admins from the start: the rules give enacting,
    failing and judging to admins only, and a game whose players all came in by ``core.join`` (never an admin)
    would have nobody who could ever enact a proposal. They stand in the founding state (``initial/``), which a
    pull request may not change once the game is on the base branch, so they are named when the game is made.
    The example's players go, and who is on its roster without being a player (an NPC) stays; the founders then
    join as newcomers do (``_found``).
    """
    founders = [_founder(text) for text in admins or []]
    target = root / "content" / content.game_name(name)  # the rule every command taking a game applies
    if target.exists():
        raise BadInput(Problem(f"content/{name} already exists", field="game", kind=BAD_INPUT))
    require_game(root, example, "--from")
    source = load_game(WorkTree(root), example)
    config = copy.deepcopy(source.state.config)
    config["name"] = title or name
    config.pop("description", None)  # the example's blurb ("a handful of Colonists, a few proposals...") is not ours
    example_founded = _founded(root, example)
    for module in source.registry.modules:
        if module.found is not None:
            module.found(config, now, example_founded)
    docs = {}
    founding_docs = _founding_docs(root, example, source) if any(
        dk.fresh_founding is not None for dk in source.registry.docs.values()) else {}
    for kind, data in source.state.docs.items():
        dk = source.registry.docs.get(kind)
        if kind == "roster":
            # the example's players go; who is on the roster without being a player (an NPC: a `kind`) stays,
            # with what is eirs
            docs[kind] = {"stats": copy.deepcopy(data["stats"]),
                          "players": [copy.deepcopy(p) for p in data["players"] if p.get("kind")]}
        elif kind == "ledger":
            docs[kind] = {"clock": format_time(now), "actions": 0, "head": ""}
        elif dk is not None and dk.fresh_founding is not None:
            docs[kind] = dk.fresh_founding(copy.deepcopy(data), Founding(now, example_founded,
                                                                         copy.deepcopy(founding_docs.get(kind)),
                                                                         source.state))
        elif dk is not None and dk.fresh is not None:
            docs[kind] = dk.fresh(copy.deepcopy(data), now)
        else:
            docs[kind] = copy.deepcopy(data)
    docs = _found(source.registry, State(config, docs, source.state.rules), founders, now)
    texts: dict[Path, str] = {}
    rel = f"content/{name}"
    rules = {rid: _founded_rule(rule, source.texts[source.rule_paths[rid]], source.rule_paths[rid], now)
             for rid, rule in source.state.rules.items()}
    for part in ("", "initial/"):  # initial/game.yaml: the configuration the game is founded with
        texts[root / f"{rel}/{part}game.yaml"] = content.doc_text(config, f"{rel}/{part}game.yaml", "game.schema.json")
        for kind, data in docs.items():
            schema = source.registry.docs[kind].schema if kind in source.registry.docs else f"{kind}.schema.json"
            path = f"{rel}/{part}gamestate/{kind}.yaml"
            texts[root / path] = content.doc_text(data, path, schema)
        for rid, text in rules.items():
            texts[root / f"{rel}/{part}ruleset/{rid}.md"] = text
    with locked(target):
        write_all(target, texts)
    (target / "actions").mkdir(exist_ok=True)
    (target / "actions" / ".gitkeep").write_text("")
    join = _join(source.registry)
    names = ", ".join(n for n, _ in founders)
    who = (f"{'the admin' if len(founders) == 1 else 'the admins'} {names} on the roster" if founders else
           "an empty roster (no admin: see below)")
    lines = [f"created content/{name} from content/{example}: {len(docs)} documents, "
             f"{len(source.state.rules)} rules, {who}, an empty history",
             f"its pull request (an admin's, as an admin of a game opens it): nomic pr {name} --author LOGIN",
             f"next: players join with `nomic act {name} {join} account=LOGIN --as NAME`" if join else
             f"next: players come in as {name}'s rules let them: " + _newcomer_hint(source.registry)]
    if not founders:
        lines.append(f"warning: {name} has no admin, and only admins may enact proposals or resolve CfJs: remove "
                     f"content/{name} and run nomic new again with --admin NAME=LOGIN (repeatable)")
    return lines


def _newcomer_hint(registry: Registry) -> str:
    """How a newcomer comes into a game with no join action: the module's own words, or a proposal's effects."""
    return next((m.newcomer_hint for m in registry.modules if m.newcomer_hint), None) or (
        "a proposal whose effects add them to the roster (`{op: add, path: /roster/players/-, value: {name: NAME, "
        "account: LOGIN, joined: TIME, stats: {}}}`), TIME being when the proposal takes effect")


def _founded(root: Path, example: str) -> datetime | None:
    """When the example game was founded: the clock of its founding state (``initial/``), or None without one."""
    path = root / "content" / example / "initial" / "gamestate" / "ledger.yaml"
    if not path.is_file():
        return None
    clock = yamlio.load_file(path, f"content/{example}/initial/gamestate/ledger.yaml")
    clock = clock.get("clock") if isinstance(clock, dict) else None
    try:
        return parse_time(clock) if clock else None
    except (TypeError, ValueError):
        return None  # the example's own check reports it; the new game then keeps the example's dates as they are


def _founding_docs(root: Path, example: str, source: GameFiles) -> dict[str, Any]:
    """The example's documents as it was founded (``initial/gamestate``), or none without a founding state or
    with one its own check refuses (that check reports it; the new game then starts from the documents as they
    stand)."""
    if not (root / "content" / example / "initial" / "gamestate").is_dir():
        return {}
    try:
        return dict(load_game(WorkTree(root), example, part="initial/", registry=source.registry).state.docs)
    except BadInput:
        return {}


def _founded_rule(rule: Rule, text: str, path: str, now: datetime) -> str:
    """The text of an example's rule in the new game: as it stands (number, title, status, text), founded with the
    game. Its history in the example (founded on the example's date, amended or repealed by the example's
    proposals) is what happened in another game, which the new game's wiki would show as its own."""
    meta = copy.deepcopy(rule.meta)
    meta["history"] = [{"event": "founded", "at": format_time(now)}]
    return content.rule_text(Rule(rule.id, meta, rule.body), text, path)


def _found(registry: Registry, state: State, founders: list[tuple[str, str]], now: datetime) -> dict[str, Any]:
    """The founding state: each founder comes in as a newcomer does, by the game's own join (``core.join``,
    ``cycle12.join``) at the founding time, and is made an admin; then a tick lets the game's consequences
    settle what the example's players left behind (their place in the Monkey Line, their servants), as they
    would for a player who left. The ledger then starts again: no action yet, the clock at the founding."""
    join = _join(registry)
    at = format_time(now)
    for who, account in founders:
        if join is None:  # no join of its own (ifMUD: a player comes in by a proposal's patch); the
            # consequences give em what the rules give a player added so (the tick below)
            why = _founder_clash(state, who, account)
            if why:
                raise BadInput(Problem(f"{who} cannot come in as a founder: {why}", field="--admin", kind=BAD_INPUT))
            state.docs["roster"]["players"].append({"name": who, "account": account, "admin": False,
                                                    "idle": False, "joined": at,
                                                    "stats": new_stats(state.docs["roster"]["stats"])})
            continue
        state = _apply(registry, state, {"at": at, "actor": who, "action": join, "params": {"account": account}})
    state = _apply(registry, state, {"at": at, "actor": founders[0][0] if founders else "nomic",
                                     "action": "engine.tick", "params": {}})
    docs = dict(state.docs)
    names = {who for who, _ in founders}
    docs["roster"] = copy.deepcopy(docs["roster"])
    for p in docs["roster"]["players"]:
        if p["name"] in names:
            p["admin"] = True
    docs["ledger"] = {"clock": at, "actions": 0, "head": ""}
    return docs


def _founder_clash(state: State, who: str, account: str) -> str | None:
    """Why a founder of a game with no join action (ifMUD) cannot stand beside those on the roster already, as a
    proposal's effects adding em could not (``ifmud.consent``): a name too like another's (ifMUD Rules 12, 27: turns
    go by the names players are known by), or an account another plays with (Rules 3, 23: one account, one player).
    A game with a join action asks its join instead."""
    for p in state.docs["roster"]["players"]:
        if fold(p["name"]) == fold(who):
            return f"the name {who!r} is too like {p['name']!r}, who is already playing"
        if p.get("account") and str(p["account"]).lower() == account.lower():
            return f"the account {account} already plays as {p['name']}"
    return None


def _join(registry: Registry) -> str | None:
    """The game's own join: the action a newcomer takes (``core.join``, ``cycle12.join``), if it has one."""
    return next((a.name for a in registry.actions.values() if a.who == NEWCOMER), None)


def _apply(registry: Registry, state: State, record: dict[str, Any]) -> State:
    try:
        return apply_action(registry, state, record).state
    except Illegal as e:
        who = record["actor"]
        raise BadInput([p.at(field="--admin", kind=BAD_INPUT, message=f"{who} cannot come in as a founder: {p.message}")
                        for p in e.problems]) from None


def _founder(text: str) -> tuple[str, str]:
    """``--admin NAME=ACCOUNT``: a founding admin's roster name and forge login."""
    who, sep, account = text.partition("=")
    if not sep or not who.strip() or not account.strip():
        raise BadInput(Problem(f"{text[:80]!r} is not NAME=LOGIN (the player's name on the roster, and the account "
                               "their pull requests come from), like --admin Anne=anne-gh", field="--admin",
                               kind=BAD_INPUT))
    who, account = who.strip(), account.strip()
    # the roster's schema asks both of every player (common.schema.json's name and account); refused here, before a
    # file of the new game is written, rather than in its roster after
    for value, ref, what in ((who, "name", "NAME"), (account, "account", "LOGIN")):
        problem = arg_problem(value, ref, "--admin")
        if problem is not None:
            raise BadInput(problem.at(message=f"{what} {problem.message}"))
    return who, account


def arg_problem(value: str, ref: str, field: str) -> Problem | None:
    """Why a command-line ``value`` is not what ``common.schema.json#/$defs/REF`` asks of the files that will hold
    it, as a problem of ``field`` (a value too long to show is shown by its length); None when it is."""
    from .schemas import errors

    problems = errors(value, inline={"$ref": f"common.schema.json#/$defs/{ref}"}, kind=BAD_INPUT)
    if not problems:
        return None
    p = problems[0]
    message = p.message
    if len(value) > 80:
        message = message.replace(repr(value), f"{value[:40]!r}... ({len(value)} characters)")
    return p.at(message=message, field=field)


def founding_problems(root: Path, name: str) -> list[Problem]:
    """The new game's files checked as ``nomic check --game NAME --no-replay`` checks them: a founder the roster's
    schema refuses, or an example whose own documents still name its players (the Monkey Line's monkeys), shows
    here rather than first in the pull request."""
    from .check import check_repo

    return [p.at(kind=BAD_INPUT) for p in check_repo(root, replay=False, only=[name]).problems]
