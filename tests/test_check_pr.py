"""The pull-request check (nomic check --base) on real temporary git repositories."""

from __future__ import annotations

import json
import re

import pytest

from tests.gitgame import check_pr_cli, commit, git, make_repo, nomic

GAME = "content/blognomic"
NOW = ["--now", "2026-11-22T12:00:00Z"]


def act(repo, *args, at="2026-11-06T10:00:00Z"):
    r = nomic(repo, "act", "blognomic", *args, "--at", at, *NOW)
    assert r.returncode == 0, r.stdout + r.stderr
    return r


def check(repo, author, *extra):
    return check_pr_cli(repo, "--base", "main", "--author", author, *NOW, *extra)


def test_a_legal_pull_request_passes(tmp_path):
    repo = make_repo(tmp_path)
    act(repo, "core.vote", "proposal=3", "vote=FOR", "--as", "Dana")
    commit(repo)
    r = check(repo, "dana-nomic")
    assert r.returncode == 0, r.stdout
    assert "legal: 1 action judged" in r.stdout


def test_an_illegal_action_is_refused_with_its_rule(tmp_path):
    repo = make_repo(tmp_path)
    # write a legal vote, then turn it into an enactment by a non-admin: act refuses that itself
    r = nomic(repo, "act", "blognomic", "core.enact", "proposal=3", "--as", "Chidi", "--at", "2026-11-06T10:00:00Z",
              *NOW)
    assert r.returncode == 1 and "Chidi is not an admin" in r.stdout
    path = repo / GAME / "actions" / "20261106T100000Z--Chidi--core.enact.yaml"
    path.write_text("# yaml-language-server: $schema=../../../schemas/action.schema.json\n"
                    "at: 2026-11-06T10:00:00Z\nactor: Chidi\naction: core.enact\nparams:\n  proposal: 3\n")
    commit(repo)
    r = check(repo, "chidi-nomic")
    assert r.returncode == 1
    assert f"{GAME}/actions/20261106T100000Z--Chidi--core.enact.yaml" in r.stdout
    assert "Chidi is not an admin; only admins may take this action [rule: 1.5 Enactment]" in r.stdout


def test_editing_an_old_action_file_is_refused(tmp_path):
    repo = make_repo(tmp_path)
    old = sorted((repo / GAME / "actions").glob("*Dana--core.vote.yaml"))[0]
    old.write_text(old.read_text().replace("vote: FOR", "vote: AGAINST"))
    commit(repo)
    r = check(repo, "dana-nomic")
    assert r.returncode == 1
    assert "edits an action already in the log" in r.stdout


def test_deleting_or_renaming_an_old_action_file_is_refused(tmp_path):
    repo = make_repo(tmp_path)
    files = sorted((repo / GAME / "actions").glob("*.yaml"))
    files[0].unlink()
    files[1].rename(files[1].with_name("20261130T000000Z--Alice--core.vote.yaml"))
    commit(repo)
    r = check(repo, "alice-nomic")
    assert r.returncode == 1
    assert "deletes an action already in the log" in r.stdout
    assert "renames an action already in the log" in r.stdout


@pytest.mark.parametrize("to", ["docs/{name}", "content/{name}", "notes/old/{name}"])
def test_an_action_moved_out_of_its_game_by_an_admin_is_refused_as_deleted(tmp_path, to):
    # git reports a move as one change at its new path; the action is gone from the log all the same (history is
    # append-only, SECURITY.md 3), even when an admin, who may change files outside the games, moves it there
    repo = make_repo(tmp_path)
    last = sorted((repo / GAME / "actions").glob("*.yaml"))[-1]
    target = repo / to.format(name=last.name)
    target.parent.mkdir(parents=True, exist_ok=True)
    last.rename(target)
    commit(repo)
    for author in ("bruno-nomic", "chidi-nomic"):  # an admin, and a player who is none
        r = check(repo, author)
        assert r.returncode == 1, r.stdout
        assert (f"{GAME}/actions/{last.name}: this pull request deletes an action already in the log "
                f"({GAME}/actions/{last.name}); the log is only ever added to") in r.stdout, r.stdout


def test_a_rule_moved_out_of_its_game_is_refused_as_a_rule_removed(tmp_path):
    repo = make_repo(tmp_path)
    rule = repo / GAME / "ruleset" / "calls-for-judgment.md"
    (repo / "docs").mkdir()
    rule.rename(repo / "docs" / rule.name)
    commit(repo)
    r = check(repo, "bruno-nomic")
    assert r.returncode == 1, r.stdout
    assert f"{GAME}/ruleset/calls-for-judgment.md: rule 'calls-for-judgment' is missing" in r.stdout, r.stdout


