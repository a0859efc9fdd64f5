"""The test sets of a project: one tab of inputs each, the settings shared (a campaign). No Qt.

The window shows one test set at a time: its files are the controller's workspace
(:class:`~mtgui.app.loading.LoadedFiles`), read, checked, undone and analysed as they always
were. The others wait here as they were left (:class:`StoredSet`: their workspace, their own
undo history, their systems grouped as runs), or, opened from a session, as the files still to
read, which are read when their tab is first shown. :class:`TestSets` keeps them in the tabs'
order and says which is shown.

A set is named by the user, or else after its reference file (``newstest2023.ref.en`` names
it ``newstest2023.ref``), or else "Test set N".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from mtgui.app.undo import UndoHistory
from mtgui.engine.core import Role
from mtgui.io.entries import LoadRequest
from mtgui.io.workspace import Workspace


@dataclass
class StoredSet:
    """One test set: its name (``named``: given by the user, kept whatever is loaded), and,
    while another set is shown, its workspace, undo history, runs and files still to read."""

    name: str
    named: bool = False
    workspace: Workspace = field(default_factory=Workspace)
    history: UndoHistory = field(default_factory=UndoHistory)
    run_groups: dict[str, tuple[str, ...]] = field(default_factory=dict)
    pending: list[LoadRequest] = field(default_factory=list)

    def holds_files(self) -> bool:
        """Whether closing this set would let go of files the user loaded."""
        return bool(self.workspace.entries or self.pending)


def default_name(index: int) -> str:
    """The name of the ``index``-th set (from 0) before anything names it."""
    return f"Test set {index + 1}"


def reference_name(workspace: Workspace) -> str | None:
    """The name a set takes from its first reference file: the test set's own name where the
    file gives one (SGML's ``setid``, WMT XML's dataset id, such as ``newstest2021``), else the
    file's name without the suffix (a ``reference.sgm`` made every SGML set "reference")."""
    for entry in workspace.entries:
        streams = () if entry.loaded is None else entry.loaded.streams
        setid = next((s.metadata.get("setid") for s in streams if s.role is Role.REFERENCE), None)
        if setid:
            return setid
        if entry.role is Role.REFERENCE:
            return entry.path.stem or entry.path.name
    return None


class TestSets:
    """The project's test sets in the tabs' order, and the one shown (``current``).

    The shown set's workspace lives in the controller; its :class:`StoredSet` holds it only
    while another set is shown (:meth:`store` and :meth:`take`)."""

    __test__ = False  # not a pytest test class, whatever its name

    def __init__(self) -> None:
        self.sets: list[StoredSet] = [StoredSet(default_name(0))]
        self.current = 0

    def __len__(self) -> int:
        return len(self.sets)

    def names(self) -> list[str]:
        """Every set's name, in the tabs' order."""
        return [s.name for s in self.sets]

    def shown(self) -> StoredSet:
        """The set shown."""
        return self.sets[self.current]

    def reset(self, sets: Sequence[StoredSet] = ()) -> None:
        """One empty set (a new project), or ``sets`` (a session opened), the first shown."""
        self.sets = list(sets) or [StoredSet(default_name(0))]
        self.current = 0

    def add(self, name: str = "") -> int:
        """A new empty set after the others; its index (it is not shown yet)."""
        index = len(self.sets)
        self.sets.append(StoredSet(name or self.free_name(), named=bool(name)))
        return index

    def free_name(self) -> str:
        """A default name no set has."""
        taken = set(self.names())
        index = len(self.sets)
        while default_name(index) in taken:
            index += 1
        return default_name(index)

    def store(
        self, workspace: Workspace, history: UndoHistory, groups: dict[str, tuple[str, ...]]
    ) -> None:
        """Keep what the shown set holds now, before another is shown."""
        shown = self.shown()
        shown.workspace, shown.history, shown.run_groups = workspace, history, dict(groups)

    def take(self, index: int) -> StoredSet:
        """Show the set ``index``: its stored state, to put in the controller (the files
        still to read are handed over once)."""
        self.current = index
        return self.sets[index]

    def remove(self, index: int) -> StoredSet:
        """Drop the set ``index`` (never the last one left); the one shown after it is the
        one before, or the next."""
        if len(self.sets) == 1:
            raise ValueError("the last test set cannot be removed")
        removed = self.sets.pop(index)
        if index < self.current or self.current >= len(self.sets):
            self.current = max(self.current - 1, 0)
        return removed

    def insert(self, index: int, stored: StoredSet) -> None:
        """Put ``stored`` back at ``index`` (a close undone); the set shown stays shown."""
        self.sets.insert(index, stored)
        if index <= self.current:
            self.current += 1

    def rename(self, index: int, name: str) -> None:
        """Name the set ``index`` (an empty name gives it back its default)."""
        chosen = name.strip()
        self.sets[index].named = bool(chosen)
        self.sets[index].name = chosen or default_name(index)

    def follow_reference(self, workspace: Workspace) -> bool:
        """Name the shown set after its reference, unless the user named it; True if its name
        changed."""
        shown = self.shown()
        name = reference_name(workspace)
        if shown.named or name is None or name == shown.name:
            return False
        taken = {s.name for s in self.sets if s is not shown}
        candidate, number = name, 2
        while candidate in taken:
            candidate, number = f"{name} ({number})", number + 1
        shown.name = candidate
        return True
