"""The settings panel's "Advanced" part: sacreBLEU's other options of BLEU, chrF and TER, and
what an empty reference line is.

Folded away by default (a click on its title opens it), since the defaults are what nearly
everyone wants; the title says how many options differ from their defaults, so that a changed
one is never hidden unnoticed. Each control's tooltip gives sacreBLEU's option name. The values
are those of :data:`~mtgui.engine.analysis_settings.SACREBLEU_SETTINGS`, with the same rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from mtgui.engine.analysis_settings import SACREBLEU_SETTINGS, AnalysisSettings
from mtgui.engine.metrics import (
    EMPTY_REFS,
    MAX_BLEU_ORDER,
    MAX_SMOOTH_VALUE,
    MIN_BLEU_ORDER,
    SMOOTH_DEFAULTS,
    SMOOTH_METHODS,
)

_NO_VALUE = -0.1  # the value box's lowest value, shown as "default": the method's own value
_FLAGS = {
    # setting: (the box's text, its tip)
    "bleu_effective_order": (
        "BLEU effective order",
        "--bleu-effective-order: corpus BLEU over the orders up to the last one with "
        "hypothesis n-grams (sentence BLEU always uses it).",
    ),
    "chrf_whitespace": ("chrF whitespace", "--chrf-whitespace: keep spaces in chrF's n-grams."),
    "chrf_eps_smoothing": (
        "chrF eps smoothing",
        "--chrf-eps-smoothing: average each order's F-score, as chrF++.py, Moses and NLTK.",
    ),
    "ter_normalized": ("TER normalized", "--ter-normalized: tercom's -N normalization."),
    "ter_no_punct": ("TER no punctuation", "--ter-no-punct: remove punctuation for TER."),
    "ter_asian_support": (
        "TER Asian support",
        "--ter-asian-support: split Asian characters (with normalization).",
    ),
    "ter_case_sensitive": (
        "TER case-sensitive",
        "--ter-case-sensitive: TER compares letters case-sensitively.",
    ),
}


class AdvancedSettings(QWidget):
    """sacreBLEU's options under a title that folds them away; ``changed`` on every change."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.title = QToolButton()
        self.title.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.title.setAutoRaise(True)
        self.title.setCheckable(True)
        self.title.setToolTip("sacreBLEU's other options of BLEU, chrF and TER.")
        self.title.toggled.connect(self._fold)
        layout.addWidget(self.title)
        self.body = QWidget()
        layout.addWidget(self.body)
        self._controls()
        self._fold(False)
        self.changed.connect(self._retitle)
        self._retitle()

    def _controls(self) -> None:
        form = QFormLayout(self.body)
        form.setContentsMargins(12, 0, 0, 0)
        self.smooth_method = QComboBox()
        self.smooth_method.addItems(SMOOTH_METHODS)
        self.smooth_method.setToolTip(
            "--smooth-method: BLEU's smoothing, corpus and sentence level. mteval (mtgui's "
            "default) is mteval-v13a's; sacreBLEU's default is exp, which differs from it only "
            "when an n-gram order has no match."
        )
        self.smooth_value = QDoubleSpinBox()
        self.smooth_value.setRange(_NO_VALUE, MAX_SMOOTH_VALUE)
        self.smooth_value.setDecimals(2)
        self.smooth_value.setSingleStep(0.1)
        self.smooth_value.setSpecialValueText("default")
        self.smooth_value.setKeyboardTracking(False)
        self.smooth_value.setToolTip(
            "--smooth-value: the value of floor (default 0.1) and add-k (default 1)."
        )
        self.max_order = QSpinBox()
        self.max_order.setRange(MIN_BLEU_ORDER, MAX_BLEU_ORDER)
        self.max_order.setKeyboardTracking(False)
        self.max_order.setToolTip("--bleu-max-order: BLEU's (and M-BLEU's) longest n-grams.")
        form.addRow("BLEU smoothing", self.smooth_method)
        form.addRow("Smoothing value", self.smooth_value)
        form.addRow("BLEU max order", self.max_order)
        self.flags: dict[str, QCheckBox] = {}
        for name, (text, tip) in _FLAGS.items():  # one column: the panel is narrow
            box = QCheckBox(text)
            box.setToolTip(tip)
            box.toggled.connect(self.changed)
            form.addRow(box)
            self.flags[name] = box
        self.empty_refs = QComboBox()
        self.empty_refs.addItems(EMPTY_REFS)
        self.empty_refs.setToolTip(
            "--empty-refs: an empty reference line is a missing reference (missing, the "
            "default: the segment is scored with its other references, as sacreBLEU's None), "
            "or a reference of no words (empty)."
        )
        form.addRow("Empty reference lines", self.empty_refs)
        self.empty_refs.currentIndexChanged.connect(self.changed)
        self.smooth_method.currentIndexChanged.connect(self.changed)
        self.smooth_method.currentIndexChanged.connect(self._enable_value)
        self.smooth_value.valueChanged.connect(self.changed)
        self.max_order.valueChanged.connect(self.changed)

    def controls(self) -> list[QWidget]:
        """Every control (to block their signals while settings are put in)."""
        return [
            self.smooth_method,
            self.smooth_value,
            self.max_order,
            *self.flags.values(),
            self.empty_refs,
        ]

    def values(self) -> dict[str, Any]:
        """The options as :class:`AnalysisSettings` takes them."""
        value = round(self.smooth_value.value(), 2)
        return {
            "bleu_smooth_method": self.smooth_method.currentText(),
            "bleu_smooth_value": None if value < 0 else value,
            "bleu_max_order": self.max_order.value(),
            **{name: box.isChecked() for name, box in self.flags.items()},
            "empty_refs": self.empty_refs.currentText(),
        }

    def show_values(self, values: Mapping[str, Any]) -> None:
        """Put ``values`` (:meth:`AnalysisSettings.sacrebleu_options`) into the controls."""
        self.smooth_method.setCurrentText(values["bleu_smooth_method"])
        value = values["bleu_smooth_value"]
        self.smooth_value.setValue(_NO_VALUE if value is None else value)
        self.max_order.setValue(values["bleu_max_order"])
        for name, box in self.flags.items():
            box.setChecked(values[name])
        self.empty_refs.setCurrentText(values["empty_refs"])
        self._enable_value()
        self._retitle()

    def changed_count(self) -> int:
        """How many options differ from their defaults."""
        defaults = AnalysisSettings().sacrebleu_options()
        return sum(self.values()[name] != defaults[name] for name in SACREBLEU_SETTINGS)

    def _enable_value(self) -> None:
        """The value applies to floor and add-k only."""
        method = self.smooth_method.currentText()
        self.smooth_value.setEnabled(SMOOTH_DEFAULTS.get(method) is not None)

    def _fold(self, open_: bool) -> None:
        self.body.setVisible(open_)
        arrow = Qt.ArrowType.DownArrow if open_ else Qt.ArrowType.RightArrow
        self.title.setArrowType(arrow)

    def _retitle(self) -> None:
        count = self.changed_count()
        changed = f" ({count} changed)" if count else ""
        self.title.setText(f"Advanced: sacreBLEU{changed}")
