"""The desktop application: the QApplication, the main window, and the last line of defence.

Qt is imported here and in :mod:`mtgui.views` only. An unexpected exception anywhere in the
GUI thread is printed, the work is saved to the recovery file, and it is shown in a dialog (with
its details to copy) at the next turn of the event loop; the window stays usable.
"""

from __future__ import annotations

import atexit
import os
import sys
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from types import TracebackType

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

from PySide6.QtCore import QEvent, QSettings, QSize, QTimer
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from mtgui._version import __version__
from mtgui.app.garbage import GuiThreadCollector
from mtgui.app.kernels import PREPARATION, prepare_kernels_if_needed
from mtgui.app.preferences import Preferences
from mtgui.app.recovery import RecoveryFolder, recovery_folder
from mtgui.app.threads import threads_left_running
from mtgui.views.window.main_window import MainWindow
from mtgui.views.window.recovery_offer import offer_recovery
from mtgui.views.window.unexpected import unexpected_errors

PREPARE_KERNELS_AFTER_MS = 2000
"""How long after the window shows the kernels start compiling, where they must (a run that
needs them before compiles them itself, and the status line says so all the same)."""


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
    """``sys.excepthook`` for the GUI: print, save the work, then tell the user at the next
    turn of the event loop without closing anything (:mod:`mtgui.views.window.unexpected`)."""
    unexpected_errors(kind, error, trace)


def open_files_given(window: MainWindow, files: Sequence[Path]) -> None:
    """The files of ``mtgui FILE ...``, read as a drop reads them: a campaign file (``.toml``)
    opens as the window's test sets (or in a campaign window), the others are read into the
    window (:meth:`MainWindow.add_files`)."""
    if files:
        window.add_files(files)


def run_application(demo: bool = False, files: Sequence[Path] = ()) -> int:
    """Open the main window (on the demo data or the given files) and run the event loop.

    A recovery file left by an mtgui that did not close properly is offered back first
    (:mod:`mtgui.views.window.recovery_offer`); restored, it takes the demo's place, and the files
    given are read after its own. Closing the window stops every worker (waiting at most
    :data:`~mtgui.app.runs.QUIT_WAIT_SECONDS` in all). If a worker is still busy then (a read
    that never returns), the process exits with the event loop's code, at interpreter exit,
    without destroying its QThread, which Qt would answer by aborting.
    """
    app = create_application()
    previous_hook, sys.excepthook = sys.excepthook, show_unexpected_error
    settings = QSettings()
    folder = recovery_folder(settings.fileName())
    window = MainWindow(preferences=Preferences(settings), recovery_folder=folder)
    if window.recovery is not None:  # an unexpected error: the work is kept at once
        unexpected_errors.on_error = window.recovery.save_now
    try:
        window.show()
        # A fresh pip install compiles TER's kernels meanwhile, once the window has drawn.
        prepare_kernels_if_needed(
            start_later=lambda start: QTimer.singleShot(PREPARE_KERNELS_AFTER_MS, start)
        )
        if not offer_recovery(window, RecoveryFolder(folder), files):
            if demo:
                load_demo_into(window)
            open_files_given(window, files)
        code = app.exec()
    finally:
        unexpected_errors.on_error = None
        # Delete the window while Qt is alive: left to Python's last garbage collection, the
        # wrappers of Qt objects would outlive the application.
        window.close()
        window.deleteLater()
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
        sys.excepthook = previous_hook
    # The kernels' compiler still at work would be torn down under its feet at exit.
    if threads_left_running() or PREPARATION.preparing:
        atexit.register(_leave_without_destroying_threads, code)
    return code


def _leave_without_destroying_threads(code: int) -> None:
    """End the process at interpreter exit without destroying the worker threads that still
    run: Qt answers the destruction of a running QThread by aborting the program."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
