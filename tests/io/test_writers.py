"""Writing outputs (the application's export and session files use these too): atomic, with
the mode of a plain write, into devices and pipes as they are, never over an input, and every
problem an InputError."""

from __future__ import annotations

import csv
import io
import os
import socket
import stat
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtgui.engine.core.errors import InputError
from mtgui.io.outputs import OutputPlan
from mtgui.io.temporaries import (
    PENDING,
    Temporary,
    discard_pending,
    is_temporary,
    temporary_name,
)
from mtgui.io.writers import check_writable, write_bytes_atomic, write_text_atomic
from mtgui.report.files import write_reports


@pytest.fixture
def umask_022():
    old = os.umask(0o022)
    yield
    os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_file_gets_the_mode_of_a_plain_write(tmp_path, umask_022):
    write_bytes_atomic(tmp_path / "plot.png", b"png")
    write_text_atomic(tmp_path / "table.csv", "a,b\n", bom=True)
    assert mode(tmp_path / "plot.png") == mode(tmp_path / "table.csv") == 0o644
    assert (tmp_path / "table.csv").read_bytes() == b"\xef\xbb\xbfa,b\n"


def test_a_replaced_file_keeps_its_mode(tmp_path, umask_022):
    path = tmp_path / "session.mtgui.json"
    path.write_text("old", encoding="utf-8")
    path.chmod(0o600)
    write_text_atomic(path, "new")
    assert path.read_text(encoding="utf-8") == "new" and mode(path) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["session.mtgui.json"]


def test_a_named_pipe_is_written_into(tmp_path):
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    reader = os.open(pipe, os.O_RDONLY | os.O_NONBLOCK)
    try:
        check_writable(pipe, overwrite=False)  # nothing would be replaced
        write_bytes_atomic(pipe, b"through")
        assert os.read(reader, 100) == b"through"
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(os.lstat(pipe).st_mode)


def test_a_link_is_followed_and_kept(tmp_path):
    (tmp_path / "real.csv").write_text("old", encoding="utf-8")
    (tmp_path / "link.csv").symlink_to("real.csv")
    write_text_atomic(tmp_path / "link.csv", "new")
    assert os.readlink(tmp_path / "link.csv") == "real.csv"
    assert (tmp_path / "real.csv").read_text(encoding="utf-8") == "new"


def test_special_files_are_refused(tmp_path):
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(tmp_path / "sock"))
        with pytest.raises(InputError, match="this is a socket"):
            write_bytes_atomic(tmp_path / "sock", b"x")
    finally:
        server.close()
    with pytest.raises(InputError, match="this is a folder"):
        check_writable(tmp_path, overwrite=True)


def test_problems_are_input_errors_that_name_the_path(tmp_path):
    (tmp_path / "file").write_text("x", encoding="utf-8")
    cases = [
        (tmp_path / ("x" * 300), "the name is too long for this system"),
        (tmp_path / "file" / "out.json", "a part of this path is a file, not a folder"),
        (tmp_path / "missing" / "out.json", "the folder to write into does not exist"),
        (tmp_path / "file", "the file already exists"),
    ]
    for path, message in cases:
        with pytest.raises(InputError, match=message) as caught:
            check_writable(path, overwrite=False)
        assert caught.value.path == path


def test_an_input_is_refused_by_device_and_inode(tmp_path):
    source = tmp_path / "ref.txt"
    source.write_text("x", encoding="utf-8")
    os.link(source, tmp_path / "hard.txt")
    (tmp_path / "soft.txt").symlink_to(source)
    for path in ("hard.txt", "soft.txt", "sub/../ref.txt"):
        (tmp_path / "sub").mkdir(exist_ok=True)
        with pytest.raises(InputError, match="one of the input files"):
            check_writable(tmp_path / path, overwrite=True, inputs=[source])


