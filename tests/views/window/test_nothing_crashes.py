"""Issue 32, the window: a view asked for a metric or a system that its results lack says it
is "not in these results" and never raises; an unexpected error is told by one dialog opened
from the event loop, never inside the paint or the slot that raised."""

from __future__ import annotations

import pytest
from gui_helpers import wait_for_result
from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt
from PySide6.QtWidgets import QMessageBox, QTableView

from mtgui.views.common.absent import NOT_IN_RESULTS, missing_text
from mtgui.views.window.launch import load_demo_into
from mtgui.views.window.unexpected import UnexpectedErrors


def show_breakdown(qtbot, window):
    view = window.results.breakdown
    window.results.tabs.setCurrentWidget(view)
    qtbot.waitUntil(
        lambda: view.breakdown is not None and not view.controller.running, timeout=60_000
    )
    return view


def tick_and_wait(qtbot, window, metric):
    old = window.result
    window.settings_panel.metric_boxes[metric].setChecked(True)
    qtbot.waitUntil(
        lambda: window.result is not old and not window.controller.analysing, timeout=60_000
    )


def test_a_metric_ticked_after_the_breakdown_is_said_to_be_not_in_it(qtbot, window):
    # The crash of issue 32: Breakdown shown once, then Scores, chrF++ ticked, run, chosen.
    load_demo_into(window)
    wait_for_result(qtbot, window)
    view = show_breakdown(qtbot, window)
    old_breakdown = view.breakdown
    window.results.tabs.setCurrentWidget(window.results.score_table)
    tick_and_wait(qtbot, window, "chrf++")
    choice = window.results.metric_choice
    choice.setCurrentIndex(choice.findData("chrf++"))  # raised KeyError: ('Lumen', 'chrf++')
    assert view.breakdown is old_breakdown and "chrf++" not in old_breakdown.metrics
    assert f"chrF++ is {NOT_IN_RESULTS}" in view.message.text()
    assert view.model.rowCount() == 0 and view.legend.text() == ""
    view.grab()  # painted while it lacks the metric: nothing raises
    window.results.tabs.setCurrentWidget(view)  # shown: broken down again, with chrF++
    qtbot.waitUntil(
        lambda: view.breakdown is not old_breakdown and not view.controller.running,
        timeout=60_000,
    )
    assert "chrf++" in view.breakdown.metrics
    assert NOT_IN_RESULTS not in view.message.text()
    assert view.model.rowCount() == 3
    view.grab()


def test_every_view_asked_for_what_its_result_lacks_says_so(qtbot, window):
    load_demo_into(window)
    wait_for_result(qtbot, window)
    results, result = window.results, window.result
    # The paired view: a system the result lacks, a metric it lacks.
    results.paired.set_result(result, "bleu")
    results.paired.set_pair("Nobody", "Lumen")
    assert f"Nobody is {NOT_IN_RESULTS}" in results.paired.summary.text()
    results.paired.set_result(result, "ter")
    assert f"TER is {NOT_IN_RESULTS}" in results.paired.summary.text()
    # Segments and Documents: the pair chosen stays, the count line says why.
    for view in (results.segments, results.documents):
        view.set_result(result, metric="bleu")
        before = view.pair()
        view.set_pair("Nobody", "Lumen")
        assert view.pair() == before
        assert f"Nobody is {NOT_IN_RESULTS}" in view.count.text()
        view.grab()
    window.show_segments("Lumen", "Gone")
    assert f"Gone is {NOT_IN_RESULTS}" in results.segments.count.text()
    # The distributions of a metric the result lacks: no marks, and the words.
    histograms = results.histograms
    histograms.start_run(list(result.bootstrap.systems), "ter", "TER")
    histograms.finish_run(result.bootstrap)
    assert histograms.missing.text() == f"TER is {NOT_IN_RESULTS}."
    assert not histograms.marks_legend.isVisible()
    # The breakdown under a metric it lacks.
    view = show_breakdown(qtbot, window)
    view.set_metric("ter")
    assert f"TER is {NOT_IN_RESULTS}" in view.message.text()
    view.grab()


def test_missing_text_names_the_metric_or_the_systems():
    assert missing_text("bleu", ("bleu",)) == ""
    assert missing_text("chrf++", ("bleu",)) == f"chrF++ is {NOT_IN_RESULTS}."
    assert missing_text(None, (), ["A", "B"], ["A"]) == f"B is {NOT_IN_RESULTS}."
    assert missing_text(None, (), ["C", "B"], ["A"]) == f"C, B are {NOT_IN_RESULTS}."


