"""The last line of defence: an unexpected exception in the GUI thread, told without harm.

``sys.excepthook`` is called wherever Python code run by Qt raises: in a slot, but also inside
a Qt virtual such as a model's ``data()``, which Qt calls while it paints a view. Opening a
modal dialog there (``QMessageBox.exec()``) ran a nested event loop inside the paint: the view
painted again within its own paint, raised again, opened another dialog, and when the last one
closed Qt went back into paint code whose painter had been ended under it, and the process died
(a segmentation fault in libQt6Core; "QBackingStore::endPaint() called with active painter").

So :class:`UnexpectedErrors` never opens anything where it is called. It prints the details
(standard error), saves the work (``on_error``: the window's recovery file), and asks for one
dialog at the next turn of the event loop; the dialog is opened with ``open()``, which returns
at once and runs no event loop of its own. Errors that come while it is shown (a view raising
at every paint) are counted in it, never a dialog each.
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Callable
from types import TracebackType

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QAbstractButton, QApplication, QMessageBox

TITLE = "mtgui: unexpected error"


class UnexpectedErrors:
    """``sys.excepthook`` for the window: print, save the work, then tell the user once."""

    def __init__(self) -> None:
        self.count = 0  # errors seen since the start (a test checks it stays 0)
        self.on_error: Callable[[], object] | None = None  # saves the work (the recovery file)
        self.box: QMessageBox | None = None  # the dialog shown, if any
        self._first = ""  # the summary of the first error the dialog tells
        self._details: list[str] = []  # the tracebacks the dialog tells
        self._scheduled = False

    def __call__(
        self, kind: type[BaseException], error: BaseException, trace: TracebackType | None
    ) -> None:
        details = "".join(traceback.format_exception(kind, error, trace))
        print(details, file=sys.stderr)
        self.count += 1
        self._save_work()
        if not self._details:
            self._first = f"{kind.__name__}: {error}"
        self._details.append(details)
        if self.box is not None:
            self._fill(self.box)
        elif not self._scheduled and QApplication.instance() is not None:
            self._scheduled = True
            QTimer.singleShot(0, self._show)  # not here: this may be inside a paint

    def _save_work(self) -> None:
        """Write the recovery file now, whatever the error left behind (never raises)."""
        if self.on_error is None:
            return
        try:
            self.on_error()
        except Exception as failure:  # the error is told anyway; saving is a bonus
            print(f"mtgui could not save its recovery file: {failure}", file=sys.stderr)

    def _show(self) -> None:
        """Open the dialog (from the event loop, never inside a paint or a Qt virtual)."""
        self._scheduled = False
        if not self._details or self.box is not None:
            return
        box = QMessageBox(QMessageBox.Icon.Critical, TITLE, "")
        copy = box.addButton("Copy details", QMessageBox.ButtonRole.ActionRole)
        box.addButton(QMessageBox.StandardButton.Close)
        self._fill(box)
        box.buttonClicked.connect(lambda button: self._on_clicked(button, copy))
        box.finished.connect(self._on_finished)
        self.box = box
        box.open()  # returns at once: no event loop of its own

    def _fill(self, box: QMessageBox) -> None:
        times = len(self._details)
        again = f" It happened {times} times." if times > 1 else ""
        box.setText(
            f"Something went wrong inside mtgui ({self._first}). The window stays usable, and "
            f"your files and settings are kept.{again} This is a bug; please report it with "
            "the details."
        )
        box.setDetailedText("\n".join(self._details))  # the details pane has its own copy

    def _on_clicked(self, button: QAbstractButton, copy: QAbstractButton) -> None:
        if button is copy and self.box is not None:
            QApplication.clipboard().setText(self.box.detailedText())

    def _on_finished(self) -> None:
        box, self.box = self.box, None
        self._details, self._first = [], ""
        if box is not None:
            box.deleteLater()


unexpected_errors = UnexpectedErrors()
"""The window's handler (``run_application`` makes it ``sys.excepthook``)."""
