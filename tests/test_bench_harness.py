"""The benchmarks' harness (bench/run.py, bench/record.py): figures in, JSON out, compared."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))

import record  # noqa: E402
import run  # noqa: E402


def test_record_writes_only_when_the_harness_keeps_a_record(tmp_path, monkeypatch):
    target = tmp_path / "figures.jsonl"
    monkeypatch.delenv(record.RECORD_VARIABLE, raising=False)
    record.record("alone", seconds=1.0)
    assert not target.exists()
    target.touch()
    monkeypatch.setenv(record.RECORD_VARIABLE, str(target))
    record.record("end_to_end", mtgui_s=0.5, sacrebleu_s=16.0, ratio=32.0)
    record.record("end_to_end", references=4)
    lines = [json.loads(line) for line in target.read_text(encoding="utf-8").splitlines()]
    assert lines == [
        {
            "benchmark": "end_to_end",
            "figures": {"mtgui_s": 0.5, "ratio": 32.0, "sacrebleu_s": 16.0},
        },
        {"benchmark": "end_to_end", "figures": {"references": 4}},
    ]


def result(commit: str, ratio: float) -> dict:
    figures = {"end_to_end": {"mtgui_s": 16.0 / ratio, "ratio": ratio}, "chrf_one": {"ratio": 9.0}}
    return {
        "commit": commit,
        "time": "2026-12-06T00:00:00+00:00",
        "machine": {"cores": 2, "cpu": "test"},
        "benchmarks": {"end_to_end": {"exit": 0, "figures": figures}},
    }


def test_compare_puts_two_results_side_by_side_with_their_ratio(tmp_path, capsys):
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps(result("aaa", 30.0)), encoding="utf-8")
    new.write_text(json.dumps(result("bbb", 33.0)), encoding="utf-8")
    run.compare(old, new)
    lines = capsys.readouterr().out.splitlines()
    assert "aaa" in lines[0] and "bbb" in lines[0]
    row = next(line for line in lines if line.startswith("end_to_end / ratio "))
    assert row.split()[-3:] == ["30", "33", "1.100"]
    assert any(line.startswith("end_to_end / chrf_one / ratio ") for line in lines)


def test_table_is_markdown_for_the_performance_page(tmp_path, capsys):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(result("ccc", 32.0)), encoding="utf-8")
    run.table(path)
    out = capsys.readouterr().out
    assert "Commit `ccc`" in out
    assert "| end_to_end | ratio | 32 |" in out


@pytest.mark.parametrize("name", sorted(run.BENCHMARKS))
def test_every_benchmark_of_the_harness_hands_its_figures_to_record(name):
    text = (BENCH / run.BENCHMARKS[name]).read_text(encoding="utf-8")
    assert "from record import record" in text and "record(" in text


def test_the_performance_page_shows_the_table_of_the_newest_result():
    newest = json.loads(run.newest().read_text(encoding="utf-8"))
    text = run.PAGE.read_text(encoding="utf-8")
    assert run.page_with_table(text, newest) == text, "run: python bench/run.py page"


def test_the_newest_result_is_the_one_measured_last(tmp_path):
    for name, time in [("2026-12-07-b.json", "2026-12-07T01:00"), ("2026-12-07-a.json", "09:00")]:
        stamp = time if "T" in time else f"2026-12-07T{time}"
        figures = {"benchmarks": {"end_to_end": {}}, "time": stamp}
        (tmp_path / name).write_text(json.dumps(figures), encoding="utf-8")
    assert run.newest(tmp_path).name == "2026-12-07-a.json"


def test_a_later_run_of_other_benchmarks_alone_keeps_the_pages_table(tmp_path):
    for name, time, benchmark in [("a.json", "01:00", "end_to_end"), ("b.json", "09:00", "ter")]:
        figures = {"benchmarks": {benchmark: {}}, "time": f"2026-12-07T{time}"}
        (tmp_path / name).write_text(json.dumps(figures), encoding="utf-8")
    assert run.newest(tmp_path).name == "a.json"


def test_the_page_takes_the_table_between_its_markers():
    text = f"intro\n{run.BEGIN}\nold table\n{run.END}\nrest\n"
    page = run.page_with_table(text, result("ddd", 31.0))
    assert page.startswith(f"intro\n{run.BEGIN}\n\nCommit `ddd`")
    assert "old table" not in page and "| end_to_end | ratio | 31 |" in page
    assert page.endswith(f" |\n\n{run.END}\nrest\n")
