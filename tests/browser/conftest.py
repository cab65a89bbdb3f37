"""Headless Chromium for the wiki's browser tests.

Debian's chromium and chromedriver (tools/setup-chromium.sh installs them). When
they are missing the tests skip and say why, except in CI (the CI environment
variable set), where a missing browser is a failure: the tests must run there.
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import tempfile
import threading
from pathlib import Path
from typing import Iterator

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run", "--window-size=1280,900"]
FIXED_NOW = "2026-11-05T12:00:00Z"


def _find(*names: str) -> str | None:
    for name in names:
        found = shutil.which(name) or (f"/usr/bin/{name}" if os.path.exists(f"/usr/bin/{name}") else None)
        if found:
            return found
    return None


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{reason}; in CI the browser tests must run (tools/setup-chromium.sh installs chromium)")
    pytest.skip(f"{reason}: install Debian's chromium and chromium-driver (sh tools/setup-chromium.sh)")


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The whole wiki built from content/ into a temporary folder, with a fixed "now"."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    out = tmp_path_factory.mktemp("site")
    old = os.environ.get("NOMIC_NOW")
    os.environ["NOMIC_NOW"] = FIXED_NOW
    try:
        build(load_config(config_file=str(ROOT / "mkdocs.yml"), site_dir=str(out)))
    finally:
        if old is None:
            os.environ.pop("NOMIC_NOW", None)
        else:
            os.environ["NOMIC_NOW"] = old
    return out


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


@pytest.fixture(scope="session")
def site_url(built_site: Path) -> Iterator[str]:
    """The built site served on 127.0.0.1 only, on a free port."""
    handler = functools.partial(_Quiet, directory=str(built_site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    chromium = _find("chromium", "chromium-browser", "google-chrome")
    driver_path = _find("chromedriver")
    if not chromium or not driver_path:
        _unavailable(f"chromium ({chromium or 'missing'}) or chromedriver ({driver_path or 'missing'}) not found")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        _unavailable("the selenium package is not installed (pip install -e '.[test]')")
    profile = tempfile.mkdtemp(prefix="nomic-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in CHROMIUM_FLAGS + [f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    try:
        driver = webdriver.Chrome(service=Service(driver_path), options=options)
    except Exception as e:  # the browser is there but does not start
        shutil.rmtree(profile, ignore_errors=True)
        _unavailable(f"chromium did not start: {str(e).splitlines()[0] if str(e) else e!r}")
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
