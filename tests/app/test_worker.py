"""The worker layer: engine generators on QThreads, progress, cancel, supersede, errors."""

from __future__ import annotations

import os
import threading
import time

import pytest

from mtgui.app.runs import RunController
from mtgui.engine.core.errors import InputError
from mtgui.engine.core.running import run_to_end
from mtgui.engine.resampling.bootstrap import iter_bootstrap
from mtgui.engine.resampling.draws import BootstrapProgress
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.engine.statistics.rows import compute_statistics
from mtgui.io.demo import load_demo


def counting(steps: int, pause: float = 0.0, fail: Exception | None = None):
    """A generator factory: yields 1..steps (sleeping ``pause`` each), returns 'done'."""

    def factory():
        for step in range(1, steps + 1):
            if pause:
                time.sleep(pause)
            if fail is not None and step == steps // 2:
                raise fail
            yield step
        return f"done in thread {threading.current_thread().name}"

    return factory


@pytest.fixture
def controller(qtbot):
    controller = RunController(interval=0.0)
    yield controller
    assert controller.shutdown()


def test_a_run_reports_progress_then_its_result_off_the_gui_thread(qtbot, controller):
    seen = []
    controller.progress_changed.connect(seen.append)
    with qtbot.waitSignal(controller.finished, timeout=5000) as result:
        controller.start(counting(50))
    assert result.args[0].startswith("done in thread ")
    assert result.args[0] != f"done in thread {threading.current_thread().name}"
    assert seen[-1] == 50 and seen == sorted(seen)
    assert not controller.running


def test_progress_is_throttled_but_the_last_snapshot_always_arrives(qtbot):
    controller = RunController(interval=10.0)
    seen = []
    controller.progress_changed.connect(seen.append)
    with qtbot.waitSignal(controller.finished, timeout=5000):
        controller.start(counting(1000))
    assert seen == [1, 1000]  # the first, then nothing for 10 s, then the last one
    assert controller.shutdown()


def test_cancel_stops_within_one_step(qtbot, controller):
    steps = []

    def factory():
        for step in range(1, 10_001):
            time.sleep(0.01)
            steps.append(step)
            yield step

    with qtbot.waitSignal(controller.progress_changed, timeout=5000):
        controller.start(factory)
    ((thread, _),) = controller._threads.values()
    with qtbot.waitSignal(controller.cancelled, timeout=30_000):
        controller.cancel()
        taken_at_cancel = len(steps)
    assert thread.wait(30_000)
    assert len(steps) <= taken_at_cancel + 1  # the step under way ends, no other starts
    assert not controller.running


def test_a_new_run_supersedes_the_old_one(qtbot, controller):
    results = []
    controller.finished.connect(results.append)
    controller.start(counting(10_000, pause=0.001))
    with qtbot.waitSignal(controller.finished, timeout=5000):
        controller.start(counting(3))
    qtbot.wait(100)
    assert len(results) == 1 and results[0].startswith("done")
    assert controller.run_id == 2


@pytest.mark.parametrize(
    ("error", "message"),
    [
        (InputError("the reference is empty.", path="ref.txt"), "ref.txt: the reference is empty."),
        (ZeroDivisionError("boom"), "internal error (ZeroDivisionError: boom). This is a bug"),
    ],
)
def test_errors_become_messages_not_crashes(qtbot, controller, error, message, capsys):
    with qtbot.waitSignal(controller.failed, timeout=5000) as failed:
        controller.start(counting(10, fail=error))
    assert failed.args[0].startswith(message)
    assert not controller.running


def test_synchronous_mode_runs_in_the_callers_thread(qtbot):
    controller = RunController(synchronous=True, interval=0.0)
    results = []
    controller.finished.connect(results.append)
    controller.start(counting(5))
    assert results == [f"done in thread {threading.current_thread().name}"]


def test_the_real_bootstrap_through_the_worker_equals_a_direct_run(qtbot, controller):
    statistics = compute_statistics(load_demo(), ["bleu", "nist"])
    settings = BootstrapSettings(resamples=500)
    snapshots = []
    controller.progress_changed.connect(snapshots.append)
    with qtbot.waitSignal(controller.finished, timeout=20_000) as finished:
        controller.start(lambda: iter_bootstrap(statistics, settings, chunk=50))
    direct = run_to_end(iter_bootstrap(statistics, settings))
    assert finished.args[0].pairs == direct.pairs
    assert all(isinstance(s, BootstrapProgress) for s in snapshots)
    assert snapshots[-1].done == 500


@pytest.mark.skipif(not hasattr(os, "getpriority"), reason="thread priorities are Linux's")
def test_the_worker_thread_gives_way_to_the_window_and_the_gui_thread_does_not(qtbot):
    def niceness():
        yield 1
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    own = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    threaded = RunController()
    with qtbot.waitSignal(threaded.finished, timeout=5000) as result:
        threaded.start(niceness)
    assert result.args[0] == min(own + 10, 19)
    assert threaded.shutdown()
    synchronous = RunController(synchronous=True)
    with qtbot.waitSignal(synchronous.finished, timeout=5000) as result:
        synchronous.start(niceness)
    assert result.args[0] == own


def test_the_keeper_lets_a_finished_thread_go_only_once_it_has_waited_for_it(qtbot, monkeypatch):
    """Qt says a thread has finished while it still cleans up; destroyed then, its QThread and
    worker were freed under it (a crash in a thread without a Python frame). The keeper waits
    for the thread's last steps before it lets go of it."""
    from mtgui.app import threads as threads_module
    from mtgui.app.worker import GeneratorWorker

    waited: list[object] = []
    original = threads_module.RunThread.wait

    def wait(self, timeout_ms=None):
        waited.append((self, self in threads_module._keeper().threads))
        return original(self, timeout_ms)

    monkeypatch.setattr(threads_module.RunThread, "wait", wait)
    thread = threads_module.RunThread(GeneratorWorker(7, counting(3)), lambda: None)
    keeper = threads_module._keeper()
    thread.start()
    qtbot.waitUntil(lambda: thread not in keeper.threads, timeout=5000)
    assert waited and all(seen is thread and kept for seen, kept in waited)
