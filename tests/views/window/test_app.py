"""The desktop application driven as a user would: drops, runs, cancel, export, errors, close."""

from __future__ import annotations

import csv
import gc
from pathlib import Path

import pytest
from gui_helpers import drop, drop_event, shoot, system_item, wait_for_result
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QApplication, QPushButton

from mtgui.engine.core.corpus import Role
from mtgui.io.demo import demo_inputs
from mtgui.views.window.launch import create_application, load_demo_into
from mtgui.views.window.main_window import MainWindow


@pytest.fixture
def window(qtbot):
    window = MainWindow()
    qtbot.addWidget(window)
    window.settings_panel.resamples.setValue(300)  # fast runs
    window.show()
    qtbot.waitExposed(window)
    yield window
    window.close()


def double_click(qtbot, widget, position) -> None:
    """A press, release and double-click, as a mouse sends them (item views need all three)."""
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton, pos=position)
    qtbot.mouseDClick(widget, Qt.MouseButton.LeftButton, pos=position)


def test_empty_window_invites_a_drop(window):
    assert window.windowTitle() == "mtgui"
    assert "Drop reference and system files" in window.statusBar().currentMessage()
    assert window.files_panel.topLevelItemCount() == 0


def test_dropping_the_demo_files_runs_the_analysis(qtbot, window):
    drop(window, [path for path, _ in demo_inputs()])
    wait_for_result(qtbot, window)
    assert window.files_panel.topLevelItemCount() == 5
    assert window.results.score_model.rowCount() == 4
    assert window.results.score_model.index(0, 0).data() == "Lumen"
    # The view too: best first.
    assert window.results.score_table.model().index(0, 0).data() == "Lumen"
    assert window.results.grid_model.index(0, 1).data() == "~"
    assert "{Lumen, Quill} > {Tessera} > {Ostrich}" in window.results.clusters.text()
    assert window.results.histograms.counts("Lumen").sum() == 300
    assert window.export_action.isEnabled()
    assert window.statusBar().currentMessage().startswith("Done in")
    assert window.windowTitle() == "4 systems, 2 references, 95 segments — mtgui"
    for index, name in enumerate(["summary", "distributions", "scores", "significance"]):
        window.results.tabs.setCurrentIndex(index)
        shoot(window, f"main-window-{name}-demo")


def test_plain_text_asks_its_role_and_bad_files_show_their_problem(qtbot, window, tmp_path):
    ref = tmp_path / "newstest.ref.en"
    ref.write_text("a b c\nd e f\n", encoding="utf-8")
    hyp = tmp_path / "sysA.en"
    hyp.write_text("a b c\nd e x\n", encoding="utf-8")
    bad = tmp_path / "broken.sgm"
    bad.write_text("<tstset>\n<doc docid='a'>\n<seg id='1'>x\n", encoding="utf-8")
    asked = []
    window.choose_roles = lambda files: asked.append([(p.name, g) for p, g in files]) or dict(files)
    drop(window, [ref, hyp, bad])
    wait_for_result(qtbot, window)
    assert asked == [[("newstest.ref.en", Role.REFERENCE), ("sysA.en", Role.SYSTEM)]]  # once
    broken = window.files_panel.topLevelItem(2)
    assert broken.text(1) == "could not be read"
    assert "never closed" in " ".join(broken.child(0).text(0).split())  # wrapped to fit
    assert window.results.score_model.rowCount() == 1


def test_a_file_dropped_on_a_listed_file_replaces_it_in_its_place_and_role(qtbot, window, tmp_path):
    ref = tmp_path / "ref.en"
    ref.write_text("a b c\nd e f\n", encoding="utf-8")
    first = tmp_path / "sysA.en"
    first.write_text("a b c\nd e x\n", encoding="utf-8")
    other = tmp_path / "sysB.en"
    other.write_text("a x c\nd x x\n", encoding="utf-8")
    roles = {ref: Role.REFERENCE, first: Role.SYSTEM, other: Role.SYSTEM}
    window.add_files([ref, first, other], roles)
    wait_for_result(qtbot, window)
    newer = tmp_path / "sysA.v2.en"
    newer.write_text("a b c\nd e f\n", encoding="utf-8")
    window.choose_roles = lambda *_: pytest.fail("a replacement keeps the old file's role")
    panel = window.files_panel
    target = panel.visualItemRect(panel.topLevelItem(1)).center()
    window.result = None
    panel.dropEvent(drop_event([newer], QPointF(target)))
    wait_for_result(qtbot, window)
    assert [e.path for e in window.workspace.entries] == [ref, newer, other]
    assert panel.topLevelItem(1).text(0) == "sysA.v2.en"
    best = window.results.score_model.index(0, 0).data()
    assert window.result.bootstrap.interval(best, "bleu").score == 1.0  # the new version
    # Several files dropped on the panel are added, not replacing anything.
    extra = tmp_path / "sysC.en"
    extra.write_text("x\ny\n", encoding="utf-8")
    window.result = None
    window.choose_roles = dict
    panel.dropEvent(drop_event([extra, tmp_path / "missing.en"], QPointF(target)))
    wait_for_result(qtbot, window)
    assert len(window.workspace.entries) == 5


