"""Questions every view asks the same way."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from mtgui.engine.core import Role
from mtgui.io.project import PROJECT_SUFFIX
from mtgui.io.session import SESSION_SUFFIX
from mtgui.views.common.palette import problem_style
from mtgui.views.common.save_folder import start_folder, start_path, written


def ok_cancel(dialog: QDialog) -> tuple[QDialogButtonBox, QPushButton]:
    """OK and Cancel, answering ``dialog``; and the OK button, for a dialog that enables it
    only when its answer can be taken."""
    buttons = QDialogButtonBox(
        QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
    )
    ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert isinstance(ok, QPushButton)
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    return buttons, ok


def problem_label(parent: QWidget) -> QLabel:
    """A label that says, in the problem red, why a dialog's answer cannot be taken yet."""
    label = QLabel()
    label.setWordWrap(True)
    label.setStyleSheet(problem_style(parent.palette()))
    return label


def ask_to_replace(parent: QWidget, existing: list[Path]) -> bool:
    """Ask whether files that exist already may be replaced; True only on Yes."""
    names = "\n".join(p.name for p in existing)
    answer = QMessageBox.question(
        parent, "Replace files?", f"These files exist already:\n{names}\nReplace them?"
    )
    return answer == QMessageBox.StandardButton.Yes


def ask_role(parent: QWidget, path: Path, guess: Role) -> Role | None:
    """What a plain-text file is (``guess`` is the default answer); None if cancelled."""
    box = QMessageBox(parent)
    box.setWindowTitle("What is this file?")
    box.setText(
        f"{path.name} is plain text: is it a reference translation, a system's output, the "
        "source, or the document ids of the segments (one per line)?"
    )
    buttons = {
        box.addButton("Reference", QMessageBox.ButtonRole.AcceptRole): Role.REFERENCE,
        box.addButton("System output", QMessageBox.ButtonRole.AcceptRole): Role.SYSTEM,
        box.addButton("Source", QMessageBox.ButtonRole.AcceptRole): Role.SOURCE,
        box.addButton("Document ids", QMessageBox.ButtonRole.AcceptRole): Role.DOCUMENT_IDS,
    }
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(next(b for b, r in buttons.items() if r is guess))
    box.exec()
    clicked = box.clickedButton()
    return next((role for button, role in buttons.items() if button is clicked), None)


OPEN_DIALOG_SIZE = (1000, 620)
"""The Open dialog's size where the screen allows: WMT file names run to 60 characters
(``newstest2021.de-en.Facebook-AI.hyp.en``), and the default dialog cut them off."""
OPEN_FILTERS = (
    "All files (*)",  # first: plain-text files have any suffix (newstest2014.en-de.ref.de)
    "mtgui projects and sessions (*.mtgui *.mtgui.json)",
    "SGML and XML (*.sgm *.sgml *.xml)",
    "Scores tables (*.csv *.tsv)",
    "Campaign files (*.toml)",  # each opens in a campaign window (MainWindow.add_files)
)


