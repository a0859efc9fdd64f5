"""The calibration of comparisons between systems with runs: how often two "systems" whose runs
come from the same distribution of training seeds are called different, and how often two that
truly differ are.

Each simulated test set has ``units`` segments with a shared difficulty (the same for every
system, as real test segments are), each run adds its own offset (the seed's luck, standard
deviation ``run_sd``) and its own segment noise (``unit_sd``); the metric is the mean of the
segment scores. With ``difference`` 0 both systems are drawn from the same distribution, so
every significant verdict is a false positive: the two-level bootstrap
(:mod:`~mtgui.engine.runs.two_level`) and the stratified randomization
(:mod:`~mtgui.engine.runs.randomization`) must keep their rate at or below 1 - level; comparing
one run of each, as a single-file comparison does, shows the inflation that the seeds' spread
causes (Clark et al. 2011). Welch's t-test on the runs' scores (what Reimers & Gurevych 2018
advise for seeds) is the yardstick of power when x's seeds are shifted by ``difference``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from mtgui.engine.core.arrays import FloatArray
from mtgui.engine.runs.randomization import stratified_randomization
from mtgui.engine.runs.two_level import pair_factor, stretched, two_level


@dataclass(frozen=True)
class RunsCalibration:
    """The shares of simulated test sets on which each test called the systems different, and
    their Monte Carlo standard errors (``randomization`` is None when it was not run)."""

    repetitions: int
    two_level: float
    single_run: float
    welch: float
    randomization: float | None = None

    def standard_error(self, rate: float) -> float:
        """The binomial standard error of a rate over the repetitions."""
        return float(np.sqrt(max(rate * (1 - rate), 1e-12) / self.repetitions))


def _p_value(deltas: FloatArray) -> float:
    """The engine's two-sided bootstrap p-value of one row of deltas."""
    below, above = int((deltas <= 0).sum()), int((deltas >= 0).sum())
    return min(1.0, 2 * (min(below, above) + 1) / (len(deltas) + 1))


def _welch_p(x: FloatArray, y: FloatArray) -> float:
    """Welch's two-sided t-test p-value of two sets of run scores."""
    from scipy.special import stdtr

    vx, vy = x.var(ddof=1) / len(x), y.var(ddof=1) / len(y)
    if vx + vy <= 0:
        return 1.0
    df = (vx + vy) ** 2 / (vx**2 / (len(x) - 1) + vy**2 / (len(y) - 1))
    t = abs(x.mean() - y.mean()) / math.sqrt(vx + vy)
    return float(2 * stdtr(df, -t))


def _mean_score(sums: FloatArray, units: int) -> FloatArray:
    """The metric of the simulation on summed segment scores: their mean."""
    return np.asarray(sums[:, 0] / units)


def difference_sd(runs: int, units: int, run_sd: float, unit_sd: float = 1.0) -> float:
    """The standard deviation of the difference of two systems' mean scores over ``runs`` runs
    in the simulation (the shared difficulty cancels): the unit in which ``difference`` is
    naturally given (3 of them: an oracle z-test at 5% finds 85%)."""
    return math.sqrt(2 * (run_sd**2 + unit_sd**2 / units) / runs)


def simulate_runs(
    repetitions: int,
    runs: int = 5,
    units: int = 100,
    run_sd: float = 0.05,
    unit_sd: float = 1.0,
    resamples: int = 200,
    level: float = 0.95,
    seed: int = 1,
    difference: float = 0.0,
    ar_trials: int = 0,
) -> RunsCalibration:
    """The shares called different by the two-level bootstrap (``runs`` runs per system), by
    stratified randomization (with ``ar_trials``), by Welch's t-test on the runs' scores and by
    the paired bootstrap of one run against one run, on the same simulated test sets."""
    rng = np.random.default_rng(seed)
    alpha = 1 - level
    found = {"two_level": 0, "single": 0, "welch": 0, "ar": 0}
    for _ in range(repetitions):
        difficulty = rng.normal(0.0, 1.0, units)
        offsets = rng.normal(0.0, run_sd, (2, runs, 1))
        offsets[0] += difference
        scores = difficulty + offsets + rng.normal(0.0, unit_sd, (2, runs, units))
        counts = rng.multinomial(units, np.full(units, 1 / units), size=resamples)
        resampled = scores @ counts.T.astype(np.float64) / units  # 2 x runs x B
        normals = rng.standard_normal((2, resamples))
        full = scores.mean(axis=2)  # 2 x runs
        x = two_level(list(full[0]), list(resampled[0]), normals[0], units)
        y = two_level(list(full[1]), list(resampled[1]), normals[1], units)
        factor = pair_factor(x, y, units, level)
        deltas = stretched(x.samples - y.samples, factor)
        found["two_level"] += _p_value(deltas) < alpha
        found["single"] += _p_value(resampled[0, 0] - resampled[1, 0]) < alpha
        found["welch"] += _welch_p(full[0], full[1]) < alpha
        if ar_trials:
            p = stratified_randomization(
                [s[:, None] for s in scores[0]],
                [s[:, None] for s in scores[1]],
                lambda sums: _mean_score(sums, units),
                ar_trials,
                int(rng.integers(2**31)),
            )
            found["ar"] += p < alpha
    return RunsCalibration(
        repetitions,
        found["two_level"] / repetitions,
        found["single"] / repetitions,
        found["welch"] / repetitions,
        found["ar"] / repetitions if ar_trials else None,
    )
