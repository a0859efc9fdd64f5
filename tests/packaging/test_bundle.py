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


def test_the_bundle_tokenizes_a_large_set_on_workers_and_scores_as_the_checkout(tmp_path):
    """Above POOL_MIN_TOKENS the bundle tokenizes on worker processes, which are the program
    itself started again with multiprocessing's arguments: the entry point's freeze_support()
    must turn them into workers (not a second mtgui), and their ids must give the scores of
    the checkout, which tokenizes here."""
    files = _large_demo(tmp_path, copies=500)  # 47,500 segments x 5 texts: 237,500
    command = ["eval", "-r", files[0], "-t", *files[1:], "--metrics", "bleu", "--bootstrap", "0"]
    process = subprocess.Popen(
        [str(EXECUTABLE), *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env=clean_environment(tmp_path / "home"),
    )
    workers = set()
    while process.poll() is None:  # the children it starts, as they run
        workers |= {line for line in _children(process.pid) if "multiprocessing" in line}
        time.sleep(0.02)
    stdout, stderr = process.communicate(timeout=300)
    assert process.returncode == 0, stderr
    assert workers, "no worker process was started"
    assert all(line.startswith(str(EXECUTABLE)) for line in workers), workers
    assert _scores(stdout) == _scores(_checkout_run(command, tmp_path))


def _large_demo(folder: Path, copies: int) -> list[str]:
    """The demo's first reference and its systems as plain text, each segment repeated
    ``copies`` times: file names, the reference first."""
    from mtgui.io.demo import load_demo

    corpus = load_demo()
    texts = {"reference.txt": corpus.test_set.references[0].texts}
    texts |= {f"{system.name}.txt": system.hypotheses for system in corpus.systems}
    for name, lines in texts.items():
        (folder / name).write_text("\n".join(list(lines) * copies) + "\n", encoding="utf-8")
    return list(texts)


def _children(pid: int) -> list[str]:
    """The command lines of ``pid``'s child processes (Linux: from /proc)."""
    lines = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            children = (task / "children").read_text().split()
        except OSError:
            continue
        for child in children:
            try:
                raw = Path(f"/proc/{child}/cmdline").read_bytes()
            except OSError:
                continue
            lines.append(raw.replace(b"\0", b" ").decode(errors="replace"))
    return lines


def _checkout_run(command: list[str], folder: Path) -> str:
    """What this checkout's mtgui prints for ``command`` (what the bundle must equal)."""
    return subprocess.run(
        [sys.executable, "-m", "mtgui", *command],
        capture_output=True,
        text=True,
        cwd=folder,
        check=True,
        timeout=300,
    ).stdout


def _scores(stdout: str) -> str:
    """The score table of ``mtgui eval``'s output (the lines above it name the files read)."""
    return stdout[stdout.index("Scores (") :]


def _numba_cache(home: Path) -> dict[Path, tuple[int, int]]:
    """numba's cache files under ``home`` (its user-wide cache folder is there on Linux and
    macOS), each with its time of change and size."""
    found = [*home.rglob("*.nbi"), *home.rglob("*.nbc")]
    return {path: (path.stat().st_mtime_ns, path.stat().st_size) for path in found}


def test_the_bundle_compiles_ter_and_wer_once_and_scores_as_the_checkout(tmp_path):
    """The bundle carries numba (packaging/mtgui.spec) and its kernels run compiled: the first
    TER + WER run leaves numba's cache of search's and editdistance's kernels in the home
    folder (it does only for compiled kernels), and a second run, from another working folder,
    loads them without writing anything (before compiled.py anchored the kernels in the bundle,
    each working folder had a cache of its own). The scores are those of the checkout's mtgui."""
    command = ["eval", "--demo", "--metrics", "ter,wer", "--bootstrap", "0"]
    home = tmp_path / "home"
    runs, caches = [], []
    for folder in ("first", "second"):
        (tmp_path / folder).mkdir()
        runs.append(
            subprocess.run(
                [str(EXECUTABLE), *command],
                capture_output=True,
                text=True,
                cwd=tmp_path / folder,
                env=clean_environment(home),
                timeout=300,
            )
        )
        assert runs[-1].returncode == 0, runs[-1].stderr
        caches.append(_numba_cache(home))
    cached = {path.name.split("-")[0] for path in caches[0]}
    assert {"search.ter_rows", "editdistance.fill_row"} <= cached, sorted(cached)
    assert caches[1] == caches[0], "the second run compiled again"
    checkout = _checkout_run(command, tmp_path)
    assert _scores(runs[0].stdout) == _scores(runs[1].stdout) == _scores(checkout)


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


def test_the_bundle_ships_its_kernels_compiled_and_a_fresh_home_loads_them(tmp_path):
    """packaging/build.sh compiles the kernels once for a generic CPU and keeps numba's cache in
    the bundle: the first TER + WER run of a fresh home copies them into numba's user-wide cache
    and loads them there, compiling nothing (every cache file is the bundle's, byte for byte),
    so the first TER run does not wait tens of seconds for the compiler."""
    shipped = EXECUTABLE.parent / "_internal" / "numba_cache" / "mtgui" / "engine" / "metrics"
    assert {"search.ter_rows", "editdistance.fill_row"} <= {
        path.name.split("-")[0] for path in shipped.rglob("*.nbi")
    }
    home = tmp_path / "home"
    run = subprocess.run(
        [str(EXECUTABLE), "eval", "--demo", "--metrics", "ter,wer", "--bootstrap", "0"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=clean_environment(home),
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    bundled = {path.name: path.read_bytes() for path in shipped.rglob("*.nb[ic]")}
    cached = {path.name: path.read_bytes() for path in _numba_cache(home)}
    assert cached and all(bundled.get(name) == data for name, data in cached.items())
