"""The significance grid's legend on screen: what each colour and symbol means.

The colours are the grid's own (:data:`~mtgui.views.significance_grid_model.COLORS`), so the
legend cannot drift from the cells; the symbol is drawn on each swatch, as in the cells, for
people who do not tell the colours apart.
"""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLabel, QWidget

from mtgui.engine.significance import BETTER, TIE, WORSE
from mtgui.views.significance_grid_model import COLORS

ENTRIES = (
    (BETTER, "row significantly better"),
    (WORSE, "row significantly worse"),
    (TIE, "not distinguishable"),
)


class GridLegend(QWidget):
    """Three swatches with their symbols and meanings, in a row."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.swatches: list[QLabel] = []
        for verdict, meaning in ENTRIES:
            swatch = QLabel(verdict)
            swatch.setFixedSize(22, 18)
            swatch.setStyleSheet(
                f"background: {COLORS[verdict].name()}; color: #000000; font-weight: bold; "
                "qproperty-alignment: AlignCenter; border: 1px solid #9aa5b1;"
            )
            self.swatches.append(swatch)
            layout.addWidget(swatch)
            layout.addWidget(QLabel(meaning))
            layout.addSpacing(12)
        layout.addStretch(1)
