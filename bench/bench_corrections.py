"""Corrections for many comparisons, the long version, and what max-T, the MDD and TOST cost.

``calibration``: simulated families (``mtgui.engine.calibration.families``; 100 segments, the
systems' deltas correlated through shared segment difficulty) at the default B, raised as mtgui
raises it where a correction needs more (Holm and BH with 20 systems: 8,000). For 10 and 20
systems it prints, as a Markdown table with Monte Carlo standard errors:
- on exchangeable systems (every null true): the family-wise error of none, holm, fdr, maxt;
- on systems with known differences (a quarter equal to the best, the rest spread below): the
  family-wise error among the equal ones, the share of real differences found (power), and
  the share of false ones among those found (the FDR).

``speed``: ``mtgui eval`` of the standing benchmark (``bench_end_to_end.py``'s set and command)
from this checkout, side by side with another source tree (``--before``, e.g. the code before
max-T, the MDD and TOST: ``git archive <commit> | tar -x -C DIR``), alternating runs; and this
checkout again with ``--correction maxt --equivalence bleu=0.01``.

    python bench/bench_corrections.py calibration [--test-sets 500] [--seed 33]
    python bench/bench_corrections.py speed --before DIR [--runs 5] [--shared DIR]
"""

from __future__ import annotations

import argparse
import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from mtgui.engine.calibration.families import simulate_family
from mtgui.engine.inference.significance import Correction
from mtgui.engine.resampling.settings import BootstrapSettings

SEGMENTS = 100


def resamples_for(correction: Correction, systems: int) -> int:
    """The B mtgui uses: the default, raised where the correction needs more."""
    settings = BootstrapSettings(correction=correction)
    return settings.enough_for(systems, 1).resamples


def share(values: list[float]) -> str:
    """A share with its Monte Carlo standard error."""
    mean = float(np.mean(values))
    error = float(np.std(values, ddof=1)) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return f"{mean:.3f} ± {error:.3f}"


def calibration(
    test_sets: int, seed: int, segments: int, sizes: list[int], corrections: list[Correction]
) -> None:
    """The tables of the module docstring."""
    print(f"{segments} segments per test set, {test_sets} test sets per row")
    print("| systems | correction | B | FWER, all equal | FWER, some differ | power | FDR |")
    print("|---|---|---|---|---|---|---|")
    for systems in sizes:
        equal = systems // 4
        spread = list(np.linspace(0.1, 0.6, systems - equal))
        means = [0.6] * equal + spread[::-1]
        for correction in corrections:
            resamples = resamples_for(correction, systems)
            rng = np.random.default_rng([seed, systems, list(Correction).index(correction)])
            start = time.perf_counter()
            null, fwer, power, fdr = [], [], [], []
            real = sum(1 for i in range(systems) for j in range(i) if means[i] != means[j])
            for _ in range(test_sets):
                (outcome,) = simulate_family(
                    rng, [0.0] * systems, segments, resamples, [correction]
                ).values()
                null.append(float(outcome.false_found > 0))
                (outcome,) = simulate_family(rng, means, segments, resamples, [correction]).values()
                fwer.append(float(outcome.false_found > 0))
                power.append(outcome.true_found / real)
                fdr.append(outcome.false_found / max(outcome.found, 1))
            seconds = time.perf_counter() - start
            print(
                f"| {systems} | {correction} | {resamples:,} | {share(null)} | {share(fwer)} | "
                f"{share(power)} | {share(fdr)} |",
                flush=True,
            )
            print(f"<!-- {test_sets} test sets, {seconds:.0f} s -->", file=sys.stderr)


def speed(before: Path, runs: int, shared: Path | None) -> None:
    """The standing benchmark's mtgui run, this checkout against ``before``."""
    sys.path.insert(0, str(Path(__file__).parent))
    import bench_end_to_end
    import bench_statistics

    if shared is not None:
        bench_statistics.SHARED = shared
    here = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        refs, systems = bench_statistics.write_set(folder)
        command = bench_end_to_end.mtgui_command(refs, systems, folder)
        extra = ["--correction", "maxt", "--equivalence", "bleu=0.01"]
        variants = {
            "before": (command, before),
            "now": (command, here),
            "now, maxt + equivalence": ([*command, *extra], here),
        }
        times: dict[str, list[float]] = {key: [] for key in variants}
        cpu: dict[str, list[float]] = {key: [] for key in variants}
        for _ in range(runs):
            for key, (words, tree) in variants.items():
                environment = {**os.environ, "PYTHONPATH": str(tree)}
                used = _children_cpu()
                start = time.perf_counter()
                subprocess.run(words, check=True, capture_output=True, env=environment)
                times[key].append(time.perf_counter() - start)
                cpu[key].append(_children_cpu() - used)
        for name, measured in (("wall", times), ("CPU", cpu)):
            base = statistics.median(measured["before"])
            for key, values in measured.items():
                middle = statistics.median(values)
                runs_text = ", ".join(f"{v:.2f}" for v in values)
                print(f"{name}, {key}: {middle:.2f} s ({middle / base - 1:+.1%}; runs {runs_text})")


def _children_cpu() -> float:
    """User + system CPU seconds of the finished child processes (and theirs) so far: on a
    shared machine steadier than wall time, which waits for the other processes' turns."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    calibrate = commands.add_parser("calibration")
    calibrate.add_argument("--test-sets", type=int, default=500)
    calibrate.add_argument("--seed", type=int, default=33)
    calibrate.add_argument("--segments", type=int, default=SEGMENTS)
    calibrate.add_argument("--systems", type=int, nargs="+", default=[10, 20])
    calibrate.add_argument(
        "--corrections", nargs="+", default=[c.value for c in Correction], choices=list(Correction)
    )
    timing = commands.add_parser("speed")
    timing.add_argument("--before", type=Path, required=True)
    timing.add_argument("--runs", type=int, default=5)
    timing.add_argument("--shared", type=Path)
    args = parser.parse_args()
    if args.command == "calibration":
        corrections = [Correction(c) for c in args.corrections]
        calibration(args.test_sets, args.seed, args.segments, args.systems, corrections)
    else:
        speed(args.before, args.runs, args.shared)


if __name__ == "__main__":
    main()
