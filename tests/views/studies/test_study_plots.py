"""The Studies tab's plots, words and progress, on studies of the demo run without a window:
bands drawn, log ticks that read, a legend off the data, display names, a moving progress bar."""

from __future__ import annotations

import math
import re
from functools import cache
from types import SimpleNamespace

import pyqtgraph as pg
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontMetricsF, QImage, QPainter
from study_runs import run

from mtgui.engine.inference.choices import IntervalMethod
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.engine.statistics.rows import compute_statistics
from mtgui.engine.studies.common import StudyProgress
from mtgui.engine.studies.dispatch import iter_study
from mtgui.engine.studies.human.study import HumanStudy
from mtgui.io.demo import load_demo
from mtgui.views.studies.studies_view import STUDIES, StudiesView, interval_method
from mtgui.views.studies.study_axes import fitting_log_ticks, labels_fit, plain_number
from mtgui.views.studies.study_columns import METHOD_WORDS, cell_value, display_table
from mtgui.views.studies.study_plots import study_plots
from mtgui.views.studies.study_status import progress_fraction

PLAIN = re.compile(r"^\d+(\.\d+)?[kM]?$")
RAW = {"bleu", "nist", "mbleu", "True", "False", "rel_ci_low", "system", "metric"}


@cache
def demo_run(kind: str) -> tuple[list, object]:
    """A study of the demo (few repeats and resamples: quick), its snapshots and result."""
    corpus = load_demo()
    statistics = compute_statistics(corpus, ("bleu", "nist", "mbleu"))
    study = iter_study(
        kind, corpus, statistics, MetricSettings(), BootstrapSettings(resamples=1000), 2
    )
    return run(study)


@pytest.fixture
def view(qtbot):
    view = StudiesView()
    qtbot.addWidget(view)
    view.resize(1200, 700)
    view.show()
    qtbot.waitExposed(view)
    return view


def test_the_placeholder_says_what_each_study_does_and_needs_before_a_run(view):
    assert view.placeholder.isVisible() and not view.plots.isVisible()
    needs = {"size": "a reference", "refs": "two references", "resamples": "B", "human": "human"}
    for kind, words in needs.items():
        view.kind.setCurrentIndex(list(STUDIES).index(kind))
        text = view.placeholder.text()
        assert words in text and "Press Run study to start." in text, kind
    view.set_running(True)
    assert "Running" in view.placeholder.text()


@pytest.mark.parametrize("kind", ["size", "refs"])
def test_a_band_is_filled_between_each_lines_bounds(view, kind):
    _, study = demo_run(kind)
    view.show_result(study)
    assert view.plot_area.currentWidget() is view.plots
    spec = study_plots(study, "bleu")[0]
    assert "band" in spec.title
    plot, lines = view.canvas.items[0]
    fills = [item for item in plot.items if isinstance(item, pg.FillBetweenItem)]
    assert len(fills) == len(spec.lines) == 4
    for fill, (_, low, high, _), line in zip(fills, lines, spec.lines, strict=True):
        assert not fill.path().isEmpty()
        assert fill.curves == [low, high]
        assert tuple(low.getData()[1]) == pytest.approx(line.low)
        assert tuple(high.getData()[1]) == pytest.approx(line.high)
        assert tuple(low.getData()[0]) == pytest.approx(line.xs)
        assert all(lo <= y <= hi for lo, y, hi in zip(line.low, line.ys, line.high, strict=True))
        assert max(hi - lo for lo, hi in zip(line.low, line.high, strict=True)) > 0


def test_a_title_promises_a_band_only_where_there_is_one():
    for kind in ("size", "refs", "resamples"):
        for spec in study_plots(demo_run(kind)[1], "bleu"):
            banded = all(line.low is not None for line in spec.lines)
            assert ("band" in spec.title) == banded, spec.title


def test_plain_numbers():
    assert [plain_number(v) for v in (0.5, 20, 150, 1000, 2500, 10_000, 100_000, 2e6)] == [
        "0.5",
        "20",
        "150",
        "1k",
        "2.5k",
        "10k",
        "100k",
        "2M",
    ]


