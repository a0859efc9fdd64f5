"""The studies' results as tables (header and rows) for CSV files, and as JSON-ready data.

One function per study gives every table by file name, so the command line and the desktop
application export the same files: long tables, one value per cell, relative values in
percent, NaN as an empty cell (in JSON, null).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, fields, is_dataclass
from typing import Any

from mtgui.engine.intervals import INTERVAL_FIELDS
from mtgui.engine.significance import PAIR_FIELDS
from mtgui.engine.studies.dispatch import Study
from mtgui.engine.studies.human.correlation_tests import CorrelationTest
from mtgui.engine.studies.human.study import HUMAN, Disagreement, HumanStudy, MetricCorrelation
from mtgui.engine.studies.refs.study import RefsRow, RefsSizeRow, RefsStudy
from mtgui.engine.studies.resamples.study import ResampleRow, ResamplesStudy, StabilityRow
from mtgui.engine.studies.size.study import SizeRow, SizeStudy
from mtgui.report.cells import csv_cell, json_ready
from mtgui.report.files import Table as Table  # the views take it from here too
from mtgui.report.significance import (
    PAIR_COLUMNS,
    SCORE_COLUMNS,
    grid_rows,
    pair_rows,
    score_rows,
)

CSV_FILES = {
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
    ),
}
"""The CSV files of each study, by the study's name on the command line."""


def study_tables(study: Study) -> dict[str, Table]:
    """File name -> (header, rows) of every CSV table of a study."""
    if isinstance(study, SizeStudy):
        return _size_tables(study)
    if isinstance(study, RefsStudy):
        tables = [_rows(study.rows, RefsRow), _rows(study.sizes, RefsSizeRow)]
        return dict(zip(CSV_FILES["refs"], tables, strict=True))
    if isinstance(study, ResamplesStudy):
        tables = [_rows(study.rows, ResampleRow), _rows(study.stability, StabilityRow)]
        return dict(zip(CSV_FILES["resamples"], tables, strict=True))
    return _human_tables(study)


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
    return dict(zip(CSV_FILES["size"], tables, strict=True))


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
            grid_rows(study.bootstrap, HUMAN),
        ]
    return dict(zip(CSV_FILES["human"], tables, strict=False))


def _rows(items: Sequence[Any], kind: type) -> Table:
    """A table of dataclasses of one ``kind``: a column per field."""
    names = [f.name for f in fields(kind)]
    return names, [[csv_cell(getattr(item, name)) for name in names] for item in items]
