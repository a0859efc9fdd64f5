"""Systems with runs (MultEval's): the summaries against hand computations, the two-level
bootstrap's rescaling, stratified randomization against an exhaustive enumeration, and the
calibration of the comparison on two systems whose runs share one seed distribution."""

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
    two_level_samples,
)
from mtgui.engine.runs.calibration import simulate_runs_null


def test_summary_is_the_mean_the_sd_with_ddof_1_and_the_mean_bootstrap_sd():
    samples = np.array([0.1, 0.2, 0.3, 0.4])
    found = summarize_runs("A", "bleu", [0.30, 0.32, 0.37], [0.010, 0.012, 0.014], samples, 0.5)
    assert found.score == pytest.approx((0.30 + 0.32 + 0.37) / 3)
    assert found.sd_runs == pytest.approx(pystats.stdev([0.30, 0.32, 0.37]))
    assert found.s_sel == pytest.approx(0.012)
    assert (found.ci_low, found.ci_high) == pytest.approx(tuple(np.percentile(samples, [25, 75])))


def test_two_level_draws_runs_on_each_resample_and_rescales_their_spread():
    runs = [np.array([1.0, 10.0]), np.array([3.0, 30.0])]  # 2 runs, B = 2
    drawn = np.array([[0, 0], [1, 0]])  # resample 1 draws run 0 twice; resample 2 runs 1, 0
    made = two_level_samples(runs, drawn)
    # resample 1: centre 2, drawn mean 1 -> 2 + sqrt(2) (1 - 2); resample 2: drawn mean = centre
    assert made == pytest.approx([2 - math.sqrt(2), 20.0])
    # its variance over all draws is that of the mean of k runs: s^2 / k (ddof 1)
    scores = np.array([0.1, 0.4, 0.2, 0.9, 0.5])
    everything = np.array(list(itertools.product(range(5), repeat=5)))
    spread = two_level_samples([np.full(len(everything), s) for s in scores], everything)
    assert spread.var() == pytest.approx(scores.var(ddof=1) / 5)


def test_one_run_is_its_own_resamples():
    samples = np.array([0.5, 0.6, 0.7])
    assert two_level_samples([samples], np.zeros((3, 1), dtype=int)) == pytest.approx(samples)


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


def test_runs_of_one_seed_distribution_are_called_different_at_most_at_the_level():
    """The calibration check: the two-level comparison's false-positive rate is at most 5%
    within Monte Carlo error (two standard errors), where one run against one run, on the same
    test sets, is far above it (the inflation Clark et al. warn of)."""
    found = simulate_runs_null(300, runs=5, units=60, run_sd=0.25, resamples=100, seed=7)
    assert found.two_level <= 0.05 + 2 * found.standard_error(0.05)
    assert found.single_run >= 0.15
