"""Which segments form which group of a breakdown: by a document attribute, by reference
length, or by labels a person gave.

A breakdown scores every group as a test set of its own (:mod:`mtgui.engine.breakdown`), so a
:class:`Grouping` is only the groups' labels and their segments, in test-set order. Every
segment is in exactly one group: segments that have no value for what is asked (a document
without the attribute, a line the label file does not list) form the group :data:`NONE`,
listed last, so that the groups always add up to the whole test set and nothing is hidden.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from mtgui.engine.core.arrays import IntArray
from mtgui.engine.core.corpus import TestSet
from mtgui.engine.core.errors import InputError
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.text.tokenize import tokenize

NONE = "(none)"
"""The group of the segments without a value for the key."""
LENGTH = "length"
"""The key that groups segments by the length of their reference, in tokens."""
DEFAULT_LENGTH_EDGES = (10, 20, 30, 40, 50, 60)
"""compare-mt's default edges of its length buckets (``LengthSentenceBucketer``)."""


@dataclass(frozen=True)
class Grouping:
    """The groups of one breakdown: ``by`` is what the user asked for (``origlang``,
    ``length``, a label file's name), ``what`` says it in words for the reports."""

    by: str
    what: str
    labels: tuple[str, ...]
    members: tuple[IntArray, ...]  # the segments of each group, ascending

    def sizes(self) -> tuple[int, ...]:
        """The number of segments of each group."""
        return tuple(len(m) for m in self.members)


def attribute_keys(test_set: TestSet) -> tuple[str, ...]:
    """The attributes the test set's documents have (any of them), sorted."""
    documents = set(test_set.documents)
    return tuple(
        sorted(
            {
                key
                for doc, attrs in test_set.doc_attributes.items()
                if doc in documents
                for key in attrs
            }
        )
    )


def group_by_attribute(test_set: TestSet, key: str) -> Grouping:
    """A group per value of the documents' attribute ``key``, in order of first appearance.

    Raises
    ------
    InputError
        If no document of the test set has that attribute, saying which ones they have.
    """
    keys = attribute_keys(test_set)
    if key not in keys:
        raise InputError(
            f"no document of the test set has the attribute '{key}'.", hint=_hint(keys)
        )
    values = test_set.segment_attribute(key)
    return _grouping(key, f"the documents' attribute {key}", values)


def group_by_length(
    test_set: TestSet, settings: MetricSettings, edges: Sequence[int] = DEFAULT_LENGTH_EDGES
) -> Grouping:
    """Buckets of the first reference's length in tokens (tokenized as the metrics do),
    compare-mt's way: ``<10``, ``[10,20)``, ..., ``>=60`` for edges 10, 20, ..., 60. Every
    bucket is listed, empty ones too (a reader sees the buckets are the same in every run).

    The reference, not an output, decides: the groups must be the same for every system, or
    their scores could not be compared pair by pair.
    """
    edges = check_edges(edges)
    tokens = tokenize(test_set.references[0].texts, settings.tokenize, settings.case)
    lengths = np.fromiter((len(t) for t in tokens), np.int64, test_set.size)
    buckets = np.searchsorted(np.asarray(edges), lengths, side="right")
    labels = bucket_labels(edges)
    members = tuple(np.flatnonzero(buckets == k).astype(np.int64) for k in range(len(labels)))
    reference = test_set.references[0].name
    what = f"length of the reference '{reference}' in {settings.tokenize} tokens"
    return Grouping(LENGTH, what, labels, members)


def group_by_labels(by: str, what: str, labels: Sequence[str | None]) -> Grouping:
    """A group per label (one per segment, None for none), in order of first appearance."""
    return _grouping(by, what, labels)


def check_edges(edges: Sequence[int]) -> tuple[int, ...]:
    """``edges`` if they are whole numbers from 1 on, strictly increasing; else an InputError."""
    if not edges:
        raise InputError("the length buckets need at least one edge (e.g. 10,20,30,40,50,60).")
    for k, edge in enumerate(edges):
        if isinstance(edge, bool) or not isinstance(edge, int | np.integer) or edge < 1:
            raise InputError(
                f"a length bucket edge must be a whole number from 1 on, not {edge!r}."
            )
        if k and edge <= edges[k - 1]:
            raise InputError(
                f"the length bucket edges must increase, but {edge} follows {edges[k - 1]}.",
                hint="Give them in increasing order, e.g. 10,20,30,40,50,60.",
            )
    return tuple(int(edge) for edge in edges)


def bucket_labels(edges: Sequence[int]) -> tuple[str, ...]:
    """compare-mt's bucket names: ``<a``, ``[a,b)`` (or ``a`` when b = a + 1), ``>=z``."""
    labels = [f"<{edges[0]}"]
    for low, high in pairwise(edges):
        labels.append(str(low) if high == low + 1 else f"[{low},{high})")
    return (*labels, f">={edges[-1]}")


def _grouping(by: str, what: str, values: Sequence[str | None]) -> Grouping:
    """Groups of equal values in order of first appearance, :data:`NONE` (None) last."""
    order: dict[str, list[int]] = {}
    missing: list[int] = []
    for index, value in enumerate(values):
        if value is None:
            missing.append(index)
        else:
            order.setdefault(value, []).append(index)
    groups: Mapping[str, list[int]] = {**order, **({NONE: missing} if missing else {})}
    labels = tuple(groups)
    members = tuple(np.asarray(groups[label], dtype=np.int64) for label in labels)
    return Grouping(by, what, labels, members)


def _hint(keys: Sequence[str]) -> str:
    """What the documents do have."""
    if not keys:
        return (
            "The documents of this test set have no attributes besides their ids (plain text "
            f"has no documents); use '{LENGTH}' or a label file."
        )
    return f"Its documents have: {', '.join(keys)} (or use '{LENGTH}' or a label file)."
