"""The results pane on its own, without a window or a controller: told what to show, it shows it."""

from __future__ import annotations

import pytest

from mtgui.engine.analysis import iter_analysis
from mtgui.engine.core.running import run_to_end
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.io.demo import load_demo
from mtgui.views.results.results_pane import ResultsPane


@pytest.fixture(scope="module")
def analysis():
    settings = BootstrapSettings(resamples=200)
    return run_to_end(iter_analysis(load_demo(), ["bleu", "ter"], MetricSettings(), settings))


@pytest.fixture
def pane(qtbot):
    ticked = ["chrf"]
    widget = ResultsPane(lambda: ticked)
    widget.ticked = ticked  # the test changes what is ticked
    qtbot.addWidget(widget)
    return widget


def test_before_a_result_the_first_metric_ticked_is_shown(pane):
    assert pane.current_metric() == "chrf"
    pane.ticked.clear()
    assert pane.current_metric() == "bleu"
    assert pane.score_model.rowCount() == 0


def test_a_result_fills_the_chooser_and_the_tables_and_keeps_the_metric_shown(pane, analysis):
    pane.show_result(analysis)
    assert [pane.metric_choice.itemData(i) for i in range(pane.metric_choice.count())] == [
        "bleu",
        "ter",
    ]
    assert pane.current_metric() == "bleu"  # chrF, shown before, is not in the result
    assert pane.score_model.rowCount() == 4
    assert pane.score_table.export_name == "scores-bleu"
    pane.metric_choice.setCurrentIndex(pane.metric_choice.findData("ter"))
    assert pane.grid_table.export_name == "significance-ter"
    pane.show_result(analysis)
    assert pane.current_metric() == "ter"


def test_a_reopened_sessions_metric_is_shown_once_a_result_has_it(pane, analysis):
    pane.want_metric("ter")
    pane.show_result(analysis)
    assert pane.current_metric() == "ter"


def test_segments_and_details_fill_only_when_their_tab_is_shown(pane, analysis):
    pane.show_result(analysis)
    assert pane.segments.result is None and pane.details.current_metric() is None
    pane.tabs.setCurrentWidget(pane.details)
    assert pane.details.current_metric() == "bleu"
    pane.show_segments("Lumen", "Ostrich")
    assert pane.tabs.currentWidget() is pane.segments
    assert pane.segments.pair() == ("Lumen", "Ostrich")


def test_a_double_click_on_the_grid_opens_the_paired_view_on_its_two_systems(pane, analysis):
    pane.show_result(analysis)
    first, second = pane.grid_model.systems[:2]
    pane.grid_table.doubleClicked.emit(pane.grid_model.index(0, 1))
    assert pane.tabs.currentWidget() is pane.paired
    assert (pane.paired.first.currentText(), pane.paired.second.currentText()) == (first, second)


def test_the_notes_show_only_when_there_is_something_to_say(pane):
    pane.show_stale("These results are from the previous settings.")
    pane.show_notes("Note: few documents.")
    assert not pane.stale.isHidden() and not pane.notes.isHidden()
    pane.show_stale("")
    pane.show_notes("")
    assert pane.stale.isHidden() and pane.notes.isHidden()
