"""File > Open campaign... (issue 37, point 2, in the window): the campaign runs on a worker
thread with the command line's code, and the window shows exactly what ``mtgui campaign``
computes: each set's scores coloured by rank cluster, the aggregate per pair, the notes; a bad
campaign file is said in words with its line; cancel stops between sets; the HTML report
exports as ``mtgui campaign --html`` writes it, never over an input."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent, QPalette
from synthetic_sets import write_set

from mtgui.app import campaign as app_campaign
from mtgui.app.campaign import is_campaign_file, provide_campaign_steps
from mtgui.app.threads import threads_left_running
from mtgui.cli.campaign import run_campaign_sets
from mtgui.cli.campaign_file import read_campaign
from mtgui.cli.campaign_steps import campaign_steps
from mtgui.cli.main import load_inputs
from mtgui.report.campaign import aggregate_report
from mtgui.report.campaign_run import CampaignProgress
from mtgui.report.cells import four_decimals
from mtgui.views.common.palette import is_dark
from mtgui.views.results.campaign_view import (
    CampaignWindow,
    aggregate_cells,
    cluster_colors,
    open_campaign,
)
from mtgui.views.window import main_window as main_window_module
from mtgui.views.window.launch import open_files_given
from mtgui.views.window.main_window import MainWindow

SETTINGS = '[settings]\nmetrics = ["bleu", "chrf"]\nbootstrap = 100\nseed = 5\n'


def _entry(name: str, systems: list[str]) -> str:
    hyps = ", ".join(f'"{name}/{s}.txt"' for s in systems)
    return f'\n[[test_sets]]\nname = "{name}"\nrefs = "{name}/ref.txt"\nhyps = [{hyps}]\n'


@pytest.fixture
def campaign(tmp_path):
    """Three sets of 20 segments (the third without C) and their campaign file."""
    rates = {"A": 0.1, "B": 0.3, "C": 0.6}
    text = SETTINGS
    for k in range(3):
        systems = ["A", "B", "C"] if k < 2 else ["A", "B"]
        write_set(tmp_path / f"s{k}", {s: rates[s] for s in systems}, count=20, seed=k)
        text += _entry(f"s{k}", systems)
    path = tmp_path / "tiny.toml"
    path.write_text(text)
    return path


@pytest.fixture
def provided():
    """The launcher's hand-over of the campaign code, undone after the test."""
    before = list(app_campaign._provided)
    provide_campaign_steps(campaign_steps)
    yield
    app_campaign._provided[:] = before


def _shown(qtbot, path: Path) -> CampaignWindow:
    window = CampaignWindow(campaign_steps, synchronous=True)
    qtbot.addWidget(window)
    window.start(path)
    return window


def test_the_menu_opens_a_campaign_on_a_worker_thread_with_the_command_lines_numbers(
    qtbot, campaign, provided
):
    main = MainWindow()
    qtbot.addWidget(main)
    action = next(a for a in main.findChildren(type(main.open_action)) if "campaign" in a.text())
    assert action.isEnabled()
    window = open_campaign(main, campaign)
    assert window is not None
    qtbot.waitUntil(lambda: window.outcome is not None, timeout=60_000)
    qtbot.waitUntil(lambda: not window.runs.threads())  # the command line forks: no thread
    _, found = run_campaign_sets(read_campaign(campaign), load_inputs)
    assert aggregate_report(window.outcome.aggregate) == aggregate_report(found)
    assert window.export_button.isEnabled() and not window.cancel_button.isVisible()
    assert "3 test sets, 3 systems" in window.status.text()
    window.close()


def test_the_grid_shows_each_sets_scores_coloured_by_rank_cluster(qtbot, campaign):
    window = _shown(qtbot, campaign)
    outcome = window.outcome
    assert [window.metric_box.itemText(i) for i in range(window.metric_box.count())] == [
        "bleu",
        "chrf",
    ]
    grid = window.grid
    rows = [grid.verticalHeaderItem(r).text() for r in range(grid.rowCount())]
    columns = [grid.horizontalHeaderItem(c).text() for c in range(grid.columnCount())]
    assert (rows, columns) == (["A", "B", "C"], ["s0", "s1", "s2"])
    base = grid.palette().color(QPalette.ColorRole.Base)
    dark = is_dark(grid.palette())
    for metric in ("bleu", "chrf"):
        window.metric_box.setCurrentText(metric)
        for column, (_, report) in enumerate(outcome.sets):
            for entry in report["rankings"][metric]:
                item = grid.item(rows.index(entry["system"]), column)
                assert item.text() == four_decimals(entry["score"])
                background, text = cluster_colors(entry["cluster"], base, dark)
                assert item.background().color() == background
                assert item.foreground().color() == text
    assert grid.item(2, 2).text() == ""  # C is not in s2
    assert "not in s2" in grid.item(2, 2).toolTip()
    shown = {label.text().strip() for label in window.legend_labels[1:]}
    assert "1 (best)" in shown and len(shown) >= 2  # A is in the first cluster, C not


