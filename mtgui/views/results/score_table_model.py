"""The relative-CI table (Zhang & Vogel Table 1; Zhang, Vogel & Waibel Tables 2-3) as a Qt model.

One row per system, for one metric: score, median, the interval, the relative interval, mean
and RSD. The display role shows rounded text; ``SORT_ROLE`` gives the raw number so that a
``QSortFilterProxyModel`` sorts numerically. The best system under the metric is shown in bold.
"""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QFont

from mtgui.engine.inference import ScoreInterval
from mtgui.engine.resampling import DEFAULT_LEVEL, BootstrapResult
from mtgui.views.common.rows_table_model import SORT_ROLE

_Index = QModelIndex | QPersistentModelIndex

COLUMNS: tuple[tuple[str, str, str], ...] = (
    # header, attribute, tooltip ("{level}" is the confidence level, e.g. "95%")
    ("System", "system", "The system's name; the best system under this metric comes first."),
    (
        "Rank",
        "rank",
        "The system's rank range at {level}: 1 + the systems significantly better, to the "
        "systems not significantly worse. One number: its place is certain; a range: it cannot "
        "be told apart from the systems it overlaps.",
    ),
    ("Score", "score", "The system's score on the whole test set, before any resampling."),
    (
        "Median",
        "median",
        "The median of the system's bootstrap scores (Zhang & Vogel 2004, section 3.1).",
    ),
    (
        "CI low",
        "ci_low",
        "The lower end of the {level} bootstrap percentile confidence interval "
        "(Zhang & Vogel 2004, Table 1).",
    ),
    (
        "CI high",
        "ci_high",
        "The upper end of the {level} bootstrap percentile confidence interval "
        "(Zhang & Vogel 2004, Table 1).",
    ),
    (
        "Rel. low",
        "rel_ci_low",
        "How far below the median the interval reaches, in percent of the median: the left "
        "half of the relative confidence interval (Zhang & Vogel 2004, Table 1).",
    ),
    (
        "Rel. high",
        "rel_ci_high",
        "How far above the median the interval reaches, in percent of the median: the right "
        "half of the relative confidence interval (Zhang & Vogel 2004, Table 1).",
    ),
    ("Mean", "mean", "The mean of the system's bootstrap scores (Zhang & Vogel 2004)."),
    (
        "RSD",
        "rsd",
        "The relative standard deviation of the bootstrap scores, 100 x sigma / mean in percent "
        "(Zhang, Vogel & Waibel 2004, Tables 2-3).",
    ),
)
_PERCENT = {"rel_ci_low", "rel_ci_high", "rsd"}
NOT_RELATIVE = (
    "Left empty: a relative interval and the RSD divide by the score, and scores such as "
    "human z-scores can be near or below 0, where a percentage means nothing. Read the "
    "absolute interval (CI low, CI high) instead."
)


class ScoreTableModel(QAbstractTableModel):
    """Intervals of every system under one metric, best first."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._rows: list[ScoreInterval] = []
        self._ranks: dict[str, tuple[int, int]] = {}  # best and worst rank of each system
        self._best: str | None = None
        self._level = DEFAULT_LEVEL

    def set_result(self, result: BootstrapResult | None, metric: str) -> None:
        """Show ``metric`` of ``result`` (or nothing)."""
        self.beginResetModel()
        if result is None or metric not in result.metrics:
            self._rows, self._best = [], None
        else:
            ranking = result.ranking(metric).systems
            order = [entry.system for entry in ranking]
            self._rows = [result.interval(system, metric) for system in order]
            self._ranks = {e.system: (e.best_rank, e.worst_rank) for e in ranking}
            self._best = order[0] if order else None
            self._level = result.settings.level
        self.endResetModel()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(COLUMNS)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        interval, (_, attribute, _) = self._rows[index.row()], COLUMNS[index.column()]
        if attribute == "rank":
            return self._rank(interval.system, role)
        value = getattr(interval, attribute)
        if attribute in _PERCENT and not interval.ratio_scale:
            return self._not_relative(role)
        if role == Qt.ItemDataRole.DisplayRole:
            return _text(value, attribute)
        if role == SORT_ROLE:
            return value
        if role == Qt.ItemDataRole.TextAlignmentRole and attribute != "system":
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.FontRole and interval.system == self._best:
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.ToolTipRole and interval.system == self._best:
            return "The best system under this metric."
        return None

    def _rank(self, system: str, role: int) -> Any:
        """The rank range of ``system``: "2" or "2-3"; sorted by its best rank."""
        best, worst = self._ranks.get(system, (0, 0))
        if role == Qt.ItemDataRole.DisplayRole:
            return str(best) if best == worst else f"{best}-{worst}"
        if role == SORT_ROLE:
            return best + worst / 1000
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignCenter)
        return None

    @staticmethod
    def _not_relative(role: int) -> Any:
        """A relative cell of a metric off a ratio scale: empty, and a tooltip that says why."""
        if role == Qt.ItemDataRole.DisplayRole:
            return ""
        return NOT_RELATIVE if role == Qt.ItemDataRole.ToolTipRole else None

    def headerData(  # noqa: N802
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section][0]
        if role == Qt.ItemDataRole.ToolTipRole:
            return COLUMNS[section][2].format(level=f"{self._level * 100:g}%")
        return None


def _text(value: Any, attribute: str) -> str:
    """Numbers rounded for reading; '-' for undefined."""
    if isinstance(value, str):
        return value
    if value is None or math.isnan(value):
        return "-"
    if attribute in _PERCENT:
        return f"{value:+.2f}%" if attribute.startswith("rel") else f"{value:.2f}%"
    return f"{value:.4f}"
