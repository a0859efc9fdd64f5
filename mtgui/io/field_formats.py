"""The score files the field publishes, told apart by their content: WMT's DA files, MetricX's
JSONL, mt-metrics-eval's score files, and sacreBLEU's own output (recognised, then refused).

- WMT's DA segment scores (``ad-seg-scores-*.csv``, as WMT21 publishes them): space-separated
  despite the name, the header ``SYS SID RAW.SCR Z.SCR N``. ``SYS`` is a run of a system
  (``Online-B.4``, ``HUMAN.0`` for a human translation scored as a system); the file
  ``ad-sys-ranking-*-z-names.csv`` in the same folder, where present, names each run's system
  (its last two fields); else the assembly gives a run to the loaded system of its name
  without the ``.N`` (never two runs to one system). ``SID`` is the 1-based place of the
  segment when the documents are sorted by docid (ASCII order), segments in document order:
  the assembly places it only in a test set with documents. ``RAW.SCR`` and ``Z.SCR`` are the
  means of the segment's ``N`` judgements; a system's score is the plain mean over its rows,
  which reproduces WMT's ``ad-sys-scores-*.csv``. ``Z.SCR`` is read unless another column is
  asked for.
- WMT's DA system scores (``ad-sys-scores-*.csv``, ``RAW.SCR Z.SCR N SYS N.ALL``), system
  ranking (``ad-sys-ranking-*-z-names.csv``) and single judgements (``ad-*-good-stnd.csv``):
  refused in words that name the segment file to load instead.
- MetricX's JSONL output: one JSON object per line with its ``prediction`` (an error score:
  lower is better), and ``system_id`` and ``segment_id`` where the input carried them. Without
  ``system_id`` the file scores one system, which the user names; without ``segment_id`` the
  lines of a system are its segments in order; with it, ``segment_id`` is the segment's place,
  from 0 if any is 0, else from 1.
- mt-metrics-eval's ``*.seg.score``: ``system<TAB>score`` per line, no header, each system's
  lines its segments in order (``None`` for a segment without a score). Its ``*.sys.score``
  (one line per system) is refused in words.
- sacreBLEU's ``-f json`` output and its printed scores (``BLEU|nrefs:1|... = 33.3 ...``, one
  line per sentence with ``-sl``): scores of a whole test set, or sacreBLEU's own sentence
  scores; refused in words saying what mtgui needs instead (the outputs and references, from
  which it computes every one of these per segment itself).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from mtgui.engine.core import InputError, Origin, printable
from mtgui.io.inputs import read_input_bytes
from mtgui.io.json_input import check_json_bounds
from mtgui.io.plaintext import split_lines
from mtgui.io.scores import (
    DOC_COLUMNS,
    INDEX_COLUMNS,
    MISSING,
    SEG_COLUMNS,
    ScoreRecord,
    ScoreTable,
    normalize_column,
    parse_score,
)
from mtgui.io.textutil import whole_number

WMT_DA = "WMT DA segment scores"
WMT_DA_SYSTEMS = "WMT DA system scores"
WMT_DA_RANKING = "WMT DA system ranking"
WMT_DA_JUDGMENTS = "WMT DA judgements"
METRICX_JSONL = "MetricX JSONL"
MTME_SEGMENTS = "mt-metrics-eval segment scores"
MTME_SYSTEMS = "mt-metrics-eval system scores"
SACREBLEU_JSON = "sacreBLEU JSON"
SACREBLEU_TEXT = "sacreBLEU's printed scores"

DA_COLUMNS = ("sys", "sid", "rawscr", "zscr", "n")
DA_SYSTEM_COLUMNS = frozenset({"sys", "rawscr", "zscr"})
_SEGMENT_COLUMNS = frozenset({"sid", *DOC_COLUMNS, *SEG_COLUMNS, *INDEX_COLUMNS})
DA_Z, DA_RAW = "Z.SCR", "RAW.SCR"
_SNIFF = 1 << 16
_MAX_RANKING_BYTES = 1 << 20  # a ranking file names a few dozen runs
_SUFFIX = re.compile(r"\.[0-9]+$")
_MTME_LINE = re.compile(r"[^\t]+\t\S+")
_SACREBLEU_LINE = re.compile(r"(?:BLEU|chrF[0-9]*\+*|TER)(?:\|\S*)? = [+-]?[0-9.]+(?: .*)?")
_RANKING_LINE = re.compile(r"\S+ [+-]?[0-9.]+ [0-9]+ [0-9]+ \S+ \S+")
_SACREBLEU_NEEDS = (
    "mtgui needs scores per segment: give it the system outputs and the references, from "
    "which it computes BLEU, chrF and TER per segment itself"
)


def refusal(found: str, path: Path) -> str | None:
    """Why a file of format ``found`` cannot be read as segment scores (what it is, and what to
    give instead), or None for a format that is read."""
    if found == WMT_DA_SYSTEMS:
        return (
            "this is WMT's file of DA scores per system (ad-sys-scores): one score per system, "
            "which cannot be resampled or tested. mtgui needs the scores per segment: load "
            f"{_sibling(path, 'ad-seg-scores')} from the same folder instead."
        )
    if found == WMT_DA_RANKING:
        return (
            "this is WMT's ranking of the systems by DA (ad-sys-ranking ... z-names): mtgui "
            f"reads it by itself to name the systems of {_sibling(path, 'ad-seg-scores')} in "
            "the same folder; load that file instead."
        )
    if found == WMT_DA_JUDGMENTS:
        return (
            "this is WMT's file of the single DA judgements (ad-*-good-stnd): mtgui reads "
            f"their means per segment from {_sibling(path, 'ad-seg-scores')} in the same "
            "folder; load that file instead."
        )
    if found == MTME_SYSTEMS:
        return (
            "this is mt-metrics-eval's file of scores per system (*.sys.score): one score per "
            "system, which cannot be resampled or tested. mtgui needs the scores per segment: "
            "load the *.seg.score file of the same metric instead."
        )
    if found == SACREBLEU_JSON:
        return (
            "this is sacreBLEU's JSON output (-f json): scores of the whole test set, one per "
            f"system and metric. {_SACREBLEU_NEEDS}, with intervals and significance."
        )
    if found == SACREBLEU_TEXT:
        return (
            "this is sacreBLEU's printed output (one 'BLEU|nrefs:...= ...' line per test set, "
            f"or per sentence with -sl). {_SACREBLEU_NEEDS}; sacreBLEU's sentence scores alone "
            "are read when printed as plain numbers (-sl -b), as one score per line."
        )
    return None


def _sibling(path: Path, prefix: str) -> str:
    """The name of WMT's file of kind ``prefix`` that goes with ``path`` (the same language
    pair, where its name says it)."""
    pair = re.search(r"-([a-z]{2,3}-[a-z]{2,3})(?:-z-names)?\.csv$", path.name)
    judged = re.fullmatch(r"ad-([a-z]{2,3})([a-z]{2,3})-good-stnd.*\.csv", path.name)
    if pair is None and judged is not None:
        return f"{prefix}-{judged.group(1)}-{judged.group(2)}.csv"
    wanted = f"{prefix}-{pair.group(1)}.csv" if pair else f"{prefix}-*.csv"
    return wanted


def field_format(text: str, path: Path | None = None) -> str | None:
    """The field's format of a scores file's text (one of this module's names), or None.

    Only the start of the text is looked at, and the file's name only to tell
    mt-metrics-eval's ``.sys.score`` from its ``.seg.score`` where the lines cannot.
    """
    head = text[:_SNIFF].lstrip("\ufeff \t\r\n")
    lines = _first_lines(head, 50, cut=len(text) > _SNIFF)
    if not lines:
        return None
    first = lines[0]
    if head.startswith(("{", "[")):
        return _json_format(head, text, first)
    header = [normalize_column(word) for word in first.split()]
    if tuple(header) == DA_COLUMNS:
        return WMT_DA
    if set(header) >= DA_SYSTEM_COLUMNS and not set(header) & _SEGMENT_COLUMNS:
        return WMT_DA_SYSTEMS
    if {"hitid", "workerid", "sysid", "sid", "score"} <= set(header):
        return WMT_DA_JUDGMENTS
    if all(_RANKING_LINE.fullmatch(line.strip()) for line in lines[:20]):
        return WMT_DA_RANKING
    if _SACREBLEU_LINE.fullmatch(first.strip()):
        return SACREBLEU_TEXT
    if all(_mtme_line(line) for line in lines[:50]):
        return _mtme_kind(text, path)
    return None


def _first_lines(head: str, count: int, cut: bool) -> list[str]:
    """The first ``count`` lines of ``head`` that are not blank, without splitting the rest
    (every file given to the window is asked its format); the last is left out when ``cut``
    (the text goes on beyond ``head``) and it may be cut short."""
    lines: list[str] = []
    start = 0
    while len(lines) < count and start < len(head):
        end = head.find("\n", start)
        if end < 0:
            if not cut:
                lines.append(head[start:])
            break
        lines.append(head[start:end].rstrip("\r"))
        start = end + 1
    return [line for line in lines if line.strip()]


def _json_format(head: str, text: str, first: str) -> str | None:
    """MetricX's JSONL or sacreBLEU's JSON, from the first line or the whole value (JSON too
    deep or too long is neither: the JSON reader then says what is wrong with it)."""
    line = _bounded_json(first)
    if isinstance(line, dict) and "prediction" in line:
        return METRICX_JSONL
    if len(text) > _SNIFF:
        return None  # sacreBLEU's JSON is small
    value = _bounded_json(head)
    items = value if isinstance(value, list) else [value]
    if items and all(isinstance(i, dict) and _is_sacrebleu(i) for i in items):
        return SACREBLEU_JSON
    return None


def _bounded_json(text: str) -> object:
    """``text``'s JSON value, or None when it is not JSON or passes the reader's bounds."""
    try:
        check_json_bounds(text, "")
        return json.loads(text)
    except (InputError, ValueError, RecursionError):
        return None


def _is_sacrebleu(item: dict[str, object]) -> bool:
    """One entry of sacreBLEU's JSON: a metric's score with its signature, or (several
    systems) a system with its metrics' scores."""
    if {"name", "score", "signature"} <= item.keys():
        return True
    metrics = [key for key in item if key != "system"]
    return (
        "system" in item
        and bool(metrics)
        and all(_SACREBLEU_LINE.match(f"{k} = 0") for k in metrics)
    )


def _mtme_line(line: str) -> bool:
    """A line of mt-metrics-eval's score files: ``system<TAB>score``."""
    if not _MTME_LINE.fullmatch(line.strip(" \r")):
        return False
    score = line.rsplit("\t", 1)[1].strip()
    return score.lower() in MISSING or bool(
        re.fullmatch(r"[+-]?[0-9.]+(?:[eE][+-]?[0-9]+)?", score)
    )


def _mtme_kind(text: str, path: Path | None) -> str:
    """Segment scores, or one score per system (each system once, or a ``.sys.score``)."""
    name = path.name.lower() if path else ""
    if name.endswith(".seg.score"):
        return MTME_SEGMENTS
    if name.endswith(".sys.score"):
        return MTME_SYSTEMS
    systems = [line.split("\t", 1)[0] for line in split_lines(text) if line.strip()]
    return MTME_SYSTEMS if len(set(systems)) == len(systems) else MTME_SEGMENTS


def run_system(label: str) -> str:
    """The system a WMT run label names: ``Online-B.4`` -> ``Online-B`` (``.N`` dropped)."""
    return _SUFFIX.sub("", label)


def da_names(path: Path) -> dict[str, str]:
    """WMT's names of the runs in the DA file ``path``, from ``ad-sys-ranking-*-z-names.csv``
    in its folder (that of its language pair, or the only one); {} where there is none or it
    cannot be read (the runs' ``.N`` are then dropped)."""
    folder = path.parent
    pair = re.fullmatch(r"ad-seg-scores-(.+)\.csv", path.name)
    candidates = [folder / f"ad-sys-ranking-{pair.group(1)}-z-names.csv"] if pair else []
    try:
        found = [c for c in candidates if c.is_file()] or sorted(
            folder.glob("ad-sys-ranking-*-z-names.csv")
        )
        if len(found) != 1 and not (found and found[0] in candidates):
            return {}
        data = read_input_bytes(found[0], _MAX_RANKING_BYTES)  # a pipe there never hangs
    except (OSError, InputError):
        return {}
    lines = data.decode("utf-8", errors="replace").splitlines()
    names = {}
    for line in lines:
        fields = line.split()
        if len(fields) >= 2:
            names[fields[-2]] = fields[-1]
    return names


def read_wmt_da(text: str, origin: Origin, column: str | None = None) -> ScoreTable:
    """WMT's DA segment scores (see the module's docstring): ``column`` is ``Z.SCR`` (the
    default) or ``RAW.SCR`` (``z``, ``raw`` and other spellings too).

    Raises
    ------
    InputError
        If a row has not five fields, or a SID or score is not a number.
    """
    index = _da_column(column, origin)
    names = da_names(Path(origin.path))
    records, skipped = [], 0
    for number, line in enumerate(split_lines(text.lstrip("\ufeff")), start=1):
        fields = line.split()
        if number == 1 or not fields:
            continue
        if len(fields) != len(DA_COLUMNS):
            raise InputError(
                f"this row has {len(fields)} fields; a row of WMT's DA segment scores has 5 "
                "(SYS SID RAW.SCR Z.SCR N).",
                path=origin.path,
                line=number,
            )
        sid = whole_number(fields[1], "SID", origin.path, number)
        if sid is None or sid < 1:
            raise InputError(
                f"the SID '{printable(fields[1])}' is not a whole number from 1 upwards.",
                path=origin.path,
                line=number,
            )
        if fields[index].lower() in MISSING:
            skipped += 1
            continue
        value = parse_score(fields[index], origin, number)
        system = names.get(fields[0], fields[0])  # else the assembly drops the run's .N
        records.append(ScoreRecord(system, value, number, None, None, sid))
    if not records:
        raise InputError("the DA file has no rows with a score.", path=origin.path)
    return ScoreTable(
        origin,
        DA_Z if index == 3 else DA_RAW,
        tuple(records),
        skipped,
        sorted_documents=True,
        run_suffixes=True,
    )


def _da_column(column: str | None, origin: Origin) -> int:
    """The field of the DA file's column ``column`` (Z.SCR unless RAW.SCR is asked for)."""
    wanted = normalize_column(column) if column is not None else "z"
    if wanted in ("z", "zscr", "zscore", "score", "human"):
        return 3
    if wanted in ("raw", "rawscr", "rawscore"):
        return 2
    raise InputError(
        f"WMT's DA segment scores have the score columns Z.SCR and RAW.SCR, not "
        f"'{printable(column or '')}'.",
        path=origin.path,
        hint="Choose z (the default, standardized per annotator) or raw (0-100).",
    )


def read_mtme_segments(text: str, origin: Origin) -> ScoreTable:
    """mt-metrics-eval's ``*.seg.score``: each system's lines are its segments in order.

    Raises
    ------
    InputError
        If a line is not ``system<TAB>score``, a score is not a number, or the systems have
        different numbers of segments.
    """
    counts: dict[str, int] = {}
    records, skipped = [], 0
    for number, line in enumerate(split_lines(text.lstrip("\ufeff")), start=1):
        if not line.strip():
            continue
        if not _mtme_line(line):
            raise InputError(
                f"this line is not 'system<TAB>score' ('{printable(line[:80])}'), as every "
                "line of mt-metrics-eval's score files is.",
                path=origin.path,
                line=number,
            )
        system, raw = (field.strip() for field in line.rsplit("\t", 1))
        counts[system] = counts.get(system, 0) + 1
        if raw.lower() in MISSING:
            skipped += 1
            continue
        value = parse_score(raw, origin, number)
        records.append(ScoreRecord(system, value, number, None, None, counts[system]))
    return _even_table(origin, "", records, counts, skipped)


def _even_table(
    origin: Origin,
    column: str,
    records: list[ScoreRecord],
    counts: dict[str, int],
    skipped: int,
    higher_is_better: bool = True,
) -> ScoreTable:
    """The table of systems that each scored every segment in order: as many for each."""
    if not records:
        raise InputError("no line of this file has a score.", path=origin.path)
    first, count = next(iter(counts.items()))
    other = next((name for name, n in counts.items() if n != count), None)
    if other is not None:
        raise InputError(
            f"'{printable(first)}' has {count} segment scores but '{printable(other)}' has "
            f"{counts[other]}: every system is scored on the same segments.",
            path=origin.path,
        )
    return ScoreTable(
        origin,
        column,
        tuple(records),
        skipped,
        segment_count=count,
        higher_is_better=higher_is_better,
    )


def metricx_names_systems(text: str) -> bool:
    """Whether MetricX's output names the system of its lines (its first has a system_id)."""
    first = text.lstrip("\ufeff \t\r\n").split("\n", 1)[0]
    item = _bounded_json(first)
    return isinstance(item, dict) and item.get("system_id") is not None


def read_metricx(text: str, origin: Origin, system: str | None = None) -> ScoreTable:
    """MetricX's JSONL output (see the module's docstring); ``system`` names the system of a
    file without ``system_id``.

    Raises
    ------
    InputError
        If a line is not a JSON object with a numeric ``prediction``, or the file names no
        system and ``system`` is not given.
    """
    rows: list[tuple[int, str, float | None, int | None]] = []
    for number, line in enumerate(split_lines(text.lstrip("\ufeff")), start=1):
        if line.strip():
            rows.append(_metricx_row(line, number, origin, system))
    if not rows:
        raise InputError("the MetricX file is empty.", path=origin.path)
    ids = [segment for _, _, _, segment in rows]
    shift = 1 if all(i is not None for i in ids) and 0 in ids else 0
    counts: dict[str, int] = {}
    records, skipped = [], 0
    for number, name, value, segment in rows:
        counts[name] = counts.get(name, 0) + 1
        if value is None:
            skipped += 1
            continue
        index = counts[name] if segment is None else segment + shift
        records.append(ScoreRecord(name, value, number, None, None, index))
    if all(i is not None for i in ids):
        return ScoreTable(origin, "prediction", tuple(records), skipped, "metricx", False)
    return _even_table(origin, "prediction", records, counts, skipped, higher_is_better=False)


def _metricx_row(
    line: str, number: int, origin: Origin, system: str | None
) -> tuple[int, str, float | None, int | None]:
    """One line of MetricX's output: (line, system, prediction or None, segment_id or None)."""
    item = _bounded_json(line)
    if not isinstance(item, dict) or "prediction" not in item:
        raise InputError(
            'this line is not a JSON object with a "prediction", as every line of '
            "MetricX's output is.",
            path=origin.path,
            line=number,
        )
    name = item.get("system_id")
    name = system if name is None else name  # "system_id": null names no system either
    if name is not None and (
        isinstance(name, bool) or not isinstance(name, str | int) or not str(name).strip()
    ):
        raise InputError(
            f"the system_id {printable(json.dumps(name)[:80])} is not a system's name.",
            path=origin.path,
            line=number,
        )
    if name is None:
        raise InputError(
            "this MetricX file has no system_id, so it does not say which system's output "
            "it scores.",
            path=origin.path,
            hint="Say which: --scores FILE=SYSTEM:NAME on the command line.",
        )
    prediction = item["prediction"]
    value: float | None = None
    if prediction is not None and not (
        isinstance(prediction, str) and prediction.strip().lower() in MISSING
    ):
        value = parse_score(str(prediction), origin, number)
    segment = item.get("segment_id")
    position = None
    if segment is not None:
        position = whole_number(str(segment), "segment_id", origin.path, number)
        if position is None:
            raise InputError(
                f"the segment_id '{printable(str(segment))}' is not a whole number from 0 upwards.",
                path=origin.path,
                line=number,
            )
    return number, str(name), value, position
