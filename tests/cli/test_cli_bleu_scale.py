"""``mtgui eval --bleu-scale 100``: BLEU and M-BLEU as sacreBLEU writes them, in every output."""

from __future__ import annotations

import csv
import json

import pytest

from mtgui.cli.main import main

ARGS = ["eval", "--demo", "-m", "bleu,mbleu,nist", "-b", "200"]


def _scores(folder) -> dict[tuple[str, str], dict[str, str]]:
    with open(folder / "scores.csv", encoding="utf-8-sig") as handle:
        return {(row["system"], row["metric"]): row for row in csv.DictReader(handle)}


def test_every_output_is_on_the_scale_asked(tmp_path, capsys):
    unit, percent = tmp_path / "unit", tmp_path / "percent"
    assert main([*ARGS, "--csv", str(unit), "--json", str(unit / "r.json")]) == 0
    printed_unit = capsys.readouterr().out
    out = ["--csv", str(percent), "--json", str(percent / "r.json")]
    assert main([*ARGS, "--bleu-scale", "100", *out]) == 0
    printed = capsys.readouterr().out
    before, after = _scores(unit), _scores(percent)
    for key, row in before.items():
        factor = 100 if key[1] in ("bleu", "mbleu") else 1
        for column in ("score", "median", "ci_low", "ci_high"):
            assert float(after[key][column]) == pytest.approx(float(row[column]) * factor, rel=1e-6)
        assert after[key]["rel_ci_low"] == row["rel_ci_low"]
    report = json.loads((percent / "r.json").read_text(encoding="utf-8"))
    assert "bleu[scale=100]" in report["signature"]
    assert "82.7849" in printed and "0.8278" in printed_unit
    assert "metrics:bleu[smooth=mteval][scale=100],mbleu[scale=100],nist" in printed


def test_without_the_bootstrap_too(capsys):
    assert main(["eval", "--demo", "-m", "bleu", "-b", "0", "--bleu-scale", "100"]) == 0
    assert "82.7849" in capsys.readouterr().out


def test_other_scales_are_refused(capsys):
    with pytest.raises(SystemExit) as exit_:
        main([*ARGS, "--bleu-scale", "10"])
    assert exit_.value.code == 2
    assert "invalid choice: 10 (choose from 1, 100)" in capsys.readouterr().err
