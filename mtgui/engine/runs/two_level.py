"""Systems trained several times: the runs' mean, their spread, and a two-level bootstrap.

Clark et al. (2011) showed that a difference between two single training runs can be
"significant" on the test set and still be the luck of the optimizer's seed. MultEval reports
each system over its runs: the mean score, ``s_dev`` (here ``sd_runs``: the standard deviation
of the runs' scores, ddof 1) and ``s_sel`` (the mean of each run's bootstrap standard
deviation). A comparison of two such systems must let both sources vary, and count each once.

The two levels, on every resample of the test set (the one the bootstrap already drew, the
same segments or documents for every system):

- The test set's level: the mean of the system's runs' scores on that resample. It varies with
  the choice of segments, and with each run's own segment-level noise (the run x segment
  interaction: which segments a run happened to get right).
- The seeds' level: a draw of the mean of k seed effects, normal with the seeds' variance
  ``tau^2 / k``. The runs' spread ``sd_runs^2`` estimates ``tau^2`` plus each run's own
  segment noise, which the test set's level already varies; counted twice, it made the
  comparison blind where seeds matter little (without any seed spread: no false positive at
  the 5% level, and with 10 runs less than half the power of Welch's t-test on the runs'
  scores). So the noise is taken out, as for the variance
  components of a two-stage design (Davison & Hinkley 1997, section 3.8; the overcount of
  resampling both ways of a crossed design is Owen's 2007 pigeonhole bootstrap's):
  ``tau^2 = max(sd_runs^2 - w, 0)``, where ``w``, the noise in one run's score, is read from
  the resamples themselves (how much the runs' deviations from their mean vary from resample
  to resample: the resamples are shared, so only that noise moves them).
  The seeds are drawn from a normal rather than resampled: 2 to 10 runs drawn with
  replacement give 3 to a few thousand distinct means, bounded by the extreme runs, whose
  tails no percentile can be read from (with 2 runs half the draws are the mean itself).

``tau^2`` is known from k - 1 degrees of freedom (fewer where the noise takes much of
``sd_runs^2``: Satterthwaite's 1946 rule for a difference of mean squares), so a normal
reference is too light in the tails: with 3 runs it called 6-12% of equal systems different.
:func:`welch_factor` gives the Welch-Satterthwaite degrees of freedom of the whole variance
(the test set's part with n - 1, each system's seed part with its own) and the ratio of
Student's t quantile to the normal's at the level; the resampled scores are stretched about the
resamples' mean by that ratio, so the percentile interval and the p-value at the level are those
of Welch's test with the two-level variance (the "expanded percentile interval" of Hesterberg
2015, with Welch's degrees of freedom). With many runs, or without a seed spread, the factor is
near 1 and the comparison is the paired bootstrap of the runs' mean. The factor is taken at the
run's level: the smaller levels at which Holm's or Benjamini-Hochberg's correction decides some
pairs would call for a slightly larger one (Student's tail grows faster than the normal's).

Pure functions of the bootstrap's resample scores (one array of B scores per run), so the same
code serves ``mtgui eval --runs``, the API and the calibration simulation.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from mtgui.engine.core.arrays import FloatArray

RUN_STREAM = 4
"""The second entry of the seed of the seeds' draws: a stream of their own, so that the
resamples of the segments are those of the same run without --runs."""


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


@dataclass(frozen=True)
class TwoLevel:
    """One system's two-level resamples under one metric.

    ``samples``: the score on each resample (the runs' mean plus a draw of the seeds' level);
    ``runs_mean``: the runs' mean on each resample (the test set's level alone);
    ``seed_variance``: tau^2 / k, the variance of the mean of k seed effects (0 for one run or
    no spread beyond the segment noise); ``seed_df``: its degrees of freedom (Satterthwaite).
    """

    samples: FloatArray
    runs_mean: FloatArray
    seed_variance: float
    seed_df: float


def draw_runs(seed: int, groups: Sequence[RunGroup], resamples: int) -> dict[str, FloatArray]:
    """For every group, the standard normal draw of its seeds' level on each resample; one
    stream for all groups, in their order, so a group's draws are the same whichever pair it is
    compared in."""
    rng = np.random.default_rng([seed, RUN_STREAM])
    return {g.name: rng.standard_normal(resamples) for g in groups}


def seed_variance(
    scores: Sequence[float], run_samples: Sequence[FloatArray], units: int
) -> tuple[float, float]:
    """tau^2 / k and its degrees of freedom, from the runs' scores and their resample scores
    (the same resamples for every run) over ``units`` units: ``sd_runs^2`` less the part of
    it that is each run's segment noise (see the module docstring)."""
    values = np.asarray(scores, dtype=np.float64)
    runs = len(values)
    if runs < 2:
        return 0.0, math.inf
    stacked = np.vstack([np.asarray(s, dtype=np.float64) for s in run_samples])  # k x B
    defined = stacked[:, np.isfinite(stacked).all(axis=0)]  # resamples where every run scores
    noise = 0.0
    if defined.shape[1] > 1:
        deviations = defined - defined.mean(axis=0)
        noise = float(deviations.var(axis=1, ddof=1).sum() / (runs - 1))
    spread = float(values.var(ddof=1))
    tau2 = max(spread - noise, 0.0)
    if not math.isfinite(tau2) or tau2 == 0.0:
        return 0.0, math.inf
    noise_df = (runs - 1) * max(units - 1, 1)
    df = tau2**2 / (spread**2 / (runs - 1) + noise**2 / noise_df)
    return tau2 / runs, df