def test_the_aggregate_table_is_the_reports_per_pair(qtbot, campaign):
    window = _shown(qtbot, campaign)
    window.metric_box.setCurrentText("chrf")
    pairs = [
        p for p in aggregate_report(window.outcome.aggregate)["pairs"] if p["metric"] == "chrf"
    ]
    table = window.aggregate
    assert table.rowCount() == len(pairs) == 3  # A-B, A-C, B-C; A-C and B-C over two sets
    for row, pair in enumerate(pairs):
        texts = [table.item(row, c).text() for c in range(table.columnCount())]
        assert texts == aggregate_cells(pair)
    a_c = next(
        r for r in range(3) if (table.item(r, 0).text(), table.item(r, 1).text()) == ("A", "C")
    )
    assert table.item(a_c, 2).text() == "2"
    assert table.item(a_c, 9).text().endswith("of 2")


def test_a_bad_campaign_file_is_said_with_its_line(qtbot, tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('[settings]\nbootstrap = 100\n\n[[test_sets]]\nname = "x\n')
    window = _shown(qtbot, path)
    message = window.status.text()
    assert "bad.toml" in message and "line 5" in message and "not valid TOML" in message
    assert window.outcome is None and not window.export_button.isEnabled()
    path.write_text("[settings]\nboostrap = 100\n")
    window.start(path)
    assert "line 2" in window.status.text() and "'boostrap'" in window.status.text()


def test_cancel_stops_between_sets(qtbot, campaign):
    window = CampaignWindow(campaign_steps, synchronous=True)
    qtbot.addWidget(window)
    seen = []
    window.runs.progress_changed.connect(seen.append)
    window.runs.progress_changed.connect(window.runs.cancel)  # at the first set's start
    window.start(campaign)
    assert len(seen) == 1 and window.outcome is None
    assert window.status.text().startswith("Cancelled")
    assert not window.cancel_button.isVisible()


def test_the_report_exports_atomically_and_never_over_an_input(qtbot, campaign, tmp_path):
    window = _shown(qtbot, campaign)
    target = tmp_path / "tiny.html"
    window.choose_report_file = lambda title: target
    assert window.export_html()
    page = target.read_text()
    assert page.startswith("<!DOCTYPE html>") and "Across the test sets" in page
    assert "MT evaluation campaign: " in page and "tiny" in page
    original = campaign.read_text()
    window.choose_report_file = lambda title: campaign
    assert not window.export_html()
    assert campaign.read_text() == original
    assert "tiny.toml" in window.status.text()


def test_mtgui_file_toml_opens_the_campaign_beside_the_files(qtbot, campaign, provided):
    main = MainWindow()
    qtbot.addWidget(main)
    open_files_given(main, [campaign])
    opened = main.findChildren(CampaignWindow)
    assert len(opened) == 1 and not main.workspace.entries
    qtbot.waitUntil(lambda: opened[0].outcome is not None, timeout=60_000)
    qtbot.waitUntil(lambda: not opened[0].runs.threads())
    assert is_campaign_file(Path("X.TOML")) and not is_campaign_file(Path("ref.txt"))
    opened[0].close()


def test_a_campaign_dropped_or_opened_in_the_window_opens_as_a_campaign(
    qtbot, campaign, provided, monkeypatch
):
    """A drop of a campaign file and a text file: the campaign opens in its window, the text
    file is read into the main window; File > Open routes a campaign file the same way."""
    main = MainWindow()
    qtbot.addWidget(main)
    read: list[list[Path]] = []
    monkeypatch.setattr(main.controller, "add_files", lambda paths, _: read.append(list(paths)))
    text = campaign.parent / "s0/A.txt"
    data = QMimeData()
    data.setUrls([QUrl.fromLocalFile(str(p)) for p in (campaign, text)])
    drop = QDropEvent(
        QPointF(5, 5),
        Qt.DropAction.CopyAction,
        data,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    main.dropEvent(drop)
    assert read == [[text]] and len(main.findChildren(CampaignWindow)) == 1
    monkeypatch.setattr(main_window_module, "ask_files_to_open", lambda *_: [campaign])
    main.open_files()
    opened = main.findChildren(CampaignWindow)
    assert read == [[text]] and len(opened) == 2
    for window in opened:
        window.close()
    qtbot.waitUntil(lambda: not threads_left_running())


def _endless(path: Path) -> Iterator[CampaignProgress]:
    while True:
        yield CampaignProgress(0, 1, path.name)


def test_the_cancel_button_and_closing_stop_a_run_on_its_thread(qtbot, campaign, provided):
    main = MainWindow()
    qtbot.addWidget(main)
    window = open_campaign(main, campaign)
    assert window is not None and window.cancel_button.isVisible()
    window.cancel_button.click()
    qtbot.waitUntil(lambda: not window.runs.threads())
    assert window.outcome is None and window.status.text().startswith("Cancelled")
    endless = CampaignWindow(_endless, main)  # a run that only closing can stop
    endless.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    endless.start(campaign)
    endless.close()
    qtbot.waitUntil(lambda: not threads_left_running())
    window.close()


def test_the_table_of_pairs_is_no_taller_than_its_rows_and_the_grid_gets_the_room(qtbot, campaign):
    window = _shown(qtbot, campaign)
    window.resize(1000, 680)
    window.show()
    qtbot.waitExposed(window)
    aggregate = window.aggregate
    rows = aggregate.horizontalHeader().height() + aggregate.verticalHeader().length()
    slack = aggregate.horizontalScrollBar().sizeHint().height() + 2 * aggregate.frameWidth()
    assert rows <= aggregate.height() <= rows + slack
    assert window.grid.height() > aggregate.height()
