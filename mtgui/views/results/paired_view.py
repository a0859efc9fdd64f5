"""Two systems compared in full: the histogram of their paired deltas (Zhang & Vogel 3.2).

Reached from any cell of the significance grid (double-click) or by choosing the two systems.
The plot shows how ``A_b - B_b`` spreads over the resamples, with 0 marked, the confidence
interval shaded and the full-set difference drawn; the text under it says the verdict, the
interval, how often humans would agree with the difference where the metric has a fit (Kocmi
et al. 2024), the win fraction (Koehn 2004, 6) and the p-values in words. Without a correction for
many comparisons a verdict is ``~`` exactly when the shaded band contains the 0 line, which the
picture makes plain; with one, the text says when the corrected p-value overrules the band.
"""

from __future__ import annotations

import html
import math
import os

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from mtgui.engine.analysis import AnalysisResult
from mtgui.engine.inference import HumanAgreement, describe_segments
from mtgui.report.agreement import agreement_sentence, metric_agreement
from mtgui.report.paired import PairedDeltas, paired_deltas
from mtgui.report.significance import interval_name, p_value_lines, power_lines
from mtgui.views.common.absent import missing_text
from mtgui.views.common.choices import refill
from mtgui.views.export.plot_actions import PlotExporter
from mtgui.views.export.plot_theme import PlotTheme, follow_palette
from mtgui.views.inputs.settings_panel import LABELS
from mtgui.views.results.significance_grid_model import COLORS, MEANING

BINS = 50
_BARS = 0  # the bars in the first series colour (Okabe-Ito blue) ...
_ZERO = 1  # ... and the 0 line in the second (vermilion), lighter on dark plots
_BAND = COLORS[">"].toTuple()[:3]  # type: ignore[index]
LINES_LEGEND = (
    "Bars: the difference in each resample; dashed line, 0 (no difference); solid line, the "
    "difference on the whole test set; shaded, its interval."
)
"""What the paired plot's lines are, under an exported image (tooltips say it in the window)."""


PLOT_MIN_HEIGHT = 180
"""The least height of the plot of the differences, in pixels."""


