"""What a player types on the command line, and the mistakes they make, on real temporary git repositories:
values are read as the action asks, and each mistake gets a clear message, the documented exit code and no
change to the work tree."""

from __future__ import annotations

import json

import pytest

from tests.gitgame import commit, git, make_repo, nomic
from validators import yamlio
from validators.content import WorkTree, read_action

GAME = "content/blognomic"
NOW = ["--now", "2026-11-22T12:00:00Z"]


def _new_action(repo):
    out = git(repo, "status", "--porcelain", "--untracked-files=all")
    return [line[3:] for line in out.splitlines() if "/actions/" in line]


def test_a_text_parameter_keeps_what_was_typed_even_where_yaml_would_read_something_else(tmp_path):
    repo = make_repo(tmp_path)
    # Ruleset 75's titles have a colon: YAML reads "Proposal: More Fun" as a mapping, "A: B: C" as no YAML at all
    for at, title in (("2026-11-22T10:00:00Z", "Proposal: More Fun"), ("2026-11-22T10:00:01Z", "Proposal: A: B")):
        r = nomic(repo, "act", "blognomic", "core.propose", f"title={title}", "text=1999", "--as", "Dana",
                  "--at", at, "-q", *NOW)
        assert r.returncode == 0, r.stdout + r.stderr
    records = [read_action(WorkTree(repo), p) for p in sorted(_new_action(repo))]
    assert [(a["params"]["title"], a["params"]["text"]) for a in records] == [
        ("Proposal: More Fun", "1999"), ("Proposal: A: B", "1999")]
    commit(repo)
    c = nomic(repo, "check", "--base", "main", "--head", "HEAD", "--author", "dana-nomic", *NOW)
    assert c.returncode == 0, c.stdout + c.stderr

    # a parameter that takes something else is still read as YAML, and refused as such
    for args, said in ((["core.vote", "proposal=abc", "vote=FOR"], 'params.proposal: "abc" is not a whole number'),
                       (["core.propose", "title=T", "effects=[a"], "parameter effects:")):
        r = nomic(repo, "act", "blognomic", *args, "--as", "Dana", *NOW)
        assert r.returncode == 2 and said in r.stdout and "Traceback" not in r.stderr, r.stdout + r.stderr
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""


def _nomic_in(folder, *args):
    """``nomic`` run in ``folder``, without --repo, as a player types it."""
    import os
    import subprocess
    import sys

    from tests.gitgame import ROOT
    return subprocess.run([sys.executable, "-m", "validators.cli", *args], capture_output=True, text=True,
                          cwd=str(folder), env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_nomic_run_in_a_sub_folder_of_the_repository_works_on_the_repository(tmp_path):
    repo = make_repo(tmp_path)
    drafts = repo / "drafts"
    drafts.mkdir()
    (drafts / "my-proposal.md").write_text("Let there be fun.\n")
    r = _nomic_in(drafts, "act", "blognomic", "core.propose", "title=More fun", "text=@my-proposal.md",
                  "--as", "Dana", "-q", *NOW)
    assert r.returncode == 0, r.stdout + r.stderr
    (drafts / "my-proposal.md").unlink()
    drafts.rmdir()
    [path] = _new_action(repo)
    assert path.startswith(f"{GAME}/actions/") and not (drafts / "content").exists()
    assert read_action(WorkTree(repo), path)["params"]["text"] == "Let there be fun.\n"
    # a path given to fmt is the current folder's
    folder = repo / GAME / "gamestate"
    r = _nomic_in(folder, "fmt", "--check", "roster.yaml")
    assert r.returncode == 0, r.stdout + r.stderr
    r = _nomic_in(folder, "fmt", "--check", "nothere.yaml")
    assert r.returncode == 2 and f"{GAME}/gamestate/nothere.yaml: does not exist" in r.stdout, r.stdout
    d = _nomic_in(repo / GAME, "due", "blognomic", "--at", "2026-11-22T12:00:00Z")
    assert d.returncode == 0 and d.stdout.startswith("blognomic at"), d.stdout + d.stderr
    # outside any game repository it still says where to run it
    r = _nomic_in(tmp_path, "due")
    assert r.returncode == 2 and "or a folder inside it" in r.stdout and "Traceback" not in r.stderr


def test_a_time_without_its_zone_is_refused_not_taken_for_utc(tmp_path):
    repo = make_repo(tmp_path)
    for command in (["act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Chidi"],
                    ["due", "blognomic"], ["tick", "blognomic", "--as", "nomic-tick"]):
        r = nomic(repo, *command, "--at", "2026-11-22 11:00:00", *NOW)
        assert r.returncode == 2, r.stdout + r.stderr
        assert ("--at: '2026-11-22 11:00:00' says no time zone: write 2026-11-22T11:00:00Z for UTC, or add your "
                "offset, like 2026-11-22T11:00:00+01:00") in r.stdout, r.stdout
        assert "Traceback" not in r.stderr
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""
    r = nomic(repo, "act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Chidi", "-q",
              "--at", "2026-11-22T12:00:00+01:00", *NOW)
    assert r.returncode == 0 and "at 2026-11-22T11:00:00Z" in r.stdout, r.stdout + r.stderr


def test_a_time_off_the_calendar_is_refused_naming_the_time_typed(tmp_path):
    repo = make_repo(tmp_path)
    for at, why in (("2026-13-01T00:00:00Z", "month must be in 1..12"),
                    ("2026-02-30T10:00:00+01:00", "day is out of range for month")):
        r = nomic(repo, "act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Chidi", "--at", at, *NOW)
        assert r.returncode == 2, r.stdout + r.stderr
        assert f"--at: '{at}' is not a time of the calendar: {why}" in r.stdout, r.stdout
        assert "Traceback" not in r.stderr
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""


def test_a_base_branch_only_the_remote_has_is_named_by_its_remote_name(tmp_path):
    """A clone has the default branch of its origin only; main is origin/main until checked out."""
    origin = make_repo(tmp_path)  # on branch pr: a clone of it checks out pr, and has main as origin/main only
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(origin), str(clone))
    r = nomic(clone, "check", "--base", "main", "--head", "HEAD", *NOW)
    assert r.returncode == 2, r.stdout + r.stderr
    assert ("--base: 'main' is not a commit, branch or tag of this repository; did you mean origin/main?"
            in r.stdout), r.stdout
    r = nomic(clone, "check", "--base", "origin/main", "--head", "HEAD", *NOW)
    assert r.returncode == 0, r.stdout + r.stderr


