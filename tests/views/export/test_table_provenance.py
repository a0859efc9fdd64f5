"""Every table exported from the window says what made it: version, settings, signature, and,
when the files or settings have changed since, that it is behind them."""

from __future__ import annotations

from gui_helpers import wait_for_result

from mtgui import __version__
from mtgui.report.table_text import csv_table_text, latex_text


def _export(view, path):
    view.choose_file = lambda kind, suggested: path
    assert view.export_csv() == path
    return path.read_text(encoding="utf-8-sig").splitlines()


def test_the_score_grid_segments_and_details_tables_carry_their_settings(qtbot, window, tmp_path):
    window.load_demo()
    wait_for_result(qtbot, window)
    results = window.results
    signature = window.result.bootstrap.signature
    tables = {
        "scores": results.score_table,
        "grid": results.grid_table,
        "segments": results.segments.table,
    }
    for name, view in tables.items():
        lines = _export(view, tmp_path / f"{name}.csv")
        assert lines[0] == f"# mtgui {__version__}", name
        assert lines[1].startswith("# Made with BLEU, NIST, M-BLEU; tokenizer 13a"), name
        assert "300 resamples of segments, seed 12345" in lines[1], name
        assert lines[2] == f"# Signature: {signature}", name
        assert not lines[3].startswith("#"), name  # the header row of the table itself
    assert results.studies.table.preamble() == []  # a study's table says its own settings


def test_a_table_exported_after_a_change_says_it_is_behind(qtbot, window, tmp_path):
    window.load_demo()
    wait_for_result(qtbot, window)
    window.cancel()
    window.settings_panel.seed.setValue(7)
    window.cancel()  # the run the change started: the results shown stay behind
    qtbot.waitUntil(lambda: "seed 12345, now 7" in window.results.stale.text())
    lines = _export(window.results.score_table, tmp_path / "scores.csv")
    assert lines[3].startswith("# Note: These results are from the previous settings (seed")


def test_comment_lines_are_one_line_each():
    text = csv_table_text(["a"], [["1"]], ["two\nlines", "x"])
    assert text.splitlines()[:3] == ["# two lines", "# x", "a"]
    latex = latex_text(["a"], [["1"]], caption="scores", preamble=["Made with\nBLEU"])
    assert latex.splitlines()[:2] == ["% scores", "% Made with BLEU"]