class Raising(QAbstractTableModel):
    """A model whose cells raise, as the breakdown's did under a metric it lacked."""

    def rowCount(self, parent=QModelIndex()):  # noqa: B008, N802
        return 3

    def columnCount(self, parent=QModelIndex()):  # noqa: B008, N802
        return 3

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if role == Qt.ItemDataRole.DisplayRole:
            raise KeyError(("AFRL", "chrf++"))
        return None


def test_an_error_inside_a_paint_opens_one_dialog_later_never_inside_the_paint(
    qtbot, monkeypatch, capsys
):
    # Opening a modal dialog inside the paint ran an event loop there: more paints, more
    # dialogs, and a segmentation fault when the last one closed.
    handler = UnexpectedErrors()
    saved = []
    handler.on_error = lambda: saved.append(True)
    nested = []
    monkeypatch.setattr(QMessageBox, "exec", lambda box: nested.append(box) or 0)
    table = QTableView()
    qtbot.addWidget(table)
    table.setModel(Raising(table))
    painting = []  # for each time the dialog is opened: was the table being painted then?
    show = handler._show
    monkeypatch.setattr(
        handler, "_show", lambda: painting.append(table.viewport().paintingActive()) or show()
    )
    with qtbot.capture_exceptions() as raised:
        monkeypatch.setattr("sys.excepthook", handler)
        table.show()  # painted by the event loop: every cell raises, the handler is called
        qtbot.waitUntil(lambda: handler.count >= 9)
        qtbot.waitUntil(lambda: handler.box is not None and handler.box.isVisible())
        assert painting and not any(painting) and not nested  # nothing opened inside the paint
        seen = handler.count
        table.viewport().update()  # raising again while the dialog is shown: counted in it
        qtbot.waitUntil(lambda: handler.count > seen)
        boxes = [w for w in qtbot_top_levels() if isinstance(w, QMessageBox) and w.isVisible()]
        assert boxes == [handler.box]
        assert "KeyError: ('AFRL', 'chrf++')" in handler.box.text()
        assert f"{handler.count} times" in handler.box.text()
        assert not nested
        table.setModel(None)
        handler.box.reject()
        qtbot.waitUntil(lambda: handler.box is None)
    assert raised == []
    assert len(saved) == handler.count  # the work is saved at every error
    assert "KeyError" in capsys.readouterr().err


def qtbot_top_levels():
    from PySide6.QtWidgets import QApplication

    return QApplication.topLevelWidgets()


def test_after_cancel_the_distributions_show_the_previous_result_as_the_tables_do(qtbot, window):
    load_demo_into(window)
    wait_for_result(qtbot, window)
    previous = window.result
    histograms = window.results.histograms
    assert histograms.counts("Lumen").sum() == 300
    window.settings_panel.resamples.setValue(100_000)  # long enough to cancel in the middle
    qtbot.waitUntil(lambda: 0 < histograms.counts("Lumen").sum() != 300, timeout=60_000)
    assert not histograms.marks_legend.isVisible()  # a run's partial histograms
    window.cancel()
    assert window.result is previous
    assert "previous settings" in window.statusBar().currentMessage()
    assert histograms.counts("Lumen").sum() == 300  # the previous result's, as Scores shows
    assert histograms.marks_legend.isVisible()  # with its score, median and interval lines
    lumen = previous.bootstrap.interval("Lumen", window.current_metric())
    marks = [line.value() for line in histograms._marks["Lumen"]]
    assert marks == [lumen.score, lumen.median, lumen.ci_low, lumen.ci_high]
    qtbot.wait(300)  # partial scores still on their way change nothing
    assert histograms.counts("Lumen").sum() == 300


