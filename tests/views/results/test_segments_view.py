"""The Segments tab: two systems side by side, sorted by difference, matched n-grams shaded."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from mtgui.engine.analysis import AnalysisResult
from mtgui.engine.core.corpus import (
    Corpus,
    Origin,
    Role,
    SegmentScores,
    SystemOutput,
    TestSet,
    TextColumn,
)
from mtgui.engine.core.running import run_to_end
from mtgui.engine.metrics.segment_matches import match_segment
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.resampling.bootstrap import iter_bootstrap
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.engine.statistics.rows import compute_statistics
from mtgui.io.assemble import assemble
from mtgui.io.demo import load_demo
from mtgui.io.loader import load_file, load_scores
from mtgui.views.results.segments_html import SHADES
from mtgui.views.results.segments_model import (
    DIFFERENCE,
    DOCUMENT,
    NUMBER,
    SCORE_A,
    SEGMENT,
    SegmentsModel,
    SegmentTable,
    segments_containing,
)
from mtgui.views.results.segments_view import SegmentsView

SCREENSHOTS = Path(__file__).resolve().parents[2] / "screenshots"
ORIGIN = Origin("memory", "plain text", "UTF-8")
REFERENCES = ("the cat is on the mat", "a quick brown fox jumps", "hello world")
SYSTEMS = {
    "Good": ("the cat is on the mat", "a quick brown dog jumps", "hello there"),
    "Poor": ("the the the the the the the", "a quick brown fox jumps", "goodbye world"),
}
HUMAN = {"Good": (0.9, 0.2, float("nan")), "Poor": (0.1, 0.8, float("nan"))}


def analyse(corpus: Corpus, metrics: tuple[str, ...]) -> AnalysisResult:
    statistics = compute_statistics(corpus, metrics)
    bootstrap = run_to_end(iter_bootstrap(statistics, BootstrapSettings(resamples=100)))
    return AnalysisResult(corpus, statistics, bootstrap)


@pytest.fixture(scope="module")
def tiny() -> AnalysisResult:
    """Three segments where we know by hand which words match."""
    test_set = TestSet(
        doc_ids=("d1", "d1", "d2"),
        seg_ids=("1", "2", "1"),
        references=(TextColumn("A", REFERENCES, ORIGIN),),
        source=TextColumn("source", ("le chat", "le renard", "bonjour"), ORIGIN),
    )
    systems = tuple(SystemOutput(name, texts, ORIGIN) for name, texts in SYSTEMS.items())
    scores = tuple(
        SegmentScores(name, np.array(means), (~np.isnan(means)).astype(np.int64), ORIGIN)
        for name, means in HUMAN.items()
    )
    return analyse(Corpus(test_set, systems, scores), ("bleu", "ter", "human"))


@pytest.fixture
def view(qtbot, tiny) -> SegmentsView:
    view = SegmentsView()
    qtbot.addWidget(view)
    view.resize(1100, 700)
    view.set_result(tiny, metric="bleu")
    return view


def shown_segments(model: SegmentsModel) -> list[int]:
    return [model.segment(row) for row in range(model.rowCount())]


def shoot(widget, name: str) -> Path:
    QApplication.processEvents()  # let the layouts take in the new contents
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    assert widget.grab().save(str(path))
    return path


def test_the_best_two_systems_are_compared_largest_difference_first(view, tiny):
    assert view.pair() == ("Good", "Poor")  # Good has the higher BLEU
    model = view.model
    assert model.sort_order == (DIFFERENCE, Qt.SortOrder.DescendingOrder)
    assert shown_segments(model) == [0, 2, 1]  # Good gains most on 0, Poor on 1
    good = tiny.statistics.segment_scores("Good", "bleu")
    poor = tiny.statistics.segment_scores("Poor", "bleu")
    assert model.index(0, SCORE_A).data() == f"{good[0]:.4f}" == "1.0000"
    assert model.index(0, DIFFERENCE).data() == f"{good[0] - poor[0]:+.4f}"
    assert model.index(2, DIFFERENCE).data().startswith("-")
    assert model.headerData(SCORE_A, Qt.Orientation.Horizontal) == "A: Good"
    tip = model.headerData(DIFFERENCE, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
    assert "Good − Poor" in tip and "Positive" in tip
    for column in range(model.columnCount()):
        assert model.headerData(column, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
    assert "Good is better" in model.index(0, DIFFERENCE).data(Qt.ItemDataRole.ToolTipRole)
    assert view.current_segment() == 0  # the first row is selected


def test_the_selected_segment_shades_the_clipped_matches(view):
    view.set_pair("Poor", "Good")
    view.select_segment(0)
    # Papineni's example: "the" x 7 against one reference with two "the": 2 of 7 match.
    assert view.highlighted("a") == [("the", 1)] * 2 + [("the", 0)] * 5
    assert view.highlighted("b") == [(w, 4) for w in REFERENCES[0].split()]
    html = view.details_html()
    light = '<span style="background-color:{}; color:{}">the</span>'.format(*SHADES[1])
    assert html.count(light) == 2 + 2  # Poor's two matched "the" and the reference's two
    dark = '<span style="background-color:{}; color:{}">mat</span>'.format(*SHADES[4])
    assert html.count(dark) == 2  # Good's "mat" and the reference's, as seen from Good
    assert "Source:</b> le chat" in html
    text = view.details.toPlainText()
    assert "1-grams 2/7 · 2-grams 0/6" in text and "1-grams 6/6 · 2-grams 5/5" in text


def test_swap_sort_by_column_and_keep_the_selected_segment(view):
    view.select_segment(1)
    view.swap_button.click()
    assert view.pair() == ("Poor", "Good") and view.current_segment() == 1
    assert shown_segments(view.model) == [1, 2, 0]  # now Poor's best first
    view.table.sortByColumn(NUMBER, Qt.SortOrder.AscendingOrder)
    assert shown_segments(view.model) == [0, 1, 2] and view.current_segment() == 1
    view.table.sortByColumn(DOCUMENT, Qt.SortOrder.DescendingOrder)
    assert shown_segments(view.model) == [2, 0, 1]  # d2 first; ties keep segment order
    view.table.sortByColumn(SEGMENT, Qt.SortOrder.AscendingOrder)
    assert shown_segments(view.model) == [0, 2, 1]  # ids 1, 1, 2
    assert view.current_segment() == 1


def test_lower_is_better_metrics_flip_the_difference(view, tiny):
    view.set_metric("ter")
    model = view.model
    tip = model.headerData(DIFFERENCE, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
    assert "Poor − Good, as lower TER is better" in tip
    good = tiny.statistics.segment_scores("Good", "ter")
    poor = tiny.statistics.segment_scores("Poor", "ter")
    assert good[0] < poor[0]
    assert (
        model.segment(0) == 0 and model.index(0, DIFFERENCE).data() == f"{poor[0] - good[0]:+.4f}"
    )
    assert "TER " in view.details.toPlainText() and "BLEU 1.0000" in view.details.toPlainText()


def test_unjudged_segments_show_a_dash_and_sort_last(view):
    view.set_metric("human")
    model = view.model
    assert shown_segments(model) == [0, 1, 2]  # +0.8, -0.6, then the unjudged one
    assert model.index(2, SCORE_A).data() == "-" and model.index(2, DIFFERENCE).data() == "-"
    view.table.sortByColumn(DIFFERENCE, Qt.SortOrder.AscendingOrder)
    assert shown_segments(model) == [1, 0, 2]  # still last


def test_the_find_box_keeps_the_segments_with_the_text(view):
    view.find_box.setText("FOX")
    view.apply_filter()
    assert shown_segments(view.model) == [1] and view.current_segment() == 1
    assert view.count.text() == "1 of 3 segments"
    view.find_box.setText("chat")  # the source counts too
    view.apply_filter()
    assert shown_segments(view.model) == [0]
    view.select_segment(2)  # hidden: the filter goes
    assert view.find_box.text() == "" and view.model.rowCount() == 3
    assert view.current_segment() == 2


def test_a_100k_segment_model_sorts_and_filters_with_numpy():
    rng = np.random.default_rng(7)
    size = 100_000
    score_a, score_b = rng.random(size), rng.random(size)
    score_b[::1000] = np.nan
    table = SegmentTable(
        tuple(f"doc{i // 20:05d}" for i in range(size)),
        tuple(str(i % 20 + 1) for i in range(size)),
        score_a,
        score_b,
        ("A", "B"),
        "BLEU",
    )
    model = SegmentsModel()
    model.set_table(table)  # sorted by difference, largest first
    gap = score_a - score_b
    assert model.segment(0) == int(np.nanargmax(gap))
    shown = np.array([model.segment(r) for r in range(0, size, 97)])
    assert np.all(np.diff(gap[shown][~np.isnan(gap[shown])]) <= 0)
    assert np.isnan(gap[model.segment(size - 1)])  # no score: last
    model.sort(SEGMENT, Qt.SortOrder.DescendingOrder)
    assert model.segment(0) == 19 and model.index(0, SEGMENT).data() == "20"
    texts = tuple(f"word{i}" for i in range(size))
    mask = segments_containing([texts], "WORD9999")
    assert np.flatnonzero(mask).tolist() == [9999, *range(99990, 100_000)]
    model.set_mask(mask)
    assert model.rowCount() == 11 and model.row_of(9999) is not None and model.row_of(5) is None


def test_on_the_demo_a_known_segment_shows_its_matches(qtbot):
    result = analyse(load_demo(), ("bleu", "ter"))
    view = SegmentsView()
    qtbot.addWidget(view)
    view.resize(1200, 760)
    view.show()
    view.set_result(result, result.statistics.settings, "bleu")
    assert view.pair() == ("Lumen", "Quill")  # the demo's best two by BLEU
    view.set_pair("Lumen", "Ostrich")
    view.select_segment(2)
    # Lumen: "... a queue more 60 persons stretched past the post office and old the chapel
    # chapel."; both references end "... the post office and the old chapel.". Each has one
    # "chapel": the first one matches as a word, the second only inside the bigram "chapel .".
    shown = view.highlighted("a")
    assert ("persons", 0) in shown and shown[-3:] == [("chapel", 1), ("chapel", 2), (".", 2)]
    assert ("post", 4) in shown and ("office", 4) in shown
    test_set = result.corpus.test_set
    expected = match_segment(
        result.corpus.system("Lumen").hypotheses[2],
        [ref.texts[2] for ref in test_set.references],
        result.statistics.settings,
    )
    assert shown == expected.hypothesis.pairs()
    rows = result.statistics.rows("Lumen", "bleu")[2]
    assert expected.bleu_row == tuple(int(v) for v in rows)
    shoot(view, "segments-demo")


@pytest.mark.shared
def test_screenshot_on_wmt21_is_en_with_human_scores(qtbot, shared_data):
    folder = shared_data / "wmt21-newstest2021-is-en"
    files = [load_file(folder / "sgm/newstest2021.is-en.src.is.sgm", {Role.SOURCE})]
    files.append(load_file(folder / "sgm/newstest2021.is-en.ref.A.en.sgm", {Role.REFERENCE}))
    files += [load_file(p, {Role.SYSTEM}) for p in sorted((folder / "sgm/systems").glob("*.sgm"))]
    corpus = assemble(files, [load_scores(folder / "human/seg-scores-mapped.tsv", "z")])
    result = analyse(corpus, ("bleu", "chrf", "human"))
    view = SegmentsView()
    qtbot.addWidget(view)
    view.resize(1280, 800)
    view.show()
    view.set_result(result, metric="bleu")
    assert view.pair() == ("Facebook-AI", "Manifold")  # the best two by BLEU (README)
    assert view.model.rowCount() == 1000
    first = view.current_segment()
    assert first is not None
    gaps = view.model.table.difference
    assert gaps[first] == np.nanmax(gaps)
    shoot(view, "segments-wmt21-is-en")
    view.set_metric("human")
    assert view.model.index(999, DIFFERENCE).data() == "-"  # unjudged segments come last
    shoot(view, "segments-wmt21-is-en-human")


def test_the_pages_sentence_bleu_follows_the_results_smoothing(qtbot, tiny):
    """With BLEU smoothing 'none', 'hello there' against 'hello world' has sentence BLEU 0 (no
    bigram matches); the page shown under TER says so, as the BLEU column would."""
    settings = MetricSettings(bleu_smooth_method="none")
    statistics = compute_statistics(tiny.corpus, ("bleu", "ter"), settings)
    bootstrap = run_to_end(iter_bootstrap(statistics, BootstrapSettings(resamples=100)))
    view = SegmentsView()
    qtbot.addWidget(view)
    view.set_result(AnalysisResult(tiny.corpus, statistics, bootstrap), metric="ter")
    view.set_pair("Good", "Poor")
    view.select_segment(2)
    assert statistics.segment_scores("Good", "bleu")[2] == 0.0
    assert "BLEU 0.0000" in view.details.toPlainText()


def test_the_page_shows_the_errors_mqm_marked_with_their_spans(qtbot, tiny):
    """MQM's annotated errors of each side's segment, the span in bold and underlined."""
    corpus = tiny.corpus
    mqm = SegmentScores(
        "Poor",
        np.array([5.0, 0.0, 0.0]),
        np.ones(3, dtype=np.int64),
        ORIGIN,
        "mqm",
        False,
        {0: ("Major Accuracy/Addition (r1, 5): the <v>the the</v> the",)},
    )
    result = analyse(replace(corpus, scores=(*corpus.scores, mqm)), ("bleu", "mqm"))
    view = SegmentsView()
    qtbot.addWidget(view)
    view.set_result(result, metric="bleu")
    view.select_segment(0)
    page = view.details.toHtml()
    assert "mqm: Major Accuracy/Addition (r1, 5): the " in page
    assert "the the" in page and "font-weight" in page and "underline" in page