def test_changing_the_engine_needs_an_admin(tmp_path):
    repo = make_repo(tmp_path)
    act(repo, "core.vote", "proposal=3", "vote=FOR", "--as", "Chidi")
    (repo / "validators").mkdir()
    (repo / "validators" / "engine.py").write_text("# always legal\n")
    (repo / ".github" / "workflows").mkdir(parents=True)
    (repo / ".github" / "workflows" / "check.yml").write_text("on: push\n")
    commit(repo)
    r = check(repo, "chidi-nomic")
    assert r.returncode == 1
    assert "validators/engine.py: changes the judge itself" in r.stdout
    assert ".github/workflows/check.yml: changes the judge itself" in r.stdout


def test_an_admin_may_change_the_engine(tmp_path):
    repo = make_repo(tmp_path)
    act(repo, "core.vote", "proposal=3", "vote=FOR", "--as", "Bruno")
    (repo / "schemas").mkdir()
    (repo / "schemas" / "x.schema.json").write_text("{}\n")
    commit(repo)
    r = check(repo, "bruno-nomic")
    assert r.returncode == 0, r.stdout
    assert "engine change by an admin" in r.stdout


def test_gamestate_that_differs_from_the_replay_is_placed_on_its_line(tmp_path):
    repo = make_repo(tmp_path)
    act(repo, "core.vote", "proposal=3", "vote=FOR", "--as", "Dana")
    proposals = repo / GAME / "gamestate" / "proposals.yaml"
    text = proposals.read_text()
    assert "      Dana: FOR\n      Alice: AGAINST" in text
    proposals.write_text(text.replace("      Dana: FOR\n      Alice: AGAINST", "      Dana: FOR\n      Alice: FOR"))
    commit(repo)
    r = check(repo, "dana-nomic")
    assert r.returncode == 1
    line = next(i + 1 for i, t in enumerate(proposals.read_text().splitlines()) if t == "      Alice: FOR")
    want = (f"{GAME}/gamestate/proposals.yaml:{line}:14: proposals[2].votes.Alice: "
            'replay gives "AGAINST", file says "FOR"')
    assert want in r.stdout, r.stdout


def test_gamestate_edited_without_any_action_is_refused(tmp_path):
    repo = make_repo(tmp_path)
    roster = repo / GAME / "gamestate" / "roster.yaml"
    roster.write_text(roster.read_text().replace("    admin: false\n", "    admin: true\n", 1))
    commit(repo)
    r = check(repo, "chidi-nomic")
    assert r.returncode == 1
    assert re.search(r"roster\.yaml:\d+:\d+: players\[2\]\.admin: replay gives false, file says true", r.stdout)


def test_an_action_by_someone_else_is_refused(tmp_path):
    repo = make_repo(tmp_path)
    act(repo, "core.vote", "proposal=3", "vote=FOR", "--as", "Dana")
    commit(repo)
    r = check(repo, "chidi-nomic")
    assert r.returncode == 1
    assert "the actor is Dana, but this pull request is by chidi-nomic (who plays as Chidi)" in r.stdout


def test_an_admin_action_by_a_non_admin_is_refused(tmp_path):
    repo = make_repo(tmp_path)
    act(repo, "core.idle", "player=Chidi", "--as", "Bruno", at="2026-11-20T10:00:00Z")
    commit(repo)
    r = check(repo, "bruno-nomic")
    assert r.returncode == 0, r.stdout
    git(repo, "checkout", "-q", "main")
    git(repo, "checkout", "-q", "-b", "pr2")
    r = nomic(repo, "act", "blognomic", "core.idle", "player=Fatima", "--as", "Chidi", "--at", "2026-11-20T10:00:00Z",
              *NOW)
    assert r.returncode == 1 and "only an admin may make another player idle" in r.stdout


def test_a_future_timestamp_is_refused(tmp_path):
    repo = make_repo(tmp_path)
    r = nomic(repo, "act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Dana",
              "--at", "2026-12-25T10:00:00Z", "--now", "2026-12-31T00:00:00Z")
    assert r.returncode == 0, r.stdout
    commit(repo)
    r = check(repo, "dana-nomic")
    assert r.returncode == 1
    assert "dated 2026-12-25T10:00:00Z, in the future (now is 2026-11-22T12:00:00Z)" in r.stdout


def test_an_action_dated_before_the_last_one_is_refused(tmp_path):
    repo = make_repo(tmp_path)
    r = nomic(repo, "act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Dana",
              "--at", "2026-11-04T10:00:00Z", *NOW)
    assert r.returncode == 1
    assert "before the last action or event (2026-11-05T09:00:00Z)" in r.stdout


