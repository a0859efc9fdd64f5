"""The human study's WMT-style judging of metrics (see :mod:`.meta_evaluation` for the
statistics): per metric, pairwise accuracy, soft pairwise accuracy, tie-calibrated accuracy and
the item-grouped Kendall variants at the segment level; per pair of metrics, the paired
permutation test of their pairwise accuracies; and the metrics' clusters from those tests.

Every score is oriented so that larger is better (a metric or human score where lower is better
is negated), so that one metric's agreement reads the same whichever its direction.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from mtgui.engine.core.arrays import FloatArray
from mtgui.engine.inference.significance import BETTER, TIE
from mtgui.engine.metrics.base import Metric
from mtgui.engine.statistics.rows import Statistics
from mtgui.engine.studies.common import StudyProgress
from mtgui.engine.studies.human.meta_evaluation import (
    accuracy_rows,
    assign_clusters,
    item_grouped,
    metric_permutation_p,
    pair_p_values,
    pairwise_accuracy,
    soft_pairwise_accuracy,
    swap_masks,
    tie_calibrated_accuracy,
)

PERMUTATIONS = 1000  # as mt-metrics-eval: the p-values' Monte Carlo error is at most 0.016
PAIRS_STREAM = 6  # the segments swapped between two systems: default_rng([seed, 6])
METRICS_STREAM = 7  # the systems whose two metric scores are swapped: default_rng([seed, 7])


@dataclass(frozen=True)
class MetricAccuracy:
    """How one metric ranks the pairs of systems as the humans do (WMT23/24's statistics)."""

    metric: str
    metric_cluster: int  # 1: the best cluster by pairwise accuracy (permutation tests)
    systems: int
    pairwise_accuracy: float  # share of pairs whose metric delta has the humans' sign
    soft_pairwise_accuracy: float  # 1 - mean |p_human - p_metric| over the pairs
    tie_calibrated_accuracy: float  # acc_eq at the best epsilon, over the systems
    tie_epsilon: float  # that epsilon, in the metric's units
    segment_kendall_b: float  # item-grouped: per segment over the systems, averaged
    segment_kendall_c: float
    segment_tau_eq: float  # Deutsch et al.'s tau_eq ("23")
    segment_acc_eq: float  # Deutsch et al.'s acc_eq ("acc23"), epsilon 0
    segment_tie_calibrated_accuracy: float  # acc_eq at the best epsilon, item-grouped
    segment_tie_epsilon: float


@dataclass(frozen=True)
class AccuracyTest:
    """Whether metric x ranks the pairs of systems better than metric y (pairwise accuracy,
    mt-metrics-eval's paired permutation test); x has the higher accuracy."""

    metric_x: str
    metric_y: str
    accuracy_x: float
    accuracy_y: float
    accuracy_difference: float
    accuracy_p_value: float  # one-sided: x better than y
    accuracy_verdict: str  # ">" when p <= alpha, else "~"


Judged = tuple[tuple[MetricAccuracy, ...], tuple[AccuracyTest, ...]]


@dataclass(frozen=True)
class Oriented:
    """One metric's judged systems, oriented (larger is better)."""

    metric: Metric
    sign: float
    scores: FloatArray  # per system, on the whole test set
    segments: FloatArray  # systems x segments
    rows: tuple[FloatArray, ...]  # per system: the statistics rows

    def score(self, sums: FloatArray) -> FloatArray:
        """The oriented score of summed rows."""
        with np.errstate(divide="ignore", invalid="ignore"):
            scored: FloatArray = self.sign * self.metric.score(sums)
        return scored


def oriented(statistics: Statistics, metric: Metric, systems: Sequence[str]) -> Oriented:
    """``metric``'s scores of ``systems``, negated where lower is better."""
    sign = 1.0 if metric.higher_is_better else -1.0
    scores = np.array([statistics.score(s, metric.name) for s in systems]) * sign
    segments = np.stack([statistics.segment_scores(s, metric.name) for s in systems]) * sign
    rows = tuple(statistics.rows(s, metric.name) for s in systems)
    return Oriented(metric, sign, scores, segments, rows)


def iter_judge_metrics(
    statistics: Statistics,
    metrics: Sequence[Metric],
    human: Metric,
    systems: Sequence[str],
    seed: int,
    level: float,
    permutations: int = PERMUTATIONS,
) -> Generator[StudyProgress[None], None, Judged]:
    """Every metric's :class:`MetricAccuracy`, best pairwise accuracy first (the clusters'
    order), and every pair's :class:`AccuracyTest` over the judged ``systems`` (two or more);
    yields the metrics judged after each (phase ``judging``: the permutations of the segments
    are the slow part), so that the study can be cancelled between them."""
    truth = oriented(statistics, human, systems)
    found = [oriented(statistics, m, systems) for m in metrics]
    segments = truth.rows[0].shape[0]
    pair_masks = swap_masks(np.random.default_rng([seed, PAIRS_STREAM]), permutations, segments)
    human_p = pair_p_values(truth.rows, truth.score, pair_masks)
    accuracies = [pairwise_accuracy(truth.scores, f.scores) for f in found]
    order = sorted(range(len(found)), key=lambda k: -accuracies[k])
    rng = np.random.default_rng([seed, METRICS_STREAM])
    system_masks = swap_masks(rng, permutations, len(systems))
    alpha = 1 - level
    p_better = np.full((len(found), len(found)), np.nan)
    tests = []
    for a, b in combinations(range(len(order)), 2):
        x, y = found[order[a]], found[order[b]]
        p, difference = metric_permutation_p(
            truth.scores, x.scores, y.scores, accuracy_rows, system_masks
        )
        p_better[a, b] = p
        verdict = BETTER if p <= alpha else TIE
        names = x.metric.name, y.metric.name
        tests.append(
            AccuracyTest(*names, accuracies[order[a]], accuracies[order[b]], difference, p, verdict)
        )
    clusters = assign_clusters(p_better, alpha)
    cluster_of = {order[k]: int(clusters[k]) for k in range(len(order))}
    rows = []
    for done, k in enumerate(order, start=1):
        rows.append(_accuracy(truth, found[k], human_p, pair_masks, accuracies[k], cluster_of[k]))
        yield StudyProgress(done, len(order), "judging", None)
    return tuple(rows), tuple(tests)


def _accuracy(
    truth: Oriented,
    metric: Oriented,
    human_p: FloatArray,
    masks: FloatArray,
    accuracy: float,
    cluster: int,
) -> MetricAccuracy:
    """One metric's row."""
    metric_p = pair_p_values(metric.rows, metric.score, masks)
    calibrated, epsilon = tie_calibrated_accuracy(truth.scores, metric.scores)
    gold = np.where(np.isnan(metric.segments), np.nan, truth.segments)
    tau_b, tau_c, tau_eq, acc_eq = (
        item_grouped(gold, metric.segments, v) for v in ("b", "c", "23", "acc23")
    )
    segment_calibrated, segment_epsilon = tie_calibrated_accuracy(gold, metric.segments)
    return MetricAccuracy(
        metric.metric.name,
        cluster,
        len(truth.scores),
        accuracy,
        soft_pairwise_accuracy(human_p, metric_p),
        calibrated,
        epsilon,
        tau_b,
        tau_c,
        tau_eq,
        acc_eq,
        segment_calibrated,
        segment_epsilon,
    )
