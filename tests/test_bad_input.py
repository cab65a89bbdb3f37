"""Bad files are refused with exit 2 and a message naming the file, line and field; nothing is written."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.gitgame import git, make_repo, nomic
from validators import yamlio

HERE = Path(__file__).parent / "bad_input"
EXPECT = yamlio.load_file(HERE / "expect.yaml")


@pytest.mark.parametrize("name", sorted(EXPECT))
def test_bad_file_is_refused_with_its_place(tmp_path, name):
    repo = make_repo(tmp_path)
    kind = name.rsplit(".", 2)[1]
    target = repo / "content" / "blognomic" / "gamestate" / f"{kind}.yaml"
    shutil.copyfile(HERE / name, target)
    before = {p: p.read_bytes() for p in (repo / "content").rglob("*") if p.is_file()}
    r = nomic(repo, "check", "--no-replay")
    want = EXPECT[name]
    assert r.returncode == 2, r.stdout + r.stderr
    assert "Traceback" not in r.stdout + r.stderr
    where = f"content/blognomic/gamestate/{kind}.yaml:{want['line']}:"
    if "col" in want:
        where += f"{want['col']}:"
    lines = [line for line in r.stdout.splitlines() if line.startswith(where)]
    assert lines, f"no problem at {where}:\n{r.stdout}"
    assert any(want["says"] in line for line in lines), r.stdout
    if "field" in want:
        assert any(f" {want['field']}: " in line for line in lines), r.stdout
    after = {p: p.read_bytes() for p in (repo / "content").rglob("*") if p.is_file()}
    assert after == before


def test_every_bad_file_has_an_expectation():
    files = {p.name for p in HERE.glob("*.yaml")} - {"expect.yaml"}
    assert files == set(EXPECT)


def test_bad_parameter_to_act_writes_nothing(tmp_path):
    repo = make_repo(tmp_path)
    before = {p: p.read_bytes() for p in (repo / "content").rglob("*") if p.is_file()}
    r = nomic(repo, "act", "blognomic", "core.vote", "proposal=three", "vote=FOR", "--as", "Dana",
              "--at", "2026-11-06T10:00:00Z")
    assert r.returncode == 2, r.stdout + r.stderr
    assert 'params.proposal: "three" is not a whole number' in r.stdout
    # a value of the wrong kind: the player is shown where the action's parameters are listed
    assert "note: nomic act blognomic core.vote --list --as Dana shows the action's parameters" in r.stdout, r.stdout
    after = {p: p.read_bytes() for p in (repo / "content").rglob("*") if p.is_file()}
    assert after == before


@pytest.mark.parametrize("given, says", [
    ("proposal=[3]", "params.proposal: [3] is not a whole number"),
    ("proposal=3.5", "params.proposal: 3.5 is not a whole number"),
    ("proposal={id: 3}", 'params.proposal: {"id": 3} is not a whole number'),
])
def test_a_parameter_of_the_wrong_kind_is_told_what_kind_is_asked(tmp_path, given, says):
    """A value of the wrong kind is told in words what the parameter takes, with the command that lists the
    action's parameters; the JSON output says the same and nothing more."""
    repo = make_repo(tmp_path)
    args = ["act", "blognomic", "core.vote", given, "vote=FOR", "--as", "Dana", "--at", "2026-11-06T10:00:00Z"]
    r = nomic(repo, *args)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stdout + r.stderr
    assert says in r.stdout.splitlines(), r.stdout
    assert "note: nomic act blognomic core.vote --list --as Dana shows the action's parameters" in r.stdout, r.stdout
    out = json.loads(nomic(repo, *args, "--format", "json").stdout)
    assert out["problems"] == [{"message": says.split(": ", 1)[1], "field": "params.proposal", "kind": "bad-input"}]
    assert "nomic act blognomic core.vote --list --as Dana shows the action's parameters" in out["notes"]
    # the same vote with a number is taken
    ok = nomic(repo, "act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Dana",
               "--at", "2026-11-06T10:00:00Z", "-q")
    assert ok.returncode == 0, ok.stdout + ok.stderr


@pytest.mark.parametrize("args, says", [
    (["act", "blognomic", "core.vote", "proposal", "--as", "Dana"], "is not key=value"),
    (["act", "blognomic", "core.vote", "proposal=1", "proposal=2", "--as", "Dana"], "given twice"),
    (["act", "blognomic", "core.vot", "--as", "Dana"], "did you mean core.vote"),
    # each missing parameter named with its own choices, not only the first one missing
    (["act", "blognomic", "core.vote", "--as", "Dana"],
     "params: 'vote' is a required property: one of 'FOR', 'AGAINST', 'DEFERENTIAL'"),
    (["act", "nosuchgame", "core.vote", "--as", "Dana"], "there is no game 'nosuchgame'"),
    # empty words ("$ACTION" unset): each named at its place, as every other mistake of the command line is
    (["act", "blognomic", "", "--as", "Dana"], "action: name an action (nomic act GAME --list --as NAME shows them)"),
    (["act", "blognomic", "core.vote", "", "--as", "Dana"], "params: parameter '' is not key=value: each parameter is "
                                                           "written key=value, like proposal=3"),
    (["act", "blognomc", "--list", "--as", "Dana"], "there is no game 'blognomc' (no content/blognomc/game.yaml); "
                                                    "did you mean blognomic? (the games: blognomic)"),
    (["act", "BlogNomic", "--list", "--as", "Dana"], "did you mean blognomic?"),
    (["due", "blognomc"], "did you mean blognomic?"),
    (["tick", "blognomc", "--as", "nomic-tick"], "did you mean blognomic?"),
    (["replay", "blognomc"], "did you mean blognomic?"),
    (["replay", "blognomic", "--without", "20261102T130000Z--Dana--core.vot.yaml"],  # once without a suggestion
     "--without: no action file '20261102T130000Z--Dana--core.vot.yaml' in this game's log "
     "(content/blognomic/actions/); "
     "did you mean 20261102T130000Z--Dana--core.vote.yaml?"),
    (["replay", "blognomic", "--without", "content/blognomic/actions/20261102T133000Z--Emeka--core.vote"],
     "did you mean 20261102T133000Z--Emeka--core.vote.yaml?"),
    # a path into another folder names none of this game's actions: once taken for this game's of the same name
    (["replay", "blognomic", "--without", "content/monkey/actions/20261102T133000Z--Emeka--core.vote.yaml"],
     "--without: 'content/monkey/actions/20261102T133000Z--Emeka--core.vote.yaml' is not in blognomic's log: name a "
     "file of content/blognomic/actions/ (its name will do)"),
    (["replay", "blognomic", "--without", ""], "--without: names no action file (it is empty): name one, like "),
    # once dropped without a word: the audit of the repository judges no author, and said legal
    (["check", "--author", "dana-nomic"], "--author: only for the check of a pull request (with --base): the audit of "
                                          "the repository judges no pull request's author"),
    (["check", "--game", "blognomc"], "--game: there is no game 'blognomc' (no content/blognomc/game.yaml); did you "
                                      "mean blognomic?"),
    # the option named, as for the other options (once "game: ''", a field no command has)
    (["check", "--game", ""], "--game: '' is not a game's name (1 to 64 lower-case letters, digits, '-' and '_', "
                               "the first a letter or digit)"),
    (["check", "--history", "--game", "../x"], "--game: '../x' is not a game's name"),
    (["pr", "blognomc", "--no-push"], "there is no game 'blognomc' (no content/blognomc/game.yaml); did you mean "
                                      "blognomic?"),
    (["new", "pirates", "--from", "blognomc"], "did you mean blognomic?"),
    (["act", "blognomic", "core.vote", "proposal=1", "--as", "Dana", "--at", "tomorrow"], "is not a UTC time"),
    (["check", "--base", "no-such-ref"], "--base: 'no-such-ref' is not a commit, branch or tag of this repository"),
    (["check", "--base", "mian"], "did you mean main?"),
    (["check", "--base", ""], "--base: names no revision (it is empty): give a commit, branch or tag, or leave the "
                              "option out"),
    (["check", "--base", "main", "--head", " "], "--head: names no revision (it is empty)"),
    (["check", "--base", "main", "--game", "blognomic"], "--game: only for the check of the repository"),
    (["check", "--base", "main", "--no-replay"], "--no-replay: only for the check of the repository"),
    (["check", "--base", "main", "--head", "HAED"], "--head: 'HAED' is not a commit, branch or tag"),
    (["act", "blognomic", "core.vote", "proposal=1", "vote=FOR"], "say who acts"),
    (["act", "blognomic", "--list"], "--as: say who acts: --as NAME (on the roster: Alice, Bruno, Chidi, Dana, "),
    # once listed, the parameters and the note dropped without a word
    (["act", "blognomic", "core.vote", "proposal=3", "--list", "--as", "Dana"],
     "--list: 'proposal=3': --list takes no parameters (it lists the actions and whether you may take them; leave "
     "--list out to take the action)"),
    (["act", "blognomic", "--list", "--as", "Dana", "--note", "hi"], "--note: not with --list: a list takes no action "
                                                                    "to note"),
    (["due", "blognomic", "--at", "2026-11-16 22:00"], "'2026-11-16 22:00' is not a UTC time like "
     "2026-11-22T10:15:00Z, nor a time with its offset like 2026-11-22T11:15:00+01:00; did you mean "
     "2026-11-16T22:00:00Z?"),
    (["due", "blognomic", "--at", "2026-11-16"], "did you mean 2026-11-16T00:00:00Z?"),
    # past the last day a date can hold once in UTC: once an OverflowError inside the judge
    (["due", "blognomic", "--at", "9999-12-31T23:59:59-23:59"], "--at: '9999-12-31T23:59:59-23:59' is not a time the "
                                                               "game's files can hold (years 1000 to 9999, in UTC)"),
    (["act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Dana", "--at", "0001-01-01T00:00:00+05:00"],
     "--at: '0001-01-01T00:00:00+05:00' is not a time the game's files can hold"),
    (["due", "blognomic", "--at", "2026-11-16T22:00+01:00"], "did you mean 2026-11-16T22:00:00+01:00?"),
])
def test_bad_command_line_exits_2(tmp_path, args, says):
    repo = make_repo(tmp_path)
    r = nomic(repo, *args)
    assert r.returncode == 2, r.stdout + r.stderr
    assert says in r.stdout + r.stderr
    assert "Traceback" not in r.stdout + r.stderr


