"""``nomic act``: take one game action in the work tree.

Judges the action exactly as ``nomic check`` will, then writes the action
file and rewrites only the gamestate and rule files it changed, with
ruamel.yaml's round trip so the diff shows only changed values.
"""

from __future__ import annotations

import math
import os
import re
import shlex
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping

from . import content, schemas, yamlio
from .content import GameFiles, WorkTree, load_game, require_game
from .engine import Ctx, State, in_force, name_hint, too_often, who_problems, withdrawn, withdrawn_problem
from .games._markup import in_words
from .judge import Step, cite, judge_one
from .problems import BAD_INPUT, ILLEGAL, NEEDS_ADMIN, BadInput, Problem
from .timeutil import file_stamp, format_time
from .transaction import locked, write_all


@dataclass
class ActResult:
    step: Step
    action_path: str = ""
    written: list[str] = field(default_factory=list)
    before: State | None = None
    texts: dict[str, str] = field(default_factory=dict)  # path -> new text
    old_texts: dict[str, str] = field(default_factory=dict)  # path -> text before
    advice: list[str] = field(default_factory=list)  # what the player should know of the legal action (Module.advice)


def _how_to_write(pairs: list[str], i: int) -> str:
    """How to write ``pairs[i]``, which is no key=value: the shell split ``proposal = 3`` or ``proposal= 3`` at
    its spaces, or ``proposal:3`` was meant as one."""
    pair, before, after = pairs[i], pairs[i - 1] if i else "", pairs[i + 1] if i + 1 < len(pairs) else ""
    if pair == "=" or (pair.startswith("=") and before and "=" not in before):
        return f": write {before}={pair[1:] or after} as one word, with no spaces around '='"
    if after.startswith("=") and "=" not in pair:
        return f": write {pair}={after[1:] or (pairs[i + 2] if i + 2 < len(pairs) else 'VALUE')} as one word, " \
               "with no spaces around '='"
    if before.endswith("=") and before.count("=") == 1:
        return f": write {before}{pair} as one word, with no space after '='"
    if ":" in pair and re.match(r"^[a-z_][a-z0-9_]{0,40}$", pair.split(":", 1)[0]):
        key, _, value = pair.partition(":")
        return f": write {key}={value.strip() or 'VALUE'}"
    if re.match(r"^[a-z_][a-z0-9_]{0,40}$", pair):
        return f": write {pair}=VALUE"
    return ": each parameter is written key=value, like proposal=3"


