"""The paired test's p-value, interval and verdict: one rule, checked by hand and at its edges."""

from __future__ import annotations

import math

import numpy as np
import pytest
from metric_corpora import make_corpus

from mtgui.engine.core.errors import InputError
from mtgui.engine.core.running import run_to_end
from mtgui.engine.inference.significance import (
    BETTER,
    TIE,
    WORSE,
    Correction,
    benjamini_hochberg,
    compare,
    compare_all_defined,
    delta_bounds,
    holm,
    is_significant,
    paired_tests,
    sacrebleu_p_value,
    tail_rank,
)
from mtgui.engine.resampling.bootstrap import iter_bootstrap
from mtgui.engine.resampling.settings import BootstrapSettings, fewest_resamples
from mtgui.engine.statistics.rows import compute_statistics
from mtgui.io.demo import load_demo


def deltas_with(below: int, zero: int, above: int) -> np.ndarray:
    """Deltas with ``below`` negative, ``zero`` zero and ``above`` positive values, shuffled."""
    values = np.concatenate([-np.arange(1, below + 1), np.zeros(zero), np.arange(1, above + 1)])
    return np.random.default_rng(0).permutation(values.astype(float))


def test_p_value_by_hand():
    # 999 resamples, 24 at or below 0: p = 2 (24 + 1) / 1000 = 0.05 exactly.
    (p,) = paired_tests(deltas_with(24, 0, 975)).p_value
    assert p == pytest.approx(0.05)
    (p,) = paired_tests(deltas_with(0, 0, 999)).p_value
    assert p == pytest.approx(2 / 1000)  # never 0: the +1
    (p,) = paired_tests(deltas_with(500, 0, 499)).p_value
    assert p == 1.0  # capped
    (p,) = paired_tests(deltas_with(10, 5, 984)).p_value
    assert p == pytest.approx(2 * 16 / 1000)  # a delta of 0 counts on the losing side too


def test_identical_deltas_give_p_1_and_a_tie():
    pair = compare("m", "x", "y", (0.3, 0.3), (np.full(200, 0.3), np.full(200, 0.3)), 0.95, True)
    assert pair.p_value == 1.0 and pair.verdict == TIE and (pair.ci_low, pair.ci_high) == (0, 0)


def test_tail_rank_and_the_smallest_b():
    assert tail_rank(999, 0.95) == 24  # (B + 1) alpha / 2 = 25: the 24th, so that p = alpha ties
    assert tail_rank(1000, 0.95) == 25  # 25.025
    assert tail_rank(2000, 0.95) == 50
    assert tail_rank(100, 0.99) == 0  # p >= 2/101 > 0.01: nothing can be significant
    assert [fewest_resamples(level) for level in (0.95, 0.99, 0.999)] == [40, 200, 2000]
    with pytest.raises(InputError, match="at least 200 resamples"):
        BootstrapSettings(resamples=100, level=0.99)


@pytest.mark.parametrize("resamples", [999, 1000, 2000])
@pytest.mark.parametrize("level", [0.9, 0.95, 0.7])
def test_the_interval_leaves_0_out_exactly_when_p_is_below_alpha(resamples, level):
    """Every possible count on the losing side, around the boundary: interval and p agree."""
    k = tail_rank(resamples, level)
    for below in range(max(k - 3, 0), k + 4):
        for zero in (0, 1):
            deltas = deltas_with(below, zero, resamples - below - zero)
            (low,), (high,) = delta_bounds(deltas, level)
            (p,) = paired_tests(deltas).p_value
            leaves_zero_out = not low <= 0 <= high
            assert leaves_zero_out == is_significant(p, level), (below, zero, p, low)
            exact = min(1.0, 2 * (below + zero + 1) / (resamples + 1))
            assert p == pytest.approx(exact)


def test_p_equal_to_alpha_is_not_significant_even_for_levels_floats_miss():
    assert not is_significant(0.05, 0.95)  # 1 - 0.95 is 0.05000000000000004 in floats
    assert not is_significant(0.3, 0.7)  # 1 - 0.7 is 0.30000000000000004, and 0.3 < 0.3 exactly
    assert is_significant(0.0499, 0.95) and not is_significant(0.0501, 0.95)


def test_sacrebleu_p_value_is_its_formula():
    deltas = np.array([0.5, 1.5, -1.0, 2.0])
    centred = np.abs(deltas) - np.abs(deltas).mean()
    assert centred.tolist() == [-0.75, 0.25, -0.25, 0.75]
    assert sacrebleu_p_value(deltas, 0.25) == (1 + 1) / 5  # only 0.75 is strictly above 0.25
    assert sacrebleu_p_value(deltas, -0.25) == (1 + 1) / 5  # |delta|
    assert sacrebleu_p_value(deltas, 0.0) == (2 + 1) / 5


