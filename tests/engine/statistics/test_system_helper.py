"""A forked helper extracts the last systems on the command line: the statistics are exactly
those of extracting everything here, whatever the helper does (fails, dies, hangs, or is left
behind by a cancel), and it never outlives the run."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from typing import NoReturn

import numpy as np
import pytest

from mtgui.engine.core.corpus import Corpus, SystemOutput
from mtgui.engine.core.running import run_to_end
from mtgui.engine.metrics.base import Metric
from mtgui.engine.metrics.extraction import ExtractionContext
from mtgui.engine.metrics.registry import METRIC_NAMES, REGISTRY
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.statistics import rows as statistics_module
from mtgui.engine.statistics import system_helper
from mtgui.engine.statistics.rows import Statistics, iter_statistics
from mtgui.engine.statistics.system_helper import SystemHelper, can_fork
from mtgui.io.demo import load_demo

pytestmark = pytest.mark.skipif(not can_fork(), reason="the helper is forked only on Linux")
METRICS = ["bleu", "nist", "mbleu", "chrf", "ter"]


@pytest.fixture
def helpers(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[SystemHelper]]:
    """Every helper started, with the demo (4 systems) big enough for one."""
    started: list[SystemHelper] = []
    start = SystemHelper.start.__func__  # type: ignore[attr-defined]

    def spying(cls: type[SystemHelper], *args: object) -> SystemHelper | None:
        helper = start(cls, *args)
        if helper is not None:
            started.append(helper)
        return helper  # type: ignore[no-any-return]

    monkeypatch.setattr(statistics_module, "_HELPER_FROM", 0)
    monkeypatch.setattr(SystemHelper, "start", classmethod(spying))
    yield started
    for helper in started:
        assert helper._pid == 0  # closed, and waited for


def taken_from_helper(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The systems whose rows this process took from the helper (filled as the run goes)."""
    taken: list[int] = []
    rows = SystemHelper.rows

    def spying(self: SystemHelper, index: int, patience: float) -> object:
        found = rows(self, index, patience)
        if found is not None:
            taken.append(index)
        return found

    monkeypatch.setattr(SystemHelper, "rows", spying)
    return taken


def extracted(corpus: Corpus, fork: bool) -> Statistics:
    return run_to_end(iter_statistics(corpus, METRICS, MetricSettings(), fork=fork))


def assert_same(a: Statistics, b: Statistics) -> None:
    assert a.system_names == b.system_names
    for name in a.system_names:
        for metric in METRICS:
            ours, theirs = a.rows(name, metric), b.rows(name, metric)
            assert ours.dtype == theirs.dtype and np.array_equal(ours, theirs)
            assert not ours.flags.writeable


