"""Hostile inputs end ``mtgui eval`` with exit 2 and a message naming the file and line, never
an internal error (issue 32)."""

from __future__ import annotations

import os
import sys

import pytest

from mtgui.cli.main import main

REF = "".join(f"w{i} a b c d e\n" for i in range(12))
HYP_A = "".join(f"w{i} a b c d\n" for i in range(12))
HYP_B = "".join(f"w{i} a b x d e\n" for i in range(12))


@pytest.fixture
def files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name, text in (("ref.txt", REF), ("Online-A.txt", HYP_A), ("Online-B.txt", HYP_B)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def run(*extra: str) -> int:
    return main(["eval", "-r", "ref.txt", "-t", "Online-A.txt", "Online-B.txt", "-b", "0", *extra])


def failure(capsys, *extra: str) -> str:
    assert run(*extra) == 2
    err = capsys.readouterr().err
    assert "internal error" not in err
    return err


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[" * 100_000, "nested more than 100 levels deep"),
        ('{"a":' * 50_000, "nested more than 100 levels deep"),
        ('{"Online-A.txt": [{"COMET": ' + "1" * 100_001 + "}]}", "100,001 characters"),
    ],
)
def test_hostile_comet_json(files, capsys, text, words):
    (files / "c.json").write_text(text, encoding="utf-8")
    err = failure(capsys, "--scores", "c.json=cm")
    assert "c.json, line 1: " in err and words in err


def test_a_5000_digit_line_number_in_a_label_file(files, capsys):
    (files / "l.tsv").write_text("line\tgenre\n" + "5" * 5000 + "\tnews\n", encoding="utf-8")
    assert "l.tsv, line 2: the segment number has 5,000 digits" in failure(capsys, "--by", "l.tsv")


def test_a_5000_digit_segment_number_in_comet_output(files, capsys):
    text = "Online-A.txt\tSegment " + "3" * 5000 + "\tscore: 0.5\n"
    (files / "c.txt").write_text(text, encoding="utf-8")
    assert "c.txt, line 1: the segment number has 5,000 digits" in failure(
        capsys, "--scores", "c.txt=cm"
    )


def test_a_huge_line_number_is_echoed_as_written(files, capsys):
    big = "99999999999999999999999"
    (files / "s.tsv").write_text(f"system\tline\tscore\nOnline-A\t{big}\t1\n", encoding="utf-8")
    (files / "l.tsv").write_text(f"line\tgenre\n{big}\tnews\n", encoding="utf-8")
    assert f"segment number {big} is beyond" in failure(capsys, "--scores", "s.tsv")
    assert f"segment {big} is beyond" in failure(capsys, "--by", "l.tsv")


def test_two_score_files_for_one_system_and_metric(files, capsys):
    (files / "ones.txt").write_text("1\n" * 12, encoding="utf-8")
    (files / "twos.txt").write_text("2\n" * 12, encoding="utf-8")
    err = failure(capsys, "--scores", "ones.txt=Online-A:xm", "twos.txt=Online-A:xm")
    assert "both ones.txt and twos.txt give the system 'Online-A' scores named 'xm'" in err


def test_a_device_given_as_scores_is_named_for_what_it_is(files, capsys):
    err = failure(capsys, "--scores", "/dev/zero=xm")
    assert "/dev/zero: this is a character device" in err and "names no file" not in err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_fifo_given_as_scores_is_named_for_what_it_is(files, capsys):
    os.mkfifo(files / "pipe")
    err = failure(capsys, "--scores", "pipe=Online-A:xm")
    assert "pipe: this is a named pipe (FIFO)" in err


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc is Linux's")
def test_proc_self_mem_cannot_be_read_as_a_file(files, capsys):
    assert main(["eval", "-r", "/proc/self/mem", "-t", "Online-A.txt", "-b", "0"]) == 2
    err = capsys.readouterr().err
    assert "/proc/self/mem: this cannot be read as a file" in err
    assert "disk or network drive" not in err


@pytest.mark.parametrize("metric", ["chrf", "ter"])
def test_a_line_too_long_for_a_metric_is_refused_before_the_work(files, capsys, metric):
    from mtgui.engine.metrics.segment_limits import MAX_CHRF_CHARACTERS

    words = MAX_CHRF_CHARACTERS // 2 if metric == "chrf" else 11_000
    line = "ab " * (words // 3 + 1) if metric == "chrf" else "ab " * words
    (files / "long.txt").write_text(REF + line + "\n", encoding="utf-8")
    (files / "long-ref.txt").write_text(REF + line + "\n", encoding="utf-8")
    argv = ["eval", "-r", "long-ref.txt", "-t", "long.txt", "-b", "0", "-m", metric]
    assert main(argv) == 2
    err = capsys.readouterr().err
    label = {"chrf": "chrF", "ter": "TER"}[metric]
    assert f"long.txt: segment 13 is too long for {label}" in err