@pytest.mark.parametrize("length", [120, 250, 400, 800])
@pytest.mark.parametrize("span", [(16, 95), (100, 100_000), (5, 42)])
def test_log_ticks_are_distinct_plain_numbers_that_fit(qapp, length, span):
    metrics = QFontMetricsF(QFont())
    low, high = (math.log10(v) for v in span)
    ticks = fitting_log_ticks(low, high, length, metrics.horizontalAdvance)
    texts = [plain_number(10**t) for t in ticks]
    assert len(texts) >= 2 and len(set(texts)) == len(texts)
    assert all(PLAIN.match(t) for t in texts), texts
    assert labels_fit(ticks, low, high, length, metrics.horizontalAdvance)
    wide = fitting_log_ticks(low, high, 4 * length, metrics.horizontalAdvance)
    assert len(wide) >= len(ticks)  # more room, at least as many ticks


def drawn_ticks(axis) -> list[tuple[object, str]]:
    """The tick labels an axis paints: (rectangle, text)."""
    image = QImage(10, 10, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        _, _, texts = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    return [(rect, text) for rect, _, text in texts]


@pytest.mark.parametrize("width", [700, 1200])
def test_log_axes_paint_plain_labels_apart(view, qtbot, width):
    view.resize(width, 700)
    view.show_result(demo_run("size")[1])
    plot, _ = view.canvas.items[1]  # the relative CI width: log x and log y
    qtbot.wait(50)
    for name in ("bottom", "left"):
        axis = plot.getAxis(name)
        assert axis.logMode
        ticks = drawn_ticks(axis)
        texts = [text for _, text in ticks]
        assert len(texts) >= 2 and len(set(texts)) == len(texts), texts
        assert all(PLAIN.match(text) for text in texts), texts
        rects = [rect for rect, _ in ticks]
        for i, first in enumerate(rects):
            assert not any(first.intersects(other) for other in rects[i + 1 :]), texts


def test_the_legend_is_under_the_plots_and_off_their_data(view, qtbot):
    view.show_result(demo_run("size")[1])
    qtbot.wait(50)
    legend = view.canvas.legend.legend
    assert [label.text for _, label in legend.items] == ["Lumen", "Ostrich", "Quill", "Tessera"]
    box = legend.sceneBoundingRect()
    assert box.width() > 0 and box.height() > 0
    for plot, _ in view.canvas.items:
        assert not box.intersects(plot.getViewBox().sceneBoundingRect())
        assert box.top() >= plot.sceneBoundingRect().bottom() - 1
        assert plot.legend is None  # no legend inside a plot


def test_progress_goes_up_from_a_busy_start_and_the_end_is_announced(view, qtbot):
    snapshots, study = demo_run("size")
    view.set_running(True)
    assert (view.progress.minimum(), view.progress.maximum()) == (0, 0)  # busy
    assert view.status.isVisible() and "Starting" in view.status.text()
    values = []
    for snapshot in snapshots:
        view.show_progress(snapshot)
        values.append(view.progress.value())
    moving = [v for v in values if v >= 0]
    assert moving == sorted(moving) and moving[-1] == view.progress.maximum()
    assert len(set(moving)) > 10
    assert "Running the test-set size study" in view.status.text()
    with qtbot.waitSignal(view.status_changed) as said:
        view.set_running(False)
        view.show_result(study)
    assert view.status.text().startswith("Finished in ") and "4 systems" in view.status.text()
    assert said.args == [view.status.text()]
    assert view.progress.value() == view.progress.maximum()


def test_the_agreement_studys_progress_goes_up_across_its_phases():
    partial = HumanStudy(BootstrapSettings(), "", ("a", "b", "c"), (), None, (), (), ())
    steps = [("bootstrap", d, 100) for d in (0, 50, 100)] + [
        ("correlating", d, 40) for d in (0, 20, 40)
    ]
    steps += [("judging", d, 3) for d in (0, 1, 3)]
    fractions = [progress_fraction(StudyProgress(d, t, p, partial)) for p, d, t in steps]
    assert fractions == sorted(fractions) and fractions[0] == 0 and fractions[-1] == 1


@pytest.mark.parametrize("kind", ["size", "refs", "resamples"])
def test_tables_and_choosers_show_names_not_identifiers(view, kind):
    view.show_result(demo_run(kind)[1])
    metrics = [view.metric_choice.itemText(i) for i in range(view.metric_choice.count())]
    assert metrics == ["BLEU", "NIST", "M-BLEU"]
    tables = [view.table_choice.itemText(i) for i in range(view.table_choice.count())]
    assert not any(name.endswith(".csv") or "-" in name.split()[0] for name in tables), tables
    model = view.table_model
    for index in range(view.table_choice.count()):
        view.table_choice.setCurrentIndex(index)
        headers = [
            model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())
        ]
        assert not RAW & set(headers) and not any("_" in h for h in headers), headers
        cells = {
            model.index(r, c).data()
            for r in range(model.rowCount())
            for c in range(model.columnCount())
        }
        assert not RAW & cells and "" not in cells
    for plot, _ in view.canvas.items:
        assert "bleu" not in plot.titleLabel.text
        assert plot.getAxis("left").labelText != "bleu"


