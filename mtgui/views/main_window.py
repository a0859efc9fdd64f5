"""The main window. For now it shows what is loaded; the analysis views arrive in later versions."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QLabel, QMainWindow, QPlainTextEdit, QVBoxLayout, QWidget

from mtgui.engine.corpus import Corpus
from mtgui.engine.summary import summarize

_WELCOME = (
    "<h2>mtgui</h2>"
    "<p>Is one machine-translation system really better than another?</p>"
    "<p>Loading files by drag and drop is coming in the next version. Until then, start "
    "<tt>mtgui --demo</tt> to see the bundled demo data, or use <tt>mtgui eval</tt> on the "
    "command line.</p>"
)


class MainWindow(QMainWindow):
    """The application's main window."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("mtgui")
        self.resize(900, 600)
        self._heading = QLabel(_WELCOME)
        self._heading.setWordWrap(True)
        self._heading.setTextFormat(Qt.TextFormat.RichText)
        self._summary = QPlainTextEdit()
        self._summary.setReadOnly(True)
        self._summary.setFont(QFont("monospace"))
        self._summary.setPlaceholderText("Nothing is loaded yet.")
        self._summary.setObjectName("summary")
        central = QWidget()
        layout = QVBoxLayout(central)
        layout.addWidget(self._heading)
        layout.addWidget(self._summary, stretch=1)
        self.setCentralWidget(central)
        self.statusBar().showMessage("Nothing loaded")

    def show_corpus(self, corpus: Corpus, label: str) -> None:
        """Show what ``corpus`` holds; ``label`` says where it came from (for the title)."""
        self._heading.setText(
            f"<h2>mtgui</h2><p>Loaded: {escape(label)}. The scores, confidence intervals and "
            "significance grid arrive in the next version.</p>"
        )
        self._summary.setPlainText(summarize(corpus))
        self.setWindowTitle(f"mtgui — {label}")
        test_set = corpus.test_set
        self.statusBar().showMessage(
            f"{len(corpus.systems)} systems, {test_set.num_references} references, "
            f"{test_set.size} segments"
        )

    @property
    def summary_text(self) -> str:
        """The text of the summary pane (for tests and for copying)."""
        return self._summary.toPlainText()