def test_a_newcomer_joins_under_their_own_account(tmp_path):
    repo = make_repo(tmp_path)
    act(repo, "core.join", "account=zoe-gh", "--as", "Zoe")
    commit(repo)
    assert check(repo, "zoe-gh").returncode == 0
    r = check(repo, "mallory-gh")
    assert r.returncode == 1
    assert "Zoe joins with account 'zoe-gh', but this pull request is by mallory-gh" in r.stdout


def test_github_and_json_formats(tmp_path):
    repo = make_repo(tmp_path)
    act(repo, "core.vote", "proposal=3", "vote=FOR", "--as", "Dana")
    commit(repo)
    r = check(repo, "chidi-nomic", "--format", "github")
    assert r.returncode == 1
    assert r.stdout.startswith("::error file=content/blognomic/actions/20261106T100000Z--Dana--core.vote.yaml,")
    r = check(repo, "chidi-nomic", "--format", "json")
    data = json.loads(r.stdout)
    assert data["exit"] == 1
    assert data["actions"][0]["legal"] is False


def test_the_example_history_audits_green(tmp_path):
    repo = make_repo(tmp_path)
    r = nomic(repo, "check", *NOW)
    assert r.returncode == 0, r.stdout
    assert "24 actions replayed from initial/" in r.stdout


def test_the_same_action_twice_in_one_second_is_refused_and_overwrites_nothing(tmp_path):
    repo = make_repo(tmp_path)
    act(repo, "core.propose", "title=One", "--as", "Dana", at="2026-11-06T10:00:00Z")
    actions = repo / "content" / "blognomic" / "actions"
    before = {p.name: p.read_text() for p in actions.iterdir()}
    r = nomic(repo, "act", "blognomic", "core.propose", "title=Two", "--as", "Dana",
              "--at", "2026-11-06T10:00:00Z", *NOW)
    assert r.returncode == 1, r.stdout
    assert "date this action at least one second later" in r.stdout
    assert {p.name: p.read_text() for p in actions.iterdir()} == before  # no second file, no file written over


def test_two_actions_in_one_second_keep_one_order(tmp_path):
    repo = make_repo(tmp_path)
    act(repo, "core.vote", "proposal=3", "vote=FOR", "--as", "Dana", at="2026-11-06T10:00:00Z")
    r = nomic(repo, "act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Chidi",
              "--at", "2026-11-06T10:00:00Z", *NOW)
    assert r.returncode == 1
    assert "date this action at least one second later" in r.stdout
    act(repo, "core.vote", "proposal=3", "vote=FOR", "--as", "Chidi", at="2026-11-06T10:00:01Z")
    commit(repo)
    assert check(repo, "dana-nomic").returncode == 1  # Chidi's vote is not Dana's to file
    r = nomic(repo, "check", *NOW)
    assert r.returncode == 0, r.stdout


def test_an_impossible_date_is_bad_input_not_a_crash(tmp_path):
    repo = make_repo(tmp_path)
    path = repo / GAME / "actions" / "20261106T100000Z--Dana--core.vote.yaml"
    path.write_text("# yaml-language-server: $schema=../../../schemas/action.schema.json\n"
                    "at: 2026-11-06T25:00:00Z\nactor: Dana\naction: core.vote\nparams: {proposal: 3, vote: FOR}\n")
    commit(repo)
    r = check(repo, "dana-nomic")
    assert r.returncode == 2, r.stdout + r.stderr
    assert "Traceback" not in r.stdout + r.stderr
    # the schema's time is the calendar's: the hour 25 is bad input at the action's line and field
    assert ('20261106T100000Z--Dana--core.vote.yaml:2:5: at: "2026-11-06T25:00:00Z" is not a UTC time of the '
            'calendar') in r.stdout, r.stdout


def test_a_bad_option_is_bad_input_with_its_place(tmp_path):
    repo = make_repo(tmp_path)
    game = repo / GAME / "game.yaml"
    game.write_text(game.read_text().replace("variant: ruleset-75", "variant: nope\n    proposals_per_day: x"))
    r = nomic(repo, "check", "--no-replay", *NOW)
    assert r.returncode == 2
    assert re.search(r"game\.yaml:\d+:\d+: options\.blognomic\.variant: .*nope", r.stdout), r.stdout
    assert "options.blognomic.proposals_per_day" in r.stdout


# The check parses a file the pull request left as it was once for the base and the head (content.Parsed), and
# the two states share its data; a changed file is read from the head.


