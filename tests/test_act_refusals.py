"""``nomic act`` refusing an action whose files would be invalid, on real temporary git repositories: a problem
in a file the action would have written names the file and the field, never a line of text that was not written;
a problem in a file on disk keeps its line."""

from __future__ import annotations

import json

import pytest

from tests.gitgame import commit, git, make_repo, nomic
from validators.act import act
from validators.timeutil import parse_time

GAME = "content/blognomic"
ROSTER = f"{GAME}/gamestate/roster.yaml"
NOW = ["--now", "2026-11-22T12:00:00Z"]


def _setup(repo):
    """Proposal 4 adds a stat no one declared to Dana (the roster's schema allows it; the roster's invariants
    do not), has Quorum FOR, and is the oldest pending proposal once proposal 3 has failed."""
    steps = [
        ("core.propose", "Chidi", "2026-11-05T10:00:00Z",
         {"title": "Bananas",
          "effects": {"gamestate": [{"op": "add", "path": "/roster/players/name=Dana/stats/bananas", "value": 3}]}}),
        ("core.vote", "Dana", "2026-11-05T11:00:00Z", {"proposal": 4, "vote": "FOR"}),
        ("core.vote", "Alice", "2026-11-05T11:01:00Z", {"proposal": 4, "vote": "FOR"}),
        ("core.vote", "Bruno", "2026-11-05T11:02:00Z", {"proposal": 4, "vote": "FOR"}),
        ("core.fail", "Bruno", "2026-11-06T10:00:00Z", {"proposal": 3}),  # seed 001 1.5: the oldest goes first
    ]
    for action, actor, at, params in steps:
        r = act(repo, "blognomic", action, actor, params, parse_time(at), now=parse_time("2026-11-22T12:00:00Z"))
        assert r.step.legal and r.written, (action, [p.text() for p in r.step.problems])
    commit(repo, "set-up")


def test_an_enactment_whose_effects_break_a_declared_stat_is_refused_by_the_rules(tmp_path):
    """Seed 001 1.5: effects that would leave the roster invalid cannot be applied, so ``core.enact`` itself refuses
    them, naming the field (the admin fails the proposal instead); nothing is written."""
    repo = make_repo(tmp_path)
    _setup(repo)
    roster_before = (repo / ROSTER).read_text()
    r = nomic(repo, "act", "blognomic", "core.enact", "proposal=4", "--as", "Bruno", "--at", "2026-11-06T10:01:00Z",
              *NOW)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "Traceback" not in r.stderr
    line = next(s for s in r.stdout.splitlines() if "bananas" in s)
    assert ("proposal 4's effects cannot be applied: they would leave roster invalid: players[3].stats.bananas: "
            "unknown stat 'bananas'") in line and "an admin may fail it instead" in line, line
    assert (repo / ROSTER).read_text() == roster_before
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""


def _act_without_the_rules_check(repo, monkeypatch, capsys, *args: str) -> tuple[int, str]:
    """``nomic act`` with ``core.enact``'s own check of the effects turned off: what ``nomic act``'s check of the
    files it would write says of them, which stays behind the rules for any action whose rules miss a problem."""
    from validators import cli
    from validators.games.blognomic import proposals

    monkeypatch.setattr(proposals, "effects_problem", lambda *a, **k: None)
    capsys.readouterr()
    code = cli.main(["--repo", str(repo), "act", "blognomic", *args])
    return code, capsys.readouterr().out


