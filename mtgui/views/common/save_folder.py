"""Where a save dialog opens: the folder last written to, else the user's Documents folder.

Never the folder the data was opened from: that may be read-only (a shared corpus, a mounted
disk), and results written beside the inputs get mixed up with them. The folder is remembered
between runs in the window's :class:`~mtgui.app.preferences.Preferences` (the window hands them
over with :func:`remember_in`; without them, as in tests, nothing is remembered).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QStandardPaths

from mtgui.app.preferences import Preferences


class _Memory:
    """The preferences that remember the folder (one per application)."""

    preferences: Preferences | None = None


def remember_in(preferences: Preferences | None) -> None:
    """Remember the last folder written to in ``preferences`` (None: not at all)."""
    _Memory.preferences = preferences


def documents_folder() -> Path:
    """The user's Documents folder, else their home folder."""
    location = QStandardPaths.StandardLocation.DocumentsLocation
    documents = QStandardPaths.writableLocation(location)
    folder = Path(documents) if documents else Path.home()
    return folder if folder.is_dir() else Path.home()


def start_folder() -> Path:
    """The folder a save dialog opens in."""
    preferences = _Memory.preferences
    last = preferences.last_save_folder() if preferences is not None else None
    return last if last is not None else documents_folder()


def start_path(name: str) -> str:
    """``name`` in :func:`start_folder`, as a save dialog's suggestion (a path as it is)."""
    return name if Path(name).is_absolute() else str(start_folder() / name)


def written(path: Path) -> None:
    """The user chose to write ``path`` (a file, or a folder of files): the next save dialog
    opens there."""
    if _Memory.preferences is not None:
        _Memory.preferences.set_last_save_folder(path)
