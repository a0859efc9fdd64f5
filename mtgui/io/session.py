"""Sessions: the files, names and settings of one piece of work, in a small JSON file. No Qt.

A session lets an evaluator close the window and come back to the same analysis, or hand a
project folder to a colleague. It holds the files (and the role the user gave each plain-text
file), the systems' renames and hidden systems, the analysis settings and the metric shown::

    {"mtgui_session": 1, "mtgui_version": "0.1.0",
     "files": [{"path": "/abs/ref.txt", "relative": "ref.txt", "role": "reference"}],
     "renames": [["old", "new"]], "hidden": ["sys3"],
     "settings": {"metrics": ["bleu"], "resamples": 2000, ...}, "metric": "bleu"}

Each file is stored twice: absolute, and relative to the session file's folder when it is in
that folder or at most two folders above it. Reading tries the relative path first, so a
project folder that was moved or shared keeps working, and the absolute one second.

A session names at most :data:`MAX_SESSION_FILES` files (and as many renames and hidden
systems), and its file is at most :data:`MAX_SESSION_BYTES` long: anything larger is not a
session mtgui wrote, and is refused at once rather than read for minutes. Reading takes time
in proportion to the session's size.

Reading checks everything and raises :class:`InputError` naming the session file and what is
wrong; settings that are missing take their defaults and unknown ones are ignored (a newer or
older mtgui may write others), but a setting with a bad value is an error: the user chose this
file, and quietly replacing a value they saved would give other numbers without telling them.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path, PurePath
from typing import Any, TypedDict

from mtgui import __version__
from mtgui.engine.corpus import Role
from mtgui.engine.errors import InputError
from mtgui.engine.metrics import DEFAULT_METRICS, METRIC_NAMES
from mtgui.engine.settings import (
    DEFAULT_LEVEL,
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    MAX_LEVEL,
    MAX_RESAMPLES,
    MIN_RESAMPLES,
    TOKENIZERS,
    Case,
    Unit,
)
from mtgui.engine.significance import Correction
from mtgui.io.inputs import describe_os_error, read_input_bytes, read_input_head
from mtgui.io.workspace import Workspace
from mtgui.io.writers import check_writable, json_text, write_text_atomic

SESSION_VERSION = 1
SESSION_SUFFIX = ".mtgui.json"
MAX_SEED = 2**31 - 1
_NEAR = 2  # files at most this many folders above the session's folder are stored relative too
_SNIFF_BYTES = 4096
_SHOW = 5  # how many missing files a message lists

MAX_SESSION_FILES = 10_000
"""The most files (and renames, and hidden systems) a session may name."""

MAX_SESSION_BYTES = 16 << 20
"""The largest session file mtgui reads (16 MiB; 10,000 files of 200-character paths take 5 MB)."""


class AnalysisSettings(TypedDict):
    """What the settings panel holds, as plain values (the session's and the preferences')."""

    metrics: list[str]
    resamples: int
    level: float
    seed: int
    unit: str
    randomization: bool
    correction: str
    tokenizer: str
    case: str


def default_settings() -> AnalysisSettings:
    """The settings of a fresh window (a new dict each time: callers may change it)."""
    return {
        "metrics": list(DEFAULT_METRICS),
        "resamples": DEFAULT_RESAMPLES,
        "level": DEFAULT_LEVEL,
        "seed": DEFAULT_SEED,
        "unit": Unit.AUTO.value,
        "randomization": False,
        "correction": Correction.NONE.value,
        "tokenizer": "13a",
        "case": Case.SENSITIVE.value,
    }


# -- settings -------------------------------------------------------------------------------


def _json_kind(value: object) -> str:
    """What a JSON value is, in words."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return f'the text "{value}"'
    return "a list" if isinstance(value, list) else "an object"


def _whole(low: int, high: int) -> Callable[[object], object]:
    def check(value: object) -> object:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ValueError(f"a whole number from {low:,} to {high:,}")
        return value

    return check


