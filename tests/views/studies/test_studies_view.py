"""The Studies tab driven as a user would: choose a study, run it, read its table, export."""

from __future__ import annotations

import csv
from xml.etree import ElementTree

import numpy as np
import pytest
from gui_helpers import shoot, wait_for_result
from PySide6.QtCore import Qt

from mtgui._version import __version__
from mtgui.views.studies.studies_view import STUDIES
from mtgui.views.studies.study_columns import COLUMN_TIPS
from mtgui.views.window.launch import load_demo_into
from mtgui.views.window.main_window import MainWindow


@pytest.fixture
def window(qtbot):
    window = MainWindow()
    qtbot.addWidget(window)
    window.settings_panel.resamples.setValue(200)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    load_demo_into(window)
    wait_for_result(qtbot, window)
    window.results.tabs.setCurrentWidget(window.results.studies)
    yield window
    window.close()


def run_study(qtbot, window, kind: str, repeats: int = 3):
    studies = window.results.studies
    studies.kind.setCurrentIndex(list(STUDIES).index(kind))
    studies.repeats.setValue(repeats)
    with qtbot.waitSignal(window.controller.studies.finished, timeout=120_000):
        studies.run_button.click()
    return studies


def test_the_size_study_runs_plots_and_tabulates(qtbot, window, tmp_path):
    window.results.studies.plot_exporter.ask_path = lambda: tmp_path / "before.svg"
    window.results.studies.export_plots()  # no study yet: nothing to save
    assert not (tmp_path / "before.svg").exists()
    studies = run_study(qtbot, window, "size")
    study = studies.study
    assert study.repeats_done == 3
    assert set(study.systems) == {"Lumen", "Quill", "Tessera", "Ostrich"}
    assert studies.table_choice.currentData() == "size.csv"
    header = studies.table_model.header
    assert {"System", "Metric", "Share of test set"} <= set(header)
    assert studies.table_model.rowCount() == len(study.rows) == 4 * len(study.metrics) * 10
    assert len(studies.canvas.items) == 2  # score by size, CI width by size
    assert "doubling" in studies.summary.toPlainText().lower()
    shoot(window, "studies-size-demo")
    every_table_has_a_tooltip_on_every_column(studies)
    studies.table_choice.setCurrentIndex(0)
    studies.choose_folder = lambda: tmp_path
    with qtbot.waitSignal(studies.status_changed) as said:
        studies.export_tables()
    assert said.args == [f"Wrote 5 CSV files to {tmp_path}."] and studies.status.isVisible()
    assert studies.status.text() == said.args[0]
    with (tmp_path / "size.csv").open(encoding="utf-8-sig", newline="") as handle:
        lines = handle.readlines()
    assert lines[:2] == ["# mtgui " + __version__ + "\n", "# Test-set size study\n"]
    assert lines[2] == f"# Signature: {study.signature}\n"
    assert len(list(csv.DictReader(lines[3:]))) == len(study.rows)
    studies.plot_exporter.ask_path = lambda: tmp_path / "size.svg"
    with qtbot.waitSignal(studies.exported) as written:
        studies.export_plots()
    assert written.args == [tmp_path / "size.svg"]
    assert studies.status.text() == f"Wrote the 2 plots to {tmp_path / 'size.svg'}."
    assert ElementTree.parse(tmp_path / "size.svg").getroot().tag.endswith("svg")
    studies.plot_exporter.ask_path = lambda: tmp_path / "size.png"
    (menu_action,) = studies.plots.scene().contextMenu  # right-click on a plot
    menu_action.trigger()
    assert (tmp_path / "size.png").read_bytes()[:4] == b"\x89PNG"
    asked = []
    studies.confirm_overwrite = lambda existing: asked.append(len(existing)) or False
    before = (tmp_path / "size.csv").stat().st_mtime_ns
    studies.export_tables()  # exists now: asked, refused, nothing replaced
    assert asked and (tmp_path / "size.csv").stat().st_mtime_ns == before


