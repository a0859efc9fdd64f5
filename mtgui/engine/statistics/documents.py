"""Per-document scores: each document scored as a test set of its own, as ``mteval-v13a.pl -d``.

A document's score is the metric's corpus formula applied to the sum of its segments'
statistics rows (Zhang & Vogel 3.3: the rows already hold everything a score needs), so the
scores of every document of a system cost one vectorised sum and one call of ``metric.score``.

NIST's information weights are *not* recomputed per document: mteval-v13a computes them once,
from every reference segment of the whole reference set (``compute_ngram_info`` before any
scoring), and its per-document NIST (``score_system`` -> ``nist_score`` on the document's
sums) uses those. The rows hold matches already weighted that way, so summing them is exactly
mteval's document NIST; the shared WMT goldens confirm it to 1e-12. (The test-set-size study
does rebuild the weights per subset, on purpose: there a subset stands for a smaller test set.)
The NIST length penalty and BLEU's brevity penalty and smoothing use the document's own sums,
as mteval's do.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from mtgui.engine.core.arrays import FloatArray, IntArray
from mtgui.engine.core.corpus import TestSet
from mtgui.engine.core.errors import InputError
from mtgui.engine.statistics.rows import Statistics


def require_documents(test_set: TestSet) -> None:
    """Refuse a test set without documents (plain text): it has no documents to score.

    Treating plain text as one document would only repeat the system score under a made-up
    name, so the caller is told instead.
    """
    if not test_set.has_documents:
        raise InputError(
            "per-document scores need documents, and this test set has none (plain text, "
            "one segment per line).",
            hint="Load SGML or WMT XML files, which say which document each segment is in.",
        )


@dataclass(frozen=True)
class DocumentGrouping:
    """Which segments make up each document, ready for summing rows by document.

    Documents are numbered in the test set's order (first appearance); a document's segments
    need not be contiguous.
    """

    documents: tuple[str, ...]
    index: IntArray  # per segment, its document's number

    @classmethod
    def of(cls, test_set: TestSet) -> DocumentGrouping:
        """The documents of ``test_set`` (InputError for plain text: see
        :func:`require_documents`)."""
        require_documents(test_set)
        return cls(test_set.documents, test_set.document_index())

    @cached_property
    def segments(self) -> IntArray:
        """How many segments each document has."""
        counts: IntArray = np.bincount(self.index, minlength=len(self.documents)).astype(np.int64)
        return counts

    @cached_property
    def _order(self) -> IntArray | None:
        """The segments grouped by document (None when they already are, the usual case)."""
        if np.all(self.index[1:] >= self.index[:-1]):
            return None
        order: IntArray = np.argsort(self.index, kind="stable").astype(np.int64)
        return order

    @cached_property
    def _starts(self) -> IntArray:
        """Where each document's first segment lies in the grouped order."""
        starts: IntArray = np.concatenate([[0], np.cumsum(self.segments)[:-1]]).astype(np.int64)
        return starts

    def sums(self, rows: FloatArray) -> FloatArray:
        """The statistics rows (N, k) summed per document: (documents, k)."""
        grouped = rows if self._order is None else rows[self._order]
        if not len(self.documents):
            return np.zeros((0, rows.shape[1]), dtype=np.float64)
        summed: FloatArray = np.add.reduceat(grouped, self._starts, axis=0)
        return summed


def document_scores(
    statistics: Statistics, grouping: DocumentGrouping, system: str, metric: str
) -> FloatArray:
    """One score per document of ``system`` under ``metric`` (on the metric object's scale:
    BLEU on 0-100 if the statistics were put on that scale). NaN where the formula is undefined
    for a document (a metric that divides by something the document lacks)."""
    scorer = statistics.metric(metric)
    sums = grouping.sums(statistics.rows(system, metric))
    with np.errstate(divide="ignore", invalid="ignore"):
        scores: FloatArray = np.asarray(scorer.score(sums), dtype=np.float64)
    return scores


@dataclass(frozen=True)
class DocumentTable:
    """Every system's score on every document, per metric: what ``--documents`` writes.

    ``scores[metric]`` has shape (systems, documents).
    """

    documents: tuple[str, ...]
    segments: IntArray
    systems: tuple[str, ...]
    metrics: tuple[str, ...]
    scores: dict[str, FloatArray]


def score_documents(statistics: Statistics, test_set: TestSet) -> DocumentTable:
    """Score every system on every document with every metric of ``statistics``.

    Raises
    ------
    InputError
        If the test set has no documents.
    """
    grouping = DocumentGrouping.of(test_set)
    metrics = tuple(m.name for m in statistics.metrics)
    scores = {
        metric: np.array(
            [document_scores(statistics, grouping, s, metric) for s in statistics.system_names]
        ).reshape(len(statistics.system_names), len(grouping.documents))
        for metric in metrics
    }
    for array in scores.values():
        array.flags.writeable = False
    return DocumentTable(
        grouping.documents, grouping.segments, statistics.system_names, metrics, scores
    )