def test_a_game_folder_no_command_could_name_is_refused_by_the_check(tmp_path):
    """content/Pi.Rates/ (copied by hand) passed the audit and a founding pull request's check, while nomic act, due,
    tick, pr and check --game all refuse the name: a game nobody could act in. The check names the folder and the
    rule of a game's name (content.GAME_NAME, the one nomic new applies)."""
    import shutil as sh

    repo = make_repo(tmp_path)
    sh.copytree(repo / "content" / "blognomic", repo / "content" / "Pi.Rates")
    said = ("content/Pi.Rates: 'Pi.Rates' is not a game's name (1 to 64 lower-case letters, digits, '-' and '_', the "
            "first a letter or digit): rename the folder, as no command could name the game")
    r = nomic(repo, "check", "--no-replay")
    assert r.returncode == 2 and said in r.stdout.splitlines(), r.stdout
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "a game by hand")
    r = nomic(repo, "check", "--base", "main", "--head", "HEAD", "--author", "alice-nomic")
    assert r.returncode == 2 and said in r.stdout.splitlines(), r.stdout


@pytest.mark.parametrize("args", [["act", "nosuch", "core.vote", "--as", "Dana"], ["act", "nosuch", "--list"],
                                  ["due", "nosuch"], ["tick", "nosuch", "--as", "nomic-tick"],
                                  ["pr", "nosuch", "--no-push"], ["replay", "nosuch"],
                                  ["checkpoint", "nosuch", "--as", "Alice", "--why", "x"]])
def test_an_unknown_game_is_named_at_the_game_argument_with_the_games_there_are(tmp_path, args):
    """Every command taking a GAME says where the name was given, as `check --game` and `new --from` do, and as
    the same commands do of a name no game could have ('game: ...'); it said only "there is no game 'nosuch'"."""
    repo = make_repo(tmp_path)
    r = nomic(repo, *args)
    assert r.returncode == 2 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    assert r.stdout.splitlines()[0] == ("game: there is no game 'nosuch' (no content/nosuch/game.yaml) (the games: "
                                        "blognomic)"), r.stdout
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""


@pytest.mark.parametrize("args", [["due"], ["tick", "--as", "nomic-tick"], ["check"],
                                  ["act", "blognomic", "--list", "--as", "Dana"]])
def test_a_folder_without_games_says_so(tmp_path, args):
    """Run outside the game's repository, a command says there are no games here instead of nothing at all."""
    r = nomic(tmp_path, *args)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "run nomic in the game repository (or a folder inside it), or pass --repo PATH" in r.stdout
    assert "Traceback" not in r.stdout + r.stderr
    assert list(tmp_path.iterdir()) == []


def test_check_base_outside_a_git_repository_says_so(tmp_path):
    shutil.copytree(Path(__file__).parent.parent / "content" / "blognomic", tmp_path / "content" / "blognomic")
    r = nomic(tmp_path, "check", "--base", "main")
    assert r.returncode == 2, r.stdout + r.stderr
    assert f"--base: {tmp_path} is not in a git repository" in r.stdout
    assert "usage: git" not in r.stdout + r.stderr


def test_pr_outside_a_git_repository_or_before_its_first_commit_says_so(tmp_path):
    """`nomic pr` in a copy of the game that is no clone said "HEAD: ... is not in a git repository; HEAD names a
    git revision of the game repository", and in a repository with no commit "HEAD: 'HEAD' is not a commit, branch
    or tag": HEAD is no option the player gave. Each says what nomic pr needs, nothing written."""
    shutil.copytree(Path(__file__).parent.parent / "content" / "blognomic", tmp_path / "content" / "blognomic")
    r = nomic(tmp_path, "pr")
    assert r.returncode == 2 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    assert r.stdout.splitlines()[0] == (f"{tmp_path} is not in a git repository: nomic pr commits the actions taken in "
                                        "a clone of the game repository (git clone URL), and pushes them from there")
    git(tmp_path, "init", "-q", "-b", "main")
    r = nomic(tmp_path, "pr")
    assert r.returncode == 2 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    assert r.stdout.splitlines()[0] == ("this repository has no commit yet: nomic pr judges the actions against the "
                                        "last commit; commit the game first (git add content && git commit)"), r.stdout
    assert git(tmp_path, "status", "--porcelain") == "?? content/\n"
    # nomic act --pr says so before it acts
    actions = sorted((tmp_path / "content/blognomic/actions").iterdir())
    r = nomic(tmp_path, "act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Dana", "--pr")
    assert r.returncode == 2 and r.stdout.startswith("this repository has no commit yet"), r.stdout
    assert sorted((tmp_path / "content/blognomic/actions").iterdir()) == actions


def test_a_base_that_looks_like_an_option_is_no_option_to_git(tmp_path):
    """``--base=--output=FILE`` once reached ``git diff`` as its option, which wrote FILE."""
    repo = make_repo(tmp_path)
    out = tmp_path / "written-by-git"
    r = nomic(repo, "check", f"--base=--output={out}")
    assert r.returncode == 2, r.stdout + r.stderr
    assert "is not a commit, branch or tag" in r.stdout
    assert not out.exists()


