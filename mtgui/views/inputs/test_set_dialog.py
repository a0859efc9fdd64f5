"""File > Open test set...: a test set of sacreBLEU's catalogue and a language pair, whose
references, source and document ids are added to what is loaded (:mod:`mtgui.io.test_sets`).

The dialog says whether the set is in sacreBLEU's cache already or will be downloaded. The files
are found (and downloaded) on a worker thread, so that the window never freezes; a set that
cannot be had (no network) is said in the dialog, in red, which stays open.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping, Sequence
from pathlib import Path
from typing import Protocol, runtime_checkable

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QComboBox,
    QCompleter,
    QDialog,
    QFormLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from mtgui.app.runs import RunController
from mtgui.engine.core import InputError, Role
from mtgui.engine.text import sacrebleu_home
from mtgui.io.test_sets import NamedTestSet, catalogue, is_cached, language_pairs, named_test_set
from mtgui.views.common.actions import make_action
from mtgui.views.common.dialogs import ok_cancel, problem_label


@runtime_checkable
class FilesReader(Protocol):
    """A window that reads files given with their roles (the main window's ``add_files``)."""

    def add_files(self, paths: Sequence[Path], roles: Mapping[Path, Role] | None = None) -> None:
        """Read ``paths``, each as its role."""


MINIMUM_WIDTH = 560
"""Wide enough for the cache's folder and a message about it on a few lines."""


class TestSetDialog(QDialog):
    """A test set and one of its language pairs; :attr:`named` once accepted."""

    __test__ = False  # not a pytest test class, despite the name

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Open test set")
        self.named: NamedTestSet | None = None
        self.test_set = QComboBox()
        self.names = catalogue()
        self.test_set.addItems(self.names)
        self.test_set.setEditable(True)  # typing "wmt19" finds it among 70 names
        self.test_set.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        completer = self.test_set.completer()
        if completer is not None:  # a list of the names that match, never one filled in:
            # "wmt19" must not become "wmt19/google/wmtp", which comes first in this order
            completer.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        self.test_set.setToolTip("The test sets sacreBLEU knows (sacrebleu --list); type a name.")
        self.pair = QComboBox()
        self.pair.setToolTip("The language pair, source-target.")
        self.where = QLabel()
        self.where.setWordWrap(True)
        self.problem = problem_label(self)
        self.problem.hide()
        for label in (self.where, self.problem):  # sacreBLEU's errors look like tags: <urlopen..>
            label.setTextFormat(Qt.TextFormat.PlainText)
        self.setMinimumWidth(MINIMUM_WIDTH)
        form = QFormLayout()
        form.addRow("Test set", self.test_set)
        form.addRow("Language pair", self.pair)
        buttons, self.ok = ok_cancel(self)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.where)
        layout.addWidget(self.problem)
        layout.addWidget(buttons)
        self._runs = RunController(self)
        self._runs.finished.connect(self._on_found)
        self._runs.failed.connect(self._on_failed)
        self.test_set.currentTextChanged.connect(self._on_test_set_changed)
        self._on_test_set_changed(self.test_set.currentText())

    def _on_test_set_changed(self, name: str) -> None:
        self.pair.clear()
        self.pair.addItems(language_pairs(name))
        self.problem.hide()
        self.adjustSize()
        self._say_where(name)

    def _say_where(self, name: str) -> None:
        """Whether the set is known, and cached or to be downloaded; OK only for a known set."""
        folder = sacrebleu_home()
        if name not in self.names:
            self.where.setText(f"sacreBLEU knows no test set called '{name}'.")
        elif is_cached(name):
            self.where.setText(f"{name} is in sacreBLEU's cache ({folder}).")
        else:
            self.where.setText(
                f"{name} is not in sacreBLEU's cache ({folder}) yet: it will be downloaded "
                "there, which needs a network."
            )
        self.ok.setEnabled(name in self.names)

    def accept(self) -> None:
        """Find (or download) the set's files on a worker thread; the dialog closes when they
        are there, or says in red why they cannot be had and stays open."""
        if self._runs.running:
            return
        name, pair = self.test_set.currentText(), self.pair.currentText()
        self.problem.hide()
        self._asking(False)
        self.where.setText(
            f"Looking for {name} {pair} in sacreBLEU's cache, downloading it if needed..."
        )
        self._runs.start(lambda: _find(name, pair))

    def _asking(self, asking: bool) -> None:
        """Let the choices be changed (or not, while the files are being found)."""
        for widget in (self.test_set, self.pair, self.ok):
            widget.setEnabled(asking)

    def reject(self) -> None:
        """Close; a download under way goes on into sacreBLEU's cache, its result unused."""
        self._runs.cancel()
        super().reject()

    def _on_found(self, found: object) -> None:
        if isinstance(found, NamedTestSet):
            self.named = found
            super().accept()
            return
        self._on_failed(found.message if isinstance(found, InputError) else str(found))

    def _on_failed(self, message: str) -> None:
        self._asking(True)
        self._say_where(self.test_set.currentText())
        self.problem.setText(message)
        self.problem.show()
        self.adjustSize()


def _find(name: str, pair: str) -> Generator[None, None, NamedTestSet | InputError]:
    """The set's files, or the error in its own words (not the window's, which would drop the
    sacreBLEU command its hint gives): a run of one step, for a worker thread."""
    try:
        return named_test_set(name, pair)
    except InputError as error:
        return error
    yield  # unreachable: it makes this a generator, which the worker thread drives


def ask_test_set(parent: QWidget) -> NamedTestSet | None:
    """The test set the user chooses (its files found or downloaded); None if cancelled."""
    dialog = TestSetDialog(parent)
    try:
        return dialog.named if dialog.exec() == QDialog.DialogCode.Accepted else None
    finally:
        dialog.deleteLater()


def test_set_files(named: NamedTestSet) -> dict[Path, Role]:
    """The files to load for ``named`` and their roles: source, references, document ids."""
    files = {named.source: Role.SOURCE}
    files.update(dict.fromkeys(named.references, Role.REFERENCE))
    if named.docids is not None:
        files[named.docids] = Role.DOCUMENT_IDS
    return files


def open_test_set_action(window: QWidget) -> QAction:
    """File > Open test set...: asks for a set and adds its files to what ``window`` (a
    :class:`FilesReader`, as the main window) has loaded."""
    action = make_action(window, "Open &test set...", None)
    action.setToolTip("Open the references, source and document ids of a test set of sacreBLEU's.")

    def open_test_set() -> None:  # the window found through the action: no reference to it
        parent = action.parent()
        if not isinstance(parent, QWidget) or not isinstance(parent, FilesReader):
            return
        named = ask_test_set(parent)
        if named is not None:
            files = test_set_files(named)
            parent.add_files(list(files), files)

    action.triggered.connect(open_test_set)
    return action
