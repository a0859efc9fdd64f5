"""Studies of the analysis shown, on their own worker thread, and whether the study shown is
of the files and settings set now.

A study starts from the last finished analysis, so it is refused while that analysis is not
of the files and settings set now: its result would say it was made from settings it was
not. Once shown, a study says when the files or settings change (the Studies view shows the
note, :attr:`StudyController.stale_changed`).

The study's generator is made on the GUI thread, so that a study that cannot run says why at
once: making it only checks and gathers what the study needs (0.2 ms for 3,000 segments and
ten systems); the study's work runs on its worker thread.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from mtgui.app.analysis import AnalysisController
from mtgui.app.runs import RunController
from mtgui.app.staleness import RunInputs, describe_stale
from mtgui.app.window_interface import SettingsSource
from mtgui.engine.core import Corpus, InputError
from mtgui.engine.metrics import LABELS
from mtgui.engine.statistics import Statistics
from mtgui.engine.studies import HUMAN, iter_study
from mtgui.io.window_words import window_message

BEHIND = (
    "The analysis shown is not that of the files and settings set now (see the note above "
    "the views): press Run (Ctrl+R) first; a study starts from it."
)


class StudyController(QObject):
    """Runs the study the user asks for on the analysis shown, one at a time."""

    progress_changed = Signal(object)  # the study's latest progress (with its partial result)
    finished = Signal(object)  # the study
    running_changed = Signal(bool)
    problem_changed = Signal(str)  # why the study cannot run or stopped
    refused = Signal(str)  # the analysis is behind: a note to show until it is new
    stale_changed = Signal(str)  # why the study shown is not of now ("": it is, or none shown)

    def __init__(
        self,
        analysis: AnalysisController,
        settings: SettingsSource,
        parent: QObject | None = None,
        synchronous: bool = False,
    ) -> None:
        super().__init__(parent)
        self.runs = RunController(self, synchronous)
        self._analysis = analysis
        self._settings = settings
        self._started: RunInputs | None = None  # what the study under way is made from
        self._shown: RunInputs | None = None  # what the study shown was made from
        self.runs.progress_changed.connect(self._on_runs_progress_changed)
        self.runs.finished.connect(self._on_runs_finished)
        self.runs.failed.connect(self.problem_changed)
        self.runs.running_changed.connect(self._on_runs_running_changed)
        analysis.stale_changed.connect(self._on_analysis_stale_changed)

    def start(self, name: str, repeats: int, human: str = "") -> None:
        """Run study ``name`` on the last finished analysis (``repeats``: see ``iter_study``);
        ``human`` names the metric of loaded scores that plays the humans' part in the
        agreement study ("": human if loaded, else the first loaded, :func:`human_metric`)."""
        result = self._analysis.result
        if result is None:
            self.problem_changed.emit("Load a reference and a system first: a study needs scores.")
            return
        if self._analysis.stale_text:
            self.refused.emit(BEHIND)  # goes when the analysis is new
            return
        try:
            settings = self._settings.settings()
            metric_settings = settings.metric_settings()
            bootstrap = settings.bootstrap_settings()
            human = human or human_metric(result.corpus, result.statistics)
            study = iter_study(
                name, result.corpus, result.statistics, metric_settings, bootstrap, repeats, human
            )
        except InputError as error:
            self.problem_changed.emit(window_message(error))
            return
        self._started = self._analysis.inputs()
        self.runs.start(lambda: study)

    def cancel(self) -> None:
        """Stop the study under way."""
        self.runs.cancel()

    def _on_runs_progress_changed(self, snapshot: object) -> None:
        self.progress_changed.emit(snapshot)
        self._on_study_shown()

    def _on_runs_finished(self, study: object) -> None:
        self.finished.emit(study)
        self._on_study_shown()

    def _on_runs_running_changed(self) -> None:
        self.running_changed.emit(self.runs.running)

    def _on_study_shown(self) -> None:
        """A study of the inputs it started from is shown (partly or whole)."""
        self._shown = self._started
        self._analysis.show_staleness()

    def _on_analysis_stale_changed(self) -> None:
        note = ""
        if self._shown is not None:
            now = self._analysis.inputs()
            note = describe_stale(self._shown, now, "study", LABELS, "This study is")
        self.stale_changed.emit(note)


def human_metric(corpus: Corpus, statistics: Statistics) -> str:
    """The metric that plays the humans' part by default: ``human`` if its scores were
    analysed, else the first metric of loaded scores that was (``human`` when none was: the
    study then says what it needs)."""
    analysed = [m.name for m in statistics.metrics]
    loaded = [name for name in corpus.external_metrics() if name in analysed]
    return HUMAN if HUMAN in loaded or not loaded else loaded[0]
