"""How one value is written: a cell of a CSV file, a value of a JSON report, a number in a table.

Every report goes through these, so an undefined value reads the same everywhere: an empty CSV
cell, a JSON ``null``, a ``-`` in a text table. Scores and p-values in text tables have four
decimals, as mteval prints them; relative values are percentages with two.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mtgui.engine.metrics import Metric

MISSING = "-"
"""What a text table shows for an undefined number."""
_EXACT_INTEGERS = 2**53  # below this every integer is exactly a float, and back


def metric_column(metric: Metric) -> str:
    """The CSV column of ``metric`` (the segment and the document tables alike): its name, with
    ``_x100`` for BLEU or M-BLEU times 100, so that a file never leaves the scale to be
    guessed."""
    from mtgui.engine.scale import SCALED_METRICS  # only here: the cells stay light to import

    if metric.name in SCALED_METRICS and metric.scale == "0-100":
        return f"{metric.name}_x100"
    return metric.name


def csv_cell(value: Any, whole_numbers: bool = False) -> Any:
    """A CSV cell: None and NaN empty, floats (numpy's too) as Python floats, the rest as is.

    With ``whole_numbers``, a float without a fractional part is written as an integer (``3``,
    not ``3.0``): the segment table's columns are mostly counts (clipped matches, hypothesis
    n-grams), which should read as the counts they are. The other tables keep ``1.0`` a float,
    so that a column of scores never mixes ``1`` and ``0.5``.
    """
    if value is None:
        return ""
    if not isinstance(value, float):  # ints, strings, verdicts: the csv module writes them
        return value
    if math.isnan(value):
        return ""
    if whole_numbers and value.is_integer() and abs(value) < _EXACT_INTEGERS:
        return int(value)
    return float(value)


def json_ready(value: Any) -> Any:
    """NaN and infinities become None, which JSON can carry (in dicts, lists and tuples)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: json_ready(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [json_ready(item) for item in value]
    return value


def four_decimals(value: float | None, signed: bool = False) -> str:
    """A score or p-value as tables and views show it: four decimals, as mteval prints them
    (``+`` before positive values if ``signed``); ``-`` when undefined (None or NaN)."""
    if value is None or math.isnan(value):
        return MISSING
    return f"{value:+.4f}" if signed else f"{value:.4f}"


def percent(value: float, signed: bool = True) -> str:
    """A relative value in percent with two decimals (``+`` before positive ones if
    ``signed``); ``-`` when undefined."""
    if math.isnan(value):
        return MISSING
    return f"{value:+.2f}%" if signed else f"{value:.2f}%"
