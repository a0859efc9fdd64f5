"""Per-segment statistics of every system and metric, extracted once (Zhang & Vogel 3.3).

``iter_statistics`` is the long-running form: a generator that yields a progress snapshot after
each system and returns the finished :class:`Statistics`, so a worker thread can report
progress and stop between systems. The slow metrics (chrF and TER, computed by sacreBLEU) also
yield between chunks of segments that take a few hundredths of a second each, so that a cancel
(closing the generator) takes effect promptly even in the middle of a system.
``compute_statistics`` runs it to the end.
"""

from __future__ import annotations

import math
import time
from collections.abc import Generator, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TYPE_CHECKING

import numpy as np

from mtgui.engine.core.arrays import FloatArray
from mtgui.engine.core.corpus import Corpus, SystemOutput
from mtgui.engine.core.errors import InputError
from mtgui.engine.core.running import run_to_end
from mtgui.engine.metrics import DEFAULT_METRICS, REGISTRY, Metric, metrics_for
from mtgui.engine.metrics.extraction import ExtractionContext
from mtgui.engine.metrics.missing_refs import (
    check_every_segment_has_a_reference,
    fewer_references_note,
)
from mtgui.engine.metrics.segment_limits import check_segment_sizes
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.runtime.heap import TRIM_FROM, give_back_freed_memory
from mtgui.engine.statistics.system_helper import SystemHelper, can_fork

if TYPE_CHECKING:  # the cache's module is loaded only where one is kept (the window)
    from mtgui.engine.statistics.cache import RowsKey, StatisticsCache

# Segments of systems left to extract from which a forked helper takes some of them (on the
# command line): on the benchmark set (27,000) it saves about a tenth of the run.
_HELPER_FROM = 10_000


@dataclass(frozen=True)
class SystemStatistics:
    """The statistics rows of one system, per metric name: arrays of shape (N, k)."""

    system: str
    rows: Mapping[str, FloatArray]


@dataclass(frozen=True)
class Statistics:
    """Everything needed to score any subset or resample of the test set, for every system.

    The rows' totals and segment scores are kept once computed (read-only): the views ask for
    them again and again, and on 100,000 segments a system's totals take 2 ms and its sentence
    BLEU 20 ms. The run that makes the statistics computes them on its worker thread (the
    bootstrap's full-set scores, :func:`prepare_segment_scores`), so that the GUI thread only
    reads them. What is kept is never shared with statistics made by ``replace`` (a subset's
    rows differ), only with :meth:`with_metrics`'.
    """

    settings: MetricSettings
    metrics: tuple[Metric, ...]
    systems: tuple[SystemStatistics, ...]
    notes: tuple[str, ...] = ()  # what the user should know of how the rows were made
    _kept: dict[tuple[str, str, str], FloatArray] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    @property
    def system_names(self) -> tuple[str, ...]:
        """The systems, in load order."""
        return tuple(s.system for s in self.systems)

    def metric(self, name: str) -> Metric:
        """The metric called ``name``."""
        return next(m for m in self.metrics if m.name == name)

    def rows(self, system: str, metric: str) -> FloatArray:
        """The per-segment rows of one system and metric."""
        return next(s for s in self.systems if s.system == system).rows[metric]

    def totals(self, system: str, metric: str) -> FloatArray:
        """The rows summed over the whole test set (kept, read-only)."""
        key = ("totals", system, metric)
        if key not in self._kept:
            self._kept[key] = _frozen(self.rows(system, metric).sum(axis=0))
        return self._kept[key]

    def score(self, system: str, metric: str) -> float:
        """The corpus score of one system on the whole test set."""
        return self.metric(metric).score_one(self.totals(system, metric))

    def segment_scores(self, system: str, metric: str) -> FloatArray:
        """One score per segment, for display and export (kept, read-only)."""
        scorer = self.metric(metric)
        key = ("segments", system, scorer.signature())  # BLEU on 0-100 is another signature
        if key not in self._kept:
            self._kept[key] = _frozen(scorer.segment_scores(self.rows(system, metric)))
        return self._kept[key]

    def with_metrics(self, metrics: tuple[Metric, ...]) -> Statistics:
        """The same rows scored by ``metrics`` (BLEU on another scale, say), sharing what is
        kept: the totals, and the segment scores of the metrics that score as before."""
        other = replace(self, metrics=metrics)
        object.__setattr__(other, "_kept", self._kept)  # the same rows: the same totals
        return other

    def ranked_systems(self, metric: str) -> list[str]:
        """The systems, best first under ``metric`` by their full-set score (those without a
        score last), as the views offer them."""
        scores = {name: self.score(name, metric) for name in self.system_names}
        sign = 1.0 if self.metric(metric).higher_is_better else -1.0
        return sorted(
            scores, key=lambda s: math.inf if math.isnan(scores[s]) else -sign * scores[s]
        )

    def signature(self) -> str:
        """The settings and metrics that produced these numbers."""
        metrics = ",".join(m.signature() for m in self.metrics)
        return f"{self.settings.signature}|metrics:{metrics}"


