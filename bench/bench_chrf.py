"""Benchmark: chrF and chrF++ statistics, mtgui next to sacreBLEU in the same run (issue 17).

Two sets:

* the 3,000-segment set of ``bench_statistics.py`` (4 references, 10 systems, built from the
  shared WMT data): one system end to end (references prepared, statistics, score; best of
  three, the tools alternating), and all ten systems with the references prepared once;
* a synthetic set of 100,000 segments, 1 reference and 2 systems (the shared WMT lines, taken
  again and again), for time and peak memory: ``mtgui eval --metrics chrf --bootstrap 0`` and
  sacreBLEU's ``CHRF`` on the same files, each in a child process that reports its peak RSS.

Machines are noisy (several people share this one): read the ratios, not the seconds.

    python bench/bench_chrf.py              # both sets (the large one takes a few minutes)
    python bench/bench_chrf.py --small      # the 3,000-segment set only
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench_statistics import DATASETS, SHARED, compile_bytecode, write_set
from record import record

from mtgui.engine.core.corpus import Corpus, Role
from mtgui.engine.metrics import create_metrics
from mtgui.engine.metrics.extraction import ExtractionContext
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.io.assemble import assemble
from mtgui.io.loader import load_file

LARGE_SEGMENTS = 100_000
METRICS = {"chrf": 0, "chrf++": 2}  # mtgui's metric -> sacreBLEU's word order


def best_of(runs: int, action: Callable[[], object]) -> float:
    """The shortest wall time of ``runs`` calls."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)


def mtgui_all(corpus: Corpus, metric_name: str, systems: int) -> None:
    """mtgui: the references prepared once, then every system's rows and score."""
    (metric,) = create_metrics([metric_name], corpus.test_set)
    context = ExtractionContext(corpus.test_set, MetricSettings())
    for system in corpus.systems[:systems]:
        metric.score(context.rows(metric, system).sum(axis=0))


def sacrebleu_all(corpus: Corpus, word_order: int, systems: int) -> None:
    """sacreBLEU: the references cached once, then every system's corpus score."""
    from sacrebleu.metrics.chrf import CHRF

    references = [list(ref.texts) for ref in corpus.test_set.references]
    scorer = CHRF(word_order=word_order, references=references)
    for system in corpus.systems[:systems]:
        scorer.corpus_score(list(system.hypotheses), None)


def small_set() -> None:
    """The 3,000-segment set: one system, then all ten."""
    with tempfile.TemporaryDirectory() as folder:
        refs, systems = write_set(Path(folder))
        corpus = assemble(
            [load_file(p, {Role.REFERENCE}) for p in refs]
            + [load_file(p, {Role.SYSTEM}) for p in systems]
        )
    print(f"set: {corpus.test_set.size} segments, {len(refs)} references, {len(systems)} systems")
    for name, word_order in METRICS.items():
        for count in (1, len(systems)):
            ours: list[float] = []
            theirs: list[float] = []
            for _ in range(3 if count == 1 else 1):  # alternate: the machine is noisy
                ours.append(best_of(1, lambda c=count, m=name: mtgui_all(corpus, m, c)))
                theirs.append(best_of(1, lambda c=count, w=word_order: sacrebleu_all(corpus, w, c)))
            mine, sacre = min(ours), min(theirs)
            what = "one system" if count == 1 else f"all {count} systems"
            print(
                f"{name:7} {what:15} mtgui {mine:6.2f} s   sacreBLEU {sacre:6.2f} s   "
                f"ratio {sacre / mine:5.1f}x (goal >= 10x)"
            )


