"""Help and About: the guide says what every number means and where it comes from."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QMessageBox

from mtgui import __version__
from mtgui.views.window.help import GUIDE_HTML, REFERENCES, HelpDialog, about_box, about_text

SCREENSHOTS = Path(__file__).resolve().parents[2] / "screenshots"
PAPERS = (
    "Measuring Confidence Intervals for the Machine Translation Evaluation Metrics",
    "Interpreting BLEU/NIST Scores: How Much Improvement Do We Need to Have a Better System?",
    "Statistical Significance Tests for Machine Translation Evaluation",
    "BLEU: a Method for Automatic Evaluation of Machine Translation",
    "Doddington",
    "Popović",
    "Snover",
    "A Call for Clarity in Reporting BLEU Scores",
)


def plain(text: str) -> str:
    """What a reader sees: tags dropped, entities decoded, white space collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split())


GUIDE = plain(GUIDE_HTML)


@pytest.mark.parametrize(
    "term",
    [
        "BLEU",
        "NIST",
        "M-BLEU",
        "chrF",
        "TER",
        "WER",
        "Human",
        "bootstrap",
        "confidence interval",
        "relative CI",
        "[-1.8%, +1.9%] means",
        "RSD",
        "win fraction",
        "p-value",
        "blue",
        "orange",
        "grey",
        "Distributions",
        "Scores",
        "Details",
        "Segments",
        "Paired view",
        "Studies",
        "File > Open",
        "Save session",
        "Resample by",
        "Holm",
        "Approximate randomization",
    ],
)
def test_the_guide_explains_each_term(term):
    assert term in GUIDE


def test_the_guide_shows_each_symbol_of_the_grid_with_its_meaning():
    assert "> blue: the row system is significantly better" in GUIDE
    assert "< orange: the row system is significantly worse" in GUIDE
    assert "~ grey: not distinguishable" in GUIDE


def test_the_guides_example_of_a_relative_interval_adds_up():
    # [-1.8%, +1.9%] around a median of 0.300 is 0.2946 to 0.3057.
    assert "from about 0.295 to 0.306" in GUIDE
    assert round(0.300 * (1 - 0.018), 3) == 0.295 and round(0.300 * (1 + 0.019), 3) == 0.306


@pytest.mark.parametrize("paper", PAPERS)
def test_the_guide_and_the_about_box_name_each_paper(paper):
    assert paper in GUIDE
    assert paper in plain(about_text())


def test_each_paper_listed_is_cited_in_the_text_where_its_method_is_explained():
    for short, _ in REFERENCES:
        author, year = short.rsplit(" (", 1)
        assert f"{author} {year.rstrip(')')}" in GUIDE, short
    assert "Koehn 2004" in GUIDE and "(Zhang, Vogel & Waibel 2004" in GUIDE


def test_about_has_version_purpose_and_licence():
    text = plain(about_text())
    assert f"mtgui {__version__}" in text
    assert "really better than another" in text
    assert "MIT licence" in text


def test_the_help_dialog_opens_follows_links_and_closes(qtbot):
    dialog = HelpDialog()
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert "win fraction" in dialog.browser.toPlainText()
    assert dialog.width() >= 700 and dialog.height() >= 600
    SCREENSHOTS.mkdir(exist_ok=True)
    assert dialog.grab().save(str(SCREENSHOTS / "help-dialog.png"))
    dialog.browser.scrollToAnchor("grid")
    assert dialog.browser.verticalScrollBar().value() > 0
    assert dialog.grab().save(str(SCREENSHOTS / "help-dialog-grid.png"))
    close = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Close)
    with qtbot.waitSignal(dialog.finished):
        qtbot.mouseClick(close, Qt.MouseButton.LeftButton)
    assert not dialog.isVisible()


def test_the_about_box_opens_and_closes(qtbot):
    box = about_box()
    qtbot.addWidget(box)
    box.show()
    qtbot.waitExposed(box)
    assert __version__ in box.text()
    assert box.textFormat() == Qt.TextFormat.RichText
    SCREENSHOTS.mkdir(exist_ok=True)
    assert box.grab().save(str(SCREENSHOTS / "about-box.png"))
    with qtbot.waitSignal(box.finished):
        box.button(QMessageBox.StandardButton.Close).click()
    assert not box.isVisible()


def test_the_guide_describes_every_tab_and_metric(qtbot):
    from mtgui.engine.metrics import REGISTRY
    from mtgui.views.window.main_window import MainWindow

    window = MainWindow()
    qtbot.addWidget(window)
    tabs = window.results.tabs
    for index in range(tabs.count()):
        assert f"<b>{tabs.tabText(index)}" in GUIDE_HTML, tabs.tabText(index)
    for entry in REGISTRY.values():
        assert f"<b>{html.escape(entry.label)}</b>" in GUIDE_HTML, entry.label


@pytest.mark.parametrize(
    "term",
    [
        "max-T (Westfall & Young 1993)",
        "suggests max-T as soon as three or more systems",
        "Family",
        "agrees with the verdict",
        "minimum detectable difference",
        "units needed",
        "an estimate",
        "two one-sided tests, Schuirmann 1987",
        "= green: equivalent",
        "Document ids",
        "t-test",
        "Wilcoxon signed-rank test",
        "win rate",
        "BCa",
        "Studentized",
        "Dror et al. 2018",
    ],
)
def test_the_guide_explains_each_number_of_the_corrections_and_other_tests(term):
    assert term in GUIDE