def test_a_gamestate_file_changed_to_a_bad_value_is_refused_on_the_heads_line(tmp_path):
    repo = make_repo(tmp_path)
    act(repo, "core.vote", "proposal=3", "vote=FOR", "--as", "Dana")
    roster = repo / GAME / "gamestate" / "roster.yaml"
    first, rest = roster.read_text().split("\n", 1)
    chidi = "  - name: Chidi\n    account: chidi-nomic\n    admin: false\n    idle: false\n"
    assert chidi in rest
    # a comment moves every line down by one: the refusal must give the head's line, not the base's
    roster.write_text(first + "\n# Chidi is away\n" + rest.replace(chidi, chidi.replace("idle: false", "idle: maybe")))
    commit(repo)
    r = check(repo, "dana-nomic")
    assert r.returncode == 2, r.stdout
    line = roster.read_text().splitlines().index("    idle: maybe") + 1
    assert f'{GAME}/gamestate/roster.yaml:{line}:11: players[2].idle: "maybe" is not true or false' in r.stdout
    assert "at the base" not in r.stdout


def test_an_action_whose_change_is_left_out_of_the_gamestate_is_refused(tmp_path):
    repo = make_repo(tmp_path)
    act(repo, "core.vote", "proposal=3", "vote=FOR", "--as", "Dana")
    proposals = repo / GAME / "gamestate" / "proposals.yaml"
    # the file as it was at the base: the head's state shares its data with the state the replay starts from
    proposals.write_text(git(repo, "show", f"main:{GAME}/gamestate/proposals.yaml"))
    commit(repo)
    r = check(repo, "dana-nomic")
    assert r.returncode == 1
    line = proposals.read_text().splitlines().index("  Dana: 2026-11-04T10:00:00Z") + 1
    assert (f'{GAME}/gamestate/proposals.yaml:{line}:9: last_vote.Dana: replay gives "2026-11-06T10:00:00Z", '
            'file says "2026-11-04T10:00:00Z"') in r.stdout, r.stdout


def test_a_file_the_pull_request_leaves_as_it_was_is_parsed_once(tmp_path, monkeypatch):
    from validators import content, yamlio
    from validators.check import check_pr
    from validators.timeutil import parse_time

    repo = make_repo(tmp_path)
    act(repo, "core.vote", "proposal=3", "vote=FOR", "--as", "Dana")
    commit(repo)
    loads: dict[str, int] = {}
    real_load = yamlio.load

    def counting_load(text, path="", **kw):
        loads[path] = loads.get(path, 0) + 1
        return real_load(text, path, **kw)

    monkeypatch.setattr(content.yamlio, "load", counting_load)
    report = check_pr(repo, "main", author="dana-nomic", now=parse_time(NOW[1]))
    assert report.exit_code == 0, [p.text() for p in report.problems]
    changed = set(git(repo, "diff", "--name-only", "main", "HEAD").split())
    assert {f"{GAME}/gamestate/proposals.yaml", f"{GAME}/gamestate/ledger.yaml"} <= changed
    twice = {p for p, n in loads.items() if n == 2}
    assert twice == {p for p in changed if "/actions/" not in p}  # the base's version and the head's
    assert set(loads.values()) == {1, 2}
    assert f"{GAME}/gamestate/roster.yaml" in loads and any("/ruleset/" in p for p in loads)


def test_a_replay_that_changes_its_start_state_is_caught_under_verify_cow(tmp_path, monkeypatch):
    # what makes sharing safe: were the base state changed in place, the head's state (sharing the roster,
    # which the vote leaves alone) would change with it, and compare would miss the difference
    import pytest

    from validators import check as check_module
    from validators import engine
    from validators.timeutil import parse_time

    repo = make_repo(tmp_path)
    act(repo, "core.vote", "proposal=3", "vote=FOR", "--as", "Dana")
    commit(repo)
    real_replay = check_module.replay_log

    def careless_replay(files, source, start, paths, **kw):
        start.docs["roster"]["players"][2]["admin"] = True
        return real_replay(files, source, start, paths, **kw)

    monkeypatch.setattr(check_module, "replay_log", careless_replay)
    monkeypatch.setattr(engine, "VERIFY_COW", True)
    with pytest.raises(AssertionError, match="changed the base state"):
        check_module.check_pr(repo, "main", author="dana-nomic", now=parse_time(NOW[1]))


