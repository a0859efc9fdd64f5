"""File > Export report (HTML) and Export PDF, driven as a user would."""

from __future__ import annotations

import pytest
from gui_helpers import drop, wait_for_result

from mtgui.io.demo import demo_inputs


def test_the_report_actions_wait_for_a_result(window):
    assert not window.report_action.isEnabled()
    assert not window.pdf_action.isEnabled()
    assert [a.text() for a in window.menuBar().actions()[0].menu().actions()].count(
        "Export &report (HTML)..."
    ) == 1


@pytest.mark.parametrize(
    ("action", "kind", "start"), [("report", "html", b"<!DOCTYPE html>"), ("pdf", "pdf", b"%PDF-")]
)
def test_the_report_is_written_where_the_user_chose(qtbot, window, tmp_path, action, kind, start):
    drop(window, [path for path, _role in demo_inputs()])
    wait_for_result(qtbot, window)
    asked = []
    target = tmp_path / f"demo.{kind}"
    window.choose_report_file = lambda k: asked.append(k) or target
    getattr(window, f"{action}_action").trigger()
    qtbot.waitUntil(target.exists, timeout=20_000)
    assert asked == [kind]
    assert target.read_bytes().startswith(start)
    if kind == "html":  # a report to send: files by their names, never the user's folders
        page = target.read_text(encoding="utf-8")
        assert "reference.sgm" in page and str(demo_inputs()[0][0].parent) not in page
    qtbot.waitUntil(lambda: "Wrote the report" in window.statusBar().currentMessage())
    assert str(target) in window.statusBar().currentMessage()


def test_the_report_never_replaces_a_file_the_user_loaded(qtbot, window, tmp_path):
    inputs = []  # copies: the test must not risk the demo data itself
    for path, _role in demo_inputs():
        inputs.append(tmp_path / path.name)
        inputs[-1].write_bytes(path.read_bytes())
    drop(window, inputs)
    wait_for_result(qtbot, window)
    loaded = inputs[-1]
    before = loaded.read_bytes()
    window.choose_report_file = lambda kind: loaded
    window.report_action.trigger()
    qtbot.waitUntil(lambda: window.results.problem.isVisible(), timeout=5_000)
    assert "input" in window.results.problem.text()
    assert loaded.read_bytes() == before
