"""The main window's menus, toolbar and their actions.

The actions are kept on the window (``window.run_action``, ...) so that the window, its tests
and the desktop habits (shortcuts in tooltips, a toolbar that teaches the keys) share them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QMenu

from mtgui.views.common.actions import make_action
from mtgui.views.inputs.test_set_dialog import open_test_set_action
from mtgui.views.results.campaign_view import open_campaign_action
from mtgui.views.window.edit_menu import add_edit_menu
from mtgui.views.window.view_menu import add_view_menu

if TYPE_CHECKING:
    from mtgui.views.window.main_window import MainWindow


def build_menus(window: MainWindow) -> None:
    """Make the window's actions, and its File, Edit, Analysis and Help menus and toolbar."""
    window.new_action = make_action(window, "&New", QKeySequence.StandardKey.New)
    window.open_action = make_action(window, "&Open...", QKeySequence.StandardKey.Open)
    window.open_action.setToolTip(
        "Open reference, system and score files, a session or a project (.mtgui)."
    )
    window.save_session_action = make_action(window, "&Save session", QKeySequence.StandardKey.Save)
    window.save_session_as_action = make_action(window, "Save session &as...", "Ctrl+Shift+S")
    window.save_project_action = make_action(window, "Save &project as...", None)
    window.save_project_action.setToolTip(
        "Save one .mtgui file with the files themselves, the session, the report and the "
        "results: it opens on another computer as it is now."
    )
    window.add_set_action = make_action(window, "&Add test set", "Ctrl+T")
    window.add_set_action.setToolTip(
        "Add a test set (a tab of inputs) to the project: with two or more, the results show "
        "their campaign (Ctrl+T)."
    )
    window.export_action = make_action(window, "&Export CSV...", "Ctrl+E")
    window.report_action = make_action(window, "Export &report (HTML)...", "Ctrl+Shift+E")
    window.pdf_action = make_action(window, "Export &PDF...", "Ctrl+Shift+P")
    window.run_action = make_action(window, "&Run", "Ctrl+R")
    window.cancel_action = make_action(window, "&Cancel", "Esc")
    quit_action = make_action(window, "&Quit", QKeySequence.StandardKey.Quit)
    close_action = make_action(window, "&Close", QKeySequence.StandardKey.Close)
    window.guide_action = make_action(window, "mtgui &guide", "F1")
    about_action = make_action(window, "&About mtgui", None)
    window.recent_menu = QMenu("Open &recent", window)
    window.recent_menu.aboutToShow.connect(window.fill_recent_menu)
    for action, slot in (
        (window.new_action, window.new_project),
        (window.open_action, window.open_files),
        (window.add_set_action, window.add_test_set),
        (window.save_session_action, window.save_session),
        (window.save_session_as_action, window.save_session_as),
        (window.save_project_action, window.save_project_as),
        (window.export_action, window.export),
        (window.report_action, window.export_html),  # bound methods: a partial would hold
        (window.pdf_action, window.export_pdf),  # the window alive through Qt
        (window.run_action, window.run),
        (window.cancel_action, window.cancel),
        (quit_action, window.close),
        (close_action, window.close),  # one window: closing it ends mtgui, as Quit does
        (window.guide_action, window.show_guide),
        (about_action, window.show_about),
    ):
        action.triggered.connect(slot)
    for action in (window.export_action, window.report_action, window.pdf_action):
        action.setEnabled(False)
    window.cancel_action.setEnabled(False)
    file_menu = window.menuBar().addMenu("&File")
    file_menu.addActions([window.new_action, window.open_action, open_test_set_action(window)])
    file_menu.addAction(window.add_set_action)
    file_menu.addAction(open_campaign_action(window))
    file_menu.addMenu(window.recent_menu)
    file_menu.addActions(
        [window.save_session_action, window.save_session_as_action, window.save_project_action]
    )
    file_menu.addSeparator()
    file_menu.addActions([window.export_action, window.report_action, window.pdf_action])
    file_menu.addSeparator()
    file_menu.addActions([close_action, quit_action])
    add_edit_menu(window)  # Undo and Redo, between File and Analysis as everywhere
    add_view_menu(window)  # how the numbers read: BLEU on 0-1 or 0-100
    window.menuBar().addMenu("&Analysis").addActions([window.run_action, window.cancel_action])
    window.menuBar().addMenu("&Help").addActions([window.guide_action, about_action])
    toolbar = window.addToolBar("Analysis")
    toolbar.setObjectName("analysis-toolbar")  # for saveState
    toolbar.addActions(
        [window.open_action, window.run_action, window.cancel_action, window.export_action]
    )


def fill_recent_menu(window: MainWindow) -> None:
    """The files and sessions opened lately, newest first, each with its path as tooltip."""
    menu = window.recent_menu
    menu.clear()
    recent = window.preferences.recent_files() if window.preferences is not None else []
    for path in recent:
        action = menu.addAction(path.name)
        action.setToolTip(str(path))
        action.setStatusTip(str(path))
        action.triggered.connect(lambda _=False, p=path: window.add_files([p]))
    if not recent:
        menu.addAction("(none yet)").setEnabled(False)
