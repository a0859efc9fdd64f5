"""The number-of-resamples study (Zhang & Vogel 4.3, Tables 5 and 6)."""

from __future__ import annotations

import numpy as np
import pytest
from study_runs import METRICS, demo_statistics, run

from mtgui.engine.core.errors import InputError
from mtgui.engine.core.running import run_to_end
from mtgui.engine.resampling.bootstrap import iter_bootstrap
from mtgui.engine.resampling.settings import BootstrapSettings, Unit
from mtgui.engine.studies import ResamplesSettings, StabilityRow, iter_resamples_study
from mtgui.engine.studies.resamples.study import ResamplesStudy


@pytest.fixture
def demo():
    return demo_statistics()


def small(unit: Unit = Unit.SEGMENT) -> ResamplesSettings:
    return ResamplesSettings(BootstrapSettings(unit=unit), (300, 1000), (100, 1000), runs=6)


@pytest.mark.parametrize("unit", list(Unit))
def test_each_b_of_table_5_is_what_eval_reports_with_that_b(demo, unit):
    statistics, documents = demo
    _, study = run(iter_resamples_study(statistics, small(unit), documents))
    for b in (300, 1000):
        settings = BootstrapSettings(resamples=b, unit=unit)
        result = run_to_end(iter_bootstrap(statistics, settings, documents))
        for row in (r for r in study.rows if r.resamples == b):
            interval = result.interval(row.system, row.metric)
            for field in (
                "score",
                "median",
                "std",
                "ci_low",
                "ci_high",
                "rel_ci_low",
                "rel_ci_high",
            ):
                assert getattr(row, field) == getattr(interval, field), (b, field)


def test_tables_have_a_row_for_every_b_system_and_metric(demo):
    statistics, documents = demo
    _, study = run(iter_resamples_study(statistics, small(), documents))
    keys = [(s, m) for s in statistics.system_names for m in METRICS]
    assert [(r.resamples, r.system, r.metric) for r in study.rows] == [
        (b, s, m) for b in (300, 1000) for s, m in keys
    ]
    assert [(r.resamples, r.system, r.metric) for r in study.stability] == [
        (b, s, m) for b in (100, 1000) for s, m in keys
    ]
    assert all(r.runs == 6 for r in study.stability)
    assert len(set(study.seeds)) == 6


def test_the_bounds_move_less_between_runs_with_more_resamples(demo):
    """The spread of a percentile over runs falls as 1/sqrt(B): about 3x from B = 100 to 1,000.

    Averaged over the 12 systems and metrics, a ratio above 1.5 is far from chance with 6 runs.
    """
    statistics, documents = demo
    _, study = run(iter_resamples_study(statistics, small(), documents))
    spread = {
        b: np.mean(
            [r.rel_ci_low_std + r.rel_ci_high_std for r in study.stability if r.resamples == b]
        )
        for b in (100, 1000)
    }
    assert spread[100] > 1.5 * spread[1000]


def test_snapshots_fill_table_5_then_table_6(demo):
    statistics, documents = demo
    settings = ResamplesSettings(BootstrapSettings(), (1000, 3000), (100, 1000), runs=6)
    snapshots, study = run(iter_resamples_study(statistics, settings, documents))
    dones = [s.done for s in snapshots]
    assert dones == sorted(dones) and dones[-1] == snapshots[-1].total == 3000 + 6 * 1000
    filled = [len(s.partial.rows) for s in snapshots]
    assert filled == sorted(filled) and filled[0] < filled[-1] == 24
    stable = [s.partial.stability[0].runs for s in snapshots if s.partial.stability]
    assert stable == sorted(stable) and stable[-1] == 6
    assert snapshots[-1].partial == study
    assert run(iter_resamples_study(statistics, settings, documents))[1] == study


def test_enough_is_the_smallest_b_from_which_the_bounds_are_steady():
    def row(b: int, spread: float) -> StabilityRow:
        return StabilityRow(b, "A", "bleu", 20, 0.3, 0, 0.29, 0, 0.31, 0, -4.0, spread, 4.0, spread)

    settings = ResamplesSettings(stability_sizes=(100, 500, 1000, 2000))
    spreads = {100: 0.5, 500: 0.15, 1000: 0.25, 2000: 0.1}  # the half width is 4
    study = ResamplesStudy(
        settings, "", ("A",), ("bleu",), (), tuple(row(b, s) for b, s in spreads.items()), ()
    )
    # Default: steady when the spread is at most 4 / 20 = 0.2. B = 500 is steady, but B = 1,000
    # is not: it must hold from B on.
    assert study.enough() == 2000
    assert study.enough(tolerance=0.1) == 500  # at most 0.4
    assert study.enough(tolerance=0.02) is None  # at most 0.08


def test_enough_reads_the_bounds_themselves_for_scores_without_relative_bounds():
    nan = float("nan")

    def row(b: int, spread: float) -> StabilityRow:  # human z-scores: half width 0.1
        return StabilityRow(
            b, "A", "human", 20, 0.0, 0, -0.1, spread, 0.1, spread, nan, nan, nan, nan
        )

    settings = ResamplesSettings(stability_sizes=(100, 1000))
    rows = (row(100, 0.01), row(1000, 0.004))
    study = ResamplesStudy(settings, "", ("A",), ("human",), (), rows, ())
    assert study.enough() == 1000  # 0.004 <= 0.1 / 20 < 0.01


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"sizes": (50, 1000)}, "from 100 to 100,000"),
        ({"stability_sizes": (100, 200_000)}, "from 100 to 100,000"),
        ({"runs": 1}, "0 \\(none\\) or from 2"),
    ],
)
def test_settings_that_make_no_sense_are_refused(changes, message):
    with pytest.raises(InputError, match=message):
        ResamplesSettings(**changes)
