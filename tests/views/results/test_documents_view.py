"""The Documents tab: two systems document by document, largest difference first; a
double-click opens the Segments view on that document."""

from __future__ import annotations

import numpy as np
import pytest
from gui_helpers import wait_for_result
from metric_corpora import make_corpus
from PySide6.QtCore import QPoint, Qt

from mtgui.engine.analysis import AnalysisResult
from mtgui.engine.core.running import run_to_end
from mtgui.engine.resampling.bootstrap import iter_bootstrap
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.engine.statistics.documents import DocumentGrouping, document_scores
from mtgui.engine.statistics.rows import compute_statistics
from mtgui.views.results.documents_model import DIFFERENCE, DOCUMENT, SCORE_A, SCORE_B, SEGMENTS
from mtgui.views.results.documents_view import NO_DOCUMENTS, DocumentsView

DEMO_DOCUMENTS = {"bakery", "bike-lanes", "robotics", "mountain-rescue", "library", "festival"}


@pytest.fixture
def demo(qtbot, window):
    window.load_demo()
    wait_for_result(qtbot, window)
    pane = window.results
    pane.tabs.setCurrentWidget(pane.documents)
    return pane


def column(model, col: int) -> list[str]:
    return [model.index(row, col).data() for row in range(model.rowCount())]


def test_documents_sorted_by_the_difference_of_a_and_b(demo):
    view, model = demo.documents, demo.documents.model
    result = demo.result
    a, b = view.pair()
    assert (a, b) == ("Lumen", "Quill")  # the two best by BLEU, the metric shown
    assert view.current_metric() == "bleu"
    assert model.rowCount() == 6 and set(model.documents_shown()) == DEMO_DOCUMENTS
    grouping = DocumentGrouping.of(result.corpus.test_set)
    score_a = document_scores(result.statistics, grouping, a, "bleu")
    score_b = document_scores(result.statistics, grouping, b, "bleu")
    gaps = score_a - score_b
    order = np.argsort(-gaps, kind="stable")
    assert model.documents_shown() == [grouping.documents[i] for i in order]
    assert column(model, DIFFERENCE) == [f"{gaps[i]:+.4f}" for i in order]
    assert column(model, SCORE_A) == [f"{score_a[i]:.4f}" for i in order]
    assert column(model, SCORE_B) == [f"{score_b[i]:.4f}" for i in order]
    assert column(model, SEGMENTS) == [str(grouping.segments[i]) for i in order]
    # The real numbers: Lumen's BLEU on the bakery document is mteval -d's 0.8362.
    bakery = model.documents_shown().index("bakery")
    assert model.index(bakery, SCORE_A).data() == "0.8362"
    assert model.headerData(SCORE_A, Qt.Orientation.Horizontal) == "A: Lumen"
    assert "Double-click" in view.table.toolTip()
    assert view.count.text() == "6 documents, 95 segments"


def test_headers_sort_on_a_click(demo, qtbot):
    view, model = demo.documents, demo.documents.model
    header = view.table.horizontalHeader()
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=_section_center(header, 0))
    assert model.sort_order[0] == DOCUMENT
    shown = model.documents_shown()
    assert shown in (sorted(shown), sorted(shown, reverse=True))
    view.table.sortByColumn(DIFFERENCE, Qt.SortOrder.AscendingOrder)  # B's biggest wins first
    gaps = [float(text) for text in column(model, DIFFERENCE)]
    assert gaps == sorted(gaps)


def test_the_metric_and_the_pair_can_be_chosen(demo):
    view, model = demo.documents, demo.documents.model
    view.set_metric("nist")
    view.set_pair("Quill", "Ostrich")
    result = demo.result
    grouping = DocumentGrouping.of(result.corpus.test_set)
    gaps = document_scores(result.statistics, grouping, "Quill", "nist") - document_scores(
        result.statistics, grouping, "Ostrich", "nist"
    )
    assert column(model, DIFFERENCE) == [f"{g:+.4f}" for g in sorted(gaps, reverse=True)]
    assert model.headerData(SCORE_B, Qt.Orientation.Horizontal) == "B: Ostrich"


def test_a_double_click_opens_the_segments_of_the_document(demo, qtbot):
    view = demo.documents
    table = view.table
    row = 2
    document = view.model.document(row)
    rect = table.visualRect(table.model().index(row, DOCUMENT))
    # A real double-click: press and release, then the double-click event (Qt 6's sequence).
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseDClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    segments = demo.segments
    assert demo.tabs.currentWidget() is segments
    assert segments.pair() == view.pair() == ("Lumen", "Quill")
    test_set = demo.result.corpus.test_set
    inside = [i for i, doc in enumerate(test_set.doc_ids) if doc == document]
    shown = [segments.model.segment(r) for r in range(segments.model.rowCount())]
    assert sorted(shown) == inside and len(inside) >= 15
    assert segments.count.text() == f"{len(inside)} of 95 segments"
    assert segments.document_button.isVisible() and document in segments.document_button.text()
    segments.document_button.click()  # every document again
    assert segments.model.rowCount() == 95 and not segments.document_button.isVisible()


def test_the_paired_views_segments_show_every_document(demo):
    demo.show_segments("Lumen", "Quill", "bakery")
    assert demo.segments.model.rowCount() == 16
    demo.show_segments("Quill", "Lumen")
    assert demo.segments.model.rowCount() == 95


def test_plain_text_says_it_has_no_documents(qtbot):
    corpus = make_corpus([["a b c", "d e f"]], A=["a b c", "d e x"], B=["a b x", "d e f"])
    statistics = compute_statistics(corpus, ["bleu"])
    bootstrap = run_to_end(iter_bootstrap(statistics, BootstrapSettings(resamples=100)))
    view = DocumentsView()
    qtbot.addWidget(view)
    view.set_result(AnalysisResult(corpus, statistics, bootstrap))
    assert view.message.text() == NO_DOCUMENTS
    assert not view.message.isHidden() and view.table.isHidden()
    assert view.model.rowCount() == 0


def _section_center(header, section: int) -> QPoint:
    x = header.sectionViewportPosition(section) + header.sectionSize(section) // 2
    return QPoint(x, header.height() // 2)


def test_the_view_follows_the_metric_shown_and_exports_what_made_it(demo):
    demo.metric_choice.setCurrentIndex(demo.metric_choice.findData("nist"))
    view = demo.documents
    assert view.current_metric() == "nist"
    assert view.pair() == ("Lumen", "Quill")  # the pair chosen stays
    grouping = DocumentGrouping.of(demo.result.corpus.test_set)
    expected = document_scores(demo.result.statistics, grouping, "Lumen", "nist")
    assert sorted(column(view.model, SCORE_A)) == sorted(f"{v:.4f}" for v in expected)
    demo.show_stale("These results are from the previous settings.")
    preamble = view.table.preamble()  # an exported table says what made it, and that it is old
    assert preamble[0].startswith("mtgui ") and preamble[-1].startswith("Note: These results")


def test_a_document_opens_on_its_top_row(demo):
    demo.show_segments("Lumen", "Quill", "festival")
    segments = demo.segments
    assert segments.current_segment() == segments.model.segment(0)
    assert segments.document == "festival" and segments.model.rowCount() == 17
