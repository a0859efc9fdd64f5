"""Sessions: the files, names and settings of one piece of work, in a small JSON file. No Qt.

A session lets an evaluator close the window and come back to the same analysis, or hand a
project folder to a colleague. It holds the files (and the role the user gave each plain-text
file, the score column chosen in a table of human scores: ``"score_column": "raw"``, and for
other scores what the user said of each metric the file gives: ``"scores": [{"column": "comet",
"metric": "comet", "higher_is_better": true, "system": null}]``, and the encoding the user chose
to read it in: ``"encoding": "latin-1"``), the systems' renames and
hidden systems, the analysis settings and the metric shown::

    {"mtgui_session": 1, "mtgui_version": "0.2.0",
     "files": [{"path": "/abs/ref.txt", "relative": "ref.txt", "role": "reference"}],
     "renames": [["old", "new"]], "hidden": ["sys3"],
     "settings": {"metrics": ["bleu"], "resamples": 2000, ...}, "metric": "bleu"}

A project of several test sets (one tab of inputs each in the window, analysed together as a
campaign) saves the first set as above, named by ``"test_set"``, and the others in
``"test_sets"``, each with its own files, renames, hidden systems and runs (the settings and
the metric are the session's)::

    {..., "test_set": "news", "test_sets": [{"name": "wiki", "files": [...], "renames": [],
     "hidden": [], "run_groups": []}]}

A session of one test set has neither, as before: an older mtgui opens its first set.

Each file is stored twice, absolute and relative to the session file's folder, so that a
project folder that was moved or shared keeps working (:mod:`mtgui.io.session_paths`).

A session names at most :data:`MAX_SESSION_FILES` files (and as many renames and hidden
systems), and its file is at most :data:`MAX_SESSION_BYTES` long: anything larger is not a
session mtgui wrote, and is refused at once rather than read for minutes. Reading takes time
in proportion to the session's size.

Reading checks everything and raises :class:`InputError` naming the session file and what is
wrong; settings that are missing take their defaults and unknown ones are ignored (a newer or
older mtgui may write others), but a setting with a bad value is an error: the user chose this
file, and quietly replacing a value they saved would give other numbers without telling them.
The settings' defaults and rules are those of the one settings object,
:class:`mtgui.engine.analysis_settings.AnalysisSettings`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from mtgui._version import __version__
from mtgui.engine import analysis_settings
from mtgui.engine.analysis_settings import SettingsDict as SettingsDict
from mtgui.engine.analysis_settings import describe_value
from mtgui.engine.core import InputError, Role
from mtgui.engine.metrics import METRIC_NAMES
from mtgui.io.decode import AUTO
from mtgui.io.inputs import read_input_bytes, read_input_head
from mtgui.io.json_input import load_json
from mtgui.io.score_sources import HUMAN, ScoreSource
from mtgui.io.session_files import MAX_SESSION_FILES as MAX_SESSION_FILES
from mtgui.io.session_files import SessionFile as SessionFile
from mtgui.io.session_files import file_dict, files_from_json, session_file
from mtgui.io.session_paths import why_missing
from mtgui.io.workspace import Workspace
from mtgui.io.writers import check_writable, json_text, write_text_atomic

SESSION_VERSION = 1
SESSION_SUFFIX = ".mtgui.json"
_SNIFF_BYTES = 4096
_SHOW = 5  # how many missing files a message lists


MAX_SESSION_BYTES = 16 << 20
"""The largest session file mtgui reads (16 MiB; 10,000 files of 200-character paths take 5 MB)."""


def default_settings() -> SettingsDict:
    """The settings of a fresh window (a new dict each time: callers may change it)."""
    return analysis_settings.AnalysisSettings().to_dict()


def check_settings(data: object, *, path: Path | None = None, strict: bool = True) -> SettingsDict:
    """Settings from a JSON object: missing ones default, unknown ones are ignored.

    With ``strict`` a bad value is an :class:`InputError` naming ``path``; without, it quietly
    takes its default (for the preferences, which the user never edits by hand). The rules are
    the settings object's (:meth:`AnalysisSettings.from_mapping`).
    """
    settings = analysis_settings.AnalysisSettings.from_mapping(data, strict=strict, path=path)
    return settings.to_dict()


# -- the session ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Session:
    """Everything needed to open the same analysis again."""

    files: tuple[SessionFile, ...] = ()
    renames: tuple[tuple[str, str], ...] = ()
    hidden: frozenset[str] = frozenset()
    settings: SettingsDict = field(default_factory=default_settings)
    metric: str | None = None
    run_groups: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """Systems grouped as runs of one system: (the group's name, its runs' system names)."""
    name: str = ""
    """The first test set's name ("": not named)."""
    test_sets: tuple[Session, ...] = ()
    """The project's other test sets, each as a session of its own files, names and runs
    (their settings and metric are this session's)."""

    @property
    def paths(self) -> list[Path]:
        """The files of the first test set, in the order they were loaded."""
        return [f.path for f in self.files]

    @property
    def all_paths(self) -> list[Path]:
        """The files of every test set."""
        return [*self.paths, *(p for other in self.test_sets for p in other.paths)]

    @cached_property
    def roles(self) -> dict[Path, Role]:
        """The role of each file that has one (what ``AppController.add_files`` takes).

        Built once: callers look a role up for every file, and a dict built on every look-up
        made opening a session of n files take n^2 steps.
        """
        return {f.path: f.role for f in self.files if f.role is not None}

    @cached_property
    def score_columns(self) -> dict[Path, str]:
        """The score column chosen for each scores table that has one."""
        return {f.path: f.score_column for f in self.files if f.score_column is not None}

    @cached_property
    def encodings(self) -> dict[Path, str]:
        """The encoding the user chose for each file that has one."""
        return {f.path: f.encoding for f in self.files if f.encoding != AUTO}

    @cached_property
    def score_sources(self) -> dict[Path, tuple[ScoreSource, ...]]:
        """What to load from each scores file the user said something of."""
        return {f.path: f.scores for f in self.files if f.scores}

    def workspace(self) -> Workspace:
        """An empty workspace with the session's renames and hidden systems, to load into."""
        return Workspace.from_names(self.renames, self.hidden)