def test_a_problem_in_a_file_the_action_would_write_names_the_file_and_field_not_a_line(tmp_path, monkeypatch,
                                                                                         capsys):
    repo = make_repo(tmp_path)
    _setup(repo)
    roster_before = (repo / ROSTER).read_text()
    args = ["core.enact", "proposal=4", "--as", "Bruno", "--at", "2026-11-06T10:01:00Z", *NOW]
    code, out = _act_without_the_rules_check(repo, monkeypatch, capsys, *args)
    assert code == 1, out
    line = next(s for s in out.splitlines() if "bananas" in s)
    assert line.startswith(f"{ROSTER}: players[3].stats.bananas: "), line  # no :line:col into unwritten text
    assert "was not written" in line and "unknown stat 'bananas'" in line
    # nothing was written: the roster is as it was, and there is no enactment in the log
    assert (repo / ROSTER).read_text() == roster_before
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""

    code, out = _act_without_the_rules_check(repo, monkeypatch, capsys, *args, "--format", "json")
    assert code == 1
    found = [p for p in json.loads(out)["problems"] if "bananas" in p["message"]]
    assert found and found[0]["file"] == ROSTER and found[0]["field"] == "players[3].stats.bananas"
    assert not found[0].get("line")


def _hand_edit_stat(repo, player: str, stat: str) -> int:
    """Give ``player`` a stat no one declared by editing the roster by hand, commit it; the line it is on."""
    roster = repo / ROSTER
    text = roster.read_text()
    at = text.index("stats: {}", text.index(f"  - name: {player}"))
    roster.write_text(text[:at] + f"stats: {{{stat}}}" + text[at + len("stats: {}"):])
    commit(repo, "a stat no one declared")
    return roster.read_text()[:at].count("\n") + 1


def test_a_problem_in_a_file_on_disk_keeps_its_line(tmp_path):
    repo = make_repo(tmp_path)
    line_no = _hand_edit_stat(repo, "Dana", "bananas: 3")
    r = nomic(repo, "act", "blognomic", "core.vote", "proposal=3", "vote=AGAINST", "--as", "Dana",
              "--at", "2026-11-05T11:00:00Z", *NOW)
    assert r.returncode == 1, r.stdout + r.stderr
    line = next(s for s in r.stdout.splitlines() if "bananas" in s)
    assert line.startswith(f"{ROSTER}:{line_no}:"), line
    assert "was not written" not in line
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""
    # the vote did not make the roster invalid, it already was: the refusal says so, and how to see it
    assert "would leave" not in line, line
    assert "already invalid, before the action; fix it first (nomic check shows it): unknown stat 'bananas'" in line
    c = nomic(repo, "check", *NOW)
    assert c.returncode == 1 and f"{ROSTER}:{line_no}:" in c.stdout and "unknown stat 'bananas'" in c.stdout


def test_a_problem_already_there_is_told_apart_from_one_the_action_causes(tmp_path, monkeypatch, capsys):
    """Alice's undeclared stat is a hand edit made before the action; Dana's is what enacting proposal 4 would
    add (``core.enact`` refuses that itself; here its check is off, as for an action whose rules miss a problem).
    In one refusal, the first is the file's own (already invalid, at its line on disk) and the second is the
    action's (in the text that was not written)."""
    repo = make_repo(tmp_path)
    _setup(repo)
    roster = repo / ROSTER
    line_no = _hand_edit_stat(repo, "Alice", "apples: 1")
    roster_before = roster.read_text()
    code, out = _act_without_the_rules_check(repo, monkeypatch, capsys, "core.enact", "proposal=4", "--as", "Bruno",
                                             "--at", "2026-11-06T10:01:00Z", *NOW)
    assert code == 1, out
    apples = next(s for s in out.splitlines() if "apples" in s)
    assert apples.startswith(f"{ROSTER}:{line_no}:"), apples
    assert "already invalid, before the action; fix it first (nomic check shows it): unknown stat 'apples'" in apples
    bananas = next(s for s in out.splitlines() if "bananas" in s)
    assert bananas.startswith(f"{ROSTER}: players[3].stats.bananas: "), bananas
    assert "the action would write this invalid, so the file was not written: unknown stat 'bananas'" in bananas
    assert roster.read_text() == roster_before
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""