@pytest.mark.parametrize("edit, where, says", [
    (("params:", "parms:"), ":5:1: parms: ", "unknown field 'parms'; did you mean 'params'?"),
    (("  vote: FOR", "  vote: FOR\n  vot: 1"), ":8:8: params.vot: ", "unknown field 'vot'"),
])
def test_a_hand_edited_action_file_with_an_unknown_field_is_placed_on_its_key(tmp_path, edit, where, says):
    repo = make_repo(tmp_path)
    r = nomic(repo, "act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Dana",
              "--at", "2026-11-06T10:00:00Z", "-q")
    assert r.returncode == 0, r.stdout + r.stderr
    path = repo / "content/blognomic/actions/20261106T100000Z--Dana--core.vote.yaml"
    path.write_text(path.read_text().replace(*edit))
    r = nomic(repo, "check", "--base", "main", "--now", "2026-11-06T11:00:00Z")
    assert r.returncode == 2, r.stdout + r.stderr
    want = f"content/blognomic/actions/20261106T100000Z--Dana--core.vote.yaml{where}{says}"
    assert want in r.stdout.splitlines(), r.stdout


@pytest.mark.parametrize("actor, says", [
    ("dana", "'dana' is not on the roster; did you mean Dana? (names are written as on the roster)"),
    ("Dena", "'Dena' is not on the roster; did you mean Dana?"),  # a slip of the keys
    ("Zebedee", "'Zebedee' is not on the roster (nomic act blognomic --list --as Zebedee shows what a "
                "newcomer of that name may do)"),  # a name like nobody's gets no guess
])
def test_an_actor_not_on_the_roster_is_shown_the_nearest_name_on_it(tmp_path, actor, says):
    """--as NAME is typed on the command line: a name not on the roster is bad input at --as (exit 2, as nomic
    checkpoint --as), not the game's refusal citing a rule (exit 1, '[rule: 1.4 Voting]')."""
    repo = make_repo(tmp_path)
    r = nomic(repo, "act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", actor,
              "--at", "2026-11-06T10:00:00Z")
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stdout + r.stderr
    assert f"--as: {says}" in r.stdout.splitlines(), r.stdout
    assert not list((repo / "content/blognomic/actions").glob(f"20261106T100000Z--{actor}--*"))


@pytest.mark.parametrize("args, says", [
    (["core.vote", "proposal=3", "vote=FOR", "--as", "Dana", "--at", "2026-11-01T11:00:00Z"],
     "at: dated 2026-11-01T11:00:00Z, before the last action or event (2026-11-05T09:00:00Z); actions are "
     "replayed in time order [rule: G7 Time]"),
    (["core.vote", "proposal=3", "vote=FOO", "--as", "Dana", "--at", "2026-11-06T11:00:00Z"],
     "params.vote: 'FOO' is not one of"),
])
def test_a_refused_act_places_its_problems_on_the_action_not_in_a_file_it_never_wrote(tmp_path, args, says):
    repo = make_repo(tmp_path)
    r = nomic(repo, "act", "blognomic", *args, "--now", "2026-11-22T12:00:00Z")
    assert r.returncode in (1, 2), r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == f"refused: core.vote by Dana at {args[-1]} (not written)", r.stdout
    assert any(line.startswith(says) for line in lines[1:]), r.stdout  # the field and the rule kept
    assert "content/blognomic/actions/" not in r.stdout, r.stdout  # once: '<the file it did not write>: at: ...'
    assert not list((repo / "content/blognomic/actions").glob("20261101T11*")) + \
        list((repo / "content/blognomic/actions").glob("20261106T11*"))
    j = nomic(repo, "act", "blognomic", *args, "--now", "2026-11-22T12:00:00Z", "--format", "json")
    out = json.loads(j.stdout)
    assert out["notes"] == [f"refused: core.vote by Dana at {args[-1]} (not written)"]
    assert all("file" not in p and "action" not in p for p in out["problems"]), out


def test_a_founding_stat_the_rules_cannot_read_is_bad_input_at_its_line(tmp_path):
    # the replay starts from initial/, and Settlement's rules read Hunger as the number the roster declares; a
    # hand-edited founding roster with 'x' there stopped the first rule with a traceback
    repo = make_repo(tmp_path, "settlement")
    path = repo / "content" / "settlement" / "initial" / "gamestate" / "roster.yaml"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    row = next(i for i, line in enumerate(lines) if "hunger: 0, deaths" in line)
    lines[row] = lines[row].replace("hunger: 0,", "hunger: x,")
    path.write_text("".join(lines), encoding="utf-8")
    before = {p: p.read_bytes() for p in (repo / "content").rglob("*") if p.is_file()}
    r = nomic(repo, "check")
    assert r.returncode == 2, r.stdout + r.stderr
    assert "Traceback" not in r.stdout + r.stderr
    where = f"content/settlement/initial/gamestate/roster.yaml:{row + 1}:"
    assert any(line.startswith(where) and "stats.hunger: \"x\" is not a whole number" in line
               for line in r.stdout.splitlines()), r.stdout
    assert {p: p.read_bytes() for p in (repo / "content").rglob("*") if p.is_file()} == before


def test_a_founding_state_against_a_module_invariant_is_bad_input_at_its_line(tmp_path):
    # Quazie's rule 22: a Hand is in a rule's text or in its Pocket; a founding Hand in a rule the ruleset does not
    # have is reported at its field of initial/gamestate/quazie.yaml, as it is in gamestate/, before any replay
    repo = make_repo(tmp_path, "quazie")
    path = repo / "content" / "quazie" / "initial" / "gamestate" / "quazie.yaml"
    text = path.read_text(encoding="utf-8")
    assert "    rule: special-positions\n" in text
    path.write_text(text.replace("    rule: special-positions\n", "    rule: special-position\n", 1), encoding="utf-8")
    row = path.read_text(encoding="utf-8").splitlines().index("    rule: special-position") + 1
    r = nomic(repo, "check")
    assert r.returncode == 2, r.stdout + r.stderr
    assert "Traceback" not in r.stdout + r.stderr
    where = f"content/quazie/initial/gamestate/quazie.yaml:{row}:"
    assert any(line.startswith(where) and "hands.left.rule" in line for line in r.stdout.splitlines()), r.stdout


def test_list_with_an_action_shows_that_action_s_parameters_who_and_rule(tmp_path):
    repo = make_repo(tmp_path)
    r = nomic(repo, "act", "blognomic", "core.vote", "--list", "--as", "Dana", "--at", "2026-11-06T10:00:00Z")
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "yes core.vote proposal= vote=", lines
    assert "      who: an active player, for themselves; rule: 1.4 Voting" in lines
    assert "      proposal  whole number (≥ 1), required: the number of the pending proposal" in lines
    assert ("      vote      FOR | AGAINST | DEFERENTIAL | VETO | COMPENSATE | ADMONISH, required: your vote; a later "
            "one replaces it") in lines
    assert "core.propose" not in r.stdout  # that one action only
    r = nomic(repo, "act", "blognomic", "core.vot", "--list", "--as", "Dana", "--at", "2026-11-06T10:00:00Z")
    assert r.returncode == 2 and "unknown action 'core.vot'" in r.stdout and "did you mean core.vote" in r.stdout


def test_an_action_missing_its_parameters_points_to_its_list(tmp_path):
    repo = make_repo(tmp_path)
    r = nomic(repo, "act", "blognomic", "core.vote", "--as", "Dana", "--at", "2026-11-06T10:00:00Z")
    assert r.returncode == 2, r.stdout
    assert "params: 'proposal' is a required property" in r.stdout
    assert "note: nomic act blognomic core.vote --list --as Dana shows the action's parameters" in r.stdout


def test_a_reader_that_closes_the_pipe_gets_no_traceback(tmp_path):
    # `nomic due --at ... | head`: the reader had enough; nomic stops quietly, with its own exit code
    repo = make_repo(tmp_path)
    for args, code in ((["due", "blognomic", "--at", "yesterday"], 2), (["due", "--at", "2026-11-06T10:00:00Z"], 0)):
        cmd = " ".join([sys.executable, "-m", "validators.cli", "--repo", str(repo), *args])
        r = subprocess.run(["bash", "-c", f"{cmd} | head -c 0; exit ${{PIPESTATUS[0]}}"], capture_output=True,
                           text=True, cwd=str(Path(__file__).resolve().parent.parent))
        assert "Traceback" not in r.stderr and "BrokenPipe" not in r.stderr, r.stderr
        assert r.returncode == code, (args, r.returncode, r.stderr)


