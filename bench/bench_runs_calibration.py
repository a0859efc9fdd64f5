"""Calibration of comparisons between systems with several runs (``mtgui eval --runs``).

Two "systems" whose runs come from one distribution of training seeds
(:func:`mtgui.engine.runs.calibration.simulate_runs_null`: shared segment difficulty, a seed
offset per run with standard deviation ``run_sd``, segment noise) are compared on many simulated
test sets at the 5% level; every significant verdict is a false positive. Printed as a Markdown
table, for several numbers of runs and seed spreads: the share called different by the two-level
bootstrap over all runs, and by the paired bootstrap of one run of each (what comparing single
training runs gives), each with its Monte Carlo standard error. The seed spread is given in
units of the single run's segment-level standard error (0.1 here, for 100 segments).

    python bench/bench_runs_calibration.py [--repetitions 2000] [--seed 1]
"""

from __future__ import annotations

import argparse
import time

from record import record

from mtgui.engine.runs.calibration import simulate_runs_null


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repetitions", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print("| runs | seed sd | two-level bootstrap | one run against one |")
    print("|---:|---:|---:|---:|")
    start = time.perf_counter()
    for runs in (3, 5, 10):
        for run_sd in (0.0, 0.05, 0.1, 0.25):
            found = simulate_runs_null(
                args.repetitions,
                runs=runs,
                units=100,
                run_sd=run_sd,
                resamples=500,
                seed=args.seed,
            )
            two, one = found.two_level, found.single_run
            print(
                f"| {runs} | {run_sd / 0.1:.1f} se | {two:.1%} +- {found.standard_error(two):.1%} "
                f"| {one:.1%} +- {found.standard_error(one):.1%} |"
            )
            record(
                "runs_calibration",
                **{
                    f"two_level_{runs}_{run_sd}": round(two, 4),
                    f"single_{runs}_{run_sd}": round(one, 4),
                },
            )
    print(
        f"\n{args.repetitions} test sets per row, B = 500, level 95%; "
        f"{time.perf_counter() - start:.0f} s"
    )


if __name__ == "__main__":
    main()
