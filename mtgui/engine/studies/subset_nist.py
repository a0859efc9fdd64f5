"""NIST on a subset of the test set, scored as a test set of its own (Zhang & Vogel 2004, 4.1).

NIST's information weights ``log2(count(w_1..w_{n-1}) / count(w_1..w_n))`` count n-grams in the
references of the test set being scored. A subset scored as a test set of its own has its own
counts, so its own weights: with fewer reference words most n-grams carry less information,
which is why NIST rises with the test set's size in Zhang & Vogel's Figure 4. The statistics
rows hold information sums under the whole test set's weights, so the size study takes a
subset's sums from here.

Nothing is tokenized or matched per subset. Once per study: every reference n-gram is counted
per segment, and every system's clipped matches are kept per (segment, n-gram), as
:meth:`~mtgui.engine.metrics.bleu.nist.Nist.extract` has them (:mod:`~mtgui.engine.studies
.nist_tables`). Only the n-grams some system matches, and their prefixes, are kept: no other
weight is ever used; and matches of n-grams exactly as frequent as their prefix are dropped,
since they weigh log2(1) = 0 in every subset. A subset's counts are then sums over its segments
(added to, not recounted, when the subset grows, as the size study's nested subsets do), its
weights the formula of :func:`~mtgui.engine.metrics.bleu.nist.information_weights` (mteval-v13a's
``"0"`` quirk included when it is on), and its information sums per segment one weighted sum
over its segments' matches, all systems in one table (laid out so that the first segments of a
repetition's random order are one slice): the sums :meth:`Nist.extract` gives on a corpus of
only the subset's segments (to the last bit or so: there the n-grams are numbered, and so added
up, in another order), and on the whole test set the statistics' own, bit for bit.

The same tables serve several *sources* at once, each a subset of the references (the
references study's Table 4 scores every subset of the documents against every subset of the
references): each source has its own clipped counts and weights, and every source's sums are
those of a table built from its references alone, bit for bit.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass

import numpy as np

from mtgui.engine.core.arrays import BoolArray, FloatArray, IntArray
from mtgui.engine.core.corpus import Corpus, SystemOutput
from mtgui.engine.metrics.bleu.nist import ORDER
from mtgui.engine.metrics.extraction import ExtractionContext
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.studies.nist_tables import (
    Matches,
    ReferenceCounts,
    all_systems,
    kept_ngrams,
    prefixes_of,
    ranges,
    rearranged,
    reference_keys,
    reference_table,
    system_matches,
    weighed_ngrams,
    with_caps,
)

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


class SubsetNist:
    """Per-segment NIST information sums of any subset of the segments, under its own weights,
    for each source (a subset of the references; by default one: all of them).

    Of the kept n-grams, the *weighed* ones are those whose weight is not 0 in every subset:
    the matches of the others add nothing. Built by :func:`iter_subset_nist`.

    Made for nested subsets (the size study's): the counts of the last subset are kept, so that
    one containing it only adds its new segments, and after :meth:`arrange` the pairs of the
    first segments of an order are read as one slice. Use one object from one thread.
    """

    def __init__(
        self,
        systems: tuple[str, ...],
        tables: tuple[ReferenceCounts, ...],
        members: BoolArray,
        weighed: IntArray,
        prefixes: IntArray,
        matches: Matches,
    ) -> None:
        self.systems = systems
        self._tables = tables  # one per reference, or one of all references pooled
        self._members = members  # sources x tables: which tables a source sums
        self._weighed = weighed  # the kept index of each weighed n-gram
        self._over_all_words = prefixes < 0  # its prefix count is all reference words
        self._prefixes = np.maximum(prefixes, 0)  # else the kept index of its prefix
        self._matches = matches  # in segment order
        self._last: tuple[BoolArray, FloatArray] | None = None  # chosen, counts per table
        self._arranged: tuple[IntArray, Matches] | None = None  # ranks, pairs

    @property
    def num_segments(self) -> int:
        """N, the segments of the whole test set."""
        return len(self._tables[0].words)

    @property
    def sources(self) -> int:
        """How many sources the sums are given for."""
        return len(self._members)

    def restricted(self, sources: Sequence[int]) -> SubsetNist:
        """The table of some of the sources only (the same tables, shared)."""
        members = self._members[list(sources)]
        prefixes = np.where(self._over_all_words, -1, self._prefixes)
        tables, matches = self._tables, self._matches
        return SubsetNist(self.systems, tables, members, self._weighed, prefixes, matches)

    def arrange(self, order: IntArray) -> None:
        """Lay the pairs out segment by segment in ``order`` (all segments, in any order), so
        that the information of its first segments reads only theirs, in one slice."""
        ranks = np.empty(self.num_segments, dtype=np.int64)
        ranks[order] = np.arange(len(order))
        self._arranged = (ranks, rearranged(self._matches, order, self._width))

    def information(self, chosen: BoolArray) -> FloatArray:
        """I_1..I_5 of every system on each chosen segment, with the chosen segments' weights
        (of the first source): shape (chosen segments, 5 x systems), segments in order,
        systems side by side."""
        return np.ascontiguousarray(self._sums(chosen)[:, :, 0])

    def information_of_sources(self, chosen: BoolArray) -> FloatArray:
        """:meth:`information` of every source, side by side: (chosen segments, sources x 5 x
        systems)."""
        sums = self._sums(chosen)
        return sums.transpose(0, 2, 1).reshape(len(sums), -1)

    @property
    def _width(self) -> int:
        """The bins of a segment: one per system and order."""
        return ORDER * len(self.systems)

    def _sums(self, chosen: BoolArray) -> FloatArray:
        """The sums of every source: (chosen segments, 5 x systems, sources)."""
        from mtgui.engine.studies.kernels import information_sums  # imports numba: when used

        weights = self._weights(chosen)
        segments = np.flatnonzero(chosen)
        matches, picked, rows, size = self._picked(segments)
        caps = None if matches.caps is None else matches.caps[picked]
        # Each (segment, system, order) adds its pairs by n-gram id, as Nist.extract does (less
        # the pairs that add exactly 0): on the whole test set, the statistics' sums exactly.
        sums = information_sums(
            matches.local[picked],
            matches.grams[picked],
            matches.clipped[picked],
            caps,
            self._members,
            weights,
            size * self._width,
        )
        return sums.reshape(size, self._width, -1)[rows]

    def _picked(self, segments: IntArray) -> tuple[Matches, slice | IntArray, IntArray, int]:
        """The pairs, which of them are the ``segments``' (or all of them), where each
        segment's sums are among those the pairs make, and how many segments those have."""
        count = len(segments)
        if self._arranged is not None and self._arranged[0][segments].max(initial=-1) < count:
            # The first segments of the arranged order.
            ranks, arranged = self._arranged
            return arranged, slice(0, arranged.starts[count]), ranks[segments], count
        # Else a small subset's pairs are picked segment by segment; a large one's are all
        # weighed (picking them costs more than weighing them all).
        matches, size = self._matches, self.num_segments
        if count >= _PICK_BELOW * size:
            return matches, slice(None), segments, size
        picked = ranges(matches.starts[segments], matches.starts[segments + 1])
        return matches, picked, segments, size

    def _weights(self, chosen: BoolArray) -> FloatArray:
        """Per source, the weight of every weighed n-gram in the test set of the ``chosen``
        segments (0 if absent from it), as :func:`~mtgui.engine.metrics.bleu.nist
        .information_weights` has it: shape (sources, weighed n-grams)."""
        per_table = self._counts(chosen)
        counts = per_table if len(per_table) == 1 else self._members.astype(float) @ per_table
        words = self._members @ [float(t.words[chosen].sum()) for t in self._tables]
        # For an n-gram seen in the subset (count >= 1, prefix count >= count) the floor of 1
        # changes nothing, and the weight is log2(prefix count / count) to the last bit; for
        # the others it keeps the logarithm finite, and the weight is then set to 0.
        weights = np.take(counts, self._prefixes, axis=1)  # prefix counts, then the weights
        np.maximum(weights, 1.0, out=weights)
        weights[:, self._over_all_words] = np.maximum(words, 1.0)[:, None]
        own = np.take(counts, self._weighed, axis=1)
        seen = own > 0
        np.maximum(own, 1.0, out=own)
        np.divide(weights, own, out=weights)
        np.log2(weights, out=weights)
        weights *= seen
        return weights

    def _counts(self, chosen: BoolArray) -> FloatArray:
        """Every kept n-gram's count in the chosen segments of each table (exact integers)."""
        if self._last is not None and not np.any(self._last[0] & ~chosen):
            previous, counts = self._last  # updated in place: the last subset's are not needed
            added = np.flatnonzero(chosen & ~previous)
        else:
            added = np.flatnonzero(chosen)
            counts = np.zeros((len(self._tables), self._tables[0].kept))
        for table, row in zip(self._tables, counts, strict=True):
            entries = ranges(table.starts[added], table.starts[added + 1])
            np.add.at(row, table.grams[entries], table.counts[entries])
        self._last = (chosen.copy(), counts)
        return counts


def iter_subset_nist(
    inputs: NistInputs,
    systems: Sequence[str],
    forget: bool = True,
    sources: Sequence[Sequence[int]] | None = None,
) -> Generator[str, None, SubsetNist]:
    """Match the ``systems`` named (their outputs in ``inputs``) and count the references'
    n-grams per segment; return the table. Yields what it has just done, in steps of a
    fraction of a second (the longest builds the references' n-gram index, when the context
    has not built it yet).

    ``sources`` are subsets of the references (their positions) to give sums for, each as a
    test set with those references only would have them; by default one, all references.
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
    kept = kept_ngrams(ngrams, found)
    offsets = np.cumsum([0, *(len(k) for k in kept)])
    width = max(int(offsets[-1]), 1)
    keys = []
    for reference in context.reference_ids:
        keys.append(reference_keys(ngrams, reference, kept, offsets))
        yield "reference counts"
    per_reference = sources is not None
    tables: tuple[ReferenceCounts, ...]
    if sources is None:
        tables = (reference_table(keys, width, ngrams.lengths.sum(axis=1)),)
        members = np.ones((1, 1), dtype=bool)
    else:
        lengths = ngrams.lengths
        tables = tuple(reference_table([k], width, lengths[:, r]) for r, k in enumerate(keys))
        members = np.zeros((len(sources), len(tables)), dtype=bool)
        for s, chosen in enumerate(sources):
            members[s, list(chosen)] = True
    zero = context.vocabulary.get("0", -1) if context.settings.nist_zero_quirk else -1
    prefixes = prefixes_of(ngrams, kept, offsets, zero)
    totals = np.stack([t.totals() for t in tables])
    weighed = weighed_ngrams(prefixes, list(members.astype(float) @ totals))
    yield "reference table"
    pairs = []
    for name, orders in zip(systems, found, strict=True):
        pairs.append(system_matches(orders, kept, offsets, weighed, ngrams.num_segments))
        yield name
    table = all_systems(pairs, ngrams.num_segments)
    if per_reference:
        table = with_caps(table, tables, weighed, len(systems))
    return SubsetNist(tuple(systems), tables, members, weighed, prefixes[weighed], table)
