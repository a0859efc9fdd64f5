"""Menu actions made alike everywhere: their shortcut said in their tooltip."""

from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QWidget


def make_action(
    parent: QWidget, text: str, shortcut: QKeySequence.StandardKey | str | None
) -> QAction:
    """A menu action, with its shortcut in its tooltip so the toolbar teaches the keys."""
    action = QAction(text, parent)
    if shortcut is not None:
        action.setShortcut(QKeySequence(shortcut))
        keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
        action.setToolTip(f"{text.replace('&', '').rstrip('.')} ({keys})")
    return action
