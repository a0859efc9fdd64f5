"""Scores tables in the window: one that loads ticks its metric; one mtgui cannot read is never
taken for a system's output, and says what mtgui expected."""

from __future__ import annotations

import numpy as np
import pytest
from gui_helpers import wait_for_result

from mtgui.views.window.launch import load_demo_into


def test_loading_a_scores_table_ticks_human(qtbot, window, tmp_path):
    load_demo_into(window)
    wait_for_result(qtbot, window)
    assert not window.settings_panel.metric_boxes["human"].isChecked()
    rng = np.random.default_rng(5)
    lines = ["system\tline\tscore"] + [
        f"{system}\t{line}\t{rng.normal():.3f}"
        for system in ("Lumen", "Quill", "Tessera", "Ostrich")
        for line in range(1, 96)
    ]
    scores = tmp_path / "human.tsv"
    scores.write_text("\n".join(lines) + "\n", encoding="utf-8")
    window.result = None
    window.add_files([scores])
    qtbot.waitUntil(lambda: window.settings_panel.metric_boxes["human"].isChecked())
    wait_for_result(qtbot, window)
    qtbot.waitUntil(lambda: "human" in window.result.bootstrap.metrics, timeout=30_000)
    window.settings_panel.metric_boxes["human"].setChecked(False)  # the user's choice stays
    window.controller.refresh()
    assert not window.settings_panel.metric_boxes["human"].isChecked()


def test_a_table_mtgui_cannot_read_is_refused_in_words(qtbot, window, tmp_path):
    table = tmp_path / "ad-seg-scores-is-en.csv"
    table.write_text("Facebook-AI newstest2021 is-en 1 ad 0.53 71.2\n", encoding="utf-8")
    window.choose_roles = lambda files: pytest.fail("a table is never asked to be a system")
    window.add_files([table])
    qtbot.waitUntil(lambda: window.files_panel.topLevelItemCount() == 1)
    qtbot.waitUntil(lambda: window.files_panel.topLevelItem(0).text(1) == "could not be read")
    problem = " ".join(window.files_panel.topLevelItem(0).child(0).text(0).split())  # wrapped
    assert "cannot read it as a scores table" in problem
    assert "Facebook-AI newstest2021" in problem


def test_a_refused_field_file_says_why_in_the_panel_in_lines_that_fit(qtbot, window, tmp_path):
    """WMT's system-level DA file: the panel names the format, why, and the file to load, in
    lines wrapped to the panel's width (also after it narrows); the status line names it."""
    load_demo_into(window)
    wait_for_result(qtbot, window)
    refused = tmp_path / "ad-sys-scores-is-en.csv"
    refused.write_text("RAW.SCR Z.SCR N SYS N.ALL \n70.1 0.1 3 Lumen.4 4 \n", encoding="utf-8")
    window.choose_scores = lambda question: pytest.fail("a refused file asks nothing")
    window.result = None
    window.add_files([refused])
    panel = window.files_panel
    row = panel.topLevelItem(panel.topLevelItemCount() - 1)
    qtbot.waitUntil(lambda: row.text(1) == "could not be read")
    wait_for_result(qtbot, window)
    status = window.statusBar().currentMessage()
    assert "1 file was left out, as it could not be read" in status
    assert "ad-sys-scores-is-en.csv" in status
    for width in (panel.width(), 260):
        panel.resize(width, panel.height())
        problem = row.child(0).text(0)
        words = " ".join(problem.split())
        assert words.startswith("This is WMT's file of DA scores per system")
        assert "load ad-seg-scores-is-en.csv" in words and "header" not in words
        metrics = panel.fontMetrics()
        room = panel.viewport().width() - 2 * panel.indentation()
        assert "\n" in problem
        assert all(metrics.horizontalAdvance(line) <= room for line in problem.splitlines())


def _sgml(tag: str, sysid: str) -> str:
    """A test set of two documents out of ASCII order: d2 (two segments), then d10."""
    docs = [("d2", ("a b c", "d e f")), ("d10", ("g h i",))]
    body = "".join(
        f'<doc sysid="{sysid}" docid="{doc}">\n'
        + "".join(f'<seg id="{i}">{t}</seg>\n' for i, t in enumerate(texts, start=1))
        + "</doc>\n"
        for doc, texts in docs
    )
    return f'<{tag} setid="t" srclang="is" trglang="en">\n{body}</{tag}>\n'


def test_wmt_da_file_dropped_on_the_window_scores_its_systems(qtbot, window, tmp_path):
    """WMT's DA file as published: its z column is offered as human (raw not ticked, SID and
    N not offered), its runs go to their systems, its SIDs to the documents sorted by id."""
    paths = [tmp_path / "ref.sgm"]
    paths[0].write_text(_sgml("refset", "ref"), encoding="utf-8")
    for name in ("Online-B", "Allegro.eu"):
        paths.append(tmp_path / f"{name}.sgm")
        paths[-1].write_text(_sgml("tstset", name), encoding="utf-8")
    da = tmp_path / "ad-seg-scores-is-en.csv"
    rows = ["SYS SID RAW.SCR Z.SCR N", "Online-B.4 1 70 0.5 2", "Online-B.4 2 60 -0.5 1"]
    rows += ["Online-B.4 3 80 1.5 3", "Allegro.eu.2 2 50 -1 1", "Allegro.eu.2 3 90 2 2"]
    da.write_text("".join(f"{row} \n" for row in rows), encoding="utf-8")
    asked = []
    window.choose_scores = lambda question: asked.append(question) or question.defaults()
    window.add_files([*paths, da])
    qtbot.waitUntil(lambda: window.settings_panel.metric_boxes["human"].isChecked())
    wait_for_result(qtbot, window)
    qtbot.waitUntil(lambda: "human" in window.result.bootstrap.metrics, timeout=30_000)
    choices = [(c.column, c.metric, c.chosen) for c in asked[0].offer.choices]
    assert choices == [("Z.SCR", "human", True), ("RAW.SCR", "human-raw", False)]
    scores = window.result.corpus.scores_of("Online-B", "human")
    assert scores.means.tolist() == [-0.5, 1.5, 0.5]