@pytest.mark.parametrize("level", [0.5, 0.9, 0.95, 0.99])
def test_the_bounds_are_the_order_statistics_of_each_rows_defined_deltas(level):
    """The k-th smallest and k-th largest defined delta of each row, NaN left out (a row
    with one NaN has one delta fewer), NaN where B is too small for a bound."""
    rng = np.random.default_rng(5)
    for n in (1, 2, 3, 40, 999, 10_000):
        deltas = rng.normal(0, 1, (6, n)).round(2)  # rounded: ties
        with_nan = np.vstack([deltas, np.concatenate([[np.nan], deltas[0, 1:]])])
        low, high = delta_bounds(with_nan, level)
        for row, values in enumerate([*deltas, deltas[0, 1:]]):
            k, ordered = tail_rank(len(values), level), np.sort(values)
            if k >= 1:
                assert (low[row], high[row]) == (ordered[k - 1], ordered[len(values) - k])
            else:
                assert np.isnan(low[row]) and np.isnan(high[row])


@pytest.mark.parametrize("higher_is_better", [True, False])
@pytest.mark.parametrize("level", [0.9, 0.95])
def test_many_pairs_at_once_are_compare_one_by_one_to_the_bit(higher_is_better, level):
    """compare_all_defined (the bootstrap's batch of a metric's pairs) gives what compare gives
    pair by pair: every field identical, ties of 0 and p-values at alpha included."""
    rng = np.random.default_rng(7)
    samples = rng.normal(0.3, 0.01, (5, 999)).round(3)  # rounded: ties and zero deltas occur
    samples[1] = samples[0] - 0.004  # s0 clearly ahead of s1
    samples[3] = samples[2]  # identical systems: every delta 0
    samples[4] = samples[0] + np.concatenate([np.full(24, -0.001), np.full(975, 0.002)])
    full = rng.normal(0.3, 0.01, 5)
    names = [f"s{i}" for i in range(5)]
    pairs = [(a, b) for a in range(5) for b in range(a + 1, 5)]
    batch = compare_all_defined(
        "m",
        [(names[a], names[b]) for a, b in pairs],
        [(full[a], full[b]) for a, b in pairs],
        np.array([samples[a] - samples[b] for a, b in pairs]),
        level,
        higher_is_better,
    )
    one_by_one = [
        compare(
            "m",
            names[a],
            names[b],
            (full[a], full[b]),
            (samples[a], samples[b]),
            level,
            higher_is_better,
        )
        for a, b in pairs
    ]
    assert [repr(p) for p in batch] == [repr(p) for p in one_by_one]
    assert {p.verdict for p in batch} == {BETTER, WORSE, TIE}
    with pytest.raises(ValueError, match="defined"):
        compare_all_defined("m", [("a", "b")], [(0.1, 0.2)], np.array([[0.1, np.nan]]), 0.95, True)


def test_verdicts_say_which_system_is_better_for_lower_is_better_metrics():
    ahead = np.linspace(0.01, 0.05, 500)
    x, y = np.full(500, 0.5) + ahead, np.full(500, 0.5)
    assert compare("bleu", "x", "y", (0.53, 0.5), (x, y), 0.95, True).verdict == BETTER
    assert compare("ter", "x", "y", (0.53, 0.5), (x, y), 0.95, False).verdict == WORSE


def test_holm_by_hand():
    # sorted p: 0.01 (x3 -> 0.03), 0.02 (x2 -> 0.04), 0.04 (x1 -> 0.04, monotone)
    assert holm([0.04, 0.01, 0.02]) == pytest.approx([0.04, 0.03, 0.04])
    assert holm([0.5, 0.6]) == pytest.approx([1.0, 1.0])
    adjusted = holm([0.01, float("nan")])
    assert adjusted[0] == 0.01 and math.isnan(adjusted[1])


def test_benjamini_hochberg_by_hand():
    # m = 4, sorted 0.01, 0.02, 0.03, 0.5: 4 p / rank = 0.04, 0.04, 0.04, 0.5; step-up minimum.
    assert benjamini_hochberg([0.03, 0.5, 0.01, 0.02]) == pytest.approx([0.04, 0.5, 0.04, 0.04])
    # 0.04 x 2 / 1 = 0.08, but the larger p gives 0.05 x 2 / 2 = 0.05: the step-up takes 0.05.
    assert benjamini_hochberg([0.04, 0.05]) == pytest.approx([0.05, 0.05])
    adjusted = benjamini_hochberg([float("nan"), 0.2])
    assert math.isnan(adjusted[0]) and adjusted[1] == pytest.approx(0.2)
    assert all(
        b <= h for b, h in zip(benjamini_hochberg([0.01] * 5), holm([0.01] * 5), strict=True)
    )


