"""Opening a session off the GUI thread: a session may list thousands of files, on a slow drive.

:class:`SessionReader` reads a session file, and makes the workspace it describes (every file
listed as being read), on a worker thread; one read within :data:`SESSION_WAIT_MS` is reported
before :meth:`SessionReader.open` returns, so a small session opens at once. Saving a session
writes a small JSON file and stays on the GUI thread (see
:meth:`mtgui.app.controller.AppController.save_session`).
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from functools import partial
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from mtgui.app.runs import RunController
from mtgui.engine.core import InputError
from mtgui.io.decode import AUTO
from mtgui.io.entries import LoadRequest
from mtgui.io.session import Session, is_session_file, read_session
from mtgui.io.workspace import Workspace

SESSION_WAIT_MS = 100
"""A session read within this time opens before :meth:`SessionReader.open` returns."""

OpenedSession = tuple[Path, Session, Workspace, list[LoadRequest]]
"""A session read: its file, itself, its workspace (files listed as being read), its files."""


class SessionReader(QObject):
    """Reads session files on a worker thread, and says what it read or why it could not."""

    opened = Signal(object, list)  # the OpenedSession, the LoadRequests given with it
    status_changed = Signal(str)  # a message for the status line
    problem_changed = Signal(str)  # why the session could not be opened

    def __init__(self, parent: QObject | None = None, synchronous: bool = False) -> None:
        super().__init__(parent)
        self.runs = RunController(self, synchronous)
        self._then: list[LoadRequest] = []  # files given with the session being opened
        self.runs.finished.connect(self._on_runs_finished)
        self.runs.failed.connect(self._on_runs_failed)

    def open(self, path: Path, then: Sequence[LoadRequest] = ()) -> None:
        """Read the session at ``path``; ``then`` are files given with it, read after its own."""
        self._then = list(then)
        self.status_changed.emit(f"Opening the session {path.name}...")
        self.runs.start(partial(iter_open_session, path))
        self.runs.settle(SESSION_WAIT_MS)

    def _on_runs_finished(self, opened: OpenedSession) -> None:
        then, self._then = self._then, []
        self.opened.emit(opened, then)

    def _on_runs_failed(self, message: str) -> None:
        self._then = []
        self.problem_changed.emit(message)
        self.status_changed.emit("The session could not be opened: see the message above.")


def iter_open_session(path: Path) -> Generator[str, None, OpenedSession]:
    """Read a session and make its workspace, each file listed as being read (for a worker
    thread: a session may list thousands of files, on a slow drive)."""
    session = read_session(path, missing_ok=True)
    yield "read"
    _refuse_sessions_listed(path, session)
    workspace, requests = set_workspace(session)
    return path, session, workspace, requests


def set_workspace(session: Session) -> tuple[Workspace, list[LoadRequest]]:
    """One test set of a session (the first, or one of its ``test_sets``): its workspace,
    each file listed as being read, and the requests that read them."""
    roles, columns, sources = session.roles, session.score_columns, session.score_sources
    encodings = session.encodings
    requests = [
        LoadRequest(
            p,
            roles.get(p),
            score_column=columns.get(p),
            sources=sources.get(p, ()),
            encoding=encodings.get(p, AUTO),
        )
        for p in session.paths
    ]
    workspace = session.workspace().with_entries(r.placeholder() for r in requests)
    return workspace, requests


def _refuse_sessions_listed(path: Path, session: Session) -> None:
    """Refuse a session that lists a session among its files (itself, or one that may list
    it back): mtgui never saves one, and read as a data file it would be taken for a scores
    file (the user was asked "Which scores?" of it).

    Raises
    ------
    InputError
        Naming the session file and the first session it lists.
    """
    listed = next((p for p in session.all_paths if is_session_file(p)), None)
    if listed is None:
        return
    what = "itself" if listed.resolve() == path.resolve() else f"the session {listed.name}"
    raise InputError(
        f"this session lists {what} among its files; a session lists data files only.",
        path=path,
        hint='Remove that entry from its "files", or open the sessions one at a time.',
    )
