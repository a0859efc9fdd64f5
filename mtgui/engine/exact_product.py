"""The bootstrap's matrix product ``counts @ rows``, exact, with most of it in float32.

Why: that one product (resamples x units) @ (units x columns) is most of the bootstrap's time
on large test sets, and float32 BLAS is about twice as fast as float64. The statistics are
already on a grid where every float64 sum is exact (:func:`~mtgui.engine.resampling
.on_exact_grid`), so the float64 product is the exact sum; any other exact way of computing it
gives the same bits. float32 holds whole numbers exactly up to 2^24, so a product of
whole-number counts and whole-number statistics is exact in float32 as long as no partial sum
can reach 2^24, whatever order BLAS adds in. Since counts and partial sums are bounded by
``(counts drawn in the block) * (largest |value| in the block)``, the units are cut into blocks
small enough for that; the bound is checked for every chunk of resamples (a block that fails it,
which a fair draw practically never does, is multiplied in float64), and the blocks' products
are added in float64, where they are whole numbers far below 2^53. Columns with fractions
(NIST's information sums) and columns too large for float32 stay in float64.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
Float32Array = npt.NDArray[np.float32]
IndexArray = npt.NDArray[np.intp]
_FLOAT32_EXACT = 2.0**24  # every whole number below this is a float32
_MIN_BLOCK = 4096  # units per block at least: smaller blocks make BLAS slow
_GATHER_BLOCK = 8192  # rows copied per step by _gathered
_HEADROOM = 2.0  # a block expects to draw about as many units as it holds; allow twice that


@dataclass(frozen=True)
class SplitRows:
    """The unit rows split into whole-number columns (float32) and the others (float64)."""

    columns: int  # all columns
    whole: Float32Array  # (U, W): the whole-number columns
    whole_columns: IndexArray  # where they go among all columns
    fractional: FloatArray  # (U, F): the other columns
    fractional_columns: IndexArray
    blocks: tuple[tuple[int, int, float], ...]  # (first unit, end, largest |value|) per block

    @classmethod
    def of(cls, rows: FloatArray, kept: IndexArray | None = None) -> SplitRows:
        """Split ``rows[:, kept]`` (units x columns; all columns without ``kept``), choosing
        blocks of units for the float32 part. The kept columns are gathered straight into the
        two parts, never copied as a whole first (on 100,000 units x 20 systems that copy
        would be a hundred megabytes more at the peak)."""
        if kept is None:
            kept = np.arange(rows.shape[1])
        units = rows.shape[0]
        largest = np.zeros(len(kept))
        whole = np.zeros(len(kept), dtype=bool)
        for column, source in enumerate(kept):  # column by column: no temporary of all rows
            values = rows[:, source]
            if np.all(np.isfinite(values)) and np.array_equal(values, np.round(values)):
                whole[column] = True
                largest[column] = float(np.abs(values).max(initial=0.0))
        limit = _FLOAT32_EXACT / _HEADROOM / min(units, _MIN_BLOCK)  # blocks of >= _MIN_BLOCK
        whole &= largest <= limit
        biggest = float(largest[whole].max(initial=0.0))
        size = units if biggest == 0 else int(min(units, _FLOAT32_EXACT / _HEADROOM // biggest))
        size = max(size, 1)
        whole_columns = np.flatnonzero(whole)
        whole_rows = _gathered(rows, kept[whole_columns], np.float32)
        blocks = tuple(
            (
                start,
                min(start + size, units),
                float(np.abs(whole_rows[start : start + size]).max(initial=0.0)),
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
            blocks if len(whole_columns) else (),
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
        if len(self.whole_columns):
            total = np.zeros((counts.shape[0], len(self.whole_columns)))
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
            result[:, self.whole_columns] = total
        return result


def _gathered(rows: FloatArray, columns: IndexArray, dtype: type[np.floating]) -> npt.NDArray[Any]:
    """``rows[:, columns]`` as a contiguous array of ``dtype``, built in blocks of rows, so
    that no float64 copy of all the chosen columns exists on the way to a float32 one."""
    result = np.empty((rows.shape[0], len(columns)), dtype=dtype)
    for start in range(0, rows.shape[0], _GATHER_BLOCK):
        result[start : start + _GATHER_BLOCK] = rows[start : start + _GATHER_BLOCK][:, columns]
    return result