def parse_params(pairs: list[str], cwd: Path, given: dict[str, str] | None = None) -> dict[str, Any]:
    """``key=value`` pairs; values are YAML (``n=3``, ``moves=[Swing 2 to 5, Bow]``).

    ``key=@file`` reads a file: its data if it is a .yaml file, else its text. ``given`` receives the text typed
    for each other value, for ``as_typed``.
    """
    params: dict[str, Any] = {}
    for i, pair in enumerate(pairs):
        if "=" not in pair:
            raise BadInput(Problem(f"parameter {pair!r} is not key=value{_how_to_write(pairs, i)}",
                                   field=pair or "params", kind=BAD_INPUT))
        key, _, raw = pair.partition("=")
        key = key.strip()
        if not key:
            raise BadInput(Problem(f"parameter {pair!r} names no parameter before '='{_how_to_write(pairs, i)}",
                                   field=pair, kind=BAD_INPUT))
        if not re.match(r"^[a-z_][a-z0-9_]{0,40}$", key):
            lower = key.lower().replace("-", "_")
            hint = (f"; did you mean {lower!r}? (parameter names are lower-case, with '_')"
                    if re.match(r"^[a-z_][a-z0-9_]{0,40}$", lower) else "")
            raise BadInput(Problem(f"parameter name {key!r} is not valid{hint}", field=key, kind=BAD_INPUT))
        if key in params:
            raise BadInput(Problem(f"parameter {key!r} given twice", field=key, kind=BAD_INPUT))
        if raw.startswith("@"):
            path = cwd / raw[1:]
            if path.is_symlink():  # a link committed by someone else could point at the player's secrets
                raise BadInput(Problem(f"{raw[1:]!r} is a symbolic link; name the file itself", field=key,
                                       kind=BAD_INPUT))
            if not raw[1:].strip():
                raise BadInput(Problem(f"no file after @: name one, like {key}=@draft.md", field=key, kind=BAD_INPUT))
            if path.is_dir():
                raise BadInput(Problem(f"{raw[1:]!r} is a folder; @ reads one file: name it", field=key,
                                       kind=BAD_INPUT))
            if path.exists() and not path.is_file():  # /dev/null, a pipe: there, but not a file to read
                raise BadInput(Problem(f"{raw[1:]!r} is not a regular file (a device or a pipe); @ reads a file",
                                       field=key, kind=BAD_INPUT))
            if not path.is_file():
                where = "" if Path(raw[1:]).is_absolute() else f" in {cwd} (a path after @ is the current folder's)"
                raise BadInput(Problem(f"no file {raw[1:]!r}{where}", field=key, kind=BAD_INPUT))
            text = yamlio.read_text(path, raw[1:])
            params[key] = yamlio.load(text, raw[1:]) if path.suffix in (".yaml", ".yml") else text
            continue
        if len(raw) > 20000:
            raise BadInput(Problem("value is too long", field=key, kind=BAD_INPUT))
        if given is not None:
            given[key] = raw
            try:
                value = yamlio.load(raw, f"parameter {key}") if raw.strip() else ""
            except BadInput as e:  # text to a parameter that takes text (``title=Proposal: A: B``), else refused
                params[key] = _Unread(raw, e)
                continue
        else:
            value = yamlio.load(raw, f"parameter {key}") if raw.strip() else ""
        if value is None:
            value = raw
        if isinstance(value, float) and not math.isfinite(value):
            raise BadInput(Problem("infinite or NaN numbers are not allowed", field=key, kind=BAD_INPUT))
        params[key] = value
    return params


@dataclass(frozen=True)
class _Unread:
    """A value typed on the command line that is no YAML: its text, and why YAML refused it."""

    text: str
    error: BadInput


def as_typed(params: dict[str, Any], given: dict[str, str], schema: Mapping[str, Any] | None) -> dict[str, Any]:
    """A value typed for a parameter that takes a string stays the text typed, whatever YAML reads it as: a
    proposal's title ``title="Proposal: More Fun"`` is a mapping to YAML, ``name=1999`` a number, and
    ``title="Proposal: A: B"`` no YAML at all. Any other value that is no YAML is refused as such. ``schema``:
    the action's parameters (None: no such action, which is refused for that)."""
    props = (schema or {}).get("properties") or {}
    out = dict(params)
    for key, text in given.items():
        if key not in out:
            continue
        if isinstance(out[key], str):
            # YAML's reading of plain text can differ from it: a ` #` starts a comment, dropped with all after it
            # (text="Line one  # two" was "Line one"), and line breaks fold into spaces (a proposal's paragraphs ran
            # together). Only blanks around it, and quotes typed around it on purpose ('...', "..."), go.
            if (out[key] != text.strip() and not text.strip().startswith(("'", '"'))
                    and (schema is None or schemas.asks_text(props.get(key) or {}))):
                out[key] = text
            continue
        if schema is None or schemas.asks_text(props.get(key) or {}):
            out[key] = text
        elif isinstance(out[key], _Unread):
            raise out[key].error
    return out


@lru_cache(maxsize=4096)  # a replay checks every action file's name: the same few actors, thousands of times
def slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name)[:64]


def action_filename(record: dict[str, Any]) -> str:
    """``<time>--<actor>--<action>.yaml``. There is no second file of one name: the log is replayed in file-name
    order and no suffix would sort after the first file's own name, so the same actor taking the same action in
    the same second is refused by the judge's same-second rule (``judge``: date it one second later)."""
    return f"{file_stamp(record['at'])}--{slug(record['actor'])}--{record['action']}.yaml"


def record_for(action: str, actor: str, at: datetime, params: dict[str, Any], note: str | None) -> dict[str, Any]:
    record: dict[str, Any] = {"at": format_time(at), "actor": actor, "action": action}
    if params:
        record["params"] = params
    if note:
        record["note"] = note
    return record


