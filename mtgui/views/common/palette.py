"""Colours for one line or histogram per system, shared by every plot, and the colour arithmetic
that keeps text and lines readable in light and dark desktop palettes.

Okabe-Ito's palette (told apart by colour-blind readers too) without its yellow, which is too
pale on white; past seven systems the colours come round again, drawn dashed, then dotted,
then dash-dotted, so that no two of 28 systems look alike.

On a dark background Okabe-Ito's black would vanish and its blue and vermilion are faint
(contrast 3.1 and 4.2 on #202020), so a dark palette draws them lighter; every dark colour keeps
a contrast of at least 4.5 on #202020 (WCAG 2's formula, :func:`contrast_ratio`).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette

RGB = tuple[int, int, int]

SERIES_COLORS: tuple[RGB, ...] = (
    (0, 114, 178),
    (213, 94, 0),
    (0, 158, 115),
    (204, 121, 167),
    (86, 180, 233),
    (230, 159, 0),
    (0, 0, 0),
    # Beyond Okabe and Ito's seven, three more hues, so that ten systems (a WMT campaign's
    # usual count) all get colours of their own in a scatter: purple, brown and olive.
    (117, 112, 179),
    (140, 86, 75),
    (128, 128, 0),
)
# The same hues for dark backgrounds: lighter blue and vermilion, light grey for black.
DARK_SERIES_COLORS: tuple[RGB, ...] = (
    (58, 143, 217),
    (236, 112, 20),
    (0, 158, 115),
    (204, 121, 167),
    (86, 180, 233),
    (230, 159, 0),
    (224, 224, 224),
    (170, 160, 230),
    (200, 140, 120),
    (190, 190, 60),
)


def series_color(number: int, dark: bool = False) -> RGB:
    """The colour of the ``number``-th system (from 0), for a dark or a light background."""
    colors = DARK_SERIES_COLORS if dark else SERIES_COLORS
    return colors[number % len(colors)]


SERIES_STYLES = (
    Qt.PenStyle.SolidLine,
    Qt.PenStyle.DashLine,
    Qt.PenStyle.DotLine,
    Qt.PenStyle.DashDotLine,
)


def series_style(number: int) -> Qt.PenStyle:
    """Solid for the first round of colours, then dashed, dotted and dash-dotted."""
    return SERIES_STYLES[(number // len(SERIES_COLORS)) % len(SERIES_STYLES)]


SERIES_SYMBOLS = ("o", "s", "t", "d", "star", "p", "h", "t1")
"""pyqtgraph's marker shapes: circles for the first round of colours, then squares, triangles,
diamonds... so that no two points of a scatter look alike (80 systems before any repeats)."""


def series_symbol(number: int) -> str:
    """The marker of the ``number``-th system in a scatter (see :data:`SERIES_SYMBOLS`)."""
    return SERIES_SYMBOLS[(number // len(SERIES_COLORS)) % len(SERIES_SYMBOLS)]


def relative_luminance(color: QColor | RGB | str) -> float:
    """WCAG 2's relative luminance: 0 for black, 1 for white."""
    qcolor = color if isinstance(color, QColor) else _qcolor(color)

    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    red, green, blue = (linear(c) for c in (qcolor.red(), qcolor.green(), qcolor.blue()))
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast_ratio(first: QColor | RGB | str, second: QColor | RGB | str) -> float:
    """WCAG 2's contrast ratio of two colours, from 1 (the same) to 21 (black on white); text
    wants 4.5, lines and other graphics 3."""
    high, low = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


PROBLEM_ON_LIGHT, PROBLEM_ON_DARK = "#B00020", "#FF8A80"
"""The red of problems (a file that cannot be read, an analysis that cannot run), one per
background: each reads at more than 4.5:1 on its own and at about 2:1 on the other."""


def problem_color(palette: QPalette | None = None) -> QColor:
    """The red of problems on ``palette``'s background (by default, the application's)."""
    palette = palette if palette is not None else QGuiApplication.palette()
    return QColor(PROBLEM_ON_DARK if is_dark(palette) else PROBLEM_ON_LIGHT)


def problem_style(palette: QPalette | None = None) -> str:
    """A style sheet that writes a label in :func:`problem_color`."""
    return f"color: {problem_color(palette).name()};"


def is_dark(palette: QPalette) -> bool:
    """Whether ``palette`` draws light text on a dark background (a dark desktop theme).

    Text and window are compared rather than the window's lightness tested against a fixed
    threshold, so mid-grey themes count as what their text makes them."""
    window = palette.color(QPalette.ColorRole.Window)
    text = palette.color(QPalette.ColorRole.WindowText)
    return relative_luminance(text) > relative_luminance(window)


def blend(color: QColor, under: QColor, amount: float) -> QColor:
    """``color`` with ``amount`` (0..1) of ``under`` mixed in; opaque."""
    channels = zip(
        (color.red(), color.green(), color.blue()),
        (under.red(), under.green(), under.blue()),
        strict=True,
    )
    return QColor(*(round(c * (1 - amount) + u * amount) for c, u in channels))


def flatten(color: QColor, under: QColor) -> QColor:
    """A translucent ``color`` as it looks on ``under``, opaque (rich text ignores alpha)."""
    return blend(QColor(color.red(), color.green(), color.blue()), under, 1 - color.alphaF())


def _qcolor(color: RGB | str) -> QColor:
    return QColor(color) if isinstance(color, str) else QColor(*color)
