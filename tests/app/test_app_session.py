"""The desktop program around the analysis: sessions, recent files, remembered settings, help."""

from __future__ import annotations

import json

import pytest
from gui_helpers import drop, shoot, wait_for_result
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QKeySequence

from mtgui.app.preferences import Preferences
from mtgui.engine.core.corpus import Role
from mtgui.io.demo import demo_inputs
from mtgui.views.window.launch import load_demo_into
from mtgui.views.window.main_window import MainWindow


@pytest.fixture
def preferences(tmp_path):
    return Preferences(QSettings(str(tmp_path / "mtgui.ini"), QSettings.Format.IniFormat))


def open_window(qtbot, preferences=None) -> MainWindow:
    window = MainWindow(preferences=preferences)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    return window


def test_a_saved_session_reopens_with_its_files_names_settings_and_metric(qtbot, tmp_path):
    window = open_window(qtbot)
    window.settings_panel.resamples.setValue(300)
    load_demo_into(window)
    wait_for_result(qtbot, window)
    window.workspace = window.workspace.renamed("Quill", "Quill v2")
    window.workspace = window.workspace.with_hidden("Ostrich", True)
    panel = window.settings_panel
    panel.metric_boxes["ter"].setChecked(True)
    panel.seed.setValue(7)
    panel.level.setValue(0.9)
    panel.case.setCurrentIndex(1)
    window.result = None
    wait_for_result(qtbot, window)
    window.results.metric_choice.setCurrentIndex(window.results.metric_choice.findData("ter"))
    path = tmp_path / "work" / "demo.mtgui.json"
    path.parent.mkdir()
    window.choose_session_file = lambda: path
    qtbot.keyClick(window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert json.loads(path.read_text(encoding="utf-8"))["mtgui_session"] == 1
    assert window.windowTitle() == "demo.mtgui.json: 3 systems, 2 references, 95 segments — mtgui"
    saved_state = panel.state()
    scores = {i.system: i.score for i in window.result.bootstrap.intervals if i.metric == "ter"}

    other = open_window(qtbot)
    other.add_files([path])  # as File > Open or a drop does with a session file
    wait_for_result(qtbot, other)
    assert other.settings_panel.state() == saved_state
    assert saved_state["seed"] == 7 and saved_state["case"] == "full"
    assert other.current_metric() == "ter"
    assert set(other.result.bootstrap.systems) == {"Lumen", "Quill v2", "Tessera"}
    reopened = {i.system: i.score for i in other.result.bootstrap.intervals if i.metric == "ter"}
    assert reopened == scores
    assert other.session_path == path
    assert other.windowTitle().startswith("demo.mtgui.json: 3 systems")


def test_opening_a_session_over_loaded_files_asks_first(qtbot, tmp_path):
    window = open_window(qtbot)
    window.settings_panel.resamples.setValue(300)
    load_demo_into(window)
    wait_for_result(qtbot, window)
    path = tmp_path / "first.mtgui.json"
    window.choose_session_file = lambda: path
    assert window.save_session_as()
    asked = []
    window.confirm_discard = lambda: asked.append(True) and False
    window.workspace = window.workspace.with_hidden("Lumen", True)
    window.open_session(path)
    assert asked and "Lumen" in window.workspace.hidden  # refused: nothing changed


def test_a_broken_session_file_is_explained_and_changes_nothing(qtbot, tmp_path):
    window = open_window(qtbot)
    broken = tmp_path / "broken.mtgui.json"
    broken.write_text('{"mtgui_session": 1, "files": [', encoding="utf-8")
    window.add_files([broken])
    assert "broken.mtgui.json" in window.results.problem.text()
    assert "line 1" in window.results.problem.text()
    assert window.workspace.entries == ()


def test_a_session_whose_file_went_missing_opens_the_rest(qtbot, tmp_path):
    window = open_window(qtbot)
    window.settings_panel.resamples.setValue(300)
    copies = []
    for source, role in demo_inputs():
        copy = tmp_path / source.name
        copy.write_bytes(source.read_bytes())
        copies.append((copy, role))
    window.add_files([p for p, _ in copies], dict(copies))
    wait_for_result(qtbot, window)
    session = tmp_path / "s.mtgui.json"
    window.choose_session_file = lambda: session
    window.save_session()
    (tmp_path / "Tessera.sgm").unlink()
    other = open_window(qtbot)
    other.open_session(session)
    wait_for_result(qtbot, other)
    assert set(other.result.bootstrap.systems) == {"Lumen", "Quill", "Ostrich"}
    missing = [e for e in other.workspace.entries if not e.ok]
    assert [e.path.name for e in missing] == ["Tessera.sgm"]


def test_settings_and_recent_files_are_remembered_between_runs(qtbot, preferences, tmp_path):
    window = open_window(qtbot, preferences)
    window.settings_panel.resamples.setValue(300)
    window.settings_panel.correction.setCurrentIndex(
        window.settings_panel.correction.findData("holm")
    )
    window.results.histograms.layout_choice.setCurrentText("overlaid")
    reference = tmp_path / "news.ref.en"
    reference.write_text("a b c\n", encoding="utf-8")
    system = tmp_path / "sysA.en"
    system.write_text("a b d\n", encoding="utf-8")
    window.choose_roles = dict
    drop(window, [reference, system])
    wait_for_result(qtbot, window)
    window.close()

    again = open_window(qtbot, preferences)
    state = again.settings_panel.state()
    assert state["resamples"] == 300 and state["correction"] == "holm"
    assert again.results.histograms.layout_choice.currentText() == "overlaid"
    again.recent_menu.aboutToShow.emit()
    entries = [(a.text(), a.toolTip()) for a in again.recent_menu.actions()]
    assert entries == [("sysA.en", str(system)), ("news.ref.en", str(reference))]
    assert preferences.last_folder() == tmp_path
    again.choose_roles = dict
    again.recent_menu.actions()[0].trigger()  # opens sysA.en again
    qtbot.waitUntil(lambda: len(again.workspace.entries) == 1)
    assert again.workspace.entries[0].path == system


def test_an_empty_recent_menu_says_so(qtbot, preferences):
    window = open_window(qtbot, preferences)
    window.recent_menu.aboutToShow.emit()
    (only,) = window.recent_menu.actions()
    assert only.text() == "(none yet)" and not only.isEnabled()


def test_shortcuts_open_run_cancel_export_save_and_help(qtbot):
    window = open_window(qtbot)
    keys = {
        action.text().replace("&", ""): action.shortcut()
        for action in (
            window.open_action,
            window.run_action,
            window.cancel_action,
            window.export_action,
            window.save_session_action,
            window.guide_action,
        )
    }
    assert keys == {
        "Open...": QKeySequence(QKeySequence.StandardKey.Open),
        "Run": QKeySequence("Ctrl+R"),
        "Cancel": QKeySequence("Esc"),
        "Export CSV...": QKeySequence("Ctrl+E"),
        "Save session": QKeySequence(QKeySequence.StandardKey.Save),
        "mtgui guide": QKeySequence("F1"),
    }
    assert "(Ctrl+R)" in window.run_action.toolTip()
    menus = [a.text().replace("&", "") for a in window.menuBar().actions()]
    assert menus == ["File", "Edit", "View", "Analysis", "Help"]


def test_f1_opens_the_guide_beside_the_window(qtbot):
    window = open_window(qtbot)

    def press_f1() -> None:  # a fresh offscreen window takes its shortcuts a moment after showing
        qtbot.keyClick(window, Qt.Key.Key_F1)
        assert window.help_dialog is not None

    qtbot.waitUntil(press_f1)
    guide = window.help_dialog
    assert guide is not None and guide.isVisible()
    assert "relative ci" in guide.browser.toPlainText().lower()
    shoot(guide, "help-guide-from-window")
    guide.close()


def test_the_window_title_says_what_is_loaded(qtbot):
    window = open_window(qtbot)
    window.settings_panel.resamples.setValue(300)
    assert window.windowTitle() == "mtgui"
    window.add_files([p for p, _ in demo_inputs()], {p: r for p, r in demo_inputs()})
    wait_for_result(qtbot, window)
    assert window.windowTitle() == "4 systems, 2 references, 95 segments — mtgui"
    window.workspace = window.workspace.with_hidden("Quill", True)
    window.controller.refresh()
    assert window.windowTitle().startswith("3 systems, 2 references")
    assert Role.REFERENCE  # the demo's reference file holds both references
