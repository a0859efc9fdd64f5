"""File > New starts afresh (asking first) with the default settings; File > Close closes."""

from __future__ import annotations

import pytest
from gui_helpers import wait_for_result

from mtgui.engine.analysis_settings import AnalysisSettings
from mtgui.views.window.launch import load_demo_into


def file_menu_texts(window):
    return [a.text() for a in window.menuBar().actions()[0].menu().actions() if a.text()]


def test_the_file_menu_has_new_and_close(window):
    texts = file_menu_texts(window)
    assert texts[:2] == ["&New", "&Open..."]
    assert texts[-2:] == ["&Close", "&Quit"]
    assert window.new_action.shortcut().toString() == "Ctrl+N"


def test_new_asks_then_closes_the_files_and_resets_the_settings(qtbot, window):
    load_demo_into(window)
    wait_for_result(qtbot, window)
    window.settings_panel.seed.setValue(7)
    asked = []
    window.confirm_new = lambda: asked.append(True) or False  # No: nothing changes
    window.new_action.trigger()
    assert asked and len(window.workspace.entries) == 5
    assert window.settings_panel.settings().seed == 7
    window.confirm_new = lambda: True
    window.new_action.trigger()
    assert window.workspace.entries == ()
    assert window.result is None
    assert window.controller.session_path is None
    assert window.settings_panel.settings() == AnalysisSettings()
    assert window.right.currentWidget() is window.welcome
    assert window.windowTitle() == "mtgui"
    assert "New project" in window.statusBar().currentMessage()


def test_new_on_an_empty_window_does_not_ask(window):
    window.confirm_new = lambda: pytest.fail("nothing to lose, nothing to ask")
    window.settings_panel.seed.setValue(9)
    window.new_action.trigger()
    assert window.settings_panel.settings() == AnalysisSettings()
