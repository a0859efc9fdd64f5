"""The tables :class:`~mtgui.engine.studies.subset_nist.SubsetNist` is built from: the
systems' matches per (segment, n-gram) and the references' n-gram counts per segment.

All n-grams are numbered as the extraction context of all the references numbers them (ranks
of their token sequences), and only the *kept* ones are in the tables: the n-grams some system
matches, and their prefixes. A subset of the references (the references study) numbers the
n-grams it has in the same order, so the tables of all the references serve any subset of them,
summed in the same order: a pair's clipped count against the subset is
``min(clipped against all, largest count in one of the subset's references)`` (the largest
count in all of them caps the hypothesis's count no more than the clipping against all did),
and the subset's reference counts are the sums of its references' own tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from mtgui.engine.core.arrays import BoolArray, FloatArray, IntArray
from mtgui.engine.metrics.bleu.nist import ORDER
from mtgui.engine.text.ngrams import OrderMatches, ReferenceNgrams, TokenIds, search_sorted


@dataclass(frozen=True)
class Matches:
    """Every system's clipped matches, all orders, per (segment, n-gram) pair: its bin
    ``(segment * systems + system) * ORDER + order`` in the (segment, system, order) table, its
    weighed n-gram (an index among the weighed ones) and its clipped count against all the
    references; with ``caps``, its count in each reference (pairs x references). Segment after
    segment in some order (``starts[i]:starts[i + 1]`` are the pairs of the i-th), each
    segment's system by system, each system's by order, then n-gram: within a bin, the order
    in which :meth:`Nist.extract` adds them up. ``local`` is each pair's bin among the segments
    in that order (its segment's rank instead of the segment), so that a subset of the first
    segments of the order sums into a table of its own size."""

    bins: IntArray
    grams: IntArray
    clipped: FloatArray
    caps: npt.NDArray[np.int32] | None
    starts: IntArray
    local: IntArray


@dataclass(frozen=True)
class ReferenceCounts:
    """The kept n-grams' counts in each segment of some references (one, or all pooled): a
    segment-sorted sparse table (``starts[i]:starts[i + 1]`` are segment i's entries)."""

    starts: IntArray
    grams: IntArray  # kept n-gram of each entry
    counts: FloatArray
    words: IntArray  # per segment, the references' words (the empty prefix's count)
    kept: int  # how many n-grams are kept

    def totals(self) -> FloatArray:
        """Every kept n-gram's count in the whole test set."""
        return np.bincount(self.grams, weights=self.counts, minlength=self.kept).astype(np.float64)


def kept_ngrams(ngrams: ReferenceNgrams, found: Sequence[Sequence[OrderMatches]]) -> list[IntArray]:
    """Per order, the sorted ids of the n-grams some system matches, with the prefixes of the
    next order's (a match's prefix is matched too, but the table must not depend on that)."""
    kept = [
        np.unique(np.concatenate([np.zeros(0, np.int64), *(s[n].matched_ids for s in found)]))
        for n in range(ORDER)
    ]
    for n in range(ORDER - 1, 0, -1):
        prefix = ngrams.orders[n].pairs[kept[n]] // ngrams.vocabulary_size
        kept[n - 1] = np.union1d(kept[n - 1], prefix)
    return kept


def reference_keys(
    ngrams: ReferenceNgrams, reference: TokenIds, kept: Sequence[IntArray], offsets: IntArray
) -> IntArray:
    """``segment * width + kept n-gram`` of every kept n-gram at a position of ``reference``
    (``width`` is ``offsets[-1]``, at least 1)."""
    width = max(int(offsets[-1]), 1)
    keys = [np.zeros(0, np.int64)]
    # every position's n-gram of NIST's orders (the index may go further, for BLEU's)
    for n, ids in enumerate(ngrams.hypothesis_ids(reference)[: len(kept)]):
        rank, hit = rank_in(kept[n], ids)
        keys.append(reference.segment[hit] * width + offsets[n] + rank[hit])
    return np.concatenate(keys)


def reference_table(keys: Sequence[IntArray], width: int, words: IntArray) -> ReferenceCounts:
    """The table of ``segment * width + kept n-gram`` keys, one per reference position."""
    unique, counts = np.unique(np.concatenate([np.zeros(0, np.int64), *keys]), return_counts=True)
    segments = np.arange(len(words) + 1)
    starts = np.searchsorted(unique, segments * width).astype(np.int64)
    return ReferenceCounts(starts, unique % width, counts.astype(np.float64), words, width)


def prefixes_of(
    ngrams: ReferenceNgrams, kept: Sequence[IntArray], offsets: IntArray, zero: int
) -> IntArray:
    """For every kept n-gram, the kept index of its prefix, or -1 when the prefix count is all
    reference words: unigrams, and with mteval-v13a's quirk bigrams after the token ``0``."""
    parts = [np.full(len(kept[0]), -1, dtype=np.int64)]
    for n in range(1, ORDER):
        prefix = ngrams.orders[n].pairs[kept[n]] // ngrams.vocabulary_size
        index = offsets[n - 1] + np.searchsorted(kept[n - 1], prefix)
        if n == 1 and zero >= 0:
            index = np.where(prefix == zero, -1, index)
        parts.append(index.astype(np.int64))
    return np.concatenate(parts)


def weighed_ngrams(prefixes: IntArray, wholes: Sequence[FloatArray]) -> IntArray:
    """The kept n-grams whose weight is not 0 in every subset of the segments, for some of
    the ``wholes`` (each a set of references' counts in the whole test set). An n-gram as
    frequent as its prefix in the whole test set is so in every subset (each occurrence of the
    prefix is one of the n-gram): it weighs log2(1) = 0 in every subset."""
    weighed = prefixes < 0
    for whole in wholes:
        weighed |= whole[np.maximum(prefixes, 0)] != whole
    return np.flatnonzero(weighed)


def rank_in(kept: IntArray, ids: IntArray) -> tuple[IntArray, BoolArray]:
    """The position of each id among the sorted ``kept`` ids, and whether it is there."""
    rank = np.minimum(search_sorted(kept, ids), max(len(kept) - 1, 0))
    hit = (ids >= 0) & (kept[rank] == ids) if len(kept) else np.zeros(len(ids), dtype=bool)
    return rank.astype(np.int64), hit


def system_matches(
    orders: Sequence[OrderMatches],
    kept: Sequence[IntArray],
    offsets: IntArray,
    weighed: IntArray,
    size: int,
) -> tuple[IntArray, IntArray, FloatArray]:
    """One system's matches of every order on the ``weighed`` n-grams (the others add 0) of
    the ``size`` segments, segment by segment: (bins ``segment * ORDER + order``, weighed
    n-grams, clipped counts)."""
    bins = np.concatenate([m.matched_segments * ORDER + n for n, m in enumerate(orders)])
    grams = np.concatenate(
        [offsets[n] + search_sorted(kept[n], m.matched_ids) for n, m in enumerate(orders)]
    )
    clipped = np.concatenate([m.clipped_counts for m in orders])
    rank, hit = rank_in(weighed, grams)
    order = np.flatnonzero(hit)
    order = order[np.argsort(bins[order], kind="stable")]  # each order is sorted by n-gram id
    return bins[order], rank[order], clipped[order].astype(np.float64)


def all_systems(systems: Sequence[tuple[IntArray, IntArray, FloatArray]], size: int) -> Matches:
    """One table of every system's pairs (each system's from :func:`system_matches`), segment
    by segment, each segment's system by system."""
    count = len(systems)
    bins = np.concatenate(
        [np.zeros(0, np.int64)]
        + [(b // ORDER * count + s) * ORDER + b % ORDER for s, (b, _, _) in enumerate(systems)]
    )
    # Stable: within a bin, a system's pairs keep their order (by n-gram id).
    order = np.argsort(bins, kind="stable")
    grams = np.concatenate([np.zeros(0, np.int64), *(g for _, g, _ in systems)])
    clipped = np.concatenate([np.zeros(0), *(c for _, _, c in systems)])
    bins = bins[order]
    starts = np.searchsorted(bins, np.arange(size + 1) * count * ORDER).astype(np.int64)
    return Matches(bins, grams[order], clipped[order], None, starts, bins)


def with_caps(
    matches: Matches, tables: Sequence[ReferenceCounts], weighed: IntArray, systems: int
) -> Matches:
    """The pairs with their count in each reference (``tables``, one per reference)."""
    width = tables[0].kept
    keys = matches.bins // (systems * ORDER) * width + weighed[matches.grams]
    caps = np.zeros((len(keys), len(tables)), dtype=np.int32)
    for r, table in enumerate(tables):
        segments = np.repeat(np.arange(len(table.words)), np.diff(table.starts))
        entries = segments * width + table.grams
        rank = np.minimum(search_sorted(entries, keys), max(len(entries) - 1, 0))
        found = entries[rank] == keys if len(entries) else np.zeros(len(keys), dtype=bool)
        caps[found, r] = table.counts[rank[found]]
    return Matches(
        matches.bins, matches.grams, matches.clipped, caps, matches.starts, matches.local
    )


def rearranged(matches: Matches, order: IntArray, width: int) -> Matches:
    """The pairs segment by segment in ``order`` (``width`` bins per segment)."""
    starts, ends = matches.starts[order], matches.starts[order + 1]
    picked = ranges(starts, ends)
    positions = np.concatenate(([0], np.cumsum(ends - starts))).astype(np.int64)
    bins = matches.bins[picked]
    local = np.repeat(np.arange(len(order), dtype=np.int64) * width, ends - starts) + bins % width
    caps = None if matches.caps is None else matches.caps[picked]
    grams, clipped = matches.grams[picked], matches.clipped[picked]
    return Matches(bins, grams, clipped, caps, positions, local)


def ranges(starts: IntArray, ends: IntArray) -> IntArray:
    """The positions ``starts[i]:ends[i]`` of every i, one after the other."""
    lengths = ends - starts
    shift = np.repeat(starts - np.cumsum(lengths) + lengths, lengths)
    return shift + np.arange(int(lengths.sum()), dtype=np.int64)
