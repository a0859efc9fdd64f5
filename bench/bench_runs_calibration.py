"""Calibration and power of comparisons between systems with several runs (``mtgui eval --runs``).

Two "systems" whose runs come from one distribution of training seeds
(:func:`mtgui.engine.runs.calibration.simulate_runs`: shared segment difficulty, a seed offset per
run with standard deviation ``run_sd``, segment noise) are compared on many simulated test sets
at the 5% level; every significant verdict is a false positive. Printed as a Markdown table, for
2, 3, 5 and 10 runs and several seed spreads, with their Monte Carlo standard errors: the share
called different by the two-level bootstrap over all runs, by approximate randomization
stratified over runs (``--paired-ar``), by the paired bootstrap of one run of each (what comparing
single training runs gives) and by Welch's t-test on the runs' scores. Then the power: the share
found different when x's seeds are shifted by 3 standard deviations of the difference of the two
systems' means (an oracle z-test that knew that deviation would find 85%), for the two-level
bootstrap and for Welch's t-test. The seed spread is given in units of the single run's
segment-level standard error (0.1 here, for 100 segments).

    python bench/bench_runs_calibration.py [--repetitions 2000] [--ar-trials 200] [--seed 1]
"""

from __future__ import annotations

import argparse
import time

from record import record

from mtgui.engine.runs.calibration import RunsCalibration, difference_sd, simulate_runs

UNITS = 100
SE = 0.1
"""One run's segment-level standard error with 100 segments of standard deviation 1."""


def cell(found: RunsCalibration, rate: float | None) -> str:
    """A rate with its Monte Carlo standard error."""
    if rate is None:
        return "-"
    return f"{rate:.1%} ± {found.standard_error(rate):.1%}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repetitions", type=int, default=2000)
    parser.add_argument("--ar-trials", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(
        "| runs | seed sd | two-level bootstrap | stratified AR | one run against one "
        "| Welch on runs | power: two-level | power: Welch |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    start = time.perf_counter()
    for runs in (2, 3, 5, 10):
        for spread in (0.0, 0.5, 1.0, 2.5, 5.0):
            run_sd = spread * SE
            common = {"runs": runs, "units": UNITS, "run_sd": run_sd, "resamples": 500}
            null = simulate_runs(
                args.repetitions, seed=args.seed, ar_trials=args.ar_trials, **common
            )
            shift = 3 * difference_sd(runs, UNITS, run_sd)
            power = simulate_runs(args.repetitions, seed=args.seed + 1, difference=shift, **common)
            print(
                f"| {runs} | {spread:.1f} se | {cell(null, null.two_level)} "
                f"| {cell(null, null.randomization)} | {cell(null, null.single_run)} "
                f"| {cell(null, null.welch)} | {cell(power, power.two_level)} "
                f"| {cell(power, power.welch)} |",
                flush=True,
            )
            key = f"{runs}_{spread}"
            record(
                "runs_calibration",
                **{
                    f"two_level_{key}": round(null.two_level, 4),
                    f"ar_{key}": round(null.randomization or 0.0, 4),
                    f"single_{key}": round(null.single_run, 4),
                    f"welch_{key}": round(null.welch, 4),
                    f"power_two_level_{key}": round(power.two_level, 4),
                    f"power_welch_{key}": round(power.welch, 4),
                },
            )
    print(
        f"\n{args.repetitions} test sets per row and {UNITS} segments, B = 500, "
        f"{args.ar_trials} AR trials, level 95%; {time.perf_counter() - start:.0f} s"
    )


if __name__ == "__main__":
    main()
