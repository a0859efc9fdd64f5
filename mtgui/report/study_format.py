"""Small formatting pieces shared by the studies' terminal tables."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TypeVar

from mtgui.engine.core import printable
from mtgui.engine.metrics import LABELS as LABELS  # how people write each metric
from mtgui.engine.resampling import BootstrapSettings

C = TypeVar("C")


def matrix(
    systems: Sequence[str], columns: Sequence[C], cells: Mapping[tuple[str, C], str]
) -> list[list[str]]:
    """One line per system: its name, then its cell in every column ('' where there is none)."""
    return [
        [system, *(cells.get((system, column), "") for column in columns)] for system in systems
    ]


def bootstrap_line(settings: BootstrapSettings) -> str:
    """'each bootstrapped with B resamples of segments (seed S, 95% intervals)'."""
    return (
        f"each bootstrapped with {settings.resamples:,} resamples of {settings.unit.value}s "
        f"(seed {settings.seed}, {settings.level:.0%} intervals)"
    )


def note_lines(notes: Sequence[str]) -> list[str]:
    """'Note: ...' lines, made printable (notes name files and systems)."""
    return [f"Note: {printable(note)}" for note in notes]


def interval(low: float, high: float, unit: str = "") -> str:
    """'[-4.02%, +4.40%]'; '-' when undefined."""
    if math.isnan(low) or math.isnan(high):
        return "-"
    return f"[{low:+.2f}{unit}, {high:+.2f}{unit}]"


def number(value: float) -> str:
    """Four decimals, as mteval prints; '-' when undefined."""
    return "-" if math.isnan(value) else f"{value:.4f}"


def signed(value: float) -> str:
    """Four decimals with a sign; '-' when undefined."""
    return "-" if math.isnan(value) else f"{value:+.4f}"


def mean(values: Sequence[float]) -> float:
    """The mean of the defined values, NaN when there are none."""
    defined = [v for v in values if not math.isnan(v)]
    return sum(defined) / len(defined) if defined else math.nan