def test_a_reader_that_closes_the_pipe_leaves_the_verdict_s_exit_code(tmp_path):
    """`nomic check | head -1` of a game with a bad file, `nomic replay --without ... | head -1` making an action
    illegal: the exit code is still the verdict's (2, 1), as without the pipe; it was 0 once the reader had gone."""
    repo = make_repo(tmp_path)
    roster = repo / "content" / "blognomic" / "gamestate" / "roster.yaml"
    good = roster.read_text()
    for args, code in ((["check", "--no-replay"], 2),
                       (["replay", "blognomic", "--without", "20261102T100000Z--Fatima--core.join.yaml"], 1)):
        roster.write_text(good.replace("admin: true", "admin: maybe", 1) if code == 2 else good)
        cmd = " ".join([sys.executable, "-m", "validators.cli", "--repo", str(repo), *args])
        assert subprocess.run(["bash", "-c", cmd], capture_output=True,
                              cwd=str(Path(__file__).resolve().parent.parent)).returncode == code, args
        for reader in ("head -c 0", "head -1"):
            r = subprocess.run(["bash", "-c", f"{cmd} | {reader}; exit ${{PIPESTATUS[0]}}"], capture_output=True,
                               text=True, cwd=str(Path(__file__).resolve().parent.parent))
            assert "Traceback" not in r.stderr and "BrokenPipe" not in r.stderr, r.stderr
            assert r.returncode == code, (args, reader, r.returncode, r.stderr)


def test_a_misspelt_parameter_is_one_problem(tmp_path):
    """'proposl=3' is one mistake: the unknown field with the name meant, not also 'proposal' missing; a parameter
    really left out is still named."""
    repo = make_repo(tmp_path)
    r = nomic(repo, "act", "blognomic", "core.vote", "proposl=3", "vote=FOR", "--as", "Dana",
              "--at", "2026-11-06T10:00:00Z")
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stdout + r.stderr
    assert "params.proposl: unknown field 'proposl'; did you mean 'proposal'?" in r.stdout
    assert "'proposal' is a required property" not in r.stdout and "bad input: 1 problem" in r.stdout, r.stdout
    r = nomic(repo, "act", "blognomic", "core.vote", "proposl=3", "--as", "Dana", "--at", "2026-11-06T10:00:00Z")
    assert "'vote' is a required property" in r.stdout and "bad input: 2 problems" in r.stdout, r.stdout


def test_a_parameter_the_action_does_not_take_is_shown_where_its_parameters_are_listed(tmp_path):
    """extra=1, or a name too far from any to be told the one meant: as for a parameter left out or of the wrong
    kind, the command that lists the action's parameters; before, only "unknown field 'extra'"."""
    repo = make_repo(tmp_path)
    r = nomic(repo, "act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "extra=1", "--as", "Dana",
              "--at", "2026-11-06T10:00:00Z")
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stdout + r.stderr
    assert "params.extra: unknown field 'extra'" in r.stdout.splitlines(), r.stdout
    assert "note: nomic act blognomic core.vote --list --as Dana shows the action's parameters" in r.stdout, r.stdout
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""


def test_a_list_for_a_name_not_on_the_roster_says_so_once_with_the_name_meant(tmp_path):
    repo = make_repo(tmp_path)
    r = nomic(repo, "act", "blognomic", "--list", "--as", "chidi")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stdout + r.stderr
    first = r.stdout.splitlines()[0]
    assert first == ("note: 'chidi' is not on the roster; did you mean Chidi? (names are written as on the roster); "
                     "what follows is what a newcomer of that name may do"), first
    r = nomic(repo, "act", "blognomic", "--list", "--as", "Gina")
    assert r.stdout.startswith("note: 'Gina' is not on the roster (names are written as on the roster)"), r.stdout
    assert "yes core.join account=" in r.stdout
    r = nomic(repo, "act", "blognomic", "--list", "--as", "Chidi")
    assert "not on the roster" not in r.stdout, r.stdout


def test_a_name_that_begins_a_roster_name_is_told_the_whole_name(tmp_path):
    repo = make_repo(tmp_path, "ifmud")
    r = nomic(repo, "act", "ifmud", "engine.commit", "label=pick", "hash=" + "0" * 64, "--as", "Zoe")
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stdout + r.stderr
    assert "'Zoe' is not on the roster; did you mean Zoe Abbott?" in r.stdout, r.stdout


def test_a_label_or_hash_of_the_wrong_form_is_told_what_is_asked_in_words(tmp_path):
    repo = make_repo(tmp_path)
    r = nomic(repo, "act", "blognomic", "engine.commit", "label=my pick", "hash=abc", "--as", "Dana",
              "--at", "2026-11-06T10:00:00Z")
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stdout + r.stderr
    # words first, no regular expression: "'my pick' does not match '^[A-Za-z0-9_.-]{1,60}$': a label of ..."
    assert ("params.label: 'my pick' is not a label of 1 to 60 letters, digits, dots, dashes or underscores, no "
            "spaces") in r.stdout.splitlines(), r.stdout
    assert "params.hash: 'abc' is not the hash nomic hash prints: 64 digits and letters a-f" in r.stdout, r.stdout
    assert "^[" not in r.stdout, r.stdout


def test_a_file_after_at_that_is_not_there_is_looked_for_in_the_current_folder(tmp_path):
    repo = make_repo(tmp_path)
    r = nomic(repo, "act", "blognomic", "core.propose", "title=Hats", "text=@draft.md", "--as", "Dana",
              "--at", "2026-11-06T10:00:00Z")
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stdout + r.stderr
    assert "text: no file 'draft.md' in " in r.stdout and "(a path after @ is the current folder's)" in r.stdout
    # a folder is there, but is no file: said so, not as missing (the command runs in the project's folder)
    r = nomic(repo, "act", "blognomic", "core.propose", "title=Hats", "text=@tests", "--as", "Dana",
              "--at", "2026-11-06T10:00:00Z")
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stdout + r.stderr
    assert "text: 'tests' is a folder; @ reads one file: name it" in r.stdout.splitlines(), r.stdout
    r = nomic(repo, "act", "blognomic", "core.propose", "title=Hats", "text=@", "--as", "Dana",
              "--at", "2026-11-06T10:00:00Z")
    assert r.returncode == 2 and "text: no file after @: name one, like text=@draft.md" in r.stdout, r.stdout
    # a device is there, but no file either: said so (it was 'no file '/dev/null'', as if missing)
    r = nomic(repo, "act", "blognomic", "core.propose", "title=Hats", "text=@/dev/null", "--as", "Dana",
              "--at", "2026-11-06T10:00:00Z")
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stdout + r.stderr
    assert ("text: '/dev/null' is not a regular file (a device or a pipe); @ reads a file"
            in r.stdout.splitlines()), r.stdout
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""


def test_effects_from_a_file_not_named_yaml_are_told_why_they_were_read_as_text(tmp_path):
    repo = make_repo(tmp_path)
    (repo / "effects.txt").write_text("gamestate:\n  - {op: replace, path: /roster/players/name=Dana/admin, "
                                      "value: true}\n")
    r = nomic(repo, "act", "blognomic", "core.propose", "title=Hats", f"effects=@{repo / 'effects.txt'}",
              "--as", "Dana", "--at", "2026-11-06T10:00:00Z")
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stdout + r.stderr
    assert "params.effects: " in r.stdout and "is not a mapping (key: value pairs)" in r.stdout, r.stdout
    assert (f"note: effects=@{repo / 'effects.txt'} was read as text: a file after @ is read as YAML data only when "
            "its name ends in .yaml or .yml") in r.stdout, r.stdout


@pytest.mark.parametrize("listed", ["- {op: replace, path: /roster/players/name=Dana/admin, value: true}\n",
                                    "- {op: amend, id: fair-play, body: New text.}\n"])
