"""DataTableView: what is copied and exported is what is shown, in the order it is shown."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from PySide6.QtCore import QItemSelectionModel, QSortFilterProxyModel, Qt
from PySide6.QtWidgets import QApplication, QToolButton

from mtgui.engine.core.running import run_to_end
from mtgui.engine.resampling.bootstrap import iter_bootstrap
from mtgui.engine.resampling.settings import BootstrapSettings
from mtgui.engine.statistics.rows import compute_statistics
from mtgui.io.demo import load_demo
from mtgui.views.common.rows_table_model import SORT_ROLE, RowsTableModel
from mtgui.views.common.table_view import DataTableView
from mtgui.views.results.significance_grid_model import SignificanceGridModel

HEADER = ["System", "Score", "Note"]
ROWS = [["Quill", 0.25, "b, c"], ["Lumen", 0.5, 'say "x"'], ["Tessera", 0.125, "a_b"]]


@pytest.fixture
def view(qtbot):
    model = RowsTableModel()
    model.set_table(HEADER, ROWS)
    proxy = QSortFilterProxyModel()
    proxy.setSourceModel(model)
    proxy.setSortRole(SORT_ROLE)
    view = DataTableView(export_name="scores")
    qtbot.addWidget(view)
    view.setModel(proxy)
    view.setSortingEnabled(True)
    view.sortByColumn(-1, Qt.SortOrder.AscendingOrder)  # the model's order until a click
    view._keep = (model, proxy)  # the view does not own them
    return view


def test_the_whole_table_is_copied_as_shown_sorted_with_its_header(view):
    view.sortByColumn(1, Qt.SortOrder.DescendingOrder)
    view.copy()
    assert QApplication.clipboard().text() == (
        'System\tScore\tNote\nLumen\t0.5000\tsay "x"\nQuill\t0.2500\tb, c\nTessera\t0.1250\ta_b\n'
    )


def test_moved_and_hidden_columns_are_copied_as_the_user_arranged_them(view):
    view.horizontalHeader().moveSection(2, 0)  # Note first
    view.setColumnHidden(1, True)  # no Score
    assert view.table() == (
        ["Note", "System"],
        [["b, c", "Quill"], ['say "x"', "Lumen"], ["a_b", "Tessera"]],
    )


def test_ctrl_c_copies_the_selected_cells_or_else_the_whole_table(qtbot, view):
    view.show()
    qtbot.waitExposed(view)
    view.setFocus()
    model, selection = view.model(), view.selectionModel()
    flags = QItemSelectionModel.SelectionFlag.Select
    selection.select(model.index(0, 0), flags)
    selection.select(model.index(2, 1), flags)
    qtbot.keyClick(view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert QApplication.clipboard().text() == "System\tScore\nQuill\t\n\t0.1250\n"
    view.clearSelection()
    view.setCurrentIndex(model.index(1, 1))  # one cell: the whole table
    qtbot.keyClick(view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert QApplication.clipboard().text().splitlines() == [
        "System\tScore\tNote",
        "Quill\t0.2500\tb, c",
        'Lumen\t0.5000\tsay "x"',
        "Tessera\t0.1250\ta_b",
    ]


def test_the_context_menu_offers_copy_and_both_exports_and_a_host_may_show_buttons(view):
    assert view.contextMenuPolicy() == Qt.ContextMenuPolicy.ActionsContextMenu
    texts = [action.text() for action in view.actions()]
    assert texts == ["Copy (tab-separated)", "Export CSV...", "Export LaTeX..."]
    bar = view.button_bar()
    buttons = bar.findChildren(QToolButton)
    assert [b.defaultAction() for b in buttons] == view.actions()
    bar.deleteLater()


def test_the_significance_grid_is_copied_with_its_row_systems(qtbot):
    statistics = compute_statistics(load_demo(), ["bleu"])
    result = run_to_end(iter_bootstrap(statistics, BootstrapSettings(resamples=200)))
    model = SignificanceGridModel()
    model.set_result(result, "bleu")
    view = DataTableView()
    qtbot.addWidget(view)
    view.setModel(model)
    header, rows = view.table()
    order = model.systems
    assert header == ["", *order]
    assert [row[0] for row in rows] == order
    assert rows[0][1:] == [model.index(0, c).data() for c in range(len(order))]
    assert rows[1][2] == "·"
    view.verticalHeader().hide()  # the names are not shown: not copied either
    assert view.table()[0] == order


def test_exports_write_csv_and_latex_and_add_the_suffix(view, tmp_path):
    asked: list[tuple[str, str]] = []

    def choose(kind: str, suggested: str) -> Path:
        asked.append((kind, suggested))
        return tmp_path / "table"

    view.choose_file = choose
    written = []
    view.exported.connect(written.append)
    assert view.export_csv() == tmp_path / "table.csv"
    assert view.export_latex() == tmp_path / "table.tex"
    assert asked == [("csv", "scores.csv"), ("latex", "scores.tex")]
    assert written == [tmp_path / "table.csv", tmp_path / "table.tex"]
    data = (tmp_path / "table.csv").read_bytes()
    assert data.startswith(b"\xef\xbb\xbf")  # a BOM, as the CSV reports: Excel reads UTF-8
    with (tmp_path / "table.csv").open(encoding="utf-8-sig", newline="") as handle:
        assert list(csv.reader(handle)) == [
            HEADER,
            ["Quill", "0.2500", "b, c"],
            ["Lumen", "0.5000", 'say "x"'],
            ["Tessera", "0.1250", "a_b"],
        ]
    latex = (tmp_path / "table.tex").read_text(encoding="utf-8")
    assert latex.startswith("% scores\n")
    assert "\\begin{tabular}{l r l}" in latex and "Tessera & 0.1250 & a\\_b \\\\" in latex
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table.csv", "table.tex"]


def test_an_existing_file_is_replaced_only_when_the_user_agrees(view, tmp_path):
    target = tmp_path / "scores.csv"
    target.write_text("keep me", encoding="utf-8")
    view.choose_file = lambda kind, suggested: target
    questions: list[list[Path]] = []
    view.confirm_overwrite = lambda paths: questions.append(paths) or False
    assert view.export_csv() is None
    assert target.read_text(encoding="utf-8") == "keep me"
    view.confirm_overwrite = lambda paths: questions.append(paths) or True
    assert view.export_csv() == target
    assert target.read_text(encoding="utf-8-sig").startswith("System,Score,Note\n")
    assert questions == [[target], [target]]


def test_a_failed_export_is_told_in_plain_words_not_raised(view, tmp_path):
    problems: list[str] = []
    view.show_problem = problems.append
    view.choose_file = lambda kind, suggested: tmp_path / "missing" / "t.csv"
    assert view.export_csv() is None
    assert problems == [
        f"{tmp_path / 'missing' / 't.csv'}: the folder to write into does not exist."
    ]
    view.choose_file = lambda kind, suggested: None  # the dialog was cancelled
    assert view.export_latex() is None and len(problems) == 1
