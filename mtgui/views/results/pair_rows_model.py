"""Rows of two systems' scores (segments or documents) as a Qt table model over numpy arrays.

The Segments and Documents views show the same thing at two grains: per row an item (a segment,
a document), system A's score, system B's, and how much better A is. A test set may have
100,000 segments, so nothing here works cell by cell: a sort is one stable ``np.argsort`` of
the clicked column's key, a filter is a boolean mask, and ``data()`` formats only the cells the
view asks for. A ``QSortFilterProxyModel`` would instead call ``data()`` for every row on every
sort. The subclasses say what their columns hold (:meth:`PairRowsModel.text`,
:meth:`PairRowsModel.header_tips`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cached_property
from typing import Any, ClassVar, Protocol

import numpy as np
import numpy.typing as npt
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

from mtgui.engine.core import FloatArray, IntArray
from mtgui.views.common.palette import series_color

Index = QModelIndex | QPersistentModelIndex

A_TINT = QColor(*series_color(0), 45)  # the first and second series colours, faint
B_TINT = QColor(*series_color(1), 45)


class PairTable(Protocol):
    """What a pair model shows: its items' scores under A and B, and how to sort them."""

    @property
    def names(self) -> tuple[str, str]:
        """System A's name and system B's."""
        ...

    @property
    def metric_label(self) -> str:
        """The metric, as people write it."""
        ...

    @property
    def higher_is_better(self) -> bool:
        """The metric's direction (the difference is taken so that positive favours A)."""
        ...

    @property
    def size(self) -> int:
        """The number of items (rows before a filter)."""
        ...

    @property
    def difference(self) -> FloatArray:
        """How much better A is than B on each item: positive means A is better."""
        ...

    def sort_key(self, column: int) -> npt.NDArray[Any]:
        """The values a column sorts by, one per item."""
        ...


class PairScores:
    """What both tables share: A's and B's score on each item and which way is better; the
    dataclasses that inherit it declare the fields (their items first)."""

    score_a: FloatArray
    score_b: FloatArray
    higher_is_better: bool

    @property
    def size(self) -> int:
        """The number of items."""
        return len(self.score_a)

    @cached_property
    def difference(self) -> FloatArray:
        """How much better A is than B on each item: positive means A is better."""
        gap: FloatArray = self.score_a - self.score_b
        return gap if self.higher_is_better else -gap


def alphabetical_ranks(texts: Sequence[str]) -> IntArray:
    """The rank of each text among the distinct texts in alphabetical order (for sorting)."""
    if not len(texts):
        return np.zeros(0, dtype=np.int64)
    _, inverse = np.unique(np.asarray(texts, dtype=str), return_inverse=True)
    ranks: IntArray = inverse.astype(np.int64).reshape(-1)
    return ranks


def sorted_items(key: npt.NDArray[Any], descending: bool) -> IntArray:
    """Items ordered by ``key``, stable (ties keep their order), NaN last either way."""
    if descending:
        key = -key  # not reversing the ascending order: that would put NaN first
    order: IntArray = np.argsort(key, kind="stable").astype(np.int64)
    return order


def score_text(value: float, signed: bool = False) -> str:
    """A score as the score table shows it (4 decimals); '-' for none."""
    if math.isnan(value):
        return "-"
    return f"{value:+.4f}" if signed else f"{value:.4f}"