def test_booleans_and_kinds_read_as_words():
    header, rows, tips = display_table(
        ["metric", "higher_is_better", "kind", "smallest_fraction", "p_value"],
        [["mbleu", True, "human_only", "", ""], ["ter", False, "opposite", 0.25, 0.01]],
    )
    assert header == ["Metric", "Better when", "Disagreement", "Smallest share", "p"]
    assert rows[0][:4] == ["M-BLEU", "higher", "humans only", "never"]
    assert math.isnan(rows[0][4])
    assert rows[1][:3] == ["TER", "lower", "opposite"]
    assert set(tips) == set(header) and all(tip.endswith(".") for tip in tips.values())
    assert cell_value("significant", True) == "yes"
    grid_header, _, _ = display_table(["", "metric", "Quill"], [["metric", ">", "~"]])
    assert grid_header == ["System", "metric", "Quill"]  # a system may be called anything


def test_a_settings_value_reads_as_the_settings_panel_says_it():
    settings = [["bootstrap.family", "metric"], ["bootstrap.family", "all"], ["study", "all"]]
    _, rows, _ = display_table(["setting", "value"], settings)
    assert [value for _, value in rows] == ["each metric", "all metrics together", "all"]


def test_counts_read_as_whole_numbers():
    assert cell_value("segments", 100.0) == 100 and isinstance(cell_value("segments", 100.0), int)
    assert cell_value("segments", 97.6) == 98
    assert cell_value("score", 0.5) == 0.5
    header, rows, _ = display_table(("system", "segments"), [["A", 100.0]])
    from mtgui.views.common.rows_table_model import cell_text

    assert header == ["System", "Segments"] and cell_text(rows[0][1]) == "100"


def test_with_many_systems_one_band_is_drawn_and_the_chooser_picks_whose(view):
    from dataclasses import replace

    from mtgui.views.studies.study_canvas import FAINT_ALPHA

    _, study = demo_run("size")
    names = [f"S{n}" for n in range(10)]
    rows = [replace(row, system=names[n]) for n in range(10) for row in study.rows]
    many = replace(study, systems=tuple(names), rows=tuple(rows))  # its plots, not its tables
    view.show_result(study)
    view.study = many
    view._fill_band_choice(many)
    view._redraw()
    assert view.band_choice.isVisible() and view.band_choice.currentData() == "S0"
    plot, _ = view.canvas.items[0]
    fills = [item for item in plot.items if isinstance(item, pg.FillBetweenItem)]
    drawn = [not fill.path().isEmpty() for fill in fills]
    assert drawn == [True] + [False] * 9
    view.band_choice.setCurrentIndex(view.band_choice.findData("S3"))
    assert [not fill.path().isEmpty() for fill in fills] == [n == 3 for n in range(10)]
    view.band_choice.setCurrentIndex(view.band_choice.findData(""))  # every system: faint
    assert all(not fill.path().isEmpty() for fill in fills)
    assert {fill.brush().color().alpha() for fill in fills} == {FAINT_ALPHA}


def test_a_scatter_of_many_systems_gives_each_its_own_colour_and_shape(view):
    from mtgui.views.common.palette import SERIES_COLORS, series_color, series_symbol

    looks = {(series_color(n), series_symbol(n)) for n in range(30)}
    assert len(looks) == 30
    assert len({series_color(n) for n in range(10)}) == 10 == len(SERIES_COLORS)


@pytest.mark.parametrize("method", list(IntervalMethod)[1:])
def test_the_bounds_tooltips_say_the_interval_method_used(method):
    _, _, tips = display_table(["ci_low", "ci_high"], [[0.1, 0.2]], method.label)
    assert all(METHOD_WORDS[method.label] in tip for tip in tips.values())
    assert method is IntervalMethod.PERCENTILE or "percentile)" not in tips["CI low"]
    bootstrap = SimpleNamespace(settings=SimpleNamespace(interval=method))
    human = HumanStudy(BootstrapSettings(), "", ("a", "b"), (), bootstrap, (), (), ())  # type: ignore[arg-type]
    assert interval_method(human) == method.label
    assert interval_method(None) == "percentile"
