"""One question per scores file: which scores to load, what to call each, which way it goes,
and, for a file of numbers alone, which system's output it scores.

The question and its rules are :class:`~mtgui.io.score_choices.ScoresQuestion`'s (so that tests
answer it in code); this is only its dialog. A row per column that may hold scores (one row for
a file without columns): a tick, the metric's name (the column's name in lower case, or human),
and "lower is better" (ticked at first for MetricX, MQM, TER...; it follows the name typed until
the user sets it). While the answer cannot be taken (no scores ticked, a name mtgui uses itself,
two columns of one name), the dialog says why and its OK button is off. Cancel leaves the file
out. A file of numbers alone may be a translation after all (a reference of prices or years):
"Not scores: read as" reads it as a reference, system output or source instead.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QTableWidget,
    QVBoxLayout,
    QWidget,
)

from mtgui.engine.core import Role
from mtgui.io.score_choices import FORMAT_WORDS, ScoresQuestion, lower_is_better
from mtgui.io.score_formats import LINE_SCORES
from mtgui.io.score_sources import ScoreSource
from mtgui.views.common.dialogs import ok_cancel, problem_label

READ_AS_TEXT = 2
"""The dialog's result when the user says the file is a translation (see ``read_as``)."""
TEXT_ROLES = (Role.REFERENCE, Role.SYSTEM, Role.SOURCE)


