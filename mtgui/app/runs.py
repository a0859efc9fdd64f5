"""One owner of the run lifecycle (Orange3's habit): start, cancel, supersede, shut down.

:class:`RunController` lives in the GUI thread. ``start`` cancels the run before it and starts a
new one on a fresh worker thread; results of superseded runs are dropped by run id; ``shutdown``
(on window close) cancels and waits for the threads, a bounded time. In synchronous mode (for
tests and scripts) the generator runs in the caller's thread and the same signals are emitted.

Each run has a QThread of its own. A run that cannot stop at once (a read blocked on a lost
network drive, a slow metric between two steps) never keeps the program from quitting: closing
waits a bounded time, keeps the threads still running referenced (a running QThread must not be
destroyed), and the application then leaves the process without destroying them.

:class:`FileLoader` reads the files the user gives, in order, and makes sure that one file that
takes long never holds up the others. :func:`describe_stale` is the stale-result guard's words:
what the results shown were made from, when the files or settings have changed since.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QCoreApplication,
    QDeadlineTimer,
    QEvent,
    QObject,
    Qt,
    QThread,
    QTimer,
    Signal,
    SignalInstance,
    Slot,
)

from mtgui.app.worker import PROGRESS_INTERVAL, GeneratorFactory, GeneratorWorker
from mtgui.io.workspace import Entry, LoadRequest, Workspace, iter_read

QUIT_WAIT_SECONDS = 2.0
"""How long closing the window waits for every worker thread to stop, in all."""

STALL_SECONDS = 5.0
"""How long one file may take to read before the files after it go on without it."""


class _RunThread:
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


class _Keeper(QObject):
    """Holds every worker thread until it has finished: Qt aborts the program when a running
    QThread is destroyed, which would happen if a controller let go of one still running (a
    load that blocks, a run given up at quitting). Lives in the GUI thread."""

    def __init__(self) -> None:
        super().__init__()
        self.threads: set[_RunThread] = set()

    def keep(self, thread: _RunThread) -> None:
        """Hold ``thread`` until it finishes."""
        self.threads.add(thread)
        thread.finished.connect(self._on_thread_finished)

    @Slot()
    def _on_thread_finished(self) -> None:
        self.threads = {thread for thread in self.threads if not thread.isFinished()}


_KEEPER: list[_Keeper] = []  # made on first use, in the GUI thread


def _keeper() -> _Keeper:
    if not _KEEPER:
        _KEEPER.append(_Keeper())
    return _KEEPER[0]


def threads_left_running() -> bool:
    """Whether a worker thread still runs (one given up at quitting, say). Its QThread must not
    be destroyed while it runs, so the application leaves the process without destroying it
    (:func:`mtgui.views.launch.run_application`)."""
    return bool(_KEEPER) and any(not thread.isFinished() for thread in _keeper().threads)


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
        self._threads: dict[int, tuple[_RunThread, GeneratorWorker]] = {}

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
            thread = _RunThread(worker, self._on_thread_finished)
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
        program (they are kept until then, see :class:`_Keeper`).
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


class _Batch:
    """Files read one after the other on one thread."""

    def __init__(self, requests: Sequence[LoadRequest], runner: RunController) -> None:
        self.requests = list(requests)
        self.runner = runner
        self.done = 0  # files read
        self.since = time.monotonic()  # when the file being read was started
        self.stop = threading.Event()  # set: start no further file
        self.stalled = False  # its file took too long; the files after it went on without it

    @property
    def reading(self) -> LoadRequest | None:
        """The file being read, if any."""
        return self.requests[self.done] if self.done < len(self.requests) else None


class FileLoader(QObject):
    """Reads files on worker threads and reports each as it is read.

    Files are read in the order given, a batch at a time on one thread. When one file has
    taken more than ``stall_seconds`` (a pipe, a lost network drive, a huge file), its batch is
    left to finish that file alone, if it ever does, and the files after it, and those given
    later, go on in a new batch: one file never holds up the others, and never the window's
    quitting (see :class:`RunController`).
    """

    entry_read = Signal(object, object)  # the LoadRequest, its Entry
    progress_changed = Signal(int, int, object)  # files read, files given, the last file's Path
    stalled = Signal(object, float)  # the Path of a file that takes long, the seconds so far
    idle = Signal()  # no file is waiting or being read any longer (but for stalled ones)

    def __init__(
        self,
        parent: QObject | None = None,
        synchronous: bool = False,
        stall_seconds: float = STALL_SECONDS,
    ) -> None:
        super().__init__(parent)
        self._synchronous = synchronous
        self.stall_seconds = stall_seconds
        self._queue: list[LoadRequest] = []
        self._batches: list[_Batch] = []
        self._done = 0  # files read since the loader was last idle
        self._given = 0  # files given since then
        self._was_busy = False
        self._watch = QTimer(self, interval=250)
        self._watch.timeout.connect(self._on_watch_timeout)

    @property
    def running(self) -> bool:
        """Whether files are waiting or being read (files that stalled included)."""
        return bool(self._queue or self._batches)

    @property
    def busy(self) -> bool:
        """Whether files are waiting or being read, files that stalled left out."""
        return bool(self._queue) or any(not batch.stalled for batch in self._batches)

    def add(self, requests: Sequence[LoadRequest]) -> None:
        """Read ``requests`` after the files given before."""
        if not requests:
            return
        self._queue += requests
        self._given += len(requests)
        self._was_busy = True
        self._start_next()

    def forget(self, path: Path) -> None:
        """Do not read ``path`` if it is still waiting (if it is being read, it is reported)."""
        self._queue = [request for request in self._queue if request.path != path]
        self._check_idle()

    def cancel(self) -> None:
        """Forget every file waiting or being read: nothing more is reported of them."""
        self._queue = []
        for batch in self._batches:
            batch.stop.set()
            batch.runner.abort_all()
        self._batches = []
        self._watch.stop()
        self._was_busy = False
        self._done = self._given = 0

    def wait(self, deadline: float) -> bool:
        """Wait for the reading threads until ``deadline``; True if all ended."""
        runners = [child for child in self.children() if isinstance(child, RunController)]
        return all([runner.wait(deadline) for runner in runners])

    def _start_next(self) -> None:
        if not self._queue or any(not batch.stalled for batch in self._batches):
            return
        requests, self._queue = self._queue, []
        runner = RunController(self, self._synchronous, interval=0.0)  # every file reported
        batch = _Batch(requests, runner)
        self._batches.append(batch)
        runner.progress_changed.connect(partial(self._on_batch_progress_changed, batch))
        runner.finished.connect(partial(self._on_batch_ended, batch))
        runner.failed.connect(partial(self._on_batch_failed, batch))
        if not self._synchronous:
            self._watch.start()
        runner.start(partial(iter_read, batch.requests, batch.stop))

    def _on_batch_progress_changed(self, batch: _Batch, snapshot: tuple[int, int, Entry]) -> None:
        done, _, entry = snapshot
        request = batch.requests[done - 1]
        batch.done, batch.since = done, time.monotonic()
        if batch not in self._batches:
            return  # cancelled
        self.entry_read.emit(request, entry)
        if not batch.stalled:  # a stalled file's arrival is not counted: the rest went on
            self._done += 1
            self.progress_changed.emit(self._done, self._given, request.path)

    def _on_batch_ended(self, batch: _Batch, _: object = None) -> None:
        if batch in self._batches:
            self._batches.remove(batch)
        batch.runner.deleteLater()
        self._start_next()
        self._check_idle()

    def _on_batch_failed(self, batch: _Batch, message: str) -> None:
        """An unexpected error while reading a file: that file shows it, the others go on."""
        request = batch.reading
        if request is not None and batch in self._batches:
            self.entry_read.emit(request, Entry(request.path, request.role, problem=message))
            if not batch.stalled:
                self._queue[:0] = batch.requests[batch.done + 1 :]
        self._on_batch_ended(batch)

    def _on_watch_timeout(self) -> None:
        now = time.monotonic()
        for batch in self._batches:
            request = batch.reading
            if batch.stalled or request is None or now - batch.since < self.stall_seconds:
                continue
            batch.stalled = True
            batch.stop.set()
            self._queue[:0] = batch.requests[batch.done + 1 :]  # they were given first
            self.stalled.emit(request.path, now - batch.since)
        if not self._batches:
            self._watch.stop()
        self._start_next()
        self._check_idle()

    def _check_idle(self) -> None:
        if self._was_busy and not self.busy:
            self._was_busy = False
            self._given = self._done = 0
            self.idle.emit()


# -- stale results ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RunInputs:
    """What one analysis is made from: the files, the systems' names, and the settings."""

    workspace: Workspace
    settings: Mapping[str, Any]  # the settings panel's state

    def same_files(self, other: RunInputs) -> bool:
        """Whether ``other`` has the same files (the very same reads) and system names."""
        mine, theirs = self.workspace, other.workspace
        return (
            len(mine.entries) == len(theirs.entries)
            and all(a is b for a, b in zip(mine.entries, theirs.entries, strict=True))
            and mine.renamed_systems == theirs.renamed_systems
            and mine.hidden_systems == theirs.hidden_systems
        )