def _level(value: object) -> object:
    number = value if isinstance(value, int | float) and not isinstance(value, bool) else None
    if number is not None and 0.5 <= number <= MAX_LEVEL:
        return round(float(number), 3)
    raise ValueError(f"a number from 0.5 to {MAX_LEVEL} (0.95 means 95% intervals)")


def _flag(value: object) -> object:
    if not isinstance(value, bool):
        raise ValueError("true or false")
    return value


def _one_of(choices: tuple[str, ...]) -> Callable[[object], object]:
    def check(value: object) -> object:
        if value not in choices:
            raise ValueError("one of " + ", ".join(f'"{c}"' for c in choices))
        return value

    return check


def _metrics(value: object) -> object:
    if not isinstance(value, list) or any(name not in METRIC_NAMES for name in value):
        raise ValueError("a list of metric names from " + ", ".join(METRIC_NAMES))
    return list(dict.fromkeys(value))


_CHECKS: dict[str, Callable[[object], object]] = {
    "metrics": _metrics,
    "resamples": _whole(MIN_RESAMPLES, MAX_RESAMPLES),
    "level": _level,
    "seed": _whole(0, MAX_SEED),
    "unit": _one_of(tuple(u.value for u in Unit)),
    "randomization": _flag,
    "correction": _one_of(tuple(c.value for c in Correction)),
    "holm": _flag,  # before "correction" (mtgui 0.1): true means Holm's correction
    "tokenizer": _one_of(TOKENIZERS),
    "case": _one_of(tuple(c.value for c in Case)),
}


def check_settings(
    data: object, *, path: Path | None = None, strict: bool = True
) -> AnalysisSettings:
    """Settings from a JSON object: missing ones default, unknown ones are ignored.

    With ``strict`` a bad value is an :class:`InputError` naming ``path``; without, it quietly
    takes its default (for the preferences, which the user never edits by hand).
    """
    settings = default_settings()
    if not isinstance(data, dict):
        if strict:
            raise InputError(f'"settings" should be an object, not {_json_kind(data)}.', path=path)
        return settings
    values: dict[str, object] = dict(settings)
    for key, check in _CHECKS.items():
        if key not in data:
            continue
        try:
            values[key] = check(data[key])
        except ValueError as error:
            if strict:
                raise InputError(
                    f'the setting "{key}" should be {error}, not {_json_kind(data[key])}.',
                    path=path,
                ) from None
    if values.pop("holm", False) is True and "correction" not in data:
        values["correction"] = Correction.HOLM.value
    return values  # type: ignore[return-value]  # every key was checked above


# -- the session ----------------------------------------------------------------------------


@dataclass(frozen=True)
class SessionFile:
    """One file of a session, and the role the user gave it (None: the file says its own)."""

    path: Path
    role: Role | None = None


@dataclass(frozen=True)
class Session:
    """Everything needed to open the same analysis again."""

    files: tuple[SessionFile, ...] = ()
    renames: tuple[tuple[str, str], ...] = ()
    hidden: frozenset[str] = frozenset()
    settings: AnalysisSettings = field(default_factory=default_settings)
    metric: str | None = None

    @property
    def paths(self) -> list[Path]:
        """The files, in the order they were loaded."""
        return [f.path for f in self.files]

    @cached_property
    def roles(self) -> dict[Path, Role]:
        """The role of each file that has one (what ``MainWindow.add_files`` takes).

        Built once: callers look a role up for every file, and a dict built on every look-up
        made opening a session of n files take n^2 steps.
        """
        return {f.path: f.role for f in self.files if f.role is not None}

    def workspace(self) -> Workspace:
        """An empty workspace with the session's renames and hidden systems, to load into."""
        return Workspace.from_names(self.renames, self.hidden)


def session_from_workspace(
    workspace: Workspace, settings: AnalysisSettings, metric: str | None = None
) -> Session:
    """The session of what is loaded now (files that could not be read are kept too)."""
    files = tuple(SessionFile(e.path, e.plain_role or e.role) for e in workspace.entries)
    return Session(files, workspace.renames, workspace.hidden, settings, metric)


