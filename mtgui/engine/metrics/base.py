"""What every metric provides: per-segment statistics once, and a vectorised corpus score.

A metric turns each segment into one row of sufficient statistics (Zhang & Vogel 2004, 3.3);
the score of any set of segments -- the whole test set, a bootstrap resample, a subset in a
study -- is the metric's formula applied to the sum of their rows. ``score`` takes an array of
summed rows of any leading shape ``(..., k)`` and returns one score per row, so the bootstrap
can score thousands of resamples in one call.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Generator
from typing import TYPE_CHECKING, Any, ClassVar, Self

import numpy as np

from mtgui.engine.core.arrays import FloatArray

if TYPE_CHECKING:
    from mtgui.engine.core.corpus import SystemOutput, TestSet
    from mtgui.engine.metrics.extraction import ExtractionContext
    from mtgui.engine.metrics.settings import MetricSettings


class Metric(ABC):
    """One metric: its statistics columns, its formula, and how it reads."""

    name: ClassVar[str]  # the id used on the command line and in reports: "bleu"
    label: ClassVar[str]  # how people write it: "BLEU"
    description: ClassVar[str]  # one sentence on what it measures (the settings panel's tip)
    higher_is_better: ClassVar[bool] = True
    scale: ClassVar[str]  # "0-1", "0-100", "unbounded", ...
    # Scores are positive and 0 means none: a relative interval and an RSD mean something.
    ratio_scale: ClassVar[bool] = True
    # The MetricSettings fields its statistics rows depend on (None: all of them). The cache of
    # rows (mtgui.engine.statistics.cache) reuses a metric's rows for any other change.
    reads: ClassVar[tuple[str, ...] | None] = None
    columns: tuple[str, ...]  # the names of the statistics columns

    @classmethod
    def for_test_set(cls, test_set: TestSet, settings: MetricSettings | None = None) -> Self:
        """The metric that scores outputs of ``test_set``: the registry's factory.

        Most metrics need nothing of the test set or the settings; one that does (NIST needs
        the number of references, chrF its orders and beta, which change its columns and its
        formula) says so here, so that choosing metrics by name needs no list of exceptions.
        """
        return cls()

    def prepare(self, context: ExtractionContext) -> None:
        """Build now what this metric's extraction keeps in ``context`` for every system (its
        side of the references), so that a helper forked next shares it instead of building it
        again (:mod:`~mtgui.engine.statistics.system_helper`). A metric that keeps nothing does
        nothing."""
        return None

    @abstractmethod
    def extract(self, context: ExtractionContext, system: SystemOutput) -> FloatArray:
        """The statistics rows of every segment, shape (N, len(columns))."""

    def iter_extract(
        self, context: ExtractionContext, system: SystemOutput
    ) -> Generator[int, None, FloatArray]:
        """:meth:`extract` as a generator that yields the segments done after each chunk of
        its work, so that a slow metric can be cancelled between chunks (closing the
        generator). Most metrics work on all segments at once, in one step, and yield nothing.
        """
        rows = self.extract(context, system)
        yield from ()
        return rows

    @abstractmethod
    def score(self, sums: FloatArray) -> FloatArray:
        """Scores from summed rows: ``(..., k) -> (...)``."""

    def score_one(self, sums: FloatArray) -> float:
        """The score of a single summed row."""
        return float(self.score(np.asarray(sums, dtype=np.float64)))

    def segment_scores(self, rows: FloatArray) -> FloatArray:
        """A score per segment for display and export; by default the corpus formula per row."""
        with np.errstate(divide="ignore", invalid="ignore"):
            return self.score(rows)

    def summary(self, sums: FloatArray) -> dict[str, Any]:
        """Score-level details beyond the score itself (brevity penalty, lengths...)."""
        return {}

    def details(self, sums: FloatArray) -> list[dict[str, Any]]:
        """Per-order rows of the detail table, where the metric has one."""
        return []

    def signature(self) -> str:
        """What must be known to reproduce the metric's numbers, besides the shared settings."""
        return self.name
