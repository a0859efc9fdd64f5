"""The window on small screens and at 150%: it opens within the screen, remembers its size per
screen, keeps its histograms tall (scrolling), widens its files panel with it and keeps the
panel's columns in view; the settings kept from before are named when files are opened; the
Documents tab of plain text keeps its words at the top; the Significance grid shows the
keyboard's cell; whole-document resampling is said above the results; and a run that waits for
the kernels' compiler, or for a file still being read, says so."""

from __future__ import annotations

import threading

from gui_helpers import wait_for_result
from PySide6.QtCore import QPoint, QRect, QSettings, QSize, Qt
from PySide6.QtGui import QBrush, QColor, QImage, QPainter
from PySide6.QtWidgets import QStyle, QStyleOptionViewItem

from mtgui.app import kernels
from mtgui.app.kernels import KernelPreparation
from mtgui.app.preferences import Preferences
from mtgui.engine.analysis_settings import AnalysisSettings
from mtgui.engine.core import Role
from mtgui.io.entries import Entry
from mtgui.io.workspace import Workspace
from mtgui.views.common.focus_frame import FocusFrameDelegate
from mtgui.views.common.screen_fit import FRAME_ROOM, fit_window
from mtgui.views.inputs.files_panel import FILE_SHARE, FILE_WIDTH
from mtgui.views.results.histogram_view import PLOT_MIN_HEIGHT
from mtgui.views.results.paired_view import PLOT_MIN_HEIGHT as PAIRED_PLOT_MIN_HEIGHT
from mtgui.views.window.launch import load_demo_into
from mtgui.views.window.main_window import MainWindow


def preferences(tmp_path) -> Preferences:
    return Preferences(QSettings(str(tmp_path / "p.ini"), QSettings.Format.IniFormat))


def demo_window(qtbot, width: int = 1280, height: int = 800) -> MainWindow:
    window = MainWindow()
    qtbot.addWidget(window)
    window.settings_panel.resamples.setValue(100)
    window.resize(width, height)
    window.show()
    qtbot.waitExposed(window)
    load_demo_into(window)
    wait_for_result(qtbot, window)
    return window


def test_a_window_too_large_for_the_screen_is_shrunk_and_moved_into_it(qtbot):
    """1600 x 1000 at 150% is about 1066 x 666 logical pixels: the default 1200 x 760 (or a
    size saved at 100%) must not run off its edges."""
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1800, 1139)
    window.move(300, 200)
    available = QRect(0, 0, 1066, 666)
    fit_window(window, available)
    framed = QRect(window.pos(), window.size() + FRAME_ROOM)
    assert available.contains(framed), (window.pos(), window.size())
    assert window.width() >= window.minimumSizeHint().width() - 1


def test_a_fresh_window_opens_within_the_screen(qtbot, tmp_path):
    """The offscreen platform's screen is 800 x 600: smaller than the default size."""
    window = MainWindow(preferences=preferences(tmp_path))
    qtbot.addWidget(window)
    available = window.screen().availableGeometry()
    assert window.width() <= available.width() and window.height() <= available.height()


def test_the_size_is_remembered_per_screen(tmp_path):
    prefs = preferences(tmp_path)
    prefs.set_window(b"laptop", b"state", "eDP-1 1066x666")
    prefs.set_window(b"monitor", b"state", "HDMI/1 2560x1440")  # a "/" in a screen's name
    assert prefs.window_geometry("eDP-1 1066x666") == b"laptop"
    assert prefs.window_geometry("HDMI/1 2560x1440") == b"monitor"
    assert prefs.window_geometry("another 800x600") == b"monitor"  # the last, to be fitted
    assert prefs.window_geometry() == b"monitor"


def test_a_window_saved_on_a_screen_opens_at_that_size_there(qtbot, tmp_path):
    prefs = preferences(tmp_path)
    first = MainWindow(preferences=prefs)
    qtbot.addWidget(first)
    first.resize(700, 500)
    first.close()  # saves
    again = MainWindow(preferences=prefs)
    qtbot.addWidget(again)
    assert again.size() == QSize(700, 500)


