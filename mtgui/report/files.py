"""The CSV reports of an analysis, as files in a folder (command line and desktop alike).

``scores.csv`` (scores with their intervals and ranks), ``pairs.csv`` (every ordered pair),
``grid-<metric>.csv`` (each grid as a matrix), ``settings.csv`` (how the bootstrap was run: the
unit really resampled, the correction, the signature) and, if asked, ``samples.csv`` (every
bootstrap score). UTF-8 with a byte-order mark so that Excel reads the characters right; written
atomically; an existing file is replaced only when the caller says so.

The window's exports begin each file with ``# `` comment lines saying what made it (mtgui's
version, the settings, the signature: ``preamble``), so that a file sent on its own still says
so; pandas reads past them with ``comment="#"`` and a spreadsheet shows them above the table.
The command line's ``--csv`` writes plain CSV that every reader takes as it is (scripts read
it), with the settings in ``settings.csv`` beside the others.

Which files a run writes depends on its metrics and options only, so :func:`report_names`
gives them before the run, for the outputs to be checked before any work starts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from mtgui.engine.resampling import BootstrapResult
from mtgui.engine.statistics import Statistics
from mtgui.io.outputs import OutputPlan
from mtgui.io.writers import csv_text
from mtgui.report.significance import (
    PAIR_COLUMNS,
    SCORE_COLUMNS,
    SEGMENT_COLUMNS,
    grid_rows,
    sample_rows,
    score_rows,
    segment_pair_rows,
    settings_rows,
)
from mtgui.report.table_text import comment_lines

Table = tuple[list[str] | tuple[str, ...], list[list[Any]]]


def report_names(metrics: Sequence[str], bootstrap: bool, samples: bool = False) -> list[str]:
    """The file names :func:`report_tables` gives for ``metrics``, with or without the
    bootstrap (and ``samples``), known before the run."""
    if not bootstrap:
        return ["scores.csv"]
    names = ["scores.csv", "pairs.csv", "settings.csv", *(f"grid-{m}.csv" for m in metrics)]
    return [*names, "samples.csv"] if samples else names


def report_tables(
    statistics: Statistics, result: BootstrapResult | None, samples: bool = False
) -> dict[str, Table]:
    """File name -> (header, rows) of every CSV report."""
    if result is None:
        rows: list[list[Any]] = [
            [s, m.name, statistics.score(s, m.name)]
            for s in statistics.system_names
            for m in statistics.metrics
        ]
        return {"scores.csv": (["system", "metric", "score"], rows)}
    tables: dict[str, Table] = {
        "scores.csv": (SCORE_COLUMNS, score_rows(result)),
        "pairs.csv": ((*PAIR_COLUMNS, *SEGMENT_COLUMNS), segment_pair_rows(result)),
        "settings.csv": settings_rows(result),
    }
    for metric in result.metrics:
        tables[f"grid-{metric}.csv"] = grid_rows(result, metric)
    if samples:
        tables["samples.csv"] = sample_rows(result)
    return tables


def existing_reports(folder: Path, tables: dict[str, Table]) -> list[Path]:
    """The report files that are already in ``folder`` (to ask before replacing them)."""
    return [folder / name for name in tables if (folder / name).exists()]


def write_reports(
    folder: Path, tables: dict[str, Table], overwrite: bool, preamble: Sequence[str] = ()
) -> list[Path]:
    """Write every table into ``folder`` (made if missing), each after the ``preamble``
    lines as ``# `` comments; return the files written.

    Every file is checked before the first is written (see :class:`OutputPlan`).
    """
    plan = OutputPlan(overwrite)
    plan.add_folder(CSV_KEY, folder, list(tables))
    plan.prepare()
    try:
        write_planned_reports(plan, tables, preamble)
    finally:
        plan.close()
    return [folder / name for name in tables]


CSV_KEY = "--csv"
"""The key of the CSV reports in an :class:`OutputPlan` (``--csv/NAME``)."""


def write_planned_reports(
    plan: OutputPlan, tables: Mapping[str, Table], preamble: Sequence[str] = ()
) -> None:
    """Write ``tables`` as the CSV reports planned in ``plan`` under :data:`CSV_KEY`, each
    after the ``preamble`` lines as ``# `` comments."""
    unplanned = [name for name in tables if f"{CSV_KEY}/{name}" not in plan]
    if unplanned:  # report_names and report_tables disagree: a bug, before anything is written
        raise RuntimeError(f"CSV reports not checked before the run: {', '.join(unplanned)}")
    for name, (header, rows) in tables.items():
        text = comment_lines(preamble) + csv_text(header, rows)
        plan.write(f"{CSV_KEY}/{name}", text, bom=True)
