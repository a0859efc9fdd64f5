"""One question for all the plain-text files of a drop: which is a reference, which a system.

Plain text does not say what it holds. Each file's role is guessed from its name (``ref`` in
the name: a reference; ``src``: the source; ``*.docids``: the document of each segment, one id
per line; else a system output) and shown preselected; the
user corrects what is wrong, or sets every file at once ("Set all to"), and confirms once. A
single file is asked with a short message box instead.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTableWidget,
    QVBoxLayout,
    QWidget,
)

from mtgui.engine.core import Role
from mtgui.views.common.dialogs import ask_role, ok_cancel

CHOICES = (
    ("Reference", Role.REFERENCE),
    ("System output", Role.SYSTEM),
    ("Source", Role.SOURCE),
    ("Document ids", Role.DOCUMENT_IDS),
    ("Leave out", None),
)


class RolesDialog(QDialog):
    """A row per file: its name and a role chooser set to the guess; buttons that set all."""

    def __init__(self, files: list[tuple[Path, Role]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("What are these files?")
        self.files = files
        intro = QLabel(
            f"These {len(files)} files are plain text, which does not say what it holds. "
            "Each is set to what its name suggests: correct what is wrong, then OK."
        )
        intro.setWordWrap(True)
        self.table = QTableWidget(len(files), 2)
        self.table.setHorizontalHeaderLabels(["File", "Holds"])
        self.choosers: list[QComboBox] = []
        for row, (path, guess) in enumerate(files):
            self.table.setCellWidget(row, 0, QLabel(path.name))
            chooser = QComboBox()
            for text, role in CHOICES:  # data: the role's value ("": left out), which Qt
                chooser.addItem(text, role.value if role else "")  # keeps as it was given
            chooser.setCurrentIndex(next(i for i, (_, r) in enumerate(CHOICES) if r is guess))
            chooser.setToolTip(str(path))
            self.table.setCellWidget(row, 1, chooser)
            self.choosers.append(chooser)
        self.table.resizeColumnsToContents()
        self.table.horizontalHeader().setStretchLastSection(True)
        all_row = QHBoxLayout()
        all_row.addWidget(QLabel("Set all to:"))
        for text, role in CHOICES[:3]:
            button = QPushButton(text)
            button.clicked.connect(lambda _=False, r=role: self.set_all(r))
            all_row.addWidget(button)
        all_row.addStretch(1)
        buttons, _ = ok_cancel(self)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.table)
        layout.addLayout(all_row)
        layout.addWidget(buttons)
        self.resize(560, min(160 + 32 * len(files), 640))

    def set_all(self, role: Role) -> None:
        """Set every file to ``role``."""
        for chooser in self.choosers:
            chooser.setCurrentIndex(chooser.findData(role.value))

    def roles(self) -> dict[Path, Role]:
        """The role chosen for each file (files left out are not in it)."""
        chosen = {}
        for (path, _), chooser in zip(self.files, self.choosers, strict=True):
            value = chooser.currentData()
            if value:
                chosen[path] = Role(value)
        return chosen


def ask_roles(parent: QWidget, files: list[tuple[Path, Role]]) -> dict[Path, Role] | None:
    """The roles of the plain-text files of a drop, in one question; None if cancelled."""
    if len(files) == 1:
        path, guess = files[0]
        role = ask_role(parent, path, guess)
        return None if role is None else {path: role}
    dialog = RolesDialog(files, parent)
    return dialog.roles() if dialog.exec() == QDialog.DialogCode.Accepted else None