def test_histograms_keep_their_height_and_scroll_in_a_short_window(qtbot):
    window = demo_window(qtbot, 900, 440)  # the notes above the results take a line each
    view = window.results.histograms
    window.results.tabs.setCurrentWidget(view)
    qtbot.waitUntil(lambda: len(view.plots) == 4)
    rows = 2  # four systems, two columns
    assert view._layout_widget.minimumHeight() >= rows * PLOT_MIN_HEIGHT
    assert view.plots_area.widget() is view._layout_widget
    qtbot.waitUntil(lambda: view.plots_area.verticalScrollBar().maximum() > 0)
    for plot in view.plots.values():
        assert plot.geometry().height() >= PLOT_MIN_HEIGHT * 0.8


def test_the_files_panel_keeps_its_columns_in_view_and_widens_with_the_window(qtbot):
    window = demo_window(qtbot, 1100, 700)
    panel = window.files_panel
    assert panel.textElideMode() == Qt.TextElideMode.ElideMiddle
    header, visible = panel.header(), panel.viewport().width()
    for column in range(1, panel.columnCount()):  # Holds, Segments, Documents, Format
        assert header.sectionViewportPosition(column) + header.sectionSize(column) <= visible
    assert header.sectionSize(0) >= FILE_WIDTH * 0.8
    narrow = panel.width()
    window.resize(1500, 800)
    qtbot.waitUntil(lambda: panel.width() > narrow + 50)


def test_kept_settings_are_named_when_files_are_opened_and_new_resets_them(qtbot, monkeypatch):
    window = MainWindow()
    qtbot.addWidget(window)
    window.settings_panel.resamples.setValue(100)  # as if kept from the last session
    window.show()
    load_demo_into(window)
    wait_for_result(qtbot, window)
    notes = window.results.notes.text()
    assert "Settings that are not the defaults: 100 resamples" in notes
    assert "File > New (Ctrl+N) puts them back" in notes
    assert not window.results.notes.isHidden()
    monkeypatch.setattr(window, "confirm_new", lambda: True)
    window.new_project()
    assert window.settings_panel.settings() == AnalysisSettings()
    load_demo_into(window)
    wait_for_result(qtbot, window)
    assert "not the defaults" not in window.results.notes.text()


def test_a_session_names_its_settings_that_are_not_the_defaults(qtbot, tmp_path):
    first = demo_window(qtbot)
    path = tmp_path / "kept.mtgui.json"
    first.choose_session_file = lambda: path
    assert first.save_session()
    window = MainWindow()  # the defaults
    qtbot.addWidget(window)
    window.show()
    window.open_session(path)
    wait_for_result(qtbot, window)
    assert "Settings that are not the defaults: 100 resamples" in window.results.notes.text()


def test_whole_document_resampling_is_said_above_the_results(qtbot):
    window = demo_window(qtbot)
    window.result = None
    combo = window.settings_panel.unit
    combo.setCurrentIndex(combo.findData("document"))
    wait_for_result(qtbot, window)
    assert "Whole documents were resampled (6 documents)" in window.results.notes.text()
    assert "plain text" in window.results.notes.text()


def test_the_documents_tab_of_plain_text_keeps_its_words_at_the_top(qtbot, write):
    lines = [f"a sentence number {i} here" for i in range(12)]
    ref = write("ref.txt", "\n".join(lines) + "\n")
    hyp = write("one.txt", "\n".join(line.replace("here", "there") for line in lines) + "\n")
    other = write("two.txt", "\n".join(lines) + "\n")
    window = MainWindow()
    qtbot.addWidget(window)
    window.settings_panel.resamples.setValue(100)
    window.resize(1280, 800)
    window.show()
    window.add_files([ref, hyp, other], {ref: Role.REFERENCE, hyp: Role.SYSTEM, other: Role.SYSTEM})
    wait_for_result(qtbot, window)
    documents = window.results.documents
    window.results.tabs.setCurrentWidget(documents)
    qtbot.waitUntil(documents.message.isVisible)
    top = documents.metric_choice.geometry().bottom()  # the lower row of controls
    assert documents.message.geometry().top() - top < 60  # right under the controls
    assert documents.message.geometry().bottom() < documents.height() // 2


