"""The score distributions of a report as inline SVG: one small histogram per system, stacked.

Every histogram of a metric shares one x-axis (the same bins), and the systems are ordered by
score, best on top, so that systems can be compared by eye down the column. The interval is a
band under the bars, the full-set score a dark tick. SVG (not PNG) because it stays sharp when
printed or zoomed and needs no image library; it is plain text inside the HTML file. The axis
keeps room on its right for the last tick's number (an SVG clips what runs past its edge), and
system names are isolated (:mod:`mtgui.report.bidi`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

import numpy as np

from mtgui.engine.inference import ScoreInterval
from mtgui.engine.resampling import BootstrapResult
from mtgui.report.bidi import isolated

WIDTH = 640
ROW_HEIGHT = 46
LABEL_WIDTH = 150
AXIS_HEIGHT = 30
RIGHT_SPACE = 32  # room right of the plot for half of the last tick's number
TICK_FONT = 11
CHARACTER_WIDTH = 0.62  # of the font size: at least the width of a digit in a sans-serif font
BINS = 40
BAR = "#5b8db8"
BAND = "#d6e4f0"
SCORE = "#1b2a38"


def distribution_svg(result: BootstrapResult, metric: str, title: str) -> str:
    """Stacked histograms of every system's bootstrap scores under ``metric``, best first."""
    order = [entry.system for entry in result.ranking(metric).systems]
    intervals = [result.interval(system, metric) for system in order]
    finite = [i.samples[np.isfinite(i.samples)] for i in intervals]
    values = np.concatenate([*finite, [i.score for i in intervals if math.isfinite(i.score)]])
    if values.size == 0:
        return ""
    low, high = _padded_range(float(values.min()), float(values.max()))
    edges = np.linspace(low, high, BINS + 1)
    plot_width = WIDTH - LABEL_WIDTH - RIGHT_SPACE
    height = ROW_HEIGHT * len(order) + AXIS_HEIGHT
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" role="img" aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title>",
    ]
    for row, (interval, samples) in enumerate(zip(intervals, finite, strict=True)):
        top = row * ROW_HEIGHT
        parts += _histogram_row(interval, samples, edges, top, plot_width)
    parts += _axis(low, high, ROW_HEIGHT * len(order), plot_width)
    parts.append("</svg>")
    return "\n".join(parts)


def _padded_range(low: float, high: float) -> tuple[float, float]:
    """The data's range with 3% to spare on each side (a single value gets a small width)."""
    if high <= low:
        spread = abs(low) * 0.01 or 0.01
        return low - spread, high + spread
    spare = (high - low) * 0.03
    return low - spare, high + spare


def _x(value: float, edges: np.ndarray, plot_width: float) -> float:
    """The horizontal position of ``value`` on the shared axis."""
    low, high = float(edges[0]), float(edges[-1])
    return LABEL_WIDTH + (value - low) / (high - low) * plot_width


def _histogram_row(
    interval: ScoreInterval, samples: np.ndarray, edges: np.ndarray, top: float, width: float
) -> list[str]:
    """One system's label, interval band, bars and score tick."""
    bottom = top + ROW_HEIGHT - 8
    parts = [
        f'<text x="{LABEL_WIDTH - 8}" y="{bottom - 10}" text-anchor="end" font-size="12" '
        f'fill="{SCORE}">{escape(isolated(interval.system))}</text>'
    ]
    if math.isfinite(interval.ci_low) and math.isfinite(interval.ci_high):
        left, right = (_x(v, edges, width) for v in (interval.ci_low, interval.ci_high))
        parts.append(
            f'<rect x="{left:.1f}" y="{top + 4}" width="{max(right - left, 1):.1f}" '
            f'height="{ROW_HEIGHT - 12}" fill="{BAND}"/>'
        )
    counts, _ = np.histogram(samples, bins=edges)
    tallest = max(int(counts.max()), 1) if counts.size else 1
    bin_width = width / (len(edges) - 1)
    for k, count in enumerate(counts):
        if count:
            bar = (ROW_HEIGHT - 14) * count / tallest
            x = LABEL_WIDTH + k * bin_width
            parts.append(
                f'<rect x="{x:.1f}" y="{bottom - bar:.1f}" width="{max(bin_width - 1, 0.5):.1f}" '
                f'height="{bar:.1f}" fill="{BAR}"/>'
            )
    if math.isfinite(interval.score):
        x = _x(interval.score, edges, width)
        parts.append(
            f'<line x1="{x:.1f}" y1="{top + 2}" x2="{x:.1f}" y2="{bottom}" stroke="{SCORE}" '
            'stroke-width="2"/>'
        )
    parts.append(
        f'<line x1="{LABEL_WIDTH}" y1="{bottom}" x2="{LABEL_WIDTH + width}" y2="{bottom}" '
        'stroke="#9aa5b1" stroke-width="1"/>'
    )
    return parts


def _axis(low: float, high: float, top: float, width: float) -> list[str]:
    """Tick marks and numbers under the stack, shared by every row."""
    parts = []
    for value in _ticks(low, high):
        x = LABEL_WIDTH + (value - low) / (high - low) * width
        label = _tick_label(value)
        parts.append(
            f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{top + 5}" stroke="#55606b"/>'
            f'<text x="{_label_x(x, label):.1f}" y="{top + 18}" text-anchor="middle" '
            f'font-size="{TICK_FONT}" fill="#55606b">{label}</text>'
        )
    return parts


def _label_x(x: float, label: str) -> float:
    """Where a tick's number is centred: under its tick, moved left only as far as needed to
    stay whole inside the figure (a long number on the last tick)."""
    half = len(label) * TICK_FONT * CHARACTER_WIDTH / 2
    return min(x, WIDTH - 2 - half)


def _ticks(low: float, high: float, wanted: int = 6) -> Sequence[float]:
    """Round tick values inside [low, high]: steps of 1, 2 or 5 times a power of ten."""
    raw = (high - low) / wanted
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.ceil(low / step) * step
    count = int((high - first) / step) + 1
    return [first + k * step for k in range(count)]


def _tick_label(value: float) -> str:
    """A tick number without noise from floating point (0.30000000000000004 -> 0.3)."""
    text = f"{value:.6g}"
    return "0" if text in ("-0", "0") else text
