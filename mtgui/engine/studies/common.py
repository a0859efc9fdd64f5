"""What the studies share: progress snapshots, seeds of their own, vectorised summaries.

Every study is a generator that yields :class:`StudyProgress` snapshots and returns a frozen
result; a snapshot's ``partial`` is a result of the same type over the work done so far, so a
plot can fill as the study runs and be drawn by the same code at the end. Closing the generator
is the cancel. Summaries here are the ones of :mod:`mtgui.engine.inference.intervals` and
:mod:`mtgui.engine.inference.significance` computed for many systems (or pairs) at once: a study
summarizes thousands of bootstraps, where a Python call per system and pair would dominate.
"""

from __future__ import annotations

import warnings
from collections.abc import Generator
from contextlib import closing
from dataclasses import dataclass, replace
from typing import Any, Generic, TypeVar

import numpy as np
import numpy.typing as npt

from mtgui._version import __version__
from mtgui.engine.core.arrays import FloatArray
from mtgui.engine.inference.significance import paired_tests

R = TypeVar("R")
T = TypeVar("T")
ALL = "(all)"
"""The system or metric name of a figure pooled over all systems or all metrics."""


@dataclass(frozen=True)
class StudyProgress(Generic[R]):
    """A snapshot: ``done`` of ``total`` steps in ``phase``, and the result so far."""

    done: int
    total: int
    phase: str
    partial: R


def study_signature(scoring: str, study: str) -> str:
    """What pins a study's numbers down: mtgui's version, the scoring and the study's settings."""
    return f"mtgui:{__version__}|{scoring}|{study}"


def derived_seed(seed: int, *keys: int) -> int:
    """The seed of one piece of a study (a subset, a repetition), from the user's seed.

    numpy's ``SeedSequence`` makes independent streams from (seed, keys), so every piece is
    reproducible on its own and no two pieces share resamples by accident.
    """
    return int(np.random.SeedSequence([seed, *keys]).generate_state(1)[0])


def relay(
    generator: Generator[Any, None, T], progress: StudyProgress[R], counted: bool = False
) -> Generator[StudyProgress[R], None, T]:
    """Run an inner engine generator to its end, yielding the study's ``progress`` at each of
    its steps (which keeps the study responsive to a cancel), and return what it returns.

    With ``counted``, the inner snapshot's ``done`` is added to ``progress.done``: for inner
    work that counts in the study's own steps (systems extracted, subsets bootstrapped).
    """
    with closing(generator):  # a cancel (closing the study) closes the inner work too
        while True:
            try:
                step = next(generator)
            except StopIteration as finished:
                result: T = finished.value
                return result
            yield replace(progress, done=progress.done + step.done) if counted else progress


def percentile_bounds(
    samples: FloatArray, level: float
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Per row of ``samples`` (one row per system and metric): the interval's lower bound, the
    median and the upper bound, as :func:`~mtgui.engine.inference.intervals.summarize_samples`
    computes them (undefined scores, NaN, left out; a row without any gives NaN)."""
    alpha = 1 - level
    quantiles = [100 * alpha / 2, 50, 100 * (1 - alpha / 2)]
    if np.isnan(samples).any():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN rows stay NaN
            low, median, high = np.nanpercentile(samples, quantiles, axis=-1)
    else:
        low, median, high = np.percentile(samples, quantiles, axis=-1)
    return low, median, high


def relative_bounds(
    low: FloatArray,
    median: FloatArray,
    high: FloatArray,
    ratio_scale: npt.NDArray[np.bool_] | bool = True,
) -> tuple[FloatArray, FloatArray]:
    """Zhang & Vogel's relative interval in percent, NaN where the median is 0 and for rows off
    a ratio scale (``ratio_scale`` False: human scores, as in
    :func:`~mtgui.engine.inference.intervals.summarize_samples`)."""
    defined = (median != 0) & ratio_scale
    safe = np.where(defined, median, 1.0)
    rel_low = np.where(defined, -100 * (median - low) / safe, np.nan)
    rel_high = np.where(defined, 100 * (high - median) / safe, np.nan)
    return rel_low, rel_high


def unordered_pairs(count: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The positions (i, j), i < j, of every unordered pair of ``count`` systems, in the order
    of :func:`itertools.combinations`."""
    first, second = np.triu_indices(count, k=1)
    return first.astype(np.int64), second.astype(np.int64)


def pair_signs(
    samples: FloatArray, level: float, higher_is_better: bool | npt.NDArray[np.bool_]
) -> npt.NDArray[np.int64]:
    """For every unordered pair (i, j) of the systems whose bootstrap scores are the rows of
    ``samples`` (one metric): +1 when i is significantly better than j, -1 when worse, 0 when
    not significantly different -- :func:`~mtgui.engine.inference.significance.compare`'s verdict,
    for all pairs at once. ``samples`` may have leading axes (..., systems, resamples), each with
    its ``higher_is_better`` (broadcast to them): the result is then (..., pairs), all tested
    in one call (the size study tests every source and metric of a subset so)."""
    first, second = unordered_pairs(samples.shape[-2])
    deltas = samples[..., first, :] - samples[..., second, :]
    tests = paired_tests(deltas.reshape(-1, deltas.shape[-1]))
    shape = deltas.shape[:-1]
    better = tests.x_above.reshape(shape) == np.asarray(higher_is_better)[..., None]
    significant = tests.significant(level).reshape(shape)
    return np.where(significant, np.where(better, 1, -1), 0).astype(np.int64)
