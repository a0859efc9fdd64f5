"""Two systems' per-document scores as a Qt table model over numpy arrays, sorted there.

One row per document: its id, its segments, A's score, B's score and how much better A is.
The scores are those of ``mteval-v13a.pl -d`` (:mod:`mtgui.engine.documents`); a sort is one
stable ``np.argsort`` of the clicked column's key, as in the Segments view, and ``data()``
formats only the cells the view asks for.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush

from mtgui.views.segments_model import A_TINT, B_TINT, score_text, sorted_segments

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
_Index = QModelIndex | QPersistentModelIndex

DOCUMENT, SEGMENTS, SCORE_A, SCORE_B, DIFFERENCE = range(5)
_HEADERS = ("Document", "Segments", "A: {a}", "B: {b}", "Difference")


@dataclass(frozen=True)
class DocumentTable:
    """What the table shows: the documents, their sizes, and A's and B's score on each."""

    documents: Sequence[str]
    segments: IntArray
    score_a: FloatArray
    score_b: FloatArray
    names: tuple[str, str]
    metric_label: str
    higher_is_better: bool = True

    @property
    def size(self) -> int:
        """The number of documents."""
        return len(self.documents)

    @cached_property
    def difference(self) -> FloatArray:
        """How much better A is than B on each document: positive means A is better."""
        gap: FloatArray = self.score_a - self.score_b
        return gap if self.higher_is_better else -gap

    @cached_property
    def document_ranks(self) -> IntArray:
        """Each document's place in alphabetical order of the ids (for sorting)."""
        ranks = np.empty(self.size, dtype=np.int64)
        ranks[np.argsort(np.asarray(self.documents, dtype=str), kind="stable")] = np.arange(
            self.size
        )
        return ranks

    def sort_key(self, column: int) -> npt.NDArray[Any]:
        """The values a column sorts by, one per document."""
        if column == DOCUMENT:
            return self.document_ranks
        if column == SEGMENTS:
            return self.segments
        return {SCORE_A: self.score_a, SCORE_B: self.score_b}.get(column, self.difference)


class DocumentsModel(QAbstractTableModel):
    """One row per document, sorted by the difference (A's biggest gains first) until a click."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.table: DocumentTable | None = None
        self._rows = np.zeros(0, dtype=np.int64)  # the document shown in each row
        self._sort: tuple[int, Qt.SortOrder] = (DIFFERENCE, Qt.SortOrder.DescendingOrder)

    def set_table(self, table: DocumentTable | None) -> None:
        """Show new scores, sorted as before."""
        self.beginResetModel()
        self.table = table
        self._rows = self._sorted_rows()
        self.endResetModel()

    def document(self, row: int) -> str:
        """The id of the document shown in ``row``."""
        assert self.table is not None
        return self.table.documents[int(self._rows[row])]

    def documents_shown(self) -> list[str]:
        """The document ids, in the order of the rows."""
        return [self.document(row) for row in range(len(self._rows))]

    @property
    def sort_order(self) -> tuple[int, Qt.SortOrder]:
        """The column the rows are sorted by and in which direction."""
        return self._sort

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort the documents by a column with numpy; selections follow their documents."""
        if not 0 <= column < len(_HEADERS):
            column, order = DOCUMENT, Qt.SortOrder.AscendingOrder  # -1: the view's "unsorted"
        self._sort = (column, order)
        self.layoutAboutToBeChanged.emit()
        old = self.persistentIndexList()
        documents = [int(self._rows[index.row()]) for index in old]
        self._rows = self._sorted_rows()
        position = np.empty(len(self._rows), dtype=np.int64)
        position[self._rows] = np.arange(len(self._rows))
        new = [
            self.index(int(position[d]), i.column()) for d, i in zip(documents, old, strict=True)
        ]
        self.changePersistentIndexList(old, new)
        self.layoutChanged.emit()

    def _sorted_rows(self) -> IntArray:
        if self.table is None:
            return np.zeros(0, dtype=np.int64)
        column, order = self._sort
        return sorted_segments(self.table.sort_key(column), order == Qt.SortOrder.DescendingOrder)

    # -- Qt's model interface -----------------------------------------------------------------

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(_HEADERS)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or self.table is None:
            return None
        document, column = int(self._rows[index.row()]), index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(document, column)
        if role == Qt.ItemDataRole.TextAlignmentRole and column != DOCUMENT:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if column == DIFFERENCE and role == Qt.ItemDataRole.BackgroundRole:
            gap = self.table.difference[document]
            return QBrush(A_TINT if gap > 0 else B_TINT) if gap > 0 or gap < 0 else None
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._cell_tip(document, column)
        return None

    def _text(self, document: int, column: int) -> str:
        table = self.table
        assert table is not None
        if column == DOCUMENT:
            return table.documents[document]
        if column == SEGMENTS:
            return f"{int(table.segments[document]):,}"
        value = {SCORE_A: table.score_a, SCORE_B: table.score_b}.get(column, table.difference)
        return score_text(float(value[document]), signed=column == DIFFERENCE)

    def _cell_tip(self, document: int, column: int) -> str:
        table = self.table
        assert table is not None
        if column != DIFFERENCE:
            return "Double-click to see this document's segments of the two systems."
        gap = float(table.difference[document])
        if math.isnan(gap):
            return "One of the two systems has no score for this document."
        if gap == 0:
            return "Both systems score the same on this document."
        better = table.names[0] if gap > 0 else table.names[1]
        return f"{better} is better on this document by {abs(gap):.4f} {table.metric_label}."

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
        whole = (
            f"The {label} of {{name}} ({{which}}) on this document, scored as a test set of its "
            "own (as mteval-v13a -d; NIST's information weights are those of the whole test "
            "set). Click to sort."
        )
        tips = {
            DOCUMENT: "The document's id. Click to sort by it.",
            SEGMENTS: "How many segments the document has.",
            SCORE_A: whole.format(name=names[0], which="system A"),
            SCORE_B: whole.format(name=names[1], which="system B"),
            DIFFERENCE: f"How much better {names[0]} (A) is than {names[1]} (B) on this "
            f"document ({direction}). Positive (blue): A is better; negative (orange): B is "
            "better. Sorted largest first, so the documents where A gains most come first; "
            "click again for B's.",
        }
        return tips[section]