def act(root: Path, game: str, action: str, actor: str, params: dict[str, Any], at: datetime, *,
        note: str | None = None, dry_run: bool = False, now: datetime | None = None,
        given: dict[str, str] | None = None, on_changes: bool = False) -> ActResult:
    """``given``: the text typed for each parameter (``parse_params``), kept as typed where a string is asked.
    ``on_changes``: before writing a legal action, refuse to build on uncommitted changes the pull-request check
    would refuse (``unexplained_changes``), as ``nomic act`` does."""
    folder = root / "content" / game
    require_game(root, game)
    with locked(folder) as recovered, yamlio.keeping_nodes():
        if recovered:
            # Finished now, the interrupted run's action stands; acting again blindly could take it twice.
            done = ", ".join(sorted(Path(os.path.relpath(p, root.resolve())).as_posix() for p in recovered
                                   if p.parent.name == "actions"))
            done = done or "no action file"
            raise BadInput(Problem(f"an earlier nomic act was interrupted; its write is now finished ({done}). "
                                   "Look at the change (git status) before acting again",
                                   f"content/{game}", kind=BAD_INPUT))
        files = load_game(WorkTree(root), game)
        known = files.registry.actions.get(action)
        if given:
            params = as_typed(params, given, known.params if known is not None else None)
        record = record_for(action, actor, at, params, note)
        if known is not None and files.state.player(actor) is None and any(
                who_problems(files.registry, files.state, known, actor)) and not any(
                p.field == "actor" for p in schemas.errors(record, schema="action.schema.json")):
            # --as dana, --as Zebedee: a name typed that is nobody's on the roster is a mistake on the command line
            # (exit 2, as nomic checkpoint --as says it), not the game's refusal; an action file of such an actor
            # stays illegal in the check (the rules say who may act). A name no roster could hold (too long, say)
            # is told that instead, by the record's own check
            hint = (name_hint(files.state, actor) or f" (nomic act {game} --list --as {shlex.quote(actor)} shows what "
                                                      "a newcomer of that name may do)")
            raise BadInput(Problem(f"{actor!r} is not on the roster{hint}", field="--as", kind=BAD_INPUT))
        name = action_filename(record)
        path = f"{files.root}/actions/{name}"
        try:
            step = judge_one(files.registry, files.state, record, path, now=now, check_recorded=False)
        except Exception:
            # The rules read the files as ``nomic check`` promises them (a player on the map, a stat of its
            # declared type). A hand edit that breaks that promise can make a rule fail: then say what is wrong
            # with the files, at their lines, rather than a traceback. A failure on valid files is a bug: raised.
            broken = _invariant_problems(files)
            if not broken:
                raise
            raise BadInput([_already(q).at(kind=BAD_INPUT) for q in broken]) from None
        result = ActResult(step, path, before=files.state)
        if not step.legal or step.applied is None:
            return result
        if path in files.actions:  # the same-second rule refuses this first; never write over the log
            raise BadInput(Problem(f"the action file {name} exists already; date this action at least one second "
                                   "later", path, field="at", kind=BAD_INPUT))
        if step.applied.dice:
            record["dice"] = step.applied.dice
        if step.applied.outcome:
            record["outcome"] = step.applied.outcome
        texts = render_changes(files, step.applied.state)
        invalid = resulting_problems(files, step.applied.state, texts)
        if invalid:
            # What CI would refuse once the files are read back: refuse it now and write nothing.
            step.problems = invalid
            return result
        if on_changes and (unexplained := unexplained_changes(root, game, now)):
            raise BadInput(unexplained)  # an edit by hand under the action: the check would refuse both
        texts[path] = content.doc_text(record, path, "action.schema.json")
        result.advice = [said for m in files.registry.modules if m.advice is not None
                         for said in m.advice(record, files.state, step.applied.state)]
        result.written = sorted(texts)
        result.texts = texts
        result.old_texts = {p: files.texts[p] for p in texts if p in files.texts}
        if not dry_run:
            write_all(folder, {root / p: t for p, t in texts.items()})
        return result


def _invariant_problems(files: GameFiles) -> list[Problem]:
    from .judge import invariants

    try:
        return invariants(files)
    except Exception:  # noqa: BLE001 - checks that fail on the same files say nothing more; the caller raises
        return []


