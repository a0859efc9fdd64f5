"""Breakdowns: every system's scores, intervals and comparisons within each group of segments
(by origin language, genre, reference length, or labels a person gave).

A group is scored as a test set of its own: a run of ``mtgui eval`` on the group's segments
alone, with the same settings and seed, gives the same scores, intervals and verdicts. That is
the rule the tests check, and it fixes every choice here:

- the group's statistics are the rows of its segments (:func:`group_statistics`): every
  metric's row depends on its segment alone, except NIST's information sums, whose weights
  come from the references of the test set scored (Zhang & Vogel 4.1). Those are the group's
  own, from :class:`~mtgui.engine.studies.subset_nist.SubsetNist` (built once for all groups
  of all breakdowns, with no tokenizing per group);
- the group's documents are numbered in order of first appearance, as its own test set would
  number them, and the unit asked for (``auto`` too) is resolved on the group's documents, so a
  group of few documents resamples segments, with the note a run on it would give;
- the bootstrap is :func:`~mtgui.engine.resampling.bootstrap.iter_bootstrap` itself, with the run's
seed:   each group's resamples are drawn from the seed, as its own run would draw them.

A group of fewer than :data:`MIN_GROUP_SEGMENTS` segments is not bootstrapped (a handful of
sentences gives intervals that look precise and mean nothing): it is listed with its size,
its scores and a note that says why it has no interval.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType

import numpy as np

from mtgui.engine.core.arrays import FloatArray, IntArray
from mtgui.engine.core.corpus import Corpus, SegmentScores, TestSet, TextColumn
from mtgui.engine.core.words import counted
from mtgui.engine.inference.choices import DecidingTest
from mtgui.engine.inference.corrections import Family, FamilyInput, decide_family
from mtgui.engine.inference.significance import Correction, PairComparison
from mtgui.engine.metrics.bleu.nist import ORDER, Nist
from mtgui.engine.resampling.bootstrap import BootstrapResult, iter_bootstrap, with_pairs
from mtgui.engine.resampling.draws import BootstrapProgress
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.engine.runtime.gil_free import distinct_count
from mtgui.engine.statistics.grouping import Grouping
from mtgui.engine.statistics.rows import Statistics, SystemStatistics
from mtgui.engine.studies.subset_nist import NistInputs, SubsetNist, iter_subset_nist

MIN_GROUP_SEGMENTS = 10
"""Groups of fewer segments are listed with their scores but not bootstrapped."""


@dataclass(frozen=True)
class GroupResult:
    """One group: its size, every system's score on it, and its bootstrap (None when it is too
    small or the run has no bootstrap). ``notes`` say what to know (why no interval, which
    unit was resampled)."""

    label: str
    segments: int
    documents: int | None  # None: the test set has no documents
    scores: Mapping[tuple[str, str], float]  # (system, metric) -> the group's score
    bootstrap: BootstrapResult | None
    notes: tuple[str, ...] = ()

    def score(self, system: str, metric: str) -> float:
        """The group's score of one system under one metric (NaN for an empty group)."""
        return self.scores[(system, metric)]


@dataclass(frozen=True)
class Breakdown:
    """Every group of one grouping, in its order."""

    by: str
    what: str  # what the groups are, in words
    systems: tuple[str, ...]
    metrics: tuple[str, ...]
    groups: tuple[GroupResult, ...]
    settings: BootstrapSettings | None  # as asked (each group's result has the unit resampled)

    def group(self, label: str) -> GroupResult:
        """The group called ``label``."""
        return next(g for g in self.groups if g.label == label)


@dataclass(frozen=True)
class BreakdownProgress:
    """Where breakdowns are: the group being bootstrapped (``step`` of ``steps`` groups in all
    breakdowns) and its resamples done; ``phase`` is "nist" while NIST's table is built, and
    "whole" while the whole test set is bootstrapped again for a joined family."""

    step: int
    steps: int
    by: str
    label: str
    done: int = 0
    total: int = 0
    phase: str = "bootstrap"

    @property
    def fraction(self) -> float:
        """How much of all the groups is done, from 0 to 1."""
        within = self.done / self.total if self.total else 0.0
        return (self.step + within) / self.steps if self.steps else 1.0


def iter_breakdowns(
    corpus: Corpus,
    statistics: Statistics,
    groupings: Sequence[Grouping],
    settings: BootstrapSettings | None,
) -> Generator[BreakdownProgress, None, tuple[Breakdown, ...]]:
    """Every grouping's breakdown, NIST's table built once for them all."""
    steps = sum(len(g.labels) for g in groupings)
    nist = yield from iter_nist_table(corpus, statistics, steps)
    results, step = [], 0
    for grouping in groupings:
        breakdown = yield from iter_breakdown(
            corpus, statistics, grouping, settings, nist, (step, steps)
        )
        results.append(breakdown)
        step += len(grouping.labels)
    return tuple(results)


