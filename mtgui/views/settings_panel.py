"""The analysis settings beside the files: metrics, resampling, tokenizer, case, tests.

Every control has a one-sentence tooltip; every change emits ``settings_changed`` so that the
window can run the analysis again. ``state()`` and ``set_state()`` give and take the controls as
the plain dict that sessions and the remembered preferences store.
"""

from __future__ import annotations

from PySide6.QtCore import QSignalBlocker, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from mtgui.engine.metrics import DEFAULT_METRICS, METRIC_NAMES
from mtgui.engine.settings import (
    DEFAULT_LEVEL,
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    MAX_LEVEL,
    MAX_RESAMPLES,
    MIN_DOCUMENTS,
    MIN_RESAMPLES,
    TOKENIZERS,
    BootstrapSettings,
    Case,
    MetricSettings,
    Unit,
)
from mtgui.engine.significance import Correction
from mtgui.io.session import MAX_SEED, AnalysisSettings, check_settings

METRIC_TIPS = {
    "bleu": "BLEU (Papineni et al. 2002): n-gram precision with a brevity penalty, as mteval.",
    "nist": "NIST: n-gram matches weighted by how informative they are, as mteval.",
    "mbleu": "M-BLEU (Zhang & Vogel 2004): BLEU with the arithmetic mean of the precisions.",
    "chrf": "chrF2: character n-gram F-score, as sacreBLEU computes it.",
    "ter": "TER: edits needed to turn the output into a reference (lower is better).",
    "wer": "WER: word edit distance to the closest reference (lower is better).",
    "human": "The mean of the per-segment scores you loaded (e.g. human judgments).",
}
LABELS = {
    "bleu": "BLEU",
    "nist": "NIST",
    "mbleu": "M-BLEU",
    "chrf": "chrF",
    "ter": "TER",
    "wer": "WER",
    "human": "Human",
}
_CASES = (Case.SENSITIVE, Case.FULL, Case.ASCII)  # the order of the case choices
_UNITS = (
    ("Automatic", Unit.AUTO.value),
    ("Documents", Unit.DOCUMENT.value),
    ("Segments", Unit.SEGMENT.value),
)
_CORRECTIONS = (
    ("None", Correction.NONE.value),
    ("Holm", Correction.HOLM.value),
    ("Benjamini-Hochberg", Correction.FDR.value),
)
_AR_TRIALS = 10_000


