"""Calibration against known truths (Koehn 2004, section 7): checks that a wrong method fails.

Test sets are drawn from synthetic pools (``mtgui.engine.calibration.documents``) and bootstrapped
as a user's would be. On the exchangeable null (the two systems' rows swapped by fair coins) a
calibrated p-value is below 0.05 in 5% of test sets and is uniform, with mean 1/2; a calibrated
95% interval holds the pool's value in 95% of them. Each share is compared with its nominal
value within ``SIGMAS`` binomial standard errors of the run: a calibrated method fails one such
check in about 16,000, while an interval that covers 90% instead of 95%, or a p-value that is
significant 10% of the time, fails it. The seeds are fixed, so the test is repeatable;
``bench/bench_calibration.py`` runs the long version.
"""

from __future__ import annotations

import numpy as np
import pytest

from mtgui.engine.calibration.documents import (
    Calibration,
    DocumentEffects,
    Share,
    correlated_pool,
    independent_pool,
    iter_calibration,
    merge,
    standard_error,
)
from mtgui.engine.core.running import run_to_end
from mtgui.engine.inference.significance import alpha_of
from mtgui.engine.resampling.settings import BootstrapSettings, Unit

SIGMAS = 4  # tolerance in standard errors: two-sided, about 6e-5 for a calibrated method
LEVEL = 0.95
ALPHA = float(alpha_of(LEVEL))
# With B = 999 the p-values are multiples of 2/1000, 0.05 among them: the boundary rule (a
# p-value equal to alpha is not significant) is exercised.
SETTINGS = BootstrapSettings(resamples=999, level=LEVEL)
# Strongly alike documents (more than on the shared WMT data), so that segment resampling
# fails by a margin no test-set noise can hide.
STRONG = DocumentEffects(difficulty=0.5, segment=0.45, quality=0.1)


@pytest.fixture(scope="module")
def independent() -> Calibration:
    """1,000 test sets of 300 independent segments, resampled by segment."""
    pool = independent_pool(2000, better_by=0.03, seed=1)
    runs = iter_calibration(pool, 30, range(1000), SETTINGS, seed=2, units=(Unit.SEGMENT,))
    return run_to_end(runs)[Unit.SEGMENT]


@pytest.fixture(scope="module")
def correlated() -> dict[Unit, Calibration]:
    """400 test sets of 50 alike documents of 10 segments, resampled both ways."""
    pool = correlated_pool(2000, better_by=0.03, seed=3, effects=STRONG)
    return run_to_end(iter_calibration(pool, 50, range(400), SETTINGS, seed=4))


def assert_nominal(share: Share, nominal: float) -> None:
    """The share is within SIGMAS standard errors of its nominal value."""
    tolerance = SIGMAS * standard_error(nominal, share.trials)
    assert abs(share.value - nominal) <= tolerance, (share.value, nominal, tolerance)


def assert_above(share: Share, nominal: float) -> None:
    """The share is above the nominal value by more than SIGMAS standard errors."""
    assert share.deviation(nominal) > SIGMAS, (share.value, nominal)


def assert_below(share: Share, nominal: float) -> None:
    """The share is below the nominal value by more than SIGMAS standard errors."""
    assert share.deviation(nominal) < -SIGMAS, (share.value, nominal)


def test_p_value_and_verdict_are_significant_in_5_percent_of_exchangeable_pairs(independent):
    assert_nominal(independent.false_positives(Unit.SEGMENT, "p_value"), ALPHA)
    assert_nominal(independent.false_positives(Unit.SEGMENT, "verdict"), ALPHA)


def test_p_value_is_uniform_on_exchangeable_pairs(independent):
    mean, error = independent.mean_p_value()
    assert abs(mean - 0.5) <= SIGMAS * error
    p_values = independent.p_value[:, 0]
    for alpha in (0.2, 0.5):
        below = Share(int(np.sum(p_values < alpha)), len(p_values))
        assert_nominal(below, alpha)


def test_sacrebleu_p_value_is_anti_conservative(independent):
    assert_above(independent.false_positives(Unit.SEGMENT, "p_value_sacrebleu"), ALPHA)


def test_every_verdict_is_tie_exactly_when_p_value_is_not_significant(independent, correlated):
    for run in (independent, *correlated.values()):
        assert run.consistent.all()
        assert np.array_equal(run.significant[:, 0], run.p_value[:, 0] < ALPHA)
    # The rule was tested where it is tight: some p-values equal alpha exactly.
    assert np.any(np.isclose(independent.p_value, ALPHA, rtol=1e-12, atol=0))


def test_intervals_cover_95_percent_of_the_time_on_independent_segments(independent):
    assert independent.true_delta > 0
    assert_nominal(independent.score_coverage(), LEVEL)
    assert_nominal(independent.delta_coverage(), LEVEL)


def test_document_resampling_covers_95_percent_of_the_time_on_alike_documents(correlated):
    run = correlated[Unit.DOCUMENT]
    assert_nominal(run.score_coverage(), LEVEL)
    assert_nominal(run.delta_coverage(), LEVEL)
    for swap in (Unit.SEGMENT, Unit.DOCUMENT):
        assert_nominal(run.false_positives(swap), ALPHA)


def test_segment_resampling_is_too_narrow_on_alike_documents(correlated):
    run = correlated[Unit.SEGMENT]
    assert_below(run.score_coverage(), LEVEL)
    assert_below(run.delta_coverage(), LEVEL)
    # Coins flipped per document keep each document's advantage whole: too many false alarms.
    assert_above(run.false_positives(Unit.DOCUMENT), ALPHA)
    # Coins flipped per segment make the segments' differences independent again.
    assert_nominal(run.false_positives(Unit.SEGMENT), ALPHA)
    ratio = correlated[Unit.DOCUMENT].score_width.mean() / run.score_width.mean()
    assert ratio > 1


def test_runs_split_into_ranges_merge_into_the_whole_run():
    pool = correlated_pool(50, better_by=0.03, seed=5)
    settings = BootstrapSettings(resamples=200)
    whole = run_to_end(iter_calibration(pool, 10, range(6), settings, seed=6))
    parts = [
        run_to_end(iter_calibration(pool, 10, r, settings, seed=6)) for r in (range(3), range(3, 6))
    ]
    for unit, run in whole.items():
        merged = merge([part[unit] for part in parts])
        assert merged.test_sets == 6
        assert np.array_equal(merged.p_value, run.p_value)
        assert np.array_equal(merged.score_width, run.score_width)
        assert np.array_equal(merged.delta_covered, run.delta_covered)


def test_share_deviation_is_in_standard_errors_of_the_nominal_value():
    share = Share(70, 1000)
    assert share.value == 0.07
    assert share.deviation(0.05) == pytest.approx(0.02 / np.sqrt(0.05 * 0.95 / 1000))
    assert share.standard_error == pytest.approx(np.sqrt(0.07 * 0.93 / 1000))
