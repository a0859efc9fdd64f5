"""Edit > Undo and Redo in the window: the menu's texts and states, Ctrl+Z, and the files
panel's remove, rename, hide and "Read as" taken back and made again."""

from __future__ import annotations

from gui_helpers import drop, system_item, wait_for_result
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence

from mtgui.io.demo import demo_inputs
from mtgui.views.window.main_window import MainWindow


def load_demo(qtbot, window: MainWindow) -> None:
    inputs = demo_inputs()
    window.add_files([path for path, _ in inputs], dict(inputs))
    wait_for_result(qtbot, window)


def file_row(window: MainWindow, name: str):
    panel = window.files_panel
    rows = [panel.topLevelItem(i) for i in range(panel.topLevelItemCount())]
    return next(row for row in rows if row.text(0) == name)


def menu_action(window: MainWindow, item, text: str):
    return next(a for a in window.files_panel.menu_for(item).actions() if a.text() == text)


def menu_texts(window: MainWindow) -> tuple[str, bool, str, bool]:
    """Undo's text and whether it is enabled, then Redo's."""
    undo, redo = window.undo_action, window.redo_action
    texts = [action.text().replace("&", "") for action in (undo, redo)]
    return texts[0], undo.isEnabled(), texts[1], redo.isEnabled()


def scores_table(window: MainWindow) -> list[list[str]]:
    model = window.results.score_model
    return [
        [model.index(row, column).data() for column in range(model.columnCount())]
        for row in range(model.rowCount())
    ]


def rerun(qtbot, window: MainWindow, action) -> None:
    """Do ``action`` and wait for the analysis it starts."""
    window.result = None
    action()
    wait_for_result(qtbot, window)


def test_the_edit_menu_sits_between_file_and_analysis_with_nothing_to_undo(window):
    menus = [a.text().replace("&", "") for a in window.menuBar().actions()]
    assert menus == ["File", "Edit", "View", "Analysis", "Help"]
    edit = window.menuBar().actions()[1].menu()
    assert edit.actions() == [window.undo_action, window.redo_action]
    assert menu_texts(window) == ("Undo", False, "Redo", False)
    assert window.undo_action.shortcut() == QKeySequence(QKeySequence.StandardKey.Undo)
    assert window.redo_action.shortcut() == QKeySequence(QKeySequence.StandardKey.Redo)
    assert QKeySequence("Ctrl+Shift+Z") in window.redo_action.shortcuts()


def test_remove_says_it_can_be_undone_and_ctrl_z_brings_back_the_same_results(qtbot, window):
    load_demo(qtbot, window)
    loaded, table = window.workspace, scores_table(window)
    assert len(table) == 4
    rerun(qtbot, window, menu_action(window, file_row(window, "Ostrich.sgm"), "Remove").trigger)
    assert (
        window.statusBar()
        .currentMessage()
        .startswith("Removed Ostrich.sgm. Edit > Undo (Ctrl+Z) brings it back.")
    )
    assert [row[0] for row in scores_table(window)].count("Ostrich") == 0
    assert menu_texts(window) == ("Undo Remove Ostrich.sgm", True, "Redo", False)
    assert window.undo_action.toolTip() == "Undo Remove Ostrich.sgm (Ctrl+Z)"
    window.files_panel.setFocus()
    control = Qt.KeyboardModifier.ControlModifier
    rerun(qtbot, window, lambda: qtbot.keyClick(window.files_panel, Qt.Key.Key_Z, control))
    assert window.workspace is loaded
    assert scores_table(window) == table
    assert window.files_panel.topLevelItem(2).text(0) == "Ostrich.sgm"  # in its place
    assert menu_texts(window) == ("Undo", False, "Redo Remove Ostrich.sgm", True)
    rerun(qtbot, window, window.redo_action.trigger)
    assert window.files_panel.topLevelItemCount() == 4
    assert menu_texts(window) == ("Undo Remove Ostrich.sgm", True, "Redo", False)


