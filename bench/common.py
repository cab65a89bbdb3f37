"""What every large-game generator shares: a builder that makes legal actions through the
engine, and the writer that lays a game out as ``nomic act`` would.

A module's generator (``bench/gen_<module>.py``) builds an initial :class:`State`, makes its
history with :class:`Builder` and hands both to :func:`write_game`.
"""

from __future__ import annotations

import subprocess
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from validators import content, yamlio
from validators.engine import Rule, State, apply_action
from validators.judge import param_problems
from validators.modules import registry_for
from validators.timeutil import format_time


def player_names(n: int) -> list[str]:
    return [f"P{i:03d}" for i in range(n)]


def example_rules(example: Path, founded: datetime) -> dict[str, Rule]:
    """The ruleset of an example game (``content/<game>``), each rule's history re-dated to ``founded``."""
    rules = {}
    for path in sorted((example / "initial" / "ruleset").glob("*.md")):
        front, body = content.split_front_matter(path.read_text(encoding="utf-8"), str(path))
        meta = yamlio.load(front, str(path))
        for h in meta.get("history", []):
            h["at"] = format_time(founded)
        rules[meta["id"]] = Rule(meta["id"], meta, body)
    return rules


class Builder:
    """Makes legal actions one by one, keeping each record as ``nomic act`` would write it."""

    def __init__(self, state: State, rng: Any, start: datetime):
        self.registry = registry_for(state.config["modules"])
        self.state = state
        self.rng = rng
        self.records: list[dict[str, Any]] = []
        self.t = start

    def act(self, actor: str, action: str, params: dict[str, Any] | None = None, minutes: float = 10) -> Any:
        self.t += timedelta(minutes=minutes)
        record: dict[str, Any] = {"at": format_time(self.t), "actor": actor, "action": action}
        if params:
            record["params"] = params
        applied = apply_action(self.registry, self.state, record, validate_params=param_problems)
        if applied.dice:
            record["dice"] = applied.dice
        if applied.outcome:
            record["outcome"] = applied.outcome
        self.state = applied.state
        self.records.append(record)
        return applied

    def at_least(self, when: datetime) -> None:
        self.t = max(self.t, when)


# ---------------------------------------------------------------- writing


def write_state(folder: Path, state: State, registry: Any, rel: str) -> None:
    """game state and ruleset as new files, as ``nomic act`` lays them out."""
    schemas = {"roster": "roster.schema.json", "ledger": "ledger.schema.json"}
    schemas.update({k: d.schema for k, d in registry.docs.items()})
    for kind, data in state.docs.items():
        path = f"{rel}/gamestate/{kind}.yaml"
        _write(folder / path, content.doc_text(data, path, schemas[kind]))
    for rid, rule in state.rules.items():
        _write(folder / f"{rel}/ruleset/{rid}.md", content.rule_text(rule))


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def write_game(out: Path, game: str, start: State, b: Builder, git: bool = False) -> Path:
    """Write ``out/content/<game>``: game.yaml, initial/ (its game.yaml the configuration the game was founded
    with), the resulting state and one file per action."""
    root = f"content/{game}"
    for path, config in ((f"{root}/initial/game.yaml", start.config), (f"{root}/game.yaml", b.state.config)):
        _write(out / path, content.doc_text(config, path, "game.schema.json"))
    write_state(out, start, b.registry, f"{root}/initial")
    write_state(out, b.state, b.registry, root)
    taken: set[str] = set()
    from validators.act import action_filename

    for record in b.records:
        name = action_filename(record)
        if name in taken:
            raise ValueError(f"two actions would be written as {name}: the generator must date one a second later")
        taken.add(name)
        path = f"{root}/actions/{name}"
        _write(out / path, content.doc_text(record, path, "action.schema.json"))
    if git:
        _write(out / ".gitignore",
               ".nomic.lock\n.nomic-journal.json\n*.nomic-tmp\n/docs/\n/mkdocs.yml\n/site-plugin/\n")
        git_commit(out, "large synthetic game")
    return out / root


def git_commit(repo: Path, message: str) -> None:
    env_args = ["-c", "user.name=bench", "-c", "user.email=bench@example.invalid", "-c", "commit.gpgsign=false"]
    if not (repo / ".git").exists():
        subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(repo), *env_args, "commit", "-q", "-m", message], check=True)
