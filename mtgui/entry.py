"""The ``mtgui`` command's first module (also ``python -m mtgui``'s and the built app's).

It holds Ctrl+C, SIGTERM and SIGHUP from the first moment, before the command line's imports
(a few tenths of a second): a signal then is recorded and ends a command as soon as it starts,
with 128 + the signal's number like a signal at any later moment, instead of Python's
KeyboardInterrupt traceback or the signal's default action (see :mod:`mtgui.cli.signals`; the
window gets the usual handlers back before it opens). Only :func:`run` holds them: a worker
process that imports this program's main module is left alone.
"""

from __future__ import annotations

from typing import NoReturn


def run() -> NoReturn:
    """Hold the signals, then run the ``mtgui`` command (:func:`mtgui.launch.run`)."""
    from mtgui.cli.signals import hold_signals

    hold_signals()
    from mtgui.launch import run as run_command

    run_command()
