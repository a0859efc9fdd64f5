"""Reader for per-segment numeric scores (human judgments, for example) in CSV or TSV.

The first line names the columns. mtgui needs a system column, a score column, and a way to
find the segment: document id plus segment id, or a line / segment number (1-based, in test-set
order). Column names are matched loosely (case, dots, dashes and underscores do not matter), so
the usual spellings work: ``system``/``sysid``/``sys``, ``docid``/``doc``, ``segid``/``seg``,
``line``, ``segment``, ``score``/``z``/``raw``. Several rows for one segment are several
judgments; they are averaged when the scores are aligned to the test set.

The reader is strict where a table could be read in more than one way. A number is written in
ASCII: an optional sign, the digits 0-9 with an optional decimal point, an optional exponent
(``-1.5``, ``+.25``, ``3e-2``); other digits (``١٢``), digit separators (``1_000``), ``inf``
and hexadecimal are refused, and an empty field or one of the words ``NA``, ``NaN``, ``N/A``,
``None``, ``null`` and ``-`` (in any case, :data:`MISSING`) is a missing score, skipped with a
note: one rule for every format of scores (:mod:`mtgui.io.score_formats`). A segment number
is read as an integer (of at most 100 digits), never through a float. A score's magnitude must
not exceed :data:`MAX_MAGNITUDE` (10^12): its sums over a test set and over every bootstrap
resample then neither overflow nor lose the precision of ordinary scores (a test set of ten
million segments sums to at most 10^19, which doubles hold to about 10^3, a billionth of the
largest score). Two columns whose names match loosely
alike, and a row with more or fewer fields than the header names (empty trailing fields
aside), are refused, naming the file and line.
"""

from __future__ import annotations

import csv
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from mtgui.engine.core import InputError, Origin, counted, printable
from mtgui.io.plaintext import split_lines
from mtgui.io.textutil import whole_number

SYSTEM_COLUMNS = ("system", "sysid", "systemid", "systemname", "sys")
DOC_COLUMNS = ("docid", "doc", "document", "documentid")
SEG_COLUMNS = ("segid", "seg", "segmentid")
INDEX_COLUMNS = ("line", "lineno", "linenumber", "segment", "segmentnumber", "segno")
SCORE_COLUMNS = ("score", "z", "zscore", "zscr", "raw", "rawscr", "human", "humanscore", "da")
MISSING = frozenset({"", "na", "nan", "n/a", "none", "null", "-"})
MAX_MAGNITUDE = 1e12  # the largest |score| read (see the module docstring)
_MAX_WORDS = "10^12"
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_NUMBER_FORMS = "digits 0-9 with an optional sign, decimal point and exponent, such as -1.5 or 2e-3"
_SNIFF = 1 << 16  # a header is found in the first 64K characters or not at all


@dataclass(frozen=True)
class ScoreRecord:
    """One row: a judgment of one segment of one system.

    ``doc`` and ``seg`` are set when the table has document and segment columns; ``index`` (a
    1-based position in the test set) when it has a line or segment-number column.
    ``annotations`` are what the judgment marked, in words (MQM's errors, their spans between
    ``<v>`` and ``</v>``), for the segment view.
    """

    system: str
    value: float
    line: int
    doc: str | None
    seg: str | None
    index: int | None
    annotations: tuple[str, ...] = ()


