"""Garbage holding Qt objects is collected by the GUI thread, never by a busy worker thread."""

from __future__ import annotations

import gc
import threading
from typing import ClassVar

from mtgui.app.garbage import GuiThreadCollector
from mtgui.views.window.launch import create_application


class Cycle:
    """A garbage cycle that records the thread that destroys it."""

    destroyed_in: ClassVar[list[str]] = []

    def __init__(self) -> None:
        self.me = self

    def __del__(self) -> None:
        Cycle.destroyed_in.append(threading.current_thread().name)


def test_a_worker_allocating_a_lot_never_collects_and_the_gui_timer_does(qtbot):
    collector = GuiThreadCollector(interval_ms=20)
    try:
        assert not gc.isenabled()
        Cycle.destroyed_in.clear()
        Cycle()  # unreachable at once, but only a collection can free it

        kept: list[list[list[int]]] = []

        def allocate() -> None:  # enough live containers to cross every threshold many times
            kept.append([[index] for index in range(200_000)])

        worker = threading.Thread(target=allocate, name="busy worker")
        worker.start()
        worker.join()
        assert Cycle.destroyed_in == []  # the worker's allocations collected nothing
        qtbot.waitUntil(lambda: Cycle.destroyed_in == ["MainThread"], timeout=5000)
        assert len(kept[0]) == 200_000
    finally:
        collector.stop()


def test_collection_goes_generation_by_generation_past_the_thresholds(qtbot):
    collector = GuiThreadCollector(interval_ms=60_000)  # collect() called by hand here
    try:
        gc.collect()
        assert collector.collect() == 0  # nothing new: nothing to do
        Cycle.destroyed_in.clear()
        Cycle()
        junk = [[] for _ in range(gc.get_threshold()[0] + 10)]
        assert collector.collect() >= 1 and Cycle.destroyed_in == ["MainThread"]
        assert len(junk) > 0
    finally:
        collector.stop()


def test_the_young_are_collected_at_every_tick_below_the_threshold(qtbot):
    """A few big containers (files just read) count as a few objects: they must not wait
    until others have crossed the threshold, to be visited all at once."""
    collector = GuiThreadCollector(interval_ms=60_000)
    try:
        gc.collect()
        Cycle.destroyed_in.clear()
        Cycle()  # one object, far below the threshold of 700
        assert gc.get_count()[0] < gc.get_threshold()[0]
        assert collector.collect() >= 1 and Cycle.destroyed_in == ["MainThread"]
    finally:
        collector.stop()


def test_the_older_generations_wait_for_as_many_objects_as_python_would(qtbot):
    """Collecting the young at every tick must not make full collections (which visit every
    object the program holds) more frequent than the automatic collector makes them."""
    collector = GuiThreadCollector(interval_ms=60_000)
    generations: list[int] = []

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            generations.append(info["generation"])

    gc.callbacks.append(note)
    try:
        gc.collect()
        generations.clear()
        kept = []
        for _ in range(200):  # a few objects a tick: 2,000 in all, fewer than 700 x 11
            kept.append([[] for _ in range(10)])
            collector.collect()
        assert set(generations) == {0}
        young, middle, old = gc.get_threshold()
        for _ in range(old + 1):  # enough for a collection of generation 1 each time
            kept.append([[] for _ in range(young * (middle + 1))])
            collector.collect()
        assert generations.count(1) == old and generations.count(2) == 1
    finally:
        gc.callbacks.remove(note)
        collector.stop()


def test_the_application_collects_in_its_own_thread_once():
    app = create_application()
    create_application()
    assert len(app.findChildren(GuiThreadCollector)) == 1
