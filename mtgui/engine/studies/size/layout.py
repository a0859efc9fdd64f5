"""What the size study cuts and how it lays the statistics out for the subsets' bootstraps.

The study may run on several statistics of the same test set and systems at once, each a
*source*: the size study has one, the references study's Table 4 one per subset of the
references. The sources share every subset and every subset's resamples (the same seeds), so
their keys (source, system, metric) are bootstrapped together: one draw of the counts and one
matrix product per resample chunk for all of them, with the columns that are equal in all
sources (the systems' n-gram counts) multiplied once, and one scoring call per kind of metric.
Every number is the one a source alone would give, to the bit.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence

import numpy as np
import numpy.typing as npt

from mtgui.engine.core.arrays import FloatArray, IntArray
from mtgui.engine.metrics.base import Metric
from mtgui.engine.metrics.bleu.nist import ORDER, Nist
from mtgui.engine.resampling.draws import stack_units
from mtgui.engine.resampling.settings import Unit
from mtgui.engine.runtime.gil_free import distinct_count
from mtgui.engine.statistics.rows import Statistics
from mtgui.engine.studies.subset_bootstrap import (
    ColumnsBuilder,
    KeyScorer,
    SubsetPart,
    SubsetRows,
    column_indices,
    on_grid,
)
from mtgui.engine.studies.subset_nist import SubsetNist


class Pieces:
    """The pieces subsets are made of (documents, or segments when there are none) and the
    units the bootstrap resamples (documents or segments)."""

    def __init__(self, size: int, document_index: IntArray | None, unit: Unit) -> None:
        documents = None if document_index is None else np.asarray(document_index, np.int64)
        self.by_document = documents is not None and distinct_count(documents) > 1
        pieces = documents if documents is not None and self.by_document else np.arange(size)
        self.pieces = pieces  # the piece of every segment
        self.by_piece = np.argsort(pieces, kind="stable")  # the segments, piece by piece
        self.by_unit_document = self.by_document and unit is Unit.DOCUMENT
        self.units = pieces if self.by_unit_document else np.arange(size)  # of every segment
        count = int(pieces.max(initial=-1)) + 1  # the rows stack_units makes of the documents
        self.piece_of_unit = np.arange(count) if self.by_unit_document else pieces
        self.segments = np.bincount(pieces)
        self.count = len(self.segments)

    def units_of(self, chosen: IntArray) -> IntArray:
        """The units of the pieces ``chosen``."""
        return np.flatnonzero(np.isin(self.piece_of_unit, chosen))

    def per_unit(self, values: FloatArray, segments: npt.NDArray[np.bool_]) -> FloatArray:
        """``values`` of the chosen ``segments`` (in order) summed per unit of a subset's rows:
        per document in document order, or as they are when the units are segments."""
        if not self.by_unit_document:
            return values
        order = self.by_piece[segments[self.by_piece]]  # the chosen, document by document
        documents = self.pieces[order]
        starts = np.flatnonzero(np.append(True, documents[1:] != documents[:-1]))
        return np.add.reduceat(values[(np.cumsum(segments) - 1)[order]], starts, axis=0)


class Sources:
    """The statistics of every source laid out side by side for the subsets' bootstraps
    (made by :func:`iter_sources`).

    ``keys`` lists every source's (system, metric) keys, systems outermost, source after
    source; with its own NIST, each source's information sums are replaced in every subset
    (:attr:`nist_columns`, source by source, system by system, I_1..I_5).
    """

    def __init__(
        self,
        statistics: Sequence[Statistics],
        rows: SubsetRows,
        keys: Sequence[tuple[str, str]],
        entries: Sequence[tuple[Metric, IntArray]],
        nist: IntArray,
    ) -> None:
        self.statistics, self.rows, self.keys = tuple(statistics), rows, list(keys)
        self.scorer = KeyScorer([(m, rows.position[c]) for m, c in entries])
        self.ratio_scale = np.array([metric.ratio_scale for metric, _ in entries])
        self.nist_columns = rows.position[nist]
        self.per_source = len(self.keys) // len(self.statistics)

    def whole_nist(self) -> FloatArray:
        """Every source's NIST information totals on the whole test set (its statistics')."""
        return np.concatenate(
            [
                source.totals(system, Nist.name)[:ORDER]
                for source in self.statistics
                for system in source.system_names
            ]
        )

    def totals(self, part: SubsetPart, nist_totals: FloatArray | None) -> FloatArray:
        """A whole subset's sums, to score it with (NIST's its exact information sums)."""
        sums = part.totals()
        if nist_totals is not None:
            sums[self.nist_columns] = nist_totals
        return sums

    @property
    def metrics(self) -> tuple[Metric, ...]:
        """The metrics of a source (every source has them, in this order)."""
        return self.statistics[0].metrics


def iter_sources(
    statistics: Sequence[Statistics], units: IntArray, own_nist: bool
) -> Generator[int, None, Sources]:
    """Lay every source's statistics out (per ``units``), yielding the sources done; with
    ``own_nist`` their NIST information sums are to be replaced in every subset."""
    columns = ColumnsBuilder()
    keys: list[tuple[str, str]] = []
    entries: list[tuple[Metric, IntArray]] = []
    nist = []
    for done, source in enumerate(statistics, start=1):
        layout = stack_units(source, units)
        for key in layout.columns:
            entries.append((source.metric(key[1]), columns.start + column_indices(layout, key)))
            keys.append(key)
        own = [
            column_indices(layout, (system, Nist.name))[:ORDER]
            for system in source.system_names
            if own_nist
        ]
        replaced = np.concatenate([np.zeros(0, np.intp), *own])
        nist.append(columns.start + replaced)
        columns.add(layout.rows, replaced)
        yield done
    rows = columns.build()
    yield len(statistics)  # the rows built: a step of its own
    return Sources(statistics, rows, keys, entries, np.concatenate([np.zeros(0, np.intp), *nist]))


class OwnNist:
    """Puts each subset's own NIST information sums (under its own weights), of every source,
    in its unit rows."""

    def __init__(self, table: SubsetNist, pieces: Pieces, sources: Sources) -> None:
        self.table, self.pieces = table, pieces
        self.whole = sources.whole_nist()
        self.replaced = sources.rows.replaced  # a slice of a part's other columns

    def arrange(self, order: IntArray) -> None:
        """The pieces will be taken in ``order`` (nested subsets): lay the table out so."""
        ranks = np.empty(self.pieces.count, dtype=np.int64)
        ranks[order] = np.arange(len(order))
        self.table.arrange(np.argsort(ranks[self.pieces.pieces], kind="stable"))

    def apply(self, chosen: IntArray, part: SubsetPart) -> FloatArray:
        """Replace the sums in the rows of the pieces ``chosen``; return their exact totals."""
        if len(chosen) == self.pieces.count:  # the whole test set: the statistics' weights
            return self.whole
        segments = np.isin(self.pieces.pieces, chosen)
        information = self.table.information_of_sources(segments)
        totals = information.sum(axis=0)  # in segment order, as Statistics.totals adds
        part.other[:, self.replaced] = on_grid(self.pieces.per_unit(information, segments))
        return totals
