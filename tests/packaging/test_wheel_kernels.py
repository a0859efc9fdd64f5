"""The wheel carries TER's, WER's and chrF's kernels compiled (setup.py), and an installed
wheel's first TER run loads them instead of compiling them.

The wheel is built from a copy of the checkout (pip builds in the source folder) and unpacked as
an install would lay it out. CI builds it as the README's `pip install .` does, by the pip of a
new venv holding nothing else, in pip's isolated environment of the build requirements, which
pip hands to the build through ``PYTHONPATH`` (``MTGUI_TEST_ISOLATED_BUILD=1``, set by .ci/run:
it downloads them); elsewhere without isolation, from the test environment's setuptools and
numba. A process started on it with
numba's cache messages on (``NUMBA_DEBUG_CACHE``) and no CPU named (mtgui names the generic one
the wheel was compiled for) must load every kernel it runs and save none, and give the same
scores as this process.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("pyproject.toml", "setup.py", "README.md", "mtgui", "resources")

ISOLATED = os.environ.get("MTGUI_TEST_ISOLATED_BUILD") == "1"

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("numba") is None, reason="the kernels are compiled by numba"
)

SCORE = """
import json, mtgui
refs = [["the cat sat on the mat", "a dog is in the house today"]]
hyps = {"A": ["the cat sat on a mat", "a dog in the house"],
        "B": ["cat the mat on sat", "today a dog is in the house"]}
result = mtgui.evaluate(refs, hyps, metrics=["ter", "wer", "chrf"], resamples=100)
print(json.dumps([[result.score(s, m) for m in result.metrics] for s in result.systems]))
"""


def build_wheel(folder: Path) -> Path:
    """The wheel of a copy of the checkout, built in ``folder``."""
    source = folder / "source"
    source.mkdir()
    for name in SOURCES:
        original = ROOT / name
        if original.is_dir():
            shutil.copytree(original, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        elif original.exists():
            shutil.copy(original, source / name)
    environment = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    python, isolation = sys.executable, ["--no-build-isolation"]
    if ISOLATED:  # a venv with nothing but pip: the build sees only what pip hands it
        subprocess.run([sys.executable, "-m", "venv", str(folder / "venv")], check=True)
        python, isolation = str(folder / "venv" / "bin" / "python"), []
    wheel = ["wheel", "--no-deps", "-q", *isolation, "-w", str(folder / "wheel"), str(source)]
    done = subprocess.run(
        [python, "-m", "pip", *wheel],
        env=environment,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return next((folder / "wheel").glob("mtgui-*.whl"))


def test_an_installed_wheel_loads_its_kernels_compiled(tmp_path):
    wheel = build_wheel(tmp_path)
    with zipfile.ZipFile(wheel) as archive:
        shipped = [name for name in archive.namelist() if name.endswith(".nbi")]
        for module in ("ter/__pycache__/search.", "ter/__pycache__/editdistance.", "kernel."):
            assert any(module in name for name in shipped), module
        archive.extractall(tmp_path / "site")

    environment = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    environment.update(PYTHONPATH=str(tmp_path / "site"), NUMBA_DEBUG_CACHE="1")
    done = subprocess.run(
        [sys.executable, "-c", SCORE],
        cwd=tmp_path / "site",
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    )
    assert "data loaded from" in done.stdout
    assert "data saved to" not in done.stdout, done.stdout[-3000:]
    scores = json.loads(done.stdout.strip().splitlines()[-1])
    here = io.StringIO()
    with contextlib.redirect_stdout(here):
        exec(SCORE, {})  # this checkout's kernels, as this process has them
    assert scores == json.loads(here.getvalue())
