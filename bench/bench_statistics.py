"""Benchmark: per-segment statistics extraction, mtgui next to sacreBLEU in the same run.

The set: 3,000 segments, 4 references and 10 systems, assembled from the real WMT data in
../shared/data (1,000 lines each of WMT14 en-de, WMT21 is-en and WMT21 de-en; each stream takes
one reference or system output of every dataset in turn, shifted by a line where a dataset has
run out of distinct outputs). It is written as plain text to a temporary folder and read from
there by both tools. Machines are noisy: read the ratios, not the seconds.

    python bench/bench_statistics.py            # BLEU/NIST/M-BLEU and chrF; TER too with --ter
"""

from __future__ import annotations

import argparse
import compileall
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from record import record

import mtgui
from mtgui.engine.core.corpus import Role
from mtgui.engine.metrics import create_metrics
from mtgui.engine.metrics.extraction import ExtractionContext
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.io.assemble import assemble
from mtgui.io.loader import load_file

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
DATASETS = ("wmt14-newstest2014-en-de", "wmt21-newstest2021-is-en", "wmt21-newstest2021-de-en-2ref")
LINES, REFERENCES, SYSTEMS = 1000, 4, 10


def compile_bytecode() -> None:
    """Compile mtgui's modules to bytecode before timing whole processes.

    ``pip install`` does this (and sacreBLEU, installed so, is timed with its bytecode), but a
    checkout run where ``PYTHONDONTWRITEBYTECODE`` is set (as on this project's machines)
    compiles every module again in every process: 0.1-0.15 s of the standing benchmark's
    1.5 s, which no user pays.
    """
    compileall.compile_dir(Path(mtgui.__file__).parent, quiet=1)


def pools() -> list[list[list[str]]]:
    """For each dataset, the lines of its references then its systems (plain text)."""
    result = []
    for name in DATASETS:
        folder = SHARED / name / "txt"
        refs = sorted(p for p in folder.iterdir() if p.is_file() and ".ref." in p.name)
        systems = sorted((folder / "systems").iterdir())
        result.append([p.read_text(encoding="utf-8").splitlines()[:LINES] for p in refs + systems])
    return result


def write_set(folder: Path) -> tuple[list[Path], list[Path]]:
    """Write the 14 streams of 3,000 lines; return (reference files, system files)."""
    datasets = pools()
    paths = []
    for k in range(REFERENCES + SYSTEMS):
        lines: list[str] = []
        for pool in datasets:
            stream = pool[k % len(pool)]
            shift = k // len(pool)  # a second use of an output: shifted, not identical
            lines += stream[shift:] + stream[:shift]
        path = folder / (f"ref{k}.txt" if k < REFERENCES else f"sys{k - REFERENCES}.txt")
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(path)
    return paths[:REFERENCES], paths[REFERENCES:]


def write_large_set(folder: Path, segments: int, systems: int) -> tuple[Path, list[Path]]:
    """One reference and ``systems`` outputs of ``segments`` lines (the lines of this set,
    repeated, and shifted so that every system differs); return (reference, systems)."""
    streams = [stream for pool in pools() for stream in pool]
    reference_lines = streams[0]
    outputs = [s for s in streams if len(s) == len(reference_lines)][1:]
    paths = []
    for k in range(systems + 1):
        source = reference_lines if k == 0 else outputs[(k - 1) % len(outputs)]
        shift = 0 if k == 0 else (k - 1) // len(outputs)
        lines = [source[(i + shift) % len(source)] for i in range(segments)]
        path = folder / ("ref.txt" if k == 0 else f"sys{k:02d}.txt")
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(path)
    return paths[0], paths[1:]


def timed(label: str, times: dict[str, float], action: Callable[[], Any]) -> Any:
    """Run ``action``, adding its wall time to ``times[label]``."""
    start = time.perf_counter()
    result = action()
    times[label] = times.get(label, 0.0) + time.perf_counter() - start
    return result


def mtgui_bleu_nist(refs: list[Path], systems: list[Path]) -> dict[str, float]:
    """mtgui: BLEU + NIST + M-BLEU statistics for every system, by stage."""
    times: dict[str, float] = {}
    files = timed(
        "reading",
        times,
        lambda: (
            [load_file(p, {Role.REFERENCE}) for p in refs]
            + [load_file(p, {Role.SYSTEM}) for p in systems]
        ),
    )
    corpus = timed("reading", times, lambda: assemble(files))
    context = ExtractionContext(corpus.test_set, MetricSettings())
    timed("tokenizing", times, lambda: context.reference_ids)
    timed("n-gram counting", times, lambda: context.reference_ngrams)
    metrics = create_metrics(["bleu", "nist", "mbleu"], corpus.test_set)
    for system in corpus.systems:
        timed("tokenizing", times, lambda s=system: context.hypothesis_ids(s))
        timed("n-gram counting", times, lambda s=system: context.matches(s))
        timed("statistics rows", times, lambda s=system: [context.rows(m, s) for m in metrics])
    return times


