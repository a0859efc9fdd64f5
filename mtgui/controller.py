"""One owner of the run lifecycle (Orange3's habit): start, cancel, supersede, shut down.

:class:`RunController` lives in the GUI thread. ``start`` cancels the run before it and starts a
new one on a fresh QThread; results of superseded runs are dropped by run id; ``shutdown`` (on
window close) cancels and waits for the thread. In synchronous mode (for tests and scripts) the
generator runs in the caller's thread and the same signals are emitted.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, QThread, Signal, Slot

from mtgui.worker import PROGRESS_INTERVAL, GeneratorFactory, GeneratorWorker


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
        self._threads: dict[int, tuple[QThread, GeneratorWorker]] = {}

    @property
    def running(self) -> bool:
        """Whether a run is under way."""
        return self._worker is not None

    @property
    def run_id(self) -> int:
        """The id of the latest run."""
        return self._run_id

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
            self._start_thread(worker)
        return self._run_id

    def _start_thread(self, worker: GeneratorWorker) -> None:
        """Move ``worker`` to a new thread that ends when the worker reports its outcome."""
        thread = QThread()
        thread.setObjectName(f"mtgui-run-{worker.run_id}")
        worker.moveToThread(thread)
        thread.started.connect(worker.run)
        # Direct: quit from the worker's own thread, even while the GUI thread waits in shutdown.
        for outcome in (worker.finished, worker.failed, worker.cancelled):
            outcome.connect(thread.quit, Qt.ConnectionType.DirectConnection)
        thread.finished.connect(self._on_thread_finished)
        self._threads[worker.run_id] = (thread, worker)
        thread.start()

    def cancel(self) -> None:
        """Stop the current run (its thread ends at the engine's next step)."""
        if self._worker is not None:
            self._worker.abort()
            self._worker = None
            self.running_changed.emit()
            self.cancelled.emit()

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        """Cancel and wait for every thread; True if all ended in time (call on close)."""
        self.cancel()
        ended = True
        for thread, worker in list(self._threads.values()):
            worker.abort()
            ended = thread.wait(timeout_ms) and ended
        return ended

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
        """Forget threads that have ended (their worker and thread are then deleted)."""
        for run_id, (thread, worker) in list(self._threads.items()):
            if thread.isFinished():
                del self._threads[run_id]
                worker.deleteLater()
                thread.deleteLater()
