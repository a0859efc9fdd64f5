"""Every page usable at 1280 x 800 and 150%: about 853 x 533 of the window's own units. The
notes above the results fold to a line each, the paired view's buttons fit, the files panel's
headers are whole, and the details tables show several rows."""

from __future__ import annotations

from gui_helpers import wait_for_result
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QComboBox, QToolButton, QWidget

from mtgui.views.common.compact_note import LESS, MORE, CompactNote
from mtgui.views.results.breakdown_view import PLOT_MIN_HEIGHT as BREAKDOWN_PLOT_MIN_HEIGHT
from mtgui.views.results.breakdown_view import TABLE_ROWS as BREAKDOWN_ROWS
from mtgui.views.results.details_view import TABLE_ROWS
from mtgui.views.results.results_pane import GRID_ROWS
from mtgui.views.window.launch import load_demo_into
from mtgui.views.window.main_window import MainWindow

SMALL = (1280 * 2 // 3, 800 * 2 // 3)  # 1280 x 800 at 150%, in the window's units


def small_demo_window(qtbot) -> MainWindow:
    window = MainWindow()
    qtbot.addWidget(window)
    window.settings_panel.resamples.setValue(100)
    window.resize(*SMALL)
    window.show()
    qtbot.waitExposed(window)
    load_demo_into(window)
    wait_for_result(qtbot, window)
    return window


def lines(note: CompactNote) -> int:
    return round(note.label.height() / note.label.fontMetrics().lineSpacing())


def test_a_long_note_folds_to_one_line_and_unfolds_whole(qtbot):
    note = CompactNote("What this is.")
    qtbot.addWidget(note)
    note.resize(300, 200)
    note.show()
    text = "A first line that is much too long to fit in three hundred pixels. " * 3
    note.setText(text + "\nA second line.")
    assert note.text() == text + "\nA second line."
    assert note.label.text() != note.text() and note.label.text().endswith("…")
    assert not note.label.wordWrap() and note.toggle.isVisible()
    assert note.toggle.text() == MORE
    assert text in note.toolTip() and "What this is." in note.toolTip()
    note.toggle.click()
    assert note.label.text() == note.text() and note.label.wordWrap()
    assert note.toggle.text() == LESS
    note.toggle.click()
    assert note.toggle.text() == MORE and not note.label.wordWrap()
    qtbot.mouseClick(note.label, Qt.MouseButton.LeftButton)  # a click on the line unfolds it
    assert note.expanded


def test_a_short_note_has_no_toggle(qtbot):
    note = CompactNote()
    qtbot.addWidget(note)
    note.resize(400, 40)
    note.show()
    note.setText("Short.")
    assert note.label.text() == "Short." and not note.toggle.isVisible()


def test_the_notes_above_and_below_the_results_take_a_line_each(qtbot):
    window = small_demo_window(qtbot)
    results = window.results
    results.show_stale("These results are from the previous settings (seed 12345, now 7). " * 3)
    results.show_notes("Whole documents were resampled (6 documents): the same. " * 3)
    qtbot.waitUntil(lambda: results.stale.isVisible() and results.notes.isVisible())
    for note in (results.stale, results.notes, results.made_with):
        qtbot.waitUntil(lambda n=note: lines(n) <= 2)  # one line, with the stale note's padding
        assert note.toggle.isVisible()
    results.notes.toggle.click()
    label = results.notes.label
    qtbot.waitUntil(lambda: lines(results.notes) >= 2)
    assert label.height() >= label.heightForWidth(label.width())  # whole, not cut


def test_the_paired_views_buttons_fit(qtbot):
    window = small_demo_window(qtbot)
    paired = window.results.paired
    window.results.tabs.setCurrentWidget(paired)
    qtbot.waitUntil(lambda: paired.body.isVisible())
    for button in paired.findChildren(type(paired.exporter.button())):
        if button.isVisible():
            assert button.width() >= button.sizeHint().width(), button.text()
    for box in (paired.first, paired.second):
        assert box.width() >= box.sizeHint().width()


def test_the_files_panels_headers_are_whole_or_short(qtbot):
    window = small_demo_window(qtbot)
    panel = window.files_panel
    header = panel.header()
    for column in range(1, panel.columnCount()):
        label = panel.headerItem().text(column)
        assert header.fontMetrics().horizontalAdvance(label) < header.sectionSize(column), label
    # A wide panel names them in full. Its width is given to the fitting itself: how wide
    # the window may become depends on the screen an earlier test in the process left.
    panel.viewport = lambda: Wide()
    panel._fit_columns()
    assert [panel.headerItem().text(c) for c in (2, 3)] == ["Segments", "Documents"]


class Wide:
    """A viewport 1,000 pixels wide."""

    def width(self) -> int:
        return 1000


def cut_controls(page: QWidget) -> list[str]:
    """The buttons and choices of ``page`` shown narrower than they ask to be."""
    cut = []
    for control in page.findChildren(QAbstractButton) + page.findChildren(QComboBox):
        if isinstance(control, QToolButton) or not control.isVisible():
            continue  # the table's header corner, a note's more...
        if control.width() < control.sizeHint().width() - 2:
            name = control.text() if isinstance(control, QAbstractButton) else "a choice"
            cut.append(f"{name}: {control.width()} < {control.sizeHint().width()}")
    return cut


def test_the_controls_of_the_views_on_two_systems_and_the_studies_fit(qtbot):
    window = small_demo_window(qtbot)
    results = window.results
    for page in (results.paired, results.segments, results.documents, results.studies):
        results.tabs.setCurrentWidget(page)
        qtbot.waitUntil(page.isVisible)
        assert cut_controls(page) == [], type(page).__name__


def test_the_details_tables_show_several_rows(qtbot):
    window = small_demo_window(qtbot)
    details = window.results.details
    window.results.tabs.setCurrentWidget(details)
    qtbot.waitUntil(lambda: details.summary_model.rowCount() >= TABLE_ROWS)
    for table in (details.summary_table, details.orders_table):
        rows = table.viewport().height() // table.verticalHeader().defaultSectionSize()
        assert rows >= TABLE_ROWS


def test_the_significance_grid_keeps_rows_and_its_page_scrolls(qtbot):
    window = small_demo_window(qtbot)
    results = window.results
    results.tabs.setCurrentWidget(results.grid_page)
    qtbot.waitUntil(results.grid_table.isVisible)
    table = results.grid_table
    rows = table.viewport().height() // table.verticalHeader().defaultSectionSize()
    assert rows >= min(GRID_ROWS, results.grid_model.rowCount())
    assert results.grid_scroll.widget().isAncestorOf(results.grid_reading)


def test_the_breakdown_keeps_its_plot_and_rows_and_scrolls(qtbot):
    window = small_demo_window(qtbot)
    breakdown = window.results.breakdown
    window.results.tabs.setCurrentWidget(breakdown)
    qtbot.waitUntil(lambda: breakdown.model.rowCount() > 0, timeout=20000)
    assert breakdown.plot_widget.height() >= BREAKDOWN_PLOT_MIN_HEIGHT
    for table in (breakdown.table, breakdown.grid):
        assert table.height() >= BREAKDOWN_ROWS * table.verticalHeader().defaultSectionSize()
        assert breakdown.body.widget().isAncestorOf(table)


def test_the_details_buttons_are_whole_without_scrolling_sideways(qtbot):
    window = small_demo_window(qtbot)
    details = window.results.details
    window.results.tabs.setCurrentWidget(details)
    qtbot.waitUntil(lambda: details.summary_model.rowCount() >= TABLE_ROWS)
    viewport = details.body.viewport()
    assert details.body.horizontalScrollBar().maximum() == 0
    buttons = [b for b in details.findChildren(QToolButton) if b.isVisible()]
    assert {b.text() for b in buttons} >= {"Export CSV", "Export LaTeX"}
    for button in buttons:
        right = button.mapTo(viewport, button.rect().topRight()).x()
        assert right < viewport.width() and button.width() >= button.sizeHint().width()