class PairedView(QWidget):
    """Choose two systems; see the distribution of their score difference."""

    segments_requested = Signal(str, str)  # see the two systems' segments side by side

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.result: AnalysisResult | None = None
        self.metric_name = ""
        self.deltas: PairedDeltas | None = None
        self.first, self.second = QComboBox(), QComboBox()
        self.first.setToolTip("System A: the differences are A minus B.")
        self.second.setToolTip("System B: the system A is compared with.")
        swap = QPushButton("Swap")
        swap.setToolTip("Compare the other way round (B with A).")
        segments = QPushButton("Their segments...")
        segments.setToolTip("See the two systems' translations side by side, segment by segment.")
        segments.clicked.connect(
            lambda: self.segments_requested.emit(
                self.first.currentText(), self.second.currentText()
            )
        )
        self.plot_widget = pg.PlotWidget()
        self.plot = self.plot_widget.getPlotItem()
        self.plot.setLabel("left", "resamples")
        self.plot.showGrid(x=True, y=True, alpha=0.15)
        for axis in ("bottom", "left"):
            self.plot.getAxis(axis).enableAutoSIPrefix(False)  # scores as the tables show them
        self.theme = follow_palette(self.plot_widget, self._on_theme_changed)
        self.exporter = PlotExporter(self.plot_widget, "paired-deltas", self)
        self.summary = QLabel("Run an analysis with at least two systems to compare them here.")
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # Two rows: the choice of the pair, then what to do with it. In one row, at 1280 x 800
        # and 150% (about 853 x 533 of the window's units) the buttons were cut.
        choice, actions = QHBoxLayout(), QHBoxLayout()
        for widget in (QLabel("Compare"), self.first, QLabel("with"), self.second, swap):
            choice.addWidget(widget)
        choice.addStretch(1)
        actions.addWidget(segments)
        actions.addStretch(1)
        actions.addWidget(self.exporter.button())
        bar = QVBoxLayout()
        bar.addLayout(choice)
        bar.addLayout(actions)
        # A short window (1280 x 800 at 150%) scrolls the plot and its summary, never flattens it.
        self.plot_widget.setMinimumHeight(PLOT_MIN_HEIGHT)
        body = QWidget()
        body_layout = QVBoxLayout(body)
        body_layout.setContentsMargins(0, 0, 0, 0)
        body_layout.addWidget(self.plot_widget, stretch=1)
        body_layout.addWidget(self.summary)
        self.body = QScrollArea()
        self.body.setWidget(body)
        self.body.setWidgetResizable(True)
        self.body.setFrameShape(QFrame.Shape.NoFrame)
        self.body.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(self.body, stretch=1)
        self.first.currentIndexChanged.connect(self._redraw)
        self.second.currentIndexChanged.connect(self._redraw)
        swap.clicked.connect(self.swap)

    def set_result(self, result: AnalysisResult, metric: str) -> None:
        """Show pairs of ``result`` under ``metric``; keep the chosen pair if it still exists."""
        self.result, self.metric_name = result, metric
        previous = (self.first.currentText(), self.second.currentText())
        bootstrap = result.bootstrap
        if metric in bootstrap.metrics:
            order = [entry.system for entry in bootstrap.ranking(metric).systems]
        else:  # said by _redraw
            order = list(bootstrap.systems)
        for box in (self.first, self.second):
            refill(box, [(name, name) for name in order])
        if previous[0] in order and previous[1] in order and previous[0] != previous[1]:
            self.set_pair(*previous)
        else:
            self.set_pair(order[0], order[1] if len(order) > 1 else order[0])

    def set_pair(self, first: str, second: str) -> None:
        """Compare ``first`` (A) with ``second`` (B); a system the result lacks is said to be
        so, and the pair chosen stays."""
        lacking = self._lacking(first, second)
        if lacking:
            self.summary.setText(html.escape(lacking))
            return
        for box, name in ((self.first, first), (self.second, second)):
            box.blockSignals(True)
            box.setCurrentText(name)
            box.blockSignals(False)
        self._redraw()

    def _on_segments_clicked(self) -> None:
        self.segments_requested.emit(self.first.currentText(), self.second.currentText())

    def swap(self) -> None:
        """Compare B with A."""
        self.set_pair(self.second.currentText(), self.first.currentText())

    def _on_theme_changed(self, theme: PlotTheme) -> None:
        """The palette turned dark or light: draw the pair again in its colours."""
        self.theme = theme
        self._redraw()

    def _lacking(self, *systems: str) -> str:
        """What the result lacks of the metric shown and ``systems`` ("": nothing)."""
        if self.result is None:
            return ""
        bootstrap = self.result.bootstrap
        named = [name for name in systems if name]  # an empty chooser names none
        return missing_text(self.metric_name, bootstrap.metrics, named, bootstrap.systems)

    def _redraw(self) -> None:
        self.plot.clear()
        first, second = self.first.currentText(), self.second.currentText()
        if self.result is None or not first or first == second:
            self.deltas = None
            self.summary.setText("Choose two different systems to compare.")
            return
        lacking = self._lacking(first, second)
        if lacking:
            self.deltas = None
            self.summary.setText(html.escape(lacking))
            return
        metric = self.result.statistics.metric(self.metric_name)
        self.deltas = paired_deltas(
            self.result.bootstrap, self.metric_name, first, second, metric.higher_is_better
        )
        label = LABELS.get(self.metric_name, self.metric_name)
        self._draw(self.deltas, label)
        agreement = metric_agreement(self.result.statistics, self.metric_name)
        self.summary.setText(describe(self.deltas, label, agreement))

    def _draw(self, deltas: PairedDeltas, label: str) -> None:
        pair = deltas.comparison
        self.plot.setLabel("bottom", f"{label}: {pair.x} minus {pair.y}, per resample")
        self.plot.setTitle(
            f"{pair.x} is better on the {deltas.better_side} of the 0 line",
            color=self.theme.text,
            size="10pt",
        )
        if deltas.resamples == 0:
            return
        if not math.isnan(pair.ci_low):
            band = pg.LinearRegionItem(
                (pair.ci_low, pair.ci_high),
                movable=False,
                brush=(*_BAND, 45 if self.theme.dark else 90),
                pen=pg.mkPen(None),
            )
            band.setToolTip(
                f"{deltas.level:.0%} interval of the difference: "
                f"[{pair.ci_low:+.4f}, {pair.ci_high:+.4f}]"
            )
            self.plot.addItem(band)
        finite = _finite(deltas.deltas)
        if finite.size == 0:
            return
        counts, edges = np.histogram(finite, bins=_edges(finite))
        color = self.theme.series(_BARS)
        bars = pg.PlotDataItem(
            edges,
            counts,
            stepMode="center",
            fillLevel=0,
            brush=(*color, 150 if self.theme.dark else 110),
            pen=color,
        )
        self.plot.addItem(bars)
        dashed = pg.mkPen(self.theme.series(_ZERO), width=2, style=Qt.PenStyle.DashLine)
        zero = pg.InfiniteLine(0, angle=90, pen=dashed)
        zero.setToolTip("0: no difference")
        observed = pg.InfiniteLine(pair.delta, angle=90, pen=pg.mkPen(self.theme.ink, width=2))
        observed.setToolTip(f"the difference on the whole test set: {pair.delta:+.4f}")
        for line in (zero, observed) if math.isfinite(pair.delta) else (zero,):
            self.plot.addItem(line)  # none at NaN: pyqtgraph raises painting it
        low, high = min(edges[0], 0.0), max(edges[-1], 0.0)
        self.plot.setXRange(low, high, padding=0.05)

    def histogram(self) -> tuple[np.ndarray, np.ndarray]:
        """The counts and bin edges drawn (for tests)."""
        if self.deltas is None:
            return np.zeros(0), np.zeros(0)
        finite = _finite(self.deltas.deltas)
        if finite.size == 0:
            return np.zeros(0), np.zeros(0)
        return np.histogram(finite, bins=_edges(finite))


