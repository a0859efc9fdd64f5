"""The desktop application: the QApplication, the main window, and the last line of defence.

Qt is imported here and in :mod:`mtgui.views` only. An unexpected exception anywhere in the
GUI thread is shown in a dialog (with its details to copy) and printed, and the window stays
usable.
"""

from __future__ import annotations

import atexit
import os
import sys
import traceback
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from types import TracebackType

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

from PySide6.QtCore import QEvent, QSettings, QSize
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QMessageBox

from mtgui._version import __version__
from mtgui.app.garbage import GuiThreadCollector
from mtgui.app.preferences import Preferences
from mtgui.app.threads import threads_left_running
from mtgui.views.main_window import MainWindow


def create_application(argv: list[str] | None = None) -> QApplication:
    """The QApplication, created once, with the names QSettings and dialogs use."""
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        app = QApplication(argv if argv is not None else sys.argv[:1])
    app.setApplicationName("mtgui")
    app.setApplicationVersion(__version__)
    app.setOrganizationName("mtgui")
    app.setDesktopFileName("mtgui")  # Wayland and task bars match the window to mtgui.desktop
    app.setWindowIcon(application_icon())
    if app.findChild(GuiThreadCollector) is None:
        GuiThreadCollector(app)  # Qt objects must never be collected on a worker thread
    return app


def application_icon() -> QIcon:
    """mtgui's icon (resources/icons, drawn for mtgui) in the sizes a desktop asks for."""
    icon = QIcon()
    folder = resources.files("mtgui.resources").joinpath("icons")
    for size in (16, 32, 48, 64, 128, 256):
        icon.addFile(str(folder.joinpath(f"mtgui-{size}.png")), QSize(size, size))
    return icon


def load_demo_into(window: MainWindow) -> None:
    """Load the bundled demo data into ``window`` (the analysis starts by itself)."""
    window.load_demo()


def show_unexpected_error(
    kind: type[BaseException], error: BaseException, trace: TracebackType | None
) -> None:
    """``sys.excepthook`` for the GUI: print, then tell the user without closing anything."""
    details = "".join(traceback.format_exception(kind, error, trace))
    print(details, file=sys.stderr)
    box = QMessageBox(
        QMessageBox.Icon.Critical,
        "mtgui: unexpected error",
        f"Something went wrong inside mtgui ({kind.__name__}: {error}). "
        "The window stays usable. This is a bug; please report it with the "
        "details.",
    )
    box.setDetailedText(details)  # the details pane has its own copy command
    copy = box.addButton("Copy details", QMessageBox.ButtonRole.ActionRole)
    box.addButton(QMessageBox.StandardButton.Close)
    box.exec()
    if box.clickedButton() is copy:
        QApplication.clipboard().setText(details)


def run_application(demo: bool = False, files: Sequence[Path] = ()) -> int:
    """Open the main window (on the demo data or the given files) and run the event loop.

    Closing the window stops every worker (waiting at most
    :data:`~mtgui.app.runs.QUIT_WAIT_SECONDS` in all). If a worker is still busy then (a read
    that never returns), the process exits with the event loop's code, at interpreter exit,
    without destroying its QThread, which Qt would answer by aborting.
    """
    app = create_application()
    previous_hook, sys.excepthook = sys.excepthook, show_unexpected_error
    window = MainWindow(preferences=Preferences(QSettings()))
    try:
        window.show()
        if demo:
            load_demo_into(window)
        if files:
            window.add_files(list(files))
        code = app.exec()
    finally:
        # Delete the window while Qt is alive: left to Python's last garbage collection, the
        # wrappers of Qt objects would outlive the application.
        window.close()
        window.deleteLater()
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
        sys.excepthook = previous_hook
    if threads_left_running():
        atexit.register(_leave_without_destroying_threads, code)
    return code


def _leave_without_destroying_threads(code: int) -> None:
    """End the process at interpreter exit without destroying the worker threads that still
    run: Qt answers the destruction of a running QThread by aborting the program."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
