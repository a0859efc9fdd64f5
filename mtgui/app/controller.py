"""The application controller: everything the window does, without a widget.

:class:`AppController` owns the files loaded (:class:`~mtgui.app.loading.LoadedFiles`: the
workspace and the load queue), the analysis (:class:`~mtgui.app.analysis.AnalysisController`)
and the studies (:class:`~mtgui.app.studies.StudyController`) with their worker threads,
sessions (:class:`~mtgui.app.sessions.SessionReader`) and the CSV export
(:class:`~mtgui.app.exports.ReportExport`). It talks to the views through Qt signals only: the
status line and the problem above the views (:attr:`AppController.status_changed`,
:attr:`AppController.problem_changed`) gather every part's messages; the views connect to the
parts' own signals for the rest. It reads the settings from a
:class:`~mtgui.app.window_interface.SettingsSource` (the window's
:class:`~mtgui.app.settings_model.SettingsModel`) and asks what only a dialog can ask through
:class:`~mtgui.app.window_interface.Questions`: it never imports a widget, and runs in tests
without a window.

Every flow goes through here: a drop is expanded and read, its files listed, then analysed; a
session is read off the GUI thread, and its files read in turn. Closing stops every worker,
waiting a bounded time (:meth:`AppController.shutdown`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from mtgui.app.analysis import AnalysisController
from mtgui.app.campaign import SetFiles
from mtgui.app.document_export import DocumentExport, PdfMaker
from mtgui.app.exports import ReportExport
from mtgui.app.loading import LoadedFiles
from mtgui.app.preferences import Preferences
from mtgui.app.projects import default_projects_folder, save_project, saved_text
from mtgui.app.runs import QUIT_WAIT_SECONDS
from mtgui.app.sessions import OpenedSession, SessionReader, set_workspace
from mtgui.app.studies import StudyController
from mtgui.app.test_sets import StoredSet, TestSets, default_name
from mtgui.app.undo import ChangeNote
from mtgui.app.window_interface import Questions, SettingsSource
from mtgui.engine.analysis import AnalysisResult
from mtgui.engine.core import InputError, Role
from mtgui.io.entries import LoadRequest
from mtgui.io.folders import expand_paths
from mtgui.io.project import extract_project, is_project_file
from mtgui.io.session import Session, is_session_file, session_from_workspace, write_session
from mtgui.io.window_words import window_message
from mtgui.io.workspace import SystemKey, Workspace, describe_loaded


class AppController(QObject):
    """The desktop application's state and work: files, analysis, studies, sessions, exports."""

    status_changed = Signal(str)  # a message for the status line
    problem_changed = Signal(str)  # the problem to show above the views ("": none)
    workspace_changed = Signal(object)  # the Workspace, for the files panel
    title_changed = Signal(str)  # what is loaded, as a window title
    session_opened = Signal(object)  # the Session opened: its settings and metric, for the views
    recovered = Signal(object)  # the recovery file whose work was just opened (Path)
    undo_changed = Signal(str, str)  # what Edit > Undo and Redo would do ("Remove a.en"; "": none)
    test_sets_changed = Signal()  # a test set added, removed, renamed or shown: read test_sets

    def __init__(
        self,
        settings: SettingsSource,
        questions: Questions,
        preferences: Preferences | None = None,
        parent: QObject | None = None,
        synchronous: bool = False,
    ) -> None:
        """``synchronous`` runs every worker's work in the caller's thread (tests, scripts);
        ``preferences`` remember recent files (without them nothing is remembered)."""
        super().__init__(parent)
        self.preferences = preferences
        self.projects_folder = default_projects_folder()  # where project files open
        self.session_path: Path | None = None
        self.run_groups: dict[str, tuple[str, ...]] = {}  # systems grouped as runs, by name
        self.project_path: Path | None = None  # the project file the session shown came from
        self.campaign_path: Path | None = None  # the campaign file the test sets came from
        self._project: tuple[Path, Path] | None = None  # (its session, the project) opening
        self._settings = settings
        self._questions = questions
        self._shut_down = False
        self.files = LoadedFiles(questions, self, synchronous)
        self.analysis = AnalysisController(self.files, settings, self, synchronous)
        self.studies = StudyController(self.analysis, settings, self, synchronous)
        self.sessions = SessionReader(self, synchronous)
        self.exports = ReportExport(questions, self, synchronous)
        self.documents = DocumentExport(self, synchronous)
        self._note = ChangeNote()
        self.test_sets = TestSets()  # the project's test sets, one tab of inputs each
        self._closed: tuple[int, StoredSet] | None = None  # the set just closed (Edit > Undo)
        self._recovering: tuple[Path, Path | None] | None = None  # recovery file, its session
        for part in (self.files, self.analysis, self.sessions, self.exports, self.documents):
            part.problem_changed.connect(self.problem_changed)
            if part is not self.analysis:
                part.status_changed.connect(self.status_changed)
        self.analysis.status_changed.connect(self._on_analysis_status_changed)
        self.analysis.run_started.connect(self._on_analysis_run_started)
        self.files.history.on_change = self._on_history_changed
        self.files.changed.connect(self.refresh)
        self.analysis.result_changed.connect(self._on_analysis_result_changed)
        self.sessions.opened.connect(self._on_sessions_opened)

    # -- what the views show -------------------------------------------------------------------

    @property
    def workspace(self) -> Workspace:
        """The files loaded (setting it changes nothing shown until :meth:`refresh`)."""
        return self.files.workspace

    @workspace.setter
    def workspace(self, workspace: Workspace) -> None:
        self.files.workspace = workspace  # in place of everything: nothing before to undo
        self.files.history.clear()

    @property
    def result(self) -> AnalysisResult | None:
        """The last analysis finished, which the views show."""
        return self.analysis.result

    @result.setter
    def result(self, result: AnalysisResult | None) -> None:
        self.analysis.result = result

    @property
    def analysing(self) -> bool:
        """Whether an analysis is under way."""
        return self.analysis.runs.running

    @property
    def studying(self) -> bool:
        """Whether a study is under way."""
        return self.studies.runs.running

    @property
    def loading(self) -> bool:
        """Whether files are waiting or being read (files that take long included)."""
        return self.files.loader.running

    def refresh(self, run: bool = True) -> None:
        """Show the files and the title; analyse again (``run``) or say the results are behind."""
        if self.test_sets.follow_reference(self.workspace):
            self.test_sets_changed.emit()
        self.workspace_changed.emit(self.workspace)
        self._update_title()
        if run:
            self.analysis.run()
        else:
            self.analysis.show_staleness()

    def _on_analysis_status_changed(self, message: str) -> None:
        self.status_changed.emit(self._note.said(message))

    def _on_analysis_run_started(self) -> None:
        self._note.start("")  # a later run than the change's: its messages are its own

    def _on_analysis_result_changed(self) -> None:
        self._note.end_soon()
        self._update_title()

    def _update_title(self) -> None:
        """'what is loaded — mtgui', e.g. '4 systems, 2 references, 500 segments — mtgui'."""
        segments = self.analysis.shown_segments()
        # a project by its own name; test sets opened from a campaign file by its name
        named = self.project_path or self.session_path or self.campaign_path
        self.title_changed.emit(describe_loaded(self.workspace, segments, named))

    # -- loading -------------------------------------------------------------------------------

    def add_files(self, paths: Sequence[Path], roles: dict[Path, Role] | None = None) -> None:
        """Read files (folders stand for the files in them) on a worker thread.

        Plain text without a given role is read as its name suggests, and the user confirms
        its role once it is read. Files given while others are being read wait their turn,
        unless one of those takes long: then they go on without it. Each file is listed at
        once, in the order given, and filled in when it is read. A session among them is
        opened, the other files read after its own. Folders are listed here, on the GUI
        thread: names only, 10 ms for a folder of 2,000 files on a local disk.
        """
        roles = roles or {}
        expansion = expand_paths(paths)  # what a folder holds, as `mtgui eval --hyp FOLDER`
        if expansion.messages():
            self.problem_changed.emit(" ".join(expansion.messages()))
        expanded = list(expansion.files)
        sessions = [path for path in expanded if is_session_file(path) or is_project_file(path)]
        requests = [LoadRequest(p, roles.get(p)) for p in expanded if p not in sessions]
        for path in [path for path in paths if os.path.isfile(path) and path not in sessions]:
            self._remember_recent(path)
        if sessions and is_project_file(sessions[0]):
            self.open_project(sessions[0], then=requests)
        elif sessions:
            self.open_session(sessions[0], then=requests)
        else:
            self._queue_loads(requests)

    def replace_file(self, old: Path, new: Path) -> None:
        """Read ``new`` as the next version of the loaded file ``old``, in its place and role
        (a scores file: with the metrics the user made of the old one)."""
        entry = next((e for e in self.workspace.entries if e.path == old), None)
        role = None if entry is None else entry.plain_role or entry.role
        sources = () if entry is None else entry.sources
        self._queue_loads([LoadRequest(new, role, replaces=old, sources=sources)])

    def new_project(self) -> None:
        """Start afresh: no files, no result, no session file (the window resets the
        settings); the files themselves are not touched."""
        self.analysis.runs.cancel()
        self.files.cancel()
        self.workspace = Workspace()
        self.session_path = self.project_path = self.campaign_path = None
        self.run_groups = {}
        self._forget_closed()
        self.test_sets.reset()
        self.test_sets_changed.emit()
        self.result = None
        self.refresh(run=False)
        self.status_changed.emit("New project: drop reference and system files to start.")

    def remove_file(self, path: Path) -> None:
        """Forget the file at ``path``, and analyse what is left (Edit > Undo brings it back)."""
        self.remove_files([path])

    def remove_files(self, paths: Sequence[Path]) -> None:
        """Forget the files at ``paths`` in one step that Edit > Undo takes back, and say so."""
        removed = self.files.remove(paths)
        if removed:
            names = ", ".join(path.name for path in removed[:3])
            more = ", ..." if len(removed) > 3 else ""
            what = names if len(removed) == 1 else f"{len(removed):,} files ({names}{more})"
            them = "it" if len(removed) == 1 else "them"
            self._tell(f"Removed {what}. Edit > Undo (Ctrl+Z) brings {them} back.")

    def rename_system(self, key: SystemKey, new: str) -> None:
        """Call system ``key`` ``new``, and analyse again."""
        self.files.rename_system(key, new)

    def hide_system(self, key: SystemKey, hidden: bool) -> None:
        """Leave system ``key`` out of the analysis (or not), and analyse again."""
        self.files.hide_system(key, hidden)

    def set_role(self, path: Path, role: Role) -> None:
        """Read the plain-text file at ``path`` as ``role``, and analyse again."""
        self.files.set_role(path, role)

    def set_encoding(self, path: Path, encoding: str) -> None:
        """Read the file at ``path`` again in ``encoding`` (one of
        :data:`~mtgui.io.decode.ENCODINGS`), and analyse again once it is read."""
        self.files.set_encoding(path, encoding)

    # -- undo ----------------------------------------------------------------------------------

    @property
    def can_undo(self) -> bool:
        """Whether Edit > Undo has a change to take back."""
        return self._closed is not None or self.files.history.can_undo

    @property
    def can_redo(self) -> bool:
        """Whether Edit > Redo has a change to make again."""
        return self.files.history.can_redo

    @property
    def undo_text(self) -> str:
        """The change Undo takes back ("Remove sysA.en"), or ""."""
        if self._closed is not None:
            return f"Close the test set {self._closed[1].name}"
        return self.files.history.undo_text

    @property
    def redo_text(self) -> str:
        """The change Redo makes again, or ""."""
        return self.files.history.redo_text

    def undo(self) -> None:
        """Put the files back as they were before the last change, and analyse them (or the
        test set just closed back in its place, shown)."""
        if self._closed is not None:
            self._reopen_test_set()
            return
        text = self.files.undo()
        if text is not None:
            self._tell(f"Undone: {text}.")

    def redo(self) -> None:
        """Make the last change undone again, and analyse."""
        text = self.files.redo()
        if text is not None:
            self._tell(f"Redone: {text}.")

    def _tell(self, text: str) -> None:
        """Say what a change did, and keep saying it while the run it started reports."""
        self.status_changed.emit(text)
        self._note.start(text if self.analysing else "")

    def _on_history_changed(self) -> None:
        self._closed = None  # a later change: Undo takes that back, no longer the close
        self.undo_changed.emit(self.undo_text, self.redo_text)

    def _queue_loads(self, requests: Sequence[LoadRequest]) -> None:
        """List new files as being read, and give them all to the loader."""
        if not requests:
            return
        self.files.queue(requests)
        self.analysis.show_staleness()

    # -- sessions ------------------------------------------------------------------------------

    def open_session(self, path: Path, then: Sequence[LoadRequest] = ()) -> None:
        """Open a saved session in place of what is loaded (asking first if anything is).

        The session is read, and its workspace made, on a worker thread; one read in a moment
        (:data:`~mtgui.app.sessions.SESSION_WAIT_MS`) is open when this returns. Files that
        have gone missing since are listed in the files panel with their problem, so the rest
        of the session still opens. ``then`` are files given with the session, read after its
        files.
        """
        if self.holds_files() and not self._questions.confirm_discard():
            return
        self.sessions.open(path, then)

    def open_project(self, path: Path, then: Sequence[LoadRequest] = ()) -> None:
        """Open a project file (``.mtgui``): extract it into its own folder under
        :attr:`projects_folder` (asking before replacing another project's), then open its
        session as :meth:`open_session` does. A refused archive says why, nothing written."""
        if self.holds_files() and not self._questions.confirm_discard():
            return
        try:
            opened = extract_project(
                path, self.projects_folder, self._questions.confirm_replace_project
            )
        except InputError as error:
            self.problem_changed.emit(window_message(error))
            return
        if opened is None:
            self.status_changed.emit(f"The project {path.name} was not opened.")
            return
        self._remember_recent(path)
        self._project = (opened, path)
        self.sessions.open(opened, list(then))

    def save_project_as(self, metric: str, report: str | None = None) -> bool:
        """Save everything (the files by content, the session, the report and the results)
        as one project file the user chooses; True if saved. ``report``: the report to put in
        (a campaign's, of several test sets; by default that of the result shown)."""
        path = self._questions.choose_project_file()
        if path is None:
            return False
        try:
            saved = save_project(path, self.session(metric), self.result, report)
        except InputError as error:
            self.problem_changed.emit(window_message(error))
            return False
        self._remember_recent(path)
        self.status_changed.emit(saved_text(saved))
        return True

    def recover(self, path: Path, session_path: Path | None, then: Sequence[Path] = ()) -> None:
        """Open the work kept in the recovery file ``path`` (after a crash, the user agreeing)
        as it was: its files, names and settings, its own session file ``session_path``;
        ``then`` are files given with it, read after its own."""
        self._recovering = (path, session_path)
        self.sessions.open(path, [LoadRequest(p) for p in then])

    def _on_sessions_opened(self, opened: OpenedSession, then: list[LoadRequest]) -> None:
        path, session, workspace, requests = opened
        recovering, self._recovering = self._recovering, None
        recovered = recovering is not None and recovering[0] == path
        self.analysis.runs.cancel()
        self.files.cancel()
        self.workspace = workspace
        self.run_groups = dict(session.run_groups)
        self.campaign_path = None
        self._forget_closed()
        self._restore_test_sets(session)
        self.session_path = recovering[1] if recovering is not None and recovered else path
        project, self._project = self._project, None
        self.project_path = project[1] if project is not None and project[0] == path else None
        self.session_opened.emit(session)  # the settings model takes its settings: a rerun
        if not recovered and self.project_path is None:  # the project itself is remembered
            self._remember_recent(path)
        self.refresh(run=False)
        self._queue_loads([*requests, *then])
        what = "the work kept from before" if recovered else f"the session {path.name}"
        self.status_changed.emit(f"Opened {what}: reading its {len(requests):,} files...")
        if recovered:
            self.recovered.emit(path)

    def save_session(self, metric: str) -> bool:
        """Save the session, ``metric`` shown, to its file (asking for one the first time);
        True if saved."""
        if self.session_path is None:
            return self.save_session_as(metric)
        return self._write_session(self.session_path, metric)

    def save_session_as(self, metric: str) -> bool:
        """Save the session, ``metric`` shown, to a file the user chooses; True if saved."""
        path = self._questions.choose_session_file()
        return path is not None and self._write_session(path, metric)

    def _write_session(self, path: Path, metric: str) -> bool:
        """Write the session on the GUI thread: saving answers at once whether it was saved,
        and the file is small (5 files take 6 ms to write, 8,000 files 0.17 s)."""
        try:
            write_session(path, self.session(metric))
        except InputError as error:
            self.problem_changed.emit(window_message(error))
            return False
        self.session_path = path
        self.project_path = None
        self._remember_recent(path)
        self._update_title()
        self.status_changed.emit(f"Saved the session as {path}.")
        return True

    def _remember_recent(self, path: Path) -> None:
        if self.preferences is not None:
            self.preferences.add_recent_file(path)
            self.preferences.set_last_folder(path)

    def session(self, metric: str | None) -> Session:
        """The session of now: every test set (the first one's at the top, as a session of one
        set is), the settings and ``metric`` shown."""
        settings = self._settings.settings().to_dict()
        parts = [
            session_from_workspace(workspace, settings, metric, groups)
            for workspace, groups in self._set_states()
        ]
        if len(parts) == 1:
            return parts[0]
        names = self.test_sets.names()
        others = tuple(
            replace(part, name=name) for part, name in zip(parts[1:], names[1:], strict=True)
        )
        return replace(parts[0], name=names[0], test_sets=others)

    def _set_states(self) -> list[tuple[Workspace, dict[str, tuple[str, ...]]]]:
        """Every test set's workspace and runs (files still to read listed as being read)."""
        states = []
        for index, stored in enumerate(self.test_sets.sets):
            if index == self.test_sets.current:
                states.append((self.workspace, dict(self.run_groups)))
            else:
                listed = stored.workspace.with_entries(r.placeholder() for r in stored.pending)
                states.append((listed, stored.run_groups))
        return states

    def _restore_test_sets(self, session: Session) -> None:
        """The session's test sets as tabs, the first shown; the others' files are read when
        their tab is first shown."""
        first = StoredSet(session.name or default_name(0), named=bool(session.name))
        sets = [first]
        for other in session.test_sets:
            stored = StoredSet(other.name, named=True, run_groups=dict(other.run_groups))
            stored.workspace, stored.pending = other.workspace(), set_workspace(other)[1]
            sets.append(stored)
        self.test_sets.reset(sets)
        self.test_sets_changed.emit()

    # -- test sets -----------------------------------------------------------------------------

    def open_test_sets(self, sets: Sequence[tuple[str, Sequence[LoadRequest]]], path: Path) -> None:
        """Start afresh with the test sets ``sets`` (name, files to read), one tab each, as a
        campaign file ``path`` gives them: the first set shown, its files read now, the others'
        when their tab is shown or the campaign runs. The window sets the settings."""
        self.analysis.runs.cancel()
        self.files.cancel()
        stored = [StoredSet(name, named=True, pending=list(files)) for name, files in sets]
        first, stored[0].pending = stored[0].pending, []
        self.workspace = Workspace()
        self.session_path = self.project_path = None
        self.campaign_path = path
        self.run_groups = {}
        self._forget_closed()
        self.test_sets.reset(stored)
        self.test_sets_changed.emit()
        self.result = None
        self.refresh(run=False)
        self._queue_loads(first)
        self._remember_recent(path)
        self.status_changed.emit(
            f"Opened the campaign {path.name}: {len(sets)} test sets, a tab each; reading the "
            "first set's files..."
        )

    def add_test_set(self, name: str = "") -> bool:
        """A new, empty test set after the others, shown; False if it cannot be shown now
        (files are being read: it is added all the same)."""
        self._forget_closed()
        index = self.test_sets.add(name)
        self.test_sets_changed.emit()
        return self.show_test_set(index)

    def show_test_set(self, index: int) -> bool:
        """Show the test set ``index`` (its files in the files panel, its analysis); False,
        with a word in the status line, while files are being read (they would land in the
        other set)."""
        if index == self.test_sets.current:
            return True
        if self.files.busy or self.sessions.runs.running:
            self.status_changed.emit(
                "Files are being read into this test set: choose another once they are."
            )
            return False
        self.test_sets.store(self.workspace, self.files.history, self.run_groups)
        shown = self.test_sets.take(index)
        self.files.workspace, self.files.history = shown.workspace, shown.history
        self.files.history.on_change = self._on_history_changed
        self.run_groups = dict(shown.run_groups)
        pending, shown.pending = shown.pending, []
        self.result = None  # the other set's result is no result of this one
        self._on_history_changed()
        self.test_sets_changed.emit()
        self.refresh(run=not pending)
        self._queue_loads(pending)
        if not self.workspace.entries:  # else the analysis or the loading says where it is
            self.status_changed.emit(
                f"{shown.name}: drop its reference and system files on the window, or open them."
            )
        return True

    def close_test_set(self, index: int) -> bool:
        """Drop the test set ``index`` and its files (the window asked first when it held
        any); never the last one. False if it could not be closed now."""
        sets = self.test_sets
        if len(sets) == 1:
            return False
        if index == sets.current and not self.show_test_set(index - 1 if index else 1):
            return False
        closed = sets.remove(index)
        self._closed = (index, closed)
        self.undo_changed.emit(self.undo_text, self.redo_text)
        self.test_sets_changed.emit()
        self._tell(f"Closed the test set {closed.name}. Edit > Undo (Ctrl+Z) brings it back.")
        return True

    def _reopen_test_set(self) -> None:
        """The test set just closed back in its place, with its files, and shown."""
        assert self._closed is not None
        (index, stored), self._closed = self._closed, None
        self.test_sets.insert(index, stored)
        self.undo_changed.emit(self.undo_text, self.redo_text)
        self.test_sets_changed.emit()
        self.show_test_set(index)
        self._tell(f"Undone: close the test set {stored.name}.")

    def _forget_closed(self) -> None:
        """The sets change otherwise: Undo no longer brings the set closed back (its place
        would be another's)."""
        if self._closed is not None:
            self._closed = None
            self.undo_changed.emit(self.undo_text, self.redo_text)

    def rename_test_set(self, index: int, name: str) -> None:
        """Name the test set ``index`` (empty: its default name)."""
        self._forget_closed()
        self.test_sets.rename(index, name)
        if index == self.test_sets.current:
            self.test_sets.follow_reference(self.workspace)
        self.test_sets_changed.emit()

    def holds_files(self) -> bool:
        """Whether any test set holds files (starting afresh would let them go)."""
        shown = self.test_sets.current
        others = [s for k, s in enumerate(self.test_sets.sets) if k != shown]
        return bool(self.workspace.entries) or any(s.holds_files() for s in others)

    def campaign_workspaces(self) -> list[SetFiles]:
        """Every test set: its name, its workspace, and the files still to read (a set of a
        session whose tab was never shown: the campaign reads them itself)."""
        found = []
        for index, stored in enumerate(self.test_sets.sets):
            shown = index == self.test_sets.current
            workspace = self.workspace if shown else stored.workspace
            found.append(SetFiles(stored.name, workspace, tuple(stored.pending)))
        return found

    # -- export and quitting -------------------------------------------------------------------

    def export(self) -> None:
        """Write the CSV reports into a folder the user chooses; ask before replacing files."""
        if self.result is None:
            return
        folder = self._questions.choose_folder()
        if folder is not None:
            self.exports.start(folder, self.result)

    def export_report(self, path: Path, make_pdf: PdfMaker | None = None) -> None:
        """Write the report to send (HTML; PDF through ``make_pdf``) to ``path``, which the
        user chose (and agreed to replace); never over a file the user loaded."""
        if self.result is None:
            return
        try:
            inputs = [entry.path for entry in self.workspace.entries]
            self.documents.start(path, self.result, inputs, make_pdf)
        except InputError as error:
            self.problem_changed.emit(window_message(error))

    def shutdown(self, seconds: float = QUIT_WAIT_SECONDS) -> bool:
        """Stop every worker (analysis, studies, session, export, files) and wait at most
        ``seconds`` in all; True if all stopped. Workers still busy then (a read that never
        returns) are let go: they end with the program and never hold up quitting."""
        if self._shut_down:
            return True
        self._shut_down = True
        self.analysis.stop()
        self.files.stop()
        runs = [self.analysis.runs, self.studies.runs, self.sessions.runs, *self.exports.runs]
        runs.append(self.documents.runs)
        for run in runs:
            run.abort_all()
        deadline = time.monotonic() + seconds
        return all([*(run.wait(deadline) for run in runs), self.files.wait(deadline)])
