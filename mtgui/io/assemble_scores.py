"""Matching loaded segment scores to the systems and segments of the test set, per metric.

Each table carries the metric it belongs to (``human`` unless the user named it). Several scores of
one segment of one system in one file are several judgments, and are averaged, as WMT averages
its DA judgments; the tables of one metric may score different systems, but two files that
score the same system under one name are refused (nothing is averaged across files). The
result is one :class:`~mtgui.engine.core.corpus.SegmentScores` per metric and system that has
scores.

A file that scores every segment in order (one number per line, COMET) must have exactly as
many scores as the test set has segments, or it belongs to another test set: the error says
both counts. COMET names each system by the path of its output, which is matched to the system
loaded from that file (the same path, else the same file name, else a system of that name).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np
import numpy.typing as npt

from mtgui.engine.core import (
    InputError,
    Origin,
    SegmentScores,
    SystemOutput,
    TestSet,
    counted,
    printable,
)
from mtgui.io.field_formats import run_system
from mtgui.io.scores import ScoreRecord, ScoreTable


def segment_scores(
    tables: Sequence[ScoreTable], test_set: TestSet, systems: Sequence[SystemOutput]
) -> tuple[list[SegmentScores], list[str]]:
    """Per-metric, per-system score arrays (judgments of one segment averaged) and notes for
    the user, metrics in the order their first table was given.

    Raises
    ------
    InputError
        If a table scores none of the systems, another number of segments than the test set
        has, or segments the test set does not have; or tables of one metric disagree on its
        direction.
    """
    names = [s.name for s in systems]
    by_metric: dict[str, list[ScoreTable]] = {}
    for table in tables:
        _check_count(table, test_set)
        named = _run_systems(_named_systems(table, systems), names)
        by_metric.setdefault(table.metric, []).append(named)
    result: list[SegmentScores] = []
    notes: list[str] = []
    for group in by_metric.values():
        _check_direction(group)
        result += _metric_scores(group, test_set, names, notes)
    return result, notes


def _metric_scores(
    tables: list[ScoreTable], test_set: TestSet, systems: list[str], notes: list[str]
) -> list[SegmentScores]:
    """The scores of one metric, pooled over its tables."""
    sums = {name: np.zeros(test_set.size) for name in systems}
    counts = {name: np.zeros(test_set.size, dtype=np.int64) for name in systems}
    marked: dict[str, dict[int, tuple[str, ...]]] = {name: {} for name in systems}
    origins: dict[str, Origin] = {}
    for table in tables:
        unknown = [name for name in table.systems if name not in sums]
        if systems and len(unknown) == len(table.systems):
            raise InputError(
                "none of the systems in this scores file is loaded (it has "
                f"{_few(table.systems)}; loaded are {_few(systems)}).",
                path=table.origin.path,
                hint="The system column must use the systems' names as mtgui shows them.",
            )
        if unknown:
            human = [n for n in unknown if n.upper().startswith("HUMAN")]
            notes.append(
                f"{table.origin.path}: scores for systems that are not loaded were left out: "
                f"{_few(unknown)}"
                + (
                    f" ({', '.join(human)}: a human translation scored as a system; load it "
                    "as a system output to compare it)."
                    if human
                    else "."
                )
            )
        _refuse_second_file(table, origins)
        if table.skipped:
            what = "row" if table.segment_count is None else "segment"
            were = "was" if table.skipped == 1 else "were"
            skipped = f"{counted(table.skipped, what)} without a score {were} skipped"
            notes.append(f"{table.origin.path}: {skipped}.")
        locate = _locator(table, test_set)
        for record in table.records:
            if record.system in sums:
                position = locate(record)
                sums[record.system][position] += record.value
                counts[record.system][position] += 1
                if record.annotations:
                    seen = marked[record.system].get(position, ())
                    marked[record.system][position] = (*seen, *record.annotations)
                origins.setdefault(record.system, table.origin)
    metric, higher = tables[0].metric, tables[0].higher_is_better
    return [
        SegmentScores(
            name,
            _means(sums[name], counts[name]),
            counts[name],
            origin,
            metric,
            higher,
            marked[name],
        )
        for name, origin in ((n, origins.get(n)) for n in systems)
        if origin is not None
    ]


def _refuse_second_file(table: ScoreTable, origins: dict[str, Origin]) -> None:
    """Refuse a table that scores a system which an earlier file of the same metric scores:
    averaging two files' scores of one segment would pass off one file's as judgments of the
    other (and hide that the same file may have been given twice under two names)."""
    for system in table.systems:
        earlier = origins.get(system)
        if earlier is not None and earlier is not table.origin:
            raise InputError(
                f"both {earlier.path} and {table.origin.path} give the system "
                f"'{printable(system)}' scores named '{printable(table.metric)}'; mtgui does "
                "not average two files' scores.",
                path=table.origin.path,
                hint="Give each file a name of its own (FILE=SYSTEM:NAME or FILE:COLUMN=NAME), "
                "or put the judgments into one table.",
            )


def _means(sums: npt.NDArray[np.float64], counts: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
    """The mean judgment of every segment; NaN where there is none."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(counts > 0, sums / counts, np.nan)


def _check_count(table: ScoreTable, test_set: TestSet) -> None:
    """A file that scores every segment in order must have one score per segment."""
    count = table.segment_count
    if count is None or count == test_set.size:
        return
    what = "line" if table.origin.format.endswith("per line") else "segment score"
    raise InputError(
        f"this file has {counted(count, what)}, but the test set has "
        f"{counted(test_set.size, 'segment')}; its "
        "scores are matched to the segments by position, so it must have one per segment.",
        path=table.origin.path,
        hint="Is it from another test set, or cut short?",
    )


