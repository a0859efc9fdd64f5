"""How many bootstrap resamples are needed (Zhang & Vogel 2004, 4.3, Tables 5 and 6).

Table 5: the median and the (relative) CI of every system and metric at B = 1,000 ... 100,000.
One bootstrap of the largest B is drawn with the user's seed and summarized at every smaller B
on its first B resamples. The resamples are one stream however they are cut into chunks, so
the row for B is exactly what ``mtgui eval --bootstrap B`` reports with the same seed and unit.

Table 6: how much the interval itself moves from one run to the next. The bootstrap is repeated
R times (default 20) with seeds of their own (recorded in the result); at each B of
100 ... 10,000, again on the first B resamples of each run, the mean and the standard
deviation over the runs of the median and of the CI bounds. The paper's STDEV is the standard
deviation of a relative bound as a fraction (0.0011 for NIST at B = 500); here it is in
percentage points of the relative interval (0.11). When it is small next to the interval, B
is enough.
"""

from __future__ import annotations

import math
from collections.abc import Generator, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass, field, replace

import numpy as np

from mtgui.engine.core.arrays import FloatArray, IntArray
from mtgui.engine.core.errors import InputError
from mtgui.engine.inference.intervals import INTERVAL_FIELDS, summarize_samples
from mtgui.engine.resampling.draws import UnitLayout, iter_resample_scores, stack_units, unit_index
from mtgui.engine.resampling.settings import MAX_RESAMPLES, MIN_RESAMPLES, BootstrapSettings
from mtgui.engine.statistics.rows import Statistics
from mtgui.engine.studies.blas_threads import one_blas_thread
from mtgui.engine.studies.common import (
    StudyProgress,
    derived_seed,
    percentile_bounds,
    relative_bounds,
    relay,
    study_signature,
)

DEFAULT_SIZES = (1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000)
DEFAULT_STABILITY_SIZES = (100, 500, 1000, 2000, 10_000)
DEFAULT_RUNS = 20
MAX_RUNS = 1000
_STREAM = 3  # the repeated runs' seeds: derived from (seed, 3, run)


@dataclass(frozen=True)
class ResamplesSettings:
    """The B of Table 5, the B of Table 6 and its number of runs (0: no Table 6).

    Of ``bootstrap`` the seed, level and unit are used; its own B is not.
    """

    bootstrap: BootstrapSettings = field(default_factory=BootstrapSettings)
    sizes: tuple[int, ...] = DEFAULT_SIZES
    stability_sizes: tuple[int, ...] = DEFAULT_STABILITY_SIZES
    runs: int = DEFAULT_RUNS

    def __post_init__(self) -> None:
        for name in ("sizes", "stability_sizes"):
            sizes = tuple(sorted({int(b) for b in getattr(self, name)}))
            if not sizes or sizes[0] < MIN_RESAMPLES or sizes[-1] > MAX_RESAMPLES:
                raise InputError(
                    f"every number of resamples must be from {MIN_RESAMPLES:,} to "
                    f"{MAX_RESAMPLES:,}.",
                    hint="For example: 1000,2000,5000.",
                )
            object.__setattr__(self, name, sizes)
        if self.runs != 0 and not 2 <= self.runs <= MAX_RUNS:
            raise InputError(
                f"the number of repeated runs must be 0 (none) or from 2 to {MAX_RUNS:,}, "
                f"not {self.runs}."
            )

    def signature(self) -> str:
        """The study part of a result's signature."""
        sizes = ",".join(map(str, self.sizes))
        stability = ",".join(map(str, self.stability_sizes))
        return (
            f"resamples:{sizes}|stability:{stability}|runs:{self.runs}|{self.bootstrap.signature()}"
        )


@dataclass(frozen=True)
class ResampleRow:
    """Table 5: one system under one metric, bootstrapped with the first B resamples."""

    resamples: int
    system: str
    metric: str
    score: float
    median: float
    mean: float
    std: float
    rsd: float
    ci_low: float
    ci_high: float
    rel_ci_low: float  # percent
    rel_ci_high: float


