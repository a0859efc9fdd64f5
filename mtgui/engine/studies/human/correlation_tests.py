"""Does one metric agree with the human scores better than another? Two tests of the
difference of two dependent correlations that share the human scores, over the systems.

Both work on Pearson's r *oriented* so that larger is better agreement: the sign of a metric
where lower is better (TER, WER) is flipped, which is the same as negating its scores, so a
metric that tracks the humans closely has a large positive agreement whichever its direction.

- Williams' test (Williams 1959; Steiger 1980, eq. 7; Graham & Baldwin 2014, as the WMT metrics
  task uses it): t with n - 3 degrees of freedom from r12 = r(x, human), r13 = r(y, human) and
  r23 = r(x, y), n the number of systems; two-sided here (WMT reports the one-sided p-value,
  half of it, in the direction it tests). It takes the systems as a random sample of a normal
  population and ignores the test set's noise.
- The paired bootstrap of the difference r12 - r13 over the study's resamples of systems and
  segments: its percentile interval and the p-value of the rest of mtgui,
  ``min(1, 2 (min(#{d <= 0}, #{d >= 0}) + 1) / (B + 1))`` over the defined differences
  (:func:`mtgui.engine.inference.significance.paired_tests`), which is below alpha exactly when the
  interval excludes 0.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from mtgui.engine.core.arrays import FloatArray
from mtgui.engine.inference.significance import (
    BETTER,
    TIE,
    WORSE,
    delta_bounds,
    is_significant,
    paired_tests,
)
from mtgui.engine.studies.human.correlation_stats import MIN_SYSTEMS, pearson_rows, williams_test
from mtgui.engine.studies.human.meta_evaluation import (
    metric_permutation_p,
    pearson_statistic,
    two_sided,
)


@dataclass(frozen=True)
class CorrelationTest:
    """Whether metric x agrees with the human scores better than metric y (Pearson's r over the
    systems, oriented: the sign flipped for a metric where lower is better).

    x is the metric that agrees better on the whole test set, so ``difference`` >= 0. The
    verdicts: ``>`` x agrees significantly better, ``<`` worse, ``~`` not significantly
    different.
    """

    metric_x: str
    metric_y: str
    systems: int
    agreement_x: float  # r(x, human), oriented
    agreement_y: float
    pearson_xy: float  # r(x, y), both oriented: Williams' r23
    difference: float  # agreement_x - agreement_y
    difference_low: float  # paired bootstrap over systems and segments
    difference_high: float
    bootstrap_p_value: float
    bootstrap_verdict: str
    permutation_p_value: float  # two-sided, swapping the two metrics' z-scores per system
    permutation_verdict: str
    williams_t: float  # n - 3 degrees of freedom
    williams_p_value: float  # two-sided
    williams_verdict: str
    undefined_resamples: int  # resamples where either correlation is undefined, left out


@dataclass(frozen=True)
class Agreement:
    """One metric's oriented Pearson with the humans, on the whole set and in every resample of
    systems and segments (``sign`` is -1 where lower is better)."""

    metric: str
    sign: float
    scores: FloatArray  # per system, on the whole test set
    value: float  # Pearson's r with the humans, not oriented
    resampled: FloatArray

    @property
    def oriented(self) -> float:
        """The agreement: r, or -r where lower is better."""
        return self.sign * self.value


def correlation_test(
    first: Agreement, second: Agreement, level: float, masks: FloatArray, human: FloatArray
) -> CorrelationTest:
    """Williams' test, the paired bootstrap and the paired permutation test of two metrics'
    oriented Pearson with the humans (``human``: their system scores; ``masks``: permutations x
    systems, see :func:`permutation_p_value`); x is the one that agrees better on the whole
    test set."""
    x, y = (second, first) if second.oriented > first.oriented else (first, second)
    systems = len(x.scores)
    r23 = math.nan
    if systems >= MIN_SYSTEMS:
        r23 = x.sign * y.sign * float(pearson_rows(x.scores[:, None], y.scores[:, None])[0])
    t, williams_p = williams_test(x.oriented, y.oriented, r23, systems)
    deltas = (x.sign * x.resampled - y.sign * y.resampled)[None, :]
    (low,), (high,) = delta_bounds(deltas, level)
    tests = paired_tests(deltas)
    p_value = float(tests.p_value[0])
    permuted = permutation_p_value(x, y, human, masks)
    return CorrelationTest(
        x.metric,
        y.metric,
        systems,
        x.oriented,
        y.oriented,
        r23,
        x.oriented - y.oriented,
        float(low),
        float(high),
        p_value,
        _verdict(p_value, level, bool(tests.x_above[0])),
        permuted,
        _verdict(permuted, level, True),
        t,
        williams_p,
        _verdict(williams_p, level, t > 0),
        int(np.isnan(deltas).sum()),
    )


def permutation_p_value(x: Agreement, y: Agreement, human: FloatArray, masks: FloatArray) -> float:
    """The two-sided p-value of the paired permutation test of two metrics' Pearson with the
    humans (mt-metrics-eval's at the system level): each metric's oriented system scores are
    z-scored, each system's two scores swapped where ``masks`` is 1, p = min(1, 2 min(P(d* >=
    d), P(d* <= d))). Under the null hypothesis that the two metrics are exchangeable its size
    is the level (up to the masks' Monte Carlo error); NaN under 3 systems."""
    if len(human) < MIN_SYSTEMS:
        return math.nan
    first, second = x.sign * x.scores, y.sign * y.scores
    upper, _ = metric_permutation_p(human, first, second, pearson_statistic, masks)
    lower, _ = metric_permutation_p(human, second, first, pearson_statistic, masks)
    return two_sided(upper, lower)


def _verdict(p_value: float, level: float, x_above: bool) -> str:
    """``>`` or ``<`` when significant at ``level`` (by the side x is on), else ``~``."""
    if math.isnan(p_value) or not is_significant(p_value, level):
        return TIE
    return BETTER if x_above else WORSE
