"""sacreBLEU's per-segment statistics (chrF, TER) extracted in chunks, so that a cancel is prompt.

sacreBLEU's TER spends up to a second on one long segment (its search for shifts), and its chrF
and TER of a large test set take tens of seconds per system. Run in one call, that would hold
the engine's generator for as long, and a cancel (closing the generator between its yields)
would wait for it: quitting the window during a run with TER took 6-21 s. Here the same
sacreBLEU code runs on consecutive chunks of the segments, each sized to take about
:data:`CHUNK_SECONDS` at the speed measured so far, and the generators yield between chunks.
A segment's statistics depend on that segment and its references alone, so the result is
exactly sacreBLEU's on the whole test set.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Generator, Sequence
from typing import Any

import numpy as np

from mtgui.engine.metrics.base import FloatArray

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


def iter_scorer(
    factory: Callable[[], Any], references: Sequence[Sequence[str]]
) -> Generator[int, None, Any]:
    """A sacreBLEU metric from ``factory()`` (made without references) with ``references``
    cached chunk by chunk, as its constructor would cache them all at once; yields 0 after each
    chunk (no segment of a system is done yet)."""
    scorer = factory()
    cache: list[Any] = []

    def work(start: int, stop: int) -> None:
        cache.extend(scorer._cache_references([list(ref[start:stop]) for ref in references]))

    for _ in iter_in_chunks(len(references[0]) if references else 0, work):
        yield 0
    scorer._ref_cache = cache
    scorer.num_refs = len(references)
    return scorer


def iter_segment_statistics(
    scorer: Any, hypotheses: Sequence[str], columns: int, costs: FloatArray | None = None
) -> Generator[int, None, FloatArray]:
    """sacreBLEU's ``_extract_corpus_statistics`` of ``hypotheses`` against the scorer's
    cached references, chunk by chunk (``costs``: each segment's estimated work, see
    :class:`ChunkSizer`); yields the segments done after each chunk and returns the rows,
    shape (N, ``columns``)."""
    rows = np.zeros((len(hypotheses), columns))

    def work(start: int, stop: int) -> None:
        part = copy.copy(scorer)  # shares the references, sees only this chunk's
        part._ref_cache = scorer._ref_cache[start:stop]
        stats = part._extract_corpus_statistics(list(hypotheses[start:stop]), None)
        rows[start:stop] = np.asarray(stats, dtype=np.float64).reshape(stop - start, columns)

    yield from iter_in_chunks(len(hypotheses), work, costs)
    return rows
