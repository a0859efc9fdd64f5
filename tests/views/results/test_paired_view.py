"""The paired view: deltas, 0, the shaded interval, the win fraction and p-values, exports."""

from __future__ import annotations

import html
import math
from xml.etree import ElementTree

import numpy as np
import pyqtgraph as pg
import pytest
from gui_helpers import shoot

from mtgui.engine.analysis import iter_analysis
from mtgui.engine.core.running import run_to_end
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.io.demo import load_demo
from mtgui.report.paired import paired_deltas
from mtgui.views.results.paired_view import PairedView


@pytest.fixture(scope="module")
def analysis():
    settings = BootstrapSettings(resamples=1000)
    return run_to_end(iter_analysis(load_demo(), ["bleu", "ter"], MetricSettings(), settings))


@pytest.fixture
def view(qtbot, analysis):
    widget = PairedView()
    qtbot.addWidget(widget)
    widget.resize(900, 560)
    widget.set_result(analysis, "bleu")
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def test_deltas_are_the_analysis_resamples_paired(analysis):
    bootstrap = analysis.bootstrap
    deltas = paired_deltas(bootstrap, "bleu", "Lumen", "Quill", higher_is_better=True)
    expected = (
        bootstrap.interval("Lumen", "bleu").samples - bootstrap.interval("Quill", "bleu").samples
    )
    np.testing.assert_array_equal(deltas.deltas, expected)
    pair = bootstrap.pair("bleu", "Lumen", "Quill")
    assert deltas.comparison == pair
    k = math.ceil(0.05 * (len(expected) + 1) / 2) - 1  # the k-th smallest and largest
    ordered = np.sort(expected)
    assert (pair.ci_low, pair.ci_high) == (ordered[k - 1], ordered[-k])
    assert pair.win_fraction == pytest.approx(np.mean(expected > 0))
    with pytest.raises(ValueError, match="itself"):
        paired_deltas(bootstrap, "bleu", "Lumen", "Lumen", higher_is_better=True)


def test_view_starts_on_the_best_two_and_draws_every_resample(view, analysis):
    order = [e.system for e in analysis.bootstrap.ranking("bleu").systems]
    assert (view.first.currentText(), view.second.currentText()) == (order[0], order[1])
    counts, edges = view.histogram()
    assert counts.sum() == 1000
    assert len(edges) == 51


def test_zero_the_interval_and_the_full_set_difference_are_marked(view, analysis):
    view.set_pair("Lumen", "Ostrich")
    pair = analysis.bootstrap.pair("bleu", "Lumen", "Ostrich")
    items = view.plot.items
    lines = sorted(i.value() for i in items if isinstance(i, pg.InfiniteLine))
    assert lines == pytest.approx(sorted([0.0, pair.delta]))
    (band,) = [i for i in items if isinstance(i, pg.LinearRegionItem)]
    assert band.getRegion() == pytest.approx((pair.ci_low, pair.ci_high))
    text = view.summary.text()
    assert f"{pair.win_fraction:.1%} of the resamples" in text
    assert f"p-value (paired bootstrap, two-sided): {pair.p_value:.4f}" in text
    assert f"[{pair.ci_low:+.4f}, {pair.ci_high:+.4f}]" in text
    shoot(view, "paired-demo")


def test_the_verdict_is_tie_exactly_when_the_band_holds_zero(view, analysis):
    systems = analysis.bootstrap.systems
    seen = set()
    for x in systems:
        for y in systems:
            if x == y:
                continue
            view.set_pair(x, y)
            pair = view.deltas.comparison
            holds_zero = pair.ci_low <= 0 <= pair.ci_high
            assert (pair.verdict == "~") == holds_zero
            assert f"verdict <b>{html.escape(pair.verdict)}</b>" in view.summary.text()
            seen.add(pair.verdict)
    assert seen == {">", "<", "~"}  # the demo has all three


def test_swap_mirrors_the_comparison(view):
    view.set_pair("Lumen", "Quill")
    before = view.deltas
    view.swap()
    assert (view.first.currentText(), view.second.currentText()) == ("Quill", "Lumen")
    np.testing.assert_allclose(view.deltas.deltas, -before.deltas)
    assert view.deltas.comparison.win_fraction == pytest.approx(
        1 - before.comparison.win_fraction - before.comparison.tie_fraction
    )


def test_lower_is_better_metrics_say_better_is_left(view):
    view.set_result(view.result, "ter")
    assert view.deltas.better_side == "left"
    assert "better on the left" in view.plot.titleLabel.text


def test_the_same_system_twice_is_explained_not_drawn(view):
    view.set_pair("Quill", "Quill")
    assert view.deltas is None
    assert "two different systems" in view.summary.text()


def test_plot_exports_from_the_button_and_the_right_click_menu(view, tmp_path):
    view.exporter.ask_path = lambda: tmp_path / "pair.svg"
    (action,) = view.plot_widget.scene().contextMenu
    assert "PNG or SVG" in action.text()
    action.trigger()
    svg = ElementTree.parse(tmp_path / "pair.svg").getroot()
    assert svg.tag == "{http://www.w3.org/2000/svg}svg"
    assert "minus" in "".join(svg.itertext())
    view.exporter.ask_path = lambda: tmp_path / "pair.png"
    view.exporter.export()
    assert (tmp_path / "pair.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    problems = []
    view.exporter.show_problem = problems.append
    view.exporter.ask_path = lambda: tmp_path / "pair.gif"
    view.exporter.export()
    assert problems and ".png or .svg" in problems[0]


def test_plot_export_asks_once_before_replacing_a_file(view, tmp_path):
    target = tmp_path / "pair.png"
    target.write_bytes(b"an earlier export")
    asked = []
    view.exporter.ask_path = lambda: target
    view.exporter.confirm_overwrite = lambda paths: asked.append(paths) or False
    view.exporter.export()
    assert asked == [[target]] and target.read_bytes() == b"an earlier export"
    view.exporter.confirm_overwrite = lambda paths: True
    view.exporter.export()
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