def test_effects_written_as_a_bare_list_are_told_how_to_write_them(tmp_path, listed):
    # a file of patch operations (or rule edits) alone, not under gamestate: (or rules:), was refused with "is not a
    # mapping" and nothing more: the effects' shape is said, and where it is shown
    repo = make_repo(tmp_path)
    effects = tmp_path / "effects.yaml"
    effects.write_text(listed, encoding="utf-8")
    r = nomic(repo, "act", "blognomic", "core.propose", "title=Hats", f"effects=@{effects}", "--as", "Dana",
              "--at", "2026-11-06T10:00:00Z")
    assert r.returncode == 2 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    assert "params.effects: " in r.stdout and "is not a mapping (key: value pairs)" in r.stdout, r.stdout
    assert ("note: effects: a proposal's effects are a mapping, not a list: patch operations go under gamestate "
            "(gamestate: [ ...operations... ]), rule edits under rules (rules: [ ...edits... ]); docs/engine.md "
            "(\"A proposal's effects\") shows their shape") in r.stdout.splitlines(), r.stdout
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""


def test_a_cycle12_change_s_effects_written_as_a_bare_list_are_told_how_to_write_them(tmp_path):
    repo = make_repo(tmp_path, "cycle12")
    r = nomic(repo, "act", "cycle12", "cycle12.propose", "title=Swim",
              "changes=[{kind: textual, text: Nomsters may swim., effects: [{op: remove, path: /nomsters/x}]}]",
              "--as", "Basil", "--dry-run")
    assert r.returncode == 2 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    assert "params.changes[0].effects: " in r.stdout, r.stdout
    assert ("note: changes[0].effects: a proposal's effects are a mapping, not a list: patch operations go under "
            "gamestate") in r.stdout, r.stdout


def test_a_roster_stat_of_the_wrong_kind_is_shown_as_the_file_writes_it(tmp_path):
    """true, null and "x" as YAML writes them (as the replay's 'file says true' beside it), not Python's True/None."""
    repo = make_repo(tmp_path, "monkey")
    path = repo / "content" / "monkey" / "gamestate" / "roster.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("bananas: 12", "bananas: true", 1).replace("hat: Blue", "hat: null", 1),
                    encoding="utf-8")
    r = nomic(repo, "check")
    assert "Traceback" not in r.stdout + r.stderr
    assert "players[0].stats.bananas: true is not a whole number" in r.stdout, r.stdout
    assert "players[1].stats.hat: null is not text" in r.stdout, r.stdout
    assert "True is not" not in r.stdout and "None is not text" not in r.stdout, r.stdout


@pytest.mark.parametrize("args", [
    ["act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Dana", "--at", "2026-11-06T10:00:00Z"],
    ["act", "blognomic", "--list", "--as", "Dana"], ["due", "blognomic"], ["replay", "blognomic"],
    ["check", "--game", "blognomic"], ["new", "pirates", "--from", "blognomic", "--admin", "Ann=ann-gh"],
])
def test_a_game_yaml_that_is_a_folder_is_named_as_such_not_as_a_game_that_is_not_there(tmp_path, args):
    """A game whose game.yaml is not a file is a game there, badly kept: said as the check says it, never as
    "there is no game 'blognomic'; did you mean blognomic?"."""
    repo = make_repo(tmp_path)
    game = repo / "content" / "blognomic"
    (game / "game.yaml").unlink()
    (game / "game.yaml").mkdir()
    before = subprocess.run(["git", "-C", str(repo), "status", "--porcelain", "--untracked-files=all"],
                            capture_output=True, text=True).stdout
    r = nomic(repo, *args)
    assert r.returncode == 2 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    assert "content/blognomic/game.yaml: not a regular file" in r.stdout.splitlines(), r.stdout
    assert "there is no game" not in r.stdout, r.stdout
    assert subprocess.run(["git", "-C", str(repo), "status", "--porcelain", "--untracked-files=all"],
                          capture_output=True, text=True).stdout == before


@pytest.mark.parametrize("game, key, value, says", [
    ("ifmud", "win_at", "abc", '"abc" is not a whole number'),
    ("ifmud", "honours_at", "[250]", "[250] is not a whole number"),
    ("ifmud", "death_toll_in_haven", "maybe", '"maybe" is not true or false'),
    ("ifmud", "win_att", "300", "unknown field 'win_att'"),
    ("cycle12", "start", "yesterday", '"yesterday" is not a UTC time of the calendar'),
    ("cycle12", "last_phase", "abc", '"abc" is not a whole number'),
    ("cycle12", "last_phase", "0", "0 is less than the minimum of 1"),  # 004 The End of All Things: phase I at least
    ("cycle12", "separator", "[1]", "[1] is not text"),
    ("cycle12", "announcer_may_react", "7", "7 is not true or false"),
    # Monkey's options: once one problem at `monkey:`, found only by the module's invariants
    ("monkey", "dance_cooldown", "[1]", "[1] is not one of 'anyone', 'others'"),
    ("monkey", "hat_hammer_bonus", "sometimes", "'sometimes' is not one of 'every-case', 'bare-only'"),
    ("monkey", "colour", "brown", "unknown field 'colour'"),
    # the settlement module's own check of its options, placed on the option's line, not on `settlement:`
    ("settlement", "adjacency", "hex", "'hex' is not one of king, orthogonal"),
    ("settlement", "colour", "red", "unknown option 'colour'"),
])
def test_a_game_option_of_the_wrong_kind_is_bad_input_at_its_line(tmp_path, game, key, value, says):
    """ifMUD's and Cycle 12's options were read by the rules as they stood: ``win_at: abc`` or ``last_phase: abc``
    failed inside the judge (a traceback), ``death_toll_in_haven: maybe`` was taken as true, a misspelt option
    was never read. Each is now checked with game.yaml, at its line, for check and act alike; nothing is written."""
    repo = make_repo(tmp_path, game)
    for part in ("", "initial/"):
        path = repo / "content" / game / f"{part}game.yaml"
        text = path.read_text()
        assert f"\n  {game}:\n" in text
        if f"\n    {key}: " in text:  # the option the game sets, given a bad value
            text = re.sub(rf"(?m)^    {key}: .*$", f"    {key}: {value}", text, count=1)
        else:
            text = text.replace(f"\n  {game}:\n", f"\n  {game}:\n    {key}: {value}\n", 1)
        path.write_text(text)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "options")
    line = (repo / "content" / game / "game.yaml").read_text().splitlines().index(f"    {key}: {value}") + 1
    actor = sorted((repo / "content" / game / "actions").iterdir())[-1].name.split("--")[1]
    listing = [] if game == "settlement" else [["act", game, "--list", "--as", actor]]  # settlement: an invariant
    for args in (["check", "--game", game], *listing):
        r = nomic(repo, *args)
        assert r.returncode == 2 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
        assert any(s.startswith(f"content/{game}/game.yaml:{line}:") and f": options.{game}.{key}: {says}" in s
                   for s in r.stdout.splitlines()), r.stdout
        assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""


@pytest.mark.parametrize("path, hint", [
    ("roster/players/name=Dana/admin", "; did you mean '/roster/players/name=Dana/admin'?"),
    ("", ""), ("/", ""), ("//roster", "")])
def test_a_patch_path_no_enactment_could_read_is_refused_when_proposed(tmp_path, path, hint):
    """Seed 001 1.5: a proposal's effects are applied when it is enacted; a path that names no document (no leading
    '/', or none after it) could never be applied, and was only found then ("must start with '/'"). It is bad
    input when proposed, at the field; nothing is written. A path without its leading '/' is told the path meant."""
    repo = make_repo(tmp_path)
    effects = json.dumps({"gamestate": [{"op": "replace", "path": path, "value": True}]})
    r = nomic(repo, "act", "blognomic", "core.propose", "title=Admins", f"effects={effects}", "--as", "Dana",
              "--at", "2026-11-06T10:00:00Z")
    assert r.returncode == 2 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    assert f"params.effects.gamestate[0].path: {path!r} is not a place in the gamestate: " \
           "/DOCUMENT/key/..., starting with / and a document's name" + hint in r.stdout.splitlines(), r.stdout
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""
    ok = nomic(repo, "act", "blognomic", "core.propose", "title=Admins", "effects=" + json.dumps(
        {"gamestate": [{"op": "replace", "path": "/roster/players/name=Dana/admin", "value": True}]}),
        "--as", "Dana", "--at", "2026-11-06T10:00:00Z", "-q")
    assert ok.returncode == 0, ok.stdout + ok.stderr


