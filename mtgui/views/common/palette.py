"""Colours for one line or histogram per system, shared by every plot, and the colour arithmetic
that keeps text and lines readable in light and dark desktop palettes.

Okabe-Ito's palette (told apart by colour-blind readers too) without its yellow, which is too
pale on white; past seven systems the colours come round again, drawn dashed, then dotted,
then dash-dotted, so that no two of 28 systems look alike.

On a dark background Okabe-Ito's black would vanish and its blue and vermilion are faint
(contrast 3.1 and 4.2 on #202020), so a dark palette draws them lighter; every dark colour keeps
a contrast of at least 4.5 on #202020 (WCAG 2's formula, :func:`contrast_ratio`). Lightened,
the blue came within a CIEDE2000 difference of 12 of the sky blue (:func:`color_difference`;
on white the two are 22 apart): the first and the fifth system looked alike. The dark palette
draws the blue deeper and the sky blue lighter, 23 apart.
"""

from __future__ import annotations

import math

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
# The same hues for dark backgrounds: lighter blue and vermilion, light grey for black; the
# sky blue lighter still, so that the blue and it stay apart (see above).
DARK_SERIES_COLORS: tuple[RGB, ...] = (
    (0, 144, 240),
    (236, 112, 20),
    (0, 158, 115),
    (204, 121, 167),
    (80, 208, 240),
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


def color_difference(first: QColor | RGB | str, second: QColor | RGB | str) -> float:
    """How different two colours look: CIEDE2000's difference of their CIELAB values (sRGB,
    D65). About 1 is the least a person notices side by side; colours that must be told apart
    at a glance, as two systems' lines, want 20 or more."""
    return lab_difference(cielab(first), cielab(second))


def cielab(color: QColor | RGB | str) -> tuple[float, float, float]:
    """A colour's CIELAB coordinates (L*, a*, b*) under D65."""
    qcolor = color if isinstance(color, QColor) else _qcolor(color)

    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    red, green, blue = (linear(c) for c in (qcolor.red(), qcolor.green(), qcolor.blue()))
    x = (0.4124564 * red + 0.3575761 * green + 0.1804375 * blue) / 0.95047
    y = 0.2126729 * red + 0.7151522 * green + 0.0721750 * blue
    z = (0.0193339 * red + 0.1191920 * green + 0.9503041 * blue) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def lab_difference(first: tuple[float, float, float], second: tuple[float, float, float]) -> float:
    """CIEDE2000's colour difference of two CIELAB colours (Sharma, Wu & Dalal 2005)."""
    (l1, a1, b1), (l2, a2, b2) = first, second
    chroma = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(chroma**7 / (chroma**7 + 25**7)))
    a1, a2 = (1 + g) * a1, (1 + g) * a2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1, h2 = (math.degrees(math.atan2(b, a)) % 360 for a, b in ((a1, b1), (a2, b2)))
    turn = h2 - h1 if abs(h2 - h1) <= 180 else h2 - h1 - math.copysign(360, h2 - h1)
    turn = turn if c1 * c2 else 0.0
    delta_hue = 2 * math.sqrt(c1 * c2) * math.sin(math.radians(turn / 2))
    mean_l, mean_c = (l1 + l2) / 2, (c1 + c2) / 2
    mean_h = _mean_hue(h1, h2) if c1 * c2 else h1 + h2
    t = (
        1
        - 0.17 * math.cos(math.radians(mean_h - 30))
        + 0.24 * math.cos(math.radians(2 * mean_h))
        + 0.32 * math.cos(math.radians(3 * mean_h + 6))
        - 0.20 * math.cos(math.radians(4 * mean_h - 63))
    )
    rotation = -math.sin(math.radians(60 * math.exp(-(((mean_h - 275) / 25) ** 2))))
    rotation *= 2 * math.sqrt(mean_c**7 / (mean_c**7 + 25**7))
    s_l = 1 + 0.015 * (mean_l - 50) ** 2 / math.sqrt(20 + (mean_l - 50) ** 2)
    s_c, s_h = 1 + 0.045 * mean_c, 1 + 0.015 * mean_c * t
    dl, dc, dh = (l2 - l1) / s_l, (c2 - c1) / s_c, delta_hue / s_h
    return math.sqrt(dl**2 + dc**2 + dh**2 + rotation * dc * dh)


def _mean_hue(h1: float, h2: float) -> float:
    """The mean of two hue angles (degrees), taken the short way round the circle."""
    if abs(h1 - h2) <= 180:
        return (h1 + h2) / 2
    return (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2


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
