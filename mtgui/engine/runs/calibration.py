"""The calibration of comparisons between systems with runs: how often two "systems" whose runs
come from the same distribution of training seeds are called different.

Each simulated test set has ``units`` segments with a shared difficulty (the same for every
system, as real test segments are), each run adds its own offset (the seed's luck, standard
deviation ``run_sd``) and its own segment noise (``unit_sd``); the metric is the mean of the
segment scores. Both systems are drawn from the same distribution, so every significant verdict
is a false positive. The two-level bootstrap (:mod:`~mtgui.engine.runs.two_level`) must keep
their rate at or below 1 - level; comparing one run of each, as a single-file comparison does,
shows the inflation that the seeds' spread causes (Clark et al. 2011).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mtgui.engine.core.arrays import FloatArray
from mtgui.engine.runs.two_level import two_level_samples


@dataclass(frozen=True)
class RunsCalibration:
    """False-positive rates over ``repetitions`` simulated test sets, and their Monte Carlo
    standard errors."""

    repetitions: int
    two_level: float
    single_run: float

    def standard_error(self, rate: float) -> float:
        """The binomial standard error of a rate over the repetitions."""
        return float(np.sqrt(max(rate * (1 - rate), 1e-12) / self.repetitions))


def _p_value(deltas: FloatArray) -> float:
    """The engine's two-sided bootstrap p-value of one row of deltas."""
    below, above = int((deltas <= 0).sum()), int((deltas >= 0).sum())
    return min(1.0, 2 * (min(below, above) + 1) / (len(deltas) + 1))


def simulate_runs_null(
    repetitions: int,
    runs: int = 5,
    units: int = 100,
    run_sd: float = 0.05,
    unit_sd: float = 1.0,
    resamples: int = 200,
    level: float = 0.95,
    seed: int = 1,
) -> RunsCalibration:
    """The false-positive rates of the two-level bootstrap (``runs`` runs per system) and of
    the paired bootstrap of one run against one run, on the same simulated test sets."""
    rng = np.random.default_rng(seed)
    alpha = 1 - level
    two_level = single = 0
    for _ in range(repetitions):
        difficulty = rng.normal(0.0, 1.0, units)
        offsets = rng.normal(0.0, run_sd, (2, runs, 1))
        scores = difficulty + offsets + rng.normal(0.0, unit_sd, (2, runs, units))
        counts = rng.multinomial(units, np.full(units, 1 / units), size=resamples)
        resampled = scores @ counts.T.astype(np.float64) / units  # 2 x runs x B
        drawn = rng.integers(0, runs, size=(2, resamples, runs))
        x = two_level_samples(list(resampled[0]), drawn[0])
        y = two_level_samples(list(resampled[1]), drawn[1])
        two_level += _p_value(x - y) < alpha
        single += _p_value(resampled[0, 0] - resampled[1, 0]) < alpha
    return RunsCalibration(repetitions, two_level / repetitions, single / repetitions)
