"""NIST on a subset of the test set, scored as a test set of its own (Zhang & Vogel 2004, 4.1).

NIST's information weights ``log2(count(w_1..w_{n-1}) / count(w_1..w_n))`` count n-grams in the
references of the test set being scored. A subset scored as a test set of its own has its own
counts, so its own weights: with fewer reference words most n-grams carry less information,
which is why NIST rises with the test set's size in Zhang & Vogel's Figure 4. The statistics
rows hold information sums under the whole test set's weights, so the size study takes a
subset's sums from here.

Nothing is tokenized or matched per subset. Once per study: every reference n-gram is counted
per segment, all references pooled (a segment-sorted sparse table), and every system's clipped
matches are kept per (segment, n-gram), as :meth:`~mtgui.engine.metrics.nist.Nist.extract`
has them. Only the n-grams some system matches, and their prefixes, are kept: no other weight
is ever used; and matches of n-grams exactly as frequent as their prefix are dropped, since
they weigh log2(1) = 0 in every subset. A subset's counts are then sums over its segments
(added to, not recounted, when the subset grows, as the size study's nested subsets do), its
weights the formula of :func:`~mtgui.engine.metrics.nist.information_weights` (mteval-v13a's
``"0"`` quirk included when it is on), and its information sums per segment one weighted
bincount over its segments' matches, all systems in one table (laid out so that the first
segments of a repetition's random order are one slice): the sums :meth:`Nist.extract` gives
on a corpus of only the subset's segments (to the last bit or so: there the n-grams are
numbered, and so added up, in another order), and on the whole test set the statistics' own,
bit for bit.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np
import numpy.typing as npt

from mtgui.engine.corpus import Corpus, SystemOutput
from mtgui.engine.extraction import ExtractionContext
from mtgui.engine.metrics.base import FloatArray
from mtgui.engine.metrics.nist import ORDER
from mtgui.engine.ngrams import OrderMatches, ReferenceNgrams, search_sorted
from mtgui.engine.settings import MetricSettings

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
_PICK_BELOW = 0.45  # subsets of fewer segments than this share of all pick their pairs


@dataclass(frozen=True)
class NistInputs:
    """What a subset's own NIST is computed from: the extraction context of the test set (its
    reference n-grams, token ids and settings) and the system outputs."""

    context: ExtractionContext
    systems: tuple[SystemOutput, ...]

    @classmethod
    def of(
        cls, corpus: Corpus, settings: MetricSettings, context: ExtractionContext | None = None
    ) -> NistInputs:
        """The corpus's, with ``context`` when it is of this test set and settings (its tokens
        are reused), else a new context."""
        same = context is not None and context.test_set is corpus.test_set
        if context is None or not same or context.settings != settings:
            context = ExtractionContext(corpus.test_set, settings)
        return cls(context, corpus.systems)


@dataclass(frozen=True)
class _Matches:
    """Every system's clipped matches, all orders, per (segment, n-gram) pair: its bin
    ``(segment * systems + system) * ORDER + order`` in the (segment, system, order) table, its
    weighed n-gram (see :class:`SubsetNist`) and its clipped count. Segment after segment in some
    order (``starts[i]:starts[i + 1]`` are the pairs of the i-th), each segment's system by
    system, each system's by order, then n-gram id: within a bin, the order in which
    :meth:`Nist.extract` adds them up. All systems in one table, so that a subset's sums are one
    weighted bincount over one slice, not one per system."""

    bins: IntArray
    grams: IntArray
    clipped: FloatArray
    starts: IntArray


@dataclass(frozen=True)
class _References:
    """The kept n-grams' counts in each segment's references, all references pooled: a
    segment-sorted sparse table (``starts[i]:starts[i + 1]`` are segment i's entries)."""

    starts: IntArray
    grams: IntArray  # kept n-gram of each entry
    counts: FloatArray
    words: IntArray  # per segment, the reference words (the empty prefix's count)
    kept: int  # how many n-grams are kept


class SubsetNist:
    """Per-segment NIST information sums of any subset of the segments, under its own weights.

    Of the kept n-grams, the *weighed* ones are those whose weight is not 0 in every subset:
    the matches of the others add nothing. Built by :func:`iter_subset_nist`.

    Made for nested subsets (the size study's): ``information`` keeps the counts of the last
    subset, so that one containing it only adds its new segments, and after :meth:`arrange`
    the pairs of the first segments of an order are read as one slice. Use one object from one
    thread.
    """

    def __init__(
        self,
        systems: tuple[str, ...],
        references: _References,
        weighed: IntArray,
        prefixes: IntArray,
        matches: _Matches,
    ) -> None:
        self.systems = systems
        self._references = references
        self._weighed = weighed  # the kept index of each weighed n-gram
        self._over_all_words = prefixes < 0  # its prefix count is all reference words
        self._prefixes = np.maximum(prefixes, 0)  # else the kept index of its prefix
        self._matches = matches  # in segment order
        self._last: tuple[BoolArray, FloatArray] | None = None
        self._arranged: tuple[IntArray, _Matches] | None = None  # ranks, pairs

    def arrange(self, order: IntArray) -> None:
        """Lay the pairs out segment by segment in ``order`` (all segments, in any order), so
        that the information of its first segments reads only theirs, in one slice."""
        ranks = np.empty(self.num_segments, dtype=np.int64)
        ranks[order] = np.arange(len(order))
        self._arranged = (ranks, _rearranged(self._matches, order))

    @property
    def num_segments(self) -> int:
        """N, the segments of the whole test set."""
        return len(self._references.words)

    def information(self, chosen: BoolArray) -> FloatArray:
        """I_1..I_5 of every system on each chosen segment, with the chosen segments' weights:
        shape (chosen segments, 5 x systems), segments in order, systems side by side."""
        weights = self._weights(chosen)
        segments = np.flatnonzero(chosen)
        width = ORDER * len(self.systems)
        matches, picked = self._picked(segments)
        # Each (segment, system, order) adds its pairs by n-gram id, as Nist.extract does (less
        # the pairs that add exactly 0): on the whole test set, the statistics' sums exactly.
        weighted = matches.clipped[picked] * weights[matches.grams[picked]]
        size = width * self.num_segments
        sums = cast(FloatArray, np.bincount(matches.bins[picked], weights=weighted, minlength=size))
        return sums.reshape(-1, width)[segments]

    def _picked(self, segments: IntArray) -> tuple[_Matches, slice | IntArray]:
        """The pairs, and which of them are the ``segments``' (or all of them)."""
        count = len(segments)
        if self._arranged is not None and self._arranged[0][segments].max(initial=-1) < count:
            # The first segments of the arranged order.
            arranged = self._arranged[1]
            return arranged, slice(0, arranged.starts[count])
        # Else a small subset's pairs are picked segment by segment; a large one's are all
        # weighed (picking them costs more than weighing them all).
        matches = self._matches
        if count >= _PICK_BELOW * self.num_segments:
            return matches, slice(None)
        return matches, _ranges(matches.starts[segments], matches.starts[segments + 1])

    def _weights(self, chosen: BoolArray) -> FloatArray:
        """The weight of every weighed n-gram in the test set of the ``chosen`` segments (0 if
        absent from it), as :func:`~mtgui.engine.metrics.nist.information_weights` has it."""
        counts = self._counts(chosen)
        # For an n-gram seen in the subset (count >= 1, prefix count >= count) the floor of 1
        # changes nothing, and the weight is log2(prefix count / count) to the last bit; for
        # the others it keeps the logarithm finite, and the weight is then set to 0.
        prefix = np.maximum(counts[self._prefixes], 1.0)
        prefix[self._over_all_words] = max(float(self._references.words[chosen].sum()), 1.0)
        own = counts[self._weighed]
        weights = np.log2(prefix / np.maximum(own, 1.0))
        weights *= own > 0
        return weights

    def _counts(self, chosen: BoolArray) -> FloatArray:
        """Every kept n-gram's count in the chosen segments' references (exact integers)."""
        if self._last is not None and not np.any(self._last[0] & ~chosen):
            previous, counts = self._last  # updated in place: the last subset's are not needed
            added = np.flatnonzero(chosen & ~previous)
        else:
            added, counts = np.flatnonzero(chosen), np.zeros(self._references.kept)
        table = self._references
        entries = _ranges(table.starts[added], table.starts[added + 1])
        np.add.at(counts, table.grams[entries], table.counts[entries])
        self._last = (chosen.copy(), counts)
        return counts


def iter_subset_nist(
    inputs: NistInputs, systems: Sequence[str], forget: bool = True
) -> Generator[str, None, SubsetNist]:
    """Match the ``systems`` named (their outputs in ``inputs``) and count the references'
    n-grams per segment; return the table. Yields what it has just done, in steps of a
    fraction of a second (the longest builds the references' n-gram index, when the context
    has not built it yet).

    With ``forget``, each system's cached tokens and matches are dropped from the context once
    taken, as statistics extraction does; without, an extraction that follows reuses them.
    """
    context = inputs.context
    context.reference_ids  # noqa: B018 -- tokenized in a step of its own
    yield "reference tokens"
    ngrams = context.reference_ngrams
    yield "reference n-grams"
    outputs = {system.name: system for system in inputs.systems}
    found = []
    for name in systems:
        found.append(context.matches(outputs[name])[:ORDER])
        if forget:
            context.forget(outputs[name])
        yield name
    kept = _kept_ngrams(ngrams, found)
    offsets = np.cumsum([0, *(len(k) for k in kept)])
    width = max(int(offsets[-1]), 1)
    keys = []
    for reference in context.reference_ids:
        for n, ids in enumerate(ngrams.hypothesis_ids(reference)):  # every position's n-gram
            rank, hit = _rank(kept[n], ids)
            keys.append(reference.segment[hit] * width + offsets[n] + rank[hit])
        yield "reference counts"
    references = _reference_table(keys, width, ngrams)
    zero = context.vocabulary.get("0", -1) if context.settings.nist_zero_quirk else -1
    prefixes = _prefixes(ngrams, kept, offsets, zero)
    # An n-gram as frequent in the whole test set as its prefix is so in every subset (each
    # occurrence of the prefix is one of the n-gram): it weighs log2(1) = 0 in every subset.
    whole = np.bincount(references.grams, weights=references.counts, minlength=width)
    weighed = np.flatnonzero((prefixes < 0) | (whole[np.maximum(prefixes, 0)] != whole))
    yield "reference table"
    matches = []
    for name, orders in zip(systems, found, strict=True):
        matches.append(_system_matches(orders, kept, offsets, weighed, len(references.words)))
        yield name
    table = _all_systems(matches, len(references.words))
    return SubsetNist(tuple(systems), references, weighed, prefixes[weighed], table)


def _reference_table(keys: Sequence[IntArray], width: int, ngrams: ReferenceNgrams) -> _References:
    """The table of ``segment * width + kept n-gram`` keys, one per reference position."""
    unique, counts = np.unique(np.concatenate([np.zeros(0, np.int64), *keys]), return_counts=True)
    segments = np.arange(ngrams.num_segments + 1)
    starts = np.searchsorted(unique, segments * width).astype(np.int64)
    words = ngrams.lengths.sum(axis=1)
    return _References(starts, unique % width, counts.astype(np.float64), words, width)


def _kept_ngrams(
    ngrams: ReferenceNgrams, found: Sequence[Sequence[OrderMatches]]
) -> list[IntArray]:
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


def _prefixes(
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


def _rank(kept: IntArray, ids: IntArray) -> tuple[IntArray, BoolArray]:
    """The position of each id among the sorted ``kept`` ids, and whether it is there."""
    rank = np.minimum(search_sorted(kept, ids), max(len(kept) - 1, 0))
    hit = (ids >= 0) & (kept[rank] == ids) if len(kept) else np.zeros(len(ids), dtype=bool)
    return rank.astype(np.int64), hit


def _system_matches(
    orders: Sequence[OrderMatches],
    kept: Sequence[IntArray],
    offsets: IntArray,
    weighed: IntArray,
    size: int,
) -> _Matches:
    """One system's matches of every order on the ``weighed`` n-grams (the others add 0) of
    the ``size`` segments."""
    bins = np.concatenate([m.matched_segments * ORDER + n for n, m in enumerate(orders)])
    grams = np.concatenate(
        [offsets[n] + search_sorted(kept[n], m.matched_ids) for n, m in enumerate(orders)]
    )
    clipped = np.concatenate([m.clipped_counts for m in orders])
    rank, hit = _rank(weighed, grams)
    order = np.flatnonzero(hit)
    order = order[np.argsort(bins[order], kind="stable")]  # each order is sorted by n-gram id
    starts = np.searchsorted(bins[order], np.arange(size + 1) * ORDER).astype(np.int64)
    return _Matches(bins[order], rank[order], clipped[order].astype(np.float64), starts)


def _all_systems(matches: Sequence[_Matches], size: int) -> _Matches:
    """One table of every system's pairs (each system's as :func:`_system_matches` has them),
    segment by segment, each segment's system by system."""
    systems = len(matches)
    bins = np.concatenate(
        [np.zeros(0, np.int64)]
        + [(m.bins // ORDER * systems + s) * ORDER + m.bins % ORDER for s, m in enumerate(matches)]
    )
    # Stable: within a bin, a system's pairs keep their order (by n-gram id).
    order = np.argsort(bins, kind="stable")
    grams = np.concatenate([np.zeros(0, np.int64), *(m.grams for m in matches)])
    clipped = np.concatenate([np.zeros(0), *(m.clipped for m in matches)])
    bins = bins[order]
    starts = np.searchsorted(bins, np.arange(size + 1) * systems * ORDER).astype(np.int64)
    return _Matches(bins, grams[order], clipped[order], starts)


def _rearranged(matches: _Matches, order: IntArray) -> _Matches:
    """The pairs segment by segment in ``order``."""
    starts, ends = matches.starts[order], matches.starts[order + 1]
    picked = _ranges(starts, ends)
    positions = np.concatenate(([0], np.cumsum(ends - starts))).astype(np.int64)
    return _Matches(matches.bins[picked], matches.grams[picked], matches.clipped[picked], positions)


def _ranges(starts: IntArray, ends: IntArray) -> IntArray:
    """The positions ``starts[i]:ends[i]`` of every i, one after the other."""
    lengths = ends - starts
    shift = np.repeat(starts - np.cumsum(lengths) + lengths, lengths)
    return shift + np.arange(int(lengths.sum()), dtype=np.int64)
