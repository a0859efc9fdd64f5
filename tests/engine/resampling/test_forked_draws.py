"""Counts drawn by a forked child: the thread's counts, whatever happens to the child."""

from __future__ import annotations

import os
import signal
import time

import numpy as np
import pytest

from mtgui.engine.analysis import iter_analysis, start_draws
from mtgui.engine.core.errors import InputError
from mtgui.engine.core.running import run_to_end
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.resampling import forked_draws
from mtgui.engine.resampling.draws import ResampleDraws, draw_counts
from mtgui.engine.resampling.forked_draws import ForkedDraws
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.engine.statistics.system_helper import can_fork
from mtgui.io.demo import load_demo

pytestmark = pytest.mark.skipif(not can_fork(), reason="forking is for Linux only")


def _started(seed: int, total: int, units: int) -> ForkedDraws:
    draws = ForkedDraws.start(seed, total, units)
    assert draws is not None
    return draws


def _taken(draws: ForkedDraws, sizes: list[int]) -> np.ndarray:
    try:
        return np.concatenate([draws.take(size) for size in sizes])
    finally:
        draws.close()


def test_the_child_draws_the_threads_stream_in_any_sizes() -> None:
    expected = draw_counts(np.random.default_rng(7), 2500, 40)
    draws = _started(7, 2500, 40)
    taken = [draws.take(size) for size in (1, 999, 700, 800)]
    draws.close()
    assert all(t.dtype == np.float32 for t in taken)
    assert np.array_equal(np.concatenate(taken), expected)


def test_the_standing_benchmarks_counts_are_the_threads() -> None:
    thread = ResampleDraws(1, 10_000, 3000)
    expected = np.concatenate([thread.take(1000) for _ in range(10)])
    thread.close()
    assert np.array_equal(_taken(_started(1, 10_000, 3000), [3000, 7000]), expected)


def test_no_child_where_the_counts_would_not_fit_or_nothing_can_fork(monkeypatch) -> None:
    assert ForkedDraws.start(1, 1000, int(forked_draws.SHARED_AT_MOST) // 1000 + 1) is None
    assert ForkedDraws.start(1, 0, 100) is None
    monkeypatch.setattr(forked_draws, "can_fork", lambda: False)
    assert ForkedDraws.start(1, 100, 10) is None


@pytest.mark.parametrize("failing", ["mmap.mmap", "os.pipe", "os.fork"])
def test_no_child_where_the_system_refuses_one(monkeypatch, failing) -> None:
    module, name = failing.split(".")

    def refuse(*_):
        raise OSError(12, "Cannot allocate memory")

    monkeypatch.setattr(getattr(forked_draws, module), name, refuse)
    assert ForkedDraws.start(1, 100, 10) is None


def test_a_bad_seed_fails_at_once() -> None:
    with pytest.raises(InputError, match="seed"):
        ForkedDraws.start(-1, 100, 10)


def _failing_on_call(number: int, failure):
    calls = []
    real = forked_draws.draw_compact_counts

    def draw(rng, size, units):
        calls.append(size)
        if len(calls) == number:
            return failure(rng, size, units)
        return real(rng, size, units)

    return draw


@pytest.mark.parametrize(
    "failure",
    [
        pytest.param(lambda *_: os._exit(3), id="the child dies"),
        pytest.param(lambda *_: 1 / 0, id="the child fails"),
        pytest.param(
            lambda rng, size, units: np.zeros((size, units), np.float32), id="a count over 255"
        ),
    ],
)
def test_a_child_stopping_early_costs_time_not_counts(monkeypatch, failure) -> None:
    # Chunks of 4 resamples of 10**6 units: the child stops at its third.
    monkeypatch.setattr(forked_draws, "SHARED_AT_MOST", 2e7)
    monkeypatch.setattr(forked_draws, "draw_compact_counts", _failing_on_call(3, failure))
    expected = draw_counts(np.random.default_rng(5), 20, 10**6)
    draws = _started(5, 20, 10**6)
    assert np.array_equal(_taken(draws, [6, 14]), expected)
    assert draws._fallback is not None


def test_a_stop_read_with_the_last_chunks_needed_is_remembered(monkeypatch) -> None:
    """The child's stop can come in the same read as the chunks a take needs; the next take
    then draws on the thread at once (the child, waiting for this process, sends no more)."""
    monkeypatch.setattr(forked_draws, "SHARED_AT_MOST", 2e7)
    monkeypatch.setattr(forked_draws, "draw_compact_counts", _failing_on_call(3, lambda *_: 1 / 0))
    expected = draw_counts(np.random.default_rng(5), 20, 10**6)
    draws = _started(5, 20, 10**6)
    time.sleep(2)  # two chunks and the stop are in the pipe: the first take reads them at once
    started = time.monotonic()
    assert np.array_equal(_taken(draws, [6, 14]), expected)
    assert draws._fallback is not None and time.monotonic() - started < forked_draws.PATIENCE


def test_a_stopped_child_is_not_waited_for(monkeypatch) -> None:
    monkeypatch.setattr(forked_draws, "SHARED_AT_MOST", 2e7)
    monkeypatch.setattr(forked_draws, "PATIENCE", 0.2)
    expected = draw_counts(np.random.default_rng(9), 20, 10**6)
    draws = _started(9, 20, 10**6)  # 5 chunks of 4 resamples
    os.kill(draws._pid, signal.SIGSTOP)  # as a user might, with kill -STOP
    assert np.array_equal(_taken(draws, [20]), expected)
    assert draws._fallback is not None


def test_close_ends_the_child_and_frees_the_mapping() -> None:
    """The mapping is freed here at once; the child (which frees the memory as it ends) is
    reaped by a daemon thread soon after."""
    draws = _started(3, 5000, 3000)
    draws.take(10)
    pid = draws._pid
    draws.close()
    assert draws._shared.closed
    deadline = time.monotonic() + 30
    while _alive(pid):
        assert time.monotonic() < deadline, "the child was never reaped"
        time.sleep(0.01)
    draws.close()  # twice is harmless


def test_a_child_that_has_drawn_everything_waits_for_the_parent_and_ends_with_it() -> None:
    """Done drawing, the child keeps the counts' memory until the parent is done with them;
    if the parent ends without stopping it (its end of the pipe closes), the child ends too."""
    draws = _started(4, 40, 100)
    assert draws.take(40).shape == (40, 100)  # all drawn
    time.sleep(0.2)
    assert os.waitpid(draws._pid, os.WNOHANG) == (0, 0)  # still there, waiting
    os.close(draws._hold)  # as the parent's end would close if it died
    _, status = os.waitpid(draws._pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    draws._pid, draws._counts = 0, None  # ended and reaped: nothing left to stop
    draws._shared.close()
    os.close(draws._fd)


def _alive(pid: int) -> bool:
    """Whether ``pid`` exists, a zombie not yet reaped included."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_an_analysis_that_may_fork_gives_the_threads_numbers() -> None:
    corpus = load_demo()
    settings = BootstrapSettings(resamples=500)
    assert isinstance(start_draws(corpus, settings, fork=True), ForkedDraws)
    runs = [
        run_to_end(iter_analysis(corpus, ["bleu", "nist"], MetricSettings(), settings, fork=fork))
        for fork in (False, True)
    ]
    for threaded, forked in zip(*(run.bootstrap.intervals for run in runs), strict=True):
        assert np.array_equal(threaded.samples, forked.samples)
