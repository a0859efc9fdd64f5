"""The window's settings live in one model in the application layer: the settings panel edits
and shows it, the run reads it; the result is held by the controller alone."""

from __future__ import annotations

from gui_helpers import wait_for_result

from mtgui.app.settings_model import SettingsModel
from mtgui.engine.analysis_settings import AnalysisSettings
from mtgui.views.inputs.settings_panel import SettingsPanel
from mtgui.views.window.launch import load_demo_into


def test_the_panel_shows_its_model_and_edits_it(qtbot):
    model = SettingsModel(AnalysisSettings(seed=4, metrics=("bleu", "ter")))
    panel = SettingsPanel(model)
    qtbot.addWidget(panel)
    assert panel.seed.value() == 4 and panel.metric_names() == ("bleu", "ter")
    with qtbot.waitSignal(model.changed):
        panel.seed.setValue(8)
    assert model.settings().seed == 8
    with qtbot.waitSignal(panel.settings_changed):
        model.set_settings(AnalysisSettings(resamples=700))
    assert panel.resamples.value() == 700 and panel.seed.value() == AnalysisSettings().seed


def test_margins_being_typed_are_kept_without_a_run(qtbot):
    model = SettingsModel()
    panel = SettingsPanel(model)
    qtbot.addWidget(panel)
    with qtbot.assertNotEmitted(model.changed):
        panel.equivalence.setText("bleu=0.02")
    assert model.settings().equivalence == "bleu=0.02"


def test_the_window_runs_the_settings_of_its_model_and_holds_one_result(qtbot, window):
    assert window.controller.analysis._settings is window.settings_model
    load_demo_into(window)
    wait_for_result(qtbot, window)
    window.result = None
    assert window.results.result is None  # the views let go of it: it is held once
    window.settings_model.set_settings(AnalysisSettings(resamples=200, seed=9))
    assert window.settings_panel.seed.value() == 9
    wait_for_result(qtbot, window)
    assert window.result.bootstrap.settings.seed == 9
    assert window.results.result is window.result
    window.confirm_new = lambda: True
    window.new_action.trigger()
    assert window.result is None and window.results.result is None
    assert window.settings_model.settings() == AnalysisSettings()