def _check_direction(tables: list[ScoreTable]) -> None:
    """Every table of one metric must say the same of its direction."""
    other = next((t for t in tables if t.higher_is_better != tables[0].higher_is_better), None)
    if other is not None:
        raise InputError(
            f"the scores named '{printable(tables[0].metric)}' are higher-is-better in "
            f"{tables[0].origin.path} but not in {other.origin.path}.",
            path=other.origin.path,
            hint="Give both files the same direction, or different names.",
        )


def _named_systems(table: ScoreTable, systems: Sequence[SystemOutput]) -> ScoreTable:
    """COMET's scores with each output path replaced by the name of the system loaded from it
    (a path that matches no system keeps its text, and is reported as not loaded)."""
    if not table.by_path:
        return table
    names = {path: _system_of(path, table, systems) for path in table.systems}
    records = tuple(replace(r, system=names[r.system]) for r in table.records)
    return replace(table, records=records, by_path=False)


def _run_systems(table: ScoreTable, loaded: Sequence[str]) -> ScoreTable:
    """WMT's runs (``Online-B.4``) given to the loaded system of the name without the ``.N``,
    where the run's own name is not loaded."""
    if not table.run_suffixes:
        return table
    known = set(loaded)
    runs: dict[str, list[str]] = {}
    for name in table.systems:
        runs.setdefault(name if name in known else run_system(name), []).append(name)
    # Two runs of one system (or a run beside the system's own name) are not pooled: each
    # stays under its own name, and the note lists them as not loaded.
    names = {
        name: system if system in known and len(group) == 1 else name
        for system, group in runs.items()
        for name in group
    }
    records = tuple(replace(r, system=names[r.system]) for r in table.records)
    return replace(table, records=records)


def _system_of(path: str, table: ScoreTable, systems: Sequence[SystemOutput]) -> str:
    """The system loaded from the output COMET names ``path``: the same file, else the only one
    of that file name, else the system called so."""
    if not path:
        raise InputError(
            "this COMET output scores one system without naming its output file.",
            path=table.origin.path,
            hint="Say which system it scores: --scores FILE=SYSTEM:NAME on the command line.",
        )
    base = Path(table.origin.path).parent
    wanted = _resolved(base / path)
    same = [s.name for s in systems if _resolved(Path(s.origin.path)) == wanted]
    if not same:
        file_name = Path(path.replace("\\", "/")).name
        same = [s.name for s in systems if s.origin.file_name == file_name]
    if len(same) == 1:
        return same[0]
    return path


def _resolved(path: Path) -> Path:
    """``path`` made absolute, links resolved where possible (COMET gives paths as typed)."""
    try:
        return path.resolve()
    except OSError:
        return path.absolute()


def _locator(table: ScoreTable, test_set: TestSet) -> Callable[[ScoreRecord], int]:
    """A function giving the test-set position of a record, or raising a located error."""
    if table.sorted_documents:
        return _sorted_locator(table, test_set)
    first = table.records[0]
    by_key = first.doc is not None and first.seg is not None and test_set.has_documents
    if not by_key and first.index is None:
        raise InputError(
            "the scores give document and segment ids, but the test set has no documents "
            "(it is plain text).",
            path=table.origin.path,
            hint="Add a line column (the segment's line number, from 1).",
        )
    keys = {key: i for i, key in enumerate(zip(test_set.doc_ids, test_set.seg_ids, strict=True))}

    def locate(record: ScoreRecord) -> int:
        if by_key:
            position = keys.get((record.doc or "", record.seg or ""))
            if position is None:
                raise InputError(
                    f"document '{record.doc}', segment '{record.seg}' is not in the test set.",
                    path=table.origin.path,
                    line=record.line,
                )
            return position
        assert record.index is not None
        if record.index > test_set.size:
            raise InputError(
                f"segment number {record.index} is beyond the test set's "
                f"{counted(test_set.size, 'segment')}.",
                path=table.origin.path,
                line=record.line,
            )
        return record.index - 1

    return locate


def _sorted_locator(table: ScoreTable, test_set: TestSet) -> Callable[[ScoreRecord], int]:
    """The locator of WMT's DA segment ids: the 1-based place of a segment when the documents
    are sorted by docid (ASCII order), segments in document order."""
    if not test_set.has_documents:
        raise InputError(
            "WMT's DA file numbers each segment by its place with the documents sorted by "
            "their ids (SID), but this test set has no documents (it is plain text), so mtgui "
            "cannot tell which segment a score is of.",
            path=table.origin.path,
            hint="Load the test set as SGML or WMT XML, or give the plain text its document "
            "ids (--docids FILE on the command line, or add a file of document ids in the "
            "window).",
        )
    ids = test_set.doc_ids
    order = sorted(range(test_set.size), key=lambda i: ids[i])  # stable: document order kept

    def locate(record: ScoreRecord) -> int:
        assert record.index is not None
        if record.index > test_set.size:
            raise InputError(
                f"SID {record.index} is beyond the test set's {counted(test_set.size, 'segment')}.",
                path=table.origin.path,
                line=record.line,
            )
        return order[record.index - 1]

    return locate


def _few(names: Sequence[str], limit: int = 6) -> str:
    """A short listing of names."""
    shown = ", ".join(names[:limit])
    return shown + (", ..." if len(names) > limit else "")
