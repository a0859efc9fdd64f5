"""Benchmark: the bootstrap, in memory and end to end, next to sacreBLEU's paired bootstrap.

The standing benchmark: 10 systems, 3,000 segments, 4 references (the set of
``bench_statistics.py``), BLEU + NIST + M-BLEU, B = 10,000, every ordered pair of systems.
- in memory: the bootstrap alone, from statistics already extracted, with where its time goes;
- end to end: ``mtgui eval`` from the files to the JSON report, as a user runs it;
- sacreBLEU: ``sacrebleu REFS -i SYSTEMS -m bleu --paired-bs --paired-bs-n 10000`` on the same
  files (the first system as baseline against the other nine, BLEU only), in the same run;
- memory: the peak resident size of statistics + bootstrap for 100,000 segments x 20 systems
  (synthetic statistics, B = 1,000), in a fresh process.
Machines are noisy: read the ratios, not the seconds.

    python bench/bench_bootstrap.py [--skip-sacrebleu] [--skip-memory]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import MappingProxyType

import numpy as np
from bench_statistics import SHARED, write_set

from mtgui.engine.core.corpus import Role
from mtgui.engine.core.running import run_to_end
from mtgui.engine.metrics import create_metrics
from mtgui.engine.metrics.bleu.bleu import Bleu
from mtgui.engine.metrics.bleu.mbleu import MBleu
from mtgui.engine.metrics.bleu.nist import Nist
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.resampling.bootstrap import iter_bootstrap
from mtgui.engine.resampling.draws import chunk_size, draw_counts, stack_units
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.engine.statistics.rows import Statistics, SystemStatistics, compute_statistics
from mtgui.io.assemble import assemble
from mtgui.io.loader import load_file

B = 10_000
METRICS = ("bleu", "nist", "mbleu")


def in_memory(refs: list[Path], systems: list[Path]) -> float:
    """Time the bootstrap from statistics in memory; print where the time goes."""
    corpus = assemble(
        [load_file(p, {Role.REFERENCE}) for p in refs]
        + [load_file(p, {Role.SYSTEM}) for p in systems]
    )
    statistics = compute_statistics(corpus, METRICS)
    start = time.perf_counter()
    result = run_to_end(iter_bootstrap(statistics, BootstrapSettings(resamples=B)))
    total = time.perf_counter() - start
    print(
        f"bootstrap in memory, B = {B:,}, {len(result.pairs)} ordered pairs x metrics: "
        f"{total:.2f} s"
    )
    stages = _stages(statistics)
    for stage, seconds in stages.items():
        print(f"  {stage:<44} {seconds:6.2f} s")
    return total


def _stages(statistics: Statistics) -> dict[str, float]:
    """The bootstrap's inner loop again, stage by stage (same functions, timed apart)."""
    times = dict.fromkeys(
        (
            "stacking statistics per unit",
            "drawing resamples",
            "summing (one matrix product per chunk)",
            "scoring",
        ),
        0.0,
    )
    start = time.perf_counter()
    layout = stack_units(
        statistics, np.arange(statistics.rows(statistics.system_names[0], "bleu").shape[0])
    )
    times["stacking statistics per unit"] = time.perf_counter() - start
    rng = np.random.default_rng(12345)
    units, step = layout.rows.shape[0], chunk_size(*layout.rows.shape)
    metrics = {m.name: m for m in statistics.metrics}
    for done in range(0, B, step):
        size = min(step, B - done)
        start = time.perf_counter()
        counts = draw_counts(rng, size, units)
        middle = time.perf_counter()
        sums = counts @ layout.rows
        after = time.perf_counter()
        for (_, metric), columns in layout.columns.items():
            metrics[metric].score(sums[:, columns])
        times["drawing resamples"] += middle - start
        times["summing (one matrix product per chunk)"] += after - middle
        times["scoring"] += time.perf_counter() - after
    return times


