"""The bootstrap of one subset of a study, with the numbers of the ordinary bootstrap, faster.

The size study bootstraps a thousand subsets (the references study 900 test sets for its
Table 4), each with B = 500 by default, so what costs little once adds up:
:func:`~mtgui.engine.resampling.draws.iter_resample_scores` starts a thread to draw each bootstrap's
counts and calls every metric once per system. Here the counts are drawn on the calling thread
from the same seed, in the same chunks (:func:`~mtgui.engine.resampling.draws.chunk_sizes`) and by
the same function (:func:`~mtgui.engine.resampling.draws.draw_counts`'s draws, counted by a compiled
loop:
:func:`~mtgui.engine.studies.kernels.draw_counts`), so they are the same counts; the sums are the
same matrix product, exact on the statistics' grid (:func:`~mtgui.engine.resampling.draws
.on_exact_grid`), so the same sums whatever order BLAS adds in; and each metric scores every
system in one call (a metric scores row by row: ``(..., k) -> (...)``), which gives every
score to the last bit, as the tests pin down.

The product is laid out once per study (:class:`SubsetRows`), as the ordinary bootstrap lays
out its own: equal columns (BLEU's and NIST's matches and lengths, the reference words of every
system) are multiplied once, which makes it a third smaller; whole-number columns are
multiplied in float32, exact below 2^24 and about twice as fast; and the others in float64.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from mtgui.engine.core.arrays import BoolArray, Float32Array, FloatArray
from mtgui.engine.metrics.base import Metric
from mtgui.engine.resampling.draws import UnitLayout, chunk_sizes, on_exact_grid
from mtgui.engine.resampling.settings import check_seed

IndexArray = npt.NDArray[np.intp]
_FLOAT32_EXACT = 2.0**24  # every whole number below this is a float32
_FINEST = 1000  # 2^k and 2^-k are normal floats: scaling by them is exact, as ldexp is


def column_indices(layout: UnitLayout, key: tuple[str, str]) -> IndexArray:
    """The columns of ``key``'s block in the layout's rows, as positions (a layout may hold a
    block as a slice or as an index array)."""
    return np.arange(layout.rows.shape[1])[layout.columns[key]]


class KeyScorer:
    """Scores every key (a system under a metric) from summed rows, one call per metric.

    ``keys`` are (metric, columns of the sums) pairs, in the order wanted. Keys whose metrics
    score alike (the same type and signature: BLEU of every system, NIST of every system with
    the same number of references) are scored in one call, which gives every score to the last
    bit (a metric scores row by row: ``(..., k) -> (...)``).
    """

    def __init__(self, keys: Sequence[tuple[Metric, IndexArray]]) -> None:
        alike: dict[tuple[type, str], list[int]] = {}
        for i, (metric, _) in enumerate(keys):
            alike.setdefault((type(metric), metric.signature()), []).append(i)
        self.groups: list[tuple[Metric, IndexArray, IndexArray]] = []  # metric, keys, columns
        for positions in alike.values():
            columns = np.stack([keys[i][1] for i in positions])
            self.groups.append((keys[positions[0]][0], np.array(positions, np.intp), columns))
        self.count = len(keys)

    @classmethod
    def of_layout(
        cls,
        layout: UnitLayout,
        keys: Sequence[tuple[str, str]],
        metrics: Sequence[Metric],
        position: IndexArray | None = None,
    ) -> KeyScorer:
        """The scorer of a layout's (system, metric) ``keys``; ``position`` maps the layout's
        columns to those of the sums (:attr:`SubsetRows.position`)."""
        by_name = {metric.name: metric for metric in metrics}
        entries = []
        for key in keys:
            columns = column_indices(layout, key)
            entries.append((by_name[key[1]], columns if position is None else position[columns]))
        return cls(entries)

    def scores(self, sums: FloatArray) -> FloatArray:
        """Every key's score from ``sums`` (..., columns): shape (keys, ...)."""
        result = np.empty((self.count, *sums.shape[:-1]))
        with np.errstate(divide="ignore", invalid="ignore"):
            for metric, positions, columns in self.groups:
                scored = metric.score(sums[..., columns])  # (..., keys of the group)
                result[positions] = np.moveaxis(scored, -1, 0)
        return result


def whole_columns(rows: FloatArray, fractional: IndexArray | None = None) -> BoolArray:
    """The columns of ``rows`` whose resample sums are exact in float32, for any subset of the
    rows: whole numbers whose sum over all rows, in absolute value, stays below 2^24, whatever
    the counts (a resample draws as many units as it has, so its sums stay below ``units x
    largest |value|``). ``fractional`` columns are left out whatever they hold now (the size
    study writes each subset's own NIST information sums there)."""
    whole = np.zeros(rows.shape[1], dtype=bool)
    for column in range(rows.shape[1]):  # column by column: no temporary of all rows
        values = rows[:, column]
        if np.all(np.isfinite(values)) and np.array_equal(values, np.round(values)):
            whole[column] = len(values) * float(np.abs(values).max(initial=0.0)) < _FLOAT32_EXACT
    if fractional is not None:
        whole[fractional] = False
    return whole


