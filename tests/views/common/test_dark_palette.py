"""A dark desktop palette: plots turn dark with light axes and text, every series colour stays
visible, the grid's symbols and the Segments view's shading stay readable, and turning the
palette light again turns them all back. Contrast ratios are WCAG 2's (``contrast_ratio``)."""

from __future__ import annotations

import re

import pyqtgraph as pg
import pytest
from gui_helpers import shoot, wait_for_result
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QStyleFactory

from mtgui.engine.inference.significance import BETTER, EQUIVALENT, TIE, WORSE
from mtgui.views.common.palette import contrast_ratio, is_dark, series_color
from mtgui.views.export.plot_theme import theme_of
from mtgui.views.results.histogram_view import OVERLAID, SMALL_MULTIPLES
from mtgui.views.results.segments_html import DARK_SHADES, SHADES, PageColors
from mtgui.views.results.significance_grid_model import verdict_colors

DARK_WINDOW, DARK_TEXT = QColor("#202020"), QColor("#e0e0e0")
_SPAN = re.compile(r"background-color:(#[0-9a-fA-F]{6}); color:(#[0-9a-fA-F]{6})")


def dark_palette() -> QPalette:
    """A dark Fusion palette: #202020 behind everything, #e0e0e0 text."""
    palette = QStyleFactory.create("Fusion").standardPalette()
    for role in (QPalette.ColorRole.Window, QPalette.ColorRole.Base, QPalette.ColorRole.Button):
        palette.setColor(role, DARK_WINDOW)
    palette.setColor(QPalette.ColorRole.AlternateBase, QColor("#2a2a2a"))
    for role in (
        QPalette.ColorRole.WindowText,
        QPalette.ColorRole.Text,
        QPalette.ColorRole.ButtonText,
    ):
        palette.setColor(role, DARK_TEXT)
    return palette


@pytest.fixture
def app_palette(qapp):
    """The application's palette, restored after the test whatever it set."""
    before = QPalette(qapp.palette())
    yield qapp
    qapp.setPalette(before)
    QApplication.processEvents()


def set_palette(qapp, palette: QPalette) -> None:
    qapp.setPalette(palette)
    QApplication.processEvents()


def background(widget: pg.GraphicsView) -> QColor:
    return widget.backgroundBrush().color()


def axis_colors(plot: pg.PlotItem) -> list[QColor]:
    return [plot.getAxis(name).textPen().color() for name in ("bottom", "left")]


def title_color(plot: pg.PlotItem) -> QColor:
    """The colour a plot's title is written in (pyqtgraph writes it into the title's HTML)."""
    found = re.search(r"color: ?(#[0-9a-fA-F]{6})", plot.titleLabel.item.toHtml())
    assert found, plot.titleLabel.item.toHtml()
    return QColor(found.group(1))


def curve_colors(plot: pg.PlotItem) -> list[QColor]:
    items = [i for i in plot.items if isinstance(i, pg.PlotDataItem | pg.InfiniteLine)]
    return [
        pg.mkPen(i.opts["pen"]).color() if isinstance(i, pg.PlotDataItem) else i.pen.color()
        for i in items
    ]


def test_is_dark_and_the_themes_of_both_palettes(app_palette):
    light = QStyleFactory.create("Fusion").standardPalette()
    assert not is_dark(light) and is_dark(dark_palette())
    for palette in (light, dark_palette()):
        theme = theme_of(palette)
        assert contrast_ratio(theme.text, theme.background) >= 4.5
        assert contrast_ratio(theme.ink, theme.background) >= 4.5
        assert contrast_ratio(theme.axis, theme.background) >= 3
        for number in range(7):
            ratio = contrast_ratio(theme.series(number), theme.background)
            assert ratio >= (4.5 if theme.dark else 2.2), (number, ratio)  # see palette.py
    assert series_color(6) == (0, 0, 0) and series_color(6, dark=True) == (224, 224, 224)


