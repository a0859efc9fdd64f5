"""The result views explain themselves: the grid's legend, the settings under the tables, and
keys to move between the tabs."""

from __future__ import annotations

import pytest
from gui_helpers import shoot, wait_for_result
from PySide6.QtCore import Qt

from mtgui.engine.inference.significance import BETTER, EQUIVALENT, TIE, WORSE
from mtgui.views.results.significance_grid_model import COLORS
from mtgui.views.window.launch import load_demo_into
from mtgui.views.window.main_window import MainWindow


@pytest.fixture
def window(qtbot):
    window = MainWindow()
    qtbot.addWidget(window)
    window.settings_panel.resamples.setValue(300)
    window.resize(1300, 800)
    window.show()
    qtbot.waitExposed(window)
    yield window
    window.close()


def test_the_grid_has_a_legend_in_its_own_colours(qtbot, window):
    legend = window.results.grid_legend
    assert [s.text() for s in legend.swatches] == [BETTER, WORSE, TIE, EQUIVALENT]
    assert [s.isHidden() for s in legend.swatches] == [False, False, False, True]  # no margin
    for swatch, verdict in zip(legend.swatches, (BETTER, WORSE, TIE, EQUIVALENT), strict=True):
        assert COLORS[verdict].name() in swatch.styleSheet()
    load_demo_into(window)
    wait_for_result(qtbot, window)
    window.results.tabs.setCurrentWidget(window.results.grid_page)
    assert legend.isVisible()
    shoot(window, "significance-legend-settings-line")


def test_the_settings_that_made_the_result_are_said_under_the_tables(qtbot, window):
    # With four systems a fresh window suggests the max-T correction (issue 33).
    load_demo_into(window)
    wait_for_result(qtbot, window)
    assert window.results.made_with.text() == (
        "Made with BLEU, NIST, M-BLEU; tokenizer 13a, case-sensitive; 300 resamples of "
        "segments, seed 12345; 95% confidence, the max-T correction (Westfall-Young)."
    )


@pytest.mark.parametrize(
    ("key", "modifiers", "expected"),
    [
        (Qt.Key.Key_PageDown, Qt.KeyboardModifier.ControlModifier, 1),
        (Qt.Key.Key_PageUp, Qt.KeyboardModifier.ControlModifier, -1),  # wraps round to the last
        (Qt.Key.Key_Tab, Qt.KeyboardModifier.ControlModifier, 1),
    ],
)
def test_keys_move_between_the_tabs(qtbot, window, key, modifiers, expected):
    load_demo_into(window)
    wait_for_result(qtbot, window)
    window.results.tabs.setCurrentIndex(0)
    window.files_panel.setFocus()  # from anywhere in the window
    qtbot.keyClick(window.files_panel, key, modifiers)
    tabs = window.results.tabs
    assert tabs.currentIndex() == expected % tabs.count()


def test_exporting_a_plot_says_where_it_was_written(qtbot, window, tmp_path):
    load_demo_into(window)
    wait_for_result(qtbot, window)
    target = tmp_path / "distributions.png"
    exporter = window.results.histograms.exporter
    exporter.ask_path = lambda: target
    exporter.export()
    assert target.read_bytes().startswith(b"\x89PNG")
    assert window.statusBar().currentMessage() == f"Wrote {target}."


def test_an_exported_plot_carries_its_legend_and_the_settings(qtbot, window, tmp_path):
    from PySide6.QtGui import QImage

    from mtgui.views.results.histogram_view import MARKS_LEGEND

    load_demo_into(window)
    wait_for_result(qtbot, window)
    exporter = window.results.histograms.exporter
    caption = exporter.caption()
    assert caption[0] == MARKS_LEGEND and caption[1].startswith("mtgui ")
    assert "300 resamples" in caption[2] and caption[3].startswith("Signature: ")
    bare = tmp_path / "bare.png"
    exporter.caption = list
    exporter.export_to(bare)
    exporter.caption = lambda: caption
    exporter.export_to(tmp_path / "captioned.png")
    exporter.export_to(tmp_path / "captioned.svg")
    plain, captioned = QImage(str(bare)), QImage(str(tmp_path / "captioned.png"))
    assert captioned.width() == plain.width() and captioned.height() > plain.height() + 60
    below = [captioned.pixelColor(x, plain.height() + 30) for x in range(0, 800, 2)]
    assert len({c.name() for c in below}) > 1  # text is drawn under the plot
    svg = (tmp_path / "captioned.svg").read_text(encoding="utf-8")
    assert "dashed, the median" in svg and "Signature: " in svg
    assert window.results.paired.exporter.caption()[0].startswith("Bars: the difference")
