"""The GitHub workflows, read as files: what each may do with its token, and in what order it does it.

GitHub cannot be run here; what these tests hold is what SECURITY.md ("Configuring a game repository") promises.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from tests.gitgame import make_repo
from validators.markdown import MARKER

ROOT = Path(__file__).resolve().parent.parent
WORKFLOWS = ROOT / ".github" / "workflows"


def workflow(name: str) -> dict:
    data = yaml.safe_load((WORKFLOWS / name).read_text(encoding="utf-8"))
    if True in data:  # YAML 1.1 reads the key `on` as true
        data["on"] = data.pop(True)
    return data


def steps(wf: dict, job: str) -> list[dict]:
    return wf["jobs"][job]["steps"]


def test_the_verdict_comment_updated_is_only_the_workflows_own():
    # A player's comment holding the marker line was taken for the verdict: the workflow then edited the
    # player's comment (the verdict shown under their name), or, refused, failed the check of a legal pull request.
    script = next(s["with"]["script"] for s in steps(workflow("nomic-pr.yml"), "judge")
                  if s.get("uses", "").startswith("actions/github-script"))
    found = re.search(r"const mine = comments\.find\((.*?)\);", script, re.S)
    assert found, script
    condition = found.group(1)
    assert "c.user.login === 'github-actions[bot]'" in condition
    assert "c.body.startsWith(marker)" in condition
    assert f"const marker = '{MARKER}';" in script


def test_the_tick_is_audited_before_it_is_pushed_and_never_forced():
    # The tick's push, made with the workflow's token, starts no workflow: pushed unchecked, an illegal tick stood
    # on main until the next merge's audit.
    tick = steps(workflow("nomic-tick.yml"), "tick")
    runs = [s.get("run", "") for s in tick]
    ticked = next(i for i, r in enumerate(runs) if r.startswith("nomic tick "))
    audit = next(i for i, r in enumerate(runs) if r.startswith("nomic check"))
    pushed = next(i for i, r in enumerate(runs) if "git push" in r)
    assert ticked < audit < pushed
    assert "--base" not in runs[audit]  # the whole audit: every game's log replayed to its files
    assert not any(s.get("continue-on-error") for s in tick[audit:pushed])
    assert "--force" not in runs[pushed] and " -f" not in runs[pushed] and "+" not in runs[pushed]
    assert "git push origin HEAD:main" in runs[pushed]  # to main, whatever branch a manual run names
    assert workflow("nomic-tick.yml")["jobs"]["tick"]["if"] == "github.ref == 'refs/heads/main'"


def test_the_wiki_is_rebuilt_and_audited_after_a_tick():
    # A push by the tick workflow's token does not start nomic-main on its own: the wiki went on showing the
    # state before the tick until the next merge.
    main = workflow("nomic-main.yml")
    assert main["on"]["push"]["branches"] == ["main"]
    assert main["on"]["workflow_run"] == {"workflows": [workflow("nomic-tick.yml")["name"]], "types": ["completed"]}
    assert "workflow_run.conclusion == 'success'" in main["jobs"]["build"]["if"]


def test_only_the_job_that_publishes_the_wiki_may_publish():
    # The build runs the engine and the wiki's plugin; the token that may deploy Pages is the deploy job's alone.
    main = workflow("nomic-main.yml")
    assert main["permissions"] == {"contents": "read"}
    assert "permissions" not in main["jobs"]["build"]
    assert main["jobs"]["deploy"]["permissions"] == {"pages": "write", "id-token": "write"}
    assert "steps" in main["jobs"]["deploy"] and all("run" not in s for s in main["jobs"]["deploy"]["steps"])


def test_the_pull_request_workflow_never_runs_the_pull_requests_code():
    pr = workflow("nomic-pr.yml")
    assert list(pr["on"]) == ["pull_request_target"]
    assert pr["permissions"] == {"contents": "read", "pull-requests": "write", "statuses": "write"}
    job = steps(pr, "judge")
    checkouts = [s for s in job if s.get("uses", "").startswith("actions/checkout")]
    assert [c["with"]["path"] for c in checkouts] == ["judge", "pr"]
    assert all(c["with"]["persist-credentials"] is False for c in checkouts)
    assert checkouts[0]["with"]["ref"] == "${{ github.event.pull_request.base.sha }}"
    for s in job:
        run = s.get("run", "")
        assert "./pr" not in run and "pip install -e ./judge" in run or "pip" not in run
        # nothing a player writes (title, branch, login) is put into a script by ${{ }}: only SHAs and outputs
        for expr in re.findall(r"\$\{\{(.*?)\}\}", run):
            assert expr.strip() == "github.event.pull_request.base.sha", expr
        if s.get("working-directory") == "pr" and "nomic" in run:
            assert "python" not in run  # `python -m` would import the pull request's validators/ from its folder


def test_an_installed_copy_finds_its_schemas_and_assets(tmp_path):
    # pre-commit installs the hooks of .pre-commit-hooks.yaml (language: python) with `pip install .`, not
    # editable: schemas/ was left out of such a copy, and every hook stopped on a FileNotFoundError.
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert {h["language"] for h in hooks} == {"python"}
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    for folder in ("validators", "site_plugins", "schemas"):
        shutil.copytree(ROOT / folder, src / folder, ignore=shutil.ignore_patterns("__pycache__"))
    built = subprocess.run([sys.executable, "-c", "import setuptools; setuptools.setup()", "-q", "build",
                            "--build-base", str(tmp_path / "b")], cwd=src, capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    lib = tmp_path / "b" / "lib"
    env = {**os.environ, "PYTHONPATH": str(lib)}
    where = subprocess.run([sys.executable, "-c", "import validators; print(validators.__file__)"], cwd=tmp_path,
                           capture_output=True, text=True, env=env)
    assert where.stdout.startswith(str(lib)), where.stdout + where.stderr
    repo = make_repo(tmp_path)
    r = subprocess.run([sys.executable, "-m", "validators.cli", "--repo", str(repo), "check", "--game", "blognomic",
                        "--no-replay"], cwd=tmp_path, capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "legal" in r.stdout
    assert (lib / "site_plugins" / "assets" / "nomic.css").is_file()


def test_the_verdict_is_set_on_the_pull_requests_own_commit():
    # A pull_request_target run, its job's check and annotations belong to the base branch's commit, not to the one
    # the pull request holds, which branch protection looks at: the verdict is set there as a status of its own.
    job = steps(workflow("nomic-pr.yml"), "judge")
    names = [s.get("name") for s in job]
    status = job[names.index("The verdict on the pull request's commit")]
    assert status["if"] == "always()"  # also when the comment could not be posted, or the check broke
    script = status["with"]["script"]
    assert "code = fs.readFileSync(`${process.env.RUNNER_TEMP}/verdict`, 'utf8').trim();" in script
    assert "createCommitStatus" in script and "sha: context.payload.pull_request.head.sha," in script
    assert "state: code === '0' ? 'success' : code in said ? 'failure' : 'error'," in script
    assert "context: 'nomic verdict'," in script
    assert names.index("Judge") < names.index("The verdict on the pull request's commit") < names.index("Verdict")


def test_the_verdict_is_the_exit_code_of_the_check_and_nothing_the_log_says():
    # The exit code went through a step output, which a line of the log reading `::set-output name=code::0` (an
    # internal error's traceback quoting the pull request) might set: it is kept in a file the log cannot write.
    job = steps(workflow("nomic-pr.yml"), "judge")
    judge = next(s for s in job if s.get("name") == "Judge")["run"].splitlines()
    check = next(i for i, line in enumerate(judge) if "--format github" in line)
    assert judge[check].endswith('2> "$RUNNER_TEMP/stderr.txt"')
    assert judge[check + 1] == 'echo "$?" > "$RUNNER_TEMP/verdict"'
    # stderr is shown with workflow commands stopped, by a token the pull request cannot know
    assert judge[check + 2].startswith('token="$(od -An -N16 -tx1 /dev/urandom')
    assert judge[check + 3:check + 6] == ['echo "::stop-commands::$token"', 'cat "$RUNNER_TEMP/stderr.txt"',
                                          'echo "::$token::"']
    text = (WORKFLOWS / "nomic-pr.yml").read_text(encoding="utf-8")
    assert "GITHUB_OUTPUT" not in text and "outputs." not in text
    assert next(s for s in job if s.get("name") == "Verdict")["run"] == 'exit "$(cat "$RUNNER_TEMP/verdict")"'


def test_the_base_is_fetched_only_when_the_clone_lacks_it():
    # The pull request's clone keeps no credentials: its fetch of the base, made on every run, failed in a private
    # repository although the whole clone already held the base.
    job = steps(workflow("nomic-pr.yml"), "judge")
    fetch = next(s for s in job if "git fetch" in s.get("run", ""))
    assert fetch["run"] == 'git cat-file -e "$BASE^{commit}" 2> /dev/null || git fetch --no-tags origin "$BASE"'
    assert fetch["env"] == {"BASE": "${{ github.event.pull_request.base.sha }}"} and fetch["working-directory"] == "pr"
    pr = next(s for s in job if s.get("with", {}).get("path") == "pr")
    assert pr["with"]["fetch-depth"] == 0