@dataclass(frozen=True)
class ScoreTable:
    """All usable rows of a scores file, and how many were skipped for a missing value.

    ``metric`` names the metric the scores make and ``higher_is_better`` its direction (see
    :mod:`mtgui.io.score_sources`). A file that scores every segment of one test set in order
    (one number per line, COMET's output) gives its ``segment_count``, which must be the test
    set's; COMET's names each system by the path of its output (``by_path``).

    WMT's DA files number a segment by its place in the test set with the documents sorted
    by docid (``sorted_documents``: the assembly needs the documents to place it). WMT's DA
    and MQM files name a system by its run (``Online-B.4``); with ``run_suffixes`` a name that
    is not loaded is matched to the loaded system of that name without its ``.N``.
    """

    origin: Origin
    score_column: str
    records: tuple[ScoreRecord, ...]
    skipped: int
    metric: str = "human"
    higher_is_better: bool = True
    segment_count: int | None = None
    by_path: bool = False
    sorted_documents: bool = False
    run_suffixes: bool = False

    @property
    def systems(self) -> tuple[str, ...]:
        """The system names in the table, in order of first appearance."""
        return tuple(dict.fromkeys(r.system for r in self.records))


def normalize_column(name: str) -> str:
    """A column name reduced to lower-case letters and digits, for loose matching."""
    return re.sub(r"[\s._\-]+", "", name.strip().lower())


def looks_like_scores(text: str, score_column: str | None = None) -> bool:
    """Whether the first line of ``text`` is a header mtgui can read as a scores table (with
    the column ``score_column`` holding the scores, when given)."""
    try:
        _columns(_split_header(first_line(text[:_SNIFF]), None, 1), score_column, None)
    except InputError:
        return False
    return True


def first_line(text: str) -> str:
    """The first of :func:`~mtgui.io.plaintext.split_lines` (``""`` for none), without
    splitting the rest: every file loaded is asked whether it is a scores table, and splitting
    its first 64K characters only to look at one line took a fifth of reading a plain text."""
    for separator in ("\n", "\r"):
        end = text.find(separator)
        if end >= 0:
            return text[:end]
    return text


def score_columns(text: str) -> list[str]:
    """The header's columns that could hold the scores (``z`` and ``raw``, say), in order."""
    lines = split_lines(text[:_SNIFF])
    try:
        header = _split_header(lines[0] if lines else "", None, 1)
    except InputError:
        return []
    return [name for name in header if normalize_column(name) in SCORE_COLUMNS]


def value_columns(text: str, rows: int = 20) -> list[str]:
    """The header's columns that may hold scores of a metric, in order: every named column but
    the system and segment columns whose fields in the first ``rows`` rows are all numbers or
    missing (WMT's ``in_dataset`` holds "yes": not a score). [] when the header names no system
    column or no segment column, so that a table of another kind is not offered as scores."""
    lines = split_lines(text[:_SNIFF])
    try:
        header = _split_header(lines[0] if lines else "", None, 1)
    except InputError:
        return []
    names = [normalize_column(name) for name in header]
    keys = {*SYSTEM_COLUMNS, *DOC_COLUMNS, *SEG_COLUMNS, *INDEX_COLUMNS}
    has_segment = any(n in (*SEG_COLUMNS, *INDEX_COLUMNS) for n in names)
    if not any(n in SYSTEM_COLUMNS for n in names) or not has_segment:
        return []
    candidates = [i for i, n in enumerate(names) if n and n not in keys]
    body = lines[1:] if len(text) <= _SNIFF else lines[1:-1]  # the last may be cut short
    for line in [line for line in body if line.strip()][:rows]:
        try:
            fields = _split_row(line, lines[0], Origin("", "scores table", ""), 2)
        except InputError:
            return []
        candidates = [i for i in candidates if i < len(fields) and _is_value(fields[i])]
    return [header[i] for i in candidates]


def _is_value(field: str) -> bool:
    """Whether a table's field is a number or a missing value (a score column's fields)."""
    text = field.strip()
    return text.lower() in MISSING or bool(_NUMBER.fullmatch(text))