def test_rename_and_hide_are_undone_and_redone_and_a_new_change_forgets_the_redo(qtbot, window):
    load_demo(qtbot, window)
    panel = window.files_panel
    panel.ask_name = lambda name: "Quill-v2"
    rerun(qtbot, window, menu_action(window, system_item(panel, "Quill"), "Rename...").trigger)
    hide = menu_action(window, system_item(panel, "Lumen"), "Hide from the analysis")
    rerun(qtbot, window, hide.trigger)
    assert set(window.result.bootstrap.systems) == {"Quill-v2", "Ostrich", "Tessera"}
    assert menu_texts(window)[0] == "Undo Hide Lumen"
    rerun(qtbot, window, window.undo_action.trigger)
    assert system_item(panel, "Lumen").text(1) == ""  # shown again
    assert menu_texts(window) == ("Undo Rename Quill to Quill-v2", True, "Redo Hide Lumen", True)
    rerun(qtbot, window, window.undo_action.trigger)
    assert set(window.result.bootstrap.systems) == {"Quill", "Lumen", "Ostrich", "Tessera"}
    rerun(qtbot, window, window.redo_action.trigger)
    assert system_item(panel, "Quill-v2") is not None
    assert menu_texts(window) == ("Undo Rename Quill to Quill-v2", True, "Redo Hide Lumen", True)
    hide = menu_action(window, system_item(panel, "Tessera"), "Hide from the analysis")
    rerun(qtbot, window, hide.trigger)  # a new change: Hide Lumen can no longer be redone
    assert menu_texts(window) == ("Undo Hide Tessera", True, "Redo", False)
    assert system_item(panel, "Tessera").text(1) == "hidden"


def test_read_as_another_role_is_undone_and_redone(qtbot, window, write):
    lines = "the cat sat\non the mat\na dog ran\n"
    files = [write("ref.en", lines), write("alpha.en", lines), write("beta.en", "a cat\n" * 3)]
    window.choose_roles = lambda guesses: dict(guesses)
    drop(window, files)
    wait_for_result(qtbot, window)
    read_as = menu_action(window, file_row(window, "beta.en"), "Read as").menu()
    assert [(a.text(), a.isChecked()) for a in read_as.actions()] == [
        ("Reference", False),
        ("System output", True),
        ("Source", False),
        ("Document ids", False),
    ]
    rerun(qtbot, window, read_as.actions()[0].trigger)
    assert window.result.bootstrap.systems == ("alpha",)
    assert file_row(window, "beta.en").text(1) == "reference"
    assert menu_texts(window)[0] == "Undo Read beta.en as reference"
    rerun(qtbot, window, window.undo_action.trigger)
    assert set(window.result.bootstrap.systems) == {"alpha", "beta"}
    assert file_row(window, "beta.en").text(1) == "system output"
    rerun(qtbot, window, window.redo_action.trigger)
    assert file_row(window, "beta.en").text(1) == "reference"


def test_removing_the_files_selected_is_one_step(qtbot, window):
    load_demo(qtbot, window)
    file_row(window, "Lumen.sgm").setSelected(True)
    file_row(window, "Quill.sgm").setSelected(True)
    remove = menu_action(window, file_row(window, "Quill.sgm"), "Remove 2 files")
    rerun(qtbot, window, remove.trigger)
    assert set(window.result.bootstrap.systems) == {"Ostrich", "Tessera"}
    assert (
        window.statusBar()
        .currentMessage()
        .startswith(
            "Removed 2 files (Lumen.sgm, Quill.sgm). Edit > Undo (Ctrl+Z) brings them back."
        )
    )
    assert menu_texts(window)[0] == "Undo Remove 2 files"
    rerun(qtbot, window, window.undo_action.trigger)
    assert set(window.result.bootstrap.systems) == {"Lumen", "Ostrich", "Quill", "Tessera"}
    assert menu_texts(window) == ("Undo", False, "Redo Remove 2 files", True)


def test_file_new_clears_the_history(qtbot, window):
    load_demo(qtbot, window)
    rerun(qtbot, window, menu_action(window, file_row(window, "Quill.sgm"), "Remove").trigger)
    window.confirm_new = lambda: True
    window.new_action.trigger()
    assert menu_texts(window) == ("Undo", False, "Redo", False)
    window.undo_action.trigger()  # disabled: nothing happens
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.workspace.entries == () and window.files_panel.topLevelItemCount() == 0
