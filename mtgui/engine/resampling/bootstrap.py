"""The whole significance analysis of one set of statistics, as one generator.

``iter_bootstrap`` draws the bootstrap resamples (and, if asked, the randomization trials) in
chunks, yielding a :class:`~mtgui.engine.resampling.draws.BootstrapProgress` after each, and returns
a frozen :class:`BootstrapResult` with every interval, every pairwise comparison and every
ranking. It knows nothing of threads: stopping the generator is the cancel.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property, partial
from itertools import combinations

import numpy as np

from mtgui._version import __version__
from mtgui.engine.core.arrays import FloatArray, IntArray
from mtgui.engine.core.errors import InputError
from mtgui.engine.inference.choices import IntervalMethod
from mtgui.engine.inference.corrections import (
    Family,
    FamilyInput,
    decide_family,
    family_size,
    few_units_note,
)
from mtgui.engine.inference.intervals import ScoreInterval, summarize_samples
from mtgui.engine.inference.ranking import Ranking, rank
from mtgui.engine.inference.segment_tests import (
    SegmentComparison,
    apply_test,
    check_test,
    compare_segments,
)
from mtgui.engine.inference.significance import TIE, PairComparison, compare, compare_all_defined
from mtgui.engine.resampling.bca import bca_intervals, bca_pairs
from mtgui.engine.resampling.draws import (
    BootstrapProgress,
    CountDraws,
    UnitLayout,
    chunk_size,
    iter_resample_scores,
    stack_units,
    unit_index,
)
from mtgui.engine.resampling.settings import BootstrapSettings, Unit
from mtgui.engine.resampling.studentized import studentized_results
from mtgui.engine.statistics.rows import Statistics


@dataclass(frozen=True)
class BootstrapResult:
    """Intervals, comparisons and rankings of every system under every metric."""

    settings: BootstrapSettings
    signature: str
    systems: tuple[str, ...]
    metrics: tuple[str, ...]
    intervals: tuple[ScoreInterval, ...]
    pairs: tuple[PairComparison, ...]  # every ordered pair of distinct systems, per metric
    rankings: tuple[Ranking, ...]
    notes: tuple[str, ...] = ()
    unit_requested: Unit = Unit.AUTO  # settings.unit is the unit really resampled
    segment_comparisons: tuple[SegmentComparison, ...] = ()  # every ordered pair, per metric
    units: int = 0  # how many units (segments or documents) each resample drew
    joined: int = 0  # pairs of the family decided with the breakdowns' groups (0: not joined)

    def segment_comparison(self, metric: str, x: str, y: str) -> SegmentComparison | None:
        """x against y segment by segment (:mod:`~mtgui.engine.inference.segment_tests`), if
        computed."""
        return self._segments_by_key.get((metric, x, y))

    @cached_property
    def _segments_by_key(self) -> dict[tuple[str, str, str], SegmentComparison]:
        """Every segment comparison by (metric, x, y)."""
        return {(c.metric, c.x, c.y): c for c in self.segment_comparisons}

    def interval(self, system: str, metric: str) -> ScoreInterval:
        """The interval of one system under one metric."""
        return next(i for i in self.intervals if i.system == system and i.metric == metric)

    def pair(self, metric: str, x: str, y: str) -> PairComparison:
        """How x compares with y under a metric."""
        return self._pairs_by_key[(metric, x, y)]

    @cached_property
    def _pairs_by_key(self) -> dict[tuple[str, str, str], PairComparison]:
        """Every pair by (metric, x, y), the first of any repeated: a grid looks up each of its
        cells, and a scan of all pairs for each took 2-4 ms of a run on ten systems."""
        found: dict[tuple[str, str, str], PairComparison] = {}
        for p in self.pairs:
            found.setdefault((p.metric, p.x, p.y), p)
        return found

    def ranking(self, metric: str) -> Ranking:
        """The ranking under a metric."""
        return next(r for r in self.rankings if r.metric == metric)

    def grid(self, metric: str) -> tuple[list[str], list[list[str]]]:
        """Systems ordered by score (best first) and the matrix of verdicts, '' on the diagonal."""
        order = [entry.system for entry in self.ranking(metric).systems]
        matrix = [[self.pair(metric, x, y).verdict if x != y else "" for y in order] for x in order]
        return order, matrix


def iter_bootstrap(
    statistics: Statistics,
    settings: BootstrapSettings | None = None,
    document_index: IntArray | None = None,
    chunk: int | None = None,
    draws: CountDraws | None = None,
) -> Generator[BootstrapProgress, None, BootstrapResult]:
    """Run the analysis (see the module docstring).

    ``document_index`` (the test set's) is needed for resampling by document; the result's
    settings hold the unit really resampled (see
    :func:`~mtgui.engine.resampling.settings.resolve_unit`) and its notes say why when it differs
    from the one asked for. ``chunk`` fixes the resamples per chunk (finer progress); the results do
    not depend on it. ``draws`` are resample counts started early (see
    :func:`~mtgui.engine.analysis.start_draws`).
    """
    settings = settings or BootstrapSettings()
    if not statistics.systems:
        raise InputError("there is no system output to compare.", hint="Load a system output.")
    check_test(settings.test, statistics.metrics)  # before any resampling
    requested = settings.unit
    systems, metrics = len(statistics.system_names), len(statistics.metrics)
    settings = settings.enough_for(systems, metrics)
    settings, notes = settings.resolved(document_index)
    notes = [*statistics.notes, *settings.raise_note(systems, metrics), *notes]
    layout = stack_units(statistics, unit_index(statistics, document_index, settings.unit))
    scores = yield from iter_resample_scores(statistics, layout, settings, chunk, draws)
    full = {
        (s, m.name): statistics.score(s, m.name)
        for s in statistics.system_names
        for m in statistics.metrics
    }
    ratio = {m.name: m.ratio_scale for m in statistics.metrics}
    intervals = tuple(
        summarize_samples(
            system, metric, full[(system, metric)], samples, settings.level, ratio[metric]
        )
        for (system, metric), samples in scores.items()
    )
    pairs, deltas = _compare_all(statistics, full, scores, settings.level)
    intervals, pairs = _other_intervals(statistics, settings, layout, scores, intervals, pairs)
    if settings.ar_trials:
        p_ar = yield from _iter_randomization(statistics, layout, settings, full, chunk)
        pairs = [replace(p, p_value_ar=p_ar[(p.metric, p.x, p.y)]) for p in pairs]
    pairs = decide_pairs(statistics, settings, pairs, deltas, layout.rows.shape[0])
    family = family_size(systems, metrics, settings.family)
    notes += few_units_note(
        settings.correction, family, layout.rows.shape[0], settings.level, settings.unit.value
    )
    segments = compare_segments(statistics)
    pairs, test_notes = apply_test(
        pairs, segments, statistics.metrics, settings.test, settings.correction, settings.level
    )
    notes = [*notes, *test_notes]
    ordered = tuple([*pairs, *(p.mirrored() for p in pairs)])
    verdicts = {(p.metric, p.x, p.y): p.verdict for p in ordered}
    rankings = tuple(
        rank(
            m.name,
            {s: full[(s, m.name)] for s in statistics.system_names},
            m.higher_is_better,
            partial(_lookup_verdict, verdicts, m.name),
        )
        for m in statistics.metrics
    )
    signature = f"mtgui:{__version__}|{statistics.signature()}|{settings.signature()}"
    return BootstrapResult(
        settings,
        signature,
        statistics.system_names,
        tuple(m.name for m in statistics.metrics),
        intervals,
        ordered,
        rankings,
        tuple(notes),
        requested,
        segments,
        layout.rows.shape[0],
    )


def _other_intervals(
    statistics: Statistics,
    settings: BootstrapSettings,
    layout: UnitLayout,
    scores: dict[tuple[str, str], FloatArray],
    intervals: tuple[ScoreInterval, ...],
    pairs: list[PairComparison],
) -> tuple[tuple[ScoreInterval, ...], list[PairComparison]]:
    """The intervals and pairs (p-values, verdicts) of a BCa or studentized run, before any
    correction, which then acts on their p-values; percentile ones as they are."""
    metrics = {m.name: m for m in statistics.metrics}
    if settings.interval is IntervalMethod.BCA:
        bca = bca_intervals(intervals, metrics, layout, settings.level)
        return tuple(bca), bca_pairs(pairs, metrics, layout, scores, settings.level)
    if settings.interval is IntervalMethod.STUDENTIZED:
        made = studentized_results(
            intervals, pairs, metrics, layout, scores, settings.seed, settings.level
        )
        return tuple(made[0]), made[1]
    return intervals, pairs


def _lookup_verdict(verdicts: dict[tuple[str, str, str], str], metric: str, x: str, y: str) -> str:
    """The verdict of x against y, '~' for a system against itself."""
    return verdicts.get((metric, x, y), TIE)


def decide_pairs(
    statistics: Statistics,
    settings: BootstrapSettings,
    pairs: list[PairComparison],
    deltas: FloatArray,
    units: int,
) -> list[PairComparison]:
    """The verdicts of ``pairs`` (rows of ``deltas``) under the correction, family by family
    (:mod:`~mtgui.engine.inference.corrections`), with their power and equivalence figures."""
    better = {m.name: m.higher_is_better for m in statistics.metrics}
    families = [[m.name] for m in statistics.metrics]
    if settings.family is Family.ALL:
        families = [[m.name for m in statistics.metrics]]
    result = list(pairs)
    for names in families:
        rows = [k for k, p in enumerate(pairs) if p.metric in names]
        family = FamilyInput(
            [pairs[k] for k in rows],
            deltas[rows],
            [better[pairs[k].metric] for k in rows],
            [settings.margin(pairs[k].metric) for k in rows],
        )
        decided = decide_family(family, settings.correction, settings.level, units)
        for k, pair in zip(rows, decided, strict=True):
            result[k] = pair
    return result


def _compare_all(
    statistics: Statistics,
    full: dict[tuple[str, str], float],
    scores: dict[tuple[str, str], FloatArray],
    level: float,
) -> tuple[list[PairComparison], FloatArray]:
    """Every unordered pair under every metric (the mirror images are added later): a
    metric's pairs at once where every resample score is defined, else one by one; and the
    resampled deltas of each (one row per pair, in the same order)."""
    result = []
    pairs = list(combinations(statistics.system_names, 2))
    all_deltas = []
    for metric in statistics.metrics:
        name = metric.name
        full_pairs = [(full[(x, name)], full[(y, name)]) for x, y in pairs]
        samples = [(scores[(x, name)], scores[(y, name)]) for x, y in pairs]
        deltas = np.array([x_scores - y_scores for x_scores, y_scores in samples])
        all_deltas.append(deltas if len(pairs) else np.empty((0, 0)))
        if len(pairs) and not np.isnan(deltas).any():
            result += compare_all_defined(
                name, pairs, full_pairs, deltas, level, metric.higher_is_better
            )
            continue
        result += [
            compare(name, x, y, both, samples[k], level, metric.higher_is_better)
            for k, ((x, y), both) in enumerate(zip(pairs, full_pairs, strict=True))
        ]
    return result, np.vstack(all_deltas) if all_deltas else np.empty((0, 0))


def _iter_randomization(
    statistics: Statistics,
    layout: UnitLayout,
    settings: BootstrapSettings,
    full: dict[tuple[str, str], float],
    chunk: int | None,
) -> Generator[BootstrapProgress, None, dict[tuple[str, str, str], float]]:
    """Approximate randomization for every unordered pair: swap each unit's rows with p = 1/2.

    With a mask M (trials x units), the two pseudo-systems of a trial sum to
    ``X + M (Y - X)`` and ``Y - M (Y - X)``; one product serves all pairs and metrics.
    """
    keys, blocks, start = [], [], 0
    for metric in statistics.metrics:
        for x, y in combinations(statistics.system_names, 2):
            cx, cy = layout.columns[(x, metric.name)], layout.columns[(y, metric.name)]
            block = layout.rows[:, cy] - layout.rows[:, cx]
            keys.append((metric, x, y, slice(start, start + block.shape[1])))
            blocks.append(block)
            start += block.shape[1]
    differences = np.hstack(blocks)
    totals = layout.rows.sum(axis=0)
    exceed = dict.fromkeys(((m.name, x, y) for m, x, y, _ in keys), 0)
    rng = np.random.default_rng([settings.seed, 1])  # a stream of its own
    units, total, done = layout.rows.shape[0], settings.ar_trials, 0
    step = chunk or chunk_size(units, differences.shape[1])
    while done < total:
        size = min(step, total - done)
        shift = rng.integers(0, 2, size=(size, units)).astype(np.float64) @ differences
        for metric, x, y, columns in keys:
            x_totals = totals[layout.columns[(x, metric.name)]]
            y_totals = totals[layout.columns[(y, metric.name)]]
            with np.errstate(divide="ignore", invalid="ignore"):
                trial = metric.score(x_totals + shift[:, columns]) - metric.score(
                    y_totals - shift[:, columns]
                )
            delta = abs(full[(x, metric.name)] - full[(y, metric.name)])
            exceed[(metric.name, x, y)] += int(np.sum(np.abs(trial) >= delta))
        done += size
        yield BootstrapProgress(done, total, "randomization", {})
    result = {key: (count + 1) / (total + 1) for key, count in exceed.items()}
    return {**result, **{(m, y, x): p for (m, x, y), p in result.items()}}


def with_pairs(
    result: BootstrapResult,
    pairs: Sequence[PairComparison],
    higher_is_better: Mapping[str, bool],
    note: str = "",
    joined: int = 0,
) -> BootstrapResult:
    """``result`` with its unordered ``pairs`` decided anew in a family of ``joined`` pairs
    (with the breakdowns' groups): their mirror images and the rankings follow them; ``note``
    is added to its notes."""
    ordered = tuple([*pairs, *(p.mirrored() for p in pairs)])
    verdicts = {(p.metric, p.x, p.y): p.verdict for p in ordered}
    rankings = tuple(
        rank(
            metric,
            {s: result.interval(s, metric).score for s in result.systems},
            higher_is_better[metric],
            partial(_lookup_verdict, verdicts, metric),
        )
        for metric in result.metrics
    )
    notes = (*result.notes, note) if note else result.notes
    return replace(result, pairs=ordered, rankings=rankings, notes=notes, joined=joined)
