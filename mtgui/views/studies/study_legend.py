"""One legend for all of a study's plots, in a row of its own under them.

Every plot of a study shows the same systems in the same colours, so one legend says it for
all; drawn inside a plot (pyqtgraph's default) it covers the lines, which on the small plots
of a study run through every corner. Kept in the plots' own layout, it is part of an exported
plot too.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

import pyqtgraph as pg
from PySide6.QtGui import QColor

_TEXT = QColor(40, 40, 40)

ROW = 1
"""The layout row of the legend (the plots are in row 0)."""
ENTRY_WIDTH = 150.0
"""About how wide one entry (sample and name) is, for choosing how many go in a line."""


class SharedLegend:
    """A legend under the plots of a :class:`pyqtgraph.GraphicsLayout`."""

    def __init__(self, layout: pg.GraphicsLayout, columns: int, text: QColor = _TEXT) -> None:
        self.box = pg.GraphicsWidget()
        self.legend = pg.LegendItem(labelTextColor=text, horSpacing=20)
        self.legend.setParentItem(self.box)
        self.legend.anchor(itemPos=(0.5, 0), parentPos=(0.5, 0), offset=(0, 2))
        layout.addItem(self.box, row=ROW, col=0, colspan=max(columns, 1))
        self.names: list[str] = []

    def fill(self, entries: Iterable[tuple[pg.GraphicsObject, str]], width: float) -> None:
        """One entry per name (the first item of each name shows its line and symbol), as many
        in a line as ``width`` pixels hold."""
        for item, name in entries:
            if name not in self.names:
                self.names.append(name)
                self.legend.addItem(item, name)
        per_line = max(1, min(len(self.names), int(width // ENTRY_WIDTH)))
        self.legend.setColumnCount(per_line)
        self.legend.updateSize()
        self.box.setFixedHeight(self.legend.height() + 6)
