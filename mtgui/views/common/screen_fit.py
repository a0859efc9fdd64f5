"""A window kept within its screen: a size saved at another scale, or a default size on a
small screen at 150%, must not open it past the screen's edges (the main window, the campaign
window)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize
from PySide6.QtWidgets import QWidget

FRAME_ROOM = QSize(16, 48)
"""What the window manager's frame and title bar take around the window, at most (about)."""


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