NEXT_RUN = {
    "pending": "A new run starts in a moment.",
    "loading": "A new run starts when the files are read.",
    "running": "A new run is under way: the distributions fill as it goes, the other views "
    "show these results until it ends.",
    "cancelled": "The new run was cancelled: press Run (Ctrl+R) to update them.",
    "failed": "The new run stopped (see the message above): press Run (Ctrl+R) to try again.",
    "blocked": "They cannot be updated until the problem above is solved.",
    "empty": "No file is loaded now: drop files on the window to analyse them.",
    "study": "Run it again to update it (after the analysis, if that is behind too).",
    "": "Press Run (Ctrl+R) to update them.",
}
"""What happens next, by the state of the analysis (the keys the window keeps)."""

_WORDS: dict[Any, str] = {
    "auto": "automatic",
    "document": "documents",
    "segment": "segments",
    "none": "none",
    "holm": "Holm",
    "fdr": "Benjamini-Hochberg",
    "sensitive": "case-sensitive",
    "full": "lowercase all",
    "ascii": "lowercase A-Z",
}
_SETTINGS: tuple[tuple[str, str, Callable[[Any], str]], ...] = (  # key, label, its value
    ("seed", "seed ", str),
    ("resamples", "", lambda value: f"{value:,} resamples"),
    ("level", "confidence ", lambda value: f"{value * 100:g}%"),
    ("unit", "resampling ", lambda value: _WORDS.get(value, str(value))),
    ("correction", "correction ", lambda value: _WORDS.get(value, str(value))),
    ("randomization", "approximate randomization ", lambda value: "on" if value else "off"),
    ("tokenizer", "tokenizer ", str),
    ("case", "", lambda value: _WORDS.get(value, str(value))),
)


