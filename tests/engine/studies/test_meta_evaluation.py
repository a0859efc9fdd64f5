"""WMT-style judging of metrics: hand computations, mt-metrics-eval's published test vectors
(stats_test.py, pairwise_paired_permutation_test.py's worked example), and the size of the
permutation test of two correlations by simulation."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from mtgui.engine.studies.human.correlation_stats import williams_test
from mtgui.engine.studies.human.correlation_tests import Agreement, permutation_p_value
from mtgui.engine.studies.human.meta_evaluation import (
    accuracy_rows,
    assign_clusters,
    item_grouped,
    kendall_variant,
    metric_permutation_p,
    pair_p_values,
    pairwise_accuracy,
    soft_pairwise_accuracy,
    swap_masks,
    tie_calibrated_accuracy,
    tie_counts,
)


def test_five_systems_by_hand():
    """Pairs of h = [1, 2, 3, 4, 4], m = [.1, .3, .2, .5, .52]: (2, 3) is discordant, (4, 5)
    tied in the humans only, the 8 others concordant."""
    human = np.array([1.0, 2, 3, 4, 4])
    metric = np.array([0.1, 0.3, 0.2, 0.5, 0.52])
    counts = tie_counts(human, metric)
    assert (counts.concordant, counts.discordant, counts.human_ties) == (8, 1, 1)
    assert counts.metric_ties == counts.both_ties == 0
    assert pairwise_accuracy(human, metric) == pytest.approx(0.8)
    assert kendall_variant(human, metric, "b") == pytest.approx(7 / math.sqrt(10 * 9))
    # tau-c: 2 (C - D) / (n^2 (m - 1) / m), m = min(5, 4) distinct values
    assert kendall_variant(human, metric, "c") == pytest.approx(14 / (25 * 3 / 4))
    assert kendall_variant(human, metric, "23") == pytest.approx((8 - 1 - 1) / 10)
    assert kendall_variant(human, metric, "acc23") == pytest.approx(0.8)
    # Calling |.5 - .52| a tie makes (4, 5) agree and costs no concordant pair (all >= .1).
    accuracy, epsilon = tie_calibrated_accuracy(human, metric)
    assert accuracy == pytest.approx(0.9) and epsilon == pytest.approx(0.02)


def test_mt_metrics_eval_vectors():
    """stats_test.py's testAgreement, testKendallVariants, testKendallWithTiesOpt and
    testKendallVariants_23 / WithPositiveEpsilon."""
    assert pairwise_accuracy(np.array([1.0, 2, 3, 3, 4]), np.array([1.0, 1, 2, 1, 2])) == 0.5
    gold, metric = np.array([1.0, 2, 2, 3, 4]), np.array([2, 1, 1.5, 5, 3])
    assert kendall_variant(gold, metric, "b") == pytest.approx(0.316227766)
    assert kendall_variant(gold, metric, "c") == pytest.approx(0.32)
    assert kendall_variant(gold, metric, "23") == pytest.approx(0.2)
    assert kendall_variant(gold, metric, "acc23") == pytest.approx(0.6)
    assert kendall_variant(gold, metric, "acc23", epsilon=2) == pytest.approx(0.4)
    assert tie_calibrated_accuracy(gold, metric)[0] == pytest.approx(0.7)
    x, y = np.array([1.0, 1, 1, 2, 2, 3, 4]), np.array([1.0, 1, 2, 2, 4, 3, 3])
    assert kendall_variant(x, y, "23") == pytest.approx((14 - 7) / 21)
    assert kendall_variant(x, y, "acc23") == pytest.approx(14 / 21)
    assert kendall_variant(x, y, "23", epsilon=0.1) == pytest.approx((14 - 7) / 21)
    assert kendall_variant(x, y, "23", epsilon=1.0) == pytest.approx(-1 / 21)


def test_item_grouped_averages_the_defined_items():
    """Three systems (rows) by three segments (columns): tau-b is 1 on the first, undefined on
    the second (the humans tie every system), -1 on the third (one system unjudged, the other
    two discordant)."""
    human = np.array([[1.0, 2, 1], [2, 2, np.nan], [3, 2, 3]])
    metric = np.array([[1.0, 1, 5], [2, 2, 0], [3, 3, 4]])
    assert item_grouped(human, metric, "b") == pytest.approx((1 + -1) / 2)
    # acc_eq is defined on all three: 1, 0 (three pairs tied in the humans only), 0
    assert item_grouped(human, metric, "acc23") == pytest.approx(1 / 3)
    # mt-metrics-eval's item-grouped KendallWithTiesOpt: one epsilon for all items.
    gold = np.array([[1.0, 2, 2], [3, 3, 4]])  # systems x items, as Correlation(2, ...) packs
    ours = np.array([[2.0, 1, 1.5], [5, 3, 2]])
    accuracy, epsilon = tie_calibrated_accuracy(gold, ours)
    assert (accuracy, epsilon) == (1.0, 0.0)
    accuracy, epsilon = tie_calibrated_accuracy(gold.T, ours.T)  # grouped by system instead
    assert accuracy == pytest.approx(1 / 3) and epsilon == 2.0
    by_row = [kendall_variant(g, m, "acc23", epsilon) for g, m in zip(gold, ours, strict=True)]
    assert accuracy == pytest.approx(np.mean(by_row))


def test_pair_p_values_reproduce_thompsons_worked_example():
    """pairwise_paired_permutation_test.py's docstring: A = [.8, .9, .7, 1, .6], B = [.2, .3,
    .1, .4, 0], ten masks m (1: A stays in system 0); p = 1/10. Our mask 1 swaps: 1 - m."""
    a = np.array([0.8, 0.9, 0.7, 1.0, 0.6])[:, None]
    b = np.array([0.2, 0.3, 0.1, 0.4, 0.0])[:, None]
    keep = np.array(
        [
            [1, 1, 0, 0, 0],
            [1, 0, 1, 0, 1],
            [1, 0, 1, 1, 0],
            [0, 1, 0, 0, 1],
            [1, 1, 1, 0, 1],
            [0, 1, 0, 1, 0],
            [1, 1, 1, 1, 1],
            [1, 0, 1, 0, 1],
            [1, 1, 0, 0, 1],
            [0, 1, 0, 0, 0],
        ],
        dtype=np.float64,
    )
    p = pair_p_values([a, b], lambda sums: sums[..., 0], 1 - keep)
    assert p.tolist() == [pytest.approx(0.1)]
    assert soft_pairwise_accuracy(np.array([0.1, 0.5, 0.9]), np.array([0.2, 0.5, 0.6])) == (
        pytest.approx(1 - 0.4 / 3)
    )


def test_the_permutation_test_of_two_metrics_by_hand():
    """h = first = [1, 2, 3, 4], second = [2, 1, 3, 4]: accuracies 1 and 5/6. Of the 16 masks,
    swapping systems 3 and 4 changes nothing; swapping 1 and 2 both reverses the difference,
    swapping one of them ties both metrics on (1, 2): difference 0. p = P(d* >= 1/6) = 4/16."""
    human = np.array([1.0, 2, 3, 4])
    masks = np.array(list(itertools.product([0.0, 1.0], repeat=4)))
    p, difference = metric_permutation_p(
        human, human.copy(), np.array([2.0, 1, 3, 4]), accuracy_rows, masks
    )
    assert difference == pytest.approx(1 / 6) and p == pytest.approx(0.25)


def test_clusters_as_mt_metrics_eval_assigns_ranks():
    """A metric opens a cluster when p <= alpha against any metric from the cluster's first."""
    p = np.full((4, 4), np.nan)
    p[0, 1:] = [0.3, 0.01, 0.001]
    p[1, 2:] = [0.2, 0.01]
    p[2, 3] = 0.5
    assert assign_clusters(p, 0.05).tolist() == [1, 1, 2, 2]
    p[0, 2] = 0.05  # at alpha: significant, as mt-metrics-eval's <=
    assert assign_clusters(p, 0.05).tolist() == [1, 1, 2, 2]
    p[0, 2] = 0.06
    assert assign_clusters(p, 0.05).tolist() == [1, 1, 1, 2]