def test_options_of_a_module_the_game_does_not_have_are_bad_input_at_their_line(tmp_path):
    """``options: {blognomc: ...}`` (a misspelt module) was read by no module, so every option stayed at its default
    without a word; it is now refused at its line, with the module meant and the game's modules."""
    repo = make_repo(tmp_path, "quazie")
    for part in ("", "initial/"):
        path = repo / "content" / "quazie" / f"{part}game.yaml"
        text = path.read_text()
        assert "\n  blognomic:\n" in text
        path.write_text(text.replace("\n  blognomic:\n", "\n  blognomc:\n", 1))
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "options")
    line = (repo / "content" / "quazie" / "game.yaml").read_text().splitlines().index("  blognomc:") + 1
    r = nomic(repo, "check", "--game", "quazie")
    assert r.returncode == 2 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    assert (f"content/quazie/game.yaml:{line}:3: options.blognomc: no module of this game is named 'blognomc' (its "
            "modules: blognomic, quazie), so none would read these options; did you mean blognomic?"
            in r.stdout.splitlines()), r.stdout
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""


@pytest.mark.parametrize("given, says", [
    ("content", "holds files that are not a built wiki, and the build empties the folder before it writes the site"),
    ("", "holds files that are not a built wiki"),
    ("content/blognomic/game.yaml", "game.yaml' is a file; the site is a folder of pages"),
])
def test_a_site_dir_that_is_a_file_or_holds_other_files_is_refused_before_anything_is_removed(tmp_path, given, says):
    """MkDocs empties the site's folder before it writes the pages: ``nomic build --site-dir content`` once deleted
    every game, and a file there was a traceback."""
    repo = make_repo(tmp_path)
    root = Path(__file__).parent.parent
    shutil.copyfile(root / "mkdocs.yml", repo / "mkdocs.yml")  # a repository the wiki can be built from
    shutil.copytree(root / "docs", repo / "docs")
    before = {p: p.read_bytes() for p in repo.rglob("*") if p.is_file() and ".git" not in p.parts}
    r = nomic(repo, "build", "--site-dir", str(repo / given))
    assert r.returncode == 2, r.stdout + r.stderr
    assert f"--site-dir: '{repo / given}" in r.stdout and says in r.stdout, r.stdout
    assert "Traceback" not in r.stdout + r.stderr
    after = {p: p.read_bytes() for p in repo.rglob("*") if p.is_file() and ".git" not in p.parts}
    assert after == before


def test_a_site_dir_that_is_new_empty_or_an_earlier_build_is_taken(tmp_path):
    from validators.site import site_dir_problem

    assert site_dir_problem(str(tmp_path / "new")) is None
    (tmp_path / "empty").mkdir()
    assert site_dir_problem(str(tmp_path / "empty")) is None
    (tmp_path / "built").mkdir()
    for name in ("index.html", "sitemap.xml", "404.html"):
        (tmp_path / "built" / name).write_text("x")
    assert site_dir_problem(str(tmp_path / "built")) is None
    (tmp_path / "built" / "sitemap.xml").unlink()
    assert site_dir_problem(str(tmp_path / "built")) is not None


@pytest.mark.parametrize("args, default", [
    (["tick", "", "--as", "nomic-tick", "--at", "2026-11-06T10:00:00Z"], "every game with events due"),
    (["tick", " ", "--as", "nomic-tick", "--at", "2026-11-06T10:00:00Z"], "every game with events due"),
    (["due", "", "--at", "2026-11-06T10:00:00Z"], "every game"),
    (["pr", "", "--no-push"], "the game with uncommitted changes"),
])
def test_an_empty_game_name_is_refused_not_taken_for_every_game(tmp_path, args, default):
    """``nomic tick "$GAME" --as ...`` with GAME unset once ticked every game, as if the game had been left out (as
    ``--base ""`` is refused for the check)."""
    repo = make_repo(tmp_path, "ifmud")  # its deadlines have fallen due by then: a tick writes an action
    if args[0] == "pr":
        assert nomic(repo, "tick", "ifmud", "--as", "nomic-tick", "--at", "2026-11-06T10:00:00Z").returncode == 0
    before = {p: p.read_bytes() for p in (repo / "content").rglob("*") if p.is_file()}
    head = git(repo, "rev-parse", "HEAD")
    r = nomic(repo, *args)
    assert r.returncode == 2, r.stdout + r.stderr
    assert f"game: names no game (it is empty): name one, or leave it out for {default}" in r.stdout, r.stdout
    after = {p: p.read_bytes() for p in (repo / "content").rglob("*") if p.is_file()}
    assert after == before and git(repo, "rev-parse", "HEAD") == head
    # the same game named is ticked
    if args[0] == "tick":
        ok = nomic(repo, "tick", "ifmud", *args[2:])
        assert ok.returncode == 0 and "ifmud: the deadlines that fell due" in ok.stdout, ok.stdout + ok.stderr


@pytest.mark.parametrize("args, option", [
    (["--repo", "", "check"], "--repo"),
    (["check", "--author", ""], "--author"),
    (["check", "--base", "HEAD", "--author", " "], "--author"),
    (["build", "--site-dir", ""], "--site-dir"),
    (["pr", "--branch", "", "--no-push"], "--branch"),
    (["pr", "--remote", ""], "--remote"),
    (["new", "fresh", "--from", "", "--admin", "Anne=anne-gh"], "--from"),
])
def test_an_empty_option_is_refused_not_taken_as_left_out(tmp_path, args, option):
    """``--repo "$DIR"`` with DIR unset ran in the current folder; ``--site-dir ""`` built into site/; ``--author ""``
    judged as if no author were given: each an empty value taken for the option left out."""
    repo = make_repo(tmp_path)
    assert nomic(repo, "act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Dana",
                 "--at", "2026-11-06T10:00:00Z").returncode == 0  # something for nomic pr to submit
    before = {p: p.read_bytes() for p in repo.rglob("*") if p.is_file() and ".git" not in p.parts}
    head = git(repo, "rev-parse", "HEAD")
    r = nomic(repo, *args)
    assert r.returncode == 2, r.stdout + r.stderr
    assert r.stdout.startswith(f"{option}: is empty: give "), r.stdout
    assert "Traceback" not in r.stdout + r.stderr
    after = {p: p.read_bytes() for p in repo.rglob("*") if p.is_file() and ".git" not in p.parts}
    assert after == before and git(repo, "rev-parse", "HEAD") == head


def test_a_branch_name_git_refuses_is_bad_input_at_the_option_before_anything_is_committed(tmp_path):
    repo = make_repo(tmp_path)
    assert nomic(repo, "act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Dana",
                 "--at", "2026-11-06T10:00:00Z").returncode == 0
    head, status = git(repo, "rev-parse", "HEAD"), git(repo, "status", "--porcelain", "--untracked-files=all")
    branches = git(repo, "branch", "--list")
    r = nomic(repo, "pr", "--branch", "dana/vote..3", "--no-push", "--author", "dana-nomic")
    assert r.returncode == 2, r.stdout + r.stderr
    assert r.stdout.startswith("--branch: 'dana/vote..3' is not a name git takes for a branch"), r.stdout
    assert git(repo, "rev-parse", "HEAD") == head and git(repo, "branch", "--list") == branches
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == status
    ok = nomic(repo, "pr", "--branch", "dana/vote-3", "--no-push", "--author", "dana-nomic")
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert git(repo, "rev-parse", "--abbrev-ref", "HEAD").strip() == "dana/vote-3"


