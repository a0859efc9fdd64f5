"""What mtgui remembers between runs: recent files, settings, the last folder, the window.

A thin layer over a ``QSettings`` that is passed in: the application gives ``QSettings()``
(organization and application "mtgui", see
:func:`mtgui.views.window.launch.create_application`), tests give an INI file of their own.
Everything read back is checked, because the settings file outlives versions of mtgui and can
be edited by hand: a value of the wrong type or out of range is
replaced by its default, never an exception at start-up.

Lists and the settings panel's state are stored as JSON text: QSettings' INI format reads a
one-element list back as a plain string, and JSON keeps types exact on every platform.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings

from mtgui.engine.scale import SCALES
from mtgui.io.session import SettingsDict, check_settings

SMALL_MULTIPLES, OVERLAID = "small multiples", "overlaid"
"""The histogram view's two layouts, as remembered."""

MAX_RECENT = 10
_RECENT = "recent_files"
_PANEL = "analysis/settings"
_FOLDER = "dialogs/last_folder"
_SAVE_FOLDER = "dialogs/last_save_folder"
_GEOMETRY = "window/geometry"
_WINDOW_STATE = "window/state"
_HISTOGRAMS = "window/histogram_layout"
_BLEU_SCALE = "view/bleu_scale"


class Preferences:
    """Typed, forgiving access to the remembered state of the application."""

    def __init__(self, settings: QSettings) -> None:
        self.settings = settings

    # -- recent files ---------------------------------------------------------------------------

    def recent_files(self) -> list[Path]:
        """Sessions and data files opened lately, most recent first; files gone are left out."""
        return [path for path in self._stored_recent() if os.path.isfile(path)]

    def add_recent_file(self, path: Path) -> None:
        """Put ``path`` first (once), keeping at most ``MAX_RECENT``."""
        path = Path(os.path.abspath(path))
        others = [p for p in self._stored_recent() if not _same(p, path)]
        paths = [path, *others][:MAX_RECENT]
        self.settings.setValue(_RECENT, json.dumps([str(p) for p in paths]))

    def clear_recent_files(self) -> None:
        """Forget every recent file."""
        self.settings.remove(_RECENT)

    def _stored_recent(self) -> list[Path]:
        data = self._json(_RECENT)
        if not isinstance(data, list):
            return []
        paths = [Path(item) for item in data if isinstance(item, str) and item]
        return [path for path in paths if path.is_absolute()][:MAX_RECENT]

    # -- the settings panel ---------------------------------------------------------------------

    def panel_state(self) -> SettingsDict:
        """The analysis settings of the last run (defaults for anything missing or wrong).

        mtgui 0.1 stored no "correction" and resampled segments by default: a "segment" it
        stored was almost always that default, not a choice, so it gives way to the new default
        (automatic: documents when there are enough). A session keeps what it saved instead,
        since reopening it must give the same numbers.
        """
        stored = self._json(_PANEL)
        if isinstance(stored, dict) and "correction" not in stored:
            stored.pop("unit", None)
        return check_settings(stored, strict=False)

    def set_panel_state(self, state: SettingsDict) -> None:
        """Remember the analysis settings (``SettingsPanel.state()``)."""
        self.settings.setValue(_PANEL, json.dumps(dict(state)))

    # -- file dialogs ---------------------------------------------------------------------------

    def last_folder(self) -> Path | None:
        """The folder the last file dialog ended in, if it still exists."""
        value = self.settings.value(_FOLDER)
        if not isinstance(value, str) or not value:
            return None
        folder = Path(value)
        return folder if folder.is_absolute() and folder.is_dir() else None

    def set_last_folder(self, path: Path) -> None:
        """Remember the folder of ``path`` (or ``path`` itself, if it is a folder)."""
        folder = path if path.is_dir() else path.parent
        self.settings.setValue(_FOLDER, os.path.abspath(folder))

    def last_save_folder(self) -> Path | None:
        """The folder last written to from a save dialog, if it still exists (never the data's
        folder, unless the user wrote there)."""
        value = self.settings.value(_SAVE_FOLDER)
        if not isinstance(value, str) or not value:
            return None
        folder = Path(value)
        return folder if folder.is_absolute() and folder.is_dir() else None

    def set_last_save_folder(self, path: Path) -> None:
        """Remember the folder ``path`` was written into (``path`` itself if a folder)."""
        folder = path if path.is_dir() else path.parent
        self.settings.setValue(_SAVE_FOLDER, os.path.abspath(folder))

    # -- the window -----------------------------------------------------------------------------

    def window_geometry(self, screen: str = "") -> bytes | None:
        """``QMainWindow.saveGeometry()`` of the last run, for ``restoreGeometry``: the one
        saved on ``screen`` (:func:`screen_key`) if any, else the last one saved anywhere."""
        kept = self._bytes(_screen_setting(_GEOMETRY, screen)) if screen else None
        return kept or self._bytes(_GEOMETRY)

    def window_state(self) -> bytes | None:
        """``QMainWindow.saveState()`` of the last run (toolbars, docks), for ``restoreState``."""
        return self._bytes(_WINDOW_STATE)

    def set_window(self, geometry: bytes, state: bytes, screen: str = "") -> None:
        """Remember the window's geometry and state (from ``saveGeometry``/``saveState``), the
        geometry also as that of ``screen`` (a laptop's own screen and a monitor each keep
        the size the window had on it)."""
        self.settings.setValue(_GEOMETRY, QByteArray(geometry))
        if screen:
            self.settings.setValue(_screen_setting(_GEOMETRY, screen), QByteArray(geometry))
        self.settings.setValue(_WINDOW_STATE, QByteArray(state))

    def histogram_layout(self) -> str:
        """The Distributions tab's choice: small multiples or overlaid."""
        value = self.settings.value(_HISTOGRAMS)
        return str(value) if value in (SMALL_MULTIPLES, OVERLAID) else SMALL_MULTIPLES

    def set_histogram_layout(self, layout: str) -> None:
        """Remember the Distributions tab's choice."""
        if layout in (SMALL_MULTIPLES, OVERLAID):
            self.settings.setValue(_HISTOGRAMS, layout)

    def bleu_scale(self) -> int:
        """1 or 100: BLEU and M-BLEU on the 0-1 or 0-100 scale (1 unless chosen)."""
        value = self.settings.value(_BLEU_SCALE)
        return 100 if str(value) == "100" else 1

    def set_bleu_scale(self, scale: int) -> None:
        """Remember the scale BLEU and M-BLEU are read on."""
        if scale in SCALES:
            self.settings.setValue(_BLEU_SCALE, scale)

    def sync(self) -> None:
        """Write what is remembered to disk now (Qt also does it by itself, later)."""
        self.settings.sync()

    # -- reading safely -------------------------------------------------------------------------

    def _json(self, key: str) -> object:
        value = self.settings.value(key)
        if not isinstance(value, str):
            return None
        try:
            return json.loads(value)
        except ValueError:
            return None

    def _bytes(self, key: str) -> bytes | None:
        value = self.settings.value(key)
        if isinstance(value, QByteArray) and not value.isEmpty():
            return bytes(value.data())
        return None


def _same(first: Path, second: Path) -> bool:
    """Whether two absolute paths name the same file (case-blind where the system is)."""
    return os.path.normcase(os.path.normpath(first)) == os.path.normcase(os.path.normpath(second))


def screen_key(name: str, width: int, height: int) -> str:
    """A screen as the window's sizes are remembered by: its name and its size in logical
    pixels (the same monitor at another scale is another key)."""
    return f"{name} {width}x{height}"


def _screen_setting(key: str, screen: str) -> str:
    """``key`` for one screen: a QSettings key of its own (no "/" from the screen's name)."""
    cleaned = "".join(c if c.isalnum() or c in " -_.x" else "_" for c in screen)
    return f"{key}_by_screen/{cleaned}"