def sacrebleu_bleu(refs: list[Path], systems: list[Path]) -> dict[str, float]:
    """sacreBLEU: its BLEU statistics for every system (as --paired-bs extracts them)."""
    from sacrebleu.metrics.bleu import BLEU
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    times: dict[str, float] = {}
    read = timed(
        "reading",
        times,
        lambda: [p.read_text(encoding="utf-8").splitlines() for p in refs + systems],
    )
    ref_lines, sys_lines = read[:REFERENCES], read[REFERENCES:]
    tokenizer = Tokenizer13a()  # a fresh instance: its cache starts empty
    timed(
        "tokenizing (alone, for orientation)",
        times,
        lambda: [tokenizer(line) for lines in read for line in lines],
    )
    bleu = BLEU()
    timed(
        "statistics (tokenizing + counting)",
        times,
        lambda: [bleu._extract_corpus_statistics(h, ref_lines) for h in sys_lines],
    )
    return times


def one_system(metric: str, refs: list[Path], system: Path) -> tuple[float, float]:
    """(mtgui, sacreBLEU) seconds for one system's chrF or TER statistics."""
    from sacrebleu.metrics.chrf import CHRF
    from sacrebleu.metrics.ter import TER

    corpus = assemble(
        [load_file(p, {Role.REFERENCE}) for p in refs] + [load_file(system, {Role.SYSTEM})]
    )
    (metric_object,) = create_metrics([metric], corpus.test_set)
    ref_lines = [p.read_text(encoding="utf-8").splitlines() for p in refs]
    hyp_lines = system.read_text(encoding="utf-8").splitlines()
    ours, theirs = [], []
    for _ in range(2):  # alternate, keep the best of two: the machine is noisy
        start = time.perf_counter()
        context = ExtractionContext(corpus.test_set, MetricSettings())
        metric_object.score(context.rows(metric_object, corpus.systems[0]).sum(axis=0))
        ours.append(time.perf_counter() - start)
        scorer = CHRF() if metric == "chrf" else TER()
        start = time.perf_counter()
        scorer.corpus_score(hyp_lines, ref_lines)
        theirs.append(time.perf_counter() - start)
    return min(ours), min(theirs)


def report(name: str, times: dict[str, float]) -> float:
    """Print the stages of one tool and return its total."""
    total = sum(v for k, v in times.items() if "alone" not in k)
    print(f"{name}: {total:.2f} s")
    for stage, seconds in times.items():
        print(f"  {stage:<40} {seconds:7.2f} s")
    return total


def main() -> None:
    """Build the set, time both tools, print the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ter", action="store_true", help="also time TER (about a minute each)")
    args = parser.parse_args()
    if not SHARED.is_dir():
        raise SystemExit(f"the shared WMT data is needed and absent: {SHARED}")
    with tempfile.TemporaryDirectory() as folder:
        refs, systems = write_set(Path(folder))
        print(
            f"set: {LINES * len(DATASETS)} segments, {REFERENCES} references, {SYSTEMS} systems\n"
        )
        ours = report("mtgui BLEU + NIST + M-BLEU, all systems", mtgui_bleu_nist(refs, systems))
        theirs = report("sacreBLEU BLEU alone, all systems", sacrebleu_bleu(refs, systems))
        print(f"\nratio sacreBLEU BLEU / mtgui BLEU+NIST+M-BLEU: {theirs / ours:.1f}x (goal >= 3x)")
        record("statistics", mtgui_s=ours, sacrebleu_s=theirs, ratio=theirs / ours)
        for metric in ("chrf", "ter") if args.ter else ("chrf",):
            mine, sacre = one_system(metric, refs, systems[0])
            print(
                f"{metric}, one system: mtgui {mine:.2f} s, sacreBLEU {sacre:.2f} s, "
                f"ratio {sacre / mine:.2f}x (goal >= 1x)"
            )
            record(f"{metric}_one_system", mtgui_s=mine, sacrebleu_s=sacre, ratio=sacre / mine)


if __name__ == "__main__":
    main()
