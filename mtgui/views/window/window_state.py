"""What the window remembers between runs: the settings shown, the histogram layout, and its
own size and place (kept by :class:`~mtgui.app.preferences.Preferences`), fitted to the
screen it opens on (:func:`~mtgui.views.common.screen_fit.fit_window`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QSize
from PySide6.QtGui import QGuiApplication, QScreen
from PySide6.QtWidgets import QWidget

from mtgui.app.preferences import Preferences, screen_key
from mtgui.views.common.screen_fit import fit_window

DEFAULT_SIZE = QSize(1200, 760)
"""The window's size at its first start, where the screen has room for it."""

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


def _screen_of(window: QWidget) -> QScreen | None:
    """The screen the window is on (or will open on)."""
    screen = QGuiApplication.screenAt(window.geometry().center())
    return screen or window.screen() or QGuiApplication.primaryScreen()


def _key(screen: QScreen) -> str:
    """``screen`` as the remembered sizes are kept by (:func:`screen_key`)."""
    size = screen.geometry().size()
    return screen_key(screen.name(), size.width(), size.height())
