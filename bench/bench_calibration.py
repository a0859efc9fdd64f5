"""Calibration, the long version (Koehn 2004, section 7): false positives and coverage.

Synthetic pools of 5,000 documents of 10 segments (50,000 segments): one of independent
segments, others whose documents share a difficulty, a length and a quality difference
(``mtgui.engine.calibration.documents``). From each, thousands of test sets of whole documents are
drawn and bootstrapped (B = 1,000) with segment and with document resampling, and the script prints,
as Markdown tables for the README:

1. by test-set size (100, 300, 1,000 segments): on the exchangeable null, how often the pair is
   called different at 0.05 (p_value, the verdict, sacreBLEU's p-value) and the mean p_value;
   how often the 95% intervals hold the pool's BLEU of a system and the pool's difference;
2. how many documents document resampling needs: the same for 5 to 50 documents, on the
   independent pool (where resampling documents is not needed, and only costs), the correlated
   one, and two more whose documents are as alike as those of WMT14 en-de and WMT21 is-en.

Every figure is a share of test sets with its Monte Carlo standard error. Test set i depends
only on the seed and i, so the tables are the same for any number of processes. These tables
use percentile intervals throughout.

``--intervals`` prints instead, for 10, 15, 20 and 30 documents resampled whole, how often the
95% percentile, BCa and studentized intervals (``mtgui.engine.resampling.bca``,
``mtgui.engine.resampling.studentized``) hold the pool's BLEU and difference, and how often each
calls the document-swapped null significant: what ``--interval auto`` rests on.

    python bench/bench_calibration.py [--test-sets 5000] [--processes 2] [--seed 2004]
    python bench/bench_calibration.py --intervals [--test-sets 2000] [--pool correlated]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import time
from collections.abc import Callable

from mtgui.engine.calibration.documents import (
    Calibration,
    DocumentEffects,
    Pool,
    Share,
    correlated_pool,
    independent_pool,
    iter_calibration,
    merge,
)
from mtgui.engine.core.running import run_to_end
from mtgui.engine.inference.choices import IntervalMethod
from mtgui.engine.resampling.settings import BootstrapSettings, Unit

POOL_DOCUMENTS, BETTER_BY, POOL_SEED = 5000, 0.03, 11
LIKE_EN_DE = DocumentEffects(difficulty=0.27, segment=0.62, quality=0.02)
LIKE_IS_EN = DocumentEffects(difficulty=0.33, segment=0.58, quality=0.075)
SIZES = (10, 30, 100)  # documents of 10 segments: 100, 300 and 1,000 segments
DOCUMENT_COUNTS = (5, 8, 10, 15, 20, 30, 50)
POOLS: dict[str, Callable[[], Pool]] = {
    "independent": lambda: independent_pool(POOL_DOCUMENTS, BETTER_BY, POOL_SEED),
    "correlated": lambda: correlated_pool(POOL_DOCUMENTS, BETTER_BY, POOL_SEED),
    # Sensitivity: documents as alike as on WMT14 en-de (widths x1.44 / x1.06) and on WMT21
    # is-en (x1.64 / x1.31); the default pool lies between them (x1.54 / x1.22).
    "like en-de": lambda: correlated_pool(POOL_DOCUMENTS, BETTER_BY, POOL_SEED, LIKE_EN_DE),
    "like is-en": lambda: correlated_pool(POOL_DOCUMENTS, BETTER_BY, POOL_SEED, LIKE_IS_EN),
}
SIZE_POOLS = ("independent", "correlated")  # the size table; every pool has the documents one
UNITS = (Unit.SEGMENT, Unit.DOCUMENT)
_CHUNK = 100  # test sets per task
_pools: dict[str, Pool] = {}

Task = tuple[str, int, int, int, int, int]  # pool, documents, first, stop, resamples, seed
Results = dict[tuple[str, int], dict[Unit, Calibration]]


def main() -> None:
    """Measure, then print the tables and the time taken."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--test-sets", type=int, default=5000, help="per pool and size")
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=2004)
    parser.add_argument(
        "--intervals", action="store_true", help="percentile, BCa and studentized intervals"
    )
    parser.add_argument("--pool", choices=list(POOLS), default="correlated")
    args = parser.parse_args()
    if args.intervals:
        print_interval_table(args.pool, args.test_sets, args.resamples, args.seed)
        return
    start = time.perf_counter()
    results = measure(args.test_sets, args.resamples, args.processes, args.seed)
    elapsed = time.perf_counter() - start
    print_size_table(results)
    print_documents_tables(results)
    print(
        f"\n{args.test_sets:,} test sets per pool and size, B = {args.resamples:,}, seed "
        f"{args.seed}, {args.processes} processes: {elapsed:.0f} s"
    )


