"""Bootstrap score distributions, one small histogram per system (Zhang & Vogel Figures 1-2).

The plot items are created once per run and updated in place as chunks of resamples arrive
(pyqtgraph's habit), and each system's bin edges are fixed when its first scores arrive (their
range, widened by half on each side), so the axes do not jump while the run fills the bars.
When the run ends, lines mark the full-set score (solid), the median (dashed) and the interval
bounds (dotted), a legend under the plots says so, and the plots are put in order of score, best
first. With "same x-axis" (on by default) every plot spans the same range, so that systems can
be compared by eye down and across the grid.

Overlaid, all systems share one plot, each in its own colour (Okabe-Ito, safe for colour-blind
readers), as densities so that distributions of different widths compare; the finished run
marks each system's full-set score and shades nothing else, which would hide the shapes.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

import numpy as np
import numpy.typing as npt
import pyqtgraph as pg
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from mtgui.app.preferences import OVERLAID, SMALL_MULTIPLES
from mtgui.engine.core import FloatArray
from mtgui.engine.resampling import BootstrapResult
from mtgui.views.common.absent import missing_text
from mtgui.views.common.palette import series_style
from mtgui.views.export.plot_actions import MenuOnDemandViewBox, PlotExporter
from mtgui.views.export.plot_export import export_plot
from mtgui.views.export.plot_theme import PlotTheme, apply_plot_theme, follow_palette

BINS = 40
COLUMNS = 2
PLOT_MIN_HEIGHT = 120
"""The least height of one row of small multiples (or of the overlaid plot), in pixels: a
shorter window scrolls the plots rather than flattening them to lines."""
_PLOTS_SHOWN_PER_STEP = 2
_STEP_MS = 1  # between steps of making the plots: a timer, so the event loop runs in between
_PLOTS_PER_UPDATE = 4
_MARKS = (  # the lines on each histogram once a run is done (MARKS_LEGEND names them)
    (Qt.PenStyle.SolidLine, "score on the whole test set"),
    (Qt.PenStyle.DashLine, "median of the resamples"),
    (Qt.PenStyle.DotLine, "lower bound of the interval"),
    (Qt.PenStyle.DotLine, "upper bound of the interval"),
)
_FILL = (86, 180, 233)  # Okabe-Ito sky blue, translucent (the line: the first series colour)
MARKS_LEGEND = (
    "Lines: solid, the score on the whole test set; dashed, the median of the resamples; "
    "dotted, the bounds of the interval."
)


class HistogramView(QWidget):
    """Small multiples of the bootstrap distributions of one metric."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._layout_widget = pg.GraphicsLayoutWidget()
        self._theme = follow_palette(self._layout_widget, self._on_theme_changed)
        self.layout_choice = QComboBox()
        self.layout_choice.addItems([SMALL_MULTIPLES, OVERLAID])
        self.layout_choice.setToolTip(
            "One plot per system, or every system's distribution in one plot."
        )
        self.layout_choice.currentTextChanged.connect(self._on_layout_changed)
        self.exporter = PlotExporter(self._layout_widget, "distributions", self)
        self.same_axis = QCheckBox("Same x-axis")
        self.same_axis.setChecked(True)
        self.same_axis.setToolTip(
            "Give every system's plot the same range, to compare them by eye."
        )
        self.same_axis.toggled.connect(self._apply_ranges)
        self.marks_legend = QLabel(MARKS_LEGEND)
        self.marks_legend.setWordWrap(True)  # a narrow view (150%) cut it at the right edge
        self.marks_legend.setVisible(False)
        self.missing = QLabel()  # what the result drawn lacks of the metric asked for
        self.missing.setVisible(False)
        bar = QHBoxLayout()
        bar.addWidget(self.same_axis)
        bar.addStretch(1)
        bar.addWidget(QLabel("Show:"))
        bar.addWidget(self.layout_choice)
        bar.addWidget(self.exporter.button())
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar)
        layout.addWidget(self.missing)
        self.plots_area = QScrollArea()  # a short window scrolls the plots, never flattens them
        self.plots_area.setWidget(self._layout_widget)
        self.plots_area.setWidgetResizable(True)
        self.plots_area.setFrameShape(QFrame.Shape.NoFrame)
        self.plots_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        layout.addWidget(self.plots_area, 1)
        layout.addWidget(self.marks_legend)
        self._systems: list[str] = []
        self._latest: Mapping[tuple[str, str], FloatArray] = {}
        self._result: BootstrapResult | None = None
        self._metric, self._label = "", ""
        self._turn = 0  # where the next partial redraw starts
        self._waiting: list[str] = []  # systems whose plots are not made yet
        self._veiled: list[pg.PlotItem] = []  # placed, not shown yet
        self._steps = QTimer(self, singleShot=True, interval=_STEP_MS)
        self._steps.timeout.connect(self._next_step)
        self._plots: dict[str, pg.PlotItem] = {}
        self._marks: dict[str, list[pg.InfiniteLine]] = {}  # small multiples: kept, moved
        self._curves: dict[str, pg.PlotDataItem] = {}
        self._edges: dict[str, FloatArray] = {}
        self._counts: dict[str, npt.NDArray[np.int64]] = {}

    def start_run(self, systems: Sequence[str], metric: str, label: str) -> None:
        """Get one empty plot per system ready for a new run.

        The plots of the last run are reused when the systems are the same. New plots are made
        one per turn of the event loop (see ``_next_step``), so that twenty systems do not
        freeze the window; scores for a plot not made yet wait for the next update.
        """
        self._metric, self._label, self._edges, self._counts = metric, label, {}, {}
        self._latest, self._result = {}, None
        self.marks_legend.setVisible(False)
        self.missing.setVisible(False)
        if self._systems == list(systems) and self._curves:
            for system, curve in self._curves.items():
                self._reset(self._plots[system], curve)
            return
        self._systems = list(systems)
        self._layout_widget.clear()
        self._plots, self._curves, self._marks, self._veiled = {}, {}, {}, []
        if self.overlaid:
            self._waiting = []
            self._make_overlay()
            return
        self._waiting = list(systems)
        self._next_step()

    @property
    def overlaid(self) -> bool:
        """Whether all systems share one plot."""
        return self.layout_choice.currentText() == OVERLAID

    def _on_layout_changed(self) -> None:
        """Rebuild the plots in the other layout and show again what was shown."""
        systems, latest, result = self._systems, self._latest, self._result
        self._systems, self._waiting = [], []
        self.start_run(systems, self._metric, self._label)
        if result is not None:
            self.finish_run(result)
        elif latest:
            self.update_scores(latest, every_plot=True)

    def _on_theme_changed(self, theme: PlotTheme) -> None:
        """The palette turned dark or light: draw everything again in its colours."""
        self._theme = theme
        if self._systems:
            self._on_layout_changed()

    def _make_overlay(self) -> None:
        """One plot, one coloured curve per system, with a legend."""
        plot = self._layout_widget.addPlot(row=0, col=0)
        self._keep_plots_tall(2)  # the legend lists every system
        plot.addLegend(offset=(-10, 10), labelTextColor=self._theme.text)
        plot.getAxis("bottom").enableAutoSIPrefix(False)
        plot.hideAxis("left")
        plot.setMouseEnabled(x=False, y=False)
        for number, system in enumerate(self._systems):
            color = self._theme.series(number)
            style = series_style(number)
            curve = plot.plot(
                [0, 1],
                [0],
                stepMode="center",
                fillLevel=0,
                brush=(*color, 60),
                pen=pg.mkPen(color, width=2, style=style),
                name=system,
            )
            self._plots[system], self._curves[system] = plot, curve
        apply_plot_theme(plot, self._theme)
        self._reset(plot, None)

    def _next_step(self) -> None:
        """Make the next plot, or place them all, or show the next few, and come back.

        Twenty pyqtgraph plots take the window ~350 ms to make and ~100 ms to paint the first
        time, so the work is cut into turns of a few milliseconds each, with the event loop
        (input, timers, painting) running in between (a zero-delay chain would starve it):

        1. one plot per turn, made apart from the layout: put in it at once, each new plot
           would lay out all the others again;
        2. all plots into the layout in one go, laid out once, transparent (not painted);
        3. a few plots made opaque per turn, so their first painting is spread out too.
        """
        if self._waiting:
            self._make_plot(self._waiting.pop(0))
            if not self._waiting:
                self._place_plots()
        elif self._veiled:
            for plot in self._veiled[:_PLOTS_SHOWN_PER_STEP]:
                plot.setOpacity(1.0)
            del self._veiled[:_PLOTS_SHOWN_PER_STEP]
        if self._waiting or self._veiled:
            self._steps.start()

    def _finish_steps(self) -> None:
        """Make, place and show every plot still to come, now."""
        while self._waiting or self._veiled:
            self._next_step()
        self._steps.stop()

    def _make_plot(self, system: str) -> None:
        """One system's plot, outside the layout for now."""
        plot = pg.PlotItem(viewBox=MenuOnDemandViewBox())
        plot.setTitle(system, size="9pt")
        plot.getAxis("bottom").enableAutoSIPrefix(False)  # BLEU 0.82, not "820 (x0.001)"
        plot.hideAxis("left")
        plot.setMouseEnabled(x=False, y=False)
        fill = (*_FILL, 110 if self._theme.dark else 150)
        line = pg.mkPen(self._theme.series(0))
        curve = plot.plot([0, 1], [0], stepMode="center", fillLevel=0, brush=fill, pen=line)
        apply_plot_theme(plot, self._theme)
        self._plots[system], self._curves[system] = plot, curve
        for mark in self._marks_of(system):  # made now, while the run goes on
            mark.hide()
        self._reset(plot, curve)
        if self._edges:
            self._apply_ranges()

    def _place_plots(self) -> None:
        """Put every plot made into the grid, laid out once, transparent until shown."""
        layout = self._layout_widget.ci
        with _laid_out_once(layout):
            for number, plot in enumerate(self._plots.values()):
                plot.setOpacity(0.0)
                layout.addItem(plot, row=number // COLUMNS, col=number % COLUMNS)
        self._veiled = list(self._plots.values())
        self._keep_plots_tall(math.ceil(len(self._plots) / COLUMNS))

    def _keep_plots_tall(self, rows: int) -> None:
        """Give the plots at least :data:`PLOT_MIN_HEIGHT` a row (the area scrolls past)."""
        self._layout_widget.setMinimumHeight(max(rows, 1) * PLOT_MIN_HEIGHT)

    def _reset(self, plot: pg.PlotItem, curve: pg.PlotDataItem | None) -> None:
        """An empty histogram with this run's axis label and no marks."""
        plot.setLabel("bottom", self._label)
        kept = [line for lines in self._marks.values() for line in lines]
        for item in [i for i in plot.items if isinstance(i, pg.InfiniteLine)]:
            if any(item is line for line in kept):
                item.hide()  # shown again, moved, by the next result
            else:
                plot.removeItem(item)
        for emptied in [curve] if curve is not None else self._curves.values():
            emptied.setData([0, 1], [0])

    def update_scores(
        self, scores: Mapping[tuple[str, str], FloatArray], every_plot: bool = False
    ) -> None:
        """Redraw histograms from every score drawn so far (one snapshot of the run).

        While a run goes on, only a few plots are redrawn per snapshot, in turn (redrawing one
        costs several milliseconds while the worker computes, and the window must not stall);
        ``every_plot`` redraws them all.
        """
        self._latest = scores
        self._fix_edges(scores)
        mine = [(s, v) for (s, m), v in scores.items() if m == self._metric and s in self._curves]
        if self.overlaid:
            every_plot = True  # one plot: redraw its curves together
        if not every_plot and len(mine) > _PLOTS_PER_UPDATE:
            start = self._turn % len(mine)
            mine = (mine[start:] + mine[:start])[:_PLOTS_PER_UPDATE]
            self._turn += _PLOTS_PER_UPDATE
        for system, values in mine:
            values = np.asarray(values)
            values = values[~np.isnan(values)]
            edges = self._edges.get(system)
            if edges is None:
                continue
            counts, _ = np.histogram(np.clip(values, edges[0], edges[-1]), bins=edges)
            self._counts[system] = counts
            heights = counts / (len(values) * np.diff(edges)) if self.overlaid else counts
            self._curves[system].setData(edges, heights, skipFiniteCheck=True)

    def finish_run(self, result: BootstrapResult) -> None:
        """Draw the final histograms and mark score, median and interval."""
        self._finish_steps()  # a run shorter than the plots' making: finish them now
        # Painted at the next turn, not in this one: with twenty systems, drawing (~35 ms) and
        # painting (~30-40 ms) in one turn held the window about 80 ms.
        self._layout_widget.setUpdatesEnabled(False)
        QTimer.singleShot(0, self, self._paint_again)
        final = {(i.system, i.metric): i.samples for i in result.intervals}
        self.update_scores(final, every_plot=True)
        self._result = result
        lacking = missing_text(self._metric, result.metrics)
        self.missing.setText(lacking)
        self.missing.setVisible(bool(lacking))
        if lacking:
            return
        if self.overlaid:
            self._mark_scores(result)
            return
        self._order_by_score(result)
        self.marks_legend.setVisible(True)
        for system in [name for name in self._plots if name in result.systems]:
            interval = result.interval(system, self._metric)
            values = (interval.score, interval.median, interval.ci_low, interval.ci_high)
            for line, value, (_, meaning) in zip(
                self._marks_of(system), values, _MARKS, strict=True
            ):
                if not math.isfinite(value):  # undefined (no resample scored it): no line,
                    line.hide()  # and pyqtgraph cannot place one at NaN (it raised at paint)
                    continue
                line.setValue(value)
                line.setToolTip(f"{meaning}: {value:.4f}")
                line.show()

    def _paint_again(self) -> None:
        self._layout_widget.setUpdatesEnabled(True)

    def _marks_of(self, system: str) -> list[pg.InfiniteLine]:
        """The four marks of a system's plot, made once per plot and moved for each result:
        making and adding 80 lines anew took ~25 ms of the window as a run of 20 ended."""
        if system not in self._marks:
            pens = [pg.mkPen(self._theme.ink, style=style) for style, _ in _MARKS]
            self._marks[system] = [pg.InfiniteLine(0.0, angle=90, pen=pen) for pen in pens]
            for line in self._marks[system]:
                self._plots[system].addItem(line)
        return self._marks[system]

    def _fix_edges(self, scores: Mapping[tuple[str, str], FloatArray]) -> None:
        """Fix the bins of every system whose first scores these are, made plots or not, so
        that the shared axis is known at once and does not jump as plots are made."""
        fixed = False
        for (system, metric), values in scores.items():
            if metric != self._metric or system in self._edges or system not in self._systems:
                continue
            values = np.asarray(values)
            edges = _fixed_edges(values[~np.isnan(values)])
            if edges is not None:
                self._edges[system], fixed = edges, True
        if fixed:
            self._apply_ranges()

    def _apply_ranges(self) -> None:
        """Each plot's x range: its own bins, or with "same x-axis" the span of all of them."""
        if self.overlaid or not self._edges:
            return
        low = min(float(edges[0]) for edges in self._edges.values())
        high = max(float(edges[-1]) for edges in self._edges.values())
        for system, plot in self._plots.items():
            edges = self._edges.get(system)
            if self.same_axis.isChecked():
                plot.setXRange(low, high, padding=0)
            elif edges is not None:
                plot.setXRange(edges[0], edges[-1], padding=0)

    def _order_by_score(self, result: BootstrapResult) -> None:
        """Lay the plots out best first, as the tables are (a no-op when they already are)."""
        order = [e.system for e in result.ranking(self._metric).systems if e.system in self._plots]
        order += [system for system in self._plots if system not in order]  # none, but kept
        if order == list(self._plots):
            return
        layout = self._layout_widget.ci
        with _laid_out_once(layout):
            for plot in self._plots.values():
                layout.removeItem(plot)
            for number, system in enumerate(order):
                layout.addItem(self._plots[system], row=number // COLUMNS, col=number % COLUMNS)
        self._plots = {system: self._plots[system] for system in order}

    def _mark_scores(self, result: BootstrapResult) -> None:
        """Overlaid: each system's full-set score as a line in its colour."""
        for system, curve in self._curves.items():
            if system not in result.systems:
                continue
            interval = result.interval(system, self._metric)
            if not math.isfinite(interval.score):
                continue  # undefined: no line (one at NaN raised inside pyqtgraph's paint)
            pen = pg.mkPen(curve.opts["pen"].color(), width=1)
            line = pg.InfiniteLine(interval.score, angle=90, pen=pen)
            line.setToolTip(
                f"{system}: {interval.score:.4f} on the whole test set, interval "
                f"[{interval.ci_low:.4f}, {interval.ci_high:.4f}]"
            )
            self._plots[system].addItem(line)

    def export_image(self, path: Path, overwrite: bool = False) -> None:
        """Save every histogram shown, as one PNG or SVG file (by ``path``'s ending)."""
        export_plot(self._layout_widget.scene(), path, overwrite)

    @property
    def plots(self) -> dict[str, pg.PlotItem]:
        """The plot of each system (for tests and exports)."""
        return dict(self._plots)

    def counts(self, system: str) -> FloatArray:
        """How many resamples fall in each bar of ``system`` (what its heights show)."""
        return np.asarray(self._counts.get(system, np.zeros(BINS)), dtype=np.float64)


@contextmanager
def _laid_out_once(layout: pg.GraphicsLayout) -> Iterator[None]:
    """Lay ``layout`` out once, after the items added and removed inside the block.

    pyqtgraph lays its grid out after every item it adds: 20 plots moved took 20 layouts (25 ms
    of the GUI thread as a large run ends), and 20 plots added one after the other lay out all
    those before again each time. One layout, once they are all in, is enough.
    """
    grid = layout.layout
    grid.activate = _wait_for_the_last
    try:
        yield
    finally:
        del grid.activate  # the layout's own again
    grid.activate()


def _wait_for_the_last() -> None:
    """Stands for a layout's ``activate`` inside :func:`_laid_out_once`."""


def _fixed_edges(values: FloatArray) -> FloatArray | None:
    """Bin edges for a whole run from its first scores: their range, widened for later ones."""
    if len(values) == 0:
        return None
    low, high = float(values.min()), float(values.max())
    spread = max(high - low, 1e-3 * max(abs(high), 1.0))
    return np.linspace(low - 0.5 * spread, high + 0.5 * spread, BINS + 1)