def test_an_action_by_someone_else_than_the_author_is_placed_on_its_actor_line(tmp_path):
    """A GitHub annotation without a line is shown on no line of the pull request's diff."""
    repo = make_repo(tmp_path)
    r = nomic(repo, "act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Chidi", "-q", *NOW)
    assert r.returncode == 0, r.stdout + r.stderr
    [path] = _new_action(repo)
    actor_line = 1 + (repo / path).read_text().splitlines().index("actor: Chidi")
    commit(repo)
    r = nomic(repo, "check", "--base", "main", "--head", "HEAD", "--author", "dana-nomic", "--format", "github",
              *NOW)
    assert r.returncode == 1, r.stdout + r.stderr
    assert f"::error file={path},line={actor_line},col=8,title=illegal (who may act)::actor: the actor is Chidi" in \
        r.stdout, r.stdout


def test_an_action_file_moved_into_a_sub_folder_is_told_where_it_belongs(tmp_path):
    repo = make_repo(tmp_path)
    name = "20261104T110000Z--Alice--core.vote.yaml"
    (repo / GAME / "actions" / "old").mkdir()
    git(repo, "mv", f"{GAME}/actions/{name}", f"{GAME}/actions/old/{name}")
    r = nomic(repo, "check", "--game", "blognomic", "--no-replay", *NOW)
    assert r.returncode == 2, r.stdout + r.stderr
    assert (f"{GAME}/actions/old/{name}: action files lie directly in {GAME}/actions/, not in a sub-folder"
            in r.stdout), r.stdout
    assert "are named" not in r.stdout


def test_a_value_of_the_wrong_form_is_told_the_form_asked_not_only_a_regular_expression(tmp_path):
    repo = make_repo(tmp_path, "settlement")
    # the steps' form in words ("'north' is not the steps in order, e.g. NNE" said what the path means, not its form)
    for args, said in ((["settlement.move", "path=north"],
                        "params.path: 'north' is not 1 to 20 steps, each N, E, S or W, like NNE"),
                       (["settlement.conga-move", "path=up"],
                        "params.path: 'up' is not 1 to 10 steps, each N, E, S or W, like NNE"),
                       (["settlement.build", "what=hut", "at=A1"], "params.at: 'A1' is not a location, like 13a")):
        r = nomic(repo, "act", "settlement", *args, "--as", "Asha", *NOW)
        assert r.returncode == 2 and said in r.stdout and "Traceback" not in r.stderr, r.stdout + r.stderr
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""


def test_a_deleted_gamestate_file_is_named_with_how_to_bring_it_back(tmp_path):
    repo = make_repo(tmp_path)
    path = f"{GAME}/gamestate/proposals.yaml"
    (repo / path).unlink()
    for command in (["due", "blognomic"], ["act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Chidi"],
                    ["check", "--game", "blognomic"]):
        r = nomic(repo, *command, *NOW)
        assert r.returncode == 2, r.stdout + r.stderr
        assert f"{path}: missing document 'proposals': " in r.stdout and f"git checkout -- {path}" in r.stdout, \
            r.stdout
        assert "Traceback" not in r.stderr
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == f" D {path}\n"


def test_a_refused_action_naming_a_player_in_the_wrong_case_is_told_the_roster_s_name(tmp_path):
    repo = make_repo(tmp_path, "ifmud")
    r = nomic(repo, "act", "ifmud", "ifmud.donate", "to=adam biltcliffe", "points=1", "--as", "Zoe Abbott", *NOW)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "note: to: did you mean Adam Biltcliffe? (names are written as on the roster)" in r.stdout, r.stdout


def test_a_refused_action_naming_a_player_in_a_list_in_the_wrong_case_is_told_which_item(tmp_path):
    repo = make_repo(tmp_path, "settlement")
    r = nomic(repo, "act", "settlement", "settlement.dance-success", "dance=1", "kind=conga",
              "participants=[Asha, boris]", "--as", "Asha", *NOW)
    assert r.returncode in (1, 2), r.stdout + r.stderr
    assert "note: participants[1]: did you mean Boris? (names are written as on the roster)" in r.stdout, r.stdout
    assert "participants[0]" not in r.stdout
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""


def test_a_word_the_rules_write_otherwise_is_told_the_rules_word(tmp_path):
    repo = make_repo(tmp_path)
    for given, meant in (("for", "FOR"), ("AGIANST", "AGAINST")):
        r = nomic(repo, "act", "blognomic", "core.vote", "proposal=3", f"vote={given}", "--as", "Chidi", *NOW)
        assert r.returncode == 2, r.stdout + r.stderr
        assert (f"params.vote: '{given}' is not one of 'FOR', 'AGAINST', 'DEFERENTIAL', 'VETO', 'COMPENSATE', "
                f"'ADMONISH'; did you mean '{meant}'?\n") in r.stdout, r.stdout
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""


VOTED = "2026-11-22T11:00:00Z"


def _ifmud_proposal(repo):
    """The id of a pending proposal in the ifMUD example (whose own are closed), proposed at 10:00, committed."""
    r = nomic(repo, "act", "ifmud", "ifmud.propose", "name=Tea for all [ZA]", "--as", "Zoe Abbott",
              "--at", "2026-11-22T10:00:00Z", "-q", *NOW)
    assert r.returncode == 0, r.stdout + r.stderr
    commit(repo, "proposed")
    consent = yamlio.load_file(repo / "content/ifmud/gamestate/consent.yaml")
    return str(next(p["id"] for p in consent["proposals"] if p["status"] == "pending"))


@pytest.mark.parametrize("game, actor, given, said", [
    # seed 002, Rule 10: ifMUD votes "aye" or "nay"; another game's word for the same vote is told the word meant
    ("ifmud", "Adam Biltcliffe", "FOR",
     "params.vote: 'FOR' is not one of 'aye', 'nay'; did you mean 'aye'? (aye is for, nay is against)"),
    ("ifmud", "Adam Biltcliffe", "against",
     "params.vote: 'against' is not one of 'aye', 'nay'; did you mean 'nay'? (aye is for, nay is against)"),
    ("ifmud", "Adam Biltcliffe", "y",
     "params.vote: 'y' is not one of 'aye', 'nay'; did you mean 'aye'? (aye is for, nay is against)"),
    ("ifmud", "Adam Biltcliffe", "No",
     "params.vote: 'No' is not one of 'aye', 'nay'; did you mean 'nay'? (aye is for, nay is against)"),
    ("ifmud", "Adam Biltcliffe", "AYE", "params.vote: 'AYE' is not one of 'aye', 'nay'; did you mean 'aye'?"),
    ("ifmud", "Adam Biltcliffe", "abstain", "params.vote: 'abstain' is not one of 'aye', 'nay'"),  # no such vote
    # seed 001, 1.4: BlogNomic votes FOR, AGAINST or DEFERENTIAL; ifMUD's words are told those (FOR is for: no
    # words to explain)
    ("blognomic", "Chidi", "aye", "params.vote: 'aye' is not one of 'FOR', 'AGAINST', 'DEFERENTIAL', 'VETO', "
                                  "'COMPENSATE', 'ADMONISH'; did you mean 'FOR'?"),
    ("blognomic", "Chidi", "nay", "params.vote: 'nay' is not one of 'FOR', 'AGAINST', 'DEFERENTIAL', 'VETO', "
                                  "'COMPENSATE', 'ADMONISH'; did you mean 'AGAINST'?"),
])
def test_a_vote_in_another_games_words_is_told_this_games_word(tmp_path, game, actor, given, said):
    repo = make_repo(tmp_path, game)
    proposal = _ifmud_proposal(repo) if game == "ifmud" else "3"
    r = nomic(repo, "act", game, f"{game}.vote" if game == "ifmud" else "core.vote", f"proposal={proposal}",
              f"vote={given}", "--as", actor, "--at", VOTED, *NOW)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stdout + r.stderr
    assert said in r.stdout.splitlines(), r.stdout
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""
    if game == "ifmud":  # the game's own word is taken
        meant = {"FOR": "aye", "y": "aye", "AYE": "aye"}.get(given, "nay")
        r = nomic(repo, "act", game, "ifmud.vote", f"proposal={proposal}", f"vote={meant}", "--as", actor,
                  "--at", VOTED, "-q", *NOW)
        assert r.returncode == 0, r.stdout + r.stderr
        votes = next(p["votes"] for p in yamlio.load_file(repo / f"content/{game}/gamestate/consent.yaml")
                     ["proposals"] if p["id"] == int(proposal))
        assert votes[actor] == meant