def test_a_rule_edit_missing_what_its_op_needs_is_refused_when_proposed(tmp_path):
    """A renumbering without a number (a retitling without a title ...) could never be enacted: ``nomic act``
    refuses the proposal as it is made, naming the edit and the field, and writes nothing; the good form is taken."""
    repo = make_repo(tmp_path)
    base = ["act", "blognomic", "core.propose", "title=X"]
    when = ["--as", "Chidi", "--at", "2026-11-05T10:00:00Z", *NOW]
    bad = {
        "{rules: [{op: renumber, id: a-dynastic-rule}]}": "params.effects.rules[0]: 'number' is a required property",
        "{rules: [{op: retitle, id: a-dynastic-rule}]}": "params.effects.rules[0]: 'title' is a required property",
        "{rules: [{op: amend, id: a-dynastic-rule}]}": "params.effects.rules[0]: 'body' or 'title' is required",
        "{rules: [{op: add, id: bananas}]}": "params.effects.rules[0]: 'body' is a required property",
        "{rules: [{op: retitle, id: a-dynastic-rule, title: T, number: 3}]}":
            "params.effects.rules[0].number: a retitle edit takes only op, id and title, not 'number'",
    }
    for effects, said in bad.items():
        r = nomic(repo, *base, "effects=" + effects, *when)
        assert r.returncode == 2, r.stdout + r.stderr
        assert "Traceback" not in r.stderr
        assert said in r.stdout, r.stdout
        assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""
    r = nomic(repo, *base, "effects={rules: [{op: renumber, id: a-dynastic-rule, number: 7}]}", *when, "-q")
    assert r.returncode == 0, r.stdout + r.stderr
    proposals = (repo / GAME / "gamestate" / "proposals.yaml").read_text()
    assert "- op: renumber\n          id: a-dynastic-rule\n          number: 7\n" in proposals


def test_a_hand_edit_a_rule_cannot_read_is_told_as_the_file_s_problem_not_a_traceback(tmp_path):
    """Seed 001, The Settlement: every Colonist is somewhere on the map, which ``nomic check`` verifies. A roster
    edited by hand to put Asha off the map made Harvest Crop fail with an IndexError; ``nomic act`` now says what is
    wrong with the file, at its line, as bad input (exit 2), and writes nothing."""
    repo = make_repo(tmp_path, "settlement")
    roster = repo / "content/settlement/gamestate/roster.yaml"
    lines = roster.read_text().splitlines(keepends=True)
    line_no = next(i for i, s in enumerate(lines, 1) if "location: '13j'" in s)
    lines[line_no - 1] = lines[line_no - 1].replace("location: '13j'", "location: '99z'")
    roster.write_text("".join(lines))
    commit(repo, "hand edit")
    r = nomic(repo, "act", "settlement", "settlement.harvest", "--as", "Asha", *NOW)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "Traceback" not in r.stderr
    line = next(s for s in r.stdout.splitlines() if "99z" in s)
    assert line.startswith(f"content/settlement/gamestate/roster.yaml:{line_no}:"), line
    assert "already invalid, before the action; fix it first (nomic check shows it): 99z is not on the map" in line
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""


def test_an_action_dated_now_in_the_second_of_the_last_says_to_run_it_again(tmp_path):
    """An action taken in the same second as the last, whose file would sort before it, is refused (the log is
    replayed in file-name order); dated now (no ``--at``), the refusal says the player only has to run it again."""
    repo = make_repo(tmp_path)
    r = nomic(repo, "act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Fatima", *NOW)
    assert r.returncode == 0, r.stdout + r.stderr
    r = nomic(repo, "act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Chidi", *NOW)
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stdout + r.stderr
    assert "taken in the same second" in r.stdout
    assert "note: without --at the action is dated now: run the command again in a second" in r.stdout, r.stdout
    r = nomic(repo, "act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Chidi",
              "--at", "2026-11-22T12:00:00Z", *NOW)
    assert r.returncode == 1 and "taken in the same second" in r.stdout and "run the command again" not in r.stdout


