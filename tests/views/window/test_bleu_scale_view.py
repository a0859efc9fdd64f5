"""View > BLEU and M-BLEU on a 0-100 scale: every view changes at once, nothing runs again,
the choice is said under the tables and remembered between runs."""

from __future__ import annotations

import pytest
from gui_helpers import shoot, wait_for_result
from PySide6.QtCore import QSettings, Qt

from mtgui.app.preferences import Preferences
from mtgui.views.window.main_window import MainWindow


def _score_cell(window, system: str, metric: str) -> str:
    window.results.metric_choice.setCurrentIndex(window.results.metric_choice.findData(metric))
    model = window.results.score_model
    for row in range(model.rowCount()):
        if model.index(row, 0).data() == system:
            header = [
                model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())
            ]
            return model.index(row, header.index("Score")).data()
    raise AssertionError(f"{system} is not in the scores table")


def test_the_scale_changes_every_view_at_once(qtbot, window):
    window.load_demo()
    wait_for_result(qtbot, window)
    assert _score_cell(window, "Lumen", "bleu") == "0.8278"
    grid_before = window.result.bootstrap.grid("bleu")
    starts = []
    window.controller.analysis.run_started.connect(lambda: starts.append(1))
    window.bleu_scale_action.trigger()
    assert window.bleu_scale_action.isChecked()
    assert not starts and not window.controller.analysing
    assert _score_cell(window, "Lumen", "bleu") == "82.7849"
    assert _score_cell(window, "Lumen", "mbleu") == "83.2554"
    assert _score_cell(window, "Lumen", "nist") == "10.7113"
    assert window.result.bootstrap.grid("bleu") == grid_before
    assert "BLEU (0-100)" in window.results.made_with.text()
    assert window.results.stale.text() == ""
    window.results.metric_choice.setCurrentIndex(window.results.metric_choice.findData("bleu"))
    window.results.tabs.setCurrentWidget(window.results.histograms)
    qtbot.wait(50)
    shoot(window, "bleu-scale-100")
    low, high = window.result.bootstrap.interval("Lumen", "bleu").ci_low, 100
    assert 50 < low < high
    window.bleu_scale_action.trigger()
    assert _score_cell(window, "Lumen", "bleu") == "0.8278"
    assert "BLEU (0-100)" not in window.results.made_with.text()


def test_a_study_made_on_the_other_scale_is_said_to_be_behind(qtbot, window):
    window.load_demo()
    wait_for_result(qtbot, window)
    with qtbot.waitSignal(window.controller.studies.finished, timeout=60_000):
        window.controller.studies.start("refs", 0)
    window.bleu_scale_action.trigger()
    heard = []
    window.controller.studies.stale_changed.connect(heard.append)
    window.controller.analysis.show_staleness()
    assert heard and "BLEU on 0-1, now 0-100" in heard[-1]


@pytest.fixture
def ini(tmp_path):
    return str(tmp_path / "mtgui.ini")


def test_the_choice_is_remembered_and_survives_file_new(qtbot, ini):
    first = MainWindow(preferences=Preferences(QSettings(ini, QSettings.Format.IniFormat)))
    qtbot.addWidget(first)
    assert not first.bleu_scale_action.isChecked()
    first.bleu_scale_action.trigger()
    first.new_project()
    assert first.bleu_scale_action.isChecked()
    assert first.controller.analysis.bleu_scale == 100
    first.close()
    again = MainWindow(preferences=Preferences(QSettings(ini, QSettings.Format.IniFormat)))
    qtbot.addWidget(again)
    assert again.bleu_scale_action.isChecked()
    assert again.controller.analysis.bleu_scale == 100
    again.close()