def write_large(folder: Path) -> tuple[Path, list[Path]]:
    """100,000 segments: every shared dataset's reference and first two systems, line by
    line, repeated until the set is full."""
    refs: list[str] = []
    outputs: list[list[str]] = [[], []]
    for name in DATASETS:
        txt = SHARED / name / "txt"
        ref = sorted(p for p in txt.iterdir() if p.is_file() and ".ref." in p.name)[0]
        systems = sorted((txt / "systems").iterdir())[:2]
        refs += ref.read_text(encoding="utf-8").splitlines()
        for lines, path in zip(outputs, systems, strict=True):
            lines += path.read_text(encoding="utf-8").splitlines()
    repeat = -(-LARGE_SEGMENTS // len(refs))
    paths = [folder / "ref.txt", folder / "sys1.txt", folder / "sys2.txt"]
    for path, lines in zip(paths, [refs, *outputs], strict=True):
        path.write_text("\n".join((lines * repeat)[:LARGE_SEGMENTS]) + "\n", encoding="utf-8")
    return paths[0], paths[1:]


_REPORT_PEAK = (
    "import resource, sys\n"
    "def _peak():\n"
    "    print(f'PEAK_KB {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}', file=sys.stderr)\n"
)
_MTGUI_CHILD = _REPORT_PEAK + (
    "from mtgui.launch import main\n"
    "sys.argv = ['mtgui', 'eval', '--ref', sys.argv[1], '--hyp', *sys.argv[2:],\n"
    "            '--metrics', 'chrf', '--bootstrap', '0']\n"
    "try:\n"
    "    main()\n"
    "finally:\n"
    "    _peak()\n"
)
_SACREBLEU_CHILD = _REPORT_PEAK + (
    "from sacrebleu.metrics.chrf import CHRF\n"
    "def lines(path):\n"
    "    return open(path, encoding='utf-8').read().splitlines()\n"
    "scorer = CHRF(references=[lines(sys.argv[1])])\n"
    "for path in sys.argv[2:]:\n"
    "    print(scorer.corpus_score(lines(path), None))\n"
    "_peak()\n"
)


def child(code: str, files: list[Path]) -> tuple[float, float, str]:
    """Run ``code`` in a fresh Python: (wall seconds, peak RSS in GB, its output)."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", code, *map(str, files)],
        capture_output=True,
        text=True,
        check=True,
    )
    seconds = time.perf_counter() - start
    peak = next(
        int(line.split()[1]) for line in done.stderr.splitlines() if line.startswith("PEAK_KB")
    )
    return seconds, peak / 1024**2, done.stdout


def large_set() -> None:
    """100,000 segments x 2 systems, 1 reference: chrF end to end, time and peak memory."""
    with tempfile.TemporaryDirectory() as folder:
        ref, systems = write_large(Path(folder))
        print(f"\nset: {LARGE_SEGMENTS:,} segments, 1 reference, 2 systems (chrF, no bootstrap)")
        mine, mine_gb, out = child(_MTGUI_CHILD, [ref, *systems])
        sacre, sacre_gb, theirs = child(_SACREBLEU_CHILD, [ref, *systems])
    print(f"mtgui eval  {mine:6.1f} s  peak {mine_gb:5.2f} GB (goal < 2 GB)")
    print(f"sacreBLEU   {sacre:6.1f} s  peak {sacre_gb:5.2f} GB")
    print(f"ratio {sacre / mine:.1f}x (whole runs: mtgui's includes reading, checking, reporting)")
    record(
        "chrf_large",
        mtgui_s=mine,
        sacrebleu_s=sacre,
        ratio=sacre / mine,
        mtgui_peak_gb=mine_gb,
        sacrebleu_peak_gb=sacre_gb,
    )
    print("sacreBLEU's scores:", " / ".join(line.split()[2] for line in theirs.splitlines()))
    print("mtgui's report:\n" + "\n".join("  " + line for line in out.splitlines()[:12]))


def main() -> None:
    """Build the sets, time both tools, print the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--small", action="store_true", help="the 3,000-segment set only")
    args = parser.parse_args()
    if not SHARED.is_dir():
        raise SystemExit(f"the shared WMT data is needed and absent: {SHARED}")
    compile_bytecode()
    small_set()
    if not args.small:
        large_set()


if __name__ == "__main__":
    main()
