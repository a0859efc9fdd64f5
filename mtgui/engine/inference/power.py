"""What a ``~`` cannot see, and when two systems are shown to be alike.

- **Minimum detectable difference** (MDD): a two-sided test at level alpha finds a true
  difference of ``(z_(1-alpha/2) + z_(1-beta)) se`` with probability 1 - beta (80% here), se the
  bootstrap standard error of the delta (about 2.80 se at 95%). Differences well below it are
  likely to come out ``~`` even when they are real. Under max-T the pair's critical value
  replaces z_(1-alpha/2).
- **Units needed**: how many segments (or documents) would make the observed delta detectable
  with 80% power, ``n (MDD / |delta|)^2``, an estimate that assumes the standard error shrinks
  as 1 / sqrt(n) (true for a mean; close for BLEU and chrF on a test set like this one).
- **Equivalence** (two one-sided tests, Schuirmann 1987): the systems are equivalent within
  +-M at level 1 - alpha when both one-sided bootstrap p-values, ``(#{d* <= -M} + 1) / (B + 1)``
  and ``(#{d* >= M} + 1) / (B + 1)``, are below alpha; that is exactly when the (1 - 2 alpha)
  percentile interval of the delta lies inside (-M, +M).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from fractions import Fraction
from statistics import NormalDist, median
from typing import TYPE_CHECKING

import numpy as np

from mtgui.engine.core.arrays import FloatArray

if TYPE_CHECKING:
    from mtgui.engine.inference.significance import PairComparison

POWER = 0.8
"""The power at which the minimum detectable difference is given."""
_NORMAL = NormalDist()


def normal_quantile(probability: float) -> float:
    """The standard normal quantile z_p."""
    return _NORMAL.inv_cdf(probability)


def detection(se: float, delta: float, critical: float, units: int) -> tuple[float, float]:
    """The minimum detectable difference at 80% power for a two-sided test with this
    ``critical`` value (z_(1-alpha/2), or max-T's), and how many of the ``units`` would make
    ``delta`` detectable (NaN where it is 0 or se is unknown)."""
    if not (math.isfinite(se) and math.isfinite(critical)):
        return math.nan, math.nan
    mdd = (critical + normal_quantile(POWER)) * se
    if delta == 0 or not math.isfinite(delta):
        return mdd, math.nan
    return mdd, units * (mdd / abs(delta)) ** 2


def tost_p_value(below: int, above: int, count: int) -> Fraction:
    """The TOST p-value from the counts of ``count`` resampled deltas at most -M (``below``)
    and at least +M (``above``): the larger of the two one-sided bootstrap p-values (exact, to
    compare with alpha); 1 without deltas."""
    return Fraction(max(below, above) + 1, count + 1) if count else Fraction(1)


def equivalence(deltas: FloatArray, margin: float) -> Fraction:
    """:func:`tost_p_value` of the resampled ``deltas`` (NaN left out) for +-``margin``."""
    values = np.asarray(deltas, dtype=np.float64)
    values = values[~np.isnan(values)]
    below, above = int((values <= -margin).sum()), int((values >= margin).sum())
    return tost_p_value(below, above, len(values))


def smallest_unseen(pairs: Iterable[PairComparison], metric: str) -> float:
    """One number per metric for "differences smaller than about this can go unseen": the
    median minimum detectable difference of ``metric``'s pairs (NaN when none is known). The
    standard library's median: numpy's imports numpy.ma (a few ms) into every run that prints
    a grid."""
    known = [p.mdd for p in pairs if p.metric == metric and p.mdd and math.isfinite(p.mdd)]
    return float(median(known)) if known else math.nan