def test_a_misspelt_example_game_is_told_at_from(tmp_path):
    repo = make_repo(tmp_path)
    r = nomic(repo, "new", "fresh", "--from", "blognomc", "--admin", "Anne=anne-gh")
    assert r.returncode == 2, r.stdout + r.stderr
    assert r.stdout.startswith("--from: there is no game 'blognomc' (no content/blognomc/game.yaml); did you mean "
                               "blognomic?"), r.stdout
    assert not (repo / "content" / "fresh").exists()


def test_a_broken_mkdocs_yml_is_bad_input_and_builds_nothing(tmp_path):
    """mkdocs.yml is the repository's own file: an error in it is bad input (exit 2) naming the file, as a game
    file's is, not a failed build (exit 1)."""
    repo = make_repo(tmp_path)
    root = Path(__file__).parent.parent
    (repo / "mkdocs.yml").write_text((root / "mkdocs.yml").read_text() + "nav: 5\n")
    shutil.copytree(root / "docs", repo / "docs")
    r = nomic(repo, "build", "--site-dir", str(tmp_path / "site"))
    assert r.returncode == 2, r.stdout + r.stderr
    assert "nomic: the wiki was not built: mkdocs.yml: " in r.stderr and "Expected nav to be a list" in r.stderr, \
        r.stderr
    assert "Traceback" not in r.stdout + r.stderr
    assert not (tmp_path / "site").exists()


@pytest.mark.parametrize("args, says", [
    (["core.vote", "proposal=3", "vote=FOR", "--note", "x" * 2001],
     "note: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'... (2001 characters) is too long (at most 2000 characters)"),
    (["core.propose", "title=" + "x" * 201],
     "params.title: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'... (201 characters) is too long "
     "(at most 200 characters)"),
])
def test_a_text_too_long_is_told_the_limit_not_echoed_whole(tmp_path, args, says):
    # README: --note takes up to 2,000 characters. A text over its limit was written back whole ("'xxx...x' is too
    # long"), thousands of characters, without the limit; now its start, its length and the limit
    repo = make_repo(tmp_path)
    r = nomic(repo, "act", "blognomic", *args, "--as", "Dana", "--at", "2026-11-06T10:00:00Z",
              "--now", "2026-11-22T12:00:00Z")
    assert r.returncode == 2, r.stdout + r.stderr
    assert says in r.stdout, r.stdout
    assert "x" * 100 not in r.stdout, r.stdout
    assert not list((repo / "content/blognomic/actions").glob("20261106T100000Z--*"))


@pytest.mark.parametrize("at, code, says", [
    ("2026-11-01T00:00:00Z", 2, "--at: dated 2026-11-01T00:00:00Z, before the last action or event "
                                "(2026-11-05T09:00:00Z); actions are replayed in time order; so no action may be taken "
                                "then"),
    ("2026-11-23T00:00:00Z", 2, "--at: dated 2026-11-23T00:00:00Z, in the future (now is 2026-11-22T12:00:00Z)"),
    ("2026-11-06T00:00:00Z", 0, "yes core.vote"),
])
def test_a_list_at_a_time_no_action_may_be_dated_says_so_not_yes(tmp_path, at, code, says):
    # docs/playing.md: the list's yes and no are the judge's (G7 Time). At a time before the last action the list
    # said yes to actions (engine.commit, core.vote...) that the judge refuses for their time alone
    repo = make_repo(tmp_path)
    r = nomic(repo, "act", "blognomic", "--list", "--as", "Dana", "--at", at, "--now", "2026-11-22T12:00:00Z")
    assert r.returncode == code, r.stdout + r.stderr
    assert says in r.stdout, r.stdout
    assert "yes" not in r.stdout if code else True


@pytest.mark.parametrize("args, says", [
    (["new", "pirates", "--from", "blognomic", "--admin", "Ann=ann gh"],
     "--admin: LOGIN 'ann gh' is not a login on the forge (GitHub)"),
    (["act", "blognomic", "core.join", "account=ann gh", "--as", "Zed", "--at", "2026-11-06T10:00:00Z"],
     "params.account: 'ann gh' is not a login on the forge (GitHub)"),
])
def test_a_login_refused_is_told_what_a_login_holds(tmp_path, args, says):
    """A login the schema refuses is told, in words, what a login may hold, not only the regular expression; before,
    'The player's login on the forge (GitHub), used to match pull-request authors', and no word of what it takes."""
    repo = make_repo(tmp_path)
    r = nomic(repo, *args)
    assert r.returncode == 2 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    line = next(x for x in r.stdout.splitlines() if says in x)
    assert "1 to 39 letters, digits and dashes, starting with a letter or digit" in line, r.stdout
    assert "^[" not in line, line  # the words say it all: once "'ann gh' does not match '^[A-Za-z0-9]...': The ..."
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""


def test_a_pattern_refused_is_told_in_words_first_and_a_bare_one_its_expression_after_them(tmp_path):
    """A value a regular expression refuses reads as words: a rule's id in a proposal's effects said only
    "'Fair Play' does not match '^[a-z0-9][a-z0-9-]{0,79}$'" (its schema had no description); a pattern that has
    no words yet still starts with words, and shows the expression in brackets after them."""
    from validators.schemas import errors

    repo = make_repo(tmp_path)
    effects = json.dumps({"rules": [{"op": "amend", "id": "Fair Play", "body": "x"}]})
    r = nomic(repo, "act", "blognomic", "core.propose", "title=T", f"effects={effects}", "--as", "Dana",
              "--at", "2026-11-06T10:00:00Z")
    assert r.returncode == 2 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    assert ("params.effects.rules[0].id: 'Fair Play' is not a rule's id, the name of its file in ruleset/ without "
            ".md: 1 to 80 lower-case letters, digits and dashes, starting with a letter or digit, like fair-play"
            in r.stdout.splitlines()), r.stdout
    assert [p.message for p in errors("Up", inline={"type": "string", "pattern": "^[a-z]+$"})] == [
        "'Up' is not of the form this field takes (the pattern ^[a-z]+$)"]
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""


def test_a_name_refused_is_told_how_long_it_may_be(tmp_path):
    repo = make_repo(tmp_path)
    r = nomic(repo, "new", "pirates", "--from", "blognomic", "--admin", f"{'A' * 41}=ann")
    assert r.returncode == 2 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    assert "--admin: NAME 'AAAA" in r.stdout and "1 to 40 " in r.stdout, r.stdout
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""


def test_nomic_due_before_the_game_s_last_action_is_refused_not_answered_from_the_present(tmp_path):
    """`nomic due GAME --at` a time before the game's last action: the gamestate is the game's as it stands, after
    that action, so what was due then is not in it; before, it answered from the present state as if it were then
    (blognomic's last action is at 2026-11-05T09:00:00Z; "proposal 3 may be failed from ..." at 2026-11-01)."""
    repo = make_repo(tmp_path)
    r = nomic(repo, "due", "blognomic", "--at", "2026-11-01T00:00:00Z")
    assert r.returncode == 2 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    assert ("--at: 2026-11-01T00:00:00Z is before blognomic's last action or event (2026-11-05T09:00:00Z): nomic due "
            "reads the gamestate as it stands, so it answers only from then on") in r.stdout.splitlines(), r.stdout
    # every game: that game's line says so, and the others answer
    shutil.copytree(Path(__file__).resolve().parent.parent / "content" / "monkey", repo / "content" / "monkey")
    r = nomic(repo, "due", "--at", "2026-11-06T10:00:00Z")
    assert r.returncode == 0 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    assert "  - an admin may fail proposal 3 now: open 48 hours with 2 of 4 votes FOR: half or fewer" in r.stdout
    assert "monkey at 2026-11-06T10:00:00Z:\n  - nothing to say: 2026-11-06T10:00:00Z is before monkey's last action" \
        in r.stdout, r.stdout
    # from the last action on, the game answers
    r = nomic(repo, "due", "blognomic", "--at", "2026-11-05T09:00:00Z")
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.parametrize("repo_arg, says", [
    ("nosuch", "--repo: no folder '{repo}/nosuch' (from "),
    ("content/blognomic/game.yaml", "--repo: '{repo}/content/blognomic/game.yaml' is a file: name the game "
                                    "repository's folder (the one holding content/)"),
    ("content/blognomic", "--repo: '{repo}/content/blognomic' is a folder inside the game repository {repo}: --repo "
                          "names the repository's own folder (the one holding content/)"),
])
def test_a_repo_option_that_names_no_repository_says_what_it_names(tmp_path, repo_arg, says):
    """--repo naming no folder, a file, or a folder inside the repository: said as such; before, each was "no games
    found in .../content" (or "there is no game 'blognomic'"), as if the folder held no game."""
    repo = make_repo(tmp_path)
    r = subprocess.run([sys.executable, "-m", "validators.cli", "--repo", f"{repo}/{repo_arg}", "due", "blognomic"],
                       capture_output=True, text=True, cwd=str(Path(__file__).resolve().parent.parent))
    assert r.returncode == 2 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    assert r.stdout.startswith(says.format(repo=repo)), r.stdout
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""


