"""The Breakdown tab groups by a label file the user chooses, read on the worker; a wrong file
is said with its name and line, and the file stays offered for the next results."""

from __future__ import annotations

from gui_helpers import wait_for_result

TOPICS = {
    "festival": "people",
    "bakery": "people",
    "library": "people",
    "bike-lanes": "city",
    "mountain-rescue": "city",
    "robotics": "science",
}


def show_breakdown(qtbot, window):
    window.load_demo()
    wait_for_result(qtbot, window)
    view = window.results.breakdown
    window.results.tabs.setCurrentWidget(view)
    qtbot.waitUntil(
        lambda: view.breakdown is not None and not view.controller.running, timeout=60_000
    )
    return view


def test_a_label_file_groups_the_segments(qtbot, window, tmp_path):
    labels = tmp_path / "topics.tsv"
    rows = ["docid\ttopic", *(f"{doc}\t{topic}" for doc, topic in TOPICS.items())]
    labels.write_text("\n".join(rows) + "\n", encoding="utf-8")
    view = show_breakdown(qtbot, window)
    view.choose_label_file = lambda: labels
    view.add_label_file()
    qtbot.waitUntil(
        lambda: view.breakdown.by == "topics" and not view.controller.running, timeout=60_000
    )
    assert view.key.currentText() == "labels: topics.tsv"
    sizes = {g.label: g.segments for g in view.breakdown.groups}
    assert sizes == {"people": 17 + 16 + 15, "city": 16 + 16, "science": 15}
    assert view.message.text().startswith("By ")
    # A new result still offers the file, and breaks it down again by it.
    window.settings_panel.seed.setValue(7)
    wait_for_result(qtbot, window)
    qtbot.waitUntil(lambda: not view.controller.running, timeout=60_000)
    keys = [view.key.itemData(i) for i in range(view.key.count())]
    assert keys[-1] == f"labels:{labels}"
    assert view.key.itemText(len(keys) - 1) == "labels: topics.tsv"  # named as when chosen


def test_a_wrong_label_file_is_explained(qtbot, window, tmp_path):
    labels = tmp_path / "bad.tsv"
    labels.write_text("docid\ttopic\nfestival\tpeople\nnowhere\tcity\n", encoding="utf-8")
    view = show_breakdown(qtbot, window)
    view.choose_label_file = lambda: labels
    view.add_label_file()
    qtbot.waitUntil(lambda: not view.controller.running, timeout=60_000)
    qtbot.waitUntil(lambda: "bad.tsv" in view.status.text(), timeout=10_000)
    text = view.status.text()
    assert "line 3" in text and "nowhere" in text, text
    assert "Traceback" not in text


def test_cancelling_the_file_dialog_changes_nothing(qtbot, window):
    view = show_breakdown(qtbot, window)
    keys = [view.key.itemData(i) for i in range(view.key.count())]
    view.choose_label_file = lambda: None
    view.add_label_file()
    assert [view.key.itemData(i) for i in range(view.key.count())] == keys
    assert not view.controller.running
