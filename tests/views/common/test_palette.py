"""The palette's colour arithmetic: CIEDE2000 as Sharma, Wu & Dalal's test data give it, and
series colours that stay apart and readable on a dark background."""

from __future__ import annotations

import itertools

import pytest
from PySide6.QtGui import QColor

from mtgui.views.common.palette import (
    DARK_SERIES_COLORS,
    SERIES_COLORS,
    color_difference,
    contrast_ratio,
    lab_difference,
)
from mtgui.views.results.campaign_view import cluster_colors

DARK = (32, 32, 32)  # #202020, the dark palette of the tests
BLUE, SKY_BLUE = 0, 4  # Okabe-Ito's blue and sky blue: the first and the fifth system

# Pairs of Sharma, Wu & Dalal (2005), table 1: two CIELAB colours and their CIEDE2000 difference.
SHARMA = [
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 3.1571, -77.2803), (50.0, 0.0, -82.7485), 2.8615),
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
    ((50.0, -0.001, 2.49), (50.0, 0.0011, -2.49), 4.7461),  # the mean hue across 0/360
    ((50.0, 2.49, -0.001), (50.0, -2.49, 0.0009), 7.1792),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((2.0776, 0.0795, -1.135), (0.9033, -0.0636, -0.5514), 0.9082),
]


@pytest.mark.parametrize(("first", "second", "expected"), SHARMA)
def test_ciede2000_gives_sharmas_values(first, second, expected):
    assert lab_difference(first, second) == pytest.approx(expected, abs=5e-5)
    assert lab_difference(second, first) == pytest.approx(expected, abs=5e-5)


def test_a_colour_differs_from_itself_by_nothing():
    assert color_difference("#56b4e9", QColor(86, 180, 233)) == pytest.approx(0, abs=1e-9)


def test_the_dark_blues_are_as_far_apart_as_on_white_and_read_on_dark():
    """Lightened for a dark background, the blue came within 12 of the sky blue (22 on white):
    the first and the fifth system's lines looked alike."""
    light = color_difference(SERIES_COLORS[BLUE], SERIES_COLORS[SKY_BLUE])
    dark = color_difference(DARK_SERIES_COLORS[BLUE], DARK_SERIES_COLORS[SKY_BLUE])
    assert dark >= max(20.0, light)
    for color in DARK_SERIES_COLORS:
        assert contrast_ratio(color, DARK) >= 4.5, color
    first_round = DARK_SERIES_COLORS[:7]  # Okabe-Ito's seven
    closest = min(color_difference(a, b) for a, b in itertools.combinations(first_round, 2))
    assert closest >= 18  # vermilion and orange, as close on white (22)


@pytest.mark.parametrize("dark", [False, True])
def test_a_campaigns_clusters_keep_readable_text(dark):
    base = QColor(*DARK) if dark else QColor("#ffffff")
    for cluster in range(1, len(SERIES_COLORS) + 1):
        background, text = cluster_colors(cluster, base, dark)
        assert contrast_ratio(text, background) >= 4.5, (cluster, background.name())