def _simulate(rng, masks, noise):
    """One replication: 10 systems of quality q, humans q + N(0, .5), metrics q + N(0, noise)."""
    quality = rng.normal(0, 1, 10)
    human = quality + rng.normal(0, 0.5, 10)
    first, second = (quality + rng.normal(0, s, 10) for s in noise)
    agreements = [
        Agreement(name, 1.0, m, float(np.corrcoef(m, human)[0, 1]), np.array([]))
        for name, m in (("x", first), ("y", second))
    ]
    permuted = permutation_p_value(*agreements, human, masks)
    r12, r13 = agreements[0].value, agreements[1].value
    _, williams = williams_test(r12, r13, float(np.corrcoef(first, second)[0, 1]), 10)
    return permuted < 0.05, williams < 0.05


def test_the_permutation_test_of_two_correlations_keeps_its_size():
    """Two exchangeable metrics (the null hypothesis), 10 systems: the permutation test rejects
    at about 5% (the bootstrap of the difference it replaces as the verdict rejected 0.0%).
    800 replications: Monte Carlo sd 0.77%, bounds at about 3.5 sd."""
    rng = np.random.default_rng(37)
    masks = swap_masks(np.random.default_rng(1), 400, 10)
    found = np.array([_simulate(rng, masks, (0.5, 0.5)) for _ in range(800)])
    size = found[:, 0].mean()
    assert 0.023 <= size <= 0.077, size
    # Power where x is far closer to the humans: comparable with Williams' (normal model).
    found = np.array([_simulate(rng, masks, (0.2, 1.0)) for _ in range(200)])
    power, williams = found.mean(axis=0)
    assert power >= 0.15 and power >= williams - 0.15, (power, williams)


def test_the_permutation_p_values_are_uniform_under_the_null():
    """Two systems with exchangeable segments: P(p <= 5%) is 5% (1,500 repetitions, Monte
    Carlo sd 0.56%, bounds at 3 sd). Two exchangeable metrics' pairwise accuracies over 10
    systems: the test keeps its level; it is conservative (about 4%: accuracies tie often)."""
    rng = np.random.default_rng(5)
    masks = swap_masks(np.random.default_rng(2), 200, 40)
    found = [
        pair_p_values([rng.normal(0, 1, (40, 1)), rng.normal(0, 1, (40, 1))], _sum, masks)[0]
        for _ in range(1500)
    ]
    assert 0.033 <= np.mean(np.array(found) <= 0.05) <= 0.067
    masks = swap_masks(np.random.default_rng(3), 200, 10)
    found = []
    for _ in range(1500):
        quality = rng.normal(0, 1, 10)
        human, first, second = (quality + rng.normal(0, 0.5, 10) for _ in range(3))
        found.append(metric_permutation_p(human, first, second, accuracy_rows, masks)[0])
    assert np.mean(np.array(found) <= 0.05) <= 0.067


def _sum(sums: np.ndarray) -> np.ndarray:
    """A score that is the sum of one column (Thompson's worked example)."""
    return sums[..., 0]
