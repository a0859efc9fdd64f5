"""chrF's clipped n-gram matches, counted by compiled kernels (see
:mod:`~mtgui.engine.runtime.compiled`): the numbers of :mod:`~mtgui.engine.metrics.chrf.counts`,
3-5x faster.

The method is that module's (every position of the hypothesis and of its references gets one
integer key packing its segment, the symbols of its longest n-gram and its source; sorted,
the equal n-grams of every order lie side by side), and so is the sort, numpy's (vectorised,
several times faster than numba's). What changes is the rest: numpy spent most of its time
on passes over a whole chunk's keys per order and per source (shifts, cumulative sums,
gathers, comparisons), where compiled loops build the keys in one pass and count each order
in one pass, keeping for the next order only the keys of the n-grams that matched (no other
can be part of a longer match), so that the higher orders cost less. The GIL is released
throughout, so the second core counts another chunk meanwhile.

A segment's symbols are numbered 1, 2, ... within the segment (one segment has few distinct
characters or words, whatever the alphabet: 5 to 7 bits each), so the keys nearly always fit
in 63 bits, Chinese characters and higher orders included. Where they do not, or numba is
missing (the kernels would then run as Python, far slower than numpy), numpy's counting does
the chunk.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np

from mtgui.engine.core.arrays import IntArray
from mtgui.engine.metrics.chrf import counts as chrf_counts
from mtgui.engine.metrics.chrf.symbols import Symbols
from mtgui.engine.runtime.compiled import COMPILED, kernel

_KEY_BITS = 63
_TABLES = threading.local()


def clipped_matches(sources: Sequence[Symbols], max_order: int, alphabet: int) -> IntArray:
    """:func:`mtgui.engine.metrics.chrf.counts.clipped_matches`: from the compiled kernels where
    numba is installed and the keys fit, else from numpy's counting."""
    if COMPILED:
        result = kernel_matches(sources, max_order, alphabet)
        if result is not None:
            return result
    return chrf_counts.clipped_matches(sources, max_order, alphabet)


def kernel_matches(sources: Sequence[Symbols], max_order: int, alphabet: int) -> IntArray | None:
    """The kernels' clipped matches, shape (R, N, ``max_order``), or None where the keys of
    this chunk would not fit in :data:`_KEY_BITS`."""
    references, segments = len(sources) - 1, sources[0].size
    result = np.zeros((references, segments, max_order), dtype=np.int64)
    values, starts, ends = _flat(sources, alphabet)
    if references == 0 or len(values) == 0:
        return result
    numbers = np.empty(len(values), dtype=np.int64)
    most = _number_symbols(values, starts, ends, _zeroed_table(alphabet), numbers)
    bits = int(most).bit_length()
    source_bits, segment_bits = references.bit_length(), (segments - 1).bit_length()
    if max_order * bits + source_bits + segment_bits > _KEY_BITS:
        return None
    layout = np.array([max_order, bits, source_bits], dtype=np.int64)
    keys = _pack_keys(numbers, starts, ends, layout)
    keys.sort()
    _add_matches(keys, layout, result)
    return result


def _flat(sources: Sequence[Symbols], alphabet: int) -> tuple[IntArray, IntArray, IntArray]:
    """All symbols, and where each source's segment starts and ends in them (shape (R + 1,
    N)), checked to be below ``alphabet`` (the kernels index a table with them, unchecked)."""
    values = np.concatenate([s.values for s in sources])
    if len(values) and not 0 <= values.min() <= values.max() < alphabet:
        raise ValueError(f"symbols must be from 0 to {alphabet - 1}")
    starts = np.stack([s.offsets[:-1] for s in sources])
    starts += np.cumsum([0] + [len(s.values) for s in sources[:-1]])[:, None]
    return values, starts, starts + np.stack([s.lengths for s in sources])


def warm_up() -> None:
    """Compile the kernels, or load them compiled from numba's cache, on a tiny example (once
    per process), so that the first chunk is not charged with it."""
    if COMPILED:
        one = Symbols.from_lengths(np.zeros(1, dtype=np.int64), np.ones(1, dtype=np.int64))
        kernel_matches([one, one], 1, 1)


def _zeroed_table(size: int) -> IntArray:
    """At least ``size`` zeros, this thread's from chunk to chunk (:func:`_number_symbols`
    leaves them zeroed): a fresh table per chunk would cost a page fault per word of a large
    vocabulary that the chunk has."""
    table: IntArray | None = getattr(_TABLES, "table", None)
    if table is None or len(table) < size:
        table = _TABLES.table = np.zeros(size, dtype=np.int64)
    return table


