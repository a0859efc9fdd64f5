"""Python's cyclic garbage is collected in the GUI thread, never on a worker thread.

Python's collector runs in whichever thread allocates when a threshold is crossed: on a busy
worker thread, usually. Garbage cycles that hold Qt objects (a closed dialog, plots that were
replaced, a model's old rows) are then destroyed on that worker thread, and Qt deadlocks or
crashes. Seen with gdb in the test suite: the worker, destroying a QObject, held Qt's lock and
waited for the GIL, while the GUI thread, holding the GIL, waited for that lock. So automatic
collection is turned off and a timer in the GUI thread collects instead, generation by
generation (pyqtgraph's habit).

The youngest generation is collected at every tick where anything was made since the last,
not only past its threshold, because the threshold counts objects, not their size: a
collection visits every item of the young containers, and a tuple of 100,000 texts (a file
just read, a column of the corpus) costs 3-5 ms. Files read one after the other stayed under
the threshold (a few objects each), and their tuples were then visited all at once, a 150 ms
stall of the window as the analysis started (``bench/bench_gui_large.py``). Collected every
:data:`INTERVAL_MS`, the young generation holds only what the last interval made; a tuple of
texts is visited once (that first collection finds only strings in it and stops tracking it).
The older generations are collected as often as the automatic collector would (after as many
objects made), not at every tenth tick: a full collection visits everything the program holds,
15 ms for the window with a result.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

INTERVAL_MS = 50
"""How often the GUI thread collects what was made since: a young generation's cost grows
with what the workers made in that time."""


class GuiThreadCollector(QObject):
    """Turns automatic collection off and collects on a timer of the thread it is made in."""

    def __init__(self, parent: QObject | None = None, interval_ms: int = INTERVAL_MS) -> None:
        super().__init__(parent)
        young, middle, old = gc.get_threshold()
        self._per_middle = young * (middle + 1)  # objects made between two collections of 1
        self._middle_per_old = old  # collections of generation 1 between two of generation 2
        self._made = 0  # objects made since generation 1 was last collected
        self._middle_runs = 0  # collections of generation 1 since generation 2 was
        self._was_enabled = gc.isenabled()
        gc.disable()
        self._timer = QTimer(self, interval=interval_ms)
        self._timer.timeout.connect(self.collect)
        self._timer.start()

    def collect(self) -> int:
        """Collect the young generation if anything was made since the last call, and the
        older ones when as many objects were made as would start them; return objects found."""
        made = gc.get_count()[0]
        if made <= 0:
            return 0
        self._made += made
        if self._made <= self._per_middle:
            return gc.collect(0)
        self._made, self._middle_runs = 0, self._middle_runs + 1
        if self._middle_runs <= self._middle_per_old:
            return gc.collect(1)
        self._middle_runs = 0
        return gc.collect(2)

    def stop(self) -> None:
        """Stop collecting here and give collection back to Python (as it was)."""
        self._timer.stop()
        if self._was_enabled:
            gc.enable()
