"""The statistics of the human study: correlations over the systems, their intervals, and
Williams' test of two dependent correlations. Plain numpy and :mod:`math` (no scipy).

- :func:`pearson_rows`, :func:`spearman_rows`: correlations along the first axis (the systems),
  for every column (bootstrap resample) at once.
- :func:`draw_systems`, :func:`over_drawn_systems`: the systems drawn with replacement for every
  resample, so that an interval covers the uncertainty about *which* systems were evaluated as
  well as about the test set.
- :func:`fisher_interval`: Fisher's z interval (Spearman: Fieller, Hartley & Pearson 1957).
- :func:`williams_test`: Williams (1959), as the WMT metrics task uses it (Graham & Baldwin 2014),
  with the t distribution's tail from the regularized incomplete beta function.
"""

from __future__ import annotations

import math
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from mtgui.engine.core.arrays import FloatArray, IntArray
from mtgui.engine.studies.common import StudyProgress

MIN_SYSTEMS = 3  # two points always correlate perfectly
MIN_FISHER = 4  # Fisher's z and Williams' test divide by n - 3
SPEARMAN_VARIANCE = 1.06  # Fieller, Hartley & Pearson (1957): var(atanh rho) ~ 1.06 / (n - 3)
_RANK_CHUNK = 4096  # columns ranked at once: the pairwise comparison holds n x n x chunk
_CHUNK_WORK = 500_000  # systems^2 x metrics x resamples per step: about 50 ms


def pearson_rows(first: FloatArray, second: FloatArray) -> FloatArray:
    """Pearson's r between ``first`` and ``second`` along their first axis (the systems), for
    every column (resample) at once; NaN where a column is constant or has an undefined value.

    Constant means all values equal, tested as such: the mean of n equal floats need not equal
    them exactly, and the centred values would then be equal specks of rounding that correlate
    perfectly (one system drawn n times would get r = +-1 instead of none).
    """
    x = first - first.mean(axis=0)
    y = second - second.mean(axis=0)
    varies = (np.ptp(first, axis=0) > 0) & (np.ptp(second, axis=0) > 0)
    scale = np.sqrt((x * x).sum(axis=0) * (y * y).sum(axis=0))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(varies & (scale > 0), (x * y).sum(axis=0) / scale, np.nan)


def spearman_rows(first: FloatArray, second: FloatArray) -> FloatArray:
    """Spearman's rho: Pearson's r of the ranks, column by column (NaN where a value is)."""
    undefined = np.isnan(first).any(axis=0) | np.isnan(second).any(axis=0)
    rho = pearson_rows(average_ranks(first), average_ranks(second))
    return np.where(undefined, np.nan, rho)


def average_ranks(values: FloatArray) -> FloatArray:
    """Ranks 1..n along the first axis of a 2-D array, tied values sharing the mean of their ranks.

    A value's rank is 1 + the values below it, plus half the other values equal to it; one
    comparison of every pair of systems does it for all columns at once (systems are few), in
    chunks of columns so that memory stays bounded at any B.
    """
    ranks: FloatArray = np.empty(values.shape, dtype=np.float64)
    for start in range(0, values.shape[1], _RANK_CHUNK):
        part = values[:, start : start + _RANK_CHUNK]
        below = (part[None, :] < part[:, None]).sum(axis=1)
        equal = (part[None, :] == part[:, None]).sum(axis=1)
        ranks[:, start : start + _RANK_CHUNK] = below + (equal + 1) / 2
    return ranks


def draw_systems(seed: int, stream: int, systems: int, resamples: int) -> IntArray:
    """For every resample, ``systems`` positions drawn with replacement out of ``systems``:
    shape (resamples, systems), from ``default_rng([seed, stream])``. All at once: systems are
    few, and the draws then do not depend on how the work is cut."""
    rng = np.random.default_rng([seed, stream])
    draws: IntArray = rng.integers(0, systems, size=(resamples, systems), dtype=np.int64)
    return draws


def over_drawn_systems(samples: FloatArray, draws: IntArray) -> FloatArray:
    """Resample b's scores (``samples``: systems x resamples) of the systems drawn for resample b
    (``draws``: resamples x systems), as (drawn systems x resamples)."""
    columns = np.arange(samples.shape[1])
    drawn: FloatArray = samples[draws.T, columns[None, :]]
    return drawn


@dataclass(frozen=True)
class Resampled:
    """One metric's correlations with the human scores in every resample: over the systems
    drawn for the resample (systems and segments resampled), and over all the systems
    (segments only). NaN where undefined."""

    pearson: FloatArray
    spearman: FloatArray
    pearson_segments: FloatArray
    spearman_segments: FloatArray