def test_the_helper_gives_the_very_rows_of_extracting_here(
    helpers: list[SystemHelper], monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus = load_demo()
    taken = taken_from_helper(monkeypatch)
    forked = extracted(corpus, fork=True)
    assert len(helpers) == 1
    assert taken and set(taken) <= {1, 2, 3}  # from the back; the first is always done here
    assert_same(forked, extracted(corpus, fork=False))


def test_the_helper_is_forked_before_the_first_system_with_the_references_prepared(
    helpers: list[SystemHelper], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both cores work from the first system on, and the helper shares what the metrics
    keep of the references instead of building it again."""
    events: list[str] = []
    rows = ExtractionContext.rows

    def spying(self: ExtractionContext, metric: Metric, system: SystemOutput) -> object:
        if not events or events[-1] != "rows":
            kept = "prepared" if "reference_ngrams" in self.__dict__ else "unprepared"
            events.append(f"rows, {kept}, {len(helpers)} helper(s)")
        return rows(self, metric, system)

    monkeypatch.setattr(ExtractionContext, "rows", spying)
    extracted(load_demo(), fork=True)
    assert events[0] == "rows, prepared, 1 helper(s)"


@pytest.mark.parametrize("name", [n for n in METRIC_NAMES if n not in ("human",)])
def test_a_metric_prepares_everything_it_keeps_of_the_references(name: str) -> None:
    """What ``prepare`` builds is all an extraction keeps in the context for later systems:
    nothing of the references is left for the forked helper to build again."""
    corpus = load_demo()
    context = ExtractionContext(corpus.test_set, MetricSettings(), corpus.scores)
    metric = REGISTRY[name].factory(corpus.test_set, MetricSettings())
    metric.prepare(context)
    prepared = (set(context.__dict__), set(context._memo))
    metric.extract(context, corpus.systems[0])
    assert (set(context.__dict__), set(context._memo)) == prepared


def test_without_fork_or_with_too_little_work_no_helper_starts(
    helpers: list[SystemHelper], monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus = load_demo()
    extracted(corpus, fork=False)  # the window's runs
    monkeypatch.setattr(statistics_module, "_HELPER_FROM", 95 * 3 + 1)  # the demo: 95 x 3 left
    extracted(corpus, fork=True)
    assert helpers == []


def in_the_helper_only(parent: int, action: Callable[[], None]) -> Callable[..., object]:
    """ExtractionContext.rows that runs ``action`` first in the forked helper."""
    rows = ExtractionContext.rows

    def patched(self: ExtractionContext, *args: object) -> object:
        if os.getpid() != parent:
            action()
        return rows(self, *args)  # type: ignore[arg-type]

    return patched


def fail() -> None:
    raise RuntimeError("the helper fails")


def hang() -> None:
    time.sleep(3600)


@pytest.mark.parametrize(
    "action", [fail, lambda: os._exit(3), hang], ids=["fails", "dies", "hangs"]
)
def test_a_helper_that_fails_dies_or_hangs_costs_time_not_results(
    helpers: list[SystemHelper], monkeypatch: pytest.MonkeyPatch, action: Callable[[], None]
) -> None:
    corpus = load_demo()
    expected = extracted(corpus, fork=False)
    monkeypatch.setattr(ExtractionContext, "rows", in_the_helper_only(os.getpid(), action))
    taken = taken_from_helper(monkeypatch)
    started = time.monotonic()
    assert_same(extracted(corpus, fork=True), expected)
    assert len(helpers) == 1 and taken == []
    assert time.monotonic() - started < 30  # a hung helper is waited for a bounded time


def test_a_cancel_stops_the_helper_at_once(
    helpers: list[SystemHelper], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Closing the generator (the cancel) kills the helper, even mid-system, and reaps it."""
    corpus = load_demo()
    monkeypatch.setattr(ExtractionContext, "rows", in_the_helper_only(os.getpid(), hang))
    run = iter_statistics(corpus, METRICS, MetricSettings(), fork=True)
    while not helpers:
        next(run)
    pid = helpers[0]._pid
    run.close()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # gone, and reaped (a zombie would still take signal 0)


def test_the_helper_sends_in_its_order_and_unasked_systems_are_none() -> None:
    helper = SystemHelper.start(lambda index: {"m": np.full((2, 2), float(index))}, [2, 1])
    assert helper is not None
    got: dict[int, object] = {}
    deadline = time.monotonic() + 30
    while len(got) < 2 and time.monotonic() < deadline:
        for index in (1, 2):
            rows = helper.rows(index, patience=10.0)
            if rows is not None:
                got[index] = rows["m"]
        time.sleep(0.01)
    assert helper.rows(3, patience=10.0) is None  # never begun: None at once
    helper.close()
    assert [float(np.asarray(got[i]).sum()) for i in (1, 2)] == [4.0, 8.0]


def test_a_helper_begins_no_system_this_process_has_reached_and_then_ends() -> None:
    """Told that this process has reached system 2, the helper (going 3, 2, 1) sends 3, begins
    neither 2 nor 1, and ends by itself: no work for nothing, its memory freed early."""

    def slow(index: int) -> dict[str, np.ndarray]:
        time.sleep(0.3)
        return {"m": np.full(2, float(index))}

    helper = SystemHelper.start(slow, [3, 2, 1])
    assert helper is not None
    helper.reached(2)
    pid, deadline = helper._pid, time.monotonic() + 30
    while os.waitpid(pid, os.WNOHANG) == (0, 0):  # it ends without being stopped
        assert time.monotonic() < deadline, "the helper went on"
        time.sleep(0.01)
    helper._pid = 0  # reaped here
    rows = helper.rows(3, patience=30.0)
    assert rows is not None and rows["m"].tolist() == [3.0, 3.0]
    assert helper.rows(2, patience=30.0) is None and helper.rows(1, patience=30.0) is None
    helper.close()


def test_the_helpers_pipe_holds_a_systems_rows_at_once() -> None:
    """A megabyte, not Linux's default 64 KB: the helper's 600 KB of rows on the standing
    benchmark go in without waiting for this process's reading thread."""
    import fcntl

    def slow(index: int) -> dict[str, np.ndarray]:
        time.sleep(2.0)  # the pipe stays open while it is looked at
        return {"m": np.zeros(3)}

    helper = SystemHelper.start(slow, [1])
    assert helper is not None
    try:
        assert fcntl.fcntl(helper._fd, fcntl.F_GETPIPE_SZ) == system_helper.PIPE_BYTES
    finally:
        helper.close()


def test_a_helper_whose_work_is_in_is_reaped_without_waiting_for_it() -> None:
    """``close(wait=False)``: the helper is killed and reaped by a daemon thread, so this
    process does not wait while the helper's memory is freed; it is gone soon after."""
    helper = SystemHelper.start(lambda index: {"m": np.zeros(3)}, [1])
    assert helper is not None
    pid, deadline = helper._pid, time.monotonic() + 30
    while helper.rows(1, patience=30.0) is None:  # None until the helper has begun on it
        assert time.monotonic() < deadline
    helper.close(wait=False)
    assert helper._pid == 0 and helper.rows(2, patience=30.0) is None  # over: none waited for
    assert_reaped(pid)


def test_a_run_leaves_no_helper_behind(
    helpers: list[SystemHelper], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run that took the helper's systems ends it without waiting; it is reaped soon after."""
    ended: list[tuple[int, bool]] = []
    end_child = system_helper.end_child

    def spying(pid: int, wait: bool = True) -> None:
        ended.append((pid, wait))
        end_child(pid, wait)

    monkeypatch.setattr(system_helper, "end_child", spying)
    run_to_end(iter_statistics(load_demo(), ["bleu"], MetricSettings(), fork=True))
    assert len(helpers) == 1 and [wait for _, wait in ended] == [False]
    assert_reaped(ended[0][0])


def assert_reaped(pid: int) -> None:
    """Wait (at most 30 s) until the child ``pid`` is reaped: a zombie still takes signal 0."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.01)
    pytest.fail(f"the child {pid} was never reaped")


@pytest.mark.parametrize("refused", ["pipe", "fork"])
def test_no_helper_where_no_pipe_or_process_can_be_had(monkeypatch, refused) -> None:
    def refuse(*_):
        raise OSError(24, "Too many open files")

    monkeypatch.setattr(os, refused, refuse)
    assert SystemHelper.start(lambda index: {}, [1]) is None  # extracted here instead


HELPER_SCRIPT = """
import atexit, sys
import numpy as np
from mtgui.engine.statistics.system_helper import SystemHelper
atexit.register(lambda: print("exit handler ran"))
print("buffered before the fork", end=" ")
helper = SystemHelper.start(lambda index: {"m": np.zeros(3)}, [1])
while helper.rows(1, patience=30.0) is None:  # till it has sent them and left on its own
    pass
helper._reader.join(timeout=30)  # the pipe's end: the helper has exited
helper.close()
"""


def test_the_helper_never_runs_the_parents_exit_handlers_or_flushes_its_buffers() -> None:
    """The helper leaves by os._exit: an exit handler or a buffered print of this process must
    not run twice (a command's handlers remove the temporary files of the outputs it writes)."""
    done = subprocess.run(
        [sys.executable, "-c", HELPER_SCRIPT], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "buffered before the fork exit handler ran\n"
    assert done.stderr == ""


def test_a_forked_child_gives_back_the_free_pages_of_its_heap_before_it_works(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """fork_child's child calls malloc_trim first (see fork_child), so that the pages free at
    the fork are not copied where the parent writes into them again; the parent does not."""
    calls: list[str] = []
    monkeypatch.setattr(system_helper, "give_back_freed_memory", lambda: calls.append("trim"))

    def child(fd: int) -> NoReturn:
        os.write(fd, ",".join([*calls, "work"]).encode())
        os._exit(0)

    forked = system_helper.fork_child(child)
    assert forked is not None
    pid, read_fd = forked
    with os.fdopen(read_fd, "rb") as pipe:
        said = pipe.read()
    os.waitpid(pid, 0)
    assert said == b"trim,work"
    assert calls == []  # here, in the parent, nothing was given back
