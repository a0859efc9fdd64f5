"""A panel that scrolls on a short screen instead of making the window taller than it."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QScrollArea, QWidget


def scrolling(panel: QWidget) -> QScrollArea:
    """``panel`` in a frameless scroll area that scrolls only up and down.

    A laptop's 1600 x 1000 screen at 150% scaling is about 1066 x 666 logical pixels, less the
    title and task bars: the settings panel alone is over 500 pixels tall, so without this the
    window's minimum height runs off the bottom of the screen.
    """
    area = QScrollArea()
    area.setWidget(panel)
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    scrollbar = area.verticalScrollBar().sizeHint().width()
    area.setMinimumWidth(panel.minimumSizeHint().width() + scrollbar)
    return area
