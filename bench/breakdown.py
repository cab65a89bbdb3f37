"""Where the audit replay's time goes, phase by phase (CPU seconds, gc as in normal runs).

    .venv/bin/python -m bench.breakdown REPO [GAME]

REPO holds content/GAME (default ``big``), e.g. the scratch repository bench/run.py made.
"""

from __future__ import annotations

import gc
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from validators import schemas, yamlio  # noqa: E402
from validators.content import WorkTree, load_game  # noqa: E402
from validators.engine import apply_action  # noqa: E402
from validators.judge import param_problems  # noqa: E402


def main(argv: list[str]) -> int:
    repo = Path(argv[0])
    game = argv[1] if len(argv) > 1 else "big"
    T = time.process_time
    source = WorkTree(repo)
    t = T()
    files = load_game(source, game)
    initial = load_game(source, game, part="initial/", registry=files.registry)
    t_load = T() - t
    paths = files.actions
    t = T()
    raw = [source.read(p) for p in paths]
    t_read = T() - t
    texts = [b.decode("utf-8") for b in raw]
    gc.disable()
    t = T()
    for s in texts:
        yaml.load(s, Loader=yaml.CSafeLoader)
    t_csafe = T() - t
    gc.enable()
    t = T()
    records = [yamlio.load(s, p) for s, p in zip(texts, paths)]
    t_parse = T() - t
    t = T()
    for r in records:
        schemas.errors(r, schema="action.schema.json")
    t_schema = T() - t
    t = T()
    for r in records:
        param_problems(files.registry.actions[r["action"]], r)
    t_params = T() - t
    state = initial.state
    t = T()
    for r in records:
        state = apply_action(files.registry, state, r).state
    t_apply = T() - t
    n = len(records)
    rows = [("load the current and initial gamestate and ruleset", t_load),
            ("read the action files (bytes)", t_read),
            ("parse them: CSafeLoader, gc paused (the baseline)", t_csafe),
            ("parse them: yamlio.load (our loader, with its refusals)", t_parse),
            ("validate them: action.schema.json", t_schema),
            ("validate them again + their params (judge.param_problems)", t_params),
            ("apply them: engine.apply_action (module code, copy on write, ledger, dice chain)", t_apply)]
    print(f"{n} actions of {repo / 'content' / game}\n")
    print("| phase | CPU s | µs per action |")
    print("|---|---|---|")
    for label, secs in rows:
        print(f"| {label} | {secs:.3f} | {secs / n * 1e6:.0f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
