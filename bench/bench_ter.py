"""Benchmark: TER statistics, mtgui's compiled port next to sacreBLEU's own, in one run.

The set is bench_statistics.py's: 3,000 segments (WMT14 en-de, WMT21 is-en and de-en, 1,000
lines each), 4 references, 10 systems, written as plain text and read from there by both tools.
For each system timed, both tools go from the files to the statistics (mtgui: reading,
sacreBLEU's tercom preprocessing, word ids, the shift search; sacreBLEU: reading and
``TER().corpus_score``), alternately, best of two; the statistics must be equal. Also: loading
the compiled kernel in a fresh process, and with ``--segments N`` mtgui alone on N segments
(the set tiled) with its peak memory. Machines are noisy: read the ratios, not the seconds.

    python bench/bench_ter.py                     # 3 systems side by side (about 2 minutes)
    python bench/bench_ter.py --systems 10 --segments 100000
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from bench_statistics import DATASETS, LINES, SHARED, write_set
from record import record

from mtgui.engine.core.corpus import Role
from mtgui.engine.metrics.extraction import ExtractionContext
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.metrics.ter.ter import Ter
from mtgui.io.assemble import assemble
from mtgui.io.loader import load_file

_FRESH = (
    "import time; start = time.perf_counter()\n"
    "from mtgui.engine.metrics.ter.search import warm_up; warm_up()\n"
    "print(time.perf_counter() - start)\n"
)
_LARGE = """
import resource, sys, time
from pathlib import Path
from mtgui.engine.core.corpus import Role
from mtgui.engine.metrics.extraction import ExtractionContext
from mtgui.engine.metrics.ter.ter import Ter
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.io.assemble import assemble
from mtgui.io.loader import load_file
paths = [Path(p) for p in sys.argv[1:]]
roles = [Role.REFERENCE] * (len(paths) - 1) + [Role.SYSTEM]
corpus = assemble([load_file(p, {r}) for p, r in zip(paths, roles)])
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
rows = Ter().extract(ExtractionContext(corpus.test_set, MetricSettings()), corpus.systems[0])
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(seconds, before / 1024, peak / 1024, 100 * rows[:, 0].sum() / rows[:, 1].sum())
"""


def mtgui_ter(refs: list[Path], system: Path) -> tuple[float, np.ndarray]:
    """mtgui from the files to one system's TER statistics: (seconds, rows)."""
    start = time.perf_counter()
    files = [load_file(p, {Role.REFERENCE}) for p in refs] + [load_file(system, {Role.SYSTEM})]
    corpus = assemble(files)
    rows = Ter().extract(ExtractionContext(corpus.test_set, MetricSettings()), corpus.systems[0])
    return time.perf_counter() - start, rows


def sacrebleu_ter(refs: list[Path], system: Path) -> tuple[float, np.ndarray]:
    """sacreBLEU from the files to one system's TER statistics: (seconds, rows)."""
    from sacrebleu.metrics.ter import TER

    start = time.perf_counter()
    ref_lines = [p.read_text(encoding="utf-8").splitlines() for p in refs]
    hyp_lines = system.read_text(encoding="utf-8").splitlines()
    scorer = TER(references=ref_lines)
    stats = scorer._extract_corpus_statistics(hyp_lines, None)
    scorer._aggregate_and_compute(stats)
    return time.perf_counter() - start, np.asarray(stats, dtype=np.float64)


def side_by_side(refs: list[Path], systems: list[Path]) -> None:
    """Both tools on each system, alternately, best of two; the rows must be equal."""
    print(f"{'system':<10} {'mtgui':>8} {'sacreBLEU':>10} {'ratio':>7}")
    ours_total = theirs_total = 0.0
    for system in systems:
        ours, theirs = [], []
        for _ in range(2):
            seconds, mine = mtgui_ter(refs, system)
            ours.append(seconds)
            seconds, expected = sacrebleu_ter(refs, system)
            theirs.append(seconds)
            if not np.array_equal(mine, expected):
                raise SystemExit(f"{system.name}: the statistics differ from sacreBLEU's")
        ours_total, theirs_total = ours_total + min(ours), theirs_total + min(theirs)
        ratio = min(theirs) / min(ours)
        print(f"{system.stem:<10} {min(ours):7.2f}s {min(theirs):9.2f}s {ratio:6.0f}x")
    print(
        f"{'all':<10} {ours_total:7.2f}s {theirs_total:9.2f}s {theirs_total / ours_total:6.0f}x"
        "  (statistics equal to sacreBLEU's on every segment)"
    )
    record("ter", mtgui_s=ours_total, sacrebleu_s=theirs_total, ratio=theirs_total / ours_total)


def tile(paths: list[Path], segments: int, folder: Path) -> list[Path]:
    """The files repeated to ``segments`` lines each (each copy shifted by a line against the
    references, so that no system line meets its own reference twice alike)."""
    result = []
    for k, path in enumerate(paths):
        lines = path.read_text(encoding="utf-8").splitlines()
        copies = -(-segments // len(lines))
        tiled = [line for c in range(copies) for line in lines[c * k % 7 :] + lines[: c * k % 7]]
        out = folder / f"large-{path.name}"
        out.write_text("\n".join(tiled[:segments]) + "\n", encoding="utf-8")
        result.append(out)
    return result


def main() -> None:
    """Build the set, time both tools, print the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--systems", type=int, default=3, help="systems side by side (1-10)")
    parser.add_argument("--segments", type=int, default=0, help="also mtgui alone on N segments")
    args = parser.parse_args()
    if not SHARED.is_dir():
        raise SystemExit(f"the shared WMT data is needed and absent: {SHARED}")
    fresh = subprocess.run(
        [sys.executable, "-c", _FRESH], capture_output=True, text=True, check=True
    )
    print(f"loading the compiled kernel in a fresh process: {float(fresh.stdout):.2f} s")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        refs, systems = write_set(folder)
        print(f"set: {LINES * len(DATASETS)} segments, {len(refs)} references\n")
        side_by_side(refs, systems[: args.systems])
        if args.segments:
            paths = [str(p) for p in tile([*refs, systems[0]], args.segments, folder)]
            run = subprocess.run(
                [sys.executable, "-c", _LARGE, *paths], capture_output=True, text=True, check=True
            )
            seconds, before, peak, score = (float(x) for x in run.stdout.split())
            print(
                f"\nmtgui alone, {args.segments} segments x {len(refs)} references, one system: "
                f"{seconds:.1f} s (TER {score:.2f}); peak memory {peak:.0f} MB "
                f"({before:.0f} MB with the files read, before TER)"
            )


if __name__ == "__main__":
    main()
