"""What a command imports before it runs: every `mtgui eval` pays for it, so only what it uses."""

from __future__ import annotations

import subprocess
import sys

LOADED = (
    "import sys, mtgui.cli.main, mtgui.cli.eval\n"
    "print(' '.join(m for m in {names} if m in sys.modules))\n"
)


def loaded(names: tuple[str, ...], importing: str = "") -> list[str]:
    """Which of ``names`` a fresh interpreter holds after importing the command line."""
    program = importing + LOADED.format(names=names)
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=120, check=True
    )
    return done.stdout.split()


def test_the_command_line_imports_neither_qt_nor_the_pools_it_may_not_use() -> None:
    # Qt only for the window or --pdf; the pools' modules (20 ms) only where a pool starts.
    names = ("PySide6", "concurrent.futures", "multiprocessing", "logging")
    assert loaded(names) == []


def test_the_window_imports_what_its_runs_would_import_on_their_threads() -> None:
    # Not on a run's worker thread as a large run starts, while the window draws.
    names = ("concurrent.futures.process", "multiprocessing.spawn", "numpy.ma", "numpy.random")
    assert loaded(names, "import mtgui.app.analysis\n") == list(names)
