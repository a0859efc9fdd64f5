"""Comparing two systems on the same resamples (Zhang & Vogel 3.2; Koehn 2004, 6).

For every pair of systems and every metric, from the paired bootstrap scores:
- ``delta``: x - y on the full test set, in the metric's units;
- the percentile CI of the paired deltas x_b - y_b, and the verdict: ``>`` when x is better on
  the whole interval, ``<`` when worse, ``~`` when it contains 0. "Better" follows the metric:
  for TER and WER, lower is better, so a negative delta interval means ``>``;
- Koehn's win fraction: the share of resamples in which x is better than y (and the share of
  ties, so that the mirrored comparison is exact);
- sacreBLEU's two-sided paired-bootstrap p-value,
  ``p = (#{|d_b| - mean|d| >= |delta|} + 1) / (B + 1)``;
- optionally the approximate-randomization p-value (Riezler & Maxwell 2005, as sacreBLEU's
  ``--paired-ar``), ``(#{|A_r - B_r| >= |delta|} + 1) / (R + 1)``, and the Holm-Bonferroni
  adjustment of the p-values across each metric's grid.

Both p-values count a resample that ties the observed difference as at least as extreme;
sacreBLEU counts only strictly larger ones, which gives two identical systems p = 1/(B + 1),
"significant". With ``>=`` they get p = 1; on real data the two agree.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from mtgui.engine.metrics.base import FloatArray

BETTER, WORSE, TIE = ">", "<", "~"
PAIR_FIELDS = (
    "metric",
    "x",
    "y",
    "delta",
    "ci_low",
    "ci_high",
    "win_fraction",
    "p_value",
    "verdict",
)
"""The fields of every comparison in the reports, in their order."""
OPTIONAL_PAIR_FIELDS = ("p_value_ar", "p_holm", "p_holm_ar")
"""The fields present only when asked for (randomization, Holm)."""


@dataclass(frozen=True)
class PairComparison:
    """How system x compares with system y under one metric."""

    metric: str
    x: str
    y: str
    delta: float
    ci_low: float
    ci_high: float
    win_fraction: float
    tie_fraction: float
    p_value: float
    verdict: str
    p_value_ar: float | None = None
    p_holm: float | None = None
    p_holm_ar: float | None = None

    def mirrored(self) -> PairComparison:
        """The same comparison seen from y."""
        flip = {BETTER: WORSE, WORSE: BETTER, TIE: TIE}
        return replace(
            self,
            x=self.y,
            y=self.x,
            delta=-self.delta,
            ci_low=-self.ci_high,
            ci_high=-self.ci_low,
            win_fraction=1 - self.win_fraction - self.tie_fraction,
            verdict=flip[self.verdict],
        )


def compare(
    metric: str,
    x: str,
    y: str,
    full: tuple[float, float],
    samples: tuple[FloatArray, FloatArray],
    level: float,
    higher_is_better: bool,
) -> PairComparison:
    """The paired comparison of x and y from their full-set scores and bootstrap scores."""
    delta = full[0] - full[1]
    differences = samples[0] - samples[1]
    valid = differences[~np.isnan(differences)]
    if len(valid) == 0:
        nan = math.nan
        return PairComparison(metric, x, y, delta, nan, nan, nan, nan, nan, TIE)
    alpha = 1 - level
    low, high = np.percentile(valid, [100 * alpha / 2, 100 * (1 - alpha / 2)])
    improvement = valid if higher_is_better else -valid
    wins, ties = float(np.mean(improvement > 0)), float(np.mean(improvement == 0))
    verdict = _verdict(low, high, higher_is_better)
    absolute = np.abs(valid)
    p_value = (np.sum(absolute - absolute.mean() >= abs(delta)) + 1) / (len(valid) + 1)
    return PairComparison(
        metric, x, y, delta, float(low), float(high), wins, ties, float(p_value), verdict
    )


def _verdict(low: float, high: float, higher_is_better: bool) -> str:
    """'>' when the delta interval says x is better, '<' when worse, '~' when it contains 0."""
    if low <= 0 <= high:
        return TIE
    return BETTER if (low > 0) == higher_is_better else WORSE


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm-Bonferroni adjusted p-values, in the order given (NaN stays NaN)."""
    values = np.asarray(p_values, dtype=np.float64)
    adjusted = np.full(len(values), math.nan)
    known = np.flatnonzero(~np.isnan(values))
    order = known[np.argsort(values[known], kind="stable")]
    m = len(order)
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (m - rank) * values[index]))
        adjusted[index] = running
    return adjusted.tolist()
