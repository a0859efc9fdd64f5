"""The grid's tooltip says what the segment-level tests found
(mtgui.engine.inference.segment_tests)."""

from __future__ import annotations

from types import MappingProxyType

import numpy as np
from PySide6.QtCore import Qt

from mtgui.engine.core.running import run_to_end
from mtgui.engine.inference.choices import DecidingTest
from mtgui.engine.metrics.external import external_metric
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.resampling.bootstrap import iter_bootstrap
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.engine.statistics.rows import Statistics, SystemStatistics
from mtgui.report.paired import paired_deltas
from mtgui.views.results.paired_view import describe
from mtgui.views.results.significance_grid_model import SignificanceGridModel

Comet = external_metric("comet")


def statistics_of(scores: dict[str, np.ndarray]) -> Statistics:
    systems = tuple(
        SystemStatistics(name, MappingProxyType({"comet": np.column_stack([v, np.ones(len(v))])}))
        for name, v in scores.items()
    )
    return Statistics(MetricSettings(), (Comet(),), systems)


def test_the_grid_tooltip_tells_the_segment_level_tests(qtbot):
    rng = np.random.default_rng(9)
    x = rng.normal(0.6, 0.2, 60)
    statistics = statistics_of({"X": x, "Y": x - 0.02 + rng.normal(0, 0.06, 60)})
    settings = BootstrapSettings(999, seed=1, test=DecidingTest.T)
    result = run_to_end(iter_bootstrap(statistics, settings))
    model = SignificanceGridModel()
    model.set_result(result, "comet")
    cell = model.index(0, 1)
    tip = model.data(cell, Qt.ItemDataRole.ToolTipRole)
    comparison = result.segment_comparison("comet", *model.systems[:2])
    assert f"Paired t-test p = {comparison.p_value_t:.4g}" in tip
    assert "Wilcoxon signed-rank p = " in tip and "on the 60 segments scored for both" in tip
    assert f"better in {comparison.win_rate:.1%}" in tip


def test_the_paired_view_tells_the_segment_level_tests_and_the_mdd():
    rng = np.random.default_rng(9)
    x = rng.normal(0.6, 0.2, 60)
    statistics = statistics_of({"X": x, "Y": x - 0.02 + rng.normal(0, 0.06, 60)})
    result = run_to_end(iter_bootstrap(statistics, BootstrapSettings(999, seed=1)))
    text = describe(paired_deltas(result, "comet", "X", "Y", True), "COMET")
    comparison = result.segment_comparison("comet", "X", "Y")
    assert f"Paired t-test p = {comparison.p_value_t:.4g}" in text
    assert f"X better in {comparison.win_rate:.1%}" in text
    assert "can go unseen here" in text and "(an estimate)" in text
