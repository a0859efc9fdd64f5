"""Word edit distances, compiled (see :mod:`~mtgui.engine.runtime.compiled`): WER's and TER's
kernel.

One row of the dynamic programme, :func:`fill_row`, serves both: WER fills every cell of every
row (the plain Levenshtein distance), TER only a band around the diagonal, as sacreBLEU's
``BeamEditDistance`` does, and keeps each cell's operation to trace the alignment back. A row
follows sacreBLEU exactly: cells outside the band are "infinite", and on equal costs the
operation preferred is a match or substitution, then a deletion (of a hypothesis word), then
an insertion (of a reference word), which decides TER's alignment and so its shifts.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from mtgui.engine.core.arrays import IntArray
from mtgui.engine.runtime.compiled import kernel

INF = 10**16  # sacreBLEU's _INT_INFINITY: a cell outside the band
NOP, SUB, INS, DEL, UNDEF = 0, 1, 2, 3, 4  # a cell's operation (sacreBLEU's ' ', s, i, d, x)


@kernel
def fill_row(
    prev: IntArray,
    row: IntArray,
    ops: npt.NDArray[np.int8],
    track: bool,
    word: int,
    ref: IntArray,
    lo: int,
    hi: int,
) -> None:
    """Row ``i`` of the edit-distance matrix from row ``i - 1`` (``prev``), for the hypothesis
    word ``word``, in the columns ``lo:hi`` (the rest infinite); with ``track`` each cell's
    operation goes to ``ops``. Costs are all 1, as in sacreBLEU's TER."""
    m = ref.shape[0]
    for j in range(lo):
        row[j] = INF
    for j in range(hi, m + 1):
        row[j] = INF
    for j in range(lo, hi):
        if j == 0:
            best = prev[0] + 1
            op = DEL
        else:
            # sacreBLEU starts from infinity and takes an operation only if strictly cheaper.
            best = INF
            op = UNDEF
            same = word == ref[j - 1]
            cost = prev[j - 1] + (0 if same else 1)
            if cost < best:
                best = cost
                op = NOP if same else SUB
            cost = prev[j] + 1
            if cost < best:
                best = cost
                op = DEL
            cost = row[j - 1] + 1
            if cost < best:
                best = cost
                op = INS
        row[j] = best
        if track:
            ops[j] = op


@kernel
def _levenshtein(hyp: IntArray, ref: IntArray) -> int:
    """The plain edit distance of two id sequences (every cell of every row)."""
    m = ref.shape[0]
    prev = np.arange(m + 1, dtype=np.int64)
    row = np.empty(m + 1, dtype=np.int64)
    no_ops = np.empty(0, dtype=np.int8)
    for i in range(hyp.shape[0]):
        fill_row(prev, row, no_ops, False, hyp[i], ref, 0, m + 1)
        prev, row = row, prev
    return int(prev[m])


@kernel
def _all_distances(
    hyp_ids: IntArray, hyp_starts: IntArray, ref_ids: IntArray, ref_starts: IntArray
) -> IntArray:
    """The edit distance of every segment (``*_starts``: where each segment's ids begin, and
    one past the end)."""
    size = hyp_starts.shape[0] - 1
    result = np.empty(size, dtype=np.int64)
    for s in range(size):
        hyp = hyp_ids[hyp_starts[s] : hyp_starts[s + 1]]
        ref = ref_ids[ref_starts[s] : ref_starts[s + 1]]
        result[s] = _levenshtein(hyp, ref)
    return result


def edit_distances(
    hyp_ids: IntArray, hyp_lengths: IntArray, ref_ids: IntArray, ref_lengths: IntArray
) -> IntArray:
    """The edit distance (insertions, deletions, substitutions) of each segment's hypothesis
    and reference, both given as flat token ids cut into segments of the given lengths."""
    return _all_distances(
        np.ascontiguousarray(hyp_ids, dtype=np.int64),
        starts(hyp_lengths),
        np.ascontiguousarray(ref_ids, dtype=np.int64),
        starts(ref_lengths),
    )


def warm_up() -> None:
    """Compile the kernels, or load them compiled from numba's cache, on a tiny example."""
    one = np.ones(1, dtype=np.int64)
    edit_distances(one, one, one, one)


def starts(lengths: IntArray) -> IntArray:
    """Where each segment begins in the flat ids, and one past the end."""
    return np.concatenate(([0], np.cumsum(lengths, dtype=np.int64))).astype(np.int64)