BAD_SESSIONS = {
    "version-2": b'{"mtgui_session": 2, "files": []}',
    "empty": b"",
    "utf-16": '{"mtgui_session": 1, "files": []}'.encode("utf-16"),
    "nan": b'{"mtgui_session": 1, "files": [], "settings": {"level": NaN}}',
    "deep": b'{"mtgui_session": 1, "files": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    "huge-number": b'{"mtgui_session": 1, "files": [], "settings": {"seed": '
    + b"9" * 100_001
    + b"}}",
    "wrong-types": b'{"mtgui_session": 1, "files": {"a": 1}}',
    "10001-files": (
        '{"mtgui_session": 1, "files": ['
        + ",".join(f'{{"path": "/x/{n}.txt"}}' for n in range(10_001))
        + "]}"
    ).encode(),
}


@pytest.mark.parametrize("name", sorted(BAD_SESSIONS))
def test_a_session_refused_at_start_stays_said_on_the_empty_window(qtbot, tmp_path, name):
    from PySide6.QtCore import QSettings

    from mtgui.app.analysis import RERUN_DELAY_MS
    from mtgui.app.preferences import Preferences
    from mtgui.views.window.main_window import MainWindow

    session = tmp_path / f"{name}.mtgui.json"
    session.write_bytes(BAD_SESSIONS[name])
    settings = QSettings(str(tmp_path / "mtgui.ini"), QSettings.Format.IniFormat)
    window = MainWindow(preferences=Preferences(settings))
    qtbot.addWidget(window)
    window.show()
    window.add_files([session])  # as `mtgui S.mtgui.json` does, as the window opens
    window.controller.analysis.rerun_soon()  # the start-up run (settings restored)
    qtbot.waitUntil(lambda: window.welcome.problem.isVisible(), timeout=10_000)
    qtbot.wait(RERUN_DELAY_MS * 2)  # the start-up run: "cannot run", nothing loaded
    assert window.right.currentWidget() is window.welcome  # nothing loaded
    text = window.welcome.problem.text()
    assert window.welcome.problem.isVisible() and session.name in text, text
    assert window.results.problem.text() == text
    assert "could not be opened" in window.statusBar().currentMessage()
    assert window.workspace.entries == ()
    window.close()


def session_listing(path, *listed):
    import json

    files = [{"path": str(p), "relative": p.name} for p in listed]
    path.write_text(json.dumps({"mtgui_session": 1, "files": files}), encoding="utf-8")


@pytest.mark.parametrize("case", ["itself", "each-other", "itself-as-json"])
def test_a_session_that_lists_a_session_is_refused_in_words_never_asked_of(
    qtbot, window, tmp_path, case
):
    first = tmp_path / ("s.json" if case == "itself-as-json" else "first.mtgui.json")
    second = tmp_path / "second.mtgui.json"
    reference, system = tmp_path / "ref.txt", tmp_path / "sys.txt"
    reference.write_text("a b c\n", encoding="utf-8")
    system.write_text("a b d\n", encoding="utf-8")
    if case == "each-other":
        session_listing(first, reference, second, system)
        session_listing(second, first)
    else:
        session_listing(first, reference, first, system)
    asked = []
    window.choose_scores = lambda *args: asked.append(args)
    window.choose_roles = lambda *args: asked.append(args)
    window.add_files([first])
    qtbot.waitUntil(lambda: bool(window.welcome.problem.text()), timeout=10_000)
    text = window.welcome.problem.text()
    what = "itself" if case != "each-other" else "the session second.mtgui.json"
    assert f"{first.name}: this session lists {what} among its files" in text
    assert window.workspace.entries == ()
    qtbot.wait(500)
    assert asked == []


def test_undefined_scores_draw_no_line_at_nan(qtbot, window):
    # Found by the random walk (5,000 steps): a mark at NaN made pyqtgraph raise at each paint.
    import dataclasses
    import math

    load_demo_into(window)
    wait_for_result(qtbot, window)
    bootstrap = window.result.bootstrap
    undefined = tuple(
        dataclasses.replace(i, score=math.nan, ci_low=math.nan) if i.system == "Lumen" else i
        for i in bootstrap.intervals
    )
    broken = dataclasses.replace(bootstrap, intervals=undefined)
    histograms = window.results.histograms
    window.results.tabs.setCurrentWidget(histograms)
    for layout in ("small multiples", "overlaid"):
        histograms.layout_choice.setCurrentText(layout)
        histograms.start_run(list(bootstrap.systems), "bleu", "BLEU")
        histograms.finish_run(broken)
        qtbot.wait(100)  # painted by the event loop: an error there fails the test
    if "Lumen" in histograms._marks:
        score, median, low, _ = histograms._marks["Lumen"]
        assert not score.isVisible() and not low.isVisible() and median.isVisible()


def test_human_alone_without_human_scores_cannot_run_and_says_why(qtbot, window):
    # Found by the random walk: the engine was started with no metric and raised IndexError.
    load_demo_into(window)
    wait_for_result(qtbot, window)
    panel = window.settings_panel
    for name, box in panel.metric_boxes.items():
        box.setChecked(name == "human")
    qtbot.waitUntil(lambda: "Human is the only metric ticked" in window.results.problem.text())
    assert "internal" not in window.results.problem.text().lower()
