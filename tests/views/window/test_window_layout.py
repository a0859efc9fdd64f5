"""The window as a person arranges it: a files panel that widens, hidden systems that look so."""

from __future__ import annotations

import pytest
from gui_helpers import shoot, system_item, wait_for_result
from PySide6.QtGui import QPalette

from mtgui.views.window.launch import load_demo_into
from mtgui.views.window.main_window import MainWindow


@pytest.fixture
def window(qtbot):
    window = MainWindow()
    qtbot.addWidget(window)
    window.settings_panel.resamples.setValue(300)
    window.resize(1400, 800)
    window.show()
    qtbot.waitExposed(window)
    yield window
    window.close()


@pytest.mark.parametrize("loaded", [False, True])
def test_the_files_panel_can_be_widened_to_show_every_column(qtbot, window, loaded):
    if loaded:
        load_demo_into(window)
        wait_for_result(qtbot, window)
        window.results.tabs.setCurrentWidget(window.results.segments)  # the widest view
    splitter = window.centralWidget()
    splitter.setSizes([900, 500])
    qtbot.wait(10)
    assert splitter.sizes()[0] >= 880


def test_a_hidden_system_looks_hidden(qtbot, window):
    load_demo_into(window)
    wait_for_result(qtbot, window)
    panel = window.files_panel
    menu = panel.menu_for(system_item(panel, "Quill"))
    next(a for a in menu.actions() if a.text() == "Hide from the analysis").trigger()
    qtbot.waitUntil(lambda: system_item(panel, "Quill").text(1) == "hidden")
    hidden, shown = system_item(panel, "Quill"), system_item(panel, "Lumen")
    grey = panel.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
    assert hidden.foreground(0).color() == grey
    assert hidden.font(0).italic() and not shown.font(0).italic()
    assert not hidden.icon(0).isNull() and shown.icon(0).isNull()
    assert "Hidden" in hidden.toolTip(0)
    shoot(window, "files-panel-hidden-system")


# A 1600 x 1000 screen at 150% scaling, in logical pixels, less a title bar and a task bar.
SCALED_SCREEN = (1600 * 2 // 3, 1000 * 2 // 3 - 80)


@pytest.mark.parametrize("loaded", [False, True])
def test_the_window_fits_a_1600_by_1000_screen_at_150_percent(qtbot, window, loaded):
    if loaded:
        load_demo_into(window)
        wait_for_result(qtbot, window)
    for index in range(window.results.tabs.count()):
        window.results.tabs.setCurrentIndex(index)
        qtbot.wait(10)
        hint = window.minimumSizeHint()
        name = window.results.tabs.tabText(index)
        assert hint.width() <= SCALED_SCREEN[0], (name, hint)
        assert hint.height() <= SCALED_SCREEN[1], (name, hint)
    window.resize(*SCALED_SCREEN)
    qtbot.wait(20)
    assert (window.width(), window.height()) == SCALED_SCREEN
    shoot(window, f"window-150-percent-{'demo' if loaded else 'empty'}")
