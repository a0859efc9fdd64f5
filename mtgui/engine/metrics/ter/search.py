"""TER's edits with shifts, as sacreBLEU's ``lib_ter`` counts them, compiled.

sacreBLEU (after Tercom) greedily applies the shift of a hypothesis phrase that lowers the beam
edit distance (:mod:`~mtgui.engine.metrics.ter.editdistance`) the most, until none does or 1,000
candidate shifts have been tried for the segment; the edits are the shifts made plus the final
edit distance. Everything that decides which shift wins is kept exactly: the candidates'
order (hypothesis start, reference start, then length, up to 10 words and 50 positions apart),
the filters (the phrase has an error in the hypothesis and at its reference position, and is
not moved inside itself), the targets (after the words aligned to the reference positions
before and inside the phrase, each once), the ranking (gain, then longer, earlier start,
earlier target), and the candidate limit, counted across the segment and checked before the
best shift is applied.

What is not sacreBLEU's is how the work is done: words are integer ids, a candidate's edit
distance starts from the current hypothesis' matrix row where the shifted words begin to
differ (sacreBLEU's prefix cache does the same with a trie of rows), and a candidate whose
cost can no longer beat the best one is dropped early (a row's smallest cell plus the length
difference still to go is a lower bound of the distance). Neither changes a result.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from mtgui.engine.core.arrays import IntArray
from mtgui.engine.metrics.ter.editdistance import DEL, INF, INS, NOP, SUB, fill_row
from mtgui.engine.runtime.compiled import kernel

MAX_SHIFT_SIZE = 10  # Tercom's limits, as sacreBLEU keeps them
MAX_SHIFT_DIST = 50
BEAM_WIDTH = 25
MAX_SHIFT_CANDIDATES = 1000  # sacreBLEU's own limit, per segment and reference


@kernel
def _band(i: int, n: int, m: int, ratio: float, beam: int) -> tuple[int, int]:
    """The columns of row ``i`` inside sacreBLEU's beam: around the "pseudo-diagonal"
    ``i * m / n``; the last row whole."""
    diagonal = math.floor(i * ratio)
    lo = max(0, diagonal - beam)
    hi = m + 1 if i == n else min(m + 1, diagonal + beam)
    return lo, hi


@kernel
def _matrix(
    words: IntArray,
    ref: IntArray,
    ratio: float,
    beam: int,
    dist: IntArray,
    ops: npt.NDArray[np.int8],
) -> int:
    """The whole beam edit-distance matrix of ``words``, with each cell's operation; returns
    the distance."""
    n, m = words.shape[0], ref.shape[0]
    for j in range(m + 1):
        dist[0, j] = j
        ops[0, j] = INS
    for i in range(1, n + 1):
        lo, hi = _band(i, n, m, ratio, beam)
        fill_row(dist[i - 1], dist[i], ops[i], True, words[i - 1], ref, lo, hi)
    return int(dist[n, m])


@kernel
def _align(
    ops: npt.NDArray[np.int8],
    n: int,
    m: int,
    align: IntArray,
    hyp_err: IntArray,
    ref_err: IntArray,
) -> None:
    """sacreBLEU's ``trace_to_alignment`` of the flipped trace: for each reference word the
    hypothesis position it is aligned to (-1 before the first), and which words are errors."""
    trace = np.empty(n + m, dtype=np.int8)
    k, i, j = 0, n, m
    while i > 0 or j > 0:
        op = ops[i, j]
        trace[k] = op
        k += 1
        if op in (NOP, SUB):
            i -= 1
            j -= 1
        elif op == INS:
            j -= 1
        elif op == DEL:
            i -= 1
        else:
            raise ValueError("TER: a trace left the beam")
    pos_hyp, pos_ref = -1, -1
    for t in range(k - 1, -1, -1):
        op = trace[t]
        if op == DEL:  # a hypothesis word with no reference word
            pos_hyp += 1
            hyp_err[pos_hyp] = 1
        else:
            pos_ref += 1
            align[pos_ref] = pos_hyp
            if op == INS:  # a reference word with no hypothesis word
                ref_err[pos_ref] = 1
            else:
                pos_hyp += 1
                align[pos_ref] = pos_hyp
                hyp_err[pos_hyp] = ref_err[pos_ref] = 0 if op == NOP else 1


@kernel
def _shift(words: IntArray, start: int, length: int, target: int, out: IntArray) -> None:
    """sacreBLEU's ``_perform_shift``: ``words[start:start+length]`` moved to ``target``, into
    ``out`` (its third case, a target inside the phrase, included as it is)."""
    n = words.shape[0]
    if target < start:
        parts = ((0, target), (start, start + length), (target, start), (start + length, n))
    elif target > start + length:
        parts = ((0, start), (start + length, target), (start, start + length), (target, n))
    else:
        end = min(n, length + target)
        parts = ((0, start), (start + length, end), (start, start + length), (end, n))
    k = 0
    for a, b in parts:
        out[k : k + b - a] = words[a:b]
        k += b - a


@kernel
def _distance_from(
    shifted: IntArray,
    ref: IntArray,
    ratio: float,
    beam: int,
    dist: IntArray,
    first: int,
    rows: IntArray,
    enough: int,
) -> int:
    """The beam edit distance of ``shifted``, whose first ``first`` words are those of the
    words ``dist`` holds the matrix of; once it surely exceeds ``enough``, a lower bound."""
    n, m = shifted.shape[0], ref.shape[0]
    no_ops = np.empty(0, dtype=np.int8)
    prev = dist[first]
    for i in range(first + 1, n + 1):
        lo, hi = _band(i, n, m, ratio, beam)
        row = rows[i % 2]
        fill_row(prev, row, no_ops, False, shifted[i - 1], ref, lo, hi)
        prev = row
        bound = INF
        for j in range(lo, hi):  # each remaining row or column costs at least one edit
            bound = min(bound, row[j] + abs((n - i) - (m - j)))
        if bound > enough:
            return bound
    return int(prev[m])


@kernel
def _better(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    """sacreBLEU's ranking of shifts (gain, length, -start, -target): is ``a`` above ``b``?"""
    for k in range(4):
        if a[k] != b[k]:
            return a[k] > b[k]
    return False


