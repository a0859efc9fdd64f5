"""Benchmark: the window's longest stall while the histograms of twenty systems appear.

A run's first scores make the Distributions tab build one plot per system
(``mtgui/views/results/histogram_view.py``). This starts that for twenty systems on its own and
measures the longest gap between ticks of a 1 ms timer in the GUI thread until every plot is shown:
once on a quiet machine, once beside a thread that alternates numpy work and Python work, as
the analysis's worker does. The goal is well under the window's 100 ms.

    QT_QPA_PLATFORM=offscreen python bench/bench_histogram_steps.py
"""

from __future__ import annotations

import argparse
import os
import threading
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

import numpy as np
from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtWidgets import QApplication

from mtgui.views.results.histogram_view import HistogramView

SYSTEMS = 20
SETTLE_MS = 300  # ticks go on this long after the last plot is shown, through its painting


def busy_worker(stop: threading.Event) -> None:
    """Half numpy (the interpreter lock released), half Python (held), until ``stop``."""
    matrix = np.random.default_rng(0).random((1500, 1500))
    while not stop.is_set():
        matrix @ matrix
        sum(range(200_000))


def longest_gap_ms(view: HistogramView) -> tuple[float, float]:
    """The longest gap between ticks while the plots appear, and how long they took."""
    systems = [f"system {i:02d}" for i in range(SYSTEMS)]
    rng = np.random.default_rng(0)
    scores = {(system, "bleu"): rng.normal(30, 1, 100) for system in systems}
    loop = QEventLoop()
    gaps: list[float] = []
    last = [time.perf_counter()]
    shown_at: list[float] = []

    def tick() -> None:
        now = time.perf_counter()
        gaps.append(now - last[0])
        last[0] = now
        shown = [p for p in view.plots.values() if p.opacity() == 1.0]
        if not shown_at and len(view._layout_widget.ci.items) == len(shown) == SYSTEMS:
            shown_at.append(now)
            QTimer.singleShot(SETTLE_MS, loop.quit)  # and painted

    def begin() -> None:  # as the run's first scores would, from the event loop
        last[0] = time.perf_counter()
        view.start_run(systems, "bleu", "BLEU")
        view.update_scores(scores)

    ticker = QTimer(interval=1)
    ticker.timeout.connect(tick)
    started = time.perf_counter()
    QTimer.singleShot(0, begin)
    ticker.start()
    QTimer.singleShot(20_000, loop.quit)
    loop.exec()
    ticker.stop()
    return 1000 * max(gaps), 1000 * (shown_at[0] - started if shown_at else float("nan"))


def main() -> None:
    """Print the longest stall, quiet and beside a busy thread, over a few rounds."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    rounds = parser.parse_args().rounds
    app = QApplication.instance() or QApplication([])
    for busy in (False, True):
        stop = threading.Event()
        worker = threading.Thread(target=busy_worker, args=(stop,), daemon=True)
        if busy:
            worker.start()
        results = []
        for _ in range(rounds):
            view = HistogramView()
            view.resize(900, 700)
            view.show()
            app.processEvents()
            results.append(longest_gap_ms(view))
            view.close()
            view.deleteLater()
        stop.set()
        label = "beside a busy thread" if busy else "quiet"
        stalls = ", ".join(f"{gap:.0f}" for gap, _ in results)
        took = ", ".join(f"{total:.0f}" for _, total in results)
        print(f"{SYSTEMS} histograms, {label}: longest stall {stalls} ms; shown after {took} ms")


if __name__ == "__main__":
    main()
