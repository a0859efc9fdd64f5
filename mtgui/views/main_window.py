"""The main window: drop files, see which systems are better, by how much, and how sure.

Files are read on a worker thread and listed in the files panel (with their problems, in plain
words); as soon as a reference and a system are loaded, and again whenever a setting changes,
the analysis runs on another worker thread while the histograms fill, and the score table and
the significance grid appear when it ends. The window never computes itself: sessions too are
read on a worker thread.

What the views show always says what it was made from: when the files or the settings change,
a note above the views says that the results are those of the previous ones (and which), until
a new run replaces them; the status line says at once that a new run is under way.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Generator, Sequence
from functools import partial
from pathlib import Path

from PySide6.QtCore import QByteArray, QModelIndex, QSortFilterProxyModel, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMenu,
    QProgressBar,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from mtgui.app.preferences import Preferences
from mtgui.app.runs import QUIT_WAIT_SECONDS, FileLoader, RunController, RunInputs, describe_stale
from mtgui.engine.analysis import AnalysisResult, iter_analysis
from mtgui.engine.corpus import Role
from mtgui.engine.errors import InputError
from mtgui.engine.resampling import BootstrapProgress
from mtgui.engine.statistics import StatisticsProgress
from mtgui.engine.studies.dispatch import iter_study
from mtgui.io.folders import expand_paths
from mtgui.io.session import (
    SESSION_SUFFIX,
    Session,
    is_session_file,
    read_session,
    session_from_workspace,
    write_session,
)
from mtgui.io.workspace import (
    Entry,
    LoadRequest,
    SystemKey,
    Workspace,
    describe_loaded,
    placeholder,
    window_message,
)
from mtgui.report.files import existing_reports, report_tables, write_reports
from mtgui.report.significance import cluster_caption
from mtgui.views.choices import refill
from mtgui.views.details_view import DetailsView
from mtgui.views.dialogs import (
    ask_folder,
    ask_role,
    ask_session_file,
    ask_to_open_session,
    ask_to_replace,
)
from mtgui.views.files_panel import FilesPanel
from mtgui.views.help import HelpDialog, show_about
from mtgui.views.histogram_view import HistogramView
from mtgui.views.paired_view import PairedView
from mtgui.views.score_table_model import SORT_ROLE, ScoreTableModel
from mtgui.views.segments_view import SegmentsView
from mtgui.views.settings_panel import LABELS, SettingsPanel
from mtgui.views.significance_grid_model import SignificanceGridModel
from mtgui.views.studies_view import StudiesView
from mtgui.views.table_view import DataTableView

RoleChooser = Callable[[Path, Role], Role | None]
_RERUN_DELAY_MS = 300  # settings changes within this time start one run, not several
_APPLY_DELAY_MS = 100  # files read within this time are listed together
_MANY_FILES = 1000
_SESSION_WAIT_MS = 100  # a session read within this time opens before open_session returns
_STALE_STYLE = "background: #FFF4CE; color: #3D2E00; border: 1px solid #E0C45C; padding: 4px;"
OpenedSession = tuple[Path, Session, Workspace, list[LoadRequest]]


class MainWindow(QMainWindow):
    """The application's main window."""

    def __init__(
        self,
        parent: QWidget | None = None,
        synchronous: bool = False,
        preferences: Preferences | None = None,
    ) -> None:
        """``preferences`` remember settings, recent files and the window between runs (the
        application passes them; without them nothing is remembered)."""
        super().__init__(parent)
        self.setWindowTitle("mtgui")
        self.resize(1200, 760)
        self.setAcceptDrops(True)
        self.workspace = Workspace()
        self.result: AnalysisResult | None = None
        self.session_path: Path | None = None
        self.preferences = preferences
        self._wanted_metric: str | None = None  # a reopened session's metric, until it exists
        self.choose_role: RoleChooser = self._ask_role
        self.choose_folder: Callable[[], Path | None] = self._ask_folder
        self.confirm_overwrite: Callable[[list[Path]], bool] = self._ask_overwrite
        self.choose_session_file: Callable[[], Path | None] = self._ask_session_file
        self.confirm_discard: Callable[[], bool] = self._ask_discard
        self.help_dialog: HelpDialog | None = None
        self._loader = FileLoader(self, synchronous)
        self._arrived: list[tuple[LoadRequest, Entry]] = []  # read, not yet listed
        self._applying = False
        self._apply = QTimer(self, singleShot=True, interval=_APPLY_DELAY_MS)
        self._apply.timeout.connect(self._apply_arrived)
        self._runner = RunController(self, synchronous)
        self._study_runner = RunController(self, synchronous)
        self._session_runner = RunController(self, synchronous)
        self._session_then: list[LoadRequest] = []  # files given with a session being opened
        self._shown_inputs: RunInputs | None = None  # what the result shown was made from
        self._run_inputs: RunInputs | None = None  # what the run under way is made from
        self._next_run = ""  # what the analysis does next: a key of controller.NEXT_RUN
        self._study_started: RunInputs | None = None  # what the study under way is made from
        self._study_inputs: RunInputs | None = None  # what the study shown was made from
        self._study_note = ""  # the note this window put in the studies view
        self._shut_down = False
        self._started = 0.0
        self._phase_started: float | None = None  # when the current resampling phase began
        self._phase_done = 0
        self._histograms_started = False
        self._rerun = QTimer(self, singleShot=True, interval=_RERUN_DELAY_MS)
        self._rerun.timeout.connect(self.run)
        self._build()
        self._connect()
        self._restore_preferences()
        self.statusBar().showMessage("Drop reference and system files on the window to start.")

    # -- building -----------------------------------------------------------------------------

    def _build(self) -> None:
        self.files_panel = FilesPanel()
        self.settings_panel = SettingsPanel()
        left = QSplitter(Qt.Orientation.Vertical)
        left.addWidget(self.files_panel)
        left.addWidget(self.settings_panel)
        self.metric_choice = QComboBox()
        self.metric_choice.setToolTip("The metric the views show.")
        self.problem = QLabel()
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("color: #B00020;")
        self.notes = QLabel()  # what the user should know about the result shown
        self.notes.setWordWrap(True)
        self.notes.setToolTip("Notes on how the results shown were made.")
        self.notes.setVisible(False)
        self.stale = QLabel()  # says when the results shown are not those of the inputs now
        self.stale.setWordWrap(True)
        self.stale.setStyleSheet(_STALE_STYLE)
        self.stale.setToolTip(
            "The results shown were made from other files or settings than those set now."
        )
        self.stale.setVisible(False)
        self.histograms = HistogramView()
        self.score_model, self.grid_model = ScoreTableModel(self), SignificanceGridModel(self)
        self.score_table = self._table(self.score_model, sortable=True)
        self.grid_table = self._table(self.grid_model, sortable=False)
        self.grid_table.setToolTip(
            "Hover a cell for the numbers behind it; double-click it to see the two systems' "
            "paired differences."
        )
        self.grid_reading, self.clusters = QLabel(), QLabel()
        for label in (self.grid_reading, self.clusters):
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # Texts with names from the inputs: a "<" in a system's name is not markup.
        for label in (self.problem, self.notes, self.stale, self.grid_reading, self.clusters):
            label.setTextFormat(Qt.TextFormat.PlainText)
        grid_page = QWidget()
        grid_layout = QVBoxLayout(grid_page)
        grid_layout.addWidget(self.grid_reading)
        grid_layout.addWidget(self.grid_table, stretch=1)
        grid_layout.addWidget(self.clusters)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.histograms, "Distributions")
        self.tabs.addTab(self.score_table, "Scores")
        self.tabs.addTab(grid_page, "Significance")
        self.paired = PairedView()
        self.tabs.addTab(self.paired, "Paired")
        self.segments = SegmentsView()
        self.tabs.addTab(self.segments, "Segments")
        self.details = DetailsView()
        self.tabs.addTab(self.details, "Details")
        self._stale_tabs: set[QWidget] = set()  # to fill when shown (they cost most to fill)
        self.studies = StudiesView()
        self.tabs.addTab(self.studies, "Studies")
        right = QWidget()
        right_layout = QVBoxLayout(right)
        top = QHBoxLayout()
        top.addWidget(QLabel("Metric:"))
        top.addWidget(self.metric_choice)
        top.addStretch(1)
        right_layout.addLayout(top)
        right_layout.addWidget(self.problem)
        right_layout.addWidget(self.stale)
        right_layout.addWidget(self.notes)
        right_layout.addWidget(self.tabs, stretch=1)
        splitter = QSplitter()
        splitter.addWidget(left)
        splitter.addWidget(right)
        splitter.setStretchFactor(1, 1)
        self.setCentralWidget(splitter)
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(260)
        self.progress.setVisible(False)
        self.statusBar().addPermanentWidget(self.progress)
        self._build_actions()

    def _table(self, model: object, sortable: bool) -> DataTableView:
        view = DataTableView()
        if sortable:
            proxy = QSortFilterProxyModel(self)
            proxy.setSourceModel(model)  # type: ignore[arg-type]
            proxy.setSortRole(SORT_ROLE)
            view.setModel(proxy)
            view.setSortingEnabled(True)
            view.sortByColumn(-1, Qt.SortOrder.AscendingOrder)  # best first until a click
        else:
            view.setModel(model)  # type: ignore[arg-type]
        view.setAlternatingRowColors(sortable)
        return view

    def _build_actions(self) -> None:
        self.open_action = _action(self, "&Open...", QKeySequence.StandardKey.Open)
        self.open_action.setToolTip("Open reference, system and score files, or a session.")
        self.save_session_action = _action(self, "&Save session", QKeySequence.StandardKey.Save)
        self.save_session_as_action = _action(self, "Save session &as...", "Ctrl+Shift+S")
        self.export_action = _action(self, "&Export CSV...", "Ctrl+E")
        self.run_action = _action(self, "&Run", "Ctrl+R")
        self.cancel_action = _action(self, "&Cancel", "Esc")
        quit_action = _action(self, "&Quit", QKeySequence.StandardKey.Quit)
        self.guide_action = _action(self, "mtgui &guide", "F1")
        about_action = _action(self, "&About mtgui", None)
        self.recent_menu = QMenu("Open &recent", self)
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        for action, slot in (
            (self.open_action, self._on_open_triggered),
            (self.save_session_action, self.save_session),
            (self.save_session_as_action, self.save_session_as),
            (self.export_action, self.export),
            (self.run_action, self.run),
            (self.cancel_action, self.cancel),
            (quit_action, self.close),
            (self.guide_action, self.show_guide),
            (about_action, self.show_about),
        ):
            action.triggered.connect(slot)
        self.export_action.setEnabled(False)
        self.cancel_action.setEnabled(False)
        file_menu = self.menuBar().addMenu("&File")
        file_menu.addAction(self.open_action)
        file_menu.addMenu(self.recent_menu)
        file_menu.addActions([self.save_session_action, self.save_session_as_action])
        file_menu.addSeparator()
        file_menu.addAction(self.export_action)
        file_menu.addSeparator()
        file_menu.addAction(quit_action)
        self.menuBar().addMenu("&Analysis").addActions([self.run_action, self.cancel_action])
        self.menuBar().addMenu("&Help").addActions([self.guide_action, about_action])
        toolbar = self.addToolBar("Analysis")
        toolbar.setObjectName("analysis-toolbar")  # for saveState
        toolbar.addActions(
            [self.open_action, self.run_action, self.cancel_action, self.export_action]
        )

    def _connect(self) -> None:
        self._loader.entry_read.connect(self._on_loader_entry_read)
        self._loader.progress_changed.connect(self._on_loader_progress_changed)
        self._loader.stalled.connect(self._on_loader_stalled)
        self._loader.idle.connect(self._on_loader_idle)
        self._session_runner.finished.connect(self._on_session_runner_finished)
        self._session_runner.failed.connect(self._on_session_runner_failed)
        self._runner.progress_changed.connect(self._on_runner_progress_changed)
        self._runner.finished.connect(self._on_runner_finished)
        self._runner.failed.connect(self._on_runner_failed)
        self._runner.running_changed.connect(self._on_runner_running_changed)
        self.settings_panel.settings_changed.connect(self._on_settings_changed)
        self.metric_choice.currentIndexChanged.connect(self._on_metric_changed)
        self.files_panel.remove_requested.connect(self._on_files_remove_requested)
        self.files_panel.rename_requested.connect(self._on_files_rename_requested)
        self.files_panel.hide_requested.connect(self._on_files_hide_requested)
        self.files_panel.replace_requested.connect(self.replace_file)
        self.studies.run_requested.connect(self.run_study)
        self.studies.cancel_requested.connect(self._study_runner.cancel)
        self._study_runner.progress_changed.connect(self.studies.show_progress)
        self._study_runner.finished.connect(self.studies.show_result)
        for shown in (self._study_runner.progress_changed, self._study_runner.finished):
            shown.connect(self._on_study_shown)
        self._study_runner.failed.connect(self.studies.show_problem)
        self._study_runner.running_changed.connect(
            lambda: self.studies.set_running(self._study_runner.running)
        )
        self.files_panel.files_dropped.connect(self.add_files)
        self.grid_table.doubleClicked.connect(self._on_grid_double_clicked)
        self.paired.segments_requested.connect(self.show_segments)
        self.tabs.currentChanged.connect(self._fill_current_tab)
        for table in (self.score_table, self.grid_table):
            table.exported.connect(self._on_table_exported)

    # -- loading ------------------------------------------------------------------------------

    def add_files(self, paths: Sequence[Path], roles: dict[Path, Role] | None = None) -> None:
        """Read files (folders stand for the files in them) on a worker thread.

        Plain text without a given role is read as its name suggests, and the user confirms
        its role once it is read. Files given while others are being read wait their turn,
        unless one of those takes long: then they go on without it. Each file is listed at
        once, in the order given, and filled in when it is read.
        """
        roles = roles or {}
        expansion = expand_paths(paths)  # what a folder holds, as `mtgui eval --hyp FOLDER`
        if expansion.messages():
            self.problem.setText(" ".join(expansion.messages()))
        expanded = list(expansion.files)
        sessions = [path for path in expanded if is_session_file(path)]
        requests = [LoadRequest(p, roles.get(p)) for p in expanded if p not in sessions]
        for path in [path for path in paths if os.path.isfile(path) and path not in sessions]:
            self._remember_recent(path)
        if sessions:
            self.open_session(sessions[0], then=requests)
        else:
            self._queue_loads(requests)

    def replace_file(self, old: Path, new: Path) -> None:
        """Read ``new`` as the next version of the loaded file ``old``, in its place and role."""
        entry = next((e for e in self.workspace.entries if e.path == old), None)
        role = None if entry is None else entry.plain_role or entry.role
        self._queue_loads([LoadRequest(new, role, replaces=old)])

    def _queue_loads(self, requests: Sequence[LoadRequest]) -> None:
        """List new files as being read, and give them all to the loader."""
        if not requests:
            return
        listed = {e.path for e in self.workspace.entries}
        waiting = [
            placeholder(r.path, r.role)
            for r in requests
            if r.replaces is None and r.path not in listed
        ]
        if waiting:
            self.workspace = self.workspace.with_entries(waiting)
            self._workspace_changed(run=False)
        self._loader.add(requests)
        if self._loader.running:
            self.statusBar().showMessage(f"Reading {len(requests):,} files...")
        self._show_staleness()

    def _on_loader_entry_read(self, request: LoadRequest, entry: Entry) -> None:
        self._arrived.append((request, entry))
        if not self._apply.isActive():  # thousands of files: list them less often
            many = len(self.workspace.entries) > _MANY_FILES
            self._apply.start(_APPLY_DELAY_MS * (5 if many else 1))

    def _on_loader_progress_changed(self, done: int, total: int, path: Path) -> None:
        self.statusBar().showMessage(f"Reading files: {done:,} of {total:,} ({path.name})")

    def _on_loader_stalled(self, path: Path, seconds: float) -> None:
        self.files_panel.show_slow(path, seconds)
        self.statusBar().showMessage(
            f"Still reading {path.name} after {seconds:.0f} s: the other files go on without it "
            "(if it never arrives, remove it from the files panel)."
        )

    def _on_loader_idle(self) -> None:
        """Every file given has been read (or is taking long): list them, then analyse."""
        self._apply_arrived()

    def _apply_arrived(self) -> None:
        """Put the files read since last time in their places, then analyse if none is left.

        Asking a plain-text file's role waits for the user; files read meanwhile are put in
        their places after it, by the same loop.
        """
        self._apply.stop()
        if self._applying:
            return
        self._applying = True
        try:
            while self._arrived:
                arrived, self._arrived = self._arrived, []
                self.workspace = self._with_read(self.workspace, arrived)
        finally:
            self._applying = False
        self._workspace_changed()

    def _with_read(
        self, workspace: Workspace, arrived: list[tuple[LoadRequest, Entry]]
    ) -> Workspace:
        """``workspace`` with the files read in their places (a file removed meanwhile stays
        out; a plain-text file whose role the user would not give is left out)."""
        listed = {e.path: e for e in workspace.entries}
        fresh: list[Entry] = []
        for request, entry in arrived:
            if request.replaces is None and request.path not in listed:
                continue  # removed while it was read
            if entry.asks_role:
                role = self.choose_role(entry.path, entry.plain_role or Role.SYSTEM)
                if role is None:
                    before = listed.get(entry.path)
                    if before is not None and before.reading:
                        workspace = workspace.with_entries(fresh).without(entry.path)
                        fresh = []
                    continue
                entry = entry.with_role(role)
            if request.replaces is not None:
                workspace = workspace.with_entries(fresh).replaced(request.replaces, entry)
                fresh = []
            else:
                fresh.append(entry)
        return workspace.with_entries(fresh)

    def _workspace_changed(self, run: bool = True) -> None:
        """Show the files and the title; analyse again (``run``) or say the results are behind."""
        self.files_panel.show_workspace(self.workspace)
        self._update_title()
        if run:
            self.run()
        else:
            self._show_staleness()

    def _segments(self) -> int | None:
        """The test set's size, if the result shown is of the files loaded now."""
        shown = self._shown_inputs
        if self.result is None or (shown is not None and not shown.same_files(self._inputs())):
            return None
        return self.result.corpus.test_set.size

    def _update_title(self) -> None:
        """'what is loaded — mtgui', e.g. '4 systems, 2 references, 500 segments — mtgui'."""
        self.setWindowTitle(describe_loaded(self.workspace, self._segments(), self.session_path))

    def _on_files_remove_requested(self, path: Path) -> None:
        self._loader.forget(path)
        self.workspace = self.workspace.without(path)
        self._workspace_changed()

    def _on_files_rename_requested(self, key: SystemKey, new: str) -> None:
        try:
            self.workspace = self.workspace.renamed_system(key, new)
        except InputError as error:  # the files panel asks for a free name: not seen
            self.problem.setText(window_message(error))
            return
        self._workspace_changed()

    def _on_files_hide_requested(self, key: SystemKey, hidden: bool) -> None:
        self.workspace = self.workspace.with_system_hidden(key, hidden)
        self._workspace_changed()

    # -- running ------------------------------------------------------------------------------

    def run(self) -> None:
        """Start the analysis of what is loaded (cancelling a run under way).

        While files are being read, the analysis waits for them (it starts when they are).
        """
        self._rerun.stop()
        if self._loader.busy:  # a run under way goes on: its results are shown as the previous
            self._next_run = "loading"
            self._show_staleness()
            return
        inputs = self._inputs()
        try:
            corpus = self.workspace.corpus()
            metrics = self.settings_panel.metric_names()
            if not metrics:
                raise InputError("no metric is chosen.", hint="Tick at least one metric.")
            if "human" in metrics and not corpus.scores:
                metrics = tuple(m for m in metrics if m != "human")
            metric_settings = self.settings_panel.metric_settings()
            resampling = self.settings_panel.bootstrap_settings()
        except InputError as error:
            self._cannot_run(error)
            return
        self.problem.clear()
        self._histograms_started = False
        self._started = time.monotonic()
        self._phase_started = None
        self._phase_done = 0
        self._run_inputs, self._next_run = inputs, "running"
        self._runner.start(lambda: iter_analysis(corpus, metrics, metric_settings, resampling))
        self.progress.setRange(0, 1)  # empty until the first step is done, never the last run's
        self.progress.setValue(0)
        self.statusBar().showMessage(
            f"Analysing: scoring {len(corpus.systems)} systems with "
            f"{', '.join(LABELS.get(m, m) for m in metrics)}..."
        )
        self._show_staleness()

    def _cannot_run(self, error: InputError) -> None:
        """What is loaded cannot be analysed (yet): say why, and that the results are behind."""
        self._runner.cancel()
        loaded = bool(self.workspace.entries)
        self.problem.setText(window_message(error) if loaded else "")
        self._next_run = "blocked" if loaded else "empty"
        self.statusBar().showMessage(
            "The analysis cannot start: see the message above the views."
            if loaded
            else "Drop reference and system files on the window to start."
        )
        self._show_staleness()

    def _inputs(self) -> RunInputs:
        """What an analysis started now would be made from."""
        return RunInputs(self.workspace, self.settings_panel.state())

    def _on_settings_changed(self) -> None:
        """Run again after a short pause (several changes at once start one run)."""
        self._rerun.start()
        self._next_run = "pending"
        self._show_staleness()

    def _show_staleness(self) -> None:
        """Say above the views whether what they show is what the files and settings give now."""
        self.cancel_action.setEnabled(self._runner.running or self._rerun.isActive())
        text, state = "", self._next_run
        if state == "pending" and self._loader.busy:
            state = "loading"  # the run about to start will wait for the files
        if self.result is not None and self._shown_inputs is not None:
            text = describe_stale(self._shown_inputs, self._inputs(), state, LABELS)
        self.stale.setText(text)
        self.stale.setVisible(bool(text))
        self._show_study_staleness()

    def _show_study_staleness(self) -> None:
        """Say in the Studies view when its study is of other files or settings than now."""
        note = ""
        if self._study_inputs is not None and self.studies.study is not None:
            now = self._inputs()
            note = describe_stale(self._study_inputs, now, "study", LABELS, "This study is")
        if note != self._study_note:
            if note or self.studies.message.text() == self._study_note:
                self.studies.show_problem(note)  # never clears a message of another's
            self._study_note = note

    def run_study(self, name: str, repeats: int) -> None:
        """Run a study on the last finished analysis, on its own worker thread."""
        if self.result is None:
            self.studies.show_problem("Load a reference and a system first: a study needs scores.")
            return
        if self.stale.text():
            self._study_note = (
                "The analysis shown is not that of the files and settings set now (see the "
                "note above the views): press Run (Ctrl+R) first; a study starts from it."
            )
            self.studies.show_problem(self._study_note)  # goes when the analysis is new
            return
        result = self.result
        try:
            metric_settings = self.settings_panel.metric_settings()
            bootstrap = self.settings_panel.bootstrap_settings()
            study = iter_study(
                name, result.corpus, result.statistics, metric_settings, bootstrap, repeats
            )
        except InputError as error:
            self.studies.show_problem(window_message(error))
            return
        self._study_started = self._inputs()
        self._study_runner.start(lambda: study)

    def _on_study_shown(self) -> None:
        """A study of the inputs it started from is shown (partly or whole)."""
        self._study_inputs = self._study_started
        self._show_staleness()

    def cancel(self) -> None:
        """Stop the analysis under way, or about to start (Esc)."""
        if not (self._runner.running or self._rerun.isActive()):
            return
        self._rerun.stop()
        self._runner.cancel()
        self._next_run = "cancelled"
        self._show_staleness()
        self.statusBar().showMessage(
            "Cancelled: the views show the results of the previous settings (see the note "
            "above them)."
            if self.stale.text()
            else "Cancelled."
        )

    def _on_runner_running_changed(self) -> None:
        running = self._runner.running
        self.cancel_action.setEnabled(running or self._rerun.isActive())
        self.progress.setVisible(running)

    def _on_runner_progress_changed(self, snapshot: object) -> None:
        if isinstance(snapshot, StatisticsProgress):
            self.progress.setRange(0, snapshot.total)
            self.progress.setValue(snapshot.done)
            self.statusBar().showMessage(
                f"Scoring: {snapshot.done} of {snapshot.total} systems ({snapshot.system})"
            )
        elif isinstance(snapshot, BootstrapProgress):
            self._show_bootstrap_progress(snapshot)

    def _show_bootstrap_progress(self, snapshot: BootstrapProgress) -> None:
        self.progress.setRange(0, snapshot.total)
        self.progress.setValue(snapshot.done)
        if self._phase_started is None or snapshot.done < self._phase_done:
            self._phase_started, self._phase_done = time.monotonic(), snapshot.done
        elapsed = time.monotonic() - self._phase_started
        remaining = snapshot.total - snapshot.done
        left = elapsed * remaining / max(snapshot.done - self._phase_done, 1)
        self.statusBar().showMessage(
            f"Resampling ({snapshot.phase}): {snapshot.done:,} of {snapshot.total:,}, "
            f"about {left:.0f} s left"
        )
        if snapshot.phase == "bootstrap" and snapshot.scores:
            if not self._histograms_started:
                self._start_histograms([system for system, _ in snapshot.scores])
            self.histograms.update_scores(snapshot.scores)

    def _start_histograms(self, systems: list[str]) -> None:
        metric = self.current_metric()
        names = list(dict.fromkeys(systems))
        self.histograms.start_run(names, metric, LABELS.get(metric, metric))
        self._histograms_started = True

    def _on_runner_finished(self, result: AnalysisResult) -> None:
        self.result = result
        self._shown_inputs, self._run_inputs = self._run_inputs, None
        if self._next_run == "running":
            self._next_run = ""
        metrics = list(result.bootstrap.metrics)
        current = self._wanted_metric or self.current_metric()
        if current in metrics:
            self._wanted_metric = None
        refill(self.metric_choice, [(LABELS.get(name, name), name) for name in metrics], current)
        self._show_metric()
        self._update_title()
        self.export_action.setEnabled(True)
        seconds = time.monotonic() - self._started
        notes = " ".join(result.corpus.notes + result.bootstrap.notes)
        self.notes.setText(f"Note: {notes}" if notes else "")
        self.notes.setVisible(bool(notes))
        settings = result.bootstrap.settings
        self.statusBar().showMessage(
            f"Done in {seconds:.1f} s: {len(result.corpus.systems)} systems, "
            f"{result.corpus.test_set.size} segments, {settings.resamples:,} resamples of "
            f"{settings.unit.value}s." + (" See the note above the views." if notes else "")
        )
        self._show_staleness()

    def _on_runner_failed(self, message: str) -> None:
        self.problem.setText(message)
        if self._next_run == "running":
            self._next_run = "failed"
        self.statusBar().showMessage("The analysis stopped: see the message above the views.")
        self._show_staleness()

    def current_metric(self) -> str:
        """The metric the views show."""
        data = self.metric_choice.currentData()
        if data:
            return str(data)
        names = self.settings_panel.metric_names()
        return names[0] if names else "bleu"

    def _on_metric_changed(self) -> None:
        self._show_metric()

    def _show_metric(self) -> None:
        if self.result is None:
            return
        metric, bootstrap = self.current_metric(), self.result.bootstrap
        self.score_model.set_result(bootstrap, metric)
        self.grid_model.set_result(bootstrap, metric)
        self.score_table.resizeColumnsToContents()
        self.grid_table.resizeColumnsToContents()
        self.grid_reading.setText(self.grid_model.reading)
        self.clusters.setText(cluster_caption(bootstrap, metric))
        # Load order, as while the run was filling them: the plots are kept, not made again.
        self.histograms.start_run(list(bootstrap.systems), metric, LABELS.get(metric, metric))
        self._histograms_started = True
        self.histograms.finish_run(bootstrap)
        self.score_table.export_name = f"scores-{metric}"
        self.grid_table.export_name = f"significance-{metric}"
        if len(bootstrap.systems) > 1:
            self.paired.set_result(self.result, metric)
        self._stale_tabs = {self.segments, self.details}
        self._fill_current_tab()

    def _fill_current_tab(self) -> None:
        """Fill the Segments or Details view if it is shown and behind the result."""
        current = self.tabs.currentWidget()
        if self.result is None or current not in self._stale_tabs:
            return
        self._stale_tabs.discard(current)
        metric = self.current_metric()
        if current is self.segments:
            pair = self.segments.pair() if self.segments.result is not None else None
            self.segments.set_result(self.result, metric=metric)
            if pair is not None and all(s in self.result.bootstrap.systems for s in pair):
                self.segments.set_pair(*pair)
        elif current is self.details:
            self.details.set_result(self.result)
            self.details.set_metric(metric)

    def show_segments(self, first: str, second: str) -> None:
        """Open the Segments view on ``first`` (left) and ``second`` (right)."""
        self.tabs.setCurrentWidget(self.segments)  # fills it if it is behind
        self.segments.set_pair(first, second)

    def _on_table_exported(self, path: Path) -> None:
        self.statusBar().showMessage(f"Wrote {path}.")

    def show_pair(self, first: str, second: str) -> None:
        """Open the paired view on ``first`` against ``second``."""
        self.paired.set_pair(first, second)
        self.tabs.setCurrentWidget(self.paired)

    def _on_grid_double_clicked(self, index: QModelIndex) -> None:
        pair = self.grid_model.pair(index.row(), index.column())
        if pair is not None:
            self.show_pair(pair.x, pair.y)

    # -- sessions and preferences ------------------------------------------------------------

    def open_session(self, path: Path, then: Sequence[LoadRequest] = ()) -> None:
        """Open a saved session in place of what is loaded (asking first if anything is).

        The session is read, and its workspace made, on a worker thread; one read in a moment
        (:data:`_SESSION_WAIT_MS`) is open when this returns. Files that have gone missing
        since are listed in the files panel with their problem, so the rest of the session
        still opens. ``then`` are files given with the session, read after its files.
        """
        if self.workspace.entries and not self.confirm_discard():
            return
        self._session_then = list(then)
        self.statusBar().showMessage(f"Opening the session {path.name}...")
        self._session_runner.start(partial(_iter_open_session, path))
        self._session_runner.settle(_SESSION_WAIT_MS)

    def _on_session_runner_finished(self, opened: OpenedSession) -> None:
        path, session, workspace, requests = opened
        self._runner.cancel()
        self._loader.cancel()
        self._arrived = []
        self.workspace = workspace
        self.session_path = path
        self._wanted_metric = session.metric
        self.settings_panel.set_state(session.settings)
        self._remember_recent(path)
        self._workspace_changed(run=False)
        then, self._session_then = self._session_then, []
        self._queue_loads([*requests, *then])
        self.statusBar().showMessage(
            f"Opened the session {path.name}: reading its {len(requests):,} files..."
        )

    def _on_session_runner_failed(self, message: str) -> None:
        self._session_then = []
        self.problem.setText(message)
        self.statusBar().showMessage("The session could not be opened: see the message above.")

    def save_session(self) -> bool:
        """Save the session to its file (asking for one the first time); True if saved."""
        if self.session_path is None:
            return self.save_session_as()
        return self._write_session(self.session_path)

    def save_session_as(self) -> bool:
        """Save the session to a file the user chooses; True if saved."""
        path = self.choose_session_file()
        return path is not None and self._write_session(path)

    def _write_session(self, path: Path) -> bool:
        session = session_from_workspace(
            self.workspace, self.settings_panel.state(), self.current_metric()
        )
        try:
            write_session(path, session)
        except InputError as error:
            self.problem.setText(window_message(error))
            return False
        self.session_path = path
        self._remember_recent(path)
        self._update_title()
        self.statusBar().showMessage(f"Saved the session as {path}.")
        return True

    def _remember_recent(self, path: Path) -> None:
        if self.preferences is not None:
            self.preferences.add_recent_file(path)
            self.preferences.set_last_folder(path)

    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        recent = self.preferences.recent_files() if self.preferences is not None else []
        for path in recent:
            action = self.recent_menu.addAction(path.name)
            action.setToolTip(str(path))
            action.setStatusTip(str(path))
            action.triggered.connect(lambda _=False, p=path: self.add_files([p]))
        if not recent:
            self.recent_menu.addAction("(none yet)").setEnabled(False)

    def _restore_preferences(self) -> None:
        """Settings, histogram layout and window as they were when mtgui was last closed."""
        if self.preferences is None:
            return
        self.settings_panel.set_state(self.preferences.panel_state())
        self.histograms.layout_choice.setCurrentText(self.preferences.histogram_layout())
        geometry, state = self.preferences.window_geometry(), self.preferences.window_state()
        if geometry:
            self.restoreGeometry(QByteArray(geometry))
        if state:
            self.restoreState(QByteArray(state))

    def _save_preferences(self) -> None:
        if self.preferences is None:
            return
        self.preferences.set_panel_state(self.settings_panel.state())
        self.preferences.set_histogram_layout(self.histograms.layout_choice.currentText())
        self.preferences.set_window(
            bytes(self.saveGeometry().data()), bytes(self.saveState().data())
        )
        self.preferences.sync()

    def show_guide(self) -> None:
        """Open the guide beside the window (F1)."""
        if self.help_dialog is None:
            self.help_dialog = HelpDialog(self)
        self.help_dialog.show()
        self.help_dialog.raise_()

    def show_about(self) -> None:
        """The version and where the methods come from."""
        show_about(self)

    # -- export -------------------------------------------------------------------------------

    def export(self) -> None:
        """Write the CSV reports into a folder the user chooses; ask before replacing files."""
        if self.result is None:
            return
        folder = self.choose_folder()
        if folder is None:
            return
        tables = report_tables(self.result.statistics, self.result.bootstrap, samples=True)
        existing = existing_reports(folder, tables)
        if existing and not self.confirm_overwrite(existing):
            return
        try:
            written = write_reports(folder, tables, overwrite=True)
        except InputError as error:
            self.problem.setText(window_message(error))
            return
        self.statusBar().showMessage(f"Wrote {len(written)} CSV files to {folder}.")

    # -- the window ---------------------------------------------------------------------------

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802
        paths = [Path(url.toLocalFile()) for url in event.mimeData().urls() if url.isLocalFile()]
        event.acceptProposedAction()
        self.add_files(paths)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        self._save_preferences()
        self.shutdown()
        super().closeEvent(event)

    def shutdown(self, seconds: float = QUIT_WAIT_SECONDS) -> bool:
        """Stop every worker (analysis, studies, session, files) and wait at most ``seconds``
        in all; True if all stopped. Workers still busy then (a read that never returns) are
        daemon threads: they end with the program and never hold up quitting."""
        if self._shut_down:
            return True
        self._shut_down = True
        self._rerun.stop()
        self._apply.stop()
        runners = [self._runner, self._study_runner, self._session_runner]
        for runner in runners:
            runner.abort_all()
        self._loader.cancel()
        deadline = time.monotonic() + seconds
        return all([*(runner.wait(deadline) for runner in runners), self._loader.wait(deadline)])

    def _on_open_triggered(self) -> None:
        names, _ = QFileDialog.getOpenFileNames(
            self, "Open references, system outputs, scores or a session", self._start_folder()
        )
        self.add_files([Path(name) for name in names])

    def _start_folder(self) -> str:
        folder = self.preferences.last_folder() if self.preferences is not None else None
        return str(folder) if folder is not None else ""

    def _ask_session_file(self) -> Path | None:
        start = self.session_path or Path(self._start_folder() or ".") / f"analysis{SESSION_SUFFIX}"
        return ask_session_file(self, start)

    def _ask_discard(self) -> bool:
        return ask_to_open_session(self)

    def _ask_role(self, path: Path, guess: Role) -> Role | None:
        return ask_role(self, path, guess)

    def _ask_folder(self) -> Path | None:
        return ask_folder(self, "Export the CSV reports into", self._start_folder())

    def _ask_overwrite(self, existing: list[Path]) -> bool:
        return ask_to_replace(self, existing)


def _action(parent: QWidget, text: str, shortcut: QKeySequence.StandardKey | str | None) -> QAction:
    """A menu action, with its shortcut in its tooltip so the toolbar teaches the keys."""
    action = QAction(text, parent)
    if shortcut is not None:
        action.setShortcut(QKeySequence(shortcut))
        keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
        action.setToolTip(f"{text.replace('&', '').rstrip('.')} ({keys})")
    return action


def _iter_open_session(path: Path) -> Generator[str, None, OpenedSession]:
    """Read a session and make its workspace, each file listed as being read (for a worker
    thread: a session may list thousands of files, on a slow drive)."""
    session = read_session(path, missing_ok=True)
    yield "read"
    roles = session.roles
    requests = [LoadRequest(p, roles.get(p)) for p in session.paths]
    workspace = session.workspace().with_entries(placeholder(r.path, r.role) for r in requests)
    return path, session, workspace, requests
