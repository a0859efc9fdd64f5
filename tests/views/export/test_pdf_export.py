"""The PDF of the HTML report, through Qt's PDF writer: pages, figures as images, atomic file."""

from __future__ import annotations

import re
from datetime import datetime

import pytest

from mtgui.engine.analysis import iter_analysis
from mtgui.engine.core.running import run_to_end
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.engine.statistics.rows import compute_statistics
from mtgui.io.demo import load_demo
from mtgui.report import html_plots
from mtgui.report.html_report import html_report, report_title
from mtgui.views.export.pdf_export import _for_qt, _render, pdf_bytes, write_pdf

METRICS = ["bleu", "nist"]


@pytest.fixture(scope="module")
def page():
    corpus = load_demo()
    settings = BootstrapSettings(resamples=300)
    result = run_to_end(iter_analysis(corpus, METRICS, MetricSettings(), settings))
    return html_report(result.corpus, result.statistics, result.bootstrap, datetime(2026, 1, 2))


def pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page\b", pdf))


def test_the_pdf_has_a_page_per_metric_and_its_figures_as_images(qapp, page):
    pdf = pdf_bytes(page, "mtgui demo")
    assert pdf.startswith(b"%PDF-")
    assert pdf.rstrip().endswith(b"%%EOF")
    assert pages(pdf) >= 1 + len(METRICS)  # every metric starts a page
    assert len(re.findall(rb"/Subtype\s*/Image", pdf)) == len(METRICS)  # no SVG left undrawn
    assert b"mtgui demo" in pdf or "mtgui demo".encode("utf-16-be") in pdf  # the title


def test_qt_gets_sizes_and_page_breaks_it_understands(page):
    qt = _for_qt(page)
    assert "<section" not in qt
    assert qt.count('<div style="page-break-before: always">') == len(METRICS)
    assert '<td width="34" align="center" class="better">' in qt


def test_the_pdf_is_written_atomically(qapp, page, tmp_path):
    target = tmp_path / "report.pdf"
    write_pdf(page, "mtgui demo", target)
    assert target.read_bytes().startswith(b"%PDF-")
    assert [p.name for p in tmp_path.iterdir()] == ["report.pdf"]  # no temporary left


def test_the_last_axis_number_is_drawn_whole_inside_the_figure(qapp):
    width = html_plots.WIDTH - html_plots.LABEL_WIDTH - html_plots.RIGHT_SPACE
    parts = html_plots._axis(0.3, 0.36, 0, width)  # a tick at the plot's right end
    assert parts[-1].endswith(">0.36</text>")
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{html_plots.WIDTH}" height="30" '
        f'viewBox="0 0 {html_plots.WIDTH} 30">' + "".join(parts) + "</svg>"
    )
    image = _render(svg)
    edge = [
        image.pixelColor(x, y).lightness()
        for x in range(image.width() - 3, image.width())
        for y in range(image.height())
    ]
    assert min(edge) == 255  # nothing runs into the figure's edge, where it would be cut


def test_names_reach_qt_isolated(qapp, page):
    qt = _for_qt(page)
    assert "<bdi>" not in qt and "</bdi>" not in qt  # Qt's rich text has no <bdi>
    assert "\u2068Lumen\u2069" in qt  # the same isolate, as characters
    corpus = load_demo().with_system_renamed("Lumen", "Lumen\u202e")
    statistics = compute_statistics(corpus, ["bleu"])
    hostile = html_report(corpus, statistics, None, datetime(2026, 1, 2))
    assert "\u2068Lumen\u202e\u202c\u2069" in _for_qt(hostile)  # closed, then isolated
    assert pdf_bytes(hostile, report_title(corpus)).startswith(b"%PDF-")