def measure(test_sets: int, resamples: int, processes: int, seed: int) -> Results:
    """Every (pool, documents) cell, split into tasks of consecutive test sets."""
    cells = [(name, d) for name in SIZE_POOLS for d in sorted({*SIZES, *DOCUMENT_COUNTS})]
    cells += [(name, d) for name in POOLS if name not in SIZE_POOLS for d in DOCUMENT_COUNTS]
    tasks: list[Task] = [
        (name, d, first, min(first + _CHUNK, test_sets), resamples, seed + d)
        for name, d in cells
        for first in range(0, test_sets, _CHUNK)
    ]
    # One BLAS thread per process: the products are small, and the processes use the cores.
    os.environ.update({name: "1" for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")})
    if processes > 1:
        with multiprocessing.get_context("spawn").Pool(processes) as workers:
            parts = workers.map(run_task, tasks, chunksize=1)
    else:
        parts = [run_task(task) for task in tasks]
    results: Results = {}
    for cell in cells:
        mine = [part for task, part in zip(tasks, parts, strict=True) if task[:2] == cell]
        results[cell] = {unit: merge([part[unit] for part in mine]) for unit in UNITS}
    return results


def run_task(task: Task) -> dict[Unit, Calibration]:
    """Bootstrap one range of test sets (in a worker process)."""
    name, documents, first, stop, resamples, seed = task
    if name not in _pools:
        _pools[name] = POOLS[name]()
    settings = BootstrapSettings(resamples=resamples, interval=IntervalMethod.PERCENTILE)
    return run_to_end(iter_calibration(_pools[name], documents, range(first, stop), settings, seed))


def cell(share: Share) -> str:
    """A share in percent with its standard error."""
    return f"{100 * share.value:.1f} ± {100 * share.standard_error:.1f}"


def print_size_table(results: Results) -> None:
    """Table 1: false positives on the null and coverage, by pool, size and unit."""
    print(
        "| pool | segments | resampled | p_value < 0.05 | verdict not `~` | sacreBLEU p < 0.05 "
        "| mean p_value | p_value < 0.05, documents swapped | BLEU covered | difference covered |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name in SIZE_POOLS:
        for documents in SIZES:
            for unit in UNITS:
                run = results[(name, documents)][unit]
                mean, error = run.mean_p_value()
                print(
                    f"| {name} | {documents * run.document_size:,} | {unit}s "
                    f"| {cell(run.false_positives())} "
                    f"| {cell(run.false_positives(of='verdict'))} "
                    f"| {cell(run.false_positives(of='p_value_sacrebleu'))} "
                    f"| {mean:.3f} ± {error:.3f} "
                    f"| {cell(run.false_positives(Unit.DOCUMENT))} "
                    f"| {cell(run.score_coverage())} | {cell(run.delta_coverage())} |"
                )
    inconsistent = sum(
        int((~run.consistent).sum()) for by_unit in results.values() for run in by_unit.values()
    )
    print(f"\nruns whose verdicts disagree with their p-value or interval: {inconsistent}")


def print_documents_tables(results: Results) -> None:
    """Table 2: coverage and false positives (coins flipped per document) by documents."""
    for name in POOLS:
        print(f"\n{name} pool, test sets of D documents of 10 segments (segments / documents):\n")
        print(
            "| D | segments | BLEU covered | difference covered | p_value < 0.05, "
            "documents swapped | width, documents / segments: BLEU, difference |"
        )
        print("|---|---|---|---|---|---|")
        for documents in DOCUMENT_COUNTS:
            by_unit = results[(name, documents)]
            seg, doc = by_unit[Unit.SEGMENT], by_unit[Unit.DOCUMENT]
            score_ratio = doc.score_width.mean() / seg.score_width.mean()
            delta_ratio = doc.delta_width.mean() / seg.delta_width.mean()
            print(
                f"| {documents} | {documents * seg.document_size} "
                f"| {cell(seg.score_coverage())} / {cell(doc.score_coverage())} "
                f"| {cell(seg.delta_coverage())} / {cell(doc.delta_coverage())} "
                f"| {cell(seg.false_positives(Unit.DOCUMENT))} / "
                f"{cell(doc.false_positives(Unit.DOCUMENT))} "
                f"| {score_ratio:.2f}, {delta_ratio:.2f} |"
            )


INTERVAL_DOCUMENTS = (10, 15, 20, 30)
METHODS = (IntervalMethod.PERCENTILE, IntervalMethod.BCA, IntervalMethod.STUDENTIZED)


def print_interval_table(pool_name: str, test_sets: int, resamples: int, seed: int) -> None:
    """Coverage and false positives of percentile and BCa intervals with few documents."""
    pool = POOLS[pool_name]()
    print(f"{pool_name} pool, documents resampled, 95% intervals, B = {resamples:,}:\n")
    print(
        "| D | interval | BLEU covered | difference covered | p < 0.05, documents swapped "
        "| width: BLEU, difference |"
    )
    print("|---|---|---|---|---|---|")
    start = time.perf_counter()
    for documents in INTERVAL_DOCUMENTS:
        for method in METHODS:
            settings = BootstrapSettings(resamples=resamples, interval=method)
            runs = iter_calibration(
                pool, documents, range(test_sets), settings, seed + documents, (Unit.DOCUMENT,)
            )
            run = run_to_end(runs)[Unit.DOCUMENT]
            print(
                f"| {documents} | {method.label} | {cell(run.score_coverage())} "
                f"| {cell(run.delta_coverage())} | {cell(run.false_positives(Unit.DOCUMENT))} "
                f"| {run.score_width.mean():.4f}, {run.delta_width.mean():.4f} |",
                flush=True,
            )
    elapsed = time.perf_counter() - start
    print(f"\n{test_sets:,} test sets per row, seed {seed}: {elapsed:.0f} s")


if __name__ == "__main__":
    main()
