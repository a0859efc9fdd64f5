"""The settings panel's state: what sessions and preferences save, and setting it in one step."""

from __future__ import annotations

from pathlib import Path

import pytest

from mtgui.engine.analysis_settings import AnalysisSettings
from mtgui.engine.chrf_options import LIMITS as CHRF_LIMITS
from mtgui.engine.metrics import LABELS, METRIC_NAMES, REGISTRY
from mtgui.engine.settings import (
    MAX_LEVEL,
    MAX_RESAMPLES,
    MAX_SEED,
    MIN_LEVEL,
    MIN_RESAMPLES,
    TOKENIZERS,
    BootstrapSettings,
    Case,
    MetricSettings,
    Unit,
)
from mtgui.engine.significance import Correction
from mtgui.io.session import Session, default_settings, read_session, write_session
from mtgui.views import settings_panel
from mtgui.views.settings_panel import SettingsPanel

SCREENSHOTS = Path(__file__).resolve().parents[1] / "screenshots"
CHANGED = {
    "metrics": ["bleu", "chrf", "chrf++", "ter"],
    "resamples": 500,
    "level": 0.9,
    "seed": 7,
    "unit": "document",
    "randomization": True,
    "correction": "fdr",
    "test": "wilcoxon",
    "interval": "studentized",
    "tokenizer": "intl",
    "case": "ascii",
    "chrf_char_order": 4,
    "chrf_word_order": 1,
    "chrf_beta": 3,
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
    assert panel.metric_names() == ("bleu", "chrf", "chrf++", "ter")
    assert panel.metric_settings() == MetricSettings(
        "intl", Case.ASCII, chrf_char_order=4, chrf_word_order=1, chrf_beta=3
    )
    assert panel.bootstrap_settings() == BootstrapSettings(
        resamples=500,
        level=0.9,
        seed=7,
        unit=Unit.DOCUMENT,
        ar_trials=10_000,
        correction="fdr",
        test="wilcoxon",
        interval="studentized",
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


def test_the_metric_check_boxes_come_from_the_registry(panel):
    assert tuple(panel.metric_boxes) == METRIC_NAMES
    for name, box in panel.metric_boxes.items():
        assert box.text() == REGISTRY[name].label
        assert box.toolTip() == REGISTRY[name].description
    assert settings_panel.LABELS is LABELS


def test_the_controls_offer_what_the_settings_object_takes(panel):
    assert (panel.resamples.minimum(), panel.resamples.maximum()) == (MIN_RESAMPLES, MAX_RESAMPLES)
    assert (panel.level.minimum(), panel.level.maximum()) == (MIN_LEVEL, MAX_LEVEL)
    assert (panel.seed.minimum(), panel.seed.maximum()) == (0, MAX_SEED)
    assert [panel.tokenizer.itemText(i) for i in range(panel.tokenizer.count())] == list(TOKENIZERS)
    assert {panel.unit.itemData(i) for i in range(panel.unit.count())} == {u.value for u in Unit}
    corrections = {panel.correction.itemData(i) for i in range(panel.correction.count())}
    assert corrections == {c.value for c in Correction}
    assert panel.case.count() == len(Case)
    for option, (_, low, high) in CHRF_LIMITS.items():
        assert (panel.chrf[option].minimum(), panel.chrf[option].maximum()) == (low, high)


def test_the_chrf_options_change_the_settings(panel, qtbot):
    assert panel.metric_boxes["chrf++"].text() == "chrF++"
    with qtbot.waitSignal(panel.settings_changed):
        panel.chrf["beta"].setValue(1)
    panel.chrf["word_order"].setValue(2)
    assert panel.metric_settings() == MetricSettings(chrf_word_order=2, chrf_beta=1)
    assert (panel.state()["chrf_beta"], panel.state()["chrf_word_order"]) == (1, 2)


def test_the_panel_gives_and_takes_the_settings_object(panel, qtbot):
    assert panel.settings() == AnalysisSettings()
    largest = AnalysisSettings(
        metrics=("wer", "human"),
        resamples=MAX_RESAMPLES,
        level=MAX_LEVEL,
        seed=MAX_SEED,  # beyond a QSpinBox: the panel holds every seed the rule takes
        unit=Unit.SEGMENT,
        randomization=True,
        correction=Correction.HOLM,
        tokenizer="char",
        case=Case.FULL,
        chrf_char_order=20,
        chrf_word_order=10,
        chrf_beta=10,
    )
    with qtbot.waitSignal(panel.settings_changed):
        panel.set_settings(largest)
    assert panel.settings() == largest
    assert panel.state() == largest.to_dict()
    assert panel.bootstrap_settings() == largest.bootstrap_settings()
    assert panel.metric_settings() == largest.metric_settings()
    panel.set_state({"seed": MAX_SEED + 1})  # type: ignore[typeddict-item]
    assert panel.settings() == AnalysisSettings()


def test_screenshot(panel):
    panel.set_state(CHANGED)
    panel.resize(360, 520)
    SCREENSHOTS.mkdir(exist_ok=True)
    assert panel.grab().save(str(SCREENSHOTS / "settings-panel.png"))
