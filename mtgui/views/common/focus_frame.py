"""A frame around the table cell that has the keyboard focus, drawn in the cell's own text
colour: the style's thin focus line vanishes on the Significance grid's coloured cells, and a
keyboard user could not see which cell the arrow keys had reached.

A selected cell that has colours of its own keeps them and is framed with a dashed line: filled
with the selection's blue, a selected "~" of the grid looked like a blue ">" (significantly
better), and its white text read at 3.7:1 only."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPalette, QPen
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

FRAME_WIDTH = 2
"""The frame's width in pixels."""


class FocusFrameDelegate(QStyledItemDelegate):
    """Cells drawn as usual, the focused one framed in its text colour; a selected cell with
    a background of its own keeps it, framed with a dashed line."""

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> None:
        """The cell, then, if it has the focus or keeps its colours while selected, its frame."""
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        focused = bool(option.state & QStyle.StateFlag.State_HasFocus)
        coloured = index.data(Qt.ItemDataRole.BackgroundRole) is not None
        if coloured:  # its own colours say what it is: neither the selection's nor the focus's
            option = QStyleOptionViewItem(option)
            option.state &= ~(QStyle.StateFlag.State_Selected | QStyle.StateFlag.State_HasFocus)
        super().paint(painter, option, index)
        if not focused and not (selected and coloured):
            return
        painter.save()
        pen = QPen(frame_color(index, option.palette), FRAME_WIDTH)
        if not focused:  # dashes as long as their gaps: plainly not the focus's frame
            pen.setDashPattern([2.0, 2.0])
            pen.setCapStyle(Qt.PenCapStyle.FlatCap)
        painter.setPen(pen)
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
