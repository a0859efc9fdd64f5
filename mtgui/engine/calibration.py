"""Checking that the bootstrap's intervals mean what they say (Koehn 2004, section 7).

A large synthetic pool of segments is scored by two systems whose true difference is known;
many small test sets are drawn from it and bootstrapped; a calibrated 95% interval covers the
pool's true score in about 95% of them. Used by the test suite (small, fixed seed) and by
``bench/bench_calibration.py`` (large).
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from mtgui.engine.analysis import BootstrapResult, iter_bootstrap
from mtgui.engine.bootstrap import BootstrapSettings
from mtgui.engine.metrics.base import FloatArray
from mtgui.engine.metrics.bleu import ORDER, Bleu
from mtgui.engine.running import run_to_end
from mtgui.engine.settings import MetricSettings
from mtgui.engine.statistics import Statistics, SystemStatistics


@dataclass(frozen=True)
class Coverage:
    """How often the intervals of the small test sets covered the pool's true values."""

    test_sets: int
    score_covered: float  # share of intervals of system A's BLEU that hold its pool BLEU
    delta_covered: float  # share of paired-delta intervals that hold the pool's B - A
    true_score: float
    true_delta: float


def synthetic_pool(size: int, better_by: float, seed: int) -> tuple[FloatArray, FloatArray]:
    """BLEU statistics rows of two systems on ``size`` segments; B's precisions are higher.

    Segments differ in length and difficulty (shared by both systems, as real test sets do);
    each n-gram order matches with a probability that falls with n.
    """
    rng = np.random.default_rng(seed)
    difficulty = rng.beta(4, 4, size)
    ref_len = rng.integers(8, 40, size)

    def system(boost: float) -> FloatArray:
        hyp_len = np.maximum(1, ref_len + rng.integers(-3, 4, size))
        totals = np.maximum(hyp_len[:, None] - np.arange(ORDER)[None, :], 0)
        chance = np.clip((0.75 + boost) * difficulty[:, None] ** (1 + np.arange(ORDER)), 0, 1)
        matches = rng.binomial(totals, chance)
        return np.column_stack([hyp_len, ref_len, matches, totals]).astype(np.float64)

    return system(0.0), system(better_by)


def measure_coverage(
    pool: tuple[FloatArray, FloatArray],
    test_size: int,
    test_sets: int,
    settings: BootstrapSettings,
    seed: int,
) -> Generator[int, None, Coverage]:
    """Bootstrap ``test_sets`` random test sets of ``test_size`` segments, yielding progress."""
    bleu = Bleu()
    true_a, true_b = (bleu.score_one(rows.sum(axis=0)) for rows in pool)
    rng = np.random.default_rng(seed)
    score_hits = delta_hits = 0
    for done in range(1, test_sets + 1):
        chosen = rng.choice(len(pool[0]), size=test_size, replace=False)
        result = _bootstrap(pool[0][chosen], pool[1][chosen], settings)
        interval = result.interval("A", "bleu")
        score_hits += interval.ci_low <= true_a <= interval.ci_high
        pair = result.pair("bleu", "B", "A")
        delta_hits += pair.ci_low <= true_b - true_a <= pair.ci_high
        yield done
    return Coverage(
        test_sets, score_hits / test_sets, delta_hits / test_sets, true_a, true_b - true_a
    )


def _bootstrap(
    rows_a: FloatArray, rows_b: FloatArray, settings: BootstrapSettings
) -> BootstrapResult:
    """The analysis of one small test set."""
    statistics = Statistics(
        MetricSettings(),
        (Bleu(),),
        (
            SystemStatistics("A", MappingProxyType({"bleu": rows_a})),
            SystemStatistics("B", MappingProxyType({"bleu": rows_b})),
        ),
    )
    return run_to_end(iter_bootstrap(statistics, settings))
