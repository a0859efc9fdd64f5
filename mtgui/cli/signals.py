"""SIGTERM and SIGHUP end a command as Ctrl+C does: by unwinding, so temporary files go.

Python turns only SIGINT into an exception; the default action of SIGTERM and SIGHUP kills the
process where it stands, leaving half-written temporary files behind. While a command runs they
raise :class:`Terminated` instead, and the command exits with 128 + the signal's number.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager


class Terminated(BaseException):
    """SIGTERM or SIGHUP arrived: unwind (removing temporary files) and exit 128 + signal."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _raise_terminated(signum: int, frame: object) -> None:
    raise Terminated(signum)


@contextmanager
def signals_unwind() -> Iterator[None]:
    """While a command runs, SIGTERM and SIGHUP unwind the stack as Ctrl+C does, so that
    temporary files are removed; the previous handlers come back afterwards. (Only in the
    main thread, and never for the desktop application, whose event loop runs in Qt.)"""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    names = ("SIGTERM", "SIGHUP")
    numbers = [getattr(signal, name) for name in names if hasattr(signal, name)]
    previous = {number: signal.signal(number, _raise_terminated) for number in numbers}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