def end_to_end(refs: list[Path], systems: list[Path], folder: Path) -> float:
    """Time ``mtgui eval`` from the files to a JSON report, in a fresh process (median of 3)."""
    command = [
        sys.executable,
        "-m",
        "mtgui",
        "eval",
        "--ref",
        *map(str, refs),
        "--hyp",
        *map(str, systems),
        "--metrics",
        ",".join(METRICS),
        "--bootstrap",
        str(B),
        "--json",
        str(folder / "report.json"),
        "--overwrite",
    ]
    times = []
    for _ in range(3):  # the median of three: a single run of 1-2 s is at the mercy of noise
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return sorted(times)[1]


def sacrebleu(refs: list[Path], systems: list[Path]) -> float:
    """Time sacreBLEU's paired bootstrap (baseline vs the other nine, BLEU) on the same files."""
    command = [
        sys.executable,
        "-m",
        "sacrebleu",
        *map(str, refs),
        "-i",
        *map(str, systems),
        "-m",
        "bleu",
        "--paired-bs",
        "--paired-bs-n",
        str(B),
    ]
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    return time.perf_counter() - start


MEMORY_PROBE = """
import resource, numpy as np, sys
sys.path.insert(0, {bench!r})
from bench_bootstrap import synthetic_statistics
from mtgui.engine.core.running import run_to_end
from mtgui.engine.resampling.bootstrap import iter_bootstrap
from mtgui.engine.resampling.settings import BootstrapSettings
statistics = synthetic_statistics(100_000, 20)
run_to_end(iter_bootstrap(statistics, BootstrapSettings(resamples=1000)))
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
"""


def synthetic_statistics(segments: int, systems: int) -> Statistics:
    """Plausible BLEU and NIST rows for many segments and systems, without any text."""
    rng = np.random.default_rng(0)
    rows = []
    for _ in range(systems):
        length = rng.integers(5, 40, segments).astype(float)
        totals = np.maximum(length[:, None] - np.arange(5)[None, :], 0)
        matches = rng.binomial(totals.astype(np.int64), 0.6 ** (1 + np.arange(5))).astype(float)
        info = matches * rng.uniform(0, 12, (segments, 5))
        bleu = np.column_stack([length, length, matches[:, :4], totals[:, :4]])
        nist = np.column_stack([info, matches, totals, 4 * length])
        rows.append(MappingProxyType({"bleu": bleu, "nist": nist, "mbleu": bleu}))
    names = [f"system{k}" for k in range(systems)]
    return Statistics(
        MetricSettings(),
        (Bleu(), Nist(4), MBleu()),
        tuple(SystemStatistics(n, r) for n, r in zip(names, rows, strict=True)),
    )


def peak_memory() -> float:
    """Peak resident megabytes of the 100,000 x 20 bootstrap, in a fresh process."""
    probe = MEMORY_PROBE.format(bench=str(Path(__file__).parent))
    output = subprocess.run(
        [sys.executable, "-c", probe], check=True, capture_output=True, text=True
    ).stdout
    return float(output.strip().splitlines()[-1])


def main() -> None:
    """Run everything and print the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--skip-sacrebleu", action="store_true")
    parser.add_argument("--skip-memory", action="store_true")
    args = parser.parse_args()
    if not SHARED.is_dir():
        raise SystemExit(f"the shared WMT data is needed and absent: {SHARED}")
    _ = create_metrics  # the metrics the CLI builds are the same classes
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        refs, systems = write_set(folder)
        memory = in_memory(refs, systems)
        ours = end_to_end(refs, systems, folder)
        print(
            "mtgui eval end to end (load, tokenize, count, bootstrap, report), median of 3: "
            f"{ours:.2f} s"
        )
        if not args.skip_sacrebleu:
            theirs = sacrebleu(refs, systems)
            print(f"sacreBLEU --paired-bs --paired-bs-n {B} -m bleu, 9 pairs: {theirs:.2f} s")
            print(
                f"ratio end to end: {theirs / ours:.1f}x (goal >= 20x); "
                f"bootstrap in memory: {memory:.2f} s (goal < 1 s)"
            )
    if not args.skip_memory:
        print(
            f"peak memory, 100,000 segments x 20 systems, B = 1,000: {peak_memory():.0f} MB "
            "(goal < 2,000 MB)"
        )


if __name__ == "__main__":
    main()
