"""The table view every table of mtgui uses: copy as tab-separated text, export as CSV or LaTeX.

The text is what the user sees, in the order they see it: the model's display text through any
sorting proxy, columns in their visual order (dragged columns move, hidden ones are left out),
always with the header row, and with the row names when the rows have names (the systems of the
significance grid). Ctrl+C copies the selected cells when more than one is selected, else the
whole table. Files are chosen through replaceable callables (tests need no dialog), written
atomically, and never over an existing file unless the user agrees.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QAbstractItemModel, Qt, Signal
from PySide6.QtGui import QAction, QGuiApplication, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QHBoxLayout,
    QMessageBox,
    QTableView,
    QToolButton,
    QWidget,
)

from mtgui.engine.core import InputError
from mtgui.io.writers import check_writable, write_bytes_atomic
from mtgui.report.table_text import csv_table_text, latex_text, tsv_text
from mtgui.views.common.dialogs import ask_save_path, ask_to_replace

Table = tuple[list[str], list[list[str]]]
FORMATS = {"csv": (".csv", "CSV table"), "latex": (".tex", "LaTeX table")}


class DataTableView(QTableView):
    """A QTableView that copies and exports what it shows.

    Hosts may replace ``choose_file(kind, suggested) -> Path | None`` (kind "csv" or "latex"),
    ``confirm_overwrite(paths) -> bool``, ``show_problem(message)`` and ``preamble() ->
    lines`` (what the table was made from, written as comments above an exported table);
    ``export_name`` is the suggested file name (without suffix) and the LaTeX caption comment.
    """

    exported = Signal(object)  # the Path of a file just written

    def __init__(self, parent: QWidget | None = None, export_name: str = "table") -> None:
        super().__init__(parent)
        self.export_name = export_name
        self.choose_file: Callable[[str, str], Path | None] = self._ask_file
        self.confirm_overwrite: Callable[[list[Path]], bool] = self._ask_overwrite
        self.show_problem: Callable[[str], None] = self._show_problem
        # What the table was made from, heading its CSV and LaTeX exports (not the clipboard).
        self.preamble: Callable[[], list[str]] = list
        self.copy_action = QAction("Copy (tab-separated)", self)
        self.copy_action.setShortcut(QKeySequence(QKeySequence.StandardKey.Copy))
        self.copy_action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.copy_action.setToolTip("Copy the table (or the selected cells) to paste in a sheet.")
        self.export_csv_action = QAction("Export CSV...", self)
        self.export_csv_action.setToolTip("Save the table as a CSV file.")
        self.export_latex_action = QAction("Export LaTeX...", self)
        self.export_latex_action.setToolTip("Save the table as a LaTeX booktabs table.")
        self.copy_action.triggered.connect(self.copy)
        self.export_csv_action.triggered.connect(self.export_csv)
        self.export_latex_action.triggered.connect(self.export_latex)
        self.addActions([self.copy_action, self.export_csv_action, self.export_latex_action])
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)

    # -- the text -----------------------------------------------------------------------------

    def table(self, selection_only: bool = False) -> Table:
        """Header and rows as shown; with ``selection_only``, the rows and columns that hold
        selected cells (cells left out of the selection stay empty)."""
        model = self.model()
        if model is None:
            return [], []
        rows, columns = self._visible_rows(), self._visible_columns()
        chosen = {(i.row(), i.column()) for i in self.selectedIndexes()} if selection_only else None
        if chosen:
            rows = [r for r in rows if any((r, c) in chosen for c in columns)]
            columns = [c for c in columns if any((r, c) in chosen for r in rows)]
        header = [_text(model.headerData(c, Qt.Orientation.Horizontal)) for c in columns]
        body = [
            [
                _text(model.index(r, c).data()) if not chosen or (r, c) in chosen else ""
                for c in columns
            ]
            for r in rows
        ]
        names = self._row_names(model, rows)
        if names is not None:
            header = ["", *header]
            body = [[name, *cells] for name, cells in zip(names, body, strict=True)]
        return header, body

    def _visible_columns(self) -> list[int]:
        """Logical column numbers in the order they are shown."""
        header = self.horizontalHeader()
        logical = (header.logicalIndex(v) for v in range(header.count()))
        return [c for c in logical if not self.isColumnHidden(c)]

    def _visible_rows(self) -> list[int]:
        header = self.verticalHeader()
        logical = (header.logicalIndex(v) for v in range(header.count()))
        return [r for r in logical if not self.isRowHidden(r)]

    def _row_names(self, model: QAbstractItemModel, rows: list[int]) -> list[str] | None:
        """The row headers, when the model names its rows and they are shown."""
        if self.verticalHeader().isHidden():
            return None
        names = [model.headerData(r, Qt.Orientation.Vertical) for r in rows]
        numbers = [str(r + 1) for r in rows]  # what Qt shows for a model without row names
        if all(name is None or str(name) == n for name, n in zip(names, numbers, strict=True)):
            return None
        return [_text(name) for name in names]

    def _selection_or_table(self) -> Table:
        return self.table(selection_only=len(self.selectedIndexes()) > 1)

    # -- copy and export ----------------------------------------------------------------------

    def copy(self) -> None:
        """Put the selected cells (if more than one) or the whole table on the clipboard."""
        QGuiApplication.clipboard().setText(tsv_text(*self._selection_or_table()))

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        # Ctrl+C normally reaches copy_action; should a host take that action away, QTableView
        # would copy the current cell only: copy what the user means instead.
        if event.matches(QKeySequence.StandardKey.Copy):
            self.copy()
            event.accept()
            return
        super().keyPressEvent(event)

    def export_csv(self) -> Path | None:
        """Ask for a file and write the table as CSV (UTF-8 with a BOM, as the reports)."""
        header, rows = self.table()
        text = csv_table_text(header, rows, self.preamble())
        return self._export("csv", text.encode("utf-8-sig"))

    def export_latex(self) -> Path | None:
        """Ask for a file and write the table as a LaTeX booktabs tabular."""
        header, rows = self.table()
        text = latex_text(header, rows, caption=self.export_name, preamble=self.preamble())
        return self._export("latex", text.encode("utf-8"))

    def _export(self, kind: str, data: bytes) -> Path | None:
        suffix = FORMATS[kind][0]
        path = self.choose_file(kind, self.export_name + suffix)
        if path is None:
            return None
        if not path.suffix:
            path = path.with_suffix(suffix)
        if path.exists() and not self.confirm_overwrite([path]):
            return None
        try:
            check_writable(path, overwrite=True)
            write_bytes_atomic(path, data)
        except InputError as error:
            self.show_problem(error.message)
            return None
        self.exported.emit(path)
        return path

    def button_bar(self) -> QWidget:
        """Small buttons for copy and the two exports, for a host that wants them in sight."""
        bar = QWidget()
        layout = QHBoxLayout(bar)
        layout.setContentsMargins(0, 0, 0, 0)
        for action in (self.copy_action, self.export_csv_action, self.export_latex_action):
            button = QToolButton(bar)
            button.setDefaultAction(action)
            layout.addWidget(button)
        layout.addStretch(1)
        return bar

    # -- the questions ------------------------------------------------------------------------

    def _ask_file(self, kind: str, suggested: str) -> Path | None:
        suffix, label = FORMATS[kind]
        return ask_save_path(self, f"Save the table as {label}", suggested, {suffix: label})

    def _ask_overwrite(self, existing: list[Path]) -> bool:
        return ask_to_replace(self, existing)

    def _show_problem(self, message: str) -> None:
        QMessageBox.warning(self, "The table was not saved", message)


def _text(value: object) -> str:
    """A display value as text ('' for none)."""
    return "" if value is None else str(value)
