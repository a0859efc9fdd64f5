"""The Breakdown tab's plot: per group a row, per system a dot (its score) and a whisker (its
interval), side by side within the row, in the system's colour and line style.

A dot-and-whisker plot reads across groups at a glance (which system leads where, and by how
much the intervals overlap), which a table of numbers does not.
"""

from __future__ import annotations

import html
import math
import os

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPen

from mtgui.engine.breakdown import Breakdown
from mtgui.engine.metrics import LABELS
from mtgui.views.common.palette import series_style
from mtgui.views.export.plot_theme import PlotTheme

ROW_SPAN = 0.7
"""The share of a group's row that its systems' marks take."""


def draw_breakdown(
    plot: pg.PlotItem, breakdown: Breakdown, metric: str, theme: PlotTheme
) -> tuple[list[pg.GraphicsObject], str]:
    """Draw ``breakdown`` under ``metric`` into ``plot``; returns the items drawn (to remove
    them before the next drawing) and the legend as rich text, for a label under the plot
    (inside it, a legend would hide the marks)."""
    items: list[pg.GraphicsObject] = []
    entries = []
    count = len(breakdown.systems)
    step = ROW_SPAN / max(count, 1)
    for number, system in enumerate(breakdown.systems):
        color = QColor(*theme.series(number))
        offset = (number - (count - 1) / 2) * step
        y, x, low, high = [], [], [], []
        for row, group in enumerate(breakdown.groups):
            score = group.score(system, metric)
            if math.isnan(score):
                continue
            y.append(row + offset)
            x.append(score)
            interval = group.bootstrap.interval(system, metric) if group.bootstrap else None
            low.append(score - interval.ci_low if interval else 0.0)
            high.append(interval.ci_high - score if interval else 0.0)
        pen = QPen(color, 2)
        pen.setStyle(series_style(number))
        pen.setCosmetic(True)
        whiskers = pg.ErrorBarItem(
            x=np.array(x),
            y=np.array(y),
            left=np.array(low),
            right=np.array(high),
            beam=step * 0.6,
            pen=pen,
        )
        dots = pg.ScatterPlotItem(x=x, y=y, size=8, brush=pg.mkBrush(color), pen=pg.mkPen(color))
        for item in (whiskers, dots):
            plot.addItem(item)
            items.append(item)
        entries.append(legend_entry(system, color, number))
    plot.getAxis("left").setTicks([[(row, g.label) for row, g in enumerate(breakdown.groups)]])
    plot.setLabel("bottom", LABELS.get(metric, metric))
    plot.setYRange(-0.5, len(breakdown.groups) - 0.5, padding=0.02)
    plot.enableAutoRange(axis="x")
    return items, "&nbsp;&nbsp; ".join(entries)


def legend_entry(system: str, color: QColor, number: int) -> str:
    """A system's mark in the legend: its colour, and its line style past seven systems.

    The mark never ends a line whose next starts with the name: a word joiner holds the dot to
    the dash (a line may break before an em dash), a no-break space the dash to the name, and
    one the name to its line style; only the spaces between entries (and in a name) break."""
    style = {
        Qt.PenStyle.DashLine: "&nbsp;(dashed)",
        Qt.PenStyle.DotLine: "&nbsp;(dotted)",
        Qt.PenStyle.DashDotLine: "&nbsp;(dash-dot)",
    }.get(series_style(number), "")
    name = html.escape(system)
    mark = f'<span style="color: {color.name()}">&#9679;&#8288;&#8212;</span>'
    return f"{mark}&nbsp;{name}{style}"
