"""Bootstrap resampling of the per-segment statistics (Zhang & Vogel 2004, 3.1-3.3; Koehn 2004).

One set of resample indices serves every system and every metric, so all comparisons are
paired and one pass fills every table. A resample is drawn as counts per unit (segment or
document) and its summed statistics for all systems and metrics come from one matrix product:
``counts (chunk x U) @ unit rows (U x K)``. Resamples are drawn and scored in chunks sized so
that a chunk takes a few tens of milliseconds whatever the test set; memory is bounded by the
chunk, not by B x N. The random stream does not depend on the chunk size, so the same seed and
inputs give identical results however the work is cut.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

import numpy as np
import numpy.typing as npt

from mtgui.engine.errors import InputError
from mtgui.engine.metrics.base import FloatArray
from mtgui.engine.statistics import Statistics

IntArray = npt.NDArray[np.int64]
MIN_RESAMPLES, MAX_RESAMPLES = 100, 100_000
DEFAULT_SEED = 12345  # sacreBLEU's default seed
_COUNTS_PER_CHUNK = 4e6  # entries of one count matrix: 32 MB
_WORK_PER_CHUNK = 4e8  # multiply-adds per chunk: about 40 ms on this 2-core machine


class Unit(StrEnum):
    """What is resampled: single segments, or whole documents (Koehn's caveat on correlation)."""

    SEGMENT = "segment"
    DOCUMENT = "document"


@dataclass(frozen=True)
class BootstrapSettings:
    """How to resample. ``ar_trials`` > 0 adds approximate randomization with that many trials."""

    resamples: int = 2000
    level: float = 0.95
    seed: int = DEFAULT_SEED
    unit: Unit = Unit.SEGMENT
    ar_trials: int = 0
    holm: bool = False

    def __post_init__(self) -> None:
        if not MIN_RESAMPLES <= self.resamples <= MAX_RESAMPLES:
            raise InputError(
                f"the number of resamples must be from {MIN_RESAMPLES:,} to {MAX_RESAMPLES:,}, "
                f"not {self.resamples:,}."
            )
        if not 0.5 <= self.level < 1:
            raise InputError(f"the confidence level must be from 0.5 to 0.999, not {self.level}.")
        if self.ar_trials and not MIN_RESAMPLES <= self.ar_trials <= MAX_RESAMPLES:
            raise InputError(
                f"the number of randomization trials must be from {MIN_RESAMPLES:,} to "
                f"{MAX_RESAMPLES:,}, not {self.ar_trials:,}."
            )
        object.__setattr__(self, "unit", Unit(self.unit))

    def signature(self) -> str:
        """The resampling part of a result's signature."""
        ar = f"|ar:{self.ar_trials}" if self.ar_trials else ""
        holm = "|holm" if self.holm else ""
        return f"bs:{self.resamples}|seed:{self.seed}|unit:{self.unit}|level:{self.level}{ar}{holm}"


@dataclass(frozen=True)
class BootstrapProgress:
    """A snapshot after one chunk: resamples done and every score drawn so far.

    ``scores[(system, metric)]`` is a read-only view of the first ``done`` resample scores.
    During randomization ``phase`` is ``"randomization"`` and ``done`` counts trials.
    """

    done: int
    total: int
    phase: str
    scores: Mapping[tuple[str, str], FloatArray]


@dataclass
class UnitLayout:
    """Where each (system, metric) block of statistics sits in the stacked unit rows."""

    columns: dict[tuple[str, str], slice]
    rows: FloatArray  # (U, K): per unit, every system's and metric's statistics side by side


def unit_index(statistics: Statistics, document_index: IntArray | None, unit: Unit) -> IntArray:
    """For every segment, the number of the unit it belongs to."""
    size = statistics.rows(statistics.system_names[0], statistics.metrics[0].name).shape[0]
    if unit is Unit.DOCUMENT and document_index is not None:
        return np.asarray(document_index, dtype=np.int64)
    return np.arange(size, dtype=np.int64)


def stack_units(statistics: Statistics, units: IntArray) -> UnitLayout:
    """All statistics side by side, summed per unit (a segment, or a document).

    Metrics that share a statistics array (BLEU and M-BLEU) share its columns.
    """
    blocks: list[FloatArray] = []
    columns: dict[tuple[str, str], slice] = {}
    placed: dict[int, slice] = {}
    start = 0
    for system in statistics.system_names:
        for metric in statistics.metrics:
            rows = statistics.rows(system, metric.name)
            if id(rows) not in placed:
                placed[id(rows)] = slice(start, start + rows.shape[1])
                blocks.append(rows)
                start += rows.shape[1]
            columns[(system, metric.name)] = placed[id(rows)]
    stacked = np.hstack(blocks)
    count = int(units.max(initial=-1)) + 1
    if count != len(units) or not np.array_equal(units, np.arange(count)):
        per_unit = np.zeros((count, stacked.shape[1]))
        np.add.at(per_unit, units, stacked)
        stacked = per_unit
    return UnitLayout(columns, on_exact_grid(stacked))


def on_exact_grid(rows: FloatArray) -> FloatArray:
    """Round fractional columns (in place) to a power-of-two grid on which every resample sum
    is exact.

    A resample draws n of the n rows, so no sum exceeds n * max|x|. Rounding x to multiples of
    2^-k with n * max|x| * 2^k < 2^52 makes every partial sum an exact float, whatever order BLAS
    adds in: the same seed then gives the same results for any chunk size. Integer columns (most
    statistics) are exact already; the others move by less than 2^-k (NIST's information sums
    by about 1e-12 relative).
    """
    fractional = np.any(rows != np.round(rows), axis=0)
    for column in np.flatnonzero(fractional):
        values = rows[:, column]
        bound = len(values) * float(np.abs(values).max())
        k = 52 - int(np.ceil(np.log2(bound))) - 1
        rows[:, column] = np.round(np.ldexp(values, k)) / 2.0**k
    return rows


def chunk_size(units: int, columns: int) -> int:
    """Resamples per chunk: bounded work (time) and bounded count matrices (memory)."""
    by_work = _WORK_PER_CHUNK // max(units * columns, 1)
    by_memory = _COUNTS_PER_CHUNK // max(units, 1)
    return int(np.clip(min(by_work, by_memory), 1, 1000))


def draw_counts(rng: np.random.Generator, resamples: int, units: int) -> FloatArray:
    """How often each unit is drawn in each resample (n out of n, with replacement)."""
    picks = rng.integers(0, units, size=(resamples, units))
    flat = picks + (np.arange(resamples, dtype=np.int64) * units)[:, None]
    counts = np.bincount(flat.ravel(), minlength=resamples * units)
    return counts.reshape(resamples, units).astype(np.float64)


def iter_resample_scores(
    statistics: Statistics,
    layout: UnitLayout,
    settings: BootstrapSettings,
    chunk: int | None = None,
) -> Generator[BootstrapProgress, None, dict[tuple[str, str], FloatArray]]:
    """Draw and score all resamples chunk by chunk; return the scores of each system and metric.

    ``chunk`` overrides the number of resamples per chunk (the results do not depend on it).
    """
    units, total = layout.rows.shape[0], settings.resamples
    scores = {key: np.empty(total) for key in layout.columns}
    metrics = {m.name: m for m in statistics.metrics}
    rng = np.random.default_rng(settings.seed)
    step = chunk or chunk_size(units, layout.rows.shape[1])
    done = 0
    with closing(iter_counts(rng, total, step, units)) as chunks:
        for counts in chunks:
            size = len(counts)
            sums = counts @ layout.rows
            for (system, metric), columns in layout.columns.items():
                with np.errstate(divide="ignore", invalid="ignore"):
                    chunk_scores = metrics[metric].score(sums[:, columns])
                scores[(system, metric)][done : done + size] = chunk_scores
            done += size
            yield BootstrapProgress(done, total, "bootstrap", _views(scores, done))
    return scores


def iter_counts(
    rng: np.random.Generator,
    total: int,
    step: int,
    units: int,
) -> Generator[FloatArray, None, None]:
    """The count matrices of ``total`` resamples in chunks of ``step``.

    The next chunk is drawn on a helper thread while the caller works on the current one
    (numpy releases the interpreter lock while it draws). Only that thread touches ``rng``, in
    order, so the stream is the same as drawing on one thread; closing the iterator waits for
    the one draw in flight.
    """
    sizes = [min(step, total - start) for start in range(0, total, step)]
    if not sizes:
        return
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="mtgui-draw") as pool:
        pending = pool.submit(draw_counts, rng, sizes[0], units)
        for following in [*sizes[1:], None]:
            counts = pending.result()
            if following is not None:
                pending = pool.submit(draw_counts, rng, following, units)
            yield counts


def _views(
    scores: dict[tuple[str, str], FloatArray], done: int
) -> Mapping[tuple[str, str], FloatArray]:
    """Read-only views of the filled part: later chunks write only past ``done``."""
    views = {}
    for key, array in scores.items():
        view = array[:done]
        view.flags.writeable = False
        views[key] = view
    return MappingProxyType(views)
