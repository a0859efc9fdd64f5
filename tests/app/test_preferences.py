"""What mtgui remembers between runs, in a QSettings INI file of the test's own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QByteArray, QSettings
from PySide6.QtWidgets import QMainWindow

from mtgui.app.preferences import MAX_RECENT, Preferences
from mtgui.io.session import default_settings
from mtgui.views.inputs.settings_panel import SettingsPanel
from mtgui.views.results.histogram_view import OVERLAID, SMALL_MULTIPLES


@pytest.fixture
def ini(tmp_path):
    return str(tmp_path / "p.ini")


def preferences(ini: str) -> Preferences:
    """A fresh reader of the same file: what the next run of mtgui would see."""
    return Preferences(QSettings(ini, QSettings.Format.IniFormat))


def test_a_new_settings_file_gives_the_defaults(ini):
    prefs = preferences(ini)
    assert prefs.recent_files() == []
    assert prefs.panel_state() == default_settings()
    assert prefs.last_folder() is None
    assert prefs.window_geometry() is None and prefs.window_state() is None
    assert prefs.histogram_layout() == SMALL_MULTIPLES


def test_recent_files_most_recent_first_no_duplicates_at_most_ten(ini, write):
    files = [write(f"f{n}.txt", "x\n") for n in range(12)]
    prefs = preferences(ini)
    for path in files[:3]:
        prefs.add_recent_file(path)
    prefs.add_recent_file(files[0])  # opened again: moves to the top, once
    assert prefs.recent_files() == [files[0], files[2], files[1]]
    for path in files:
        prefs.add_recent_file(path)
    prefs.sync()
    remembered = preferences(ini).recent_files()
    assert len(remembered) == MAX_RECENT
    assert remembered == files[::-1][:MAX_RECENT]


def test_recent_files_that_are_gone_are_not_listed(ini, write):
    kept, gone = write("kept.mtgui.json", "{}"), write("gone.txt", "x\n")
    prefs = preferences(ini)
    prefs.add_recent_file(kept)
    prefs.add_recent_file(gone)
    gone.unlink()
    assert prefs.recent_files() == [kept]
    prefs.clear_recent_files()
    assert prefs.recent_files() == []


def test_recent_files_are_stored_absolute(ini, write, monkeypatch, tmp_path):
    path = write("data/ref.txt", "x\n")
    monkeypatch.chdir(tmp_path / "data")
    prefs = preferences(ini)
    prefs.add_recent_file(Path("ref.txt"))
    monkeypatch.chdir(tmp_path)
    assert prefs.recent_files() == [path]


def test_the_settings_panel_state_is_remembered(ini, qtbot):
    panel = SettingsPanel()
    qtbot.addWidget(panel)
    panel.resamples.setValue(700)
    panel.metric_boxes["chrf"].setChecked(True)
    panel.case.setCurrentIndex(2)
    prefs = preferences(ini)
    prefs.set_panel_state(panel.state())
    prefs.sync()
    again = SettingsPanel()
    qtbot.addWidget(again)
    again.set_state(preferences(ini).panel_state())
    assert again.state() == panel.state()
    assert again.state()["resamples"] == 700 and again.state()["case"] == "ascii"
    assert again.metric_names() == ("bleu", "nist", "mbleu", "chrf")


def test_segments_remembered_by_mtgui_0_1_give_way_to_the_automatic_unit(ini):
    prefs = preferences(ini)
    old = {"resamples": 700, "unit": "segment", "holm": True}  # 0.1 had no "correction"
    prefs.settings.setValue("analysis/settings", json.dumps(old))
    state = prefs.panel_state()
    assert (state["unit"], state["correction"], state["resamples"]) == ("auto", "holm", 700)
    chosen = {**old, "correction": "holm"}  # stored by this version: a choice, kept
    prefs.settings.setValue("analysis/settings", json.dumps(chosen))
    assert prefs.panel_state()["unit"] == "segment"


def test_last_folder_is_the_folder_of_a_file_and_must_still_exist(ini, write, tmp_path):
    path = write("project/ref.txt", "x\n")
    prefs = preferences(ini)
    prefs.set_last_folder(path)
    assert prefs.last_folder() == tmp_path / "project"
    prefs.set_last_folder(tmp_path)
    assert preferences(ini).last_folder() == tmp_path
    (tmp_path / "project").rename(tmp_path / "moved")
    prefs.set_last_folder(tmp_path / "moved" / "ref.txt")
    (tmp_path / "moved" / "ref.txt").unlink()
    (tmp_path / "moved").rmdir()
    assert prefs.last_folder() is None


def test_window_geometry_and_state_round_trip(ini, qtbot):
    window = QMainWindow()
    qtbot.addWidget(window)
    window.resize(640, 480)
    prefs = preferences(ini)
    geometry, state = bytes(window.saveGeometry().data()), bytes(window.saveState().data())
    prefs.set_window(geometry, state)
    prefs.sync()
    again = preferences(ini)
    assert again.window_geometry() == geometry and again.window_state() == state
    other = QMainWindow()
    qtbot.addWidget(other)
    assert other.restoreGeometry(QByteArray(again.window_geometry()))


def test_histogram_layout(ini):
    prefs = preferences(ini)
    prefs.set_histogram_layout(OVERLAID)
    assert preferences(ini).histogram_layout() == OVERLAID
    prefs.set_histogram_layout("3d pie")  # not a choice: not remembered
    assert preferences(ini).histogram_layout() == OVERLAID


GARBAGE = """[General]
recent_files=not json [
[analysis]
settings="{\\"resamples\\": \\"lots\\", \\"seed\\": 42, \\"metrics\\": 3}"
[dialogs]
last_folder=relative/folder
[window]
geometry=12
state=@ByteArray()
histogram_layout=sideways
"""


def test_garbage_in_the_settings_file_gives_defaults(ini):
    with open(ini, "w", encoding="utf-8") as handle:
        handle.write(GARBAGE)
    prefs = preferences(ini)
    assert prefs.recent_files() == []
    assert prefs.panel_state() == {**default_settings(), "seed": 42}  # the good value is kept
    assert prefs.last_folder() is None
    assert prefs.window_geometry() is None and prefs.window_state() is None
    assert prefs.histogram_layout() == SMALL_MULTIPLES


@pytest.mark.parametrize("stored", ['{"a": 1}', "[1, null, true]", '["relative/path.txt"]', "7"])
def test_recent_files_of_the_wrong_shape_are_ignored(ini, stored):
    settings = QSettings(ini, QSettings.Format.IniFormat)
    settings.setValue("recent_files", stored)
    assert Preferences(settings).recent_files() == []