@pytest.mark.parametrize("action, item, given, said", [
    # seed 001 1.6: a CfJ takes votes of agreement or disagreement; VETO (1.8) and DEFERENTIAL (1.4) are votes of
    # other kinds, told so rather than only listed as not among FOR and AGAINST
    ("core.cfj-vote", "cfj=1", "VETO", "params.vote: 'VETO' is not one of 'FOR', 'AGAINST' (a VETO is no vote on a "
                                       "Call for Judgment, which takes votes of agreement or disagreement (Calls for "
                                       "Judgment); a game's rules give a veto, if at all, to its leader, on "
                                       "proposals)"),
    ("core.cfj-vote", "cfj=1", "Deferential", "params.vote: 'Deferential' is not one of 'FOR', 'AGAINST' "
     "(DEFERENTIAL is a vote on proposals and Declarations of Victory (Voting), not on a Call for Judgment, which "
     "takes votes of agreement or disagreement (Calls for Judgment))"),
    ("core.dov-vote", "dov=1", "veto", "params.vote: 'veto' is not one of 'FOR', 'AGAINST', 'DEFERENTIAL' (a "
                                       "Declaration of Victory is answered FOR, AGAINST or DEFERENTIAL (Victory and "
                                       "Ascension), never with a VETO; a game's rules give a veto, if at all, to its "
                                       "leader, on proposals)"),
])
def test_a_proposal_s_vote_on_a_cfj_or_dov_is_told_why_it_is_not_taken(tmp_path, action, item, given, said):
    repo = make_repo(tmp_path)
    r = nomic(repo, "act", "blognomic", action, item, f"vote={given}", "--as", "Alice", "--at", VOTED, *NOW)
    assert r.returncode == 2, r.stdout + r.stderr
    assert said in r.stdout.splitlines(), r.stdout
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""


def test_an_action_file_voting_in_another_games_words_is_told_the_word_at_its_line(tmp_path):
    # seed 002, Rule 10: a hand-written ifMUD vote of FOR is refused by nomic check at its line, with the word meant
    repo = make_repo(tmp_path, "ifmud")
    r = nomic(repo, "act", "ifmud", "ifmud.vote", f"proposal={_ifmud_proposal(repo)}", "vote=aye",
              "--as", "Adam Biltcliffe", "--at", VOTED, "-q", *NOW)
    assert r.returncode == 0, r.stdout + r.stderr
    [path] = [p for p in _new_action(repo) if p.endswith("ifmud.vote.yaml")]
    text = (repo / path).read_text(encoding="utf-8")
    assert "  vote: aye\n" in text
    (repo / path).write_text(text.replace("  vote: aye\n", "  vote: FOR\n"), encoding="utf-8")
    line = (repo / path).read_text(encoding="utf-8").splitlines().index("  vote: FOR") + 1
    r = nomic(repo, "check", "--game", "ifmud", *NOW)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stdout + r.stderr
    assert (f"{path}:{line}:9: params.vote: 'FOR' is not one of 'aye', 'nay'; did you mean 'aye'? (aye is for, "
            "nay is against)") in r.stdout, r.stdout


def test_a_parameter_name_in_the_wrong_case_or_with_dashes_is_told_the_name(tmp_path):
    repo = make_repo(tmp_path)
    for given, meant in (("Proposal=3", "proposal"), ("fail-without-effect=true", "fail_without_effect")):
        r = nomic(repo, "act", "blognomic", "core.vote", given, "vote=FOR", "--as", "Chidi", *NOW)
        assert r.returncode == 2, r.stdout + r.stderr
        assert f"is not valid; did you mean '{meant}'? (parameter names are lower-case, with '_')" in r.stdout, \
            r.stdout
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""


def test_a_name_with_a_blank_around_it_is_told_the_roster_s_name(tmp_path):
    repo = make_repo(tmp_path)
    r = nomic(repo, "act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Chidi ", *NOW)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "'Chidi ' is not on the roster; did you mean Chidi? (names are written as on the roster)" in r.stdout
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""


def test_a_new_game_s_name_in_capitals_or_with_spaces_is_told_the_name(tmp_path):
    repo = make_repo(tmp_path)
    for given, meant in (("Pirates", "pirates"), ("My Game", "my-game"), ("Pi_Rates", "pi_rates")):
        r = nomic(repo, "new", given, "--from", "blognomic", *NOW)
        assert r.returncode == 2, r.stdout + r.stderr
        assert (f"game: {given!r} is not a game's name (1 to 64 lower-case letters, digits, '-' and '_', the first a "
                f"letter or digit); did you mean {meant}?") in r.stdout, r.stdout
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""


def test_a_game_s_name_is_one_rule_for_nomic_new_and_every_command_taking_a_game(tmp_path):
    """`nomic new pi_rates` was refused ('lower case letters, digits and dashes') while every other command takes
    '_' in a game's name (and `nomic new` took 80 characters where they take 64): one rule now, content.GAME_NAME."""
    repo = make_repo(tmp_path)
    r = nomic(repo, "new", "pi_rates", "--from", "blognomic", "--admin", "Ann=ann-gh", "--at", "2026-11-22T00:00:00Z",
              *NOW)
    assert r.returncode == 0, r.stdout + r.stderr
    r = nomic(repo, "act", "pi_rates", "core.propose", "title=Ahoy", "text=Sails.", "--as", "Ann", "-q", *NOW)
    assert r.returncode == 0, r.stdout + r.stderr
    assert nomic(repo, "check", "--game", "pi_rates", *NOW).returncode == 0
    long = "a" * 65  # what nomic act could never name
    r = nomic(repo, "new", long, "--from", "blognomic", "--admin", "Ann=ann-gh", *NOW)
    assert r.returncode == 2 and f"game: {long!r} is not a game's name (1 to 64 " in r.stdout, r.stdout
    assert not (repo / "content" / long).exists()


