"""The corrections, the MDD and the equivalence test against known truths (simulated families,
:mod:`mtgui.engine.calibration.families`), at the default B. Each rate is compared with its
nominal value within ``SIGMAS`` binomial standard errors of the run; the seeds are fixed.
``bench/bench_corrections.py`` runs the long version with 20 systems."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mtgui.engine.calibration.families import simulate_family
from mtgui.engine.inference.power import normal_quantile
from mtgui.engine.inference.significance import Correction
from mtgui.engine.resampling.settings import DEFAULT_RESAMPLES

SIGMAS = 3
SEGMENTS = 100
SE = math.sqrt(2 / SEGMENTS)  # the standard error of a delta (the shared difficulty cancels)


def tolerance(rate: float, runs: int) -> float:
    return SIGMAS * math.sqrt(rate * (1 - rate) / runs)


@pytest.fixture(scope="module")
def null_runs() -> dict[Correction, list]:
    """10 exchangeable systems (45 true nulls), 200 test sets, every correction."""
    rng = np.random.default_rng(33)
    outcomes: dict[Correction, list] = {c: [] for c in Correction}
    for _ in range(200):
        found = simulate_family(rng, [0.0] * 10, SEGMENTS, DEFAULT_RESAMPLES, list(Correction))
        for correction, outcome in found.items():
            outcomes[correction].append(outcome)
    return outcomes


@pytest.mark.parametrize("correction", [Correction.HOLM, Correction.MAXT, Correction.FDR])
def test_family_wise_error_of_10_exchangeable_systems_stays_at_the_level(null_runs, correction):
    # With every null true, the FDR is the family-wise error: BH controls it too.
    runs = null_runs[correction]
    rate = np.mean([o.false_found > 0 for o in runs])
    assert rate <= 0.05 + tolerance(0.05, len(runs)), rate


def test_without_a_correction_ten_systems_make_false_differences_most_of_the_time(null_runs):
    runs = null_runs[Correction.NONE]
    assert np.mean([o.false_found > 0 for o in runs]) > 0.4  # what the corrections are for


def test_maxt_finds_at_least_what_holm_finds_and_fdr_keeps_its_share():
    rng = np.random.default_rng(8)
    means = [0.0, 0.0, 0.0, 0.0, 0.0, 0.2, 0.2, 0.4, 0.4, 0.6]
    corrections = [Correction.HOLM, Correction.MAXT, Correction.FDR]
    found: dict[Correction, list] = {c: [] for c in corrections}
    for _ in range(60):
        for correction, outcome in simulate_family(
            rng, means, SEGMENTS, DEFAULT_RESAMPLES, corrections
        ).items():
            found[correction].append(outcome)
    holm = [o.true_found for o in found[Correction.HOLM]]
    maxt = [o.true_found for o in found[Correction.MAXT]]
    assert np.mean(maxt) > np.mean(holm)
    assert sum(m >= h for m, h in zip(maxt, holm, strict=True)) >= 0.9 * len(holm)
    shares = [o.false_found / max(o.found, 1) for o in found[Correction.FDR]]
    assert np.mean(shares) <= 0.05 + SIGMAS * np.std(shares) / math.sqrt(len(shares))


def test_a_true_difference_of_the_mdd_is_found_about_80_percent_of_the_time():
    rng = np.random.default_rng(5)
    mdd = (normal_quantile(0.975) + normal_quantile(0.8)) * SE
    runs = [
        simulate_family(rng, [mdd, 0.0], SEGMENTS, DEFAULT_RESAMPLES, [Correction.NONE])[
            Correction.NONE
        ]
        for _ in range(300)
    ]
    rate = np.mean([o.true_found for o in runs])
    assert abs(rate - 0.8) <= tolerance(0.8, len(runs)), rate
    estimated = np.mean([o.mdd[0] for o in runs])
    assert estimated == pytest.approx(mdd, rel=0.05)  # n out of n: se shrinks by (n-1)/n


def test_tost_says_equivalent_at_most_5_percent_of_the_time_at_the_margin():
    rng = np.random.default_rng(6)
    margin = 2 * SE
    runs = [
        simulate_family(
            rng, [margin, 0.0], SEGMENTS, DEFAULT_RESAMPLES, [Correction.NONE], margin=margin
        )[Correction.NONE]
        for _ in range(300)
    ]
    rate = np.mean([o.equivalent for o in runs])
    assert rate <= 0.05 + tolerance(0.05, len(runs)), rate
    inside = [
        simulate_family(rng, [0.0, 0.0], SEGMENTS, 999, [Correction.NONE], margin=4 * SE)[
            Correction.NONE
        ]
        for _ in range(30)
    ]
    assert np.mean([o.equivalent for o in inside]) > 0.5  # and it has power well inside
