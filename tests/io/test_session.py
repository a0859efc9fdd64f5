"""Sessions (Qt-free): save and reopen, relative paths after a move, and every error message."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from mtgui.engine.core.corpus import Role
from mtgui.engine.core.errors import InputError
from mtgui.engine.core.running import run_to_end
from mtgui.io.entries import LoadRequest, iter_read
from mtgui.io.session import (
    Session,
    SessionFile,
    check_settings,
    default_settings,
    is_session_file,
    read_session,
    session_from_workspace,
    session_to_dict,
    write_session,
)
from mtgui.io.workspace import Workspace

REF = '<refset><doc docid="d" sysid="ref"><seg id="1">a b</seg><seg id="2">c</seg></doc></refset>'


def load(workspace: Workspace, paths, roles) -> Workspace:
    """Read files into ``workspace`` as the main window does (renames and hidden kept)."""
    requests = [LoadRequest(path, roles.get(path)) for path in paths]
    for entry in run_to_end(iter_read(requests)):
        workspace = workspace.with_entry(entry)
    return workspace


@pytest.fixture
def project(write, tmp_path):
    """A project folder: data inside it, one file beside it, and a session to save there."""
    return {
        "ref": write("project/data/ref.sgm", REF),
        "a": write("project/data/sys.A.txt", "a b\nc\n"),
        "b": write("project/data/sys.B.txt", "a x\nc\n"),
        "c": write("shared/sys.C.txt", "x b\nc\n"),  # one folder up from the session's folder
        "session": tmp_path / "project" / "work.mtgui.json",
    }


def saved_workspace(project) -> Workspace:
    paths = [project[k] for k in ("ref", "a", "b", "c")]
    roles = {project[k]: Role.SYSTEM for k in ("a", "b", "c")}
    workspace = load(Workspace(), paths, roles)
    return workspace.renamed("B", "Beta").with_hidden("C", True)


def changed_settings():
    settings = default_settings()
    settings.update(metrics=["bleu", "ter"], resamples=500, level=0.9, seed=7, unit="document")
    settings.update(randomization=True, correction="fdr", tokenizer="intl", case="ascii")
    return settings


def test_a_session_round_trips_and_reloads_the_same_analysis(project):
    workspace = saved_workspace(project)
    session = session_from_workspace(workspace, changed_settings(), "ter")
    write_session(project["session"], session)
    again = read_session(project["session"])
    assert again == session
    assert again.settings == changed_settings()
    assert again.roles == {project[k]: Role.SYSTEM for k in ("a", "b", "c")}
    assert again.files[0] == SessionFile(project["ref"], None)  # SGML says its own role
    reloaded = load(again.workspace(), again.paths, again.roles)
    assert reloaded.corpus().system_names == ("A", "Beta")
    assert reloaded.system_names() == workspace.system_names()


def test_paths_are_stored_relative_and_absolute(project, tmp_path, write):
    far = write("elsewhere/deep/sys.D.txt", "a b\nc\n")
    files = (
        SessionFile(project["a"], Role.SYSTEM),
        SessionFile(project["c"]),
        SessionFile(far, Role.SYSTEM),
    )
    data = session_to_dict(Session(files=files), project["session"].parent / "sub" / "x")
    assert data["files"][0] == {
        "path": str(project["a"]),
        "relative": "../../data/sys.A.txt",
        "role": "system",
    }
    assert "relative" not in data["files"][1]  # three folders up: too far to move with it
    assert data["files"][1]["path"] == str(project["c"]) and data["files"][1]["role"] is None
    write_session(project["session"], Session(files=files))
    stored = json.loads(project["session"].read_text("utf-8"))
    assert stored["mtgui_session"] == 1
    assert [f["relative"] for f in stored["files"]] == [
        "data/sys.A.txt",
        "../shared/sys.C.txt",
        "../elsewhere/deep/sys.D.txt",
    ]


def test_a_moved_project_folder_opens_from_its_new_place(project, tmp_path):
    session = session_from_workspace(saved_workspace(project), default_settings(), "bleu")
    write_session(project["session"], session)
    moved = tmp_path / "moved"
    moved.mkdir()
    shutil.move(tmp_path / "project", moved / "project")
    shutil.move(tmp_path / "shared", moved / "shared")
    again = read_session(moved / "project" / "work.mtgui.json")
    assert again.paths == [
        moved / "project" / "data" / "ref.sgm",
        moved / "project" / "data" / "sys.A.txt",
        moved / "project" / "data" / "sys.B.txt",
        moved / "shared" / "sys.C.txt",
    ]
    assert (again.renames, again.hidden, again.metric) == (
        (("B", "Beta"),),
        frozenset({"C"}),
        "bleu",
    )


def test_a_session_moved_away_from_its_files_finds_them_where_they_were(project, tmp_path):
    write_session(project["session"], Session(files=(SessionFile(project["a"], Role.SYSTEM),)))
    alone = tmp_path / "alone.mtgui.json"
    shutil.move(project["session"], alone)
    assert read_session(alone).paths == [project["a"]]  # the relative path fails; absolute works


def test_missing_files_are_listed_or_kept_when_asked(project):
    write_session(
        project["session"], session_from_workspace(saved_workspace(project), default_settings())
    )
    project["a"].unlink()
    project["c"].unlink()
    with pytest.raises(InputError) as caught:
        read_session(project["session"])
    message = caught.value.message
    assert message.startswith(str(project["session"]))
    assert "2 of the session's files cannot be found" in message
    assert str(project["a"]) in message and str(project["c"]) in message
    assert str(project["b"]) not in message
    kept = read_session(project["session"], missing_ok=True)
    assert kept.paths[1] == project["a"] and not kept.paths[1].exists()


def test_a_session_is_never_written_over_one_of_its_files(project):
    session = Session(files=(SessionFile(project["a"], Role.SYSTEM),))
    with pytest.raises(InputError, match="one of the input files"):
        write_session(project["a"], session)
    assert project["a"].read_text("utf-8") == "a b\nc\n"


def write_json(tmp_path: Path, data) -> Path:
    path = tmp_path / "s.mtgui.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), "utf-8")
    return path


def error_of(path: Path) -> str:
    with pytest.raises(InputError) as caught:
        read_session(path)
    assert caught.value.path == path
    return caught.value.message


def test_not_json_says_line_and_column(tmp_path):
    path = write_json(tmp_path, '{"mtgui_session": 1,\n  "files": [}\n')
    with pytest.raises(InputError) as caught:
        read_session(path)
    assert caught.value.line == 2
    assert "not valid JSON" in caught.value.message and "column 13" in caught.value.message
    assert f"{path}, line 2:" in caught.value.message


def test_files_that_are_not_sessions(tmp_path):
    assert "could not be read" in error_of(tmp_path / "absent.mtgui.json")
    (tmp_path / "latin.mtgui.json").write_bytes(b'{"x": "\xe9"}')
    assert "not UTF-8" in error_of(tmp_path / "latin.mtgui.json")
    assert 'no "mtgui_session" field' in error_of(write_json(tmp_path, [1, 2]))
    assert 'no "mtgui_session" field' in error_of(write_json(tmp_path, {"files": []}))


@pytest.mark.parametrize(
    ("version", "expected"),
    [
        (2, "saved by a newer mtgui (session version 2); this one reads version 1."),
        ("1", '"mtgui_session" should be a version number, not the text "1".'),
        (True, '"mtgui_session" should be a version number, not true/false.'),
        (0, '"mtgui_session" should be a version number, not the number 0.'),
    ],
)
def test_wrong_versions(tmp_path, version, expected):
    assert expected in error_of(write_json(tmp_path, {"mtgui_session": version}))


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"files": {"a": 1}}, '"files" should be a list, not an object.'),
        ({"files": ["a.txt"]}, 'file 1 of the session should be an object with a "path"'),
        ({"files": [{"path": 3}]}, 'file 1 of the session should be an object with a "path"'),
        ({"files": [{"path": "/a", "role": "hyp"}]}, 'file 1 of the session has the role "hyp"'),
        ({"files": [{"path": "/a", "relative": 1}]}, '"relative" should be text.'),
        ({"files": [{"path": "/a", "score_column": 2}]}, '"score_column" should be a column'),
        ({"files": [{"path": "/a", "score_column": " "}]}, '"score_column" should be a column'),
        ({"renames": [["A"]]}, 'each of "renames" should be a pair of names ["old", "new"]'),
        ({"renames": "A=B"}, '"renames" should be a list, not the text "A=B".'),
        ({"hidden": [1]}, '"hidden" should be a list of system names'),
        ({"metric": 3}, '"metric" should be text, not the number 3.'),
        ({"metric": "meteor"}, '"metric" should be one of bleu, nist'),
        ({"settings": []}, '"settings" should be an object, not a list.'),
        (
            {"settings": {"resamples": "2000"}},
            'the setting "resamples" should be a whole number from 100 to 100,000, '
            'not the text "2000".',
        ),
        ({"settings": {"resamples": 5}}, 'setting "resamples" should be a whole number from 100'),
        ({"settings": {"level": 95}}, 'the setting "level" should be a number from 0.5 to 0.999'),
        ({"settings": {"holm": 1}}, 'the setting "holm" should be true or false, not the number'),
        ({"settings": {"unit": "word"}}, 'the setting "unit" should be one of "auto", "segment"'),
        ({"settings": {"correction": "bonferroni"}}, 'the setting "correction" should be one of'),
        ({"settings": {"metrics": ["bleu", "x"]}}, 'the setting "metrics" should be a list of'),
        ({"settings": {"case": "upper"}}, 'the setting "case" should be one of "sensitive"'),
        ({"settings": {"tokenizer": None}}, 'the setting "tokenizer" should be one of "13a"'),
        ({"settings": {"seed": -1}}, 'the setting "seed" should be a whole number from 0 to'),
    ],
)
def test_fields_of_the_wrong_type_or_value(tmp_path, fields, expected):
    message = error_of(write_json(tmp_path, {"mtgui_session": 1, **fields}))
    assert expected in message
    assert "Traceback" not in message and "KeyError" not in message


def test_settings_missing_default_unknown_ignored_and_lenient_fallback():
    settings = check_settings({"resamples": 300, "colour": "blue"})
    assert settings == {**default_settings(), "resamples": 300}
    assert "colour" not in settings
    assert check_settings({"level": 0.9})["level"] == 0.9
    lenient = check_settings({"resamples": "many", "seed": 9, "holm": "yes"}, strict=False)
    assert lenient == {**default_settings(), "seed": 9}
    assert check_settings(["garbage"], strict=False) == default_settings()
    assert check_settings({"metrics": ["ter", "bleu", "ter"]})["metrics"] == ["ter", "bleu"]


def test_sessions_of_mtgui_0_1_keep_their_holm_correction():
    assert check_settings({"holm": True})["correction"] == "holm"
    assert check_settings({"holm": False})["correction"] == "none"
    assert check_settings({"holm": True, "correction": "fdr"})["correction"] == "fdr"
    assert "holm" not in check_settings({"holm": True})


def test_a_minimal_hand_written_session_opens(tmp_path, write):
    write("ref.txt", "a\n")
    path = write_json(tmp_path, {"mtgui_session": 1, "files": [{"path": "ref.txt"}]})
    session = read_session(path)
    assert session.paths == [tmp_path / "ref.txt"]  # a relative "path" is from the session
    assert session.settings == default_settings()
    assert (session.renames, session.hidden, session.metric) == ((), frozenset(), None)


def test_session_files_are_told_apart_from_data_files(tmp_path, write):
    assert is_session_file(tmp_path / "anything.MTGUI.json")  # by name, even before it exists
    assert is_session_file(write_json(tmp_path, {"mtgui_session": 1}).rename(tmp_path / "s.json"))
    assert not is_session_file(write("report.json", '{"systems": []}'))
    assert not is_session_file(write("ref.txt", '"mtgui_session"'))


def test_the_score_column_chosen_is_saved_and_read_back(write, tmp_path):
    scores = write("scores.tsv", "system\tseg\tz\traw\nA\t1\t0.5\t70\nA\t2\t-0.5\t40\n")
    requests = [LoadRequest(scores, Role.SCORES, score_column="raw")]
    workspace = Workspace()
    for entry in run_to_end(iter_read(requests)):
        workspace = workspace.with_entry(entry)
    session = session_from_workspace(workspace, default_settings())
    assert session.files == (SessionFile(scores, Role.SCORES, "raw"),)
    saved = session_to_dict(session, tmp_path)
    assert saved["files"][0]["score_column"] == "raw"
    write_session(tmp_path / "s.mtgui.json", session)
    again = read_session(tmp_path / "s.mtgui.json")
    assert again.score_columns == {scores: "raw"}
    assert again.files[0].score_column == "raw"


def test_files_without_a_score_column_save_none():
    session = Session((SessionFile(Path("/r.sgm")),))
    assert "score_column" not in session_to_dict(session, Path("/"))["files"][0]
    assert session.score_columns == {}


def test_runs_groups_are_saved_and_an_old_session_without_them_still_opens(project):
    """Systems grouped as runs of one system come back; a session saved before runs were
    saved (no "run_groups") opens with none; a malformed group is said."""
    workspace = saved_workspace(project)
    groups = {"AB": ("A", "Beta")}
    write_session(
        project["session"], session_from_workspace(workspace, default_settings(), None, groups)
    )
    again = read_session(project["session"])
    assert dict(again.run_groups) == groups
    data = json.loads(project["session"].read_text())
    del data["run_groups"]
    project["session"].write_text(json.dumps(data))
    assert read_session(project["session"]).run_groups == ()
    data["run_groups"] = [{"name": "AB", "runs": ["A"]}]
    project["session"].write_text(json.dumps(data))
    with pytest.raises(InputError, match="run_groups"):
        read_session(project["session"])
