"""The Details tab: BLEU's and NIST's per-order tables, equal to the engine's, copied, exported."""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from mtgui.engine.analysis import iter_analysis
from mtgui.engine.core.corpus import Corpus, Origin, Role, SystemOutput, TestSet, TextColumn
from mtgui.engine.core.running import run_to_end
from mtgui.engine.metrics.settings import MetricSettings
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.io.assemble import assemble
from mtgui.io.demo import load_demo
from mtgui.io.loader import load_file
from mtgui.views.common.rows_table_model import cell_text
from mtgui.views.results.details_view import ORDERS, SUMMARY, DetailsView, detail_rows

SCREENSHOTS = Path(__file__).resolve().parents[2] / "screenshots"
ORIGIN = Origin("memory", "plain text", "UTF-8")


def analyse(corpus: Corpus, metrics: list[str]):
    settings = BootstrapSettings(resamples=100)
    return run_to_end(iter_analysis(corpus, metrics, MetricSettings(), settings))


def tiny_corpus() -> Corpus:
    """One segment, counted by hand below."""
    test_set = TestSet(
        doc_ids=("",),
        seg_ids=("1",),
        references=(TextColumn("ref", ("the cat sat on the mat",), ORIGIN),),
        has_documents=False,
    )
    return Corpus(test_set, (SystemOutput("Kit", ("the cat sat on a mat",), ORIGIN),))


@pytest.fixture(scope="module")
def demo_result():
    return analyse(load_demo(), ["bleu", "nist", "ter"])


@pytest.fixture
def view(qtbot):
    view = DetailsView()
    qtbot.addWidget(view)
    view.resize(900, 620)
    return view


def shown(table) -> list[list[str]]:
    """The cells of a DataTableView as the user reads them."""
    return table.table()[1]


def shoot(widget, name: str) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    QApplication.processEvents()  # let the tables lay out their new rows first
    assert widget.grab().save(str(SCREENSHOTS / f"{name}.png"))


def test_only_computed_metrics_with_details_are_offered(view, demo_result):
    assert view.current_metric() is None and "once an analysis" in view.explanation.text()
    view.set_result(demo_result)
    items = [view.metric_choice.itemData(i) for i in range(view.metric_choice.count())]
    assert items == ["bleu", "nist"]  # TER was computed but has no per-order table
    view.set_result(analyse(tiny_corpus(), ["bleu"]))
    assert view.metric_choice.count() == 1 and view.current_metric() == "bleu"
    view.set_result(analyse(tiny_corpus(), ["ter"]))
    assert view.metric_choice.count() == 0
    assert view.orders_model.rowCount() == 0 and "tick one" in view.explanation.text()


@pytest.mark.parametrize("metric", ["bleu", "nist"])
def test_every_number_is_the_engines(view, demo_result, metric):
    view.set_result(demo_result)
    view.set_metric(metric)
    statistics = demo_result.statistics
    engine = statistics.metric(metric)
    order = [e.system for e in demo_result.bootstrap.ranking(metric).systems]
    assert [row[0] for row in shown(view.summary_table)] == order  # best first
    expected_orders, expected_summary = [], []
    for system in order:
        totals = statistics.totals(system, metric)
        summary = {"system": system, "score": statistics.score(system, metric)}
        summary |= engine.summary(totals)
        expected_summary.append([cell_text(summary[key]) for _, key, _ in SUMMARY[metric]])
        for row in engine.details(totals):
            row = {"system": system, **row}
            expected_orders.append([cell_text(row[key]) for _, key, _ in ORDERS[metric]])
    assert shown(view.summary_table) == expected_summary
    assert shown(view.orders_table) == expected_orders
    assert len(expected_orders) == 4 * (4 if metric == "bleu" else 5)


def test_a_tiny_corpus_counted_by_hand(view):
    result = analyse(tiny_corpus(), ["bleu", "nist"])
    summary, orders = detail_rows(result, "bleu", ["Kit"])
    # "the cat sat on a mat" against "the cat sat on the mat": 5/6, 3/5, 2/4, 1/3.
    assert [(row[2], row[3]) for row in orders] == [(6, 5), (5, 3), (4, 2), (3, 1)]
    assert summary[0][2:] == [1.0, 1.0, 6, 6]  # BP, ratio, lengths
    _, nist = detail_rows(result, "nist", ["Kit"])
    # Unigram information is log2(6 reference words / count): "the" (twice) log2 3, "cat",
    # "sat", "on" and "mat" log2 6 each.
    assert nist[0][4] == pytest.approx(math.log2(3) + 4 * math.log2(6))
    # Bigrams: "the cat" log2(2/1) = 1; "cat sat" and "sat on" log2(1/1) = 0.
    assert nist[1][3:6] == [3, pytest.approx(1.0), pytest.approx(1 / 3)]
    view.set_result(result)
    view.system_choice.setCurrentIndex(view.system_choice.findData("Kit"))
    view.orders_table.copy()
    assert QApplication.clipboard().text() == (
        "n\tHyp n-grams\tMatches\tPrecision\n"
        "1\t6\t5\t0.8333\n"
        "2\t5\t3\t0.6000\n"
        "3\t4\t2\t0.5000\n"
        "4\t3\t1\t0.3333\n"
    )


