"""Two systems' per-document scores as a Qt table model over numpy arrays, sorted there.

One row per document: its id, its segments, A's score, B's score and how much better A is.
The scores are those of ``mteval-v13a.pl -d`` (:mod:`mtgui.engine.statistics.documents`); a sort is
one stable ``np.argsort`` of the clicked column's key, as in the Segments view, and ``data()``
formats only the cells the view asks for.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy.typing as npt
from PySide6.QtCore import QModelIndex, QPersistentModelIndex

from mtgui.engine.core import FloatArray, IntArray
from mtgui.views.results.pair_rows_model import (
    PairRowsModel,
    PairScores,
    alphabetical_ranks,
    score_text,
)

_Index = QModelIndex | QPersistentModelIndex

DOCUMENT, SEGMENTS, SCORE_A, SCORE_B, DIFFERENCE = range(5)


@dataclass(frozen=True)
class DocumentTable(PairScores):
    """What the table shows: the documents, their sizes, and A's and B's score on each."""

    documents: Sequence[str]
    segments: IntArray
    score_a: FloatArray
    score_b: FloatArray
    names: tuple[str, str]
    metric_label: str
    higher_is_better: bool = True

    @cached_property
    def document_ranks(self) -> IntArray:
        """Each document's place in alphabetical order of the ids (for sorting)."""
        return alphabetical_ranks(self.documents)

    def sort_key(self, column: int) -> npt.NDArray[Any]:
        """The values a column sorts by, one per document."""
        if column == DOCUMENT:
            return self.document_ranks
        if column == SEGMENTS:
            return self.segments
        return {SCORE_A: self.score_a, SCORE_B: self.score_b}.get(column, self.difference)


class DocumentsModel(PairRowsModel):
    """One row per document, sorted by the difference (A's biggest gains first) until a click."""

    HEADERS = ("Document", "Segments", "A: {a}", "B: {b}", "Difference")
    OWN_ORDER = DOCUMENT
    TEXT_COLUMNS = frozenset({DOCUMENT})
    DIFFERENCE = DIFFERENCE
    UNIT = "document"
    table: DocumentTable | None

    def document(self, row: int) -> str:
        """The id of the document shown in ``row``."""
        assert isinstance(self.table, DocumentTable)
        return self.table.documents[self.item(row)]

    def documents_shown(self) -> list[str]:
        """The document ids, in the order of the rows."""
        return [self.document(row) for row in range(self.rowCount())]

    def text(self, item: int, column: int) -> str:
        """The id, the segments, the two scores and the difference (signed)."""
        table = self.table
        assert isinstance(table, DocumentTable)
        if column == DOCUMENT:
            return table.documents[item]
        if column == SEGMENTS:
            return f"{int(table.segments[item]):,}"
        value = {SCORE_A: table.score_a, SCORE_B: table.score_b}.get(column, table.difference)
        return score_text(float(value[item]), signed=column == DIFFERENCE)

    def cell_tip(self, item: int, column: int) -> str | None:
        """A document's difference says who is better; every other cell, what a double-click
        does."""
        if column != DIFFERENCE:
            return "Double-click to see this document's segments of the two systems."
        return self.difference_tip(item)

    def header_tips(self, names: tuple[str, str], label: str, direction: str) -> dict[int, str]:
        """What each column holds."""
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
        return tips
