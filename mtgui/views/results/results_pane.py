"""The right-hand side of the main window: the results, one metric at a time, in tabs.

Above the tabs are the metric chooser and three notes: the problem that keeps the analysis
from running, the note that the results shown are those of other files or settings than now,
and what to know about how they were made. The tabs show the result in words (first), the
distributions (filled while a run goes on), the scores, the significance grid, the paired view,
the segments, the documents, the details, the studies and the breakdown: one list of tabs
(:attr:`ResultsPane.result_tabs`), each behind the
:class:`~mtgui.views.results.result_tabs.ResultTab` protocol. The pane is told what to show by the
window (which connects it to the controller):
:meth:`ResultsPane.start_run` and :meth:`ResultsPane.show_scores` while a run goes on,
:meth:`ResultsPane.show_result` when it ends, :meth:`ResultsPane.clear_result` when the
controller lets its result go.

Under the family "all" with a correction, a breakdown's groups join the whole test set's family
(:mod:`mtgui.app.breakdown`): once the breakdown is made, every tab shows the whole test set as
decided in that family (:attr:`ResultsPane.result`; the analysis as it ran is
:attr:`ResultsPane.analysed`), and a note above the tabs says that the family grew with the
breakdown and the verdicts were decided again.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence

from PySide6.QtCore import QModelIndex, QSortFilterProxyModel, Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from mtgui.engine.analysis import AnalysisResult
from mtgui.engine.breakdown import Breakdown
from mtgui.engine.core import FloatArray
from mtgui.engine.resampling import RAISED
from mtgui.report.settings_text import made_with, provenance
from mtgui.views.common.choices import refill
from mtgui.views.common.compact_note import CompactNote
from mtgui.views.common.focus_frame import FocusFrameDelegate
from mtgui.views.common.palette import problem_style
from mtgui.views.common.rows_table_model import SORT_ROLE
from mtgui.views.common.table_view import DataTableView
from mtgui.views.inputs.settings_panel import LABELS
from mtgui.views.results.breakdown_view import BreakdownView
from mtgui.views.results.details_view import DetailsView
from mtgui.views.results.documents_view import DocumentsView
from mtgui.views.results.grid_legend import GridLegend
from mtgui.views.results.histogram_view import MARKS_LEGEND, HistogramView
from mtgui.views.results.paired_view import LINES_LEGEND, PairedView
from mtgui.views.results.result_tabs import (
    EagerTab,
    LazyTab,
    NewResultTab,
    ResultTab,
    ScoresTab,
    SignificanceTab,
    breakdown_tab,
    fill_paired,
    fill_segments,
    studies_tab,
)
from mtgui.views.results.score_table_model import ScoreTableModel
from mtgui.views.results.segments_view import SegmentsView
from mtgui.views.results.significance_grid_model import SignificanceGridModel
from mtgui.views.results.summary_view import SummaryView
from mtgui.views.studies.studies_view import StudiesView

GRID_ROWS = 5  # the significance grid's rows kept in view, its header aside
_NARROWEST = 320  # pixels: the results may be made this narrow to widen the files panel
_STALE_STYLE = "background: #FFF4CE; color: #3D2E00; border: 1px solid #E0C45C; padding: 4px;"


class ResultsPane(QWidget):
    """The metric chooser, the notes on the results and the tabs that show them."""

    table_exported = Signal(object)  # the Path a table or a plot was just exported to

    def __init__(
        self, metrics_ticked: Callable[[], Sequence[str]], parent: QWidget | None = None
    ) -> None:
        """``metrics_ticked`` gives the metrics set now: before a result has any, the first
        one is the metric the views show."""
        super().__init__(parent)
        self._metrics_ticked = metrics_ticked
        self.result: AnalysisResult | None = None  # the result shown (see analysed)
        self.analysed: AnalysisResult | None = None  # as the controller said; result is it, or
        # it decided again with the breakdown's groups in one family (family "all")
        self._wanted_metric: str | None = None  # a reopened session's metric, until it exists
        self._histograms_started = False
        self._histograms_behind = False  # the result's histograms are drawn at the next turn
        self._histograms_partial = False  # they show a run's partial scores, not a result
        self._study_note = ""  # the note this pane put in the studies view
        self._build()
        self._connect()

    def _build(self) -> None:
        self.metric_choice = QComboBox()
        self.metric_choice.setToolTip("The metric the views show.")
        self.problem = QLabel()
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet(problem_style(self.palette()))
        # The notes take one line each until "more...": the tabs keep their height on a
        # small screen at 150% (the problem stays whole: it says why nothing runs).
        self.notes = CompactNote("Notes on how the results shown were made.")
        self.notes.setVisible(False)
        self.stale = CompactNote(  # says when the results shown are not those of the inputs now
            "The results shown were made from other files or settings than those set now."
        )
        self.stale.setStyleSheet(_STALE_STYLE)
        self.stale.setVisible(False)
        self.joined = CompactNote(  # says when the verdicts were decided with a breakdown's groups
            "The whole test set's verdicts were decided again in one family with the groups of "
            "the breakdown (family: all metrics together)."
        )
        self.joined.setVisible(False)
        self.histograms = HistogramView()
        self.score_model, self.grid_model = ScoreTableModel(self), SignificanceGridModel(self)
        self.score_table = self._table(self.score_model, sortable=True)
        self.grid_table = self._table(self.grid_model, sortable=False)
        self.grid_table.setItemDelegate(FocusFrameDelegate(self.grid_table))  # focus seen
        self.grid_table.setToolTip(
            "Hover a cell for the numbers behind it; double-click it to see the two systems' "
            "paired differences."
        )
        self.grid_reading, self.clusters = QLabel(), QLabel()
        for label in (self.grid_reading, self.clusters):
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # Texts with names from the inputs: a "<" in a system's name is not markup.
        for label in (self.problem, self.grid_reading, self.clusters):
            label.setTextFormat(Qt.TextFormat.PlainText)
        self.grid_page = grid_page = QWidget()
        grid_body = QWidget()
        grid_layout = QVBoxLayout(grid_body)
        grid_layout.addWidget(self.grid_reading)
        self.grid_legend = GridLegend()
        grid_layout.addWidget(self.grid_legend)
        grid_layout.addWidget(self.grid_table, stretch=1)
        grid_layout.addWidget(self.clusters)
        # The grid keeps GRID_ROWS rows in view: a short window scrolls the page instead.
        row = self.grid_table.verticalHeader().defaultSectionSize()
        self.grid_table.setMinimumHeight((GRID_ROWS + 1) * row + 20)  # and a scroll bar
        self.grid_scroll = QScrollArea()
        self.grid_scroll.setWidget(grid_body)
        self.grid_scroll.setWidgetResizable(True)
        self.grid_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.grid_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        page_layout = QVBoxLayout(grid_page)
        page_layout.setContentsMargins(0, 0, 0, 0)
        page_layout.addWidget(self.grid_scroll)
        self.paired = PairedView()
        self.segments = SegmentsView()
        self.documents = DocumentsView()
        self.details = DetailsView()
        self.studies = StudiesView()
        self.breakdown = BreakdownView()  # bootstraps each group again: only when shown
        self.summary = SummaryView()
        # The tabs, in their order: adding a tab is one line here (views.result_tabs).
        self.result_tabs: list[ResultTab] = [
            NewResultTab("Summary", self.summary, self._fill_summary),
            EagerTab("Distributions", self.histograms, self._draw_histograms_soon),
            ScoresTab(self.score_model, self.score_table),
            SignificanceTab(
                grid_page,
                self.grid_model,
                self.grid_table,
                (self.grid_reading, self.clusters),
                self.grid_legend,
            ),
            EagerTab("Paired", self.paired, fill_paired(self.paired.set_result)),
            LazyTab("Segments", self.segments, fill_segments(self.segments)),
            LazyTab("Documents", self.documents, self._fill_documents),
            LazyTab("Details", self.details, self._fill_details),
            studies_tab(self.studies),
            breakdown_tab(self.breakdown),
        ]
        self.tabs = QTabWidget()
        for tab in self.result_tabs:
            self.tabs.addTab(tab.page, tab.title)
            # wide views (Segments wants 860 px) must not keep the files panel narrow
            tab.page.setMinimumWidth(_NARROWEST)
        self.tabs.setCurrentWidget(self.histograms)  # a run fills them: the first thing to see
        layout = QVBoxLayout(self)
        top = QHBoxLayout()
        top.addWidget(QLabel("Metric:"))
        top.addWidget(self.metric_choice)
        top.addStretch(1)
        layout.addLayout(top)
        layout.addWidget(self.problem)
        layout.addWidget(self.stale)
        layout.addWidget(self.joined)  # first: it says what the views show now
        layout.addWidget(self.notes)
        layout.addWidget(self.tabs, stretch=1)
        # the settings that produced what the tables show
        self.made_with = CompactNote("The settings that produced the results shown.")
        layout.addWidget(self.made_with)
        self._add_tab_shortcuts()

    def _add_tab_shortcuts(self) -> None:
        """Ctrl+Tab and Ctrl+PgDn go to the next tab, Ctrl+Shift+Tab and Ctrl+PgUp back, from
        anywhere in the window (as in browsers and editors), wrapping round."""
        for keys, step in (
            ("Ctrl+Tab", 1),
            ("Ctrl+PgDown", 1),
            ("Ctrl+Shift+Tab", -1),
            ("Ctrl+PgUp", -1),
        ):
            shortcut = QShortcut(QKeySequence(keys), self)
            shortcut.setContext(Qt.ShortcutContext.WindowShortcut)
            shortcut.activated.connect(self._next_tab if step > 0 else self._previous_tab)

    def _next_tab(self) -> None:
        self._step_tab(1)

    def _previous_tab(self) -> None:
        self._step_tab(-1)

    def _step_tab(self, step: int) -> None:
        """Go ``step`` tabs on, wrapping round, past the tabs hidden (the Campaign tab while
        the project has one test set)."""
        count, index = self.tabs.count(), self.tabs.currentIndex()
        for _ in range(count):
            index = (index + step) % count
            if self.tabs.isTabVisible(index):
                self.tabs.setCurrentIndex(index)
                return

    def _table(self, model: object, sortable: bool) -> DataTableView:
        view = DataTableView()
        if sortable:
            proxy = QSortFilterProxyModel(self)
            proxy.setSourceModel(model)  # type: ignore[arg-type]
            proxy.setSortRole(SORT_ROLE)
            view.setModel(proxy)
            view.setSortingEnabled(True)
            view.sortByColumn(-1, Qt.SortOrder.AscendingOrder)  # best first until a click
        else:
            view.setModel(model)  # type: ignore[arg-type]
        view.setAlternatingRowColors(sortable)
        return view

    def _connect(self) -> None:
        self.metric_choice.currentIndexChanged.connect(self._on_metric_changed)
        self.grid_table.doubleClicked.connect(self._on_grid_double_clicked)
        self.paired.segments_requested.connect(self.show_segments)
        self.documents.segments_requested.connect(self.show_segments)
        self.tabs.currentChanged.connect(self._on_tab_changed)
        self.breakdown.controller.whole_changed.connect(self._on_breakdown_whole_changed)
        for table in (self.score_table, self.grid_table):
            table.exported.connect(self.table_exported)
        for table in self.findChildren(DataTableView):
            if not self.studies.isAncestorOf(table):  # a study says what it was made from
                table.preamble = self.table_preamble
        for plot in (self.histograms.exporter, self.paired.exporter, self.studies.plot_exporter):
            plot.exported.connect(self.table_exported)  # "Wrote PATH." in the status line
        # An exported image says what its lines are and what made it.
        self.histograms.exporter.caption = lambda: [MARKS_LEGEND, *self.table_preamble()]
        self.paired.exporter.caption = lambda: [LINES_LEGEND, *self.table_preamble()]

    def table_preamble(self) -> list[str]:
        """What an exported table was made from, and whether that is behind the files now."""
        if self.result is None:
            return []
        lines = provenance(self.result.statistics, self.result.bootstrap)
        return [*lines, f"Note: {self.stale.text()}"] if self.stale.text() else lines

    # -- the notes above the tabs -------------------------------------------------------------

    def show_stale(self, text: str) -> None:
        """Say why the results shown are not those of the files and settings now ("": they are)."""
        self.stale.setText(text)
        self.stale.setVisible(bool(text))

    def show_notes(self, text: str) -> None:
        """Say what to know about how the result shown was made ("": nothing)."""
        self.notes.setText(text)
        self.notes.setVisible(bool(text))

    # -- a run, its partial scores and its result ---------------------------------------------

    def start_run(self) -> None:
        """A new run starts: its first scores start the histograms over."""
        self._histograms_started = False

    def show_scores(self, scores: Mapping[tuple[str, str], FloatArray]) -> None:
        """Add the partial scores of the run under way to the histograms (started over if
        they show a finished result: its marks are not the run's)."""
        self._histograms_behind = False  # a new run's scores: the last result's are not drawn
        if not self._histograms_started or not self._histograms_partial:
            self._start_histograms([system for system, _ in scores])
        self._histograms_partial = True
        self.histograms.update_scores(scores)

    def drop_run(self) -> None:
        """The run under way ended without a result (cancelled, failed): every view shows
        the last result again, the histograms too (or nothing, if there is none)."""
        if not self._histograms_partial:
            return
        self._histograms_partial = False
        if self.result is not None:
            self._histograms_behind = True
            self.draw_histograms()
        else:
            self.histograms.start_run([], self.current_metric(), "")
            self._histograms_started = False

    def _start_histograms(self, systems: list[str]) -> None:
        metric = self.current_metric()
        names = list(dict.fromkeys(systems))
        self.histograms.start_run(names, metric, LABELS.get(metric, metric))
        self._histograms_started = True

    def show_result(self, result: AnalysisResult) -> None:
        """Show a finished analysis, on the metric shown so far if it has it."""
        self.result = self.analysed = result
        self._say_joined()
        self.made_with.setText(made_with(result.statistics, result.bootstrap))
        metrics = list(result.bootstrap.metrics)
        current = self._wanted_metric or self.current_metric()
        if current in metrics:
            self._wanted_metric = None
        refill(self.metric_choice, [(LABELS.get(name, name), name) for name in metrics], current)
        self._show_metric()

    def clear_result(self) -> None:
        """Let go of the result shown (there is none any more); what is drawn stays until
        the next result, or until a run ends without one."""
        self.result = self.analysed = None

    def _on_breakdown_whole_changed(self, whole: AnalysisResult | None) -> None:
        """A breakdown was made: under the family "all", every tab shows the whole test set
        decided in one family with its groups (``whole``); else the analysis as it ran."""
        if self.analysed is None or self.breakdown.controller.source is not self.analysed:
            return  # a breakdown of earlier results: it decides nothing of these
        shown = whole if whole is not None else self.analysed
        if shown is self.result or self.result is None:
            return
        drawn, self.result = self.result.bootstrap.settings.resamples, shown
        self.made_with.setText(made_with(shown.statistics, shown.bootstrap))
        self._say_joined()
        self._show_metric()
        if shown.bootstrap.settings.resamples != drawn:
            self._histograms_behind = True  # the resamples of a raised B: drawn again
            self.draw_histograms()

    def _say_joined(self) -> None:
        """The note that the family grew with the breakdown, when it did."""
        text = joined_note(self.analysed, self.result, self.breakdown.breakdown)
        self.joined.setText(text)
        self.joined.setVisible(bool(text))

    def want_metric(self, metric: str | None) -> None:
        """Show ``metric`` (a reopened session's) as soon as a result has it."""
        self._wanted_metric = metric

    def current_metric(self) -> str:
        """The metric the views show."""
        data = self.metric_choice.currentData()
        if data:
            return str(data)
        names = self._metrics_ticked()
        return names[0] if names else "bleu"

    def _on_metric_changed(self) -> None:
        self._show_metric()

    def _show_metric(self) -> None:
        """Give every tab the result and the metric shown; the current one is seen."""
        if self.result is None:
            return
        metric = self.current_metric()
        for tab in self.result_tabs:
            tab.show_result(self.result, metric)
        self._show_current_tab()

    def _on_tab_changed(self) -> None:
        self._show_current_tab()

    def _show_current_tab(self) -> None:
        """Tell the current tab it is seen (it fills what it put off)."""
        page = self.tabs.currentWidget()
        for tab in self.result_tabs:
            if tab.page is page:
                tab.shown()

    def _draw_histograms_soon(self, result: AnalysisResult, metric: str) -> None:
        """Draw the result's histograms at the next turn of the event loop."""
        self._histograms_behind = True
        QTimer.singleShot(0, self, self.draw_histograms)

    def _fill_summary(self, result: AnalysisResult, metric: str) -> None:
        self.summary.show_result(result.bootstrap)  # every metric's words: once per result

    def _fill_documents(self, result: AnalysisResult, metric: str) -> None:
        self.documents.set_result(result, metric=metric)

    def _fill_details(self, result: AnalysisResult, metric: str) -> None:
        self.details.set_result(result)
        self.details.set_metric(metric)

    def draw_histograms(self) -> None:
        """Draw the result's histograms, if they are still behind it.

        Called at the turn of the event loop after the result is shown: with twenty systems
        the tables and the histograms' final drawing together held the window about 100 ms.
        """
        if not self._histograms_behind or self.result is None:
            return
        self._histograms_behind = self._histograms_partial = False
        metric, bootstrap = self.current_metric(), self.result.bootstrap
        # Load order, as while the run was filling them: the plots are kept, not made again.
        self.histograms.start_run(list(bootstrap.systems), metric, LABELS.get(metric, metric))
        self._histograms_started = True
        self.histograms.finish_run(bootstrap)

    # -- opening one view on two systems ------------------------------------------------------

    def show_segments(self, first: str, second: str, document: str | None = None) -> None:
        """Open the Segments view on ``first`` (left) and ``second`` (right), on the segments
        of ``document`` only if one is given."""
        self.tabs.setCurrentWidget(self.segments)  # fills it if it is behind
        if self.segments.set_pair(first, second):
            self.segments.filter_document(document)  # a document's: its top row selected

    def show_pair(self, first: str, second: str) -> None:
        """Open the paired view on ``first`` against ``second``."""
        self.paired.set_pair(first, second)
        self.tabs.setCurrentWidget(self.paired)

    def _on_grid_double_clicked(self, index: QModelIndex) -> None:
        pair = self.grid_model.pair(index.row(), index.column())
        if pair is not None:
            self.show_pair(pair.x, pair.y)

    # -- the studies' notes -------------------------------------------------------------------

    def show_study_refused(self, note: str) -> None:
        """Say in the Studies view why a study cannot start."""
        self._study_note = note
        self.studies.show_problem(note)  # goes when the analysis is new

    def show_study_stale(self, note: str) -> None:
        """Say in the Studies view when its study is of other files or settings than now."""
        if self.studies.study is None:
            note = ""
        if note != self._study_note:
            if note or self.studies.message.text() == self._study_note:
                self.studies.show_problem(note)  # never clears a message of another's
            self._study_note = note

    def __del__(self) -> None:
        # Collected by Python (a closed window nothing refers to), the pane is destroyed with
        # its Python half already gone; the tab widget, destroyed with it, changes its current
        # tab on the way, and that signal would find no slot to call.
        with contextlib.suppress(RuntimeError, AttributeError):
            self.tabs.currentChanged.disconnect(self._on_tab_changed)


def joined_note(
    analysed: AnalysisResult | None, shown: AnalysisResult | None, breakdown: Breakdown | None
) -> str:
    """What to know when the whole test set ``shown`` is ``analysed`` decided again with
    ``breakdown``'s groups ("": it is not): that the family grew, and B with it, in the engine's
    words; or, where the groups could not join (a segment-level test decides), why not."""
    if analysed is None or shown is None or shown is analysed:
        return ""
    run, before = shown.bootstrap, analysed.bootstrap
    new = [note for note in run.notes if note not in before.notes]
    parts = []
    if run.joined:
        groups = sum(1 for g in breakdown.groups if g.bootstrap is not None) if breakdown else 0
        by = f" by {breakdown.by}" if breakdown is not None else ""
        parts.append(
            f"The family grew with the breakdown{by}: under {run.settings.correction.label} "
            f'with all metrics together (family "all"), the {run.joined:,} pairs of every metric '
            f"on the whole test set and in the breakdown's {groups:,} bootstrapped groups are one "
            "family, so the whole test set's verdicts shown here (grid, paired view, summary) "
            "were decided again in it, as mtgui eval decides them with --by and --family all."
        )
        new = [note for note in new if note.startswith(RAISED)]  # the rest says the same
    if run.settings.resamples != before.settings.resamples:
        parts.append(
            f"The whole test set was bootstrapped again ({run.settings.resamples:,} resamples "
            f"instead of the analysis's {before.settings.resamples:,})."
        )
    parts += new
    parts.append(
        "Export, the report and a saved project keep the analysis's own verdicts, decided "
        "without the breakdown."
    )
    return " ".join(parts)
