"""The ``nomic`` command line. Exit codes: 0 legal, 1 illegal, 2 bad input or usage."""

from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import shlex
import sys
import traceback
from datetime import datetime
from pathlib import Path
from typing import Any, Sequence

from .problems import BAD_INPUT, BadInput, NomicError, Problem, Report, counted, did_you_mean, format_path
from .report import emit
from .timeutil import UTC, format_time, parse_given_time

FORMATS = ("text", "json", "github", "markdown")


class _Parser(argparse.ArgumentParser):
    def parse_known_args(self, args=None, namespace=None):  # type: ignore[no-untyped-def,override]
        self._given = list(sys.argv[1:] if args is None else args)  # which command an unknown option was for
        return super().parse_known_args(args, namespace)

    def _subparsers_of(self) -> dict[str, argparse.ArgumentParser]:
        found: dict[str, argparse.ArgumentParser] = {}
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                found.update(action.choices)
        return found

    def error(self, message: str) -> None:  # usage errors exit 2, as argparse does, with our wording
        subs = self._subparsers_of()
        command = next((subs[w] for w in getattr(self, "_given", []) if w in subs), None)
        unknown = re.match(r"unrecognized arguments: (\S+)", message)
        # what no command takes is left over by the command's parse and refused here, by nomic's: the usage shown
        # is the command's, whose options are what the reader looks for (`nomic new ... --dry-run` showed
        # `usage: nomic [-h] [--repo REPO] [--version] COMMAND ...`)
        (command if unknown and command else self).print_usage(sys.stderr)
        wrong = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)$", message)
        if wrong:  # nomic chek: the command meant (argparse says so itself only from Python 3.12)
            choices = re.findall(r"'([^']*)'", wrong.group(2))
            message += did_you_mean(wrong.group(1), choices)
        if unknown and command is not None and command is subs.get("hash"):
            message = _hash_leftovers(message, command)
        elif unknown and unknown.group(1).startswith("-"):
            # --dryrun, --base=main's cousin --bse: the option meant, of this command or a sub-command's
            options = {*self._option_string_actions, *(command._option_string_actions if command else ())}
            message += did_you_mean(unknown.group(1).split("=")[0], sorted(options))
        elif unknown and command is subs.get("check"):  # nomic check blognomic, nomic check main: the options meant
            message += "; nomic check takes no GAME or REV: one game is checked with --game NAME, a pull request " \
                       "with --base REV"
        sys.stderr.write(f"nomic: {message}\n")
        raise SystemExit(2)


def _hash_leftovers(message: str, command: argparse.ArgumentParser) -> str:
    """``nomic hash``'s words left over, which may hold the secret (``nomic hash pick "my secret"`` took ``pick`` for
    it): never shown, as its refusals never show the secret; an option it does not take is named, with the one
    meant."""
    words = message.partition("unrecognized arguments: ")[2].split()
    option = next((w.split("=")[0] for w in words if w.startswith("-")), None)
    if option is not None:
        return f"unrecognized option {option}" + did_you_mean(option, sorted(command._option_string_actions))
    return ("nomic hash takes one SECRET, and more words were given (not shown: one may be your secret): quote a "
            "secret of several words, and name the commitment with --label: nomic hash \"my secret\" --label pick")


def _root(args: argparse.Namespace) -> Path:
    """--repo, or the folder nomic runs in; or, run in a sub-folder of a game repository (content/blognomic,
    as git is run anywhere in its work tree), the nearest folder above it that holds the games."""
    if args.repo is not None:
        given = Path(args.repo)
        # --repo ../gmae, --repo README.md: said as such, not as "no games found in ../gmae/content"
        if not given.exists():
            raise BadInput(Problem(f"no folder {args.repo!r} (from {Path.cwd()}): name the game repository's folder "
                                   "(the one holding content/)", field="--repo", kind=BAD_INPUT))
        if not given.is_dir():
            raise BadInput(Problem(f"{args.repo!r} is a file: name the game repository's folder (the one holding "
                                   "content/)", field="--repo", kind=BAD_INPUT))
        repo = given.resolve()
        # --repo content/blognomic: a folder inside the repository, which --repo does not climb out of as nomic run
        # there does (it said "no games found in content/blognomic/content")
        above = next((f for f in repo.parents if (f / "content").is_dir() and any((f / "content").glob("*/game.yaml"))),
                     None)
        if above is not None and not (repo / "content").is_dir():
            raise BadInput(Problem(f"{args.repo!r} is a folder inside the game repository {above}: --repo names the "
                                   "repository's own folder (the one holding content/)", field="--repo",
                                   kind=BAD_INPUT))
        return repo
    here = Path.cwd().resolve()
    for folder in (here, *here.parents):
        if (folder / "content").is_dir() and any((folder / "content").glob("*/game.yaml")):
            return folder
    return here


def _time(text: str | None, what: str) -> datetime | None:
    if text is None:
        return None
    try:
        return parse_given_time(text)  # an explicit offset is converted to UTC
    except ValueError as e:
        hint = f"; leave {what} out for now" if text.strip().lower() == "now" else ""  # what leaving it out gives
        raise BadInput(Problem(f"{e}{hint}", field=what, kind=BAD_INPUT)) from None


def _game(name: str, field: str = "game") -> str:
    from .content import game_name  # imported when asked: the command line starts quicker without the engine

    return game_name(name, field)


def _game_or_default(name: str | None, default: str) -> str | None:
    """The optional GAME of ``nomic due``, ``tick`` and ``pr``: None when left out. An empty one (``nomic tick
    "$GAME"``, GAME unset) once went for the default as if left out, and ticked every game."""
    if name is None:
        return None
    if not name.strip():
        raise BadInput(Problem(f"names no game (it is empty): name one, or leave it out for {default}", field="game",
                               kind=BAD_INPUT))
    return _game(name)


