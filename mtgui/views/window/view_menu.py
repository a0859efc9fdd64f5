"""The View menu: how the numbers read, which changes no result (no run starts).

BLEU and M-BLEU on sacreBLEU's 0-100 scale is a way of reading the same numbers
(:mod:`mtgui.engine.scale`): the choice is remembered between runs, survives File > New (it is
not a setting of the analysis) and applies at once to every view and export.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QAction

if TYPE_CHECKING:
    from mtgui.views.window.main_window import MainWindow

BLEU_SCALE_TEXT = "BLEU and M-BLEU on a &0-100 scale"
BLEU_SCALE_TIP = (
    "Show BLEU and M-BLEU as sacreBLEU does (0-100) instead of as mteval-v13a does (0-1), in "
    "every view and export. The numbers are the same, times 100; nothing runs again."
)


def add_view_menu(window: MainWindow) -> None:
    """Make ``window.bleu_scale_action`` and the View menu that holds it."""
    action = QAction(BLEU_SCALE_TEXT, window)
    action.setCheckable(True)
    action.setToolTip(BLEU_SCALE_TIP)
    action.setStatusTip(BLEU_SCALE_TIP)
    window.bleu_scale_action = action
    window.menuBar().addMenu("&View").addAction(action)