def every_table_has_a_tooltip_on_every_column(studies) -> None:
    """Show each of the study's tables and check each column's header tooltip."""
    model = studies.table_model
    for index in range(studies.table_choice.count()):
        studies.table_choice.setCurrentIndex(index)
        for column in range(model.columnCount()):
            tip = model.headerData(column, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
            assert tip and tip.endswith("."), (studies.table_choice.currentText(), column)


def test_the_references_and_resamples_studies_run(qtbot, window):
    studies = run_study(qtbot, window, "refs", repeats=2)
    assert [len(s) for s in studies.study.subsets] == [1, 1, 2]  # refs A, B, then both
    every_table_has_a_tooltip_on_every_column(studies)
    shoot(window, "studies-refs-demo")
    studies = run_study(qtbot, window, "resamples")
    assert {row.resamples for row in studies.study.rows} == set(studies.study.settings.sizes)
    assert studies.table_model.rowCount() > 0
    every_table_has_a_tooltip_on_every_column(studies)
    shoot(window, "studies-resamples-demo")


def test_without_human_scores_the_agreement_study_says_what_to_do(qtbot, window):
    studies = window.results.studies
    studies.kind.setCurrentIndex(list(STUDIES).index("human"))
    studies.run_button.click()
    assert "human scores" in studies.message.text()
    assert not window.controller.studying


def test_a_running_study_moves_its_progress_bar_and_says_when_it_finished(qtbot, window):
    studies = window.results.studies
    assert studies.placeholder.isVisible() and "Press Run study" in studies.placeholder.text()
    assert not studies.progress.isVisible()  # an empty bar looked like a field to type in
    studies.kind.setCurrentIndex(list(STUDIES).index("size"))
    studies.repeats.setValue(20)
    values = []
    window.controller.studies.progress_changed.connect(
        lambda _: values.append(studies.progress.value())  # after the view has shown it
    )
    with qtbot.waitSignal(studies.status_changed, timeout=120_000) as said:
        studies.run_button.click()
        assert studies.progress.maximum() == 0  # busy until the first step is done
    assert len(values) >= 3 and values == sorted(values) and values[-1] > values[0]
    assert said.args[0].startswith("Finished in ") and studies.status.text() == said.args[0]
    assert studies.progress.value() == studies.progress.maximum()
    assert studies.progress.isVisible()
    assert studies.plots.isVisible() and not studies.placeholder.isVisible()


def test_a_study_can_be_cancelled(qtbot, window):
    studies = window.results.studies
    studies.kind.setCurrentIndex(list(STUDIES).index("size"))
    studies.repeats.setValue(1000)
    studies.run_button.click()
    qtbot.waitUntil(lambda: studies.cancel_button.isEnabled(), timeout=5000)
    studies.cancel_button.click()
    assert not window.controller.studying and studies.run_button.isEnabled()
    assert studies.status.text().startswith("Stopped after ")


def test_the_agreement_study_runs_with_human_scores(qtbot, window, tmp_path):
    rng = np.random.default_rng(3)
    quality = {"Lumen": 0.8, "Quill": 0.75, "Tessera": 0.5, "Ostrich": 0.2}
    lines = ["system\tline\tscore"] + [
        f"{system}\t{line}\t{mean + rng.normal(0, 0.1):.3f}"
        for system, mean in quality.items()
        for line in range(1, 96)
    ]
    scores = tmp_path / "human.tsv"
    scores.write_text("\n".join(lines) + "\n", encoding="utf-8")
    window.result = None
    window.add_files([scores])  # a scores table ticks Human as it loads
    qtbot.waitUntil(
        lambda: (
            window.result is not None
            and "human" in window.result.bootstrap.metrics
            and not window.controller.analysing
        ),
        timeout=30_000,
    )
    assert window.settings_panel.metric_boxes["human"].isChecked()
    studies = run_study(qtbot, window, "human")
    bleu = studies.study.correlation("bleu")
    assert bleu.systems == 4 and bleu.spearman == pytest.approx(1.0)
    assert studies.table_choice.currentData() == "correlations.csv"
    assert studies.table_choice.currentText() == "Correlations with humans"
    model = studies.table_model
    column = model.header.index("Better when")
    assert {model.index(r, column).data() for r in range(model.rowCount())} == {"higher"}
    assert {model.index(r, 0).data() for r in range(model.rowCount())} == {
        "BLEU",
        "NIST",
        "M-BLEU",
    }
    assert len(studies.canvas.items) == 1
    shoot(window, "studies-human-demo")
    every_table_has_a_tooltip_on_every_column(studies)
    # Every column of the human study's own tables has a tip of its own (only the grid's
    # system columns share one).
    for name, (header, _) in studies._tables.items():
        if name != "grid-human.csv":
            assert set(header) <= set(COLUMN_TIPS), name
    studies.table_choice.setCurrentIndex(studies.table_choice.findData("correlation-tests.csv"))
    assert studies.table_model.header[:2] == ["Metric x", "Metric y"]
    assert studies.table_model.rowCount() == 3  # BLEU, NIST, M-BLEU: three pairs
    studies.table_choice.setCurrentIndex(studies.table_choice.findData("accuracy.csv"))
    assert studies.table_choice.currentText() == "Pairwise accuracy and clusters"
    header = studies.table_model.header
    assert header[:4] == ["Metric", "Cluster", "Systems", "Pairwise accuracy"]
    assert studies.table_model.rowCount() == 3
    studies.table_choice.setCurrentIndex(studies.table_choice.findData("accuracy-tests.csv"))
    assert studies.table_model.header[-1] == "Verdict" and studies.table_model.rowCount() == 3


def test_the_table_keeps_the_study_order_and_the_window_hears_the_study(qtbot, window):
    studies = run_study(qtbot, window, "refs", repeats=0)
    header = studies.table.horizontalHeader()
    assert header.sortIndicatorSection() == -1 or not header.isSortIndicatorShown()
    model = studies.table.model()
    first = [model.index(row, 0).data() for row in range(model.rowCount())]
    source = [studies.table_model.index(row, 0).data() for row in range(model.rowCount())]
    assert first == source  # the study's own order, until a header is clicked
    assert window.statusBar().currentMessage().startswith("Finished in ")
