"""Running the test-set size study: cutting subsets, bootstrapping them, tallying the results.

See :mod:`mtgui.engine.studies.size.study` for what is computed. Each subset is resampled with a
seed of its own, with the numbers of the ordinary bootstrap
(:func:`~mtgui.engine.resampling.draws.iter_resample_scores`) computed by the studies' faster path
(:mod:`~mtgui.engine.studies.subset_bootstrap`: counts drawn on this thread, equal columns
multiplied once, whole-number sums in float32, one scoring call per kind of metric).
Each subset is a test set of its own for NIST too: given the texts (:class:`NistInputs`), its
information weights come from its own references (:mod:`~mtgui.engine.studies.subset_nist`),
and its resamples keep them, as the whole test set's resamples keep the whole set's.

:func:`iter_size_studies` runs the study on several statistics of the same test set at once
(the references study's Table 4, one per subset of the references), which share every subset
and its resamples: see :mod:`~mtgui.engine.studies.size.layout`.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass, replace

import numpy as np

from mtgui.engine.core.arrays import FloatArray, IntArray
from mtgui.engine.core.errors import InputError
from mtgui.engine.core.running import run_to_end
from mtgui.engine.metrics.bleu.nist import Nist
from mtgui.engine.statistics.rows import Statistics
from mtgui.engine.studies.blas_threads import one_blas_thread
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
from mtgui.engine.studies.size.layout import OwnNist, Pieces, Sources, iter_sources
from mtgui.engine.studies.size.study import (
    PairSeparation,
    SizeSettings,
    SizeStudy,
    fit_rule_of_thumb,
)
from mtgui.engine.studies.size.tally import Tally, size_pairs, size_rows
from mtgui.engine.studies.subset_bootstrap import SubsetDraws, SubsetPart, iter_subset_samples
from mtgui.engine.studies.subset_nist import NistInputs, SubsetNist, iter_subset_nist

_SUBSETS_STREAM = 2  # the subsets' random stream: default_rng([seed, 2])
Studies = tuple[SizeStudy, ...]


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
    _check_systems(statistics)
    if isinstance(nist, NistInputs) and nist.context.settings != statistics.settings:
        raise ValueError("the texts for NIST must be read with the statistics' settings")
    own_nist = nist is not None and any(m.name == Nist.name for m in statistics.metrics)
    run = _SizeRun([statistics], settings or SizeSettings(), document_index, own_nist)
    run_to_end(run.iter_lay_out())  # one source: a few hundredths of a second
    if isinstance(nist, NistInputs) and own_nist:
        progress = StudyProgress(0, run.total, "size", run.result()[0])
        nist = yield from relay(iter_subset_nist(nist, statistics.system_names), progress)
    studies = run.iter_jobs(nist if own_nist and isinstance(nist, SubsetNist) else None)
    with closing(studies):  # a cancel (closing this generator) closes the run too
        while True:
            try:
                step = next(studies)
            except StopIteration as finished:
                result: Studies = finished.value
                return result[0]
            yield StudyProgress(step.done, step.total, step.phase, step.partial[0])


def iter_size_studies(
    statistics: Sequence[Statistics],
    settings: SizeSettings,
    document_index: IntArray | None = None,
    nist: SubsetNist | None = None,
) -> Generator[StudyProgress[Studies], None, Studies]:
    """:func:`iter_size_study` of each of ``statistics`` (of the same test set, systems and
    metrics; the references study's, one per subset of the references), all at once: the same
    subsets and resamples for all, each study what it would be alone. ``nist``, a table with
    one source per statistics, gives each subset its own NIST information weights. The first
    snapshots, while the statistics are laid out, have no study yet (an empty tuple)."""
    own_nist = nist is not None and any(m.name == Nist.name for m in statistics[0].metrics)
    run = _SizeRun(statistics, settings, document_index, own_nist)
    nothing: Studies = ()
    yield from relay(run.iter_lay_out(), StudyProgress(0, run.total, "size", nothing))
    return (yield from run.iter_jobs(nist if own_nist else None))


@dataclass(frozen=True)
class _Job:
    """One subset to bootstrap."""

    step: int
    k: int  # which fraction
    chosen: IntArray  # the documents (or segments) in it
    part: SubsetPart  # its unit rows, with its own NIST information sums when it has them
    draws: SubsetDraws  # its resamples' counts, the first chunk drawn
    nist_totals: FloatArray | None  # their exact sums (the rows' are rounded to a grid)


class _SizeRun:
    """The state of one size study (of one or more sources): what to cut, and the tallies."""

    def __init__(
        self,
        statistics: Sequence[Statistics],
        settings: SizeSettings,
        document_index: IntArray | None,
        own_nist: bool = False,
    ) -> None:
        first = statistics[0]
        _check_systems(first)
        bootstrap, unit_notes = settings.bootstrap.resolved(document_index)
        self.settings = replace(settings, bootstrap=bootstrap)
        self.own_nist = own_nist
        size = first.rows(first.system_names[0], first.metrics[0].name).shape[0]
        self.pieces = Pieces(size, document_index, bootstrap.unit)
        self.statistics = tuple(statistics)
        self.sources: Sources  # laid out by iter_lay_out
        self.tally: Tally
        self.nist: OwnNist | None = None
        count = self.pieces.count
        self.counts = [max(1, int(np.floor(f * count + 0.5))) for f in settings.fractions]
        self.total = settings.repeats * len(self.counts)
        self.pairs = len(unordered_pairs(len(first.systems))[0]) * len(first.metrics)
        self.notes = [*unit_notes, *_notes(document_index, self.pieces, self.counts)]
        if not own_nist and any(m.name == Nist.name for m in first.metrics):
            self.notes.append(
                "NIST's information weights are the whole test set's (the texts were not "
                "given), so a subset is not scored as a test set of its own for NIST and its "
                "NIST does not rise with size as in Zhang & Vogel's Figure 4."
            )

    def iter_lay_out(self) -> Generator[int, None, None]:
        """Lay the sources out (yielding the sources done) and start the tallies."""
        units = self.pieces.units
        self.sources = yield from iter_sources(self.statistics, units, self.own_nist)
        keys, pairs = len(self.sources.keys), self.pairs * len(self.statistics)
        self.tally = Tally(len(self.counts), keys, pairs)

    def iter_jobs(
        self, table: SubsetNist | None
    ) -> Generator[StudyProgress[Studies], None, Studies]:
        """Bootstrap every subset, with each subset's own NIST weights from ``table``."""
        if table is not None:
            self.nist = OwnNist(table, self.pieces, self.sources)
        # One source's snapshots are the whole study, refreshed as the first repetition runs
        # (a plot fills); several sources' (the references study's) have only their rows.
        single = len(self.sources.statistics) == 1
        partial = self.result(complete=single)
        with one_blas_thread():  # the second core prepares the next subset (see _ahead)
            for job in _ahead(self._jobs()):
                progress = StudyProgress(job.step, self.total, "size", partial)
                yield from self._bootstrap(job, progress)
                if (single and job.step < len(self.counts)) or job.k == len(self.counts) - 1:
                    partial = self.result(complete=single)
                yield StudyProgress(job.step + 1, self.total, "size", partial)
        return self.result()

    def _cuts(self) -> Iterator[tuple[int, int, IntArray, IntArray, int]]:
        """Every subset in order: per repetition, one random order of the pieces, cut at each
        fraction (nested subsets), each with its own bootstrap seed: (repetition, fraction,
        the repetition's order, the pieces chosen, the seed)."""
        seed = self.settings.bootstrap.seed
        rng = np.random.default_rng([seed, _SUBSETS_STREAM])
        for repeat in range(self.settings.repeats):
            order = rng.permutation(self.pieces.count)
            for k, pieces in enumerate(self.counts):
                own_seed = derived_seed(seed, _SUBSETS_STREAM, repeat, k)
                yield repeat, k, order, np.sort(order[:pieces]), own_seed

    def _jobs(self) -> Generator[_Job, None, None]:
        """Every subset in order (:meth:`_cuts`), with its unit rows."""
        for repeat, k, order, chosen, own_seed in self._cuts():
            if k == 0 and self.nist is not None:
                self.nist.arrange(order)
            part = self.sources.rows.take(self.pieces.units_of(chosen))
            totals = None if self.nist is None else self.nist.apply(chosen, part)
            resamples = self.settings.bootstrap.resamples
            draws = SubsetDraws(own_seed, resamples, len(part.whole), ahead=True)
            yield _Job(repeat * len(self.counts) + k, k, chosen, part, draws, totals)

    def _bootstrap(
        self, job: _Job, progress: StudyProgress[Studies]
    ) -> Generator[StudyProgress[Studies], None, None]:
        """Bootstrap one subset and add it to the tallies."""
        sources, level = self.sources, self.settings.bootstrap.level
        totals = sources.totals(job.part, job.nist_totals)  # scored with the resamples
        resample = iter_subset_samples(sources.rows, job.part, sources.scorer, job.draws, totals)
        scored = yield from relay(resample, progress)
        samples, whole = scored[:, :-1], scored[:, -1]
        low, median, high = percentile_bounds(samples, level)
        rel_low, rel_high = relative_bounds(low, median, high, sources.ratio_scale)
        values = np.stack([whole, median, low, high, rel_low, rel_high])
        segments = int(self.pieces.segments[job.chosen].sum())
        self.tally.add(job.k, values, segments, self._signs(samples, level))

    def _signs(self, samples: FloatArray, level: float) -> IntArray:
        """The verdict of every unordered pair under every metric (+1, -1, 0), source after
        source, each source's metric by metric."""
        metrics = self.sources.metrics
        shape = (len(self.sources.statistics), -1, len(metrics), samples.shape[-1])
        blocks = samples.reshape(shape).transpose(0, 2, 1, 3)  # sources, metrics, systems
        higher = np.array([metric.higher_is_better for metric in metrics])
        return pair_signs(blocks, level, higher).reshape(-1)

    def result(self, complete: bool = True) -> Studies:
        """Every source's study over the subsets bootstrapped so far (not ``complete``: the
        rows only, without the pairs and the fitted rule of thumb)."""
        return tuple(self._result(s, complete) for s in range(len(self.sources.statistics)))

    def _result(self, s: int, complete: bool) -> SizeStudy:
        """One source's study."""
        statistics, settings = self.sources.statistics[s], self.settings
        width = self.sources.per_source
        keys = self.sources.keys[s * width : (s + 1) * width]
        metrics = len(statistics.metrics)
        rows = size_rows(self.tally, settings, self.counts, keys, s * width, metrics)
        pairs: tuple[PairSeparation, ...] = ()
        if complete:
            names, start = statistics.system_names, s * self.pairs
            pairs = size_pairs(self.tally, settings, names, statistics.metrics, start)
        study = settings.signature() + ("|nist-weights:subset" if self.own_nist else "")
        return SizeStudy(
            settings,
            study_signature(statistics.signature(), study),
            self.pieces.by_document,
            statistics.system_names,
            tuple(m.name for m in statistics.metrics),
            rows,
            pairs,
            fit_rule_of_thumb(rows) if complete else (),
            int(self.tally.done.min()),
            tuple(self.notes),
        )


def _ahead(jobs: Generator[_Job, None, None]) -> Iterator[_Job]:
    """``jobs``, each made on a helper thread while the one before is bootstrapped here.

    Making a job (its rows, its own NIST information sums, its counts) and bootstrapping one
    (the product, the scores, the tallies) take about as long, and both run mostly outside
    the GIL (numpy, BLAS, the compiled kernels), so on two cores the study takes about half
    as long. Only the helper touches what makes the jobs, in order: the numbers are those of
    making them here. A cancel waits for the job being made (a few milliseconds).
    """
    from concurrent.futures import ThreadPoolExecutor  # here: not imported by every command

    pool = ThreadPoolExecutor(1, thread_name_prefix="mtgui-subsets")
    try:
        made = pool.submit(next, jobs, None)
        while (job := made.result()) is not None:
            made = pool.submit(next, jobs, None)
            yield job
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        jobs.close()


def _check_systems(statistics: Statistics) -> None:
    """An InputError when there is no system to study."""
    if not statistics.systems:
        raise InputError("there is no system output to study.", hint="Load a system output.")


def _notes(document_index: IntArray | None, pieces: Pieces, counts: Sequence[int]) -> list[str]:
    """What the user should know about how the subsets were made."""
    notes = []
    what = "documents" if pieces.by_document else "segments"
    if document_index is not None and not pieces.by_document:
        notes.append("The test set has a single document, so the subsets are made of segments.")
    if len(set(counts)) < len(counts):
        notes.append(f"With {pieces.count} {what}, some fractions take the same number of {what}.")
    return notes