def _finite(values: np.ndarray) -> np.ndarray:
    """The deltas that are numbers (a resample that scored neither system gives NaN)."""
    finite: np.ndarray = values[np.isfinite(values)]
    return finite


def _edges(values: np.ndarray) -> np.ndarray:
    """Bin edges over the deltas' range (a little width when every delta is the same)."""
    low, high = float(values.min()), float(values.max())
    if high - low < 1e-12:
        low, high = low - 0.5e-3, high + 0.5e-3
    return np.linspace(low, high, BINS + 1)


def describe(deltas: PairedDeltas, label: str, agreement: HumanAgreement | None = None) -> str:
    """The comparison in sentences, as rich text (the verdict in bold); with ``agreement``,
    how often humans would agree with the difference (Kocmi et al. 2024)."""
    pair = deltas.comparison
    x, y = html.escape(pair.x), html.escape(pair.y)
    if deltas.resamples == 0 or math.isnan(pair.ci_low):
        return f"No resample scored both {x} and {y}: they cannot be compared."
    holds_zero = pair.ci_low <= 0 <= pair.ci_high
    lines = [
        f"<b>{x} is {MEANING[pair.verdict]} {y}</b> under {html.escape(label)}: "
        f"verdict <b>{html.escape(pair.verdict)}</b> {html.escape(deltas.basis, quote=False)}.",
        f"Difference on the whole test set: {pair.delta:+.4f}; its "
        f"{interval_name(pair, deltas.level).lower()} over "
        f"{deltas.resamples:,} resamples: [{pair.ci_low:+.4f}, {pair.ci_high:+.4f}]"
        + (" (contains 0)." if holds_zero else " (does not contain 0)."),
        *filter(None, [html.escape(agreement_sentence(agreement, pair.delta), quote=False)]),
        f"{x} is better in {pair.win_fraction:.1%} of the resamples"
        + (f", level in {pair.tie_fraction:.1%}" if pair.tie_fraction else "")
        + f"; {y} is better in {1 - pair.win_fraction - pair.tie_fraction:.1%}.",
        "; ".join(html.escape(line, quote=False) for line in p_value_lines(pair, deltas.correction))
        + ".",
    ]
    lines += [
        html.escape(line, quote=False) for line in power_lines(pair, deltas.level, deltas.unit)
    ]
    if deltas.segments is not None:
        lines += [html.escape(line, quote=False) for line in describe_segments(deltas.segments)]
    return "<br>".join(lines)