def resulting_problems(files: GameFiles, new: State, texts: dict[str, str]) -> list[Problem]:
    """The schema and invariant problems of the state an action would leave (what ``nomic check`` reports).

    A problem in a file the action would rewrite (``texts``) names that file and the field, with no line: the
    new text was not written. A problem in a file the action leaves as it is keeps its line on disk.

    A problem the state before the action has too (the same file, field and message: a hand edit that left the
    roster with a stat no one declared) is not the action's: it says the file is already invalid and must be
    fixed first, at its line on disk. The state before is checked only when there are problems. (Its schema
    problems need no comparing: a file against its schema is refused when the game is read.)"""
    from dataclasses import replace as _replace

    from . import schemas
    from .judge import invariants

    out: list[Problem] = []
    kinds = dict(files.registry.docs)
    for kind, data in new.docs.items():
        if files.state.docs.get(kind) is data:
            continue
        p = files.doc_paths.get(kind, f"{files.root}/gamestate/{kind}.yaml")
        schema = kinds[kind].schema if kind in kinds else f"{kind}.schema.json"
        found = schemas.errors(data, schema=schema, file=p, kind=ILLEGAL)  # no line: see _unwritten
        if not found and kind in kinds:
            found = schemas.limit_errors(data, kinds[kind].limits, file=p, kind=ILLEGAL)
        out += found
    if new.config is not files.state.config:
        p = f"{files.root}/game.yaml"
        out += schemas.errors(new.config, schema="game.schema.json", file=p, kind=ILLEGAL)
    if not out:
        after = _replace(files, state=new, texts={**files.texts, **texts})
        out += invariants(after)
        if out:
            already = {(q.file, q.field, q.message): q for q in invariants(files)}
            return [_already(already[key]) if key in already else _caused(q, texts)
                    for q in out for key in [(q.file, q.field, q.message)]]
    return [_caused(q, texts) for q in out]


def _caused(q: Problem, texts: dict[str, str]) -> Problem:
    return _unwritten(q) if q.file in texts else q.at(message="the action would leave this invalid: " + q.message,
                                                       kind=ILLEGAL)


def _already(q: Problem) -> Problem:
    """A problem the files had before the action: placed as ``nomic check`` places it, on disk."""
    return q.at(message="this file is already invalid, before the action; fix it first (nomic check shows it): "
                + q.message, kind=ILLEGAL)


def _unwritten(q: Problem) -> Problem:
    """A problem in the new text of a file the action would have written: that text was never written, so a line
    in it would point the player at another line of the file on disk. Name the file and the field only."""
    return q.at(line=0, col=0, kind=ILLEGAL,
                message="the action would write this invalid, so the file was not written: " + q.message)


def render_changes(files: GameFiles, new: State) -> dict[str, str]:
    """The new text of every game file whose content changed (none other is touched)."""
    old = files.state
    texts: dict[str, str] = {}
    if new.config is not old.config and new.config != old.config:
        p = f"{files.root}/game.yaml"
        texts[p] = content.doc_text(new.config, p, "game.schema.json", files.texts[p])
    kinds = dict(files.registry.docs)
    for kind, data in new.docs.items():
        if old.docs.get(kind) is data or old.docs.get(kind) == data:
            continue
        p = files.doc_paths.get(kind, f"{files.root}/gamestate/{kind}.yaml")
        schema = kinds[kind].schema if kind in kinds else f"{kind}.schema.json"
        texts[p] = content.doc_text(data, p, schema, files.texts.get(p),
                                    old.docs[kind] if kind in old.docs else yamlio.MISSING_OLD)
    if new.rules is not old.rules:
        for rid, rule in new.rules.items():
            before = old.rules.get(rid)
            if before is not None and before.meta == rule.meta and before.body == rule.body:
                continue
            p = files.rule_paths.get(rid, f"{files.root}/ruleset/{rid}.md")
            texts[p] = content.rule_text(rule, files.texts.get(p), p)
    return texts