def test_a_player_who_changes_their_name_acts_under_it_in_the_same_pull_request(tmp_path):
    # seed 003 rule 2: a Muffin may change their name at any time; the actions after the change are filed under the
    # new name, and the pull request's author is still that Muffin
    repo = make_repo(tmp_path, "quazie")
    for args in (("core.rename", "name=Kevin", "--as", "Kevan", "--at", "2026-11-10T10:00:00Z"),
                 ("core.propose", "title=Renamed", "--as", "Kevin", "--at", "2026-11-10T10:05:00Z")):
        r = nomic(repo, "act", "quazie", *args, *NOW)
        assert r.returncode == 0, r.stdout + r.stderr
    commit(repo)
    r = check_pr_cli(repo, "--base", "main", "--author", "kevan", *NOW)
    assert r.returncode == 0, r.stdout
    assert "legal: 2 actions judged" in r.stdout
    r = check_pr_cli(repo, "--base", "main", "--author", "smith", *NOW)
    assert r.returncode == 1
    assert "the actor is Kevan, but this pull request is by smith (who plays as Smith)" in r.stdout
    assert "the actor is Kevin, but this pull request is by smith (who plays as Smith)" in r.stdout


def test_an_action_file_naming_an_action_that_does_not_exist_says_so_and_the_closest(tmp_path):
    repo = make_repo(tmp_path)
    act(repo, "core.vote", "proposal=3", "vote=FOR", "--as", "Dana")
    path = next((repo / GAME / "actions").glob("20261106T100000Z--Dana--core.vote.yaml"))
    path.write_text(path.read_text().replace("action: core.vote", "action: core.vot"))  # a typo by hand
    line = path.read_text().splitlines().index("action: core.vot") + 1
    where = f"{GAME}/actions/{path.name}:{line}:9: action: "
    commit(repo)
    r = check(repo, "dana-nomic")
    assert r.returncode == 2, r.stdout  # only the mismatch of name and record was said (exit 1)
    assert where + "unknown action 'core.vot': this game has no such action; did you mean core.vote" in r.stdout
    assert where + "the file's name says 'core.vote', the record says 'core.vot'" in r.stdout
    renamed = path.with_name(path.name.replace("core.vote", "core.vot"))
    path.rename(renamed)  # the name and the record agree on the typo
    commit(repo)
    r = check(repo, "dana-nomic")
    assert r.returncode == 2, r.stdout
    assert (f"{GAME}/actions/{renamed.name}:{line}:9: action: unknown action 'core.vot': this game has no such "
            "action; did you mean core.vote") in r.stdout


def test_a_hand_edit_with_several_mistakes_is_told_all_of_them_at_once(tmp_path):
    # a time off the calendar used to hide the parameters' mistakes and the action's name until it was mended
    repo = make_repo(tmp_path)
    act(repo, "core.vote", "proposal=3", "vote=FOR", "--as", "Dana")
    path = next((repo / GAME / "actions").glob("20261106T100000Z--Dana--core.vote.yaml"))
    text = path.read_text().replace("at: 2026-11-06T10:00:00Z", "at: 2026-11-06T25:00:00Z")
    path.write_text(text.replace("vote: FOR", "vote: MAYBE"))
    lines = path.read_text().splitlines()
    commit(repo)
    r = check(repo, "dana-nomic")
    assert r.returncode == 2, r.stdout
    where = f"{GAME}/actions/{path.name}"
    assert f"{where}:{lines.index('at: 2026-11-06T25:00:00Z') + 1}:5: at: " in r.stdout, r.stdout
    assert (f"{where}:{lines.index('  vote: MAYBE') + 1}:9: params.vote: 'MAYBE' is not one of 'FOR', 'AGAINST', "
            "'DEFERENTIAL', 'VETO', 'COMPENSATE', 'ADMONISH'\n") in r.stdout, r.stdout
    assert "bad input: 2 problems" in r.stdout
    path.write_text(path.read_text().replace("action: core.vote", "action: core.vot"))
    commit(repo)
    r = check(repo, "dana-nomic")
    assert r.returncode == 2, r.stdout
    assert f"{where}:{lines.index('action: core.vote') + 1}:9: action: unknown action 'core.vot'" in r.stdout, r.stdout
    assert "params.vote" not in r.stdout  # whose parameters these are is not known
    assert "bad input: 2 problems" in r.stdout


def test_a_time_given_with_its_offset_is_converted_to_utc(tmp_path):
    repo = make_repo(tmp_path)
    r = nomic(repo, "act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Dana",
              "--at", "2026-11-06T11:00:00+01:00", *NOW, "-q")
    assert r.returncode == 0, r.stdout  # once refused: "is not a UTC time"
    assert "legal: core.vote by Dana at 2026-11-06T10:00:00Z" in r.stdout
    path = repo / GAME / "actions" / "20261106T100000Z--Dana--core.vote.yaml"
    assert "\nat: 2026-11-06T10:00:00Z\n" in path.read_text()  # the record holds UTC
    commit(repo)
    assert check(repo, "dana-nomic").returncode == 0
    r = nomic(repo, "act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Chidi",
              "--at", "2026-11-06T10:00:00+24:00", *NOW)
    assert r.returncode == 2 and "--at: '2026-11-06T10:00:00+24:00': the offset +24:00" in r.stdout, r.stdout


