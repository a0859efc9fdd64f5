"""The Summary tab: the result in words, a paragraph per metric, for a reader who reads no grid.

The sentences are :func:`mtgui.report.verdicts.metric_summaries`, the same as the HTML report's
and ``mtgui eval --summary``'s: every number in them is one the other tabs show.
"""

from __future__ import annotations

from html import escape

from PySide6.QtWidgets import QTextBrowser, QWidget

from mtgui.engine.resampling import BootstrapResult
from mtgui.report.bidi import isolated
from mtgui.report.verdicts import metric_summaries

EMPTY = "The result in words appears here when an analysis has run."


class SummaryView(QTextBrowser):
    """Read-only text, selectable and copyable, that wraps with the window."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setToolTip(
            "The result in words: the best systems, who is significantly ahead of whom, what "
            "this test set could not tell apart. The numbers are those of the other tabs."
        )
        self.show_result(None)

    def show_result(self, result: BootstrapResult | None) -> None:
        """Every metric's paragraph under its label ("nothing yet" without a result)."""
        if result is None:
            self.setHtml(f"<p>{escape(EMPTY)}</p>")
            return
        paragraphs = "".join(
            f"<h3>{escape(isolated(label))}</h3><p>{escape(text)}</p>"
            for label, text in metric_summaries(result, isolated)
        )
        self.setHtml(paragraphs)
