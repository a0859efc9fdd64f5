"""The Segments tab: two systems side by side, segment by segment, to see why one wins.

The table lists every segment with both systems' sentence scores and their difference, the
segments where A gains most first; each column sorts on a click (in the model, with numpy).
Below it, the selected segment: the source, both outputs and every reference, each token
shaded by the longest matched n-gram that covers it (BLEU's clipped matches, counted as the
metrics count them), with the segment's matches per order. Matches are worked out only for the
selected segment, so the tab stays quick on 100,000 segments.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QItemSelectionModel, QModelIndex, Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from mtgui.engine.analysis import AnalysisResult
from mtgui.engine.metrics import MetricSettings, SegmentMatches, match_segment
from mtgui.views.common.choices import refill
from mtgui.views.common.table_view import DataTableView
from mtgui.views.results.pair_of_systems import PairOfSystemsView
from mtgui.views.results.segments_html import Side, page_colors, segment_html
from mtgui.views.results.segments_model import (
    DIFFERENCE,
    DOCUMENT,
    SegmentsModel,
    SegmentTable,
    segments_containing,
)

_FILTER_DELAY_MS = 300
_SIZE_SAMPLE = 25  # rows measured when fitting the columns to their contents (100: 12 ms)


class SegmentsView(PairOfSystemsView):
    """Compare two systems segment by segment."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = MetricSettings()
        self._matches: tuple[int, SegmentMatches, SegmentMatches] | None = None
        self._html = ""  # what the details pane shows (Qt rewrites it; tests read this)
        self.document: str | None = None  # the only document shown (the Documents view's)
        self._filter_timer = QTimer(self, singleShot=True, interval=_FILTER_DELAY_MS)
        self._filter_timer.timeout.connect(self.apply_filter)
        self._build()

    def _build(self) -> None:
        self._make_choosers(
            "System A: its output is shown on the left.",
            "System B: its output is shown on the right.",
            "The metric of the sentence scores in the table.",
        )
        self.find_box = QLineEdit(clearButtonEnabled=True)
        self.find_box.setMinimumWidth(220)
        self.find_box.setPlaceholderText("Find text...")
        self.find_box.setToolTip(
            "Show only the segments whose source, references or the two outputs contain this "
            "text (ignoring case)."
        )
        self.document_button = QPushButton()  # says which document is shown; shows them all
        self.document_button.setToolTip("Show the segments of every document again.")
        self.document_button.setVisible(False)
        self.document_button.clicked.connect(self._on_document_button_clicked)
        self.count = QLabel()
        widest = "100,000 of 100,000 segments"  # room for any count: the bar must not jump
        self.count.setMinimumWidth(self.count.fontMetrics().horizontalAdvance(widest) + 8)
        # Two rows: the pair and the metric, then the search. In one row, at 1280 x 800 and
        # 150%, the systems' names and the find box were cut to a few letters.
        pair, search = QHBoxLayout(), QHBoxLayout()
        widgets: list[QWidget] = [QLabel("A:"), self.system_a, QLabel("B:"), self.system_b]
        widgets += [self.swap_button, QLabel("Metric:"), self.metric_choice]
        for widget in widgets:
            pair.addWidget(widget)
        pair.addStretch(1)
        search.addWidget(self.document_button)
        search.addWidget(self.find_box, stretch=1)
        search.addWidget(self.count)
        top = QVBoxLayout()
        top.addLayout(pair)
        top.addLayout(search)
        self.model = SegmentsModel(self)
        self.table = self._build_table()
        self.details = QTextBrowser()
        self.details.setOpenLinks(False)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.table)
        splitter.addWidget(self.details)
        splitter.setSizes([300, 300])
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(splitter, stretch=1)
        for combo in (self.system_a, self.system_b, self.metric_choice):
            combo.currentIndexChanged.connect(self._on_choice_changed)
        self.find_box.textChanged.connect(self._filter_timer.start)
        self.find_box.returnPressed.connect(self.apply_filter)

    def _build_table(self) -> QTableView:
        table = DataTableView(export_name="segments")
        table.setModel(self.model)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        table.setSortingEnabled(True)
        table.verticalHeader().setVisible(False)
        # Fixed row heights: the view need not measure 100,000 rows.
        table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        table.verticalHeader().setDefaultSectionSize(table.fontMetrics().height() + 8)
        table.horizontalHeader().setResizeContentsPrecision(_SIZE_SAMPLE)
        table.sortByColumn(DIFFERENCE, Qt.SortOrder.DescendingOrder)
        table.selectionModel().currentRowChanged.connect(self._on_table_current_changed)
        return table

    # -- what is shown ------------------------------------------------------------------------

    def set_result(
        self,
        result: AnalysisResult | None,
        metric_settings: MetricSettings | None = None,
        metric: str | None = None,
    ) -> None:
        """Show a finished analysis; A and B become the two best systems under ``metric``.

        ``metric_settings`` must be the settings the statistics were made with (by default,
        the statistics' own), so that the highlighted matches are the ones the metrics counted.
        """
        self.result = result
        if result is None:
            self.clear()
            return
        statistics = result.statistics
        self.settings = metric_settings or statistics.settings
        names = [m.name for m in statistics.metrics]
        metric = metric if metric in names else names[0]
        refill(self.metric_choice, [(m.label, m.name) for m in statistics.metrics], metric)
        assert self.result is not None
        ranked = self.result.statistics.ranked_systems(metric)
        systems = [(name, name) for name in statistics.system_names]
        refill(self.system_a, systems, ranked[0])
        refill(self.system_b, systems, ranked[min(1, len(ranked) - 1)])
        self._show_table(keep_segment=False)

    def clear(self) -> None:
        """Show nothing."""
        self.result, self._matches = None, None
        for combo in (self.system_a, self.system_b, self.metric_choice):
            refill(combo, [])
        self.model.set_table(None)
        self._html = ""
        self.details.clear()
        self.count.clear()

    def _show_pair(self) -> None:
        self._show_table(keep_segment=True)

    def _show_table(self, keep_segment: bool) -> None:
        """Fill the table for the chosen pair and metric, keeping the selected segment."""
        if self.result is None:
            return
        current = self.current_segment() if keep_segment else None
        statistics, test_set = self.result.statistics, self.result.corpus.test_set
        (a, b), metric = self.pair(), statistics.metric(self.current_metric())
        table = SegmentTable(
            test_set.doc_ids,
            test_set.seg_ids,
            statistics.segment_scores(a, metric.name),
            statistics.segment_scores(b, metric.name),
            (a, b),
            metric.label,
            metric.higher_is_better,
        )
        self._matches = None
        self.model.set_table(table)
        self.table.setColumnHidden(DOCUMENT, not test_set.has_documents)
        self._fit_columns()
        self.apply_filter(select=current)

    def _fit_columns(self) -> None:
        """Columns as wide as their headers and first rows, the document column as its longest
        name: measuring every row of a large test set would take a noticeable moment."""
        assert self.result is not None
        self.table.resizeColumnsToContents()  # the header samples _SIZE_SAMPLE rows
        documents = self.result.corpus.test_set.documents
        if documents:
            longest = self.table.fontMetrics().horizontalAdvance(max(documents, key=len))
            width = max(self.table.columnWidth(DOCUMENT), longest + 16)
            self.table.setColumnWidth(DOCUMENT, min(width, 400))

    def filter_document(self, document: str | None) -> None:
        """Show only the segments of ``document`` (None: of every document), with the find
        box's text if any: what a double-click in the Documents view asks for."""
        self.document = document
        self.document_button.setText(f"Document {document}  \u2715" if document else "")
        self.document_button.setVisible(document is not None)
        self.apply_filter(select=-1 if document else None)  # -1: none, so the first row

    def _on_document_button_clicked(self) -> None:
        self.filter_document(None)

    def apply_filter(self, select: int | None = None) -> None:
        """Show only the segments with the text of the find box (and of the document chosen,
        if any); keep a segment selected."""
        self._filter_timer.stop()
        if self.result is None:
            return
        select = self.current_segment() if select is None else select
        needle = self.find_box.text().strip()
        mask = segments_containing(self._searched_texts(), needle) if needle else None
        test_set = self.result.corpus.test_set
        if self.document is not None and self.document in test_set.documents:
            inside = test_set.document_index() == test_set.documents.index(self.document)
            mask = inside if mask is None else mask & inside
        self.model.set_mask(mask)
        total, shown = test_set.size, self.model.rowCount()
        counted = f"{shown:,} of {total:,}" if mask is not None else f"{total:,}"
        self.count.setText(f"{counted} segments")
        row = self.model.row_of(select) if select is not None else None
        self._select_row(0 if row is None else row)

    def _searched_texts(self) -> list[tuple[str, ...]]:
        assert self.result is not None
        corpus, (a, b) = self.result.corpus, self.pair()
        texts = [corpus.system(a).hypotheses, corpus.system(b).hypotheses]
        texts += [ref.texts for ref in corpus.test_set.references]
        if corpus.test_set.source is not None:
            texts.append(corpus.test_set.source.texts)
        return texts

    # -- the selected segment -----------------------------------------------------------------

    def select_segment(self, segment: int) -> None:
        """Select a segment (its index in the test set), clearing a filter that hides it."""
        if self.model.row_of(segment) is None and self.find_box.text():
            self.find_box.clear()
            self.apply_filter(select=segment)
        row = self.model.row_of(segment)
        if row is not None:
            self._select_row(row)

    def current_segment(self) -> int | None:
        """The selected segment's index in the test set, if any."""
        index = self.table.currentIndex()
        return self.model.segment(index.row()) if index.isValid() else None

    def highlighted(self, side: str) -> list[tuple[str, int]]:
        """The selected segment's tokens of system ``'a'`` or ``'b'``, each with its order."""
        if self._matches is None:
            return []
        _, found_a, found_b = self._matches
        return (found_a if side == "a" else found_b).hypothesis.pairs()

    def details_html(self) -> str:
        """The HTML of the selected segment's details, as generated."""
        return self._html

    def _select_row(self, row: int) -> None:
        if not 0 <= row < self.model.rowCount():
            self._show_segment(None)
            return
        flags = (
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows
        )
        index = self.model.index(row, 0)
        self.table.selectionModel().setCurrentIndex(index, flags)
        self.table.scrollTo(index)
        self._show_segment(self.model.segment(row))

    def _on_table_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self._show_segment(self.model.segment(current.row()) if current.isValid() else None)

    def _show_segment(self, segment: int | None) -> None:
        if self.result is None or segment is None:
            self._matches = None
            self._html = "<p>No segment is selected.</p>"
            self.details.setHtml(self._html)
            return
        if self._matches is not None and self._matches[0] == segment:
            return  # shown already (selecting a row also reports it as the current one)
        corpus, (a, b) = self.result.corpus, self.pair()
        refs = [ref.texts[segment] for ref in corpus.test_set.references]
        found = [
            match_segment(corpus.system(s).hypotheses[segment], refs, self.settings) for s in (a, b)
        ]
        self._matches = (segment, found[0], found[1])
        self._html = self._segment_html(segment)
        self.details.setHtml(self._html)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        """A new palette (the desktop turned dark or light): draw the segment in its colours."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange and self._matches is not None:
            self._html = self._segment_html(self._matches[0])
            self.details.setHtml(self._html)

    def _sentence_bleu(self, system: str, segment: int) -> float | None:
        """The segment's sentence BLEU as the results score it (with their smoothing and
        order), on mteval's 0-1 scale as the page writes it; None if they have no BLEU."""
        assert self.result is not None
        statistics = self.result.statistics
        if not any(m.name == "bleu" for m in statistics.metrics):
            return None
        bleu = float(statistics.segment_scores(system, "bleu")[segment])
        return bleu / 100 if statistics.metric("bleu").scale == "0-100" else bleu

    def _annotations(self, system: str, segment: int) -> tuple[str, ...]:
        """What loaded judgments (MQM's) marked in the system's segment, by metric."""
        assert self.result is not None
        marked: dict[str, str] = {}  # an error once, under the first metric that has it
        for scores in self.result.corpus.scores:
            if scores.system == system:
                for text in scores.annotations.get(segment, ()):
                    marked.setdefault(text, f"{scores.metric}: {text}")
        return tuple(marked.values())

    def _segment_html(self, segment: int) -> str:
        """The selected segment's page, with both systems' sentence scores from the table."""
        assert self.result is not None and self._matches is not None
        table, label = self.model.table, self.result.statistics.metric(self.current_metric()).label
        assert table is not None
        sides = [
            Side(
                name,
                found,
                label,
                float(scores[segment]),
                self._sentence_bleu(name, segment),
                self._annotations(name, segment),
            )
            for name, found, scores in zip(
                table.names, self._matches[1:], (table.score_a, table.score_b), strict=True
            )
        ]
        colors = page_colors(self.palette())  # the browser's palette changes after the view's
        return segment_html(self.result.corpus.test_set, segment, sides[0], sides[1], colors)
