"""``nomic build`` and ``nomic serve``: validate the games, then run MkDocs (the site_plugins generate the pages)."""

from __future__ import annotations

import sys
from pathlib import Path

from .check import check_repo
from .report import emit


def build(root: Path, *, serve: bool = False, site_dir: str | None = None, strict: bool = False) -> int:
    report = check_repo(root, replay=True)
    if report.exit_code:
        emit(report, "text", sys.stdout)
        sys.stdout.write("the wiki is built only from games that check legal\n")
        return report.exit_code
    from mkdocs.commands import build as mkbuild
    from mkdocs.commands import serve as mkserve
    from mkdocs.config import load_config

    config_file = root / "mkdocs.yml"
    if serve:
        mkserve.serve(config_file=str(config_file))
        return 0
    options = {"config_file": str(config_file), "strict": strict}
    if site_dir:
        options["site_dir"] = str(Path(site_dir).resolve())
    cfg = load_config(**options)
    mkbuild.build(cfg)
    print(f"built the wiki in {cfg['site_dir']}")
    return 0