def test_plots_follow_a_dark_palette_and_back(qtbot, app_palette, window):
    set_palette(app_palette, dark_palette())
    window.load_demo()
    wait_for_result(qtbot, window)
    results = window.results
    histograms, paired = results.histograms, results.paired
    views = (histograms._layout_widget, paired.plot_widget)
    assert all(background(v) == DARK_WINDOW for v in views)
    plots = [*histograms.plots.values(), paired.plot]
    for plot in plots:
        for color in axis_colors(plot):
            assert color.lightnessF() > 0.7 and contrast_ratio(color, DARK_WINDOW) >= 4.5
    for plot in [*histograms.plots.values(), paired.plot]:
        assert contrast_ratio(title_color(plot), DARK_WINDOW) >= 4.5
    for color in curve_colors(paired.plot) + curve_colors(next(iter(histograms.plots.values()))):
        assert contrast_ratio(color, DARK_WINDOW) >= 3, color.name()
    results.tabs.setCurrentWidget(paired)
    shoot(window, "dark-paired")

    histograms.layout_choice.setCurrentText(OVERLAID)  # every system in its colour
    overlay = next(iter(histograms.plots.values()))
    assert histograms.overlaid
    colors = [pg.mkPen(c.opts["pen"]).color() for c in histograms._curves.values()]
    assert len(colors) == 4 and all(contrast_ratio(c, DARK_WINDOW) >= 3 for c in colors)
    labels = [label.opts["color"] for _sample, label in overlay.legend.items]
    assert labels and all(contrast_ratio(pg.mkColor(c), DARK_WINDOW) >= 4.5 for c in labels)
    results.tabs.setCurrentWidget(histograms)
    shoot(window, "dark-distributions-overlaid")

    set_palette(app_palette, QStyleFactory.create("Fusion").standardPalette())
    light_base = app_palette.palette().color(QPalette.ColorRole.Base)
    assert all(background(v) == light_base for v in views)
    for plot in [*histograms.plots.values(), paired.plot]:
        for color in axis_colors(plot):
            assert color.lightnessF() < 0.3
    assert histograms._curves and all(
        pg.mkPen(c.opts["pen"]).color() == QColor(*series_color(n))
        for n, c in enumerate(histograms._curves.values())
    )
    histograms.layout_choice.setCurrentText(SMALL_MULTIPLES)


def test_the_grid_and_its_legend_read_in_both_palettes(qtbot, app_palette, window):
    window.load_demo()
    wait_for_result(qtbot, window)
    results = window.results
    results.tabs.setCurrentWidget(results.grid_page)
    model, legend = results.grid_model, results.grid_legend
    for palette, dark in (
        (dark_palette(), True),
        (QStyleFactory.create("Fusion").standardPalette(), False),
    ):
        set_palette(app_palette, palette)
        verdicts = set()
        for row in range(model.rowCount()):
            for column in range(model.columnCount()):
                index = model.index(row, column)
                if model.pair(row, column) is None:
                    continue
                verdicts.add(index.data())
                back = index.data(Qt.ItemDataRole.BackgroundRole).color()
                ink = index.data(Qt.ItemDataRole.ForegroundRole).color()
                assert contrast_ratio(ink, back) >= 4.5
        assert verdicts == {BETTER, WORSE, TIE}
        verdicts_shown = (BETTER, WORSE, TIE, EQUIVALENT)  # "=" only with a margin, but coloured
        for swatch, verdict in zip(legend.swatches, verdicts_shown, strict=True):
            back, ink = verdict_colors(verdict, dark)
            assert f"background: {back.name()}; color: {ink.name()}" in swatch.styleSheet()
            assert contrast_ratio(ink, back) >= 4.5
        tie = model.index(0, 1)  # Lumen ~ Quill
        assert tie.data() == TIE
        assert tie.data(Qt.ItemDataRole.BackgroundRole).color().lightnessF() == pytest.approx(
            0.31 if dark else 0.91, abs=0.02
        )
        if dark:
            shoot(window, "dark-significance")


