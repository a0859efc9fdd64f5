"""Benchmark: the studies at their defaults on the standing benchmark set.

The set of ``bench_statistics.py``: 3,000 segments, 4 references, 10 systems, BLEU + NIST +
M-BLEU, read as plain text (no documents: subsets and resamples are of segments). For the human
study every system gets synthetic per-segment scores (seeded), since the set has no judgments.
Each study runs from statistics already in memory (the references study extracts its own, per
subset of the references), as the desktop application runs it; reported: the wall time and the
longest gap between two progress snapshots (how long a cancel can wait). Machines are noisy,
and this one is shared: read the order of magnitude.

    python bench/bench_studies.py [--only size,refs,resamples,human,size-whole] [--runs N]

With ``--runs N`` each study runs N times and the range of its times is printed (on a shared
machine a single run says little).

``size`` gives the size study the texts, as the application does, so that each subset weighs
NIST with its own references (the texts are tokenized and matched once more for that);
``size-whole`` (not run by default) is the size study on the statistics alone, NIST keeping the
whole test set's weights, for a comparison side by side.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable, Generator
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
from bench_statistics import SHARED, write_set
from record import record

from mtgui.engine.core.corpus import Corpus, Origin, Role, SegmentScores
from mtgui.engine.statistics.rows import Statistics, compute_statistics
from mtgui.engine.studies import (
    iter_human_study,
    iter_refs_study,
    iter_resamples_study,
    iter_size_study,
)
from mtgui.engine.studies.subset_nist import NistInputs
from mtgui.io.assemble import assemble
from mtgui.io.loader import load_file

METRICS = ("bleu", "nist", "mbleu")
STUDIES = ("size", "refs", "resamples", "human")


def timed(generator: Generator[Any, None, Any]) -> tuple[float, float, Any]:
    """Run a study to its end: (seconds, longest gap between snapshots, result)."""
    start = last = time.perf_counter()
    gap = 0.0
    while True:
        try:
            next(generator)
        except StopIteration as finished:
            now = time.perf_counter()
            return now - start, max(gap, now - last), finished.value
        now = time.perf_counter()
        gap, last = max(gap, now - last), now


def with_human_scores(corpus: Corpus) -> Corpus:
    """Synthetic judgments: every segment of every system, one score each."""
    rng = np.random.default_rng(1)
    origin = Origin("synthetic", "scores", "UTF-8")
    size = corpus.test_set.size
    scores = tuple(
        SegmentScores(s.name, rng.normal(k / 10, 1.0, size), np.ones(size, np.int64), origin)
        for k, s in enumerate(corpus.systems)
    )
    return replace(corpus, scores=scores)


def runs(
    corpus: Corpus, statistics: Statistics
) -> dict[str, Callable[[], Generator[Any, None, Any]]]:
    """Each study at its defaults."""
    judged = with_human_scores(corpus)
    return {
        "size": lambda: iter_size_study(
            statistics, nist=NistInputs.of(corpus, statistics.settings)
        ),
        "size-whole": lambda: iter_size_study(statistics),
        "refs": lambda: iter_refs_study(corpus, METRICS),
        "resamples": lambda: iter_resamples_study(statistics),
        "human": lambda: iter_human_study(compute_statistics(judged, (*METRICS, "human"))),
    }


def main() -> None:
    """Build the set, run the studies asked for, print their times."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default=",".join(STUDIES), help="comma-separated studies")
    parser.add_argument("--runs", type=int, default=1, help="runs of each study (default 1)")
    args = parser.parse_args()
    if not SHARED.is_dir():
        raise SystemExit(f"the shared WMT data is needed and absent: {SHARED}")
    with tempfile.TemporaryDirectory() as folder:
        refs, systems = write_set(Path(folder))
        corpus = assemble(
            [load_file(p, {Role.REFERENCE}) for p in refs]
            + [load_file(p, {Role.SYSTEM}) for p in systems]
        )
    statistics = compute_statistics(corpus, METRICS)
    print(f"set: {corpus.test_set.size} segments, {len(refs)} references, {len(systems)} systems")
    for name, study in runs(corpus, statistics).items():
        if name in args.only.split(","):
            times = [timed(study())[:2] for _ in range(max(args.runs, 1))]
            seconds = sorted(t for t, _ in times)
            gap = max(g for _, g in times)
            spread = f"{seconds[0]:6.1f} s" + (f" - {seconds[-1]:.1f} s" if len(times) > 1 else "")
            print(f"  {name:<10} {spread}, longest gap between snapshots {gap:5.2f} s")
            record("studies", **{f"{name}_s": seconds[0], f"{name}_longest_gap_s": gap})


if __name__ == "__main__":
    main()
