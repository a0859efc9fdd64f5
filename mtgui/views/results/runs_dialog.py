"""The window's view of systems grouped as runs: each system over its runs and every pair of
systems, as the HTML report's section shows them (:mod:`mtgui.report.runs`), in a dialog that
stays open beside the window."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget

from mtgui.engine.runs import RunsResult
from mtgui.report.runs import runs_html

TABLE_STYLE = "th, td { padding: 2px 8px; } th { background: #f2f5f8; text-align: left; }"
"""Qt's rich text reads padding in pixels only (the report's style sheet uses rem)."""


class RunsDialog(QDialog):
    """Systems over their runs (mean, sd_runs, s_sel, two-level interval) and their pairs."""

    def __init__(self, runs: RunsResult, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Systems over their runs")
        self.browser = QTextBrowser(self)
        self.browser.setOpenLinks(False)
        self.browser.document().setDefaultStyleSheet(TABLE_STYLE)
        self.show_runs(runs)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser)
        layout.addWidget(buttons)
        self.resize(820, 560)

    def show_runs(self, runs: RunsResult) -> None:
        """Show ``runs`` (those of a new analysis), keeping the scroll position."""
        bar = self.browser.verticalScrollBar()
        position = bar.value()
        self.browser.setHtml(
            runs_html(runs).replace("<table>", '<table cellspacing="0" border="1">')
        )
        bar.setValue(position)