class ScoresDialog(QDialog):
    """Asks what to load from one scores file (see the module's docstring)."""

    def __init__(self, question: ScoresQuestion, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.question = question
        offer = question.offer
        self.setWindowTitle("Which scores?")
        intro = QLabel(
            f"{question.path.name} holds {FORMAT_WORDS.get(offer.format, 'scores')}. Tick the "
            "scores to load: each becomes a metric of its own, under the name given, with its "
            "intervals, grid and ranks beside BLEU's."
        )
        intro.setWordWrap(True)
        self.table = QTableWidget(len(offer.choices), 3)
        self.table.setHorizontalHeaderLabels(["Scores", "Metric name", "Direction"])
        self.table.verticalHeader().setVisible(False)
        self.tick_boxes: list[QCheckBox] = []
        self.name_edits: list[QLineEdit] = []
        self.lower_boxes: list[QCheckBox] = []
        self._set_by_user: set[int] = set()  # rows whose direction the user chose
        for row, choice in enumerate(offer.choices):
            self._add_row(row, choice.column, choice.metric, choice.higher_is_better, choice.chosen)
            if choice.label is not None:
                self.tick_boxes[-1].setText(choice.label)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the cells' widgets take the focus
        self.table.resizeColumnsToContents()
        self.table.resizeRowsToContents()
        self.table.horizontalHeader().setStretchLastSection(True)
        rows = sum(self.table.rowHeight(row) for row in range(self.table.rowCount()))
        height = rows + self.table.horizontalHeader().height() + 2 * self.table.frameWidth()
        self.table.setFixedHeight(min(height, 360))  # no empty rows below a short list
        self.system: QComboBox | None = None
        form = QFormLayout()
        if offer.needs_system:
            self.system = self._system_chooser()
            form.addRow("Scores of the system:", self.system)
        self.problem_label = problem_label(self)
        buttons, self.ok_button = ok_cancel(self)
        self.read_as: Role | None = None  # the role chosen under "Not scores: read as"
        self.read_as_button: QPushButton | None = None
        bottom = QHBoxLayout()
        if offer.format == LINE_SCORES:
            self.read_as_button = self._read_as_button()
            bottom.addWidget(self.read_as_button)  # on the left, away from OK and Cancel
        bottom.addStretch(1)
        bottom.addWidget(buttons)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.table)
        layout.addLayout(form)
        layout.addWidget(self.problem_label)
        layout.addLayout(bottom)
        self.resize(600, self.sizeHint().height())
        self._on_changed()

    def _add_row(self, row: int, column: str | None, name: str, higher: bool, tick: bool) -> None:
        check = QCheckBox(column if column is not None else "the scores")
        check.setChecked(tick)
        check.setToolTip(
            "Load these scores as a metric."
            if column is None
            else f"Load the column {column} as a metric."
        )
        edit = QLineEdit(name)
        edit.setToolTip("The metric's name in every view and export: lower case, no spaces.")
        lower = QCheckBox("lower is better")
        lower.setChecked(not higher)
        lower.setToolTip("Tick for scores where less is better (MetricX, MQM errors, TER).")
        self.table.setCellWidget(row, 0, check)
        self.table.setCellWidget(row, 1, edit)
        self.table.setCellWidget(row, 2, lower)
        check.toggled.connect(self._on_changed)
        edit.textChanged.connect(lambda _=None, r=row: self._on_name_edited(r))
        lower.clicked.connect(lambda _=False, r=row: self._on_direction_clicked(r))
        self.tick_boxes.append(check)
        self.name_edits.append(edit)
        self.lower_boxes.append(lower)

    def _read_as_button(self) -> QPushButton:
        """The button "Not scores: read as", with a menu of the translation roles."""
        button = QPushButton("Not scores: read as")
        button.setAutoDefault(False)  # Enter still means OK
        button.setToolTip(
            "The file holds numbers alone, but it is a translation: read it as one instead."
        )
        menu = QMenu(button)
        for role in TEXT_ROLES:
            action = menu.addAction(role.label.capitalize())
            action.triggered.connect(lambda _=False, r=role: self.choose_text_role(r))
        button.setMenu(menu)
        return button

    def choose_text_role(self, role: Role) -> None:
        """Close, reading the file as a translation of ``role`` instead of as scores."""
        self.read_as = role
        self.done(READ_AS_TEXT)

    def _system_chooser(self) -> QComboBox:
        """The loaded systems (shown by their names; a system not loaded yet may be typed)."""
        combo = QComboBox()
        combo.setEditable(True)
        combo.setToolTip("The system whose output these scores are of.")
        for system in self.question.systems:
            combo.addItem(system.shown, system.name)
        chosen = next(
            (i for i, s in enumerate(self.question.systems) if s.name == self.question.system), -1
        )
        combo.setCurrentIndex(chosen)
        combo.currentTextChanged.connect(self._on_changed)
        return combo

    def _on_name_edited(self, row: int) -> None:
        """A new name takes the direction of its scores loaded already, or the one its name
        suggests, unless the user chose the direction of this row."""
        if row not in self._set_by_user:
            name = self.name_edits[row].text().strip().lower()
            higher = self.question.loaded.get(name, not lower_is_better(name))
            self.lower_boxes[row].setChecked(not higher)
        self._on_changed()

    def _on_direction_clicked(self, row: int) -> None:
        self._set_by_user.add(row)
        self._on_changed()

    def chosen_system(self) -> str | None:
        """The system chosen: a loaded one's name as scores files give it, or the text typed."""
        if self.system is None:
            return None
        text = self.system.currentText().strip()
        index = self.system.findText(text)
        return str(self.system.itemData(index)) if index >= 0 else (text or None)

    def sources(self) -> list[ScoreSource]:
        """The answer as the dialog stands: one source per ticked row."""
        system = self.chosen_system()
        offer = self.question.offer
        return [
            ScoreSource(
                self.question.path,
                choice.column,
                self.name_edits[row].text().strip().lower(),
                system,
                not self.lower_boxes[row].isChecked(),
            )
            for row, choice in enumerate(offer.choices)
            if self.tick_boxes[row].isChecked()
        ]

    def problem(self) -> str | None:
        """Why the answer cannot be taken yet, or None."""
        return self.question.problem(self.sources())

    def _on_changed(self) -> None:
        problem = self.problem()
        self.problem_label.setText(problem or "")
        self.problem_label.setVisible(problem is not None)
        self.ok_button.setEnabled(problem is None)

    def accept(self) -> None:
        """Close with the answer, unless it cannot be taken (then say why and stay)."""
        self._on_changed()
        if self.problem() is None:
            super().accept()


def ask_scores(parent: QWidget, question: ScoresQuestion) -> list[ScoreSource] | Role | None:
    """What to load from a scores file; a role if the user says it is a translation of that
    role; None if the user leaves it out (Cancel)."""
    dialog = ScoresDialog(question, parent)
    result = dialog.exec()
    answer: list[ScoreSource] | Role | None = None
    if result == QDialog.DialogCode.Accepted.value:
        answer = dialog.sources()
    elif result == READ_AS_TEXT:
        answer = dialog.read_as
    dialog.deleteLater()
    return answer
