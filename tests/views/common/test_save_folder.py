"""Save dialogs open in the last folder written to, else in Documents: never the data's."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QFileDialog

from mtgui.app.preferences import Preferences
from mtgui.views.common.dialogs import ask_folder, ask_save_path
from mtgui.views.common.save_folder import documents_folder, remember_in
from mtgui.views.window.main_window import MainWindow


def test_save_dialogs_open_where_the_last_file_was_written(qtbot, tmp_path, monkeypatch):
    ini = tmp_path / "settings.ini"
    window = MainWindow(preferences=Preferences(QSettings(str(ini), QSettings.Format.IniFormat)))
    qtbot.addWidget(window)
    data = tmp_path / "data"
    data.mkdir()
    window.preferences.set_last_folder(data / "ref.txt")  # files were opened from here
    asked: list[str] = []
    out = tmp_path / "out"
    out.mkdir()

    def save_name(parent, title, start, filters, *args, **kwargs):
        asked.append(start)
        return str(out / "table.csv"), ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_name)
    assert ask_save_path(window, "Save", "table.csv", {".csv": "CSV"}) == out / "table.csv"
    assert Path(asked[0]) == documents_folder() / "table.csv"  # not the data's folder
    ask_save_path(window, "Save", "grid.csv", {".csv": "CSV"})
    assert Path(asked[1]) == out / "grid.csv"  # where the last one went
    folders: list[str] = []

    def folder_name(parent, title, start, *args):
        folders.append(start)
        return str(tmp_path)

    monkeypatch.setattr(QFileDialog, "getExistingDirectory", folder_name)
    assert window._ask_folder() == tmp_path  # the CSV reports' folder
    assert Path(folders[0]) == out
    assert ask_folder(window, "Export") == tmp_path and Path(folders[1]) == tmp_path
    window.close()
    remember_in(None)  # other tests' windows remember nothing
