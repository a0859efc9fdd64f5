"""The studies' two innermost loops, compiled (see :mod:`~mtgui.engine.runtime.compiled`), with
numpy's equivalents where numba is missing (the loops would then run as Python, far slower).

- :func:`draw_counts`: a resample's counts per unit, from numpy's draws. The draws are the
  very call of :func:`mtgui.engine.resampling.draws.draw_counts` (the same stream for a seed); only
  the counting is compiled: one pass over the draws instead of a ``bincount`` per resample,
  2-3x faster. It was a fifth of the size study's time.
- :func:`information_sums`: NIST's information sums of a subset, every source at once
  (:mod:`~mtgui.engine.studies.subset_nist`): one pass over the matched n-grams, where numpy
  made four (gather the weights, multiply, bincount, per source). The sums are added in the
  same order as ``bincount`` adds them, product by product, so they are the same to the bit
  (the tests compare both ways on real data).

Both kernels release the GIL. Importing this module imports numba (about half a second), so
the studies import it when they start, never at startup.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from mtgui.engine.core.arrays import BoolArray, Float32Array, FloatArray, IntArray
from mtgui.engine.runtime.compiled import COMPILED, kernel

Int32Array = npt.NDArray[np.int32]


def draw_counts(rng: np.random.Generator, resamples: int, units: int) -> Float32Array:
    """:func:`mtgui.engine.resampling.draws.draw_counts`: the same counts from the same draws."""
    return count_picks(draw_picks(rng, resamples, units), units)


def draw_picks(rng: np.random.Generator, resamples: int, units: int) -> IntArray:
    """The units each resample draws: :func:`mtgui.engine.resampling.draws.draw_counts`'s draws."""
    return rng.integers(0, units, size=(resamples, units))


def count_picks(picks: IntArray, units: int) -> Float32Array:
    """How often each resample (a row of ``picks``) draws each unit."""
    if COMPILED:
        counts = np.zeros((len(picks), units), dtype=np.float32)
        _count(picks, counts)
        return counts
    return count_with_numpy(picks, units)


def count_with_numpy(picks: IntArray, units: int) -> Float32Array:
    """How often each unit is drawn, row by row (:func:`draw_counts` without numba)."""
    counts = np.empty((picks.shape[0], units), dtype=np.float32)
    for row, picked in zip(counts, picks, strict=True):
        row[:] = np.bincount(picked, minlength=units)
    return counts


@kernel
def _count(picks: IntArray, counts: Float32Array) -> None:
    """Add one to ``counts[b, u]`` for every draw ``u`` of resample ``b``."""
    for b in range(picks.shape[0]):
        for j in range(picks.shape[1]):
            counts[b, picks[b, j]] += 1.0


def information_sums(
    bins: IntArray,
    grams: IntArray,
    clipped: FloatArray,
    caps: Int32Array | None,
    members: BoolArray,
    weights: FloatArray,
    size: int,
) -> FloatArray:
    """For every source (a row of ``weights``: one weight per n-gram), the sums over the pairs
    of ``count[p] * weights[source, grams[p]]`` into ``bins[p]``: shape (size, sources), as
    ``np.bincount(bins, count * weights[source, grams], minlength=size)`` per source.

    A pair's count is ``clipped[p]``; with ``caps`` (pairs x references), no more than the
    largest ``caps[p, r]`` of the references ``r`` of the source (``members``: sources x
    references).
    """
    if caps is None:
        caps, members = np.zeros((len(bins), 0), np.int32), np.zeros((len(weights), 0), bool)
    if COMPILED:
        sums = np.zeros((size, len(weights)))
        _information(bins, grams, clipped, caps, members, np.ascontiguousarray(weights.T), sums)
        return sums
    columns = [
        np.bincount(bins, _capped(clipped, caps, members[s]) * weights[s, grams], size)
        for s in range(len(weights))
    ]
    return np.stack(columns, axis=1) if columns else np.zeros((size, 0))


def _capped(clipped: FloatArray, caps: Int32Array, members: BoolArray) -> FloatArray:
    """The pairs' counts against one source's references (all of them without caps)."""
    if not caps.shape[1]:
        return clipped
    return np.minimum(clipped, caps[:, members].max(axis=1, initial=0))


@kernel
def _information(
    bins: IntArray,
    grams: IntArray,
    clipped: FloatArray,
    caps: Int32Array,
    members: BoolArray,
    weights: FloatArray,
    sums: FloatArray,
) -> None:
    """:func:`information_sums`' loop; ``weights`` is (n-grams, sources)."""
    sources, references = sums.shape[1], caps.shape[1]
    for p in range(bins.shape[0]):
        row, gram = bins[p], grams[p]
        for s in range(sources):
            value = clipped[p]
            if references:
                cap = 0
                for r in range(references):
                    if members[s, r] and caps[p, r] > cap:
                        cap = caps[p, r]
                value = min(value, float(cap))
            sums[row, s] += value * weights[gram, s]