def test_files_dropped_while_others_load_wait_their_turn(qtbot, window, tmp_path):
    paths = [path for path, _ in demo_inputs()]
    drop(window, paths[:2])
    assert window.controller.loading
    drop(window, paths[2:])
    wait_for_result(qtbot, window)
    assert [e.path for e in window.workspace.entries] == paths
    assert window.results.score_model.rowCount() == 4


def test_systems_are_renamed_and_hidden_from_the_files_panel(qtbot, window):
    load_demo_into(window)
    wait_for_result(qtbot, window)
    panel = window.files_panel

    def click(system, text):
        menu = panel.menu_for(system_item(panel, system))
        action = next(a for a in menu.actions() if a.text() == text)
        window.result = None
        action.trigger()
        wait_for_result(qtbot, window)

    panel.ask_name = lambda name: "Lumen 2"
    click("Lumen", "Rename...")
    assert set(window.result.bootstrap.systems) == {"Lumen 2", "Quill", "Tessera", "Ostrich"}
    click("Quill", "Hide from the analysis")
    assert set(window.result.bootstrap.systems) == {"Lumen 2", "Tessera", "Ostrich"}
    assert window.results.grid_model.rowCount() == 3
    assert system_item(panel, "Quill").text(1) == "hidden"
    assert system_item(panel, "Lumen 2").text(0).endswith("Lumen 2")
    shoot(window, "main-window-hidden-system")
    click("Quill", "Show in the analysis")
    assert len(window.result.bootstrap.systems) == 4
    ostrich_file = system_item(panel, "Ostrich").parent()
    remove = next(a for a in panel.menu_for(ostrich_file).actions() if a.text() == "Remove")
    window.result = None
    remove.trigger()
    wait_for_result(qtbot, window)
    assert set(window.result.bootstrap.systems) == {"Lumen 2", "Quill", "Tessera"}
    assert panel.topLevelItemCount() == 4


def test_export_writes_csv_and_asks_before_replacing(qtbot, window, tmp_path):
    load_demo_into(window)
    wait_for_result(qtbot, window)
    window.choose_folder = lambda: tmp_path
    asked = []
    window.confirm_overwrite = lambda existing: asked.append(len(existing)) or False
    window.export()
    with (tmp_path / "scores.csv").open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(line for line in handle if not line.startswith("#")))
    assert {row["system"] for row in rows} == {"Lumen", "Quill", "Tessera", "Ostrich"}
    before = (tmp_path / "scores.csv").stat().st_mtime_ns
    window.export()  # the files exist now: asked, refused, nothing replaced
    assert asked == [len(list(tmp_path.glob("*.csv")))]
    assert (tmp_path / "scores.csv").stat().st_mtime_ns == before


def test_cancel_mid_run_and_a_setting_change_restarts(qtbot, window):
    window.settings_panel.resamples.setValue(100_000)
    load_demo_into(window)
    runs = window.controller.analysis.runs
    qtbot.waitUntil(lambda: runs.running, timeout=10_000)
    first = runs.run_id
    window.settings_panel.seed.setValue(7)  # restarts after a short delay
    qtbot.waitUntil(lambda: runs.run_id > first, timeout=5000)
    window.cancel()
    assert not runs.running
    message = window.statusBar().currentMessage()
    if window.controller.analysis.stale_text:  # the first run got to show partial scores
        assert message.startswith("Cancelled: the views show the results of the previous")
    else:
        assert message == "Cancelled."
    assert all(thread.wait(2000) for thread in runs.threads())


def test_closing_during_a_run_shuts_the_thread_down(qtbot, window):
    window.settings_panel.resamples.setValue(100_000)
    load_demo_into(window)
    qtbot.waitUntil(lambda: window.controller.analysing, timeout=10_000)
    threads = window.controller.analysis.runs.threads()
    window.close()
    assert all(thread.isFinished() for thread in threads)


def test_application_has_its_names(qapp):
    app = create_application()
    assert app is qapp
    assert app.applicationName() == "mtgui"


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--demo"], (True, [])),
        (["a.sgm", "b.txt"], (False, [Path("a.sgm"), Path("b.txt")])),
        ([], (False, [])),
    ],
)
def test_the_command_opens_the_window_on_the_demo_or_on_files(monkeypatch, argv, expected):
    from mtgui import launch
    from mtgui.views.window import launch as window_launch

    calls = []
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    monkeypatch.setattr(
        window_launch, "run_application", lambda demo, files: calls.append((demo, files)) or 0
    )
    assert launch.main(argv) == 0
    assert calls == [expected]