def _now(args: argparse.Namespace) -> datetime:
    return _time(getattr(args, "now", None), "--now") or datetime.now(UTC).replace(microsecond=0)


def _author(args: argparse.Namespace) -> str | None:
    for login, field in ((getattr(args, "author", None), "--author"), (os.environ.get("NOMIC_AUTHOR"), "NOMIC_AUTHOR")):
        if not login:
            continue
        if not login.strip():  # blanks name nobody: refused, as --author " " is
            raise BadInput(Problem("is blank: give a forge login, or leave it unset or empty", field=field,
                                   kind=BAD_INPUT))
        if login != login.strip():  # no login has any: once the author "  ann ", whose every action was illegal
            raise BadInput(Problem(f"{login[:80]!r} has blanks around it, which no login has; did you mean "
                                   f"{login.strip()[:80]}?", field=field, kind=BAD_INPUT))
        return login
    event = os.environ.get("GITHUB_EVENT_PATH")
    if event and os.path.isfile(event):
        try:
            data = json.loads(Path(event).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        # the pull request's opener; an event of another kind (a push), or a file not of GitHub's shape (a list,
        # "pull_request": null, a login that is no text), names nobody: once an internal error
        for key in ("pull_request", "user", "login"):
            data = data.get(key) if isinstance(data, dict) else None
        return data if isinstance(data, str) and data.strip() else None
    return None


# ---------------------------------------------------------------- commands


def cmd_check(args: argparse.Namespace) -> int:
    from .check import check_pr, check_repo

    root = _root(args)
    now = _now(args)
    for given, option in ((args.base, "--base"), (args.head, "--head")):
        if given is not None and not given.strip():  # `--base "$BASE"`, BASE unset: not a whole check
            raise BadInput(Problem("names no revision (it is empty): give a commit, branch or tag, or leave the option "
                                   "out", field=option, kind=BAD_INPUT))
    if args.head and not args.base:
        raise BadInput(Problem("--head needs --base: the pull request runs from --base to --head", field="--head",
                               kind=BAD_INPUT))
    if args.history is not None:
        from .history import check_history

        for given, option in ((args.base, "--base"), (args.no_replay, "--no-replay"), (args.author, "--author")):
            if given:  # the history is walked, not replayed nor judged as a pull request
                raise BadInput(Problem("not with --history: the walk of the history is a check of its own (nomic "
                                       "check without --history audits the games)", field=option, kind=BAD_INPUT))
        report = check_history(root, args.history, only=[_game(g, "--game") for g in args.game] if args.game else None)
        emit(report, args.format, sys.stdout)
        return report.exit_code
    for given, option in ((args.game, "--game"), (args.no_replay, "--no-replay")):
        if given and args.base:
            # once silently ignored: the check of a pull request judges every game it touches, and replays
            raise BadInput(Problem("only for the check of the repository (without --base); a pull request "
                                   "is judged whole", field=option, kind=BAD_INPUT))
    if args.author and not args.base:  # NOMIC_AUTHOR, set for every command, is no mistake here
        raise BadInput(Problem("only for the check of a pull request (with --base): the audit of the repository "
                               "judges no pull request's author", field="--author", kind=BAD_INPUT))
    if args.base:
        report = check_pr(root, args.base, author=_author(args), now=now, head=args.head)
        if args.head:
            report.notes.extend(_left_out(root, args.head))
    else:
        report = check_repo(root, replay=not args.no_replay, now=now,
                            only=[_game(g, "--game") for g in args.game] if args.game else None)
    emit(report, args.format, sys.stdout)
    return report.exit_code


def _left_out(root: Path, head: str) -> list[str]:
    """With --head naming the commit checked out: the changes to content/ the work tree holds besides, which the
    check did not judge (a player who checks before committing saw '0 actions judged' and took it for legal)."""
    import subprocess

    def git(*args: str) -> str:
        r = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True)
        return r.stdout if r.returncode == 0 else ""

    here, judged = git("rev-parse", "--verify", "-q", "HEAD"), git("rev-parse", "--verify", "-q", f"{head}^{{commit}}")
    if not here or here != judged:
        return []
    changed = [line for line in git("status", "--porcelain", "--untracked-files=all", "--", "content").splitlines()
               if line.strip()]
    if not changed:
        return []
    paths = [line[3:].strip() for line in changed]
    shown = ", ".join(paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")
    return [f"{counted(len(changed), 'change')} under content/ {'is' if len(changed) == 1 else 'are'} not committed, "
            f"so not judged: --head judges the commit (git add content and commit "
            f"{'it' if len(changed) == 1 else 'them'}, or leave out --head to judge the work tree): {shown}"]


def cmd_act(args: argparse.Namespace) -> int:
    from .act import act, available, parse_params
    from .content import require_game

    if not args.game:
        raise BadInput(Problem("name a game: nomic act GAME ACTION key=value ... --as NAME (nomic act GAME --list "
                               "--as NAME lists the actions)", field="game", kind=BAD_INPUT))
    root = _root(args)
    require_game(root, _game(args.game))  # an unknown game first: who acts in it is asked of its roster
    now = _now(args)
    at = _time(args.at, "--at") or now
    if not args.actor:
        raise BadInput(Problem("say who acts: --as NAME" + _roster_names(root, args.game), field="--as",
                               kind=BAD_INPUT))
    if args.pr and (args.dry_run or args.list or args.format != "text"):
        # --pr commits what was written and prints what it did as nomic pr does: there is nothing to submit after a
        # dry run or a list, and its lines would break the JSON or annotations asked for (nomic pr makes it after)
        why = ("--dry-run: a dry run writes nothing to submit" if args.dry_run
               else "--list: a list takes no action" if args.list
               else f"--format {args.format}: nomic pr's lines would break the verdict's format; run nomic pr "
                    f"{args.game} after the action")
        raise BadInput(Problem(f"not with {why}", field="--pr", kind=BAD_INPUT))
    author = _author(args) if args.pr else None  # NOMIC_AUTHOR's mistake told before the action is written
    if args.pr:  # and the pull request's: no remote origin among others, a default branch git cannot tell
        from .pr import preflight

        preflight(root)
    if args.list:
        # what only a taken action uses, refused rather than dropped: `--list proposal=3` judged no vote, and a
        # --note went nowhere, with nothing said
        if args.params:
            raise BadInput(Problem(f"{args.params[0][:80]!r}: --list takes no parameters (it lists the actions and "
                                   "whether you may take them; leave --list out to take the action)", field="--list",
                                   kind=BAD_INPUT))
        if args.note is not None:
            raise BadInput(Problem("not with --list: a list takes no action to note (leave --list out to take the "
                                   "action)", field="--note", kind=BAD_INPUT))
        if args.format == "github":
            raise BadInput(Problem("not with --list: a list of actions has no lines of files to annotate (--format "
                                   "json gives it as data)", field="--format", kind=BAD_INPUT))
        listed = available(root, args.game, args.actor, at, now=now)
        stranger = _stranger_note(root, args.game, args.actor)
        if stranger and args.format == "text":
            print(stranger)
        if args.action:  # one action in detail: its parameters, who may take it, its rule and its notes
            one = [a for a in listed if a.name == args.action]
            if not one:
                from .content import WorkTree, load_game

                registry = load_game(WorkTree(root), args.game).registry
                raise BadInput(Problem(registry.unknown_action(args.action), field="action", kind=BAD_INPUT))
            listed = one
        if args.format == "json":  # the same list as data, for a bot or an editor
            json.dump({"game": args.game, "as": args.actor, "at": format_time(at), "note": stranger or "",
                       "actions": [{"name": a.name, "may": not a.why_not, "summary": a.summary, "rule": a.rule,
                                    "params": a.params, "required": a.required, "why_not": a.why_not,
                                    "without_parameters": a.bare} for a in listed]},
                      sys.stdout, ensure_ascii=False, indent=2)
            print()
            return 0
        for a in listed:
            mark = "yes" if not a.why_not else "no "
            params = " ".join(f"{p}=" + ("" if p in a.required else "?") for p in a.params)
            print(f"{mark} {a.name} {params}".rstrip())
            print(f"      {a.summary}")
            for why in a.why_not[:None if args.action else 2]:
                print(f"      - {why}")
            for why in a.bare[:None if args.action else 1]:
                print(f"      - without parameters: {why}")
            if args.action:
                _describe(a)
        return 0
    if not args.action:
        raise BadInput(Problem("name an action (nomic act GAME --list --as NAME shows them)", field="action",
                               kind=BAD_INPUT))
    given: dict[str, str] = {}
    params = parse_params(args.params, Path.cwd(), given)
    result = act(root, args.game, args.action, args.actor, params, at, note=args.note, dry_run=args.dry_run,
                 now=now, given=given, on_changes=True)
    step = result.step
    if not step.legal:
        # The action file is not written: a problem placed in it named a file the player could not find. It is
        # placed on the action instead (its field and rule kept).
        report = Report()
        # a misspelt parameter is one mistake: 'proposl' named with 'did you mean 'proposal'?', not also
        # 'proposal' missing
        meant = {m.group(1) for p in step.problems if p.field.startswith("params.")
                 for m in [re.search(r"unknown field '[^']*'; did you mean '([^']*)'\?", p.message)] if m}
        report.add(p.at(file="", line=0, col=0, action="") if p.file == result.action_path else p
                   for p in step.problems
                   if not (p.field == "params" and any(p.message.startswith(f"{w!r} is a required property")
                                                        for w in meant)))
        report.problems = _placed_in_files(report.problems, args.params)
        report.notes.extend(_name_hints(result.before, params))
        report.notes.extend(_shape_hints(result.before, args.action, given, step.problems))
        report.notes.extend(_effects_hints(params, step.problems))
        for raw in args.params:  # effects=@effects.md: read as text, which is no mapping of edits
            key, _, value = raw.partition("=")
            if (value.startswith("@") and not value.endswith((".yaml", ".yml"))
                    and any(p.field == f"params.{key}" and p.keyword == "type" for p in step.problems)):
                report.notes.append(f"{key}=@{value[1:]} was read as text: a file after @ is read as YAML data only "
                                    "when its name ends in .yaml or .yml")
        if not args.at and any(p.field == "at" and "same second" in p.message for p in step.problems):
            # dated now, with no --at: the player only has to wait a moment
            report.notes.append("without --at the action is dated now: run the command again in a second")
        if any((p.field == "params" and p.keyword == "required")
               or (p.field.startswith("params.") and p.keyword in ("type", "additionalProperties"))
               for p in step.problems):
            # a parameter left out, one the action does not take, or given a value of the wrong kind: the player
            # may not know the action's parameters (their names, kinds and what they take)
            report.notes.append(f"nomic act {args.game} {args.action} --list --as {args.actor} shows the action's "
                                "parameters")
        refused = f"{args.action} by {args.actor} at {format_time(at)} (not written)"
        if args.format == "text":
            print(f"refused: {refused}")
        else:
            report.notes.append(f"refused: {refused}")
        emit(report, args.format, sys.stdout)
        return report.exit_code
    if args.format == "json":
        # with --dry-run the files are those it would write: "written" is empty and "would_write" names them
        json.dump({"exit": 0, "action": result.action_path, "dry_run": bool(args.dry_run),
                   "written": [] if args.dry_run else result.written,
                   "would_write": result.written if args.dry_run else [],
                   "dice": step.applied.dice if step.applied else [],
                   "outcome": step.applied.outcome if step.applied else [],
                   "notes": result.advice}, sys.stdout, indent=2)
        print()
        return 0
    verb = "would write" if args.dry_run else "wrote"
    print(f"legal: {args.action} by {args.actor} at {format_time(at)}")
    if step.applied and step.applied.dice:
        print(f"dice: {step.applied.dice}")
    for event in (step.applied.events if step.applied else []):
        from .judge import cited

        print(f"scheduled: {event['event']} at {event['at']} [rule: {cited(step.applied.state, event['rule'])}]")
    print(f"{verb} {result.action_path}")
    others = [path for path in result.written if path != result.action_path]
    if others:  # said also with -q, which leaves out the diff that shows them
        print(f"{'would update' if args.dry_run else 'updated'} {', '.join(others)}")
    for said in result.advice:  # legal, but not what the player may think it does (also with -q)
        print(f"note: {said}")
    if not args.quiet:
        _show_diff(root, result)
    if args.pr and not args.dry_run:
        from .pr import submit

        return _said(submit(root, args.game, remote="origin", author=author, now=now))
    return 0


def cmd_pr(args: argparse.Namespace) -> int:
    from .pr import submit

    root = _root(args)
    game = _game_or_default(args.game, "the game with uncommitted changes")
    done = submit(root, game, base=args.base, remote=args.remote or "origin", branch=args.branch,
                  push=not args.no_push, author=_author(args), now=_now(args), named_remote=args.remote is not None)
    return _said(done)


def _said(done) -> int:  # type: ignore[no-untyped-def]
    """What ``nomic pr`` (or ``act --pr``) did; a refusal is the check's report, and nothing was committed."""
    if done.report.exit_code != 0:
        print("not submitted: the check refuses the change (nothing was committed)")
        emit(done.report, "text", sys.stdout)
        return done.report.exit_code
    for line in done.lines:
        print(line)
    return 0


def _describe(a) -> None:  # type: ignore[no-untyped-def]
    """``nomic act GAME ACTION --list``: what the actions page of the wiki says of the action."""
    from .act import WHO, param_type

    action = a.action
    print(f"      who: {WHO.get(action.who, action.who)}; rule: {a.rule}"
          + (f"; {action.frequency}" if action.frequency else ""))
    props = dict(action.params.get("properties") or {})
    width = max((len(name) for name in props), default=0)
    for name, schema in props.items():
        about = a.say(schema.get("description", "")) if isinstance(schema, dict) else ""
        need = "required" if name in a.required else "optional"
        print(f"      {name.ljust(width)}  {param_type(schema)}, {need}" + (f": {about}" if about else ""))
    if action.doc:
        print(f"      {a.say(action.doc)}")


def _stranger_note(root: Path, game: str, actor: str) -> str:
    """For ``--list --as NAME`` with a name not on the roster, said once above the list (rather than only beside
    each action): the name meant, or that the list is a newcomer's."""
    from .content import WorkTree, load_game
    from .engine import name_hint

    try:
        state = load_game(WorkTree(root), game).state
    except (NomicError, OSError, KeyError, TypeError):
        return ""
    if state.player(actor) is not None:
        return ""
    hint = name_hint(state, actor).replace(" (names are written as on the roster)", "")
    return (f"note: {actor!r} is not on the roster{hint} (names are written as on the roster); what follows is what "
            "a newcomer of that name may do")


def _roster_names(root: Path, game: str) -> str:
    """' (on the roster: Alice, Bruno, ...)': the names --as takes, for a player who does not know them yet."""
    from .content import WorkTree, load_game

    try:
        names = [p["name"] for p in load_game(WorkTree(root), game).state.players() if not p.get("kind")]
    except (NomicError, OSError, KeyError, TypeError):  # a roster that cannot be read is reported when acting
        return ""
    if not names:
        return ""
    return f" (on the roster: {', '.join(names[:12])}{', ...' if len(names) > 12 else ''})"


def _name_hints(state, params: dict) -> list[str]:  # type: ignore[no-untyped-def]
    """For a refused action, a parameter that names a player in the wrong case (to=adam): the roster's name."""
    if state is None:
        return []
    out = []
    for key, value in params.items():
        for i, item in enumerate(value) if isinstance(value, list) else [(None, value)]:
            if isinstance(item, str) and state.player(item) is None and (same := state.spelled(item)):
                where = key if i is None else f"{key}[{i}]"
                out.append(f"{where}: did you mean {same}? (names are written as on the roster)")
    return out


def _placed_in_files(problems: list[Problem], pairs: list[str]) -> list[Problem]:
    """A parameter read from a YAML file (effects=@effects.yaml): its problems placed at their line in that file (as
    typed after @), as a game file's are, rather than only named by their field."""
    from .yamlio import locate, read_text

    files = {key.strip(): value[1:] for key, _, value in (pair.partition("=") for pair in pairs)
             if value.startswith("@") and value.endswith((".yaml", ".yml"))}
    out = []
    for p in problems:
        steps = _steps(p.field)
        name = files.get(str(steps[1])) if len(steps) > 1 and steps[0] == "params" and not p.file else None
        try:
            text = read_text(Path.cwd() / name, name) if name else None
        except (NomicError, OSError):  # gone since it was read: named by its field, as before
            text = None
        line, col = locate(text, steps[2:]) if text is not None else (0, 0)
        out.append(p.at(file=name, line=line, col=col) if line else p)
    return out


def _steps(field: str) -> list[object]:
    """A problem's field as the keys and indexes it goes through: 'params.effects.gamestate[1].op' ->
    ['params', 'effects', 'gamestate', 1, 'op']."""
    return [int(i) if i else name for name, i in re.findall(r"([^.\[\]]+)|\[(\d+)\]", field)]


def _effects_hints(params: dict, problems: list[Problem]) -> list[str]:
    """For a refused action, a proposal's effects given as a list (a file of patch operations alone,
    effects=@effects.yaml): they are a mapping, and what goes under which key. A note, as the refusal's words are
    those of every file's schema error."""
    out = []
    for p in problems:
        steps = _steps(p.field)
        if p.keyword != "type" or len(steps) < 2 or steps[0] != "params" or steps[-1] != "effects":
            continue
        value: Any = params
        for step in steps[1:]:
            fits = isinstance(value, dict) if isinstance(step, str) else isinstance(value, list) and step < len(value)
            value = value[step] if fits else None  # type: ignore[index]
        if isinstance(value, list):
            out.append(f"{format_path(steps[1:])}: a proposal's effects are a mapping, not a list: patch operations "
                       "go under gamestate (gamestate: [ ...operations... ]), rule edits under rules (rules: "
                       "[ ...edits... ]); docs/engine.md (\"A proposal's effects\") shows their shape")
    return out


def _shape_hints(state, action: str, given: dict[str, str],  # type: ignore[no-untyped-def]
                 problems: list[Problem]) -> list[str]:
    """For a refused action, a list or a mapping typed without its brackets (repeal=hunger, keywords=Player=Pirate),
    which YAML reads as one value: how to write it."""
    if state is None:
        return []
    from .modules import registry_for

    known = registry_for(state.modules).actions.get(action)
    props = (known.params.get("properties") or {}) if known is not None else {}
    out = []
    for p in problems:
        key = p.field[len("params."):]
        typed = given.get(key, "").strip()
        if not p.field.startswith("params.") or p.keyword != "type" or not typed or typed[0] in "[{":
            continue
        kinds = (props.get(key) or {}).get("type")
        kinds = [kinds] if isinstance(kinds, str) else kinds or []
        if "array" in kinds:
            out.append(f'{key}: a list is written in brackets: {key}="[{typed}]"')
        elif "object" in kinds:
            old, eq, new = typed.partition("=")
            pair = f"{old.strip()}: {new.strip()}" if eq and old.strip() and new.strip() else "KEY: VALUE"
            out.append(f'{key}: a mapping is written in braces, each key: value: {key}="{{{pair}}}"')
    return out


def _show_diff(root: Path, result) -> None:  # type: ignore[no-untyped-def]
    """The change as a unified diff: what the pull request will show."""
    for path in result.written:
        old = result.old_texts.get(path, "")
        new = result.texts[path]
        sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                                   "a/" + path if old else "/dev/null", "b/" + path))


