"""The settings model: one AnalysisSettings, held in the application layer, and a signal."""

from __future__ import annotations

from dataclasses import replace

from mtgui.app.settings_model import SettingsModel
from mtgui.engine.analysis_settings import AnalysisSettings


def test_a_new_model_holds_the_defaults_or_the_settings_given(qtbot):
    assert SettingsModel().settings() == AnalysisSettings()
    given = AnalysisSettings(seed=3)
    assert SettingsModel(given).settings() is given


def test_setting_announces_a_change_each_time_even_to_the_same_settings(qtbot):
    model = SettingsModel()
    heard = []
    model.changed.connect(lambda: heard.append(model.settings().seed))
    model.set_settings(AnalysisSettings(seed=5))
    model.set_settings(AnalysisSettings(seed=5))  # a session reopened as it was runs again
    assert heard == [5, 5]


def test_keeping_holds_without_a_signal(qtbot):
    model = SettingsModel()
    with qtbot.assertNotEmitted(model.changed):
        model.keep(AnalysisSettings(seed=6))
    assert model.settings().seed == 6


def test_state_round_trips_and_bad_values_take_their_defaults(qtbot):
    model = SettingsModel()
    settings = replace(AnalysisSettings(), seed=11, metrics=("bleu", "comet"))
    model.set_settings(settings)
    other = SettingsModel()
    with qtbot.waitSignal(other.changed):
        other.set_state(model.state())
    assert other.settings() == settings
    other.set_state({"seed": "many", "resamples": 500})
    assert other.settings() == AnalysisSettings(resamples=500)