def _relative(path: Path, folder: Path) -> str | None:
    """``path`` relative to ``folder`` (with /), if it is in it or near it; else None."""
    try:
        relative = PurePath(os.path.relpath(path, folder))
    except ValueError:  # another drive (Windows)
        return None
    if relative.parts.count("..") > _NEAR:
        return None
    return relative.as_posix()


def session_to_dict(session: Session, folder: Path) -> dict[str, Any]:
    """The JSON object of ``session`` saved in ``folder``."""
    files = []
    for item in session.files:
        absolute = Path(os.path.abspath(item.path))
        entry: dict[str, Any] = {"path": str(absolute)}
        relative = _relative(absolute, Path(os.path.abspath(folder)))
        if relative is not None:
            entry["relative"] = relative
        entry["role"] = None if item.role is None else item.role.value
        files.append(entry)
    return {
        "mtgui_session": SESSION_VERSION,
        "mtgui_version": __version__,
        "files": files,
        "renames": [list(pair) for pair in session.renames],
        "hidden": sorted(session.hidden),
        "settings": dict(session.settings),
        "metric": session.metric,
    }


def write_session(path: Path, session: Session) -> None:
    """Save ``session`` to ``path`` in one step (replacing it; the caller asked first).

    Raises
    ------
    InputError
        If ``path`` is one of the session's own files, or cannot be written.
    """
    check_writable(path, overwrite=True, inputs=session.paths)
    write_text_atomic(path, json_text(session_to_dict(session, path.parent)))


# -- reading --------------------------------------------------------------------------------


def read_session(path: Path, *, missing_ok: bool = False) -> Session:
    """Read and check a session file.

    Files that cannot be found are an error listing them all, unless ``missing_ok``: then
    they are kept at their absolute path, and loading them says, file by file, what is wrong.

    Raises
    ------
    InputError
        If the file cannot be read, is not JSON, is not a session mtgui can read, has a field
        of the wrong type or a bad setting, or (without ``missing_ok``) names missing files.
    """
    try:
        text = read_input_bytes(path, MAX_SESSION_BYTES).decode("utf-8-sig")
    except InputError as error:
        raise InputError(
            f"the session file could not be read: {error.problem}", path=path, hint=error.hint
        ) from None
    except UnicodeDecodeError:
        raise InputError("this is not a session file (it is not UTF-8 text).", path=path) from None
    return session_from_dict(_parse_json(text, path), path, missing_ok=missing_ok)