def test_a_merge_conflict_left_in_a_file_is_named_as_such_on_its_line(tmp_path):
    import subprocess

    repo = make_repo(tmp_path)
    path = f"{GAME}/gamestate/proposals.yaml"
    text = (repo / path).read_text()
    (repo / path).write_text(text.replace("next: 4", "next: 5"))
    commit(repo, "five")
    git(repo, "checkout", "-q", "-b", "other", "main")
    (repo / path).write_text(text.replace("next: 4", "next: 6"))
    commit(repo, "six")
    merged = subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.invalid",
                             "merge", "-q", "pr"], capture_output=True, text=True)
    assert merged.returncode != 0 and "<<<<<<< " in (repo / path).read_text()  # a real conflict
    line = 1 + (repo / path).read_text().splitlines().index("<<<<<<< HEAD")
    before = (repo / path).read_text()
    for command in (["check", "--game", "blognomic", "--no-replay"],
                    ["act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Chidi"]):
        r = nomic(repo, *command, *NOW)
        assert r.returncode == 2, r.stdout + r.stderr
        assert f"{path}:{line}:1: a merge conflict is left in the file" in r.stdout, r.stdout
        # a gamestate file is what the log gives: keeping one side would not match it (docs/playing.md)
        assert "neither side is right" in r.stdout and "git merge --abort" in r.stdout, r.stdout
        assert "keep the side you mean" not in r.stdout
        assert "Traceback" not in r.stderr
    assert (repo / path).read_text() == before


def test_a_mistyped_command_or_option_is_told_the_one_meant(tmp_path):
    repo = make_repo(tmp_path)
    for args, said in ((["chek"], "invalid choice: 'chek' (choose from "),
                       (["check", "--format", "jsn"], "invalid choice: 'jsn' (choose from "),
                       (["act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Chidi", "--dryrun"],
                        "unrecognized arguments: --dryrun"),
                       (["check", "--bse", "main"], "unrecognized arguments: --bse main")):
        r = nomic(repo, *args, *NOW)
        assert r.returncode == 2, r.stdout + r.stderr
        meant = {"chek": "check", "jsn": "json", "--dryrun": "--dry-run", "--bse": "--base"}
        word = next(w for w in meant if w in args)
        assert said in r.stderr and r.stderr.rstrip().endswith(f"; did you mean {meant[word]}?"), r.stderr
    # an option of another command is not offered
    r = nomic(repo, "due", "blognomic", "--as-of", "x")
    assert r.returncode == 2 and "did you mean" not in r.stderr, r.stderr
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""


@pytest.mark.parametrize("args, command", [
    (["new", "pirates", "--from", "blognomic", "--admin", "Ann=ann", "--dry-run"], "new"),
    (["act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Dana", "--bogus"], "act"),
    (["checkpoint", "blognomic", "--as", "Bruno", "--why", "x", "--at", "2026-11-22T10:00:00Z"], "checkpoint"),
    (["check", "blognomic"], "check"),
])
def test_what_a_command_does_not_take_is_shown_that_command_s_usage(tmp_path, args, command):
    """An option no command takes is refused with the usage of the command typed, which lists what it does take;
    before, `nomic new ... --dry-run` showed nomic's own `usage: nomic [-h] [--repo REPO] [--version] COMMAND ...`."""
    repo = make_repo(tmp_path)
    r = nomic(repo, *args)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stdout + r.stderr
    assert r.stderr.startswith(f"usage: nomic {command} [-h]"), r.stderr
    assert "unrecognized arguments: " in r.stderr.splitlines()[-1], r.stderr
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""


def test_nomic_act_without_a_game_says_what_to_type(tmp_path):
    repo = make_repo(tmp_path)
    r = nomic(repo, "act")
    assert r.returncode == 2, r.stdout + r.stderr
    assert "game: name a game: nomic act GAME ACTION key=value ... --as NAME" in r.stdout, r.stdout + r.stderr
    assert "params" not in r.stdout + r.stderr and "Traceback" not in r.stderr


