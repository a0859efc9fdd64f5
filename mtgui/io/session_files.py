"""One file of a session: what a session keeps of it, as JSON and back. No Qt.

Each file is kept with its path twice (absolute, and relative to the session file's folder, so
that a moved project folder still opens: :mod:`mtgui.io.session_paths`), the role the user gave
it, and for a scores file what the user made of it (its column of human scores, or its metrics
with their names, directions and systems), so that reopening a session asks nothing, and the
encoding the user chose to read it in (``"encoding": "latin-1"``; absent when none was chosen, so
a session that chose none is as sessions always were). Reading checks every field and names the
session file and the file's number in it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mtgui.engine.analysis_settings import describe_value
from mtgui.engine.core import InputError, Role
from mtgui.io.decode import AUTO, ENCODINGS
from mtgui.io.entries import Entry
from mtgui.io.score_choices import name_problem
from mtgui.io.score_sources import ScoreSource
from mtgui.io.session_paths import locate, relative_path

MAX_SESSION_FILES = 10_000
"""The most files (and renames, and hidden systems, and metrics of a file) a session may name."""


@dataclass(frozen=True)
class SessionFile:
    """One file of a session, the role the user gave it (None: the file says its own) and, for
    a table of human scores, the score column read (None: the default one); for other scores
    files, the metrics the user made of it (``scores``), so that reopening asks nothing."""

    path: Path
    role: Role | None = None
    score_column: str | None = None
    scores: tuple[ScoreSource, ...] = ()
    encoding: str = AUTO  # the encoding the user chose (AUTO: none)


def session_file(entry: Entry) -> SessionFile:
    """A file as its session keeps it: human scores of one column as sessions always kept
    them (``score_column``), other scores with what the user said of them."""
    role, sources, encoding = entry.plain_role or entry.role, entry.sources, entry.encoding
    if len(sources) == 1 and sources[0] == ScoreSource(entry.path, sources[0].column):
        return SessionFile(entry.path, role, sources[0].column, encoding=encoding)  # human, one
    if sources:
        return SessionFile(entry.path, role, None, sources, encoding)
    column = entry.scores.score_column if entry.scores else None
    return SessionFile(entry.path, role, column, encoding=encoding)


def file_dict(item: SessionFile, folder: Path) -> dict[str, Any]:
    """The JSON object of one file of a session saved in ``folder``."""
    absolute = Path(os.path.abspath(item.path))
    entry: dict[str, Any] = {"path": str(absolute)}
    relative = relative_path(absolute, Path(os.path.abspath(folder)))
    if relative is not None:
        entry["relative"] = relative
    entry["role"] = None if item.role is None else item.role.value
    if item.score_column is not None:
        entry["score_column"] = item.score_column
    if item.scores:
        entry["scores"] = [_source_dict(source) for source in item.scores]
    if item.encoding != AUTO:
        entry["encoding"] = item.encoding
    return entry


def _source_dict(source: ScoreSource) -> dict[str, Any]:
    """One metric of a scores file, as its session keeps it."""
    return {
        "column": source.column,
        "metric": source.metric,
        "higher_is_better": source.higher_is_better,
        "system": source.system,
    }


def files_from_json(items: list[Any], path: Path) -> list[SessionFile]:
    """The files, each found relative to the session file if it can be, else where it was."""
    files = []
    for number, item in enumerate(items, start=1):
        where = f"file {number} of the session"
        if not isinstance(item, dict) or not isinstance(item.get("path"), str):
            raise InputError(f'{where} should be an object with a "path" (text).', path=path)
        role = item.get("role")
        if role is not None and role not in tuple(r.value for r in Role):
            raise InputError(
                f'{where} has the role "{role}"; the roles are '
                + ", ".join(r.value for r in Role)
                + " (or null when the file says its own).",
                path=path,
            )
        relative = item.get("relative")
        if relative is not None and not isinstance(relative, str):
            raise InputError(f'{where}: "relative" should be text.', path=path)
        column = item.get("score_column")
        if column is not None and (not isinstance(column, str) or not column.strip()):
            raise InputError(f'{where}: "score_column" should be a column name (text).', path=path)
        found = locate(item["path"], relative, path.parent)
        scores = tuple(
            _source(found, value, where, path) for value in _scores_of(item, where, path)
        )
        encoding = _encoding_of(item, where, path)
        role_read = None if role is None else Role(role)
        files.append(SessionFile(found, role_read, column, scores, encoding))
    return files


def _encoding_of(item: Mapping[str, Any], where: str, path: Path) -> str:
    """A file's "encoding": one the window offers (absent: the byte-order mark, else UTF-8)."""
    encoding = item.get("encoding", AUTO)
    if encoding not in ENCODINGS:
        raise InputError(
            f'{where}: "encoding" should be one of '
            + ", ".join(f'"{name}"' for name in ENCODINGS)
            + f", not {describe_value(encoding)}.",
            path=path,
        )
    return str(encoding)


def _scores_of(item: Mapping[str, Any], where: str, path: Path) -> list[Any]:
    """A file's "scores": the metrics the user made of it (a list, maybe empty)."""
    scores = item.get("scores") or []
    if not isinstance(scores, list) or len(scores) > MAX_SESSION_FILES:
        raise InputError(f'{where}: "scores" should be a list of metrics.', path=path)
    return scores


def _source(found: Path, value: object, where: str, path: Path) -> ScoreSource:
    """One metric of a scores file, as the session keeps it, checked."""
    if not isinstance(value, dict) or not isinstance(value.get("metric"), str):
        raise InputError(
            f'{where}: each of "scores" should be an object with a "metric".', path=path
        )
    problem = name_problem(value["metric"])
    if problem is not None:
        raise InputError(f"{where}: {problem}", path=path)
    column, system = value.get("column"), value.get("system")
    higher = value.get("higher_is_better", True)
    for key, text in (("column", column), ("system", system)):
        if text is not None and (not isinstance(text, str) or not text.strip()):
            raise InputError(f'{where}: "{key}" of "scores" should be text or null.', path=path)
    if not isinstance(higher, bool):
        raise InputError(f'{where}: "higher_is_better" should be true or false.', path=path)
    return ScoreSource(found, column, value["metric"], system, higher)
