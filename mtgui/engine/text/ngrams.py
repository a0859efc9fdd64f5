"""Exact n-gram matching over integer token ids, vectorised with numpy.

Tokens become integer ids (the references' vocabulary; a hypothesis token the references never
use gets -1 and can match nothing). An n-gram is identified without hashing: the id of an
n-gram is the rank of the pair (id of its first n-1 tokens, id of its last token) among the
reference n-grams, so ids are exact and small, and a hypothesis n-gram is looked up with one
``searchsorted``. Counting per segment sorts keys ``segment * G + id``.
This is the per-segment sufficient statistics of Papineni et al. (clipped counts) computed for
all segments at once.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import count, repeat

import numpy as np
import numpy.typing as npt

from mtgui.engine.core.arrays import IntArray
from mtgui.engine.runtime.gil_free import sorted_with_order, unique_inverse
from mtgui.engine.text.tokenize import SEGMENT_BREAK

Int32Array = npt.NDArray[np.int32]
_BREAK = -2  # the id of SEGMENT_BREAK while encoding
_ENCODE_BLOCK = 100_000  # tokens looked up per call that holds the GIL
_INDEX_BLOCK = 10_000  # segments indexed per call that holds the GIL (TokenIds.from_ids)


@dataclass(frozen=True)
class TokenIds:
    """The token ids of N segments, flat, with each token's segment and position."""

    ids: IntArray  # all tokens, segment after segment
    lengths: IntArray  # tokens per segment, shape (N,)
    segment: IntArray  # segment of every token
    position: IntArray  # position of every token inside its segment

    @classmethod
    def encode(cls, flat: Sequence[str], vocabulary: dict[str, int]) -> TokenIds:
        """Ids from ``vocabulary`` for tokens as :func:`~mtgui.engine.text.tokenize.tokenize_flat`
        gives them (segments separated by ``SEGMENT_BREAK``); unknown tokens get -1."""
        lookup = {**vocabulary, SEGMENT_BREAK: _BREAK}.get
        return cls._looked_up(flat, lambda block: map(lookup, block, repeat(-1)))

    @classmethod
    def _looked_up(
        cls, flat: Sequence[str], ids_of: Callable[[Sequence[str]], Iterable[int]]
    ) -> TokenIds:
        """Ids for flat tokens, ``ids_of`` giving those of a block (``_BREAK`` for a break)."""
        # In blocks: one np.fromiter over millions of tokens would hold the GIL for half a
        # second, and the window's thread (which needs it to draw) would stall that long.
        blocks = [
            flat[start : start + _ENCODE_BLOCK] for start in range(0, len(flat), _ENCODE_BLOCK)
        ]
        ids = np.concatenate(
            [np.zeros(0, np.int64)]
            + [np.fromiter(ids_of(block), np.int64, len(block)) for block in blocks]
        )
        breaks = np.flatnonzero(ids == _BREAK)
        lengths = np.diff(np.concatenate(([-1], breaks, [len(ids)]))) - 1
        return cls.from_ids(np.delete(ids, breaks), lengths)

    @classmethod
    def from_ids(cls, ids: IntArray, lengths: IntArray) -> TokenIds:
        """Build the index arrays for flat ``ids`` cut into segments of ``lengths``.

        A block of :data:`_INDEX_BLOCK` segments at a time: ``np.repeat`` holds the
        interpreter lock, and over the 2.5 million tokens of 100,000 segments it stalled the
        window while a run started.
        """
        lengths = np.asarray(lengths, dtype=np.int64)
        ends = np.cumsum(lengths)
        segment = np.empty(len(ids), dtype=np.int64)
        position = np.empty(len(ids), dtype=np.int64)
        for first in range(0, len(lengths), _INDEX_BLOCK):
            block = lengths[first : first + _INDEX_BLOCK]
            start = int(ends[first] - block[0])
            end = int(ends[first + len(block) - 1])
            numbers = np.arange(first, first + len(block), dtype=np.int64)
            segment[start:end] = np.repeat(numbers, block)
            offsets = ends[first : first + len(block)] - block - start  # each segment's start
            position[start:end] = np.arange(end - start, dtype=np.int64) - np.repeat(offsets, block)
        return cls(ids, lengths, segment, position)

    @property
    def size(self) -> int:
        """The number of segments."""
        return len(self.lengths)

    def fits(self, n: int, at: IntArray | None = None) -> npt.NDArray[np.bool_]:
        """For every token (or the tokens at the positions ``at``), whether an n-gram starting
        there stays inside its segment."""
        if at is None:
            return self.position + n <= self.lengths[self.segment]
        return self.position[at] + n <= self.lengths[self.segment[at]]


