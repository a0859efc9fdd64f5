"""The Breakdown tab: the systems' scores within groups of segments (by a document attribute
such as origlang or genre, or by the reference's length), each group bootstrapped as a test set
of its own.

Above, the key to group by and the run's progress; then a dot-and-whisker plot (one row per
group, one colour and line style per system: its score and interval side by side), the table of
the groups, and the grid of the group selected. The work runs on
:class:`~mtgui.app.breakdown.BreakdownController`'s worker thread; the view starts it when it
is shown on a result it has no breakdown of (or the key changes), and says when what it shows
is of an earlier result.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

import pyqtgraph as pg
from PySide6.QtCore import QItemSelection, QSortFilterProxyModel, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from mtgui.app.breakdown import (
    LABELS_PREFIX,
    BreakdownController,
    breakdown_keys,
    key_name,
    label_key,
)
from mtgui.engine.analysis import AnalysisResult
from mtgui.engine.breakdown import Breakdown
from mtgui.engine.metrics import LABELS
from mtgui.engine.statistics import LENGTH
from mtgui.report.significance import cluster_caption, verdict_basis
from mtgui.views.common.absent import missing_text
from mtgui.views.common.choices import refill
from mtgui.views.common.rows_table_model import SORT_ROLE
from mtgui.views.common.table_view import DataTableView
from mtgui.views.export.plot_theme import PlotTheme, follow_palette
from mtgui.views.results.breakdown_model import BreakdownTableModel
from mtgui.views.results.breakdown_plot import draw_breakdown
from mtgui.views.results.significance_grid_model import SignificanceGridModel

TABLE_ROWS = 3  # the rows the groups table and the grid keep in view, header aside
PLOT_MIN_HEIGHT = 140  # the groups' plot: shorter, its dots overlap
_KEY_LABELS = {LENGTH: "length (reference tokens)"}


class BreakdownView(QWidget):
    """Choose a key; see every group's scores and intervals, and a group's grid."""

    def __init__(self, parent: QWidget | None = None, synchronous: bool = False) -> None:
        super().__init__(parent)
        self.controller = BreakdownController(self, synchronous)
        self.result: AnalysisResult | None = None  # the analysis shown in the window
        self.breakdown: Breakdown | None = None  # the breakdown shown
        self.metric_name = ""
        self._items: list[pg.GraphicsObject] = []
        self._label_keys: list[str] = []  # label files chosen, offered with every result
        self.choose_label_file: Callable[[], Path | None] = self._ask_label_file
        self._build()
        self._connect()

    def _build(self) -> None:
        self.key = QComboBox()
        self.key.setToolTip(
            "What the segments are grouped by: an attribute of their documents, "
            "or the length of their reference in tokens."
        )
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.progress.setVisible(False)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setVisible(False)
        self.update_button = QPushButton("Update")
        self.update_button.setToolTip("Break the results shown down again.")
        self.labels_button = QPushButton("Labels from a file...")
        self.labels_button.setToolTip(
            "Group the segments by labels of your own: a TSV file with a header 'line<TAB>NAME' "
            "(a segment's number, from 1) or 'docid<TAB>NAME' (a document's id), then one label "
            "per row."
        )
        self.message = QLabel("A breakdown appears here once an analysis has run.")
        self.message.setWordWrap(True)
        self.message.setToolTip(
            "Every segment is in one group: segments whose document has no value for the key "
            "form the group (none). Groups of fewer than 10 segments get no interval."
        )
        self.message.setTextFormat(Qt.TextFormat.PlainText)
        self.status = QLabel()
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        self.plot_widget = pg.PlotWidget()
        self.plot = self.plot_widget.getPlotItem()
        self.plot.showGrid(x=True, y=False, alpha=0.3)
        self.plot.invertY(True)  # the first group on top, as in the table
        self.plot.setMenuEnabled(False)
        self.plot.getAxis("bottom").enableAutoSIPrefix(False)
        self._theme = follow_palette(self.plot_widget, self._on_theme_changed)
        self.legend = QLabel()  # under the plot: a legend inside it would hide the marks
        self.legend.setWordWrap(True)
        self.legend.setTextFormat(Qt.TextFormat.RichText)
        self.model = BreakdownTableModel(self)
        proxy = QSortFilterProxyModel(self)
        proxy.setSourceModel(self.model)
        proxy.setSortRole(SORT_ROLE)
        self.table = DataTableView(export_name="breakdown")
        self.table.setModel(proxy)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(-1, Qt.SortOrder.AscendingOrder)
        self.table.setSelectionBehavior(DataTableView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(DataTableView.SelectionMode.SingleSelection)
        self.grid_model = SignificanceGridModel(self)
        self.grid = DataTableView(export_name="breakdown-significance")
        self.grid.setModel(self.grid_model)
        self.grid_title = QLabel("Select a group to see its grid.")
        self.grid_title.setWordWrap(True)
        self.grid_title.setTextFormat(Qt.TextFormat.PlainText)
        top = QHBoxLayout()
        top.addWidget(QLabel("Group by:"))
        top.addWidget(self.key)
        top.addWidget(self.update_button)
        top.addWidget(self.labels_button)
        top.addWidget(self.progress, stretch=1)
        top.addWidget(self.cancel_button)
        top.addStretch(0)
        grid_page = QWidget()
        grid_layout = QVBoxLayout(grid_page)
        grid_layout.setContentsMargins(0, 0, 0, 0)
        grid_layout.addWidget(self.grid_title)
        grid_layout.addWidget(self.grid, stretch=1)
        lower = QSplitter(Qt.Orientation.Horizontal)
        lower.addWidget(self.table)
        lower.addWidget(grid_page)
        lower.setStretchFactor(0, 3)
        lower.setStretchFactor(1, 2)
        plot_page = QWidget()
        plot_layout = QVBoxLayout(plot_page)
        plot_layout.setContentsMargins(0, 0, 0, 0)
        plot_layout.addWidget(self.plot_widget, stretch=1)
        plot_layout.addWidget(self.legend)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(plot_page)
        split.addWidget(lower)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 1)
        split.setChildrenCollapsible(False)
        # The plot, the table and the grid keep room for a few rows each: a short window
        # (1280 x 800 at 150%) scrolls them rather than leaving each one row.
        row = self.table.verticalHeader().defaultSectionSize()
        for table in (self.table, self.grid):
            table.setMinimumHeight((TABLE_ROWS + 1) * row + 20)  # and a scroll bar
        self.plot_widget.setMinimumHeight(PLOT_MIN_HEIGHT)
        legend_lines = 3 * self.legend.fontMetrics().lineSpacing()  # a wrapped legend's room
        plot_page.setMinimumHeight(PLOT_MIN_HEIGHT + legend_lines + 8)
        self.body = QScrollArea()
        self.body.setWidget(split)
        self.body.setWidgetResizable(True)
        self.body.setFrameShape(QFrame.Shape.NoFrame)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.message)
        layout.addWidget(self.body, stretch=1)
        layout.addWidget(self.status)

    def _connect(self) -> None:
        self.key.activated.connect(self._on_key_activated)
        self.update_button.clicked.connect(self.start)
        self.labels_button.clicked.connect(self.add_label_file)
        self.cancel_button.clicked.connect(self.controller.cancel)
        self.controller.progress_changed.connect(self._on_controller_progress_changed)
        self.controller.status_changed.connect(self.status.setText)
        self.controller.finished.connect(self._on_controller_finished)
        self.controller.failed.connect(self._on_controller_failed)
        self.controller.running_changed.connect(self._on_controller_running_changed)
        self.table.selectionModel().selectionChanged.connect(self._on_table_selection_changed)

    # -- what the window tells the view ----------------------------------------------------

    def set_result(self, result: AnalysisResult | None, metric: str) -> None:
        """A new analysis is shown: offer its keys, and break it down when the view is seen.
        The whole test set decided with this view's groups (family "all") is the analysis the
        breakdown was made of, not a new one."""
        if result is not None and result is self.controller.whole:
            result = self.controller.source
        self.result, self.metric_name = result, metric
        keys = breakdown_keys(result) if result is not None else ()
        refill(self.key, [(_key_label(key), key) for key in (*keys, *self._label_keys)])
        self._say_state()
        if self.isVisible():
            self.refresh()

    def set_metric(self, metric: str) -> None:
        """Show the breakdown under ``metric`` (no new run: it has every metric)."""
        self.metric_name = metric
        self._show()

    def refresh(self) -> None:
        """Start a breakdown if the one shown is not of the result and key set now."""
        if self.result is None or self.controller.running:
            return
        if self.breakdown is None or not self._current():
            self.start()

    def start(self) -> None:
        """Break the result shown down by the key chosen."""
        if self.result is None or self.key.currentData() is None:
            return
        self.controller.start(self.result, str(self.key.currentData()))
        self._say_state()

    def showEvent(self, event: object) -> None:  # noqa: N802
        super().showEvent(event)  # type: ignore[arg-type]
        self.refresh()

    # -- state -------------------------------------------------------------------------------

    def _current(self) -> bool:
        """Whether the breakdown shown is of the result and key set now."""
        return (
            self.breakdown is not None
            and self.controller.source is self.result
            and self.breakdown.by == key_name(str(self.key.currentData()))
        )

    def _say_state(self) -> None:
        """Say whether what is shown is of the result and key set now."""
        if self.result is None:
            text = "A breakdown appears here once an analysis has run."
        elif self.breakdown is None:
            text = "Breaking the results down..." if self.controller.running else ""
        elif not self._current():
            what = "updating" if self.controller.running else "press Update to update it"
            text = (
                f"This breakdown (by {self.breakdown.by}) is of earlier results or another key "
                f"than those shown now: {what}."
            )
        elif self.controller.whole is not None:
            text = (
                f"By {self.breakdown.what}; each group scored as a test set of its own, its "
                "verdicts decided in one family with the whole test set's (family: all metrics "
                "together)."
            )
        else:
            text = f"By {self.breakdown.what}; each group scored as a test set of its own."
        lacking = self._lacking()
        self.message.setText(f"{lacking} {text}".strip() if lacking else text)

    def add_label_file(self) -> None:
        """Ask for a label file, offer it as a key and break the results down by it (the file
        is read on the worker: a problem in it is said like any other)."""
        path = self.choose_label_file()
        if path is None:
            return
        key = label_key(path)
        if key not in self._label_keys:
            self._label_keys.append(key)
            self.key.addItem(_key_label(key), key)
        self.key.setCurrentIndex(self.key.findData(key))
        self._on_key_activated()

    def _ask_label_file(self) -> Path | None:
        name, _ = QFileDialog.getOpenFileName(
            self, "Group by the labels in a file", "", "Label files (*.tsv *.txt);;All files (*)"
        )
        return Path(name) if name else None

    def _on_key_activated(self) -> None:
        self._say_state()
        self.start()

    def _on_controller_progress_changed(self, done: int, total: int) -> None:
        self.progress.setValue(int(done * 1000 / max(total, 1)))

    def _on_controller_running_changed(self, running: bool) -> None:
        self.progress.setVisible(running)
        self.cancel_button.setVisible(running)
        self._say_state()

    def _on_controller_failed(self, message: str) -> None:
        self.status.setText(message)
        self._say_state()

    def _on_controller_finished(self, breakdown: Breakdown) -> None:
        self.breakdown = breakdown
        self._show()
        self._say_state()

    # -- drawing -----------------------------------------------------------------------------

    def _lacking(self) -> str:
        """What the breakdown held lacks of the metric shown ("": nothing): a breakdown of
        earlier results may not have a metric ticked since."""
        if self.breakdown is None:
            return ""
        return missing_text(self.metric_name, self.breakdown.metrics)

    def _shown(self) -> Breakdown | None:
        """The breakdown to draw: the one held, if it has the metric shown."""
        return None if self._lacking() else self.breakdown

    def _show(self) -> None:
        """Fill the plot and the table with the breakdown shown, under the metric shown (none
        if the breakdown lacks that metric: the message says so)."""
        selected = self._selected_label()
        shown = self._shown()
        self.model.set_breakdown(shown, self.metric_name)
        self.table.resizeColumnsToContents()
        self._draw()
        self._say_state()
        rows = [g.label for g in shown.groups] if shown is not None else []
        if selected in rows or rows:
            self._select(rows.index(selected) if selected in rows else self._first_bootstrapped())
        else:
            self._show_grid(None)

    def _on_theme_changed(self, theme: PlotTheme) -> None:
        """The palette changed (a dark desktop theme): draw again in its colours."""
        self._theme = theme
        self._draw()

    def _draw(self) -> None:
        """The dot-and-whisker plot of the breakdown shown (:mod:`breakdown_plot`)."""
        for item in self._items:
            self.plot.removeItem(item)
        self._items, legend = [], ""
        shown = self._shown()
        if shown is not None:
            self._items, legend = draw_breakdown(self.plot, shown, self.metric_name, self._theme)
            widest = max(
                (self.fontMetrics().horizontalAdvance(g.label) for g in shown.groups),
                default=0,
            )
            self.plot.getAxis("left").setWidth(widest + 16)  # the group names in full
        else:  # nothing drawn: no groups and no metric named
            self.plot.setLabel("bottom", "")
            self.plot.getAxis("left").setTicks([[]])
        self.legend.setText(legend)

    # -- the grid of the group selected -----------------------------------------------------

    def _selected_label(self) -> str | None:
        rows = self.table.selectionModel().selectedRows()
        if not rows or self.model.breakdown is None:
            return None
        group = self.model.group(self.table.model().mapToSource(rows[0]).row())  # type: ignore[attr-defined]
        return None if group is None else group.label

    def _first_bootstrapped(self) -> int:
        shown = self._shown()
        groups = shown.groups if shown is not None else ()
        return next((k for k, g in enumerate(groups) if g.bootstrap is not None), 0)

    def _select(self, row: int) -> None:
        proxy = self.table.model()
        index = proxy.mapFromSource(self.model.index(row, 0))  # type: ignore[attr-defined]
        self.table.selectRow(index.row())
        self._on_table_selection_changed(QItemSelection(), QItemSelection())

    def _on_table_selection_changed(self, *_: object) -> None:
        label = self._selected_label()
        self._show_grid(label)

    def _show_grid(self, label: str | None) -> None:
        shown = self._shown()
        labels = [g.label for g in shown.groups] if shown is not None else []
        group = shown.group(label) if shown is not None and label in labels else None
        result = group.bootstrap if group is not None else None
        self.grid_model.set_result(result, self.metric_name)
        self.grid.resizeColumnsToContents()
        if group is None:
            self.grid_title.setText("Select a group to see its grid.")
        elif result is None:
            self.grid_title.setText(f"{group.label}: no grid. {' '.join(group.notes)}")
        else:
            label = LABELS.get(self.metric_name, self.metric_name)
            self.grid_title.setText(f"Group {group.label} ({label}), row against column:")
            basis = verdict_basis(result, self.metric_name)
            self.grid_title.setToolTip(
                "> the row system is significantly better than the column system, < "
                f"significantly worse, ~ not distinguishable; {basis}. "
                + cluster_caption(result, self.metric_name)
            )


def _key_label(key: str) -> str:
    """How the key chooser names a key: a label file by its file name."""
    if key.startswith(LABELS_PREFIX):
        return f"labels: {Path(key.removeprefix(LABELS_PREFIX)).name}"
    return _KEY_LABELS.get(key, key)