@kernel
def _number_symbols(
    values: IntArray, starts: IntArray, ends: IntArray, local: IntArray, numbers: IntArray
) -> int:
    """Number the distinct symbols of each segment 1, 2, ... (the same in all its sources)
    into ``numbers``; return the most any segment has.

    Source s of segment i (0: the hypothesis, r + 1: reference r) is
    ``values[starts[s, i]:ends[s, i]]``; ``local``, zeros at least as many as the symbols,
    holds a segment's numbers meanwhile and is left zeroed."""
    seen = np.empty(values.shape[0], dtype=np.int64)  # a segment's symbols, to reset
    most = 0
    for i in range(starts.shape[1]):
        distinct = 0
        for s in range(starts.shape[0]):
            text = slice(starts[s, i], ends[s, i])
            distinct = _number_text(values[text], local, seen, distinct, numbers[text])
        for k in range(distinct):
            local[seen[k]] = 0
        most = max(most, distinct)
    return most


@kernel
def _number_text(
    symbols: IntArray, local: IntArray, seen: IntArray, distinct: int, numbers: IntArray
) -> int:
    """Write the numbers of one text's ``symbols`` to ``numbers``, numbering the new ones
    after the ``distinct`` numbered before; return how many are numbered now."""
    for p in range(symbols.shape[0]):
        symbol = symbols[p]
        if local[symbol] == 0:
            seen[distinct] = symbol
            distinct += 1
            local[symbol] = distinct
        numbers[p] = local[symbol]
    return distinct


@kernel
def _pack_keys(numbers: IntArray, starts: IntArray, ends: IntArray, layout: IntArray) -> IntArray:
    """Each position's key: its segment in the highest bits, then the numbers of its
    ``max_order`` symbols (0 past the end of its text), then its source.

    ``layout`` is (max_order, bits a symbol, bits of the source)."""
    max_order, bits, source_bits = layout[0], layout[1], layout[2]
    top = bits * (max_order - 1)
    keys = np.empty(numbers.shape[0], dtype=np.int64)
    size = 0
    for s in range(starts.shape[0]):
        for i in range(starts.shape[1]):
            head = ((np.int64(i) << (bits * max_order)) << source_bits) | s
            window = np.int64(0)  # the symbols from position p on, the first in the highest bits
            for p in range(ends[s, i] - 1, starts[s, i] - 1, -1):
                window = (window >> bits) | (numbers[p] << top)
                keys[size] = head | (window << source_bits)
                size += 1
    return keys


@kernel
def _add_matches(keys: IntArray, layout: IntArray, out: IntArray) -> None:
    """Add every order's clipped matches to ``out`` (shape (R, N, max_order)) from the sorted
    ``keys`` of :func:`_pack_keys` (which are overwritten), an order at a time.

    Only a group of n-grams that matched can hold a longer match, so each order keeps the
    keys of its matched groups alone for the next (still sorted): the higher orders go over
    fewer keys."""
    size = keys.shape[0]
    for order in range(1, layout[0] + 1):
        size = _add_order(keys, size, order, layout, out)


@kernel
def _add_order(keys: IntArray, size: int, order: int, layout: IntArray, out: IntArray) -> int:
    """Add one order's clipped matches from ``keys[:size]``; keep the keys of the groups that
    matched at the front of ``keys`` and return how many.

    The equal n-grams of a segment are a run of keys equal above the n-th symbol; the run's
    matches with reference r are the smaller of its hypothesis and reference r counts
    (sacreBLEU's ``_get_match_statistics``). A run whose n-th symbol is 0 is of texts too
    short for the order: no n-gram. (One loop, not split further: numba does not inline a
    call here, and it would cost a fifth of the time.)"""
    max_order, bits, source_bits = layout[0], layout[1], layout[2]
    shift = source_bits + bits * (max_order - order)
    source_mask = (np.int64(1) << source_bits) - 1
    counts = np.zeros(out.shape[0] + 1, dtype=np.int64)  # of the run, per source
    j, kept = 0, 0
    while j < size:
        gram = keys[j] >> shift
        k = j
        while k < size and keys[k] >> shift == gram:
            counts[keys[k] & source_mask] += 1
            k += 1
        whole = (gram & ((np.int64(1) << bits) - 1)) != 0
        hypothesis = counts[0] if whole else 0
        counts[0] = 0
        matched = False
        for r in range(1, counts.shape[0]):
            if counts[r] > 0 and hypothesis > 0:
                out[r - 1, gram >> (bits * order), order - 1] += min(hypothesis, counts[r])
                matched = True
            counts[r] = 0
        for m in range(j, k if matched else j):
            keys[kept] = keys[m]
            kept += 1
        j = k
    return kept
