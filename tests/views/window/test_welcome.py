"""An empty window says what to do: drop files, open them, or try the demo."""

from __future__ import annotations

import pytest
from gui_helpers import shoot, wait_for_result
from PySide6.QtCore import Qt

from mtgui.views.window.main_window import MainWindow
from mtgui.views.window.welcome import HEADLINE


@pytest.fixture
def window(qtbot):
    window = MainWindow()
    qtbot.addWidget(window)
    window.settings_panel.resamples.setValue(300)
    window.resize(1100, 700)
    window.show()
    qtbot.waitExposed(window)
    yield window
    window.close()


def test_the_empty_window_shows_the_welcome_page(window):
    assert window.right.currentWidget() is window.welcome
    assert window.welcome.open_button.text() == "Open files..."
    assert window.welcome.demo_button.text() == "Try the demo"
    shoot(window, "welcome-empty-window")


def test_try_the_demo_loads_it_and_shows_the_results(qtbot, window):
    qtbot.mouseClick(window.welcome.demo_button, Qt.MouseButton.LeftButton)
    wait_for_result(qtbot, window)
    assert window.right.currentWidget() is window.results
    assert window.results.score_model.rowCount() == 4
    for entry in list(window.workspace.entries):
        window.controller.remove_file(entry.path)
    qtbot.waitUntil(lambda: window.right.currentWidget() is window.welcome)


def test_open_files_asks_for_files(qtbot, window, monkeypatch):
    asked = []
    monkeypatch.setattr(
        "mtgui.views.window.main_window.ask_files_to_open", lambda *args: asked.append(args) or []
    )
    qtbot.mouseClick(window.welcome.open_button, Qt.MouseButton.LeftButton)
    assert len(asked) == 1
    assert window.right.currentWidget() is window.welcome


def test_the_headline_says_what_mtgui_is_for(window):
    from PySide6.QtWidgets import QLabel

    assert HEADLINE in [label.text() for label in window.welcome.findChildren(QLabel)]


def test_settings_kept_from_last_time_are_said_and_file_new_clears_them(qtbot, tmp_path):
    from PySide6.QtCore import QSettings

    from mtgui.app.preferences import Preferences
    from mtgui.views.window.main_window import MainWindow

    ini = str(tmp_path / "mtgui.ini")
    first = MainWindow(preferences=Preferences(QSettings(ini, QSettings.Format.IniFormat)))
    qtbot.addWidget(first)
    assert not first.welcome.kept.isVisibleTo(first.welcome)  # defaults: nothing to say
    first.settings_panel.seed.setValue(7)
    first.settings_panel.resamples.setValue(500)
    first.close()

    again = MainWindow(preferences=Preferences(QSettings(ini, QSettings.Format.IniFormat)))
    qtbot.addWidget(again)
    again.show()
    qtbot.waitExposed(again)
    kept = again.welcome.kept
    assert kept.isVisible()
    assert kept.text() == (
        "Settings that are not the defaults (kept from last time, or changed since): seed 7; "
        "500 resamples. File > New (Ctrl+N) puts them back to the defaults."
    )
    again.new_project()
    assert not kept.isVisible() and kept.text() == ""
    again.close()