def cmd_fmt(args: argparse.Namespace) -> int:
    from .fmt import format_paths

    root = _root(args)
    # a path is the current folder's, run in a sub-folder of the repository (--repo's, with --repo)
    here = Path.cwd().resolve()
    paths = [str(here / p) for p in args.paths] if args.repo is None and here != root else args.paths
    report, changed = format_paths(root, paths, check_only=args.check)
    for p in changed:
        print(("would reformat " if args.check or report.problems else "reformatted ") + p)
    emit(report, "text", sys.stdout, quiet=True) if report.problems else None
    if report.problems:
        return report.exit_code
    return 1 if (args.check and changed) else 0


def cmd_build(args: argparse.Namespace) -> int:
    from .site import build

    return build(_root(args), serve=args.command == "serve", site_dir=getattr(args, "site_dir", None),
                 strict=getattr(args, "strict", False))


def cmd_replay(args: argparse.Namespace) -> int:
    from .replay import replay_without

    report = replay_without(_root(args), _game(args.game), args.without)
    emit(report, args.format, sys.stdout, command="replay")
    return report.exit_code


def cmd_due(args: argparse.Namespace) -> int:
    from .admin import due, unread
    from .content import games_here

    root = _root(args)
    now = _time(args.at, "--at") or _now(args)
    one = _game_or_default(args.game, "every game")
    bad: list[Problem] = []
    for game in [one] if one else games_here(root):
        try:
            lines = due(root, game, now)
        except BadInput as e:  # every game: one whose last action is after --at says so, and the others answer
            if one:
                raise
            if all(p.field == "--at" for p in e.problems):
                lines = [f"nothing to say: {p.message}" for p in e.problems]
            else:  # one that cannot be read (broken YAML, a folder badly named): bad input, told after the others
                bad += e.problems
                lines = ["not read: " + unread(e.problems)]
        print(f"{game} at {format_time(now)}:")
        for line in lines or ["nothing to do"]:
            print(f"  - {line}")
    if bad:
        raise BadInput(bad)
    return 0


