"""Sessions that are too big, too deep or name impossible files (issue 13, items 11 and 19).

Every one is an :class:`InputError` naming the session file, read in time proportional to its
size; a file that cannot be found is listed with the reason, a few at a time.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from test_special_inputs import returns_in_time

from mtgui.engine.core.corpus import Role
from mtgui.engine.core.errors import InputError
from mtgui.io import session as session_module
from mtgui.io.decode import read_text
from mtgui.io.session import (
    MAX_SESSION_BYTES,
    MAX_SESSION_FILES,
    is_session_file,
    read_session,
)


def write_session(folder: Path, data: object, name: str = "s.mtgui.json") -> Path:
    path = folder / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def missing_files(count: int) -> list[dict[str, str]]:
    return [
        {"path": f"/nowhere/sys{i}.txt", "relative": f"gone/sys{i}.txt", "role": "system"}
        for i in range(count)
    ]


def error_of(path: Path, **options: bool) -> InputError:
    with pytest.raises(InputError) as caught:
        read_session(path, **options)
    assert caught.value.path == path
    return caught.value


# -- item 11: linear, with documented maxima ---------------------------------------------


def test_the_roles_of_a_session_are_built_once(tmp_path):
    # AppController.open_session looks up session.roles once per file; a dict built on every
    # look-up made a session of 8,000 files take 8 s and one of 200,000 hours.
    path = write_session(tmp_path, {"mtgui_session": 1, "files": missing_files(3)})
    session = read_session(path, missing_ok=True)
    assert session.roles is session.roles
    assert session.roles == {p: Role.SYSTEM for p in session.paths}


def test_a_session_of_the_most_files_allowed_opens_with_them_missing(tmp_path):
    path = write_session(tmp_path, {"mtgui_session": 1, "files": missing_files(10_000)})
    session = read_session(path, missing_ok=True)
    assert len(session.files) == MAX_SESSION_FILES == 10_000
    assert len(session.roles) == 10_000


def test_the_missing_files_are_counted_and_a_few_listed(tmp_path):
    path = write_session(tmp_path, {"mtgui_session": 1, "files": missing_files(8_000)})
    message = error_of(path).problem
    assert message.startswith("8000 of the session's files cannot be found: /nowhere/sys0.txt")
    assert "/nowhere/sys4.txt (no such file); ..." in message
    assert "sys5.txt" not in message


@pytest.mark.parametrize("key", ["files", "renames", "hidden"])
def test_more_than_the_most_entries_allowed_is_refused(tmp_path, key):
    items = {
        "files": missing_files(10_001),
        "renames": [["a", "b"]] * 10_001,
        "hidden": ["a"] * 10_001,
    }[key]
    path = write_session(tmp_path, {"mtgui_session": 1, key: items})
    problem = error_of(path, missing_ok=True).problem
    assert problem == f'"{key}" lists 10,001 items; a session holds at most 10,000.'


def test_a_session_file_over_the_size_limit_is_refused_unread(tmp_path, monkeypatch):
    assert MAX_SESSION_BYTES == 16 << 20
    monkeypatch.setattr(session_module, "MAX_SESSION_BYTES", 200)
    path = write_session(tmp_path, {"mtgui_session": 1, "files": missing_files(5)})
    problem = error_of(path, missing_ok=True).problem
    assert problem.startswith("the session file could not be read: this file is too large to")
    assert "mtgui reads files of at most 200 bytes." in problem


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_session_that_is_a_named_pipe_is_refused_without_waiting(tmp_path):
    path = tmp_path / "pipe.mtgui.json"
    os.mkfifo(path)
    assert is_session_file(path)  # by its name: opening it says what it is
    caught = returns_in_time(lambda: read_session(path), path)
    assert isinstance(caught, InputError)
    assert "named pipe (FIFO)" in caught.problem
    other = tmp_path / "other.json"
    os.mkfifo(other)
    assert not is_session_file(other)


# -- item 19: deep, huge or impossible values -------------------------------------------


def test_json_nested_100000_levels_deep(tmp_path):
    path = write_session(tmp_path, '{"mtgui_session": 1,\n "files": ' + "[" * 100_000)
    error = error_of(path)
    assert error.problem == (
        "this is not a session file: its JSON is nested more than 100 levels deep; mtgui reads "
        "at most 100."
    )
    assert error.line == 2


def test_an_integer_of_5000_digits(tmp_path):
    path = write_session(tmp_path, '{"mtgui_session": ' + "9" * 5000 + "}")
    error = error_of(path)
    assert error.problem == (
        "this is not a session file: it holds a number of 5,000 characters; mtgui reads "
        "numbers of at most 400 characters."
    )
    assert error.line == 1


def test_a_file_name_over_the_system_limit_in_a_session(tmp_path):
    long_path = str(tmp_path / ("x" * 300))
    data = {"mtgui_session": 1, "files": [{"path": long_path, "relative": "y" * 300}]}
    path = write_session(tmp_path, data)
    assert error_of(path).problem == (
        f"1 of the session's files cannot be found: {long_path} (the file name is too long for "
        "this system)."
    )
    (kept,) = read_session(path, missing_ok=True).paths
    with pytest.raises(InputError, match="the file name is too long for this system"):
        read_text(kept)  # as the desktop does when it loads the session's files


def test_impossible_file_names_in_a_session(tmp_path):
    data = {"mtgui_session": 1, "files": [{"path": "/a\u0000b"}, {"path": "/\ud800"}]}
    path = write_session(tmp_path, json.dumps(data))
    assert error_of(path).problem == (
        "2 of the session's files cannot be found: /a\x00b (not a valid file name); /\ud800 "
        "(not a valid file name)."
    )
    for kept in read_session(path, missing_ok=True).paths:
        with pytest.raises(InputError, match="this is not a valid file name"):
            read_text(kept)


def test_a_session_file_name_over_the_system_limit(tmp_path):
    path = tmp_path / ("x" * 300 + ".mtgui.json")
    assert error_of(path).problem == (
        "the session file could not be read: the file name is too long for this system."
    )
    assert not is_session_file(tmp_path / ("x" * 300 + ".json"))