def describe_stale(
    shown: RunInputs,
    now: RunInputs,
    state: str,
    labels: Mapping[str, str],
    subject: str = "These results are",
) -> str:
    """Why the results shown (made from ``shown``) are not those of ``now``, or "".

    For example "These results are from the previous settings (seed 12345, now 7). The new
    run was cancelled: press Run (Ctrl+R) to update them." ``state`` is a key of
    :data:`NEXT_RUN`; ``labels`` name the metrics.
    """
    changes = setting_changes(shown.settings, now.settings, labels)
    parts = [f"the previous settings ({'; '.join(changes)})"] if changes else []
    if not shown.same_files(now):
        parts.append("the files and system names as they were before")
    if not parts:
        return ""
    return f"{subject} from {' and '.join(parts)}. {NEXT_RUN.get(state, NEXT_RUN[''])}"


def setting_changes(
    old: Mapping[str, Any], new: Mapping[str, Any], labels: Mapping[str, str]
) -> list[str]:
    """Each setting that differs, as the results had it and as it is now ("seed 12345, now 7")."""
    changes = []
    added = [labels.get(m, m) for m in new["metrics"] if m not in old["metrics"]]
    dropped = [labels.get(m, m) for m in old["metrics"] if m not in new["metrics"]]
    if added:
        changes.append("without " + ", ".join(added))
    if dropped:
        changes.append("with " + ", ".join(dropped))
    for key, label, say in _SETTINGS:
        if old.get(key) != new.get(key):
            changes.append(f"{label}{say(old.get(key))}, now {say(new.get(key))}")
    return changes