def cmd_tick(args: argparse.Namespace) -> int:
    from .admin import tick

    game = _game_or_default(args.game, "every game with events due")
    if not args.actor:
        raise BadInput(Problem("say who ticks: --as NAME", field="--as", kind=BAD_INPUT))
    now = _now(args)
    at = _time(args.at, "--at") or now
    if at > now:  # G7 Time: the check refuses an action dated after its own clock, so the tick would not pass
        raise BadInput(Problem(f"{format_time(at)} is in the future (now is {format_time(now)}): a tick applies the "
                               "events that have fallen due; `nomic due GAME --at TIME` shows what a later time "
                               "holds", field="--at", kind=BAD_INPUT))
    for line in tick(_root(args), game, args.actor, at):
        print(line)
    return 0


def cmd_new(args: argparse.Namespace) -> int:
    from .admin import founding_problems, new_game

    root = _root(args)
    now = _now(args)
    founded = _time(args.at, "--at") or now
    if founded > now:  # its first action could not be taken before then, and the check refuses actions to come
        raise BadInput(Problem(f"{format_time(founded)} is in the future (now is {format_time(now)}): a game is "
                               "founded now or in the past", field="--at", kind=BAD_INPUT))
    from .schemas import is_blank

    if args.title is not None and is_blank(args.title):  # the game's name on every page of the wiki
        raise BadInput(Problem("must not be blank: it says nothing (leave --title out to name the game by its folder)",
                               field="--title", kind=BAD_INPUT))
    from .admin import arg_problem

    problem = arg_problem(args.title, "title", "--title") if args.title is not None else None
    if problem is not None:  # game.yaml's name is a title: refused here, before a file of the new game is written
        raise BadInput(problem)
    for line in new_game(root, args.game, args.example, founded, args.title, args.admin):
        print(line)
    problems = founding_problems(root, args.game)
    if problems:
        print(f"content/{args.game} does not pass the check yet: put right what follows in gamestate/ and "
              f"initial/gamestate/ alike (nomic check --game {args.game} --no-replay shows what is left), or "
              "remove the folder and start again")
        raise BadInput(problems)
    return 0


