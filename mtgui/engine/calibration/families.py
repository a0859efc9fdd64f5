"""Simulated families of systems with known truths, to calibrate the corrections, the MDD and
the equivalence test (tests/engine/calibration/test_corrections_calibration.py and
bench/bench_corrections.py).

A test set of n segments; system s scores ``mean_s + c * difficulty_i + noise_si`` on segment
i (standard normal difficulty and noise), so that the systems' deltas are correlated through
the shared segments as real systems' are; the metric is the mean segment score. One set of
joint resamples (n segments out of n, B times) serves every pair, as in the bootstrap, and
every correction decides the same draws (:func:`~mtgui.engine.inference.corrections.decide_family`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from mtgui.engine.inference.corrections import FamilyInput, decide_family
from mtgui.engine.inference.significance import (
    EQUIVALENT,
    TIE,
    Correction,
    PairComparison,
    compare_all_defined,
)


@dataclass(frozen=True)
class FamilyOutcome:
    """What one correction found on one simulated test set."""

    false_found: int  # pairs of equal systems called different
    true_found: int  # pairs of different systems called different, the right way round
    found: int  # pairs called different
    equivalent: int  # pairs called '='
    mdd: list[float] = field(default_factory=list)


def simulate_family(
    rng: np.random.Generator,
    means: Sequence[float],
    segments: int,
    resamples: int,
    corrections: Sequence[Correction],
    level: float = 0.95,
    margin: float | None = None,
    common: float = 0.5,
) -> dict[Correction, FamilyOutcome]:
    """One simulated test set of ``len(means)`` systems, decided by each correction."""
    true = np.asarray(means, dtype=np.float64)
    difficulty = rng.standard_normal(segments)
    scores = true[:, None] + common * difficulty + rng.standard_normal((len(true), segments))
    drawn = rng.integers(0, segments, size=(resamples, segments))
    flat = (np.arange(resamples)[:, None] * segments + drawn).ravel()
    counts = np.bincount(flat, minlength=resamples * segments).reshape(resamples, segments)
    resampled = scores @ counts.T.astype(np.float64) / segments  # systems x B
    full = scores.mean(axis=1)
    pairs = list(combinations(range(len(true)), 2))
    deltas = np.array([resampled[x] - resampled[y] for x, y in pairs])
    names = [(str(x), str(y)) for x, y in pairs]
    compared = compare_all_defined(
        "m", names, [(full[x], full[y]) for x, y in pairs], deltas, level, True
    )
    family = FamilyInput(compared, deltas, [True] * len(pairs), [margin] * len(pairs))
    outcomes = {}
    for correction in corrections:
        decided = decide_family(family, correction, level, segments)
        outcomes[correction] = _outcome(decided, [true[x] - true[y] for x, y in pairs])
    return outcomes


def _outcome(decided: list[PairComparison], true_deltas: list[float]) -> FamilyOutcome:
    """Counts of what was found against the truth."""
    false_found = true_found = found = equivalent = 0
    for pair, truth in zip(decided, true_deltas, strict=True):
        if pair.verdict == EQUIVALENT:
            equivalent += 1
        elif pair.verdict != TIE:
            found += 1
            if truth == 0:
                false_found += 1
            elif (pair.verdict == ">") == (truth > 0):
                true_found += 1
    mdds = [float(p.mdd) for p in decided if p.mdd is not None]
    return FamilyOutcome(false_found, true_found, found, equivalent, mdds)
