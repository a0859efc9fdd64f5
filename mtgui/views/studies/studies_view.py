"""The Studies tab: how much test data, how many references, how many resamples, and whether
the metrics agree with human judgments (Zhang & Vogel 2004, section 4; Zhang, Vogel & Waibel).

The view asks for a study with ``run_requested(kind, options)``; the main window runs it on a
worker thread and hands back progress snapshots (``show_progress``) and the result
(``show_result``). A snapshot holds the study's result so far, so the plots and the table fill
as the study runs. Before a run the plot area says what the chosen study does and needs; the
status line under the buttons says how far a run is, when it finished and where an export went
(``status_changed`` carries the same sentence for the window's status line). The tables export
as the CSV files of ``mtgui study --csv``; the table shown has readable headers and values
(:func:`~mtgui.views.studies.study_columns.display_table`). The plots export as PNG or SVG.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

import pyqtgraph as pg
from PySide6.QtCore import QSortFilterProxyModel, Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from mtgui._version import __version__
from mtgui.engine.core import InputError
from mtgui.engine.metrics import LABELS
from mtgui.engine.studies import (
    TABLE4_REPEATS,
    HumanStudy,
    RefsStudy,
    SizeSettings,
    SizeStudy,
    StudyProgress,
)
from mtgui.report.files import existing_reports, write_reports
from mtgui.report.study_tables import Table, study_tables
from mtgui.report.study_text import study_text
from mtgui.views.common.choices import refill
from mtgui.views.common.dialogs import ask_folder, ask_to_replace
from mtgui.views.common.palette import problem_style
from mtgui.views.common.rows_table_model import SORT_ROLE, RowsTableModel
from mtgui.views.common.table_view import DataTableView
from mtgui.views.export.plot_actions import PlotExporter
from mtgui.views.export.plot_theme import PlotTheme, follow_palette
from mtgui.views.studies.study_canvas import FEW, StudyCanvas
from mtgui.views.studies.study_columns import display_table, table_name
from mtgui.views.studies.study_plots import Study, study_plots
from mtgui.views.studies.study_status import (
    explanation,
    finished_text,
    progress_fraction,
    progress_text,
)

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
STEPS = 1000
"""The progress bar's resolution (a run's fraction of it done)."""
TABLE_INTERVAL = 1.0
"""Seconds between refreshes of the table and the summary while a study runs (the plots follow
every snapshot; sizing the table's columns is what costs)."""


class StudiesView(QWidget):
    """Choose a study, run it, watch its plots fill, export its tables and plots."""

    # study kind, repetitions (the size and refs studies' K), the metric of loaded scores that
    # plays the humans' part in the agreement study ("": the default, human if loaded)
    run_requested = Signal(str, int, str)
    cancel_requested = Signal()
    status_changed = Signal(str)  # a study finished, or an export was written: the sentence
    exported = Signal(object)  # the Path of a folder of tables or a plot file just written

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.study: Study | None = None
        self.choose_folder: Callable[[], Path | None] = self._ask_folder
        self.confirm_overwrite: Callable[[list[Path]], bool] = self._ask_overwrite
        self._tables: dict[str, Table] = {}  # the shown study's tables, by CSV file name
        self._started: float | None = None  # when the run under way started (monotonic)
        self._seconds: float | None = None  # how long the run that just ended took
        self._table_shown = 0.0  # when the table was last refreshed (monotonic)
        self._build()

    def _build(self) -> None:
        self.kind = QComboBox()
        for key, (label, tip) in STUDIES.items():
            self.kind.addItem(label, key)
            self.kind.setItemData(self.kind.count() - 1, tip, Qt.ItemDataRole.ToolTipRole)
        self.kind.setToolTip("Which study to run on the loaded test set.")
        self.repeats = QSpinBox(minimum=1, maximum=1000, value=100)
        self.human_label = QLabel("Humans:")
        self.human_choice = QComboBox()
        self.human_choice.setToolTip(
            "Which loaded scores play the humans' part: every other metric is compared with them."
        )
        self.run_button = QPushButton("Run study")
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        self.progress = QProgressBar()
        self.progress.setVisible(False)  # until a study starts: empty, it looked like a field
        self.metric_choice = QComboBox()
        self.metric_choice.setToolTip("The metric the plots show.")
        self.band_label = QLabel("Band:")
        self.band_choice = QComboBox()
        self.band_choice.setToolTip(
            "Whose band to draw: with many systems every band overlaps the others, so one "
            "system's is drawn, the lines of all."
        )
        # Narrow (its list opens wide enough): the row also holds the table and export buttons.
        self.band_choice.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.band_choice.setMinimumContentsLength(8)
        self.table_choice = QComboBox()
        self.table_choice.setToolTip("Which of the study's tables to show.")
        self.table_choice.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        # One button with a menu: two buttons were cut at 1280 x 800 and 150%.
        self.export_button = QPushButton("Export")
        self.export_button.setToolTip("Export the study's tables (CSV) or its plots (PNG/SVG).")
        export_menu = QMenu(self.export_button)
        export_tables = export_menu.addAction("Tables (CSV)...")
        export_plots = export_menu.addAction("Plots (PNG/SVG)...")
        self.export_button.setMenu(export_menu)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setStyleSheet(problem_style(self.palette()))
        self.status = QLabel()  # how far a run is, when it finished, where an export went
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.message.setVisible(False)
        self.status.setVisible(False)
        top = QHBoxLayout()
        choices: tuple[QWidget, ...] = (
            QLabel("Study:"),
            self.kind,
            self.human_label,
            self.human_choice,
            QLabel("Repetitions:"),
            self.repeats,
        )
        for choice in choices:
            top.addWidget(choice)
        top.addStretch(1)
        # Run and its progress on a row of their own: in one row with the study's choices,
        # at 1280 x 800 and 150%, every control was cut to a few letters.
        running = QHBoxLayout()
        for widget in (
            self.run_button,
            self.cancel_button,
            self.band_label,  # here, not beside Metric: that row holds the table
            self.band_choice,
            self.progress,
        ):
            running.addWidget(widget)
        running.addStretch(1)
        running.addWidget(self.export_button)
        second = QHBoxLayout()
        for widget in (QLabel("Metric:"), self.metric_choice, QLabel("Table:"), self.table_choice):
            second.addWidget(widget)
        second.addStretch(1)
        self.plots = pg.GraphicsLayoutWidget()
        self.canvas = StudyCanvas(self.plots)
        self.canvas.theme = follow_palette(self.plots, self._on_theme_changed)
        self.plot_exporter = PlotExporter(
            self.plots, "study", self, ready=lambda: self.study is not None
        )
        self.plot_exporter.confirm_overwrite = lambda paths: self.confirm_overwrite(paths)
        self.plot_exporter.show_problem = self.show_problem
        self.plot_exporter.caption = self.plot_caption
        self.plot_exporter.exported.connect(self._on_plot_exporter_exported)
        self.placeholder = QLabel()  # what the study does and needs, until its plots come
        self.placeholder.setWordWrap(True)
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setTextFormat(Qt.TextFormat.RichText)
        self.placeholder.setContentsMargins(40, 20, 40, 20)
        self.plot_area = QStackedWidget()
        self.plot_area.addWidget(self.placeholder)
        self.plot_area.addWidget(self.plots)
        self.table_model = RowsTableModel(self)
        proxy = QSortFilterProxyModel(self)
        proxy.setSourceModel(self.table_model)
        proxy.setSortRole(SORT_ROLE)
        self.table = DataTableView(export_name="study")
        self.table.setModel(proxy)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(-1, Qt.SortOrder.AscendingOrder)  # the study's order until a click
        self.summary = QPlainTextEdit(readOnly=True)
        self.summary.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.summary.setStyleSheet("font-family: monospace;")
        lower = QSplitter(Qt.Orientation.Horizontal)
        lower.addWidget(self.table)
        lower.addWidget(self.summary)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.plot_area)
        splitter.addWidget(lower)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addLayout(running)
        layout.addLayout(second)
        layout.addWidget(self.message)
        layout.addWidget(self.status)
        layout.addWidget(splitter, stretch=1)
        self.run_button.clicked.connect(self._on_run_clicked)
        self.cancel_button.clicked.connect(self.cancel_requested)
        self.kind.currentIndexChanged.connect(self._on_kind_changed)
        self.metric_choice.currentIndexChanged.connect(self._redraw)
        self.band_choice.currentIndexChanged.connect(self._on_band_changed)
        self.table_choice.currentIndexChanged.connect(self._show_table)
        export_tables.triggered.connect(lambda: self.export_tables())
        export_plots.triggered.connect(lambda: self.export_plots())
        self._on_kind_changed()
        self._fill_band_choice(None)

    # -- running ------------------------------------------------------------------------------

    def current_kind(self) -> str:
        """The chosen study's name (as on the command line)."""
        return str(self.kind.currentData())

    def _on_kind_changed(self) -> None:
        kind = self.current_kind()
        for widget in (self.human_label, self.human_choice):
            widget.setVisible(kind == "human")
        self.repeats.setEnabled(kind in ("size", "refs"))
        self.repeats.setValue(TABLE4_REPEATS if kind == "refs" else SizeSettings().repeats)
        self.repeats.setToolTip(
            "How many random subsets to draw at each size for Table 4 (0.1 to 1 of the test set)."
            if kind == "refs"
            else "How many random subsets to draw at each size (Zhang & Vogel use 100)."
        )
        self._show_placeholder()

    def set_external_metrics(self, names: list[str]) -> None:
        """The metrics of loaded scores the analysis shown has: any may play the humans' part
        (the one chosen stays chosen; at first human if loaded, else the first)."""
        current = self.human_metric() or ("human" if "human" in names else None)
        refill(self.human_choice, [(LABELS.get(n, n), n) for n in names], current)

    def human_metric(self) -> str:
        """The metric of loaded scores chosen to play the humans' part ("": none loaded)."""
        return str(self.human_choice.currentData() or "")

    def _on_run_clicked(self) -> None:
        self.show_problem("")
        human = self.human_metric() if self.current_kind() == "human" else ""
        self.run_requested.emit(self.current_kind(), self.repeats.value(), human)

    def set_running(self, running: bool) -> None:
        """Enable Run or Cancel; a run starts with a busy bar, until its first step is done."""
        self.run_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        if running:
            self._started = time.monotonic()
            self.progress.setVisible(True)
            self.progress.setRange(0, 0)  # busy: the first snapshot may take a while
            self._set_status(f"Starting the {STUDIES[self.current_kind()][0].lower()} study...")
        else:
            if self._started is not None:  # a result, if there is one, comes next and says so
                self._seconds = time.monotonic() - self._started
                self._set_status(f"Stopped after {self._seconds:.1f} s.")
            self._started = None
            self.progress.setRange(0, STEPS)
            self.progress.reset()
            self.progress.setFormat("%p%")
        self._show_placeholder()

    def show_problem(self, message: str) -> None:
        """Say why a study could not run."""
        self.message.setText(message)
        self.message.setVisible(bool(message))

    def show_progress(self, snapshot: StudyProgress[Study]) -> None:
        """Progress, and the partial result when it has grown."""
        done = int(progress_fraction(snapshot) * STEPS)
        if done > 0:
            if self.progress.maximum() != STEPS:
                self.progress.setRange(0, STEPS)
            self.progress.setValue(max(done, self.progress.value()))  # never back
            shown = self.progress.value() / STEPS
            # Tenths of a percent at first, so that a long study visibly moves from the start.
            self.progress.setFormat(f"{shown:.1%}" if shown < 0.1 else f"{shown:.0%}")
        self._set_status(progress_text(snapshot))
        if snapshot.partial is not self.study:
            self._show(snapshot.partial, final=False)

    def show_result(self, study: Study) -> None:
        """The finished study: how long it took and what it made."""
        self._show(study)
        self.progress.setRange(0, STEPS)
        self.progress.setValue(STEPS)
        self.progress.setFormat("%p%")
        if self._seconds is not None:
            self._announce(finished_text(study, self._seconds))
            self._seconds = None

    def _show(self, study: Study, final: bool = True) -> None:
        self.study = study
        metrics = _metrics_of(study)
        refill(self.metric_choice, [(LABELS.get(m, m), m) for m in metrics])
        self._fill_band_choice(study)
        self._redraw()
        if final or time.monotonic() - self._table_shown >= TABLE_INTERVAL:
            self._tables = study_tables(study)
            refill(self.table_choice, [(table_name(t), t) for t in self._tables])
            self._show_table()
            self.summary.setPlainText(study_text(study))

    def _set_status(self, text: str) -> None:
        self.status.setText(text)
        self.status.setVisible(bool(text))

    def _announce(self, text: str) -> None:
        """Say ``text`` in the tab's status line and to the window (``status_changed``)."""
        self._set_status(text)
        self.status_changed.emit(text)

    def _show_placeholder(self) -> None:
        """The plots once there are any; until then what the chosen study does and needs."""
        if self.canvas.items:
            self.plot_area.setCurrentWidget(self.plots)
            return
        self.placeholder.setText(explanation(self.current_kind(), self._started is not None))
        self.plot_area.setCurrentWidget(self.placeholder)

    # -- showing ------------------------------------------------------------------------------

    def _on_theme_changed(self, theme: PlotTheme) -> None:
        """The palette changed (a dark desktop theme): draw the plots again in its colours."""
        self.canvas.theme = theme
        self.canvas.clear()
        self._redraw()

    def _fill_band_choice(self, study: Study | None) -> None:
        """Offer every system of a study with bands (size, references); a new set of systems
        starts on every band when they are few, else on the first system's only."""
        banded = isinstance(study, SizeStudy | RefsStudy)
        for widget in (self.band_label, self.band_choice):
            widget.setVisible(banded)
        systems = list(study.systems) if study is not None and banded else []
        items = [("every system", ""), *((name, name) for name in systems)]
        known = [self.band_choice.itemData(i) for i in range(self.band_choice.count())]
        if known != [data for _, data in items]:
            refill(self.band_choice, items, "" if len(systems) <= FEW else systems[0])
        self.canvas.banded = self.band_choice.currentData() or None

    def _on_band_changed(self) -> None:
        self.canvas.banded = self.band_choice.currentData() or None
        self._redraw()

    def _redraw(self) -> None:
        """Draw the study's plots for the chosen metric (updated in place while it runs)."""
        if self.study is None or not self.metric_choice.currentData():
            self.canvas.clear()
        else:
            self.canvas.draw(study_plots(self.study, str(self.metric_choice.currentData())))
        self._show_placeholder()

    def _show_table(self) -> None:
        if self.study is None or not self.table_choice.currentData():
            self.table_model.set_table([], [])
            return
        name = str(self.table_choice.currentData())
        header, rows, tips = display_table(*self._tables[name], interval_method(self.study))
        self.table.export_name = name.removesuffix(".csv")
        self.table_model.set_table(header, rows, tips)
        self.table.resizeColumnsToContents()
        self._table_shown = time.monotonic()

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
            write_reports(folder, tables, overwrite=True, preamble=self.provenance())
        except InputError as error:
            self.show_problem(error.message)
            return
        self.show_problem("")
        self._announce(f"Wrote {len(tables)} CSV files to {folder}.")
        self.exported.emit(folder)

    def provenance(self) -> list[str]:
        """What made the study shown: each exported file's comment lines or caption."""
        if self.study is None:
            return []
        name = STUDIES[_kind_of(self.study)][0]
        return [f"mtgui {__version__}", f"{name} study", f"Signature: {self.study.signature}"]

    def plot_caption(self) -> list[str]:
        """Under an exported image: whose bands are drawn, then what made the study."""
        banded = self.band_choice.currentData() if self.band_choice.isVisibleTo(self) else None
        bands = [f"Bands drawn for {banded} only; lines for every system."] if banded else []
        return [*bands, *self.provenance()]

    def export_plots(self) -> None:
        """Save the plots shown as one PNG or SVG file; ask before replacing."""
        self.plot_exporter.export()

    def _on_plot_exporter_exported(self, path: Path) -> None:
        count = len(self.canvas.items)
        plots = "the plot" if count == 1 else f"the {count} plots"
        self._announce(f"Wrote {plots} to {path}.")
        self.exported.emit(path)

    def _ask_overwrite(self, existing: list[Path]) -> bool:
        return ask_to_replace(self, existing)

    def _ask_folder(self) -> Path | None:
        return ask_folder(self, "Export the study's tables into")


def _kind_of(study: Study) -> str:
    """A study's key in :data:`STUDIES`."""
    kinds = {SizeStudy: "size", RefsStudy: "refs", HumanStudy: "human"}
    return next((key for kind, key in kinds.items() if isinstance(study, kind)), "resamples")


def _metrics_of(study: Study) -> list[str]:
    """The metrics a study's plots can show (the human study: the automatic ones)."""
    if isinstance(study, HumanStudy):
        return [c.metric for c in study.correlations]
    return list(study.metrics)


def interval_method(study: Study | None) -> str:
    """How the study's score intervals were made, as the tooltips of their bounds say it: the
    human study's bootstrap reads its intervals by the method chosen (resolved for its units);
    the other studies take percentiles of their subsets' or resamples' scores."""
    if isinstance(study, HumanStudy) and study.bootstrap is not None:
        return study.bootstrap.settings.interval.label
    return "percentile"