def session_from_workspace(
    workspace: Workspace,
    settings: SettingsDict,
    metric: str | None = None,
    run_groups: Mapping[str, Sequence[str]] | None = None,
) -> Session:
    """The session of what is loaded now (files that could not be read are kept too), with
    the systems grouped as runs (name -> its runs' systems)."""
    files = tuple(session_file(e) for e in workspace.entries)
    groups = tuple((name, tuple(runs)) for name, runs in (run_groups or {}).items())
    return Session(files, workspace.renames, workspace.hidden, settings, metric, groups)


def session_to_dict(session: Session, folder: Path) -> dict[str, Any]:
    """The JSON object of ``session`` saved in ``folder``."""
    data: dict[str, Any] = {
        "mtgui_session": SESSION_VERSION,
        "mtgui_version": __version__,
        **_set_dict(session, folder),
        "settings": dict(session.settings),
        "metric": session.metric,
    }
    data["run_groups"] = data.pop("run_groups")  # where sessions of one set always had it
    if session.test_sets:
        data["test_set"] = session.name
        data["test_sets"] = [
            {"name": other.name, **_set_dict(other, folder)} for other in session.test_sets
        ]
    return data


def _set_dict(session: Session, folder: Path) -> dict[str, Any]:
    """One test set's part of a session's JSON: its files, renames, hidden systems, runs."""
    return {
        "files": [file_dict(item, folder) for item in session.files],
        "renames": [list(pair) for pair in session.renames],
        "hidden": sorted(session.hidden),
        "run_groups": [{"name": name, "runs": list(runs)} for name, runs in session.run_groups],
    }


def write_session(path: Path, session: Session) -> None:
    """Save ``session`` to ``path`` in one step (replacing it; the caller asked first).

    Raises
    ------
    InputError
        If ``path`` is one of the session's own files, or cannot be written.
    """
    check_writable(path, overwrite=True, inputs=session.all_paths)
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
    return load_json(text, path, "this is not a session file: ")