def _bash_with_nomic(tmp_path):
    """A game repository, and how to run a bash script with this checkout's ``nomic`` on its PATH."""
    import os
    import shutil
    import subprocess
    import sys

    import pytest

    from tests.gitgame import ROOT
    if shutil.which("bash") is None:
        pytest.skip("no bash")
    repo = make_repo(tmp_path)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "nomic").write_text(f"#!/bin/sh\nPYTHONPATH={ROOT} exec {sys.executable} -m validators.cli \"$@\"\n")
    (bin_dir / "nomic").chmod(0o755)

    def run(script, cwd):
        return subprocess.run(["bash", "-c", script], capture_output=True, text=True, cwd=str(cwd),
                              env={**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"})
    return repo, run


def test_bash_completion_offers_games_from_a_sub_folder_and_an_action_s_parameters(tmp_path):
    repo, bash = _bash_with_nomic(tmp_path)
    script = ('eval "$(nomic completion bash)"\n'
              'complete_it() { COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); _nomic; echo "${COMPREPLY[*]}"; }\n'
              'complete_it nomic act bl\n'
              'complete_it nomic act blognomic core.vote pro\n'
              'complete_it nomic act blognomic core.propose ""\n'
              # from outside the repository, with --repo (and its --repo=DIR form, which bash splits at '=')
              f'cd {tmp_path}\n'
              'complete_it nomic --repo game-repo act bl\n'
              'complete_it nomic --repo = game-repo act blognomic core.vote pro\n'
              'complete_it nomic --repo game-repo ch\n'
              'complete_it nomic --repo game-r\n'
              # after an option that takes a value, that value: nothing to offer for a name, the formats, the games
              f'cd {tmp_path / "game-repo"}\n'
              'complete_it nomic act blognomic core.vote --as ""\n'
              'complete_it nomic act blognomic core.vote --format ""\n'
              'complete_it nomic check --format m\n'
              'complete_it nomic check --game bl\n'
              # options before the game or the action: the game and the action are still found
              'complete_it nomic act --as Chidi bl\n'
              'complete_it nomic act blognomic --as = Chidi --dry-run core.vote pro\n'
              'complete_it nomic act --at 2026-11-05T09:00:00Z blognomic core.vote --note hi pro\n'
              'complete_it nomic act blognomic --dr\n')
    r = bash(script, repo / GAME / "gamestate")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "blognomic", lines
    assert lines[1] == "proposal=", lines
    assert lines[2].split()[:3] == ["title=", "text=", "effects="], lines
    assert repo == tmp_path / "game-repo"
    assert lines[3:6] == ["blognomic", "proposal=", "check checkpoint"], lines
    assert lines[6] == "game-repo", lines  # --repo's value is a folder
    assert lines[7:11] == ["", "text json github", "markdown", "blognomic"], lines
    assert lines[11:] == ["blognomic", "proposal=", "proposal=", "--dry-run"], lines


def test_a_check_of_the_commit_says_what_the_work_tree_holds_besides(tmp_path):
    repo = make_repo(tmp_path)
    r = nomic(repo, "act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Chidi", "-q", *NOW)
    assert r.returncode == 0, r.stdout + r.stderr
    r = nomic(repo, "check", "--base", "main", "--head", "HEAD", "--author", "chidi-nomic", *NOW)
    assert r.returncode == 0, r.stdout + r.stderr
    assert ("note: 3 changes under content/ are not committed, so not judged: --head judges the commit"
            in r.stdout), r.stdout
    commit(repo)
    r = nomic(repo, "check", "--base", "main", "--head", "HEAD", "--author", "chidi-nomic", *NOW)
    assert r.returncode == 0 and "not committed" not in r.stdout and "1 action judged" in r.stdout, r.stdout


def test_a_check_that_stops_at_an_illegal_action_names_the_ones_after_it_not_judged(tmp_path):
    repo = make_repo(tmp_path)
    name = "20261122T100000Z--Chidi--core.enact.yaml"
    (repo / GAME / "actions" / name).write_text(
        "# yaml-language-server: $schema=../../../schemas/action.schema.json\n"
        "at: 2026-11-22T10:00:00Z\nactor: Chidi\naction: core.enact\nparams:\n  proposal: 3\n")
    commit(repo, "the illegal action")  # committed: nomic act refuses to build on an uncommitted one
    r = nomic(repo, "act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Chidi", "-q", *NOW)
    assert r.returncode == 0, r.stdout + r.stderr
    [vote] = [p.rpartition("/")[2] for p in _new_action(repo) if "core.vote" in p]
    commit(repo)
    r = nomic(repo, "check", "--base", "main", "--head", "HEAD", "--author", "chidi-nomic", *NOW)
    assert r.returncode == 1, r.stdout + r.stderr
    assert (f"note: blognomic: 1 of 2 new actions judged against main; the replay stops at the first illegal one, "
            f"so 1 after it were not judged ({vote})") in r.stdout, r.stdout


def test_nomic_fmt_writes_the_schema_line_the_check_asks_for(tmp_path):
    repo = make_repo(tmp_path)
    action = sorted((repo / GAME / "actions").glob("*.yaml"))[0].relative_to(repo).as_posix()
    roster = f"{GAME}/gamestate/roster.yaml"
    texts = {p: (repo / p).read_text() for p in (action, roster)}
    (repo / action).write_text(texts[action].split("\n", 1)[1])  # its first line deleted
    (repo / roster).write_text(texts[roster].replace("$schema=../../../schemas/", "$schema=../schemas/", 1))
    r = nomic(repo, "check", "--game", "blognomic", *NOW)
    assert r.returncode == 2, r.stdout + r.stderr
    assert f"{roster}:1:1: first line must be '# yaml-language-server: $schema=../../../schemas/roster.schema.json' " \
        f"so editors check the file (nomic fmt {roster} writes it)" in r.stdout, r.stdout
    r = nomic(repo, "fmt", "--check")
    assert r.returncode == 1 and f"would reformat {action}" in r.stdout and f"would reformat {roster}" in r.stdout, \
        r.stdout + r.stderr
    r = nomic(repo, "fmt")
    assert r.returncode == 0, r.stdout + r.stderr
    assert {p: (repo / p).read_text() for p in texts} == texts
    assert nomic(repo, "check", "--game", "blognomic", *NOW).returncode == 0


def test_a_dry_run_in_json_says_which_files_it_would_write_not_that_it_wrote_them(tmp_path):
    import json

    repo = make_repo(tmp_path)
    args = ["act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Chidi", "--format", "json", *NOW]
    r = nomic(repo, *args, "--dry-run")
    assert r.returncode == 0, r.stdout + r.stderr
    out = json.loads(r.stdout)
    assert out["dry_run"] is True and out["written"] == [] and out["action"] in out["would_write"], out
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""
    out = json.loads(nomic(repo, *args).stdout)
    assert out["dry_run"] is False and out["action"] in out["written"] and out["would_write"] == [], out


def test_an_argument_that_is_not_utf8_is_bad_input_not_a_crash(tmp_path):
    """A byte the terminal's encoding cannot decode (Python keeps it as a lone surrogate) in a parameter: written,
    it would break the action file (YAML holds text); printed, it made `nomic act` crash (exit 3). Any command
    refuses it, naming it, and writes nothing."""
    import subprocess
    import sys

    from tests.gitgame import ROOT

    repo = make_repo(tmp_path)
    r = subprocess.run([sys.executable, "-m", "validators.cli", "--repo", str(repo), "act", "blognomic",
                        "core.propose", b"title=caf\xe9", "--as", "Chidi"], capture_output=True, cwd=str(ROOT))
    assert r.returncode == 2, r.stdout + r.stderr
    assert "argument: 'title=caf\ufffd' is not UTF-8 text".encode() in r.stdout, r.stdout
    assert not git(repo, "status", "--porcelain")


def test_a_merge_conflict_outside_the_gamestate_says_to_keep_one_side():
    # game.yaml (or a rule) is no product of the log: there, choosing a side is the way out
    from validators.problems import BadInput
    from validators.yamlio import load

    text = "name: A\n<<<<<<< HEAD\ntitle: one\n=======\ntitle: two\n>>>>>>> other\n"
    for name, keep in (("content/blognomic/game.yaml", True), ("content/blognomic/gamestate/roster.yaml", False)):
        try:
            load(text, name)
        except BadInput as e:
            said = e.problems[0].message
        else:
            raise AssertionError("a conflict was read as YAML")
        assert ("keep the side you mean" in said) is keep and ("git merge --abort" in said) is not keep, said


def test_an_unknown_action_points_to_a_list_command_that_works(tmp_path):
    # the hint is a command the player can run as written but for the placeholders: --list needs --as
    repo = make_repo(tmp_path)
    r = nomic(repo, "act", "blognomic", "core.vot", "proposal=3", "vote=FOR", "--as", "Dana", *NOW)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "did you mean core.vote, core.dov-vote, core.cfj-vote? (nomic act GAME --list --as NAME shows them)" \
        in r.stdout, r.stdout
    r = nomic(repo, "act", "blognomic", "--list", "--as", "Dana", *NOW)
    assert r.returncode == 0 and "core.vote" in r.stdout


@pytest.mark.parametrize("args", [
    ["blognomic", "core.vote", "vote=FOR", "--as", "Dana", "proposal=3"],
    ["blognomic", "--as", "Dana", "core.vote", "proposal=3", "vote=FOR"],
    ["--as", "Dana", "blognomic", "core.vote", "vote=FOR", "--at", "2026-11-22T10:00:00Z", "proposal=3"],
])
def test_parameters_typed_after_an_option_are_the_action_s_parameters(tmp_path, args):
    """``nomic act GAME ACTION vote=FOR --as Dana proposal=3``: what follows an option is still the action, in the
    order typed, as it would be before the options; before, argparse's 'unrecognized arguments: proposal=3'."""
    repo = make_repo(tmp_path)
    at = [] if "--at" in args else ["--at", "2026-11-22T10:00:00Z"]
    r = nomic(repo, "act", *args, *at, "-q", *NOW)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stdout + r.stderr
    assert _new_action(repo) == [f"{GAME}/actions/20261122T100000Z--Dana--core.vote.yaml"]
    record = read_action(WorkTree(repo), _new_action(repo)[0])
    assert record["params"] == {"proposal": 3, "vote": "FOR"}


@pytest.mark.parametrize("args, says", [
    (["act", "blognomic", "core.vote", "vote=FOR", "--as", "Dana", "proposal=3", "--bogus"],
     "nomic: unrecognized arguments: proposal=3 --bogus"),
    (["act", "blognomic", "core.vote", "vote=FOR", "--as", "Dana", "proposal=3", "proposal=4"],
     "proposal: parameter 'proposal' given twice"),
    (["check", "blognomic"], "nomic: unrecognized arguments: blognomic; nomic check takes no GAME or REV: one game is "
                             "checked with --game NAME, a pull request with --base REV"),
])
def test_what_follows_an_option_that_no_command_takes_is_still_refused(tmp_path, args, says):
    repo = make_repo(tmp_path)
    r = nomic(repo, *args, "--at", "2026-11-22T10:00:00Z", *NOW) if args[0] == "act" else nomic(repo, *args)
    assert r.returncode == 2 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    assert says in (r.stdout + r.stderr).splitlines(), r.stdout + r.stderr
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""


def test_bash_completion_offers_each_command_its_own_options_and_no_other(tmp_path):
    # README: `nomic completion bash` completes each command's options. replay, due, tick and new shared one list
    # (nomic due --<TAB> offered --without, --from, --admin...), and build and hash offered none
    import argparse

    from validators.cli import build_parser
    repo, bash = _bash_with_nomic(tmp_path)
    subs = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)).choices
    # --repo, which every command takes as `nomic` does, is offered before the command
    want = {name: sorted(o for a in sp._actions for o in a.option_strings
                         if o.startswith("--") and o not in ("--help", "--repo") and a.help != argparse.SUPPRESS)
            for name, sp in subs.items() if name not in ("act", "completion")}
    script = ('eval "$(nomic completion bash)"\n'
              'complete_it() { COMPREPLY=(); COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); _nomic; '
              'echo "${COMPREPLY[*]}"; }\n'
              + "".join(f"complete_it nomic {name} --\n" for name in want))
    r = bash(script, repo)
    assert r.returncode == 0, r.stderr
    got = dict(zip(want, (sorted(line.split()) for line in r.stdout.splitlines())))
    assert got == want


