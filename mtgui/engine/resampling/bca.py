"""Bias-corrected and accelerated (BCa) bootstrap intervals (Efron 1987), for few documents.

The percentile interval takes the 2.5th and 97.5th percentiles of the resampled scores. When
the resamples are few units (10-29 documents), their distribution is biased and skewed
relative to the truth, and 95% percentile intervals hold the true score only 88-92% of the
time (``bench/bench_calibration.py``). BCa moves the two percentiles to correct for both:

- the bias correction ``z0 = Phi^-1(share of resampled scores below the full-set score)``
  (ties counted half);
- the acceleration ``a = sum(d^3) / (6 (sum(d^2))^(3/2))``, ``d = mean(J) - J``, from the
  jackknife scores ``J`` (the score with one unit left out, for every unit): how fast the
  score's spread changes with its value;
- the interval is the resamples' percentiles at
  ``Phi(z0 + (z0 + z_q) / (1 - a (z0 + z_q)))`` for ``q = alpha/2`` and ``1 - alpha/2``.

These are scipy's ``bootstrap(method='BCa')`` formulas (the test feeds both the same resamples),
and the percentiles are numpy's linear ones, as the percentile interval's. A unit's jackknife
score is the metric's formula on the full-set sums less that unit's rows, so it costs one
subtraction and one score per unit.

A comparison's verdict must agree with its interval, so under BCa a pair's p-value is the one
that inverts its BCa interval (:func:`bca_p_value`): the smallest alpha whose interval has 0 on
its edge, never below 2/(B + 1), the smallest p the resamples can show.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from statistics import NormalDist

import numpy as np

from mtgui.engine.core.arrays import FloatArray
from mtgui.engine.inference.intervals import ScoreInterval, percentiles
from mtgui.engine.inference.significance import BETTER, TIE, WORSE, PairComparison, is_significant
from mtgui.engine.metrics.base import Metric
from mtgui.engine.resampling.draws import UnitLayout

_NORMAL = NormalDist()


def jackknife_scores(metric: Metric, unit_rows: FloatArray) -> FloatArray:
    """The score with each unit left out in turn: the metric on the full-set sums less that
    unit's rows (``unit_rows``: units x the metric's columns)."""
    total = unit_rows.sum(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray(metric.score(total[None, :] - unit_rows), dtype=np.float64)


def acceleration(jackknife: FloatArray) -> float:
    """Efron's acceleration from the jackknife scores (NaN ones left out); 0 where they do not
    vary."""
    values = jackknife[~np.isnan(jackknife)]
    if len(values) < 2:
        return 0.0
    d = values.mean() - values
    spread = float(np.sum(d**2))
    return float(np.sum(d**3)) / (6 * spread**1.5) if spread > 0 else 0.0


def bias_correction(samples: FloatArray, estimate: float) -> float:
    """``Phi^-1`` of the share of resamples below the estimate, ties counted half (scipy's:
    resampled BLEU and the like tie often), that share kept within half a resample of 0 and 1
    so that the correction stays finite."""
    share = float(np.sum(samples < estimate) + np.sum(samples <= estimate)) / (2 * len(samples))
    half = 0.5 / len(samples)
    return _NORMAL.inv_cdf(min(max(share, half), 1 - half))


def bca_quantiles(z0: float, a: float, level: float) -> tuple[float, float]:
    """The shares (0-1) at which the BCa interval at ``level`` takes its two percentiles."""
    alpha = 1 - level
    return _adjusted(z0, a, alpha / 2), _adjusted(z0, a, 1 - alpha / 2)


def _adjusted(z0: float, a: float, nominal: float) -> float:
    """Where a nominal share moves under BCa."""
    w = z0 + _NORMAL.inv_cdf(nominal)
    return _NORMAL.cdf(z0 + w / (1 - a * w))


def bca_bounds(
    samples: FloatArray, estimate: float, jackknife: FloatArray, level: float
) -> tuple[float, float]:
    """The BCa interval of ``samples`` (NaN resamples left out; NaN bounds without any)."""
    valid = samples[~np.isnan(samples)]
    if len(valid) == 0 or math.isnan(estimate):
        return math.nan, math.nan
    low, high = bca_quantiles(bias_correction(valid, estimate), acceleration(jackknife), level)
    bounds = percentiles(valid, [100 * low, 100 * high])
    return float(bounds[0]), float(bounds[1])


def bca_p_value(samples: FloatArray, estimate: float, jackknife: FloatArray) -> float:
    """The two-sided p-value that inverts the BCa interval of the deltas ``samples``: the
    interval at level 1 - p has 0 on its edge, so it holds 0 exactly when p >= alpha.

    For each side, the share q at which the interpolated percentiles reach 0 is found, and the
    nominal share that BCa moves to q (the inverse of :func:`_adjusted`) is half the p-value.
    """
    valid = np.sort(samples[~np.isnan(samples)])
    count = len(valid)
    if count == 0 or math.isnan(estimate):
        return math.nan
    z0, a = bias_correction(valid, estimate), acceleration(jackknife)
    below = _nominal(z0, a, last_share_at_most(valid, 0.0))  # lower bound > 0 below this
    above = 1 - _nominal(z0, a, first_share_at_least(valid, 0.0))
    return min(1.0, max(2 * min(below, above), 2 / (count + 1)))


def last_share_at_most(ordered: FloatArray, value: float) -> float:
    """The largest share q whose interpolated percentile of the sorted ``ordered`` is at most
    ``value`` (-1 where none is)."""
    k = int(np.searchsorted(ordered, value, "right"))  # values <= value
    count = len(ordered)
    if k == count:
        return 1.0
    if k == 0 or count == 1:
        return -1.0
    low, high = ordered[k - 1], ordered[k]
    return float((k - 1 + (value - low) / (high - low)) / (count - 1))


def first_share_at_least(ordered: FloatArray, value: float) -> float:
    """The smallest share q whose interpolated percentile of the sorted ``ordered`` is at
    least ``value`` (2 where none is)."""
    j = int(np.searchsorted(ordered, value, "left"))  # values < value
    count = len(ordered)
    if j == count:
        return 2.0
    if j == 0 or count == 1:
        return 0.0
    low, high = ordered[j - 1], ordered[j]
    return float((j - 1 + (value - low) / (high - low)) / (count - 1))


def _nominal(z0: float, a: float, share: float) -> float:
    """The nominal share that BCa moves to ``share`` (0 or 1 where none does)."""
    if share <= 0:
        return 0.0
    if share >= 1:
        return 1.0
    d = _NORMAL.inv_cdf(share) - z0
    if 1 + a * d <= 0:  # beyond what any level reaches on this side
        return 0.0 if d < 0 else 1.0
    return _NORMAL.cdf(d / (1 + a * d) - z0)


def bca_intervals(
    intervals: Sequence[ScoreInterval],
    metrics: Mapping[str, Metric],
    layout: UnitLayout,
    level: float,
) -> list[ScoreInterval]:
    """``intervals`` with BCa bounds (and the relative interval from them)."""
    result = []
    for interval in intervals:
        rows = layout.rows[:, layout.columns[(interval.system, interval.metric)]]
        jackknife = jackknife_scores(metrics[interval.metric], rows)
        low, high = bca_bounds(interval.samples, interval.score, jackknife, level)
        result.append(relative_bounds(interval, low, high))
    return result


def relative_bounds(interval: ScoreInterval, low: float, high: float) -> ScoreInterval:
    """``interval`` with other bounds, and the relative interval made from them."""
    median = interval.median
    relative = 1.0 if interval.ratio_scale else math.nan
    return replace(
        interval,
        ci_low=low,
        ci_high=high,
        rel_ci_low=-relative * _percent(median - low, median),
        rel_ci_high=relative * _percent(high - median, median),
    )


def bca_pairs(
    pairs: Sequence[PairComparison],
    metrics: Mapping[str, Metric],
    layout: UnitLayout,
    samples: Mapping[tuple[str, str], FloatArray],
    level: float,
) -> list[PairComparison]:
    """``pairs`` (unordered) with BCa delta intervals, the p-values that invert them and the
    verdicts these give (before any correction)."""
    result = []
    for pair in pairs:
        metric = metrics[pair.metric]
        jackknife = jackknife_scores(
            metric, layout.rows[:, layout.columns[(pair.x, pair.metric)]]
        ) - jackknife_scores(metric, layout.rows[:, layout.columns[(pair.y, pair.metric)]])
        deltas = samples[(pair.x, pair.metric)] - samples[(pair.y, pair.metric)]
        low, high = bca_bounds(deltas, pair.delta, jackknife, level)
        p_value = bca_p_value(deltas, pair.delta, jackknife)
        verdict = TIE
        if not math.isnan(p_value) and is_significant(p_value, level) and not low <= 0 <= high:
            verdict = BETTER if (low > 0) == metric.higher_is_better else WORSE
        result.append(replace(pair, ci_low=low, ci_high=high, p_value=p_value, verdict=verdict))
    return result


def _percent(part: float, whole: float) -> float:
    """100 part / whole, NaN when whole is 0."""
    return 100 * float(part) / float(whole) if whole else math.nan
