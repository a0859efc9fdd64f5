"""Per-segment work done in chunks of about :data:`CHUNK_SECONDS`, so that a cancel is prompt.

TER's search for shifts takes far longer on a long segment than on a short one, and uncompiled
(without numba) a large test set takes tens of seconds per system. Run in one call, that would
hold the engine's generator for as long, and a cancel (closing the generator between its yields)
would wait for it. Here the work runs on consecutive chunks of the segments, each sized from the
speed measured so far, and the generator yields between chunks. A segment's statistics depend on
that segment and its references alone, so chunking never changes a number.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator

import numpy as np

from mtgui.engine.core.arrays import FloatArray

CHUNK_SECONDS = 0.05  # the time one chunk should take: a cancel waits at most about this long
_FIRST_CHUNK = 8  # segments, before any speed is known
_MAX_CHUNK = 4096


class ChunkSizer:
    """Where the next chunk of segments ends: as much estimated work as fits in
    :data:`CHUNK_SECONDS` at the speed of the last chunk, at most twice the last chunk's work
    (it may have been of easy segments), and at least one segment.

    ``costs`` estimate each segment's work (for TER, which is far slower on long segments than
    on short ones, from their lengths; by default all alike); the first chunk is ``first``
    segments, before any speed is known.
    """

    def __init__(self, costs: FloatArray, first: int = _FIRST_CHUNK) -> None:
        self._ends = np.cumsum(np.asarray(costs, dtype=np.float64))
        self._first = first
        self._budget: float | None = None  # work per chunk; None before the first chunk

    def next_stop(self, start: int) -> int:
        """The end of the chunk that starts at segment ``start``."""
        size = len(self._ends)
        if self._budget is None:
            return min(start + self._first, size)
        before = self._ends[start - 1] if start else 0.0
        stop = int(np.searchsorted(self._ends, before + self._budget, side="right"))
        return int(np.clip(stop, start + 1, min(start + _MAX_CHUNK, size)))

    def measure(self, start: int, stop: int, seconds: float) -> None:
        """Record that the chunk ``start:stop`` took ``seconds``."""
        work = self._ends[stop - 1] - (self._ends[start - 1] if start else 0.0)
        self._budget = min(CHUNK_SECONDS * work / max(seconds, 1e-6), 2 * work)


def iter_in_chunks(
    size: int, work: Callable[[int, int], None], costs: FloatArray | None = None
) -> Generator[int, None, None]:
    """Call ``work(start, stop)`` on consecutive chunks of ``range(size)``, sized by a
    :class:`ChunkSizer` (with the segments' ``costs``) from the time each took; yield ``stop``
    after each."""
    sizer = ChunkSizer(np.ones(size) if costs is None else costs)
    start = 0
    while start < size:
        stop = sizer.next_stop(start)
        began = time.perf_counter()
        work(start, stop)
        sizer.measure(start, stop, time.perf_counter() - began)
        start = stop
        yield stop
