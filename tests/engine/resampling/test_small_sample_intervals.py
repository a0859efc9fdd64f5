"""BCa and studentized intervals (``--interval``), for test sets of 10-29 documents.

BCa is checked against scipy's ``bootstrap(method='BCa')`` on the very same resamples (scipy
draws them with ``rng.integers(0, n, (B, n))``, which the test draws too); the studentized
interval's per-resample standard errors against the bootstrap's own counts; both p-values
against their intervals (the verdict agrees with the interval); and the coverage of each on
seeded small test sets against the percentile interval's, tolerances from the Monte Carlo error.
"""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

import numpy as np
import pytest
from scipy import stats

from mtgui.engine.calibration.documents import (
    DocumentEffects,
    correlated_pool,
    iter_calibration,
    standard_error,
)
from mtgui.engine.core.running import run_to_end
from mtgui.engine.inference.choices import IntervalMethod
from mtgui.engine.inference.significance import TIE, is_significant
from mtgui.engine.metrics.external import external_metric
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.resampling.bca import acceleration, bca_bounds, bca_p_value, bias_correction
from mtgui.engine.resampling.bootstrap import iter_bootstrap
from mtgui.engine.resampling.draws import chunk_sizes, draw_compact_counts
from mtgui.engine.resampling.settings import BootstrapSettings, Unit
from mtgui.engine.resampling.studentized import (
    influence,
    resample_errors,
    studentized_bounds,
    studentized_p_value,
)
from mtgui.engine.resampling.studentized import standard_error as linearised_error
from mtgui.engine.statistics.rows import Statistics, SystemStatistics

Comet = external_metric("comet")


def scipy_resamples(seed: int, resamples: int, units: int) -> np.ndarray:
    """The indices scipy's bootstrap draws with ``rng=np.random.default_rng(seed)``."""
    return np.random.default_rng(seed).integers(0, units, (resamples, units))


@pytest.mark.parametrize("level", [0.95, 0.9])
def test_bca_is_scipys_on_the_same_resamples_for_a_mean(level):
    values = np.random.default_rng(3).gamma(2.0, 1.0, 25)  # skewed: BCa moves the bounds
    picks = scipy_resamples(8, 999, len(values))
    samples = values[picks].mean(axis=1)
    jackknife = (values.sum() - values) / (len(values) - 1)
    ours = bca_bounds(samples, float(values.mean()), jackknife, level)
    theirs = stats.bootstrap(
        (values,),
        np.mean,
        n_resamples=999,
        confidence_level=level,
        method="BCa",
        rng=np.random.default_rng(8),
    ).confidence_interval
    np.testing.assert_allclose(ours, (theirs.low, theirs.high), rtol=1e-12)
    percentile = np.percentile(samples, [100 * (1 - level) / 2, 100 * (1 + level) / 2])
    assert not np.allclose(ours, percentile)  # it did move


def test_bca_is_scipys_on_the_same_resamples_for_a_ratio_of_sums():
    rng = np.random.default_rng(4)
    matches = rng.poisson(6, 15).astype(float)
    lengths = matches + rng.poisson(4, 15) + 1.0
    picks = scipy_resamples(9, 1999, 15)
    samples = matches[picks].sum(axis=1) / lengths[picks].sum(axis=1)
    jackknife = (matches.sum() - matches) / (lengths.sum() - lengths)
    estimate = float(matches.sum() / lengths.sum())
    theirs = stats.bootstrap(
        (matches, lengths),
        lambda m, n, axis: m.sum(axis=axis) / n.sum(axis=axis),
        paired=True,
        n_resamples=1999,
        method="BCa",
        rng=np.random.default_rng(9),
    ).confidence_interval
    ours = bca_bounds(samples, estimate, jackknife, 0.95)
    np.testing.assert_allclose(ours, (theirs.low, theirs.high), rtol=1e-12)


