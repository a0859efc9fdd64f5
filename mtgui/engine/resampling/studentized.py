"""Studentized (bootstrap-t) intervals, with a linearised standard error per resample.

The percentile interval is too narrow with few units because it treats the resamples' spread
as known. The bootstrap-t interval divides each resample's deviation by that resample's own
standard error, ``t*_b = (score*_b - score) / se*_b``, and reads the interval as
``[score - t*_(1-alpha/2) se, score - t*_(alpha/2) se]``: where the standard error is itself
uncertain, the t*'s have heavier tails, and the interval widens as Student's t does (Efron &
Tibshirani 1993, ch. 12; DiCiccio & Efron 1996).

The standard error of each resample must be cheap: a jackknife inside every resample would
cost B x units scores. mtgui linearises the score instead. Each unit's influence on the score
is ``L_i = (n - 1) (mean(J) - J_i)`` from the jackknife scores ``J`` of the full test set
(:func:`~mtgui.engine.resampling.bca.jackknife_scores`), and a resample drawing unit i ``c_i`` times
has the delta-method standard error ``sqrt(sum_i c_i (L_i - Lbar)^2) / n``, ``Lbar = sum c_i L_i /
n``: two sums over the resample's counts, so one product of the counts with ``L`` and ``L^2`` gives
every resample's at once. The counts are drawn again from the run's seed (the same stream the
bootstrap drew: :func:`~mtgui.engine.resampling.draws.chunk_sizes`), a chunk at a time. ``se`` is
the same formula with every count 1.

A comparison's p-value inverts its interval: the interval at level 1 - p has 0 on its edge.
Where the units give no spread to divide by (every unit weighs alike, so the linearised error
is 0), the percentile interval and p-value stay.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np

from mtgui.engine.core.arrays import FloatArray
from mtgui.engine.inference.intervals import ScoreInterval, percentiles
from mtgui.engine.inference.significance import BETTER, TIE, WORSE, PairComparison, is_significant
from mtgui.engine.metrics.base import Metric
from mtgui.engine.resampling.bca import (
    first_share_at_least,
    jackknife_scores,
    last_share_at_most,
    relative_bounds,
)
from mtgui.engine.resampling.draws import UnitLayout, chunk_sizes, draw_compact_counts


def influence(metric: Metric, unit_rows: FloatArray) -> FloatArray:
    """Each unit's jackknife influence on the score, 0 where its jackknife score is
    undefined."""
    jackknife = jackknife_scores(metric, unit_rows)
    defined = ~np.isnan(jackknife)
    if not defined.any():
        return np.zeros(len(jackknife))
    values = (len(jackknife) - 1) * (jackknife[defined].mean() - jackknife)
    return np.where(defined, values, 0.0)


def standard_error(influences: FloatArray) -> FloatArray:
    """The linearised standard error of the full test set, per column of ``influences``."""
    n = len(influences)
    centred = influences - influences.mean(axis=0)
    return np.sqrt(np.sum(centred**2, axis=0)) / n


def resample_errors(seed: int, resamples: int, influences: FloatArray) -> FloatArray:
    """The linearised standard error of every resample (rows) for every column of
    ``influences`` (units x columns), from the counts the bootstrap drew with ``seed``."""
    units = len(influences)
    rng = np.random.default_rng(seed)
    squares = influences**2
    errors = np.empty((resamples, influences.shape[1]))
    done = 0
    for size in chunk_sizes(resamples, units):
        counts = draw_compact_counts(rng, size, units).astype(np.float64)
        first, second = counts @ influences, counts @ squares
        spread = np.maximum(second - first**2 / units, 0.0)
        errors[done : done + size] = np.sqrt(spread) / units
        done += size
    return errors


def studentized_bounds(
    samples: FloatArray, estimate: float, se: float, errors: FloatArray, level: float
) -> tuple[float, float]:
    """The bootstrap-t interval (NaN without a defined resample or a standard error)."""
    t = _t_values(samples, estimate, errors)
    if len(t) == 0 or not se > 0:
        return math.nan, math.nan
    alpha = 1 - level
    low_t, high_t = percentiles(t, [100 * alpha / 2, 100 * (1 - alpha / 2)])
    return float(estimate - high_t * se), float(estimate - low_t * se)


def studentized_p_value(
    samples: FloatArray, estimate: float, se: float, errors: FloatArray
) -> float:
    """The two-sided p-value that inverts the bootstrap-t interval of a delta."""
    t = np.sort(_t_values(samples, estimate, errors))
    if len(t) == 0 or not se > 0:
        return math.nan
    t0 = estimate / se
    above = 2 * (1 - last_share_at_most(t, t0))  # the lower bound passes 0 beyond this
    below = 2 * first_share_at_least(t, t0)  # the upper bound passes 0 below this
    return min(1.0, max(min(above, below), 2 / (len(t) + 1)))


def _t_values(samples: FloatArray, estimate: float, errors: FloatArray) -> FloatArray:
    """Each defined resample's studentized deviation."""
    defined = ~np.isnan(samples) & (errors > 0)
    return (samples[defined] - estimate) / errors[defined]


def studentized_results(
    intervals: Sequence[ScoreInterval],
    pairs: Sequence[PairComparison],
    metrics: Mapping[str, Metric],
    layout: UnitLayout,
    samples: Mapping[tuple[str, str], FloatArray],
    seed: int,
    level: float,
) -> tuple[list[ScoreInterval], list[PairComparison]]:
    """``intervals`` and ``pairs`` (unordered) with bootstrap-t bounds, the p-values that
    invert them and the verdicts these give (before any correction)."""
    own = {
        key: influence(metrics[key[1]], layout.rows[:, columns])
        for key, columns in layout.columns.items()
    }
    columns = [own[(i.system, i.metric)] for i in intervals]
    columns += [own[(p.x, p.metric)] - own[(p.y, p.metric)] for p in pairs]
    if not columns:
        return list(intervals), list(pairs)
    influences = np.column_stack(columns)
    full = standard_error(influences)
    errors = resample_errors(seed, len(intervals[0].samples), influences)
    new_intervals = []
    for k, interval in enumerate(intervals):
        bounds = studentized_bounds(interval.samples, interval.score, full[k], errors[:, k], level)
        # Units that all weigh alike have no spread to studentize by: percentiles stay.
        undefined = math.isnan(bounds[0])
        new_intervals.append(interval if undefined else relative_bounds(interval, *bounds))
    new_pairs = []
    for k, pair in enumerate(pairs, start=len(intervals)):
        deltas = samples[(pair.x, pair.metric)] - samples[(pair.y, pair.metric)]
        low, high = studentized_bounds(deltas, pair.delta, full[k], errors[:, k], level)
        if math.isnan(low):  # no spread to studentize by (see above)
            new_pairs.append(pair)
            continue
        p_value = studentized_p_value(deltas, pair.delta, full[k], errors[:, k])
        verdict = TIE
        if not math.isnan(p_value) and is_significant(p_value, level) and not low <= 0 <= high:
            verdict = BETTER if (low > 0) == metrics[pair.metric].higher_is_better else WORSE
        new_pairs.append(replace(pair, ci_low=low, ci_high=high, p_value=p_value, verdict=verdict))
    return new_intervals, new_pairs
