"""What the window remembers between runs: the settings shown, the histogram layout, and its
own size and place (kept by :class:`~mtgui.app.preferences.Preferences`).

Also the menu actions' common make: each action's shortcut goes into its tooltip, so that the
toolbar teaches the keys.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QPoint, QRect, QSize
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence, QScreen
from PySide6.QtWidgets import QWidget

from mtgui.app.preferences import Preferences, screen_key

DEFAULT_SIZE = QSize(1200, 760)
"""The window's size at its first start, where the screen has room for it."""

FRAME_ROOM = QSize(16, 48)
"""What the window manager's frame and title bar take around the window, at most (about)."""

if TYPE_CHECKING:
    from mtgui.views.window.main_window import MainWindow


def restore_window(window: MainWindow, preferences: Preferences) -> None:
    """Settings, histogram layout and window as they were when mtgui was last closed."""
    window.settings_model.set_state(preferences.panel_state())
    window.results.histograms.layout_choice.setCurrentText(preferences.histogram_layout())
    window.set_bleu_percent(preferences.bleu_scale() == 100)
    screen = _screen_of(window)
    geometry = preferences.window_geometry(_key(screen) if screen else "")
    state = preferences.window_state()
    if geometry:
        window.restoreGeometry(QByteArray(geometry))
    if state:
        window.restoreState(QByteArray(state))
    if screen is not None:
        fit_window(window, screen.availableGeometry())


def save_window(window: MainWindow, preferences: Preferences) -> None:
    """Remember the settings, the histogram layout and the window for the next start."""
    preferences.set_panel_state(window.settings_model.state())
    preferences.set_histogram_layout(window.results.histograms.layout_choice.currentText())
    screen = _screen_of(window)
    preferences.set_window(
        bytes(window.saveGeometry().data()),
        bytes(window.saveState().data()),
        _key(screen) if screen else "",
    )
    preferences.sync()


def fit_window(window: QWidget, available: QRect) -> None:
    """Shrink and move ``window`` so that it and its frame lie within ``available`` (the
    screen less its task bars): a size saved at another scale, or the default size on a small
    screen at 150%, would otherwise open the window past the screen's edges. A maximized or
    full-screen window is the window manager's to place."""
    if window.isMaximized() or window.isFullScreen():
        return
    room = QSize(available.width() - FRAME_ROOM.width(), available.height() - FRAME_ROOM.height())
    size = window.size().boundedTo(room).expandedTo(window.minimumSize())
    window.resize(size)
    place, framed = window.pos(), size + FRAME_ROOM  # pos(): the frame's corner
    if not available.contains(QRect(place, framed)):
        left = min(place.x(), available.right() + 1 - framed.width())
        top = min(place.y(), available.bottom() + 1 - framed.height())
        window.move(QPoint(max(available.left(), left), max(available.top(), top)))


def _screen_of(window: QWidget) -> QScreen | None:
    """The screen the window is on (or will open on)."""
    screen = QGuiApplication.screenAt(window.geometry().center())
    return screen or window.screen() or QGuiApplication.primaryScreen()


def _key(screen: QScreen) -> str:
    """``screen`` as the remembered sizes are kept by (:func:`screen_key`)."""
    size = screen.geometry().size()
    return screen_key(screen.name(), size.width(), size.height())


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
