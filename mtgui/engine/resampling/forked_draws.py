"""The resample counts drawn ahead by a forked copy of this process, into shared memory.

Why: drawn on a thread (:class:`~mtgui.engine.resampling.draws.ResampleDraws`), the counts share the
interpreter lock with the thread that extracts the statistics, and ``bincount`` holds it while
it counts. On the standing benchmark (10,000 resamples of 3,000 segments) the draws then cost
the run about 55 ms of wall time, measured by handing the bootstrap counts drawn beforehand.
A fork shares no lock: the child draws on the other core while this process prepares the
references, which it does alone until the system helper is forked
(:mod:`~mtgui.engine.statistics.system_helper`).

The child draws with the very generator and function the thread would use, chunk by chunk,
into an anonymous shared mapping of one byte per count, and writes a byte to a pipe after each
chunk. It never decides anything: where it stops early (it failed, died, met a count over
255, which needs more than a byte, or kept silent for :data:`PATIENCE` seconds, stopped by a
signal), this process draws everything again on a thread from the same seed and skips what it
has already taken, so the counts are the same whatever happens to the child.

Done drawing, the child waits until this process is done with the counts (or ends): the
memory then goes with the child, on the other core, instead of being freed here.

Only on Linux, and only where the caller knows that this process may fork and has no other
thread: the command line, before the statistics. Never the desktop application.
"""

from __future__ import annotations

import contextlib
import mmap
import os
import select
from typing import NoReturn

import numpy as np
import numpy.typing as npt

from mtgui.engine.core.arrays import Float32Array
from mtgui.engine.resampling.draws import ResampleDraws, chunk_sizes, draw_compact_counts
from mtgui.engine.resampling.settings import check_seed
from mtgui.engine.statistics.system_helper import can_fork, default_signals, end_child, fork_child

SHARED_AT_MOST = 6.4e7  # counts in the shared mapping at most: 64 MB, as the thread's budget
PATIENCE = 30.0  # seconds to wait for the child's next chunk (all 64 MB take about 0.3 s)
_CHUNK_DONE = b"."  # the child drew one more chunk
_STOPPED = b"x"  # the child stops early: this process draws it all again


class ForkedDraws:
    """Counts drawn by a forked child, taken in order (the interface of ``ResampleDraws``)."""

    def __init__(
        self,
        seed: int,
        total: int,
        units: int,
        child: tuple[int, int, int],
        shared: mmap.mmap,
    ) -> None:
        self.seed, self.total, self.units = seed, total, units
        self._pid, self._fd, self._hold = child  # pid, its reports, what keeps it alive
        self._shared = shared
        self._counts: npt.NDArray[np.uint8] | None = np.frombuffer(shared, np.uint8).reshape(
            total, units
        )
        self._sizes = chunk_sizes(total, units)
        self._reported = 0  # chunks the child has drawn, as far as this process has read
        self._drawn = 0  # the resamples in them
        self._taken = 0
        self._stopped = False  # the child has said it stops early
        self._fallback: ResampleDraws | None = None

    @classmethod
    def start(cls, seed: int, total: int, units: int) -> ForkedDraws | None:
        """Fork a child drawing all ``total`` resamples of ``units`` units, or None where none
        can be forked (no room for the mapping, no descriptor or process left) or the counts
        would not fit :data:`SHARED_AT_MOST`: then draw on a thread."""
        seed = check_seed(seed)
        if not can_fork() or not 0 < total * units <= SHARED_AT_MOST:
            return None
        try:  # no room left: the thread may still manage
            shared = mmap.mmap(-1, total * units)
        except OSError:
            return None
        try:  # no descriptor left
            held, hold = os.pipe()
        except OSError:
            shared.close()
            return None
        forked = fork_child(lambda fd: _draw_into(seed, shared, total, units, fd, (held, hold)))
        os.close(held)
        if forked is None:
            shared.close()
            os.close(hold)
            return None
        return cls(seed, total, units, (*forked, hold), shared)

    def take(self, resamples: int) -> Float32Array:
        """The counts of the next ``resamples`` resamples (whole numbers, as float32)."""
        if self._fallback is None:
            end = self._taken + resamples
            while self._drawn < end and self._read_progress():
                pass
            if self._drawn >= end and self._counts is not None:
                counts = self._counts[self._taken : end].astype(np.float32)
                self._taken = end
                return counts
            self._fall_back()
        assert self._fallback is not None
        self._taken += resamples
        return self._fallback.take(resamples)

    def close(self) -> None:
        """Free the mapping and stop the child, whatever it is doing.

        The mapping is unmapped here while the child still maps it, so that the child's end
        frees its memory, on the other core (and a thread of its own reaps it): 1 ms here instead
        of the 6-7 ms of freeing the standing benchmark's 30 MB.
        """
        self._counts = None
        with contextlib.suppress(BufferError):  # a view still alive: freed when it goes
            self._shared.close()
        self._stop_child(wait=False)
        if self._fallback is not None:
            self._fallback.close()

    def _read_progress(self) -> bool:
        """Read what the child has reported (waiting for at least a byte, at most
        :data:`PATIENCE` seconds); False once it has stopped early, is gone or keeps silent.

        A stop is remembered: it may come in one read with the last chunks this process needs
        now, and the child, which then waits for this process to be done, sends nothing more.
        """
        if not self._pid or self._stopped:
            return False
        ready, _, _ = select.select([self._fd], [], [], PATIENCE)
        if not ready:  # stopped (SIGSTOP) or starved: the thread draws instead
            return False
        news = os.read(self._fd, 4096)
        for byte in news:
            if byte != _CHUNK_DONE[0]:
                self._stopped = True
                return False
            self._drawn += self._sizes[self._reported]
            self._reported += 1
        return bool(news)

    def _fall_back(self) -> None:
        """The child stopped early: draw on a thread from the same seed, past what was taken."""
        self._stop_child()
        self._fallback = ResampleDraws(self.seed, self.total, self.units)
        skipped = self._taken
        while skipped:
            step = min(skipped, self._sizes[0])
            self._fallback.take(step)
            skipped -= step

    def _stop_child(self, wait: bool = True) -> None:
        if self._pid:
            end_child(self._pid, wait)
            self._pid = 0
            os.close(self._fd)
            os.close(self._hold)


def _draw_into(
    seed: int, shared: mmap.mmap, total: int, units: int, fd: int, hold: tuple[int, int]
) -> NoReturn:
    """The forked child: draw chunk by chunk into ``shared`` and report each; then wait until
    the parent is done with the counts (it stops this child, or ends: the write end of the
    ``hold`` pipe, which only the parent keeps open, closes) and leave without running anything
    of the parent's (no exit handlers, no flushing of its buffers). The generator is made here:
    the first one imports ``numpy.random`` (10 ms), which here is off the parent's path."""
    code = 0
    held, parents_end = hold
    try:
        os.close(parents_end)
        default_signals()
        rng = np.random.default_rng(seed)
        counts = np.frombuffer(shared, np.uint8).reshape(total, units)
        start = 0
        for size in chunk_sizes(total, units):
            drawn = draw_compact_counts(rng, size, units, alone=True)
            if drawn.dtype != np.uint8:  # a count over 255: the parent draws on a thread
                os.write(fd, _STOPPED)
                break
            counts[start : start + size] = drawn
            start += size
            os.write(fd, _CHUNK_DONE)
    except BaseException:
        code = 1
        with contextlib.suppress(OSError):
            os.write(fd, _STOPPED)
    finally:
        with contextlib.suppress(BaseException):
            os.read(held, 1)  # nothing is ever written: this returns at the parent's end
        os._exit(code)
