"""The Breakdown view's work: one breakdown of the analysis shown, on its own worker thread.

A breakdown bootstraps every group again (:mod:`mtgui.engine.breakdown`), which takes about as
long as the analysis itself, so it never runs on the GUI thread: :class:`BreakdownController`
starts it on a :class:`~mtgui.app.runs.RunController` (a new one cancels the one under way),
reports its progress, and hands over the finished :class:`~mtgui.engine.breakdown.Breakdown`.
Its groups are made on the worker too (``length`` tokenizes the reference).

The groups are resampled with the analysis's own settings: its seed, its level, its correction
and the unit it was *asked* for, resolved on each group's documents, as a run on the group
alone would (``auto`` resamples the documents of a group that has enough of them).

Under a correction with the family "all" (``--family all``), the breakdown's groups join the
whole test set's family, exactly as ``mtgui eval --by KEY --family all`` joins them: B is
raised for the joined family by the command line's rule
(:meth:`~mtgui.engine.resampling.settings.BootstrapSettings.enough_for`; the whole test set is
then bootstrapped again with that B, here on the worker), and every pair of the whole set and
of the groups is decided anew in one family (:func:`~mtgui.engine.breakdown.joined_family`;
both in :func:`~mtgui.engine.breakdown.iter_joined_breakdown`).
The whole test set so decided is handed over with the breakdown (:attr:`BreakdownMade.whole`),
for the window to show in place of the analysis's own verdicts.
"""

from __future__ import annotations

import time
from collections.abc import Generator
from dataclasses import dataclass, replace
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject, Signal

from mtgui.app.runs import RunController
from mtgui.engine.analysis import AnalysisResult
from mtgui.engine.breakdown import Breakdown, BreakdownProgress, iter_joined_breakdown
from mtgui.engine.statistics import (
    DEFAULT_LENGTH_EDGES,
    LENGTH,
    Grouping,
    attribute_keys,
    group_by_attribute,
    group_by_length,
)
from mtgui.io.labels import read_label_file

LABELS_PREFIX = "labels:"
"""How a key names a label file the user chose: ``labels:/path/to/domains.tsv``."""


def label_key(path: Path) -> str:
    """The key of a label file (see :mod:`mtgui.io.labels` for the file's form)."""
    return f"{LABELS_PREFIX}{path}"


def key_name(key: str) -> str:
    """What a breakdown by ``key`` is called: a label file's name without its extension (as
    ``mtgui eval --by FILE`` calls it), else the key itself."""
    return Path(key.removeprefix(LABELS_PREFIX)).stem if key.startswith(LABELS_PREFIX) else key


def breakdown_keys(result: AnalysisResult) -> tuple[str, ...]:
    """What the result's segments can be grouped by: the documents' attributes, then length."""
    return (*attribute_keys(result.corpus.test_set), LENGTH)


@dataclass(frozen=True)
class BreakdownMade:
    """A breakdown, and the whole test set decided in one family with its groups (``whole``,
    None unless the family is "all" under a correction: then the analysis's own verdicts are
    not those of the family any more)."""

    breakdown: Breakdown
    whole: AnalysisResult | None = None


def iter_result_breakdown(
    result: AnalysisResult, by: str, edges: tuple[int, ...] = DEFAULT_LENGTH_EDGES
) -> Generator[BreakdownProgress, None, Breakdown]:
    """The breakdown of ``result`` by ``by`` (an attribute, ``length``, or a label file's
    :func:`label_key`, read here on the worker), resampled with the result's settings and the
    unit it asked for (see :func:`iter_breakdown_made`)."""
    made = yield from iter_breakdown_made(result, by, edges)
    return made.breakdown


def iter_breakdown_made(
    result: AnalysisResult, by: str, edges: tuple[int, ...] = DEFAULT_LENGTH_EDGES
) -> Generator[BreakdownProgress, None, BreakdownMade]:
    """The breakdown of ``result`` by ``by``; under the family "all" with a correction, also
    the whole test set decided in one family with the breakdown's groups, as ``mtgui eval --by
    KEY --family all`` decides it (:func:`~mtgui.engine.breakdown.iter_joined_breakdown`)."""
    grouping = _grouping(result, by, edges)
    breakdown, whole = yield from iter_joined_breakdown(
        result.corpus, result.statistics, result.bootstrap, grouping
    )
    if whole is None:
        return BreakdownMade(breakdown)
    return BreakdownMade(breakdown, replace(result, bootstrap=whole))