class PairRowsModel(QAbstractTableModel):
    """Items of two systems, sorted by the difference (A's biggest gains first) until a click,
    filtered by a mask; selections follow their items through sorts."""

    HEADERS: ClassVar[tuple[str, ...]]  # "{a}" and "{b}" stand for the two systems' names
    OWN_ORDER: ClassVar[int]  # the column of the items' own order (the view's "unsorted")
    TEXT_COLUMNS: ClassVar[frozenset[int]]  # left-aligned; the others are numbers
    DIFFERENCE: ClassVar[int]
    UNIT: ClassVar[str]  # "segment", "document"

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.table: PairTable | None = None
        self._order = np.zeros(0, dtype=np.int64)  # all items, in the sorted order
        self._mask: npt.NDArray[np.bool_] | None = None  # the items the filter keeps
        self._rows = np.zeros(0, dtype=np.int64)  # the item shown in each row
        self._sort: tuple[int, Qt.SortOrder] = (self.DIFFERENCE, Qt.SortOrder.DescendingOrder)

    # -- what is shown ------------------------------------------------------------------------

    def set_table(self, table: PairTable | None) -> None:
        """Show new scores, sorted as before; the filter is dropped (its texts may differ)."""
        self.beginResetModel()
        self.table, self._mask = table, None
        self._order = self._sorted_order()
        self._rows = self._order
        self.endResetModel()

    def set_mask(self, mask: npt.NDArray[np.bool_] | None) -> None:
        """Show only the items where ``mask`` is true (all for None)."""
        self.beginResetModel()
        self._mask = mask
        self._rows = self._order if mask is None else self._order[mask[self._order]]
        self.endResetModel()

    def item(self, row: int) -> int:
        """The item (an index into the table) shown in ``row``."""
        return int(self._rows[row])

    def row_of(self, item: int) -> int | None:
        """The row that shows ``item``, or None where the filter hides it."""
        found = np.flatnonzero(self._rows == item)
        return int(found[0]) if len(found) else None

    @property
    def sort_order(self) -> tuple[int, Qt.SortOrder]:
        """The column the rows are sorted by and in which direction."""
        return self._sort

    # -- sorting ------------------------------------------------------------------------------

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort all items by a column with numpy; selections follow their items."""
        if not 0 <= column < len(self.HEADERS):
            column, order = self.OWN_ORDER, Qt.SortOrder.AscendingOrder  # -1: "unsorted"
        self._sort = (column, order)
        self.layoutAboutToBeChanged.emit()
        old = self.persistentIndexList()
        items = [self.item(index.row()) for index in old]
        self._order = self._sorted_order()
        self._rows = self._order if self._mask is None else self._order[self._mask[self._order]]
        position = np.full(len(self._order), -1, dtype=np.int64)
        position[self._rows] = np.arange(len(self._rows))
        new = [self.index(int(position[s]), i.column()) for s, i in zip(items, old, strict=True)]
        self.changePersistentIndexList(old, new)
        self.layoutChanged.emit()

    def _sorted_order(self) -> IntArray:
        if self.table is None:
            return np.zeros(0, dtype=np.int64)
        column, order = self._sort
        descending = order == Qt.SortOrder.DescendingOrder
        return sorted_items(self.table.sort_key(column), descending)

    # -- what the columns hold (the subclasses') ---------------------------------------------

    def text(self, item: int, column: int) -> str:
        """The text of one cell."""
        raise NotImplementedError

    def cell_tip(self, item: int, column: int) -> str | None:
        """The tooltip of one cell: the difference's says who is better, and by how much."""
        return self.difference_tip(item) if column == self.DIFFERENCE else None

    def header_tips(self, names: tuple[str, str], label: str, direction: str) -> dict[int, str]:
        """Each column's tooltip; ``direction`` says which way the difference is taken."""
        raise NotImplementedError

    def difference_tip(self, item: int) -> str:
        """Who is better on ``item``, and by how much."""
        table = self.table
        assert table is not None
        gap = float(table.difference[item])
        if math.isnan(gap):
            return f"One of the two systems has no score for this {self.UNIT}."
        if gap == 0:
            return f"Both systems score the same on this {self.UNIT}."
        better = table.names[0] if gap > 0 else table.names[1]
        return f"{better} is better on this {self.UNIT} by {abs(gap):.4f} {table.metric_label}."

    # -- Qt's model interface -----------------------------------------------------------------

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self.HEADERS)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or self.table is None:
            return None
        item, column = self.item(index.row()), index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self.text(item, column)
        if role == Qt.ItemDataRole.TextAlignmentRole and column not in self.TEXT_COLUMNS:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if column == self.DIFFERENCE and role == Qt.ItemDataRole.BackgroundRole:
            gap = self.table.difference[item]
            return QBrush(A_TINT if gap > 0 else B_TINT) if gap > 0 or gap < 0 else None
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.cell_tip(item, column)
        return None

    def headerData(  # noqa: N802
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self.HEADERS):
            return None
        names = self.table.names if self.table else ("system A", "system B")
        if role == Qt.ItemDataRole.DisplayRole:
            return self.HEADERS[section].format(a=names[0], b=names[1])
        if role == Qt.ItemDataRole.ToolTipRole:
            label = self.table.metric_label if self.table else "score"
            lower = self.table is not None and not self.table.higher_is_better
            first, second = (names[1], names[0]) if lower else names
            direction = f"{first} − {second}" + (f", as lower {label} is better" if lower else "")
            return self.header_tips(names, label, direction)[section]
        return None
