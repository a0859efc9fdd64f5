"""Reading the files the user gives on worker threads, one slow file holding up none.

:class:`FileLoader` reads the files in the order given and makes sure that one file that takes
long never holds up the others, nor the window's quitting.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from functools import partial
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Signal

from mtgui.app.runs import RunController
from mtgui.io.entries import Entry, LoadRequest, iter_read

STALL_SECONDS = 5.0
"""How long one file may take to read before the files after it go on without it."""


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
