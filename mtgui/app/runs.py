"""One owner of the run lifecycle (Orange3's habit): start, cancel, supersede, shut down.

:class:`RunController` lives in the GUI thread. ``start`` cancels the run before it and starts a
new one on a fresh worker thread (:class:`~mtgui.app.threads.RunThread`); results of
superseded runs are dropped by run id; ``shutdown`` (on window close) cancels and waits for the
threads, a bounded time. In synchronous mode (for tests and scripts) the generator runs in the
caller's thread and the same signals are emitted.
"""

from __future__ import annotations

import time

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Signal, Slot

from mtgui.app.threads import RunThread
from mtgui.app.worker import PROGRESS_INTERVAL, GeneratorFactory, GeneratorWorker

QUIT_WAIT_SECONDS = 2.0
"""How long closing the window waits for every worker thread to stop, in all."""


class RunController(QObject):
    """Starts engine generators on worker threads and forwards what the current run reports."""

    progress_changed = Signal(object)  # latest snapshot of the current run
    finished = Signal(object)  # the current run's result
    failed = Signal(str)  # the current run's error message
    cancelled = Signal()
    running_changed = Signal()  # read ``running`` for the state

    def __init__(
        self,
        parent: QObject | None = None,
        synchronous: bool = False,
        interval: float = PROGRESS_INTERVAL,
    ) -> None:
        super().__init__(parent)
        self._synchronous = synchronous
        self._interval = interval
        self._run_id = 0
        self._worker: GeneratorWorker | None = None
        self._threads: dict[int, tuple[RunThread, GeneratorWorker]] = {}

    @property
    def running(self) -> bool:
        """Whether a run is under way."""
        return self._worker is not None

    @property
    def run_id(self) -> int:
        """The id of the latest run."""
        return self._run_id

    def threads(self) -> list[RunThread]:
        """The threads of the runs that have not ended yet, the current one last."""
        return [thread for thread, _ in self._threads.values()]

    def start(self, factory: GeneratorFactory) -> int:
        """Cancel the current run, if any, and start ``factory()``; return the new run's id."""
        self.cancel()
        self._run_id += 1
        worker = GeneratorWorker(self._run_id, factory, self._interval)
        self._worker = worker
        worker.progress_changed.connect(self._on_worker_progress_changed)
        worker.finished.connect(self._on_worker_finished)
        worker.failed.connect(self._on_worker_failed)
        worker.cancelled.connect(self._on_worker_cancelled)
        self.running_changed.emit()
        if self._synchronous:
            worker.run()
        else:
            thread = RunThread(worker, self._on_thread_finished)
            self._threads[worker.run_id] = (thread, worker)
            thread.start()
        return self._run_id

    def cancel(self) -> None:
        """Stop the current run (its thread ends at the engine's next step)."""
        if self._worker is not None:
            self._worker.abort()
            self._worker = None
            self.running_changed.emit()
            self.cancelled.emit()

    def abort_all(self) -> None:
        """Cancel the current run and ask every thread still running to stop."""
        self.cancel()
        for _, worker in self._threads.values():
            worker.abort()

    def wait(self, deadline: float) -> bool:
        """Wait for every thread until ``deadline`` (``time.monotonic()``); True if all ended.

        Threads still running then are let go: they stop at their next step, or end with the
        program (they are kept until then: :mod:`mtgui.app.threads`).
        """
        for thread, _ in list(self._threads.values()):
            thread.wait(int(max(deadline - time.monotonic(), 0) * 1000))
        return all(thread.isFinished() for thread, _ in self._threads.values())

    def shutdown(self, timeout_ms: int = int(QUIT_WAIT_SECONDS * 1000)) -> bool:
        """Cancel and wait for every thread, at most ``timeout_ms``; True if all ended in time."""
        self.abort_all()
        return self.wait(time.monotonic() + timeout_ms / 1000)

    def settle(self, timeout_ms: int) -> bool:
        """Wait at most ``timeout_ms`` for the current run to end, and if it does, report its
        outcome now; True if it was reported.

        For work that is quick but for rare cases (reading a session file): its outcome is
        shown before the caller goes on, and the GUI thread never waits longer than that.
        """
        item = self._threads.get(self._run_id)
        if self._worker is None or item is None or not item[0].wait(timeout_ms):
            return not self.running
        QCoreApplication.sendPostedEvents(self, QEvent.Type.MetaCall.value)
        return not self.running

    def _is_current(self, run_id: int) -> bool:
        return self._worker is not None and run_id == self._run_id

    @Slot(int, object)
    def _on_worker_progress_changed(self, run_id: int, snapshot: object) -> None:
        if self._is_current(run_id):
            self.progress_changed.emit(snapshot)

    def _end_current(self, run_id: int) -> bool:
        """If ``run_id`` is the current run, mark it ended and say so; else ignore it."""
        if not self._is_current(run_id):
            return False
        self._worker = None
        self.running_changed.emit()
        return True

    @Slot(int, object)
    def _on_worker_finished(self, run_id: int, result: object) -> None:
        if self._end_current(run_id):
            self.finished.emit(result)

    @Slot(int, str)
    def _on_worker_failed(self, run_id: int, message: str) -> None:
        if self._end_current(run_id):
            self.failed.emit(message)

    @Slot(int)
    def _on_worker_cancelled(self, run_id: int) -> None:
        """A run stopped after cancel: the controller already said so when it was cancelled."""

    @Slot()
    def _on_thread_finished(self) -> None:
        """Forget the threads that have finished; a QThread is dropped only once it has, since
        Qt aborts the program when a running one is destroyed."""
        for run_id, (thread, worker) in list(self._threads.items()):
            if thread.isFinished():
                del self._threads[run_id]
                worker.deleteLater()