def test_bca_formula_by_hand_on_a_tiny_case():
    samples = np.array([0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0])
    jackknife = np.array([1.0, 2.0, 4.0])
    d = jackknife.mean() - jackknife  # 4/3, 1/3, -5/3
    a = np.sum(d**3) / (6 * np.sum(d**2) ** 1.5)
    assert acceleration(jackknife) == pytest.approx(a, rel=1e-12)
    z0 = stats.norm.ppf(0.35)  # 3 of 10 below 3, 1 tie counted half
    assert bias_correction(samples, 3.0) == pytest.approx(z0, rel=1e-12)
    q = stats.norm.cdf(z0 + (z0 + stats.norm.ppf(0.025)) / (1 - a * (z0 + stats.norm.ppf(0.025))))
    assert bca_bounds(samples, 3.0, jackknife, 0.95)[0] == pytest.approx(9 * q, rel=1e-12)


def null_like_deltas(seed: int, shift: float):
    """Skewed paired deltas of 20 units and their resamples and jackknife."""
    rng = np.random.default_rng(seed)
    units = rng.gamma(1.5, 1.0, 20) - 1.5 + shift
    picks = rng.integers(0, 20, (999, 20))
    jackknife = (units.sum() - units) / 19
    return units[picks].mean(axis=1), float(units.mean()), jackknife, units


@pytest.mark.parametrize("seed", range(12))
def test_the_bca_p_value_puts_zero_on_the_edge_of_its_interval(seed):
    samples, estimate, jackknife, _ = null_like_deltas(seed, shift=0.25 * (seed % 4))
    p = bca_p_value(samples, estimate, jackknife)
    for level in (0.9, 0.95, 0.99):
        low, high = bca_bounds(samples, estimate, jackknife, level)
        assert is_significant(p, level) == (not low <= 0 <= high)
    if 2 / 1000 < p < 0.5:
        low, high = bca_bounds(samples, estimate, jackknife, 1 - p)
        assert min(abs(low), abs(high)) < 1e-9


@pytest.mark.parametrize("seed", range(12))
def test_the_studentized_p_value_puts_zero_on_the_edge_of_its_interval(seed):
    samples, estimate, _, units = null_like_deltas(seed, shift=0.25 * (seed % 4))
    rng = np.random.default_rng(seed + 100)
    errors = np.abs(rng.normal(units.std() / np.sqrt(20), 0.02, len(samples)))
    se = float(units.std() / np.sqrt(20))
    p = studentized_p_value(samples, estimate, se, errors)
    for level in (0.9, 0.95, 0.99):
        low, high = studentized_bounds(samples, estimate, se, errors, level)
        assert is_significant(p, level) == (not low <= 0 <= high)
    if 2 / 1000 < p < 0.5:
        low, high = studentized_bounds(samples, estimate, se, errors, 1 - p)
        assert min(abs(low), abs(high)) < 1e-9


def comet_statistics(scores: dict[str, np.ndarray]) -> Statistics:
    systems = tuple(
        SystemStatistics(name, MappingProxyType({"comet": np.column_stack([v, np.ones_like(v)])}))
        for name, v in scores.items()
    )
    return Statistics(MetricSettings(), (Comet(),), systems)


def test_the_studentized_errors_come_from_the_bootstraps_own_resamples():
    rng = np.random.default_rng(12)
    x = rng.normal(0.5, 0.2, 40)
    statistics = comet_statistics({"X": x, "Y": x + rng.normal(0, 0.1, 40)})
    settings = BootstrapSettings(300, seed=77, interval=IntervalMethod.PERCENTILE)
    result = run_to_end(iter_bootstrap(statistics, settings))
    rng = np.random.default_rng(77)
    counts = np.vstack([draw_compact_counts(rng, n, 40) for n in chunk_sizes(300, 40)])
    np.testing.assert_allclose(counts @ x / 40, result.interval("X", "comet").samples, rtol=1e-12)
    # For a mean the influence of a unit is its deviation, and the linearised error of a
    # resample is the plug-in standard error of its drawn values.
    rows = np.column_stack([x, np.ones(40)])
    values = influence(Comet(), rows)
    np.testing.assert_allclose(values, x - x.mean(), atol=1e-12)
    assert linearised_error(values[:, None])[0] == pytest.approx(x.std() / np.sqrt(40))
    errors = resample_errors(77, 300, values[:, None])[:, 0]
    drawn = [np.repeat(x, c.astype(int)) for c in counts[:3]]
    expected = [np.sqrt(np.sum((d - d.mean()) ** 2)) / 40 for d in drawn]
    np.testing.assert_allclose(errors[:3], expected, rtol=1e-9)


