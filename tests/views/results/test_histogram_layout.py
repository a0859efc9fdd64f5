"""Distributions to compare by eye: one shared x-axis, best first, a legend of the lines."""

from __future__ import annotations

import pytest
from gui_helpers import shoot
from PySide6.QtCore import Qt

from mtgui.engine.core.running import run_to_end
from mtgui.engine.resampling.bootstrap import iter_bootstrap
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.engine.statistics.rows import compute_statistics
from mtgui.io.demo import load_demo
from mtgui.views.common.palette import series_color, series_style
from mtgui.views.results.histogram_view import MARKS_LEGEND, HistogramView

LOAD_ORDER = ["Ostrich", "Lumen", "Tessera", "Quill"]  # not the order of their scores


@pytest.fixture(scope="module")
def result():
    statistics = compute_statistics(load_demo(), ["bleu"])
    return run_to_end(iter_bootstrap(statistics, BootstrapSettings(resamples=500)))


@pytest.fixture
def view(qtbot, result):
    view = HistogramView()
    qtbot.addWidget(view)
    view.resize(900, 520)
    view.start_run(LOAD_ORDER, "bleu", "BLEU")
    view.update_scores({(i.system, i.metric): i.samples[:50] for i in result.intervals})
    view.finish_run(result)
    view.show()
    qtbot.waitExposed(view)
    return view


def x_ranges(view):
    return {system: tuple(plot.viewRange()[0]) for system, plot in view.plots.items()}


def test_every_plot_shares_one_x_axis_by_default(view):
    ranges = set(x_ranges(view).values())
    assert len(ranges) == 1
    low, high = ranges.pop()
    assert low < 0.45 < 0.82 < high  # Ostrich's and Lumen's BLEU on one axis
    shoot(view, "histograms-shared-axis-demo")


def test_each_plot_keeps_its_own_axis_when_asked(view):
    view.same_axis.setChecked(False)
    assert len(set(x_ranges(view).values())) == 4
    view.same_axis.setChecked(True)
    assert len(set(x_ranges(view).values())) == 1


def test_the_plots_are_laid_out_best_first(view, result):
    ranked = [entry.system for entry in result.ranking("bleu").systems]
    assert list(view.plots) == ranked
    layout = view._layout_widget.ci
    for number, system in enumerate(ranked):
        assert layout.getItem(number // 2, number % 2) is view.plots[system]
    # Laid out once all are moved (not after each), and where the grid says.
    assert "activate" not in vars(layout.layout)  # the layout's own method again
    places = [view.plots[system].geometry().topLeft() for system in ranked]
    assert places[0].y() == places[1].y() < places[2].y() == places[3].y()
    assert places[0].x() == places[2].x() < places[1].x() == places[3].x()


def test_a_legend_says_what_the_lines_are(view):
    assert view.marks_legend.isVisible()
    assert view.marks_legend.text() == MARKS_LEGEND
    assert "dashed, the median" in MARKS_LEGEND


def test_no_two_of_28_systems_look_alike():
    looks = {(series_color(n), series_style(n)) for n in range(28)}
    assert len(looks) == 28
    assert series_style(0) == Qt.PenStyle.SolidLine
    assert series_style(10) == Qt.PenStyle.DashLine
    assert series_style(20) == Qt.PenStyle.DotLine


def test_the_legend_of_the_lines_is_whole_on_a_narrow_view(qtbot, view):
    """At 1280 x 800 and 150% the view is about 500 wide: the legend wraps, never cut."""
    view.resize(480, 520)
    qtbot.waitUntil(lambda: view.width() == 480)
    legend = view.marks_legend
    assert legend.geometry().right() < view.width()
    assert legend.height() >= legend.heightForWidth(legend.width()) > 0
