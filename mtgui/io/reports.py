"""The CSV reports of an analysis, as files in a folder (command line and desktop alike).

``scores.csv`` (scores with their intervals and ranks), ``pairs.csv`` (every ordered pair),
``grid-<metric>.csv`` (each grid as a matrix), ``settings.csv`` (how the bootstrap was run: the
unit really resampled, the correction, the signature) and, if asked, ``samples.csv`` (every
bootstrap score). UTF-8 with a byte-order mark so that Excel reads the characters right; written
atomically; an existing file is replaced only when the caller says so.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mtgui.engine.analysis import BootstrapResult
from mtgui.engine.significance_report import (
    PAIR_COLUMNS,
    SCORE_COLUMNS,
    grid_rows,
    pair_rows,
    sample_rows,
    score_rows,
    settings_rows,
)
from mtgui.engine.statistics import Statistics
from mtgui.io.writers import check_writable, csv_text, write_text_atomic

Table = tuple[list[str] | tuple[str, ...], list[list[Any]]]


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
        "pairs.csv": (PAIR_COLUMNS, pair_rows(result)),
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


def write_reports(folder: Path, tables: dict[str, Table], overwrite: bool) -> list[Path]:
    """Write every table into ``folder`` (made if missing); return the files written."""
    folder.mkdir(exist_ok=True)
    written = []
    for name, (header, rows) in tables.items():
        path = folder / name
        check_writable(path, overwrite)
        write_text_atomic(path, csv_text(header, rows), bom=True)
        written.append(path)
    return written