def _vote(repo, actor: str, at: str, proposal: int = 3):
    return nomic(repo, "act", "blognomic", "core.vote", f"proposal={proposal}", "vote=FOR", "--as", actor, "--at", at,
                 "-q", *NOW)


def test_act_refuses_to_build_on_an_edit_by_hand(tmp_path):
    """A hand edit of the gamestate (Chidi made an admin) is what no action gives: the pull request check would
    refuse it with any action on top, so ``nomic act`` says so, names the edited field at its line, and writes
    nothing. Undone, the same action is taken."""
    repo = make_repo(tmp_path)
    text = (repo / ROSTER).read_text()
    edited = text.replace("  - name: Chidi\n    account: chidi-nomic\n    admin: false",
                          "  - name: Chidi\n    account: chidi-nomic\n    admin: true")
    assert edited != text
    (repo / ROSTER).write_text(edited)
    r = _vote(repo, "Chidi", "2026-11-22T11:00:00Z")
    assert r.returncode == 2, r.stdout + r.stderr
    assert "Traceback" not in r.stderr
    assert ("content/blognomic: the uncommitted changes here are not what the game's actions give: a pull request "
            "with them would be refused, and this action with it, so nothing was written. Undo them with `git "
            "checkout HEAD -- content/blognomic`, then act again") in r.stdout
    line = edited.splitlines().index("    admin: true", edited.splitlines().index("  - name: Chidi")) + 1
    assert f"{ROSTER}:{line}:12: players[2].admin: replay gives false, file says true" in r.stdout, r.stdout
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == f" M {ROSTER}\n"
    assert (repo / ROSTER).read_text() == edited

    git(repo, "checkout", "HEAD", "--", GAME)
    r = _vote(repo, "Chidi", "2026-11-22T11:00:00Z")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "wrote content/blognomic/actions/20261122T110000Z--Chidi--core.vote.yaml" in r.stdout


def test_act_builds_on_its_own_uncommitted_actions(tmp_path):
    """Two actions taken one after the other before a commit are one pull request the check accepts: the second
    act is not refused for the first one's uncommitted changes."""
    repo = make_repo(tmp_path)
    assert _vote(repo, "Chidi", "2026-11-22T11:00:00Z").returncode == 0
    r = _vote(repo, "Fatima", "2026-11-22T11:01:00Z")
    assert r.returncode == 0, r.stdout + r.stderr
    assert sorted(git(repo, "status", "--porcelain", "--untracked-files=all").split("\n")) == sorted([
        "", f" M {GAME}/gamestate/proposals.yaml", f" M {GAME}/gamestate/ledger.yaml",
        f"?? {GAME}/actions/20261122T110000Z--Chidi--core.vote.yaml",
        f"?? {GAME}/actions/20261122T110100Z--Fatima--core.vote.yaml"])
    r = nomic(repo, "check", "--base", "main", *NOW)
    assert r.returncode == 0, r.stdout


def test_act_refuses_an_edit_mixed_with_uncommitted_actions(tmp_path):
    """An action taken, then the stats edited by hand: the advice says the two are mixed and how to start again;
    the refused act writes nothing, and its action file is not there."""
    repo = make_repo(tmp_path)
    assert _vote(repo, "Chidi", "2026-11-22T11:00:00Z").returncode == 0
    before = {p: (repo / p).read_text() for p in (ROSTER, f"{GAME}/gamestate/proposals.yaml")}
    (repo / ROSTER).write_text(before[ROSTER].replace("  - name: Chidi\n    account: chidi-nomic\n    admin: false",
                                                      "  - name: Chidi\n    account: chidi-nomic\n    admin: true"))
    r = _vote(repo, "Fatima", "2026-11-22T11:01:00Z")
    assert r.returncode == 2, r.stdout + r.stderr
    assert ("The uncommitted actions (1) and the other changes are mixed in the same files: `git diff HEAD -- "
            "content/blognomic` shows them") in r.stdout
    assert "players[2].admin: replay gives false, file says true" in r.stdout
    assert not (repo / GAME / "actions" / "20261122T110100Z--Fatima--core.vote.yaml").exists()
    assert (repo / f"{GAME}/gamestate/proposals.yaml").read_text() == before[f"{GAME}/gamestate/proposals.yaml"]


