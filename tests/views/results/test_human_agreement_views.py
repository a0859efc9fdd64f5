"""The paired view and the grid's tooltip say how often humans would agree with a pair's delta
(Kocmi et al. 2024) where the metric has a fit, and nothing of it where not."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from mtgui.engine.analysis import iter_analysis
from mtgui.engine.core.running import run_to_end
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.io.demo import load_demo
from mtgui.report.agreement import metric_agreement
from mtgui.views.results.paired_view import PairedView
from mtgui.views.results.significance_grid_model import SignificanceGridModel

SENTENCE = "Humans would agree with this difference about {:.0%} of the time (Kocmi et al. 2024)."


@pytest.fixture(scope="module")
def analysis():
    settings = BootstrapSettings(resamples=100)
    return run_to_end(iter_analysis(load_demo(), ["bleu", "ter"], MetricSettings(), settings))


def _expected(analysis, metric, x, y):
    agreement = metric_agreement(analysis.statistics, metric)
    assert agreement is not None
    share = agreement.of(analysis.bootstrap.pair(metric, x, y).delta)
    return SENTENCE.format(share)


def test_paired_view_says_it_under_bleu_and_not_under_ter(qtbot, analysis):
    view = PairedView()
    qtbot.addWidget(view)
    view.set_result(analysis, "bleu")
    x, y = view.first.currentText(), view.second.currentText()
    assert _expected(analysis, "bleu", x, y) in view.summary.text()
    view.set_result(analysis, "ter")
    assert "Humans would agree" not in view.summary.text()


def test_grid_tooltip_says_it_only_with_the_statistics_and_a_fit(qtbot, analysis):
    model = SignificanceGridModel()
    model.set_result(analysis.bootstrap, "bleu", analysis.statistics)
    tip = model.data(model.index(0, 1), Qt.ItemDataRole.ToolTipRole)
    x, y = model.systems[:2]
    assert _expected(analysis, "bleu", x, y) in tip
    model.set_result(analysis.bootstrap, "ter", analysis.statistics)
    assert "Humans would agree" not in model.data(model.index(0, 1), Qt.ItemDataRole.ToolTipRole)
    model.set_result(analysis.bootstrap, "bleu")
    assert "Humans would agree" not in model.data(model.index(0, 1), Qt.ItemDataRole.ToolTipRole)
