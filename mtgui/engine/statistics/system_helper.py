"""A forked copy of this process that extracts the last systems while this one does the first.

Why: a system's statistics (tokenizing its output, matching n-grams) are extracted on one core.
On the command line the other core is idle but for the resample draws, and starting worker
processes afresh (an interpreter importing numpy) costs more than a small test set's extraction;
a fork costs milliseconds and shares everything already prepared (the references' n-grams,
NIST's weights) without copying it.

The helper works through the systems from the last one backwards and sends each system's rows
through a pipe; this process works from the first one forwards and takes the helper's rows
where it finds them. The helper never decides anything: a system it has not finished is
extracted here (if the helper has begun on it, after waiting at most ``patience`` seconds), so a
helper that fails, dies or hangs costs time, never results. Its rows are the same computation
on the same data, so the statistics are bit for bit those of extracting everything here.

Only on Linux, and only where the caller knows that this process may fork: the command line,
whose only other thread, if any, draws resamples (where they are not drawn by a forked child of
their own, :mod:`~mtgui.engine.resampling.forked_draws`). Never the desktop application, whose Qt
threads make forking unsafe.
"""

from __future__ import annotations

import _thread
import contextlib
import gc
import mmap
import os
import pickle
import queue
import signal
import struct
import sys
import threading
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NoReturn

from mtgui.engine.core.arrays import FloatArray
from mtgui.engine.runtime.heap import give_back_freed_memory

Rows = Mapping[str, FloatArray]
"""One system's statistics rows, by metric name."""
_HEADER = struct.Struct("<Q")  # the length of a message's pickle
_CLAIM = struct.Struct("<q")  # the index of the system the parent is at (-1: none yet)
_OVER = ("over",)  # the helper is gone: its last message was read, or the pipe broke
PIPE_BYTES = 1 << 20
"""The helper's pipe holds this much (Linux's largest for any user; 64 KB by default): a
system's rows (600 KB on the standing benchmark) then go in at once, where the helper had to
wait for this process's reading thread to take each 64 KB, up to 14 ms when the thread waited
for the interpreter lock."""


def can_fork() -> bool:
    """Whether a helper can be forked here (Linux; macOS and Windows extract here)."""
    return sys.platform.startswith("linux") and hasattr(os, "fork")


def fork_child(child: Callable[[int], NoReturn]) -> tuple[int, int] | None:
    """Fork a child that runs ``child`` on the write end of a new pipe and never returns;
    here, the child's pid and the pipe's read end, or None where no pipe or process can be
    had (the caller then does the work itself). The system helper and the resamples' drawing
    child (:mod:`~mtgui.engine.resampling.forked_draws`) are both forked so.

    The child first gives the free pages of its heap back (``malloc_trim``, 0.75 ms there).
    Pages the heap holds free at the fork are shared with this process, which keeps freed
    memory for reuse (:func:`~mtgui.engine.runtime.heap.keep_freed_memory`): each of them would be
    copied where either process first writes into it again, 1.8-2 us a page on this machine.
    Let go in the child, they are this process's alone, and a first write only makes them
    writable again (0.7 us); the child's own allocations then start from zeroed pages (1.2 us).
    On the standing benchmark the run took 5-10 ms less (medians of 16 alternating runs:
    0.539 against 0.544 s, and 0.551 against 0.561 s with the same call patched in)."""
    try:
        read_fd, write_fd = os.pipe()
    except OSError:  # no descriptor left
        return None
    gc.freeze()  # the child's collections then leave this process's objects unshared
    try:
        with warnings.catch_warnings():  # Python 3.12+ warns of forking beside threads
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
    except OSError:
        gc.unfreeze()
        os.close(read_fd)
        os.close(write_fd)
        return None
    if pid == 0:
        os.close(read_fd)
        give_back_freed_memory()
        child(write_fd)
    gc.unfreeze()
    os.close(write_fd)
    return pid, read_fd


def end_child(pid: int, wait: bool = True) -> None:
    """Stop a forked child, whatever it is doing, and wait for it to end.

    ``wait=False``, for a child whose work is all received: a thread of its own waits instead.
    A child frees its memory as it ends, before its parent can reap it: 5-6 ms of the system
    helper's on the standing benchmark, which this process spends on its next step instead.
    The thread is started with ``_thread``, which does not wait for it to run, as
    ``threading`` does: with both cores busy (the children ending) that wait took 5-9 ms.
    """
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    if not wait:
        try:
            _thread.start_new_thread(_reap, (pid,))
            return
        except RuntimeError:  # no thread can be had: reaped here
            pass
    _reap(pid)


class _Background:
    """A thread started without waiting for it to run, as ``threading`` waits (see
    :func:`end_child`): the helper's pipe reader, started just after the fork, when the helper
    may keep the other core busy, took 2-6 ms to start there."""

    def __init__(self, work: Callable[[], None]) -> None:
        self._done = threading.Event()
        _thread.start_new_thread(self._run, (work,))

    def _run(self, work: Callable[[], None]) -> None:
        try:
            work()
        finally:
            self._done.set()

    def join(self, timeout: float | None = None) -> None:
        """Wait until the work is done (at most ``timeout`` seconds)."""
        self._done.wait(timeout)


def _reap(pid: int) -> None:
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)


def default_signals() -> None:
    """In a forked child: the default action for the signals the parent may handle."""
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, signal.SIG_DFL)


