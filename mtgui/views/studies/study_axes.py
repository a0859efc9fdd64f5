"""Log axes that read like numbers: 20, 50, 100, 200, 1k, with only as many ticks as fit.

pyqtgraph's own log ticks are every 1..9 of each decade written as ``2·10¹``; on a plot a third
of the window wide they run into each other ("6·10¹7·10¹8·10¹"). :class:`ReadableAxis` picks
the densest of the 1-2-5 style sequences whose labels, measured in the axis' font, leave a gap
between neighbours, and writes each tick as a plain number. Linear axes keep pyqtgraph's ticks.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

import pyqtgraph as pg
from PySide6.QtGui import QFont, QFontMetricsF

MANTISSAS: tuple[tuple[float, ...], ...] = (
    (1, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8, 9),
    (1, 2, 3, 4, 5, 6, 7, 8, 9),
    (1, 1.5, 2, 3, 4, 5, 7),
    (1, 2, 3, 4, 5, 7),
    (1, 2, 3, 5),
    (1, 2, 5),
    (1, 3),
    (1,),
)
"""Tick values within a decade, densest first (a narrow range needs the dense ones)."""
Measure = Callable[[str], float]
"""A label's extent along its axis, in pixels."""
GAP = 8.0
"""Pixels left free between two neighbouring tick labels."""


def plain_number(value: float) -> str:
    """A tick value as people write it: ``0.5``, ``20``, ``150``, ``1k``, ``2.5k``, ``10k``,
    ``1M``."""
    for size, suffix in ((1e6, "M"), (1e3, "k")):
        if abs(value) >= size:
            return f"{value / size:.3g}{suffix}"
    return f"{value:.3g}"


def log_tick_candidates(low: float, high: float) -> list[list[float]]:
    """Every tick sequence for the range ``low``..``high`` (log10 units), densest first: the
    1-2-5 style sequences of :data:`MANTISSAS`, then every 2nd, 3rd, ... decade."""
    first, last = math.floor(low), math.ceil(high)
    candidates = []
    for mantissas in MANTISSAS:
        values = [math.log10(m) + decade for decade in range(first, last + 1) for m in mantissas]
        candidates.append([v for v in values if low - 1e-9 <= v <= high + 1e-9])
    for step in range(2, max(last - first, 2) + 1):
        start = math.ceil(low / step) * step
        candidates.append([float(d) for d in range(start, last + 1, step) if d <= high + 1e-9])
    return candidates


def fitting_log_ticks(
    low: float, high: float, length: float, measure: Measure | None = None
) -> list[float]:
    """The densest candidate sequence whose labels do not overlap on an axis ``length`` pixels
    long (see :func:`labels_fit`); the sparsest with a tick at all when none fits."""
    candidates = [c for c in log_tick_candidates(low, high) if c]
    for values in candidates:
        if len(values) >= 2 and labels_fit(values, low, high, length, measure):
            return values
    return candidates[-1][:1] if candidates else []


def labels_fit(
    values: Sequence[float],
    low: float,
    high: float,
    length: float,
    measure: Measure | None = None,
) -> bool:
    """Whether labels of ``values`` (log10 units), centred on their ticks, leave :data:`GAP`
    pixels between neighbours; ``measure`` gives a label's extent along the axis in pixels."""
    size = measure or _default_extent
    span = max(high - low, 1e-12)
    places = [(v - low) / span * length for v in values]
    extents = [size(plain_number(10**v)) for v in values]
    return all(
        places[i + 1] - places[i] >= (extents[i] + extents[i + 1]) / 2 + GAP
        for i in range(len(values) - 1)
    )


def _default_extent(text: str) -> float:
    return QFontMetricsF(QFont()).horizontalAdvance(text)


class ReadableAxis(pg.AxisItem):  # type: ignore[misc]  # pyqtgraph has no types
    """An axis whose log mode shows plain numbers that fit (see the module's docstring)."""

    def _extent(self, text: str) -> float:
        """How much of the axis a label takes: its width on a horizontal axis, its height on
        a vertical one."""
        metrics = QFontMetricsF(self.style.get("tickFont") or self.font())
        if self.orientation in ("left", "right"):
            return metrics.height()
        return metrics.horizontalAdvance(text)

    def tickValues(  # noqa: N802 (pyqtgraph's name)
        self,
        first: float,
        last: float,
        size: float,
    ) -> list[tuple[float | None, list[float]]]:
        if not self.logMode:
            return super().tickValues(first, last, size)  # type: ignore[no-any-return]
        low, high = sorted((first, last))
        return [(None, fitting_log_ticks(low, high, size, measure=self._extent))]

    def tickStrings(  # noqa: N802
        self, values: list[float], scale: float, spacing: float
    ) -> list[str]:
        if not self.logMode:
            return super().tickStrings(values, scale, spacing)  # type: ignore[no-any-return]
        return [plain_number(10**v * scale) for v in values]