def read_scores(text: str, origin: Origin, score_column: str | None = None) -> ScoreTable:
    """Read a scores table.

    Parameters
    ----------
    score_column
        The name of the column holding the scores, where the file has several candidates
        (``raw`` and ``z``, say); by default the first of ``score``, ``z``, ``raw``, ...

    Raises
    ------
    InputError
        If a needed column is missing, two columns have the same name, a row has more or fewer
        fields than the header names columns, or a score or segment number is not a number (or
        a score is beyond :data:`MAX_MAGNITUDE`).
    """
    lines = split_lines(text)
    if not lines or not lines[0].strip():
        raise InputError("the scores file is empty or its first line is blank.", path=origin.path)
    header = _split_header(lines[0], origin, 1)
    columns = _columns(header, score_column, origin)
    _check_unique_columns(header, origin)
    records: list[ScoreRecord] = []
    skipped = 0
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        fields = _split_row(line, lines[0], origin, number)
        _check_field_count(fields, header, origin, number)
        record = _record(fields, columns, number, origin)
        if record is None:
            skipped += 1
        else:
            records.append(record)
    if not records:
        raise InputError("the scores file has no rows with a score.", path=origin.path)
    return ScoreTable(origin, header[columns["score"]], tuple(records), skipped)


def _split_header(line: str, origin: Origin | None, number: int) -> list[str]:
    """Split the header line at tabs, commas or runs of spaces, whichever it uses."""
    if "\t" in line:
        return [field.strip() for field in line.rstrip("\t ").split("\t")]
    if "," in line:
        return _split_csv(line, origin, number)
    return line.split()


def _split_row(line: str, header_line: str, origin: Origin, number: int) -> list[str]:
    """Split a data row; a space-separated header may have tab-separated rows (WMT does this)."""
    if "\t" in header_line or ("\t" in line and "," not in header_line):
        return [field.strip() for field in line.split("\t")]
    if "," in header_line:
        return _split_csv(line, origin, number)
    return line.split()


def _split_csv(line: str, origin: Origin | None, number: int) -> list[str]:
    """One CSV line's fields (quotes allowed), or an :class:`InputError` for broken CSV."""
    try:
        return [field.strip() for field in next(csv.reader([line]), [])]
    except csv.Error as error:  # a stray CR, an overlong field
        raise InputError(
            f"this line is not valid CSV ({error}).",
            path=origin.path if origin else None,
            line=number,
        ) from None


def _check_unique_columns(header: Sequence[str], origin: Origin) -> None:
    """Refuse two columns of one (loosely matched) name: which one holds the data?"""
    seen: dict[str, str] = {}
    for name in header:
        key = normalize_column(name)
        if not key:
            continue  # an unnamed column (a spreadsheet's index) is never read
        if key in seen:
            first, again = printable(seen[key]), printable(name)
            same = f"'{again}' twice" if seen[key] == name else f"'{first}' and '{again}'"
            raise InputError(
                f"the header names the column {same}, so it is not clear which one to read "
                "(column names are matched without regard to case, spaces, dots, dashes and "
                "underscores).",
                path=origin.path,
                line=1,
                hint="Rename or remove one of them.",
            )
        seen[key] = name


def _check_field_count(
    fields: Sequence[str], header: Sequence[str], origin: Origin, line: int
) -> None:
    """A row must have a field for every column, and no more (empty trailing fields, left by
    a trailing separator, aside): a field too many or too few shifts the columns."""
    count = len(fields)
    while count > len(header) and not fields[count - 1].strip():
        count -= 1
    if count != len(header):
        more = "more" if count > len(header) else "fewer"
        raise InputError(
            f"this row has {counted(count, 'field')}, but the header names "
            f"{counted(len(header), 'column')}: with "
            f"{more} fields than columns it is not clear which field belongs to which column.",
            path=origin.path,
            line=line,
            hint="A field that holds the separator must be quoted (CSV).",
        )


