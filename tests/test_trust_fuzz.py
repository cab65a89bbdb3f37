"""The fuzzing script stays runnable and finds no crash in a small run (the full run: FUZZING.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_a_small_fuzz_run_ends_without_crashes(tmp_path):
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "fuzz.py"), "--scale", "0.004", "--seed", "3",
                        "--crashes", str(tmp_path / "crashes.json")], capture_output=True, text=True, cwd=str(ROOT),
                       timeout=600, check=False)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "0 crashes" in r.stdout
    for target in ("loader", "schema", "check", "act"):
        assert f"{target}: " in r.stdout
