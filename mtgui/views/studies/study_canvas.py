"""The plots of a study, side by side, with one legend under them: made once per study and
metric, then updated in place as the study's snapshots arrive (pyqtgraph's habit).

Bands (a line's ``low``/``high``) are filled between two pen-less curves; log axes are
:class:`~mtgui.views.studies.study_axes.ReadableAxis`, whose ticks read as plain numbers. Ten
systems' bands overlap into one muddy block, so :attr:`StudyCanvas.banded` may name the one system
whose band is drawn (the Studies tab's "Band" chooser; every band while there are few systems).
"""

from __future__ import annotations

import os

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

import numpy as np
import pyqtgraph as pg

from mtgui.views.common.palette import series_style, series_symbol
from mtgui.views.export.plot_theme import PlotTheme, apply_plot_theme, theme_of
from mtgui.views.studies.study_axes import ReadableAxis
from mtgui.views.studies.study_legend import SharedLegend
from mtgui.views.studies.study_plots import Line, PlotSpec

LineItems = tuple[
    pg.PlotDataItem, pg.PlotCurveItem | None, pg.PlotCurveItem | None, pg.TextItem | None
]
PlotItems = tuple[pg.PlotItem, list[LineItems]]
BAND_ALPHA = 50
"""How opaque a band is (of 255) when one system's band is drawn, or a few systems'."""
FAINT_ALPHA = 25
"""How opaque each band is when every band of many systems is drawn (they overlap)."""
FEW = 4
"""Up to this many systems, every band is drawn by default and at :data:`BAND_ALPHA`."""


class StudyCanvas:
    """Draws :class:`~mtgui.views.studies.study_plots.PlotSpec` s into a GraphicsLayoutWidget."""

    def __init__(self, widget: pg.GraphicsLayoutWidget) -> None:
        self.widget = widget
        self.theme: PlotTheme = theme_of(widget)  # the palette's colours (a dark one too)
        self.items: list[PlotItems] = []  # per plot: the plot and its lines' items
        self.legend: SharedLegend | None = None
        self._shape: list[tuple[str, list[str]]] = []  # what the plots were made for
        self.banded: str | None = None  # the one system whose band is drawn (None: every one)
        self._fills: list[tuple[pg.FillBetweenItem, tuple[int, int, int]]] = []

    def draw(self, specs: tuple[PlotSpec, ...]) -> None:
        """Show ``specs``: new plots when their titles or lines differ from those shown, else
        the same plots with new data."""
        shape = [(spec.title.split(" (")[0], [line.name for line in spec.lines]) for spec in specs]
        if shape != self._shape:
            self._make(specs)
            self._shape = shape
        for (plot, lines), spec in zip(self.items, specs, strict=True):
            plot.setTitle(spec.title, size="9pt")
            for items, line in zip(lines, spec.lines, strict=True):
                _update_line(items, line, spec, self.banded in (None, line.name))
        self._shade(len(specs[0].lines) if specs else 0)

    def _shade(self, systems: int) -> None:
        """The bands' opacity: faint when every band of many systems is drawn."""
        alpha = FAINT_ALPHA if self.banded is None and systems > FEW else BAND_ALPHA
        for fill, color in self._fills:
            fill.setBrush(pg.mkBrush(*color, alpha))

    def _make(self, specs: tuple[PlotSpec, ...]) -> None:
        """New plots for ``specs``, side by side, and one legend under them all."""
        self.clear()
        for column, spec in enumerate(specs):
            axes = {name: ReadableAxis(name) for name in ("bottom", "left")}
            plot = self.widget.addPlot(row=0, col=column, axisItems=axes)
            self.items.append(self._make_plot(plot, spec))
        if specs:
            self.legend = SharedLegend(self.widget.ci, len(specs), self.theme.text)
            entries = [
                (items[0], line.name)
                for spec, (_, lines) in zip(specs, self.items, strict=True)
                for items, line in zip(lines, spec.lines, strict=True)
            ]
            self.legend.fill(entries, self.widget.width())

    def clear(self) -> None:
        """Remove every plot and the legend."""
        self.widget.clear()
        self.items, self._shape, self.legend, self._fills = [], [], None, []

    def _make_plot(self, plot: pg.PlotItem, spec: PlotSpec) -> PlotItems:
        """A plot with one (empty) curve per line, a band where the line has one."""
        plot.setLabel("bottom", spec.x_label)
        plot.setLabel("left", spec.y_label)
        plot.setLogMode(x=spec.log_x, y=spec.log_y)
        for axis in ("bottom", "left"):
            plot.getAxis(axis).enableAutoSIPrefix(False)
        plot.showGrid(x=True, y=True, alpha=0.2)
        if spec.x_ticks:  # counts (references): whole numbers only
            plot.getAxis("bottom").setTicks([[(x, f"{x:g}") for x in spec.x_ticks]])
        if spec.scatter:  # room for the names next to the points
            plot.getViewBox().setDefaultPadding(0.12)
        lines: list[LineItems] = []
        for number, line in enumerate(spec.lines):
            color = self.theme.series(number)
            if spec.scatter:
                symbol = series_symbol(number)  # colours first, then shapes: none alike
                curve = plot.plot(pen=None, symbol=symbol, symbolBrush=color, name=line.name)
                label = pg.TextItem(line.name, color=self.theme.text, anchor=(0, 1))
                plot.addItem(label)
                lines.append((curve, None, None, label))
                continue
            pen = pg.mkPen(color, width=2, style=series_style(number))
            curve = plot.plot(pen=pen, symbol="o", symbolSize=5, symbolBrush=color, name=line.name)
            low = high = None
            if line.low is not None and line.high is not None:
                # Curves of their own, without a pen: a PlotDataItem without a pen keeps no
                # path, and a FillBetweenItem between two such is empty.
                low, high = (pg.PlotCurveItem(pen=pg.mkPen(None)) for _ in range(2))
                plot.addItem(low)
                plot.addItem(high)
                fill = pg.FillBetweenItem(low, high, brush=(*color, BAND_ALPHA))
                plot.addItem(fill)
                self._fills.append((fill, color))
            lines.append((curve, low, high, None))
        apply_plot_theme(plot, self.theme)
        return plot, lines


def _update_line(items: LineItems, line: Line, spec: PlotSpec, banded: bool = True) -> None:
    """Give one line's items their data (only finite points, positive ones on a log axis: a
    study under way has gaps, NaN, which Qt cannot draw); its band only if ``banded``."""
    curve, low, high, label = items
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
        if spec.log_y:
            band &= bottom > 0
        # The band's curves are PlotCurveItems, which the plot's log mode does not transform.
        x = np.log10(xs[band]) if spec.log_x else xs[band]
        y_low, y_high = bottom[band], top[band]
        if spec.log_y:
            y_low, y_high = np.log10(y_low), np.log10(y_high)
        if not banded:
            x = y_low = y_high = np.zeros(0)
        low.setData(x, y_low)
        high.setData(x, y_high)
    if label is not None and shown.any():
        label.setPos(float(xs[shown][0]), float(ys[shown][0]))
