"""Freed memory goes back to the system between systems (glibc only; a no-op elsewhere)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from mtgui.engine.runtime import heap
from mtgui.engine.statistics import rows as statistics
from mtgui.engine.statistics.rows import compute_statistics
from mtgui.io.demo import load_demo


def _resident_mb() -> float:
    with open("/proc/self/statm", encoding="ascii") as statm:
        return int(statm.read().split()[1]) * 4096 / 2**20


@pytest.mark.skipif(heap._malloc_trim() is None, reason="the C library has no malloc_trim")
def test_pages_freed_inside_the_heap_are_given_back() -> None:
    # Freeing a 16 MB block raises glibc's mmap threshold, so the 1 MB blocks after it come
    # from the heap; with one block kept on top, freeing the others leaves a hole the heap
    # keeps, until the trim.
    big = bytearray(16 * 2**20)
    del big
    blocks = [bytearray(2**20) for _ in range(200)]
    top = bytearray(2**20)
    before = _resident_mb()
    del blocks
    kept = _resident_mb()
    assert heap.give_back_freed_memory()
    after = _resident_mb()
    assert kept - after > 100, (before, kept, after)
    del top


@pytest.mark.parametrize("call", [heap.give_back_freed_memory, heap.keep_freed_memory])
def test_it_is_a_no_op_without_glibc(monkeypatch: pytest.MonkeyPatch, call) -> None:
    heap._glibc.cache_clear()
    monkeypatch.setattr(sys, "platform", "darwin")
    try:
        assert call() is False
    finally:
        heap._glibc.cache_clear()


@pytest.mark.parametrize(("trim_from", "trims"), [(96, 0), (95, 4)])
def test_the_heap_is_trimmed_after_each_system_only_on_large_test_sets(
    monkeypatch, trim_from, trims
) -> None:
    calls: list[bool] = []
    monkeypatch.setattr(statistics, "give_back_freed_memory", lambda: calls.append(True))
    monkeypatch.setattr(statistics, "TRIM_FROM", trim_from)
    corpus = load_demo()  # 95 segments, 4 systems
    assert corpus.test_set.size == 95 and len(corpus.systems) == 4
    compute_statistics(corpus, ["bleu"])
    assert len(calls) == trims


REUSE = """
import resource, sys
from mtgui.engine.runtime import heap
if sys.argv[1] == "keep":
    assert heap.keep_freed_memory()
def faults():
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(3):  # blocks of 4 MB made, written and dropped, as numpy's temporaries are
    before = faults()
    blocks = [bytearray(4 * 2**20) for _ in range(8)]
    del blocks
print(faults() - before)
"""


@pytest.mark.skipif(heap._mallopt() is None, reason="the C library has no mallopt")
def test_a_short_run_that_keeps_freed_memory_reuses_its_pages() -> None:
    """Kept, freed blocks are reused: the third round of 32 MB faults next to no page in;
    without, every round faults its 8,192 pages in again (fresh mappings)."""
    rounds = {
        how: int(
            subprocess.run(
                [sys.executable, "-c", REUSE, how], capture_output=True, text=True, check=True
            ).stdout
        )
        for how in ("keep", "default")
    }
    assert rounds["keep"] < 500 and rounds["default"] > 4000, rounds
