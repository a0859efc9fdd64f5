"""The settings panel's state: what sessions and preferences save, and setting it in one step."""

from __future__ import annotations

from pathlib import Path

import pytest

from mtgui.engine.settings import BootstrapSettings, Case, MetricSettings, Unit
from mtgui.io.session import Session, default_settings, read_session, write_session
from mtgui.views.settings_panel import SettingsPanel

SCREENSHOTS = Path(__file__).resolve().parents[1] / "screenshots"
CHANGED = {
    "metrics": ["bleu", "chrf", "ter"],
    "resamples": 500,
    "level": 0.9,
    "seed": 7,
    "unit": "document",
    "randomization": True,
    "correction": "fdr",
    "tokenizer": "intl",
    "case": "ascii",
}


@pytest.fixture
def panel(qtbot):
    widget = SettingsPanel()
    qtbot.addWidget(widget)
    return widget


def test_a_fresh_panel_holds_the_default_settings(panel):
    assert panel.state() == default_settings()
    assert panel.bootstrap_settings() == BootstrapSettings()
    assert panel.metric_settings() == MetricSettings()


def test_set_state_of_state_changes_nothing(panel, qtbot):
    panel.set_state(CHANGED)
    before = panel.state()
    with qtbot.waitSignal(panel.settings_changed):
        panel.set_state(panel.state())
    assert panel.state() == before == CHANGED


def test_a_changed_state_shows_in_the_settings_the_analysis_reads(panel):
    panel.set_state(CHANGED)
    assert panel.metric_names() == ("bleu", "chrf", "ter")
    assert panel.metric_settings() == MetricSettings("intl", Case.ASCII)
    assert panel.bootstrap_settings() == BootstrapSettings(
        resamples=500, level=0.9, seed=7, unit=Unit.DOCUMENT, ar_trials=10_000, correction="fdr"
    )
    assert panel.unit.currentText() == "Documents"
    assert panel.case.currentText() == "lowercase A-Z only"
    panel.set_state(default_settings())
    assert panel.bootstrap_settings() == BootstrapSettings()
    assert not panel.metric_boxes["ter"].isChecked() and panel.metric_boxes["nist"].isChecked()


def test_set_state_emits_one_signal_however_much_changes(panel):
    emitted = []
    panel.settings_changed.connect(lambda: emitted.append(panel.state()))
    panel.set_state(CHANGED)
    assert emitted == [CHANGED]  # one signal, sent when every control holds its new value
    panel.seed.setValue(8)  # the controls still speak for themselves afterwards
    assert len(emitted) == 2 and emitted[-1]["seed"] == 8


def test_bad_or_missing_values_take_their_defaults(panel):
    panel.set_state(CHANGED)
    panel.set_state({"resamples": "lots", "seed": 3, "case": "upper"})  # type: ignore[typeddict-item]
    state = panel.state()
    assert state == {**default_settings(), "seed": 3}


def test_settings_saved_in_a_session_come_back_in_a_new_panel(panel, qtbot, tmp_path):
    panel.set_state(CHANGED)
    write_session(tmp_path / "s.mtgui.json", Session(settings=panel.state(), metric="chrf"))
    reopened = SettingsPanel()
    qtbot.addWidget(reopened)
    reopened.set_state(read_session(tmp_path / "s.mtgui.json").settings)
    assert reopened.state() == CHANGED
    assert reopened.bootstrap_settings() == panel.bootstrap_settings()
    assert reopened.metric_settings() == panel.metric_settings()


def test_screenshot(panel):
    panel.set_state(CHANGED)
    panel.resize(360, 520)
    SCREENSHOTS.mkdir(exist_ok=True)
    assert panel.grab().save(str(SCREENSHOTS / "settings-panel.png"))
