"""``mtgui eval`` with empty reference lines (issue 36, point 4): a note and nrefs 'var' in the
JSON, a segment without any reference refused with exit 2, and --empty-refs empty."""

from __future__ import annotations

import json

from mtgui.cli.main import main


def _write(folder, name, lines):
    (folder / name).write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_missing_references_on_the_command_line(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path, "r1.txt", ["a b c d e f", "", "x y z"])
    _write(tmp_path, "r2.txt", ["a b c", "u v", ""])
    _write(tmp_path, "hyp.txt", ["a b", "u v", "x y"])
    args = ["eval", "-r", "r1.txt", "r2.txt", "-t", "hyp.txt", "-m", "bleu,chrf", "-b", "0"]
    assert main([*args, "--json", "-"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["notes"][0].startswith("2 segments have fewer than 2 references")
    assert report["settings"]["metric_options"]["chrf"]["sacrebleu_signature"].startswith(
        "nrefs:var|"
    )
    _write(tmp_path, "r2.txt", ["a b c", "", ""])
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "Line 2 has no reference: it is empty in r1.txt and r2.txt" in err
    assert "Traceback" not in err
    assert main([*args, "--empty-refs", "empty", "--json", "-"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert not any("fewer than" in note for note in report["notes"])
    assert report["settings"]["empty_refs"] == "empty"
    assert "empty-refs:empty" in report["settings"]["signature"]
