"""The segments of two systems as a Qt table model over numpy arrays: sorted and filtered there.

A test set may have 100,000 segments, so nothing here works cell by cell: the model keeps the
scores as arrays, a sort is one stable ``np.argsort`` of the clicked column's key, a filter is
a boolean mask, and ``data()`` formats only the cells the view asks for (the visible ones).
A ``QSortFilterProxyModel`` would instead call ``data()`` for every row on every sort.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

from mtgui.views.palette import series_color

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
_Index = QModelIndex | QPersistentModelIndex

NUMBER, DOCUMENT, SEGMENT, SCORE_A, SCORE_B, DIFFERENCE = range(6)
A_TINT = QColor(*series_color(0), 45)  # the first and second series colours, faint
B_TINT = QColor(*series_color(1), 45)


@dataclass(frozen=True)
class SegmentTable:
    """What the table shows: segment ids and one score per segment for systems A and B."""

    doc_ids: Sequence[str]
    seg_ids: Sequence[str]
    score_a: FloatArray
    score_b: FloatArray
    names: tuple[str, str]
    metric_label: str
    higher_is_better: bool = True

    @property
    def size(self) -> int:
        """The number of segments."""
        return len(self.score_a)

    @cached_property
    def difference(self) -> FloatArray:
        """How much better A is than B on each segment: positive means A is better."""
        gap: FloatArray = self.score_a - self.score_b
        return gap if self.higher_is_better else -gap

    @cached_property
    def document_ranks(self) -> IntArray:
        """Each segment's document in alphabetical order of document ids (for sorting)."""
        return _ranks(self.doc_ids)

    @cached_property
    def segment_keys(self) -> IntArray:
        """Segment ids as numbers where they all are numbers, else in alphabetical order."""
        try:
            return np.asarray(self.seg_ids, dtype=np.int64)
        except (ValueError, OverflowError):
            return _ranks(self.seg_ids)

    def sort_key(self, column: int) -> npt.NDArray[Any]:
        """The values a column sorts by, one per segment."""
        if column == NUMBER:
            return np.arange(self.size, dtype=np.int64)
        if column == DOCUMENT:
            return self.document_ranks
        if column == SEGMENT:
            return self.segment_keys
        return {SCORE_A: self.score_a, SCORE_B: self.score_b}.get(column, self.difference)


def sorted_segments(key: npt.NDArray[Any], descending: bool) -> IntArray:
    """Segments ordered by ``key``, stable (ties keep segment order), NaN last either way."""
    if descending:
        key = -key  # not reversing the ascending order: that would put NaN first
    order: IntArray = np.argsort(key, kind="stable").astype(np.int64)
    return order


def segments_containing(columns: Sequence[Sequence[str]], needle: str) -> npt.NDArray[np.bool_]:
    """Which segments contain ``needle`` (ignoring case) in any of the columns of texts.

    Each column is joined into one string and searched once, so a search over 100,000
    segments costs a scan of the text, not a Python step per segment.
    """
    size = len(columns[0]) if columns else 0
    found = np.zeros(size, dtype=bool)
    needle = needle.casefold()
    if not needle:
        return ~found
    pattern = re.compile(re.escape(needle))
    for texts in columns:
        # NUL between segments: no loaded text holds one (the readers refuse it).
        joined = "\0".join(texts).casefold()
        breaks = np.flatnonzero(np.frombuffer(joined.encode("utf-32-le"), dtype=np.uint32) == 0)
        hits = np.fromiter((m.start() for m in pattern.finditer(joined)), np.int64)
        found[np.searchsorted(breaks, hits)] = True
    return found


def _ranks(texts: Sequence[str]) -> IntArray:
    """The rank of each text among the distinct texts in alphabetical order."""
    if not len(texts):
        return np.zeros(0, dtype=np.int64)
    _, inverse = np.unique(np.asarray(texts, dtype=str), return_inverse=True)
    ranks: IntArray = inverse.astype(np.int64).reshape(-1)
    return ranks


