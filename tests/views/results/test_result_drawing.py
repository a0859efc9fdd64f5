"""A finished result is shown in steps, so that a large one never holds the window long.

The tables are filled at once; their columns are fitted to the texts only when they are shown,
and the histograms' final drawing waits for the next turn of the event loop (with twenty
systems these together held the window about 100 ms)."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from gui_helpers import wait_for_result


def marks(plot: pg.PlotItem) -> list[float]:
    """Where a histogram's vertical lines stand (score, median, interval), in order."""
    lines = [item for item in plot.items if isinstance(item, pg.InfiniteLine)]
    return sorted(line.value() for line in lines if line.isVisible())


def expected_marks(window, system: str, metric: str) -> list[float]:
    interval = window.result.bootstrap.interval(system, metric)
    return sorted([interval.score, interval.median, interval.ci_low, interval.ci_high])


def test_the_histograms_of_another_metric_are_drawn_at_the_next_turn(qtbot, window):
    window.load_demo()
    wait_for_result(qtbot, window)
    results, histograms = window.results, window.results.histograms
    qtbot.waitUntil(lambda: histograms.marks_legend.isVisible())
    assert marks(histograms.plots["Lumen"]) == expected_marks(window, "Lumen", "bleu")
    results.metric_choice.setCurrentIndex(results.metric_choice.findData("nist"))
    assert results.score_model.index(0, 2).data() != ""  # the tables: at once
    assert marks(histograms.plots["Lumen"]) == expected_marks(window, "Lumen", "bleu")
    qtbot.waitUntil(
        lambda: marks(histograms.plots["Lumen"]) != expected_marks(window, "Lumen", "bleu")
    )
    for system in window.result.bootstrap.systems:
        assert marks(histograms.plots[system]) == expected_marks(window, system, "nist")
    samples = window.result.bootstrap.interval("Lumen", "nist").samples
    assert histograms.counts("Lumen").sum() == np.count_nonzero(~np.isnan(samples))


def test_a_new_runs_scores_are_not_overdrawn_by_the_last_results_histograms(qtbot, window):
    window.load_demo()
    wait_for_result(qtbot, window)
    results = window.results
    results.show_result(window.result)  # its drawing waits for the next turn ...
    partial = {(i.system, i.metric): i.samples[:40] for i in window.result.bootstrap.intervals}
    results.start_run()
    results.show_scores(partial)  # ... and a new run's first scores come before it
    qtbot.wait(50)
    assert results.histograms.counts("Lumen").sum() == 40
    assert not results.histograms.marks_legend.isVisible()


def test_a_tables_columns_are_fitted_when_it_is_shown(qtbot, window):
    window.load_demo()  # the result comes while the Distributions tab is shown
    wait_for_result(qtbot, window)
    results, grid = window.results, window.results.grid_table
    assert results.tabs.currentWidget() is results.histograms
    default = [grid.horizontalHeader().defaultSectionSize()] * results.grid_model.columnCount()
    assert widths(grid) == default  # not measured yet
    results.tabs.setCurrentWidget(results.grid_page)
    shown = widths(grid)
    assert shown != default and shown == fitted(grid)
    scores = results.score_table
    assert widths(scores)[0] == scores.horizontalHeader().defaultSectionSize()
    results.tabs.setCurrentWidget(scores)
    assert widths(scores) == fitted(scores)


def widths(table) -> list[int]:
    return [table.columnWidth(c) for c in range(table.model().columnCount())]


def fitted(table) -> list[int]:
    """The column widths ``table`` has once fitted to its texts."""
    table.resizeColumnsToContents()
    return widths(table)


def test_the_finished_histograms_are_painted_at_the_next_turn(qtbot, window):
    window.load_demo()
    wait_for_result(qtbot, window)
    histograms = window.results.histograms
    qtbot.waitUntil(lambda: histograms.marks_legend.isVisible())
    histograms.finish_run(window.result.bootstrap)
    # Not painted in the turn that drew them (with twenty systems that turn took ~35 ms, the
    # painting as much again, and the window waited for both at once) ...
    assert not histograms._layout_widget.updatesEnabled()
    # ... but at the next.
    qtbot.waitUntil(lambda: histograms._layout_widget.updatesEnabled(), timeout=1000)