def test_temporary_names_are_recognisable_and_fit(tmp_path):
    name = temporary_name("report.json", 4242)
    assert name == ".report.json.mtgui-4242.tmp" and is_temporary(name)
    assert is_temporary(temporary_name("é" * 200, 4242, attempt=3))
    assert len(temporary_name("é" * 200, 4242, attempt=3).encode()) <= 255
    assert not is_temporary(".report.json.tmp")


def test_discard_pending_removes_temporaries_and_empty_folders(tmp_path):
    empty, full = tmp_path / "empty", tmp_path / "full"
    empty.mkdir()
    full.mkdir()
    (full / "scores.csv").write_text("x", encoding="utf-8")
    PENDING.add_folder(str(empty))
    PENDING.add_folder(str(full))
    temporary = Temporary(tmp_path / "out.json")
    os.close(temporary.fd)
    discard_pending()
    assert not temporary.path.exists() and not empty.exists() and full.exists()
    assert PENDING.files == set() and PENDING.folders == []


def test_write_reports_checks_every_file_before_writing_any(tmp_path):
    (tmp_path / "pairs.csv").write_text("keep", encoding="utf-8")
    tables = {"scores.csv": (["a"], [[1]]), "pairs.csv": (["b"], [[2]])}
    with pytest.raises(InputError, match=r"pairs\.csv: the file already exists"):
        write_reports(tmp_path, tables, overwrite=False)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pairs.csv"]
    written = write_reports(tmp_path / "new", tables, overwrite=False)
    assert [p.name for p in written] == ["scores.csv", "pairs.csv"]


def test_a_plan_refuses_one_file_named_twice(tmp_path):
    (tmp_path / "link").symlink_to(tmp_path)
    plan = OutputPlan(overwrite=True)
    plan.add_file("--json", tmp_path / "out")
    with pytest.raises(InputError, match="--json and --segments name the same file"):
        plan.add_file("--segments", tmp_path / "link" / "out")
    plan.add_file("--other", "-")
    with pytest.raises(InputError, match="both ask for standard output"):
        plan.add_file("--more", "-")


def test_a_folder_made_by_a_failed_run_is_removed(tmp_path):
    plan = OutputPlan(overwrite=False)
    plan.add_folder("--csv", tmp_path / "reports", ["scores.csv", "pairs.csv"])
    plan.prepare()
    assert not (tmp_path / "reports").exists()  # made and removed: it can be made
    plan.write("--csv/scores.csv", "x")
    assert (tmp_path / "reports" / "scores.csv").exists()
    plan.close()
    assert (tmp_path / "reports").exists()
    failed = OutputPlan(overwrite=False)
    failed.add_folder("--csv", tmp_path / "other", ["scores.csv"])
    failed.prepare()
    failed.close()
    assert not (tmp_path / "other").exists()


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        ('=HYPERLINK("http://x","y")', '\'=HYPERLINK("http://x","y")'),
        ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"),
        ("-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("-0.25", "-0.25"),
        ("+1.2%", "+1.2%"),
        ("=", "="),
        ("-", "-"),
        ("sys-A", "sys-A"),
        (-0.5, -0.5),
    ],
)
def test_csv_cells_that_a_spreadsheet_would_run_are_made_inert(cell, written):
    from mtgui.io.writers import inert_cell

    assert inert_cell(cell) == written


@settings(max_examples=60, deadline=None, database=None, derandomize=True)
@given(st.text(min_size=2))
def test_no_csv_text_cell_begins_a_formula(text):
    """Whatever a name is, its cell is either plain, a number, or begins with a quote."""
    from mtgui.io.writers import csv_text

    line = csv_text(["h"], [[text]]).split("\n", 1)[1]
    cell = next(csv.reader(io.StringIO(line)))[0] if line.strip("\n") else text
    if cell.startswith(("=", "@", "\t", "\r")):
        pytest.fail(f"{text!r} is written as a formula")
    if cell.startswith(("+", "-")):
        assert set(cell) <= set("0123456789.,%eE+-\N{MINUS SIGN}\N{PLUS-MINUS SIGN} ")
