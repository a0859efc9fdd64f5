"""At start, the work of an mtgui that did not close properly: offered back, never silently.

:func:`offer_recovery` asks about each recovery file whose process is gone
(:meth:`mtgui.app.recovery.RecoveryFolder.orphans`), newest first: Restore opens its work in
the window (and the file goes once the window keeps the work in its own), Discard deletes it,
and closing the question keeps it for the next start. At most one is restored; the others are
kept for the next start.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from PySide6.QtWidgets import QMessageBox, QWidget

from mtgui.app.recovery import Orphan, RecoveryFolder
from mtgui.engine.core import InputError
from mtgui.io.window_words import window_message
from mtgui.views.window.main_window import MainWindow

Answer = Literal["restore", "discard", "later"]


def ask_to_restore(parent: QWidget, description: str) -> Answer:
    """Restore the work described, discard it, or (Not now, Esc, the question closed) keep
    it and ask again at the next start."""
    box = QMessageBox(
        QMessageBox.Icon.Question,
        "Restore your work?",
        "mtgui did not close properly last time. " + description,
        parent=parent,
    )
    box.setInformativeText(
        "Restore opens its files, names and settings as they were. Discard deletes this copy "
        "(your files themselves are never touched)."
    )
    restore = box.addButton("Restore", QMessageBox.ButtonRole.AcceptRole)
    discard = box.addButton("Discard", QMessageBox.ButtonRole.DestructiveRole)
    later = box.addButton("Not now", QMessageBox.ButtonRole.RejectRole)
    later.setToolTip("Keep the copy, and ask again at the next start.")
    box.setDefaultButton(restore)
    box.setEscapeButton(later)  # Esc or closing the question: kept, asked again next time
    box.exec()
    if box.clickedButton() is restore:
        return "restore"
    return "discard" if box.clickedButton() is discard else "later"


def offer_recovery(window: MainWindow, folder: RecoveryFolder, files: Sequence[Path] = ()) -> bool:
    """Offer back each piece of work left by an mtgui that ended without closing; True if
    one is restored (``files`` given at start are then read after its own)."""
    orphans = folder.orphans()
    for number, orphan in enumerate(orphans):
        answer = ask_to_restore(window, orphan.describe())
        if answer == "restore" and _restore(window, orphan, files):
            for other in orphans[number + 1 :]:
                other.release()  # kept for the next start
            return True
        if answer == "discard":
            orphan.discard()
        else:
            orphan.release()
    return False


def _restore(window: MainWindow, orphan: Orphan, files: Sequence[Path]) -> bool:
    """Open the orphan's work; it is deleted once the window keeps that work itself."""
    try:
        _, original = orphan.read()
    except InputError as error:
        window.controller.problem_changed.emit(window_message(error))
        return False

    def adopt(path: Path) -> None:
        if path == orphan.path:
            if window.recovery is not None:
                window.recovery.save_now()
            orphan.discard()

    window.controller.recovered.connect(adopt)
    window.controller.recover(orphan.path, original, files)
    return True
