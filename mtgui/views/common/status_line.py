"""A status bar whose messages are cut with "..." to the room they have, and whole in a tooltip.

``QStatusBar`` draws a message as one line from its left edge and cuts it wherever the window
ends: at 150% on a 1280 x 800 screen the end of a long message (a file's path, the note after a
run) was lost, in the middle of a word. A :class:`StatusLine` shows its messages in a label that
stretches over the bar beside the permanent widgets (the progress bar), shortened with "..." to
its width; the whole message is the label's tooltip when it is shortened. ``showMessage``,
``clearMessage``, ``currentMessage`` and ``messageChanged`` keep ``QStatusBar``'s meaning, so
callers treat it as one.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QStatusBar, QWidget


class ElidedLabel(QLabel):
    """One line of plain text, cut with "..." at the end when it is wider than the label; the
    whole text is then the tooltip."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._whole = ""
        self.setTextFormat(Qt.TextFormat.PlainText)  # names from the inputs: never markup
        # The label must not ask for its text's width: a long message would widen the window.
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setMinimumWidth(1)

    def whole_text(self) -> str:
        """The text as it was given, before any cut."""
        return self._whole

    def set_whole_text(self, text: str) -> None:
        """Show ``text`` on one line, shortened to the label's width if it must be."""
        self._whole = text
        self._elide()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        """Cut the one-line text to the room; the tooltip holds it whole when cut."""
        line = " ".join(self._whole.split("\n"))
        room = self.contentsRect().width() - 2 * self.margin()
        shown = self.fontMetrics().elidedText(line, Qt.TextElideMode.ElideRight, max(room, 0))
        if shown != self.text():
            self.setText(shown)
        self.setToolTip(self._whole if shown != line else "")


class StatusLine(QStatusBar):
    """The main window's status bar: messages shortened to fit, whole in their tooltip."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.message = ElidedLabel()
        self.message.setContentsMargins(4, 0, 0, 0)
        self.addWidget(self.message, 1)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.clearMessage)

    def showMessage(self, text: str, /, timeout: int | None = 0) -> None:  # noqa: N802
        """Show ``text`` until the next message, or for ``timeout`` milliseconds if given
        (QStatusBar's call)."""
        if timeout is not None and timeout > 0:
            self._timer.start(timeout)
        else:
            self._timer.stop()
        self._show(text)

    def clearMessage(self) -> None:  # noqa: N802 - QStatusBar's
        """Show no message."""
        self._timer.stop()
        self._show("")

    def currentMessage(self) -> str:  # noqa: N802 - QStatusBar's
        """The message shown, whole."""
        return self.message.whole_text()

    def _show(self, text: str) -> None:
        changed = text != self.message.whole_text()
        self.message.set_whole_text(text)
        if changed:
            self.messageChanged.emit(text)