def ask_files_to_open(parent: QWidget, start: str) -> list[Path]:
    """The files the user picks to read ([] if cancelled), in a dialog wide enough for whole
    names (:data:`OPEN_DIALOG_SIZE`, or nine tenths of a smaller screen)."""
    dialog = QFileDialog(parent, "Open references, system outputs, scores or a session", start)
    dialog.setFileMode(QFileDialog.FileMode.ExistingFiles)
    dialog.setNameFilters(OPEN_FILTERS)
    dialog.setViewMode(QFileDialog.ViewMode.Detail)
    width, height = OPEN_DIALOG_SIZE
    screen = (parent.screen() if parent is not None else None) or QApplication.primaryScreen()
    if screen is not None:
        room = screen.availableGeometry()
        width, height = min(width, room.width() * 9 // 10), min(height, room.height() * 9 // 10)
    dialog.resize(width, height)
    names = dialog.findChild(QTreeView)  # Qt's own dialog; a desktop's native one sizes itself
    if names is not None:
        names.header().resizeSection(0, width * 11 // 20)
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return []
    return [Path(name) for name in dialog.selectedFiles()]


def ask_folder(parent: QWidget, title: str, start: str = "") -> Path | None:
    """A folder to write into (the dialog opens in ``start``, by default the last folder
    written to, see :mod:`mtgui.views.common.save_folder`); None if cancelled."""
    name = QFileDialog.getExistingDirectory(parent, title, start or str(start_folder()))
    if not name:
        return None
    written(Path(name))
    return Path(name)


def ask_save_path(
    parent: QWidget, title: str, suggested: str, formats: dict[str, str]
) -> Path | None:
    """Where to export a file of one of ``formats`` (ending -> label); None if cancelled.

    The dialog does not ask about replacing a file: the caller asks, once, with
    :func:`ask_to_replace`. A name without an ending gets the chosen format's.
    """
    filters = {f"{label} (*{suffix})": suffix for suffix, label in formats.items()}
    name, chosen = QFileDialog.getSaveFileName(
        parent,
        title,
        start_path(suggested),
        ";;".join(filters),
        options=QFileDialog.Option.DontConfirmOverwrite,
    )
    if not name:
        return None
    path = Path(name)
    written(path)
    return path if path.suffix else path.with_suffix(filters.get(chosen, next(iter(formats))))


def ask_session_file(parent: QWidget, start: Path) -> Path | None:
    """Where to save a session (the dialog asks before replacing a file); None if cancelled."""
    name, _ = QFileDialog.getSaveFileName(
        parent, "Save the session as", str(start), f"mtgui sessions (*{SESSION_SUFFIX})"
    )
    if not name:
        return None
    path = Path(name)
    written(path)
    return path if path.name.endswith(".json") else path.with_name(path.name + SESSION_SUFFIX)


REPORT_KINDS = {"html": ("HTML report", ".html"), "pdf": ("PDF report", ".pdf")}
"""The report files the window writes: a name for the dialog, and the file's suffix."""


def ask_report_file(parent: QWidget, kind: str, start: Path) -> Path | None:
    """Where to save the report to send, as ``kind`` (html or pdf; the dialog asks before
    replacing a file); the suffix is added when the name lacks it. None if cancelled."""
    label, suffix = REPORT_KINDS[kind]
    name, _ = QFileDialog.getSaveFileName(
        parent, f"Export the {label} as", str(start.with_suffix(suffix)), f"{label} (*{suffix})"
    )
    if not name:
        return None
    path = Path(name)
    written(path)
    return path if path.suffix.lower() == suffix else path.with_name(path.name + suffix)


def ask_to_open_session(parent: QWidget) -> bool:
    """Whether a session may take the place of the files loaded now; True only on Yes."""
    answer = QMessageBox.question(
        parent,
        "Open the session?",
        "The session's files will take the place of the files loaded now (the files "
        "themselves are not changed). Go on?",
    )
    return answer == QMessageBox.StandardButton.Yes


def ask_project_file(parent: QWidget) -> Path | None:
    """Where to save the project (the dialog asks before replacing a file); ``.mtgui`` is
    added when the name lacks it. None if cancelled."""
    name, _ = QFileDialog.getSaveFileName(
        parent,
        "Save the project as",
        start_path("project" + PROJECT_SUFFIX),
        f"mtgui projects (*{PROJECT_SUFFIX})",
    )
    if not name:
        return None
    path = Path(name)
    written(path)
    return path if path.suffix.lower() == PROJECT_SUFFIX else path.with_name(path.name + ".mtgui")


def ask_to_replace_project(parent: QWidget, folder: Path) -> bool:
    """Whether another project's folder may be replaced by the one being opened."""
    answer = QMessageBox.question(
        parent,
        "Replace the project?",
        f"Another project of this name was opened before, into {folder}. Replace it with this "
        "one? (Changes made in its folder since are lost; the project file it came from is "
        "not changed.)",
    )
    return answer == QMessageBox.StandardButton.Yes


def ask_to_start_afresh(parent: QWidget) -> bool:
    """Whether the files loaded now may be closed for a new project; True only on Yes."""
    answer = QMessageBox.question(
        parent,
        "Start a new project?",
        "The files loaded now are closed (the files themselves are not changed), and the "
        "settings go back to their defaults. Save the session first to come back to them. "
        "Go on?",
    )
    return answer == QMessageBox.StandardButton.Yes


def ask_to_close_set(parent: QWidget, name: str, files: int) -> bool:
    """Whether the test set ``name`` and its ``files`` may be closed; True only on Yes."""
    answer = QMessageBox.question(
        parent,
        "Close the test set?",
        f"The test set {name} holds {files:,} file{'s' if files != 1 else ''}: closing it "
        "lets them go (the files themselves are not changed; Edit > Undo brings the set back "
        "at once after). Close it?",
    )
    return answer == QMessageBox.StandardButton.Yes


def ask_set_name(parent: QWidget, name: str) -> str | None:
    """The new name of the test set now called ``name`` (empty: its default); None if the
    user cancels."""
    text, chosen = QInputDialog.getText(
        parent, "Rename the test set", "Name of the test set (empty: its default name):", text=name
    )
    return text if chosen else None


class RenameDialog(QDialog):
    """Asks for a system's new name, and will not take one that another system has.

    ``problem_of(name)`` says why a name cannot be taken (None if it can). While it can't, the
    dialog says why under the name and its OK button is off: the dialog stays open until the
    name is one it can take, or the user cancels.
    """

    def __init__(
        self, parent: QWidget | None, name: str, problem_of: Callable[[str], str | None]
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Rename system")
        self.old_name = name
        self._problem_of = problem_of
        self.name_edit = QLineEdit(name)
        self.name_edit.selectAll()
        self.problem_label = problem_label(self)
        self.problem_label.setVisible(False)
        buttons, self.ok_button = ok_cancel(self)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(f"New name for the system {name}:"))
        layout.addWidget(self.name_edit)
        layout.addWidget(self.problem_label)
        layout.addWidget(buttons)
        self.name_edit.textChanged.connect(self._on_name_changed)
        self.setMinimumWidth(480)

    def problem(self) -> str | None:
        """Why the name typed cannot be taken, or None (the old name is no problem: no change)."""
        name = self.name_edit.text().strip()
        return None if name == self.old_name else self._problem_of(name)

    def _on_name_changed(self) -> None:
        problem = self.problem()
        self.problem_label.setText(problem or "")
        self.problem_label.setVisible(problem is not None)
        self.ok_button.setEnabled(problem is None)
        self.adjustSize()  # room for the message's lines

    def accept(self) -> None:
        """Close with the new name, unless another system has it (then say so and stay)."""
        self._on_name_changed()
        if self.problem() is None:
            super().accept()


def ask_system_name(
    parent: QWidget, name: str, problem_of: Callable[[str], str | None]
) -> str | None:
    """A new name for the system ``name`` that ``problem_of`` accepts; None if cancelled."""
    dialog = RenameDialog(parent, name, problem_of)
    accepted = dialog.exec() == QDialog.DialogCode.Accepted.value
    text = dialog.name_edit.text().strip()
    dialog.deleteLater()
    return text if accepted else None


def tell_rename_problem(parent: QWidget, problem: str) -> None:
    """Say why a system cannot take the name asked for."""
    QMessageBox.warning(parent, "Rename system", problem)
