"""Exporting the report to send (HTML, or PDF) of the result shown, off the GUI thread.

The HTML is made from the result on a worker thread and written atomically. A PDF is made by
a function the window hands in (Qt's PDF writer lives with the widgets, :mod:`mtgui.views`), on
the same worker thread: Qt's text documents and PDF writer may be used outside the GUI thread
when nothing else shares them. The file chosen is never one the user loaded.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Generator
from datetime import datetime
from functools import partial
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from mtgui.app.exports import EXPORT_WAIT_MS
from mtgui.app.runs import RunController
from mtgui.engine.analysis import AnalysisResult
from mtgui.io.writers import check_writable, write_bytes_atomic, write_text_atomic
from mtgui.report.html_report import html_report, report_title

PdfMaker = Callable[[str, str], bytes]
"""Makes a PDF from an HTML report and its title
(:func:`mtgui.views.export.pdf_export.pdf_bytes`)."""


class DocumentExport(QObject):
    """Writes the HTML report, or its PDF, of a result to a file the user chose."""

    status_changed = Signal(str)  # a message for the status line
    problem_changed = Signal(str)  # why the report could not be written
    written = Signal(object)  # the Path written

    def __init__(self, parent: QObject | None = None, synchronous: bool = False) -> None:
        super().__init__(parent)
        self.runs = RunController(self, synchronous)
        self.runs.finished.connect(self._on_finished)
        self.runs.failed.connect(self.problem_changed)

    def start(
        self,
        path: Path,
        result: AnalysisResult,
        inputs: Collection[Path],
        make_pdf: PdfMaker | None = None,
    ) -> None:
        """Write the report of ``result`` to ``path`` (as PDF through ``make_pdf`` when given),
        never over one of ``inputs``; the user already agreed to replace an existing file."""
        check_writable(path, overwrite=True, inputs=inputs)
        self.runs.start(partial(_iter_write, path, result, make_pdf, datetime.now().astimezone()))
        self.runs.settle(EXPORT_WAIT_MS)

    def _on_finished(self, path: Path) -> None:
        self.status_changed.emit(f"Wrote the report to {path}.")
        self.written.emit(path)


def _iter_write(
    path: Path, result: AnalysisResult, make_pdf: PdfMaker | None, created: datetime
) -> Generator[str, None, Path]:
    """Make the report and write it (for a worker thread); the path written."""
    page = html_report(result.corpus, result.statistics, result.bootstrap, created)
    yield "made"
    if make_pdf is None:
        write_text_atomic(path, page)
    else:
        write_bytes_atomic(path, make_pdf(page, report_title(result.corpus)))
    yield "written"
    return path
