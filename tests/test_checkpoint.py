"""Checkpoints (``nomic checkpoint``, validators/checkpoint.py): an admin settles the game as its files stand.

A judge that changes may refuse an action an earlier judge accepted; the game then fails its audit for ever.
The scenario here is made in real repositories: an earlier judge that let an idle Colonist propose is this
engine with that one refusal lifted (``older_judge``), which writes the action as ``nomic act`` did then. Today's
judge (the command line, a fresh process) refuses it, until an admin's checkpoint makes the game as it stands the
starting point of its audit.
"""

from __future__ import annotations

import dataclasses
import hashlib
import shutil
from pathlib import Path

import pytest

from tests.gitgame import check_pr_cli, commit, git, make_repo, nomic
from validators.act import act
from validators.content import WorkTree, load_game
from validators.timeutil import parse_time

GAME = "content/blognomic"
NOW = "2026-11-24T00:00:00Z"
HELD = 25  # the example's 24 actions and Emeka's proposal
THROUGH = "20261106T100000Z--Emeka--core.propose.yaml"


def run(repo: Path, *args: str):
    return nomic(repo, *args, "--now", NOW)


def older_judge(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Emeka, idle, proposes: a judge that let idle Colonists propose accepted it (seed 001 1.2 says they may not)."""
    registry = load_game(WorkTree(repo), "blognomic").registry
    lax = dataclasses.replace(registry.actions["core.propose"], idle_ok=True)
    monkeypatch.setitem(registry.actions, "core.propose", lax)
    result = act(repo, "blognomic", "core.propose", "Emeka", {"title": "Bring back the barn"},
                 parse_time("2026-11-06T10:00:00Z"), now=parse_time(NOW))
    assert result.step.legal and result.action_path.endswith(THROUGH), result.step.problems
    monkeypatch.undo()


@pytest.fixture
def settled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A game whose log holds an action today's judge refuses, on main."""
    repo = make_repo(tmp_path)
    git(repo, "checkout", "-q", "main")
    older_judge(repo, monkeypatch)
    commit(repo, "Emeka proposes, under the older judge")
    return repo


def test_todays_judge_refuses_the_settled_action_until_a_checkpoint(settled: Path) -> None:
    r = run(settled, "check")
    assert r.returncode == 1
    assert f"{GAME}/actions/{THROUGH}" in r.stdout and "Emeka is idle" in r.stdout

    r = run(settled, "checkpoint", "blognomic", "--as", "Alice", "--why", "the judge now refuses idle proposers")
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"after {THROUGH} ({HELD} actions since the game began)" in r.stdout
    cp = (settled / GAME / "initial/checkpoint.yaml").read_text(encoding="utf-8")
    # the digest of the held files, names and bytes in log order (the log's names sort as its order here)
    h = hashlib.sha256()
    for f in sorted((settled / GAME / "actions").iterdir()):
        h.update(f"{f.name}\0{len(f.read_bytes())}\0".encode() + f.read_bytes())
    assert cp == ("# yaml-language-server: $schema=../../../schemas/checkpoint.schema.json\n"
                  f"through: {THROUGH}\nactions: {HELD}\nstart:\n  actions: 0\n  head: ''\nfiles: {h.hexdigest()}\n"
                  f"at: {NOW}\nby: Alice\nwhy: the judge now refuses idle proposers\n")
    # the starting point is the game's files as they stand, each YAML file naming its schema from one folder deeper
    for rel in ("gamestate/proposals.yaml", "gamestate/roster.yaml", "gamestate/ledger.yaml", "game.yaml"):
        now, kept = (settled / GAME / rel).read_text(), (settled / GAME / "initial" / rel).read_text()
        assert kept.split("\n", 1)[1] == now.split("\n", 1)[1]
        assert kept.split("\n", 1)[0] == now.split("\n", 1)[0].replace("$schema=", "$schema=../")
    assert "Bring back the barn" in (settled / GAME / "initial/gamestate/proposals.yaml").read_text()
    assert sorted(p.name for p in (settled / GAME / "initial/ruleset").iterdir()) == \
        sorted(p.name for p in (settled / GAME / "ruleset").iterdir())

    r = run(settled, "check")
    assert r.returncode == 0, r.stdout
    assert (f"blognomic: 0 actions replayed from initial/ (the checkpoint of {NOW} by Alice holds the {HELD} "
            "actions before them, their files verified by the hash chain)") in r.stdout

    # the game goes on from its starting point: the actions after it are replayed and judged as ever
    r = run(settled, "act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Alice",
            "--at", "2026-11-06T11:00:00Z")
    assert r.returncode == 0, r.stdout + r.stderr
    r = run(settled, "check")
    assert r.returncode == 0 and "1 action replayed from initial/" in r.stdout, r.stdout


def test_the_pull_request_of_a_checkpoint(settled: Path) -> None:
    git(settled, "checkout", "-q", "-b", "checkpoint")
    r = run(settled, "checkpoint", "blognomic", "--as", "Alice", "--why", "the judge now refuses idle proposers")
    assert r.returncode == 0, r.stdout + r.stderr
    commit(settled, "checkpoint")
    ok = check_pr_cli(settled, "--base", "main", "--author", "alice-nomic", "--now", NOW)
    assert ok.returncode == 0, ok.stdout
    assert f"blognomic: a checkpoint by an admin (Alice), holding {HELD} actions through {THROUGH}" in ok.stdout
    # a player who is no admin may not settle the game: each file of initial/ says so
    r = check_pr_cli(settled, "--base", "main", "--author", "chidi-nomic", "--now", NOW)
    assert r.returncode == 1
    assert (f"{GAME}/initial/checkpoint.yaml: the game's starting point (initial/) may change only by an admin's "
            "checkpoint (chidi-nomic is no admin of blognomic)") in r.stdout
    assert f"{GAME}/initial/gamestate/proposals.yaml: the game's starting point" in r.stdout


@pytest.mark.parametrize("change, said", [
    # the copy must be the game's files: a stat changed on the way is refused at that file
    ("copy", f"{GAME}/initial/gamestate/roster.yaml: differs from {GAME}/gamestate/roster.yaml"),
    # the checkpoint names the pull request's author as its maker
    ("by", f"{GAME}/initial/checkpoint.yaml:9:5: by: should be 'Alice'"),
    # it holds the log through the base's last action, no earlier
    ("through", f"{GAME}/initial/checkpoint.yaml:2:10: through: should be '{THROUGH}'"),
    # it is made after the actions it holds, and not in the future
    ("at-early", f"{GAME}/initial/checkpoint.yaml:8:5: at: 2026-11-06T09:00:00Z is before the game's clock at the "
                 "base (2026-11-06T10:00:00Z): a checkpoint is made after the actions it holds"),
    ("at-late", f"{GAME}/initial/checkpoint.yaml:8:5: at: 2026-12-01T00:00:00Z is in the future (now is {NOW})"),
    # and it comes alone: an action taken in the same pull request is the game changing besides
    ("action", f"{GAME}/actions/20261106T110000Z--Alice--core.vote.yaml: a checkpoint is a pull request of its own"),
])
def test_a_checkpoint_pull_request_that_is_not_the_games_files_is_refused(settled: Path, change: str,
                                                                           said: str) -> None:
    git(settled, "checkout", "-q", "-b", "checkpoint")
    assert run(settled, "checkpoint", "blognomic", "--as", "Alice", "--why", "settled").returncode == 0
    initial = settled / GAME / "initial"
    if change == "copy":
        roster = initial / "gamestate/roster.yaml"
        roster.write_text(roster.read_text().replace("admin: false", "admin: true", 1))
    elif change == "by":
        cp = initial / "checkpoint.yaml"
        cp.write_text(cp.read_text().replace("by: Alice", "by: Bruno"))
    elif change == "through":
        cp = initial / "checkpoint.yaml"
        cp.write_text(cp.read_text().replace(THROUGH, "20261105T090000Z--Emeka--core.idle.yaml"))
    elif change.startswith("at-"):
        cp = initial / "checkpoint.yaml"
        at = "2026-11-06T09:00:00Z" if change == "at-early" else "2026-12-01T00:00:00Z"
        cp.write_text(cp.read_text().replace(f"at: {NOW}", f"at: {at}"))
    else:
        commit(settled, "checkpoint")
        r = run(settled, "act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Alice",
                "--at", "2026-11-06T11:00:00Z")
        assert r.returncode == 0, r.stdout + r.stderr
    commit(settled, "checkpoint")
    r = check_pr_cli(settled, "--base", "main", "--author", "alice-nomic", "--now", NOW)
    assert r.returncode == 1, r.stdout
    assert said in r.stdout, r.stdout


@pytest.mark.parametrize("change, said", [
    ("edit", f"{GAME}/initial/checkpoint.yaml:2:10: through: the 25 action files before the checkpoint do not hash "
             "to the chain head it was made with"),
    ("remove", f"{GAME}/initial/checkpoint.yaml:3:10: actions: holds 25 actions, but the log has 24"),
    # what the chain does not cover (a note, the outcome recorded) is in the digest of the files' bytes
    ("note", f"{GAME}/initial/checkpoint.yaml:7:8: files: the 25 action files before the checkpoint are not the "
             "bytes it was made from"),
    ("add", f"{GAME}/initial/checkpoint.yaml:2:10: through: the log's action number 25 is "
            "20261105T090000Z--Emeka--core.idle.yaml, not " + THROUGH),
])
def test_the_actions_a_checkpoint_holds_cannot_change(settled: Path, change: str, said: str) -> None:
    """The audit no longer replays them, but their files must be the ones the checkpoint was made from."""
    assert run(settled, "checkpoint", "blognomic", "--as", "Alice", "--why", "settled").returncode == 0
    commit(settled, "checkpoint")
    log = settled / GAME / "actions"
    if change == "edit":
        held = log / THROUGH
        held.write_text(held.read_text().replace("Bring back the barn", "Bring back the bank"))
    elif change == "note":
        held = log / "20261102T150000Z--Bruno--core.vote.yaml"
        held.write_text(held.read_text() + "note: added afterwards\n")
    elif change == "remove":
        (log / "20261102T150000Z--Bruno--core.vote.yaml").unlink()
    else:
        shutil.copy(log / "20261102T150000Z--Bruno--core.vote.yaml", log / "20261105T000000Z--Bruno--core.vote.yaml")
        text = (log / "20261105T000000Z--Bruno--core.vote.yaml").read_text()
        (log / "20261105T000000Z--Bruno--core.vote.yaml").write_text(text.replace("2026-11-02T15:00:00Z",
                                                                                    "2026-11-05T00:00:00Z"))
    r = run(settled, "check")
    assert r.returncode == 1, r.stdout
    assert said in r.stdout, r.stdout


def test_a_second_checkpoint_keeps_the_first_and_the_log_s_start(settled: Path) -> None:
    assert run(settled, "checkpoint", "blognomic", "--as", "Alice", "--why", "first").returncode == 0
    commit(settled, "checkpoint")
    r = run(settled, "checkpoint", "blognomic", "--as", "Alice", "--why", "again")
    assert r.returncode == 2 and "no action was taken since the last checkpoint" in r.stdout
    assert run(settled, "act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Alice",
               "--at", "2026-11-06T11:00:00Z").returncode == 0
    commit(settled, "a vote")
    r = run(settled, "checkpoint", "blognomic", "--as", "Dana", "--why", "again")
    assert r.returncode == 0 and "(1 action since the last checkpoint)" in r.stdout, r.stdout
    cp = (settled / GAME / "initial/checkpoint.yaml").read_text()
    assert f"actions: {HELD + 1}\nstart:\n  actions: 0\n  head: ''\n" in cp
    assert (f"earlier:\n  - through: {THROUGH}\n    actions: {HELD}\n    at: {NOW}\n    by: Alice\n"
            "    why: first\n") in cp
    r = run(settled, "check")
    assert r.returncode == 0 and f"holds the {HELD + 1} actions before them" in r.stdout, r.stdout


@pytest.mark.parametrize("args, said", [
    (["--as", "Chidi", "--why", "x"], "'Chidi' is not an admin of blognomic (its admins: Alice, Bruno, Dana)"),
    # a name in the wrong case: the admin meant, as nomic act says it
    (["--as", "bruno", "--why", "x"], "'bruno' is not an admin of blognomic (its admins: Alice, Bruno, Dana): a "
                                      "checkpoint settles the game, which only an admin may propose; did you mean "
                                      "Bruno? (names are written as on the roster)"),
    (["--as", "Alice"], "--why: say why, in up to 200 characters"),
    (["--as", "Alice", "--why", "  "], "--why: say why"),
    (["--why", "x"], "--as: say who makes it"),
    # a byte the terminal could not decode (Python keeps it as a lone surrogate) was written as an escape that the
    # audit's YAML reader refuses (cli.main refuses it in any argument)
    (["--as", "Alice", "--why", "bad\udcffbyte"], "argument: 'bad\ufffdbyte' is not UTF-8 text"),
    (["--as", "Alice", "--why", "x", "--dirty"], "the game has uncommitted changes (1 file, "
                                                f"{GAME}/gamestate/roster.yaml first)"),
])
def test_a_checkpoint_refused_writes_nothing(settled: Path, args: list[str], said: str) -> None:
    if "--dirty" in args:
        args = args[:-1]
        roster = settled / GAME / "gamestate/roster.yaml"
        roster.write_text(roster.read_text() + "\n")
    before = {p: p.read_bytes() for p in (settled / GAME / "initial").rglob("*") if p.is_file()}
    r = run(settled, "checkpoint", "blognomic", *args)
    assert r.returncode == 2, r.stdout
    assert said in r.stdout + r.stderr
    assert {p: p.read_bytes() for p in (settled / GAME / "initial").rglob("*") if p.is_file()} == before
    assert not [p for p in (settled / GAME).iterdir() if p.name.startswith(".initial")]


def test_replaying_without_an_action_the_checkpoint_holds_is_refused(settled: Path) -> None:
    assert run(settled, "checkpoint", "blognomic", "--as", "Alice", "--why", "settled").returncode == 0
    r = nomic(settled, "replay", "blognomic", "--without", "20261102T150000Z--Bruno--core.vote.yaml")
    assert r.returncode == 2
    assert "holds this action: the game's starting point already includes its effects" in r.stdout
    assert run(settled, "act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Alice",
               "--at", "2026-11-06T11:00:00Z").returncode == 0
    r = nomic(settled, "replay", "blognomic", "--without", "20261106T110000Z--Alice--core.vote.yaml")
    assert r.returncode == 0, r.stdout
    # replayed from the checkpoint: without her change of vote, Alice's vote is the AGAINST she cast before it
    assert 'proposals[2].votes.Alice: replay gives "AGAINST", file says "FOR"' in r.stdout, r.stdout
    assert "1 action left out; 12 values of the files would change" in r.stdout, r.stdout


def test_the_wiki_shows_the_held_actions_as_recorded(settled: Path) -> None:
    from site_plugins import model
    from site_plugins.pages import build_game
    from validators.check import check_repo

    assert run(settled, "checkpoint", "blognomic", "--as", "Alice", "--why", "settled").returncode == 0
    assert run(settled, "act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Alice",
               "--at", "2026-11-06T11:00:00Z").returncode == 0
    own = model.load(settled, "blognomic")
    kept: dict = {}
    assert check_repo(settled, only=["blognomic"], keep=kept, now=parse_time(NOW)).exit_code == 0
    model.preload(settled, kept)
    shared = model.load(settled, "blognomic")
    for game in (own, shared):
        assert game.replayed and not game.problems and game.held == HELD and len(game.entries) == HELD + 1
        assert game.checkpoint is not None and (game.checkpoint["by"], game.checkpoint["why"]) == ("Alice", "settled")
        assert all(e.before is None for e in game.entries[:HELD])
        assert game.entries[HELD].before is not None and game.entries[HELD].after is not None
    site = build_game(own, now=parse_time(NOW))
    history = {p.src: p.content for p in site.pages}["games/blognomic/history.md"]
    assert f"The first {HELD} actions (through {THROUGH}) are held by a checkpoint made by Alice on " in history
    assert "(“settled”): the game's starting point includes them" in history
    assert "Bring back the barn" in history  # shown as recorded


@pytest.mark.parametrize("change, said", [
    # a held file's note edited since: a new checkpoint would take the edited bytes as its own digest
    ("note", f"{GAME}/initial/checkpoint.yaml:7:8: files: the 25 action files before the checkpoint are not the "
             "bytes it was made from"),
    # a checkpoint whose start is past its count, over a log emptied since: no action for the new one to end at
    ("start", f"{GAME}/initial/checkpoint.yaml:3:10: actions: the checkpoint counts 24 actions, and "
              "initial/gamestate/ledger.yaml 25"),
])
def test_a_checkpoint_over_one_that_does_not_hold_is_refused(settled: Path, change: str, said: str) -> None:
    """The new checkpoint carries the last one on (its start, the digest of the files it held): that one must
    still hold, else the new one would settle an edit the audit refuses, or fail on what it cannot read."""
    assert run(settled, "checkpoint", "blognomic", "--as", "Alice", "--why", "settled").returncode == 0
    commit(settled, "checkpoint")
    log, cp = settled / GAME / "actions", settled / GAME / "initial/checkpoint.yaml"
    if change == "note":
        held = log / "20261102T150000Z--Bruno--core.vote.yaml"
        held.write_text(held.read_text() + "note: added afterwards\n")
        commit(settled, "a held action edited")
        assert run(settled, "act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Alice",
                   "--at", "2026-11-06T11:00:00Z").returncode == 0
    else:
        for f in log.glob("*.yaml"):
            f.unlink()
        head = (settled / GAME / "gamestate/ledger.yaml").read_text().partition("\nhead: ")[2].split()[0]
        cp.write_text(cp.read_text().replace("actions: 25\nstart:\n  actions: 0\n  head: ''",
                                             f"actions: 24\nstart:\n  actions: 25\n  head: {head}"))
    commit(settled, "since")
    before = cp.read_bytes()
    r = run(settled, "checkpoint", "blognomic", "--as", "Alice", "--why", "again")
    assert r.returncode == 2, r.stdout + r.stderr
    assert said in r.stdout, r.stdout
    assert cp.read_bytes() == before


def test_a_checkpoint_pull_request_over_one_that_does_not_hold_is_refused(settled: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Written by hand (or by a nomic checkpoint that did not look), a checkpoint whose digest is of the held files
    as edited since would pass for the base's files: the last checkpoint, which it carries on, must hold at the base."""
    from validators import checkpoint

    assert run(settled, "checkpoint", "blognomic", "--as", "Alice", "--why", "settled").returncode == 0
    commit(settled, "checkpoint")
    held = settled / GAME / "actions/20261102T150000Z--Bruno--core.vote.yaml"
    held.write_text(held.read_text() + "note: added afterwards\n")
    commit(settled, "a held action edited")
    assert run(settled, "act", "blognomic", "core.vote", "proposal=3", "vote=FOR", "--as", "Alice",
               "--at", "2026-11-06T11:00:00Z").returncode == 0
    commit(settled, "a vote")
    git(settled, "checkout", "-q", "-b", "checkpoint")
    real = checkpoint.held
    monkeypatch.setattr(checkpoint, "held", lambda *args: (real(*args)[0], []))  # its actions, none of its problems
    checkpoint.make(settled, "blognomic", "Alice", "settles the edit", parse_time(NOW))
    monkeypatch.undo()
    commit(settled, "checkpoint")
    r = check_pr_cli(settled, "--base", "main", "--author", "alice-nomic", "--now", NOW)
    assert r.returncode == 1, r.stdout
    assert (f"{GAME}/initial/checkpoint.yaml:7:8: files: at the base: the 25 action files before the checkpoint are "
            "not the bytes it was made from") in r.stdout, r.stdout


@pytest.mark.parametrize("fails", [1, 2])
def test_a_checkpoint_whose_swap_fails_leaves_the_old_starting_point(settled: Path, monkeypatch: pytest.MonkeyPatch,
                                                                     fails: int) -> None:
    """The new initial/ is written beside the old one and the two swapped by two renames: when either fails, the
    old one is in place as it was and nothing is left beside it."""
    import os

    from validators import checkpoint

    initial = settled / GAME / "initial"
    before = {p: p.read_bytes() for p in initial.rglob("*") if p.is_file()}
    renames = []

    def rename(src, dst):
        renames.append(src)
        if len(renames) == fails:
            raise OSError(5, "Input/output error")
        os.replace(src, dst)

    monkeypatch.setattr(checkpoint.os, "rename", rename)
    with pytest.raises(OSError):
        checkpoint.make(settled, "blognomic", "Alice", "settled", parse_time(NOW))
    monkeypatch.undo()
    assert {p: p.read_bytes() for p in initial.rglob("*") if p.is_file()} == before
    assert not [p for p in (settled / GAME).iterdir() if p.name.startswith(".initial")]


def test_a_checkpoint_killed_between_its_renames_is_put_right_by_the_next(settled: Path) -> None:
    """A run killed outright between the swap's two renames leaves no initial/, the old one hidden beside it and the
    new one too: the next nomic checkpoint puts the old one back and clears both before it settles the game."""
    game = settled / GAME
    before = {p.relative_to(game / "initial"): p.read_bytes() for p in (game / "initial").rglob("*") if p.is_file()}
    (game / "initial").rename(game / ".initial-old-4242")
    shutil.copytree(game / ".initial-old-4242", game / ".initial-new-4242")  # half written, say
    (game / ".initial-new-4242" / "game.yaml").write_text("half")
    r = run(settled, "check")
    assert r.returncode == 0 and "blognomic: no initial/ folder, so the action log cannot be audited" in r.stdout
    r = run(settled, "checkpoint", "blognomic", "--as", "Alice", "--why", "settled")
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.startswith("put initial/ back from .initial-old-4242, which an interrupted checkpoint left\n"
                               "removed .initial-new-4242, which an interrupted checkpoint left\n"), r.stdout
    assert not [p for p in game.iterdir() if p.name.startswith(".initial")]
    assert (game / "initial" / "checkpoint.yaml").exists()
    assert (game / "initial" / "gamestate/ledger.yaml").read_bytes() != before[Path("gamestate/ledger.yaml")]
    assert run(settled, "check").returncode == 0


def test_nomic_fmt_writes_the_first_line_of_a_checkpoint(settled: Path) -> None:
    """The check asks for the first line naming the checkpoint's schema, and says nomic fmt writes it: it does."""
    assert run(settled, "checkpoint", "blognomic", "--as", "Alice", "--why", "settled").returncode == 0
    cp = settled / GAME / "initial/checkpoint.yaml"
    made = cp.read_text()
    cp.write_text(made.partition("\n")[2])
    r = run(settled, "check")
    assert r.returncode == 2 and f"(nomic fmt {GAME}/initial/checkpoint.yaml writes it)" in r.stdout, r.stdout
    r = nomic(settled, "fmt", f"{GAME}/initial/checkpoint.yaml")
    assert r.returncode == 0, r.stdout + r.stderr
    assert cp.read_text() == made


def test_a_checkpoint_pull_request_holding_no_action_since_the_last_is_refused(settled: Path) -> None:
    """nomic checkpoint refuses to settle a game where nothing happened since its last checkpoint; the pull request
    of one written by hand (the last checkpoint listed as earlier, a new why) is refused as well."""
    assert run(settled, "checkpoint", "blognomic", "--as", "Alice", "--why", "settled").returncode == 0
    commit(settled, "checkpoint")
    git(settled, "checkout", "-q", "-b", "again")
    cp = settled / GAME / "initial/checkpoint.yaml"
    cp.write_text(cp.read_text().replace("why: settled", "why: settled again")
                  + f"earlier:\n  - through: {THROUGH}\n    actions: {HELD}\n    at: {NOW}\n    by: Alice\n"
                  "    why: settled\n")
    commit(settled, "checkpoint again")
    r = check_pr_cli(settled, "--base", "main", "--author", "alice-nomic", "--now", NOW)
    assert r.returncode == 1, r.stdout
    assert (f"{GAME}/initial/checkpoint.yaml:3:10: actions: no action was taken since the last checkpoint (through "
            f"{THROUGH})") in r.stdout, r.stdout
