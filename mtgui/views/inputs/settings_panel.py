"""The analysis settings beside the files: metrics, resampling, tokenizer, case, tests, and
sacreBLEU's other options folded under "Advanced" (:mod:`mtgui.views.inputs.advanced_settings`).

The panel edits and shows a :class:`~mtgui.app.settings_model.SettingsModel` (the window's, or
its own): every change of a control sets the model, whose ``changed`` the panel passes on as
``settings_changed`` so that the window can run the analysis again; settings set on the model
(a session's, File > New's) show in the controls. Every control has a one-sentence tooltip.
``settings()`` and ``set_settings()`` give and take the model's one settings object
(:class:`AnalysisSettings`); ``state()`` and ``set_state()`` as the plain dict that sessions and
the remembered preferences store. The metrics' check boxes, labels and tips come from the metric
registry; below them, a box for each metric of the scores files loaded
(:mod:`mtgui.views.inputs.external_metric_boxes`), under its own name.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from PySide6.QtCore import QSignalBlocker, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from mtgui.app.settings_model import SettingsModel
from mtgui.engine.analysis_settings import AnalysisSettings, SettingsDict, parse_margins
from mtgui.engine.inference import Correction, DecidingTest, Family, IntervalMethod
from mtgui.engine.metrics import LABELS as LABELS
from mtgui.engine.metrics import LIMITS as CHRF_LIMITS
from mtgui.engine.metrics import REGISTRY, MetricSettings
from mtgui.engine.resampling import (
    AR_TRIALS,
    DEFAULT_LEVEL,
    DEFAULT_RESAMPLES,
    FEW_DOCUMENTS,
    MAX_LEVEL,
    MAX_RESAMPLES,
    MAX_SEED,
    MIN_DOCUMENTS,
    MIN_LEVEL,
    MIN_RESAMPLES,
    BootstrapSettings,
    Unit,
)
from mtgui.engine.text import TOKENIZERS, Case
from mtgui.io.score_choices import ExternalMetric
from mtgui.views.inputs.advanced_settings import AdvancedSettings
from mtgui.views.inputs.external_metric_boxes import ExternalMetricBoxes

_CASES = (Case.SENSITIVE, Case.FULL, Case.ASCII)  # the order of the case choices
_UNITS = (
    ("Automatic", Unit.AUTO.value),
    ("Documents", Unit.DOCUMENT.value),
    ("Segments", Unit.SEGMENT.value),
)
_TESTS = (
    ("Paired bootstrap", DecidingTest.BOOTSTRAP.value),
    ("Paired t-test", DecidingTest.T.value),
    ("Wilcoxon signed-rank", DecidingTest.WILCOXON.value),
)
_INTERVALS = (
    ("Automatic", IntervalMethod.AUTO.value),
    ("Percentile", IntervalMethod.PERCENTILE.value),
    ("BCa", IntervalMethod.BCA.value),
    ("Studentized", IntervalMethod.STUDENTIZED.value),
)
_CORRECTIONS = (
    ("None", Correction.NONE.value),
    ("Holm", Correction.HOLM.value),
    ("Benjamini-Hochberg", Correction.FDR.value),
    ("max-T (suggested)", Correction.MAXT.value),
)
_FAMILIES = (
    ("Each metric", Family.METRIC.value),
    ("All metrics together", Family.ALL.value),
)
SUGGEST_MAXT_FROM = 3
"""With this many systems or more, a window whose correction nobody chose suggests max-T."""


class SettingsPanel(QWidget):
    """The controls of one analysis: the :class:`AnalysisSettings` of a
    :class:`SettingsModel` to look at and change.

    The controls offer exactly the values the settings object takes (its ranges and choices),
    and start at the model's settings (without ``model``, a model of its own at the defaults).
    """

    settings_changed = Signal()  # the model's settings were set (by the controls or not)
    _edited = Signal()  # a control was changed by the user

    def __init__(self, model: SettingsModel | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model if model is not None else SettingsModel(parent=self)
        layout = QVBoxLayout(self)
        layout.addWidget(self._metrics_box())
        layout.addWidget(self._resampling_box())
        layout.addWidget(self._text_box())
        self.advanced = AdvancedSettings()
        self.advanced.changed.connect(self._edited)
        layout.addWidget(self.advanced)
        layout.addStretch(1)
        self._show_model()
        self._edited.connect(self._on_edited)
        self.equivalence.textChanged.connect(self._keep_controls)  # a run reads typed margins
        self.model.changed.connect(self._on_model_changed)
        self.model.changed.connect(self.settings_changed)  # after the controls show them

    def _metrics_box(self) -> QGroupBox:
        box = QGroupBox("Metrics")
        layout = QVBoxLayout(box)
        grid = QGridLayout()
        layout.addLayout(grid)
        self.metric_boxes: dict[str, QCheckBox] = {}
        for number, entry in enumerate(REGISTRY.values()):
            check = QCheckBox(entry.label)
            check.setToolTip(entry.description)
            check.toggled.connect(self._edited)
            grid.addWidget(check, number // 3, number % 3)
            self.metric_boxes[entry.name] = check
        self.external = ExternalMetricBoxes(self.metric_boxes, self._edited)
        layout.addWidget(self.external)
        return box

    def _resampling_box(self) -> QGroupBox:
        box = QGroupBox("Confidence and significance")
        form = QFormLayout(box)
        self.resamples = _spin(MIN_RESAMPLES, MAX_RESAMPLES, 100)
        self.resamples.setToolTip(
            f"How many times the test set is resampled; {DEFAULT_RESAMPLES:,} is the "
            "papers' choice, more gives steadier intervals."
        )
        self.level = QDoubleSpinBox()
        self.level.setRange(MIN_LEVEL, MAX_LEVEL)
        self.level.setDecimals(3)
        self.level.setSingleStep(0.01)
        self.level.setToolTip(
            f"How sure the intervals and the grid's verdicts are: {DEFAULT_LEVEL} means "
            f"{DEFAULT_LEVEL:.0%} confidence intervals."
        )
        self.seed = _whole_number_box(0, MAX_SEED)
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
            f"Also test each pair by randomly swapping segments ({AR_TRIALS:,} trials; slower)."
        )
        self.correction = _choice(_CORRECTIONS)
        self.correction.setToolTip(
            "Correct the verdicts for making many comparisons at once; the grid, the clusters, "
            "the ranks and the intervals then follow the correction. max-T (suggested with "
            "several systems): the chance of any wrong '>' or '<' stays below 1 - confidence, "
            "and because it uses how the comparisons hang together (they share systems and "
            "resamples) it finds more real differences than Holm. Holm: the same guarantee, "
            "simpler and weaker. Benjamini-Hochberg: the expected share of wrong ones among "
            "those found stays below 1 - confidence. Where the resamples are too few for a "
            "correction to find anything, more are drawn and the status line says so."
        )
        self.correction.activated.connect(self._correction_chosen)
        self._correction_touched = False
        self.family = _choice(_FAMILIES)
        self.family.setToolTip(
            "Which comparisons are corrected together: each metric's pairs, or every "
            "metric's pairs as one family (stricter), with the pairs of the Breakdown tab's "
            "groups once a breakdown is made."
        )
        self.equivalence = QLineEdit()
        self.equivalence.setPlaceholderText("e.g. bleu=0.01, chrf=0.5")
        self.equivalence.setToolTip(
            "Equivalence margins, METRIC=MARGIN in the metric's units (BLEU and M-BLEU on the "
            "0-1 scale): a pair whose difference is shown to lie within +-MARGIN gets '=' "
            "instead of '~' (two one-sided tests at the confidence above). Without a margin "
            "no '=' appears: '~' only means that no difference was shown."
        )
        self.equivalence.editingFinished.connect(self._equivalence_edited)
        self._equivalence_text = ""
        self.interval = _choice(_INTERVALS)
        self.interval.setToolTip(
            "How the intervals, and the verdicts that agree with them, are read from the "
            "resamples. Percentile: the resamples' percentiles, as in the papers. BCa: moved "
            "for the resamples' bias and skew (Efron 1987). Studentized: each resample divided "
            "by its own standard error, which widens the intervals where few documents make "
            f"the spread itself uncertain. Automatic: studentized with {MIN_DOCUMENTS} to "
            f"{FEW_DOCUMENTS - 1} documents resampled (where percentile intervals cover only "
            "88-92% instead of 95%), else percentile."
        )
        self.test = _choice(_TESTS)
        self.test.setToolTip(
            "The test that decides the grid of loaded segment scores (human judgments, COMET, "
            "...): the paired bootstrap, the paired t-test or the Wilcoxon signed-rank test, "
            "as the field uses for such scores. Other metrics always use the bootstrap; the "
            "reports give all three p-values."
        )
        for label, widget in (
            ("Resamples", self.resamples),
            ("Confidence", self.level),
            ("Seed", self.seed),
            ("Resample by", self.unit),
            ("Intervals", self.interval),
            ("Correction", self.correction),
            ("Family", self.family),
            ("Equivalence", self.equivalence),
            ("Segment scores by", self.test),
        ):
            form.addRow(label, widget)
        form.addRow(self.randomization)
        self.resamples.valueChanged.connect(self._edited)
        self.seed.valueChanged.connect(self._edited)
        self.level.valueChanged.connect(self._edited)
        self.unit.currentIndexChanged.connect(self._edited)
        self.correction.currentIndexChanged.connect(self._edited)
        self.family.currentIndexChanged.connect(self._edited)
        self.interval.currentIndexChanged.connect(self._edited)
        self.test.currentIndexChanged.connect(self._edited)
        self.randomization.toggled.connect(self._edited)
        return box

    def _correction_chosen(self) -> None:
        """The user chose a correction: it is no longer suggested."""
        self._correction_touched = True

    def keep_correction(self) -> None:
        """The settings were given whole (a campaign file): no correction is suggested, so
        that the numbers are those of the file's settings."""
        self._correction_touched = True

    def suggest_correction(self, systems: int) -> None:
        """Preselect max-T for :data:`SUGGEST_MAXT_FROM` systems or more, as long as nobody
        chose a correction in this window and none is set (a grid of many systems without a
        correction shows false differences most of the time)."""
        none = self.correction.currentData() == Correction.NONE.value
        if systems >= SUGGEST_MAXT_FROM and none and not self._correction_touched:
            self.correction.setCurrentIndex(self.correction.findData(Correction.MAXT.value))

    def _equivalence_edited(self) -> None:
        """Margins typed: a new run if they are valid and new; else the field says why."""
        text = self.equivalence.text()
        try:
            parse_margins(text)
        except ValueError:
            self.equivalence.setStyleSheet("border: 1px solid #d55e00;")
            self.equivalence.setToolTip(
                "Write margins as METRIC=MARGIN with positive numbers, e.g. bleu=0.01, chrf=0.5."
            )
            return
        self.equivalence.setStyleSheet("")
        if text != self._equivalence_text:
            self._equivalence_text = text
            self._edited.emit()

    def _text_box(self) -> QGroupBox:
        box = QGroupBox("Words")
        form = QFormLayout(box)
        self.tokenizer = QComboBox()
        self.tokenizer.addItems(TOKENIZERS)
        self.tokenizer.setToolTip(
            "How text is cut into words: 13a is the standard of WMT, mteval and sacreBLEU; "
            "flores101 and flores200 make BLEU spBLEU (sacreBLEU's SentencePiece models)."
        )
        self.case = QComboBox()
        self.case.addItems(["case-sensitive", "lowercase all", "lowercase A-Z only"])
        self.case.setToolTip(
            "Whether 'The' and 'the' count as the same word; 'A-Z only' is mteval's old default."
        )
        form.addRow("Tokenizer", self.tokenizer)
        form.addRow("Case", self.case)
        self.tokenizer.currentIndexChanged.connect(self._edited)
        self.case.currentIndexChanged.connect(self._edited)
        self._add_chrf_rows(form)
        return box

    def _add_chrf_rows(self, form: QFormLayout) -> None:
        """sacreBLEU's chrF options: character order, word order, beta (chrF and chrF++)."""
        rows = {
            "char_order": ("chrF characters", "chrF's character n-gram order (chrF and chrF++)."),
            "word_order": ("chrF words", "chrF's word n-gram order; chrF++ always uses 2."),
            "beta": ("chrF beta", "How much more recall counts than precision: 2 is chrF2."),
        }
        self.chrf: dict[str, QSpinBox] = {}
        for option, (_, low, high) in CHRF_LIMITS.items():
            label, tip = rows[option]
            spin = _spin(low, high, 1)
            spin.setToolTip(tip + " sacreBLEU's defaults: 6 characters, 0 words, beta 2.")
            spin.valueChanged.connect(self._edited)
            form.addRow(label, spin)
            self.chrf[option] = spin

    def settings(self) -> AnalysisSettings:
        """The model's settings: what the controls show."""
        return self.model.settings()

    def _on_edited(self) -> None:
        """A control changed: the model takes what the controls say (and announces it)."""
        self.model.set_settings(self._read_controls())

    def _keep_controls(self) -> None:
        """The controls changed with no run of their own: the model keeps what they say."""
        self.model.keep(self._read_controls())

    def _on_model_changed(self) -> None:
        """Settings set on the model (not by the controls) show in them."""
        if self._read_controls() != self.model.settings():
            self._show_model()

    def _read_controls(self) -> AnalysisSettings:
        """What the controls say now."""
        return AnalysisSettings(
            metrics=self.metric_names(),
            resamples=self.resamples.value(),
            level=round(self.level.value(), 3),
            seed=int(self.seed.value()),
            unit=Unit(self.unit.currentData()),
            randomization=self.randomization.isChecked(),
            correction=Correction(self.correction.currentData()),
            family=Family(self.family.currentData()),
            equivalence=self._valid_margins(),
            test=DecidingTest(self.test.currentData()),
            interval=IntervalMethod(self.interval.currentData()),
            tokenizer=self.tokenizer.currentText(),
            case=_CASES[self.case.currentIndex()],
            chrf_char_order=self.chrf["char_order"].value(),
            chrf_word_order=self.chrf["word_order"].value(),
            chrf_beta=self.chrf["beta"].value(),
            **self.advanced.values(),
        )

    def _valid_margins(self) -> str:
        """The margins typed, or the last valid ones while the field holds a mistake."""
        try:
            parse_margins(self.equivalence.text())
        except ValueError:
            return self._equivalence_text
        return self.equivalence.text()

    def set_settings(self, settings: AnalysisSettings) -> None:
        """Set the model's settings: every control shows them, then ``settings_changed`` is
        emitted once (one new run, not nine)."""
        self.model.set_settings(settings)

    def _show_model(self) -> None:
        """Put the model's settings into the controls without a signal from any; the model
        then keeps what the controls say (a metric of scores not loaded yet has no box: it is
        ticked when its box comes, :meth:`ExternalMetricBoxes.want`)."""
        controls = [*self.metric_boxes.values(), self.resamples, self.level, self.seed]
        controls += [self.unit, self.correction, self.randomization, self.tokenizer, self.case]
        controls += [self.family, self.equivalence]
        controls += [self.interval, self.test]
        controls += self.chrf.values()
        controls += self.advanced.controls()
        blockers = [QSignalBlocker(control) for control in controls]
        self._show(self.model.settings())
        for blocker in blockers:
            blocker.unblock()
        self._keep_controls()

    def _show(self, settings: AnalysisSettings) -> None:
        """Put ``settings`` into the controls (which may each say so)."""
        for name, box in self.metric_boxes.items():
            box.setChecked(name in settings.metrics)
        self.external.want(settings.metrics)
        self.resamples.setValue(settings.resamples)
        self.level.setValue(settings.level)
        self.seed.setValue(settings.seed)
        self.unit.setCurrentIndex(self.unit.findData(settings.unit.value))
        self.correction.setCurrentIndex(self.correction.findData(settings.correction.value))
        self.family.setCurrentIndex(self.family.findData(settings.family.value))
        self.equivalence.setText(settings.equivalence)
        self._equivalence_text = settings.equivalence
        self.interval.setCurrentIndex(self.interval.findData(settings.interval.value))
        self.test.setCurrentIndex(self.test.findData(settings.test.value))
        self.randomization.setChecked(settings.randomization)
        self.tokenizer.setCurrentText(settings.tokenizer)
        self.case.setCurrentIndex(_CASES.index(settings.case))
        for option, spin in self.chrf.items():
            spin.setValue(getattr(settings, f"chrf_{option}"))
        self.advanced.show_values(settings.sacrebleu_options())

    def show_external(self, metrics: Mapping[str, ExternalMetric], tick: Collection[str]) -> None:
        """A box for each metric of loaded scores (:meth:`ExternalMetricBoxes.show_metrics`); the
        metrics of files just loaded (``tick``) ticked, Human among them. The model keeps
        them without a signal: the files changed, and the analysis that follows reads it."""
        self.external.show_metrics(metrics, tick)
        self._keep_controls()

    def metric_names(self) -> tuple[str, ...]:
        """The metrics ticked, in the standard order (the loaded scores' after mtgui's own)."""
        return tuple(name for name, box in self.metric_boxes.items() if box.isChecked())

    def metric_settings(self) -> MetricSettings:
        """Tokenizer, case, chrF's options and sacreBLEU's others."""
        return self.settings().metric_settings()

    def bootstrap_settings(self) -> BootstrapSettings:
        """The resampling settings."""
        return self.settings().bootstrap_settings()

    def state(self) -> SettingsDict:
        """The model's settings, as sessions and preferences store them."""
        return self.model.state()

    def set_state(self, state: Mapping[str, object]) -> None:
        """:meth:`set_settings` from plain values (a session's or the preferences').

        ``state`` is checked again (missing or bad values take their defaults), so a dict
        from anywhere cannot put a control into a value it does not offer.
        """
        self.model.set_state(state)


def _choice(items: tuple[tuple[str, str], ...]) -> QComboBox:
    """A combo box of (text shown, value kept as the item's data)."""
    combo = QComboBox()
    for text, value in items:
        combo.addItem(text, value)
    return combo


def _spin(low: int, high: int, step: int) -> QSpinBox:
    spin = QSpinBox()
    spin.setRange(low, high)
    spin.setSingleStep(step)
    spin.setKeyboardTracking(False)  # a change is one event, not one per keystroke
    return spin


def _whole_number_box(low: int, high: int) -> QDoubleSpinBox:
    """A box for whole numbers beyond a ``QSpinBox``'s 32-bit signed range (seeds go to
    2**32 - 1): a double spin box without decimals, exact far beyond that."""
    box = QDoubleSpinBox()
    box.setDecimals(0)
    box.setRange(low, high)
    box.setSingleStep(1)
    box.setKeyboardTracking(False)
    return box
