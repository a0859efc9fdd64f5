"""A frame around the table cell that has the keyboard focus, drawn in the cell's own text
colour: the style's thin focus line vanishes on the Significance grid's coloured cells, and a
keyboard user could not see which cell the arrow keys had reached."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPalette, QPen
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

FRAME_WIDTH = 2
"""The frame's width in pixels."""


class FocusFrameDelegate(QStyledItemDelegate):
    """Cells drawn as usual, the focused one framed in its text colour."""

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> None:
        """The cell, then, if it has the focus, its frame."""
        super().paint(painter, option, index)
        if not option.state & QStyle.StateFlag.State_HasFocus:
            return
        painter.save()
        painter.setPen(QPen(frame_color(index, option.palette), FRAME_WIDTH))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        half = FRAME_WIDTH // 2
        painter.drawRect(option.rect.adjusted(half, half, -half - 1, -half - 1))
        painter.restore()


def frame_color(index: QModelIndex | QPersistentModelIndex, palette: QPalette) -> QColor:
    """The cell's text colour (chosen to stand out on its background), else the palette's."""
    value = index.data(Qt.ItemDataRole.ForegroundRole)
    if isinstance(value, QBrush):
        return value.color()
    if isinstance(value, QColor):
        return value
    return palette.color(QPalette.ColorRole.Text)
