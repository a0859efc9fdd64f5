"""Campaigns shown: the main window's Campaign tab (its test sets) and, for File > Open
campaign..., a campaign file run on a worker thread, its sets and their aggregate in a window
of their own.

The window shows what ``mtgui campaign`` computes and nothing more
(:class:`~mtgui.report.campaign_run.CampaignOutcome`): for the metric chosen, a grid of systems
(rows) by test sets (columns), each cell the system's score in that set, coloured by its rank
cluster there (1 the best, as the WMT findings' tables), and the aggregate of every pair of
systems (the sets where x is better or worse, the mean delta with its interval and p-value,
the combined verdict, and on at least how many sets x is better or worse with the
family-wise error controlled). The report exports as ``mtgui campaign --html`` writes it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QAction, QCloseEvent, QColor, QKeySequence, QPalette, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMainWindow,
    QProgressBar,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from mtgui.app.campaign import CampaignRun, CampaignSteps, campaign_steps
from mtgui.app.runs import RunController
from mtgui.engine.core import InputError
from mtgui.io.window_words import window_message
from mtgui.io.writers import check_writable, write_text_atomic
from mtgui.report.campaign import aggregate_report
from mtgui.report.campaign_run import CampaignOutcome, CampaignProgress
from mtgui.report.cells import four_decimals
from mtgui.views.common.actions import make_action
from mtgui.views.common.dialogs import ask_report_file
from mtgui.views.common.palette import blend, contrast_ratio, is_dark, problem_style, series_color
from mtgui.views.common.save_folder import start_folder
from mtgui.views.common.screen_fit import fit_window

TINT = 0.55
"""How much of the table's background is mixed into a cluster's colour (text stays legible)."""

AGGREGATE_HEADER = [
    *("x", "y", "sets", "x better", "x worse", "mean delta", "interval", "p"),
    *("verdict", "x better on at least", "x worse on at least"),
]


def cluster_colors(cluster: int, base: QColor, dark: bool) -> tuple[QColor, QColor]:
    """A rank cluster's background (the system palette's colour of that number, tinted with
    the table's background) and the text colour, black or white, that reads best on it."""
    hue = QColor(*series_color(cluster - 1, dark))
    background = blend(hue, base, TINT)
    black, white = QColor(0, 0, 0), QColor(255, 255, 255)
    darker = contrast_ratio(black, background) >= contrast_ratio(white, background)
    text = black if darker else white
    return background, text


def score_cell(report: dict[str, Any], system: str, metric: str) -> tuple[float | None, int | None]:
    """A system's score in one set's eval report and its rank cluster (None where absent)."""
    for entry in report.get("rankings", {}).get(metric, []):
        if entry["system"] == system:
            return float(entry["score"]), int(entry["cluster"])
    for found in report["systems"]:
        if found["name"] == system:
            score = found["scores"].get(metric, {}).get("score")
            return (None if score is None else float(score)), None
    return None, None


def aggregate_cells(pair: dict[str, Any]) -> list[str]:
    """One pair's aggregate (as in the JSON report) as the table's texts."""
    n = pair["sets"]
    return [
        pair["x"],
        pair["y"],
        str(n),
        str(pair["sets_better"]),
        str(pair["sets_worse"]),
        four_decimals(pair["mean_delta"], signed=True),
        f"[{four_decimals(pair['ci_low'], True)}, {four_decimals(pair['ci_high'], True)}]",
        four_decimals(pair["p_value"]),
        pair["verdict"],
        f"{pair['better_on_at_least']} of {n}",
        f"{pair['worse_on_at_least']} of {n}",
    ]


def _read_only_table() -> QTableWidget:
    table = QTableWidget()
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionMode(QAbstractItemView.SelectionMode.ContiguousSelection)
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    return table


def rows_height(table: QTableWidget) -> int:
    """The height that shows every row of ``table`` and no more: its header, its rows, its
    frame and room for a horizontal scroll bar. A campaign of many systems and few shared pairs
    left the grid a few rows high above a tall, mostly empty table of pairs."""
    scroll_bar = table.horizontalScrollBar().sizeHint().height()
    header = table.horizontalHeader().sizeHint().height()
    return header + table.verticalHeader().length() + 2 * table.frameWidth() + scroll_bar


