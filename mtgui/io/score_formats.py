"""Readers for the segment scores that metric tools write, told apart by their content.

Besides a table (:mod:`mtgui.io.scores`), mtgui reads what the tools users run print or save:

- one number per line, line *i* scoring segment *i* of one system's output (MetricX, a script's
  ``print``); an empty line or ``NA`` is a segment without a score (see below). The file does
  not say which system it scores, so the user does (``--scores FILE=SYSTEM:NAME``).
- ``comet-score``'s printed output (Unbabel/COMET, ``comet/cli/score.py``): since COMET 1.1, a
  line ``HYP\\tSegment I\\tscore: 0.8123`` per system and segment (``I`` from 0; the systems
  interleaved, segment by segment), then ``HYP\\tscore: 0.8100`` per system, where ``HYP`` is
  the path of the system's output as given to COMET; with ``--mc_dropout``,
  ``\\tvariance: V`` follows the score. COMET 1.0 scored one system and printed
  ``Segment I\\tscore: S`` and ``System score: S``. Scores are printed to 4 decimals (1.0: 3),
  so means are exact to about 5e-5. Lines before the first segment (logs, when standard error
  was saved too) are skipped; ``Predictions saved in: ...`` and ``CacheInfo(...)`` lines too.
- ``comet-score --to_json FILE``: ``{"HYP": [{"src": ..., "mt": ..., "ref": ..., "COMET":
  0.8123}, ...], ...}``, one list per system in segment order (COMET 1.0: the list alone),
  with the full precision of the scores.

A missing score is written alike in every format: empty, or one of the words of
:data:`~mtgui.io.scores.MISSING` (``NA``, ``NaN``, ``N/A``, ``None``, ``null``, ``-``, in any
case); in comet-score's JSON also ``null`` and ``NaN`` as values. Such a segment has no score
(the assembly notes how many), in a table, a file of one number per line, comet-score's output
and its JSON alike; ``inf`` is refused everywhere.

Each reader returns a :class:`~mtgui.io.scores.ScoreTable` whose records give the segment by
its 1-based position, and whose ``segment_count`` the assembly checks against the test set.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from pathlib import Path

from mtgui.engine.core import InputError, Origin, printable
from mtgui.io.field_formats import field_format
from mtgui.io.json_input import load_json
from mtgui.io.mqm import MQM_TSV, is_mqm
from mtgui.io.plaintext import split_lines
from mtgui.io.scores import (
    MAX_MAGNITUDE,
    MISSING,
    ScoreRecord,
    ScoreTable,
    looks_like_scores,
    parse_score,
)
from mtgui.io.textutil import whole_number

COMET_OUTPUT = "COMET output"
COMET_JSON = "COMET JSON"
LINE_SCORES = "scores, one per line"
SCORES_TABLE = "scores table"  # as mtgui.io.streams.SCORES_TABLE
COMET_KEY = "COMET"  # the score's key in comet-score's JSON

_SEGMENT = re.compile(
    r"(?:(?P<path>[^\t]*)\t)?Segment (?P<index>[0-9]+)[\t ]score: (?P<score>\S+)"
    r"(?:\tvariance: \S+)?"
)
_SYSTEM = re.compile(r"(?:[^\t]*\tscore: |System score: )\S+")
_IGNORED = ("Predictions saved in: ", "CacheInfo(")
_NUMBER_LINE = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_SNIFF = 1 << 16


def score_format(text: str, column: str | None = None, path: Path | None = None) -> str | None:
    """The format of a scores file's text (:data:`SCORES_TABLE`, :data:`COMET_OUTPUT`,
    :data:`COMET_JSON`, :data:`LINE_SCORES`, WMT's MQM annotations or one of the field's
    formats of :mod:`mtgui.io.field_formats`), or None when it is none of them. A table
    whose scores are in a ``column`` of another name than score, z, raw... is one when that
    column is given.

    Only the start of the text is looked at (and ``path``'s name, to tell mt-metrics-eval's
    ``.sys.score`` from its ``.seg.score``). A one-number-per-line file needs the user to say
    which system it scores (the window asks; ``--scores FILE=SYSTEM:NAME``).
    """
    if is_mqm(text[:_SNIFF]):
        return MQM_TSV
    field = field_format(text, path)
    if field is not None:
        return field
    head = text[:_SNIFF].lstrip("\ufeff \t\r\n")
    if head.startswith(("{", "[")):
        return COMET_JSON
    lines = split_lines(head)
    if any(_SEGMENT.fullmatch(line.rstrip("\r")) for line in lines[:-1] or lines):
        return COMET_OUTPUT
    if looks_like_scores(text) or (column is not None and looks_like_scores(text, column)):
        return SCORES_TABLE
    first = lines[0].strip() if lines else ""
    if _NUMBER_LINE.fullmatch(first) or first.lower() in MISSING - {""}:
        return LINE_SCORES
    return None


def read_line_scores(text: str, origin: Origin, system: str) -> ScoreTable:
    """One score per line of ``system``'s output: line *i* is segment *i*.

    Raises
    ------
    InputError
        If the file is empty, a line is not a number, or no line has a score.
    """
    lines = split_lines(text.lstrip("\ufeff"))
    if not lines:
        raise InputError("the scores file is empty.", path=origin.path)
    records, skipped = [], 0
    for number, line in enumerate(lines, start=1):
        field = line.strip()
        if field.lower() in MISSING:
            skipped += 1
            continue
        value = parse_score(field, origin, number)
        records.append(ScoreRecord(system, value, number, None, None, number))
    if not records:
        raise InputError("no line of the scores file has a score.", path=origin.path)
    return ScoreTable(origin, "", tuple(records), skipped, segment_count=len(lines))


@dataclass
class _System:
    """One system's segments in COMET's output, as they come (``count`` with those without a
    score)."""

    first_line: int
    records: list[ScoreRecord]
    count: int = 0


def read_comet_output(text: str, origin: Origin) -> ScoreTable:
    """``comet-score``'s printed output (see the module's docstring).

    Raises
    ------
    InputError
        If it has no segment line, a segment comes out of order, a line after the first segment
        is none of COMET's, or the systems have different numbers of segments.
    """
    systems: dict[str, _System] = {}
    started, skipped = False, 0
    for number, raw in enumerate(split_lines(text.lstrip("\ufeff")), start=1):
        line = raw.rstrip("\r")
        found = _SEGMENT.fullmatch(line)
        if found is None:
            if started and line.strip() and not _comet_other(line):
                raise InputError(
                    f"this line is not one of comet-score's ('{printable(line[:80])}'): a "
                    "segment line reads 'HYP<tab>Segment 0<tab>score: 0.8123'.",
                    path=origin.path,
                    line=number,
                )
            continue
        started = True
        path = found["path"] or ""
        system = systems.setdefault(path, _System(number, []))
        index = whole_number(found["index"], "segment number", origin.path, number)
        assert index is not None  # the pattern matched digits
        if index != system.count:
            raise InputError(
                f"expected segment {system.count} of {_hyp(path)} here, found segment "
                f"{index}: comet-score prints every segment once, in order.",
                path=origin.path,
                line=number,
            )
        system.count += 1
        if found["score"].lower() in MISSING:
            skipped += 1
            continue
        value = parse_score(found["score"], origin, number)
        system.records.append(ScoreRecord(path, value, number, None, None, index + 1))
    if not systems:
        raise InputError(
            "this comet-score output has no segment scores (was it run with --only_system?).",
            path=origin.path,
        )
    counts = {p: s.count for p, s in systems.items()}
    return _comet_table(origin, {p: s.records for p, s in systems.items()}, counts, skipped)


def read_comet_json(text: str, origin: Origin) -> ScoreTable:
    """``comet-score --to_json``'s file (see the module's docstring).

    Raises
    ------
    InputError
        If it is not JSON of that shape, or an entry has no number under ``"COMET"``.
    """
    data = load_json(text.lstrip("\ufeff"), origin.path)
    if isinstance(data, list):
        data = {"": data}  # COMET 1.0: one system, not named
    if (
        not isinstance(data, dict)
        or not data
        or not all(isinstance(v, list) for v in data.values())
    ):
        raise InputError(
            "this JSON is not comet-score's: it should map each system's output file to the "
            'list of its segments, each with a "COMET" score.',
            path=origin.path,
        )
    systems = {path: _json_records(path, items, origin) for path, items in data.items()}
    counts = {path: len(items) for path, items in data.items()}
    skipped = sum(counts.values()) - sum(len(records) for records in systems.values())
    return _comet_table(origin, systems, counts, skipped)


def _json_records(path: str, items: list[object], origin: Origin) -> list[ScoreRecord]:
    """One system's entries in the JSON, as records; a missing score (null, NaN, or one of
    the words of :data:`~mtgui.io.scores.MISSING`) gives none."""
    records = []
    for index, item in enumerate(items):
        value = item.get(COMET_KEY) if isinstance(item, dict) else None
        if isinstance(item, dict) and COMET_KEY in item and _is_missing(value):
            continue
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise InputError(
                f'segment {index} of {_hyp(path)} has no number under "{COMET_KEY}" (found '
                f"{printable(json.dumps(value))[:40]}).",
                path=origin.path,
            )
        if not (math.isfinite(value) and abs(value) <= MAX_MAGNITUDE):
            raise InputError(
                f"the score of segment {index} of {_hyp(path)} is {value}, not a finite number "
                "of at most 10^12.",
                path=origin.path,
            )
        records.append(ScoreRecord(path, float(value), 0, None, None, index + 1))
    return records


def _comet_table(
    origin: Origin, systems: dict[str, list[ScoreRecord]], counts: dict[str, int], skipped: int
) -> ScoreTable:
    """The table of COMET's systems, which must all have scored the same number of segments
    (``counts``, with those without a score)."""
    first, count = next(iter(counts.items()))
    other = next((path for path, n in counts.items() if n != count), None)
    if other is not None:
        raise InputError(
            f"{_hyp(first)} has {count} segment scores but {_hyp(other)} has {counts[other]}: "
            "COMET scores every system on the same segments.",
            path=origin.path,
        )
    records = tuple(r for group in systems.values() for r in group)
    if not records:
        raise InputError("no segment in this comet-score file has a score.", path=origin.path)
    return ScoreTable(origin, COMET_KEY, records, skipped, segment_count=count, by_path=True)


def _is_missing(value: object) -> bool:
    """Whether a JSON value is a missing score: null, NaN or one of the words of MISSING."""
    if value is None:
        return True
    if isinstance(value, float):
        return math.isnan(value)
    return isinstance(value, str) and value.strip().lower() in MISSING


def _comet_other(line: str) -> bool:
    """Whether a line is one COMET prints besides segment scores."""
    return bool(_SYSTEM.fullmatch(line)) or line.startswith(_IGNORED)


def _hyp(path: str) -> str:
    """How to name one of COMET's systems in a message."""
    return f"'{printable(path)}'" if path else "the system"
