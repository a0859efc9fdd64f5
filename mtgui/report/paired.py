"""One pair of systems in detail: the paired bootstrap deltas behind a cell of the grid.

The grid says only ``>``, ``<`` or ``~``; a user who doubts a verdict wants to see the whole
distribution of ``x_b - y_b`` over the resamples (Zhang & Vogel 3.2; Koehn 2004, 6): where 0
falls in it, how wide the interval is, how often x wins. The resamples are the ones the
analysis drew, so this view and the grid can never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mtgui.engine.core import FloatArray
from mtgui.engine.inference import Correction, PairComparison, SegmentComparison
from mtgui.engine.resampling import BootstrapResult
from mtgui.report.significance import verdict_basis


@dataclass(frozen=True)
class PairedDeltas:
    """The comparison of x with y under one metric and its per-resample deltas."""

    comparison: PairComparison
    deltas: FloatArray  # x_b - y_b for every resample whose two scores are defined
    higher_is_better: bool
    level: float
    correction: Correction
    basis: str  # what the verdict rests on, in words (the level, the correction)
    unit: str = "segment"  # what was resampled
    segments: SegmentComparison | None = None  # the segment-level tests and win/loss rates

    @property
    def resamples(self) -> int:
        """How many resamples the deltas come from."""
        return len(self.deltas)

    @property
    def better_side(self) -> str:
        """Which side of 0 means x is better, in words ('right' or 'left')."""
        return "right" if self.higher_is_better else "left"


def paired_deltas(
    result: BootstrapResult, metric: str, x: str, y: str, higher_is_better: bool
) -> PairedDeltas:
    """The deltas of x against y under ``metric``, from the analysis's own resamples."""
    if x == y:
        raise ValueError("a system is compared with another system, not with itself")
    differences = result.interval(x, metric).samples - result.interval(y, metric).samples
    valid = differences[~np.isnan(differences)]
    valid.flags.writeable = False
    settings = result.settings
    return PairedDeltas(
        result.pair(metric, x, y),
        valid,
        higher_is_better,
        settings.level,
        settings.correction,
        verdict_basis(result, metric),
        settings.unit.value,
        result.segment_comparison(metric, x, y),
    )
