"""Sessions of several test sets: the first set where a session of one set has it, the others
in "test_sets"; a session of one set is written as before."""

from __future__ import annotations

import json

import pytest

from mtgui.engine.core import InputError, Role
from mtgui.io.session import Session, read_session, session_to_dict, write_session
from mtgui.io.session_files import SessionFile


def _files(folder, *names):
    paths = [folder / name for name in names]
    for path in paths:
        path.write_text("a line\n")
    roles = [Role.REFERENCE, *[Role.SYSTEM] * (len(paths) - 1)]
    return tuple(SessionFile(p, r) for p, r in zip(paths, roles, strict=True))


def test_a_session_of_one_set_has_no_test_sets_and_its_keys_keep_their_order(tmp_path):
    data = session_to_dict(Session(_files(tmp_path, "ref.txt", "a.txt")), tmp_path)
    assert list(data) == [
        *("mtgui_session", "mtgui_version", "files", "renames", "hidden", "settings"),
        *("metric", "run_groups"),
    ]


def test_every_test_set_round_trips(tmp_path):
    other = Session(
        _files(tmp_path, "wiki.ref", "wiki.a", "wiki.b"),
        renames=(("wiki", "Wiki A"),),
        hidden=frozenset({"b"}),
        run_groups=(("A", ("wiki", "b")),),
        name="wiki",
    )
    session = Session(_files(tmp_path, "news.ref", "news.a"), name="news", test_sets=(other,))
    path = tmp_path / "both.mtgui.json"
    write_session(path, session)
    again = read_session(path)
    assert again.name == "news" and again.paths == session.paths
    assert again.test_sets == (other,)
    assert again.all_paths == [*session.paths, *other.paths]


def test_a_bad_test_set_and_a_missing_file_of_another_set_are_said(tmp_path):
    path = tmp_path / "bad.mtgui.json"
    write_session(path, Session(_files(tmp_path, "ref.txt")))
    data = json.loads(path.read_text())
    data["test_sets"] = [{"files": []}]
    path.write_text(json.dumps(data))
    with pytest.raises(InputError, match='each of "test_sets" should be'):
        read_session(path)
    data["test_sets"] = [{"name": "wiki", "files": [{"path": str(tmp_path / "gone.txt")}]}]
    path.write_text(json.dumps(data))
    with pytest.raises(InputError, match=r"gone\.txt"):
        read_session(path)
