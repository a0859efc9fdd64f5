"""The analysis of what is loaded: its runs, the result shown, and whether that is current.

:class:`AnalysisController` starts an analysis on a worker thread whenever the files or the
settings change (a burst of setting changes starts one run, :data:`RERUN_DELAY_MS` after the
last), waits for files still being read, reports the run's progress (with the time left,
:mod:`mtgui.app.estimate`) and keeps the result. It also keeps what the result shown was made
from, and says above the views when that is not what the files and settings give now, and what
happens next (:mod:`mtgui.app.staleness`). It keeps the statistics of its runs
(:class:`~mtgui.engine.statistics.cache.StatisticsCache`), so that a run after a change of B,
seed, level, unit or correction only resamples, and one more metric extracts only that metric.

Assembling the corpus (``Workspace.corpus()``) stays on the GUI thread: it only puts the
streams already read side by side, 3 ms for 20 systems of 100,000 segments (measured with
``bench/bench_gui_large.py``'s files), and its problems must be known before a run starts.
"""

from __future__ import annotations

import time
from collections.abc import Generator

from PySide6.QtCore import QObject, QTimer, Signal

from mtgui.app import preload  # noqa: F401  (before any run's thread imports them)
from mtgui.app.estimate import TimeLeft
from mtgui.app.kernels import waiting_note
from mtgui.app.loading import LoadedFiles
from mtgui.app.runs import RunController
from mtgui.app.staleness import RunInputs, describe_stale
from mtgui.app.window_interface import SettingsSource
from mtgui.engine.analysis import AnalysisResult, iter_analysis
from mtgui.engine.core import Corpus, InputError
from mtgui.engine.metrics import LABELS, REGISTRY
from mtgui.engine.resampling import BootstrapProgress, Unit
from mtgui.engine.scale import check_scale, on_scale, scaled_scores
from mtgui.engine.statistics import StatisticsCache, StatisticsProgress, prepare_segment_scores
from mtgui.io.window_words import window_message

RERUN_DELAY_MS = 300
"""Settings changes within this time start one run, not several."""


