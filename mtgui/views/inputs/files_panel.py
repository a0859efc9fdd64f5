"""The files panel: what is loaded, what each file holds, and what went wrong with it.

One row per file, with its systems or references as children: counts of segments and
documents, format and encoding. A file that could not be read shows its message in plain words
where it is listed; a file being read says so. The context menu renames a system (never to a
name another system has), hides it from the analysis, reads a plain-text file as another role,
reads a file in another encoding, or removes a file (all the files selected, in one step:
Edit > Undo takes each of these back, so none of them asks first). A file that does not decode
as UTF-8 offers, under its reason, a button that reads it as Latin-1. Systems are told
apart by their identity (file and position), not their name. Dropping one file on a listed
file replaces it with the new version (same place, same role); dropping elsewhere on the panel
adds files, as on the rest of the window.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QPalette,
    QResizeEvent,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QInputDialog,
    QMenu,
    QStyle,
    QTreeWidget,
    QTreeWidgetItem,
    QWidget,
)

from mtgui.engine.core import Role
from mtgui.io.decode import AUTO
from mtgui.io.entries import Entry
from mtgui.io.streams import LoadedFile
from mtgui.io.window_words import ENCODING_NAMES
from mtgui.io.workspace import SystemKey, Workspace
from mtgui.views.common.dialogs import ask_system_name, tell_rename_problem
from mtgui.views.common.palette import problem_color
from mtgui.views.inputs.file_problem import (
    encodings_item,
    place_encoding_buttons,
    problem_item,
    rewrap_problems,
)

PATH_ROLE = Qt.ItemDataRole.UserRole + 1
SYSTEM_ROLE = Qt.ItemDataRole.UserRole + 2  # the system's name
SYSTEM_KEY_ROLE = Qt.ItemDataRole.UserRole + 3  # the system's identity (file, position)
_READING = QBrush(QColor("#5F6368"))
FILE_WIDTH = 150  # the least width of the file's column while the others can give up some
FILE_SHARE = 0.5  # up to this share of the panel, the file's column is as wide as its names
# Documents and Segments give up their headers' width first (Docs, Segs: their numbers stay
# whole), then Format and Holds, whose words a narrow panel (150%) cut to "syste...utput".
LEAST_WIDTHS = {3: 50, 2: 50, 4: 60, 1: 70}  # Documents, Segments, Format, Holds: in this order
FOR_NAMES = (3, 2, 4)  # Documents, Segments, then Format give way to the files' whole names
# Each column's header when the column is narrower than its whole name (the tooltip says it).
SHORT_LABELS = {"Holds": "Holds", "Segments": "Segs", "Documents": "Docs", "Format": "Fmt"}
_FEW_ROWS = 200  # up to this many rows (or an eighth) are changed in place, more made afresh


COLUMN_TIPS = {
    "File": "The file, and under it what it holds; right-click for what you can do with it.",
    "Holds": "What the file is: the source, references, system outputs or per-segment scores.",
    "Segments": "How many segments the file holds (every file must cover the same ones).",
    "Documents": "How many documents the segments belong to (plain text has none).",
    "Format": "How the file was read: SGML, WMT XML, plain text or a scores table, and its "
    "encoding.",
}


class FilesPanel(QTreeWidget):
    """A tree of the loaded files and the streams in them."""

    remove_requested = Signal(list)  # the Paths of the files to remove, in one step
    role_requested = Signal(Path, object)  # a plain-text file, the Role to read it as
    encoding_requested = Signal(Path, str)  # a file, the encoding to read it in again
    rename_requested = Signal(object, str)  # the system's SystemKey, its new name
    hide_requested = Signal(object, bool)  # the system's SystemKey, hidden or not
    replace_requested = Signal(Path, Path)  # the listed file, its new version
    files_dropped = Signal(list)  # paths dropped on the panel but not on a file
    runs_requested = Signal(str, list)  # a system's name, the names of its runs

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setHeaderLabels(list(COLUMN_TIPS))
        for column, tip in enumerate(COLUMN_TIPS.values()):
            self.headerItem().setToolTip(column, tip)
        self.setRootIsDecorated(True)
        # The file's name takes the width the other columns leave, elided in the middle
        # (a long path keeps its start and its name): Holds, Segments and Format stay in view.
        self.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        header = self.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setMinimumSectionSize(40)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.customContextMenuRequested.connect(self._on_menu_requested)
        self.setAcceptDrops(True)
        self.ask_name: Callable[[str], str | None] = self._ask_name
        self.tell_problem: Callable[[str], None] = self._tell_problem
        self.ask_runs_name: Callable[[list[str]], str | None] = self._ask_runs_name
        self.workspace = Workspace()
        self._renaming: SystemKey | None = None
        self._slow: dict[Path, float] = {}  # files that take long to read: seconds so far
        self._names: dict[SystemKey, str] = {}  # the system names listed
        self._natural: list[int] = []  # each column's width for its contents
        self.setToolTip(
            "Drop reference and system files here (or anywhere on the window); drop a file "
            "on a listed file to replace it with a new version."
        )

    def show_workspace(self, workspace: Workspace) -> None:
        """List the workspace's files.

        When the same files are listed in the same order (files read in the place held for
        them), only the rows that changed are made again: thousands of files stay quick.
        """
        previous, self.workspace = self.workspace, workspace
        names, previous_names = workspace.system_names(), self._names
        self._names = names
        self._slow = {p: s for p, s in self._slow.items() if _is_reading(workspace, p)}
        changed = self._changed_rows(previous, previous_names, workspace, names)
        if changed is not None and len(changed) <= max(_FEW_ROWS, len(workspace.entries) // 8):
            rows = []
            for index in changed:
                row = self.topLevelItem(index)
                assert row is not None
                _refill(row, self._file_item(workspace.entries[index], workspace, names))
                rows.append(row)
            for row in rows:  # after all changes: each of these lays out the whole tree
                row.setExpanded(True)
                self._finish_problem(row)
        else:  # a row changed in the tree costs several made afresh
            self._remove_all()
            items = [self._file_item(entry, workspace, names) for entry in workspace.entries]
            self.addTopLevelItems(items)
            self.expandAll()
            for item in items:
                self._finish_problem(item)
        self.setHeaderLabels(list(COLUMN_TIPS))  # the natural widths hold the whole names
        for column in range(1, self.columnCount()):  # the file's column takes the rest
            self.resizeColumnToContents(column)
        self._natural = [self.header().sectionSize(c) for c in range(self.columnCount())]
        self._natural[0] = self.sizeHintForColumn(0)  # the names' width, indented as shown
        self._fit_columns()
        rewrap_problems(self)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        """Keep the file's names readable as the panel narrows (:meth:`_fit_columns`), and wrap
        the reasons files could not be read to the new width."""
        super().resizeEvent(event)
        self._fit_columns()
        rewrap_problems(self)

    def _fit_columns(self) -> None:
        """The file's column gets the width the others leave, and at least :data:`FILE_WIDTH`
        while they can give some up: Documents and Segments first, then Format and Holds, each
        down to its least width in :data:`LEAST_WIDTHS` (elided), before the panel scrolls
        sideways. For the files' whole names, up to :data:`FILE_SHARE` of the panel, Documents
        and Segments give up width too, then Format (:data:`FOR_NAMES`; Holds keeps its words):
        a panel of 1280 x 800 at 100% cut "system output Lumen" while "Documents" had room to
        spare. Each column is otherwise at its contents' width."""
        if len(self._natural) != self.columnCount():
            return
        widths, shown = list(self._natural), self.viewport().width()
        _give(widths, FILE_WIDTH - (shown - sum(widths[1:])), tuple(LEAST_WIDTHS))
        names = min(widths[0], round(FILE_SHARE * shown))
        _give(widths, names - (shown - sum(widths[1:])), FOR_NAMES)
        for column in range(1, len(widths)):
            self.header().resizeSection(column, widths[column])
        self._label_columns()

    def _label_columns(self) -> None:
        """Name each column in full when its name fits its width, else in short (Segs, Docs,
        Fmt): a narrow panel (1280 x 800 at 150%) cut "Segments" to "Segment"."""
        header, item = self.header(), self.headerItem()
        room = 2 * header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin) + 4
        metrics = header.fontMetrics()
        for column, name in enumerate(COLUMN_TIPS):
            if column == 0:
                continue
            fits = metrics.horizontalAdvance(name) + room <= header.sectionSize(column)
            label = name if fits else SHORT_LABELS[name]
            if item.text(column) != label:
                item.setText(column, label)

    def _changed_rows(
        self,
        previous: Workspace,
        previous_names: dict[SystemKey, str],
        workspace: Workspace,
        names: dict[SystemKey, str],
    ) -> list[int] | None:
        """The rows to show anew, if the rows listed are those of ``workspace``'s files in
        its order (None if not)."""
        if not len(previous.entries) == len(workspace.entries) == self.topLevelItemCount():
            return None
        pairs = list(zip(previous.entries, workspace.entries, strict=True))
        if any(a.path != b.path for a, b in pairs):
            return None
        before, now = (previous, previous_names), (workspace, names)
        return [
            index
            for index, (a, b) in enumerate(pairs)
            if a is not b or _systems_changed(b, before, now)
        ]

    def _remove_all(self) -> None:
        """Remove every item at once: ``clear()`` takes seconds with thousands of items."""
        holder = QTreeWidgetItem()  # Python's: deleted, with the items, when this returns
        holder.addChildren(self.invisibleRootItem().takeChildren())

    def _file_item(
        self, entry: Entry, workspace: Workspace, names: dict[SystemKey, str]
    ) -> QTreeWidgetItem:
        """The row of one file, with what it holds (or its problem) under it."""
        item = QTreeWidgetItem([entry.path.name])
        item.setData(0, PATH_ROLE, entry.path)
        item.setToolTip(0, str(entry.path))
        if entry.reading:
            self._show_reading(item, entry)
        elif entry.problem:
            item.setText(1, "could not be read")
            item.setForeground(1, QBrush(problem_color(self.palette())))
            item.addChild(problem_item(self, entry.path, entry.problem))
            if entry.encoding != AUTO:  # the encoding it was read in, as for a file read
                item.setText(4, ENCODING_NAMES.get(entry.encoding, entry.encoding).split(" (")[0])
            if entry.encodings:
                item.addChild(encodings_item(entry.encodings))
        elif entry.scores is not None:
            metrics = ", ".join(dict.fromkeys(t.metric for t in entry.score_tables))
            systems = len(entry.scores.systems)
            item.setText(1, f"{metrics}: scores of {systems} system" + "s"[: systems != 1])
            item.setText(4, f"{entry.scores.origin.format}, {entry.scores.origin.encoding}")
        elif entry.loaded is not None:
            self._add_streams(item, entry.path, entry.loaded, workspace, names)
        return item

    def _finish_problem(self, row: QTreeWidgetItem) -> None:
        """Let a file's reason span its row, and put its "Read as" buttons under it."""
        _span_problem(row)
        if row.text(1) == "could not be read" and row.childCount() > 1:
            path = Path(row.data(0, PATH_ROLE))
            place_encoding_buttons(self, row, path, self.encoding_requested.emit)

    def show_slow(self, path: Path, seconds: float) -> None:
        """Say that ``path`` has been read for ``seconds`` and that the others go on."""
        self._slow[path] = seconds
        for item in map(self.topLevelItem, range(self.topLevelItemCount())):
            if item is not None and item.data(0, PATH_ROLE) == path:
                entry = next((e for e in self.workspace.entries if e.path == path), None)
                if entry is not None and entry.reading:
                    self._show_reading(item, entry)

    def _show_reading(self, item: QTreeWidgetItem, entry: Entry) -> None:
        seconds = self._slow.get(entry.path)
        item.setForeground(1, _READING)
        if seconds is None:
            item.setText(1, "reading...")
            item.setToolTip(1, "The file is being read.")
            return
        item.setText(1, "still reading...")
        item.setToolTip(
            1,
            f"mtgui has been reading this file for over {seconds:.0f} s; the other files go on "
            "without it. A pipe or a drive that does not answer may never arrive: right-click "
            "it and remove it.",
        )

    def _add_streams(
        self,
        item: QTreeWidgetItem,
        path: Path,
        loaded: LoadedFile,
        workspace: Workspace,
        names: dict[tuple[Path, int], str],
    ) -> None:
        """One child per stream; systems carry the name the analysis knows them by."""
        item.setText(4, f"{loaded.origin.format}, {loaded.origin.encoding}")
        roles = sorted({s.role.label for s in loaded.streams})
        item.setText(1, ", ".join(roles))
        for number, stream in enumerate(loaded.streams):
            name = (
                names.get((path, number))
                or stream.name
                or (loaded.origin.file_name if stream.role is not Role.SOURCE else "")
            )
            label = f"{stream.role.label} {name}".strip()
            documents = len(set(stream.doc_ids)) if stream.doc_ids else "-"
            child = QTreeWidgetItem([label, "", str(stream.size), str(documents)])
            if stream.role is Role.SYSTEM:
                child.setData(0, SYSTEM_ROLE, name)
                child.setData(0, SYSTEM_KEY_ROLE, (path, number))
                if (path, number) in workspace.hidden_systems:
                    child.setText(1, "hidden")
                    self._look_hidden(child)
            item.addChild(child)

    def _look_hidden(self, item: QTreeWidgetItem) -> None:
        """A hidden system looks hidden: greyed, in italics, with a 'left out' icon."""
        grey = self.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
        font = item.font(0)
        font.setItalic(True)
        for column in range(self.columnCount()):
            item.setForeground(column, grey)
            item.setFont(column, font)
        item.setIcon(0, self.style().standardIcon(QStyle.StandardPixmap.SP_DialogNoButton))
        item.setToolTip(0, "Hidden: left out of the analysis (right-click to show it again).")

    def _on_menu_requested(self, position: QPoint) -> None:
        item = self.itemAt(position)
        if item is not None:
            self.menu_for(item).exec(self.viewport().mapToGlobal(position))

    def menu_for(self, item: QTreeWidgetItem) -> QMenu:
        """The context menu of a listed file or system."""
        menu = QMenu(self)
        system, key = item.data(0, SYSTEM_ROLE), item.data(0, SYSTEM_KEY_ROLE)
        if system and key is not None:
            menu.addAction("Rename...", lambda: self._rename(key, system))
            hidden = item.text(1) == "hidden"
            menu.addAction(
                "Show in the analysis" if hidden else "Hide from the analysis",
                lambda: self.hide_requested.emit(key, not hidden),
            )
        runs = self._selected_systems(item)
        if len(runs) >= 2:
            menu.addAction("Group as runs of one system...", lambda: self._group_runs(runs))
        path = item.data(0, PATH_ROLE)
        if path is not None:
            entry = next((e for e in self.workspace.entries if e.path == path), None)
            if entry is not None and entry.plain_role is not None:
                self._add_roles(menu, path, entry.plain_role)
            if entry is not None and (entry.encodings or entry.encoding != AUTO):
                self._add_encodings(menu, Path(path), entry.encoding)
            paths = self._selected_files(Path(path))
            text = "Remove" if len(paths) == 1 else f"Remove {len(paths)} files"
            menu.addAction(text, lambda: self.remove_requested.emit(paths))
        return menu

    def _add_roles(self, menu: QMenu, path: Path, role: Role) -> None:
        """'Read as' the roles a plain-text file may have (it says none of its own)."""
        roles = menu.addMenu("Read as")
        for choice in (Role.REFERENCE, Role.SYSTEM, Role.SOURCE, Role.DOCUMENT_IDS):
            action = roles.addAction(choice.label.capitalize())
            action.setData(choice.value)
            action.setCheckable(True)
            action.setChecked(choice is role)
        roles.triggered.connect(lambda action: self.role_requested.emit(path, Role(action.data())))

    def _add_encodings(self, menu: QMenu, path: Path, encoding: str) -> None:
        """'Encoding': read a file that did not decode as UTF-8 (or was read in another
        encoding) in each encoding the window offers, the one it was read in ticked."""
        encodings = menu.addMenu("Encoding")
        for choice, name in ENCODING_NAMES.items():
            action = encodings.addAction(name)
            action.setData(choice)
            action.setCheckable(True)
            action.setChecked(choice == encoding)
        encodings.triggered.connect(
            lambda action: self.encoding_requested.emit(path, str(action.data()))
        )

    def _selected_systems(self, item: QTreeWidgetItem) -> list[str]:
        """The systems of the selected rows (a file's row stands for its systems), if ``item``
        is one of them; in the panel's order."""
        if not item.isSelected():
            return []
        names: list[str] = []
        for row in map(self.topLevelItem, range(self.topLevelItemCount())):
            if row is None:
                continue
            children = [row.child(k) for k in range(row.childCount())]
            for child in children:
                if child is None:
                    continue
                if (row.isSelected() or child.isSelected()) and child.data(0, SYSTEM_ROLE):
                    names.append(str(child.data(0, SYSTEM_ROLE)))
        return list(dict.fromkeys(names))

    def _group_runs(self, runs: list[str]) -> None:
        """Ask the name of the system the runs make, and ask for it."""
        name = self.ask_runs_name(runs)
        if name is not None and name.strip():
            self.runs_requested.emit(name.strip(), runs)

    def _ask_runs_name(self, runs: list[str]) -> str | None:
        name, accepted = QInputDialog.getText(
            self,
            "Group as runs of one system",
            f"Name of the system trained {len(runs)} times ({', '.join(runs)}):",
        )
        return name if accepted else None

    def _selected_files(self, path: Path) -> list[Path]:
        """The files a Remove on ``path`` removes: the files selected, if it is one of them."""
        rows = map(self.topLevelItem, range(self.topLevelItemCount()))
        selected = [Path(r.data(0, PATH_ROLE)) for r in rows if r is not None and r.isSelected()]
        return selected if path in selected else [path]

    def _rename(self, key: SystemKey, system: str) -> None:
        """Ask for a new name until one no other system has is given, or the user cancels."""
        self._renaming = key
        while True:
            name = self.ask_name(system)
            if name is None or not name.strip() or name.strip() == system:
                return
            problem = self.workspace.rename_problem(key, name)
            if problem is None:
                self.rename_requested.emit(key, name.strip())
                return
            self.tell_problem(problem)  # only an ask_name other than the dialog gets here

    def _ask_name(self, system: str) -> str | None:
        key = self._renaming

        def problem_of(name: str) -> str | None:
            return None if key is None else self.workspace.rename_problem(key, name)

        return ask_system_name(self, system, problem_of)

    def _tell_problem(self, problem: str) -> None:
        tell_rename_problem(self, problem)

    def file_at(self, position: QPoint) -> Path | None:
        """The listed file under ``position`` (of the viewport), if any."""
        item = self.itemAt(position)
        while item is not None and item.data(0, PATH_ROLE) is None:
            item = item.parent()
        return None if item is None else Path(item.data(0, PATH_ROLE))

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:  # noqa: N802
        """Accept, and select the file a single dropped file would replace."""
        if not event.mimeData().hasUrls():
            return
        event.acceptProposedAction()
        target = self.file_at(event.position().toPoint())
        single = len(event.mimeData().urls()) == 1
        self.clearSelection()
        if target is not None and single:
            for item in map(self.topLevelItem, range(self.topLevelItemCount())):
                if item is not None:
                    item.setSelected(Path(item.data(0, PATH_ROLE)) == target)

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802
        urls = [url for url in event.mimeData().urls() if url.isLocalFile()]
        if not urls:
            return
        event.acceptProposedAction()
        paths = [Path(url.toLocalFile()) for url in urls]
        target = self.file_at(event.position().toPoint())
        self.clearSelection()
        if target is not None and len(paths) == 1 and os.path.isfile(paths[0]):
            self.replace_requested.emit(target, paths[0])
        else:
            self.files_dropped.emit(paths)


