"""Choices of the analysis that the settings hold: the test that decides the grid of a metric
that is a mean of segment scores, and how intervals are read from the resamples.

Their own module so that the settings (:mod:`mtgui.engine.resampling.settings`) can hold them
without importing the code that uses them (:mod:`mtgui.engine.inference.segment_tests` and
:mod:`mtgui.engine.resampling.bca`, which need the statistics).
"""

from __future__ import annotations

from enum import StrEnum


class DecidingTest(StrEnum):
    """The test whose p-value decides the grid of a metric that is a mean of segment scores."""

    BOOTSTRAP = "bootstrap"
    T = "t"
    WILCOXON = "wilcoxon"

    @property
    def label(self) -> str:
        """How people name it."""
        return {
            DecidingTest.BOOTSTRAP: "the paired bootstrap",
            DecidingTest.T: "the paired t-test",
            DecidingTest.WILCOXON: "the Wilcoxon signed-rank test",
        }[self]


class IntervalMethod(StrEnum):
    """How a bootstrap interval is read from the resamples (:mod:`mtgui.engine.resampling.bca`).

    ``PERCENTILE`` takes the resamples' percentiles (Koehn 2004); ``BCA`` moves them to correct
    the resamples' bias and skew (Efron 1987); ``STUDENTIZED`` divides each resample by its own
    standard error (bootstrap-t, :mod:`mtgui.engine.resampling.studentized`); ``AUTO`` (the default)
    chooses by the number of units (:func:`mtgui.engine.resampling.settings.resolve_interval`).
    """

    AUTO = "auto"
    PERCENTILE = "percentile"
    BCA = "bca"
    STUDENTIZED = "studentized"

    @property
    def label(self) -> str:
        """How people name it."""
        return {
            IntervalMethod.AUTO: "automatic",
            IntervalMethod.PERCENTILE: "percentile",
            IntervalMethod.BCA: "BCa",
            IntervalMethod.STUDENTIZED: "studentized",
        }[self]