class CampaignPanel(QWidget):
    """One campaign: its run (progress, cancel, errors in words), then its grid and aggregate;
    the main window's Campaign tab (its test sets) and the campaign window (a file) show it."""

    def __init__(self, parent: QWidget | None = None, synchronous: bool = False) -> None:
        super().__init__(parent)
        self.outcome: CampaignOutcome | None = None
        self._followed = ""  # the window's metric, followed (follow_metric)
        self.runs = RunController(self, synchronous=synchronous)
        self.choose_report_file: Callable[[str], Path | None] = self._ask_report_file
        self._build()
        self.runs.progress_changed.connect(self._on_progress)
        self.runs.finished.connect(self._on_finished)
        self.runs.failed.connect(self._on_failed)
        self.runs.cancelled.connect(self._on_cancelled)
        self.runs.running_changed.connect(self._on_running_changed)

    def _build(self) -> None:
        self.status = QLabel("")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.progress = QProgressBar()
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(self.runs.cancel)
        running = QHBoxLayout()
        running.addWidget(self.progress, 1)
        running.addWidget(self.cancel_button)
        self.metric_box = QComboBox()
        self.metric_box.currentTextChanged.connect(self._show_metric)
        self.metric_row = QWidget()  # hidden where the window's own metric chooser is followed
        chooser = QHBoxLayout(self.metric_row)
        chooser.setContentsMargins(0, 0, 0, 0)
        chooser.addWidget(QLabel("Metric:"))
        chooser.addWidget(self.metric_box)
        chooser.addStretch(1)
        self.grid = _read_only_table()
        self.legend = QHBoxLayout()
        self.legend_labels: list[QLabel] = []
        self.aggregate = _read_only_table()
        self.notes = QLabel("")
        self.notes.setWordWrap(True)
        self.export_button = QPushButton("Export report (HTML)...")
        self.export_button.clicked.connect(self.export_html)
        self.export_button.setEnabled(False)
        self.buttons = QHBoxLayout()
        self.buttons.addStretch(1)
        self.buttons.addWidget(self.export_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.status)
        layout.addLayout(running)
        layout.addWidget(self.metric_row)
        layout.addWidget(QLabel("Scores per test set, coloured by rank cluster in that set:"))
        layout.addWidget(self.grid, 3)
        layout.addLayout(self.legend)
        self.aggregate_title = QLabel("Across the test sets:")
        layout.addWidget(self.aggregate_title)
        layout.addWidget(self.aggregate, 3)
        layout.addWidget(self.notes)
        layout.addLayout(self.buttons)

    # -- the run ------------------------------------------------------------------------------

    def start_run(self, run: CampaignRun, status: str) -> None:
        """Start ``run``, saying ``status`` until it reports (what was shown stays until the
        new one is done)."""
        self._set_status(status)
        self.progress.setRange(0, 0)
        self.runs.start(run)

    def _on_progress(self, snapshot: object) -> None:
        if not isinstance(snapshot, CampaignProgress):
            return
        steps = 1000  # a set's share of the bar, in steps: it moves within a set too
        self.progress.setRange(0, (snapshot.total + 1) * steps)
        self.progress.setValue(int((snapshot.done + snapshot.part) * steps))
        if snapshot.current:
            self._set_status(
                f"Analysing test set {snapshot.done + 1} of {snapshot.total}: {snapshot.current}"
            )
        else:
            self._set_status("Combining the test sets...")

    def _on_finished(self, outcome: object) -> None:
        if not isinstance(outcome, CampaignOutcome):
            return
        self.outcome = outcome
        count = len(outcome.sets)
        self._set_status(
            f"{outcome.name or outcome.path.name}: {count} test sets, "
            f"{len(outcome.systems())} systems; each set analysed as mtgui eval analyses it "
            "alone, then combined."
        )
        current = self.metric_box.currentText()
        self.metric_box.blockSignals(True)
        self.metric_box.clear()
        self.metric_box.addItems(outcome.metrics())
        self.metric_box.blockSignals(False)
        if self._followed in outcome.metrics():
            current = self._followed
        if current in outcome.metrics():
            self.metric_box.setCurrentText(current)
        report = aggregate_report(outcome.aggregate)
        self.notes.setText("\n".join(f"Note: {n}" for n in report["notes"]))
        self.notes.setVisible(bool(report["notes"]))
        self.export_button.setEnabled(True)
        self._show_metric(self.metric_box.currentText())

    def _on_failed(self, message: str) -> None:
        self._set_status(message, problem=True)

    def _on_cancelled(self) -> None:
        self._set_status("Cancelled: the campaign was not run to its end.")

    def _on_running_changed(self) -> None:
        running = self.runs.running
        self.progress.setVisible(running)
        self.cancel_button.setVisible(running)
        self.cancel_button.setEnabled(running)

    def follow_metric(self, metric: str) -> None:
        """Show ``metric`` (the metric the window's views show), when the campaign has it;
        the campaign's own chooser is then hidden (one chooser in a window)."""
        self.metric_row.setVisible(False)
        self._followed = metric
        if self.metric_box.findText(metric) >= 0:
            self.metric_box.setCurrentText(metric)

    def say(self, text: str, problem: bool = False) -> None:
        """Show ``text`` above the campaign (a problem in the problems' colour)."""
        self._set_status(text, problem)

    def _set_status(self, text: str, problem: bool = False) -> None:
        self.status.setStyleSheet(problem_style(self.palette()) if problem else "")
        self.status.setText(text)

    # -- what it shows ------------------------------------------------------------------------

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        """A new palette (dark or light): colour the grid and the legend again."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange and self.outcome is not None:
            self._show_metric(self.metric_box.currentText())

    def _show_metric(self, metric: str) -> None:
        if self.outcome is None or not metric:
            return
        self._fill_grid(self.outcome, metric)
        self._fill_aggregate(self.outcome, metric)

    def _fill_grid(self, outcome: CampaignOutcome, metric: str) -> None:
        systems, sets = outcome.systems(), outcome.sets
        self.grid.clear()
        self.grid.setRowCount(len(systems))
        self.grid.setColumnCount(len(sets))
        self.grid.setVerticalHeaderLabels(systems)
        self.grid.setHorizontalHeaderLabels([name for name, _ in sets])
        base = self.grid.palette().color(QPalette.ColorRole.Base)
        dark = is_dark(self.grid.palette())
        clusters: set[int] = set()
        for row, system in enumerate(systems):
            for column, (name, report) in enumerate(sets):
                score, cluster = score_cell(report, system, metric)
                item = QTableWidgetItem("" if score is None else four_decimals(score))
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if cluster is not None:
                    background, text = cluster_colors(cluster, base, dark)
                    item.setBackground(background)
                    item.setForeground(text)
                    item.setToolTip(f"{system} in {name}: rank cluster {cluster} (1 is the best)")
                    clusters.add(cluster)
                elif score is None:
                    item.setToolTip(f"{system} is not in {name}")
                self.grid.setItem(row, column, item)
        self._fill_legend(sorted(clusters), base, dark)

    def _fill_legend(self, clusters: Sequence[int], base: QColor, dark: bool) -> None:
        for label in self.legend_labels:
            self.legend.removeWidget(label)
            label.deleteLater()
        while self.legend.count():
            self.legend.takeAt(0)
        self.legend_labels = []
        caption = QLabel("Rank cluster in the set (systems in one cluster are not told apart):")
        caption.setWordWrap(True)  # a narrow Campaign tab: the caption wraps, the swatches stay
        self.legend_labels.append(caption)
        self.legend.addWidget(caption)
        for cluster in clusters:
            background, text = cluster_colors(cluster, base, dark)
            swatch = QLabel(f" {cluster}{' (best)' if cluster == 1 else ''} ")
            swatch.setStyleSheet(
                f"background: {background.name()}; color: {text.name()}; "
                "border: 1px solid #9aa5b1; padding: 1px 4px;"
            )
            self.legend_labels.append(swatch)
            self.legend.addWidget(swatch)
        self.legend.addStretch(1)

    def _fill_aggregate(self, outcome: CampaignOutcome, metric: str) -> None:
        pairs = [p for p in aggregate_report(outcome.aggregate)["pairs"] if p["metric"] == metric]
        self.aggregate.clear()
        self.aggregate.setRowCount(len(pairs))
        self.aggregate.setColumnCount(len(AGGREGATE_HEADER))
        self.aggregate.setHorizontalHeaderLabels(AGGREGATE_HEADER)
        self.aggregate.verticalHeader().setVisible(False)
        for row, pair in enumerate(pairs):
            for column, text in enumerate(aggregate_cells(pair)):
                item = QTableWidgetItem(text)
                if column >= 2:
                    item.setTextAlignment(
                        Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                    )
                self.aggregate.setItem(row, column, item)
        found = outcome.aggregate
        self.aggregate_title.setText(
            f"Across the test sets ({metric}): a stratified bootstrap over the sets "
            f"({found.resamples} resamples, correction {found.correction.value}); "
            '"better on at least k of n" controls the family-wise error (Dror et al. 2017).'
        )
        self.aggregate_title.setWordWrap(True)
        self.aggregate.setMaximumHeight(rows_height(self.aggregate))

    # -- export -------------------------------------------------------------------------------

    def _ask_report_file(self, title: str) -> Path | None:
        return ask_report_file(self, "html", start_folder() / title)

    def export_html(self) -> bool:
        """Write the campaign's HTML report where the user chooses (the file dialog asks
        before replacing a file; never over one of the campaign's inputs); True if written."""
        if self.outcome is None:
            return False
        path = self.choose_report_file(self.outcome.title)
        if path is None:
            return False
        try:
            check_writable(path, overwrite=True, inputs=self.outcome.inputs)
            write_text_atomic(path, self.outcome.html(datetime.now().astimezone()))
        except InputError as error:
            self._set_status(window_message(error), problem=True)
            return False
        except OSError as error:
            self._set_status(f"{path}: the report could not be written ({error}).", problem=True)
            return False
        self._set_status(f"The campaign's report was written to {path}.")
        return True