@kernel
def _best_shift(
    words: IntArray,
    ref: IntArray,
    ratio: float,
    beam: int,
    dist: IntArray,
    pre: int,
    align: IntArray,
    hyp_err: IntArray,
    ref_err: IntArray,
    checked: int,
) -> tuple[tuple[int, int, int, int], int]:
    """sacreBLEU's ``_shift``: the best candidate shift as (gain, length, -start, -target)
    (gain 0 if there is none) and the candidates tried so far in the segment."""
    n, m = words.shape[0], ref.shape[0]
    shifted = np.empty(n, dtype=np.int64)
    rows = np.empty((2, m + 1), dtype=np.int64)
    best = (0, 0, 0, 0)
    found = False
    for start_h in range(n):
        # sacreBLEU skips reference starts more than MAX_SHIFT_DIST away; these are the rest
        nearest, farthest = max(0, start_h - MAX_SHIFT_DIST), min(m, start_h + MAX_SHIFT_DIST + 1)
        for start_r in range(nearest, farthest):
            length = 0
            while words[start_h + length] == ref[start_r + length] and length < MAX_SHIFT_SIZE:
                length += 1
                if _worth_trying(start_h, start_r, length, align, hyp_err, ref_err):
                    previous = -1
                    for offset in range(-1, length):
                        target = 0 if start_r + offset == -1 else align[start_r + offset] + 1
                        if target == previous:
                            continue
                        previous = target
                        _shift(words, start_h, length, target, shifted)
                        enough = 4 * INF  # no best yet: never stop early
                        if found:  # the most edits with which this shift could still win
                            ties_win = _better((best[0], length, -start_h, -target), best)
                            enough = pre - best[0] - (0 if ties_win else 1)
                        first = min(start_h, target)
                        cost = _distance_from(shifted, ref, ratio, beam, dist, first, rows, enough)
                        candidate = (pre - cost, length, -start_h, -target)
                        checked += 1
                        if not found or _better(candidate, best):
                            best = candidate
                            found = True
                    if checked >= MAX_SHIFT_CANDIDATES:
                        return best, checked
                if n == start_h + length or m == start_r + length:
                    break
    return best, checked