class AnalysisController(QObject):
    """Runs the analysis of the files loaded with the settings set, and keeps its result."""

    status_changed = Signal(str)  # a message for the status line
    problem_changed = Signal(str)  # why the analysis cannot run or stopped ("": none)
    stale_changed = Signal(str)  # why the results shown are not those of now ("": they are)
    cancellable_changed = Signal(bool)  # a run is under way or about to start
    running_changed = Signal(bool)
    run_started = Signal()  # the partial results of a new run start coming
    run_dropped = Signal()  # the run under way ended without a result: show the last again
    progress_changed = Signal(int, int)  # steps done, steps in all
    scores_changed = Signal(object)  # the resample scores drawn so far, by (system, metric)
    result_changed = Signal(object)  # the AnalysisResult now shown
    result_cleared = Signal()  # no result is shown any more (File > New): views let theirs go
    notes_changed = Signal(str)  # what to know about how the result was made ("": nothing)

    def __init__(
        self,
        files: LoadedFiles,
        settings: SettingsSource,
        parent: QObject | None = None,
        synchronous: bool = False,
    ) -> None:
        super().__init__(parent)
        self._result: AnalysisResult | None = None  # as the analysis made it: BLEU on 0-1
        self._scaled: AnalysisResult | None = None  # the same on the scale shown
        self._bleu_scale = 1
        self.runs = RunController(self, synchronous)
        # Used by the runs' worker threads; this thread only creates and clears it.
        self._statistics_cache = StatisticsCache()
        self._files = files
        self._settings = settings
        self._shown_inputs: RunInputs | None = None  # what the result shown was made from
        self._run_inputs: RunInputs | None = None  # what the run under way is made from
        self._next_run = ""  # what the analysis does next: a key of staleness.NEXT_RUN
        self._stale_text = ""
        self._run_metrics: tuple[str, ...] = ()  # the metrics of the run under way
        self._left_out: list[str] = []  # notes on metrics ticked whose scores are not loaded
        self._blocked = False  # this controller's "cannot run" problem is the one shown
        self._started = 0.0
        self._time_left = TimeLeft()
        self._rerun = QTimer(self, singleShot=True, interval=RERUN_DELAY_MS)
        self._rerun.timeout.connect(self.run)
        self.runs.progress_changed.connect(self._on_runs_progress_changed)
        self.runs.finished.connect(self._on_runs_finished)
        self.runs.failed.connect(self._on_runs_failed)
        self.runs.running_changed.connect(self._on_runs_running_changed)

    @property
    def result(self) -> AnalysisResult | None:
        """The last analysis finished, as the views show it: BLEU and M-BLEU on the scale
        chosen (:meth:`set_bleu_scale`)."""
        if self._scaled is None and self._result is not None:
            self._scaled = on_scale(self._result, self._bleu_scale)
        return self._scaled

    @result.setter
    def result(self, result: AnalysisResult | None) -> None:
        """Show ``result``, made on the 0-1 scale (as the analysis makes it).

        None (a new project) also lets go of the statistics kept for the next runs, and the
        views of the result they show (:attr:`result_cleared`): the result is held here only.
        """
        self._result, self._scaled = result, None
        if result is None:
            self._statistics_cache.clear()
            self.result_cleared.emit()

    @property
    def statistics_cache(self) -> StatisticsCache:
        """The statistics kept between runs (for tests and benchmarks: the runs use it)."""
        return self._statistics_cache

    @property
    def bleu_scale(self) -> int:
        """1 or 100: BLEU and M-BLEU on mteval's 0-1 or sacreBLEU's 0-100 scale."""
        return self._bleu_scale

    def set_bleu_scale(self, scale: int) -> None:
        """Read BLEU and M-BLEU on another scale: the result shown changes at once, no run.

        The result shown stays current (the scale is applied to it exactly); a study made on
        the other scale is said to be behind, as after any change of settings.
        """
        if check_scale(scale) == self._bleu_scale:
            return
        self._bleu_scale, self._scaled = scale, None
        if self._shown_inputs is not None:
            self._shown_inputs = RunInputs(
                self._shown_inputs.workspace, {**self._shown_inputs.settings, "bleu_scale": scale}
            )
        if self.runs.running:
            self.run_started.emit()  # the histograms start again, on the new scale
        if self.result is not None:
            self.result_changed.emit(self.result)
        self.show_staleness()

    @property
    def stale_text(self) -> str:
        """Why the results shown are not those of the files and settings now ("": they are)."""
        return self._stale_text

    def inputs(self) -> RunInputs:
        """What an analysis started now would be made from."""
        settings = {**self._settings.settings().to_dict(), "bleu_scale": self._bleu_scale}
        return RunInputs(self._files.workspace, settings)

    def shown_segments(self) -> int | None:
        """The test set's size, if the result shown is of the files loaded now."""
        shown = self._shown_inputs
        if self.result is None or (shown is not None and not shown.same_files(self.inputs())):
            return None
        return self.result.corpus.test_set.size

    def run(self) -> None:
        """Start the analysis of what is loaded (cancelling a run under way).

        While files are being read, the analysis waits for them (it starts when they are).
        """
        self._rerun.stop()
        if self._files.busy:  # a run under way goes on: its results are shown as the previous
            self._next_run = "loading"
            self.show_staleness()
            return
        inputs = self.inputs()
        try:
            corpus = self._files.workspace.corpus()
            settings = self._settings.settings()
            metrics = settings.metrics
            if not metrics:
                raise InputError("no metric is chosen.", hint="Tick at least one metric.")
            metrics, self._left_out = loaded_metrics(metrics, corpus)
            metric_settings = settings.metric_settings()
            resampling = settings.bootstrap_settings()
        except InputError as error:
            self._cannot_run(error)
            return
        self.problem_changed.emit("")
        self._blocked = False
        self.run_started.emit()
        self._started = time.monotonic()
        self._time_left.reset()
        self._run_inputs, self._next_run = inputs, "running"
        cache, scale = self._statistics_cache, self._bleu_scale
        self._run_metrics = tuple(metrics)
        self.runs.start(
            lambda: iter_shown(
                iter_analysis(corpus, metrics, metric_settings, resampling, cache), scale
            )
        )
        self.progress_changed.emit(0, 1)  # empty until the first step is done
        self.status_changed.emit(
            f"Analysing: scoring {len(corpus.systems)} systems with "
            f"{', '.join(LABELS.get(m, m) for m in metrics)}..." + waiting_note(metrics)
        )
        self.show_staleness()

    def _cannot_run(self, error: InputError) -> None:
        """What is loaded cannot be analysed (yet): say why, and that the results are behind.

        With nothing loaded there is nothing to say: the analysis takes back its own earlier
        problem, if it showed one, but never another's (a session just refused at start, whose
        message must stay).
        """
        self._drop_run()
        entries = self._files.workspace.entries
        loaded = bool(entries)
        reading = sum(1 for entry in entries if entry.reading)
        self._next_run = "blocked" if loaded else "empty"
        if reading:  # a slow file the others went on without: what it holds may be missing
            self._next_run = "loading"
            if self._blocked:  # its own earlier problem only
                self.problem_changed.emit("")
            self.status_changed.emit(
                f"Waiting for {reading:,} file{'s' if reading != 1 else ''} still being read: "
                "the analysis starts when they are."
            )
        elif loaded:
            self.problem_changed.emit(window_message(error))
            self.status_changed.emit("The analysis cannot start: see the message above the views.")
        elif self._blocked:
            self.problem_changed.emit("")
            self.status_changed.emit("Drop reference and system files on the window to start.")
        self._blocked = loaded and not reading
        self.show_staleness()

    def rerun_soon(self) -> None:
        """Run again after a short pause (several changes at once start one run)."""
        self._rerun.start()
        self._next_run = "pending"
        self.show_staleness()

    def cancel(self) -> None:
        """Stop the analysis under way, or about to start."""
        if not (self.runs.running or self._rerun.isActive()):
            return
        self._rerun.stop()
        self._drop_run()
        self._next_run = "cancelled"
        self.show_staleness()
        self.status_changed.emit(
            "Cancelled: the views show the results of the previous settings (see the note "
            "above them)."
            if self._stale_text
            else "Cancelled."
        )

    def _drop_run(self) -> None:
        """Stop the run under way, if any, and have the views show the last result again
        (its partial histograms would otherwise stay beside the last result's tables)."""
        if self.runs.running:
            self.runs.cancel()
            self.run_dropped.emit()

    def stop(self) -> None:
        """Start no run any more (the application closes)."""
        self._rerun.stop()

    def show_staleness(self) -> None:
        """Say whether what the views show is what the files and settings give now."""
        self.cancellable_changed.emit(self.runs.running or self._rerun.isActive())
        text, state = "", self._next_run
        if state == "pending" and self._files.busy:
            state = "loading"  # the run about to start will wait for the files
        if self.result is not None and self._shown_inputs is not None:
            text = describe_stale(self._shown_inputs, self.inputs(), state, LABELS)
        self._stale_text = text
        self.stale_changed.emit(text)

    def _on_runs_running_changed(self) -> None:
        running = self.runs.running
        self.cancellable_changed.emit(running or self._rerun.isActive())
        self.running_changed.emit(running)

    def _on_runs_progress_changed(self, snapshot: object) -> None:
        if isinstance(snapshot, StatisticsProgress):
            self.progress_changed.emit(snapshot.done, snapshot.total)
            self.status_changed.emit(
                f"Scoring: {snapshot.done} of {snapshot.total} systems ({snapshot.system})"
                + waiting_note(self._run_metrics)
            )
        elif isinstance(snapshot, BootstrapProgress):
            self.progress_changed.emit(snapshot.done, snapshot.total)
            self.status_changed.emit(self._time_left.message(snapshot))
            if snapshot.phase == "bootstrap" and snapshot.scores:
                self.scores_changed.emit(scaled_scores(snapshot.scores, self._bleu_scale))

    def _on_runs_finished(self, result: AnalysisResult) -> None:
        self.result = result
        if self._run_inputs is not None:  # the run's scale was that of its start: now this one
            scaled = {**self._run_inputs.settings, "bleu_scale": self._bleu_scale}
            self._run_inputs = RunInputs(self._run_inputs.workspace, scaled)
        self._shown_inputs, self._run_inputs = self._run_inputs, None
        if self._next_run == "running":
            self._next_run = ""
        self.result_changed.emit(self.result)
        seconds = time.monotonic() - self._started
        notes = " ".join(
            (*self._left_out, *result.corpus.notes, *result.bootstrap.notes, *unit_note(result))
        )
        self.notes_changed.emit(f"Note: {notes}" if notes else "")
        settings = result.bootstrap.settings
        self.status_changed.emit(
            f"Done in {seconds:.1f} s: {len(result.corpus.systems)} systems, "
            f"{result.corpus.test_set.size} segments, {settings.resamples:,} resamples of "
            f"{settings.unit.value}s"
            + (f" (raised from {settings.raised_from:,})" if settings.raised_from else "")
            + "."
            + _unread_words(self._shown_inputs)
            + (" See the note above the views." if notes else "")
        )
        self.show_staleness()

    def _on_runs_failed(self, message: str) -> None:
        self.run_dropped.emit()
        self.problem_changed.emit(message)
        if self._next_run == "running":
            self._next_run = "failed"
        self.status_changed.emit("The analysis stopped: see the message above the views.")
        self.show_staleness()


