"""Running the test-set size study: cutting subsets, bootstrapping them, tallying the results.

See :mod:`mtgui.engine.studies.size.study` for what is computed. Each subset is resampled with a
seed of its own, with the numbers of the ordinary bootstrap
(:func:`~mtgui.engine.resampling.iter_resample_scores`) computed by the studies' faster path
(:mod:`~mtgui.engine.studies.subset_bootstrap`: counts drawn on this thread, whole-number sums
in float32, one scoring call per metric). Drawing the next subset's counts ahead on a helper
thread was measured on the benchmark set and gained nothing (with other work on the machine it
lost a little), so each subset draws its own when its turn comes.
Each subset is a test set of its own for NIST too: given the texts (:class:`NistInputs`), its
information weights come from its own references (:mod:`~mtgui.engine.studies.subset_nist`),
and its resamples keep them, as the whole test set's resamples keep the whole set's.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from mtgui.engine.errors import InputError
from mtgui.engine.metrics.base import FloatArray
from mtgui.engine.metrics.nist import ORDER, Nist
from mtgui.engine.resampling import IntArray, UnitLayout, stack_units
from mtgui.engine.settings import Unit
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
from mtgui.engine.studies.size.study import (
    PairSeparation,
    SizeRow,
    SizeSettings,
    SizeStudy,
    fit_rule_of_thumb,
    smallest_separation,
)
from mtgui.engine.studies.subset_bootstrap import (
    KeyScorer,
    column_indices,
    iter_subset_samples,
    on_grid,
    whole_columns,
)
from mtgui.engine.studies.subset_nist import NistInputs, SubsetNist, iter_subset_nist

_STEPS = ("score", "median", "ci_low", "ci_high", "rel_ci_low", "rel_ci_high")
_SUBSETS_STREAM = 2  # the subsets' random stream: default_rng([seed, 2])


def iter_size_study(
    statistics: Statistics,
    settings: SizeSettings | None = None,
    document_index: IntArray | None = None,
    nist: NistInputs | SubsetNist | None = None,
) -> Generator[StudyProgress[SizeStudy], None, SizeStudy]:
    """Run the test-set size study (see :mod:`mtgui.engine.studies.size.study`).

    ``document_index`` (the test set's, when it has documents) makes the subsets whole
    documents; a subset's bootstrap resamples the unit of ``settings.bootstrap``. ``nist``, the
    texts the statistics were extracted from (with the same settings) or the table made of
    them (:func:`~mtgui.engine.studies.subset_nist.iter_subset_nist`), gives each subset its
    own NIST information weights; without it NIST keeps the whole test set's, with a note.
    Yields a snapshot after every bootstrapped subset (and within one, after every chunk of
    resamples, and before the first, after each system matched for NIST); ``done`` counts
    subsets out of ``repeats x fractions``. The snapshot's table is refreshed after each subset
    of the first repetition, then after each repetition.
    """
    settings = settings or SizeSettings()
    if not statistics.systems:
        raise InputError("there is no system output to study.", hint="Load a system output.")
    if isinstance(nist, NistInputs) and nist.context.settings != statistics.settings:
        raise ValueError("the texts for NIST must be read with the statistics' settings")
    bootstrap, unit_notes = settings.bootstrap.resolved(document_index)
    own_nist = nist is not None and any(m.name == Nist.name for m in statistics.metrics)
    run = _SizeRun(statistics, replace(settings, bootstrap=bootstrap), document_index, own_nist)
    run.notes[:0] = unit_notes
    total = settings.repeats * len(run.pieces)
    partial = run.result()
    if isinstance(nist, NistInputs) and own_nist:
        matching = iter_subset_nist(nist, statistics.system_names)
        nist = yield from relay(matching, StudyProgress(0, total, "size", partial))
    if isinstance(nist, SubsetNist) and own_nist:
        run.use_own_nist(nist)
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
    layout: UnitLayout  # with the subset's own NIST information sums, when it has them
    seed: int
    nist_totals: FloatArray | None  # their exact sums (the layout's are rounded to a grid)


class _Subsets:
    """The stacked statistics and how to cut a subset of documents (or segments) from them."""

    def __init__(self, statistics: Statistics, document_index: IntArray | None, unit: Unit) -> None:
        size = statistics.rows(statistics.system_names[0], statistics.metrics[0].name).shape[0]
        documents = None if document_index is None else np.asarray(document_index, np.int64)
        self.by_document = documents is not None and len(np.unique(documents)) > 1
        pieces = documents if documents is not None and self.by_document else np.arange(size)
        self.pieces = pieces  # the piece of every segment
        self.by_piece = np.argsort(pieces, kind="stable")  # the segments, piece by piece
        self.by_unit_document = self.by_document and unit is Unit.DOCUMENT
        self.layout = stack_units(statistics, pieces if self.by_unit_document else np.arange(size))
        self.piece_of_unit = np.arange(len(self.layout.rows)) if self.by_unit_document else pieces
        self.segments = np.bincount(pieces)
        self.count = len(self.segments)

    def layout_of(self, chosen: IntArray) -> UnitLayout:
        """The unit rows of the pieces ``chosen``."""
        units = np.flatnonzero(np.isin(self.piece_of_unit, chosen))
        return UnitLayout(self.layout.columns, self.layout.rows[units])

    def per_unit(self, values: FloatArray, segments: npt.NDArray[np.bool_]) -> FloatArray:
        """``values`` of the chosen ``segments`` (in order) summed per unit of a subset's layout:
        per document in document order, or as they are when the units are segments."""
        if not self.by_unit_document:
            return values
        order = self.by_piece[segments[self.by_piece]]  # the chosen, document by document
        documents = self.pieces[order]
        starts = np.flatnonzero(np.append(True, documents[1:] != documents[:-1]))
        return np.add.reduceat(values[(np.cumsum(segments) - 1)[order]], starts, axis=0)


class _OwnNist:
    """Puts each subset's own NIST information sums (under its own weights) in its unit rows."""

    def __init__(self, table: SubsetNist, subsets: _Subsets, statistics: Statistics) -> None:
        self.table, self.subsets = table, subsets
        layout = subsets.layout
        columns = [column_indices(layout, (system, Nist.name))[:ORDER] for system in table.systems]
        self.columns = np.concatenate(columns)  # I_1..I_5 of each system
        whole = [statistics.totals(system, Nist.name)[:ORDER] for system in table.systems]
        self.whole = np.concatenate(whole)

    def arrange(self, order: IntArray) -> None:
        """The pieces will be taken in ``order`` (nested subsets): lay the table out so."""
        ranks = np.empty(self.subsets.count, dtype=np.int64)
        ranks[order] = np.arange(len(order))
        self.table.arrange(np.argsort(ranks[self.subsets.pieces], kind="stable"))

    def apply(self, chosen: IntArray, layout: UnitLayout) -> FloatArray:
        """Replace the sums in the rows of the pieces ``chosen``; return their exact totals."""
        if len(chosen) == self.subsets.count:  # the whole test set: the statistics' weights
            return self.whole
        segments = np.isin(self.subsets.pieces, chosen)
        information = self.table.information(segments)
        totals = information.sum(axis=0)  # in segment order, as Statistics.totals adds
        layout.rows[:, self.columns] = on_grid(self.subsets.per_unit(information, segments))
        return totals


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
        """Per step, fraction and key: the mean so far (NaN before any value).

        The subset scores are averaged around the first one, so that where every subset is the
        same (at 100%) the mean is exactly its score.
        """
        with np.errstate(invalid="ignore", divide="ignore"):
            means = self.sums / self.counts
            means[0] = self.shift + self.shifted[0] / self.counts[0]
        return means

    def spread(self) -> FloatArray:
        """The standard deviation of the subset scores (n - 1), NaN below two values."""
        count = self.counts[0]
        with np.errstate(invalid="ignore", divide="ignore"):
            variance = (self.shifted[1] - self.shifted[0] ** 2 / count) / (count - 1)
        return np.where(count > 1, np.sqrt(np.maximum(variance, 0.0)), np.nan)


class _SizeRun:
    """The state of one size study: what to cut, and the tallies so far."""

    def __init__(
        self,
        statistics: Statistics,
        settings: SizeSettings,
        document_index: IntArray | None,
        own_nist: bool = False,
    ) -> None:
        self.statistics, self.settings, self.own_nist = statistics, settings, own_nist
        self.subsets = _Subsets(statistics, document_index, settings.bootstrap.unit)
        self.nist: _OwnNist | None = None
        self.keys = list(self.subsets.layout.columns)  # (system, metric), systems outermost
        self.scorer = KeyScorer(self.subsets.layout, self.keys, statistics.metrics)
        self.whole = whole_columns(self.subsets.layout.rows)  # summed in float32
        self.ratio_scale = np.array([statistics.metric(m).ratio_scale for _, m in self.keys])
        count = self.subsets.count
        self.pieces = [max(1, int(np.floor(f * count + 0.5))) for f in settings.fractions]
        pairs = len(unordered_pairs(len(statistics.systems))[0]) * len(statistics.metrics)
        self.tally = _Tally(len(self.pieces), len(self.keys), pairs)
        self.notes = _notes(settings, document_index, self.subsets, self.pieces)
        if not own_nist and any(m.name == Nist.name for m in statistics.metrics):
            self.notes.append(
                "NIST's information weights are the whole test set's (the texts were not "
                "given), so a subset is not scored as a test set of its own for NIST and its "
                "NIST does not rise with size as in Zhang & Vogel's Figure 4."
            )

    def use_own_nist(self, table: SubsetNist) -> None:
        """Score NIST with each subset's own information weights from now on."""
        self.nist = _OwnNist(table, self.subsets, self.statistics)
        self.whole = whole_columns(self.subsets.layout.rows, self.nist.columns)

    def cuts(self) -> Iterator[tuple[int, int, IntArray, IntArray, int]]:
        """Every subset in order: per repetition, one random order of the pieces, cut at each
        fraction (nested subsets), each with its own bootstrap seed: (repetition, fraction,
        the repetition's order, the pieces chosen, the seed)."""
        seed = self.settings.bootstrap.seed
        rng = np.random.default_rng([seed, _SUBSETS_STREAM])
        for repeat in range(self.settings.repeats):
            order = rng.permutation(self.subsets.count)
            for k, pieces in enumerate(self.pieces):
                own_seed = derived_seed(seed, _SUBSETS_STREAM, repeat, k)
                yield repeat, k, order, np.sort(order[:pieces]), own_seed

    def jobs(self) -> Iterator[_Job]:
        """Every subset in order (:meth:`cuts`), with its unit rows."""
        for repeat, k, order, chosen, own_seed in self.cuts():
            if k == 0 and self.nist is not None:
                self.nist.arrange(order)
            layout = self.subsets.layout_of(chosen)
            totals = None if self.nist is None else self.nist.apply(chosen, layout)
            yield _Job(repeat * len(self.pieces) + k, k, chosen, layout, own_seed, totals)

    def bootstrap(
        self, job: _Job, progress: StudyProgress[SizeStudy]
    ) -> Generator[StudyProgress[SizeStudy], None, None]:
        """Bootstrap one subset and add it to the tallies."""
        settings = replace(self.settings.bootstrap, seed=job.seed)
        resample = iter_subset_samples(
            job.layout.rows, self.scorer, job.seed, settings.resamples, self.whole
        )
        samples = yield from relay(resample, progress)
        low, median, high = percentile_bounds(samples, settings.level)
        rel_low, rel_high = relative_bounds(low, median, high, self.ratio_scale)
        whole = self._scores(job.layout, job.nist_totals)
        values = np.stack([whole, median, low, high, rel_low, rel_high])
        segments = int(self.subsets.segments[job.chosen].sum())
        self.tally.add(job.k, values, segments, self._signs(samples, settings.level))

    def _scores(self, layout: UnitLayout, nist_totals: FloatArray | None) -> FloatArray:
        """Every key's score on the whole subset (NIST's from its exact information sums)."""
        sums = layout.rows.sum(axis=0)
        if self.nist is not None and nist_totals is not None:
            sums[self.nist.columns] = nist_totals
        return self.scorer.scores(sums)

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
        study = self.settings.signature() + ("|nist-weights:subset" if self.own_nist else "")
        return SizeStudy(
            self.settings,
            study_signature(self.statistics.signature(), study),
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
