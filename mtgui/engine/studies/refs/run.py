"""Running the number-of-references study: one reference subset after the other.

See :mod:`mtgui.engine.studies.refs.study` for what is computed. Per subset: the statistics
are extracted against it through a restricted extraction context (tokens reused), bootstrapped
(Table 3) and, for Table 4, put through the size study; the tables average the subsets of each
size as they come in.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import replace

import numpy as np

from mtgui.engine.corpus import Corpus
from mtgui.engine.errors import InputError
from mtgui.engine.extraction import ExtractionContext
from mtgui.engine.metrics.base import FloatArray
from mtgui.engine.metrics.nist import Nist
from mtgui.engine.resampling import iter_resample_scores, stack_units, unit_index
from mtgui.engine.scale import scaled_statistics
from mtgui.engine.settings import MetricSettings
from mtgui.engine.statistics import Statistics, iter_statistics
from mtgui.engine.studies.common import (
    StudyProgress,
    percentile_bounds,
    relative_bounds,
    relay,
    study_signature,
)
from mtgui.engine.studies.refs.study import (
    RefsRow,
    RefsSettings,
    RefsSizeRow,
    RefsStudy,
    reference_subsets,
    study_notes,
)
from mtgui.engine.studies.size.run import iter_size_study
from mtgui.engine.studies.size.study import SizeStudy
from mtgui.engine.studies.subset_nist import NistInputs, SubsetNist, iter_subset_nist

SizeKey = tuple[float, str, str]  # a row of Table 4: fraction, system, metric


def iter_refs_study(
    corpus: Corpus,
    metric_names: Sequence[str],
    metric_settings: MetricSettings | None = None,
    settings: RefsSettings | None = None,
    context: ExtractionContext | None = None,
) -> Generator[StudyProgress[RefsStudy], None, RefsStudy]:
    """Run the number-of-references study (see :mod:`mtgui.engine.studies.refs.study`).

    Pass the ``context`` of an earlier extraction of this corpus with the same settings to
    reuse its tokens. ``done`` counts steps: per reference subset, one per system extracted,
    one for the bootstrap and one per test set of Table 4. The longest step is the first
    system of a subset, which builds the subset's reference n-gram index (about 0.2 s for 4
    references of 3,000 segments).
    """
    metric_settings = metric_settings or MetricSettings()
    settings = settings or RefsSettings()
    test_set = corpus.test_set
    documents = test_set.document_index_if_any()
    bootstrap, unit_notes = settings.bootstrap.resolved(documents)
    settings = replace(settings, bootstrap=bootstrap)
    if not corpus.systems:
        raise InputError("there is no system output to study.", hint="Load a system output.")
    if context is None or context.test_set is not test_set or context.settings != metric_settings:
        context = ExtractionContext(test_set, metric_settings, corpus.scores)
    count, seed = test_set.num_references, settings.bootstrap.seed
    run = _RefsRun(corpus, tuple(metric_names), metric_settings, settings)
    subsets = reference_subsets(count, settings.max_subsets, seed)
    run.notes = [*unit_notes, *study_notes(corpus, settings, len(subsets))]
    steps = len(corpus.systems) + 1 + settings.repeats * len(settings.fractions)
    for k, chosen in enumerate(subsets):
        progress = StudyProgress(k * steps, steps * len(subsets), "references", run.result())
        child = context.with_references(chosen)
        subset = replace(corpus, test_set=child.test_set)
        nist: SubsetNist | None = None  # Table 4 scores NIST with each size subset's weights
        if settings.repeats and Nist.name in metric_names:
            # Matched before the extraction, which then reuses the matches.
            inputs = NistInputs(child, corpus.systems)
            matching = iter_subset_nist(inputs, corpus.system_names, forget=False)
            nist = yield from relay(matching, progress)
        extraction = iter_statistics(subset, metric_names, metric_settings, child)
        statistics = yield from relay(extraction, progress, counted=True)
        if settings.bleu_scale == 100:  # read as the analysis shown reads them
            statistics = scaled_statistics(statistics)
        progress = replace(progress, done=progress.done + len(corpus.systems))
        yield from run.bootstrap(statistics, chosen, progress)
        if settings.repeats:
            progress = replace(progress, done=progress.done + 1)
            size = iter_size_study(statistics, settings.size_settings(), run.documents, nist)
            run.add_sizes((yield from relay(size, progress, counted=True)))
        yield StudyProgress((k + 1) * steps, progress.total, "references", run.result())
    return run.result()


class _RefsRun:
    """The state of one references study: the figures of every reference subset done so far."""

    def __init__(
        self,
        corpus: Corpus,
        metrics: tuple[str, ...],
        metric_settings: MetricSettings,
        settings: RefsSettings,
    ) -> None:
        self.corpus, self.metrics, self.settings = corpus, metrics, settings
        scoring = f"{metric_settings.signature}|metrics:{','.join(metrics)}"
        self.signature = study_signature(scoring, settings.signature())
        test_set = corpus.test_set
        self.documents = test_set.document_index_if_any()
        self.keys = [(s, m) for s in corpus.system_names for m in metrics]  # systems outermost
        self.scored: list[tuple[int, ...]] = []
        self.values: list[FloatArray] = []  # per subset: score, median, bounds, relative bounds
        self.size_keys: tuple[SizeKey, ...] = ()
        self.size_values: list[FloatArray] = []  # per subset: score and relative bounds per row
        self.notes: list[str] = []

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

    def add_sizes(self, study: SizeStudy) -> None:
        """The size study of the latest reference subset (Table 4)."""
        self.size_keys = tuple((r.fraction, r.system, r.metric) for r in study.rows)
        rows = [[r.score, r.rel_ci_low, r.rel_ci_high] for r in study.rows]
        self.size_values.append(np.array(rows))

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
            if positions[-1] >= len(self.size_values):
                continue  # the latest subset's size study is not done yet
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
