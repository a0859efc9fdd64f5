"""Edit > Undo and Redo for what the user changes in the files panel. No Qt.

Each change (remove files, rename a system, hide or show one, read a plain-text file as
another role) is kept as the workspace before and after it, with a description ("Remove
sysA.en", "Rename X to Y"). A :class:`~mtgui.io.workspace.Workspace` is a value that holds what
was read, so undoing puts back exactly what there was (the order of the files, the names, the
hidden systems, the roles) without reading a file again.

Files go on being read while the user changes things. A file that arrives must not be lost by
an undo (the workspace before the change did not have it yet), nor come back by a redo: so
whatever loading does to the workspace (a place held for a file, a file read into it, a new
version in an old one's place) is done, by the same pure function, to every workspace the
history keeps (:meth:`UndoHistory.rebase`). Undo then takes back the user's change only.

Opening a session and File > New replace the workspace as a whole: they clear the history, as
any workspace the history did not see would (:meth:`UndoHistory.undo` checks).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from mtgui.io.workspace import Workspace

UNDO_LIMIT = 100
"""Changes kept. Workspaces share their entries, so each costs little beyond what it removed."""

Step = Callable[[Workspace], Workspace]
"""What loading does to a workspace, as a pure function of it."""


@dataclass(frozen=True)
class Change:
    """One change the user made: its description, and the workspaces before and after it."""

    text: str
    before: Workspace
    after: Workspace


class UndoHistory:
    """The changes that can be undone, and those undone that can be redone.

    ``on_change`` is called whenever what Undo or Redo would do changes (the Edit menu's
    texts). Workspaces are compared by identity: they are values, and comparing two by value
    would compare every segment read.
    """

    def __init__(
        self, limit: int = UNDO_LIMIT, on_change: Callable[[], None] | None = None
    ) -> None:
        self.limit = limit
        self.on_change = on_change
        self._undo: list[Change] = []
        self._redo: list[Change] = []

    @property
    def can_undo(self) -> bool:
        """Whether there is a change to undo."""
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        """Whether there is a change undone to redo."""
        return bool(self._redo)

    @property
    def undo_text(self) -> str:
        """What Undo would undo ("Remove sysA.en"), or "" if nothing."""
        return self._undo[-1].text if self._undo else ""

    @property
    def redo_text(self) -> str:
        """What Redo would redo, or "" if nothing."""
        return self._redo[-1].text if self._redo else ""

    def record(self, text: str, before: Workspace, after: Workspace) -> None:
        """Keep a change made by the user; the changes undone can no longer be redone."""
        if after is before:
            return
        if not self._follows(before):  # the history missed a change: it cannot undo across it
            self._undo = []
        self._undo.append(Change(text, before, after))
        del self._undo[: -self.limit]
        self._redo = []
        self._changed()

    def undo(self, current: Workspace) -> Change | None:
        """The change to undo (its ``before`` is the workspace to restore), or None.

        If ``current`` is not the workspace the last change made, something the history did
        not see changed it: undoing would lose that, so the history is cleared instead.
        """
        if not self._follows(current):
            self.clear()
            return None
        if not self._undo:
            return None
        change = self._undo.pop()
        self._redo.append(change)
        self._changed()
        return change

    def redo(self, current: Workspace) -> Change | None:
        """The change to redo (its ``after`` is the workspace to restore), or None."""
        if not self._follows(current):
            self.clear()
            return None
        if not self._redo:
            return None
        change = self._redo.pop()
        self._undo.append(change)
        self._changed()
        return change

    def rebase(self, step: Step, before: Workspace, after: Workspace) -> None:
        """Loading took the workspace from ``before`` to ``after`` by ``step``: do the same to
        every workspace kept, so that undo and redo keep what loading did.

        Each workspace is stepped once (a change's ``after`` is the next one's ``before``),
        and ``before`` becomes ``after`` itself, so the history still follows the workspace.
        """
        if not self._undo and not self._redo:
            return
        if not self._follows(before):
            self.clear()
            return
        done: dict[int, tuple[Workspace, Workspace]] = {id(before): (before, after)}

        def stepped(workspace: Workspace) -> Workspace:
            # The original is kept with its result: its id is not reused while this runs.
            if id(workspace) not in done:
                done[id(workspace)] = (workspace, step(workspace))
            return done[id(workspace)][1]

        self._undo = [Change(c.text, stepped(c.before), stepped(c.after)) for c in self._undo]
        self._redo = [Change(c.text, stepped(c.before), stepped(c.after)) for c in self._redo]

    def clear(self) -> None:
        """Forget every change (a session opened, File > New)."""
        if self._undo or self._redo:
            self._undo, self._redo = [], []
            self._changed()

    def _follows(self, current: Workspace) -> bool:
        """Whether ``current`` is the workspace the history left (or the history is empty)."""
        if self._undo and self._undo[-1].after is not current:
            return False
        return not (self._redo and self._redo[-1].before is not current)

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()


class ChangeNote:
    """What the status line says of a change ("Removed sysA.en. Edit > Undo (Ctrl+Z) brings
    it back."), kept in front of the messages of the analysis the change started, up to the
    one that says it is done: said once, it would be gone as soon as the run reports."""

    def __init__(self) -> None:
        self.text = ""
        self._ending = False

    def start(self, text: str) -> None:
        """Say ``text`` before the messages of the run under way."""
        self.text, self._ending = text, False

    def end_soon(self) -> None:
        """The run has ended: its next message (the last) still says the note."""
        self._ending = bool(self.text)

    def said(self, message: str) -> str:
        """``message`` with the note in front of it, if one is kept."""
        if not self.text:
            return message
        noted = f"{self.text} {message}"
        if self._ending:
            self.text, self._ending = "", False
        return noted
