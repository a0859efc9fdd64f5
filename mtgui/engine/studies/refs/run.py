"""Running the number-of-references study: one reference subset after the other.

See :mod:`mtgui.engine.studies.refs.study` for what is computed. Per subset: the statistics
are extracted against it through a restricted extraction context (tokens reused), bootstrapped
(Table 3) and, for Table 4, put through the size study; the tables average the subsets of each
size as they come in.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from contextlib import closing
from dataclasses import replace

import numpy as np

from mtgui.engine.core.arrays import FloatArray
from mtgui.engine.core.corpus import Corpus
from mtgui.engine.core.errors import InputError
from mtgui.engine.metrics.bleu.bleu import Bleu
from mtgui.engine.metrics.bleu.mbleu import MBleu
from mtgui.engine.metrics.bleu.nist import Nist
from mtgui.engine.metrics.extraction import ExtractionContext
from mtgui.engine.metrics.missing_refs import check_every_segment_has_a_reference
from mtgui.engine.metrics.registry import REGISTRY
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.resampling.draws import iter_resample_scores, stack_units, unit_index
from mtgui.engine.scale import scaled_statistics
from mtgui.engine.statistics.rows import Statistics, iter_statistics
from mtgui.engine.studies.blas_threads import one_blas_thread
from mtgui.engine.studies.common import (
    StudyProgress,
    percentile_bounds,
    relative_bounds,
    relay,
    study_signature,
)
from mtgui.engine.studies.refs.matches import ReferenceMatches, iter_reference_matches
from mtgui.engine.studies.refs.study import (
    RefsRow,
    RefsSettings,
    RefsSizeRow,
    RefsStudy,
    reference_subsets,
    study_notes,
)
from mtgui.engine.studies.size.run import iter_size_studies
from mtgui.engine.studies.size.study import SizeStudy
from mtgui.engine.studies.subset_nist import NistInputs, SubsetNist, iter_subset_nist

SizeKey = tuple[float, str, str]  # a row of Table 4: fraction, system, metric
_BUDGET = 256 * 2**20  # bytes of statistics Table 4 holds at once
MATCHED = frozenset({Bleu.name, MBleu.name, Nist.name})  # the metrics that use the matches


def iter_refs_study(
    corpus: Corpus,
    metric_names: Sequence[str],
    metric_settings: MetricSettings | None = None,
    settings: RefsSettings | None = None,
    context: ExtractionContext | None = None,
) -> Generator[StudyProgress[RefsStudy], None, RefsStudy]:
    """Run the number-of-references study (see :mod:`mtgui.engine.studies.refs.study`).

    Pass the ``context`` of an earlier extraction of this corpus with the same settings to
    reuse its tokens. ``done`` counts steps: one per system matched against all references
    (when BLEU, M-BLEU or NIST is studied); per reference subset, one per system extracted and
    one for its bootstrap; then one per test set of Table 4, which bootstraps that test set
    for every reference subset at once (several times over, for groups of the subsets, on test
    sets too large to hold all their statistics at once). The longest steps build a subset's
    reference n-gram index (about 0.1 s for 4 references of 3,000 segments).
    """
    metric_settings = metric_settings or MetricSettings()
    settings = settings or RefsSettings()
    test_set = corpus.test_set
    bootstrap, unit_notes = settings.bootstrap.resolved(test_set.document_index_if_any())
    settings = replace(settings, bootstrap=bootstrap)
    if not corpus.systems:
        raise InputError("there is no system output to study.", hint="Load a system output.")
    if context is None or context.test_set is not test_set or context.settings != metric_settings:
        context = ExtractionContext(test_set, metric_settings, corpus.scores)
    subsets = reference_subsets(test_set.num_references, settings.max_subsets, bootstrap.seed)
    run = _RefsRun(corpus, tuple(metric_names), settings, context, subsets)
    check_every_segment_has_a_reference(test_set, metric_settings.empty_refs)
    notes = study_notes(corpus, settings, len(subsets), metric_settings.empty_refs)
    run.notes = [*unit_notes, *notes]
    with one_blas_thread():  # small products, and helper threads on the second core
        return (yield from run.iter_subsets())


def _group_size(corpus: Corpus, metrics: int, subsets: int) -> int:
    """How many reference subsets Table 4 bootstraps at once: all of them, unless their
    statistics (about 16 columns per system and metric) would take over :data:`_BUDGET`."""
    per_subset = corpus.test_set.size * len(corpus.systems) * max(metrics, 1) * 16 * 8
    return int(np.clip(_BUDGET // max(per_subset, 1), 1, max(subsets, 1)))


class _RefsRun:
    """The state of one references study: the figures of every reference subset done so far."""

    def __init__(
        self,
        corpus: Corpus,
        metrics: tuple[str, ...],
        settings: RefsSettings,
        context: ExtractionContext,
        subsets: Sequence[tuple[int, ...]],
    ) -> None:
        self.corpus, self.metrics, self.settings = corpus, metrics, settings
        self.context, self.subsets = context, subsets
        signatures = ",".join(_metric_signature(corpus, name, context.settings) for name in metrics)
        scoring = f"{context.settings.signature}|metrics:{signatures}"
        self.signature = study_signature(scoring, settings.signature())
        self.documents = corpus.test_set.document_index_if_any()
        self.keys = [(s, m) for s in corpus.system_names for m in metrics]  # systems outermost
        self.scored: list[tuple[int, ...]] = []
        self.values: list[FloatArray] = []  # per subset: score, median, bounds, relative bounds
        self.size_keys: tuple[SizeKey, ...] = ()
        self.size_values: dict[int, FloatArray] = {}  # per subset: score, relative bounds
        self.notes: list[str] = []
        self.derived = bool(MATCHED & set(metrics)) and corpus.test_set.num_references > 1
        self.group = _group_size(corpus, len(metrics), len(subsets))
        self.table4_steps = settings.repeats * len(settings.fractions) if settings.repeats else 0
        groups = -(-len(subsets) // self.group)
        systems = len(corpus.systems)
        self.total = systems * self.derived + (systems + 1) * len(subsets)
        self.total += self.table4_steps * groups
        self.done = 0
        self.nist: SubsetNist | None = None  # Table 4 scores NIST with each subset's weights

    def progress(self) -> StudyProgress[RefsStudy]:
        """A snapshot of the study now."""
        return StudyProgress(self.done, self.total, "references", self.result())

    def iter_subsets(self) -> Generator[StudyProgress[RefsStudy], None, RefsStudy]:
        """Every reference subset: its statistics and bootstrap (Table 3), and in groups the
        size study of each (Table 4)."""
        matches = yield from self._iter_matches()
        waiting: list[tuple[int, Statistics]] = []  # subsets extracted, waiting for Table 4
        for k, chosen in enumerate(self.subsets):
            statistics = yield from self._iter_statistics(chosen, matches)
            yield from self.bootstrap(statistics, chosen, self.progress())
            self.done += 1
            if self.settings.repeats:
                waiting.append((k, statistics))
            if waiting and (len(waiting) == self.group or k == len(self.subsets) - 1):
                yield from self._iter_table4(waiting)
                waiting = []
            yield self.progress()
        return self.result()

    def _iter_matches(
        self,
    ) -> Generator[StudyProgress[RefsStudy], None, ReferenceMatches | None]:
        """The systems' matches against all references, to derive each subset's from, when
        a metric uses them (one reference: nothing to derive)."""
        if not self.derived:
            return None
        matches = yield from relay(iter_reference_matches(self.context), self.progress())
        for system in self.corpus.systems:
            matches.add(system)
            self.done += 1
            yield self.progress()
        return matches

    def _iter_statistics(
        self, chosen: tuple[int, ...], matches: ReferenceMatches | None
    ) -> Generator[StudyProgress[RefsStudy], None, Statistics]:
        """The statistics against the references ``chosen``, through a restricted context
        given the matches derived for them."""
        child = self.context.with_references(chosen)
        if matches is not None:
            for system in self.corpus.systems:
                child.remember_matches(system, matches.matches(system.name, chosen))
        subset = replace(self.corpus, test_set=child.test_set)
        extraction = iter_statistics(subset, self.metrics, child.settings, child)
        statistics = yield from relay(extraction, self.progress(), counted=True)
        self.done += len(self.corpus.systems)
        if self.settings.bleu_scale == 100:  # read as the analysis shown reads them
            statistics = scaled_statistics(statistics)
        return statistics

    def _iter_table4(
        self, subsets: Sequence[tuple[int, Statistics]]
    ) -> Generator[StudyProgress[RefsStudy], None, None]:
        """The size study of each of the reference ``subsets`` (their positions and
        statistics), all at once: Table 4. Its figures are updated as the size study's."""
        if self.nist is None and Nist.name in self.metrics:
            inputs = NistInputs(self.context, self.corpus.systems)
            names = self.corpus.system_names
            matching = iter_subset_nist(inputs, names, False, self.subsets)
            self.nist = yield from relay(matching, self.progress())
        positions = [k for k, _ in subsets]
        table = None if self.nist is None else self.nist.restricted(positions)
        size_settings = self.settings.size_settings()
        statistics = [s for _, s in subsets]
        sizes = iter_size_studies(statistics, size_settings, self.documents, table)
        start, partial, snapshot = self.done, None, self.progress()
        with closing(sizes):  # a cancel (closing the study) closes the size study too
            while True:
                try:
                    step = next(sizes)
                except StopIteration as finished:
                    self._add_sizes(positions, finished.value)
                    break
                self.done = start + step.done
                if step.partial is not partial and step.partial:  # after each repetition
                    partial = step.partial
                    self._add_sizes(positions, partial)
                    snapshot = self.progress()
                yield replace(snapshot, done=self.done)
        self.done = start + self.table4_steps

    def bootstrap(
        self,
        statistics: Statistics,
        chosen: tuple[int, ...],
        progress: StudyProgress[RefsStudy],
    ) -> Generator[StudyProgress[RefsStudy], None, None]:
        """Bootstrap the statistics of one reference subset (Table 3), with the study's seed."""
        bootstrap = self.settings.bootstrap
        layout = stack_units(statistics, unit_index(statistics, self.documents, bootstrap.unit))
        scores = yield from relay(iter_resample_scores(statistics, layout, bootstrap), progress)
        samples = np.stack([scores[key] for key in self.keys])
        low, median, high = percentile_bounds(samples, bootstrap.level)
        full = [statistics.score(system, metric) for system, metric in self.keys]
        self.values.append(np.array([full, median, low, high, *relative_bounds(low, median, high)]))
        self.scored.append(chosen)

    def _add_sizes(self, positions: Sequence[int], studies: Sequence[SizeStudy]) -> None:
        """The size studies (so far) of the reference subsets at ``positions``."""
        for position, study in zip(positions, studies, strict=True):
            if not study.repeats_done:
                continue
            self.size_keys = tuple((r.fraction, r.system, r.metric) for r in study.rows)
            rows = [[r.score, r.rel_ci_low, r.rel_ci_high] for r in study.rows]
            self.size_values[position] = np.array(rows)

    def result(self) -> RefsStudy:
        """The study over the reference subsets done so far."""
        names = tuple(ref.name for ref in self.corpus.test_set.references)
        return RefsStudy(
            self.settings,
            self.signature,
            self.corpus.system_names,
            self.metrics,
            names,
            tuple(tuple(names[i] for i in chosen) for chosen in self.scored),
            self._table3(),
            self._table4(),
            tuple(self.notes),
        )

    def _groups(self) -> dict[int, list[int]]:
        """For each number of references, the positions of its subsets done so far."""
        groups: dict[int, list[int]] = {}
        for position, chosen in enumerate(self.scored):
            groups.setdefault(len(chosen), []).append(position)
        return groups

    def _table3(self) -> tuple[RefsRow, ...]:
        """Per number of references, metric and system: the mean over its subsets."""
        rows = []
        metrics = len(self.metrics)
        for r, positions in self._groups().items():
            values = np.stack([self.values[p] for p in positions])  # (subsets, 6, keys)
            mean = _mean(values)
            low, high = np.fmin.reduce(values[:, 0], axis=0), np.fmax.reduce(values[:, 0], axis=0)
            for i in (i for m in range(metrics) for i in range(m, len(self.keys), metrics)):
                system, metric = self.keys[i]
                rest = (float(v) for v in mean[1:, i])
                score = (float(mean[0, i]), float(low[i]), float(high[i]))
                rows.append(RefsRow(r, system, metric, len(positions), *score, *rest))
        return tuple(rows)

    def _table4(self) -> tuple[RefsSizeRow, ...]:
        """Per number of references and row of the size study: the mean over its subsets."""
        rows = []
        for r, positions in self._groups().items():
            if any(p not in self.size_values for p in positions):
                continue  # a subset's size study has no repetition done yet
            mean = _mean(np.stack([self.size_values[p] for p in positions]))
            for (fraction, system, metric), values in zip(self.size_keys, mean, strict=True):
                figures = (float(v) for v in values)
                rows.append(RefsSizeRow(r, fraction, system, metric, len(positions), *figures))
        return tuple(rows)


def _mean(values: FloatArray) -> FloatArray:
    """The mean over the first axis of the defined values (NaN where there are none)."""
    valid = ~np.isnan(values)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(valid, values, 0.0).sum(axis=0) / valid.sum(axis=0)


def _metric_signature(corpus: Corpus, name: str, settings: MetricSettings) -> str:
    """A metric's part of the study's signature: its options (BLEU's smoothing, chrF's and
    TER's options), as the evaluation's signature has them; NIST, whose reference count
    changes with each subset, and loaded scores by their names."""
    entry = REGISTRY.get(name)
    if entry is None or name == Nist.name:
        return name
    return entry.factory(corpus.test_set, settings).signature()