@dataclass
class Available:
    name: str
    summary: str
    params: list[str]
    required: list[str]
    why_not: list[str]
    action: Any = None  # the registered Action, for the detail ``nomic act GAME ACTION --list`` shows
    rule: str = ""  # its rule as the game's ruleset numbers it ("1.4 Voting")
    # what the judge says, when none is given, of an action whose parameters are all optional and that asks for
    # one of them (Settlement's cook: "give smoke=<location>"): no "no", since a value may be what it asks for
    bare: list[str] = field(default_factory=list)
    # its module's texts (the summary above, its doc, its parameters' descriptions) in the game's words now: an
    # Ascension Address may have renamed a keyword they are written in (``_markup.in_words``, as the wiki says them)
    say: Callable[[str], str] = field(default=lambda text: text)


WHO = {"player": "an active player, for themselves", "admin": "an admin", "leader": "the leader",
       "newcomer": "somebody not yet on the roster", "anyone": "any player, idle or not"}


def param_type(schema: Mapping[str, Any]) -> str:
    """A parameter's type as the actions page and ``nomic act GAME ACTION --list`` write it, in the words a refusal
    uses (``problems.KIND_WORDS``): ``FOR | AGAINST``, ``whole number (≥ 1)``, ``list of name``."""
    from .problems import KIND_WORDS

    if "enum" in schema:
        return " | ".join(str(v) for v in schema["enum"])
    if "$ref" in schema:
        return str(schema["$ref"]).rsplit("/", 1)[-1]
    kinds = schema.get("type", "any")
    words = [KIND_WORDS.get(k, k).removeprefix("a ") for k in (kinds if isinstance(kinds, list) else [kinds])]
    t = " or ".join(words)
    if kinds == "array" and isinstance(schema.get("items"), dict):
        return f"list of {param_type(schema['items'])}"
    bounds = []
    if "minimum" in schema:
        bounds.append(f"≥ {schema['minimum']}")
    if "maximum" in schema:
        bounds.append(f"≤ {schema['maximum']}")
    return str(t) + (f" ({', '.join(bounds)})" if bounds else "")


def available(root: Path, game: str, actor: str, at: datetime, now: datetime | None = None) -> list[Available]:
    """Each action of the game, and (for those that need no parameters) whether ``actor`` may take it now.

    With ``now`` (``nomic act GAME --list --at TIME``): a time at which the judge would take no action at all
    (before the last action, or in the future: G7 Time) is bad input at ``--at``, rather than a list whose yes
    the judge would refuse."""
    from .engine import advance, too_early, too_late

    require_game(root, game)
    files = load_game(WorkTree(root), game)
    if now is not None:
        bar = too_early(files.state, at) or too_late(at, now)
        if bar is not None:
            raise BadInput(Problem(f"{bar.message}; so no action may be taken then, and there is nothing to list "
                                   "(leave --at out to list what may be done now)", field="--at", kind=BAD_INPUT))
    # Time passes as the judge lets it pass (engine.apply_action): the clock stays at the last action, which the
    # gates may read (ifMUD's turns.settle applies each overdue deadline at its own time, not all at ``at``, so
    # the list names the player whose turn the judge finds). Only when scheduled events fired does the clock move,
    # to the last of them, so that judge_one below, which lets the time pass again, does not fire them twice.
    state, fired = advance(files.registry, files.state, at, stamp=False)
    if fired:
        state = State(state.config, {**state.docs, "ledger": {**state.docs["ledger"], "clock": fired[-1]["at"]}},
                      state.rules)
    out = []
    says = {a.name: in_words(state, m) for m in files.registry.modules for a in m.actions}
    for a in files.registry.actions.values():
        props = list(a.params.get("properties", {}))
        required = list(a.params.get("required", []))
        # as the judge (engine.apply_action): who may take it, then the gates, which may let a module's own time
        # change the ruleset (ifMUD's settle: a proposal taking effect), then whether it is still a rule's
        gone = withdrawn(state, a)
        why = [cite(state, p).text() for p in who_problems(files.registry, state, a, actor)]
        if why and gone is not None:
            why = [cite(state, withdrawn_problem(gone, a)).text()]
        bare: list[str] = []
        if not why:
            record = record_for(a.name, actor, at, {}, None)
            ctx = Ctx(state, a, record, at, files.registry)
            for m in files.registry.modules:
                for gate in in_force(state, m.gates):
                    # a gate yields words or a Problem, said as the who above (its message and the rule it cites)
                    why.extend(cite(state, x).text() if isinstance(x, Problem) else str(x) for x in gate(ctx))
            if ctx.tx.rules is not None:
                gone = withdrawn(ctx, a)
            if gone is not None:
                why = [cite(state, withdrawn_problem(gone, a)).text()]
            else:  # the judge's limit of how often, asked of an action that is still (or again) a rule's
                reason = too_often(a, state.docs["ledger"], actor, at)
                if reason:
                    why.append(reason)
            if not why and a.ready is not None:
                why.extend(x.message if isinstance(x, Problem) else str(x) for x in a.ready(ctx))
            if not why and not required:
                step = judge_one(files.registry, state, record, "", check_recorded=False)
                # judged whole without parameters: exact for an action that takes none. For one whose parameters
                # are all optional, a refusal that names one of them asks for a value, which may be what makes it
                # legal: it is said, not made a "no" (tests/test_act_list.py tries every value of every "no" left)
                for p in step.problems:
                    asks = props and re.search(r"\b(?:" + "|".join(map(re.escape, props)) + r")\b", p.message)
                    (bare if asks else why).append(p.message)
        say = says.get(a.name, str)
        out.append(Available(a.name, say(a.summary), props, required, why, a,
                             cite(state, Problem("", rule=a.rule)).rule, bare, say))
    return out


