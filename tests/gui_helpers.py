"""What the GUI tests share: real drop events, waiting for a result, screenshots to look at."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent

from mtgui.views.inputs.files_panel import SYSTEM_ROLE
from mtgui.views.window.main_window import MainWindow

SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"


def drop(window: MainWindow, paths: list[Path]) -> None:
    """A real drop event with file URLs, as a file manager sends it."""
    window.dropEvent(drop_event(paths, QPointF(100, 100)))


def drop_event(paths: list[Path], position: QPointF) -> QDropEvent:
    data = QMimeData()
    data.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    event = QDropEvent(
        position,
        Qt.DropAction.CopyAction,
        data,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    event.keep_data_alive = data  # the event does not own its data
    return event


def wait_for_result(qtbot, window: MainWindow) -> None:
    qtbot.waitUntil(
        lambda: window.result is not None and not window.controller.analysing, timeout=30_000
    )


def shoot(widget, name: str) -> Path:
    """Save what a person would see (kept out of git; look at it when changing a view)."""
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    assert widget.grab().save(str(path))
    return path


def system_item(panel, name):
    """The files panel's row of a system."""
    tops = map(panel.topLevelItem, range(panel.topLevelItemCount()))
    children = [top.child(i) for top in tops for i in range(top.childCount())]
    return next(item for item in children if item.data(0, SYSTEM_ROLE) == name)
