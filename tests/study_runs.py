"""Running the studies in tests: every snapshot and the result, and the demo's statistics."""

from __future__ import annotations

from collections.abc import Generator
from functools import cache
from typing import Any

from mtgui.engine.core.arrays import IntArray
from mtgui.engine.statistics.rows import Statistics, compute_statistics
from mtgui.io.demo import load_demo

METRICS = ("bleu", "nist", "mbleu")


def run(generator: Generator[Any, None, Any]) -> tuple[list[Any], Any]:
    """Exhaust a study: (its snapshots, its result)."""
    snapshots = []
    while True:
        try:
            snapshots.append(next(generator))
        except StopIteration as finished:
            return snapshots, finished.value


@cache
def demo_statistics() -> tuple[Statistics, IntArray]:
    """The demo's BLEU, NIST and M-BLEU statistics and its document index."""
    corpus = load_demo()
    return compute_statistics(corpus, METRICS), corpus.test_set.document_index()
