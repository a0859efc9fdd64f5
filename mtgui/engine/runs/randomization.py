"""Approximate randomization stratified over runs, MultEval's second test for systems with
several runs.

The i-th run of x is paired with the i-th run of y (a stratum); in each trial every unit
(segment or document) of every stratum swaps its statistics between the two runs with
probability 1/2, each stratum with its own coin flips; a pseudo-system's score is the mean over
the strata of its corpus-level score, as the systems' own scores are the mean over their runs.
``p = (#{|delta_r| >= |delta|} + 1) / (R + 1)``, as for single runs (Riezler & Maxwell 2005).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from mtgui.engine.core.arrays import FloatArray

AR_STREAM = 5
"""The second entry of the seed of the stratified trials (a stream of its own)."""

CHUNK = 256
"""Trials per matrix product: bounded memory whatever R."""


def stratified_randomization(
    x_runs: Sequence[FloatArray],
    y_runs: Sequence[FloatArray],
    score: Callable[[FloatArray], FloatArray],
    trials: int,
    seed: int,
) -> float:
    """The two-sided p-value of the difference of the runs' mean scores.

    ``x_runs`` and ``y_runs`` hold each run's statistics per unit (units x columns), as many
    runs on each side; ``score`` turns summed statistics (trials x columns) into scores.
    """
    if len(x_runs) != len(y_runs) or not x_runs:
        raise ValueError("stratified randomization pairs runs: give as many runs on each side")
    rng = np.random.default_rng([seed, AR_STREAM])
    xs = [np.asarray(r, dtype=np.float64) for r in x_runs]
    ys = [np.asarray(r, dtype=np.float64) for r in y_runs]
    x_totals = [x.sum(axis=0) for x in xs]
    y_totals = [y.sum(axis=0) for y in ys]
    differences = [y - x for x, y in zip(xs, ys, strict=True)]
    with np.errstate(divide="ignore", invalid="ignore"):
        observed = np.mean([score(t[None])[0] for t in x_totals]) - np.mean(
            [score(t[None])[0] for t in y_totals]
        )
    exceed, done = 0, 0
    while done < trials:
        size = min(CHUNK, trials - done)
        x_mean = np.zeros(size)
        y_mean = np.zeros(size)
        for x_total, y_total, difference in zip(x_totals, y_totals, differences, strict=True):
            masks = rng.integers(0, 2, size=(size, difference.shape[0])).astype(np.float64)
            shift = masks @ difference
            with np.errstate(divide="ignore", invalid="ignore"):
                x_mean += score(x_total + shift)
                y_mean += score(y_total - shift)
        trial = (x_mean - y_mean) / len(xs)
        exceed += int(np.sum(np.abs(trial) >= abs(observed) - 1e-12 * max(1.0, abs(observed))))
        done += size
    return (exceed + 1) / (trials + 1)
