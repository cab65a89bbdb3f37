"""``nomic fmt``: one canonical layout for content files, data and comments kept, bad files refused untouched."""

from __future__ import annotations

import yaml

from tests.gitgame import ROOT, make_repo, nomic
from validators.fmt import format_paths


def test_the_example_games_are_in_the_canonical_layout():
    report, changed = format_paths(ROOT, [], check_only=True)
    assert not report.problems
    assert changed == [], f"run `nomic fmt`: {changed}"


def test_fmt_rewrites_the_layout_and_keeps_data_and_comments(tmp_path):
    repo = make_repo(tmp_path)
    path = repo / "content" / "blognomic" / "gamestate" / "roster.yaml"
    canonical = path.read_text()
    before = yaml.safe_load(canonical)
    # the same data in another layout (sequences not indented, long strings folded at 40), and a comment
    header = canonical.splitlines()[0]
    messy = f"{header}\n# who plays\n" + yaml.safe_dump(before, sort_keys=False, width=40)
    assert "\n- name: Alice" in messy and messy != canonical
    path.write_text(messy)
    r = nomic(repo, "fmt", "--check")
    assert r.returncode == 1 and "would reformat content/blognomic/gamestate/roster.yaml" in r.stdout, r.stdout
    assert path.read_text() == messy  # --check writes nothing
    r = nomic(repo, "fmt")
    assert r.returncode == 0 and "reformatted content/blognomic/gamestate/roster.yaml" in r.stdout, r.stdout
    after = path.read_text()
    assert yaml.safe_load(after) == before
    assert after.startswith(f"{header}\n# who plays\n")
    assert "\n  - name: Alice\n" in after and "\n- name:" not in after  # the dash inside, indented by two
    assert nomic(repo, "fmt", "--check").returncode == 0


def test_fmt_refuses_a_broken_file_with_its_place_and_writes_nothing(tmp_path):
    repo = make_repo(tmp_path)
    bad = repo / "content" / "blognomic" / "gamestate" / "roster.yaml"
    other = repo / "content" / "blognomic" / "game.yaml"
    other_text = other.read_text()
    other.write_text(other_text.replace("\nmodules:\n  - blognomic", "\nmodules:\n- blognomic"))
    messy_other = other.read_text()
    bad.write_text("players:\n  - name: Ann\n   account: [unclosed\n")
    r = nomic(repo, "fmt")
    assert r.returncode == 2, r.stdout + r.stderr
    assert "content/blognomic/gamestate/roster.yaml:" in r.stdout
    assert "Traceback" not in r.stdout + r.stderr
    assert bad.read_text() == "players:\n  - name: Ann\n   account: [unclosed\n"
    assert other.read_text() == messy_other  # a refused run rewrites no file at all


def test_fmt_says_which_given_path_it_does_not_format_and_why(tmp_path):
    repo = make_repo(tmp_path)
    (repo / "README.md").write_text("# my game\n")
    (repo / "notes.yaml").write_text("a:   1\n")
    (repo / "content" / "blognomic" / "notes.md").write_text("# notes\n")
    game = repo / "content" / "blognomic" / "game.yaml"
    game.write_text(game.read_text().replace("\nmodules:\n  - blognomic", "\nmodules:\n- blognomic"))
    messy = game.read_text()  # a file fmt would rewrite
    for path, why in (("README.md", "not a content file: nomic fmt formats only the files under content/"),
                      ("notes.yaml", "not a content file"),  # once formatted, though no content file
                      (str(tmp_path), "not a content folder"),
                      ("content/blognomic/notes.md", "the Markdown files nomic fmt formats are rules (ruleset/)")):
        r = nomic(repo, "fmt", path, "content/blognomic/game.yaml")
        assert r.returncode == 2, (path, r.stdout, r.stderr)  # README.md was skipped without a word, exit 0
        assert f"{path}: " in r.stdout and why in r.stdout, (path, r.stdout)
        assert game.read_text() == messy  # bad input changes nothing
    assert (repo / "notes.yaml").read_text() == "a:   1\n"
    # a path not there is said not to exist, naming it: it was 'cannot read: No such file or directory', and
    # outside content/ 'not a content file', as if the file were there
    r = nomic(repo, "fmt", "content/blognomic/missing.md")
    assert r.returncode == 2 and "content/blognomic/missing.md: does not exist" in r.stdout.splitlines(), r.stdout
    r = nomic(repo, "fmt", "missing.yaml")
    assert r.returncode == 2 and ("missing.yaml: does not exist (and nomic fmt formats only the files under "
                                  "content/)") in r.stdout.splitlines(), r.stdout
    r = nomic(repo, "fmt", "content")  # a folder: its other files are not content files to format, as before
    assert r.returncode == 0 and r.stdout == "reformatted content/blognomic/game.yaml\n", r.stdout


def test_fmt_gives_the_founding_configuration_its_schema_line(tmp_path):
    # initial/game.yaml: a copy of game.yaml (an older game's founding configuration, added by an admin) names the
    # schema one folder up; nomic check asks for the line of its own folder
    repo = make_repo(tmp_path)
    game = repo / "content" / "blognomic"
    (game / "initial" / "game.yaml").write_text((game / "game.yaml").read_text())
    r = nomic(repo, "check")
    assert r.returncode == 2 and "initial/game.yaml:1:1: first line must be" in r.stdout, r.stdout
    r = nomic(repo, "fmt", "content/blognomic/initial/game.yaml")
    assert r.returncode == 0 and r.stdout == "reformatted content/blognomic/initial/game.yaml\n", r.stdout
    assert (game / "initial" / "game.yaml").read_text().startswith(
        "# yaml-language-server: $schema=../../../schemas/game.schema.json\n")
    assert nomic(repo, "check").returncode == 0