def test_repo_is_taken_after_the_command_too_and_there_wins(tmp_path):
    # `nomic check --repo ../game` was refused: "unrecognized arguments: --repo ...; did you mean --repo?"
    import subprocess

    from tests.gitgame import NOMIC, ROOT
    repo = make_repo(tmp_path)
    # a broken game, which its check must name
    (repo / "content" / "blognomic" / "gamestate" / "roster.yaml").write_text("players: [\n")

    def run(*args):
        return subprocess.run([*NOMIC, *args], capture_output=True, text=True, cwd=str(tmp_path))
    r = run("check", "--repo", str(repo))
    assert r.returncode == 2 and "roster.yaml" in r.stdout, r.stdout + r.stderr
    assert "unrecognized" not in r.stderr, r.stderr
    git(repo, "checkout", "--", ".")
    r = run("check", "--repo", str(repo))
    assert r.returncode == 0 and "legal: 24 actions judged, no problems" in r.stdout, r.stdout + r.stderr
    # given both before and after the command, the one after is the command's
    assert run("--repo", str(tmp_path / "nowhere"), "check", "--repo", str(repo)).returncode == 0
    r = run("--repo", str(repo), "check", "--repo", str(tmp_path / "nowhere"))
    assert r.returncode == 2 and "nowhere" in r.stdout + r.stderr, r.stdout + r.stderr
    # the game comes from the repository named, wherever nomic runs (here: beside this checkout's own games)
    r = subprocess.run([*NOMIC, "act", "--repo", str(repo), "blognomic", "core.vote", "proposal=3", "vote=FOR",
                        "--as", "Dana", "--at", "2026-11-22T10:00:00Z", "--dry-run"],
                       capture_output=True, text=True, cwd=str(ROOT))
    assert r.returncode == 0, r.stdout + r.stderr
    assert git(repo, "status", "--porcelain") == ""


def test_act_names_every_file_it_writes_also_with_quiet(tmp_path):
    # -q leaves out the diff, which was the only place that named the gamestate files rewritten beside the action
    repo = make_repo(tmp_path)
    vote = ["act", "blognomic", "core.vote", "proposal=3", "vote=AGAINST", "--as", "Dana", "--at",
            "2026-11-22T10:00:00Z", *NOW, "-q"]  # a vote changed (FOR to AGAINST): no note follows
    r = nomic(repo, *vote, "--dry-run")
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.splitlines()[1:] == [
        "would write content/blognomic/actions/20261122T100000Z--Dana--core.vote.yaml",
        "would update content/blognomic/gamestate/ledger.yaml, content/blognomic/gamestate/proposals.yaml"], r.stdout
    assert git(repo, "status", "--porcelain") == ""
    r = nomic(repo, *vote)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.splitlines()[1:] == [
        "wrote content/blognomic/actions/20261122T100000Z--Dana--core.vote.yaml",
        "updated content/blognomic/gamestate/ledger.yaml, content/blognomic/gamestate/proposals.yaml"], r.stdout
    assert sorted(git(repo, "status", "--porcelain").splitlines()) == [
        " M content/blognomic/gamestate/ledger.yaml", " M content/blognomic/gamestate/proposals.yaml",
        "?? content/blognomic/actions/20261122T100000Z--Dana--core.vote.yaml"]