@dataclass(frozen=True)
class StatisticsProgress:
    """Where an extraction is: systems done out of all, and the one just finished.

    Inside a slow metric a snapshot comes after each chunk of segments: then ``system`` is the
    system being extracted (not yet counted in ``done``), ``metric`` the metric, and
    ``segments`` how many of the ``size`` segments it has done.
    """

    done: int
    total: int
    system: str
    metric: str = ""
    segments: int = 0
    size: int = 0

    @property
    def fraction(self) -> float:
        """How much of the extraction is done, from 0 to 1 (inside a system, by the segments
        the slow metric has done)."""
        within = self.segments / self.size if self.size else 0.0
        return (self.done + within) / self.total if self.total else 1.0


def iter_statistics(
    corpus: Corpus,
    metric_names: Sequence[str] = DEFAULT_METRICS,
    settings: MetricSettings | None = None,
    context: ExtractionContext | None = None,
    cache: StatisticsCache | None = None,
    fork: bool = False,
) -> Generator[StatisticsProgress, None, Statistics]:
    """Extract statistics system by system, yielding progress after each.

    Pass a ``context`` from an earlier run on the same test set and settings to reuse its
    reference caches. Pass a ``cache`` (the window keeps one) to take from it the rows it
    holds and extract only the others, which it then keeps: the rows are the same arrays, so
    the statistics are exactly those of an extraction from scratch.

    ``metric_names`` may name the corpus's external metrics (its loaded scores, see
    :meth:`Corpus.external_metrics`) beside the registry's.

    ``fork=True`` lets a forked helper extract the last systems meanwhile
    (:mod:`~mtgui.engine.statistics.system_helper`): only for a process that may fork, the command
    line.

    Raises
    ------
    InputError
        If ``human`` is asked for but no per-segment scores are loaded, or a name is neither a
        metric nor loaded scores.
    """
    settings = settings or MetricSettings()
    external = corpus.external_metrics()
    if "human" in metric_names and "human" not in external:
        raise InputError(
            "the human metric needs per-segment scores, and none are loaded.",
            hint="Load a scores file (--scores), or leave 'human' out of the metrics.",
        )
    unknown = [name for name in metric_names if name not in external and name not in REGISTRY]
    if unknown:
        raise InputError(
            f"no scores named '{unknown[0]}' are loaded, and it is not a metric mtgui computes.",
            hint="Load them with --scores FILE:COLUMN=NAME, or leave the name out of the metrics.",
        )
    if context is None or context.test_set is not corpus.test_set or context.settings != settings:
        context = ExtractionContext(corpus.test_set, settings, corpus.scores)
    metrics = metrics_for(corpus.test_set, metric_names, settings, external)
    check_segment_sizes(corpus, [metric.name for metric in metrics])  # before any memory is used
    notes = [] if context.restricted else _reference_notes(corpus, metrics, settings)
    keys = _begin(cache, corpus, metrics, settings)
    # Large test sets: tokenize on the other core meanwhile, only what is still to extract.
    context.prefetch(_to_extract(cache, corpus.systems, keys))
    systems = []
    total, size = len(corpus.systems), corpus.test_set.size
    helper: SystemHelper | None = None
    own_seconds = 0.0  # the longest extraction of a system here: how long to wait for the helper
    try:
        if fork and _helper_pays(cache, context, total):
            helper = _start_helper(context, metrics, corpus.systems)
        for done, system in enumerate(corpus.systems):
            started = time.monotonic()
            rows = _kept_rows(cache, keys[done], context, system)
            if helper is not None:
                helper.reached(done)
                rows.update(helper.rows(done, patience=2 * own_seconds + 0.2) or {})
            for metric in metrics:
                if metric.name in rows:
                    continue
                progress = StatisticsProgress(done, total, system.name, metric.name, 0, size)
                rows[metric.name] = yield from _iter_rows(context, metric, system, progress)
                key = keys[done][metric.name]
                if cache is not None and key is not None:
                    cache.put(key, rows[metric.name])
            rows = {metric.name: _read_only(rows[metric.name]) for metric in metrics}
            systems.append(SystemStatistics(system.name, MappingProxyType(rows)))
            context.forget(system)
            if size >= TRIM_FROM:
                give_back_freed_memory()  # its tokens and matches (see mtgui.engine.runtime.heap)
            own_seconds = max(own_seconds, time.monotonic() - started)
            yield StatisticsProgress(done + 1, total, system.name)
        if helper is not None:
            helper.close(wait=False)  # all its systems are here: its end is not waited for
    finally:
        if helper is not None:
            helper.close()
    return Statistics(settings, metrics, tuple(systems), tuple(notes))


def _reference_notes(
    corpus: Corpus, metrics: Sequence[Metric], settings: MetricSettings
) -> list[str]:
    """Refuse a segment without any reference, and note the segments with fewer references,
    where a metric reads the references (:mod:`~mtgui.engine.metrics.missing_refs`). A
    context with some of the references (the references study) checks nothing: the study
    checks the whole set, and a subset may leave a segment none (its empty lines then count)."""
    if not any("empty_refs" in (metric.reads or ()) for metric in metrics):
        return []
    check_every_segment_has_a_reference(corpus.test_set, settings.empty_refs)
    return fewer_references_note(corpus.test_set, settings.empty_refs)


