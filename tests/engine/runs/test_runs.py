"""Systems with runs (MultEval's): the summaries against hand computations, the two-level
bootstrap's seed level and Welch factor, stratified randomization against an exhaustive
enumeration, and the calibration of the comparison on two systems whose runs share one seed
distribution."""

from __future__ import annotations

import itertools
import math
import statistics as pystats

import numpy as np
import pytest

from mtgui.engine.core import InputError
from mtgui.engine.runs import (
    RunGroup,
    check_groups,
    stratified_randomization,
    summarize_runs,
)
from mtgui.engine.runs.calibration import difference_sd, simulate_runs
from mtgui.engine.runs.two_level import seed_variance, two_level, welch_factor


def test_summary_is_the_mean_the_sd_with_ddof_1_and_the_mean_bootstrap_sd():
    samples = np.array([0.1, 0.2, 0.3, 0.4])
    found = summarize_runs("A", "bleu", [0.30, 0.32, 0.37], [0.010, 0.012, 0.014], samples, 0.5)
    assert found.score == pytest.approx((0.30 + 0.32 + 0.37) / 3)
    assert found.sd_runs == pytest.approx(pystats.stdev([0.30, 0.32, 0.37]))
    assert found.s_sel == pytest.approx(0.012)
    assert (found.ci_low, found.ci_high) == pytest.approx(tuple(np.percentile(samples, [25, 75])))


def test_the_seeds_level_is_the_runs_spread_less_their_segment_noise():
    scores = [0.30, 0.32, 0.37]
    # the runs' deviations from their mean move from resample to resample by +-0.01 (run 0
    # and 1) and 0 (run 2): that is the segment noise w the test-set level already varies
    base = np.array([0.5, 0.6, 0.7, 0.8])
    wiggle = np.array([0.01, -0.01, 0.01, -0.01])
    runs = [base + wiggle, base - wiggle, base.copy()]
    deviations = np.vstack(runs) - np.vstack(runs).mean(axis=0)
    noise = deviations.var(axis=1, ddof=1).sum() / 2
    spread = pystats.variance(scores)
    tau2 = spread - noise
    variance, df = seed_variance(scores, runs, units=50)
    assert variance == pytest.approx(tau2 / 3)
    assert df == pytest.approx(tau2**2 / (spread**2 / 2 + noise**2 / (2 * 49)))
    # the two-level score is the runs' mean on the resample plus a normal seed draw
    made = two_level(scores, runs, np.array([0.0, 1.0, -1.0, 2.0]), units=50)
    assert made.runs_mean == pytest.approx(base)
    assert made.samples == pytest.approx(base + math.sqrt(tau2 / 3) * np.array([0, 1, -1, 2]))


def test_runs_that_differ_only_by_segment_noise_have_no_seed_level():
    """The overcount the two levels had: runs whose spread is all segment noise (no seed
    effect) drew that spread again on top of the resampled segments."""
    rng = np.random.default_rng(3)
    segments = rng.normal(0.0, 1.0, (3, 400))  # 3 runs: noise only
    counts = rng.multinomial(400, np.full(400, 1 / 400), size=300)
    resampled = segments @ counts.T / 400
    made = two_level(list(segments.mean(axis=1)), list(resampled), rng.normal(size=300), 400)
    if made.seed_variance:  # at most a sliver of the spread is left, with few degrees of freedom
        assert made.seed_variance < segments.mean(axis=1).var(ddof=1) / 3
    assert made.samples.var() < 1.5 * made.runs_mean.var()


def test_resamples_where_a_run_has_no_score_are_left_out_of_the_noise():
    runs = [np.array([0.5, np.nan, 0.7, 0.6]), np.array([0.4, 0.5, np.nan, 0.45])]
    variance, _ = seed_variance([0.6, 0.45], runs, units=20)
    deviations = np.array([[0.5, 0.6], [0.4, 0.45]])
    deviations -= deviations.mean(axis=0)
    noise = deviations.var(axis=1, ddof=1).sum()
    assert variance == pytest.approx((pystats.variance([0.6, 0.45]) - noise) / 2)
    made = two_level([0.6, 0.45], runs, np.zeros(4), units=20)
    assert np.isnan(made.samples[1:3]).all() and np.isfinite(made.samples[[0, 3]]).all()


