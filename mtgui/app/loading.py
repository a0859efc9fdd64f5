"""The files the user gives: listed at once, read on worker threads, put in the workspace.

:class:`LoadedFiles` holds the :class:`~mtgui.io.workspace.Workspace` and the files being read
into it. A file given is listed at once, in the order given, as being read; its
:class:`~mtgui.app.file_loader.FileLoader` reads it on a worker thread; the files read are put
in their places together, every :data:`APPLY_DELAY_MS` (less often with thousands of files),
and then the workspace says it changed. Plain text read without a role waits for the user to
confirm what its name suggests (:attr:`~mtgui.app.window_interface.Questions.choose_roles`):
asked once for all the plain-text files of a drop, when every file given has been read, not
once per file (a 10-system drop of plain text asked 11 questions before). A scores file other
than a plain table of human scores waits, too, for the user to say what to load from it
(:attr:`~mtgui.app.window_interface.Questions.choose_scores`), and is read again so.

What the user changes (remove, rename, hide, a plain-text file's role, a file's encoding) goes
into
:attr:`LoadedFiles.history` (:mod:`mtgui.app.undo`), and what loading does is done to the
history's workspaces too, so that Edit > Undo takes back the user's change and never a file
read meanwhile.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Signal

from mtgui.app.file_loader import FileLoader
from mtgui.app.undo import Step, UndoHistory
from mtgui.app.window_interface import Questions
from mtgui.engine.core import InputError, Role
from mtgui.io.entries import Entry, LoadRequest
from mtgui.io.score_choices import ScoredSystem, external_metrics, scores_question
from mtgui.io.window_words import read_as, window_message
from mtgui.io.workspace import SystemKey, Workspace

Decision = tuple[LoadRequest, Entry | None]
"""A file read and what becomes of it: its entry to list, or None to leave it out."""

APPLY_DELAY_MS = 100
"""Files read within this time are listed together."""

_MANY_FILES = 1000  # beyond this many files, list what was read five times less often


class LoadedFiles(QObject):
    """The workspace, and the files being read into it."""

    changed = Signal(bool)  # the workspace changed; True: analyse it again
    status_changed = Signal(str)  # a message for the status line
    problem_changed = Signal(str)  # a problem to show above the views
    stalled = Signal(object, float)  # the Path of a file that takes long, the seconds so far

    def __init__(
        self, questions: Questions, parent: QObject | None = None, synchronous: bool = False
    ) -> None:
        super().__init__(parent)
        self.workspace = Workspace()
        self.history = UndoHistory()
        self.loader = FileLoader(self, synchronous)
        self._questions = questions
        self._arrived: list[tuple[LoadRequest, Entry]] = []  # read, not yet listed
        self._held: list[tuple[LoadRequest, Entry]] = []  # read, their role asked when all are
        self._applying = False
        self._apply = QTimer(self, singleShot=True, interval=APPLY_DELAY_MS)
        self._apply.timeout.connect(self._apply_arrived)
        self.loader.entry_read.connect(self._on_loader_entry_read)
        self.loader.progress_changed.connect(self._on_loader_progress_changed)
        self.loader.stalled.connect(self._on_loader_stalled)
        self.loader.idle.connect(self._on_loader_idle)

    @property
    def busy(self) -> bool:
        """Whether files are waiting or being read (files that take long left out)."""
        return self.loader.busy

    def queue(self, requests: Sequence[LoadRequest]) -> None:
        """List new files as being read, and give them all to the loader."""
        listed = {e.path for e in self.workspace.entries}
        waiting = [r.placeholder() for r in requests if r.replaces is None and r.path not in listed]
        if waiting:
            self._load(lambda workspace: workspace.with_entries(waiting))
            self.changed.emit(False)
        self.loader.add(requests)
        if self.loader.running:
            self.status_changed.emit(f"Reading {len(requests):,} files...")

    def remove(self, paths: Sequence[Path]) -> list[Path]:
        """Forget the files at ``paths`` (those still being read stay out), in one undo step;
        the files listed that were removed."""
        listed = {e.path for e in self.workspace.entries}
        removed = [path for path in dict.fromkeys(paths) if path in listed]
        workspace = self.workspace
        for path in dict.fromkeys(paths):
            self.loader.forget(path)
            workspace = workspace.without(path)
        if removed:
            many = f"{len(removed):,} files"
            self._change(f"Remove {removed[0].name if len(removed) == 1 else many}", workspace)
        return removed

    def rename_system(self, key: SystemKey, new: str) -> None:
        """Call system ``key`` ``new``."""
        old = self.workspace.system_names().get(key)
        try:
            workspace = self.workspace.renamed_system(key, new)
        except InputError as error:  # the files panel asks for a free name: not seen
            self.problem_changed.emit(window_message(error))
            return
        if old != new.strip():
            self._change(f"Rename {old} to {new.strip()}", workspace)

    def hide_system(self, key: SystemKey, hidden: bool) -> None:
        """Leave system ``key`` out of the analysis (or not)."""
        name = self.workspace.system_names().get(key)
        if name is not None and (key in self.workspace.hidden_systems) != hidden:
            workspace = self.workspace.with_system_hidden(key, hidden)
            self._change(f"{'Hide' if hidden else 'Show'} {name}", workspace)

    def set_role(self, path: Path, role: Role) -> None:
        """Read the plain-text file at ``path`` as ``role`` (it need not be read again)."""
        entry = next((e for e in self.workspace.entries if e.path == path), None)
        if entry is None or entry.plain_role is None or entry.plain_role is role:
            return
        workspace = self.workspace.with_entry(entry.with_role(role))
        self._change(f"Read {path.name} as {role.label}", workspace)

    def set_encoding(self, path: Path, encoding: str) -> None:
        """Read the file at ``path`` again in ``encoding``, in its place and role, in one undo
        step: the file is listed as being read meanwhile, and the history's workspaces that
        list it so get what is read (those that list it read otherwise keep it so)."""
        entry = next((e for e in self.workspace.entries if e.path == path), None)
        if entry is None or entry.reading or entry.encoding == encoding:
            return
        request = LoadRequest(path, entry.role, sources=entry.sources, encoding=encoding)
        waiting = replace(request.placeholder(), sources=entry.sources)  # kept by undo, redo
        workspace = self.workspace.with_entry(waiting)
        self._change(f"{read_as(encoding)}: {path.name}", workspace)
        self.loader.add([request])

    def undo(self) -> str | None:
        """Put back the workspace before the last change; what was undone, or None."""
        change = self.history.undo(self.workspace)
        if change is None:
            return None
        self._restore(change.before)
        return change.text

    def redo(self) -> str | None:
        """Make the last change undone again; what was redone, or None."""
        change = self.history.redo(self.workspace)
        if change is None:
            return None
        self._restore(change.after)
        return change.text

    def _change(self, text: str, workspace: Workspace) -> None:
        """The user changed the workspace: keep it in the history, and analyse again."""
        before, self.workspace = self.workspace, workspace
        self.history.record(text, before, workspace)
        self.changed.emit(True)

    def _restore(self, workspace: Workspace) -> None:
        """Show ``workspace`` again (undo, redo); the files it holds a place for are read again
        (a file removed while it was read was forgotten by the loader), those it does not
        hold are forgotten."""
        now = {e.path for e in self.workspace.entries if e.reading}
        then = {e.path: e for e in workspace.entries if e.reading}
        for path in now - then.keys():
            self.loader.forget(path)
        self.workspace = workspace
        self.loader.add(
            [
                LoadRequest(p, e.role, sources=e.sources, encoding=e.encoding)
                for p, e in then.items()
                if p not in now
            ]
        )
        self.changed.emit(True)

    def _load(self, step: Step) -> None:
        """Loading changes the workspace by ``step``: the history's workspaces change alike."""
        before, self.workspace = self.workspace, step(self.workspace)
        self.history.rebase(step, before, self.workspace)

    def cancel(self) -> None:
        """Forget every file waiting, being read, or read and not yet listed."""
        self.loader.cancel()
        self._arrived, self._held = [], []

    def stop(self) -> None:
        """Stop reading for good (the application closes)."""
        self._apply.stop()
        self.loader.cancel()

    def wait(self, deadline: float) -> bool:
        """Wait for the reading threads until ``deadline``; True if all ended."""
        return self.loader.wait(deadline)

    def _on_loader_entry_read(self, request: LoadRequest, entry: Entry) -> None:
        self._arrived.append((request, entry))
        if not self._apply.isActive():  # thousands of files: list them less often
            many = len(self.workspace.entries) > _MANY_FILES
            self._apply.start(APPLY_DELAY_MS * (5 if many else 1))

    def _on_loader_progress_changed(self, done: int, total: int, path: Path) -> None:
        self.status_changed.emit(f"Reading files: {done:,} of {total:,} ({path.name})")

    def _on_loader_stalled(self, path: Path, seconds: float) -> None:
        self.stalled.emit(path, seconds)
        self.status_changed.emit(
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
            while self._arrived or (self._held and not self.loader.busy):
                arrived, self._arrived = self._arrived, []
                self._load(partial(with_read, self._decide(arrived)))
        finally:
            self._applying = False
        self.changed.emit(True)

    def _decide(self, arrived: list[tuple[LoadRequest, Entry]]) -> list[Decision]:
        """What becomes of each file read: its entry, with the role the user gives it, or
        None (a plain-text file whose role the user would not give is left out, as is a scores
        file the user would not say what to load from).

        The user is asked only about files still listed (or replacing one). A file removed
        while it was read is kept too, for the undo history's workspaces that still list it,
        unless something would have to be asked (undoing the removal reads it again). Scores
        files are asked about last, so that the systems read with them are offered.
        """
        listed = {e.path for e in self.workspace.entries}
        arrived = self._hold_or_release(arrived)
        kept = [request.replaces is not None or request.path in listed for request, _ in arrived]
        roles = self._roles_of(
            [e for (_, e), k in zip(arrived, kept, strict=True) if k and e.asks_role]
        )
        decided: list[Decision] = []
        offered: list[tuple[LoadRequest, Entry]] = []
        for (request, entry), still_listed in zip(arrived, kept, strict=True):
            if not still_listed:
                if not entry.asks:
                    decided.append((request, entry))
            elif entry.asks_role:
                role = roles.get(entry.path)
                decided.append((request, None if role is None else entry.with_role(role)))
            elif entry.offer is not None:
                offered.append((request, entry))
            else:
                decided.append((request, entry))
        for request, entry in offered:
            decided += self._ask_scores(request, entry, decided)
        return decided

    def _ask_scores(
        self, request: LoadRequest, entry: Entry, decided: list[Decision]
    ) -> list[Decision]:
        """Ask what to load from a scores file, and read it again so (its place stays listed
        as being read meanwhile), or as a translation if the user says it is one; left out if
        the user cancels."""
        assert entry.offer is not None
        workspace = with_read(decided, self.workspace)
        others = [e for e in workspace.entries if e.path != entry.path]
        loaded = {name: m.higher_is_better for name, m in external_metrics(others).items()}
        systems = [ScoredSystem(*system) for system in workspace.scored_systems()]
        sources = self._questions.choose_scores(scores_question(entry.offer, systems, loaded))
        if sources is None:
            return [(request, None)]
        if isinstance(sources, Role):  # numbers alone, but a translation all the same
            again = LoadRequest(entry.path, sources, request.replaces, encoding=entry.encoding)
            self.loader.add([again])
            return []
        again = LoadRequest(
            entry.path,
            Role.SCORES,
            request.replaces,
            sources=tuple(sources),
            encoding=entry.encoding,
        )
        self.loader.add([again])
        return []

    def _hold_or_release(
        self, arrived: list[tuple[LoadRequest, Entry]]
    ) -> list[tuple[LoadRequest, Entry]]:
        """While files are still being read, keep back those that must be asked about (so
        that roles are asked once for all, and a scores file is offered the systems read
        with it); when none is left to read, give them all back."""
        if self.loader.busy:
            self._held += [(r, e) for r, e in arrived if e.asks]
            return [(r, e) for r, e in arrived if not e.asks]
        released, self._held = [*self._held, *arrived], []
        return released

    def _roles_of(self, entries: list[Entry]) -> dict[Path, Role]:
        """The roles the user gives these plain-text files, in one question; {} if cancelled."""
        if not entries:
            return {}
        guesses = [(e.path, e.plain_role or Role.SYSTEM) for e in entries]
        return self._questions.choose_roles(guesses) or {}


def with_read(decided: Sequence[Decision], workspace: Workspace) -> Workspace:
    """``workspace`` with the files read in their places (a file removed meanwhile stays out;
    one decided None is left out). A file read in an encoding other than the one its place
    holds stays out too: read again in another encoding, it changes the workspaces that list
    it being read so, and not those, before the change or after an undo, that list it read
    otherwise. Pure: the undo history's workspaces are stepped by it too.
    """
    listed = {e.path: e for e in workspace.entries}
    fresh: list[Entry] = []
    for request, entry in decided:
        if request.replaces is None and request.path not in listed:
            continue  # removed while it was read
        if request.replaces is None and listed[request.path].encoding != request.encoding:
            continue  # read in an encoding other than the one asked for there
        if entry is None:
            before = listed.get(request.path)
            if before is not None and before.reading:
                workspace = workspace.with_entries(fresh).without(request.path)
                fresh = []
        elif request.replaces is not None:
            workspace = workspace.with_entries(fresh).replaced(request.replaces, entry)
            fresh = []
        else:
            fresh.append(entry)
    return workspace.with_entries(fresh)