def number_references(
    references: Iterable[Sequence[str]],
) -> tuple[dict[str, int], list[TokenIds]]:
    """Ids for every token of the references (flat token lists), in order of first
    appearance, reference after reference, and every reference encoded with them (as
    ``TokenIds.encode`` would), in one pass over the tokens.

    A token gets the next id the first time it is met (a ``defaultdict`` whose default is the
    next number). On the standing benchmark's four references: 16-19 ms, where building the
    vocabulary and then encoding took 27-35.

    Each reference's tokens are let go once encoded, before the next are asked for: given
    them one at a time (a generator), only one reference's strings are alive at once, and the
    next reuses their memory. On the standing benchmark the references' step then made 2,100
    fewer new pages (8 MB) of the memory, each a page fault of 1.2 us or more.
    """
    numbering: defaultdict[str, int] = defaultdict(count().__next__)
    numbering[SEGMENT_BREAK] = _BREAK  # set, not made: it takes no number
    number = numbering.__getitem__
    encoded = []
    for flat in references:
        encoded.append(TokenIds._looked_up(flat, lambda block: map(number, block)))
        del flat
    del numbering[SEGMENT_BREAK]
    return dict(numbering), encoded


@dataclass(frozen=True)
class OrderIndex:
    """The reference n-grams of one order n."""

    pairs: IntArray  # sorted unique (prefix id * V + last token id); n-gram id = rank
    keys: IntArray  # sorted unique (segment * G + n-gram id) over all references
    max_counts: Int32Array  # per key: the largest count in any single reference (for clipping;
    # int32, as a count inside one segment is small: the index is a sixth smaller in memory)
    pooled_counts: IntArray  # per n-gram id: its count over all references and segments

    @property
    def num_ngrams(self) -> int:
        """G, the number of distinct reference n-grams of this order."""
        return len(self.pooled_counts)


class ReferenceNgrams:
    """Every reference n-gram up to ``max_order``, per segment and pooled (for NIST weights)."""

    def __init__(
        self, references: Sequence[TokenIds], vocabulary_size: int, max_order: int
    ) -> None:
        self.vocabulary_size = max(vocabulary_size, 1)
        self.max_order = max_order
        self.num_segments = references[0].size
        self.lengths = np.stack([ref.lengths for ref in references], axis=1)  # (N, R)
        self.total_words = int(self.lengths.sum())
        self.orders: list[OrderIndex] = []
        gram_ids = [ref.ids for ref in references]  # order 1: the token ids themselves
        pairs = np.arange(self.vocabulary_size, dtype=np.int64)
        for n in range(1, max_order + 1):
            if n > 1:
                gram_ids, pairs = self._next_order(references, gram_ids, n)
            self.orders.append(self._order_index(references, gram_ids, pairs))

    def _next_order(
        self, references: Sequence[TokenIds], previous: list[IntArray], n: int
    ) -> tuple[list[IntArray], IntArray]:
        """Ids of the order-n grams at every reference position (-1 where none fits), and the
        sorted pairs that define them."""
        pairs = [self._pairs(ref, ids, n) for ref, ids in zip(references, previous, strict=True)]
        stacked = np.concatenate(pairs)
        valid = stacked >= 0
        unique, inverse = unique_inverse(stacked[valid])  # np.unique's, letting the window run
        ids = np.full(len(stacked), -1, dtype=np.int64)
        ids[valid] = inverse
        return np.split(ids, np.cumsum([len(p) for p in pairs])[:-1]), unique

    def _pairs(self, tokens: TokenIds, previous: IntArray, n: int) -> IntArray:
        """For each position, (id of the (n-1)-gram there) * V + (token n-1 further), or -1."""
        fits = tokens.fits(n)
        shifted = np.full(len(tokens.ids), -1, dtype=np.int64)
        ahead = max(len(tokens.ids) - (n - 1), 0)
        shifted[:ahead] = tokens.ids[n - 1 :]
        ok = fits & (previous >= 0) & (shifted >= 0)
        return np.where(ok, previous * self.vocabulary_size + shifted, -1)

    def _order_index(
        self, references: Sequence[TokenIds], gram_ids: list[IntArray], pairs: IntArray
    ) -> OrderIndex:
        """Clipping caps per (segment, n-gram) and pooled counts for one order."""
        num_ngrams = max(len(pairs), 1)
        key_arrays, count_arrays = [], []
        pooled = np.zeros(num_ngrams, dtype=np.int64)
        for ref, ids in zip(references, gram_ids, strict=True):
            valid = ids >= 0
            keys, counts = _counted(ref.segment[valid] * num_ngrams + ids[valid])
            key_arrays.append(keys)
            count_arrays.append(counts)
            pooled += np.bincount(ids[valid], minlength=num_ngrams)
        keys, max_counts = _max_per_key(np.concatenate(key_arrays), np.concatenate(count_arrays))
        return OrderIndex(pairs, keys, max_counts.astype(np.int32), pooled)

    def hypothesis_ids(self, hypothesis: TokenIds) -> list[IntArray]:
        """For each order, the reference n-gram id at every hypothesis position (-1: none)."""
        return list(self.iter_hypothesis_ids(hypothesis))

    def look_up(self, n: int, pairs: IntArray) -> tuple[npt.NDArray[np.bool_], IntArray]:
        """Which ``pairs`` ((n-1)-gram id * V + id of the last token, all >= 0) are reference
        n-grams of order n, and their places in the index: their ids where found."""
        index = self.orders[n - 1].pairs
        if not len(index):
            return np.zeros(len(pairs), dtype=bool), np.zeros(len(pairs), dtype=np.int64)
        rank = np.minimum(search_sorted(index, pairs), len(index) - 1)
        return index[rank] == pairs, rank

    def iter_hypothesis_ids(self, hypothesis: TokenIds) -> Iterator[IntArray]:
        """:meth:`hypothesis_ids` order by order: only two orders' arrays are alive at once
        (one int64 per token each: 18 MB per order on 100,000 segments of 22 tokens)."""
        previous = hypothesis.ids
        yield previous
        for n in range(2, self.max_order + 1):
            pairs = self._pairs(hypothesis, previous, n)
            ids = np.full(len(pairs), -1, dtype=np.int64)
            candidates = np.flatnonzero(pairs >= 0)  # only where the (n-1)-gram matched
            found, rank = self.look_up(n, pairs[candidates])
            ids[candidates[found]] = rank[found]
            del pairs  # before the next order's arrays are made
            yield ids
            previous = ids


