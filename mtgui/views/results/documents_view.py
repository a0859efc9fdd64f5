"""The Documents tab: two systems' scores document by document, to see where one wins.

Each document is scored as a test set of its own, exactly as ``mteval-v13a.pl -d`` scores it
(:mod:`mtgui.engine.statistics.documents`): the documents where A gains most on B come first, every
column sorts on a click, and a double-click opens the Segments view on the two systems,
filtered to that document. Summing the statistics rows per document takes about a millisecond
for 2,737 segments and 8 systems (WMT14 en-de), so it is done here, on the GUI thread, when
the tab is shown or a choice changes. Plain text has no documents: the tab says so.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from mtgui.engine.analysis import AnalysisResult
from mtgui.engine.core import TestSet
from mtgui.engine.statistics import DocumentGrouping, document_scores
from mtgui.views.common.choices import refill
from mtgui.views.common.table_view import DataTableView
from mtgui.views.results.documents_model import DIFFERENCE, DocumentsModel, DocumentTable
from mtgui.views.results.pair_of_systems import PairOfSystemsView

NO_DOCUMENTS = (
    "This test set has no documents (plain text, one segment per line), so there are no "
    "document scores. Load SGML or WMT XML files, which say which document each segment is in."
)


class DocumentsView(PairOfSystemsView):
    """Compare two systems document by document."""

    segments_requested = Signal(str, str, str)  # systems A and B, and a document id

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._grouping: tuple[TestSet, DocumentGrouping] | None = None  # of the shown test set
        self._build()

    def _build(self) -> None:
        self._make_choosers(
            "System A: its scores are in the first score column.",
            "System B: its scores are in the second score column.",
            "The metric each document is scored with.",
        )
        for combo in (self.system_a, self.system_b, self.metric_choice):
            combo.currentIndexChanged.connect(self._on_choice_changed)
        self.count = QLabel()
        # Two rows: the pair, then the metric and the count. In one row, at 1280 x 800 and
        # 150%, the systems' names were cut to a few letters.
        pair, metric = QHBoxLayout(), QHBoxLayout()
        for widget in (QLabel("A:"), self.system_a, QLabel("B:"), self.system_b, self.swap_button):
            pair.addWidget(widget)
        pair.addStretch(1)
        metric.addWidget(QLabel("Metric:"))
        metric.addWidget(self.metric_choice)
        metric.addStretch(1)
        metric.addWidget(self.count)
        top = QVBoxLayout()
        top.addLayout(pair)
        top.addLayout(metric)
        self.reading = QLabel(
            "Each document scored as a test set of its own (as mteval-v13a -d), the documents "
            "where A gains most on B first. Double-click a document to see its segments."
        )
        self.reading.setWordWrap(True)
        self.message = QLabel()  # why there is nothing to show
        self.message.setWordWrap(True)
        self.message.setTextFormat(Qt.TextFormat.PlainText)
        self.message.setVisible(False)
        self.model = DocumentsModel(self)
        self.table = DataTableView(export_name="documents")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setSortingEnabled(True)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.verticalHeader().setDefaultSectionSize(self.table.fontMetrics().height() + 8)
        self.table.sortByColumn(DIFFERENCE, Qt.SortOrder.DescendingOrder)
        self.table.setToolTip("Double-click a document to see its segments of the two systems.")
        self.table.doubleClicked.connect(self._on_table_double_clicked)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.reading)
        layout.addWidget(self.message)
        layout.addWidget(self.table, stretch=1)
        layout.addStretch(0)  # without the table (plain text), all stays at the top

    # -- what is shown ------------------------------------------------------------------------

    def set_result(self, result: AnalysisResult | None, metric: str | None = None) -> None:
        """Show a finished analysis on ``metric``; A and B stay if the result still has them,
        else they become the two best systems."""
        previous = self.pair() if self.result is not None else None
        self.result = result
        if result is None:
            self.clear()
            return
        statistics = result.statistics
        names = [m.name for m in statistics.metrics]
        metric = metric if metric in names else names[0]
        refill(self.metric_choice, [(m.label, m.name) for m in statistics.metrics], metric)
        systems = statistics.system_names
        assert self.result is not None
        ranked = self.result.statistics.ranked_systems(metric)
        pair = previous if previous and all(s in systems for s in previous) else None
        first, second = pair or (ranked[0], ranked[min(1, len(ranked) - 1)])
        refill(self.system_a, [(name, name) for name in systems], first)
        refill(self.system_b, [(name, name) for name in systems], second)  # no signals
        self._show_table()

    def clear(self) -> None:
        """Show nothing."""
        self.result, self._grouping = None, None
        for combo in (self.system_a, self.system_b, self.metric_choice):
            refill(combo, [])
        self.model.set_table(None)
        self.count.clear()
        self.message.setVisible(False)

    def _show_pair(self) -> None:
        self._show_table()

    def _show_table(self) -> None:
        """Score the documents of the chosen pair under the chosen metric, and show them."""
        if self.result is None:
            return
        test_set = self.result.corpus.test_set
        has_documents = test_set.has_documents
        self.message.setText("" if has_documents else NO_DOCUMENTS)
        self.message.setVisible(not has_documents)
        self.table.setVisible(has_documents)
        self.reading.setVisible(has_documents)
        if not has_documents:
            self.model.set_table(None)
            self.count.clear()
            return
        grouping = self._documents_of(test_set)
        statistics, (a, b) = self.result.statistics, self.pair()
        metric = statistics.metric(self.current_metric())
        table = DocumentTable(
            grouping.documents,
            grouping.segments,
            document_scores(statistics, grouping, a, metric.name),
            document_scores(statistics, grouping, b, metric.name),
            (a, b),
            metric.label,
            metric.higher_is_better,
        )
        self.model.set_table(table)
        self.table.resizeColumnsToContents()
        self.count.setText(f"{table.size:,} documents, {test_set.size:,} segments")

    def _documents_of(self, test_set: TestSet) -> DocumentGrouping:
        """The test set's documents, worked out once per test set."""
        if self._grouping is None or self._grouping[0] is not test_set:
            self._grouping = (test_set, DocumentGrouping.of(test_set))
        return self._grouping[1]

    def _on_table_double_clicked(self, index: QModelIndex) -> None:
        if index.isValid() and self.model.table is not None:
            a, b = self.pair()
            self.segments_requested.emit(a, b, self.model.document(index.row()))