def _grouping(result: AnalysisResult, by: str, edges: tuple[int, ...]) -> Grouping:
    """The groups of ``result``'s segments by ``by``."""
    test_set, statistics = result.corpus.test_set, result.statistics
    if by.startswith(LABELS_PREFIX):
        return read_label_file(Path(by.removeprefix(LABELS_PREFIX))).grouping(test_set)
    if by == LENGTH:
        return group_by_length(test_set, statistics.settings, edges)
    return group_by_attribute(test_set, by)


class BreakdownController(QObject):
    """Runs one breakdown at a time of the result it is given."""

    progress_changed = Signal(int, int)  # thousandths done, 1000
    status_changed = Signal(str)
    finished = Signal(object)  # the Breakdown, with the result it was made from: see ``source``
    whole_changed = Signal(object)  # BreakdownMade.whole of the breakdown finished (or None)
    failed = Signal(str)
    running_changed = Signal(bool)

    def __init__(self, parent: QObject | None = None, synchronous: bool = False) -> None:
        super().__init__(parent)
        self.runs = RunController(self, synchronous)
        self.source: AnalysisResult | None = None  # the result of the breakdown last finished
        self.whole: AnalysisResult | None = None  # source decided with its groups (family all)
        self._started_from: AnalysisResult | None = None
        self._started = 0.0
        self.runs.progress_changed.connect(self._on_runs_progress_changed)
        self.runs.finished.connect(self._on_runs_finished)
        self.runs.failed.connect(self.failed)
        self.runs.running_changed.connect(self._on_runs_running_changed)
        application = QCoreApplication.instance()
        if application is not None:  # a breakdown under way ends with the application
            application.aboutToQuit.connect(self.runs.abort_all)

    @property
    def running(self) -> bool:
        """Whether a breakdown is under way."""
        return self.runs.running

    def start(self, result: AnalysisResult, by: str) -> None:
        """Break ``result`` down by ``by`` (cancelling the breakdown under way)."""
        self._started_from, self._started = result, time.monotonic()
        self.runs.start(lambda: iter_breakdown_made(result, by))
        self.status_changed.emit(f"Breaking the results down by {key_name(by)}...")

    def cancel(self) -> None:
        """Stop the breakdown under way."""
        if self.runs.running:
            self.runs.cancel()
            self.status_changed.emit("Cancelled.")

    def _on_runs_progress_changed(self, snapshot: object) -> None:
        if not isinstance(snapshot, BreakdownProgress):
            return
        self.progress_changed.emit(int(snapshot.fraction * 1000), 1000)
        if snapshot.phase == "nist":
            self.status_changed.emit("Counting the references' n-grams for NIST...")
        elif snapshot.phase == "whole":
            self.status_changed.emit(
                f"The whole test set again, with more resamples for the larger family: "
                f"{snapshot.done:,} of {snapshot.total:,}"
            )
        else:
            self.status_changed.emit(
                f"Group {snapshot.step + 1} of {snapshot.steps} ({snapshot.label}): "
                f"{snapshot.done:,} of {snapshot.total:,} resamples"
            )

    def _on_runs_finished(self, made: BreakdownMade) -> None:
        breakdown = made.breakdown
        self.source, self.whole = self._started_from, made.whole
        seconds = time.monotonic() - self._started
        self.progress_changed.emit(1000, 1000)
        self.status_changed.emit(
            f"Done in {seconds:.1f} s: {len(breakdown.groups)} group"
            f"{'' if len(breakdown.groups) == 1 else 's'} by {breakdown.by}"
            + (
                "; the whole test set's verdicts decided again with them (one family)."
                if made.whole is not None
                else "."
            )
        )
        self.finished.emit(breakdown)
        self.whole_changed.emit(made.whole)

    def _on_runs_running_changed(self) -> None:
        self.running_changed.emit(self.runs.running)