def test_act_refuses_to_build_on_an_uncommitted_illegal_action(tmp_path):
    """An action file written by hand that the rules refuse (seed 001 1.5: only an admin enacts) is not built on:
    the refusal names it and its rule, and nothing is written."""
    repo = make_repo(tmp_path)
    name = "20261122T100000Z--Chidi--core.enact.yaml"
    (repo / GAME / "actions" / name).write_text(
        "# yaml-language-server: $schema=../../../schemas/action.schema.json\n"
        "at: 2026-11-22T10:00:00Z\nactor: Chidi\naction: core.enact\nparams:\n  proposal: 3\n")
    r = _vote(repo, "Chidi", "2026-11-22T11:00:00Z")
    assert r.returncode == 2, r.stdout + r.stderr
    assert "content/blognomic: an uncommitted action here is one the rules refuse: a pull request with them would " \
        "be refused" in r.stdout, r.stdout
    assert (f"{GAME}/actions/{name}:4:9: Chidi is not an admin; only admins may take this action "
            "[rule: 1.5 Enactment]") in r.stdout, r.stdout
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == f"?? {GAME}/actions/{name}\n"


def test_act_refusing_a_file_added_by_hand_says_how_to_remove_it(tmp_path):
    """Seed 001 1.1: the ruleset changes only by enacted proposals. A rule file added by hand is not undone by `git
    checkout`, so the advice names `git clean` as well; nothing is written."""
    repo = make_repo(tmp_path)
    rules = repo / GAME / "ruleset"
    (rules / "numbers-two.md").write_text((rules / "numbers.md").read_text().replace("id: numbers\n",
                                                                                      "id: numbers-two\n", 1))
    r = _vote(repo, "Chidi", "2026-11-22T11:00:00Z")
    assert r.returncode == 2, r.stdout + r.stderr
    assert ("Undo them with `git checkout HEAD -- content/blognomic` and remove the files added there (`git clean -n "
            "content/blognomic` lists them), then act again") in r.stdout, r.stdout
    assert "rule 'numbers-two' was added, but no action adds it" in r.stdout
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == f"?? {GAME}/ruleset/numbers-two.md\n"


@pytest.mark.parametrize("write, said", [
    (lambda p: p.write_text("at: [\n"), ":1:5: not valid YAML: the list ('[') that starts here is not closed"),
    (lambda p: p.write_text("at: 2026-11-22T10:00:00Z\nactor: Chidi\naction: core.vote\n"
                            "params: {proposal: 3, vote: FOR}\nmood: cheerful\n"), ":5:7: mood: unknown field 'mood'"),
    (lambda p: p.symlink_to("/etc/hostname"), ": a symbolic link in a game's folder; content files are plain files"),
])
def test_act_refuses_to_build_on_an_action_file_the_check_cannot_read(tmp_path, write, said):
    """``nomic act`` reads the gamestate, never the log: an action file the check cannot read (broken YAML, an
    unknown field, a symbolic link), added by hand before the action, would make the pull request of both bad
    input. The act says so, names the file at its line, and writes nothing."""
    repo = make_repo(tmp_path)
    name = "20261122T100000Z--Chidi--core.vote.yaml"
    write(repo / GAME / "actions" / name)
    r = _vote(repo, "Fatima", "2026-11-22T11:00:00Z")
    assert r.returncode == 2 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    assert ("content/blognomic: an action file here cannot be read as the check reads it: a pull request with them "
            "would be refused, and this action with it, so nothing was written. Put it right by hand, or take it "
            "out") in r.stdout, r.stdout
    assert f"{GAME}/actions/{name}{said}" in r.stdout, r.stdout
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == f"?? {GAME}/actions/{name}\n"
