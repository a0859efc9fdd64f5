"""The bootstrap of one subset of a study, with the numbers of the ordinary bootstrap, faster.

The size study bootstraps a thousand subsets (the references study 900 test sets for its
Table 4), each with B = 500 by default, so what costs little once adds up:
:func:`~mtgui.engine.resampling.iter_resample_scores` starts a thread to draw each bootstrap's
counts and calls every metric once per system. Here the counts are drawn on the calling thread
from the same seed, in the same chunks (:func:`resample_chunks`) and by the same function
(:func:`~mtgui.engine.resampling.draw_counts`), so they are the same counts; the sums are the
same matrix product, exact on the statistics' grid (:func:`~mtgui.engine.resampling
.on_exact_grid`), so the same sums whatever order BLAS adds in (whole-number columns in
float32, exact below 2^24 and about twice as fast: :func:`exact_sums`); and each metric scores every
system in one call (a metric scores row by row: ``(..., k) -> (...)``), which gives every
score to the last bit, as the tests pin down.
"""

from __future__ import annotations

import math
from collections.abc import Generator, Sequence

import numpy as np
import numpy.typing as npt

from mtgui.engine.metrics.base import FloatArray, Metric
from mtgui.engine.resampling import UnitLayout, draw_counts, on_exact_grid
from mtgui.engine.settings import check_seed

IndexArray = npt.NDArray[np.intp]
BoolArray = npt.NDArray[np.bool_]
Float32Array = npt.NDArray[np.float32]
_COUNTS_PER_CHUNK = 4e6  # as ResampleDraws: the chunks the counts are drawn in
_FLOAT32_EXACT = 2.0**24  # every whole number below this is a float32


def resample_chunks(total: int, units: int) -> list[int]:
    """The sizes of the chunks :class:`~mtgui.engine.resampling.ResampleDraws` draws ``total``
    resamples of ``units`` units in (the draws of a seed depend on them)."""
    step = int(np.clip(_COUNTS_PER_CHUNK // max(units, 1), 1, 1000))
    return [min(step, total - start) for start in range(0, total, step)]


def column_indices(layout: UnitLayout, key: tuple[str, str]) -> IndexArray:
    """The columns of ``key``'s block in the layout's rows, as positions (a layout may hold a
    block as a slice or as an index array)."""
    return np.arange(layout.rows.shape[1])[layout.columns[key]]


class KeyScorer:
    """Scores every (system, metric) key of a layout from summed rows, one call per metric.

    ``keys`` are the layout's keys in the order wanted; every system must have every metric
    whose name appears, with blocks of the same width (one metric's statistics).
    """

    def __init__(
        self, layout: UnitLayout, keys: Sequence[tuple[str, str]], metrics: Sequence[Metric]
    ) -> None:
        by_name = {metric.name: metric for metric in metrics}
        self.groups: list[tuple[Metric, IndexArray, IndexArray]] = []  # metric, keys, columns
        for name in dict.fromkeys(metric for _, metric in keys):
            positions = np.array([i for i, key in enumerate(keys) if key[1] == name], np.intp)
            columns = np.stack([column_indices(layout, keys[i]) for i in positions])
            self.groups.append((by_name[name], positions, columns))
        self.count = len(keys)

    def scores(self, sums: FloatArray) -> FloatArray:
        """Every key's score from ``sums`` (..., columns): shape (keys, ...)."""
        result = np.empty((self.count, *sums.shape[:-1]))
        with np.errstate(divide="ignore", invalid="ignore"):
            for metric, positions, columns in self.groups:
                scored = metric.score(sums[..., columns])  # (..., systems)
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


def on_grid(rows: FloatArray) -> FloatArray:
    """:func:`~mtgui.engine.resampling.on_exact_grid`, the same bits, with the rounding done
    for all fractional columns at once (each column's grid is found as there, one column at a
    time); rows that are not all finite go through ``on_exact_grid`` itself.

    Why: the size study puts every subset's own NIST information sums on the grid, a thousand
    times, and the column-by-column loop cost as much as the sums themselves.
    """
    if not np.isfinite(rows).all():
        return on_exact_grid(rows)
    fractional = np.flatnonzero(np.any(rows != np.round(rows), axis=0))
    if not len(fractional):
        return rows
    part = rows[:, fractional]
    shifts = np.empty(len(fractional), dtype=np.int64)
    for i, largest in enumerate(np.abs(part).max(axis=0).tolist()):
        bound = len(rows) * largest
        if not math.isfinite(bound):
            return on_exact_grid(rows)
        shifts[i] = 52 - int(np.ceil(np.log2(bound))) - 1  # as on_exact_grid finds it
    rows[:, fractional] = np.ldexp(np.round(np.ldexp(part, shifts)), -shifts)
    return rows


def exact_sums(counts: Float32Array, rows: FloatArray, whole: BoolArray) -> FloatArray:
    """``counts @ rows``, exactly (see :func:`whole_columns`): the ``whole`` columns in float32,
    about twice as fast, and the others in float64, where the statistics' grid makes every sum
    exact. Exact both ways, so the same bits as one float64 product."""
    sums = np.empty((counts.shape[0], rows.shape[1]))
    if whole.any():
        sums[:, whole] = counts @ rows[:, whole].astype(np.float32)
    if not whole.all():
        sums[:, ~whole] = counts.astype(np.float64) @ rows[:, ~whole]
    return sums


def iter_subset_samples(
    rows: FloatArray,
    scorer: KeyScorer,
    seed: int,
    resamples: int,
    whole: BoolArray,
) -> Generator[int, None, FloatArray]:
    """Bootstrap ``rows`` (units x columns, on the exact grid; ``whole`` columns as
    :func:`whole_columns` finds them in these rows or in rows they are a subset of) with
    ``seed``: every key's ``resamples`` scores, shape (keys, resamples), the scores
    :func:`~mtgui.engine.resampling.iter_resample_scores` gives with that seed. Yields the
    resamples done after each chunk."""
    units = rows.shape[0]
    rng = np.random.default_rng(check_seed(seed))
    samples = np.empty((scorer.count, resamples))
    done = 0
    for size in resample_chunks(resamples, units):
        sums = exact_sums(draw_counts(rng, size, units), rows, whole)
        samples[:, done : done + size] = scorer.scores(sums)
        done += size
        yield done
    return samples