class CampaignWindow(CampaignPanel):
    """A campaign file's window: its run, grid and aggregate (:class:`CampaignPanel`), and a
    Close button."""

    def __init__(
        self, steps: CampaignSteps, parent: QWidget | None = None, synchronous: bool = False
    ) -> None:
        super().__init__(parent, synchronous)
        self.setWindowFlag(Qt.WindowType.Dialog)
        self.setWindowTitle("Campaign")
        self.resize(1000, 680)
        self._steps = steps
        self.path: Path | None = None
        close = QPushButton("Close")
        close.clicked.connect(self.close)
        self.buttons.addWidget(close)
        shortcut = QShortcut(QKeySequence(Qt.Key.Key_Escape), self)
        shortcut.activated.connect(self.close)

    def start(self, path: Path) -> None:
        """Run the campaign in ``path`` (what was shown stays until the new one is done)."""
        self.path = path
        self.setWindowTitle(f"Campaign: {path.name}")
        steps = self._steps
        self.start_run(lambda: steps(path), f"Reading {path.name}...")

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        """Closing stops the run (its thread ends at the next step of the set under way)."""
        self.runs.abort_all()
        super().closeEvent(event)


def open_campaign(parent: QWidget, path: Path, synchronous: bool = False) -> CampaignWindow | None:
    """Open a campaign window on ``path`` and start its run; None if this mtgui was started
    without the campaign code (see :mod:`mtgui.app.campaign`)."""
    steps = campaign_steps()
    if steps is None:
        return None
    window = CampaignWindow(steps, parent, synchronous)
    window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    screen = parent.screen()
    if screen is not None:  # the default size at 150% on a small screen: within its edges
        fit_window(window, screen.availableGeometry())
    window.show()
    window.start(path)
    return window


def open_campaign_action(window: QMainWindow) -> QAction:
    """File > Open campaign...: asks for a campaign file (TOML) and opens it."""
    action = make_action(window, "Open &campaign...", None)
    action.setToolTip(
        "Open a campaign file (TOML, as mtgui campaign reads): every test set analysed as one, "
        "then their aggregate."
    )
    action.setEnabled(campaign_steps() is not None)

    def ask_and_open() -> None:  # the window found through the action: no reference to it
        parent = action.parent()
        if not isinstance(parent, QWidget):
            return
        name, _ = QFileDialog.getOpenFileName(
            parent, "Open a campaign", str(start_folder()), "Campaign files (*.toml)"
        )
        if not name:
            return
        opener = getattr(parent, "open_campaign", None)  # the main window: as tabs if it can
        if callable(opener):
            opener(Path(name))
        else:
            open_campaign(parent, Path(name))

    action.triggered.connect(ask_and_open)
    return action
