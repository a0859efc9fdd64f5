"""The significance grid's legend on screen: what each colour and symbol means.

The colours are the grid's own
(:func:`~mtgui.views.results.significance_grid_model.verdict_colors`), so the legend cannot drift
from the cells, in a light palette or a dark one; the symbol is drawn on each swatch, as in the
cells, for people who do not tell the colours apart.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QWidget

from mtgui.engine.inference import BETTER, EQUIVALENT, TIE, WORSE
from mtgui.views.common.palette import is_dark
from mtgui.views.results.significance_grid_model import verdict_colors

ENTRIES = (
    (BETTER, "row significantly better"),
    (WORSE, "row significantly worse"),
    (TIE, "not distinguishable"),
    (EQUIVALENT, "equivalent within the margin"),
)


class GridLegend(QWidget):
    """Three swatches with their symbols and meanings, in a row."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.swatches: list[QLabel] = []
        self.meanings: list[QLabel] = []
        for verdict, meaning in ENTRIES:
            swatch = QLabel(verdict)
            swatch.setFixedSize(22, 18)
            self.swatches.append(swatch)
            self.meanings.append(QLabel(meaning))
            self.meanings[-1].setWordWrap(True)  # a narrow pane (150%) wraps, never cuts
            layout.addWidget(swatch)
            layout.addWidget(self.meanings[-1])
            layout.addSpacing(12)
        self.show_equivalence(False)
        layout.addStretch(1)
        self._dark: bool | None = None
        self._paint_swatches()

    def show_equivalence(self, shown: bool) -> None:
        """Show the ``=`` entry only where a margin was given (without one no ``=`` appears)."""
        self.swatches[-1].setVisible(shown)
        self.meanings[-1].setVisible(shown)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        """A new palette (the desktop turned dark or light): colour the swatches as the grid."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._paint_swatches()

    def _paint_swatches(self) -> None:
        dark = is_dark(self.palette())
        if dark == self._dark:
            return
        self._dark = dark
        for swatch, (verdict, _meaning) in zip(self.swatches, ENTRIES, strict=True):
            background, text = verdict_colors(verdict, dark)
            swatch.setStyleSheet(
                f"background: {background.name()}; color: {text.name()}; font-weight: bold; "
                "qproperty-alignment: AlignCenter; border: 1px solid #9aa5b1;"
            )
