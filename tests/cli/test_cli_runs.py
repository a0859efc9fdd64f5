"""``mtgui eval --runs``: the systems made of runs in the JSON and CSV reports, their scores
the mean of their runs' as the report gives them, and bad --runs refused with exit 2."""

from __future__ import annotations

import csv
import json
import statistics as pystats
from pathlib import Path

import pytest
from synthetic_sets import write_set

from mtgui.cli.main import main

RATES = {"a1": 0.30, "a2": 0.33, "a3": 0.28, "b1": 0.55, "b2": 0.57, "b3": 0.53, "c": 0.3}


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return write_set(tmp_path, RATES, count=40)


def test_runs_in_the_json_and_csv_reports(folder, capsys):
    code = main(
        [
            *("eval", "--ref", "ref.txt", "--hyp", "c.txt"),
            *("--runs", "A", "a1.txt", "a2.txt", "a3.txt"),
            *("--runs", "B", "b1.txt", "b2.txt", "b3.txt"),
            *("-m", "bleu,chrf", "-b", "100", "--paired-ar", "100"),
            *("--json", "report.json", "--csv", "out", "--html", "report.html"),
        ]
    )
    assert code == 0
    report = json.loads(Path("report.json").read_text())
    scores = {s["name"]: s["scores"] for s in report["systems"]}
    assert set(scores) == {"c", "A#1", "A#2", "A#3", "B#1", "B#2", "B#3"}
    systems = {s["name"]: s for s in report["runs"]["systems"]}
    assert list(systems) == ["c", "A", "B"]
    assert systems["A"]["runs"] == ["A#1", "A#2", "A#3"]
    for metric in ("bleu", "chrf"):
        runs = [scores[f"A#{i}"][metric] for i in (1, 2, 3)]
        found = systems["A"]["scores"][metric]
        assert found["runs"] == [r["score"] for r in runs]
        assert found["score"] == pytest.approx(pystats.mean(r["score"] for r in runs))
        assert found["sd_runs"] == pytest.approx(pystats.stdev(r["score"] for r in runs))
        assert found["s_sel"] == pytest.approx(pystats.mean(r["std"] for r in runs))
        assert found["ci_low"] < found["score"] < found["ci_high"]
    pair = next(
        p for p in report["runs"]["pairs"] if (p["metric"], p["x"], p["y"]) == ("bleu", "A", "B")
    )
    assert pair["verdict"] == ">" and pair["p_value_ar"] < 0.05
    no_ar = next(p for p in report["runs"]["pairs"] if (p["x"], p["y"]) == ("c", "A"))
    assert no_ar["p_value_ar"] is None  # one run against three: no strata to pair
    with open("out/runs.csv", encoding="utf-8-sig") as table:
        rows = list(csv.DictReader(table))
    assert {(r["system"], r["metric"]) for r in rows} >= {("A", "bleu"), ("B", "chrf")}
    assert "Systems over their runs" in capsys.readouterr().out
    section = Path("report.html").read_text().split('<section id="runs">')[1]
    assert '<td class="num">3</td>' in section  # the runs' numbers right-aligned
    assert "<td>&gt;</td>" in section  # the verdict aligned as text


@pytest.mark.parametrize(
    ("runs", "message"),
    [
        (["A", "a1.txt"], "two run files or more"),
        (["A#x", "a1.txt", "a2.txt"], "without '#'"),
        (["c", "a1.txt", "a2.txt"], "already a system's"),
        (["A", "a1.txt", "a2.txt", "./a1.txt"], "run 1 of --runs A and run 3 of --runs A are"),
        (["A", "a1.txt", "a2.txt", "--runs", "B", "b1.txt", "a2.txt"], "run 2 of --runs A and"),
        (["A", "c.txt", "a2.txt"], "given as system output (--hyp) and as run 1 of --runs A"),
        (["./a1.txt", "a2.txt", "a3.txt"], "this is a file"),
        (["A", "a1.txt", "a2.txt", "--runs", "A", "a3.txt", "b1.txt"], "given twice"),
    ],
)
def test_bad_runs_exit_2_with_a_message(folder, capsys, runs, message):
    argv = ["eval", "--ref", "ref.txt", "--hyp", "c.txt", "-b", "100", "--runs", *runs]
    assert main(argv) == 2
    assert message in capsys.readouterr().err