@pytest.fixture(scope="module")
def demo_statistics():
    return compute_statistics(load_demo(), ("bleu", "nist", "ter"))


@pytest.mark.parametrize("correction", list(Correction))
def test_every_verdict_follows_the_p_value_that_decides_it(demo_statistics, correction):
    settings = BootstrapSettings(resamples=500, correction=correction, unit="segment")
    result = run_to_end(iter_bootstrap(demo_statistics, settings))
    for pair in result.pairs:
        deciding = pair.p_value if correction is Correction.NONE else pair.p_corrected
        assert deciding is not None
        assert (pair.verdict == TIE) == (deciding >= 0.05), pair
        if correction is Correction.NONE:
            assert (pair.verdict == TIE) == (pair.ci_low <= 0 <= pair.ci_high)
        elif pair.verdict != TIE:  # a correction can only take significance away
            assert not pair.ci_low <= 0 <= pair.ci_high


def test_a_correction_moves_the_grid_the_clusters_and_the_ranks():
    """Two equal good systems and two equal weaker ones, which fail 5 segments of 60. A resample
    misses all 5 with probability (55/60)^60, about 0.5%, so each good-weak pair gets p of about
    0.01: significant on its own and after Benjamini-Hochberg (6/4 x 0.01), not after Holm
    (6 x 0.01 for the smallest of the six pairs)."""
    refs = [[f"w{i} a b c d e f g h" for i in range(60)]]
    good = [f"w{i} a b c d e f g h" for i in range(60)]
    weak = [f"w{i} a b c x y z q" if i < 5 else good[i] for i in range(60)]
    stats = compute_statistics(make_corpus(refs, A=good, B=good, C=weak, D=weak), ("bleu",))
    results = {
        correction: run_to_end(
            iter_bootstrap(
                stats, BootstrapSettings(resamples=1000, unit="segment", correction=correction)
            )
        )
        for correction in Correction
    }
    for correction, result in results.items():
        pair = result.pair("bleu", "A", "C")
        assert pair.p_value == pytest.approx(0.01, abs=0.006)
        expected = TIE if correction is Correction.HOLM else BETTER
        assert pair.verdict == expected, correction
        assert result.pair("bleu", "C", "A").verdict == {TIE: TIE, BETTER: WORSE}[expected]
    assert results[Correction.FDR].pair("bleu", "A", "C").p_fdr == pytest.approx(
        1.5 * results[Correction.NONE].pair("bleu", "A", "C").p_value
    )
    assert results[Correction.NONE].ranking("bleu").clusters == [["A", "B"], ["C", "D"]]
    assert results[Correction.FDR].ranking("bleu").clusters == [["A", "B"], ["C", "D"]]
    held = results[Correction.HOLM].ranking("bleu")
    assert held.clusters == [["A", "B", "C", "D"]]
    assert [(e.best_rank, e.worst_rank) for e in held.systems] == [(1, 4)] * 4


@pytest.mark.parametrize("higher_is_better", [True, False])
@pytest.mark.parametrize("resamples", [1, 2, 39, 1000])
def test_the_batch_counts_from_sorted_rows_as_each_count_would(higher_is_better, resamples):
    """compare_all_defined reads its counts off sorted rows: the p-values, sides, bounds and
    win and tie fractions are those of counting each (paired_tests, delta_bounds, np.mean),
    bit for bit, with ties at 0 and -0.0 among the deltas."""
    rng = np.random.default_rng(resamples)
    deltas = rng.integers(-3, 4, (6, resamples)).astype(np.float64) / 100
    deltas[0] = 0.0
    deltas[1, ::2] = -0.0
    deltas[2] = np.abs(deltas[2]) + 0.01  # all above 0
    full = [(0.5, 0.4)] * len(deltas)
    names = [(f"x{i}", f"y{i}") for i in range(len(deltas))]
    found = compare_all_defined("m", names, full, deltas, 0.95, higher_is_better)
    tests = paired_tests(deltas)
    low, high = delta_bounds(deltas, 0.95)
    improvement = deltas if higher_is_better else -deltas
    for row, pair in enumerate(found):
        assert pair.p_value == tests.p_value[row]
        assert pair.win_fraction == np.mean(improvement[row] > 0)
        assert pair.tie_fraction == np.mean(improvement[row] == 0)
        assert (pair.ci_low, pair.ci_high) == (low[row], high[row]) or (
            np.isnan(low[row]) and np.isnan(pair.ci_low) and np.isnan(pair.ci_high)
        )
        significant = tests.significant(0.95)[row]
        side = bool(tests.x_above[row]) == higher_is_better
        assert pair.verdict == (TIE if not significant else BETTER if side else WORSE)
