"""The status line: a message longer than the bar is cut with "..." and whole in its tooltip,
whole again when the window widens; QStatusBar's calls keep their meaning (the message asked
for is the whole one, a timeout clears it)."""

from __future__ import annotations

from PySide6.QtWidgets import QMainWindow, QProgressBar

from mtgui.views.common.status_line import StatusLine

LONG = "Wrote " + "/a/rather/deep/folder" * 8 + "/report.html."


def window_with_status_line(qtbot, width: int) -> tuple[QMainWindow, StatusLine]:
    window = QMainWindow()
    qtbot.addWidget(window)
    line = StatusLine()
    window.setStatusBar(line)
    progress = QProgressBar()  # as the main window's: it takes room from the message
    progress.setMaximumWidth(200)
    line.addPermanentWidget(progress)
    window.resize(width, 200)
    window.show()
    qtbot.waitExposed(window)
    return window, line


def test_a_long_message_is_cut_to_the_bar_and_whole_in_its_tooltip(qtbot):
    window, line = window_with_status_line(qtbot, 500)
    with qtbot.waitSignal(line.messageChanged) as changed:
        line.showMessage(LONG)
    assert changed.args == [LONG]
    label = line.message
    assert line.currentMessage() == LONG
    assert label.text().endswith("\u2026") and len(label.text()) < len(LONG)
    assert label.fontMetrics().horizontalAdvance(label.text()) <= label.contentsRect().width()
    assert label.toolTip() == LONG
    window.resize(window.fontMetrics().horizontalAdvance(LONG) + 400, 200)
    qtbot.waitUntil(lambda: label.text() == LONG)
    assert label.toolTip() == ""  # nothing hidden: no tooltip repeats it


def test_a_short_message_shows_whole_and_a_timeout_clears_it(qtbot):
    _, line = window_with_status_line(qtbot, 500)
    line.showMessage("Done.", 50)
    assert line.message.text() == "Done." and line.message.toolTip() == ""
    qtbot.waitUntil(lambda: line.currentMessage() == "")
    assert line.message.text() == ""


def test_the_main_window_has_the_status_line(window):
    assert isinstance(window.statusBar(), StatusLine)
    assert window.statusBar().currentMessage()  # its first words, "Drop reference..."
