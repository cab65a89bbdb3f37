"""``nomic build`` and ``nomic serve``: validate the games, then run MkDocs (the site_plugins generate the pages).

The wiki is drawn only from games that check legal. ``nomic serve`` listens on
127.0.0.1 only (mkdocs.yml's ``dev_addr``) and rebuilds when content/ changes.
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

from .check import check_repo
from .problems import BAD_INPUT, BadInput, Problem
from .report import emit


def _mkdocs_logging() -> None:
    """MkDocs' warnings (a module's page that failed, a broken link) printed as its own command line does."""
    logger = logging.getLogger("mkdocs")
    if not logger.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(levelname)-7s -  %(message)s"))
        handler.setLevel(logging.WARNING)
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        logger.propagate = False


def site_dir_problem(given: str) -> Problem | None:
    """Why ``--site-dir`` cannot take the site, or None. MkDocs empties the folder before it writes the pages, so a
    folder that holds anything but an earlier build (``--site-dir content`` once deleted every game) is refused, as
    is a file (once a traceback)."""
    where = Path(given).resolve()
    if where.exists() and not where.is_dir():
        return Problem(f"{given!r} is a file; the site is a folder of pages: name a new or empty folder",
                       field="--site-dir", kind=BAD_INPUT)
    if where.is_dir() and any(where.iterdir()) and not all((where / f).is_file() for f in ("index.html",
                                                                                          "sitemap.xml")):
        return Problem(f"{given!r} holds files that are not a built wiki, and the build empties the folder before "
                       "it writes the site: name a new or empty folder, or one an earlier build wrote",
                       field="--site-dir", kind=BAD_INPUT)
    return None


def build(root: Path, *, serve: bool = False, site_dir: str | None = None, strict: bool = False) -> int:
    problem = site_dir_problem(site_dir) if site_dir else None
    if problem is not None:  # asked before the check, which takes a while: nothing is built, nothing removed
        raise BadInput(problem)
    kept: dict[str, object] = {}
    report = check_repo(root, replay=True, keep=None if serve else kept)
    if report.exit_code:
        emit(report, "text", sys.stdout)
        sys.stdout.write("the wiki is built only from games that check legal\n")
        return report.exit_code
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")  # Material's notice about MkDocs 2 on every build
    _mkdocs_logging()
    from mkdocs.commands import build as mkbuild
    from mkdocs.commands import serve as mkserve
    from mkdocs.config import load_config
    from mkdocs.exceptions import Abort, ConfigurationError, PluginError

    config_file = root / "mkdocs.yml"
    try:
        if serve:
            mkserve.serve(config_file=str(config_file))
            return 0
        from site_plugins import model

        model.preload(root, kept)  # the check's replay, drawn by the wiki (the log is replayed once)
        options = {"config_file": str(config_file), "strict": strict}
        if site_dir:
            options["site_dir"] = str(Path(site_dir).resolve())
        try:
            cfg = load_config(**options)
        except (Abort, ConfigurationError) as e:  # mkdocs.yml is the repository's own input: bad input, as a bad
            # game file is (MkDocs logs each wrong value, then aborts "with a configuration error")
            sys.stderr.write(f"nomic: the wiki was not built: {config_file.name}: {e}\n")
            return 2
        mkbuild.build(cfg)
    except (Abort, ConfigurationError, PluginError) as e:  # --strict's warnings, a page that could not be drawn
        sys.stderr.write(f"nomic: the wiki was not built: {e}\n")
        return 1
    print(f"built the wiki in {cfg['site_dir']}")
    return 0
