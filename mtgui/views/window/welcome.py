"""What an empty window shows: what mtgui does, and the three ways to start.

A person who opens mtgui for the first time sees an empty window; this page says what to do
(drop files, open them, or try the demo) instead of leaving blank tabs. It gives way to the
results as soon as a file is loaded, and comes back when the last one is removed.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from mtgui.views.common.palette import problem_style

HEADLINE = "Is one machine-translation system really better than another?"
INVITATION = (
    "Drop reference translations and the outputs of your MT systems anywhere on this window "
    "(NIST or WMT SGML, WMT XML, or plain text with one segment per line), or open them. "
    "mtgui scores every system, resamples the test set thousands of times, and shows which "
    "differences are significant."
)


_WIDTH = 560  # pixels: a column that reads well


class WelcomePage(QWidget):
    """The empty window's page: a headline, what to drop, and Open and Try the demo buttons."""

    open_requested = Signal()
    demo_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        headline = QLabel(HEADLINE)
        font = headline.font()
        font.setPointSizeF(font.pointSizeF() * 1.5)
        font.setBold(True)
        headline.setFont(font)
        headline.setWordWrap(True)
        invitation = QLabel(INVITATION)
        invitation.setWordWrap(True)
        self.open_button = QPushButton("Open files...")
        self.open_button.setToolTip("Choose reference, system and score files, or a session.")
        self.demo_button = QPushButton("Try the demo")
        self.demo_button.setToolTip("Load the bundled demo: two references and four systems.")
        self.open_button.clicked.connect(self.open_requested)
        self.demo_button.clicked.connect(self.demo_requested)
        buttons = QHBoxLayout()
        buttons.addWidget(self.open_button)
        buttons.addWidget(self.demo_button)
        buttons.addStretch(1)
        self.problem = QLabel()  # why what was opened (a session) could not be
        self.problem.setWordWrap(True)
        self.problem.setTextFormat(Qt.TextFormat.PlainText)  # names from files are not markup
        self.problem.setStyleSheet(problem_style(self.palette()))
        self.problem.setFixedWidth(_WIDTH)
        self.problem.setVisible(False)
        column = QVBoxLayout()
        column.addWidget(self.problem)
        column.addWidget(headline)
        column.addSpacing(8)
        column.addWidget(invitation)
        column.addSpacing(12)
        column.addLayout(buttons)
        self.kept = QLabel()  # settings kept from an earlier project, if any
        self.kept.setWordWrap(True)
        self.kept.setFixedWidth(_WIDTH)
        self.kept.setVisible(False)
        column.addSpacing(12)
        column.addWidget(self.kept)
        for label in (headline, invitation):  # wrapped text in a centred column: its height
            label.setFixedWidth(_WIDTH)  # must be asked for, or the layout cuts it short
            label.setMinimumHeight(label.heightForWidth(_WIDTH))
        row = QHBoxLayout()
        row.addStretch(1)
        row.addLayout(column)
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        layout.addLayout(row)
        layout.addStretch(2)

    def show_problem(self, text: str) -> None:
        """Say above the headline why what was opened could not be ("": nothing to say): with
        no file loaded, the results and the note above them are not shown."""
        self.problem.setText(text)
        self.problem.setVisible(bool(text))
        self.problem.setMinimumHeight(self.problem.heightForWidth(_WIDTH) if text else 0)

    def show_kept(self, kept: list[str]) -> None:
        """Say which settings are not the defaults, kept from an earlier project ([]: none)."""
        text = (
            f"Settings that are not the defaults (kept from last time, or changed since): "
            f"{'; '.join(kept)}. File > New (Ctrl+N) puts them back to the defaults."
            if kept
            else ""
        )
        self.kept.setText(text)
        self.kept.setVisible(bool(text))
        self.kept.setMinimumHeight(self.kept.heightForWidth(_WIDTH) if text else 0)
