"""The Summary tab: first among the results, the result in words once a run ends."""

from __future__ import annotations

from gui_helpers import shoot, wait_for_result

from mtgui.report.bidi import isolated
from mtgui.report.verdicts import metric_summary
from mtgui.views.results.summary_view import EMPTY
from mtgui.views.window.launch import load_demo_into


def test_the_summary_tab_comes_first_and_says_the_result_in_words(qtbot, window):
    tabs = window.results.tabs
    assert tabs.tabText(0) == "Summary"
    assert tabs.currentWidget() is window.results.histograms  # a run fills them first
    assert EMPTY in window.results.summary.toPlainText()
    load_demo_into(window)
    wait_for_result(qtbot, window)
    tabs.setCurrentIndex(0)
    text = window.results.summary.toPlainText()
    result = window.result.bootstrap
    for metric in result.metrics:
        assert " ".join(metric_summary(result, metric, isolated).split()) in " ".join(text.split())
    assert "could not tell apart" in text
    shoot(window, "main-window-summary-demo")
