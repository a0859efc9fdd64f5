"""The tabs of the results pane behind one protocol, :class:`ResultTab`.

The pane (:mod:`mtgui.views.results.results_pane`) keeps a list of tabs and knows nothing of what
each shows: it adds each tab's ``page`` under its ``title``, gives every tab the result and the
metric shown (:meth:`ResultTab.show_result`: at each new result and each metric chosen), and
tells the current tab when it is seen (:meth:`ResultTab.shown`), so that a tab that costs much
to fill (:class:`LazyTab`) waits until then. Adding a tab is one line in the pane's list: a
:class:`EagerTab` or :class:`LazyTab` over a view and the function that fills it, or any object
with these four members.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PySide6.QtWidgets import QLabel, QWidget

from mtgui.engine.analysis import AnalysisResult
from mtgui.report.significance import cluster_caption
from mtgui.views.common.absent import missing_text
from mtgui.views.common.table_view import DataTableView
from mtgui.views.results.breakdown_view import BreakdownView
from mtgui.views.results.grid_legend import GridLegend
from mtgui.views.results.score_table_model import ScoreTableModel
from mtgui.views.results.segments_view import SegmentsView
from mtgui.views.results.significance_grid_model import SignificanceGridModel
from mtgui.views.studies.studies_view import StudiesView

Fill = Callable[[AnalysisResult, str], None]
"""Shows a result on a metric in a tab's view."""


class ResultTab(Protocol):
    """One tab of the results pane."""

    @property
    def title(self) -> str:
        """The tab's text."""
        ...

    @property
    def page(self) -> QWidget:
        """What the tab shows."""
        ...

    def show_result(self, result: AnalysisResult, metric: str) -> None:
        """Show ``result`` on ``metric``: called at each new result and each metric chosen
        (the same result again), whether the tab is current or not."""
        ...

    def shown(self) -> None:
        """The tab is the current one now (just chosen, or current when a result came):
        the moment for work put off until the tab is seen."""
        ...


class EagerTab:
    """A tab filled at once, whether it is seen or not."""

    def __init__(self, title: str, page: QWidget, fill: Fill) -> None:
        self.title, self.page, self._fill = title, page, fill

    def show_result(self, result: AnalysisResult, metric: str) -> None:
        """Fill the view now."""
        self._fill(result, metric)

    def shown(self) -> None:
        """Nothing is put off."""


class LazyTab:
    """A tab that costs much to fill (every segment, every document): filled when it is seen,
    with the last result and metric it was given, once."""

    def __init__(self, title: str, page: QWidget, fill: Fill) -> None:
        self.title, self.page, self._fill = title, page, fill
        self._pending: tuple[AnalysisResult, str] | None = None

    def show_result(self, result: AnalysisResult, metric: str) -> None:
        """Keep ``result`` and ``metric`` until the tab is seen."""
        self._pending = result, metric

    def shown(self) -> None:
        """Fill the view, if it is behind the result."""
        if self._pending is not None:
            pending, self._pending = self._pending, None
            self._fill(*pending)


class ScoresTab:
    """The score table: its columns fit the texts when the tab is seen (sizing measures every
    cell, ~20 ms on a 20 x 20 grid)."""

    title = "Scores"

    def __init__(self, model: ScoreTableModel, table: DataTableView) -> None:
        self.page, self._model, self._table = table, model, table
        self._unsized = False

    def show_result(self, result: AnalysisResult, metric: str) -> None:
        """Fill the table; its columns fit when it is seen."""
        self._model.set_result(result.bootstrap, metric)
        self._table.export_name = f"scores-{metric}"
        self._unsized = True

    def shown(self) -> None:
        """Fit the columns to the result's texts, once per result and metric."""
        if self._unsized:
            self._unsized = False
            self._table.resizeColumnsToContents()


class SignificanceTab:
    """The significance grid, the sentence that reads it, its legend and the clusters."""

    title = "Significance"

    def __init__(
        self,
        page: QWidget,
        model: SignificanceGridModel,
        table: DataTableView,
        texts: tuple[QLabel, QLabel],
        legend: GridLegend,
    ) -> None:
        """``texts``: the labels of the grid's reading and of its clusters."""
        self.page, self._model, self._table = page, model, table
        self._reading, self._clusters = texts
        self._legend = legend
        self._unsized = False

    def show_result(self, result: AnalysisResult, metric: str) -> None:
        """Fill the grid and the texts around it; its columns fit when it is seen."""
        bootstrap = result.bootstrap
        self._model.set_result(bootstrap, metric, result.statistics)
        lacking = missing_text(metric, bootstrap.metrics)
        self._reading.setText(lacking or self._model.reading)
        self._legend.show_equivalence(bootstrap.settings.margin(metric) is not None)
        self._clusters.setText("" if lacking else cluster_caption(bootstrap, metric))
        self._table.export_name = f"significance-{metric}"
        self._unsized = True

    def shown(self) -> None:
        """Fit the columns to the result's texts, once per result and metric."""
        if self._unsized:
            self._unsized = False
            self._table.resizeColumnsToContents()


class NewResultTab:
    """A tab told of each new result by ``on_result`` (once per result) and of each metric
    by ``on_metric``, at once."""

    def __init__(
        self,
        title: str,
        page: QWidget,
        on_result: Fill | None = None,
        on_metric: Callable[[str], None] | None = None,
    ) -> None:
        self.title, self.page = title, page
        self._on_result, self._on_metric = on_result, on_metric
        self._result: AnalysisResult | None = None

    def show_result(self, result: AnalysisResult, metric: str) -> None:
        """``on_result`` if ``result`` is new, then ``on_metric``."""
        if result is not self._result:
            self._result = result
            if self._on_result is not None:
                self._on_result(result, metric)
        if self._on_metric is not None:
            self._on_metric(metric)

    def shown(self) -> None:
        """Nothing is put off here (the view itself may wait until it is seen)."""


def fill_paired(view: Fill) -> Fill:
    """The paired view's fill: only a result of two systems or more has pairs to show."""

    def fill(result: AnalysisResult, metric: str) -> None:
        if len(result.bootstrap.systems) > 1:
            view(result, metric)

    return fill


def fill_segments(view: SegmentsView) -> Fill:
    """The Segments view's fill: the pair chosen stays if the new result still has it."""

    def fill(result: AnalysisResult, metric: str) -> None:
        pair = view.pair() if view.result is not None else None
        view.set_result(result, metric=metric)
        if pair is not None and all(s in result.bootstrap.systems for s in pair):
            view.set_pair(*pair)

    return fill


def studies_tab(view: StudiesView) -> NewResultTab:
    """The Studies tab: any metric of loaded scores the result has may play the humans' part
    (a study runs on demand, not with each result)."""

    def on_result(result: AnalysisResult, metric: str) -> None:
        metrics = result.bootstrap.metrics
        view.set_external_metrics([m for m in result.corpus.external_metrics() if m in metrics])

    return NewResultTab("Studies", view, on_result)


def breakdown_tab(view: BreakdownView) -> NewResultTab:
    """The Breakdown tab: a new result offers its keys (and is broken down when seen); a metric
    shows the breakdown made (it has every metric)."""
    return NewResultTab("Breakdown", view, view.set_result, view.set_metric)
