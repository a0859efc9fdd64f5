"""Grouping systems as runs of one system from the files panel's menu."""

from __future__ import annotations

import statistics as pystats

from gui_helpers import shoot, system_item, wait_for_result

from mtgui.views.window.launch import load_demo_into
from mtgui.views.window.main_window import MainWindow

MENU_TEXT = "Group as runs of one system..."


def test_selected_systems_are_grouped_as_runs_and_shown_over_their_runs(qtbot, window):
    load_demo_into(window)
    wait_for_result(qtbot, window)
    panel = window.files_panel
    lumen, quill = system_item(panel, "Lumen"), system_item(panel, "Quill")
    lumen.parent().setSelected(True)  # a file's row stands for its system
    quill.setSelected(True)
    assert all(
        a.text() != MENU_TEXT for a in panel.menu_for(system_item(panel, "Ostrich")).actions()
    )
    action = next(a for a in panel.menu_for(quill).actions() if a.text() == MENU_TEXT)
    panel.ask_runs_name = lambda runs: "LQ"
    action.trigger()
    assert window.run_groups == {"LQ": ("Lumen", "Quill")}
    dialog = window.runs_dialog
    assert dialog is not None and dialog.isVisible()
    bleu = [window.result.bootstrap.interval(s, "bleu").score for s in ("Lumen", "Quill")]
    text = dialog.browser.toPlainText()
    assert "Systems over their runs" in text and "LQ" in text
    assert f"{pystats.mean(bleu):.4f}" in text and f"{pystats.stdev(bleu):.4f}" in text
    shoot(dialog, "runs-dialog-demo")
    before = text
    window.result = None
    window.settings_panel.seed.setValue(7)  # a new analysis: the dialog follows it
    wait_for_result(qtbot, window)
    assert dialog.browser.toPlainText() != before and "LQ" in dialog.browser.toPlainText()
    dialog.close()


def test_runs_groups_are_saved_in_the_session_and_shown_again_when_it_opens(
    qtbot, window, tmp_path
):
    load_demo_into(window)
    wait_for_result(qtbot, window)
    window.group_runs("LQ", ["Lumen", "Quill"])
    path = tmp_path / "runs.mtgui.json"
    window.choose_session_file = lambda: path
    assert window.save_session()
    window.runs_dialog.close()
    again = MainWindow()
    qtbot.addWidget(again)
    again.show()
    again.open_session(path)
    wait_for_result(qtbot, again)
    assert again.run_groups == {"LQ": ("Lumen", "Quill")}
    dialog = again.runs_dialog
    assert dialog is not None and dialog.isVisible() and "LQ" in dialog.browser.toPlainText()
    dialog.close()