def test_segment_shading_reads_in_both_palettes(qtbot, app_palette, window):
    for shades in (SHADES, DARK_SHADES):
        for back, ink in shades.values():
            assert contrast_ratio(back, ink) >= 4.5, (back, ink)
    # A longer match stands out more from the page in either palette.
    for shades, page in ((SHADES, "#ffffff"), (DARK_SHADES, DARK_WINDOW.name())):
        ratios = [contrast_ratio(shades[n][0], page) for n in range(1, 5)]
        assert ratios == sorted(ratios)
    set_palette(app_palette, dark_palette())
    window.load_demo()
    wait_for_result(qtbot, window)
    segments = window.results.segments
    window.show_segments("Lumen", "Ostrich")
    segments.select_segment(2)
    html = segments.details_html()
    spans = _SPAN.findall(html)
    assert spans and {back for back, _ in spans} <= {b for b, _ in DARK_SHADES.values()} | {
        b for b, _ in _header_colors(html)
    }
    for back, ink in spans:
        assert contrast_ratio(back, ink) >= 4.5, (back, ink)
    assert "#555555" not in html  # the counts are greyed towards the dark page instead
    shoot(window, "dark-segments")

    set_palette(app_palette, QStyleFactory.create("Fusion").standardPalette())
    html = segments.details_html()
    spans = _SPAN.findall(html)
    assert {b for b, _ in DARK_SHADES.values()}.isdisjoint(b for b, _ in spans)
    assert any(back == SHADES[4][0] for back, _ in spans)
    for back, ink in spans:
        assert contrast_ratio(back, ink) >= 4.5, (back, ink)


def _header_colors(html: str) -> list[tuple[str, str]]:
    return re.findall(r'<td style="background-color:(#[0-9a-f]{6}); color:(#[0-9a-f]{6})">', html)


def test_the_page_colours_of_a_light_page_are_those_of_before(app_palette):
    assert PageColors().shades is SHADES and not PageColors().dark
    assert PageColors().muted(1 / 3) == "#555555"


def test_study_plots_follow_a_dark_palette_and_back(qtbot, app_palette, window):
    set_palette(app_palette, dark_palette())
    window.load_demo()
    wait_for_result(qtbot, window)
    studies = window.results.studies
    window.results.tabs.setCurrentWidget(studies)
    with qtbot.waitSignal(window.controller.studies.finished, timeout=60_000):
        window.controller.studies.start("refs", 0)
    qtbot.waitUntil(lambda: bool(studies.canvas.items))
    assert background(studies.plots) == DARK_WINDOW
    for plot, _lines in studies.canvas.items:
        for color in axis_colors(plot):
            assert contrast_ratio(color, DARK_WINDOW) >= 4.5
        assert contrast_ratio(title_color(plot), DARK_WINDOW) >= 4.5
        for color in curve_colors(plot):
            assert contrast_ratio(color, DARK_WINDOW) >= 3, color.name()
    legend = studies.canvas.legend.legend
    labels = [label.opts["color"] for _sample, label in legend.items]
    assert labels and all(contrast_ratio(pg.mkColor(c), DARK_WINDOW) >= 4.5 for c in labels)
    shoot(window, "dark-studies")

    set_palette(app_palette, QStyleFactory.create("Fusion").standardPalette())
    qtbot.waitUntil(lambda: background(studies.plots).lightnessF() > 0.9)
    plot, _lines = studies.canvas.items[0]
    assert all(color.lightnessF() < 0.5 for color in axis_colors(plot))


def test_the_breakdown_plot_follows_a_dark_palette(qtbot, app_palette, window):
    set_palette(app_palette, dark_palette())
    window.load_demo()
    wait_for_result(qtbot, window)
    view = window.results.breakdown
    window.results.tabs.setCurrentWidget(view)
    qtbot.waitUntil(
        lambda: view.breakdown is not None and not view.controller.running, timeout=60_000
    )
    assert background(view.plot_widget) == DARK_WINDOW
    for color in axis_colors(view.plot):
        assert contrast_ratio(color, DARK_WINDOW) >= 4.5
    dots = [i for i in view.plot.items if isinstance(i, pg.ScatterPlotItem)]
    assert len(dots) == 4
    for item in dots:
        color = item.opts["brush"].color()
        assert contrast_ratio(color, DARK_WINDOW) >= 3, color.name()
    shoot(window, "dark-breakdown")


def test_problem_text_reads_in_both_palettes(qtbot, app_palette):
    from mtgui.views.common.palette import problem_color
    from mtgui.views.window.main_window import MainWindow

    light = QStyleFactory.create("Fusion").standardPalette()
    for palette, background_color in ((light, QColor("#ffffff")), (dark_palette(), DARK_WINDOW)):
        set_palette(app_palette, palette)
        assert contrast_ratio(problem_color(palette), background_color) >= 4.5
        window = MainWindow()
        qtbot.addWidget(window)
        style = window.results.problem.styleSheet()
        assert problem_color(palette).name() in style
        window.close()
