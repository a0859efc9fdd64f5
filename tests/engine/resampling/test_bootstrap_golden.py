"""Paired tests against sacreBLEU's golden p-values on every shared dataset.

sacreBLEU draws its paired-bootstrap resamples with ``numpy.random.default_rng(12345)``,
``choice(N, size=(B, N))``; mtgui's segment resampling draws the same stream with the same seed,
so its means and intervals, and sacreBLEU's p-value (kept as ``p_value_sacrebleu``), reproduce
sacreBLEU's up to sacreBLEU's float32 sums. The
approximate-randomization masks come from different streams: there the p-values agree within
Monte Carlo error, |p - p_ref| <= 4 sqrt(2 p (1 - p) / R) + 2 / (R + 1) (two independent
estimates of the same probability, four standard errors).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from shared_corpora import DATASETS, MISSING, golden, statistics

from mtgui.engine.core.running import run_to_end
from mtgui.engine.resampling.bootstrap import iter_bootstrap
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.engine.text.settings import Case

pytestmark = pytest.mark.shared

METRICS = {"BLEU": ("bleu", 100.0), "chrF2": ("chrf", 1.0), "TER": ("ter", 1.0)}


def run(statistics_, settings):
    return run_to_end(iter_bootstrap(statistics_, settings))


def cases() -> list:
    return [pytest.param(d, id=d) for d in DATASETS] or [pytest.param("", marks=MISSING)]


def setup(dataset):
    info = golden(dataset)
    paired = info["sacrebleu"]["paired_bootstrap"]
    refset = paired["reference_set"]
    refs = tuple(r["id"] for r in info["references"] if refset == "single" or r["id"] in refset)
    stats = statistics(dataset, "txt", refs, Case.SENSITIVE, ("bleu", "chrf", "ter"))
    return info, stats


@pytest.mark.parametrize("dataset", cases())
def test_paired_bootstrap_reproduces_sacrebleu(dataset):
    info, stats = setup(dataset)
    paired = info["sacrebleu"]["paired_bootstrap"]
    baseline = paired["baseline_sysid"]
    result = run(stats, BootstrapSettings(resamples=paired["n_samples"], seed=12345))
    for system, golden_metrics in paired["results"].items():
        for name, expected in golden_metrics.items():
            metric, scale = METRICS[name]
            samples = result.interval(system, metric).samples * scale
            ordered = np.sort(samples)
            cut = len(ordered) // 40  # sacreBLEU's estimate_ci
            assert samples.mean() == pytest.approx(expected["mean"], abs=1e-4)
            half_width = 0.5 * (ordered[-cut - 1] - ordered[cut])
            assert half_width == pytest.approx(expected["ci_halfwidth"], abs=1e-4)
            if system != baseline:
                p = result.pair(metric, system, baseline).p_value_sacrebleu
                assert p == pytest.approx(expected["p_value"], abs=2 / (len(samples) + 1))


@pytest.mark.parametrize("dataset", cases())
def test_approximate_randomization_agrees_with_sacrebleu_within_monte_carlo_error(dataset):
    info, stats = setup(dataset)
    ar = info["sacrebleu"]["paired_approximate_randomization"]
    trials, baseline = ar["n_samples"], ar["baseline_sysid"]
    result = run(stats, BootstrapSettings(resamples=100, ar_trials=trials, seed=12345))
    for system, golden_metrics in ar["results"].items():
        if system == baseline:
            continue
        for name, expected in golden_metrics.items():
            metric, _ = METRICS[name]
            p, reference = result.pair(metric, system, baseline).p_value_ar, expected["p_value"]
            tolerance = 4 * math.sqrt(2 * reference * (1 - reference) / trials) + 2 / (trials + 1)
            assert abs(p - reference) <= tolerance, (system, name, p, reference)


@pytest.mark.parametrize("dataset", cases())
def test_relative_intervals_have_the_shape_of_zhang_and_vogel_table_1(dataset):
    """A few percent for BLEU, less for NIST: on their 878-segment, 4-reference set BLEU's
    relative CIs are +-4-7% and NIST's +-1.7-2.7%; the shared sets give BLEU +-2.5-4% and NIST
    +-1.3-2% (README)."""
    info = golden(dataset)
    refs = tuple(r["id"] for r in info["references"])
    stats = statistics(dataset, "sgm", refs, Case.SENSITIVE, ("bleu", "nist"))
    result = run(stats, BootstrapSettings())
    for system in stats.system_names:
        bleu, nist = result.interval(system, "bleu"), result.interval(system, "nist")
        bleu_width = bleu.rel_ci_high - bleu.rel_ci_low
        nist_width = nist.rel_ci_high - nist.rel_ci_low
        assert 2 < bleu_width < 12, (system, bleu_width)
        assert nist_width < bleu_width / 1.5, (system, nist_width, bleu_width)
        assert bleu.rel_ci_low < 0 < bleu.rel_ci_high