def iter_joined_breakdown(
    corpus: Corpus, statistics: Statistics, whole: BootstrapResult, grouping: Grouping
) -> Generator[BreakdownProgress, None, tuple[Breakdown, BootstrapResult | None]]:
    """The breakdown by ``grouping`` of a finished analysis (its bootstrap ``whole``),
    resampled with its settings and the unit it asked for; under ``--family all`` with a
    correction, also the whole test set decided in one family with the groups (None
    otherwise), as ``mtgui eval --by KEY --family all`` decides them: B raised for the joined
    family by the same rule (:meth:`BootstrapSettings.enough_for` from the B asked for), the
    whole test set bootstrapped again when it was, then :func:`joined_family`."""
    settings = replace(whole.settings, unit=whole.unit_requested)
    if settings.correction is Correction.NONE or settings.family is not Family.ALL:
        made = yield from iter_breakdowns(corpus, statistics, [grouping], settings)
        return made[0], None
    asked = replace(settings, resamples=settings.raised_from or settings.resamples)
    settings = replace(asked, raised_from=None).enough_for(
        len(whole.systems), len(whole.metrics), len(grouping.labels)
    )
    redone = whole
    if settings.resamples != whole.settings.resamples:  # the joined family needs more
        redone = yield from _iter_whole(corpus, statistics, settings, grouping)
    made = yield from iter_breakdowns(corpus, statistics, [grouping], settings)
    joined, breakdowns = joined_family(statistics, redone, made)
    return breakdowns[0], None if joined is whole else joined


def _iter_whole(
    corpus: Corpus, statistics: Statistics, settings: BootstrapSettings, grouping: Grouping
) -> Generator[BreakdownProgress, None, BootstrapResult]:
    """The whole test set bootstrapped again with ``settings`` (B raised for the joined
    family), its progress told as the breakdown's first step (phase "whole")."""
    documents = corpus.test_set.document_index_if_any()
    run = iter_bootstrap(statistics, settings, documents)
    steps = len(grouping.labels)
    try:
        while True:
            snapshot = next(run)
            yield BreakdownProgress(
                0, steps, grouping.by, "", snapshot.done, snapshot.total, phase="whole"
            )
    except StopIteration as stop:
        redone: BootstrapResult = stop.value
        return redone


def iter_nist_table(
    corpus: Corpus, statistics: Statistics, steps: int = 1
) -> Generator[BreakdownProgress, None, SubsetNist | None]:
    """The table of the groups' own NIST information sums, or None without NIST."""
    if not any(m.name == Nist.name for m in statistics.metrics):
        return None
    inputs = NistInputs.of(corpus, statistics.settings)
    table = iter_subset_nist(inputs, statistics.system_names)
    while True:
        try:
            next(table)
        except StopIteration as built:
            return built.value
        yield BreakdownProgress(0, steps, "", "", phase="nist")


def iter_breakdown(
    corpus: Corpus,
    statistics: Statistics,
    grouping: Grouping,
    settings: BootstrapSettings | None,
    nist: SubsetNist | None = None,
    position: tuple[int, int] | None = None,
) -> Generator[BreakdownProgress, None, Breakdown]:
    """Score (and bootstrap, with ``settings``) every group of ``grouping``.

    ``nist`` is the table of :func:`iter_nist_table` (needed with NIST among the metrics);
    ``position`` is (groups done before, groups in all) for the progress of several breakdowns.
    """
    if nist is None and any(m.name == Nist.name for m in statistics.metrics):
        nist = yield from iter_nist_table(corpus, statistics)
    start, steps = position or (0, len(grouping.labels))
    documents = corpus.test_set.document_index_if_any()
    groups = []
    for k, (label, segments) in enumerate(zip(grouping.labels, grouping.members, strict=True)):
        progress = BreakdownProgress(start + k, steps, grouping.by, label)
        yield progress
        group = yield from _iter_group(statistics, progress, segments, documents, settings, nist)
        groups.append(group if group is not None else _unscored(statistics, label, segments))
        groups[-1] = replace(groups[-1], documents=_documents(documents, segments))
    names = tuple(m.name for m in statistics.metrics)
    return Breakdown(
        grouping.by, grouping.what, statistics.system_names, names, tuple(groups), settings
    )


