"""The Details tab: where BLEU and NIST scores come from, n-gram order by n-gram order.

For the chosen metric, two tables: one row per system with the score and what scales it (BLEU's
brevity penalty, NIST's length penalty, the length ratio), then one row per system and n-gram
order with the counts behind the score -- BLEU's modified precisions (Papineni et al. 2002) and
NIST's contribution table (Zhang, Vogel & Waibel 2004, Table 1). "All systems" lists every
system, best first, so that orders can be compared across systems (sort by n to put them side by
side); one system gives the paper's table for that system. The numbers are the engine's own
(``Metric.summary`` and ``Metric.details`` of the totals), the same as the JSON report's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QSortFilterProxyModel, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QSplitter,
    QStyle,
    QVBoxLayout,
    QWidget,
)

from mtgui.engine.analysis import AnalysisResult
from mtgui.views.common.choices import refill
from mtgui.views.common.rows_table_model import SORT_ROLE, RowsTableModel
from mtgui.views.common.table_view import DataTableView
from mtgui.views.inputs.settings_panel import LABELS

Column = tuple[str, str, str]  # header, key in the engine's summary/details, tooltip
ALL_SYSTEMS = "All systems"
SYSTEM: Column = ("System", "system", "The system the row is about; the best system first.")

SUMMARY: dict[str, tuple[Column, ...]] = {
    "bleu": (
        SYSTEM,
        ("BLEU", "score", "The corpus BLEU score on the 0-1 scale, as mteval-v13a computes it."),
        (
            "BP",
            "bp",
            "The brevity penalty, exp(1 - r/c) when the output is shorter than the references, "
            "else 1 (Papineni et al. 2002).",
        ),
        ("Ratio", "ratio", "The output's length divided by the reference length (c / r)."),
        ("Hyp length", "hyp_length", "The number of words in the system's output (c)."),
        (
            "Ref length",
            "ref_length",
            "The words of the reference closest in length to each segment, summed (r).",
        ),
    ),
    "nist": (
        SYSTEM,
        ("NIST", "score", "The NIST score as mteval-v13a computes it (Doddington 2002)."),
        (
            "Precision score",
            "precision_score",
            "The sum of the orders' precision scores: NIST before the length penalty.",
        ),
        (
            "Length penalty",
            "length_penalty",
            "NIST's length penalty: 1 unless the output is shorter than the average reference, "
            "0.5 when it is two thirds as long (Doddington 2002).",
        ),
        (
            "Ratio",
            "ratio",
            "The output's length divided by the average length of the references.",
        ),
    ),
}
ORDERS: dict[str, tuple[Column, ...]] = {
    "bleu": (
        SYSTEM,
        ("n", "n", "The n-gram order: 1 for single words, 2 for word pairs, and so on."),
        ("Hyp n-grams", "hyp_ngrams", "How many n-grams of this order the system's output has."),
        (
            "Matches",
            "matches",
            "How many of them are in a reference, each counted at most as often as a reference "
            "has it (clipped counts, Papineni et al. 2002).",
        ),
        (
            "Precision",
            "precision",
            "Matches divided by hypothesis n-grams: BLEU's modified n-gram precision "
            "(Papineni et al. 2002).",
        ),
    ),
    "nist": (
        SYSTEM,
        ("n", "n", "The n-gram order: 1 for single words, 2 for word pairs, and so on."),
        (
            "Hyp n-grams",
            "hyp_ngrams",
            "How many n-grams of this order the system's output has "
            "(Zhang, Vogel & Waibel 2004, Table 1).",
        ),
        (
            "Matches",
            "matches",
            "How many of them are in a reference, clipped to the reference counts "
            "(Zhang, Vogel & Waibel 2004, Table 1).",
        ),
        (
            "Info gain",
            "info_gain",
            "The information weights of the matched n-grams, summed: rare n-grams weigh more "
            "(Doddington 2002; Zhang, Vogel & Waibel 2004, Table 1).",
        ),
        (
            "Avg info gain",
            "avg_info_gain",
            "Info gain per matched n-gram (Zhang, Vogel & Waibel 2004, Table 1).",
        ),
        (
            "Precision score",
            "precision_score",
            "Info gain divided by hypothesis n-grams: this order's part of the NIST score "
            "before the length penalty (Zhang, Vogel & Waibel 2004, Table 1).",
        ),
        (
            "Contribution %",
            "contribution_percent",
            "This order's share of the precision score, in percent "
            "(Zhang, Vogel & Waibel 2004, Table 1).",
        ),
    ),
}
EXPLANATIONS = {
    "bleu": (
        "BLEU and its brevity penalty per system; below, the modified n-gram precision of "
        "each order (Papineni et al. 2002)."
    ),
    "nist": (
        "NIST and its length penalty per system; below, how much each n-gram order "
        "contributes to the score (Zhang, Vogel & Waibel 2004, Table 1)."
    ),
}
DETAILED = ("bleu", "nist")  # the metrics with per-order details, in the order offered


def detail_rows(
    result: AnalysisResult, metric: str, systems: Sequence[str]
) -> tuple[list[list[Any]], list[list[Any]]]:
    """The summary rows and the per-order rows of ``systems`` under ``metric`` (no Qt)."""
    statistics, summary, orders = result.statistics, [], []
    engine = statistics.metric(metric)
    for system in systems:
        totals = statistics.totals(system, metric)
        values = {"system": system, "score": engine.score_one(totals), **engine.summary(totals)}
        summary.append([values[key] for _, key, _ in SUMMARY[metric]])
        for row in engine.details(totals):
            values = {"system": system, **row}
            orders.append([values[key] for _, key, _ in ORDERS[metric]])
    return summary, orders


TABLE_ROWS = 4  # the rows each table shows at the least, header aside


class DetailsView(QWidget):
    """BLEU's and NIST's per-order tables of the last analysis."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.result: AnalysisResult | None = None
        self._build()

    def _build(self) -> None:
        self.metric_choice = QComboBox()
        self.metric_choice.setToolTip("The metric whose details are shown.")
        self.system_choice = QComboBox()
        self.system_choice.setToolTip("One system, or every system one under the other.")
        self.system_choice.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.system_choice.setMinimumContentsLength(len("All systems") + 2)  # filled when hidden
        self.explanation = QLabel("Details appear here once an analysis with BLEU or NIST ends.")
        self.explanation.setWordWrap(True)
        self.summary_model, self.orders_model = RowsTableModel(self), RowsTableModel(self)
        self.summary_table = self._table(self.summary_model)
        self.orders_table = self._table(self.orders_model)
        top = QHBoxLayout()
        for widget in (QLabel("Metric:"), self.metric_choice, QLabel("System:")):
            top.addWidget(widget)
        top.addWidget(self.system_choice)
        top.addStretch(1)
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.addWidget(self._titled("Scores", self.summary_table))
        self.splitter.addWidget(self._titled("Per n-gram order", self.orders_table))
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setChildrenCollapsible(False)
        # Each table keeps room for a few rows; a short window (1280 x 800 at 150%) scrolls
        # the two of them rather than leaving each one row.
        self.body = QScrollArea()
        self.body.setWidget(self.splitter)
        self.body.setWidgetResizable(True)
        self.body.setFrameShape(QFrame.Shape.NoFrame)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.explanation)
        layout.addWidget(self.body, stretch=1)
        self.metric_choice.currentIndexChanged.connect(self._show)
        self.system_choice.currentIndexChanged.connect(self._show)

    def _table(self, model: RowsTableModel) -> DataTableView:
        proxy = QSortFilterProxyModel(self)
        proxy.setSourceModel(model)
        proxy.setSortRole(SORT_ROLE)
        view = DataTableView()
        view.setModel(proxy)
        view.setSortingEnabled(True)
        view.sortByColumn(-1, Qt.SortOrder.AscendingOrder)  # best system first until a click
        view.setAlternatingRowColors(True)
        view.verticalHeader().setVisible(False)
        row = view.fontMetrics().height() + 8
        view.verticalHeader().setDefaultSectionSize(row)  # compact
        # the header, TABLE_ROWS rows and a horizontal scroll bar
        scroll_bar = view.horizontalScrollBar().sizeHint().height()
        view.setMinimumHeight((TABLE_ROWS + 1) * row + scroll_bar + 4)
        return view

    def _titled(self, title: str, table: DataTableView) -> QWidget:
        """A table with its title and, on a line of their own under it, its copy and export
        buttons: beside the title they made the page wider than a window of 1280 x 800 at
        150% leaves it, and Export LaTeX was reached only by scrolling sideways."""
        box = QWidget()
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel(f"<b>{title}</b>"))
        layout.addWidget(table.button_bar())
        layout.addWidget(table)
        return box

    # -- showing ------------------------------------------------------------------------------

    def set_result(self, result: AnalysisResult | None) -> None:
        """Show the details of ``result`` (keeping the chosen metric and system if they remain)."""
        self.result = result
        metrics = [] if result is None else [m.name for m in result.statistics.metrics]
        shown = [m for m in DETAILED if m in metrics]
        refill(self.metric_choice, [(LABELS[m], m) for m in shown])
        self._show()

    def set_metric(self, metric: str) -> None:
        """Show ``metric`` if it has details (a host may follow its own metric chooser)."""
        index = self.metric_choice.findData(metric)
        if index >= 0:
            self.metric_choice.setCurrentIndex(index)

    def current_metric(self) -> str | None:
        """The metric shown, or None."""
        data = self.metric_choice.currentData()
        return str(data) if data else None

    def _systems(self, metric: str) -> list[str]:
        """Best first where the bootstrap ranked them, else in load order."""
        assert self.result is not None
        if metric in self.result.bootstrap.metrics:
            return [e.system for e in self.result.bootstrap.ranking(metric).systems]
        return list(self.result.statistics.system_names)

    def _show(self) -> None:
        metric = self.current_metric()
        if self.result is None or metric is None:
            self._clear()
            return
        systems = self._systems(metric)
        refill(self.system_choice, [(ALL_SYSTEMS, ""), *((s, s) for s in systems)])
        chosen = str(self.system_choice.currentData() or "")
        summary, orders = detail_rows(self.result, metric, [chosen] if chosen else systems)
        self.explanation.setText(EXPLANATIONS[metric])
        for table, model, columns, rows, part in (
            (self.summary_table, self.summary_model, SUMMARY[metric], summary, "scores"),
            (self.orders_table, self.orders_model, ORDERS[metric], orders, "orders"),
        ):
            model.set_table([h for h, _, _ in columns], rows, {h: t for h, _, t in columns})
            table.setColumnHidden(0, bool(chosen))  # one system: its name is in the chooser
            table.export_name = _file_name(f"{metric}-{part}-{chosen or 'all-systems'}")
            table.resizeColumnsToContents()
        # The scores in full where they fit; the per-order table gets the rest.
        self.splitter.setSizes([_fit_height(self.summary_table) + 40, self.height()])

    def _clear(self) -> None:
        refill(self.system_choice, [])
        self.summary_model.set_table([], [])
        self.orders_model.set_table([], [])
        self.explanation.setText(
            "Details appear here once an analysis with BLEU or NIST ends."
            if self.result is None
            else "BLEU and NIST have per-order details: tick one of them in the settings."
        )


def _fit_height(table: DataTableView) -> int:
    """Make ``table`` no taller than its rows need; return that height."""
    rows = table.model().rowCount()
    scroll_bar = table.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
    header = table.horizontalHeader().sizeHint().height()
    rows_height = rows * table.verticalHeader().defaultSectionSize()
    height = header + rows_height + scroll_bar + 2 * table.frameWidth()
    table.setMaximumHeight(height)
    return height


def _file_name(text: str) -> str:
    """A file name from any text: letters, digits, dots and dashes; the rest as '_'."""
    return re.sub(r"[^\w.-]+", "_", text).strip("._") or "table"
