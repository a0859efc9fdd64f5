"""What the Segments and Documents views share: systems A and B and a metric chosen above a
table of the pair's scores, a Swap button, and a count line that says what the result lacks
when a pair is asked for that it does not hold."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QLabel, QPushButton, QWidget

from mtgui.engine.analysis import AnalysisResult
from mtgui.views.common.absent import missing_text
from mtgui.views.common.choices import choose


class PairOfSystemsView(QWidget):
    """A view of two systems' scores under one metric. A subclass makes the choosers with
    :meth:`_make_choosers` and the count line ``count``, and shows the pair chosen in
    :meth:`_show_pair`, which runs on every choice, on Swap and on :meth:`set_pair`."""

    count: QLabel

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.result: AnalysisResult | None = None

    def _make_choosers(self, tip_a: str, tip_b: str, tip_metric: str) -> None:
        """Systems A and B, the metric (sized to their contents) and Swap, with their tips."""
        self.system_a, self.system_b, self.metric_choice = QComboBox(), QComboBox(), QComboBox()
        for combo, tip in ((self.system_a, tip_a), (self.system_b, tip_b)):
            combo.setToolTip(tip)
        self.metric_choice.setToolTip(tip_metric)
        for combo in (self.system_a, self.system_b, self.metric_choice):
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.swap_button = QPushButton("Swap")
        self.swap_button.setToolTip("Exchange systems A and B.")
        self.swap_button.clicked.connect(self._on_swap_clicked)

    def _show_pair(self) -> None:
        """Show the pair chosen under the metric chosen."""
        raise NotImplementedError

    def set_pair(self, a: str, b: str) -> bool:
        """Compare system ``a`` with system ``b``; False (and the count line says why) if the
        result lacks one of them."""
        lacking = self._lacking(a, b)
        if lacking:  # the pair chosen stays
            self.count.setText(lacking)
            return False
        choose(self.system_a, a)
        choose(self.system_b, b)
        self._show_pair()
        return True

    def set_metric(self, metric: str) -> None:
        """Show the pair's scores under ``metric`` (if it was computed)."""
        index = self.metric_choice.findData(metric)
        if index >= 0:
            self.metric_choice.setCurrentIndex(index)

    def _lacking(self, *systems: str) -> str:
        """Which of ``systems`` the result shown lacks, in a sentence ("": none)."""
        if self.result is None:
            return ""
        return missing_text(None, (), systems, self.result.statistics.system_names)

    def pair(self) -> tuple[str, str]:
        """The names of systems A and B."""
        return str(self.system_a.currentData()), str(self.system_b.currentData())

    def current_metric(self) -> str:
        """The metric of the scores shown."""
        return str(self.metric_choice.currentData())

    def _on_choice_changed(self) -> None:
        self._show_pair()

    def _on_swap_clicked(self) -> None:
        a, b = self.pair()
        self.set_pair(b, a)