def cmd_checkpoint(args: argparse.Namespace) -> int:
    from .checkpoint import make
    from .schemas import is_blank

    if not args.actor:
        raise BadInput(Problem("say who makes it: --as NAME (an admin of the game)", field="--as", kind=BAD_INPUT))
    if args.why is None or is_blank(args.why) or len(args.why) > 200:
        raise BadInput(Problem("say why, in up to 200 characters: --why 'the judge now refuses ...' (kept in the "
                               "checkpoint and shown on the wiki)", field="--why", kind=BAD_INPUT))
    for line in make(_root(args), _game(args.game), args.actor, args.why, _now(args)):
        print(line)
    return 0


def cmd_hash(args: argparse.Namespace) -> int:
    from .schemas import errors
    from .secrets import COMMIT, REVEAL, digest, new_salt

    # what engine.commit and engine.reveal will ask of them, asked now: the commands printed below must be takeable
    asked = {"label": COMMIT.params["properties"]["label"], "secret": REVEAL.params["properties"]["secret"],
             "salt": REVEAL.params["properties"]["salt"]}
    for name, value, option in (("label", args.label, "--label"), ("secret", args.secret, "secret"),
                                ("salt", args.salt, "--salt")):
        problems = errors(value, inline=asked[name], kind=BAD_INPUT) if value is not None else []
        if problems and name == "secret":  # never shown: it is the secret
            raise BadInput(Problem(f"is {len(value)} characters long; engine.reveal takes at most "
                                   f"{asked['secret']['maxLength']}", field=option, kind=BAD_INPUT))
        if problems:
            raise BadInput([p.at(field=option) for p in problems])
    if not args.secret.strip():  # nomic hash "$CHOICE" with CHOICE unset: a commitment to nothing
        raise BadInput(Problem("is empty: give your hidden choice, as nomic hash rock", field="secret",
                               kind=BAD_INPUT))
    for value, field, key in ((args.secret, "secret", "secret"), (args.salt, "--salt", "salt")):
        # typed to engine.reveal as secret=... (salt=...), blanks around it and quotes around it are not part of the
        # value (nomic act's YAML), so the reveal would not give the hash: said now, the secret never shown
        if value is not None and (value != value.strip() or value.strip().startswith(("'", '"'))):
            raise BadInput(Problem(f"begins or ends with blanks, or begins with a quote, which `{key}=...` would not "
                                   "keep when typed to engine.reveal (the reveal would not match the hash): leave "
                                   "them out", field=field, kind=BAD_INPUT))
    salt = new_salt() if args.salt is None else args.salt
    h = digest(args.secret, salt)
    print(f"salt: {salt}")
    print(f"hash: {h}")
    print("commit now (the secret stays hidden):")
    print(f"  nomic act GAME engine.commit label={args.label} hash={h} --as NAME")
    print("reveal later (keep the salt until then):")
    print(f"  nomic act GAME engine.reveal label={args.label} secret=... {shlex.quote(f'salt={salt}')} --as NAME")
    return 0