@dataclass(frozen=True)
class SubsetPart:
    """The unit rows of one subset as :class:`SubsetRows` lays them out: its whole-number
    columns (float32) and the others (float64), equal columns once."""

    whole: Float32Array  # (units, W)
    other: FloatArray  # (units, F)

    def totals(self) -> FloatArray:
        """Every column summed over the units, exactly (whole numbers, or on the grid)."""
        return np.concatenate([self.whole.sum(axis=0, dtype=np.float64), self.other.sum(axis=0)])


class SubsetRows:
    """A study's unit rows laid out once for the bootstrap of any subset of the units.

    The rows may come in blocks of columns (the references study lays out the statistics of
    every subset of the references side by side, :class:`ColumnsBuilder`), numbered one after
    the other. The sums have
    one column per distinct column, the whole-number ones first; :attr:`position` says where
    each of the rows' columns is among them. ``replaced`` columns (the size study's NIST
    information sums, each subset's own) are float64 and never merged with another; they are
    the last columns of a part's ``other`` (:attr:`replaced`), in the order given, so that a
    subset's are written in one slice.
    """

    def __init__(
        self, whole: Float32Array, other: FloatArray, position: IndexArray, replaced: slice
    ) -> None:
        self.whole, self.other, self.position, self.replaced = whole, other, position, replaced

    @classmethod
    def of(cls, rows: FloatArray, replaced: IndexArray | None = None) -> SubsetRows:
        """The layout of ``rows``, with their ``replaced`` columns."""
        columns = ColumnsBuilder()
        columns.add(rows, np.zeros(0, np.intp) if replaced is None else replaced)
        return columns.build()

    @property
    def width(self) -> int:
        """The columns of the sums: the distinct columns of the rows."""
        return self.whole.shape[1] + self.other.shape[1]

    def take(self, units: IndexArray) -> SubsetPart:
        """The rows of ``units`` (all units: the study's own arrays, not to be written to)."""
        if len(units) == len(self.whole) and np.array_equal(units, np.arange(len(units))):
            return SubsetPart(self.whole, self.other)
        return SubsetPart(self.whole[units], self.other[units])

    def sums(self, counts: Float32Array, part: SubsetPart) -> FloatArray:
        """``counts @ rows`` of a part, exactly: shape (resamples, :attr:`width`)."""
        width = self.whole.shape[1]
        result = np.empty((counts.shape[0], self.width))
        if width:
            result[:, :width] = counts @ part.whole
        if self.other.shape[1]:
            # other.T @ counts.T, not counts @ other: BLAS runs the float64 product of a few
            # dozen columns faster so (measured); exact either way, so the same bits.
            result[:, width:] = (part.other.T @ counts.T.astype(np.float64)).T
        return result


class ColumnsBuilder:
    """Builds a :class:`SubsetRows` from blocks of columns added one at a time (the size
    study of several sources adds each source's as it lays it out, and can be cancelled in
    between), keeping every distinct column once (compared by their bytes)."""

    def __init__(self) -> None:
        self.kept: list[FloatArray] = []
        self.seen: dict[bytes, int] = {}
        self.where: list[int] = []
        self.apart: list[bool] = []
        self.replaced: list[IndexArray] = []
        self.start, self.rows = 0, 0

    def add(self, block: FloatArray, replaced: IndexArray) -> None:
        """The block's columns, its ``replaced`` ones never merged with another."""
        marked = np.zeros(block.shape[1], dtype=bool)
        marked[replaced] = True
        for column in range(block.shape[1]):
            values = np.ascontiguousarray(block[:, column])
            key = None if marked[column] else values.tobytes()
            if key is not None and key in self.seen:
                self.where.append(self.seen[key])
                continue
            if key is not None:
                self.seen[key] = len(self.kept)
            self.where.append(len(self.kept))
            self.apart.append(bool(marked[column]))
            self.kept.append(values)
        self.replaced.append(self.start + np.asarray(replaced, np.intp))
        self.start, self.rows = self.start + block.shape[1], block.shape[0]

    def build(self) -> SubsetRows:
        """The rows: whole-number columns, then the other float64 ones, then the replaced."""
        kept, where = self.kept, np.array(self.where, dtype=np.intp)
        stacked = np.column_stack(kept) if kept else np.zeros((self.rows, 0))
        apart_columns = np.flatnonzero(self.apart)
        whole = whole_columns(stacked, apart_columns)
        plain = ~whole
        plain[apart_columns] = False
        replaced = where[np.concatenate([np.zeros(0, np.intp), *self.replaced])]
        order = np.concatenate([np.flatnonzero(whole), np.flatnonzero(plain), replaced])
        rank = np.empty(len(kept), dtype=np.intp)
        rank[order] = np.arange(len(order))
        count, first = int(whole.sum()), int(plain.sum())
        return SubsetRows(
            np.ascontiguousarray(stacked[:, order[:count]], np.float32),
            np.ascontiguousarray(stacked[:, order[count:]]),
            rank[where],
            slice(first, first + len(apart_columns)),  # the replaced come last, in order
        )


