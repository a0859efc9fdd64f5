"""Running the test-set size study: cutting subsets, bootstrapping them, tallying the results.

See :mod:`mtgui.engine.studies.size` for what is computed. Each subset is resampled by the
ordinary bootstrap (:func:`~mtgui.engine.bootstrap.iter_resample_scores`) with a seed of its own.
Drawing the next subset's resamples ahead, while the current one is summed, was measured on the
benchmark set and gained nothing (the matrix products already keep both cores busy), so each
subset draws its own when its turn comes.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass, replace

import numpy as np

from mtgui.engine.bootstrap import (
    IntArray,
    Unit,
    UnitLayout,
    iter_resample_scores,
    stack_units,
)
from mtgui.engine.errors import InputError
from mtgui.engine.metrics.base import FloatArray
from mtgui.engine.statistics import Statistics
from mtgui.engine.studies.common import (
    StudyProgress,
    derived_seed,
    pair_signs,
    percentile_bounds,
    relative_bounds,
    relay,
    study_signature,
    unordered_pairs,
)
from mtgui.engine.studies.size import (
    PairSeparation,
    SizeRow,
    SizeSettings,
    SizeStudy,
    fit_rule_of_thumb,
    smallest_separation,
)

_STEPS = ("score", "median", "ci_low", "ci_high", "rel_ci_low", "rel_ci_high")
_SUBSETS_STREAM = 2  # the subsets' random stream: default_rng([seed, 2])


def iter_size_study(
    statistics: Statistics,
    settings: SizeSettings | None = None,
    document_index: IntArray | None = None,
) -> Generator[StudyProgress[SizeStudy], None, SizeStudy]:
    """Run the test-set size study (see :mod:`mtgui.engine.studies.size`).

    ``document_index`` (the test set's, when it has documents) makes the subsets whole
    documents; a subset's bootstrap resamples the unit of ``settings.bootstrap``. Yields a
    snapshot after every bootstrapped subset (and within one, after every chunk of resamples);
    ``done`` counts subsets out of ``repeats x fractions``. The snapshot's table is refreshed
    after each subset of the first repetition, then after each repetition.
    """
    settings = settings or SizeSettings()
    if not statistics.systems:
        raise InputError("there is no system output to study.", hint="Load a system output.")
    bootstrap, unit_notes = settings.bootstrap.resolved(document_index)
    run = _SizeRun(statistics, replace(settings, bootstrap=bootstrap), document_index)
    run.notes[:0] = unit_notes
    total = settings.repeats * len(run.pieces)
    partial = run.result()
    for job in run.jobs():
        yield from run.bootstrap(job, StudyProgress(job.step, total, "size", partial))
        if job.step < len(run.pieces) or job.k == len(run.pieces) - 1:
            partial = run.result()
        yield StudyProgress(job.step + 1, total, "size", partial)
    return partial


@dataclass(frozen=True)
class _Job:
    """One subset to bootstrap."""

    step: int
    k: int  # which fraction
    chosen: IntArray  # the documents (or segments) in it
    layout: UnitLayout
    seed: int


class _Subsets:
    """The stacked statistics and how to cut a subset of documents (or segments) from them."""

    def __init__(self, statistics: Statistics, document_index: IntArray | None, unit: Unit) -> None:
        size = statistics.rows(statistics.system_names[0], statistics.metrics[0].name).shape[0]
        documents = None if document_index is None else np.asarray(document_index, np.int64)
        self.by_document = documents is not None and len(np.unique(documents)) > 1
        pieces = documents if documents is not None and self.by_document else np.arange(size)
        self.by_unit_document = self.by_document and unit is Unit.DOCUMENT
        self.layout = stack_units(statistics, pieces if self.by_unit_document else np.arange(size))
        self.piece_of_unit = np.arange(len(self.layout.rows)) if self.by_unit_document else pieces
        self.segments = np.bincount(pieces)
        self.count = len(self.segments)

    def layout_of(self, chosen: IntArray) -> UnitLayout:
        """The unit rows of the pieces ``chosen``."""
        units = np.flatnonzero(np.isin(self.piece_of_unit, chosen))
        return UnitLayout(self.layout.columns, self.layout.rows[units])


class _Tally:
    """Running sums over the repetitions, per fraction: cheap to update and to read.

    The spread of the subset scores is summed around the first subset's score (the "shifted
    data" algorithm), which keeps it exact where all subsets are the same (at 100%).
    """

    def __init__(self, fractions: int, keys: int, pairs: int) -> None:
        self.sums = np.zeros((len(_STEPS), fractions, keys))
        self.counts = np.zeros((len(_STEPS), fractions, keys))
        self.shift = np.full((fractions, keys), np.nan)
        self.shifted = np.zeros((2, fractions, keys))  # sums of (score - shift) and its square
        self.segments = np.zeros(fractions)
        self.done = np.zeros(fractions, dtype=np.int64)
        self.better = np.zeros((fractions, pairs), dtype=np.int64)
        self.worse = np.zeros((fractions, pairs), dtype=np.int64)

    def add(self, k: int, values: FloatArray, segments: int, signs: IntArray) -> None:
        """One bootstrapped subset at fraction ``k``: ``values`` has one row per step."""
        valid = ~np.isnan(values)
        self.sums[:, k] += np.where(valid, values, 0.0)
        self.counts[:, k] += valid
        self.shift[k] = np.where(np.isnan(self.shift[k]), values[0], self.shift[k])
        deviation = np.where(valid[0], values[0] - self.shift[k], 0.0)
        self.shifted[:, k] += [deviation, deviation**2]
        self.segments[k] += segments
        self.done[k] += 1
        self.better[k] += signs > 0
        self.worse[k] += signs < 0

    def means(self) -> FloatArray:
        """Per step, fraction and key: the mean so far (NaN before any value)."""
        with np.errstate(invalid="ignore", divide="ignore"):
            return self.sums / self.counts

    def spread(self) -> FloatArray:
        """The standard deviation of the subset scores (n - 1), NaN below two values."""
        count = self.counts[0]
        with np.errstate(invalid="ignore", divide="ignore"):
            variance = (self.shifted[1] - self.shifted[0] ** 2 / count) / (count - 1)
        return np.where(count > 1, np.sqrt(np.maximum(variance, 0.0)), np.nan)


class _SizeRun:
    """The state of one size study: what to cut, and the tallies so far."""

    def __init__(
        self, statistics: Statistics, settings: SizeSettings, document_index: IntArray | None
    ) -> None:
        self.statistics, self.settings = statistics, settings
        self.subsets = _Subsets(statistics, document_index, settings.bootstrap.unit)
        self.keys = list(self.subsets.layout.columns)  # (system, metric), systems outermost
        self.ratio_scale = np.array([statistics.metric(m).ratio_scale for _, m in self.keys])
        count = self.subsets.count
        self.pieces = [max(1, int(np.floor(f * count + 0.5))) for f in settings.fractions]
        pairs = len(unordered_pairs(len(statistics.systems))[0]) * len(statistics.metrics)
        self.tally = _Tally(len(self.pieces), len(self.keys), pairs)
        self.notes = _notes(settings, document_index, self.subsets, self.pieces)

    def jobs(self) -> Iterator[_Job]:
        """Every subset in order: per repetition, one random order of the pieces, cut at each
        fraction (nested subsets); each with its own bootstrap stream."""
        seed = self.settings.bootstrap.seed
        rng = np.random.default_rng([seed, _SUBSETS_STREAM])
        for repeat in range(self.settings.repeats):
            order = rng.permutation(self.subsets.count)
            for k, pieces in enumerate(self.pieces):
                chosen = np.sort(order[:pieces])
                step = repeat * len(self.pieces) + k
                own_seed = derived_seed(seed, _SUBSETS_STREAM, repeat, k)
                yield _Job(step, k, chosen, self.subsets.layout_of(chosen), own_seed)

    def bootstrap(
        self, job: _Job, progress: StudyProgress[SizeStudy]
    ) -> Generator[StudyProgress[SizeStudy], None, None]:
        """Bootstrap one subset and add it to the tallies."""
        settings = replace(self.settings.bootstrap, seed=job.seed)
        resample = iter_resample_scores(self.statistics, job.layout, settings)
        scores = yield from relay(resample, progress)
        samples = np.stack([scores[key] for key in self.keys])
        low, median, high = percentile_bounds(samples, settings.level)
        rel_low, rel_high = relative_bounds(low, median, high, self.ratio_scale)
        values = np.stack([self._scores(job.layout), median, low, high, rel_low, rel_high])
        segments = int(self.subsets.segments[job.chosen].sum())
        self.tally.add(job.k, values, segments, self._signs(samples, settings.level))

    def _scores(self, layout: UnitLayout) -> FloatArray:
        """Every key's score on the whole subset."""
        sums = layout.rows.sum(axis=0)
        metric = self.statistics.metric
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.array(
                [metric(m).score_one(sums[layout.columns[(s, m)]]) for s, m in self.keys]
            )

    def _signs(self, samples: FloatArray, level: float) -> IntArray:
        """The verdict of every unordered pair under every metric (+1, -1, 0)."""
        metrics = self.statistics.metrics
        blocks = samples.reshape(len(self.statistics.systems), len(metrics), -1)
        return np.concatenate(
            [
                pair_signs(blocks[:, m], level, metric.higher_is_better)
                for m, metric in enumerate(metrics)
            ]
        )

    def result(self) -> SizeStudy:
        """The study over the subsets bootstrapped so far."""
        rows = self._rows()
        return SizeStudy(
            self.settings,
            study_signature(self.statistics.signature(), self.settings.signature()),
            self.subsets.by_document,
            self.statistics.system_names,
            tuple(m.name for m in self.statistics.metrics),
            rows,
            self._pairs(),
            fit_rule_of_thumb(rows),
            int(self.tally.done.min()),
            tuple(self.notes),
        )

    def _rows(self) -> tuple[SizeRow, ...]:
        """Every metric, system and fraction, from the tallies."""
        tally, means, spread = self.tally, self.tally.means(), self.tally.spread()
        with np.errstate(invalid="ignore", divide="ignore"):
            segments = tally.segments / tally.done
        metrics = len(self.statistics.metrics)
        return tuple(
            SizeRow(
                *self.keys[i],
                fraction,
                self.pieces[k],
                float(segments[k]),
                int(tally.done[k]),
                float(means[0, k, i]),
                float(spread[k, i]),
                *(float(value) for value in means[1:, k, i]),
            )
            for m in range(metrics)
            for i in range(m, len(self.keys), metrics)
            for k, fraction in enumerate(self.settings.fractions)
        )

    def _pairs(self) -> tuple[PairSeparation, ...]:
        """Every unordered pair under every metric, from the tallies."""
        names = self.statistics.system_names
        first, second = unordered_pairs(len(names))
        with np.errstate(invalid="ignore", divide="ignore"):
            x_better = self.tally.better / self.tally.done[:, None]
            y_better = self.tally.worse / self.tally.done[:, None]
        pairs, column = [], 0
        for metric in self.statistics.metrics:
            for i, j in zip(first, second, strict=True):
                shares = (tuple(x_better[:, column].tolist()), tuple(y_better[:, column].tolist()))
                smallest, verdict = smallest_separation(self.settings, *shares)
                pairs.append(
                    PairSeparation(metric.name, names[i], names[j], *shares, smallest, verdict)
                )
                column += 1
        return tuple(pairs)


def _notes(
    settings: SizeSettings,
    document_index: IntArray | None,
    subsets: _Subsets,
    pieces: Sequence[int],
) -> list[str]:
    """What the user should know about how the subsets were made."""
    notes = []
    what = "documents" if subsets.by_document else "segments"
    if document_index is not None and not subsets.by_document:
        notes.append("The test set has a single document, so the subsets are made of segments.")
    if len(set(pieces)) < len(pieces):
        notes.append(f"With {subsets.count} {what}, some fractions take the same number of {what}.")
    return notes
