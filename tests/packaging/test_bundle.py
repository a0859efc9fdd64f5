"""The standalone build (packaging/build.sh) starts and works without Python or mtgui installed.

Skipped unless the bundle has been built (CI builds it first). The bundle runs in a clean
environment: no PYTHONPATH, no virtual environment on PATH, a working folder of its own, so
that it cannot lean on the checkout or on an installed mtgui.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXECUTABLE = Path(os.environ.get("MTGUI_BUNDLE", ROOT / "dist" / "mtgui" / "mtgui"))
SECONDS_RUNNING = 20

pytestmark = pytest.mark.skipif(
    not EXECUTABLE.is_file(),
    reason=f"no bundle at {EXECUTABLE} (build it with: bash packaging/build.sh)",
)


def clean_environment(home: Path) -> dict[str, str]:
    """What a fresh login session would give: no Python variables, no venv, a home of its own."""
    environment = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "QT_QPA_PLATFORM": "offscreen",
    }
    if sys.platform == "win32":
        environment["SYSTEMROOT"] = os.environ.get("SYSTEMROOT", r"C:\Windows")
    return environment


def test_the_bundle_runs_the_command_line_on_the_demo(tmp_path):
    result = subprocess.run(
        [str(EXECUTABLE), "eval", "--demo", "--bootstrap", "300"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=clean_environment(tmp_path),
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    for system in ("Lumen", "Ostrich", "Quill"):
        assert system in result.stdout
    assert "BLEU" in result.stdout


def test_the_bundle_opens_the_window_on_the_demo_for_20_seconds(tmp_path):
    process = subprocess.Popen(
        [str(EXECUTABLE), "--demo"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env=clean_environment(tmp_path),
    )
    time.sleep(SECONDS_RUNNING)
    still_running = process.poll() is None
    if still_running:
        process.send_signal(signal.SIGTERM)
    try:
        _out, errors = process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        _out, errors = process.communicate()
    assert still_running, f"the window closed by itself (exit {process.returncode}): {errors}"
    assert "Traceback" not in errors
    assert "could not load the Qt platform plugin" not in errors