@dataclass(frozen=True)
class StabilityRow:
    """Table 6: how one system's interval under one metric varies over the repeated runs."""

    resamples: int
    system: str
    metric: str
    runs: int  # runs done so far
    median: float  # mean over the runs
    median_std: float  # standard deviation over the runs
    ci_low: float
    ci_low_std: float
    ci_high: float
    ci_high_std: float
    rel_ci_low: float  # mean, percent (NaN off a ratio scale, as for human scores)
    rel_ci_low_std: float  # percentage points
    rel_ci_high: float
    rel_ci_high_std: float


@dataclass(frozen=True)
class ResamplesStudy:
    """The number-of-resamples study, complete or (in a progress snapshot) so far."""

    settings: ResamplesSettings
    signature: str
    systems: tuple[str, ...]
    metrics: tuple[str, ...]
    rows: tuple[ResampleRow, ...]  # Table 5, B by B, then system by system and metric
    stability: tuple[StabilityRow, ...]  # Table 6, likewise
    seeds: tuple[int, ...]  # the seeds of Table 6's runs
    notes: tuple[str, ...] = ()

    def enough(self, tolerance: float = 0.05) -> int | None:
        """The smallest B of Table 6 from which on, for every system and metric, each relative
        bound varies between runs (one standard deviation) by at most ``tolerance`` times the
        interval's half width (by default 1/20 of it; Zhang & Vogel's B = 2,000 passes on their
        data); None when even the largest B does not, or before two runs are done."""
        steady = None
        for b in reversed(self.settings.stability_sizes):
            rows = [r for r in self.stability if r.resamples == b]
            if not rows or not all(_steady(r, tolerance) for r in rows):
                break
            steady = b
        return steady


def _steady(row: StabilityRow, tolerance: float) -> bool:
    """Whether both bounds of a row vary little next to the interval (NaN is not steady):
    relative bounds where the metric has them, else the bounds themselves."""
    if math.isnan(row.rel_ci_low) and math.isnan(row.rel_ci_high):
        half_width = abs(row.ci_high - row.ci_low) / 2
        spread = max(row.ci_low_std, row.ci_high_std)
    else:
        half_width = abs(row.rel_ci_high - row.rel_ci_low) / 2  # the bounds swap below 0
        spread = max(row.rel_ci_low_std, row.rel_ci_high_std)
    return bool(spread <= tolerance * half_width)


def iter_resamples_study(
    statistics: Statistics,
    settings: ResamplesSettings | None = None,
    document_index: IntArray | None = None,
) -> Generator[StudyProgress[ResamplesStudy], None, ResamplesStudy]:
    """Run the number-of-resamples study (see the module docstring).

    ``done`` counts resamples: the largest B of Table 5, then ``runs`` times the largest B of
    Table 6. Snapshots come after every chunk of resamples; Table 5 gains the rows of each B as
    soon as B resamples are drawn, Table 6 its figures after every run. It runs with one
    OpenBLAS thread (:mod:`~mtgui.engine.studies.blas_threads`): the resamples are drawn on a
    thread of their own, which needs the second core more than the products do (benchmark set,
    loaded machine: 16-17 s -> 10 s, the same numbers).
    """
    with one_blas_thread():
        return (yield from _iter_study(statistics, settings, document_index))