def test_no_command_has_a_hidden_option_but_the_test_clock_and_the_salt():
    # `act --allow-past`, hidden from --help, let an action be dated in the future (the check refused it after);
    # the hidden options left are --now (the clock, as NOMIC_NOW sets it) and hash's --salt (a salt of one's own)
    import argparse

    from validators.cli import build_parser
    subs = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)).choices
    hidden = {(name, o) for name, sp in subs.items() for a in sp._actions if a.help == argparse.SUPPRESS
              for o in a.option_strings}
    assert {o for _, o in hidden} == {"--now", "--salt"}, hidden
    assert ("hash", "--salt") in hidden


def test_act_notes_a_legal_proposal_that_will_not_take_effect(tmp_path):
    # 004 Time and The End of All Things: a standard Cycle 12 proposal votes through the phase after the one it is
    # made in, and nothing takes effect once the last phase is over. Made in the last phase it is legal (no rule
    # forbids it) but can never take effect: `nomic act` takes it and says so, also with -q and in JSON
    repo = make_repo(tmp_path, "cycle12")
    propose = ["act", "cycle12", "cycle12.propose", "changes=[{kind: textual, text: Nomsters may swim.}]", "--as",
               "Ada", "--at", "2026-11-22T12:00:00Z", *NOW, "-q"]
    r = nomic(repo, *propose, "--dry-run")  # the example's last phase is XL: its vote ends in time
    assert r.returncode == 0, r.stdout + r.stderr
    assert not [line for line in r.stdout.splitlines() if line.startswith("note:")], r.stdout
    for game in (repo / "content" / "cycle12" / "game.yaml", repo / "content" / "cycle12" / "initial" / "game.yaml"):
        text = game.read_text(encoding="utf-8")
        game.write_text(text.replace("    start: 2026-11-02T00:00:00Z\n", "    start: 2026-11-02T00:00:00Z\n"
                                     "    last_phase: 6\n"), encoding="utf-8")
    git(repo, "commit", "-qam", "the cycle ends with Phase VI")
    r = nomic(repo, *propose, "--dry-run", "--format", "json")
    assert r.returncode == 0, r.stdout + r.stderr
    said = json.loads(r.stdout)["notes"]
    assert len(said) == 1 and said[0].startswith("proposal "), said
    assert said[0].endswith(" Its voting ends after the cycle does (the end of Phase VI, 2026-11-23T00:00:00Z): it "
                            "will not take effect unless a change sets a later last phase."), said
    r = nomic(repo, *propose)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.splitlines()[-1] == "note: " + said[0], r.stdout
    # the check takes it: a note is no refusal
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "Ada proposes")
    r = nomic(repo, "check", "--base", "HEAD~1", "--head", "HEAD", *NOW)
    assert r.returncode == 0, r.stdout + r.stderr


def test_act_notes_a_vote_cast_again_and_an_author_s_vote_against_their_own_proposal(tmp_path):
    # seed 001 1.4 Voting: an author's vote against their own proposal may not be changed; 1.5 Enactment: cast before
    # the proposal met another ground to fail, it self-kills it. Both are legal, and final: `nomic act` says so.
    # A vote cast again as it stands changes only the time of the last vote, and is told so
    repo = make_repo(tmp_path)

    def vote(who: str, proposal: int, how: str, at: str) -> list[str]:
        r = nomic(repo, "act", "blognomic", "core.vote", f"proposal={proposal}", f"vote={how}", "--as", who, "--at", at,
                  *NOW, "-q")
        assert r.returncode == 0, r.stdout + r.stderr
        return [line for line in r.stdout.splitlines() if line.startswith("note:")]

    assert vote("Dana", 3, "FOR", "2026-11-22T10:00:00Z") == [
        "note: your vote on proposal 3 was FOR already: it stands as it was (only the time of your last vote changes)"]
    assert vote("Dana", 3, "AGAINST", "2026-11-22T10:00:01Z") == []  # a vote changed: nothing to say
    # proposal 3 (made 4 Nov) had already met a ground to fail before its author's AGAINST: no self-kill, but final
    assert vote("Bruno", 3, "AGAINST", "2026-11-22T10:00:02Z") == [
        "note: you voted AGAINST on your own proposal 3: that vote may not be changed (1.4 Voting)"]
    r = nomic(repo, "act", "blognomic", "core.propose", "title=Shorter days", "text=Days last twelve hours.", "--as",
              "Alice", "--at", "2026-11-22T10:01:00Z", *NOW, "-q")
    assert r.returncode == 0, r.stdout + r.stderr
    proposals = yamlio.load_file(repo / "content" / "blognomic" / "gamestate" / "proposals.yaml")["proposals"]
    made = proposals[-1]
    assert made["title"] == "Shorter days" and not made.get("self_killed")
    assert vote("Alice", made["id"], "AGAINST", "2026-11-22T10:02:00Z") == [
        f"note: you voted AGAINST on your own proposal {made['id']}: that vote may not be changed (1.4 Voting); it "
        "self-kills the proposal: an admin may fail it now and none may enact it (1.5 Enactment)"]
    proposals = yamlio.load_file(repo / "content" / "blognomic" / "gamestate" / "proposals.yaml")["proposals"]
    assert proposals[-1]["self_killed"] is True
    # the check takes all of it: a note is no refusal
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "votes")
    r = nomic(repo, "check", "--base", "main", "--head", "HEAD", *NOW)
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.parametrize("typed, says", [
    (["proposal", "=", "3"], "proposal: parameter 'proposal' is not key=value: write proposal=3 as one word, with no "
                             "spaces around '='"),
    (["proposal", "=3"], "proposal: parameter 'proposal' is not key=value: write proposal=3 as one word, with no "
                         "spaces around '='"),
    (["proposal=", "3"], "3: parameter '3' is not key=value: write proposal=3 as one word, with no space after '='"),
    (["proposal:3"], "proposal:3: parameter 'proposal:3' is not key=value: write proposal=3"),
    (["proposal"], "proposal: parameter 'proposal' is not key=value: write proposal=VALUE"),
    (["=3"], "=3: parameter '=3' names no parameter before '=': each parameter is written key=value, like proposal=3"),
])
def test_a_parameter_not_written_key_value_is_told_how_to_write_it(tmp_path, typed, says):
    """`proposal = 3`, as the shell splits it, or `proposal:3`: the refusal says how the parameter is written; before,
    only "parameter 'proposal' is not key=value" (and `=3` was "parameter name '' is not valid", naming no field)."""
    repo = make_repo(tmp_path)
    r = nomic(repo, "act", "blognomic", "core.vote", *typed, "vote=FOR", "--as", "Dana", "--at",
              "2026-11-22T10:00:00Z", *NOW)
    assert r.returncode == 2 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    assert says in r.stdout.splitlines(), r.stdout
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""


