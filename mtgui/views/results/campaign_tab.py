"""The main window's Campaign tab: the campaign of the project's test sets, beside Significance.

The tab shows while two test sets or more can be compared (they hold a reference and a system,
or have files still to read). Whatever changes them (a set added, closed or shown, files read
or removed, a setting, BLEU's scale) makes the campaign behind; it runs again
:data:`CAMPAIGN_DELAY_MS` after the last change while the tab is in view, or when the tab comes
into view, on a worker thread (:func:`~mtgui.app.campaign.sets_campaign`: the engine's campaign
code, the numbers of ``mtgui campaign``). It follows the metric chosen above the results.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtWidgets import QFrame, QScrollArea

from mtgui.app.campaign import campaign_sets, sets_campaign
from mtgui.app.controller import AppController
from mtgui.app.settings_model import SettingsModel
from mtgui.engine.core import InputError
from mtgui.io.window_words import window_message
from mtgui.report.campaign_run import CampaignOutcome
from mtgui.views.results.campaign_view import CampaignPanel
from mtgui.views.results.results_pane import ResultsPane

CAMPAIGN_DELAY_MS = 300
"""Changes within this time, the Campaign tab in view, start one campaign run."""


class CampaignTab(QObject):
    """The Campaign tab of ``results``: its panel, when it shows, when it runs."""

    def __init__(
        self,
        results: ResultsPane,
        controller: AppController,
        settings: SettingsModel,
        synchronous: bool = False,
    ) -> None:
        # No Qt parent: the window holds it, so that its references to the controller (which
        # refers to the window) make no cycle that Qt's ownership would keep alive.
        super().__init__()
        self._results, self._controller, self._settings = results, controller, settings
        self.panel = CampaignPanel(synchronous=synchronous)
        # Scrolled: its tables must not make the results (and the window) taller or wider.
        self.page = QScrollArea()
        self.page.setWidget(self.panel)
        self.page.setWidgetResizable(True)
        self.page.setFrameShape(QFrame.Shape.NoFrame)
        self.page.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        tabs = results.tabs
        tabs.insertTab(tabs.indexOf(results.paired), self.page, "Campaign")  # after Significance
        tabs.setTabVisible(tabs.indexOf(self.page), False)
        self.behind = True  # the sets or the settings changed since it last ran
        self._timer = QTimer(self, singleShot=True, interval=CAMPAIGN_DELAY_MS)
        self._timer.timeout.connect(self._run_if_in_view)
        controller.test_sets_changed.connect(self.changed)
        controller.workspace_changed.connect(self.changed)
        settings.changed.connect(self.changed)
        tabs.currentChanged.connect(self._on_tab_changed)
        results.metric_choice.currentIndexChanged.connect(self._follow_metric)
        self._follow_metric()

    def available(self) -> bool:
        """Whether the tab shows: two test sets or more to compare."""
        return sum(s.may_compare() for s in self._controller.campaign_workspaces()) >= 2

    def in_view(self) -> bool:
        """Whether the results show the Campaign tab now."""
        return self._results.tabs.currentWidget() is self.page

    def bring_into_view(self) -> None:
        """Show the Campaign tab (it runs if it is behind)."""
        self._results.tabs.setCurrentWidget(self.page)

    def changed(self) -> None:
        """The test sets, their files or the settings changed: the campaign is behind, and
        runs again soon if it is in view."""
        self.behind = True
        shown = self.available()
        self._results.tabs.setTabVisible(self._results.tabs.indexOf(self.page), shown)
        if shown and self.in_view():
            self._timer.start()

    def _on_tab_changed(self) -> None:
        if self.behind and self.in_view():
            self._timer.start()

    def _follow_metric(self) -> None:
        self.panel.follow_metric(self._results.current_metric())

    def _run_if_in_view(self) -> None:
        if self.in_view():
            self.run()

    def run(self) -> None:
        """Analyse every test set with the settings and combine them, on a worker thread;
        what cannot run is said in the tab."""
        self._timer.stop()
        controller = self._controller
        sets = controller.campaign_workspaces()
        reading = [s.name for s in sets if any(e.reading for e in s.workspace.entries)]
        if reading:  # it runs again once they are read (the workspace changes then)
            self.panel.runs.cancel()
            self.panel.say(f"Waiting for the files of the test set {reading[0]} to be read...")
            return
        try:
            chosen = campaign_sets(sets)
            named = controller.project_path or controller.session_path or controller.campaign_path
            title = named.name.split(".")[0] if named is not None else "campaign"
            path = named or Path(f"{title}.mtgui")
            scale = controller.analysis.bleu_scale
            run = sets_campaign(chosen, self._settings.settings(), scale, title, path)
        except InputError as error:
            self.panel.runs.cancel()
            self.panel.say(window_message(error), problem=True)
            return
        self.behind = False
        self.panel.start_run(run, f"Analysing {len(chosen)} test sets...")

    def current(self) -> CampaignOutcome | None:
        """The campaign shown, if the tab shows and it is of the test sets as they are."""
        up_to_date = not self.behind and not self.panel.runs.running
        return self.panel.outcome if self.available() and up_to_date else None

    def stop(self, deadline: float) -> bool:
        """Stop the run under way, waiting at most until ``deadline`` (``time.monotonic()``);
        True if it stopped."""
        self._timer.stop()
        self.panel.runs.abort_all()
        return self.panel.runs.wait(deadline)
