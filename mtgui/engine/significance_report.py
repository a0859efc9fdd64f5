"""The bootstrap's results as text tables for the terminal and as rows for CSV files."""

from __future__ import annotations

import math
from typing import Any

from mtgui.engine.analysis import BootstrapResult
from mtgui.engine.intervals import INTERVAL_FIELDS
from mtgui.engine.metrics.base import Metric
from mtgui.engine.significance import OPTIONAL_PAIR_FIELDS, PAIR_FIELDS

SCORE_COLUMNS = (
    "system",
    "metric",
    "score",
    *INTERVAL_FIELDS,
    "best_rank",
    "worst_rank",
    "cluster",
)
PAIR_COLUMNS = (*PAIR_FIELDS[:-1], *OPTIONAL_PAIR_FIELDS, "verdict")


def interval_table(result: BootstrapResult, metric: Metric) -> str:
    """Zhang & Vogel's Table 1 and Zhang, Vogel & Waibel's Tables 2-3 for one metric."""
    level = f"{result.settings.level * 100:g}%"
    header = ["System", "Score", "Median", f"{level} CI", "Relative CI", "RSD"]
    rows = []
    for entry in result.ranking(metric.name).systems:
        i = result.interval(entry.system, metric.name)
        rows.append(
            [
                entry.system,
                _number(i.score),
                _number(i.median),
                f"[{_number(i.ci_low)}, {_number(i.ci_high)}]",
                f"[{_percent(i.rel_ci_low)}, {_percent(i.rel_ci_high)}]",
                _percent(i.rsd, sign=False),
            ]
        )
    return align_table([header, *rows])


def grid_text(result: BootstrapResult, metric: Metric) -> str:
    """The system-against-system grid, best system first, and the ranking's clusters."""
    order, matrix = result.grid(metric.name)
    width = max(len(name) for name in order)
    numbers = [str(k + 1) for k in range(len(order))]
    lines = [" " * (width + 4) + "  ".join(n.rjust(2) for n in numbers)]
    for k, (name, row) in enumerate(zip(order, matrix, strict=True)):
        cells = "  ".join((verdict or ".").rjust(2) for verdict in row)
        lines.append(f"{numbers[k]:>2} {name:<{width}} {cells}")
    clusters = " > ".join("{" + ", ".join(c) + "}" for c in result.ranking(metric.name).clusters)
    lines.append(f"clusters, best first: {clusters}")
    return "\n".join(lines)


def score_rows(result: BootstrapResult) -> list[list[Any]]:
    """One row per system and metric: the score, its interval and its rank."""
    rows = []
    for ranking in result.rankings:
        for entry in ranking.systems:
            i = result.interval(entry.system, ranking.metric)
            values = [getattr(i, field) for field in INTERVAL_FIELDS]
            ranks = [entry.best_rank, entry.worst_rank, entry.cluster]
            rows.append([entry.system, ranking.metric, i.score, *values, *ranks])
    return [[_cell(value) for value in row] for row in rows]


def pair_rows(result: BootstrapResult) -> list[list[Any]]:
    """One row per ordered pair of systems and metric."""
    return [[_cell(getattr(pair, column)) for column in PAIR_COLUMNS] for pair in result.pairs]


def grid_rows(result: BootstrapResult, metric: str) -> tuple[list[str], list[list[str]]]:
    """The grid as a matrix: header row of systems, then one row per system."""
    order, matrix = result.grid(metric)
    return ["", *order], [[name, *row] for name, row in zip(order, matrix, strict=True)]


def sample_rows(result: BootstrapResult) -> tuple[list[str], list[list[Any]]]:
    """Every bootstrap score: one row per resample, one column per system and metric."""
    intervals = list(result.intervals)
    header = ["resample", *(f"{i.system}:{i.metric}" for i in intervals)]
    count = len(intervals[0].samples) if intervals else 0
    rows = [[b + 1, *(_cell(i.samples[b]) for i in intervals)] for b in range(count)]
    return header, rows


def _cell(value: Any) -> Any:
    """A CSV cell: None and NaN empty, numpy floats as floats."""
    if value is None:
        return ""
    if isinstance(value, float | int) and not isinstance(value, bool):
        value = float(value) if isinstance(value, float) else value
        if isinstance(value, float) and math.isnan(value):
            return ""
    return value


def _number(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.4f}"


def _percent(value: float, sign: bool = True) -> str:
    if math.isnan(value):
        return "-"
    return f"{value:+.2f}%" if sign else f"{value:.2f}%"


def align_table(rows: list[list[str]]) -> str:
    """Columns padded to their widest cell; text left, numbers right."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [row[0].ljust(widths[0])] + [
            cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)