def test_a_commit_that_left_out_the_action_file_is_told_so(tmp_path):
    # git commit -a takes the rewritten gamestate but not the new action file: the check names that file
    repo = make_repo(tmp_path)
    act(repo, "core.vote", "proposal=3", "vote=FOR", "--as", "Dana")
    git(repo, "commit", "-qam", "Dana votes")
    r = nomic(repo, "check", "--base", "main", "--head", "HEAD", "--author", "dana-nomic", *NOW)
    assert r.returncode == 1 and "replay gives" in r.stdout, r.stdout
    assert ("note: blognomic: the pull request changes the game's files but adds no action to it: they change only "
            "through `nomic act`. Was the new action file left out of the commit (git add content)? An edit by hand "
            "is undone with `git checkout main -- content/blognomic`, then act with `nomic act`") in r.stdout
    assert ("(git add content and commit it, or leave out --head to judge the work tree): "
            "content/blognomic/actions/20261106T100000Z--Dana--core.vote.yaml") in r.stdout, r.stdout


def test_a_hand_edit_beside_an_action_is_told_how_to_undo_it(tmp_path):
    repo = make_repo(tmp_path)
    act(repo, "core.vote", "proposal=3", "vote=FOR", "--as", "Dana")
    roster = repo / GAME / "gamestate" / "roster.yaml"
    roster.write_text(roster.read_text().replace("name: Chidi\n    account: chidi-nomic\n    admin: false",
                                                 "name: Chidi\n    account: chidi-nomic\n    admin: true"))
    commit(repo)
    r = check(repo, "dana-nomic")
    assert r.returncode == 1 and "admin: replay gives false, file says true" in r.stdout, r.stdout
    assert ("note: blognomic: the files do not say what the new actions give: they change only through `nomic act`, "
            "never by hand. Undo the edits with `git checkout main -- content/blognomic/gamestate "
            "content/blognomic/ruleset` and take the actions again with `nomic act`") in r.stdout


def test_a_tick_filed_under_a_login_no_roster_names_is_told_why_it_is_refused(tmp_path):
    # who may act: a pull request's actions are its author's, matched through the roster's account; a login that
    # plays nobody was told "the actor is nomic-tick, but this pull request is by nomic-tick"
    repo = make_repo(tmp_path)
    act(repo, "engine.tick", "--as", "nomic-tick")
    commit(repo)
    r = check(repo, "nomic-tick")
    assert r.returncode == 1, r.stdout
    assert ("actor: nomic-tick is the pull request's author, but no player of this game plays with the account "
            "nomic-tick: actions are filed under a roster name, by the player whose account it is (scheduled ticks "
            "by a name on no roster are pushed to main by the tick workflow) [rule: who may act]") in r.stdout
    assert "but this pull request is by nomic-tick" not in r.stdout


def test_the_comment_names_a_record_added_whole_by_its_title() -> None:
    """The pull-request comment's table of changes names a proposal added by its title, as the wiki's history
    does, not as the JSON of the whole record."""
    from validators.markdown import pr_comment
    from validators.problems import Report

    report = Report()
    report.verdicts.append({"legal": True, "name": "core.propose", "actor": "Fatima", "at": "2026-11-23T23:10:11Z",
                            "action": "content/blognomic/actions/20261123T231011Z--Fatima--core.propose.yaml"})
    report.changes.append({"game": "blognomic", "who": "proposal 4", "what": "added", "before": "—",
                           "after": {"id": 4, "title": "Hats for all", "author": "Fatima"}})
    report.changes.append({"game": "blognomic", "who": "proposals", "what": "next", "before": 4, "after": 5})
    text = pr_comment(report)
    assert "| `proposal 4` | `added` | `—` | `“Hats for all”` |" in text, text
    assert "| `proposals` | `next` | `4` | `5` |" in text and '"id"' not in text, text


