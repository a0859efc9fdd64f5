"""Exporting the CSV reports of the result shown, off the GUI thread.

The tables are made on a worker thread (``samples.csv`` holds every resample's score of every
system: with B = 10,000, ten systems and three metrics, 300,000 rows and 6 MB, 0.3 s to make
and write), then the user is asked before files are replaced, then they are written on a worker
thread too. An export that takes less than :data:`EXPORT_WAIT_MS` a step is done when
:meth:`ReportExport.start` returns; a longer one never freezes the window.
"""

from __future__ import annotations

from collections.abc import Generator
from functools import partial
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from mtgui.app.runs import RunController
from mtgui.app.window_interface import Questions
from mtgui.engine.analysis import AnalysisResult
from mtgui.report.files import Table, existing_reports, report_tables, write_reports
from mtgui.report.settings_text import provenance

EXPORT_WAIT_MS = 1000
"""How long the window waits for each step of an export before going on without it."""

Tables = dict[str, Table]


class ReportExport(QObject):
    """Writes the CSV reports of a result into a folder, asking before replacing files."""

    status_changed = Signal(str)  # a message for the status line
    problem_changed = Signal(str)  # why the reports could not be written

    def __init__(
        self, questions: Questions, parent: QObject | None = None, synchronous: bool = False
    ) -> None:
        super().__init__(parent)
        self._questions = questions
        self._folder = Path()
        self._preamble: list[str] = []  # what made the result: each file's comment lines
        self._tables = RunController(self, synchronous)
        self._writes = RunController(self, synchronous)
        self._tables.finished.connect(self._on_tables_finished)
        self._writes.finished.connect(self._on_writes_finished)
        for runs in self.runs:
            runs.failed.connect(self.problem_changed)

    @property
    def runs(self) -> tuple[RunController, RunController]:
        """The runs that make the tables and write them (to stop when the application closes)."""
        return self._tables, self._writes

    def start(self, folder: Path, result: AnalysisResult) -> None:
        """Write the reports of ``result`` into ``folder`` (an export under way is dropped)."""
        self._writes.cancel()
        self._folder = folder
        self._preamble = provenance(result.statistics, result.bootstrap)
        self._tables.start(partial(_iter_tables, result))
        self._tables.settle(EXPORT_WAIT_MS)

    def _on_tables_finished(self, tables: Tables) -> None:
        existing = existing_reports(self._folder, tables)
        if existing and not self._questions.confirm_overwrite(existing):
            return
        self._writes.start(partial(_iter_write, self._folder, tables, self._preamble))
        self._writes.settle(EXPORT_WAIT_MS)

    def _on_writes_finished(self, written: list[Path]) -> None:
        self.status_changed.emit(f"Wrote {len(written)} CSV files to {self._folder}.")


def _iter_tables(result: AnalysisResult) -> Generator[str, None, Tables]:
    """Every CSV report's table, the resample scores too (for a worker thread)."""
    tables = report_tables(result.statistics, result.bootstrap, samples=True)
    yield "tables"
    return tables


def _iter_write(
    folder: Path, tables: Tables, preamble: list[str]
) -> Generator[str, None, list[Path]]:
    """Write ``tables`` into ``folder``, replacing files (the user said yes), each headed by
    the ``preamble`` comments; the files written."""
    written = write_reports(folder, tables, overwrite=True, preamble=preamble)
    yield "written"
    return written
