"""The settings of the next analysis, held in one place: :class:`SettingsModel`. QtCore only.

The window's settings panel edits the model and shows it; the analysis and the studies read it
when a run starts (it is their :class:`~mtgui.app.window_interface.SettingsSource`); sessions,
the recovery file and the remembered preferences save it and put it back as the plain dict
they store (:meth:`SettingsModel.state`, :meth:`SettingsModel.set_state`). Every change the
user makes is announced by :attr:`SettingsModel.changed`, which starts a new run.
"""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import QObject, Signal

from mtgui.engine.analysis_settings import AnalysisSettings, SettingsDict


class SettingsModel(QObject):
    """One :class:`AnalysisSettings`, and a signal each time it is set."""

    changed = Signal()  # the settings were set: the analysis runs again

    def __init__(
        self, settings: AnalysisSettings | None = None, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._settings = settings if settings is not None else AnalysisSettings()

    def settings(self) -> AnalysisSettings:
        """The settings as set now."""
        return self._settings

    def metrics(self) -> tuple[str, ...]:
        """The metrics of the settings now (the views show the first before a result)."""
        return self._settings.metrics

    def set_settings(self, settings: AnalysisSettings) -> None:
        """Hold ``settings`` and emit :attr:`changed`, even if they are those held: setting
        them asks for a run of them (a session reopened with the same settings runs again)."""
        self._settings = settings
        self.changed.emit()

    def keep(self, settings: AnalysisSettings) -> None:
        """Hold ``settings`` without a signal: for what changes with no run of its own (the
        metrics of scores just loaded, whose loading runs the analysis; margins still being
        typed, which a run started meanwhile reads)."""
        self._settings = settings

    def state(self) -> SettingsDict:
        """The settings as the plain values sessions and preferences store."""
        return self._settings.to_dict()

    def set_state(self, state: Mapping[str, object]) -> None:
        """:meth:`set_settings` from plain values (a session's or the preferences'): missing
        or bad values take their defaults, so a dict from anywhere gives valid settings."""
        self.set_settings(AnalysisSettings.from_mapping(state, strict=False))
