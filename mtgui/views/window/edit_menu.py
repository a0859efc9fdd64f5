"""The Edit menu: Undo and Redo of what the user changed in the files panel.

The actions say what they would do ("Undo Remove sysA.en") and are disabled when there is
nothing to do, as in every desktop application; the controller's history
(:mod:`mtgui.app.undo`) decides, and says when that changes
(:attr:`~mtgui.app.controller.AppController.undo_changed`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence

from mtgui.views.common.actions import make_action

if TYPE_CHECKING:
    from mtgui.views.window.main_window import MainWindow


def add_edit_menu(window: MainWindow) -> None:
    """Make ``window.undo_action`` and ``window.redo_action``, and the Edit menu with them."""
    window.undo_action = make_action(window, "&Undo", QKeySequence.StandardKey.Undo)
    window.redo_action = make_action(window, "&Redo", QKeySequence.StandardKey.Redo)
    for action, keys in (
        (window.undo_action, QKeySequence.StandardKey.Undo),
        (window.redo_action, QKeySequence.StandardKey.Redo),
    ):
        action.setShortcuts(keys)  # every key the platform knows: Ctrl+Y and Ctrl+Shift+Z
        action.setEnabled(False)
    window.menuBar().addMenu("&Edit").addActions([window.undo_action, window.redo_action])


def connect_edit_menu(window: MainWindow) -> None:
    """Let the actions undo and redo through the window's controller, and follow its history."""
    controller = window.controller
    window.undo_action.triggered.connect(controller.undo)
    window.redo_action.triggered.connect(controller.redo)
    texts = UndoTexts(window.undo_action, window.redo_action, window)
    controller.undo_changed.connect(texts.show)
    texts.show(controller.undo_text, controller.redo_text)


class UndoTexts(QObject):
    """Keeps the Undo and Redo actions' texts, tooltips and enabled states up to date (a
    QObject, so the connection ends with the window)."""

    def __init__(self, undo: QAction, redo: QAction, parent: QObject) -> None:
        super().__init__(parent)
        self._actions = {"Undo": undo, "Redo": redo}

    def show(self, undo_text: str, redo_text: str) -> None:
        """Say what Undo and Redo would do ("" for nothing: the action is disabled)."""
        for (verb, action), what in zip(self._actions.items(), (undo_text, redo_text), strict=True):
            escaped = what.replace("&", "&&")  # a file named "a&b" is no mnemonic
            action.setText(f"&{verb} {escaped}" if what else f"&{verb}")
            action.setEnabled(bool(what))
            keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
            tip = f"{verb} {what}" if what else f"Nothing to {verb.lower()}"
            action.setToolTip(f"{tip} ({keys})")
