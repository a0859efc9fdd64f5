"""The ``mtgui`` command: a subcommand runs on the command line, anything else opens the window.

The command line (:mod:`mtgui.cli`) never imports Qt; it is handed the functions that open the
window and make PDF, so that ``mtgui eval`` starts fast and runs where Qt is missing or has no
display (Qt is loaded only for the window, or for ``--pdf``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from mtgui.cli.main import main as command_line
from mtgui.engine.token_pool import allow_workers


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``mtgui`` command; returns the exit code. Its main script (the
    ``mtgui`` command or ``python -m mtgui``) is safe to start again in worker processes, so
    large test sets are tokenized on them."""
    allow_workers()
    return command_line(argv, open_window=open_window, make_pdf=make_pdf)


def open_window(demo: bool, files: Sequence[Path]) -> int:
    """Run the desktop application until its window closes (Qt is imported only here)."""
    from mtgui.views.launch import run_application

    return run_application(demo=demo, files=files)


def make_pdf(html: str, title: str) -> bytes:
    """The HTML report as PDF, through Qt's PDF writer (Qt is imported only here)."""
    from mtgui.views.pdf_export import pdf_bytes_anywhere

    return pdf_bytes_anywhere(html, title)