def _iter_group(
    statistics: Statistics,
    progress: BreakdownProgress,
    segments: IntArray,
    documents: IntArray | None,
    settings: BootstrapSettings | None,
    nist: SubsetNist | None,
) -> Generator[BreakdownProgress, None, GroupResult | None]:
    """One group scored and bootstrapped; None if it is empty."""
    label = progress.label
    if not len(segments):
        return None
    own = group_statistics(statistics, segments, nist)
    scores = {(s, m.name): own.score(s, m.name) for s in own.system_names for m in own.metrics}
    if settings is None:
        return GroupResult(label, len(segments), None, MappingProxyType(scores), None)
    if len(segments) < MIN_GROUP_SEGMENTS:
        note = (
            f"Only {counted(len(segments), 'segment')}: too few to bootstrap (mtgui bootstraps "
            f"groups of {MIN_GROUP_SEGMENTS} or more), so these scores have no interval."
        )
        return GroupResult(label, len(segments), None, MappingProxyType(scores), None, (note,))
    index = None if documents is None else renumbered(documents[segments])
    run = iter_bootstrap(own, settings, index)
    while True:
        try:
            snapshot: BootstrapProgress = next(run)
        except StopIteration as finished:
            result: BootstrapResult = finished.value
            break
        yield replace(progress, done=snapshot.done, total=snapshot.total, phase=snapshot.phase)
    return GroupResult(
        label, len(segments), None, MappingProxyType(scores), result, tuple(result.notes)
    )


def _unscored(statistics: Statistics, label: str, segments: IntArray) -> GroupResult:
    """An empty group: listed, with no score."""
    scores = {
        (s, m.name): float("nan") for s in statistics.system_names for m in statistics.metrics
    }
    note = "No segment falls in this group."
    return GroupResult(label, len(segments), None, MappingProxyType(scores), None, (note,))


def _documents(documents: IntArray | None, segments: IntArray) -> int | None:
    """How many documents the group's segments come from (None without documents)."""
    return None if documents is None else distinct_count(documents[segments])