class SegmentsModel(QAbstractTableModel):
    """One row per segment: number, document, segment id, A's score, B's score, difference."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.table: SegmentTable | None = None
        self._order = np.zeros(0, dtype=np.int64)  # all segments, in the sorted order
        self._mask: npt.NDArray[np.bool_] | None = None  # the segments the filter keeps
        self._rows = np.zeros(0, dtype=np.int64)  # the segment shown in each row
        self._sort: tuple[int, Qt.SortOrder] = (DIFFERENCE, Qt.SortOrder.DescendingOrder)

    # -- what is shown ------------------------------------------------------------------------

    def set_table(self, table: SegmentTable | None) -> None:
        """Show new scores, sorted as before; the filter is dropped (its texts may differ)."""
        self.beginResetModel()
        self.table, self._mask = table, None
        self._order = self._sorted_order()
        self._rows = self._order
        self.endResetModel()

    def set_mask(self, mask: npt.NDArray[np.bool_] | None) -> None:
        """Show only the segments where ``mask`` is true (all for None)."""
        self.beginResetModel()
        self._mask = mask
        self._rows = self._order if mask is None else self._order[mask[self._order]]
        self.endResetModel()

    def segment(self, row: int) -> int:
        """The segment (index into the test set) shown in ``row``."""
        return int(self._rows[row])

    def row_of(self, segment: int) -> int | None:
        """The row that shows ``segment``, or None where the filter hides it."""
        found = np.flatnonzero(self._rows == segment)
        return int(found[0]) if len(found) else None

    @property
    def sort_order(self) -> tuple[int, Qt.SortOrder]:
        """The column the rows are sorted by and in which direction."""
        return self._sort

    # -- sorting ------------------------------------------------------------------------------

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort all segments by a column with numpy; selections follow their segments."""
        if not 0 <= column < len(_HEADERS):
            column, order = NUMBER, Qt.SortOrder.AscendingOrder  # -1: the view's "unsorted"
        self._sort = (column, order)
        self.layoutAboutToBeChanged.emit()
        old = self.persistentIndexList()
        segments = [self.segment(index.row()) for index in old]
        self._order = self._sorted_order()
        self._rows = self._order if self._mask is None else self._order[self._mask[self._order]]
        position = np.full(len(self._order), -1, dtype=np.int64)
        position[self._rows] = np.arange(len(self._rows))
        new = [self.index(int(position[s]), i.column()) for s, i in zip(segments, old, strict=True)]
        self.changePersistentIndexList(old, new)
        self.layoutChanged.emit()

    def _sorted_order(self) -> IntArray:
        if self.table is None:
            return np.zeros(0, dtype=np.int64)
        column, order = self._sort
        descending = order == Qt.SortOrder.DescendingOrder
        return sorted_segments(self.table.sort_key(column), descending)

    # -- Qt's model interface -----------------------------------------------------------------

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(_HEADERS)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or self.table is None:
            return None
        segment, column = self.segment(index.row()), index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(segment, column)
        if role == Qt.ItemDataRole.TextAlignmentRole and column != DOCUMENT:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if column == DIFFERENCE and role == Qt.ItemDataRole.BackgroundRole:
            gap = self.table.difference[segment]
            return QBrush(A_TINT if gap > 0 else B_TINT) if gap > 0 or gap < 0 else None
        if column == DIFFERENCE and role == Qt.ItemDataRole.ToolTipRole:
            return self._difference_tip(segment)
        return None

    def _text(self, segment: int, column: int) -> str:
        table = self.table
        assert table is not None
        if column == NUMBER:
            return str(segment + 1)
        if column in (DOCUMENT, SEGMENT):
            return (table.doc_ids if column == DOCUMENT else table.seg_ids)[segment]
        value = {SCORE_A: table.score_a, SCORE_B: table.score_b}.get(column, table.difference)
        return score_text(float(value[segment]), signed=column == DIFFERENCE)

    def _difference_tip(self, segment: int) -> str:
        table = self.table
        assert table is not None
        gap = float(table.difference[segment])
        if math.isnan(gap):
            return "One of the two systems has no score for this segment."
        if gap == 0:
            return "Both systems score the same on this segment."
        better = table.names[0] if gap > 0 else table.names[1]
        return f"{better} is better on this segment by {abs(gap):.4f} {table.metric_label}."

    def headerData(  # noqa: N802
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(_HEADERS):
            return None
        names = self.table.names if self.table else ("system A", "system B")
        if role == Qt.ItemDataRole.DisplayRole:
            return _HEADERS[section].format(a=names[0], b=names[1])
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._header_tip(section, names)
        return None

    def _header_tip(self, section: int, names: tuple[str, str]) -> str:
        label = self.table.metric_label if self.table else "score"
        lower = self.table is not None and not self.table.higher_is_better
        first, second = (names[1], names[0]) if lower else names
        direction = f"{first} − {second}" + (f", as lower {label} is better" if lower else "")
        tips = {
            NUMBER: "The segment's position in the test set (1 is the first).",
            DOCUMENT: "The document the segment belongs to.",
            SEGMENT: "The segment's id inside its document (its line number in plain text).",
            SCORE_A: f"The {label} of {names[0]} (system A) on this segment alone; "
            "'-' where it has no score. Click to sort.",
            SCORE_B: f"The {label} of {names[1]} (system B) on this segment alone; "
            "'-' where it has no score. Click to sort.",
            DIFFERENCE: f"How much better {names[0]} (A) is than {names[1]} (B) on this segment "
            f"({direction}). Positive (blue): A is better; negative (orange): B is better. "
            "Sorted largest first, so the segments where A gains most come first; click again "
            "for B's.",
        }
        return tips[section]


_HEADERS = ("No.", "Document", "Segment", "A: {a}", "B: {b}", "Difference")


def score_text(value: float, signed: bool = False) -> str:
    """A score as the score table shows it (4 decimals); '-' for none."""
    if math.isnan(value):
        return "-"
    return f"{value:+.4f}" if signed else f"{value:.4f}"