@dataclass(frozen=True)
class OrderMatches:
    """Per-segment counts of one order for one hypothesis."""

    total: IntArray  # hypothesis n-grams per segment
    matched: IntArray  # clipped matches per segment
    clipped_counts: IntArray  # clipped count of each matched (segment, n-gram) pair
    matched_ids: IntArray  # the n-gram id of each of those pairs
    matched_segments: IntArray  # the segment of each of those pairs


def match(references: ReferenceNgrams, hypothesis: TokenIds) -> list[OrderMatches]:
    """Clipped n-gram matches of a hypothesis against the references, order by order.

    A hypothesis n-gram's count is capped by its largest count in any single reference
    (Papineni et al. 2002, section 2.1).

    An n-gram is in a segment's references only where the (n-1)-gram it begins with is too. So
    each order looks up only the positions whose (n-1)-gram the order before found in the
    references of its own segment: the others cannot match. On a system that matches little,
    most positions drop out after the first orders. On the standing benchmark, five systems
    match 5.5-6 ms instead of 17-19 ms, and the five that match most take about as long as
    before.
    """
    positions = np.flatnonzero(hypothesis.ids >= 0)
    ids = hypothesis.ids[positions]  # the unigram ids are the token ids
    result = []
    for n in range(1, references.max_order + 1):
        if n > 1:
            positions, ids = _extended(references, hypothesis, positions, ids, n)
        matches, present = _clipped(references, hypothesis, positions, ids, n)
        result.append(matches)
        positions, ids = positions[present], ids[present]
    return result


def _extended(
    references: ReferenceNgrams, hypothesis: TokenIds, positions: IntArray, ids: IntArray, n: int
) -> tuple[IntArray, IntArray]:
    """The n-grams that begin at ``positions``, where (n-1)-grams of the ids ``ids`` begin:
    the positions where the n-gram fits in its segment and is a reference n-gram, and its id."""
    fits = hypothesis.fits(n, positions)
    positions, ids = positions[fits], ids[fits]
    last = hypothesis.ids[positions + n - 1]
    known = last >= 0
    positions = positions[known]
    found, rank = references.look_up(n, ids[known] * references.vocabulary_size + last[known])
    return positions[found], rank[found]


