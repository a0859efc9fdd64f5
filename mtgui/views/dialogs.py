"""Questions every view asks the same way."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from mtgui.engine.corpus import Role
from mtgui.io.session import SESSION_SUFFIX


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
        f"{path.name} is plain text: is it a reference translation, a system's output, or the "
        "source?"
    )
    buttons = {
        box.addButton("Reference", QMessageBox.ButtonRole.AcceptRole): Role.REFERENCE,
        box.addButton("System output", QMessageBox.ButtonRole.AcceptRole): Role.SYSTEM,
        box.addButton("Source", QMessageBox.ButtonRole.AcceptRole): Role.SOURCE,
    }
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(next(b for b, r in buttons.items() if r is guess))
    box.exec()
    clicked = box.clickedButton()
    return next((role for button, role in buttons.items() if button is clicked), None)


def ask_folder(parent: QWidget, title: str, start: str) -> Path | None:
    """A folder to write into; None if cancelled."""
    name = QFileDialog.getExistingDirectory(parent, title, start)
    return Path(name) if name else None


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
        suggested,
        ";;".join(filters),
        options=QFileDialog.Option.DontConfirmOverwrite,
    )
    if not name:
        return None
    path = Path(name)
    return path if path.suffix else path.with_suffix(filters.get(chosen, next(iter(formats))))


def ask_session_file(parent: QWidget, start: Path) -> Path | None:
    """Where to save a session (the dialog asks before replacing a file); None if cancelled."""
    name, _ = QFileDialog.getSaveFileName(
        parent, "Save the session as", str(start), f"mtgui sessions (*{SESSION_SUFFIX})"
    )
    if not name:
        return None
    path = Path(name)
    return path if path.name.endswith(".json") else path.with_name(path.name + SESSION_SUFFIX)


def ask_to_open_session(parent: QWidget) -> bool:
    """Whether a session may take the place of the files loaded now; True only on Yes."""
    answer = QMessageBox.question(
        parent,
        "Open the session?",
        "The session's files will take the place of the files loaded now (the files "
        "themselves are not changed). Go on?",
    )
    return answer == QMessageBox.StandardButton.Yes