def two_level(
    scores: Sequence[float],
    run_samples: Sequence[FloatArray],
    normals: FloatArray,
    units: int,
) -> TwoLevel:
    """One system's two-level resamples (see :class:`TwoLevel`) from its runs' scores, their
    resample scores (one row per run, the same test-set resamples) and the standard normal draws
    of its seeds' level (see :func:`draw_runs`)."""
    stacked = np.vstack([np.asarray(s, dtype=np.float64) for s in run_samples])  # k x B
    runs_mean = stacked.mean(axis=0)
    variance, df = seed_variance(scores, run_samples, units)
    samples = runs_mean + math.sqrt(variance) * np.asarray(normals, dtype=np.float64)
    return TwoLevel(samples, runs_mean, variance, df)


def welch_factor(parts: Sequence[tuple[float, float]], level: float) -> float:
    """Student's t quantile over the normal's at ``level`` (two-sided), with the
    Welch-Satterthwaite degrees of freedom of a variance made of ``parts`` (each a variance and
    its degrees of freedom): how far to stretch normal-tailed resamples so that their percentile
    interval is Student's. 1 when the parts are known exactly (infinite degrees of freedom)."""
    from scipy.special import ndtri, stdtrit  # only for systems with runs

    kept = [(v, df) for v, df in parts if v > 0 and math.isfinite(v)]
    total = sum(v for v, _ in kept)
    spread = sum(v * v / df for v, df in kept)
    if total <= 0 or spread <= 0:
        return 1.0
    tail = 1 - (1 - level) / 2
    return float(stdtrit(total * total / spread, tail) / ndtri(tail))


def stretched(samples: FloatArray, factor: float) -> FloatArray:
    """``samples`` moved away from their mean by ``factor`` (see :func:`welch_factor`): they
    keep their centre (and so the bootstrap's own bias, multiplied by nothing) and only widen.
    Two systems' samples stretched by one factor are their difference's stretched the same."""
    values = np.asarray(samples, dtype=np.float64)
    defined = values[~np.isnan(values)]
    if factor == 1.0 or not len(defined):
        return values
    centre = float(defined.mean())
    return np.asarray(centre + factor * (values - centre))


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


def group_levels(
    groups: Sequence[RunGroup],
    scores: Mapping[str, float],
    samples: Mapping[str, FloatArray],
    normals: Mapping[str, FloatArray],
    units: int,
) -> dict[str, TwoLevel]:
    """Every group's two-level resamples under one metric, from each run's score and resample
    scores (by run name)."""
    return {
        g.name: two_level(
            [scores[r] for r in g.runs], [samples[r] for r in g.runs], normals[g.name], units
        )
        for g in groups
    }


def pair_factor(x: TwoLevel, y: TwoLevel, units: int, level: float) -> float:
    """The stretch of a comparison of x and y (see :func:`welch_factor`): the test set's part
    is the variance of their runs' means' difference over the resamples (n - 1 degrees of
    freedom), the seeds' parts are each system's own."""
    difference = x.runs_mean - y.runs_mean
    defined = difference[~np.isnan(difference)]
    test_set = float(defined.var(ddof=1)) if len(defined) > 1 else 0.0
    parts = [(test_set, units - 1), (x.seed_variance, x.seed_df), (y.seed_variance, y.seed_df)]
    return welch_factor(parts, level)


def system_factor(x: TwoLevel, units: int, level: float) -> float:
    """The stretch of one system's own interval (its test-set part and its seeds' part)."""
    defined = x.runs_mean[~np.isnan(x.runs_mean)]
    test_set = float(defined.var(ddof=1)) if len(defined) > 1 else 0.0
    return welch_factor([(test_set, units - 1), (x.seed_variance, x.seed_df)], level)
