"""``mtgui eval --html FILE`` and ``--pdf FILE``: the report to send, from the command line."""

from __future__ import annotations

import pytest

from mtgui.cli.main import main as command_line
from mtgui.launch import main

ARGS = ["eval", "--demo", "--bootstrap", "300"]


def test_html_writes_the_self_contained_report(tmp_path, capsys):
    target = tmp_path / "report.html"
    assert main([*ARGS, "--html", str(target)]) == 0
    page = target.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    for name in ("Lumen", "Ostrich", "Quill", "Tessera", "BLEU", "NIST", "M-BLEU"):
        assert name in page
    assert "bs:300|seed:12345" in page
    assert "<script" not in page
    assert "Lumen" in capsys.readouterr().out  # the tables are printed as usual


def test_pdf_writes_the_same_report_through_qt(tmp_path, monkeypatch):
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    target = tmp_path / "report.pdf"
    assert main([*ARGS, "--pdf", str(target)]) == 0
    assert target.read_bytes().startswith(b"%PDF-")


def test_without_qt_a_pdf_is_refused_before_any_work(tmp_path, capsys):
    target = tmp_path / "report.pdf"
    assert command_line([*ARGS, "--pdf", str(target)]) == 2
    assert "cannot write PDF" in capsys.readouterr().err
    assert not target.exists()


@pytest.mark.parametrize("other", ["--json", "--segments"])
def test_the_report_and_another_output_cannot_share_a_file(tmp_path, capsys, other):
    target = tmp_path / "same.out"
    assert main([*ARGS, "--html", str(target), other, str(target)]) == 2
    assert "name the same file" in capsys.readouterr().err
    assert not target.exists()


def test_an_existing_report_is_kept_without_overwrite(tmp_path, capsys):
    target = tmp_path / "report.html"
    target.write_text("mine", encoding="utf-8")
    assert main([*ARGS, "--html", str(target)]) == 2
    assert target.read_text(encoding="utf-8") == "mine"
    assert main([*ARGS, "--html", str(target), "--overwrite"]) == 0
    assert target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_the_report_names_files_by_name_and_by_full_path_with_report_paths(tmp_path):
    from mtgui.io.demo import demo_folder

    folder = str(demo_folder())
    names = tmp_path / "names.html"
    paths = tmp_path / "paths.html"
    assert main([*ARGS, "--bootstrap", "0", "--html", str(names)]) == 0
    assert main([*ARGS, "--bootstrap", "0", "--html", str(paths), "--report-paths"]) == 0
    page = names.read_text(encoding="utf-8")
    assert "reference.sgm" in page and folder not in page
    assert folder in paths.read_text(encoding="utf-8")


def test_the_report_says_a_lowercased_run_was_lowercased(tmp_path):
    target = tmp_path / "report.html"
    assert main([*ARGS, "--bootstrap", "0", "--lowercase", "--html", str(target)]) == 0
    page = target.read_text(encoding="utf-8")
    assert "<th>Case</th><td>lowercased</td>" in page and "case:lc" in page


def test_summary_prints_the_result_in_words_and_json_carries_it(tmp_path, capsys):
    import json

    target = tmp_path / "report.json"
    assert main([*ARGS, "--metrics", "bleu", "--summary", "--json", str(target)]) == 0
    out = capsys.readouterr().out
    assert "Summary in words:\nBLEU: " in out and "could not tell apart" in out
    summary = json.loads(target.read_text(encoding="utf-8"))["summary"]
    assert set(summary) == {"bleu"} and " ".join(summary["bleu"].split()) in " ".join(out.split())
    assert main([*ARGS, "--metrics", "bleu", "--bootstrap", "0", "--summary"]) == 0
    assert "Summary: none without the bootstrap" in capsys.readouterr().out
