"""Worker threads that never take the program down: each run's QThread, and their keeper.

Each run has a QThread of its own. A run that cannot stop at once (a read blocked on a lost
network drive, a slow metric between two steps) never keeps the program from quitting: closing
waits a bounded time, keeps the threads still running referenced (a running QThread must not be
destroyed), and the application then leaves the process without destroying them
(:func:`threads_left_running`).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QDeadlineTimer, QObject, Qt, QThread, SignalInstance, Slot

from mtgui.app.worker import GeneratorWorker


class RunThread:
    """A worker's QThread: the worker is moved to it and runs when it starts; it quits when the
    worker's run has ended, whatever the outcome. Every one is kept (with its worker) by
    :class:`_Keeper` until it has finished, whoever else lets go of it."""

    def __init__(self, worker: GeneratorWorker, on_finished: Callable[[], None]) -> None:
        self.worker = worker
        self._thread = QThread()
        self._thread.setObjectName(f"mtgui-run-{worker.run_id}")
        worker.moveToThread(self._thread)
        self._thread.started.connect(worker.run)
        # Direct: quit from the worker's own thread, even while the GUI thread waits for it.
        worker.ended.connect(self._thread.quit, Qt.ConnectionType.DirectConnection)
        self._thread.finished.connect(on_finished)  # a slot of the controller, in the GUI
        _keeper().keep(self)

    def start(self) -> None:
        """Start the worker's run."""
        self._thread.start()

    def wait(self, timeout_ms: int | None = None) -> bool:
        """Wait for the run to end, at most ``timeout_ms`` (None: for good); True if it has."""
        deadline = QDeadlineTimer.Forever if timeout_ms is None else max(timeout_ms, 0)
        return bool(self._thread.wait(QDeadlineTimer(deadline)))

    def isFinished(self) -> bool:  # noqa: N802  (QThread's name, which callers know)
        """Whether the run has ended."""
        return bool(self._thread.isFinished())

    @property
    def finished(self) -> SignalInstance:
        """The QThread's ``finished`` signal."""
        return self._thread.finished


_LAST_STEPS_MS = 5000  # how long the keeper waits for a finished thread's last steps


class _Keeper(QObject):
    """Holds every worker thread until it has finished: Qt aborts the program when a running
    QThread is destroyed, which would happen if a controller let go of one still running (a
    load that blocks, a run given up at quitting). Lives in the GUI thread."""

    def __init__(self) -> None:
        super().__init__()
        self.threads: set[RunThread] = set()

    def keep(self, thread: RunThread) -> None:
        """Hold ``thread`` until it finishes."""
        self.threads.add(thread)
        thread.finished.connect(self._on_thread_finished)

    @Slot()
    def _on_thread_finished(self) -> None:
        """Let go of the threads that have finished, once their last steps are done too.

        Qt emits ``finished``, and ``isFinished()`` is true, while the thread still cleans up
        (it deletes what was posted for deletion in it and its event dispatcher). Released at
        that moment, its QThread and worker could be destroyed under it: a test run crashed so
        once, in a thread without a Python frame. ``wait`` returns when the thread is really
        done; one that is not done within a few seconds is kept until the next call.
        """
        done = {thread for thread in self.threads if thread.isFinished()}
        self.threads -= {thread for thread in done if thread.wait(_LAST_STEPS_MS)}


_KEEPER: list[_Keeper] = []  # made on first use, in the GUI thread


def _keeper() -> _Keeper:
    if not _KEEPER:
        _KEEPER.append(_Keeper())
    return _KEEPER[0]


def threads_left_running() -> bool:
    """Whether a worker thread still runs (one given up at quitting, say). Its QThread must not
    be destroyed while it runs, so the application leaves the process without destroying it
    (:func:`mtgui.views.window.launch.run_application`)."""
    return bool(_KEEPER) and any(not thread.isFinished() for thread in _keeper().threads)


def stop_all_threads(timeout_ms: int) -> bool:
    """Ask every kept worker to stop and wait for all of them, at most ``timeout_ms`` in all;
    True if none is left running. For a process that ends without quitting the application
    (a test session): Python's exit would destroy a QThread still running, which aborts."""
    if not _KEEPER:
        return True
    threads = list(_keeper().threads)
    for thread in threads:
        thread.worker.abort()
    deadline = QDeadlineTimer(timeout_ms)
    return all(thread.wait(deadline.remainingTime()) for thread in threads)