def cmd_completion(args: argparse.Namespace) -> int:
    from .completion import script

    sys.stdout.write(script(args.shell))
    return 0


# ---------------------------------------------------------------- wiring


class _Version(argparse.Action):
    """``--version``: the installed package's version (pyproject.toml), looked up only when asked for."""

    def __call__(self, parser, namespace, values, option_string=None):  # type: ignore[no-untyped-def]
        from importlib.metadata import PackageNotFoundError, version

        try:
            found = version("nomic-as-code")
        except PackageNotFoundError:
            found = "unknown (not installed)"
        print(f"nomic {found}")
        parser.exit()


class _Once(argparse.Action):
    """``--as``: who acts, given once. ``--as Dana --as Bruno`` (a line edited, a name left in) acted as Bruno, the
    last one, without a word; the same name twice is one."""

    def __call__(self, parser, namespace, values, option_string=None):  # type: ignore[no-untyped-def]
        before = getattr(namespace, self.dest, None)
        if before is not None and before != values:
            raise argparse.ArgumentError(self, f"given twice ({before!r}, then {values!r}): give it once")
        setattr(namespace, self.dest, values)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="nomic", description="Run a nomic as code: act, check, format and publish a game.")
    p.add_argument("--repo", default=None,
                   help="the repository's root (default: the current folder, or the one above it with the games)")
    p.add_argument("--version", action=_Version, nargs=0, help="print nomic's version and exit")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    c = sub.add_parser("check", help="judge the repository, or a pull request against --base")
    c.add_argument("--base", help="the base revision of a pull request (e.g. origin/main)")
    c.add_argument("--head", help="with --base: judge this commit (e.g. HEAD) instead of the work tree, as CI "
                   "does; files the work tree holds besides are not part of the pull request")
    c.add_argument("--author", help="the pull request's author (login); default: $NOMIC_AUTHOR, else the pull "
                   "request GitHub Actions describes")
    c.add_argument("--format", choices=FORMATS, default="text")
    c.add_argument("--game", action="append", help="check only this game (repeatable; not with --base)")
    c.add_argument("--no-replay", action="store_true",
                   help="validate files only; skip the audit replay (not with --base)")
    c.add_argument("--history", nargs="?", const="HEAD", metavar="REV",
                   help="walk the first-parent history of REV (default HEAD; or A..B) instead: report each commit "
                   "that edited, removed or renamed an action file, or changed initial/ other than by founding the "
                   "game or by a valid checkpoint (its maker an admin at the parent commit); no replay")
    c.add_argument("--now", help=argparse.SUPPRESS)
    c.set_defaults(func=cmd_check)

    a = sub.add_parser("act", help="take a game action: writes the action file and updates the gamestate",
                       description="Take a game action as NAME: judged as CI will judge it; if legal, writes the "
                       "action file and updates the gamestate. `nomic act GAME --list --as NAME` lists the actions "
                       "and whether NAME may take them now; `nomic act GAME ACTION --list --as NAME` shows one "
                       "action's parameters, who may take it and its rule.")
    a.add_argument("game", nargs="?", help="the game's folder under content/ (blognomic, monkey ...)")
    # said missing below: argparse would call the parameters required too
    a.add_argument("action", nargs="?", help="the action, like core.vote (see --list)")
    a.add_argument("params", nargs="*", help="key=value (values are YAML; key=@file reads a file)")
    a.add_argument("--as", dest="actor", action=_Once, help="who acts (your name in the roster)")
    a.add_argument("--at", help="the time of the action (UTC, or with its offset like +01:00; default now)")
    a.add_argument("--note", help="flavour text")
    a.add_argument("--list", action="store_true", help="list the actions and whether you may take them now")
    a.add_argument("--dry-run", action="store_true", help="judge and show, write nothing")
    a.add_argument("--format", choices=("text", "json", "github"), default="text")
    a.add_argument("-q", "--quiet", action="store_true", help="do not show the diff")
    a.add_argument("--pr", action="store_true", help="then make the pull request of it (as nomic pr GAME does; "
                   "text format only, not with --dry-run or --list)")
    a.add_argument("--now", help=argparse.SUPPRESS)
    a.set_defaults(func=cmd_act)

    f = sub.add_parser("fmt", help="rewrite content files into the canonical layout")
    f.add_argument("paths", nargs="*", help="files or folders (default: content/)")
    f.add_argument("--check", action="store_true", help="only report files that are not canonical (exit 1)")
    f.set_defaults(func=cmd_fmt)

    b = sub.add_parser("build", help="validate, then build the wiki with MkDocs")
    b.add_argument("--site-dir", help="where to write the site (default: site/)")
    b.add_argument("--strict", action="store_true", help="make MkDocs warnings errors")
    b.set_defaults(func=cmd_build)
    s = sub.add_parser("serve", help="validate, then serve the wiki locally")
    s.set_defaults(func=cmd_build)

    r = sub.add_parser("replay", help="recompute a game from its log, optionally without some actions")
    r.add_argument("game", help="the game's folder under content/")
    r.add_argument("--without", action="append", default=[],
                   help="an action file (name or path) to leave out; repeatable")
    r.add_argument("--format", choices=FORMATS, default="text")
    r.set_defaults(func=cmd_replay)

    pq = sub.add_parser("pr", help="make the pull request of the actions taken (or of a checkpoint): judge, "
                        "commit, push, open it")
    pq.add_argument("game", nargs="?", help="the game (default: the one with uncommitted changes)")
    pq.add_argument("--base", help="the branch the pull request goes into (default: the remote's default, else "
                    "main or master)")
    pq.add_argument("--remote", help="the remote to push to (default: origin)")
    pq.add_argument("--branch", help="the branch to make (default: NAME/ACTION-TIME, when on the base branch)")
    pq.add_argument("--no-push", action="store_true", help="commit on the branch only; push and open it yourself")
    pq.add_argument("--author", help="your forge login, to check that the actions are yours as CI will (default: "
                    "$NOMIC_AUTHOR)")
    pq.add_argument("--now", help=argparse.SUPPRESS)
    pq.set_defaults(func=cmd_pr)

    d = sub.add_parser("due", help="the admin's desk: what can be done now and by whom")
    d.add_argument("game", nargs="?", help="one game (default: every game)")
    d.add_argument("--at", help="as of this time (UTC, or with its offset; default now)")
    d.add_argument("--now", help=argparse.SUPPRESS)
    d.set_defaults(func=cmd_due)

    t = sub.add_parser("tick", help="apply the scheduled events that have fallen due (an engine.tick action)")
    t.add_argument("game", nargs="?", help="one game (default: every game with events due)")
    t.add_argument("--as", dest="actor", action=_Once, help="who files the tick (required: your roster name, or on "
                   "main the workflow's NOMIC_TICK_AS)")
    t.add_argument("--at", help="the time of the tick (UTC, or with its offset; default now)")
    t.add_argument("--now", help=argparse.SUPPRESS)
    t.set_defaults(func=cmd_tick)

    n = sub.add_parser("new", help="start a new game from an example: fresh roster, ruleset kept, empty history",
                       description="Start a new game in content/GAME from an example game: its modules, keywords, "
                       "options and ruleset, an empty history, and a roster of the founding admins given with "
                       "--admin (players join later with core.join, and are not admins).")
    n.add_argument("game", help="the new game's folder name (lower-case letters, digits and dashes)")
    n.add_argument("--from", dest="example", required=True, help="the example game to start from")
    n.add_argument("--title", help="the new game's name")
    n.add_argument("--at", help="when the game begins, the time of its founding state: its actions come after it "
                   "(UTC, or with its offset; default now; a game carried over from elsewhere may begin earlier)")
    n.add_argument("--admin", action="append", metavar="NAME=LOGIN",
                   help="a founding player who is an admin from the start (repeatable); without one, nobody can "
                        "ever enact a proposal")
    n.add_argument("--now", help=argparse.SUPPRESS)
    n.set_defaults(func=cmd_new)

    k = sub.add_parser("checkpoint", help="an admin's: the game as it stands becomes its starting point (initial/); "
                       "the audit then replays only the actions after it",
                       description="Copy the game's files into initial/ and write initial/checkpoint.yaml: the "
                       "audit then replays only the actions after this point, and checks the files of those before "
                       "it by their hash chain. For a game whose past a changed judge would refuse, or whose log has "
                       "grown long. Commit it in a pull request of its own.")
    k.add_argument("game", help="the game's folder under content/")
    k.add_argument("--as", dest="actor", action=_Once,
                   help="the admin who makes it (required; your name in the roster)")
    k.add_argument("--why", help="why the game is settled here (required; up to 200 characters)")
    k.add_argument("--now", help=argparse.SUPPRESS)
    k.set_defaults(func=cmd_checkpoint)

    h = sub.add_parser("hash", help="commit to a hidden choice: prints a salt, the hash and the commands")
    h.add_argument("secret", help="the hidden choice (quote it if it has spaces)")
    h.add_argument("--label", default="choice", help="the name the commitment goes by in the game (default: "
                   "choice)")
    h.add_argument("--salt", help=argparse.SUPPRESS)
    h.set_defaults(func=cmd_hash)

    c = sub.add_parser("completion", help="print a shell completion script (bash or zsh)")
    c.add_argument("shell", choices=("bash", "zsh"))
    c.set_defaults(func=cmd_completion)
    # --repo after the command too (`nomic check --repo ../game`), as most tools take their global options: left out
    # there, the one before the command (or none) stands
    for command in sub.choices.values():
        command.add_argument("--repo", default=argparse.SUPPRESS, help="the repository's root, as before the command")
    return p


