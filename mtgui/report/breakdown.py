"""Breakdowns as reports: the JSON entries, the CSV tables and the terminal's section.

JSON (the report's ``"breakdowns"``): ``[{"by", "what", "groups": [{"label", "segments",
"documents", "unit", "notes", "systems": [{"name", "scores": {metric: {"score", "median",
"ci_low", ...}}}], "pairs": [...]}]}]``; a group that was not bootstrapped (too small, or
``--bootstrap 0``) has only ``"score"`` per metric, ``"unit"`` null and no pairs. CSV:
``breakdown-<key>.csv`` (a row per group, system and metric) and, with the bootstrap,
``breakdown-<key>-pairs.csv`` (a row per group and ordered pair).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from mtgui.engine.core import printable
from mtgui.engine.inference import (
    INTERVAL_FIELDS,
    OPTIONAL_PAIR_FIELDS,
    PAIR_FIELDS,
    PairComparison,
)
from mtgui.engine.metrics import Metric
from mtgui.report.cells import csv_cell, four_decimals, json_ready
from mtgui.report.significance import PAIR_COLUMNS, SCORE_COLUMNS, grid_text
from mtgui.report.table_text import align_table

if TYPE_CHECKING:  # only named here: a run without breakdowns does not load them
    from mtgui.engine.breakdown import Breakdown, GroupResult

Table = tuple[list[str], list[list[Any]]]
BREAKDOWN_COLUMNS = ["group", "segments", "documents", "unit", *SCORE_COLUMNS]
"""A group's size and unit, then the columns of ``scores.csv``."""


def breakdown_file(key: str, pairs: bool = False) -> str:
    """The CSV report of a breakdown: ``breakdown-<key>.csv`` (``-pairs`` for its pairs)."""
    return f"breakdown-{key}{'-pairs' if pairs else ''}.csv"


def breakdown_report(breakdowns: Sequence[Breakdown]) -> list[dict[str, Any]]:
    """The ``"breakdowns"`` of the JSON report."""
    return [
        json_ready(
            {
                "by": b.by,
                "what": b.what,
                "groups": [_group_entry(b, group) for group in b.groups],
            }
        )
        for b in breakdowns
    ]


def _group_entry(breakdown: Breakdown, group: GroupResult) -> dict[str, Any]:
    """One group: its size, each system's scores (with intervals if bootstrapped), pairs."""
    result = group.bootstrap
    systems = []
    for name in breakdown.systems:
        scores: dict[str, dict[str, Any]] = {}
        for metric in breakdown.metrics:
            entry: dict[str, Any] = {"score": group.score(name, metric)}
            if result is not None:
                interval = result.interval(name, metric)
                entry.update({key: getattr(interval, key) for key in INTERVAL_FIELDS})
            scores[metric] = entry
        systems.append({"name": name, "scores": scores})
    return {
        "label": group.label,
        "segments": group.segments,
        "documents": group.documents,
        "unit": None if result is None else result.settings.unit.value,
        "notes": list(group.notes),
        "systems": systems,
        "pairs": [] if result is None else [_pair_entry(p) for p in result.pairs],
    }


def _pair_entry(pair: PairComparison) -> dict[str, Any]:
    """One comparison, as the report's ``"pairs"`` have it."""
    entry = {key: getattr(pair, key) for key in PAIR_FIELDS}
    entry.update(
        {key: getattr(pair, key) for key in OPTIONAL_PAIR_FIELDS if getattr(pair, key) is not None}
    )
    return entry


def breakdown_tables(breakdown: Breakdown, key: str, pairs: bool) -> dict[str, Table]:
    """The CSV tables of one breakdown, by file name (``key`` names the files)."""
    rows = []
    for group in breakdown.groups:
        result = group.bootstrap
        unit = "" if result is None else result.settings.unit.value
        head = [group.label, group.segments, group.documents, unit]
        for metric in breakdown.metrics:
            ranks = {}
            if result is not None:
                ranks = {e.system: e for e in result.ranking(metric).systems}
            for name in breakdown.systems:
                values: list[Any] = [None] * len(INTERVAL_FIELDS)
                rank: list[Any] = [None, None, None]
                if result is not None:
                    interval = result.interval(name, metric)
                    values = [getattr(interval, f) for f in INTERVAL_FIELDS]
                    entry = ranks[name]
                    rank = [entry.best_rank, entry.worst_rank, entry.cluster]
                row = [*head, name, metric, group.score(name, metric), *values, *rank]
                rows.append([csv_cell(value) for value in row])
    tables: dict[str, Table] = {breakdown_file(key): (BREAKDOWN_COLUMNS, rows)}
    if pairs:
        pair_rows = [
            [group.label, *(csv_cell(getattr(p, column)) for column in PAIR_COLUMNS)]
            for group in breakdown.groups
            if group.bootstrap is not None
            for p in group.bootstrap.pairs
        ]
        tables[breakdown_file(key, pairs=True)] = (["group", *PAIR_COLUMNS], pair_rows)
    return tables


def breakdown_text(breakdown: Breakdown, metrics: Sequence[Metric]) -> str:
    """The terminal's section of one breakdown: per group its size, every system's scores
    with their intervals, and the grid of the first metric (all grids are in the JSON and
    CSV reports)."""
    sizes = ", ".join(f"{printable(g.label)} {g.segments}" for g in breakdown.groups)
    parts = [
        f"\nBreakdown by {printable(breakdown.by)} ({printable(breakdown.what)}): "
        f"{len(breakdown.groups)} groups (segments: {sizes})."
    ]
    for group in breakdown.groups:
        parts.append(f"\nGroup {printable(group.label)}: {_size_text(group)}")
        parts += [f"Note: {note}" for note in group.notes]
        if group.segments:
            parts.append(_score_table(breakdown, group, metrics))
        if group.bootstrap is not None and len(breakdown.systems) > 1:
            parts.append(grid_text(group.bootstrap, metrics[0]))
    return "\n".join(parts)


def _size_text(group: GroupResult) -> str:
    """``120 segments, 14 documents, resampled by document``."""
    text = f"{group.segments} segment{'' if group.segments == 1 else 's'}"
    if group.documents is not None:
        text += f", {group.documents} document{'' if group.documents == 1 else 's'}"
    if group.bootstrap is not None:
        text += f", {group.bootstrap.settings.unit.value}s resampled"
    return text + "."


def _score_table(breakdown: Breakdown, group: GroupResult, metrics: Sequence[Metric]) -> str:
    """Systems by metrics: ``score [low, high]`` (just the score without a bootstrap)."""
    result = group.bootstrap
    level = "" if result is None else f" [{result.settings.level * 100:g}% CI]"
    header = ["System", *(f"{m.label}{level}" for m in metrics)]
    rows = []
    for name in breakdown.systems:
        cells = [name]
        for metric in metrics:
            score = group.score(name, metric.name)
            cell = four_decimals(score)
            if result is not None and not math.isnan(score):
                i = result.interval(name, metric.name)
                cell += f" [{four_decimals(i.ci_low)}, {four_decimals(i.ci_high)}]"
            cells.append(cell)
        rows.append(cells)
    return align_table([header, *rows])