class SettingsPanel(QWidget):
    """The controls of one analysis."""

    settings_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.addWidget(self._metrics_box())
        layout.addWidget(self._resampling_box())
        layout.addWidget(self._text_box())
        layout.addStretch(1)

    def _metrics_box(self) -> QGroupBox:
        box = QGroupBox("Metrics")
        grid = QGridLayout(box)
        self.metric_boxes: dict[str, QCheckBox] = {}
        for number, name in enumerate(METRIC_NAMES):
            check = QCheckBox(LABELS[name])
            check.setChecked(name in DEFAULT_METRICS)
            check.setToolTip(METRIC_TIPS[name])
            check.toggled.connect(self.settings_changed)
            grid.addWidget(check, number // 3, number % 3)
            self.metric_boxes[name] = check
        return box

    def _resampling_box(self) -> QGroupBox:
        box = QGroupBox("Confidence and significance")
        form = QFormLayout(box)
        self.resamples = _spin(MIN_RESAMPLES, MAX_RESAMPLES, DEFAULT_RESAMPLES, 100)
        self.resamples.setToolTip(
            "How many times the test set is resampled; 2,000 is the "
            "papers' choice, more gives steadier intervals."
        )
        self.level = QDoubleSpinBox()
        self.level.setRange(0.5, MAX_LEVEL)
        self.level.setDecimals(3)
        self.level.setSingleStep(0.01)
        self.level.setValue(DEFAULT_LEVEL)
        self.level.setToolTip(
            "How sure the intervals and the grid's verdicts are: 0.95 means "
            "95% confidence intervals."
        )
        self.seed = _spin(0, MAX_SEED, DEFAULT_SEED, 1)
        self.seed.setToolTip("The random seed: the same seed gives the same numbers again.")
        self.unit = _choice(_UNITS)
        self.unit.setToolTip(
            "What is resampled. Automatic: whole documents when the test set has "
            f"{MIN_DOCUMENTS} or more (sentences of one document are alike, and resampling "
            "them one by one makes the intervals too narrow), else single segments. The "
            "status line says which was used."
        )
        self.randomization = QCheckBox("Approximate randomization")
        self.randomization.setToolTip(
            "Also test each pair by randomly swapping segments (10,000 trials; slower)."
        )
        self.correction = _choice(_CORRECTIONS)
        self.correction.setToolTip(
            "Correct the p-values for making many comparisons at once; the grid, the clusters "
            "and the ranks then follow the corrected p-values. Holm: the chance of any wrong "
            "'>' or '<' stays below 1 - confidence. Benjamini-Hochberg: the expected share of "
            "wrong ones among those found stays below it."
        )
        for label, widget in (
            ("Resamples", self.resamples),
            ("Confidence", self.level),
            ("Seed", self.seed),
            ("Resample by", self.unit),
            ("Correction", self.correction),
        ):
            form.addRow(label, widget)
        form.addRow(self.randomization)
        for widget in (self.resamples, self.seed):
            widget.valueChanged.connect(self.settings_changed)
        self.level.valueChanged.connect(self.settings_changed)
        self.unit.currentIndexChanged.connect(self.settings_changed)
        self.correction.currentIndexChanged.connect(self.settings_changed)
        self.randomization.toggled.connect(self.settings_changed)
        return box

    def _text_box(self) -> QGroupBox:
        box = QGroupBox("Words")
        form = QFormLayout(box)
        self.tokenizer = QComboBox()
        self.tokenizer.addItems(TOKENIZERS)
        self.tokenizer.setToolTip(
            "How text is cut into words: 13a is the standard of WMT, mteval and sacreBLEU."
        )
        self.case = QComboBox()
        self.case.addItems(["case-sensitive", "lowercase all", "lowercase A-Z only"])
        self.case.setToolTip(
            "Whether 'The' and 'the' count as the same word; 'A-Z only' is mteval's old default."
        )
        form.addRow("Tokenizer", self.tokenizer)
        form.addRow("Case", self.case)
        self.tokenizer.currentIndexChanged.connect(self.settings_changed)
        self.case.currentIndexChanged.connect(self.settings_changed)
        return box

    def metric_names(self) -> tuple[str, ...]:
        """The metrics ticked, in the standard order."""
        return tuple(name for name, box in self.metric_boxes.items() if box.isChecked())

    def metric_settings(self) -> MetricSettings:
        """Tokenizer and case."""
        case = _CASES[self.case.currentIndex()]
        return MetricSettings(self.tokenizer.currentText(), case)

    def bootstrap_settings(self) -> BootstrapSettings:
        """The resampling settings."""
        return BootstrapSettings(
            resamples=self.resamples.value(),
            level=round(self.level.value(), 3),
            seed=self.seed.value(),
            unit=Unit(self.unit.currentData()),
            ar_trials=_AR_TRIALS if self.randomization.isChecked() else 0,
            correction=Correction(self.correction.currentData()),
        )

    def state(self) -> AnalysisSettings:
        """Every control's value, as sessions and preferences store them."""
        return {
            "metrics": list(self.metric_names()),
            "resamples": self.resamples.value(),
            "level": round(self.level.value(), 3),
            "seed": self.seed.value(),
            "unit": str(self.unit.currentData()),
            "randomization": self.randomization.isChecked(),
            "correction": str(self.correction.currentData()),
            "tokenizer": self.tokenizer.currentText(),
            "case": _CASES[self.case.currentIndex()].value,
        }

    def set_state(self, state: AnalysisSettings) -> None:
        """Set every control, then emit ``settings_changed`` once (one new run, not nine).

        ``state`` is checked again (missing or bad values take their defaults), so a dict
        from anywhere cannot put a control into a value it does not offer.
        """
        state = check_settings(state, strict=False)
        controls = [*self.metric_boxes.values(), self.resamples, self.level, self.seed]
        controls += [self.unit, self.correction, self.randomization, self.tokenizer, self.case]
        blockers = [QSignalBlocker(control) for control in controls]
        for name, box in self.metric_boxes.items():
            box.setChecked(name in state["metrics"])
        self.resamples.setValue(state["resamples"])
        self.level.setValue(state["level"])
        self.seed.setValue(state["seed"])
        self.unit.setCurrentIndex(self.unit.findData(state["unit"]))
        self.correction.setCurrentIndex(self.correction.findData(state["correction"]))
        self.randomization.setChecked(state["randomization"])
        self.tokenizer.setCurrentText(state["tokenizer"])
        self.case.setCurrentIndex(_CASES.index(Case(state["case"])))
        for blocker in blockers:
            blocker.unblock()
        self.settings_changed.emit()


def _choice(items: tuple[tuple[str, str], ...]) -> QComboBox:
    """A combo box of (text shown, value kept as the item's data)."""
    combo = QComboBox()
    for text, value in items:
        combo.addItem(text, value)
    return combo


def _spin(low: int, high: int, value: int, step: int) -> QSpinBox:
    spin = QSpinBox()
    spin.setRange(low, high)
    spin.setSingleStep(step)
    spin.setValue(value)
    spin.setKeyboardTracking(False)  # a change is one event, not one per keystroke
    return spin
