"""The Open dialog is wide enough for WMT's long file names, and opens what is picked."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QDialog, QFileDialog, QTreeView

from mtgui.views.common.dialogs import OPEN_DIALOG_SIZE, OPEN_FILTERS, ask_files_to_open


def test_the_dialog_is_wide_with_a_wide_name_column(qtbot, monkeypatch, tmp_path):
    seen = {}

    def exec_(dialog):
        screen = dialog.screen().availableGeometry()
        seen["size"] = (dialog.width(), dialog.height(), screen.width(), screen.height())
        tree = dialog.findChild(QTreeView)
        seen["name column"] = tree.header().sectionSize(0) if tree is not None else None
        seen["filters"] = dialog.nameFilters()
        seen["mode"] = dialog.fileMode()
        return QDialog.DialogCode.Rejected

    monkeypatch.setattr(QFileDialog, "exec", exec_)
    parent = QDialog()
    qtbot.addWidget(parent)
    assert ask_files_to_open(parent, str(tmp_path)) == []
    width, height, room_w, room_h = seen["size"]
    assert width == min(OPEN_DIALOG_SIZE[0], room_w * 9 // 10)
    assert height == min(OPEN_DIALOG_SIZE[1], room_h * 9 // 10)
    assert width >= 800 or width == room_w * 9 // 10
    if seen["name column"] is not None:  # Qt's own dialog (a native one sizes itself)
        assert seen["name column"] >= width // 2
    assert seen["filters"] == list(OPEN_FILTERS)
    assert seen["filters"][0] == "All files (*)"
    assert seen["mode"] is QFileDialog.FileMode.ExistingFiles


def test_the_files_picked_are_returned(qtbot, monkeypatch, tmp_path):
    picked = [tmp_path / "newstest2021.de-en.Facebook-AI.hyp.en", tmp_path / "ref.sgm"]
    monkeypatch.setattr(QFileDialog, "exec", lambda dialog: QDialog.DialogCode.Accepted)
    monkeypatch.setattr(QFileDialog, "selectedFiles", lambda dialog: [str(p) for p in picked])
    assert ask_files_to_open(None, str(tmp_path)) == [Path(p) for p in picked]
