"""What the application layer needs from the window, as protocols: it never imports widgets.

The controller reads the settings the user has set (:class:`SettingsSource`: the window's
:class:`~mtgui.app.settings_model.SettingsModel`, which the settings panel edits) and asks the
questions only a dialog can answer (:class:`Questions`, the main window's dialogs). A test or a
script gives plain objects with the same members instead.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from mtgui.engine.analysis_settings import AnalysisSettings
from mtgui.engine.core import Role
from mtgui.io.score_choices import ScoresQuestion
from mtgui.io.score_sources import ScoreSource

RolesChooser = Callable[[list[tuple[Path, Role]]], dict[Path, Role] | None]
"""Which role each plain-text file of a drop has, asked once for all of them (each file's guess
from its name is the default); a file left out of the answer is not loaded; None: cancel all."""


ScoresChooser = Callable[[ScoresQuestion], list[ScoreSource] | Role | None]
"""What to load from a scores file, asked once per file (:class:`ScoresQuestion`: its columns,
each metric's name and direction, the system a file of numbers alone scores; its ``defaults()``
are the answer of a user who changes nothing); a role: the file is no scores file but a
translation of that role (a reference or output made of numbers alone); None: leave it out."""


class SettingsSource(Protocol):
    """Where the settings of the next analysis are held (the window's settings model)."""

    def settings(self) -> AnalysisSettings:
        """The settings as set now."""
        ...


class Questions(Protocol):
    """The questions the controller asks the user, each a callable read when it is asked (so
    that a test may replace one on the window)."""

    choose_roles: RolesChooser
    choose_folder: Callable[[], Path | None]  # where to export the CSV reports; None: cancel
    confirm_overwrite: Callable[[list[Path]], bool]  # may these files be replaced?
    choose_session_file: Callable[[], Path | None]  # where to save the session; None: cancel
    choose_project_file: Callable[[], Path | None]  # where to save the project; None: cancel
    confirm_replace_project: Callable[[Path], bool]  # may this project folder be replaced?
    confirm_discard: Callable[[], bool]  # may a session take the place of the files loaded?
    choose_scores: ScoresChooser
