"""Systems trained several times: the runs' mean, their spread, and a two-level bootstrap.

Clark et al. (2011) showed that a difference between two single training runs can be
"significant" on the test set and still be the luck of the optimizer's seed. MultEval reports
each system over its runs: the mean score, ``s_dev`` (here ``sd_runs``: the standard deviation
of the runs' scores, ddof 1) and ``s_sel`` (the mean of each run's bootstrap standard
deviation). A comparison of two such systems must let both sources vary: the two-level
bootstrap draws, for every resample of the test set (the one the bootstrap already drew, the
same segments or documents for every system), each system's runs with replacement and averages
the drawn runs' scores on that resample.

The runs' level is rescaled: the mean of k runs drawn with replacement varies by
(k - 1)/k of the runs' true spread (the bootstrap's known bias for a mean), so each system's
drawn mean is moved away from the mean of all its runs by sqrt(k / (k - 1)), which makes the
resampled variance of a system's score that of the mean of k runs. Without it, five runs give
an interval too narrow by 11% and a false-positive rate above the level.

Pure functions of the bootstrap's resample scores (one array of B scores per run), so the same
code serves ``mtgui eval --runs``, the API and the calibration simulation.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from mtgui.engine.core.arrays import FloatArray, IntArray

RUN_STREAM = 4
"""The second entry of the seed of the run draws: a stream of their own, so that the resamples
of the segments are those of the same run without --runs."""


@dataclass(frozen=True)
class RunGroup:
    """One system made of several runs: its name and the names its runs have in the corpus."""

    name: str
    runs: tuple[str, ...]


@dataclass(frozen=True)
class RunSummary:
    """One system over its runs, under one metric.

    ``score`` is the mean of the runs' scores; ``sd_runs`` their standard deviation (ddof 1;
    NaN with one run); ``s_sel`` the mean of the runs' bootstrap standard deviations (MultEval's
    s_sel, the spread that comes from the choice of test segments); ``ci_low``/``ci_high`` the
    percentile interval of the two-level resampled score.
    """

    system: str
    metric: str
    runs: tuple[float, ...]
    score: float
    sd_runs: float
    s_sel: float
    ci_low: float
    ci_high: float


def draw_runs(seed: int, groups: Sequence[RunGroup], resamples: int) -> dict[str, IntArray]:
    """For every group, which of its runs each resample draws (B x k indices, with
    replacement); one stream for all groups, in their order, so a group's draws are the same
    whichever pair it is compared in."""
    rng = np.random.default_rng([seed, RUN_STREAM])
    return {g.name: rng.integers(0, len(g.runs), size=(resamples, len(g.runs))) for g in groups}


def two_level_samples(run_samples: Sequence[FloatArray], drawn: IntArray) -> FloatArray:
    """One system's two-level resample scores from its runs' resample scores (one row per run,
    the same test-set resamples) and the runs drawn for each resample (see :func:`draw_runs`),
    with the runs' level rescaled by sqrt(k / (k - 1)) (see the module docstring)."""
    stacked = np.vstack([np.asarray(s, dtype=np.float64) for s in run_samples])  # k x B
    runs, resamples = stacked.shape
    if runs == 1:
        return stacked[0].copy()
    chosen = stacked[drawn.T, np.arange(resamples)]  # k x B: the drawn run's score per resample
    centre = stacked.mean(axis=0)
    return np.asarray(centre + math.sqrt(runs / (runs - 1)) * (chosen.mean(axis=0) - centre))


def summarize_runs(
    system: str,
    metric: str,
    scores: Sequence[float],
    stds: Sequence[float],
    samples: FloatArray,
    level: float,
) -> RunSummary:
    """The summary of one system's runs (see :class:`RunSummary`)."""
    values = np.asarray(scores, dtype=np.float64)
    sd = float(values.std(ddof=1)) if len(values) > 1 else math.nan
    defined = samples[~np.isnan(samples)]
    low = high = math.nan
    if len(defined):
        tail = (1 - level) / 2 * 100
        low, high = (float(v) for v in np.percentile(defined, [tail, 100 - tail]))
    return RunSummary(
        system,
        metric,
        tuple(float(v) for v in values),
        float(values.mean()),
        sd,
        float(np.mean(stds)),
        low,
        high,
    )


def group_samples(
    groups: Sequence[RunGroup],
    samples: Mapping[str, FloatArray],
    drawn: Mapping[str, IntArray],
) -> dict[str, FloatArray]:
    """Every group's two-level resample scores under one metric, from each run's resample
    scores (``samples`` by run name)."""
    return {
        g.name: two_level_samples([samples[run] for run in g.runs], drawn[g.name]) for g in groups
    }
