"""Confidence intervals of one system's score from its bootstrap scores (Zhang & Vogel 3.1).

Per system and metric: the full-set score, the bootstrap median, mean, standard deviation,
RSD = 100 sigma / mu % (Zhang, Vogel & Waibel Tables 2-3), the percentile interval at the chosen
level and the relative CI ``[-(median - low) / median %, +(high - median) / median %]`` (Zhang &
Vogel Table 1). Percentiles interpolate linearly between order statistics (numpy's default);
resamples whose score is undefined (NaN: a human score with no judged segment drawn) are left
out and counted.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from mtgui.engine.core.arrays import FloatArray

INTERVAL_FIELDS = ("median", "mean", "std", "rsd", "ci_low", "ci_high", "rel_ci_low", "rel_ci_high")
"""The bootstrap summary fields of a :class:`ScoreInterval`, in report order."""


@dataclass(frozen=True)
class ScoreInterval:
    """The bootstrap summary of one system under one metric; ``samples`` are all B scores."""

    system: str
    metric: str
    score: float
    median: float
    mean: float
    std: float
    rsd: float
    ci_low: float
    ci_high: float
    rel_ci_low: float
    rel_ci_high: float
    samples: FloatArray
    ratio_scale: bool = True  # False: the relative interval and the RSD are left undefined

    @property
    def undefined_resamples(self) -> int:
        """Resamples whose score was undefined and left out."""
        return int(np.isnan(self.samples).sum())


def summarize_samples(
    system: str,
    metric: str,
    score: float,
    samples: FloatArray,
    level: float,
    ratio_scale: bool = True,
) -> ScoreInterval:
    """The interval summary of ``samples`` at confidence ``level``.

    The relative interval and the RSD divide by the score, so they are left undefined (NaN)
    for metrics off a ratio scale (``ratio_scale`` False: human z-scores, which can be near or
    below 0, where "+435%" would mean nothing).
    """
    samples = np.asarray(samples, dtype=np.float64)
    samples.flags.writeable = False
    valid = samples[~np.isnan(samples)]
    if len(valid) == 0:
        nan = math.nan
        return ScoreInterval(
            system, metric, score, nan, nan, nan, nan, nan, nan, nan, nan, samples, ratio_scale
        )
    alpha = 1 - level
    low, median, high = percentiles(valid, [100 * alpha / 2, 50, 100 * (1 - alpha / 2)])
    mean = float(valid.mean())
    std = float(valid.std(ddof=1)) if len(valid) > 1 else 0.0
    relative = ratio_scale or math.nan  # NaN makes every relative figure NaN
    return ScoreInterval(
        system=system,
        metric=metric,
        score=score,
        median=float(median),
        mean=mean,
        std=std,
        rsd=relative * _percent(std, mean),
        ci_low=float(low),
        ci_high=float(high),
        rel_ci_low=-relative * _percent(median - low, median),
        rel_ci_high=relative * _percent(high - median, median),
        samples=samples,
        ratio_scale=ratio_scale,
    )


def percentiles(values: FloatArray, percents: Sequence[float]) -> FloatArray:
    """``np.percentile(values, percents)`` (its default, linear method) to the last bit, for
    1-D ``values`` without NaN.

    Why not numpy's own: its linear method calls ``np.unique``, whose first call imports
    ``numpy.ma`` (7 ms, a hundredth of the standing benchmark's run, spent after every core's
    work is done). The steps are numpy's: the virtual index ``(n - 1) q``, the order statistics
    on either side of it (found by a partition, which puts exactly those values there), and
    the interpolation ``a + (b - a) t``, computed as ``b - (b - a) (1 - t)`` where t >= 1/2.
    """
    count = len(values)
    if count == 0:
        raise ValueError("no values to take percentiles of")
    virtual = (count - 1) * np.true_divide(np.asarray(percents, dtype=np.float64), 100)
    below = np.floor(virtual)
    above = below + 1
    last, first = virtual >= count - 1, virtual < 0
    below[last], above[last] = -1, -1  # numpy's way of naming the largest value
    below[first], above[first] = 0, 0
    below_at, above_at = below.astype(np.intp), above.astype(np.intp)
    places = {*(below_at % count).tolist(), *(above_at % count).tolist()}
    ordered = np.partition(values, sorted(places))
    low, high = ordered[below_at], ordered[above_at]
    weight = virtual - below_at
    difference = high - low
    result = low + difference * weight
    upper = weight >= 0.5
    result[upper] = high[upper] - difference[upper] * (1 - weight[upper])
    return result


def _percent(part: float, whole: float) -> float:
    """100 part / whole, NaN when whole is 0."""
    return 100 * float(part) / float(whole) if whole else math.nan
