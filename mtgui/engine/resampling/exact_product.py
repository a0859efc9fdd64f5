"""The bootstrap's matrix product ``counts @ rows``, exact, with most of it in float32.

Why: that one product (resamples x units) @ (units x columns) is most of the bootstrap's time
on large test sets, and float32 BLAS is about twice as fast as float64. The statistics are
already on a grid where every float64 sum is exact (:func:`~mtgui.engine.resampling.draws
.on_exact_grid`), so the float64 product is the exact sum; any other exact way of computing it
gives the same bits. float32 holds whole numbers exactly up to 2^24, so a product of
whole-number counts and whole-number statistics is exact in float32 as long as no partial sum
can reach 2^24, whatever order BLAS adds in. Since counts and partial sums are bounded by
``(counts drawn in the block) * (largest |value| in the block)``, the units are cut into blocks
small enough for that; the bound is checked for every chunk of resamples (a block that fails it,
which a fair draw practically never does, is multiplied in float64), and the blocks' products
are added in float64, where they are whole numbers far below 2^53. Columns with fractions
(NIST's information sums) and columns too large for float32 stay in float64.

A whole column that is an earlier one plus a constant on all but a few units is not multiplied
at all (:class:`Derived`): BLEU's and NIST's n-gram counts ``t_n = max(c - n + 1, 0)`` are the
hypothesis length less ``n - 1`` but for the segments shorter than ``n - 1`` words. Its sum is
the earlier column's sum, plus the constant times the units drawn, plus the few departures
times their counts: whole numbers again, so the same bits. On the standing benchmark that takes
45 of the 111 float32 columns out of the product (the n-gram counts, and the fifth-order
matches of five systems that match almost nothing), 88 -> 80 ms.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from mtgui.engine.core.arrays import Float32Array, FloatArray
from mtgui.engine.runtime.gil_free import unique_inverse

IndexArray = npt.NDArray[np.intp]
_FLOAT32_EXACT = 2.0**24  # every whole number below this is a float32
_MIN_BLOCK = 4096  # units per block at least: smaller blocks make BLAS slow
_GATHER_BLOCK = 8192  # rows copied per step by _gathered
_HEADROOM = 2.0  # a block expects to draw about as many units as it holds; allow twice that
_DEPARTING_AT_MOST = 1 / 32  # a derived column departs from its base on this share of units
_ALL_DEPARTING_AT_MOST = 1 / 8  # and all of them together on this share: their departures are
# multiplied in float64 after a gather, cheaper than the float32 product they save up to here
_SAMPLED = 64  # units whose differences propose a derived column's constant
_FOUND_AT_ONCE = 64  # columns Derived.find compares at once
_LOOKED_AT_ONCE = 2048  # rows SplitRows.of looks at at once


@dataclass(frozen=True)
class Derived:
    """Whole columns computed from earlier ones instead of multiplied: on every unit, column
    ``columns[i]`` is column ``bases[i]`` plus ``offsets[i]``, but on the units ``units``,
    where it is that plus ``departures[:, i]`` (positions among all columns; no base is
    derived itself)."""

    columns: IndexArray
    bases: IndexArray
    offsets: FloatArray
    units: IndexArray
    departures: FloatArray  # (len(units), len(columns))

    @classmethod
    def none(cls) -> Derived:
        """No derived column."""
        empty = np.zeros(0, dtype=np.intp)
        return cls(empty, empty, np.zeros(0), empty, np.zeros((0, 0)))

    @classmethod
    def find(
        cls, rows: FloatArray, kept: IndexArray, whole: npt.NDArray[np.bool_], follows: IndexArray
    ) -> Derived:
        """The whole columns among ``rows[:, kept]`` that are the whole column they follow
        (``follows[j]``: the position among the kept columns of the one before ``kept[j]`` in
        ``rows``, -1 for none) plus a constant, but on at most :data:`_DEPARTING_AT_MOST` of the
        units, and all derived columns together on at most :data:`_ALL_DEPARTING_AT_MOST` (their
        departures are gathered from every chunk's counts: on many units that would cost more
        than the product it saves). A column that follows a derived one is derived from that
        one's base.

        Candidates a block of columns at a time: the rows are units x columns, so a single
        column of them is strided in memory (one at a time took 8 ms on the standing
        benchmark, this 2-3), and a block bounds the memory on large test sets."""
        position = np.arange(len(kept))
        candidates = np.flatnonzero(
            (follows >= 0) & (follows < position) & whole & whole[np.maximum(follows, 0)]
        )
        base_of: dict[int, int] = {}  # by derived column: its base, the offset from it and
        total_offset: dict[int, float] = {}  # where (units) and by how much it departs from
        departs: dict[int, tuple[IndexArray, FloatArray]] = {}  # base + offset
        allowed = int(rows.shape[0] * _DEPARTING_AT_MOST)
        allowed_in_all = int(rows.shape[0] * _ALL_DEPARTING_AT_MOST)
        departed = np.zeros(rows.shape[0], dtype=bool)  # units where some derived column departs
        departures_in_all = 0
        for start in range(0, len(candidates), _FOUND_AT_ONCE):
            block = candidates[start : start + _FOUND_AT_ONCE]
            steps = _gathered(rows, kept[block], np.float64) - _gathered(
                rows, kept[follows[block]], np.float64
            )  # units x block
            proposed = np.sort(steps[:: max(1, len(steps) // _SAMPLED)], axis=0)
            offsets = proposed[len(proposed) // 2]  # each column's most common step, mostly
            off = steps - offsets
            derivable = np.count_nonzero(off, axis=0) <= allowed
            for i in np.flatnonzero(derivable).tolist():
                column, previous = int(block[i]), int(follows[block[i]])
                departing = np.flatnonzero(off[:, i])
                new = departing[~departed[departing]]
                if departures_in_all + len(new) > allowed_in_all:
                    continue  # multiplied: too many units would depart in all
                departed[new] = True
                departures_in_all += len(new)
                base_of[column] = base_of.get(previous, previous)
                total_offset[column] = float(offsets[i]) + total_offset.get(previous, 0.0)
                before = departs.get(previous, (departing[:0], off[:0, i]))
                departs[column] = (
                    np.concatenate([before[0], departing]),
                    np.concatenate([before[1], off[departing, i]]),
                )
        if not base_of:
            return cls.none()
        derived = sorted(base_of)
        where, row = unique_inverse(np.concatenate([departs[c][0] for c in derived]))
        place = np.repeat(np.arange(len(derived)), [len(departs[c][0]) for c in derived])
        departures = np.zeros((len(where), len(derived)))
        np.add.at(departures, (row, place), np.concatenate([departs[c][1] for c in derived]))
        return cls(
            np.array(derived, dtype=np.intp),
            np.array([base_of[c] for c in derived], dtype=np.intp),
            np.array([total_offset[c] for c in derived]),
            where.astype(np.intp),
            departures,
        )

    def fill(self, result: FloatArray, counts: Float32Array, drawn: FloatArray) -> None:
        """Write the derived columns' sums into ``result``, whose other columns are summed
        already; ``drawn`` is the units each resample drew (its counts' sum)."""
        if not len(self.columns):
            return
        departing = counts[:, self.units].astype(np.float64) @ self.departures
        result[:, self.columns] = result[:, self.bases] + drawn[:, None] * self.offsets + departing


@dataclass(frozen=True)
class SplitRows:
    """The unit rows split into whole-number columns (float32) and the others (float64)."""

    columns: int  # all columns
    whole: Float32Array  # (U, W): the whole-number columns
    whole_columns: IndexArray  # where they go among all columns
    fractional: FloatArray  # (U, F): the other columns
    fractional_columns: IndexArray
    blocks: tuple[tuple[int, int, float], ...]  # (first unit, end, largest |value|) per block
    derived: Derived  # whole columns not multiplied; then ``whole`` ends with a column of ones

    @classmethod
    def of(
        cls, rows: FloatArray, kept: IndexArray | None = None, follows: IndexArray | None = None
    ) -> SplitRows:
        """Split ``rows[:, kept]`` (units x columns; all columns without ``kept``), choosing
        blocks of units for the float32 part. The kept columns are gathered straight into the
        two parts, never copied as a whole first (on 100,000 units x 20 systems that copy
        would be a hundred megabytes more at the peak). With ``follows`` (see
        :meth:`Derived.find`) the columns that follow another by a constant are derived."""
        if kept is None:
            kept = np.arange(rows.shape[1])
        units = rows.shape[0]
        whole = np.ones(len(kept), dtype=bool)
        largest = np.zeros(len(kept))
        # A block of rows at a time, over all kept columns: no copy of all rows, and no column
        # read alone (a column of the rows is strided in memory).
        for start in range(0, units, _LOOKED_AT_ONCE):
            chosen = rows[start : start + _LOOKED_AT_ONCE].take(kept, axis=1)
            whole &= np.isfinite(chosen).all(axis=0) & (chosen == np.round(chosen)).all(axis=0)
            largest = np.fmax(largest, np.fmax(chosen.max(axis=0), -chosen.min(axis=0)))
        largest[~whole] = 0.0
        limit = _FLOAT32_EXACT / _HEADROOM / min(units, _MIN_BLOCK)  # blocks of >= _MIN_BLOCK
        whole &= largest <= limit
        biggest = float(largest[whole].max(initial=0.0))
        size = units if biggest == 0 else int(min(units, _FLOAT32_EXACT / _HEADROOM // biggest))
        size = max(size, 1)
        derived = Derived.none() if follows is None else Derived.find(rows, kept, whole, follows)
        multiplied = whole.copy()
        multiplied[derived.columns] = False
        whole_columns = np.flatnonzero(multiplied)
        whole_rows = _gathered(rows, kept[whole_columns], np.float32)
        if len(derived.columns):  # a column of ones: its sum is the units drawn
            whole_rows = np.column_stack([whole_rows, np.ones(units, dtype=np.float32)])
        blocks = tuple(
            (
                start,
                min(start + size, units),
                _largest_magnitude(whole_rows[start : start + size]),
            )
            for start in range(0, units, size)
        )
        fractional_columns = np.flatnonzero(~whole)
        return cls(
            len(kept),
            whole_rows,
            whole_columns,
            _gathered(rows, kept[fractional_columns], np.float64),
            fractional_columns,
            blocks if whole_rows.shape[1] else (),
            derived,
        )

    def product(self, counts: Float32Array, most_drawn: int | None = None) -> FloatArray:
        """``counts @ rows`` for whole-number ``counts`` (resamples x units), exactly.

        ``most_drawn`` is a bound the caller knows on each resample's total count (a
        bootstrap resample draws n of n units): a block that cannot pass float32's limit even
        then is not checked resample by resample (a sum over the whole count matrix, which
        holds the interpreter lock and took a tenth of the standing benchmark's bootstrap).
        """
        result = np.empty((counts.shape[0], self.columns))
        if len(self.fractional_columns):
            result[:, self.fractional_columns] = counts.astype(np.float64) @ self.fractional
        if self.whole.shape[1]:
            total = np.zeros((counts.shape[0], self.whole.shape[1]))
            for start, end, largest in self.blocks:
                block, rows = counts[:, start:end], self.whole[start:end]
                if most_drawn is not None and most_drawn * largest < _FLOAT32_EXACT:
                    drawn = float(most_drawn)
                else:
                    drawn = float(block.sum(axis=1, dtype=np.float64).max(initial=0.0))
                if drawn * largest < _FLOAT32_EXACT:
                    total += block @ rows
                else:  # too many draws in this block for float32 to stay exact
                    total += block.astype(np.float64) @ rows.astype(np.float64)
            result[:, self.whole_columns] = total[:, : len(self.whole_columns)]
            self.derived.fill(result, counts, total[:, -1])
        return result


def _gathered(rows: FloatArray, columns: IndexArray, dtype: type[np.floating]) -> npt.NDArray[Any]:
    """``rows[:, columns]`` as a contiguous array of ``dtype``, built in blocks of rows, so
    that no float64 copy of all the chosen columns exists on the way to a float32 one.

    By ``take``, which numpy does 4-5 times faster than the same indexing (100,000 units x 400
    of 520 columns: 35 against 155 ms)."""
    result = np.empty((rows.shape[0], len(columns)), dtype=dtype)
    for start in range(0, rows.shape[0], _GATHER_BLOCK):
        result[start : start + _GATHER_BLOCK] = rows[start : start + _GATHER_BLOCK].take(
            columns, axis=1
        )
    return result


def _largest_magnitude(values: npt.NDArray[Any]) -> float:
    """``abs(values).max()`` (0 for none) without an absolute copy of them all."""
    if not values.size:
        return 0.0
    return max(float(values.max()), -float(values.min()), 0.0)
