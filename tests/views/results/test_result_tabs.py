"""The results pane's tabs behind one protocol: the pane loops over a list of tabs, gives each
the result and the metric shown, and tells the current one when it is seen."""

from __future__ import annotations

import pytest

from mtgui.engine.analysis import AnalysisResult, iter_analysis
from mtgui.engine.core.running import run_to_end
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.io.demo import load_demo
from mtgui.views.results.result_tabs import EagerTab, LazyTab, ResultTab
from mtgui.views.results.results_pane import ResultsPane


class Recorder:
    """A tab of the protocol's four members that records what it is told."""

    def __init__(self, page) -> None:
        self.title, self.page = "Recorder", page
        self.told: list[tuple[str, str]] = []
        self.seen = 0

    def show_result(self, result: AnalysisResult, metric: str) -> None:
        self.told.append(("result", metric))

    def shown(self) -> None:
        self.seen += 1


@pytest.fixture(scope="module")
def analysis():
    settings = BootstrapSettings(resamples=100)
    return run_to_end(iter_analysis(load_demo(), ["bleu", "ter"], MetricSettings(), settings))


@pytest.fixture
def pane(qtbot):
    widget = ResultsPane(lambda: ["bleu"])
    qtbot.addWidget(widget)
    return widget


def test_the_tab_widget_shows_the_list_of_tabs_in_its_order(pane):
    titles = [pane.tabs.tabText(i) for i in range(pane.tabs.count())]
    assert titles == [tab.title for tab in pane.result_tabs]
    assert titles[:4] == ["Summary", "Distributions", "Scores", "Significance"]
    assert [pane.tabs.widget(i) for i in range(pane.tabs.count())] == [
        tab.page for tab in pane.result_tabs
    ]


def test_every_tab_is_told_each_result_and_metric_and_the_current_one_is_seen(
    qtbot, pane, analysis
):
    recorder = Recorder(pane.details)  # stands in for the Details tab, as a new tab would
    index = next(i for i, tab in enumerate(pane.result_tabs) if tab.page is pane.details)
    tab: ResultTab = recorder
    pane.result_tabs[index] = tab
    pane.show_result(analysis)
    assert recorder.told == [("result", "bleu")] and recorder.seen == 0
    pane.metric_choice.setCurrentIndex(pane.metric_choice.findData("ter"))
    assert recorder.told[-1] == ("result", "ter") and recorder.seen == 0
    pane.tabs.setCurrentIndex(index)
    assert recorder.seen == 1
    pane.show_result(analysis)  # the current tab is seen again with the new result
    assert recorder.seen == 2


def test_a_lazy_tab_is_filled_once_when_seen_with_the_last_result_given(qtbot, analysis):
    filled: list[str] = []
    lazy = LazyTab("Lazy", None, lambda result, metric: filled.append(metric))  # type: ignore[arg-type]
    lazy.show_result(analysis, "bleu")
    lazy.show_result(analysis, "ter")
    assert filled == []
    lazy.shown()
    lazy.shown()
    assert filled == ["ter"]


def test_an_eager_tab_is_filled_at_once(analysis):
    filled: list[str] = []
    eager = EagerTab("Eager", None, lambda result, metric: filled.append(metric))  # type: ignore[arg-type]
    eager.show_result(analysis, "bleu")
    assert filled == ["bleu"]


def test_segments_documents_and_details_fill_only_when_seen(pane, analysis):
    pane.show_result(analysis)
    assert pane.segments.result is None and pane.documents.result is None
    pane.tabs.setCurrentWidget(pane.documents)
    assert pane.documents.result is analysis and pane.segments.result is None
    pane.tabs.setCurrentWidget(pane.segments)
    assert pane.segments.result is analysis