def _reader_gone() -> None:
    """The reader of our output closed the pipe (``| head``): what is still buffered goes nowhere, so that Python's
    flush at exit does not print a second traceback."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


class _ReaderMayGo:
    """stdout, whose reader may stop reading (``nomic check | head -1``): what is written after goes nowhere, and the
    command carries on to its own exit code. A BrokenPipeError raised out of the command once ended it with exit 0,
    whatever its verdict (an illegal pull request, a bad file: 1 or 2)."""

    def __init__(self, out: Any) -> None:
        self.out = out

    def write(self, text: str) -> int:
        try:
            return self.out.write(text)
        except BrokenPipeError:
            _reader_gone()
            return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        try:
            self.out.flush()
        except BrokenPipeError:
            _reader_gone()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.out, name)


def _undecodable(argv: Sequence[str]) -> str | None:
    """The first argument holding bytes that are not UTF-8 (Python keeps them as lone surrogates), or None."""
    return next((a for a in argv if any("\udc80" <= ch <= "\udcff" for ch in a)), None)


def _intermixed(args: argparse.Namespace, extra: list[str]) -> bool:
    """``nomic act GAME ACTION vote=FOR --as Dana proposal=3``: argparse takes the positionals of ``act`` in one
    run, so what follows an option is left over. Those left (none an option) are the act's game, action and
    parameters, in the order typed; True when they were taken so."""
    if getattr(args, "command", None) != "act" or any(e.startswith("-") for e in extra):
        return False
    params = list(args.params or [])
    for word in extra:
        if args.game is None and "=" not in word:
            args.game = word
        elif args.action is None and "=" not in word:
            args.action = word
        else:
            params.append(word)
    args.params = params
    return True


# Options whose empty value (`--repo "$DIR"` with DIR unset) would otherwise be taken as left out: the command would
# run somewhere, or as someone, the caller did not mean. Each with what to give instead.
_NOT_EMPTY = (("repo", "--repo", "the game repository's folder"),
              ("author", "--author", "a forge login"),
              ("site_dir", "--site-dir", "a folder for the site"),
              ("branch", "--branch", "a branch name"),
              ("remote", "--remote", "a remote's name, like origin"),
              ("example", "--from", "the example game to start from, like blognomic"),
              ("salt", "--salt", "a salt (nomic hash picks a random one without it)"))


def _empty_options(args: argparse.Namespace) -> None:
    for dest, option, what in _NOT_EMPTY:
        given = getattr(args, dest, None)
        if isinstance(given, str) and not given.strip():
            out = "" if option == "--from" else ", or leave the option out"  # --from is required
            raise BadInput(Problem(f"is empty: give {what}{out}", field=option, kind=BAD_INPUT))


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args, extra = parser.parse_known_args(argv)
        if extra and not _intermixed(args, extra):
            parser.parse_args(argv)  # argparse's own words for what no command takes (exit 2)
    except SystemExit as e:
        return int(e.code or 0)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    stdout, sys.stdout = sys.stdout, _ReaderMayGo(sys.stdout)
    try:
        return _run(args, argv)
    finally:
        sys.stdout.flush()
        sys.stdout = stdout


def _run(args: argparse.Namespace, argv: Sequence[str] | None) -> int:
    try:
        bad = _undecodable(list(sys.argv[1:] if argv is None else argv))
        if bad is not None:  # written into a file it would break it (YAML holds text), and printed it would fail
            shown = bad.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
            raise BadInput(Problem(f"{shown[:80]!r} is not UTF-8 text (a byte no character encodes, shown as "
                                   "\ufffd): type it again in a UTF-8 terminal", field="argument", kind=BAD_INPUT))
        _empty_options(args)
        return args.func(args)
    except NomicError as e:
        report = Report()
        report.add(e.problems)
        fmt = getattr(args, "format", "text")
        try:
            emit(report, fmt if fmt in FORMATS else "text", sys.stdout)
        except BrokenPipeError:  # `nomic due --at yesterday | head -1`: the reader had its line
            _reader_gone()
        return report.exit_code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        _reader_gone()
        return 0
    except Exception:  # a bug in the judge, not the player's mistake
        sys.stderr.write("nomic: internal error (this is a bug in nomic, not in your game; please report it):\n")
        traceback.print_exc()
        return 3


if __name__ == "__main__":
    raise SystemExit(main())
