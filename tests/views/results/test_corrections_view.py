"""The window's corrections: max-T suggested with several systems, the equivalence field, and
'=' in the grid with its own colour, legend entry and words."""

from __future__ import annotations

from metric_corpora import make_corpus
from PySide6.QtCore import Qt

from mtgui.engine.core.running import run_to_end
from mtgui.engine.resampling.bootstrap import iter_bootstrap
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.engine.statistics.rows import compute_statistics
from mtgui.views.inputs.settings_panel import SettingsPanel
from mtgui.views.results.grid_legend import GridLegend
from mtgui.views.results.significance_grid_model import COLORS, SignificanceGridModel


def test_max_t_is_suggested_for_several_systems_until_someone_chooses(qtbot):
    panel = SettingsPanel()
    qtbot.addWidget(panel)
    panel.suggest_correction(2)
    assert panel.correction.currentData() == "none"
    panel.suggest_correction(3)
    assert panel.correction.currentData() == "maxt"
    assert "Westfall" not in panel.correction.toolTip()  # words, not names, in the tooltip
    assert "finds more real differences than Holm" in panel.correction.toolTip()
    chosen = SettingsPanel()
    qtbot.addWidget(chosen)
    chosen.correction.activated.emit(0)  # the user picked "None"
    chosen.suggest_correction(10)
    assert chosen.correction.currentData() == "none"


def test_the_equivalence_field_takes_only_valid_margins(qtbot):
    panel = SettingsPanel()
    qtbot.addWidget(panel)
    panel.equivalence.setText("bleu=oops")
    with qtbot.assertNotEmitted(panel.settings_changed):
        panel.equivalence.editingFinished.emit()
    assert panel.settings().equivalence == "" and "border" in panel.equivalence.styleSheet()
    panel.equivalence.setText("bleu=0.5")
    with qtbot.waitSignal(panel.settings_changed):
        panel.equivalence.editingFinished.emit()
    assert panel.bootstrap_settings().equivalence == (("bleu", 0.5),)


def test_equivalent_pairs_have_their_own_colour_words_and_legend_entry(qtbot):
    refs = [[f"w{i} a b c d e f g h" for i in range(40)]]
    same = [f"w{i} a b c d e f g h" for i in range(40)]
    stats = compute_statistics(make_corpus(refs, A=same, B=list(same)), ("bleu",))
    settings = BootstrapSettings(resamples=200, unit="segment", equivalence=(("bleu", 0.05),))
    result = run_to_end(iter_bootstrap(stats, settings))
    model = SignificanceGridModel()
    model.set_result(result, "bleu")
    cell = model.index(0, 1)
    assert cell.data() == "="
    assert cell.data(Qt.ItemDataRole.BackgroundRole).color() == COLORS["="]
    tip = cell.data(Qt.ItemDataRole.ToolTipRole)
    assert "equivalent, within the margin, to" in tip and "Equivalence within +-0.05: shown" in tip
    assert "= (green) equivalent within 0.05 BLEU" in model.reading
    legend = GridLegend()
    qtbot.addWidget(legend)
    legend.show()
    assert not legend.swatches[-1].isVisible()
    legend.show_equivalence(True)
    assert legend.swatches[-1].isVisible() and legend.swatches[-1].text() == "="
