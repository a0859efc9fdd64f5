"""Calibration, the long version (Koehn 2004, section 7): interval coverage by test-set size.

For test sets of 100, 300 and 1,000 segments drawn from a synthetic pool of 50,000 segments,
bootstrap 5,000 of each (B = 1,000) and report how often the 95% interval holds the pool's true
BLEU and the pair's true difference. A calibrated method covers about 95%.

    python bench/bench_calibration.py [--test-sets 5000]
"""

from __future__ import annotations

import argparse
import time

from mtgui.engine.bootstrap import BootstrapSettings
from mtgui.engine.calibration import measure_coverage, synthetic_pool
from mtgui.engine.running import run_to_end


def main() -> None:
    """Print the coverage table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--test-sets", type=int, default=5000)
    args = parser.parse_args()
    pool = synthetic_pool(50_000, better_by=0.03, seed=11)
    print(f"{'segments':>8}  {'test sets':>9}  {'score covered':>13}  {'delta covered':>13}  time")
    for size in (100, 300, 1000):
        start = time.perf_counter()
        generator = measure_coverage(pool, size, args.test_sets, BootstrapSettings(), seed=size)
        coverage = run_to_end(generator)
        print(
            f"{size:>8}  {coverage.test_sets:>9}  {coverage.score_covered:>13.1%}  "
            f"{coverage.delta_covered:>13.1%}  {time.perf_counter() - start:.0f} s"
        )


if __name__ == "__main__":
    main()
