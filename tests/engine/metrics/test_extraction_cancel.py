"""A cancel takes effect promptly during slow statistics (issue 13, item 12).

The engine's generators are cancelled by closing them between yields. chrF is counted in
chunks on its own threads, and TER (compiled, but still the slowest metric) spends up to tens
of milliseconds on one long segment; they yield between chunks of segments sized to take a few
hundredths of a second. Counted in segments, not seconds: a cancel asked for in the middle of
a system takes effect after the chunk under way.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from sacrebleu.metrics.chrf import CHRF
from sacrebleu.metrics.ter import TER

from mtgui.engine.core.corpus import Corpus, Origin, SystemOutput, TestSet, TextColumn
from mtgui.engine.metrics.chrf.chrf import Chrf
from mtgui.engine.metrics.extraction import ExtractionContext
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.metrics.ter.ter import Ter
from mtgui.engine.runtime.timed_chunks import ChunkSizer
from mtgui.engine.statistics.rows import StatisticsProgress, iter_statistics
from mtgui.io.demo import load_demo

SEGMENTS = 300
ASKED_AFTER = 30  # the cancel is asked for while the 30th segment is being scored


def _long_corpus(segments: int = SEGMENTS, words: int = 20) -> Corpus:
    """Long, different sentences: TER's shift search has work to do on every one."""
    rng = np.random.default_rng(5)
    vocabulary = [f"w{i}" for i in range(60)]

    def sentence() -> str:
        return " ".join(rng.choice(vocabulary, size=words))

    origin = Origin("long.txt", "plain text", "utf-8")
    reference = TextColumn("ref", tuple(sentence() for _ in range(segments)), origin)
    test_set = TestSet(
        doc_ids=("",) * segments,
        seg_ids=tuple(str(i + 1) for i in range(segments)),
        references=(reference,),
        has_documents=False,
    )
    system = SystemOutput("sys", tuple(sentence() for _ in range(segments)), origin)
    return Corpus(test_set, (system,))


def test_closing_the_extraction_during_ter_stops_within_a_chunk(monkeypatch):
    from mtgui.engine.metrics.ter import search as ter_search

    scored: list[int] = []
    asked: list[int] = []
    real = ter_search.ter_rows

    def counting(hyp_ids, hyp_starts, ref_ids, ref_starts, ref_ends, present, out):
        real(hyp_ids, hyp_starts, ref_ids, ref_starts, ref_ends, present, out)
        for _ in range(len(out)):  # the chunk's segments, one by one
            scored.append(1)
            if len(scored) == ASKED_AFTER:
                asked.append(len(scored))  # as a worker's abort flag is set from the GUI thread

    monkeypatch.setattr(ter_search, "ter_rows", counting)
    extraction = iter_statistics(_long_corpus(), ("ter",))
    snapshots = []
    while not asked:  # the worker's loop: one step, then look at the abort flag
        snapshots.append(next(extraction))
    extraction.close()
    after = len(scored) - asked[0]
    assert after <= 2 * ASKED_AFTER  # a chunk grows at most twofold: never the whole system
    assert len(scored) < SEGMENTS / 2
    inside = [s for s in snapshots if s.metric == "ter"]
    assert inside and all(s.done == 0 and s.system == "sys" for s in inside)
    assert [s.segments for s in inside] == sorted(s.segments for s in inside)
    assert inside[-1].segments > 0
    assert all(0 <= s.fraction < 1 for s in inside)


def test_a_cancelled_system_is_extracted_whole_next_time():
    corpus = _long_corpus(segments=30, words=8)
    context = ExtractionContext(corpus.test_set, MetricSettings())
    extraction = context.iter_rows(Ter(), corpus.systems[0])
    next(extraction)
    extraction.close()
    rows = context.rows(Ter(), corpus.systems[0])
    expected = TER(references=[list(corpus.test_set.references[0].texts)])
    stats = expected._extract_corpus_statistics(list(corpus.systems[0].hypotheses), None)
    assert np.array_equal(rows, np.asarray(stats, dtype=np.float64))


@pytest.mark.parametrize(("metric", "scorer"), [(Ter(), TER), (Chrf(), CHRF)])
def test_chunked_statistics_are_sacrebleus_to_the_bit(metric, scorer):
    demo = load_demo()
    context = ExtractionContext(demo.test_set, MetricSettings())
    references = [list(ref.texts) for ref in demo.test_set.references]
    whole = scorer(references=references)
    for system in demo.systems[:2]:
        expected = whole._extract_corpus_statistics(list(system.hypotheses), None)
        assert list(context.iter_rows(metric, system))  # it yields between chunks
        rows = context.rows(metric, system)  # the same rows, cached
        assert np.array_equal(rows, np.asarray(expected, dtype=np.float64))


def test_progress_inside_a_system_keeps_counting_systems():
    demo = load_demo()
    two = replace(demo, systems=demo.systems[:2], scores=())
    snapshots = list(iter_statistics(two, ("bleu", "chrf")))
    finished = [s for s in snapshots if not s.metric]
    assert finished == [StatisticsProgress(k + 1, 2, s.name) for k, s in enumerate(two.systems)]
    fractions = [s.fraction for s in snapshots]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0


def test_chunks_are_sized_by_time_and_grow_at_most_twofold():
    sizer = ChunkSizer(np.ones(100_000), first=8)
    assert sizer.next_stop(0) == 8
    sizer.measure(0, 8, 0.8)  # 0.1 s a segment: one at a time
    assert sizer.next_stop(8) == 9
    sizer.measure(8, 9, 1e-5)  # suddenly fast: at most twice as many
    assert sizer.next_stop(9) == 11
    start = 11
    for _ in range(20):
        stop = sizer.next_stop(start)
        sizer.measure(start, stop, 1e-9)
        start = stop
    assert sizer.next_stop(start) - start == 4096  # never more than this at once


def test_chunks_hold_the_same_estimated_work():
    costs = np.array([1.0] * 100 + [50.0] * 10 + [1.0] * 100)
    sizer = ChunkSizer(costs, first=20)
    sizer.measure(0, 20, 0.01)  # 20 units in 0.01 s: 40 units (2x the last) fit next
    assert sizer.next_stop(20) == 60
    sizer.measure(20, 60, 0.02)  # 2000 units a second: 80 units next
    assert sizer.next_stop(95) == 101  # 5 cheap ones and a costly one: 55; two costly: 105
    assert sizer.next_stop(100) == 101  # one costly segment, where by count it would be 80
    assert sizer.next_stop(110) == 190
