"""The files panel: what is loaded, what each file holds, and what went wrong with it.

One row per file, with its systems or references as children: counts of segments and
documents, format and encoding. A file that could not be read shows its message in plain words
where it is listed. The context menu renames a system, hides it from the analysis, or removes
a file.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QInputDialog, QMenu, QTreeWidget, QTreeWidgetItem, QWidget

from mtgui.engine.corpus import Role
from mtgui.io.workspace import Workspace

PATH_ROLE = Qt.ItemDataRole.UserRole + 1
SYSTEM_ROLE = Qt.ItemDataRole.UserRole + 2
_PROBLEM = QColor("#B00020")


class FilesPanel(QTreeWidget):
    """A tree of the loaded files and the streams in them."""

    remove_requested = Signal(Path)
    rename_requested = Signal(str, str)
    hide_requested = Signal(str, bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setHeaderLabels(["File", "Holds", "Segments", "Documents", "Format"])
        self.setRootIsDecorated(True)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.customContextMenuRequested.connect(self._on_menu_requested)
        self.setToolTip("Drop reference and system files here (or anywhere on the window).")

    def show_workspace(self, workspace: Workspace) -> None:
        """List the workspace's files."""
        self.clear()
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
                self._add_streams(item, entry.loaded, workspace)
            self.addTopLevelItem(item)
            item.setExpanded(True)
        for column in range(self.columnCount()):
            self.resizeColumnToContents(column)

    def _add_streams(self, item: QTreeWidgetItem, loaded: object, workspace: Workspace) -> None:
        from mtgui.io.streams import LoadedFile

        assert isinstance(loaded, LoadedFile)
        item.setText(4, f"{loaded.origin.format}, {loaded.origin.encoding}")
        roles = sorted({s.role.label for s in loaded.streams})
        item.setText(1, ", ".join(roles))
        for stream in loaded.streams:
            name = stream.name or (
                loaded.origin.file_name if stream.role is not Role.SOURCE else ""
            )
            label = f"{stream.role.label} {name}".strip()
            documents = len(set(stream.doc_ids)) if stream.doc_ids else "-"
            child = QTreeWidgetItem([label, "", str(stream.size), str(documents)])
            if stream.role is Role.SYSTEM and stream.name:
                child.setData(0, SYSTEM_ROLE, stream.name)
                if stream.name in workspace.hidden:
                    child.setText(1, "hidden")
            item.addChild(child)

    def _on_menu_requested(self, position: QPoint) -> None:
        item = self.itemAt(position)
        if item is None:
            return
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
        menu.exec(self.viewport().mapToGlobal(position))

    def _rename(self, system: str) -> None:
        name, ok = QInputDialog.getText(self, "Rename system", "New name:", text=system)
        if ok and name.strip() and name.strip() != system:
            self.rename_requested.emit(system, name.strip())
