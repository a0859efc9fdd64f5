"""Every plot of the window exports as PNG or SVG, from a button and from its right-click menu.

pyqtgraph's own right-click "Export..." opens its export dialog, whose SVG exporter fails on
the paths Qt 6.11 writes; the plots' menus offer ours instead, which go through
:mod:`mtgui.views.export.plot_export` (Qt's SVG painter, atomic writes).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

import pyqtgraph as pg
from pyqtgraph.graphicsItems.ViewBox.ViewBoxMenu import ViewBoxMenu
from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMessageBox, QPushButton, QWidget

from mtgui.engine.core import InputError
from mtgui.views.common.dialogs import ask_save_path, ask_to_replace
from mtgui.views.export.plot_export import PLOT_FORMATS, export_plot


def replace_export_menu(widget: pg.GraphicsView, export: Callable[[], Any]) -> None:
    """Make the right-click menu of ``widget``'s plots offer ``export`` instead of pyqtgraph's."""
    action = QAction("Export plot (PNG or SVG)...", widget)
    action.triggered.connect(export)
    widget.scene().contextMenu = [action]


class MenuOnDemandViewBox(pg.ViewBox):  # type: ignore[misc]  # pyqtgraph has no types
    """A ViewBox whose right-click menu is built the first time it is asked for.

    pyqtgraph builds every ViewBox's menu (two panels of axis widgets) as the box is made, ~2 ms
    a plot, and updates it on every change of range; of twenty histograms, few are ever
    right-clicked.
    """

    menu: ViewBoxMenu | None

    def __init__(self) -> None:
        super().__init__(enableMenu=False)
        self.state["enableMenu"] = True  # offered; made when first asked for

    def getMenu(self, ev: object) -> ViewBoxMenu:  # noqa: N802 (pyqtgraph's name)
        if self.menu is None:
            self.menu = ViewBoxMenu(self)
            self.updateViewLists()
        return self.menu

    def getContextMenus(self, event: object) -> list[QAction]:  # noqa: N802
        return self.getMenu(event).actions() if self.menuEnabled() else []


class PlotExporter(QObject):
    """Exports one plot widget (a PlotWidget or a GraphicsLayoutWidget) as PNG or SVG.

    ``caption`` gives the lines printed under an exported image (what the lines mean, the
    settings). ``ask_path``, ``confirm_overwrite`` and ``show_problem`` can be replaced, so
    that tests need no dialogs; ``ready`` says whether there is anything to export yet. ``exported``
    says where a plot was written (the window shows it in the status line).
    """

    exported = Signal(object)  # the Path just written

    def __init__(
        self,
        widget: pg.GraphicsView,
        default_name: str,
        parent: QWidget,
        ready: Callable[[], bool] = lambda: True,
    ) -> None:
        super().__init__(parent)
        self.widget = widget
        self.default_name = default_name
        self.ready = ready
        self._parent = parent
        self.caption: Callable[[], list[str]] = list  # what the plot shows, under its image
        self.ask_path: Callable[[], Path | None] = self._ask_path
        self.confirm_overwrite: Callable[[list[Path]], bool] = self._ask_overwrite
        self.show_problem: Callable[[str], None] = self._show_problem
        replace_export_menu(widget, self.export)

    def button(self) -> QPushButton:
        """A button that exports the plot (for the view's tool row)."""
        button = QPushButton("Export plot...")
        button.setToolTip("Save this plot as a PNG image or an SVG drawing.")
        button.clicked.connect(self.export)
        return button

    def export(self) -> None:
        """Ask for a file (and before replacing one) and write the plot to it; problems are
        shown, never raised."""
        if not self.ready():
            return
        path = self.ask_path()
        if path is None or (path.exists() and not self.confirm_overwrite([path])):
            return
        try:
            self.export_to(path, overwrite=True)
        except InputError as error:
            self.show_problem(error.message)
        else:
            self.exported.emit(path)

    def export_to(self, path: Path, overwrite: bool = False) -> None:
        """Write the plot to ``path`` as PNG or SVG, by its ending."""
        export_plot(self.widget.scene(), path, overwrite, self.caption())

    def _ask_path(self) -> Path | None:
        return ask_save_path(
            self._parent, "Export the plot", self.default_name + ".png", PLOT_FORMATS
        )

    def _ask_overwrite(self, existing: list[Path]) -> bool:
        return ask_to_replace(self._parent, existing)

    def _show_problem(self, message: str) -> None:
        QMessageBox.warning(self._parent, "The plot was not saved", message)
