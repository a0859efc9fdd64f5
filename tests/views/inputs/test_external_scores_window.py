"""Scores of any metric in the window: the load dialog, a box per metric in the settings panel,
the metric chooser and the Scores and Significance views, removal, and the human study's choice
of the metric that plays the humans' part.

Two systems of three segments, scored so that every resample agrees (comet A = B + 0.1, higher
is better; metricx A = B - 2, lower is better): A is first, significantly, under both.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from gui_helpers import shoot, wait_for_result
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QWidget

from mtgui.engine.core.corpus import Role
from mtgui.io.entries import read_entry
from mtgui.io.score_choices import ScoredSystem, scores_question
from mtgui.views.inputs.scores_dialog import READ_AS_TEXT, ScoresDialog, ask_scores
from mtgui.views.studies.studies_view import STUDIES

DATA = Path(__file__).resolve().parents[2] / "io" / "data" / "external_scores"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    for name in ("ref.txt", "sysA.txt", "sysB.txt", "metricx-sysB.txt"):
        shutil.copy(DATA / name, tmp_path / name)
    rows = ["system\tline\tCOMET\tMetricX"]
    for system, shift in (("sysA", 0), ("sysB", 1)):
        rows += [
            f"{system}\t{line}\t{comet - 0.1 * shift:.2f}\t{metricx + 2 * shift}"
            for line, (comet, metricx) in enumerate(((0.8, 1.0), (0.7, 2.0), (0.9, 3.0)), 1)
        ]
    (tmp_path / "metrics.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return tmp_path


def load(qtbot, window, folder: Path, *names: str) -> None:
    window.choose_roles = lambda files: dict(files)
    window.add_files([folder / n for n in ("ref.txt", "sysA.txt", "sysB.txt", *names)])
    qtbot.waitUntil(lambda: not window.controller.loading, timeout=20_000)
    wait_for_result(qtbot, window)


def cell(view, row: int, header: str) -> str:
    """The text of a column of a row, as the (sorted) table shows it."""
    model = view.model()
    headers = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    return str(model.index(row, headers.index(header)).data())


def test_a_table_of_two_metrics_is_two_metrics_in_every_view(qtbot, window, folder):
    asked = []
    window.choose_scores = lambda question: asked.append(question) or question.defaults()
    load(qtbot, window, folder, "metrics.tsv")
    assert [question.path.name for question in asked] == ["metrics.tsv"]
    panel = window.settings_panel
    assert panel.external.names == ["comet", "metricx"]
    assert all(panel.metric_boxes[name].isChecked() for name in ("comet", "metricx"))
    assert "lower is better" in panel.metric_boxes["metricx"].toolTip()
    qtbot.waitUntil(lambda: "metricx" in window.result.bootstrap.metrics, timeout=30_000)
    wait_for_result(qtbot, window)
    results = window.results
    chooser = [results.metric_choice.itemText(i) for i in range(results.metric_choice.count())]
    assert chooser[-2:] == ["comet", "metricx"]
    for metric in ("comet", "metricx"):
        results.metric_choice.setCurrentIndex(results.metric_choice.findData(metric))
        assert [cell(results.score_table, row, "System") for row in (0, 1)] == ["sysA", "sysB"]
        assert [cell(results.score_table, row, "Rank") for row in (0, 1)] == ["1", "2"]
        assert results.grid_model.systems == ["sysA", "sysB"]
        assert results.grid_model.index(0, 1).data() == ">"
    scores = [cell(results.score_table, row, "Score") for row in (0, 1)]
    assert scores == ["2.0000", "4.0000"]  # metricx: the lower first
    shoot(window, "external-scores-metricx")


def test_removing_the_file_removes_its_metrics(qtbot, window, folder):
    window.choose_scores = lambda question: question.defaults()
    load(qtbot, window, folder, "metrics.tsv")
    window.controller.remove_file(folder / "metrics.tsv")
    qtbot.waitUntil(lambda: "comet" not in window.result.bootstrap.metrics, timeout=30_000)
    assert window.settings_panel.external.names == []
    assert "comet" not in window.settings_panel.metric_boxes
    assert window.results.metric_choice.findData("comet") == -1


def test_the_human_study_uses_the_metric_chosen(qtbot, window, folder):
    window.choose_scores = lambda question: question.defaults()
    load(qtbot, window, folder, "metrics.tsv")
    qtbot.waitUntil(lambda: "metricx" in window.result.bootstrap.metrics, timeout=30_000)
    wait_for_result(qtbot, window)
    studies = window.results.studies
    assert not studies.human_choice.isVisibleTo(studies)
    studies.kind.setCurrentIndex(list(STUDIES).index("human"))
    assert studies.human_choice.isVisibleTo(studies)
    items = [studies.human_choice.itemData(i) for i in range(studies.human_choice.count())]
    assert items == ["comet", "metricx"] and studies.human_metric() == "comet"
    studies.human_choice.setCurrentIndex(1)
    with qtbot.waitSignal(window.controller.studies.finished, timeout=60_000) as finished:
        studies.run_button.click()
    assert finished.args[0].human == "metricx"


def test_the_dialog_offers_names_directions_and_the_system(qtbot, folder):
    offer = read_entry(folder / "metrics.tsv", None).offer
    dialog = ScoresDialog(scores_question(offer, [], {}))
    qtbot.addWidget(dialog)
    assert [edit.text() for edit in dialog.name_edits] == ["comet", "metricx"]
    assert [box.isChecked() for box in dialog.lower_boxes] == [False, True]
    assert dialog.ok_button.isEnabled()
    dialog.name_edits[0].setText("bleu")
    assert not dialog.ok_button.isEnabled() and "computes itself" in dialog.problem_label.text()
    dialog.name_edits[0].setText("mqm-like")  # the direction follows the name...
    assert dialog.lower_boxes[0].isChecked() and dialog.ok_button.isEnabled()
    dialog.lower_boxes[0].click()  # ...until the user sets it
    dialog.name_edits[0].setText("metricx-2")
    assert not dialog.lower_boxes[0].isChecked()
    dialog.tick_boxes[1].setChecked(False)
    (source,) = dialog.sources()
    assert (source.column, source.metric, source.higher_is_better) == ("COMET", "metricx-2", True)

    line = read_entry(folder / "metricx-sysB.txt", None).offer
    systems = [ScoredSystem(n, n, folder / f"{n}.txt") for n in ("sysA", "sysB")]
    dialog = ScoresDialog(scores_question(line, systems, {}))
    qtbot.addWidget(dialog)
    assert dialog.system is not None and dialog.system.currentText() == "sysB"
    dialog.system.setCurrentIndex(0)
    (source,) = dialog.sources()
    assert (source.system, source.metric, source.higher_is_better) == ("sysA", "metricx", False)
    dialog.show()
    qtbot.waitExposed(dialog)
    shoot(dialog, "scores-dialog")
    dialog.reject()
    assert dialog.result() == QDialog.DialogCode.Rejected.value


def test_numbers_alone_may_be_read_as_a_translation(qtbot, folder, monkeypatch):
    line = read_entry(folder / "metricx-sysB.txt", None).offer
    dialog = ScoresDialog(scores_question(line, [], {}))
    qtbot.addWidget(dialog)
    button = dialog.read_as_button
    assert button is not None and button.isEnabled()
    actions = button.menu().actions()
    assert [a.text() for a in actions] == ["Reference", "System output", "Source"]
    actions[0].trigger()
    assert dialog.result() == READ_AS_TEXT and dialog.read_as is Role.REFERENCE

    table = read_entry(folder / "metrics.tsv", None).offer  # columns: scores, never text
    dialog = ScoresDialog(scores_question(table, [], {}))
    qtbot.addWidget(dialog)
    assert dialog.read_as_button is None

    def answer_with_system_output(self):
        self.choose_text_role(Role.SYSTEM)
        return READ_AS_TEXT

    monkeypatch.setattr(ScoresDialog, "exec", answer_with_system_output)
    assert ask_scores(QWidget(), scores_question(line, [], {})) is Role.SYSTEM