def test_the_comment_mentions_nobody_a_player_names(tmp_path):
    """The pull-request comment is the workflow's: a player's text quoted in it (a parameter, a file's name with
    backticks that once closed its code early) must not mention anyone, who GitHub would notify."""
    repo = make_repo(tmp_path)
    (repo / GAME / "actions" / "a `@octocat` b.yaml").write_text("x: 1\n", encoding="utf-8")
    commit(repo)
    r = check(repo, "dana-nomic", "--format", "markdown")
    assert r.returncode == 2, r.stdout
    assert "- `content/blognomic/actions/a '@octocat' b.yaml` action files are named" in r.stdout, r.stdout
    git(repo, "rm", "-q", f"{GAME}/actions/a `@octocat` b.yaml")
    (repo / GAME / "actions" / "20261120T130000Z--Dana--core.vote.yaml").write_text(
        "# yaml-language-server: $schema=../../../schemas/action.schema.json\nat: 2026-11-20T13:00:00Z\nactor: Dana\n"
        "action: core.vote\nparams:\n  proposal: \"@octocat [x](y) *hi*\"\n  vote: FOR\n", encoding="utf-8")
    commit(repo)
    r = check(repo, "dana-nomic", "--format", "markdown")
    assert r.returncode == 2, r.stdout
    line = next(n for n in r.stdout.splitlines() if "params.proposal" in n)
    assert "@\u200boctocat \\[x\\](y) \\*hi\\*" in line, line
    assert not re.search(r"@(?!\u200b)", r.stdout.replace("`content/blognomic/actions/", "")), r.stdout


@pytest.mark.parametrize("event, author", [
    ({"pull_request": {"user": {"login": "dana-nomic"}}}, "dana-nomic"),
    ({"ref": "refs/heads/main"}, None),  # a push: no pull request, no author
    ([], None), ({"pull_request": None}, None), ({"pull_request": {"user": {"login": 5}}}, None),
    ({"pull_request": {"user": "dana-nomic"}}, None), ({"pull_request": {"user": {"login": " "}}}, None),
])
def test_the_author_is_read_from_the_github_event_or_from_nowhere(tmp_path, event, author):
    """Without --author, the pull request's opener from the file GitHub Actions describes the event in
    (GITHUB_EVENT_PATH); a file not of that shape names nobody, and the check says authorship was not checked
    (once an internal error, with a traceback)."""
    repo = make_repo(tmp_path)
    act(repo, "core.vote", "proposal=3", "vote=FOR", "--as", "Dana")
    commit(repo)
    path = tmp_path / "event.json"
    path.write_text(json.dumps(event), encoding="utf-8")
    r = nomic(repo, "check", "--base", "main", *NOW, "--format", "json",
              env={"GITHUB_EVENT_PATH": str(path), "NOMIC_AUTHOR": ""})
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stdout + r.stderr
    notes = json.loads(r.stdout)["notes"]
    assert ("no pull-request author given (--author): authorship not checked" in notes) == (author is None), notes
    if author:  # the login read is the one judged: Bruno's vote is not dana-nomic's
        act(repo, "core.vote", "proposal=3", "vote=FOR", "--as", "Bruno", at="2026-11-06T11:00:00Z")
        commit(repo)
        r = nomic(repo, "check", "--base", "main", *NOW, env={"GITHUB_EVENT_PATH": str(path), "NOMIC_AUTHOR": ""})
        assert r.returncode == 1 and "but this pull request is by dana-nomic" in r.stdout, r.stdout


def test_a_blank_nomic_author_is_refused_as_a_blank_author_option_is(tmp_path):
    """NOMIC_AUTHOR=" " was taken for an author named " ": 'this pull request is by   (who is on no roster...)',
    exit 1; it is refused as --author " " is (exit 2), and NOMIC_AUTHOR set empty stays as if unset."""
    repo = make_repo(tmp_path)
    act(repo, "core.vote", "proposal=3", "vote=FOR", "--as", "Dana")
    commit(repo)
    r = nomic(repo, "check", "--base", "main", *NOW, env={"NOMIC_AUTHOR": " ", "GITHUB_EVENT_PATH": ""})
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stdout + r.stderr
    assert "NOMIC_AUTHOR: is blank: give a forge login, or leave it unset or empty" in r.stdout.splitlines(), r.stdout
    r = nomic(repo, "check", "--base", "main", *NOW, env={"NOMIC_AUTHOR": "", "GITHUB_EVENT_PATH": ""})
    assert r.returncode == 0 and "authorship not checked" in r.stdout, r.stdout