def _helper_pays(cache: StatisticsCache | None, context: ExtractionContext, total: int) -> bool:
    """Whether to fork a helper before the first system: with enough work for two besides the
    first system (a fork costs milliseconds), nothing taken from a cache, and no worker
    processes tokenizing ahead (a large test set, whose workers' pool a fork must not share)."""
    left = context.test_set.size * (total - 1)
    return (
        cache is None
        and total >= 3
        and left >= _HELPER_FROM
        and not context.prefetching
        and can_fork()
    )


def _start_helper(
    context: ExtractionContext, metrics: Sequence[Metric], systems: Sequence[SystemOutput]
) -> SystemHelper | None:
    """Prepare every metric's side of the references here, then fork a helper that shares it
    and extracts the systems after the first, the last one first, while this process extracts
    from the first on.

    Forked before the first system, not after it: the other core is then busy from the start
    (on the standing benchmark the run took 10-29 ms less in four sets of 10-12 alternating
    runs).
    """
    for metric in metrics:
        metric.prepare(context)

    def extract(index: int) -> dict[str, FloatArray]:
        rows = {metric.name: context.rows(metric, systems[index]) for metric in metrics}
        context.forget(systems[index])
        return rows

    return SystemHelper.start(extract, range(len(systems) - 1, 0, -1))


def _begin(
    cache: StatisticsCache | None,
    corpus: Corpus,
    metrics: Sequence[Metric],
    settings: MetricSettings,
) -> list[dict[str, RowsKey | None]]:
    """The cache keys of every system's rows (none without a cache), which the cache then
    keeps for this run whatever its budget."""
    if cache is None:
        return [dict.fromkeys(m.name for m in metrics) for _ in corpus.systems]
    from mtgui.engine.statistics.cache import corpus_keys  # only the window keeps a cache

    keys = corpus_keys(corpus, metrics, settings)
    cache.begin([key for by_metric in keys for key in by_metric.values() if key is not None])
    return keys


def _to_extract(
    cache: StatisticsCache | None,
    systems: Sequence[SystemOutput],
    keys: Sequence[Mapping[str, RowsKey | None]],
) -> list[SystemOutput]:
    """The systems with rows still to extract: a rerun whose rows are all kept (a new seed)
    must not tokenize anything ahead on the other core."""
    return [
        system
        for system, by_metric in zip(systems, keys, strict=True)
        if cache is None or any(key is None or not cache.holds(key) for key in by_metric.values())
    ]


def _kept_rows(
    cache: StatisticsCache | None,
    keys: Mapping[str, RowsKey | None],
    context: ExtractionContext,
    system: SystemOutput,
) -> dict[str, FloatArray]:
    """The rows of ``system`` the cache holds, by metric name; the context takes them too, so
    that a metric sharing another's rows (M-BLEU, BLEU's) does not extract them again."""
    kept = {}
    for name, key in keys.items():
        rows = cache.get(key) if cache is not None and key is not None else None
        if rows is not None:
            kept[name] = rows
            context.remember(name, system, rows)
    return kept


def _iter_rows(
    context: ExtractionContext, metric: Metric, system: SystemOutput, progress: StatisticsProgress
) -> Generator[StatisticsProgress, None, FloatArray]:
    """One metric's rows of one system, read-only; a slow metric yields ``progress`` with the
    segments done after each chunk."""
    with closing(context.iter_rows(metric, system)) as extraction:
        while True:
            try:
                segments = next(extraction)
            except StopIteration as finished:
                return _read_only(finished.value)
            yield replace(progress, segments=segments)


def prepare_segment_scores(statistics: Statistics) -> Generator[None, None, None]:
    """Compute every system's segment scores under every metric now, so that they are kept
    (:meth:`Statistics.segment_scores`); yields after each system (a place to cancel).

    The window does this on its worker thread once a run ends: the Segments view then opens on
    any pair without scoring 100,000 segments on the GUI thread.
    """
    for name in statistics.system_names:
        for metric in statistics.metrics:
            statistics.segment_scores(name, metric.name)
        yield


def compute_statistics(
    corpus: Corpus,
    metric_names: Sequence[str] = DEFAULT_METRICS,
    settings: MetricSettings | None = None,
) -> Statistics:
    """Run :func:`iter_statistics` to the end."""
    return run_to_end(iter_statistics(corpus, metric_names, settings))


def _read_only(array: FloatArray) -> FloatArray:
    """The array, made immutable: results cross threads and must not change."""
    array = np.ascontiguousarray(array, dtype=np.float64)
    array.flags.writeable = False
    return array


def _frozen(array: FloatArray) -> FloatArray:
    """A read-only copy of ``array``: kept and handed to every caller, and never an array
    that someone else owns and may change."""
    frozen = np.array(array)
    frozen.flags.writeable = False
    return frozen