def _clipped(
    references: ReferenceNgrams, hypothesis: TokenIds, positions: IntArray, ids: IntArray, n: int
) -> tuple[OrderMatches, npt.NDArray[np.bool_]]:
    """The order-n matches of the n-grams ``ids`` at ``positions``, and for each position
    whether its n-gram is in the references of its own segment."""
    order = references.orders[n - 1]
    grams = order.num_ngrams
    keys, inverse = unique_inverse(hypothesis.segment[positions] * grams + ids, runs=True)
    counts = np.bincount(inverse, minlength=len(keys))
    clipped = np.minimum(counts, _lookup(order.keys, order.max_counts, keys))
    segments = keys // grams
    matched = np.bincount(segments, weights=clipped, minlength=references.num_segments)
    keep = clipped > 0
    matches = OrderMatches(
        np.maximum(hypothesis.lengths - n + 1, 0),
        matched.astype(np.int64),
        clipped[keep],
        keys[keep] % grams,
        segments[keep],
    )
    return matches, keep[inverse]


def _counted(keys: IntArray) -> tuple[IntArray, IntArray]:
    """``np.unique(keys, return_counts=True)`` for keys that come in runs of one segment each
    (``segment * G + id`` in the order of the text), sorted by a stable sort: numpy's is a
    merge of the runs it finds, a few times faster on such keys than the plain sort
    ``np.unique`` makes (the same values: equal keys are alike, whichever comes first)."""
    ordered = np.sort(keys, kind="stable")
    if len(ordered) == 0:
        return ordered, np.zeros(0, dtype=np.intp)
    starts = np.flatnonzero(np.concatenate(([True], ordered[1:] != ordered[:-1])))
    counts = np.diff(np.append(starts, len(ordered)))
    return ordered[starts], counts


def _max_per_key(keys: IntArray, counts: IntArray) -> tuple[IntArray, IntArray]:
    """Unique keys with the largest count each had.

    Keys (segment * G + n-gram id) and counts are whole numbers >= 0 and small enough, nearly
    always, to share one int64: ``key << bits | count``. One sort of those orders by key, then
    by count, and the last of each run of equal keys holds the largest count. Each reference's
    keys come sorted, so the sort is numpy's stable one, a merge of those runs: several times
    faster here than its plain sort, and much faster than the stable argsort this falls back
    to when they do not fit (:func:`_max_per_key_stable`).
    """
    if len(keys) == 0:
        return keys, counts
    bits = int(counts.max()).bit_length()
    if int(counts.min()) < 0 or int(keys.min()) < 0 or int(keys.max()) >= 2 ** (62 - bits):
        return _max_per_key_stable(keys, counts)
    packed = np.sort((keys << bits) | counts, kind="stable")
    unpacked = packed >> bits
    last = np.flatnonzero(np.concatenate((unpacked[1:] != unpacked[:-1], [True])))
    return unpacked[last], packed[last] & ((1 << bits) - 1)


def _max_per_key_stable(keys: IntArray, counts: IntArray) -> tuple[IntArray, IntArray]:
    """:func:`_max_per_key` for any int64 keys and counts.

    ``keys`` are the references' sorted keys one after the other, so a stable sort (a merge of
    those sorted runs) brings equal keys together, and the largest count of each run of equal
    keys is one ``maximum.reduceat``: about a third of the time of a lexsort by key and count.
    """
    order = np.argsort(keys, kind="stable")
    keys, counts = keys[order], counts[order]
    starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
    return keys[starts], np.maximum.reduceat(counts, starts)


def _lookup(keys: IntArray, values: Int32Array, queries: IntArray) -> Int32Array:
    """``values`` at ``queries`` in the sorted ``keys``; 0 where a query is absent."""
    if len(keys) == 0 or len(queries) == 0:
        return np.zeros(len(queries), dtype=np.int32)
    rank = np.minimum(np.searchsorted(keys, queries), len(keys) - 1)
    return np.where(keys[rank] == queries, values[rank], 0)


def search_sorted(keys: IntArray, queries: IntArray) -> IntArray:
    """``np.searchsorted(keys, queries)``, with the queries sorted first.

    Searching sorted queries walks the keys in order, which is several times faster on large
    arrays than searching in random order (fewer cache misses); the sort costs less than it saves.
    The queries are sorted by :func:`~mtgui.engine.runtime.gil_free.sorted_with_order`, twice as
    fast as an argsort (60,000 n-gram pairs into 160,000 keys: 1.5 against 1.9 ms in all).
    """
    order, ordered = sorted_with_order(queries)
    ranks = np.empty(len(queries), dtype=np.int64)
    ranks[order] = np.searchsorted(keys, ordered)
    return ranks
