"""The main window: drop files, see which systems are better, by how much, and how sure.

The window assembles the widgets and connects them to the application controller
(:class:`~mtgui.app.controller.AppController`), which does the work: files are read on a worker
thread and listed in the files panel (with their problems, in plain words); as soon as a
reference and a system are loaded, and again whenever a setting changes, the analysis runs on
another worker thread while the histograms fill, and the score table and the significance grid
appear when it ends. The window never computes itself; it answers the controller's questions
with dialogs (which role a plain-text file has, where to save, may files be replaced).

What the views show always says what it was made from: when the files or the settings change,
a note above the views says that the results are those of the previous ones (and which), until
a new run replaces them; the status line says at once that a new run is under way.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from functools import partial
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDropEvent, QShowEvent
from PySide6.QtWidgets import (
    QMainWindow,
    QMenu,
    QMessageBox,
    QProgressBar,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from mtgui.app.campaign import campaign_reader, is_campaign_file
from mtgui.app.controller import AppController
from mtgui.app.preferences import Preferences
from mtgui.app.recovery import RecoveryFile
from mtgui.app.runs import QUIT_WAIT_SECONDS
from mtgui.app.settings_model import SettingsModel
from mtgui.app.staleness import settings_kept
from mtgui.app.window_interface import RolesChooser, ScoresChooser
from mtgui.engine.analysis import AnalysisResult
from mtgui.engine.analysis_settings import AnalysisSettings
from mtgui.engine.core import InputError, Role
from mtgui.engine.metrics import LABELS
from mtgui.engine.runs import RunGroup, RunsResult, analyse_runs
from mtgui.io.demo import demo_inputs
from mtgui.io.entries import LoadRequest
from mtgui.io.session import SESSION_SUFFIX, Session
from mtgui.io.window_words import window_message
from mtgui.io.workspace import Workspace
from mtgui.report.campaign_run import CampaignProject
from mtgui.views.common.dialogs import (
    ask_files_to_open,
    ask_folder,
    ask_project_file,
    ask_report_file,
    ask_session_file,
    ask_set_name,
    ask_to_close_set,
    ask_to_open_session,
    ask_to_replace,
    ask_to_replace_project,
    ask_to_start_afresh,
)
from mtgui.views.common.save_folder import remember_in, start_folder
from mtgui.views.common.scrolling import scrolling
from mtgui.views.common.status_line import StatusLine
from mtgui.views.export.pdf_export import pdf_bytes
from mtgui.views.inputs.external_metric_boxes import ticked_on_load
from mtgui.views.inputs.files_panel import FilesPanel
from mtgui.views.inputs.roles_dialog import ask_roles
from mtgui.views.inputs.scores_dialog import ask_scores
from mtgui.views.inputs.settings_panel import SettingsPanel
from mtgui.views.inputs.test_set_tabs import TestSetTabs
from mtgui.views.results.campaign_tab import CampaignTab
from mtgui.views.results.campaign_view import open_campaign
from mtgui.views.results.results_pane import ResultsPane
from mtgui.views.results.runs_dialog import RunsDialog
from mtgui.views.window.edit_menu import connect_edit_menu
from mtgui.views.window.help import HelpDialog, show_about
from mtgui.views.window.menus import build_menus, fill_recent_menu
from mtgui.views.window.welcome import WelcomePage
from mtgui.views.window.window_state import restore_window, save_window

LEFT_SHARE = 0.45
"""The files and settings panels' share of the window's width when it first shows."""


def kept_settings_note(kept: list[str]) -> str:
    """The line above the results naming the settings that are not the defaults ("": none)."""
    if not kept:
        return ""
    return (
        f"Settings that are not the defaults: {'; '.join(kept)}. "
        "File > New (Ctrl+N) puts them back to the defaults."
    )


class MainWindow(QMainWindow):
    """The application's main window."""

    # Made by views.menus.build_menus:
    new_action: QAction
    open_action: QAction
    save_session_action: QAction
    save_session_as_action: QAction
    save_project_action: QAction
    add_set_action: QAction
    export_action: QAction
    report_action: QAction
    pdf_action: QAction
    run_action: QAction
    cancel_action: QAction
    guide_action: QAction
    recent_menu: QMenu
    undo_action: QAction  # by views.edit_menu, which build_menus calls
    redo_action: QAction
    bleu_scale_action: QAction  # by views.view_menu

    def __init__(
        self,
        parent: QWidget | None = None,
        synchronous: bool = False,
        preferences: Preferences | None = None,
        recovery_folder: Path | None = None,
    ) -> None:
        """``preferences`` remember settings, recent files and the window between runs (the
        application passes them; without them nothing is remembered); the work is kept in a
        recovery file in ``recovery_folder`` as it changes (:mod:`mtgui.app.recovery`;
        without it, nowhere)."""
        super().__init__(parent)
        self.setWindowTitle("mtgui")
        self.resize(1200, 760)
        self.setAcceptDrops(True)
        self.preferences = preferences
        remember_in(preferences)  # where save dialogs open (the last folder written to)
        # The controller's questions (app.window_interface.Questions), answered by dialogs.
        self.choose_roles: RolesChooser = partial(ask_roles, self)
        self.choose_folder: Callable[[], Path | None] = self._ask_folder
        self.confirm_overwrite: Callable[[list[Path]], bool] = partial(ask_to_replace, self)
        self.choose_session_file: Callable[[], Path | None] = self._ask_session_file
        self.choose_project_file: Callable[[], Path | None] = partial(ask_project_file, self)
        self.confirm_replace_project: Callable[[Path], bool] = partial(ask_to_replace_project, self)
        self.confirm_discard: Callable[[], bool] = partial(ask_to_open_session, self)
        self.confirm_new: Callable[[], bool] = partial(ask_to_start_afresh, self)
        self.choose_scores: ScoresChooser = partial(ask_scores, self)
        self.choose_report_file: Callable[[str], Path | None] = self._ask_report_file
        self.confirm_close_set: Callable[[str, int], bool] = partial(ask_to_close_set, self)
        self.choose_set_name: Callable[[str], str | None] = partial(ask_set_name, self)
        self.help_dialog: HelpDialog | None = None
        self._scores_seen: set[Path] = set()  # scores files loaded (a new one ticks its metrics)
        self._kept_named = False  # files were opened with settings that are not the defaults
        self._kept_note = ""  # their names, above the results
        self._analysis_note = ""  # the analysis's note on the result shown
        self._build()
        self.controller = AppController(self.settings_model, self, preferences, self, synchronous)
        # The campaign of the test sets: a tab of the results while two sets can be compared.
        self.campaign_tab = CampaignTab(
            self.results, self.controller, self.settings_model, synchronous
        )
        self.campaign = self.campaign_tab.panel
        self.campaign_page = self.campaign_tab.page
        self.recovery: RecoveryFile | None = None
        if recovery_folder is not None:
            self.recovery = RecoveryFile(recovery_folder, self._recovery_snapshot, self)
        self._connect()
        self._restore_preferences()
        self.statusBar().showMessage("Drop reference and system files on the window to start.")

    # -- building -----------------------------------------------------------------------------

    def _build(self) -> None:
        self.files_panel = FilesPanel()
        self.test_set_tabs = TestSetTabs()  # one tab of inputs per test set
        self.settings_model = SettingsModel(parent=self)  # what the next run reads
        self.settings_panel = SettingsPanel(self.settings_model)
        inputs = QWidget()
        stacked = QVBoxLayout(inputs)
        stacked.setContentsMargins(0, 0, 0, 0)
        stacked.setSpacing(0)
        stacked.addWidget(self.test_set_tabs)
        stacked.addWidget(self.files_panel, 1)
        left = QSplitter(Qt.Orientation.Vertical)
        left.addWidget(inputs)
        left.addWidget(scrolling(self.settings_panel))  # a short screen scrolls the settings
        # The model's method, not the window's: a view that held the window would keep it alive.
        self.results = ResultsPane(self.settings_model.metrics)
        self.runs_dialog: RunsDialog | None = None
        self._show_runs = False  # a session with runs opened: show them with its result
        self.welcome = WelcomePage()
        self.welcome.setMinimumWidth(320)  # as the results: the files panel may be widened
        self.right = QStackedWidget()  # the welcome page while nothing is loaded, else results
        self.right.addWidget(self.welcome)
        self.right.addWidget(self.results)
        splitter = QSplitter()
        splitter.addWidget(left)
        splitter.addWidget(self.right)
        # The files panel widens with the window too (2 : 3), from a width where its columns
        # Holds, Segments and Format show beside the files' names.
        splitter.setStretchFactor(0, 2)
        splitter.setStretchFactor(1, 3)
        self.splitter = splitter  # shared out when the window first shows (showEvent)
        self._shared_out = False
        self.setCentralWidget(splitter)
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(260)
        self.progress.setVisible(False)
        self.setStatusBar(StatusLine())  # long messages shortened to the width, whole on hover
        self.statusBar().addPermanentWidget(self.progress)
        build_menus(self)

    def _connect(self) -> None:
        self._connect_controller()
        controller, panel = self.controller, self.files_panel
        self.settings_model.changed.connect(controller.analysis.rerun_soon)
        self.settings_model.changed.connect(self._show_kept_settings)
        panel.remove_requested.connect(controller.remove_files)
        panel.role_requested.connect(controller.set_role)
        panel.encoding_requested.connect(controller.set_encoding)
        panel.rename_requested.connect(controller.rename_system)
        panel.runs_requested.connect(self.group_runs)
        panel.hide_requested.connect(controller.hide_system)
        panel.replace_requested.connect(controller.replace_file)
        panel.files_dropped.connect(self.add_files)
        tabs = self.test_set_tabs
        tabs.add_requested.connect(self.add_test_set)
        tabs.show_requested.connect(self.show_test_set)
        tabs.close_requested.connect(self.close_test_set)
        tabs.rename_requested.connect(self.rename_test_set)
        controller.test_sets_changed.connect(self._on_test_sets_changed)
        self.bleu_scale_action.toggled.connect(self.campaign_tab.changed)
        self._on_test_sets_changed()  # the first set's tab, from the start
        self.results.studies.run_requested.connect(controller.studies.start)
        self.results.studies.cancel_requested.connect(controller.studies.cancel)
        self.results.table_exported.connect(self._on_table_exported)
        self.results.studies.status_changed.connect(self.statusBar().showMessage)
        self.bleu_scale_action.toggled.connect(self.set_bleu_percent)
        self.welcome.open_requested.connect(self.open_files)
        self.welcome.demo_requested.connect(self.load_demo)
        if self.recovery is not None:  # the work changed: kept a moment later
            for signal in (
                controller.workspace_changed,
                controller.test_sets_changed,
                controller.title_changed,  # saved as a session
                self.settings_model.changed,
                self.results.metric_choice.currentIndexChanged,
            ):
                signal.connect(self.recovery.changed)

    def _connect_controller(self) -> None:
        """What the controller says, to the views that show it."""
        controller, analysis, results = self.controller, self.controller.analysis, self.results
        studies = results.studies
        controller.status_changed.connect(self.statusBar().showMessage)
        controller.problem_changed.connect(results.problem.setText)
        controller.problem_changed.connect(self.welcome.show_problem)
        controller.workspace_changed.connect(self.files_panel.show_workspace)
        controller.workspace_changed.connect(self._on_workspace_changed)
        controller.title_changed.connect(self.setWindowTitle)
        controller.session_opened.connect(self._on_session_opened)
        controller.files.stalled.connect(self.files_panel.show_slow)
        connect_edit_menu(self)
        analysis.stale_changed.connect(results.show_stale)
        analysis.cancellable_changed.connect(self.cancel_action.setEnabled)
        analysis.running_changed.connect(self.progress.setVisible)
        analysis.run_started.connect(results.start_run)
        analysis.run_dropped.connect(results.drop_run)
        analysis.progress_changed.connect(self._on_progress_changed)
        analysis.scores_changed.connect(results.show_scores)
        analysis.result_changed.connect(self._on_result_changed)
        analysis.result_cleared.connect(results.clear_result)
        analysis.notes_changed.connect(self._on_notes_changed)
        controller.studies.progress_changed.connect(studies.show_progress)
        controller.studies.finished.connect(studies.show_result)
        controller.studies.problem_changed.connect(studies.show_problem)
        controller.studies.running_changed.connect(studies.set_running)
        controller.studies.refused.connect(results.show_study_refused)
        controller.studies.stale_changed.connect(results.show_study_stale)

    # -- what the controller holds, and the user's actions ------------------------------------

    @property
    def workspace(self) -> Workspace:
        """The files loaded (the controller's)."""
        return self.controller.workspace

    @workspace.setter
    def workspace(self, workspace: Workspace) -> None:
        self.controller.workspace = workspace

    @property
    def result(self) -> AnalysisResult | None:
        """The last analysis finished, which the views show (the controller's)."""
        return self.controller.result

    @result.setter
    def result(self, result: AnalysisResult | None) -> None:
        self.controller.result = result  # the views are told (None: they let go of theirs)

    @property
    def run_groups(self) -> dict[str, tuple[str, ...]]:
        """The systems grouped as runs of one system, by name (the controller's, which
        sessions save and restore)."""
        return self.controller.run_groups

    @run_groups.setter
    def run_groups(self, groups: dict[str, tuple[str, ...]]) -> None:
        self.controller.run_groups = groups

    @property
    def session_path(self) -> Path | None:
        """The session's file, once opened or saved."""
        return self.controller.session_path

    def add_files(self, paths: Sequence[Path], roles: Mapping[Path, Role] | None = None) -> None:
        """Read files, folders and sessions (:meth:`AppController.add_files`). A campaign file
        (``.toml``), dropped, chosen with File > Open or given as ``mtgui FILE.toml``, opens
        as File > Open campaign... opens it (:meth:`open_campaign`): the file loader would
        only say it cannot read it."""
        campaigns = [path for path in paths if is_campaign_file(path)]
        others = [path for path in paths if not is_campaign_file(path)]
        if others or not campaigns:
            self.controller.add_files(others, dict(roles or {}))
        for path in campaigns:
            self.open_campaign(path)

    def open_campaign(self, path: Path) -> None:
        """Open the campaign file ``path`` as the project's test sets, a tab each, with its
        settings (:meth:`open_campaign_project`). A file whose sets or settings the tabs
        cannot hold as they are (scores given by spec, systems renamed, settings the window
        has no control for) runs in a campaign window of its own instead
        (:func:`~mtgui.views.results.campaign_view.open_campaign`), as it does where the
        launcher gave no reader."""
        reader, note = campaign_reader(), ""
        if reader is not None:
            try:
                project = reader(path)
            except InputError as error:
                self.controller.problem_changed.emit(window_message(error))
                return
            if project is not None:
                self.open_campaign_project(project)
                return
            note = (
                f"{path.name} gives scores, system names or settings the test sets' tabs cannot "
                "hold: it runs in a campaign window of its own."
            )
        if open_campaign(self, path) is None:  # a window made without the launcher (tests)
            note = f"{path.name}: campaigns open only in mtgui started as a program."
        if note:
            self.statusBar().showMessage(note, 8000)

    def open_campaign_project(self, project: CampaignProject) -> None:
        """Start afresh (asking first if any test set holds files) with the campaign's test
        sets, a tab each, its settings, and its Campaign tab in view (it runs once the files
        are read)."""
        if self.controller.holds_files() and not self.confirm_discard():
            return
        self.controller.open_test_sets(project.sets, project.path)
        self.settings_model.set_settings(project.settings)
        self.settings_panel.keep_correction()  # the file's settings, as mtgui campaign's
        if (project.bleu_scale == 100) != self.bleu_scale_action.isChecked():
            self.set_bleu_percent(project.bleu_scale == 100)
        self._name_kept_settings()
        self.campaign_tab.bring_into_view()

    def open_session(self, path: Path, then: Sequence[LoadRequest] = ()) -> None:
        """Open a saved session in place of what is loaded (asking first if anything is)."""
        self.controller.open_session(path, then)

    def save_session(self) -> bool:
        """Save the session to its file (asking for one the first time); True if saved."""
        return self.controller.save_session(self.current_metric())

    def save_session_as(self) -> bool:
        """Save the session to a file the user chooses; True if saved."""
        return self.controller.save_session_as(self.current_metric())

    def save_project_as(self) -> bool:
        """Save the files by content, the session, the report and the results as one
        project file (``.mtgui``) the user chooses; True if saved. With several test sets,
        the report is the campaign's when it is up to date."""
        outcome = self.campaign_tab.current()
        report = None if outcome is None else outcome.html(datetime.now().astimezone())
        return self.controller.save_project_as(self.current_metric(), report)

    # -- test sets and their campaign ---------------------------------------------------------

    def add_test_set(self) -> None:
        """A new, empty test set (a tab of inputs) after the others, shown (Ctrl+T)."""
        self.controller.add_test_set()

    def show_test_set(self, index: int) -> None:
        """Show the test set ``index``: its files, its analysis (not while files are read)."""
        if not self.controller.show_test_set(index):
            self._on_test_sets_changed()  # the tab chosen goes back

    def close_test_set(self, index: int) -> None:
        """Close the test set ``index``, asking first when it holds files."""
        sets = self.controller.test_sets
        stored = sets.sets[index]
        count = len(self.workspace.entries) if index == sets.current else None
        if count is None:
            count = len(stored.workspace.entries) + len(stored.pending)
        if count and not self.confirm_close_set(stored.name, count):
            return
        if not self.controller.close_test_set(index):
            self._on_test_sets_changed()

    def rename_test_set(self, index: int) -> None:
        """Ask for the test set ``index``'s new name (empty: its default)."""
        name = self.choose_set_name(self.controller.test_sets.sets[index].name)
        if name is not None:
            self.controller.rename_test_set(index, name)

    def _on_test_sets_changed(self) -> None:
        sets = self.controller.test_sets
        self.test_set_tabs.show_sets(sets.names(), sets.current)

    def run(self) -> None:
        """Start the analysis of what is loaded (Ctrl+R)."""
        self.controller.analysis.run()

    def cancel(self) -> None:
        """Stop the analysis under way, or about to start (Esc)."""
        self.controller.analysis.cancel()

    def new_project(self) -> None:
        """Close the files loaded (asking first) and reset the settings (Ctrl+N)."""
        if self.controller.holds_files() and not self.confirm_new():
            return
        self.controller.new_project()
        self.settings_model.set_settings(AnalysisSettings())
        self._kept_named = False
        self._show_kept_settings()

    def export_html(self) -> None:
        """Write the report to send as HTML, to a file the user chooses (Ctrl+Shift+E)."""
        self.export_report("html")

    def export_pdf(self) -> None:
        """Write the report to send as PDF, to a file the user chooses (Ctrl+Shift+P)."""
        self.export_report("pdf")

    def load_demo(self) -> None:
        """Load the bundled demo data (the analysis starts by itself)."""
        inputs = demo_inputs()
        self.add_files([path for path, _ in inputs], dict(inputs))

    def group_runs(self, name: str, runs: Sequence[str]) -> None:
        """Make the system ``name`` of the systems ``runs`` (runs of one system trained
        several times) and show every system over its runs, from the last analysis and again
        after each new one while the dialog is open (:mod:`mtgui.engine.runs`); a group sharing
        a run with it is replaced."""
        result = self.result
        if result is None:
            self.statusBar().showMessage("Group runs once the analysis has run.", 5000)
            return
        kept = {k: v for k, v in self.run_groups.items() if not set(v) & set(runs) and k != name}
        groups = {**kept, name: tuple(runs)}
        try:
            made = self._runs_of(result, groups)
        except InputError as error:
            QMessageBox.warning(self, "Group as runs of one system", error.message)
            return
        self.run_groups = groups
        self._show_runs_dialog(made)

    def _show_runs_dialog(self, made: RunsResult) -> None:
        """Show ``made`` in a runs dialog, in place of the one open."""
        if self.runs_dialog is not None:
            self.runs_dialog.close()
        self.runs_dialog = RunsDialog(made, self)
        self.runs_dialog.show()

    def _open_runs_dialog(self, result: AnalysisResult) -> None:
        """The runs dialog of the groups a session restored; a group whose runs are gone
        (a file removed or renamed) is dropped, with a word in the status bar."""
        try:
            made = self._runs_of(result, self.run_groups)
        except InputError as error:
            self.run_groups = {}
            self.statusBar().showMessage(f"The session's runs are not shown: {error.message}")
            return
        self._show_runs_dialog(made)

    def _runs_of(self, result: AnalysisResult, groups: Mapping[str, Sequence[str]]) -> RunsResult:
        """The runs' analysis of ``result`` for ``groups`` (name -> its runs' systems)."""
        return analyse_runs(
            result.statistics,
            result.bootstrap,
            [RunGroup(k, tuple(v)) for k, v in groups.items()],
            result.corpus.test_set.document_index_if_any(),
        )

    def _refresh_runs(self, result: AnalysisResult) -> None:
        """The open runs dialog follows a new analysis; it closes when its runs are gone."""
        dialog = self.runs_dialog
        if self._show_runs and self.run_groups:  # the runs of a session just opened
            self._show_runs = False
            self._open_runs_dialog(result)
            return
        if dialog is None or not dialog.isVisible() or not self.run_groups:
            return
        try:
            dialog.show_runs(self._runs_of(result, self.run_groups))
        except InputError:  # a run was removed, renamed or hidden
            self.run_groups = {}
            dialog.close()

    def _on_workspace_changed(self, workspace: Workspace) -> None:
        """The welcome page or the results; the loaded scores' metrics in the settings panel,
        those of a scores file just loaded (not a session's) ticked."""
        opened = bool(workspace.entries) and self.right.currentWidget() is self.welcome
        self.right.setCurrentWidget(self.results if workspace.entries else self.welcome)
        if opened:
            self._name_kept_settings()
        self._scores_seen, tick, metrics = ticked_on_load(workspace.entries, self._scores_seen)
        self.settings_panel.show_external(metrics, tick)
        self.settings_panel.suggest_correction(len(workspace.system_keys()))

    def set_bleu_percent(self, percent: bool) -> None:
        """Read BLEU and M-BLEU on 0-100 (``percent``) or 0-1, at once and from now on."""
        self.bleu_scale_action.setChecked(percent)
        self.controller.analysis.set_bleu_scale(100 if percent else 1)
        if self.preferences is not None:
            self.preferences.set_bleu_scale(100 if percent else 1)

    def export(self) -> None:
        """Write the CSV reports into a folder the user chooses (Ctrl+E)."""
        self.controller.export()

    def export_report(self, kind: str) -> None:
        """Write the report to send, as HTML or PDF, to a file the user chooses. With several
        test sets, the HTML report is the campaign's (every set and their aggregate)."""
        if kind == "html" and self.campaign_tab.available():
            if self.campaign_tab.current() is not None:
                self.campaign.export_html()
                self.statusBar().showMessage(self.campaign.status.text())
            else:
                self.campaign_tab.bring_into_view()  # it runs; then export
                self.statusBar().showMessage(
                    "The campaign is brought up to date first (see its tab): export its "
                    "report once it shows.",
                    8000,
                )
            return
        path = self.choose_report_file(kind) if self.result is not None else None
        if path is not None:
            self.controller.export_report(path, pdf_bytes if kind == "pdf" else None)

    # -- showing what the controller says -----------------------------------------------------

    def _on_progress_changed(self, done: int, total: int) -> None:
        self.progress.setRange(0, total)
        self.progress.setValue(done)

    def _on_result_changed(self, result: AnalysisResult) -> None:
        self.results.show_result(result)
        self._refresh_runs(result)
        for action in (self.export_action, self.report_action, self.pdf_action):
            action.setEnabled(True)

    def _on_session_opened(self, session: Session) -> None:
        self._scores_seen = set(session.paths)  # its metrics are ticked as it saved them
        self.results.want_metric(session.metric)
        self.settings_model.set_state(session.settings)
        self._name_kept_settings()
        self._show_runs = bool(session.run_groups)

    def current_metric(self) -> str:
        """The metric the views show."""
        return self.results.current_metric()

    def _recovery_snapshot(self) -> tuple[Session, Path | None] | None:
        """The work to keep in the recovery file: the session of now, every test set (None:
        nothing loaded)."""
        if not self.controller.holds_files():
            return None
        return self.controller.session(self.current_metric()), self.session_path

    def show_segments(self, first: str, second: str) -> None:
        """Open the Segments view on ``first`` (left) and ``second`` (right)."""
        self.results.show_segments(first, second)

    def show_pair(self, first: str, second: str) -> None:
        """Open the paired view on ``first`` against ``second``."""
        self.results.show_pair(first, second)

    def _on_table_exported(self, path: Path) -> None:
        self.statusBar().showMessage(f"Wrote {path}.")

    # -- preferences, help and the window ----------------------------------------------------

    def fill_recent_menu(self) -> None:
        """List the files opened lately in File > Open recent."""
        fill_recent_menu(self)

    def _restore_preferences(self) -> None:
        if self.preferences is not None:
            restore_window(self, self.preferences)
        self._show_kept_settings()

    def _show_kept_settings(self) -> None:
        """The settings that are not the defaults (kept from before): on the welcome page,
        and above the results once files are opened with them (:meth:`_name_kept_settings`)."""
        defaults = AnalysisSettings().to_dict()
        kept = settings_kept(defaults, self.settings_model.state(), LABELS)
        self.welcome.show_kept(kept)
        if self._kept_named or not kept:
            self._kept_named = bool(kept)
            self._kept_note = kept_settings_note(kept)
            self._show_notes()

    def _name_kept_settings(self) -> None:
        """Files were opened (on the command line, a session, the demo, a drop on the empty
        window): name the settings they are analysed with that are not the defaults, above
        the results, as long as some are not."""
        self._kept_named = True
        self._show_kept_settings()

    def _on_notes_changed(self, text: str) -> None:
        self._analysis_note = text
        self._show_notes()

    def _show_notes(self) -> None:
        """The note line above the results: the analysis's notes, then the settings kept."""
        self.results.show_notes(
            "\n".join(note for note in (self._analysis_note, self._kept_note) if note)
        )

    def _save_preferences(self) -> None:
        if self.preferences is not None:
            save_window(self, self.preferences)

    def show_guide(self) -> None:
        """Open the guide beside the window (F1)."""
        if self.help_dialog is None:
            self.help_dialog = HelpDialog(self)
        self.help_dialog.show()
        self.help_dialog.raise_()

    def show_about(self) -> None:
        """The version and where the methods come from."""
        show_about(self)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802
        paths = [Path(url.toLocalFile()) for url in event.mimeData().urls() if url.isLocalFile()]
        event.acceptProposedAction()
        self.add_files(paths)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802
        """The first time the window shows, at its size now: the panels' share of it."""
        super().showEvent(event)
        if not self._shared_out:
            self._shared_out = True
            width, panels = self.splitter.width(), self.splitter.widget(0)
            least = panels.minimumSizeHint().width() if panels is not None else 0
            left = max(int(width * LEFT_SHARE), least)
            self.splitter.setSizes([left, width - left])

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        self._save_preferences()
        self.shutdown()
        if self.recovery is not None:  # a clean quit: nothing to recover
            self.recovery.discard()
        super().closeEvent(event)

    def shutdown(self, seconds: float = QUIT_WAIT_SECONDS) -> bool:
        """Stop every worker, waiting at most ``seconds`` (:meth:`AppController.shutdown`),
        the campaign's among them."""
        deadline = time.monotonic() + seconds
        self.campaign_tab.stop(time.monotonic())  # asked to stop; waited for below
        stopped = self.controller.shutdown(seconds)
        return self.campaign_tab.stop(deadline) and stopped

    def open_files(self) -> None:
        """Ask for files to read, in a dialog wide enough for whole names (Ctrl+O)."""
        self.add_files(ask_files_to_open(self, self._start_folder()))

    def _start_folder(self) -> str:
        folder = self.preferences.last_folder() if self.preferences is not None else None
        return str(folder) if folder is not None else ""

    def _ask_session_file(self) -> Path | None:
        start = self.session_path or start_folder() / f"analysis{SESSION_SUFFIX}"
        return ask_session_file(self, start)

    def _ask_report_file(self, kind: str) -> Path | None:
        return ask_report_file(self, kind, start_folder() / "mtgui-report")

    def _ask_folder(self) -> Path | None:
        return ask_folder(self, "Export the CSV reports into")