def test_all_systems_copy_with_the_system_column_and_sort_by_order(qtbot, view, demo_result):
    view.set_result(demo_result)
    view.set_metric("nist")
    assert view.system_choice.currentText() == "All systems"
    header = ["System", "n", "Hyp n-grams", "Matches", "Info gain", "Avg info gain"]
    header += ["Precision score", "Contribution %"]
    view.orders_table.copy()
    lines = QApplication.clipboard().text().splitlines()
    assert lines[0].split("\t") == header
    assert lines[1:] == ["\t".join(row) for row in shown(view.orders_table)]
    view.orders_table.sortByColumn(1, Qt.SortOrder.AscendingOrder)  # by n: systems side by side
    order = [e.system for e in demo_result.bootstrap.ranking("nist").systems]
    assert [row[:2] for row in shown(view.orders_table)[:4]] == [[s, "1"] for s in order]


def test_every_column_has_a_tooltip(view, demo_result):
    view.set_result(demo_result)
    for metric in ("bleu", "nist"):
        view.set_metric(metric)
        for model in (view.summary_model, view.orders_model):
            tips = [
                model.headerData(c, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
                for c in range(model.columnCount())
            ]
            assert all(tip and tip.endswith(".") for tip in tips), tips
    nist_tips = " ".join(tip for _, _, tip in ORDERS["nist"])
    assert "Zhang, Vogel & Waibel 2004, Table 1" in nist_tips


def test_exports_write_files_and_never_over_one_without_a_yes(view, demo_result, tmp_path):
    view.set_result(demo_result)
    view.set_metric("bleu")
    view.system_choice.setCurrentIndex(view.system_choice.findData("Lumen"))
    table = view.orders_table
    suggested = []
    table.choose_file = lambda kind, name: suggested.append(name) or tmp_path / name
    table.confirm_overwrite = lambda paths: False
    assert table.export_csv() == tmp_path / "bleu-orders-Lumen.csv"
    assert table.export_latex() == tmp_path / "bleu-orders-Lumen.tex"
    with (tmp_path / "bleu-orders-Lumen.csv").open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows[0] == ["n", "Hyp n-grams", "Matches", "Precision"]
    details = demo_result.statistics.metric("bleu").details(
        demo_result.statistics.totals("Lumen", "bleu")
    )
    assert rows[1:] == [
        [str(d["n"]), str(d["hyp_ngrams"]), str(d["matches"]), f"{d['precision']:.4f}"]
        for d in details
    ]
    latex = (tmp_path / "bleu-orders-Lumen.tex").read_text(encoding="utf-8")
    assert "\\begin{tabular}{r r r r}" in latex and "\\toprule" in latex
    assert f"1 & {details[0]['hyp_ngrams']} & {details[0]['matches']} &" in latex
    before = (tmp_path / "bleu-orders-Lumen.csv").read_bytes()
    view.system_choice.setCurrentIndex(view.system_choice.findData("Quill"))
    table.choose_file = lambda kind, name: tmp_path / "bleu-orders-Lumen.csv"
    assert table.export_csv() is None  # asked, refused: Lumen's file is untouched
    assert (tmp_path / "bleu-orders-Lumen.csv").read_bytes() == before
    table.confirm_overwrite = lambda paths: True
    assert table.export_csv() == tmp_path / "bleu-orders-Lumen.csv"
    assert (tmp_path / "bleu-orders-Lumen.csv").read_bytes() != before
    assert suggested == ["bleu-orders-Lumen.csv", "bleu-orders-Lumen.tex"]


def test_screenshots_on_the_demo_data(qtbot, view, demo_result):
    view.set_result(demo_result)
    view.show()
    qtbot.waitExposed(view)
    shoot(view, "details-bleu-demo")
    view.set_metric("nist")
    view.system_choice.setCurrentIndex(view.system_choice.findData("Lumen"))
    shoot(view, "details-nist-lumen-demo")


@pytest.mark.shared
def test_shared_wmt21_is_en_details(qtbot, view, shared_data):
    folder = shared_data / "wmt21-newstest2021-is-en"
    info = json.loads((folder / "golden.json").read_text(encoding="utf-8"))
    files = [load_file(folder / r["txt"], {Role.REFERENCE}) for r in info["references"]]
    files += [load_file(folder / s["txt"], {Role.SYSTEM}) for s in info["systems"]]
    result = analyse(assemble(files), ["bleu", "nist"])
    view.set_result(result)
    view.set_metric("nist")
    rows = shown(view.orders_table)
    assert len(rows) == 5 * len(info["systems"])
    for system in result.statistics.system_names:
        contributions = [float(r[7]) for r in rows if r[0] == system]
        assert sum(contributions) == pytest.approx(100, abs=0.001)
    view.show()
    qtbot.waitExposed(view)
    shoot(view, "details-nist-wmt21-is-en")
    view.set_metric("bleu")
    shoot(view, "details-bleu-wmt21-is-en")
