"""The files panel: what is loaded, what each file holds, and what went wrong with it.

One row per file, with its systems or references as children: counts of segments and
documents, format and encoding. A file that could not be read shows its message in plain words
where it is listed. The context menu renames a system, hides it from the analysis, or removes
a file. Dropping one file on a listed file replaces it with the new version (same place, same
role); dropping elsewhere on the panel adds files, as on the rest of the window.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QInputDialog, QMenu, QTreeWidget, QTreeWidgetItem, QWidget

from mtgui.engine.corpus import Role
from mtgui.io.streams import LoadedFile
from mtgui.io.workspace import Workspace

PATH_ROLE = Qt.ItemDataRole.UserRole + 1
SYSTEM_ROLE = Qt.ItemDataRole.UserRole + 2
_PROBLEM = QColor("#B00020")


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

    remove_requested = Signal(Path)
    rename_requested = Signal(str, str)
    hide_requested = Signal(str, bool)
    replace_requested = Signal(Path, Path)  # the listed file, its new version
    files_dropped = Signal(list)  # paths dropped on the panel but not on a file

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setHeaderLabels(list(COLUMN_TIPS))
        for column, tip in enumerate(COLUMN_TIPS.values()):
            self.headerItem().setToolTip(column, tip)
        self.setRootIsDecorated(True)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.customContextMenuRequested.connect(self._on_menu_requested)
        self.setAcceptDrops(True)
        self.ask_name: Callable[[str], str | None] = self._ask_name
        self.setToolTip(
            "Drop reference and system files here (or anywhere on the window); drop a file "
            "on a listed file to replace it with a new version."
        )

    def show_workspace(self, workspace: Workspace) -> None:
        """List the workspace's files."""
        self.clear()
        names = workspace.system_names()
        for entry in workspace.entries:
            item = QTreeWidgetItem([entry.path.name])
            item.setData(0, PATH_ROLE, entry.path)
            item.setToolTip(0, str(entry.path))
            if entry.problem:
                item.setText(1, "could not be read")
                item.setForeground(1, QBrush(_PROBLEM))
                problem = QTreeWidgetItem([entry.problem])
                problem.setForeground(0, QBrush(_PROBLEM))
                problem.setFirstColumnSpanned(True)
                problem.setToolTip(0, entry.problem)
                item.addChild(problem)
            elif entry.scores is not None:
                item.setText(1, f"scores of {len(entry.scores.systems)} systems")
                item.setText(4, f"scores table, {entry.scores.origin.encoding}")
            elif entry.loaded is not None:
                self._add_streams(item, entry.path, entry.loaded, workspace, names)
            self.addTopLevelItem(item)
            item.setExpanded(True)
        for column in range(self.columnCount()):
            self.resizeColumnToContents(column)

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
                if name in workspace.hidden:
                    child.setText(1, "hidden")
            item.addChild(child)

    def _on_menu_requested(self, position: QPoint) -> None:
        item = self.itemAt(position)
        if item is not None:
            self.menu_for(item).exec(self.viewport().mapToGlobal(position))

    def menu_for(self, item: QTreeWidgetItem) -> QMenu:
        """The context menu of a listed file or system."""
        menu = QMenu(self)
        system = item.data(0, SYSTEM_ROLE)
        if system:
            menu.addAction("Rename...", lambda: self._rename(system))
            hidden = item.text(1) == "hidden"
            menu.addAction(
                "Show in the analysis" if hidden else "Hide from the analysis",
                lambda: self.hide_requested.emit(system, not hidden),
            )
        path = item.data(0, PATH_ROLE)
        if path is not None:
            menu.addAction("Remove", lambda: self.remove_requested.emit(path))
        return menu

    def _rename(self, system: str) -> None:
        name = self.ask_name(system)
        if name and name.strip() and name.strip() != system:
            self.rename_requested.emit(system, name.strip())

    def _ask_name(self, system: str) -> str | None:
        name, ok = QInputDialog.getText(self, "Rename system", "New name:", text=system)
        return name if ok else None

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
        if target is not None and len(paths) == 1 and paths[0].is_file():
            self.replace_requested.emit(target, paths[0])
        else:
            self.files_dropped.emit(paths)
