"""The ``mtgui`` command: a subcommand runs on the command line, anything else opens the window.

The command line (:mod:`mtgui.cli`) never imports Qt; it is handed the functions that open the
window and make PDF, so that ``mtgui eval`` starts fast and runs where Qt is missing or has no
display (Qt is loaded only for the window, or for ``--pdf``).
"""

from __future__ import annotations

import atexit
import gc
import os
import sys
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import NoReturn

# OpenBLAS, loaded with numpy, starts a worker thread for the second core that then spins for
# 2^28 cycles (0.1 s) before it sleeps, as it does after every product: on the standing
# benchmark it spun through the whole import and into the drawing child's start, and the run
# took 13 ms longer (medians of 16 alternating runs, 0.620 against 0.607 s); the bootstrap's
# products were no slower with workers that sleep at once (2^4 cycles, the least it takes). A
# value the user set is kept; other BLAS libraries ignore it.
os.environ.setdefault("OPENBLAS_THREAD_TIMEOUT", "4")

# Importing the command line makes some hundred thousand objects and no garbage: the collector's
# 50-odd passes over them took 16 ms of every start (import 111 -> 94 ms). It is off while they
# are imported, and what they made is then left out of its later passes (gc.freeze), in the
# window too.
gc.disable()
try:
    from mtgui.cli.main import main as command_line
    from mtgui.engine.text.token_pool import allow_workers, workers_running
finally:
    gc.freeze()
    gc.enable()


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``mtgui`` command; returns the exit code. Its main script (the
    ``mtgui`` command or ``python -m mtgui``) is safe to start again in worker processes, so
    large test sets are tokenized on them."""
    allow_workers()
    return command_line(argv, open_window=open_window, make_pdf=make_pdf)


def run() -> NoReturn:
    """The ``mtgui`` command and ``python -m mtgui``: :func:`main`, then the process ends.

    After a command-line run with nothing left to clean up it ends without Python's
    teardown (freeing every module and array one by one, and numpy's thread pool): 40-70 ms
    of the standing benchmark's 1.5 s, and of every ``mtgui eval`` in a script's loop. What
    an exit must still do is done first: standard output and error are flushed and the exit
    handlers run. With the window's Qt loaded, worker processes to stop or other threads
    still working, it exits as usual.
    """
    code = main()
    if _nothing_left_to_tear_down():
        try:
            sys.stdout.flush()
            sys.stderr.flush()
            atexit._run_exitfuncs()
        except Exception:  # an exit as usual reports it (cli.main has flushed before)
            sys.exit(code)
        os._exit(code)
    sys.exit(code)


def _nothing_left_to_tear_down() -> bool:
    """Whether the process may end without Python's teardown (see :func:`run`)."""
    return may_skip_teardown(sys.modules, threading.enumerate(), workers_running())


def may_skip_teardown(
    modules: Iterable[str], threads: Iterable[threading.Thread], workers: bool
) -> bool:
    """No Qt among the ``modules`` loaded, no ``workers`` to stop, no thread but daemons
    beside the main one, and an interpreter whose exit handlers can be run by hand."""
    return (
        not any(name.startswith("PySide6") for name in modules)
        and not workers
        and all(t.daemon for t in threads if t is not threading.main_thread())
        and hasattr(atexit, "_run_exitfuncs")
    )


def open_window(demo: bool, files: Sequence[Path]) -> int:
    """Run the desktop application until its window closes (Qt is imported only here).

    Under X11, the system libraries Qt needs are looked for first: where some are missing,
    the packages to install are named (exit code 1) instead of Qt's own message."""
    from mtgui.app.x_libraries import missing_libraries_message, missing_x_libraries

    missing = missing_x_libraries()
    if missing:
        print(missing_libraries_message(missing), file=sys.stderr)
        return 1
    from mtgui.app.campaign import provide_campaign_reader, provide_campaign_steps
    from mtgui.cli.campaign_project import campaign_project
    from mtgui.cli.campaign_steps import campaign_steps
    from mtgui.views.window.launch import run_application

    provide_campaign_steps(campaign_steps)  # the window may not import the command line
    provide_campaign_reader(campaign_project)
    return run_application(demo=demo, files=files)


def make_pdf(html: str, title: str) -> bytes:
    """The HTML report as PDF, through Qt's PDF writer (Qt is imported only here)."""
    from mtgui.views.export.pdf_export import pdf_bytes_anywhere

    return pdf_bytes_anywhere(html, title)
