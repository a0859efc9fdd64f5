"""The settings panel's state: what sessions and preferences save, and setting it in one step."""

from __future__ import annotations

from pathlib import Path

import pytest

from mtgui.engine.analysis_settings import AnalysisSettings
from mtgui.engine.inference.significance import Correction
from mtgui.engine.metrics import LABELS, METRIC_NAMES, REGISTRY
from mtgui.engine.metrics.chrf.options import LIMITS as CHRF_LIMITS
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.resampling.settings import (
    MAX_LEVEL,
    MAX_RESAMPLES,
    MAX_SEED,
    MIN_LEVEL,
    MIN_RESAMPLES,
    BootstrapSettings,
    Unit,
)
from mtgui.engine.text.settings import TOKENIZERS, Case
from mtgui.io.session import Session, default_settings, read_session, write_session
from mtgui.views.inputs import settings_panel
from mtgui.views.inputs.settings_panel import SettingsPanel

SCREENSHOTS = Path(__file__).resolve().parents[2] / "screenshots"
CHANGED = {
    "metrics": ["bleu", "chrf", "chrf++", "ter"],
    "resamples": 500,
    "level": 0.9,
    "seed": 7,
    "unit": "document",
    "randomization": True,
    "correction": "fdr",
    "family": "all",
    "equivalence": "bleu=0.01, chrf=0.5",
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
        family="all",
        equivalence=(("bleu", 0.01), ("chrf", 0.5)),
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


SACREBLEU_CHANGED = {
    "bleu_smooth_method": "add-k",
    "bleu_smooth_value": 2.5,
    "bleu_max_order": 6,
    "bleu_effective_order": True,
    "chrf_whitespace": True,
    "chrf_eps_smoothing": True,
    "ter_normalized": True,
    "ter_no_punct": True,
    "ter_asian_support": True,
    "ter_case_sensitive": True,
    "empty_refs": "empty",
}


def test_the_advanced_part_holds_sacrebleus_options(panel, qtbot):
    """Folded away at first; its title counts the options changed, and every option goes to
    the settings, a session's state and back."""
    advanced = panel.advanced
    assert not advanced.body.isVisibleTo(panel)
    assert advanced.title.text() == "Advanced: sacreBLEU"
    with qtbot.waitSignal(panel.settings_changed):
        panel.set_state({**CHANGED, **SACREBLEU_CHANGED})
    assert panel.metric_settings() == MetricSettings(
        "intl", Case.ASCII, chrf_char_order=4, chrf_word_order=1, chrf_beta=3, **SACREBLEU_CHANGED
    )
    assert panel.state() == {**CHANGED, **SACREBLEU_CHANGED}
    assert advanced.title.text() == "Advanced: sacreBLEU (11 changed)"
    advanced.title.click()
    assert advanced.body.isVisibleTo(panel)


def test_the_smoothing_value_is_the_methods_default_until_set(panel, qtbot):
    advanced = panel.advanced
    assert not advanced.smooth_value.isEnabled()  # mteval takes no value
    with qtbot.waitSignal(panel.settings_changed):
        advanced.smooth_method.setCurrentText("floor")
    assert advanced.smooth_value.isEnabled()
    assert advanced.smooth_value.text() == "default"
    assert panel.metric_settings() == MetricSettings(bleu_smooth_method="floor")
    assert panel.state()["bleu_smooth_method"] == "floor"
    assert "bleu_smooth_value" not in panel.state()
    advanced.smooth_value.stepUp()  # from "default" to 0
    assert panel.settings().bleu_smooth_value == 0.0
    advanced.flags["ter_no_punct"].setChecked(True)
    assert panel.metric_settings().ter_no_punct
    assert advanced.title.text() == "Advanced: sacreBLEU (3 changed)"


def test_screenshot_advanced(panel):
    panel.set_state({**CHANGED, **SACREBLEU_CHANGED})
    panel.advanced.title.click()
    panel.resize(380, 760)
    SCREENSHOTS.mkdir(exist_ok=True)
    assert panel.grab().save(str(SCREENSHOTS / "settings-panel-advanced.png"))
