"""BLEU and M-BLEU on the 0-100 scale: switched at once without a run, the result shown stays
current, exports follow, and a study made on the other scale is said to be behind."""

from __future__ import annotations

import csv

import pytest
from test_controller import load_demo, make, wait_for_result  # noqa: F401 (fixture)

from mtgui.app.staleness import RunInputs, describe_stale


def test_the_scale_changes_the_result_shown_at_once_without_a_run(qtbot, make):  # noqa: F811
    controller, _, _, heard = make()
    load_demo(controller)
    wait_for_result(qtbot, controller)
    unit = controller.result
    starts = []
    controller.analysis.run_started.connect(lambda: starts.append(1))
    controller.analysis.set_bleu_scale(100)
    percent = controller.result
    assert not controller.analysing and not starts  # nothing ran again
    assert heard.results[-1] is percent
    for system in unit.bootstrap.systems:
        for metric, factor in (("bleu", 100), ("mbleu", 100), ("nist", 1)):
            before, after = (r.bootstrap.interval(system, metric) for r in (unit, percent))
            assert after.score == pytest.approx(before.score * factor)
            assert after.ci_high == pytest.approx(before.ci_high * factor)
    assert heard.stale == ""  # the result shown is exactly right on the new scale
    controller.analysis.set_bleu_scale(1)
    assert controller.result.bootstrap.interval("Lumen", "bleu").score == pytest.approx(
        unit.bootstrap.interval("Lumen", "bleu").score
    )
    with pytest.raises(ValueError, match="1 or 100"):
        controller.analysis.set_bleu_scale(10)


def test_a_run_finished_after_the_switch_is_shown_on_the_new_scale(qtbot, make):  # noqa: F811
    controller, _, _, heard = make()
    controller.analysis.set_bleu_scale(100)
    load_demo(controller)
    wait_for_result(qtbot, controller)
    score = controller.result.bootstrap.interval("Lumen", "bleu").score
    assert 40 < score < 100
    assert "bleu[smooth=mteval][scale=100]" in controller.result.bootstrap.signature
    assert heard.stale == ""


def test_the_csv_reports_are_on_the_scale_shown(qtbot, make, tmp_path):  # noqa: F811
    controller, _, answers, _ = make()
    load_demo(controller)
    wait_for_result(qtbot, controller)
    controller.analysis.set_bleu_scale(100)
    answers.folder = tmp_path
    controller.export()
    qtbot.waitUntil(lambda: (tmp_path / "settings.csv").exists(), timeout=10_000)
    with open(tmp_path / "scores.csv", encoding="utf-8-sig") as handle:
        table = csv.DictReader(line for line in handle if not line.startswith("#"))
        rows = [row for row in table if row["metric"] == "bleu"]
    assert rows and all(40 < float(row["score"]) < 100 for row in rows)
    settings = (tmp_path / "settings.csv").read_text(encoding="utf-8-sig")
    assert "bleu[scale=100]" in settings


def test_a_change_of_scale_is_said_in_words():
    from mtgui.io.workspace import Workspace

    before = RunInputs(Workspace(), {"metrics": ["bleu"], "bleu_scale": 1})
    after = RunInputs(before.workspace, {"metrics": ["bleu"], "bleu_scale": 100})
    text = describe_stale(before, after, "study", {}, "This study is")
    assert text.startswith("This study is from the previous settings (BLEU on 0-1, now 0-100).")
