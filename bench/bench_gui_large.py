"""Benchmark: is the window responsive with 100,000 segments x 20 systems?

Writes one reference and 20 system outputs of 100,000 lines each (the lines of the benchmark
set of ``bench_statistics.py``, repeated and shifted so that every system differs), drops them
on the main window and measures the longest gap between ticks of a 5 ms timer in the GUI
thread, phase by phase: reading and the run (BLEU, B = 1,000), then what a user does with the
result: opening the Segments view, sorting it by the difference, choosing another pair, the
Details view, the paired view, switching the metric. The goal for every phase is under
100 ms, except reading files, where a dialog-free progress message is enough.

    QT_QPA_PLATFORM=offscreen python bench/bench_gui_large.py
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from bench_statistics import SHARED, write_large_set
from PySide6.QtCore import QEventLoop, Qt, QTimer
from record import record

from mtgui.engine.core.corpus import Role
from mtgui.engine.text.token_pool import allow_workers
from mtgui.views.window.launch import create_application
from mtgui.views.window.main_window import MainWindow

SEGMENTS, SYSTEMS = 100_000, 20


class StallMeter:
    """The longest gap between ticks of a 5 ms GUI-thread timer, per named phase."""

    def __init__(self, status: Callable[[], str]) -> None:
        self.last = time.perf_counter()
        self.longest: dict[str, float] = {}
        self.phase = "start"
        self.status = status  # what the window says it is doing, to tell where a stall was
        self.stalls: list[tuple[float, str, str]] = []
        self.timer = QTimer(interval=5)
        self.timer.timeout.connect(self.tick)
        self.timer.start()

    def tick(self) -> None:
        now = time.perf_counter()
        gap, self.last = now - self.last, now
        self.longest[self.phase] = max(self.longest.get(self.phase, 0.0), gap)
        if gap > 0.08:
            self.stalls.append((gap, self.phase, self.status()))

    def run(self, phase: str, action: Callable[[], object], settle_ms: int = 300) -> None:
        """Do ``action`` as a timer event would, then let the event loop run ``settle_ms``."""
        self.phase = phase
        self.last = time.perf_counter()
        started = time.perf_counter()
        action()
        self.tick()
        wait(settle_ms)
        print(f"  {phase}: {1000 * (time.perf_counter() - started - settle_ms / 1000):.0f} ms")


def wait(ms: int, until: Callable[[], bool] | None = None) -> None:
    """Run the event loop for ``ms`` (or until ``until()``, checked every 20 ms)."""
    loop = QEventLoop()
    deadline = time.perf_counter() + ms / 1000
    while time.perf_counter() < deadline and not (until and until()):
        loop.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 20)


def main() -> None:
    """Load, run, use the views; print the longest stall of each phase."""
    if not SHARED.is_dir():
        raise SystemExit(f"the shared WMT data is needed and absent: {SHARED}")
    allow_workers()  # as the mtgui command does: this script guards its work under __main__
    app = create_application()
    with tempfile.TemporaryDirectory() as name:
        print(f"writing {SEGMENTS:,} segments x {SYSTEMS} systems ...")
        reference, systems = write_large_set(Path(name), SEGMENTS, SYSTEMS)
        window = MainWindow()
        window.resize(1400, 900)
        window.settings_panel.resamples.setValue(1000)
        window.show()
        wait(1000)  # the window's first painting is not part of loading
        meter = StallMeter(window.statusBar().currentMessage)
        roles = {reference: Role.REFERENCE, **dict.fromkeys(systems, Role.SYSTEM)}
        started = time.perf_counter()
        meter.phase = "reading and running"
        window.add_files([reference, *systems], roles)
        wait(1_200_000, until=lambda: window.result is not None and not window.controller.analysing)
        print(f"  reading and running: {time.perf_counter() - started:.1f} s")
        meter.phase = "drawing the result"
        wait(500)
        use_the_views(window, meter)
        window.close()
        app.processEvents()
    print("longest event-loop stall per phase (goal < 100 ms):")
    for phase, gap in meter.longest.items():
        print(f"  {phase:<28} {gap * 1000:6.0f} ms")
    record("gui_large", longest_stall_ms=max(meter.longest.values()) * 1000)
    print("stalls over 80 ms, with the status bar's message just after them:")
    for gap, phase, status in meter.stalls:
        print(f"  {gap * 1000:6.0f} ms  {phase}: {status}")


def use_the_views(window: MainWindow, meter: StallMeter) -> None:
    """What a user does once the result is in, each step timed for stalls."""
    tabs = window.results.tabs
    meter.run("Segments view", lambda: tabs.setCurrentWidget(window.results.segments))
    table = window.results.segments.table
    meter.run("sort by difference", lambda: table.sortByColumn(5, Qt.SortOrder.DescendingOrder))
    meter.run("select a segment", lambda: table.selectRow(3))
    names = list(window.result.bootstrap.systems) if window.result else []
    meter.run("another pair", lambda: window.results.segments.set_pair(names[2], names[3]))
    meter.run("Details view", lambda: tabs.setCurrentWidget(window.results.details))
    meter.run("paired view", lambda: window.show_pair(names[0], names[1]))
    meter.run("Scores view", lambda: tabs.setCurrentIndex(1))
    meter.run("Significance view", lambda: tabs.setCurrentIndex(2))


if __name__ == "__main__":
    main()
