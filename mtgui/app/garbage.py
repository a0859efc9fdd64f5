"""Python's cyclic garbage is collected in the GUI thread, never on a worker thread.

Python's collector runs in whichever thread allocates when a threshold is crossed: on a busy
worker thread, usually. Garbage cycles that hold Qt objects (a closed dialog, plots that were
replaced, a model's old rows) are then destroyed on that worker thread, and Qt deadlocks or
crashes. Seen with gdb in the test suite: the worker, destroying a QObject, held Qt's lock and
waited for the GIL, while the GUI thread, holding the GIL, waited for that lock. So automatic
collection is turned off and a timer in the GUI thread collects instead, generation by
generation, with the thresholds the automatic collector would use (pyqtgraph's habit).
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

INTERVAL_MS = 500


class GuiThreadCollector(QObject):
    """Turns automatic collection off and collects on a timer of the thread it is made in."""

    def __init__(self, parent: QObject | None = None, interval_ms: int = INTERVAL_MS) -> None:
        super().__init__(parent)
        self._thresholds = gc.get_threshold()
        self._was_enabled = gc.isenabled()
        gc.disable()
        self._timer = QTimer(self, interval=interval_ms)
        self._timer.timeout.connect(self.collect)
        self._timer.start()

    def collect(self) -> int:
        """Collect the generations whose counts passed their thresholds; return objects found."""
        counts, found = gc.get_count(), 0
        for generation in range(3):
            if counts[generation] <= self._thresholds[generation]:
                break
            found += gc.collect(generation)
        return found

    def stop(self) -> None:
        """Stop collecting here and give collection back to Python (as it was)."""
        self._timer.stop()
        if self._was_enabled:
            gc.enable()
