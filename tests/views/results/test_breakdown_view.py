"""The Breakdown tab: groups of the demo by genre and by length, bootstrapped off the GUI
thread, each group's grid, and what it says when it is behind the results."""

from __future__ import annotations

from gui_helpers import shoot, wait_for_result
from PySide6.QtGui import QColor, QTextDocument, QTextOption

from mtgui.app.breakdown import iter_result_breakdown
from mtgui.engine.core.running import run_to_end
from mtgui.views.common.palette import series_color
from mtgui.views.results.breakdown_plot import legend_entry
from mtgui.views.window.launch import load_demo_into


def show_breakdown(qtbot, window):
    load_demo_into(window)
    wait_for_result(qtbot, window)
    view = window.results.breakdown
    window.results.tabs.setCurrentWidget(view)
    qtbot.waitUntil(
        lambda: view.breakdown is not None and not view.controller.running, timeout=60_000
    )
    return view


def test_the_breakdown_tab_groups_the_demo_by_genre_and_shows_each_groups_grid(qtbot, window):
    view = show_breakdown(qtbot, window)
    assert [view.key.itemData(i) for i in range(view.key.count())] == ["genre", "length"]
    breakdown = view.breakdown
    assert breakdown.by == "genre"
    assert [(g.label, g.segments) for g in breakdown.groups] == [
        ("local", 48),
        ("science", 15),
        ("culture", 32),
    ]
    # The same numbers as the engine gives on the window's result, with its settings.
    expected = run_to_end(iter_result_breakdown(window.result, "genre"))
    mine = breakdown.group("science").bootstrap.interval("Lumen", "bleu")
    theirs = expected.group("science").bootstrap.interval("Lumen", "bleu")
    assert (mine.score, mine.ci_low, mine.ci_high) == (theirs.score, theirs.ci_low, theirs.ci_high)
    model = view.model
    assert model.rowCount() == 3 and model.columnCount() == 3 + 4 + 1
    lumen = list(breakdown.systems).index("Lumen")
    text = model.index(1, 3 + lumen).data()
    assert text.startswith(f"{mine.score:.4f} [{mine.ci_low:.4f}, {mine.ci_high:.4f}]")
    # Selecting a group shows its grid.
    view.table.selectRow(2)
    assert view.grid_model.rowCount() == 4
    assert "Group culture (BLEU)" in view.grid_title.text()
    assert view.grid_model.systems == [
        e.system for e in breakdown.group("culture").bootstrap.ranking("bleu").systems
    ]
    assert "By the documents' attribute genre" in view.message.text()
    shoot(window, "main-window-breakdown-demo")


def test_a_new_key_or_a_new_result_is_broken_down_again_and_says_so_meanwhile(qtbot, window):
    view = show_breakdown(qtbot, window)
    view.key.setCurrentIndex(view.key.findData("length"))
    view.key.activated.emit(view.key.currentIndex())
    qtbot.waitUntil(
        lambda: view.breakdown.by == "length" and not view.controller.running, timeout=60_000
    )
    assert [g.label for g in view.breakdown.groups][:2] == ["<10", "[10,20)"]
    assert "By length of the reference 'A'" in view.message.text()
    old = view.breakdown
    window.results.tabs.setCurrentIndex(0)  # not shown: a new result waits for it
    window.settings_panel.seed.setValue(7)
    qtbot.waitUntil(
        lambda: (
            window.result is not None
            and view.result is window.result
            and window.result.bootstrap.settings.seed == 7
        ),
        timeout=60_000,
    )
    assert view.breakdown is old
    assert "is of earlier results" in view.message.text()
    window.results.tabs.setCurrentWidget(view)
    qtbot.waitUntil(
        lambda: view.breakdown is not old and not view.controller.running, timeout=60_000
    )
    assert view.breakdown.by == "length"
    assert view.controller.source is window.result


def _lines(rich: str, width: int) -> list[str]:
    """The lines ``rich`` text wraps into at ``width`` pixels, as the legend's label wraps."""
    document = QTextDocument()
    option = document.defaultTextOption()
    option.setWrapMode(QTextOption.WrapMode.WordWrap)  # a label's: a long word is not cut
    document.setDefaultTextOption(option)
    document.setHtml(rich)
    document.setTextWidth(width)
    document.documentLayout().documentSize()  # lays it out
    block, lines = document.begin(), []
    while block.isValid():
        layout = block.layout()
        for number in range(layout.lineCount()):
            line = layout.lineAt(number)
            lines.append(block.text()[line.textStart() : line.textStart() + line.textLength()])
        block = block.next()
    return lines


def test_the_legend_keeps_each_mark_with_its_name_at_any_width(qtbot):
    """Wrapped at any width, no line ends with a system's mark (or half of it) whose name
    starts the next: the dot, the dash and the name's first word stay on one line."""
    names = ["Online-B", "Facebook-AI", "HuaweiTSC", "Tessera", "Lumen", "Quill", "VolcTrans"]
    names += ["Ostrich"]  # the eighth is dashed: its style stays with it too
    legend = "&nbsp;&nbsp; ".join(
        legend_entry(name, QColor(*series_color(k)), k) for k, name in enumerate(names)
    )
    for width in range(40, 400, 7):
        for line in _lines(legend, width):
            text = line.rstrip()
            assert not text.endswith(("\u25cf", "\u2014", "\u2060")), (width, line)
            assert not line.lstrip().startswith(("\u2014", "(dashed)")), (width, line)
