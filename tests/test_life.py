"""The life of a game: a new game, the admin's desk, ticks, the pull-request comment, hidden choices."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.gitgame import commit, git, make_repo, nomic


def test_new_game_from_an_example_checks_and_takes_players(tmp_path):
    repo = make_repo(tmp_path)
    r = nomic(repo, "new", "pirates", "--from", "blognomic", "--title", "Pirates", "--now", "2026-11-22T00:00:00Z")
    assert r.returncode == 0, r.stdout + r.stderr
    game = repo / "content" / "pirates"
    # the rule as it stands, founded with the new game (its --now, no --at), not on the example's date
    assert (game / "initial" / "ruleset" / "enactment.md").read_text() == \
        (repo / "content" / "blognomic" / "ruleset" / "enactment.md").read_text().replace(
            "at: 2026-11-01T00:00:00Z", "at: 2026-11-22T00:00:00Z")
    assert "players: []" in (game / "gamestate" / "roster.yaml").read_text()
    assert "proposals: []" in (game / "gamestate" / "proposals.yaml").read_text()
    r = nomic(repo, "act", "pirates", "core.join", "account=ann-gh", "--as", "Ann", "--at", "2026-11-22T01:00:00Z",
              "--now", "2026-11-22T02:00:00Z")
    assert r.returncode == 0, r.stdout
    r = nomic(repo, "check", "--game", "pirates", "--now", "2026-11-22T02:00:00Z")
    assert r.returncode == 0, r.stdout
    assert "1 action replayed" in r.stdout


def _new_game_pr(tmp_path):
    repo = make_repo(tmp_path)
    r = nomic(repo, "new", "pirates", "--from", "blognomic", "--now", "2026-11-22T00:00:00Z")
    assert r.returncode == 0, r.stdout + r.stderr
    r = nomic(repo, "act", "pirates", "core.join", "account=ann-gh", "--as", "Ann", "--at", "2026-11-22T01:00:00Z",
              "--now", "2026-11-22T02:00:00Z")
    assert r.returncode == 0, r.stdout
    return repo


def test_a_new_game_by_an_admin_is_checked_like_the_audit_and_passes(tmp_path):
    repo = _new_game_pr(tmp_path)
    commit(repo)
    r = nomic(repo, "check", "--base", "main", "--head", "HEAD", "--author", "bruno-nomic",
              "--now", "2026-11-22T02:00:00Z")
    assert r.returncode == 0, r.stdout
    assert "pirates: a new game, by an admin (bruno-nomic)" in r.stdout
    assert "pirates: 1 action replayed from initial/" in r.stdout
    assert "not audited" not in r.stdout  # from its founding configuration, initial/game.yaml, at the head commit
    # the same pull request by a player who is no admin needs one
    r = nomic(repo, "check", "--base", "main", "--head", "HEAD", "--author", "chidi-nomic",
              "--now", "2026-11-22T02:00:00Z")
    assert r.returncode == 1 and "creating a game needs an admin" in r.stdout, r.stdout


def test_a_new_game_by_an_admin_whose_log_does_not_replay_is_refused(tmp_path):
    repo = _new_game_pr(tmp_path)
    roster = repo / "content" / "pirates" / "gamestate" / "roster.yaml"
    roster.write_text(roster.read_text().replace("name: Ann", "name: Anne"))
    commit(repo)
    r = nomic(repo, "check", "--base", "main", "--head", "HEAD", "--author", "bruno-nomic",
              "--now", "2026-11-22T02:00:00Z")
    assert r.returncode == 1, r.stdout
    assert "content/pirates/gamestate/roster.yaml" in r.stdout and "replay gives" in r.stdout


def test_a_new_game_without_its_founding_configuration_is_refused(tmp_path):
    # only games founded before initial/game.yaml was written replay with the current game.yaml, unaudited
    repo = _new_game_pr(tmp_path)
    (repo / "content" / "pirates" / "initial" / "game.yaml").unlink()
    commit(repo)
    r = nomic(repo, "check", "--base", "main", "--head", "HEAD", "--author", "bruno-nomic",
              "--now", "2026-11-22T02:00:00Z")
    assert r.returncode == 2, r.stdout
    assert ("content/pirates/initial/game.yaml: a new game holds the configuration it is founded with in "
            "initial/game.yaml") in r.stdout, r.stdout


def test_removing_a_game_needs_an_admin(tmp_path):
    repo = make_repo(tmp_path)
    assert nomic(repo, "new", "pirates", "--from", "blognomic", "--now", "2026-11-22T00:00:00Z").returncode == 0
    commit(repo)
    git(repo, "branch", "-f", "main", "HEAD")  # the base holds two games; the pull request removes one
    git(repo, "rm", "-rq", "content/pirates")
    commit(repo)
    r = nomic(repo, "check", "--base", "main", "--head", "HEAD", "--author", "chidi-nomic")
    assert r.returncode == 1 and "the game 'pirates' was removed: that needs an admin" in r.stdout, r.stdout
    r = nomic(repo, "check", "--base", "main", "--head", "HEAD", "--author", "bruno-nomic")
    assert r.returncode == 0, r.stdout
    assert "pirates: the game was removed, by an admin (bruno-nomic)" in r.stdout


def test_new_game_with_founding_admins_can_enact_its_first_proposal(tmp_path):
    # seed 001 1.5: only an admin enacts a proposal; players who join by core.join are never admins, so the
    # founders are named when the game is made, in the founding state (initial/) as in gamestate/
    repo = make_repo(tmp_path)
    r = nomic(repo, "new", "pirates", "--from", "blognomic", "--admin", "Ann=ann-gh", "--admin", "Bo=bo-gh",
              "--now", "2026-11-22T00:00:00Z")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "the admins Ann, Bo on the roster" in r.stdout and "warning" not in r.stdout
    game = repo / "content" / "pirates"
    for part in ("", "initial/"):
        roster = (game / f"{part}gamestate" / "roster.yaml").read_text()
        assert "- name: Ann\n    account: ann-gh\n    admin: true\n" in roster, roster
        assert "joined: 2026-11-22T00:00:00Z" in roster
    # the example's description (its handful of Colonists and its CfJ) is not the new game's
    assert "description" not in (game / "game.yaml").read_text()
    now = ("--now", "2026-11-23T02:00:00Z")
    r = nomic(repo, "act", "pirates", "core.propose", "title=Proposal: Rum", "--as", "Bo",
              "--at", "2026-11-22T01:00:00Z", *now)
    assert r.returncode == 0, r.stdout
    r = nomic(repo, "act", "pirates", "core.vote", "proposal=1", "vote=FOR", "--as", "Ann",
              "--at", "2026-11-22T02:00:00Z", *now)
    assert r.returncode == 0, r.stdout
    r = nomic(repo, "act", "pirates", "core.enact", "proposal=1", "--as", "Ann", "--at", "2026-11-22T13:00:00Z", *now)
    assert r.returncode == 0, r.stdout
    r = nomic(repo, "check", "--game", "pirates", *now)
    assert r.returncode == 0 and "3 actions replayed" in r.stdout, r.stdout


def test_new_game_without_an_admin_warns_that_nobody_could_enact(tmp_path):
    repo = make_repo(tmp_path)
    r = nomic(repo, "new", "pirates", "--from", "blognomic", "--now", "2026-11-22T00:00:00Z")
    assert r.returncode == 0, r.stdout + r.stderr
    assert ("warning: pirates has no admin, and only admins may enact proposals or resolve CfJs: remove "
            "content/pirates and run nomic new again with --admin NAME=LOGIN (repeatable)") in r.stdout


def test_new_game_admin_not_name_equals_login_is_bad_input(tmp_path):
    repo = make_repo(tmp_path)
    r = nomic(repo, "new", "pirates", "--from", "blognomic", "--admin", "Ann")
    assert r.returncode == 2, r.stdout
    assert "--admin: 'Ann' is not NAME=LOGIN" in r.stdout and "like --admin Anne=anne-gh" in r.stdout
    assert not (repo / "content" / "pirates").exists()


def test_new_game_with_a_login_the_roster_cannot_hold_is_refused_before_it_is_written(tmp_path):
    # once written, then told "content/pirates does not pass the check yet" at roster.yaml:5:14; the login is the
    # command line's mistake, refused on --admin with nothing written
    repo = make_repo(tmp_path)
    r = nomic(repo, "new", "pirates", "--from", "blognomic", "--admin", "Ann=ann gh")
    assert r.returncode == 2, r.stdout
    assert r.stdout.startswith("--admin: LOGIN 'ann gh' is not a login on the forge (GitHub)"), r.stdout
    assert "does not pass the check yet" not in r.stdout
    assert not (repo / "content" / "pirates").exists()


def test_an_action_dated_before_a_new_game_began_is_told_so(tmp_path):
    # G7 Time: a new game's clock is its founding; with no action yet there is no "last action" to name
    repo = make_repo(tmp_path)
    assert nomic(repo, "new", "pirates", "--from", "blognomic", "--admin", "Ann=ann-gh",
                 "--now", "2026-11-22T00:00:00Z").returncode == 0
    r = nomic(repo, "act", "pirates", "core.join", "account=bo-gh", "--as", "Bo", "--at", "2026-11-21T09:00:00Z",
              "--now", "2026-11-22T02:00:00Z")
    assert r.returncode == 1, r.stdout
    assert ("at: dated 2026-11-21T09:00:00Z, before the game began (2026-11-22T00:00:00Z, the clock its founding "
            "state gives); a game's actions come after its founding [rule: G7 Time]") in r.stdout, r.stdout


def test_new_game_refuses_an_existing_folder(tmp_path):
    repo = make_repo(tmp_path)
    r = nomic(repo, "new", "blognomic", "--from", "blognomic")
    assert r.returncode == 2 and "already exists" in r.stdout


def test_due_lists_what_admins_may_do(tmp_path):
    repo = make_repo(tmp_path)
    r = nomic(repo, "due", "blognomic", "--at", "2026-11-05T10:00:00Z")
    assert r.returncode == 0
    assert "proposal 3 may be failed from 2026-11-06T09:00:00Z if the votes stand" in r.stdout
    r = nomic(repo, "due", "blognomic", "--at", "2026-11-13T10:00:00Z")
    assert "an admin may fail proposal 3 now: open 48 hours with 2 of 4 votes FOR: half or fewer" in r.stdout
    assert "an admin may make Fatima idle (last acted 2026-11-02T10:00:00Z)" in r.stdout
    assert "make Emeka idle" not in r.stdout  # already idle


def test_tick_with_nothing_due_writes_nothing(tmp_path):
    repo = make_repo(tmp_path)
    before = sorted(p.name for p in (repo / "content" / "blognomic" / "actions").iterdir())
    r = nomic(repo, "tick", "blognomic", "--as", "nomic-tick", "--at", "2026-11-22T00:05:00Z",
              "--now", "2026-11-22T00:05:00Z")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "blognomic: nothing due" in r.stdout
    assert sorted(p.name for p in (repo / "content" / "blognomic" / "actions").iterdir()) == before


def test_a_tick_refused_for_its_name_is_placed_on_as_not_in_the_file_it_did_not_write(tmp_path):
    """A tick by a name no roster could hold (common.schema.json's name) is refused; the refusal named the action
    file it did not write (content/settlement/actions/...--bad_name_--engine.tick.yaml), now the --as typed."""
    repo = make_repo(tmp_path, "settlement")
    r = nomic(repo, "tick", "settlement", "--as", "bad name!", "--at", "2026-11-24T08:00:00Z",
              "--now", "2026-11-24T08:00:00Z")
    assert r.returncode == 2 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    assert r.stdout.startswith("--as: 'bad name!' is not a player's name: 1 to 40 ASCII letters"), r.stdout
    assert "content/settlement/actions/" not in r.stdout, r.stdout
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""
    r = nomic(repo, "tick", "settlement", "--as", "Gwen", "--at", "2026-11-24T08:00:00Z",
              "--now", "2026-11-24T08:00:00Z")
    assert r.returncode == 0 and "scheduled events applied" in r.stdout, r.stdout + r.stderr


def test_markdown_comment_has_verdicts_rules_and_changes(tmp_path):
    repo = make_repo(tmp_path)
    r = nomic(repo, "act", "blognomic", "core.propose", "title=<script>alert(1)</script> | Stop",
              "--as", "Chidi", "--at", "2026-11-06T10:00:00Z", "--now", "2026-11-22T00:00:00Z")
    assert r.returncode == 0, r.stdout
    commit(repo)
    r = nomic(repo, "check", "--base", "main", "--author", "chidi-nomic", "--format", "markdown",
              "--now", "2026-11-22T00:00:00Z")
    assert r.returncode == 0, r.stdout
    body = r.stdout
    assert body.startswith("<!-- nomic-check -->\n### nomic check: ✅ **Legal.**")
    assert "| `core.propose` (`20261106T100000Z--Chidi--core.propose.yaml`) | `Chidi` |" in body
    assert "| `proposal 4` | `added` |" in body
    assert "<script>" not in body and "&lt;script&gt;" in body
    assert "\\| Stop" in body
    r = nomic(repo, "check", "--base", "main", "--author", "dana-nomic", "--format", "markdown",
              "--now", "2026-11-22T00:00:00Z")
    assert r.returncode == 1
    assert "players act only for themselves — rule **who may act**" in r.stdout
    assert "**What changes**" not in r.stdout


def test_hash_prints_the_commit_and_reveal_commands(tmp_path):
    repo = make_repo(tmp_path)
    r = nomic(repo, "hash", "rock", "--label", "pick", "--salt", "s1")
    assert "hash: 1f2ac17e3585839f27874ade4618e0a8d51db4442da54e90f77cfd7afdff4cc8" in r.stdout
    assert re.search(r"engine.reveal label=pick secret=\.\.\. salt=s1", r.stdout)


@pytest.mark.parametrize("args, says", [
    (["--label", "my pick"], "--label: 'my pick' is not a label of 1 to 60 letters, digits, dots, dashes or "
                             "underscores, no spaces"),
    (["--label", "pick", "--salt", "s" * 201], "--salt: 'sssssssss"),
    (["--label", "pick"], "secret: is 2001 characters long; engine.reveal takes at most 2000"),
])
def test_hash_refuses_what_the_commands_it_prints_would_refuse(tmp_path, args, says):
    """``nomic hash`` prints an engine.commit and an engine.reveal to take: a label, secret or salt those actions
    refuse (a space in the label, which also breaks the printed command) is refused first, and a secret too long
    is told by its length, never shown."""
    repo = make_repo(tmp_path)
    secret = "x" * 2001 if "secret" in says else "rock"
    r = nomic(repo, "hash", secret, *args)
    assert r.returncode == 2 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    assert any(line.startswith(says) for line in r.stdout.splitlines()), r.stdout
    assert "x" * 100 not in r.stdout and "engine.commit" not in r.stdout
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""


@pytest.mark.parametrize("secret", ["  my rock ", "'rock'"])
def test_hash_refuses_a_secret_the_reveal_it_prints_would_not_keep(tmp_path, secret):
    """Blanks around a secret, or quotes around it, are not kept by `secret=...` typed to engine.reveal (nomic act
    reads the value as YAML): the reveal would not have matched the hash nomic hash printed. Refused first, the
    secret never shown; the same secret without them commits and reveals."""
    repo = make_repo(tmp_path)
    r = nomic(repo, "hash", secret, "--label", "pick", "--salt", "s1")
    assert r.returncode == 2 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    assert r.stdout.startswith("secret: begins or ends with blanks, or begins with a quote"), r.stdout
    assert "rock" not in r.stdout and "engine.commit" not in r.stdout
    plain = secret.strip().strip("'")
    h = re.search(r"^hash: (\w+)$", nomic(repo, "hash", plain, "--label", "pick", "--salt", "s1").stdout, re.M)[1]
    at = ["--as", "Dana", "-q", "--now", "2026-11-22T12:00:00Z"]
    assert nomic(repo, "act", "blognomic", "engine.commit", "label=pick", f"hash={h}", "--at", "2026-11-06T10:00:00Z",
                 *at).returncode == 0
    r = nomic(repo, "act", "blognomic", "engine.reveal", "label=pick", f"secret={plain}", "salt=s1", "--at",
              "2026-11-06T10:00:01Z", *at)
    assert r.returncode == 0, r.stdout + r.stderr


def test_hash_refuses_an_empty_salt_or_secret_and_quotes_a_salt_with_spaces(tmp_path):
    """README: an option given empty is refused; --salt "" was taken as left out (a random salt), and an empty
    secret hashed as a hidden choice of nothing. A salt with a
    space was printed bare in the reveal command (salt=a b: the shell makes two words of it): quoted, it reveals."""
    repo = make_repo(tmp_path)
    r = nomic(repo, "hash", "rock", "--label", "pick", "--salt", "")
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stdout + r.stderr
    assert r.stdout.startswith("--salt: is empty: give a salt"), r.stdout
    r = nomic(repo, "hash", "", "--label", "pick")  # nomic hash "$CHOICE", CHOICE unset: a commitment to nothing
    assert r.returncode == 2 and r.stdout.startswith("secret: is empty: give your hidden choice"), r.stdout
    r = nomic(repo, "hash", "rock", "--label", "pick", "--salt", " s1")
    assert r.returncode == 2 and r.stdout.startswith("--salt: begins or ends with blanks"), r.stdout
    r = nomic(repo, "hash", "rock", "--label", "pick", "--salt", "a b")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "  nomic act GAME engine.reveal label=pick secret=... 'salt=a b' --as NAME" in r.stdout.splitlines()
    h = re.search(r"^hash: (\w+)$", r.stdout, re.M)[1]
    at = ["--as", "Dana", "-q", "--now", "2026-11-22T12:00:00Z"]
    assert nomic(repo, "act", "blognomic", "engine.commit", "label=pick", f"hash={h}", "--at", "2026-11-06T10:00:00Z",
                 *at).returncode == 0
    r = nomic(repo, "act", "blognomic", "engine.reveal", "label=pick", "secret=rock", "salt=a b", "--at",
              "2026-11-06T10:00:01Z", *at)
    assert r.returncode == 0, r.stdout + r.stderr


def test_completion_script_mentions_every_command(tmp_path):
    repo = make_repo(tmp_path)
    r = nomic(repo, "completion", "bash")
    assert r.returncode == 0
    for cmd in ("act", "check", "pr", "fmt", "build", "replay", "due", "tick", "new"):
        assert cmd in r.stdout
    assert "complete -F _nomic nomic" in r.stdout


def test_version_names_the_installed_package_s_version(tmp_path):
    from importlib.metadata import version

    import tomllib

    repo = make_repo(tmp_path)
    r = nomic(repo, "--version")
    assert r.returncode == 0, r.stdout + r.stderr
    declared = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text())["project"]["version"]
    assert r.stdout.strip() == f"nomic {version('nomic-as-code')}" == f"nomic {declared}"


def test_every_dance_gets_its_own_step_by_step_page():
    from validators.content import WorkTree, load_game, read_action
    from validators.games.monkey.pages import dance_action_page

    files = load_game(WorkTree("."), "monkey")
    dances = [p for p in files.actions if p.endswith("--monkey.dance.yaml")]
    assert len(dances) >= 2
    pages = [dance_action_page(read_action(WorkTree("."), p)) for p in dances]
    assert all(page is not None for page in pages)
    assert len({page.slug for page in pages}) == len(pages)
    assert all("executed" in page.markdown for page in pages)
    vote = next(p for p in files.actions if p.endswith("--core.vote.yaml"))
    assert dance_action_page(read_action(WorkTree("."), vote)) is None


def test_earlier_dynasties_stay_on_the_game_page():
    import copy

    from site_plugins.home import Summary, render_game_home
    from site_plugins.links import Links
    from validators.content import WorkTree, load_game

    state = copy.deepcopy(load_game(WorkTree("."), "blognomic").state)
    state.docs["dynasty"]["past"] = [{"number": 1, "leader": "Alice", "title": "The First Dynasty of <b>Alice</b>",
                                      "theme": "Colony", "started": "2026-10-01T00:00:00Z",
                                      "ended": "2026-11-10T00:00:00Z", "winner": "Chidi"}]
    import inspect

    fields = inspect.signature(Summary).parameters
    summary = Summary(**{k: ("" if p.annotation in ("str", str) else 0) if p.default is inspect._empty else p.default
                         for k, p in fields.items()})
    links = Links("blognomic", "games/blognomic/index.md", {}, True, "", "main")
    html = render_game_home(state, summary, links, [])
    assert "Earlier dynasties" in html
    assert "The First Dynasty of &lt;b&gt;Alice&lt;/b&gt;" in html and "Chidi" in html


def test_help_of_new_and_act_says_what_they_take(tmp_path):
    repo = make_repo(tmp_path)
    r = nomic(repo, "new", "--help")
    assert r.returncode == 0
    text = " ".join(r.stdout.split())
    assert "a roster of the founding admins given with --admin" in text
    assert "--admin NAME=LOGIN a founding player who is an admin from the start (repeatable)" in text
    assert "game the new game's folder name" in text
    r = nomic(repo, "act", "--help")
    text = " ".join(r.stdout.split())
    assert ("`nomic act GAME ACTION --list --as NAME` shows one action's parameters, who may take it and its "
            "rule") in text
    assert "action the action, like core.vote (see --list)" in text
    # new's options complete too
    assert 'new) COMPREPLY=( $(compgen -W "--from --title --at --admin"' in nomic(repo, "completion", "bash").stdout


def test_a_tick_in_the_future_is_refused_before_it_is_written(tmp_path):
    # G7 Time: the check refuses an action dated after its clock, so such a tick would only fail in CI
    repo = make_repo(tmp_path, "monkey")
    before = sorted(p.name for p in (repo / "content" / "monkey" / "actions").iterdir())
    r = nomic(repo, "tick", "monkey", "--as", "nomic-tick", "--at", "2026-12-01T00:00:00Z",
              "--now", "2026-11-23T12:00:00Z")
    assert r.returncode == 2, r.stdout
    assert ("--at: 2026-12-01T00:00:00Z is in the future (now is 2026-11-23T12:00:00Z): a tick applies the events "
            "that have fallen due; `nomic due GAME --at TIME` shows what a later time holds") in r.stdout
    assert sorted(p.name for p in (repo / "content" / "monkey" / "actions").iterdir()) == before


def test_new_game_at_a_time_begins_then_and_never_in_the_future(tmp_path):
    # G7 Time: a game carried over from elsewhere may be founded at an earlier time; its actions come after it
    repo = make_repo(tmp_path)
    now = ("--now", "2026-11-23T12:00:00Z")
    r = nomic(repo, "new", "pirates", "--from", "blognomic", "--admin", "Ann=ann-gh",
              "--at", "2026-11-16T09:00:00+01:00", *now)
    assert r.returncode == 0, r.stdout + r.stderr
    game = repo / "content" / "pirates"
    assert "clock: 2026-11-16T08:00:00Z" in (game / "initial" / "gamestate" / "ledger.yaml").read_text()
    assert "joined: 2026-11-16T08:00:00Z" in (game / "initial" / "gamestate" / "roster.yaml").read_text()
    r = nomic(repo, "act", "pirates", "core.join", "account=bo-gh", "--as", "Bo", "--at", "2026-11-16T10:00:00Z", *now)
    assert r.returncode == 0, r.stdout
    r = nomic(repo, "new", "galleons", "--from", "blognomic", "--admin", "Ann=ann-gh", "--at", "2026-12-01T00:00:00Z",
              *now)
    assert r.returncode == 2, r.stdout
    assert ("--at: 2026-12-01T00:00:00Z is in the future (now is 2026-11-23T12:00:00Z): a game is founded now or in "
            "the past") in r.stdout
    assert not (repo / "content" / "galleons").exists()


def test_tick_counts_the_events_it_applied_in_words(tmp_path):
    repo = make_repo(tmp_path, "monkey")
    r = nomic(repo, "tick", "monkey", "--as", "nomic-tick", "--at", "2026-11-22T00:05:00Z",
              "--now", "2026-11-22T00:05:00Z")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "monkey: 1 scheduled event applied; wrote " in r.stdout and "(s)" not in r.stdout, r.stdout


def test_due_and_tick_see_the_deadlines_a_module_settles_itself(tmp_path):
    # ifMUD seed, Rule 27: a turn ends 24 hours after it began. The module applies such deadlines in its gate before
    # every action, not as engine events (docs/modules/ifmud.md, "Time"); the desk and the daily tick must see them,
    # or a quiet game's turn would stand still on main until somebody acted.
    repo = make_repo(tmp_path, "ifmud")
    r = nomic(repo, "due", "ifmud", "--at", "2026-11-05T04:00:00Z")
    assert r.returncode == 0 and "nothing to do" in r.stdout, r.stdout  # Zoe Abbott's turn (from 03:00) still runs
    r = nomic(repo, "tick", "ifmud", "--as", "nomic-tick", "--at", "2026-11-05T04:00:00Z",
              "--now", "2026-11-05T04:00:00Z")
    assert r.returncode == 0 and "ifmud: nothing due" in r.stdout, r.stdout
    r = nomic(repo, "due", "ifmud", "--at", "2026-11-06T04:00:00Z")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "the rules' own deadlines have fallen due since the last action" in r.stdout, r.stdout
    assert "anyone may apply them with `nomic tick ifmud --as NAME`" in r.stdout
    r = nomic(repo, "tick", "ifmud", "--as", "nomic-tick", "--at", "2026-11-06T04:00:00Z",
              "--now", "2026-11-06T04:00:00Z")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "ifmud: the deadlines that fell due (" in r.stdout and "changes) applied; wrote " in r.stdout, r.stdout
    turn = (repo / "content" / "ifmud" / "gamestate" / "turn.yaml").read_text()
    assert "active: Adam Biltcliffe" in turn and "started: 2026-11-06T03:00:00Z" in turn, turn
    assert nomic(repo, "check", "--game", "ifmud").returncode == 0


def test_a_tick_filed_in_a_pull_request_under_another_name_says_which_name_to_use(tmp_path):
    # docs/admins.md, "Scheduled events": a tick in a pull request is judged like any action, so it goes under the
    # author's roster name; the refusal names the command that files it so
    repo = make_repo(tmp_path, "monkey")
    r = nomic(repo, "tick", "monkey", "--as", "nomic-tick", "--at", "2026-11-22T00:05:00Z",
              "--now", "2026-11-22T00:05:00Z")
    assert r.returncode == 0, r.stdout + r.stderr
    commit(repo, "tick")
    r = nomic(repo, "check", "--base", "main", "--head", "HEAD", "--author", "abu-monkey",
              "--now", "2026-11-22T00:05:00Z")
    assert r.returncode == 1, r.stdout + r.stderr
    assert ("the actor is nomic-tick, but this pull request is by abu-monkey (who plays as Abu); players act only "
            "for themselves; a tick in a pull request is filed under your own name: nomic tick monkey --as Abu") \
        in r.stdout, r.stdout
    git(repo, "reset", "-q", "--hard", "main")
    r = nomic(repo, "tick", "monkey", "--as", "Abu", "--at", "2026-11-22T00:05:00Z", "--now", "2026-11-22T00:05:00Z")
    assert r.returncode == 0, r.stdout + r.stderr
    commit(repo, "tick")
    r = nomic(repo, "check", "--base", "main", "--head", "HEAD", "--author", "abu-monkey",
              "--now", "2026-11-22T00:05:00Z")
    assert r.returncode == 0, r.stdout
