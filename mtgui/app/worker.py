"""Running an engine generator on a worker thread: the thin layer between the engine and the GUI.

The engine's long work is a plain generator that yields progress snapshots and returns its
result (superqt's pattern); a step with nothing new to report yields None.
:class:`GeneratorWorker` runs one such generator, checks an abort flag between steps (so a
cancel takes effect within one engine chunk), and reports through signals: progress at most
about ten times a second but always the last one, then exactly one of finished, failed or
cancelled, and last ``ended``. Every signal carries the run id so that the receiver can drop
what belongs to a superseded run.

Messages for the user are in the window's words
(:func:`~mtgui.io.window_words.window_message`): the readers and checks are shared with the
command line, whose hints may name its options.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
import traceback
from collections.abc import Callable, Generator
from typing import Any

from PySide6.QtCore import QObject, Signal, Slot

from mtgui.engine.core import InputError
from mtgui.io.window_words import window_message

GeneratorFactory = Callable[[], Generator[Any, None, Any]]
PROGRESS_INTERVAL = 0.1  # seconds between progress signals: about 10 updates a second
_WORKER_NICENESS = 10  # added to the worker thread's nice value (Linux)
_LOWEST_PRIORITY = 19  # the largest nice value Linux allows


class GeneratorWorker(QObject):
    """Runs ``factory()`` to its end (or until aborted) when :meth:`run` is called."""

    progress_changed = Signal(int, object)  # run id, latest snapshot
    finished = Signal(int, object)  # run id, result
    failed = Signal(int, str)  # run id, message for the user
    cancelled = Signal(int)  # run id
    ended = Signal(int)  # run id; the last signal of a run, whatever its outcome

    def __init__(
        self, run_id: int, factory: GeneratorFactory, interval: float = PROGRESS_INTERVAL
    ) -> None:
        super().__init__()
        self.run_id = run_id
        self._factory = factory
        self._interval = interval
        self._abort = threading.Event()

    def abort(self) -> None:
        """Ask the run to stop at its next step (safe from any thread)."""
        self._abort.set()

    @Slot()
    def run(self) -> None:
        """Drive the generator; emit progress, then the outcome, then ``ended``."""
        generator: Generator[Any, None, Any] | None = None
        _give_way_to_the_window()
        try:
            generator = self._factory()
            self._drive(generator)
        except InputError as error:
            self.failed.emit(self.run_id, window_message(error))
        except Exception as error:  # reported to the user, never a crash
            traceback.print_exc()
            self.failed.emit(
                self.run_id,
                f"internal error ({type(error).__name__}: {error}). This is a bug in mtgui.",
            )
        finally:
            if generator is not None:
                generator.close()
            self.ended.emit(self.run_id)

    def _drive(self, generator: Generator[Any, None, Any]) -> None:
        """Step ``generator`` until it returns (finished) or the run is aborted (cancelled)."""
        last_emit, pending = 0.0, None
        while not self._abort.is_set():
            try:
                snapshot = next(generator)
            except StopIteration as finished:
                self._emit_progress(pending)
                self.finished.emit(self.run_id, finished.value)
                return
            pending = pending if snapshot is None else snapshot  # None: no news, a step only
            now = time.monotonic()
            if now - last_emit >= self._interval:
                self._emit_progress(pending)
                last_emit, pending = now, None
        self.cancelled.emit(self.run_id)

    def _emit_progress(self, snapshot: object) -> None:
        """Emit ``snapshot`` unless there is none pending."""
        if snapshot is not None:
            self.progress_changed.emit(self.run_id, snapshot)


def _give_way_to_the_window() -> None:
    """Lower this worker thread's CPU priority (Linux: a nice value per thread).

    On a 2-core machine the worker, its drawing helper and BLAS keep both cores busy, and the
    scheduler would make the window wait its turn; niced, the worker yields to it at once. The
    helper threads the worker starts inherit the value. The step is relative to the thread's
    own nice value: a process started niced (``nice mtgui``, a busy CI runner) keeps its worker
    below its window, and root never raises a niced worker back up. In the GUI thread
    (synchronous runs) nothing changes.
    """
    if threading.current_thread() is threading.main_thread() or not hasattr(os, "setpriority"):
        return
    thread = threading.get_native_id()
    with contextlib.suppress(OSError):  # not allowed here: run at normal priority
        own = os.getpriority(os.PRIO_PROCESS, thread)
        os.setpriority(os.PRIO_PROCESS, thread, min(own + _WORKER_NICENESS, _LOWEST_PRIORITY))