def iter_shown(
    run: Generator[object, None, AnalysisResult], scale: int
) -> Generator[object, None, AnalysisResult]:
    """``run``, then what the views read of its result, made on the run's worker thread.

    The Segments view shows two systems' segment scores: on 100,000 segments, scoring them
    would stall the GUI thread for 40 ms at every pair. So every system's are computed here
    once the run ends, on the BLEU ``scale`` the views show (the statistics keep them,
    :meth:`~mtgui.engine.statistics.rows.Statistics.segment_scores`); the totals behind every
    corpus score the bootstrap has kept already. Closing this generator closes ``run``.
    """
    result = yield from run
    yield from prepare_segment_scores(on_scale(result, scale).statistics)
    return result


def loaded_metrics(metrics: tuple[str, ...], corpus: Corpus) -> tuple[tuple[str, ...], list[str]]:
    """The metrics ticked that can run, and notes on those left out: a metric of loaded scores
    (human, comet...) without scores, its file not read (yet), or gone missing from a session.
    Human ticked without scores is left out in silence, as it always was.

    Raises
    ------
    InputError
        If no metric is left.
    """
    loaded = corpus.external_metrics()
    kept = tuple(m for m in metrics if m in loaded or (m in REGISTRY and m != "human"))
    missing = [m for m in metrics if m not in kept and m != "human"]
    notes = [
        f"{name} is ticked, but no scores of that name are loaded (see the files panel): "
        "it is left out."
        for name in missing
    ]
    if not kept and missing:
        raise InputError(
            f"no scores called {missing[0]} are loaded (see the files panel).",
            hint="Tick another metric, or load its scores file again.",
        )
    if not kept:  # Human alone, without human scores: nothing to run (the engine needs one)
        raise InputError(
            "Human is the only metric ticked, and no human scores are loaded.",
            hint="Tick another metric, or drop a file of human scores on the window.",
        )
    return kept, notes


def _unread_words(inputs: RunInputs | None) -> str:
    """The files that could not be read, for the status line after a run: a run without them
    is still done, but the user must not take it for one with them."""
    unread = [] if inputs is None else [e.path.name for e in inputs.workspace.entries if e.problem]
    if not unread:
        return ""
    shown = ", ".join(unread[:3]) + (", ..." if len(unread) > 3 else "")
    files, they = ("file was", "it") if len(unread) == 1 else ("files were", "they")
    return (
        f" {len(unread)} {files} left out, as {they} could not be read ({shown}): see the "
        "files panel."
    )


def unit_note(result: AnalysisResult) -> list[str]:
    """Above the results, when whole documents were resampled: the same test set read as plain
    text (no documents) resamples single segments and gives other intervals, and a user
    comparing the two copies must see why at once, not only in the line under the views."""
    if result.bootstrap.settings.unit is not Unit.DOCUMENT:
        return []
    documents = len(result.corpus.test_set.documents)
    return [
        f"Whole documents were resampled ({documents:,} documents): the same segments read as "
        "plain text, which has no documents, resample single segments and give other, usually "
        "narrower, intervals."
    ]
