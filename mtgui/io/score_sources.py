"""Loading one file of external segment scores as the metric the user names.

Every external score is a metric of its own (:mod:`mtgui.engine.metrics.external`): the user
says which file, which column of a table, what to call the metric, whether lower is better, and
for a file that scores one system's output without naming it, which system. A
:class:`ScoreSource` holds these answers; :func:`load_score_source` reads the file in whichever
format its content shows (:func:`~mtgui.io.score_formats.score_format`) and returns a
:class:`~mtgui.io.scores.ScoreTable` that carries the metric's name and direction to the
assembly.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from mtgui.engine.core import InputError, Origin, printable
from mtgui.io.decode import AUTO, DecodedText, read_text
from mtgui.io.field_formats import (
    METRICX_JSONL,
    MTME_SEGMENTS,
    WMT_DA,
    metricx_names_systems,
    read_metricx,
    read_mtme_segments,
    read_wmt_da,
    refusal,
)
from mtgui.io.loader import detect_format
from mtgui.io.mqm import MQM, MQM_TSV, read_mqm
from mtgui.io.score_formats import (
    COMET_JSON,
    COMET_OUTPUT,
    LINE_SCORES,
    SCORES_TABLE,
    read_comet_json,
    read_comet_output,
    read_line_scores,
    score_format,
)
from mtgui.io.scores import ScoreTable, read_scores
from mtgui.io.streams import SGML, WMT_XML

HUMAN = "human"
"""The name of scores loaded without one (the registry's Human metric)."""


@dataclass(frozen=True)
class ScoreSource:
    """One file of segment scores and what the user says of it.

    ``column`` picks a table's score column (None: the first of score, z, raw, ...); ``system``
    names the system whose output a one-number-per-line file (or COMET's output of one system)
    scores; ``metric`` and ``higher_is_better`` are the metric the scores make.
    """

    path: Path
    column: str | None = None
    metric: str = HUMAN
    system: str | None = None
    higher_is_better: bool = True


def load_score_source(source: ScoreSource, encoding: str = AUTO) -> ScoreTable:
    """Read the file of ``source`` as the metric it names.

    Raises
    ------
    InputError
        If the file cannot be read, is in none of the formats, or does not fit what the user
        said of it (a column of a file without columns, no system for numbers alone).
    """
    return scores_from_source(read_text(source.path, encoding), source)


def scores_from_source(decoded: DecodedText, source: ScoreSource) -> ScoreTable:
    """:func:`load_score_source` on a text already decoded (the desktop reads each file once)."""
    text, path = decoded.text, source.path
    kind = detect_format(text)
    if kind in (SGML, WMT_XML):
        raise InputError(
            f"this is a {kind} file of translations, not a table of scores.", path=path
        )
    found = score_format(text, source.column, path)
    if found is None and source.system is None:
        found = SCORES_TABLE  # the table reader says what its header lacks, as before
    if found is None:
        first = printable(text.lstrip("\ufeff").split("\n", 1)[0].strip()[:80])
        raise InputError(
            "mtgui cannot tell what this scores file holds: it reads a table with a header "
            "(system, segment and score columns), one number per line, comet-score's output "
            "or JSON, WMT's DA and MQM files, MetricX's JSONL and mt-metrics-eval's "
            f"*.seg.score; its first line is '{first}'.",
            path=path,
            line=1,
        )
    origin = Origin(str(path), found, decoded.encoding)
    table = _read(text, origin, found, source)
    return replace(table, metric=source.metric, higher_is_better=source.higher_is_better)


def _read(text: str, origin: Origin, found: str, source: ScoreSource) -> ScoreTable:
    """The file read in its format, checked against what the user said of it."""
    refused = refusal(found, Path(origin.path))
    if refused is not None:
        raise InputError(refused, path=origin.path)
    _refuse_as_human(found, origin, source)
    if found in (WMT_DA, MQM_TSV, MTME_SEGMENTS) or (
        found == METRICX_JSONL and source.system is None
    ):
        return _read_field(text, origin, found, source)
    if found == METRICX_JSONL:
        _no_column(found, origin, source)
        return read_metricx(text, origin, source.system)
    if found == SCORES_TABLE:
        if source.system is not None:
            raise InputError(
                "this is a table, whose system column says which system each score is of, "
                f"so it takes no system name ('{printable(source.system)}').",
                path=origin.path,
                hint="Give it as FILE, FILE:COLUMN or FILE:COLUMN=NAME.",
            )
        return read_scores(text, origin, source.column)
    _no_column(found, origin, source)
    if found == LINE_SCORES:
        if source.system is None:
            raise InputError(
                "this file holds one number per line, and does not say which system's output "
                "they score.",
                path=origin.path,
                hint="Say which: --scores FILE=SYSTEM:NAME on the command line.",
            )
        return read_line_scores(text, origin, source.system)
    table = _read_comet(text, origin, found)
    return _assign_system(table, source.system) if source.system is not None else table


def _refuse_as_human(found: str, origin: Origin, source: ScoreSource) -> None:
    """Refuse MQM's or MetricX's error scores given without a name: read as ``human``,
    higher is better, their ranking would be upside down without a word."""
    if source.metric != HUMAN or not source.higher_is_better:
        return
    if found == MQM_TSV:
        raise InputError(
            "this is WMT's MQM annotation file, whose error penalties are better when lower; "
            "given without a name it would be read as human scores, higher is better.",
            path=origin.path,
            hint="Give it with --mqm FILE on the command line.",
        )
    if found == METRICX_JSONL:
        raise InputError(
            "this is MetricX's output, whose error scores are better when lower; given "
            "without a name it would be read as human scores, higher is better.",
            path=origin.path,
            hint="Name it and its direction: --scores FILE=metricx --lower-better metricx "
            "on the command line.",
        )


def _no_column(found: str, origin: Origin, source: ScoreSource) -> None:
    """Refuse a column for a file without columns to choose from."""
    if source.column is not None:
        raise InputError(
            f"this file ({found}) has no columns to choose from, so it takes no column name "
            f"('{printable(source.column)}').",
            path=origin.path,
            hint="Give it as FILE=NAME, or FILE=SYSTEM:NAME for one system's scores.",
        )


def _read_field(text: str, origin: Origin, found: str, source: ScoreSource) -> ScoreTable:
    """One of the field's files that names its systems itself (WMT's DA and MQM files,
    mt-metrics-eval's segment scores, MetricX's JSONL with system_id)."""
    if source.system is not None:
        raise InputError(
            f"this file ({found}) names the system of every score itself, so it takes no "
            f"system name ('{printable(source.system)}').",
            path=origin.path,
            hint="Give it as FILE or FILE=NAME.",
        )
    if found == WMT_DA:
        return read_wmt_da(text, origin, source.column)
    if found == MQM_TSV:
        return read_mqm(text, origin, _category(source.column))
    _no_column(found, origin, source)
    if found == METRICX_JSONL:
        return read_metricx(text, origin)
    return read_mtme_segments(text, origin)


def _category(column: str | None) -> str | None:
    """The MQM error category a column names (None: all errors)."""
    if column is None or column.strip().lower() in ("", MQM):
        return None
    return column.strip().lower()


def _read_comet(text: str, origin: Origin, found: str) -> ScoreTable:
    """COMET's JSON or printed output."""
    return read_comet_json(text, origin) if found == COMET_JSON else read_comet_output(text, origin)


def _assign_system(table: ScoreTable, system: str) -> ScoreTable:
    """COMET's scores of one system, given to the system the user names."""
    paths = table.systems
    if len(paths) > 1:
        raise InputError(
            f"this COMET output scores {len(paths)} systems, so one system name "
            f"('{printable(system)}') cannot be given to all of them.",
            path=table.origin.path,
            hint="Leave out =SYSTEM: each system is found by the path of its output.",
        )
    records = tuple(replace(r, system=system) for r in table.records)
    return replace(table, records=records, by_path=False)


def needs_system(text: str) -> bool:
    """Whether a scores file's text cannot say which system it scores: one number per line,
    or COMET 1.0's output of one unnamed system. The window then asks the user."""
    found = score_format(text)
    if found == LINE_SCORES:
        return True
    if found == METRICX_JSONL:
        return not metricx_names_systems(text)
    if found not in (COMET_OUTPUT, COMET_JSON):
        return False
    try:
        table = _read_comet(text, Origin("", found, ""), found)
    except InputError:
        return False  # reading it will say what is wrong
    return table.systems == ("",)
