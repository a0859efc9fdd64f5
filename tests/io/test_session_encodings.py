"""The encoding chosen for a file in the window: kept by sessions and projects, file by file;
sessions that chose none are as they were."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mtgui.engine.core import InputError, Role
from mtgui.io.decode import AUTO
from mtgui.io.entries import read_entry
from mtgui.io.project import extract_project, write_project
from mtgui.io.session import (
    default_settings,
    read_session,
    session_from_workspace,
    session_to_dict,
    write_session,
)
from mtgui.io.window_words import window_message
from mtgui.io.workspace import Workspace

LATIN = "Le café de Noël\nLa forêt\n"


@pytest.fixture
def files(tmp_path) -> tuple[Path, Path]:
    latin, plain = tmp_path / "sysA.fr", tmp_path / "ref.fr"
    latin.write_bytes(LATIN.encode("latin-1"))
    plain.write_text("Le cafe de Noel\nLa foret\n", encoding="utf-8")
    return latin, plain


def test_a_file_that_is_not_utf8_offers_latin1_in_the_windows_words(files):
    refused = read_entry(files[0], Role.SYSTEM)
    assert refused.encodings == ("latin-1",) and refused.encoding == AUTO
    assert "--" not in refused.problem and "command line" not in refused.problem
    assert 'click "Read as Latin-1 (ISO-8859-1)" below' in refused.problem
    read = read_entry(files[0], Role.SYSTEM, encoding="latin-1")
    assert read.ok and read.encoding == "latin-1" and read.encodings == ()
    assert read.loaded is not None and read.loaded.streams[0].texts == (
        "Le café de Noël",
        "La forêt",
    )


def test_past_a_byte_order_mark_nothing_is_offered(tmp_path):
    marked = tmp_path / "bom.fr"
    marked.write_bytes(b"\xef\xbb\xbfLe caf\xe9\n")
    entry = read_entry(marked, Role.SYSTEM)
    assert entry.encodings == () and "Save the file as UTF-8" in entry.problem


def test_other_messages_in_the_window_keep_their_words():
    error = InputError("bad.", path="x.txt", hint="Save it as UTF-8.")
    assert window_message(error) == "x.txt: bad. Save it as UTF-8."


def test_sessions_keep_the_encoding_chosen_and_those_that_chose_none_are_unchanged(files, tmp_path):
    latin, plain = files
    chosen = read_entry(latin, Role.SYSTEM, encoding="latin-1")
    workspace = Workspace().with_entries([read_entry(plain, Role.REFERENCE), chosen])
    session = session_from_workspace(workspace, default_settings())
    data = session_to_dict(session, tmp_path)
    assert [f.get("encoding") for f in data["files"]] == [None, "latin-1"]
    # A session that chose none: its files' JSON has exactly the keys it always had.
    unchosen = session_from_workspace(
        Workspace().with_entries([read_entry(plain, Role.REFERENCE)]), default_settings()
    )
    assert set(session_to_dict(unchosen, tmp_path)["files"][0]) == {"path", "relative", "role"}
    path = tmp_path / "work.mtgui.json"
    write_session(path, session)
    opened = read_session(path)
    assert opened.encodings == {latin: "latin-1"}
    assert [f.encoding for f in opened.files] == [AUTO, "latin-1"]


def test_a_project_keeps_the_encoding_chosen(files, tmp_path):
    latin, plain = files
    entries = [
        read_entry(plain, Role.REFERENCE),
        read_entry(latin, Role.SYSTEM, encoding="latin-1"),
    ]
    session = session_from_workspace(Workspace().with_entries(entries), default_settings())
    target = tmp_path / "work.mtgui"
    write_project(target, session)
    opened = extract_project(target, tmp_path / "projects", may_replace=lambda folder: False)
    assert opened is not None
    assert [f.encoding for f in read_session(opened).files] == [AUTO, "latin-1"]


@pytest.mark.parametrize("value", ["cp1252", 1, "UTF-16"])
def test_an_encoding_the_window_cannot_read_is_refused_in_words(tmp_path, files, value):
    path = tmp_path / "bad.mtgui.json"
    item = {"path": str(files[0]), "role": "system", "encoding": value}
    path.write_text(json.dumps({"mtgui_session": 1, "files": [item]}), encoding="utf-8")
    with pytest.raises(InputError) as raised:
        read_session(path)
    assert 'file 1 of the session: "encoding" should be one of "auto", "utf-8", "latin-1"' in str(
        raised.value
    )
