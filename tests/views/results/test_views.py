"""The result views on the demo data: models, colours, tooltips, histograms, screenshots."""

from __future__ import annotations

from xml.etree import ElementTree

import numpy as np
import pytest
from gui_helpers import shoot
from PySide6.QtCore import QEventLoop, QSortFilterProxyModel, Qt, QTimer
from PySide6.QtWidgets import QPushButton, QTableView

from mtgui.engine.core.errors import InputError
from mtgui.engine.core.running import run_to_end
from mtgui.engine.resampling.bootstrap import iter_bootstrap
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.engine.statistics.rows import compute_statistics
from mtgui.io.demo import load_demo
from mtgui.views.common.rows_table_model import SORT_ROLE
from mtgui.views.results.histogram_view import OVERLAID, SMALL_MULTIPLES, HistogramView
from mtgui.views.results.score_table_model import ScoreTableModel
from mtgui.views.results.significance_grid_model import COLORS, SignificanceGridModel


@pytest.fixture(scope="module")
def result():
    statistics = compute_statistics(load_demo(), ["bleu", "ter"])
    return run_to_end(iter_bootstrap(statistics, BootstrapSettings(resamples=1000)))


def test_score_table_is_best_first_with_bold_best_and_numeric_sorting(qtbot, result):
    model = ScoreTableModel()
    model.set_result(result, "bleu")
    assert model.rowCount() == 4 and model.columnCount() == 10
    assert model.index(0, 0).data() == "Lumen"
    assert [model.index(r, 1).data() for r in range(4)] == ["1-2", "1-2", "3", "4"]  # ranks
    assert model.index(0, 2).data() == f"{result.interval('Lumen', 'bleu').score:.4f}"
    assert model.index(0, 6).data().startswith("-") and model.index(0, 6).data().endswith("%")
    assert model.index(0, 0).data(Qt.ItemDataRole.FontRole).bold()
    assert model.index(1, 0).data(Qt.ItemDataRole.FontRole) is None
    proxy = QSortFilterProxyModel()
    proxy.setSourceModel(model)
    proxy.setSortRole(SORT_ROLE)
    proxy.sort(2, Qt.SortOrder.AscendingOrder)  # by score
    assert [proxy.index(r, 0).data() for r in range(4)] == ["Ostrich", "Tessera", "Quill", "Lumen"]
    proxy.sort(1, Qt.SortOrder.DescendingOrder)  # by rank, worst first
    assert [proxy.index(r, 0).data() for r in range(4)][:2] == ["Ostrich", "Tessera"]
    view = QTableView()
    qtbot.addWidget(view)
    view.setModel(model)
    view.resize(820, 200)
    view.resizeColumnsToContents()
    shoot(view, "score-table-demo")


def test_ter_table_puts_the_lowest_first(result):
    model = ScoreTableModel()
    model.set_result(result, "ter")
    assert model.index(0, 0).data() == "Lumen"  # the lowest TER is the best


def test_grid_symbols_colours_and_tooltips(qtbot, result):
    model = SignificanceGridModel()
    model.set_result(result, "bleu")
    assert model.systems == ["Lumen", "Quill", "Tessera", "Ostrich"]
    assert model.index(0, 1).data() == "~" and model.index(0, 2).data() == ">"
    assert model.index(2, 0).data() == "<" and model.index(1, 1).data() == "·"
    brush = model.index(0, 2).data(Qt.ItemDataRole.BackgroundRole)
    assert brush.color() == COLORS[">"]
    for row, column in ((0, 1), (0, 2), (2, 0)):  # dark symbols on the light cells, any palette
        ink = model.index(row, column).data(Qt.ItemDataRole.ForegroundRole).color()
        assert ink.lightness() < 60 < COLORS[model.index(row, column).data()].lightness()
    tip = model.index(0, 2).data(Qt.ItemDataRole.ToolTipRole)
    assert tip.startswith("Lumen is significantly better than Tessera.")
    assert "Decided at 95% confidence, each pair tested on its own (no correction)." in tip
    assert "95% interval of the difference" in tip and "wins in" in tip and "p-value" in tip
    view = QTableView()
    qtbot.addWidget(view)
    view.setModel(model)
    view.resize(520, 200)
    shoot(view, "significance-grid-demo")