def renumbered(index: IntArray) -> IntArray:
    """Document numbers 0, 1, ... in order of first appearance, as a test set of only these
    segments numbers its documents (:meth:`TestSet.document_index`)."""
    _, first, inverse = np.unique(index, return_index=True, return_inverse=True)
    rank = np.empty(len(first), dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(len(first))
    return rank[inverse.ravel()]


def group_statistics(
    statistics: Statistics, segments: IntArray, nist: SubsetNist | None = None
) -> Statistics:
    """The statistics of only ``segments``: their rows (arrays shared by two metrics, such as
    BLEU's and M-BLEU's, stay shared) with NIST's information sums under the group's own
    weights, taken from ``nist``."""
    chosen = np.zeros(_size(statistics), dtype=bool)
    chosen[segments] = True
    information = nist.information(chosen) if nist is not None else None
    systems = []
    for system in statistics.systems:
        taken: dict[int, FloatArray] = {}
        rows = {}
        for metric, array in system.rows.items():
            if id(array) not in taken:
                part = np.array(array[segments], dtype=np.float64)
                if metric == Nist.name and nist is not None and information is not None:
                    column = nist.systems.index(system.system)
                    part[:, :ORDER] = information[:, column * ORDER : (column + 1) * ORDER]
                part.flags.writeable = False
                taken[id(array)] = part
            rows[metric] = taken[id(array)]
        systems.append(SystemStatistics(system.system, MappingProxyType(rows)))
    # The whole set's notes (its segments with fewer references) are the analysis's to say,
    # not each group's.
    return replace(statistics, systems=tuple(systems), notes=())


def group_corpus(corpus: Corpus, segments: IntArray) -> Corpus:
    """The corpus of only ``segments``: what a run on the group alone would load."""
    picked = [int(i) for i in segments]
    test_set = corpus.test_set

    def column(texts: TextColumn) -> TextColumn:
        return replace(texts, texts=tuple(texts.texts[i] for i in picked))

    own = TestSet(
        doc_ids=tuple(test_set.doc_ids[i] for i in picked),
        seg_ids=tuple(test_set.seg_ids[i] for i in picked),
        references=tuple(column(ref) for ref in test_set.references),
        source=None if test_set.source is None else column(test_set.source),
        has_documents=test_set.has_documents,
        metadata=test_set.metadata,
        doc_attributes=test_set.doc_attributes,
    )
    systems = tuple(
        replace(s, hypotheses=tuple(s.hypotheses[i] for i in picked)) for s in corpus.systems
    )
    scores = tuple(_scores_of(s, segments) for s in corpus.scores)
    return Corpus(own, systems, scores, corpus.notes)


def _scores_of(scores: SegmentScores, segments: IntArray) -> SegmentScores:
    return replace(
        scores, means=scores.means[segments].copy(), counts=scores.counts[segments].copy()
    )


def _size(statistics: Statistics) -> int:
    """N, the segments the statistics have rows for."""
    first = statistics.systems[0]
    return int(next(iter(first.rows.values())).shape[0])


def joined_family(
    statistics: Statistics, result: BootstrapResult, breakdowns: Sequence[Breakdown]
) -> tuple[BootstrapResult, tuple[Breakdown, ...]]:
    """Under ``--family all`` with a correction: every metric's pairs on the whole test set and
    in every bootstrapped group of every breakdown decided as one family, so that the family's
    error is controlled over all the verdicts shown. Without a correction or with the family of
    each metric, everything is returned as it is.

    Each run's resampled deltas are rebuilt from its resample scores (the deltas it decided
    on). The whole test set's and the groups' resamples are drawn apart, so max-T's maximum is
    taken over them as if they were independent: groups are disjoint, so that is how they are,
    and between the whole set and a group (positively related) it only makes max-T a little
    stricter, never liberal. Holm and Benjamini-Hochberg hold under any dependence.
    """
    settings = result.settings
    groups = [g for b in breakdowns for g in b.groups if g.bootstrap is not None]
    if settings.correction is Correction.NONE or settings.family is not Family.ALL or not groups:
        return result, tuple(breakdowns)
    runs = [result, *(g.bootstrap for g in groups if g.bootstrap is not None)]
    if (
        len({run.settings.resamples for run in runs}) > 1
        or settings.test is not DecidingTest.BOOTSTRAP
    ):  # the t-test and Wilcoxon decide on their own p-values, per run: not joined, and said
        note = (
            f"The breakdowns' groups were not joined into one family with the whole test set: "
            f"--test {settings.test.value} decides each run's grid on its own."
        )
        return replace(result, notes=(*result.notes, note)), tuple(breakdowns)
    better = {m.name: m.higher_is_better for m in statistics.metrics}
    firsts = [run.pairs[: len(run.pairs) // 2] for run in runs]  # the unordered pairs
    pairs = [_undecided(p) for first in firsts for p in first]
    deltas = np.vstack([_deltas(run, first) for run, first in zip(runs, firsts, strict=True)])
    units = [run.units for run, first in zip(runs, firsts, strict=True) for _ in first]
    family = FamilyInput(
        pairs, deltas, [better[p.metric] for p in pairs], [settings.margin(p.metric) for p in pairs]
    )
    decided = decide_family(family, settings.correction, settings.level, units)
    remade, start = [], 0
    note = (
        f"One family under {settings.correction.label}: the {counted(len(decided), 'pair')} of "
        f"every metric on the whole test set and in {counted(len(groups), 'group')} of the "
        "breakdowns together "
        "(--family all)."
    )
    sizes = (len(result.systems), len(result.metrics))
    alone, joined = settings.raise_note(*sizes), settings.raise_note(*sizes, _groups(breakdowns))
    for run, first in zip(runs, firsts, strict=True):
        if alone != joined:  # B was raised for the joined family: say so in its words
            run = replace(run, notes=tuple(joined[0] if n in alone else n for n in run.notes))
        remade.append(
            with_pairs(run, decided[start : start + len(first)], better, note, len(decided))
        )
        start += len(first)
    joined_groups = dict(zip((id(g) for g in groups), remade[1:], strict=True))
    new_breakdowns = tuple(
        replace(
            b,
            groups=tuple(
                replace(g, bootstrap=joined_groups[id(g)], notes=joined_groups[id(g)].notes)
                if id(g) in joined_groups
                else g
                for g in b.groups
            ),
        )
        for b in breakdowns
    )
    return remade[0], new_breakdowns


def _undecided(pair: PairComparison) -> PairComparison:
    """The pair as it was before its correction: its own interval back in place."""
    if pair.ci_low_uncorrected is None or pair.ci_high_uncorrected is None:
        return pair
    return replace(pair, ci_low=pair.ci_low_uncorrected, ci_high=pair.ci_high_uncorrected)


def _deltas(run: BootstrapResult, pairs: Sequence[PairComparison]) -> FloatArray:
    """The run's resampled deltas of ``pairs``, one row each."""
    if not pairs:
        return np.empty((0, run.settings.resamples))
    return np.array(
        [run.interval(p.x, p.metric).samples - run.interval(p.y, p.metric).samples for p in pairs]
    )


def _groups(breakdowns: Sequence[Breakdown]) -> int:
    """How many groups the breakdowns have in all (as ``mtgui eval`` raises B for them)."""
    return sum(len(b.groups) for b in breakdowns)