def iter_resampled(
    samples: Sequence[FloatArray], human: FloatArray, draws: IntArray
) -> Generator[StudyProgress[None], None, list[Resampled]]:
    """Every metric's :class:`Resampled` correlations, from its resample scores (``samples``,
    one systems x resamples array per metric), the human scores' and the systems drawn (see
    :func:`draw_systems`). Works in chunks of resamples of about 50 ms (ranking costs systems^2
    per resample) and yields the resamples done after each (phase ``correlating``); all NaN
    with under 3 systems."""
    systems, resamples = human.shape
    found = [Resampled(*(np.full(resamples, np.nan) for _ in range(4))) for _ in samples]
    if systems < MIN_SYSTEMS:
        return found
    chunk = max(64, _CHUNK_WORK // (systems * systems * max(len(samples), 1)))
    for start in range(0, resamples, chunk):
        part = slice(start, start + chunk)
        theirs = human[:, part]
        theirs_drawn = over_drawn_systems(theirs, draws[part])
        for scores, into in zip(samples, found, strict=True):
            ours = scores[:, part]
            ours_drawn = over_drawn_systems(ours, draws[part])
            into.pearson[part] = pearson_rows(ours_drawn, theirs_drawn)
            into.spearman[part] = spearman_rows(ours_drawn, theirs_drawn)
            into.pearson_segments[part] = pearson_rows(ours, theirs)
            into.spearman_segments[part] = spearman_rows(ours, theirs)
        yield StudyProgress(min(start + chunk, resamples), resamples, "correlating", None)
    return found


def fisher_interval(r: float, n: int, level: float, spearman: bool = False) -> tuple[float, float]:
    """Fisher's z interval of a correlation ``r`` over ``n`` pairs: tanh(atanh r +- z s), with
    s = 1 / sqrt(n - 3) for Pearson and sqrt(1.06 / (n - 3)) for Spearman (Fieller, Hartley &
    Pearson 1957). NaN when n < 4, r is undefined or |r| = 1 (where z is infinite and the
    interval would shrink to the point, which it must not claim)."""
    if n < MIN_FISHER or math.isnan(r) or abs(r) >= 1:
        return math.nan, math.nan
    variance = (SPEARMAN_VARIANCE if spearman else 1.0) / (n - 3)
    half = NormalDist().inv_cdf(1 - (1 - level) / 2) * math.sqrt(variance)
    z = math.atanh(r)
    return math.tanh(z - half), math.tanh(z + half)


def williams_test(r12: float, r13: float, r23: float, n: int) -> tuple[float, float]:
    """Williams' t (1959) for r12 = r13, two dependent correlations sharing variable 1, and its
    two-sided p-value with n - 3 degrees of freedom (Graham & Baldwin 2014, eq. 2)::

        t = (r12 - r13) sqrt((n - 1)(1 + r23))
            / sqrt(2 K (n - 1)/(n - 3) + ((r12 + r13)/2)^2 (1 - r23)^3),
        K = 1 - r12^2 - r13^2 - r23^2 + 2 r12 r13 r23.

    NaN (both) when n < 4, an r is undefined, or the denominator is 0 (variables 2 and 3
    perfectly correlated).
    """
    if n < MIN_FISHER or any(math.isnan(r) for r in (r12, r13, r23)):
        return math.nan, math.nan
    k = 1 - r12**2 - r13**2 - r23**2 + 2 * r12 * r13 * r23
    denominator = 2 * k * (n - 1) / (n - 3) + ((r12 + r13) / 2) ** 2 * (1 - r23) ** 3
    if denominator <= 0 or 1 + r23 <= 0:
        return math.nan, math.nan
    t = (r12 - r13) * math.sqrt((n - 1) * (1 + r23)) / math.sqrt(denominator)
    return t, t_two_sided(t, n - 3)


def t_two_sided(t: float, df: float) -> float:
    """P(|T| >= |t|) for Student's t with ``df`` degrees of freedom:
    I_{df/(df+t^2)}(df/2, 1/2), the regularized incomplete beta function."""
    if math.isnan(t):
        return math.nan
    square = t * t
    return incomplete_beta(df / 2, 0.5, df / (df + square), square / (df + square))


def incomplete_beta(a: float, b: float, x: float, y: float) -> float:
    """The regularized incomplete beta function I_x(a, b), with y = 1 - x given separately so
    that neither loses precision; by its continued fraction (Numerical Recipes, 6.4), on the side
    where it converges fast."""
    if x <= 0:
        return 0.0
    if y <= 0:
        return 1.0
    front = math.exp(
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(y)
    )
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(a, b, x) / a
    return 1 - front * _beta_fraction(b, a, y) / b


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of I_x(a, b), by the modified Lentz method."""
    tiny = 1e-300
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    total = d
    for m in range(1, 1000):
        for step in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1 + step * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + step / c
            c = c if abs(c) > tiny else tiny
            total *= c * d
        if abs(c * d - 1) < 1e-15:
            break
    return total
