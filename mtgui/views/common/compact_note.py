"""A note that takes one line until asked for more.

The notes above the results (the out-of-date note, how the results were made) can run to five
lines each; at 1280 x 800 and 150% the window is about 853 x 533 of its own units, and such
notes left the tabs a few rows. A :class:`CompactNote` shows its first line, shortened with
"..." to the width it has, and a "more..." button when something is hidden; "more..." shows
the whole text wrapped, and "less" folds it again. The whole text is always its tooltip, and a
click on the folded line unfolds it too, so every word stays reachable.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QMouseEvent, QResizeEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSizePolicy, QToolButton, QWidget

MORE, LESS = "more...", "less"


class _FoldedLabel(QLabel):
    """The note's text; a click on it unfolds the note when it is folded."""

    def __init__(self, note: CompactNote) -> None:
        super().__init__()
        self._note = note

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if not self._note.expanded and self._note.toggle.isVisible():
            self._note.set_expanded(True)
        super().mousePressEvent(event)


class CompactNote(QWidget):
    """A plain-text note shown folded to one line, with "more..."/"less" when it is longer.

    Its ``text()``/``setText()`` are those of a ``QLabel``, so callers treat it as one.
    """

    def __init__(self, tooltip: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._text = ""
        self._tooltip = tooltip  # what the note is, said before its whole text
        self.expanded = False
        self.label = _FoldedLabel(self)
        self.label.setTextFormat(Qt.TextFormat.PlainText)  # names from the inputs: not markup
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # Folded, the label must not ask for its text's width: the pane may be narrow.
        self.label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.label.setMinimumWidth(1)
        self.toggle = QToolButton()
        self.toggle.setAutoRaise(True)
        self.toggle.setText(MORE)
        self.toggle.setToolTip("Show the whole note, or fold it to one line again.")
        self.toggle.clicked.connect(lambda: self.set_expanded(not self.expanded))
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label, stretch=1)
        layout.addWidget(self.toggle, alignment=Qt.AlignmentFlag.AlignTop)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)

    def text(self) -> str:
        """The note's whole text."""
        return self._text

    def setText(self, text: str) -> None:  # noqa: N802 - as QLabel's
        """Show ``text``, folded ("": nothing)."""
        self._text = text
        self.expanded = False
        self.setToolTip(f"{self._tooltip}\n\n{text}" if self._tooltip and text else text)
        self._refresh()

    def set_expanded(self, expanded: bool) -> None:
        """Show the whole note (True) or its first line only."""
        self.expanded = expanded
        self._refresh()

    def setStyleSheet(self, style: str) -> None:  # noqa: N802 - the label carries the style
        self.label.setStyleSheet(style)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._refresh()

    def _set_label_height(self, height: int) -> None:
        height = max(1, height)
        if (self.label.minimumHeight(), self.label.maximumHeight()) != (height, height):
            self.label.setFixedHeight(height)
            self.updateGeometry()

    def _label_width(self) -> int:
        """The label's width: as laid out, or as it will be beside the toggle."""
        if self.label.width() > 1 and self.label.isVisible():
            return self.label.width()
        return max(1, self.width() - self.toggle.sizeHint().width() - 8)

    def _first_line(self) -> str:
        return self._text.split("\n", 1)[0]

    def _refresh(self) -> None:
        """Fold or unfold the label, and show the toggle only when it hides or shows more."""
        if self.expanded:
            self.label.setWordWrap(True)
            self.label.setText(self._text)
            self.toggle.setText(LESS)
            self.toggle.setVisible(bool(self._text))
            # The whole text's height at the label's width, exactly: a wrapped label's own
            # hint is for another width, which cut the note or left a gap above it.
            self._set_label_height(self.label.heightForWidth(self._label_width()))
            return
        self.label.setWordWrap(False)
        width = self._label_width()
        margins = self.label.contentsMargins()
        room = width - margins.left() - margins.right() - 2 * self.label.margin() - 12
        first = self._first_line()
        shown = self.label.fontMetrics().elidedText(first, Qt.TextElideMode.ElideRight, room)
        self.label.setText(shown)
        self._set_label_height(self.label.sizeHint().height())
        self.toggle.setText(MORE)
        self.toggle.setVisible(shown != self._text)
        self.updateGeometry()
