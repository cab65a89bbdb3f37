"""Who may do what: pull requests that try to cheat the judge, each on a real temporary git repository.

tests/test_check_pr.py already shows the plain cases (an action by someone else, editing, deleting or
renaming an old action, the engine changed with an action, gamestate edited with no action, actions
dated in the future or before the last one). These are the harder tries.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.gitgame import check_pr_cli, commit, git, make_repo, nomic

GAME = "content/blognomic"
NOW = ["--now", "2026-11-22T12:00:00Z"]
HEADER = "# yaml-language-server: $schema=../../../schemas/action.schema.json\n"


def act(repo: Path, *args: str, at: str = "2026-11-06T10:00:00Z"):
    r = nomic(repo, "act", "blognomic", *args, "--at", at, *NOW)
    assert r.returncode == 0, r.stdout + r.stderr
    return r


def check(repo: Path, author: str, *extra: str):
    return check_pr_cli(repo, "--base", "main", "--author", author, *NOW, *extra)


def write_action(repo: Path, name: str, body: str) -> Path:
    path = repo / GAME / "actions" / name
    path.write_text(HEADER + body, encoding="utf-8")
    return path


def snapshot(root: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in root.rglob("*") if p.is_file() and ".git" not in p.parts}


# ---------------------------------------------------------------- acting for others, and raising oneself


def test_making_yourself_admin_and_acting_as_one_in_the_same_pr_is_refused(tmp_path):
    repo = make_repo(tmp_path)
    roster = repo / GAME / "gamestate" / "roster.yaml"
    text = roster.read_text()
    chidi = text.index("  - name: Chidi")
    roster.write_text(text[:chidi] + text[chidi:].replace("admin: false", "admin: true", 1))
    write_action(repo, "20261106T100000Z--Chidi--core.idle.yaml",
                 "at: 2026-11-06T10:00:00Z\nactor: Chidi\naction: core.idle\nparams:\n  player: Fatima\n")
    commit(repo)
    r = check(repo, "chidi-nomic")
    assert r.returncode == 1, r.stdout
    # judged by the base's roster, where Chidi is no admin
    assert "only an admin may make another player idle" in r.stdout


def test_a_non_player_cannot_act_for_a_player(tmp_path):
    repo = make_repo(tmp_path)
    act(repo, "core.vote", "proposal=3", "vote=FOR", "--as", "Dana")
    commit(repo)
    r = check(repo, "mallory")
    assert r.returncode == 1
    assert "the actor is Dana, but this pull request is by mallory (who is on no roster of this game)" in r.stdout


def test_the_pr_author_is_matched_by_account_not_by_name(tmp_path):
    # a GitHub user called "Dana" is not the player Dana (whose account is dana-nomic)
    repo = make_repo(tmp_path)
    act(repo, "core.vote", "proposal=3", "vote=FOR", "--as", "Dana")
    commit(repo)
    r = check(repo, "Dana")
    assert r.returncode == 1
    # the verdict names the login the author would need, for whoever passed a player's name as --author
    assert ("this pull request is by Dana (who is on no roster of this game: the author is a login, and Dana plays "
            "with the account dana-nomic)") in r.stdout
    # the name in another case is still taken for the player's name, and the hint gives the roster's spelling
    r = check(repo, "dana")
    assert r.returncode == 1
    assert "the author is a login, and Dana plays with the account dana-nomic)" in r.stdout
    assert check(repo, "DANA-NOMIC").returncode == 0  # forge logins ignore case


def test_an_action_file_named_for_someone_else_is_refused(tmp_path):
    # the file name says Dana voted; the record inside says Chidi: readers and reviewers see the name
    repo = make_repo(tmp_path)
    write_action(repo, "20261106T100000Z--Dana--core.vote.yaml",
                 "at: 2026-11-06T10:00:00Z\nactor: Chidi\naction: core.vote\nparams:\n  proposal: 3\n  vote: FOR\n")
    commit(repo)
    r = check(repo, "chidi-nomic")
    assert r.returncode == 1
    assert "actor: the file's name says 'Dana', the record says 'Chidi'" in r.stdout


def test_a_leader_who_left_earlier_in_the_pull_request_files_for_no_outsider(tmp_path):
    # an action filed for another (may_file: the Expedition Leader for an Outsider) is judged as the game stood
    # just before it, not at the base: Ilse, no longer the Leader once she has left, files nothing for Moose 2
    repo = make_repo(tmp_path, "settlement")

    def settle(*args: str, at: str) -> None:
        r = nomic(repo, "act", "settlement", *args, "--at", at, *NOW)
        assert r.returncode == 0, r.stdout + r.stderr

    settle("settlement.create-outsider", "type=Moose", "at=0a", "--as", "Ilse", at="2026-11-17T10:00:00Z")
    commit(repo, "a moose")
    settle("core.leave", "--as", "Ilse", at="2026-11-17T10:05:00Z")
    settle("settlement.move", "path=S", "--as", "Moose 2", at="2026-11-17T10:10:00Z")
    commit(repo)
    r = check(repo, "ilse-nomic")
    assert r.returncode == 1, r.stdout
    assert "Moose_2--settlement.move.yaml:3:8: actor: the actor is Moose 2, but this pull request is by ilse-nomic" \
        in r.stdout
    git(repo, "reset", "-q", "--hard", "HEAD~1")  # still the Leader: she files for the Moose she created
    settle("settlement.move", "path=S", "--as", "Moose 2", at="2026-11-17T10:10:00Z")
    commit(repo)
    r = check(repo, "ilse-nomic")
    assert r.returncode == 0, r.stdout


def test_hand_written_dice_are_refused(tmp_path):
    repo = make_repo(tmp_path)
    act(repo, "core.vote", "proposal=3", "vote=FOR", "--as", "Dana")
    path = next((repo / GAME / "actions").glob("20261106T100000Z--Dana--*"))
    path.write_text(path.read_text() + "dice: [6, 6]\n")
    commit(repo)
    r = check(repo, "dana-nomic")
    assert r.returncode == 1
    assert re.search(r"core\.vote\.yaml:\d+:\d+: dice: replay gives \[\], file says \[6, 6\] \[rule: dice\]", r.stdout)


def test_a_new_name_chooses_no_dice(tmp_path):
    # a Muffin may change their name at any time (Quazie, seed 003 rule 2), and the name was in the seed of their
    # dice: trying names offline, a player chose their next roll (a Dance Off's 10, say). The seed holds the name
    # they first played under, so every new name rolls as the old one does
    repo = make_repo(tmp_path, "quazie")

    def dance_dice(name: str | None) -> str:
        git(repo, "reset", "-q", "--hard")
        git(repo, "clean", "-qfd", "content")
        as_ = "Quazie"
        if name is not None:
            r = nomic(repo, "act", "quazie", "core.rename", f"name={name}", "--as", "Quazie", "--at",
                      "2026-11-10T10:00:00Z", *NOW)
            assert r.returncode == 0, r.stdout + r.stderr
            as_ = name
        r = nomic(repo, "act", "quazie", "quazie.dance-off", "opponent=Simon", "--as", as_, "--at",
                  "2026-11-10T10:01:00Z", *NOW)
        assert r.returncode == 0, r.stdout + r.stderr
        path = next((repo / "content" / "quazie" / "actions").glob("20261110T100100Z--*--quazie.dance-off.yaml"))
        return path.read_text().split("\ndice:", 1)[1].split("\noutcome:", 1)[0]

    rolls = {name: dance_dice(name) for name in (None, "Qa", "Qb", "Qc", "Qd")}
    assert len(set(rolls.values())) == 1, rolls


def test_a_note_with_a_control_character_is_refused_and_nothing_is_written(tmp_path):
    # a terminal escape in flavour text would colour (or clear) the screen of whoever reads the log there
    repo = make_repo(tmp_path)
    before = snapshot(repo)
    r = nomic(repo, "act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Dana",
              "--note", "go \x1b[31mred\x07", "--at", "2026-11-06T10:00:00Z", *NOW)
    assert r.returncode == 2, r.stdout + r.stderr
    assert ("note: holds the control character U+001B (character 4); a text may hold line breaks and tabs, but no "
            "other control characters") in r.stdout
    assert snapshot(repo) == before
    # line breaks and tabs are text
    act(repo, "core.vote", "proposal=3", "vote=FOR", "--as", "Dana", "--note", "two\n\tlines")
    path = next((repo / GAME / "actions").glob("20261106T100000Z--Dana--*"))
    assert 'note: "two\\n\\tlines"' in path.read_text()


def test_a_hand_written_control_character_in_a_parameter_is_refused_at_its_line(tmp_path):
    repo = make_repo(tmp_path)
    write_action(repo, "20261106T100000Z--Dana--core.propose.yaml",
                 "at: 2026-11-06T10:00:00Z\nactor: Dana\naction: core.propose\nparams:\n  title: Fair play\n"
                 "  text: \"Be \\e[2Jkind\"\n")
    commit(repo)
    r = check(repo, "dana-nomic")
    assert r.returncode == 2, r.stdout
    assert re.search(r"core\.propose\.yaml:7:\d+: params\.text: holds the control character U\+001B \(character 4\)",
                     r.stdout), r.stdout


def test_a_hand_written_action_dated_before_the_last_one_is_refused(tmp_path):
    # nomic act refuses it (test_check_pr.py); a file written by hand meets the same clock in the check
    repo = make_repo(tmp_path)
    write_action(repo, "20261104T130000Z--Dana--core.vote.yaml",
                 "at: 2026-11-04T13:00:00Z\nactor: Dana\naction: core.vote\nparams:\n  proposal: 3\n  vote: AGAINST\n")
    commit(repo)
    r = check(repo, "dana-nomic")
    assert r.returncode == 1
    assert "dated 2026-11-04T13:00:00Z, before the last action or event (2026-11-05T09:00:00Z)" in r.stdout


def test_a_hand_written_action_dated_in_the_future_is_refused(tmp_path):
    repo = make_repo(tmp_path)
    write_action(repo, "20270101T000000Z--Dana--core.vote.yaml",
                 "at: 2027-01-01T00:00:00Z\nactor: Dana\naction: core.vote\nparams:\n  proposal: 3\n  vote: FOR\n")
    commit(repo)
    r = check(repo, "dana-nomic")
    assert r.returncode == 1
    assert "dated 2027-01-01T00:00:00Z, in the future (now is 2026-11-22T12:00:00Z)" in r.stdout


# ---------------------------------------------------------------- history and the judge


def test_editing_the_founding_state_is_refused(tmp_path):
    repo = make_repo(tmp_path)
    roster = repo / GAME / "initial" / "gamestate" / "roster.yaml"
    roster.write_text(roster.read_text().replace("admin: false", "admin: true"))
    commit(repo)
    r = check(repo, "chidi-nomic")
    assert r.returncode == 1
    assert (f"{GAME}/initial/gamestate/roster.yaml: the game's starting point (initial/) may change only by an "
            "admin's checkpoint (chidi-nomic is no admin of blognomic)") in r.stdout


@pytest.mark.parametrize("change", ["edit", "add"])
def test_the_founding_configuration_may_not_change_in_a_pull_request(tmp_path, change):
    repo = make_repo(tmp_path)
    founding = repo / GAME / "initial" / "game.yaml"
    if change == "add":  # a game founded before initial/game.yaml was written cannot be given one by a player
        founding.unlink()
        git(repo, "checkout", "-q", "main")
        commit(repo, "a game founded before initial/game.yaml")
        git(repo, "checkout", "-q", "-B", "pr")
        founding.write_text((repo / GAME / "game.yaml").read_text().replace("../../schemas/", "../../../schemas/")
                            .replace("variant: ruleset-75", "variant: quazie"))
    else:
        founding.write_text(founding.read_text().replace("variant: ruleset-75", "variant: quazie"))
    commit(repo)
    r = check(repo, "alice-nomic")
    assert r.returncode == 1, r.stdout
    assert (f"{GAME}/initial/game.yaml: the game's starting point (initial/) may change only by a checkpoint, "
            "which writes initial/checkpoint.yaml with it (nomic checkpoint)") in r.stdout


def on_main(repo: Path, path: str, old: str, new: str) -> None:
    """A hand edit of a game file pushed to main, past the pull-request check."""
    git(repo, "checkout", "-q", "main")
    target = repo / GAME / path
    assert old in target.read_text()
    target.write_text(target.read_text().replace(old, new))
    commit(repo, "a hand edit")


def audit_refuses(repo: Path, code: int, pattern: str) -> str:
    """The full audit (``nomic check``) on main exits ``code``, with no traceback, and says ``pattern`` (a regex)."""
    r = nomic(repo, "check", *NOW)
    assert r.returncode == code, r.stdout
    assert "Traceback" not in r.stdout + r.stderr
    assert re.search(pattern, r.stdout), r.stdout
    return r.stdout


@pytest.mark.parametrize("old,new,field", [
    ("variant: ruleset-75", "variant: quazie", r"options\.blognomic\.variant: replay gives \"ruleset-75\", "
                                               r"file says \"quazie\""),
    ("player: Colonist", "player: Overlord", r"keywords\.player: replay gives \"Colonist\", file says \"Overlord\""),
])
def test_the_configuration_edited_by_hand_on_main_is_refused_by_the_audit(tmp_path, old, new, field):
    # the audit replays from the founding configuration (initial/game.yaml), not from the game.yaml it checks
    repo = make_repo(tmp_path)
    on_main(repo, "game.yaml", old, new)
    assert "not audited" not in audit_refuses(repo, 1, rf"{GAME}/game\.yaml:\d+:\d+: {field}")


def test_keywords_an_ascension_address_renamed_are_audited_from_the_founding_ones(tmp_path):
    # 1.9: the Address replaces keywords, in game.yaml too; the audit replays it from the founding keywords
    # (initial/game.yaml), so the rename is what the log gives, and a later hand edit is refused
    repo = make_repo(tmp_path)
    git(repo, "checkout", "-q", "main")
    act(repo, "core.dov", "--as", "Chidi", at="2026-11-10T10:00:00Z")
    for i, voter in enumerate(("Alice", "Dana", "Bruno")):
        act(repo, "core.dov-vote", "dov=1", "vote=FOR", "--as", voter, at=f"2026-11-10T10:{i + 1}0:00Z")
    act(repo, "core.dov-resolve", "dov=1", "--as", "Bruno", at="2026-11-10T22:00:00Z")
    act(repo, "core.ascend", "theme=Pirates", "keywords={Colonist: Pirate, Colonists: Pirates}", "--as", "Chidi",
        at="2026-11-11T09:00:00Z")
    commit(repo, "an Ascension Address")
    assert "player: Pirate\n" in (repo / GAME / "game.yaml").read_text()
    assert "player: Colonist\n" in (repo / GAME / "initial" / "game.yaml").read_text()
    r = nomic(repo, "check", *NOW)
    assert r.returncode == 0, r.stdout
    assert "30 actions replayed from initial/" in r.stdout and "not audited" not in r.stdout
    on_main(repo, "game.yaml", "player: Pirate", "player: Buccaneer")
    audit_refuses(repo, 1, rf"{GAME}/game\.yaml:\d+:\d+: keywords\.player: replay gives \"Pirate\", file says "
                           r"\"Buccaneer\"")


def test_the_modules_of_a_game_cannot_change(tmp_path):
    repo = make_repo(tmp_path)
    on_main(repo, "initial/game.yaml", "  - blognomic\n", "  - blognomic\n  - monkey\n")
    audit_refuses(repo, 1, rf"{GAME}/game\.yaml:\d+:\d+: modules: the modules of a game cannot change: it was founded "
                           rf"with blognomic, monkey \({GAME}/initial/game\.yaml\), and game\.yaml lists blognomic")


def test_a_game_founded_before_initial_game_yaml_audits_as_before_with_a_note(tmp_path):
    repo = make_repo(tmp_path)
    git(repo, "checkout", "-q", "main")
    (repo / GAME / "initial" / "game.yaml").unlink()
    commit(repo, "a game founded before initial/game.yaml")
    r = nomic(repo, "check", *NOW)
    assert r.returncode == 0, r.stdout
    assert "24 actions replayed from initial/" in r.stdout
    assert ("blognomic: no initial/game.yaml (the configuration the game was founded with), so the log was replayed "
            "with the current game.yaml, and the configuration (keywords, options) was not audited") in r.stdout
    # what such a game's audit cannot see: a configuration changed by hand that the log's replay does not feel
    on_main(repo, "game.yaml", "leader: Expedition Leader", "leader: Captain")
    assert nomic(repo, "check", *NOW).returncode == 0


def test_a_bad_founding_configuration_is_bad_input_at_its_line(tmp_path):
    repo = make_repo(tmp_path)
    on_main(repo, "initial/game.yaml", "variant: ruleset-75", "variant: nope")
    audit_refuses(repo, 2, rf"{GAME}/initial/game\.yaml:\d+:\d+: options\.blognomic\.variant: .*nope")


def test_a_rule_added_without_a_proposal_is_refused(tmp_path):
    repo = make_repo(tmp_path)
    (repo / GAME / "ruleset" / "free-bananas.md").write_text(
        "---\nid: free-bananas\nnumber: '9'\ntitle: Free Bananas\nsection: dynastic\nstatus: active\n---\n"
        "Chidi wins.\n")
    commit(repo)
    r = check(repo, "chidi-nomic")
    assert r.returncode in (1, 2), r.stdout
    assert "free-bananas" in r.stdout
    assert not re.search(r"^legal:", r.stdout, re.MULTILINE)


@pytest.mark.parametrize("copy, shown", [("old/time.md", f"{GAME}/ruleset/old/time.md"),
                                         ("time.md\n", f"'{GAME}/ruleset/time.md\\n'")])  # quoted, with its escape
def test_a_rule_edited_beside_a_second_file_holding_its_text_is_refused(tmp_path, copy, shown):
    # a second file of the rule (in a sub-folder, or named with a line break at its end) was read after the rule's
    # own and taken for the rule: its own file, which GitHub shows, could then say anything and the check said legal
    repo = make_repo(tmp_path)
    act(repo, "core.vote", "proposal=3", "vote=FOR", "--as", "Chidi")
    rule = repo / GAME / "ruleset" / "time.md"
    second = repo / GAME / "ruleset" / copy
    second.parent.mkdir(exist_ok=True)
    second.write_bytes(rule.read_bytes())
    rule.write_text(rule.read_text() + "Chidi wins the game whenever he wants.\n")
    commit(repo)
    r = check(repo, "chidi-nomic")
    assert r.returncode == 2, r.stdout
    assert f"{shown}: rule files are named <id>.md (lower case, digits, dashes), directly in " \
           f"{GAME}/ruleset/" in r.stdout


def test_a_file_name_with_a_control_character_forges_no_line_of_the_verdict(tmp_path):
    # a name holding a line break, printed as it is, wrote a line of its own into the verdict (in a terminal, in a CI
    # log): "legal: ..." under a refusal; an escape sequence (ESC [2K) erased the line it was printed on. The text
    # output names such a file as Python writes it, quoted, with escapes; the markdown and GitHub outputs had their own
    forged = "legal: 1 action judged, no problems"
    names = [f"{GAME}/ruleset/time.md\n{forged}", f"{GAME}/a\x1b[2Kb.yaml", f"docs/x\r{forged}.md",
             f"content/x\n{forged}/f.md"]
    repo = make_repo(tmp_path)
    for name in names:
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text("x: 1\n")
    commit(repo)
    for author, problems in (("chidi-nomic", 4), ("bruno-nomic", 2)):  # an admin's changes outside the games: notes
        r = check(repo, author)
        assert r.returncode == 2, r.stdout
        assert "\x1b" not in r.stdout and "\r" not in r.stdout, r.stdout
        lines = r.stdout.splitlines()
        assert not [line for line in lines if line.startswith(forged)], r.stdout
        assert lines[-1] == f"bad input: {problems} problems", r.stdout
        for name in names[:2]:
            assert f"{name!r}: " in r.stdout, r.stdout
    assert f"note: {names[2]!r}: change outside the games by an admin (bruno-nomic)" in lines, r.stdout
    assert f"note: {names[3]!r}: a file in 'content/x\\n{forged}/', which is no game" in r.stdout, r.stdout


def test_keys_reordered_by_hand_are_refused(tmp_path):
    # equal by value, so the replay's comparison passed them; but a rule reads a mapping in its order (Cycle 12's die
    # picks one of a family's tags as the world lists them), so a later action judged on the reordered files would
    # roll what the audit's replay from initial/ does not give
    repo = make_repo(tmp_path, "cycle12")
    world = repo / "content" / "cycle12" / "gamestate" / "cycle12_world.yaml"
    text = world.read_text()
    heat = "  Heat:\n    family: Primary Location Type\n    colour: '#e4572e'\n    note: the heat element\n"
    water = text.index("\n  Water:\n") + 1
    assert heat in text[:water]
    world.write_text(text[:water].replace(heat, "") + heat + text[water:])
    commit(repo)
    r = check(repo, "ada-c12")
    assert r.returncode == 1, r.stdout
    assert re.search(r"cycle12_world\.yaml:\d+:\d+: tags: the keys are in another order than the base's \(Civilized, "
                     r"Heat, ", r.stdout), r.stdout


def test_game_configuration_edited_without_an_action_is_refused(tmp_path):
    repo = make_repo(tmp_path)
    game = repo / GAME / "game.yaml"
    game.write_text(game.read_text().replace("variant: ruleset-75", "variant: quazie"))
    commit(repo)
    r = check(repo, "alice-nomic")
    assert r.returncode == 1
    assert re.search(r"game\.yaml:\d+:\d+: options\.blognomic\.variant: replay gives \"ruleset-75\", "
                     r"file says \"quazie\"", r.stdout), r.stdout


@pytest.mark.parametrize("path", ["schemas/roster.schema.json", "site_plugins/__init__.py", "mkdocs.yml",
                                  "pyproject.toml", ".github/workflows/nomic-pr.yml", "validators/games/x.py"])
def test_changing_the_judge_with_an_action_needs_an_admin(tmp_path, path):
    repo = make_repo(tmp_path)
    act(repo, "core.vote", "proposal=3", "vote=FOR", "--as", "Chidi")
    target = repo / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("{}\n")
    commit(repo)
    r = check(repo, "chidi-nomic")
    assert r.returncode == 1
    assert f"{path}: changes the judge itself" in r.stdout


def test_wiki_pages_outside_the_games_need_an_admin(tmp_path):
    # docs/ is built into the wiki as Markdown, where raw HTML (and so <script>) passes through
    repo = make_repo(tmp_path)
    (repo / "docs").mkdir()
    (repo / "docs" / "index.md").write_text("# Welcome\n<script>steal()</script>\n")
    commit(repo)
    r = check(repo, "chidi-nomic")
    assert r.returncode == 1
    assert "docs/index.md: changes a file outside content/" in r.stdout
    r = check(repo, "alice-nomic")  # an admin of the game
    assert r.returncode == 0, r.stdout
    assert "change outside the games by an admin" in r.stdout


def test_an_admin_may_change_the_engine_in_a_pr_of_its_own(tmp_path):
    repo = make_repo(tmp_path)
    (repo / "schemas").mkdir()
    (repo / "schemas" / "x.schema.json").write_text("{}\n")
    commit(repo)
    assert check(repo, "bruno-nomic").returncode == 0
    assert check(repo, "chidi-nomic").returncode == 1


@pytest.mark.parametrize("name", [".nomic-journal.json", ".roster.yaml.nomic-tmp", "notes.md"])
def test_stray_files_in_a_game_folder_need_an_admin(tmp_path, name):
    # a committed journal would be replayed by the next player's nomic act: never from a pull request
    repo = make_repo(tmp_path)
    (repo / GAME / name).write_text('[[".x.nomic-tmp", "/etc/passwd"]]\n')
    commit(repo)
    r = check(repo, "chidi-nomic")
    assert r.returncode == 1
    assert f"{GAME}/{name}: not a game file" in r.stdout


@pytest.mark.parametrize("path, where", [
    ("content/index.md", "directly in content/, in no game"),
    ("content/evil/index.md", "in content/evil/, which is no game (no game.yaml there, at the base or in this pull "
                              "request)")])
def test_a_file_in_content_beside_the_games_needs_an_admin_on_its_own_path(tmp_path, path, where):
    # neither a game removed (said on a game.yaml that is not there) nor a file "outside content/": it is in content/,
    # in no game, and the verdict names it
    repo = make_repo(tmp_path)
    (repo / path).parent.mkdir(parents=True, exist_ok=True)
    (repo / path).write_text("<script>alert(1)</script>\n")
    commit(repo)
    r = check(repo, "chidi-nomic")
    assert r.returncode == 1, r.stdout
    assert f"{path}: a file {where}; players change only their game's files" in r.stdout, r.stdout
    assert "removed" not in r.stdout and "outside content/" not in r.stdout, r.stdout
    r = check(repo, "bruno-nomic")  # an admin may, as outside the games, and the note says what it is
    assert r.returncode == 0, r.stdout
    assert f"note: {path}: a file {where}, by an admin (bruno-nomic)" in r.stdout, r.stdout


# ---------------------------------------------------------------- names that pass for others


@pytest.mark.parametrize("name", ["Chid\u0456",  # Cyrillic i
                                  "\u0421hidi",  # Cyrillic Es
                                  "\uff23hidi",  # fullwidth C
                                  "Chidi\u200b",  # zero-width space
                                  "Ch\u0131di",  # dotless i
                                  "Chidi\n"])  # a line break at the end, which Python's "$" lets through
def test_a_look_alike_name_cannot_join(tmp_path, name):
    repo = make_repo(tmp_path)
    before = snapshot(repo / "content")
    r = nomic(repo, "act", "blognomic", "core.join", "account=mallory", "--as", name, "--at",
              "2026-11-06T10:00:00Z", *NOW)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "actor: " in r.stdout and "is not a player's name" in r.stdout
    assert "Traceback" not in r.stdout + r.stderr
    assert snapshot(repo / "content") == before


@pytest.mark.parametrize("name", ["chidi", "CHIDI", "Chi di", "Chi_di"])
def test_a_name_differing_only_by_case_or_spacing_cannot_join(tmp_path, name):
    repo = make_repo(tmp_path)
    r = nomic(repo, "act", "blognomic", "core.join", "account=mallory", "--as", name, "--at",
              "2026-11-06T10:00:00Z", *NOW)
    assert r.returncode == 1, r.stdout
    assert "is too like 'Chidi', who is already playing" in r.stdout


# the roster's name and the actor as YAML writes them: a Cyrillic Es, and a line break at the end (a schema's "$"
# matches at the very end only, as JSON Schema means it, not before a final line break as Python's does)
@pytest.mark.parametrize("written", ["\u0421hidi", '"Chidi\\n"'])
def test_a_look_alike_name_written_into_the_roster_is_refused(tmp_path, written):
    repo = make_repo(tmp_path)
    act(repo, "core.join", "account=mallory", "--as", "Mallory")
    roster = repo / GAME / "gamestate" / "roster.yaml"
    roster.write_text(roster.read_text().replace("name: Mallory", f"name: {written}"))
    path = next((repo / GAME / "actions").glob("*--Mallory--core.join.yaml"))
    path.write_text(path.read_text().replace("actor: Mallory", f"actor: {written}")
                    .replace("joined: Mallory", f"joined: {written}"))
    commit(repo)
    r = check(repo, "mallory")
    assert r.returncode == 2, r.stdout
    assert re.search(r"roster\.yaml:\d+:\d+: players\[6\]\.name: .* is not a player's name", r.stdout), r.stdout
    assert "Traceback" not in r.stdout + r.stderr


def test_a_second_name_for_the_same_account_is_refused(tmp_path):
    repo = make_repo(tmp_path)
    r = nomic(repo, "act", "blognomic", "core.join", "account=Chidi-Nomic", "--as", "Zed", "--at",
              "2026-11-06T10:00:00Z", *NOW)
    assert r.returncode == 1
    assert "the account Chidi-Nomic already plays as Chidi" in r.stdout


# ---------------------------------------------------------------- links and paths out of the game


def test_a_symlinked_gamestate_file_is_refused(tmp_path):
    repo = make_repo(tmp_path)
    secret = tmp_path / "secret.yaml"
    secret.write_text("password: hunter2\n")
    roster = repo / GAME / "gamestate" / "roster.yaml"
    roster.unlink()
    os.symlink(secret, roster)
    commit(repo)
    r = check(repo, "chidi-nomic")
    assert r.returncode == 2, r.stdout
    assert f"{GAME}/gamestate/roster.yaml" in r.stdout and "symbolic link" in r.stdout
    assert "hunter2" not in r.stdout


def test_a_symlinked_gamestate_folder_is_refused(tmp_path):
    # every file under it is a plain file: the link is the folder, and must be seen all the same
    repo = make_repo(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    (repo / GAME / "gamestate").rename(elsewhere)
    roster = elsewhere / "roster.yaml"
    roster.write_text(roster.read_text().replace("admin: false", "admin: true"))
    os.symlink(elsewhere, repo / GAME / "gamestate")
    commit(repo)
    for args in (["check", "--base", "main", "--author", "chidi-nomic"], ["check"]):
        r = nomic(repo, *args, *NOW)
        assert r.returncode == 2, r.stdout
        assert "symbolic link" in r.stdout
        assert "Traceback" not in r.stdout + r.stderr


def test_a_symlinked_action_file_is_refused(tmp_path):
    repo = make_repo(tmp_path)
    act(repo, "core.vote", "proposal=3", "vote=FOR", "--as", "Dana")
    path = next((repo / GAME / "actions").glob("20261106T100000Z--Dana--*"))
    real = tmp_path / "vote.yaml"
    real.write_text(path.read_text())
    path.unlink()
    os.symlink(real, path)
    commit(repo)
    r = check(repo, "dana-nomic")
    assert r.returncode == 2, r.stdout
    assert "symbolic link" in r.stdout


@pytest.mark.parametrize("args", [
    ["act", "../../../tmp", "core.vote", "--as", "Dana"],
    ["act", "blognomic/../..", "core.vote", "--as", "Dana"],
    ["check", "--game", "../content/blognomic"],
    ["replay", "../x"],
])
def test_a_game_name_that_is_a_path_is_refused(tmp_path, args):
    repo = make_repo(tmp_path)
    before = snapshot(tmp_path)
    r = nomic(repo, *args)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "is not a game's name" in r.stdout
    assert snapshot(tmp_path) == before


def test_a_rule_id_that_is_a_path_is_refused(tmp_path):
    repo = make_repo(tmp_path)
    before = snapshot(tmp_path)
    effects = '{rules: [{op: add, id: "../../../validators/engine", title: x, body: "import os"}]}'
    r = nomic(repo, "act", "blognomic", "core.propose", "title=Escape", f"effects={effects}", "--as", "Chidi",
              "--at", "2026-11-06T10:00:00Z", *NOW)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "params.effects.rules[0].id" in r.stdout
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("path, says", [
    ("/../../../etc/passwd", "no gamestate document '..'"),
    ("/roster/../../etc", "no key '..'"),
    ("/ledger/head", "the ledger is kept by the engine"),
])
def test_a_gamestate_patch_that_climbs_out_is_refused(path, says):
    # a proposal's patch names documents, never files: each segment is a key inside the state
    from validators.content import WorkTree, load_game
    from validators.effects import apply_effects
    from validators.engine import TICK, Ctx
    from validators.problems import Illegal
    from validators.timeutil import parse_time

    files = load_game(WorkTree(Path(__file__).resolve().parent.parent), "blognomic")
    at = parse_time("2026-11-06T10:00:00Z")
    ctx = Ctx(files.state, TICK, {"at": "2026-11-06T10:00:00Z", "actor": "Alice", "action": TICK.name}, at,
              files.registry)
    with pytest.raises(Illegal) as e:
        apply_effects(ctx, {"gamestate": [{"op": "replace", "path": path, "value": "x"}]}, "proposal 9", "x")
    assert says in str(e.value)
    assert ctx.tx.docs.get("roster", files.state.docs["roster"]) == files.state.docs["roster"]


def test_a_parameter_read_from_a_symlink_is_refused(tmp_path):
    repo = make_repo(tmp_path)
    (tmp_path / "secret.txt").write_text("hunter2\n")
    os.symlink(tmp_path / "secret.txt", repo / "text.md")
    r = nomic(repo, "act", "blognomic", "core.propose", "title=T", f"text=@{repo / 'text.md'}", "--as", "Chidi",
              "--at", "2026-11-06T10:00:00Z", *NOW)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "symbolic link" in r.stdout
    assert not list((repo / GAME / "actions").glob("20261106*"))


def test_git_sees_no_trace_of_a_refused_act(tmp_path):
    repo = make_repo(tmp_path)
    r = nomic(repo, "act", "blognomic", "core.enact", "proposal=3", "--as", "Chidi", "--at",
              "2026-11-06T10:00:00Z", *NOW)
    assert r.returncode == 1
    assert git(repo, "status", "--porcelain", "--untracked-files=all", "content") == ""


@pytest.mark.parametrize("name, record, wrong", [
    ("20261106T100000Z--Dana--core.vote.yaml", {}, []),
    ("20261106T100000Z--Dana_Scully--core.vote.yaml", {"actor": "Dana Scully"}, []),  # the name slugged
    ("20261106T100001Z--Dana--core.vote.yaml", {}, ["at"]),
    ("20261106T100000Z--Dana--core.enact.yaml", {}, ["action"]),
    ("20261106T100000Z--Dana--core.vote.yaml", {"actor": "Dana Scully"}, ["actor"]),
    ("20261106T100000Z--Chidi--core.enact.yaml", {"at": "2026-11-07T10:00:00Z"}, ["at", "actor", "action"]),
    ("notes.yaml", {"actor": "Chidi"}, []),  # not an action file's name: nothing to compare
])
def test_an_action_files_name_repeats_its_time_actor_and_action(name, record, wrong):
    from validators.check import name_mismatch

    record = {"at": "2026-11-06T10:00:00Z", "actor": "Dana", "action": "core.vote", **record}
    text = "".join(f"{k}: {v}\n" for k, v in record.items())
    problems = name_mismatch(f"content/blognomic/actions/{name}", record, text)
    assert [p.field for p in problems] == wrong
    for p in problems:
        assert p.line == 1 + list(record).index(p.field)  # on the record's own line


@pytest.mark.parametrize("nofollow", [True, False])  # opened never through a link, or looked at first
def test_a_work_trees_read_refuses_what_is_not_a_plain_file_inside_it(tmp_path, monkeypatch, nofollow):
    from validators import content
    from validators.content import WorkTree
    from validators.problems import BadInput
    from validators.yamlio import MAX_FILE_BYTES

    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "ok.yaml").write_bytes(b"a: 1\n")
    (tmp_path / "c" / "empty.yaml").write_bytes(b"")
    os.symlink("ok.yaml", tmp_path / "c" / "link.yaml")
    os.symlink(tmp_path / "c", tmp_path / "linked")
    os.mkfifo(tmp_path / "c" / "pipe.yaml")  # opened without waiting for a writer
    with open(tmp_path / "c" / "big.yaml", "wb") as f:
        f.truncate(MAX_FILE_BYTES + 1)
    if not nofollow:
        monkeypatch.setattr(content, "_NOFOLLOW", 0)
    tree = WorkTree(tmp_path)
    assert tree.read("c/ok.yaml") == b"a: 1\n" and tree.read("c/empty.yaml") == b""
    for path, why in [("c/link.yaml", "may not be symbolic links"), ("linked/ok.yaml", "may not be symbolic links"),
                      ("c/pipe.yaml", "not a regular file"), ("c", "not a regular file"),
                      ("c/missing.yaml", "does not exist"), ("c/big.yaml", "larger than")]:
        with pytest.raises(BadInput) as e:
            tree.read(path)
        assert [p.file for p in e.value.problems] == [path]
        assert why in e.value.problems[0].message, (path, e.value.problems[0].message)


def test_a_work_tree_reads_a_file_that_grew_after_it_was_looked_at(tmp_path, monkeypatch):
    # fstat reports the size first; a file written to in between is still read to its end, and one that
    # grew past the limit is refused
    from validators import content
    from validators.content import WorkTree
    from validators.problems import BadInput

    real = os.fstat

    def earlier(fd):  # the file as it was a moment before: 3 bytes long
        st = list(real(fd))
        st[6] = min(st[6], 3)
        return os.stat_result(st)

    (tmp_path / "grown.yaml").write_bytes(b"a: 1\nb: 2\n")
    monkeypatch.setattr(content.os, "fstat", earlier)
    assert WorkTree(tmp_path).read("grown.yaml") == b"a: 1\nb: 2\n"
    monkeypatch.setattr(content.yamlio, "MAX_FILE_BYTES", 5)
    with pytest.raises(BadInput) as e:
        WorkTree(tmp_path).read("grown.yaml")
    assert "larger than 5 bytes" in e.value.problems[0].message