def test_a_login_with_blanks_around_it_is_refused_as_option_or_variable_naming_it(tmp_path):
    """`--author "  dana-nomic "` (or NOMIC_AUTHOR so) was taken as a login with its blanks, and Dana's action was
    illegal: 'this pull request is by   dana-nomic  (who is on no roster...)', exit 1. No login has blanks: it is
    bad input at the option or variable, with the login meant, as `--as "Chidi "` is; nothing is committed."""
    repo = make_repo(tmp_path)
    act(repo, "core.vote", "proposal=3", "vote=FOR", "--as", "Dana")
    commit(repo)
    head = git(repo, "rev-parse", "HEAD")
    for field, args, env in (("--author", ["--author", "  dana-nomic "], {}),
                             ("NOMIC_AUTHOR", [], {"NOMIC_AUTHOR": "  dana-nomic "})):
        for command in (["check", "--base", "main"], ["pr", "--base", "main", "--no-push"]):
            r = nomic(repo, *command, *args, *NOW, env={"GITHUB_EVENT_PATH": "", **env})
            assert r.returncode == 2 and "Traceback" not in r.stderr, r.stdout + r.stderr
            assert (f"{field}: '  dana-nomic ' has blanks around it, which no login has; did you mean dana-nomic?"
                    in r.stdout.splitlines()), r.stdout
    # nomic act --pr reads NOMIC_AUTHOR: refused before the action is written, not after
    r = nomic(repo, "act", "blognomic", "core.vote", "proposal=3", "vote=AGAINST", "--as", "Dana", "--pr", *NOW,
              env={"GITHUB_EVENT_PATH": "", "NOMIC_AUTHOR": "dana-nomic\t"})
    assert r.returncode == 2 and "NOMIC_AUTHOR: 'dana-nomic\\t' has blanks around it" in r.stdout, r.stdout
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == "" and git(repo, "rev-parse", "HEAD") == head


def test_a_branch_behind_the_base_is_told_to_catch_up(tmp_path):
    """The check compares the base's files with the pull request's: on a branch begun before the base's last
    commits, an action the base gained since reads as renamed or removed by the pull request. The verdict stays
    (the pull request, as it stands, would undo it), and a note says why, and what to do."""
    repo = make_repo(tmp_path)
    act(repo, "core.vote", "proposal=3", "vote=FOR", "--as", "Dana")
    commit(repo)
    r = check(repo, "dana-nomic")
    assert r.returncode == 0 and "does not hold main" not in r.stdout, r.stdout
    git(repo, "checkout", "-q", "main")
    act(repo, "core.vote", "proposal=3", "vote=FOR", "--as", "Bruno", at="2026-11-06T09:00:00Z")
    commit(repo, "Bruno votes")
    git(repo, "checkout", "-q", "pr")
    r = check(repo, "dana-nomic")
    assert r.returncode == 1, r.stdout
    assert ("note: the branch does not hold main (it was begun before main's last commits, or elsewhere): what "
            "main gained since counts as undone by this pull request; take the actions again on main as it stands "
            "(git switch -C BRANCH main, then nomic act), or merge main into the branch if main changed only other "
            "games") in r.stdout, r.stdout
    git(repo, "reset", "-q", "--hard", "main")  # the action taken again on the base as it now stands
    act(repo, "core.vote", "proposal=3", "vote=FOR", "--as", "Dana")
    commit(repo)
    r = check(repo, "dana-nomic")
    assert r.returncode == 0 and "does not hold main" not in r.stdout, r.stdout


def test_the_comment_of_a_very_large_pull_request_fits_on_github() -> None:
    """GitHub refuses a comment over 65,536 characters; one row for each of 3,000 actions (and a note for each of
    600 files of an admin's pull request) was refused, and the pull request went without its verdict's comment. The
    illegal action, where the replay stopped, is shown whatever its place."""
    from validators.markdown import pr_comment
    from validators.problems import Problem, Report

    report = Report()
    for i in range(3000):
        report.verdicts.append({"legal": i < 2999, "name": "core.vote", "actor": "Dana", "at": "2026-11-23T23:10:11Z",
                                "action": f"content/blognomic/actions/2026112{i:05d}--Dana--core.vote.yaml"})
    report.add([Problem("there is no proposal 99", "content/blognomic/actions/202611202999--Dana--core.vote.yaml")])
    report.notes.extend(f"docs/page{i}.md: change outside the games by an admin (alice-nomic)" for i in range(600))
    text = pr_comment(report)
    assert len(text) < 65_536, len(text)
    rows = [line for line in text.splitlines() if line.startswith("| `core.vote`")]
    assert len(rows) == 41 and rows[-1].endswith("| **illegal** |"), rows[-1]
    assert "| … and 2959 more, legal | | | |" in text
    assert "<sub>… and 560 more notes</sub>" in text and "docs/page39.md" in text and "docs/page40.md" not in text
    huge = Report()
    huge.add([Problem("x" * 5000, f"content/blognomic/gamestate/f{i}.yaml") for i in range(30)])
    text = pr_comment(huge)
    assert len(text) <= 60_200 and text.endswith("`nomic check --base` prints all of it)\n"), text[-200:]
    # a replay's report cut so sends the reader to the replay, under a marker of its own (not the check's comment)
    text = pr_comment(huge, "replay")
    assert text.endswith("`nomic replay` prints all of it)\n") and text.startswith("<!-- nomic-replay -->\n"), text
