"""Benchmark: how long does the window's event loop stall during a big run?

Loads the standing benchmark set (3,000 segments, 4 references, 10 systems; see
``bench_statistics.py``) into the main window, runs BLEU + NIST + M-BLEU with B = 10,000 on the
worker thread, and measures the longest gap between ticks of a 5 ms timer in the GUI thread
from the drop to half a second after the end of the run (when the views draw the result).
The goal is under 100 ms: the window stays responsive.

    QT_QPA_PLATFORM=offscreen python bench/bench_gui_stall.py
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from bench_statistics import SHARED, write_set
from PySide6.QtCore import QTimer

from mtgui.engine.core.corpus import Role
from mtgui.views.window.launch import create_application
from mtgui.views.window.main_window import MainWindow


def main() -> None:
    """Run and print the longest stall."""
    if not SHARED.is_dir():
        raise SystemExit(f"the shared WMT data is needed and absent: {SHARED}")
    app = create_application()
    with tempfile.TemporaryDirectory() as name:
        refs, systems = write_set(Path(name))
        window = MainWindow()
        window.settings_panel.resamples.setValue(10_000)
        window.show()
        gaps: list[float] = []
        stamps: list[float] = []
        last = [time.perf_counter()]
        ended: list[float] = []

        def tick() -> None:
            now = time.perf_counter()
            gaps.append(now - last[0])
            stamps.append(now)
            last[0] = now
            if window.result is not None and not window.controller.analysing and not ended:
                ended.append(now)
            if ended and now - ended[0] > 0.5:  # the views' final drawing is measured too
                app.quit()

        timer = QTimer(interval=5)
        timer.timeout.connect(tick)
        timer.start()
        start = time.perf_counter()
        roles = {**dict.fromkeys(refs, Role.REFERENCE), **dict.fromkeys(systems, Role.SYSTEM)}
        window.add_files([*refs, *systems], roles)
        app.exec()
        total = time.perf_counter() - start
        window.close()
    print(f"run from the drop to the grid: {total - 0.5:.1f} s; {len(gaps)} timer ticks")
    longest = max(range(len(gaps)), key=gaps.__getitem__)
    when = (stamps[longest] - ended[0]) * 1000
    print(
        f"longest event-loop stall: {gaps[longest] * 1000:.0f} ms (goal < 100 ms), ending "
        f"{when:+.0f} ms from the result; 99th percentile "
        f"{sorted(gaps)[int(0.99 * len(gaps))] * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
