"""WMT's MQM annotations (Freitag et al., 2021: google/wmt-mqm-human-evaluation) as segment
scores: the metric ``mqm``, an error penalty, lower is better.

The file is tab-separated with the header ``system doc doc_id seg_id rater source target
category severity``, one row per error a rater marked (a segment without an error has a row
with the category and severity ``No-error``). ``doc`` is the document's id, ``doc_id`` the
segment's place in its document (from 1), ``seg_id`` its place in the test set (from 1). The
error's span is marked ``<v>...</v>`` in the source or target text. Fields are not quoted.

An error weighs, by the most specific of its severity, category and sub-category that has a
weight (:data:`WEIGHTS`): Major 5, Minor 1, Neutral 0, a Major Non-translation 25, a Minor
Fluency/Punctuation 0.1; anything else (No-error) 0. A rater's penalty of a segment is the sum
of their errors' weights; the segment's is the mean over its raters (the assembly averages the
raters' records); a system's score is the mean over the segments. System names such as
``Tohoku-AIP-NTT.890`` are runs of a loaded system ``Tohoku-AIP-NTT``.

``category`` limits the penalty to the errors of one top-level category (``accuracy``,
``fluency``...): the breakdown ``mqm-accuracy`` and so on.
"""

from __future__ import annotations

import re

from mtgui.engine.core import InputError, Origin, printable
from mtgui.io.plaintext import split_lines
from mtgui.io.scores import ScoreRecord, ScoreTable, normalize_column
from mtgui.io.textutil import whole_number

MQM_TSV = "WMT MQM annotations"
MQM = "mqm"
COLUMNS = ("system", "doc", "doc_id", "seg_id", "rater", "source", "target", "category", "severity")
WEIGHTS = {
    "major": 5.0,
    "minor": 1.0,
    "neutral": 0.0,
    "major/non-translation!": 25.0,
    "major/non-translation": 25.0,
    "minor/fluency/punctuation": 0.1,
}
"""Freitag et al. (2021)'s weights, keyed by severity[/category[/sub-category]], lower case."""
_SPAN = re.compile(r"<v>(.*?)</v>", re.DOTALL)


def is_mqm(text: str) -> bool:
    """Whether the first line of ``text`` is the header of WMT's MQM annotations."""
    first = text.lstrip("\ufeff").split("\n", 1)[0].rstrip("\r")
    names = tuple(normalize_column(name) for name in first.split("\t"))
    return names[: len(COLUMNS)] == tuple(normalize_column(c) for c in COLUMNS)


def weight(severity: str, category: str) -> float:
    """The weight of one error: that of its most specific severity/category/sub-category."""
    parts = [severity.strip().lower(), *(p.strip().lower() for p in category.split("/"))]
    while parts:
        found = WEIGHTS.get("/".join(parts))
        if found is not None:
            return found
        parts.pop()
    return 0.0


def top_category(category: str) -> str:
    """An error's top-level category as a metric's suffix (``Locale convention/Date``:
    ``locale-convention``)."""
    head = category.split("/", 1)[0].strip().lower().rstrip("!")
    return re.sub(r"[^a-z0-9]+", "-", head).strip("-")


def read_mqm(text: str, origin: Origin, category: str | None = None) -> ScoreTable:
    """The MQM penalty of every annotated segment of every system, one record per rater (see
    the module's docstring); of the errors of ``category`` alone when given.

    Raises
    ------
    InputError
        If the header is not MQM's, a row has too few fields, or a segment number is not a
        whole number from 1.
    """
    lines = split_lines(text.lstrip("\ufeff"))
    if not lines or not is_mqm(lines[0]):
        raise InputError(
            "this is not WMT's MQM annotation file: its first line must name the columns "
            + " ".join(COLUMNS)
            + " (tab-separated).",
            path=origin.path,
            line=1,
        )
    penalties: dict[tuple[str, str, str, str], float] = {}
    where: dict[tuple[str, str, str, str], tuple[int, int]] = {}
    marked: dict[tuple[str, str, str, str], list[str]] = {}
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        fields = line.split("\t")
        if len(fields) < len(COLUMNS):
            raise InputError(
                f"this row has {len(fields)} fields; a row of MQM annotations has "
                f"{len(COLUMNS)} ({' '.join(COLUMNS)}), separated by tabs.",
                path=origin.path,
                line=number,
            )
        system, doc, in_doc, seg, rater = (f.strip() for f in fields[:5])
        position = _position(seg, "seg_id", origin, number)
        _position(in_doc, "doc_id", origin, number)
        key = (system, doc, in_doc, rater)
        error = fields[7].strip()
        counted = category is None or top_category(error) == category
        penalty = weight(fields[8], error) if counted else 0.0
        penalties[key] = penalties.get(key, 0.0) + penalty
        first = where.setdefault(key, (number, position))
        if first[1] != position:
            raise InputError(
                f"seg_id {position}, but line {first[0]} gives seg_id {first[1]} to the same "
                f"segment (doc '{printable(doc)}', doc_id {in_doc}) of '{printable(system)}'.",
                path=origin.path,
                line=number,
                hint="Each doc and doc_id is one segment, with one seg_id.",
            )
        marked.setdefault(key, [])
        if counted and error.lower() not in ("no-error", ""):
            marked[key].append(annotation(rater, fields[8], error, fields[5], fields[6], penalty))
    records = tuple(
        ScoreRecord(key[0], value, where[key][0], key[1], key[2], where[key][1], tuple(marked[key]))
        for key, value in penalties.items()
    )
    if not records:
        raise InputError("the MQM file has no annotations.", path=origin.path)
    name = MQM if category is None else f"{MQM}-{category}"
    return ScoreTable(
        origin, name, records, 0, metric=name, higher_is_better=False, run_suffixes=True
    )


def annotation(
    rater: str, severity: str, category: str, source: str, target: str, penalty: float
) -> str:
    """One error in words for the segment view: who marked it, how it weighs, and the text
    with its span between ``<v>`` and ``</v>`` (the target's, else the source's)."""
    where, text = (
        ("", target)
        if _SPAN.search(target) or not _SPAN.search(source)
        else (
            "source: ",
            source,
        )
    )
    return (
        f"{severity.strip()} {category.strip()} ({rater.strip()}, {penalty:g}): "
        f"{where}{text.strip()}"
    )


def categories(text: str) -> list[str]:
    """The top-level error categories of an MQM file, in order of first use (No-error and
    Non-translation aside: the one weighs nothing, the other is a segment's only error)."""
    found: dict[str, None] = {}
    for line in split_lines(text.lstrip("\ufeff"))[1:]:
        fields = line.split("\t")
        if len(fields) >= len(COLUMNS):
            name = top_category(fields[7])
            if name and name not in ("no-error", "non-translation"):
                found.setdefault(name)
    return list(found)


def error_spans(text: str) -> list[str]:
    """The spans a field of the file marks as errors (``<v>...</v>``)."""
    return _SPAN.findall(text)


def _position(text: str, what: str, origin: Origin, line: int) -> int:
    """A segment's place from 1, or an error naming the line."""
    value = whole_number(text, what, origin.path, line)
    if value is None or value < 1:
        raise InputError(
            f"the {what} '{printable(text)}' is not a whole number from 1 upwards.",
            path=origin.path,
            line=line,
        )
    return value