def _columns(
    header: Sequence[str], score_column: str | None, origin: Origin | None
) -> dict[str, int]:
    """Positions of the system, score and segment columns; an error if one is missing."""
    names = [normalize_column(name) for name in header]
    path = origin.path if origin else None

    def find(candidates: Sequence[str]) -> int | None:
        return next((names.index(c) for c in candidates if c in names), None)

    found = {
        "system": find(SYSTEM_COLUMNS),
        "doc": find(DOC_COLUMNS),
        "seg": find(SEG_COLUMNS),
        "index": find(INDEX_COLUMNS),
        "score": find(SCORE_COLUMNS if score_column is None else [normalize_column(score_column)]),
    }
    if score_column is not None and found["score"] is None:
        raise InputError(
            f"there is no column '{printable(score_column)}'; the columns are: "
            f"{printable(', '.join(header))}.",
            path=path,
            line=1,
        )
    has_segment = (found["doc"] is not None and found["seg"] is not None) or (
        found["index"] is not None or found["seg"] is not None
    )
    if found["system"] is None or found["score"] is None or not has_segment:
        raise InputError(
            "the first line must name the columns: a system column (system), a segment "
            "column (docid and segid, or line) and a score column (score); found: "
            + printable(", ".join(header))
            + ".",
            path=path,
            line=1,
        )
    if found["index"] is None and found["doc"] is None:
        found["index"], found["seg"] = found["seg"], None  # a lone segid numbers the test set
    return {key: value for key, value in found.items() if value is not None}


def _record(
    fields: Sequence[str], columns: dict[str, int], line: int, origin: Origin
) -> ScoreRecord | None:
    """One row as a record, or None when its score is missing (empty, NA)."""
    raw = fields[columns["score"]]
    if raw.strip().lower() in MISSING:
        return None
    value = parse_score(raw, origin, line)
    index = None
    if "index" in columns:
        index = _segment_number(fields[columns["index"]], line, origin)
    system = fields[columns["system"]].strip()
    if not system:
        raise InputError("the system name is empty.", path=origin.path, line=line)
    return ScoreRecord(
        system=system,
        value=value,
        line=line,
        doc=fields[columns["doc"]].strip() if "doc" in columns else None,
        seg=fields[columns["seg"]].strip() if "seg" in columns else None,
        index=index,
    )


def _segment_number(text: str, line: int, origin: Origin) -> int:
    """A segment number from 1: digits read as an integer (never through a float, which
    would turn 99999999999999999999999 into 99999999999999991611392), or a number in another
    notation that is whole (``3.0``, ``3e0``)."""
    index = whole_number(text, "segment number", origin.path, line)
    if index is None:
        position = _number(text, "segment number", line, origin)
        if math.isfinite(position) and position == int(position):
            index = int(position)
    if index is None or index < 1:
        raise InputError(
            f"the segment number '{printable(text)}' is not a whole number from 1 upwards.",
            path=origin.path,
            line=line,
        )
    return index


def parse_score(raw: str, origin: Origin, line: int) -> float:
    """A score read as this module reads them (ASCII notation, at most :data:`MAX_MAGNITUDE`),
    or an :class:`InputError` naming the file and line: every reader of scores shares it."""
    value = _number(raw, "score", line, origin)
    if not abs(value) <= MAX_MAGNITUDE:
        raise InputError(
            f"the score '{printable(raw.strip())}' is too large: mtgui reads scores from "
            f"-{_MAX_WORDS} to {_MAX_WORDS}, so that their sums over the test set and its "
            "resamples can neither overflow nor lose the precision of ordinary scores.",
            path=origin.path,
            line=line,
        )
    return value


def _number(text: str, what: str, line: int, origin: Origin) -> float:
    """``text`` as a float (infinite when its exponent is beyond a float's), or an
    :class:`InputError` naming the line.

    Only ASCII decimal or scientific notation is a number: Python's ``float`` would also take
    other scripts' digits, ``1_000``, ``inf`` and ``nan``, which are not what a table means.
    """
    number = text.strip()
    if not _NUMBER.fullmatch(number):
        raise InputError(
            f"the {what} '{printable(text)}' is not a number (mtgui reads numbers written "
            f"with the {_NUMBER_FORMS}).",
            path=origin.path,
            line=line,
        )
    return float(number)
