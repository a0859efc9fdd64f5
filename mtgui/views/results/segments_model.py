"""The segments of two systems as a Qt table model over numpy arrays: sorted and filtered there
(:class:`~mtgui.views.results.pair_rows_model.PairRowsModel`), and found by their texts.

A test set may have 100,000 segments, so the search too works on whole columns of texts, never
a Python step per segment.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from mtgui.engine.core import FloatArray, IntArray
from mtgui.views.results.pair_rows_model import (
    PairRowsModel,
    PairScores,
    alphabetical_ranks,
    score_text,
)

NUMBER, DOCUMENT, SEGMENT, SCORE_A, SCORE_B, DIFFERENCE = range(6)


@dataclass(frozen=True)
class SegmentTable(PairScores):
    """What the table shows: segment ids and one score per segment for systems A and B."""

    doc_ids: Sequence[str]
    seg_ids: Sequence[str]
    score_a: FloatArray
    score_b: FloatArray
    names: tuple[str, str]
    metric_label: str
    higher_is_better: bool = True

    @cached_property
    def document_ranks(self) -> IntArray:
        """Each segment's document in alphabetical order of document ids (for sorting)."""
        return alphabetical_ranks(self.doc_ids)

    @cached_property
    def segment_keys(self) -> IntArray:
        """Segment ids as numbers where they all are numbers, else in alphabetical order."""
        try:
            return np.asarray(self.seg_ids, dtype=np.int64)
        except (ValueError, OverflowError):
            return alphabetical_ranks(self.seg_ids)

    def sort_key(self, column: int) -> npt.NDArray[Any]:
        """The values a column sorts by, one per segment."""
        if column == NUMBER:
            return np.arange(self.size, dtype=np.int64)
        if column == DOCUMENT:
            return self.document_ranks
        if column == SEGMENT:
            return self.segment_keys
        return {SCORE_A: self.score_a, SCORE_B: self.score_b}.get(column, self.difference)


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


class SegmentsModel(PairRowsModel):
    """One row per segment: number, document, segment id, A's score, B's score, difference."""

    HEADERS = ("No.", "Document", "Segment", "A: {a}", "B: {b}", "Difference")
    OWN_ORDER = NUMBER
    TEXT_COLUMNS = frozenset({DOCUMENT})
    DIFFERENCE = DIFFERENCE
    UNIT = "segment"
    table: SegmentTable | None

    def segment(self, row: int) -> int:
        """The segment (index into the test set) shown in ``row``."""
        return self.item(row)

    def text(self, item: int, column: int) -> str:
        """Number, ids, the two scores and the difference (signed)."""
        table = self.table
        assert isinstance(table, SegmentTable)
        if column == NUMBER:
            return str(item + 1)
        if column in (DOCUMENT, SEGMENT):
            return (table.doc_ids if column == DOCUMENT else table.seg_ids)[item]
        value = {SCORE_A: table.score_a, SCORE_B: table.score_b}.get(column, table.difference)
        return score_text(float(value[item]), signed=column == DIFFERENCE)

    def header_tips(self, names: tuple[str, str], label: str, direction: str) -> dict[int, str]:
        """What each column holds."""
        return {
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