def on_grid(rows: FloatArray) -> FloatArray:
    """:func:`~mtgui.engine.resampling.draws.on_exact_grid`, the same bits, for all columns at once:
    each column's grid is found as there, and values are scaled by exact powers of two (the
    same products as ``ldexp``, several times faster on many columns). Whole-number columns are
    left as they are: on a grid of 1 or finer, rounding changes none of their values. Rows that
    are not all finite, or grids coarser than 1 or extremely fine, go through
    ``on_exact_grid`` itself.

    Why: the size study puts every subset's own NIST information sums on the grid, a thousand
    times (the references study 15 sets of them at a time), and the column-by-column loop cost
    as much as the sums themselves.
    """
    largest = np.abs(rows).max(axis=0, initial=0.0)
    bounds = len(rows) * largest
    if not np.all(np.isfinite(bounds)):
        return on_exact_grid(rows)
    used = largest > 0  # columns of zeros need no grid
    shifts = np.zeros(rows.shape[1], dtype=np.int64)
    shifts[used] = 52 - np.ceil(np.log2(bounds[used])).astype(np.int64) - 1  # on_exact_grid's
    if np.any(shifts < 0) or np.any(shifts > _FINEST):
        return on_exact_grid(rows)
    rows *= np.ldexp(1.0, shifts)
    np.round(rows, out=rows)
    rows *= np.ldexp(1.0, -shifts)
    return rows


class SubsetDraws:
    """A subset's resample counts, chunk by chunk (:func:`~mtgui.engine.resampling.draws
    .chunk_sizes`), drawn from its seed as the ordinary bootstrap draws them. The first chunk's
    draws can be made ahead (the size study makes them on a helper thread while the subset
    before is scored, and counts them when it takes them: the two threads then have about as
    much to do); the other chunks are drawn when taken, from the same stream."""

    def __init__(self, seed: int, resamples: int, units: int, ahead: bool = False) -> None:
        from mtgui.engine.studies import kernels  # imports numba: when used

        self._kernels = kernels
        self._rng = np.random.default_rng(check_seed(seed))
        self.units, self.sizes = units, chunk_sizes(resamples, units)
        first = ahead and bool(self.sizes)
        self._first = kernels.draw_picks(self._rng, self.sizes[0], units) if first else None

    @property
    def resamples(self) -> int:
        """How many resamples there are."""
        return sum(self.sizes)

    def chunks(self) -> Iterator[Float32Array]:
        """Every chunk's counts (resamples x units), in order."""
        for i, size in enumerate(self.sizes):
            if i == 0 and self._first is not None:
                picks, self._first = self._first, None
                yield self._kernels.count_picks(picks, self.units)
            else:
                yield self._kernels.draw_counts(self._rng, size, self.units)


def iter_subset_samples(
    rows: SubsetRows,
    part: SubsetPart,
    scorer: KeyScorer,
    draws: SubsetDraws,
    extra: FloatArray | None = None,
) -> Generator[int, None, FloatArray]:
    """Bootstrap the units of ``part`` (laid out by ``rows``, on the exact grid) with the
    counts of ``draws``: every key's scores, shape (keys, resamples), the scores
    :func:`~mtgui.engine.resampling.draws.iter_resample_scores` gives with the same seed. Yields the
    resamples done after each chunk. ``extra`` sums (the whole subset's) are scored with the
    last chunk, in the same call: their scores are one more column at the end."""
    samples = np.empty((scorer.count, draws.resamples + (extra is not None)))
    done, last = 0, len(draws.sizes) - 1
    for i, counts in enumerate(draws.chunks()):
        size = len(counts)
        sums = rows.sums(counts, part)
        if i == last and extra is not None:
            sums, size = np.vstack([sums, extra]), size + 1
        samples[:, done : done + size] = scorer.scores(sums)
        done += size
        yield min(done, draws.resamples)
    if not draws.sizes and extra is not None:
        samples[:, -1] = scorer.scores(extra)
    return samples