def test_replay_in_markdown_names_each_action_its_actor_and_time(tmp_path):
    """`nomic replay --format markdown` (docs/admins.md: as for nomic check): each row names the action, who took it
    and when, as the check's comment does; every row read `?` | `?` | `?`, the replay giving only the file."""
    repo = make_repo(tmp_path)
    r = nomic(repo, "replay", "blognomic", "--without", "20261103T080000Z--Bruno--core.enact.yaml", "--format",
              "markdown")
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stdout + r.stderr
    assert "### nomic replay: ❌ **Not legal.**" in r.stdout.splitlines(), r.stdout  # it was headed 'nomic check:'
    # the check's marker is how the pull-request workflow finds its own comment to update: a replay posted as a
    # comment carried it, and the next check would have overwritten it (or been mistaken for it)
    assert r.stdout.splitlines()[0] == "<!-- nomic-replay -->" and "<!-- nomic-check -->" not in r.stdout, r.stdout
    assert ("| `core.join` (`20261102T100000Z--Fatima--core.join.yaml`) | `Fatima` | `2026-11-02T10:00:00Z` | legal |"
            in r.stdout.splitlines()), r.stdout
    assert ("| `core.fail` (`20261103T090000Z--Alice--core.fail.yaml`) | `Alice` | `2026-11-03T09:00:00Z` | "
            "**illegal** |" in r.stdout.splitlines()), r.stdout
    assert "`?`" not in r.stdout
    out = json.loads(nomic(repo, "replay", "blognomic", "--without", "20261103T080000Z--Bruno--core.enact.yaml",
                           "--format", "json").stdout)
    assert out["actions"][0] == {"action": "content/blognomic/actions/20261102T100000Z--Fatima--core.join.yaml",
                                 "actor": "Fatima", "name": "core.join", "at": "2026-11-02T10:00:00Z", "legal": True,
                                 "problems": []}


@pytest.mark.parametrize("typed, kept", [
    ("Line one  # not a comment", "Line one  # not a comment"),
    ("First line.\nSecond line.\n\nThird para.", "First line.\nSecond line.\n\nThird para."),
    ("'only quoted'", "only quoted"),  # quotes typed around it on purpose: YAML's reading
])
def test_a_text_parameter_keeps_the_comment_and_the_line_breaks_typed(tmp_path, typed, kept):
    """README: a parameter that takes text keeps exactly what you typed, whatever YAML would make of it. YAML's plain
    text dropped a ` #` and all after it as a comment (text="Line one  # ..." was "Line one") and folded line breaks
    into spaces (a proposal's paragraphs ran together), silently."""
    repo = make_repo(tmp_path)
    r = nomic(repo, "act", "blognomic", "core.propose", "title=Proposal: X", f"text={typed}", "--as", "Dana", "--at",
              "2026-11-22T10:00:00Z", "-q", *NOW)
    assert r.returncode == 0 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    record = read_action(WorkTree(repo), _new_action(repo)[0])
    assert record["params"]["text"] == kept, record


@pytest.mark.parametrize("command", [["act", "blognomic", "core.vote", "proposal=3", "vote=FOR"],
                                     ["checkpoint", "blognomic", "--why", "x"], ["tick", "blognomic"]])
def test_as_given_twice_with_two_names_is_refused_not_the_last_taken(tmp_path, command):
    """--as Dana --as Bruno (a name left in an edited line) acted as Bruno, the last one, without a word: refused,
    naming both, and nothing written; the same name twice is one."""
    repo = make_repo(tmp_path)
    r = nomic(repo, *command, "--as", "Dana", "--as", "Bruno", *NOW)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stdout + r.stderr
    assert "nomic: argument --as: given twice ('Dana', then 'Bruno'): give it once" in r.stderr, r.stderr
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""
    if command[0] == "act":
        r = nomic(repo, *command, "--as", "Dana", "--as", "Dana", "--dry-run", *NOW)
        assert r.returncode == 0 and "legal: core.vote by Dana" in r.stdout, r.stdout + r.stderr


@pytest.mark.parametrize("args", [["hash", "pick", "my secret"], ["hash", "rock", "paper"],
                                  ["hash", "pick", "my secret", "--label", "x"]])
def test_nomic_hash_given_more_than_one_word_says_to_quote_the_secret_or_pass_label(tmp_path, args):
    """``nomic hash pick "my secret"`` (a label before the secret, as engine.commit takes them) took `pick` for the
    secret, and argparse answered "unrecognized arguments: my secret", the secret shown and --label never named."""
    r = nomic(make_repo(tmp_path), *args)
    assert r.returncode == 2 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    said = r.stderr.splitlines()[-1]
    assert said == ("nomic: nomic hash takes one SECRET, and more words were given (not shown: one may be your "
                    "secret): quote a secret of several words, and name the commitment with --label: "
                    "nomic hash \"my secret\" --label pick"), r.stderr
    assert r.stderr.startswith("usage: nomic hash "), r.stderr
    assert "paper" not in r.stderr and "my secret\n" not in r.stderr and "rock" not in r.stderr, r.stderr


def test_nomic_hash_with_a_mistyped_option_names_it_and_not_the_secret(tmp_path):
    r = nomic(make_repo(tmp_path), "hash", "--lable", "pick", "rock")
    assert r.returncode == 2 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    assert r.stderr.splitlines()[-1] == "nomic: unrecognized option --lable; did you mean --label?", r.stderr
    assert "rock" not in r.stderr, r.stderr


def test_a_list_or_a_mapping_typed_bare_is_told_how_to_write_it(tmp_path):
    """``repeal=hunger`` and ``keywords=Player=Pirate`` (the README's ``repeal="[hunger]"`` and ``keywords="{...}"``
    without their brackets) were told only 'is not a list', 'is not a mapping': the way to write each is said."""
    repo = make_repo(tmp_path)
    r = nomic(repo, "act", "blognomic", "core.ascend", "theme=Pirates", "repeal=hunger", "veto=7",
              "keywords=Player=Pirate", "--as", "Dana", *NOW)
    assert r.returncode == 2 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert 'note: repeal: a list is written in brackets: repeal="[hunger]"' in lines, r.stdout
    assert 'note: veto: a list is written in brackets: veto="[7]"' in lines, r.stdout
    assert 'note: keywords: a mapping is written in braces, each key: value: keywords="{Player: Pirate}"' in lines, \
        r.stdout
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""


@pytest.mark.parametrize("args", [["act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Dana"],
                                  ["due", "blognomic"], ["tick", "blognomic", "--as", "nomic-tick"]])
def test_at_now_is_told_to_leave_at_out(tmp_path, args):
    """``--at now`` was told only what a time looks like: now is what --at left out gives."""
    repo = make_repo(tmp_path)
    r = nomic(repo, *args, "--at", "now")
    assert r.returncode == 2 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    assert ("--at: 'now' is not a UTC time like 2026-11-22T10:15:00Z, nor a time with its offset like "
            "2026-11-22T11:15:00+01:00; leave --at out for now") in r.stdout.splitlines(), r.stdout
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""
