"""Folders given instead of files (issue 13, items 13 and 25): one rule for the command line
and the desktop, and every entry left out is reported with its reason."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from mtgui.cli.main import expand_folders, main
from mtgui.io import folders
from mtgui.io.folders import HIDDEN, SPECIAL, SUBFOLDER, UNREADABLE, expand_paths, list_folder


@pytest.fixture
def ref(write) -> Path:
    return write("ref.txt", "a b\nc d\n")


def names(paths) -> list[str]:
    return [Path(p).name for p in paths]


def test_a_folder_stands_for_the_regular_files_directly_in_it(write, tmp_path):
    write("set/b.txt", "x")
    write("set/a.txt", "x")
    write("set/sub/z.txt", "x")
    write("set/.hidden/y.txt", "x")
    write("set/.dotfile", "x")
    single = write("other.txt", "x")
    expansion = expand_paths([tmp_path / "set", single])
    assert names(expansion.files) == ["a.txt", "b.txt", "other.txt"]
    (contents,) = expansion.folders
    assert [(s.path.name, s.reason) for s in contents.skipped] == [
        (".dotfile", HIDDEN),
        (".hidden", HIDDEN),
        ("sub", SUBFOLDER),
    ]
    assert expansion.errors() == []
    assert expansion.notes() == [
        f"{tmp_path / 'set'}: not read: 1 subfolder (sub). A folder is read one level deep: "
        "give a subfolder itself to read the files in it."
    ]
    assert "2 hidden entries (.dotfile, .hidden)" in expansion.notes(hidden=True)[0]


@pytest.mark.parametrize("ancestor", [".hidden", ".config/.work"])
def test_a_folder_under_a_hidden_folder_is_read_like_any_other(write, tmp_path, ancestor, ref):
    # The desktop used to skip every file with a part of its path starting with ".", the
    # folder's own ancestors included: a project under ~/.work loaded nothing, silently.
    write(f"{ancestor}/proj/sys.A.txt", "a b\nc d\n")
    write(f"{ancestor}/proj/sys.B.txt", "a x\nc d\n")
    folder = tmp_path / ancestor / "proj"
    assert names(expand_paths([folder]).files) == ["sys.A.txt", "sys.B.txt"]
    assert names(expand_folders([folder])[0]) == ["sys.A.txt", "sys.B.txt"]
    assert main(["eval", "--ref", str(ref), "--hyp", str(folder), "-b", "0"]) == 0


def test_a_hidden_folder_given_by_name_is_read(write, tmp_path):
    write(".systems/a.txt", "x")
    assert names(expand_paths([tmp_path / ".systems"]).files) == ["a.txt"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_pipes_links_to_nothing_and_link_loops_are_left_out_with_their_reason(write, tmp_path):
    folder = tmp_path / "set"
    write("set/a.txt", "x")
    os.mkfifo(folder / "pipe")
    (folder / "dangling").symlink_to(tmp_path / "nowhere")
    (folder / "loop").symlink_to(folder / "loop")
    (folder / "link.txt").symlink_to(folder / "a.txt")  # a link to a file is a file
    contents = list_folder(folder)
    assert names(contents.files) == ["a.txt", "link.txt"]
    reasons = {s.path.name: (s.reason, s.detail) for s in contents.skipped}
    assert reasons["pipe"] == (SPECIAL, "a named pipe (FIFO)")
    assert reasons["dangling"] == (UNREADABLE, "a link to nothing")
    assert reasons["loop"] == (UNREADABLE, "its path goes round a loop of symbolic links")
    note = contents.note()
    assert note is not None
    assert "2 entries that cannot be examined (dangling: a link to nothing, loop:" in note
    assert "1 entry that is not a regular file (pipe: a named pipe (FIFO))" in note


def test_the_command_line_says_what_it_left_out_of_a_folder(write, tmp_path, ref, capsys):
    write("set/sys.A.txt", "a b\nc d\n")
    write("set/old/sys.A.txt", "a b\nc d\n")
    assert main(["eval", "--ref", str(ref), "--hyp", str(tmp_path / "set"), "-b", "0"]) == 0
    error = capsys.readouterr().err
    assert error.startswith(f"mtgui: note: {tmp_path / 'set'}: not read: 1 subfolder (old)")


def test_empty_folders_and_folders_of_nothing_readable(tmp_path, ref, capsys, write):
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["eval", "--ref", str(ref), "--hyp", str(empty)]) == 2
    assert capsys.readouterr().err == f"mtgui: {empty}: this folder holds no files.\n"
    write("only/.a", "x")
    write("only/sub/b.txt", "x")
    assert main(["eval", "--ref", str(ref), "--hyp", str(tmp_path / "only")]) == 2
    assert capsys.readouterr().err.startswith(
        f"mtgui: {tmp_path / 'only'}: this folder holds no files mtgui can read: 1 hidden entry "
        "(.a); 1 subfolder (sub)"
    )


def _refuse_listing(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    """Listing ``folder`` fails as it does for a folder without read permission (root may
    read any folder, so the operating system's answer is simulated)."""
    real_scandir, real_listdir = os.scandir, os.listdir

    def refuse(real):  # type: ignore[no-untyped-def]
        def call(path=".", *args, **kwargs):  # type: ignore[no-untyped-def]
            if Path(path) == folder:
                raise PermissionError(errno.EACCES, "Permission denied", str(path))
            return real(path, *args, **kwargs)

        return call

    monkeypatch.setattr(os, "scandir", refuse(real_scandir))
    monkeypatch.setattr(os, "listdir", refuse(real_listdir))


def test_an_unreadable_folder_on_the_command_line(tmp_path, ref, capsys, monkeypatch):
    folder = tmp_path / "locked"
    folder.mkdir()
    _refuse_listing(monkeypatch, folder)
    assert main(["eval", "--ref", str(ref), "--hyp", str(folder)]) == 2
    assert capsys.readouterr().err == (
        f"mtgui: {folder}: this folder cannot be read: mtgui is not allowed to list it "
        "(permission denied).\n"
    )


def test_an_unreadable_folder_is_reported_to_the_desktop_not_dropped(tmp_path, monkeypatch):
    folder = tmp_path / "locked"
    folder.mkdir()
    _refuse_listing(monkeypatch, folder)
    expansion = expand_paths([folder])
    assert expansion.files == ()
    assert expansion.messages() == [
        f"{folder}: this folder cannot be read: mtgui is not allowed to list it (permission "
        "denied)."
    ]


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root may read any folder"
)
def test_a_folder_without_permissions(tmp_path, write):
    write("closed/a.txt", "x")
    write("unsearchable/a.txt", "x")
    closed, unsearchable = tmp_path / "closed", tmp_path / "unsearchable"
    closed.chmod(0)
    unsearchable.chmod(0o444)  # may be listed, not searched: its entries cannot be examined
    try:
        assert "permission denied" in (list_folder(closed).problem or "")
        (skipped,) = list_folder(unsearchable).skipped
        assert (skipped.reason, skipped.detail) == (UNREADABLE, "permission denied")
    finally:
        closed.chmod(0o755)
        unsearchable.chmod(0o755)


def test_a_path_that_cannot_be_examined_is_kept_for_the_reader_to_explain(tmp_path):
    long_name = tmp_path / ("x" * 300)
    nul = Path(f"{tmp_path}/a\0b")
    expansion = expand_paths([long_name, nul])
    assert expansion.files == (long_name, nul)
    assert expansion.folders == ()


def test_many_entries_are_listed_a_few_at_a_time(tmp_path, write):
    write("set/a.txt", "x")
    for number in range(8):
        (tmp_path / "set" / f"sub{number}").mkdir()
    note = list_folder(tmp_path / "set").note()
    assert note is not None
    assert "8 subfolders (sub0, sub1, sub2, sub3, sub4, ...)" in note
    assert folders._SHOW == 5
