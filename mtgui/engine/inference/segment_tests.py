"""Tests on segment-level scores beside the bootstrap: the paired t-test, the Wilcoxon
signed-rank test, and how often x beats y segment by segment.

For a metric that is a mean of segment scores (scores loaded from elsewhere: COMET, MetricX,
human judgments; :class:`~mtgui.engine.metrics.external.ExternalScores`), the field also
compares two systems with the paired t-test (comet-compare) and the Wilcoxon signed-rank test
(WMT's human clusters since 2025), on the segments both systems were scored on. The p-values
here are scipy's ``ttest_rel`` and ``wilcoxon`` with their defaults (two-sided; Wilcoxon drops
zero differences), NaN where scipy gives none (fewer than two segments, or no difference at
all). Both treat segments as independent: where a document's sentences are alike they share
the segment bootstrap's optimism (see :func:`~mtgui.engine.resampling.settings.resolve_unit`).

For every metric with segment scores, ``win_rate`` and ``loss_rate`` are the shares of segments
(defined for both systems) where x is better than y and where y is better than x, by the
metric's own direction; the rest are ties. For BLEU and the like the segment score is the
corpus formula on one segment (sentence-level, unsmoothed), which ties often.

:class:`DecidingTest` chooses which p-value decides the grid for the metrics that are means of
segment scores (:func:`apply_test`); the other metrics keep the bootstrap's verdict, and a note
says so.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import combinations

import numpy as np

from mtgui.engine.core.arrays import FloatArray
from mtgui.engine.core.errors import InputError
from mtgui.engine.inference.choices import DecidingTest
from mtgui.engine.inference.significance import (
    BETTER,
    TIE,
    WORSE,
    Correction,
    PairComparison,
    benjamini_hochberg,
    holm,
    is_significant,
)
from mtgui.engine.metrics.base import Metric
from mtgui.engine.metrics.external import ExternalScores
from mtgui.engine.statistics.rows import Statistics

SEGMENT_TEST_FIELDS = ("p_value_t", "p_value_wilcoxon", "win_rate", "loss_rate")
"""The fields a comparison gains in the reports (p-values only for means of segment scores)."""


@dataclass(frozen=True)
class SegmentComparison:
    """x against y under one metric, segment by segment (see the module docstring)."""

    metric: str
    x: str
    y: str
    segments: int  # segments defined for both systems
    mean_difference: float  # mean of x - y over those segments (NaN without any)
    win_rate: float
    loss_rate: float
    p_value_t: float | None = None  # None: not a mean of segment scores
    p_value_wilcoxon: float | None = None

    def mirrored(self) -> SegmentComparison:
        """The same comparison seen from y (the tests are two-sided: same p-values)."""
        return replace(
            self,
            x=self.y,
            y=self.x,
            mean_difference=-self.mean_difference,
            win_rate=self.loss_rate,
            loss_rate=self.win_rate,
        )

    def p_value(self, test: DecidingTest) -> float | None:
        """The p-value of ``test`` (None for the bootstrap's, which the pair itself holds)."""
        return {
            DecidingTest.BOOTSTRAP: None,
            DecidingTest.T: self.p_value_t,
            DecidingTest.WILCOXON: self.p_value_wilcoxon,
        }[test]


def describe_segments(comparison: SegmentComparison) -> list[str]:
    """The comparison in words, for a tooltip: who wins how often, and the two tests."""
    if not comparison.segments:
        return []
    x, y = comparison.x, comparison.y
    lines = [
        f"Segment by segment: {x} better in {comparison.win_rate:.1%}, {y} better in "
        f"{comparison.loss_rate:.1%} (the rest tie)."
    ]
    if comparison.p_value_t is not None:
        lines.append(
            f"Paired t-test p = {_p_text(comparison.p_value_t)}; Wilcoxon signed-rank p = "
            f"{_p_text(comparison.p_value_wilcoxon)} (on the {comparison.segments:,} segments "
            "scored for both)."
        )
    return lines


def _p_text(value: float | None) -> str:
    """A p-value in a sentence ('none' where the test has none)."""
    return "none" if value is None or math.isnan(value) else f"{value:.4g}"


def is_mean_of_segments(metric: Metric) -> bool:
    """Whether the metric's system score is a mean of segment scores, so that the segment
    tests apply (the loaded scores; BLEU, chrF, TER... are ratios of sums, not means)."""
    return isinstance(metric, ExternalScores)


def compare_segments(statistics: Statistics) -> tuple[SegmentComparison, ...]:
    """Every ordered pair of distinct systems under every metric (unordered ones first, then
    their mirror images, as the bootstrap's pairs)."""
    found = []
    for metric in statistics.metrics:
        scores = {s: _segment_scores(statistics, s, metric) for s in statistics.system_names}
        for x, y in combinations(statistics.system_names, 2):
            found.append(_compare(metric, x, y, scores[x], scores[y]))
    return tuple([*found, *(c.mirrored() for c in found)])


def _segment_scores(statistics: Statistics, system: str, metric: Metric) -> FloatArray:
    """One score per segment, NaN where it is undefined (a segment not scored): the ones the
    statistics keep for the Segments view, so they are computed once."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return statistics.segment_scores(system, metric.name)


def _compare(
    metric: Metric, x: str, y: str, x_scores: FloatArray, y_scores: FloatArray
) -> SegmentComparison:
    """One pair's rates and, for a mean of segment scores, its two tests."""
    both = ~np.isnan(x_scores) & ~np.isnan(y_scores)
    a, b = x_scores[both], y_scores[both]
    count = len(a)
    above, below = int(np.sum(a > b)), int(np.sum(a < b))
    wins, losses = (above, below) if metric.higher_is_better else (below, above)
    rates = (wins / count, losses / count) if count else (math.nan, math.nan)
    mean = float(np.mean(a - b)) if count else math.nan
    comparison = SegmentComparison(metric.name, x, y, count, mean, *rates)
    if not is_mean_of_segments(metric):
        return comparison
    return replace(comparison, p_value_t=paired_t(a, b), p_value_wilcoxon=wilcoxon(a, b))


def paired_t(a: FloatArray, b: FloatArray) -> float:
    """``scipy.stats.ttest_rel(a, b).pvalue`` (two-sided), NaN where scipy gives none."""
    from scipy import stats  # 0.2 s to import: only where scores were loaded

    if len(a) < 2:
        return math.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a constant difference: scipy warns and gives NaN
        return float(stats.ttest_rel(a, b).pvalue)


def wilcoxon(a: FloatArray, b: FloatArray) -> float:
    """``scipy.stats.wilcoxon(a, b).pvalue`` with scipy's defaults (two-sided, zero
    differences dropped), NaN where scipy gives none (no difference at all)."""
    from scipy import stats

    if not np.any(a != b):
        return math.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # few non-zero differences: scipy warns of its approx
        try:
            return float(stats.wilcoxon(a, b).pvalue)
        except ValueError:
            return math.nan


def check_test(test: DecidingTest, metrics: Sequence[Metric]) -> DecidingTest:
    """``test`` if it can decide a grid here: the t-test and Wilcoxon need a metric that is a
    mean of segment scores.

    Raises
    ------
    InputError
        If ``test`` is not the bootstrap and no metric is a mean of segment scores.
    """
    test = DecidingTest(test)
    if test is DecidingTest.BOOTSTRAP or any(is_mean_of_segments(m) for m in metrics):
        return test
    names = ", ".join(m.name for m in metrics)
    raise InputError(
        f"{test.label} applies only to metrics that are means of segment scores (scores loaded "
        f"with --scores, such as human judgments or COMET), and none of {names} is one.",
        hint="Load segment scores with --scores, or keep the bootstrap (--test bootstrap).",
    )


def apply_test(
    pairs: Sequence[PairComparison],
    segments: Sequence[SegmentComparison],
    metrics: Sequence[Metric],
    test: DecidingTest,
    correction: Correction,
    level: float,
) -> tuple[list[PairComparison], list[str]]:
    """``pairs`` (unordered, one per pair and metric) with the verdicts ``test`` gives for the
    metrics that are means of segment scores, corrected as the bootstrap's would be; the
    other metrics keep the bootstrap's verdicts. Returns notes that say which test decided.

    A verdict's direction is the sign of the mean paired difference (on the segments both
    systems were scored on, which the tests compare), by the metric's direction.
    """
    if test is DecidingTest.BOOTSTRAP:
        return list(pairs), []
    check_test(test, metrics)
    chosen = [m for m in metrics if is_mean_of_segments(m)]
    by_key = {(s.metric, s.x, s.y): s for s in segments}
    decided = {}
    for metric in chosen:
        own = [p for p in pairs if p.metric == metric.name]
        values = [_p_of(by_key[(p.metric, p.x, p.y)], test) for p in own]
        adjusted = _corrected(values, correction)
        for pair, p_value in zip(own, adjusted, strict=True):
            side = by_key[(pair.metric, pair.x, pair.y)].mean_difference
            decided[(pair.metric, pair.x, pair.y)] = _verdict(
                side, p_value, level, metric.higher_is_better
            )
    result = [replace(p, verdict=decided.get((p.metric, p.x, p.y), p.verdict)) for p in pairs]
    names = ", ".join(m.name for m in chosen)
    note = f"The grid of {names} follows {test.label} on the segments both systems were scored on"
    if correction is not Correction.NONE:
        note += f", with {_correction_words(correction)}"
    others = [m.name for m in metrics if not is_mean_of_segments(m)]
    if others:
        one = len(others) == 1
        note += (
            f"; {', '.join(others)} {'is' if one else 'are'} not a mean of segment scores and "
            f"{'keeps' if one else 'keep'} the bootstrap's verdicts"
        )
    note += ". The intervals shown are the bootstrap's."
    return result, [note]


def _p_of(comparison: SegmentComparison, test: DecidingTest) -> float:
    """The comparison's p-value under ``test``, NaN when it has none."""
    value = comparison.p_value(test)
    return math.nan if value is None else value


def _corrected(values: list[float], correction: Correction) -> list[float]:
    """The p-values corrected for the metric's many comparisons, as the bootstrap's are; a
    correction that needs resamples (max-T) is Holm's here, which controls the same error."""
    if correction is Correction.NONE:
        return values
    if correction is Correction.FDR:
        return benjamini_hochberg(values)
    return holm(values)


def _correction_words(correction: Correction) -> str:
    """The correction applied to the chosen test's p-values, in words."""
    if correction in (Correction.HOLM, Correction.FDR):
        return correction.label
    return (
        f"Holm's correction (the chosen test has no resamples for {correction.label}, and "
        "Holm's controls the same family-wise error)"
    )


def _verdict(delta: float, p_value: float, level: float, higher_is_better: bool) -> str:
    """``>``, ``<`` or ``~`` from a p-value and the side of the difference (NaN: ``~``)."""
    undefined = math.isnan(p_value) or math.isnan(delta)
    if undefined or not is_significant(p_value, level) or delta == 0:
        return TIE
    return BETTER if (delta > 0) == higher_is_better else WORSE