@pytest.mark.parametrize("command", [["act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Dana"],
                                     ["due", "blognomic"]])
def test_a_time_with_a_fraction_of_a_second_is_refused_not_cut(tmp_path, command):
    """README: the record holds whole seconds; --at 2026-11-22T10:00:00.5Z was cut to 10:00:00 without a word."""
    repo = make_repo(tmp_path)
    r = nomic(repo, *command, "--at", "2026-11-06T10:00:00.5Z")
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stdout + r.stderr
    assert ("--at: '2026-11-06T10:00:00.5Z' has a fraction of a second; the game's files hold whole seconds: write "
            "2026-11-06T10:00:00Z") in r.stdout.splitlines(), r.stdout
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""


@pytest.mark.parametrize("command", [["due"], ["tick", "--as", "nomic-tick"]])
def test_every_game_s_due_and_tick_answer_for_the_others_when_one_cannot_be_read(tmp_path, command):
    """``nomic due`` and ``nomic tick`` of every game stopped at the first game that could not be read (a broken
    YAML file, a folder no command could name) and said nothing of the others: the bad ones are bad input at their
    file and line (exit 2), and each other game is answered (or ticked) all the same."""
    repo = make_repo(tmp_path, "ifmud")  # its deadlines have fallen due by then: a tick writes an action
    shutil.copytree(repo / "content" / "ifmud", repo / "content" / "aaa")  # read before ifmud
    ledger = repo / "content" / "aaa" / "gamestate" / "ledger.yaml"
    row = len(ledger.read_text(encoding="utf-8").splitlines()) + 1
    with ledger.open("a", encoding="utf-8") as f:
        f.write("oops: [\n")
    shutil.copytree(repo / "content" / "ifmud", repo / "content" / "Pi.Rates")
    r = nomic(repo, *command, "--at", "2026-11-06T10:00:00Z")
    assert r.returncode == 2 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert any(x.startswith(f"content/aaa/gamestate/ledger.yaml:{row}:7: not valid YAML") for x in lines), r.stdout
    assert any(x.startswith("content/Pi.Rates: 'Pi.Rates' is not a game's name") for x in lines), r.stdout
    assert "bad input: 2 problems" in lines, r.stdout
    if command[0] == "due":
        assert "ifmud at 2026-11-06T10:00:00Z:" in lines, r.stdout
        assert any("the rules' own deadlines have fallen due" in x for x in lines), r.stdout
        assert "aaa at 2026-11-06T10:00:00Z:" in lines, r.stdout
        assert "  - not read: its files are bad input (1 problem, below)" in lines, r.stdout
    else:
        assert any(x.startswith("ifmud: the deadlines that fell due") for x in lines), r.stdout
        assert "aaa: not ticked: its files are bad input (1 problem, below)" in lines, r.stdout
        assert not list((repo / "content" / "aaa" / "actions").glob("20261106T100000Z--*")), r.stdout


VALUE = "add, replace and test take a value (the value to put there, or to compare with)"
FROM = "move and copy take from (the place in the gamestate whose value they take)"


@pytest.mark.parametrize("op, missing, why", [
    ({"op": "replace", "path": "/roster/players/name=Dana/admin"}, "value", VALUE),
    ({"op": "add", "path": "/roster/players/name=Dana/admin"}, "value", VALUE),
    ({"op": "test", "path": "/roster/players/name=Dana/admin"}, "value", VALUE),
    ({"op": "move", "path": "/roster/players/name=Dana/admin"}, "from", FROM),
    ({"op": "copy", "path": "/roster/players/name=Dana/admin"}, "from", FROM),
])
def test_a_patch_operation_without_what_its_op_needs_is_refused_when_proposed(tmp_path, op, missing, why):
    """A proposal's patch whose operation lacks what it needs (a replace's value, a move's from) was accepted when
    proposed and failed only when enacted (a move without from was an error of the program there); it is bad input
    when proposed, at the operation, naming what is missing and why (the condition's description in the schema:
    "is a required property" alone did not say it is the op that asks for it); nothing is written."""
    repo = make_repo(tmp_path)
    r = nomic(repo, "act", "blognomic", "core.propose", "title=Admins", "effects=" + json.dumps({"gamestate": [op]}),
              "--as", "Dana", "--at", "2026-11-06T10:00:00Z")
    assert r.returncode == 2 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    assert f"params.effects.gamestate[0]: {missing!r} is a required property: {why}" in r.stdout.splitlines(), r.stdout
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""


def test_a_field_a_condition_requires_is_shown_with_its_reason_which_no_module_stores(tmp_path):
    """ifMUD's Rule 45: a servant named needs a species, by a condition (if/then) of the schema whose description says
    why; the refusal said only "'species' is a required property". It says why now, after the message, which keeps
    the schema's own words: a module stores messages in the gamestate (Cycle 12 the reason a proposal failed)."""
    from validators import schemas

    repo = make_repo(tmp_path, "ifmud")
    path = repo / "content" / "ifmud" / "gamestate" / "entities.yaml"
    path.write_text(path.read_text().replace("    species: valet\n", "", 1))
    why = "Rule 45: a servant is named with a name and a species, both or neither"
    r = nomic(repo, "check", "--game", "ifmud", "--no-replay")
    assert r.returncode == 2 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    assert f"content/ifmud/gamestate/entities.yaml:3:5: servants[0]: 'species' is a required property: {why}" \
        in r.stdout.splitlines(), r.stdout
    r = nomic(repo, "check", "--game", "ifmud", "--no-replay", "--format", "json")
    assert f"'species' is a required property: {why}" in [p["message"] for p in json.loads(r.stdout)["problems"]]
    found = schemas.errors(yamlio.load_file(path), schema="ifmud_entities.schema.json")
    assert [(p.field, p.message, p.why) for p in found] == [("servants[0]", "'species' is a required property", why)]


def test_a_mistake_in_a_yaml_file_after_at_is_placed_at_its_line(tmp_path):
    """effects=@effects.yaml: a mistake inside the file was named by its field only (params.effects.gamestate[0].op),
    leaving the player to find it in the file; it is placed at its line there, as a game file's is."""
    repo = make_repo(tmp_path)
    effects = tmp_path / "effects.yaml"
    effects.write_text("# my proposal's effects\ngamestate:\n  - {op: replace, path: /roster/players/name=Dana/admin, "
                       "value: true}\n  - op: set\n    path: /roster/players/name=Dana/admin\n    value: true\n"
                       "rule:\n  - {op: amend, id: fair-play, body: x}\n", encoding="utf-8")
    r = nomic(repo, "act", "blognomic", "core.propose", "title=T", f"effects=@{effects}", "--as", "Dana",
              "--at", "2026-11-06T10:00:00Z")
    assert r.returncode == 2 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert (f"{effects}:4:9: params.effects.gamestate[1].op: 'set' is not one of 'add', 'remove', 'replace', 'test', "
            "'move', 'copy'") in lines, r.stdout
    assert f"{effects}:7:1: params.effects.rule: unknown field 'rule'; did you mean 'rules'?" in lines, r.stdout
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""