def _is_reading(workspace: Workspace, path: Path) -> bool:
    return any(e.path == path and e.reading for e in workspace.entries)


def _span_problem(item: QTreeWidgetItem) -> None:
    """Let a file's problem span its row (only an item in the tree can)."""
    problem = item.child(0) if item.text(1) == "could not be read" else None
    if problem is not None:
        problem.setFirstColumnSpanned(True)


def _give(widths: list[int], deficit: int, columns: tuple[int, ...]) -> None:
    """Narrow ``columns`` in their order, each down to its least width, until ``deficit``
    pixels are found for the file's column (or none of them has any left)."""
    for column in columns:
        if deficit <= 0:
            return
        if column < len(widths):
            given = max(0, min(deficit, widths[column] - LEAST_WIDTHS[column]))
            widths[column] -= given
            deficit -= given


def _refill(row: QTreeWidgetItem, new: QTreeWidgetItem) -> None:
    """Make the listed ``row`` show what ``new`` (a row of the same file) shows."""
    for column in range(len(COLUMN_TIPS)):  # each change redraws: change what differs only
        if row.text(column) != new.text(column):
            row.setText(column, new.text(column))
        if row.toolTip(column) != new.toolTip(column):
            row.setToolTip(column, new.toolTip(column))
        if row.foreground(column) != new.foreground(column):
            row.setForeground(column, new.foreground(column))
    holder = QTreeWidgetItem()  # Python's: deleted, with the old children, when this returns
    holder.addChildren(row.takeChildren())
    row.addChildren(new.takeChildren())


def _systems_changed(
    entry: Entry,
    before: tuple[Workspace, dict[SystemKey, str]],
    now: tuple[Workspace, dict[SystemKey, str]],
) -> bool:
    """Whether a system of ``entry`` has another name or hidden flag ``now`` than ``before``."""
    for number in entry.system_numbers():
        key = (entry.path, number)
        if before[1].get(key) != now[1].get(key):
            return True
        if (key in before[0].hidden_systems) != (key in now[0].hidden_systems):
            return True
    return False
