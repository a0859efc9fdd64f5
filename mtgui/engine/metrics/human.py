"""Human (or any per-segment numeric) scores as a metric.

The system score is the mean of the segment means over the segments that were judged, which is
how WMT computes its DA system scores. Statistics row: [segment mean or 0, 1 if judged else 0].
A system without loaded scores scores NaN. Units are those of the scores.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import numpy as np

from mtgui.engine.metrics.base import FloatArray, Metric

if TYPE_CHECKING:
    from mtgui.engine.corpus import SystemOutput
    from mtgui.engine.extraction import ExtractionContext


class Human(Metric):
    """The mean of the loaded per-segment judgments."""

    name: ClassVar[str] = "human"
    label: ClassVar[str] = "Human"
    description: ClassVar[str] = (
        "The mean of the per-segment scores you loaded (e.g. human judgments)."
    )
    scale: ClassVar[str] = "the scores' own units"
    ratio_scale: ClassVar[bool] = False  # z-scores centre on 0: no relative interval, no RSD
    columns = ("score_sum", "judged")

    def extract(self, context: ExtractionContext, system: SystemOutput) -> FloatArray:
        """[mean, 1] for judged segments, [0, 0] for the others."""
        scores = context.scores_of(system.name)
        size = context.test_set.size
        if scores is None:
            return np.zeros((size, 2))
        judged = scores.counts > 0
        return np.column_stack([np.where(judged, scores.means, 0.0), judged]).astype(np.float64)

    def score(self, sums: FloatArray) -> FloatArray:
        """Mean over judged segments; NaN where none was judged."""
        judged = sums[..., 1]
        return np.where(judged > 0, sums[..., 0] / np.where(judged > 0, judged, 1.0), np.nan)
