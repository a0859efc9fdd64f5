"""The desktop application: the QApplication and its main window.

Qt is imported here and in :mod:`mtgui.views` only. The environment variables that pyqtgraph
reads are set before anything imports it, so that it uses PySide6 whatever else is installed.
"""

from __future__ import annotations

import os
import sys

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

from PySide6.QtWidgets import QApplication, QMessageBox

from mtgui import __version__
from mtgui.engine.corpus import Corpus
from mtgui.engine.errors import InputError
from mtgui.views.main_window import MainWindow


def create_application(argv: list[str] | None = None) -> QApplication:
    """The QApplication, created once, with the names QSettings and dialogs use."""
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        app = QApplication(argv if argv is not None else sys.argv[:1])
    app.setApplicationName("mtgui")
    app.setApplicationVersion(__version__)
    app.setOrganizationName("mtgui")
    return app


def load_demo_corpus() -> Corpus:
    """The bundled demo data (small: it loads in milliseconds, before the window shows)."""
    from mtgui.demo import load_demo

    return load_demo()


def run_application(demo: bool = False) -> int:
    """Open the main window (on the demo data if asked) and run the event loop."""
    app = create_application()
    window = MainWindow()
    if demo:
        try:
            window.show_corpus(load_demo_corpus(), "demo data")
        except InputError as error:  # the installation is broken: say so, do not crash
            QMessageBox.critical(window, "mtgui", f"The demo data could not be loaded:\n{error}")
    window.show()
    return app.exec()