@pytest.mark.parametrize("method", [IntervalMethod.BCA, IntervalMethod.STUDENTIZED])
def test_a_run_with_another_interval_keeps_verdicts_and_intervals_together(method):
    rng = np.random.default_rng(21)
    base = rng.normal(0.5, 0.2, 60)
    scores = {f"S{k}": base + rng.normal(0.01 * k, 0.08, 60) for k in range(4)}
    settings = BootstrapSettings(999, seed=3, interval=method)
    result = run_to_end(iter_bootstrap(comet_statistics(scores), settings))
    assert f"|ci:{method}" in result.signature
    percentile = run_to_end(
        iter_bootstrap(comet_statistics(scores), replace(settings, interval="percentile"))
    )
    moved = 0
    for pair in result.pairs:
        assert (pair.verdict == TIE) == (pair.ci_low <= 0 <= pair.ci_high)
        assert (pair.verdict == TIE) == (not is_significant(pair.p_value, 0.95))
        other = percentile.pair(pair.metric, pair.x, pair.y)
        moved += (pair.ci_low, pair.ci_high) != (other.ci_low, other.ci_high)
    assert moved == len(result.pairs)


# -- coverage with few documents ---------------------------------------------------------------

TEST_SETS = 300
SIGMAS = 4


@pytest.fixture(scope="module")
def few_documents() -> dict[IntervalMethod, tuple[int, int]]:
    """How often the 95% intervals of a system's BLEU and of a difference held the pool's
    values, on the same 300 test sets of 10 alike documents, for each method."""
    pool = correlated_pool(400, better_by=0.03, seed=5, effects=DocumentEffects())
    found = {}
    for method in (IntervalMethod.PERCENTILE, IntervalMethod.STUDENTIZED, IntervalMethod.BCA):
        settings = BootstrapSettings(499, interval=method)
        runs = iter_calibration(pool, 10, range(TEST_SETS), settings, 6, (Unit.DOCUMENT,))
        run = run_to_end(runs)[Unit.DOCUMENT]
        assert run.consistent.all()
        found[method] = (int(run.score_covered.sum()), int(run.delta_covered.sum()))
    return found


def test_with_ten_documents_the_studentized_interval_covers_near_the_level(few_documents):
    tolerance = SIGMAS * standard_error(0.95, TEST_SETS) * TEST_SETS
    for covered in few_documents[IntervalMethod.STUDENTIZED]:
        assert abs(covered - 0.95 * TEST_SETS) <= tolerance, few_documents


def test_with_ten_documents_the_studentized_interval_covers_more_than_percentiles(few_documents):
    """Paired on the same test sets: the studentized intervals hold the truth more often."""
    studentized, percentile = (
        few_documents[IntervalMethod.STUDENTIZED],
        few_documents[IntervalMethod.PERCENTILE],
    )
    assert studentized[0] > percentile[0] and studentized[1] > percentile[1], few_documents


def test_under_a_correction_the_correction_gives_the_intervals():
    index = np.repeat(np.arange(15), 4)
    auto = BootstrapSettings(interval="auto", correction="holm").resolved(index)
    assert auto[0].interval is IntervalMethod.PERCENTILE
    assert any("a little too narrow" in note for note in auto[1])
    asked, notes = BootstrapSettings(interval="studentized", correction="fdr").resolved(index)
    assert asked.interval is IntervalMethod.PERCENTILE
    assert any("not studentized" in note and "Benjamini" in note for note in notes)
    plain = BootstrapSettings(interval="auto").resolved(index)[0]
    assert plain.interval is IntervalMethod.STUDENTIZED