def test_the_focused_cell_of_the_grid_is_framed_in_its_text_colour(qtbot):
    """Focused: a solid frame. Selected: the cell keeps its verdict's colour (the selection's
    blue made a selected "~" look like a ">"), framed with a dashed line."""
    window = demo_window(qtbot)
    table = window.results.grid_table
    assert isinstance(table.itemDelegate(), FocusFrameDelegate)
    index = window.results.grid_model.index(0, 1)
    verdict = index.data(Qt.ItemDataRole.BackgroundRole)
    state = QStyle.StateFlag

    def painted(extra: QStyle.StateFlag) -> QImage:
        option = QStyleOptionViewItem()
        option.rect = QRect(0, 0, 60, 24)
        option.palette = table.palette()
        option.state = state.State_Enabled | extra
        image = QImage(60, 24, QImage.Format.Format_RGB32)
        image.fill(QColor("white"))
        painter = QPainter(image)
        table.itemDelegate().paint(painter, option, index)
        painter.end()
        return image

    plain, framed = painted(state.State_None), painted(state.State_HasFocus)
    selected = painted(state.State_Selected)
    edge = [QPoint(x, 1) for x in range(5, 55)]
    assert sum(plain.pixelColor(p) != framed.pixelColor(p) for p in edge) > 40
    dashed = sum(plain.pixelColor(p) != selected.pixelColor(p) for p in edge)
    assert 15 < dashed < 35  # about half the edge: dashes as long as their gaps
    inside = QPoint(8, 12)  # within the cell, clear of its frame and its symbol
    color = QBrush(verdict).color()
    assert selected.pixelColor(inside) == framed.pixelColor(inside) == plain.pixelColor(inside)
    assert plain.pixelColor(inside) == color


def test_a_run_that_waits_for_the_kernels_says_so(qtbot, monkeypatch):
    release = threading.Event()
    preparation = KernelPreparation(lambda: release.wait(30) and None)
    preparation.start()
    monkeypatch.setattr(kernels, "PREPARATION", preparation)
    window = MainWindow()
    qtbot.addWidget(window)
    window.settings_panel.resamples.setValue(100)
    messages: list[str] = []
    window.controller.analysis.status_changed.connect(messages.append)
    panel = window.settings_panel
    panel.set_state({**panel.state(), "metrics": ["bleu", "ter"]})
    window.show()
    load_demo_into(window)
    wait_for_result(qtbot, window)
    release.set()
    assert any("preparing the TER kernels, once after install" in m for m in messages)


def test_no_red_message_while_a_file_is_still_being_read(qtbot, write):
    """A file that takes long is left reading while the rest go on: until it arrives, what is
    loaded may lack a system, and the window waits for it in words instead of a red problem."""
    ref = write("ref.txt", "one\ntwo\n")
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    window.add_files([ref], {ref: Role.REFERENCE})
    qtbot.waitUntil(lambda: not window.controller.loading)
    files = window.controller.files
    reading = Entry(write("slow.txt", "").with_name("slow.txt"), Role.SYSTEM, reading=True)
    files.workspace = Workspace(entries=(*files.workspace.entries, reading))
    window.controller.analysis.run()
    assert window.results.problem.text() == ""
    assert "Waiting for 1 file still being read" in window.statusBar().currentMessage()


def test_the_paired_plot_keeps_its_height_and_scrolls_in_a_short_window(qtbot):
    window = demo_window(qtbot, 900, 520)
    paired = window.results.paired
    window.results.tabs.setCurrentWidget(paired)
    qtbot.waitUntil(lambda: paired.plot_widget.height() >= PAIRED_PLOT_MIN_HEIGHT)
    assert paired.body.widget().isAncestorOf(paired.plot_widget)
    assert paired.body.widget().isAncestorOf(paired.summary)


def test_a_narrow_files_panel_shortens_the_counts_headers_before_cutting_what_files_hold(qtbot):
    """Segments and Documents give up their headers' width first (Segs, Docs): their numbers
    stay whole, and so do Holds ("system output") and Format ("NIST SGML, UTF-8"). They give
    it up for the files' whole names too, up to FILE_SHARE of the panel: "system output Lumen"
    was cut while Documents had room to spare."""
    window = demo_window(qtbot, 1100, 700)
    panel = window.files_panel
    header, natural = panel.header(), panel._natural
    assert [header.sectionSize(c) for c in (1, 4)] == [natural[1], natural[4]]
    assert panel.headerItem().text(3) == "Docs"  # it gave up its header's width first
    names = panel.sizeHintForColumn(0)  # the widest name, indented as shown
    assert FILE_WIDTH < names <= FILE_SHARE * panel.viewport().width()  # they fit in their share
    assert header.sectionSize(0) >= names
    metrics = panel.fontMetrics()
    for column in (2, 3):
        widest = max(
            metrics.horizontalAdvance(panel.topLevelItem(0).child(r).text(column)) for r in range(2)
        )
        assert header.sectionSize(column) > widest