@kernel
def _worth_trying(
    start_h: int, start_r: int, length: int, align: IntArray, hyp_err: IntArray, ref_err: IntArray
) -> bool:
    """sacreBLEU's filters: the phrase has an error in the hypothesis and at its place in the
    reference, and the reference position is not aligned inside the phrase itself."""
    if hyp_err[start_h : start_h + length].sum() == 0:
        return False
    if ref_err[start_r : start_r + length].sum() == 0:
        return False
    return not (start_h <= align[start_r] < start_h + length)


@kernel
def ter_edits(hyp: IntArray, ref: IntArray) -> int:
    """sacreBLEU's ``translation_edit_rate``: the shifts made plus the remaining edit distance
    (for an empty reference, the hypothesis' length)."""
    n, m = hyp.shape[0], ref.shape[0]
    if m == 0:
        return n
    ratio = m / n if n > 0 else 1.0
    beam = math.ceil(ratio / 2 + BEAM_WIDTH) if ratio / 2 > BEAM_WIDTH else BEAM_WIDTH
    words, spare = hyp.copy(), np.empty(n, dtype=np.int64)
    dist = np.empty((n + 1, m + 1), dtype=np.int64)
    ops = np.empty((n + 1, m + 1), dtype=np.int8)
    align = np.empty(m, dtype=np.int64)
    hyp_err, ref_err = np.empty(n, dtype=np.int64), np.empty(m, dtype=np.int64)
    shifts, checked = 0, 0
    while True:
        pre = _matrix(words, ref, ratio, beam, dist, ops)
        _align(ops, n, m, align, hyp_err, ref_err)
        best, checked = _best_shift(
            words, ref, ratio, beam, dist, pre, align, hyp_err, ref_err, checked
        )
        # sacreBLEU stops at the candidate limit before it applies the best shift found.
        if checked >= MAX_SHIFT_CANDIDATES or best[0] <= 0:
            return shifts + pre
        shifts += 1
        _shift(words, -best[2], best[1], -best[3], spare)
        words, spare = spare, words


@kernel
def ter_rows(
    hyp_ids: IntArray,
    hyp_starts: IntArray,
    ref_ids: IntArray,
    ref_starts: IntArray,
    ref_ends: IntArray,
    present: npt.NDArray[np.bool_],
    out: npt.NDArray[np.float64],
) -> None:
    """sacreBLEU's TER statistics of segments: per segment the fewest edits to any reference
    and the references' average length, into ``out`` (shape (N, 2)). Hypothesis ``s`` is
    ``hyp_ids[hyp_starts[s]:hyp_starts[s + 1]]``, its reference ``r``
    ``ref_ids[ref_starts[r, s]:ref_ends[r, s]]``; only the references ``present[r, s]`` count
    (a missing one is sacreBLEU's ``None``; every segment has one)."""
    for s in range(out.shape[0]):
        hyp = hyp_ids[hyp_starts[s] : hyp_starts[s + 1]]
        fewest, total, count = INF, 0, 0
        for r in range(ref_starts.shape[0]):
            if not present[r, s]:
                continue
            ref = ref_ids[ref_starts[r, s] : ref_ends[r, s]]
            fewest = min(fewest, ter_edits(hyp, ref))
            total += ref.shape[0]
            count += 1
        out[s, 0] = fewest
        out[s, 1] = total / count


def warm_up() -> None:
    """Compile the kernels, or load them compiled from numba's cache, on a tiny example (once
    per process): the first real chunk would otherwise take seconds and be cut too small."""
    ids = np.zeros(2, dtype=np.int64)
    bounds = np.zeros((1, 1), dtype=np.int64)
    present = np.ones((1, 1), dtype=np.bool_)
    ter_rows(
        ids, np.array([0, 2], dtype=np.int64), ids, bounds, bounds + 2, present, np.zeros((1, 2))
    )
