"""Every system's clipped matches against each subset of the references, without matching again.

The references study scores every system against up to 15 subsets of the references; matching
each system against each subset (building the hypothesis's n-gram ids and looking them up) was
a third of the study's time. The matches against a subset follow from those against all the
references and every reference's own counts: a hypothesis n-gram's count clipped by the largest
count in any of the subset's references is ``min(clipped against all, that largest count)``
(the largest count in all the references caps the hypothesis's count no more than the
clipping against all did). So every pair (segment, n-gram) matched against all the references
gets its count in each reference once, and a subset's matches are a minimum, a maximum and a
filter per pair.

A context restricted to the subset numbers the n-grams it has in the same order as the
context of all the references (ranks of their token sequences), so a subset's ids are ranks
among the n-grams present in its references, and its pairs come in the same order. The matches
are :func:`~mtgui.engine.text.ngrams.match`'s against the subset, array for array (the tests check
it), and are handed to the restricted context, which then extracts as usual.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence

import numpy as np
import numpy.typing as npt

from mtgui.engine.core.arrays import BoolArray, IntArray
from mtgui.engine.core.corpus import SystemOutput
from mtgui.engine.metrics.extraction import ExtractionContext
from mtgui.engine.runtime.gil_free import running_count
from mtgui.engine.text.ngrams import OrderIndex, OrderMatches, search_sorted


def iter_reference_matches(context: ExtractionContext) -> Generator[int, None, ReferenceMatches]:
    """Count every reference's n-grams per segment (yielding after the references' n-gram
    index, which the context may have to build, and after each reference) for
    :class:`ReferenceMatches`."""
    ngrams = context.reference_ngrams
    yield 0
    # Per order: the n-grams present in each reference, and its counts per segment.
    present: list[list[BoolArray]] = [[] for _ in ngrams.orders]
    counted: list[list[tuple[IntArray, IntArray]]] = [[] for _ in ngrams.orders]
    for r, reference in enumerate(context.reference_ids, start=1):
        for n, ids in enumerate(ngrams.hypothesis_ids(reference)):
            grams = max(ngrams.orders[n].num_ngrams, 1)
            valid = ids >= 0
            present[n].append(np.bincount(ids[valid], minlength=grams) > 0)
            counted[n].append(
                np.unique(reference.segment[valid] * grams + ids[valid], return_counts=True)
            )
        yield r
    return ReferenceMatches(context, [np.stack(p) for p in present], counted)


class ReferenceMatches:
    """The systems' matches against all the references of ``context``, with each matched
    pair's count in every reference (each system's once :meth:`add` has taken it);
    :meth:`matches` derives those against a subset of the references. Made by
    :func:`iter_reference_matches`."""

    def __init__(
        self,
        context: ExtractionContext,
        present: list[BoolArray],
        counted: list[list[tuple[IntArray, IntArray]]],
    ) -> None:
        self._context = context
        self.size = context.reference_ngrams.num_segments
        self._present = present  # per order: references x n-grams, which each reference has
        self._counted = counted  # per order and reference: its (segment, n-gram) counts
        self._systems: dict[str, list[tuple[OrderMatches, npt.NDArray[np.int32]]]] = {}

    def add(self, system: SystemOutput) -> None:
        """Match ``system`` against all the references (or take the context's matches) and
        count its pairs in every reference."""
        orders = self._context.reference_ngrams.orders
        matches = self._context.matches(system)
        self._systems[system.name] = _with_caps(matches, self._counted, orders)

    def matches(self, name: str, chosen: Sequence[int]) -> list[OrderMatches]:
        """The matches of system ``name`` against the references ``chosen`` (positions), in
        the ids of a context restricted to them."""
        result = []
        for n, (order, caps) in enumerate(self._systems[name]):
            clipped = np.minimum(order.clipped_counts, caps[:, list(chosen)].max(axis=1))
            keep = clipped > 0
            ids = order.matched_ids[keep]
            if n:  # order 1's ids are the token ids, in any context
                present = self._present[n][list(chosen)].any(axis=0)
                ids = (running_count(present) - 1)[ids]
            segments = order.matched_segments[keep]
            matched = np.bincount(segments, weights=clipped[keep], minlength=self.size)
            result.append(
                OrderMatches(order.total, matched.astype(np.int64), clipped[keep], ids, segments)
            )
        return result


def _with_caps(
    orders: Sequence[OrderMatches],
    counted: Sequence[Sequence[tuple[IntArray, IntArray]]],
    indexes: Sequence[OrderIndex],
) -> list[tuple[OrderMatches, npt.NDArray[np.int32]]]:
    """Each order's matches with their pairs' counts in every reference (pairs x refs)."""
    result = []
    for order, tables, index in zip(orders, counted, indexes, strict=True):
        grams = max(index.num_ngrams, 1)
        keys = order.matched_segments * grams + order.matched_ids
        caps = np.zeros((len(keys), len(tables)), dtype=np.int32)
        for r, (entries, counts) in enumerate(tables):
            rank = np.minimum(search_sorted(entries, keys), max(len(entries) - 1, 0))
            found = entries[rank] == keys if len(entries) else np.zeros(len(keys), dtype=bool)
            caps[found, r] = counts[rank[found]]
        result.append((order, caps))
    return result