def unexplained_changes(root: Path, game: str, now: datetime | None = None) -> list[Problem]:
    """What the pull-request check (``check --base HEAD``) finds wrong in the work tree's uncommitted changes to
    ``game``, before an action is added to them: an edit by hand that the actions do not give, an action already
    committed that was edited, an uncommitted action the rules refuse. ``nomic act`` writes on top of the work
    tree, so an action taken on such changes would go into a pull request the check refuses.

    Nothing is asked when the game's folder has no uncommitted change (the usual case: one ``git status``), when
    the folder is not in a git repository, or when HEAD does not hold the game yet (a game not committed). Files
    that cannot be read or break their schema are left to ``act``, which names them at their lines; but ``act``
    never reads the log, so an action file the check cannot read (broken YAML, a symbolic link) is said here."""
    from .check import check_pr
    from .pr import _git, changed_games, game_problems

    folder = f"content/{game}"
    try:
        changed = changed_games(root).get(game, {})
    except BadInput:  # not a git repository
        return []
    if not changed or _git(root, "cat-file", "-e", f"HEAD:{folder}/game.yaml", check=False).returncode != 0:
        return []
    try:
        report = check_pr(root, "HEAD", now=now)
    except BadInput:
        return []
    found = [p for p in game_problems(report, game) if p.file and p.kind != NEEDS_ADMIN]
    unread = [p for p in found if p.kind == BAD_INPUT and p.file.startswith(f"{folder}/actions/")]
    if unread:  # act reads the gamestate, never the log: an action file it cannot read is said here, or nowhere
        found = unread
    elif not found or any(p.kind == BAD_INPUT for p in found):
        return []
    pending = sorted(p for p in changed if p.startswith(f"{folder}/actions/"))
    if unread:
        undo = ("Put it right by hand, or take it out (`git checkout HEAD -- FILE` brings back a file the last "
                "commit holds; a new one is deleted), then act again")
    elif pending:
        undo = (f"The uncommitted actions ({len(pending)}) and the other changes are mixed in the same files: "
                f"`git diff HEAD -- {folder}` shows them; put the edit right by hand, or start again from the last "
                f"commit (`git checkout HEAD -- {folder}`, then delete the new action files: `git clean -n "
                f"{folder}` lists them) and take the actions again")
    else:
        added = "??" in changed.values()
        also = f" and remove the files added there (`git clean -n {folder}` lists them)" if added else ""
        undo = f"Undo them with `git checkout HEAD -- {folder}`{also}, then act again"
    what = ("an action file here cannot be read as the check reads it" if unread else
            "an uncommitted action here is one the rules refuse" if any(p.action for p in found) else
            "the uncommitted changes here are not what the game's actions give")
    head = Problem(f"{what}: a pull request with them would be refused, and this action with it, so nothing was "
                   f"written. {undo}", folder, kind=BAD_INPUT)
    return [head, *(p.at(kind=BAD_INPUT) for p in found)]
