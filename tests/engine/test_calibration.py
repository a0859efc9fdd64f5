"""Calibration as Koehn (2004, section 7) validated it: do 95% intervals cover 95% of the time?

A pool of 20,000 synthetic segments for two systems with a known true difference; 2,000 test
sets of 300 segments drawn from it, each bootstrapped with B = 1,000. Over several seeds the
coverage here is 93-96% (the percentile bootstrap of a ratio statistic like BLEU runs slightly
below its nominal level on small test sets); the seed is fixed so the test is repeatable.
``bench/bench_calibration.py`` runs the long version over several test-set sizes.
"""

from __future__ import annotations

from mtgui.engine.bootstrap import BootstrapSettings
from mtgui.engine.calibration import measure_coverage, synthetic_pool
from mtgui.engine.running import run_to_end


def test_95_percent_intervals_cover_the_true_score_93_to_97_percent_of_the_time():
    pool = synthetic_pool(20_000, better_by=0.03, seed=1)
    generator = measure_coverage(pool, 300, 2000, BootstrapSettings(resamples=1000), seed=2)
    coverage = run_to_end(generator)
    assert coverage.true_delta > 0
    assert 0.93 <= coverage.score_covered <= 0.97
    assert 0.93 <= coverage.delta_covered <= 0.97
