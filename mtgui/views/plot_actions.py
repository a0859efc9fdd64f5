"""Every plot of the window exports as PNG or SVG, from a button and from its right-click menu.

pyqtgraph's own right-click "Export..." opens its export dialog, whose SVG exporter fails on
the paths Qt 6.11 writes; the plots' menus offer ours instead, which go through
:mod:`mtgui.views.plot_export` (Qt's SVG painter, atomic writes).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

import pyqtgraph as pg
from PySide6.QtCore import QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QMessageBox, QPushButton, QWidget

from mtgui.engine.errors import InputError
from mtgui.views.plot_export import PLOT_FORMATS, export_plot

_FILTERS = {f"{label} (*{suffix})": suffix for suffix, label in PLOT_FORMATS.items()}


def replace_export_menu(widget: pg.GraphicsView, export: Callable[[], Any]) -> None:
    """Make the right-click menu of ``widget``'s plots offer ``export`` instead of pyqtgraph's."""
    action = QAction("Export plot (PNG or SVG)...", widget)
    action.triggered.connect(export)
    widget.scene().contextMenu = [action]


class PlotExporter(QObject):
    """Exports one plot widget (a PlotWidget or a GraphicsLayoutWidget) as PNG or SVG.

    ``ask_path`` (a save dialog, which itself asks before replacing a file) and
    ``show_problem`` can be replaced, so that tests need no dialogs.
    """

    def __init__(self, widget: pg.GraphicsView, default_name: str, parent: QWidget) -> None:
        super().__init__(parent)
        self.widget = widget
        self.default_name = default_name
        self._parent = parent
        self.ask_path: Callable[[], Path | None] = self._ask_path
        self.show_problem: Callable[[str], None] = self._show_problem
        self.last_written: Path | None = None
        replace_export_menu(widget, self.export)

    def button(self) -> QPushButton:
        """A button that exports the plot (for the view's tool row)."""
        button = QPushButton("Export plot...")
        button.setToolTip("Save this plot as a PNG image or an SVG drawing.")
        button.clicked.connect(self.export)
        return button

    def export(self) -> None:
        """Ask for a file and write the plot to it; problems are shown, never raised."""
        path = self.ask_path()
        if path is None:
            return
        try:
            self.export_to(path, overwrite=True)  # the save dialog asked already
        except InputError as error:
            self.show_problem(error.message)

    def export_to(self, path: Path, overwrite: bool = False) -> None:
        """Write the plot to ``path`` as PNG or SVG, by its ending."""
        export_plot(self.widget.scene(), path, overwrite)
        self.last_written = path

    def _ask_path(self) -> Path | None:
        name, chosen = QFileDialog.getSaveFileName(
            self._parent, "Export the plot", self.default_name + ".png", ";;".join(_FILTERS)
        )
        if not name:
            return None
        path = Path(name)
        return path if path.suffix.lower() in PLOT_FORMATS else path.with_suffix(_FILTERS[chosen])

    def _show_problem(self, message: str) -> None:
        QMessageBox.warning(self._parent, "The plot was not saved", message)
