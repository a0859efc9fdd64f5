"""Every input of a run is in one list that the output check consults (issue 32): a --by label
file is never replaced, not even with --overwrite, however the output reaches it, and no
output goes into a folder read as input."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mtgui.cli.main import main

REF = "".join(f"w{i} a b c d e\n" for i in range(12))
HYP_A = "".join(f"w{i} a b c d\n" for i in range(12))
HYP_B = "".join(f"w{i} a b x d e\n" for i in range(12))
LABELS = "line\tgenre\n" + "".join(f"{i}\t{'news' if i % 2 else 'web'}\n" for i in range(1, 13))


@pytest.fixture
def files(tmp_path, monkeypatch):
    """A reference, two systems and a label file; the working folder is tmp_path."""
    monkeypatch.chdir(tmp_path)
    for name, text in (
        ("ref.txt", REF),
        ("sys.A.txt", HYP_A),
        ("sys.B.txt", HYP_B),
        ("labels.tsv", LABELS),
    ):
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def fake_pdf(page: str, title: str) -> bytes:
    return b"%PDF-1.4 fake"


def run(*extra: str) -> int:
    argv = ["eval", "-r", "ref.txt", "-t", "sys.A.txt", "sys.B.txt", "-b", "0", *extra]
    return main(argv, make_pdf=fake_pdf)


@pytest.mark.parametrize("option", ["--json", "--pdf", "--segments", "--html", "--documents"])
def test_overwrite_never_replaces_a_by_label_file(files, capsys, option):
    assert run("--by", "labels.tsv", option, "labels.tsv", "--overwrite") == 2
    err = capsys.readouterr().err
    assert "this is one of the input files (--by labels.tsv)" in err
    assert f"{option} would replace it" in err
    assert (files / "labels.tsv").read_text(encoding="utf-8") == LABELS


@pytest.mark.parametrize("how", ["symbolic link", "hard link", "dot-dot"])
def test_a_label_file_is_protected_however_the_output_reaches_it(files, capsys, how):
    (files / "sub").mkdir()
    if how == "symbolic link":
        (files / "link.json").symlink_to(files / "labels.tsv")
        output = "link.json"
    elif how == "hard link":
        os.link(files / "labels.tsv", files / "link.json")
        output = "link.json"
    else:
        output = "sub/../labels.tsv"
    assert run("--by", "labels.tsv", "--json", output, "--overwrite") == 2
    assert "(--by labels.tsv)" in capsys.readouterr().err
    assert (files / "labels.tsv").read_text(encoding="utf-8") == LABELS


def test_the_csv_folder_never_replaces_a_label_file_in_it(files, capsys):
    (files / "out").mkdir()
    (files / "out" / "scores.csv").write_text(LABELS, encoding="utf-8")
    assert run("--by", "out/scores.csv", "--csv", "out", "--overwrite") == 2
    err = capsys.readouterr().err
    assert "(--by out/scores.csv)" in err and "--csv (scores.csv) would replace it" in err
    assert (files / "out" / "scores.csv").read_text(encoding="utf-8") == LABELS


def test_scores_files_are_protected_as_before_with_their_option(files, capsys):
    (files / "h.tsv").write_text(
        "system\tline\tscore\n" + "".join(f"A\t{i}\t0.5\n" for i in range(1, 13)),
        encoding="utf-8",
    )
    argv = ["eval", "-r", "ref.txt", "-t", "sys.A.txt", "-n", "A", "-b", "0"]
    assert main([*argv, "--scores", "h.tsv", "--json", "h.tsv", "--overwrite"]) == 2
    assert "(--scores h.tsv)" in capsys.readouterr().err


@pytest.fixture
def systems(files: Path) -> Path:
    folder = files / "sys"
    folder.mkdir()
    (folder / "a.txt").write_text(HYP_A, encoding="utf-8")
    (folder / "b.txt").write_text(HYP_B, encoding="utf-8")
    return folder


@pytest.mark.parametrize("spelling", ["sys", "sys/", "./sys/../sys", "link"])
def test_csv_never_writes_into_the_hyp_folder(files, systems, capsys, spelling):
    (files / "link").symlink_to(systems)
    code = main(["eval", "-r", "ref.txt", "-t", "sys", "-b", "0", "--csv", spelling])
    assert code == 2
    err = capsys.readouterr().err
    assert "--csv would write into the folder read as input (--hyp sys)" in err
    assert sorted(p.name for p in systems.iterdir()) == ["a.txt", "b.txt"]
    # and the folder still works as input
    assert main(["eval", "-r", "ref.txt", "-t", "sys", "-b", "0"]) == 0


@pytest.mark.parametrize("option", ["--json", "--segments", "--html"])
def test_no_file_output_goes_into_the_hyp_folder(files, systems, capsys, option):
    code = main(["eval", "-r", "ref.txt", "-t", "sys", "-b", "0", option, "sys/report.out"])
    assert code == 2
    assert f"{option} would write into the folder read as input (--hyp sys)" in (
        capsys.readouterr().err
    )
    assert sorted(p.name for p in systems.iterdir()) == ["a.txt", "b.txt"]


def test_outputs_beside_the_hyp_folder_are_fine(files, systems):
    assert main(["eval", "-r", "ref.txt", "-t", "sys", "-b", "0", "--csv", "out"]) == 0
    assert (files / "out" / "scores.csv").exists()


def test_a_study_refuses_its_inputs_folder_too(files, systems, capsys):
    argv = ["study", "size", "-r", "ref.txt", "-t", "sys", "-b", "100", "--csv", "sys"]
    assert main(argv) == 2
    assert "folder read as input (--hyp sys)" in capsys.readouterr().err


def test_a_file_in_the_hyp_folder_is_named_with_its_folder(files, systems, capsys):
    argv = ["eval", "-r", "ref.txt", "-t", "sys", "-b", "0", "--json", "out.json"]
    (files / "out.json").symlink_to(systems / "a.txt")
    assert main([*argv, "--overwrite"]) == 2
    assert "this is one of the input files (sys/a.txt in --hyp sys)" in capsys.readouterr().err
