"""The campaign's aggregate: Dror et al.'s partial conjunction against hand computations, and
the combined test and the counts calibrated by simulation on sets where x and y are equal."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest
from scipy import stats

from mtgui.engine.campaign import CampaignSet, aggregate, one_sided_p, partial_conjunction
from mtgui.engine.inference import Correction, Family


def test_bonferroni_partial_conjunction_is_holm_and_names_the_sets():
    # sorted 0.001, 0.01, 0.02, 0.2: (n - u + 1) p_(u) = 0.004, 0.03, 0.04, 0.2
    found = partial_conjunction([0.001, 0.02, 0.2, 0.01], 0.05)
    assert found.p_values == pytest.approx((0.004, 0.03, 0.04, 0.2))
    assert found.at_least == 3  # Holm: 0.001 <= .05/4, 0.01 <= .05/3, 0.02 <= .05/2, 0.2 > .05
    assert found.identified == (0, 3, 1)


def test_the_partial_conjunction_p_values_are_made_monotone():
    # (n - u + 1) p_(u): 3 x 0.016 = 0.048, 2 x 0.03 = 0.06, 1 x 0.04 = 0.04 -> 0.048, 0.06, 0.06
    found = partial_conjunction([0.016, 0.03, 0.04], 0.05)
    assert found.p_values == pytest.approx((0.048, 0.06, 0.06))
    assert found.at_least == 1


def test_fisher_partial_conjunction_by_hand():
    p = [0.04, 0.03, 0.05]  # each alone fails Holm beyond the first, Fisher pools them
    found = partial_conjunction(p, 0.05)
    logs = [math.log(v) for v in sorted(p)]
    by_hand = [stats.chi2.sf(-2 * sum(logs[u:]), 2 * (3 - u)) for u in range(3)]
    assert max(by_hand[:2]) <= 0.05 < by_hand[2] or found.at_least_fisher == 3
    expected = next((u for u in range(3) if max(by_hand[: u + 1]) > 0.05), 3)
    assert found.at_least_fisher == expected
    assert found.at_least == 0  # 3 x 0.03 > 0.05


def test_one_sided_p_values_follow_the_metric_direction():
    deltas = np.array([0.1, 0.2, -0.1, 0.3])
    assert one_sided_p(deltas, True) == pytest.approx((2 / 5, 4 / 5))
    assert one_sided_p(deltas, False) == pytest.approx((4 / 5, 2 / 5))


def _fake_set(name, delta, se, rng, resamples, seed=1):
    """A set's bootstrap as the aggregate reads it: x's and y's scores and resample scores
    (x's resamples spread around its score with standard error se), and the set's verdict."""
    x = 0.5 + delta
    x_samples = x + rng.normal(0, se, resamples)
    y_samples = np.full(resamples, 0.5)
    d = x_samples - y_samples
    tail = min((d <= 0).sum(), (d >= 0).sum())
    p = min(1.0, 2 * (tail + 1) / (resamples + 1))
    verdict = "~" if p >= 0.05 else (">" if np.median(d) > 0 else "<")
    intervals = {
        "x": SimpleNamespace(score=x, samples=x_samples),
        "y": SimpleNamespace(score=0.5, samples=y_samples),
    }
    bootstrap = SimpleNamespace(
        settings=SimpleNamespace(
            resamples=resamples,
            level=0.95,
            correction=Correction.NONE,
            family=Family.METRIC,
            seed=seed,
        ),
        systems=("x", "y"),
        metrics=("m",),
        interval=lambda system, metric: intervals[system],
        pair=lambda metric, a, b: SimpleNamespace(verdict=verdict),
    )
    return CampaignSet(name, bootstrap, {"m": True})


def test_the_combined_test_and_the_counts_keep_their_error_rates_on_equal_systems():
    """x and y equal on every set (each set's delta drawn around 0 with its standard error):
    the combined test says '>' or '<' in at most 5% of campaigns, and 'x better on at least
    one set' (at alpha / 2) in at most 2.5%, within two Monte Carlo standard errors."""
    rng = np.random.default_rng(11)
    repetitions, resamples = 800, 100
    combined = counted = 0
    for _ in range(repetitions):
        sets = [
            _fake_set(f"s{k}", rng.normal(0, se), se, rng, resamples)
            for k, se in enumerate((0.01, 0.02, 0.03, 0.015))
        ]
        (pair,) = aggregate(sets, seed=3).pairs
        combined += pair.comparison.verdict != "~"
        counted += pair.better.at_least >= 1

    def bound(rate):
        return rate + 2 * math.sqrt(rate * (1 - rate) / repetitions)

    assert combined / repetitions <= bound(0.05)
    assert counted / repetitions <= bound(0.025)


def test_the_combined_test_finds_a_difference_shared_by_the_sets():
    rng = np.random.default_rng(5)
    sets = [_fake_set(f"s{k}", 0.02, 0.015, rng, 200) for k in range(4)]
    (pair,) = aggregate(sets, seed=3).pairs
    assert pair.comparison.verdict == ">"
    assert pair.comparison.delta == pytest.approx(0.02)
    assert len(pair.sets) == 4


def test_sets_that_share_no_pair_say_so_rather_than_aggregate_nothing_silently():
    rng = np.random.default_rng(2)
    sets = [_fake_set("s0", 0.02, 0.015, rng, 100), _fake_set("s1", 0.02, 0.015, rng, 100)]
    sets[1].bootstrap.systems = ("u", "v")  # other names: no pair is in both sets
    found = aggregate(sets, seed=3)
    assert found.pairs == ()
    assert any("nothing to combine" in note for note in found.notes)