def test_histograms_fill_as_chunks_arrive_then_mark_the_interval(qtbot, result):
    view = HistogramView()
    qtbot.addWidget(view)
    view.resize(800, 500)
    view.start_run(["Lumen", "Quill", "Tessera", "Ostrich"], "bleu", "BLEU")
    first = {(i.system, i.metric): i.samples[:100] for i in result.intervals}
    view.update_scores(first)
    assert view.counts("Lumen").sum() == 100
    edges = view.plots["Lumen"].viewRange()[0]
    view.finish_run(result)
    assert view.counts("Lumen").sum() == 1000
    assert view.plots["Lumen"].viewRange()[0] == edges  # the axis did not jump
    lines = [item for item in view.plots["Lumen"].items if hasattr(item, "value")]
    values = sorted(line.value() for line in lines)
    interval = result.interval("Lumen", "bleu")
    assert values == pytest.approx(
        sorted([interval.score, interval.median, interval.ci_low, interval.ci_high])
    )
    view.show()
    qtbot.waitExposed(view)
    shoot(view, "histograms-demo")
    assert np.all(view.counts("Ostrich") >= 0)


def test_with_many_systems_a_snapshot_redraws_a_few_plots_in_turn(qtbot):
    view = HistogramView()
    qtbot.addWidget(view)
    systems = [f"S{k}" for k in range(6)]
    view.start_run(systems, "bleu", "BLEU")
    qtbot.waitUntil(lambda: len(view.plots) == 6)  # made one per turn of the event loop
    scores = {(s, "bleu"): np.linspace(0.2, 0.3, 50) for s in systems}
    view.update_scores(scores)
    drawn = [s for s in systems if view.counts(s).sum() == 50]
    assert drawn == systems[:4]
    view.update_scores(scores)
    assert all(view.counts(s).sum() == 50 for s in systems)


def test_overlaid_distributions_share_one_plot_as_densities(qtbot, result):
    view = HistogramView()
    qtbot.addWidget(view)
    view.resize(800, 500)
    systems = ["Lumen", "Quill", "Tessera", "Ostrich"]
    view.start_run(systems, "bleu", "BLEU")
    half = {(i.system, i.metric): i.samples[:500] for i in result.intervals}
    view.update_scores(half, every_plot=True)
    view.layout_choice.setCurrentText(OVERLAID)  # mid-run: the same scores, one plot
    assert len(set(map(id, view.plots.values()))) == 1
    assert view.counts("Tessera").sum() == 500
    view.finish_run(result)
    plot = view.plots["Lumen"]
    for system in systems:
        edges, heights = view._curves[system].getData()
        assert np.sum(heights * np.diff(edges)) == pytest.approx(1.0)  # a density
        assert view.counts(system).sum() == 1000
    scores = sorted(item.value() for item in plot.items if hasattr(item, "value"))
    assert scores == pytest.approx(sorted(result.interval(s, "bleu").score for s in systems))
    assert [label.text for _, label in plot.legend.items] == systems
    view.show()
    qtbot.waitExposed(view)
    shoot(view, "histograms-overlaid-demo")
    view.layout_choice.setCurrentText(SMALL_MULTIPLES)  # and back: the interval marks again
    assert len(set(map(id, view.plots.values()))) == 4
    assert len([i for i in view.plots["Quill"].items if hasattr(i, "value")]) == 4


def finished_and_shown(qtbot, result) -> HistogramView:
    """The demo's four histograms, their run finished, on screen."""
    view = HistogramView()
    qtbot.addWidget(view)
    view.resize(800, 500)
    view.start_run(["Lumen", "Quill", "Tessera", "Ostrich"], "bleu", "BLEU")
    view.finish_run(result)
    view.show()
    qtbot.waitExposed(view)
    return view