def _parse_json(text: str, path: Path) -> object:
    """The JSON value of a session file's text, or an :class:`InputError` saying why not."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(
            f"this is not a session file: it is not valid JSON ({error.msg}, "
            f"column {error.colno}).",
            path=path,
            line=error.lineno,
        ) from None
    except RecursionError:
        raise InputError(
            "this is not a session file: its JSON is nested far too deeply.", path=path
        ) from None
    except ValueError as error:  # an integer of thousands of digits, say
        raise InputError(
            f"this is not a session file: it holds a value mtgui cannot read ({error}).",
            path=path,
        ) from None


def session_from_dict(data: object, path: Path, *, missing_ok: bool = False) -> Session:
    """The session in ``data``, read from the session file ``path`` (see :func:`read_session`)."""
    _check_version(data, path)
    assert isinstance(data, dict)  # _check_version saw to it
    files = _files(_listed(data, "files", path), path)
    missing = [(f.path, why) for f in files if (why := _why_missing(f.path)) is not None]
    if missing and not missing_ok:
        shown = [f"{p} ({why})" for p, why in missing[:_SHOW]]
        raise InputError(
            f"{len(missing)} of the session's files cannot be found: "
            + "; ".join(shown)
            + ("; ..." if len(missing) > _SHOW else "")
            + ".",
            path=path,
            hint="Put them back, or keep them beside the session file as they were when it "
            "was saved.",
        )
    renames = tuple(_pair(item, path) for item in _listed(data, "renames", path))
    hidden = _listed(data, "hidden", path)
    if not all(isinstance(name, str) for name in hidden):
        raise InputError('"hidden" should be a list of system names (text).', path=path)
    metric = _field(data, "metric", str, path, None)
    if metric is not None and metric not in METRIC_NAMES:
        raise InputError(
            f'"metric" should be one of {", ".join(METRIC_NAMES)}, not "{metric}".', path=path
        )
    settings = check_settings(data.get("settings", {}), path=path)
    return Session(tuple(files), renames, frozenset(hidden), settings, metric)


def _check_version(data: object, path: Path) -> None:
    if not isinstance(data, dict) or "mtgui_session" not in data:
        raise InputError(
            'this is not an mtgui session file (it has no "mtgui_session" field).', path=path
        )
    version = data["mtgui_session"]
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise InputError(
            f'"mtgui_session" should be a version number, not {_json_kind(version)}.', path=path
        )
    if version > SESSION_VERSION:
        raise InputError(
            f"this session was saved by a newer mtgui (session version {version}); this one "
            f"reads version {SESSION_VERSION}.",
            path=path,
            hint="Open it with a newer mtgui.",
        )


def _field(
    data: Mapping[str, Any], key: str, kind: type[list[Any]] | type[str], path: Path, default: Any
) -> Any:
    """``data[key]`` if it is a ``kind`` (a list or text; null: the default), else an error."""
    value = data.get(key)
    if value is None:
        return default
    if not isinstance(value, kind):
        expected = "a list" if kind is list else "text"
        raise InputError(f'"{key}" should be {expected}, not {_json_kind(value)}.', path=path)
    return value


def _listed(data: Mapping[str, Any], key: str, path: Path) -> list[Any]:
    """The list ``data[key]`` (empty if absent), of at most :data:`MAX_SESSION_FILES` items."""
    items: list[Any] = _field(data, key, list, path, [])
    if len(items) > MAX_SESSION_FILES:
        raise InputError(
            f'"{key}" lists {len(items):,} items; a session holds at most {MAX_SESSION_FILES:,}.',
            path=path,
            hint="Is this really a session saved by mtgui?",
        )
    return items


def _why_missing(path: Path) -> str | None:
    """None if ``path`` exists, else why it cannot be found, in a few words."""
    try:
        os.stat(path)
    except FileNotFoundError:
        return "no such file"
    except OSError as error:
        return describe_os_error(error).rstrip(".")
    except ValueError:  # a NUL character, or a name this system cannot encode
        return "not a valid file name"
    return None


def _pair(item: object, path: Path) -> tuple[str, str]:
    if not (isinstance(item, list) and len(item) == 2 and all(isinstance(s, str) for s in item)):
        raise InputError(
            f'each of "renames" should be a pair of names ["old", "new"], not {_json_kind(item)}.',
            path=path,
        )
    return item[0], item[1]


def _files(items: list[Any], path: Path) -> list[SessionFile]:
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
        found = _locate(item["path"], relative, path.parent)
        files.append(SessionFile(found, None if role is None else Role(role)))
    return files


def _locate(absolute: str, relative: str | None, folder: Path) -> Path:
    """The relative path (from the session's folder) if it exists, else the stored one."""
    if relative is not None:
        near = Path(os.path.normpath(folder / relative))
        if _why_missing(near) is None:
            return near
    stored = Path(absolute)
    return stored if stored.is_absolute() else Path(os.path.normpath(folder / stored))


def is_session_file(path: Path) -> bool:
    """Whether ``path`` looks like a session (its name, or a JSON file that says so).

    So that a session dropped on the window, or chosen in Open, is opened as a session
    rather than read as a data file.
    """
    if path.name.lower().endswith(SESSION_SUFFIX):
        return True
    if path.suffix.lower() != ".json":
        return False
    try:
        return b'"mtgui_session"' in read_input_head(path, _SNIFF_BYTES)
    except InputError:  # not a regular file, or unreadable: not a session to open
        return False
