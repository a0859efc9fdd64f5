"""The Studies tab: how much test data, how many references, how many resamples, and whether
the metrics agree with human judgments (Zhang & Vogel 2004, section 4; Zhang, Vogel & Waibel).

The view asks for a study with ``run_requested(kind, options)``; the main window runs it on a
worker thread and hands back progress snapshots (``show_progress``) and the result
(``show_result``). A snapshot holds the study's result so far, so the plots and the table fill
as the study runs. The tables export as the CSV files of ``mtgui study --csv``, the plots as PNG
or SVG.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QSortFilterProxyModel, Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from mtgui.engine.errors import InputError
from mtgui.engine.studies.common import StudyProgress
from mtgui.engine.studies.human.study import HumanStudy
from mtgui.engine.studies.refs.study import TABLE4_REPEATS
from mtgui.engine.studies.size.study import SizeSettings
from mtgui.report.files import existing_reports, write_reports
from mtgui.report.study_tables import Table, study_tables
from mtgui.report.study_text import study_text
from mtgui.views.choices import refill
from mtgui.views.dialogs import ask_to_replace
from mtgui.views.palette import series_color, series_style
from mtgui.views.plot_actions import PlotExporter
from mtgui.views.rows_table_model import RowsTableModel
from mtgui.views.score_table_model import SORT_ROLE
from mtgui.views.study_columns import column_tips
from mtgui.views.study_plots import PlotSpec, Study, study_plots
from mtgui.views.table_view import DataTableView

STUDIES = {
    "size": (
        "Test-set size",
        "How the scores and their intervals change with the amount of test data.",
    ),
    "refs": (
        "Number of references",
        "How the scores and intervals change with 1, 2, ... references.",
    ),
    "resamples": (
        "Number of resamples",
        "Whether B resamples are enough: intervals by B, and their stability.",
    ),
    "human": (
        "Agreement with humans",
        "How well each metric agrees with the human scores, and where they disagree.",
    ),
}
LineItems = tuple[
    pg.PlotDataItem, pg.PlotDataItem | None, pg.PlotDataItem | None, pg.TextItem | None
]
PlotItems = tuple[pg.PlotItem, list[LineItems]]


class StudiesView(QWidget):
    """Choose a study, run it, watch its plots fill, export its tables and plots."""

    run_requested = Signal(str, int)  # study kind, repetitions (the size and refs studies' K)
    cancel_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.study: Study | None = None
        self.choose_folder: Callable[[], Path | None] = self._ask_folder
        self.confirm_overwrite: Callable[[list[Path]], bool] = self._ask_overwrite
        self._tables: dict[str, Table] = {}  # the shown study's tables, by CSV file name
        self._items: list[PlotItems] = []  # per plot: the plot and its lines' items
        self._shape: list[tuple[str, list[str]]] = []  # what the plots were made for
        self._build()

    def _build(self) -> None:
        self.kind = QComboBox()
        for key, (label, tip) in STUDIES.items():
            self.kind.addItem(label, key)
            self.kind.setItemData(self.kind.count() - 1, tip, Qt.ItemDataRole.ToolTipRole)
        self.kind.setToolTip("Which study to run on the loaded test set.")
        self.repeats = QSpinBox(minimum=1, maximum=1000, value=100)
        self.repeats.setToolTip(
            "How many random subsets to draw at each size (Zhang & Vogel use 100)."
        )
        self.run_button = QPushButton("Run study")
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        self.progress = QProgressBar()
        self.metric_choice = QComboBox()
        self.metric_choice.setToolTip("The metric the plots show.")
        self.table_choice = QComboBox()
        self.table_choice.setToolTip("Which of the study's tables to show.")
        export_tables = QPushButton("Export tables (CSV)...")
        export_plots = QPushButton("Export plots (PNG/SVG)...")
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #B00020;")
        top = QHBoxLayout()
        for widget in (
            QLabel("Study:"),
            self.kind,
            QLabel("Repetitions:"),
            self.repeats,
            self.run_button,
            self.cancel_button,
            self.progress,
        ):
            top.addWidget(widget)
        second = QHBoxLayout()
        for widget in (QLabel("Metric:"), self.metric_choice, QLabel("Table:"), self.table_choice):
            second.addWidget(widget)
        second.addStretch(1)
        second.addWidget(export_tables)
        second.addWidget(export_plots)
        self.plots = pg.GraphicsLayoutWidget()
        self.plots.setBackground("w")
        self.plot_exporter = PlotExporter(
            self.plots, "study", self, ready=lambda: self.study is not None
        )
        self.plot_exporter.confirm_overwrite = lambda paths: self.confirm_overwrite(paths)
        self.plot_exporter.show_problem = self.show_problem
        self.table_model = RowsTableModel(self)
        proxy = QSortFilterProxyModel(self)
        proxy.setSourceModel(self.table_model)
        proxy.setSortRole(SORT_ROLE)
        self.table = DataTableView(export_name="study")
        self.table.setModel(proxy)
        self.table.setSortingEnabled(True)
        self.summary = QPlainTextEdit(readOnly=True)
        self.summary.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.summary.setStyleSheet("font-family: monospace;")
        lower = QSplitter(Qt.Orientation.Horizontal)
        lower.addWidget(self.table)
        lower.addWidget(self.summary)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.plots)
        splitter.addWidget(lower)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addLayout(second)
        layout.addWidget(self.message)
        layout.addWidget(splitter, stretch=1)
        self.run_button.clicked.connect(self._on_run_clicked)
        self.cancel_button.clicked.connect(self.cancel_requested)
        self.kind.currentIndexChanged.connect(self._on_kind_changed)
        self.metric_choice.currentIndexChanged.connect(self._redraw)
        self.table_choice.currentIndexChanged.connect(self._show_table)
        export_tables.clicked.connect(self.export_tables)
        export_plots.clicked.connect(self.export_plots)
        self._on_kind_changed()

    # -- running ------------------------------------------------------------------------------

    def current_kind(self) -> str:
        """The chosen study's name (as on the command line)."""
        return str(self.kind.currentData())

    def _on_kind_changed(self) -> None:
        kind = self.current_kind()
        self.repeats.setEnabled(kind in ("size", "refs"))
        self.repeats.setValue(TABLE4_REPEATS if kind == "refs" else SizeSettings().repeats)
        self.repeats.setToolTip(
            "How many random subsets to draw at each size for Table 4 (0.1 to 1 of the test set)."
            if kind == "refs"
            else "How many random subsets to draw at each size (Zhang & Vogel use 100)."
        )

    def _on_run_clicked(self) -> None:
        self.message.clear()
        self.run_requested.emit(self.current_kind(), self.repeats.value())

    def set_running(self, running: bool) -> None:
        """Enable Run or Cancel."""
        self.run_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        if not running:
            self.progress.reset()

    def show_problem(self, message: str) -> None:
        """Say why a study could not run."""
        self.message.setText(message)

    def show_progress(self, snapshot: StudyProgress[Study]) -> None:
        """Progress, and the partial result when it has grown."""
        self.progress.setRange(0, max(snapshot.total, 1))
        self.progress.setValue(snapshot.done)
        if snapshot.partial is not self.study:
            self._show(snapshot.partial)

    def show_result(self, study: Study) -> None:
        """The finished study."""
        self._show(study)

    def _show(self, study: Study) -> None:
        self.study = study
        refill(self.metric_choice, [(m, m) for m in _metrics_of(study)])
        self._tables = study_tables(study)
        refill(self.table_choice, [(t.removesuffix(".csv"), t) for t in self._tables])
        self._redraw()
        self._show_table()
        self.summary.setPlainText(study_text(study))

    # -- showing ------------------------------------------------------------------------------

    def _redraw(self) -> None:
        """Draw the study's plots: made once per study and metric, then updated in place."""
        if self.study is None or not self.metric_choice.currentData():
            self._clear_plots()
            return
        specs = study_plots(self.study, str(self.metric_choice.currentData()))
        shape = [(spec.title.split(" (")[0], [line.name for line in spec.lines]) for spec in specs]
        if shape != self._shape:
            self._clear_plots()
            self._shape = shape
            for column, spec in enumerate(specs):
                self._items.append(self._make_plot(self.plots.addPlot(row=0, col=column), spec))
        for items, spec in zip(self._items, specs, strict=True):
            plot, lines = items
            plot.setTitle(spec.title, size="9pt")
            for (curve, low, high, label), line in zip(lines, spec.lines, strict=True):
                # Only finite points: a study under way has gaps (NaN), which Qt cannot draw.
                xs, ys = np.asarray(line.xs, float), np.asarray(line.ys, float)
                shown = np.isfinite(xs) & np.isfinite(ys)
                if spec.log_x:
                    shown &= xs > 0
                if spec.log_y:
                    shown &= ys > 0
                curve.setData(xs[shown], ys[shown])
                if low is not None and high is not None and line.low and line.high:
                    bottom, top = np.asarray(line.low, float), np.asarray(line.high, float)
                    band = shown & np.isfinite(bottom) & np.isfinite(top)
                    low.setData(xs[band], bottom[band])
                    high.setData(xs[band], top[band])
                if label is not None and shown.any():
                    label.setPos(float(xs[shown][0]), float(ys[shown][0]))

    def _clear_plots(self) -> None:
        """Remove every plot (the items are kept referenced until they leave the scene)."""
        self.plots.clear()
        self._items, self._shape = [], []

    def _make_plot(self, plot: pg.PlotItem, spec: PlotSpec) -> PlotItems:
        """A plot with one (empty) curve per line, a band where the line has one."""
        plot.setLabel("bottom", spec.x_label)
        plot.setLabel("left", spec.y_label)
        plot.setLogMode(x=spec.log_x, y=spec.log_y)
        for axis in ("bottom", "left"):
            plot.getAxis(axis).enableAutoSIPrefix(False)
        plot.addLegend(labelTextColor=(40, 40, 40))
        plot.showGrid(x=True, y=True, alpha=0.2)
        lines: list[LineItems] = []
        for number, line in enumerate(spec.lines):
            color = series_color(number)
            if spec.scatter:
                curve = plot.plot(pen=None, symbol="o", symbolBrush=color, name=line.name)
                label = pg.TextItem(line.name, color=(40, 40, 40), anchor=(0, 1))
                plot.addItem(label)
                lines.append((curve, None, None, label))
                continue
            pen = pg.mkPen(color, width=2, style=series_style(number))
            curve = plot.plot(pen=pen, symbol="o", symbolSize=5, symbolBrush=color, name=line.name)
            low = high = None
            if line.low is not None and line.high is not None:
                low, high = pg.PlotDataItem(pen=None), pg.PlotDataItem(pen=None)
                plot.addItem(low)
                plot.addItem(high)
                plot.addItem(pg.FillBetweenItem(low, high, brush=(*color, 40)))
            lines.append((curve, low, high, None))
        return plot, lines

    def _show_table(self) -> None:
        if self.study is None or not self.table_choice.currentData():
            self.table_model.set_table([], [])
            return
        name = str(self.table_choice.currentData())
        header, rows = self._tables[name]
        self.table.export_name = name.removesuffix(".csv")
        self.table_model.set_table(header, rows, column_tips(header))
        self.table.resizeColumnsToContents()

    # -- export -------------------------------------------------------------------------------

    def export_tables(self) -> None:
        """Write every table of the study as CSV into a chosen folder; ask before replacing."""
        if self.study is None:
            return
        folder = self.choose_folder()
        if folder is None:
            return
        tables = self._tables
        existing = existing_reports(folder, tables)
        if existing and not self.confirm_overwrite(existing):
            return
        try:
            write_reports(folder, tables, overwrite=True)
        except InputError as error:
            self.show_problem(error.message)
            return
        self.message.setText("")

    def export_plots(self) -> None:
        """Save the plots shown as one PNG or SVG file; ask before replacing."""
        self.plot_exporter.export()

    def _ask_overwrite(self, existing: list[Path]) -> bool:
        return ask_to_replace(self, existing)

    def _ask_folder(self) -> Path | None:
        name = QFileDialog.getExistingDirectory(self, "Export the study's tables into")
        return Path(name) if name else None


def _metrics_of(study: Study) -> list[str]:
    """The metrics a study's plots can show (the human study: the automatic ones)."""
    if isinstance(study, HumanStudy):
        return [c.metric for c in study.correlations]
    return list(study.metrics)
