"""numpy steps that let other threads run while they work on large arrays.

Why: the window's thread needs the interpreter lock to draw, and the analysis runs on a worker
thread of the same process. numpy releases the lock in most of its loops over large arrays,
but not in all (numpy 2.4, measured with a 2 ms ticker beside the call, 10 million values):

- a cumulative sum over booleans casts them in buffered chunks and held the lock 220-270 ms
  (the same sum over integers: none of it);
- ``np.unique`` with ``return_inverse`` holds it in such a sum over its boolean mask (the
  window stalled 100 ms as a run on 100,000 segments started, in the references' n-grams);
- ``np.unique`` without return options counts with a hash table, holding the lock for the
  whole call (600 ms for 5 million values).

The functions here give the same results as those calls through steps that release it.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
import numpy.typing as npt

from mtgui.engine.core.arrays import IntArray


def running_count(mask: npt.ArrayLike) -> IntArray:
    """``np.cumsum(mask)`` for booleans: the number of True values up to each place."""
    return np.cumsum(np.asarray(mask).astype(np.int64))


def unique_inverse(
    values: npt.ArrayLike, runs: bool = False
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.intp]]:
    """``np.unique(values, return_inverse=True)`` for a 1-D array: its sorted distinct values,
    and for each value the place of its own among them."""
    flat = np.asarray(values).ravel()
    order, ordered = sorted_with_order(flat, runs)
    first = np.empty(len(ordered), dtype=bool)
    first[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=first[1:])
    inverse = np.empty(len(ordered), dtype=np.intp)
    inverse[order] = running_count(first) - 1
    return ordered[first], inverse


def sorted_with_order(
    flat: npt.NDArray[np.int64], runs: bool = False
) -> tuple[npt.NDArray[np.intp], IntArray]:
    """``flat.argsort()`` and ``flat`` in that order, where the order of equal values does not
    matter to the caller.

    Values >= 0 small enough to share an int64 with their place (n-gram pair ids, nearly
    always) are sorted as ``value << bits | place``: numpy's plain sort of integers is
    vectorised and 3x faster than its argsort, which the other values take."""
    if len(flat) == 0 or flat.dtype != np.int64:
        order = flat.argsort()
        return order, flat[order]
    bits = (len(flat) - 1).bit_length()
    if int(flat.min()) < 0 or int(flat.max()) >= 2 ** (62 - bits):
        order = flat.argsort()
        return order, flat[order]
    packed = np.sort((flat << bits) | np.arange(len(flat), dtype=np.int64), kind=_kind(runs))
    return (packed & ((1 << bits) - 1)).astype(np.intp), packed >> bits


def distinct_count(values: npt.ArrayLike) -> int:
    """``len(np.unique(values))`` for whole numbers (document indices, say): how many
    different values there are."""
    ordered = np.sort(np.asarray(values).ravel())
    return int(len(ordered) > 0) + int(np.count_nonzero(ordered[1:] != ordered[:-1]))


def _kind(runs: bool) -> Literal["stable", "quicksort"]:
    """The sort for values that come in ascending ``runs`` (keys led by the segment, in the
    order of the text): numpy's stable sort, which merges the runs it finds, is a few times
    faster on them; on values in no order its plain (vectorised) sort is faster."""
    return "stable" if runs else "quicksort"
