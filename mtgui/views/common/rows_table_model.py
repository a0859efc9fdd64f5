"""Any table of rows (a header and tuples of values) as a read-only, numerically sortable model.

The studies produce plain tables (the same ones their CSV export writes); this model shows
them: numbers rounded for reading, the raw value under ``SORT_ROLE`` so that a
``QSortFilterProxyModel`` sorts 10 after 9, and a tooltip per column where one is given.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

SORT_ROLE = Qt.ItemDataRole.UserRole + 1
"""Where every table model of the views gives a cell's raw value, for the sorting proxies
(``QSortFilterProxyModel.setSortRole``): numbers sort as numbers, not as their text."""
_Index = QModelIndex | QPersistentModelIndex


class RowsTableModel(QAbstractTableModel):
    """A header and rows of values."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._header: list[str] = []
        self._rows: list[Sequence[Any]] = []
        self._tips: Mapping[str, str] = {}

    def set_table(
        self,
        header: Sequence[str],
        rows: Sequence[Sequence[Any]],
        tips: Mapping[str, str] | None = None,
    ) -> None:
        """Show a new table (the column tooltips are looked up by header)."""
        self.beginResetModel()
        self._header, self._rows, self._tips = list(header), list(rows), tips or {}
        self.endResetModel()

    @property
    def header(self) -> list[str]:
        """The column names."""
        return list(self._header)

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self._header)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        value = self._rows[index.row()][index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return cell_text(value)
        if role == SORT_ROLE:
            return _sort_key(value)
        if role == Qt.ItemDataRole.TextAlignmentRole and _is_number(value):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def headerData(  # noqa: N802
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal or section >= len(self._header):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self._header[section]
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tips.get(self._header[section])
        return None


def cell_text(value: Any) -> str:
    """A value as a reader wants it: floats to 4 decimals, '-' for none or NaN."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if isinstance(value, float):
        return f"{value:.4f}"
    return str(value)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _sort_key(value: Any) -> Any:
    """Numbers as numbers (undefined last), everything else as text."""
    if _is_number(value):
        return -math.inf if math.isnan(value) else value
    return "" if value is None else str(value)