def session_from_dict(data: object, path: Path, *, missing_ok: bool = False) -> Session:
    """The session in ``data``, read from the session file ``path`` (see :func:`read_session`)."""
    _check_version(data, path)
    assert isinstance(data, dict)  # _check_version saw to it
    files = files_from_json(_listed(data, "files", path), path)
    others = tuple(_other_set(item, path) for item in _listed(data, "test_sets", path))
    every = [*files, *(f for other in others for f in other.files)]
    missing = [(f.path, why) for f in every if (why := why_missing(f.path)) is not None]
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
    named = [s.metric for f in every for s in f.scores]
    known = [*METRIC_NAMES, *(name for name in dict.fromkeys(named) if name != HUMAN)]
    metric = _field(data, "metric", str, path, None)
    if metric is not None and metric not in known:
        raise InputError(
            f'"metric" should be one of {", ".join(known)}, not "{metric}".', path=path
        )
    settings = check_settings(data.get("settings", {}), path=path)
    unknown = [name for name in settings["metrics"] if name not in known]
    if unknown:
        raise InputError(
            f'the setting "metrics" should be a list of metric names from {", ".join(known)} '
            f'(the session\'s scores files name no other), not "{unknown[0]}".',
            path=path,
        )
    groups = tuple(_run_group(item, path) for item in _listed(data, "run_groups", path))
    name = _field(data, "test_set", str, path, "") if others else ""
    return Session(tuple(files), renames, frozenset(hidden), settings, metric, groups, name, others)


def _other_set(item: object, path: Path) -> Session:
    """One of "test_sets": a test set's name, files, renames, hidden systems and runs."""
    if not isinstance(item, dict) or not isinstance(item.get("name"), str):
        raise InputError(
            'each of "test_sets" should be {"name": "the set", "files": [...], ...}, '
            f"not {describe_value(item)}.",
            path=path,
        )
    files = files_from_json(_listed(item, "files", path), path)
    renames = tuple(_pair(pair, path) for pair in _listed(item, "renames", path))
    hidden = _listed(item, "hidden", path)
    if not all(isinstance(name, str) for name in hidden):
        raise InputError('"hidden" should be a list of system names (text).', path=path)
    groups = tuple(_run_group(group, path) for group in _listed(item, "run_groups", path))
    return Session(tuple(files), renames, frozenset(hidden), run_groups=groups, name=item["name"])


def _check_version(data: object, path: Path) -> None:
    if not isinstance(data, dict) or "mtgui_session" not in data:
        raise InputError(
            'this is not an mtgui session file (it has no "mtgui_session" field).', path=path
        )
    version = data["mtgui_session"]
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise InputError(
            f'"mtgui_session" should be a version number, not {describe_value(version)}.', path=path
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
        raise InputError(f'"{key}" should be {expected}, not {describe_value(value)}.', path=path)
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


def _run_group(item: object, path: Path) -> tuple[str, tuple[str, ...]]:
    """One of "run_groups" (absent from sessions saved before runs were saved: none)."""
    runs = item.get("runs") if isinstance(item, dict) else None
    name = item.get("name") if isinstance(item, dict) else None
    if not (
        isinstance(name, str)
        and isinstance(runs, list)
        and len(runs) >= 2
        and all(isinstance(run, str) for run in runs)
    ):
        raise InputError(
            'each of "run_groups" should be {"name": "system", "runs": ["run 1", "run 2", ...]} '
            f"(two runs or more), not {describe_value(item)}.",
            path=path,
        )
    return name, tuple(runs)


def _pair(item: object, path: Path) -> tuple[str, str]:
    if not (isinstance(item, list) and len(item) == 2 and all(isinstance(s, str) for s in item)):
        raise InputError(
            'each of "renames" should be a pair of names ["old", "new"], '
            f"not {describe_value(item)}.",
            path=path,
        )
    return item[0], item[1]


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
