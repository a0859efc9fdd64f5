"""The Breakdown view's table: one row per group, its size and every system's score with its
interval under the metric shown (a Qt model over the breakdown, numbers sort as numbers)."""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from mtgui.engine.breakdown import Breakdown, GroupResult
from mtgui.report.cells import four_decimals
from mtgui.views.common.absent import NOT_IN_RESULTS
from mtgui.views.common.rows_table_model import SORT_ROLE

_Index = QModelIndex | QPersistentModelIndex
_FIXED = ("Group", "Segments", "Documents")


class BreakdownTableModel(QAbstractTableModel):
    """Groups by (group, segments, documents, each system's ``score [low, high]``, notes)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.breakdown: Breakdown | None = None
        self.metric = ""

    def set_breakdown(self, breakdown: Breakdown | None, metric: str) -> None:
        """Show ``breakdown`` under ``metric``."""
        self.beginResetModel()
        self.breakdown, self.metric = breakdown, metric
        self.endResetModel()

    def group(self, row: int) -> GroupResult | None:
        """The group of a row."""
        if self.breakdown is None or not 0 <= row < len(self.breakdown.groups):
            return None
        return self.breakdown.groups[row]

    def _systems(self) -> tuple[str, ...]:
        return () if self.breakdown is None else self.breakdown.systems

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() or self.breakdown is None else len(self.breakdown.groups)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008, N802
        return (
            0
            if parent.isValid() or self.breakdown is None
            else len(_FIXED) + len(self._systems()) + 1
        )

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        group = self.group(index.row())
        if group is None:
            return None
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(group, column)
        if role == SORT_ROLE:
            return self._sort_value(group, column)
        if role == Qt.ItemDataRole.ToolTipRole:
            return " ".join(group.notes) or None
        if role == Qt.ItemDataRole.TextAlignmentRole and 0 < column <= len(_FIXED) + len(
            self._systems()
        ):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _text(self, group: GroupResult, column: int) -> str:
        systems = self._systems()
        if column == 0:
            return group.label
        if column == 1:
            return str(group.segments)
        if column == 2:
            return "" if group.documents is None else str(group.documents)
        if column < len(_FIXED) + len(systems):
            return self._score_text(group, systems[column - len(_FIXED)])
        return " ".join(group.notes)

    def _score_text(self, group: GroupResult, system: str) -> str:
        if (system, self.metric) not in group.scores:  # a breakdown of earlier results
            return NOT_IN_RESULTS
        score = group.score(system, self.metric)
        text = four_decimals(score)
        if group.bootstrap is not None and not math.isnan(score):
            i = group.bootstrap.interval(system, self.metric)
            text += f" [{four_decimals(i.ci_low)}, {four_decimals(i.ci_high)}]"
        return text

    def _sort_value(self, group: GroupResult, column: int) -> Any:
        systems = self._systems()
        if column == 1:
            return group.segments
        if column == 2:
            return -1 if group.documents is None else group.documents
        if len(_FIXED) <= column < len(_FIXED) + len(systems):
            score = group.scores.get((systems[column - len(_FIXED)], self.metric), math.nan)
            return -math.inf if math.isnan(score) else score
        if column == 0 and self.breakdown is not None:
            return self.breakdown.groups.index(group)  # the groups' own order (buckets)
        return self._text(group, column)

    def headerData(  # noqa: N802
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal or self.breakdown is None:
            return None
        systems = self._systems()
        if role == Qt.ItemDataRole.DisplayRole:
            if section < len(_FIXED):
                return _FIXED[section]
            if section < len(_FIXED) + len(systems):
                return systems[section - len(_FIXED)]
            return "Notes"
        if role == Qt.ItemDataRole.ToolTipRole and len(_FIXED) <= section:
            if section < len(_FIXED) + len(systems):
                return "The system's score on the group's segments alone, with its interval."
            return "Why a group has no interval, and which unit was resampled."
        return None
