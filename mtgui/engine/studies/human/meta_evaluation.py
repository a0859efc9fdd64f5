"""Metrics judged as the WMT metrics task judges them (WMT23/24; mt-metrics-eval's definitions,
re-derived here from their published descriptions, not copied).

Over the systems (``human`` and ``metric``: one score per system, the metric oriented so that
higher is better where the humans' is):

- :func:`pairwise_accuracy` (Kocmi et al. 2021): the share of unordered pairs of systems whose
  metric delta has the sign of the human delta; a pair tied in both counts as agreeing, a pair
  tied in one only as not (mt-metrics-eval's ``Agreement``).
- :func:`tie_counts` and :func:`kendall_variant`: Kendall's tau-b, tau-c, and Deutsch et al.'s
  (2023) tau_eq (``23``) and acc_eq (``acc23``) from the concordant, discordant and tied pairs,
  a metric delta within ``epsilon`` counting as a metric tie.
- :func:`tie_calibrated_accuracy` (Deutsch et al. 2023): acc_eq at the epsilon that maximises
  it, over the candidates 0 and every |metric delta|; with items (segments), one epsilon for all
  items and the accuracy averaged over the items.
- :func:`item_grouped`: a Kendall variant per item (segment) over the systems, averaged over the
  items where it is defined (mt-metrics-eval's ``average_by='item'``).
- :func:`pair_p_values` and :func:`soft_pairwise_accuracy` (Thompson et al. 2024): the one-sided
  p-value of "system i is better than j" by the paired permutation test (each segment's rows
  swapped between the two systems with probability 1/2; p = the share of permutations whose
  delta is >= the observed one), and 1 - the mean over pairs of |p_human - p_metric|.
- :func:`metric_permutation_p` (mt-metrics-eval's ``PermutationSigDiff`` at the system level):
  each metric's system scores z-scored, each system's two scores swapped with probability 1/2;
  p = the share of permutations whose difference of the statistic is >= the observed one.
- :func:`assign_clusters` (mt-metrics-eval's ``AssignRanks``): metrics sorted by the statistic,
  a new cluster starting at the first metric significantly worse than any metric of the current
  cluster.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from mtgui.engine.core.arrays import FloatArray, IntArray
from mtgui.engine.studies.common import unordered_pairs
from mtgui.engine.studies.human.correlation_stats import pearson_rows

VARIANTS = ("b", "c", "23", "acc23")
Statistic = Callable[[FloatArray, FloatArray], FloatArray]


@dataclass(frozen=True)
class TieCounts:
    """The unordered pairs of one item by kind: concordant, discordant, tied in the metric only,
    tied in the humans only, tied in both."""

    concordant: int
    discordant: int
    metric_ties: int
    human_ties: int
    both_ties: int

    @property
    def total(self) -> int:
        """All the pairs."""
        return (
            self.concordant + self.discordant + self.metric_ties + self.human_ties + self.both_ties
        )


def _deltas(values: FloatArray) -> FloatArray:
    """x_i - x_j for every unordered pair (i < j) along the first axis (any trailing axes)."""
    first, second = unordered_pairs(values.shape[0])
    deltas: FloatArray = values[first] - values[second]
    return deltas


def pairwise_accuracy(human: FloatArray, metric: FloatArray) -> float:
    """The share of pairs of systems whose metric delta has the human delta's sign (ties: sign
    0); NaN under two systems."""
    if len(human) < 2:
        return float("nan")
    agree = np.sign(_deltas(human)) == np.sign(_deltas(metric))
    return float(agree.mean())


def tie_counts(human: FloatArray, metric: FloatArray, epsilon: float = 0.0) -> TieCounts:
    """The pairs of one item by kind; a metric delta of at most ``epsilon`` is a metric tie."""
    theirs, ours = _deltas(human), _deltas(metric)
    human_tie = theirs == 0
    metric_tie = np.abs(ours) <= epsilon if epsilon > 0 else ours == 0
    untied = ~human_tie & ~metric_tie
    concordant = int((untied & (np.sign(theirs) == np.sign(ours))).sum())
    return TieCounts(
        concordant,
        int(untied.sum()) - concordant,
        int((metric_tie & ~human_tie).sum()),
        int((human_tie & ~metric_tie).sum()),
        int((human_tie & metric_tie).sum()),
    )


def kendall_variant(
    human: FloatArray, metric: FloatArray, variant: str = "b", epsilon: float = 0.0
) -> float:
    """Kendall's tau-b or tau-c, tau_eq (``23``) or acc_eq (``acc23``) of one item; NaN where
    tau-b or tau-c is undefined (every pair tied in one of the two) or under two values."""
    counts = tie_counts(human, metric, epsilon)
    total = counts.total
    metric_tied = counts.metric_ties + counts.both_ties
    human_tied = counts.human_ties + counts.both_ties
    if total == 0:
        return float("nan")
    agree = counts.concordant + counts.both_ties
    if variant == "acc23":
        return agree / total
    if variant == "23":
        return (agree - counts.discordant - counts.metric_ties - counts.human_ties) / total
    if metric_tied == total or human_tied == total:
        return float("nan")
    signed = counts.concordant - counts.discordant
    if variant == "b":
        return float(signed / np.sqrt(total - metric_tied) / np.sqrt(total - human_tied))
    if variant == "c":
        size = len(metric)
        classes = min(len(np.unique(metric)), len(np.unique(human)))
        return 2 * signed / (size**2 * (classes - 1) / classes)
    raise ValueError(f"unknown Kendall variant {variant!r}: one of {', '.join(VARIANTS)}")


def item_grouped(human: FloatArray, metric: FloatArray, variant: str) -> float:
    """A Kendall variant per item (column; rows: systems), over the systems whose human score
    is known, averaged over the items where it is defined; NaN when none is."""
    values = []
    for column in range(human.shape[1]):
        known = ~np.isnan(human[:, column])
        if known.sum() < 2:
            continue
        value = kendall_variant(human[known, column], metric[known, column], variant)
        if not np.isnan(value):
            values.append(value)
    return float(np.mean(values)) if values else float("nan")


def tie_calibrated_accuracy(human: FloatArray, metric: FloatArray) -> tuple[float, float]:
    """acc_eq at its best epsilon, and that epsilon (the smallest that reaches it).

    ``human`` and ``metric``: systems, or (systems x items) averaged over the items whose pairs
    have known human scores. Every pair weighs 1 / (its item's pairs x the items). acc_eq at
    epsilon is a step function: a pair tied in the humans agrees once epsilon >= |metric delta|,
    a concordant pair while epsilon < |metric delta|; it is evaluated at every candidate at
    once from the sorted |deltas|.
    """
    if human.ndim == 1:
        human, metric = human[:, None], metric[:, None]
    theirs, ours = _deltas(human), np.abs(_deltas(metric))
    signs = np.sign(_deltas(metric))
    known = ~np.isnan(theirs)
    counted = known.sum(axis=0)
    items = int((counted > 0).sum())
    if items == 0:
        return float("nan"), float("nan")
    weights = np.where(known, 1.0 / np.maximum(counted, 1) / items, 0.0)
    tied = known & (theirs == 0)
    concordant = known & ~tied & (np.sign(theirs) == signs) & (ours > 0)
    candidates = np.unique(np.concatenate([[0.0], ours[known]]))
    tied_gain = _weight_at_most(ours[tied], weights[tied], candidates)
    concordant_loss = _weight_at_most(ours[concordant], weights[concordant], candidates)
    accuracy = tied_gain + weights[concordant].sum() - concordant_loss
    accuracy = np.round(accuracy, 12)  # sums of 1/pairs: 15 x 1/15 must read 1
    best = int(np.argmax(accuracy))
    return float(accuracy[best]), float(candidates[best])


def _weight_at_most(values: FloatArray, weights: FloatArray, at: FloatArray) -> FloatArray:
    """For every threshold in ``at``, the summed ``weights`` of the ``values`` <= it."""
    order = np.argsort(values, kind="stable")
    cumulative = np.concatenate([[0.0], np.cumsum(weights[order])])
    found: FloatArray = cumulative[np.searchsorted(values[order], at, side="right")]
    return found


def swap_masks(rng: np.random.Generator, permutations: int, units: int) -> FloatArray:
    """``permutations`` x ``units`` zeros and ones, each 1 with probability 1/2: which units are
    swapped in each permutation."""
    masks: FloatArray = rng.integers(0, 2, size=(permutations, units)).astype(np.float64)
    return masks


def pair_p_values(
    rows: Sequence[FloatArray], score: Callable[[FloatArray], FloatArray], masks: FloatArray
) -> FloatArray:
    """For every pair (i, j), i < j, of systems (``rows``: each one's per-segment statistics,
    segments x columns), the one-sided p-value of "i is better than j" (higher scores better) by
    the paired permutation test: where a mask is 1, the segment's rows of i and j are swapped;
    p = the share of permutations whose delta score(i') - score(j') is >= the observed one.

    ``score`` maps summed rows (..., columns) to scores, so a corpus metric such as BLEU is
    permuted as its segments, not as segment scores; for a mean of segment scores it is
    Thompson et al.'s test. Deltas within 1e-9 of the observed one (rounding in the sums) count
    as reaching it.
    """
    first, second = unordered_pairs(len(rows))
    found = np.empty(len(first))
    for pair, (i, j) in enumerate(zip(first, second, strict=True)):
        totals_i, totals_j = rows[i].sum(axis=0), rows[j].sum(axis=0)
        moved = masks @ (rows[j] - rows[i])  # what swapping moves from j to i
        observed = float(score(totals_i) - score(totals_j))
        nulls = score(totals_i + moved) - score(totals_j - moved)
        found[pair] = float((nulls >= observed - 1e-9 * max(1.0, abs(observed))).mean())
    return found


def soft_pairwise_accuracy(human_p: FloatArray, metric_p: FloatArray) -> float:
    """1 - the mean over pairs of |p_human - p_metric| (Thompson et al. 2024)."""
    if len(human_p) == 0:
        return float("nan")
    return float(1.0 - np.abs(human_p - metric_p).mean())


def zscores(values: FloatArray) -> FloatArray:
    """(x - mean) / sd (ddof 0), as scipy's ``zscore``; all 0 where the values are constant."""
    spread = values.std()
    centred: FloatArray = values - values.mean()
    return centred / spread if spread > 0 else np.zeros_like(centred)


def accuracy_rows(human: FloatArray, metric: FloatArray) -> FloatArray:
    """:func:`pairwise_accuracy` of ``human`` (systems) with every row of ``metric``
    (permutations x systems) at once."""
    theirs = np.sign(_deltas(human))
    ours = np.sign(_deltas(metric.T))
    found: FloatArray = (ours == theirs[:, None]).mean(axis=0)
    return found


def pearson_statistic(human: FloatArray, metric: FloatArray) -> FloatArray:
    """Pearson's r of ``human`` (systems) with every row of ``metric`` (permutations x
    systems)."""
    return pearson_rows(metric.T, np.repeat(human[:, None], metric.shape[0], axis=1))


def metric_permutation_p(
    human: FloatArray,
    first: FloatArray,
    second: FloatArray,
    statistic: Statistic,
    masks: FloatArray,
) -> tuple[float, float]:
    """The one-sided p-value that ``first`` (system scores, oriented) agrees with ``human``
    better than ``second`` by ``statistic``, and the observed difference first - second.

    Both metrics are z-scored over the systems (so that swapping their scores is fair), then
    each system's two scores are swapped where ``masks`` (permutations x systems) is 1;
    p = the share of permutations whose difference is >= the observed one (ties count, as in
    mt-metrics-eval). NaN (both) when the difference is undefined.
    """
    ours, theirs = zscores(first), zscores(second)
    both = np.stack([ours, theirs])
    observed = statistic(human, both)
    difference = float(observed[0] - observed[1])
    if np.isnan(difference):
        return float("nan"), float("nan")
    swapped_first = masks * theirs + (1 - masks) * ours
    swapped_second = masks * ours + (1 - masks) * theirs
    nulls = statistic(human, swapped_first) - statistic(human, swapped_second)
    reach = nulls >= difference - 1e-12
    return float(reach[~np.isnan(nulls)].mean()), difference


def two_sided(upper: float, lower: float) -> float:
    """A two-sided p-value from the two one-sided ones: min(1, 2 min(upper, lower))."""
    return min(1.0, 2 * min(upper, lower))


def assign_clusters(p_better: npt.NDArray[np.float64], alpha: float) -> IntArray:
    """Cluster ranks (1, 2, ...) of metrics sorted best first, from ``p_better[i, j]`` (i < j):
    the p-value that metric i is better than metric j. A metric opens a new cluster when it is
    significantly worse (p <= alpha) than any metric from the current cluster's first on."""
    count = p_better.shape[0]
    ranks = np.zeros(count, dtype=np.int64)
    rank, start = 1, 0
    for i in range(count):
        if i > start and bool((p_better[start:i, i] <= alpha).any()):
            rank, start = rank + 1, i
        ranks[i] = rank
    return ranks
