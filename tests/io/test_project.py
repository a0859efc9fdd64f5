"""Project files: one archive that opens on another machine as it was; hostile ones refused."""

from __future__ import annotations

import json
import shutil
import stat
import zipfile
from pathlib import Path

import pytest

from mtgui.engine.core import InputError, Role
from mtgui.io import project
from mtgui.io.demo import demo_inputs
from mtgui.io.project import (
    MANIFEST,
    SESSION_NAME,
    check_archive,
    extract_project,
    project_folder,
    write_project,
)
from mtgui.io.session import Session, SessionFile, read_session


@pytest.fixture
def inputs(tmp_path) -> list[tuple[Path, Role]]:
    """The demo's files copied to a folder of 'the first machine'."""
    first = tmp_path / "first-machine" / "data"
    first.mkdir(parents=True)
    copied = []
    for path, role in demo_inputs():
        shutil.copy(path, first / path.name)
        copied.append((first / path.name, role))
    return copied


def _session(inputs) -> Session:
    files = tuple(SessionFile(path, role) for path, role in inputs)
    settings = {**Session().settings, "seed": 7, "resamples": 300}
    return Session(files, (("Quill", "Quill v2"),), frozenset({"Ostrich"}), settings, "ter")


def test_a_project_opens_elsewhere_with_no_path_of_the_first_machine(inputs, tmp_path):
    target = tmp_path / "work.mtgui"
    saved = write_project(target, _session(inputs), "<html></html>", '{"systems": []}')
    assert saved.files == len(inputs) and saved.left_out == ()
    with zipfile.ZipFile(target) as archive:
        names = archive.namelist()
        session_text = archive.read(SESSION_NAME).decode("utf-8")
    assert {MANIFEST, SESSION_NAME, "report.html", "results.json"} <= set(names)
    assert "first-machine" not in session_text and str(tmp_path) not in session_text
    shutil.rmtree(tmp_path / "first-machine")  # the other machine has none of it
    projects = tmp_path / "data-dir" / "projects"
    opened = extract_project(target, projects, may_replace=lambda folder: False)
    assert opened == projects / "work" / SESSION_NAME
    session = read_session(opened)
    assert [f.path.read_bytes() for f in session.files] == [
        (Path(p).read_bytes()) for p, _ in demo_inputs()
    ]
    assert [f.role for f in session.files] == [role for _, role in inputs]
    assert session.renames == (("Quill", "Quill v2"),) and session.hidden == {"Ostrich"}
    assert session.settings["seed"] == 7 and session.metric == "ter"
    # Opened again: the same content is used as it is, nothing asked.
    assert extract_project(target, projects, may_replace=pytest.fail) == opened


def test_another_project_of_the_same_name_is_replaced_only_when_the_user_says(inputs, tmp_path):
    projects = tmp_path / "projects"
    first = tmp_path / "a" / "work.mtgui"
    second = tmp_path / "b" / "work.mtgui"
    first.parent.mkdir()
    second.parent.mkdir()
    write_project(first, _session(inputs[:2]))
    write_project(second, _session(inputs))
    extract_project(first, projects, lambda folder: True)
    asked = []
    assert extract_project(second, projects, lambda folder: asked.append(folder) or False) is None
    assert asked == [project_folder(second, projects)]
    assert len(read_session(projects / "work" / SESSION_NAME).files) == 2  # kept as it was
    extract_project(second, projects, lambda folder: True)
    assert len(read_session(projects / "work" / SESSION_NAME).files) == len(inputs)
    assert [p.name for p in projects.iterdir()] == ["work"]  # nothing left beside it


def test_a_missing_file_is_left_out_and_said(inputs, tmp_path):
    inputs[1][0].unlink()
    saved = write_project(tmp_path / "p.mtgui", _session(inputs))
    assert saved.left_out == (inputs[1][0].name,)


def _archive(tmp_path, members, name="bad.mtgui") -> Path:
    """An archive with the project's own members and ``members`` (name -> bytes or ZipInfo)."""
    path = tmp_path / name
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(MANIFEST, json.dumps({"mtgui_project": 1}))
        archive.writestr(SESSION_NAME, json.dumps({"mtgui_session": 1, "files": []}))
        for member, data in members:
            archive.writestr(member, data)
    return path


def _link(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name)
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    return info


@pytest.mark.parametrize(
    ("members", "words"),
    [
        ([("/etc/evil", b"x")], "outside its folder"),
        ([("inputs/../../evil", b"x")], "outside its folder"),
        ([("C:/evil", b"x")], "outside its folder"),
        ([(_link("inputs/link"), b"/etc/passwd")], "a link or a special file"),
        ([("inputs/a.txt", b"1"), ("inputs/A.txt", b"2")], "twice"),
        ([("inputs/zeros", b"\0" * (4 << 20))], "would grow"),
    ],
)
def test_hostile_archives_are_refused_in_words(tmp_path, members, words):
    path = _archive(tmp_path, members)
    with pytest.raises(InputError, match=words) as refused:
        extract_project(path, tmp_path / "projects", lambda folder: True)
    assert "It was not opened." in refused.value.message
    assert not (tmp_path / "projects").exists()  # nothing written


def test_too_many_members_and_not_a_project_are_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(project, "MAX_MEMBERS", 4)
    path = _archive(tmp_path, [(f"inputs/{n}", b"x") for n in range(3)])
    with pytest.raises(InputError, match="holds 5 files; a project holds at most 4"):
        check_archive(path)
    (tmp_path / "text.mtgui").write_text("hello", encoding="utf-8")
    with pytest.raises(InputError, match="not an mtgui project"):
        check_archive(tmp_path / "text.mtgui")
    plain = tmp_path / "plain.mtgui"
    with zipfile.ZipFile(plain, "w") as archive:
        archive.writestr("readme.txt", "hi")
    with pytest.raises(InputError, match=r"has no mtgui-project\.json"):
        check_archive(plain)
