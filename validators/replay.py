"""``nomic replay GAME --without ACTION``: fixing the past.

When a Call for Judgment finds an old action illegal, the game must be
recomputed as if it had never happened. This replays the whole log from
``initial/`` leaving out the named actions, and reports which later actions
become illegal and how the resulting gamestate would differ from the files.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from .content import WorkTree, load_game, read_action, require_game
from .judge import _short, compare, judge_one
from .problems import BAD_INPUT, BadInput, Problem, Report, counted, did_you_mean


def replay_without(root: Path, game: str, without: list[str]) -> Report:
    report = Report()
    source = WorkTree(root)
    require_game(root, game)
    files = load_game(source, game)
    initial = load_game(source, game, part="initial/", registry=files.registry)
    actions = (root / files.root / "actions").resolve()
    for w in without:
        # a path is the current folder's, or the repository's (as the check names it): one into another folder (the
        # log of another game) names none of this game's actions, and was taken for this game's of the same name
        if not w.strip():
            report.add([Problem("names no action file (it is empty): name one, like "
                                f"{PurePosixPath(next(iter(files.actions), 'TIME--NAME--ACTION.yaml')).name}",
                                field="--without", kind=BAD_INPUT)])
        elif PurePosixPath(w).name != w and all((base / w).resolve().parent != actions for base in (Path.cwd(), root)):
            report.add([Problem(f"{w!r} is not in {game}'s log: name a file of {files.root}/actions/ (its name will "
                                "do)", field="--without", kind=BAD_INPUT)])
    if report.problems:
        return report
    names = {PurePosixPath(w).name for w in without}
    logged = [PurePosixPath(p).name for p in files.actions]
    unknown = names - set(logged)
    for u in sorted(unknown):
        hint = did_you_mean(u, logged)  # a typo in a long name, or no '.yaml'
        report.add([Problem(f"no action file {u!r} in this game's log ({files.root}/actions/){hint}",
                            field="--without", kind=BAD_INPUT)])
    if unknown:
        return report
    from . import checkpoint

    cp, held, problems = checkpoint.settled(source, files, initial)
    if cp is not None:  # the replay starts where the audit does: after the actions the checkpoint holds
        report.add(problems)
        settled = [p for p, _ in held if PurePosixPath(p).name in names]
        for p in settled:
            report.add([Problem(f"the checkpoint of {cp['at']} (initial/) holds this action: the game's starting "
                                "point already includes its effects, so it cannot be left out; put the CfJ's "
                                "decision right as effects", p, kind=BAD_INPUT)])
        if problems or settled:
            return report
    state = initial.state
    texts: dict[str, str] = {}
    left_out = 0
    for path in files.actions[len(held):]:
        if PurePosixPath(path).name in names:
            left_out += 1
            report.notes.append(f"left out {path}")
            continue
        try:
            record = read_action(source, path, texts, files.registry)
        except BadInput as e:
            report.add(e.problems)
            continue
        # Dice follow the log's hash chain, so leaving an action out re-rolls every later die: that is the
        # recomputation, not an offence. Only what the rules forbid makes a later action illegal.
        step = judge_one(files.registry, state, record, path, texts.get(path), check_recorded=False)
        # each action's name, actor and time, as nomic check gives them (--format markdown's table showed `?`)
        report.verdicts.append({"action": path, "actor": record.get("actor"), "name": record.get("action"),
                                "at": record.get("at"), "legal": step.legal,
                                "problems": [p.text() for p in step.problems]})
        if not step.legal or step.applied is None:
            report.add([p.at(message="becomes illegal: " + p.message) for p in step.problems])
            continue  # an action that becomes illegal is left out too, and the replay goes on
        if step.applied.dice != record.get("dice", []):
            report.notes.append(f"{path}: would roll {step.applied.dice}, not {record.get('dice', [])}")
        if step.applied.outcome != record.get("outcome", []):
            report.notes.append(f"{path}: would turn out {_short(step.applied.outcome)}, "
                                f"not {_short(record.get('outcome', []))}")
        state = step.applied.state
    differences = compare(state, files)
    for d in differences:
        report.notes.append("would change " + d.text())
    report.notes.append(f"{counted(left_out, 'action')} left out; "
                        f"{counted(len(differences), 'value')} of the files would change")
    return report
