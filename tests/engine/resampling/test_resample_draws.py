"""Counts drawn ahead on a helper thread: the same stream, bounded, stoppable."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from mtgui.engine.analysis import iter_analysis, start_draws
from mtgui.engine.core.running import run_to_end
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.resampling.bootstrap import iter_bootstrap
from mtgui.engine.resampling.draws import (
    ResampleDraws,
    _distinct_columns,
    draw_compact_counts,
    draw_counts,
)
from mtgui.engine.resampling.settings import BootstrapSettings, Unit
from mtgui.io.demo import load_demo


def test_taking_in_any_sizes_gives_the_stream_drawn_at_once():
    expected = draw_counts(np.random.default_rng(7), 2500, 40)
    draws = ResampleDraws(7, 2500, 40, budget=40 * 300)
    taken = [draws.take(size) for size in (1, 999, 700, 800)]
    draws.close()
    assert np.array_equal(np.concatenate(taken), expected)
    assert all(t.dtype == np.float32 for t in taken)  # whole numbers: exact in float32


def test_counts_are_draws_of_n_out_of_n():
    counts = draw_counts(np.random.default_rng(0), 50, 13)
    assert np.array_equal(counts.sum(axis=1), np.full(50, 13.0))
    assert counts.min() >= 0


@pytest.mark.parametrize("alone", [False, True])
@pytest.mark.parametrize("units", [1, 40, 255, 256, 3000])
def test_counts_waiting_in_one_byte_are_the_same_counts(units, alone):
    compact = draw_compact_counts(np.random.default_rng(11), 300, units, alone=alone)
    assert compact.dtype == np.uint8
    assert np.array_equal(compact, draw_counts(np.random.default_rng(11), 300, units))


class _AllOnTheFirstUnit:
    """A generator whose every draw is unit 0: the one way a count passes 255."""

    def integers(self, low, high, size):
        return np.zeros(size, dtype=np.int64)


@pytest.mark.parametrize("alone", [False, True])
@pytest.mark.parametrize("units", [300, 70_000])  # row sums checked in 16 bits, then in 64
def test_a_count_over_255_is_counted_again_in_float32_not_wrapped(alone, units):
    counts = draw_compact_counts(_AllOnTheFirstUnit(), 3, units, alone=alone)
    assert counts.dtype == np.float32
    assert np.array_equal(counts[:, 0], [units] * 3)
    assert counts[:, 1:].sum() == 0


def test_the_counts_taken_are_float32_whichever_way_they_waited():
    draws = ResampleDraws(5, 700, 3000)
    taken = draws.take(700)
    draws.close()
    assert taken.dtype == np.float32
    assert np.array_equal(taken, draw_counts(np.random.default_rng(5), 700, 3000))


def test_the_budget_counts_bytes_so_the_standing_benchmark_waits_whole():
    draws = ResampleDraws(1, 10_000, 3000)  # B = 10,000 of 3,000 segments: 10 chunks
    assert draws._queue.maxsize >= 10
    draws.close()


def test_at_most_the_budget_waits_and_close_stops_the_helper():
    draws = ResampleDraws(1, 100_000, 1000, budget=2e6)  # 1000 resamples a chunk, 2 chunks
    draws.take(10)
    assert draws._queue.qsize() <= draws._queue.maxsize == 2
    draws.close()
    assert not draws._thread.is_alive()


def test_a_failure_on_the_helper_thread_reaches_the_consumer(monkeypatch):
    def fail(*_):
        raise MemoryError("no room for the counts")

    monkeypatch.setattr("mtgui.engine.resampling.draws.draw_compact_counts", fail)
    draws = ResampleDraws(1, 100, 10)
    with pytest.raises(MemoryError, match="no room"):
        draws.take(10)
    draws.close()


@pytest.mark.parametrize("unit", list(Unit))
def test_draws_started_before_the_statistics_change_no_result(unit):
    corpus = load_demo()
    settings = BootstrapSettings(resamples=300, unit=unit)
    with_draws = run_to_end(iter_analysis(corpus, ["bleu", "nist"], MetricSettings(), settings))
    draws = start_draws(corpus, settings)
    expected_units = (
        len(corpus.test_set.documents) if unit is Unit.DOCUMENT else corpus.test_set.size
    )
    assert draws.units == expected_units
    draws.close()
    statistics = with_draws.statistics
    documents = corpus.test_set.document_index()
    alone = run_to_end(iter_bootstrap(statistics, settings, documents))
    for mine, theirs in zip(with_draws.bootstrap.intervals, alone.intervals, strict=True):
        assert np.array_equal(mine.samples, theirs.samples)


def test_stopping_an_analysis_during_the_statistics_stops_the_drawing():
    before = {t.ident for t in threading.enumerate()}
    analysis = iter_analysis(
        load_demo(), ["bleu"], MetricSettings(), BootstrapSettings(resamples=100_000)
    )
    next(analysis)
    analysis.close()
    drawing = [t for t in threading.enumerate() if t.name == "mtgui-draw" and t.ident not in before]
    assert drawing == []


def test_equal_columns_are_multiplied_once_and_a_shared_key_is_not_enough(monkeypatch):
    rng = np.random.default_rng(2)
    rows = rng.integers(0, 9, (50, 6)).astype(float)
    rows[:, 3] = rows[:, 0]  # equal to column 0
    rows[:, 4] = rows[:, 1]
    rows[7, 4] += 1  # but for one value
    rows[:, 5] = np.where(rows[:, 2] == 0, -0.0, rows[:, 2])  # equal values, other bits
    kept, where = _distinct_columns(rows)
    assert kept == [0, 1, 2, 4, 5] and where.tolist() == [0, 1, 2, 0, 3, 4]
    same_key = np.zeros(6, dtype=np.uint64)
    monkeypatch.setattr("mtgui.engine.resampling.draws._column_keys", lambda rows: same_key)
    assert _distinct_columns(rows)[1].tolist() == [0, 1, 2, 0, 3, 2]  # compared value by value
