"""Colours for one line or histogram per system, shared by every plot.

Okabe-Ito's palette (told apart by colour-blind readers too) without its yellow, which is too
pale on white; past seven systems the colours come round again, drawn dashed, then dotted,
then dash-dotted, so that no two of 28 systems look alike.
"""

from __future__ import annotations

from PySide6.QtCore import Qt

SERIES_COLORS = (
    (0, 114, 178),
    (213, 94, 0),
    (0, 158, 115),
    (204, 121, 167),
    (86, 180, 233),
    (230, 159, 0),
    (0, 0, 0),
)


def series_color(number: int) -> tuple[int, int, int]:
    """The colour of the ``number``-th system (from 0)."""
    return SERIES_COLORS[number % len(SERIES_COLORS)]


SERIES_STYLES = (
    Qt.PenStyle.SolidLine,
    Qt.PenStyle.DashLine,
    Qt.PenStyle.DotLine,
    Qt.PenStyle.DashDotLine,
)


def series_style(number: int) -> Qt.PenStyle:
    """Solid for the first round of colours, then dashed, dotted and dash-dotted."""
    return SERIES_STYLES[(number // len(SERIES_COLORS)) % len(SERIES_STYLES)]
