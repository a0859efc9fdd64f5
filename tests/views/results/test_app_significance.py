"""The window's words on significance: the grid's sentence, corrections, the unit used, and
relative intervals only where they mean something."""

from __future__ import annotations

import numpy as np
import pytest
from gui_helpers import shoot, wait_for_result
from metric_corpora import make_corpus
from PySide6.QtCore import Qt

from mtgui.engine.core.running import run_to_end
from mtgui.engine.inference.significance import TIE
from mtgui.engine.resampling.bootstrap import iter_bootstrap
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.engine.statistics.rows import compute_statistics
from mtgui.report.paired import paired_deltas
from mtgui.views.results.paired_view import describe
from mtgui.views.results.score_table_model import NOT_RELATIVE
from mtgui.views.window.launch import load_demo_into
from mtgui.views.window.main_window import MainWindow


@pytest.fixture
def window(qtbot):
    window = MainWindow()
    qtbot.addWidget(window)
    window.settings_panel.resamples.setValue(300)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    load_demo_into(window)
    wait_for_result(qtbot, window)
    yield window
    window.close()


def choose(combo, value: str) -> None:
    combo.setCurrentIndex(combo.findData(value))


def test_the_grid_says_how_to_read_it_and_follows_the_correction(qtbot, window):
    reading = window.results.grid_reading.text()
    assert reading.startswith("Row against column: > (blue) the row system is significantly")
    # four systems in a fresh window: max-T is suggested, and the family said in words
    assert window.settings_panel.correction.currentData() == "maxt"
    assert "after the max-T correction (Westfall-Young) for the 6 pairs of this metric" in reading
    assert "(one family per metric)" in reading
    assert "On this test set, differences smaller than about" in reading
    assert "A cluster ends only where every system above" in window.results.clusters.text()
    assert "300 resamples of segments" in window.statusBar().currentMessage()
    assert "See the note above the views." in window.statusBar().currentMessage()
    assert window.results.notes.text().startswith(
        "Note: Single segments were resampled: 6 documents"
    )
    window.result = None
    choose(window.settings_panel.correction, "holm")
    wait_for_result(qtbot, window)
    assert window.result.bootstrap.settings.correction == "holm"
    assert (
        "after Holm's correction for the 6 pairs of this metric"
        in window.results.grid_reading.text()
    )
    tip = window.results.grid_model.index(0, 2).data(Qt.ItemDataRole.ToolTipRole)
    assert "p-value after Holm's correction" in tip and "(the verdict follows it)" in tip
    window.results.tabs.setCurrentWidget(window.results.grid_page)
    shoot(window, "main-window-significance-holm-demo")


def test_documents_are_resampled_when_asked_and_the_status_line_says_so(qtbot, window):
    window.result = None
    choose(window.settings_panel.unit, "document")
    wait_for_result(qtbot, window)
    assert window.result.bootstrap.settings.unit == "document"
    assert "300 resamples of documents" in window.statusBar().currentMessage()
    assert "too few for that to be reliable" in window.results.notes.text()


def test_the_paired_view_shows_the_interval_that_agrees_with_the_corrected_verdict():
    """Two equal good systems and two weaker ones: each good-weak pair has p of about 0.01,
    significant on its own but not after Holm (see tests/engine/test_significance.py)."""
    refs = [[f"w{i} a b c d e f g h" for i in range(60)]]
    good = [f"w{i} a b c d e f g h" for i in range(60)]
    weak = [f"w{i} a b c x y z q" if i < 5 else good[i] for i in range(60)]
    stats = compute_statistics(make_corpus(refs, A=good, B=good, C=weak, D=weak), ("bleu",))
    settings = BootstrapSettings(resamples=1000, unit="segment", correction="holm")
    result = run_to_end(iter_bootstrap(stats, settings))
    deltas = paired_deltas(result, "bleu", "A", "C", higher_is_better=True)
    pair = deltas.comparison
    assert pair.verdict == TIE and pair.ci_low <= 0 <= pair.ci_high
    assert pair.ci_low_uncorrected is not None and pair.ci_low_uncorrected > 0
    text = describe(deltas, "BLEU")
    assert "<b>A is not distinguishable from C</b>" in text
    assert "after Holm's correction for the 6 pairs of this metric" in text
    assert "(contains 0)" in text and "The pair's own 95% interval: [+" in text
    assert "p-value after Holm's correction:" in text
    assert "Differences smaller than about" in text and "(an estimate)" in text


def test_human_scores_leave_the_relative_columns_empty_and_say_why(qtbot, window, tmp_path):
    rng = np.random.default_rng(5)
    lines = ["system\tline\tz"] + [
        f"{system}\t{line}\t{rng.normal(mean, 0.5):.3f}"
        for system, mean in {"Lumen": 0.05, "Quill": -0.02, "Tessera": 0.0, "Ostrich": -0.3}.items()
        for line in range(1, 96)
    ]
    scores = tmp_path / "human.tsv"
    scores.write_text("\n".join(lines) + "\n", encoding="utf-8")
    window.add_files([scores])
    window.result = None
    window.settings_panel.metric_boxes["human"].setChecked(True)
    wait_for_result(qtbot, window)
    window.results.metric_choice.setCurrentIndex(window.results.metric_choice.findData("human"))
    model = window.results.score_model
    header = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    for column in ("Rel. low", "Rel. high", "RSD"):
        cell = model.index(0, header.index(column))
        assert cell.data() == "" and cell.data(Qt.ItemDataRole.ToolTipRole) == NOT_RELATIVE
    assert model.index(0, header.index("CI low")).data() not in ("", "-")
    window.results.tabs.setCurrentWidget(window.results.score_table)
    shoot(window, "main-window-scores-human-demo")
