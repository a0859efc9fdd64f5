"""What the studies share: cancelling, seeds of their own, the vectorised interval summary."""

from __future__ import annotations

import threading
from dataclasses import replace
from types import MappingProxyType

import numpy as np
import pytest
from study_runs import METRICS, demo_statistics

from mtgui.engine.inference.intervals import summarize_samples
from mtgui.engine.metrics.human import Human
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.engine.statistics.rows import Statistics, SystemStatistics
from mtgui.engine.studies import (
    RefsSettings,
    ResamplesSettings,
    SizeSettings,
    iter_human_study,
    iter_refs_study,
    iter_resamples_study,
    iter_size_study,
)
from mtgui.engine.studies.common import (
    derived_seed,
    percentile_bounds,
    relative_bounds,
)
from mtgui.io.demo import load_demo


def studies():
    """Each study on the demo, with settings that keep it busy for a while."""
    statistics, documents = demo_statistics()
    bootstrap, many = BootstrapSettings(resamples=1000), BootstrapSettings(resamples=5000)
    return {
        "size": lambda: iter_size_study(statistics, SizeSettings(bootstrap, repeats=50), documents),
        "refs": lambda: iter_refs_study(load_demo(), METRICS, settings=RefsSettings(bootstrap)),
        "resamples": lambda: iter_resamples_study(statistics, ResamplesSettings(), documents),
        "human": lambda: iter_human_study(with_human(statistics), many, documents),
    }


def with_human(statistics: Statistics) -> Statistics:
    """The statistics with human scores for every segment of every system."""
    scores = np.linspace(0, 1, 95)
    systems = tuple(
        SystemStatistics(
            s.system,
            MappingProxyType({**s.rows, "human": np.column_stack([scores + k, np.ones(95)])}),
        )
        for k, s in enumerate(statistics.systems)
    )
    return replace(statistics, metrics=(*statistics.metrics, Human()), systems=systems)


@pytest.mark.parametrize("name", ["size", "refs", "resamples", "human"])
def test_closing_a_study_cancels_it_and_stops_its_drawing(name):
    study = studies()[name]()
    snapshots = [next(study) for _ in range(3)]
    study.close()
    assert not [t for t in threading.enumerate() if t.name == "mtgui-draw"]
    assert snapshots[-1].done < snapshots[-1].total
    with pytest.raises(StopIteration):
        next(study)


def test_derived_seeds_are_reproducible_and_distinct():
    seeds = {derived_seed(12345, 2, repeat, k) for repeat in range(50) for k in range(10)}
    assert len(seeds) == 500
    assert derived_seed(12345, 2, 3, 4) == derived_seed(12345, 2, 3, 4) != derived_seed(1, 2, 3, 4)


def test_the_vectorised_summary_is_the_one_of_the_intervals():
    rng = np.random.default_rng(0)
    samples = rng.normal(0.3, 0.01, (4, 777))
    samples[2, :10] = np.nan  # undefined resamples are left out, as summarize_samples does
    samples[3] = np.nan
    low, median, high = percentile_bounds(samples, 0.9)
    rel_low, rel_high = relative_bounds(low, median, high)
    for i, row in enumerate(samples):
        interval = summarize_samples("s", "m", 0.3, row, 0.9)
        expected = [interval.ci_low, interval.median, interval.ci_high]
        expected += [interval.rel_ci_low, interval.rel_ci_high]
        got = [low[i], median[i], high[i], rel_low[i], rel_high[i]]
        np.testing.assert_allclose(got, expected, rtol=1e-15, atol=0)


def test_rows_off_a_ratio_scale_have_no_relative_bounds_as_in_the_intervals():
    rng = np.random.default_rng(1)
    samples = rng.normal(-0.05, 0.02, (2, 500))  # human z-scores around 0
    low, median, high = percentile_bounds(samples, 0.95)
    rel_low, rel_high = relative_bounds(low, median, high, np.array([True, False]))
    assert np.isfinite([rel_low[0], rel_high[0]]).all()
    assert np.isnan([rel_low[1], rel_high[1]]).all()
    interval = summarize_samples("s", "human", -0.05, samples[1], 0.95, ratio_scale=False)
    assert np.isnan([interval.rel_ci_low, interval.rel_ci_high, interval.rsd]).all()
    assert interval.ci_low == low[1] and interval.ci_high == high[1]