def test_plots_export_as_png_and_svg_atomically_and_never_over_a_file(qtbot, result, tmp_path):
    view = finished_and_shown(qtbot, result)
    view.export_image(tmp_path / "histograms.svg")
    svg = ElementTree.parse(tmp_path / "histograms.svg").getroot()
    assert svg.tag == "{http://www.w3.org/2000/svg}svg"
    texts = "".join(svg.itertext())
    assert all(name in texts for name in ("Lumen", "Quill", "Tessera", "Ostrich", "BLEU"))
    view.export_image(tmp_path / "histograms.png")
    assert (tmp_path / "histograms.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(InputError, match="already exists"):
        view.export_image(tmp_path / "histograms.png")
    with pytest.raises(InputError, match=r"\.png or \.svg"):
        view.export_image(tmp_path / "histograms.jpg")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["histograms.png", "histograms.svg"]


def test_the_histograms_export_from_their_button_and_right_click_menu(qtbot, result, tmp_path):
    view = HistogramView()
    qtbot.addWidget(view)
    view.start_run(["Lumen", "Quill", "Tessera", "Ostrich"], "bleu", "BLEU")
    view.finish_run(result)
    view.exporter.ask_path = lambda: tmp_path / "from-menu.svg"
    (action,) = view._layout_widget.scene().contextMenu  # pyqtgraph's own Export... is gone
    assert action.text() == "Export plot (PNG or SVG)..."
    action.trigger()
    svg = ElementTree.parse(tmp_path / "from-menu.svg").getroot()
    assert "Tessera" in "".join(svg.itertext())
    view.exporter.ask_path = lambda: tmp_path / "from-button.png"
    button = next(b for b in view.findChildren(QPushButton) if b.text() == "Export plot...")
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert (tmp_path / "from-button.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_histograms_right_click_menu_is_made_when_first_asked_for(qtbot, result):
    view = finished_and_shown(qtbot, result)
    box = view.plots["Quill"].getViewBox()
    assert box.menu is None and box.menuEnabled()  # offered, not made with the plot
    graphics = view._layout_widget
    where = graphics.mapFromScene(box.sceneBoundingRect().center())
    qtbot.mouseClick(graphics.viewport(), Qt.MouseButton.RightButton, pos=where)
    qtbot.waitUntil(lambda: box.menu is not None and box.menu.isVisible())
    texts = [action.text() for action in box.menu.actions()]
    box.menu.close()
    assert "View All" in texts and "Export plot (PNG or SVG)..." in texts
    assert view.plots["Lumen"].getViewBox().menu is None  # only the one clicked


def test_every_column_of_the_score_table_and_the_grid_has_a_tooltip(result):
    scores = ScoreTableModel()
    scores.set_result(result, "bleu")
    horizontal, vertical = Qt.Orientation.Horizontal, Qt.Orientation.Vertical
    tip = Qt.ItemDataRole.ToolTipRole
    tips = [scores.headerData(c, horizontal, tip) for c in range(scores.columnCount())]
    assert all(t and t.endswith(".") for t in tips), tips
    assert "rank range at 95%" in tips[1]
    assert "95% bootstrap percentile confidence interval (Zhang & Vogel 2004" in tips[4]
    assert "Zhang, Vogel & Waibel 2004" in tips[-1]  # RSD
    grid = SignificanceGridModel()
    grid.set_result(result, "bleu")
    for section, system in enumerate(grid.systems):
        row, column = (
            grid.headerData(section, vertical, tip),
            grid.headerData(section, horizontal, tip),
        )
        assert row.startswith(f"Row {system}: each cell of this row says whether {system}")
        assert column.startswith(f"Column {system}: the system each row") and "Koehn 2004" in column


def test_many_plots_are_made_apart_placed_at_once_and_shown_a_few_at_a_time(qtbot):
    view = HistogramView()
    qtbot.addWidget(view)
    systems = [f"system {i}" for i in range(12)]
    view.start_run(systems, "bleu", "BLEU")
    grid = view._layout_widget.ci
    while len(view.plots) < 12:  # one per step, none in the grid: it would lay out each time
        assert len(view.plots) >= 1 and not grid.items
        view._next_step()
    assert set(grid.items) == set(view.plots.values())  # all in at once, laid out once
    assert [p.opacity() for p in view.plots.values()] == [0.0] * 12  # not painted yet
    view._next_step()
    assert [p.opacity() for p in view.plots.values()] == [1.0] * 2 + [0.0] * 10
    qtbot.waitUntil(lambda: all(p.opacity() == 1.0 for p in view.plots.values()))
    assert view._layout_widget.updatesEnabled()


def test_the_event_loop_runs_between_the_steps_of_making_the_plots(qtbot):
    view = HistogramView()
    qtbot.addWidget(view)
    view.resize(800, 500)
    view.show()
    qtbot.waitExposed(view)
    made_at_ticks: list[int] = []
    loop = QEventLoop()  # the application's own loop, not qtbot's waiting

    def tick() -> None:
        made_at_ticks.append(len(view.plots))
        if len(view._layout_widget.ci.items) == 12 and all(
            p.opacity() == 1.0 for p in view.plots.values()
        ):
            loop.quit()

    ticker = QTimer(interval=1)
    ticker.timeout.connect(tick)
    ticker.start()
    QTimer.singleShot(10_000, loop.quit)
    systems = [f"system {i}" for i in range(12)]
    QTimer.singleShot(0, lambda: view.start_run(systems, "bleu", "BLEU"))  # as a signal would
    loop.exec()
    ticker.stop()
    assert made_at_ticks[-1] == 12
    # Every step is a turn of its own: a chain of zero-delay calls ran two or more at a time.
    assert set(range(1, 13)) <= set(made_at_ticks), made_at_ticks


def test_whatever_the_user_switches_while_plots_are_made_they_are_all_shown(qtbot):
    view = HistogramView()
    qtbot.addWidget(view)
    systems = [f"system {i}" for i in range(12)]
    view.start_run(systems, "bleu", "BLEU")
    qtbot.waitUntil(lambda: len(view.plots) == 12)
    view.layout_choice.setCurrentText(SMALL_MULTIPLES)
    view.start_run([*systems, "one more"], "bleu", "BLEU")
    view.layout_choice.setCurrentText(OVERLAID)  # before the small plots are all made
    assert view._layout_widget.updatesEnabled() and set(view.plots) == {*systems, "one more"}