def _iter_study(
    statistics: Statistics,
    settings: ResamplesSettings | None,
    document_index: IntArray | None,
) -> Generator[StudyProgress[ResamplesStudy], None, ResamplesStudy]:
    """:func:`iter_resamples_study`'s work."""
    settings = settings or ResamplesSettings()
    if not statistics.systems:
        raise InputError("there is no system output to study.", hint="Load a system output.")
    bootstrap, notes = settings.bootstrap.resolved(document_index)
    settings = replace(settings, bootstrap=bootstrap)
    layout = stack_units(statistics, unit_index(statistics, document_index, bootstrap.unit))
    largest, stable_largest = settings.sizes[-1], settings.stability_sizes[-1]
    total = largest + settings.runs * stable_largest
    seeds = tuple(derived_seed(bootstrap.seed, _STREAM, run) for run in range(settings.runs))
    signature = study_signature(statistics.signature(), settings.signature())
    metrics = tuple(m.name for m in statistics.metrics)
    study = ResamplesStudy(
        settings, signature, statistics.system_names, metrics, (), (), seeds, tuple(notes)
    )
    summarized = 0
    full_run = iter_resample_scores(statistics, layout, replace(bootstrap, resamples=largest))
    with closing(full_run):  # a cancel stops its drawing too
        for step in full_run:
            sizes = [b for b in settings.sizes if summarized < b <= step.done]
            if sizes:
                rows = _table5(statistics, step.scores, sizes, bootstrap.level)
                study = replace(study, rows=study.rows + rows)
                summarized = sizes[-1]
            yield StudyProgress(step.done, total, "resamples", study)
    runs = np.full((settings.runs, len(settings.stability_sizes), 5, len(layout.columns)), np.nan)
    for run, seed in enumerate(seeds):
        done = largest + run * stable_largest
        progress = StudyProgress(done, total, "stability", study)
        again = replace(bootstrap, resamples=stable_largest, seed=seed)
        scores = yield from relay(iter_resample_scores(statistics, layout, again), progress)
        runs[run] = _bounds(statistics, layout, scores, settings.stability_sizes, bootstrap.level)
        study = replace(study, stability=_table6(layout, settings, runs[: run + 1]))
        yield StudyProgress(done + stable_largest, total, "stability", study)
    return study


def _table5(
    statistics: Statistics,
    scores: Mapping[tuple[str, str], FloatArray],
    sizes: Sequence[int],
    level: float,
) -> tuple[ResampleRow, ...]:
    """The rows of each B in ``sizes`` from the first B resamples, as ``mtgui eval`` summarizes
    them."""
    rows = []
    for b in sizes:
        for (system, metric), samples in scores.items():
            score = statistics.score(system, metric)
            ratio = statistics.metric(metric).ratio_scale
            interval = summarize_samples(system, metric, score, samples[:b], level, ratio)
            values = [getattr(interval, name) for name in INTERVAL_FIELDS]
            rows.append(ResampleRow(b, system, metric, score, *values))
    return tuple(rows)


def _bounds(
    statistics: Statistics,
    layout: UnitLayout,
    scores: Mapping[tuple[str, str], FloatArray],
    sizes: tuple[int, ...],
    level: float,
) -> FloatArray:
    """For every B: median, bounds and relative bounds of every key from the first B resamples
    (the relative bounds NaN for metrics off a ratio scale)."""
    samples = np.stack([scores[key] for key in layout.columns])
    ratio = np.array([statistics.metric(metric).ratio_scale for _, metric in layout.columns])
    result = []
    for b in sizes:
        low, median, high = percentile_bounds(samples[:, :b], level)
        result.append([median, low, high, *relative_bounds(low, median, high, ratio)])
    return np.asarray(result)


def _table6(
    layout: UnitLayout, settings: ResamplesSettings, runs: FloatArray
) -> tuple[StabilityRow, ...]:
    """Mean and standard deviation over the runs done (NaN below two)."""
    count = len(runs)
    mean = runs.mean(axis=0)
    std = runs.std(axis=0, ddof=1) if count > 1 else np.full_like(mean, np.nan)
    rows = []
    for k, b in enumerate(settings.stability_sizes):
        for i, (system, metric) in enumerate(layout.columns):
            median, low, high, rel_low, rel_high = (
                (float(mean[k, j, i]), float(std[k, j, i])) for j in range(5)
            )
            rows.append(
                StabilityRow(b, system, metric, count, *median, *low, *high, *rel_low, *rel_high)
            )
    return tuple(rows)
