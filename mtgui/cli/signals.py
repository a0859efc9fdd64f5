"""Ctrl+C, SIGTERM and SIGHUP end a command by unwinding, at a moment that is safe to unwind.

Python turns only SIGINT into an exception; the default action of SIGTERM and SIGHUP kills the
process where it stands, leaving half-written temporary files behind. While a command runs
(:func:`signals_unwind`) all three raise :class:`Terminated` instead, so that temporary files
go, and the command exits with 128 + the signal's number.

An exception may not be raised everywhere: raised inside Qt's import (shiboken's start-up) it
aborts the process ("Fatal Python error", exit 134, or a segfault), or code there swallows it
and the run goes on to exit 0. Inside :func:`signals_deferred` (around the PDF, which loads Qt
and draws with it) a signal is only recorded, and raised as soon as the block is left. From the
first moment of the ``mtgui`` command until a command starts, while Python imports it, signals
are held the same way (:func:`hold_signals`). The first signal received decides the exit code:
it is raised once, and later ones while the command unwinds are only recorded, so that the
clean-up itself is never cut short.

For tests only: with the environment variable ``MTGUI_TEST_STAGES`` set, a command announces
the stages it reaches on standard error (``mtgui-test-stage: NAME``), and at its end waits the
number of seconds the variable gives, so that a test can signal it at a known moment and be
sure the signal arrives while the command runs (tests/cli/test_cli_signals.py).
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

STAGES_VARIABLE = "MTGUI_TEST_STAGES"
_Handler = Callable[[int, FrameType | None], Any] | int | signal.Handlers | None
_NAMES = ("SIGINT", "SIGTERM", "SIGHUP")


class Terminated(BaseException):
    """A signal arrived (Ctrl+C, SIGTERM or SIGHUP): unwind, removing temporary files, and exit
    128 + ``signum``."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


class _State:
    """The signals of the command that runs (one at a time, in the main thread)."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        """A new command: nothing received yet."""
        self.signum: int | None = None  # the first signal received
        self.raised = False  # Terminated was raised for it: the command is unwinding
        self.deferring = 0  # depth of signals_deferred blocks


_STATE = _State()


def _on_signal(signum: int, frame: FrameType | None) -> None:
    """Record the signal; raise it now unless raising is deferred or already done."""
    if _STATE.signum is None:
        _STATE.signum = signum
    _raise_if_due()


def _raise_if_due() -> None:
    """Raise :class:`Terminated` for the recorded signal, once, where raising is allowed: in
    the main thread, the only one a signal interrupts (a command run on another thread, as
    the tests and the Python API may, has no signals of its own)."""
    if threading.current_thread() is not threading.main_thread():
        return
    if _STATE.signum is not None and not _STATE.raised and not _STATE.deferring:
        _STATE.raised = True
        raise Terminated(_STATE.signum)


def _signal_numbers() -> list[int]:
    return [getattr(signal, name) for name in _NAMES if hasattr(signal, name)]


@contextmanager
def _blocked(numbers: list[int]) -> Iterator[None]:
    """The signals held back by the system while the handlers change (where it can). Blocking
    runs the Python handlers of signals that came just before, so none is missed."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, numbers)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


_HELD: dict[int, _Handler] = {}  # the handlers hold_signals replaced


def hold_signals() -> None:
    """From the first moment of the ``mtgui`` command (:mod:`mtgui.entry`) until a command
    takes them over in :func:`signals_unwind`, or the window starts (:func:`release_signals`),
    a signal is only recorded: nothing is written yet, and an exception then would end the
    imports with a traceback."""
    if threading.current_thread() is not threading.main_thread() or _HELD:
        return
    _STATE.reset()
    _STATE.deferring = 1
    for number in _signal_numbers():
        _HELD[number] = signal.signal(number, _on_signal)
    stage("held")


def release_signals() -> int | None:
    """Give back the handlers :func:`hold_signals` replaced (nothing if it did not); the signal
    received while they were held, if any. It is handed over, not kept: a command run later in
    this process (the tests run many) must not be ended by it."""
    if not _HELD:
        return None
    with _blocked(list(_HELD)):
        for number, handler in _HELD.items():
            signal.signal(number, handler)
        _HELD.clear()
        _STATE.deferring -= 1
    signum = _STATE.signum
    _STATE.reset()
    return signum


@contextmanager
def signals_unwind() -> Iterator[None]:
    """While a command runs, Ctrl+C, SIGTERM and SIGHUP raise :class:`Terminated` (at once, or
    when a :func:`signals_deferred` block ends); the previous handlers come back afterwards,
    and a signal recorded but not yet raised is raised then. (Only in the main thread, and
    never for the desktop application, whose event loop runs in Qt.)"""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    numbers = _signal_numbers()
    if _HELD:  # held since the command started: what was received meanwhile counts
        previous = dict(_HELD)
        _HELD.clear()
        _STATE.deferring -= 1
    else:
        _STATE.reset()
        previous = {number: signal.signal(number, _on_signal) for number in numbers}
    try:
        _raise_if_due()  # a signal while mtgui started
        stage("start")
        yield
        stage("end")
        linger()
    finally:
        _STATE.deferring += 1  # from here on a signal is only recorded
        with _blocked(numbers):
            for number, handler in previous.items():
                signal.signal(number, handler)
        _STATE.deferring -= 1
        _raise_if_due()  # a signal received wins over an error that ends the command


@contextmanager
def signals_deferred() -> Iterator[None]:
    """Within this block a signal is only recorded, and raised as soon as the block is left
    without an error (an error leaves it to :func:`signals_unwind`, which raises it at its
    end): for code an exception must not interrupt, such as Qt's import and drawing."""
    _STATE.deferring += 1
    try:
        yield
    finally:
        _STATE.deferring -= 1
    _raise_if_due()


def received() -> int | None:
    """The first signal the command that runs (or ran last) received, if any."""
    return _STATE.signum


def stage(name: str) -> None:
    """For tests only (see the module's docstring): announce that the command reached ``name``."""
    if STAGES_VARIABLE in os.environ:
        os.write(2, f"mtgui-test-stage: {name}\n".encode())


def linger() -> None:
    """For tests only: wait the seconds ``MTGUI_TEST_STAGES`` gives before the command ends (a
    signal then ends the wait, as it ends the command)."""
    try:
        seconds = float(os.environ.get(STAGES_VARIABLE, "0"))
    except ValueError:
        return
    if seconds > 0:
        time.sleep(seconds)