def test_an_unexpected_error_is_shown_with_its_details_and_nothing_closes(qtbot, window, capsys):
    from PySide6.QtWidgets import QApplication

    from mtgui.views.window.launch import show_unexpected_error
    from mtgui.views.window.unexpected import unexpected_errors

    try:
        raise ZeroDivisionError("boom")
    except ZeroDivisionError as error:
        show_unexpected_error(type(error), error, error.__traceback__)
    assert unexpected_errors.box is None  # at the next turn of the event loop
    qtbot.waitUntil(lambda: unexpected_errors.box is not None)
    box = unexpected_errors.box
    assert "Something went wrong inside mtgui (ZeroDivisionError: boom)" in box.text()
    details = box.detailedText()
    assert "Traceback" in details and "ZeroDivisionError: boom" in details
    copy = next(b for b in box.buttons() if b.text() == "Copy details")
    copy.click()
    qtbot.waitUntil(lambda: unexpected_errors.box is None)
    assert QApplication.clipboard().text() == details
    assert "ZeroDivisionError: boom" in capsys.readouterr().err
    assert window.isVisible()


def test_double_clicking_a_grid_cell_opens_the_paired_view_of_its_two_systems(qtbot, window):
    load_demo_into(window)
    wait_for_result(qtbot, window)
    window.results.tabs.setCurrentWidget(window.results.grid_page)
    grid = window.results.grid_table
    order = window.results.grid_model.systems
    cell = grid.visualRect(window.results.grid_model.index(3, 0)).center()  # worst row, best column
    double_click(qtbot, grid.viewport(), cell)
    assert window.results.tabs.currentWidget() is window.results.paired
    paired = window.results.paired
    assert (paired.first.currentText(), paired.second.currentText()) == (order[3], order[0])
    assert paired.deltas.comparison.verdict == window.results.grid_model.index(3, 0).data() == "<"
    assert paired.histogram()[0].sum() == 300
    shoot(window, "main-window-paired-demo")
    diagonal = grid.visualRect(window.results.grid_model.index(1, 1)).center()
    window.results.tabs.setCurrentWidget(window.results.grid_page)
    double_click(qtbot, grid.viewport(), diagonal)
    # A system against itself: nothing to open.
    assert window.results.tabs.currentWidget() is window.results.grid_page


def test_from_the_grid_to_the_paired_view_to_the_segments_of_the_two(qtbot, window):
    load_demo_into(window)
    wait_for_result(qtbot, window)
    window.show_pair("Lumen", "Ostrich")
    button = next(
        b for b in window.results.paired.findChildren(QPushButton) if "segments" in b.text()
    )
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    segments = window.results.segments
    assert window.results.tabs.currentWidget() is segments
    assert segments.pair() == ("Lumen", "Ostrich")
    segments.select_segment(2)
    shown = segments.highlighted("a")  # Lumen's third segment; see test_segments_view.py
    assert ("post", 4) in shown and shown[-3:] == [("chapel", 1), ("chapel", 2), (".", 2)]
    shoot(window, "main-window-segments-demo")


def test_the_details_tab_fills_when_shown_and_follows_the_metric(qtbot, window):
    load_demo_into(window)
    wait_for_result(qtbot, window)
    assert window.results.details.current_metric() is None  # not filled while hidden
    window.results.tabs.setCurrentWidget(window.results.details)
    assert window.results.details.current_metric() == "bleu"
    window.results.metric_choice.setCurrentIndex(window.results.metric_choice.findData("nist"))
    assert window.results.details.current_metric() == "nist"
    shoot(window, "main-window-details-demo")


def test_ctrl_c_copies_the_score_table_as_it_is_shown(qtbot, window):
    load_demo_into(window)
    wait_for_result(qtbot, window)
    window.results.tabs.setCurrentWidget(window.results.score_table)
    table = window.results.score_table
    table.sortByColumn(0, Qt.SortOrder.AscendingOrder)  # by name
    table.setFocus()
    table.copy_action.trigger()
    lines = QApplication.clipboard().text().splitlines()
    assert lines[0].split("\t")[:4] == ["System", "Rank", "Score", "Median"]
    assert [line.split("\t")[0] for line in lines[1:]] == ["Lumen", "Ostrich", "Quill", "Tessera"]
    bleu = window.result.bootstrap.interval("Ostrich", "bleu").score
    assert lines[2].split("\t")[1:3] == ["4", f"{bleu:.4f}"]  # Ostrich is last on the demo


def test_every_column_header_of_the_window_has_a_tooltip(qtbot, window):
    load_demo_into(window)
    wait_for_result(qtbot, window)
    header = window.files_panel.headerItem()
    for column in range(window.files_panel.columnCount()):
        assert header.toolTip(column).endswith("."), header.text(column)
    window.results.tabs.setCurrentWidget(window.results.segments)
    window.results.tabs.setCurrentWidget(window.results.details)
    tables = [window.results.score_table, window.results.grid_table, window.results.segments.table]
    tables += [window.results.details.summary_table, window.results.details.orders_table]
    for table in tables:
        model = table.model()
        for column in range(model.columnCount()):
            tip = model.headerData(column, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
            assert tip, (type(model).__name__, column)


def test_a_closed_window_nothing_refers_to_is_collected_quietly(qtbot, capfd):
    window = MainWindow()
    window.show()
    qtbot.waitExposed(window)
    window.close()
    destroyed = []
    window.destroyed.connect(lambda: destroyed.append(True))
    del window
    gc.collect()
    assert destroyed  # no reference cycle through Qt keeps a window alive
    assert "not found" not in capfd.readouterr().err