def test_the_welch_factor_is_students_quantile_over_the_normals():
    t4 = 2.7764451051977987  # Student's t, 4 degrees of freedom, 97.5%
    assert welch_factor([(1.0, 4.0)], 0.95) == pytest.approx(t4 / 1.959963984540054)
    # Welch-Satterthwaite: two equal parts of 2 degrees of freedom make 4
    assert welch_factor([(0.5, 2.0), (0.5, 2.0)], 0.95) == pytest.approx(t4 / 1.959963984540054)
    assert welch_factor([(1.0, math.inf), (0.0, 2.0)], 0.95) == 1.0


def test_one_run_is_its_own_resamples():
    samples = np.array([0.5, 0.6, 0.7])
    made = two_level([0.6], [samples], np.array([1.0, -1.0, 2.0]), units=10)
    assert made.samples == pytest.approx(samples)
    assert made.seed_variance == 0.0


def _mean_score(sums):
    return sums[:, 0] / sums[:, 1]


def _exact_stratified_p(x_runs, y_runs):
    """Every swap of every unit in every stratum, enumerated."""
    units = x_runs[0].shape[0]
    observed = np.mean([_mean_score(x.sum(0)[None])[0] for x in x_runs]) - np.mean(
        [_mean_score(y.sum(0)[None])[0] for y in y_runs]
    )
    hits = total = 0
    for masks in itertools.product((0, 1), repeat=units * len(x_runs)):
        mask = np.array(masks).reshape(len(x_runs), units, 1)
        xs = [np.where(m, y, x) for m, x, y in zip(mask, x_runs, y_runs, strict=True)]
        ys = [np.where(m, x, y) for m, x, y in zip(mask, x_runs, y_runs, strict=True)]
        delta = np.mean([_mean_score(a.sum(0)[None])[0] for a in xs]) - np.mean(
            [_mean_score(b.sum(0)[None])[0] for b in ys]
        )
        hits += abs(delta) >= abs(observed) - 1e-12
        total += 1
    return hits / total


def test_stratified_randomization_approaches_the_exhaustive_enumeration():
    def rows(values):
        return np.column_stack([values, np.ones(len(values))])

    x_runs = [rows([0.9, 0.8, 0.7]), rows([0.6, 0.9, 0.8])]
    y_runs = [rows([0.2, 0.5, 0.4]), rows([0.3, 0.1, 0.6])]
    exact = _exact_stratified_p(x_runs, y_runs)
    trials = 4000
    p = stratified_randomization(x_runs, y_runs, _mean_score, trials, seed=3)
    assert p == pytest.approx(exact, abs=4 * math.sqrt(exact * (1 - exact) / trials) + 1e-3)


def test_groups_that_cannot_be_runs_are_refused():
    with pytest.raises(InputError, match="two runs"):
        check_groups([RunGroup("A", ("a1",))], ["a1"])
    with pytest.raises(InputError, match="not a loaded system"):
        check_groups([RunGroup("A", ("a1", "a9"))], ["a1", "a2"])
    with pytest.raises(InputError, match="run of both"):
        check_groups([RunGroup("A", ("a1", "a2")), RunGroup("B", ("a2", "a3"))], ["a1", "a2", "a3"])


def test_three_runs_with_a_large_seed_spread_are_called_different_at_most_at_the_level():
    """The calibration check where it failed: 3 runs a system, seeds spread by 5 single-run
    standard errors. The two-level comparison's false-positive rate is at most 5% within Monte
    Carlo error (two standard errors); the draw of 3 runs with replacement it replaced called
    12% different on these test sets. One run against one, on the same test sets, is far above
    (the inflation Clark et al. warn of). When the systems differ by 3 standard deviations of
    their mean's difference, it finds as many as Welch's t-test on the runs' scores."""
    null = simulate_runs(400, runs=3, units=100, run_sd=0.5, resamples=100, seed=7)
    assert null.two_level <= 0.05 + 2 * null.standard_error(0.05)
    assert null.single_run >= 0.5
    shift = 3 * difference_sd(3, 100, 0.5)
    found = simulate_runs(200, runs=3, units=100, run_sd=0.5, resamples=100, difference=shift)
    assert found.two_level >= found.welch - 2 * found.standard_error(found.welch)


def test_stratified_randomization_holds_the_level_only_when_seeds_do_not_matter():
    """What the docs say of the AR p-value: it varies the segments, not the seeds (few
    bootstrap resamples: only the randomization's rate is read here)."""
    still = simulate_runs(200, runs=3, units=60, run_sd=0.0, resamples=20, ar_trials=100)
    assert still.randomization is not None
    assert still.randomization <= 0.05 + 2 * still.standard_error(0.05)
    spread = simulate_runs(200, runs=3, units=60, run_sd=0.65, resamples=20, ar_trials=100)
    assert spread.randomization is not None and spread.randomization >= 0.4
