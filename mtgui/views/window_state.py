"""What the window remembers between runs: the settings shown, the histogram layout, and its
own size and place (kept by :class:`~mtgui.app.preferences.Preferences`).

Also the menu actions' common make: each action's shortcut goes into its tooltip, so that the
toolbar teaches the keys.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QWidget

from mtgui.app.preferences import Preferences

if TYPE_CHECKING:
    from mtgui.views.main_window import MainWindow


def restore_window(window: MainWindow, preferences: Preferences) -> None:
    """Settings, histogram layout and window as they were when mtgui was last closed."""
    window.settings_model.set_state(preferences.panel_state())
    window.results.histograms.layout_choice.setCurrentText(preferences.histogram_layout())
    window.set_bleu_percent(preferences.bleu_scale() == 100)
    geometry, state = preferences.window_geometry(), preferences.window_state()
    if geometry:
        window.restoreGeometry(QByteArray(geometry))
    if state:
        window.restoreState(QByteArray(state))


def save_window(window: MainWindow, preferences: Preferences) -> None:
    """Remember the settings, the histogram layout and the window for the next start."""
    preferences.set_panel_state(window.settings_model.state())
    preferences.set_histogram_layout(window.results.histograms.layout_choice.currentText())
    preferences.set_window(bytes(window.saveGeometry().data()), bytes(window.saveState().data()))
    preferences.sync()


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
