"""The studies' results as tables (header and rows) for CSV files, and as JSON-ready data.

One function per study gives every table by file name, so the command line and the desktop
application export the same files: long tables, one value per cell, relative values in
percent, NaN as an empty cell (in JSON, null).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, fields, is_dataclass
from typing import TYPE_CHECKING, Any

from mtgui._version import __version__
from mtgui.engine.inference import INTERVAL_FIELDS, PAIR_FIELDS
from mtgui.engine.studies import (
    AccuracyTest,
    CorrelationTest,
    Disagreement,
    HumanStudy,
    MetricAccuracy,
    MetricCorrelation,
    RefsRow,
    RefsSizeRow,
    RefsStudy,
    ResampleRow,
    ResamplesStudy,
    SizeRow,
    SizeStudy,
    StabilityRow,
)
from mtgui.report.cells import csv_cell, json_ready
from mtgui.report.files import Table as Table  # the views take it from here too
from mtgui.report.significance import (
    PAIR_COLUMNS,
    SCORE_COLUMNS,
    grid_rows,
    pair_rows,
    score_rows,
)

if TYPE_CHECKING:  # a type only: the studies' running code is not needed to print one
    from mtgui.engine.studies import Study

_TABLE_FILES = {
    "size": ("size.csv", "size-pairs.csv", "size-separation.csv", "size-fit.csv"),
    "refs": ("refs.csv", "refs-size.csv"),
    "resamples": ("resamples.csv", "resamples-stability.csv"),
    "human": (
        "correlations.csv",
        "correlation-tests.csv",
        "disagreements.csv",
        "scores.csv",
        "pairs.csv",
        "grid-human.csv",
        "accuracy.csv",
        "accuracy-tests.csv",
    ),
}
CSV_FILES = {name: (*files, f"{name}-settings.csv") for name, files in _TABLE_FILES.items()}
"""The CSV files of each study, by the study's name on the command line: its tables, and the
settings that made them (a folder of tables must say how its numbers were made)."""


def study_tables(study: Study) -> dict[str, Table]:
    """File name -> (header, rows) of every CSV table of a study, its settings last."""
    if isinstance(study, SizeStudy):
        name, tables = "size", _size_tables(study)
    elif isinstance(study, RefsStudy):
        rows = [_rows(study.rows, RefsRow), _rows(study.sizes, RefsSizeRow)]
        name, tables = "refs", dict(zip(_TABLE_FILES["refs"], rows, strict=True))
    elif isinstance(study, ResamplesStudy):
        rows = [_rows(study.rows, ResampleRow), _rows(study.stability, StabilityRow)]
        name, tables = "resamples", dict(zip(_TABLE_FILES["resamples"], rows, strict=True))
    else:
        name, tables = "human", _human_tables(study)
    return {**tables, f"{name}-settings.csv": settings_table(name, study)}


def settings_table(name: str, study: Study) -> Table:
    """How a study was made, one setting per row: mtgui's version, the study, its settings
    (nested ones as ``bootstrap.seed``), the signature of the statistics, and its notes."""
    rows: list[list[Any]] = [["mtgui", __version__], ["study", name]]
    rows += [[key, csv_cell(value)] for key, value in _flat(asdict(study.settings))]
    rows.append(["signature", study.signature])
    rows += [["note", note] for note in getattr(study, "notes", ())]
    return ("setting", "value"), rows


def _flat(values: dict[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    """``{"bootstrap": {"seed": 1}}`` as ``[("bootstrap.seed", 1)]``; sequences joined."""
    flat: list[tuple[str, Any]] = []
    for key, value in values.items():
        if isinstance(value, dict):
            flat += _flat(value, f"{prefix}{key}.")
        elif isinstance(value, list | tuple):
            flat.append((f"{prefix}{key}", " ".join(str(item) for item in value)))
        else:
            flat.append((f"{prefix}{key}", getattr(value, "value", value)))
    return flat


def study_data(study: Study) -> dict[str, Any]:
    """The study's settings and tables as JSON-ready data.

    Of the human study's bootstrap, the intervals (without the resample scores) and the pairs
    are given, with the fields of ``mtgui eval``'s report.
    """
    data = {
        item.name: _plain(getattr(study, item.name))
        for item in fields(study)
        if item.name != "bootstrap"
    }
    if isinstance(study, HumanStudy) and study.bootstrap is not None:
        data["intervals"] = [
            {key: getattr(i, key) for key in ("system", "metric", "score", *INTERVAL_FIELDS)}
            for i in study.bootstrap.intervals
        ]
        data["pairs"] = [
            {key: getattr(p, key) for key in PAIR_FIELDS} for p in study.bootstrap.pairs
        ]
    return dict(json_ready(data))


def _plain(value: Any) -> Any:
    """Dataclasses (alone or in a tuple) as dicts."""
    if is_dataclass(value) and not isinstance(value, type):
        return asdict(value)
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    return value


def _size_tables(study: SizeStudy) -> dict[str, Table]:
    """The averages, the pair separations (one row per pair and fraction) and the fits."""
    shares = [
        [p.metric, p.x, p.y, fraction, csv_cell(x), csv_cell(y)]
        for p in study.pairs
        for fraction, x, y in zip(study.fractions, p.x_better, p.y_better, strict=True)
    ]
    smallest = [[p.metric, p.x, p.y, csv_cell(p.smallest_fraction), p.verdict] for p in study.pairs]
    fits = [
        [f.system, f.metric, csv_cell(f.exponent), csv_cell(f.narrowing), f.points]
        for f in study.fits
    ]
    tables = [
        _rows(study.rows, SizeRow),
        (("metric", "x", "y", "fraction", "x_better", "y_better"), shares),
        (("metric", "x", "y", "smallest_fraction", "verdict"), smallest),
        (("system", "metric", "exponent", "narrowing_percent", "points"), fits),
    ]
    return dict(zip(_TABLE_FILES["size"], tables, strict=True))


def _human_tables(study: HumanStudy) -> dict[str, Table]:
    """Correlations, tests of pairs of metrics, disagreements, and the bootstrap's scores, pairs
    and human grid."""
    tables = [
        _rows(study.correlations, MetricCorrelation),
        _rows(study.correlation_tests, CorrelationTest),
        _rows(study.disagreements, Disagreement),
    ]
    if study.bootstrap is not None:
        tables += [
            (SCORE_COLUMNS, score_rows(study.bootstrap)),
            (PAIR_COLUMNS, pair_rows(study.bootstrap)),
            grid_rows(study.bootstrap, study.human),  # grid-human.csv, whatever its name
            _rows(study.accuracies, MetricAccuracy),
            _rows(study.accuracy_tests, AccuracyTest),
        ]
    return dict(zip(_TABLE_FILES["human"], tables, strict=False))


def _rows(items: Sequence[Any], kind: type) -> Table:
    """A table of dataclasses of one ``kind``: a column per field."""
    names = [f.name for f in fields(kind)]
    return names, [[csv_cell(getattr(item, name)) for name in names] for item in items]