class SystemHelper:
    """The forked helper, seen from this process."""

    def __init__(self, pid: int, read_fd: int, claimed: mmap.mmap | None = None) -> None:
        self._pid = pid
        self._fd = read_fd
        self._claimed = claimed  # shared with the helper: the system this process is at
        self._messages: queue.Queue[tuple[Any, ...]] = queue.Queue()
        self._begun: set[int] = set()
        self._rows: dict[int, Rows] = {}
        self._over = False
        self._reader = _Background(self._read)

    @classmethod
    def start(cls, extract: Callable[[int], Rows], indices: Sequence[int]) -> SystemHelper | None:
        """Fork a helper that runs ``extract`` on ``indices`` in that order (None where no
        helper can be forked). It stops before an index this process has reached (see
        :meth:`reached`), where eight bytes of shared memory can be had to tell it."""
        if not can_fork():
            return None
        try:
            claimed: mmap.mmap | None = mmap.mmap(-1, _CLAIM.size)
        except OSError:  # no room: the helper goes on until it is stopped
            claimed = None
        if claimed is not None:
            _CLAIM.pack_into(claimed, 0, -1)
        forked = fork_child(lambda fd: _helper_main(extract, indices, fd, claimed))
        if forked is None:
            if claimed is not None:
                claimed.close()
            return None
        import fcntl  # here: Windows has none (and no fork)

        with contextlib.suppress(OSError, AttributeError):  # refused: the helper waits more
            fcntl.fcntl(forked[1], fcntl.F_SETPIPE_SZ, PIPE_BYTES)
        return cls(*forked, claimed)

    def rows(self, index: int, patience: float) -> Rows | None:
        """The helper's rows of system ``index``: those it has sent; if it is working on that
        system, those it sends within ``patience`` seconds; else None (extract it here)."""
        self._take(timeout=None)
        if index in self._begun and index not in self._rows and not self._over:
            deadline = time.monotonic() + patience
            while index not in self._rows and not self._over:
                left = deadline - time.monotonic()
                if left <= 0:
                    self.close()  # slow or stuck: everything left is extracted here
                    break
                self._take(timeout=left)
        return self._rows.pop(index, None)

    def reached(self, index: int) -> None:
        """Tell the helper that this process has reached system ``index`` (the one it is about
        to ask for): the helper, which goes the other way, begins no system from there on and
        ends once its last one is sent. It then does no work for nothing, and its memory is
        freed while this process extracts its last system, not while the bootstrap's product
        needs both cores. A system it had begun already is still sent (see :meth:`rows`)."""
        if self._claimed is not None:
            _CLAIM.pack_into(self._claimed, 0, index)

    def close(self, wait: bool = True) -> None:
        """Stop the helper (whatever it is doing) and wait for it to end; ``wait=False`` once
        everything wanted of it is received: a thread of its own then reaps it (see
        :func:`end_child`; the pipe's reader ends when the helper is gone)."""
        if self._pid:
            end_child(self._pid, wait)
            self._pid = 0
            if wait:
                self._reader.join()  # the pipe's writer is gone: the reader sees its end
        if self._claimed is not None:
            self._claimed.close()
            self._claimed = None
        self._over = True

    def _take(self, timeout: float | None) -> None:
        """Note the messages read so far; with a ``timeout``, wait that long for the first."""
        try:
            message = (
                self._messages.get(timeout=timeout) if timeout else self._messages.get_nowait()
            )
            while True:
                self._note(message)
                message = self._messages.get_nowait()
        except queue.Empty:
            pass

    def _note(self, message: tuple[Any, ...]) -> None:
        kind = message[0]
        if kind == "begun":
            self._begun.add(message[1])
        elif kind == "rows":
            self._rows[message[1]] = message[2]
        else:  # it failed or ended: nothing more will come
            self._over = True

    def _read(self) -> None:
        """The reading thread: every message from the pipe, then ``_OVER``."""
        try:
            with os.fdopen(self._fd, "rb") as pipe:
                while header := pipe.read(_HEADER.size):
                    if len(header) < _HEADER.size:
                        break
                    (size,) = _HEADER.unpack(header)
                    payload = pipe.read(size)
                    if len(payload) < size:
                        break  # the helper died while sending
                    self._messages.put(pickle.loads(payload))
        except Exception:  # a broken pipe or message: the helper's work is lost, not ours
            pass
        self._messages.put(_OVER)


def _helper_main(
    extract: Callable[[int], Rows], indices: Sequence[int], fd: int, claimed: mmap.mmap | None
) -> NoReturn:
    """The forked helper: extract, send, stop before a system the parent has reached, and leave
    without running anything of the parent's (no exit handlers, no flushing of its buffers, the
    default action for signals)."""
    code = 0
    try:
        default_signals()
        with os.fdopen(fd, "wb") as pipe:
            for index in indices:
                if claimed is not None and _CLAIM.unpack_from(claimed)[0] >= index:
                    break  # the parent is there: it extracts this one and those before it
                _send(pipe, ("begun", index))
                try:
                    rows = extract(index)
                except Exception:  # this process extracts it again and reports the error
                    _send(pipe, ("failed", index))
                    break
                _send(pipe, ("rows", index, dict(rows)))
    except BaseException:
        code = 1
    finally:
        os._exit(code)


def _send(pipe: Any, message: tuple[Any, ...]) -> None:
    payload = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    pipe.write(_HEADER.pack(len(payload)) + payload)
    pipe.flush()
